//! Forcing chains from every candidate of every cell: Nishio, multiple (cell and region)
//! forcing chains, dynamic forcing chains and, through [`super::nested`], nested forcing
//! chains. Sudoku Explainer's `Chaining.getMultipleChainsHintList`, `doBinaryChaining`,
//! `doRegionChainings` and `doChaining`.
//!
//! [`chain`] deduces everything that follows from one assumption: "on" potentials first
//! (each implies "off" ones), then one "off" potential at a time (each may imply "on"
//! ones), until nothing is left or a potential would be both on and off (a
//! contradiction). A *dynamic* chain removes every "off" potential it processes from its
//! copy of the grid, so later cells and houses may be left with one candidate or place;
//! the removals that made it so become hidden parents of the implied potential. At a
//! nested level, when nothing is left, simpler techniques (and lower chaining levels) run
//! on the chain's grid and their removals continue the chain ([`super::nested`]).
//!
//! From each cell (in reading order) with three or more candidates, or two for the
//! dynamic levels, and each of its candidates (in digit order):
//!
//! - *contradiction* (dynamic, Nishio): the candidate on (or off) leads to a contradiction,
//!   so it is off (or on);
//! - *double* (dynamic, cells of three or more): a potential implied both by the candidate
//!   on and by it off;
//! - *region* (not Nishio): for the digit's places in each house (box, row, column; two
//!   places, or more for the multiple levels), first met at this cell: a potential implied
//!   by every place;
//! - *cell* (not Nishio; after all candidates of the cell): a potential implied by every
//!   candidate of the cell.
//!
//! The hint's complexity is the sum, over its chains, of the distinct potentials among the
//! chain's target and its ancestors (plus nested chains).

use super::nested::Nest;
use super::potentials::{
    Cands, Cause, Counter, Implied, NONE, NestedInfo, Run, cell_of, digit_of, off_to_on, on_to_off,
};
use super::{ChainLevel, Engine, Hint, Sink, rule_parents_of};
use crate::core::bitboard::CellSet;
use crate::core::index::{Cell, Digit};
use crate::core::logic::{Budget, Technique, Tenths, length_bonus};

/// Runs in an [`Engine`]: nine for the candidates of a cell, one for the "off"
/// assumption, nine for the places of a house.
pub(crate) const RUNS: usize = 19;
const OFF_RUN: usize = 9;

/// How a chain links potentials.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    /// Y-links (naked single rule); off for Nishio.
    pub y: bool,
    /// Dynamic: processed "off" potentials leave the chain's grid.
    pub dynamic: bool,
    /// Nesting level (0: none).
    pub level: u8,
}

/// One of SE's `Chaining(multiple, dynamic, nishio, level)` producers (all but the first
/// level).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    pub multiple: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
    pub base: Tenths,
    cell_technique: Technique,
    region_technique: Technique,
    binary_technique: Technique,
}

impl Spec {
    /// The producer of a chaining level (none for the first level, see [`super::cycles`]).
    pub(crate) fn of(level: ChainLevel) -> Option<Spec> {
        let all = |t: Technique, multiple, dynamic, nishio, level: u8| Spec {
            multiple,
            dynamic,
            nishio,
            level,
            base: t.base_rating(),
            cell_technique: t,
            region_technique: t,
            binary_technique: t,
        };
        Some(match level {
            ChainLevel::Cycles => return None,
            ChainLevel::Nishio => all(Technique::NishioForcingChain, false, true, true, 0),
            ChainLevel::Multiple => Spec {
                region_technique: Technique::RegionForcingChain,
                ..all(Technique::CellForcingChain, true, false, false, 0)
            },
            ChainLevel::Dynamic => all(Technique::DynamicForcingChain, true, true, false, 0),
            ChainLevel::Nested(1) => all(Technique::DynamicForcingChainPlus, true, true, false, 1),
            ChainLevel::Nested(2) => all(Technique::NestedForcingChain2, true, true, false, 2),
            ChainLevel::Nested(3) => all(Technique::NestedForcingChain3, true, true, false, 3),
            ChainLevel::Nested(4) => all(Technique::NestedForcingChain4, true, true, false, 4),
            ChainLevel::Nested(_) => return None,
        })
    }

