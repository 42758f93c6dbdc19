//! The search kernel, written once over the [`Lanes`] operations and compiled once per
//! backend (portable scalar code, AVX2, AVX-512).
//!
//! # State layout
//!
//! The candidates of each digit are kept band by band, as in JCZSolve: one 27-bit word per
//! band (three rows of nine cells), so that a box, a row and a "triad" (the three cells where
//! a box meets a row or a column) are all a few bit operations away.
//!
//! ```text
//! band word (u32), bit = 9 * row_in_band + column:
//!
//!   bits  0.. 8   row 0 of the band   | box 0: columns 0-2 | box 1: 3-5 | box 2: 6-8 |
//!   bits  9..17   row 1
//!   bits 18..26   row 2               bits 27..31 are always zero
//!
//! State.w (48 x u32, 192 bytes, three cache lines):
//!
//!   dword  4*d + b   candidates of digit d+1 in band b (b = 0, 1, 2)
//!   dword  4*d + 3   always zero (padding, so a digit is one 128-bit lane)
//!   dwords 36..48    always zero (digit lanes 9..11, padding to three 512-bit vectors)
//! ```
//!
//! A cell that is solved keeps its digit as its only candidate, so the solution is read
//! straight off the state.
//!
//! # Propagation
//!
//! One round, repeated until nothing changes (all of it over the nine digits at once):
//!
//! 1. *Singles.* A cell is *fixed* to a digit when it is the digit's only cell in its row
//!    (a hidden single: after the triad filters below, every hidden single in a box or a
//!    column has also become one in its row) or the cell's only candidate (a naked single).
//!    Fixed cells lose every other digit, and their row loses the digit.
//! 2. *Box/line triads.* Within a band, a digit sits in exactly one triad per row and per
//!    box, so the rows-by-boxes matrix of the digit's non-empty triads must hold a
//!    permutation matrix; triads in no permutation are dropped. This is complete reasoning
//!    on the band's triads: pointing and claiming (locked candidates), and the box and row
//!    of every fixed cell.
//! 3. *Column/box triads.* The same on each stack, for the bands-by-columns matrix: the
//!    column of a fixed cell, and locked candidates along columns.
//!
//! A round fails when a cell has no candidate or a digit has no place left in some row
//! or box of a band (the filters then empty the whole band word).
//!
//! When the rounds reach a fixpoint, [`triad_capacity`] applies the rule that a triad
//! holds exactly three digits (tdoku's numerical clauses), and the rounds resume if it
//! removed anything.
//!
//! # Search
//!
//! Depth-first with an explicit stack of states (no recursion, no allocation). The branch
//! is tdoku's: the band or stack with the fewest open placement patterns (permutations of
//! its triad matrix) summed over the digits, among those not yet decided, and in it the
//! digit with the fewest (at least two). With two patterns, one side asserts each; with
//! more, the split is on one triad of the first pattern ("the digit is in this triad" or
//! not). When every band and stack is decided, a bivalue cell (else a cell with the fewest
//! candidates) and its smallest candidate. The asserted side continues in the current
//! state; the other side is pushed. Each push is one *guess*.
//!
//! A search may start in *dive* mode ([`Params::dive`], chosen by the caller for puzzles
//! that probably have several solutions): it then asserts a value of the first cell with
//! the most candidates and skips the triad capacity rule, until a few contradictions show
//! that the puzzle is not that easy; then it continues as above. The mode changes the
//! order of the search and the guesses, never the count or a unique solution.

use super::State;
use crate::core::cancel::Cancel;

/// The 27 bits of a band word.
pub(super) const ALL: u32 = 0x7FF_FFFF;
/// The three rows of a band word.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// Bits of the triads whose box index (0..3 within the band) is in `boxes`, one bit per
/// triad at its first cell.
const fn triad_anchors(boxes: [bool; 3]) -> u32 {
    let mut bits = 0;
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 3 {
            if boxes[k] {
                bits |= 1 << (9 * r + 3 * k);
            }
            k += 1;
        }
        r += 1;
    }
    bits
}

/// First cells of all nine triads of a band.
const T_ALL: u32 = triad_anchors([true, true, true]);
const T_01: u32 = triad_anchors([true, true, false]);
const T_12: u32 = triad_anchors([false, true, true]);
const T_0: u32 = triad_anchors([true, false, false]);
const T_2: u32 = triad_anchors([false, false, true]);

/// Column masks (nine bits, one per column) for "column j of each stack".
const COL_J01: u32 = 0b011_011_011;
const COL_J2: u32 = 0b100_100_100;
const COL_J12: u32 = 0b110_110_110;
const COL_J0: u32 = 0b001_001_001;

