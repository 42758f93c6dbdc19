//! `explain`: rate one puzzle and show its solving path, step by step, on any shape.

use serde::Serialize;

use crate::config::{ExplainConfig, ExplainFormat, ExplainSource};
use crate::core::Cancel;
use crate::core::family::{Family, Solved};
use crate::core::geometry::{Geometry, Shape};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::logic::Step;
use crate::core::logic::chains::{ChainRecord, ChainTrace, Spread};
use crate::core::logic::render::StepRecord;
use crate::error::Error;
use crate::io::records::{RecordFormat, Splitter};

use super::explain_chains;
use super::explain_draw::{self, Picture};
use super::shape::{ReadRecord, detect_format, dispatch, read_input};
use crate::render::html::{HtmlStep, explain_page};
use std::path::PathBuf;

/// The JSON form of an explanation.
#[derive(Debug, Serialize)]
struct Report {
    shape: &'static str,
    puzzle: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<String>,
    solution: String,
    steps: Vec<JsonStep>,
    er: f64,
    ep: f64,
    ed: f64,
    er_lower_bound: bool,
    ep_lower_bound: bool,
    ed_lower_bound: bool,
    level: &'static str,
    hardest: &'static str,
    outcome: &'static str,
}

/// A step in the JSON form: the step, and for a chaining step its chains (written out and
/// as data).
#[derive(Debug, Serialize)]
struct JsonStep {
    #[serde(flatten)]
    step: StepRecord,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    chain_text: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain: Option<ChainRecord>,
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Complete => "complete",
        Outcome::BudgetExhausted => "budget-exhausted",
        Outcome::Stuck => "stuck",
        Outcome::AboveCap => "above-cap",
        Outcome::Interrupted => "interrupted",
        Outcome::Invalid => "invalid",
    }
}

/// The technique that set ER, or `none` when there was no step (a full grid).
fn hardest(r: &Rating) -> &'static str {
    if r.steps == 0 {
        "none"
    } else {
        r.hardest.name()
    }
}

/// Reads the whole input of a puzzle given as `-` or a file, with its name for messages
/// (`standard input` or the path); `None` for a puzzle given on the command line.
pub(super) fn read_source(source: &ExplainSource) -> Result<Option<(Vec<u8>, String)>, Error> {
    match source {
        ExplainSource::Inline(_) => Ok(None),
        ExplainSource::Stdin => Ok(Some((
            read_input(&crate::config::InputSpec::Stdin)?,
            "standard input".to_string(),
        ))),
        ExplainSource::File(p) => Ok(Some((
            read_input(&crate::config::InputSpec::File(p.clone()))?,
            p.display().to_string(),
        ))),
    }
}

/// A puzzle of family `F` read from its source, with the Jigsaw regions (as `1`-`9` text)
/// and the rule its givens break, if any.
struct Loaded<F: Family> {
    grid: F::Grid,
    regions: Vec<u8>,
    conflict: Option<String>,
}

/// Loads the first puzzle of `source` into `geo`'s shape.
fn load<F: ReadRecord>(source: &ExplainSource, geo: &mut Geometry<F>) -> Result<Loaded<F>, Error> {
    let (buf, name) = match source {
        ExplainSource::Inline(text) => (text.as_bytes().to_vec(), "the command line".to_string()),
        _ => read_source(source)?.unwrap_or_default(),
    };
    let (format, skip) = match source {
        ExplainSource::Inline(_) if geo.shape() == Shape::Samurai => (RecordFormat::Samurai, 0),
        ExplainSource::Inline(_) => (RecordFormat::Line, 0),
        _ => detect_format(geo.shape(), &buf),
    };
    let body = &buf[skip..];
    let mut splitter = Splitter::new(format);
    if geo.shape() == Shape::Jigsaw {
        splitter.set_block_rows(18);
    }
    splitter.split(body, 1, 1, true);
    let Some(rec) = splitter.records(body).next() else {
        return Err(Error::Usage(match source {
            ExplainSource::Stdin => "no puzzle on standard input".to_string(),
            _ => format!("no puzzle in {name}"),
        }));
    };
    let (mut regions, mut msg) = (Vec::new(), String::new());
    match F::read(&rec, geo, &mut regions, &mut msg) {
        Ok((grid, _)) => {
            let conflict = F::conflict(&rec, geo, &grid, &mut msg).map(|_| msg);
            Ok(Loaded {
                grid,
                regions,
                conflict,
            })
        }
        Err(at) => Err(Error::Usage(format!(
            "the puzzle in {name} is invalid: {}:{}: {msg}",
            at.line, at.col
        ))),
    }
}

