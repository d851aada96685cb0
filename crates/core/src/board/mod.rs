//! [`BoardOf`]: the placement of the pieces, the side to move and the ply count, with legal
//! move generation, captures and the game-end checks that depend on the board alone, on a
//! board of any size ([`Geometry`]); [`Board`] is Tablut's 9×9.
//!
//! The board keeps each side's soldiers twice, once by ranks and once transposed (by files), so
//! that both the rank and the file of any square can be read as a line of `side` bits with a
//! shift. Moves are played by copy-make: a `Board` is 88 bytes and copying it is cheaper than
//! undoing.
//!
//! Under `Ruleset=Ashton` the same code plays the Tablut Challenge's rules: the camps
//! ([`Rules::camps`]) are walls for every piece not standing in that camp, and capturing
//! partners whatever stands on them, as is the throne.

mod danger;
mod escape;
mod family;
#[cfg(test)]
mod family_tests;
mod game;
mod legal;
mod lines;
mod mobility;
mod movegen;
mod parse;
mod replies;
#[cfg(test)]
mod sizes;
mod tables;
mod text;

pub use escape::NoEscape;
pub use game::{DrawReason, Game, GameError, GameErrorOf, GameOf, Status, WinReason};
pub use legal::{IllegalMove, IllegalMoveOf, IllegalReason};
pub use movegen::{MAX_MOVES, MoveList, MoveListOf};
pub use parse::{MoveError, MoveErrorOf};
pub use text::{BRANDUBH_FEN, COPENHAGEN_FEN, PositionError, PositionErrorOf, START_FEN};

use crate::bitboard::BitboardOf;
use crate::geometry::SquareSet;
use crate::geometry::{Geometry, Nine};
use crate::rules::{KingCapture, Rules, Ruleset};
use crate::types::{Direction, MoveOf, Piece, Side, SquareOf};
use crate::zobrist;
use std::marker::PhantomData;

/// A position on a board of size `G`: pieces, side to move, plies played.
///
/// `BoardOf` knows nothing of the game's history; [`Game`] adds the repetition and move-limit
/// rules. Every method that depends on a rule option takes the [`Rules`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardOf<G: Geometry> {
    /// Attacking soldiers, by rank (bit `rank * side + file`).
    att: G::Set,
    /// Defending soldiers (not the king), by rank.
    def: G::Set,
    /// Attacking soldiers, transposed (bit `file * side + rank`).
    att_t: G::Set,
    /// Defending soldiers, transposed.
    def_t: G::Set,
    /// Zobrist key of placement and side to move.
    hash: u64,
    /// Plies played by both sides together.
    plies: u32,
    /// The king's square, or [`Geometry::NO_KING`].
    king: u8,
    side: Side,
    /// The squares of the pieces that have moved since the board was set up, kept by the
    /// family's code path under OpenTafl's flanking shieldwall alone (empty under every other
    /// rule; [`Geometry::Moved`]: nothing at all on Tablut's 9×9).
    moved: G::Moved,
    size: PhantomData<G>,
}

/// A Tablut position: the 9×9 board.
pub type Board = BoardOf<Nine>;

/// The neighbours of `to` with a square of `anvils` beyond them in the same direction: the
/// squares where an enemy is captured by a piece arriving on `to`, with `anvils` its partners.
/// All four directions at once: each neighbour's bit is tested against the anvils shifted one
/// step back towards `to` ([`Direction::ALL`]: north +side, east +1, south −side, west −1);
/// the table leaves out the neighbours whose far square would wrap round an edge.
#[inline]
fn flanked<G: Geometry>(to: usize, anvils: G::Set) -> G::Set {
    let f = G::flanks(to);
    (f[0] & anvils >> G::SIDE)
        | (f[1] & anvils >> 1)
        | (f[2] & anvils << G::SIDE)
        | (f[3] & anvils << 1)
}

