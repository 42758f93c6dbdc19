//! PDF output, streamed: every object is written by `pdf-writer` and goes to the output as
//! soon as it is made, so a 100,000-puzzle booklet never holds its pages in memory.
//!
//! `pdf-writer` builds a whole file in one buffer and writes the cross-reference section
//! when it is finished. To stream, [`PdfBook`] has it write each indirect object into a
//! [`Chunk`] of its own, copies the chunk to the output and remembers where it went; at
//! the end the page tree, the document information, the catalog and a cross-reference
//! *stream* (its dictionary, with the trailer's entries, also written by `pdf-writer`) are
//! added. The only bytes written here by hand are the binary rows of that stream (type,
//! offset, generation: PDF 32000-1 §7.5.8.3) and the three-line `startxref` footer.
//!
//! ```text
//!  header │ fonts │ content, page, content, page, ... │ page tree │ info │ catalog │ xref │ footer
//!         │       │   (one pair per page, as drawn)    │  (kept: refs and offsets only, 12 bytes per object)
//! ```
//!
//! Content streams are Flate-compressed (`miniz_oxide`). Nothing depends on the clock: the
//! same pages give the same bytes.

use std::io::{self, Write};

use pdf_writer::writers::{Catalog, DocumentInfo};
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Pdf, Rect, Ref, Settings, Str, TextStr};

use super::draw::{Anchor, Canvas, DIGIT_EM, Font, PageSize, Style};

/// Pages per node of the page tree (the root holds the nodes).
const PAGES_PER_NODE: usize = 256;

/// Compression level of content streams (miniz: 0-10).
const LEVEL: u8 = 6;

/// A PDF booklet being written to `W`.
pub struct PdfBook<W: Write> {
    out: W,
    pos: u64,
    /// `offsets[id]`: where object `id` starts (0 until written).
    offsets: Vec<u64>,
    size: PageSize,
    root: Ref,
    fonts: [Ref; 2],
    /// Page tree nodes: each node's reference and its pages.
    nodes: Vec<(Ref, Vec<Ref>)>,
    pages: usize,
}

impl<W: Write> std::fmt::Debug for PdfBook<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfBook")
            .field("pos", &self.pos)
            .field("pages", &self.pages)
            .finish()
    }
}

fn compact() -> Settings {
    Settings { pretty: false }
}

impl<W: Write> PdfBook<W> {
    /// Starts a booklet of pages `size` large: writes the header and the two fonts
    /// (Helvetica and Helvetica-Bold, PDF's built-in fonts, no font file).
    pub fn new(out: W, size: PageSize) -> io::Result<PdfBook<W>> {
        let mut book = PdfBook {
            out,
            pos: 0,
            offsets: vec![0],
            size,
            root: Ref::new(1),
            fonts: [Ref::new(1); 2],
            nodes: Vec::new(),
            pages: 0,
        };
        let header = Pdf::new();
        book.put(header.as_bytes())?;
        book.root = book.alloc();
        for (k, name) in [&b"Helvetica"[..], b"Helvetica-Bold"]
            .into_iter()
            .enumerate()
        {
            let r = book.alloc();
            book.fonts[k] = r;
            let mut c = Chunk::with_settings(compact());
            c.type1_font(r)
                .base_font(Name(name))
                .encoding_predefined(Name(b"WinAnsiEncoding"));
            book.object(&c)?;
        }
        Ok(book)
    }

    /// Pages written so far.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// The page size.
    pub fn size(&self) -> PageSize {
        self.size
    }

