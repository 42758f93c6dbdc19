//! Jigsaw records: a puzzle's 81 cells and the region (1-9) of each cell.
//!
//! Three forms are read, as the other shapes' records:
//!
//! - one line: the 81 cells, one optional separator (space, tab, `,`, `;`, `|`), the 81
//!   region ids `1`-`9` in reading order, then the usual tail (a separator and any text);
//! - a block: nine lines of cells (as a classic grid block), then nine lines of nine region
//!   ids each (spaces and `|` allowed between them);
//! - a field of region ids (CSV `regions` column): exactly 81 ids.
//!
//! Region ids are kept zero-based (`0..9`); a layout must be nine regions of nine cells
//! (checked by [`crate::core::geometry::check_regions`]; regions need not be connected).

use std::fmt;

use super::geometry::{LayoutError, check_regions};
use super::grid::{Grid, ParseError, is_tail_separator};

/// Why a Jigsaw record cannot be read, and where (1-based column in the line, or byte
/// offset plus one in a block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JigsawError {
    /// 1-based column (line), or byte offset plus one (block, field).
    pub col: usize,
    /// What is wrong.
    pub kind: JigsawErrorKind,
}

/// What is wrong with a Jigsaw record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JigsawErrorKind {
    /// The cells are unreadable.
    Cells(super::grid::ParseErrorKind),
    /// Fewer than 81 region ids (how many were read).
    TooFewIds(usize),
    /// More than 81 region ids.
    TooManyIds,
    /// A byte that is not a region id `1`-`9`.
    BadId(u8),
    /// The regions are not nine regions of nine cells.
    Layout(LayoutError),
}

impl fmt::Display for JigsawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            JigsawErrorKind::Cells(k) => write!(
                f,
                "{}",
                ParseError {
                    col: self.col,
                    kind: k
                }
            ),
            JigsawErrorKind::TooFewIds(n) => {
                write!(f, "regions: {n} region ids, expected 81 (digits 1-9)")
            }
            JigsawErrorKind::TooManyIds => f.write_str("regions: more than 81 region ids"),
            JigsawErrorKind::BadId(b) if b.is_ascii_graphic() => {
                write!(f, "regions: '{}' is not a region id 1-9", b as char)
            }
            JigsawErrorKind::BadId(b) => write!(f, "regions: byte 0x{b:02x} is not a region id"),
            JigsawErrorKind::Layout(e) => write!(f, "regions: {e}"),
        }
    }
}

impl std::error::Error for JigsawError {}

fn layout(regions: [u8; 81], col: usize) -> Result<[u8; 81], JigsawError> {
    check_regions(&regions).map_err(|e| JigsawError {
        col,
        kind: JigsawErrorKind::Layout(e),
    })?;
    Ok(regions)
}

/// Reads exactly 81 region ids `1`-`9` (nothing else) into zero-based regions, checked.
pub fn parse_regions(field: &[u8]) -> Result<[u8; 81], JigsawError> {
    let mut r = [0u8; 81];
    for (i, &b) in field.iter().enumerate() {
        if i == 81 {
            return Err(JigsawError {
                col: 82,
                kind: JigsawErrorKind::TooManyIds,
            });
        }
        match b {
            b'1'..=b'9' => r[i] = b - b'1',
            _ => {
                return Err(JigsawError {
                    col: i + 1,
                    kind: JigsawErrorKind::BadId(b),
                });
            }
        }
    }
    if field.len() < 81 {
        return Err(JigsawError {
            col: field.len() + 1,
            kind: JigsawErrorKind::TooFewIds(field.len()),
        });
    }
    layout(r, 1)
}

/// Reads a one-line Jigsaw record (without its line terminator): returns the cells, the
/// regions and the byte offset where the tail starts (after its separator), or
/// `line.len()`.
pub fn parse_line(line: &[u8]) -> Result<(Grid, [u8; 81], usize), JigsawError> {
    let cells = line.get(..81).unwrap_or(line);
    let (grid, _) = Grid::parse_line(cells).map_err(|e| JigsawError {
        col: e.col,
        kind: JigsawErrorKind::Cells(e.kind),
    })?;
    let mut at = 81;
    if line
        .get(at)
        .is_some_and(|&b| matches!(b, b' ' | b'\t' | b',' | b';' | b'|'))
    {
        at += 1;
    }
    // The ids run to the end or to the tail's separator; a stray byte among them is
    // reported as such.
    let ids_end = (at..line.len())
        .find(|&i| is_tail_separator(line[i]))
        .unwrap_or(line.len());
    let ids = &line[at..ids_end];
    let regions = match parse_regions(ids) {
        Ok(r) => r,
        Err(mut e) => {
            if let JigsawErrorKind::Layout(_) = e.kind {
                e.col = at + 1;
            } else {
                e.col += at;
            }
            // A byte right after the ids that is neither the end nor a separator.
            return Err(e);
        }
    };
    let tail = match line.get(ids_end) {
        None => line.len(),
        Some(&b) if is_tail_separator(b) => ids_end + 1,
        Some(&b) => {
            return Err(JigsawError {
                col: ids_end + 1,
                kind: JigsawErrorKind::BadId(b),
            });
        }
    };
    Ok((grid, regions, tail))
}

