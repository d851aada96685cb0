//! Iterative deepening: one search from `go` to the best move, on the search thread. The main
//! worker deepens with aspiration windows and MultiPV lines ([`iterate`]); more threads join it
//! as Lazy SMP helpers or in the parallel root search ([`run`]). The search of one iteration
//! is [`super::worker`]'s.

use super::root_split::{Pool, RootSplit};
use super::time::TimeManager;
use super::worker::Worker;
use super::{
    Cancel, INFINITE, Info, Limits, MATE, MATE_BOUND, MAX_PLY, Report, Score, ScoreBound, Settings,
    Shared, SmpMode,
};
use konakis_core::board::Game;
use konakis_core::rules::Rules;
use konakis_core::types::Move;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

/// What a search runs with.
#[derive(Clone, Copy)]
pub(crate) struct RunContext<'a> {
    pub(crate) shared: &'a Shared,
    pub(crate) settings: &'a Settings,
    pub(crate) pool: Option<&'a Pool>,
}

/// Bytes held while Lazy SMP helpers start (see [`run`]).
const HELPER_RESERVE_BYTES: usize = 16 << 20;
/// Address space that must be free before a Lazy SMP helper is started: its worker (about
/// 1.1 MiB, mostly the evaluation cache), its thread's stack (2 MiB), and room for the
/// allocator to open one more arena for the threads already searching (glibc reserves 64 MiB
/// at a time). Only reserved and given back, never touched, so it costs no memory.
const HELPER_ROOM_BYTES: usize = 96 << 20;

/// Half the aspiration window of a Lazy SMP helper's iterations.
const HELPER_WINDOW: i32 = 40;

/// The search proper, on the search thread: iterative deepening on the main worker, with
/// more threads (parallel root search, or Lazy SMP helpers) when `threads > 1`.
pub(crate) fn run(
    context: &RunContext,
    game: &Game,
    limits: &Limits,
    quiet_history: &Mutex<Vec<i32>>,
    cancel: Cancel,
    report: &mut (dyn FnMut(Report) + Send),
) -> (Option<Move>, Option<Move>) {
    let board = *game.board();
    let rules: Rules = *game.rules();
    let status = game.status();
    let mut root_moves: Vec<Move> = board.legal_moves(&rules).to_vec();
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    if status.is_over() || root_moves.is_empty() {
        let status = if status.is_over() {
            status
        } else {
            board.status(&rules)
        };
        report(Report::GameOver(status));
        return (None, None);
    }
    let (shared, settings) = (context.shared, context.settings);
    shared.tt.new_search();
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 1))
        .or(limits.mate.map(|m| (2 * m.max(1)).min(MAX_PLY as u32 - 1)))
        .unwrap_or(MAX_PLY as u32 - 1) as i32;

    let lazy = settings.smp == SmpMode::Lazy || context.pool.is_none();
    // Without the `threads` feature the search has no helpers: one thread searches.
    let helpers = if lazy && cfg!(feature = "threads") {
        settings.threads.max(1) - 1
    } else {
        0
    };
    let split = match context.pool {
        Some(pool) if !lazy && settings.multipv <= 1 => Some(RootSplit::new(
            pool,
            shared,
            rules,
            game.repetition_keys(),
            limits.nodes,
        )),
        _ => None,
    };
    let mut result = (Some(root_moves[0]), None);
    // Room kept free while the helpers start: should the system run out of threads or memory
    // for their stacks, freeing it leaves room for the allocations the search still makes.
    // (A failed allocation aborts the process, a failed thread start does not.)
    let mut reserve: Vec<u8> = Vec::new();
    if helpers > 0 {
        let _ = reserve.try_reserve_exact(HELPER_RESERVE_BYTES);
    }
    std::thread::scope(|scope| {
        let mut started = 0;
        for t in 0..helpers {
            // Each helper's worker is built here, one after the other, and only while the
            // room for it and its thread's stack is there, so that no helper starts and then
            // fails to allocate.
            if Vec::<u8>::new()
                .try_reserve_exact(HELPER_ROOM_BYTES)
                .is_err()
            {
                break;
            }
            let mut w = Worker::new(shared, rules, game.repetition_keys());
            w.main = false;
            w.root_moves = root_moves.clone();
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                // Helpers start one ply apart so that they fill the table with different work.
                let mut depth = 1 + (t as i32 % 2);
                let mut prev = 0;
                while depth <= max_depth && !w.stopped {
                    // An aspiration window around the helper's last score, searched again
                    // with the full window when the score falls outside.
                    let (alpha, beta) = if depth >= 4 {
                        (prev - HELPER_WINDOW, prev + HELPER_WINDOW)
                    } else {
                        (-INFINITE, INFINITE)
                    };
                    let mut score = w.search_root(&board, depth, alpha, beta);
                    if !w.stopped && (score <= alpha || score >= beta) {
                        score = w.search_root(&board, depth, -INFINITE, INFINITE);
                    }
                    if !w.stopped {
                        prev = score;
                        shared.publish_helper_line(depth, score, w.pv());
                    }
                    depth += 1;
                }
                w.flush_nodes();
            });
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        drop(std::mem::take(&mut reserve));
        let wanted = settings.threads.max(1);
        let running = split.as_ref().map_or(started + 1, RootSplit::threads);
        if running < wanted {
            report(Report::Threads { wanted, running });
        }
        let mut w = Worker::new(shared, rules, game.repetition_keys());
        if let Ok(h) = quiet_history.lock()
            && h.len() == super::history::HISTORY_SIZE
        {
            w.set_quiet_history(&h);
        }
        w.root_moves = root_moves.clone();
        w.node_limit = limits.nodes;
        w.cancel = cancel;
        w.sink = Some(report);
        // With helpers, an iteration a helper finishes first is taken over (one line only).
        w.adopt = helpers > 0 && settings.multipv <= 1;
        result = iterate(
            &mut w,
            split.as_ref(),
            shared,
            settings,
            &board,
            limits,
            max_depth,
            &root_moves,
        );
        if let Ok(mut h) = quiet_history.lock() {
            *h = w.quiet_history().to_vec();
        }
        // The main thread is done: stop the helpers (the answer may still wait for `stop`).
        // Under `infinite` or `ponder` the helpers run on until `stop`.
        if !(limits.infinite || shared.pondering.load(Ordering::SeqCst)) {
            shared.stop.store(true, Ordering::SeqCst);
        }
    });
    result
}

