//! The exact samurai solver: naked and hidden singles and locked candidates at every node
//! over all five grids, copy-on-branch depth-first search on the cell with the fewest
//! candidates, and solution counting up to a limit. Same API shape as the classic
//! [`crate::core::Solver`].
//!
//! The state keeps one bit plane per digit over the whole 21x21 layout, cut into seven
//! *band words*: word `b` holds layout rows `3b..3b+3`, 21 bits per row. Every cell has
//! exactly one bit (a shared cell is not duplicated, so nothing needs syncing between grids),
//! every box and every grid row lies inside one word, and a grid column is the same bit in
//! three consecutive words.
//!
//! ```text
//! word b (u64):  bit 63 | 62 ........ 42 | 41 ........ 21 | 20 ......... 0
//!                  0    | row 3b+2, c20..c0 | row 3b+1     | row 3b, c20..c0
//!
//! plane[d][b]  bit set  <=>  digit d+1 may still stand in that cell
//! unsolved[b]  bit set  <=>  the cell has no digit yet
//! ```
//!
//! Gap positions (outside the five grids) are never set. As in the classic solver, a plane
//! keeps the cells already solved with its digit, so the solution is read off the planes.
//! Branching copies the whole state (1064 bytes); nothing is allocated.
//!
//! Locked candidates (pointing and claiming, along rows and columns) are worked out for a
//! whole band word with shifts and masks, with no branch per box or row: in a typical
//! search most boxes and rows that qualify have nothing left to remove, and a loop over
//! them spent its time on mispredicted branches (this made the solver about 1.4 times as
//! fast on generated puzzles).

// Index loops over parallel band-word arrays read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use rand::Rng;

use super::{SamuraiCell, SamuraiGrid};
use crate::core::cancel::Cancel;
use crate::core::generator::rng::below;
use crate::core::index::Digit;

/// Band words per plane.
const W: usize = 7;
/// Three layout rows' worth of column lanes: bits 0, 21 and 42.
const LANES3: u64 = 1 | 1 << 21 | 1 << 42;
/// The low 21 bits (one layout row).
const ROW21: u64 = (1 << 21) - 1;

/// What a solve found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SamuraiOutcome {
    /// Solutions found, capped at the limit that was asked for.
    pub count: u32,
    /// The first solution found (meaningful when `count > 0`).
    pub solution: SamuraiGrid,
    /// Branching decisions made: every candidate tried at a branching cell except the last
    /// one left, which is forced.
    pub guesses: u64,
}

/// Per position, whether it has at least one, two, three and four candidates.
struct Counts {
    one: [u64; W],
    two: [u64; W],
    three: [u64; W],
    four: [u64; W],
}

/// The search state that is copied on every branch.
#[derive(Clone, Copy)]
struct State {
    planes: [[u64; W]; 9],
    unsolved: [u64; W],
    /// Per digit, the plane as it was when its hidden singles and locked candidates were
    /// last found complete: a band word equal to it needs no new look (planes only lose
    /// bits).
    seen: [[u64; W]; 9],
}

const _: () = assert!(
    std::mem::size_of::<State>() == 1064,
    "State is meant to stay 1064 bytes"
);

/// Bit position (`word * 64 + bit`) of a layout cell.
const fn pos_of(row: usize, col: usize) -> usize {
    (row / 3) * 64 + (row % 3) * 21 + col
}

/// In each of a word's three rows, the first bit of each of the seven 3-column segments.
const SEG_STARTS: u64 = BOX_COLS | BOX_COLS << 21 | BOX_COLS << 42;
/// The first bit of each 3-column segment of one row (bits 0, 3, ..., 18).
const BOX_COLS: u64 = 0b001_001_001_001_001_001_001;

