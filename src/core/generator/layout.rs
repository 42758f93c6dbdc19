//! Random Jigsaw layouts: nine connected regions of nine cells.
//!
//! A layout is drawn by a random walk over connected layouts that starts from the nine 3x3
//! boxes. Each move takes a cell `a` of region A next to region B and moves it to B, then
//! moves a cell `b` of B (not `a`) next to A's remaining cells to A, so both keep nine
//! cells; the move is undone unless both regions stay connected (cells joined through
//! orthogonal neighbours). After enough moves the boxes are gone; some layouts admit no
//! completed grid at all, which the generator finds when it fills one, and then it draws
//! another layout.

use rand_xoshiro::rand_core::Rng;

use crate::core::generator::rng::below;

const ALL: u128 = (1u128 << 81) - 1;
/// The cells not in column `col` (0-8).
const fn not_col(col: usize) -> u128 {
    let mut m = 0u128;
    let mut c = 0;
    while c < 81 {
        if c % 9 != col {
            m |= 1 << c;
        }
        c += 1;
    }
    m
}
/// Cells not in column 0 (may receive a bit shifted one column right).
const NOT_COL0: u128 = not_col(0);
/// Cells not in column 8 (may receive a bit shifted one column left).
const NOT_COL8: u128 = not_col(8);

/// Moves attempted per layout (a move is undone when a region would come apart).
const MOVES: usize = 600;

/// The orthogonal neighbours of the cells of `m`.
#[inline]
fn neighbours(m: u128) -> u128 {
    let right = (m << 1) & NOT_COL0;
    let left = (m >> 1) & NOT_COL8;
    ((m << 9) | (m >> 9) | right | left) & ALL
}

/// Whether the cells of `m` are joined through orthogonal neighbours.
pub fn connected(m: u128) -> bool {
    if m == 0 {
        return true;
    }
    let mut seen = m & m.wrapping_neg();
    loop {
        let next = (seen | neighbours(seen)) & m;
        if next == seen {
            return seen == m;
        }
        seen = next;
    }
}

/// The `k`-th (0-based) set bit of `m`.
fn nth_bit(mut m: u128, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A random cell of `m` (nonempty).
fn pick<R: Rng>(rng: &mut R, m: u128) -> usize {
    nth_bit(m, below(rng, m.count_ones()))
}

/// A layout of nine connected regions of nine cells drawn from `rng`: the zero-based
/// region of each cell.
pub fn random_layout<R: Rng>(rng: &mut R) -> [u8; 81] {
    let mut regions: [u128; 9] = [0; 9];
    for c in 0..81 {
        regions[(c / 27) * 3 + (c % 9) / 3] |= 1 << c;
    }
    let region_of =
        |regions: &[u128; 9], c: usize| regions.iter().position(|&r| r >> c & 1 != 0).unwrap_or(0);
    for _ in 0..MOVES {
        let a = below(rng, 81) as usize;
        let ra = region_of(&regions, a);
        let others = neighbours(1 << a) & !regions[ra];
        if others == 0 {
            continue;
        }
        let rb = region_of(&regions, pick(rng, others));
        let a_rest = regions[ra] & !(1 << a);
        let b_side = regions[rb] & neighbours(a_rest);
        if b_side == 0 {
            continue;
        }
        let b = pick(rng, b_side);
        let new_a = a_rest | 1 << b;
        let new_b = (regions[rb] & !(1 << b)) | 1 << a;
        if connected(new_a) && connected(new_b) {
            regions[ra] = new_a;
            regions[rb] = new_b;
        }
    }
    let mut out = [0u8; 81];
    for (r, &m) in regions.iter().enumerate() {
        let mut m = m;
        while m != 0 {
            out[m.trailing_zeros() as usize] = r as u8;
            m &= m - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::check_regions;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn layouts_are_nine_connected_regions_and_reproducible() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut irregular = 0;
        for _ in 0..50 {
            let l = random_layout(&mut rng);
            assert_eq!(check_regions(&l), Ok(()));
            for r in 0..9 {
                let m = (0..81)
                    .filter(|&c| l[c] == r)
                    .fold(0u128, |m, c| m | 1 << c);
                assert!(connected(m), "region {r} of {l:?}");
            }
            let boxes: [u8; 81] = std::array::from_fn(|c| ((c / 27) * 3 + (c % 9) / 3) as u8);
            irregular += usize::from(l != boxes);
        }
        assert_eq!(irregular, 50);
        let a = random_layout(&mut Xoshiro256PlusPlus::seed_from_u64(9));
        let b = random_layout(&mut Xoshiro256PlusPlus::seed_from_u64(9));
        assert_eq!(a, b);
    }

    #[test]
    fn connectivity_does_not_wrap_around_rows() {
        // c8 and c9 (end of row 1, start of row 2) are not neighbours.
        assert!(!connected(1 << 8 | 1 << 9));
        assert!(connected(1 << 8 | 1 << 17));
        assert!(connected(0b111));
    }
}