/// The camp squares under these rules on a board of size `G`: Ashton's under `Ruleset=Ashton`
/// on Tablut's board, none otherwise ([`Rules::camps_of`]).
#[inline]
fn camps<G: Geometry>(rules: &Rules) -> G::Set {
    rules.camps_of::<G>().0
}

/// The squares that capture `victims`' soldiers as the far partner whatever stands on them (or
/// nobody): under Ashton, the throne and the camps against the defenders, and the throne and
/// the camps other than their middle squares against the attackers (the server tests both by
/// square name). Empty under other rulesets, whose throne rules depend on what stands there.
#[inline]
fn fixed_anvils<G: Geometry>(rules: &Rules, victims: Side) -> G::Set {
    let throne = G::THRONE_BIT;
    match (rules.ruleset, victims) {
        (Ruleset::Linnaeus, _) => G::Set::ZERO,
        (Ruleset::Ashton, Side::Defenders) => G::CAMPS | throne,
        (Ruleset::Ashton, Side::Attackers) => (G::CAMPS & !G::CAMP_MIDDLES) | throne,
    }
}

/// The walls Ashton's camps put in the way of a piece standing on `from`, by rank and
/// transposed: every camp square, except the squares of the camp `from` belongs to. (Its
/// occupied squares still block as pieces.) Empty under other rulesets.
#[inline]
fn camp_walls<G: Geometry>(rules: &Rules, from: usize) -> (G::Set, G::Set) {
    match rules.ruleset {
        Ruleset::Linnaeus => (G::Set::ZERO, G::Set::ZERO),
        // The camps are symmetric under transposition, so one mask serves both layouts.
        Ruleset::Ashton => (G::CAMPS & !G::camp_of(from), G::CAMPS & !G::camp_of_t(from)),
    }
}

impl<G: Geometry> BoardOf<G> {
    /// An empty board (no king: not a valid position until pieces are added).
    fn empty(side: Side) -> Self {
        BoardOf {
            att: G::Set::ZERO,
            def: G::Set::ZERO,
            att_t: G::Set::ZERO,
            def_t: G::Set::ZERO,
            hash: zobrist::side_key::<G>(side),
            plies: 0,
            king: G::NO_KING,
            side,
            moved: G::Moved::default(),
            size: PhantomData,
        }
    }

