//! Iterative deepening: one search from `go` to the best move. Every thread of the pool runs
//! the same loop ([`iterate`]), deepening with aspiration windows: the main thread (the one
//! that reports, keeps the clock and searches the MultiPV lines) and the Lazy SMP helpers
//! (`pool.rs`), which start one ply apart, publish each iteration they complete, and whose
//! iteration the main thread takes over when a helper finishes it first. At the end the
//! deepest completed iteration of any thread gives the best move ([`run`]). With the split
//! search (`worker/split.rs`) only the main thread deepens, and the helpers share the moves of
//! the nodes of its principal variation. The search of one iteration is [`super::worker`]'s.

use super::pool::{Crew, Job};
use super::root::Root;
use super::time::TimeManager;
use super::worker::{Splitter, Worker};
use super::{
    Cancel, INFINITE, Info, Limits, MATE, MATE_BOUND, MAX_PLY, Report, Score, ScoreBound, Settings,
    Shared, SmpMode,
};
use crate::Size;
use konakis_core::board::GameOf;
use konakis_core::types::MoveOf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Half the first aspiration window of an iteration, on the main thread and on a helper: a
/// helper's wider window makes its search differ from the main thread's (as the separate
/// helper loop's window of 40 did before the threads ran one loop).
const MAIN_WINDOW: i32 = 25;
const HELPER_WINDOW: i32 = 40;

/// What a search runs with.
#[derive(Clone, Copy)]
pub(crate) struct RunContext<'a, G: Size> {
    pub(crate) shared: &'a Arc<Shared<G>>,
    pub(crate) settings: &'a Settings,
    pub(crate) crew: &'a Arc<Crew<G>>,
}

/// The search proper, on the calling thread as the main thread: iterative deepening, with
/// the pool's helpers beside it (Lazy SMP, or the split search) when `threads > 1`.
/// Returns the best move and the move expected in reply.
pub(crate) fn run<G: Size>(
    context: &RunContext<'_, G>,
    game: &GameOf<G>,
    limits: &Limits<G>,
    cancel: Cancel,
    report: &mut (dyn FnMut(Report<G>) + Send),
) -> (Option<MoveOf<G>>, Option<MoveOf<G>>) {
    let board = *game.board();
    let rules = *game.rules();
    let status = game.status();
    let root_moves = limits.root_moves(game);
    if status.is_over() || root_moves.is_empty() {
        let status = if status.is_over() {
            status
        } else {
            board.status(&rules)
        };
        report(Report::GameOver(status));
        return (None, None);
    }
    let (shared, settings, crew) = (context.shared, context.settings, context.crew);
    shared.tt.new_search();
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 1))
        .or(limits.mate.map(|m| (2 * m.max(1)).min(MAX_PLY as u32 - 1)))
        .unwrap_or(MAX_PLY as u32 - 1) as i32;

    let running = crew.start_helpers();
    let wanted = settings.threads.max(1);
    if running < wanted {
        report(Report::Threads { wanted, running });
    }
    let helpers = running > 1;
    let split = helpers && settings.smp == SmpMode::Split;
    let root = Arc::new(Root {
        search: crew.next_search(),
        shared: Arc::clone(shared),
        board,
        rules,
        game_keys: game.repetition_keys().to_vec(),
        moves: root_moves,
        limits: limits.clone(),
        max_depth,
        net: shared.net.lock().ok().and_then(|n| n.clone()),
    });
    let splitter = split.then(|| Splitter::new(crew, &root, running));
    let mut w = root.worker(crew.take_state(0));
    w.splitter = splitter.as_ref();
    w.cancel = cancel;
    w.sink = Some(report);
    // With Lazy SMP helpers, an iteration a helper finishes first is taken over (one line
    // only), and the deepest thread answers.
    w.adopt = helpers && !split && settings.multipv <= 1;
    let finish = |w: &mut Worker<'_, G>, searched| {
        // Under `infinite` or `ponder` the answer, and so the helpers, wait for `stop`.
        shared.wait_for_stop(limits, cancel);
        shared.stop.store(true, Ordering::SeqCst);
        w.flush_nodes();
        searched
    };
    let mut result = if split {
        let searched = iterate(&mut w, &root, settings.multipv, 1);
        finish(&mut w, searched)
    } else {
        let job: Job<G> = {
            let root = Arc::clone(&root);
            Arc::new(move |index, state| {
                let mut w = root.worker(state);
                w.main = false;
                w.thread = index;
                // Helpers start one ply apart, so that they fill the table with different work.
                iterate(&mut w, &root, 1, 1 + (index as i32 - 1) % 2);
                w.into_state()
            })
        };
        crew.run(job, || {
            let searched = iterate(&mut w, &root, settings.multipv, 1);
            finish(&mut w, searched)
        })
    };
    if w.adopt
        && let Some((depth, score, pv)) = deeper_helper_line(crew, &w)
    {
        // A helper completed a deeper iteration (or the same depth with a better score) than
        // the main thread's last: its line is the answer, and is reported as such.
        report_lines(&mut w, depth, &[(score, pv.clone())]);
        result = (Some(pv[0]), pv.get(1).copied());
    }
    crew.put_state(0, w.into_state());
    result
}

