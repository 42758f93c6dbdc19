//! Per-puzzle random numbers: one Xoshiro256++ stream for every `(seed, index)` pair.
//!
//! Puzzle `index` of a run with `seed` draws everything from its own stream, so a run gives
//! the same puzzles whatever the thread count or shard split. The stream is fixed by
//! definitions that do not depend on any library's choice of algorithm:
//!
//! ```text
//! mix(x)   = SplitMix64 finalizer of x + 0x9E3779B97F4A7C15        (Steele, Lea, Flood 2014)
//! s        = mix(seed ^ mix(index))                                 (distinct per index)
//! w0..w3   = the first four outputs of SplitMix64 started at state s
//! stream   = Xoshiro256++ with state (w0, w1, w2, w3)                (Blackman, Vigna 2018)
//! below(n) = Lemire's multiply-and-reject on the upper 32 bits of each output (exact uniform)
//! shuffle  = Fisher-Yates from the last element down, j = below(i + 1)
//! ```
//!
//! Only `next_u64` of `rand_xoshiro`'s Xoshiro256++ is used; bounded integers and shuffles
//! are defined here so that a change in `rand`'s sampling code cannot change our output.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: advances `state` and returns the next output.
#[inline]
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 output for state `x` (a bijection on `u64`).
#[inline]
fn mix(x: u64) -> u64 {
    let mut s = x;
    splitmix64(&mut s)
}

/// The random stream of one puzzle (see the module docs for its exact definition).
#[derive(Clone, Debug)]
pub struct PuzzleRng(Xoshiro256PlusPlus);

impl PuzzleRng {
    /// The stream of puzzle `index` in a run with `seed`.
    pub fn for_puzzle(seed: u64, index: u64) -> PuzzleRng {
        let mut s = mix(seed ^ mix(index));
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut s).to_le_bytes());
        }
        PuzzleRng(Xoshiro256PlusPlus::from_seed(bytes))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n >= 1`; `n == 0` gives 0). Lemire, "Fast Random
    /// Integer Generation in an Interval" (2019), on the upper 32 bits of each output.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let n64 = u64::from(n);
        let mut m = (self.next_u64() >> 32) * n64;
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * n64;
            }
        }
        (m >> 32) as u32
    }

    /// True with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly chosen set bit of `mask` (a bit index), or `None` for an empty mask.
    #[inline]
    pub fn pick_bit(&mut self, mask: u128) -> Option<u32> {
        if mask == 0 {
            return None;
        }
        let mut m = mask;
        for _ in 0..self.below(mask.count_ones()) {
            m &= m - 1;
        }
        Some(m.trailing_zeros())
    }
}

/// A uniform integer in `0..n` (`n >= 1`) from the top bits of one 64-bit draw of any
/// generator (Lemire's multiply-shift without the rejection step of [`PuzzleRng::below`]; the
/// bias is below 2^-59 for the small `n` used here). The Samurai generator, the variant
/// generator, Jigsaw layouts and the variant solver's random fill draw with it. Written out
/// so the stream of values never depends on a library's sampling algorithm.
#[inline]
pub(crate) fn below<R: Rng>(rng: &mut R, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // First outputs of the reference splitmix64.c seeded with 1234567.
        let mut s = 1_234_567u64;
        assert_eq!(splitmix64(&mut s), 6_457_827_717_110_365_317);
        assert_eq!(splitmix64(&mut s), 3_203_168_211_198_807_973);
    }

    #[test]
    fn streams_are_fixed_and_distinct_per_index() {
        let a: Vec<u64> = (0..4)
            .map(|i| PuzzleRng::for_puzzle(7, i).next_u64())
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|i| PuzzleRng::for_puzzle(7, i).next_u64())
            .collect();
        assert_eq!(a, b);
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(a[i], a[j]);
            }
        }
        assert_ne!(
            PuzzleRng::for_puzzle(7, 0).next_u64(),
            PuzzleRng::for_puzzle(8, 0).next_u64()
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = PuzzleRng::for_puzzle(1, 2);
        let mut seen = [0u32; 9];
        for _ in 0..9000 {
            let v = r.below(9) as usize;
            seen[v] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation_and_pick_bit_picks_members() {
        let mut r = PuzzleRng::for_puzzle(3, 4);
        let mut v: Vec<u8> = (0..81).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..81).collect::<Vec<u8>>());
        assert_ne!(v, sorted);
        let mask = (1u128 << 3) | (1u128 << 80);
        for _ in 0..50 {
            let b = r.pick_bit(mask).unwrap();
            assert!(b == 3 || b == 80);
        }
        assert_eq!(r.pick_bit(0), None);
    }
}
