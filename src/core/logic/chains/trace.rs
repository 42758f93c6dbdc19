//! Chains written out: the potentials of a chaining step, with the links between them, as
//! plain data ([`ChainTrace`]) that `explain` prints (text and JSON) and draws (arrows).
//!
//! The grader never builds a trace: it keeps only a hint's rating and removals. `explain`
//! asks for one with [`super::trace`], which runs the step's chaining level again on the
//! same grid with tracing switched on; the search is the same, so it keeps the same hint,
//! and tracing only records, for each hint it keeps, the potentials the hint's chains are
//! made of. Rendering allocates (strings, vectors); it is not on the rating path.
//!
//! # Notation
//!
//! A potential is written as a placement or an elimination: `r4c3=7` (7 is in r4c3, "on")
//! and `r4c3<>7` (it is not, "off"). A chain is written from its assumption to its
//! conclusion, each potential implied by the one before it: `r4c3=7 -> r4c5<>7 ->
//! r6c5=7`. A potential that needed more than its predecessor (a dynamic chain's earlier
//! removals, the candidates a nested technique relied on) is followed, on the lines below
//! and indented, by how each of those further parents was reached. A removal made by a
//! nested technique names it; a nested chaining hint is written out once, indented under
//! the first potential that uses it.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::super::{Budget, Technique, Tenths};
use super::nested::{self, Inner};
use super::potentials::{Cands, Cause, NONE, Node, Run, cell_of, digit_of};
use super::{Engine, Sink};
use crate::core::geometry::{Geometry, Size};
use crate::core::index::{Cell, Digit};

/// Why a potential of a chain holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// It is the assumption the chain starts from.
    Assumption,
    /// The cell's other candidates (naked single rule; for an "off" potential, the cell
    /// holds its parent's digit).
    Cell,
    /// The digit's places in the house with this id (hidden single rule; for an "off"
    /// potential, the house holds the digit at its parent's cell).
    House(u8),
    /// Removed by a simple technique applied on the chain's grid (nested chains).
    Technique(Technique),
    /// Removed by the nested chaining hint with this index in [`ChainTrace::nested`].
    Nested(u32),
}

/// One potential of a traced chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Potential {
    /// Its cell.
    pub cell: Cell,
    /// Its digit.
    pub digit: Digit,
    /// True when the digit is in the cell ("on"), false when it is not ("off").
    pub on: bool,
    /// Why it holds.
    pub via: Via,
    /// The potentials it was deduced from, as indices into the chain (always earlier); the
    /// first is the one it directly follows.
    pub parents: Vec<u32>,
}

/// One chain of a hint: its potentials, each after its parents, the conclusion last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TracedChain {
    /// The potentials.
    pub potentials: Vec<Potential>,
}

/// What a hint's chains show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// A bidirectional cycle: one chain that comes back to its start.
    Cycle,
    /// A forcing chain: one chain from an assumption to its own negation.
    Forcing,
    /// Two chains from one assumption to a candidate both on and off: the assumption is
    /// false.
    Contradiction,
    /// Two chains, from a candidate on and from it off, to the same conclusion.
    Double,
    /// One chain per candidate of a cell, each to the same conclusion.
    Cell,
    /// One chain per place of a digit in the house with this id, each to the same
    /// conclusion.
    Region(u8),
}

/// A nested chaining hint that a chain used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedChain {
    /// Its technique.
    pub technique: Technique,
    /// Its rating in tenths.
    pub rating: Tenths,
    /// Its chains.
    pub trace: ChainTrace,
    /// Until its chains are found ([`resolve`]): where to look for them.
    pub(crate) pending: Option<Pending>,
}

/// Where a nested hint was found: the grid, the nested search, and the hint's fingerprint.
/// Tracing every hint of every nested search would cost more than the search; the chains
/// of the few a step uses are found again afterwards instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    /// The grid's candidates (see `Cands::list`).
    pub grid: Vec<u16>,
    /// The nested search (`nested::Inner` as a number).
    pub kind: u8,
    /// The hint's fingerprint (SE `FullChain`).
    pub sig: u64,
    /// The hint's place among those the search collects (it collects them in the same
    /// order every time).
    pub index: u32,
}

