//! Aligned pair exclusion (6.2) and aligned triple exclusion (7.5).
//!
//! Take two (three) base cells and list every combination of their candidates. A
//! combination is impossible when two base cells that see each other get the same digit,
//! or when it would empty an *excluder*: a cell seeing all base cells whose candidates are
//! all within the combination. A candidate of a base cell that appears in no possible
//! combination is removed.
//!
//! As in Sudoku Explainer (`AlignedPairExclusion`, `AlignedExclusion`): base cells are the
//! empty cells with an excluder among their peers (excluders have 2 candidates for pairs,
//! 2 or 3 for triples); the base cells need not see each other; a tuple needs at least two
//! common excluders; pairs are tried in the order of SE's `Permutations` over the base
//! cells in reading order, and the third cell of a triple is taken among the excluders of
//! the first two that are base cells themselves.
//!
//! What a tuple finds depends only on the candidates of its cells and on which of their
//! common peers are excluders, with their candidates (no naked single is about when the
//! grader asks). A common peer of four candidates or more (three or more for pairs) is no
//! excluder, and was none before (candidates only go). So a search given a [`Scope`] tests
//! only the tuples with a changed cell among them, or a changed cell among their common
//! peers that is an excluder now or may have been one (fewer candidates than that, or
//! solved since); between the steps of a chain-rated puzzle that is a small share of them.

use super::unchanged::Scope;
use super::{Board, Budget, Step, Technique};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CellBits, Geometry, Size};
use crate::core::index::Cell;

/// Base cells in index order and their excluders.
struct Bases<S: Size> {
    cells: S::Cells<Cell>,
    excl: S::Cells<S::Set>,
    set: S::Set,
    /// The index of each base cell in `cells`.
    index: S::Cells<u16>,
    n: usize,
    /// The cells with too many candidates to be excluders (now, and so before).
    crowded: S::Set,
}

fn bases<S: Size>(g: &Geometry<S>, board: &Board<S>, degree: u32) -> Bases<S> {
    let mut b = Bases::<S> {
        cells: S::Cells::splat(Cell::default()),
        excl: S::Cells::splat(S::Set::EMPTY),
        set: S::Set::EMPTY,
        index: S::Cells::splat(0),
        n: 0,
        crowded: S::Set::EMPTY,
    };
    let [ge1, ge2, ge3, ge4] = board.cells_with_at_least();
    let singles = ge1 - ge2;
    b.crowded = if degree == 2 { ge3 } else { ge4 };
    let excluders = ge2 - b.crowded;
    for c in ge2 {
        let ex = g.peers(c) & excluders;
        let naked_single = !(g.peers(c) & singles).is_empty();
        if !naked_single && !ex.is_empty() {
            b.cells[b.n] = c;
            b.excl[b.n] = ex;
            b.set.insert(c);
            b.index[c.index()] = b.n as u16;
            b.n += 1;
        }
    }
    b
}

