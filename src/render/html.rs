//! The HTML page of `explain --format html`: one self-contained file (styles, script and
//! pictures inline, nothing fetched from the network) that shows one step at a time, with
//! its own controls to page through them.
//!
//! ```text
//!  heading, ratings
//!  [First] [Previous]  Step 3 of 41  [Next] [Last]      (← and → keys too)
//!  ┌ step 3 ───────────────────────────┐   1. Full house ...   (the list: click a step)
//!  │ 3. [2.6] Pointing in box 4: ...   │   2. Hidden single ...
//!  │ chain lines, if any               │ ▸ 3. Pointing ...
//!  │ picture (inline SVG)              │   ...
//!  └───────────────────────────────────┘
//! ```
//!
//! The page's elements carry ids for scripts and tests: `#prev`, `#next`, `#first`,
//! `#last`, `#position` (the "Step k of n" text), `#steps` (the list) and `#step-K` (the
//! sections, 1-based; only the current one is shown).

use quick_xml::escape::escape;

/// One step of the page.
#[derive(Clone, Copy, Debug)]
pub struct HtmlStep<'a> {
    /// The step's one-line text.
    pub text: &'a str,
    /// Further lines (a chain written out), shown preformatted under the text.
    pub detail: &'a [String],
    /// The step's picture, an SVG document.
    pub svg: &'a [u8],
}

const STYLE: &str = "
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
.summary { margin: 0 0 1em; }
nav { display: flex; gap: .5em; align-items: center; margin-bottom: 1em; }
nav button { font-size: 1em; padding: .3em .8em; }
#position { min-width: 9em; text-align: center; font-weight: bold; }
main { display: flex; gap: 2em; align-items: flex-start; }
section h2 { font-size: 1.05em; margin: 0 0 .5em; font-weight: normal; }
section pre { background: #f4f4f8; padding: .5em; white-space: pre-wrap; max-width: 60em; }
section svg { max-width: 100%; height: auto; }
#steps { font-size: .9em; max-height: 80vh; overflow-y: auto; padding-left: 0; margin: 0; list-style: none; }
#steps li { cursor: pointer; padding: .1em .3em; }
#steps li.current { background: #fff2b3; font-weight: bold; }
";

const SCRIPT: &str = "
(function () {
  var sections = document.querySelectorAll('section.step');
  var items = document.querySelectorAll('#steps li');
  var n = sections.length, k = 0;
  function show(i) {
    if (n === 0) { return; }
    k = Math.max(0, Math.min(n - 1, i));
    for (var j = 0; j < n; j++) {
      sections[j].hidden = j !== k;
      items[j].className = j === k ? 'current' : '';
    }
    document.getElementById('position').textContent = 'Step ' + (k + 1) + ' of ' + n;
    document.getElementById('prev').disabled = k === 0;
    document.getElementById('first').disabled = k === 0;
    document.getElementById('next').disabled = k === n - 1;
    document.getElementById('last').disabled = k === n - 1;
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(k - 1); };
  document.getElementById('next').onclick = function () { show(k + 1); };
  document.getElementById('last').onclick = function () { show(n - 1); };
  for (var j = 0; j < n; j++) {
    items[j].onclick = (function (i) { return function () { show(i); }; })(j);
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') { show(k + 1); }
    if (e.key === 'ArrowLeft') { show(k - 1); }
  });
  show(0);
})();
";

/// The page: `heading` and `summary` on top, then the steps.
pub fn explain_page(heading: &str, summary: &str, steps: &[HtmlStep<'_>]) -> String {
    let mut h = String::with_capacity(steps.iter().map(|s| s.svg.len() + 512).sum());
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!("<title>{}</title>\n", escape(heading)));
    h.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    h.push_str(&format!("<h1>{}</h1>\n", escape(heading)));
    h.push_str(&format!("<p class=\"summary\">{}</p>\n", escape(summary)));
    h.push_str(concat!(
        "<nav>",
        "<button id=\"first\" type=\"button\">First</button>",
        "<button id=\"prev\" type=\"button\">Previous</button>",
        "<span id=\"position\"></span>",
        "<button id=\"next\" type=\"button\">Next</button>",
        "<button id=\"last\" type=\"button\">Last</button>",
        "</nav>\n<main>\n<div>\n"
    ));
    for (i, s) in steps.iter().enumerate() {
        h.push_str(&format!(
            "<section class=\"step\" id=\"step-{}\"{}>\n<h2>{}</h2>\n",
            i + 1,
            if i == 0 { "" } else { " hidden" },
            escape(s.text)
        ));
        if !s.detail.is_empty() {
            h.push_str("<pre class=\"chain\">");
            h.push_str(&escape(s.detail.join("\n")));
            h.push_str("</pre>\n");
        }
        let svg = String::from_utf8_lossy(s.svg);
        // Inline SVG: the document without its XML declaration.
        let body = match svg.find("<svg") {
            Some(at) => &svg[at..],
            None => &svg[..],
        };
        h.push_str(body);
        h.push_str("</section>\n");
    }
    h.push_str("</div>\n<ol id=\"steps\">\n");
    for s in steps {
        h.push_str(&format!("<li>{}</li>\n", escape(s.text)));
    }
    h.push_str("</ol>\n</main>\n");
    h.push_str(&format!("<script>{SCRIPT}</script>\n</body>\n</html>\n"));
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_every_step_and_its_controls_and_nothing_from_the_network() {
        let svg = b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n";
        let detail = vec!["r1c1=5 -> r1c2<>5".to_string()];
        let steps = [
            HtmlStep {
                text: "1. Hidden single <a>",
                detail: &[],
                svg,
            },
            HtmlStep {
                text: "2. Forcing chain",
                detail: &detail,
                svg,
            },
        ];
        let page = explain_page("Puzzle", "ER 7.1", &steps);
        for id in [
            "first", "prev", "next", "last", "position", "steps", "step-1", "step-2",
        ] {
            assert!(page.contains(&format!("id=\"{id}\"")), "{id}");
        }
        assert!(page.contains("Hidden single &lt;a&gt;"));
        assert!(page.contains("r1c1=5 -&gt; r1c2&lt;&gt;5"));
        assert_eq!(page.matches("<svg").count(), 2);
        assert!(!page.contains("<?xml"));
        assert!(
            !page.contains("http://")
                || !page
                    .replace("http://www.w3.org/2000/svg", "")
                    .contains("http://")
        );
        assert!(!page.contains("https://"));
    }
}
