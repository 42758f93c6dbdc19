//! `render` end to end: every shape, with and without solutions, as a PDF booklet (read
//! back with `lopdf`, an independent PDF reader: page count, page size, label text), one
//! SVG page and a directory of SVG files (every file parsed as XML with `roxmltree`), and
//! one golden page per shape.
//!
//! Regenerate the golden pages after an intended change of the drawing with
//! `SUDOKU_BLESS=1 cargo test --release --test render`.

mod common;

use std::path::{Path, PathBuf};

use common::{bin, data, run};

/// Every shape with a sample file of at least three puzzles and its `--variant` value.
const SHAPES: [(&str, &str); 5] = [
    ("classic", "17clue_200.txt"),
    ("x", "variants/x.txt"),
    ("windoku", "variants/windoku.txt"),
    ("jigsaw", "variants/jigsaw.txt"),
    ("samurai", "samurai/lines.txt"),
];

fn cells_of(shape: &str) -> usize {
    if shape == "samurai" { 369 } else { 81 }
}

fn render(args: &[&str]) -> std::process::Output {
    let mut full = vec!["render"];
    full.extend_from_slice(args);
    let o = run(&full);
    assert!(
        o.status.success(),
        "render {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Givens of the first `n` puzzles of a sample, as `solve` reads them.
fn givens(shape: &str, file: &Path, n: usize) -> Vec<usize> {
    let o = run(&[
        "solve",
        file.to_str().unwrap(),
        "--variant",
        shape,
        "--no-grade",
        "-q",
    ]);
    let rows = common::csv_rows(&common::stdout(&o));
    let p = common::col(&rows[0], "puzzle");
    let given = |b: &u8| b.is_ascii_digit() && *b != b'0';
    rows[1..=n]
        .iter()
        .map(|r| {
            let cells = r[p].as_bytes();
            let all = cells.iter().filter(|b| given(b)).count();
            if shape != "samurai" {
                return all;
            }
            // The 405-cell line holds the four shared boxes twice: once in a corner grid
            // and once in the centre grid (grid 2, boxes 0, 2, 6 and 8).
            let twice = (0..81)
                .filter(|&i| {
                    let (r, c) = (i / 9, i % 9);
                    r / 3 != 1 && c / 3 != 1 && given(&cells[2 * 81 + i])
                })
                .count();
            all - twice
        })
        .collect()
}

fn pdf_pages(path: &Path) -> (lopdf::Document, Vec<lopdf::ObjectId>) {
    let doc = lopdf::Document::load(path).expect("lopdf reads the booklet");
    let pages = doc.get_pages().into_values().collect();
    (doc, pages)
}

fn media_box(doc: &lopdf::Document, page: lopdf::ObjectId) -> Vec<f32> {
    let dict = doc.get_dictionary(page).unwrap();
    dict.get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect()
}

#[test]
fn booklets_of_every_shape_have_the_pages_size_and_labels_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    for (shape, file) in SHAPES {
        for solutions in [false, true] {
            let out = dir.path().join(format!("{shape}-{solutions}.pdf"));
            let mut args = vec![
                data(file).to_str().unwrap().to_string(),
                "-o".into(),
                out.to_str().unwrap().to_string(),
                "--variant".into(),
                shape.into(),
                "--per-page".into(),
                "2".into(),
                "--max".into(),
                "3".into(),
                "--page".into(),
                "letter".into(),
                "--title".into(),
                format!("Book of {shape}"),
                "--label".into(),
                "number,line".into(),
            ];
            if solutions {
                args.push("--solutions".into());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            render(&args);
            let (doc, pages) = pdf_pages(&out);
            // Three puzzles two to a page: two pages, and as many of solutions.
            assert_eq!(pages.len(), if solutions { 4 } else { 2 }, "{shape}");
            for &p in &pages {
                assert_eq!(media_box(&doc, p), [0.0, 0.0, 612.0, 792.0]);
            }
            let first = doc.extract_text(&[1]).unwrap();
            assert!(first.contains(&format!("Book of {shape}")), "{first}");
            assert!(first.contains("#1"), "{shape}: {first}");
            assert!(first.contains("#2"), "{shape}: {first}");
            assert!(first.contains("line "), "{shape}: {first}");
            let last = doc.extract_text(&[2]).unwrap();
            assert!(
                last.contains("#3") && !last.contains("#1"),
                "{shape}: {last}"
            );
            if solutions {
                let back = doc.extract_text(&[3]).unwrap();
                assert!(back.contains("solutions") && back.contains("#1"), "{back}");
                // A solution page shows every cell: the digits of two full grids, the
                // labels and the page number.
                let digits = back.chars().filter(|c| c.is_ascii_digit()).count();
                assert!(digits >= 2 * cells_of(shape), "{shape}: {digits}");
            }
            let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
            let title = doc
                .get_dictionary(info)
                .unwrap()
                .get(b"Title")
                .unwrap()
                .as_str()
                .unwrap()
                .to_vec();
            assert_eq!(title, format!("Book of {shape}").into_bytes());
        }
    }
}

#[test]
fn svg_files_of_every_shape_parse_and_hold_each_given() {
    let dir = tempfile::tempdir().unwrap();
    for (shape, file) in SHAPES {
        let out = dir.path().join(shape);
        let out_arg = format!("{}/", out.display());
        let path = data(file);
        render(&[
            path.to_str().unwrap(),
            "-o",
            &out_arg,
            "--variant",
            shape,
            "--max",
            "3",
            "--solutions",
        ]);
        let givens = givens(shape, &path, 3);
        for (k, &n) in givens.iter().enumerate() {
            for (kind, texts) in [("puzzle", n + 1), ("solution", cells_of(shape) + 1)] {
                let f = out.join(format!("{kind}-{:06}.svg", k + 1));
                let svg = std::fs::read_to_string(&f).unwrap();
                let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
                let root = doc.root_element();
                assert_eq!(root.tag_name().name(), "svg");
                assert_eq!(
                    root.tag_name().namespace(),
                    Some("http://www.w3.org/2000/svg")
                );
                let n_text = doc.descendants().filter(|n| n.has_tag_name("text")).count();
                // One text per digit drawn, plus the label.
                assert_eq!(n_text, texts, "{shape} {kind} {}", k + 1);
            }
        }
        // One SVG page, with its solutions page beside it.
        let page = dir.path().join(format!("{shape}.svg"));
        render(&[
            path.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
            "--variant",
            shape,
            "--per-page",
            "6",
            "--solutions",
        ]);
        for f in [
            page.clone(),
            dir.path().join(format!("{shape}-solutions.svg")),
        ] {
            let svg = std::fs::read_to_string(&f).unwrap();
            let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
            assert_eq!(doc.root_element().attribute("width"), Some("210mm"));
        }
    }
}

fn golden_path(shape: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/render/{shape}.svg"))
}

#[test]
fn one_page_of_each_shape_matches_its_golden_file() {
    let dir = tempfile::tempdir().unwrap();
    for (shape, file) in SHAPES {
        let out = dir.path().join(format!("{shape}.svg"));
        render(&[
            data(file).to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--variant",
            shape,
            "--per-page",
            "2",
            "--max",
            "2",
            "--title",
            shape,
            "--label",
            "number,line",
        ]);
        let got = std::fs::read_to_string(&out).unwrap();
        let golden = golden_path(shape);
        if std::env::var_os("SUDOKU_BLESS").is_some() {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &got).unwrap();
        }
        let want = std::fs::read_to_string(&golden).expect("golden file (SUDOKU_BLESS=1 makes it)");
        assert!(
            got == want,
            "{shape}: the page differs from {}",
            golden.display()
        );
    }
}

#[test]
fn rows_of_generate_label_puzzles_in_csv_tsv_and_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["csv", "tsv", "jsonl"] {
        let rows = dir.path().join(format!("g.{format}"));
        let o = run(&[
            "generate",
            "-n",
            "3",
            "--seed",
            "7",
            "--format",
            format,
            "-q",
            "-o",
            rows.to_str().unwrap(),
        ]);
        assert!(o.status.success());
        let out = dir.path().join(format!("g-{format}.pdf"));
        render(&[
            rows.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--label",
            "number,index,level,er,clues",
            "--solutions",
        ]);
        let (doc, pages) = pdf_pages(&out);
        assert_eq!(pages.len(), 2);
        let text = doc.extract_text(&[1]).unwrap();
        for want in ["#1", "#3", "index 0", "index 2", "ER ", "clues "] {
            assert!(text.contains(want), "{format}: no {want:?} in {text}");
        }
        assert!(
            [
                "easy",
                "medium",
                "hard",
                "fiendish",
                "diabolical",
                "extreme"
            ]
            .iter()
            .any(|l| text.contains(l)),
            "{text}"
        );
    }
}

