//! Human solving techniques on the samurai geometry, and the grader that applies them.
//!
//! The techniques are those of Sudoku Explainer 1.2.1 (SE) up to fish and subsets, with SE's
//! ratings: singles ([`singles`]), locked candidates ([`intersections`]), naked and hidden
//! subsets ([`subsets`]) and X-wing / swordfish / jellyfish ([`fish`]). They work on all five
//! grids at once: a house is any of the 131 distinct houses, so a shared box takes part in
//! the rows and columns of both its grids. Fish are looked for inside each grid (rows against
//! columns of the same grid).
//!
//! The grader never guesses. Like SE, it repeatedly takes the first step the simplest
//! technique offers, trying the techniques in SE's order (see [`SamuraiTechnique`]), and
//! rates the puzzle by the hardest step it needed: ER over the whole solve, EP up to the first
//! placed digit, ED for the first step. When none of these techniques makes progress, the
//! puzzle is *beyond* them; the grade says how far it got. Techniques SE places between these
//! (XY-wing, XYZ-wing, uniqueness, BUG, chains) are not implemented, so a puzzle that needs one
//! of them is `beyond`, and one that SE would crack with an XY-wing before a naked quad is
//! rated by the quad.
//!
//! Grading allocates nothing ([`SamuraiGrader::grade`]); recording the steps for `explain`
//! ([`SamuraiGrader::grade_with_steps`]) allocates their descriptions.

use std::fmt;
use std::fmt::Write as _;

use super::{
    CELL_HOUSE_COUNT, CELL_HOUSES, HOUSE_CELLS, HOUSE_INFO, SamuraiCell, SamuraiGrid, SamuraiHouse,
};
use crate::core::index::Digit;

pub mod fish;
pub mod intersections;
pub mod singles;
pub mod subsets;

/// The techniques, in the order the grader tries them (Sudoku Explainer's order), each with
/// SE's rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SamuraiTechnique {
    /// The last empty cell of a house (1.0).
    FullHouse,
    /// The only place for a digit in a box (1.2).
    HiddenSingleBox,
    /// The only place for a digit in a row or column (1.5).
    HiddenSingleLine,
    /// Pointing whose eliminations leave a hidden single in a box (1.7).
    DirectPointing,
    /// Claiming whose eliminations leave a hidden single in a line (1.9).
    DirectClaiming,
    /// Hidden pair whose eliminations leave a hidden single in its house (2.0).
    DirectHiddenPair,
    /// The only candidate left in a cell (2.3).
    NakedSingle,
    /// Hidden triple whose eliminations leave a hidden single in its house (2.5).
    DirectHiddenTriple,
    /// A digit's candidates in a box all in one line: not elsewhere in that line (2.6).
    Pointing,
    /// A digit's candidates in a line all in one box: not elsewhere in that box (2.8).
    Claiming,
    /// Two cells of a house with the same two candidates (3.0).
    NakedPair,
    /// Fish of size 2 (3.2).
    XWing,
    /// Two digits confined to the same two cells of a house (3.4).
    HiddenPair,
    /// Three cells of a house with three candidates between them (3.6).
    NakedTriple,
    /// Fish of size 3 (3.8).
    Swordfish,
    /// Three digits confined to the same three cells of a house (4.0).
    HiddenTriple,
    /// Four cells of a house with four candidates between them (5.0).
    NakedQuad,
    /// Fish of size 4 (5.2).
    Jellyfish,
    /// Four digits confined to the same four cells of a house (5.4).
    HiddenQuad,
}

impl SamuraiTechnique {
    /// Every technique, in the order they are tried.
    pub const ALL: [SamuraiTechnique; 19] = [
        SamuraiTechnique::FullHouse,
        SamuraiTechnique::HiddenSingleBox,
        SamuraiTechnique::HiddenSingleLine,
        SamuraiTechnique::DirectPointing,
        SamuraiTechnique::DirectClaiming,
        SamuraiTechnique::DirectHiddenPair,
        SamuraiTechnique::NakedSingle,
        SamuraiTechnique::DirectHiddenTriple,
        SamuraiTechnique::Pointing,
        SamuraiTechnique::Claiming,
        SamuraiTechnique::NakedPair,
        SamuraiTechnique::XWing,
        SamuraiTechnique::HiddenPair,
        SamuraiTechnique::NakedTriple,
        SamuraiTechnique::Swordfish,
        SamuraiTechnique::HiddenTriple,
        SamuraiTechnique::NakedQuad,
        SamuraiTechnique::Jellyfish,
        SamuraiTechnique::HiddenQuad,
    ];

