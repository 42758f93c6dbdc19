//! Pictures of solving steps, for `explain --format svg|html`: the candidate grid before
//! the step, what the step uses highlighted, what it removes struck, what it places
//! marked, and a chain's links drawn as arrows. Plain data in ([`StepView`]), SVG out.
//!
//! ```text
//!  ┌───────────────────────────────┐
//!  │ caption (the step's text)     │
//!  │ ┌─────┬─────┬─────┐           │  solved cell: its digit (givens black, placed
//!  │ │ 1 3 │  7  │ 1·· │           │  earlier dark blue); open cell: its candidates
//!  │ │  5  │     │ ··9 │           │  as a 3x3 block of small digits
//!  │ └─────┴─────┴─────┘           │
//!  │ highlight: pattern cells pale yellow; pattern candidates blue discs;
//!  │ chain "on" candidates green, "off" candidates orange discs; links as arrows
//!  │ (solid: the target follows strongly; dashed: weakly); eliminated candidates red,
//!  │ struck through; the placed digit green and ringed, in a green cell
//!  └───────────────────────────────┘
//! ```

use super::draw::GIVEN;
use super::shape::{GridLines, NO_CELL, ShapeDesc};
use super::svg::SvgCanvas;

/// A candidate: a cell index (into the shape's cells) and a digit 1-9.
pub type Cand = (u16, u8);

/// A link of a chain drawn as an arrow from one candidate to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where the arrow starts.
    pub from: Cand,
    /// Where it points.
    pub to: Cand,
    /// True for a strong inference (`from` off, so `to` on): a solid arrow; false for a
    /// weak one (`from` on, so `to` off): dashed.
    pub strong: bool,
}

/// What one step's picture shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepView<'a> {
    /// The line above the grid.
    pub caption: &'a str,
    /// Cell values before the step: 0 open, a digit (with [`GIVEN`] for givens).
    pub values: &'a [u8],
    /// Candidates of each open cell before the step: bit `d - 1` for digit `d`.
    pub candidates: &'a [u16],
    /// The pattern's cells (shaded).
    pub cells: &'a [u16],
    /// The pattern's candidates (blue discs).
    pub pattern: &'a [Cand],
    /// Candidates a chain assumes or finds true (green discs).
    pub on: &'a [Cand],
    /// Candidates a chain finds false (orange discs).
    pub off: &'a [Cand],
    /// The chain links (arrows).
    pub links: &'a [Link],
    /// Candidates the step removes (red, struck).
    pub eliminated: &'a [Cand],
    /// The digit the step places.
    pub placed: Option<Cand>,
}

/// Side of a cell, in picture units.
const CELL: f32 = 48.0;
/// Margin around the grid.
const MARGIN: f32 = 14.0;
/// Height of the caption band.
const CAPTION: f32 = 30.0;

const PATTERN_CELL: &str = "#fff2b3";
const PLACED_CELL: &str = "#c8ebc8";
const PATTERN_DISC: &str = "#9cc3f5";
const ON_DISC: &str = "#8fdc8f";
const OFF_DISC: &str = "#ffc48a";
const ELIMINATED: &str = "#d32f2f";
const PLACED: &str = "#1b7a1b";
const FILLED: &str = "#1f3f8f";
const LINK: &str = "#3a3aa8";

/// The size of a step picture of `desc`.
pub fn picture_size(desc: &ShapeDesc) -> (f32, f32) {
    let grid = desc.side() as f32 * CELL;
    (grid + 2.0 * MARGIN, grid + 2.0 * MARGIN + CAPTION)
}

