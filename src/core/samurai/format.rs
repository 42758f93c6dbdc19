//! Samurai record forms: pure parsers from bytes and the form detector.
//!
//! Three forms of one record are read:
//!
//! - [`SamuraiForm::Line`]: one line of 405 cells, the five grids' 81 cells each in the order
//!   top-left, top-right, centre, bottom-left, bottom-right (shared cells appear twice and
//!   must agree), optionally followed by a separator and a tail as for classic lines;
//! - [`SamuraiForm::FiveLines`]: five consecutive lines of 81 cells in that order; the first
//!   line may carry a tail, the other four may not;
//! - [`SamuraiForm::Block`]: 21 lines of the 21x21 layout; digits are givens, `.` or `0` (or
//!   the other classic blank marks) empty cells, spaces the gaps outside the five grids. A
//!   line may stop early when only gaps follow; trailing spaces and tabs are ignored.
//!
//! Cells are `1`-`9`, blanks are `.` `0` `_` `-` `*` (as in [`crate::core::grid::is_blank`]).
//! Every parser also checks the givens against the rules, so an `Ok` grid has no digit twice
//! in a house. Errors say what is wrong and where: `line` is the 0-based line within the
//! record, `col` the 1-based byte column within that line.
//!
//! Splitting a file into records is the job of `crate::io`; these functions take the record's
//! line(s) without their line terminators (a trailing `\r` is tolerated).

use std::fmt;

use super::{LAYOUT, NO_CELL, SamuraiConflict, SamuraiGrid, SharedMismatch};
use crate::core::grid::{is_blank, is_tail_separator};

/// The three record forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamuraiForm {
    /// One line of 405 cells.
    Line,
    /// Five lines of 81 cells.
    FiveLines,
    /// A 21-line block of the 21x21 layout.
    Block,
}

impl SamuraiForm {
    /// How many input lines a record of this form takes.
    pub const fn lines(self) -> usize {
        match self {
            SamuraiForm::Line => 1,
            SamuraiForm::FiveLines => 5,
            SamuraiForm::Block => 21,
        }
    }

    /// Guesses a record's form from its first line: 21 bytes or fewer (after trailing
    /// whitespace), or a space among the first 21 bytes, is a block line; a line whose run
    /// of leading cells is longer than 81 is a 405-cell line; anything else is taken as the
    /// first of five 81-cell lines (and its parser reports what is wrong with it).
    pub fn detect(first_line: &[u8]) -> SamuraiForm {
        let line = trim_end(first_line);
        if line.len() <= 21 || line[..21].contains(&b' ') {
            return SamuraiForm::Block;
        }
        let cells = line
            .iter()
            .take_while(|&&b| b.is_ascii_digit() || is_blank(b))
            .count();
        if cells > 81 {
            SamuraiForm::Line
        } else {
            SamuraiForm::FiveLines
        }
    }

    /// Lower-case name, as used in messages: `405-cell line`, `five 81-cell lines`,
    /// `21-line block`.
    pub const fn name(self) -> &'static str {
        match self {
            SamuraiForm::Line => "405-cell line",
            SamuraiForm::FiveLines => "five 81-cell lines",
            SamuraiForm::Block => "21-line block",
        }
    }
}

/// Why a record is not a valid samurai puzzle, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamuraiParseError {
    /// 0-based line within the record.
    pub line: usize,
    /// 1-based byte column within that line (just past the end for short input).
    pub col: usize,
    /// What is wrong.
    pub kind: SamuraiParseErrorKind,
}

/// The kinds of [`SamuraiParseError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamuraiParseErrorKind {
    /// A byte that is neither a digit, a blank mark, nor (where allowed) a separator or gap.
    InvalidByte(u8),
    /// A line with fewer cells than its form needs.
    TooFewCells {
        /// Cells found.
        found: usize,
        /// Cells needed (405 or 81).
        expected: usize,
    },
    /// More cells than the form needs, with no separator before what follows.
    TooManyCells {
        /// Cells needed (405 or 81).
        expected: usize,
    },
    /// Text after the 81 cells of lines 2-5 of the five-line form.
    UnexpectedTail,
    /// A block line that ends before the last grid cell of its layout row.
    LineTooShort {
        /// Length of the line (without trailing whitespace).
        len: usize,
        /// Length the layout row needs.
        needed: usize,
    },
    /// A block line longer than 21 (not counting trailing whitespace).
    LineTooLong {
        /// Length of the line (without trailing whitespace).
        len: usize,
    },
    /// A digit or blank mark in a gap position of the 21x21 layout.
    CellInGap(u8),
    /// A space inside one of the five grids of a block.
    GapInGrid,
    /// The record ended before all its lines.
    TooFewLines {
        /// Lines found.
        found: usize,
        /// Lines needed (5 or 21).
        expected: usize,
    },
    /// The two copies of a shared cell disagree.
    SharedMismatch(SharedMismatch),
    /// A digit twice in a house.
    Conflict(SamuraiConflict),
}