    fn alloc(&mut self) -> Ref {
        self.offsets.push(0);
        Ref::new((self.offsets.len() - 1) as i32)
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    /// Writes a chunk holding one indirect object and records where it starts.
    fn object(&mut self, chunk: &Chunk) -> io::Result<()> {
        for r in chunk.refs() {
            if let Some(o) = self.offsets.get_mut(r.get() as usize) {
                *o = self.pos;
            }
        }
        debug_assert_eq!(chunk.refs().len(), 1);
        self.put(chunk.as_bytes())
    }

    /// Adds a page whose content stream (uncompressed) is `content`.
    pub fn add_page(&mut self, content: &[u8]) -> io::Result<()> {
        if self.pages.is_multiple_of(PAGES_PER_NODE) {
            let node = self.alloc();
            self.nodes.push((node, Vec::with_capacity(PAGES_PER_NODE)));
        }
        let parent = self.nodes.last().map_or(self.root, |n| n.0);
        let content_ref = self.alloc();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(content, LEVEL);
        let mut c = Chunk::with_settings(compact());
        c.stream(content_ref, &packed).filter(Filter::FlateDecode);
        self.object(&c)?;
        let page_ref = self.alloc();
        let mut c = Chunk::with_settings(compact());
        let mut page = c.page(page_ref);
        page.parent(parent)
            .media_box(Rect::new(0.0, 0.0, self.size.width, self.size.height))
            .contents(content_ref);
        page.resources()
            .fonts()
            .pair(Name(b"F1"), self.fonts[0])
            .pair(Name(b"F2"), self.fonts[1]);
        page.finish();
        self.object(&c)?;
        if let Some(n) = self.nodes.last_mut() {
            n.1.push(page_ref);
        }
        self.pages += 1;
        Ok(())
    }

    /// Writes the page tree, the document information (`title`, the producer; no dates),
    /// the catalog and the cross-reference stream, and returns the output.
    pub fn finish(mut self, title: &str) -> io::Result<W> {
        let nodes = std::mem::take(&mut self.nodes);
        for (node, kids) in &nodes {
            let mut c = Chunk::with_settings(compact());
            c.pages(*node)
                .parent(self.root)
                .kids(kids.iter().copied())
                .count(kids.len() as i32);
            self.object(&c)?;
        }
        let mut c = Chunk::with_settings(compact());
        c.pages(self.root)
            .kids(nodes.iter().map(|n| n.0))
            .count(self.pages as i32);
        self.object(&c)?;
        let info = self.alloc();
        let mut c = Chunk::with_settings(compact());
        let mut di = c.indirect(info).start::<DocumentInfo>();
        if !title.is_empty() {
            di.title(TextStr(title));
        }
        di.producer(TextStr(concat!("sudoku-batch ", env!("CARGO_PKG_VERSION"))));
        di.finish();
        self.object(&c)?;
        let catalog = self.alloc();
        let mut c = Chunk::with_settings(compact());
        c.indirect(catalog).start::<Catalog>().pages(self.root);
        self.object(&c)?;
        // The cross-reference stream: one row per object, its own included.
        let xref = self.alloc();
        let xref_at = self.pos;
        if let Some(o) = self.offsets.get_mut(xref.get() as usize) {
            *o = xref_at;
        }
        let width = (64 - xref_at.leading_zeros()).div_ceil(8).max(1) as usize;
        let mut rows = Vec::with_capacity(self.offsets.len() * (3 + width));
        for (id, &offset) in self.offsets.iter().enumerate() {
            // Object 0 heads the free list (generation 65535); every other one is in use.
            let (kind, generation) = if id == 0 { (0u8, 0xffffu16) } else { (1, 0) };
            rows.push(kind);
            rows.extend_from_slice(&offset.to_be_bytes()[8 - width..]);
            rows.extend_from_slice(&generation.to_be_bytes());
        }
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&rows, LEVEL);
        let mut c = Chunk::with_settings(compact());
        let mut s = c.stream(xref, &packed);
        s.filter(Filter::FlateDecode);
        s.pair(Name(b"Type"), Name(b"XRef"));
        s.pair(Name(b"Size"), self.offsets.len() as i32);
        s.pair(Name(b"Root"), catalog);
        s.pair(Name(b"Info"), info);
        s.insert(Name(b"W")).array().items([1, width as i32, 2]);
        s.finish();
        self.put(c.as_bytes())?;
        let footer = format!("\nstartxref\n{xref_at}\n%%EOF\n");
        self.put(footer.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A page's content stream being drawn.
pub struct PdfCanvas {
    content: Content,
    height: f32,
    fill: f32,
    text: Vec<u8>,
}

impl std::fmt::Debug for PdfCanvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfCanvas")
            .field("bytes", &self.content.len())
            .finish()
    }
}

impl PdfCanvas {
    /// A blank page of `size`.
    pub fn new(size: PageSize) -> PdfCanvas {
        PdfCanvas {
            content: Content::with_settings_and_capacity(compact(), 8 * 1024),
            height: size.height,
            fill: 0.0,
            text: Vec::new(),
        }
    }

