//! Record formats: detecting them and splitting a byte buffer into records.
//!
//! A record is one puzzle as it stands in the input: an 81-cell line (with an optional
//! tail), one row of a CSV file with a header, or a nine-line grid block. The splitter works
//! on a buffer that may end in the middle of a record (stdin arrives in chunks): it stops
//! before an incomplete record unless it is told the buffer is the end of the input, and
//! reports how many bytes it consumed, so the rest can be carried into the next chunk.
//!
//! Records borrow from the buffer; CSV fields, which may need unquoting, are copied into a
//! reused arena. Nothing here allocates per record once the vectors have grown.

use std::ops::Range;

use crate::core::grid::{Grid, is_blank};
use crate::core::samurai::SamuraiForm;

/// The longest record read; a longer one is an `invalid` row (and, on a stream, is skipped
/// without being buffered), so memory stays bounded whatever the input.
pub const MAX_RECORD: usize = 1 << 20;

/// The reason given for a record longer than [`MAX_RECORD`].
pub const TOO_LONG: &str = "record longer than 1 MiB";

/// How records are laid out in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// One puzzle per line: 81 cells, then an optional tail.
    Line,
    /// CSV with a header; the layout says which columns matter.
    Csv(CsvLayout),
    /// Nine-line grid blocks, with or without `|`, `+` and `-` separators.
    Grid,
    /// Samurai puzzles (`--variant samurai`): each record a 405-cell line, five 81-cell
    /// lines, or a 21-line block, told apart by its first line
    /// ([`SamuraiForm::detect`]).
    Samurai,
}

/// The columns of a CSV input that sudoku-batch reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvLayout {
    /// Index of the puzzle column.
    pub puzzle: usize,
    /// Index of the known-solution column, if any.
    pub solution: Option<usize>,
    /// Index of the id column, if any.
    pub id: Option<usize>,
    /// Index of the Jigsaw regions column, if any.
    pub regions: Option<usize>,
    /// The header's field delimiter (`,` or a tab).
    pub delimiter: u8,
}

/// Header names recognised for the puzzle column (the Kaggle and Hugging Face datasets).
pub const PUZZLE_COLUMNS: &[&str] = &["quizzes", "quiz", "puzzle", "puzzles", "question"];
/// Header names recognised for the solution column.
pub const SOLUTION_COLUMNS: &[&str] = &["solutions", "solution", "answer", "answers"];
/// Header names recognised for the id column.
pub const ID_COLUMNS: &[&str] = &["id"];
/// Header names recognised for a Jigsaw puzzle's regions column (81 ids `1`-`9`).
pub const REGION_COLUMNS: &[&str] = &["regions", "region", "layout"];

/// How the cells of a record are to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellsKind {
    /// A line: 81 cells at the start, then an optional separator and tail.
    Line,
    /// A CSV field: exactly 81 cells, nothing else.
    Field,
    /// A nine-line block: cells among separators and line breaks.
    Block,
    /// A samurai record of the given form: its lines, separated by line breaks.
    Samurai(SamuraiForm),
}

/// One record, borrowed from the input buffer or the splitter's arena.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// Byte offset in the split buffer where the record's first line starts.
    pub offset: usize,
    /// The id column (CSV), else empty.
    pub id: &'a [u8],
    /// The text holding the cells (for lines: the whole line, tail included).
    pub text: &'a [u8],
    /// How to read `text`.
    pub kind: CellsKind,
    /// Extra fields passed through as the tail (CSV: the columns not read), else empty.
    pub tail: &'a [u8],
    /// The known solution column (CSV), else empty.
    pub expected: &'a [u8],
    /// The Jigsaw regions column (CSV), else empty.
    pub regions: &'a [u8],
    /// A problem found while splitting (e.g. a grid block with too few rows): the record is
    /// invalid for this reason, at this (line, column).
    pub fault: Option<(u64, usize, &'static str)>,
}

