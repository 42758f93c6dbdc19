//! Basic fish: X-wing (size 2, 3.2), swordfish (3, 3.8), jellyfish (4, 5.2).
//!
//! `n` base lines (columns, or rows) whose candidates for a digit all lie in `n` cover lines
//! of the other direction: the digit leaves the rest of the cover lines.
//!
//! As in Sudoku Explainer (`Fisherman`, `CommonTuples.searchCommonTuple`): columns as base
//! lines first, then rows; base-line tuples in the order of SE's `Permutations`, digits 1-9
//! inside; a digit is only tried when at least `2n` of its nine places are still open; every
//! base line must hold at least two candidates.

use super::unchanged::Scope;
use super::{Board, Step, Technique, bit_positions, subsets_of};
use crate::core::geometry::{CellBits, FishSystem, Geometry, Size};
use crate::core::index::Digit;

/// For one digit: the positions (bit `j` = cross line `j`) of its candidates in each line of
/// the system, `[0]` indexed by row (positions = columns), `[1]` by column (positions =
/// rows).
fn line_masks<S: Size>(sys: &FishSystem<S>, plane: S::Set) -> [[u16; 9]; 2] {
    let mut m = [[0u16; 9]; 2];
    for c in plane & sys.cells {
        let at = sys.at[c.index()];
        let (r, col) = ((at >> 4) as usize, (at & 15) as usize);
        m[0][r] |= 1 << col;
        m[1][col] |= 1 << r;
    }
    m
}

/// The first fish of size `degree` (2..=4) that removes something, on the digits whose
/// plane `scope` says changed (a fish reads nothing else). On Samurai, each grid's rows and
/// columns form a system of their own, searched grid by grid.
pub fn find_fish<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    degree: u32,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    for sys in g.fish_systems() {
        if find_in(g, sys, board, degree, scope, step) {
            return true;
        }
    }
    false
}