/// The vector operations the kernel needs. A value holds the candidates of all nine digits
/// (see the module docs for the layout); operations are per 32-bit word unless said
/// otherwise.
pub(super) trait Lanes: Copy {
    /// Whether [`propagate`] checks, after a round that applied no new fixed cells, if the
    /// box/line filter changed anything before running the column/box filter (the
    /// fixpoint, when it did not). The check never changes a result, only the work: it
    /// pays on AVX2; on the portable backend the extra comparison of nine vectors costs
    /// more than the filters it saves (measured on x86-64).
    const BOX_LINE_FIXPOINT: bool;
    /// Whether [`propagate`] looks for an emptied band word (a digit with no place left in
    /// some row or box of a band) only at the fixpoint, not after every round. Rounds on
    /// such a state only remove candidates and end in a contradiction all the same (an
    /// empty cell, an invalid full grid, or this check), so the result never changes, only
    /// the work: checking late pays on AVX2 and AVX-512, checking every round on the
    /// portable backend (measured on x86-64).
    const LATE_BAND_CHECK: bool;
    /// Whether [`apply_fixed`] takes the row singles and the naked singles apart (see
    /// there): the same result, with a shorter chain of dependent operations; it pays on
    /// AVX2, whose union over the digits is a chain of shuffles, and costs the portable
    /// backend (measured on x86-64).
    const SPLIT_FIXED: bool;
    /// Loads a state.
    fn load(s: &State) -> Self;
    /// Stores into a state.
    fn store(self, s: &mut State);
    /// Saves into a search-stack slot, in whatever layout the backend likes: only
    /// [`Lanes::restore`] reads it back. By default, [`Lanes::store`].
    #[inline(always)]
    fn save(self, s: &mut State) {
        self.store(s);
    }
    /// Reads back what [`Lanes::save`] wrote. By default, [`Lanes::load`].
    #[inline(always)]
    fn restore(s: &State) -> Self {
        Self::load(s)
    }
    /// Each triad anchor bit (see [`triads`]) to its triad's three cells: `self * 7`.
    #[inline(always)]
    fn spread_triads(self) -> Self {
        self.shl::<3>().sub(self)
    }
    /// Each column bit (bits 0..9) to the column's three cells of the band:
    /// `self * 0x40201`.
    #[inline(always)]
    fn spread_columns(self) -> Self {
        self.or(self.shl::<9>()).or(self.shl::<18>())
    }
    /// Every word set to `x`.
    fn splat(x: u32) -> Self;
    /// `self & o`
    fn and(self, o: Self) -> Self;
    /// `self | o`
    fn or(self, o: Self) -> Self;
    /// `!self & o`
    fn andnot(self, o: Self) -> Self;
    /// Shift left by `N` bits.
    fn shl<const N: u32>(self) -> Self;
    /// Logical shift right by `N` bits.
    fn shr<const N: u32>(self) -> Self;
    /// Wrapping subtraction.
    fn sub(self, o: Self) -> Self;
    /// Wrapping addition.
    fn add(self, o: Self) -> Self;
    /// `lane` in every digit lane.
    fn pattern(lane: [u32; 4]) -> Self;
    /// Sum over the nine digits, the same in every digit lane.
    fn digit_sum(self) -> Self;
    /// Band word `b` takes the value of band word `(b + 1) % 3` (padding word unchanged).
    fn next_band(self) -> Self;
    /// Band word `b` takes the value of band word `(b + 2) % 3` (padding word unchanged).
    fn prev_band(self) -> Self;
    /// `self + 1` where `t` is zero, else `self`.
    fn inc_where_zero(self, t: Self) -> Self;
    /// Bit-sliced counts over the nine digits, the same in every digit lane: cells with at
    /// least one candidate, at least two.
    fn digit_counts(self) -> (Self, Self);
    /// Like [`Lanes::digit_counts`], plus cells with at least three candidates.
    fn digit_counts3(self) -> (Self, Self, Self);
    /// Bit-sliced counts over the nine digits, the same in every digit lane: at least one,
    /// two, three, four.
    fn digit_counts4(self) -> [Self; 4];
    /// Union over the nine digits, the same in every digit lane.
    fn digit_union(self) -> Self;
    /// True when both hold the same bits.
    fn same(self, o: Self) -> bool;
    /// True when some band word of some digit is zero.
    fn any_band_empty(self) -> bool;
    /// The four words of digit lane 0.
    fn first_lane(self) -> [u32; 4];
    /// `bits` in band word `b` of every digit, zero elsewhere.
    fn band_bits(b: usize, bits: u32) -> Self;
    /// The four words `lane` in digit lane `d` (0-based), zero elsewhere.
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self;
    /// Bit `d` set when band word `b` of digit `d` meets `bits`.
    fn digits_meeting(self, b: usize, bits: u32) -> u32;
}

/// What propagation ended with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Step {
    /// Some cell or house has no candidate left.
    Contradiction,
    /// Every cell has one candidate and they form a valid grid.
    Solved,
    /// Nothing more follows; a guess is needed.
    Open,
}

