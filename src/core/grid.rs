//! The [`Grid`] value type: 81 cells, each empty or a digit; parsing from bytes and
//! formatting into a caller's buffer, and the check that givens break no rule.
//!
//! Parsing here reads cells only. Splitting a file into records (lines, CSV fields, grid
//! blocks) is the job of `crate::io`.

use std::fmt;

use super::bitboard::DigitSet;
use super::index::{Cell, Digit, House};

/// A 9x9 grid: each cell holds 0 (empty) or a digit 1-9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; 81],
}

impl Default for Grid {
    fn default() -> Self {
        Grid::EMPTY
    }
}

/// Why some bytes are not a grid. `col` is the 1-based byte column in the input where the
/// problem was found (for line records: the column within the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based column of the offending byte (or just past the end for short input).
    pub col: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A byte that is neither a digit, a blank mark, nor a separator.
    InvalidByte(u8),
    /// Fewer than 81 cells.
    TooFewCells(usize),
    /// More than 81 cells with no separator between the grid and what follows.
    TooManyCells,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::InvalidByte(b) => {
                if b.is_ascii_graphic() || b == b' ' {
                    write!(f, "invalid character '{}'", b as char)
                } else {
                    write!(f, "invalid byte 0x{b:02x}")
                }
            }
            ParseErrorKind::TooFewCells(n) => write!(f, "only {n} cells, expected 81"),
            ParseErrorKind::TooManyCells => {
                write!(
                    f,
                    "more than 81 cells (a tail must be separated by a space, ',', ';' or '#')"
                )
            }
        }
    }
}

/// Givens that break a rule: `digit` appears twice in `house`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: Digit,
    /// The house where it repeats.
    pub house: House,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "digit {} twice in {}", self.digit, self.house)
    }
}

/// True for the bytes that mark an empty cell: `.` `0` `_` `-` `*`.
#[inline]
pub const fn is_blank(b: u8) -> bool {
    matches!(b, b'.' | b'0' | b'_' | b'-' | b'*')
}

