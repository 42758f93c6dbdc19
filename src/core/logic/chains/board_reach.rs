//! What the first chaining level read on a board where it found nothing, so that the
//! searches on grids derived from that board (nested searches, the next step) can skip the
//! candidates whose search would read the same again.
//!
//! A nested forcing chain of level 2 or 3 runs SE's first chaining level (cycles and
//! forcing chains, [`super::cycles`]) on its own grid: the step's board minus what the
//! chain removed so far. The step only reaches a nested level when that first level found
//! nothing on the board itself. The static search from a candidate reads, on each of its
//! three passes, the links of the potentials it reaches: the "off" potentials each "on"
//! one implies (the cell's other candidates, the digit's places among the cell's peers)
//! and the "on" potentials each "off" one implies (its cell or a house left with one other
//! place). If, on the chain's grid, none of the candidates the board's search from that
//! candidate reached has different links (a removed candidate counts as changed when it
//! had links on the board: one that had none was a leaf that nothing went through), the
//! search on the chain's grid takes the very same steps and meets the very same
//! potentials, so it offers nothing either: the nested search skips it. The forcing chains
//! from "off", found through the partners' distances, lose nothing: a skipped partner
//! reaches the candidate on the chain's grid only if it did on the board, where the first
//! level would then have found that chain.
//!
//! The same holds from one step to the next: the next board is this one less some
//! candidates, so the nested searches' own recording search on the next step's board
//! skips, pass by pass, the starts of every pass that found nothing in full on the board
//! before, and records the new board as it goes. (The grader's own first-level search,
//! keeping the best hint, does not record: most boards it searches differ from the one
//! before by a single candidate, yet its reads span most of the board, so that on the
//! random minimal puzzles rated 6.6-9.0 and on the forum's hardest, recording every one
//! of its searches let fewer than one start in 200 be skipped, and cost 2-4% of the time
//! on the former.)
//!
//! A pass that found something still vouches for single starts: each start's record says
//! whether its search found anything. A recording search collects every hint, so it
//! looks without bounds (a search keeping the best hint, whose starts look only as far as
//! the best so far, does not record). On the next board, a start that read nothing
//! changed and found nothing finds nothing again ([`BoardReach::found_nothing`]); it met
//! no link partner's "on" either (with X-links, the search would have gone on from there
//! to the start's "off", a chain), so it leaves no partner distance to the chains from
//! "off". A record lasts as long as what it read: a start met
//! again is searched anew (and recorded) unless it is skipped this way, a start left out
//! is dropped, and a pass the search leaves out (a step found before it) keeps no records.
//!
//! So the hints, their order and the ratings stay exactly Sudoku Explainer's. What is
//! recorded belongs to one board ([`BoardReach::is_for`]), per pass (the nested searches
//! skip only in the passes that found nothing); they record again, with one full
//! first-level search, when they move to a board that did not come from it.

use std::sync::atomic::{AtomicU64, Ordering};

use super::potentials::{Cands, Links, cand_count, cand_of};
use crate::core::geometry::{CandBits, CellBits, Geometry, Size};

/// A board's links of one pass, a number naming that copy of them (no other copy kept
/// by any search has it), its candidates whose "off" implies nothing, and the candidates
/// whose links changed since.
pub(crate) type BoardLinks<'a, S> = (
    &'a Links,
    u64,
    &'a [<S as Size>::Set; 9],
    &'a [<S as Size>::Set; 9],
);

/// The number of the last copy of a board's links kept, by any search.
static LINKS_KEPT: AtomicU64 = AtomicU64::new(0);

