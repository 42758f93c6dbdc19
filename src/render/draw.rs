//! Drawing written once for SVG and PDF: a [`Canvas`] takes a few primitives (filled
//! rectangles, stroked segments, text), and [`draw_grid`], [`draw_page`] and
//! [`draw_single`] place grids, labels, titles and page numbers with them.
//!
//! Coordinates are points (1/72 inch) from the top-left corner, y growing downwards; the
//! PDF canvas flips them. Text is Helvetica (PDF's built-in font, no font file), so the
//! only metrics needed are those of the digits, all 0.556 em wide; centred text is always
//! digits, other text starts at its left edge.
//!
//! ```text
//!  page (--per-page 4)                 one grid slot
//!  ┌──────────────────────────┐        ┌───────────────────┐
//!  │ Title                    │        │ #3 · hard · ER 3.4 │  label (--label)
//!  │ ┌────────┐  ┌────────┐   │        │ ┏━━━┯━━━┯━━━┳━━━┓ │
//!  │ │ slot 1 │  │ slot 2 │   │        │ ┃ 5 │   │   ┃   ┃ │  grid: shading, thin lines,
//!  │ └────────┘  └────────┘   │        │ ┠───┼───┼───╂───┨ │  thick lines, digits
//!  │ ┌────────┐  ┌────────┐   │        │ ...               │
//!  │ │ slot 3 │  │ slot 4 │   │        └───────────────────┘
//!  │ └────────┘  └────────┘   │
//!  │            7             │  page number
//!  └──────────────────────────┘
//! ```

use super::shape::{GridLines, NO_CELL, ShapeDesc};

/// The two faces used: givens in bold, digits a solution fills in regular.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// Helvetica.
    Regular,
    /// Helvetica-Bold.
    Bold,
}

/// How text is placed horizontally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is the left edge.
    Start,
    /// `x` is the centre (the text must be digits, whose widths are known).
    Middle,
}

/// Something to draw on: an SVG document or a PDF page's content stream.
pub trait Canvas {
    /// Fills a rectangle with a gray level (0 black, 1 white).
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, gray: f32);
    /// Strokes black segments `[x0, y0, x1, y1]` of one width; square caps close the
    /// corners of thick outlines, butt caps keep thin lines inside the grid.
    fn stroke(&mut self, segments: &[[f32; 4]], width: f32, square_caps: bool);
    /// Draws one line of text with its baseline at `baseline`.
    fn text(&mut self, x: f32, baseline: f32, style: Style, text: &str);
}

/// How a line of text is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Font size, points.
    pub size: f32,
    /// The face.
    pub font: Font,
    /// Gray level (0 black).
    pub gray: f32,
    /// Horizontal placement.
    pub anchor: Anchor,
}

/// Marks a given in a cell value: `digit | GIVEN` is drawn bold and black, a bare digit
/// (one a solution filled in) regular and gray, 0 is an empty cell.
pub const GIVEN: u8 = 0x10;

/// Width of a Helvetica digit, in em (every digit is 556/1000 wide in both faces).
pub const DIGIT_EM: f32 = 0.556;

/// Half the height of a Helvetica digit, in em (digits are about 0.70 em tall): a digit
/// centred on `y` has its baseline at `y + DIGIT_HALF_HEIGHT_EM * size`.
pub const DIGIT_HALF_HEIGHT_EM: f32 = 0.352;

/// Gray of shaded cells (X diagonals, Windoku windows).
pub const SHADE_GRAY: f32 = 0.85;

/// Gray of the digits a solution fills in.
pub const FILLED_GRAY: f32 = 0.35;

/// Line widths for a cell size: thin lines between cells, thick ones between blocks.
pub fn line_widths(cell: f32) -> (f32, f32) {
    (
        (cell * 0.02).clamp(0.3, 1.0),
        (cell * 0.065).clamp(1.0, 3.0),
    )
}

