//! Output: encoding rows as CSV, TSV or JSON Lines into a byte buffer, and the sink they go
//! to (stdout, or `FILE.partial` renamed to `FILE` once the run completes).
//!
//! Rows are encoded by the workers into reused buffers; the sink only copies bytes.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The row encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// Comma-separated values, RFC 4180 quoting where needed.
    #[default]
    Csv,
    /// Tab-separated values; tabs, line breaks and backslashes in fields escaped as `\t`,
    /// `\n`, `\r`, `\\`.
    Tsv,
    /// One JSON object per line; numbers as numbers, absent values as `null`.
    Jsonl,
    /// For consumers in the same process (the Python bindings): each field as its kind and
    /// its bytes, with no quoting, escaping or line breaks, read back by [`FieldReader`].
    /// Rows are the fields of the columns in order; there is no header.
    ///
    /// ```text
    /// Null   0
    /// Int    1  u64 (little-endian, 8 bytes)
    /// Text   2  len (u32, little-endian)  bytes
    /// Raw    3  len  bytes
    /// Plain  4  len  bytes
    /// ```
    Fields,
}

/// One field of a row.
#[derive(Clone, Copy, Debug)]
pub enum Field<'a> {
    /// A whole number.
    Int(u64),
    /// Text (usually ASCII; other bytes are passed through, or for JSON replaced by U+FFFD
    /// when they are not UTF-8).
    Text(&'a [u8]),
    /// A value to be written as-is (numbers such as `8.5`, or `>=9.5`).
    Raw(&'a [u8]),
    /// Text that needs no quoting or escaping in any format (grids: digits and `.`); a
    /// string in JSON.
    Plain(&'a [u8]),
    /// Named counts (a technique profile): `name:count` joined by `;` in CSV/TSV (empty
    /// when there are none), an object `{"name":count,...}` in JSON. Names must hold no
    /// `,` `;` `:` `"`, tab or line break (checked in debug builds).
    Counts(&'a [(&'static str, u32)]),
    /// No value: empty in CSV/TSV, `null` in JSON.
    Null,
}

/// Encodes rows of a fixed set of columns.
#[derive(Clone, Debug)]
pub struct RowEncoder {
    format: OutputFormat,
    columns: Vec<&'static str>,
}

impl RowEncoder {
    /// An encoder for `columns` in `format`.
    pub fn new(format: OutputFormat, columns: Vec<&'static str>) -> RowEncoder {
        RowEncoder { format, columns }
    }

    /// The column names.
    pub fn columns(&self) -> &[&'static str] {
        &self.columns
    }

    /// Writes the header line (nothing for JSON Lines, whose rows name their fields).
    pub fn write_header(&self, out: &mut Vec<u8>) {
        let sep = match self.format {
            OutputFormat::Csv => b',',
            OutputFormat::Tsv => b'\t',
            OutputFormat::Jsonl | OutputFormat::Fields => return,
        };
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 {
                out.push(sep);
            }
            out.extend_from_slice(c.as_bytes());
        }
        out.push(b'\n');
    }

    /// Writes one row; `fields` must match the columns in number and order.
    pub fn write_row(&self, out: &mut Vec<u8>, fields: &[Field<'_>]) {
        debug_assert_eq!(fields.len(), self.columns.len());
        match self.format {
            OutputFormat::Fields => {
                for f in fields {
                    write_field(out, f);
                }
                return;
            }
            OutputFormat::Csv | OutputFormat::Tsv => {
                let tsv = self.format == OutputFormat::Tsv;
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(if tsv { b'\t' } else { b',' });
                    }
                    match *f {
                        Field::Int(n) => write_int(out, n),
                        Field::Raw(b) | Field::Plain(b) => out.extend_from_slice(b),
                        Field::Text(b) if tsv => tsv_escape(out, b),
                        Field::Text(b) => csv_quote(out, b),
                        Field::Counts(c) => write_counts(out, c),
                        Field::Null => {}
                    }
                }
            }
            OutputFormat::Jsonl => {
                out.push(b'{');
                for (i, (name, f)) in self.columns.iter().zip(fields).enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.push(b'"');
                    out.extend_from_slice(name.as_bytes());
                    out.extend_from_slice(b"\":");
                    match *f {
                        Field::Int(n) => write_int(out, n),
                        Field::Raw(b) if is_json_number(b) => out.extend_from_slice(b),
                        Field::Plain(b) => {
                            out.push(b'"');
                            out.extend_from_slice(b);
                            out.push(b'"');
                        }
                        Field::Raw(b) | Field::Text(b) => json_string(out, b),
                        Field::Counts(c) => {
                            out.push(b'{');
                            for (k, (name, n)) in c.iter().enumerate() {
                                if k > 0 {
                                    out.push(b',');
                                }
                                json_string(out, name.as_bytes());
                                out.push(b':');
                                write_int(out, u64::from(*n));
                            }
                            out.push(b'}');
                        }
                        Field::Null => out.extend_from_slice(b"null"),
                    }
                }
                out.push(b'}');
            }
        }
        out.push(b'\n');
    }
}

