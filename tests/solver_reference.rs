//! The fast solver against a simple, independent reference solver written plainly here:
//! solution counts (up to a limit) and unique solutions must agree on random puzzles
//! (random clue subsets of random solution grids, random givens, puzzles from `data/` with
//! clues removed or a wrong clue added, nearly empty grids, exclusions), for both backends;
//! and the two backends must agree bit for bit, guesses included.

use std::sync::OnceLock;

use proptest::prelude::*;
use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Cell, Digit, Grid, SolveOutcome, Solver};

/// The reference: depth-first search over cells, always the empty cell with the fewest
/// candidates (from row, column and box masks kept up to date), digits in increasing
/// order. Counts solutions up to `limit` and keeps the first. `banned[c]` lists digits
/// (bit d-1) excluded at cell c. It has no propagation, so a few random cases (an
/// unsolvable grid whose contradiction lies deep) would take it hours: it gives up after
/// [`REFERENCE_NODES`] nodes, and such a case is rejected (proptest draws another).
struct Reference {
    cells: [u8; 81],
    banned: [u16; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    limit: u32,
    count: u32,
    first: Option<[u8; 81]>,
    nodes_left: u64,
}

/// Search nodes the reference may visit for one case (about a second).
const REFERENCE_NODES: u64 = 10_000_000;

fn box_of(i: usize) -> usize {
    i / 27 * 3 + i % 9 / 3
}

impl Reference {
    /// The count and the first solution; `None` when the search was given up.
    fn run(cells: [u8; 81], banned: [u16; 81], limit: u32) -> Option<(u32, Option<[u8; 81]>)> {
        let mut r = Reference {
            cells,
            banned,
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            limit,
            count: 0,
            first: None,
            nodes_left: REFERENCE_NODES,
        };
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let m = 1u16 << (v - 1);
            // A digit twice in a house, or a given that is itself excluded: no solution.
            if (r.rows[i / 9] | r.cols[i % 9] | r.boxes[box_of(i)] | banned[i]) & m != 0 {
                return Some((0, None));
            }
            r.toggle(i, m);
        }
        r.search();
        (r.nodes_left > 0).then_some((r.count, r.first))
    }

    fn toggle(&mut self, i: usize, m: u16) {
        self.rows[i / 9] ^= m;
        self.cols[i % 9] ^= m;
        self.boxes[box_of(i)] ^= m;
    }