/// Reads a Jigsaw block: nine lines of cells then nine lines of region ids (spaces, tabs,
/// `|` and `+` allowed between ids; separator lines of `-` skipped). `col` in an error is
/// the byte offset in `text` plus one.
pub fn parse_block(text: &[u8]) -> Result<(Grid, [u8; 81]), JigsawError> {
    // The first nine lines that hold cells are the grid.
    let mut rows = 0;
    let mut split = text.len();
    let mut pos = 0;
    while pos < text.len() {
        let end = text[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| pos + p);
        let line = &text[pos..end];
        if line
            .iter()
            .any(|&b| b.is_ascii_digit() || super::grid::is_blank(b) && b != b'-')
        {
            rows += 1;
        }
        pos = end + 1;
        if rows == 9 {
            split = pos.min(text.len());
            break;
        }
    }
    let grid = Grid::parse_cells(&text[..split]).map_err(|e| JigsawError {
        col: e.col,
        kind: JigsawErrorKind::Cells(e.kind),
    })?;
    let mut r = [0u8; 81];
    let mut n = 0;
    for (i, &b) in text[split..].iter().enumerate() {
        match b {
            b'1'..=b'9' => {
                if n == 81 {
                    return Err(JigsawError {
                        col: split + i + 1,
                        kind: JigsawErrorKind::TooManyIds,
                    });
                }
                r[n] = b - b'1';
                n += 1;
            }
            b' ' | b'\t' | b'\r' | b'\n' | b'|' | b'+' | b'-' => {}
            _ => {
                return Err(JigsawError {
                    col: split + i + 1,
                    kind: JigsawErrorKind::BadId(b),
                });
            }
        }
    }
    if n < 81 {
        return Err(JigsawError {
            col: text.len() + 1,
            kind: JigsawErrorKind::TooFewIds(n),
        });
    }
    Ok((grid, layout(r, split + 1)?))
}

/// Appends the 81 region ids (`1`-`9`) to `out`.
pub fn write_regions(regions: &[u8; 81], out: &mut Vec<u8>) {
    out.extend(regions.iter().map(|&r| b'1' + r));
}

#[cfg(test)]
mod tests {
    use super::*;

    const CELLS: &str =
        "3.......4..2.6.1...1.9.8.2...5...6...2.....1...9...8...8.3.4.6...4.1.9..5.......7";

    fn boxes() -> String {
        (0..81)
            .map(|c| char::from(b'1' + (c / 27) * 3 + (c % 9) / 3))
            .collect()
    }

    #[test]
    fn lines_with_and_without_a_separator_and_a_tail() {
        let ids = boxes();
        for sep in ["", " ", ",", "|", ";", "\t"] {
            let line = format!("{CELLS}{sep}{ids}");
            let (g, r, tail) = parse_line(line.as_bytes()).expect(sep);
            assert_eq!(g.to_string(), CELLS);
            assert_eq!(r[80], 8);
            assert_eq!(tail, line.len());
            let with_tail = format!("{line} 10.5 id7");
            let (_, _, t) = parse_line(with_tail.as_bytes()).unwrap();
            assert_eq!(&with_tail[t..], "10.5 id7");
        }
        let mut out = Vec::new();
        let (_, r, _) = parse_line(format!("{CELLS} {ids}").as_bytes()).unwrap();
        write_regions(&r, &mut out);
        assert_eq!(out, ids.as_bytes());
    }

    #[test]
    fn bad_layouts_and_ids_say_what_and_where() {
        let ids = boxes();
        let short = format!("{CELLS} {}", &ids[..80]);
        let e = parse_line(short.as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "regions: 80 region ids, expected 81 (digits 1-9)"
        );
        let mut bad = ids.clone().into_bytes();
        bad[3] = b'0';
        let e = parse_line(format!("{CELLS} {}", String::from_utf8(bad).unwrap()).as_bytes())
            .unwrap_err();
        assert_eq!(
            (e.col, e.to_string()),
            (86, "regions: '0' is not a region id 1-9".into())
        );
        let mut uneven = ids.clone().into_bytes();
        uneven[0] = b'2';
        let e = parse_line(format!("{CELLS} {}", String::from_utf8(uneven).unwrap()).as_bytes())
            .unwrap_err();
        assert_eq!(e.to_string(), "regions: region 1 has 8 cells, not 9");
        assert!(parse_regions(b"123").is_err());
    }

    #[test]
    fn blocks_of_nine_plus_nine_lines() {
        let mut text = String::new();
        for r in 0..9 {
            text.push_str(&CELLS[r * 9..r * 9 + 9]);
            text.push('\n');
        }
        let ids = boxes();
        for r in 0..9 {
            let row: Vec<&str> = (0..9).map(|c| &ids[r * 9 + c..r * 9 + c + 1]).collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        let (g, r) = parse_block(text.as_bytes()).expect("block");
        assert_eq!(g.to_string(), CELLS);
        assert_eq!(r[40], 4);
        let cut = &text[..text.len() - 4];
        assert!(parse_block(cut.as_bytes()).is_err());
    }
}
