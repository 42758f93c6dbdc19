//! SVG output: a [`Canvas`] that writes SVG elements with `quick-xml` (which escapes text
//! and attribute values), one document per page or per puzzle.
//!
//! Lines are `<path>` elements (one per line weight), text is `<text>` in Helvetica (or a
//! sans-serif stand-in), numbers have at most two decimals: the same input gives the same
//! bytes, and the picture is vector graphics, sharp at any zoom.

use std::fmt::Write as _;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use super::draw::{Anchor, Canvas, Font, PageSize, Style};

/// An SVG document being written.
pub struct SvgCanvas {
    writer: Writer<Vec<u8>>,
    path: String,
}

impl std::fmt::Debug for SvgCanvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SvgCanvas")
            .field("bytes", &self.writer.get_ref().len())
            .finish()
    }
}

/// A number with at most two decimals and no trailing zeros (`12`, `3.5`, `0.25`).
fn num(v: f32) -> String {
    let mut s = format!("{:.2}", v);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" { "0".to_string() } else { s }
}

/// A gray level as an RGB colour (`#000`, `#d9d9d9`).
fn gray_colour(gray: f32) -> String {
    if gray <= 0.0 {
        return "#000".to_string();
    }
    let v = (gray.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{v:02x}{v:02x}{v:02x}")
}

impl SvgCanvas {
    /// Starts a document `size` points large. With `physical`, its width and height are
    /// given in millimetres (a printable page); otherwise in user units (a picture).
    pub fn new(size: PageSize, physical: bool) -> SvgCanvas {
        let mut writer = Writer::new(Vec::with_capacity(16 * 1024));
        let (w, h) = if physical {
            (
                format!("{}mm", num(size.width * 25.4 / 72.0)),
                format!("{}mm", num(size.height * 25.4 / 72.0)),
            )
        } else {
            (num(size.width), num(size.height))
        };
        let view = format!("0 0 {} {}", num(size.width), num(size.height));
        // Writing into a Vec cannot fail.
        let _ = writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        writer.get_mut().push(b'\n');
        let _ = writer.write_event(Event::Start(BytesStart::new("svg").with_attributes([
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("width", w.as_str()),
            ("height", h.as_str()),
            ("viewBox", view.as_str()),
            ("font-family", "Helvetica, Arial, sans-serif"),
        ])));
        writer.get_mut().push(b'\n');
        let (vw, vh) = (num(size.width), num(size.height));
        let _ = writer
            .create_element("rect")
            .with_attributes([
                ("width", vw.as_str()),
                ("height", vh.as_str()),
                ("fill", "#fff"),
            ])
            .write_empty();
        writer.get_mut().push(b'\n');
        SvgCanvas {
            writer,
            path: String::new(),
        }
    }

    /// Ends the document and returns its bytes.
    pub fn finish(mut self) -> Vec<u8> {
        let _ = self.writer.write_event(Event::End(BytesEnd::new("svg")));
        self.writer.get_mut().push(b'\n');
        self.writer.into_inner()
    }
}

/// The id of the arrowhead marker that [`SvgCanvas::define_arrow`] defines.
pub const ARROW: &str = "arrow";

/// Colour drawing beyond the [`Canvas`] primitives, for the pictures of `explain` (SVG
/// only; colours are CSS colour strings).
impl SvgCanvas {
    /// Defines the arrowhead marker (in `colour`) that [`SvgCanvas::curve`] may end with.
    pub fn define_arrow(&mut self, colour: &str) {
        let _ = self
            .writer
            .write_event(Event::Start(BytesStart::new("defs")));
        let _ = self
            .writer
            .write_event(Event::Start(BytesStart::new("marker").with_attributes([
                ("id", ARROW),
                ("viewBox", "0 0 10 10"),
                ("refX", "9"),
                ("refY", "5"),
                ("markerWidth", "7"),
                ("markerHeight", "7"),
                ("orient", "auto-start-reverse"),
            ])));
        let _ = self
            .writer
            .create_element("path")
            .with_attributes([("d", "M0 0L10 5L0 10z"), ("fill", colour)])
            .write_empty();
        let _ = self.writer.write_event(Event::End(BytesEnd::new("marker")));
        let _ = self.writer.write_event(Event::End(BytesEnd::new("defs")));
        self.writer.get_mut().push(b'\n');
    }

    /// Fills a rectangle with a colour.
    pub fn rect_colour(&mut self, x: f32, y: f32, w: f32, h: f32, fill: &str) {
        let (x, y, w, h) = (num(x), num(y), num(w), num(h));
        let _ = self
            .writer
            .create_element("rect")
            .with_attributes([
                ("x", x.as_str()),
                ("y", y.as_str()),
                ("width", w.as_str()),
                ("height", h.as_str()),
                ("fill", fill),
            ])
            .write_empty();
        self.writer.get_mut().push(b'\n');
    }

    /// A circle, filled and optionally outlined.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: &str, stroke: Option<&str>) {
        let (cx, cy, r) = (num(cx), num(cy), num(r));
        let mut el = self.writer.create_element("circle").with_attributes([
            ("cx", cx.as_str()),
            ("cy", cy.as_str()),
            ("r", r.as_str()),
            ("fill", fill),
        ]);
        if let Some(s) = stroke {
            el = el.with_attributes([("stroke", s), ("stroke-width", "1.2")]);
        }
        let _ = el.write_empty();
        self.writer.get_mut().push(b'\n');
    }

    /// A straight line in a colour.
    pub fn line(&mut self, seg: [f32; 4], colour: &str, width: f32) {
        let d = format!(
            "M{} {}L{} {}",
            num(seg[0]),
            num(seg[1]),
            num(seg[2]),
            num(seg[3])
        );
        let w = num(width);
        let _ = self
            .writer
            .create_element("path")
            .with_attributes([
                ("d", d.as_str()),
                ("stroke", colour),
                ("stroke-width", w.as_str()),
                ("stroke-linecap", "round"),
            ])
            .write_empty();
        self.writer.get_mut().push(b'\n');
    }

    /// A quadratic curve from `from` to `to` bending towards `control`, solid or dashed,
    /// ending in the arrowhead of [`SvgCanvas::define_arrow`] when `arrow`.
    #[allow(clippy::too_many_arguments)]
    pub fn curve(
        &mut self,
        from: (f32, f32),
        control: (f32, f32),
        to: (f32, f32),
        colour: &str,
        width: f32,
        dashed: bool,
        arrow: bool,
    ) {
        let d = format!(
            "M{} {}Q{} {} {} {}",
            num(from.0),
            num(from.1),
            num(control.0),
            num(control.1),
            num(to.0),
            num(to.1)
        );
        let w = num(width);
        let mut el = self.writer.create_element("path").with_attributes([
            ("d", d.as_str()),
            ("fill", "none"),
            ("stroke", colour),
            ("stroke-width", w.as_str()),
        ]);
        if dashed {
            el = el.with_attribute(("stroke-dasharray", "4 3"));
        }
        let marker = format!("url(#{ARROW})");
        if arrow {
            el = el.with_attribute(("marker-end", marker.as_str()));
        }
        let _ = el.write_empty();
        self.writer.get_mut().push(b'\n');
    }

    /// Text in a colour, centred on `x` when `centred`.
    #[allow(clippy::too_many_arguments)]
    pub fn text_colour(
        &mut self,
        x: f32,
        baseline: f32,
        size: f32,
        bold: bool,
        colour: &str,
        centred: bool,
        text: &str,
    ) {
        let (x, y, s) = (num(x), num(baseline), num(size));
        let mut el = self.writer.create_element("text").with_attributes([
            ("x", x.as_str()),
            ("y", y.as_str()),
            ("font-size", s.as_str()),
            ("fill", colour),
        ]);
        if bold {
            el = el.with_attribute(("font-weight", "bold"));
        }
        if centred {
            el = el.with_attribute(("text-anchor", "middle"));
        }
        let _ = el.write_text_content(BytesText::new(text));
        self.writer.get_mut().push(b'\n');
    }
}

