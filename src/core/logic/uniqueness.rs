//! Unique rectangles and unique loops, types 1 to 4 (uniqueness techniques, 4.5 and up).
//!
//! A *unique loop* is a closed path of cells, each holding the two candidates `v1`, `v2`,
//! where every house visited holds exactly two loop cells, one at an even and one at an odd
//! position. If all its cells were `v1`/`v2` only, the puzzle would have two solutions; a
//! puzzle with one solution must break the pattern through the cells with extra candidates:
//!
//! - type 1: one cell has extras: it loses `v1` and `v2`;
//! - type 2: the cells with extras share a single extra digit: it leaves their common peers;
//! - type 3: two cells with extras act as one cell of a naked (or hidden) subset with other
//!   cells of a house they share;
//! - type 4: two cells with extras share a house where `v1` (or `v2`) has no other place:
//!   the other loop digit leaves both.
//!
//! A four-cell loop is a unique rectangle. Ratings and search follow Sudoku Explainer's
//! `UniqueLoops` and `UniqueLoop*Hint`: 4.5, plus 0.1 for a 6-cell loop, 0.2 for 8 cells,
//! 0.5 for 10 or more; type 3 adds 0.1 per extra cell of the subset. All loops reachable
//! from every bivalue cell (reading order) are collected and the easiest hint wins (lowest
//! rating, then lowest type, then first found). The depth-first search reproduces SE's,
//! including its habit of accumulating the extra digits of every cell it *examines* at a
//! level (not just of the cells on the path) when deciding whether a cell with extras may
//! join the loop.

use super::{Board, Budget, Step, Technique, combinations};
use crate::core::bitboard::{CellSet, DigitSet};
use crate::core::index::{Cell, Digit, House};

/// Working memory of the loop search.
#[derive(Clone, Debug)]
pub struct LoopScratch {
    path: [Cell; 81],
    len: usize,
    on_path: CellSet,
    both: CellSet,
    best: Option<Step>,
    best_type: u8,
}

impl LoopScratch {
    /// Fresh scratch.
    pub fn new() -> LoopScratch {
        LoopScratch {
            path: [Cell::new(0); 81],
            len: 0,
            on_path: CellSet::EMPTY,
            both: CellSet::EMPTY,
            best: None,
            best_type: 0,
        }
    }
}

impl Default for LoopScratch {
    fn default() -> Self {
        LoopScratch::new()
    }
}

/// Region kinds in SE's `Grid.getRegionTypes()` order: box, row, column.
const KINDS: [u8; 3] = [2, 0, 1];

#[inline]
fn region_of(kind: u8, c: Cell) -> House {
    match kind {
        0 => House::row(c.row()),
        1 => House::column(c.col()),
        _ => House::boxed(c.box_index()),
    }
}

fn loop_bonus(len: usize) -> u8 {
    let mut b = 0;
    if len >= 10 {
        b += 3;
    }
    if len >= 8 {
        b += 2;
    } else if len >= 6 {
        b += 1;
    }
    b
}

/// The easiest unique rectangle or loop hint, as SE's `UniqueLoops` picks it.
pub fn find_unique_loop(
    board: &Board,
    scratch: &mut LoopScratch,
    budget: &mut Budget,
    step: &mut Step,
) -> bool {
    scratch.best = None;
    scratch.best_type = 0;
    for start in board.empty() {
        let cand = board.candidates(start);
        if cand.len() != 2 {
            continue;
        }
        let mut it = cand.iter();
        let (Some(v1), Some(v2)) = (it.next(), it.next()) else {
            continue;
        };
        scratch.len = 0;
        scratch.on_path = CellSet::EMPTY;
        // Only cells holding both loop digits can join (or close) the loop.
        scratch.both = board.plane(v1) & board.plane(v2);
        if !search(
            board,
            scratch,
            budget,
            start,
            v1,
            v2,
            2,
            DigitSet::EMPTY,
            None,
        ) {
            return false;
        }
    }
    match scratch.best {
        Some(s) => {
            *step = s;
            true
        }
        None => false,
    }
}

