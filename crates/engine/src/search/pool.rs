//! The search threads, kept from search to search as in Stockfish's `ThreadPool`: the main
//! search thread of `go` ([`SearchThread`]) and the helpers that search beside the main
//! thread ([`Crew`]). A helper is started at the first search that wants it, parks between
//! searches, and keeps its [`ThreadState`] (its quiet history and every buffer its search
//! needs), so that it allocates nothing after its first search. The crew has one primitive,
//! [`Crew::run`]: a job on every helper while the calling thread does its own part, returning
//! when all have finished. Lazy SMP (`deepen.rs`) and the split search
//! (`worker/split.rs`) both run on it.
//!
//! Without the `threads` feature (the browser's build) no helper is started: the crew has no
//! helpers, [`Crew::run`] runs the calling thread's part alone, and the search is the calling
//! thread's (or, for `go`, the main search thread's, where the platform has threads).

use super::worker::ThreadState;
use crate::Size;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// Bytes held while helpers start (see [`Crew::start_helpers`]).
const HELPER_RESERVE_BYTES: usize = 16 << 20;
/// Address space that must be free before a helper is started: its state (about 1.5 MiB,
/// mostly the evaluation cache and the move pickers), its thread's stack (2 MiB), and room
/// for the allocator to open one more arena for the threads already searching (glibc
/// reserves 64 MiB at a time). Only reserved and given back, never touched, so it costs no
/// memory.
const HELPER_ROOM_BYTES: usize = 96 << 20;

/// A job for the helpers: called on each with the helper's number (1 for the first; the
/// main thread is 0) and its state, it gives the state back.
pub(crate) type Job<G> = Arc<dyn Fn(usize, ThreadState<G>) -> ThreadState<G> + Send + Sync>;

/// Locks `m`, whether or not a thread panicked while holding it (what the search's locks guard
/// stays valid: a thread's state is taken out while it searches, not changed in place, and a
/// split's node and best line are written whole under the lock).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The threads of one `Threads` setting: the state of each (the main thread's first) and the
/// helpers that run jobs.
pub(crate) struct Crew<G: Size> {
    /// Each thread's state, the main thread's at 0; `None` before the thread's first search
    /// (and while it searches: the searching thread holds it).
    states: Vec<Mutex<Option<ThreadState<G>>>>,
    control: Mutex<Control<G>>,
    /// Wakes the helpers for a job, or to end.
    wake: Condvar,
    /// Tells the thread that posted a job that the helpers have finished it.
    done: Condvar,
    handles: Mutex<Vec<JoinHandle<()>>>,
    /// Searches numbered so far (a state readied for one is readied anew for the next).
    searches: AtomicU64,
}

/// What the helpers are told and tell, under one lock.
struct Control<G: Size> {
    /// Counts the jobs posted: a helper runs the job when this moves past what it has seen.
    generation: u64,
    job: Option<Job<G>>,
    /// Helpers started.
    running: usize,
    /// Helpers still at the job.
    busy: usize,
    /// The helpers end.
    quit: bool,
    /// A helper's job panicked (the thread that posted it panics in turn).
    panicked: bool,
}

impl<G: Size> Crew<G> {
    /// The states of `threads` threads (at least one, the main thread's), none started yet.
    pub(crate) fn new(threads: usize) -> Crew<G> {
        Crew {
            states: (0..threads.max(1)).map(|_| Mutex::new(None)).collect(),
            control: Mutex::new(Control {
                generation: 0,
                job: None,
                running: 0,
                busy: 0,
                quit: false,
                panicked: false,
            }),
            wake: Condvar::new(),
            done: Condvar::new(),
            handles: Mutex::new(Vec::new()),
            searches: AtomicU64::new(0),
        }
    }