/// Tests every candidate combination of `cells` (2 or 3 cells) against `excluders`, and
/// returns, for each cell, the candidates appearing in at least one possible combination.
///
/// For pairs, each first digit's possible second digits come in one go, from the
/// excluders holding it. For triples, the third cell's possible digits for each pair of
/// the first two come in one go: an excluder within the pair's digits blocks every third
/// digit, one with a single digit outside blocks that digit; the search stops as soon as
/// every candidate of every cell has appeared (nothing can go then).
fn allowed<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    cells: &[Cell],
    excluders: S::Set,
) -> [DigitSet; 3] {
    // An excluder with a digit outside the base cells' candidates never blocks a
    // combination (for triples: what the first two cells' digits leave of it keeps that
    // digit, which no third digit can be), so only the others are tested.
    let mut all = 0u16;
    for &c in cells {
        all |= board.candidates(c).bits();
    }
    let masks = excluders
        .into_iter()
        .map(|e| board.candidates(e).bits())
        .filter(|m| m & !all == 0);
    let mut out = [DigitSet::EMPTY; 3];
    let see01 = g.peers(cells[0]).contains(cells[1]);
    let c0 = board.candidates(cells[0]);
    let c1 = board.candidates(cells[1]);
    if cells.len() == 2 {
        // A combination is blocked by an excluder within its (one or two) digits: the
        // pair's excluders hold two digits, so each first digit's blocked second digits
        // come from the excluders holding it (and an excluder of one digit, were there
        // one, would block that digit everywhere).
        let mut blocked = [0u16; 9];
        let mut everywhere = 0u16;
        for e in masks {
            match e.count_ones() {
                1 => everywhere |= e,
                2 => {
                    let (a, b) = (e.trailing_zeros(), 15 - e.leading_zeros());
                    blocked[a as usize] |= 1 << b;
                    blocked[b as usize] |= 1 << a;
                }
                _ => {}
            }
        }
        for p0 in c0 {
            let b0 = DigitSet::single(p0).bits();
            let mut free = c1.bits() & !blocked[p0.index()] & !everywhere;
            if see01 {
                free &= !b0;
            }
            if free != 0 && everywhere & b0 == 0 {
                out[0].insert(p0);
                out[1] = DigitSet::from_bits(out[1].bits() | free);
            }
        }
    } else {
        let c2 = board.candidates(cells[2]);
        let see02 = g.peers(cells[0]).contains(cells[2]);
        let see12 = g.peers(cells[1]).contains(cells[2]);
        // An excluder of two digits blocks, with one of them among the first two digits,
        // its other digit as the third (with both, every third digit): `third` lists
        // that per digit. One of three digits blocks its third digit when the first two
        // are its other two (with fewer of them, two of its digits are left, and no third
        // digit empties it): `pair_third` lists that per pair of digits.
        let mut third = [0u16; 9];
        let mut pair_third = [[0u16; 9]; 9];
        for e in masks {
            let (a, b) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
            if e.count_ones() == 2 {
                third[a] |= 1 << b;
                third[b] |= 1 << a;
            } else {
                // Excluders hold two or three candidates.
                debug_assert_eq!(e.count_ones(), 3);
                let m = (e & !(1 << a) & !(1 << b)).trailing_zeros() as usize;
                for (x, y, z) in [(a, b, m), (a, m, b), (b, m, a)] {
                    pair_third[x][y] |= 1 << z;
                    pair_third[y][x] |= 1 << z;
                }
            }
        }
        for p0 in c0 {
            for p1 in c1 {
                if p0 == p1 && see01 {
                    continue;
                }
                let m01 = DigitSet::single(p0).bits() | DigitSet::single(p1).bits();
                let mut blocked = third[p0.index()] | third[p1.index()];
                // Both digits of an excluder: every third digit is blocked.
                if blocked & m01 != 0 {
                    continue;
                }
                if see02 {
                    blocked |= DigitSet::single(p0).bits();
                }
                if see12 {
                    blocked |= DigitSet::single(p1).bits();
                }
                blocked |= pair_third[p0.index()][p1.index()];
                let free = c2.bits() & !blocked;
                if free != 0 {
                    out[0].insert(p0);
                    out[1].insert(p1);
                    out[2] = DigitSet::from_bits(out[2].bits() | free);
                    // The other second digits would add nothing for this first one.
                    if out[1] == c1 && out[2] == c2 {
                        break;
                    }
                }
            }
            if out[0] == c0 && out[1] == c1 && out[2] == c2 {
                break;
            }
        }
    }
    out
}

fn fill<S: Size>(
    board: &Board<S>,
    cells: &[Cell],
    ok: [DigitSet; 3],
    t: Technique,
    step: &mut Step<S>,
) -> bool {
    step.reset(t);
    for (k, &c) in cells.iter().enumerate() {
        for d in board.candidates(c) - ok[k] {
            step.eliminate(c, d);
        }
        step.cells.insert(c);
    }
    !step.is_empty()
}

/// The cells a pair or triple far from every changed cell must include to matter: those in
/// `changed` or seeing a cell of `changed_ex` (the changed cells that matter as common
/// peers: excluders now or perhaps before, that is all but the crowded ones). A tuple's
/// excluders and third cells are peers of its first two, so a pair of cells neither of
/// which is near a change can only find again what it found before.
fn near_changes<S: Size>(g: &Geometry<S>, changed: S::Set, changed_ex: S::Set) -> S::Set {
    let mut reach = changed;
    for z in changed_ex {
        reach |= g.peers(z);
    }
    reach
}

/// Each base cell but the first, with its index, and the base cells before it to pair it
/// with (SE pairs each with those before it): all of them when it is near a change (in
/// `reach`, see [`near_changes`]), else those that are.
fn seconds<S: Size>(
    b: &Bases<S>,
    reach: S::Set,
) -> impl Iterator<Item = (usize, Cell, S::Set)> + '_ {
    let near = reach & b.set;
    let mut before = S::Set::EMPTY;
    (0..b.n).filter_map(move |j| {
        let cj = b.cells[j];
        let firsts = if reach.contains(cj) {
            before
        } else {
            before & near
        };
        before.insert(cj);
        (j > 0).then_some((j, cj, firsts))
    })
}

/// The cells that see two cells of `cells` or more. A base cell shares two excluders with
/// another exactly when it sees two of the other's: these are the cells to pair it with.
#[inline]
fn seeing_two<S: Size>(g: &Geometry<S>, cells: S::Set) -> S::Set {
    let (mut once, mut twice) = (S::Set::EMPTY, S::Set::EMPTY);
    for e in cells {
        let p = g.peers(e);
        twice |= once & p;
        once |= p;
    }
    twice
}

