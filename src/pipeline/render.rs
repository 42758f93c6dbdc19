//! `render`: reads puzzles (any input format, or the rows `solve` and `generate` write) and
//! draws them with [`crate::render`]: a PDF booklet streamed page by page, one SVG page, or
//! one SVG file per puzzle.
//!
//! ```text
//!  input ──► entries (cells, label, solution, regions), one at a time
//!              │
//!              ├─► page buffer (--per-page entries) ──► draw_page ──► PDF page / SVG page
//!              └─► solutions kept as cell values ───► pages at the back (--solutions)
//! ```
//!
//! Only the page being drawn is held as drawing; the booklet's finished pages are already
//! in the file. With `--solutions` the solutions' cell values (81 or 369 bytes each) and
//! labels wait in memory for the back pages.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::config::{RenderConfig, RenderTarget};
use crate::core::cancel::Cancel;
use crate::core::family::{Family, Solved};
use crate::core::geometry::{Geometry, Shape};
use crate::core::samurai::format::SamuraiForm;
use crate::error::Error;
use crate::io::output::partial_path;
use crate::io::records::{self, CellsKind, PUZZLE_COLUMNS, REGION_COLUMNS, Record, RecordFormat};
use crate::io::records::{ID_COLUMNS, SOLUTION_COLUMNS, Splitter};
use crate::render::draw::{self, GIVEN, Item};
use crate::render::pdf::{PdfBook, PdfCanvas};
use crate::render::shape::{GridLines, ShapeDesc};
use crate::render::svg::SvgCanvas;

use super::shape::{ReadRecord, detect_format, dispatch, read_input};

/// What a `render` run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    /// Puzzles drawn.
    pub puzzles: usize,
    /// Puzzles read but not drawn (beyond the one page of an SVG page output).
    pub not_drawn: usize,
    /// Pages (PDF or SVG page) or files (SVG directory) of puzzles written.
    pub pages: usize,
    /// Pages or files of solutions written.
    pub solution_pages: usize,
    /// Records skipped: `(line, reason)` for the first few.
    pub skipped: Vec<(u64, String)>,
    /// Records skipped in all.
    pub skipped_count: usize,
    /// True when Ctrl-C or SIGTERM stopped the run (what was drawn so far is kept).
    pub interrupted: bool,
    /// The files written.
    pub files: Vec<PathBuf>,
}

impl Rendered {
    /// The summary printed on stderr.
    pub fn text(&self) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let mut t = format!("render: {} puzzle{}", self.puzzles, plural(self.puzzles));
        t.push_str(&format!(", {} page{}", self.pages, plural(self.pages)));
        if self.solution_pages > 0 {
            t.push_str(&format!(" and {} of solutions", self.solution_pages));
        }
        let files: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        if !files.is_empty() {
            t.push_str(&format!(" -> {}", files.join(", ")));
        }
        t.push('\n');
        if self.not_drawn > 0 {
            t.push_str(&format!(
                "render: {} more puzzle(s) read but not drawn: one SVG page holds --per-page puzzles (write a PDF or a directory for all)\n",
                self.not_drawn
            ));
        }
        for (line, why) in &self.skipped {
            t.push_str(&format!("render: line {line}: skipped: {why}\n"));
        }
        if self.skipped_count > self.skipped.len() {
            t.push_str(&format!(
                "render: {} records skipped in all\n",
                self.skipped_count
            ));
        }
        if self.interrupted {
            t.push_str(
                "render: interrupted; the pages drawn so far are kept (a PDF stays FILE.partial)\n",
            );
        }
        t
    }
}

/// Records skipped whose reasons are kept for the summary.
const SKIPPED_SHOWN: usize = 10;

/// One puzzle to draw.
struct Entry {
    cells: Vec<u8>,
    solution: Option<Vec<u8>>,
    regions: Option<[u8; 81]>,
    label: String,
}

/// A puzzle as it waits on a page (or, for solutions, for the back pages).
struct Drawn {
    cells: Vec<u8>,
    regions: Option<[u8; 81]>,
    label: String,
}

/// Runs `render`; `cancel` stops it between pages.
pub fn run(cfg: &RenderConfig, cancel: Cancel) -> Result<Rendered, Error> {
    let buf = read_input(&cfg.input)?;
    dispatch!(cfg.shape, F => run_family::<F>(cfg, &buf, cancel))
}