struct Tables {
    /// Position of each of the 369 cells.
    pos: [u16; 369],
    /// Cell at each position (`u16::MAX` in gaps).
    cell: [u16; W * 64],
    /// Peers of the cell at each position (the cell itself excluded).
    peers: [[u64; W]; W * 64],
    /// All cells.
    all: [u64; W],
    /// The cells of each grid that lie in no other grid.
    interior: [[u64; W]; 5],
    /// The cells of each grid that it shares with another grid.
    boundary: [[u64; W]; 5],
    /// The 36 shared cells.
    shared: [u64; W],
    /// The centre grid.
    centre: [u64; W],
    /// Per word, a bit at `21 * r + 3 * bc` for each grid row in row `r` of the word whose
    /// first box column is `bc`.
    row_starts: [u64; W],
    /// Per word, a bit at `3 * bc` for each box column `bc` (`0..7`) that holds a box.
    boxes: [u64; W],
    /// Pointing along a column: `col_lanes[w][i]` holds lane `c` when a grid column through
    /// layout column `c` in word `w` also crosses word `i != w`.
    col_lanes: [[u64; W]; W],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        pos: [0; 369],
        cell: [u16::MAX; W * 64],
        peers: [[0; W]; W * 64],
        all: [0; W],
        interior: [[0; W]; 5],
        boundary: [[0; W]; 5],
        shared: [0; W],
        centre: [0; W],
        row_starts: [0; W],
        boxes: [0; W],
        col_lanes: [[0; W]; W],
    };
    let mut i = 0;
    while i < 369 {
        let c = super::SamuraiCell::new(i as u16);
        let p = pos_of(c.layout_row(), c.layout_col());
        t.pos[i] = p as u16;
        t.cell[p] = i as u16;
        t.all[p / 64] |= 1 << (p % 64);
        i += 1;
    }
    // House masks; peers are the union of a cell's houses.
    let mut masks = [[0u64; W]; 131];
    let mut h = 0;
    while h < 131 {
        let cells = super::HOUSE_CELLS[h];
        let mut j = 0;
        while j < 9 {
            let p = t.pos[cells[j] as usize] as usize;
            masks[h][p / 64] |= 1 << (p % 64);
            j += 1;
        }
        let mut j = 0;
        while j < 9 {
            let p = t.pos[cells[j] as usize] as usize;
            let mut w = 0;
            while w < W {
                t.peers[p][w] |= masks[h][w];
                w += 1;
            }
            j += 1;
        }
        h += 1;
    }
    let mut p = 0;
    while p < W * 64 {
        t.peers[p][p / 64] &= !(1 << (p % 64));
        p += 1;
    }
    // Per word: where its grid rows and boxes start.
    let mut nrows = 0;
    let mut w = 0;
    while w < W {
        let mut h = 0;
        while h < 131 {
            let first = super::HOUSE_CELLS[h][0] as usize;
            let (lr, lc) = (
                super::CELL_RC[first].0 as usize,
                super::CELL_RC[first].1 as usize,
            );
            let kind = super::HOUSE_INFO[h].1;
            if kind != 1 && lr / 3 == w {
                let r = lr % 3;
                let bc0 = lc / 3;
                if kind == 0 {
                    t.row_starts[w] |= 1 << (21 * r + 3 * bc0);
                    nrows += 1;
                } else {
                    t.boxes[w] |= 1 << (3 * bc0);
                }
            }
            if kind == 1 && w == 0 {
                // A column spans three words; for each, the other two.
                let b0 = lr / 3;
                let mut k = b0;
                while k < b0 + 3 {
                    let mut i = 0;
                    while i < W {
                        if i != k && masks[h][i] != 0 {
                            t.col_lanes[k][i] |= 1 << lc;
                        }
                        i += 1;
                    }
                    k += 1;
                }
            }
            h += 1;
        }
        w += 1;
    }
    assert!(nrows == 45);
    let mut g = 0;
    while g < 5 {
        let mut i = 0;
        while i < 81 {
            let c = super::GRID_CELLS[g][i] as usize;
            let p = t.pos[c] as usize;
            let bit = 1u64 << (p % 64);
            if g == 2 {
                t.centre[p / 64] |= bit;
            }
            if super::CELL_GRIDS[c][1].0 == super::NO_GRID {
                t.interior[g][p / 64] |= bit;
            } else {
                t.boundary[g][p / 64] |= bit;
                t.shared[p / 64] |= bit;
            }
            i += 1;
        }
        g += 1;
    }
    t
}

static T: Tables = build_tables();

/// Column blocks: (first band word, the 21-bit lanes of the layout columns whose grid columns
/// span exactly these three words). Grids 1 and 2 span words 0-2, grid 3 words 2-4, grids 4
/// and 5 words 4-6.
const COLUMN_BLOCKS: [(usize, u64); 3] = [
    (0, 0x1ff | 0x1ff << 12),
    (2, 0x1ff << 6),
    (4, 0x1ff | 0x1ff << 12),
];

