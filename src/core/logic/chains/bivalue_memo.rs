//! What the Y pass of the first chaining level already knows to find nothing.
//!
//! The Y pass ([`super::cycles`]: Y-links only, SE's bidirectional Y-cycles) starts from
//! the cells of two candidates, and its links join only such cells: an "off" potential
//! implies an "on" one only in a cell of two candidates (its other candidate), so every
//! potential that implies something, hence every potential of a cycle, lies in such a
//! cell. The other "off" potentials are leaves of the search, which the search leaves
//! out. So which cycles it meets within a length, and their lengths, depend only on the
//! cells of two candidates and their candidates (and the geometry).
//!
//! A cycle is offered only if it removes something: a candidate outside the cycle's cells
//! that sees one of its "on" potentials and one of its "off" potentials of the
//! candidate's digit. As candidates go, what sees a potential only shrinks. So when the
//! pass met no cycle within a length that removes anything, on a later grid of the same
//! puzzle with the same cells of two candidates holding the same candidates, it meets
//! the same cycles within that length, and none of them removes anything: the pass,
//! asked for cycles no longer than that, finds nothing again and is skipped. A
//! chain-rated puzzle asks the first level again at every step; on the random minimal
//! puzzles rated 6.6-9.0 the cells of two candidates are the same as at the last ask in
//! about a third of the asks. The hints, their order and the ratings stay exactly Sudoku
//! Explainer's.
//!
//! The memory belongs to one puzzle (the geometry is part of what it relies on):
//! [`super::ChainScratch::forget`] clears it at the start of every rating.

use super::potentials::Cands;
use crate::core::geometry::{CellBits, Size};
use crate::core::logic::cells_with_at_least;

/// The cells of two candidates (as each digit's plane among them) of a grid on which the
/// Y pass met no cycle that removes anything, up to a length, when known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BivalueMemo<S: Size> {
    pairs: [S::Set; 9],
    /// The longest cycle (in potentials) the pass looked for there; 0: nothing known.
    len: u32,
}

impl<S: Size> Default for BivalueMemo<S> {
    fn default() -> Self {
        BivalueMemo {
            pairs: [S::Set::EMPTY; 9],
            len: 0,
        }
    }
}

/// Each digit's candidates among the cells of `cur` holding exactly two.
pub(crate) fn bivalue_planes<S: Size>(cur: &Cands<S>) -> [S::Set; 9] {
    let [_, two, three, _] = cells_with_at_least::<S>(&cur.planes);
    let pairs = two - three;
    cur.planes.map(|p| p & pairs)
}

impl<S: Size> BivalueMemo<S> {
    /// Forgets everything (a new puzzle).
    pub(crate) fn forget(&mut self) {
        self.len = 0;
    }

    /// True when the Y pass, looking for cycles of up to `len` potentials on a grid whose
    /// cells of two candidates are `pairs` ([`bivalue_planes`]), is known to find nothing.
    pub(crate) fn finds_nothing(&self, pairs: &[S::Set; 9], len: u32) -> bool {
        len <= self.len && *pairs == self.pairs
    }

    /// Remembers that the Y pass, looking for cycles of up to `len` potentials, met none
    /// that removes anything on a grid whose cells of two candidates are `pairs`.
    pub(crate) fn record(&mut self, pairs: &[S::Set; 9], len: u32) {
        self.pairs = *pairs;
        self.len = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S81;
    use crate::core::index::{Cell, Digit};
    use crate::core::logic::testutil::{board_with, cg};

    #[test]
    fn the_memory_holds_for_the_same_cells_of_two_candidates_and_no_longer_cycles() {
        let mut b = board_with(&[(0, 0, 1), (4, 4, 5)]);
        // r9c9 holds 3 and 7, r9c8 holds 2, 3 and 7.
        for d in 1..=9 {
            if d != 3 && d != 7 {
                b.eliminate(Cell::at(8, 8), Digit::new(d));
                if d != 2 {
                    b.eliminate(Cell::at(8, 7), Digit::new(d));
                }
            }
        }
        let cur = Cands::from_board(cg(), &b);
        let pairs = bivalue_planes(&cur);
        let r9c9 = Cell::at(8, 8);
        for d in 1..=9 {
            let want = if d == 3 || d == 7 {
                <S81 as Size>::Set::single(r9c9)
            } else {
                <S81 as Size>::Set::EMPTY
            };
            assert_eq!(pairs[d - 1], want, "digit {d}");
        }
        let mut m = BivalueMemo::<S81>::default();
        assert!(!m.finds_nothing(&pairs, 4));
        m.record(&pairs, 8);
        assert!(m.finds_nothing(&pairs, 8) && m.finds_nothing(&pairs, 4));
        assert!(!m.finds_nothing(&pairs, 9));

        // A 7 goes from a cell of three candidates: the cells of two are new.
        let mut b2 = b;
        b2.eliminate(Cell::at(8, 7), Digit::new(7));
        let pairs2 = bivalue_planes(&Cands::from_board(cg(), &b2));
        assert!(!m.finds_nothing(&pairs2, 4));
        // One goes from a cell of many: they are the same.
        let mut b3 = b;
        b3.eliminate(Cell::at(2, 2), Digit::new(7));
        assert!(m.finds_nothing(&bivalue_planes(&Cands::from_board(cg(), &b3)), 8));

        m.forget();
        assert!(!m.finds_nothing(&pairs, 4));
    }
}
