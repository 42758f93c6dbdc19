//! The entry point of the chaining techniques: bidirectional X-, Y- and XY-cycles, forcing
//! X-chains and forcing chains, Nishio, multiple (cell and region) forcing chains, dynamic
//! forcing chains and nested forcing chains.
//!
//! The grader calls [`find`] once per chaining *level*, in Sudoku Explainer's order (see
//! [`ChainLevel`]); `find` returns the easiest step of that level the way SE's `Chaining`
//! producer does (it collects every hint of the level and sorts them by rating, then chain
//! complexity, then kind).
//!
//! This file holds the slot only: until the chaining search is written, `find` reports
//! nothing and [`supports`] says no, so puzzles that need chains end as "stuck" (a lower
//! bound) in the grader.
//!
//! # Facts about Sudoku Explainer's chaining, for the implementation
//!
//! From SE's `diuf/sudoku/solver/rules/chaining/` (`Chaining`, `ChainingHint`, `CycleHint`,
//! `ForcingChainHint`, `BinaryChainingHint`, `CellChainingHint`, `RegionChainingHint`):
//!
//! - Levels, in solver order: `Chaining(false, false, false, 0)` (X-cycles, Y-cycles,
//!   XY-cycles, forcing X-chains and XY forcing chains), then aligned triple exclusion (not
//!   a chain; the grader runs it), then `Chaining(false, true, true, 0)` (Nishio),
//!   `Chaining(true, false, false, 0)` (multiple: cell and region forcing chains),
//!   `Chaining(true, true, false, 0)` (dynamic), then levels 1 to 4 of
//!   `Chaining(true, true, false, level)`.
//! - Ratings: bidirectional X- or Y-cycle 6.5, forcing X-chain 6.6, XY cycle and forcing
//!   chain 7.0, Nishio 7.5, multiple 8.0, dynamic 8.5, level 1 9.0, level `n >= 2`
//!   9.5 + 0.5 (n - 2); each plus [`super::length_bonus`] of the hint's complexity minus 2.
//! - A level collects all its hints, sorts them by rating, then complexity, then kind
//!   (`getSortKey`), and the solver applies the first one.
//! - A chaining hint applies its removals, and also places a digit when its result is an
//!   "on" potential (`ChainingHint.getCell`): such a step counts as a placement for EP.

use super::{Board, Budget, Step, Tenths};

/// One of Sudoku Explainer's chaining producers, in the order its solver tries them
/// (aligned triple exclusion, which is not a chain, sits between `Cycles` and `Nishio`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainLevel {
    /// SE `Chaining(false, false, false, 0)`: bidirectional X-cycles and Y-cycles (6.5),
    /// forcing X-chains (6.6), forcing chains and bidirectional XY-cycles (7.0), plus length.
    Cycles,
    /// SE `Chaining(false, true, true, 0)`: Nishio forcing chains (7.5 + length).
    Nishio,
    /// SE `Chaining(true, false, false, 0)`: cell and region forcing chains (8.0 + length).
    Multiple,
    /// SE `Chaining(true, true, false, 0)`: dynamic forcing chains (8.5 + length).
    Dynamic,
    /// SE `Chaining(true, true, false, n)`, `n` in 1..=4: nested forcing chains
    /// (9.0, 9.5, 10.0, 10.5 + length).
    Nested(u8),
}

impl ChainLevel {
    /// The levels in the order the grader tries them.
    pub const ORDER: [ChainLevel; 8] = [
        ChainLevel::Cycles,
        ChainLevel::Nishio,
        ChainLevel::Multiple,
        ChainLevel::Dynamic,
        ChainLevel::Nested(1),
        ChainLevel::Nested(2),
        ChainLevel::Nested(3),
        ChainLevel::Nested(4),
    ];

    /// The lowest rating a step of this level can have (SE's base rating), in tenths.
    pub const fn base_rating(self) -> Tenths {
        match self {
            ChainLevel::Cycles => 65,
            ChainLevel::Nishio => 75,
            ChainLevel::Multiple => 80,
            ChainLevel::Dynamic => 85,
            ChainLevel::Nested(n) => 85 + 5 * n,
        }
    }
}

/// Working memory of the chain searches, built once per worker and reused.
#[derive(Clone, Debug, Default)]
pub struct ChainScratch {
    _reserved: (),
}

impl ChainScratch {
    /// Fresh scratch.
    pub fn new() -> ChainScratch {
        ChainScratch::default()
    }
}

/// True when [`find`] searches `level`. The grader stops (with a lower bound) at the first
/// chaining level that is not supported yet, rather than skip it and apply a later
/// technique that Sudoku Explainer would not have reached.
pub fn supports(level: ChainLevel) -> bool {
    let _ = level;
    false
}

/// The easiest chaining step of `level` on `board`, written to `step`; false when there is
/// none or when `budget` ran out (check [`Budget::exhausted`] to tell them apart).
pub fn find(
    board: &Board,
    level: ChainLevel,
    scratch: &mut ChainScratch,
    budget: &mut Budget,
    step: &mut Step,
) -> bool {
    let _ = (board, level, scratch, budget, step);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_have_se_base_ratings() {
        let r: Vec<Tenths> = ChainLevel::ORDER.iter().map(|l| l.base_rating()).collect();
        assert_eq!(r, [65, 75, 80, 85, 90, 95, 100, 105]);
    }
}