/// The lanes set in exactly one of `a`, `b`, `c`.
#[inline]
fn exactly_one(a: u64, b: u64, c: u64) -> u64 {
    (a | b | c) & !((a & b) | (a & c) | (b & c))
}

impl State {
    /// Never equal to a plane word (bit 63 is never set), so every word starts out unseen.
    const UNSEEN: [[u64; W]; 9] = [[u64::MAX; W]; 9];

    const START: State = State {
        planes: [T.all; 9],
        unsolved: T.all,
        seen: State::UNSEEN,
    };

    /// Puts digit index `d` at position `p`. Returns false if `d` is not possible there.
    #[inline]
    fn place(&mut self, p: usize, d: usize) -> bool {
        let (w, bit) = (p / 64, 1u64 << (p % 64));
        if self.planes[d][w] & bit == 0 {
            return false;
        }
        for plane in self.planes.iter_mut() {
            plane[w] &= !bit;
        }
        let peers = &T.peers[p];
        let plane = &mut self.planes[d];
        for i in 0..W {
            plane[i] &= !peers[i];
        }
        plane[w] |= bit;
        self.unsolved[w] &= !bit;
        true
    }

    /// Puts digit index `d` at position `p`, whose only candidate it is (so no other plane
    /// holds the cell).
    #[inline]
    fn place_single(&mut self, p: usize, d: usize) {
        let (w, bit) = (p / 64, 1u64 << (p % 64));
        let peers = &T.peers[p];
        let plane = &mut self.planes[d];
        for i in 0..W {
            plane[i] &= !peers[i];
        }
        self.unsolved[w] &= !bit;
    }

    /// Applies naked singles, hidden singles and locked candidates until nothing changes.
    /// Returns false on a contradiction (a cell with no candidate, or a digit with no place
    /// in a house).
    fn propagate(&mut self) -> bool {
        self.propagate_with(true)
    }