    /// Sudoku Explainer's rating in tenths (`12` is 1.2).
    pub const fn rating(self) -> u8 {
        use SamuraiTechnique as T;
        match self {
            T::FullHouse => 10,
            T::HiddenSingleBox => 12,
            T::HiddenSingleLine => 15,
            T::DirectPointing => 17,
            T::DirectClaiming => 19,
            T::DirectHiddenPair => 20,
            T::NakedSingle => 23,
            T::DirectHiddenTriple => 25,
            T::Pointing => 26,
            T::Claiming => 28,
            T::NakedPair => 30,
            T::XWing => 32,
            T::HiddenPair => 34,
            T::NakedTriple => 36,
            T::Swordfish => 38,
            T::HiddenTriple => 40,
            T::NakedQuad => 50,
            T::Jellyfish => 52,
            T::HiddenQuad => 54,
        }
    }

    /// The name as the literature writes it (`Hidden single`, `X-wing`).
    pub const fn name(self) -> &'static str {
        use SamuraiTechnique as T;
        match self {
            T::FullHouse => "Full house",
            T::HiddenSingleBox | T::HiddenSingleLine => "Hidden single",
            T::DirectPointing => "Direct pointing",
            T::DirectClaiming => "Direct claiming",
            T::DirectHiddenPair => "Direct hidden pair",
            T::NakedSingle => "Naked single",
            T::DirectHiddenTriple => "Direct hidden triple",
            T::Pointing => "Pointing",
            T::Claiming => "Claiming",
            T::NakedPair => "Naked pair",
            T::XWing => "X-wing",
            T::HiddenPair => "Hidden pair",
            T::NakedTriple => "Naked triple",
            T::Swordfish => "Swordfish",
            T::HiddenTriple => "Hidden triple",
            T::NakedQuad => "Naked quad",
            T::Jellyfish => "Jellyfish",
            T::HiddenQuad => "Hidden quad",
        }
    }
}

impl fmt::Display for SamuraiTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes a rating in tenths as `x.y`.
pub fn write_rating(out: &mut impl fmt::Write, tenths: u8) -> fmt::Result {
    write!(out, "{}.{}", tenths / 10, tenths % 10)
}

// ---------------------------------------------------------------------------------------
// The candidate board the techniques read.

/// Peers of each cell: the other cells of its houses (20, or 32 for a shared cell).
struct PeerTable {
    cells: [[u16; 32]; 369],
    len: [u8; 369],
}

const fn build_peers() -> PeerTable {
    let mut t = PeerTable {
        cells: [[0; 32]; 369],
        len: [0; 369],
    };
    let mut h = 0;
    while h < 131 {
        let mut i = 0;
        while i < 9 {
            let c = HOUSE_CELLS[h][i] as usize;
            let mut j = 0;
            while j < 9 {
                let o = HOUSE_CELLS[h][j];
                if j != i {
                    let mut seen = false;
                    let mut k = 0;
                    while k < t.len[c] as usize {
                        if t.cells[c][k] == o {
                            seen = true;
                        }
                        k += 1;
                    }
                    if !seen {
                        t.cells[c][t.len[c] as usize] = o;
                        t.len[c] += 1;
                    }
                }
                j += 1;
            }
            i += 1;
        }
        h += 1;
    }
    t
}

static PEERS: PeerTable = build_peers();

/// House kinds in SE's scanning order: boxes, then columns, then rows (`HOUSE_INFO` codes).
pub(crate) const KIND_BOX: u8 = 2;
pub(crate) const KIND_COL: u8 = 1;
pub(crate) const KIND_ROW: u8 = 0;

