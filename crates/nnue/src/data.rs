//! The training data: a file of self-play positions (docs/nnue.md, "The data file").
//!
//! A file is a 64-byte [`DataHeader`] (magic `KNKDATA\0`, version, record size, the rule
//! family, the board and the generator's settings) followed by fixed-size [`Record`]s (48
//! bytes up to 11x11, 64 on 13x13), all little-endian. Tablut's 9x9 files are version 2, byte
//! for byte what every earlier build writes and reads; the files of the family's other boards
//! are version 3, whose header names the board ([`BOARD_VERSION`]). The records of one game are written together, each carrying the game's
//! number, its own index within the game and the game's record count, so a reader can tell
//! whole games from the tail of a killed run: [`read`] keeps the whole games and reports the
//! rest, and [`DataWriter::resume`] cuts the tail off before it appends.

use crate::RuleFamily;
use konakis_core::geometry::{SquareSet, Wide};
use konakis_core::rules::{BoardSize, VARIANTS};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The first eight bytes of a data file.
pub const MAGIC: [u8; 8] = *b"KNKDATA\0";
/// The version of the format this crate writes for Tablut's 9x9 board. Version 2 added the
/// classical share (header byte 21, zero in version 1's files, whose games were all
/// self-play).
pub const VERSION: u32 = 2;
/// The version of the format this crate writes for the other boards: version 2 with the
/// board's side in header byte 22 and records sized for the board ([`record_size`]). Readers
/// of versions 1 and 2 refuse it by its version; Tablut's files stay version 2.
pub const BOARD_VERSION: u32 = 3;
/// The oldest version this crate reads.
pub const OLDEST_VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 64;
/// Bytes of a record of Tablut's board (and of every board up to 11x11).
pub const RECORD_SIZE: usize = 48;
/// Bytes of a record of the largest board, 13x13.
pub const MAX_RECORD_SIZE: usize = 64;

/// Bytes of each of a record's two sets of squares on `board`: 16 (a `u128`) up to 11x11, 24
/// on 13x13 (169 squares).
fn set_bytes(board: BoardSize) -> usize {
    if board.side() * board.side() <= 128 {
        16
    } else {
        24
    }
}

/// Bytes of a record of `board`: its two sets of squares and 16 bytes more.
pub fn record_size(board: BoardSize) -> usize {
    2 * set_bytes(board) + 16
}

/// The most attacking and defending soldiers (the king not counted) a game on `board` starts
/// with: Tablut's and every built-in variant's of that board.
fn most_soldiers(board: BoardSize) -> (u32, u32) {
    let count = |placement: &str, piece: char| placement.chars().filter(|&c| c == piece).count();
    let tablut = if board == BoardSize::Nine {
        (16, 8)
    } else {
        (0, 0)
    };
    VARIANTS
        .iter()
        .filter(|v| v.size == board)
        .fold(tablut, |(a, d), v| {
            (
                a.max(count(v.placement, 'b') as u32),
                d.max(count(v.placement, 'w') as u32),
            )
        })
}

/// How a game ended, from the attackers' point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The defenders won.
    DefendersWin = 0,
    /// A draw (repetition, move limit, or the generator's ply cap).
    Draw = 1,
    /// The attackers won.
    AttackersWin = 2,
}

impl GameResult {
    /// The result as the attackers' score: 0, ½ or 1.
    pub fn attackers_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::DefendersWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::AttackersWin),
            _ => None,
        }
    }
}

/// One position of a self-play game, on the board its file's header names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Attacking soldiers, bit `rank * side + file` (as `BitboardOf::bits`, widened).
    pub attackers: Wide,
    /// Defending soldiers without the king.
    pub defenders: Wide,
    /// The king's square index (0 to the board's squares less one).
    pub king: u8,
    /// Whether the defenders are to move.
    pub defenders_to_move: bool,
    /// The rules the game was played under.
    pub family: RuleFamily,
    /// The game's result.
    pub result: GameResult,
    /// Plies played before this position.
    pub plies: u16,
    /// The search's score, centi-soldiers, from the side to move's point of view.
    pub score: i16,
    /// The game's number in its run (its seed derives from it).
    pub game: u32,
    /// This record's index among the game's records.
    pub index: u16,
    /// How many records the game has.
    pub count: u16,
}