/// A record as ranges, before the arena it may point into is final.
#[derive(Clone, Debug, Default)]
struct RawRecord {
    line: u64,
    offset: usize,
    id: Span,
    text: Span,
    kind: Option<CellsKind>,
    tail: Span,
    expected: Span,
    regions: Span,
    fault: Option<(u64, usize, &'static str)>,
}

/// Where a field's bytes live: in the input buffer or in the arena.
#[derive(Clone, Debug, Default)]
enum Span {
    #[default]
    Empty,
    Buf(Range<usize>),
    Arena(Range<usize>),
}

impl Span {
    fn get<'a>(&self, buf: &'a [u8], arena: &'a [u8]) -> &'a [u8] {
        match self {
            Span::Empty => &[],
            Span::Buf(r) => &buf[r.clone()],
            Span::Arena(r) => &arena[r.clone()],
        }
    }
}

/// Strips one trailing `\r`.
#[inline]
fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The line that starts at `pos` (line `line_no`): where its text starts (after a
/// byte-order mark on line 1), where the line ends (its `\n` or the buffer's end), and its
/// text without a trailing CR. `None` when the line runs to the end of a buffer that is not
/// the last, as it may go on in the next one.
#[inline]
fn line_at(buf: &[u8], pos: usize, line_no: u64, is_last: bool) -> Option<(usize, usize, &[u8])> {
    let end = line_end(buf, pos);
    if end == buf.len() && !is_last {
        return None;
    }
    let start = if line_no == 1 {
        pos + bom_len(&buf[pos..end])
    } else {
        pos
    };
    Some((start, end, trim_cr(&buf[start..end])))
}

/// The row of a record longer than [`MAX_RECORD`] at line `line_no`, byte `offset`.
fn too_long(line_no: u64, offset: usize) -> RawRecord {
    RawRecord {
        line: line_no,
        offset,
        fault: Some((line_no, 1, TOO_LONG)),
        ..RawRecord::default()
    }
}

/// Finds the next `\n` at or after `from`, returning its index or `buf.len()`.
#[inline]
fn line_end(buf: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &buf[from..]).map_or(buf.len(), |p| from + p)
}

/// True for lines that carry no record: empty (or only white space) and `#` comments.
#[inline]
fn is_skippable(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

/// The number of cells on a line of a grid block (digits and blank marks, separators
/// skipped), or `None` if the line holds a byte that belongs in no grid.
fn block_row_cells(line: &[u8]) -> Option<usize> {
    let mut n = 0;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b == b'-' {
            let run = line[i..].iter().take_while(|&&x| x == b'-').count();
            if run >= 3 {
                i += run;
                continue;
            }
        }
        match b {
            b'1'..=b'9' => n += 1,
            _ if is_blank(b) => n += 1,
            b' ' | b'\t' | b'\r' | b'|' | b'+' => {}
            _ => return None,
        }
        i += 1;
    }
    Some(n)
}

/// The length of a UTF-8 byte-order mark at the start of `buf` (0 or 3).
pub fn bom_len(buf: &[u8]) -> usize {
    if buf.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    }
}

/// Parses a header line into a CSV layout, if it names a known puzzle column.
pub fn csv_layout_from_header(line: &[u8]) -> Option<CsvLayout> {
    let line = trim_cr(line);
    let delimiter = if line.contains(&b',') {
        b','
    } else if line.contains(&b'\t') {
        b'\t'
    } else {
        // A single-column file: `puzzle` alone on the header line.
        b','
    };
    let mut layout = CsvLayout {
        puzzle: usize::MAX,
        solution: None,
        id: None,
        regions: None,
        delimiter,
    };
    for (i, raw) in line.split(|&b| b == delimiter).enumerate() {
        let name = raw.trim_ascii();
        let name = name
            .strip_prefix(b"\"")
            .and_then(|n| n.strip_suffix(b"\""))
            .unwrap_or(name);
        let is = |names: &[&str]| {
            names
                .iter()
                .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
        };
        if layout.puzzle == usize::MAX && is(PUZZLE_COLUMNS) {
            layout.puzzle = i;
        } else if layout.solution.is_none() && is(SOLUTION_COLUMNS) {
            layout.solution = Some(i);
        } else if layout.id.is_none() && is(ID_COLUMNS) {
            layout.id = Some(i);
        } else if layout.regions.is_none() && is(REGION_COLUMNS) {
            layout.regions = Some(i);
        }
    }
    (layout.puzzle != usize::MAX).then_some(layout)
}