/// The changed cells that can still matter once `c` joins a tuple whose cells so far
/// leave `near` of them: all when `c` changed, else those of `near` that `c` sees (a tuple's
/// excluders are common peers of all its cells). Empty: the tuple cannot find anything new.
#[inline]
fn near_with<S: Size>(g: &Geometry<S>, changed: S::Set, near: S::Set, c: Cell) -> S::Set {
    if changed.contains(c) {
        g.all_cells()
    } else {
        near & g.peers(c)
    }
}

/// The first aligned pair exclusion in SE's order, among the pairs `scope` touches.
pub fn find_aligned_pair<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    scope: &Scope<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    let b = bases(g, board, 2);
    let changed = scope.cells;
    let changed_ex = changed - b.crowded;
    let reach = near_changes(g, changed, changed_ex);
    for (j, cj, firsts) in seconds(&b, reach) {
        if !budget.charge(u64::from(firsts.len())) {
            return false;
        }
        let near_j = near_with(g, changed, changed_ex, cj);
        // Those with two common excluders, in order.
        for ci in firsts & seeing_two(g, b.excl[j]) {
            let i = usize::from(b.index[ci.index()]);
            let common = b.excl[i] & b.excl[j];
            if near_with(g, changed, near_j, ci).is_empty() {
                continue;
            }
            let cells = [ci, cj];
            let ok = allowed(g, board, &cells, common);
            if cells
                .iter()
                .enumerate()
                .any(|(k, &c)| board.candidates(c) != ok[k])
            {
                return fill(board, &cells, ok, Technique::AlignedPairExclusion, step);
            }
        }
    }
    false
}