/// Draws a grid of `desc` (with its `lines`) whose top-left corner is at (`x`, `y`), with
/// cells `cell` points wide. `cells[i]` is the value of cell `i` (see [`GIVEN`]).
pub fn draw_grid(
    canvas: &mut impl Canvas,
    desc: &ShapeDesc,
    lines: &GridLines,
    cells: &[u8],
    x: f32,
    y: f32,
    cell: f32,
) {
    for s in desc.shades() {
        canvas.fill_rect(
            x + f32::from(s.col) * cell,
            y + f32::from(s.row) * cell,
            f32::from(s.width) * cell,
            f32::from(s.height) * cell,
            SHADE_GRAY,
        );
    }
    draw_lines(canvas, lines, x, y, cell);
    let size = cell * 0.64;
    let mut digit = [0u8; 1];
    let n = desc.side();
    for r in 0..n {
        for c in 0..n {
            let i = desc.cell_at(r, c);
            if i == NO_CELL {
                continue;
            }
            let v = cells.get(usize::from(i)).copied().unwrap_or(0);
            let d = v & 0x0f;
            if d == 0 || d > 9 {
                continue;
            }
            digit[0] = b'0' + d;
            let (font, gray) = if v & GIVEN != 0 {
                (Font::Bold, 0.0)
            } else {
                (Font::Regular, FILLED_GRAY)
            };
            canvas.text(
                x + (c as f32 + 0.5) * cell,
                y + (r as f32 + 0.5) * cell + DIGIT_HALF_HEIGHT_EM * size,
                Style {
                    size,
                    font,
                    gray,
                    anchor: Anchor::Middle,
                },
                std::str::from_utf8(&digit).unwrap_or("?"),
            );
        }
    }
}

/// Strokes the thin and thick `lines` of a grid whose top-left corner is at (`x`, `y`),
/// with cells `cell` points wide.
pub fn draw_lines(canvas: &mut impl Canvas, lines: &GridLines, x: f32, y: f32, cell: f32) {
    let (thin, thick) = line_widths(cell);
    let place = |segs: &[super::shape::Segment]| -> Vec<[f32; 4]> {
        segs.iter()
            .map(|s| {
                [
                    x + f32::from(s.x0) * cell,
                    y + f32::from(s.y0) * cell,
                    x + f32::from(s.x1) * cell,
                    y + f32::from(s.y1) * cell,
                ]
            })
            .collect()
    };
    canvas.stroke(&place(&lines.thin), thin, false);
    canvas.stroke(&place(&lines.thick), thick, true);
}

/// A page size in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageSize {
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

impl PageSize {
    /// ISO A4, 210 x 297 mm.
    pub const A4: PageSize = PageSize {
        width: 595.276,
        height: 841.89,
    };
    /// US Letter, 8.5 x 11 in.
    pub const LETTER: PageSize = PageSize {
        width: 612.0,
        height: 792.0,
    };
}

/// Page margin, points.
const MARGIN: f32 = 36.0;
/// Space between grid slots, points.
const GAP: f32 = 22.0;
/// Title size, points.
const TITLE_SIZE: f32 = 16.0;
/// Page number size, points.
const FOOTER_SIZE: f32 = 9.0;

/// One puzzle on a page: its label and its cells (see [`GIVEN`]).
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    /// The label drawn above the grid (may be empty).
    pub label: &'a str,
    /// The cell values.
    pub cells: &'a [u8],
}

/// Columns and rows of grid slots for `per_page` puzzles (1, 2, 4 or 6).
pub fn slots_of(per_page: usize) -> (usize, usize) {
    match per_page {
        0 | 1 => (1, 1),
        2 => (1, 2),
        3 | 4 => (2, 2),
        _ => (2, 3),
    }
}

/// Draws one page: the title, up to `per_page` puzzles in reading order, and the page
/// number. `desc` and `lines` are updated per item by `prepare` (Jigsaw regions) before
/// each grid is drawn.
#[allow(clippy::too_many_arguments)]
pub fn draw_page<'a, C: Canvas>(
    canvas: &mut C,
    page: PageSize,
    per_page: usize,
    title: &str,
    number: usize,
    items: impl IntoIterator<Item = Item<'a>>,
    desc: &mut ShapeDesc,
    lines: &mut GridLines,
    mut prepare: impl FnMut(usize, &mut ShapeDesc, &mut GridLines),
) {
    if !title.is_empty() {
        canvas.text(
            MARGIN,
            MARGIN + TITLE_SIZE * 0.75,
            Style {
                size: TITLE_SIZE,
                font: Font::Bold,
                gray: 0.0,
                anchor: Anchor::Start,
            },
            title,
        );
    }
    let top = MARGIN + TITLE_SIZE + 14.0;
    let bottom = page.height - MARGIN - FOOTER_SIZE - 8.0;
    let (cols, rows) = slots_of(per_page);
    let slot_w = (page.width - 2.0 * MARGIN - (cols as f32 - 1.0) * GAP) / cols as f32;
    let slot_h = (bottom - top - (rows as f32 - 1.0) * GAP) / rows as f32;
    let label_size = (slot_w / 28.0).clamp(7.0, 11.0);
    let label_h = label_size * 1.7;
    let side = desc.side() as f32;
    for (k, item) in items.into_iter().enumerate().take(cols * rows) {
        prepare(k, desc, lines);
        let (col, row) = (k % cols, k / cols);
        let sx = MARGIN + col as f32 * (slot_w + GAP);
        let sy = top + row as f32 * (slot_h + GAP);
        let grid = slot_w.min(slot_h - label_h);
        let cell = grid / side;
        let gx = sx + (slot_w - grid) / 2.0;
        let gy = sy + (slot_h - label_h - grid) / 2.0 + label_h;
        if !item.label.is_empty() {
            canvas.text(
                gx,
                gy - label_size * 0.6,
                Style {
                    size: label_size,
                    font: Font::Regular,
                    gray: 0.0,
                    anchor: Anchor::Start,
                },
                item.label,
            );
        }
        draw_grid(canvas, desc, lines, item.cells, gx, gy, cell);
    }
    canvas.text(
        page.width / 2.0,
        page.height - MARGIN,
        Style {
            size: FOOTER_SIZE,
            font: Font::Regular,
            gray: 0.0,
            anchor: Anchor::Middle,
        },
        &number.to_string(),
    );
}