fn run_family<F: ReadRecord>(
    cfg: &RenderConfig,
    buf: &[u8],
    cancel: Cancel,
) -> Result<Rendered, Error> {
    let mut out = Out::new(cfg)?;
    let mut report = Rendered::default();
    let mut page: Vec<Drawn> = Vec::with_capacity(cfg.per_page);
    let mut solutions: Vec<Drawn> = Vec::new();
    let mut number = 0usize;
    let mut reader = Reader::<F>::new(cfg);
    let max = cfg.max.unwrap_or(usize::MAX);
    let result = reader.for_each(buf, |entry| {
        if number == max {
            return Ok(false);
        }
        number += 1;
        if out.is_single_page() && number > cfg.per_page {
            report.not_drawn += 1;
            return Ok(true);
        }
        let label = entry.label.replace("{n}", &number.to_string());
        if cfg.solutions {
            solutions.push(Drawn {
                cells: entry.solution.unwrap_or_default(),
                regions: entry.regions,
                label: label.clone(),
            });
        }
        page.push(Drawn {
            cells: entry.cells,
            regions: entry.regions,
            label,
        });
        report.puzzles += 1;
        if out.is_per_puzzle() || page.len() == cfg.per_page {
            out.page(cfg, &page, false, number)?;
            page.clear();
            if cancel.requested() {
                report.interrupted = true;
                return Ok(false);
            }
        }
        Ok(true)
    });
    let skipped = result?;
    report.skipped_count = skipped.len();
    report.skipped = skipped.into_iter().take(SKIPPED_SHOWN).collect();
    if !page.is_empty() && !report.interrupted {
        out.page(cfg, &page, false, number)?;
    }
    report.pages = out.pages;
    if !report.interrupted {
        let per = if out.is_per_puzzle() { 1 } else { cfg.per_page };
        for (k, chunk) in solutions.chunks(per).enumerate() {
            out.page(cfg, chunk, true, k + 1)?;
            if cancel.requested() {
                report.interrupted = true;
                break;
            }
        }
    }
    report.solution_pages = out.pages - report.pages;
    if report.puzzles == 0 && !report.interrupted {
        out.discard();
        let why = report
            .skipped
            .first()
            .map(|(line, why)| format!(" (line {line}: {why})"))
            .unwrap_or_default();
        return Err(Error::Usage(format!(
            "no puzzle to draw in {}{why}; nothing written",
            cfg.input.display_name()
        )));
    }
    report.files = out.finish(cfg, report.interrupted)?;
    Ok(report)
}

/// Reads the entries of an input, whatever its form.
struct Reader<'c, F: Family> {
    cfg: &'c RenderConfig,
    geo: Geometry<F>,
    solver: F::Solver,
    regions: Vec<u8>,
    msg: String,
}

/// The label fields of one record: `(name, value)`, names lower case.
type Fields = Vec<(String, String)>;

impl<'c, F: ReadRecord> Reader<'c, F> {
    fn new(cfg: &'c RenderConfig) -> Self {
        Reader {
            cfg,
            geo: F::geometry(cfg.shape),
            solver: F::Solver::default(),
            regions: Vec::new(),
            msg: String::new(),
        }
    }

