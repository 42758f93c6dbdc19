//! Human solving techniques: the candidate state they work on ([`Board`]), the list of
//! techniques with their Sudoku Explainer ratings ([`Technique`]), one step of a solving path
//! ([`Step`]), and one module per technique family.
//!
//! The rules, ratings and search orders follow Sudoku Explainer 1.2.1 by Nicolas Juillerat
//! (as kept, behind options, in the SukakuExplainer fork on GitHub,
//! `SudokuMonster/SukakuExplainer`): its `Solver` applies, after every step, the first hint
//! of the first producer that finds one, producers being tried in a fixed order (see
//! [`crate::core::grader`]). The code here is ours; comments cite the SE class whose rule
//! it reproduces.
//!
//! # How a technique plugs in
//!
//! A technique is a function in the module of its family, with this shape:
//!
//! ```text
//! pub fn find_xxx(board: &Board, scratch: &mut Scratch, budget: &mut Budget, step: &mut Step) -> bool
//! ```
//!
//! It looks at `board` (never changes it), and when it finds a deduction that makes progress
//! it fills `step` (via [`Step::reset`] and then the fields) with the *first* such deduction
//! in Sudoku Explainer's search order and returns `true`. It must not allocate: any working
//! memory lives in [`Scratch`] (built once per worker and reused) or on the stack. Expensive
//! searches charge their work to `budget` and give up (returning `false`) once
//! [`Budget::charge`] says the budget is spent. To make the grader use a new technique, add
//! its [`Technique`] variant (in rating order, with SE's rating and name) and add a
//! [`crate::core::grader::Producer`] in SE's order.
//!
//! The chaining techniques (cycles, forcing chains, Nishio, multiple, dynamic and nested
//! forcing chains) enter through one slot, [`chains::find`], which returns the easiest
//! chaining step of a given [`chains::ChainLevel`]; [`chains::supports`] tells the grader
//! which levels are implemented (it stops with a lower bound at the first that is not,
//! rather than skip ahead of Sudoku Explainer's order).
//!
//! # The candidate state
//!
//! [`Board`] keeps the same facts twice, in sync, so that every technique reads the shape it
//! needs in one load:
//!
//! ```text
//! values[c]    digit in cell c, 0 when empty                       (81 bytes)
//! cands[c]     candidates of empty cell c as a DigitSet (empty for solved cells)
//! planes[d]    cells where digit d+1 is still a candidate, a CellSet (solved cells excluded)
//! placed[d]    cells that hold digit d+1
//! empty        cells with no digit yet
//! ```
//!
//! Like Sudoku Explainer, placing a digit removes it from the candidates of the 20 peers,
//! and nothing else happens by itself: a cell left with one candidate stays empty until a
//! naked single places it.

use std::fmt;

use super::bitboard::{CellSet, DigitSet};
use super::cancel::Cancel;
use super::geometry::{Arr, CellBits, Geometry, S81, Size};
use super::grid::Grid;
use super::index::{Cell, Digit};

pub mod aligned_exclusion;
pub mod bug;
pub mod chains;
pub mod fish;
pub mod intersections;
pub mod render;
pub mod singles;
pub mod subsets;
pub mod unchanged;
pub mod uniqueness;
pub mod wings;

/// The candidate state: values, per-cell candidates and per-digit candidate planes, always
/// in sync. `Copy` (about 550 bytes on 81-cell shapes), so a chain search can branch by
/// copying it. The geometry it lives on is passed to the methods that need peers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board<S: Size = S81> {
    values: S::Cells<u8>,
    cands: S::Cells<DigitSet>,
    planes: [S::Set; 9],
    placed: [S::Set; 9],
    empty: S::Set,
}

const _: () = assert!(
    std::mem::size_of::<Board>() <= 576,
    "Board is meant to stay under 576 bytes"
);

impl Default for Board {
    fn default() -> Self {
        Board::EMPTY
    }
}

impl Board {
    /// The board of the empty classic grid: every cell empty with all nine candidates.
    pub const EMPTY: Board = Board {
        values: [0; 81],
        cands: [DigitSet::ALL; 81],
        planes: [CellSet::ALL; 9],
        placed: [CellSet::EMPTY; 9],
        empty: CellSet::ALL,
    };

    /// The board of a puzzle on an 81-cell geometry: givens placed, the candidates of every
    /// empty cell being the digits that no peer holds (Sudoku Explainer's
    /// `rebuildPotentialValues`).
    ///
    /// Givens that break a rule are placed anyway (the later one removes nothing it cannot);
    /// check the givens first when the input is not known to be valid.
    pub fn from_grid(g: &Geometry<S81>, grid: &Grid) -> Board {
        let mut values = [0u8; 81];
        for c in Cell::all() {
            values[c.index()] = grid.value(c);
        }
        Board::from_values(g, &values)
    }

