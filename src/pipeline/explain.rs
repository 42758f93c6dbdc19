//! `explain`: rate one puzzle and show its solving path, step by step.

use std::io::Read;

use serde::Serialize;

use crate::config::{ExplainConfig, ExplainFormat, ExplainSource};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::logic::Step;
use crate::core::logic::render::StepRecord;
use crate::core::{Grid, Solver};
use crate::error::Error;

/// The JSON form of an explanation.
#[derive(Debug, Serialize)]
struct Report {
    puzzle: String,
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
        Outcome::Invalid => "invalid",
    }
}

/// The first puzzle in `text`: the first line that starts with 81 cells, else the whole
/// text read as a grid block.
fn first_puzzle(text: &[u8]) -> Option<Grid> {
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line).trim_ascii();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        if let Ok((g, _)) = Grid::parse_line(line) {
            return Some(g);
        }
    }
    Grid::parse_cells(text).ok()
}

/// Reads the whole input of a puzzle given as `-` or a file, with its name for messages
/// (`standard input` or the path); `None` for a puzzle given on the command line.
pub(super) fn read_source(source: &ExplainSource) -> Result<Option<(Vec<u8>, String)>, Error> {
    match source {
        ExplainSource::Inline(_) | ExplainSource::InlineSamurai(_) => Ok(None),
        ExplainSource::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Error::Input {
                    path: "-".into(),
                    source: e,
                })?;
            Ok(Some((buf, "standard input".to_string())))
        }
        ExplainSource::File(p) => {
            let buf = std::fs::read(p).map_err(|e| Error::Input {
                path: p.clone(),
                source: e,
            })?;
            Ok(Some((buf, p.display().to_string())))
        }
    }
}

/// Loads the puzzle named by `source`.
fn load(source: &ExplainSource) -> Result<Grid, Error> {
    match source {
        ExplainSource::Inline(g) => return Ok(*g),
        ExplainSource::InlineSamurai(_) => {
            return Err(Error::Usage(
                "a samurai puzzle needs --variant samurai".into(),
            ));
        }
        ExplainSource::Stdin | ExplainSource::File(_) => {}
    }
    let (buf, name) = read_source(source)?.unwrap_or_default();
    first_puzzle(&buf).ok_or_else(|| {
        Error::Usage(match source {
            ExplainSource::Stdin => "no puzzle on standard input".to_string(),
            _ => format!("no puzzle in {name}"),
        })
    })
}

/// Runs `explain` and returns the text to print.
pub fn run(cfg: &ExplainConfig) -> Result<String, Error> {
    if cfg.samurai {
        return super::samurai::explain(cfg);
    }
    let puzzle = load(&cfg.source)?;
    if let Err(c) = puzzle.check_givens() {
        return Err(Error::Usage(format!("the puzzle breaks a rule: {c}")));
    }
    let sol = Solver::new().solve(&puzzle, 2);
    if sol.count != 1 {
        let n = if sol.count == 0 { "no" } else { "several" };
        return Err(Error::Usage(format!(
            "the puzzle has {n} solutions; explain needs a puzzle with exactly one"
        )));
    }
    let mut grader = Grader::new();
    let mut steps: Vec<Step> = Vec::new();
    let r = grader.explain(&puzzle, Some(&sol.solution), cfg.budget, &mut steps);
    Ok(match cfg.format {
        ExplainFormat::Text => text(&puzzle, &steps, &r),
        ExplainFormat::Json => json(&puzzle, &sol.solution, &steps, &r),
    })
}

/// The technique that set ER, or `none` when there was no step (a full grid).
fn hardest(r: &Rating) -> &'static str {
    if r.steps == 0 {
        "none"
    } else {
        r.hardest.name()
    }
}

fn text(puzzle: &Grid, steps: &[Step], r: &Rating) -> String {
    let mut t = format!("Puzzle: {puzzle}\n");
    let width = steps.len().to_string().len();
    for (i, s) in steps.iter().enumerate() {
        t.push_str(&format!(
            "{:>width$}. [{}.{}] {}\n",
            i + 1,
            s.difficulty / 10,
            s.difficulty % 10,
            s.display(crate::core::geometry::classic())
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
        Outcome::Invalid => t.push_str("Grading failed: a step contradicted the solution.\n"),
        Outcome::Complete => {}
    }
    t
}

fn json(puzzle: &Grid, solution: &Grid, steps: &[Step], r: &Rating) -> String {
    let report = Report {
        puzzle: puzzle.to_string(),
        solution: solution.to_string(),
        steps: steps
            .iter()
            .enumerate()
            .map(|(i, s)| StepRecord::new(i as u32 + 1, s, crate::core::geometry::classic()))
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

    #[test]
    fn first_puzzle_skips_comments_and_reads_blocks() {
        let p = "4.2.........54..67...6.92..3.7....9....1.8....5....8.4..82.3...62..94.........9.5";
        let text = format!("# comment\n\n{p} tail\n");
        assert_eq!(first_puzzle(text.as_bytes()).unwrap().to_string(), p);
        let mut block = String::new();
        for r in 0..9 {
            block.push_str(&p[r * 9..r * 9 + 9]);
            block.push('\n');
        }
        assert_eq!(first_puzzle(block.as_bytes()).unwrap().to_string(), p);
        assert!(first_puzzle(b"nothing here").is_none());
    }
}