    fn propagate_with(&mut self, locked: bool) -> bool {
        loop {
            if !self.naked_singles() {
                return false;
            }
            if self.is_solved() {
                return true;
            }
            match self.singles_and_locked(locked) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Places naked singles until there are none. False on a contradiction.
    #[inline(never)]
    fn naked_singles(&mut self) -> bool {
        loop {
            // Bit-sliced candidate counting over the nine planes.
            let mut one = [0u64; W];
            let mut two = [0u64; W];
            for plane in &self.planes {
                for i in 0..W {
                    two[i] |= one[i] & plane[i];
                    one[i] |= plane[i];
                }
            }
            // Words holding a single, as a bit mask.
            let mut words = 0u32;
            let mut empty = 0u64;
            let mut singles = [0u64; W];
            for i in 0..W {
                empty |= self.unsolved[i] & !one[i];
                singles[i] = self.unsolved[i] & one[i] & !two[i];
                words |= u32::from(singles[i] != 0) << i;
            }
            if empty != 0 {
                return false;
            }
            if words == 0 {
                return true;
            }
            while words != 0 {
                let w = words.trailing_zeros() as usize;
                words &= words - 1;
                let s = singles[w];
                // The digit index of a single, bit by bit: a single has one plane only.
                let pl = |d: usize| self.planes[d][w];
                let bit0 = pl(1) | pl(3) | pl(5) | pl(7);
                let bit1 = pl(2) | pl(3) | pl(6) | pl(7);
                let bit2 = pl(4) | pl(5) | pl(6) | pl(7);
                let bit3 = pl(8);
                let mut s = s;
                while s != 0 {
                    let b = s.trailing_zeros();
                    s &= s - 1;
                    let d = ((bit0 >> b & 1)
                        | (bit1 >> b & 1) << 1
                        | (bit2 >> b & 1) << 2
                        | (bit3 >> b & 1) << 3) as usize;
                    // A single placed earlier in this sweep may have emptied this cell.
                    if self.planes[d][w] >> b & 1 == 0 {
                        return false;
                    }
                    self.place_single(w * 64 + b as usize, d);
                }
            }
        }
    }

    /// The band words of digit `d` that changed since `seen`, as a bit mask.
    #[inline]
    fn dirty(&self, d: usize, seen: &[[u64; W]; 9]) -> u32 {
        let mut m = 0;
        for w in 0..W {
            if self.planes[d][w] != seen[d][w] {
                m |= 1 << w;
            }
        }
        m
    }

    /// Hidden singles and (with `locked`) locked candidates, digit by digit, looking only at
    /// band words that changed since the digit was last found complete. `None` on a
    /// contradiction, else whether anything was placed or removed.
    ///
    /// Everything works on flags per 3-cell row segment of a word (bit at the segment's
    /// first cell): `a` = holds a candidate, `m` = holds two or more. A box is three
    /// segments 21 bits apart, a grid row three segments 3 bits apart; a column's lane
    /// (21 bits per word) is folded over the nine rows of its three words. Solved cells count
    /// as candidates of their digit, so a house holding its digit has exactly one and is
    /// skipped by the locked rules (which need two or more).
    #[inline(never)]
    fn singles_and_locked(&mut self, locked: bool) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            let dirty = self.dirty(d, &self.seen);
            if dirty == 0 {
                continue;
            }
            let before = self.planes[d];
            let mut placed = false;
            let mut dw = dirty;
            while dw != 0 {
                let w = dw.trailing_zeros() as usize;
                dw &= dw - 1;
                let x = self.planes[d][w];
                let (x1, x2) = (x >> 1, x >> 2);
                let a = (x | x1 | x2) & SEG_STARTS;
                let m = ((x & x1) | (x & x2) | (x1 & x2)) & SEG_STARTS;
                // Boxes: the three segments of a box are 21 bits apart.
                let (f0, f1, f2) = (a & BOX_COLS, (a >> 21) & BOX_COLS, a >> 42);
                let box_any = f0 | f1 | f2;
                let box_multi =
                    ((m | m >> 21 | m >> 42) & BOX_COLS) | (f0 & f1) | (f0 & f2) | (f1 & f2);
                let boxes = T.boxes[w];
                // Grid rows: the three segments of a row are 3 bits apart.
                let (a3, a6) = (a >> 3, a >> 6);
                let row_any = a | a3 | a6;
                let row_multi = m | m >> 3 | m >> 6 | (a & a3) | (a & a6) | (a3 & a6);
                let rows = T.row_starts[w];
                if (boxes & !box_any) | (rows & !row_any) != 0 {
                    return None;
                }
                let box_single = box_any & !box_multi & boxes;
                let row_single = row_any & !row_multi & rows;
                if box_single | row_single != 0 {
                    // Back from flags to cells (grid rows may overlap: no multiplication).
                    let r3 = row_single | row_single << 3 | row_single << 6;
                    let spread = (box_single * (7 * LANES3)) | r3 | r3 << 1 | r3 << 2;
                    let mut s = x & spread & self.unsolved[w];
                    while s != 0 {
                        let b = s.trailing_zeros() as usize;
                        s &= s - 1;
                        // Two singles may clash (one box, one row): the second fails.
                        if !self.place(w * 64 + b, d) {
                            return None;
                        }
                        placed = true;
                    }
                }
                if !locked {
                    continue;
                }
                // Every locked-candidate rule below is worked out for the whole word at once,
                // with no branch per firing: most boxes and rows that qualify have nothing
                // left to remove, and a loop over them mispredicts.
                //
                // Pointing along a row: a box whose candidates lie in one of its rows clears
                // the rest of every grid row through that segment. Two such segments in one
                // grid row leave the digit no place in one of the boxes.
                let one = exactly_one(f0, f1, f2) & box_multi & boxes;
                let p = (one & f0) | (one & f1) << 21 | (one & f2) << 42;
                let (p3, p6) = (p >> 3, p >> 6);
                let hit = (p | p3 | p6) & rows;
                // Claiming from a row: a grid row whose candidates lie in one box clears the
                // rest of that box. Two such rows into one box are a contradiction.
                let one = exactly_one(a, a3, a6) & row_multi & rows;
                let q = (one & a) | (one & a3) << 3 | (one & a6) << 6;
                let (q0, q1, q2) = (q & BOX_COLS, (q >> 21) & BOX_COLS, q >> 42);
                if (((p & p3) | (p & p6) | (p3 & p6)) & rows) | (q0 & q1) | (q0 & q2) | (q1 & q2)
                    != 0
                {
                    return None;
                }
                let h3 = hit | hit << 3 | hit << 6;
                let row_elim = (h3 | h3 << 1 | h3 << 2) & !(p | p << 1 | p << 2);
                let box_elim = ((q0 | q1 | q2) * (7 * LANES3)) & !(q | q << 1 | q << 2);
                self.planes[d][w] &= !(row_elim | box_elim);
                // Pointing along a column: a box whose candidates lie in one of its columns
                // clears the rest of the grid column(s) through it, in the other words.
                let z = (x | x >> 21 | x >> 42) & ROW21;
                let (c0, c1, c2) = (z & BOX_COLS, (z >> 1) & BOX_COLS, (z >> 2) & BOX_COLS);
                let one = exactly_one(c0, c1, c2) & box_multi & boxes;
                let pc = (one & c0) | (one & c1) << 1 | (one & c2) << 2;
                let lanes = &T.col_lanes[w];
                for i in 0..W {
                    self.planes[d][i] &= !((pc & lanes[i]) * LANES3);
                }
            }
            for &(b0, lanes) in COLUMN_BLOCKS.iter() {
                if dirty & (7 << b0) == 0 {
                    continue;
                }
                // Per word: lanes holding a candidate, and holding two or more.
                let mut fa = [0u64; 3];
                let mut fm = [0u64; 3];
                for k in 0..3 {
                    let x = self.planes[d][b0 + k];
                    let (x1, x2) = (x >> 21, x >> 42);
                    fa[k] = (x | x1 | x2) & ROW21;
                    fm[k] = ((x & x1) | (x & x2) | (x1 & x2)) & ROW21;
                }
                let any = fa[0] | fa[1] | fa[2];
                let multi =
                    fm[0] | fm[1] | fm[2] | (fa[0] & fa[1]) | (fa[0] & fa[2]) | (fa[1] & fa[2]);
                if lanes & !any != 0 {
                    return None;
                }
                let e = any & !multi & lanes;
                if e != 0 {
                    let spread = e * LANES3;
                    for w in b0..b0 + 3 {
                        let mut s = self.planes[d][w] & spread & self.unsolved[w];
                        while s != 0 {
                            let b = s.trailing_zeros() as usize;
                            s &= s - 1;
                            if !self.place(w * 64 + b, d) {
                                return None;
                            }
                            placed = true;
                        }
                    }
                }
                if locked {
                    // Claiming from a column: a grid column whose candidates lie in one box
                    // clears the rest of that box; two such columns into one box are a
                    // contradiction.
                    let one = exactly_one(fa[0], fa[1], fa[2]) & multi & lanes;
                    for k in 0..3 {
                        let cc = one & fa[k];
                        let (l0, l1, l2) =
                            (cc & BOX_COLS, (cc >> 1) & BOX_COLS, (cc >> 2) & BOX_COLS);
                        if (l0 & l1) | (l0 & l2) | (l1 & l2) != 0 {
                            return None;
                        }
                        let elim = ((l0 | l1 | l2) * (7 * LANES3)) & !(cc * LANES3);
                        self.planes[d][b0 + k] &= !elim;
                    }
                }
            }
            // Words that came through unchanged were looked at in their current state.
            let mut diff = 0u64;
            for w in 0..W {
                let x = self.planes[d][w] ^ before[w];
                diff |= x;
                let same = u64::from(x == 0).wrapping_neg();
                self.seen[d][w] = (before[w] & same) | (self.seen[d][w] & !same);
            }
            changed |= placed || diff != 0;
        }
        Some(changed)
    }

