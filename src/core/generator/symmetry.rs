//! The symmetries a generated puzzle's clue pattern can have, and their orbits.
//!
//! A symmetry is a map `g` of the grid's cells onto themselves; a puzzle *has* it when a
//! cell holds a clue exactly when its image does (the digits may differ: the pattern is
//! symmetric, as in published puzzles). With rows and columns `r, c` in `0..9`:
//!
//! | name           | image of (r, c)  | the same as                                  |
//! |----------------|------------------|----------------------------------------------|
//! | `none`         | (r, c)           | no constraint                                 |
//! | `rot180`       | (8-r, 8-c)       | half-turn about the centre cell               |
//! | `rot90`        | (c, 8-r)         | quarter-turn (and so also the half-turn)      |
//! | `mirror`       | (r, 8-c)         | reflection in the vertical middle line (column 5)   |
//! | `flip`         | (8-r, c)         | reflection in the horizontal middle line (row 5)    |
//! | `diagonal`     | (c, r)           | reflection in the main diagonal r1c1-r9c9     |
//! | `antidiagonal` | (8-c, 8-r)       | reflection in the anti-diagonal r1c9-r9c1     |
//!
//! The *orbit* of a cell is the set of cells it reaches by applying the map again and again:
//! one or two cells for the reflections and the half-turn (one on the fixed line or at the
//! centre), one or four for the quarter-turn. Digging removes whole orbits, so the clue
//! pattern keeps the symmetry. `random` (a [`SymmetryChoice`]) draws one of the six
//! non-trivial symmetries for each puzzle from the puzzle's own random stream.

use std::fmt;
use std::str::FromStr;

use crate::core::bitboard::CellSet;
use crate::core::grid::Grid;
use crate::core::index::Cell;

/// A symmetry of the clue pattern (see the module docs for the exact maps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No constraint.
    #[default]
    None,
    /// Half-turn rotation: (r, c) -> (8-r, 8-c).
    Rot180,
    /// Quarter-turn rotation: (r, c) -> (c, 8-r).
    Rot90,
    /// Left-right reflection: (r, c) -> (r, 8-c).
    Mirror,
    /// Top-bottom reflection: (r, c) -> (8-r, c).
    Flip,
    /// Reflection in the main diagonal: (r, c) -> (c, r).
    Diagonal,
    /// Reflection in the anti-diagonal: (r, c) -> (8-c, 8-r).
    AntiDiagonal,
}

/// Which symmetry to generate with: one fixed, or a random non-trivial one per puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymmetryChoice {
    /// Always this symmetry.
    Fixed(Symmetry),
    /// One of [`Symmetry::NON_TRIVIAL`], drawn uniformly for every puzzle.
    Random,
}

impl Default for SymmetryChoice {
    fn default() -> Self {
        SymmetryChoice::Fixed(Symmetry::None)
    }
}

/// The cells of one orbit: up to four, the first `len` of `cells` are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orbit {
    cells: [Cell; 4],
    len: u8,
}

impl Orbit {
    /// The cells of the orbit, starting with the cell it was asked for.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..self.len as usize]
    }

    /// Number of cells (1, 2 or 4).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Never true: an orbit holds at least its own cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The orbit's cells as a set.
    #[inline]
    pub fn set(&self) -> CellSet {
        let mut s = CellSet::EMPTY;
        for &c in self.cells() {
            s.insert(c);
        }
        s
    }
}

const fn image(sym: usize, cell: u8) -> u8 {
    let (r, c) = (cell / 9, cell % 9);
    let (r2, c2) = match sym {
        1 => (8 - r, 8 - c),
        2 => (c, 8 - r),
        3 => (r, 8 - c),
        4 => (8 - r, c),
        5 => (c, r),
        6 => (8 - c, 8 - r),
        _ => (r, c),
    };
    r2 * 9 + c2
}

const fn build_orbits() -> [[Orbit; 81]; 7] {
    let mut t = [[Orbit {
        cells: [Cell::new(0); 4],
        len: 1,
    }; 81]; 7];
    let mut s = 0;
    while s < 7 {
        let mut i = 0u8;
        while i < 81 {
            let mut cells = [Cell::new(i); 4];
            let mut len = 1u8;
            let mut next = image(s, i);
            while next != i && len < 4 {
                cells[len as usize] = Cell::new(next);
                len += 1;
                next = image(s, next);
            }
            t[s][i as usize] = Orbit { cells, len };
            i += 1;
        }
        s += 1;
    }
    t
}

static ORBITS: [[Orbit; 81]; 7] = build_orbits();