/// The first aligned triple exclusion in SE's order, among the triples `scope` touches.
pub fn find_aligned_triple<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    scope: &Scope<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    let b = bases(g, board, 3);
    let changed = scope.cells;
    let changed_ex = changed - b.crowded;
    let reach = near_changes(g, changed, changed_ex);
    for (j, cj, firsts) in seconds(&b, reach) {
        let near_j = near_with(g, changed, changed_ex, cj);
        let pairing = seeing_two(g, b.excl[j]);
        for ci in firsts {
            // A first cell without two common excluders costs a unit, as it is passed.
            if !pairing.contains(ci) {
                if !budget.charge(1) {
                    return false;
                }
                continue;
            }
            let i = usize::from(b.index[ci.index()]);
            let near_ij = near_with(g, changed, near_j, ci);
            let common01 = b.excl[i] & b.excl[j];
            let twin = ((b.excl[i] | b.excl[j]) & b.set) - S::Set::single(ci) - S::Set::single(cj);
            // With no changed cell near the pair, only a changed third cell can matter.
            let todo = if near_ij.is_empty() {
                twin & changed
            } else {
                twin
            };
            if !budget.charge(1 + todo.len() as u64) {
                return false;
            }
            // The third cells with two of the pair's common excluders.
            for t in todo & seeing_two(g, common01) {
                let k = usize::from(b.index[t.index()]);
                let common = common01 & b.excl[k];
                if near_with(g, changed, near_ij, t).is_empty() {
                    continue;
                }
                if !budget.charge(8) {
                    return false;
                }
                let cells = [ci, cj, t];
                let ok = allowed(g, board, &cells, common);
                if cells
                    .iter()
                    .enumerate()
                    .any(|(k, &c)| board.candidates(c) != ok[k])
                {
                    return fill(board, &cells, ok, Technique::AlignedTripleExclusion, step);
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::Digit;
    use crate::core::logic::testutil::{cg, elims};

    fn keep_only(b: &mut Board, c: Cell, keep: &[u8]) {
        for d in Digit::all() {
            if !keep.contains(&d.get()) {
                b.eliminate(c, d);
            }
        }
    }

    #[test]
    fn pair_exclusion_with_two_excluders() {
        // Base cells r1c1 {1,2,3} and r1c2 {1,2,3}? Use the classic: base r1c1 {1,2},
        // r1c2 {1,2,3}; excluders seeing both: r1c5 {1,3}, r1c6 {2,3}. Combos of (r1c1,
        // r1c2): (1,2) ok? r1c6 {2,3} not within {1,2}; r1c5 {1,3} no: ok. (1,3): r1c5
        // within {1,3}: locked. (2,1): ok. (2,3): r1c6 locked. So r1c2 loses 3.
        let mut b = Board::EMPTY;
        keep_only(&mut b, Cell::at(0, 0), &[1, 2]);
        keep_only(&mut b, Cell::at(0, 1), &[1, 2, 3]);
        keep_only(&mut b, Cell::at(0, 4), &[1, 3]);
        keep_only(&mut b, Cell::at(0, 5), &[2, 3]);
        let mut s = Step::default();
        assert!(find_aligned_pair(
            cg(),
            &b,
            &Scope::everything(cg()),
            &mut Budget::new(u64::MAX),
            &mut s
        ));
        assert_eq!(s.technique, Technique::AlignedPairExclusion);
        assert_eq!(s.difficulty, 62);
        assert_eq!(elims(&s), ["r1c2<>3"]);
    }

    #[test]
    fn pair_combinations_left_are_those_no_excluder_blocks() {
        // Every pair of cells of two or more candidates on thinned random minimal
        // puzzles, with their common peers of one or two candidates as excluders, against
        // the plain test of every combination.
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        let mut removing = 0;
        for (_, board) in random_minimal(40) {
            let board = thinned(&board, rng.random_range(20..120), &mut rng);
            let [ge1, ge2, ge3, _] = board.cells_with_at_least();
            let excluders = ge1 - ge3;
            for a in ge2 {
                for b in ge2 {
                    if b.index() <= a.index() {
                        continue;
                    }
                    let common = cg().peers(a) & cg().peers(b) & excluders;
                    let got = allowed(cg(), &board, &[a, b], common);
                    let see = cg().peers(a).contains(b);
                    let mut want = [DigitSet::EMPTY; 3];
                    for p0 in board.candidates(a) {
                        for p1 in board.candidates(b) {
                            let m = DigitSet::single(p0).bits() | DigitSet::single(p1).bits();
                            let blocked = (see && p0 == p1)
                                || common.iter().any(|e| board.candidates(e).bits() & !m == 0);
                            if !blocked {
                                want[0].insert(p0);
                                want[1].insert(p1);
                            }
                        }
                    }
                    assert_eq!(got, want, "{a:?} {b:?}");
                    removing += usize::from(want[0] != board.candidates(a));
                }
            }
        }
        assert!(removing > 2000, "{removing}");
    }

    #[test]
    fn triple_combinations_left_are_those_no_excluder_blocks() {
        // Triples of cells of two or more candidates on thinned random minimal puzzles,
        // with their common peers of two or three candidates as excluders, against the
        // plain test of every combination.
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let (mut tested, mut removing) = (0, 0);
        for (_, board) in random_minimal(40) {
            let board = thinned(&board, rng.random_range(20..120), &mut rng);
            let [_, ge2, _, ge4] = board.cells_with_at_least();
            let excluders = ge2 - ge4;
            let cells: Vec<Cell> = ge2.into_iter().collect();
            if cells.len() < 3 {
                continue;
            }
            for _ in 0..3000 {
                let mut t = [0; 3].map(|_| cells[rng.random_range(0..cells.len())]);
                t.sort();
                if t[0] == t[1] || t[1] == t[2] {
                    continue;
                }
                let common = cg().peers(t[0]) & cg().peers(t[1]) & cg().peers(t[2]) & excluders;
                if common.is_empty() {
                    continue;
                }
                let got = allowed(cg(), &board, &t, common);
                let see = |a: usize, b: usize| cg().peers(t[a]).contains(t[b]);
                let mut want = [DigitSet::EMPTY; 3];
                for p0 in board.candidates(t[0]) {
                    for p1 in board.candidates(t[1]) {
                        for p2 in board.candidates(t[2]) {
                            let m = DigitSet::single(p0).bits()
                                | DigitSet::single(p1).bits()
                                | DigitSet::single(p2).bits();
                            let blocked = (see(0, 1) && p0 == p1)
                                || (see(0, 2) && p0 == p2)
                                || (see(1, 2) && p1 == p2)
                                || common.iter().any(|e| board.candidates(e).bits() & !m == 0);
                            if !blocked {
                                want[0].insert(p0);
                                want[1].insert(p1);
                                want[2].insert(p2);
                            }
                        }
                    }
                }
                assert_eq!(got, want, "{t:?}");
                tested += 1;
                removing += usize::from((0..3).any(|k| want[k] != board.candidates(t[k])));
            }
        }
        assert!(tested > 5000 && removing > 200, "{tested} {removing}");
    }

    #[test]
    fn no_pair_exclusion_with_one_excluder() {
        // A single bivalue cell: no pair of base cells has two common excluders.
        let mut b = Board::EMPTY;
        keep_only(&mut b, Cell::at(0, 0), &[1, 2]);
        keep_only(&mut b, Cell::at(0, 1), &[1, 2, 3]);
        let mut s = Step::default();
        assert!(!find_aligned_pair(
            cg(),
            &b,
            &Scope::everything(cg()),
            &mut Budget::new(u64::MAX),
            &mut s
        ));
    }
}
