//! The AVX-512 backend: the kernel's [`Lanes`] operations on three 512-bit vectors, four
//! digits per vector, one digit per 128-bit lane (three band words and a zero pad word).
//!
//! ```text
//! zmm0: digit 1 | digit 2 | digit 3 | digit 4      each 128-bit lane: band0 band1 band2 0
//! zmm1: digit 5 | digit 6 | digit 7 | digit 8
//! zmm2: digit 9 |    0    |    0    |    0
//! ```
//!
//! Cross-band moves are in-lane dword shuffles; sums over the digits are three-input
//! logic (`vpternlogd`) across the vectors, then two 128-bit lane swaps.
//!
//! This module and `avx2` hold the classic solver's only `unsafe` code (the generic
//! solver's is in `shape_avx512`). Every intrinsic here needs
//! AVX-512F; the [`Avx512`] operations are reached only through [`search`], whose only
//! caller holds an [`Avx512Token`], which exists only after run-time detection of the
//! features that `search` enables.

use std::arch::x86_64::{
    __m128i, __m512i, _mm_set_epi32, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_broadcast_i32x4, _mm512_castsi512_si128, _mm512_load_si512, _mm512_mask_add_epi32,
    _mm512_mask_testn_epi32_mask, _mm512_maskz_broadcast_i32x4, _mm512_maskz_set1_epi32,
    _mm512_or_si512, _mm512_set1_epi32, _mm512_setzero_si512, _mm512_shuffle_epi32,
    _mm512_shuffle_i64x2, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_store_si512,
    _mm512_sub_epi32, _mm512_ternarylogic_epi32, _mm512_test_epi32_mask, _mm512_testn_epi32_mask,
    _mm512_xor_si512,
};

use super::State;
use super::kernel::{self, Found, Lanes, Params};

/// Proof that the running CPU has the features [`search`] is compiled for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx512Token(());

impl Avx512Token {
    /// The token, if this CPU supports the AVX-512 backend.
    pub(super) fn detect() -> Option<Avx512Token> {
        let ok = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt");
        ok.then_some(Avx512Token(()))
    }
}

/// Three vectors of four digit lanes each.
#[derive(Clone, Copy)]
pub(super) struct Avx512([__m512i; 3]);

// Truth tables for vpternlogd (inputs a = 0xF0, b = 0xCC, c = 0xAA).
const OR3: i32 = 0xFE;
const MAJORITY: i32 = 0xE8;
const AND3: i32 = 0x80;
/// 128-bit lanes (2, 3, 0, 1): swap the halves.
const SWAP_HALVES: i32 = 0b01_00_11_10;
/// 128-bit lanes (1, 0, 3, 2): swap neighbours.
const SWAP_PAIRS: i32 = 0b10_11_00_01;
/// Dwords (1, 2, 0, 3) in each 128-bit lane.
const NEXT_BAND: i32 = 0b11_00_10_01;
/// Dwords (2, 0, 1, 3) in each 128-bit lane.
const PREV_BAND: i32 = 0b11_01_00_10;
/// Band dwords of the digit lanes that hold digits.
const VALID: [u16; 3] = [0x7777, 0x7777, 0x0007];

/// Applies an intrinsic to each of the three vectors.
macro_rules! each {
    ($f:expr) => {
        Avx512([$f(0), $f(1), $f(2)])
    };
}

impl Avx512 {
    /// Sums saturating bit-sliced counters over the four 128-bit lanes of `v` (counts of
    /// one, two and three or more), leaving the total in every lane.
    #[inline(always)]
    fn fold_lanes3(one: __m512i, two: __m512i, three: __m512i) -> (__m512i, __m512i, __m512i) {
        // SAFETY: only reached from `search`, compiled with AVX-512F and entered only with
        // an `Avx512Token` (see the module docs).
        unsafe {
            let (mut a1, mut a2, mut a3) = (one, two, three);
            macro_rules! step {
                ($imm:expr) => {
                    let b1 = _mm512_shuffle_i64x2::<$imm>(a1, a1);
                    let b2 = _mm512_shuffle_i64x2::<$imm>(a2, a2);
                    let b3 = _mm512_shuffle_i64x2::<$imm>(a3, a3);
                    let c3 = _mm512_or_si512(
                        _mm512_ternarylogic_epi32::<OR3>(a3, b3, _mm512_and_si512(a2, b1)),
                        _mm512_and_si512(a1, b2),
                    );
                    let c2 = _mm512_ternarylogic_epi32::<OR3>(a2, b2, _mm512_and_si512(a1, b1));
                    a1 = _mm512_or_si512(a1, b1);
                    a2 = c2;
                    a3 = c3;
                };
            }
            step!(SWAP_HALVES);
            step!(SWAP_PAIRS);
            (a1, a2, a3)
        }
    }
}

impl Lanes for Avx512 {
    const BOX_LINE_FIXPOINT: bool = true;
    const LATE_BAND_CHECK: bool = true;
    const SPLIT_FIXED: bool = true;