/// Values and candidates of every cell; what the techniques look at.
#[derive(Clone)]
pub(crate) struct Board {
    /// 0 or the digit.
    pub(crate) values: [u8; 369],
    /// Candidate digits (bit `d - 1`), 0 for filled cells.
    pub(crate) cands: [u16; 369],
    /// Number of empty cells.
    pub(crate) empty: u16,
    /// Where each digit can go in each house: `pos[h][d]` has bit `i` when the house's
    /// cell `i` has digit index `d` as a candidate. Refreshed before each step.
    pub(crate) pos: [[u16; 9]; 131],
}

impl Board {
    pub(crate) const fn new() -> Board {
        Board {
            values: [0; 369],
            cands: [0; 369],
            empty: 0,
            pos: [[0; 9]; 131],
        }
    }

    /// Removes the candidates `mask` from cell `c`, keeping [`Board::pos`] in step.
    pub(crate) fn eliminate(&mut self, c: usize, mask: u16) {
        let gone = self.cands[c] & mask;
        self.cands[c] &= !mask;
        if gone != 0 {
            for &(h, i) in slots(c) {
                let p = &mut self.pos[h as usize];
                let mut m = gone;
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    p[d] &= !(1 << i);
                }
            }
        }
    }

    /// Recomputes [`Board::pos`] from the candidates.
    pub(crate) fn refresh_positions(&mut self) {
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            let mut p = [0u16; 9];
            for (i, &c) in cells.iter().enumerate() {
                let mut m = self.cands[c as usize];
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    p[d] |= 1 << i;
                }
            }
            self.pos[h] = p;
        }
    }

    /// Loads `puzzle`: givens placed, candidates of empty cells are the digits no peer holds.
    pub(crate) fn load(&mut self, puzzle: &SamuraiGrid) {
        self.values = *puzzle.values();
        self.empty = 0;
        for c in 0..369 {
            if self.values[c] != 0 {
                self.cands[c] = 0;
                continue;
            }
            self.empty += 1;
            let mut m = 0x1ffu16;
            for &p in peers(c) {
                let v = self.values[p as usize];
                if v != 0 {
                    m &= !(1 << (v - 1));
                }
            }
            self.cands[c] = m;
        }
        self.refresh_positions();
    }

    /// Places digit `d` (1-9) in cell `c` and removes it from the peers' candidates.
    pub(crate) fn place(&mut self, c: usize, d: u8) {
        if self.values[c] == 0 {
            self.empty -= 1;
        }
        self.eliminate(c, 0x1ff);
        self.values[c] = d;
        let bit = 1u16 << (d - 1);
        for &p in peers(c) {
            self.eliminate(p as usize, bit);
        }
    }

    /// Where digit index `d` can go in house `h`, as a mask over the house's nine cells
    /// (from the table refreshed before each step).
    #[inline]
    pub(crate) fn positions(&self, h: usize, d: usize) -> u16 {
        self.pos[h][d]
    }

    /// Empty cells of house `h`.
    #[inline]
    pub(crate) fn empty_in(&self, h: usize) -> u32 {
        HOUSE_CELLS[h]
            .iter()
            .filter(|&&c| self.values[c as usize] == 0)
            .count() as u32
    }

    /// True when a cell has no candidate left or a house has lost a digit it still needs.
    pub(crate) fn is_broken(&self) -> bool {
        if (0..369).any(|c| self.values[c] == 0 && self.cands[c] == 0) {
            return true;
        }
        (0..131).any(|h| {
            let mut have = 0u16;
            for &c in &HOUSE_CELLS[h] {
                let c = c as usize;
                have |= self.cands[c];
                if self.values[c] != 0 {
                    have |= 1 << (self.values[c] - 1);
                }
            }
            have != 0x1ff
        })
    }
}

/// Peers of cell `c`.
#[inline]
pub(crate) fn peers(c: usize) -> &'static [u16] {
    &PEERS.cells[c][..PEERS.len[c] as usize]
}

/// Kind code of house `h` (`KIND_ROW`, `KIND_COL`, `KIND_BOX`).
#[inline]
pub(crate) fn kind(h: usize) -> u8 {
    HOUSE_INFO[h].1
}

