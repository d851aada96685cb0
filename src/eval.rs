//! Static evaluation, in centi-soldiers: 100 is one attacking soldier.
//!
//! The game is asymmetric and so is the evaluation: the terms are computed from the attackers'
//! point of view (positive is good for them) and the sign flipped for the defenders.
//! [`breakdown`] lists every term for the `eval` command; [`evaluate`] is the same arithmetic
//! without the listing.

use crate::Bitboard;
use crate::board::Board;
use crate::rules::Rules;
use crate::types::{Side, Square};

/// The weights of the evaluation terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of an attacking soldier.
    pub attacker: i32,
    /// Value of a defending soldier.
    pub defender: i32,
    /// Per square the king can reach in one move from which he would see an edge.
    pub king_escape_square: i32,
    /// Per square the king can move to.
    pub king_mobility: i32,
    /// Per step the king stands from the nearest edge.
    pub king_edge_distance: i32,
    /// Per attacker orthogonally next to the king.
    pub king_adjacent_attacker: i32,
    /// Per attacker diagonally next to the king or two steps away on his lines.
    pub king_near_attacker: i32,
    /// Per move the attackers have, minus per move the defenders have.
    pub mobility: i32,
    /// Scale of the attackers' square table.
    pub attacker_squares: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The weights Konakis plays with.
pub const WEIGHTS: Weights = Weights {
    attacker: 100,
    defender: 170,
    king_escape_square: 45,
    king_mobility: 4,
    king_edge_distance: 14,
    king_adjacent_attacker: 28,
    king_near_attacker: 9,
    mobility: 2,
    attacker_squares: 1,
    tempo: 10,
};

/// Attackers' square table: the blockade squares that close the corners' approaches and the
/// second ring score; the centre, where soldiers are easily captured, does not.
const ATTACKER_SQUARES: [i8; 81] = [
    // rank 1 (a..i)
    0, 6, 10, 4, 0, 4, 10, 6, 0, //
    6, 12, 20, 6, 0, 6, 20, 12, 6, // rank 2
    10, 20, 8, 4, 0, 4, 8, 20, 10, // rank 3
    4, 6, 4, 0, 0, 0, 4, 6, 4, // rank 4
    0, 0, 0, 0, 0, 0, 0, 0, 0, // rank 5
    4, 6, 4, 0, 0, 0, 4, 6, 4, // rank 6
    10, 20, 8, 4, 0, 4, 8, 20, 10, // rank 7
    6, 12, 20, 6, 0, 6, 20, 12, 6, // rank 8
    0, 6, 10, 4, 0, 4, 10, 6, 0, // rank 9
];

/// Squares diagonally next to, or two steps along a line from, each square.
static NEAR_RING: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let offsets = [
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
            (2, 0),
            (-2, 0),
            (0, 2),
            (0, -2),
        ];
        let mut i = 0;
        while i < 8 {
            let (nf, nr) = (f + offsets[i].0, r + offsets[i].1);
            if nf >= 0 && nf < 9 && nr >= 0 && nr < 9 {
                t[sq] |= 1u128 << (nr * 9 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board, rules: &Rules) -> i32 {
    let score = terms(board, rules, &WEIGHTS, |_, _| {});
    if board.side_to_move() == Side::Attackers {
        score
    } else {
        -score
    }
}

/// Every term with its value from the attackers' point of view, and the total from the side to
/// move's point of view (what [`evaluate`] returns).
pub fn breakdown(board: &Board, rules: &Rules) -> (Vec<(&'static str, i32)>, i32) {
    let mut list = Vec::new();
    terms(board, rules, &WEIGHTS, |name, value| {
        list.push((name, value))
    });
    (list, evaluate(board, rules))
}

/// The sum of the terms for the attackers, each also passed to `trace`.
#[inline]
pub fn terms(
    board: &Board,
    rules: &Rules,
    w: &Weights,
    mut trace: impl FnMut(&'static str, i32),
) -> i32 {
    let mut total = 0;
    let mut add = |name, value| {
        trace(name, value);
        total += value;
    };
    let att = board.attackers();
    let def = board.defenders();
    add(
        "material",
        w.attacker * att.len() as i32 - w.defender * def.len() as i32,
    );

    if let Some(k) = board.king() {
        let king_moves = board.king_moves(rules);
        let escapes = (king_moves & board.edge_view()).len() as i32;
        add("king escape squares", -w.king_escape_square * escapes);
        add("king mobility", -w.king_mobility * king_moves.len() as i32);
        let (f, r) = (k.file() as i32, k.rank() as i32);
        let dist = f.min(8 - f).min(r).min(8 - r);
        add("king distance to edge", w.king_edge_distance * dist);
        let adjacent = (Bitboard::from_square(k).neighbours() & att).len() as i32;
        add(
            "attackers next to king",
            w.king_adjacent_attacker * adjacent,
        );
        let near = (Bitboard(NEAR_RING[k.index()]) & att).len() as i32;
        add("attackers near king", w.king_near_attacker * near);
    }

    let mobility = board.count_moves_of(rules, Side::Attackers) as i32
        - board.count_moves_of(rules, Side::Defenders) as i32;
    add("mobility", w.mobility * mobility);
    let squares: i32 = att
        .map(|sq: Square| ATTACKER_SQUARES[sq.index()] as i32)
        .sum();
    add("attacker squares", w.attacker_squares * squares);
    let tempo = if board.side_to_move() == Side::Attackers {
        w.tempo
    } else {
        -w.tempo
    };
    add("tempo", tempo);
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_adds_up_to_evaluate() {
        let rules = Rules::default();
        let b = Board::start(&rules);
        let (list, total) = breakdown(&b, &rules);
        let sum: i32 = list.iter().map(|&(_, v)| v).sum();
        assert_eq!(sum, total);
        assert!(list.iter().any(|&(n, _)| n == "material"));
    }

    #[test]
    fn evaluation_is_from_the_side_to_move() {
        let rules = Rules::default();
        let b = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b").unwrap();
        let w = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w").unwrap();
        // Only the tempo term does not change sign with the side to move.
        assert_eq!(
            evaluate(&b, &rules) + evaluate(&w, &rules),
            2 * WEIGHTS.tempo
        );
    }

    #[test]
    fn a_free_king_scores_for_the_defenders() {
        let rules = Rules::default();
        let boxed = Board::from_fen("9/9/9/4b4/3bKb3/4b4/9/9/9 b").unwrap();
        let free = Board::from_fen("9/9/9/9/4K4/9/9/9/bbbb5 b").unwrap();
        assert!(evaluate(&boxed, &rules) > evaluate(&free, &rules));
    }
}
