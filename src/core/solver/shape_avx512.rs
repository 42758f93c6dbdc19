//! The generic solver's propagation steps with AVX-512: hidden singles and locked
//! candidates looked for in every house (and every pair of meeting houses) at once,
//! instead of house by house.
//!
//! A digit's 81-bit plane is split into its low and high 64 bits, each broadcast to a
//! vector; the houses (and the pairs) sit in the tables as separate arrays of their low and
//! high halves, eight to a vector:
//!
//! - hidden singles: the digit's cells in eight houses are two ANDs, and their numbers two
//!   `vpopcntq` and an add; a house counting one is a hidden single, zero a contradiction
//!   (among the houses that do not hold the digit yet);
//! - locked candidates: for an ordered pair (h, b) of houses meeting in two or more cells,
//!   a digit with no cell in h \ b leaves b \ h; the test is two ANDs, an OR and a
//!   `vptestnmq` per eight pairs, and the cells to clear are gathered with masked ORs.
//!
//! Every house is looked at on every pass, so no record of changed houses is kept: the
//! placements skip that bookkeeping. The steps reach the same fixpoint as the scalar ones
//! (see [`Steps`]), so the results, guesses included, are the same.
//!
//! This module is the generic solver's only `unsafe` code. Its intrinsics need AVX-512F
//! and AVX-512 VPOPCNTDQ; they are reached only through [`run`], whose caller holds a
//! [`Token`], which exists only after run-time detection of the features that `run_avx512`
//! enables.

use std::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_cmpeq_epi64_mask, _mm512_load_si512,
    _mm512_mask_or_epi64, _mm512_or_si512, _mm512_popcnt_epi64, _mm512_reduce_or_epi64,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_testn_epi64_mask,
};

use super::SolveOutcome;
use super::shape::{MAX_HOUSES, ShapeSolver, State, Steps, Tables, place};
use crate::core::grid::Grid;

/// Proof that the running CPU has the features [`run`] is compiled for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token(());

impl Token {
    /// The token, if this CPU has AVX-512F and AVX-512 VPOPCNTDQ.
    pub(super) fn detect() -> Option<Token> {
        let ok = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("lzcnt");
        ok.then_some(Token(()))
    }
}

/// The AVX-512 steps.
struct Avx512;

/// Eight 64-bit words from 64-byte aligned `a[i..i + 8]`.
#[inline(always)]
fn load(a: &[u64], i: usize) -> __m512i {
    let w = &a[i..i + 8];
    debug_assert!((w.as_ptr() as usize).is_multiple_of(64));
    // SAFETY: AVX-512F (see the module docs); `w` is eight readable words, 64-byte aligned
    // because the tables are and `i` is a multiple of eight.
    unsafe { _mm512_load_si512(w.as_ptr().cast()) }
}

impl Steps for Avx512 {
    const TRACK: bool = false;

    #[inline(always)]
    fn hidden(t: &Tables, s: &mut State) -> Option<bool> {
        let mut progress = false;
        for d in 0..9 {
            let p = s.planes[d];
            let mut ones = 0u32;
            let mut zeros = 0u32;
            // SAFETY (every intrinsic of the block): AVX-512F and VPOPCNTDQ, see the module
            // docs.
            unsafe {
                let lo = _mm512_set1_epi64(p as u64 as i64);
                let hi = _mm512_set1_epi64((p >> 64) as u64 as i64);
                for k in 0..MAX_HOUSES / 8 {
                    let a = _mm512_and_si512(lo, load(&t.house_lo.0, 8 * k));
                    let b = _mm512_and_si512(hi, load(&t.house_hi.0, 8 * k));
                    let n = _mm512_add_epi64(_mm512_popcnt_epi64(a), _mm512_popcnt_epi64(b));
                    ones |= u32::from(_mm512_cmpeq_epi64_mask(n, _mm512_set1_epi64(1))) << (8 * k);
                    zeros |= u32::from(_mm512_testn_epi64_mask(n, n)) << (8 * k);
                }
            }
            if zeros & s.open[d] != 0 {
                return None;
            }
            let mut single = ones & s.open[d];
            while single != 0 {
                let h = single.trailing_zeros() as usize;
                single &= single - 1;
                // Earlier placements may have emptied the house, or filled it.
                let x = s.planes[d] & t.houses[h];
                if x == 0 {
                    return None;
                }
                place::<Self>(t, s, x.trailing_zeros() as usize, d);
                single &= s.open[d];
                progress = true;
            }
        }
        Some(progress)
    }

    #[inline(always)]
    fn locked(t: &Tables, s: &mut State) -> bool {
        let mut progress = false;
        for d in 0..9 {
            let p = s.planes[d];
            // SAFETY (every intrinsic of the block): AVX-512F, see the module docs.
            let (elo, ehi) = unsafe {
                let lo = _mm512_set1_epi64(p as u64 as i64);
                let hi = _mm512_set1_epi64((p >> 64) as u64 as i64);
                let (mut elo, mut ehi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
                for i in (0..t.n_pairs).step_by(8) {
                    let v = _mm512_or_si512(
                        _mm512_and_si512(lo, load(&t.out_lo.0, i)),
                        _mm512_and_si512(hi, load(&t.out_hi.0, i)),
                    );
                    let m = _mm512_testn_epi64_mask(v, v);
                    elo = _mm512_mask_or_epi64(elo, m, elo, load(&t.elim_lo.0, i));
                    ehi = _mm512_mask_or_epi64(ehi, m, ehi, load(&t.elim_hi.0, i));
                }
                (
                    _mm512_reduce_or_epi64(elo) as u64,
                    _mm512_reduce_or_epi64(ehi) as u64,
                )
            };
            // A placed cell keeps its digit: when a pair would clear it, the house h has
            // no cell for the digit, which the hidden singles report.
            let elim = (u128::from(ehi) << 64 | u128::from(elo)) & p & !s.placed;
            if elim != 0 {
                s.planes[d] = p & !elim;
                progress = true;
            }
        }
        progress
    }
}

/// [`ShapeSolver::run`] with the AVX-512 steps, every function inlined into this one.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,lzcnt")]
fn run_avx512(
    solver: &mut ShapeSolver,
    puzzle: &Grid,
    exclude: Option<(usize, usize)>,
    limit: u32,
    max_guesses: u64,
    out: &mut SolveOutcome,
    pick: &mut impl FnMut(u16) -> usize,
) {
    solver.run::<Avx512>(puzzle, exclude, limit, max_guesses, out, pick);
}

/// [`ShapeSolver::run`] with the AVX-512 steps; the token proves the CPU supports them.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn run(
    _token: Token,
    solver: &mut ShapeSolver,
    puzzle: &Grid,
    exclude: Option<(usize, usize)>,
    limit: u32,
    max_guesses: u64,
    out: &mut SolveOutcome,
    pick: &mut impl FnMut(u16) -> usize,
) {
    // SAFETY: the token exists only when `Token::detect` found every feature that
    // `run_avx512` enables.
    unsafe { run_avx512(solver, puzzle, exclude, limit, max_guesses, out, pick) }
}
