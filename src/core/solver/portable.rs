//! The portable backend: the kernel's [`Lanes`] operations on nine 128-bit vectors, one per
//! digit (three band words and a zero pad word, the digit lanes of the module `kernel`
//! documents), written with the `wide` crate's `u32x4`.
//!
//! ```text
//! v[0]: digit 1      band0 band1 band2 0
//! v[1]: digit 2
//!  ...
//! v[8]: digit 9
//! ```
//!
//! `wide` compiles each `u32x4` operation to one instruction of the target's baseline
//! vector unit: NEON on aarch64 (every 64-bit ARM core has it), SSE2 on x86-64, WASM
//! SIMD128 where enabled, and plain arrays elsewhere. So this backend is the fast path of
//! ARM machines and the fallback of x86-64 machines without AVX2, and it has no `unsafe`
//! and no code of its own per architecture. Cross-band moves are constant lane shuffles
//! (the compiler emits `pshufd` or NEON `ext`/`tbl`); sums over the digits are a tree over
//! the nine vectors.

use wide::u32x4;

use super::State;
use super::kernel::{self, Found, Lanes, Params};

/// Nine digit vectors.
#[derive(Clone, Copy)]
pub(super) struct Portable([u32x4; 9]);

/// Applies an expression to each of the nine vectors.
macro_rules! each {
    ($f:expr) => {
        Portable([
            $f(0),
            $f(1),
            $f(2),
            $f(3),
            $f(4),
            $f(5),
            $f(6),
            $f(7),
            $f(8),
        ])
    };
}

/// All-ones in the words of `v` that are zero.
#[inline(always)]
fn is_zero(v: u32x4) -> u32x4 {
    v.simd_eq(u32x4::ZERO)
}

/// Dwords `(i, j, k, 3)` of `v`: a constant permutation of the band words.
#[inline(always)]
fn permute<const I: usize, const J: usize, const K: usize>(v: u32x4) -> u32x4 {
    let a = v.to_array();
    u32x4::new([a[I], a[J], a[K], a[3]])
}

/// A full adder on bit planes: the sum and carry bits of `a + b + c`.
#[inline(always)]
fn full_add(a: u32x4, b: u32x4, c: u32x4) -> (u32x4, u32x4) {
    let ab = a ^ b;
    (ab ^ c, (a & b) | (c & ab))
}

impl Portable {
    /// Bit-sliced counters (at least 1, 2, ..., `N`) over the nine digit vectors.
    #[inline(always)]
    fn counts<const N: usize>(self) -> [u32x4; N] {
        let mut c = [u32x4::ZERO; N];
        for x in self.0 {
            for k in (1..N).rev() {
                c[k] |= c[k - 1] & x;
            }
            c[0] |= x;
        }
        c
    }

    /// Bit-sliced counts over the nine digit vectors (at least 1, 2, 3, 4) by a tree of
    /// full adders, as [`Portable::counts2`].
    #[inline(always)]
    fn counts4(self) -> [u32x4; 4] {
        let v = self.0;
        // Three sums of three (weight 1) and their carries (weight 2).
        let (s0, c0) = full_add(v[0], v[1], v[2]);
        let (s1, c1) = full_add(v[3], v[4], v[5]);
        let (s2, c2) = full_add(v[6], v[7], v[8]);
        let (ones, c3) = full_add(s0, s1, s2);
        // The four weight-2 bits c0..c3: their sum's weight-2 bit, and weight-4 bits.
        let (t, u) = full_add(c0, c1, c2);
        let twos = t ^ c3;
        let at4 = u | (t & c3);
        let at2 = at4 | twos;
        [at2 | ones, at2, at4 | (twos & ones), at4]
    }

    /// Cells with at least one, at least two candidates, by a tree of full adders
    /// (carry-save): fewer operations and a shorter chain than counting digit by digit.
    /// Two or more are set exactly where some adder carries.
    #[inline(always)]
    fn counts2(self) -> (u32x4, u32x4) {
        let v = self.0;
        let (s0, c0) = full_add(v[0], v[1], v[2]);
        let (s1, c1) = full_add(v[3], v[4], v[5]);
        let (s2, c2) = full_add(v[6], v[7], v[8]);
        let (ones, c3) = full_add(s0, s1, s2);
        let two = (c0 | c1) | (c2 | c3);
        (ones | two, two)
    }
}

impl Lanes for Portable {
    const BOX_LINE_FIXPOINT: bool = false;
    const LATE_BAND_CHECK: bool = false;
    const SPLIT_FIXED: bool = false;