    fn search(&mut self) {
        if self.nodes_left == 0 {
            return;
        }
        self.nodes_left -= 1;
        let mut best: Option<(usize, u16)> = None;
        for i in 0..81 {
            if self.cells[i] != 0 {
                continue;
            }
            let used = self.rows[i / 9] | self.cols[i % 9] | self.boxes[box_of(i)];
            let cand = 0x1FF & !used & !self.banned[i];
            if best.is_none_or(|(_, m)| cand.count_ones() < m.count_ones()) {
                best = Some((i, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((i, cand)) = best else {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(self.cells);
            }
            return;
        };
        for d in 0..9u8 {
            let m = 1u16 << d;
            if cand & m == 0 {
                continue;
            }
            self.cells[i] = d + 1;
            self.toggle(i, m);
            self.search();
            self.toggle(i, m);
            self.cells[i] = 0;
            if self.count >= self.limit || self.nodes_left == 0 {
                return;
            }
        }
    }
}

/// A valid solution grid, shuffled by validity-preserving moves driven by `seed`.
fn solution_grid(seed: u64) -> [u8; 81] {
    let mut s = seed | 1;
    let mut next = move |n: usize| -> usize {
        // xorshift64*
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let mut shuffle = |v: &mut [usize]| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    let mut digits: Vec<usize> = (0..9).collect();
    shuffle(&mut digits);
    let mut perm = |v: &mut Vec<usize>| {
        let mut bands = vec![0, 1, 2];
        shuffle(&mut bands);
        v.clear();
        for b in bands {
            let mut inner = vec![0, 1, 2];
            shuffle(&mut inner);
            v.extend(inner.into_iter().map(|r| 3 * b + r));
        }
    };
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    perm(&mut rows);
    perm(&mut cols);
    let transpose = next(2) == 1;
    let mut g = [0u8; 81];
    for (r, &rr) in rows.iter().enumerate() {
        for (c, &cc) in cols.iter().enumerate() {
            let base = (rr * 3 + rr / 3 + cc) % 9;
            let i = if transpose { c * 9 + r } else { r * 9 + c };
            g[i] = digits[base] as u8 + 1;
        }
    }
    g
}

fn data_puzzles() -> &'static [[u8; 81]] {
    static P: OnceLock<Vec<[u8; 81]>> = OnceLock::new();
    P.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
        let mut v = Vec::new();
        for f in [
            "17clue_200.txt",
            "top1465_100.txt",
            "hardest_100.txt",
            "serg_100.txt",
            "random_minimal_200.txt",
        ] {
            let text = std::fs::read(format!("{dir}/{f}")).expect("sample file in data/");
            for line in text.split(|&b| b == b'\n') {
                if let Ok((g, _)) = Grid::parse_line(line) {
                    v.push(*g.values());
                }
            }
        }
        v
    })
}

/// Runs both backends and the reference on one puzzle and checks they agree.
fn check(cells: [u8; 81], excluded: &[(usize, u8)], limit: u32) -> Result<(), TestCaseError> {
    let grid = Grid::from_values(cells).expect("values 0..=9");
    let ex: Vec<(Cell, Digit)> = excluded
        .iter()
        .map(|&(c, d)| (Cell::new(c as u8), Digit::new(d)))
        .collect();
    let mut banned = [0u16; 81];
    for &(c, d) in excluded {
        banned[c] |= 1 << (d - 1);
    }
    let Some((ref_count, ref_first)) = Reference::run(cells, banned, limit) else {
        return Err(TestCaseError::reject(
            "the reference search is too long for this case",
        ));
    };
    let mut outs = [SolveOutcome::default(); 3];
    for (out, backend) in outs
        .iter_mut()
        .zip([Backend::Auto, Backend::Avx2, Backend::Portable])
    {
        Solver::with_backend(backend).solve_excluding_into(&grid, &ex, limit, out);
        prop_assert_eq!(out.count, ref_count, "count, {:?}, {}", backend, grid);
        if out.count > 0 {
            let s = out.solution;
            prop_assert!(
                s.is_solution_of(&grid),
                "invalid solution {} for {}",
                s,
                grid
            );
            for &(c, d) in excluded {
                prop_assert_ne!(s.values()[c], d, "solution uses an excluded candidate");
            }
        }
        if ref_count == 1 && limit >= 2 {
            let want = ref_first.expect("a solution");
            prop_assert_eq!(out.solution.values(), &want, "unique solution of {}", grid);
        }
    }
    prop_assert_eq!(outs[0], outs[1], "backends disagree on {}", grid);
    prop_assert_eq!(outs[0], outs[2], "backends disagree on {}", grid);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_clue_subsets_of_random_grids(
        seed in any::<u64>(),
        keep in prop::collection::vec(0u8..100, 81),
        density in 15u8..60,
        limit in 1u32..4,
    ) {
        let full = solution_grid(seed);
        let mut cells = [0u8; 81];
        for i in 0..81 {
            if keep[i] < density {
                cells[i] = full[i];
            }
        }
        check(cells, &[], limit)?;
    }

    #[test]
    fn random_givens(
        givens in prop::collection::vec((0usize..81, 1u8..10), 0..40),
        limit in 1u32..4,
    ) {
        let mut cells = [0u8; 81];
        for (c, d) in givens {
            cells[c] = d;
        }
        check(cells, &[], limit)?;
    }

    #[test]
    fn data_puzzles_with_clues_removed_or_a_wrong_clue_added(
        index in any::<prop::sample::Index>(),
        remove in prop::collection::vec(0usize..81, 0..4),
        add in prop::option::of((0usize..81, 1u8..10)),
        limit in 1u32..4,
    ) {
        let p = data_puzzles();
        let mut cells = p[index.index(p.len())];
        for c in remove {
            cells[c] = 0;
        }
        if let Some((c, d)) = add.filter(|&(c, _)| cells[c] == 0) {
            cells[c] = d;
        }
        check(cells, &[], limit)?;
    }

    #[test]
    fn nearly_empty_grids(
        seed in any::<u64>(),
        clues in prop::collection::vec(0usize..81, 0..8),
        limit in 1u32..5,
    ) {
        let full = solution_grid(seed);
        let mut cells = [0u8; 81];
        for c in clues {
            cells[c] = full[c];
        }
        check(cells, &[], limit)?;
    }

    #[test]
    fn exclusions(
        index in any::<prop::sample::Index>(),
        remove in prop::collection::vec(0usize..81, 0..3),
        excluded in prop::collection::vec((0usize..81, 1u8..10), 0..6),
        limit in 1u32..4,
    ) {
        let p = data_puzzles();
        let mut cells = p[index.index(p.len())];
        for c in remove {
            cells[c] = 0;
        }
        check(cells, &excluded, limit)?;
    }
}

#[test]
fn data_samples_agree_with_the_reference() {
    // Every fifth sample keeps the (plain, slow in debug builds) reference quick.
    for &cells in data_puzzles().iter().step_by(5) {
        check(cells, &[], 2).unwrap();
    }
}

#[test]
fn the_empty_grid_counts_up_to_the_limit() {
    check([0; 81], &[], 1).unwrap();
    check([0; 81], &[], 3).unwrap();
}

#[test]
fn the_reference_itself_finds_a_known_solution() {
    let p: Grid =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
            .parse()
            .unwrap();
    let (n, s) = Reference::run(*p.values(), [0; 81], 2).expect("reference finished");
    assert_eq!(n, 1);
    let s = Grid::from_values(s.unwrap()).unwrap();
    assert!(s.is_solution_of(&p));
    assert_eq!(
        Reference::run(solution_grid(7), [0; 81], 2)
            .expect("reference finished")
            .0,
        1
    );
}

#[test]
fn golden_file_agrees_with_the_reference() {
    let text = include_str!("../data/golden_solver.txt");
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut f = line.split(':');
        let p: Grid = f.next().unwrap().parse().unwrap();
        let count: u32 = f.next().unwrap().parse().unwrap();
        let sol = f.next().unwrap();
        let (n, first) = Reference::run(*p.values(), [0; 81], 2).expect("reference finished");
        assert_eq!(n, count, "{p}");
        if n == 1 {
            let first = Grid::from_values(first.unwrap()).unwrap();
            assert_eq!(first.to_string(), sol, "{p}");
        }
    }
}