/// Guesses the record format from the start of the input: a header naming a puzzle column
/// means CSV; a first record line of 81 cells means lines; a first line of about nine cells
/// (1 to 20, so that a damaged first row still counts) means grid blocks; anything else is read as lines (whose records will then say what is wrong).
/// Returns the format and, for CSV, the byte offset just past the header line.
pub fn detect(buf: &[u8]) -> (RecordFormat, usize) {
    let mut pos = bom_len(buf);
    while pos < buf.len() {
        let end = line_end(buf, pos);
        let line = trim_cr(&buf[pos..end]);
        if !is_skippable(line) {
            if let Some(layout) = csv_layout_from_header(line) {
                return (RecordFormat::Csv(layout), (end + 1).min(buf.len()));
            }
            if Grid::parse_line(line.trim_ascii_start()).is_ok() {
                return (RecordFormat::Line, 0);
            }
            // A row of a grid block: a few cells (nine, or a damaged row of about nine).
            if block_row_cells(line).is_some_and(|n| (1..=20).contains(&n)) {
                return (RecordFormat::Grid, 0);
            }
            return (RecordFormat::Line, 0);
        }
        pos = end + 1;
    }
    (RecordFormat::Line, 0)
}

/// Splits buffers into records, keeping its vectors for reuse.
#[derive(Debug)]
pub struct Splitter {
    format: RecordFormat,
    raw: Vec<RawRecord>,
    arena: Vec<u8>,
    csv_reader: Option<csv_core::Reader>,
    field_ends: Vec<usize>,
    field_buf: Vec<u8>,
    skip_to_newline: bool,
    block_rows: usize,
}

/// What one call of [`Splitter::split`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitProgress {
    /// Bytes of the buffer consumed (whole records and skipped lines).
    pub consumed: usize,
    /// Lines consumed (so the next buffer's first line number is known).
    pub lines: u64,
}

impl Splitter {
    /// A splitter for `format`.
    pub fn new(format: RecordFormat) -> Splitter {
        let csv_reader = match &format {
            RecordFormat::Csv(l) => Some(
                csv_core::ReaderBuilder::new()
                    .delimiter(l.delimiter)
                    .build(),
            ),
            _ => None,
        };
        Splitter {
            format,
            raw: Vec::new(),
            arena: Vec::new(),
            csv_reader,
            field_ends: Vec::new(),
            field_buf: Vec::new(),
            skip_to_newline: false,
            block_rows: 9,
        }
    }

    /// Makes grid blocks `rows` rows long (9; 18 for Jigsaw blocks, whose nine rows of
    /// cells are followed by nine rows of region ids).
    pub fn set_block_rows(&mut self, rows: usize) {
        self.block_rows = rows;
    }

    /// The format this splitter reads.
    pub fn format(&self) -> &RecordFormat {
        &self.format
    }