    #[inline(always)]
    fn load(s: &State) -> Self {
        each!(|d: usize| u32x4::new([s.w[4 * d], s.w[4 * d + 1], s.w[4 * d + 2], s.w[4 * d + 3]]))
    }

    #[inline(always)]
    fn store(self, s: &mut State) {
        for (d, v) in self.0.into_iter().enumerate() {
            s.w[4 * d..4 * d + 4].copy_from_slice(&v.to_array());
        }
        s.w[36..].fill(0);
    }

    #[inline(always)]
    fn splat(x: u32) -> Self {
        Portable([u32x4::splat(x); 9])
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        each!(|i: usize| self.0[i] & o.0[i])
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        each!(|i: usize| self.0[i] | o.0[i])
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // The compiler fuses `!a & b` into one `pandn` (SSE2) or `bic` (NEON).
        each!(|i: usize| !self.0[i] & o.0[i])
    }

    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        each!(|i: usize| self.0[i] << N)
    }

    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        each!(|i: usize| self.0[i] >> N)
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        each!(|i: usize| self.0[i] - o.0[i])
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        each!(|i: usize| self.0[i] + o.0[i])
    }

    #[inline(always)]
    fn pattern(lane: [u32; 4]) -> Self {
        Portable([u32x4::new(lane); 9])
    }

    #[inline(always)]
    fn digit_sum(self) -> Self {
        let v = self.0;
        let u = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])) + v[8];
        Portable([u; 9])
    }

    #[inline(always)]
    fn next_band(self) -> Self {
        each!(|i: usize| permute::<1, 2, 0>(self.0[i]))
    }

    #[inline(always)]
    fn prev_band(self) -> Self {
        each!(|i: usize| permute::<2, 0, 1>(self.0[i]))
    }

    #[inline(always)]
    fn inc_where_zero(self, t: Self) -> Self {
        // The comparison's all-ones is minus one.
        each!(|i: usize| self.0[i] - is_zero(t.0[i]))
    }

    #[inline(always)]
    fn digit_counts(self) -> (Self, Self) {
        let (one, two) = self.counts2();
        (Portable([one; 9]), Portable([two; 9]))
    }

    #[inline(always)]
    fn digit_counts3(self) -> (Self, Self, Self) {
        let [one, two, three] = self.counts::<3>();
        (Portable([one; 9]), Portable([two; 9]), Portable([three; 9]))
    }

    #[inline(always)]
    fn digit_counts4(self) -> [Self; 4] {
        self.counts4().map(|v| Portable([v; 9]))
    }

    #[inline(always)]
    fn digit_union(self) -> Self {
        let v = self.0;
        let u = ((v[0] | v[1]) | (v[2] | v[3])) | ((v[4] | v[5]) | (v[6] | v[7])) | v[8];
        Portable([u; 9])
    }

    #[inline(always)]
    fn same(self, o: Self) -> bool {
        let x = |i: usize| self.0[i] ^ o.0[i];
        let d = ((x(0) | x(1)) | (x(2) | x(3))) | ((x(4) | x(5)) | (x(6) | x(7))) | x(8);
        is_zero(d).all()
    }

    #[inline(always)]
    fn any_band_empty(self) -> bool {
        let z = |i: usize| is_zero(self.0[i]);
        let e = ((z(0) | z(1)) | (z(2) | z(3))) | ((z(4) | z(5)) | (z(6) | z(7))) | z(8);
        // Band words only: the pad word is always zero.
        e.to_bitmask() & 0b0111 != 0
    }

    #[inline(always)]
    fn first_lane(self) -> [u32; 4] {
        self.0[0].to_array()
    }

    #[inline(always)]
    fn band_bits(b: usize, bits: u32) -> Self {
        let mut lane = [0u32; 4];
        lane[b % 4] = bits;
        Portable([u32x4::new(lane); 9])
    }

    #[inline(always)]
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self {
        let v = u32x4::new(lane);
        each!(|i: usize| if i == d { v } else { u32x4::ZERO })
    }

    #[inline(always)]
    fn digits_meeting(self, b: usize, bits: u32) -> u32 {
        let mut m = 0;
        for (d, v) in self.0.iter().enumerate() {
            if v.to_array()[b % 4] & bits != 0 {
                m |= 1 << d;
            }
        }
        m
    }
}

/// Runs the kernel with the portable operations.
pub(super) fn search(
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    kernel::search::<Portable>(stack, root, fixed, params, solution)
}
