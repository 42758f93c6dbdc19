//! The shapes of grid as one type: cells, houses and their kinds, peers, the intersections
//! that locked candidates use and the row/column systems fish use. Classic, Samurai, X
//! (diagonal), Windoku (hyper) and Jigsaw Sudoku are instances of [`Geometry`]; every human
//! technique, the grader and `explain` are written once over it.
//!
//! A geometry is data (tables built once per shape, or per puzzle for Jigsaw, whose regions
//! come with each puzzle) over a compile-time [`Size`]: [`S81`] for the 81-cell shapes and
//! [`S369`] for Samurai. The logic engine is generic over the size, so it is compiled twice,
//! and the classic path runs the same monomorphized code as X, Windoku and Jigsaw, with
//! 128-bit cell sets and tables read through one pointer.
//!
//! # What a geometry holds
//!
//! ```text
//! houses[h]        cells (set and list of nine, in reading order), kind, ordinal, grid
//! cell_houses[c]   the houses of cell c with c's position in each, in Sudoku Explainer's
//!                  cause order: block (box or region) first, then rows, columns, windows,
//!                  diagonals (classic: box, row, column)
//! peers[c]         the cells sharing a house with c
//! order_bcr        houses in SE's region order for singles and subsets: blocks, columns,
//!                  rows, then windows and diagonals
//! order_brc        houses in SE's `getRegionTypes` order: blocks, rows, columns, ...
//! lock groups      ordered pairs (first house, second house) meeting in two cells or more,
//!                  grouped by kinds in SE's `Locking` order: (block, column), (block, row),
//!                  (column, block), (row, block), then the pairs only other shapes have
//! fish systems     nine rows and nine columns that meet cell by cell (one per grid)
//! ```
//!
//! House ids are `0..houses().len()`: on the 81-cell shapes rows `0..9`, columns `9..18`,
//! boxes or regions `18..27`, then diagonals (X, `27..29`) or windows (Windoku, `27..31`);
//! on Samurai the 131 distinct houses grid by grid (see [`crate::core::samurai`]).
//!
//! # Techniques and shapes
//!
//! Every technique of Sudoku Explainer 1.2.1 runs on every shape. The uniqueness techniques
//! (unique rectangles and loops, BUG) rest on a pattern that would have two solutions; that
//! holds on any shape as long as *every* house, extra ones included, meets the pattern the
//! way a row, column or box does, and the engine checks exactly that against all houses of
//! the geometry (see [`crate::core::logic::uniqueness`] and [`crate::core::logic::bug`]), so
//! on X, Windoku, Samurai and Jigsaw they fire only where they are sound.

use std::fmt;
use std::sync::OnceLock;

use crate::core::index::{Cell, HouseKind};

pub mod size;

pub use size::{Arr, CandBits, CandSet, CellBits, Elem, S81, S369, Size};

/// The grid shapes sudoku-batch knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The classic 9x9 grid.
    #[default]
    Classic,
    /// Five overlapping 9x9 grids (369 cells).
    Samurai,
    /// X (diagonal) Sudoku: the two main diagonals are houses too.
    X,
    /// Windoku (hyper Sudoku): four extra 3x3 windows.
    Windoku,
    /// Jigsaw Sudoku: nine irregular regions in place of the boxes.
    Jigsaw,
}

impl Shape {
    /// The name used on the command line (`classic`, `samurai`, `x`, `windoku`, `jigsaw`).
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Classic => "classic",
            Shape::Samurai => "samurai",
            Shape::X => "x",
            Shape::Windoku => "windoku",
            Shape::Jigsaw => "jigsaw",
        }
    }
}

/// Most houses a cell belongs to (a Samurai cell in a shared box: two rows, two columns and
/// the box; the centre of an X grid: row, column, box and both diagonals).
pub const MAX_CELL_HOUSES: usize = 6;

/// One house: its cells, kind and how it is named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HouseDef<S: Size> {
    /// The nine cells as a set.
    pub set: S::Set,
    /// The nine cells in index order (reading order on 81-cell shapes; for a box, row by
    /// row).
    pub cells: [Cell; 9],
    /// Row, column, box, region, diagonal or window.
    pub kind: HouseKind,
    /// Zero-based number among the houses of its kind (and grid).
    pub ordinal: u8,
    /// Samurai: the grid (1-5) it is named after; 0 on single-grid shapes.
    pub grid: u8,
}

/// The houses of one cell, with the cell's position (`0..9`) in each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellHouses {
    n: u8,
    ids: [u8; MAX_CELL_HOUSES],
    pos: [u8; MAX_CELL_HOUSES],
}

impl CellHouses {
    /// The house ids, in cause order (block, rows, columns, windows, diagonals).
    #[inline]
    pub fn ids(&self) -> &[u8] {
        &self.ids[..self.n as usize]
    }

