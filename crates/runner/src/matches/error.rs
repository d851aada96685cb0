//! The errors at the match runner's public boundary, each with the words the user reads.

pub use super::config::SettingError;
pub use crate::shard::ShardError;
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
    /// The log or a records file cannot be created or written.
    #[error(transparent)]
    File(#[from] OutputError),
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
    /// `--records`, but no shard given kept its games (`konakis match --records`).
    #[error("--records: none of the shards wrote game records (run them with --records)")]
    NoRecords,
    /// `--records`, but the shards given played no game.
    #[error("--records: the shards played no games, so there is nothing to write")]
    NoGames,
    /// A shard's records are neither where it wrote them nor beside its JSON.
    #[error(
        "--records: the records of {}shard {shard} are not found at {} (nor beside its JSON)",
        game.map_or(String::new(), |g| format!("game {g} of ")),
        path.display()
    )]
    RecordMissing {
        /// The shard, as `K/N`.
        shard: String,
        /// The game, when the shard wrote a file per game.
        game: Option<usize>,
        /// Where the shard wrote them.
        path: PathBuf,
    },
    /// The merged records cannot be written.
    #[error("--records: cannot write {}: {source}", path.display())]
    WriteRecords {
        /// The file asked for.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
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
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// In `--resign` or `--draw`.
    #[error("{0}")]
    Adjudication(String),
    /// `--startup-timeout` or `--move-timeout`.
    #[error("{0}")]
    Timeout(String),
    /// `--shard`.
    #[error(transparent)]
    Shard(#[from] ShardError),
}

/// A mistake in an `--sprt` group (read by `config::sprt_flag`, which returns this error),
/// or `--sprt` given for a match of more than two engines.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    /// An item is not a `key=value` setting, or its key or number is bad.
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// A required key (`elo0`, `elo1`) is missing.
    #[error("--sprt: {0}= is required")]
    Required(&'static str),
    /// `elo1` is not above `elo0`.
    #[error("--sprt: elo1 must be greater than elo0")]
    Order,
    /// `alpha` or `beta` outside (0, 0.5).
    #[error("--sprt: alpha and beta must lie between 0 and 0.5")]
    Risk,
    /// `elo0` or `elo1` at or past ±1000.
    #[error("--sprt: elo0 and elo1 must lie within ±1000")]
    EloRange,
    /// The match (or the merged shards) has other than two engines.
    #[error("--sprt needs exactly two engines")]
    TwoEngines,
}

/// A match output (the `--log` file, the `--records` files) that cannot be created or
/// written. Display gives the system's words after the file's name.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The `--log` file cannot be created.
    #[error("cannot create log {}: {source}", path.display())]
    Log {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The `--records` directory cannot be created.
    #[error("cannot create records directory {}: {source}", path.display())]
    RecordsDirectory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The directory of a `{game}` pattern does not exist.
    #[error("records directory {} does not exist", path.display())]
    NoRecordsDirectory {
        /// The directory.
        path: PathBuf,
    },
    /// The one records file cannot be created.
    #[error("cannot create records file {}: {source}", path.display())]
    RecordsFile {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Appending a game to the one records file failed.
    #[error("cannot write the records file: {0}")]
    WriteRecords(#[source] std::io::Error),
    /// A game's own record file cannot be written.
    #[error("cannot write the record {}: {source}", path.display())]
    WriteRecord {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// An engine that cannot be started (the error of `EngineProcess::spawn`, in module
/// `engine`).
#[derive(Debug, Error)]
pub enum SpawnError {
    /// Its program cannot be started.
    #[error("cannot start {}: {source}", cmd.display())]
    Program {
        /// The program.
        cmd: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A thread reading its output cannot be started.
    #[error("cannot start a reader thread: {0}")]
    Thread(#[source] std::io::Error),
}
