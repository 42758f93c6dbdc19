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
//!
//! A valid loop is met many times in one search (from each of its starts, each way round);
//! its hints depend only on its cells, its digits and its first two cells with extras in
//! loop order, so a loop met again with those the same is not evaluated again: its hints
//! would come after the same ones, and none would be kept.

use super::unchanged::Since;
use super::{Board, Budget, Step, Technique, combinations, subsets_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CellBits, Geometry, Size};
use crate::core::index::{Cell, Digit, HouseKind};

/// Working memory of the loop search.
#[derive(Clone, Debug)]
pub struct LoopScratch<S: Size> {
    path: S::Cells<Cell>,
    len: usize,
    on_path: S::Set,
    both: S::Set,
    /// The current pair's [`loop_core`]: the walk steps only onto these cells.
    core: S::Set,
    best: Option<Step<S>>,
    best_type: u8,
    /// The board of the last complete search.
    since: Since<S>,
    /// The starts whose search offered no hint on that board: it read the candidates of
    /// the cells holding both of its digits and, beyond them, only the cells of its
    /// `area` (the peers of its valid loops' cells with extra candidates, where types 2
    /// to 4 look; empty when it closed no valid loop), so while none of those change it
    /// offers nothing again.
    settled: S::Set,
    area: S::Cells<S::Set>,
    /// The cells the current start's loops read (see `area`).
    reading: S::Set,
    /// Hints offered so far.
    offered: u64,
    /// Per pair of loop digits (`9 * v1 + v2`, 0-based), the cells that may lie on a valid
    /// loop of that pair on this board (see [`loop_core`]); valid where `cores_known` has
    /// the bit.
    cores: [S::Set; 81],
    cores_known: u128,
    /// The valid loops evaluated in this search, each with what its evaluation depends
    /// on besides the board (see [`evaluate_loop`]) and whether it offered a hint.
    evaluated: Vec<(LoopKey<S>, bool)>,
    /// Tests: walk as SE does, onto every cell holding both digits (no core, no parity
    /// check), to compare.
    #[cfg(test)]
    walk_all: bool,
    /// Tests: paths cut at an earlier start, and loops through one evaluated.
    #[cfg(test)]
    cut_through: u64,
    #[cfg(test)]
    evaluated_through: u64,
    /// Tests: loops met again and not evaluated again.
    #[cfg(test)]
    evaluated_again: u64,
}

impl<S: Size> LoopScratch<S> {
    /// Fresh scratch.
    pub fn new() -> LoopScratch<S> {
        LoopScratch {
            path: S::Cells::splat(Cell::default()),
            len: 0,
            on_path: S::Set::EMPTY,
            both: S::Set::EMPTY,
            core: S::Set::EMPTY,
            best: None,
            best_type: 0,
            since: Since::default(),
            settled: S::Set::EMPTY,
            area: S::Cells::splat(S::Set::EMPTY),
            reading: S::Set::EMPTY,
            offered: 0,
            cores: [S::Set::EMPTY; 81],
            cores_known: 0,
            evaluated: Vec::with_capacity(64),
            #[cfg(test)]
            walk_all: false,
            #[cfg(test)]
            cut_through: 0,
            #[cfg(test)]
            evaluated_through: 0,
            #[cfg(test)]
            evaluated_again: 0,
        }
    }

    /// True when the walk leaves out no cell holding both digits (tests, to compare).
    #[inline(always)]
    fn walks_all(&self) -> bool {
        #[cfg(test)]
        {
            self.walk_all
        }
        #[cfg(not(test))]
        {
            false
        }
    }

    /// Forgets the board of the last search (a new puzzle).
    pub(crate) fn forget(&mut self) {
        self.since.forget();
        self.settled = S::Set::EMPTY;
    }
}

impl<S: Size> Default for LoopScratch<S> {
    fn default() -> Self {
        LoopScratch::new()
    }
}