/// The first chaining level's reach on one board: per pass, what the search from each
/// starting candidate read.
#[derive(Clone, Debug)]
pub(crate) struct BoardReach<S: Size> {
    /// The board's candidate planes, once something is recorded for it.
    board: Option<[S::Set; 9]>,
    /// Per pass: true when that pass of the first level found nothing on the board (what
    /// is recorded of it can then vouch for a skipped search).
    quiet: [bool; 3],
    /// Per pass: whether the recording search's pass found nothing.
    quiet_now: [bool; 3],
    /// True while a search records (the grid searched becomes the board).
    record: bool,
    /// Per pass: true while a search skips the starts recorded as unchanged.
    skip: [bool; 3],
    /// Per pass and starting candidate: the candidates its search read, per digit.
    read: [Vec<[S::Set; 9]>; 3],
    /// Per pass and candidate: whether its search's read set is recorded.
    started: [Vec<bool>; 3],
    /// Per pass and candidate, when `started`: whether its search found a chain or a
    /// cycle that removes something (offered or not; a cycle removing nothing is never
    /// offered, and meets the same candidates again while what the search read holds).
    found: [Vec<bool>; 3],
    /// Per pass: true when the board's recording search ran that pass, so what is
    /// recorded of it is the board's (a pass it left out keeps older records).
    ran: [bool; 3],
    /// Per pass, while recording: true when the pass started.
    ran_now: [bool; 3],
    /// True while a recording search runs on a grid that came from the board.
    from: bool,
    /// The current pass's changed candidates (skipping searches).
    changed: [S::Set; 9],
    /// Per pass, when kept: the board's links, the number of that copy and its
    /// candidates whose "off" implies nothing, so that a search skipping starts works out
    /// only the changed links.
    links: Vec<(Links, u64, [S::Set; 9])>,
    /// Whether `links` holds the board's, per pass.
    links_kept: [bool; 3],
    /// Whether the recording search kept its links, per pass.
    kept_now: [bool; 3],
    /// Per pass: the index of `read` turned around (for each candidate, the starts whose
    /// search read it), built once the board's reads serve a second search, when valid.
    readers: [Vec<S::Cands>; 3],
    readers_valid: [bool; 3],
    /// Per pass: the searches that asked what is unchanged since the board was recorded.
    uses: [u32; 3],
    /// With `readers`, for the pass under way: the starts whose search read a candidate
    /// that changed since the board.
    affected: S::Cands,
    /// True when `affected` (and `recorded`) tell what is unchanged in the pass under way.
    use_affected: bool,
    /// Per pass, with `readers`: the starts whose read set is recorded.
    recorded: [S::Cands; 3],
}

impl<S: Size> BoardReach<S> {
    /// Nothing recorded yet; `keep_links`: the board's links are kept too (for searches
    /// that skip on the same board many times).
    pub(crate) fn new(keep_links: bool) -> BoardReach<S> {
        let n = cand_count::<S>();
        BoardReach {
            board: None,
            quiet: [false; 3],
            quiet_now: [false; 3],
            record: false,
            skip: [false; 3],
            read: [(); 3].map(|_| vec![[S::Set::EMPTY; 9]; n]),
            started: [vec![false; n], vec![false; n], vec![false; n]],
            found: [(); 3].map(|_| vec![true; n]),
            ran: [false; 3],
            ran_now: [false; 3],
            from: false,
            changed: [S::Set::EMPTY; 9],
            links: if keep_links {
                (0..3)
                    .map(|_| (Links::new(n), 0, [S::Set::EMPTY; 9]))
                    .collect()
            } else {
                Vec::new()
            },
            links_kept: [false; 3],
            kept_now: [false; 3],
            readers: [(); 3].map(|_| Vec::new()),
            readers_valid: [false; 3],
            uses: [0; 3],
            affected: S::Cands::NONE,
            use_affected: false,
            recorded: [S::Cands::NONE; 3],
        }
    }

