//! Samurai Sudoku: five overlapping 9x9 grids with 369 distinct cells.
//!
//! This module holds the geometry (cell numbering, the five grids' houses, the mapping between
//! the 405-cell five-grid form and the 369 distinct cells) and the [`SamuraiGrid`] value type.
//! Parsing lives in [`mod@format`], the exact solver in [`solver`], the puzzle generator in
//! [`generator`]. The human techniques and the grader are the generic engine's
//! ([`crate::core::logic`], [`crate::core::grader`]) over the Samurai geometry.
//!
//! The five grids sit in a 21x21 layout; each corner grid shares one box with the centre grid:
//!
//! ```text
//!          col 0      6  8  12 14     20
//!   row 0  +---------+     +---------+
//!          | grid 1  |     | grid 2  |       grid 1 top-left      origin (0, 0)
//!          |   (TL)  |     |   (TR)  |       grid 2 top-right     origin (0, 12)
//!   row 6  |     +---+-----+---+     |       grid 3 centre        origin (6, 6)
//!          |     | s |     | s |     |       grid 4 bottom-left   origin (12, 0)
//!   row 8  +-----+---+     +---+-----+       grid 5 bottom-right  origin (12, 12)
//!                |  grid 3 (C) |
//!   row 12 +-----+---+     +---+-----+       s = a box shared by a corner grid and the centre
//!          |     | s |     | s |     |
//!   row 14 |     +---+-----+---+     |
//!          | grid 4  |     | grid 5  |
//!          |   (BL)  |     |   (BR)  |
//!   row 20 +---------+     +---------+
//! ```
//!
//! **Cells** ([`SamuraiCell`], `0..369`) are numbered in reading order over the 21x21 layout,
//! skipping the gaps: row 0 holds cells `0..18` (columns 0-8 and 12-20), rows 6-8 and 12-14
//! hold all 21 columns, rows 9-11 only columns 6-14.
//!
//! **Houses** ([`SamuraiHouse`], `0..131`) are the rows, columns and boxes of the five grids,
//! grid by grid (rows, then columns, then boxes); a shared box is listed once, under the
//! lower-numbered grid that holds it (grid 1 box 9, grid 2 box 7, grid 3 box 7, grid 3 box 9).
//!
//! **Names**: a cell is printed `gNrNcN` (grid 1-5, row and column 1-9 inside that grid); a
//! cell in a shared box is named after the lower-numbered of its two grids, the same rule as
//! for the houses. A house prints as `grid 3 row 4`, `grid 1 box 9`.

use std::fmt;

use super::grid::Grid;
use super::index::{Cell, Digit, HouseKind};

pub mod format;
pub mod generator;
pub mod solver;

pub use format::{SamuraiForm, SamuraiParseError, SamuraiParseErrorKind};
pub use generator::{GeneratedSamurai, SamuraiGenerator, SamuraiSymmetry};
pub use solver::{SamuraiOutcome, SamuraiSolver};

/// Side of the 21x21 layout.
pub const LAYOUT_SIDE: usize = 21;

/// Row and column of each grid's top-left cell in the 21x21 layout, in grid order.
pub const GRID_ORIGINS: [(u8, u8); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

/// One of the five 9x9 grids: 0 top-left, 1 top-right, 2 centre, 3 bottom-left,
/// 4 bottom-right. Printed 1-based (`grid 3`), as in `gNrNcN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SubGrid(u8);

impl SubGrid {
    /// The top-left grid (grid 1).
    pub const TOP_LEFT: SubGrid = SubGrid(0);
    /// The top-right grid (grid 2).
    pub const TOP_RIGHT: SubGrid = SubGrid(1);
    /// The centre grid (grid 3).
    pub const CENTRE: SubGrid = SubGrid(2);
    /// The bottom-left grid (grid 4).
    pub const BOTTOM_LEFT: SubGrid = SubGrid(3);
    /// The bottom-right grid (grid 5).
    pub const BOTTOM_RIGHT: SubGrid = SubGrid(4);
    /// The five grids in record order.
    pub const ALL: [SubGrid; 5] = [SubGrid(0), SubGrid(1), SubGrid(2), SubGrid(3), SubGrid(4)];

    /// The grid with zero-based index `i` (`0..5`); panics in debug builds otherwise.
    #[inline]
    pub const fn new(i: u8) -> SubGrid {
        debug_assert!(i < 5);
        SubGrid(i)
    }

    /// Zero-based index `0..5`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// One-based number `1..=5`, as printed.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// Layout row and column of the grid's top-left cell.
    #[inline]
    pub const fn origin(self) -> (u8, u8) {
        GRID_ORIGINS[self.0 as usize]
    }

    /// Descriptive name: `top-left`, `top-right`, `centre`, `bottom-left`, `bottom-right`.
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "top-left",
            1 => "top-right",
            2 => "centre",
            3 => "bottom-left",
            _ => "bottom-right",
        }
    }

    /// The samurai cell at the grid-local cell `c`.
    #[inline]
    pub const fn cell(self, c: Cell) -> SamuraiCell {
        SamuraiCell(GRID_CELLS[self.0 as usize][c.index()])
    }

    /// The 81 samurai cells of this grid, in the grid's reading order.
    #[inline]
    pub const fn cells(self) -> &'static [u16; 81] {
        &GRID_CELLS[self.0 as usize]
    }
}