    /// Calls `f` with each entry until it returns `false`; returns the records skipped.
    fn for_each(
        &mut self,
        buf: &[u8],
        mut f: impl FnMut(Entry) -> Result<bool, Error>,
    ) -> Result<Vec<(u64, String)>, Error> {
        let body = &buf[records::bom_len(buf)..];
        let first = body
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty() && !l.starts_with(b"#"));
        let mut skipped = Vec::new();
        match (first, records::detect(body)) {
            (Some(l), _) if l.starts_with(b"{") => self.json_lines(body, &mut f, &mut skipped)?,
            (_, (RecordFormat::Csv(layout), _)) => {
                self.csv(body, layout.delimiter, &mut f, &mut skipped)?
            }
            _ => self.records(buf, &mut f, &mut skipped)?,
        }
        Ok(skipped)
    }

    /// Puzzle records (lines, grid blocks, Samurai forms): labels from the position, the
    /// line and the id.
    fn records(
        &mut self,
        buf: &[u8],
        f: &mut impl FnMut(Entry) -> Result<bool, Error>,
        skipped: &mut Vec<(u64, String)>,
    ) -> Result<(), Error> {
        let (format, _) = detect_format(self.cfg.shape, buf);
        let mut splitter = Splitter::new(format);
        if self.cfg.shape == Shape::Jigsaw {
            splitter.set_block_rows(18);
        }
        splitter.split(buf, 1, usize::MAX, true);
        for rec in splitter.records(buf) {
            let mut fields = vec![("line".to_string(), rec.line.to_string())];
            if !rec.id.is_empty() {
                fields.push(("id".into(), String::from_utf8_lossy(rec.id).into()));
            }
            match self.entry(&rec, None, &fields) {
                Ok(e) => {
                    if !f(e)? {
                        break;
                    }
                }
                Err(why) => skipped.push((rec.line, why)),
            }
        }
        Ok(())
    }

    /// CSV or TSV with a header (as `solve` and `generate` write it).
    fn csv(
        &mut self,
        body: &[u8],
        delimiter: u8,
        f: &mut impl FnMut(Entry) -> Result<bool, Error>,
        skipped: &mut Vec<(u64, String)>,
    ) -> Result<(), Error> {
        let mut rd = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .from_reader(body);
        let names: Vec<String> = match rd.byte_headers() {
            Ok(h) => h
                .iter()
                .map(|n| String::from_utf8_lossy(n).trim().to_ascii_lowercase())
                .collect(),
            Err(e) => return Err(Error::Usage(format!("cannot read the CSV header: {e}"))),
        };
        let find = |set: &[&str]| names.iter().position(|n| set.contains(&n.as_str()));
        let (puzzle, solution, regions, id) = (
            find(PUZZLE_COLUMNS),
            find(SOLUTION_COLUMNS),
            find(REGION_COLUMNS),
            find(ID_COLUMNS),
        );
        let Some(puzzle) = puzzle else {
            return Err(Error::Usage("the CSV header has no puzzle column".into()));
        };
        let mut row = csv::ByteRecord::new();
        loop {
            let line = rd.position().line();
            match rd.read_byte_record(&mut row) {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) => {
                    skipped.push((line, format!("unreadable CSV row: {e}")));
                    continue;
                }
            }
            let field = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or(b"");
            let fields: Fields = names
                .iter()
                .zip(row.iter())
                .map(|(n, v)| (n.clone(), String::from_utf8_lossy(v).into_owned()))
                .chain([("line".to_string(), line.to_string())])
                .collect();
            let rec = self.field_record(line, field(Some(puzzle)), field(regions), field(id));
            let sol = Some(field(solution)).filter(|s| !s.is_empty());
            match self.entry(&rec, sol, &fields) {
                Ok(e) => {
                    if !f(e)? {
                        break;
                    }
                }
                Err(why) => skipped.push((line, why)),
            }
        }
        Ok(())
    }

    /// JSON Lines (as `solve --format jsonl` and `generate --format jsonl` write them).
    fn json_lines(
        &mut self,
        body: &[u8],
        f: &mut impl FnMut(Entry) -> Result<bool, Error>,
        skipped: &mut Vec<(u64, String)>,
    ) -> Result<(), Error> {
        for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
            let line = i as u64 + 1;
            let text = raw.trim_ascii();
            if text.is_empty() || text.starts_with(b"#") {
                continue;
            }
            let obj =
                match serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(text) {
                    Ok(o) => o,
                    Err(e) => {
                        skipped.push((line, format!("not a JSON object: {e}")));
                        continue;
                    }
                };
            let mut fields: Fields = obj
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        serde_json::Value::String(s) => s.clone(),
                        serde_json::Value::Null => String::new(),
                        other => other.to_string(),
                    };
                    (k.to_ascii_lowercase(), v)
                })
                .collect();
            fields.push(("line".into(), line.to_string()));
            let get = |set: &[&str]| {
                fields
                    .iter()
                    .find(|(k, _)| set.contains(&k.as_str()))
                    .map_or("", |(_, v)| v.as_str())
            };
            let (puzzle, sol, regions, id) = (
                get(PUZZLE_COLUMNS).to_string(),
                get(SOLUTION_COLUMNS).to_string(),
                get(REGION_COLUMNS).to_string(),
                get(ID_COLUMNS).to_string(),
            );
            if puzzle.is_empty() {
                skipped.push((line, "no \"puzzle\" field".into()));
                continue;
            }
            let rec = self.field_record(line, puzzle.as_bytes(), regions.as_bytes(), id.as_bytes());
            let sol = Some(sol.as_bytes()).filter(|s| !s.is_empty());
            match self.entry(&rec, sol, &fields) {
                Ok(e) => {
                    if !f(e)? {
                        break;
                    }
                }
                Err(why) => skipped.push((line, why)),
            }
        }
        Ok(())
    }

    /// A record for a puzzle given as one field (a CSV column or a JSON string).
    fn field_record<'a>(
        &self,
        line: u64,
        text: &'a [u8],
        regions: &'a [u8],
        id: &'a [u8],
    ) -> Record<'a> {
        Record {
            line,
            offset: 0,
            id,
            text,
            kind: if self.cfg.shape == Shape::Samurai {
                CellsKind::Samurai(SamuraiForm::Line)
            } else {
                CellsKind::Field
            },
            tail: b"",
            expected: b"",
            regions,
            fault: None,
        }
    }

    /// Reads one record into an entry (its solution from `solution`, else solved when the
    /// solutions are drawn).
    fn entry(
        &mut self,
        rec: &Record<'_>,
        solution: Option<&[u8]>,
        fields: &[(String, String)],
    ) -> Result<Entry, String> {
        self.msg.clear();
        let (grid, _) = F::read(rec, &mut self.geo, &mut self.regions, &mut self.msg)
            .map_err(|_| std::mem::take(&mut self.msg))?;
        let regions = (self.cfg.shape == Shape::Jigsaw)
            .then(|| std::array::from_fn(|i| self.regions[i].wrapping_sub(b'1')));
        let values = F::values(&grid);
        let cells: Vec<u8> = values
            .as_ref()
            .iter()
            .map(|&v| if v == 0 { 0 } else { v | GIVEN })
            .collect();
        let mut note = "";
        let solution = if !self.cfg.solutions {
            None
        } else {
            let known = solution.and_then(|text| {
                let srec = Record { text, ..*rec };
                let mut geo = self.geo.clone();
                let mut regions = Vec::new();
                let mut msg = String::new();
                F::read(&srec, &mut geo, &mut regions, &mut msg)
                    .ok()
                    .map(|(g, _)| g)
                    .filter(|g| F::values(g).as_ref().iter().all(|&v| v != 0))
            });
            let sol = match known {
                Some(s) => Some(s),
                None => {
                    let mut solved = Solved::<F>::default();
                    F::solve(&mut self.solver, &self.geo, &grid, 2, &mut solved);
                    match solved.count {
                        0 => {
                            note = " (no solution)";
                            None
                        }
                        1 => Some(solved.solution),
                        _ => {
                            note = " (not unique)";
                            Some(solved.solution)
                        }
                    }
                }
            };
            Some(match sol {
                Some(s) => F::values(&s)
                    .as_ref()
                    .iter()
                    .zip(&cells)
                    .map(|(&v, &p)| if p != 0 { p } else { v })
                    .collect(),
                None => cells.clone(),
            })
        };
        let mut label = label_of(&self.cfg.label, fields);
        label.push_str(note);
        Ok(Entry {
            cells,
            solution,
            regions,
            label,
        })
    }
}