impl Canvas for SvgCanvas {
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, gray: f32) {
        self.rect_colour(x, y, w, h, &gray_colour(gray));
    }

    fn stroke(&mut self, segments: &[[f32; 4]], width: f32, square_caps: bool) {
        if segments.is_empty() {
            return;
        }
        self.path.clear();
        for &[x0, y0, x1, y1] in segments {
            let _ = write!(self.path, "M{} {}", num(x0), num(y0));
            if y0 == y1 {
                let _ = write!(self.path, "H{}", num(x1));
            } else if x0 == x1 {
                let _ = write!(self.path, "V{}", num(y1));
            } else {
                let _ = write!(self.path, "L{} {}", num(x1), num(y1));
            }
        }
        let w = num(width);
        let _ = self
            .writer
            .create_element("path")
            .with_attributes([
                ("d", self.path.as_str()),
                ("fill", "none"),
                ("stroke", "#000"),
                ("stroke-width", w.as_str()),
                (
                    "stroke-linecap",
                    if square_caps { "square" } else { "butt" },
                ),
            ])
            .write_empty();
        self.writer.get_mut().push(b'\n');
    }

    fn text(&mut self, x: f32, baseline: f32, style: Style, text: &str) {
        let Style {
            size,
            font,
            gray,
            anchor,
        } = style;
        let (x, y, s) = (num(x), num(baseline), num(size));
        let mut el = self.writer.create_element("text").with_attributes([
            ("x", x.as_str()),
            ("y", y.as_str()),
            ("font-size", s.as_str()),
        ]);
        if font == Font::Bold {
            el = el.with_attribute(("font-weight", "bold"));
        }
        if anchor == Anchor::Middle {
            el = el.with_attribute(("text-anchor", "middle"));
        }
        let fill = gray_colour(gray);
        if gray > 0.0 {
            el = el.with_attribute(("fill", fill.as_str()));
        }
        let _ = el.write_text_content(BytesText::new(text));
        self.writer.get_mut().push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_at_most_two_decimals() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(3.5), "3.5");
        assert_eq!(num(0.254), "0.25");
        assert_eq!(num(-0.001), "0");
        assert_eq!(gray_colour(0.85), "#d9d9d9");
    }

    #[test]
    fn text_is_escaped() {
        let mut c = SvgCanvas::new(PageSize::A4, true);
        c.text(
            1.0,
            2.0,
            Style {
                size: 10.0,
                font: Font::Regular,
                gray: 0.0,
                anchor: Anchor::Start,
            },
            "a<b & \"c\"",
        );
        let svg = String::from_utf8(c.finish()).unwrap();
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot;"), "{svg}");
        assert!(svg.contains("width=\"210mm\""));
    }
}