impl fmt::Display for SamuraiParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SamuraiParseErrorKind as K;
        match self.kind {
            K::InvalidByte(b) => {
                if b.is_ascii_graphic() || b == b' ' {
                    write!(f, "invalid character '{}'", b as char)
                } else {
                    write!(f, "invalid byte 0x{b:02x}")
                }
            }
            K::TooFewCells { found, expected } => {
                write!(f, "only {found} cells, expected {expected}")
            }
            K::TooManyCells { expected } => write!(
                f,
                "more than {expected} cells (a tail must be separated by a space, ',', ';' or '#')"
            ),
            K::UnexpectedTail => write!(
                f,
                "text after the 81 cells of line {} of 5 (only the first line may have a tail)",
                self.line + 1
            ),
            K::LineTooShort { len, needed } => write!(
                f,
                "block line {} has {len} characters, its grid cells need {needed}",
                self.line + 1
            ),
            K::LineTooLong { len } => write!(
                f,
                "block line {} has {len} characters, at most 21 allowed",
                self.line + 1
            ),
            K::CellInGap(b) => write!(
                f,
                "'{}' in a gap of block line {} (gaps must be spaces)",
                b as char,
                self.line + 1
            ),
            K::GapInGrid => write!(
                f,
                "space inside a grid in block line {} (empty cells are '.' or '0')",
                self.line + 1
            ),
            K::TooFewLines { found, expected } => {
                write!(f, "record has {found} lines, expected {expected}")
            }
            K::SharedMismatch(m) => write!(f, "{m}"),
            K::Conflict(c) => write!(f, "{c}"),
        }
    }
}

impl std::error::Error for SamuraiParseError {}

fn trim_end(mut line: &[u8]) -> &[u8] {
    while let [rest @ .., b' ' | b'\t' | b'\r' | b'\n'] = line {
        line = rest;
    }
    line
}

#[inline]
const fn cell_value(b: u8) -> Option<u8> {
    match b {
        b'1'..=b'9' => Some(b - b'0'),
        _ if is_blank(b) => Some(0),
        _ => None,
    }
}

/// [`cell_value`] of every byte, with [`NOT_A_CELL`] for `None`.
const CELL_VALUE: [u8; 256] = {
    let mut t = [NOT_A_CELL; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(v) = cell_value(b as u8) {
            t[b] = v;
        }
        b += 1;
    }
    t
};
const NOT_A_CELL: u8 = 0x80;

/// Reads exactly `n` cells at the start of `line` into `out`, then requires the end, a tail
/// separator, or (with `allow_tail` false) only trailing whitespace. Returns the offset where
/// the tail starts (after the separator), or `line.len()`.
fn read_cells(
    line: &[u8],
    out: &mut [u8],
    allow_tail: bool,
    line_no: usize,
) -> Result<usize, SamuraiParseError> {
    let n = out.len();
    let err = |col: usize, kind| SamuraiParseError {
        line: line_no,
        col,
        kind,
    };
    // Fast path without a branch per cell; any byte that is not a cell sends the line to
    // the loop below, which says what is wrong and where.
    let fast_ok = line.len() >= n && {
        let mut bad = 0u8;
        for (o, &b) in out.iter_mut().zip(line) {
            let v = CELL_VALUE[b as usize];
            bad |= v;
            *o = v;
        }
        bad & NOT_A_CELL == 0
    };
    for (i, o) in out.iter_mut().enumerate().skip(if fast_ok { n } else { 0 }) {
        let Some(&b) = line.get(i) else {
            return Err(err(
                i + 1,
                SamuraiParseErrorKind::TooFewCells {
                    found: i,
                    expected: n,
                },
            ));
        };
        match cell_value(b) {
            Some(v) => *o = v,
            None if is_tail_separator(b) || b == b'\r' => {
                return Err(err(
                    i + 1,
                    SamuraiParseErrorKind::TooFewCells {
                        found: i,
                        expected: n,
                    },
                ));
            }
            None => return Err(err(i + 1, SamuraiParseErrorKind::InvalidByte(b))),
        }
    }
    let rest = &line[n..];
    match rest.first() {
        None => Ok(line.len()),
        Some(&b) if b.is_ascii_digit() || is_blank(b) => Err(err(
            n + 1,
            SamuraiParseErrorKind::TooManyCells { expected: n },
        )),
        Some(_) if !allow_tail && trim_end(rest).is_empty() => Ok(line.len()),
        Some(_) if !allow_tail => Err(err(n + 1, SamuraiParseErrorKind::UnexpectedTail)),
        Some(&b) if is_tail_separator(b) => Ok(n + 1),
        Some(b'\r') if rest.len() == 1 => Ok(n),
        Some(&b) => Err(err(n + 1, SamuraiParseErrorKind::InvalidByte(b))),
    }
}