#[test]
fn jigsaw_rows_from_solve_keep_their_regions() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("j.csv");
    let o = run(&[
        "solve",
        data("variants/jigsaw.txt").to_str().unwrap(),
        "--variant",
        "jigsaw",
        "-q",
        "-o",
        rows.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let from_rows = dir.path().join("rows.svg");
    let from_puzzles = dir.path().join("puzzles.svg");
    for (input, out) in [
        (rows.clone(), &from_rows),
        (data("variants/jigsaw.txt"), &from_puzzles),
    ] {
        render(&[
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--variant",
            "jigsaw",
            "--label",
            "number",
        ]);
    }
    // Same puzzles, same regions: the same page, whichever form they came in.
    assert_eq!(
        std::fs::read(&from_rows).unwrap(),
        std::fs::read(&from_puzzles).unwrap()
    );
}

#[test]
fn bad_records_are_skipped_and_said_and_no_puzzle_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    let good = std::fs::read_to_string(data("17clue_200.txt")).unwrap();
    let mut text: String = good.lines().take(2).map(|l| format!("{l}\n")).collect();
    text.push_str("12345\n\u{fffd}\u{0}garbage\n");
    text.push_str(good.lines().nth(2).unwrap());
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("m.pdf");
    let o = render(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("render: 3 puzzles"), "{err}");
    assert!(err.contains("line 3: skipped"), "{err}");
    assert!(err.contains("line 4: skipped"), "{err}");
    assert_eq!(pdf_pages(&out).1.len(), 1);

    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let none = dir.path().join("none.pdf");
    let o = run(&[
        "render",
        empty.to_str().unwrap(),
        "-o",
        none.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no puzzle to draw"));
    assert!(!none.exists());
    assert!(!dir.path().join("none.pdf.partial").exists());

    let o = run(&["render", input.to_str().unwrap(), "-o", "book.png"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot tell what to write"));
}

#[test]
fn a_booklet_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stdin.pdf");
    let puzzles = std::fs::read(data("17clue_200.txt")).unwrap();
    let mut child = bin()
        .args([
            "render",
            "-",
            "-o",
            out.to_str().unwrap(),
            "-q",
            "--per-page",
            "6",
        ])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&puzzles).unwrap();
    }
    assert!(child.wait().unwrap().success());
    // 200 puzzles, six to a page.
    assert_eq!(pdf_pages(&out).1.len(), 34);
}

/// ER 7.2, a forcing chain its hardest step (data/rated_exchange_60.tsv).
const CHAIN_PUZZLE: &str =
    "4..5.3..2..28.67....3.9.6..6.......582.....61....................9.3.1..3.42.18.9";

fn explain_json(puzzle: &str, variant: &str) -> serde_json::Value {
    let o = run(&["explain", puzzle, "--format", "json", "--variant", variant]);
    assert!(o.status.success());
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn explain_draws_one_svg_per_step_with_its_eliminations_struck() {
    let dir = tempfile::tempdir().unwrap();
    let pics = dir.path().join("steps");
    let o = run(&[
        "explain",
        CHAIN_PUZZLE,
        "--format",
        "svg",
        "-o",
        pics.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = explain_json(CHAIN_PUZZLE, "classic");
    let steps = report["steps"].as_array().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&pics)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), steps.len());
    let mut chain_steps = 0;
    for (f, step) in files.iter().zip(steps) {
        let svg = std::fs::read_to_string(f).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let text = step["text"].as_str().unwrap();
        let caption = doc
            .descendants()
            .find(|n| n.has_tag_name("text"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(caption.ends_with(text), "{caption} / {text}");
        // Each eliminated candidate is struck once (a red stroke), each placement is a
        // green digit.
        let struck = doc
            .descendants()
            .filter(|n| n.has_tag_name("path") && n.attribute("stroke") == Some("#d32f2f"))
            .count();
        assert_eq!(
            struck,
            step["eliminations"].as_array().unwrap().len(),
            "{text}"
        );
        let placed = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("fill") == Some("#1b7a1b"))
            .count();
        assert_eq!(
            placed,
            step["placements"].as_array().unwrap().len(),
            "{text}"
        );
        // A chain step draws one arrow per link of its chains (each potential from each
        // of its parents), and only a chain step has arrows.
        let arrows = doc
            .descendants()
            .filter(|n| n.has_tag_name("path") && n.attribute("marker-end").is_some())
            .count();
        let mut links = std::collections::HashSet::new();
        if let Some(chains) = step.get("chain") {
            for c in chains["chains"].as_array().unwrap() {
                let c = c.as_array().unwrap();
                for p in c {
                    for q in p["parents"].as_array().unwrap() {
                        let a = c[q.as_u64().unwrap() as usize]["potential"]
                            .as_str()
                            .unwrap();
                        let b = p["potential"].as_str().unwrap();
                        if a.replace("<>", "=") != b.replace("<>", "=") {
                            links.insert((a.to_string(), b.to_string()));
                        }
                    }
                }
            }
            chain_steps += 1;
        }
        assert_eq!(arrows, links.len(), "{text}");
    }
    assert_eq!(chain_steps, 4);
    // Without a directory there is nowhere to put the pictures.
    let o = run(&["explain", CHAIN_PUZZLE, "--format", "svg"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn explain_writes_each_chain_out_in_text_and_json() {
    let o = run(&["explain", CHAIN_PUZZLE]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let report = explain_json(CHAIN_PUZZLE, "classic");
    for step in report["steps"].as_array().unwrap() {
        let t = step["text"].as_str().unwrap();
        let Some(lines) = step.get("chain_text") else {
            assert!(!t.contains("chain"), "{t}");
            continue;
        };
        // The text form prints the same lines under the step.
        let lines: Vec<&str> = lines
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        let at = text.find(t).unwrap() + t.len() + 1;
        let below: Vec<&str> = text[at..]
            .lines()
            .take(lines.len())
            .map(str::trim)
            .collect();
        assert_eq!(below, lines, "{t}");
        // A forcing chain runs from its assumption to the assumption's opposite.
        let chain = step["chain"]["chains"][0].as_array().unwrap();
        let first = chain[0]["potential"].as_str().unwrap();
        let last = chain[chain.len() - 1]["potential"].as_str().unwrap();
        assert_eq!(step["chain"]["kind"], "forcing");
        assert_eq!(chain[0]["via"], "assumption");
        assert_eq!(first.replace("<>", "="), last.replace("<>", "="), "{t}");
        assert_ne!(first, last);
        assert!(t.contains(&format!("(length {})", chain.len())), "{t}");
        assert!(lines[0].starts_with(&format!("chain: {first} -> ")), "{t}");
    }
}

#[test]
fn explain_html_is_one_page_with_every_step_of_every_shape() {
    let dir = tempfile::tempdir().unwrap();
    for (shape, file) in SHAPES {
        let path = data(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .unwrap();
        // One-line records: the puzzle itself (Jigsaw: cells and regions).
        let puzzle = match shape {
            "jigsaw" => first.split(' ').take(2).collect::<Vec<_>>().join(" "),
            "samurai" => first[..405].to_string(),
            _ => first[..81].to_string(),
        };
        let page = dir.path().join(format!("{shape}.html"));
        let o = run(&[
            "explain",
            &puzzle,
            "--variant",
            shape,
            "--format",
            "html",
            "-o",
            page.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "{shape}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let html = std::fs::read_to_string(&page).unwrap();
        let n = explain_json(&puzzle, shape)["steps"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(
            html.matches("<section class=\"step\"").count(),
            n,
            "{shape}"
        );
        assert_eq!(html.matches("<svg").count(), n, "{shape}");
        assert_eq!(html.matches(" hidden>").count(), n - 1, "{shape}");
        for id in ["first", "prev", "next", "last", "position", "steps"] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{shape}: {id}");
        }
        // Self-contained: nothing to fetch.
        for fetch in ["src=", "href=", "https://", "@import"] {
            assert!(!html.contains(fetch), "{shape}: {fetch}");
        }
    }
}