/// Hard unique puzzles with 30 or more givens: the solver searches those in dive mode
/// (first a value of a wide-open cell, switching to its careful branching after a few
/// contradictions), which must not change the count or the solution. The hard samples are
/// padded with cells of their solution (in a fixed scattered order) until they have 30
/// givens; the 37-given one is from the forum's 11+ list as it is.
#[test]
fn hard_puzzles_with_many_givens_agree_with_the_reference() {
    let mut padded: Vec<[u8; 81]> = vec![
        *"6....2.5952..4..1...35..2..3..1945...1.658.3...5273..1..4..51...3..2..4575.4....8"
            .parse::<Grid>()
            .unwrap()
            .values(),
    ];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let text = std::fs::read_to_string(format!("{dir}/hardest_100.txt")).unwrap();
    for line in text.lines().step_by(10) {
        let Ok(g) = line.trim().parse::<Grid>() else {
            continue;
        };
        let mut cells = *g.values();
        let (n, sol) = Reference::run(cells, [0; 81], 2).expect("reference finished");
        assert_eq!(n, 1, "{g}");
        let sol = sol.unwrap();
        let mut i = 0;
        while cells.iter().filter(|&&v| v != 0).count() < 30 {
            cells[i] = sol[i];
            i = (i + 37) % 81;
        }
        padded.push(cells);
    }
    let mut guessed = 0;
    for cells in padded {
        check(cells, &[], 2).unwrap();
        check(cells, &[], 1).unwrap();
        let out = Solver::new().solve(&Grid::from_values(cells).unwrap(), 2);
        assert_eq!(out.count, 1);
        if out.guesses > 0 {
            guessed += 1;
        }
    }
    assert!(guessed > 0, "some padded puzzle needs a guess");
}