/// The label of a record from the `--label` fields (`number` stays `{n}`, filled in when
/// the puzzle's place is known). Fields the record lacks are left out.
fn label_of(wanted: &[String], fields: &[(String, String)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for name in wanted {
        let value = fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty());
        let part = match (name.as_str(), value) {
            ("number", _) => "#{n}".to_string(),
            (_, None) => continue,
            ("er" | "ep" | "ed", Some(v)) => format!("{} {v}", name.to_ascii_uppercase()),
            ("level" | "id" | "hardest" | "symmetry" | "status", Some(v)) => v.to_string(),
            (_, Some(v)) => format!("{name} {v}"),
        };
        parts.push(part);
    }
    draw::printable(&parts.join(" \u{b7} "))
}

/// Where the drawings go, and what each shape looks like.
struct Out {
    kind: Kind,
    desc: ShapeDesc,
    lines: GridLines,
    /// Pages (or, for a directory, files) written.
    pages: usize,
    files: Vec<PathBuf>,
}

enum Kind {
    Pdf {
        book: PdfBook<BufWriter<File>>,
        partial: PathBuf,
    },
    SvgPage,
    SvgDir,
}

fn out_err(path: &Path, e: std::io::Error) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source: e,
    }
}

/// `page.svg` -> `page-solutions.svg`.
fn solutions_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "page".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-solutions.svg"))
}

