//! `konakis bench` and the protocol's `bench`: a fixed set of positions searched to a fixed
//! depth from an empty table. The total node count is the build's signature: it changes when,
//! and only when, the search or the evaluation changes what it does.
//!
//! With one thread the count is the same on every run and every machine (the search has no
//! time limit here, and nothing in it depends on the clock or on addresses). With more threads
//! it is not, since the threads share the table in whatever order they reach it.

use crate::clock::Instant;
use crate::network::LoadedNet;
use crate::options::Options;
use crate::search::{Cancel, Limits, Report, Settings};
use crate::{Engine, EngineError};
use konakis_core::board::{Board, Game};
use konakis_core::rules::Rules;
use std::time::Duration;

/// The depth `bench` searches to when none is given.
pub const DEFAULT_DEPTH: u32 = 8;
/// The table size of `bench` in MiB when none is given (the signature depends on it).
pub const DEFAULT_HASH_MIB: usize = 16;

/// One bench position: rule options (`Name=Value` pairs, empty for the default rules) and a
/// position string.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    /// Rule options, `Name=Value` separated by spaces.
    pub options: &'static str,
    /// The position string.
    pub fen: &'static str,
}

impl BenchPosition {
    /// The rules of this position.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules::default();
        for pair in self.options.split_whitespace() {
            rules
                .set_pair(pair)
                .expect("bench options are valid (checked by a test)");
        }
        rules
    }

    /// The game to search: the position, with no history before it.
    pub fn game(&self) -> Game {
        let board =
            Board::from_fen(self.fen).expect("bench positions are valid (checked by a test)");
        Game::new(self.rules(), board)
    }
}

const fn pos(options: &'static str, fen: &'static str) -> BenchPosition {
    BenchPosition { options, fen }
}

const HUB: &str = "KingCapture=English ThroneHostile=true KingReentersThrone=false \
                   ThroneGuardCapture=false";
const ENCYCLOPEDIA: &str = "KingCapture=English ThroneHostile=true KingReentersThrone=false \
                            ThroneGuardCapture=false FirstMove=Defenders KingArmed=false";
const OPENTAFL: &str = "ThroneHostile=true KingReentersThrone=false Encirclement=true";
const ASHTON: &str = "Ruleset=Ashton";

