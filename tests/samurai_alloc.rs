//! The samurai solver, grader and generator allocate nothing per puzzle once built (a
//! counting global allocator watches them, on the test's own thread only: the test harness
//! allocates on other threads).

use std::sync::atomic::AtomicU64;

use sudoku_batch::core::Cancel;
use sudoku_batch::core::geometry::{self, S369};
use sudoku_batch::core::grader::{Grader, Rating, default_budget};
use sudoku_batch::core::samurai::{
    SamuraiGenerator, SamuraiOutcome, SamuraiSolver, SamuraiSymmetry, format,
};

mod common;
use common::alloc::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn solving_grading_and_generating_allocate_nothing_per_puzzle() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/samurai/lines.txt"
    ))
    .expect("fixture");
    let puzzles: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format::parse_line(l.as_bytes()).expect("valid").0)
        .collect();
    let mut solver = SamuraiSolver::new();
    let mut grader: Grader<S369> = Grader::new();
    let mut generator = SamuraiGenerator::new();
    let mut out = SamuraiOutcome::default();
    let mut rating = Rating::default();
    let g = geometry::samurai();
    let budget = default_budget(geometry::Shape::Samurai);
    // One pass to warm up: the grader's working vectors grow to what these puzzles need.
    for p in &puzzles {
        solver.solve_into(p, 2, &mut out);
        grader.rate_values(
            g,
            p.values(),
            Some(out.solution.values()),
            budget,
            &mut rating,
        );
    }
    let n = allocations(|| {
        for p in &puzzles {
            solver.solve_into(p, 2, &mut out);
            assert_eq!(out.count, 1);
            grader.rate_values(
                g,
                p.values(),
                Some(out.solution.values()),
                budget,
                &mut rating,
            );
            assert!(rating.steps > 0);
        }
        for i in 0..2 {
            let made = generator.generate(1, i, SamuraiSymmetry::Rot180);
            assert!(made.clues() > 0);
        }
    });
    assert_eq!(n, 0, "allocations while solving, grading and generating");
}

#[test]
fn the_generate_worker_allocates_nothing_per_puzzle_once_warm() {
    use clap::Parser;
    use sudoku_batch::cli::{Cli, Command};
    use sudoku_batch::config::GenerateConfig;
    use sudoku_batch::io::RowEncoder;
    use sudoku_batch::pipeline::engine::Block;
    use sudoku_batch::pipeline::generate::variant::{SamuraiMaker, VariantWorker};
    use sudoku_batch::pipeline::generate::{GENERATE_COLUMNS, GenerateStats, PuzzleWorker};

    let cli = Cli::try_parse_from([
        "sudoku-batch",
        "generate",
        "--variant",
        "samurai",
        "--symmetry",
        "random",
        "--er",
        "..4.4",
        "--seed",
        "3",
    ])
    .expect("arguments");
    let Command::Generate(args) = cli.command else {
        panic!("not generate");
    };
    let cfg = GenerateConfig::from_args(&args).expect("config");
    let target = cfg.variant.expect("a samurai target");
    let enc = RowEncoder::new(cfg.format, GENERATE_COLUMNS.to_vec());
    let mut worker = VariantWorker::<SamuraiMaker>::new(target, Cancel::NEVER);
    let none_failed = AtomicU64::new(u64::MAX);
    let mut block = Block::<GenerateStats>::default();
    // Warm up: the row buffers reach their size.
    for i in 0..2 {
        worker.process(i, &cfg, &enc, &mut block, &none_failed);
        block.out.clear();
    }
    let n = allocations(|| {
        for i in 2..5 {
            worker.process(i, &cfg, &enc, &mut block, &none_failed);
            block.out.clear();
        }
    });
    assert_eq!(block.stats.generated, 5);
    assert!(block.stats.tried > 5, "the ER target rejected candidates");
    assert_eq!(
        n, 0,
        "allocations while making graded samurai puzzles on target"
    );
}
