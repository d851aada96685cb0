//! How long an engine's threads were runnable but waiting for a CPU: time the engine could not
//! use, which the referee does not charge to a late move.
//!
//! On Linux the kernel keeps, per thread, the time spent on a run queue waiting for a CPU (the
//! second field of `/proc/<pid>/task/<tid>/schedstat`, in nanoseconds). The runner reads it for
//! the engine's process and its descendants (an engine started by a wrapper script does its
//! work in a grandchild: found through the threads' `children` files where the kernel has
//! them, else once per engine process among the members of its process group) when it sends
//! `go`, every few milliseconds while it waits, and when the answer arrives; the largest increase
//! over the threads is what the machine withheld from the engine during the move. A thread that
//! slept or computed accumulates none, so a slow engine is still charged in full.
//!
//! The kernel adds a wait to that field only when the thread gets a CPU, so a thread that is
//! waiting right now shows nothing yet: [`CpuWait::poll`] also says whether a thread is
//! runnable but has run for less than half the time since the previous look
//! ([`Poll::starved`]), so that the referee keeps waiting for its answer instead of declaring a
//! timeout the machine caused.
//!
//! Elsewhere (no `/proc`) nothing is measured and the clock is wall time.

use std::fs;
use std::time::{Duration, Instant};

/// One thread's scheduler figures, as read from `/proc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// The thread id.
    pub tid: u32,
    /// Time it has run on a CPU, in nanoseconds.
    pub run_ns: u64,
    /// Time it has waited on a run queue for a CPU, in nanoseconds.
    pub wait_ns: u64,
    /// Whether it is running or runnable now (state `R`).
    pub runnable: bool,
}

/// The two first fields of a `schedstat` file: time run and time waited on a run queue, in
/// nanoseconds. `None` when the text is not such a line.
///
/// ```
/// use konakis_runner::matches::cpu_wait::parse_schedstat;
/// assert_eq!(parse_schedstat("2750000 1200000 7\n"), Some((2_750_000, 1_200_000)));
/// assert_eq!(parse_schedstat("garbage"), None);
/// ```
pub fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_ascii_whitespace();
    let run = fields.next()?.parse().ok()?;
    let wait = fields.next()?.parse().ok()?;
    Some((run, wait))
}

/// Whether a `/proc/<pid>/task/<tid>/stat` line says the thread is running or runnable. The
/// state is the first field after the command name, which is in parentheses and may itself
/// hold spaces and parentheses, hence the last `)`.
pub fn parse_runnable(stat: &str) -> Option<bool> {
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_ascii_whitespace().next()? == "R")
}

/// The largest increase of the run-queue wait from `before` to `after`, over the threads of
/// `after`. A thread born since `before` counts from zero; a thread that ended is not seen.
pub fn largest_increase(before: &[Task], after: &[Task]) -> Duration {
    let ns = after
        .iter()
        .map(|t| {
            let was = before
                .iter()
                .find(|b| b.tid == t.tid)
                .map_or(0, |b| b.wait_ns);
            t.wait_ns.saturating_sub(was)
        })
        .max()
        .unwrap_or(0);
    Duration::from_nanos(ns)
}

/// Whether a thread of `now` is runnable but has run for less than half of the `elapsed`
/// wall time since `before`: it is mostly waiting for a CPU, and the kernel adds that wait to
/// its figures only when it gets one. A thread that did not exist before counts as having run.
pub fn starved(before: &[Task], now: &[Task], elapsed: Duration) -> bool {
    now.iter().any(|t| {
        t.runnable
            && before.iter().any(|b| {
                b.tid == t.tid
                    && u128::from(t.run_ns.saturating_sub(b.run_ns)) * 2 < elapsed.as_nanos()
            })
    })
}

/// Updates `seen` with the figures of `now`, keeping threads that are gone.
pub fn remember(seen: &mut Vec<Task>, now: &[Task]) {
    for t in now {
        match seen.iter_mut().find(|s| s.tid == t.tid) {
            Some(s) => *s = *t,
            None => seen.push(*t),
        }
    }
}

/// The process group of a `/proc/<pid>/stat` line (the third field after the command name).
pub fn parse_group(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_ascii_whitespace().nth(2)?.parse().ok()
}

/// The processes of process group `group` other than its leader, by a scan of `/proc` (a few
/// milliseconds; the runner does it once per engine process). The runner starts each engine
/// as the leader of its own group, so these are the processes an engine's wrapper script
/// started, on kernels that do not list a thread's children.
pub fn group_members(group: u32) -> Vec<u32> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != group)
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .as_deref()
                .and_then(parse_group)
                == Some(group)
        })
        .collect()
}