    /// The board's links of pass `pass`, its candidates without links and the changed
    /// candidates, when kept and the search skips.
    pub(crate) fn board_links(&self, pass: usize) -> Option<BoardLinks<'_, S>> {
        let (links, number, dead) = self
            .links
            .get(pass)
            .filter(|_| self.skip[pass] && self.links_kept[pass])?;
        Some((links, *number, dead, &self.changed))
    }

    /// Keeps the links of pass `pass` of the grid searched (recording, when links are
    /// kept).
    pub(crate) fn keep_links(&mut self, pass: usize, links: &Links, dead: &[S::Set; 9]) {
        if self.record
            && let Some(k) = self.links.get_mut(pass)
        {
            k.0.copy_from(links);
            k.1 = LINKS_KEPT.fetch_add(1, Ordering::Relaxed) + 1;
            k.2 = *dead;
            self.kept_now[pass] = true;
        }
    }

    /// True when what is recorded is for board `src`.
    pub(crate) fn is_for(&self, src: &Cands<S>) -> bool {
        self.board == Some(src.planes)
    }

    /// Sets up a search on `cur`: it skips what the board recorded vouches for (when `cur`
    /// is the board less some candidates, in the passes that were quiet), and with
    /// `record` it records what it reads, for `cur` to become the board.
    pub(crate) fn begin(&mut self, cur: &Cands<S>, record: bool) {
        let from = self.board.is_some_and(|b| came_from(cur, &b));
        self.skip = self.quiet.map(|q| q && from);
        self.record = record;
        self.from = record && from;
        self.use_affected = false;
        if record {
            // The read sets change: the index of them is built again when needed.
            self.readers_valid = [false; 3];
            self.uses = [0; 3];
            // The links kept are the old board's until the search ends.
            self.kept_now = [false; 3];
            self.quiet_now = [false; 3];
            self.ran_now = [false; 3];
            // A start's record stays while what it read is unchanged (checked when it is
            // met again): only a grid from the board, on a pass the board's search ran.
            for (started, ran) in self.started.iter_mut().zip(self.ran) {
                if !(from && ran) {
                    started.iter_mut().for_each(|s| *s = false);
                }
            }
        }
    }

    /// Notes, when recording, whether pass `pass` found nothing (in full).
    pub(crate) fn pass_end(&mut self, pass: usize, found_nothing: bool) {
        if self.record {
            self.quiet_now[pass] = found_nothing;
        }
    }

    /// Ends the search on `cur`.
    pub(crate) fn end(&mut self, cur: &Cands<S>) {
        if self.record {
            self.board = Some(cur.planes);
            self.quiet = self.quiet_now;
            self.links_kept = self.kept_now;
            self.ran = self.ran_now;
        }
        self.record = false;
        self.from = false;
        self.skip = [false; 3];
    }

    /// Forgets the board (a new puzzle, or the recording search was cut short).
    pub(crate) fn forget(&mut self) {
        self.links_kept = [false; 3];
        self.board = None;
        self.quiet = [false; 3];
        self.ran = [false; 3];
        self.record = false;
        self.from = false;
        self.skip = [false; 3];
    }

    /// Called at the start of each pass (`y`, `x`: its links) on the grid searched, `cur`:
    /// when skipping, notes which candidates have other links on `cur` than on the board
    /// ([`changed_links`]; a removed candidate without links was a leaf nothing went
    /// through).
    pub(crate) fn pass_start(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        pass: usize,
        y: bool,
        x: bool,
    ) {
        self.use_affected = false;
        if self.record {
            self.ran_now[pass] = true;
        }
        if let Some(board) = self.board.filter(|_| self.skip[pass] || self.from) {
            self.changed = changed_links(g, &board, cur, y, x);
            if self.record {
                return;
            }
            // Searches that do not record read the recorded sets many times over (the
            // nested ones, hundreds of times per board): from the second on, the starts
            // that read a changed candidate come from the index of who read what.
            self.uses[pass] = self.uses[pass].saturating_add(1);
            if !self.readers_valid[pass] && self.uses[pass] < 2 {
                return;
            }
            if !self.readers_valid[pass] {
                self.index_readers(pass);
            }
            let mut affected = S::Cands::NONE;
            for (d, ch) in self.changed.iter().enumerate() {
                for cell in *ch {
                    affected.union_with(&self.readers[pass][usize::from(cand_of(cell.index(), d))]);
                }
            }
            self.affected = affected;
            self.use_affected = true;
        }
    }

    /// Builds the index of pass `pass`'s read sets: for each candidate, the starts whose
    /// search read it.
    fn index_readers(&mut self, pass: usize) {
        let n = cand_count::<S>();
        let readers = &mut self.readers[pass];
        readers.clear();
        readers.resize(n, S::Cands::NONE);
        let mut recorded = S::Cands::NONE;
        for (s, read) in self.read[pass].iter().enumerate() {
            if !self.started[pass][s] {
                continue;
            }
            recorded.set(s as u16);
            for (d, r) in read.iter().enumerate() {
                for cell in *r {
                    readers[usize::from(cand_of(cell.index(), d))].set(s as u16);
                }
            }
        }
        self.recorded[pass] = recorded;
        self.readers_valid[pass] = true;
    }

    /// True while recording.
    #[inline]
    pub(crate) fn recording(&self) -> bool {
        self.record
    }

    /// Records what the search from `start` read on pass `pass`, and whether it found
    /// anything.
    pub(crate) fn record_read(&mut self, pass: usize, start: u16, read: &[S::Set; 9], found: bool) {
        self.read[pass][usize::from(start)] = *read;
        self.started[pass][usize::from(start)] = true;
        self.found[pass][usize::from(start)] = found;
    }

    /// Recording on a grid that came from the board: true when the search from `start` on
    /// pass `pass` read only candidates whose links are the board's and found nothing
    /// there (searching without bounds, as a recording search does): it would take the
    /// same steps again and find nothing (its record stays, true of the grid too).
    #[inline]
    pub(crate) fn found_nothing(&self, pass: usize, start: u16) -> bool {
        let s = usize::from(start);
        self.from
            && self.started[pass][s]
            && !self.found[pass][s]
            && self.read_none_changed(pass, s)
    }

    /// Forgets what the search from `start` read on pass `pass` (it was not searched on
    /// the grid that becomes the board).
    pub(crate) fn drop_read(&mut self, pass: usize, start: u16) {
        if self.record {
            self.started[pass][usize::from(start)] = false;
        }
    }

    /// True when the search from `start` on pass `pass` is skipped: it reads only
    /// candidates whose links are those of the board (see [`BoardReach::pass_start`]), so
    /// it finds nothing, and its read set stays what it was.
    #[inline]
    pub(crate) fn unchanged(&self, pass: usize, start: u16) -> bool {
        if self.use_affected {
            return self.skip[pass] && self.recorded[pass].has(start) && !self.affected.has(start);
        }
        self.reads_unchanged(pass, start)
    }

    /// [`BoardReach::unchanged`], from the read set of `start` itself.
    #[inline]
    fn reads_unchanged(&self, pass: usize, start: u16) -> bool {
        let s = usize::from(start);
        self.skip[pass] && self.started[pass][s] && self.read_none_changed(pass, s)
    }

    /// True when what the search from start `s` read on pass `pass` holds no candidate of
    /// `changed`.
    #[inline]
    fn read_none_changed(&self, pass: usize, s: usize) -> bool {
        self.read[pass][s]
            .iter()
            .zip(&self.changed)
            .all(|(r, c)| (*r & *c).is_empty())
    }
}

