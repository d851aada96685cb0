//! A child process driven through its standard input and output, as a front-end drives an
//! engine: lines sent, lines read with timeouts. Every line read is checked to be ASCII, since
//! everything Konakis writes to a peer must be.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running process with its input, its output as a stream of lines, and its error output
/// gathered for later checks. Dropping it kills the process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl Process {
    /// Starts `command` with piped input, output and error output. Output that is not UTF-8
    /// ends the stream of lines (the test then sees no more lines).
    pub fn spawn(mut command: Command) -> Process {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the process starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let line = String::from_utf8(buf.clone()).expect("output is UTF-8");
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let stdin = child.stdin.take();
        Process {
            child,
            stdin,
            lines,
            stderr,
            stderr_reader: Some(stderr_reader),
        }
    }

    /// Writes `bytes` to the input and flushes it.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).expect("the process reads its input");
        stdin.flush().unwrap();
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the input.
    pub fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line within `timeout`, checked to be ASCII; `None` on a timeout or once the
    /// output has ended.
    pub fn next_within(&self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                assert!(l.is_ascii(), "non-ASCII output: {l:?}");
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line; fails the test if none comes within `timeout` or the output ends.
    pub fn next_line(&self, timeout: Duration) -> String {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                assert!(l.is_ascii(), "non-ASCII output: {l:?}");
                l
            }
            Err(RecvTimeoutError::Timeout) => panic!("no line within {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the process closed its output"),
        }
    }

    /// Lines up to and including the first for which `last` holds, all within `timeout`;
    /// fails the test (listing what came) otherwise.
    pub fn until_within(&self, last: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_within(left) else {
                panic!("no awaited line within {timeout:?}; got {seen:#?}");
            };
            let done = last(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Every line that arrives within `wait`.
    pub fn quiet(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Some(l) = self.next_within(deadline.saturating_duration_since(Instant::now())) {
            seen.push(l);
        }
        seen
    }

    /// The exit status once the process has ended, waiting at most `limit`; `None` if it is
    /// still running then.
    pub fn exit_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if start.elapsed() >= limit {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Kills the process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }

    /// All the error output, once the process has ended.
    pub fn final_stderr(&mut self) -> String {
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        self.stderr_text()
    }

    /// The error output so far.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin.take();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