/// The threads of the processes `pids` (the engine first) and of their descendants, or `None`
/// when `/proc` does not describe the engine (not Linux, or it has exited).
pub fn read_tasks(pids: &[u32]) -> Option<Vec<Task>> {
    let engine = *pids.first()?;
    let mut tasks = Vec::new();
    let mut pids = pids.to_vec();
    let mut seen = 0;
    while let Some(p) = pids.pop() {
        let dir = fs::read_dir(format!("/proc/{p}/task")).ok();
        let Some(dir) = dir else {
            // The engine itself must be readable; a descendant may have just exited.
            if p == engine {
                return None;
            }
            continue;
        };
        for entry in dir.flatten() {
            let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
                continue;
            };
            let base = format!("/proc/{p}/task/{tid}");
            let Some((run_ns, wait_ns)) = fs::read_to_string(format!("{base}/schedstat"))
                .ok()
                .as_deref()
                .and_then(parse_schedstat)
            else {
                continue;
            };
            let runnable = fs::read_to_string(format!("{base}/stat"))
                .ok()
                .as_deref()
                .and_then(parse_runnable)
                .unwrap_or(false);
            if tasks.iter().any(|t: &Task| t.tid == tid) {
                continue;
            }
            tasks.push(Task {
                tid,
                run_ns,
                wait_ns,
                runnable,
            });
            // Children need CONFIG_PROC_CHILDREN; without it only the process is measured.
            if let Ok(children) = fs::read_to_string(format!("{base}/children")) {
                pids.extend(
                    children
                        .split_ascii_whitespace()
                        .filter_map(|c| c.parse::<u32>().ok()),
                );
            }
        }
        // A guard against a pathological tree: an engine has a handful of processes.
        seen += 1;
        if seen > 64 {
            break;
        }
    }
    Some(tasks)
}

/// What a look at an engine's threads found during a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poll {
    /// The largest run-queue wait of a thread since `go`.
    pub waited: Duration,
    /// A thread is runnable but has run for less than half the time since the previous look.
    pub starved: bool,
}

/// The run-queue wait of one engine during one move, from `go` on.
#[derive(Clone, Debug)]
pub struct CpuWait {
    pids: Vec<u32>,
    at_go: Vec<Task>,
    last: Vec<Task>,
    /// When `last` was read.
    last_at: Instant,
    /// Every thread seen since `go`, with its latest figures: an engine may start a thread
    /// for a search and end it before the answer is read, and its wait must still count.
    seen: Vec<Task>,
}

impl CpuWait {
    /// Starts measuring the processes `pids`, the engine first (call it as `go` is written);
    /// `None` where `/proc` cannot describe the engine, and the clock stays wall time.
    pub fn start(pids: Vec<u32>) -> Option<CpuWait> {
        let at_go = read_tasks(&pids)?;
        Some(CpuWait {
            pids,
            last: at_go.clone(),
            last_at: Instant::now(),
            seen: at_go.clone(),
            at_go,
        })
    }

    /// Reads the threads' figures and remembers them, so that a thread that ends before the
    /// answer still counts with what it had waited by then. Called while the referee waits.
    pub fn sample(&mut self) {
        if let Some(now) = read_tasks(&self.pids) {
            remember(&mut self.seen, &now);
        }
    }

    /// Looks again: the wait since `go` and whether a thread is starved right now. A process
    /// that has exited reports what was last seen.
    pub fn poll(&mut self) -> Poll {
        let Some(now) = read_tasks(&self.pids) else {
            return Poll {
                waited: largest_increase(&self.at_go, &self.seen),
                starved: false,
            };
        };
        remember(&mut self.seen, &now);
        let poll = Poll {
            waited: largest_increase(&self.at_go, &self.seen),
            starved: starved(&self.last, &now, self.last_at.elapsed()),
        };
        self.last = now;
        self.last_at = Instant::now();
        poll
    }
}

