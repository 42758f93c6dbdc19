//! The grid shape as a parameter of the commands: reading a record into a puzzle of the
//! shape (classic, X and Windoku read the classic forms; Jigsaw adds the regions; Samurai
//! has its three forms), finding conflicting givens and where they are, and reading all
//! puzzles of a file (for `bench` and `explain`).
//!
//! Each command is written once, generic over the [`Family`] (the 81-cell shapes, or
//! Samurai), with the geometry of the shape in the worker; [`dispatch`] picks the family.

use std::fmt::Write as _;

use crate::config::InputSpec;
use crate::core::family::Family;
use crate::core::geometry::{Geometry, S81, S369, Shape};
use crate::core::grader::givens_conflict;
use crate::core::grid::Grid;
use crate::core::index::Digit;
use crate::core::jigsaw;
use crate::core::samurai::SamuraiGrid;
use crate::core::samurai::format::{self, SamuraiForm};
use crate::error::Error;
use crate::io::records::{CellsKind, Record, RecordFormat, Splitter};

/// Where a record is wrong (1-based line and column); the reason is in the message buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// Line.
    pub line: u64,
    /// Column.
    pub col: usize,
}

/// What a record command needs of a family beyond [`Family`]: reading its records.
pub trait ReadRecord: Family {
    /// True when the givens are checked before solving (Samurai, whose solver needs valid
    /// givens and whose conflicts are located in the record's own form); else they are
    /// checked only when the solver finds no solution, off the hot path. Either way with
    /// [`ReadRecord::conflict`].
    const CHECKS_GIVENS: bool;

    /// Reads the cells of `rec` as a puzzle of `geo`'s shape. A Jigsaw record's regions are
    /// set into `geo` and written (`1`-`9`) into `regions`. On failure the reason goes to
    /// `msg`. Returns the puzzle and the record's tail.
    fn read<'a>(
        rec: &Record<'a>,
        geo: &mut Geometry<Self>,
        regions: &mut Vec<u8>,
        msg: &mut String,
    ) -> Result<(Self::Grid, &'a [u8]), Invalid>;

    /// After the solver found no solution: two givens of one digit in a house, if any,
    /// with the message in `msg`.
    fn conflict(
        rec: &Record<'_>,
        geo: &Geometry<Self>,
        grid: &Self::Grid,
        msg: &mut String,
    ) -> Option<Invalid>;

    /// The record format of an input of this family under `--input-format`.
    fn record_format(auto: crate::config::InputFormat) -> crate::config::InputFormat {
        auto
    }
}

/// A block's byte offset turned into a line and column of the block starting at `line`.
fn block_position(text: &[u8], line: u64, col1: usize) -> Invalid {
    let off = col1.saturating_sub(1).min(text.len());
    let before = &text[..off];
    let nl = before.iter().filter(|&&b| b == b'\n').count() as u64;
    let col = off
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
    Invalid {
        line: line + nl,
        col: col + 1,
    }
}

/// The fault the splitter found in a record, if any.
fn fault(rec: &Record<'_>, msg: &mut String) -> Result<(), Invalid> {
    match rec.fault {
        Some((line, col, why)) => {
            msg.push_str(why);
            Err(Invalid { line, col })
        }
        None => Ok(()),
    }
}