/// Where cell `i` (`0..81`) of grid `g` sits in a record of `form`: (line, 1-based column).
fn five_grid_position(form: SamuraiForm, g: usize, i: usize) -> (usize, usize) {
    match form {
        SamuraiForm::Line => (0, g * 81 + i + 1),
        SamuraiForm::FiveLines => (g, i + 1),
        SamuraiForm::Block => {
            let (or, oc) = super::GRID_ORIGINS[g];
            (or as usize + i / 9, oc as usize + i % 9 + 1)
        }
    }
}

/// Joins the 405 five-grid values, checking the shared cells, with positions for errors.
fn join(values: &[u8; 405], form: SamuraiForm) -> Result<SamuraiGrid, SamuraiParseError> {
    SamuraiGrid::from_five_grid_values(values).map_err(|m| {
        // Point at the copy in the higher-numbered grid.
        let (g, c) = m.cell.secondary().unwrap_or(m.cell.primary());
        let (line, col) = five_grid_position(form, g.index(), c.index());
        SamuraiParseError {
            line,
            col,
            kind: SamuraiParseErrorKind::SharedMismatch(m),
        }
    })
}

/// Checks that `grid`'s givens break no rule, reporting the first digit twice in a house
/// with the position (in a record of `form`) of its second cell.
pub fn check_givens(grid: &SamuraiGrid, form: SamuraiForm) -> Result<(), SamuraiParseError> {
    grid.check_givens().map_err(|c| {
        let g = c.house.grid();
        let local = c.cell.in_grid(g).unwrap_or(c.cell.primary().1);
        let (line, col) = five_grid_position(form, g.index(), local.index());
        SamuraiParseError {
            line,
            col,
            kind: SamuraiParseErrorKind::Conflict(c),
        }
    })
}

fn checked<T>(
    r: Result<(SamuraiGrid, T), SamuraiParseError>,
    form: SamuraiForm,
) -> Result<(SamuraiGrid, T), SamuraiParseError> {
    let (g, t) = r?;
    check_givens(&g, form)?;
    Ok((g, t))
}

/// Parses a 405-cell line: the five grids' cells, then the end or a separator (space, tab,
/// `,`, `;`, `#`, `|`) and a tail. Returns the grid and the byte offset where the tail starts
/// (after the separator), or `line.len()`.
pub fn parse_line(line: &[u8]) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    checked(read_line(line), SamuraiForm::Line)
}

fn read_line(line: &[u8]) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    let mut values = [0u8; 405];
    let tail = read_cells(line, &mut values, true, 0)?;
    Ok((join(&values, SamuraiForm::Line)?, tail))
}

/// Parses five lines of 81 cells (top-left, top-right, centre, bottom-left, bottom-right).
/// The first line may carry a tail after a separator; the others may only have trailing
/// whitespace. Returns the grid and the offset of the tail in the first line (or its length).
/// Fewer than five lines is an error.
pub fn parse_five_lines(lines: &[&[u8]]) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    checked(read_five_lines(lines), SamuraiForm::FiveLines)
}

fn read_five_lines(lines: &[&[u8]]) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    let mut values = [0u8; 405];
    let mut tail = 0;
    for g in 0..5 {
        let Some(line) = lines.get(g) else {
            return Err(SamuraiParseError {
                line: lines.len(),
                col: 1,
                kind: SamuraiParseErrorKind::TooFewLines {
                    found: lines.len(),
                    expected: 5,
                },
            });
        };
        let t = read_cells(line, &mut values[g * 81..g * 81 + 81], g == 0, g)?;
        if g == 0 {
            tail = t;
        }
    }
    Ok((join(&values, SamuraiForm::FiveLines)?, tail))
}

/// Parses a 21-line block of the 21x21 layout. Fewer than 21 lines is an error; lines after
/// the 21st are not looked at.
pub fn parse_block(lines: &[&[u8]]) -> Result<SamuraiGrid, SamuraiParseError> {
    let g = read_block(lines)?;
    check_givens(&g, SamuraiForm::Block)?;
    Ok(g)
}