/// Iterates the `k`-element subsets of the set bits of `mask` in increasing order (as bit
/// masks), calling `f` until it returns true. Returns whether it did.
pub(crate) fn for_each_subset(mask: u16, k: u32, mut f: impl FnMut(u16) -> bool) -> bool {
    fn rec(rest: u16, k: u32, acc: u16, f: &mut impl FnMut(u16) -> bool) -> bool {
        if k == 0 {
            return f(acc);
        }
        let mut r = rest;
        while r != 0 && r.count_ones() >= k {
            let b = r & r.wrapping_neg();
            r &= r - 1;
            if rec(r, k - 1, acc | b, f) {
                return true;
            }
        }
        false
    }
    rec(mask, k, 0, &mut f)
}

// ---------------------------------------------------------------------------------------
// What a technique found.

/// Largest number of cells one step can eliminate from (a jellyfish: 4 lines of 9).
const MAX_ELIMS: usize = 64;

/// One step found by a technique: a placement and/or eliminations, plus what to name in a
/// description.
#[derive(Clone)]
pub(crate) struct Finding {
    pub(crate) technique: SamuraiTechnique,
    /// Cell and digit (1-9) placed.
    pub(crate) place: Option<(u16, u8)>,
    /// Cells and digit masks eliminated.
    pub(crate) elims: [(u16, u16); MAX_ELIMS],
    pub(crate) n_elims: usize,
    /// The pattern's digits (bit `d - 1`).
    pub(crate) digits: u16,
    /// Houses named in the description (for fish: base houses, then cover houses).
    pub(crate) houses: [u8; 8],
    pub(crate) n_houses: usize,
    /// Cells of a subset pattern.
    pub(crate) cells: [u16; 4],
    pub(crate) n_cells: usize,
}

impl Finding {
    pub(crate) const fn new() -> Finding {
        Finding {
            technique: SamuraiTechnique::FullHouse,
            place: None,
            elims: [(0, 0); MAX_ELIMS],
            n_elims: 0,
            digits: 0,
            houses: [0; 8],
            n_houses: 0,
            cells: [0; 4],
            n_cells: 0,
        }
    }

    /// Starts a new finding of `technique`.
    pub(crate) fn start(&mut self, technique: SamuraiTechnique) {
        self.technique = technique;
        self.place = None;
        self.n_elims = 0;
        self.digits = 0;
        self.n_houses = 0;
        self.n_cells = 0;
    }

    /// Records the elimination of `mask` from cell `c` (ignored when empty).
    pub(crate) fn eliminate(&mut self, c: u16, mask: u16) {
        if mask == 0 {
            return;
        }
        if let Some(e) = self.elims[..self.n_elims].iter_mut().find(|e| e.0 == c) {
            e.1 |= mask;
        } else if self.n_elims < MAX_ELIMS {
            self.elims[self.n_elims] = (c, mask);
            self.n_elims += 1;
        }
    }

    pub(crate) fn house(&mut self, h: usize) {
        if self.n_houses < 8 {
            self.houses[self.n_houses] = h as u8;
            self.n_houses += 1;
        }
    }

    pub(crate) fn cell(&mut self, c: u16) {
        if self.n_cells < 4 {
            self.cells[self.n_cells] = c;
            self.n_cells += 1;
        }
    }