/// A set of house ids (up to 256), for the loop check.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct HouseBits([u64; 4]);

impl HouseBits {
    /// Adds `h`; false if it was there.
    #[inline]
    fn add(&mut self, h: u8) -> bool {
        let (w, b) = ((h >> 6) as usize, 1u64 << (h & 63));
        let fresh = self.0[w] & b == 0;
        self.0[w] |= b;
        fresh
    }

    /// True when `h` is in the set.
    #[inline]
    fn contains(&self, h: u8) -> bool {
        self.0[(h >> 6) as usize] & (1u64 << (h & 63)) != 0
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
///
/// The walk moves from a loop cell along any of its houses except one of the kind it came
/// in by (SE: box, row, column in turn); a closed loop counts only if every house of every
/// loop cell, extra houses of the shape included, holds exactly two loop cells of opposite
/// parity: then swapping the two digits along the loop would keep every house valid, so the
/// pattern would have two solutions, on any shape.
pub fn find_unique_loop<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    scratch: &mut LoopScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    scratch.best = None;
    scratch.best_type = 0;
    scratch.cores_known = 0;
    scratch.evaluated.clear();
    let changed = scratch.since.changed(board).map(|c| c.cells);
    let mut settled = S::Set::EMPTY;
    for start in board.empty() {
        let cand = board.candidates(start);
        if cand.len() != 2 {
            continue;
        }
        let mut it = cand.iter();
        let (Some(v1), Some(v2)) = (it.next(), it.next()) else {
            continue;
        };
        if let Some(changed) = changed
            && scratch.settled.contains(start)
        {
            let before = scratch.since.plane(v1) & scratch.since.plane(v2);
            if ((before | scratch.area[start.index()]) & changed).is_empty() {
                settled.insert(start);
                continue;
            }
        }
        // Only cells holding both loop digits can join (or close) the loop.
        let both = board.plane(v1) & board.plane(v2);
        let pair = 9 * v1.index() + v2.index();
        if scratch.cores_known & (1 << pair) == 0 {
            scratch.cores[pair] = loop_core(g, both);
            scratch.cores_known |= 1 << pair;
        }
        if !scratch.cores[pair].contains(start) && !scratch.walks_all() {
            // No valid loop passes through `start`: its search would read the cells holding
            // both digits and offer nothing.
            settled.insert(start);
            scratch.area[start.index()] = S::Set::EMPTY;
            continue;
        }
        let offered = scratch.offered;
        scratch.reading = S::Set::EMPTY;
        scratch.len = 0;
        scratch.on_path = S::Set::EMPTY;
        scratch.both = both;
        scratch.core = scratch.cores[pair];
        if !search(
            g,
            board,
            scratch,
            budget,
            start,
            v1,
            v2,
            2,
            DigitSet::EMPTY,
            None,
            [HouseBits::default(); 2],
            false,
        ) {
            return false;
        }
        if scratch.offered == offered {
            settled.insert(start);
            scratch.area[start.index()] = scratch.reading;
        }
    }
    scratch.settled = settled;
    scratch.since.record(board);
    match scratch.best {
        Some(s) => {
            *step = s;
            true
        }
        None => false,
    }
}

/// SE `checkForLoops`. Returns false when the budget ran out.
///
/// `allowed_ex` is 2 less the number of path cells with extra candidates. `through` is
/// true when the path holds an earlier start: a cell holding only the two loop digits,
/// before the start in reading order. The search from that start met, before this one,
/// every valid loop through it with at most two cells with extras: a loop cell with
/// extras joins the walk while fewer than two did, or if the extras of every cell examined
/// so far make one digit, and loops of at most two such cells are walked from each of
/// their cells. So a path through an earlier start is walked on only while it may still
/// close a loop of three cells with extras or more, and only such a loop is evaluated.
#[allow(clippy::too_many_arguments)]
fn search<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    sc: &mut LoopScratch<S>,
    budget: &mut Budget,
    cell: Cell,
    v1: Digit,
    v2: Digit,
    allowed_ex: i32,
    ex_in: DigitSet,
    last_kind: Option<HouseKind>,
    mut seen: [HouseBits; 2],
    through: bool,
) -> bool {
    // About 150 ns per loop cell extended.
    if !budget.charge(3) {
        return false;
    }
    // The houses of the path's cells at even and odd positions, with `cell`'s.
    for &h in g.cell_houses(cell).ids() {
        seen[sc.len % 2].add(h);
    }
    sc.path[sc.len] = cell;
    sc.len += 1;
    sc.on_path.insert(cell);
    let mut ex = ex_in;
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    for &h in g.cell_houses(cell).ids() {
        let region = g.house(h as usize);
        let kind = region.kind;
        if Some(kind) == last_kind {
            continue;
        }
        // The region's cells holding both digits, in region order (ascending index).
        for next in region.set & sc.both {
            if next == sc.path[0] && sc.len >= 4 {
                if !through || allowed_ex < 0 {
                    #[cfg(test)]
                    {
                        sc.evaluated_through += u64::from(through);
                    }
                    let len = sc.len;
                    evaluate_loop(g, board, sc, len, v1, v2);
                }
            } else if !sc.on_path.contains(next) {
                let p = board.candidates(next);
                {
                    ex = (ex | p) - pair;
                    let card = p.len();
                    // A cell off the core lies on no valid loop: walking on from it would
                    // close only loops `is_valid_loop` rejects. Its extras still count in
                    // `ex` above, as SE's walk examines it.
                    // Nor does a cell with a house that already holds a path cell of the
                    // same parity: `is_valid_loop` rejects every loop through both.
                    // Nor, through an earlier start, once no third cell with extras can
                    // join (see above).
                    let na = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                    let through_next =
                        !sc.walks_all() && (through || card == 2 && next < sc.path[0]);
                    let cut = through_next && na >= 0 && ex.len() >= 2;
                    #[cfg(test)]
                    {
                        sc.cut_through += u64::from(cut);
                    }
                    if (card == 2 || ex.len() == 1 || allowed_ex > 0)
                        && (sc.walks_all()
                            || sc.core.contains(next)
                                && !cut
                                && !g
                                    .cell_houses(next)
                                    .ids()
                                    .iter()
                                    .any(|&h| seen[sc.len % 2].contains(h)))
                        && sc.len < S::CELLS
                        && !search(
                            g,
                            board,
                            sc,
                            budget,
                            next,
                            v1,
                            v2,
                            na,
                            ex,
                            Some(kind),
                            seen,
                            through_next,
                        )
                    {
                        return false;
                    }
                }
            }
        }
    }
    sc.len -= 1;
    sc.on_path.remove(cell);
    true
}