    /// The cell's position in each house of [`CellHouses::ids`].
    #[inline]
    pub fn positions(&self) -> &[u8] {
        &self.pos[..self.n as usize]
    }

    /// Number of houses.
    #[inline]
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// True for a cell in no house (never, on a valid geometry).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// Nine rows and nine columns that meet cell by cell: where fish look (one system per grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FishSystem<S: Size> {
    /// Row house ids, top to bottom.
    pub rows: [u8; 9],
    /// Column house ids, left to right.
    pub cols: [u8; 9],
    /// Every cell of the system.
    pub cells: S::Set,
    /// For each cell of the system, `row << 4 | column` (indices into `rows`, `cols`);
    /// `0xff` outside.
    pub at: S::Cells<u8>,
}

/// How a cell is named: `r2c8`, or on Samurai `g3r2c8` (after the lower-numbered grid
/// holding it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellLabel {
    /// Samurai grid 1-5; 0 on single-grid shapes.
    pub grid: u8,
    /// Zero-based row (in the grid).
    pub row: u8,
    /// Zero-based column (in the grid).
    pub col: u8,
}

/// A house given to [`Geometry::build`]: kind, ordinal, grid and cells.
#[derive(Clone, Copy, Debug)]
pub struct HouseSpec {
    /// Kind.
    pub kind: HouseKind,
    /// Zero-based ordinal among its kind (and grid).
    pub ordinal: u8,
    /// Samurai grid (1-5) or 0.
    pub grid: u8,
    /// The nine cells.
    pub cells: [Cell; 9],
}

/// Why a Jigsaw layout is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// A region id outside `0..9`, at this cell.
    BadId(Cell),
    /// Region (zero-based) with this many cells instead of nine.
    RegionSize(u8, u8),
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LayoutError::BadId(c) => write!(f, "region id at {c} is not 1-9"),
            LayoutError::RegionSize(r, n) => {
                write!(f, "region {} has {n} cells, not 9", r + 1)
            }
        }
    }
}

impl std::error::Error for LayoutError {}

/// A grid shape: houses, peers and the orders the techniques search in. See the module
/// documentation.
#[derive(Clone, Debug)]
pub struct Geometry<S: Size> {
    shape: Shape,
    houses: Vec<HouseDef<S>>,
    cell_houses: Box<S::Cells<CellHouses>>,
    peers: Box<S::Cells<S::Set>>,
    labels: Box<S::Cells<CellLabel>>,
    all: S::Set,
    order_bcr: Vec<u8>,
    order_brc: Vec<u8>,
    by_kind: [Vec<u8>; 6],
    lock_pairs: Vec<(u8, u8)>,
    lock_ends: Vec<u32>,
    /// `lock_pairs` in runs of the same first house, and where each group's runs end.
    lock_runs: Vec<LockRun>,
    lock_run_ends: Vec<u32>,
    /// Per run of `lock_runs`, the cells its pairs read ([`Geometry::lock_runs_reading`]).
    lock_run_reads: Vec<S::Set>,
    fish: Vec<FishSystem<S>>,
    /// The classic houses, when the first four locking groups are exactly theirs.
    classic: Option<ClassicHouses>,
}

/// The house ids of an 81-cell grid whose first four locking groups (SE's
/// `Locking` order: box and column, box and row, column and box, row and box) are exactly
/// those of the classic grid: 3x3 boxes, rows and columns, each kind numbered in reading
/// order by ascending id. Locked candidates then work those groups out a digit plane at a
/// time ([`crate::core::logic::intersections`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassicHouses {
    /// Row `r`'s house id.
    pub rows: [u8; 9],
    /// Column `c`'s house id.
    pub cols: [u8; 9],
    /// Box `b`'s house id (boxes in reading order).
    pub boxes: [u8; 9],
}

/// Consecutive pairs of a locking group with the same first house
/// ([`Geometry::lock_runs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockRun {
    /// The first house of every pair of the run.
    pub first: u8,
    start: u32,
    end: u32,
}

/// Kind ranks for the cause order (and SE's `getRegionTypes`): block, row, column, window,
/// diagonal.
const fn rank_brc(k: HouseKind) -> u8 {
    match k {
        HouseKind::Box | HouseKind::Region => 0,
        HouseKind::Row => 1,
        HouseKind::Column => 2,
        HouseKind::Window => 3,
        HouseKind::Diagonal => 4,
    }
}

/// Kind ranks for SE's region order of singles and subsets: block, column, row, window,
/// diagonal.
const fn rank_bcr(k: HouseKind) -> u8 {
    match k {
        HouseKind::Box | HouseKind::Region => 0,
        HouseKind::Column => 1,
        HouseKind::Row => 2,
        HouseKind::Window => 3,
        HouseKind::Diagonal => 4,
    }
}