impl NestedChain {
    /// A nested hint whose chains are still to be found.
    pub(crate) fn pending(technique: Technique, rating: Tenths, p: Pending) -> NestedChain {
        NestedChain {
            technique,
            rating,
            trace: ChainTrace {
                kind: TraceKind::Forcing,
                chains: Vec::new(),
                nested: Vec::new(),
            },
            pending: Some(p),
        }
    }
}

/// Finds the chains of the nested hints of `t` still pending: runs each one's nested
/// search again on its grid, tracing, and takes the chains of the hint with its
/// fingerprint. `src` is the grid of the step (the outer chains' start).
pub(crate) fn resolve<S: Size>(g: &Geometry<S>, src: &Cands<S>, t: &mut ChainTrace) {
    let mut eng: Option<Box<(Engine<S>, Sink<S>)>> = None;
    for n in &mut t.nested {
        let Some(p) = n.pending.take() else { continue };
        let work = eng.get_or_insert_with(|| {
            let mut sink = Sink::new();
            sink.tracing = true;
            Box::new((Engine::new(), sink))
        });
        let (e, sink) = &mut **work;
        let cur = Cands::from_list(g, &p.grid);
        let mut budget = Budget::UNLIMITED;
        if !nested::inner_search(
            g,
            &cur,
            src,
            Inner::from_u8(p.kind),
            e,
            sink,
            None,
            None,
            &mut budget,
        ) {
            continue;
        }
        let k = p.index as usize;
        if sink.all.get(k).is_some_and(|h| h.sig == p.sig)
            && let Some(found) = sink.traces.get(k)
        {
            n.trace = found.clone();
        }
    }
}

/// The chains of one chaining step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainTrace {
    /// What the chains show.
    pub kind: TraceKind,
    /// The chains, in the order SE gives them.
    pub chains: Vec<TracedChain>,
    /// The nested chaining hints the chains used (see [`Via::Nested`]).
    pub nested: Vec<NestedChain>,
}

/// Collects a hint's chains from the runs of a forcing chain search; `inner` holds the
/// traces of the nested hints of the search (by their table index), when traced.
pub(crate) struct Builder<'a> {
    inner: &'a [NestedChain],
    nested: Vec<NestedChain>,
    /// Table index of a nested hint -> its index in `nested`.
    seen: HashMap<u32, u32>,
    chains: Vec<TracedChain>,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(inner: &'a [NestedChain]) -> Builder<'a> {
        Builder {
            inner,
            nested: Vec::new(),
            seen: HashMap::new(),
            chains: Vec::new(),
        }
    }

    /// Adds the chain ending at node `target` of `run`.
    pub(crate) fn run_chain<S: Size>(&mut self, g: &Geometry<S>, run: &Run<S>, target: u32) {
        // Every ancestor; nodes are created after their parents, so index order is a
        // topological order.
        let mut keep = Vec::new();
        let mut seen = vec![false; run.nodes.len()];
        let mut stack = vec![target];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i as usize], true) {
                continue;
            }
            keep.push(i);
            run.push_parents(g, i, &mut stack);
        }
        keep.sort_unstable();
        let pos: HashMap<u32, u32> = keep
            .iter()
            .enumerate()
            .map(|(k, &i)| (i, k as u32))
            .collect();
        let mut potentials = Vec::with_capacity(keep.len());
        let mut parents = Vec::new();
        for &i in &keep {
            let n = &run.nodes[i as usize];
            parents.clear();
            run.push_parents(g, i, &mut parents);
            let via = if n.cause == Cause::ADVANCED {
                let a = run.adv[n.extra as usize];
                if a.nested == NONE {
                    Via::Technique(a.technique)
                } else {
                    Via::Nested(self.nested_index(a.nested, a.technique))
                }
            } else {
                via_of(n)
            };
            potentials.push(potential(
                n,
                via,
                parents.iter().filter_map(|p| pos.get(p).copied()).collect(),
            ));
        }
        self.chains.push(TracedChain { potentials });
    }

    fn nested_index(&mut self, table: u32, technique: Technique) -> u32 {
        if let Some(&k) = self.seen.get(&table) {
            return k;
        }
        let k = self.nested.len() as u32;
        let chain = self
            .inner
            .get(table as usize)
            .cloned()
            .unwrap_or(NestedChain {
                technique,
                rating: technique.base_rating(),
                trace: ChainTrace {
                    kind: TraceKind::Forcing,
                    chains: Vec::new(),
                    nested: Vec::new(),
                },
                pending: None,
            });
        self.nested.push(chain);
        self.seen.insert(table, k);
        k
    }

    pub(crate) fn finish(self, kind: TraceKind) -> ChainTrace {
        ChainTrace {
            kind,
            chains: self.chains,
            nested: self.nested,
        }
    }
}