/// Reads a classic record (line, CSV field or grid block): the grid and the tail's offset
/// in `rec.text` (for lines).
fn read_classic(rec: &Record<'_>, msg: &mut String) -> Result<(Grid, usize), Invalid> {
    fault(rec, msg)?;
    match rec.kind {
        CellsKind::Line => {
            let lead = rec
                .text
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            match Grid::parse_line(&rec.text[lead..]) {
                Ok((g, tail)) => Ok((g, lead + tail)),
                Err(e) => {
                    let _ = write!(msg, "{e}");
                    Err(Invalid {
                        line: rec.line,
                        col: lead + e.col,
                    })
                }
            }
        }
        CellsKind::Field => {
            let t = rec.text.trim_ascii();
            match Grid::parse_line(t) {
                Ok((g, end)) if end == t.len() => Ok((g, rec.text.len())),
                Ok(_) => {
                    msg.push_str("more than 81 cells in the puzzle field");
                    Err(Invalid {
                        line: rec.line,
                        col: 82,
                    })
                }
                Err(e) => {
                    let _ = write!(msg, "{e}");
                    Err(Invalid {
                        line: rec.line,
                        col: e.col,
                    })
                }
            }
        }
        CellsKind::Samurai(_) => {
            msg.push_str("a samurai record is not a 9x9 puzzle");
            Err(Invalid {
                line: rec.line,
                col: 1,
            })
        }
        CellsKind::Block => match Grid::parse_cells(rec.text) {
            Ok(g) => Ok((g, rec.text.len())),
            Err(e) => {
                let _ = write!(msg, "{e}");
                Err(block_position(rec.text, rec.line, e.col))
            }
        },
    }
}

/// Reads a Jigsaw record: the grid, its regions and the tail's offset in `rec.text`.
fn read_jigsaw(rec: &Record<'_>, msg: &mut String) -> Result<(Grid, [u8; 81], usize), Invalid> {
    fault(rec, msg)?;
    let fail = |msg: &mut String, e: jigsaw::JigsawError, at: Invalid| {
        let _ = write!(msg, "{e}");
        at
    };
    match rec.kind {
        CellsKind::Line => {
            let lead = rec
                .text
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            jigsaw::parse_line(&rec.text[lead..])
                .map(|(g, r, tail)| (g, r, lead + tail))
                .map_err(|e| {
                    let at = Invalid {
                        line: rec.line,
                        col: lead + e.col,
                    };
                    fail(msg, e, at)
                })
        }
        CellsKind::Field => {
            let (g, _) = read_classic(rec, msg)?;
            if rec.regions.is_empty() {
                msg.push_str("regions: no regions column (a Jigsaw CSV needs `regions`)");
                return Err(Invalid {
                    line: rec.line,
                    col: 1,
                });
            }
            jigsaw::parse_regions(rec.regions.trim_ascii())
                .map(|r| (g, r, rec.text.len()))
                .map_err(|e| {
                    let at = Invalid {
                        line: rec.line,
                        col: 1,
                    };
                    fail(msg, e, at)
                })
        }
        CellsKind::Block => jigsaw::parse_block(rec.text)
            .map(|(g, r)| (g, r, rec.text.len()))
            .map_err(|e| {
                let at = block_position(rec.text, rec.line, e.col);
                fail(msg, e, at)
            }),
        CellsKind::Samurai(_) => {
            msg.push_str("a samurai record is not a jigsaw puzzle");
            Err(Invalid {
                line: rec.line,
                col: 1,
            })
        }
    }
}

impl ReadRecord for S81 {
    const CHECKS_GIVENS: bool = false;

    fn read<'a>(
        rec: &Record<'a>,
        geo: &mut Geometry<S81>,
        regions: &mut Vec<u8>,
        msg: &mut String,
    ) -> Result<(Grid, &'a [u8]), Invalid> {
        let (grid, tail) = if geo.shape() == Shape::Jigsaw {
            let (g, r, tail) = read_jigsaw(rec, msg)?;
            // The layout was checked as it was read (the geometry is rebuilt only when
            // the layout changes).
            S81::set_layout(geo, &r);
            regions.clear();
            jigsaw::write_regions(&r, regions);
            (g, tail)
        } else {
            read_classic(rec, msg)?
        };
        let tail = if rec.kind == CellsKind::Line {
            &rec.text[tail.min(rec.text.len())..]
        } else {
            rec.tail
        };
        Ok((grid, tail))
    }

    fn conflict(
        rec: &Record<'_>,
        geo: &Geometry<S81>,
        grid: &Grid,
        msg: &mut String,
    ) -> Option<Invalid> {
        // The house and digit of the first repeat, and the cell of its second occurrence.
        let (d, h, second) = if geo.shape() == Shape::Classic {
            let c = grid.check_givens().err()?;
            let house = c.house.index();
            let second = c
                .house
                .cells()
                .iter()
                .filter(|&&x| grid.digit(x) == Some(c.digit))
                .nth(1)
                .copied()?;
            (c.digit, house, second)
        } else {
            first_repeat(geo, grid.values())?
        };
        let _ = write!(msg, "digit {d} twice in {}", geo.house_name(h));
        Some(Invalid {
            line: rec.line,
            col: if rec.kind == CellsKind::Line {
                second.index() + 1
            } else {
                1
            },
        })
    }
}