const fn kind_slot(k: HouseKind) -> usize {
    match k {
        HouseKind::Row => 0,
        HouseKind::Column => 1,
        HouseKind::Box => 2,
        HouseKind::Region => 3,
        HouseKind::Diagonal => 4,
        HouseKind::Window => 5,
    }
}

/// The locking group of an ordered pair of kinds, in SE's `Locking` order first
/// ((box, column), (box, row), (column, box), (row, box)), then the others.
const fn lock_group(a: HouseKind, b: HouseKind) -> u8 {
    let (ba, bb) = (a.is_block(), b.is_block());
    match (a, b) {
        (_, HouseKind::Column) if ba => 0,
        (_, HouseKind::Row) if ba => 1,
        (HouseKind::Column, _) if bb => 2,
        (HouseKind::Row, _) if bb => 3,
        (_, HouseKind::Diagonal) if ba => 4,
        (HouseKind::Diagonal, _) if bb => 5,
        _ if ba && bb => 6,
        (HouseKind::Row, HouseKind::Row) => 7,
        (HouseKind::Column, HouseKind::Column) => 8,
        _ => 9,
    }
}

impl<S: Size> Geometry<S> {
    /// An empty geometry, to be filled by [`Geometry::build`].
    fn empty(shape: Shape) -> Geometry<S> {
        Geometry {
            shape,
            houses: Vec::with_capacity(S::HOUSES),
            cell_houses: Box::new(S::Cells::splat(CellHouses::default())),
            peers: Box::new(S::Cells::splat(S::Set::EMPTY)),
            labels: Box::new(S::Cells::splat(CellLabel::default())),
            all: S::Set::EMPTY,
            order_bcr: Vec::with_capacity(S::HOUSES),
            order_brc: Vec::with_capacity(S::HOUSES),
            by_kind: Default::default(),
            lock_pairs: Vec::with_capacity(8 * S::HOUSES),
            lock_ends: Vec::with_capacity(10),
            lock_runs: Vec::with_capacity(4 * S::HOUSES),
            lock_run_ends: Vec::with_capacity(10),
            lock_run_reads: Vec::with_capacity(4 * S::HOUSES),
            fish: Vec::with_capacity(5),
            classic: None,
        }
    }

    /// A geometry of `shape` with these houses (each of nine distinct cells; every cell in
    /// at least one house) and cell names. Builds every derived table.
    pub fn build(shape: Shape, houses: &[HouseSpec], labels: &S::Cells<CellLabel>) -> Self {
        let mut g = Geometry::empty(shape);
        g.rebuild(shape, houses, labels);
        g
    }