/// The first cell of each row of a band word.
const ROW_FIRST: u32 = 1 | 1 << 9 | 1 << 18;
/// The first eight cells of each row.
const ROW_LOW8: u32 = 0xFF * ROW_FIRST;
/// The last cell of each row.
const ROW_LAST: u32 = ROW_FIRST << 8;

/// The full rows (of each band word) that hold a bit of `x`: SWAR on the three nine-bit
/// row fields at once. Adding `0xFF` to a row's low eight bits carries into its ninth bit
/// exactly when one of them is set (and never out of the row); that bit, or the row's own
/// ninth bit, marks the row, and `(mark << 1) - (mark >> 8)` fills it.
#[inline(always)]
fn row_span<L: Lanes>(x: L) -> L {
    let low = L::splat(ROW_LOW8);
    let mark = x.and(low).add(low).or(x).and(L::splat(ROW_LAST));
    mark.shl::<1>().sub(mark.shr::<8>())
}

/// The cells that are a digit's only cell in their row of the band. Subtracting each row's
/// first bit clears the row's lowest candidate, so the rows left empty by `w & (w - first)`
/// had one candidate. (A row with no candidate borrows from the next row and spoils its
/// answer; such a state is a contradiction that the triad filters of the same round find,
/// since they always run on a state with an empty row.)
#[inline(always)]
fn row_singles<L: Lanes>(w: L) -> L {
    let rest = w.and(w.sub(L::splat(ROW_FIRST)));
    row_span(rest).andnot(w)
}

/// Applies the fixed cells `singles` (from [`row_singles`]) and `naked` (cells with one
/// candidate), both subsets of `w` (`fixed` is their union): removes, for each digit, the
/// other candidates of the rows that hold a fixed cell, and removes every fixed cell from
/// the other digits.
///
/// Half of each is a no-op: a row single is already its digit's only candidate in its row,
/// and a naked single its cell's only candidate. With [`Lanes::SPLIT_FIXED`] that half is
/// left out: only the row singles reach the other digits (through the union over the
/// digits, which thus needs nothing of the digit counts and can run alongside them) and
/// only the naked singles reach their rows. The result is the same either way.
#[inline(always)]
fn apply_fixed<L: Lanes>(w: L, singles: L, naked: L, fixed: L) -> L {
    if L::SPLIT_FIXED {
        let gone = singles.digit_union().or(row_span(naked));
        gone.andnot(w).or(singles).or(naked)
    } else {
        let gone = fixed.digit_union().or(row_span(fixed));
        gone.andnot(w).or(fixed)
    }
}

/// [`apply_fixed`] for cells that need not be candidates of `w` (the givens on a root
/// with exclusions): a given whose candidate was excluded leaves its cell empty.
#[inline(always)]
fn apply_givens<L: Lanes>(w: L, givens: L) -> L {
    let gone = givens.digit_union().or(row_span(givens));
    gone.andnot(w).or(w.and(givens))
}

/// Row-rotation of a triad-anchor word: triad (r, k) takes the bit of triad (r + 1, k),
/// with stray bits above the band word (bits 27..32, from row 1): for results that are
/// masked by a band word's bits afterwards.
#[inline(always)]
fn rows_up1_loose<L: Lanes>(x: L) -> L {
    x.shr::<9>().or(x.shl::<18>())
}

/// Row-rotation of a triad-anchor word: triad (r, k) takes the bit of triad (r + 2, k),
/// with stray bits above the band word (bits 27..32, from row 2): for results that are
/// masked by a band word's bits afterwards.
#[inline(always)]
fn rows_up2_loose<L: Lanes>(x: L) -> L {
    x.shr::<18>().or(x.shl::<9>())
}

/// The occupied triads of each band word, `o` (a bit at each triad's first cell), and the
/// same shifted along the boxes: in `a`, triad (r, k) holds what (r, k + 1) holds in `o`;
/// in `b`, what (r, k + 2) holds.
#[inline(always)]
fn triads<L: Lanes>(w: L) -> (L, L, L) {
    let o = w.or(w.shr::<1>()).or(w.shr::<2>()).and(L::splat(T_ALL));
    let a = o
        .shr::<3>()
        .and(L::splat(T_01))
        .or(o.shl::<6>().and(L::splat(T_2)));
    let b = o
        .shl::<3>()
        .and(L::splat(T_12))
        .or(o.shr::<6>().and(L::splat(T_0)));
    (o, a, b)
}

/// Box/line triads within each band: keeps only the triads that lie in some permutation
/// of the band's rows-by-boxes triad matrix.
#[inline(always)]
fn box_line<L: Lanes>(w: L) -> L {
    let (o, a, b) = triads(w);
    // (r, k) survives when (r+1, k+1) & (r+2, k+2) or (r+1, k+2) & (r+2, k+1): the pairs
    // of row r + 1, so rotate by one row the pairs (a at row i, b at row i + 1) and (b at
    // row i, a at row i + 1). (`a` and `b` drop the stray bits of the inner rotations.)
    let pairs = a.and(rows_up1_loose(b)).or(b.and(rows_up1_loose(a)));
    let s = o.and(rows_up1_loose(pairs));
    // Each surviving anchor to its triad's three cells: s * 7.
    w.and(s.spread_triads())
}