    /// Splits records from `buf`, whose first byte starts line `first_line`, stopping after
    /// `max_records` records or at the end of the complete records. With `is_last` the end
    /// of `buf` is the end of the input and a final incomplete record is taken as it is.
    /// The records are then read with [`Splitter::records`].
    pub fn split(
        &mut self,
        buf: &[u8],
        first_line: u64,
        max_records: usize,
        is_last: bool,
    ) -> SplitProgress {
        self.raw.clear();
        self.arena.clear();
        let mut from = 0;
        let mut lines = 0;
        if self.skip_to_newline {
            // The rest of an oversized record reported by `split_oversized`.
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.skip_to_newline = false;
                    from = i + 1;
                    lines = 1;
                }
                None => {
                    self.skip_to_newline = !is_last;
                    return SplitProgress {
                        consumed: buf.len(),
                        lines: u64::from(is_last),
                    };
                }
            }
        }
        let first = first_line + lines;
        let p = match self.format {
            RecordFormat::Line => self.split_lines(buf, from, first, max_records, is_last),
            RecordFormat::Grid => self.split_blocks(buf, from, first, max_records, is_last),
            RecordFormat::Csv(_) => self.split_csv(buf, from, first, max_records, is_last),
            RecordFormat::Samurai => self.split_samurai(buf, from, first, max_records, is_last),
        };
        SplitProgress {
            consumed: p.consumed,
            lines: p.lines + lines,
        }
    }

    /// For a stream whose window holds no complete record and is already longer than
    /// [`MAX_RECORD`]: reports the record at the front as invalid, consumes the window, and
    /// skips the rest of that line in later splits, so memory stays bounded.
    pub fn split_oversized(&mut self, buf: &[u8], first_line: u64) -> SplitProgress {
        self.raw.clear();
        self.arena.clear();
        self.raw.push(RawRecord {
            line: first_line,
            fault: Some((first_line, 1, TOO_LONG)),
            ..RawRecord::default()
        });
        self.skip_to_newline = true;
        SplitProgress {
            consumed: buf.len(),
            lines: 0,
        }
    }

    /// The records found by the last [`Splitter::split`] on the same `buf`.
    pub fn records<'a>(&'a self, buf: &'a [u8]) -> impl ExactSizeIterator<Item = Record<'a>> + 'a {
        (0..self.raw.len()).map(move |i| self.record(i, buf))
    }

    /// Record `i` of the last [`Splitter::split`] on the same `buf`.
    pub fn record<'a>(&'a self, i: usize, buf: &'a [u8]) -> Record<'a> {
        let r = &self.raw[i];
        Record {
            line: r.line,
            offset: r.offset,
            id: r.id.get(buf, &self.arena),
            text: r.text.get(buf, &self.arena),
            kind: r.kind.unwrap_or(CellsKind::Line),
            tail: r.tail.get(buf, &self.arena),
            expected: r.expected.get(buf, &self.arena),
            regions: r.regions.get(buf, &self.arena),
            fault: r.fault,
        }
    }

    /// Number of records found by the last split.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// True when the last split found no record.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    fn split_lines(
        &mut self,
        buf: &[u8],
        from: usize,
        first_line: u64,
        max_records: usize,
        is_last: bool,
    ) -> SplitProgress {
        let mut pos = from;
        let mut line_no = first_line;
        while pos < buf.len() && self.raw.len() < max_records {
            let Some((start, end, line)) = line_at(buf, pos, line_no, is_last) else {
                break;
            };
            if line.len() > MAX_RECORD {
                self.raw.push(too_long(line_no, pos));
            } else if !is_skippable(line) {
                self.raw.push(RawRecord {
                    line: line_no,
                    offset: pos,
                    text: Span::Buf(start..start + line.len()),
                    kind: Some(CellsKind::Line),
                    ..RawRecord::default()
                });
            }
            pos = (end + 1).min(buf.len());
            line_no += 1;
        }
        SplitProgress {
            consumed: pos,
            lines: line_no - first_line,
        }
    }

    fn split_blocks(
        &mut self,
        buf: &[u8],
        from: usize,
        first_line: u64,
        max_records: usize,
        is_last: bool,
    ) -> SplitProgress {
        let mut pos = from;
        let mut line_no = first_line;
        // Progress up to the end of the last complete record.
        let mut done = SplitProgress {
            consumed: from,
            lines: 0,
        };
        'records: while pos < buf.len() && self.raw.len() < max_records {
            // Skip blank lines, comments and separator-only lines between blocks.
            let mut start;
            loop {
                if pos >= buf.len() {
                    done = SplitProgress {
                        consumed: buf.len(),
                        lines: line_no - first_line,
                    };
                    break 'records;
                }
                let Some((s, end, line)) = line_at(buf, pos, line_no, is_last) else {
                    break 'records;
                };
                start = s;
                if is_skippable(line) || block_row_cells(line) == Some(0) {
                    pos = (end + 1).min(buf.len());
                    line_no += 1;
                    done = SplitProgress {
                        consumed: pos,
                        lines: line_no - first_line,
                    };
                    continue;
                }
                break;
            }
            // Gather up to nine rows of cells.
            let rec_line = line_no;
            let rec_start = pos;
            let mut rows = 0;
            let mut fault = None;
            let mut text_end = start;
            let mut p = start;
            let mut l = line_no;
            loop {
                if p >= buf.len() {
                    if !is_last {
                        // The block may go on in the next chunk.
                        break 'records;
                    }
                    break;
                }
                let end = line_end(buf, p);
                if end == buf.len() && !is_last {
                    break 'records;
                }
                let line = trim_cr(&buf[p..end]);
                if is_skippable(line) {
                    break;
                }
                match block_row_cells(line) {
                    Some(0) => {}
                    Some(9) => rows += 1,
                    Some(n) => {
                        if fault.is_none() {
                            fault = Some((
                                l,
                                1,
                                if n < 9 {
                                    "grid row has fewer than 9 cells"
                                } else {
                                    "grid row has more than 9 cells"
                                },
                            ));
                        }
                        rows += 1;
                    }
                    None => {
                        if fault.is_none() {
                            fault = Some((l, 1, "invalid character in grid block"));
                        }
                        rows += 1;
                    }
                }
                text_end = end;
                p = (end + 1).min(buf.len());
                l += 1;
                if rows == self.block_rows {
                    break;
                }
            }
            if rows < self.block_rows && fault.is_none() {
                fault = Some((
                    l,
                    1,
                    if self.block_rows == 9 {
                        "grid block ends before its 9th row"
                    } else {
                        "jigsaw block ends before its 18th row (9 of cells, 9 of regions)"
                    },
                ));
            }
            self.raw.push(RawRecord {
                line: rec_line,
                offset: rec_start,
                text: Span::Buf(start..text_end),
                kind: Some(CellsKind::Block),
                fault,
                ..RawRecord::default()
            });
            pos = p;
            line_no = l;
            done = SplitProgress {
                consumed: pos,
                lines: line_no - first_line,
            };
        }
        done
    }

    /// Samurai records: blank and comment lines between records are skipped; each record
    /// takes as many lines as its form needs (1, 5 or 21), fewer when a blank line or the end
    /// comes first (its parser then says so).
    fn split_samurai(
        &mut self,
        buf: &[u8],
        from: usize,
        first_line: u64,
        max_records: usize,
        is_last: bool,
    ) -> SplitProgress {
        let mut pos = from;
        let mut line_no = first_line;
        let mut done = SplitProgress {
            consumed: from,
            lines: 0,
        };
        'records: while pos < buf.len() && self.raw.len() < max_records {
            let Some((start, end, first)) = line_at(buf, pos, line_no, is_last) else {
                break;
            };
            if first.len() > MAX_RECORD {
                self.raw.push(too_long(line_no, pos));
            }
            if is_skippable(first) || first.len() > MAX_RECORD {
                pos = (end + 1).min(buf.len());
                line_no += 1;
                done = SplitProgress {
                    consumed: pos,
                    lines: line_no - first_line,
                };
                continue;
            }
            let form = SamuraiForm::detect(first);
            let (mut p, mut l, mut text_end) = (start, line_no, start);
            for k in 0..form.lines() {
                if p >= buf.len() {
                    if !is_last {
                        // The record may go on in the next chunk.
                        break 'records;
                    }
                    break;
                }
                let e = line_end(buf, p);
                if e == buf.len() && !is_last {
                    // The record may go on in the next chunk.
                    break 'records;
                }
                if k > 0 && is_skippable(trim_cr(&buf[p..e])) {
                    break;
                }
                text_end = e;
                p = (e + 1).min(buf.len());
                l += 1;
            }
            self.raw.push(RawRecord {
                line: line_no,
                offset: pos,
                text: Span::Buf(start..text_end),
                kind: Some(CellsKind::Samurai(form)),
                ..RawRecord::default()
            });
            pos = p;
            line_no = l;
            done = SplitProgress {
                consumed: pos,
                lines: line_no - first_line,
            };
        }
        done
    }

    fn split_csv(
        &mut self,
        buf: &[u8],
        from: usize,
        first_line: u64,
        max_records: usize,
        is_last: bool,
    ) -> SplitProgress {
        let RecordFormat::Csv(layout) = &self.format else {
            return SplitProgress {
                consumed: from,
                lines: 0,
            };
        };
        let layout = layout.clone();
        let mut pos = from;
        let mut line_no = first_line;
        while pos < buf.len() && self.raw.len() < max_records {
            // One record: at least one line, more while a quoted field is open.
            let (rec_end, lines) = match csv_record_end(buf, pos) {
                Some(x) => x,
                None if is_last => (buf.len(), count_lines(&buf[pos..]).max(1)),
                None => break,
            };
            if rec_end - pos > MAX_RECORD {
                // An unterminated quote or a monster field: report it, and go on at the next
                // line break rather than copying megabytes.
                self.raw.push(too_long(line_no, pos));
                let next = line_end(buf, pos);
                pos = (next + 1).min(buf.len());
                line_no += 1;
                continue;
            }
            let line = trim_cr(&buf[pos..rec_end.min(buf.len())]);
            let body = if line_no == 1 {
                &line[bom_len(line)..]
            } else {
                line
            };
            if !is_skippable(body) {
                self.push_csv_record(body, line_no, pos, &layout);
            }
            pos = (rec_end + 1).min(buf.len());
            line_no += lines;
        }
        SplitProgress {
            consumed: pos,
            lines: line_no - first_line,
        }
    }

    /// Parses one CSV record's fields into the arena and pushes the record.
    fn push_csv_record(&mut self, rec: &[u8], line_no: u64, offset: usize, layout: &CsvLayout) {
        let Some(reader) = self.csv_reader.as_mut() else {
            return;
        };
        reader.reset();
        // Unquoting only shrinks a record, and it has at most one field per byte plus one,
        // so one call with buffers this size reads the whole record.
        self.field_buf.clear();
        self.field_buf.resize(rec.len() + 1, 0);
        self.field_ends.clear();
        self.field_ends.resize(rec.len() + 2, 0);
        let (_, _, mut nout, mut nend) =
            reader.read_record(rec, &mut self.field_buf, &mut self.field_ends);
        // The record has no terminator here: an empty input ends it. Field ends count from
        // the start of the record's output, across calls.
        let (_, _, nout2, nend2) = reader.read_record(
            &[],
            &mut self.field_buf[nout..],
            &mut self.field_ends[nend..],
        );
        nout += nout2;
        nend += nend2;
        let ends = &self.field_ends[..nend];
        let field = |i: usize| -> Option<Range<usize>> {
            let end = *ends.get(i)?;
            let start = if i == 0 { 0 } else { ends[i - 1] };
            Some(start..end)
        };
        let base = self.arena.len();
        self.arena.extend_from_slice(&self.field_buf[..nout]);
        let span = |r: Option<Range<usize>>| match r {
            Some(r) if !r.is_empty() => Span::Arena(base + r.start..base + r.end),
            _ => Span::Empty,
        };
        let mut raw = RawRecord {
            line: line_no,
            offset,
            kind: Some(CellsKind::Field),
            id: span(layout.id.and_then(field)),
            expected: span(layout.solution.and_then(field)),
            regions: span(layout.regions.and_then(field)),
            ..RawRecord::default()
        };
        match field(layout.puzzle) {
            Some(r) => raw.text = span(Some(r)),
            None => raw.fault = Some((line_no, 1, "record has no puzzle column")),
        }
        self.raw.push(raw);
    }
}

