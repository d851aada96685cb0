//! The engine protocol: a UCI-like line protocol on stdin and stdout, described for users in
//! `protocol.md`.
//!
//! Three parts:
//! - [`command`] turns each line into a [`Command`] or a typed error, before anything is done;
//! - [`options`] is the one table of options (engine settings and rule options);
//! - the session (private) runs commands against the engine, the current game and the options.
//!
//! A reader thread owns the input and hands whole lines to the session over a channel, so a
//! running search, perft or bench never keeps `isready` or `stop` waiting. Every reply is one
//! line written and flushed under a lock, so lines from the search thread and the session never
//! mix.

pub mod command;
pub mod options;
mod session;

pub use command::{Command, ParseError, Start};

use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// Longest line read in full, in bytes. Longer lines are dropped with an error (their bytes are
/// read and discarded, so memory stays bounded whatever arrives).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads protocol commands on stdin and answers on stdout until `quit` or the end of input.
pub fn run_stdio() -> ExitCode {
    run(std::io::stdin(), std::io::stdout())
}

/// Runs the protocol on any input and output (stdin and stdout for the program; in-memory
/// pipes in tests). Returns when `quit` arrives or the input ends.
pub fn run<R, W>(input: R, output: W) -> ExitCode
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Output::new(output);
    let lines = spawn_reader(input);
    session::Session::new(out).serve(lines);
    ExitCode::SUCCESS
}

/// What the reader thread hands over.
#[derive(Debug)]
pub(crate) enum Input {
    /// One line, without its end, bytes that are not UTF-8 replaced.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], discarded; its length in bytes.
    TooLong(usize),
    /// The input ended (or failed).
    End,
}

/// Starts the thread that reads `input` line by line.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = BufReader::with_capacity(64 * 1024, input);
        let mut line: Vec<u8> = Vec::new();
        let mut length = 0usize;
        loop {
            let (done, used) = match input.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => (None, 0),
                Ok([]) => (None, 0),
                Ok(chunk) => match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        keep(&mut line, &chunk[..i], &mut length);
                        (Some(true), i + 1)
                    }
                    None => {
                        keep(&mut line, chunk, &mut length);
                        (Some(false), chunk.len())
                    }
                },
            };
            input.consume(used);
            let ended = done.is_none();
            if done == Some(true) || (ended && length > 0) {
                let item = if length > MAX_LINE_BYTES {
                    Input::TooLong(length)
                } else {
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    Input::Line(String::from_utf8_lossy(&line).into_owned())
                };
                line.clear();
                length = 0;
                if tx.send(item).is_err() {
                    return;
                }
            }
            if ended {
                let _ = tx.send(Input::End);
                return;
            }
        }
    });
    rx
}

/// Appends `bytes` to `line` while it stays within [`MAX_LINE_BYTES`]; counts them all.
fn keep(line: &mut Vec<u8>, bytes: &[u8], length: &mut usize) {
    *length += bytes.len();
    if *length <= MAX_LINE_BYTES {
        line.extend_from_slice(bytes);
    } else {
        line.clear();
    }
}

/// The output: whole lines, each flushed, under one lock. Shared by the session and the search
/// and tool threads. After [`Output::close`] nothing more is written.
#[derive(Clone)]
pub(crate) struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
}

impl Output {
    fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(w))),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line and flushes it. A failed write (the reader went away) is not an error
    /// here: the end of the input follows.
    pub(crate) fn line(&self, text: &str) {
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }

    /// Writes several lines at once, none of another thread's between them.
    pub(crate) fn lines<S: AsRef<str>>(&self, texts: &[S]) {
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        for t in texts {
            let _ = writeln!(sink, "{}", t.as_ref());
        }
        let _ = sink.flush();
    }

    /// `info string error: <message>`, as one line whatever the message holds.
    pub(crate) fn error(&self, message: &str) {
        self.line(&format!("info string error: {}", one_line(message)));
    }

    /// `info string <message>`.
    pub(crate) fn info(&self, message: &str) {
        self.line(&format!("info string {}", one_line(message)));
    }

    /// Stops all output (on `quit`).
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }
}

/// Escapes control characters (line ends included) and bounds the length, so that a message
/// built from input is one line.
fn one_line(message: &str) -> String {
    command::bounded_line(message, 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn read_all(bytes: &[u8]) -> Vec<String> {
        let rx = spawn_reader(Cursor::new(bytes.to_vec()));
        let mut v = Vec::new();
        loop {
            match rx.recv().unwrap() {
                Input::Line(l) => v.push(l),
                Input::TooLong(n) => v.push(format!("<too long {n}>")),
                Input::End => return v,
            }
        }
    }

    #[test]
    fn reader_splits_lines_and_survives_junk() {
        assert_eq!(
            read_all(b"uci\r\nisready\n\nd"),
            ["uci", "isready", "", "d"]
        );
        assert_eq!(read_all(b"a\xff\xfeb\n"), ["a\u{fffd}\u{fffd}b"]);
        let mut big = vec![b'x'; MAX_LINE_BYTES + 10];
        big.extend_from_slice(b"\nisready\n");
        assert_eq!(
            read_all(&big),
            [
                format!("<too long {}>", MAX_LINE_BYTES + 10),
                "isready".into()
            ]
        );
        assert!(read_all(b"").is_empty());
    }

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert!(one_line(&"y".repeat(5000)).chars().count() <= 1003);
    }
}