impl Record {
    /// The record's bytes on `board` ([`record_size`]; docs/nnue.md gives the layout).
    pub fn to_bytes(&self, board: BoardSize) -> Vec<u8> {
        let n = set_bytes(board);
        let mut b = vec![0u8; record_size(board)];
        for (at, set) in [(0, self.attackers), (n, self.defenders)] {
            let mut bytes = [0u8; 32];
            bytes[..16].copy_from_slice(&(set & Wide::below(128)).narrow().to_le_bytes());
            bytes[16..].copy_from_slice(&(set >> 128).narrow().to_le_bytes());
            b[at..at + n].copy_from_slice(&bytes[..n]);
        }
        let t = &mut b[2 * n..];
        t[0] = self.king;
        t[1] = self.defenders_to_move as u8;
        t[2] = self.family.code();
        t[3] = self.result as u8;
        t[4..6].copy_from_slice(&self.plies.to_le_bytes());
        t[6..8].copy_from_slice(&self.score.to_le_bytes());
        t[8..12].copy_from_slice(&self.game.to_le_bytes());
        t[12..14].copy_from_slice(&self.index.to_le_bytes());
        t[14..16].copy_from_slice(&self.count.to_le_bytes());
        b
    }

    /// The record of `board` in `b` ([`record_size`] bytes), or why it is not one.
    pub fn from_bytes(b: &[u8], board: BoardSize) -> Result<Record, RecordError> {
        let n = set_bytes(board);
        let set_at = |i: usize| {
            let mut bytes = [0u8; 32];
            bytes[..n].copy_from_slice(&b[i..i + n]);
            let lo = u128::from_le_bytes(bytes[..16].try_into().unwrap());
            let hi = u128::from_le_bytes(bytes[16..].try_into().unwrap());
            Wide::from_u128(lo) | Wide::from_u128(hi) << 128
        };
        let attackers = set_at(0);
        let defenders = set_at(n);
        let t = &b[2 * n..];
        let u16_at = |i: usize| u16::from_le_bytes([t[i], t[i + 1]]);
        let king = t[0];
        let squares = board.side() * board.side();
        let off_board = !Wide::below(squares);
        if !(attackers & off_board).is_zero() || !(defenders & off_board).is_zero() {
            return Err(RecordError::OffBoard);
        }
        if !(attackers & defenders).is_zero()
            || usize::from(king) >= squares
            || (attackers | defenders).has(usize::from(king))
        {
            return Err(RecordError::Overlap);
        }
        let (most_attackers, most_defenders) = most_soldiers(board);
        if attackers.count_ones() > most_attackers || defenders.count_ones() > most_defenders {
            return Err(RecordError::TooManyPieces);
        }
        let defenders_to_move = match t[1] {
            0 => false,
            1 => true,
            _ => return Err(RecordError::Side(t[1])),
        };
        let family = RuleFamily::from_code(t[2]).ok_or(RecordError::Family(t[2]))?;
        let result = GameResult::from_code(t[3]).ok_or(RecordError::Result(t[3]))?;
        let (index, count) = (u16_at(12), u16_at(14));
        if index >= count {
            return Err(RecordError::Index { index, count });
        }
        Ok(Record {
            attackers,
            defenders,
            king,
            defenders_to_move,
            family,
            result,
            plies: u16_at(4),
            score: i16::from_le_bytes([t[6], t[7]]),
            game: u32::from_le_bytes(t[8..12].try_into().unwrap()),
            index,
            count,
        })
    }

    /// The game's result from the side to move's point of view: 0, ½ or 1.
    pub fn mover_result(&self) -> f32 {
        let r = self.result.attackers_score();
        if self.defenders_to_move { 1.0 - r } else { r }
    }
}