impl fmt::Display for SubGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "grid {}", self.number())
    }
}

/// One of the 369 distinct cells, numbered in reading order over the 21x21 layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SamuraiCell(u16);

impl SamuraiCell {
    /// Number of distinct cells.
    pub const COUNT: usize = 369;

    /// The cell with index `i` (`0..369`); panics in debug builds otherwise.
    #[inline]
    pub const fn new(i: u16) -> SamuraiCell {
        debug_assert!(i < 369);
        SamuraiCell(i)
    }

    /// The cell at layout row `row` and column `col` (`0..21`), or `None` in a gap.
    #[inline]
    pub const fn at(row: usize, col: usize) -> Option<SamuraiCell> {
        if row >= LAYOUT_SIDE || col >= LAYOUT_SIDE {
            return None;
        }
        match LAYOUT[row][col] {
            NO_CELL => None,
            i => Some(SamuraiCell(i)),
        }
    }

    /// Index `0..369`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Layout row `0..21`.
    #[inline]
    pub const fn layout_row(self) -> usize {
        CELL_RC[self.0 as usize].0 as usize
    }

    /// Layout column `0..21`.
    #[inline]
    pub const fn layout_col(self) -> usize {
        CELL_RC[self.0 as usize].1 as usize
    }

    /// The grid the cell is named after (the lower-numbered one for a shared cell) and its
    /// grid-local position.
    #[inline]
    pub const fn primary(self) -> (SubGrid, Cell) {
        let (g, c) = CELL_GRIDS[self.0 as usize][0];
        (SubGrid(g), Cell::new(c))
    }

    /// For a cell in a shared box, the other grid (the higher-numbered one) and the cell's
    /// position there.
    #[inline]
    pub const fn secondary(self) -> Option<(SubGrid, Cell)> {
        let (g, c) = CELL_GRIDS[self.0 as usize][1];
        if g == NO_GRID {
            None
        } else {
            Some((SubGrid(g), Cell::new(c)))
        }
    }

    /// The grid-local position of this cell in grid `g`, if the grid holds it.
    #[inline]
    pub fn in_grid(self, g: SubGrid) -> Option<Cell> {
        let (or, oc) = g.origin();
        let (r, c) = (self.layout_row(), self.layout_col());
        let (dr, dc) = (r.wrapping_sub(or as usize), c.wrapping_sub(oc as usize));
        if dr < 9 && dc < 9 {
            Some(Cell::at(dr as u8, dc as u8))
        } else {
            None
        }
    }

    /// The cell's name as seen from grid `g`: `gNrNcN` in `g` when `g` holds the cell, else
    /// its usual name.
    pub fn name_in(self, g: SubGrid) -> CellName {
        match self.in_grid(g) {
            Some(c) => CellName(g, c),
            None => {
                let (g, c) = self.primary();
                CellName(g, c)
            }
        }
    }

    /// True for the 36 cells that lie in two grids.
    #[inline]
    pub const fn is_shared(self) -> bool {
        CELL_GRIDS[self.0 as usize][1].0 != NO_GRID
    }

    /// The distinct houses holding the cell: 3 for most cells, 5 for a shared cell (its box
    /// once, a row and a column in each of its two grids).
    #[inline]
    pub fn houses(self) -> &'static [SamuraiHouse] {
        let i = self.0 as usize;
        &CELL_HOUSES[i][..CELL_HOUSE_COUNT[i] as usize]
    }

    /// Iterator over all 369 cells.
    pub fn all() -> impl Iterator<Item = SamuraiCell> {
        (0..369u16).map(SamuraiCell)
    }
}