/// The trace kind of a forcing chain hint with SE's sort key `key`; `root` is the cause
/// given to its assumptions.
pub(crate) fn kind_of(key: u8, root: Cause) -> TraceKind {
    match key {
        7 => TraceKind::Contradiction,
        1 => TraceKind::Double,
        6 => TraceKind::Region(root.house().unwrap_or(0) as u8),
        _ => TraceKind::Cell,
    }
}

fn via_of(n: &Node) -> Via {
    match n.cause.house() {
        _ if n.cause == Cause::ASSUMPTION => Via::Assumption,
        _ if n.cause == Cause::CELL => Via::Cell,
        Some(h) => Via::House(h as u8),
        None => Via::Assumption,
    }
}

fn potential(n: &Node, via: Via, parents: Vec<u32>) -> Potential {
    Potential {
        cell: Cell::from_index(cell_of(n.cand)),
        digit: Digit::from_index(digit_of(n.cand)),
        on: n.on,
        via,
        parents,
    }
}

/// A chain that is a simple path, from its first potential (the assumption) to the last;
/// each step is `(candidate, on, cause)`.
pub(crate) fn path(steps: impl IntoIterator<Item = (u16, bool, Cause)>) -> TracedChain {
    let mut potentials: Vec<Potential> = Vec::new();
    for (cand, on, cause) in steps {
        let k = potentials.len() as u32;
        let node = Node {
            cand,
            on,
            cause,
            hidden: 0,
            lb: 0,
            parent: NONE,
            extra: NONE,
        };
        let via = if k == 0 {
            Via::Assumption
        } else {
            via_of(&node)
        };
        let parents = if k == 0 { Vec::new() } else { vec![k - 1] };
        potentials.push(potential(&node, via, parents));
    }
    TracedChain { potentials }
}

impl Potential {
    /// `r4c3=7` or `r4c3<>7`.
    pub fn name<S: Size>(&self, g: &Geometry<S>) -> String {
        let op = if self.on { "=" } else { "<>" };
        format!("{}{op}{}", g.cell_name(self.cell), self.digit)
    }

    /// Why it holds, in words: `assumption`, `cell`, `row 4`, `Hidden pair`, `nested 1`.
    pub fn reason<S: Size>(&self, g: &Geometry<S>) -> String {
        match self.via {
            Via::Assumption => "assumption".into(),
            Via::Cell => "cell".into(),
            Via::House(h) => g.house_name(usize::from(h)).to_string(),
            Via::Technique(t) => t.name().into(),
            Via::Nested(k) => format!("nested {}", k + 1),
        }
    }

    fn advanced(&self) -> bool {
        matches!(self.via, Via::Technique(_) | Via::Nested(_))
    }
}

impl TracedChain {
    /// The chain's conclusion (its last potential).
    pub fn conclusion(&self) -> Option<&Potential> {
        self.potentials.last()
    }

    /// Its links as `(from, to)` indices: every potential to each of its parents.
    pub fn links(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.potentials
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.parents.iter().map(move |&q| (q, i as u32)))
    }
}

impl ChainTrace {
    /// The chains written out, one line each, further parents and nested chains indented
    /// (see the module documentation).
    pub fn lines<S: Size>(&self, g: &Geometry<S>) -> Vec<String> {
        let mut out = Vec::new();
        self.write(g, 0, &mut vec![false; self.nested.len()], &mut out);
        out
    }

