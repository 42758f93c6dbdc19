//! A request to stop long work early ([`Cancel`]), shared between whoever asks (the
//! binary's SIGINT/SIGTERM handler) and the searches that look at it: the grader's budget,
//! the solvers' guess loops and the generators' candidate loops.
//!
//! Looking costs one relaxed atomic load, and the searches look only every few thousand
//! units of work, so a token that is never set changes neither results nor speed. Work
//! that stops because of a request is unfinished: callers throw its result away.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exact solvers look at their token once every this many guesses (a fraction of a
/// millisecond of search).
pub const GUESSES_PER_CHECK: u64 = 1 << 12;

/// A cheap, copyable handle on a stop flag; [`Cancel::NEVER`] is never set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cancel(Option<&'static AtomicBool>);

impl Cancel {
    /// A token that is never set.
    pub const NEVER: Cancel = Cancel(None);

    /// A token set when `flag` is. The token keeps the flag alive for the rest of the
    /// process (one small allocation per call: make one per run, not per puzzle), which is
    /// what lets it be `Copy` and free of lifetimes in the hot loops.
    pub fn from_flag(flag: &Arc<AtomicBool>) -> Cancel {
        let kept: &'static Arc<AtomicBool> = Box::leak(Box::new(Arc::clone(flag)));
        Cancel(Some(&**kept))
    }

    /// True once a stop was requested.
    #[inline]
    pub fn requested(self) -> bool {
        self.0.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// True when `guesses` is a multiple of [`GUESSES_PER_CHECK`] and a stop was requested:
    /// the test a solver makes right after counting a guess.
    #[inline]
    pub fn requested_at(self, guesses: u64) -> bool {
        guesses.is_multiple_of(GUESSES_PER_CHECK) && self.requested()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_follows_its_flag() {
        let flag = Arc::new(AtomicBool::new(false));
        let c = Cancel::from_flag(&flag);
        assert!(!c.requested() && !Cancel::NEVER.requested());
        flag.store(true, Ordering::Relaxed);
        assert!(c.requested() && !Cancel::NEVER.requested());
    }
}