impl Out {
    fn new(cfg: &RenderConfig) -> Result<Out, Error> {
        let kind = match cfg.target {
            RenderTarget::Pdf => {
                let partial = partial_path(&cfg.output);
                let f = File::create(&partial).map_err(|e| out_err(&partial, e))?;
                let book = PdfBook::new(BufWriter::with_capacity(1 << 20, f), cfg.page)
                    .map_err(|e| out_err(&partial, e))?;
                Kind::Pdf { book, partial }
            }
            RenderTarget::SvgPage => Kind::SvgPage,
            RenderTarget::SvgDir => {
                std::fs::create_dir_all(&cfg.output).map_err(|e| out_err(&cfg.output, e))?;
                Kind::SvgDir
            }
        };
        let desc = ShapeDesc::new(cfg.shape);
        let lines = GridLines::of(&desc);
        Ok(Out {
            kind,
            desc,
            lines,
            pages: 0,
            files: Vec::new(),
        })
    }

    fn is_single_page(&self) -> bool {
        matches!(self.kind, Kind::SvgPage)
    }

    fn is_per_puzzle(&self) -> bool {
        matches!(self.kind, Kind::SvgDir)
    }

    /// Draws `items` on one page (a directory: one file, `number` names it).
    fn page(
        &mut self,
        cfg: &RenderConfig,
        items: &[Drawn],
        solutions: bool,
        number: usize,
    ) -> Result<(), Error> {
        let title = match (solutions, cfg.title.is_empty()) {
            (false, _) => cfg.title.clone(),
            (true, true) => "Solutions".to_string(),
            (true, false) => format!("{} \u{2013} solutions", cfg.title),
        };
        let entries = items.iter().map(|d| Item {
            label: &d.label,
            cells: &d.cells,
        });
        let prepare = |k: usize, desc: &mut ShapeDesc, lines: &mut GridLines| {
            if let Some(r) = items.get(k).and_then(|d| d.regions.as_ref()) {
                desc.set_regions(r);
                lines.rebuild(desc);
            }
        };
        let Out {
            kind, desc, lines, ..
        } = self;
        match kind {
            Kind::Pdf { book, partial } => {
                let mut canvas = PdfCanvas::new(cfg.page);
                draw::draw_page(
                    &mut canvas,
                    cfg.page,
                    cfg.per_page,
                    &title,
                    book.pages() + 1,
                    entries,
                    desc,
                    lines,
                    prepare,
                );
                book.add_page(&canvas.finish())
                    .map_err(|e| out_err(partial, e))?;
            }
            Kind::SvgPage => {
                let mut canvas = SvgCanvas::new(cfg.page, true);
                draw::draw_page(
                    &mut canvas,
                    cfg.page,
                    cfg.per_page,
                    &title,
                    1,
                    entries,
                    desc,
                    lines,
                    prepare,
                );
                let path = if solutions {
                    solutions_path(&cfg.output)
                } else {
                    cfg.output.clone()
                };
                write_file(&path, &canvas.finish())?;
                self.files.push(path);
            }
            Kind::SvgDir => {
                let Some(d) = items.first() else {
                    return Ok(());
                };
                if let Some(r) = &d.regions {
                    desc.set_regions(r);
                    lines.rebuild(desc);
                }
                let size = draw::single_size(desc.side(), !d.label.is_empty());
                let mut canvas = SvgCanvas::new(size, false);
                let item = Item {
                    label: &d.label,
                    cells: &d.cells,
                };
                draw::draw_single(&mut canvas, desc, lines, item);
                let name = if solutions { "solution" } else { "puzzle" };
                let path = cfg.output.join(format!("{name}-{number:06}.svg"));
                write_file(&path, &canvas.finish())?;
            }
        }
        self.pages += 1;
        Ok(())
    }

    /// Removes what was started (a booklet's `FILE.partial`) when nothing was drawn.
    fn discard(self) {
        if let Kind::Pdf { book, partial } = self.kind {
            drop(book);
            let _ = std::fs::remove_file(partial);
        }
    }

    /// Ends the output: the booklet's last objects, its rename from `FILE.partial` when
    /// the run completed. Returns the files written (a directory names itself).
    fn finish(self, cfg: &RenderConfig, interrupted: bool) -> Result<Vec<PathBuf>, Error> {
        match self.kind {
            Kind::Pdf { book, partial } => {
                let mut w = book.finish(&cfg.title).map_err(|e| out_err(&partial, e))?;
                w.flush().map_err(|e| out_err(&partial, e))?;
                drop(w);
                if interrupted {
                    return Ok(vec![partial]);
                }
                std::fs::rename(&partial, &cfg.output).map_err(|e| out_err(&cfg.output, e))?;
                Ok(vec![cfg.output.clone()])
            }
            Kind::SvgPage => Ok(self.files),
            Kind::SvgDir => Ok(vec![cfg.output.clone()]),
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(|e| out_err(path, e))
}