    /// Writes the step's description: technique, pattern, then what it placed and
    /// eliminated (`g1r2c8=5`, `g3r4c2<>7`).
    fn describe(&self, out: &mut String) {
        use SamuraiTechnique as T;
        let house = |h: u8| SamuraiHouse::new(h);
        // Cells are named in the grid of the house the step acts on (the last one named).
        let context = if self.n_houses > 0 {
            Some(house(self.houses[self.n_houses - 1]).grid())
        } else {
            None
        };
        let cell = |c: u16| {
            let c = SamuraiCell::new(c);
            match context {
                Some(g) => c.name_in(g),
                None => c.name_in(c.primary().0),
            }
        };
        let digits = |out: &mut String, m: u16| {
            let mut first = true;
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    let _ = write!(out, "{}", d + 1);
                }
            }
        };
        let _ = write!(out, "{}", self.technique);
        match self.technique {
            T::FullHouse | T::HiddenSingleBox | T::HiddenSingleLine => {
                if self.n_houses > 0 {
                    let _ = write!(out, " in {}", house(self.houses[0]));
                }
            }
            T::NakedSingle => {}
            T::DirectPointing | T::DirectClaiming | T::Pointing | T::Claiming => {
                out.push_str(" on ");
                digits(out, self.digits);
                if self.n_houses >= 2 {
                    let _ = write!(
                        out,
                        " in {} / {}",
                        house(self.houses[0]),
                        house(self.houses[1])
                    );
                }
            }
            T::XWing | T::Swordfish | T::Jellyfish => {
                out.push_str(" on ");
                digits(out, self.digits);
                let n = self.n_houses / 2;
                if n > 0 {
                    let g = house(self.houses[0]).grid();
                    let kind = |h: u8| house(h).kind().name();
                    let _ = write!(out, " in {} {}s ", g, kind(self.houses[0]));
                    for (i, &h) in self.houses[..n].iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        let _ = write!(out, "{}", house(h).ordinal() + 1);
                    }
                    let _ = write!(out, " / {}s ", kind(self.houses[n]));
                    for (i, &h) in self.houses[n..2 * n].iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        let _ = write!(out, "{}", house(h).ordinal() + 1);
                    }
                }
            }
            _ => {
                // Subsets.
                out.push(' ');
                digits(out, self.digits);
                if self.n_houses > 0 {
                    let _ = write!(out, " in {}", house(self.houses[0]));
                }
                out.push_str(" (");
                for (i, &c) in self.cells[..self.n_cells].iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{}", cell(c));
                }
                out.push(')');
            }
        }
        out.push(':');
        let mut first = true;
        if let Some((c, d)) = self.place {
            let _ = write!(out, " {}={}", cell(c), d);
            first = false;
        }
        for &(c, m) in &self.elims[..self.n_elims] {
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    out.push_str(if first { " " } else { ", " });
                    first = false;
                    let _ = write!(out, "{}<>{}", cell(c), d + 1);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The grader.

/// One recorded step of a solve (for `explain`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamuraiStep {
    /// The technique used.
    pub technique: SamuraiTechnique,
    /// The digit placed, if the step placed one.
    pub placement: Option<(SamuraiCell, Digit)>,
    /// The candidates removed.
    pub eliminations: Vec<(SamuraiCell, Digit)>,
    /// One line saying what was found and what it did, e.g.
    /// `Hidden single in grid 1 box 3: g1r2c8=5`. Cells are named in the grid of the house
    /// the step acts on.
    pub description: String,
}

impl fmt::Display for SamuraiStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// The result of grading a samurai puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamuraiGrade {
    /// Hardest step of the whole solve, in tenths (ER). When `solved` is false, the
    /// hardest step of the part that was solved.
    pub er: u8,
    /// Hardest step up to and including the first placement, in tenths (EP).
    pub ep: u8,
    /// False when the grader stopped before any placement (EP is then a lower bound).
    pub ep_exact: bool,
    /// Rating of the first step, in tenths (ED).
    pub ed: u8,
    /// The technique that set `er` (`None` when no step was taken).
    pub hardest: Option<SamuraiTechnique>,
    /// True when the techniques solved the puzzle; false means `beyond`.
    pub solved: bool,
    /// Cells filled when the grader stopped (givens included; 369 when solved).
    pub filled: u16,
    /// Steps taken.
    pub steps: u32,
}

impl SamuraiGrade {
    /// `easy`, `medium`, `hard`, `fiendish`, `diabolical` or `extreme` by ER (the classic
    /// grader's bands), or `beyond` when these techniques do not solve the puzzle.
    pub const fn level(&self) -> &'static str {
        if !self.solved {
            return "beyond";
        }
        match self.er {
            0..=15 => "easy",
            16..=25 => "medium",
            26..=44 => "hard",
            45..=62 => "fiendish",
            63..=89 => "diabolical",
            _ => "extreme",
        }
    }
}

