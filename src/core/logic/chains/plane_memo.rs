//! What the single-digit chain searches already know to find nothing.
//!
//! Two of SE's chaining searches follow X-links only, so every chain they build stays on
//! the digit it starts from: the X pass of the first level (X-cycles and forcing X-chains,
//! [`super::cycles`]) and Nishio forcing chains ([`super::forcing`], no Y-links). What they
//! find from the candidates of digit `d` depends on nothing but `d`'s candidate plane
//! (which cells hold `d`) and on which of those cells hold another candidate too (the
//! searches start only from cells of two candidates or more), besides the geometry.
//!
//! So once such a search has looked at every candidate of `d` and found nothing (the X
//! pass: no hint of any length; Nishio: no contradiction, whatever the other digits gave),
//! it finds nothing from `d` again while those two sets stay the same. A chain-rated
//! puzzle asks these levels again at every step, and each step changes only some planes;
//! the searches skip the digits this memory vouches for. The hints, their order and the
//! ratings stay exactly Sudoku Explainer's: a skipped digit is one that would offer none.
//!
//! The memory belongs to one puzzle (the geometry is part of what it relies on: a Jigsaw
//! puzzle brings its own regions): [`super::ChainScratch::forget`] clears it at the start
//! of every rating.

use super::potentials::Cands;
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Size};
use crate::core::index::{Cell, Digit};

/// For each digit, the plane (and its cells of two candidates or more) on which a
/// single-digit search found nothing, when known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlaneMemo<S: Size> {
    planes: [S::Set; 9],
    starts: [S::Set; 9],
    known: DigitSet,
}

impl<S: Size> Default for PlaneMemo<S> {
    fn default() -> Self {
        PlaneMemo {
            planes: [S::Set::EMPTY; 9],
            starts: [S::Set::EMPTY; 9],
            known: DigitSet::EMPTY,
        }
    }
}

/// The cells of `cur` holding two candidates or more (where the searches start).
pub(crate) fn multi_cells<S: Size>(cur: &Cands<S>) -> S::Set {
    let mut m = S::Set::EMPTY;
    for c in 0..S::CELLS {
        if cur.cells[c].len() >= 2 {
            m.insert(Cell::from_index(c));
        }
    }
    m
}

impl<S: Size> PlaneMemo<S> {
    /// Forgets everything (a new puzzle).
    pub(crate) fn forget(&mut self) {
        self.known = DigitSet::EMPTY;
    }

    /// The digits whose search is known to find nothing on `cur` (`multi`: its cells of
    /// two candidates or more).
    pub(crate) fn clean(&self, cur: &Cands<S>, multi: S::Set) -> DigitSet {
        let mut out = DigitSet::EMPTY;
        for d in self.known {
            let plane = cur.planes[d.index()];
            if plane == self.planes[d.index()] && plane & multi == self.starts[d.index()] {
                out.insert(d);
            }
        }
        out
    }

    /// Remembers that the search of digit `d` found nothing on `cur`.
    pub(crate) fn record(&mut self, d: Digit, cur: &Cands<S>, multi: S::Set) {
        let plane = cur.planes[d.index()];
        self.planes[d.index()] = plane;
        self.starts[d.index()] = plane & multi;
        self.known.insert(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S81;
    use crate::core::logic::testutil::{board_with, cg};

    fn digits(ds: &[u8]) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for &d in ds {
            s.insert(Digit::new(d));
        }
        s
    }

    #[test]
    fn a_digit_is_vouched_for_while_its_plane_and_its_starts_stay() {
        let b = board_with(&[(0, 0, 1), (4, 4, 5)]);
        let cur = Cands::from_board(cg(), &b);
        let multi = multi_cells(&cur);
        let mut m = PlaneMemo::<S81>::default();
        assert_eq!(m.clean(&cur, multi), DigitSet::EMPTY);
        m.record(Digit::new(3), &cur, multi);
        m.record(Digit::new(7), &cur, multi);
        assert_eq!(m.clean(&cur, multi), digits(&[3, 7]));

        // A 3 goes: only 7 is still vouched for.
        let mut b2 = b;
        b2.eliminate(Cell::at(8, 8), Digit::new(3));
        let cur2 = Cands::from_board(cg(), &b2);
        assert_eq!(m.clean(&cur2, multi_cells(&cur2)), digits(&[7]));

        // r9c9 keeps only its 7: the plane of 7 is the same, but no search starts there.
        let mut b3 = b;
        for d in 1..=9 {
            if d != 7 {
                b3.eliminate(Cell::at(8, 8), Digit::new(d));
            }
        }
        let cur3 = Cands::from_board(cg(), &b3);
        assert_eq!(cur3.planes[6], cur.planes[6]);
        assert!(!m.clean(&cur3, multi_cells(&cur3)).contains(Digit::new(7)));

        m.forget();
        assert_eq!(m.clean(&cur, multi), DigitSet::EMPTY);
    }
}