/// Why a record's bytes are not a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// A bit beyond the board's last square is set.
    #[error("a piece stands off the board")]
    OffBoard,
    /// Two pieces share a square, or the king is missing.
    #[error("two pieces on one square, or no king")]
    Overlap,
    /// More soldiers of a side than any game on the board starts with (16 attackers and 8
    /// defenders on Tablut's).
    #[error("more pieces than the game has")]
    TooManyPieces,
    /// The side-to-move byte is neither 0 nor 1.
    #[error("side to move {0} is neither 0 nor 1")]
    Side(u8),
    /// An unknown rule family code.
    #[error("unknown rule family {0}")]
    Family(u8),
    /// An unknown result code.
    #[error("unknown result {0}")]
    Result(u8),
    /// The index within the game is not below the game's record count.
    #[error("record {index} of a game of {count}")]
    Index {
        /// The index.
        index: u16,
        /// The count.
        count: u16,
    },
}

/// The header of a data file: the format and the settings of the run that wrote it, so that a
/// resumed run can check it continues the same one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// The rules of every game in the file.
    pub family: RuleFamily,
    /// The board of every game in the file: Tablut's 9x9 in files of versions 1 and 2, the
    /// one header byte 22 names in version 3.
    pub board: BoardSize,
    /// CRC-32 of the rules' text (`Rules`' Display), telling apart rule sets of one family
    /// (`Other`).
    pub rules_crc: u32,
    /// The run's seed.
    pub seed: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies before the balance test.
    pub random_plies: u32,
    /// The balance filter's margin, centi-soldiers.
    pub margin: u32,
    /// Which shard of the run (from 0).
    pub shard_index: u32,
    /// How many shards the run has.
    pub shard_count: u32,
    /// The evaluation the games were played with: the checksum stored in the network file
    /// whose network evaluated (its last four bytes), or 0 for the classical evaluation.
    pub evaluator: u32,
    /// Percentage of the games (0 to 100) in which one side played with the classical
    /// evaluation instead of `evaluator`; only the other side's positions of such a game are
    /// recorded. 0 in files of version 1.
    pub classical_share: u8,
}

impl DataHeader {
    /// The 64 bytes of the header.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[0..8].copy_from_slice(&MAGIC);
        let version = if self.board == BoardSize::Nine {
            VERSION
        } else {
            // Byte 22, zero in Tablut's files, names the board.
            b[22] = self.board.side() as u8;
            BOARD_VERSION
        };
        b[8..12].copy_from_slice(&version.to_le_bytes());
        b[12..16].copy_from_slice(&(record_size(self.board) as u32).to_le_bytes());
        b[16..20].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        b[20] = self.family.code();
        b[21] = self.classical_share;
        b[24..28].copy_from_slice(&self.rules_crc.to_le_bytes());
        b[28..32].copy_from_slice(&self.random_plies.to_le_bytes());
        b[32..40].copy_from_slice(&self.seed.to_le_bytes());
        b[40..48].copy_from_slice(&self.nodes.to_le_bytes());
        b[48..52].copy_from_slice(&self.margin.to_le_bytes());
        b[52..56].copy_from_slice(&self.shard_index.to_le_bytes());
        b[56..60].copy_from_slice(&self.shard_count.to_le_bytes());
        b[60..64].copy_from_slice(&self.evaluator.to_le_bytes());
        b
    }

    /// The header in `b`, or why it is not one.
    pub fn from_bytes(b: &[u8; HEADER_SIZE]) -> Result<DataHeader, DataError> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        if b[0..8] != MAGIC {
            return Err(DataError::Magic);
        }
        let version = u32_at(8);
        if !(OLDEST_VERSION..=BOARD_VERSION).contains(&version) {
            return Err(DataError::Version(version));
        }
        let board = if version < BOARD_VERSION {
            BoardSize::Nine
        } else {
            BoardSize::ALL
                .into_iter()
                .find(|size| size.side() == usize::from(b[22]))
                .ok_or(DataError::HeaderBoard(b[22]))?
        };
        if u32_at(12) as usize != record_size(board) || u32_at(16) as usize != HEADER_SIZE {
            return Err(DataError::Layout {
                record: u32_at(12),
                header: u32_at(16),
                board,
            });
        }
        let family = RuleFamily::from_code(b[20]).ok_or(DataError::HeaderFamily(b[20]))?;
        if b[21] > 100 {
            return Err(DataError::HeaderShare(b[21]));
        }
        Ok(DataHeader {
            family,
            board,
            rules_crc: u32_at(24),
            random_plies: u32_at(28),
            seed: u64_at(32),
            nodes: u64_at(40),
            margin: u32_at(48),
            shard_index: u32_at(52),
            shard_count: u32_at(56),
            evaluator: u32_at(60),
            classical_share: b[21],
        })
    }
}