/// The line of the helper whose completed iteration beats the main thread's: deeper, or as
/// deep with a higher score (as Stockfish's `get_best_thread` did before it voted); `None`
/// if no helper's does.
fn deeper_helper_line<G: Size>(
    crew: &Crew<G>,
    main: &Worker<'_, G>,
) -> Option<(i32, i32, Vec<MoveOf<G>>)> {
    let mut best = (main.completed.depth, main.completed.score, None);
    crew.each_helper(|_, state| {
        let line = &state.completed;
        if !line.pv.is_empty()
            && (line.depth > best.0 || (line.depth == best.0 && line.score > best.1))
        {
            best = (line.depth, line.score, Some(line.pv.clone()));
        }
    });
    let (depth, score, pv) = best;
    pv.map(|pv| (depth, score, pv))
}

/// Reports `lines` (score and moves, best first) as the iteration of `depth` (main thread
/// only).
fn report_lines<G: Size>(w: &mut Worker<'_, G>, depth: i32, lines: &[(i32, Vec<MoveOf<G>>)]) {
    if w.sink.is_none() {
        return;
    }
    let shared = w.shared;
    let elapsed = shared.elapsed_ms();
    let nodes = shared.nodes.load(Ordering::Relaxed) + w.unflushed();
    for (i, (score, pv)) in lines.iter().enumerate() {
        w.emit(Report::Info(Info {
            depth: depth as u32,
            seldepth: w.seldepth as u32,
            multipv: i as u32 + 1,
            score: Score::from_internal(*score),
            bound: ScoreBound::Exact,
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            time_ms: elapsed,
            hashfull: shared.tt.hashfull(),
            pv: pv.clone(),
        }));
    }
}