/// The cells of `both` (those holding both loop digits) that may lie on a valid loop: in a
/// valid loop every house of a loop cell holds exactly two loop cells, so each of a loop
/// cell's houses holds another loop cell. Cells with a house holding no other candidate
/// cell are dropped until none is left to drop; every valid loop lies in what remains.
fn loop_core<S: Size>(g: &Geometry<S>, both: S::Set) -> S::Set {
    let mut core = both;
    loop {
        let mut next = core;
        for c in core {
            if g.cell_houses(c)
                .ids()
                .iter()
                .any(|&h| (g.house(h as usize).set & core).len() < 2)
            {
                next.remove(c);
            }
        }
        if next == core {
            return core;
        }
        core = next;
    }
}

/// SE `isValidLoop`: every house visited by exactly two loop cells of opposite parity (all
/// houses of the geometry, so extra houses are checked too).
fn is_valid_loop<S: Size>(g: &Geometry<S>, path: &[Cell]) -> bool {
    let (mut odd, mut even) = (HouseBits::default(), HouseBits::default());
    for (i, &c) in path.iter().enumerate() {
        for &h in g.cell_houses(c).ids() {
            let set = if i % 2 == 1 { &mut odd } else { &mut even };
            if !set.add(h) {
                return false;
            }
        }
    }
    odd == even
}