/// True when `cur` is `board` less some candidates (or `board` itself).
pub(crate) fn came_from<S: Size>(cur: &Cands<S>, board: &[S::Set; 9]) -> bool {
    board
        .iter()
        .zip(&cur.planes)
        .all(|(b, c)| (*c - *b).is_empty())
}

/// The candidates of `board` whose static links (`y`: Y-links, `x`: X-links) differ on
/// `cur` (the board less some candidates), as a superset, per digit. A static link (SE
/// `getOffToOn` on a grid that does not change) is a cell of two candidates (Y) or a house
/// with two places for the digit (X), so a candidate's links change only where a candidate
/// was removed: in that cell, when it had or has two candidates, and in each of its
/// houses, for the removed digit, when the house had or has two places for it. A removed
/// candidate counts when it had links.
pub(crate) fn changed_links<S: Size>(
    g: &Geometry<S>,
    board: &[S::Set; 9],
    cur: &Cands<S>,
    y: bool,
    x: bool,
) -> [S::Set; 9] {
    let mut changed = [S::Set::EMPTY; 9];
    for d in 0..9 {
        for cell in board[d] - cur.planes[d] {
            if y {
                let before = board.iter().filter(|p| p.contains(cell)).count();
                let now = cur.cells[cell.index()];
                if before == 2 || now.len() == 2 {
                    for e in now {
                        changed[e.index()].insert(cell);
                    }
                }
                if before == 2 {
                    changed[d].insert(cell);
                }
            }
            if x {
                for &h in g.cell_houses(cell).ids() {
                    let hs = g.house_set(usize::from(h));
                    let now = cur.planes[d] & hs;
                    let before = (board[d] & hs).len();
                    if before == 2 || now.len() == 2 {
                        changed[d] |= now;
                    }
                    if before == 2 {
                        changed[d].insert(cell);
                    }
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::CellSet;
    use crate::core::geometry::S81;
    use crate::core::index::Cell;
    use crate::core::logic::chains::potentials::Links;
    use crate::core::logic::testutil::{board_from_line, cg, thinned};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn the_index_of_who_read_what_skips_what_the_read_sets_skip() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let board = board_from_line(line);
        let b = Cands::from_board(cg(), &board);
        let n = cand_count::<S81>();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut reach = BoardReach::<S81>::new(false);
        reach.board = Some(b.planes);
        reach.quiet = [true; 3];
        for pass in 0..3 {
            for s in 0..n {
                if rng.random_range(0..10) < 3 {
                    continue;
                }
                for (d, r) in reach.read[pass][s].iter_mut().enumerate() {
                    *r = CellSet::EMPTY;
                    for cell in b.planes[d] {
                        if rng.random_range(0..40) == 0 {
                            r.insert(cell);
                        }
                    }
                }
                reach.started[pass][s] = true;
            }
        }
        let (mut kept, mut searched) = (0, 0);
        for _ in 0..40 {
            let next = thinned(&board, rng.random_range(1..6), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            reach.begin(&cur, false);
            for (pass, (y, x)) in [(false, true), (true, false), (true, true)]
                .into_iter()
                .enumerate()
            {
                for _ in 0..2 {
                    reach.pass_start(cg(), &cur, pass, y, x);
                }
                assert!(reach.use_affected, "the second search uses the index");
                for s in 0..n as u16 {
                    let plain = reach.reads_unchanged(pass, s);
                    assert_eq!(reach.unchanged(pass, s), plain, "pass {pass}, start {s}");
                    if plain {
                        kept += 1;
                    } else {
                        searched += 1;
                    }
                }
            }
        }
        assert!(
            kept > 1000 && searched > 1000,
            "{kept} skipped, {searched} searched"
        );
    }

    #[test]
    fn every_candidate_whose_links_change_is_noted() {
        // A puzzle rated 9.x (many cells of two and three candidates after the givens).
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let board = board_from_line(line);
        let b = Cands::from_board(cg(), &board);
        let n = cand_count::<S81>();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut before, mut after) = (Links::new(n), Links::new(n));
        let mut noted = 0;
        for _ in 0..300 {
            // The board less a few random candidates.
            let next = thinned(&board, rng.random_range(1..8), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            for (pass, (y, x)) in [(false, true), (true, false), (true, true)]
                .into_iter()
                .enumerate()
            {
                let mut reach = BoardReach::<S81>::new(false);
                reach.board = Some(b.planes);
                reach.quiet = [true; 3];
                reach.begin(&cur, false);
                reach.pass_start(cg(), &cur, pass, y, x);
                before.build(cg(), &b, y, x);
                after.build(cg(), &cur, y, x);
                for c in 0..81 {
                    for d in b.cells[c] {
                        let q = (c * 9 + d.index()) as u16;
                        let (u, v) = (before.get(q), after.get(q));
                        let same = u.len() == v.len()
                            && u.iter()
                                .zip(v)
                                .all(|(s, t)| (s.cand, s.cause) == (t.cand, t.cause));
                        let marked = reach.changed[d.index()].contains(Cell::from_index(c));
                        assert!(
                            same || marked,
                            "pass {pass}: r{}c{} {d}",
                            c / 9 + 1,
                            c % 9 + 1
                        );
                        noted += usize::from(marked);
                    }
                }
                // A start is skipped while what it read holds no changed candidate.
                let mut read = [<S81 as Size>::Set::EMPTY; 9];
                for ((r, p), c) in read.iter_mut().zip(&b.planes).zip(&reach.changed) {
                    *r = *p - *c;
                }
                reach.started[pass][0] = true;
                reach.read[pass] = vec![read; n];
                assert!(reach.unchanged(pass, 0));
                if let Some(d) = (0..9).find(|&d| !reach.changed[d].is_empty()) {
                    let first = reach.changed[d].into_iter().next().unwrap();
                    reach.read[pass][0][d].insert(first);
                    assert!(!reach.unchanged(pass, 0));
                }
            }
        }
        assert!(noted > 0);
    }
}