    /// A board from 81 whitespace-separated cells of pencil marks, taken literally (as
    /// [`Board::from_parts`]): a lone digit is a placed value, several digits are the
    /// candidates of an empty cell, and `(d)` is an empty cell whose only candidate is `d`.
    /// `None` unless there are exactly 81 cells made of digits 1-9 and parentheses.
    pub fn from_marks(marks: &str) -> Option<Board> {
        let mut values = [0u8; 81];
        let mut cands = [DigitSet::EMPTY; 81];
        let mut n = 0;
        for m in marks.split_whitespace() {
            if n == 81 {
                return None;
            }
            match m.as_bytes() {
                [c @ b'1'..=b'9'] => values[n] = c - b'0',
                [_] => return None,
                cell => {
                    for &c in cell {
                        match c {
                            b'1'..=b'9' => cands[n].insert(Digit::new(c - b'0')),
                            b'(' | b')' => {}
                            _ => return None,
                        }
                    }
                }
            }
            n += 1;
        }
        (n == 81).then(|| Board::from_parts(&values, &cands))
    }

    /// The values as a [`Grid`].
    pub fn to_grid(&self) -> Grid {
        // Values are 0..=9 by construction.
        Grid::from_values(self.values).unwrap_or_default()
    }
}

impl<S: Size> Board<S> {
    /// The board of the empty grid of geometry `g`: every cell empty with all nine
    /// candidates.
    pub fn full(g: &Geometry<S>) -> Board<S> {
        let all = g.all_cells();
        Board {
            values: S::Cells::splat(0),
            cands: S::Cells::splat(DigitSet::ALL),
            planes: [all; 9],
            placed: [S::Set::EMPTY; 9],
            empty: all,
        }
    }

    /// The board of a puzzle given by its values (0 for an empty cell), see
    /// [`Board::from_grid`].
    pub fn from_values(g: &Geometry<S>, values: &S::Cells<u8>) -> Board<S> {
        let mut b = Board::full(g);
        for c in g.cells() {
            if let v @ 1..=9 = values[c.index()] {
                b.place(g, c, Digit::new(v));
            }
        }
        b
    }

    /// A board from explicit parts: `values` (0 for empty) and the candidates of each empty
    /// cell, taken as given (no peer is cancelled). Candidates of solved cells and values
    /// above 9 are ignored. For tests and for callers that track candidates themselves.
    pub fn from_parts(values: &S::Cells<u8>, cands: &S::Cells<DigitSet>) -> Board<S> {
        let mut b = Board::<S> {
            values: S::Cells::splat(0),
            cands: S::Cells::splat(DigitSet::EMPTY),
            planes: [S::Set::EMPTY; 9],
            placed: [S::Set::EMPTY; 9],
            empty: S::Set::EMPTY,
        };
        for i in 0..S::CELLS {
            let c = Cell::from_index(i);
            match values[i] {
                v @ 1..=9 => {
                    b.values[i] = v;
                    b.placed[(v - 1) as usize].insert(c);
                }
                _ => {
                    b.empty.insert(c);
                    b.cands[i] = cands[i];
                    for d in cands[i] {
                        b.planes[d.index()].insert(c);
                    }
                }
            }
        }
        b
    }

    /// The values, one per cell (0 for an empty cell).
    #[inline]
    pub fn values(&self) -> &S::Cells<u8> {
        &self.values
    }

