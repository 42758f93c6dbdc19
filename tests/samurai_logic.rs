//! Samurai grading: the human techniques never contradict the known solution, the steps
//! replayed in order solve the puzzle, ratings follow Sudoku Explainer's scale, and puzzles
//! beyond these techniques are reported with how far they got.

use std::path::Path;

use sudoku_batch::core::samurai::format;
use sudoku_batch::core::samurai::{
    SamuraiGenerator, SamuraiGrade, SamuraiGrader, SamuraiGrid, SamuraiSolver, SamuraiStep,
    SamuraiSymmetry, SamuraiTechnique,
};

fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/samurai")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// (puzzle, tail) of each 405-cell line of a fixture file.
fn lines(name: &str) -> Vec<(SamuraiGrid, String)> {
    data(name)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (g, t) = format::parse_line(l.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            (g, l[t..].to_string())
        })
        .collect()
}

/// Grades `p` with steps and checks every step against `p`'s unique solution: placements
/// are right, eliminations never remove the solution's digit, and replaying the steps on
/// `p` reaches what the grader reports.
fn grade_checked(p: &SamuraiGrid) -> (SamuraiGrade, Vec<SamuraiStep>) {
    let solution = SamuraiSolver::new().solve(p, 2);
    assert_eq!(solution.count, 1);
    let solution = solution.solution;
    let mut grader = SamuraiGrader::new();
    let mut steps = Vec::new();
    let grade = grader.grade_with_steps(p, &mut steps);
    assert_eq!(grade.steps as usize, steps.len());
    let mut replay = *p;
    for s in &steps {
        for &(c, d) in &s.eliminations {
            assert_ne!(solution.digit(c), Some(d), "wrong elimination in {s}");
        }
        if let Some((c, d)) = s.placement {
            assert_eq!(solution.digit(c), Some(d), "wrong placement in {s}");
            assert_eq!(replay.digit(c), None, "{s} places a filled cell");
            replay.set(c, Some(d));
        }
        assert!(s.technique.rating() <= grade.er, "{s} above ER");
    }
    assert_eq!(replay, grader.current());
    assert_eq!(usize::from(grade.filled), replay.clue_count());
    // Grading without steps gives the same grade.
    assert_eq!(grader.grade(p), grade);
    (grade, steps)
}

#[test]
fn logic_fixtures_are_solved_with_the_recorded_ratings() {
    let puzzles = lines("logic.txt");
    assert_eq!(puzzles.len(), 3);
    for (p, tail) in &puzzles {
        let (grade, steps) = grade_checked(p);
        assert!(grade.solved, "{grade}");
        assert_eq!(grade.filled, 369);
        let want = tail.split("er=").nth(1).expect("er in tail");
        let mut er = String::new();
        sudoku_batch::core::samurai::logic::write_rating(&mut er, grade.er).unwrap();
        assert_eq!(er, want.trim());
        let hardest = grade.hardest.expect("a hardest technique");
        assert_eq!(hardest.rating(), grade.er);
        assert!(grade.ed <= grade.ep && grade.ep <= grade.er, "{grade:?}");
        assert_eq!(grade.ed, steps[0].technique.rating());
        assert_eq!(grade.level(), "hard");
        assert!(steps.iter().any(|s| s.technique == hardest));
        // Every empty cell is placed exactly once.
        let placed = steps.iter().filter(|s| s.placement.is_some()).count();
        assert_eq!(placed, 369 - p.clue_count());
    }
}

#[test]
fn puzzles_beyond_the_techniques_say_how_far_they_got() {
    for (p, _) in lines("lines.txt") {
        let (grade, _) = grade_checked(&p);
        if grade.solved {
            continue;
        }
        assert_eq!(grade.level(), "beyond");
        assert!(usize::from(grade.filled) < 369);
        assert!(usize::from(grade.filled) >= p.clue_count());
        let text = grade.to_string();
        assert!(text.starts_with("beyond (reached ER "), "{text}");
        assert!(
            text.contains(&format!("{}/369 cells", grade.filled)),
            "{text}"
        );
    }
}

#[test]
fn generated_puzzles_never_get_a_wrong_step() {
    let mut g = SamuraiGenerator::new();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..6 {
        let p = g.generate(77, i, SamuraiSymmetry::Rot180).puzzle;
        let (_, steps) = grade_checked(&p);
        seen.extend(steps.iter().map(|s| s.technique));
    }
    // The basic families all show up on these.
    for t in [
        SamuraiTechnique::HiddenSingleBox,
        SamuraiTechnique::NakedSingle,
        SamuraiTechnique::Pointing,
    ] {
        assert!(seen.contains(&t), "{t:?} never used");
    }
}

#[test]
fn explain_lines_name_cells_as_grid_row_column() {
    let (p, _) = &lines("logic.txt")[0];
    let (_, steps) = grade_checked(p);
    let first = &steps[0];
    let text = first.to_string();
    let (c, d) = first
        .placement
        .expect("the first step of these puzzles places");
    let (g, cell) = c.primary();
    // `<Technique> ...: gNrNcN=D`, named in the grid of the house the step is about.
    assert!(text.starts_with(first.technique.name()), "{text}");
    let named = text.rsplit(": ").next().unwrap();
    assert!(
        named.starts_with('g') && named.ends_with(&format!("={d}")),
        "{text}"
    );
    if !c.is_shared() {
        assert_eq!(
            named,
            format!("g{}r{}c{}={d}", g.number(), cell.row() + 1, cell.col() + 1)
        );
    }
    for s in &steps {
        let t = s.to_string();
        for (_, d) in &s.eliminations {
            assert!(t.contains(&format!("<>{d}")), "{t}");
        }
    }
}
