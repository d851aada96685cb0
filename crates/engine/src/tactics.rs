//! `konakis bench --tactics`: a solve-time benchmark over a suite of king tactics, as chess
//! engines keep test suites. Each position of the suite was classified by an exhaustive solver
//! (the example `king_tactics_suite` writes the file, tests/it/tactics.rs checks it): the attackers capture the king by force in
//! exactly 1, 2 or 3 moves, or the defenders must parry a capture threatened for the next
//! move. For each, the tool reports the search time and the iteration depth from which the
//! engine's best move is one of the solver's and, for a forced capture, its score is the mate,
//! and stay so to the end of the search.

use crate::Engine;
use crate::network::LoadedNet;
use crate::options::Options;
use crate::search::{Cancel, Info, Limits, Report, Score, SearchError, Settings};
use konakis_core::board::{Board, MoveError, PositionError};
use konakis_core::rules::{Rules, RulesError};
use konakis_core::types::Move;
use std::fmt;

/// The suite: one position per line, `options ; position ; kind ; moves` (see [`Tactic`]).
pub const SUITE: &str = include_str!("tactics.txt");

/// What the solver found in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The side to move (the attackers) captures the king by force with its n-th move, and
    /// not sooner.
    Capture(u32),
    /// The side to move (the defenders) must stop a capture of the king next move; the
    /// listed moves are exactly those that do.
    Parry,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Capture(n) => write!(f, "capture {n}"),
            Kind::Parry => f.write_str("parry"),
        }
    }
}

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct Tactic {
    /// Rule options, `Name=Value` separated by spaces (`-` in the file for the defaults).
    pub options: String,
    /// The rules those options give.
    pub rules: Rules,
    /// The position.
    pub board: Board,
    /// What the solver found.
    pub kind: Kind,
    /// The right moves: every move that keeps the forced capture, or every parry.
    pub moves: Vec<Move>,
}

impl Tactic {
    /// The line of the suite file for this position.
    pub fn line(&self) -> String {
        let options = if self.options.is_empty() {
            "-"
        } else {
            &self.options
        };
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!(
            "{options} ; {} ; {} ; {}",
            self.board.to_fen(),
            self.kind,
            moves.join(" ")
        )
    }

    /// Parses one line of the suite file.
    pub fn parse(line: &str) -> Result<Tactic, TacticError> {
        let err = |problem| TacticError {
            line: line.to_string(),
            problem,
        };
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [options, fen, kind, moves] = fields[..] else {
            return Err(err(TacticProblem::Fields));
        };
        let options = if options == "-" { "" } else { options };
        let mut rules = Rules::default();
        for pair in options.split_whitespace() {
            rules
                .set_pair(pair)
                .map_err(|e| err(TacticProblem::Rules(e)))?;
        }
        let board = Board::from_fen(fen).map_err(|e| err(TacticProblem::Position(e)))?;
        let kind = match kind.split_whitespace().collect::<Vec<_>>()[..] {
            ["parry"] => Kind::Parry,
            ["capture", n] => Kind::Capture(n.parse().map_err(|_| {
                err(TacticProblem::MoveCount {
                    text: n.to_string(),
                })
            })?),
            _ => return Err(err(TacticProblem::Kind)),
        };
        let moves = moves
            .split_whitespace()
            .map(|m| board.parse_move(&rules, m))
            .collect::<Result<Vec<Move>, _>>()
            .map_err(|e| err(TacticProblem::Move(e)))?;
        if moves.is_empty() {
            return Err(err(TacticProblem::NoMove));
        }
        Ok(Tactic {
            options: options.to_string(),
            rules,
            board,
            kind,
            moves,
        })
    }

    /// Does this iteration's report show the position solved: a right move first in the
    /// principal variation, with the mate score for a forced capture?
    pub fn solved_by(&self, info: &Info) -> bool {
        let right_move = info.pv.first().is_some_and(|m| self.moves.contains(m));
        right_move
            && match self.kind {
                Kind::Capture(n) => matches!(info.score, Score::Mate(m) if m >= 1 && m as u32 <= n),
                Kind::Parry => true,
            }
    }
}

