//! The classical evaluation of the tafl family's games, on a board of any size, in
//! centi-soldiers (100 is one attacking soldier), as [`crate::eval`] is Tablut's.
//!
//! It is linear, as Tablut's: the [`FAMILY_FEATURES`] are measured from the attackers' point of
//! view, each multiplied by its weight in [`FAMILY_WEIGHTS`] and summed; the sign is flipped
//! when the defenders are to move. Every feature is read off the board's sets of squares with
//! shifts, masks and population counts, through the size's constants ([`Geometry::SIDE`] and
//! the masks built from it), so one body of code serves 7×7, 9×9 and 11×11, and 13×13 once the core's sets of squares
//! widen beyond a `u128`.
//!
//! What it counts follows how tafl players judge a position. Under corner escape (Copenhagen,
//! Fetlar, Brandubh, Magpie) the king runs for the corners and the attackers bar them: the
//! king's distance to the nearest corner, the corners he could reach in two moves along clear
//! lines (the threat that wins the game when there are two), the attackers standing beside a
//! corner and those on the diagonal line that bars it (the square diagonal to the corner and
//! the two squares two steps from it along the edges: the three squares a blockade holds).
//! Under edge escape (Sea Battle, Tawlbwrdd, Saami Tablut) the king's open lines to the edge
//! count as in Tablut's evaluation. Under both: material (a defender is worth two attackers,
//! which is how every set of the family starts), the attackers closing in on the king, the
//! defenders guarding him, both sides' mobility and a tempo.

use konakis_core::geometry::{Geometry, SquareSet, Wide, neighbour_bits};
use konakis_core::{BitboardOf, BoardOf, Escape, Rules, Side};
use std::marker::PhantomData;

/// Number of features.
pub const FAMILY_FEATURE_COUNT: usize = 12;

/// Names of the features, in order.
pub const FAMILY_FEATURES: [&str; FAMILY_FEATURE_COUNT] = [
    "attackers",
    "defenders",
    "king escape squares",
    "corners in two moves",
    "king distance to corner",
    "attackers beside corners",
    "attackers barring corners",
    "attackers next to king",
    "attackers near king",
    "defenders next to king",
    "mobility",
    "tempo",
];

/// The weights, one per feature (attackers' point of view). Set by hand from the players'
/// judgement and Tablut's fitted weights, not yet fitted to the family's games.
pub const FAMILY_WEIGHTS: [i32; FAMILY_FEATURE_COUNT] =
    [100, -200, -45, -50, 5, 3, 12, 25, 8, -6, 1, 10];

/// Feature values of a position.
pub type FamilyFeatures = [i32; FAMILY_FEATURE_COUNT];

/// Masks of a size built once, when the compiler instantiates them for it.
struct Masks<G>(PhantomData<G>);

impl<G: Geometry> Masks<G> {
    /// The squares next to a corner (`a2` and `b1` for `a1`).
    const BESIDE_CORNERS: Wide =
        neighbour_bits(G::SIDE, konakis_core::geometry::corner_bits(G::SIDE));
    /// The squares of the diagonal line that bars a corner (`b2`, `a3` and `c1` for `a1`).
    const BARRING_CORNERS: Wide = barring_bits(G::SIDE);

    /// [`Masks::BESIDE_CORNERS`] as the board's set.
    #[inline(always)]
    fn beside_corners() -> G::Set {
        G::Set::from_wide(Self::BESIDE_CORNERS)
    }

    /// [`Masks::BARRING_CORNERS`] as the board's set.
    #[inline(always)]
    fn barring_corners() -> G::Set {
        G::Set::from_wide(Self::BARRING_CORNERS)
    }
}

/// The squares of the diagonal line that bars each corner of a board of side `side`: the
/// square diagonal to the corner, and the squares two steps from it along the two edges.
const fn barring_bits(side: usize) -> Wide {
    let last = side - 1;
    // (file, rank) offsets from a corner, towards the board's inside.
    let offsets = [(1, 1), (2, 0), (0, 2)];
    let mut bits = Wide::ZERO;
    let mut c = 0;
    while c < 4 {
        let (cf, cr) = (
            if c & 1 == 0 { 0 } else { last },
            if c < 2 { 0 } else { last },
        );
        let mut i = 0;
        while i < 3 {
            let (df, dr) = offsets[i];
            let f = if cf == 0 { df } else { last - df };
            let r = if cr == 0 { dr } else { last - dr };
            bits = bits.or(Wide::bit(r * side + f));
            i += 1;
        }
        c += 1;
    }
    bits
}

