//! What changed on the board since a producer last searched it and found nothing.
//!
//! A search that found nothing on one board finds nothing, on a later board, in any part of
//! its pattern space whose facts kept their values: a fish or locked candidates on a digit
//! whose plane did not change, a subset in a house whose cells kept their candidates, an
//! aligned exclusion whose cells and common peers kept theirs. So a producer that
//! remembers the board of its last empty search needs to look only at the parts touching a
//! change ([`Scope`]), and the first hint among those, in its usual order, is the first hint
//! of a full search. The ratings stay exactly Sudoku Explainer's; only the work shrinks (a
//! chain-rated puzzle asks every cheaper producer again after each step, and most of them
//! find nothing again).
//!
//! The memory belongs to one puzzle: the grader forgets it at the start of every rating,
//! so a rating never depends on the puzzles rated before it.

use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::Digit;

use super::Board;

/// The part of the board a search must look at: the cells whose candidates changed, and
/// the digits whose planes did.
#[derive(Clone, Copy, Debug)]
pub struct Scope<S: Size> {
    /// Cells whose candidates changed (a placed cell loses all of its).
    pub cells: S::Set,
    /// Digits whose candidate plane changed.
    pub digits: DigitSet,
    /// Per digit, the cells whose candidate of that digit changed.
    pub planes: [S::Set; 9],
}

impl<S: Size> Scope<S> {
    /// The whole board: a full search.
    pub fn everything(g: &Geometry<S>) -> Scope<S> {
        Scope {
            cells: g.all_cells(),
            digits: DigitSet::ALL,
            planes: [g.all_cells(); 9],
        }
    }

    /// True when the digit's plane changed.
    #[inline]
    pub fn has_digit(&self, d: Digit) -> bool {
        self.digits.contains(d)
    }

    /// True when one of `cells` changed.
    #[inline]
    pub fn touches(&self, cells: S::Set) -> bool {
        !(self.cells & cells).is_empty()
    }

    /// True when the candidate of `d` changed in one of `cells`.
    #[inline]
    pub fn touches_digit(&self, d: Digit, cells: S::Set) -> bool {
        !(self.planes[d.index()] & cells).is_empty()
    }
}

/// The candidate planes of the board a producer last searched in full without finding
/// anything, if any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Since<S: Size> {
    planes: [S::Set; 9],
    valid: bool,
}

impl<S: Size> Default for Since<S> {
    fn default() -> Self {
        Since {
            planes: [S::Set::EMPTY; 9],
            valid: false,
        }
    }
}

impl<S: Size> Since<S> {
    /// What a search of `board` must look at: what changed since the remembered board, or
    /// everything when none is remembered.
    #[inline]
    pub(crate) fn scope(&self, g: &Geometry<S>, board: &Board<S>) -> Scope<S> {
        self.changed(board).unwrap_or_else(|| Scope::everything(g))
    }

    /// What changed between the remembered board and `board`, or `None` when nothing is
    /// remembered.
    #[inline]
    pub(crate) fn changed(&self, board: &Board<S>) -> Option<Scope<S>> {
        if !self.valid {
            return None;
        }
        let mut cells = S::Set::EMPTY;
        let mut digits = DigitSet::EMPTY;
        let mut planes = [S::Set::EMPTY; 9];
        for d in Digit::all() {
            let diff = self.planes[d.index()] ^ board.plane(d);
            if !diff.is_empty() {
                cells |= diff;
                digits.insert(d);
                planes[d.index()] = diff;
            }
        }
        Some(Scope {
            cells,
            digits,
            planes,
        })
    }

    /// The remembered board's plane of `d`.
    #[inline]
    pub(crate) fn plane(&self, d: Digit) -> S::Set {
        self.planes[d.index()]
    }

    /// Remembers `board` (searched in full: with nothing found, for the producers that
    /// skip what did not change).
    #[inline]
    pub(crate) fn record(&mut self, board: &Board<S>) {
        for d in Digit::all() {
            self.planes[d.index()] = board.plane(d);
        }
        self.valid = true;
    }

    /// Forgets the remembered board.
    #[inline]
    pub(crate) fn forget(&mut self) {
        self.valid = false;
    }
}
