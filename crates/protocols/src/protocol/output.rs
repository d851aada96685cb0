//! The output queue: replies queued whole for a writer thread that owns the output, so that
//! lines from different threads never mix and a peer that stops reading blocks only the writer.

use super::reply::Reply;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Output queued for the writer thread, in bytes, beyond which a new reply waits for room
/// (until `quit` or the end of the input, after which it is dropped).
const OUTPUT_QUEUE_BYTES: usize = 1 << 20;

/// At the end, how long the output may make no progress before the process leaves without the
/// rest (the peer is not reading).
const OUTPUT_STALL: Duration = Duration::from_millis(500);

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
    pub(super) fn new<W: Write + Send + 'static>(w: W) -> Output {
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
    pub(super) fn abandon(&self) {
        self.queue.lock().abandoned = true;
        self.queue.changed.notify_all();
    }

    /// Waits until everything queued is written, the output fails, or it makes no progress
    /// for [`OUTPUT_STALL`] (the peer does not read).
    pub(super) fn drain(&self) {
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
