//! The commands over puzzles held in memory instead of a file: what the Python bindings run
//! (`src/python`), with the same workers, the same rows and the same ordering as the CLI.
//!
//! ```text
//!  Puzzles (strings, or cell values) ──► record i ──► Engine (the command's RecordJob or
//!                                                      PuzzleWorker, per-worker scratch)
//!                                                             │  rows in OutputFormat::Fields
//!                                                             ▼
//!                                         Rows sink, block by block in input order
//! ```
//!
//! Each string or each row of cell values is one record, and yields exactly one row (the
//! CLI skips blank and comment lines; here they are `invalid` rows, so that row `i` is
//! always puzzle `i`). `line` is the 1-based position of the puzzle. Rows are encoded with
//! [`OutputFormat::Fields`], which keeps every field's kind and bytes, so the consumer
//! sees exactly the values the CLI writes as text.

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use crate::config::{GenerateConfig, MinimizeConfig, SolveConfig};
use crate::core::Cancel;
use crate::core::generator::Unrated;
use crate::core::geometry::Shape;
use crate::core::samurai::SamuraiForm;
use crate::error::Error;
use crate::io::records::{MAX_RECORD, TOO_LONG};
use crate::io::{CellsKind, OutputFormat, Record, RecordFormat, RowEncoder, Splitter};

use super::RunEnd;
use super::engine::{Block, Engine, Pacer};
use super::generate::variant::{GridMaker, SamuraiMaker, VariantWorker};
use super::generate::{GenerateWorker, Graded, PuzzleWorker, generate_columns, index_range};
use super::minimize::{MinimizeJob, MinimizeWorker};
use super::records_run::{RecordJob, WINDOW};
use super::shape::{ReadRecord, dispatch};
use super::solve::{SolveJob, SolveWorker, columns};

/// The reason given for a string that holds no puzzle (empty, blank, or a `#` comment,
/// which the CLI would skip).
pub const EMPTY: &str = "no puzzle: the string is empty, blank or a # comment";
/// The reason given for a string that holds more than one record.
pub const SEVERAL: &str = "more than one puzzle in one string";
/// The reason given for a row of cell values with a value above 9.
pub const CELL_VALUE: &str = "cell value above 9 (0 is empty, 1-9 are digits)";

/// Puzzles held in memory.
#[derive(Clone, Copy, Debug)]
pub enum Puzzles<'a> {
    /// One record per string: a line as the CLI reads it (the cells, then an optional tail;
    /// a Jigsaw line's cells and region ids; a 405-cell Samurai line), or a record of
    /// several lines (a grid block, five 81-cell Samurai lines, a 21-line Samurai block).
    /// One trailing line break is ignored.
    Strings(&'a [&'a [u8]]),
    /// Cell values, `width` per puzzle (81; 405 for a Samurai line): 0 for an empty cell,
    /// 1-9 for a given.
    Cells {
        /// The values, puzzle after puzzle.
        values: &'a [u8],
        /// Cells per puzzle.
        width: usize,
    },
}

impl Puzzles<'_> {
    /// How many puzzles.
    pub fn len(&self) -> usize {
        match self {
            Puzzles::Strings(s) => s.len(),
            Puzzles::Cells { values, width } => values.len() / (*width).max(1),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks that the puzzles can be read as `shape`: cell values need 81 cells a puzzle
    /// (405 for Samurai) and a shape without regions to give.
    pub fn check(&self, shape: Shape) -> Result<(), Error> {
        let Puzzles::Cells { values, width } = *self else {
            return Ok(());
        };
        let want = if shape == Shape::Samurai { 405 } else { 81 };
        if shape == Shape::Jigsaw {
            return Err(Error::Usage(
                "cell values carry no regions: give Jigsaw puzzles as strings (81 cells, then \
                 81 region ids 1-9)"
                    .into(),
            ));
        }
        if width != want {
            return Err(Error::Usage(format!(
                "a {} puzzle has {want} cells, not {width}",
                shape.name()
            )));
        }
        if values.len() % want != 0 {
            return Err(Error::Usage(format!(
                "{} cell values are not a whole number of {want}-cell puzzles",
                values.len()
            )));
        }
        Ok(())
    }
}

/// True for text that holds no record: empty, only white space, or a `#` comment.
fn no_record(text: &[u8]) -> bool {
    match text.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => text[i] == b'#',
    }
}