/// Column/box triads within each stack: keeps only the column triads that lie in some
/// permutation of the stack's bands-by-columns triad matrix.
#[inline(always)]
fn column_box<L: Lanes>(w: L) -> L {
    // Bits 9.. of `c` are stray; `q1` and `q2` drop them.
    let c = w.or(w.shr::<9>()).or(w.shr::<18>());
    // q1: column j of a stack takes column j + 1; q2 takes column j + 2.
    let q1 = c
        .shr::<1>()
        .and(L::splat(COL_J01))
        .or(c.shl::<2>().and(L::splat(COL_J2)));
    let q2 = c
        .shl::<1>()
        .and(L::splat(COL_J12))
        .or(c.shr::<2>().and(L::splat(COL_J0)));
    // Band b survives when (q1 of b + 1 and q2 of b + 2) or (q2 of b + 1 and q1 of b + 2):
    // the pairs of band b + 1.
    let pairs = q1.and(q2.next_band()).or(q2.and(q1.next_band()));
    let s = c.and(pairs.next_band());
    w.and(s.spread_columns())
}

/// Digit bit `d` from bit `4d` of a lane mask: the backends keep each digit in four
/// 32-bit lanes (three band words and a pad), so a per-lane test mask has its digit `d`
/// answer at bit `4d` (after shifting the wanted band to the bottom).
#[inline(always)]
pub(super) fn digits_from_lane_mask(m: u64) -> u32 {
    let mut digits = 0;
    for d in 0..9 {
        digits |= ((m >> (4 * d)) as u32 & 1) << d;
    }
    digits
}

/// True when the state (every cell with exactly one candidate) is a valid grid: each digit
/// once in every row, column and box. With one digit per cell, that holds when no digit
/// has two cells in a row (then each of the nine digits fills each row once), in a column
/// (within a band: rows 9 or 18 bits apart; across bands: the folded columns of two bands
/// meet) or in a box (two rows of a band with an occupied triad of the same box).
#[inline(always)]
pub(super) fn is_valid_grid<L: Lanes>(w: L) -> bool {
    if !row_singles(w).same(w) {
        return false;
    }
    let o = w.or(w.shr::<1>()).or(w.shr::<2>()).and(L::splat(T_ALL));
    let c = w.or(w.shr::<9>()).or(w.shr::<18>()).and(L::splat(0x1FF));
    let clash = w
        .and(w.shr::<9>().or(w.shr::<18>()))
        .or(o.and(o.shr::<9>().or(o.shr::<18>())))
        .or(c.and(c.next_band()));
    clash.same(L::splat(0))
}

/// Triad capacity (tdoku's "exactly three digits per intersection" clauses): the three cells
/// where a box meets a row or a column hold exactly three digits. Run on a fixpoint of the
/// cheaper rules; returns `None` on a contradiction (a triad that fewer than three digits
/// can reach, or that more than three digits must occupy), else the state with:
/// - a digit *forced* into a triad (its only triad in a row or box, or in a column or box)
///   removed from the other triads of that row or column and of that box;
/// - every digit that can reach a triad that exactly three digits can reach forced there;
/// - the other digits removed from a triad that three digits are forced into.
#[inline(always)]
fn triad_capacity<L: Lanes>(w: L) -> Option<L> {
    let t_all = L::splat(T_ALL);
    // Rows of bands: triad anchors, rotated within matrix rows (a, b) and columns (ru, rd,
    // with stray bits above the band word that `o` drops).
    let (o, a, b) = triads(w);
    let (ru, rd) = (rows_up1_loose(o), rows_up2_loose(o));
    // Forced: the only triad of its row or of its box.
    let forced = a.or(b).and(ru.or(rd)).andnot(o);
    let [_, _, p3, p4] = o.digit_counts4();
    if !p3.andnot(t_all).first_lane()[..3].iter().all(|&x| x == 0) {
        return None;
    }
    let forced = forced.or(o.and(p4.andnot(p3)));
    let [_, _, g3, g4] = forced.digit_counts4();
    if g4.first_lane()[..3].iter().any(|&x| x != 0) {
        return None;
    }
    // Anchors to drop: other triads in the row or box of a forced one (its rows' anchors
    // and its box mates; `o` drops the strays), and triads full of other forced digits.
    let spread = row_span(forced)
        .or(rows_up1_loose(forced))
        .or(rows_up2_loose(forced));
    let drop = forced.andnot(spread.or(g3).and(o));
    let w = drop.spread_triads().andnot(w);

    // Columns of stacks: column triads per band word (nine bits, one per column).
    let c = w.or(w.shr::<9>()).or(w.shr::<18>()).and(L::splat(0x1FF));
    let q1 = c
        .shr::<1>()
        .and(L::splat(COL_J01))
        .or(c.shl::<2>().and(L::splat(COL_J2)));
    let q2 = c
        .shl::<1>()
        .and(L::splat(COL_J12))
        .or(c.shr::<2>().and(L::splat(COL_J0)));
    let (nb, pb) = (c.next_band(), c.prev_band());
    let forced = q1.or(q2).and(nb.or(pb)).andnot(c);
    let [_, _, p3, p4] = c.digit_counts4();
    if !p3.andnot(L::splat(0x1FF)).first_lane()[..3]
        .iter()
        .all(|&x| x == 0)
    {
        return None;
    }
    let forced = forced.or(c.and(p4.andnot(p3)));
    let [_, _, g3, g4] = forced.digit_counts4();
    if g4.first_lane()[..3].iter().any(|&x| x != 0) {
        return None;
    }
    // The columns of a forced one's stack (SWAR over the three-bit groups, as `row_span`)
    // and its column in the other bands.
    let low2 = L::splat(0o333);
    let mark = forced.and(low2).add(low2).or(forced).and(L::splat(0o444));
    let stack = mark.shl::<1>().sub(mark.shr::<2>());
    let spread = stack.or(forced.next_band()).or(forced.prev_band());
    let drop = forced.andnot(spread.or(g3).and(c));
    Some(drop.spread_columns().andnot(w))
}