    /// The digit in `cell`, if any.
    #[inline]
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        match self.values[cell.index()] {
            0 => None,
            v => Some(Digit::new(v)),
        }
    }

    /// The candidates of `cell` (empty for a solved cell).
    #[inline]
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        self.cands[cell.index()]
    }

    /// The cells where `digit` is still a candidate (solved cells never are).
    #[inline]
    pub fn plane(&self, digit: Digit) -> S::Set {
        self.planes[digit.index()]
    }

    /// The empty cells with at least 1, 2, 3 and 4 candidates: a bit-sliced count over the
    /// nine planes.
    #[inline]
    pub fn cells_with_at_least(&self) -> [S::Set; 4] {
        cells_with_at_least::<S>(&self.planes)
    }

    /// The cells holding `digit`.
    #[inline]
    pub fn placed(&self, digit: Digit) -> S::Set {
        self.placed[digit.index()]
    }

    /// The cells with no digit yet.
    #[inline]
    pub fn empty(&self) -> S::Set {
        self.empty
    }

    /// True when every cell holds a digit.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.empty.is_empty()
    }

    /// True when `digit` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: Cell, digit: Digit) -> bool {
        self.planes[digit.index()].contains(cell)
    }

    /// Number of empty cells among `cells` (a house's set).
    #[inline]
    pub fn empty_in(&self, cells: S::Set) -> u32 {
        (self.empty & cells).len()
    }

    /// Places `digit` in `cell` and removes it from the candidates of the peers
    /// (SE's `setValueAndCancel`). Placing into a solved cell does nothing.
    pub fn place(&mut self, g: &Geometry<S>, cell: Cell, digit: Digit) {
        let i = cell.index();
        if self.values[i] != 0 {
            return;
        }
        self.values[i] = digit.get();
        for e in self.cands[i] {
            self.planes[e.index()].remove(cell);
        }
        self.cands[i] = DigitSet::EMPTY;
        self.empty.remove(cell);
        self.placed[digit.index()].insert(cell);
        let d = digit.index();
        let hit = self.planes[d] & g.peers(cell);
        for p in hit {
            self.cands[p.index()].remove(digit);
        }
        self.planes[d] = self.planes[d] - hit;
    }

    /// Removes candidate `digit` from `cell`; returns true if it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) -> bool {
        if !self.planes[digit.index()].contains(cell) {
            return false;
        }
        self.planes[digit.index()].remove(cell);
        self.cands[cell.index()].remove(digit);
        true
    }

    /// Removes candidate `digit` from every cell of `cells`.
    #[inline]
    pub fn eliminate_all(&mut self, digit: Digit, cells: S::Set) {
        let hit = self.planes[digit.index()] & cells;
        for c in hit {
            self.cands[c.index()].remove(digit);
        }
        self.planes[digit.index()] = self.planes[digit.index()] - hit;
    }

    /// True when applying `step` would change the board: it removes a candidate that is
    /// present, or places a digit in an empty cell.
    pub fn changed_by(&self, step: &Step<S>) -> bool {
        let removes = (0..9).any(|d| !(self.planes[d] & step.eliminations[d]).is_empty());
        let places = step
            .placement
            .is_some_and(|(c, _)| self.values[c.index()] == 0);
        removes || places
    }

    /// Applies a step the way SE's `IndirectHint.apply` does: eliminations first, then the
    /// placement, if any.
    pub fn apply(&mut self, g: &Geometry<S>, step: &Step<S>) {
        for d in Digit::all() {
            self.eliminate_all(d, step.eliminations[d.index()]);
        }
        if let Some((c, d)) = step.placement {
            self.place(g, c, d);
        }
    }
}

impl<S: Size> fmt::Debug for Board<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Board(")?;
        for &v in self.values.as_ref() {
            f.write_str(if v == 0 { "." } else { "" })?;
            if v != 0 {
                write!(f, "{v}")?;
            }
        }
        f.write_str(")")
    }
}

/// The houses of a step's pattern (ids of its geometry), at most six, in increasing order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseList {
    ids: [u8; 6],
    n: u8,
}

impl HouseList {
    /// No house.
    pub const EMPTY: HouseList = HouseList { ids: [0; 6], n: 0 };

    /// Adds house `h` (kept sorted, without repeats; a seventh house is dropped).
    pub fn insert(&mut self, h: usize) {
        let h = h as u8;
        let n = self.n as usize;
        let at = self.ids[..n].partition_point(|&x| x < h);
        if (at < n && self.ids[at] == h) || n == self.ids.len() {
            return;
        }
        self.ids.copy_within(at..n, at + 1);
        self.ids[at] = h;
        self.n += 1;
    }

    /// True when `h` is in the list.
    pub fn contains(&self, h: usize) -> bool {
        self.ids[..self.n as usize].contains(&(h as u8))
    }

    /// Number of houses.
    pub const fn len(&self) -> usize {
        self.n as usize
    }

    /// True when empty.
    pub const fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The houses in increasing id order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.ids[..self.n as usize].iter().map(|&h| h as usize)
    }
}

/// Rating in tenths (`32` is 3.2), Sudoku Explainer's unit.
pub type Tenths = u8;