/// A line of a suite file that is not a position of the suite ([`Tactic::parse`]). Display
/// quotes the line, then says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TacticError {
    /// The line (trimmed).
    pub line: String,
    /// What is wrong with it.
    pub problem: TacticProblem,
}

/// What is wrong with a line of a suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TacticProblem {
    /// Not four fields separated by `;`.
    Fields,
    /// A rule option is unknown or has a bad value.
    Rules(RulesError),
    /// The position string does not parse.
    Position(PositionError),
    /// `capture N` with an N that is not a number.
    MoveCount {
        /// The text after `capture`.
        text: String,
    },
    /// The kind is neither `capture N` nor `parry`.
    Kind,
    /// A right move is not a legal move of the position.
    Move(MoveError),
    /// No right move.
    NoMove,
}

impl fmt::Display for TacticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.line, self.problem)
    }
}

impl fmt::Display for TacticProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TacticProblem::Fields => f.write_str("expected 'options ; position ; kind ; moves'"),
            TacticProblem::Rules(e) => write!(f, "{e}"),
            TacticProblem::Position(e) => write!(f, "{e}"),
            TacticProblem::MoveCount { text } => write!(f, "'{text}' is not a number of moves"),
            TacticProblem::Kind => f.write_str("the kind is 'capture N' or 'parry'"),
            TacticProblem::Move(e) => write!(f, "{e}"),
            TacticProblem::NoMove => f.write_str("no right move listed"),
        }
    }
}

impl std::error::Error for TacticError {}
impl std::error::Error for TacticProblem {}

/// Every position of a suite file (blank lines and `#` comments skipped); the error is that
/// of the first line that is not a position.
pub fn parse_suite(text: &str) -> Result<Vec<Tactic>, TacticError> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(Tactic::parse)
        .collect()
}

/// When a search solved a position: the time and depth of the first iteration from which
/// every later one (and the best move played) was right. `None` if it never settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solve {
    /// Milliseconds from `go` to the first iteration of the right run.
    pub time_ms: u64,
    /// Its iteration depth.
    pub depth: u32,
}

/// The depth `solve` searches a position to: four plies past the nominal depth the target
/// allows (2 per move + 2), so that a right answer must also stay right.
pub fn search_depth(kind: Kind) -> u32 {
    match kind {
        Kind::Capture(n) => 2 * n + 6,
        Kind::Parry => 8,
    }
}

