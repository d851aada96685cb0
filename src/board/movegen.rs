//! Legal move generation and move counting.
//!
//! Every move Konakis generates is legal: Tablut has no checks or pins, so a rook-like slide to
//! an empty square that respects the throne rules is a legal move. Generation writes into a
//! fixed-capacity [`MoveList`] and never allocates.

use super::tables::{LINE_MOVES, LINE_MOVES_THRONE, SLIDES, SPREAD_FILE, TERNARY};
use super::{Board, NO_KING, bit, bit_t};
use crate::bitboard::Bitboard;
use crate::rules::Rules;
use crate::types::{Move, Side, Square};
use smallvec::SmallVec;

/// An upper bound on the number of legal moves in any position.
///
/// A move ends on an empty square, and each empty square is reached by at most four pieces (the
/// nearest one in each direction), so there are at most `4 × E` moves with `E` empty squares.
/// Each piece reaches at most 16 squares (8 along its rank, 8 along its file), so there are at
/// most `16 × P` moves with `P` pieces of the side to move. With `P + E ≤ 81`,
/// `min(16 P, 4 E) ≤ 259.2`. (The start position has 80.)
pub const MAX_MOVES: usize = 260;

/// The legal moves of a position; it lives on the stack and never spills, since no position
/// has more than [`MAX_MOVES`] moves.
pub type MoveList = SmallVec<[Move; MAX_MOVES]>;

/// The throne's square index (the same in the transposed layout).
const THRONE: usize = Square::THRONE.index();

impl Board {
    /// Occupancy for sliding soldiers: pieces, plus the empty throne if it may not be crossed.
    #[inline]
    fn soldier_blockers(&self, rules: &Rules) -> (u128, u128) {
        let king = bit(self.king);
        let king_t = bit_t(self.king);
        let throne = if rules.throne_passable {
            0
        } else {
            1u128 << THRONE
        };
        (
            self.att | self.def | king | throne,
            self.att_t | self.def_t | king_t | throne,
        )
    }

    /// Calls `f(from, destinations)` for each piece of the side to move that has a move, with
    /// the set of squares it may move to. Nothing is called on a board where the game is won.
    #[inline]
    pub fn for_each_piece_moves(&self, rules: &Rules, mut f: impl FnMut(Square, Bitboard)) {
        if self.is_won(rules) {
            return;
        }
        let (block, block_t) = self.soldier_blockers(rules);
        let movers = if self.side == Side::Attackers {
            self.att
        } else {
            self.def
        };
        for from in Bitboard(movers) {
            let dests = slide_targets(from, block, block_t) & !(1u128 << THRONE);
            if dests != 0 {
                f(from, Bitboard(dests));
            }
        }
        if self.side == Side::Defenders {
            let dests = self.king_targets(rules);
            if dests != 0 {
                f(Square::from_index(self.king as usize), Bitboard(dests));
            }
        }
    }

    /// The squares the king may move to (he is on the board).
    #[inline]
    fn king_targets(&self, rules: &Rules) -> u128 {
        let k = Square::from_index(self.king as usize);
        let mut block = self.att | self.def;
        let mut block_t = self.att_t | self.def_t;
        if !rules.king_passes_throne() {
            block |= 1 << THRONE;
            block_t |= 1 << THRONE;
        }
        let mut dests = slide_targets(k, block, block_t);
        if !rules.king_reenters_throne {
            dests &= !(1u128 << THRONE);
        }
        dests
    }

    /// Appends every legal move of the side to move to `list`.
    pub fn legal_moves_into(&self, rules: &Rules, list: &mut MoveList) {
        self.for_each_piece_moves(rules, |from, dests| {
            for to in dests {
                list.push(Move::new(from, to));
            }
        });
    }

    /// Every legal move of the side to move; none when the game is already won.
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(rules, &mut list);
        list
    }

    /// The number of legal moves of the side to move, counted without generating them; 0 when
    /// the game is already won.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> u32 {
        if self.is_won(rules) {
            return 0;
        }
        self.count_moves_of(rules, self.side)
    }

    /// The number of moves `side` would have here if it were to move (its mobility), counted
    /// without generating them. Does not look at whether the game is won.
    #[inline]
    pub fn count_moves_of(&self, rules: &Rules, side: Side) -> u32 {
        let (block, block_t) = self.soldier_blockers(rules);
        let (movers, movers_t) = match side {
            Side::Attackers => (self.att, self.att_t),
            Side::Defenders => (self.def, self.def_t),
        };
        let mut count = count_lines(block, movers) + count_lines(block_t, movers_t);
        if side == Side::Defenders && self.king != NO_KING {
            count += self.king_targets(rules).count_ones();
        }
        count
    }

    /// Whether `mv` is legal here; the error says why not.
    pub fn check_move(&self, rules: &Rules, mv: Move) -> Result<(), String> {
        if self.is_won(rules) {
            return Err(format!("{mv} is not legal: the game is already over"));
        }
        let Some(piece) = self.piece_at(mv.from()) else {
            return Err(format!("{mv} is not legal: no piece on {}", mv.from()));
        };
        if piece.side() != self.side {
            return Err(format!(
                "{mv} is not legal: the piece on {} belongs to the {}, and the {} are to move",
                mv.from(),
                piece.side(),
                self.side
            ));
        }
        let mut dests = Bitboard::EMPTY;
        self.for_each_piece_moves(rules, |from, d| {
            if from == mv.from() {
                dests = d;
            }
        });
        if dests.has(mv.to()) {
            return Ok(());
        }
        let why = if self.piece_at(mv.to()).is_some() {
            format!("{} is occupied", mv.to())
        } else if mv.to() == Square::THRONE {
            "that piece may not stop on the throne".to_string()
        } else if mv.from().file() != mv.to().file() && mv.from().rank() != mv.to().rank() {
            "pieces move along one rank or file".to_string()
        } else {
            "the path is blocked".to_string()
        };
        Err(format!("{mv} is not legal: {why}"))
    }

    /// Parses a move (`d1d3` or `d1-d3`) and checks that it is legal here.
    pub fn parse_move(&self, rules: &Rules, text: &str) -> Result<Move, String> {
        let mv = Move::parse(text)?;
        self.check_move(rules, mv)?;
        Ok(mv)
    }
}

/// The empty squares a piece on `from` reaches along its rank and file, given the blockers by
/// rank (`block`) and transposed (`block_t`).
#[inline]
fn slide_targets(from: Square, block: u128, block_t: u128) -> u128 {
    let (f, r) = (from.file() as usize, from.rank() as usize);
    let rank_line = (block >> (9 * r)) as usize & 511;
    let file_line = (block_t >> (9 * f)) as usize & 511;
    let along_rank = (SLIDES[f][rank_line] as u128) << (9 * r);
    let along_file = SPREAD_FILE[f][SLIDES[r][file_line] as usize];
    along_rank | along_file
}

/// Moves of the pieces `movers` along the nine lines (ranks, or files when given transposed
/// sets) with blockers `block`; the middle line's centre is the throne.
#[inline]
fn count_lines(mut block: u128, mut movers: u128) -> u32 {
    let mut count = 0u32;
    for line in 0..9 {
        let m = movers as usize & 511;
        if m != 0 {
            let state = TERNARY[block as usize & 511] as usize + TERNARY[m] as usize;
            count += if line == 4 {
                LINE_MOVES_THRONE[state]
            } else {
                LINE_MOVES[state]
            } as u32;
        }
        block >>= 9;
        movers >>= 9;
    }
    count
}
