//! The sum over all legal moves of the number of replies to each: perft's last two plies,
//! counted without playing the quiet moves.

use super::mobility::count_line;
use super::movegen::{slide_targets, soldier_walls};
use super::{BoardOf, camp_walls, camps};
use crate::bitboard::BitboardOf;
use crate::geometry::Geometry;
use crate::geometry::SquareSet;
use crate::rules::Rules;
use crate::types::{MoveOf, Side, SquareOf};
use smallvec::SmallVec;

impl<G: Geometry> BoardOf<G> {
    /// The sum over all legal moves of the number of legal moves after it: perft's last two
    /// plies.
    ///
    /// A move that cannot capture and does not end the game changes only the lines through its
    /// two squares, so the opponent's moves after it are the opponent's per-line counts here with
    /// those (at most three) lines counted again. Other moves are played and counted in full.
    pub(crate) fn count_replies(&self, rules: &Rules) -> u64 {
        if rules.family_rules() {
            return self.family_count_replies(rules);
        }
        // Compiled twice, so that rules without camps run none of the camps' code: with the
        // camp checks in its move loop Linnaeus perft(5) was 3-4 % slower.
        if camps::<G>(rules) == G::Set::ZERO {
            self.count_replies_in::<false>(rules)
        } else {
            self.count_replies_in::<true>(rules)
        }
    }

    /// [`BoardOf::count_replies`], compiled without the camps when `CAMPS` is false.
    fn count_replies_in<const CAMPS: bool>(&self, rules: &Rules) -> u64 {
        if self.tablut_is_won(rules) {
            return 0;
        }
        let me = self.side;
        let opp = me.opponent();
        let (block, block_t) = self.soldier_blockers(rules);
        let forced = soldier_walls::<G>(rules);
        let camps = if CAMPS {
            camps::<G>(rules)
        } else {
            G::Set::ZERO
        };
        // The opponent's soldiers outside the camps, line by line.
        let (om, om_t) = match opp {
            Side::Attackers => (self.att & !camps, self.att_t & !camps),
            Side::Defenders => (self.def & !camps, self.def_t & !camps),
        };
        let mut ranks = G::LineCounts::default();
        let mut files = G::LineCounts::default();
        let mut base = 0;
        for line in 0..G::SIDE {
            ranks[line] = count_line::<G>(block, om, line);
            files[line] = count_line::<G>(block_t, om_t, line);
            base += ranks[line] + files[line];
        }
        // Under Ashton, the opponent's soldiers still in a camp see their own camp open: one
        // set of lines per camp.
        let mut in_camps: SmallVec<[LineMobility<G>; 4]> = SmallVec::new();
        if CAMPS {
            let (om, om_t) = match opp {
                Side::Attackers => (self.att & camps, self.att_t & camps),
                Side::Defenders => (self.def & camps, self.def_t & camps),
            };
            for middle in BitboardOf::<G>::CAMP_MIDDLES {
                let (camp, camp_t) = (G::camp_of(middle.index()), G::camp_of_t(middle.index()));
                if om & camp != G::Set::ZERO {
                    let (b, bt) = self.camp_blockers(middle.index(), block, block_t);
                    let (w, wt) = (forced & !camp, forced & !camp_t);
                    in_camps.push(LineMobility::new(b, bt, w, wt, om & camp, om_t & camp_t));
                }
            }
        }
        // Moves that may capture take the full path, and so do attackers' moves next to the
        // king, who might be taken.
        let near_king = match me {
            Side::Attackers => {
                BitboardOf::<G>::raw(G::bit(self.king as usize))
                    .neighbours()
                    .0
            }
            Side::Defenders => G::Set::ZERO,
        };
        let captures = self.tablut_capture_targets(rules).0 | near_king;
        let king = SquareOf::<G>::new(self.king);
        // The king's walls (the throne if he may not cross it, and the camps) and the squares
        // he may stop on, read once from the rules instead of once per move.
        let (camp_w, camp_wt) = match king {
            Some(k) if CAMPS => camp_walls::<G>(rules, k.index()),
            _ => (G::Set::ZERO, G::Set::ZERO),
        };
        let throne_w = if rules.king_passes_throne() {
            G::Set::ZERO
        } else {
            G::THRONE_BIT
        };
        let (king_w, king_wt) = (camp_w | throne_w, camp_wt | throne_w);
        let king_stops = if rules.king_reenters_throne {
            !G::Set::ZERO
        } else {
            !(G::THRONE_BIT)
        };
        let mut total = 0u64;
        self.tablut_for_each_piece_moves_in::<CAMPS>(rules, |from, dests| {
            let is_king = Some(from) == king;
            let full = if rules.encirclement {
                dests.0
            } else if is_king {
                G::EDGE
                    | if rules.king_armed {
                        captures
                    } else {
                        G::Set::ZERO
                    }
            } else {
                captures
            };
            for to in BitboardOf::<G>::raw(dests.0 & full) {
                let mut child = *self;
                child.tablut_play(rules, MoveOf::new(from, to));
                total += child.count_moves_out_of_line::<CAMPS>(rules) as u64;
            }
            let (fr, ff) = (from.rank() as usize, from.file() as usize);
            let (fb, ft) = (
                G::Set::bit(from.index()),
                G::Set::bit(G::transpose(from.index())),
            );
            for to in BitboardOf::<G>::raw(dests.0 & !full) {
                let (tr, tf) = (to.rank() as usize, to.file() as usize);
                let moved = fb | G::bit(to.index());
                let moved_t = ft | G::bit_t(to.index());
                // Toggling both squares empties the origin and fills the destination; a wall
                // stays a wall whichever of them it is.
                let cb = (block ^ moved) | forced;
                let cbt = (block_t ^ moved_t) | forced;
                let mut n = base - ranks[fr] - files[ff]
                    + count_line::<G>(cb, om, fr)
                    + count_line::<G>(cbt, om_t, ff);
                if tr != fr {
                    n = n - ranks[tr] + count_line::<G>(cb, om, tr);
                }
                if tf != ff {
                    n = n - files[tf] + count_line::<G>(cbt, om_t, tf);
                }
                if CAMPS {
                    for camp in &in_camps {
                        n += camp.after(moved, moved_t, (fr, ff), (tr, tf));
                    }
                }
                if let (Side::Defenders, Some(k)) = (opp, king) {
                    let dests = slide_targets(
                        k,
                        (self.att ^ moved) | self.def | king_w,
                        (self.att_t ^ moved_t) | self.def_t | king_wt,
                    );
                    n += (dests & king_stops).count_ones();
                }
                total += n as u64;
            }
        });
        total
    }

