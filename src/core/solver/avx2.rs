//! The AVX2 backend: the kernel's [`Lanes`] operations on five 256-bit vectors, two digits
//! per vector, one digit per 128-bit lane (three band words and a zero pad word), the same
//! lane layout as the AVX-512 backend.
//!
//! ```text
//! ymm0: digit 1 | digit 2      each 128-bit lane: band0 band1 band2 0
//! ymm1: digit 3 | digit 4
//! ymm2: digit 5 | digit 6
//! ymm3: digit 7 | digit 8
//! ymm4: digit 9 |    0
//! ```
//!
//! Cross-band moves are in-lane dword shuffles; sums over the digits combine the five
//! vectors, then swap the two 128-bit halves. It serves x86-64 machines without AVX-512.
//!
//! This module and `avx512` hold the classic solver's only `unsafe` code (the generic
//! solver's is in `shape_avx512`). Every intrinsic here needs
//! AVX2; the [`Avx2`] operations are reached only through [`search`], whose only caller
//! holds an [`Avx2Token`], which exists only after run-time detection of the features that
//! `search` enables.

use std::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi32_si128, _mm_set_epi32, _mm_setzero_si128, _mm256_add_epi32,
    _mm256_and_si256, _mm256_andnot_si256, _mm256_broadcastsi128_si256, _mm256_castsi256_ps,
    _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_load_si256, _mm256_movemask_ps,
    _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set_m128i, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_sll_epi32,
    _mm256_srl_epi32, _mm256_store_si256, _mm256_sub_epi32, _mm256_testz_si256, _mm256_xor_si256,
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

/// Five vectors of two digit lanes each.
#[derive(Clone, Copy)]
pub(super) struct Avx2([__m256i; 5]);

/// Dwords (1, 2, 0, 3) in each 128-bit lane.
const NEXT_BAND: i32 = 0b11_00_10_01;
/// Dwords (2, 0, 1, 3) in each 128-bit lane.
const PREV_BAND: i32 = 0b11_01_00_10;
/// Quadwords (2, 3, 0, 1): swap the 128-bit halves.
const SWAP_HALVES: i32 = 0b01_00_11_10;

/// Applies an expression to each of the five vectors.
macro_rules! each {
    ($f:expr) => {
        Avx2([$f(0), $f(1), $f(2), $f(3), $f(4)])
    };
}

impl Avx2 {
    /// `v` with its two 128-bit halves swapped.
    #[inline(always)]
    fn swap(v: __m256i) -> __m256i {
        // SAFETY: AVX2, see the module docs.
        unsafe { _mm256_permute4x64_epi64::<SWAP_HALVES>(v) }
    }

    /// All-ones in the words of `v` that are zero.
    #[inline(always)]
    fn is_zero(v: __m256i) -> __m256i {
        // SAFETY: AVX2, see the module docs.
        unsafe { _mm256_cmpeq_epi32(v, _mm256_setzero_si256()) }
    }

    /// Bit-sliced counters (at least 1, 2, ..., `N`) over the five vectors, folded over the
    /// two halves, the same in both.
    #[inline(always)]
    fn counts<const N: usize>(self) -> [__m256i; N] {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let mut c = [_mm256_setzero_si256(); N];
            for x in self.0 {
                for k in (1..N).rev() {
                    c[k] = _mm256_or_si256(c[k], _mm256_and_si256(c[k - 1], x));
                }
                c[0] = _mm256_or_si256(c[0], x);
            }
            // Add the other half's counters: (a + b)[k] = OR over i + j = k + 1 of a[i] & b[j]
            // (with a[-1] = b[-1] = all ones), saturating at N.
            let b = c.map(Avx2::swap);
            let mut r = [_mm256_setzero_si256(); N];
            for (k, rk) in r.iter_mut().enumerate() {
                let mut v = _mm256_or_si256(c[k], b[k]);
                for i in 0..k {
                    v = _mm256_or_si256(v, _mm256_and_si256(c[i], b[k - 1 - i]));
                }
                *rk = v;
            }
            r
        }
    }
}

impl Lanes for Avx2 {
    const BOX_LINE_FIXPOINT: bool = true;
    const LATE_BAND_CHECK: bool = true;

    #[inline(always)]
    fn load(s: &State) -> Self {
        let p = s.w.as_ptr() as *const __m256i;
        // SAFETY: `State` is 192 bytes aligned to 64, so `p .. p + 5` are aligned, in-bounds
        // 32-byte reads; AVX2 as in the module docs.
        each!(|i| unsafe { _mm256_load_si256(p.add(i)) })
    }

