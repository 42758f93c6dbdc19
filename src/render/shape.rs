//! What a grid looks like on paper, independent of the logic engine: which squares of the
//! layout hold a cell, which block (box or Jigsaw region) each belongs to, and which cells
//! are shaded (X diagonals, Windoku windows). [`GridLines`] turns that into the thin and
//! thick line segments to stroke.
//!
//! ```text
//! layout square (row, col)  ──► cell index (into the puzzle's 81 or 369 values), or none
//!                           ──► block id (thick lines wherever it changes, and around
//!                               the outline), or none outside the grid
//! shading                   ──► rectangles in layout squares (one per window, one per
//!                               diagonal cell)
//! ```
//!
//! Everything is in layout squares (the unit is one cell); the drawing code scales it.

use crate::core::geometry::{Shape, WINDOWS};
use crate::core::samurai::{LAYOUT_SIDE, SamuraiCell};

/// Marks a layout square with no cell (a Samurai gap).
pub const NO_CELL: u16 = u16::MAX;

/// Marks a layout square outside every block.
pub const NO_BLOCK: u8 = u8::MAX;

/// A shaded rectangle, in layout squares: top row, left column, height, width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shade {
    /// Top row.
    pub row: u8,
    /// Left column.
    pub col: u8,
    /// Height in squares.
    pub height: u8,
    /// Width in squares.
    pub width: u8,
}

/// The drawing description of one shape (for Jigsaw, of one puzzle's regions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeDesc {
    shape: Shape,
    side: usize,
    cell_at: Vec<u16>,
    block: Vec<u8>,
    shades: Vec<Shade>,
}

impl ShapeDesc {
    /// The description of `shape`. Jigsaw starts with the nine boxes as its regions; give
    /// each puzzle's regions with [`ShapeDesc::set_regions`].
    pub fn new(shape: Shape) -> ShapeDesc {
        if shape == Shape::Samurai {
            return ShapeDesc::samurai();
        }
        let cell_at = (0..81u16).collect();
        let block = (0..81).map(|i| box_of(i / 9, i % 9)).collect();
        let shades = match shape {
            Shape::X => (0..9u8)
                .map(|r| (r, r))
                .chain((0..9u8).filter(|&r| r != 4).map(|r| (r, 8 - r)))
                .map(|(row, col)| Shade {
                    row,
                    col,
                    height: 1,
                    width: 1,
                })
                .collect(),
            Shape::Windoku => WINDOWS
                .iter()
                .map(|&(row, col)| Shade {
                    row,
                    col,
                    height: 3,
                    width: 3,
                })
                .collect(),
            _ => Vec::new(),
        };
        ShapeDesc {
            shape,
            side: 9,
            cell_at,
            block,
            shades,
        }
    }

    /// Samurai: five 9x9 grids on the 21x21 layout; blocks are the 3x3 boxes (every grid
    /// origin is a multiple of three, so the boxes tile the layout).
    fn samurai() -> ShapeDesc {
        let n = LAYOUT_SIDE;
        let mut cell_at = vec![NO_CELL; n * n];
        let mut block = vec![NO_BLOCK; n * n];
        for r in 0..n {
            for c in 0..n {
                if let Some(cell) = SamuraiCell::at(r, c) {
                    cell_at[r * n + c] = cell.index() as u16;
                    block[r * n + c] = ((r / 3) * 7 + c / 3) as u8;
                }
            }
        }
        ShapeDesc {
            shape: Shape::Samurai,
            side: n,
            cell_at,
            block,
            shades: Vec::new(),
        }
    }

    /// Sets the regions of a Jigsaw puzzle: `regions[i]` is the zero-based region of cell
    /// `i` (reading order). Ignored on other shapes.
    pub fn set_regions(&mut self, regions: &[u8; 81]) {
        if self.shape == Shape::Jigsaw {
            self.block.copy_from_slice(regions);
        }
    }

    /// The shape described.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Squares per side of the layout (9, or 21 for Samurai).
    pub fn side(&self) -> usize {
        self.side
    }

    /// Number of cells (81, or 369 for Samurai).
    pub fn cells(&self) -> usize {
        if self.shape == Shape::Samurai {
            SamuraiCell::COUNT
        } else {
            81
        }
    }

    /// The cell index at layout square (`row`, `col`), or [`NO_CELL`].
    pub fn cell_at(&self, row: usize, col: usize) -> u16 {
        self.cell_at[row * self.side + col]
    }

    /// The layout square (row, column) of cell `cell`, if the shape has it.
    pub fn position(&self, cell: u16) -> Option<(usize, usize)> {
        self.cell_at
            .iter()
            .position(|&c| c == cell)
            .map(|i| (i / self.side, i % self.side))
    }

    /// The block at layout square (`row`, `col`), or [`NO_BLOCK`] outside the grid.
    /// Out-of-range squares are outside.
    pub fn block_at(&self, row: isize, col: isize) -> u8 {
        let n = self.side as isize;
        if row < 0 || col < 0 || row >= n || col >= n {
            NO_BLOCK
        } else {
            self.block[(row * n + col) as usize]
        }
    }

    /// The shaded rectangles (X diagonals, Windoku windows).
    pub fn shades(&self) -> &[Shade] {
        &self.shades
    }
}

