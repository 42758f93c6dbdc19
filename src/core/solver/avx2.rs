//! The AVX2 backend: the kernel's [`Lanes`] operations on four 256-bit vectors, band-major:
//! one vector per band for digits 1 to 8 (one digit per dword), and a fourth for digit 9.
//!
//! ```text
//! ymm0: band 0 of digits 1 2 3 4 5 6 7 8
//! ymm1: band 1 of digits 1 2 3 4 5 6 7 8
//! ymm2: band 2 of digits 1 2 3 4 5 6 7 8
//! ymm3: digit 9, bands 0 0 2 2 | 1 1 2 2   (band words repeated to fill the vector)
//! ```
//!
//! Four vectors hold the 27 band words with 5 spare dwords, where the kernel's canonical
//! layout (a 128-bit lane per digit) needs five: every rule of a propagation round costs a
//! fifth less, and fewer registers spill. Moving to the next band renames the three band
//! vectors and permutes the quadwords of the fourth. Sums and counts over the digits fold
//! each band vector's eight dwords (two band vectors at once where the shuffles allow), then
//! add digit 9; the fourth vector's odd layout is the one those folds end in.
//!
//! The search stack keeps states in this layout ([`Lanes::save`]); the canonical layout of
//! [`State`] (a transpose each way) is met only at the start and end of a search and where
//! the branch choice reads single band words.
//!
//! This module and `avx512` hold the classic solver's only `unsafe` code (the generic
//! solver's is in `shape_avx512`). Every intrinsic here needs
//! AVX2; the [`Avx2`] operations are reached only through [`search`], whose only caller
//! holds an [`Avx2Token`], which exists only after run-time detection of the features that
//! `search` enables.

use std::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_cvtsi256_si32, _mm256_load_si256,
    _mm256_movemask_ps, _mm256_mullo_epi32, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_sll_epi32, _mm256_srl_epi32,
    _mm256_store_si256, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_testz_si256,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};

use super::State;
use super::kernel::{self, Found, Lanes, Params};

/// Proof that the running CPU has the features [`search`] is compiled for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx2Token(());

impl Avx2Token {
    /// The token, if this CPU supports the AVX2 backend.
    pub(super) fn detect() -> Option<Avx2Token> {
        let ok = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt");
        ok.then_some(Avx2Token(()))
    }
}

/// Three band vectors (digits 1 to 8) and the digit 9 vector.
#[derive(Clone, Copy)]
pub(super) struct Avx2([__m256i; 4]);

/// The band of each dword of the digit 9 vector.
const D9_BANDS: [usize; 8] = [0, 0, 2, 2, 1, 1, 2, 2];
/// The first dword of each band in the digit 9 vector.
const D9_AT: [usize; 3] = [0, 4, 2];
/// Quadword selectors (`vpermq`) of the digit 9 vector: the next band of each quadword's
/// band (its quadwords hold bands 0, 2, 1, 2).
const D9_NEXT: i32 = 0b00_01_00_10;
/// The previous band of each quadword's band.
const D9_PREV: i32 = 0b10_00_10_01;
/// Quadword selectors that broadcast quadword 0, 2 and 1: bands 0, 1, 2 of a folded vector
/// (laid out as the digit 9 vector).
const BCAST_Q: [i32; 3] = [0b00_00_00_00, 0b10_10_10_10, 0b01_01_01_01];
/// Dwords (1, 0, 3, 2) in each 128-bit lane.
const SWAP_PAIRS: i32 = 0b10_11_00_01;
/// Quadwords (2, 3, 0, 1): swap the 128-bit halves.
const SWAP_HALVES: i32 = 0b01_00_11_10;

/// Applies an expression to each of the four vectors.
macro_rules! each {
    ($f:expr) => {
        Avx2([$f(0), $f(1), $f(2), $f(3)])
    };
}

/// How two partial results over disjoint sets of digits combine: bit-sliced saturating
/// counters, or wrapping sums.
trait Fold<const N: usize> {
    fn fold(a: [__m256i; N], b: [__m256i; N]) -> [__m256i; N];
}

/// Saturating bit-sliced counters: plane `k` marks "at least `k + 1`".
struct Count;

impl<const N: usize> Fold<N> for Count {
    #[inline(always)]
    fn fold(a: [__m256i; N], b: [__m256i; N]) -> [__m256i; N] {
        // (a + b) >= k + 1 when a >= k + 1, b >= k + 1, or a >= i + 1 and b >= j + 1 with
        // i + j + 2 = k + 1. Zero planes fold away at compile time.
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let mut r = [_mm256_setzero_si256(); N];
            for (k, rk) in r.iter_mut().enumerate() {
                let mut v = _mm256_or_si256(a[k], b[k]);
                for i in 0..k {
                    v = _mm256_or_si256(v, _mm256_and_si256(a[i], b[k - 1 - i]));
                }
                *rk = v;
            }
            r
        }
    }
}