    fn write<S: Size>(
        &self,
        g: &Geometry<S>,
        indent: usize,
        shown: &mut [bool],
        out: &mut Vec<String>,
    ) {
        let pad = "  ".repeat(indent);
        let first = self.chains.first();
        let goal = first
            .and_then(|c| c.conclusion())
            .map(|p| p.name(g))
            .unwrap_or_default();
        let start = first
            .and_then(|c| c.potentials.first())
            .map(|p| p.name(g))
            .unwrap_or_default();
        let head = match self.kind {
            TraceKind::Cycle => Some("Cycle:".to_string()),
            TraceKind::Forcing => None,
            TraceKind::Contradiction => {
                let c = first.and_then(|c| c.conclusion());
                let at = c
                    .map(|p| g.cell_name(p.cell).to_string())
                    .unwrap_or_default();
                let d = c.map(|p| p.digit.get()).unwrap_or(0);
                Some(format!("If {start}, {at} both is and is not {d}:"))
            }
            TraceKind::Double => Some(format!("{start} and its opposite both give {goal}:")),
            TraceKind::Cell => {
                let at = first
                    .and_then(|c| c.potentials.first())
                    .map(|p| g.cell_name(p.cell).to_string())
                    .unwrap_or_default();
                Some(format!("Every candidate of {at} gives {goal}:"))
            }
            TraceKind::Region(h) => {
                let d = first
                    .and_then(|c| c.potentials.first())
                    .map(|p| p.digit.get())
                    .unwrap_or(0);
                Some(format!(
                    "Every place of {d} in {} gives {goal}:",
                    g.house_name(usize::from(h))
                ))
            }
        };
        let inner = usize::from(head.is_some());
        if let Some(h) = head {
            out.push(format!("{pad}{h}"));
        }
        let many = self.chains.len() > 1;
        for (k, c) in self.chains.iter().enumerate() {
            let label = if many {
                format!("chain {}: ", k + 1)
            } else {
                "chain: ".to_string()
            };
            self.write_chain(g, c, indent + inner, &label, shown, out);
        }
    }

    fn write_chain<S: Size>(
        &self,
        g: &Geometry<S>,
        c: &TracedChain,
        indent: usize,
        label: &str,
        shown: &mut [bool],
        out: &mut Vec<String>,
    ) {
        let n = c.potentials.len();
        if n == 0 {
            return;
        }
        let mut written = vec![false; n];
        // Potentials whose further parents are still to be written, in order.
        let mut todo: Vec<(u32, usize)> = Vec::new();
        let main = walk(c, n as u32 - 1, &mut written);
        out.push(format!(
            "{}{label}{}",
            "  ".repeat(indent),
            join(g, c, &main)
        ));
        todo.extend(main.iter().map(|&i| (i, indent + 1)));
        let mut k = 0;
        while k < todo.len() {
            let (i, ind) = todo[k];
            k += 1;
            let p = &c.potentials[i as usize];
            let pad = "  ".repeat(ind);
            let extra: &[u32] = if p.advanced() {
                &p.parents
            } else {
                p.parents.get(1..).unwrap_or(&[])
            };
            if p.advanced() {
                let needs: Vec<String> = p
                    .parents
                    .iter()
                    .map(|&q| c.potentials[q as usize].name(g))
                    .collect();
                let by = match p.via {
                    Via::Nested(m) => {
                        let nc = &self.nested[m as usize];
                        format!(
                            "nested {} ({} [{}.{}])",
                            m + 1,
                            nc.technique.name(),
                            nc.rating / 10,
                            nc.rating % 10
                        )
                    }
                    _ => p.reason(g),
                };
                out.push(format!(
                    "{pad}{} by {by}, which needs {}",
                    p.name(g),
                    needs.join(", ")
                ));
                if let Via::Nested(m) = p.via {
                    let m = m as usize;
                    if !std::mem::replace(&mut shown[m], true) {
                        let mut inner_shown = vec![false; self.nested[m].trace.nested.len()];
                        let mut lines = Vec::new();
                        self.nested[m]
                            .trace
                            .write(g, 0, &mut inner_shown, &mut lines);
                        for l in lines {
                            out.push(format!("{pad}  | {l}"));
                        }
                    }
                }
            }
            for &q in extra {
                if written[q as usize] {
                    continue;
                }
                let branch = walk(c, q, &mut written);
                if branch.len() == 1 && c.potentials[q as usize].advanced() {
                    // Its own line ("... by X-wing, which needs ...") says it all.
                    todo.push((q, ind));
                    continue;
                }
                let mut line = String::new();
                let _ = write!(
                    line,
                    "{pad}{} needs {}: ",
                    p.name(g),
                    c.potentials[q as usize].name(g)
                );
                line.push_str(&join(g, c, &branch));
                out.push(line);
                todo.extend(branch.iter().map(|&b| (b, ind + 1)));
            }
        }
    }
}