/// What `explain` made: the text to print, and whether a stop request cut it short (the
/// text then shows the steps found so far).
#[derive(Clone, Debug)]
pub struct Explained {
    /// The explanation (text, JSON or HTML; empty for SVG pictures, which go to files).
    pub text: String,
    /// The picture files written (`--format svg`).
    pub files: Vec<PathBuf>,
    /// True when the grading was interrupted.
    pub interrupted: bool,
}

/// Runs `explain`; `cancel` stops the grading early (within milliseconds).
pub fn run(cfg: &ExplainConfig, cancel: Cancel) -> Result<Explained, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .thread_name(|i| format!("sudoku-worker-{i}"))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start the worker threads: {e}")))?;
    pool.install(|| dispatch!(cfg.shape, F => run_family::<F>(cfg, cancel)))
}

/// Spreads one puzzle's chain searches over the threads of the current rayon pool.
#[derive(Debug)]
struct RayonSpread;

impl Spread for RayonSpread {
    fn spread(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        use rayon::prelude::*;
        (0..jobs).into_par_iter().for_each(job);
    }
}

static SPREAD: RayonSpread = RayonSpread;

fn run_family<F: ReadRecord>(cfg: &ExplainConfig, cancel: Cancel) -> Result<Explained, Error> {
    let mut geo = F::geometry(cfg.shape);
    let puzzle = load::<F>(&cfg.source, &mut geo)?;
    if let Some(msg) = puzzle.conflict {
        return Err(Error::Usage(format!("the puzzle breaks a rule: {msg}")));
    }
    let mut solver = F::Solver::default();
    let mut sol = Solved::default();
    F::solve(&mut solver, &geo, &puzzle.grid, 2, &mut sol);
    if sol.count != 1 {
        let n = if sol.count == 0 { "no" } else { "several" };
        return Err(Error::Usage(format!(
            "the puzzle has {n} solutions; explain needs a puzzle with exactly one"
        )));
    }
    let mut grader: Grader<F> = Grader::new();
    grader.set_cancel(cancel);
    grader.set_spread(Some(&SPREAD));
    let mut steps: Vec<Step<F>> = Vec::new();
    let r = grader.explain_values(
        &geo,
        F::values(&puzzle.grid),
        Some(F::values(&sol.solution)),
        cfg.budget,
        &mut steps,
    );
    let traces =
        explain_chains::traces(&geo, F::values(&puzzle.grid), &steps, cancel, Some(&SPREAD));
    let mut files = Vec::new();
    let text = match cfg.format {
        ExplainFormat::Text => text(&geo, &puzzle, &steps, &traces, &r),
        ExplainFormat::Json => json(&geo, &puzzle, &sol.solution, &steps, &traces, &r),
        ExplainFormat::Svg | ExplainFormat::Html => {
            let pics = explain_draw::pictures(
                &geo,
                F::values(&puzzle.grid),
                &puzzle.regions,
                &steps,
                |i, _| traces[i].as_ref().map(|t| explain_draw::drawing(&geo, t)),
            );
            if cfg.format == ExplainFormat::Html {
                html(&geo, &puzzle, &pics, &r)
            } else {
                files = write_pictures(cfg, &pics)?;
                String::new()
            }
        }
    };
    Ok(Explained {
        text,
        files,
        interrupted: r.outcome == Outcome::Interrupted,
    })
}

fn text<F: Family>(
    geo: &Geometry<F>,
    p: &Loaded<F>,
    steps: &[Step<F>],
    traces: &[Option<ChainTrace>],
    r: &Rating,
) -> String {
    let mut t = format!("Puzzle: {}\n", p.grid);
    if !p.regions.is_empty() {
        t.push_str(&format!(
            "Regions: {}\n",
            String::from_utf8_lossy(&p.regions)
        ));
    }
    let width = steps.len().to_string().len();
    for (i, s) in steps.iter().enumerate() {
        t.push_str(&format!(
            "{:>width$}. [{}.{}] {}\n",
            i + 1,
            s.difficulty / 10,
            s.difficulty % 10,
            s.display(geo)
        ));
        if let Some(tr) = &traces[i] {
            for l in tr.lines(geo) {
                t.push_str(&format!("{:width$}    {l}\n", ""));
            }
        }
    }
    t.push_str(&ratings(r));
    t.push('\n');
    if let Some(note) = outcome_note(r.outcome) {
        t.push_str(note);
    }
    t
}

