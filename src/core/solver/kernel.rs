//! The search kernel, written once over the [`Lanes`] operations and compiled once per
//! backend (portable scalar code, AVX-512).
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
//! # Search
//!
//! Depth-first with an explicit stack of states (no recursion, no allocation): branch on a
//! bivalue cell when there is one (else on a cell with the fewest candidates), assert its
//! smaller candidate in the current state and push the state with that candidate removed.
//! Each push is one *guess*.

use super::State;

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
    /// Loads a state.
    fn load(s: &State) -> Self;
    /// Stores into a state.
    fn store(self, s: &mut State);
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
    /// Band word `b` takes the value of band word `(b + 1) % 3` (padding word unchanged).
    fn next_band(self) -> Self;
    /// Band word `b` takes the value of band word `(b + 2) % 3` (padding word unchanged).
    fn prev_band(self) -> Self;
    /// `self` where `t` is zero, else zero.
    fn keep_where_zero(self, t: Self) -> Self;
    /// `self` where `t` is not zero, else zero.
    fn keep_where_nonzero(self, t: Self) -> Self;
    /// Bit-sliced counts over the nine digits, the same in every digit lane: cells with at
    /// least one candidate, at least two.
    fn digit_counts(self) -> (Self, Self);
    /// Like [`Lanes::digit_counts`], plus cells with at least three candidates.
    fn digit_counts3(self) -> (Self, Self, Self);
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
    /// `bits` in band word `b` of digit `d` (0-based), zero elsewhere.
    fn digit_band_bits(d: usize, b: usize, bits: u32) -> Self;
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

/// The cells that are a digit's only cell in their row of the band.
#[inline(always)]
fn row_singles<L: Lanes>(w: L) -> L {
    let mut f = L::splat(0);
    for (r, &row) in ROW.iter().enumerate() {
        let s = w.and(L::splat(row));
        let t = s.and(s.sub(L::splat(1 << (9 * r))));
        f = f.or(s.keep_where_zero(t));
    }
    f
}

/// The full rows (of each band word) that hold a bit of `f`.
#[inline(always)]
fn row_span<L: Lanes>(f: L) -> L {
    let mut m = L::splat(0);
    for &row in &ROW {
        let r = L::splat(row);
        m = m.or(r.keep_where_nonzero(f.and(r)));
    }
    m
}

/// Removes, for each digit, the other candidates of the rows that hold a fixed cell, and
/// removes every fixed cell from the other digits.
#[inline(always)]
fn apply_fixed<L: Lanes>(w: L, fixed: L) -> L {
    let taken = fixed.digit_union();
    let x = taken.andnot(w).or(w.and(fixed));
    let rows = row_span(fixed);
    rows.andnot(x).or(x.and(fixed))
}

/// Row-rotation of a triad-anchor word: triad (r, k) takes the bit of triad (r + 1, k).
#[inline(always)]
fn rows_up1<L: Lanes>(x: L) -> L {
    x.shr::<9>().or(x.shl::<18>().and(L::splat(ALL)))
}

/// Row-rotation of a triad-anchor word: triad (r, k) takes the bit of triad (r + 2, k).
#[inline(always)]
fn rows_up2<L: Lanes>(x: L) -> L {
    x.shr::<18>().or(x.shl::<9>().and(L::splat(ALL)))
}

/// Box/line triads within each band: keeps only the triads that lie in some permutation
/// of the band's rows-by-boxes triad matrix.
#[inline(always)]
fn box_line<L: Lanes>(w: L) -> L {
    let o = w.or(w.shr::<1>()).or(w.shr::<2>()).and(L::splat(T_ALL));
    // a: triad (r, k) takes (r, k + 1); b: takes (r, k + 2).
    let a = o
        .shr::<3>()
        .and(L::splat(T_01))
        .or(o.shl::<6>().and(L::splat(T_2)));
    let b = o
        .shl::<3>()
        .and(L::splat(T_12))
        .or(o.shr::<6>().and(L::splat(T_0)));
    // (r, k) survives when (r+1, k+1) & (r+2, k+2) or (r+1, k+2) & (r+2, k+1).
    let m = rows_up1(a)
        .and(rows_up2(b))
        .or(rows_up1(b).and(rows_up2(a)));
    let s = o.and(m);
    w.and(s.or(s.shl::<1>()).or(s.shl::<2>()))
}