    /// Rebuilds the tables in place for new houses, reusing the memory (a Jigsaw worker does
    /// this per puzzle without allocating).
    pub fn rebuild(&mut self, shape: Shape, houses: &[HouseSpec], labels: &S::Cells<CellLabel>) {
        assert!(houses.len() <= S::HOUSES && houses.len() < 256);
        self.shape = shape;
        *self.labels = *labels;
        self.houses.clear();
        self.all = S::Set::EMPTY;
        for spec in houses {
            let mut set = S::Set::EMPTY;
            for &c in &spec.cells {
                set.insert(c);
            }
            self.all |= set;
            self.houses.push(HouseDef {
                set,
                cells: spec.cells,
                kind: spec.kind,
                ordinal: spec.ordinal,
                grid: spec.grid,
            });
        }
        // Houses of each cell, in cause order.
        let cells: &mut S::Cells<CellHouses> = &mut self.cell_houses;
        *cells = S::Cells::splat(CellHouses::default());
        let mut ids: Vec<u8> = (0..houses.len() as u8).collect();
        ids.sort_by_key(|&h| (rank_brc(houses[h as usize].kind), h));
        for &h in &ids {
            for (pos, &c) in houses[h as usize].cells.iter().enumerate() {
                let ch = &mut cells[c.index()];
                let n = ch.n as usize;
                assert!(n < MAX_CELL_HOUSES, "a cell in too many houses");
                ch.ids[n] = h;
                ch.pos[n] = pos as u8;
                ch.n += 1;
            }
        }
        self.order_brc.clear();
        self.order_brc.extend_from_slice(&ids);
        self.order_bcr.clear();
        self.order_bcr.extend(0..houses.len() as u8);
        self.order_bcr
            .sort_by_key(|&h| (rank_bcr(houses[h as usize].kind), h));
        for v in self.by_kind.iter_mut() {
            v.clear();
        }
        for (h, spec) in houses.iter().enumerate() {
            self.by_kind[kind_slot(spec.kind)].push(h as u8);
        }
        // Peers.
        let peers: &mut S::Cells<S::Set> = &mut self.peers;
        for i in 0..S::CELLS {
            let mut p = S::Set::EMPTY;
            for &h in self.cell_houses[i].ids() {
                p |= self.houses[h as usize].set;
            }
            p.remove(Cell::from_index(i));
            peers[i] = p;
        }
        // Locking pairs, grouped.
        self.lock_pairs.clear();
        self.lock_ends.clear();
        for group in 0..10u8 {
            for a in 0..houses.len() {
                for b in 0..houses.len() {
                    let (ha, hb) = (&self.houses[a], &self.houses[b]);
                    if a == b
                        || lock_group(ha.kind, hb.kind) != group
                        || (ha.set & hb.set).len() < 2
                    {
                        continue;
                    }
                    self.lock_pairs.push((a as u8, b as u8));
                }
            }
            self.lock_ends.push(self.lock_pairs.len() as u32);
        }
        self.lock_runs.clear();
        self.lock_run_ends.clear();
        let mut start = 0;
        for &end in &self.lock_ends {
            for (i, &(a, _)) in self.lock_pairs[..end as usize]
                .iter()
                .enumerate()
                .skip(start)
            {
                match self.lock_runs.last_mut() {
                    Some(r) if i > start && r.first == a => r.end = i as u32 + 1,
                    _ => self.lock_runs.push(LockRun {
                        first: a,
                        start: i as u32,
                        end: i as u32 + 1,
                    }),
                }
            }
            self.lock_run_ends.push(self.lock_runs.len() as u32);
            start = end as usize;
        }
        // What each run's pairs read: the first house, each second house, and the houses
        // of the first house's kind crossing a second house (where a direct locking
        // looks for its hidden single).
        self.lock_run_reads.clear();
        for r in &self.lock_runs {
            let first = &self.houses[usize::from(r.first)];
            let mut reads = first.set;
            for &(_, b) in &self.lock_pairs[r.start as usize..r.end as usize] {
                let second = self.houses[usize::from(b)].set;
                reads |= second;
                for &h3 in &self.by_kind[kind_slot(first.kind)] {
                    let third = self.houses[usize::from(h3)].set;
                    if !(third & second).is_empty() {
                        reads |= third;
                    }
                }
            }
            self.lock_run_reads.push(reads);
        }
        // Fish systems: the rows and columns of each grid.
        self.fish.clear();
        let grids: Vec<u8> = {
            let mut g: Vec<u8> = houses.iter().map(|h| h.grid).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        for grid in grids {
            let mut rows = [u8::MAX; 9];
            let mut cols = [u8::MAX; 9];
            for (h, spec) in houses.iter().enumerate() {
                if spec.grid != grid || spec.ordinal >= 9 {
                    continue;
                }
                match spec.kind {
                    HouseKind::Row => rows[spec.ordinal as usize] = h as u8,
                    HouseKind::Column => cols[spec.ordinal as usize] = h as u8,
                    _ => {}
                }
            }
            if rows.contains(&u8::MAX) || cols.contains(&u8::MAX) {
                continue;
            }
            let mut at = S::Cells::splat(0xffu8);
            let mut all = S::Set::EMPTY;
            for (i, &r) in rows.iter().enumerate() {
                for (j, &col) in cols.iter().enumerate() {
                    let x = self.houses[r as usize].set & self.houses[col as usize].set;
                    if let Some(c) = x.first() {
                        at[c.index()] = (i << 4 | j) as u8;
                        all.insert(c);
                    }
                }
            }
            self.fish.push(FishSystem {
                rows,
                cols,
                cells: all,
                at,
            });
        }
        self.classic = self.find_classic();
    }

    /// The classic houses, when the first four locking groups are exactly theirs (see
    /// [`ClassicHouses`]).
    fn find_classic(&self) -> Option<ClassicHouses> {
        if S::CELLS != 81 || self.lock_ends.len() < 4 {
            return None;
        }
        // Each of the four groups holds the 27 crossings of its two kinds, no more.
        let mut start = 0;
        for &end in &self.lock_ends[..4] {
            if end - start != 27 {
                return None;
            }
            start = end;
        }
        let mut ids = ClassicHouses {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        let (mut rows, mut cols, mut boxes) = (0, 0, 0);
        for (h, house) in self.houses.iter().enumerate() {
            let first = house.cells[0].index();
            let (r, c) = (first / 9, first % 9);
            let standard =
                |cells: &dyn Fn(usize) -> usize| (0..9).all(|i| house.cells[i].index() == cells(i));
            // Each kind numbered in reading order by ascending id: the pairs' order is the
            // planes'.
            let (slot, n, k) = match house.kind {
                HouseKind::Row if standard(&|i| 9 * r + i) => (&mut ids.rows[r], &mut rows, r),
                HouseKind::Column if standard(&|i| 9 * i + c) => (&mut ids.cols[c], &mut cols, c),
                kind if kind.is_block()
                    && r % 3 == 0
                    && c % 3 == 0
                    && standard(&|i| first + 9 * (i / 3) + i % 3) =>
                {
                    (&mut ids.boxes[r + c / 3], &mut boxes, r + c / 3)
                }
                _ => continue,
            };
            if k != *n {
                return None;
            }
            *slot = h as u8;
            *n += 1;
        }
        (rows == 9 && cols == 9 && boxes == 9).then_some(ids)
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// All houses, by id.
    #[inline]
    pub fn houses(&self) -> &[HouseDef<S>] {
        &self.houses
    }

    /// House `h`.
    #[inline]
    pub fn house(&self, h: usize) -> &HouseDef<S> {
        &self.houses[h]
    }

    /// The cells of house `h` as a set.
    #[inline]
    pub fn house_set(&self, h: usize) -> S::Set {
        self.houses[h].set
    }

    /// The houses of `c`, in cause order, with `c`'s position in each.
    #[inline]
    pub fn cell_houses(&self, c: Cell) -> &CellHouses {
        &self.cell_houses[c.index()]
    }

    /// The cells sharing a house with `c` (not `c`).
    #[inline]
    pub fn peers(&self, c: Cell) -> S::Set {
        self.peers[c.index()]
    }

    /// Every cell.
    #[inline]
    pub fn all_cells(&self) -> S::Set {
        self.all
    }

    /// The cells, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<S> {
        (0..S::CELLS).map(Cell::from_index)
    }

    /// Houses in SE's region order for singles and subsets (blocks, columns, rows, others).
    #[inline]
    pub fn order_bcr(&self) -> &[u8] {
        &self.order_bcr
    }

    /// Houses in SE's `getRegionTypes` order (blocks, rows, columns, others).
    #[inline]
    pub fn order_brc(&self) -> &[u8] {
        &self.order_brc
    }

    /// The houses of one kind, by id.
    #[inline]
    pub fn houses_of_kind(&self, kind: HouseKind) -> &[u8] {
        &self.by_kind[kind_slot(kind)]
    }

    /// The locking groups in SE's order, each a list of (first, second) house pairs that
    /// meet in two or more cells.
    pub fn lock_groups(&self) -> impl Iterator<Item = &[(u8, u8)]> + '_ {
        let mut start = 0usize;
        self.lock_ends.iter().map(move |&end| {
            let g = &self.lock_pairs[start..end as usize];
            start = end as usize;
            g
        })
    }

    /// [`Geometry::lock_groups`] in runs of pairs with the same first house (pairs are
    /// listed by first house), for searches that look at a first house once.
    pub fn lock_runs(&self) -> impl Iterator<Item = &[LockRun]> + '_ {
        let mut start = 0usize;
        self.lock_run_ends.iter().map(move |&end| {
            let g = &self.lock_runs[start..end as usize];
            start = end as usize;
            g
        })
    }