    /// Candidate counts of every position, for [`State::branch_in`].
    fn counts(&self) -> Counts {
        // Saturating counters: cells with exactly two or three candidates are found without a
        // scan.
        let mut c = Counts {
            one: [0; W],
            two: [0; W],
            three: [0; W],
            four: [0; W],
        };
        for plane in &self.planes {
            for i in 0..W {
                c.four[i] |= c.three[i] & plane[i];
                c.three[i] |= c.two[i] & plane[i];
                c.two[i] |= c.one[i] & plane[i];
                c.one[i] |= plane[i];
            }
        }
        c
    }

    /// Among the unsolved positions in `mask`, the one with the fewest candidates (the first
    /// such in position order), and its candidates as a digit mask; `None` if `mask` holds no
    /// unsolved position. `counts` are this state's [`State::counts`].
    fn branch_in(&self, counts: &Counts, mask: &[u64; W]) -> Option<(usize, u16)> {
        let Counts {
            two, three, four, ..
        } = counts;
        let pick = |p: usize| -> u16 {
            let (w, bit) = (p / 64, 1u64 << (p % 64));
            let mut m = 0u16;
            for (d, plane) in self.planes.iter().enumerate() {
                if plane[w] & bit != 0 {
                    m |= 1 << d;
                }
            }
            m
        };
        for i in 0..W {
            let s = self.unsolved[i] & mask[i] & two[i] & !three[i];
            if s != 0 {
                let p = i * 64 + s.trailing_zeros() as usize;
                return Some((p, pick(p)));
            }
        }
        for i in 0..W {
            let s = self.unsolved[i] & mask[i] & three[i] & !four[i];
            if s != 0 {
                let p = i * 64 + s.trailing_zeros() as usize;
                return Some((p, pick(p)));
            }
        }
        let mut best: Option<(usize, u16)> = None;
        let mut best_n = u32::MAX;
        for i in 0..W {
            let mut s = self.unsolved[i] & mask[i];
            while s != 0 {
                let p = i * 64 + s.trailing_zeros() as usize;
                s &= s - 1;
                let m = pick(p);
                if m.count_ones() < best_n {
                    best = Some((p, m));
                    best_n = m.count_ones();
                }
            }
        }
        best
    }

