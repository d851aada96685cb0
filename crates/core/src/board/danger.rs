//! King danger: where an attacker arriving would capture the king, and whether one can get
//! there with its next move. The search uses these as a chess engine uses "in check": a
//! defenders' position whose king can be taken next move is never pruned as quiet, and an
//! attackers' move that creates the threat is searched like a check.
//!
//! Both tests follow [`BoardOf::play`]'s capture rule exactly (a unit test plays every
//! attackers' move on random crowded positions under every rule option and compares), so they
//! hold under every reading: custodial capture by two with Ashton's camps as anvils, four on
//! the throne and three beside it, and four everywhere under `KingCapture=English`.

use super::{BoardOf, camps};
use crate::bitboard::BitboardOf;
use crate::geometry::Geometry;
use crate::geometry::SquareSet;
use crate::rules::{KingCapture, Rules};
use crate::types::{MoveOf, Side, SquareOf};

impl<G: Geometry> BoardOf<G> {
    /// The empty squares on which an attacker arriving would capture the king, as the board
    /// stands (whichever side is to move). Empty once the king is captured or on the edge
    /// (an encirclement is not looked at).
    ///
    /// Where the king is taken by surrounding (on or beside the throne, or everywhere under
    /// `KingCapture=English`) this is the one open square of his ring when all the others hold
    /// attackers; elsewhere it is each empty neighbour whose opposite neighbour holds an
    /// attacker (or, under Ashton, is a camp square).
    #[inline]
    pub fn king_capture_squares(&self, rules: &Rules) -> BitboardOf<G> {
        if rules.family_rules() {
            return self.family_king_capture_squares();
        }
        self.tablut_king_capture_squares(rules)
    }

    /// [`BoardOf::king_capture_squares`] under Tablut's rules (not [`Rules::family_rules`]).
    #[inline]
    pub(super) fn tablut_king_capture_squares(&self, rules: &Rules) -> BitboardOf<G> {
        // Not `is_won`: the encirclement rule does not matter here, and is slow to test.
        let neighbours = G::king_neighbours(self.king as usize);
        if neighbours == G::Set::ZERO {
            return BitboardOf::EMPTY;
        }
        let occ = self.att | self.def;
        if rules.king_capture == KingCapture::English
            || G::bit(self.king as usize) & (G::THRONE_BIT | G::THRONE_RING) != G::Set::ZERO
        {
            let open = G::king_ring(self.king as usize) & !self.att;
            return if open.count_ones() == 1 && open & occ == G::Set::ZERO {
                BitboardOf::raw(open)
            } else {
                BitboardOf::EMPTY
            };
        }
        // Away from the throne the king is inside the edge, so all four neighbours exist: each
        // empty one whose opposite neighbour is an anvil completes a capture. The square
        // opposite a neighbour lies two files or two ranks from it; the shifts that carry a
        // neighbour elsewhere land off the king's neighbours.
        let anvils = (self.att | camps::<G>(rules)) & neighbours;
        let across = anvils >> (2 * G::SIDE) | anvils << (2 * G::SIDE) | anvils >> 2 | anvils << 2;
        BitboardOf::raw(across & neighbours & !occ)
    }

    /// The squares of [`BoardOf::king_capture_squares`] that an attacker can move to with one
    /// legal move, as if the attackers were to move: where the king can be captured next
    /// move. Empty when there is no such threat.
    #[inline]
    pub fn king_capture_threats(&self, rules: &Rules) -> BitboardOf<G> {
        if rules.family_rules() {
            return self.family_king_capture_threats(rules, self.family_king_capture_squares());
        }
        let squares = self.tablut_king_capture_squares(rules);
        if squares.is_empty() {
            return squares;
        }
        self.threats_and_paths::<false>(rules, squares).0
    }

    /// [`BoardOf::king_capture_squares`] under the family's rules: every empty square beside
    /// the king, on the edge too (where the family's kings are not safe), a superset that
    /// [`BoardOf::king_capture_threats`] tests move by move.
    #[inline(never)]
    fn family_king_capture_squares(&self) -> BitboardOf<G> {
        if self.king == G::NO_KING {
            return BitboardOf::EMPTY;
        }
        BitboardOf::raw(G::around(self.king as usize) & !(self.att | self.def))
    }