    /// A number for a new search, never 0 (the number of a state readied for none).
    pub(crate) fn next_search(&self) -> u64 {
        self.searches.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Starts the helpers not yet running (all but the main thread, with the `threads`
    /// feature), one after the other and only while the room for each is there, so that no
    /// helper starts and then fails to allocate: each helper's state is made here, before its
    /// thread starts, as the room for it is checked. Returns the threads that now search, the
    /// main thread included.
    pub(crate) fn start_helpers(self: &Arc<Crew<G>>) -> usize {
        let wanted = if cfg!(feature = "threads") {
            self.states.len() - 1
        } else {
            0
        };
        let mut handles = lock(&self.handles);
        if handles.len() < wanted {
            // Room kept free while the helpers start: should the system run out of threads or
            // memory for their stacks, freeing it leaves room for the allocations the search
            // still makes. (A failed allocation aborts the process, a failed thread start does
            // not.)
            let mut reserve: Vec<u8> = Vec::new();
            let _ = reserve.try_reserve_exact(HELPER_RESERVE_BYTES);
            while handles.len() < wanted {
                if Vec::<u8>::new()
                    .try_reserve_exact(HELPER_ROOM_BYTES)
                    .is_err()
                {
                    break;
                }
                let index = handles.len() + 1;
                if lock(&self.states[index]).is_none() {
                    self.put_state(index, ThreadState::default());
                }
                let seen = lock(&self.control).generation;
                let crew = Arc::clone(self);
                let spawned = std::thread::Builder::new()
                    .name(format!("konakis-search-{index}"))
                    .spawn(move || crew.help(index, seen));
                let Ok(handle) = spawned else {
                    break;
                };
                handles.push(handle);
                lock(&self.control).running = handles.len();
            }
        }
        handles.len() + 1
    }

    /// A helper's life: wait for a job, run it on the thread's state, tell that it is done.
    fn help(&self, index: usize, mut seen: u64) {
        loop {
            let job = {
                let mut control = lock(&self.control);
                while control.generation == seen && !control.quit {
                    control = self
                        .wake
                        .wait(control)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                if control.quit {
                    return;
                }
                seen = control.generation;
                control.job.clone()
            };
            let mut panicked = false;
            if let Some(job) = job {
                let state = self.take_state(index);
                match catch_unwind(AssertUnwindSafe(|| job(index, state))) {
                    Ok(state) => self.put_state(index, state),
                    // The state is lost with the panic; the next job makes a new one.
                    Err(_) => panicked = true,
                }
            }
            let mut control = lock(&self.control);
            control.panicked |= panicked;
            control.busy -= 1;
            if control.busy == 0 {
                self.done.notify_all();
            }
        }
    }

    /// Runs `job` on every helper and `main` on the calling thread, and returns `main`'s
    /// answer once the helpers have finished too. Panics if a helper's job panicked.
    pub(crate) fn run<R>(&self, job: Job<G>, main: impl FnOnce() -> R) -> R {
        {
            let mut control = self.wait_idle(lock(&self.control));
            control.job = Some(job);
            control.generation += 1;
            control.busy = control.running;
            self.wake.notify_all();
        }
        let answer = main();
        let mut control = self.wait_idle(lock(&self.control));
        control.job = None;
        if std::mem::take(&mut control.panicked) {
            drop(control);
            panic!("a search helper thread panicked");
        }
        answer
    }

    /// Waits until no helper is at a job.
    fn wait_idle<'a>(&self, mut control: MutexGuard<'a, Control<G>>) -> MutexGuard<'a, Control<G>> {
        while control.busy > 0 {
            control = self
                .done
                .wait(control)
                .unwrap_or_else(PoisonError::into_inner);
        }
        control
    }

    /// Takes the state of thread `index` for a search: its own, or a new one before the main
    /// thread's first search (or after a panic lost a thread's).
    pub(crate) fn take_state(&self, index: usize) -> ThreadState<G> {
        lock(&self.states[index]).take().unwrap_or_default()
    }

    /// Gives the state of thread `index` back after a search.
    pub(crate) fn put_state(&self, index: usize, state: ThreadState<G>) {
        *lock(&self.states[index]) = Some(state);
    }

    /// Calls `f` with the number and state of each helper that has one.
    pub(crate) fn each_helper(&self, mut f: impl FnMut(usize, &ThreadState<G>)) {
        for (index, state) in self.states.iter().enumerate().skip(1) {
            if let Some(state) = lock(state).as_ref() {
                f(index, state);
            }
        }
    }

    /// Empties every thread's quiet history (a new game).
    pub(crate) fn clear(&self) {
        for state in &self.states {
            if let Some(state) = lock(state).as_mut() {
                state.clear();
            }
        }
    }

    /// Ends the helpers and waits for them. Called while no job runs.
    pub(crate) fn shutdown(&self) {
        lock(&self.control).quit = true;
        self.wake.notify_all();
        for handle in lock(&self.handles).drain(..) {
            let _ = handle.join();
        }
        lock(&self.control).running = 0;
    }

    /// The helpers' threads, in order.
    #[cfg(test)]
    pub(crate) fn helper_ids(&self) -> Vec<std::thread::ThreadId> {
        lock(&self.handles)
            .iter()
            .map(|h| h.thread().id())
            .collect()
    }

    /// The quiet history of thread `index`, if it has searched.
    #[cfg(test)]
    pub(crate) fn quiet_history(&self, index: usize) -> Option<Vec<i32>> {
        lock(&self.states[index])
            .as_ref()
            .map(|s| s.quiet_history().to_vec())
    }
}

/// What the main search thread runs: one search of `go`.
pub(crate) type Search = Box<dyn FnOnce() + Send>;

/// The main search thread of `go`, started at the first `go` and kept: it runs one search
/// after the other, each on the crew's main state, and ends when the searcher is dropped.
pub(crate) struct SearchThread {
    searches: Sender<Search>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    /// Starts the thread, or says why the system would not (a browser has no threads).
    pub(crate) fn start() -> Result<SearchThread, String> {
        let (searches, received) = channel::<Search>();
        let handle = std::thread::Builder::new()
            .name("konakis-search".into())
            .spawn(move || {
                for search in received {
                    search();
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(SearchThread { searches, handle })
    }

    /// Hands `search` to the thread; gives it back if the thread has ended.
    pub(crate) fn send(&self, search: Search) -> Result<(), Search> {
        self.searches.send(search).map_err(|e| e.0)
    }

    /// The thread.
    #[cfg(test)]
    pub(crate) fn id(&self) -> std::thread::ThreadId {
        self.handle.thread().id()
    }

    /// Ends the thread once its search, if any, is over, and waits for it.
    pub(crate) fn end(self) {
        drop(self.searches);
        let _ = self.handle.join();
    }
}