    /// True when some position in `mask` is unsolved.
    #[inline]
    fn any_unsolved(&self, mask: &[u64; W]) -> bool {
        (0..W).any(|i| self.unsolved[i] & mask[i] != 0)
    }

    fn is_solved(&self) -> bool {
        self.unsolved.iter().all(|&u| u == 0)
    }

    fn to_grid(self) -> SamuraiGrid {
        let mut v = [0u8; 369];
        for (d, plane) in self.planes.iter().enumerate() {
            for (w, &x) in plane.iter().enumerate() {
                let mut s = x;
                while s != 0 {
                    let p = w * 64 + s.trailing_zeros() as usize;
                    s &= s - 1;
                    v[T.cell[p] as usize] = d as u8 + 1;
                }
            }
        }
        SamuraiGrid::from_values(v).unwrap_or_default()
    }
}

/// The exact samurai solver. It holds no heap memory; keep one per worker and reuse it.
#[derive(Clone)]
pub struct SamuraiSolver {
    limit: u32,
    count: u32,
    guesses: u64,
    solution: SamuraiGrid,
    sub_count: u32,
    sub_first: State,
    cancel: Cancel,
}

impl Default for SamuraiSolver {
    fn default() -> Self {
        SamuraiSolver {
            limit: 1,
            count: 0,
            guesses: 0,
            solution: SamuraiGrid::EMPTY,
            sub_count: 0,
            sub_first: State::START,
            cancel: Cancel::NEVER,
        }
    }
}

impl std::fmt::Debug for SamuraiSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SamuraiSolver").finish_non_exhaustive()
    }
}

impl SamuraiSolver {
    /// A solver ready to use.
    pub fn new() -> SamuraiSolver {
        SamuraiSolver::default()
    }

    /// Makes every later search give up soon after `cancel` is set (its count is then
    /// partial: throw it away).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// Counts a guess of [`SamuraiSolver::search`] or [`SamuraiSolver::search_grid`]; on a
    /// stop request, a limit of 0 makes every pending search return at once.
    #[inline]
    fn count_guess(&mut self) {
        self.guesses += 1;
        if self.cancel.requested_at(self.guesses) {
            self.limit = 0;
        }
    }

    /// Solves `puzzle`, counting solutions up to `limit` (at least 1), and writes what it
    /// found into `out`. Givens that break a rule give a count of 0; call
    /// [`SamuraiGrid::check_givens`] first to learn why.
    pub fn solve_into(&mut self, puzzle: &SamuraiGrid, limit: u32, out: &mut SamuraiOutcome) {
        self.solve_excluding_into(puzzle, &[], limit, out);
    }