macro_rules! techniques {
    ($( $(#[$doc:meta])* $name:ident = $rating:expr, $text:expr; )*) => {
        /// Every technique of Sudoku Explainer 1.2.1, in rating order, with SE's base rating
        /// and the name the literature gives it. Bonuses (loop size, chain length, subset
        /// size) are added per step, see [`Step::difficulty`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Technique {
            $( $(#[$doc])* $name, )*
        }

        impl Technique {
            /// All techniques, in rating order.
            pub const ALL: &'static [Technique] = &[$(Technique::$name,)*];

            /// SE's base rating in tenths.
            pub const fn base_rating(self) -> Tenths {
                match self { $(Technique::$name => $rating,)* }
            }

            /// The literature's name ("Hidden single", "X-wing", ...).
            pub const fn name(self) -> &'static str {
                match self { $(Technique::$name => $text,)* }
            }
        }
    };
}

techniques! {
    /// Last empty cell of a house (SE `HiddenSingleHint`, alone: 1.0).
    FullHouse = 10, "Full house";
    /// A digit with one place left in a box (1.2).
    HiddenSingleBox = 12, "Hidden single";
    /// A digit with one place left in a row or column (1.5).
    HiddenSingleLine = 15, "Hidden single";
    /// Pointing whose elimination leaves a hidden single (SE `DirectLockingHint`, 1.7).
    DirectPointing = 17, "Direct pointing";
    /// Claiming whose elimination leaves a hidden single (1.9).
    DirectClaiming = 19, "Direct claiming";
    /// Hidden pair whose eliminations leave a hidden single (SE `DirectHiddenSetHint`, 2.0).
    DirectHiddenPair = 20, "Direct hidden pair";
    /// A cell with one candidate left (2.3).
    NakedSingle = 23, "Naked single";
    /// Hidden triple whose eliminations leave a hidden single (2.5).
    DirectHiddenTriple = 25, "Direct hidden triple";
    /// Locked candidates type 1: a box's candidates of a digit on one line (2.6).
    Pointing = 26, "Pointing";
    /// Locked candidates type 2: a line's candidates of a digit in one box (2.8).
    Claiming = 28, "Claiming";
    /// Naked pair (3.0).
    NakedPair = 30, "Naked pair";
    /// Fish of size 2 (3.2).
    XWing = 32, "X-wing";
    /// Hidden pair (3.4).
    HiddenPair = 34, "Hidden pair";
    /// Naked triple (3.6).
    NakedTriple = 36, "Naked triple";
    /// Fish of size 3 (3.8).
    Swordfish = 38, "Swordfish";
    /// Hidden triple (4.0).
    HiddenTriple = 40, "Hidden triple";
    /// XY-wing (4.2).
    XyWing = 42, "XY-wing";
    /// Direct hidden quad (4.3). SE 1.2.1 defines its rating but its solver never searches
    /// for it, and neither does ours.
    DirectHiddenQuad = 43, "Direct hidden quad";
    /// XYZ-wing (4.4).
    XyzWing = 44, "XYZ-wing";
    /// Unique rectangle type 1 (4.5).
    UniqueRectangle1 = 45, "Unique rectangle type 1";
    /// Unique rectangle type 2 (4.5).
    UniqueRectangle2 = 45, "Unique rectangle type 2";
    /// Unique rectangle type 3 (4.5 + 0.1 per extra cell of the subset).
    UniqueRectangle3 = 45, "Unique rectangle type 3";
    /// Unique rectangle type 4 (4.5).
    UniqueRectangle4 = 45, "Unique rectangle type 4";
    /// Unique loop type 1 (4.5 + loop size bonus).
    UniqueLoop1 = 45, "Unique loop type 1";
    /// Unique loop type 2.
    UniqueLoop2 = 45, "Unique loop type 2";
    /// Unique loop type 3.
    UniqueLoop3 = 45, "Unique loop type 3";
    /// Unique loop type 4.
    UniqueLoop4 = 45, "Unique loop type 4";
    /// Naked quad (5.0).
    NakedQuad = 50, "Naked quad";
    /// Fish of size 4 (5.2).
    Jellyfish = 52, "Jellyfish";
    /// Hidden quad (5.4).
    HiddenQuad = 54, "Hidden quad";
    /// Bivalue universal grave type 1 (5.6).
    BugType1 = 56, "BUG type 1";
    /// BUG type 2 (5.7).
    BugType2 = 57, "BUG type 2";
    /// BUG type 3 (5.7 + 0.1 per extra value of the naked subset).
    BugType3 = 57, "BUG type 3";
    /// BUG type 4 (5.7).
    BugType4 = 57, "BUG type 4";
    /// Aligned pair exclusion (6.2).
    AlignedPairExclusion = 62, "Aligned pair exclusion";
    /// Bidirectional X-cycle, incl. generalized X-wing (6.5 + length).
    XCycle = 65, "Bidirectional X-cycle";
    /// Bidirectional Y-cycle (6.5 + length).
    YCycle = 65, "Bidirectional Y-cycle";
    /// Forcing X-chain (6.6 + length).
    ForcingXChain = 66, "Forcing X-chain";
    /// Forcing chain with X- and Y-links (7.0 + length).
    ForcingChain = 70, "Forcing chain";
    /// Bidirectional cycle with X- and Y-links (7.0 + length).
    BidirectionalCycle = 70, "Bidirectional cycle";
    /// Aligned triple exclusion (7.5).
    AlignedTripleExclusion = 75, "Aligned triple exclusion";
    /// Nishio forcing chain (7.5 + length).
    NishioForcingChain = 75, "Nishio forcing chain";
    /// Multiple forcing chains from the candidates of one cell (8.0 + length).
    CellForcingChain = 80, "Cell forcing chains";
    /// Multiple forcing chains from the places of a digit in a house (8.0 + length).
    RegionForcingChain = 80, "Region forcing chains";
    /// Dynamic forcing chains: contradiction, double, cell and region (8.5 + length).
    DynamicForcingChain = 85, "Dynamic forcing chains";
    /// Dynamic forcing chains nested once, SE level 1, "(+)" (9.0 + length).
    DynamicForcingChainPlus = 90, "Dynamic forcing chains (+)";
    /// Nested forcing chains, SE level 2, "(+ forcing chains)" (9.5 + length).
    NestedForcingChain2 = 95, "Nested forcing chains (+ forcing chains)";
    /// Nested forcing chains, SE level 3, "(+ multiple forcing chains)" (10.0 + length).
    NestedForcingChain3 = 100, "Nested forcing chains (+ multiple forcing chains)";
    /// Nested forcing chains, SE level 4, "(+ dynamic forcing chains)" (10.5 + length).
    NestedForcingChain4 = 105, "Nested forcing chains (+ dynamic forcing chains)";
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The chain-length bonus of Sudoku Explainer (`ChainingHint.getLengthDifficulty`): 0.1
/// for each threshold that `length` exceeds, the thresholds running 4, 6, 8, 12, 16, 24,
/// 32, 48, ... (alternately times 3/2 and 4/3). SE passes its chain "complexity" minus 2.
pub fn length_bonus(length: u32) -> Tenths {
    let mut added: Tenths = 0;
    let mut ceil: u32 = 4;
    let mut odd = false;
    while length > ceil {
        added = added.saturating_add(1);
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// One step of a solving path: what was found, its rating, and what it changes.
///
/// Plain data (`Copy`, no heap), so a worker can keep one and overwrite it at every step.
/// A step places at most one digit (SE's hints do) and eliminates any number of candidates,
/// kept as one [`CellSet`] per digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<S: Size = S81> {
    /// The technique.
    pub technique: Technique,
    /// The rating of this step in tenths: the technique's base rating plus SE's bonuses.
    pub difficulty: Tenths,
    /// The digit this step places, if any.
    pub placement: Option<(Cell, Digit)>,
    /// Candidates removed: `eliminations[d]` holds the cells losing digit `d+1`.
    pub eliminations: [S::Set; 9],
    /// The cells forming the pattern (the pair's cells, the wing's pivot and pincers, the
    /// rectangle's corners, the fish's candidates, ...).
    pub cells: S::Set,
    /// The digits of the pattern (the fish's digit, the pair's digits, ...).
    pub digits: DigitSet,
    /// The houses where the pattern lives (the box of a pointing, the base lines of a fish,
    /// the house of a subset).
    pub base: HouseList,
    /// The houses where it eliminates (the line of a pointing, the cover lines of a fish).
    pub cover: HouseList,
    /// A size that matters for the rating: the loop length of unique loops, the chain
    /// length for chains; 0 when unused.
    pub size: u16,
}

impl<S: Size> Default for Step<S> {
    fn default() -> Self {
        Step::new(Technique::NakedSingle)
    }
}

impl<S: Size> Step<S> {
    /// An empty step of `technique` at its base rating.
    pub fn new(technique: Technique) -> Step<S> {
        Step {
            technique,
            difficulty: technique.base_rating(),
            placement: None,
            eliminations: [S::Set::EMPTY; 9],
            cells: S::Set::EMPTY,
            digits: DigitSet::EMPTY,
            base: HouseList::EMPTY,
            cover: HouseList::EMPTY,
            size: 0,
        }
    }

    /// Clears the step for `technique` (at its base rating).
    #[inline]
    pub fn reset(&mut self, technique: Technique) {
        *self = Step::new(technique);
    }

    /// Adds the elimination of `digit` from `cell`.
    #[inline]
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) {
        self.eliminations[digit.index()].insert(cell);
    }

    /// Number of candidates this step removes.
    pub fn elimination_count(&self) -> u32 {
        self.eliminations.iter().map(|s| s.len()).sum()
    }

    /// True when the step changes nothing (no placement, no elimination).
    pub fn is_empty(&self) -> bool {
        self.placement.is_none() && self.eliminations.iter().all(|s| s.is_empty())
    }

    /// The eliminations as `(cell, digit)` pairs, in cell order then digit order.
    pub fn eliminated(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        let all = self
            .eliminations
            .iter()
            .fold(S::Set::EMPTY, |acc, &s| acc | s);
        all.into_iter().flat_map(move |c| {
            Digit::all()
                .filter(move |d| self.eliminations[d.index()].contains(c))
                .map(move |d| (c, d))
        })
    }
}

/// A deterministic work budget for one puzzle.
///
/// Techniques charge *work units* as they search, so the same puzzle always spends the same
/// number of units whatever the machine or its load. A unit is about 50 ns of work on the
/// development machine (one loop cell extended, one candidate combination tested, a chain
/// implication followed); fixed-cost searches charge their measured average. When the budget
/// is spent, searches give up and the grader reports a lower bound instead of a rating.
///
/// A budget may also watch a [`Cancel`] token: every [`Budget::CHECK_EVERY`] units (a few
/// milliseconds) it looks at the token, and once a stop is requested it counts as spent, so
/// every search gives up within those few milliseconds. Looking happens on the slow path
/// of [`Budget::charge`] only, and never changes a rating that is not stopped.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    spent: u64,
    limit: u64,
    /// `charge` takes the slow path once `spent` passes this: `limit`, or the next look at
    /// the token.
    next: u64,
    cancel: Cancel,
    cancelled: bool,
}

impl Budget {
    /// A budget that never runs out.
    pub const UNLIMITED: Budget = Budget::new(u64::MAX);

    /// Work units between two looks at the cancel token (about 3 ms).
    pub const CHECK_EVERY: u64 = 1 << 16;

    /// A budget of `limit` work units.
    pub const fn new(limit: u64) -> Budget {
        Budget {
            spent: 0,
            limit,
            next: limit,
            cancel: Cancel::NEVER,
            cancelled: false,
        }
    }

    /// This budget, also spent as soon as `cancel` is set.
    pub fn with_cancel(mut self, cancel: Cancel) -> Budget {
        self.cancel = cancel;
        self.next = self.limit.min(self.spent.saturating_add(Self::CHECK_EVERY));
        self
    }

    /// Charges `units`; returns false once the total exceeds the limit (or a stop was
    /// requested).
    #[inline]
    pub fn charge(&mut self, units: u64) -> bool {
        self.spent = self.spent.saturating_add(units);
        self.spent <= self.next || self.recheck()
    }

    /// The slow path of [`Budget::charge`]: past the limit, or time to look at the token.
    #[cold]
    fn recheck(&mut self) -> bool {
        if self.spent > self.limit {
            return false;
        }
        if self.cancel.requested() {
            self.cancelled = true;
            self.limit = 0;
            self.next = 0;
            return false;
        }
        self.next = self.limit.min(self.spent.saturating_add(Self::CHECK_EVERY));
        true
    }

    /// True when more than the limit has been charged (or a stop was requested).
    #[inline]
    pub fn exhausted(&self) -> bool {
        self.spent > self.limit
    }

    /// True when the budget was spent by a stop request rather than by work.
    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancelled
    }

    /// Units charged so far.
    #[inline]
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// A budget for one part of a search split into parts: what is left of this one, with
    /// the same token. What the part spent comes back with [`Budget::absorb`].
    pub fn part(&self) -> Budget {
        Budget::new(self.limit.saturating_sub(self.spent)).with_cancel(self.cancel)
    }

    /// Takes back what a [`Budget::part`] spent; a part stopped by a request stops this
    /// budget too. False once this budget is spent.
    pub fn absorb(&mut self, part: &Budget) -> bool {
        if part.cancelled {
            self.cancelled = true;
            self.limit = 0;
            self.next = 0;
        }
        self.charge(part.spent)
    }
}

/// Working memory shared by the non-chaining techniques, built once per worker and reused
/// for every puzzle (nothing in it survives from one call to the next).
#[derive(Clone, Debug)]
pub struct Scratch<S: Size = S81> {
    pub(crate) loops: uniqueness::LoopScratch<S>,
    /// Per producer (grader order), the board of its last search that found nothing.
    pub(crate) since: [unchanged::Since<S>; 29],
}

impl<S: Size> Default for Scratch<S> {
    fn default() -> Self {
        Scratch::new()
    }
}

impl<S: Size> Scratch<S> {
    /// Fresh scratch.
    pub fn new() -> Scratch<S> {
        Scratch {
            loops: uniqueness::LoopScratch::new(),
            since: [unchanged::Since::default(); 29],
        }
    }

    /// Forgets what the producers remember of the boards they searched before: called
    /// at the start of every rating, so that no rating depends on the ones before it.
    pub(crate) fn forget(&mut self) {
        for s in &mut self.since {
            s.forget();
        }
        self.loops.forget();
    }
}

/// The combinations of `k` of `n` items (`n <= 9`) as bit masks, in the order of SE's
/// `Permutations` (increasing numeric value of the mask).
#[inline]
pub(crate) fn combinations(n: u32, k: u32) -> impl Iterator<Item = u16> {
    let limit: u16 = 1 << n;
    (0..limit).filter(move |m| m.count_ones() == k)
}

/// The subsets of `within` (nine items or fewer: bits 0-8) with `k` (1..=4) members, as
/// bit masks in increasing numeric value: SE's `Permutations` order restricted to the
/// tuples that use only members of `within` (the others are skipped without being built).
/// Nothing for any other `k`.
#[inline]
pub(crate) fn subsets_of(within: u16, k: u32) -> impl Iterator<Item = u16> {
    debug_assert!(within < 1 << 9, "nine items at most");
    // The `n` members of `within`, lowest first. The k-subsets of `n` items, in increasing
    // order, are the first C(n, k) combinations of nine (those below 2^n come first), and
    // putting each item on its member keeps the order.
    let mut members = [0u16; 9];
    let mut n = 0;
    let mut w = within & 0x1ff;
    while w != 0 {
        members[n] = w & w.wrapping_neg();
        n += 1;
        w &= w - 1;
    }
    let count = match k {
        1..=4 => usize::from(BINOMIAL[n][k as usize]),
        _ => 0,
    };
    combos(k)[..count]
        .iter()
        .map(move |&c| bit_positions(c).fold(0u16, |m, i| m | members[i]))
}

/// The positions of the bits set in `mask`, lowest first.
#[inline]
pub(crate) fn bit_positions(mask: u16) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        let i = (m != 0).then(|| m.trailing_zeros() as usize)?;
        m &= m - 1;
        Some(i)
    })
}