    #[inline(always)]
    fn store(self, s: &mut State) {
        let p = s.w.as_mut_ptr() as *mut __m256i;
        for (i, v) in self.0.into_iter().enumerate() {
            // SAFETY: as in `load`, for writes.
            unsafe { _mm256_store_si256(p.add(i), v) };
        }
        // The upper lane of the last vector is digit lane 9, zero in every kernel value.
        s.w[40..].fill(0);
    }

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX2, see the module docs.
        let v = unsafe { _mm256_set1_epi32(x as i32) };
        Avx2([v; 5])
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
        let [a, b, c, e] = lane.map(|x| x as i32);
        // SAFETY: AVX2, see the module docs.
        let v = unsafe { _mm256_broadcastsi128_si256(_mm_set_epi32(e, c, b, a)) };
        Avx2([v; 5])
    }

    #[inline(always)]
    fn digit_sum(self) -> Self {
        let [a, b, c, d, e] = self.0;
        // SAFETY: AVX2, see the module docs.
        let u = unsafe {
            let u = _mm256_add_epi32(
                _mm256_add_epi32(_mm256_add_epi32(a, b), _mm256_add_epi32(c, d)),
                e,
            );
            _mm256_add_epi32(u, Avx2::swap(u))
        };
        Avx2([u; 5])
    }

    #[inline(always)]
    fn next_band(self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_shuffle_epi32::<NEXT_BAND>(self.0[i]) })
    }

    #[inline(always)]
    fn prev_band(self) -> Self {
        // SAFETY: AVX2, see the module docs.
        each!(|i| unsafe { _mm256_shuffle_epi32::<PREV_BAND>(self.0[i]) })
    }

    #[inline(always)]
    fn inc_where_zero(self, t: Self) -> Self {
        // SAFETY: AVX2, see the module docs. The comparison's all-ones is minus one.
        each!(|i| unsafe { _mm256_sub_epi32(self.0[i], Avx2::is_zero(t.0[i])) })
    }

    #[inline(always)]
    fn digit_counts(self) -> (Self, Self) {
        let [one, two] = self.counts::<2>();
        (Avx2([one; 5]), Avx2([two; 5]))
    }

    #[inline(always)]
    fn digit_counts3(self) -> (Self, Self, Self) {
        let [one, two, three] = self.counts::<3>();
        (Avx2([one; 5]), Avx2([two; 5]), Avx2([three; 5]))
    }

    #[inline(always)]
    fn digit_counts4(self) -> [Self; 4] {
        self.counts::<4>().map(|v| Avx2([v; 5]))
    }

    #[inline(always)]
    fn digit_union(self) -> Self {
        let [a, b, c, d, e] = self.0;
        // SAFETY: AVX2, see the module docs.
        let u = unsafe {
            let u = _mm256_or_si256(
                _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                e,
            );
            _mm256_or_si256(u, Avx2::swap(u))
        };
        Avx2([u; 5])
    }

    #[inline(always)]
    fn same(self, o: Self) -> bool {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let x = |i: usize| _mm256_xor_si256(self.0[i], o.0[i]);
            let d = _mm256_or_si256(
                _mm256_or_si256(_mm256_or_si256(x(0), x(1)), _mm256_or_si256(x(2), x(3))),
                x(4),
            );
            _mm256_testz_si256(d, d) != 0
        }
    }

    #[inline(always)]
    fn any_band_empty(self) -> bool {
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let z = |i: usize| Avx2::is_zero(self.0[i]);
            let e = _mm256_or_si256(_mm256_or_si256(z(0), z(1)), _mm256_or_si256(z(2), z(3)));
            // Band words of the digit lanes: three of four words, and only the low lane of the
            // last vector.
            let bands = _mm256_setr_epi32(-1, -1, -1, 0, -1, -1, -1, 0);
            let last = _mm256_setr_epi32(-1, -1, -1, 0, 0, 0, 0, 0);
            _mm256_testz_si256(e, bands) == 0 || _mm256_testz_si256(z(4), last) == 0
        }
    }

    #[inline(always)]
    fn first_lane(self) -> [u32; 4] {
        // SAFETY: AVX2, see the module docs; `__m128i` and `[u32; 4]` are both 16 plain
        // bytes, every bit pattern valid for both.
        unsafe { std::mem::transmute::<__m128i, [u32; 4]>(_mm256_castsi256_si128(self.0[0])) }
    }

    #[inline(always)]
    fn band_bits(b: usize, bits: u32) -> Self {
        let mut lane = [0u32; 4];
        lane[b % 4] = bits;
        let full = Avx2::pattern(lane).0[0];
        // SAFETY: AVX2, see the module docs.
        let low = unsafe { _mm256_set_m128i(_mm_setzero_si128(), _mm256_castsi256_si128(full)) };
        Avx2([full, full, full, full, low])
    }

    #[inline(always)]
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self {
        let [a, b, c, e] = lane.map(|x| x as i32);
        // SAFETY: AVX2, see the module docs.
        unsafe {
            let v = _mm_set_epi32(e, c, b, a);
            let z = _mm_setzero_si128();
            let x = if d.is_multiple_of(2) {
                _mm256_set_m128i(z, v)
            } else {
                _mm256_set_m128i(v, z)
            };
            each!(|i| if i == d / 2 {
                x
            } else {
                _mm256_setzero_si256()
            })
        }
    }

    #[inline(always)]
    fn digits_meeting(self, b: usize, bits: u32) -> u32 {
        let v = Avx2::band_bits(b, bits);
        let mut m = 0u64;
        for i in 0..5 {
            // SAFETY: AVX2, see the module docs.
            let z = unsafe {
                let z = Avx2::is_zero(_mm256_and_si256(self.0[i], v.0[i]));
                _mm256_movemask_ps(_mm256_castsi256_ps(z))
            };
            m |= u64::from(!z as u8) << (8 * i);
        }
        let m = m >> b;
        kernel::digits_from_lane_mask(m)
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
