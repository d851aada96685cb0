//! [`Board`]: the placement of the pieces, the side to move and the ply count, with legal move
//! generation, captures and the game-end checks that depend on the board alone.
//!
//! The board keeps each side's soldiers twice, once by ranks and once transposed (by files), so
//! that both the rank and the file of any square can be read as a 9-bit line with a shift.
//! Moves are played by copy-make: a `Board` is 88 bytes and copying it is cheaper than undoing.
//!
//! Under `Ruleset=Ashton` the same code plays the Tablut Challenge's rules: the camps
//! ([`Rules::camps`]) are walls for every piece not standing in that camp, and capturing
//! partners whatever stands on them, as is the throne.

mod danger;
mod game;
mod legal;
mod lines;
mod mobility;
mod movegen;
mod parse;
mod replies;
mod tables;
mod text;

pub use game::{DrawReason, Game, GameError, Status, WinReason};
pub use legal::{IllegalMove, IllegalReason};
pub use movegen::{MAX_MOVES, MoveList};
pub use parse::MoveError;
pub use text::{PositionError, START_FEN};

use crate::bitboard::Bitboard;
use crate::geometry::{LAST, SIDE, SQUARES};
use crate::rules::{KingCapture, Rules, Ruleset};
use crate::types::{Direction, Move, Piece, Side, Square};
use crate::zobrist;
use tables::TRANSPOSE;

/// The king's square index after he has been captured.
const NO_KING: u8 = SQUARES as u8;

/// The throne's square index (the same in the transposed layout).
const THRONE: usize = Square::THRONE.index();

/// A Tablut position: pieces, side to move, plies played.
///
/// `Board` knows nothing of the game's history; [`Game`] adds the repetition and move-limit
/// rules. Every method that depends on a rule option takes the [`Rules`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Attacking soldiers, by rank (bit `rank * 9 + file`).
    att: u128,
    /// Defending soldiers (not the king), by rank.
    def: u128,
    /// Attacking soldiers, transposed (bit `file * 9 + rank`).
    att_t: u128,
    /// Defending soldiers, transposed.
    def_t: u128,
    /// Zobrist key of placement and side to move.
    hash: u64,
    /// Plies played by both sides together.
    plies: u32,
    /// The king's square, or [`NO_KING`].
    king: u8,
    side: Side,
}

