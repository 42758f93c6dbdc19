//! `explain`: rate one puzzle and show its solving path, step by step, on any shape.

use serde::Serialize;

use crate::config::{ExplainConfig, ExplainFormat, ExplainSource};
use crate::core::Cancel;
use crate::core::family::{Family, Solved};
use crate::core::geometry::{Geometry, Shape};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::logic::Step;
use crate::core::logic::render::StepRecord;
use crate::error::Error;
use crate::io::records::{RecordFormat, Splitter};

use super::shape::{ReadRecord, detect_format, dispatch, read_input};

/// The JSON form of an explanation.
#[derive(Debug, Serialize)]
struct Report {
    shape: &'static str,
    puzzle: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<String>,
    solution: String,
    steps: Vec<StepRecord>,
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
    /// The explanation (text or JSON).
    pub text: String,
    /// True when the grading was interrupted.
    pub interrupted: bool,
}

/// Runs `explain`; `cancel` stops the grading early (within milliseconds).
pub fn run(cfg: &ExplainConfig, cancel: Cancel) -> Result<Explained, Error> {
    dispatch!(cfg.shape, F => run_family::<F>(cfg, cancel))
}

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
    let mut steps: Vec<Step<F>> = Vec::new();
    let r = grader.explain_values(
        &geo,
        F::values(&puzzle.grid),
        Some(F::values(&sol.solution)),
        cfg.budget,
        &mut steps,
    );
    let text = match cfg.format {
        ExplainFormat::Text => text(&geo, &puzzle, &steps, &r),
        ExplainFormat::Json => json(&geo, &puzzle, &sol.solution, &steps, &r),
    };
    Ok(Explained {
        text,
        interrupted: r.outcome == Outcome::Interrupted,
    })
}

fn text<F: Family>(geo: &Geometry<F>, p: &Loaded<F>, steps: &[Step<F>], r: &Rating) -> String {
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
    }
    t.push_str(&format!(
        "ER {}, EP {}, ED {} ({}); hardest step: {}\n",
        r.er_shown(),
        r.ep_shown(),
        r.ed_shown(),
        r.level(),
        hardest(r)
    ));
    match r.outcome {
        Outcome::BudgetExhausted => {
            t.push_str("The work budget ran out: the ratings marked >= are lower bounds.\n")
        }
        Outcome::Stuck => t.push_str(
            "No implemented technique applies: the ratings marked >= are lower bounds.\n",
        ),
        Outcome::AboveCap => t.push_str(
            "The next step rates above the cap: the ratings marked >= are lower bounds.\n",
        ),
        Outcome::Interrupted => t.push_str(
            "Interrupted (Ctrl-C or SIGTERM) before the end: the ratings marked >= are lower bounds.\n",
        ),
        Outcome::Invalid => t.push_str("Grading failed: a step contradicted the solution.\n"),
        Outcome::Complete => {}
    }
    t
}

fn json<F: Family>(
    geo: &Geometry<F>,
    p: &Loaded<F>,
    solution: &F::Grid,
    steps: &[Step<F>],
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
            .map(|(i, s)| StepRecord::new(i as u32 + 1, s, geo))
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