/// A cell named in one of its grids; prints as `gNrNcN`. See [`SamuraiCell::name_in`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName(pub SubGrid, pub Cell);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "g{}r{}c{}",
            self.0.number(),
            self.1.row() + 1,
            self.1.col() + 1
        )
    }
}

/// Cells print as `gNrNcN` (`g3r5c5` is the middle of the centre grid).
impl fmt::Display for SamuraiCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (g, c) = self.primary();
        write!(f, "g{}r{}c{}", g.number(), c.row() + 1, c.col() + 1)
    }
}

/// One of the 131 distinct houses: the rows, columns and boxes of the five grids, a shared
/// box counted once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SamuraiHouse(u8);

impl SamuraiHouse {
    /// Number of distinct houses.
    pub const COUNT: usize = 131;

    /// The house with index `i` (`0..131`); panics in debug builds otherwise.
    #[inline]
    pub const fn new(i: u8) -> SamuraiHouse {
        debug_assert!(i < 131);
        SamuraiHouse(i)
    }

    /// The house that is grid `g`'s row, column or box number `ordinal` (`0..9`). For a shared
    /// box this is the same house from both grids.
    #[inline]
    pub const fn of(g: SubGrid, kind: HouseKind, ordinal: u8) -> SamuraiHouse {
        let k = match kind {
            HouseKind::Row => 0,
            HouseKind::Column => 9,
            _ => 18,
        };
        SamuraiHouse(GRID_HOUSE[g.0 as usize][k + ordinal as usize])
    }

    /// Index `0..131`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The grid the house is named after.
    #[inline]
    pub const fn grid(self) -> SubGrid {
        SubGrid(HOUSE_INFO[self.0 as usize].0)
    }

    /// Row, column or box.
    #[inline]
    pub const fn kind(self) -> HouseKind {
        match HOUSE_INFO[self.0 as usize].1 {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }

    /// Position among the grid's houses of its kind (`0..9`).
    #[inline]
    pub const fn ordinal(self) -> u8 {
        HOUSE_INFO[self.0 as usize].2
    }

    /// The nine cells, in the naming grid's reading order.
    #[inline]
    pub fn cells(self) -> [SamuraiCell; 9] {
        HOUSE_CELLS[self.0 as usize].map(SamuraiCell)
    }

    /// The nine cell indices, in the naming grid's reading order.
    #[inline]
    pub const fn cell_indices(self) -> &'static [u16; 9] {
        &HOUSE_CELLS[self.0 as usize]
    }

    /// Iterator over all 131 houses.
    pub fn all() -> impl Iterator<Item = SamuraiHouse> {
        (0..131u8).map(SamuraiHouse)
    }
}

/// Houses print as `grid 3 row 4`, `grid 1 box 9` (1-based).
impl fmt::Display for SamuraiHouse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.grid(),
            self.kind().name(),
            self.ordinal() + 1
        )
    }
}

// ---------------------------------------------------------------------------------------
// Constant tables, computed at compile time.

const NO_CELL: u16 = u16::MAX;
const NO_GRID: u8 = u8::MAX;

const fn grid_holds(g: usize, r: usize, c: usize) -> bool {
    let (or, oc) = GRID_ORIGINS[g];
    let (or, oc) = (or as usize, oc as usize);
    r >= or && r < or + 9 && c >= oc && c < oc + 9
}

const fn build_layout() -> [[u16; 21]; 21] {
    let mut t = [[NO_CELL; 21]; 21];
    let mut n = 0u16;
    let mut r = 0;
    while r < 21 {
        let mut c = 0;
        while c < 21 {
            let mut g = 0;
            let mut inside = false;
            while g < 5 {
                if grid_holds(g, r, c) {
                    inside = true;
                }
                g += 1;
            }
            if inside {
                t[r][c] = n;
                n += 1;
            }
            c += 1;
        }
        r += 1;
    }
    assert!(n == 369);
    t
}

/// Layout row/column to cell index (`NO_CELL` in the gaps).
static LAYOUT: [[u16; 21]; 21] = build_layout();