/// `BINOMIAL[n][k]`: the number of combinations of `k` of `n` items, for `n <= 9`, `k <= 4`.
const BINOMIAL: [[u8; 5]; 10] = {
    let mut t = [[0u8; 5]; 10];
    let mut n = 0;
    while n < 10 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 5 && k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

const fn build_combos<const N: usize>(k: u32) -> [u16; N] {
    let mut t = [0u16; N];
    let mut n = 0;
    let mut m: u16 = 0;
    while m < 512 {
        if m.count_ones() == k {
            t[n] = m;
            n += 1;
        }
        m += 1;
    }
    t
}

static COMBOS_1: [u16; 9] = build_combos::<9>(1);
static COMBOS_2: [u16; 36] = build_combos::<36>(2);
static COMBOS_3: [u16; 84] = build_combos::<84>(3);
static COMBOS_4: [u16; 126] = build_combos::<126>(4);

/// The combinations of `k` (1..=4) of nine items as bit masks, in SE's `Permutations` order
/// (increasing numeric value), from a table built at compile time.
#[inline]
pub(crate) fn combos(k: u32) -> &'static [u16] {
    match k {
        1 => &COMBOS_1,
        2 => &COMBOS_2,
        3 => &COMBOS_3,
        _ => &COMBOS_4,
    }
}

