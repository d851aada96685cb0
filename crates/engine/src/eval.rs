//! Static evaluation, in centi-soldiers: 100 is one attacking soldier.
//!
//! The game is asymmetric and so is the evaluation. It is linear: a list of [`FEATURES`]
//! measured on the board from the attackers' point of view, each multiplied by its weight in
//! [`WEIGHTS`] and summed; the sign is flipped when the defenders are to move. Being linear, the
//! weights can be fitted to game results (see `konakis tune`), and
//! [`breakdown`] can list every term for the `eval` command.

use konakis_core::Bitboard;
use konakis_core::board::Board;
use konakis_core::geometry::{SIDE, SQUARES};
use konakis_core::rules::{Rules, Ruleset};
use konakis_core::types::Side;

/// Number of features.
pub const FEATURE_COUNT: usize = 12;

/// Names of the features, in order.
pub const FEATURES: [&str; FEATURE_COUNT] = [
    "attackers",
    "defenders",
    "king escape squares",
    "king mobility",
    "king distance to edge",
    "attackers next to king",
    "attackers near king",
    "defenders next to king",
    "mobility",
    "attacker squares",
    "attackers on edge",
    "tempo",
];

/// The weights Konakis plays with, one per feature (attackers' point of view).
pub const WEIGHTS: [i32; FEATURE_COUNT] = [100, -170, -45, 0, 0, 28, 9, -6, 2, 1, -4, 10];

/// The weights under `Ruleset=Ashton`: [`WEIGHTS`] with mobility counting three times as
/// much, which won games under Ashton and not under the default rules (docs/strength.md).
pub const ASHTON_WEIGHTS: [i32; FEATURE_COUNT] = [100, -170, -45, 0, 0, 28, 9, -6, 6, 1, -4, 10];

/// The weights for `rules`.
#[inline]
pub fn weights(rules: &Rules) -> &'static [i32; FEATURE_COUNT] {
    match rules.ruleset {
        Ruleset::Linnaeus => &WEIGHTS,
        Ruleset::Ashton => &ASHTON_WEIGHTS,
    }
}

/// Feature values of a position.
pub type Features = [i32; FEATURE_COUNT];

/// Attackers' square table: the blockade squares that close the corners' approaches and the
/// second ring score; the centre, where soldiers are easily captured, does not.
const ATTACKER_SQUARES: [i8; SQUARES] = [
    0, 6, 10, 4, 0, 4, 10, 6, 0, // rank 1, files a..i
    6, 12, 20, 6, 0, 6, 20, 12, 6, // rank 2
    10, 20, 8, 4, 0, 4, 8, 20, 10, // rank 3
    4, 6, 4, 0, 0, 0, 4, 6, 4, // rank 4
    0, 0, 0, 0, 0, 0, 0, 0, 0, // rank 5
    4, 6, 4, 0, 0, 0, 4, 6, 4, // rank 6
    10, 20, 8, 4, 0, 4, 8, 20, 10, // rank 7
    6, 12, 20, 6, 0, 6, 20, 12, 6, // rank 8
    0, 6, 10, 4, 0, 4, 10, 6, 0, // rank 9
];

/// Number of binary digits the values of [`ATTACKER_SQUARES`] use (all lie in 0..32).
const SQUARE_VALUE_BITS: usize = 5;

/// [`ATTACKER_SQUARES`] split into binary digits: `ATTACKER_SQUARE_PLANES[k]` holds the squares
/// whose value has bit `k` set, so that the attackers' sum over the table is
/// `Σ 2^k · |attackers ∩ plane k|`, a few population counts instead of a walk over the
/// attackers.
const ATTACKER_SQUARE_PLANES: [u128; SQUARE_VALUE_BITS] = {
    let mut planes = [0u128; SQUARE_VALUE_BITS];
    let mut sq = 0;
    while sq < SQUARES {
        let v = ATTACKER_SQUARES[sq];
        assert!(v >= 0 && (v as u32) < 1 << SQUARE_VALUE_BITS);
        let mut k = 0;
        while k < SQUARE_VALUE_BITS {
            if v >> k & 1 != 0 {
                planes[k] |= 1u128 << sq;
            }
            k += 1;
        }
        sq += 1;
    }
    planes
};

/// The sum of [`ATTACKER_SQUARES`] over `att`, counted by binary digits.
#[inline]
fn attacker_square_sum(att: Bitboard) -> i32 {
    let mut sum = 0;
    for (k, plane) in ATTACKER_SQUARE_PLANES.iter().enumerate() {
        sum += ((att & Bitboard::from_bits(*plane)).len() as i32) << k;
    }
    sum
}