/// Counts line breaks in `b`, plus one for a final unterminated line.
fn count_lines(b: &[u8]) -> u64 {
    let n = b.iter().filter(|&&x| x == b'\n').count() as u64;
    if b.last().is_some_and(|&x| x != b'\n') {
        n + 1
    } else {
        n
    }
}

/// The index of the `\n` ending the CSV record that starts at `pos` (a newline outside
/// quotes), and the number of lines the record spans; `None` if the buffer ends first.
fn csv_record_end(buf: &[u8], pos: usize) -> Option<(usize, u64)> {
    let mut in_quotes = false;
    let mut lines = 1;
    for (i, &b) in buf[pos..].iter().enumerate() {
        match b {
            b'"' => in_quotes = !in_quotes,
            b'\n' if !in_quotes => return Some((pos + i, lines)),
            b'\n' => lines += 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn split_all(input: &[u8]) -> (RecordFormat, Vec<(u64, String, String, String)>) {
        let (format, skip) = detect(input);
        let mut s = Splitter::new(format.clone());
        let buf = &input[skip..];
        let first = if skip > 0 { 2 } else { 1 };
        let p = s.split(buf, first, usize::MAX, true);
        assert_eq!(p.consumed, buf.len());
        let recs = s
            .records(buf)
            .map(|r| {
                (
                    r.line,
                    String::from_utf8_lossy(r.text).into_owned(),
                    String::from_utf8_lossy(r.id).into_owned(),
                    String::from_utf8_lossy(r.expected).into_owned(),
                )
            })
            .collect();
        (format, recs)
    }

    #[test]
    fn lines_skip_comments_blanks_bom_and_crlf() {
        let input = format!("\u{feff}# comment\r\n\r\n{P} tail\r\n{P}");
        let (format, recs) = split_all(input.as_bytes());
        assert_eq!(format, RecordFormat::Line);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].0, 3);
        assert_eq!(recs[0].1, format!("{P} tail"));
        assert_eq!(recs[1].0, 4);
    }

    #[test]
    fn csv_header_is_detected_with_id_and_solution() {
        let input = format!("id,puzzle,solution,clues\n7,{P},123,17\n\"8\",\"{P}\",,17\n");
        let (format, recs) = split_all(input.as_bytes());
        let RecordFormat::Csv(l) = format else {
            panic!("not csv")
        };
        assert_eq!((l.id, l.puzzle, l.solution), (Some(0), 1, Some(2)));
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0], (2, P.to_string(), "7".into(), "123".into()));
        assert_eq!(recs[1], (3, P.to_string(), "8".into(), "".into()));
    }

    #[test]
    fn csv_quoted_newlines_keep_line_numbers() {
        let input = format!("id,quizzes\n\"a\nb\",{P}\nc,{P}\n");
        let (_, recs) = split_all(input.as_bytes());
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].2, "a\nb");
        assert_eq!(recs[1].0, 4);
    }

    #[test]
    fn grid_blocks_with_separators() {
        let mut block = String::new();
        for r in 0..9 {
            let row = &P[r * 9..r * 9 + 9];
            block.push_str(&format!("{} | {} | {}\n", &row[..3], &row[3..6], &row[6..]));
            if r == 2 || r == 5 {
                block.push_str("------+-------+------\n");
            }
        }
        let input = format!("{block}\n{block}");
        let (format, recs) = split_all(input.as_bytes());
        assert_eq!(format, RecordFormat::Grid);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].0, 13);
        assert_eq!(
            Grid::parse_cells(recs[1].1.as_bytes()).unwrap().to_string(),
            P
        );
    }

    #[test]
    fn samurai_records_of_every_form_split_by_their_first_line() {
        let line = ".".repeat(405);
        let five = format!("{0}\n{0}\n{0}\n{0}\n{0}", ".".repeat(81));
        let mut block = Vec::new();
        crate::core::samurai::SamuraiGrid::EMPTY.write_block(&mut block);
        let block = String::from_utf8(block).unwrap();
        let input = format!("# c\n{line} t\n\n{five}\r\n{block}\n{line}\n");
        let mut s = Splitter::new(RecordFormat::Samurai);
        let p = s.split(input.as_bytes(), 1, usize::MAX, true);
        assert_eq!(p.consumed, input.len());
        let recs: Vec<_> = s.records(input.as_bytes()).collect();
        let kinds: Vec<_> = recs.iter().map(|r| (r.line, r.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (2, CellsKind::Samurai(SamuraiForm::Line)),
                (4, CellsKind::Samurai(SamuraiForm::FiveLines)),
                (9, CellsKind::Samurai(SamuraiForm::Block)),
                (31, CellsKind::Samurai(SamuraiForm::Line)),
            ]
        );
        assert_eq!(recs[2].text.split(|&b| b == b'\n').count(), 21);
        // A record cut by the end of a chunk waits for the rest.
        let cut = &input.as_bytes()[..input.find("      ....").unwrap()];
        let p = s.split(cut, 1, usize::MAX, false);
        assert_eq!((s.len(), p.lines), (2, 8));
    }

    #[test]
    fn incomplete_last_line_waits_for_more_input() {
        let input = format!("{P}\n{}", &P[..40]);
        let mut s = Splitter::new(RecordFormat::Line);
        let p = s.split(input.as_bytes(), 1, usize::MAX, false);
        assert_eq!((p.consumed, p.lines, s.len()), (82, 1, 1));
        let p = s.split(input.as_bytes(), 1, 1, true);
        assert_eq!((p.consumed, s.len()), (82, 1));
    }
}