const fn build_cell_rc() -> [(u8, u8); 369] {
    let layout = build_layout();
    let mut t = [(0u8, 0u8); 369];
    let mut r = 0;
    while r < 21 {
        let mut c = 0;
        while c < 21 {
            if layout[r][c] != NO_CELL {
                t[layout[r][c] as usize] = (r as u8, c as u8);
            }
            c += 1;
        }
        r += 1;
    }
    t
}

static CELL_RC: [(u8, u8); 369] = build_cell_rc();

const fn build_grid_cells() -> [[u16; 81]; 5] {
    let layout = build_layout();
    let mut t = [[0u16; 81]; 5];
    let mut g = 0;
    while g < 5 {
        let (or, oc) = GRID_ORIGINS[g];
        let mut i = 0;
        while i < 81 {
            t[g][i] = layout[or as usize + i / 9][oc as usize + i % 9];
            i += 1;
        }
        g += 1;
    }
    t
}

/// Grid and grid-local index to cell index.
static GRID_CELLS: [[u16; 81]; 5] = build_grid_cells();

const fn build_cell_grids() -> [[(u8, u8); 2]; 369] {
    let gc = build_grid_cells();
    let mut t = [[(NO_GRID, 0u8); 2]; 369];
    let mut g = 0;
    while g < 5 {
        let mut i = 0;
        while i < 81 {
            let c = gc[g][i] as usize;
            if t[c][0].0 == NO_GRID {
                t[c][0] = (g as u8, i as u8);
            } else {
                t[c][1] = (g as u8, i as u8);
            }
            i += 1;
        }
        g += 1;
    }
    t
}

/// For each cell, (grid, local index) in its lower-numbered grid, then in the other one (or
/// `NO_GRID`).
static CELL_GRIDS: [[(u8, u8); 2]; 369] = build_cell_grids();

/// Grid-local cells of house `h` of a 9x9 grid (rows, columns, boxes as in `index.rs`).
const fn local_house_cell(h: usize, j: usize) -> usize {
    let i = h % 9;
    match h / 9 {
        0 => i * 9 + j,
        1 => j * 9 + i,
        _ => ((i / 3) * 3 + j / 3) * 9 + (i % 3) * 3 + j % 3,
    }
}

struct HouseTables {
    cells: [[u16; 9]; 131],
    info: [(u8, u8, u8); 131],
    grid_house: [[u8; 27]; 5],
}

const fn build_houses() -> HouseTables {
    let gc = build_grid_cells();
    let cg = build_cell_grids();
    let mut t = HouseTables {
        cells: [[0; 9]; 131],
        info: [(0, 0, 0); 131],
        grid_house: [[0; 27]; 5],
    };
    let mut n = 0usize;
    let mut g = 0;
    while g < 5 {
        let mut h = 0;
        while h < 27 {
            let first = gc[g][local_house_cell(h, 0)] as usize;
            let owner = cg[first][0].0 as usize;
            if h >= 18 && owner != g {
                // A shared box already listed under the lower-numbered grid: find it.
                let (og, oi) = cg[first][0];
                let ob = (oi as usize / 27) * 3 + (oi as usize % 9) / 3;
                t.grid_house[g][h] = t.grid_house[og as usize][18 + ob];
            } else {
                let mut j = 0;
                while j < 9 {
                    t.cells[n][j] = gc[g][local_house_cell(h, j)];
                    j += 1;
                }
                t.info[n] = (g as u8, (h / 9) as u8, (h % 9) as u8);
                t.grid_house[g][h] = n as u8;
                n += 1;
            }
            h += 1;
        }
        g += 1;
    }
    assert!(n == 131);
    t
}

const HOUSES: HouseTables = build_houses();

/// The cells of each distinct house.
static HOUSE_CELLS: [[u16; 9]; 131] = HOUSES.cells;
/// (grid, kind 0/1/2, ordinal) of each distinct house.
static HOUSE_INFO: [(u8, u8, u8); 131] = HOUSES.info;
/// Grid and local house (rows 0..9, columns 9..18, boxes 18..27) to distinct house.
static GRID_HOUSE: [[u8; 27]; 5] = HOUSES.grid_house;

const fn build_cell_houses() -> ([[SamuraiHouse; 5]; 369], [u8; 369]) {
    let hs = build_houses();
    let mut t = [[SamuraiHouse(0); 5]; 369];
    let mut n = [0u8; 369];
    let mut h = 0;
    while h < 131 {
        let mut j = 0;
        while j < 9 {
            let c = hs.cells[h][j] as usize;
            t[c][n[c] as usize] = SamuraiHouse(h as u8);
            n[c] += 1;
            j += 1;
        }
        h += 1;
    }
    (t, n)
}