/// The bench positions: openings, middle games and endings under several rule sets, with
/// either side to move. Every one is an ongoing game with moves to play (a test checks it).
pub const POSITIONS: &[BenchPosition] = &[
    // Openings.
    pos("", "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0"),
    pos(
        "",
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/2b1ww3/4w3b/4b4/3bbb3 w 3",
    ),
    pos(
        "",
        "3bbb2b/4b4/4w4/b3w1w2/bbwwKw1bb/b1w1b1b2/6w2/3b5/3b1b3 w 7",
    ),
    pos(HUB, "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0"),
    pos(
        HUB,
        "3bbb3/8b/2w1w4/b3w3b/bb1wKwwbb/b3w3b/4wb3/4b4/3bb4 w 3",
    ),
    pos(
        ENCYCLOPEDIA,
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 0",
    ),
    pos(
        ENCYCLOPEDIA,
        "3bbb3/7b1/2w1w4/b2ww3b/bb2Kwwbb/b3w3b/4w4/4b4/3bbb3 b 3",
    ),
    pos(
        OPENTAFL,
        "1b2bb3/4bw3/4w4/b3w3b/bbwwK1wbb/b3w3b/4w4/4b4/2b1bb3 w 3",
    ),
    // Middle games.
    pos("", "3bbb2b/4b4/4w4/bw7/bbwwKww1b/b1w6/5b1b1/4b4/3b5 b 14"),
    pos(
        "",
        "3bbb3/4bw3/4w4/b5w1b/bbwwK2b1/b1w2b3/7b1/4b4/3b2w2 w 21",
    ),
    pos(
        "",
        "3bbb3/b5b2/4w4/b3w4/bw3w1bb/3Kw1b2/b3w4/2b1b4/3bbb3 b 14",
    ),
    pos(
        "",
        "4bb3/4w4/4b2w1/3b1b2b/bb2Kbb2/2bww4/4w1b2/4b4/3bb4 w 21",
    ),
    pos(
        HUB,
        "3bbb3/8b/4w4/b2ww3b/b1bw4b/b2b2w1b/2b1K2b1/4b1w2/4b4 b 14",
    ),
    pos(
        HUB,
        "3bbb3/8b/4w4/b3w3b/bb1wKw1bb/b1wbw3b/5b3/4b1w2/4b4 w 7",
    ),
    pos(
        ENCYCLOPEDIA,
        "4bb3/2b6/w4w3/2b3w1b/bb1bK1w1b/2b1b1b2/6b2/9/5b1b1 w 24",
    ),
    pos(
        ENCYCLOPEDIA,
        "1w2bb3/4b4/3bKw3/2b2w2b/bb1w2wbb/2b2w2b/1w2bb3/6b2/3b5 w 14",
    ),
    pos(
        OPENTAFL,
        "4b4/2b3b2/3b1w3/1b4w1b/b4wwbb/b2wK3b/2bww1b2/3b5/4b4 b 24",
    ),
    pos(
        OPENTAFL,
        "4bb3/1b2b4/1b3ww2/b3K2b1/b1ww3b1/b1w6/1b3w3/4b3b/3b1b3 b 24",
    ),
    pos(
        "KingArmed=false RepetitionDraw=2 MoveLimit=0",
        "3bb4/9/3w1wb2/2bbK2bb/bb3b3/3ww4/4w1b2/4b4/3bb4 b 28",
    ),
    pos(
        "ThronePassable=false KingReentersThrone=false ThroneGuardCapture=false",
        "3bbb3/b3w4/3w4b/4w4/bb1wK1wbb/b1w6/4w3b/1b6b/3bbb3 w 9",
    ),
    // Endings.
    pos("", "4b4/4b4/3b5/2b2b2b/bb7/b3K2b1/3b2w2/4b4/2w1w4 b 42"),
    pos("", "2w6/b8/b2b5/w3b4/b1K2b1bb/4w1b2/b3w4/2b1b4/3b1b3 b 42"),
    pos(
        OPENTAFL,
        "4b4/5b3/3b3b1/1bb3b2/b2K4b/2bwbb3/6w1b/3b5/4b4 b 48",
    ),
    pos(
        ENCYCLOPEDIA,
        "3b1b3/2bK3b1/w2b5/2b3w1b/bb4w1b/2b1b1b2/5wb2/9/5b3 w 36",
    ),
    pos(
        "KingCapture=English",
        "9/2b1b1b2/1b5b1/3b5/2b1K2b1/5w2b/1b5b1/3bbb3/9 w 90",
    ),
    pos(
        "Encirclement=true MoveLimit=400",
        "9/b8/4bb3/2b3b2/1bw1K1wb1/2b3b2/3bbb3/9/9 b 120",
    ),
    // Ashton: the start, and positions from the Tablut Challenge server's game logs
    // (tests/data/ashton/).
    pos(
        ASHTON,
        "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w 0",
    ),
    pos(
        ASHTON,
        "3bbb3/4b4/2bw5/2bw1w2b/b1w1K1wbb/b2ww3b/4w4/4b4/2b1bb3 w 8",
    ),
    pos(
        ASHTON,
        "3bbb3/9/2b4w1/2b3b1b/b1wK1b1bb/b1w1w3b/4w4/4b4/2b1b4 b 15",
    ),
    pos(ASHTON, "3bbb3/4b4/4w4/b3w3b/bbw2Kwbb/2b1bw3/9/9/3b1b3 w 8"),
    pos(ASHTON, "3bb4/4b4/2w2bw2/8b/bb3Kw1b/2b1b2w1/5b3/9/3b5 b 15"),
    pos(ASHTON, "3b2b2/4b4/4w1b2/5K3/bb6b/2b3b2/5b3/9/3b5 w 22"),
];

