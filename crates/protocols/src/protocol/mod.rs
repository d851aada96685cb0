//! The engine protocol: a UCI-like line protocol on stdin and stdout, described for users in
//! `protocol.md`.
//!
//! Three parts:
//! - [`command`] turns each line into a [`Command`] or a typed error, before anything is done;
//! - [`options`] is the one table of options (engine settings and rule options);
//! - the session (private) runs commands against the engine, the current game and the options.
//!
//! [`run`] serves a byte stream with threads, as the program does. [`Threadless`] is the same
//! session for a host without threads (a browser's Web Worker): it answers one line at a
//! time, and `go`, `go perft` and `bench` run to completion inside that call, stopped by a
//! function the host supplies. Both give the same lines for the same input.
//!
//! A reader thread owns the input and hands whole lines to the session over a channel, so a
//! running search, perft or bench never keeps `isready` or `stop` waiting. Replies are queued
//! whole, a line or a group of lines at a time, so lines from the search thread and the session
//! never mix; a writer thread owns the output. A peer that stops reading therefore blocks only
//! the writer: once `quit` or the end of the input has been read, what no longer fits in the
//! queue is dropped, and the process ends.

pub mod command;
pub use konakis_engine::options;
mod session;

pub use command::{BadMilliseconds, BadMove, Command, NotInRange, ParseError, Reason, Start};

use konakis_engine::bench::BenchCount;
use konakis_engine::options::{Kind, OptionRow};
use konakis_engine::search::{SearchError, Signal};
use session::{Flow, Session};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Longest line read in full, in bytes. Longer lines are dropped with an error (their bytes are
/// read and discarded, so memory stays bounded whatever arrives).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Output queued for the writer thread, in bytes, beyond which a new reply waits for room
/// (until `quit` or the end of the input, after which it is dropped).
const OUTPUT_QUEUE_BYTES: usize = 1 << 20;

/// At the end, how long the output may make no progress before the process leaves without the
/// rest (the peer is not reading).
const OUTPUT_STALL: Duration = Duration::from_millis(500);

/// The `option name … type …` line of `row` in the `uci` reply.
pub fn option_line(row: &OptionRow) -> String {
    let mut s = format!("option name {} type ", row.name);
    match row.kind {
        Kind::Check { default } => s.push_str(&format!("check default {default}")),
        Kind::Spin { default, min, max } => {
            s.push_str(&format!("spin default {default} min {min} max {max}"))
        }
        Kind::Combo { default, values } => {
            s.push_str(&format!("combo default {default}"));
            for v in values {
                s.push_str(" var ");
                s.push_str(v);
            }
        }
        Kind::Button => s.push_str("button"),
        Kind::Text { default } => s.push_str(&format!("string default {default}")),
    }
    s
}

/// The closing lines of a bench, here and in `konakis bench`: time, `Nodes searched: N` (which
/// tests and scripts read), `Nodes/second: N`.
pub fn bench_summary(total: &BenchCount) -> [String; 3] {
    [
        format!("Total time (ms): {}", total.elapsed.as_millis()),
        format!("Nodes searched: {}", total.nodes),
        format!("Nodes/second: {}", total.nps()),
    ]
}

/// Runs the protocol on any input and output (stdin and stdout for the program; in-memory
/// pipes in tests). Returns when `quit` arrives or the input ends, or at once with the error
/// (after saying so on the output) if the engine cannot be set up.
pub fn run<R, W>(input: R, output: W) -> Result<(), SearchError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Output::new(output);
    let last = out.clone();
    // Once `quit` or the end of the input has been read, output that finds the queue full is
    // dropped: nobody will wait for it, and waiting could hang the process.
    let lines = spawn_reader_with(input, move |item| {
        let last_word = match item {
            Input::End => true,
            Input::Line(l) => is_quit(l),
            Input::TooLong(_) => false,
        };
        if last_word {
            last.abandon();
        }
    });
    let result = match Session::threaded(out.clone()) {
        Ok(session) => {
            session.serve(lines);
            Ok(())
        }
        Err(e) => {
            out.error(&format!("cannot start the engine: {e}"));
            Err(e)
        }
    };
    out.drain();
    result
}

/// Whether `line` is the `quit` command.
fn is_quit(line: &str) -> bool {
    line.trim_start()
        .get(..4)
        .is_some_and(|w| w.eq_ignore_ascii_case("quit"))
        && matches!(command::parse(line), Ok(Some(Command::Quit)))
}

/// Where a session's lines go: the program's output, or a browser host's callback.
pub trait Reply: Clone + Send + 'static {
    /// Writes several lines at once (each without its line end), none of another thread's
    /// between them.
    fn lines(&self, texts: &[String]);

    /// From now on nothing more is written (after `quit`).
    fn close(&self);

    /// Writes one line.
    fn line(&self, text: &str) {
        self.lines(&[text.to_string()]);
    }

    /// `info string error: <message>`, as one line whatever the message holds.
    fn error(&self, message: &str) {
        self.line(&format!("info string error: {}", one_line(message)));
    }

    /// `info string <message>`, as one line.
    fn info(&self, message: &str) {
        self.line(&format!("info string {}", one_line(message)));
    }
}

/// The line protocol for a host without threads, one line at a time: what [`run`] does for a
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
    spawn_reader_with(input, |_| {})
}