/// Cell size of a single-puzzle picture, in its own units.
pub const SINGLE_CELL: f32 = 36.0;
/// Margin around a single-puzzle picture.
const SINGLE_MARGIN: f32 = 12.0;
/// Label size of a single-puzzle picture.
const SINGLE_LABEL: f32 = 13.0;

/// The size of a single-puzzle picture of a shape of `side` squares, with or without a
/// label line.
pub fn single_size(side: usize, labelled: bool) -> PageSize {
    let grid = side as f32 * SINGLE_CELL;
    let label = if labelled { SINGLE_LABEL * 1.8 } else { 0.0 };
    PageSize {
        width: grid + 2.0 * SINGLE_MARGIN,
        height: grid + 2.0 * SINGLE_MARGIN + label,
    }
}

/// Draws one puzzle alone (one SVG file per puzzle): the label, then the grid.
pub fn draw_single(canvas: &mut impl Canvas, desc: &ShapeDesc, lines: &GridLines, item: Item<'_>) {
    let mut y = SINGLE_MARGIN;
    if !item.label.is_empty() {
        y += SINGLE_LABEL * 1.8;
        canvas.text(
            SINGLE_MARGIN,
            y - SINGLE_LABEL * 0.6,
            Style {
                size: SINGLE_LABEL,
                font: Font::Regular,
                gray: 0.0,
                anchor: Anchor::Start,
            },
            item.label,
        );
    }
    draw_grid(
        canvas,
        desc,
        lines,
        item.cells,
        SINGLE_MARGIN,
        y,
        SINGLE_CELL,
    );
}

/// Text as it may be drawn: control characters become spaces (XML 1.0 forbids most of
/// them, and they mean nothing on paper).
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::Shape;

    /// Records what is drawn.
    #[derive(Default)]
    struct Log {
        rects: usize,
        segments: usize,
        texts: Vec<(f32, f32, String)>,
    }

    impl Canvas for Log {
        fn fill_rect(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32) {
            self.rects += 1;
        }
        fn stroke(&mut self, s: &[[f32; 4]], _: f32, _: bool) {
            self.segments += s.len();
        }
        fn text(&mut self, x: f32, y: f32, _: Style, t: &str) {
            self.texts.push((x, y, t.to_string()));
        }
    }

    #[test]
    fn a_grid_draws_its_digits_centred_in_their_cells() {
        let desc = ShapeDesc::new(Shape::Windoku);
        let lines = GridLines::of(&desc);
        let mut cells = [0u8; 81];
        cells[0] = 5 | GIVEN;
        cells[80] = 9;
        let mut log = Log::default();
        draw_grid(&mut log, &desc, &lines, &cells, 10.0, 20.0, 30.0);
        assert_eq!((log.rects, log.segments), (4, 20));
        assert_eq!(log.texts.len(), 2);
        assert_eq!(log.texts[0].0, 25.0);
        assert_eq!(log.texts[1].2, "9");
    }

    #[test]
    fn every_slot_fits_on_the_page() {
        for per_page in [1, 2, 4, 6] {
            for shape in [Shape::Classic, Shape::Samurai] {
                let mut desc = ShapeDesc::new(shape);
                let mut lines = GridLines::of(&desc);
                let cells = vec![1u8; desc.cells()];
                let items = (0..per_page).map(|_| Item {
                    label: "#1",
                    cells: &cells,
                });
                let mut log = Log::default();
                let page = PageSize::LETTER;
                draw_page(
                    &mut log,
                    page,
                    per_page,
                    "T",
                    1,
                    items,
                    &mut desc,
                    &mut lines,
                    |_, _, _| {},
                );
                assert!(
                    log.texts
                        .iter()
                        .all(|&(x, y, _)| x > 0.0 && x < page.width && y > 0.0 && y < page.height)
                );
                assert_eq!(log.texts.len(), 2 + per_page * (1 + desc.cells()));
            }
        }
    }
}