/// SE `checkForLoops`. Returns false when the budget ran out.
#[allow(clippy::too_many_arguments)]
fn search(
    board: &Board,
    sc: &mut LoopScratch,
    budget: &mut Budget,
    cell: Cell,
    v1: Digit,
    v2: Digit,
    allowed_ex: i32,
    ex_in: DigitSet,
    last_kind: Option<u8>,
) -> bool {
    // About 150 ns per loop cell extended.
    if !budget.charge(3) {
        return false;
    }
    sc.path[sc.len] = cell;
    sc.len += 1;
    sc.on_path.insert(cell);
    let mut ex = ex_in;
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    for kind in KINDS {
        if Some(kind) == last_kind {
            continue;
        }
        let region = region_of(kind, cell);
        // The region's cells holding both digits, in region order (ascending index).
        for next in region.cell_set() & sc.both {
            if next == sc.path[0] && sc.len >= 4 {
                let len = sc.len;
                evaluate_loop(board, sc, len, v1, v2);
            } else if !sc.on_path.contains(next) {
                let p = board.candidates(next);
                {
                    ex = (ex | p) - pair;
                    let card = p.len();
                    if card == 2 || ex.len() == 1 || allowed_ex > 0 {
                        let na = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                        if sc.len < 81
                            && !search(board, sc, budget, next, v1, v2, na, ex, Some(kind))
                        {
                            return false;
                        }
                    }
                }
            }
        }
    }
    sc.len -= 1;
    sc.on_path.remove(cell);
    true
}

/// SE `isValidLoop`: every house visited by exactly two loop cells of opposite parity.
fn is_valid_loop(path: &[Cell]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    for (i, &c) in path.iter().enumerate() {
        for kind in KINDS {
            let bit = 1u32 << region_of(kind, c).index();
            let set = if i % 2 == 1 { &mut odd } else { &mut even };
            if *set & bit != 0 {
                return false;
            }
            *set |= bit;
        }
    }
    odd == even
}

fn offer(sc: &mut LoopScratch, step: Step, ty: u8) {
    let better = match &sc.best {
        None => true,
        Some(b) => (step.difficulty, ty) < (b.difficulty, sc.best_type),
    };
    if better {
        sc.best = Some(step);
        sc.best_type = ty;
    }
}

fn technique(len: usize, ty: u8) -> Technique {
    match (len == 4, ty) {
        (true, 1) => Technique::UniqueRectangle1,
        (true, 2) => Technique::UniqueRectangle2,
        (true, 3) => Technique::UniqueRectangle3,
        (true, _) => Technique::UniqueRectangle4,
        (false, 1) => Technique::UniqueLoop1,
        (false, 2) => Technique::UniqueLoop2,
        (false, 3) => Technique::UniqueLoop3,
        (false, _) => Technique::UniqueLoop4,
    }
}

fn base_step(path: &[Cell], v1: Digit, v2: Digit, ty: u8) -> Step {
    let mut s = Step::new(technique(path.len(), ty));
    s.difficulty = 45 + loop_bonus(path.len());
    s.size = path.len() as u16;
    for &c in path {
        s.cells.insert(c);
    }
    s.digits = DigitSet::single(v1) | DigitSet::single(v2);
    s
}

fn evaluate_loop(board: &Board, sc: &mut LoopScratch, len: usize, v1: Digit, v2: Digit) {
    let path: [Cell; 81] = sc.path;
    let path = &path[..len];
    if !is_valid_loop(path) {
        return;
    }
    // Cells with more than the two loop candidates, in loop order.
    let mut extra_cells = [Cell::new(0); 81];
    let mut n_extra = 0;
    for &c in path {
        if board.candidates(c).len() > 2 {
            extra_cells[n_extra] = c;
            n_extra += 1;
        }
    }
    let extra_cells = &extra_cells[..n_extra];
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    match n_extra {
        1 => {
            // Type 1: the rescue cell loses both loop digits.
            let c = extra_cells[0];
            let mut s = base_step(path, v1, v2, 1);
            s.eliminate(c, v1);
            s.eliminate(c, v2);
            offer(sc, s, 1);
        }
        0 => {}
        2 => {
            let (c1, c2) = (extra_cells[0], extra_cells[1]);
            let r = (board.candidates(c1) | board.candidates(c2)) - pair;
            if r.len() == 1 {
                type2(board, sc, path, extra_cells, v1, v2);
            } else if r.len() >= 2 {
                type3(board, sc, path, c1, c2, v1, v2);
            }
            type4(board, sc, path, c1, c2, v1, v2);
        }
        _ => type2(board, sc, path, extra_cells, v1, v2),
    }
}

