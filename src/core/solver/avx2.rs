//! The AVX2 backend: the portable kernel compiled a second time with AVX2 (and BMI) enabled,
//! so the compiler vectorizes its array loops with 256-bit instructions. It serves x86-64
//! machines without AVX-512. The only `unsafe` is the call into the AVX2-compiled function,
//! guarded by an [`Avx2Token`] that exists only after run-time detection.

use super::State;
use super::kernel::{self, Found, Params};
use super::portable::Portable;

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

/// Runs the portable kernel compiled for AVX2.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
fn search_avx2(
    stack: &mut [State],
    root: &State,
    fixed: &State,
    params: Params,
    solution: &mut State,
) -> Found {
    kernel::search::<Portable>(stack, root, fixed, params, solution)
}

/// Runs the kernel with AVX2 code; the token proves the CPU supports it.
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
