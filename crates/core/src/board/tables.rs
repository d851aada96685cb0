//! The tables of each board size, all computed at compile time: one set of `static`s a size,
//! built by the same `const fn`s from the size's side, and read through the size's
//! [`Geometry`] methods (which the compiler inlines, so that a read is the same indexed load
//! whatever the size).
//!
//! A line is a mask of `side` bits, bit `i` for the square at position `i` along it. Files are
//! read from the transposed bitboards the board keeps, so one set of line tables serves ranks
//! and files.

use crate::geometry::{MovedSet, NotKept, SquareSet, Wide};
use crate::zobrist;

/// `[p][occ]`: the squares a piece at position `p` reaches along a line whose occupied squares
/// are `occ` (the piece's own bit is ignored): empty squares up to the first blocker.
const fn make_slides<const SIDE: usize, const PATTERNS: usize>() -> [[u16; PATTERNS]; SIDE] {
    let mut t = [[0u16; PATTERNS]; SIDE];
    let mut p = 0;
    while p < SIDE {
        let mut occ = 0;
        while occ < PATTERNS {
            let mut bits = 0u16;
            let mut i = p + 1;
            while i < SIDE && occ & (1 << i) == 0 {
                bits |= 1 << i;
                i += 1;
            }
            let mut i = p as i32 - 1;
            while i >= 0 && occ & (1 << i) == 0 {
                bits |= 1 << i;
                i -= 1;
            }
            t[p][occ] = bits;
            occ += 1;
        }
        p += 1;
    }
    t
}