/// Iterative deepening from `first_depth` with aspiration windows and `multipv` lines, on the
/// main thread or a helper (`w.main`): only the main thread reports, keeps the clock and takes
/// over what helpers finish first; a helper publishes each iteration it completes. Every
/// thread records its deepest completed iteration in `w.completed`. Returns the best move and
/// the expected reply.
fn iterate<G: Size>(
    w: &mut Worker<'_, G>,
    root: &Root<G>,
    multipv: usize,
    first_depth: i32,
) -> (Option<MoveOf<G>>, Option<MoveOf<G>>) {
    let (board, limits, shared) = (&root.board, &root.limits, w.shared);
    let mut best: Option<MoveOf<G>> = Some(root.moves[0]);
    let mut ponder: Option<MoveOf<G>> = None;
    let mut prev_score = 0;
    let mut time = TimeManager::default();
    let multipv = multipv.clamp(1, root.moves.len());
    let mut depth = first_depth - 1;
    while depth < root.max_depth {
        depth += 1;
        w.age_history();
        w.lines.clear();
        w.excluded.clear();
        // A helper may already have finished this depth: its line is taken as this iteration's.
        let ahead = if w.adopt {
            shared.helper_line_from(depth)
        } else {
            None
        };
        for pv_index in 0..multipv {
            if ahead.is_some() {
                break;
            }
            let mut delta = if w.main { MAIN_WINDOW } else { HELPER_WINDOW };
            let (mut alpha, mut beta) = if depth >= 4 && pv_index == 0 {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INFINITE, INFINITE)
            };
            // The principal variation of each search is `w.pv()`.
            let score = loop {
                let s = w.search_root(board, depth, alpha, beta);
                if w.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITE);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITE);
                    // The move that failed high is played if the search stops before the
                    // re-search ends, with the reply of its own line.
                    if let Some(&m) = w.pv().first()
                        && pv_index == 0
                    {
                        best = Some(m);
                        ponder = w.pv().get(1).copied();
                    }
                } else {
                    break s;
                }
                delta += delta / 2;
                if delta > 1000 {
                    alpha = -INFINITE;
                    beta = INFINITE;
                }
            };
            if w.stopped {
                break;
            }
            let Some(&first) = w.pv().first() else {
                break;
            };
            w.excluded.push(first);
            w.keep_pv(score);
        }
        if w.aborted {
            // A helper finished this depth while the main thread was searching it.
            w.aborted = false;
            w.stopped = shared.stop.load(Ordering::Relaxed);
        }
        if !w.stopped
            && w.lines.as_slice().is_empty()
            && let Some((d, score, pv)) = ahead.or_else(|| shared.helper_line_from(depth))
        {
            depth = d;
            w.lines.push(score, &pv);
        }
        if w.lines.as_slice().is_empty() {
            break;
        }
        // A partial MultiPV iteration is still reported for the lines it finished.
        w.lines.sort();
        if w.sink.is_some() {
            let lines = std::mem::take(&mut w.lines);
            report_lines(w, depth, lines.as_slice());
            w.lines = lines;
        }
        let (score, pv) = &w.lines.as_slice()[0];
        let score = *score;
        time.iteration_done(best == Some(pv[0]), prev_score - score);
        best = Some(pv[0]);
        ponder = pv.get(1).copied();
        w.completed.set(depth, score, pv);
        if !w.main {
            shared.publish_helper_line(depth, score, pv);
        }
        prev_score = score;
        if w.stopped {
            break;
        }
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(score))
            && n > 0
            && n as u32 <= m
        {
            break;
        }
        if score.abs() >= MATE_BOUND && depth as u32 >= 2 * (MATE - score.abs()) as u32 + 2 {
            // A forced result found with room to spare: deeper search will not change it.
            if limits.depth.is_none() && limits.mate.is_none() && !limits.infinite {
                break;
            }
        }
        // Time: no new iteration after the soft limit, scaled by the best move's stability
        // (not while pondering: the limits start at `ponderhit`). The main thread's only.
        if w.main
            && !shared.pondering.load(Ordering::Relaxed)
            && time.past_soft_limit(shared.elapsed_ms(), shared.soft_ms.load(Ordering::Relaxed))
        {
            break;
        }
    }
    w.flush_nodes();
    (best, ponder)
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The size these tests play on.
    type ThreadState = crate::search::worker::ThreadState<konakis_core::geometry::Nine>;
    use konakis_core::rules::Rules;
    use konakis_core::types::Move;

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("a move")
    }

    /// A thread's state whose deepest completed iteration is `depth`, scored `score`.
    fn completed(depth: i32, score: i32, pv: &[Move]) -> ThreadState {
        let mut state = ThreadState::default();
        state.completed.set(depth, score, pv);
        state
    }

    #[test]
    fn a_helper_answers_when_deeper_or_as_deep_and_better_scored() {
        let shared = Shared::new(1);
        let crew = Crew::new(3);
        let mut main = Worker::new(&shared, Rules::default(), ThreadState::default());
        main.completed.set(6, 20, &[mv("a4a2")]);
        assert_eq!(deeper_helper_line(&crew, &main), None, "no helper searched");
        crew.put_state(1, completed(6, 10, &[mv("d1d3")]));
        crew.put_state(2, completed(5, 90, &[mv("e3e1")]));
        assert_eq!(
            deeper_helper_line(&crew, &main),
            None,
            "as deep and worse, or shallower"
        );
        crew.put_state(2, completed(6, 35, &[mv("e3e1"), mv("a4a2")]));
        assert_eq!(
            deeper_helper_line(&crew, &main),
            Some((6, 35, vec![mv("e3e1"), mv("a4a2")]))
        );
        crew.put_state(1, completed(7, -50, &[mv("d1d3")]));
        assert_eq!(
            deeper_helper_line(&crew, &main),
            Some((7, -50, vec![mv("d1d3")])),
            "the deepest, whatever its score"
        );
    }
}