/// Squares diagonally next to, or two steps along a line from, each square.
static NEAR_RING: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % SIDE) as i32, (sq / SIDE) as i32);
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
            if nf >= 0 && nf < SIDE as i32 && nr >= 0 && nr < SIDE as i32 {
                t[sq] |= 1u128 << (nr * SIDE as i32 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Measures every feature (attackers' point of view).
#[inline]
pub fn features(board: &Board, rules: &Rules) -> Features {
    let mut f = [0i32; FEATURE_COUNT];
    let att = board.attackers();
    let def = board.defenders();
    f[0] = att.len() as i32;
    f[1] = def.len() as i32;
    // The king's moves count in his mobility and in the defenders': found once for both.
    let king_moves = board.king_moves(rules);
    if let Some(k) = board.king() {
        f[2] = (king_moves & board.king_edge_view(rules)).len() as i32;
        f[3] = king_moves.len() as i32;
        let (x, y) = (k.file() as i32, k.rank() as i32);
        f[4] = x.min(8 - x).min(y).min(8 - y);
        let ring = Bitboard::around(k);
        f[5] = (ring & att).len() as i32;
        f[6] = (Bitboard::from_bits(NEAR_RING[k.index()]) & att).len() as i32;
        f[7] = (ring & def).len() as i32;
    }
    let (att_moves, def_soldier_moves) = board.count_soldier_moves_both(rules);
    let def_moves = def_soldier_moves + king_moves.len();
    f[8] = att_moves as i32 - def_moves as i32;
    f[9] = attacker_square_sum(att);
    f[10] = (att & Bitboard::EDGE).len() as i32;
    f[11] = if board.side_to_move() == Side::Attackers {
        1
    } else {
        -1
    };
    f
}

/// The evaluation with the given weights, from the side to move's point of view.
#[inline]
pub fn evaluate_with(board: &Board, rules: &Rules, weights: &[i32; FEATURE_COUNT]) -> i32 {
    let f = features(board, rules);
    let score: i32 = f.iter().zip(weights).map(|(a, b)| a * b).sum();
    if board.side_to_move() == Side::Attackers {
        score
    } else {
        -score
    }
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board, rules: &Rules) -> i32 {
    evaluate_with(board, rules, weights(rules))
}

/// Every term (feature times weight) with its value from the attackers' point of view, and
/// the total from the side to move's point of view (what [`evaluate`] returns).
pub fn breakdown(board: &Board, rules: &Rules) -> (Vec<(&'static str, i32)>, i32) {
    let f = features(board, rules);
    let list = FEATURES
        .iter()
        .zip(f.iter().zip(weights(rules)))
        .map(|(&n, (&v, w))| (n, v * w))
        .collect();
    (list, evaluate(board, rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::types::Square;

    #[test]
    fn breakdown_adds_up_to_evaluate() {
        let rules = Rules::default();
        for fen in [
            "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b",
            "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let (list, total) = breakdown(&b, &rules);
            let sum: i32 = list.iter().map(|&(_, v)| v).sum();
            let sign = if b.side_to_move() == Side::Attackers {
                1
            } else {
                -1
            };
            assert_eq!(sign * sum, total);
            assert_eq!(list.len(), FEATURE_COUNT);
        }
    }

    #[test]
    fn evaluation_is_from_the_side_to_move() {
        let rules = Rules::default();
        let b = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b").unwrap();
        let w = Board::from_fen("3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w").unwrap();
        // Only the tempo term does not change sign with the side to move.
        assert_eq!(evaluate(&b, &rules) + evaluate(&w, &rules), 2 * WEIGHTS[11]);
    }

    #[test]
    fn each_ruleset_evaluates_with_its_own_weights() {
        let fen = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 w";
        let b = Board::from_fen(fen).unwrap();
        let (linnaeus, ashton) = (Rules::default(), Rules::ashton());
        assert_eq!(
            evaluate(&b, &linnaeus),
            evaluate_with(&b, &linnaeus, &WEIGHTS)
        );
        assert_eq!(
            evaluate(&b, &ashton),
            evaluate_with(&b, &ashton, &ASHTON_WEIGHTS)
        );
        // The start's mobility differs between the sides, so the mobility weight shows.
        assert_ne!(features(&b, &ashton)[8], 0);
        assert_ne!(
            evaluate(&b, &ashton),
            evaluate_with(&b, &ashton, &WEIGHTS),
            "Ashton plays with its own weights"
        );
        let (list, total) = breakdown(&b, &ashton);
        assert_eq!(-list.iter().map(|&(_, v)| v).sum::<i32>(), total);
    }

    #[test]
    fn a_free_king_scores_for_the_defenders() {
        let rules = Rules::default();
        let boxed = Board::from_fen("9/9/9/4b4/3bKb3/4b4/9/9/9 b").unwrap();
        let free = Board::from_fen("9/9/9/9/4K4/9/9/9/bbbb5 b").unwrap();
        assert!(evaluate(&boxed, &rules) > evaluate(&free, &rules));
    }

    /// The table's sum by binary digits is the sum square by square: the square values one
    /// at a time, and random sets of squares.
    #[test]
    fn square_sum_by_digits_is_the_sum_square_by_square() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let by_squares = |b: Bitboard| -> i32 {
            b.map(|sq: Square| ATTACKER_SQUARES[sq.index()] as i32)
                .sum()
        };
        for i in 0..SQUARES as u8 {
            let one = Bitboard::from_square(Square::new(i).unwrap());
            assert_eq!(attacker_square_sum(one), by_squares(one), "square {i}");
        }
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..10_000 {
            let b = Bitboard::from_bits(rng.random::<u128>() & rng.random::<u128>());
            assert_eq!(attacker_square_sum(b), by_squares(b), "{b:?}");
        }
        assert_eq!(
            attacker_square_sum(Bitboard::FULL),
            by_squares(Bitboard::FULL)
        );
    }

    #[test]
    fn features_count_what_they_name() {
        let rules = Rules::default();
        // King on c3 with attackers on b3 and c4, a defender on d3, an attacker on a1 (edge).
        let b = Board::from_fen("9/9/9/9/9/2b6/1bKw5/9/b8 b").unwrap();
        let f = features(&b, &rules);
        assert_eq!(f[0], 3, "attackers");
        assert_eq!(f[1], 1, "defenders");
        assert_eq!(f[4], 2, "king distance to edge");
        assert_eq!(f[5], 2, "attackers next to king");
        assert_eq!(f[7], 1, "defenders next to king");
        assert_eq!(f[10], 1, "attackers on edge");
        assert_eq!(f[11], 1, "tempo");
        // the king moves down file c to c2, c1: c1 is an edge square; c2 sees a2 and i2
        assert_eq!(f[3], 2, "king mobility");
        assert_eq!(f[2], 1, "king escape squares");
    }
}