/// The tags of [`OutputFormat::Fields`].
const TAG_NULL: u8 = 0;
const TAG_INT: u8 = 1;
const TAG_TEXT: u8 = 2;
const TAG_RAW: u8 = 3;
const TAG_PLAIN: u8 = 4;

/// Named counts as the text CSV holds (`name:count` joined by `;`).
pub fn counts_text(c: &[(&'static str, u32)]) -> String {
    let mut out = Vec::new();
    write_counts(&mut out, c);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes named counts as `name:count` joined by `;`.
fn write_counts(out: &mut Vec<u8>, c: &[(&'static str, u32)]) {
    for (k, (name, n)) in c.iter().enumerate() {
        debug_assert!(!name.contains([',', ';', ':', '"', '\t', '\n']));
        if k > 0 {
            out.push(b';');
        }
        out.extend_from_slice(name.as_bytes());
        out.push(b':');
        write_int(out, u64::from(*n));
    }
}

/// Appends one field in the [`OutputFormat::Fields`] encoding.
fn write_field(out: &mut Vec<u8>, f: &Field<'_>) {
    let (tag, bytes) = match *f {
        Field::Counts(c) => {
            // Text, in the CSV form: the length is known once it is written.
            out.push(TAG_TEXT);
            let at = out.len();
            out.extend_from_slice(&[0; 4]);
            write_counts(out, c);
            let len = u32::try_from(out.len() - at - 4).unwrap_or(u32::MAX);
            out[at..at + 4].copy_from_slice(&len.to_le_bytes());
            return;
        }
        Field::Null => {
            out.push(TAG_NULL);
            return;
        }
        Field::Int(n) => {
            out.push(TAG_INT);
            out.extend_from_slice(&n.to_le_bytes());
            return;
        }
        Field::Text(b) => (TAG_TEXT, b),
        Field::Raw(b) => (TAG_RAW, b),
        Field::Plain(b) => (TAG_PLAIN, b),
    };
    // Records are at most MAX_RECORD (1 MiB) long, so a field's length fits in a u32.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.push(tag);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&bytes[..len as usize]);
}

/// Reads back the fields of rows written in the [`OutputFormat::Fields`] encoding, in
/// order, borrowing their bytes.
#[derive(Clone, Debug)]
pub struct FieldReader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> FieldReader<'a> {
    /// A reader of the fields in `buf`.
    pub fn new(buf: &'a [u8]) -> FieldReader<'a> {
        FieldReader { buf, pos: 0 }
    }

    /// True when every field has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    /// The next field; `None` at the end of the buffer, or when the buffer is cut inside a
    /// field or holds an unknown tag (which the writer above never produces).
    pub fn next_field(&mut self) -> Option<Field<'a>> {
        let rest = &self.buf[self.pos.min(self.buf.len())..];
        let (&tag, rest) = rest.split_first()?;
        let (field, used) = match tag {
            TAG_NULL => (Field::Null, 0),
            TAG_INT => {
                let n = u64::from_le_bytes(rest.get(..8)?.try_into().ok()?);
                (Field::Int(n), 8)
            }
            TAG_TEXT | TAG_RAW | TAG_PLAIN => {
                let len = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
                let b = rest.get(4..4 + len)?;
                let f = match tag {
                    TAG_TEXT => Field::Text(b),
                    TAG_RAW => Field::Raw(b),
                    _ => Field::Plain(b),
                };
                (f, 4 + len)
            }
            _ => return None,
        };
        self.pos += 1 + used;
        Some(field)
    }
}

impl<'a> Iterator for FieldReader<'a> {
    type Item = Field<'a>;

    fn next(&mut self) -> Option<Field<'a>> {
        self.next_field()
    }
}

/// Writes `n` in decimal.
#[inline]
pub fn write_int(out: &mut Vec<u8>, mut n: u64) {
    // Digits from the right into a small buffer: no formatting machinery per field.
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

fn is_json_number(b: &[u8]) -> bool {
    !b.is_empty() && b.iter().all(|c| c.is_ascii_digit() || *c == b'.') && b[0] != b'.'
}

/// RFC 4180: a field holding a comma, a quote or a line break is quoted, quotes doubled.
fn csv_quote(out: &mut Vec<u8>, b: &[u8]) {
    if !b.iter().any(|&c| matches!(c, b',' | b'"' | b'\n' | b'\r')) {
        out.extend_from_slice(b);
        return;
    }
    out.push(b'"');
    for &c in b {
        if c == b'"' {
            out.push(b'"');
        }
        out.push(c);
    }
    out.push(b'"');
}

fn tsv_escape(out: &mut Vec<u8>, b: &[u8]) {
    for &c in b {
        match c {
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(c),
        }
    }
}

fn json_string(out: &mut Vec<u8>, b: &[u8]) {
    let s = String::from_utf8_lossy(b);
    // Serializing a string into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s.as_ref());
}

/// Where rows go: stdout, or a file written as `FILE.partial` and renamed on success.
pub struct Sink {
    writer: BufWriter<Box<dyn Write + Send>>,
    /// `(partial, final)` paths when writing to a file.
    paths: Option<(PathBuf, PathBuf)>,
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink").field("paths", &self.paths).finish()
    }
}

impl Sink {
    /// Rows to standard output.
    pub fn stdout() -> Sink {
        Sink {
            writer: BufWriter::with_capacity(1 << 20, Box::new(io::stdout())),
            paths: None,
        }
    }

    /// Rows to any writer (tests, embedding).
    pub fn writer(w: Box<dyn Write + Send>) -> Sink {
        Sink {
            writer: BufWriter::with_capacity(1 << 16, w),
            paths: None,
        }
    }

    /// Rows to `path`, through `path.partial`. An existing `path` is left untouched until
    /// the run completes. A path that names something other than a regular file (a device
    /// such as `/dev/null`, a FIFO) is written directly.
    pub fn file(path: &Path) -> io::Result<Sink> {
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let f = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok(Sink {
                writer: BufWriter::with_capacity(1 << 20, Box::new(f)),
                paths: None,
            });
        }
        let partial = partial_path(path);
        let f = File::create(&partial)?;
        Ok(Sink {
            writer: BufWriter::with_capacity(1 << 20, Box::new(f)),
            paths: Some((partial, path.to_path_buf())),
        })
    }

    /// The path rows are being written to (the `.partial` file), if not stdout.
    pub fn partial_path(&self) -> Option<&Path> {
        self.paths.as_ref().map(|(p, _)| p.as_path())
    }

    /// Writes bytes.
    pub fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        self.writer.write_all(b)
    }

    /// Flushes buffered rows (every complete row written so far reaches the file).
    pub fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }

    /// Flushes and, for a file, renames `FILE.partial` to `FILE`.
    pub fn finish(mut self) -> io::Result<()> {
        self.writer.flush()?;
        if let Some((partial, dest)) = self.paths.take() {
            let inner = self.writer.into_inner().map_err(|e| e.into_error())?;
            drop(inner);
            std::fs::rename(&partial, &dest)?;
        }
        Ok(())
    }
}