    /// The (first, second) house pairs of a run of [`Geometry::lock_runs`].
    #[inline]
    pub fn lock_run_pairs(&self, r: &LockRun) -> &[(u8, u8)] {
        &self.lock_pairs[r.start as usize..r.end as usize]
    }

    /// The runs of [`Geometry::lock_runs`] in the same groups, each with the cells its
    /// pairs read: the first house, each second house, and every house of the first
    /// house's kind that crosses a second house (on the classic grid, the band or stack
    /// of the first house). A digit whose places there did not change finds there what
    /// it found before.
    pub fn lock_runs_reading(&self) -> impl Iterator<Item = (&[LockRun], &[S::Set])> + '_ {
        let mut start = 0usize;
        self.lock_run_ends.iter().map(move |&end| {
            let range = start..end as usize;
            start = end as usize;
            (&self.lock_runs[range.clone()], &self.lock_run_reads[range])
        })
    }

    /// The classic houses, when the first four locking groups are exactly theirs (see
    /// [`ClassicHouses`]).
    #[inline]
    pub fn classic_houses(&self) -> Option<&ClassicHouses> {
        self.classic.as_ref()
    }

    /// The fish systems (one per grid).
    #[inline]
    pub fn fish_systems(&self) -> &[FishSystem<S>] {
        &self.fish
    }

    /// How cell `c` is named.
    #[inline]
    pub fn label(&self, c: Cell) -> CellLabel {
        self.labels[c.index()]
    }

    /// The name of cell `c` (`r2c8`, `g3r2c8`), for messages and `explain`.
    pub fn cell_name(&self, c: Cell) -> CellName {
        CellName(self.labels[c.index()])
    }

    /// The name of house `h` (`row 3`, `region 4`, `diagonal 1`, `grid 3 box 5`).
    pub fn house_name(&self, h: usize) -> HouseName {
        let d = &self.houses[h];
        HouseName {
            kind: d.kind,
            ordinal: d.ordinal,
            grid: d.grid,
        }
    }
}

/// A cell's name (see [`Geometry::cell_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName(CellLabel);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.0;
        if l.grid > 0 {
            write!(f, "g{}", l.grid)?;
        }
        write!(f, "r{}c{}", l.row + 1, l.col + 1)
    }
}

