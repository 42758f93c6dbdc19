//! Locked candidates (intersections): pointing and claiming, and their "direct" forms.
//!
//! When all candidates of a digit in one house lie in a second house that crosses it, the
//! digit can be removed from the rest of the second house. A box locking the digit onto a
//! line is *pointing* (2.6), a line locking it into a box is *claiming* (2.8).
//!
//! The *direct* forms (Sudoku Explainer's `Locking(true)` and `DirectLockingHint`) count
//! only when the removal leaves a hidden single in another house of the first house's kind
//! crossing the second house; the step then places that single (and only that: SE's
//! `DirectLockingHint` carries no eliminations, so none are applied): direct pointing 1.7,
//! direct claiming 1.9.
//!
//! Search order (SE `Locking`, as in SukakuExplainer): house kinds (box, column), (box, row),
//! (column, box), (row, box); then digits 1-9; then the first house, then the second.

use super::unchanged::Scope;
use super::{Board, Step, Technique};
use crate::core::geometry::{CellBits, ClassicHouses, Geometry, Size};
use crate::core::index::Digit;

/// Pointing or claiming (`direct == false`), or direct pointing or direct claiming
/// (`direct == true`): the first in SE's order.
///
/// The pairs of houses come from the geometry's locking groups: on the classic grid SE's
/// four kinds of pairs; other shapes add the pairs of their extra houses (a diagonal or a
/// window with a box, two lines of different Samurai grids sharing a box). A step whose
/// first house is a block (box, region, window) is pointing, else claiming. Only the
/// digits whose plane `scope` says changed are searched (nothing else is read), and of
/// those only the runs with a change of the digit where a new hint needs one: in the
/// first house for plain locking, anywhere in the cells the pairs read
/// ([`Geometry::lock_runs_reading`]) for the direct forms. Where the first four groups
/// are the classic ones ([`Geometry::classic_houses`]), a digit's pairs that lock are
/// found for all four at once from its plane (the segments where a box meets a row or a
/// column decide it), and only those are looked at, in SE's order: a pair whose places
/// did not change finds nothing, as before.
pub fn find_locked_candidates<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    direct: bool,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    find_in(g, board, direct, scope, true, step)
}