/// The squares from `from` along direction `d` (`Direction::ALL` order: north, east, south,
/// west) up to the first square of `occ`, that square left out.
#[inline]
fn clear_ray<G: Geometry>(d: usize, from: usize, occ: G::Set) -> G::Set {
    let ray = G::ray(d, from);
    let blockers = ray & occ;
    if blockers.is_zero() {
        return ray;
    }
    if d < 2 {
        // North and east run to higher indices: the nearest blocker is the lowest.
        ray & G::Set::below(blockers.trailing_zeros() as usize)
    } else {
        // South and west run to lower indices: the nearest blocker is the highest.
        ray & !G::Set::below(blockers.highest() as usize + 1)
    }
}

/// The number of corners the king reaches in one or two moves: a corner among his moves
/// `king_moves`, or one of his moves a square from which he would reach that corner along a
/// clear line (one step for a king who moves one square). `soldiers` are the pieces other
/// than the king, whose own square is empty once he has moved.
#[inline]
fn corners_in_two<G: Geometry>(king_moves: G::Set, soldiers: G::Set, one_square: bool) -> i32 {
    // Each corner with the two directions that leave it along the edges.
    let corners = [
        (0, [0, 1]),
        (G::LAST, [0, 3]),
        (G::SIDE * G::LAST, [2, 1]),
        (G::SQUARES - 1, [2, 3]),
    ];
    let mut count = 0;
    for (corner, [d1, d2]) in corners {
        let approach = if one_square {
            G::around(corner)
        } else {
            clear_ray::<G>(d1, corner, soldiers) | clear_ray::<G>(d2, corner, soldiers)
        };
        count += i32::from(!(king_moves & (approach | G::Set::bit(corner))).is_zero());
    }
    count
}