/// The wait to report for an answer that arrived at `arrived`: only when that is past
/// `deadline` (the referee forgives nothing else), the engine's wait since `go` plus
/// `reading`, the runner's own wait for a CPU before it read the answer; zero otherwise.
/// The two cannot overlap: the engine waits before it writes, the runner after.
pub fn late_wait(
    arrived: Instant,
    deadline: Instant,
    wait: Option<&mut CpuWait>,
    reading: Duration,
) -> Duration {
    if arrived <= deadline {
        return Duration::ZERO;
    }
    wait.map_or(Duration::ZERO, |w| w.poll().waited) + reading
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(tid: u32, run_ns: u64, wait_ns: u64, runnable: bool) -> Task {
        Task {
            tid,
            run_ns,
            wait_ns,
            runnable,
        }
    }

    #[test]
    fn schedstat_gives_run_and_wait() {
        assert_eq!(
            parse_schedstat("123456789 987654321 42\n"),
            Some((123_456_789, 987_654_321))
        );
        assert_eq!(parse_schedstat("12"), None);
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("-1 5 3"), None);
    }

    #[test]
    fn stat_group_is_the_third_field_after_the_name() {
        assert_eq!(parse_group("4242 (sh) S 4000 4100 4000 0"), Some(4100));
        assert_eq!(parse_group("4242 (a ) b) R 1 7 1"), Some(7));
        assert_eq!(parse_group("4242 (sh) S 1"), None);
    }

    #[test]
    fn stat_state_is_read_after_the_last_parenthesis() {
        assert_eq!(parse_runnable("4242 (konakis) R 1 2 3"), Some(true));
        assert_eq!(parse_runnable("4242 (a (b) S) S 1 2 3"), Some(false));
        assert_eq!(parse_runnable("4242 (odd) R) R 1"), Some(true));
        assert_eq!(parse_runnable("no state"), None);
    }

    #[test]
    fn the_wait_is_the_largest_increase_over_the_threads() {
        let before = [task(1, 10, 1_000_000, false), task(2, 10, 5_000_000, false)];
        let after = [
            task(1, 90, 301_000_000, false),
            task(2, 90, 6_000_000, false),
            // Born during the move: its whole wait counts.
            task(3, 90, 40_000_000, false),
        ];
        assert_eq!(
            largest_increase(&before, &after),
            Duration::from_millis(300)
        );
        assert_eq!(largest_increase(&after, &after), Duration::ZERO);
        assert_eq!(largest_increase(&before, &[]), Duration::ZERO);
    }

    #[test]
    fn a_thread_that_ended_keeps_its_wait() {
        let at_go = [task(1, 10, 0, false)];
        let mut seen = at_go.to_vec();
        // A search thread is born and waits 250 ms ...
        remember(
            &mut seen,
            &[task(1, 10, 0, false), task(7, 80, 250_000_000, true)],
        );
        // ... then ends before the answer is read.
        remember(&mut seen, &[task(1, 12, 2_000_000, false)]);
        assert_eq!(largest_increase(&at_go, &seen), Duration::from_millis(250));
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn a_runnable_thread_that_mostly_waits_is_starved() {
        let ms = Duration::from_millis;
        let before = [task(1, 100, 0, true), task(2, 50, 0, false)];
        assert!(starved(&before, &[task(1, 100, 0, true)], ms(10)));
        // Ran 4 ms in 10: mostly waiting.
        assert!(starved(&before, &[task(1, 4_000_100, 0, true)], ms(10)));
        // Ran 6 ms in 10: computing, not starved.
        assert!(!starved(&before, &[task(1, 6_000_100, 0, true)], ms(10)));
        // Asleep.
        assert!(!starved(&before, &[task(2, 50, 0, false)], ms(10)));
        // New.
        assert!(!starved(&before, &[task(3, 0, 0, true)], ms(10)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_wrapper_scripts_child_is_measured() {
        use std::os::unix::process::CommandExt;
        // The shell forks `sleep` (a command follows it) and waits: the work of an engine
        // started by a wrapper script is in such a child. It leads its own group, as the
        // runner starts engines.
        let mut sh = std::process::Command::new("sh")
            .args(["-c", "sleep 5; true"])
            .process_group(0)
            .spawn()
            .expect("sh runs");
        let pid = sh.id();
        let mut found = 0;
        for _ in 0..100 {
            let mut pids = vec![pid];
            pids.extend(group_members(pid));
            found = read_tasks(&pids).map_or(0, |t| t.len());
            if found >= 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = sh.kill();
        let _ = sh.wait();
        assert_eq!(found, 2, "the shell's thread and its child's");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_can_be_read() {
        let tasks = read_tasks(&[std::process::id()]).expect("/proc describes this process");
        assert!(!tasks.is_empty());
        // The reading thread is running.
        assert!(tasks.iter().any(|t| t.runnable));
        let mut w = CpuWait::start(vec![std::process::id()]).expect("measurable");
        let p = w.poll();
        assert!(p.waited < Duration::from_secs(5));
    }
}