    /// The dynamic level-0 producer (SE `Chaining(true, true, false, 0)`), as nested level
    /// 4 uses it.
    pub(crate) fn dynamic() -> Spec {
        Spec::of(ChainLevel::Dynamic).unwrap_or(Spec {
            multiple: true,
            dynamic: true,
            nishio: false,
            level: 0,
            base: 85,
            cell_technique: Technique::DynamicForcingChain,
            region_technique: Technique::DynamicForcingChain,
            binary_technique: Technique::DynamicForcingChain,
        })
    }

    /// The static multiple producer (SE `Chaining(true, false, false, 0)`), as nested level
    /// 3 uses it.
    pub(crate) fn multiple() -> Spec {
        Spec {
            multiple: true,
            dynamic: false,
            nishio: false,
            level: 0,
            base: 80,
            cell_technique: Technique::CellForcingChain,
            region_technique: Technique::RegionForcingChain,
            binary_technique: Technique::CellForcingChain,
        }
    }

    fn mode(&self) -> Mode {
        Mode {
            y: !self.nishio,
            dynamic: self.dynamic,
            level: self.level,
        }
    }
}

/// SE `doChaining`: fills `run` with what follows from `start` assumed on (`start_on`) or
/// off, on grid `src`. False when the budget ran out.
pub(crate) fn chain(
    run: &mut Run,
    src: &Cands,
    mode: Mode,
    start: u16,
    start_on: bool,
    mut nest: Option<&mut Nest>,
    budget: &mut Budget,
) -> bool {
    run.reset(start, start_on);
    let mut cur = *src;
    let (mut io, mut ioff) = (0usize, 0usize);
    let mut out = [Implied::default(); 4];
    loop {
        if io < run.ons.len() {
            let p = run.ons[io];
            io += 1;
            let pc = run.nodes[p as usize].cand;
            let mut hit: Option<(u16, Cause)> = None;
            on_to_off(&cur, pc, mode.y, |q, cause| {
                if hit.is_some() {
                    return;
                }
                if run.on_idx[q as usize] != NONE {
                    hit = Some((q, cause));
                } else if run.off_idx[q as usize] == NONE {
                    run.add(q, false, cause, 0, p);
                }
            });
            if let Some((q, cause)) = hit {
                let t = run.push(q, false, cause, 0, p);
                run.contradiction = Some((run.on_idx[q as usize], t));
                break;
            }
        } else if ioff < run.offs.len() {
            let p = run.offs[ioff];
            ioff += 1;
            let pc = run.nodes[p as usize].cand;
            let n = off_to_on(&cur, src, pc, mode.y, true, &mut out);
            if mode.dynamic {
                cur.remove(pc);
            }
            let mut stop = false;
            for imp in &out[..n] {
                let (q, cause) = (imp.cand, imp.cause());
                if run.off_idx[q as usize] != NONE {
                    let t = run.push(q, true, cause, imp.hidden, p);
                    run.contradiction = Some((t, run.off_idx[q as usize]));
                    stop = true;
                    break;
                }
                if run.on_idx[q as usize] == NONE {
                    run.add(q, true, cause, imp.hidden, p);
                }
            }
            if stop {
                break;
            }
        } else if mode.level > 0 {
            let Some(nest) = nest.as_deref_mut() else {
                break;
            };
            match super::nested::advanced(run, &cur, src, mode.level, nest, budget) {
                None => return false,
                Some(0) => break,
                Some(_) => {}
            }
        } else {
            break;
        }
    }
    budget.charge(run.nodes.len() as u64 / 2 + 2)
}