const CELL_HOUSE_TABLES: ([[SamuraiHouse; 5]; 369], [u8; 369]) = build_cell_houses();
static CELL_HOUSES: [[SamuraiHouse; 5]; 369] = CELL_HOUSE_TABLES.0;
static CELL_HOUSE_COUNT: [u8; 369] = CELL_HOUSE_TABLES.1;

// ---------------------------------------------------------------------------------------
// The value type.

/// A samurai puzzle or solution: each of the 369 cells holds 0 (empty) or a digit 1-9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SamuraiGrid {
    cells: [u8; 369],
}

impl Default for SamuraiGrid {
    fn default() -> Self {
        SamuraiGrid::EMPTY
    }
}

/// Givens that break a rule: `digit` twice in `house`; `cell` is the later of the two in the
/// house's reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamuraiConflict {
    /// The repeated digit.
    pub digit: Digit,
    /// The house where it repeats.
    pub house: SamuraiHouse,
    /// The second cell holding the digit.
    pub cell: SamuraiCell,
}

impl fmt::Display for SamuraiConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} twice in {} (at {})",
            self.digit, self.house, self.cell
        )
    }
}

/// A cell shared by two grids whose two copies in a five-grid record disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedMismatch {
    /// The shared cell.
    pub cell: SamuraiCell,
    /// Its value (0 = empty) as given in its lower-numbered grid.
    pub first: u8,
    /// Its value as given in its higher-numbered grid.
    pub second: u8,
}

impl fmt::Display for SharedMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |v: u8| if v == 0 { '.' } else { (b'0' + v) as char };
        let (g1, c1) = self.cell.primary();
        let (g2, c2) = self.cell.secondary().unwrap_or((g1, c1));
        write!(
            f,
            "shared cell g{}r{}c{} = g{}r{}c{} is '{}' in grid {} but '{}' in grid {}",
            g1.number(),
            c1.row() + 1,
            c1.col() + 1,
            g2.number(),
            c2.row() + 1,
            c2.col() + 1,
            shown(self.first),
            g1.number(),
            shown(self.second),
            g2.number()
        )
    }
}

impl SamuraiGrid {
    /// The grid with every cell empty.
    pub const EMPTY: SamuraiGrid = SamuraiGrid { cells: [0; 369] };

    /// Builds a grid from 369 values, each 0 (empty) or 1-9; `None` if any is out of range.
    pub fn from_values(values: [u8; 369]) -> Option<SamuraiGrid> {
        if values.iter().all(|&v| v <= 9) {
            Some(SamuraiGrid { cells: values })
        } else {
            None
        }
    }

    /// Joins five 9x9 grids (top-left, top-right, centre, bottom-left, bottom-right). The two
    /// copies of each shared cell must hold the same value (both empty or the same digit).
    pub fn from_grids(grids: &[Grid; 5]) -> Result<SamuraiGrid, SharedMismatch> {
        let mut values = [0u8; 81 * 5];
        for (g, grid) in grids.iter().enumerate() {
            values[g * 81..g * 81 + 81].copy_from_slice(grid.values());
        }
        SamuraiGrid::from_five_grid_values(&values)
    }

    /// Like [`SamuraiGrid::from_grids`], from the 405 values (0-9) of the five-grid form.
    /// Values above 9 are treated as empty (callers pass validated values).
    pub fn from_five_grid_values(values: &[u8; 405]) -> Result<SamuraiGrid, SharedMismatch> {
        let mut cells = [0u8; 369];
        for (g, gc) in GRID_CELLS.iter().enumerate() {
            for (i, &c) in gc.iter().enumerate() {
                let v = values[g * 81 + i];
                cells[c as usize] = if v <= 9 { v } else { 0 };
            }
        }
        // Shared cells: the value was last written from the higher grid; compare with the
        // lower one.
        for (c, grids) in CELL_GRIDS.iter().enumerate() {
            let [(g1, i1), (g2, _)] = *grids;
            if g2 == NO_GRID {
                continue;
            }
            let first = values[g1 as usize * 81 + i1 as usize];
            let first = if first <= 9 { first } else { 0 };
            if first != cells[c] {
                return Err(SharedMismatch {
                    cell: SamuraiCell(c as u16),
                    first,
                    second: cells[c],
                });
            }
        }
        Ok(SamuraiGrid { cells })
    }

