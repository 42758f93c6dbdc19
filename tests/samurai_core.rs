//! Samurai core: the fixtures in every input form, solution counts and solutions checked by a
//! plain reference solver written here (independent of the library's tables and bitboards),
//! and invalid records with their reasons and positions.

use std::collections::HashMap;
use std::path::Path;

use sudoku_batch::core::Grid;
use sudoku_batch::core::samurai::format::{self, SamuraiForm};
use sudoku_batch::core::samurai::{SamuraiGrid, SamuraiOutcome, SamuraiSolver, SubGrid};

fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/samurai")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Groups a fixture file into records: runs of non-blank, non-comment lines, cut every
/// `per` lines (1 for 405-cell lines).
fn records(text: &str, per: usize) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        cur.push(line);
        if cur.len() == per {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse(lines: &[&str]) -> SamuraiGrid {
    let bytes: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    let form = SamuraiForm::detect(bytes[0]);
    format::parse_record(form, &bytes)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// Every fixture puzzle, in file order: lines.txt, five_lines.txt, blocks.txt.
fn fixture_puzzles() -> Vec<SamuraiGrid> {
    let mut v: Vec<SamuraiGrid> = records(&data("lines.txt"), 1)
        .iter()
        .map(|r| parse(r))
        .collect();
    v.extend(records(&data("five_lines.txt"), 5).iter().map(|r| parse(r)));
    v.extend(records(&data("blocks.txt"), 21).iter().map(|r| parse(r)));
    v
}

// ---------------------------------------------------------------------------------------
// A plain reference solver over the 405-character five-grid form.

const ORIGINS: [(usize, usize); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

struct Reference {
    /// For each of the 405 five-grid positions, its distinct cell.
    cell_of: Vec<usize>,
    /// Number of distinct cells.
    n: usize,
    /// Rows, columns and boxes of every grid (a shared box appears twice; harmless).
    houses: Vec<Vec<usize>>,
    /// Houses of each grid.
    grid_houses: Vec<Vec<usize>>,
    /// Cells of each grid.
    grid_cells: Vec<Vec<usize>>,
    peers: Vec<Vec<usize>>,
    /// Cells lying in two grids.
    shared: Vec<usize>,
}

impl Reference {
    fn new() -> Reference {
        let mut index: HashMap<(usize, usize), usize> = HashMap::new();
        let mut cell_of = Vec::new();
        for &(r0, c0) in &ORIGINS {
            for k in 0..81 {
                let at = (r0 + k / 9, c0 + k % 9);
                let next = index.len();
                cell_of.push(*index.entry(at).or_insert(next));
            }
        }
        let n = index.len();
        let mut houses = Vec::new();
        let mut grid_houses = Vec::new();
        let mut grid_cells = Vec::new();
        for g in 0..5 {
            let at = |r: usize, c: usize| cell_of[g * 81 + r * 9 + c];
            let mut hs = Vec::new();
            for i in 0..9 {
                hs.push(houses.len());
                houses.push((0..9).map(|j| at(i, j)).collect::<Vec<_>>());
                hs.push(houses.len());
                houses.push((0..9).map(|j| at(j, i)).collect());
                hs.push(houses.len());
                houses.push(
                    (0..9)
                        .map(|j| at((i / 3) * 3 + j / 3, (i % 3) * 3 + j % 3))
                        .collect(),
                );
            }
            grid_houses.push(hs);
            grid_cells.push((0..81).map(|k| cell_of[g * 81 + k]).collect::<Vec<_>>());
        }
        let mut peers = vec![Vec::new(); n];
        for h in &houses {
            for &a in h {
                for &b in h {
                    if a != b && !peers[a].contains(&b) {
                        peers[a].push(b);
                    }
                }
            }
        }
        let mut seen = vec![0; n];
        for &c in &cell_of {
            seen[c] += 1;
        }
        let shared = (0..n).filter(|&c| seen[c] == 2).collect();
        Reference {
            cell_of,
            n,
            houses,
            grid_houses,
            grid_cells,
            peers,
            shared,
        }
    }

    /// Reads the 405-character form; `None` if the two copies of a shared cell disagree.
    fn load(&self, text: &str) -> Option<Vec<u8>> {
        let mut v = vec![0u8; self.n];
        let mut set = vec![false; self.n];
        for (i, b) in text.bytes().enumerate() {
            let d = if b.is_ascii_digit() { b - b'0' } else { 0 };
            let c = self.cell_of[i];
            if set[c] && v[c] != d {
                return None;
            }
            v[c] = d;
            set[c] = true;
        }
        Some(v)
    }

    fn show(&self, v: &[u8]) -> String {
        self.cell_of
            .iter()
            .map(|&c| {
                if v[c] == 0 {
                    '.'
                } else {
                    (b'0' + v[c]) as char
                }
            })
            .collect()
    }

    fn cands(&self, v: &[u8], c: usize) -> u16 {
        let mut m = 0x3fe;
        for &p in &self.peers[c] {
            m &= !(1 << v[p]);
        }
        m
    }

    /// Naked and hidden singles over `houses` until nothing changes; false on a
    /// contradiction.
    fn propagate(&self, v: &mut [u8], cells: &[usize], houses: &[usize]) -> bool {
        loop {
            let mut changed = false;
            for &c in cells {
                if v[c] != 0 {
                    continue;
                }
                let m = self.cands(v, c);
                if m == 0 {
                    return false;
                }
                if m.count_ones() == 1 {
                    v[c] = m.trailing_zeros() as u8;
                    changed = true;
                }
            }
            for &h in houses {
                for d in 1..=9u8 {
                    if self.houses[h].iter().any(|&c| v[c] == d) {
                        continue;
                    }
                    let spots: Vec<usize> = self.houses[h]
                        .iter()
                        .copied()
                        .filter(|&c| v[c] == 0 && self.cands(v, c) & (1 << d) != 0)
                        .collect();
                    match spots.len() {
                        0 => return false,
                        1 => {
                            v[spots[0]] = d;
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
            if !changed {
                // No digit twice in a house (singles placed in one pass may clash).
                return self.houses.iter().all(|h| {
                    let mut seen = 0u16;
                    h.iter().all(|&c| {
                        let bit = 1 << v[c];
                        let ok = v[c] == 0 || seen & bit == 0;
                        seen |= bit;
                        ok
                    })
                });
            }
        }
    }

    /// The empty cell of `among` with the fewest candidates.
    fn fewest(&self, v: &[u8], among: &[usize]) -> Option<usize> {
        among
            .iter()
            .copied()
            .filter(|&c| v[c] == 0)
            .min_by_key(|&c| self.cands(v, c).count_ones())
    }

    /// Counts the completions of `cells` (propagating over `houses`) up to `limit`, keeping
    /// the first in `first`.
    fn count(
        &self,
        v: &mut [u8],
        limit: usize,
        first: &mut Option<Vec<u8>>,
        cells: &[usize],
        houses: &[usize],
    ) -> usize {
        if !self.propagate(v, cells, houses) {
            return 0;
        }
        let Some(c) = self.fewest(v, cells) else {
            if first.is_none() {
                *first = Some(v.to_vec());
            }
            return 1;
        };
        let mut total = 0;
        let m = self.cands(v, c);
        for d in 1..=9u8 {
            if m & (1 << d) == 0 {
                continue;
            }
            let mut next = v.to_vec();
            next[c] = d;
            total += self.count(&mut next, limit - total, first, cells, houses);
            if total >= limit {
                break;
            }
        }
        total
    }

    /// (count up to `limit`, first solution in 405-character form).
    fn solve(&self, puzzle405: &str, limit: usize) -> (usize, Option<String>) {
        let Some(mut v) = self.load(puzzle405) else {
            return (0, None);
        };
        let all: Vec<usize> = (0..self.n).collect();
        let houses: Vec<usize> = (0..self.houses.len()).collect();
        let mut first = None;
        let n = self.count_top(&mut v, limit, &mut first, &all, &houses);
        (n, first.map(|f| self.show(&f)))
    }

    /// Counts solutions up to `limit`, keeping the first in `first`. Shared cells are
    /// decided first; once they all are, the five grids no longer interact, so each grid's
    /// completions are counted on their own and multiplied.
    fn count_top(
        &self,
        v: &mut [u8],
        limit: usize,
        first: &mut Option<Vec<u8>>,
        all: &[usize],
        houses: &[usize],
    ) -> usize {
        if !self.propagate(v, all, houses) {
            return 0;
        }
        if let Some(c) = self.fewest(v, &self.shared) {
            let mut total = 0;
            let m = self.cands(v, c);
            for d in 1..=9u8 {
                if m & (1 << d) == 0 {
                    continue;
                }
                let mut next = v.to_vec();
                next[c] = d;
                total += self.count_top(&mut next, limit - total, first, all, houses);
                if total >= limit {
                    break;
                }
            }
            return total;
        }
        // All shared cells decided: multiply the grids' completion counts.
        let mut total = 1;
        for g in 0..5 {
            let mut sub = None;
            let n = self.count(
                v,
                limit,
                &mut sub,
                &self.grid_cells[g],
                &self.grid_houses[g],
            );
            if n == 0 {
                return 0;
            }
            total = (total * n).min(limit);
            if let Some(s) = sub {
                v.copy_from_slice(&s);
            }
        }
        if first.is_none() {
            *first = Some(v.to_vec());
        }
        total
    }
}

/// Every grid of `s` is a complete classic solution, and `s` keeps `p`'s givens.
fn assert_valid_solution(s: &SamuraiGrid, p: &SamuraiGrid) {
    for g in SubGrid::ALL {
        let grid: Grid = s.grid(g);
        assert!(grid.is_full(), "{g} not full");
        assert!(grid.check_givens().is_ok(), "{g} breaks a rule");
        assert!(grid.is_solution_of(&p.grid(g)), "{g} loses a given");
    }
    assert!(s.is_solution_of(p));
}

#[test]
fn fixtures_of_every_form_have_one_solution_that_the_reference_confirms() {
    let golden: Vec<(String, String)> = data("solutions.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split(':');
            let p = f.next().unwrap().to_string();
            assert_eq!(f.next(), Some("1"));
            (p, f.next().unwrap().to_string())
        })
        .collect();
    let puzzles = fixture_puzzles();
    assert_eq!(puzzles.len(), 8);
    assert_eq!(golden.len(), 8);
    let reference = Reference::new();
    let mut solver = SamuraiSolver::new();
    for (p, (gp, gs)) in puzzles.iter().zip(&golden) {
        assert_eq!(&p.to_string(), gp);
        let out = solver.solve(p, 2);
        assert_eq!(out.count, 1, "{p}");
        assert_valid_solution(&out.solution, p);
        assert_eq!(&out.solution.to_string(), gs);
        let (n, sol) = reference.solve(gp, 2);
        assert_eq!(n, 1, "reference count for {gp}");
        assert_eq!(sol.as_deref(), Some(gs.as_str()));
    }
}

#[test]
fn multiple_and_unsolvable_puzzles_are_counted_as_the_reference_counts_them() {
    let reference = Reference::new();
    let mut solver = SamuraiSolver::new();
    let multiple = parse(&records(&data("multiple.txt"), 1)[0]);
    let out = solver.solve(&multiple, 2);
    assert_eq!(out.count, 2);
    assert_valid_solution(&out.solution, &multiple);
    assert_eq!(reference.solve(&multiple.to_string(), 2).0, 2);
    // A higher limit counts further.
    assert!(solver.solve(&multiple, 5).count >= 2);
    assert_eq!(solver.solve(&multiple, 1).count, 1);

    let unsolvable = parse(&records(&data("unsolvable.txt"), 1)[0]);
    assert!(unsolvable.check_givens().is_ok());
    let out = solver.solve(&unsolvable, 2);
    assert_eq!(out.count, 0);
    assert_eq!(reference.solve(&unsolvable.to_string(), 2).0, 0);
}

#[test]
fn the_three_forms_of_a_puzzle_read_the_same() {
    for p in fixture_puzzles() {
        let line = p.to_string();
        let five: Vec<&str> = (0..5).map(|g| &line[g * 81..g * 81 + 81]).collect();
        let mut block = Vec::new();
        p.write_block(&mut block);
        let block = String::from_utf8(block).unwrap();
        let block: Vec<&str> = block.lines().collect();
        assert_eq!(block.len(), 21);
        assert_eq!(SamuraiForm::detect(line.as_bytes()), SamuraiForm::Line);
        assert_eq!(
            SamuraiForm::detect(five[0].as_bytes()),
            SamuraiForm::FiveLines
        );
        assert_eq!(SamuraiForm::detect(block[0].as_bytes()), SamuraiForm::Block);
        assert_eq!(parse(&[&line]), p);
        assert_eq!(parse(&five), p);
        assert_eq!(parse(&block), p);
        // Zeros for blanks read the same.
        assert_eq!(parse(&[&line.replace('.', "0")]), p);
    }
}

#[test]
fn solving_keeps_the_caller_memory_and_is_repeatable() {
    let puzzles = fixture_puzzles();
    let mut solver = SamuraiSolver::new();
    let mut out = SamuraiOutcome::default();
    let mut first = Vec::new();
    for p in &puzzles {
        solver.solve_into(p, 2, &mut out);
        first.push(out);
    }
    // The same solver, reused in another order, gives the same outcomes (guesses included).
    for (p, want) in puzzles.iter().zip(&first).rev() {
        solver.solve_into(p, 2, &mut out);
        assert_eq!(&out, want);
    }
}

#[test]
fn invalid_records_say_why_and_where() {
    let text = data("invalid.txt");
    let mut cases = 0;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(expect) = line.strip_prefix("# expect: ") else {
            continue;
        };
        let mut rec: Vec<&[u8]> = Vec::new();
        while let Some(l) = lines.peek() {
            if l.is_empty() || l.starts_with('#') {
                break;
            }
            rec.push(lines.next().unwrap().as_bytes());
        }
        let form = SamuraiForm::detect(rec[0]);
        let e = format::parse_record(form, &rec).expect_err(expect);
        assert_eq!(
            format!("{}:{}: {}", e.line + 1, e.col, e),
            expect,
            "record read as {}",
            form.name()
        );
        cases += 1;
    }
    assert_eq!(cases, 15);
}

#[test]
fn counts_agree_with_the_reference_on_puzzles_with_clues_taken_away_or_broken() {
    use rand::{Rng, SeedableRng};
    use sudoku_batch::core::Digit;
    use sudoku_batch::core::samurai::SamuraiCell;
    // Taking clues away from a unique puzzle makes many solutions (counted to the limit)
    // and deep searches; changing one clue makes most puzzles unsolvable. Both walk the
    // solver's contradiction paths (locked candidates included) far more than unique
    // puzzles do.
    let reference = Reference::new();
    let mut solver = SamuraiSolver::new();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(6);
    let limit = 40;
    let (mut multiple, mut none) = (0, 0);
    for p in fixture_puzzles() {
        let clues: Vec<SamuraiCell> = SamuraiCell::all()
            .filter(|&c| p.digit(c).is_some())
            .collect();
        for case in 0..8 {
            let mut q = p;
            if case < 6 {
                for _ in 0..1 + case {
                    let c = clues[(rng.next_u64() % clues.len() as u64) as usize];
                    q.set(c, None);
                }
            } else {
                let c = clues[(rng.next_u64() % clues.len() as u64) as usize];
                q.set(c, Some(Digit::new(1 + (rng.next_u64() % 9) as u8)));
            }
            let out = solver.solve(&q, limit);
            let (n, first) = reference.solve(&q.to_string(), limit as usize);
            assert_eq!(out.count as usize, n, "{q}");
            if n > 0 {
                assert_valid_solution(&out.solution, &q);
            }
            if n == 1 {
                assert_eq!(Some(out.solution.to_string()), first, "{q}");
            }
            multiple += usize::from(n > 1);
            none += usize::from(n == 0);
        }
    }
    // The cases do reach both kinds.
    assert!(
        multiple >= 10 && none >= 4,
        "{multiple} multiple, {none} unsolvable"
    );
}
