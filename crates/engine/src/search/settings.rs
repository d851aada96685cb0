//! The search settings that are not rules: threads and how they share the work, the table's
//! size, the lines to report, the time kept in reserve, the evaluation and the strength.

use crate::network::EvalMode;
use crate::skill::Skill;

/// How several threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmpMode {
    /// One tree searched by every thread: at each node of the principal variation, the first
    /// move by the main thread alone, then the others shared among the threads against the
    /// best score so far (young brothers wait).
    Split,
    /// Every thread searches the whole tree from the root, sharing the table (Lazy SMP).
    Lazy,
}

impl SmpMode {
    /// Names as the `SMP Mode` option spells them.
    pub const NAMES: [&'static str; 2] = ["Split", "Lazy"];

    /// The mode named `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<SmpMode> {
        if name.eq_ignore_ascii_case("Split") {
            Some(SmpMode::Split)
        } else if name.eq_ignore_ascii_case("Lazy") {
            Some(SmpMode::Lazy)
        } else {
            None
        }
    }

    /// The option value text.
    pub fn name(self) -> &'static str {
        match self {
            SmpMode::Split => "Split",
            SmpMode::Lazy => "Lazy",
        }
    }
}

/// Search settings that are not rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How threads share the work when `threads > 1`.
    pub smp: SmpMode,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move.
    pub move_overhead_ms: u64,
    /// The evaluation: the network for the rules where there is one, or the classical one.
    pub eval: EvalMode,
    /// The strength options; full strength by default ([`crate::skill`]).
    pub skill: Skill,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            // Lazy SMP won more games (docs/strength.md).
            smp: SmpMode::Lazy,
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            eval: EvalMode::Network,
            skill: Skill::default(),
        }
    }
}
