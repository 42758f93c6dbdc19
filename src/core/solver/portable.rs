//! The portable backend: the kernel's [`Lanes`] operations on plain arrays of the nine
//! digits' words. It runs everywhere (the compiler vectorizes the simple loops where it
//! can) and is the reference the AVX2 and AVX-512 backends must agree with bit for bit.

use super::State;
use super::kernel::{self, Found, Lanes, Params};

/// Nine digit lanes of four words (three band words and a zero pad word).
#[derive(Clone, Copy)]
pub(super) struct Portable([u32; 36]);

impl Portable {
    #[inline(always)]
    fn map(self, f: impl Fn(u32) -> u32) -> Portable {
        let mut r = self.0;
        for x in r.iter_mut() {
            *x = f(*x);
        }
        Portable(r)
    }

    #[inline(always)]
    fn zip(self, o: Portable, f: impl Fn(u32, u32) -> u32) -> Portable {
        let mut r = self.0;
        for (x, &y) in r.iter_mut().zip(o.0.iter()) {
            *x = f(*x, y);
        }
        Portable(r)
    }

    #[inline(always)]
    fn permute_bands(self, p: [usize; 4]) -> Portable {
        let mut r = [0u32; 36];
        for (dst, src) in r.chunks_exact_mut(4).zip(self.0.chunks_exact(4)) {
            for (i, &j) in p.iter().enumerate() {
                dst[i] = src[j];
            }
        }
        Portable(r)
    }

    #[inline(always)]
    fn broadcast(lane: [u32; 4]) -> Portable {
        let mut r = [0u32; 36];
        for dst in r.chunks_exact_mut(4) {
            dst.copy_from_slice(&lane);
        }
        Portable(r)
    }
}

impl Lanes for Portable {
    #[inline(always)]
    fn load(s: &State) -> Self {
        let mut r = [0u32; 36];
        r.copy_from_slice(&s.w[..36]);
        Portable(r)
    }

    #[inline(always)]
    fn store(self, s: &mut State) {
        s.w[..36].copy_from_slice(&self.0);
        s.w[36..].fill(0);
    }

    #[inline(always)]
    fn splat(x: u32) -> Self {
        Portable([x; 36])
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        self.zip(o, |a, b| !a & b)
    }

    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        self.map(|a| a << N)
    }

    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        self.map(|a| a >> N)
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, u32::wrapping_sub)
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, u32::wrapping_add)
    }

    #[inline(always)]
    fn pattern(lane: [u32; 4]) -> Self {
        Portable::broadcast(lane)
    }

    #[inline(always)]
    fn digit_sum(self) -> Self {
        let mut u = [0u32; 4];
        for lane in self.0.chunks_exact(4) {
            for i in 0..4 {
                u[i] = u[i].wrapping_add(lane[i]);
            }
        }
        Portable::broadcast(u)
    }

    #[inline(always)]
    fn next_band(self) -> Self {
        self.permute_bands([1, 2, 0, 3])
    }

    #[inline(always)]
    fn prev_band(self) -> Self {
        self.permute_bands([2, 0, 1, 3])
    }

    #[inline(always)]
    fn keep_where_zero(self, t: Self) -> Self {
        self.zip(t, |a, t| if t == 0 { a } else { 0 })
    }

    #[inline(always)]
    fn keep_where_nonzero(self, t: Self) -> Self {
        self.zip(t, |a, t| if t != 0 { a } else { 0 })
    }

    #[inline(always)]
    fn digit_counts(self) -> (Self, Self) {
        let (mut one, mut two) = ([0u32; 4], [0u32; 4]);
        for lane in self.0.chunks_exact(4) {
            for i in 0..4 {
                two[i] |= one[i] & lane[i];
                one[i] |= lane[i];
            }
        }
        (Portable::broadcast(one), Portable::broadcast(two))
    }

    #[inline(always)]
    fn digit_counts3(self) -> (Self, Self, Self) {
        let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        for lane in self.0.chunks_exact(4) {
            for i in 0..4 {
                three[i] |= two[i] & lane[i];
                two[i] |= one[i] & lane[i];
                one[i] |= lane[i];
            }
        }
        (
            Portable::broadcast(one),
            Portable::broadcast(two),
            Portable::broadcast(three),
        )
    }

    #[inline(always)]
    fn digit_counts4(self) -> [Self; 4] {
        let mut c = [[0u32; 4]; 4];
        for lane in self.0.chunks_exact(4) {
            for i in 0..4 {
                c[3][i] |= c[2][i] & lane[i];
                c[2][i] |= c[1][i] & lane[i];
                c[1][i] |= c[0][i] & lane[i];
                c[0][i] |= lane[i];
            }
        }
        c.map(Portable::broadcast)
    }

    #[inline(always)]
    fn digit_union(self) -> Self {
        let mut u = [0u32; 4];
        for lane in self.0.chunks_exact(4) {
            for i in 0..4 {
                u[i] |= lane[i];
            }
        }
        Portable::broadcast(u)
    }

    #[inline(always)]
    fn same(self, o: Self) -> bool {
        self.0 == o.0
    }

    #[inline(always)]
    fn any_band_empty(self) -> bool {
        self.0
            .chunks_exact(4)
            .any(|lane| lane[0] == 0 || lane[1] == 0 || lane[2] == 0)
    }

    #[inline(always)]
    fn first_lane(self) -> [u32; 4] {
        [self.0[0], self.0[1], self.0[2], self.0[3]]
    }

    #[inline(always)]
    fn band_bits(b: usize, bits: u32) -> Self {
        let mut r = [0u32; 36];
        for lane in r.chunks_exact_mut(4) {
            lane[b] = bits;
        }
        Portable(r)
    }

    #[inline(always)]
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self {
        let mut r = [0u32; 36];
        r[4 * d..4 * d + 4].copy_from_slice(&lane);
        Portable(r)
    }

    #[inline(always)]
    fn digits_meeting(self, b: usize, bits: u32) -> u32 {
        let mut m = 0;
        for (d, lane) in self.0.chunks_exact(4).enumerate() {
            if lane[b] & bits != 0 {
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