fn offer<S: Size>(sc: &mut LoopScratch<S>, step: Step<S>, ty: u8) {
    sc.offered += 1;
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

fn base_step<S: Size>(path: &[Cell], v1: Digit, v2: Digit, ty: u8) -> Step<S> {
    let mut s = Step::<S>::new(technique(path.len(), ty));
    s.difficulty = 45 + loop_bonus(path.len());
    s.size = path.len() as u16;
    for &c in path {
        s.cells.insert(c);
    }
    s.digits = DigitSet::single(v1) | DigitSet::single(v2);
    s
}

/// What a valid loop's evaluation reads besides the board: its cells, its two digits and
/// its first two cells with extra candidates in loop order (the types look at the first,
/// or at the first two in turn).
type LoopKey<S> = (<S as Size>::Set, Digit, Digit, Option<Cell>, Option<Cell>);

fn evaluate_loop<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    sc: &mut LoopScratch<S>,
    len: usize,
    v1: Digit,
    v2: Digit,
) {
    let path: S::Cells<Cell> = sc.path;
    let path = &path.as_ref()[..len];
    if !is_valid_loop(g, path) {
        return;
    }
    // Cells with more than the two loop candidates, in loop order.
    let mut extra_cells: S::Cells<Cell> = S::Cells::splat(Cell::default());
    let mut n_extra = 0;
    for &c in path {
        if board.candidates(c).len() > 2 {
            extra_cells[n_extra] = c;
            n_extra += 1;
        }
    }
    let extra_cells = &extra_cells.as_ref()[..n_extra];
    // Types 2 to 4 look only at these cells' peers.
    for &c in extra_cells {
        sc.reading |= g.peers(c) | S::Set::single(c);
    }
    // The same loop met again (from another start, or the other way round) offers the
    // same hints again, after the first ones: none is kept, but the start offered.
    let mut cells = S::Set::EMPTY;
    for &c in path {
        cells.insert(c);
    }
    let key = (
        cells,
        v1,
        v2,
        extra_cells.first().copied(),
        extra_cells.get(1).copied(),
    );
    // (Tests: the full walk evaluates every loop it closes, as SE does.)
    if !sc.walks_all()
        && let Some(&(_, offered)) = sc.evaluated.iter().find(|(k, _)| *k == key)
    {
        sc.offered += u64::from(offered);
        #[cfg(test)]
        {
            sc.evaluated_again += 1;
        }
        return;
    }
    let offered_before = sc.offered;
    let lp = LoopAt {
        path,
        extra_cells,
        v1,
        v2,
    };
    evaluate_types(g, board, sc, &lp);
    let offered = sc.offered != offered_before;
    sc.evaluated.push((key, offered));
}

/// A valid loop being evaluated: its cells in loop order, those of them with extra
/// candidates (in the same order), and its two digits.
struct LoopAt<'a> {
    path: &'a [Cell],
    extra_cells: &'a [Cell],
    v1: Digit,
    v2: Digit,
}

impl LoopAt<'_> {
    /// The loop's two digits.
    fn pair(&self) -> DigitSet {
        DigitSet::single(self.v1) | DigitSet::single(self.v2)
    }
}

/// Offers the hints of the valid loop `lp` (types 1 to 4).
fn evaluate_types<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    sc: &mut LoopScratch<S>,
    lp: &LoopAt,
) {
    let (path, extra_cells, v1, v2) = (lp.path, lp.extra_cells, lp.v1, lp.v2);
    match extra_cells.len() {
        1 => {
            // Type 1: the rescue cell loses both loop digits.
            let c = extra_cells[0];
            let mut s = base_step::<S>(path, v1, v2, 1);
            s.eliminate(c, v1);
            s.eliminate(c, v2);
            offer(sc, s, 1);
        }
        0 => {}
        2 => {
            let (c1, c2) = (extra_cells[0], extra_cells[1]);
            let r = (board.candidates(c1) | board.candidates(c2)) - lp.pair();
            if r.len() == 1 {
                type2(g, board, sc, lp);
            } else if r.len() >= 2 {
                type3(g, board, sc, path, c1, c2, v1, v2);
            }
            type4(g, board, sc, path, c1, c2, v1, v2);
        }
        _ => type2(g, board, sc, lp),
    }
}