/// `[mask]`: the line mask read as base-3 digits (bit `i` → 3^i). A line's state as one number
/// is `TERNARY[occupied] + TERNARY[movers]`: digit 0 empty, 1 another piece, 2 a piece of the
/// side being counted. (Built for the sizes whose states fit in a `u16`.)
const fn make_ternary<const SIDE: usize, const PATTERNS: usize>() -> [u16; PATTERNS] {
    let mut t = [0u16; PATTERNS];
    let mut m = 0;
    while m < PATTERNS {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut i = 0;
        while i < SIDE {
            if m & (1 << i) != 0 {
                v += pow;
            }
            if i + 1 < SIDE {
                pow *= 3;
            }
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

/// `[state]`: how many moves the side's pieces have along a line in that ternary state (see
/// [`make_ternary`]); with `throne`, for the middle line, whose centre square may be crossed
/// but not stopped on when empty (when it may not be crossed, the caller marks it occupied).
/// `TABLE` is the power of two above the number of states, so that a state masked with
/// `TABLE - 1` (which leaves it unchanged) is an index the compiler knows to be in bounds; the
/// entries past the states are never read.
const fn make_line_moves<const SIDE: usize, const TABLE: usize>(throne: bool) -> [u8; TABLE] {
    let states = 3usize.pow(SIDE as u32);
    let middle = SIDE / 2;
    let mut t = [0u8; TABLE];
    let mut state = 0;
    while state < states {
        let mut digits = [0u8; 16];
        let mut s = state;
        let mut i = 0;
        while i < SIDE {
            digits[i] = (s % 3) as u8;
            s /= 3;
            i += 1;
        }
        let mut count = 0u8;
        let mut p = 0;
        while p < SIDE {
            if digits[p] == 2 {
                let mut i = p + 1;
                while i < SIDE && digits[i] == 0 {
                    if !(throne && i == middle) {
                        count += 1;
                    }
                    i += 1;
                }
                let mut i = p as i32 - 1;
                while i >= 0 && digits[i as usize] == 0 {
                    if !(throne && i == middle as i32) {
                        count += 1;
                    }
                    i -= 1;
                }
            }
            p += 1;
        }
        t[state] = count;
        state += 1;
    }
    t
}

/// `[sq]`: the index of square `sq` in the transposed bitboards (`file * side + rank`).
const fn make_transpose<const SIDE: usize, const SQUARES: usize>() -> [u8; SQUARES] {
    let mut t = [0u8; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = ((sq % SIDE) * SIDE + sq / SIDE) as u8;
        sq += 1;
    }
    t
}

/// The bit of each square index, by rank (`[0]`) and transposed (`[1]`), and zero for the
/// index past the last square (no king): a table look-up costs less than shifting a 128-bit
/// word by a variable amount. `SLOTS` is the number of squares plus one.
const fn make_bits<const SIDE: usize, const SLOTS: usize>() -> [[Wide; SLOTS]; 2] {
    let mut t = [[Wide::ZERO; SLOTS]; 2];
    let mut sq = 0;
    while sq + 1 < SLOTS {
        t[0][sq] = Wide::bit(sq);
        t[1][sq] = Wide::bit((sq % SIDE) * SIDE + sq / SIDE);
        sq += 1;
    }
    t
}

/// `[f][bits]`: a line mask along file `f` (bit `i` = rank `i`) as a board set.
const fn make_spread_file<const SIDE: usize, const PATTERNS: usize>() -> [[Wide; PATTERNS]; SIDE] {
    let mut t = [[Wide::ZERO; PATTERNS]; SIDE];
    let mut f = 0;
    while f < SIDE {
        let mut m = 0;
        while m < PATTERNS {
            let mut b = Wide::ZERO;
            let mut i = 0;
            while i < SIDE {
                if m & (1 << i) != 0 {
                    b = b.or(Wide::bit(i * SIDE + f));
                }
                i += 1;
            }
            t[f][m] = b;
            m += 1;
        }
        f += 1;
    }
    t
}

/// `[occ]`: the inner positions (1 to side − 2) of a line from which a piece can slide to one
/// of the line's two end squares, given the occupied squares `occ` (the piece's own square is
/// ignored): everything between it and that end, the end included, is empty.
const fn make_edge_view<const SIDE: usize, const PATTERNS: usize>() -> [u16; PATTERNS] {
    let mask = PATTERNS - 1;
    let mut t = [0u16; PATTERNS];
    let mut occ = 0;
    while occ < PATTERNS {
        let mut bits = 0u16;
        let mut p = 1;
        while p < SIDE - 1 {
            let low_clear = occ & ((1 << p) - 1) == 0;
            let high_clear = occ & (mask & !((1 << (p + 1)) - 1)) == 0;
            if low_clear || high_clear {
                bits |= 1 << p;
            }
            p += 1;
        }
        t[occ] = bits;
        occ += 1;
    }
    t
}

/// `[sq][d]`: the neighbouring square index in each direction (north, east, south, west), or
/// the number of squares off the board.
const fn make_neighbours<const SIDE: usize, const SQUARES: usize>() -> [[u8; 4]; SQUARES] {
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut t = [[SQUARES as u8; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            let file = (sq % SIDE) as i32 + steps[d].0;
            let rank = (sq / SIDE) as i32 + steps[d].1;
            if file >= 0 && rank >= 0 && file < SIDE as i32 && rank < SIDE as i32 {
                t[sq][d] = (rank * SIDE as i32 + file) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `[sq][d]`: the bit of the neighbour of `sq` in direction `d` when the square beyond that
/// neighbour, in the same direction, is on the board too; zero otherwise. A piece arriving on
/// `sq` captures an enemy there if the square beyond holds a partner.
const fn make_flanks<const SQUARES: usize>(neighbour: &[[u8; 4]; SQUARES]) -> [[Wide; 4]; SQUARES] {
    let off = SQUARES as u8;
    let mut t = [[Wide::ZERO; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 4 {
            let n = neighbour[sq][d];
            if n != off && neighbour[n as usize][d] != off {
                t[sq][d] = Wide::bit(n as usize);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `[sq]`: the squares next to each square.
const fn make_around<const SIDE: usize, const SQUARES: usize>() -> [Wide; SQUARES] {
    let mut t = [Wide::ZERO; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        t[sq] = crate::geometry::neighbour_bits(SIDE, Wide::bit(sq));
        sq += 1;
    }
    t
}

/// `[sq]`: the squares attackers must all hold to capture a king on `sq` when surrounding is
/// what captures him: all four neighbours, or the three beside the throne. Empty for edge
/// squares (a king there has escaped).
const fn make_king_ring<const SIDE: usize, const SQUARES: usize>() -> [Wide; SQUARES] {
    let edge = crate::geometry::edge_bits(SIDE);
    let throne = Wide::bit(SQUARES / 2);
    let mut t = [Wide::ZERO; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        if !edge.has(sq) {
            t[sq] = crate::geometry::neighbour_bits(SIDE, Wide::bit(sq)).and(throne.not());
        }
        sq += 1;
    }
    t
}

/// `[index]`: the four neighbours of each square inside the edge, by square index: empty for
/// edge squares, where the king has escaped, and for the index past the last square (the king
/// captured). `SLOTS` is the number of squares plus one.
const fn make_king_neighbours<const SIDE: usize, const SLOTS: usize>() -> [Wide; SLOTS] {
    let edge = crate::geometry::edge_bits(SIDE);
    let mut t = [Wide::ZERO; SLOTS];
    let mut sq = 0;
    while sq + 1 < SLOTS {
        if !edge.has(sq) {
            t[sq] = crate::geometry::neighbour_bits(SIDE, Wide::bit(sq));
        }
        sq += 1;
    }
    t
}

/// `[sq]`: the rank and the file of each square, the square itself left out.
const fn make_lines<const SIDE: usize, const SQUARES: usize>() -> [Wide; SQUARES] {
    let mut t = [Wide::ZERO; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = (sq % SIDE, sq / SIDE);
        let mut other = 0;
        while other < SQUARES {
            if other != sq && (other % SIDE == file || other / SIDE == rank) {
                t[sq] = t[sq].or(Wide::bit(other));
            }
            other += 1;
        }
        sq += 1;
    }
    t
}

/// For each value of the king's square index (256 entries, so that any `u8` indexes it
/// without a bounds check): is the game won where he stands, on an edge square, or captured
/// (the index past the last square)?
const fn make_king_wins<const SIDE: usize>() -> [bool; 256] {
    let mut t = [false; 256];
    let mut sq = 0;
    while sq < SIDE * SIDE {
        let (file, rank) = (sq % SIDE, sq / SIDE);
        t[sq] = file == 0 || file == SIDE - 1 || rank == 0 || rank == SIDE - 1;
        sq += 1;
    }
    t[SIDE * SIDE] = true;
    t
}

/// `[d][sq]`: the squares along each line from each square, the square left out: north, east
/// (up the square indices), south, west (down them).
const fn make_rays<const SIDE: usize, const SQUARES: usize>() -> [[Wide; SQUARES]; 4] {
    let mut rays = [[Wide::ZERO; SQUARES]; 4];
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let last = SIDE as i32 - 1;
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            let (mut file, mut rank) = ((sq % SIDE) as i32, (sq / SIDE) as i32);
            loop {
                file += steps[d].0;
                rank += steps[d].1;
                if file < 0 || file > last || rank < 0 || rank > last {
                    break;
                }
                rays[d][sq] = rays[d][sq].or(Wide::bit((rank * SIDE as i32 + file) as usize));
            }
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// `[sq]`: the camp (of four squares) that `sq` belongs to among the camp squares `camps`,
/// empty for a square outside them. Each camp lies along one edge: the camp squares of the
/// first two files, of the first two ranks, of the last two files and of the last two ranks.
const fn make_camp_of<const SIDE: usize, const SQUARES: usize>(camps: Wide) -> [Wide; SQUARES] {
    let last = SIDE - 1;
    let mut t = [Wide::ZERO; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        if camps.has(sq) {
            let (f, r) = (sq % SIDE, sq / SIDE);
            let mut other = 0;
            while other < SQUARES {
                let (of, or) = (other % SIDE, other / SIDE);
                let same = (f <= 1 && of <= 1)
                    || (f >= last - 1 && of >= last - 1)
                    || (r <= 1 && or <= 1)
                    || (r >= last - 1 && or >= last - 1);
                if same && camps.has(other) {
                    t[sq] = t[sq].or(Wide::bit(other));
                }
                other += 1;
            }
        }
        sq += 1;
    }
    t
}

/// [`make_camp_of`] in the transposed layout: `[sq]` is the camp of `sq` (a square index by
/// rank) as a transposed set.
const fn make_camp_of_t<const SIDE: usize, const SQUARES: usize>(
    camp_of: &[Wide; SQUARES],
) -> [Wide; SQUARES] {
    let mut t = [Wide::ZERO; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut other = 0;
        while other < SQUARES {
            if camp_of[sq].has(other) {
                t[sq] = t[sq].or(Wide::bit((other % SIDE) * SIDE + other / SIDE));
            }
            other += 1;
        }
        sq += 1;
    }
    t
}

/// Picks a size's [`Geometry::Moved`] by whether it is Tablut's 9×9: that board keeps none
/// (it stays as small as it was; OpenTafl's flanking shieldwall is refused there), every other
/// size keeps a set of squares.
pub struct MovedOf<const TABLUT: bool>;

/// The set [`MovedOf`] picks for a size whose sets are `S`.
pub trait PickMoved<S: SquareSet> {
    type Moved: MovedSet<S>;
}

impl<S: SquareSet> PickMoved<S> for MovedOf<true> {
    type Moved = NotKept;
}

impl<S: SquareSet> PickMoved<S> for MovedOf<false> {
    type Moved = S;
}

/// The tables of one size, in a module of their own, and its [`Geometry`] implementation,
/// its sets in the word `set` (`u128` or [`Wide`]): the tables are built in the wide word and
/// narrowed. `line_moves: ternary` counts a line's moves from the ternary tables (sizes whose
/// line states fit a `u16`), `line_moves: slides` from the slide table, a mover at a time;
/// `line_moves: computed` (13×13, whose line tables would weigh megabytes) works the slides,
/// edge views and file spreads out with a few word operations instead of reading tables.
macro_rules! geometry_tables {
    (
        $module:ident, $size:ident, $side:literal, set: $set:ident,
        camps: $camps:expr, camp_middles: $middles:expr, line_moves: $how:ident
    ) => {
        mod $module {
            use super::*;
            use crate::geometry::{corner_bits, edge_bits, file_bits, neighbour_bits};
            use crate::geometry::{Geometry, SquareSet};

            const SIDE: usize = $side;
            const SQUARES: usize = SIDE * SIDE;
            const PATTERNS: usize = 1 << SIDE;
            const _: () = assert!(SQUARES < <$set as SquareSet>::BITS, "a set of squares fits its word");
            const _: () = assert!(SQUARES < 255, "a square index and the king's absence fit a u8");
            const _: () = assert!(SIDE % 2 == 1, "the throne needs a middle square");

            /// This size's word.
            type Set = $set;
            const ZERO: Set = <Set as SquareSet>::ZERO;

            /// A set built in the wide word, in this size's word.
            const fn conv(w: Wide) -> Set {
                geometry_tables!(@conv $set, w)
            }

            /// A table of sets built in the wide word, in this size's word.
            const fn conv1<const N: usize>(t: &[Wide; N]) -> [Set; N] {
                let mut out = [ZERO; N];
                let mut i = 0;
                while i < N {
                    out[i] = conv(t[i]);
                    i += 1;
                }
                out
            }

            /// A table of tables of sets built in the wide word, in this size's word.
            const fn conv2<const N: usize, const M: usize>(t: &[[Wide; M]; N]) -> [[Set; M]; N] {
                let mut out = [[ZERO; M]; N];
                let mut i = 0;
                while i < N {
                    out[i] = conv1(&t[i]);
                    i += 1;
                }
                out
            }

            static TRANSPOSE: [u8; SQUARES] = make_transpose::<SIDE, SQUARES>();
            static BITS: [[Set; SQUARES + 1]; 2] = conv2(&make_bits::<SIDE, { SQUARES + 1 }>());
            static AROUND: [Set; SQUARES] = conv1(&make_around::<SIDE, SQUARES>());
            const NEIGHBOUR_TABLE: [[u8; 4]; SQUARES] = make_neighbours::<SIDE, SQUARES>();
            static NEIGHBOUR: [[u8; 4]; SQUARES] = NEIGHBOUR_TABLE;
            static FLANKS: [[Set; 4]; SQUARES] = conv2(&make_flanks::<SQUARES>(&NEIGHBOUR_TABLE));
            static KING_RING: [Set; SQUARES] = conv1(&make_king_ring::<SIDE, SQUARES>());
            static KING_WINS: [bool; 256] = make_king_wins::<SIDE>();
            static KING_NEIGHBOURS: [Set; SQUARES + 1] =
                conv1(&make_king_neighbours::<SIDE, { SQUARES + 1 }>());
            static LINES: [Set; SQUARES] = conv1(&make_lines::<SIDE, SQUARES>());
            static RAYS: [[Set; SQUARES]; 4] = conv2(&make_rays::<SIDE, SQUARES>());
            const CAMP_OF_TABLE: [Wide; SQUARES] = make_camp_of::<SIDE, SQUARES>($camps);
            static CAMP_OF: [Set; SQUARES] = conv1(&CAMP_OF_TABLE);
            static CAMP_OF_T: [Set; SQUARES] =
                conv1(&make_camp_of_t::<SIDE, SQUARES>(&CAMP_OF_TABLE));
            const KEYS: ([[u64; SQUARES]; 3], u64) = zobrist::make_keys::<SQUARES>();
            static PIECE_KEYS: [[u64; SQUARES]; 3] = KEYS.0;

            geometry_tables!(@line_tables $how);

            impl Geometry for crate::geometry::$size {
                const SIDE: usize = SIDE;
                const ALL: Set = conv(Wide::below(SQUARES));
                const EDGE: Set = conv(edge_bits(SIDE));
                const FILE_A: Set = conv(file_bits(SIDE, 0));
                const FILE_LAST: Set = conv(file_bits(SIDE, SIDE - 1));
                const CORNERS: Set = conv(corner_bits(SIDE));
                const RANK_FIRST: Set = conv(Wide::below(SIDE));
                const RANK_LAST: Set = conv(Wide::below(SIDE).shl(SIDE * (SIDE - 1)));
                const THRONE_BIT: Set = conv(Wide::bit(SQUARES / 2));
                const THRONE_RING: Set = conv(neighbour_bits(SIDE, Wide::bit(SQUARES / 2)));
                const CAMPS: Set = conv($camps);
                const CAMP_MIDDLES: Set = conv($middles);
                const SIDE_KEY: u64 = KEYS.1;
                type Set = $set;
                type Moves<T> = [T; crate::geometry::max_moves($side)];
                type LineCounts = [u32; SIDE];
                type Moved = <MovedOf<{ SIDE == 9 }> as PickMoved<Set>>::Moved;

                #[inline(always)]
                fn transpose(sq: usize) -> usize {
                    TRANSPOSE[sq] as usize
                }
                #[inline(always)]
                fn bit(sq: usize) -> Set {
                    BITS[0][sq]
                }
                #[inline(always)]
                fn bit_t(sq: usize) -> Set {
                    BITS[1][sq]
                }
                #[inline(always)]
                fn around(sq: usize) -> Set {
                    AROUND[sq]
                }
                #[inline(always)]
                fn neighbour(sq: usize, d: usize) -> u8 {
                    NEIGHBOUR[sq][d]
                }
                #[inline(always)]
                fn flanks(sq: usize) -> &'static [Set; 4] {
                    &FLANKS[sq]
                }
                #[inline(always)]
                fn king_ring(sq: usize) -> Set {
                    KING_RING[sq]
                }
                #[inline(always)]
                fn king_wins(king: u8) -> bool {
                    KING_WINS[king as usize]
                }
                #[inline(always)]
                fn king_neighbours(king: usize) -> Set {
                    KING_NEIGHBOURS[king]
                }
                #[inline(always)]
                fn lines(sq: usize) -> Set {
                    LINES[sq]
                }
                #[inline(always)]
                fn ray(d: usize, sq: usize) -> Set {
                    RAYS[d][sq]
                }
                #[inline(always)]
                fn slides(p: usize, occ: usize) -> u16 {
                    slides_of(p, occ)
                }
                #[inline(always)]
                fn spread_file(file: usize, bits: usize) -> Set {
                    spread_file_of(file, bits)
                }
                #[inline(always)]
                fn edge_view(occ: usize) -> u16 {
                    edge_view_of(occ)
                }
                #[inline(always)]
                fn camp_of(sq: usize) -> Set {
                    CAMP_OF[sq]
                }
                #[inline(always)]
                fn camp_of_t(sq: usize) -> Set {
                    CAMP_OF_T[sq]
                }
                #[inline(always)]
                fn line_moves(block: usize, movers: usize, middle: bool) -> u32 {
                    count_line_moves(block, movers, middle)
                }
                #[inline(always)]
                fn piece_key(piece: usize, sq: usize) -> u64 {
                    PIECE_KEYS[piece][sq]
                }
            }
        }
    };
    (@conv u128, $w:expr) => {
        $w.narrow()
    };
    (@conv Wide, $w:expr) => {
        $w
    };
    (@line_tables ternary) => {
        geometry_tables!(@pattern_tables);

        /// Number of line states in base 3.
        const LINE_STATES: usize = 3usize.pow(SIDE as u32);
        /// The power of two above [`LINE_STATES`] (see [`make_line_moves`]).
        const LINE_TABLE: usize = LINE_STATES.next_power_of_two();
        static TERNARY: [u16; PATTERNS] = make_ternary::<SIDE, PATTERNS>();
        static LINE_MOVES: [u8; LINE_TABLE] = make_line_moves::<SIDE, LINE_TABLE>(false);
        static LINE_MOVES_THRONE: [u8; LINE_TABLE] = make_line_moves::<SIDE, LINE_TABLE>(true);

        /// The moves of `movers` along a line with blockers `block`, from the ternary
        /// tables. The state is below [`LINE_STATES`]; the mask, which leaves it unchanged,
        /// spares the bounds check.
        #[inline(always)]
        fn count_line_moves(block: usize, movers: usize, middle: bool) -> u32 {
            let mask = PATTERNS - 1;
            let state = TERNARY[block & mask] as usize + TERNARY[movers & mask] as usize;
            debug_assert!(state < LINE_STATES);
            let state = state & (LINE_TABLE - 1);
            if middle {
                LINE_MOVES_THRONE[state] as u32
            } else {
                LINE_MOVES[state] as u32
            }
        }
    };
    (@line_tables slides) => {
        geometry_tables!(@pattern_tables);
        geometry_tables!(@count_by_slides);
    };
    (@line_tables computed) => {
        /// The squares a piece at position `p` of a line reaches, its occupied squares being
        /// `occ` (its own bit ignored): up to the nearest blocker on each side.
        #[inline(always)]
        fn slides_of(p: usize, occ: usize) -> u16 {
            let occ = occ & (PATTERNS - 1) & !(1 << p);
            let above = occ & !((2usize << p) - 1);
            let up_end = if above == 0 { SIDE } else { above.trailing_zeros() as usize };
            let up = ((1usize << up_end) - 1) & !((2usize << p) - 1);
            let below = occ & ((1usize << p) - 1);
            let down_from = if below == 0 { 0 } else { (usize::BITS - below.leading_zeros()) as usize };
            let down = ((1usize << p) - 1) & !((1usize << down_from) - 1);
            (up | down) as u16
        }

        /// A line's bits along file `file` as a set of squares, a bit at a time.
        #[inline]
        fn spread_file_of(file: usize, bits: usize) -> Set {
            let mut out = ZERO;
            let mut m = bits & (PATTERNS - 1);
            while m != 0 {
                out |= <Set as SquareSet>::bit(m.trailing_zeros() as usize * SIDE + file);
                m &= m - 1;
            }
            out
        }

        /// The inner positions of a line that see one of its ends: those at or below its
        /// lowest occupied square, and those at or above its highest.
        #[inline]
        fn edge_view_of(occ: usize) -> u16 {
            let inner = (PATTERNS - 1) & !1 & !(1 << (SIDE - 1));
            let occ = occ & (PATTERNS - 1);
            if occ == 0 {
                return inner as u16;
            }
            let lowest = occ.trailing_zeros() as usize;
            let highest = (usize::BITS - 1 - occ.leading_zeros()) as usize;
            let sees_low = (2usize << lowest) - 1;
            let sees_high = !((1usize << highest) - 1);
            ((sees_low | sees_high) & inner) as u16
        }

        geometry_tables!(@count_by_slides);
    };
    (@pattern_tables) => {
        static SLIDES: [[u16; PATTERNS]; SIDE] = make_slides::<SIDE, PATTERNS>();
        static SPREAD_FILE: [[Set; PATTERNS]; SIDE] =
            conv2(&make_spread_file::<SIDE, PATTERNS>());
        static EDGE_VIEW: [u16; PATTERNS] = make_edge_view::<SIDE, PATTERNS>();

        #[inline(always)]
        fn slides_of(p: usize, occ: usize) -> u16 {
            SLIDES[p][occ]
        }
        #[inline(always)]
        fn spread_file_of(file: usize, bits: usize) -> Set {
            SPREAD_FILE[file][bits]
        }
        #[inline(always)]
        fn edge_view_of(occ: usize) -> u16 {
            EDGE_VIEW[occ]
        }
    };
    (@count_by_slides) => {
        /// The moves of `movers` along a line with blockers `block`, a mover at a time from
        /// the slides (no soldier stops on the middle line's centre, the throne).
        #[inline(always)]
        fn count_line_moves(block: usize, movers: usize, middle: bool) -> u32 {
            let stops = if middle { !(1u16 << (SIDE / 2)) } else { !0 };
            let mut count = 0;
            let mut m = movers & (PATTERNS - 1);
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                count += (slides_of(p, block & (PATTERNS - 1)) & stops).count_ones();
                m &= m - 1;
            }
            count
        }
    };
}

geometry_tables!(seven, Seven, 7, set: u128, camps: Wide::ZERO, camp_middles: Wide::ZERO, line_moves: ternary);
geometry_tables!(
    nine, Nine, 9, set: u128,
    camps: Wide::from_u128(crate::bitboard::TABLUT_CAMPS),
    camp_middles: Wide::from_u128(crate::bitboard::TABLUT_CAMP_MIDDLES),
    line_moves: ternary
);
geometry_tables!(eleven, Eleven, 11, set: u128, camps: Wide::ZERO, camp_middles: Wide::ZERO, line_moves: slides);
geometry_tables!(thirteen, Thirteen, 13, set: Wide, camps: Wide::ZERO, camp_middles: Wide::ZERO, line_moves: computed);

#[cfg(test)]
mod tests {
    use crate::bitboard::BitboardOf;
    use crate::geometry::{Eleven, Geometry, Nine, Seven, SquareSet, Thirteen};

    #[test]
    fn edge_view_needs_a_clear_path_to_an_end() {
        assert_eq!(Nine::edge_view(0), 0b0_1111_1110);
        // blockers at 0 and 8: nothing sees an end
        assert_eq!(Nine::edge_view(0b1_0000_0001), 0);
        // blocker at 3: positions 1, 2 see the low end; 4..7 see the high end; 3 itself too
        assert_eq!(Nine::edge_view(0b0_0000_1000), 0b0_1111_1110);
        // blockers at 2 and 6: 1 and 2 see the low end, 6 and 7 the high end (a square's own
        // piece does not block it), 3..5 nothing
        assert_eq!(Nine::edge_view(0b0_0100_0100), 0b0_1100_0110);
        assert_eq!(Eleven::edge_view(0), 0b011_1111_1110);
        assert_eq!(Seven::edge_view(0), 0b011_1110);
    }

    #[test]
    fn slides_stop_before_blockers() {
        // piece at position 2, blockers at 0 and 6: reaches 1, 3, 4, 5
        assert_eq!(Nine::slides(2, 0b1_000_101), 0b0_111_010);
        assert_eq!(Nine::slides(0, 0), 0b1_1111_1110);
        assert_eq!(Nine::slides(8, 0b0100_0000), 0b1000_0000);
        assert_eq!(Eleven::slides(10, 0), 0b011_1111_1111);
        assert_eq!(Seven::slides(3, 0b100_0001), 0b011_0110);
    }

    /// A line's move count, from the ternary tables (7×7 and 9×9) or a mover at a time from
    /// the slides (11×11), is the slides' count for every blocker pattern and every subset
    /// of it as movers (on 11×11, every pattern with a sample of its subsets).
    fn line_moves_agree_with_slides<G: Geometry>() {
        for occ in 0..1usize << G::SIDE {
            let mut movers = occ;
            let mut tried = 0;
            loop {
                let mut plain = 0;
                let mut throne = 0;
                for p in 0..G::SIDE {
                    if movers & (1 << p) != 0 {
                        plain += G::slides(p, occ).count_ones();
                        throne += (G::slides(p, occ) & !(1 << G::MIDDLE)).count_ones();
                    }
                }
                assert_eq!(G::line_moves(occ, movers, false), plain);
                assert_eq!(G::line_moves(occ, movers, true), throne);
                tried += 1;
                if movers == 0 || (G::SIDE > 9 && tried > 40) {
                    break;
                }
                movers = (movers - 1) & occ;
            }
        }
    }

    #[test]
    fn line_moves_agree_with_slides_on_every_size() {
        line_moves_agree_with_slides::<Seven>();
        line_moves_agree_with_slides::<Nine>();
        line_moves_agree_with_slides::<Eleven>();
        line_moves_agree_with_slides::<Thirteen>();
    }

    /// 13×13 works its slides and edge views out instead of reading tables: they equal the
    /// tables the smaller sizes are built from, made for a side of 13, for every pattern.
    #[test]
    fn thirteen_by_thirteen_slides_and_edge_views_equal_the_tables_built_for_thirteen() {
        let slides = super::make_slides::<13, 8192>();
        let views = super::make_edge_view::<13, 8192>();
        for occ in 0..8192 {
            assert_eq!(Thirteen::edge_view(occ), views[occ], "{occ:#b}");
            for p in 0..13 {
                assert_eq!(Thirteen::slides(p, occ), slides[p][occ], "{p} {occ:#b}");
            }
        }
        assert_eq!(Thirteen::edge_view(0), 0b0_1111_1111_1110);
        assert_eq!(Thirteen::slides(12, 0), 0b0_1111_1111_1111);
    }

    /// A file's line spread onto the board is the rank's line transposed, on every size.
    fn file_spreads_are_transposed_ranks<G: Geometry>() {
        let step = if G::SIDE > 11 { 37 } else { 1 };
        for file in 0..G::SIDE {
            for bits in (0..1usize << G::SIDE).step_by(step) {
                let rank = BitboardOf::<G>::raw(G::Set::from_line(bits, G::SIDE * file));
                assert_eq!(
                    BitboardOf::<G>::raw(G::spread_file(file, bits)),
                    rank.transposed(),
                    "{file} {bits:#b}"
                );
            }
        }
    }

    #[test]
    fn file_spreads_are_transposed_ranks_on_every_size() {
        file_spreads_are_transposed_ranks::<Seven>();
        file_spreads_are_transposed_ranks::<Nine>();
        file_spreads_are_transposed_ranks::<Eleven>();
        file_spreads_are_transposed_ranks::<Thirteen>();
    }
}