/// Propagates to a fixpoint (see the module docs); with `capacity` false, without the
/// triad capacity rule.
///
/// A round that finds the fixed cells of the previous round again, after a round whose
/// column/box filter removed nothing, is known to change nothing (the previous round
/// already applied those fixed cells, and both triad filters are idempotent), so the
/// fixpoint is declared without running it. A round after one whose column/box filter did
/// remove something, with the same fixed cells, skips applying them again.
#[inline(always)]
pub(super) fn propagate<L: Lanes>(w: &mut L, capacity: bool) -> Step {
    // The fixed cells of the previous round (all ones, never a set of fixed cells: no
    // previous round), and whether its column/box filter left the state unchanged.
    let none = L::splat(u32::MAX);
    let mut prev_fixed = none;
    let mut settled = false;
    loop {
        let (one, two) = w.digit_counts();
        let o = one.first_lane();
        if o[0] & o[1] & o[2] != ALL {
            return Step::Contradiction;
        }
        let t = two.first_lane();
        if t[0] | t[1] | t[2] == 0 {
            return if is_valid_grid(*w) {
                Step::Solved
            } else {
                Step::Contradiction
            };
        }
        // The same values either way; the order of the two computations changed the speed
        // of the portable backend by 10% (a matter of register allocation, measured on
        // x86-64), of AVX2 by 1.5% the other way.
        let (singles, naked) = if L::SPLIT_FIXED {
            let singles = row_singles(*w);
            (singles, two.andnot(one).and(*w))
        } else {
            let naked = two.andnot(one).and(*w);
            (row_singles(*w), naked)
        };
        let fixed = singles.or(naked);
        let same_fixed = fixed.same(prev_fixed);
        // With the same fixed cells, they are applied already, and after a round whose
        // column/box filter removed nothing (`settled`) nothing changes; else, unless the
        // box/line filter removes something, nothing does either (the state is the
        // column/box filter's output), which backends with `BOX_LINE_FIXPOINT` check.
        if !(same_fixed && settled) {
            let y = box_line(if same_fixed {
                *w
            } else {
                apply_fixed(*w, singles, naked, fixed)
            });
            if !(L::BOX_LINE_FIXPOINT && same_fixed && y.same(*w)) {
                let z = column_box(y);
                if !L::LATE_BAND_CHECK && z.any_band_empty() {
                    return Step::Contradiction;
                }
                if !z.same(*w) {
                    settled = z.same(y);
                    prev_fixed = fixed;
                    *w = z;
                    continue;
                }
            }
        }
        // A fixpoint of the rounds.
        if L::LATE_BAND_CHECK && w.any_band_empty() {
            return Step::Contradiction;
        }
        if !capacity {
            return Step::Open;
        }
        match triad_capacity(*w) {
            None => return Step::Contradiction,
            Some(y) if y.same(*w) => return Step::Open,
            Some(y) => {
                *w = y;
                prev_fixed = none;
                settled = false;
            }
        }
    }
}

/// A binary branching decision: the candidates the asserted side removes, and those the
/// other side (kept on the stack) removes.
struct Branch<L> {
    take: L,
    skip: L,
}

/// Triad anchors of the diagonal (0,0) (1,1) (2,2) of a triad matrix.
const DIAG: u32 = 1 | 1 << 12 | 1 << 24;
/// Triad anchors of the anti-diagonal (0,2) (1,1) (2,0).
const ANTI: u32 = 1 << 6 | 1 << 12 | 1 << 18;