fn read_block(lines: &[&[u8]]) -> Result<SamuraiGrid, SamuraiParseError> {
    use SamuraiParseErrorKind as K;
    let mut cells = [0u8; 369];
    for (r, layout_row) in LAYOUT.iter().enumerate() {
        let Some(raw) = lines.get(r) else {
            return Err(SamuraiParseError {
                line: lines.len(),
                col: 1,
                kind: K::TooFewLines {
                    found: lines.len(),
                    expected: 21,
                },
            });
        };
        let line = trim_end(raw);
        let err = |col: usize, kind| SamuraiParseError { line: r, col, kind };
        if line.len() > 21 {
            return Err(err(22, K::LineTooLong { len: line.len() }));
        }
        let needed = layout_row
            .iter()
            .rposition(|&c| c != NO_CELL)
            .map_or(0, |i| i + 1);
        if line.len() < needed {
            return Err(err(
                line.len() + 1,
                K::LineTooShort {
                    len: line.len(),
                    needed,
                },
            ));
        }
        for (c, &b) in line.iter().enumerate() {
            let cell = layout_row[c];
            if cell == NO_CELL {
                match b {
                    b' ' | b'\t' => {}
                    _ if cell_value(b).is_some() => return Err(err(c + 1, K::CellInGap(b))),
                    _ => return Err(err(c + 1, K::InvalidByte(b))),
                }
            } else {
                match cell_value(b) {
                    Some(v) => cells[cell as usize] = v,
                    None if b == b' ' || b == b'\t' => return Err(err(c + 1, K::GapInGrid)),
                    None => return Err(err(c + 1, K::InvalidByte(b))),
                }
            }
        }
    }
    // Values are 0..=9 by construction.
    Ok(SamuraiGrid::from_values(cells).unwrap_or_default())
}

/// Parses one record of the given form from its lines (only as many as the form needs are
/// looked at), and checks its givens. Returns the grid and the tail's offset in the first
/// line (the line's length when it has none; always the length for blocks).
pub fn parse_record(
    form: SamuraiForm,
    lines: &[&[u8]],
) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    checked(read_record(form, lines), form)
}