/// The chains of one hint: the runs and their target nodes.
type Parts<'a> = [(&'a Run, u32)];

/// The complexity of a hint made of `parts` if it is at most `limit` (SE `getComplexity`).
fn complexity(
    counter: &mut Counter,
    table: &[NestedInfo],
    parts: &Parts<'_>,
    limit: u32,
) -> Option<u32> {
    let lb: u32 = parts
        .iter()
        .map(|&(r, t)| u32::from(r.nodes[t as usize].lb))
        .sum();
    if lb > limit {
        return None;
    }
    counter.begin();
    let mut flat = 0u32;
    for &(r, t) in parts {
        let left = limit - flat;
        let n = counter.count(r, table, t, left);
        if n > left {
            return None;
        }
        flat += n;
    }
    let total = flat.saturating_add(counter.nested_complexity());
    (total <= limit).then_some(total)
}

/// For a nested search: the rule parents and fingerprint of a hint made of `parts`;
/// `root` is the cause given to the assumptions (cell and region hints rely on the cell
/// or house they start from).
fn nested_parents(
    counter: &mut Counter,
    ctx: &Cands,
    cur: &Cands,
    parts: &Parts<'_>,
    root: Cause,
    hint: &mut Hint,
) {
    let mut sig = 0x0f0f_u64;
    for &(r, t) in parts {
        let mut acc = 0u64;
        counter.walk(r, t, |n| {
            acc = acc.wrapping_add(super::cycles::mix(
                1,
                u64::from(n.cand) << 1 | u64::from(n.on),
            ));
            if n.on {
                let cause = if n.cause == Cause::Assumption {
                    root
                } else {
                    n.cause
                };
                rule_parents_of(ctx, cur, n.cand, cause, &mut hint.parents);
            }
        });
        sig = super::cycles::mix(sig, acc);
    }
    hint.sig = sig;
}

/// Builds the hint of `technique` whose result is potential `target` (on: the digit is
/// placed and the cell's other candidates go; off: the candidate goes), made of `parts`,
/// and offers it if worth it and good enough.
#[allow(clippy::too_many_arguments)]
fn offer(
    src: &Cands,
    spec: &Spec,
    technique: Technique,
    sort_key: u8,
    target: (u16, bool),
    parts: &Parts<'_>,
    root: Cause,
    counter: &mut Counter,
    table: &[NestedInfo],
    sink: &mut Sink,
) {
    let (cand, on) = target;
    let (c, d) = (cell_of(cand), digit_of(cand));
    let cell = Cell::new(c as u8);
    let mut hint = Hint::new(technique, spec.base, 0, sort_key);
    if on {
        for e in src.cells[c] {
            if e.index() != d {
                hint.removals[e.index()].insert(cell);
            }
        }
        if !hint.is_worth() {
            return;
        }
        hint.placement = Some((cell, Digit::from_index(d)));
    } else {
        hint.remove_cand(cand);
    }
    let limit = sink.limit(spec.base, sort_key);
    let Some(cx) = complexity(counter, table, parts, limit) else {
        return;
    };
    hint.complexity = cx;
    hint.difficulty = spec.base + length_bonus(cx.saturating_sub(2));
    if !sink.wants(hint.difficulty, cx, sort_key) {
        return;
    }
    for &(r, t) in parts {
        let n = &r.nodes[t as usize];
        hint.cells.insert(Cell::new(cell_of(n.cand) as u8));
        hint.digits.insert(Digit::from_index(digit_of(n.cand)));
    }
    hint.cells.insert(cell);
    if let Some(ctx) = sink.context() {
        let ctx = *ctx;
        nested_parents(counter, &ctx, src, parts, root, &mut hint);
    }
    sink.offer(&hint);
}