    /// The value in `cell`: 0 when empty, else 1-9.
    #[inline]
    pub const fn value(&self, cell: SamuraiCell) -> u8 {
        self.cells[cell.index()]
    }

    /// The digit in `cell`, if any.
    #[inline]
    pub fn digit(&self, cell: SamuraiCell) -> Option<Digit> {
        match self.cells[cell.index()] {
            0 => None,
            v => Some(Digit::new(v)),
        }
    }

    /// Sets `cell` to `digit` (or empties it with `None`).
    #[inline]
    pub fn set(&mut self, cell: SamuraiCell, digit: Option<Digit>) {
        self.cells[cell.index()] = digit.map_or(0, Digit::get);
    }

    /// The 369 values in cell order, 0 for empty.
    #[inline]
    pub const fn values(&self) -> &[u8; 369] {
        &self.cells
    }

    /// One of the five grids as a classic 9x9 [`Grid`].
    pub fn grid(&self, g: SubGrid) -> Grid {
        let mut v = [0u8; 81];
        for (o, &c) in v.iter_mut().zip(GRID_CELLS[g.index()].iter()) {
            *o = self.cells[c as usize];
        }
        // Values are 0..=9 by construction.
        Grid::from_values(v).unwrap_or_default()
    }

    /// Number of filled cells (each shared cell counted once).
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The 405 values of the five-grid form (shared cells repeated), 0 for empty.
    pub fn five_grid_values(&self) -> [u8; 405] {
        let mut out = [0u8; 405];
        for (g, gc) in GRID_CELLS.iter().enumerate() {
            for (i, &c) in gc.iter().enumerate() {
                out[g * 81 + i] = self.cells[c as usize];
            }
        }
        out
    }

    /// Writes the 405-character one-line form (the five grids in order, `.` for empty cells)
    /// into `out`.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        for gc in GRID_CELLS.iter() {
            out.extend(gc.iter().map(|&c| match self.cells[c as usize] {
                0 => b'.',
                v => b'0' + v,
            }));
        }
    }

    /// Writes the 21-line layout (`.` for empty cells, spaces in the gaps, each line ending
    /// with `\n` and without trailing spaces) into `out`.
    pub fn write_block(&self, out: &mut Vec<u8>) {
        for row in LAYOUT.iter() {
            let last = row.iter().rposition(|&c| c != NO_CELL).unwrap_or(0);
            for &c in &row[..=last] {
                out.push(match c {
                    NO_CELL => b' ',
                    c => match self.cells[c as usize] {
                        0 => b'.',
                        v => b'0' + v,
                    },
                });
            }
            out.push(b'\n');
        }
    }

    /// Checks that the filled cells break no rule in any of the five grids. Reports the first
    /// conflict in house order.
    pub fn check_givens(&self) -> Result<(), SamuraiConflict> {
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            // Without a branch per cell (a quarter of the cells are givens, at random):
            // digit v sets bit v - 1, an empty cell sets none.
            let (mut seen, mut twice) = (0u16, 0u16);
            for &c in cells {
                let bit = (1u16 << self.cells[c as usize]) >> 1;
                twice |= seen & bit;
                seen |= bit;
            }
            if twice != 0
                && let Some(conflict) = self.first_repeat(h)
            {
                return Err(conflict);
            }
        }
        Ok(())
    }

    /// The first cell of house `h` that repeats a digit of an earlier cell.
    fn first_repeat(&self, h: usize) -> Option<SamuraiConflict> {
        let mut seen = 0u16;
        for &c in &HOUSE_CELLS[h] {
            let v = self.cells[c as usize];
            if v != 0 {
                let bit = 1u16 << v;
                if seen & bit != 0 {
                    return Some(SamuraiConflict {
                        digit: Digit::new(v),
                        house: SamuraiHouse(h as u8),
                        cell: SamuraiCell(c),
                    });
                }
                seen |= bit;
            }
        }
        None
    }

    /// True when `self` is complete, breaks no rule, and agrees with every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &SamuraiGrid) -> bool {
        self.is_full()
            && self.check_givens().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(self.cells.iter())
                .all(|(&p, &s)| p == 0 || p == s)
    }
}