    /// [`BoardOf::king_capture_threats`] under the family's rules, whose king captures have
    /// no short form here: each of the capture `squares` an attacker can reach with a legal
    /// move is tried, and kept where that move takes the king.
    #[inline(never)]
    fn family_king_capture_threats(&self, rules: &Rules, squares: BitboardOf<G>) -> BitboardOf<G> {
        let mut as_attackers = *self;
        as_attackers.side = Side::Attackers;
        let occ = self.att | self.def | G::bit(self.king as usize);
        let mut threats = BitboardOf::EMPTY;
        for s in squares {
            for d in 0..4 {
                let mut sq = s.index();
                let from = loop {
                    sq = G::neighbour(sq, d) as usize;
                    if sq == G::NO_KING as usize || occ & G::bit(sq) != G::Set::ZERO {
                        break sq;
                    }
                };
                if from == G::NO_KING as usize || self.att & G::bit(from) == G::Set::ZERO {
                    continue;
                }
                let mv = MoveOf::new(SquareOf::from_index(from), s);
                if as_attackers.is_legal(rules, mv) {
                    let mut child = as_attackers;
                    child.play(rules, mv);
                    if child.king().is_none() {
                        threats.set(s);
                        break;
                    }
                }
            }
        }
        threats
    }

    /// The squares where a defender arriving stops at least one of the
    /// [`BoardOf::king_capture_threats`]: each threatened square, and the squares between it and
    /// an attacker that can slide there. (Capturing an attacker involved, or moving the king,
    /// are the other parries.)
    ///
    /// Out of line, as the search called it before the board was generic: a generic function
    /// is compiled in the crate that calls it, where it may otherwise be inlined.
    #[inline(never)]
    pub fn king_threat_blocks(&self, rules: &Rules) -> BitboardOf<G> {
        // Under the family's rules, the threats themselves (found move by move).
        let squares = if rules.family_rules() {
            self.family_king_capture_threats(rules, self.family_king_capture_squares())
        } else {
            self.tablut_king_capture_squares(rules)
        };
        if squares.is_empty() {
            return squares;
        }
        let (threats, paths) = self.threats_and_paths::<true>(rules, squares);
        // No defender may stop on the throne.
        threats | (paths - BitboardOf::THRONE)
    }

    /// Of the capture `squares` (not empty), those an attacker can reach with one legal move,
    /// and, with `PATHS`, the empty squares between them and the attackers that can reach them.
    ///
    /// Out of line: most positions have no capture square, and the callers' quick exit is
    /// what the search runs.
    #[inline(never)]
    fn threats_and_paths<const PATHS: bool>(
        &self,
        rules: &Rules,
        squares: BitboardOf<G>,
    ) -> (BitboardOf<G>, BitboardOf<G>) {
        let occ = self.att | self.def | G::bit(self.king as usize);
        // A slide over empty squares that touches neither a camp nor the throne is legal
        // for any soldier on a board where the game goes on; one that touches them, or any
        // move where encirclement may have ended the game, is left to `is_legal`.
        let walls = camps::<G>(rules) | G::THRONE_BIT;
        let plain = !rules.encirclement;
        let (mut threats, mut paths) = (BitboardOf::EMPTY, BitboardOf::EMPTY);
        for s in squares {
            // Only an attacker on the square's rank or file can get there.
            if G::lines(s.index()) & self.att == G::Set::ZERO {
                continue;
            }
            // The nearest piece along each line from `s` is the only one that might slide
            // there.
            for d in 0..4 {
                let mut ray = G::Set::ZERO;
                let mut sq = s.index();
                let reaches = loop {
                    sq = G::neighbour(sq, d) as usize;
                    if sq == G::NO_KING as usize {
                        break false;
                    }
                    let here = G::bit(sq);
                    if occ & here != G::Set::ZERO {
                        break self.att & here != G::Set::ZERO
                            && if plain && (ray | G::bit(s.index())) & walls == G::Set::ZERO {
                                true
                            } else {
                                let mut as_attackers = *self;
                                as_attackers.side = Side::Attackers;
                                as_attackers
                                    .is_legal(rules, MoveOf::new(SquareOf::from_index(sq), s))
                            };
                    }
                    ray |= here;
                };
                if reaches {
                    threats.set(s);
                    if !PATHS {
                        break;
                    }
                    paths.0 |= ray;
                }
            }
        }
        (threats, paths)
    }

