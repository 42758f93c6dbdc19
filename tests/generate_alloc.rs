//! Generating allocates nothing per puzzle once a worker's generator (and rater) is warm:
//! a counting global allocator watches plain, symmetric-minimal, steered and graded runs.
//! Only the test's own thread is counted (the harness allocates on other threads).

use sudoku_batch::core::Grid;
use sudoku_batch::core::generator::{
    ErRange, ErScore, Generator, Rate, Symmetry, SymmetryChoice, Target, Unrated,
};
use sudoku_batch::core::grader::DEFAULT_BUDGET;
use sudoku_batch::pipeline::generate::Graded;

mod common;
use common::alloc::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// "ER" = the clue count, so that a clue-count range exercises the steering.
struct CluesAsEr;

impl Rate for CluesAsEr {
    type Rating = u16;
    fn rate(&mut self, puzzle: &Grid, _solution: &Grid) -> u16 {
        puzzle.clue_count() as u16
    }
    fn er(r: &u16) -> Option<ErScore> {
        Some(ErScore {
            tenths: *r,
            exact: true,
        })
    }
}

fn allocations_after_warm_up<R: Rate>(rater: &mut R, target: &Target, n: u64) -> usize {
    let mut g = Generator::new();
    for i in 0..n {
        let _ = g.generate(rater, target, 1, i);
    }
    let mut made = 0;
    let count = allocations(|| {
        for i in n..2 * n {
            made += usize::from(g.generate(rater, target, 1, i).is_ok());
        }
    });
    assert!(made > 0);
    count
}

#[test]
fn generating_allocates_nothing_per_puzzle() {
    let plain = Target {
        minimal: true,
        ..Target::default()
    };
    assert_eq!(allocations_after_warm_up(&mut Unrated, &plain, 100), 0);
    let symmetric = Target {
        symmetry: SymmetryChoice::Fixed(Symmetry::Rot180),
        minimal: true,
        ..Target::default()
    };
    assert_eq!(allocations_after_warm_up(&mut Unrated, &symmetric, 20), 0);
    let steered = Target {
        er: Some(ErRange { min: 21, max: 21 }),
        max_attempts: 2000,
        ..Target::default()
    };
    assert_eq!(allocations_after_warm_up(&mut CluesAsEr, &steered, 10), 0);
    let mut graded = Graded::new(DEFAULT_BUDGET);
    assert_eq!(allocations_after_warm_up(&mut graded, &plain, 30), 0);
}