/// A house's name (see [`Geometry::house_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseName {
    kind: HouseKind,
    ordinal: u8,
    grid: u8,
}

impl fmt::Display for HouseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.grid > 0 {
            write!(f, "grid {} ", self.grid)?;
        }
        write!(f, "{} {}", self.kind.name(), self.ordinal + 1)
    }
}

// ---------------------------------------------------------------------------------------
// The shapes.

/// Rows, columns and the nine boxes or regions of a 9x9 grid (`region[c]` is the zero-based
/// region of cell `c`; `None`: the 3x3 boxes).
fn grid9_houses(region: Option<&[u8; 81]>, out: &mut Vec<HouseSpec>) {
    out.clear();
    for i in 0..9u8 {
        out.push(HouseSpec {
            kind: HouseKind::Row,
            ordinal: i,
            grid: 0,
            cells: std::array::from_fn(|j| Cell::at(i, j as u8)),
        });
    }
    for i in 0..9u8 {
        out.push(HouseSpec {
            kind: HouseKind::Column,
            ordinal: i,
            grid: 0,
            cells: std::array::from_fn(|j| Cell::at(j as u8, i)),
        });
    }
    for i in 0..9u8 {
        let cells = match region {
            None => std::array::from_fn(|j| {
                let (r, c) = ((i / 3) * 3 + j as u8 / 3, (i % 3) * 3 + j as u8 % 3);
                Cell::at(r, c)
            }),
            Some(reg) => {
                let mut cells = [Cell::default(); 9];
                let mut n = 0;
                for (c, &r) in reg.iter().enumerate() {
                    if r == i && n < 9 {
                        cells[n] = Cell::new(c as u8);
                        n += 1;
                    }
                }
                cells
            }
        };
        out.push(HouseSpec {
            kind: if region.is_some() {
                HouseKind::Region
            } else {
                HouseKind::Box
            },
            ordinal: i,
            grid: 0,
            cells,
        });
    }
}

fn grid9_labels() -> [CellLabel; 81] {
    std::array::from_fn(|i| CellLabel {
        grid: 0,
        row: (i / 9) as u8,
        col: (i % 9) as u8,
    })
}

/// The top-left cells (zero-based row, column) of Windoku's four windows.
pub const WINDOWS: [(u8, u8); 4] = [(1, 1), (1, 5), (5, 1), (5, 5)];

impl Geometry<S81> {
    /// The classic 9x9 grid.
    pub fn new_classic() -> Geometry<S81> {
        let mut h = Vec::with_capacity(27);
        grid9_houses(None, &mut h);
        Geometry::build(Shape::Classic, &h, &grid9_labels())
    }

    /// X Sudoku: the classic houses and the two main diagonals (diagonal 1 from r1c1 to
    /// r9c9, diagonal 2 from r1c9 to r9c1).
    pub fn new_x() -> Geometry<S81> {
        let mut h = Vec::with_capacity(29);
        grid9_houses(None, &mut h);
        for d in 0..2u8 {
            h.push(HouseSpec {
                kind: HouseKind::Diagonal,
                ordinal: d,
                grid: 0,
                cells: std::array::from_fn(|i| {
                    let i = i as u8;
                    Cell::at(i, if d == 0 { i } else { 8 - i })
                }),
            });
        }
        Geometry::build(Shape::X, &h, &grid9_labels())
    }

    /// Windoku: the classic houses and four 3x3 windows with top-left cells r2c2, r2c6,
    /// r6c2, r6c6.
    pub fn new_windoku() -> Geometry<S81> {
        let mut h = Vec::with_capacity(31);
        grid9_houses(None, &mut h);
        for (w, &(r0, c0)) in WINDOWS.iter().enumerate() {
            h.push(HouseSpec {
                kind: HouseKind::Window,
                ordinal: w as u8,
                grid: 0,
                cells: std::array::from_fn(|i| Cell::at(r0 + i as u8 / 3, c0 + i as u8 % 3)),
            });
        }
        Geometry::build(Shape::Windoku, &h, &grid9_labels())
    }

    /// Jigsaw Sudoku with `regions[c]` the zero-based region (`0..9`) of cell `c`: nine
    /// regions of nine cells each (not necessarily connected).
    pub fn new_jigsaw(regions: &[u8; 81]) -> Result<Geometry<S81>, LayoutError> {
        let mut g = Geometry::empty(Shape::Jigsaw);
        g.set_regions(regions)?;
        Ok(g)
    }

    /// Makes this a Jigsaw geometry with `regions` (see [`Geometry::new_jigsaw`]), reusing
    /// the memory; on error the geometry is left unchanged.
    pub fn set_regions(&mut self, regions: &[u8; 81]) -> Result<(), LayoutError> {
        check_regions(regions)?;
        let mut h = Vec::with_capacity(27);
        grid9_houses(Some(regions), &mut h);
        self.rebuild(Shape::Jigsaw, &h, &grid9_labels());
        Ok(())
    }