/// The CRC-32 of `rules`' text (its Display), as [`DataHeader::rules_crc`] holds it.
pub fn rules_checksum(rules: &konakis_core::rules::Rules) -> u32 {
    crc32fast::hash(rules.to_string().as_bytes())
}

/// The CRC-32 of a game of the tafl family, as [`DataHeader::rules_crc`] holds it for a run of
/// a variant: of every setting of `rules` (their `Debug` text, since the rule options, and so
/// the Display, do not name the family's settings) and of the start position `start`.
pub fn game_checksum(rules: &konakis_core::rules::Rules, start: &str) -> u32 {
    crc32fast::hash(format!("{rules:?} {start}").as_bytes())
}

/// Why a data file cannot be read or continued. Display names the problem.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file cannot be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// Shorter than a header.
    #[error("too short for a data file header ({HEADER_SIZE} bytes)")]
    Short,
    /// The first bytes are not [`MAGIC`].
    #[error("not a Konakis data file (no KNKDATA magic)")]
    Magic,
    /// Another version of the format.
    #[error(
        "data format version {0}, this build reads versions {OLDEST_VERSION} to {BOARD_VERSION}"
    )]
    Version(u32),
    /// The header's sizes are not those of the version and the board.
    #[error(
        "record size {record} / header size {header}, expected {} / {HEADER_SIZE} on {board}",
        record_size(*board)
    )]
    Layout {
        /// The record size in the file.
        record: u32,
        /// The header size in the file.
        header: u32,
        /// The board the header names.
        board: BoardSize,
    },
    /// The header of a version 3 file names no board Konakis plays.
    #[error("board side {0} in the header (7, 9, 11 or 13)")]
    HeaderBoard(u8),
    /// The file holds positions of another board than Tablut's, which no network or model of
    /// win chances knows yet.
    #[error(
        "the positions are of a {0} board: networks and win chances are trained on Tablut's 9x9 \
         board only (the other boards have none yet)"
    )]
    NotTablut(BoardSize),
    /// The header's rule family is unknown.
    #[error("unknown rule family {0} in the header")]
    HeaderFamily(u8),
    /// The header's classical share is above 100 %.
    #[error("classical share {0} % in the header (at most 100)")]
    HeaderShare(u8),
    /// A record is malformed.
    #[error("record {number}: {why}")]
    Record {
        /// Its number in the file, from 0.
        number: u64,
        /// What is wrong.
        why: RecordError,
    },
    /// A record's game does not fit the records around it (records of one game are written
    /// together, in order).
    #[error("record {number}: out of order in game {game}")]
    Order {
        /// Its number in the file, from 0.
        number: u64,
        /// The game it claims.
        game: u32,
    },
    /// A record's rule family is not the header's.
    #[error("record {number}: rule family {found}, the file's is {expected}")]
    MixedFamily {
        /// Its number in the file.
        number: u64,
        /// The header's family.
        expected: RuleFamily,
        /// The record's.
        found: RuleFamily,
    },
    /// A run asked to continue a file written with other settings.
    #[error(
        "the file was written with other settings ({what}); use another --out or the same settings"
    )]
    Settings {
        /// The setting that differs.
        what: &'static str,
    },
}

