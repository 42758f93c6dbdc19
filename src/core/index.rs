//! Typed indices for the classic 9x9 grid and the constant tables built from them.
//!
//! Cells are numbered row-major, `0..81`; houses `0..27` are the nine rows, then the
//! nine columns, then the nine boxes. A band is three rows of boxes (`0..3`), a stack three
//! columns of boxes.
//!
//! ```text
//!        c1 c2 c3   c4 c5 c6   c7 c8 c9
//!   r1 |  0  1  2 |  3  4  5 |  6  7  8 |   box 1 | box 2 | box 3   (band 1)
//!   r2 |  9 10 11 | 12 13 14 | 15 16 17 |
//!   r3 | 18 19 20 | 21 22 23 | 24 25 26 |
//!      +----------+----------+----------+
//!   r4 | 27 ...                         |   box 4 | box 5 | box 6   (band 2)
//!      ...
//!   r9 | 72 73 74 | 75 76 77 | 78 79 80 |   box 7 | box 8 | box 9   (band 3)
//! ```
//!
//! Everything here is `const`: the tables are computed at compile time.

use std::fmt;

use super::bitboard::CellSet;

/// A cell, by index. On the classic 9x9 grid the 81 cells are numbered row-major from the top
/// left (`0..81`), and [`Cell::row`], [`Cell::col`] and [`Cell::box_index`] apply; other grid
/// shapes number their cells their own way (see [`crate::core::geometry`]), up to 369 cells for
/// Samurai, and name them through their geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u16);

impl Cell {
    /// Number of cells in a grid.
    pub const COUNT: usize = 81;

    /// The cell with row-major index `i`; panics in debug builds if `i >= 81`.
    #[inline]
    pub const fn new(i: u8) -> Cell {
        debug_assert!(i < 81);
        Cell(i as u16)
    }

    /// The cell with index `i` in any geometry (`0..81` classic, `0..369` Samurai).
    #[inline]
    pub const fn from_index(i: usize) -> Cell {
        debug_assert!(i < 1024);
        Cell(i as u16)
    }

    /// The cell at `row`, `col` (both `0..9`).
    #[inline]
    pub const fn at(row: u8, col: u8) -> Cell {
        Cell(row as u16 * 9 + col as u16)
    }

    /// Row-major index `0..81`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row `0..9`.
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 / 9) as u8
    }

    /// Column `0..9`.
    #[inline]
    pub const fn col(self) -> u8 {
        (self.0 % 9) as u8
    }

    /// Box `0..9`, row-major.
    #[inline]
    pub const fn box_index(self) -> u8 {
        ((self.0 / 27) * 3 + (self.0 % 9) / 3) as u8
    }

    /// Band (three rows of boxes) `0..3`.
    #[inline]
    pub const fn band(self) -> u8 {
        (self.0 / 27) as u8
    }

    /// The three houses the cell belongs to: its row, column and box.
    #[inline]
    pub const fn houses(self) -> [House; 3] {
        [
            House(self.row()),
            House(9 + self.col()),
            House(18 + self.box_index()),
        ]
    }

    /// The 20 cells that share a house with this one.
    #[inline]
    pub fn peers(self) -> CellSet {
        PEERS[self.index()]
    }

    /// Iterator over all 81 cells.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81u16).map(Cell)
    }
}

/// Cells print in the literature's `rNcN` notation, 1-based (`r2c8`).
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A digit 1-9, stored as its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// The digit with value `v` (`1..=9`); panics in debug builds otherwise.
    #[inline]
    pub const fn new(v: u8) -> Digit {
        debug_assert!(v >= 1 && v <= 9);
        Digit(v)
    }

    /// The digit whose zero-based index is `i` (`0..9` for digits 1-9).
    #[inline]
    pub const fn from_index(i: usize) -> Digit {
        debug_assert!(i < 9);
        Digit(i as u8 + 1)
    }

    /// Parses an ASCII `'1'..='9'`.
    #[inline]
    pub const fn from_ascii(b: u8) -> Option<Digit> {
        if b >= b'1' && b <= b'9' {
            Some(Digit(b - b'0'))
        } else {
            None
        }
    }

    /// The value `1..=9`.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Zero-based index `0..9`.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// The ASCII character `'1'..='9'`.
    #[inline]
    pub const fn to_ascii(self) -> u8 {
        b'0' + self.0
    }

    /// Iterator over the digits 1-9.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9u8).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What kind of house: row, column or box on every shape; a Jigsaw region, an X diagonal or
/// a Windoku window on those shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HouseKind {
    /// A row.
    #[default]
    Row,
    /// A column.
    Column,
    /// A 3x3 box.
    Box,
    /// A Jigsaw region: nine cells of any outline, in place of the boxes.
    Region,
    /// One of the two main diagonals of X Sudoku (diagonal 1 from r1c1, diagonal 2 from r1c9).
    Diagonal,
    /// One of the four extra 3x3 windows of Windoku (top-left cells r2c2, r2c6, r6c2, r6c6).
    Window,
}