    /// The zero-based region of each cell: boxes on the classic, X and Windoku shapes.
    pub fn regions(&self) -> [u8; 81] {
        let mut r = [0u8; 81];
        for h in self
            .houses
            .iter()
            .filter(|h| h.kind.is_block() && h.kind != HouseKind::Window)
        {
            for c in h.cells {
                r[c.index()] = h.ordinal;
            }
        }
        r
    }
}

/// Checks a Jigsaw layout: ids `0..9`, nine cells each.
pub fn check_regions(regions: &[u8; 81]) -> Result<(), LayoutError> {
    let mut count = [0u8; 9];
    for (c, &r) in regions.iter().enumerate() {
        if r >= 9 {
            return Err(LayoutError::BadId(Cell::new(c as u8)));
        }
        count[r as usize] += 1;
    }
    match count.iter().position(|&n| n != 9) {
        Some(r) => Err(LayoutError::RegionSize(r as u8, count[r])),
        None => Ok(()),
    }
}

impl Geometry<S369> {
    /// Samurai: five 9x9 grids, the centre one sharing a corner box with each other (the
    /// houses and cell names of [`crate::core::samurai`]).
    pub fn new_samurai() -> Geometry<S369> {
        use crate::core::samurai::{SamuraiCell, SamuraiHouse};
        let houses: Vec<HouseSpec> = SamuraiHouse::all()
            .map(|h| HouseSpec {
                kind: h.kind(),
                ordinal: h.ordinal(),
                grid: h.grid().number(),
                cells: h.cell_indices().map(|i| Cell::from_index(i as usize)),
            })
            .collect();
        let mut labels = [CellLabel::default(); 369];
        for c in SamuraiCell::all() {
            let (g, local) = c.primary();
            labels[c.index()] = CellLabel {
                grid: g.number(),
                row: local.row(),
                col: local.col(),
            };
        }
        Geometry::build(Shape::Samurai, &houses, &labels)
    }
}

/// The classic geometry, built once.
pub fn classic() -> &'static Geometry<S81> {
    static G: OnceLock<Geometry<S81>> = OnceLock::new();
    G.get_or_init(Geometry::new_classic)
}

/// The X geometry, built once.
pub fn x() -> &'static Geometry<S81> {
    static G: OnceLock<Geometry<S81>> = OnceLock::new();
    G.get_or_init(Geometry::new_x)
}

/// The Windoku geometry, built once.
pub fn windoku() -> &'static Geometry<S81> {
    static G: OnceLock<Geometry<S81>> = OnceLock::new();
    G.get_or_init(Geometry::new_windoku)
}