/// Measures every feature (attackers' point of view).
#[inline]
pub fn family_features<G: Geometry>(board: &BoardOf<G>, rules: &Rules) -> FamilyFeatures {
    let mut f = [0i32; FAMILY_FEATURE_COUNT];
    let att = board.attackers().bits();
    let def = board.defenders().bits();
    f[0] = att.count_ones() as i32;
    f[1] = def.count_ones() as i32;
    let corner = rules.escape == Escape::Corner;
    // The king's moves count in his features and in the defenders' mobility: found once.
    let king_moves = board.king_moves(rules).bits();
    if let Some(k) = board.king() {
        if corner {
            f[3] = corners_in_two::<G>(king_moves, att | def, rules.king_moves_one_square);
            let (x, y) = (k.file() as i32, k.rank() as i32);
            let last = G::LAST as i32;
            f[4] = x.min(last - x) + y.min(last - y);
        } else {
            // The throne walls the king in only where there is one.
            let view = if rules.throne {
                board.king_edge_view(rules)
            } else {
                board.edge_view()
            };
            f[2] = (king_moves & view.bits()).count_ones() as i32;
        }
        let king = G::Set::bit(k.index());
        let ring = G::around(k.index());
        // The squares two steps away: diagonally next to him, or two along a line.
        let near = BitboardOf::<G>::from_bits(ring).neighbours().bits() & !king;
        f[7] = (ring & att).count_ones() as i32;
        f[8] = (near & att).count_ones() as i32;
        f[9] = (ring & def).count_ones() as i32;
    }
    if corner {
        f[5] = (att & Masks::<G>::beside_corners()).count_ones() as i32;
        f[6] = (att & Masks::<G>::barring_corners()).count_ones() as i32;
    }
    let (att_moves, def_soldier_moves) = board.count_soldier_moves_both(rules);
    f[10] = att_moves as i32 - (def_soldier_moves + king_moves.count_ones()) as i32;
    f[11] = if board.side_to_move() == Side::Attackers {
        1
    } else {
        -1
    };
    f
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate_family<G: Geometry>(board: &BoardOf<G>, rules: &Rules) -> i32 {
    let f = family_features(board, rules);
    let score: i32 = f.iter().zip(&FAMILY_WEIGHTS).map(|(a, b)| a * b).sum();
    if board.side_to_move() == Side::Attackers {
        score
    } else {
        -score
    }
}

/// Every term (feature times weight) with its value from the attackers' point of view, and
/// the total from the side to move's point of view (what [`evaluate_family`] returns).
pub fn family_breakdown<G: Geometry>(
    board: &BoardOf<G>,
    rules: &Rules,
) -> (Vec<(&'static str, i32)>, i32) {
    let f = family_features(board, rules);
    let list = FAMILY_FEATURES
        .iter()
        .zip(f.iter().zip(&FAMILY_WEIGHTS))
        .map(|(&n, (&v, w))| (n, v * w))
        .collect();
    (list, evaluate_family(board, rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use konakis_core::board::{BRANDUBH_FEN, COPENHAGEN_FEN, START_FEN};
    use konakis_core::geometry::{Eleven, Nine, Seven};
    use konakis_core::{BoardSize, Piece, SquareOf, VARIANTS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The set-up of the size `G` among the ones the core knows.
    fn setup<G: Geometry>() -> &'static str {
        match G::SIDE {
            7 => BRANDUBH_FEN,
            9 => START_FEN,
            11 => COPENHAGEN_FEN,
            side => panic!("no set-up for {side}"),
        }
    }

    /// The rules to try on the size `G`: its presets, and Copenhagen's (corner escape) and Sea
    /// Battle's (edge escape, no throne) on its board, each with its start position.
    fn rule_sets<G: Geometry>() -> Vec<(String, Rules, String)> {
        let mut all: Vec<_> = VARIANTS
            .iter()
            .filter(|v| v.size.side() == G::SIDE)
            .map(|v| (v.id.to_string(), v.rules(), v.start_fen()))
            .collect();
        for (name, rules) in [
            ("copenhagen", Rules::copenhagen()),
            ("sea battle", Rules::opentafl_sea_battle()),
        ] {
            let mut board = BoardOf::<G>::from_fen(setup::<G>()).unwrap();
            board.set_side_to_move(rules.first_move);
            all.push((format!("{name} on {}", G::SIDE), rules, board.to_fen()));
        }
        all
    }

    /// A position string of the size `G` from pieces given by (file, rank), the side to move
    /// and the ply count.
    fn position<G: Geometry>(pieces: &[(usize, usize, Piece)], side: Side, plies: u32) -> String {
        let mut grid = vec![vec![None; G::SIDE]; G::SIDE];
        for &(file, rank, piece) in pieces {
            assert!(grid[rank][file].is_none(), "two pieces on {file},{rank}");
            grid[rank][file] = Some(piece);
        }
        let mut ranks = Vec::new();
        for rank in (0..G::SIDE).rev() {
            let (mut text, mut run) = (String::new(), 0);
            for square in &grid[rank] {
                match square {
                    None => run += 1,
                    Some(piece) => {
                        if run > 0 {
                            text += &run.to_string();
                            run = 0;
                        }
                        text.push(match piece {
                            Piece::Attacker => 'b',
                            Piece::Defender => 'w',
                            Piece::King => 'K',
                        });
                    }
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        let side = match side {
            Side::Attackers => 'b',
            Side::Defenders => 'w',
        };
        format!("{} {side} {plies}", ranks.join("/"))
    }

    /// The pieces of `board` by (file, rank).
    fn pieces<G: Geometry>(board: &BoardOf<G>) -> Vec<(usize, usize, Piece)> {
        let at = |sq: SquareOf<G>, piece| (sq.file() as usize, sq.rank() as usize, piece);
        let mut all: Vec<_> = board.attackers().map(|s| at(s, Piece::Attacker)).collect();
        all.extend(board.defenders().map(|s| at(s, Piece::Defender)));
        all.extend(board.king().map(|s| at(s, Piece::King)));
        all
    }

    /// A board of the size `G` from pieces given by (file, rank).
    fn board<G: Geometry>(pieces: &[(usize, usize, Piece)], side: Side) -> BoardOf<G> {
        BoardOf::from_fen(&position::<G>(pieces, side, 0)).unwrap()
    }

    /// Positions along random games under `rules` from `start`, the game not yet won; captures
    /// are preferred half the time, so that pieces come off and lines open.
    fn random_boards<G: Geometry>(rules: &Rules, start: &str, seed: u64) -> Vec<BoardOf<G>> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut boards = Vec::new();
        for _ in 0..6 {
            let mut b = BoardOf::<G>::from_fen(start).unwrap();
            for _ in 0..160 {
                if b.is_won(rules) {
                    break;
                }
                boards.push(b);
                let moves = b.legal_moves(rules).to_vec();
                if moves.is_empty() {
                    break;
                }
                let captures = b.capture_targets(rules);
                let taking: Vec<_> = moves.iter().filter(|m| captures.has(m.to())).collect();
                let mv = if !taking.is_empty() && rng.random_bool(0.5) {
                    *taking[rng.random_range(0..taking.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                b.play(rules, mv);
            }
        }
        boards
    }

    /// Runs `check` on random positions of every rule set of the size `G`.
    fn on_random_positions<G: Geometry>(check: &mut impl FnMut(&BoardOf<G>, &Rules, &str)) {
        for (i, (name, rules, start)) in rule_sets::<G>().iter().enumerate() {
            let boards = random_boards::<G>(rules, start, 100 * G::SIDE as u64 + i as u64);
            assert!(boards.len() > 100, "{name}: {}", boards.len());
            for b in &boards {
                check(b, rules, name);
            }
        }
    }

    fn breakdown_adds_up_on<G: Geometry>() {
        on_random_positions::<G>(&mut |b, rules, name| {
            let (list, total) = family_breakdown(b, rules);
            assert_eq!(list.len(), FAMILY_FEATURE_COUNT);
            let sum: i32 = list.iter().map(|&(_, v)| v).sum();
            let sign = if b.side_to_move() == Side::Attackers {
                1
            } else {
                -1
            };
            assert_eq!(sign * sum, total, "{name}: {}", b.to_fen());
            assert_eq!(total, evaluate_family(b, rules));
        });
    }

    #[test]
    fn breakdown_adds_up_to_evaluate_on_every_size() {
        breakdown_adds_up_on::<Seven>();
        breakdown_adds_up_on::<Nine>();
        breakdown_adds_up_on::<Eleven>();
    }

    fn sign_flips_on<G: Geometry>() {
        let mut seen_nonzero = 0;
        on_random_positions::<G>(&mut |b, rules, name| {
            let mut other = *b;
            other.set_side_to_move(b.side_to_move().opponent());
            let (e, o) = (evaluate_family(b, rules), evaluate_family(&other, rules));
            // Only the tempo term does not change sign with the side to move.
            assert_eq!(e + o, 2 * FAMILY_WEIGHTS[11], "{name}: {}", b.to_fen());
            seen_nonzero += usize::from(e != FAMILY_WEIGHTS[11]);
        });
        assert!(seen_nonzero > 100, "{seen_nonzero}");
    }

    #[test]
    fn the_sign_flips_with_the_side_to_move_on_every_size() {
        sign_flips_on::<Seven>();
        sign_flips_on::<Nine>();
        sign_flips_on::<Eleven>();
    }

    /// Symmetry `i` of the board's eight (0 the identity) applied to (file, rank): bit 0
    /// mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks.
    fn symmetry(i: usize, last: usize, (f, r): (usize, usize)) -> (usize, usize) {
        let f = if i & 1 != 0 { last - f } else { f };
        let r = if i & 2 != 0 { last - r } else { r };
        if i & 4 != 0 { (r, f) } else { (f, r) }
    }

    fn symmetric_on<G: Geometry>() {
        let mut checked = 0;
        on_random_positions::<G>(&mut |b, rules, name| {
            // Without a throne a soldier may stand on the middle square, which a position
            // string does not take: such positions are left out.
            let middle = SquareOf::<G>::THRONE;
            if b.attackers().has(middle) || b.defenders().has(middle) {
                return;
            }
            let features = family_features(b, rules);
            let ps = pieces(b);
            for i in 1..8 {
                let moved: Vec<_> = ps
                    .iter()
                    .map(|&(f, r, p)| {
                        let (f, r) = symmetry(i, G::LAST, (f, r));
                        (f, r, p)
                    })
                    .collect();
                let text = position::<G>(&moved, b.side_to_move(), b.plies());
                let image = BoardOf::<G>::from_fen(&text).unwrap();
                assert_eq!(
                    family_features(&image, rules),
                    features,
                    "{name}: {} and {text}",
                    b.to_fen()
                );
                assert_eq!(evaluate_family(&image, rules), evaluate_family(b, rules));
                checked += 1;
            }
        });
        assert!(checked > 1_000, "{checked}");
    }

    #[test]
    fn reflections_and_rotations_evaluate_the_same_on_every_size() {
        symmetric_on::<Seven>();
        symmetric_on::<Nine>();
        symmetric_on::<Eleven>();
    }

    /// The corners the king reaches in one or two moves, walked square by square: from each
    /// square he may move to, along each line over empty squares (his own square is empty once
    /// he has left it), a step at a time for a king who moves one square.
    fn plain_corners_in_two<G: Geometry>(b: &BoardOf<G>, rules: &Rules) -> i32 {
        let soldiers = b.attackers() | b.defenders();
        let corners = G::CORNERS;
        let mut reached = G::Set::ZERO;
        for s in b.king_moves(rules) {
            reached |= G::Set::bit(s.index()) & corners;
            for (df, dr) in [(0i32, 1i32), (1, 0), (0, -1), (-1, 0)] {
                let (mut f, mut r) = (s.file() as i32, s.rank() as i32);
                loop {
                    (f, r) = (f + df, r + dr);
                    let Some(next) =
                        SquareOf::<G>::from_coords(f as u8, r as u8).filter(|_| f >= 0 && r >= 0)
                    else {
                        break;
                    };
                    if soldiers.has(next) {
                        break;
                    }
                    reached |= G::Set::bit(next.index()) & corners;
                    if rules.king_moves_one_square {
                        break;
                    }
                }
            }
        }
        reached.count_ones() as i32
    }

    fn corners_agree_on<G: Geometry>() -> usize {
        let mut threats = 0;
        on_random_positions::<G>(&mut |b, rules, name| {
            let f = family_features(b, rules);
            if rules.escape == Escape::Corner && b.king().is_some() {
                assert_eq!(
                    f[3],
                    plain_corners_in_two(b, rules),
                    "{name}: {}",
                    b.to_fen()
                );
                threats += usize::from(f[3] > 0);
            } else {
                assert_eq!(f[3], 0, "{name}");
            }
        });
        threats
    }

    #[test]
    fn corners_in_two_moves_are_those_a_square_by_square_walk_finds() {
        for threats in [
            corners_agree_on::<Seven>(),
            corners_agree_on::<Nine>(),
            corners_agree_on::<Eleven>(),
        ] {
            assert!(threats > 50, "{threats}");
        }
    }

    /// On Tablut's board under Tablut's rules the terms the two evaluations share measure the
    /// same: the king's escape squares, the attackers next to him and near him, the defenders
    /// next to him, mobility, material and tempo.
    #[test]
    fn shared_terms_measure_what_tablut_s_evaluation_measures() {
        use crate::eval;
        for rules in [Rules::default(), Rules::saami_tablut()] {
            let boards = random_boards::<Nine>(&rules, START_FEN, 9);
            let mut escapes = 0;
            for b in &boards {
                let (f, t) = (family_features(b, &rules), eval::features(b, &rules));
                let pairs = [
                    (0, 0),
                    (1, 1),
                    (2, 2),
                    (7, 5),
                    (8, 6),
                    (9, 7),
                    (10, 8),
                    (11, 11),
                ];
                for (mine, tablut) in pairs {
                    assert_eq!(
                        f[mine],
                        t[tablut],
                        "{} {}",
                        FAMILY_FEATURES[mine],
                        b.to_fen()
                    );
                }
                escapes += usize::from(f[2] > 0);
            }
            assert!(escapes > 20, "{escapes}");
        }
    }

    #[test]
    fn features_count_what_they_name() {
        use Piece::{Attacker as A, Defender as D, King as K};
        let rules = Rules::copenhagen();
        // 11×11: the king on c3, attackers on b2, c4, a2, j10, c11 and k9, a defender on d3.
        let b = board::<Eleven>(
            &[
                (2, 2, K),
                (1, 1, A),
                (2, 3, A),
                (0, 1, A),
                (9, 9, A),
                (2, 10, A),
                (10, 8, A),
                (3, 2, D),
            ],
            Side::Attackers,
        );
        let f = family_features(&b, &rules);
        assert_eq!(f[0], 6, "attackers");
        assert_eq!(f[1], 1, "defenders");
        assert_eq!(f[2], 0, "king escape squares (corner escape)");
        // He reaches c2, c1, b3 and a3: c1 sees a1 and k1, a3 sees a11; k11 is out of reach.
        assert_eq!(f[3], 3, "corners in two moves");
        assert_eq!(f[4], 4, "king distance to corner");
        assert_eq!(f[5], 1, "attackers beside corners: a2");
        assert_eq!(f[6], 4, "attackers barring corners: b2, j10, c11, k9");
        assert_eq!(f[7], 1, "attackers next to king");
        assert_eq!(f[8], 1, "attackers near king");
        assert_eq!(f[9], 1, "defenders next to king");
        assert_eq!(f[11], 1, "tempo");
        // 7×7 with a king who moves one square (Magpie): on b2 he steps to b1 or a2, each
        // beside a1, and to c2 and b3, beside no corner.
        let magpie = Rules::opentafl_magpie();
        let b = board::<Seven>(
            &[(1, 1, K), (4, 4, A), (5, 5, A), (6, 5, A)],
            Side::Defenders,
        );
        let f = family_features(&b, &magpie);
        assert_eq!(f[3], 1, "corners in two moves of a one-square king");
        assert_eq!(f[4], 2, "king distance to corner");
        assert_eq!(f[5], 1, "attackers beside corners: g6");
        assert_eq!(f[6], 1, "attackers barring corners: f6");
        assert_eq!(f[11], -1, "tempo");
        // Edge escape, no throne (Sea Battle) on 9×9: the king on e5 sees the edge from every
        // square he reaches but those next to the soldiers that close his lines.
        let sea = Rules::opentafl_sea_battle();
        let b = board::<Nine>(&[(4, 4, K), (4, 7, A), (1, 4, D)], Side::Attackers);
        let f = family_features(&b, &sea);
        // Up e6 e7 (e8 taken): e6 sees a6..i6 and e7 too; down e4..e2 all see; left d5 c5
        // (b5 taken) see along their files; right f5..h5 see along their files.
        assert_eq!(f[2], 2 + 3 + 2 + 3, "king escape squares");
        assert_eq!(
            f[3] + f[4] + f[5] + f[6],
            0,
            "no corner terms under edge escape"
        );
    }

    fn squares<G: Geometry>(names: &str) -> Wide {
        names
            .split_whitespace()
            .map(|n| Wide::bit(n.parse::<SquareOf<G>>().unwrap().index()))
            .fold(Wide::ZERO, |a, b| a | b)
    }

    #[test]
    fn the_corner_masks_are_the_squares_beside_and_barring_each_corner_on_every_size() {
        assert_eq!(
            Masks::<Seven>::BESIDE_CORNERS,
            squares::<Seven>("a2 b1 f1 g2 a6 b7 f7 g6")
        );
        assert_eq!(
            Masks::<Seven>::BARRING_CORNERS,
            squares::<Seven>("b2 a3 c1 f2 g3 e1 b6 a5 c7 f6 g5 e7")
        );
        assert_eq!(
            Masks::<Nine>::BESIDE_CORNERS,
            squares::<Nine>("a2 b1 h1 i2 a8 b9 h9 i8")
        );
        assert_eq!(
            Masks::<Nine>::BARRING_CORNERS,
            squares::<Nine>("b2 a3 c1 h2 i3 g1 b8 a7 c9 h8 i7 g9")
        );
        assert_eq!(
            Masks::<Eleven>::BESIDE_CORNERS,
            squares::<Eleven>("a2 b1 j1 k2 a10 b11 j11 k10")
        );
        assert_eq!(
            Masks::<Eleven>::BARRING_CORNERS,
            squares::<Eleven>("b2 a3 c1 j2 k3 i1 b10 a9 c11 j10 k9 i11")
        );
    }

    /// Copenhagen's rules on the size `G`: a king one move from a corner scores better for
    /// the defenders than the same king boxed in by the same attackers.
    fn free_king_scores_better_on<G: Geometry>(rules: &Rules) {
        use Piece::{Attacker as A, Defender as D, King as K};
        let (m, last) = (G::MIDDLE, G::LAST);
        // The king on the a-file's middle square, the way up barred by an attacker: a1 is one
        // move away. Boxed, two more attackers stand beside him; free, they stand far off.
        let common = [(0, m, K), (0, m + 1, A), (m + 1, m, D), (m + 1, m + 1, D)];
        let boxed_at = [(0, m - 1, A), (1, m, A)];
        let free_at = [(last - 1, last - 2, A), (last - 2, last - 1, A)];
        for side in Side::BOTH {
            let boxed = board::<G>(&[&common[..], &boxed_at].concat(), side);
            let free = board::<G>(&[&common[..], &free_at].concat(), side);
            let attackers = |b: &BoardOf<G>| {
                let e = evaluate_family(b, rules);
                if side == Side::Attackers { e } else { -e }
            };
            assert!(
                attackers(&free) < attackers(&boxed),
                "{} {side:?}: free {} boxed {}",
                G::SIDE,
                attackers(&free),
                attackers(&boxed)
            );
        }
    }

    /// Edge escape on the size `G`: a king one move from the edge scores better for the
    /// defenders than the same king boxed in.
    fn king_near_the_edge_scores_better_on<G: Geometry>(rules: &Rules) {
        use Piece::{Attacker as A, King as K};
        let (m, last) = (G::MIDDLE, G::LAST);
        // The king on b-file's middle square: a-file's is the edge. Boxed, attackers close it.
        let common = [(1, m, K), (1, m + 1, A), (1, m - 1, A)];
        let boxed = board::<G>(
            &[&common[..], &[(0, m, A), (2, m, A)]].concat(),
            Side::Attackers,
        );
        let free = board::<G>(
            &[&common[..], &[(last, 1, A), (last, last - 1, A)]].concat(),
            Side::Attackers,
        );
        let (e_free, e_boxed) = (
            evaluate_family(&free, rules),
            evaluate_family(&boxed, rules),
        );
        assert!(
            e_free < e_boxed,
            "{}: free {e_free} boxed {e_boxed}",
            G::SIDE
        );
    }

    #[test]
    fn a_king_one_move_from_escape_scores_better_than_a_boxed_king_on_every_size() {
        for rules in [
            Rules::copenhagen(),
            Rules::opentafl_brandub(),
            Rules::opentafl_magpie(),
        ] {
            free_king_scores_better_on::<Seven>(&rules);
            free_king_scores_better_on::<Nine>(&rules);
            free_king_scores_better_on::<Eleven>(&rules);
        }
        for rules in [Rules::opentafl_sea_battle(), Rules::saami_tablut()] {
            king_near_the_edge_scores_better_on::<Seven>(&rules);
            king_near_the_edge_scores_better_on::<Nine>(&rules);
            king_near_the_edge_scores_better_on::<Eleven>(&rules);
        }
    }

    /// On each rule set's start of the size `G`, with either side to move: one soldier fewer
    /// (the first of its side from a1) scores worse for its side.
    fn a_piece_up_scores_better_on<G: Geometry>() {
        for (name, rules, start) in rule_sets::<G>() {
            for side in Side::BOTH {
                let mut full = BoardOf::<G>::from_fen(&start).unwrap();
                full.set_side_to_move(side);
                let attackers = |b: &BoardOf<G>| {
                    let e = evaluate_family(b, &rules);
                    if side == Side::Attackers { e } else { -e }
                };
                let all = pieces(&full);
                for lost in [Piece::Attacker, Piece::Defender] {
                    let gone = all.iter().position(|p| p.2 == lost).unwrap();
                    let mut fewer = all.clone();
                    fewer.remove(gone);
                    let fewer = board::<G>(&fewer, side);
                    let (before, after) = (attackers(&full), attackers(&fewer));
                    match lost {
                        Piece::Attacker => assert!(after < before, "{name}: {before} {after}"),
                        _ => assert!(after > before, "{name}: {before} {after}"),
                    }
                }
            }
        }
    }

    #[test]
    fn a_side_a_piece_up_scores_better_on_every_size() {
        a_piece_up_scores_better_on::<Seven>();
        a_piece_up_scores_better_on::<Nine>();
        a_piece_up_scores_better_on::<Eleven>();
    }

    fn start_of<G: Geometry>(fen: &str, rules: &Rules) -> (i32, Vec<(&'static str, i32)>) {
        let b = BoardOf::<G>::from_fen(fen).unwrap();
        let (list, total) = family_breakdown(&b, rules);
        (total, list)
    }

    #[test]
    fn every_preset_s_start_evaluates_within_three_soldiers() {
        for v in VARIANTS {
            let (rules, fen) = (v.rules(), v.start_fen());
            let (e, list) = match v.size {
                BoardSize::Seven => start_of::<Seven>(&fen, &rules),
                BoardSize::Nine => start_of::<Nine>(&fen, &rules),
                BoardSize::Eleven => start_of::<Eleven>(&fen, &rules),
                BoardSize::Thirteen => start_of::<konakis_core::geometry::Thirteen>(&fen, &rules),
            };
            assert!(e.abs() < 300, "{}: {e} {list:?}", v.id);
        }
    }
}