    /// Puts `piece` on the empty square `sq`.
    fn put(&mut self, piece: Piece, sq: SquareOf<G>) {
        let (i, t) = (sq.index(), G::transpose(sq.index()));
        match piece {
            Piece::Attacker => {
                self.att |= G::Set::bit(i);
                self.att_t |= G::Set::bit(t);
            }
            Piece::Defender => {
                self.def |= G::Set::bit(i);
                self.def_t |= G::Set::bit(t);
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
            self.hash ^= G::SIDE_KEY;
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
    pub fn king(&self) -> Option<SquareOf<G>> {
        SquareOf::new(self.king)
    }

    /// Attacking soldiers.
    #[inline]
    pub fn attackers(&self) -> BitboardOf<G> {
        BitboardOf::raw(self.att)
    }

    /// Defending soldiers (without the king).
    #[inline]
    pub fn defenders(&self) -> BitboardOf<G> {
        BitboardOf::raw(self.def)
    }

    /// All of a side's pieces, the king included for the defenders.
    #[inline]
    pub fn side_pieces(&self, side: Side) -> BitboardOf<G> {
        match side {
            Side::Attackers => BitboardOf::raw(self.att),
            Side::Defenders => BitboardOf::raw(self.def | G::bit(self.king as usize)),
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> BitboardOf<G> {
        BitboardOf::raw(self.att | self.def | G::bit(self.king as usize))
    }

    /// Whether `other` has the same pieces on the same squares and the same side to move
    /// (the ply counts may differ): the position as the repetition rule sees it.
    #[inline]
    pub fn same_position(&self, other: &Self) -> bool {
        self.att == other.att
            && self.def == other.def
            && self.king == other.king
            && self.side == other.side
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: SquareOf<G>) -> Option<Piece> {
        let b = G::Set::bit(sq.index());
        if self.att & b != G::Set::ZERO {
            Some(Piece::Attacker)
        } else if self.def & b != G::Set::ZERO {
            Some(Piece::Defender)
        } else if self.king as usize == sq.index() {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// The key computed from scratch; equals [`BoardOf::hash`] on every reachable board.
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::side_key::<G>(self.side);
        for sq in SquareOf::<G>::all() {
            if let Some(p) = self.piece_at(sq) {
                h ^= zobrist::piece_key(p, sq);
            }
        }
        h
    }

    /// Whether the game is already won on this board: the king stands on an edge square (a
    /// corner under corner escape), has been captured, or (under `Encirclement`) the defenders
    /// are encircled; under family rules also an exit fort or enclosure. A won board has no
    /// legal moves.
    #[inline]
    pub fn is_won(&self, rules: &Rules) -> bool {
        if rules.family_rules() {
            return self.family_is_won(rules);
        }
        self.tablut_is_won(rules)
    }

    /// [`BoardOf::is_won`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_is_won(&self, rules: &Rules) -> bool {
        G::king_wins(self.king) || (rules.encirclement && self.is_encircled())
    }

    /// Whether no defender, the king included, is connected to an edge square through
    /// orthogonally adjacent empty squares (a defender on an edge square is connected).
    pub fn is_encircled(&self) -> bool {
        let defenders = self.side_pieces(Side::Defenders);
        if (defenders & BitboardOf::EDGE) != BitboardOf::EMPTY {
            return false;
        }
        let empty = !self.occupied();
        let mut reach = BitboardOf::EDGE & empty;
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
    /// nothing and the error says why ([`BoardOf::check_move`]). [`BoardOf::play`] is the same
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
    pub fn try_play(
        &mut self,
        rules: &Rules,
        mv: MoveOf<G>,
    ) -> Result<BitboardOf<G>, IllegalMoveOf<G>> {
        self.check_move(rules, mv)?;
        Ok(self.play(rules, mv))
    }

    /// Plays `mv`, which must be legal (see [`BoardOf::legal_moves`], [`BoardOf::check_move`]
    /// and [`BoardOf::try_play`]), and returns the soldiers it captured. A captured king shows
    /// as [`BoardOf::king`] becoming `None`. An illegal move leaves the board in a state no
    /// game reaches.
    ///
    /// Always inlined, and Tablut's body left to the compiler (which keeps it out of line, as
    /// `play` was before the family's rules): the family's check costs the caller a compare,
    /// and Tablut's body no frame set up for the family's call.
    #[inline(always)]
    pub fn play(&mut self, rules: &Rules, mv: MoveOf<G>) -> BitboardOf<G> {
        if rules.family_rules() {
            return BitboardOf::raw(self.family_play(rules, mv.from().index(), mv.to().index()));
        }
        self.tablut_play(rules, mv)
    }

    /// [`BoardOf::play`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_play(&mut self, rules: &Rules, mv: MoveOf<G>) -> BitboardOf<G> {
        let (from, to) = (mv.from().index(), mv.to().index());
        let (fb, tb) = (G::bit(from), G::bit(to));
        let (ft, tt) = (G::bit_t(from), G::bit_t(to));
        let side = self.side;
        let mut captured = G::Set::ZERO;
        let mut hash = self.hash ^ G::SIDE_KEY;
        if side == Side::Attackers {
            self.att ^= fb | tb;
            self.att_t ^= ft | tt;
            hash ^= zobrist::piece_key(Piece::Attacker, mv.from())
                ^ zobrist::piece_key(Piece::Attacker, mv.to());
            if G::around(to) & (self.def | G::bit(self.king as usize)) != G::Set::ZERO {
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
            if (!is_king || rules.king_armed) && G::around(to) & self.att != G::Set::ZERO {
                captured = self.defender_captures(rules, to, &mut hash);
            }
        }
        self.hash = hash;
        self.side = side.opponent();
        self.plies = self.plies.saturating_add(1);
        BitboardOf::raw(captured)
    }

    /// Passes the move to the other side without moving (the search's null move).
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= G::SIDE_KEY;
        self.plies = self.plies.saturating_add(1);
    }

    /// Removes the soldier on `sq` of the given kind, updating the key.
    #[inline]
    fn remove(&mut self, piece: Piece, sq: usize, hash: &mut u64) {
        let (b, t) = (G::bit(sq), G::bit_t(sq));
        if piece == Piece::Attacker {
            self.att ^= b;
            self.att_t ^= t;
        } else {
            self.def ^= b;
            self.def_t ^= t;
        }
        *hash ^= zobrist::piece_key(piece, SquareOf::<G>::from_index(sq));
    }

    /// Removes the soldiers `victims` of the given kind, updating the key; returns them.
    #[inline]
    fn remove_all(&mut self, piece: Piece, victims: G::Set, hash: &mut u64) -> G::Set {
        for sq in BitboardOf::<G>::raw(victims) {
            self.remove(piece, sq.index(), hash);
        }
        victims
    }

    /// Captures made by an attacker that has just arrived on `to` (docs/rules.md, "Captures"
    /// and "Capturing the king").
    #[inline(always)]
    fn attacker_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> G::Set {
        let mut captured = G::Set::ZERO;
        let king = self.king;
        if G::around(to) & G::bit(king as usize) != G::Set::ZERO {
            for d in 0..4 {
                if G::neighbour(to, d) == king {
                    if self.king_is_taken(rules, d) {
                        *hash ^= zobrist::piece_key(
                            Piece::King,
                            SquareOf::<G>::from_index(king as usize),
                        );
                        self.king = G::NO_KING;
                    }
                    break;
                }
            }
        }
        let throne_anvil = if king as usize == G::THRONE {
            // Rule 10: the besieged king is the anvil against his last guard, the defender
            // between `to` and the throne (the throne is beyond no other neighbour of `to`).
            let guard = G::bit((to + G::THRONE) / 2);
            let others = G::THRONE_RING & !guard;
            rules.throne_guard_capture && self.att & others == others
        } else {
            rules.throne_hostile
        };
        let anvils = self.att
            | fixed_anvils::<G>(rules, Side::Defenders)
            | if throne_anvil {
                G::THRONE_BIT
            } else {
                G::Set::ZERO
            };
        let victims = flanked::<G>(to, anvils) & self.def;
        if victims != G::Set::ZERO {
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
        let ring = G::king_ring(k);
        let surrounded = ring != G::Set::ZERO && self.att & ring == ring;
        if k == G::THRONE || G::THRONE_RING.has(k) || rules.king_capture == KingCapture::English {
            return surrounded;
        }
        let far = G::neighbour(k, d);
        far != G::NO_KING && (self.att | camps::<G>(rules)).has(far as usize)
    }

    /// Captures made by a defender (soldier, or armed king) that has just arrived on `to`
    /// (docs/rules.md, "Captures").
    #[inline(always)]
    fn defender_captures(&mut self, rules: &Rules, to: usize, hash: &mut u64) -> G::Set {
        let throne_anvil = rules.throne_hostile && self.king as usize != G::THRONE;
        let partners = self.def
            | if rules.king_armed {
                G::bit(self.king as usize)
            } else {
                G::Set::ZERO
            }
            | fixed_anvils::<G>(rules, Side::Attackers)
            | if throne_anvil {
                G::THRONE_BIT
            } else {
                G::Set::ZERO
            };
        let victims = flanked::<G>(to, partners) & self.att;
        if victims == G::Set::ZERO {
            return G::Set::ZERO;
        }
        self.remove_all(Piece::Attacker, victims, hash)
    }
}

impl Board {
    /// The start position, with the side to move given by [`Rules::first_move`].
    pub fn start(rules: &Rules) -> Board {
        let mut b = Board::from_fen(START_FEN).expect("the start position string is valid");
        b.set_side_to_move(rules.first_move);
        b
    }
}

impl<G: Geometry> std::fmt::Debug for BoardOf<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::rules::PRESETS;
    use crate::types::Square;

    const NO_KING: u8 = Nine::NO_KING;
    const THRONE_RING: u128 = Nine::THRONE_RING;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `Board::play` with the captures found one direction at a time, as the rules state them:
    /// the simple code that the captures of all four directions at once replaced, kept as the
    /// reference they are checked against.
    fn play_one_direction_at_a_time<G: Geometry>(
        board: &mut BoardOf<G>,
        rules: &Rules,
        mv: MoveOf<G>,
    ) -> G::Set {
        let (from, to) = (mv.from().index(), mv.to().index());
        let (fb, tb) = (G::bit(from), G::bit(to));
        let (ft, tt) = (G::bit_t(from), G::bit_t(to));
        let mut hash = board.hash ^ G::SIDE_KEY;
        let mut captured = G::Set::ZERO;
        if board.side == Side::Attackers {
            board.att ^= fb | tb;
            board.att_t ^= ft | tt;
            hash ^= zobrist::piece_key(Piece::Attacker, mv.from())
                ^ zobrist::piece_key(Piece::Attacker, mv.to());
            let anvils = board.att | super::fixed_anvils::<G>(rules, Side::Defenders);
            for d in 0..4 {
                let n = G::neighbour(to, d);
                if n == G::NO_KING {
                    continue;
                }
                if n == board.king {
                    if board.king_is_taken(rules, d) {
                        hash ^=
                            zobrist::piece_key(Piece::King, SquareOf::<G>::from_index(n as usize));
                        board.king = G::NO_KING;
                    }
                    continue;
                }
                if !board.def.has(n as usize) {
                    continue;
                }
                let far = G::neighbour(n as usize, d);
                if far == G::NO_KING {
                    continue;
                }
                let anvil = anvils.has(far as usize)
                    || (far as usize == SquareOf::<G>::THRONE.index()
                        && if board.king as usize == SquareOf::<G>::THRONE.index() {
                            let others = G::THRONE_RING & !G::Set::bit(n as usize);
                            rules.throne_guard_capture && board.att & others == others
                        } else {
                            rules.throne_hostile
                        });
                if anvil {
                    board.remove(Piece::Defender, n as usize, &mut hash);
                    captured |= G::Set::bit(n as usize);
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
                    | if rules.king_armed {
                        G::bit(board.king as usize)
                    } else {
                        G::Set::ZERO
                    }
                    | super::fixed_anvils::<G>(rules, Side::Attackers);
                let throne_anvil =
                    rules.throne_hostile && board.king as usize != SquareOf::<G>::THRONE.index();
                for d in 0..4 {
                    let n = G::neighbour(to, d);
                    if n == G::NO_KING || !board.att.has(n as usize) {
                        continue;
                    }
                    let far = G::neighbour(n as usize, d);
                    if far == G::NO_KING {
                        continue;
                    }
                    if partners.has(far as usize)
                        || (throne_anvil && far as usize == SquareOf::<G>::THRONE.index())
                    {
                        board.remove(Piece::Attacker, n as usize, &mut hash);
                        captured |= G::Set::bit(n as usize);
                    }
                }
            }
        }
        board.hash = hash;
        board.side = board.side.opponent();
        board.plies = board.plies.saturating_add(1);
        captured
    }

    /// One of `moves` (not empty), most often (with probability `near`) one ending within two
    /// squares of the king on `king`, so that random games crowd him.
    pub(crate) fn move_near_king<G: Geometry>(
        moves: &[MoveOf<G>],
        king: SquareOf<G>,
        near: f64,
        rng: &mut StdRng,
    ) -> MoveOf<G> {
        let close: Vec<MoveOf<G>> = moves
            .iter()
            .copied()
            .filter(|m| {
                m.to().file().abs_diff(king.file()) <= 2 && m.to().rank().abs_diff(king.rank()) <= 2
            })
            .collect();
        if !close.is_empty() && rng.random_bool(near) {
            close[rng.random_range(0..close.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        }
    }

    /// Twenty random games of up to 200 plies from `start` under `rules`, steered towards
    /// captures: every legal move of every position is played both ways, which must leave the
    /// same board and take the same pieces; `seen(board, after, taken)` sees each.
    fn random_capture_games<G: Geometry>(
        start: &BoardOf<G>,
        rules: &Rules,
        rng: &mut StdRng,
        mut seen: impl FnMut(&BoardOf<G>, &BoardOf<G>, G::Set),
    ) {
        for _ in 0..20 {
            let mut board = *start;
            for _ in 0..200 {
                let moves = board.legal_moves(rules);
                if moves.is_empty() {
                    break;
                }
                let mut chosen = None;
                for &m in &moves {
                    let (mut fast, mut slow) = (board, board);
                    let got = fast.play(rules, m);
                    let expected = play_one_direction_at_a_time(&mut slow, rules, m);
                    assert_eq!(got.0, expected, "{} {m}", board.to_fen());
                    assert_eq!(fast, slow, "{} {m}", board.to_fen());
                    seen(&board, &fast, expected);
                    if expected != G::Set::ZERO && rng.random_bool(0.5) {
                        chosen = Some(m);
                    }
                }
                let m = chosen.unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                board.play(rules, m);
            }
        }
    }

    /// The captures of all four directions at once are those found one direction at a time on
    /// the other sizes too: random games from Brandubh's and Copenhagen's set-ups, steered
    /// towards captures, under the rule options that apply to every size.
    fn captures_agree_on<G: Geometry>(start: &str, seed: u64) -> (u32, usize) {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut taken, mut kings) = (0, 0);
        let start = BoardOf::<G>::from_fen(start).unwrap();
        for variant in 0..5 {
            let mut rules = Rules::default();
            match variant {
                1 => rules.king_armed = false,
                2 => rules.throne_hostile = true,
                3 => rules.throne_guard_capture = false,
                4 => rules.king_capture = KingCapture::English,
                _ => {}
            }
            random_capture_games(&start, &rules, &mut rng, |board, after, expected| {
                taken += expected.count_ones();
                kings += usize::from(board.king().is_some() && after.king().is_none());
            });
        }
        (taken, kings)
    }

    #[test]
    fn captures_of_all_directions_at_once_are_those_one_direction_at_a_time_on_7x7_and_11x11() {
        let (taken, kings) = captures_agree_on::<crate::geometry::Seven>(BRANDUBH_FEN, 7);
        assert!(taken > 500 && kings > 20, "{taken} {kings}");
        let (taken, kings) = captures_agree_on::<crate::geometry::Eleven>(COPENHAGEN_FEN, 11);
        assert!(taken > 2_000 && kings > 20, "{taken} {kings}");
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
                let start = Board::start(&rules);
                random_capture_games(&start, &rules, &mut rng, |board, after, expected| {
                    assert_eq!(after.hash(), after.compute_hash());
                    moves_played += 1;
                    soldiers_taken += expected.count_ones();
                    if board.king == Square::THRONE.index() as u8 {
                        guards_taken += (expected & THRONE_RING).count_ones();
                    }
                    kings_taken += usize::from(board.king().is_some() && after.king().is_none());
                });
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
        for sq in 0..Nine::SQUARES as u8 {
            assert_eq!(
                Nine::king_wins(sq),
                Bitboard::EDGE.has(Square::from_index(sq as usize)),
                "square {sq}"
            );
        }
        assert!(Nine::king_wins(NO_KING));
        let rules = Rules::default();
        let on_edge = Board::from_fen("4K4/9/9/9/9/9/9/9/b8 b").unwrap();
        let inside = Board::from_fen("9/4K4/9/9/9/9/9/9/b8 b").unwrap();
        assert!(on_edge.is_won(&rules));
        assert!(!inside.is_won(&rules));
    }
}