/// Iterative deepening with aspiration windows and MultiPV on the main worker.
#[allow(clippy::too_many_arguments)]
fn iterate(
    w: &mut Worker,
    split: Option<&RootSplit>,
    shared: &Shared,
    settings: &Settings,
    board: &konakis_core::board::Board,
    limits: &Limits,
    max_depth: i32,
    root_moves: &[Move],
) -> (Option<Move>, Option<Move>) {
    let mut best: Option<Move> = Some(root_moves[0]);
    let mut ponder: Option<Move> = None;
    let mut prev_score = 0;
    let mut time = TimeManager::default();
    let multipv = settings.multipv.clamp(1, root_moves.len());
    // Root moves, best first, for the parallel root search.
    let mut order: Vec<Move> = root_moves.to_vec();
    let mut depth = 0;
    while depth < max_depth {
        depth += 1;
        w.age_history();
        let mut lines: Vec<(i32, Vec<Move>, ScoreBound)> = Vec::new();
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
            let mut delta = 25;
            let (mut alpha, mut beta) = if depth >= 4 && pv_index == 0 {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INFINITE, INFINITE)
            };
            let mut line;
            let score = loop {
                let s = match split {
                    Some(split) => {
                        let (s, pv) = split.search(w, board, &order, depth, alpha, beta);
                        line = pv;
                        s
                    }
                    None => {
                        let s = w.search_root(board, depth, alpha, beta);
                        line = w.pv();
                        s
                    }
                };
                if w.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITE);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITE);
                    if !line.is_empty() && pv_index == 0 {
                        best = Some(line[0]);
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
            let pv = line;
            if pv.is_empty() {
                break;
            }
            w.excluded.push(pv[0]);
            lines.push((score, pv, ScoreBound::Exact));
        }
        if w.aborted {
            // A helper finished this depth while the main thread was searching it.
            w.aborted = false;
            w.stopped = shared.stop.load(Ordering::Relaxed);
        }
        if !w.stopped
            && lines.is_empty()
            && let Some((d, score, pv)) = ahead.or_else(|| shared.helper_line_from(depth))
        {
            depth = d;
            lines.push((score, pv, ScoreBound::Exact));
        }
        if lines.is_empty() {
            break;
        }
        // A partial MultiPV iteration is still reported for the lines it finished.
        lines.sort_by_key(|line| std::cmp::Reverse(line.0));
        let elapsed = shared.elapsed_ms();
        let nodes = shared.nodes.load(Ordering::Relaxed) + w.unflushed();
        for (i, (score, pv, bound)) in lines.iter().enumerate() {
            w.emit(Report::Info(Info {
                depth: depth as u32,
                seldepth: w.seldepth as u32,
                multipv: i as u32 + 1,
                score: Score::from_internal(*score),
                bound: *bound,
                nodes,
                nps: nodes * 1000 / elapsed.max(1),
                time_ms: elapsed,
                hashfull: shared.tt.hashfull(),
                pv: pv.clone(),
            }));
        }
        let (score, pv, _) = &lines[0];
        time.iteration_done(best == Some(pv[0]), prev_score - score);
        best = Some(pv[0]);
        ponder = pv.get(1).copied();
        if let Some(pos) = order.iter().position(|&m| m == pv[0]) {
            order[..=pos].rotate_right(1);
        }
        prev_score = *score;
        if w.stopped {
            break;
        }
        if let (Some(m), Score::Mate(n)) = (limits.mate, Score::from_internal(*score))
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
        // (not while pondering: the limits start at `ponderhit`).
        if !shared.pondering.load(Ordering::Relaxed)
            && time.past_soft_limit(elapsed, shared.soft_ms.load(Ordering::Relaxed))
        {
            break;
        }
    }
    w.flush_nodes();
    (best, ponder)
}