/// What [`read`] found in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct DataFile {
    /// The header.
    pub header: DataHeader,
    /// The records of the whole games, in the file's order.
    pub records: Vec<Record>,
    /// The games whose records are all there.
    pub games: BTreeSet<u32>,
    /// Bytes after the last whole game (the tail of a killed run), left out.
    pub torn_bytes: u64,
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a data file: its header and the records of its whole games. Bytes after the last
/// whole game (a torn record, or a game cut short by a kill) are counted in
/// [`DataFile::torn_bytes`], not refused; anything else malformed is an error.
pub fn read(path: &Path) -> Result<DataFile, DataError> {
    let file = File::open(path).map_err(io_error(path))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut head = [0u8; HEADER_SIZE];
    read_exact_or_short(&mut reader, &mut head, path)?;
    let header = DataHeader::from_bytes(&head)?;
    let size = record_size(header.board);
    let mut records = Vec::new();
    let mut games = BTreeSet::new();
    // The records of the game being read; moved to `records` once it is whole.
    let mut open: Vec<Record> = Vec::new();
    let mut number = 0u64;
    let mut torn = 0u64;
    loop {
        let mut buffer = [0u8; MAX_RECORD_SIZE];
        let b = &mut buffer[..size];
        let got = fill(&mut reader, b).map_err(io_error(path))?;
        if got < size {
            torn += got as u64;
            break;
        }
        let r =
            Record::from_bytes(b, header.board).map_err(|why| DataError::Record { number, why })?;
        if r.family != header.family {
            return Err(DataError::MixedFamily {
                number,
                expected: header.family,
                found: r.family,
            });
        }
        let follows = match open.last() {
            None => r.index == 0,
            Some(p) => p.game == r.game && p.count == r.count && p.index + 1 == r.index,
        };
        if !follows {
            // A game cut short is only acceptable at the very end; here another begins.
            return Err(DataError::Order {
                number,
                game: r.game,
            });
        }
        open.push(r);
        if r.index + 1 == r.count {
            games.insert(r.game);
            records.append(&mut open);
        }
        number += 1;
    }
    torn += (open.len() * size) as u64;
    Ok(DataFile {
        header,
        records,
        games,
        torn_bytes: torn,
    })
}

/// Reads a data file as [`read`] does, for what learns from Tablut's positions (`konakis
/// train`, `konakis wdl-fit`): a file of another board is [`DataError::NotTablut`].
pub fn read_tablut(path: &Path) -> Result<DataFile, DataError> {
    let file = read(path)?;
    if file.header.board != BoardSize::Nine {
        return Err(DataError::NotTablut(file.header.board));
    }
    Ok(file)
}

