//! Pictures of puzzles: printable pages and single grids, as SVG and PDF. Nothing in
//! [`crate::core`] depends on this module; it reads puzzles as plain cell values.
//!
//! - [`shape`]: what each shape looks like on paper ([`shape::ShapeDesc`]: which layout
//!   squares hold cells, their blocks, the shaded cells) and the line segments to stroke
//!   ([`shape::GridLines`]);
//! - [`draw`]: the drawing, written once over a small [`draw::Canvas`] trait: a grid, a
//!   page of grids with title, labels and page number, a single grid;
//! - [`svg`]: the SVG canvas (XML written by `quick-xml`);
//! - [`steps`]: pictures of solving steps (`explain --format svg|html`): candidates,
//!   highlights, eliminations and chain links as arrows;
//! - [`html`]: the self-contained page of `explain --format html`;
//! - [`pdf`]: the PDF canvas and a booklet streamed page by page (objects written by
//!   `pdf-writer`).
//!
//! `sudoku-batch render` ([`crate::pipeline::render`]) reads the puzzles and drives these.

pub mod draw;
pub mod html;
pub mod pdf;
pub mod shape;
pub mod steps;
pub mod svg;