    /// [`BoardOf::count_moves_in`] as a call: inlined into `count_replies`' move loop it slows
    /// that loop down (Linnaeus perft(5) about 3 % slower in interleaved runs of both builds,
    /// although it runs fewer instructions).
    #[inline(never)]
    fn count_moves_out_of_line<const CAMPS: bool>(&self, rules: &Rules) -> u32 {
        self.tablut_count_moves_in::<CAMPS>(rules)
    }

    /// [`BoardOf::count_replies`] under the family's rules: every move played and its replies
    /// counted.
    #[inline(never)]
    fn family_count_replies(&self, rules: &Rules) -> u64 {
        let mut total = 0u64;
        self.for_each_piece_moves(rules, |from, dests| {
            for to in dests {
                let mut child = *self;
                child.play(rules, MoveOf::new(from, to));
                total += child.count_moves(rules) as u64;
            }
        });
        total
    }
}

/// Ashton: the opponent's soldiers in one camp, which see the walls of the other camps only,
/// with their moves counted line by line for [`BoardOf::count_replies`] (as it counts the
/// soldiers outside the camps), so that after a quiet move only the (at most four) lines
/// through its two squares are counted again.
struct LineMobility<G: Geometry> {
    /// Blockers by rank: the pieces and the walls.
    block: G::Set,
    /// Blockers, transposed.
    block_t: G::Set,
    /// Squares that block whether or not a piece stands there, by rank.
    walls: G::Set,
    /// The walls, transposed.
    walls_t: G::Set,
    movers: G::Set,
    movers_t: G::Set,
    ranks: G::LineCounts,
    files: G::LineCounts,
    total: u32,
}

impl<G: Geometry> LineMobility<G> {
    #[inline]
    fn new(
        block: G::Set,
        block_t: G::Set,
        walls: G::Set,
        walls_t: G::Set,
        movers: G::Set,
        movers_t: G::Set,
    ) -> Self {
        let mut m = LineMobility::<G> {
            block,
            block_t,
            walls,
            walls_t,
            movers,
            movers_t,
            ranks: G::LineCounts::default(),
            files: G::LineCounts::default(),
            total: 0,
        };
        for line in 0..G::SIDE {
            m.ranks[line] = count_line::<G>(block, movers, line);
            m.files[line] = count_line::<G>(block_t, movers_t, line);
            m.total += m.ranks[line] + m.files[line];
        }
        m
    }

    /// The movers' number of moves after a move that captures nothing and moves none of them:
    /// `moved` (`moved_t` transposed) holds its two squares, `from` and `to` their (rank,
    /// file). Only the lines through them are counted again.
    #[inline]
    fn after(
        &self,
        moved: G::Set,
        moved_t: G::Set,
        from: (usize, usize),
        to: (usize, usize),
    ) -> u32 {
        let ((fr, ff), (tr, tf)) = (from, to);
        let cb = (self.block ^ moved) | self.walls;
        let cbt = (self.block_t ^ moved_t) | self.walls_t;
        let mut n = self.total - self.ranks[fr] - self.files[ff]
            + count_line::<G>(cb, self.movers, fr)
            + count_line::<G>(cbt, self.movers_t, ff);
        if tr != fr {
            n = n - self.ranks[tr] + count_line::<G>(cb, self.movers, tr);
        }
        if tf != ff {
            n = n - self.files[tf] + count_line::<G>(cbt, self.movers_t, tf);
        }
        n
    }
}