impl fmt::Display for SamuraiGrade {
    /// `ER 3.2 (X-wing)`, or `beyond (reached ER 5.4 with Hidden quad, 250/369 cells)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.hardest.map_or("none", SamuraiTechnique::name);
        if self.solved {
            f.write_str("ER ")?;
            write_rating(f, self.er)?;
            write!(f, " ({name})")
        } else {
            f.write_str("beyond (reached ER ")?;
            write_rating(f, self.er)?;
            write!(f, " with {name}, {}/369 cells)", self.filled)
        }
    }
}

/// Grades samurai puzzles with human techniques. Holds its scratch; keep one per worker and
/// reuse it.
#[derive(Clone)]
pub struct SamuraiGrader {
    board: Board,
    finding: Finding,
}

impl Default for SamuraiGrader {
    fn default() -> Self {
        SamuraiGrader::new()
    }
}

impl fmt::Debug for SamuraiGrader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SamuraiGrader").finish_non_exhaustive()
    }
}

impl SamuraiGrader {
    /// A grader ready to use.
    pub const fn new() -> SamuraiGrader {
        SamuraiGrader {
            board: Board::new(),
            finding: Finding::new(),
        }
    }

    /// Grades `puzzle` (meant for puzzles with one solution and valid givens: anything else
    /// stops early as `beyond`). Allocates nothing.
    pub fn grade(&mut self, puzzle: &SamuraiGrid) -> SamuraiGrade {
        self.run(puzzle, None)
    }

    /// Like [`SamuraiGrader::grade`], also appending every step to `steps`.
    pub fn grade_with_steps(
        &mut self,
        puzzle: &SamuraiGrid,
        steps: &mut Vec<SamuraiStep>,
    ) -> SamuraiGrade {
        self.run(puzzle, Some(steps))
    }

    /// The candidates left after grading stopped (bit `d - 1` per digit; 0 for filled cells),
    /// by cell. For a `beyond` puzzle these are what the techniques reached.
    pub fn candidates(&self) -> &[u16; 369] {
        &self.board.cands
    }

    /// The grid as far as the last grading filled it.
    pub fn current(&self) -> SamuraiGrid {
        SamuraiGrid::from_values(self.board.values).unwrap_or_default()
    }

    fn run(
        &mut self,
        puzzle: &SamuraiGrid,
        mut steps: Option<&mut Vec<SamuraiStep>>,
    ) -> SamuraiGrade {
        self.board.load(puzzle);
        let mut grade = SamuraiGrade {
            er: 0,
            ep: 0,
            ep_exact: false,
            ed: 0,
            hardest: None,
            solved: false,
            filled: 369 - self.board.empty,
            steps: 0,
        };
        if self.board.is_broken() {
            return grade;
        }
        let mut placed_yet = false;
        while self.board.empty > 0 {
            if !self.next_step() {
                break;
            }
            let f = &self.finding;
            let r = f.technique.rating();
            if r > grade.er || grade.hardest.is_none() {
                grade.er = grade.er.max(r);
                grade.hardest = Some(f.technique);
            }
            if grade.steps == 0 {
                grade.ed = r;
            }
            if !placed_yet {
                grade.ep = grade.er;
                placed_yet = f.place.is_some();
            }
            grade.steps += 1;
            if let Some(steps) = steps.as_deref_mut() {
                let mut description = String::new();
                f.describe(&mut description);
                let mut eliminations = Vec::new();
                for &(c, m) in &f.elims[..f.n_elims] {
                    for d in 0..9u8 {
                        if m & (1 << d) != 0 {
                            eliminations.push((SamuraiCell::new(c), Digit::new(d + 1)));
                        }
                    }
                }
                steps.push(SamuraiStep {
                    technique: f.technique,
                    placement: f.place.map(|(c, d)| (SamuraiCell::new(c), Digit::new(d))),
                    eliminations,
                    description,
                });
            }
            // Apply. Sound steps never empty a cell of a puzzle with a solution; for one
            // without, stop at the first cell left with no candidate.
            let mut broken = false;
            for i in 0..self.finding.n_elims {
                let (c, m) = self.finding.elims[i];
                let c = c as usize;
                self.board.eliminate(c, m);
                broken |= self.board.values[c] == 0 && self.board.cands[c] == 0;
            }
            if let Some((c, d)) = self.finding.place {
                let c = c as usize;
                self.board.place(c, d);
                broken |= peers(c).iter().any(|&p| {
                    self.board.values[p as usize] == 0 && self.board.cands[p as usize] == 0
                });
            }
            if broken {
                break;
            }
        }
        grade.filled = 369 - self.board.empty;
        grade.solved = self.board.empty == 0;
        grade.ep_exact = placed_yet;
        if !placed_yet {
            grade.ep = grade.er;
        }
        grade
    }

