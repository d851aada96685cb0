//! The engine behind the line protocol (`protocol.md`), for a Web Worker.
//!
//! [`Session`] is [`konakis_protocols::protocol::Threadless`] with JavaScript callbacks: the
//! command handling is the native program's, line for line. A worker has one thread, so
//! `go`, `go perft` and `bench` run to completion inside [`Session::line`]; meanwhile they ask
//! the stop-poll function (see [`Session::set_stop_poll`]) every thousand nodes or so whether
//! a `stop` or `ponderhit` has come. The page keeps that news in a `SharedArrayBuffer` the
//! function reads with `Atomics.load` (the package's `worker.js` does this).
//!
//! The callbacks are JavaScript functions, which cannot cross threads, while the search's
//! report callback must be `Send` (it is the same search as the native one). So the session
//! hands them over through a thread-local slot, filled for the duration of each
//! [`Session::line`] call: the search's output and poll go to the session whose line is
//! being answered, and several sessions in one worker never mix.

use js_sys::Function;
use konakis_engine::search::Signal;
use konakis_protocols::protocol::{Reply, Threadless};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The callbacks of the session answering a line now.
#[derive(Clone)]
struct Host {
    output: Function,
    poll: Option<Function>,
}

thread_local! {
    static HOST: RefCell<Option<Host>> = const { RefCell::new(None) };
}

/// Lines go to the output callback of the session answering a line now.
#[derive(Clone, Copy)]
struct JsReply;

impl Reply for JsReply {
    fn lines(&self, texts: &[String]) {
        let output = HOST.with(|h| h.borrow().as_ref().map(|h| h.output.clone()));
        if let Some(output) = output {
            for text in texts {
                // A callback that throws loses its line, not the session.
                let _ = output.call1(&JsValue::NULL, &JsValue::from_str(text));
            }
        }
    }

    /// Nothing to close: after `quit`, [`Session::line`] answers nothing more.
    fn close(&self) {}
}

/// What the poll function's return value means: 1 stop, 2 ponderhit, anything else go on.
fn poll() -> Signal {
    let poll = HOST.with(|h| h.borrow().as_ref().and_then(|h| h.poll.clone()));
    let Some(poll) = poll else {
        return Signal::Continue;
    };
    match poll.call0(&JsValue::NULL).ok().and_then(|v| v.as_f64()) {
        Some(1.0) => Signal::Stop,
        Some(2.0) => Signal::PonderHit,
        _ => Signal::Continue,
    }
}

/// One protocol session: the engine, its options and the current game.
#[wasm_bindgen]
pub struct Session {
    inner: Threadless<JsReply>,
    host: Host,
}

#[wasm_bindgen]
impl Session {
    /// A session with the default options that writes each output line (without its line
    /// end) by calling `output(line)`. Fails if the engine's table cannot be allocated.
    #[wasm_bindgen(constructor)]
    pub fn new(output: Function) -> Result<Session, JsError> {
        let inner = Threadless::new(JsReply, poll)
            .map_err(|e| JsError::new(&format!("cannot start the engine: {e}")))?;
        Ok(Session {
            inner,
            host: Host { output, poll: None },
        })
    }

    /// Sets the function that work in progress asks, every thousand nodes or so, whether to
    /// stop: it returns 1 for `stop`, 2 for `ponderhit`, 0 (or anything else) to go on.
    /// `undefined` removes it; a search then stops only at its own limits.
    #[wasm_bindgen(js_name = setStopPoll)]
    pub fn set_stop_poll(&mut self, poll: Option<Function>) {
        self.host.poll = poll;
    }

    /// Answers one line of input (several if it holds `\n`), as the native program would;
    /// `go`, `go perft` and `bench` return only when done or stopped. Returns `false` once
    /// `quit` has come, after which nothing more is answered.
    pub fn line(&mut self, text: &str) -> bool {
        let outer = HOST.with(|h| h.replace(Some(self.host.clone())));
        let more = self.inner.line(text);
        HOST.with(|h| *h.borrow_mut() = outer);
        more
    }
}