/// Column/box triads within each stack: keeps only the column triads that lie in some
/// permutation of the stack's bands-by-columns triad matrix.
#[inline(always)]
fn column_box<L: Lanes>(w: L) -> L {
    let c = w.or(w.shr::<9>()).or(w.shr::<18>()).and(L::splat(0x1FF));
    // q1: column j of a stack takes column j + 1; q2 takes column j + 2.
    let q1 = c
        .shr::<1>()
        .and(L::splat(COL_J01))
        .or(c.shl::<2>().and(L::splat(COL_J2)));
    let q2 = c
        .shl::<1>()
        .and(L::splat(COL_J12))
        .or(c.shr::<2>().and(L::splat(COL_J0)));
    let m = q1
        .next_band()
        .and(q2.prev_band())
        .or(q2.next_band().and(q1.prev_band()));
    let s = c.and(m);
    w.and(s.or(s.shl::<9>()).or(s.shl::<18>()))
}

/// True when the state (every cell with exactly one candidate) is a valid grid: each digit
/// once in every row, column and box.
#[inline(always)]
fn is_valid_grid<L: Lanes>(w: L) -> bool {
    let mut s = State::ZERO;
    w.store(&mut s);
    (0..9).all(|d| {
        let bands = &s.w[4 * d..4 * d + 3];
        let mut cols = 0;
        for &x in bands {
            let f = (x | x >> 9 | x >> 18) & 0x1FF;
            let rows_ok = ROW.iter().all(|&r| (x & r).count_ones() == 1);
            if !rows_ok || f & 0o7 == 0 || f & 0o70 == 0 || f & 0o700 == 0 {
                return false;
            }
            cols |= f;
        }
        cols == 0x1FF
    })
}

/// Propagates to a fixpoint (see the module docs).
#[inline(always)]
pub(super) fn propagate<L: Lanes>(w: &mut L) -> Step {
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
        let naked = two.andnot(one).and(*w);
        let fixed = row_singles(*w).or(naked);
        let x = column_box(box_line(apply_fixed(*w, fixed)));
        if x.any_band_empty() {
            return Step::Contradiction;
        }
        if x.same(*w) {
            return Step::Open;
        }
        *w = x;
    }
}

/// The branching choice: a band, one cell bit in it, and the cell's candidate digits
/// (bit `d` for digit `d + 1`). A bivalue cell if there is one (the first in reading order
/// by band), else the first cell with the fewest candidates.
#[inline(always)]
fn choose<L: Lanes>(w: L) -> (usize, u32, u32) {
    let (_, two, three) = w.digit_counts3();
    let t = two.first_lane();
    let h = three.first_lane();
    for b in 0..3 {
        let biv = t[b] & !h[b];
        if biv != 0 {
            let bit = biv & biv.wrapping_neg();
            return (b, bit, w.digits_meeting(b, bit));
        }
    }
    let mut best = (0, 0, 0);
    let mut best_n = u32::MAX;
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
    best
}

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
    limit: u32,
    solution: &mut State,
) -> Found {
    let mut cur = apply_fixed(L::load(root), L::load(fixed));
    let mut sp = 0usize;
    let mut count = 0u32;
    let mut guesses = 0u64;
    loop {
        match propagate(&mut cur) {
            Step::Solved => {
                count += 1;
                if count == 1 {
                    cur.store(solution);
                }
                if count >= limit {
                    break;
                }
            }
            Step::Contradiction => {}
            Step::Open => {
                let (b, bit, digits) = choose(cur);
                let d = digits.trailing_zeros() as usize;
                let this = L::digit_band_bits(d, b, bit);
                let Some(slot) = stack.get_mut(sp) else {
                    // Unreachable with a stack of 81 states; give up rather than panic.
                    break;
                };
                this.andnot(cur).store(slot);
                sp += 1;
                guesses += 1;
                cur = this.andnot(L::band_bits(b, bit)).andnot(cur);
                continue;
            }
        }
        if sp == 0 {
            break;
        }
        sp -= 1;
        cur = L::load(&stack[sp]);
    }
    Found { count, guesses }
}