/// Wrapping sums (one plane).
struct Sum;

impl Fold<1> for Sum {
    #[inline(always)]
    fn fold(a: [__m256i; 1], b: [__m256i; 1]) -> [__m256i; 1] {
        // SAFETY: AVX2, see the module docs.
        [unsafe { _mm256_add_epi32(a[0], b[0]) }]
    }
}

impl Avx2 {
    /// Band word `b` (0..3) of each of the nine digits.
    #[inline(always)]
    fn band_words(self, b: usize) -> [u32; 9] {
        let mut x = [[0u32; 8]; 4];
        for (v, out) in self.0.into_iter().zip(x.iter_mut()) {
            // SAFETY: 32-byte unaligned write into a `[u32; 8]`; AVX2 as in the module docs.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, v) };
        }
        let b = b % 3;
        let [a0, a1, a2, a3, a4, a5, a6, a7] = x[b];
        [a0, a1, a2, a3, a4, a5, a6, a7, x[3][D9_AT[b]]]
    }

    /// A vector in the layout of the digit 9 vector: `lane[b]` in the dwords of band `b`.
    #[inline(always)]
    fn d9(lane: [u32; 3]) -> __m256i {
        let x = |k: usize| lane[D9_BANDS[k]] as i32;
        // SAFETY: AVX2, see the module docs.
        unsafe { _mm256_setr_epi32(x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7)) }
    }

    /// All-ones in the words of `v` that are zero.
    #[inline(always)]
    fn is_zero(v: __m256i) -> __m256i {
        // SAFETY: AVX2, see the module docs.
        unsafe { _mm256_cmpeq_epi32(v, _mm256_setzero_si256()) }
    }

    /// Folds per-digit planes over the nine digits (counters or sums, see [`Fold`]): each
    /// plane of the result holds the band totals in every digit's dwords.
    ///
    /// The band vectors fold by halves (bands 0 and 1 together), then by quadwords (with
    /// band 2), then by dwords, which leaves bands 0, 2, 1, 2 in the four quadwords: the
    /// digit 9 vector's layout, so digit 9 adds in directly.
    #[inline(always)]
    fn fold<F: Fold<N>, const N: usize>(planes: [[__m256i; 4]; N]) -> [[__m256i; 4]; N] {
        // Plain loops rather than `array::map` and `from_fn`, which need not inline.
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let zero = _mm256_setzero_si256();
            let (mut p, mut q) = ([zero; N], [zero; N]);
            // [band 0, digits 0-3 | band 1, digits 0-3] + [the same, digits 4-7]
            for k in 0..N {
                let [v0, v1, _, _] = planes[k];
                p[k] = _mm256_permute2x128_si256::<0x20>(v0, v1);
                q[k] = _mm256_permute2x128_si256::<0x31>(v0, v1);
            }
            let a = F::fold(p, q);
            for k in 0..N {
                p[k] = planes[k][2];
                q[k] = _mm256_permute4x64_epi64::<SWAP_HALVES>(p[k]);
            }
            let b = F::fold(p, q);
            // Per 128-bit lane: [a0+a2, a1+a3, b0+b2, b1+b3].
            for k in 0..N {
                p[k] = _mm256_unpacklo_epi64(a[k], b[k]);
                q[k] = _mm256_unpackhi_epi64(a[k], b[k]);
            }
            let e = F::fold(p, q);
            // Bands 0 0 2 2 | 1 1 2 2 over digits 1-8, then digit 9.
            for k in 0..N {
                q[k] = _mm256_shuffle_epi32::<SWAP_PAIRS>(e[k]);
                p[k] = planes[k][3];
            }
            let f = F::fold(e, q);
            let g = F::fold(f, p);
            let mut r = [[zero; 4]; N];
            for k in 0..N {
                r[k] = [
                    _mm256_permute4x64_epi64::<{ BCAST_Q[0] }>(g[k]),
                    _mm256_permute4x64_epi64::<{ BCAST_Q[1] }>(g[k]),
                    _mm256_permute4x64_epi64::<{ BCAST_Q[2] }>(g[k]),
                    g[k],
                ];
            }
            r
        }
    }

    /// Bit-sliced counters (at least 1, 2, ..., `N`) over the nine digits.
    #[inline(always)]
    fn counts<const N: usize>(self) -> [Avx2; N] {
        // SAFETY: AVX2, see the module docs.
        let zero = unsafe { _mm256_setzero_si256() };
        let mut planes = [[zero; 4]; N];
        planes[0] = self.0;
        let r = Avx2::fold::<Count, N>(planes);
        let mut out = [Avx2([zero; 4]); N];
        for k in 0..N {
            out[k] = Avx2(r[k]);
        }
        out
    }
}