/// The line that says why the ratings are lower bounds, if they are.
fn outcome_note(o: Outcome) -> Option<&'static str> {
    Some(match o {
        Outcome::BudgetExhausted => {
            "The work budget ran out: the ratings marked >= are lower bounds.\n"
        }
        Outcome::Stuck => {
            "No implemented technique applies: the ratings marked >= are lower bounds.\n"
        }
        Outcome::AboveCap => {
            "The next step rates above the cap: the ratings marked >= are lower bounds.\n"
        }
        Outcome::Interrupted => {
            "Interrupted (Ctrl-C or SIGTERM) before the end: the ratings marked >= are lower bounds.\n"
        }
        Outcome::Invalid => "Grading failed: a step contradicted the solution.\n",
        Outcome::Complete => return None,
    })
}

/// The ratings line that ends every explanation.
fn ratings(r: &Rating) -> String {
    format!(
        "ER {}, EP {}, ED {} ({}); hardest step: {}",
        r.er_shown(),
        r.ep_shown(),
        r.ed_shown(),
        r.level(),
        hardest(r)
    )
}

fn html<F: Family>(geo: &Geometry<F>, p: &Loaded<F>, pics: &[Picture], r: &Rating) -> String {
    let steps: Vec<HtmlStep<'_>> = pics
        .iter()
        .map(|p| HtmlStep {
            text: &p.text,
            detail: &p.detail,
            svg: &p.svg,
        })
        .collect();
    let heading = format!("{} puzzle {}", geo.shape().name(), p.grid);
    let mut summary = ratings(r);
    if let Some(note) = outcome_note(r.outcome) {
        summary.push_str(". ");
        summary.push_str(note.trim_end());
    }
    explain_page(&heading, &summary, &steps)
}

/// Writes one SVG file per step into the output directory; returns the files.
fn write_pictures(cfg: &ExplainConfig, pics: &[Picture]) -> Result<Vec<PathBuf>, Error> {
    let Some(dir) = &cfg.output else {
        return Err(Error::Usage("explain --format svg needs -o DIR".into()));
    };
    let out_err = |path: &std::path::Path, e| Error::Output {
        path: path.to_path_buf(),
        source: e,
    };
    std::fs::create_dir_all(dir).map_err(|e| out_err(dir, e))?;
    let width = pics.len().to_string().len().max(3);
    let mut files = Vec::with_capacity(pics.len());
    for (i, p) in pics.iter().enumerate() {
        let path = dir.join(format!("step-{:0width$}.svg", i + 1));
        std::fs::write(&path, &p.svg).map_err(|e| out_err(&path, e))?;
        files.push(path);
    }
    Ok(files)
}

fn json<F: Family>(
    geo: &Geometry<F>,
    p: &Loaded<F>,
    solution: &F::Grid,
    steps: &[Step<F>],
    traces: &[Option<ChainTrace>],
    r: &Rating,
) -> String {
    let report = Report {
        shape: geo.shape().name(),
        puzzle: p.grid.to_string(),
        regions: (!p.regions.is_empty()).then(|| String::from_utf8_lossy(&p.regions).into()),
        solution: solution.to_string(),
        steps: steps
            .iter()
            .enumerate()
            .map(|(i, s)| JsonStep {
                step: StepRecord::new(i as u32 + 1, s, geo),
                chain_text: traces[i].as_ref().map(|t| t.lines(geo)).unwrap_or_default(),
                chain: traces[i].as_ref().map(|t| ChainRecord::new(t, geo)),
            })
            .collect(),
        er: f64::from(r.er) / 10.0,
        ep: f64::from(r.ep) / 10.0,
        ed: f64::from(r.ed) / 10.0,
        er_lower_bound: !r.complete,
        ep_lower_bound: !r.ep_exact,
        ed_lower_bound: !r.ed_exact,
        level: r.level(),
        hardest: hardest(r),
        outcome: outcome_name(r.outcome),
    };
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S81;

    #[test]
    fn the_first_puzzle_skips_comments_and_reads_blocks() {
        let p = "4.2.........54..67...6.92..3.7....9....1.8....5....8.4..82.3...62..94.........9.5";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        std::fs::write(&path, format!("# comment\n\n{p} tail\n")).unwrap();
        let mut geo = S81::geometry(Shape::Classic);
        let got = load::<S81>(&ExplainSource::File(path.clone()), &mut geo).unwrap();
        assert_eq!(got.grid.to_string(), p);
        let mut block = String::new();
        for r in 0..9 {
            block.push_str(&p[r * 9..r * 9 + 9]);
            block.push('\n');
        }
        std::fs::write(&path, block).unwrap();
        let got = load::<S81>(&ExplainSource::File(path.clone()), &mut geo).unwrap();
        assert_eq!(got.grid.to_string(), p);
        std::fs::write(&path, "nothing here\n").unwrap();
        assert!(load::<S81>(&ExplainSource::File(path), &mut geo).is_err());
    }
}