    /// Finds the next step, simplest technique first, into `self.finding`.
    fn next_step(&mut self) -> bool {
        let (b, f) = (&self.board, &mut self.finding);
        singles::full_house(b, f)
            || singles::hidden_single(b, f)
            || intersections::locked_candidates(b, f, true)
            || subsets::hidden_subset(b, f, 2, true)
            || singles::naked_single(b, f)
            || subsets::hidden_subset(b, f, 3, true)
            || intersections::locked_candidates(b, f, false)
            || subsets::naked_subset(b, f, 2)
            || fish::fish(b, f, 2)
            || subsets::hidden_subset(b, f, 2, false)
            || subsets::naked_subset(b, f, 3)
            || fish::fish(b, f, 3)
            || subsets::hidden_subset(b, f, 3, false)
            || subsets::naked_subset(b, f, 4)
            || fish::fish(b, f, 4)
            || subsets::hidden_subset(b, f, 4, false)
    }
}

/// Writes the solving path of `puzzle` for people: one numbered line per step with its
/// rating, technique and what it placed or eliminated (cells as `gNrNcN`), then the ratings:
///
/// ```text
///   1. [1.2] Hidden single in grid 1 box 3: g1r2c8=5
///   2. [2.6] Pointing on 7 in grid 3 box 1 / grid 3 row 2: g3r2c5<>7, g3r2c9<>7
/// ...
/// ER 2.6, EP 1.2, ED 1.2 (hard); hardest step: Pointing
/// ```
///
/// For a puzzle beyond these techniques, ER (and EP or ED when not reached) are marked as
/// lower bounds (`>=`), the level is `beyond`, and a last line says how far the techniques
/// got. This is the text of `explain --variant samurai`; the steps themselves come from
/// [`SamuraiGrader::grade_with_steps`].
pub fn explain(puzzle: &SamuraiGrid, out: &mut String) -> SamuraiGrade {
    let mut steps = Vec::new();
    let grade = SamuraiGrader::new().grade_with_steps(puzzle, &mut steps);
    let width = steps.len().to_string().len();
    for (i, step) in steps.iter().enumerate() {
        let _ = write!(out, "{:>width$}. [", i + 1);
        let _ = write_rating(out, step.technique.rating());
        let _ = writeln!(out, "] {step}");
    }
    let bound = |out: &mut String, exact: bool, v: u8| {
        if !exact {
            out.push_str(">=");
        }
        let _ = write_rating(out, v);
    };
    out.push_str("ER ");
    bound(out, grade.solved, grade.er);
    out.push_str(", EP ");
    bound(out, grade.ep_exact, grade.ep);
    out.push_str(", ED ");
    bound(out, grade.steps > 0, grade.ed);
    let _ = writeln!(
        out,
        " ({}); hardest step: {}",
        grade.level(),
        grade.hardest.map_or("none", SamuraiTechnique::name)
    );
    if !grade.solved {
        let _ = writeln!(
            out,
            "No implemented technique applies after {}/369 cells: the ratings marked >= are \
             lower bounds.",
            grade.filled
        );
    }
    grade
}

const fn build_kind_lists() -> [[u8; 45]; 3] {
    let mut t = [[0u8; 45]; 3];
    let mut n = [0usize; 3];
    let mut h = 0;
    while h < 131 {
        let k = HOUSE_INFO[h].1 as usize;
        t[k][n[k]] = h as u8;
        n[k] += 1;
        h += 1;
    }
    t
}