fn type2<S: Size>(g: &Geometry<S>, board: &Board<S>, sc: &mut LoopScratch<S>, lp: &LoopAt) {
    let Some(value) = (board.candidates(lp.extra_cells[0]) - lp.pair()).first() else {
        return;
    };
    let mut common = g.all_cells();
    let mut extras = S::Set::EMPTY;
    for &c in lp.extra_cells {
        common &= g.peers(c);
        extras.insert(c);
    }
    let elim = (common - extras) & board.plane(value);
    if elim.is_empty() {
        return;
    }
    let mut s = base_step::<S>(lp.path, lp.v1, lp.v2, 2);
    s.eliminations[value.index()] = elim;
    s.digits.insert(value);
    offer(sc, s, 2);
}

#[allow(clippy::too_many_arguments)]
fn type3<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    sc: &mut LoopScratch<S>,
    path: &[Cell],
    c1: Cell,
    c2: Cell,
    v1: Digit,
    v2: Digit,
) {
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    let extra = (board.candidates(c1) | board.candidates(c2)) - pair;
    for degree in extra.len()..=7 {
        for &h in g.cell_houses(c1).ids() {
            let region = g.house(h as usize);
            if !region.set.contains(c2) {
                continue;
            }
            let n_empty = board.empty_in(region.set);
            let cells = &region.cells;
            let (Some(i1), Some(i2)) = (
                cells.iter().position(|&c| c == c1),
                cells.iter().position(|&c| c == c2),
            ) else {
                continue;
            };
            if degree * 2 <= n_empty {
                // Naked subset made of c1+c2 (as one cell holding the extras) and others:
                // SE tries the tuples of the house's positions in increasing mask order and
                // keeps those holding c1, not c2, and only cells with two candidates or
                // more. Those are c1's bit and a subset of `open`, taken here in the same
                // order.
                let mut open = 0u16;
                for (i, &c) in cells.iter().enumerate() {
                    if i != i1 && i != i2 && board.candidates(c).len() >= 2 {
                        open |= 1 << i;
                    }
                }
                // Every member has two candidates or more: the open cells by their choice,
                // c1+c2 because type 3 comes only with two extra digits or more.
                for sub in subsets_of(open, degree - 1) {
                    let mask = sub | 1 << i1;
                    let mut naked = extra & board.candidates(c1) & board.candidates(c2);
                    let mut union = DigitSet::EMPTY;
                    let mut others = S::Set::EMPTY;
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
                        union |= p;
                    }
                    if naked.len() != degree || union.len() != degree {
                        continue;
                    }
                    let targets = region.set - others - S::Set::single(c1) - S::Set::single(c2);
                    let mut s = base_step::<S>(path, v1, v2, 3);
                    let mut any = false;
                    for d in union {
                        let e = board.plane(d) & targets;
                        any |= !e.is_empty();
                        s.eliminations[d.index()] = e;
                    }
                    if any {
                        s.difficulty += (degree - 1) as u8;
                        s.base.insert(h as usize);
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
                let c2_set = S::Set::single(c2);
                'hidden: for pm in combinations(rem_n, degree - 2) {
                    let mut values = pair;
                    for (k, &d) in rem_digits.iter().enumerate().take(rem_n as usize) {
                        if pm & (1 << k) != 0 {
                            values.insert(d);
                        }
                    }
                    let mut common = S::Set::EMPTY;
                    for d in values {
                        let places = (board.plane(d) & region.set) - c2_set;
                        if places.is_empty() {
                            continue 'hidden;
                        }
                        common |= places;
                    }
                    if common.len() != degree {
                        continue;
                    }
                    let targets = common - S::Set::single(c1) - c2_set;
                    let mut s = base_step::<S>(path, v1, v2, 3);
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
                        s.base.insert(h as usize);
                        offer(sc, s, 3);
                    }
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn type4<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    sc: &mut LoopScratch<S>,
    path: &[Cell],
    c1: Cell,
    c2: Cell,
    v1: Digit,
    v2: Digit,
) {
    let (mut r1, mut r2) = (None, None);
    for &h in g.cell_houses(c1).ids() {
        let region = g.house_set(h as usize);
        if !region.contains(c2) {
            continue;
        }
        let others = region - S::Set::single(c1) - S::Set::single(c2);
        if (board.plane(v1) & others).is_empty() {
            r1 = Some(h as usize);
        }
        if (board.plane(v2) & others).is_empty() {
            r2 = Some(h as usize);
        }
    }
    let (region, lock, rem) = match (r1, r2) {
        (Some(r), _) => (r, v1, v2),
        (None, Some(r)) => (r, v2, v1),
        (None, None) => return,
    };
    let _ = lock;
    let mut s = base_step::<S>(path, v1, v2, 4);
    s.eliminate(c1, rem);
    s.eliminate(c2, rem);
    s.base.insert(region);
    offer(sc, s, 4);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::logic::testutil::{elims, random_minimal};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// `board` with half of its cells' candidates cut down to those among three digits
    /// (plus, at times, one other): many cells holding the same pairs, so many loops.
    fn loopy(board: &Board, rng: &mut impl rand::Rng) -> Board {
        let mut hot = DigitSet::EMPTY;
        while hot.len() < 3 {
            hot.insert(Digit::new(rng.random_range(1..=9)));
        }
        let mut b = *board;
        for c in board.empty() {
            let cand = board.candidates(c);
            let mut keep = cand & hot;
            let others: Vec<Digit> = (cand - hot).into_iter().collect();
            if !others.is_empty() && rng.random_range(0..10) < 4 {
                keep.insert(others[rng.random_range(0..others.len())]);
            }
            if keep.len() >= 2 && rng.random_range(0..10) < 5 {
                for d in cand - keep {
                    b.eliminate(c, d);
                }
            }
        }
        b
    }

    /// What the core's walk (index 0) and SE's full walk (index 1) find on one board.
    struct Walks {
        got: [bool; 2],
        steps: [Step; 2],
        /// True where the walk ran out of budget.
        spent: [bool; 2],
        /// The core's walk: paths cut at an earlier start, loops through one evaluated,
        /// loops met again and not evaluated again.
        cut: u64,
        through: u64,
        again: u64,
    }

    fn both_walks(b: &Board, budget: u64) -> Walks {
        let mut w = Walks {
            got: [false; 2],
            steps: [Step::default(); 2],
            spent: [false; 2],
            cut: 0,
            through: 0,
            again: 0,
        };
        for (k, walk_all) in [false, true].into_iter().enumerate() {
            let mut sc = LoopScratch::new();
            sc.walk_all = walk_all;
            let mut budget = Budget::new(budget);
            w.got[k] = find_unique_loop(
                crate::core::geometry::classic(),
                b,
                &mut sc,
                &mut budget,
                &mut w.steps[k],
            );
            w.spent[k] = budget.exhausted();
            if !walk_all {
                w.cut = sc.cut_through;
                w.through = sc.evaluated_through;
                w.again = sc.evaluated_again;
            }
        }
        w
    }

    #[test]
    fn walking_only_the_loop_core_finds_the_hint_the_full_walk_finds() {
        // Puzzles cut down to many cells with the same pairs: loops of every length and
        // type, many of them invalid or without removals.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut boards, mut long, mut found, mut types) = (0, 0, 0, [0; 5]);
        let mut again = 0;
        for (line, board) in random_minimal(60) {
            for _ in 0..20 {
                let b = loopy(&board, &mut rng);
                let w = both_walks(&b, 3_000_000);
                let Walks {
                    got, steps, spent, ..
                } = w;
                again += w.again;
                assert!(!spent[0], "{line}: the core's walk ran out");
                if spent[1] {
                    // The full walk takes too long on this board to compare.
                    long += 1;
                    continue;
                }
                boards += 1;
                assert_eq!(got[0], got[1], "{line}");
                if got[0] {
                    assert_eq!(steps[0], steps[1], "{line}");
                    found += 1;
                    types[match steps[0].technique {
                        Technique::UniqueRectangle1 | Technique::UniqueLoop1 => 1,
                        Technique::UniqueRectangle2 | Technique::UniqueLoop2 => 2,
                        Technique::UniqueRectangle3 | Technique::UniqueLoop3 => 3,
                        _ => 4,
                    }] += 1;
                }
            }
        }
        assert!(boards > 1000, "{boards} compared, {long} too long");
        // The core's walk meets many loops again (from another start, or the other way
        // round) and evaluates them once; the full walk evaluates every time.
        assert!(again > 1000, "{again} loops met again");
        assert!(
            found > 100 && types[1..].iter().all(|&n| n > 5),
            "{found} {types:?}"
        );
        eprintln!(
            "{boards} boards compared ({long} too long), {found} hints {types:?}, {again} loops met again"
        );
    }

    #[test]
    fn loops_through_an_earlier_start_are_met_from_it() {
        // Boards where cells hold 1 and 2 alone, with 3, or with another digit, and the
        // others neither: many loops, many of them with three cells with extras or more
        // whose extras are all 3 (type 2), walked from starts on either side.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut found, mut many_extras, mut long) = (0, 0, 0);
        let (mut cut, mut through) = (0, 0);
        for k in 0..2000 {
            let mut b = Board::EMPTY;
            for c in Cell::all() {
                let dense = [0, 1, 3, 5].contains(&c.row()) && [0, 2, 4, 6, 7].contains(&c.col());
                let keep: Vec<u8> = match rng.random_range(0..10) {
                    _ if !dense => vec![4, 5, 6, 7, 8, 9],
                    0..=2 => vec![1, 2],
                    3..=5 => vec![1, 2, 3],
                    6 => vec![1, 2, rng.random_range(4..=9)],
                    _ => vec![4, 5, 6, 7, 8, 9],
                };
                keep_only(&mut b, c, &keep);
            }
            let w = both_walks(&b, 300_000);
            let (got, steps, spent) = (w.got, w.steps, w.spent);
            cut += w.cut;
            through += w.through;
            assert!(!spent[0], "board {k}: the core's walk ran out");
            if spent[1] {
                // The full walk takes too long on this board to compare.
                long += 1;
                continue;
            }
            assert_eq!(got[0], got[1], "board {k}");
            if got[0] {
                assert_eq!(steps[0], steps[1], "board {k}");
                found += 1;
                let cells = steps[0].cells.len() as usize;
                let bivalue = steps[0]
                    .cells
                    .into_iter()
                    .filter(|&c| b.candidates(c).len() == 2)
                    .count();
                many_extras += usize::from(cells - bivalue >= 3);
            }
        }
        eprintln!(
            "{found} hints, {many_extras} with three cells with extras or more, {long} too long; {cut} paths cut, {through} loops through an earlier start evaluated"
        );
        assert!(found > 1000 && many_extras > 50, "{found} {many_extras}");
        assert!(cut > 10_000 && through > 1_000, "{cut} {through}");
    }

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
        find_unique_loop(
            crate::core::geometry::classic(),
            b,
            &mut sc,
            &mut budget,
            &mut s,
        )
        .then_some(s)
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