/// The first digit given twice in a house of `g` (houses in id order): the digit, the
/// house and the cell of its second occurrence.
fn first_repeat<F: Family>(
    g: &Geometry<F>,
    values: &F::Cells<u8>,
) -> Option<(Digit, usize, crate::core::index::Cell)> {
    if !givens_conflict(g, values) {
        return None;
    }
    for (h, house) in g.houses().iter().enumerate() {
        let mut seen = 0u16;
        for &c in &house.cells {
            let v = values[c.index()];
            if (1..=9).contains(&v) {
                if seen & (1 << v) != 0 {
                    return Some((Digit::new(v), h, c));
                }
                seen |= 1 << v;
            }
        }
    }
    None
}

/// The lines of a record (at most 21), without their terminators.
pub(crate) fn record_lines<'a>(text: &'a [u8], out: &mut [&'a [u8]; 21]) -> usize {
    let mut n = 0;
    for line in text.split(|&b| b == b'\n') {
        if n == out.len() {
            break;
        }
        out[n] = line.strip_suffix(b"\r").unwrap_or(line);
        n += 1;
    }
    n
}

impl ReadRecord for S369 {
    const CHECKS_GIVENS: bool = true;

    fn read<'a>(
        rec: &Record<'a>,
        _geo: &mut Geometry<S369>,
        _regions: &mut Vec<u8>,
        msg: &mut String,
    ) -> Result<(SamuraiGrid, &'a [u8]), Invalid> {
        fault(rec, msg)?;
        let CellsKind::Samurai(form) = rec.kind else {
            msg.push_str("not a samurai record");
            return Err(Invalid {
                line: rec.line,
                col: 1,
            });
        };
        let mut lines: [&[u8]; 21] = [&[]; 21];
        let n = record_lines(rec.text, &mut lines);
        let lines = &lines[..n];
        let located = |msg: &mut String, e: format::SamuraiParseError| {
            let _ = write!(msg, "{e}");
            Invalid {
                line: rec.line + e.line as u64,
                col: e.col,
            }
        };
        let (grid, tail) = format::read_record(form, lines).map_err(|e| located(msg, e))?;
        let tail: &[u8] = match (form, lines.first()) {
            (SamuraiForm::Block, _) | (_, None) => b"",
            (_, Some(first)) => &first[tail.min(first.len())..],
        };
        Ok((grid, tail))
    }

    fn conflict(
        rec: &Record<'_>,
        _geo: &Geometry<S369>,
        grid: &SamuraiGrid,
        msg: &mut String,
    ) -> Option<Invalid> {
        let CellsKind::Samurai(form) = rec.kind else {
            return None;
        };
        let e = format::check_givens(grid, form).err()?;
        let _ = write!(msg, "{e}");
        Some(Invalid {
            line: rec.line + e.line as u64,
            col: e.col,
        })
    }
}