/// True for the bytes that may separate the 81 cells from a tail.
#[inline]
pub const fn is_tail_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';' | b'#' | b'|')
}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// Builds a grid from 81 values, each 0 (empty) or 1-9; `None` if any value is out of range.
    pub fn from_values(values: [u8; 81]) -> Option<Grid> {
        if values.iter().all(|&v| v <= 9) {
            Some(Grid { cells: values })
        } else {
            None
        }
    }

    /// Parses a one-line record: exactly 81 cells at the start of `line`, then either the end,
    /// or a separator (space, tab, `,`, `;`, `#`, `|`) and a tail. Returns the grid and the
    /// byte offset where the tail starts (after the separator), or `line.len()`.
    ///
    /// `line` must not contain the line terminator.
    pub fn parse_line(line: &[u8]) -> Result<(Grid, usize), ParseError> {
        let mut cells = [0u8; 81];
        if line.len() >= 81 {
            // Fast path, branch-free so that it vectorizes: every one of the first 81 bytes
            // is a digit or a blank.
            let mut bad = 0u8;
            for (cell, &b) in cells.iter_mut().zip(&line[..81]) {
                let v = b.wrapping_sub(b'0');
                let digit = v <= 9;
                let blank = b == b'.' || b == b'_' || b == b'-' || b == b'*';
                *cell = if digit { v } else { 0 };
                bad |= u8::from(!(digit || blank));
            }
            if bad == 0 {
                let rest = &line[81..];
                return match rest.first() {
                    None => Ok((Grid { cells }, line.len())),
                    Some(&b) if is_tail_separator(b) => Ok((Grid { cells }, 82)),
                    Some(&b) if b.is_ascii_digit() || is_blank(b) => Err(ParseError {
                        col: 82,
                        kind: ParseErrorKind::TooManyCells,
                    }),
                    Some(&b) => Err(ParseError {
                        col: 82,
                        kind: ParseErrorKind::InvalidByte(b),
                    }),
                };
            }
        }
        // Slow path: find the first offending byte for the message.
        for (i, &b) in line.iter().enumerate().take(81) {
            if !(b.is_ascii_digit() || is_blank(b)) {
                if is_tail_separator(b) {
                    return Err(ParseError {
                        col: i + 1,
                        kind: ParseErrorKind::TooFewCells(i),
                    });
                }
                return Err(ParseError {
                    col: i + 1,
                    kind: ParseErrorKind::InvalidByte(b),
                });
            }
        }
        Err(ParseError {
            col: line.len() + 1,
            kind: ParseErrorKind::TooFewCells(line.len()),
        })
    }

    /// Parses cells from free-form text such as a nine-line block: digits and blank marks are
    /// cells, while spaces, tabs, line breaks and the separators `|` and `+` are skipped (a
    /// `-` counts as a separator only when it is part of a run of three or more, as in
    /// `------+------`). Exactly 81 cells are required. `col` in an error is the byte offset
    /// in `text` plus one.
    pub fn parse_cells(text: &[u8]) -> Result<Grid, ParseError> {
        let mut cells = [0u8; 81];
        let mut n = 0usize;
        let mut i = 0usize;
        while i < text.len() {
            let b = text[i];
            if b == b'-' {
                let run = text[i..].iter().take_while(|&&x| x == b'-').count();
                if run >= 3 {
                    i += run;
                    continue;
                }
            }
            let v = match b {
                b'1'..=b'9' => Some(b - b'0'),
                _ if is_blank(b) => Some(0),
                b' ' | b'\t' | b'\r' | b'\n' | b'|' | b'+' => None,
                _ => {
                    return Err(ParseError {
                        col: i + 1,
                        kind: ParseErrorKind::InvalidByte(b),
                    });
                }
            };
            if let Some(v) = v {
                if n == 81 {
                    return Err(ParseError {
                        col: i + 1,
                        kind: ParseErrorKind::TooManyCells,
                    });
                }
                cells[n] = v;
                n += 1;
            }
            i += 1;
        }
        if n < 81 {
            return Err(ParseError {
                col: text.len() + 1,
                kind: ParseErrorKind::TooFewCells(n),
            });
        }
        Ok(Grid { cells })
    }

    /// The value in `cell`: 0 when empty, else 1-9.
    #[inline]
    pub const fn value(&self, cell: Cell) -> u8 {
        self.cells[cell.index()]
    }

    /// The digit in `cell`, if any.
    #[inline]
    pub fn digit(&self, cell: Cell) -> Option<Digit> {
        match self.cells[cell.index()] {
            0 => None,
            v => Some(Digit::new(v)),
        }
    }

    /// Sets `cell` to `digit` (or empties it with `None`).
    #[inline]
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        self.cells[cell.index()] = digit.map_or(0, Digit::get);
    }

    /// The 81 values, row-major, 0 for empty.
    #[inline]
    pub const fn values(&self) -> &[u8; 81] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Writes the 81-character form, `.` for empty cells, into `out`.
    #[inline]
    pub fn write_line(&self, out: &mut Vec<u8>) {
        out.extend(
            self.cells
                .iter()
                .map(|&v| if v == 0 { b'.' } else { b'0' + v }),
        );
    }

    /// The 81-character form as an array (`.` for empty cells).
    pub fn to_line_bytes(&self) -> [u8; 81] {
        // A select, not a branch: the compiler turns the loop into a few vector operations
        // (this runs twice per record on the `solve` hot path).
        let mut a = [0u8; 81];
        for (o, &v) in a.iter_mut().zip(self.cells.iter()) {
            *o = if v == 0 { b'.' } else { b'0' + v };
        }
        a
    }

    /// Checks that the filled cells break no rule: no digit twice in a row, column or box.
    /// Reports the first conflict in house order (rows, then columns, then boxes).
    pub fn check_givens(&self) -> Result<(), Conflict> {
        // Fast path: one pass with a digit mask per row, column and box.
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut clash = false;
        for (i, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                let bit = 1u16 << v;
                let c = Cell::new(i as u8);
                let (r, k, b) = (c.row() as usize, c.col() as usize, c.box_index() as usize);
                clash |= (rows[r] | cols[k] | boxes[b]) & bit != 0;
                rows[r] |= bit;
                cols[k] |= bit;
                boxes[b] |= bit;
            }
        }
        if !clash {
            return Ok(());
        }
        // Slow path, only for invalid grids: find the first conflict in house order.
        for house in House::all() {
            let mut seen = DigitSet::EMPTY;
            for &c in house.cells() {
                if let Some(d) = self.digit(c) {
                    if seen.contains(d) {
                        return Err(Conflict { digit: d, house });
                    }
                    seen.insert(d);
                }
            }
        }
        Ok(())
    }

    /// True when `self` is a complete grid that satisfies every rule and agrees with every
    /// given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_full()
            && self.check_givens().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(self.cells.iter())
                .all(|(&p, &s)| p == 0 || p == s)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.to_line_bytes();
        // The bytes are ASCII by construction.
        f.write_str(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl std::str::FromStr for Grid {
    type Err = ParseError;
    /// Parses exactly one 81-cell line (no tail).
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        match Grid::parse_line(s.as_bytes())? {
            (g, end) if end == s.len() => Ok(g),
            (_, end) => Err(ParseError {
                col: end,
                kind: ParseErrorKind::TooManyCells,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn parse_line_round_trips_and_keeps_the_tail() {
        let line = format!("{P} 9.1 extra");
        let (g, tail) = Grid::parse_line(line.as_bytes()).unwrap();
        assert_eq!(g.to_string(), P);
        assert_eq!(&line[tail..], "9.1 extra");
        let zeros = P.replace('.', "0");
        assert_eq!(Grid::parse_line(zeros.as_bytes()).unwrap().0.to_string(), P);
    }

    #[test]
    fn parse_line_reports_where_it_fails() {
        let short = &P[..80];
        let e = Grid::parse_line(short.as_bytes()).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooFewCells(80));
        let mut bad = P.as_bytes().to_vec();
        bad[16] = b'x';
        let e = Grid::parse_line(&bad).unwrap_err();
        assert_eq!(
            (e.col, e.to_string().as_str()),
            (17, "invalid character 'x'")
        );
        let long = format!("{P}5");
        let e = Grid::parse_line(long.as_bytes()).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooManyCells);
    }

    #[test]
    fn parse_cells_reads_a_block_with_separators() {
        let mut block = String::new();
        for r in 0..9 {
            let row = &P[r * 9..r * 9 + 9];
            block.push_str(&format!("{} | {} | {}\n", &row[..3], &row[3..6], &row[6..]));
            if r == 2 || r == 5 {
                block.push_str("------+-------+------\n");
            }
        }
        assert_eq!(Grid::parse_cells(block.as_bytes()).unwrap().to_string(), P);
    }

    #[test]
    fn conflicts_name_the_digit_and_house() {
        let mut g: Grid = P.parse().unwrap();
        g.set(Cell::at(2, 0), Some(Digit::new(1)));
        // 1 at r3c1 and r3c9: row 3.
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "digit 1 twice in row 3"
        );
        let mut g: Grid = P.parse().unwrap();
        g.set(Cell::at(1, 1), Some(Digit::new(4)));
        assert_eq!(
            g.check_givens().unwrap_err().to_string(),
            "digit 4 twice in box 1"
        );
    }
}