fn type2(
    board: &Board,
    sc: &mut LoopScratch,
    path: &[Cell],
    extra_cells: &[Cell],
    v1: Digit,
    v2: Digit,
) {
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    let Some(value) = (board.candidates(extra_cells[0]) - pair).first() else {
        return;
    };
    let mut common = CellSet::ALL;
    let mut extras = CellSet::EMPTY;
    for &c in extra_cells {
        common &= c.peers();
        extras.insert(c);
    }
    let elim = (common - extras) & board.plane(value);
    if elim.is_empty() {
        return;
    }
    let mut s = base_step(path, v1, v2, 2);
    s.eliminations[value.index()] = elim;
    s.digits.insert(value);
    offer(sc, s, 2);
}

#[allow(clippy::too_many_arguments)]
fn type3(
    board: &Board,
    sc: &mut LoopScratch,
    path: &[Cell],
    c1: Cell,
    c2: Cell,
    v1: Digit,
    v2: Digit,
) {
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    let extra = (board.candidates(c1) | board.candidates(c2)) - pair;
    for degree in extra.len()..=7 {
        for kind in KINDS {
            let region = region_of(kind, c1);
            if region != region_of(kind, c2) {
                continue;
            }
            let n_empty = board.empty_in(region);
            let cells = region.cells();
            let (Some(i1), Some(i2)) = (
                cells.iter().position(|&c| c == c1),
                cells.iter().position(|&c| c == c2),
            ) else {
                continue;
            };
            if degree * 2 <= n_empty {
                // Naked subset made of c1+c2 (as one cell holding the extras) and others.
                'tuple: for mask in combinations(9, degree) {
                    if mask & (1 << i1) == 0 || mask & (1 << i2) != 0 {
                        continue;
                    }
                    let mut naked = extra & board.candidates(c1) & board.candidates(c2);
                    let mut union = DigitSet::EMPTY;
                    let mut others = CellSet::EMPTY;
                    for (i, &c) in cells.iter().enumerate() {
                        if mask & (1 << i) == 0 {
                            continue;
                        }
                        let p = if i == i1 {
                            extra
                        } else {
                            let p = board.candidates(c);
                            naked |= p;
                            others.insert(c);
                            p
                        };
                        if p.len() <= 1 {
                            continue 'tuple;
                        }
                        union |= p;
                    }
                    if naked.len() != degree || union.len() != degree {
                        continue;
                    }
                    let targets =
                        region.cell_set() - others - CellSet::single(c1) - CellSet::single(c2);
                    let mut s = base_step(path, v1, v2, 3);
                    let mut any = false;
                    for d in union {
                        let e = board.plane(d) & targets;
                        any |= !e.is_empty();
                        s.eliminations[d.index()] = e;
                    }
                    if any {
                        s.difficulty += (degree - 1) as u8;
                        s.base.insert(region);
                        offer(sc, s, 3);
                    }
                }
            }
            if degree * 2 < n_empty {
                // Hidden subset: the loop digits plus `degree - 2` others, c2 left out.
                let rem = !(pair | extra);
                let rem_n = rem.len();
                if degree < 2 || degree - 2 > rem_n {
                    continue;
                }
                let rem_digits = {
                    let mut a = [Digit::new(1); 9];
                    for (k, d) in rem.iter().enumerate() {
                        a[k] = d;
                    }
                    a
                };
                let c2_set = CellSet::single(c2);
                'hidden: for pm in combinations(rem_n, degree - 2) {
                    let mut values = pair;
                    for (k, &d) in rem_digits.iter().enumerate().take(rem_n as usize) {
                        if pm & (1 << k) != 0 {
                            values.insert(d);
                        }
                    }
                    let mut common = CellSet::EMPTY;
                    for d in values {
                        let places = (board.plane(d) & region.cell_set()) - c2_set;
                        if places.is_empty() {
                            continue 'hidden;
                        }
                        common |= places;
                    }
                    if common.len() != degree {
                        continue;
                    }
                    let targets = common - CellSet::single(c1) - c2_set;
                    let mut s = base_step(path, v1, v2, 3);
                    let mut any = false;
                    for d in Digit::all() {
                        if values.contains(d) {
                            continue;
                        }
                        let e = board.plane(d) & targets;
                        any |= !e.is_empty();
                        s.eliminations[d.index()] = e;
                    }
                    if any {
                        s.difficulty += (targets.len() as u8).saturating_sub(1);
                        s.base.insert(region);
                        offer(sc, s, 3);
                    }
                }
            }
        }
    }
}