/// Reads every record of `buf` as puzzles of `geo`'s shape (the first `max` that read),
/// with their geometries for Jigsaw (one layout per puzzle); returns them and how many
/// records were skipped as unreadable.
#[allow(clippy::type_complexity)]
pub fn read_all<F: ReadRecord>(
    buf: &[u8],
    format: RecordFormat,
    geo: &mut Geometry<F>,
    max: usize,
) -> (Vec<(F::Grid, Option<[u8; 81]>)>, usize) {
    let mut splitter = Splitter::new(format);
    if geo.shape() == Shape::Jigsaw {
        splitter.set_block_rows(18);
    }
    splitter.split(buf, 1, usize::MAX, true);
    let (mut out, mut skipped) = (Vec::new(), 0);
    let mut regions = Vec::new();
    let mut msg = String::new();
    for rec in splitter.records(buf) {
        if out.len() == max {
            break;
        }
        msg.clear();
        match F::read(&rec, geo, &mut regions, &mut msg) {
            Ok((g, _)) if F::CHECKS_GIVENS && F::conflict(&rec, geo, &g, &mut msg).is_some() => {
                skipped += 1;
            }
            Ok((g, _)) => {
                let layout = (geo.shape() == Shape::Jigsaw)
                    .then(|| std::array::from_fn(|i| regions[i].wrapping_sub(b'1')));
                out.push((g, layout));
            }
            Err(_) => skipped += 1,
        }
    }
    (out, skipped)
}

/// Reads an input file, or stdin, whole.
pub fn read_input(spec: &InputSpec) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    match spec {
        InputSpec::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Error::Input {
                    path: "-".into(),
                    source: e,
                })?;
            Ok(buf)
        }
        InputSpec::File(p) => std::fs::read(p).map_err(|e| Error::Input {
            path: p.clone(),
            source: e,
        }),
    }
}

/// The record format for reading `buf` as puzzles of `shape`: Samurai records, else the
/// format detected from the start (lines, CSV, grid blocks).
pub fn detect_format(shape: Shape, buf: &[u8]) -> (RecordFormat, usize) {
    if shape == Shape::Samurai {
        (RecordFormat::Samurai, 0)
    } else {
        crate::io::records::detect(buf)
    }
}

/// Calls `$body` with `$F` bound to the family of `$shape` (a type alias in scope).
#[macro_export]
#[doc(hidden)]
macro_rules! dispatch {
    ($shape:expr, $F:ident => $body:expr) => {
        match $shape {
            $crate::core::geometry::Shape::Samurai => {
                type $F = $crate::core::geometry::S369;
                $body
            }
            _ => {
                type $F = $crate::core::geometry::S81;
                $body
            }
        }
    };
}

pub use dispatch;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jigsaw_lines_set_the_regions_and_bad_ones_say_where() {
        let cells =
            "3.......4..2.6.1...1.9.8.2...5...6...2.....1...9...8...8.3.4.6...4.1.9..5.......7";
        let mut ids: Vec<u8> = (0..81u8)
            .map(|c| b'1' + (c / 27) * 3 + (c % 9) / 3)
            .collect();
        ids.swap(0, 80);
        let line = format!("{cells} {} tail", String::from_utf8(ids.clone()).unwrap());
        let rec = Record {
            line: 4,
            offset: 0,
            id: b"",
            text: line.as_bytes(),
            kind: CellsKind::Line,
            tail: b"",
            expected: b"",
            regions: b"",
            fault: None,
        };
        let mut geo = S81::geometry(Shape::Jigsaw);
        let (mut regions, mut msg) = (Vec::new(), String::new());
        let (g, tail) = S81::read(&rec, &mut geo, &mut regions, &mut msg).expect("reads");
        assert_eq!(g.to_string(), cells);
        assert_eq!(tail, b"tail");
        assert_eq!(regions, ids);
        assert_eq!(geo.house(18).cells[0].index(), 1);
        ids[5] = b'x';
        let bad = format!("{cells} {}", String::from_utf8(ids).unwrap());
        let rec = Record {
            text: bad.as_bytes(),
            ..rec
        };
        let e = S81::read(&rec, &mut geo, &mut regions, &mut msg).unwrap_err();
        assert_eq!((e.line, e.col), (4, 88));
        assert!(msg.contains("not a region id"), "{msg}");
    }
}
