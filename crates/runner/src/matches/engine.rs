//! One engine as a child process: start-up and the `uci` handshake, lines sent and received
//! with hard deadlines, and a clean (or forced) end.
//!
//! A reader thread per engine turns its stdout into timestamped lines on a channel, so a
//! move's time is measured when its line arrives, not when the game thread gets round to it,
//! and waiting never blocks past a deadline. Engines run in their own process group: Ctrl-C in
//! the terminal reaches the runner only, which then ends them itself.

use super::config::EngineSpec;
use super::cpu_wait::{CpuWait, group_members};
use super::error::{OutputError, SpawnError};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Stderr lines kept to explain a crash.
const STDERR_TAIL: usize = 8;
/// How long [`EngineProcess::exit_description`] waits for an engine that closed its output to
/// exit and for its last stderr lines.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);
/// How long a wait past the deadline lasts before it looks again at an engine thread that is
/// waiting for a CPU.
const STARVED_STEP: Duration = Duration::from_millis(10);
/// How often the engine's threads are looked at while the runner waits for an answer.
const SAMPLE_STEP: Duration = Duration::from_millis(10);
/// The most a move may be late for the machine's sake before it is a timeout all the same.
pub const MAX_FORGIVEN: Duration = Duration::from_secs(10);

/// What came from an engine's stdout: the lines of one read (so lines written together are
/// seen together), with the time they arrived and how long the reading thread had waited for a
/// CPU since the previous read (the runner's own delay in reading them); or the end of the
/// output.
enum Event {
    Lines(Instant, Duration, Vec<String>),
    Closed,
}

/// Why a wait for an engine ended without the line it waited for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Nothing suitable before the deadline.
    Timeout,
    /// The engine closed its output or its input: it has exited or is exiting. The text says
    /// how (exit status, last lines of stderr).
    Exited(String),
    /// The match is stopping.
    Aborted,
}

/// A shared log of every line exchanged (`--log`).
pub struct Log {
    file: Mutex<std::io::BufWriter<File>>,
    start: Instant,
}

