//! The progress bar: an indicatif bar on stderr with count, rate and ETA, shown only when
//! stderr is a terminal and the run is not quiet.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress reporting for one run (a no-op when disabled).
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

impl Progress {
    /// A bar over `total` bytes (a spinner when the total is unknown), shown only if
    /// `enabled` and stderr is a terminal.
    pub fn new(enabled: bool, total: Option<u64>, what: &'static str) -> Progress {
        let start = Instant::now();
        if !enabled || !std::io::stderr().is_terminal() {
            return Progress { bar: None, start };
        }
        let bar = match total {
            Some(n) => {
                let b = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar());
                b.set_style(style);
                b
            }
            None => {
                let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                b.set_style(style);
                b
            }
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        bar.set_message(format!("0 {what}"));
        Progress {
            bar: Some(bar),
            start,
        }
    }

    /// Updates the bar: `pos` bytes (or items) done, `count` items so far.
    pub fn update(&self, pos: u64, count: u64, what: &str) {
        if let Some(b) = &self.bar {
            b.set_position(pos);
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            b.set_message(format!("{count} {what}, {:.0}/s", count as f64 / secs));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
