//! The king's lines as a search looks at them: the paths of his open lines to the squares where
//! he escapes, the squares an attackers' move may use without endangering him, the moves that
//! could open a line for him or threaten him, and the defenders' parries of a threatened
//! capture. These are the rules' own views ([`BoardOf::king_moves`],
//! [`BoardOf::king_in_danger`]), not a simplification of them, on every board and under the
//! family's rules too (where a view has no cheap exact form there, it is the safe one: no
//! square calm, every move a possible threat).

use super::{BoardOf, MoveListOf};
use crate::bitboard::BitboardOf;
use crate::geometry::Geometry;
use crate::rules::{Escape, Rules};
use crate::types::{Direction, MoveOf, Side, SquareOf};

impl<G: Geometry> BoardOf<G> {
    /// The squares on which the king wins by arriving: the edge, or the corners under corner
    /// escape.
    #[inline(always)]
    pub fn escape_squares(rules: &Rules) -> BitboardOf<G> {
        if rules.family_rules() && rules.escape == Escape::Corner {
            BitboardOf::raw(G::CORNERS)
        } else {
            BitboardOf::EDGE
        }
    }

    /// The [`BoardOf::escape_squares`] the king reaches with one move: his moves that win at
    /// once. Empty when he has none (or is captured).
    #[inline]
    pub fn king_escapes(&self, rules: &Rules) -> BitboardOf<G> {
        if self.king == G::NO_KING {
            BitboardOf::EMPTY
        } else if rules.family_rules() {
            self.king_moves(rules) & Self::escape_squares(rules)
        } else {
            BitboardOf::raw(self.king_targets(rules)) & BitboardOf::EDGE
        }
    }

    /// The squares between the king and the edge (the corners under corner escape) along each
    /// line on which he can reach it now ([`BoardOf::king_moves`]: camps and a throne he may not cross wall a line), the
    /// edge squares included: where a piece must stand to stop his escape. Empty when he
    /// reaches no edge square (or is captured).
    pub fn escape_paths(&self, rules: &Rules) -> BitboardOf<G> {
        let Some(k) = self.king() else {
            return BitboardOf::EMPTY;
        };
        let reach = self.king_moves(rules);
        let escapes = Self::escape_squares(rules);
        if (reach & escapes).is_empty() {
            return BitboardOf::EMPTY;
        }
        // He may cross the empty throne where he may not stop on it.
        let crossable = if rules.king_passes_throne() && !self.occupied().has(SquareOf::THRONE) {
            reach | BitboardOf::from_square(SquareOf::THRONE)
        } else {
            reach
        };
        let mut paths = BitboardOf::EMPTY;
        for d in Direction::ALL {
            let mut ray = BitboardOf::EMPTY;
            let mut sq = k;
            while let Some(n) = sq.step(d).filter(|&n| crossable.has(n)) {
                ray.set(n);
                sq = n;
            }
            if escapes.has(sq) && reach.has(sq) {
                paths |= ray;
            }
        }
        paths
    }

    /// The squares an attackers' move that captures nothing may leave and reach without
    /// putting the king in danger, for sure: all but the king's neighbours when no square
    /// beside him would complete a capture (those squares are fixed by what stands beside him,
    /// and nothing beside him changes), none otherwise, and none on a defenders' move. None
    /// under the family's rules either, where a quiet move far from the king may still win (an
    /// enclosure) or capture (a shieldwall).
    #[inline]
    pub fn calm_squares(&self, rules: &Rules) -> BitboardOf<G> {
        match self.king() {
            Some(k)
                if self.side_to_move() == Side::Attackers
                    && !rules.family_rules()
                    && self.tablut_king_capture_squares(rules).is_empty() =>
            {
                !BitboardOf::around(k)
            }
            _ => BitboardOf::EMPTY,
        }
    }

    /// Is `sq` the king's square or on his rank or file? Only a move from such a square can
    /// open a line for him without capturing.
    #[inline]
    pub fn on_king_lines(&self, sq: SquareOf<G>) -> bool {
        self.king()
            .is_some_and(|k| k.file() == sq.file() || k.rank() == sq.rank())
    }

    /// Could the attackers' move `mv` create a threat to capture the king? Only a move from or
    /// to a rank or file through a square next to the king can: it arrives beside him, or on a
    /// line to the square that would complete the capture, or leaves such a line or square
    /// open. (A cheap filter; [`BoardOf::king_in_danger`] after the move decides.) Under the
    /// family's rules any move may: a quiet move far from the king may still win there.
    #[inline]
    pub fn may_threaten_king(&self, rules: &Rules, mv: MoveOf<G>) -> bool {
        let Some(k) = self.king() else {
            return false;
        };
        if rules.family_rules() {
            return true;
        }
        let near = |sq: SquareOf<G>| {
            sq.file().abs_diff(k.file()) <= 1 || sq.rank().abs_diff(k.rank()) <= 1
        };
        near(mv.from()) || near(mv.to())
    }