/// The triad anchors of the six permutations of a band's rows-by-boxes matrix, in the
/// order of [`band_configs`]: row r in box r + p for p = 0, 1, 2; row r in box
/// p - 1 - r for p = 3, 4, 5 (all mod 3).
const CONFIGS: [u32; 6] = {
    let mut t = [0; 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            let k = if p < 3 {
                (r + p) % 3
            } else {
                (p + 2 * 3 - 1 - r) % 3
            };
            t[p] |= 1 << (9 * r + 3 * k);
            r += 1;
        }
        p += 1;
    }
    t
};

/// For each digit and band: the number of open permutations of the band's triad matrix
/// (0 to 6).
#[inline(always)]
fn band_config_counts<L: Lanes>(w: L) -> L {
    let (o, a, b) = triads(w);
    let (diag, anti) = (L::splat(DIAG), L::splat(ANTI));
    let mut n = L::splat(0);
    for (u, mask) in [
        (o, diag),
        (a, diag),
        (b, diag),
        (o, anti),
        (a, anti),
        (b, anti),
    ] {
        n = n.inc_where_zero(u.andnot(mask));
    }
    n
}

/// Bit p set when permutation p (see [`CONFIGS`]) of the triad matrix of band word `x` is
/// open.
#[inline(always)]
fn band_configs(x: u32) -> u32 {
    let o = (x | x >> 1 | x >> 2) & T_ALL;
    let mut m = 0;
    for (p, &c) in CONFIGS.iter().enumerate() {
        m |= u32::from(c & !o == 0) << p;
    }
    m
}

/// For each digit, in band word 0: the open permutations of each stack's bands-by-columns
/// matrix. Bit 3s + j of the first word: band b in column j + b of stack s; of the second:
/// band b in column j - b (mod 3).
#[inline(always)]
fn stack_configs<L: Lanes>(w: L) -> (L, L) {
    let c = w.or(w.shr::<9>()).or(w.shr::<18>()).and(L::splat(0x1FF));
    let q1 = c
        .shr::<1>()
        .and(L::splat(COL_J01))
        .or(c.shl::<2>().and(L::splat(COL_J2)));
    let q2 = c
        .shl::<1>()
        .and(L::splat(COL_J12))
        .or(c.shr::<2>().and(L::splat(COL_J0)));
    (
        c.and(q1.next_band()).and(q2.prev_band()),
        c.and(q2.next_band()).and(q1.prev_band()),
    )
}

/// Bits set in each word.
#[inline(always)]
fn popcount<L: Lanes>(x: L) -> L {
    let x = x.sub(x.shr::<1>().and(L::splat(0x5555_5555)));
    let m2 = L::splat(0x3333_3333);
    let x = x.and(m2).add(x.shr::<2>().and(m2));
    let x = x.add(x.shr::<4>()).and(L::splat(0x0F0F_0F0F));
    let x = x.add(x.shr::<8>());
    x.add(x.shr::<16>()).and(L::splat(0x3F))
}

/// A band word's cells in the columns of a nine-bit column mask.
const fn columns(m: u32) -> u32 {
    m | m << 9 | m << 18
}

/// Cells of triad (r, k) of a band word.
const fn triad_cells(r: usize, k: usize) -> u32 {
    0b111 << (9 * r + 3 * k)
}

/// Cells of box k (0..3) of a band word.
const fn box_cells(k: usize) -> u32 {
    columns(0o7 << (3 * k))
}