/// The Samurai geometry, built once.
pub fn samurai() -> &'static Geometry<S369> {
    static G: OnceLock<Geometry<S369>> = OnceLock::new();
    G.get_or_init(Geometry::new_samurai)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{HOUSE_SETS, PEERS};

    #[test]
    fn classic_matches_the_constant_tables() {
        let g = classic();
        assert_eq!(g.houses().len(), 27);
        for (h, d) in g.houses().iter().enumerate() {
            assert_eq!(d.set, HOUSE_SETS[h]);
        }
        for c in g.cells() {
            assert_eq!(g.peers(c), PEERS[c.index()]);
            let ids = g.cell_houses(c).ids();
            // Box, row, column (SE's cause order).
            assert_eq!(
                ids,
                [18 + c.box_index(), c.row(), 9 + c.col()].as_slice(),
                "{c}"
            );
            assert_eq!(g.cell_name(c).to_string(), c.to_string());
        }
        let bcr: Vec<u8> = (18..27).chain(9..18).chain(0..9).collect();
        assert_eq!(g.order_bcr(), bcr.as_slice());
        // SE's locking groups: (box, column), (box, row), (column, box), (row, box).
        let groups: Vec<&[(u8, u8)]> = g.lock_groups().collect();
        assert!(groups[..4].iter().all(|grp| grp.len() == 27));
        assert!(groups[4..].iter().all(|grp| grp.is_empty()));
        assert_eq!(groups[0][0], (18, 9));
        assert_eq!(groups[3][26], (8, 26));
        assert_eq!(g.fish_systems().len(), 1);
        assert_eq!(g.house_name(20).to_string(), "box 3");
    }

    #[test]
    fn extra_houses_of_x_and_windoku() {
        let x = x();
        assert_eq!(x.houses().len(), 29);
        assert_eq!(x.peers(Cell::at(4, 4)).len(), 20 + 12);
        assert_eq!(x.cell_houses(Cell::at(4, 4)).len(), 5);
        assert_eq!(x.house_name(28).to_string(), "diagonal 2");
        assert!(x.house_set(28).contains(Cell::at(0, 8)));
        let w = windoku();
        assert_eq!(w.houses().len(), 31);
        assert_eq!(w.house_name(27).to_string(), "window 1");
        assert!(w.house_set(30).contains(Cell::at(7, 7)));
        // A window meets four boxes, in four, two, two and one cells: pairs of two or more
        // lock, both ways.
        let block_block: usize = w.lock_groups().nth(6).map_or(0, |g| g.len());
        assert_eq!(block_block, 4 * 3 * 2);
    }

    #[test]
    fn jigsaw_with_boxes_is_classic_and_bad_layouts_say_why() {
        let boxes: [u8; 81] = std::array::from_fn(|c| Cell::new(c as u8).box_index());
        let j = Geometry::new_jigsaw(&boxes).expect("boxes are a layout");
        let c = classic();
        for h in 0..27 {
            assert_eq!(j.house_set(h), c.house_set(h));
        }
        assert_eq!(j.order_bcr(), c.order_bcr());
        assert!(j.lock_groups().eq(c.lock_groups()));
        assert_eq!(j.house_name(21).to_string(), "region 4");
        assert_eq!(j.regions(), boxes);
        let mut bad = boxes;
        bad[0] = 1;
        let e = Geometry::new_jigsaw(&bad).unwrap_err();
        assert_eq!(e.to_string(), "region 1 has 8 cells, not 9");
        bad[0] = 9;
        assert_eq!(
            Geometry::new_jigsaw(&bad).unwrap_err(),
            LayoutError::BadId(Cell::new(0))
        );
    }

    #[test]
    fn the_classic_houses_are_found_where_the_first_four_locking_groups_are_theirs() {
        let ids = classic().classic_houses().copied();
        let expected = ClassicHouses {
            rows: std::array::from_fn(|i| i as u8),
            cols: std::array::from_fn(|i| 9 + i as u8),
            boxes: std::array::from_fn(|i| 18 + i as u8),
        };
        assert_eq!(ids, Some(expected));
        // X adds its diagonals' groups after the four; Windoku's windows join them.
        assert_eq!(x().classic_houses().copied(), Some(expected));
        assert_eq!(windoku().classic_houses(), None);
        assert_eq!(samurai().classic_houses(), None);
        let mut regions: [u8; 81] = std::array::from_fn(|c| Cell::new(c as u8).box_index());
        let boxes = Geometry::new_jigsaw(&regions).expect("boxes are a layout");
        assert_eq!(boxes.classic_houses().copied(), Some(expected));
        // Regions 1 and 2 trade r1c3 and r1c4.
        regions.swap(2, 3);
        let jigsaw = Geometry::new_jigsaw(&regions).expect("a layout");
        assert_eq!(jigsaw.classic_houses(), None);
    }

    #[test]
    fn samurai_has_131_houses_and_five_fish_systems() {
        let s = samurai();
        assert_eq!(s.houses().len(), 131);
        assert_eq!(s.fish_systems().len(), 5);
        assert_eq!(s.all_cells().len(), 369);
        let shared = s.cells().filter(|&c| s.cell_houses(c).len() == 5).count();
        assert_eq!(shared, 36);
        assert!(s.cells().all(|c| s.peers(c).len() >= 20));
        assert_eq!(s.cell_name(Cell::from_index(0)).to_string(), "g1r1c1");
    }

    /// The runs of [`Geometry::lock_runs`] are the locking groups cut where the first house
    /// changes, and each first house has one run per group.
    fn runs_cut_the_lock_groups<S: Size>(g: &Geometry<S>) -> usize {
        let mut runs_seen = 0;
        for (group, runs) in g.lock_groups().zip(g.lock_runs()) {
            let joined: Vec<(u8, u8)> = runs
                .iter()
                .flat_map(|r| g.lock_run_pairs(r).iter().copied())
                .collect();
            assert_eq!(joined, group);
            for r in runs {
                assert!(!g.lock_run_pairs(r).is_empty());
                assert!(g.lock_run_pairs(r).iter().all(|&(a, _)| a == r.first));
            }
            assert!(runs.windows(2).all(|w| w[0].first < w[1].first));
            runs_seen += runs.len();
        }
        assert_eq!(g.lock_groups().count(), g.lock_runs().count());
        runs_seen
    }

    #[test]
    fn lock_runs_group_the_pairs_by_first_house() {
        // Classic: each box meets three rows and three columns, each line three boxes.
        assert_eq!(runs_cut_the_lock_groups(classic()), 4 * 9);
        assert!(runs_cut_the_lock_groups(x()) > 4 * 9);
        assert!(runs_cut_the_lock_groups(windoku()) > 4 * 9);
        assert!(runs_cut_the_lock_groups(samurai()) > 5 * 4 * 9);
    }
}