    /// The defenders' moves that stop every capture of the king threatened here, appended to
    /// `moves`. Every parry moves the king, captures, or stands in the way: those moves are
    /// tried, and kept where the threat is gone.
    pub fn parries(&self, rules: &Rules, moves: &mut MoveListOf<G>) {
        let first = moves.len();
        let targets = self.king_threat_blocks(rules) | self.capture_targets(rules);
        self.legal_moves_to(rules, targets, moves);
        if let Some(k) = self.king() {
            let king_targets = self.king_moves(rules) - targets;
            moves.extend(king_targets.map(|to| MoveOf::new(k, to)));
        }
        let mut keep = first;
        for j in first..moves.len() {
            let mut child = *self;
            child.play(rules, moves[j]);
            if !child.king_in_danger(rules) {
                moves[keep] = moves[j];
                keep += 1;
            }
        }
        moves.truncate(keep);
    }

    /// Do the defenders, whose king is in danger here, have one parry at most? (The count
    /// stops at the second.) The king's own moves are tried first: they are cheap to list and
    /// usually give two parries, so that the blocks and captures are seldom generated.
    pub fn at_most_one_parry(&self, rules: &Rules) -> bool {
        let Some(k) = self.king() else {
            return true;
        };
        let mut found = false;
        let mut parry = |m: MoveOf<G>| {
            let mut child = *self;
            child.play(rules, m);
            if child.king_in_danger(rules) {
                return false;
            }
            std::mem::replace(&mut found, true)
        };
        for to in self.king_moves(rules) {
            if parry(MoveOf::new(k, to)) {
                return false;
            }
        }
        // The soldiers' moves among the candidates of `parries`.
        let targets = self.king_threat_blocks(rules) | self.capture_targets(rules);
        let mut second = false;
        self.for_each_piece_moves(rules, |from, dests| {
            if from == k || second {
                return;
            }
            for to in dests & targets {
                if parry(MoveOf::new(from, to)) {
                    second = true;
                    return;
                }
            }
        });
        !second
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::board::Board;
    use crate::types::Square;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The escape paths are the squares between the king and each edge square he can move
    /// to, and nothing else: random games under every preset.
    #[test]
    fn escape_paths_are_the_squares_up_to_each_edge_square_the_king_reaches() {
        let mut rng = StdRng::seed_from_u64(9);
        let mut seen = 0;
        for preset in crate::rules::PRESETS {
            let rules = preset.rules();
            for _ in 0..30 {
                let mut board = Board::start(&rules);
                for _ in 0..150 {
                    let moves = board.legal_moves(&rules);
                    let Some(k) = board.king().filter(|_| !moves.is_empty()) else {
                        break;
                    };
                    let mut expected = Bitboard::EMPTY;
                    for e in board.king_moves(&rules) & Bitboard::EDGE {
                        // Step from the king to the edge square, each square on the way.
                        let step = |from: u8, to: u8| (to as i8 - from as i8).signum();
                        let (df, dr) = (step(k.file(), e.file()), step(k.rank(), e.rank()));
                        let mut sq = k;
                        while sq != e {
                            let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
                            sq = Square::from_coords(f as u8, r as u8).unwrap();
                            expected.set(sq);
                        }
                        seen += 1;
                    }
                    assert_eq!(board.escape_paths(&rules), expected, "{}", board.to_fen());
                    board.play(&rules, moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(seen > 1_000, "{seen}");
    }

    /// `Board::calm_squares` only spares `Board::king_in_danger`: in random games steered towards
    /// the king, under three rule families, no attackers' move between its squares that
    /// captures nothing puts the king in danger, and the sets are often not empty.
    #[test]
    fn a_move_between_calm_squares_never_puts_the_king_in_danger() {
        let mut english = Rules::default();
        english.set("KingCapture", "English").unwrap();
        let mut rng = StdRng::seed_from_u64(14);
        let (mut calm_moves, mut threats) = (0, 0);
        for rules in [Rules::default(), english, Rules::ashton()] {
            for _ in 0..100 {
                let mut board = Board::start(&rules);
                for _ in 0..200 {
                    let moves = board.legal_moves(&rules);
                    let Some(k) = board.king().filter(|_| !moves.is_empty()) else {
                        break;
                    };
                    let calm = board.calm_squares(&rules);
                    for &m in &moves {
                        let mut child = board;
                        let taken = child.play(&rules, m);
                        let danger = child.king_in_danger(&rules);
                        threats += usize::from(danger && board.side_to_move() == Side::Attackers);
                        if calm.has(m.from()) && calm.has(m.to()) && taken.is_empty() {
                            assert!(!danger, "{board:?} {m}");
                            calm_moves += 1;
                        }
                    }
                    // Mostly moves to within two squares of the king, so that he is crowded.
                    let m = crate::board::tests::move_near_king(&moves, k, 0.7, &mut rng);
                    board.play(&rules, m);
                }
            }
        }
        assert!(
            calm_moves > 10_000 && threats > 1_000,
            "{calm_moves} {threats}"
        );
    }
}