/// Houses of each kind (rows, columns: 45 each; boxes: 41, then padding).
static KIND_LISTS: [[u8; 45]; 3] = build_kind_lists();

/// Houses of one kind in scanning order.
pub(crate) fn houses_of(kind_code: u8) -> impl Iterator<Item = usize> {
    let n = if kind_code == KIND_BOX { 41 } else { 45 };
    KIND_LISTS[kind_code as usize][..n]
        .iter()
        .map(|&h| h as usize)
}

const fn build_inter() -> [[u16; 131]; 131] {
    let mut t = [[0u16; 131]; 131];
    let mut a = 0;
    while a < 131 {
        let mut i = 0;
        while i < 9 {
            let c = HOUSE_CELLS[a][i] as usize;
            let mut k = 0;
            while k < CELL_HOUSE_COUNT[c] as usize {
                t[a][CELL_HOUSES[c][k].index()] |= 1 << i;
                k += 1;
            }
            i += 1;
        }
        a += 1;
    }
    t
}

/// `INTER[a][b]`: the cells of house `a` that also lie in house `b`, as a mask over `a`'s
/// nine cells.
pub(crate) static INTER: [[u16; 131]; 131] = build_inter();

const fn build_slots() -> ([[(u8, u8); 5]; 369], [u8; 369]) {
    let mut t = [[(0u8, 0u8); 5]; 369];
    let mut n = [0u8; 369];
    let mut h = 0;
    while h < 131 {
        let mut i = 0;
        while i < 9 {
            let c = HOUSE_CELLS[h][i] as usize;
            t[c][n[c] as usize] = (h as u8, i as u8);
            n[c] += 1;
            i += 1;
        }
        h += 1;
    }
    (t, n)
}

const SLOT_TABLES: ([[(u8, u8); 5]; 369], [u8; 369]) = build_slots();
/// For each cell: (house, index of the cell in that house) for each of its houses.
static SLOTS: [[(u8, u8); 5]; 369] = SLOT_TABLES.0;
static SLOT_COUNT: [u8; 369] = SLOT_TABLES.1;

/// The (house, index in house) slots of cell `c`.
#[inline]
fn slots(c: usize) -> &'static [(u8, u8)] {
    &SLOTS[c][..SLOT_COUNT[c] as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_are_20_or_32() {
        for c in SamuraiCell::all() {
            let n = peers(c.index()).len();
            assert_eq!(n, if c.is_shared() { 32 } else { 20 }, "{c}");
        }
    }

    #[test]
    fn subsets_come_in_increasing_order() {
        let mut seen = Vec::new();
        for_each_subset(0b10110, 2, |m| {
            seen.push(m);
            false
        });
        assert_eq!(seen, vec![0b00110, 0b10010, 0b10100]);
    }

    #[test]
    fn explain_numbers_the_steps_and_ends_with_the_ratings() {
        // A complete grid less three cells of one row: three steps, the last a full house.
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(3);
        let full = super::super::SamuraiSolver::new()
            .random_solution(&SamuraiGrid::EMPTY, &mut rng)
            .unwrap();
        let mut p = full;
        for c in 0..3 {
            p.set(SamuraiCell::new(c), None);
        }
        let mut text = String::new();
        let grade = explain(&p, &mut text);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("1. [1."), "{text}");
        assert!(
            lines[2].starts_with("3. [1.0] Full house in grid 1 box 1: g1r1c3="),
            "{text}"
        );
        assert_eq!(grade.steps, 3);
        assert!(grade.ep_exact);
        assert!(lines[3].starts_with("ER 1."), "{text}");
        assert!(lines[3].contains(" (easy); hardest step: "), "{text}");
    }

    #[test]
    fn ratings_follow_the_order() {
        let r: Vec<u8> = SamuraiTechnique::ALL.iter().map(|t| t.rating()).collect();
        assert!(r.windows(2).all(|w| w[0] < w[1]));
    }
}