impl Log {
    /// Creates (truncates) the log file.
    pub fn create(path: &std::path::Path) -> Result<Log, OutputError> {
        let f = File::create(path).map_err(|source| OutputError::Log {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Log {
            file: Mutex::new(std::io::BufWriter::new(f)),
            start: Instant::now(),
        })
    }

    /// Writes one line: the time, the engine's name, the direction (`<` sent, `>` received,
    /// `!>` its stderr) and the text.
    pub fn write(&self, who: &str, dir: &str, line: &str) {
        if let Ok(mut f) = self.file.lock() {
            let t = self.start.elapsed().as_secs_f64();
            let _ = writeln!(f, "{t:10.3} {who} {dir} {line}");
            let _ = f.flush();
        }
    }
}

/// What the engine announced in its `uci` reply.
#[derive(Clone, Debug, Default)]
pub struct Identity {
    /// `id name …`.
    pub name: Option<String>,
    /// The names of its `option name … type …` lines.
    pub options: Vec<String>,
    /// The `var` values of its `UCI_Variant` option: the games it can be told to play.
    pub variants: Vec<String>,
}

/// A running engine.
pub struct EngineProcess {
    /// The engine's name in the match (for the log).
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Lines received but not yet read, with the reading thread's CPU wait before them.
    pending: VecDeque<(Instant, Duration, String)>,
    /// The reading thread's CPU wait before the line [`recv`](Self::recv) returned last.
    read_wait: Duration,
    /// [`measured`](Self::measured), once known.
    group: Option<Vec<u32>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The thread that fills `stderr_tail`; it ends at the end of the engine's stderr.
    stderr_reader: std::thread::JoinHandle<()>,
    log: Option<Arc<Log>>,
    closed: bool,
}

impl EngineProcess {
    /// Starts the program. Fails when it cannot be started at all.
    pub fn spawn(spec: &EngineSpec, log: Option<Arc<Log>>) -> Result<EngineProcess, SpawnError> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|source| SpawnError::Program {
            cmd: spec.cmd.clone(),
            source,
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        let (tx, events) = channel();
        std::thread::Builder::new()
            .name(format!("{}-out", spec.name))
            .spawn(move || {
                let mut reader = BufReader::with_capacity(1 << 16, stdout);
                let mut buf = Vec::with_capacity(256);
                let mut waited = own_cpu_wait();
                loop {
                    // One blocking read, then every complete line already buffered.
                    let mut lines = Vec::new();
                    let mut closed = false;
                    let mut now = Instant::now();
                    loop {
                        buf.clear();
                        match read_line_capped(&mut reader, &mut buf) {
                            Ok(0) | Err(_) => {
                                closed = true;
                                break;
                            }
                            Ok(_) => {
                                if lines.is_empty() {
                                    now = Instant::now();
                                }
                                let text = String::from_utf8_lossy(&buf);
                                lines.push(text.trim_end_matches(['\n', '\r']).to_string());
                            }
                        }
                        if !reader.buffer().contains(&b'\n') {
                            break;
                        }
                    }
                    if !lines.is_empty() {
                        let before = waited;
                        waited = own_cpu_wait();
                        let delay = waited.saturating_sub(before);
                        if tx.send(Event::Lines(now, delay, lines)).is_err() {
                            return;
                        }
                    }
                    if closed {
                        let _ = tx.send(Event::Closed);
                        return;
                    }
                }
            })
            .map_err(SpawnError::Thread)?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let err_log = log.clone();
        let err_label = spec.name.clone();
        let stderr_reader = std::thread::Builder::new()
            .name(format!("{}-err", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stderr);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match read_line_capped(&mut reader, &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            if let Some(log) = &err_log {
                                log.write(&err_label, "!>", &line);
                            }
                            if let Ok(mut t) = tail.lock() {
                                if t.len() == STDERR_TAIL {
                                    t.pop_front();
                                }
                                t.push_back(line);
                            }
                        }
                    }
                }
            })
            .map_err(SpawnError::Thread)?;
        Ok(EngineProcess {
            label: spec.name.clone(),
            child,
            stdin,
            events,
            pending: VecDeque::new(),
            read_wait: Duration::ZERO,
            group: None,
            stderr_tail,
            stderr_reader,
            log,
            closed: false,
        })
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(log) = &self.log {
            log.write(&self.label, "<", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Failure::Exited(self.exit_description()));
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
            self.stdin = None;
            return Err(Failure::Exited(self.exit_description()));
        }
        Ok(())
    }

    /// The next line, waiting at most until `deadline` and giving up when `abort` is set.
    pub fn recv(
        &mut self,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<(Instant, String), Failure> {
        loop {
            if let Some((t, wait, line)) = self.pending.pop_front() {
                self.read_wait = wait;
                if let Some(log) = &self.log {
                    log.write(&self.label, ">", &line);
                }
                return Ok((t, line));
            }
            if self.closed {
                return Err(Failure::Exited(self.exit_description()));
            }
            if abort.load(Ordering::Relaxed) {
                return Err(Failure::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout);
            }
            match self.events.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Lines(t, wait, lines)) => {
                    self.pending.extend(lines.into_iter().map(|l| (t, wait, l)));
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Err(Failure::Exited(self.exit_description()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// How long the runner's thread that reads the engine's output waited for a CPU just
    /// before it read the line [`recv`](Self::recv) returned last: the runner's share of that
    /// line's lateness (zero where it cannot be measured).
    pub fn read_wait(&self) -> Duration {
        self.read_wait
    }

    /// The engine's processes whose CPU wait counts: the program started first, then the
    /// other members of its process group (what a wrapper script started), found once.
    pub fn measured(&mut self) -> Vec<u32> {
        let id = self.child.id();
        self.group
            .get_or_insert_with(|| {
                let mut pids = vec![id];
                pids.extend(group_members(id));
                pids
            })
            .clone()
    }

    /// Like [`recv`](Self::recv), but past `deadline` it keeps waiting while the machine,
    /// not the engine, is the cause: as long as the engine's threads have waited for a CPU
    /// since `go` (`wait`, started then) at least as long as the lateness, or one of them is
    /// waiting for a CPU right now; at most [`MAX_FORGIVEN`] past `deadline`. The referee
    /// decides afterwards what the move is charged.
    pub fn recv_patient(
        &mut self,
        deadline: Instant,
        wait: Option<&mut CpuWait>,
        abort: &AtomicBool,
    ) -> Result<(Instant, String), Failure> {
        let Some(wait) = wait else {
            return self.recv(deadline, abort);
        };
        let limit = deadline + MAX_FORGIVEN;
        let mut until = deadline;
        loop {
            // Look at the engine's threads every SAMPLE_STEP: one that ends (a search thread
            // may end before the answer is read) keeps the wait it had by then.
            let step = until.min(Instant::now() + SAMPLE_STEP);
            match self.recv(step, abort) {
                Err(Failure::Timeout) if Instant::now() < until => wait.sample(),
                Err(Failure::Timeout) => {
                    let now = Instant::now();
                    let poll = wait.poll();
                    let mut next = deadline + poll.waited;
                    if poll.starved {
                        next = next.max(now + STARVED_STEP);
                    }
                    if next <= now || now >= limit {
                        return Err(Failure::Timeout);
                    }
                    until = next.min(limit);
                }
                other => return other,
            }
        }
    }

    /// Drops lines that have already arrived (stale output, such as a second `bestmove`), so
    /// that the next answer belongs to the next command.
    pub fn drain(&mut self) {
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Lines(t, wait, lines) => {
                    self.pending.extend(lines.into_iter().map(|l| (t, wait, l)))
                }
                Event::Closed => {
                    self.closed = true;
                    break;
                }
            }
        }
        for (_, _, line) in self.pending.drain(..) {
            if let Some(log) = &self.log {
                log.write(&self.label, "> (stale)", &line);
            }
        }
    }

    /// Waits for a line whose first word is `word`, skipping others.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<(Instant, String), Failure> {
        loop {
            let (t, line) = self.recv(deadline, abort)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok((t, line));
            }
        }
    }

    /// `uci` … `uciok`, collecting the engine's name and options.
    pub fn handshake(
        &mut self,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<Identity, Failure> {
        let deadline = Instant::now() + timeout;
        self.send("uci")?;
        let mut id = Identity::default();
        loop {
            let (_, line) = self.recv(deadline, abort)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => return Ok(id),
                Some("id") if words.next() == Some("name") => {
                    id.name = Some(words.collect::<Vec<_>>().join(" "));
                }
                Some("option") if words.next() == Some("name") => {
                    let rest: Vec<&str> = words.collect();
                    let end = rest.iter().position(|&w| w == "type").unwrap_or(rest.len());
                    let name = rest[..end].join(" ");
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        let values = rest.windows(2).filter(|w| w[0] == "var");
                        id.variants.extend(values.map(|w| w[1].to_string()));
                    }
                    id.options.push(name);
                }
                _ => {}
            }
        }
    }

    /// `isready` … `readyok` (stale output before it is dropped).
    pub fn sync(&mut self, timeout: Duration, abort: &AtomicBool) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + timeout, abort)
            .map(|_| ())
    }

    /// How the process ended, with the last lines of its stderr: waits a little (up to
    /// `EXIT_GRACE`) for it to exit, since a closed pipe comes just before the exit status,
    /// and for its last stderr lines to be read, which on a busy machine may come later still.
    pub fn exit_description(&mut self) -> String {
        let until = Instant::now() + EXIT_GRACE;
        let mut status = None;
        while status.is_none() && Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(s)) => status = Some(s),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        if status.is_some() {
            while !self.stderr_reader.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let mut text = match status {
            Some(s) => match s.code() {
                Some(c) => format!("exited with status {c}"),
                None => format!("ended by a signal ({s})"),
            },
            None => "closed its output".to_string(),
        };
        if let Ok(t) = self.stderr_tail.lock()
            && let Some(last) = t.back()
        {
            text.push_str(&format!("; last stderr line: {}", shorten(last, 160)));
        }
        text
    }

    /// Asks the engine to quit and waits up to `grace` before killing it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.close(grace);
    }

    /// Closes the engine's input and waits up to `grace` for it to exit, then kills it.
    pub fn close(mut self, grace: Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// The calling thread's total run-queue wait (Linux; zero elsewhere).
fn own_cpu_wait() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .as_deref()
        .and_then(super::cpu_wait::parse_schedstat)
        .map_or(Duration::ZERO, |(_, wait)| Duration::from_nanos(wait))
}

