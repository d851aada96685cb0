//! The board sizes the engine plays on, and what it does differently on each: the search is
//! one body of code, compiled once per size ([`Size`]), and only the evaluation differs. On
//! Tablut's board under Tablut's rules it is the classical evaluation of `eval.rs` (or a
//! network, which knows only that board); under the tafl family's rules, on every board, it is
//! the family's evaluation (`family_eval.rs`).

use crate::{eval, family_eval};
use konakis_core::board::{BRANDUBH_FEN, Board, BoardOf, COPENHAGEN_FEN};
use konakis_core::geometry::{Eleven, Geometry, Nine, Seven, Thirteen};
use konakis_core::rules::{Rules, Variant};
use konakis_core::types::{Move, MoveOf};
use konakis_core::{Bitboard, BitboardOf};

/// A board size the engine plays on: [`Seven`], [`Nine`], [`Eleven`] and [`Thirteen`].
pub trait Size: Geometry {
    /// Is this Tablut's board, the only one the networks know?
    const TABLUT: bool;

    /// The board's usual start, Black (the attackers) to move: Tablut's, Brandubh's,
    /// Copenhagen's, hnefatafl.org's 13x13. A variant's own start replaces it.
    fn start() -> BoardOf<Self>;

    /// The classical evaluation of `board` under `rules`, from the side to move's point of
    /// view, in centi-soldiers; `family` is [`Rules::family_rules`], which the search asks
    /// once rather than at every leaf.
    fn evaluate(board: &BoardOf<Self>, rules: &Rules, family: bool) -> i32;

    /// Every term of [`Size::evaluate`] (from the attackers' point of view) and the total
    /// (from the side to move's).
    fn breakdown(board: &BoardOf<Self>, rules: &Rules) -> (Vec<(&'static str, i32)>, i32);

    /// The board as Tablut's, for the networks, which know no other; `None` on other sizes.
    fn tablut(board: &BoardOf<Self>) -> Option<&Board>;

    /// A move as Tablut's (see [`Size::tablut`]).
    fn tablut_move(mv: MoveOf<Self>) -> Option<Move>;

    /// A set of squares as Tablut's (see [`Size::tablut`]).
    fn tablut_set(set: BitboardOf<Self>) -> Option<Bitboard>;
}

impl Size for Nine {
    const TABLUT: bool = true;

    fn start() -> Board {
        Board::start(&Rules::default())
    }

    #[inline]
    fn evaluate(board: &Board, rules: &Rules, family: bool) -> i32 {
        if family {
            family_eval::evaluate_family(board, rules)
        } else {
            eval::evaluate(board, rules)
        }
    }

    fn breakdown(board: &Board, rules: &Rules) -> (Vec<(&'static str, i32)>, i32) {
        if rules.family_rules() {
            family_eval::family_breakdown(board, rules)
        } else {
            eval::breakdown(board, rules)
        }
    }

    #[inline(always)]
    fn tablut(board: &Board) -> Option<&Board> {
        Some(board)
    }

    #[inline(always)]
    fn tablut_move(mv: Move) -> Option<Move> {
        Some(mv)
    }

    #[inline(always)]
    fn tablut_set(set: Bitboard) -> Option<Bitboard> {
        Some(set)
    }
}

/// The sizes other than Tablut's, which only the family's rules are played on.
macro_rules! family_size {
    ($($size:ty: $start:expr),*) => {$(
        impl Size for $size {
            const TABLUT: bool = false;

            fn start() -> BoardOf<Self> {
                BoardOf::from_fen($start).expect("the usual start is a valid position")
            }

            #[inline]
            fn evaluate(board: &BoardOf<Self>, rules: &Rules, _: bool) -> i32 {
                family_eval::evaluate_family(board, rules)
            }

            fn breakdown(board: &BoardOf<Self>, rules: &Rules) -> (Vec<(&'static str, i32)>, i32) {
                family_eval::family_breakdown(board, rules)
            }

            #[inline(always)]
            fn tablut(_: &BoardOf<Self>) -> Option<&Board> {
                None
            }

            #[inline(always)]
            fn tablut_move(_: MoveOf<Self>) -> Option<Move> {
                None
            }

            #[inline(always)]
            fn tablut_set(_: BitboardOf<Self>) -> Option<Bitboard> {
                None
            }
        }
    )*};
}

family_size!(
    Seven: BRANDUBH_FEN,
    Eleven: COPENHAGEN_FEN,
    Thirteen: &Variant::find("hnefatafl.org-13")
        .expect("the 13x13 preset is built in")
        .start_fen()
);