impl Lanes for Avx2 {
    const BOX_LINE_FIXPOINT: bool = true;
    const LATE_BAND_CHECK: bool = true;
    const SPLIT_FIXED: bool = true;

    #[inline(always)]
    fn load(s: &State) -> Self {
        let p = s.w.as_ptr() as *const __m256i;
        // SAFETY: `State` is 192 bytes aligned to 64, so `p .. p + 4` are aligned, in-bounds
        // 32-byte reads; AVX2 as in the module docs.
        unsafe {
            // Digits (0, 1), (2, 3), (4, 5), (6, 7): a 4x4 dword transpose per 128-bit lane
            // gives each band's digits in the order 0 2 4 6 | 1 3 5 7.
            let x = [
                _mm256_load_si256(p),
                _mm256_load_si256(p.add(1)),
                _mm256_load_si256(p.add(2)),
                _mm256_load_si256(p.add(3)),
            ];
            let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
            let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
            let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
            let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
            let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
            let band = |v| _mm256_permutevar8x32_epi32(v, order);
            let d9 = Avx2::d9([s.w[32], s.w[33], s.w[34]]);
            Avx2([
                band(_mm256_unpacklo_epi64(t0, t2)),
                band(_mm256_unpackhi_epi64(t0, t2)),
                band(_mm256_unpacklo_epi64(t1, t3)),
                d9,
            ])
        }
    }

    #[inline(always)]
    fn store(self, s: &mut State) {
        let p = s.w.as_mut_ptr() as *mut __m256i;
        // SAFETY: as in `load`, for writes.
        unsafe {
            // The inverse of `load`: digits to the order 0 2 4 6 | 1 3 5 7, then the
            // transpose (band 3 of each digit is the zero pad).
            let order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
            let [v0, v1, v2, v3] = self.0;
            let v = [
                _mm256_permutevar8x32_epi32(v0, order),
                _mm256_permutevar8x32_epi32(v1, order),
                _mm256_permutevar8x32_epi32(v2, order),
            ];
            let z = _mm256_setzero_si256();
            let t0 = _mm256_unpacklo_epi32(v[0], v[1]);
            let t1 = _mm256_unpackhi_epi32(v[0], v[1]);
            let t2 = _mm256_unpacklo_epi32(v[2], z);
            let t3 = _mm256_unpackhi_epi32(v[2], z);
            _mm256_store_si256(p, _mm256_unpacklo_epi64(t0, t2));
            _mm256_store_si256(p.add(1), _mm256_unpackhi_epi64(t0, t2));
            _mm256_store_si256(p.add(2), _mm256_unpacklo_epi64(t1, t3));
            _mm256_store_si256(p.add(3), _mm256_unpackhi_epi64(t1, t3));
            let mut d9 = [0u32; 8];
            _mm256_storeu_si256(d9.as_mut_ptr() as *mut __m256i, v3);
            s.w[32..].fill(0);
            for (b, &at) in D9_AT.iter().enumerate() {
                s.w[32 + b] = d9[at];
            }
        }
    }

    #[inline(always)]
    fn save(self, s: &mut State) {
        let p = s.w.as_mut_ptr() as *mut __m256i;
        for (i, v) in self.0.into_iter().enumerate() {
            // SAFETY: `State` is 192 bytes aligned to 64: four aligned, in-bounds 32-byte
            // writes; AVX2 as in the module docs.
            unsafe { _mm256_store_si256(p.add(i), v) };
        }
    }

    #[inline(always)]
    fn restore(s: &State) -> Self {
        let p = s.w.as_ptr() as *const __m256i;
        // SAFETY: as in `save`, for reads.
        each!(|i| unsafe { _mm256_load_si256(p.add(i)) })
    }

    #[inline(always)]
    fn spread_triads(self) -> Self {
        // SAFETY: AVX2, see the module docs. A multiply runs on other ports than the
        // shifts, which the rounds are short of.
        each!(|i| unsafe { _mm256_mullo_epi32(self.0[i], _mm256_set1_epi32(7)) })
    }