/// Like [`parse_record`] without the house check: the cells are read and the shared cells
/// compared, but a digit twice in a house is not looked for (see [`check_givens`]). For
/// callers that show the puzzle of a record whose givens break a rule.
pub fn read_record(
    form: SamuraiForm,
    lines: &[&[u8]],
) -> Result<(SamuraiGrid, usize), SamuraiParseError> {
    match form {
        SamuraiForm::Line => match lines.first() {
            Some(line) => read_line(line),
            None => Err(SamuraiParseError {
                line: 0,
                col: 1,
                kind: SamuraiParseErrorKind::TooFewLines {
                    found: 0,
                    expected: 1,
                },
            }),
        },
        SamuraiForm::FiveLines => read_five_lines(lines),
        SamuraiForm::Block => {
            let g = read_block(lines)?;
            Ok((g, lines.first().map_or(0, |l| l.len())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{Cell, Digit};
    use crate::core::samurai::SubGrid;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    #[test]
    fn detect_tells_the_forms_apart() {
        assert_eq!(SamuraiForm::detect(&[b'.'; 405]), SamuraiForm::Line);
        assert_eq!(SamuraiForm::detect(&[b'.'; 81]), SamuraiForm::FiveLines);
        assert_eq!(
            SamuraiForm::detect(b"123......   ...456..."),
            SamuraiForm::Block
        );
        assert_eq!(SamuraiForm::detect(b"      ........."), SamuraiForm::Block);
    }

    #[test]
    fn empty_records_parse_in_all_forms() {
        let (g, t) = parse_line(&[b'.'; 405]).unwrap();
        assert_eq!((g, t), (SamuraiGrid::EMPTY, 405));
        let l81 = [b'0'; 81];
        let five: Vec<&[u8]> = vec![&l81; 5];
        assert_eq!(parse_five_lines(&five).unwrap().0, SamuraiGrid::EMPTY);
        let mut block = Vec::new();
        SamuraiGrid::EMPTY.write_block(&mut block);
        let text = String::from_utf8(block).unwrap();
        assert_eq!(parse_block(&lines(&text)).unwrap(), SamuraiGrid::EMPTY);
    }

    #[test]
    fn line_keeps_the_tail_and_reports_bad_lengths() {
        let mut line = vec![b'.'; 405];
        line.extend_from_slice(b" 7.3 extra");
        let (_, t) = parse_line(&line).unwrap();
        assert_eq!(&line[t..], b"7.3 extra");
        let e = parse_line(&[b'.'; 404]).unwrap_err();
        assert_eq!(e.to_string(), "only 404 cells, expected 405");
        assert_eq!(e.col, 405);
        let e = parse_line(&[b'.'; 406]).unwrap_err();
        assert_eq!(
            e.kind,
            SamuraiParseErrorKind::TooManyCells { expected: 405 }
        );
        let mut bad = vec![b'.'; 405];
        bad[100] = b'x';
        let e = parse_line(&bad).unwrap_err();
        assert_eq!(
            (e.col, e.to_string().as_str()),
            (101, "invalid character 'x'")
        );
    }

    #[test]
    fn shared_cells_must_agree() {
        let mut line = vec![b'.'; 405];
        line[60] = b'4'; // grid 1 r7c7
        let e = parse_line(&line).unwrap_err();
        assert!(matches!(e.kind, SamuraiParseErrorKind::SharedMismatch(_)));
        // Points at the copy in grid 3 (r1c1 = byte 163).
        assert_eq!(e.col, 2 * 81 + 1);
        assert_eq!(
            e.to_string(),
            "shared cell g1r7c7 = g3r1c1 is '4' in grid 1 but '.' in grid 3"
        );
        line[162] = b'4';
        let (g, _) = parse_line(&line).unwrap();
        assert_eq!(
            g.digit(SubGrid::CENTRE.cell(Cell::at(0, 0))),
            Some(Digit::new(4))
        );
    }

    #[test]
    fn duplicates_name_the_house_and_point_at_the_cell() {
        let l81 = [b'.'; 81];
        let mut centre = l81;
        centre[40] = b'5';
        centre[44] = b'5';
        let five: Vec<&[u8]> = vec![&l81, &l81, &centre, &l81, &l81];
        let e = parse_five_lines(&five).unwrap_err();
        assert_eq!(e.to_string(), "digit 5 twice in grid 3 row 5 (at g3r5c9)");
        assert_eq!((e.line, e.col), (2, 45));
    }

    #[test]
    fn five_lines_allow_a_tail_only_on_the_first() {
        let mut first = vec![b'.'; 81];
        first.extend_from_slice(b";id-7");
        let l81 = vec![b'.'; 81];
        let five: Vec<&[u8]> = vec![&first, &l81, &l81, &l81, &l81];
        let (_, t) = parse_five_lines(&five).unwrap();
        assert_eq!(&first[t..], b"id-7");
        let mut third = l81.clone();
        third.extend_from_slice(b" x");
        let five: Vec<&[u8]> = vec![&l81, &l81, &third, &l81, &l81];
        let e = parse_five_lines(&five).unwrap_err();
        assert_eq!((e.line, e.kind), (2, SamuraiParseErrorKind::UnexpectedTail));
        let e = parse_five_lines(&[&l81[..], &l81, &l81]).unwrap_err();
        assert_eq!(
            e.kind,
            SamuraiParseErrorKind::TooFewLines {
                found: 3,
                expected: 5
            }
        );
    }

    #[test]
    fn block_errors_say_which_line_and_column() {
        let mut block = Vec::new();
        SamuraiGrid::EMPTY.write_block(&mut block);
        let text = String::from_utf8(block).unwrap();
        let good = lines(&text);

        let mut v = good.clone();
        v[0] = b".........  5.........";
        let e = parse_block(&v).unwrap_err();
        assert_eq!(
            (e.line, e.col, e.kind),
            (0, 12, SamuraiParseErrorKind::CellInGap(b'5'))
        );

        let mut v = good.clone();
        v[3] = b".........   ....";
        let e = parse_block(&v).unwrap_err();
        assert_eq!(
            e.to_string(),
            "block line 4 has 16 characters, its grid cells need 21"
        );

        let mut v = good.clone();
        v[9] = b"      .........  .";
        let e = parse_block(&v).unwrap_err();
        assert_eq!((e.line, e.col), (9, 18));

        let mut v = good.clone();
        v[10] = b"      .... ....";
        let e = parse_block(&v).unwrap_err();
        assert_eq!((e.col, e.kind), (11, SamuraiParseErrorKind::GapInGrid));

        let mut v = good.clone();
        v[7] = b"......................";
        let e = parse_block(&v).unwrap_err();
        assert_eq!(e.kind, SamuraiParseErrorKind::LineTooLong { len: 22 });

        let e = parse_block(&good[..20]).unwrap_err();
        assert_eq!(e.to_string(), "record has 20 lines, expected 21");

        // Trailing whitespace and CR are fine.
        let mut v = good.clone();
        v[9] = b"      .........   \r";
        assert!(parse_block(&v).is_ok());
    }
}