    #[inline(always)]
    fn load(s: &State) -> Self {
        let p = s.w.as_ptr() as *const __m512i;
        // SAFETY: `State` is 192 bytes aligned to 64, so `p`, `p + 1` and `p + 2` are
        // aligned, in-bounds 64-byte reads; AVX-512F as in the module docs.
        each!(|i| unsafe { _mm512_load_si512(p.add(i)) })
    }

    #[inline(always)]
    fn store(self, s: &mut State) {
        let p = s.w.as_mut_ptr() as *mut __m512i;
        for (i, v) in self.0.into_iter().enumerate() {
            // SAFETY: as in `load`, for writes.
            unsafe { _mm512_store_si512(p.add(i), v) };
        }
    }

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        let v = unsafe { _mm512_set1_epi32(x as i32) };
        Avx512([v; 3])
    }

    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_and_si512(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_or_si512(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_andnot_si512(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_slli_epi32::<N>(self.0[i]) })
    }

    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_srli_epi32::<N>(self.0[i]) })
    }

    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_sub_epi32(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_add_epi32(self.0[i], o.0[i]) })
    }

    #[inline(always)]
    fn pattern(lane: [u32; 4]) -> Self {
        let [a, b, c, e] = lane.map(|x| x as i32);
        // SAFETY: AVX-512F, see the module docs.
        let v = unsafe { _mm512_broadcast_i32x4(_mm_set_epi32(e, c, b, a)) };
        Avx512([v; 3])
    }

    #[inline(always)]
    fn digit_sum(self) -> Self {
        let [x, y, z] = self.0;
        // SAFETY: AVX-512F, see the module docs.
        let u = unsafe {
            let mut u = _mm512_add_epi32(_mm512_add_epi32(x, y), z);
            u = _mm512_add_epi32(u, _mm512_shuffle_i64x2::<SWAP_HALVES>(u, u));
            _mm512_add_epi32(u, _mm512_shuffle_i64x2::<SWAP_PAIRS>(u, u))
        };
        Avx512([u; 3])
    }

    #[inline(always)]
    fn next_band(self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_shuffle_epi32::<NEXT_BAND>(self.0[i]) })
    }

    #[inline(always)]
    fn prev_band(self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_shuffle_epi32::<PREV_BAND>(self.0[i]) })
    }

    #[inline(always)]
    fn inc_where_zero(self, t: Self) -> Self {
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe {
            _mm512_mask_add_epi32(
                self.0[i],
                _mm512_testn_epi32_mask(t.0[i], t.0[i]),
                self.0[i],
                _mm512_set1_epi32(1),
            )
        })
    }

    #[inline(always)]
    fn digit_counts(self) -> (Self, Self) {
        let [x, y, z] = self.0;
        // SAFETY: AVX-512F, see the module docs.
        let (one, two) = unsafe {
            let mut one = _mm512_ternarylogic_epi32::<OR3>(x, y, z);
            let mut two = _mm512_ternarylogic_epi32::<MAJORITY>(x, y, z);
            macro_rules! step {
                ($imm:expr) => {
                    let b1 = _mm512_shuffle_i64x2::<$imm>(one, one);
                    let b2 = _mm512_shuffle_i64x2::<$imm>(two, two);
                    two = _mm512_ternarylogic_epi32::<OR3>(two, b2, _mm512_and_si512(one, b1));
                    one = _mm512_or_si512(one, b1);
                };
            }
            step!(SWAP_HALVES);
            step!(SWAP_PAIRS);
            (one, two)
        };
        (Avx512([one; 3]), Avx512([two; 3]))
    }

    #[inline(always)]
    fn digit_counts3(self) -> (Self, Self, Self) {
        let [x, y, z] = self.0;
        // SAFETY: AVX-512F, see the module docs.
        let (one, two, three) = unsafe {
            (
                _mm512_ternarylogic_epi32::<OR3>(x, y, z),
                _mm512_ternarylogic_epi32::<MAJORITY>(x, y, z),
                _mm512_ternarylogic_epi32::<AND3>(x, y, z),
            )
        };
        let (one, two, three) = Avx512::fold_lanes3(one, two, three);
        (Avx512([one; 3]), Avx512([two; 3]), Avx512([three; 3]))
    }

    #[inline(always)]
    fn digit_counts4(self) -> [Self; 4] {
        let [x, y, z] = self.0;
        // SAFETY: AVX-512F, see the module docs.
        let c = unsafe {
            let mut a = [
                _mm512_ternarylogic_epi32::<OR3>(x, y, z),
                _mm512_ternarylogic_epi32::<MAJORITY>(x, y, z),
                _mm512_ternarylogic_epi32::<AND3>(x, y, z),
                _mm512_setzero_si512(),
            ];
            macro_rules! step {
                ($imm:expr) => {
                    let b = a.map(|v| _mm512_shuffle_i64x2::<$imm>(v, v));
                    let and = |p: __m512i, q: __m512i| _mm512_and_si512(p, q);
                    let or = |p: __m512i, q: __m512i| _mm512_or_si512(p, q);
                    a = [
                        or(a[0], b[0]),
                        _mm512_ternarylogic_epi32::<OR3>(a[1], b[1], and(a[0], b[0])),
                        or(
                            _mm512_ternarylogic_epi32::<OR3>(a[2], b[2], and(a[1], b[0])),
                            and(a[0], b[1]),
                        ),
                        or(
                            _mm512_ternarylogic_epi32::<OR3>(a[3], b[3], and(a[2], b[0])),
                            _mm512_ternarylogic_epi32::<OR3>(
                                and(a[1], b[1]),
                                and(a[0], b[2]),
                                _mm512_setzero_si512(),
                            ),
                        ),
                    ];
                };
            }
            step!(SWAP_HALVES);
            step!(SWAP_PAIRS);
            a
        };
        c.map(|v| Avx512([v; 3]))
    }

    #[inline(always)]
    fn digit_union(self) -> Self {
        let [x, y, z] = self.0;
        // SAFETY: AVX-512F, see the module docs.
        let u = unsafe {
            let mut u = _mm512_ternarylogic_epi32::<OR3>(x, y, z);
            u = _mm512_or_si512(u, _mm512_shuffle_i64x2::<SWAP_HALVES>(u, u));
            _mm512_or_si512(u, _mm512_shuffle_i64x2::<SWAP_PAIRS>(u, u))
        };
        Avx512([u; 3])
    }

    #[inline(always)]
    fn same(self, o: Self) -> bool {
        // SAFETY: AVX-512F, see the module docs.
        unsafe {
            let d = _mm512_ternarylogic_epi32::<OR3>(
                _mm512_xor_si512(self.0[0], o.0[0]),
                _mm512_xor_si512(self.0[1], o.0[1]),
                _mm512_xor_si512(self.0[2], o.0[2]),
            );
            _mm512_test_epi32_mask(d, d) == 0
        }
    }

    #[inline(always)]
    fn any_band_empty(self) -> bool {
        // SAFETY: AVX-512F, see the module docs.
        unsafe {
            let e0 = _mm512_mask_testn_epi32_mask(VALID[0], self.0[0], self.0[0]);
            let e1 = _mm512_mask_testn_epi32_mask(VALID[1], self.0[1], self.0[1]);
            let e2 = _mm512_mask_testn_epi32_mask(VALID[2], self.0[2], self.0[2]);
            (e0 | e1 | e2) != 0
        }
    }

    #[inline(always)]
    fn first_lane(self) -> [u32; 4] {
        // SAFETY: AVX-512F, see the module docs; `__m128i` and `[u32; 4]` are both 16
        // plain bytes, every bit pattern valid for both.
        unsafe { std::mem::transmute::<__m128i, [u32; 4]>(_mm512_castsi512_si128(self.0[0])) }
    }

    #[inline(always)]
    fn band_bits(b: usize, bits: u32) -> Self {
        let k = 0x1111u16 << b;
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe { _mm512_maskz_set1_epi32(k & VALID[i], bits as i32) })
    }

    #[inline(always)]
    fn digit_lane(d: usize, lane: [u32; 4]) -> Self {
        let k = 0xFu16 << (4 * (d % 4));
        let reg = d / 4;
        let [a, b, c, e] = lane.map(|x| x as i32);
        // SAFETY: AVX-512F, see the module docs.
        each!(|i| unsafe {
            _mm512_maskz_broadcast_i32x4(if i == reg { k } else { 0 }, _mm_set_epi32(e, c, b, a))
        })
    }

    #[inline(always)]
    fn digits_meeting(self, b: usize, bits: u32) -> u32 {
        let v = Avx512::band_bits(b, bits);
        // SAFETY: AVX-512F, see the module docs.
        let m = unsafe {
            (_mm512_test_epi32_mask(self.0[0], v.0[0]) as u64)
                | (_mm512_test_epi32_mask(self.0[1], v.0[1]) as u64) << 16
                | (_mm512_test_epi32_mask(self.0[2], v.0[2]) as u64) << 32
        } >> b;
        kernel::digits_from_lane_mask(m)
    }
}

/// Runs the kernel with AVX-512 operations.
#[target_feature(enable = "avx512f,bmi1,bmi2,popcnt")]
fn search_avx512(
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    kernel::search::<Avx512>(stack, root, fixed, params, solution)
}

/// Runs the kernel with AVX-512 operations; the token proves the CPU supports them.
#[inline]
pub(super) fn search(
    _token: Avx512Token,
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    // SAFETY: the token exists only when `Avx512Token::detect` found every feature that
    // `search_avx512` enables.
    unsafe { search_avx512(stack, root, fixed, params, solution) }
}