    /// Like [`SamuraiSolver::solve_into`], but first removes each `(cell, digit)` in
    /// `excluded` from the candidates. A unique puzzle stays unique without the clue at
    /// `cell` exactly when the puzzle minus that clue, excluding the clue's digit at `cell`,
    /// has no solution.
    pub fn solve_excluding_into(
        &mut self,
        puzzle: &SamuraiGrid,
        excluded: &[(SamuraiCell, Digit)],
        limit: u32,
        out: &mut SamuraiOutcome,
    ) {
        self.limit = limit.max(1);
        self.count = 0;
        self.guesses = 0;
        self.solution = SamuraiGrid::EMPTY;
        if let Some(state) = Self::start(puzzle, excluded) {
            self.search(state, 1);
        }
        out.count = self.count;
        out.solution = self.solution;
        out.guesses = self.guesses;
    }

    /// Convenience wrapper around [`SamuraiSolver::solve_into`].
    pub fn solve(&mut self, puzzle: &SamuraiGrid, limit: u32) -> SamuraiOutcome {
        let mut out = SamuraiOutcome::default();
        self.solve_into(puzzle, limit, &mut out);
        out
    }

    /// A random complete samurai grid that agrees with `puzzle`'s givens (pass
    /// [`SamuraiGrid::EMPTY`] for a free one), found by depth-first search that tries the
    /// candidates of each branching cell in random order. `None` when `puzzle` has no
    /// solution. The same generator state gives the same grid.
    pub fn random_solution<R: Rng>(
        &mut self,
        puzzle: &SamuraiGrid,
        rng: &mut R,
    ) -> Option<SamuraiGrid> {
        self.guesses = 0;
        let state = Self::start(puzzle, &[])?;
        self.search_random(state, rng).map(State::to_grid)
    }

    fn start(puzzle: &SamuraiGrid, excluded: &[(SamuraiCell, Digit)]) -> Option<State> {
        let mut state = State::START;
        for (c, &v) in puzzle.values().iter().enumerate() {
            if v != 0 && !state.place(T.pos[c] as usize, v as usize - 1) {
                return None;
            }
        }
        for &(c, d) in excluded {
            let p = T.pos[c.index()] as usize;
            state.planes[d.index()][p / 64] &= !(1u64 << (p % 64));
        }
        Some(state)
    }

