//! `explain`'s chains written out: each chaining step of a solving path is found again,
//! with its chains traced ([`chains::trace`]), on the board as it was before the step.

use crate::core::Cancel;
use crate::core::family::Family;
use crate::core::geometry::Geometry;
use crate::core::logic::chains::{self, ChainScratch, ChainTrace, Spread};
use crate::core::logic::{Board, Budget, Step};

/// The chains of each step of `steps` (solved from the givens `values`), `None` for the
/// steps that are not chains. A trace whose step differs from the one graded (it cannot,
/// unless the search were not deterministic) is dropped rather than shown wrong; `cancel`
/// stops the tracing early (the remaining steps get none); `spread` shares each search
/// out, as in grading.
pub(super) fn traces<F: Family>(
    geo: &Geometry<F>,
    values: &F::Cells<u8>,
    steps: &[Step<F>],
    cancel: Cancel,
    spread: Option<&dyn Spread>,
) -> Vec<Option<ChainTrace>> {
    let mut board = Board::from_values(geo, values);
    let mut scratch: ChainScratch<F> = ChainScratch::new();
    let mut out = Vec::with_capacity(steps.len());
    for s in steps {
        let mut found = None;
        if let Some(level) = chains::level_of(s.technique) {
            let mut budget = Budget::UNLIMITED.with_cancel(cancel);
            let mut again = Step::new(s.technique);
            let t = chains::trace(
                geo,
                &board,
                level,
                &mut scratch,
                &mut budget,
                &mut again,
                spread,
            );
            if again.eliminations == s.eliminations && again.placement == s.placement {
                found = t;
            }
        }
        out.push(found);
        board.apply(geo, s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{self, S81};
    use crate::core::grader::Grader;
    use crate::core::index::{Cell, Digit};
    use crate::core::logic::chains::{TraceKind, TracedChain, Via};

    /// Checks that every link of `t` follows from the rules on `board` (the grid before the
    /// step), that its chains conclude what the step does, and that their lengths make the
    /// step's length.
    fn check(g: &Geometry<S81>, board: &Board<S81>, step: &Step<S81>, t: &ChainTrace) {
        let name = |c: &TracedChain, i: usize| c.potentials[i].name(g);
        for c in &t.chains {
            for (i, p) in c.potentials.iter().enumerate() {
                let here = name(c, i);
                assert!(p.parents.iter().all(|&q| (q as usize) < i), "{here}");
                let parents: Vec<_> = p
                    .parents
                    .iter()
                    .map(|&q| &c.potentials[q as usize])
                    .collect();
                match p.via {
                    Via::Assumption => {
                        assert!(parents.is_empty() && board.has(p.cell, p.digit), "{here}")
                    }
                    Via::Technique(_) | Via::Nested(_) => {
                        assert!(!p.on && !parents.is_empty(), "{here}")
                    }
                    Via::Cell if p.on => {
                        // Every other candidate of the cell is off among its parents.
                        for d in board.candidates(p.cell) {
                            assert!(
                                d == p.digit
                                    || parents
                                        .iter()
                                        .any(|q| !q.on && q.cell == p.cell && q.digit == d),
                                "{here}: {d} is still a candidate"
                            );
                        }
                    }
                    Via::House(h) if p.on => {
                        // Every other place of the digit in the house is off among its parents.
                        for x in board.plane(p.digit) & g.house_set(usize::from(h)) {
                            assert!(
                                x == p.cell
                                    || parents
                                        .iter()
                                        .any(|q| !q.on && q.cell == x && q.digit == p.digit),
                                "{here}: {} is still a place",
                                g.cell_name(x)
                            );
                        }
                    }
                    Via::Cell => {
                        let q = parents[0];
                        assert!(q.on && q.cell == p.cell && q.digit != p.digit, "{here}");
                        assert!(board.has(p.cell, p.digit), "{here}");
                    }
                    Via::House(h) => {
                        let q = parents[0];
                        let hs = g.house_set(usize::from(h));
                        assert!(q.on && q.digit == p.digit && q.cell != p.cell, "{here}");
                        assert!(hs.contains(q.cell) && hs.contains(p.cell), "{here}");
                    }
                }
            }
        }
        let first = |c: &TracedChain| c.potentials.first().cloned().unwrap();
        let last = |c: &TracedChain| c.potentials.last().cloned().unwrap();
        let concludes = |p: &crate::core::logic::chains::Potential| {
            if p.on {
                assert_eq!(step.placement, Some((p.cell, p.digit)), "{}", p.name(g));
            } else {
                assert!(
                    step.eliminations[p.digit.index()].contains(p.cell),
                    "{}",
                    p.name(g)
                );
            }
        };
        let (a, z) = (first(&t.chains[0]), last(&t.chains[0]));
        match t.kind {
            TraceKind::Cycle => {
                assert_eq!((a.cell, a.digit, a.on), (z.cell, z.digit, z.on));
                assert_eq!(t.chains.len(), 1);
            }
            TraceKind::Forcing => {
                assert_eq!((a.cell, a.digit, a.on), (z.cell, z.digit, !z.on));
                concludes(&z);
            }
            TraceKind::Contradiction => {
                let z2 = last(&t.chains[1]);
                assert_eq!(first(&t.chains[1]), a);
                assert_eq!((z.cell, z.digit, z.on), (z2.cell, z2.digit, !z2.on));
                let mut neg = a.clone();
                neg.on = !a.on;
                concludes(&neg);
            }
            TraceKind::Double => {
                let (a2, z2) = (first(&t.chains[1]), last(&t.chains[1]));
                assert_eq!((a.cell, a.digit, a.on), (a2.cell, a2.digit, !a2.on));
                assert_eq!((z.cell, z.digit, z.on), (z2.cell, z2.digit, z2.on));
                concludes(&z);
            }
            TraceKind::Cell | TraceKind::Region(_) => {
                let starts: Vec<(Cell, Digit)> = t
                    .chains
                    .iter()
                    .map(|c| (first(c).cell, first(c).digit))
                    .collect();
                let want: Vec<(Cell, Digit)> = match t.kind {
                    TraceKind::Region(h) => (board.plane(a.digit) & g.house_set(usize::from(h)))
                        .into_iter()
                        .map(|x| (x, a.digit))
                        .collect(),
                    _ => board
                        .candidates(a.cell)
                        .iter()
                        .map(|d| (a.cell, d))
                        .collect(),
                };
                let mut sorted = starts.clone();
                sorted.sort_by_key(|&(c, d)| (c.index(), d.index()));
                assert_eq!(sorted, want);
                for c in &t.chains {
                    let l = last(c);
                    assert_eq!((l.cell, l.digit, l.on), (z.cell, z.digit, z.on));
                }
                concludes(&z);
            }
        }
        // Every nested chaining hint used is written out too, and ends in one of its removals.
        for n in &t.nested {
            assert!(!n.trace.chains.is_empty(), "{}", step.display(g));
            for c in &n.trace.chains {
                check_links(g, c);
            }
        }
        if t.nested.is_empty() {
            let n: usize = t.chains.iter().map(|c| c.potentials.len()).sum();
            let n = if t.kind == TraceKind::Cycle { n - 1 } else { n };
            assert_eq!(n, usize::from(step.size), "{}", step.display(g));
        }
    }

    /// Grades each puzzle (81 cells first on each line) on `g`, traces its chain steps and
    /// checks them; returns how many were traced and the kinds met.
    fn check_puzzles<'a>(
        g: &Geometry<S81>,
        lines: impl Iterator<Item = &'a str>,
        kinds: &mut std::collections::BTreeSet<String>,
    ) -> usize {
        let mut grader: Grader<S81> = Grader::new();
        let mut traced = 0;
        for p in lines {
            let values: [u8; 81] = std::array::from_fn(|i| {
                p.as_bytes()[i]
                    .checked_sub(b'0')
                    .filter(|v| (1..=9).contains(v))
                    .unwrap_or(0)
            });
            let mut steps = Vec::new();
            grader.explain_values(g, &values, None, u64::MAX, &mut steps);
            let traces = traces(g, &values, &steps, Cancel::NEVER, None);
            let mut board = Board::from_values(g, &values);
            for (s, t) in steps.iter().zip(&traces) {
                assert_eq!(
                    t.is_some(),
                    chains::level_of(s.technique).is_some(),
                    "{p}: {}",
                    s.display(g)
                );
                if let Some(t) = t {
                    check(g, &board, s, t);
                    kinds.insert(format!("{:?}", t.kind).chars().take(6).collect::<String>());
                    if !t.nested.is_empty() {
                        kinds.insert("nested".to_string());
                    }
                    assert!(!t.lines(g).is_empty());
                    traced += 1;
                }
                board.apply(g, s);
            }
        }
        traced
    }

    /// The links of a nested chain, which runs on a grid of its own: the right kinds of
    /// potential on each side of each link, in one cell or one house.
    fn check_links(g: &Geometry<S81>, c: &TracedChain) {
        for p in &c.potentials {
            let Some(&q) = p.parents.first() else {
                continue;
            };
            let q = &c.potentials[q as usize];
            match p.via {
                Via::Cell => assert!(q.cell == p.cell && q.digit != p.digit && q.on != p.on),
                Via::House(h) => {
                    let hs = g.house_set(usize::from(h));
                    assert!(q.digit == p.digit && q.cell != p.cell && q.on != p.on);
                    assert!(hs.contains(q.cell) && hs.contains(p.cell));
                }
                _ => {}
            }
        }
    }

    #[test]
    fn every_chain_written_out_follows_from_the_rules_and_gives_its_step() {
        let g = geometry::classic();
        let text = std::fs::read_to_string("data/rated_exchange_60.tsv").unwrap()
            + &std::fs::read_to_string("data/rated_hardest_20.tsv")
                .unwrap()
                .lines()
                .take(3)
                .map(|l| format!("{l}\n"))
                .collect::<String>();
        let mut kinds = std::collections::BTreeSet::new();
        let traced = check_puzzles(g, text.lines(), &mut kinds);
        assert!(traced > 100, "{traced}");
        // Cycles, forcing chains, contradictions, double, cell and region chains all met,
        // and nested chains.
        assert!(kinds.contains("nested"), "{kinds:?}");
        assert_eq!(kinds.len(), 7, "{kinds:?}");
    }

    #[test]
    fn chains_of_every_81_cell_shape_follow_from_its_rules() {
        let read = |f: &str| std::fs::read_to_string(format!("data/variants/{f}")).unwrap();
        let mut kinds = std::collections::BTreeSet::new();
        let mut traced = 0;
        for (g, f) in [
            (geometry::x(), "x.txt"),
            (geometry::windoku(), "windoku.txt"),
        ] {
            let text = read(f);
            let lines = text
                .lines()
                .filter(|l| !l.starts_with('#') && l.len() >= 81);
            traced += check_puzzles(g, lines, &mut kinds);
        }
        // Jigsaw: cells, a space, the 81 region ids.
        for line in read("jigsaw.txt").lines().filter(|l| !l.starts_with('#')) {
            let Some((cells, rest)) = line.split_once(' ') else {
                continue;
            };
            let ids: [u8; 81] = std::array::from_fn(|i| rest.as_bytes()[i] - b'1');
            let g = Geometry::new_jigsaw(&ids).unwrap();
            traced += check_puzzles(&g, std::iter::once(cells), &mut kinds);
        }
        assert!(traced > 20, "{traced}");
        assert!(kinds.len() >= 4, "{kinds:?}");
    }
}