impl HouseKind {
    /// Lower-case English name, as used in messages (`row`, `column`, `box`, `region`,
    /// `diagonal`, `window`).
    pub const fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
            HouseKind::Region => "region",
            HouseKind::Diagonal => "diagonal",
            HouseKind::Window => "window",
        }
    }

    /// True for the block-like kinds (box, region, window): Sudoku Explainer rates a hidden
    /// single in them as in a box (1.2), and a locked candidate from them as pointing.
    #[inline]
    pub const fn is_block(self) -> bool {
        matches!(self, HouseKind::Box | HouseKind::Region | HouseKind::Window)
    }
}

/// One of the 27 houses: rows `0..9`, columns `9..18`, boxes `18..27`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct House(u8);

impl House {
    /// Number of houses.
    pub const COUNT: usize = 27;

    /// The house with index `i` (`0..27`).
    #[inline]
    pub const fn new(i: u8) -> House {
        debug_assert!(i < 27);
        House(i)
    }

    /// Row `r` (`0..9`).
    #[inline]
    pub const fn row(r: u8) -> House {
        House(r)
    }

    /// Column `c` (`0..9`).
    #[inline]
    pub const fn column(c: u8) -> House {
        House(9 + c)
    }

    /// Box `b` (`0..9`).
    #[inline]
    pub const fn boxed(b: u8) -> House {
        House(18 + b)
    }

    /// Index `0..27`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, column or box.
    #[inline]
    pub const fn kind(self) -> HouseKind {
        match self.0 / 9 {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }

    /// Position of the house among houses of its kind (`0..9`).
    #[inline]
    pub const fn ordinal(self) -> u8 {
        self.0 % 9
    }

    /// The nine cells of the house, in reading order.
    #[inline]
    pub const fn cells(self) -> &'static [Cell; 9] {
        &HOUSE_CELLS[self.0 as usize]
    }

    /// The nine cells of the house as a set.
    #[inline]
    pub fn cell_set(self) -> CellSet {
        HOUSE_SETS[self.0 as usize]
    }

    /// Iterator over all 27 houses.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27u8).map(House)
    }
}

/// Houses print as `row 3`, `column 5`, `box 9` (1-based).
impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind().name(), self.ordinal() + 1)
    }
}

const fn build_house_cells() -> [[Cell; 9]; 27] {
    let mut t = [[Cell(0); 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            t[i][j] = Cell((i * 9 + j) as u16);
            t[9 + i][j] = Cell((j * 9 + i) as u16);
            let r = (i / 3) * 3 + j / 3;
            let c = (i % 3) * 3 + j % 3;
            t[18 + i][j] = Cell((r * 9 + c) as u16);
            j += 1;
        }
        i += 1;
    }
    t
}

/// The cells of each house, in reading order.
pub static HOUSE_CELLS: [[Cell; 9]; 27] = build_house_cells();

const fn build_house_sets() -> [CellSet; 27] {
    let cells = build_house_cells();
    let mut t = [CellSet::EMPTY; 27];
    let mut h = 0;
    while h < 27 {
        let mut bits = 0u128;
        let mut j = 0;
        while j < 9 {
            bits |= 1u128 << cells[h][j].0;
            j += 1;
        }
        t[h] = CellSet::from_bits(bits);
        h += 1;
    }
    t
}

/// The cells of each house, as sets.
pub static HOUSE_SETS: [CellSet; 27] = build_house_sets();

const fn build_peers() -> [CellSet; 81] {
    let sets = build_house_sets();
    let mut t = [CellSet::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let c = Cell(i as u16);
        let hs = c.houses();
        let bits = sets[hs[0].0 as usize].bits()
            | sets[hs[1].0 as usize].bits()
            | sets[hs[2].0 as usize].bits();
        t[i] = CellSet::from_bits(bits & !(1u128 << i));
        i += 1;
    }
    t
}

/// For each cell, the 20 cells that see it (share a row, column or box).
pub static PEERS: [CellSet; 81] = build_peers();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_twenty_peers_and_three_houses() {
        for c in Cell::all() {
            assert_eq!(c.peers().len(), 20);
            assert!(!c.peers().contains(c));
            for h in c.houses() {
                assert!(h.cell_set().contains(c));
            }
        }
    }

    #[test]
    fn houses_partition_the_grid_three_times() {
        let mut seen = [0u8; 81];
        for h in House::all() {
            assert_eq!(h.cell_set().len(), 9);
            for c in h.cells() {
                seen[c.index()] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
    }

    #[test]
    fn names_follow_the_literature() {
        assert_eq!(Cell::at(1, 7).to_string(), "r2c8");
        assert_eq!(House::boxed(2).to_string(), "box 3");
        assert_eq!(House::column(4).to_string(), "column 5");
        assert_eq!(Cell::at(4, 4).box_index(), 4);
        assert_eq!(Cell::at(8, 0).box_index(), 6);
    }
}