fn type4(
    board: &Board,
    sc: &mut LoopScratch,
    path: &[Cell],
    c1: Cell,
    c2: Cell,
    v1: Digit,
    v2: Digit,
) {
    let (mut r1, mut r2) = (None, None);
    for kind in KINDS {
        let region = region_of(kind, c1);
        if region != region_of(kind, c2) {
            continue;
        }
        let others = region.cell_set() - CellSet::single(c1) - CellSet::single(c2);
        if (board.plane(v1) & others).is_empty() {
            r1 = Some(region);
        }
        if (board.plane(v2) & others).is_empty() {
            r2 = Some(region);
        }
    }
    let (region, lock, rem) = match (r1, r2) {
        (Some(r), _) => (r, v1, v2),
        (None, Some(r)) => (r, v2, v1),
        (None, None) => return,
    };
    let _ = lock;
    let mut s = base_step(path, v1, v2, 4);
    s.eliminate(c1, rem);
    s.eliminate(c2, rem);
    s.base.insert(region);
    offer(sc, s, 4);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::logic::testutil::elims;

    fn keep_only(b: &mut Board, c: Cell, keep: &[u8]) {
        for d in Digit::all() {
            if !keep.contains(&d.get()) {
                b.eliminate(c, d);
            }
        }
    }

    /// A board where digits 1 and 2 survive only in `cells` (plus `also`), each of `cells`
    /// holding 1, 2 and its listed extras.
    fn pattern(cells: &[(Cell, &[u8])], also: &[Cell]) -> Board {
        let mut b = Board::EMPTY;
        for c in Cell::all() {
            if !cells.iter().any(|&(p, _)| p == c) && !also.contains(&c) {
                b.eliminate(c, Digit::new(1));
                b.eliminate(c, Digit::new(2));
            }
        }
        for &(c, extra) in cells {
            let mut keep = vec![1, 2];
            keep.extend_from_slice(extra);
            keep_only(&mut b, c, &keep);
        }
        b
    }

    /// Rectangle r1c1, r1c4, r2c1, r2c4 (boxes 1 and 2) on digits 1, 2.
    fn rect(extra: [&[u8]; 4], also: &[Cell]) -> Board {
        let corners = [
            Cell::at(0, 0),
            Cell::at(0, 3),
            Cell::at(1, 0),
            Cell::at(1, 3),
        ];
        let cells: Vec<(Cell, &[u8])> = corners.into_iter().zip(extra).collect();
        pattern(&cells, also)
    }

    fn find(b: &Board) -> Option<Step> {
        let mut sc = LoopScratch::new();
        let mut s = Step::default();
        let mut budget = Budget::UNLIMITED;
        find_unique_loop(b, &mut sc, &mut budget, &mut s).then_some(s)
    }

    #[test]
    fn type_1_removes_the_pair_from_the_rescue_cell() {
        let b = rect([&[], &[], &[], &[5, 7]], &[]);
        let s = find(&b).expect("UR type 1");
        assert_eq!(s.technique, Technique::UniqueRectangle1);
        assert_eq!(s.difficulty, 45);
        assert_eq!(s.size, 4);
        assert_eq!(elims(&s), ["r2c4<>1", "r2c4<>2"]);
    }

    #[test]
    fn type_2_removes_the_extra_digit_from_common_peers() {
        // 1 and 2 also in r2c5 so that no type 4 applies in row 2.
        let b = rect([&[], &[], &[7], &[7]], &[Cell::at(1, 4)]);
        let s = find(&b).expect("UR type 2");
        assert_eq!(s.technique, Technique::UniqueRectangle2);
        assert_eq!(s.difficulty, 45);
        // r2c1 and r2c4 share row 2 only.
        assert_eq!(
            elims(&s),
            [
                "r2c2<>7", "r2c3<>7", "r2c5<>7", "r2c6<>7", "r2c7<>7", "r2c8<>7", "r2c9<>7"
            ]
        );
    }

    #[test]
    fn type_4_when_a_loop_digit_is_locked() {
        // Extras 7 and 8 (two digits: not type 2); 1 and 2 have no other place in row 2:
        // SE locks the first loop digit, 1, and removes 2.
        let b = rect([&[], &[], &[7], &[8]], &[]);
        let s = find(&b).expect("UR type 4");
        assert_eq!(s.technique, Technique::UniqueRectangle4);
        assert_eq!(s.difficulty, 45);
        assert_eq!(elims(&s), ["r2c1<>2", "r2c4<>2"]);
    }

    #[test]
    fn type_3_naked_pair_with_the_extras() {
        // Extras 7 (r2c1) and 8 (r2c4); r2c9 holds {7,8}: a naked pair with the rescue
        // cells, so 7 and 8 leave the rest of row 2. 1 and 2 stay in r2c5 and r2c6: no
        // type 4, and no hidden pair {1,2} (which SE would rate 4.5 and prefer).
        let mut b = rect([&[], &[], &[7], &[8]], &[Cell::at(1, 4), Cell::at(1, 5)]);
        keep_only(&mut b, Cell::at(1, 8), &[7, 8]);
        let s = find(&b).expect("UR type 3");
        assert_eq!(s.technique, Technique::UniqueRectangle3);
        assert_eq!(s.difficulty, 46);
        assert_eq!(
            elims(&s),
            [
                "r2c2<>7", "r2c2<>8", "r2c3<>7", "r2c3<>8", "r2c5<>7", "r2c5<>8", "r2c6<>7",
                "r2c6<>8", "r2c7<>7", "r2c7<>8", "r2c8<>7", "r2c8<>8"
            ]
        );
    }

    #[test]
    fn rectangle_over_four_boxes_is_not_a_loop() {
        // r1c1, r1c5, r5c1, r5c5 span four boxes: each box is visited once, so SE's loop
        // check rejects it and the extras of r5c5 allow nothing.
        let b = pattern(
            &[
                (Cell::at(0, 0), &[]),
                (Cell::at(0, 4), &[]),
                (Cell::at(4, 0), &[]),
                (Cell::at(4, 4), &[3]),
            ],
            &[],
        );
        assert!(find(&b).is_none());
    }

    #[test]
    fn six_cell_loop_gets_the_bonus() {
        // r1c1 - r1c4 - r2c4 - r2c7 - r3c7 - r3c1: rows 1-3, boxes 1-3, columns 1, 4, 7,
        // each visited twice at opposite parity.
        let b = pattern(
            &[
                (Cell::at(0, 0), &[]),
                (Cell::at(0, 3), &[]),
                (Cell::at(1, 3), &[]),
                (Cell::at(1, 6), &[]),
                (Cell::at(2, 6), &[]),
                (Cell::at(2, 0), &[9]),
            ],
            &[],
        );
        let s = find(&b).expect("unique loop type 1");
        assert_eq!(s.technique, Technique::UniqueLoop1);
        assert_eq!(s.difficulty, 46);
        assert_eq!(s.size, 6);
        assert_eq!(elims(&s), ["r3c1<>1", "r3c1<>2"]);
    }
}
