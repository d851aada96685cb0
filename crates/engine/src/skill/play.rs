//! Playing at a level: one search under the level's limits and with its lines (the search
//! proper, `search/deepen.rs`), then the level's choice among them ([`Plan`]). A move that
//! wins on the spot is played without a search, and level 0 only glances at the board.

use super::{Lines, Plan, winning_move};
use crate::Size;
use crate::search::{Cancel, Info, Limits, Report, RunContext, Score, ScoreBound, run};
use konakis_core::board::GameOf;
use konakis_core::types::MoveOf;

/// A search at a strength level: the search proper under the level's limits and with its
/// lines, then the level's choice among them. Only the lines the `MultiPV` option asks for
/// are reported.
pub(crate) fn play_at_level<G: Size>(
    mut plan: Plan,
    context: &RunContext<'_, G>,
    game: &GameOf<G>,
    limits: &Limits<G>,
    cancel: Cancel,
    report: &mut (dyn FnMut(Report<G>) + Send),
) -> (Option<MoveOf<G>>, Option<MoveOf<G>>) {
    let board = game.board();
    let rules = game.rules();
    let moves = limits.root_moves(game);
    if !game.status().is_over()
        && let Some(win) = winning_move(board, rules, &moves)
    {
        // Seen at a glance at every level: played without a search.
        report(Report::Info(Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Mate(1),
            bound: ScoreBound::Exact,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![win],
        }));
        return (Some(win), None);
    }
    if plan.glances() {
        return (plan.glance(game, &moves), None);
    }
    let shown = context.settings.multipv;
    // The search's own settings, with the level's number of lines.
    let mut settings = *context.settings;
    settings.multipv = plan.lines(shown);
    let context = RunContext {
        settings: &settings,
        ..*context
    };
    let mut lines = Lines::default();
    let searched = run(
        &context,
        game,
        &plan.limits(limits),
        cancel,
        &mut |r: Report<G>| {
            if let Report::Info(info) = &r {
                lines.take(info);
                if info.multipv as usize > shown {
                    return;
                }
            }
            report(r)
        },
    );
    match plan.choose(&lines) {
        Some((best, ponder)) => (Some(best), ponder),
        None if searched.0.is_some() => (plan.fallback(board, rules, &moves), None),
        None => searched,
    }
}