/// `FILE.partial` for `FILE`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(format: OutputFormat, fields: &[Field<'_>]) -> String {
        let e = RowEncoder::new(format, vec!["a", "b", "c", "d"]);
        let mut out = Vec::new();
        e.write_row(&mut out, fields);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn fields_are_quoted_or_escaped_per_format() {
        let f = [
            Field::Int(7),
            Field::Text(b"x,\"y\""),
            Field::Null,
            Field::Raw(b"8.5"),
        ];
        assert_eq!(row(OutputFormat::Csv, &f), "7,\"x,\"\"y\"\"\",,8.5\n");
        assert_eq!(row(OutputFormat::Tsv, &f), "7\tx,\"y\"\t\t8.5\n");
        assert_eq!(
            row(OutputFormat::Jsonl, &f),
            "{\"a\":7,\"b\":\"x,\\\"y\\\"\",\"c\":null,\"d\":8.5}\n"
        );
        let t = [
            Field::Text(b"a\tb\n"),
            Field::Null,
            Field::Null,
            Field::Raw(b">=9.5"),
        ];
        assert_eq!(row(OutputFormat::Tsv, &t), "a\\tb\\n\t\t\t>=9.5\n");
        assert!(row(OutputFormat::Jsonl, &t).ends_with("\"d\":\">=9.5\"}\n"));
    }

    #[test]
    fn packed_fields_read_back_as_written() {
        let f = [
            Field::Int(u64::MAX - 7),
            Field::Text(b"x,\"y\"\n\xff"),
            Field::Null,
            Field::Raw(b">=9.5"),
        ];
        let g = [Field::Int(0), Field::Null, Field::Plain(b""), Field::Null];
        let e = RowEncoder::new(OutputFormat::Fields, vec!["a", "b", "c", "d"]);
        let mut out = Vec::new();
        e.write_header(&mut out);
        assert!(out.is_empty());
        e.write_row(&mut out, &f);
        e.write_row(&mut out, &g);
        let back: Vec<String> = FieldReader::new(&out).map(|f| format!("{f:?}")).collect();
        let want: Vec<String> = f.iter().chain(&g).map(|f| format!("{f:?}")).collect();
        assert_eq!(back, want);
        // A cut buffer ends the fields instead of reading past it: without its last three
        // bytes (the final Null and half the length of the empty Plain before it), six
        // fields remain.
        let mut r = FieldReader::new(&out[..out.len() - 3]);
        assert_eq!(r.by_ref().count(), 6);
        assert!(!r.is_empty());
    }
}