    #[inline(always)]
    fn spread_columns(self) -> Self {
        // SAFETY: as in `spread_triads`; the column bits are below bit 9, so the three
        // copies do not overlap.
        each!(|i| unsafe { _mm256_mullo_epi32(self.0[i], _mm256_set1_epi32(0x40201)) })
    }

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX2, see the module docs.
        let v = unsafe { _mm256_set1_epi32(x as i32) };
        Avx2([v; 4])
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_and_si256(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_or_si256(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_andnot_si256(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: AVX2, see the module docs. A constant count folds to `vpslld imm`.
        each!(|i| unsafe { _mm256_sll_epi32(self.0[i], _mm_cvtsi32_si128(N as i32)) })
    }

    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: AVX2, see the module docs. A constant count folds to `vpsrld imm`.
        each!(|i| unsafe { _mm256_srl_epi32(self.0[i], _mm_cvtsi32_si128(N as i32)) })
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_sub_epi32(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_add_epi32(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn pattern(lane: [u32; 4]) -> Self {
        let [a, b, c, _] = lane;
        let s = Avx2::splat;
        Avx2([s(a).0[0], s(b).0[0], s(c).0[0], Avx2::d9([a, b, c])])
    }

    #[inline(always)]
    fn digit_sum(self) -> Self {
        let [s] = Avx2::fold::<Sum, 1>([self.0]);
        Avx2(s)
    }

    #[inline(always)]
    fn next_band(self) -> Self {
        let [v0, v1, v2, v3] = self.0;
        // SAFETY: AVX2, see the module docs.
        Avx2([v1, v2, v0, unsafe {
            _mm256_permute4x64_epi64::<D9_NEXT>(v3)
        }])
    }

    #[inline(always)]
    fn prev_band(self) -> Self {
        let [v0, v1, v2, v3] = self.0;
        // SAFETY: AVX2, see the module docs.
        Avx2([v2, v0, v1, unsafe {
            _mm256_permute4x64_epi64::<D9_PREV>(v3)
        }])
    }

    #[inline(always)]
    fn inc_where_zero(self, t: Self) -> Self {
        // SAFETY: AVX2, see the module docs. The comparison's all-ones is minus one.
        each!(|i| unsafe { _mm256_sub_epi32(self.0[i], Avx2::is_zero(t.0[i])) })
    }

    #[inline(always)]
    fn digit_counts(self) -> (Self, Self) {
        let [one, two] = self.counts::<2>();
        (one, two)
    }

    #[inline(always)]
    fn digit_counts3(self) -> (Self, Self, Self) {
        let [one, two, three] = self.counts::<3>();
        (one, two, three)
    }

    #[inline(always)]
    fn digit_counts4(self) -> [Self; 4] {
        self.counts::<4>()
    }

    #[inline(always)]
    fn digit_union(self) -> Self {
        let [one] = self.counts::<1>();
        one
    }

    #[inline(always)]
    fn same(self, o: Self) -> bool {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let x = |i: usize| _mm256_xor_si256(self.0[i], o.0[i]);
            let d = _mm256_or_si256(_mm256_or_si256(x(0), x(1)), _mm256_or_si256(x(2), x(3)));
            _mm256_testz_si256(d, d) != 0
        }
    }

    #[inline(always)]
    fn any_band_empty(self) -> bool {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            // Every dword is a band word (no padding).
            let z = |i: usize| Avx2::is_zero(self.0[i]);
            let e = _mm256_or_si256(_mm256_or_si256(z(0), z(1)), _mm256_or_si256(z(2), z(3)));
            _mm256_testz_si256(e, e) == 0
        }
    }

    #[inline(always)]
    fn first_lane(self) -> [u32; 4] {
        // SAFETY: AVX2, see the module docs.
        let w = |i: usize| unsafe { _mm256_cvtsi256_si32(self.0[i]) as u32 };
        [w(0), w(1), w(2), 0]
    }

    #[inline(always)]
    fn band_bits(b: usize, bits: u32) -> Self {
        let mut lane = [0u32; 4];
        lane[b % 3] = bits;
        Avx2::pattern(lane)
    }

    #[inline(always)]
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            if d >= 8 {
                let z = _mm256_setzero_si256();
                Avx2([z, z, z, Avx2::d9([lane[0], lane[1], lane[2]])])
            } else {
                let at = _mm256_cmpeq_epi32(
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    _mm256_set1_epi32(d as i32),
                );
                let v = |b: usize| _mm256_and_si256(at, _mm256_set1_epi32(lane[b] as i32));
                Avx2([v(0), v(1), v(2), _mm256_setzero_si256()])
            }
        }
    }

    #[inline(always)]
    fn digits_meeting(self, b: usize, bits: u32) -> u32 {
        let b = b % 3;
        // SAFETY: AVX2, see the module docs.
        let low = unsafe {
            let z = Avx2::is_zero(_mm256_and_si256(self.0[b], _mm256_set1_epi32(bits as i32)));
            !(_mm256_movemask_ps(_mm256_castsi256_ps(z)) as u32) & 0xFF
        };
        let nine = self.band_words(b)[8] & bits != 0;
        low | u32::from(nine) << 8
    }
}

/// Runs the kernel with AVX2 operations.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn search_avx2(
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    kernel::search::<Avx2>(stack, root, fixed, params, solution)
}

/// Runs the kernel with AVX2 operations; the token proves the CPU supports them.
#[inline]
pub(super) fn search(
    _token: Avx2Token,
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    // SAFETY: the token exists only when `Avx2Token::detect` found every feature that
    // `search_avx2` enables.
    unsafe { search_avx2(stack, root, fixed, params, solution) }
}