/// Searches `tactic` from an empty table to [`search_depth`] (or for at most `max_ms`) and
/// says when it was solved.
pub fn solve(engine: &mut Engine, tactic: &Tactic, max_ms: u64) -> Option<Solve> {
    engine.clear();
    engine.set_rules(tactic.rules, tactic.board);
    let limits = Limits {
        depth: Some(search_depth(tactic.kind)),
        movetime: Some(max_ms),
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let best = engine
        .search(limits, Cancel::Never, |_, report| {
            if let Report::Info(info) = report
                && info.multipv == 1
            {
                infos.push(info);
            }
        })
        .ok()?
        .best;
    if !best.is_some_and(|b| tactic.moves.contains(&b)) {
        return None;
    }
    let settled = infos.iter().rposition(|i| !tactic.solved_by(i));
    let first = match settled {
        Some(k) => infos.get(k + 1)?,
        None => infos.first()?,
    };
    Some(Solve {
        time_ms: first.time_ms,
        depth: first.depth,
    })
}

/// The value at quantile `q` (0..=1) of sorted `values`, by the nearest rank.
fn quantile(values: &[u64], q: f64) -> u64 {
    if values.is_empty() {
        return 0;
    }
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// What [`solve_suite`] measured over the suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteSolves {
    /// Positions in the suite.
    pub positions: usize,
    /// Milliseconds each solved position needed, sorted.
    pub times_ms: Vec<u64>,
    /// Iteration depth each solved position needed, sorted.
    pub depths: Vec<u64>,
}

impl SuiteSolves {
    /// Positions solved.
    pub fn solved(&self) -> usize {
        self.times_ms.len()
    }

    /// Positions not solved.
    pub fn unsolved(&self) -> usize {
        self.positions - self.solved()
    }

    /// Median, 90th percentile (nearest rank) and maximum solve time in milliseconds; zeros
    /// when nothing was solved.
    pub fn time_quantiles(&self) -> [u64; 3] {
        quantiles(&self.times_ms)
    }

    /// Median, 90th percentile (nearest rank) and maximum solve depth; zeros when nothing was
    /// solved.
    pub fn depth_quantiles(&self) -> [u64; 3] {
        quantiles(&self.depths)
    }
}

fn quantiles(sorted: &[u64]) -> [u64; 3] {
    [
        quantile(sorted, 0.5),
        quantile(sorted, 0.9),
        sorted.last().copied().unwrap_or(0),
    ]
}

/// Solves every position of the built-in [`SUITE`] with `settings` (and `network`, if given),
/// each for at most `max_ms`. `each(index, tactic, solve)` hears of each position as it is
/// done. Fails only when the engine cannot be set up (its table, its threads).
pub fn solve_suite(
    settings: Settings,
    network: Option<LoadedNet>,
    max_ms: u64,
    mut each: impl FnMut(usize, &Tactic, Option<Solve>),
) -> Result<SuiteSolves, SearchError> {
    let suite = parse_suite(SUITE).expect("the built-in suite parses (checked by a test)");
    let mut engine = Engine::new(Options {
        settings,
        ..Options::default()
    })?;
    engine.set_network(network)?;
    let mut solves = SuiteSolves {
        positions: suite.len(),
        ..SuiteSolves::default()
    };
    for (i, t) in suite.iter().enumerate() {
        let solve = solve(&mut engine, t, max_ms);
        each(i, t, solve);
        if let Some(s) = solve {
            solves.times_ms.push(s.time_ms);
            solves.depths.push(s.depth as u64);
        }
    }
    solves.times_ms.sort_unstable();
    solves.depths.sort_unstable();
    Ok(solves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_suite_line_says_what_is_wrong_in_its_words() {
        let fen = konakis_core::board::START_FEN;
        let e = Tactic::parse(&format!("- ; {fen} ; capture x ; e2e3")).unwrap_err();
        assert_eq!(e.problem, TacticProblem::MoveCount { text: "x".into() });
        assert_eq!(
            e.to_string(),
            format!("'- ; {fen} ; capture x ; e2e3': 'x' is not a number of moves")
        );
        let e = parse_suite("# c\n\na ; b").unwrap_err();
        assert_eq!(e.problem, TacticProblem::Fields);
        assert_eq!(
            e.to_string(),
            "'a ; b': expected 'options ; position ; kind ; moves'"
        );
    }

    #[test]
    fn quantiles_take_the_nearest_rank() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(quantile(&v, 0.5), 5);
        assert_eq!(quantile(&v, 0.9), 9);
        assert_eq!(quantile(&v, 1.0), 10);
        assert_eq!(quantile(&[], 0.5), 0);
    }

    #[test]
    fn suite_lines_round_trip_and_bad_lines_say_what_is_wrong() {
        let suite = parse_suite(SUITE).unwrap();
        assert!(!suite.is_empty());
        for t in &suite {
            let again = Tactic::parse(&t.line()).unwrap();
            assert_eq!(again.line(), t.line());
        }
        let e = Tactic::parse("- ; 9/9/9/9/4K4/9/9/9/9 b ; capture 1").unwrap_err();
        assert!(e.to_string().contains("expected"), "{e}");
        let e = Tactic::parse("- ; 9/9/9/9/4K4/9/9/9/9 b ; mate 1 ; e5e6").unwrap_err();
        assert!(e.to_string().contains("kind"), "{e}");
    }
}