/// Neighbouring square index in each [`Direction`], or 81 off the board.
static NEIGHBOUR: [[u8; 4]; SQUARES] = {
    let mut t = [[NO_KING; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let s = Square::from_index(sq);
        let mut d = 0;
        while d < 4 {
            if let Some(n) = s.step(Direction::ALL[d]) {
                t[sq][d] = n.index() as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// `FLANKS[sq][d]`: the bit of the neighbour of `sq` in [`Direction`] `d` when the square beyond
/// that neighbour, in the same direction, is on the board too; zero otherwise. A piece arriving
/// on `sq` captures an enemy there if the square beyond holds a partner.
static FLANKS: [[u128; 4]; SQUARES] = {
    let mut t = [[0u128; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            let n = NEIGHBOUR[sq][d];
            if n != NO_KING && NEIGHBOUR[n as usize][d] != NO_KING {
                t[sq][d] = 1u128 << n;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The neighbours of `to` with a square of `anvils` beyond them in the same direction: the
/// squares where an enemy is captured by a piece arriving on `to`, with `anvils` its partners.
/// All four directions at once: each neighbour's bit is tested against the anvils shifted one
/// step back towards `to` ([`Direction::ALL`]: north +9, east +1, south -9, west -1); the
/// table leaves out the neighbours whose far square would wrap round an edge.
#[inline]
fn flanked(to: usize, anvils: u128) -> u128 {
    let f = &FLANKS[to];
    (f[0] & anvils >> SIDE) | (f[1] & anvils >> 1) | (f[2] & anvils << SIDE) | (f[3] & anvils << 1)
}

/// `KING_RING[sq]`: the squares attackers must all hold to capture a king on `sq` when
/// surrounding is what captures him: all four neighbours, or the three beside the throne.
/// Empty for edge squares (a king there has escaped).
static KING_RING: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let s = Square::from_index(sq);
        if !s.is_edge() {
            let mut ring = Bitboard::from_square(s).neighbours().0;
            ring &= !Bitboard::THRONE.0;
            t[sq] = ring;
        }
        sq += 1;
    }
    t
};

/// The four squares beside the throne.
const THRONE_RING: u128 = Bitboard::THRONE.neighbours().0;

/// `CAMP_OF[sq]`: the camp (of four squares) that `sq` belongs to, empty for a square outside
/// the camps. Each camp lies along one edge: the camp squares of files a–b, of ranks 1–2, of
/// files h–i and of ranks 8–9.
static CAMP_OF: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        if Bitboard::CAMPS.0 >> sq & 1 != 0 {
            let (f, r) = (sq % SIDE, sq / SIDE);
            let mut other = 0;
            while other < SQUARES {
                let (of, or) = (other % SIDE, other / SIDE);
                let same = (f <= 1 && of <= 1)
                    || (f >= LAST - 1 && of >= LAST - 1)
                    || (r <= 1 && or <= 1)
                    || (r >= LAST - 1 && or >= LAST - 1);
                if same && Bitboard::CAMPS.0 >> other & 1 != 0 {
                    t[sq] |= 1u128 << other;
                }
                other += 1;
            }
        }
        sq += 1;
    }
    t
};

/// [`CAMP_OF`] in the transposed layout: `CAMP_OF_T[sq]` is the camp of `sq` (a square index
/// by rank) as a transposed set.
static CAMP_OF_T: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut other = 0;
        while other < SQUARES {
            if CAMP_OF[sq] >> other & 1 != 0 {
                t[sq] |= 1u128 << TRANSPOSE[other];
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// The squares that capture `victims`' soldiers as the far partner whatever stands on them (or
/// nobody): under Ashton, the throne and the camps against the defenders, and the throne and
/// the camps other than their middle squares against the attackers (the server tests both by
/// square name). Empty under other rulesets, whose throne rules depend on what stands there.
#[inline]
fn fixed_anvils(rules: &Rules, victims: Side) -> u128 {
    match (rules.ruleset, victims) {
        (Ruleset::Linnaeus, _) => 0,
        (Ruleset::Ashton, Side::Defenders) => Bitboard::CAMPS.0 | Bitboard::THRONE.0,
        (Ruleset::Ashton, Side::Attackers) => {
            (Bitboard::CAMPS.0 & !Bitboard::CAMP_MIDDLES.0) | Bitboard::THRONE.0
        }
    }
}

/// The walls Ashton's camps put in the way of a piece standing on `from`, by rank and
/// transposed: every camp square, except the squares of the camp `from` belongs to. (Its
/// occupied squares still block as pieces.) Empty under other rulesets.
#[inline]
fn camp_walls(rules: &Rules, from: usize) -> (u128, u128) {
    match rules.ruleset {
        Ruleset::Linnaeus => (0, 0),
        // The camps are symmetric under transposition, so one mask serves both layouts.
        Ruleset::Ashton => (
            Bitboard::CAMPS.0 & !CAMP_OF[from],
            Bitboard::CAMPS.0 & !CAMP_OF_T[from],
        ),
    }
}

/// The bit of each square index, by rank and transposed, and zero for index 81 (no king): a
/// table look-up costs less than shifting a 128-bit word by a variable amount.
static BITS: [[u128; SQUARES + 1]; 2] = {
    let mut t = [[0u128; SQUARES + 1]; 2];
    let mut sq = 0;
    while sq < SQUARES {
        t[0][sq] = 1u128 << sq;
        t[1][sq] = 1u128 << TRANSPOSE[sq];
        sq += 1;
    }
    t
};

/// Bit of a square index; zero for index 81 (no king).
#[inline]
fn bit(index: u8) -> u128 {
    BITS[0][index as usize]
}

/// For each value of the king's square index (256 entries, so that any `u8` indexes it
/// without a bounds check): is the game won where he stands, on an edge square, or captured
/// (index 81)?
static KING_WINS: [bool; 256] = {
    let mut t = [false; 256];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = (sq % SIDE, sq / SIDE);
        t[sq] = file == 0 || file == LAST || rank == 0 || rank == LAST;
        sq += 1;
    }
    t[NO_KING as usize] = true;
    t
};

/// Bit of a square index in the transposed layout; zero for index 81 (no king).
#[inline]
fn bit_t(index: u8) -> u128 {
    BITS[1][index as usize]
}

impl Board {
    /// An empty board (no king: not a valid position until pieces are added).
    fn empty(side: Side) -> Board {
        Board {
            att: 0,
            def: 0,
            att_t: 0,
            def_t: 0,
            hash: zobrist::side_key(side),
            plies: 0,
            king: NO_KING,
            side,
        }
    }

    /// The start position, with the side to move given by [`Rules::first_move`].
    pub fn start(rules: &Rules) -> Board {
        let mut b = Board::from_fen(START_FEN).expect("the start position string is valid");
        b.set_side_to_move(rules.first_move);
        b
    }

    /// Puts `piece` on the empty square `sq`.
    fn put(&mut self, piece: Piece, sq: Square) {
        let (i, t) = (sq.index(), TRANSPOSE[sq.index()]);
        match piece {
            Piece::Attacker => {
                self.att |= 1 << i;
                self.att_t |= 1 << t;
            }
            Piece::Defender => {
                self.def |= 1 << i;
                self.def_t |= 1 << t;
            }
            Piece::King => self.king = i as u8,
        }
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Makes `side` the side to move, keeping the pieces and the ply count (the key follows).
    ///
    /// ```
    /// use konakis_core::{Board, Rules, Side};
    /// let mut board = Board::start(&Rules::default());
    /// board.set_side_to_move(Side::Defenders);
    /// assert_eq!(board.side_to_move(), Side::Defenders);
    /// assert_eq!(board.plies(), 0);
    /// assert_eq!(board.hash(), board.compute_hash());
    /// ```
    pub fn set_side_to_move(&mut self, side: Side) {
        if self.side != side {
            self.side = side;
            self.hash ^= zobrist::SIDE_KEY;
        }
    }

    /// Plies played by both sides together.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Sets the ply count (the key does not depend on it).
    pub fn set_plies(&mut self, plies: u32) {
        self.plies = plies;
    }

    /// Zobrist key of the placement and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The king's square; `None` once he has been captured.
    #[inline]
    pub fn king(&self) -> Option<Square> {
        Square::new(self.king)
    }

    /// Attacking soldiers.
    #[inline]
    pub fn attackers(&self) -> Bitboard {
        Bitboard(self.att)
    }

    /// Defending soldiers (without the king).
    #[inline]
    pub fn defenders(&self) -> Bitboard {
        Bitboard(self.def)
    }

    /// All of a side's pieces, the king included for the defenders.
    #[inline]
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        match side {
            Side::Attackers => Bitboard(self.att),
            Side::Defenders => Bitboard(self.def | bit(self.king)),
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.att | self.def | bit(self.king))
    }

    /// Whether `other` has the same pieces on the same squares and the same side to move
    /// (the ply counts may differ): the position as the repetition rule sees it.
    #[inline]
    pub fn same_position(&self, other: &Board) -> bool {
        self.att == other.att
            && self.def == other.def
            && self.king == other.king
            && self.side == other.side
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = 1u128 << sq.index();
        if self.att & b != 0 {
            Some(Piece::Attacker)
        } else if self.def & b != 0 {
            Some(Piece::Defender)
        } else if self.king as usize == sq.index() {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// The key computed from scratch; equals [`Board::hash`] on every reachable board.
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::side_key(self.side);
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= zobrist::piece_key(p, sq);
            }
        }
        h
    }

    /// Whether the game is already won on this board: the king stands on an edge square, has
    /// been captured, or (under `Encirclement`) the defenders are encircled. A won board has
    /// no legal moves.
    #[inline]
    pub fn is_won(&self, rules: &Rules) -> bool {
        KING_WINS[self.king as usize] || (rules.encirclement && self.is_encircled())
    }

    /// Whether no defender, the king included, is connected to an edge square through
    /// orthogonally adjacent empty squares (a defender on an edge square is connected).
    pub fn is_encircled(&self) -> bool {
        let defenders = self.side_pieces(Side::Defenders);
        if (defenders & Bitboard::EDGE) != Bitboard::EMPTY {
            return false;
        }
        let empty = !self.occupied();
        let mut reach = Bitboard::EDGE & empty;
        loop {
            let next = reach | (reach.neighbours() & empty);
            if next == reach {
                break;
            }
            reach = next;
        }
        (reach.neighbours() & defenders).is_empty()
    }

    /// The number of clear straight lines from the king to the edge: 1 is *raichi*,
    /// 2 or more *tuichu*. 0 when there is no king or he already stands on the edge.
    pub fn king_open_lines(&self) -> u32 {
        let Some(k) = self.king() else { return 0 };
        if k.is_edge() {
            return 0;
        }
        let occ = self.occupied();
        Direction::ALL
            .iter()
            .filter(|&&d| {
                let mut sq = k;
                while let Some(n) = sq.step(d) {
                    if occ.has(n) {
                        return false;
                    }
                    sq = n;
                }
                true
            })
            .count() as u32
    }

    /// Plays `mv` if it is legal and returns the soldiers it captured; an illegal move changes
    /// nothing and the error says why ([`Board::check_move`]). [`Board::play`] is the same
    /// without the check.
    ///
    /// ```
    /// use konakis_core::{Board, IllegalReason, Move, Rules};
    /// let rules = Rules::default();
    /// let mut board = Board::start(&rules);
    /// let captured = board.try_play(&rules, Move::parse("d1d3").unwrap()).unwrap();
    /// assert!(captured.is_empty());
    /// let before = board;
    /// let err = board.try_play(&rules, Move::parse("d3d4").unwrap()).unwrap_err();
    /// assert_eq!(err.reason, IllegalReason::WrongSide(konakis_core::Side::Attackers));
    /// assert_eq!(board, before);
    /// ```
    pub fn try_play(&mut self, rules: &Rules, mv: Move) -> Result<Bitboard, IllegalMove> {
        self.check_move(rules, mv)?;
        Ok(self.play(rules, mv))
    }

    /// Plays `mv`, which must be legal (see [`Board::legal_moves`], [`Board::check_move`] and
    /// [`Board::try_play`]), and returns the soldiers it captured. A captured king shows as
    /// [`Board::king`] becoming `None`. An illegal move leaves the board in a state no game
    /// reaches.
    #[inline]
    pub fn play(&mut self, rules: &Rules, mv: Move) -> Bitboard {
        let (from, to) = (mv.from().index(), mv.to().index());
        let (fb, tb) = (BITS[0][from], BITS[0][to]);
        let (ft, tt) = (BITS[1][from], BITS[1][to]);
        let side = self.side;
        let mut captured = 0u128;
        let mut hash = self.hash ^ zobrist::SIDE_KEY;
        if side == Side::Attackers {
            self.att ^= fb | tb;
            self.att_t ^= ft | tt;
            hash ^= zobrist::piece_key(Piece::Attacker, mv.from())
                ^ zobrist::piece_key(Piece::Attacker, mv.to());
            if Bitboard::around(mv.to()).0 & (self.def | bit(self.king)) != 0 {
                captured = self.attacker_captures(rules, to, &mut hash);
            }
        } else {
            let is_king = from == self.king as usize;
            let piece = if is_king {
                self.king = to as u8;
                Piece::King
            } else {
                self.def ^= fb | tb;
                self.def_t ^= ft | tt;
                Piece::Defender
            };
            hash ^= zobrist::piece_key(piece, mv.from()) ^ zobrist::piece_key(piece, mv.to());
            if (!is_king || rules.king_armed) && Bitboard::around(mv.to()).0 & self.att != 0 {
                captured = self.defender_captures(rules, to, &mut hash);
            }
        }
        self.hash = hash;
        self.side = side.opponent();
        self.plies = self.plies.saturating_add(1);
        Bitboard(captured)
    }

    /// Passes the move to the other side without moving (the search's null move).
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE_KEY;
        self.plies = self.plies.saturating_add(1);
    }

    /// Removes the soldier on `sq` of the given kind, updating the key.
    #[inline]
    fn remove(&mut self, piece: Piece, sq: usize, hash: &mut u64) {
        let (b, t) = (BITS[0][sq], BITS[1][sq]);
        if piece == Piece::Attacker {
            self.att ^= b;
            self.att_t ^= t;
        } else {
            self.def ^= b;
            self.def_t ^= t;
        }
        *hash ^= zobrist::piece_key(piece, Square::from_index(sq));
    }

    /// Removes the soldiers `victims` of the given kind, updating the key; returns them.
    #[inline]
    fn remove_all(&mut self, piece: Piece, victims: u128, hash: &mut u64) -> u128 {
        for sq in Bitboard(victims) {
            self.remove(piece, sq.index(), hash);
        }
        victims
    }

    /// Captures made by an attacker that has just arrived on `to` (docs/rules.md, "Captures"
    /// and "Capturing the king").
    fn attacker_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> u128 {
        let mut captured = 0u128;
        let king = self.king;
        if Bitboard::around(Square::from_index(to)).0 & bit(king) != 0 {
            for d in 0..4 {
                if NEIGHBOUR[to][d] == king {
                    if self.king_is_taken(rules, d) {
                        *hash ^= zobrist::piece_key(Piece::King, Square::from_index(king as usize));
                        self.king = NO_KING;
                    }
                    break;
                }
            }
        }
        let throne_anvil = if king as usize == Square::THRONE.index() {
            // Rule 10: the besieged king is the anvil against his last guard, the defender
            // between `to` and the throne (the throne is beyond no other neighbour of `to`).
            let guard = bit(((to + Square::THRONE.index()) / 2) as u8);
            let others = THRONE_RING & !guard;
            rules.throne_guard_capture && self.att & others == others
        } else {
            rules.throne_hostile
        };
        let anvils = self.att
            | fixed_anvils(rules, Side::Defenders)
            | if throne_anvil { Bitboard::THRONE.0 } else { 0 };
        let victims = flanked(to, anvils) & self.def;
        if victims != 0 {
            captured = self.remove_all(Piece::Defender, victims, hash);
        }
        captured
    }

    /// Whether the king, next to an attacker that has just arrived from direction `d`'s
    /// opposite (the king is one step in direction `d` from the mover), is now captured.
    ///
    /// Under Ashton a camp square beyond the king, empty or not, serves as the second attacker
    /// (the server tests it by square name); the throne never does, since only its four
    /// neighbours touch it and they take the three-sided rule.
    #[inline]
    fn king_is_taken(&self, rules: &Rules, d: usize) -> bool {
        let k = self.king as usize;
        let ring = KING_RING[k];
        let surrounded = ring != 0 && self.att & ring == ring;
        if k == Square::THRONE.index()
            || THRONE_RING >> k & 1 != 0
            || rules.king_capture == KingCapture::English
        {
            return surrounded;
        }
        let far = NEIGHBOUR[k][d];
        far != NO_KING && (self.att | rules.camps().0) >> far & 1 != 0
    }

    /// Captures made by a defender (soldier, or armed king) that has just arrived on `to`
    /// (docs/rules.md, "Captures").
    fn defender_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> u128 {
        let throne_anvil = rules.throne_hostile && self.king as usize != Square::THRONE.index();
        let partners = self.def
            | if rules.king_armed { bit(self.king) } else { 0 }
            | fixed_anvils(rules, Side::Attackers)
            | if throne_anvil { Bitboard::THRONE.0 } else { 0 };
        let victims = flanked(to, partners) & self.att;
        if victims == 0 {
            return 0;
        }
        self.remove_all(Piece::Attacker, victims, hash)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PRESETS;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `Board::play` with the captures found one direction at a time, as the rules state them:
    /// the simple code that the captures of all four directions at once replaced, kept as the
    /// reference they are checked against.
    fn play_one_direction_at_a_time(board: &mut Board, rules: &Rules, mv: Move) -> u128 {
        let (from, to) = (mv.from().index(), mv.to().index());
        let (fb, tb) = (BITS[0][from], BITS[0][to]);
        let (ft, tt) = (BITS[1][from], BITS[1][to]);
        let mut hash = board.hash ^ zobrist::SIDE_KEY;
        let mut captured = 0u128;
        if board.side == Side::Attackers {
            board.att ^= fb | tb;
            board.att_t ^= ft | tt;
            hash ^= zobrist::piece_key(Piece::Attacker, mv.from())
                ^ zobrist::piece_key(Piece::Attacker, mv.to());
            let anvils = board.att | fixed_anvils(rules, Side::Defenders);
            for d in 0..4 {
                let n = NEIGHBOUR[to][d];
                if n == NO_KING {
                    continue;
                }
                if n == board.king {
                    if board.king_is_taken(rules, d) {
                        hash ^= zobrist::piece_key(Piece::King, Square::from_index(n as usize));
                        board.king = NO_KING;
                    }
                    continue;
                }
                if board.def >> n & 1 == 0 {
                    continue;
                }
                let far = NEIGHBOUR[n as usize][d];
                if far == NO_KING {
                    continue;
                }
                let anvil = anvils >> far & 1 != 0
                    || (far as usize == Square::THRONE.index()
                        && if board.king as usize == Square::THRONE.index() {
                            let others = THRONE_RING & !(1u128 << n);
                            rules.throne_guard_capture && board.att & others == others
                        } else {
                            rules.throne_hostile
                        });
                if anvil {
                    board.remove(Piece::Defender, n as usize, &mut hash);
                    captured |= 1u128 << n;
                }
            }
        } else {
            let is_king = from == board.king as usize;
            let piece = if is_king {
                board.king = to as u8;
                Piece::King
            } else {
                board.def ^= fb | tb;
                board.def_t ^= ft | tt;
                Piece::Defender
            };
            hash ^= zobrist::piece_key(piece, mv.from()) ^ zobrist::piece_key(piece, mv.to());
            if !is_king || rules.king_armed {
                let partners = board.def
                    | if rules.king_armed { bit(board.king) } else { 0 }
                    | fixed_anvils(rules, Side::Attackers);
                let throne_anvil =
                    rules.throne_hostile && board.king as usize != Square::THRONE.index();
                for d in 0..4 {
                    let n = NEIGHBOUR[to][d];
                    if n == NO_KING || board.att >> n & 1 == 0 {
                        continue;
                    }
                    let far = NEIGHBOUR[n as usize][d];
                    if far == NO_KING {
                        continue;
                    }
                    if partners >> far & 1 != 0
                        || (throne_anvil && far as usize == Square::THRONE.index())
                    {
                        board.remove(Piece::Attacker, n as usize, &mut hash);
                        captured |= 1u128 << n;
                    }
                }
            }
        }
        board.hash = hash;
        board.side = board.side.opponent();
        board.plies = board.plies.saturating_add(1);
        captured
    }

    /// Every move of random games, steered towards captures, leaves the same board (key
    /// included) and returns the same captures as the reference, under every preset and with
    /// each preset's armed king, hostile throne and rule 10 switched.
    #[test]
    fn captures_of_all_directions_at_once_are_those_one_direction_at_a_time() {
        let mut rng = StdRng::seed_from_u64(21);
        let (mut moves_played, mut soldiers_taken, mut kings_taken) = (0, 0, 0);
        // Rule 10's captures: a guard beside the king on his throne.
        let mut guards_taken = 0;
        for preset in PRESETS {
            for variant in 0..4 {
                let mut rules = preset.rules();
                match variant {
                    1 => rules.king_armed = !rules.king_armed,
                    2 => rules.throne_hostile = !rules.throne_hostile,
                    3 => rules.throne_guard_capture = !rules.throne_guard_capture,
                    _ => {}
                }
                for _ in 0..20 {
                    let mut board = Board::start(&rules);
                    for _ in 0..200 {
                        let moves = board.legal_moves(&rules);
                        if moves.is_empty() {
                            break;
                        }
                        let mut chosen = None;
                        for &m in &moves {
                            let (mut fast, mut slow) = (board, board);
                            let taken = fast.play(&rules, m);
                            let expected = play_one_direction_at_a_time(&mut slow, &rules, m);
                            assert_eq!(taken.0, expected, "{} {m}", board.to_fen());
                            assert_eq!(fast, slow, "{} {m}", board.to_fen());
                            assert_eq!(fast.hash(), fast.compute_hash());
                            moves_played += 1;
                            soldiers_taken += expected.count_ones();
                            if board.king == Square::THRONE.index() as u8 {
                                guards_taken += (expected & THRONE_RING).count_ones();
                            }
                            kings_taken +=
                                usize::from(board.king().is_some() && fast.king().is_none());
                            if expected != 0 && rng.random_bool(0.5) {
                                chosen = Some(m);
                            }
                        }
                        let m = chosen.unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                        board.play(&rules, m);
                    }
                }
            }
        }
        assert!(
            moves_played > 1_000_000
                && soldiers_taken > 5_000
                && kings_taken > 500
                && guards_taken > 100,
            "{moves_played} {soldiers_taken} {kings_taken} {guards_taken}"
        );
    }

    /// The table `is_won` reads says what the edge says: won with the king on an edge square
    /// or captured, not elsewhere.
    #[test]
    fn the_king_wins_on_the_edge_squares_and_when_captured() {
        for sq in 0..SQUARES as u8 {
            assert_eq!(
                KING_WINS[sq as usize],
                Bitboard::EDGE.has(Square::from_index(sq as usize)),
                "square {sq}"
            );
        }
        assert!(KING_WINS[NO_KING as usize]);
        let rules = Rules::default();
        let on_edge = Board::from_fen("4K4/9/9/9/9/9/9/9/b8 b").unwrap();
        let inside = Board::from_fen("9/4K4/9/9/9/9/9/9/b8 b").unwrap();
        assert!(on_edge.is_won(&rules));
        assert!(!inside.is_won(&rules));
    }
}