/// The engine settings bench uses: `threads`, `hash_mib` (default 16), one line, default
/// overhead.
pub fn settings(threads: usize, hash_mib: Option<usize>) -> Settings {
    Settings {
        hash_mib: hash_mib.unwrap_or(DEFAULT_HASH_MIB),
        threads,
        multipv: 1,
        ..Settings::default()
    }
}

/// What a bench run measured, for one position or for all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchCount {
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl BenchCount {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.elapsed.as_millis().max(1)) as u64
    }
}

/// What [`bench()`] reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum BenchProgress<'a> {
    /// Fewer search threads than asked for could be started (reported once).
    Threads {
        /// Threads asked for.
        wanted: usize,
        /// Threads searching.
        running: usize,
    },
    /// A position has been searched.
    Position {
        /// Its index in [`POSITIONS`].
        index: usize,
        /// The position.
        position: &'a BenchPosition,
        /// Its nodes and time.
        count: BenchCount,
    },
}

/// Searches every position of [`POSITIONS`] to `depth` with `settings`, clearing the table and
/// the quiet history before each; `network`, if given, evaluates the positions of its rules (as
/// `EvalFile` does). `progress` hears of each position searched, with its nodes and time, and
/// once of fewer threads than asked for. Returns the totals, `Ok(None)` if `stop` said stop
/// before the end, or an error if the engine could not be set up or a search not started.
pub fn bench(
    depth: u32,
    settings: Settings,
    network: Option<LoadedNet>,
    stop: Cancel,
    mut progress: impl FnMut(BenchProgress),
) -> Result<Option<BenchCount>, EngineError> {
    let mut engine = Engine::new(Options {
        settings,
        ..Options::default()
    })?;
    engine.set_network(network)?;
    let mut warned = false;
    let mut total = BenchCount {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (index, position) in POSITIONS.iter().enumerate() {
        if stop.stopped() {
            return Ok(None);
        }
        engine.clear();
        let game = position.game();
        engine.set_rules(*game.rules(), *game.board());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let started = Instant::now();
        let mut short = None;
        let searched = engine.search(limits, stop, |_, r| {
            if let Report::Threads { wanted, running } = r {
                short = Some((wanted, running));
            }
        });
        searched?;
        if let Some((wanted, running)) = short
            && !warned
        {
            progress(BenchProgress::Threads { wanted, running });
            warned = true;
        }
        let count = BenchCount {
            nodes: engine.nodes(),
            elapsed: started.elapsed(),
        };
        if stop.stopped() {
            return Ok(None);
        }
        total.nodes += count.nodes;
        total.elapsed += count.elapsed;
        progress(BenchProgress::Position {
            index,
            position,
            count,
        });
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::Status;

    #[test]
    fn positions_are_valid_varied_ongoing_games() {
        assert!(POSITIONS.len() >= 20);
        let mut fens = std::collections::HashSet::new();
        let mut option_sets = std::collections::HashSet::new();
        for p in POSITIONS {
            let mut rules = Rules::default();
            for pair in p.options.split_whitespace() {
                rules
                    .set_pair(pair)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.options));
            }
            option_sets.insert(p.options);
            let board = Board::from_fen(p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.fen));
            assert_eq!(
                board.to_fen(),
                p.fen,
                "position strings are written canonically"
            );
            let game = Game::new(rules, board);
            assert_eq!(game.status(), Status::Ongoing, "{}", p.fen);
            assert!(!board.legal_moves(&rules).is_empty(), "{}", p.fen);
            assert!(fens.insert((p.fen, p.options)), "{} twice", p.fen);
        }
        assert!(option_sets.len() >= 5);
    }

    #[test]
    fn the_node_count_repeats() {
        let a = bench(3, settings(1, None), None, Cancel::Never, |_| {})
            .unwrap()
            .unwrap();
        let b = bench(3, settings(1, None), None, Cancel::Never, |_| {})
            .unwrap()
            .unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }

    #[test]
    fn a_stopped_bench_says_so() {
        let stop = std::sync::atomic::AtomicBool::new(true);
        assert_eq!(
            bench(3, settings(1, None), None, Cancel::Flag(&stop), |_| {}),
            Ok(None)
        );
    }
}