/// [`spawn_reader`], calling `seen` with each item just before it is handed over.
fn spawn_reader_with<R: Read + Send + 'static>(
    input: R,
    seen: impl Fn(&Input) + Send + 'static,
) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    // Without a reader thread the input cannot be read at all; the session then sees its end.
    let _ = std::thread::Builder::new()
        .name("konakis-input".into())
        .spawn(move || {
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
                    seen(&item);
                    if tx.send(item).is_err() {
                        return;
                    }
                }
                if ended {
                    seen(&Input::End);
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

/// The output: replies queued whole for a writer thread that writes and flushes them. Shared by
/// the session and the search and tool threads. After [`Output::close`] nothing more is queued.
#[derive(Clone)]
pub(crate) struct Output {
    queue: Arc<Queue>,
    closed: Arc<AtomicBool>,
}

/// What the writer thread shares with those who queue lines.
struct Queue {
    state: Mutex<QueueState>,
    /// Signalled when text is queued, written, or the queue is given up.
    changed: Condvar,
}

#[derive(Default)]
struct QueueState {
    /// Text not yet handed to the writer.
    pending: String,
    /// The writer is writing text it took.
    writing: bool,
    /// Bytes written so far (progress, for [`Output::drain`]).
    written: u64,
    /// A write failed: the peer is gone, and nothing more is queued.
    broken: bool,
    /// `quit` or the end of the input was read: text that finds the queue full is dropped.
    abandoned: bool,
}

impl Output {
    fn new<W: Write + Send + 'static>(w: W) -> Output {
        let queue = Arc::new(Queue {
            state: Mutex::new(QueueState::default()),
            changed: Condvar::new(),
        });
        let q = Arc::clone(&queue);
        let mut sink: Box<dyn Write + Send> = Box::new(w);
        let spawned = std::thread::Builder::new()
            .name("konakis-output".into())
            .spawn(move || {
                loop {
                    let text = {
                        let mut st = q.lock();
                        while st.pending.is_empty() {
                            st = q.changed.wait(st).unwrap_or_else(|p| p.into_inner());
                        }
                        st.writing = true;
                        std::mem::take(&mut st.pending)
                    };
                    let ok = sink.write_all(text.as_bytes()).is_ok() && sink.flush().is_ok();
                    let mut st = q.lock();
                    st.writing = false;
                    st.written += text.len() as u64;
                    st.broken |= !ok;
                    q.changed.notify_all();
                }
            });
        if spawned.is_err() {
            // No writer: nothing can be said; the output counts as gone.
            queue.lock().broken = true;
        }
        Output {
            queue,
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// `quit` or the end of the input was read: from now on a reply that finds the queue full
    /// is dropped instead of waiting for room.
    fn abandon(&self) {
        self.queue.lock().abandoned = true;
        self.queue.changed.notify_all();
    }

    /// Waits until everything queued is written, the output fails, or it makes no progress
    /// for [`OUTPUT_STALL`] (the peer does not read).
    fn drain(&self) {
        let q = &self.queue;
        let mut st = q.lock();
        let mut progress = (st.written, Instant::now());
        while (st.writing || !st.pending.is_empty()) && !st.broken {
            if st.written != progress.0 {
                progress = (st.written, Instant::now());
            } else if progress.1.elapsed() >= OUTPUT_STALL {
                return;
            }
            st = q.wait(st);
        }
    }
}

impl Reply for Output {
    /// Queues the lines for the writer. A failed write (the reader went away) is not an error
    /// here: the end of the input follows.
    fn lines(&self, texts: &[String]) {
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        let q = &self.queue;
        let mut st = q.lock();
        while st.pending.len() >= OUTPUT_QUEUE_BYTES && !st.broken && !st.abandoned {
            st = q.wait(st);
        }
        if st.broken || (st.abandoned && st.pending.len() >= OUTPUT_QUEUE_BYTES) {
            return;
        }
        for t in texts {
            st.pending.push_str(t);
            st.pending.push('\n');
        }
        q.changed.notify_all();
    }

    /// Stops all output (on `quit`).
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a change, or a short while: a waiter rechecks its condition either way.
    fn wait<'a>(&self, guard: MutexGuard<'a, QueueState>) -> MutexGuard<'a, QueueState> {
        match self.changed.wait_timeout(guard, Duration::from_millis(20)) {
            Ok((g, _)) => g,
            Err(p) => p.into_inner().0,
        }
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

    #[test]
    fn messages_stay_on_one_line() {
        assert_eq!(one_line("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert!(one_line(&"y".repeat(5000)).chars().count() <= 1003);
    }

    #[test]
    fn option_lines() {
        let line = |name| option_line(options::find(name).unwrap());
        assert_eq!(
            line("KingCapture"),
            "option name KingCapture type combo default Original var Original var English"
        );
        assert_eq!(line("Clear Hash"), "option name Clear Hash type button");
        assert_eq!(
            line("Skill Level"),
            "option name Skill Level type spin default 20 min 0 max 20"
        );
        assert_eq!(
            line("MoveLimit"),
            "option name MoveLimit type spin default 200 min 0 max 10000"
        );
        assert_eq!(
            line("uci_showwdl"),
            "option name UCI_ShowWDL type check default false"
        );
    }
}