    /// The content stream.
    pub fn finish(self) -> Vec<u8> {
        self.content.finish().into_vec()
    }

    fn set_fill(&mut self, gray: f32) {
        if gray != self.fill {
            self.content.set_fill_gray(gray);
            self.fill = gray;
        }
    }
}

/// Encodes text for Helvetica's WinAnsiEncoding: Latin-1 and the usual typographic marks;
/// anything else becomes `?`, control characters spaces.
pub fn win_ansi(text: &str, out: &mut Vec<u8>) {
    out.clear();
    for ch in text.chars() {
        let b = match ch {
            ' '..='~' => ch as u8,
            '\u{a0}'..='\u{ff}' => ch as u32 as u8,
            '€' => 0x80,
            '…' => 0x85,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            '–' => 0x96,
            '—' => 0x97,
            c if c.is_control() => b' ',
            _ => b'?',
        };
        out.push(b);
    }
}

impl Canvas for PdfCanvas {
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, gray: f32) {
        self.set_fill(gray);
        self.content
            .rect(x, self.height - y - h, w, h)
            .fill_nonzero();
    }

    fn stroke(&mut self, segments: &[[f32; 4]], width: f32, square_caps: bool) {
        if segments.is_empty() {
            return;
        }
        self.content.set_line_width(width);
        self.content.set_line_cap(if square_caps {
            pdf_writer::types::LineCapStyle::ProjectingSquareCap
        } else {
            pdf_writer::types::LineCapStyle::ButtCap
        });
        for &[x0, y0, x1, y1] in segments {
            self.content
                .move_to(x0, self.height - y0)
                .line_to(x1, self.height - y1);
        }
        self.content.stroke();
    }

    fn text(&mut self, x: f32, baseline: f32, style: Style, text: &str) {
        let Style {
            size,
            font,
            gray,
            anchor,
        } = style;
        let mut bytes = std::mem::take(&mut self.text);
        win_ansi(text, &mut bytes);
        let x = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - bytes.len() as f32 * DIGIT_EM * size / 2.0,
        };
        self.set_fill(gray);
        let name = match font {
            Font::Regular => Name(b"F1"),
            Font::Bold => Name(b"F2"),
        };
        self.content
            .begin_text()
            .set_font(name, size)
            .next_line(x, self.height - baseline)
            .show(Str(&bytes))
            .end_text();
        self.text = bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_ansi_keeps_latin1_and_marks_the_rest() {
        let mut out = Vec::new();
        win_ansi("é·x€\u{7}漢", &mut out);
        assert_eq!(out, [0xe9, 0xb7, b'x', 0x80, b' ', b'?']);
    }

    #[test]
    fn a_book_ends_with_a_cross_reference_stream_pointing_at_its_objects() {
        let mut book = PdfBook::new(Vec::new(), PageSize::A4).unwrap();
        for _ in 0..3 {
            let mut c = PdfCanvas::new(PageSize::A4);
            c.text(
                10.0,
                20.0,
                Style {
                    size: 12.0,
                    font: Font::Bold,
                    gray: 0.0,
                    anchor: Anchor::Middle,
                },
                "42",
            );
            book.add_page(&c.finish()).unwrap();
        }
        let pdf = book.finish("T").unwrap();
        assert!(pdf.starts_with(b"%PDF-1.7"));
        let tail = String::from_utf8_lossy(&pdf[pdf.len() - 30..]).into_owned();
        let at: usize = tail
            .split("startxref\n")
            .nth(1)
            .and_then(|t| t.lines().next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(pdf[at..].starts_with(b"13 0 obj"), "{}", tail);
    }
}