impl fmt::Display for SamuraiGrid {
    /// The 405-character one-line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = Vec::with_capacity(405);
        self.write_line(&mut b);
        f.write_str(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for SamuraiGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SamuraiGrid({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_has_369_cells_and_36_shared() {
        assert_eq!(SamuraiCell::all().count(), 369);
        assert_eq!(SamuraiCell::all().filter(|c| c.is_shared()).count(), 36);
        let mut seen = [0u8; 369];
        for g in SubGrid::ALL {
            for &c in g.cells() {
                seen[c as usize] += 1;
            }
        }
        assert_eq!(seen.iter().filter(|&&n| n == 2).count(), 36);
        assert!(seen.iter().all(|&n| n == 1 || n == 2));
        assert_eq!(SamuraiCell::at(0, 9), None);
        assert_eq!(SamuraiCell::at(0, 12).map(|c| c.index()), Some(9));
        assert_eq!(SamuraiCell::at(9, 6).map(|c| c.index()), Some(108 + 63));
        assert_eq!(SamuraiCell::at(20, 20).map(|c| c.index()), Some(368));
    }

    #[test]
    fn shared_boxes_map_between_grids() {
        // Grid 1 box 9 is grid 3 box 1; grid 5 box 1 is grid 3 box 9.
        let tl = SubGrid::TOP_LEFT.cell(Cell::at(6, 6));
        let c = SubGrid::CENTRE.cell(Cell::at(0, 0));
        assert_eq!(tl, c);
        assert_eq!(tl.to_string(), "g1r7c7");
        assert_eq!(tl.secondary(), Some((SubGrid::CENTRE, Cell::at(0, 0))));
        let br = SubGrid::BOTTOM_RIGHT.cell(Cell::at(0, 0));
        assert_eq!(br, SubGrid::CENTRE.cell(Cell::at(6, 6)));
        assert_eq!(br.to_string(), "g3r7c7");
        assert_eq!(
            SamuraiHouse::of(SubGrid::BOTTOM_RIGHT, HouseKind::Box, 0),
            SamuraiHouse::of(SubGrid::CENTRE, HouseKind::Box, 8)
        );
        assert_eq!(
            SamuraiHouse::of(SubGrid::CENTRE, HouseKind::Box, 0).to_string(),
            "grid 1 box 9"
        );
    }

    #[test]
    fn houses_cover_each_grid_three_times() {
        let mut per_cell = [0usize; 369];
        for h in SamuraiHouse::all() {
            let cells = h.cells();
            for c in cells {
                per_cell[c.index()] += 1;
                assert!(c.in_grid(h.grid()).is_some());
            }
        }
        for c in SamuraiCell::all() {
            let want = if c.is_shared() { 5 } else { 3 };
            assert_eq!(per_cell[c.index()], want, "{c}");
            assert_eq!(c.houses().len(), want);
        }
    }

    #[test]
    fn five_grid_form_round_trips_and_checks_shared_cells() {
        let mut v = [0u8; 405];
        v[60] = 4; // grid 1 r7c7 (local index 60) = grid 3 r1c1
        v[2 * 81] = 4;
        let g = SamuraiGrid::from_five_grid_values(&v).unwrap();
        assert_eq!(g.five_grid_values(), v);
        assert_eq!(g.clue_count(), 1);
        v[2 * 81] = 5;
        let e = SamuraiGrid::from_five_grid_values(&v).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shared cell g1r7c7 = g3r1c1 is '4' in grid 1 but '5' in grid 3"
        );
        v[2 * 81] = 0;
        assert!(SamuraiGrid::from_five_grid_values(&v).is_err());
    }

    #[test]
    fn conflicts_name_grid_house_and_cell() {
        let mut g = SamuraiGrid::EMPTY;
        g.set(SubGrid::CENTRE.cell(Cell::at(3, 0)), Some(Digit::new(7)));
        g.set(SubGrid::CENTRE.cell(Cell::at(3, 8)), Some(Digit::new(7)));
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "digit 7 twice in grid 3 row 4 (at g3r4c9)"
        );
    }

    #[test]
    fn block_form_has_21_lines_without_trailing_gaps() {
        let mut out = Vec::new();
        SamuraiGrid::EMPTY.write_block(&mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 21);
        assert_eq!(lines[0], ".........   .........");
        assert_eq!(lines[9], "      .........");
        assert_eq!(lines[6], ".....................");
    }
}