fn find_in<S: Size>(
    g: &Geometry<S>,
    sys: &FishSystem<S>,
    board: &Board<S>,
    degree: u32,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    // Per digit: line masks, and the base lines that can take part (2..=degree places:
    // SE's `searchCommonTuple` needs more than one, and the union has `degree`).
    let mut masks = [[[0u16; 9]; 2]; 9];
    let mut allowed = [[0u16; 2]; 9];
    for d in Digit::all() {
        if !scope.has_digit(d) || (board.placed(d) & sys.cells).len() + degree * 2 > 9 {
            continue;
        }
        let m = line_masks(sys, board.plane(d));
        for dir in 0..2 {
            for (i, &p) in m[dir].iter().enumerate() {
                if (2..=degree).contains(&p.count_ones()) {
                    allowed[d.index()][dir] |= 1 << i;
                }
            }
        }
        masks[d.index()] = m;
    }
    // SE: columns as base lines first (dir 1), then rows (dir 0).
    for dir in [1usize, 0] {
        let base_line = |i: usize| {
            if dir == 1 {
                sys.cols[i] as usize
            } else {
                sys.rows[i] as usize
            }
        };
        let cover_line = |i: usize| {
            if dir == 1 {
                sys.rows[i] as usize
            } else {
                sys.cols[i] as usize
            }
        };
        // SE tries the base-line tuples in increasing mask order, digits 1-9 inside each:
        // the first fish is the least (mask, digit) with removals. Per digit, its tuples
        // are the subsets of its allowed lines, met here in increasing order, so its first
        // fish comes first; the digits' firsts are then compared.
        let mut first: Option<(u16, usize, u16)> = None;
        for di in 0..9 {
            let allowed = allowed[di][dir];
            if allowed.count_ones() < degree {
                continue;
            }
            let lines = &masks[di][dir];
            let cross = &masks[di][1 - dir];
            for mask in subsets_of(allowed, degree) {
                if first.is_some_and(|(m, _, _)| mask >= m) {
                    break;
                }
                let cover = bit_positions(mask).fold(0u16, |cover, i| cover | lines[i]);
                if cover.count_ones() != degree {
                    continue;
                }
                // Removals: the digit's places in the cover lines outside the base lines.
                if bit_positions(cover).any(|j| cross[j] & !mask != 0) {
                    first = Some((mask, di, cover));
                    break;
                }
            }
        }
        if let Some((mask, di, cover)) = first {
            let d = Digit::new(di as u8 + 1);
            let mut base_cells = S::Set::EMPTY;
            for i in 0..9 {
                if mask & (1 << i) != 0 {
                    base_cells |= g.house_set(base_line(i));
                }
            }
            let mut cover_cells = S::Set::EMPTY;
            for j in 0..9 {
                if cover & (1 << j) != 0 {
                    cover_cells |= g.house_set(cover_line(j));
                }
            }
            let plane = board.plane(d);
            let elim = (plane & cover_cells) - base_cells;
            debug_assert!(!elim.is_empty());
            step.reset(match degree {
                2 => Technique::XWing,
                3 => Technique::Swordfish,
                _ => Technique::Jellyfish,
            });
            step.eliminations[di] = elim;
            step.cells = plane & base_cells;
            step.digits.insert(d);
            for i in 0..9 {
                if mask & (1 << i) != 0 {
                    step.base.insert(base_line(i));
                }
                if cover & (1 << i) != 0 {
                    step.cover.insert(cover_line(i));
                }
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::CellSet;
    use crate::core::index::{Cell, House};
    use crate::core::logic::combos;
    use crate::core::logic::testutil::{cg, elims, random_minimal, thinned};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The search as SE writes it: every base-line tuple in `Permutations` order, the
    /// digits inside, each tuple's cover and removals worked out on cell sets.
    fn reference(b: &Board, degree: u32, step: &mut Step) -> bool {
        let g = cg();
        let sys = &g.fish_systems()[0];
        for dir in [1usize, 0] {
            let (base, cover) = if dir == 1 {
                (sys.cols, sys.rows)
            } else {
                (sys.rows, sys.cols)
            };
            for &mask in combos(degree) {
                for d in Digit::all() {
                    if (b.placed(d)).len() + degree * 2 > 9 {
                        continue;
                    }
                    let plane = b.plane(d);
                    let lines: Vec<usize> = (0..9).filter(|i| mask & (1 << i) != 0).collect();
                    if lines.iter().any(|&i| {
                        !(2..=degree).contains(&(plane & g.house_set(base[i] as usize)).len())
                    }) {
                        continue;
                    }
                    let base_cells = lines
                        .iter()
                        .fold(CellSet::EMPTY, |a, &i| a | g.house_set(base[i] as usize));
                    let covers: Vec<usize> = (0..9)
                        .filter(|&j| {
                            !(plane & base_cells & g.house_set(cover[j] as usize)).is_empty()
                        })
                        .collect();
                    if covers.len() != degree as usize {
                        continue;
                    }
                    let cover_cells = covers
                        .iter()
                        .fold(CellSet::EMPTY, |a, &j| a | g.house_set(cover[j] as usize));
                    let elim = (plane & cover_cells) - base_cells;
                    if elim.is_empty() {
                        continue;
                    }
                    step.reset(Technique::XWing);
                    step.eliminations[d.index()] = elim;
                    step.cells = plane & base_cells;
                    for &i in &lines {
                        step.base.insert(base[i] as usize);
                    }
                    for &j in &covers {
                        step.cover.insert(cover[j] as usize);
                    }
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn the_first_fish_is_the_one_every_tuple_in_se_order_finds_first() {
        // Puzzles with many candidates taken out at random: fish of every size, often
        // several at once, on several digits.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut found = [0; 5];
        for (line, board) in random_minimal(40) {
            for _ in 0..10 {
                let b = thinned(&board, rng.random_range(40..260), &mut rng);
                for degree in 2..=4 {
                    let (mut a, mut r) = (Step::default(), Step::default());
                    let got = find_fish(cg(), &b, degree, &Scope::everything(cg()), &mut a);
                    assert_eq!(got, reference(&b, degree, &mut r), "{line} degree {degree}");
                    if got {
                        found[degree as usize] += 1;
                        assert_eq!(a.eliminations, r.eliminations);
                        assert_eq!((a.cells, a.base, a.cover), (r.cells, r.base, r.cover));
                    }
                }
            }
        }
        assert!(found[2..].iter().all(|&n| n > 20), "{found:?}");
    }

    #[test]
    fn x_wing_in_rows() {
        // 7 in rows 2 and 6 only at columns 3 and 7.
        let mut b = Board::EMPTY;
        let seven = Digit::new(7);
        for r in [1, 5] {
            for c in (0..9).filter(|&c| c != 2 && c != 6) {
                b.eliminate(Cell::at(r, c), seven);
            }
        }
        let mut s = Step::default();
        assert!(find_fish(cg(), &b, 2, &Scope::everything(cg()), &mut s));
        assert_eq!(s.technique, Technique::XWing);
        assert_eq!(s.difficulty, 32);
        assert!(s.base.contains(House::row(1).index()) && s.base.contains(House::row(5).index()));
        assert!(
            s.cover.contains(House::column(2).index())
                && s.cover.contains(House::column(6).index())
        );
        assert_eq!(
            elims(&s),
            [
                "r1c3<>7", "r1c7<>7", "r3c3<>7", "r3c7<>7", "r4c3<>7", "r4c7<>7", "r5c3<>7",
                "r5c7<>7", "r7c3<>7", "r7c7<>7", "r8c3<>7", "r8c7<>7", "r9c3<>7", "r9c7<>7"
            ]
        );
        assert!(
            !find_fish(cg(), &b, 3, &Scope::everything(cg()), &mut s),
            "no swordfish"
        );
    }

    #[test]
    fn swordfish_in_columns() {
        // 3 in columns 1, 5, 9 only in rows 2, 4, 8 (two each).
        let mut b = Board::EMPTY;
        let three = Digit::new(3);
        let keep = [(0, [1, 3]), (4, [3, 7]), (8, [1, 7])];
        for (c, rows) in keep {
            for r in (0..9).filter(|r| !rows.contains(r)) {
                b.eliminate(Cell::at(r, c), three);
            }
        }
        let mut s = Step::default();
        assert!(
            !find_fish(cg(), &b, 2, &Scope::everything(cg()), &mut s),
            "no x-wing"
        );
        assert!(find_fish(cg(), &b, 3, &Scope::everything(cg()), &mut s));
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(s.difficulty, 38);
        assert_eq!(s.elimination_count(), 18);
        assert!(s.eliminations[2].contains(Cell::at(1, 1)));
        assert!(!s.eliminations[2].contains(Cell::at(1, 0)));
    }
}