/// Runs one chaining producer of the multiple/dynamic family on `src` and offers every
/// hint to `sink`. False when the budget ran out.
pub(crate) fn search(
    src: &Cands,
    spec: Spec,
    eng: &mut Engine,
    mut nest: Option<&mut Nest>,
    sink: &mut Sink,
    budget: &mut Budget,
) -> bool {
    let mode = spec.mode();
    let Engine { runs, counter, .. } = eng;
    let (value_runs, rest) = runs.split_at_mut(OFF_RUN);
    let (off_run, region_runs) = rest.split_at_mut(1);
    let off_run = &mut off_run[0];
    let empty_table: [NestedInfo; 0] = [];
    for c in 0..81usize {
        let cs = src.cells[c];
        let card = cs.len();
        if !(card > 2 || (card > 1 && spec.dynamic)) {
            continue;
        }
        for (vi, v) in cs.iter().enumerate() {
            let start = (c * 9 + v.index()) as u16;
            if !chain(
                &mut value_runs[vi],
                src,
                mode,
                start,
                true,
                nest.as_deref_mut(),
                budget,
            ) {
                return false;
            }
            if spec.dynamic
                && !chain(
                    off_run,
                    src,
                    mode,
                    start,
                    false,
                    nest.as_deref_mut(),
                    budget,
                )
            {
                return false;
            }
            let table: &[NestedInfo] = match nest.as_deref() {
                Some(n) => &n.table,
                None => &empty_table,
            };
            let on_run = &value_runs[vi];
            if spec.dynamic {
                // Contradictions (SE sort key 7).
                if let Some((a, b)) = on_run.contradiction {
                    let parts = [(on_run, a), (on_run, b)];
                    offer(
                        src,
                        &spec,
                        spec.binary_technique,
                        7,
                        (start, false),
                        &parts,
                        Cause::Assumption,
                        counter,
                        table,
                        sink,
                    );
                }
                if let Some((a, b)) = off_run.contradiction {
                    let parts = [(&*off_run, a), (&*off_run, b)];
                    offer(
                        src,
                        &spec,
                        spec.binary_technique,
                        7,
                        (start, true),
                        &parts,
                        Cause::Assumption,
                        counter,
                        table,
                        sink,
                    );
                }
            }
            if card >= 3 && spec.dynamic && !spec.nishio && sink.limit(spec.base, 1) >= 2 {
                // Double forcing chains (sort key 1).
                for &i in &on_run.ons {
                    let q = on_run.nodes[i as usize].cand;
                    let j = off_run.on_idx[q as usize];
                    if j != NONE {
                        let parts = [(on_run, i), (&*off_run, j)];
                        offer(
                            src,
                            &spec,
                            spec.binary_technique,
                            1,
                            (q, true),
                            &parts,
                            Cause::Assumption,
                            counter,
                            table,
                            sink,
                        );
                    }
                }
                for &i in &on_run.offs {
                    let q = on_run.nodes[i as usize].cand;
                    let j = off_run.off_idx[q as usize];
                    if j != NONE {
                        let parts = [(on_run, i), (&*off_run, j)];
                        offer(
                            src,
                            &spec,
                            spec.binary_technique,
                            1,
                            (q, false),
                            &parts,
                            Cause::Assumption,
                            counter,
                            table,
                            sink,
                        );
                    }
                }
            }
            if !spec.nishio {
                let ok = regions(
                    src,
                    &spec,
                    mode,
                    c,
                    v,
                    vi,
                    value_runs,
                    region_runs,
                    counter,
                    nest.as_deref_mut(),
                    sink,
                    budget,
                );
                if !ok {
                    return false;
                }
            }
        }
        if !spec.nishio
            && (card == 2 || (spec.multiple && card > 2))
            && sink.limit(spec.base, 5) >= card
        {
            // Cell forcing chains (sort key 5).
            let table: &[NestedInfo] = match nest.as_deref() {
                Some(n) => &n.table,
                None => &empty_table,
            };
            let k = card as usize;
            let mut on_int = value_runs[0].on_bits;
            let mut off_int = value_runs[0].off_bits;
            for r in &value_runs[1..k] {
                on_int.and_with(&r.on_bits);
                off_int.and_with(&r.off_bits);
            }
            for (bits, on) in [(on_int, true), (off_int, false)] {
                if bits.is_empty() {
                    continue;
                }
                let order = if on {
                    &value_runs[0].ons
                } else {
                    &value_runs[0].offs
                };
                for &i in order {
                    let q = value_runs[0].nodes[i as usize].cand;
                    if !bits.has(q) {
                        continue;
                    }
                    let mut parts: [(&Run, u32); 9] = [(&value_runs[0], 0); 9];
                    for (m, r) in value_runs[..k].iter().enumerate() {
                        let idx = if on {
                            r.on_idx[q as usize]
                        } else {
                            r.off_idx[q as usize]
                        };
                        parts[m] = (r, idx);
                    }
                    offer(
                        src,
                        &spec,
                        spec.cell_technique,
                        5,
                        (q, on),
                        &parts[..k],
                        Cause::Cell,
                        counter,
                        table,
                        sink,
                    );
                }
            }
        }
    }
    true
}