/// Branches on the placement pattern of one digit in one band or stack: the band or stack
/// with the fewest open patterns over all digits (among those not yet decided), then its
/// digit with the fewest open patterns (at least two). With exactly two, one side asserts
/// each; with more, it branches on one triad of the first pattern ("the digit is in this
/// triad" or not), the triad that the fewest patterns share. `None` when every band and
/// stack is decided.
#[inline(always)]
fn config_branch<L: Lanes>(w: L) -> Option<Branch<L>> {
    let (e, o) = stack_configs(w);
    // Stack s's patterns in word s: bits 3s..3s+3 from `e`, 9+3s..9+3s+3 from `o` (for
    // counting: each word numbers them from its own band).
    let stacks = L::pattern([0o7, 0o70, 0o700, 0]);
    let sp = e.and(stacks).or(o.and(stacks).shl::<9>());
    // Open patterns per digit (of band b in word b of `nh`, of stack s in word s of `nv`),
    // and summed over the digits in one sum: each count is at most six, each total at most
    // 54, so the stacks' totals fit in the high half of the word.
    let (nh, nv) = (band_config_counts(w), popcount(sp));
    let totals = nh.or(nv.shl::<16>()).digit_sum().first_lane();
    let th = totals.map(|x| x & 0xFFFF);
    let tv = totals.map(|x| x >> 16);
    // The band or stack k (3.. are the stacks) with the fewest open patterns over the
    // digits, more than nine (one per digit: decided), the first on ties; as one minimum
    // over keys (total, k), branch-free.
    let mut best = u32::MAX;
    for k in 0..6 {
        let total = if k < 3 { th[k] } else { tv[k - 3] };
        let key = if total > 9 {
            total << 3 | k as u32
        } else {
            u32::MAX
        };
        best = best.min(key);
    }
    if best == u32::MAX {
        return None;
    }
    let k = (best & 7) as usize;
    let mut patterns = State::ZERO;
    let mut counts = State::ZERO;
    let word = if k < 3 {
        nh.store(&mut counts);
        w.store(&mut patterns);
        k
    } else {
        nv.store(&mut counts);
        // Band word 0 of `e` and `o` holds every stack's patterns (the other words see
        // the same ones from another band, numbered otherwise).
        e.or(o.shl::<9>()).store(&mut patterns);
        k - 3
    };
    // Its digit with the fewest open patterns, at least two, the first on ties: the
    // minimum over keys (count, digit).
    let mut dbest = u32::MAX;
    for x in 0..9 {
        let n = counts.w[4 * x + word];
        let key = if n >= 2 { n << 4 | x as u32 } else { u32::MAX };
        dbest = dbest.min(key);
    }
    let (d, dn) = if dbest == u32::MAX {
        (0, u32::MAX)
    } else {
        ((dbest & 15) as usize, dbest >> 4)
    };
    // Its open patterns, six bits.
    let m = if k < 3 {
        band_configs(patterns.w[4 * d + word])
    } else {
        let p = patterns.w[4 * d];
        (p >> (3 * word) & 7) | (p >> (9 + 3 * word) & 7) << 3
    };
    let p0 = m.trailing_zeros() as usize % 6;
    let mut take = [0u32; 4];
    let mut skip = [0u32; 4];
    if dn == 2 {
        let p1 = (m & (m - 1)).trailing_zeros() as usize % 6;
        for (lane, p) in [(&mut take, p0), (&mut skip, p1)] {
            if k < 3 {
                let keep = CONFIGS[p];
                lane[k] = ALL & !(keep | keep << 1 | keep << 2);
            } else {
                let s = k - 3;
                let stack = 0o7 << (3 * s);
                let j = p % 3;
                for (b, x) in lane.iter_mut().take(3).enumerate() {
                    let col = if p < 3 { (j + b) % 3 } else { (j + 3 - b) % 3 };
                    *x = columns(stack & !(1 << (3 * s + col)));
                }
            }
        }
    } else if k < 3 {
        // The triad (row r, box k) of pattern p0 that the fewest open patterns share.
        let mut best_t = (0, 0, u32::MAX);
        for (r, &row) in ROW.iter().enumerate() {
            let anchor = CONFIGS[p0] & row;
            let bx = (anchor.trailing_zeros() as usize - 9 * r) / 3;
            let share = (0..6)
                .filter(|&p| m >> p & 1 != 0 && CONFIGS[p] & anchor != 0)
                .count() as u32;
            if share < best_t.2 {
                best_t = (r, bx, share);
            }
        }
        let (r, bx, _) = best_t;
        let t = triad_cells(r, bx);
        take[k] = (ROW[r] | box_cells(bx)) & !t;
        skip[k] = t;
    } else {
        // The column triad (band b, column j + b or j - b of the stack) of pattern p0
        // that the fewest open patterns share.
        let s = k - 3;
        let col_of = |p: usize, b: usize| {
            let j = p % 3;
            if p < 3 { (j + b) % 3 } else { (j + 3 - b) % 3 }
        };
        let mut best_t = (0, 0, u32::MAX);
        for b in 0..3 {
            let col = col_of(p0, b);
            let share = (0..6)
                .filter(|&p| m >> p & 1 != 0 && col_of(p, b) == col)
                .count() as u32;
            if share < best_t.2 {
                best_t = (b, col, share);
            }
        }
        let (b, col, _) = best_t;
        let colbits = columns(1 << (3 * s + col));
        for (x, lane) in take.iter_mut().take(3).enumerate() {
            *lane = if x == b {
                box_cells(s) & !colbits
            } else {
                colbits
            };
        }
        skip[b] = colbits;
    }
    Some(Branch {
        take: L::digit_lane(d, take),
        skip: L::digit_lane(d, skip),
    })
}