/// Draws one step (the SVG document's bytes).
pub fn draw_step(desc: &ShapeDesc, lines: &GridLines, view: &StepView<'_>) -> Vec<u8> {
    let (w, h) = picture_size(desc);
    let mut c = SvgCanvas::new(
        super::draw::PageSize {
            width: w,
            height: h,
        },
        false,
    );
    c.define_arrow(LINK);
    let (x0, y0) = (MARGIN, MARGIN + CAPTION);
    let at = |cell: u16| desc.position(cell).map(|(r, col)| (r as f32, col as f32));
    // The centre of a candidate's small digit.
    let cand_xy = |(cell, d): Cand| {
        at(cell).map(|(r, col)| {
            let k = f32::from(d.clamp(1, 9) - 1);
            let (sub_r, sub_c) = ((k / 3.0).floor(), k % 3.0);
            (
                x0 + col * CELL + (sub_c + 0.5) * CELL / 3.0,
                y0 + r * CELL + (sub_r + 0.5) * CELL / 3.0,
            )
        })
    };
    c.text_colour(
        MARGIN,
        MARGIN + 16.0,
        15.0,
        false,
        "#000",
        false,
        view.caption,
    );

    // Shading: the shape's own (windows, diagonals), then the pattern's and the placed cell.
    for s in desc.shades() {
        c.rect_colour(
            x0 + f32::from(s.col) * CELL,
            y0 + f32::from(s.row) * CELL,
            f32::from(s.width) * CELL,
            f32::from(s.height) * CELL,
            "#e4e4e4",
        );
    }
    for &cell in view.cells {
        if let Some((r, col)) = at(cell) {
            c.rect_colour(x0 + col * CELL, y0 + r * CELL, CELL, CELL, PATTERN_CELL);
        }
    }
    if let Some((cell, _)) = view.placed
        && let Some((r, col)) = at(cell)
    {
        c.rect_colour(x0 + col * CELL, y0 + r * CELL, CELL, CELL, PLACED_CELL);
    }
    super::draw::draw_lines(&mut c, lines, x0, y0, CELL);

    // Discs under the candidates the step or its chain uses.
    let disc = CELL / 7.0;
    for (set, colour) in [
        (view.pattern, PATTERN_DISC),
        (view.off, OFF_DISC),
        (view.on, ON_DISC),
    ] {
        for &cand in set {
            if let Some((x, y)) = cand_xy(cand) {
                c.circle(x, y, disc, colour, None);
            }
        }
    }

    // Digits and candidates.
    let small = CELL * 0.27;
    let big = CELL * 0.62;
    for row in 0..desc.side() {
        for col in 0..desc.side() {
            let cell = desc.cell_at(row, col);
            if cell == NO_CELL {
                continue;
            }
            let i = usize::from(cell);
            let (cx, cy) = (
                x0 + (col as f32 + 0.5) * CELL,
                y0 + (row as f32 + 0.5) * CELL,
            );
            let v = view.values.get(i).copied().unwrap_or(0);
            if v & 0x0f != 0 {
                let colour = if v & GIVEN != 0 { "#000" } else { FILLED };
                let digit = [b'0' + (v & 0x0f)];
                c.text_colour(
                    cx,
                    cy + 0.35 * big,
                    big,
                    v & GIVEN != 0,
                    colour,
                    true,
                    std::str::from_utf8(&digit).unwrap_or("?"),
                );
                continue;
            }
            let cands = view.candidates.get(i).copied().unwrap_or(0);
            for d in 1..=9u8 {
                if cands & (1 << (d - 1)) == 0 {
                    continue;
                }
                let Some((x, y)) = cand_xy((cell, d)) else {
                    continue;
                };
                let gone = view.eliminated.contains(&(cell, d));
                let placed = view.placed == Some((cell, d));
                let colour = match (gone, placed) {
                    (true, _) => ELIMINATED,
                    (_, true) => PLACED,
                    _ => "#333",
                };
                if placed {
                    c.circle(x, y, disc, PLACED_CELL, Some(PLACED));
                }
                let digit = [b'0' + d];
                c.text_colour(
                    x,
                    y + 0.35 * small,
                    small,
                    gone || placed,
                    colour,
                    true,
                    std::str::from_utf8(&digit).unwrap_or("?"),
                );
                if gone {
                    let s = small * 0.45;
                    c.line([x - s, y + s, x + s, y - s], ELIMINATED, 1.6);
                }
            }
        }
    }

    // Links: a gentle curve from candidate to candidate, stopping short of both discs.
    for l in view.links {
        let (Some(a), Some(b)) = (cand_xy(l.from), cand_xy(l.to)) else {
            continue;
        };
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            continue;
        }
        let (ux, uy) = (dx / len, dy / len);
        let from = (a.0 + ux * disc, a.1 + uy * disc);
        let to = (b.0 - ux * (disc + 1.0), b.1 - uy * (disc + 1.0));
        let bend = (len * 0.12).min(CELL * 0.6);
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        let control = (mid.0 - uy * bend, mid.1 + ux * bend);
        c.curve(from, control, to, LINK, 1.6, !l.strong, true);
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::Shape;

    #[test]
    fn a_step_picture_is_svg_with_its_candidates_struck_and_arrows() {
        let desc = ShapeDesc::new(Shape::Classic);
        let lines = GridLines::of(&desc);
        let mut values = [0u8; 81];
        values[0] = 5 | GIVEN;
        values[1] = 3;
        let candidates = [0b1_1000_1011u16; 81];
        let eliminated = [(10, 2)];
        let links = [
            Link {
                from: (2, 1),
                to: (20, 1),
                strong: true,
            },
            Link {
                from: (20, 1),
                to: (20, 9),
                strong: false,
            },
        ];
        let view = StepView {
            caption: "X-chain <test>",
            values: &values,
            candidates: &candidates,
            cells: &[2, 20],
            on: &[(2, 1)],
            off: &[(20, 1)],
            links: &links,
            eliminated: &eliminated,
            placed: Some((80, 4)),
            ..StepView::default()
        };
        let svg = String::from_utf8(draw_step(&desc, &lines, &view)).unwrap();
        assert!(svg.contains("X-chain &lt;test&gt;"));
        // Two arrows, one dashed; one strike; the placed 4.
        assert_eq!(svg.matches("marker-end").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
        assert_eq!(svg.matches(ELIMINATED).count(), 2);
        assert!(svg.contains(&format!(
            "fill=\"{PLACED}\" font-weight=\"bold\" text-anchor=\"middle\">4<"
        )));
    }
}