    /// Empty squares where an attacker arriving is likely to threaten the king: those with a
    /// clear line to a square of [`BoardOf::king_capture_squares`], and those next to him. For
    /// move ordering only; [`BoardOf::king_in_danger`] after the move decides.
    ///
    /// Out of line, as the search called it before the board was generic (see
    /// [`BoardOf::king_threat_blocks`]).
    #[inline(never)]
    pub fn king_threat_approaches(&self, rules: &Rules) -> BitboardOf<G> {
        let Some(k) = self.king() else {
            return BitboardOf::EMPTY;
        };
        let occ = self.att | self.def | G::bit(self.king as usize);
        let mut squares = BitboardOf::raw(BitboardOf::around(k).0 & !occ);
        for s in self.king_capture_squares(rules) {
            for d in 0..4 {
                let mut sq = s.index();
                loop {
                    sq = G::neighbour(sq, d) as usize;
                    if sq == G::NO_KING as usize || occ.has(sq) {
                        break;
                    }
                    squares.set(SquareOf::from_index(sq));
                }
            }
        }
        squares - BitboardOf::THRONE
    }

    /// Whether the attackers could capture the king with one move if it were their turn.
    #[inline]
    pub fn king_in_danger(&self, rules: &Rules) -> bool {
        !self.king_capture_threats(rules).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::board::Board;
    use crate::geometry::LAST;
    use crate::geometry::{Nine, SIDE, SQUARES};
    use crate::rules::Rules;
    use crate::types::Piece;
    use crate::types::Square;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Every rule family whose king capture differs: the default reading, English capture,
    /// the throne options, the hub's and the encyclopedia's readings, OpenTafl's and Ashton.
    fn rule_families() -> Vec<Rules> {
        let mut english = Rules::default();
        english.set("KingCapture", "English").unwrap();
        let mut hostile = Rules::default();
        hostile.set("ThroneHostile", "true").unwrap();
        let mut walled = Rules::default();
        walled.set("ThronePassable", "false").unwrap();
        walled.set("KingReentersThrone", "false").unwrap();
        vec![
            Rules::default(),
            english,
            hostile,
            walled,
            Rules::tafl_hub(),
            Rules::encyclopedia(),
            Rules::opentafl(),
            Rules::ashton(),
        ]
    }

    /// A random position with attackers crowded around the king, so that threats are common.
    fn crowded_position(rng: &mut StdRng, side: Side) -> Board {
        let mut cells = ['.'; SQUARES];
        let king: usize = if rng.random_bool(0.3) {
            // On or beside the throne, where surrounding takes the king.
            [40, 31, 39, 41, 49][rng.random_range(0..5)]
        } else {
            rng.random_range(1..LAST) * SIDE + rng.random_range(1..LAST)
        };
        cells[king] = 'K';
        let near: Vec<usize> = (0..SQUARES)
            .filter(|&sq| {
                let (f, r) = (sq % SIDE, sq / SIDE);
                let (kf, kr) = (king % SIDE, king / SIDE);
                f.abs_diff(kf) <= 2 && r.abs_diff(kr) <= 2
            })
            .collect();
        for _ in 0..rng.random_range(2..7) {
            let sq = near[rng.random_range(0..near.len())];
            if cells[sq] == '.' && sq != Square::THRONE.index() {
                cells[sq] = 'b';
            }
        }
        for (piece, count) in [
            ('b', rng.random_range(2..10)),
            ('w', rng.random_range(0..5)),
        ] {
            for _ in 0..count {
                let sq = rng.random_range(0..SQUARES);
                if cells[sq] == '.' && sq != Square::THRONE.index() {
                    cells[sq] = piece;
                }
            }
        }
        let mut board = Board::empty(side);
        for (sq, &c) in cells.iter().enumerate() {
            let piece = match c {
                'K' => Piece::King,
                'b' => Piece::Attacker,
                'w' => Piece::Defender,
                _ => continue,
            };
            board.put(piece, Square::from_index(sq));
        }
        board
    }

    /// The obvious version of [`Board::king_capture_squares`]: put an attacker on each empty
    /// square next to the king and apply the capture rule of an arriving attacker.
    fn capture_squares_slow(board: &Board, rules: &Rules) -> Bitboard {
        let mut squares = Bitboard::EMPTY;
        let Some(k) = board.king().filter(|k| !k.is_edge()) else {
            return squares;
        };
        for s in Bitboard::around(k) {
            if board.piece_at(s).is_some() || s == Square::THRONE {
                continue;
            }
            let mut b = *board;
            b.att |= 1u128 << s.index();
            b.att_t |= Nine::bit_t(s.index());
            let mut hash = 0;
            b.attacker_captures(rules, s.index(), &mut hash);
            if b.king().is_none() {
                squares.set(s);
            }
        }
        squares
    }

    /// The obvious version of [`Board::king_capture_threats`]: play every attackers' move and
    /// keep the destinations of those that capture the king.
    fn capture_threats_slow(board: &Board, rules: &Rules) -> Bitboard {
        let mut b = *board;
        if b.side_to_move() != Side::Attackers {
            b.pass();
        }
        let mut threats = Bitboard::EMPTY;
        for m in b.legal_moves(rules) {
            let mut child = b;
            child.play(rules, m);
            if child.king().is_none() {
                threats.set(m.to());
            }
        }
        threats
    }

    /// The obvious version of [`Board::king_threat_blocks`]: the empty squares where a defender
    /// placed would leave fewer attackers' moves that capture the king.
    fn threat_blocks_slow(board: &Board, rules: &Rules) -> Bitboard {
        let capturing = |b: &Board| {
            let mut b = *b;
            if b.side_to_move() != Side::Attackers {
                b.pass();
            }
            b.legal_moves(rules)
                .into_iter()
                .filter(|&m| {
                    let mut child = b;
                    child.play(rules, m);
                    child.king().is_none()
                })
                .count()
        };
        let before = capturing(board);
        let mut blocks = Bitboard::EMPTY;
        if before == 0 {
            return blocks;
        }
        for sq in !board.occupied() {
            if sq == Square::THRONE {
                continue;
            }
            let mut b = *board;
            b.def |= 1u128 << sq.index();
            b.def_t |= Nine::bit_t(sq.index());
            if capturing(&b) < before {
                blocks.set(sq);
            }
        }
        blocks
    }

    #[test]
    fn capture_squares_and_threats_agree_with_playing_every_move_under_every_rule_family() {
        let mut rng = StdRng::seed_from_u64(14);
        for rules in rule_families() {
            let mut seen_threats = 0;
            for i in 0..3000 {
                let side = if i % 2 == 0 {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                let board = crowded_position(&mut rng, side);
                assert_eq!(
                    board.king_capture_squares(&rules),
                    capture_squares_slow(&board, &rules),
                    "{board:?} under {rules}"
                );
                let threats = board.king_capture_threats(&rules);
                assert_eq!(
                    threats,
                    capture_threats_slow(&board, &rules),
                    "{board:?} under {rules}"
                );
                assert_eq!(board.king_in_danger(&rules), !threats.is_empty());
                if i % 4 < 2 {
                    assert_eq!(
                        board.king_threat_blocks(&rules),
                        threat_blocks_slow(&board, &rules),
                        "{board:?} under {rules}"
                    );
                }
                seen_threats += usize::from(!threats.is_empty());
            }
            // The generator must exercise the threats, not only their absence.
            assert!(seen_threats >= 100, "{seen_threats} threats under {rules}");
        }
    }

    #[test]
    fn a_king_on_the_throne_is_in_danger_only_with_three_sides_held_and_the_fourth_reachable() {
        let rules = Rules::default();
        // Attackers on d5, f5 and e6; one on e2 can reach e4 up the file.
        let board = Board::from_fen("9/9/9/4b4/3bKb3/9/9/4b4/9 b").unwrap();
        let e4 = Square::from_coords(4, 3).unwrap();
        assert_eq!(
            board.king_capture_squares(&rules),
            Bitboard::from_square(e4)
        );
        assert!(board.king_in_danger(&rules));
        // A defender on e3 blocks the way: the square still completes a capture, but no
        // attacker can get there.
        let blocked = Board::from_fen("9/9/9/4b4/3bKb3/9/4w4/4b4/9 b").unwrap();
        assert_eq!(
            blocked.king_capture_squares(&rules),
            Bitboard::from_square(e4)
        );
        assert!(!blocked.king_in_danger(&rules));
    }

    #[test]
    fn under_ashton_a_camp_square_beyond_the_king_is_an_anvil() {
        let rules = Rules::ashton();
        // The king on e3, above the camp square e2; the attacker on c4 slides to e4.
        let board = Board::from_fen("9/9/9/9/9/2b6/4K4/9/9 b").unwrap();
        let e4 = Square::from_coords(4, 3).unwrap();
        assert_eq!(
            board.king_capture_threats(&rules),
            Bitboard::from_square(e4)
        );
        assert!(!board.king_in_danger(&Rules::default()));
    }

    /// Under every preset of the family, on its own board, the king's capture threats are
    /// exactly the squares where one of the attackers' legal moves takes him (every move
    /// tried), and the blocks hold them: random games steered towards the king.
    #[test]
    fn family_king_threats_are_the_squares_where_an_attackers_move_takes_the_king() {
        use crate::geometry::{Eleven, Seven};
        use crate::rules::{BoardSize, VARIANTS};
        fn check<G: Geometry>(variant: &crate::rules::Variant, rng: &mut StdRng) -> usize {
            let rules = variant.rules();
            let start = BoardOf::<G>::from_fen(&variant.start_fen()).unwrap();
            let mut found = 0;
            for _ in 0..40 {
                let mut board = start;
                for _ in 0..160 {
                    let moves = board.legal_moves(&rules);
                    let Some(k) = board.king().filter(|_| !moves.is_empty()) else {
                        break;
                    };
                    let mut as_attackers = board;
                    as_attackers.side = Side::Attackers;
                    let mut expected = BitboardOf::<G>::EMPTY;
                    for m in as_attackers.legal_moves(&rules) {
                        let mut child = as_attackers;
                        child.play(&rules, m);
                        if child.king().is_none() {
                            expected.set(m.to());
                        }
                    }
                    let fen = board.to_fen();
                    assert_eq!(
                        board.king_capture_threats(&rules),
                        expected,
                        "{} {fen}",
                        variant.id
                    );
                    assert_eq!(board.king_in_danger(&rules), !expected.is_empty());
                    assert_eq!(
                        board.king_threat_blocks(&rules) & expected,
                        expected,
                        "{} {fen}",
                        variant.id
                    );
                    found += expected.len() as usize;
                    let m = crate::board::tests::move_near_king(&moves, k, 0.6, rng);
                    board.play(&rules, m);
                }
            }
            found
        }
        let mut rng = StdRng::seed_from_u64(45);
        for variant in VARIANTS.iter().filter(|v| v.rules().family_rules()) {
            let found = match variant.size {
                BoardSize::Seven => check::<Seven>(variant, &mut rng),
                BoardSize::Nine => check::<Nine>(variant, &mut rng),
                BoardSize::Eleven => check::<Eleven>(variant, &mut rng),
                BoardSize::Thirteen => check::<crate::geometry::Thirteen>(variant, &mut rng),
            };
            assert!(found > 20, "{}: {found} threats", variant.id);
        }
    }
}