/// The 3x3 box (0-8) of row `r`, column `c` of a 9x9 grid.
fn box_of(r: u16, c: u16) -> u8 {
    ((r / 3) * 3 + c / 3) as u8
}

/// A straight segment between two layout grid points (`x` columns, `y` rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Start column.
    pub x0: u8,
    /// Start row.
    pub y0: u8,
    /// End column.
    pub x1: u8,
    /// End row.
    pub y1: u8,
}

/// The lines of a grid: thin between cells of one block, thick between blocks and around
/// the outline. Collinear edges of one weight are merged into the longest segments, so a
/// classic grid is twelve thin and eight thick lines, whatever the zoom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridLines {
    /// Thin segments.
    pub thin: Vec<Segment>,
    /// Thick segments.
    pub thick: Vec<Segment>,
}

/// The weight of an edge between two squares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    None,
    Thin,
    Thick,
}

fn edge(a: u8, b: u8) -> Edge {
    match (a, b) {
        (NO_BLOCK, NO_BLOCK) => Edge::None,
        (a, b) if a == b => Edge::Thin,
        _ => Edge::Thick,
    }
}

impl GridLines {
    /// The lines of `desc`.
    pub fn of(desc: &ShapeDesc) -> GridLines {
        let mut lines = GridLines::default();
        lines.rebuild(desc);
        lines
    }

    /// Recomputes the lines for `desc` (reusing the vectors: once per Jigsaw puzzle).
    pub fn rebuild(&mut self, desc: &ShapeDesc) {
        self.thin.clear();
        self.thick.clear();
        let n = desc.side() as isize;
        // Horizontal edges on grid line y (between rows y-1 and y), then vertical edges on
        // grid line x; each run of one weight becomes a segment.
        for horizontal in [true, false] {
            for line in 0..=n {
                let mut run: Option<(Edge, isize)> = None;
                for along in 0..=n {
                    let e = if along == n {
                        Edge::None
                    } else if horizontal {
                        edge(desc.block_at(line - 1, along), desc.block_at(line, along))
                    } else {
                        edge(desc.block_at(along, line - 1), desc.block_at(along, line))
                    };
                    match run {
                        Some((kind, _)) if kind == e => continue,
                        Some((kind, start)) => self.push(kind, horizontal, line, start, along),
                        None => {}
                    }
                    run = Some((e, along));
                }
            }
        }
    }

    fn push(&mut self, kind: Edge, horizontal: bool, line: isize, start: isize, end: isize) {
        let (line, start, end) = (line as u8, start as u8, end as u8);
        let seg = if horizontal {
            Segment {
                x0: start,
                y0: line,
                x1: end,
                y1: line,
            }
        } else {
            Segment {
                x0: line,
                y0: start,
                x1: line,
                y1: end,
            }
        };
        match kind {
            Edge::Thin => self.thin.push(seg),
            Edge::Thick => self.thick.push(seg),
            Edge::None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_lines_are_twelve_thin_and_eight_thick_full_length() {
        let l = GridLines::of(&ShapeDesc::new(Shape::Classic));
        assert_eq!((l.thin.len(), l.thick.len()), (12, 8));
        assert!(l.thin.iter().all(|s| (s.x1 - s.x0) + (s.y1 - s.y0) == 9));
        assert!(l.thick.iter().all(|s| (s.x1 - s.x0) + (s.y1 - s.y0) == 9));
    }

    #[test]
    fn x_shades_seventeen_diagonal_cells_and_windoku_four_windows() {
        assert_eq!(ShapeDesc::new(Shape::X).shades().len(), 17);
        let w = ShapeDesc::new(Shape::Windoku);
        assert_eq!(w.shades().len(), 4);
        assert_eq!((w.shades()[3].row, w.shades()[3].col), (5, 5));
    }

    #[test]
    fn samurai_has_369_cells_and_an_outline_around_the_gaps() {
        let d = ShapeDesc::new(Shape::Samurai);
        let cells = (0..21)
            .flat_map(|r| (0..21).map(move |c| (r, c)))
            .filter(|&(r, c)| d.cell_at(r, c) != NO_CELL)
            .count();
        assert_eq!(cells, 369);
        let l = GridLines::of(&d);
        // Every thick segment lies on a multiple of three.
        assert!(l.thick.iter().all(|s| s.x0 % 3 == 0 && s.y0 % 3 == 0));
        // No line runs through the gap at rows 0-5, columns 9-11.
        assert!(!l.thin.iter().chain(&l.thick).any(|s| s.y0 == s.y1
            && s.y0 > 0
            && s.y0 < 6
            && s.x0 < 10
            && s.x1 > 10));
    }

    #[test]
    fn jigsaw_regions_move_the_thick_lines() {
        let mut d = ShapeDesc::new(Shape::Jigsaw);
        let boxes = GridLines::of(&d);
        let mut regions = [0u8; 81];
        for (i, r) in regions.iter_mut().enumerate() {
            *r = (i / 9) as u8; // each row a region
        }
        d.set_regions(&regions);
        let rows = GridLines::of(&d);
        assert_ne!(boxes, rows);
        // Rows as regions: every horizontal line is thick, inner vertical lines thin.
        assert_eq!(rows.thick.len(), 10 + 2);
        assert_eq!(rows.thin.len(), 8);
    }
}