/// SE `doRegionChainings` for candidate `v` of cell `c` (its chain is `value_runs[vi]`).
#[allow(clippy::too_many_arguments)]
fn regions(
    src: &Cands,
    spec: &Spec,
    mode: Mode,
    c: usize,
    v: Digit,
    vi: usize,
    value_runs: &[Run],
    region_runs: &mut [Run],
    counter: &mut Counter,
    mut nest: Option<&mut Nest>,
    sink: &mut Sink,
    budget: &mut Budget,
) -> bool {
    let d = v.index();
    let me = Cell::new(c as u8);
    for (k, cause) in Cause::REGIONS.iter().enumerate() {
        let h = super::CELL_HOUSES[c][k];
        let pos: CellSet = src.planes[d] & h;
        let n = pos.len();
        if !(n == 2 || (spec.multiple && n > 2)) || pos.first() != Some(me) {
            continue;
        }
        if sink.limit(spec.base, 6) < n {
            continue;
        }
        // Chains from the digit's other places in the house.
        let mut m = 0;
        for x in pos {
            if x == me {
                continue;
            }
            let start = (x.index() * 9 + d) as u16;
            if !chain(
                &mut region_runs[m],
                src,
                mode,
                start,
                true,
                nest.as_deref_mut(),
                budget,
            ) {
                return false;
            }
            m += 1;
        }
        let on_run = &value_runs[vi];
        let mut on_int = on_run.on_bits;
        let mut off_int = on_run.off_bits;
        for r in &region_runs[..m] {
            on_int.and_with(&r.on_bits);
            off_int.and_with(&r.off_bits);
        }
        let empty_table: [NestedInfo; 0] = [];
        let table: &[NestedInfo] = match nest.as_deref() {
            Some(n) => &n.table,
            None => &empty_table,
        };
        for (bits, on) in [(on_int, true), (off_int, false)] {
            if bits.is_empty() {
                continue;
            }
            let order = if on { &on_run.ons } else { &on_run.offs };
            for &i in order {
                let q = on_run.nodes[i as usize].cand;
                if !bits.has(q) {
                    continue;
                }
                // Chains in the order of the house's places (ours is the first).
                let mut parts: [(&Run, u32); 9] = [(on_run, i); 9];
                for (j, r) in region_runs[..m].iter().enumerate() {
                    let idx = if on {
                        r.on_idx[q as usize]
                    } else {
                        r.off_idx[q as usize]
                    };
                    parts[j + 1] = (r, idx);
                }
                offer(
                    src,
                    spec,
                    spec.region_technique,
                    6,
                    (q, on),
                    &parts[..m + 1],
                    *cause,
                    counter,
                    table,
                    sink,
                );
            }
        }
    }
    true
}