/// The branching choice: a digit's placement pattern in the most decided band or stack
/// (see [`config_branch`]); once every band and stack is decided, a bivalue cell (the first
/// in reading order by band), else the first cell with the fewest candidates, asserting the
/// cell's smallest candidate.
#[inline(always)]
fn choose<L: Lanes>(w: L) -> Branch<L> {
    if let Some(br) = config_branch(w) {
        return br;
    }
    let (_, two, three) = w.digit_counts3();
    let t = two.first_lane();
    let h = three.first_lane();
    let mut best = (0, 0, 0);
    let mut best_n = u32::MAX;
    'bands: for b in 0..3 {
        let biv = t[b] & !h[b];
        if biv != 0 {
            let bit = biv & biv.wrapping_neg();
            best = (b, bit, w.digits_meeting(b, bit));
            break 'bands;
        }
    }
    if best.1 == 0 {
        for (b, &open) in t.iter().take(3).enumerate() {
            let mut m = open;
            while m != 0 {
                let bit = m & m.wrapping_neg();
                m &= m - 1;
                let digits = w.digits_meeting(b, bit);
                let n = digits.count_ones();
                if n < best_n {
                    best = (b, bit, digits);
                    best_n = n;
                }
            }
        }
    }
    let (b, bit, digits) = best;
    let d = (digits.trailing_zeros() as usize).min(8);
    let mut lane = [0; 4];
    lane[b] = bit;
    let this = L::digit_lane(d, lane);
    Branch {
        take: this.andnot(L::band_bits(b, bit)),
        skip: this,
    }
}

/// The branching choice of a dive (see [`Params::dive`]): the first cell (in reading order
/// by band) with four or more candidates, else three, else two, asserting its smallest
/// candidate. On a puzzle with many solutions, asserting a value of a wide-open cell cuts
/// the space the most, so a solution is reached in fewer guesses than with the careful
/// choice of [`choose`], which prefers the most constrained decisions.
#[inline(always)]
fn dive_choose<L: Lanes>(w: L) -> Branch<L> {
    let [_, two, three, four] = w.digit_counts4();
    let (two, three, four) = (two.first_lane(), three.first_lane(), four.first_lane());
    let mut at = (0, 0);
    'levels: for level in [four, three, two] {
        for (b, &cells) in level.iter().take(3).enumerate() {
            if cells != 0 {
                at = (b, cells & cells.wrapping_neg());
                break 'levels;
            }
        }
    }
    let (b, bit) = at;
    let digits = w.digits_meeting(b, bit);
    let d = (digits.trailing_zeros() as usize).min(8);
    let mut lane = [0; 4];
    lane[b] = bit;
    let this = L::digit_lane(d, lane);
    Branch {
        take: this.andnot(L::band_bits(b, bit)),
        skip: this,
    }
}

/// How to search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Params {
    /// Stop after this many solutions (at least 1).
    pub limit: u32,
    /// Start in dive mode: branch with [`dive_choose`] and without the triad capacity rule
    /// until [`DIVE_CONTRADICTIONS`] contradictions, then carefully ([`choose`], full
    /// propagation) for the rest of the search. Meant for puzzles that probably have many
    /// solutions, where guesses rarely fail and the careful choice only adds depth (and
    /// costs more per node); a puzzle that keeps failing is searched carefully soon.
    pub dive: bool,
    /// Give up (with a partial count) soon after a stop is requested.
    pub cancel: Cancel,
}

/// Contradictions a dive survives before the search turns careful (see [`Params::dive`]).
/// Multi-solution puzzles meet few (Serg's benchmark: about 0.3 per puzzle); turning
/// careful at the first one cost about 10% there.
const DIVE_CONTRADICTIONS: u32 = 4;

/// What a search found, before conversion to the public outcome.
pub(super) struct Found {
    pub count: u32,
    pub guesses: u64,
}

/// Applies the givens (`fixed`: one bit per given, in its digit's band word) to `root`,
/// then counts solutions up to `limit`, storing the first in `solution`.
///
/// `stack` must hold at least 81 states: each pending state on it stands for a guess on the
/// current path, and each guess fixes one more of the 81 cells.
#[inline(always)]
pub(super) fn search<L: Lanes>(
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    let mut cur = apply_givens(L::load(root), L::load(fixed));
    let mut sp = 0usize;
    let mut count = 0u32;
    let mut guesses = 0u64;
    let limit = params.limit;
    let mut dive_left = if params.dive { DIVE_CONTRADICTIONS } else { 0 };
    loop {
        match propagate(&mut cur, dive_left == 0) {
            Step::Solved => {
                count += 1;
                if count == 1 {
                    cur.store(solution);
                }
                if count >= limit {
                    break;
                }
            }
            Step::Contradiction => dive_left = dive_left.saturating_sub(1),
            Step::Open => {
                let br = if dive_left > 0 {
                    dive_choose(cur)
                } else {
                    choose(cur)
                };
                let Some(slot) = stack.get_mut(sp) else {
                    // Unreachable with a stack of 81 states; give up rather than panic.
                    break;
                };
                br.skip.andnot(cur).save(slot);
                sp += 1;
                guesses += 1;
                if params.cancel.requested_at(guesses) {
                    break;
                }
                cur = br.take.andnot(cur);
                continue;
            }
        }
        if sp == 0 {
            break;
        }
        sp -= 1;
        cur = L::restore(&stack[sp]);
    }
    Found { count, guesses }
}