/// The path that ends at `to`, followed back through first parents until the assumption,
/// a removal by a nested technique or a potential already written (included, for
/// context); marks the new ones written. Returned from its start.
fn walk(c: &TracedChain, to: u32, written: &mut [bool]) -> Vec<u32> {
    let mut path = vec![to];
    written[to as usize] = true;
    let mut i = to;
    loop {
        let p = &c.potentials[i as usize];
        if p.advanced() {
            break;
        }
        let Some(&q) = p.parents.first() else { break };
        path.push(q);
        if std::mem::replace(&mut written[q as usize], true) {
            break;
        }
        i = q;
    }
    path.reverse();
    path
}

fn join<S: Size>(g: &Geometry<S>, c: &TracedChain, path: &[u32]) -> String {
    path.iter()
        .map(|&i| c.potentials[i as usize].name(g))
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// A chain trace as plain data for JSON output.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainRecord {
    /// `cycle`, `forcing`, `contradiction`, `double`, `cell` or `region`.
    pub kind: &'static str,
    /// For `region`: the house.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub house: Option<String>,
    /// The chains.
    pub chains: Vec<Vec<PotentialRecord>>,
    /// The nested chaining hints the chains used (`via` `nested K` is the K-th).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nested: Vec<NestedRecord>,
}

/// One potential of a chain, for JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PotentialRecord {
    /// `r4c3=7` (on) or `r4c3<>7` (off).
    pub potential: String,
    /// Why it holds: `assumption`, `cell`, a house (`row 4`), a technique, `nested K`.
    pub via: String,
    /// Indices (in this chain) of the potentials it follows from, the direct one first.
    pub parents: Vec<u32>,
}

/// A nested chaining hint, for JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NestedRecord {
    /// Its technique's name.
    pub technique: &'static str,
    /// Its rating.
    pub rating: f64,
    /// Its chains.
    pub trace: ChainRecord,
}

impl ChainRecord {
    /// The record of `t`, with names from geometry `g`.
    pub fn new<S: Size>(t: &ChainTrace, g: &Geometry<S>) -> ChainRecord {
        let (kind, house) = match t.kind {
            TraceKind::Cycle => ("cycle", None),
            TraceKind::Forcing => ("forcing", None),
            TraceKind::Contradiction => ("contradiction", None),
            TraceKind::Double => ("double", None),
            TraceKind::Cell => ("cell", None),
            TraceKind::Region(h) => ("region", Some(g.house_name(usize::from(h)).to_string())),
        };
        ChainRecord {
            kind,
            house,
            chains: t
                .chains
                .iter()
                .map(|c| {
                    c.potentials
                        .iter()
                        .map(|p| PotentialRecord {
                            potential: p.name(g),
                            via: p.reason(g),
                            parents: p.parents.clone(),
                        })
                        .collect()
                })
                .collect(),
            nested: t
                .nested
                .iter()
                .map(|n| NestedRecord {
                    technique: n.technique.name(),
                    rating: f64::from(n.rating) / 10.0,
                    trace: ChainRecord::new(&n.trace, g),
                })
                .collect(),
        }
    }
}