/// The cells with at least 1, 2, 3 and 4 candidates among nine candidate planes: a
/// bit-sliced count.
#[inline]
pub(crate) fn cells_with_at_least<S: Size>(planes: &[S::Set; 9]) -> [S::Set; 4] {
    let mut ge = [S::Set::EMPTY; 4];
    for &p in planes {
        ge[3] |= ge[2] & p;
        ge[2] |= ge[1] & p;
        ge[1] |= ge[0] & p;
        ge[0] |= p;
    }
    ge
}

/// Helpers for the technique tests.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;

    /// The classic geometry.
    pub(crate) fn cg() -> &'static Geometry<S81> {
        crate::core::geometry::classic()
    }

    /// A board with the given `(row, column, digit)` givens (0-based row and column).
    pub(crate) fn board_with(givens: &[(u8, u8, u8)]) -> Board {
        let mut b = Board::EMPTY;
        for &(r, c, d) in givens {
            b.place(cg(), Cell::at(r, c), Digit::new(d));
        }
        b
    }

    /// A board with the givens of an 81-character puzzle line.
    pub(crate) fn board_from_line(line: &str) -> Board {
        let givens: Vec<(u8, u8, u8)> = line
            .bytes()
            .enumerate()
            .filter(|(_, b)| (b'1'..=b'9').contains(b))
            .map(|(i, b)| ((i / 9) as u8, (i % 9) as u8, b - b'0'))
            .collect();
        board_with(&givens)
    }

    /// The first `n` puzzles of `data/random_minimal_200.txt`: each line's 81 characters and
    /// the board of its givens.
    pub(crate) fn random_minimal(n: usize) -> Vec<(&'static str, Board)> {
        include_str!("../../../data/random_minimal_200.txt")
            .lines()
            .take(n)
            .map(|l| (&l[..81], board_from_line(&l[..81])))
            .collect()
    }

    /// The first `n` puzzles of `data/random_minimal_er8_40.txt` (rated 8.0-9.0): each
    /// line's 81 characters, its solution, and the boards of SE's path on it (the board
    /// after each step, the last one solved).
    pub(crate) fn er8_paths(n: usize) -> Vec<(&'static str, crate::core::grid::Grid, Vec<Board>)> {
        use crate::core::grader::Grader;
        use crate::core::grid::Grid;
        let mut grader: Grader = Grader::new();
        include_str!("../../../data/random_minimal_er8_40.txt")
            .lines()
            .take(n)
            .map(|l| {
                let p: Grid = l[..81].parse().unwrap();
                let sol = crate::core::solver::Solver::new().solve(&p, 2).solution;
                let mut steps = Vec::new();
                grader.explain(&p, Some(&sol), u64::MAX, &mut steps);
                let mut board = Board::from_grid(cg(), &p);
                let boards = steps
                    .iter()
                    .map(|s| {
                        board.apply(cg(), s);
                        board
                    })
                    .collect();
                (&l[..81], sol, boards)
            })
            .collect()
    }

    /// `board` less up to `n` random candidates (never a cell's last one).
    pub(crate) fn thinned(board: &Board, n: usize, rng: &mut impl rand::Rng) -> Board {
        use rand::RngExt;
        let mut next = *board;
        for _ in 0..n {
            let cell = Cell::from_index(rng.random_range(0..81));
            let digits: Vec<_> = next.candidates(cell).into_iter().collect();
            if digits.len() > 1 {
                next.eliminate(cell, digits[rng.random_range(0..digits.len())]);
            }
        }
        next
    }

    /// A board from 81 whitespace-separated cells of pencil marks, taken literally: a
    /// single digit is a placed value, several digits are the candidates of an empty cell,
    /// `(d)` is an empty cell whose only candidate is `d`.
    pub(crate) fn board_from_marks(marks: &str) -> Board {
        Board::from_marks(marks).expect("81 cells of pencil marks")
    }

    /// The eliminations of a step as sorted `"rXcY<>D"` strings.
    pub(crate) fn elims(step: &Step) -> Vec<String> {
        step.eliminated()
            .map(|(c, d)| format!("{c}<>{d}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bonus_follows_se_thresholds() {
        let expect = [
            (0, 0),
            (4, 0),
            (5, 1),
            (6, 1),
            (7, 2),
            (8, 2),
            (9, 3),
            (12, 3),
            (13, 4),
            (16, 4),
            (17, 5),
            (24, 5),
            (25, 6),
            (32, 6),
            (33, 7),
            (48, 7),
            (49, 8),
            (64, 8),
            (65, 9),
            (96, 9),
            (97, 10),
            (128, 10),
            (129, 11),
        ];
        for (len, bonus) in expect {
            assert_eq!(length_bonus(len), bonus, "length {len}");
        }
    }

    #[test]
    fn board_keeps_cells_and_planes_in_sync() {
        let g: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let geo = crate::core::geometry::classic();
        let mut b = Board::from_grid(geo, &g);
        b.eliminate(Cell::at(0, 1), Digit::new(2));
        b.place(geo, Cell::at(0, 2), Digit::new(9));
        for c in Cell::all() {
            for d in Digit::all() {
                assert_eq!(b.candidates(c).contains(d), b.plane(d).contains(c));
            }
            if b.value(c).is_some() {
                assert!(b.candidates(c).is_empty());
                assert!(!b.empty().contains(c));
            }
        }
        // r1c1 holds 4: no peer has 4 as a candidate.
        assert!((b.plane(Digit::new(4)) & Cell::at(0, 0).peers()).is_empty());
        assert_eq!(b.to_grid().value(Cell::at(0, 2)), 9);
    }

    #[test]
    fn combinations_come_in_se_order() {
        let v: Vec<u16> = combinations(4, 2).collect();
        assert_eq!(v, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(combinations(9, 3).count(), 84);
        for k in 1..=4 {
            assert!(combos(k).iter().copied().eq(combinations(9, k)));
        }
        // Subsets of a set of members: the combinations that use only those, in order.
        for within in (0u16..512).step_by(7).chain([0b1_1111_1111, 0b1_0110_1001]) {
            assert_eq!(subsets_of(within, 0).count(), 0);
            for k in 1..=4 {
                let all: Vec<u16> = combinations(9, k).filter(|m| m & !within == 0).collect();
                assert_eq!(subsets_of(within, k).collect::<Vec<_>>(), all);
            }
        }
    }

    #[test]
    fn techniques_are_listed_in_rating_order() {
        for w in Technique::ALL.windows(2) {
            assert!(w[0].base_rating() <= w[1].base_rating(), "{:?}", w);
        }
    }

    #[test]
    fn boards_from_pencil_marks_and_what_is_refused() {
        let mut marks = vec!["123"; 81];
        marks[0] = "5";
        marks[1] = "(7)";
        let b = Board::from_marks(&marks.join(" ")).expect("81 cells");
        assert_eq!(b.value(Cell::new(0)), Some(Digit::new(5)));
        assert_eq!(b.value(Cell::new(1)), None);
        assert_eq!(b.candidates(Cell::new(1)).len(), 1);
        assert_eq!(b.candidates(Cell::new(2)).len(), 3);
        assert!(Board::from_marks(&marks[..80].join(" ")).is_none());
        assert!(Board::from_marks(&format!("{} 1", marks.join(" "))).is_none());
        for bad in ["0", "x", "12a", "("] {
            marks[5] = bad;
            assert!(Board::from_marks(&marks.join(" ")).is_none(), "{bad}");
        }
    }
}