fn read_exact_or_short(r: &mut impl Read, buf: &mut [u8], path: &Path) -> Result<(), DataError> {
    let got = fill(r, buf).map_err(io_error(path))?;
    if got < buf.len() {
        return Err(DataError::Short);
    }
    Ok(())
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Appends whole games to a data file.
///
/// Each game goes out in one write followed by a flush to the operating system, so a killed
/// run leaves whole games and at most one torn game at the end, which [`read`] leaves out and
/// [`DataWriter::resume`] cuts off.
#[derive(Debug)]
pub struct DataWriter {
    file: File,
    path: PathBuf,
    header: DataHeader,
    games: BTreeSet<u32>,
    records: u64,
}

impl DataWriter {
    /// Opens `path` for a run with `header`: creates it if it does not exist; otherwise checks
    /// that it was written by the same run (the same header), cuts off a torn tail, and
    /// continues it. [`DataWriter::games`] lists the games already there, for the run to skip.
    pub fn resume(path: &Path, header: DataHeader) -> Result<DataWriter, DataError> {
        let exists = path.exists();
        let (games, records, keep) = if exists {
            let found = read(path)?;
            check_same_run(&found.header, &header)?;
            let keep = (HEADER_SIZE + found.records.len() * record_size(header.board)) as u64;
            (found.games, found.records.len() as u64, Some(keep))
        } else {
            (BTreeSet::new(), 0, None)
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error(path))?;
        match keep {
            Some(len) => {
                file.set_len(len).map_err(io_error(path))?;
                file.seek(SeekFrom::End(0)).map_err(io_error(path))?;
            }
            None => {
                file.write_all(&header.to_bytes()).map_err(io_error(path))?;
                file.flush().map_err(io_error(path))?;
            }
        }
        Ok(DataWriter {
            file,
            path: path.to_path_buf(),
            header,
            games,
            records,
        })
    }

    /// The games the file holds.
    pub fn games(&self) -> &BTreeSet<u32> {
        &self.games
    }

    /// Records in the file.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The header.
    pub fn header(&self) -> &DataHeader {
        &self.header
    }

    /// Appends game `game`'s positions (each as `(record without game/index/count)`; those
    /// three are filled in here). A game with no positions writes nothing.
    pub fn write_game(&mut self, game: u32, positions: &[Record]) -> Result<(), DataError> {
        if positions.is_empty() {
            return Ok(());
        }
        let count = u16::try_from(positions.len()).unwrap_or(u16::MAX);
        let board = self.header.board;
        let mut bytes = Vec::with_capacity(count as usize * record_size(board));
        for (i, p) in positions.iter().take(count as usize).enumerate() {
            let r = Record {
                game,
                index: i as u16,
                count,
                family: self.header.family,
                ..*p
            };
            bytes.extend_from_slice(&r.to_bytes(board));
        }
        self.file.write_all(&bytes).map_err(io_error(&self.path))?;
        self.file.flush().map_err(io_error(&self.path))?;
        self.games.insert(game);
        self.records += count as u64;
        Ok(())
    }
}

fn check_same_run(found: &DataHeader, wanted: &DataHeader) -> Result<(), DataError> {
    let what = if found.family != wanted.family
        || found.rules_crc != wanted.rules_crc
        || found.board != wanted.board
    {
        "rules"
    } else if found.seed != wanted.seed {
        "seed"
    } else if found.nodes != wanted.nodes {
        "nodes"
    } else if found.random_plies != wanted.random_plies {
        "random plies"
    } else if found.margin != wanted.margin {
        "margin"
    } else if (found.shard_index, found.shard_count) != (wanted.shard_index, wanted.shard_count) {
        "shard"
    } else if found.evaluator != wanted.evaluator {
        "evaluation"
    } else if found.classical_share != wanted.classical_share {
        "classical share"
    } else {
        return Ok(());
    };
    Err(DataError::Settings { what })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NINE: BoardSize = BoardSize::Nine;

    fn header() -> DataHeader {
        DataHeader {
            family: RuleFamily::Ashton,
            board: BoardSize::Nine,
            rules_crc: 7,
            seed: 11,
            nodes: 5000,
            random_plies: 8,
            margin: 150,
            shard_index: 1,
            shard_count: 3,
            evaluator: 0x1234_5678,
            classical_share: 40,
        }
    }

    fn record(score: i16) -> Record {
        Record {
            attackers: Wide::from_u128(0b1011 << 30),
            defenders: Wide::from_u128(1 << 80),
            king: 40,
            defenders_to_move: true,
            family: RuleFamily::Ashton,
            result: GameResult::AttackersWin,
            plies: 17,
            score,
            game: 0,
            index: 0,
            count: 1,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("konakis-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = std::fs::remove_file(&p);
        p
    }

    #[test]
    fn records_and_headers_round_trip_through_bytes() {
        let r = Record {
            game: 123_456,
            index: 2,
            count: 5,
            ..record(-321)
        };
        assert_eq!(Record::from_bytes(&r.to_bytes(NINE), NINE), Ok(r));
        assert_eq!(
            DataHeader::from_bytes(&header().to_bytes()).unwrap(),
            header()
        );
        assert_eq!(r.mover_result(), 0.0);
    }

    #[test]
    fn a_version_1_header_reads_as_self_play() {
        let mut b = header().to_bytes();
        b[8] = 1;
        b[21] = 0;
        let found = DataHeader::from_bytes(&b).unwrap();
        assert_eq!(found.classical_share, 0);
        assert_eq!(found.evaluator, header().evaluator);
    }

    #[test]
    fn malformed_records_are_refused_by_name() {
        let mut b = record(0).to_bytes(NINE);
        b[33] = 2;
        assert_eq!(Record::from_bytes(&b, NINE), Err(RecordError::Side(2)));
        let mut b = record(0).to_bytes(NINE);
        b[32] = 30; // the king on an attacker
        assert_eq!(Record::from_bytes(&b, NINE), Err(RecordError::Overlap));
        let mut b = record(0).to_bytes(NINE);
        b[15] = 0x80;
        assert_eq!(Record::from_bytes(&b, NINE), Err(RecordError::OffBoard));
        let mut b = header().to_bytes();
        b[8] = 9;
        let e = DataHeader::from_bytes(&b).unwrap_err();
        assert_eq!(
            e.to_string(),
            "data format version 9, this build reads versions 1 to 3"
        );
        let mut b = header().to_bytes();
        b[21] = 101;
        let e = DataHeader::from_bytes(&b).unwrap_err();
        assert_eq!(
            e.to_string(),
            "classical share 101 % in the header (at most 100)"
        );
        let mut b = header().to_bytes();
        b[0] = b'X';
        assert!(
            DataHeader::from_bytes(&b)
                .unwrap_err()
                .to_string()
                .contains("not a Konakis data file")
        );
    }

    #[test]
    fn a_torn_tail_is_left_out_and_cut_off_on_resume() {
        let path = temp("torn.bin");
        let mut w = DataWriter::resume(&path, header()).unwrap();
        w.write_game(4, &[record(1), record(2), record(3)]).unwrap();
        w.write_game(1, &[record(4)]).unwrap();
        w.write_game(7, &[record(5), record(6)]).unwrap();
        drop(w);
        // A kill in the middle of game 7's write: its second record is half there.
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - RECORD_SIZE as u64 / 2).unwrap();
        drop(f);
        let found = read(&path).unwrap();
        assert_eq!(found.records.len(), 4);
        assert_eq!(found.games, BTreeSet::from([1, 4]));
        assert_eq!(found.torn_bytes, (RECORD_SIZE + RECORD_SIZE / 2) as u64);
        assert_eq!(found.records[3].score, 4);
        // Resuming keeps games 4 and 1 and writes game 7 again after them.
        let mut w = DataWriter::resume(&path, header()).unwrap();
        assert_eq!(w.games(), &BTreeSet::from([1, 4]));
        w.write_game(7, &[record(5), record(6)]).unwrap();
        drop(w);
        let found = read(&path).unwrap();
        assert_eq!(found.torn_bytes, 0);
        assert_eq!(found.games, BTreeSet::from([1, 4, 7]));
        assert_eq!(
            found.records.iter().map(|r| r.score).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6]
        );
        // Another run's settings are refused, and the file stays as it was.
        let other = DataHeader {
            seed: 12,
            ..header()
        };
        let e = DataWriter::resume(&path, other).unwrap_err();
        assert!(e.to_string().contains("other settings (seed)"), "{e}");
        // Games played with another evaluation are another run too.
        let classical = DataHeader {
            evaluator: 0,
            ..header()
        };
        let e = DataWriter::resume(&path, classical).unwrap_err();
        assert!(e.to_string().contains("other settings (evaluation)"), "{e}");
        let unmixed = DataHeader {
            classical_share: 0,
            ..header()
        };
        let e = DataWriter::resume(&path, unmixed).unwrap_err();
        assert!(
            e.to_string().contains("other settings (classical share)"),
            "{e}"
        );
        assert_eq!(read(&path).unwrap().records.len(), 6);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_game_interrupted_by_another_is_an_error() {
        let path = temp("order.bin");
        let mut bytes = header().to_bytes().to_vec();
        let first = Record {
            count: 2,
            ..record(0)
        };
        let intruder = Record {
            game: 9,
            ..record(0)
        };
        bytes.extend_from_slice(&first.to_bytes(NINE));
        bytes.extend_from_slice(&intruder.to_bytes(NINE));
        std::fs::write(&path, bytes).unwrap();
        let e = read(&path).unwrap_err();
        assert_eq!(e.to_string(), "record 1: out of order in game 9");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_tablut_file_is_version_2_byte_for_byte_and_another_board_says_its_own() {
        // Tablut's header is what builds before the other boards wrote: version 2, byte 22
        // zero, 48-byte records laid out as before.
        let b = header().to_bytes();
        assert_eq!(u32::from_le_bytes(b[8..12].try_into().unwrap()), 2);
        assert_eq!((b[22], b[12]), (0, 48));
        let r = record(-5).to_bytes(NINE);
        assert_eq!(r.len(), RECORD_SIZE);
        assert_eq!(&r[0..16], &(0b1011u128 << 30).to_le_bytes());
        assert_eq!(&r[16..32], &(1u128 << 80).to_le_bytes());
        assert_eq!((r[32], r[33], r[34], r[35]), (40, 1, 2, 2));
        // 13x13: version 3, the side in byte 22, 64-byte records whose sets hold 169 squares.
        let thirteen = DataHeader {
            board: BoardSize::Thirteen,
            family: RuleFamily::Other,
            ..header()
        };
        let b = thirteen.to_bytes();
        assert_eq!(u32::from_le_bytes(b[8..12].try_into().unwrap()), 3);
        assert_eq!((b[22], b[12]), (13, 64));
        assert_eq!(DataHeader::from_bytes(&b).unwrap(), thirteen);
        let far = Record {
            attackers: Wide::bit(168) | Wide::bit(3),
            defenders: Wide::bit(130),
            king: 84,
            family: RuleFamily::Other,
            ..record(7)
        };
        let bytes = far.to_bytes(BoardSize::Thirteen);
        assert_eq!(bytes.len(), 64);
        assert_eq!(Record::from_bytes(&bytes, BoardSize::Thirteen), Ok(far));
        // A square past 11x11's 121 is off that board.
        let past = Record {
            attackers: Wide::bit(125),
            ..far
        };
        assert_eq!(
            Record::from_bytes(&past.to_bytes(BoardSize::Eleven), BoardSize::Eleven),
            Err(RecordError::OffBoard)
        );
        let mut b = thirteen.to_bytes();
        b[22] = 12;
        assert_eq!(
            DataHeader::from_bytes(&b).unwrap_err().to_string(),
            "board side 12 in the header (7, 9, 11 or 13)"
        );
    }

    #[test]
    fn a_file_of_another_board_is_read_but_refused_for_training() {
        let path = temp("eleven.bin");
        let eleven = DataHeader {
            board: BoardSize::Eleven,
            family: RuleFamily::Other,
            ..header()
        };
        let copenhagen = Record {
            attackers: Wide::bit(120) | Wide::bit(3),
            defenders: Wide::bit(100),
            king: 60,
            family: RuleFamily::Other,
            ..record(9)
        };
        let mut w = DataWriter::resume(&path, eleven).unwrap();
        w.write_game(3, &[copenhagen, copenhagen]).unwrap();
        drop(w);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            (HEADER_SIZE + 2 * RECORD_SIZE) as u64
        );
        let found = read(&path).unwrap();
        assert_eq!(found.header.board, BoardSize::Eleven);
        assert_eq!(found.records[1].attackers, copenhagen.attackers);
        assert_eq!(
            read_tablut(&path).unwrap_err().to_string(),
            "the positions are of a 11x11 board: networks and win chances are trained on \
             Tablut's 9x9 board only (the other boards have none yet)"
        );
        // A run on another board does not continue it.
        let e = DataWriter::resume(&path, header()).unwrap_err();
        assert!(e.to_string().contains("other settings (rules)"), "{e}");
        let _ = std::fs::remove_file(&path);
    }
}