/// [`find_locked_candidates`], from the digit planes (`planes`) where the grid allows.
fn find_in<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    direct: bool,
    scope: &Scope<S>,
    planes: bool,
    step: &mut Step<S>,
) -> bool {
    let classic = g.classic_houses().filter(|_| planes);
    if let Some(ids) = classic {
        // Every digit's locking pairs of the four classic groups, then each group in turn.
        let mut locks = [[0u128; 9]; 4];
        for d in Digit::all() {
            if scope.has_digit(d) {
                let by_group = classic_locks(plane_bits(board.plane(d)));
                for (l, hits) in locks.iter_mut().zip(by_group) {
                    l[d.index()] = hits;
                }
            }
        }
        for (group, by_digit) in locks.iter().enumerate() {
            for d in Digit::all() {
                let mut hits = by_digit[d.index()];
                let plane = board.plane(d);
                while hits != 0 {
                    let (h1, h2, bit) = first_pair(ids, group, hits);
                    hits &= !bit;
                    let pos = plane & g.house_set(usize::from(h1));
                    if take_pair(g, plane, d, h1, h2, pos, direct, step) {
                        return true;
                    }
                }
            }
        }
    }
    let skip = if classic.is_some() { 4 } else { 0 };
    for (runs, reads) in g.lock_runs_reading().skip(skip) {
        if runs.is_empty() {
            continue;
        }
        for d in Digit::all() {
            if !scope.has_digit(d) {
                continue;
            }
            let plane = board.plane(d);
            // The pairs of a run share their first house: its places are worked out once.
            for (run, &read) in runs.iter().zip(reads) {
                let h1 = run.first;
                let r1 = g.house_set(h1 as usize);
                // Plain locking reads only the first house for what is new: a pair that
                // found nothing before had the digit's places there outside the second
                // house, or fewer than two, or nothing to remove; the last two only get
                // truer as candidates go, so only a change of those places makes it find
                // something. The direct forms also read the third houses (their single).
                if !scope.touches_digit(d, if direct { read } else { r1 }) {
                    continue;
                }
                let pos = plane & r1;
                if pos.len() < 2 {
                    continue;
                }
                for &(_, h2) in g.lock_run_pairs(run) {
                    if !(pos - g.house_set(h2 as usize)).is_empty() {
                        continue;
                    }
                    if take_pair(g, plane, d, h1, h2, pos, direct, step) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The step of the pair `(h1, h2)` for digit `d`, whose places in `h1` (`pos`, two or
/// more) all lie in `h2`, if it gives one: plain locking when it removes something,
/// direct when the removal leaves a hidden single in a third house.
#[allow(clippy::too_many_arguments)]
fn take_pair<S: Size>(
    g: &Geometry<S>,
    plane: S::Set,
    d: Digit,
    h1: u8,
    h2: u8,
    pos: S::Set,
    direct: bool,
    step: &mut Step<S>,
) -> bool {
    let house1 = g.house(h1 as usize);
    let (r1, c2) = (house1.set, g.house_set(h2 as usize));
    let pointing = house1.kind.is_block();
    if direct {
        // SE `lookForFollowingHiddenSingles`: another house of the first kind, crossing
        // the second house where it loses the digit, left with one place. The digit leaves
        // `c2 - r1`: on the classic grid houses of one kind are disjoint, so that is all
        // of `c2` within the third house; on Samurai a row of one grid may share cells
        // with a row of another, and those keep the digit.
        let gone = c2 - r1;
        // A third house left with one place loses one there: without a place of the
        // digit in `gone`, none is.
        let lost = plane & gone;
        if lost.is_empty() {
            return false;
        }
        for &h3 in g.houses_of_kind(house1.kind) {
            if h3 == h1 {
                continue;
            }
            let c3 = g.house_set(h3 as usize);
            if (c3 & lost).is_empty() {
                continue;
            }
            let p3 = plane & c3;
            if p3.len() < 2 {
                continue;
            }
            let rest = p3 - gone;
            if rest.len() == 1 {
                let Some(hc) = rest.first() else { continue };
                step.reset(if pointing {
                    Technique::DirectPointing
                } else {
                    Technique::DirectClaiming
                });
                // SE's `DirectLockingHint` passes an empty map of removable candidates:
                // only the single is placed.
                step.placement = Some((hc, d));
                fill(step, pos, d, h1 as usize, h2 as usize);
                step.base.insert(h3 as usize);
                return true;
            }
        }
        false
    } else {
        let elim = (plane & c2) - r1;
        if elim.is_empty() {
            return false;
        }
        step.reset(if pointing {
            Technique::Pointing
        } else {
            Technique::Claiming
        });
        step.eliminations[d.index()] = elim;
        fill(step, pos, d, h1 as usize, h2 as usize);
        true
    }
}

/// The bits of an 81-cell set (bit `i` for cell `i`).
#[inline]
fn plane_bits<T: CellBits>(set: T) -> u128 {
    u128::from(set.word(0)) | u128::from(set.word(1)) << 64
}

/// Every `step`-th bit, `n` of them, from bit 0.
const fn every(step: u32, n: u32) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < n {
        m |= 1 << (step * i);
        i += 1;
    }
    m
}

/// Every bit at `9 * r + 3 * k` (the first cell of each row's three box segments).
const ROW_SEGS: u128 = every(3, 27);
/// Every bit at `27 * b + c` (the top cell of each column's three box segments).
const COL_SEGS: u128 = 0x1ff | 0x1ff << 27 | 0x1ff << 54;
/// Every bit at `27 * b + 3 * k` (the top left cell of each box).
const BOX_CORNERS: u128 = 0b1001001 | 0b1001001 << 27 | 0b1001001 << 54;
/// Every bit at `9 * r` (the first cell of each row).
const ROW_STARTS: u128 = every(9, 9);

/// The pairs of the four classic locking groups that lock digit plane `p` (bit `i` for
/// cell `i`): the digit's places in the first house, two or more, all lie in the second,
/// which has places outside the first. The segments where a box meets a row or a column
/// (three cells each) decide it all: per group, one bit per pair, at the cell where its
/// segment starts ([`first_pair`] reads them in SE's order):
///
/// 0. box, column: a box with places in one column segment only, holding two or more,
///    that column with places in another box (bit `27 * band + column`);
/// 1. box, row: the same with rows (bit `9 * row + 3 * stack`);
/// 2. column, box: a column with places in one box only, two or more, that box with places
///    in another of its columns (bit `27 * band + column`);
/// 3. row, box: the same with rows (bit `9 * row + 3 * stack`).
pub(crate) fn classic_locks(p: u128) -> [u128; 4] {
    // Segments with a place, and with two or more.
    let (p1, p2) = (p >> 1, p >> 2);
    let rows = (p | p1 | p2) & ROW_SEGS;
    let rows2 = (p & p1 | p & p2 | p1 & p2) & ROW_SEGS;
    let (p9, p18) = (p >> 9, p >> 18);
    let cols = (p | p9 | p18) & COL_SEGS;
    let cols2 = (p & p9 | p & p18 | p9 & p18) & COL_SEGS;
    // True where exactly one of three is.
    let one = |a: u128, b: u128, c: u128| (a ^ b ^ c) & !(a & b & c);
    // Each box's three column segments (at its corner), and each column's three.
    let (ca, cb, cc) = (
        cols & BOX_CORNERS,
        cols >> 1 & BOX_CORNERS,
        cols >> 2 & BOX_CORNERS,
    );
    let (g0, g1, g2) = (cols & 0x1ff, cols >> 27 & 0x1ff, cols >> 54 & 0x1ff);
    // Each box's three row segments (at its corner), and each row's three.
    let (ra, rb, rc) = (
        rows & BOX_CORNERS,
        rows >> 9 & BOX_CORNERS,
        rows >> 18 & BOX_CORNERS,
    );
    let (s0, s1, s2) = (
        rows & ROW_STARTS,
        rows >> 3 & ROW_STARTS,
        rows >> 6 & ROW_STARTS,
    );
    let box_one_col = one(ca, cb, cc);
    let box_one_row = one(ra, rb, rc);
    let col_one_box = one(g0, g1, g2);
    let row_one_box = one(s0, s1, s2);
    // Places elsewhere: in the column's other bands, the row's other stacks, the box's
    // other columns, the box's other rows.
    let col_elsewhere = (g1 | g2) | (g0 | g2) << 27 | (g0 | g1) << 54;
    let row_elsewhere = (s1 | s2) | (s0 | s2) << 3 | (s0 | s1) << 6;
    let box_other_cols = (cb | cc) | (ca | cc) << 1 | (ca | cb) << 2;
    let box_other_rows = (rb | rc) | (ra | rc) << 9 | (ra | rb) << 18;
    [
        cols2 & (box_one_col * 0b111) & col_elsewhere,
        rows2 & (box_one_row * (1 | 1 << 9 | 1 << 18)) & row_elsewhere,
        cols2 & (col_one_box * (1 | 1 << 27 | 1 << 54)) & box_other_cols,
        rows2 & (row_one_box * 0b1001001) & box_other_rows,
    ]
}

/// The first pair of `hits` (bits of group `group` of [`classic_locks`]) in SE's order
/// (first house, then second), as (first house, second house, its bit).
fn first_pair(ids: &ClassicHouses, group: usize, hits: u128) -> (u8, u8, u128) {
    // The order key of each bit's pair, least first.
    let mut best = (u32::MAX, 0u32);
    let mut m = hits;
    while m != 0 {
        let i = m.trailing_zeros();
        m &= m - 1;
        let (r, c) = (i / 9, i % 9);
        let (bx, row_in_band) = (r / 3 * 3 + c / 3, r % 3);
        let key = match group {
            // Box, then column (`i` = 27 * band + column): bit order.
            0 => i,
            // Box, then row.
            1 => bx * 3 + row_in_band,
            // Column, then box (`i` = 27 * band + column).
            2 => (i % 27) * 3 + i / 27,
            // Row, then box: bit order.
            _ => i,
        };
        if key < best.0 {
            best = (key, i);
        }
    }
    let i = best.1;
    let (h1, h2) = match group {
        0 => (
            ids.boxes[(i / 27 * 3 + i % 27 / 3) as usize],
            ids.cols[(i % 27) as usize],
        ),
        1 => (
            ids.boxes[(i / 27 * 3 + i % 9 / 3) as usize],
            ids.rows[(i / 9) as usize],
        ),
        2 => (
            ids.cols[(i % 27) as usize],
            ids.boxes[(i / 27 * 3 + i % 27 / 3) as usize],
        ),
        _ => (
            ids.rows[(i / 9) as usize],
            ids.boxes[(i / 27 * 3 + i % 9 / 3) as usize],
        ),
    };
    (h1, h2, 1 << i)
}

fn fill<S: Size>(step: &mut Step<S>, pos: S::Set, d: Digit, r1: usize, r2: usize) {
    step.cells = pos;
    step.digits.insert(d);
    step.base.insert(r1);
    step.cover.insert(r2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{Cell, Digit, House};
    use crate::core::logic::testutil::{board_with, cg, elims};

    #[test]
    fn a_search_of_what_changed_finds_what_a_full_search_finds() {
        // Along paths of boards (each step applied, random candidates thinned where
        // nothing is found), on the classic, X and Windoku grids: the search given what
        // changed since the last board where it found nothing finds the full search's
        // step, for both forms.
        use super::super::unchanged::Since;
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(24);
        let (mut compared, mut skipped_found) = (0, 0);
        for g in [
            cg(),
            crate::core::geometry::x(),
            crate::core::geometry::windoku(),
        ] {
            for (_, start) in random_minimal(30) {
                for direct in [true, false] {
                    let mut board = start;
                    let mut since = Since::default();
                    for _ in 0..60 {
                        let (mut full, mut scoped) = (Step::default(), Step::default());
                        let everything = Scope::everything(g);
                        let found =
                            find_locked_candidates(g, &board, direct, &everything, &mut full);
                        let scope = since.scope(g, &board);
                        let got = find_locked_candidates(g, &board, direct, &scope, &mut scoped);
                        assert_eq!(got, found);
                        compared += 1;
                        if found {
                            assert_eq!(scoped, full);
                            skipped_found += usize::from(scope.cells != g.all_cells());
                            board.apply(g, &full);
                        } else {
                            since.record(&board);
                            board = thinned(&board, 3, &mut rng);
                        }
                        if board.is_solved() {
                            break;
                        }
                    }
                }
            }
        }
        // Steps found by a search that skipped part of the board.
        assert!(skipped_found > 300, "{skipped_found} of {compared}");
    }

    #[test]
    fn the_classic_groups_from_the_planes_find_what_the_pairs_find() {
        // Random planes (any density, not only boards of real puzzles), searched in full
        // and within a random scope, on the classic and X grids: the pairs worked out from
        // the planes give the step that going through the pairs one by one gives.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(81);
        let (mut found, mut kinds) = (0, std::collections::BTreeSet::new());
        for g in [cg(), crate::core::geometry::x()] {
            assert!(g.classic_houses().is_some());
            for round in 0..4000 {
                let mut b = Board::EMPTY;
                for d in Digit::all() {
                    // From nearly full planes to nearly empty ones.
                    let keep = rng.random_range(1..=12u32);
                    for c in 0..81 {
                        if rng.random_range(0..12u32) >= keep {
                            b.eliminate(Cell::new(c), d);
                        }
                    }
                }
                let scope = if round % 2 == 0 {
                    Scope::everything(g)
                } else {
                    let mut sc = Scope::everything(g);
                    sc.digits = crate::core::bitboard::DigitSet::EMPTY;
                    for d in Digit::all() {
                        if rng.random_range(0..3u32) == 0 {
                            sc.digits.insert(d);
                        }
                    }
                    sc
                };
                for direct in [false, true] {
                    let (mut a, mut p) = (Step::default(), Step::default());
                    let by_pairs = find_in(g, &b, direct, &scope, false, &mut a);
                    let by_planes = find_in(g, &b, direct, &scope, true, &mut p);
                    assert_eq!(by_planes, by_pairs, "round {round}, direct {direct}");
                    if by_pairs {
                        assert_eq!(p, a, "round {round}, direct {direct}");
                        found += 1;
                        kinds.insert(format!("{:?}", a.technique));
                    }
                }
            }
        }
        assert!(found > 4000, "{found} steps found");
        assert_eq!(kinds.len(), 4, "{kinds:?}");
    }

    #[test]
    fn pointing_removes_from_the_line() {
        // 4 removed from box 1 outside row 2: box 1's 4s lie in r2c1..r2c3.
        let mut b = Board::EMPTY;
        for c in [0, 1, 2] {
            b.eliminate(Cell::at(0, c), Digit::new(4));
            b.eliminate(Cell::at(2, c), Digit::new(4));
        }
        let mut s = Step::default();
        assert!(find_locked_candidates(
            cg(),
            &b,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::Pointing);
        assert_eq!(s.difficulty, 26);
        assert_eq!(
            elims(&s),
            [
                "r2c4<>4", "r2c5<>4", "r2c6<>4", "r2c7<>4", "r2c8<>4", "r2c9<>4"
            ]
        );
        assert!(
            s.base.contains(House::boxed(0).index()) && s.cover.contains(House::row(1).index())
        );
        // Not direct: box 2 and box 3 keep many places after the removal.
        assert!(!find_locked_candidates(
            cg(),
            &b,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
    }

    #[test]
    fn claiming_removes_from_the_box() {
        // Row 1's 6s only in box 3 (c7..c9); box 3 has other 6s in rows 2, 3.
        let mut b = Board::EMPTY;
        for c in 0..6 {
            b.eliminate(Cell::at(0, c), Digit::new(6));
        }
        // Make sure no pointing comes first: boxes 1 and 2 still have 6 in rows 2, 3.
        let mut s = Step::default();
        assert!(find_locked_candidates(
            cg(),
            &b,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::Claiming);
        assert_eq!(s.difficulty, 28);
        assert_eq!(
            elims(&s),
            [
                "r2c7<>6", "r2c8<>6", "r2c9<>6", "r3c7<>6", "r3c8<>6", "r3c9<>6"
            ]
        );
    }

    #[test]
    fn direct_pointing_places_the_single() {
        // Box 1's 2s in column 1 only (r1c1, r2c1); box 4 keeps 2 only in r4c1 and r5c2.
        let mut b = board_with(&[]);
        let two = Digit::new(2);
        for r in 0..3 {
            for c in 1..3 {
                b.eliminate(Cell::at(r, c), two);
            }
        }
        b.eliminate(Cell::at(2, 0), two);
        for (r, c) in [(3, 1), (3, 2), (4, 0), (4, 2), (5, 0), (5, 1), (5, 2)] {
            b.eliminate(Cell::at(r, c), two);
        }
        let mut s = Step::default();
        assert!(find_locked_candidates(
            cg(),
            &b,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::DirectPointing);
        assert_eq!(s.difficulty, 17);
        assert_eq!(s.placement, Some((Cell::at(4, 1), two)));
        // Like SE, the direct hint places the single and removes nothing.
        assert!(elims(&s).is_empty());
        assert!(s.cover.contains(House::column(0).index()));
    }

    #[test]
    fn nothing_on_an_empty_board() {
        let mut s = Step::default();
        assert!(!find_locked_candidates(
            cg(),
            &Board::EMPTY,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert!(!find_locked_candidates(
            cg(),
            &Board::EMPTY,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
    }
}