/// Reads up to and including `\n` into `buf`, keeping at most [`MAX_LINE`] bytes; returns the
/// bytes consumed (0 at end of input).
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let (done, used) = {
            let available = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(consumed);
            }
            let (done, used) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, available.len()),
            };
            let room = MAX_LINE.saturating_sub(buf.len());
            buf.extend_from_slice(&available[..used.min(room)]);
            (done, used)
        };
        reader.consume(used);
        consumed += used;
        if done {
            return Ok(consumed);
        }
    }
}

/// The first `max` characters of `text` (then `...`), escaped to one ASCII line: an engine's
/// output quoted in a message.
pub fn shorten(text: &str, max: usize) -> String {
    konakis_core::text::bounded_line(text, max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::config::MoveLimits;
    use std::path::{Path, PathBuf};

    #[test]
    fn long_lines_are_capped_and_the_rest_dropped() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nbestmove a1a2\n");
        let mut r = BufReader::with_capacity(1000, &data[..]);
        let mut buf = Vec::new();
        let n = read_line_capped(&mut r, &mut buf).unwrap();
        assert_eq!(n, MAX_LINE + 11);
        assert_eq!(buf.len(), MAX_LINE);
        buf.clear();
        read_line_capped(&mut r, &mut buf).unwrap();
        assert_eq!(buf, b"bestmove a1a2\n");
        buf.clear();
        assert_eq!(read_line_capped(&mut r, &mut buf).unwrap(), 0);
    }

    #[test]
    fn a_log_that_cannot_be_created_names_the_file() {
        let e = Log::create(Path::new("/nonexistent-konakis/log.txt"))
            .err()
            .unwrap();
        assert!(matches!(e, OutputError::Log { .. }));
        assert!(
            e.to_string()
                .starts_with("cannot create log /nonexistent-konakis/log.txt: "),
            "{e}"
        );
    }

    #[test]
    fn an_engine_that_cannot_start_says_which_program() {
        let spec = EngineSpec {
            name: "ghost".into(),
            cmd: PathBuf::from("/nonexistent-konakis/engine"),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limits: MoveLimits::default(),
            proto: Default::default(),
            settle_ms: 0,
        };
        let e = EngineProcess::spawn(&spec, None).err().unwrap();
        assert!(matches!(e, SpawnError::Program { .. }));
        assert!(
            e.to_string()
                .starts_with("cannot start /nonexistent-konakis/engine: "),
            "{e}"
        );
    }
}