/// A record that says only what is wrong with it.
fn faulty(line: u64, why: &'static str) -> Record<'static> {
    Record {
        line,
        offset: 0,
        id: b"",
        text: b"",
        kind: CellsKind::Line,
        tail: b"",
        expected: b"",
        regions: b"",
        fault: Some((line, 1, why)),
    }
}

/// Calls `f` with puzzle `i` as a record of `shape` (line `i + 1`), made as the CLI's
/// splitter makes the record of a line or block.
pub fn with_record<R>(
    puzzles: &Puzzles<'_>,
    i: usize,
    shape: Shape,
    f: impl FnOnce(&Record<'_>) -> R,
) -> R {
    let line = i as u64 + 1;
    match *puzzles {
        Puzzles::Cells { values, width } => {
            let cells = &values[i * width..(i + 1) * width];
            let mut text = [0u8; 405];
            // Branch-free, so that it vectorizes; a value above 9 is looked for only when
            // there is one.
            let mut top = 0u8;
            for (t, &v) in text.iter_mut().zip(cells) {
                *t = if v == 0 { b'.' } else { b'0'.wrapping_add(v) };
                top = top.max(v);
            }
            let fault = (top > 9).then(|| {
                let k = cells.iter().position(|&v| v > 9).unwrap_or(0);
                (line, k + 1, CELL_VALUE)
            });
            let kind = if shape == Shape::Samurai {
                CellsKind::Samurai(SamuraiForm::Line)
            } else {
                CellsKind::Line
            };
            f(&Record {
                line,
                offset: 0,
                id: b"",
                text: &text[..width.min(405)],
                kind,
                tail: b"",
                expected: b"",
                regions: b"",
                fault,
            })
        }
        Puzzles::Strings(items) => {
            let s = items[i];
            let s = s.strip_suffix(b"\n").unwrap_or(s);
            let s = s.strip_suffix(b"\r").unwrap_or(s);
            if s.len() > MAX_RECORD {
                return f(&faulty(line, TOO_LONG));
            }
            if no_record(s) {
                return f(&faulty(line, EMPTY));
            }
            if shape != Shape::Samurai && !s.contains(&b'\n') {
                return f(&Record {
                    line,
                    offset: 0,
                    id: b"",
                    text: s,
                    kind: CellsKind::Line,
                    tail: b"",
                    expected: b"",
                    regions: b"",
                    fault: None,
                });
            }
            // A record of several lines (or any Samurai record, whose form its first line
            // tells): the CLI's splitter reads it.
            let format = if shape == Shape::Samurai {
                RecordFormat::Samurai
            } else {
                RecordFormat::Grid
            };
            let mut splitter = Splitter::new(format);
            if shape == Shape::Jigsaw {
                splitter.set_block_rows(18);
            }
            splitter.split(s, line, 2, true);
            match splitter.len() {
                0 => f(&faulty(line, EMPTY)),
                1 => f(&splitter.record(0, s)),
                _ => f(&faulty(line, SEVERAL)),
            }
        }
    }
}

/// Where the rows of an in-memory run go.
pub trait Rows {
    /// The run's columns, given once before any row.
    fn columns(&mut self, columns: &[&'static str]);

    /// The rows of a block, in [`OutputFormat::Fields`] encoding; blocks come in input
    /// order.
    fn rows(&mut self, packed: &[u8]);
}

/// How an in-memory run ended: [`RunEnd::Completed`] or [`RunEnd::Interrupted`] (the
/// sink then holds the rows of a prefix of the puzzles).
pub type MemoryEnd = RunEnd;

/// Runs `job` over every puzzle in ordered windows on a pool of `threads` workers (0: all
/// cores), giving the rows to `sink` block by block. The sink runs on a thread of its own,
/// taking window `k` while the workers make window `k + 1` (two sets of blocks go round).
fn run_job<J: RecordJob>(
    job: &J,
    puzzles: &Puzzles<'_>,
    shape: Shape,
    threads: usize,
    make: impl Fn(Cancel) -> J::Worker,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    let n = puzzles.len();
    let engine = Engine::new(threads, interrupt, make)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut pacer = Pacer::new(engine.threads(), WINDOW);
    let (to_sink, windows) = mpsc::sync_channel::<Vec<Block<J::Stats>>>(1);
    let (back, spare) = mpsc::channel::<Vec<Block<J::Stats>>>();
    for _ in 0..2 {
        let _ = back.send(Vec::new());
    }
    std::thread::scope(|s| {
        s.spawn(move || {
            for blocks in windows {
                for b in &blocks {
                    sink.rows(&b.out);
                }
                let _ = back.send(blocks);
            }
        });
        // Moved in here, so that it is dropped (and the collector ends) however this returns.
        let to_sink = to_sink;
        let mut next = 0;
        while next < n {
            if engine.interrupted() {
                return Ok(RunEnd::Interrupted);
            }
            let mut blocks = spare.recv().unwrap_or_default();
            let len = (n - next).min(pacer.size());
            let started = Instant::now();
            engine.run(
                len,
                &mut blocks,
                |w: &mut J::Worker, i, block| {
                    with_record(puzzles, next + i, shape, |rec| job.process(w, rec, block));
                },
                |i, block| with_record(puzzles, next + i, shape, |rec| job.on_panic(rec, block)),
            );
            pacer.record(len, started.elapsed().as_secs_f64());
            // The rows of the blocks before the first one an interrupt left undone.
            if let Some(k) = blocks.iter().position(|b| !b.done) {
                blocks.truncate(k);
                let _ = to_sink.send(blocks);
                return Ok(RunEnd::Interrupted);
            }
            if to_sink.send(blocks).is_err() {
                return Err(Error::Usage(
                    "internal error: the row collector stopped".into(),
                ));
            }
            next += len;
        }
        Ok(RunEnd::Completed)
    })
}

/// `solve` over puzzles in memory: the rows of `solve` with the settings of `cfg` (its
/// input, output, format, `--check` and `--strict` are not used).
pub fn solve(
    cfg: &SolveConfig,
    puzzles: &Puzzles<'_>,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    puzzles.check(cfg.shape)?;
    let mut cfg = cfg.clone();
    cfg.check = false;
    cfg.strict = false;
    cfg.format = OutputFormat::Fields;
    dispatch!(cfg.shape, F => solve_family::<F>(&cfg, puzzles, interrupt, sink))
}

fn solve_family<F: ReadRecord>(
    cfg: &SolveConfig,
    puzzles: &Puzzles<'_>,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    let job = SolveJob::<F> {
        cfg,
        enc: RowEncoder::new(OutputFormat::Fields, columns(cfg.shape, cfg.profile, false)),
        family: PhantomData,
    };
    sink.columns(job.enc.columns());
    run_job(
        &job,
        puzzles,
        cfg.shape,
        cfg.threads,
        |cancel| SolveWorker::<F>::new(cfg.shape, cancel),
        interrupt,
        sink,
    )
}

/// `minimize` over puzzles in memory, with the shape and threads of `cfg`.
pub fn minimize(
    cfg: &MinimizeConfig,
    puzzles: &Puzzles<'_>,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    puzzles.check(cfg.shape)?;
    dispatch!(cfg.shape, F => minimize_family::<F>(cfg, puzzles, interrupt, sink))
}

fn minimize_family<F: ReadRecord>(
    cfg: &MinimizeConfig,
    puzzles: &Puzzles<'_>,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    let job = MinimizeJob::<F> {
        enc: RowEncoder::new(OutputFormat::Fields, super::minimize::columns(cfg.shape)),
        shape: cfg.shape,
        family: PhantomData,
    };
    sink.columns(job.enc.columns());
    run_job(
        &job,
        puzzles,
        cfg.shape,
        cfg.threads,
        |cancel| MinimizeWorker::<F>::new(cfg.shape, cancel),
        interrupt,
        sink,
    )
}

/// `generate` into memory: the rows of `sudoku-batch generate` with the same settings,
/// byte for byte (puzzle `i` depends only on the seed, `i` and the target). A puzzle that
/// cannot be made ends the run with the CLI's message. The worker is chosen as the binary
/// chooses it (`src/main.rs`).
pub fn generate(
    cfg: &GenerateConfig,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    let mut cfg = cfg.clone();
    cfg.format = OutputFormat::Fields;
    let cfg = &cfg;
    if let Some(target) = cfg.variant {
        if target.shape == Shape::Samurai {
            let make = |c| VariantWorker::<SamuraiMaker>::new(target, c);
            generate_with(cfg, make, interrupt, sink)
        } else {
            let make = |c| VariantWorker::<GridMaker>::new(target, c);
            generate_with(cfg, make, interrupt, sink)
        }
    } else if cfg.grade {
        let budget = cfg.grade_budget;
        let make = |c| GenerateWorker::new(Graded::new(budget), c);
        generate_with(cfg, make, interrupt, sink)
    } else {
        generate_with(cfg, |c| GenerateWorker::new(Unrated, c), interrupt, sink)
    }
}

/// The loop of [`super::generate::run`] with the rows going to `sink`.
fn generate_with<W: PuzzleWorker>(
    cfg: &GenerateConfig,
    make: impl Fn(Cancel) -> W,
    interrupt: Arc<AtomicBool>,
    sink: &mut (dyn Rows + Send),
) -> Result<MemoryEnd, Error> {
    let (lo, hi) = index_range(cfg);
    let enc = RowEncoder::new(OutputFormat::Fields, generate_columns(cfg));
    sink.columns(enc.columns());
    let engine = Engine::new(cfg.threads, interrupt, make)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut failure = None;
    let complete = super::generate::make_stream(
        &engine,
        cfg,
        &enc,
        lo,
        (hi - lo) as usize,
        |_, block, spare| {
            sink.rows(&block.out);
            failure = block.stats.failure.as_ref().map(|f| f.message.clone());
            spare.push(block);
            failure.is_none()
        },
    );
    if let Some(message) = failure {
        return Err(Error::Usage(message));
    }
    if !complete {
        return Ok(RunEnd::Interrupted);
    }
    Ok(RunEnd::Completed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{Field, FieldReader};

    /// Rows as text, one `Vec` of fields a row, for comparisons.
    #[derive(Default)]
    struct Collect {
        columns: Vec<&'static str>,
        rows: Vec<Vec<String>>,
    }

    impl Rows for Collect {
        fn columns(&mut self, columns: &[&'static str]) {
            self.columns = columns.to_vec();
        }
        fn rows(&mut self, packed: &[u8]) {
            let fields: Vec<String> = FieldReader::new(packed)
                .map(|f| match f {
                    Field::Int(n) => n.to_string(),
                    Field::Text(b) | Field::Raw(b) | Field::Plain(b) => {
                        String::from_utf8_lossy(b).into_owned()
                    }
                    Field::Counts(c) => crate::io::output::counts_text(c),
                    Field::Null => String::new(),
                })
                .collect();
            for row in fields.chunks(self.columns.len()) {
                self.rows.push(row.to_vec());
            }
        }
    }

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn solve_cfg(args: &[&str]) -> SolveConfig {
        use clap::Parser;
        let mut argv = vec!["sudoku-batch", "solve", "-"];
        argv.extend_from_slice(args);
        let cli = crate::cli::Cli::try_parse_from(argv).expect("parses");
        let crate::cli::Command::Solve(a) = cli.command else {
            panic!("not solve")
        };
        SolveConfig::from_args(&a).expect("valid")
    }

    #[test]
    fn strings_and_cells_give_one_row_each_in_order() {
        let cfg = solve_cfg(&["--no-grade", "-j", "2"]);
        let short = &P[..80];
        let conflict = format!("123456781{} tail\r\n", ".".repeat(72));
        let items: Vec<&[u8]> = vec![
            P.as_bytes(),
            b"",
            b"# comment",
            short.as_bytes(),
            conflict.as_bytes(),
        ];
        let mut c = Collect::default();
        let end = solve(
            &cfg,
            &Puzzles::Strings(&items),
            Arc::new(AtomicBool::new(false)),
            &mut c,
        )
        .unwrap();
        assert_eq!(end, RunEnd::Completed);
        assert_eq!(c.columns[3], "status");
        let status: Vec<&str> = c.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(
            status,
            ["solved", "invalid", "invalid", "invalid", "invalid"]
        );
        let err: Vec<&str> = c.rows.iter().map(|r| r[12].as_str()).collect();
        assert_eq!(err[1], EMPTY);
        assert_eq!(err[2], EMPTY);
        assert_eq!(err[3], "only 80 cells, expected 81");
        assert_eq!(err[4], "digit 1 twice in row 1");
        assert_eq!(c.rows[4][13], "tail");
        let lines: Vec<&str> = c.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(lines, ["1", "2", "3", "4", "5"]);

        let mut values: Vec<u8> = P
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        values.extend(std::iter::repeat_n(0u8, 81));
        values[81 + 7] = 12;
        let mut d = Collect::default();
        solve(
            &cfg,
            &Puzzles::Cells {
                values: &values,
                width: 81,
            },
            Arc::new(AtomicBool::new(false)),
            &mut d,
        )
        .unwrap();
        assert_eq!(d.rows[0], c.rows[0]);
        assert_eq!(d.rows[1][3], "invalid");
        assert_eq!(d.rows[1][12], CELL_VALUE);
    }

    #[test]
    fn cells_must_fit_the_shape() {
        let cfg = solve_cfg(&["--variant", "jigsaw"]);
        let values = [0u8; 81];
        let cells = Puzzles::Cells {
            values: &values,
            width: 81,
        };
        let mut c = Collect::default();
        let flag = Arc::new(AtomicBool::new(false));
        assert!(solve(&cfg, &cells, flag.clone(), &mut c).is_err());
        let cfg = solve_cfg(&["--variant", "samurai"]);
        assert!(solve(&cfg, &cells, flag, &mut c).is_err());
    }
}
