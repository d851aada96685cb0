//! The evaluation of a position term by term, and which evaluation the search uses there (as
//! Stockfish's `Eval::trace`): what `Engine::trace_eval` answers
//! and a front-end's `eval` command prints.

use crate::Size;
use crate::network::{EvalMode, LoadedNet, RuleFamily, Source};
use konakis_core::board::BoardOf;
use konakis_core::rules::Rules;
use konakis_core::types::Side;

/// Whether a network evaluates a position, and if so what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkEval {
    /// A network evaluates under these rules; the search uses its evaluation.
    Used {
        /// Its evaluation, centi-soldiers for the side to move.
        cp: i32,
        /// The family of rules it was trained for.
        family: RuleFamily,
        /// Where it came from.
        source: Source,
    },
    /// The `Eval` option is `Classical`: no network is used.
    Off,
    /// No network evaluates under these rules (of this family): the search evaluates
    /// classically.
    NoneFor(RuleFamily),
}

/// The evaluation of one position, term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// The side to move, whose view [`EvalTrace::classical`], the network's evaluation and
    /// [`EvalTrace::evaluation`] take.
    pub side: Side,
    /// The classical evaluation's terms, each weighted, from the attackers' view, in the
    /// order of [`crate::eval::FEATURES`] (of [`crate::family_eval::FAMILY_FEATURES`] under
    /// the family's rules).
    pub terms: Vec<(&'static str, i32)>,
    /// The classical evaluation, centi-soldiers for the side to move.
    pub classical: i32,
    /// The network's part.
    pub network: NetworkEval,
    /// The evaluation the search uses: the network's where one evaluates, else the
    /// classical one; centi-soldiers for the side to move.
    pub evaluation: i32,
}

/// The trace of `board` under `rules` when `mode` is the `Eval` option and `net` the network
/// that evaluates there (as [`crate::network::choose`] picks it).
pub(crate) fn trace<G: Size>(
    board: &BoardOf<G>,
    rules: &Rules,
    mode: EvalMode,
    net: Option<LoadedNet>,
) -> EvalTrace {
    let (terms, classical) = G::breakdown(board, rules);
    let network = match (net, G::tablut(board)) {
        (Some(n), Some(board)) => NetworkEval::Used {
            cp: n.net.evaluate_board(board),
            family: n.family(),
            source: n.source,
        },
        _ if mode == EvalMode::Classical => NetworkEval::Off,
        _ => NetworkEval::NoneFor(RuleFamily::of(rules)),
    };
    let evaluation = match network {
        NetworkEval::Used { cp, .. } => cp,
        _ => classical,
    };
    EvalTrace {
        side: board.side_to_move(),
        terms,
        classical,
        network,
        evaluation,
    }
}

/// The evaluation the search uses of `board`: the network's (`net`) where one evaluates, else
/// the classical one; centi-soldiers for the side to move.
pub(crate) fn evaluation<G: Size>(
    board: &BoardOf<G>,
    rules: &Rules,
    net: Option<LoadedNet>,
) -> i32 {
    match (net, G::tablut(board)) {
        (Some(n), Some(board)) => n.net.evaluate_board(board),
        _ => G::evaluate(board, rules, rules.family_rules()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval;
    use konakis_core::board::Board;

    #[test]
    fn the_trace_names_the_evaluation_the_search_uses() {
        let rules = Rules::default();
        let board = Board::start(&rules);
        let net = crate::network::choose(EvalMode::Network, None, &rules);
        let t = trace(&board, &rules, EvalMode::Network, net.clone());
        match (&t.network, &net) {
            (NetworkEval::Used { cp, .. }, Some(n)) => {
                assert_eq!(*cp, n.net.evaluate_board(&board));
                assert_eq!(t.evaluation, *cp);
            }
            (NetworkEval::NoneFor(_), None) => assert_eq!(t.evaluation, t.classical),
            other => panic!("{other:?}"),
        }
        assert_eq!(t.evaluation, evaluation(&board, &rules, net));
        let classical = trace(&board, &rules, EvalMode::Classical, None);
        assert_eq!(classical.network, NetworkEval::Off);
        assert_eq!(classical.evaluation, eval::evaluate(&board, &rules));
        assert_eq!(classical.terms, eval::breakdown(&board, &rules).0);
    }
}
