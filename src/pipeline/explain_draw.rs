//! `explain --format svg|html`: the steps replayed on a board, each turned into the plain
//! data of a picture ([`StepView`]) and drawn by [`crate::render::steps`]; the HTML page
//! gathers the pictures ([`crate::render::html`]).

use crate::core::family::Family;
use crate::core::geometry::{Geometry, Shape};
use crate::core::index::Cell;
use crate::core::logic::chains::ChainTrace;
use crate::core::logic::{Board, Step};
use crate::render::draw::GIVEN;
use crate::render::shape::{GridLines, ShapeDesc};
use crate::render::steps::{Cand, Link, StepView, draw_step};

/// One step's picture and its text.
pub(super) struct Picture {
    /// "3. [2.6] Pointing in box 4: r5c1<>7".
    pub text: String,
    /// Further lines: the chain written out, when the step is a chain.
    pub detail: Vec<String>,
    /// The SVG document.
    pub svg: Vec<u8>,
}

/// What a chain adds to a step's picture and text.
#[derive(Clone, Debug, Default)]
pub(super) struct ChainDrawing {
    /// Candidates found true along the chains.
    pub on: Vec<Cand>,
    /// Candidates found false along the chains.
    pub off: Vec<Cand>,
    /// The links, as arrows.
    pub links: Vec<Link>,
    /// The chains written out, one line each (nested chains indented).
    pub lines: Vec<String>,
}

/// What `trace` adds to its step's picture: its potentials on and off, every link as an
/// arrow (solid from an "off" potential, which makes its successor true; dashed from an
/// "on" one), and its lines of text.
pub(super) fn drawing<F: Family>(geo: &Geometry<F>, trace: &ChainTrace) -> ChainDrawing {
    let mut d = ChainDrawing {
        lines: trace.lines(geo),
        ..ChainDrawing::default()
    };
    for c in &trace.chains {
        for p in &c.potentials {
            let x = cand(p.cell, p.digit.get());
            let list = if p.on { &mut d.on } else { &mut d.off };
            if !list.contains(&x) {
                list.push(x);
            }
        }
        for (a, b) in c.links() {
            let (pa, pb) = (&c.potentials[a as usize], &c.potentials[b as usize]);
            let link = Link {
                from: cand(pa.cell, pa.digit.get()),
                to: cand(pb.cell, pb.digit.get()),
                strong: !pa.on,
            };
            if link.from != link.to && !d.links.contains(&link) {
                d.links.push(link);
            }
        }
    }
    d
}

fn cand(cell: Cell, digit: u8) -> Cand {
    (cell.index() as u16, digit)
}

/// The pictures of `steps`, replayed from the givens `values` (Jigsaw: `regions`, `1`-`9`
/// per cell). `chain(i, board)` gives what step `i`'s chain adds, if anything.
pub(super) fn pictures<F: Family>(
    geo: &Geometry<F>,
    values: &F::Cells<u8>,
    regions: &[u8],
    steps: &[Step<F>],
    mut chain: impl FnMut(usize, &Board<F>) -> Option<ChainDrawing>,
) -> Vec<Picture> {
    let mut desc = ShapeDesc::new(geo.shape());
    if geo.shape() == Shape::Jigsaw && regions.len() >= 81 {
        let r: [u8; 81] = std::array::from_fn(|i| regions[i].wrapping_sub(b'1'));
        desc.set_regions(&r);
    }
    let lines = GridLines::of(&desc);
    let givens: Vec<bool> = values.as_ref().iter().map(|&v| v != 0).collect();
    let mut board = Board::from_values(geo, values);
    let width = steps.len().to_string().len();
    let mut out = Vec::with_capacity(steps.len());
    let (mut shown, mut cands) = (Vec::new(), Vec::new());
    for (i, s) in steps.iter().enumerate() {
        shown.clear();
        cands.clear();
        for (k, &v) in board.values().as_ref().iter().enumerate() {
            shown.push(if v != 0 && givens[k] { v | GIVEN } else { v });
            cands.push(if v != 0 {
                0
            } else {
                board.candidates(Cell::from_index(k)).bits()
            });
        }
        let cells: Vec<u16> = s.cells.into_iter().map(|c| c.index() as u16).collect();
        let pattern: Vec<Cand> = s
            .cells
            .into_iter()
            .flat_map(|c| s.digits.iter().map(move |d| (c, d)))
            .filter(|&(c, d)| board.has(c, d))
            .map(|(c, d)| cand(c, d.get()))
            .collect();
        let eliminated: Vec<Cand> = s.eliminated().map(|(c, d)| cand(c, d.get())).collect();
        let placed = s.placement.map(|(c, d)| cand(c, d.get()));
        let drawn = chain(i, &board).unwrap_or_default();
        let text = format!(
            "{:>width$}. [{}.{}] {}",
            i + 1,
            s.difficulty / 10,
            s.difficulty % 10,
            s.display(geo)
        );
        let view = StepView {
            caption: &text,
            values: &shown,
            candidates: &cands,
            cells: &cells,
            pattern: &pattern,
            on: &drawn.on,
            off: &drawn.off,
            links: &drawn.links,
            eliminated: &eliminated,
            placed,
        };
        let svg = draw_step(&desc, &lines, &view);
        out.push(Picture {
            text: text.trim_start().to_string(),
            detail: drawn.lines,
            svg,
        });
        board.apply(geo, s);
    }
    out
}