    /// Counts the solutions below `state`, each standing for `mult` solutions of the whole
    /// puzzle (the product of the counts of grids already split off as independent).
    fn search(&mut self, mut state: State, mut mult: u32) {
        if !state.propagate() {
            return;
        }
        // A grid whose shared cells are all solved no longer interacts with the others: count
        // its completions on their own, keep the first, and multiply.
        for g in 0..5 {
            if state.any_unsolved(&T.interior[g]) && !state.any_unsolved(&T.boundary[g]) {
                self.sub_count = 0;
                self.search_grid(state, g);
                if self.sub_count == 0 {
                    return;
                }
                mult = mult.saturating_mul(self.sub_count).min(self.limit);
                state = self.sub_first;
            }
        }
        if state.is_solved() {
            if self.count == 0 {
                self.solution = state.to_grid();
            }
            self.count = self.count.saturating_add(mult).min(self.limit);
            return;
        }
        // Branch on a shared cell with the fewest candidates; among those, one next to the
        // corner grid with the fewest open cells, whose split-off is nearest.
        let mut choice = None;
        let counts = state.counts();
        if let Some((_, m)) = state.branch_in(&counts, &T.shared) {
            let want = m.count_ones();
            let mut best = u32::MAX;
            for k in [0usize, 1, 3, 4] {
                if !state.any_unsolved(&T.boundary[k]) {
                    continue;
                }
                let left: u32 = (0..W)
                    .map(|i| (state.unsolved[i] & T.interior[k][i]).count_ones())
                    .sum();
                if left >= best {
                    continue;
                }
                if let Some((p2, m2)) = state.branch_in(&counts, &T.boundary[k])
                    && m2.count_ones() == want
                {
                    best = left;
                    choice = Some((p2, m2));
                }
            }
        }
        let Some((p, mut digits)) = choice.or_else(|| state.branch_in(&counts, &T.all)) else {
            return;
        };
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // Last alternative: forced, not a guess; reuse this frame's state.
                state.place(p, d);
                self.search(state, mult);
                return;
            }
            self.count_guess();
            let mut next = state;
            next.place(p, d);
            self.search(next, mult);
            if self.count >= self.limit {
                return;
            }
        }
    }

    /// Counts the completions of grid `g`'s interior below `state` (whose shared cells of
    /// `g` are solved) into `sub_count`, up to the limit, keeping the first in `sub_first`.
    fn search_grid(&mut self, mut state: State, g: usize) {
        if !state.propagate_with(false) {
            return;
        }
        let Some((p, mut digits)) = state.branch_in(&state.counts(), &T.interior[g]) else {
            if self.sub_count == 0 {
                self.sub_first = state;
            }
            self.sub_count += 1;
            return;
        };
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                state.place(p, d);
                self.search_grid(state, g);
                return;
            }
            self.count_guess();
            let mut next = state;
            next.place(p, d);
            self.search_grid(next, g);
            if self.sub_count >= self.limit {
                return;
            }
        }
    }

    fn search_random<R: Rng>(&mut self, mut state: State, rng: &mut R) -> Option<State> {
        if !state.propagate() {
            return None;
        }
        if state.is_solved() {
            return Some(state);
        }
        let counts = state.counts();
        let (p, mut digits) = state
            .branch_in(&counts, &T.shared)
            .or_else(|| state.branch_in(&counts, &T.centre))
            .or_else(|| state.branch_in(&counts, &T.all))?;
        while digits != 0 {
            // Pick one of the remaining candidates uniformly.
            let k = below(rng, digits.count_ones());
            let mut m = digits;
            for _ in 0..k {
                m &= m - 1;
            }
            let d = m.trailing_zeros() as usize;
            digits &= !(1 << d);
            self.guesses += 1;
            let mut next = state;
            next.place(p, d);
            if let Some(done) = self.search_random(next, rng) {
                return Some(done);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn tables_place_every_cell_once() {
        let mut n = 0;
        for w in T.all {
            n += w.count_ones();
        }
        assert_eq!(n, 369);
        for c in SamuraiCell::all() {
            let p = T.pos[c.index()] as usize;
            let peers: u32 = T.peers[p].iter().map(|w| w.count_ones()).sum();
            assert_eq!(peers, if c.is_shared() { 20 + 20 - 8 } else { 20 }, "{c}");
        }
    }

    #[test]
    fn empty_grid_has_many_solutions_and_the_limit_caps_the_count() {
        let mut s = SamuraiSolver::new();
        let out = s.solve(&SamuraiGrid::EMPTY, 3);
        assert_eq!(out.count, 3);
        assert!(out.solution.is_solution_of(&SamuraiGrid::EMPTY));
    }

    #[test]
    fn random_solutions_are_valid_and_reproducible() {
        let mut s = SamuraiSolver::new();
        let mut a = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut b = Xoshiro256PlusPlus::seed_from_u64(5);
        let ga = s.random_solution(&SamuraiGrid::EMPTY, &mut a).unwrap();
        let gb = s.random_solution(&SamuraiGrid::EMPTY, &mut b).unwrap();
        assert_eq!(ga, gb);
        assert!(ga.is_solution_of(&SamuraiGrid::EMPTY));
        let gc = s.random_solution(&SamuraiGrid::EMPTY, &mut a).unwrap();
        assert_ne!(ga, gc);
        assert!(gc.is_solution_of(&SamuraiGrid::EMPTY));
    }

    #[test]
    fn a_full_grid_is_its_own_unique_solution_and_exclusion_removes_it() {
        let mut s = SamuraiSolver::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let full = s.random_solution(&SamuraiGrid::EMPTY, &mut rng).unwrap();
        let out = s.solve(&full, 2);
        assert_eq!((out.count, out.guesses), (1, 0));
        assert_eq!(out.solution, full);
        // Remove one clue: still unique (a single hole is always forced).
        let c = SamuraiCell::new(200);
        let d = full.digit(c).unwrap();
        let mut p = full;
        p.set(c, None);
        assert_eq!(s.solve(&p, 2).count, 1);
        let mut out = SamuraiOutcome::default();
        s.solve_excluding_into(&p, &[(c, d)], 2, &mut out);
        assert_eq!(out.count, 0);
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut g = SamuraiGrid::EMPTY;
        g.set(SamuraiCell::new(0), Some(Digit::new(5)));
        g.set(SamuraiCell::new(1), Some(Digit::new(5)));
        assert_eq!(SamuraiSolver::new().solve(&g, 2).count, 0);
    }
}