impl Symmetry {
    /// All seven symmetries, `None` first.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// The six symmetries other than `None` (what `random` draws from).
    pub const NON_TRIVIAL: [Symmetry; 6] = [
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// The name used on the command line and in output (`rot180`, `antidiagonal`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
        }
    }

    /// The image of `cell` under the map.
    #[inline]
    pub fn image(self, cell: Cell) -> Cell {
        Cell::new(image(self as usize, cell.index() as u8))
    }

    /// The orbit of `cell`: the cells that must be clues together.
    #[inline]
    pub fn orbit(self, cell: Cell) -> &'static Orbit {
        &ORBITS[self as usize][cell.index()]
    }

    /// True when the clue pattern of `grid` has this symmetry: every cell holds a clue
    /// exactly when its image does.
    pub fn holds(self, grid: &Grid) -> bool {
        Cell::all().all(|c| (grid.value(c) == 0) == (grid.value(self.image(c)) == 0))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a symmetry name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSymmetry(pub String);

impl fmt::Display for UnknownSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown symmetry '{}' (expected none, rot180, rot90, mirror, flip, diagonal, antidiagonal or random)",
            self.0
        )
    }
}

impl std::error::Error for UnknownSymmetry {}

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;
    fn from_str(s: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|sym| sym.name() == s)
            .ok_or_else(|| UnknownSymmetry(s.to_string()))
    }
}

impl FromStr for SymmetryChoice {
    type Err = UnknownSymmetry;
    fn from_str(s: &str) -> Result<SymmetryChoice, UnknownSymmetry> {
        if s == "random" {
            Ok(SymmetryChoice::Random)
        } else {
            s.parse().map(SymmetryChoice::Fixed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_grid_with_the_expected_sizes() {
        // (symmetry, orbits of size 1, of size 2, of size 4)
        let expected = [
            (Symmetry::None, 81, 0, 0),
            (Symmetry::Rot180, 1, 40, 0),
            (Symmetry::Rot90, 1, 0, 20),
            (Symmetry::Mirror, 9, 36, 0),
            (Symmetry::Flip, 9, 36, 0),
            (Symmetry::Diagonal, 9, 36, 0),
            (Symmetry::AntiDiagonal, 9, 36, 0),
        ];
        for (sym, ones, twos, fours) in expected {
            let mut sizes = [0usize; 5];
            let mut covered = CellSet::EMPTY;
            for c in Cell::all() {
                let o = sym.orbit(c);
                assert_eq!(o.cells()[0], c);
                // Every member has the same orbit as a set.
                for &m in o.cells() {
                    assert_eq!(sym.orbit(m).set(), o.set(), "{sym} {c}");
                }
                if o.cells().iter().all(|&m| m >= c) {
                    sizes[o.len()] += 1;
                    assert!((covered & o.set()).is_empty());
                    covered |= o.set();
                }
            }
            assert_eq!(covered, CellSet::ALL);
            assert_eq!((sizes[1], sizes[2], sizes[4]), (ones, twos, fours), "{sym}");
        }
    }

    #[test]
    fn maps_match_their_definitions() {
        let c = Cell::at(1, 3); // r2c4
        assert_eq!(Symmetry::Rot180.image(c), Cell::at(7, 5));
        assert_eq!(Symmetry::Rot90.image(c), Cell::at(3, 7));
        assert_eq!(Symmetry::Mirror.image(c), Cell::at(1, 5));
        assert_eq!(Symmetry::Flip.image(c), Cell::at(7, 3));
        assert_eq!(Symmetry::Diagonal.image(c), Cell::at(3, 1));
        assert_eq!(Symmetry::AntiDiagonal.image(c), Cell::at(5, 7));
        assert_eq!(Symmetry::None.image(c), c);
    }

    #[test]
    fn names_round_trip_and_holds_checks_patterns() {
        for sym in Symmetry::ALL {
            assert_eq!(sym.name().parse::<Symmetry>(), Ok(sym));
        }
        assert_eq!(
            "random".parse::<SymmetryChoice>(),
            Ok(SymmetryChoice::Random)
        );
        assert!("rot45".parse::<Symmetry>().is_err());
        let mut g = Grid::EMPTY;
        g.set(Cell::at(0, 1), Some(crate::core::Digit::new(5)));
        assert!(!Symmetry::Rot180.holds(&g));
        assert!(Symmetry::None.holds(&g));
        g.set(Cell::at(8, 7), Some(crate::core::Digit::new(2)));
        assert!(Symmetry::Rot180.holds(&g));
        assert!(!Symmetry::Mirror.holds(&g));
    }
}
