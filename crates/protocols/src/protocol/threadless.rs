//! The line protocol for a host without threads: [`Threadless`] answers one line at a time.

use super::input::{Input, MAX_LINE_BYTES};
use super::reply::Reply;
use super::session::{Flow, Session};
use konakis_engine::search::{SearchError, Signal};

/// The line protocol for a host without threads, one line at a time: what `run` does for a
/// byte stream, with `go`, `go perft` and `bench` running to completion inside
/// [`Threadless::line`]. Meanwhile `poll`, given at the start, is asked every few thousand
/// nodes whether a `stop` (or a `ponderhit`) has come; the host keeps those lines' effect in
/// memory `poll` can read (a browser: a shared buffer) and sends the lines too, in order, as
/// any others (a late `stop` does nothing; a late `ponderhit` is refused as with no ponder
/// search running, so a host that answered one through `poll` does not send it again).
pub struct Threadless<R: Reply> {
    session: Session<R>,
    quit: bool,
}

impl<R: Reply> Threadless<R> {
    /// A session with the default options, answering through `out`, or the error if the
    /// engine cannot be set up (the host should say so: nothing was written).
    pub fn new(out: R, poll: fn() -> Signal) -> Result<Threadless<R>, SearchError> {
        Ok(Threadless {
            session: Session::inline(out, poll)?,
            quit: false,
        })
    }

    /// Answers `text`, one line of input or several separated by `\n` (a `\r` before it
    /// dropped, as the program reads them). Returns `false` once `quit` has come: nothing
    /// more is answered.
    pub fn line(&mut self, text: &str) -> bool {
        for line in text.split('\n') {
            if self.quit {
                break;
            }
            let line = line.strip_suffix('\r').unwrap_or(line);
            let input = if line.len() > MAX_LINE_BYTES {
                Input::TooLong(line.len())
            } else {
                Input::Line(line.to_string())
            };
            self.quit = self.session.input(input) == Flow::Quit;
        }
        !self.quit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::run;
    use std::io::{Read, Write};
    use std::sync::mpsc::{self, Receiver};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// Input fed line by line from a channel (blocks until the next line or the end).
    struct Feed {
        lines: Receiver<String>,
        pending: Vec<u8>,
    }

    impl Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() {
                match self.lines.recv() {
                    Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            Ok(n)
        }
    }

    /// Output lines handed over one by one.
    struct Lines {
        sink: mpsc::Sender<String>,
        partial: Vec<u8>,
    }

    impl Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.partial.extend_from_slice(buf);
            while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.partial.drain(..=i).collect();
                let text = String::from_utf8_lossy(&line[..i]).into_owned();
                let _ = self.sink.send(text);
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The threadless session's lines, gathered.
    #[derive(Clone, Default)]
    struct Gathered(Arc<Mutex<Vec<String>>>);

    impl Reply for Gathered {
        fn lines(&self, texts: &[String]) {
            self.0.lock().unwrap().extend_from_slice(texts);
        }

        fn close(&self) {}
    }

    /// A line with its clock readings blanked (they differ from run to run).
    fn timeless(line: &str) -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let mut blanked = words.clone();
        for i in 1..words.len() {
            if matches!(words[i - 1], "nps" | "time" | "(ms):" | "Nodes/second:") {
                blanked[i] = "_";
            }
        }
        blanked.join(" ")
    }

    #[test]
    fn the_threadless_session_answers_line_for_line_as_the_program() {
        // Each command, and the line that ends its answer (then `isready` is sent too, so
        // that the program has answered everything before the next command).
        let script: &[(&str, &str)] = &[
            ("uci", "uciok"),
            ("setoption name Hash value 0", ""),
            ("setoption name MultiPV value 2", ""),
            ("nonsense words", ""),
            ("position startpos moves e2c2 e3d3", ""),
            ("position startpos moves a1a2", ""),
            ("go depth 4", "bestmove"),
            ("setoption name MultiPV value 1", ""),
            ("go perft 2", "Nodes searched"),
            ("d", ""),
            ("eval", ""),
            ("ponderhit", ""),
            ("stop", ""),
            ("go depth 3 searchmoves e9e8", ""),
            ("setoption name KingCapture value English", ""),
            // Without the mover's clock: as with 0 ms left, which only depth 1 makes exact.
            ("go depth 1 wtime 1000", "bestmove"),
            ("go depth 3 wtime 100000 btime 100000", "bestmove"),
            ("bench 2", "Nodes/second"),
            ("position fen 9/9/9/9/4K4/9/9/9/9 b 0", ""),
            ("go depth 2", "bestmove"),
        ];
        let (to_program, input) = mpsc::channel();
        let (sink, from_program) = mpsc::channel();
        let program = std::thread::spawn(move || {
            let feed = Feed {
                lines: input,
                pending: Vec::new(),
            };
            run(
                feed,
                Lines {
                    sink,
                    partial: Vec::new(),
                },
            )
        });
        let gathered = Gathered::default();
        let mut threadless = Threadless::new(gathered.clone(), || Signal::Continue).unwrap();
        let mut native = Vec::new();
        let next = |until: &str, native: &mut Vec<String>| loop {
            let line = from_program
                .recv_timeout(Duration::from_secs(60))
                .expect("the program answers");
            let done = line.starts_with(until);
            native.push(line);
            if done {
                return;
            }
        };
        for &(command, until) in script {
            to_program.send(command.to_string()).unwrap();
            assert!(threadless.line(command));
            if !until.is_empty() {
                next(until, &mut native);
            }
            to_program.send("isready".to_string()).unwrap();
            assert!(threadless.line("isready"));
            next("readyok", &mut native);
        }
        to_program.send("quit".to_string()).unwrap();
        assert!(!threadless.line("quit"));
        assert!(!threadless.line("isready"), "nothing after quit");
        program.join().unwrap().unwrap();
        let threadless = gathered.0.lock().unwrap().clone();
        // `currmove` lines come after a second of search: on a slow machine only, not in both.
        let comparable = |lines: &[String]| -> Vec<String> {
            lines
                .iter()
                .filter(|l| !l.contains(" currmove "))
                .map(|l| timeless(l))
                .collect()
        };
        let (native, threadless) = (comparable(&native), comparable(&threadless));
        assert_eq!(threadless, native);
        assert!(native.len() > 100, "{native:?}");
        assert!(
            native
                .iter()
                .any(|l| l.starts_with("info string error: setoption"))
        );
        assert!(native.iter().any(|l| l.starts_with("bestmove")));
    }
}
