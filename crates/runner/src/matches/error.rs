//! The errors at the match runner's public boundary, each with the words the user reads.

use konakis_core::board::Status;
use std::path::PathBuf;
use thiserror::Error;

/// What stops `konakis match` (or `konakis match merge`) before or instead of a result.
#[derive(Debug, Error)]
pub enum MatchError {
    /// A mistake on the command line (a flag or a `key=value` setting), found before any game.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The openings file cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An engine cannot start or does not speak its protocol (the check before the match).
    #[error("{0}")]
    Engine(String),
    /// An output (records, log, JSON) cannot be created or written.
    #[error("{0}")]
    Output(String),
    /// A worker thread cannot be started.
    #[error("cannot start a worker thread: {0}")]
    Thread(#[source] std::io::Error),
    /// Shard results that cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
}

/// Why an openings file cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read openings file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A line is not an opening.
    #[error("{}:{line}: bad opening '{text}': {reason}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// The line as written (trimmed).
        text: String,
        /// What is wrong with it.
        reason: OpeningError,
    },
    /// The file holds no opening (only blank and `#` lines).
    #[error("openings file {} has no openings", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// Why a line is not an opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// Nothing before `moves`.
    #[error("empty position (expected startpos or a position string)")]
    Empty,
    /// The position string or a move is not valid under the match rules (the rules library's
    /// words).
    #[error("{0}")]
    Position(String),
    /// The game is over after the moves.
    #[error("the game is already over ({0})")]
    Over(Status),
}

/// Why shard results cannot be merged (`konakis match merge`).
#[derive(Debug, Error)]
pub enum MergeError {
    /// No file was given.
    #[error("merge needs at least one JSON file")]
    NoFiles,
    /// A file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A file is not the JSON of a finished `konakis match` (or of a newer version).
    #[error("{}: not a finished match's JSON: {why}", path.display())]
    NotAResult {
        /// The file.
        path: PathBuf,
        /// What is missing or wrong.
        why: String,
    },
    /// Two files are results of different matches.
    #[error(
        "{} and {} are not shards of the same match: their {what} differ",
        first.display(),
        other.display()
    )]
    Mismatch {
        /// The file the others are compared with.
        first: PathBuf,
        /// The file that differs.
        other: PathBuf,
        /// What differs: engines, options, openings, time control, rules, games, shards...
        what: String,
    },
    /// The same shard was given twice.
    #[error("shard {shard} is given twice: {} and {}", first.display(), again.display())]
    Duplicate {
        /// The shard, as `K/N`.
        shard: String,
        /// Its first file.
        first: PathBuf,
        /// Its second file.
        again: PathBuf,
    },
    /// A shard was interrupted: its results are not those of its whole part of the match.
    #[error("{}: shard {shard} was interrupted; run it again", path.display())]
    Interrupted {
        /// The file.
        path: PathBuf,
        /// The shard, as `K/N`.
        shard: String,
    },
    /// A records file cannot be read or the merged output cannot be written.
    #[error("{0}")]
    Output(String),
}

/// A mistake on the `konakis match` command line, by the flag it is in; Display is the
/// message as the user reads it (it names the flag and the setting).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// Fewer than two `--engine`s.
    #[error(
        "a match needs at least two engines (got {0}); give --engine name=… cmd=… for each (the \
         same cmd twice for a self-play balance study)"
    )]
    TooFewEngines(usize),
    /// In the `--engine` group of engine `index` (from 0).
    #[error("{message}")]
    Engine {
        /// The engine, from 0 in the order given.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// In an `--each` group.
    #[error("{0}")]
    Each(String),
    /// In `--rules`.
    #[error("{0}")]
    Rules(String),
    /// `--games`, `--rounds` or `--concurrency`.
    #[error("{0}")]
    Games(String),
    /// In `--openings`.
    #[error("{0}")]
    Openings(String),
    /// In `--sprt`.
    #[error("{0}")]
    Sprt(String),
    /// In `--resign` or `--draw`.
    #[error("{0}")]
    Adjudication(String),
    /// `--startup-timeout` or `--move-timeout`.
    #[error("{0}")]
    Timeout(String),
    /// `--shard`.
    #[error("{0}")]
    Shard(String),
}
