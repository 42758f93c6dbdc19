//! Stopping a rating early, once ER cannot rise any more: the rest of the path then changes
//! none of the ratings.
//!
//! With [`Grader::set_shortcut`] (what `solve` does unless it writes a profile), a step
//! that raises ER to 7.2-7.9 is followed by a try to show just that: the board solved by
//! techniques that keep working as candidates go (singles, locked candidates, subsets,
//! fish, wings, and forcing chains of the first chaining level rated no higher than ER),
//! in any order, means every later step of SE's path rates no higher either (the private
//! `Grader::closes_within` says why). The rating then ends there, the same as if it had
//! followed the path to the end. After a step that raises ER to 8.0-9.0, the same try,
//! with multiple forcing chains rated no higher than ER besides, is made once the board
//! has so few candidates that no later hint of the first chaining level or of Nishio can
//! rate above ER (the private `later_bounded`). A try that got stuck is made again, from
//! where it got stuck, after each later step of a technique it does not take
//! ([`taken_by_try`]): only such a step can carry SE's path past that board. It is not
//! made again from the very board where it got stuck (it would get stuck the same way),
//! and its forcing chain search is skipped on a board whose links are all links of a
//! board where that search, within the same ER, found nothing (the private
//! `links_within` says why).

use super::{Grader, Producer, find_in_scope};
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::Digit;
use crate::core::logic::chains::{self, ChainLevel};
use crate::core::logic::{Board, Budget, Technique, Tenths, singles};

/// The ERs (tenths) at which a rating tries to show that the rest of its path rates no
/// higher ([`Grader::closes_within`]), right after a step raised ER to one of them. Below
/// 7.2 most tries fail (a later step rates higher) and cost more than the successes
/// spare; from 8.0 the tries rarely succeed without multiple forcing chains, which they
/// take from [`MULTIPLE_ER`]. On the random minimal puzzles rated 6.6-9.0 this spared 8%
/// of the time (`solve -j1`, 1.088x).
pub(super) const SHORTCUT_ER: std::ops::RangeInclusive<Tenths> = 72..=79;

/// The ERs (tenths) at which a try also takes multiple forcing chains
/// ([`Grader::closes_within`]): once per step raising ER to one of them, at the first
/// board from there where no later first-level or Nishio hint can rate above ER
/// ([`later_bounded`]). Above 9.0 SE's later steps mostly need dynamic forcing chains or
/// more, which the try does not take.
pub(super) const MULTIPLE_ER: std::ops::RangeInclusive<Tenths> = 80..=90;

/// The lowest ER at which a try takes XYZ-wings: one whose cells lose a digit may turn
/// into a forcing chain of six potentials, rated 7.0 plus its length bonus (see
/// [`Grader::closes_within`]).
const XYZ_WING_FROM: Tenths = 72;

/// True when a try at ER `max` ([`Grader::closes_within`]) takes every step of technique
/// `t` that SE's path may take from there (rated `max` or less): singles, the direct
/// forms, the [`CLOSURE`] producers and forcing chains of the first level. Cell and
/// region forcing chains count as not taken: the try takes only some of them (see
/// `closes_within`). A step of any other technique may take the path past where a try
/// got stuck, so the grader tries again after one; after the others there is no point
/// (the try's board already has what they find). Either answer keeps every rating: a try
/// only ever ends a rating that it shows cannot change.
pub(super) fn taken_by_try(t: Technique, max: Tenths) -> bool {
    match t {
        Technique::XyzWing => max >= XYZ_WING_FROM,
        Technique::ForcingXChain | Technique::ForcingChain => true,
        _ => t.base_rating() < Technique::XyzWing.base_rating(),
    }
}

/// The producers a try to end a rating early uses besides singles and forcing chains (see
/// [`Grader::closes_within`]): SE's from plain locking to the XYZ-wing, the cheaper first.
const CLOSURE: &[Producer] = {
    let (_, from_locking) = Producer::SE_ORDER
        .as_slice()
        .split_at(Producer::Locking.index());
    from_locking
        .split_at(Producer::UniqueLoops.index() - Producer::Locking.index())
        .0
};

impl<S: Size> Grader<S> {
    /// True when the board solves by the [`CLOSURE`] producers, singles and forcing
    /// chains of the first chaining level rated `max` or less, applied in any order: then
    /// every later step of SE's path rates `max` or less (`max` being at least
    /// [`SHORTCUT_ER`]'s start, above every producer before the chains).
    ///
    /// Why. What each of those finds on a board, it or singles find again on any board
    /// with fewer candidates that keeps the solution, while what it found is still to
    /// do: a naked, hidden or fish set keeps its cells or lines, or shrinks to a smaller
    /// one; an XY-wing or a forcing chain keeps its links (a cell with two candidates or a
    /// house with two places keeps them while both remain; a potential decided on the way
    /// lets singles finish the chain); SE's breadth-first search from the chain's start
    /// meets a contradiction no later on the board with more links, so it rates the start
    /// no higher; an XYZ-wing whose cells lose a digit becomes an XY-wing, a naked pair or
    /// a forcing chain of six potentials (7.0, so it is used from 7.2). So on every board
    /// of SE's path from here (each has fewer candidates than the one where this
    /// derivation stood at that point) something of rating `max` or less applies, SE's
    /// first producer with a hint comes no later than the first chaining level, and that
    /// level keeps its easiest hint. Cycles, unique loops, BUG and aligned exclusion are
    /// left out: a cycle met on one board may not be the one SE's search meets on the
    /// next, the uniqueness techniques need candidates to stay, and aligned exclusion's
    /// excluders may become chains rated above `max`.
    ///
    /// With `multiple` (only once [`later_bounded`] holds for `max`), it also takes the
    /// first cell forcing chain, or region forcing chain of a digit with two places in
    /// the house, rated `max` or less that the multiple forcing chains' search meets
    /// ([`chains::find_multiple_within`]). Such a hint is static chains from each
    /// candidate of a cell (of three or more) or from both places, all reaching one
    /// potential. On a later board, a chain whose candidates all remain keeps its links,
    /// so SE's search from its start reaches the target no later; a chain with a
    /// candidate gone either leaves a single to place (a cell or house with one candidate
    /// or place), or the target decided, or, undone step by step back to its start, its
    /// start removed: that branch is gone. So the cell gives the hint again, rated no
    /// higher, unless a single applies or it is left with two candidates (cells of two
    /// are not searched at that level). A cell of two, or a house's two places, make a
    /// strong link, and the static links hold both ways: then the target's candidate has
    /// a forcing chain of the first level from itself to its opposite through them. (A
    /// region of three places or more would not do: SE searches it only from its first
    /// place's cell, and only if that cell has three candidates or more, which a later
    /// board may not keep.) And [`later_bounded`] says that any hint of the first level
    /// or of Nishio, the producers SE asks between the first level and multiple forcing
    /// chains besides aligned triple exclusion (7.5), rates `max` or less on every later
    /// board. So SE's first producer with a hint comes no later than multiple forcing
    /// chains, and its easiest hint rates `max` or less.
    ///
    /// A try that gets stuck keeps its board: what it deduced holds on every later board
    /// too, so the next try (after ER rose again) starts from there. Its searches charge
    /// a budget of their own, `limit` units (running out is getting stuck).
    pub(super) fn closes_within(
        &mut self,
        g: &Geometry<S>,
        max: Tenths,
        limit: u64,
        multiple: bool,
    ) -> bool {
        let mut board = self.board;
        if let Some(stuck) = &self.closure {
            for d in Digit::all() {
                for c in stuck.placed(d) - board.placed(d) {
                    board.place(g, c, d);
                }
            }
            for d in Digit::all() {
                board.eliminate_all(d, board.plane(d) - stuck.plane(d));
            }
        }
        // From the very board where the last try got stuck, within the same ER, a try
        // taking no more than that one did gets stuck again, the same way.
        if self.closure == Some(board)
            && self
                .closure_at
                .is_some_and(|(at, with_multiple)| at == max && (with_multiple || !multiple))
        {
            return false;
        }
        let mut budget = Budget::new(limit).with_cancel(self.cancel);
        let mut step = self.step;
        loop {
            if board.is_solved() {
                return true;
            }
            let found = budget.charge(Producer::HiddenSingle.cost())
                && (singles::find_hidden_single(g, &board, &mut step)
                    || singles::find_naked_single(&board, &mut step)
                    || CLOSURE.iter().any(|&p| {
                        if p == Producer::XyzWing && max < XYZ_WING_FROM {
                            return false;
                        }
                        if !budget.charge(p.cost()) {
                            return false;
                        }
                        let since = &mut self.closure_scratch.since[p.index()];
                        let scope = since.scope(g, &board);
                        let found = find_in_scope(g, &board, p, &scope, &mut step);
                        if !found {
                            since.record(&board);
                        }
                        found
                    })
                    || !self
                        .chains_quiet
                        .is_some_and(|(quiet, at)| at == max && links_within(g, &quiet, &board))
                        && {
                            // Up to four chains of one search, taken at once.
                            let found = chains::find_forcing_chain_within(
                                g,
                                &board,
                                max,
                                &mut self.chains,
                                &mut budget,
                                &mut step,
                            );
                            if !found && !budget.exhausted() {
                                self.chains_quiet = Some((board, max));
                            }
                            found
                        }
                    || (multiple
                        && chains::find_multiple_within(
                            g,
                            &board,
                            max,
                            &mut self.chains,
                            &mut budget,
                            &mut step,
                        )));
            if !found || !board.changed_by(&step) || !self.consistent(&step) {
                self.closure = Some(board);
                self.closure_at = (!budget.exhausted()).then_some((max, multiple));
                return false;
            }
            board.apply(g, &step);
        }
    }
}

/// True when every static link of `board` is one of `quiet`'s, `board` having no
/// candidate `quiet` lacks: then no forcing chain of the first level on `board` is
/// shorter than one on `quiet` (each is a path of implications of `quiet` too, and SE's
/// breadth-first search meets a chain's contradiction at its shortest length), so a
/// search of `quiet` that found none rated `max` or less vouches for `board`. A weak link
/// (two candidates that see each other) holds on every board that keeps both; a strong
/// one (a cell's two candidates, a house's two places of a digit) is new only where a
/// cell or a house went from three candidates or places or more down to two.
fn links_within<S: Size>(g: &Geometry<S>, quiet: &Board<S>, board: &Board<S>) -> bool {
    let mut changed = S::Set::EMPTY;
    for d in Digit::all() {
        let (q, b) = (quiet.plane(d), board.plane(d));
        if !(b - q).is_empty() {
            return false;
        }
        let gone = q - b;
        changed |= gone;
        for c in gone {
            for &h in g.cell_houses(c).ids() {
                let house = g.house_set(usize::from(h));
                if (q & house).len() >= 3 && (b & house).len() == 2 {
                    return false;
                }
            }
        }
    }
    changed
        .into_iter()
        .all(|c| quiet.candidates(c).len() < 3 || board.candidates(c).len() != 2)
}

/// True when no hint of the first chaining level or of Nishio, on `board` or on any board
/// with fewer candidates, can rate above `max`. A chain's potentials are distinct, a
/// candidate "on" or "off": the first level's chains and cycles (forcing chains and
/// bidirectional cycles rate highest, 7.0, plus the
/// length bonus of the complexity less 2) have at most twice as many as the board has
/// candidates. Nishio's runs follow one digit and meet their contradiction at the first
/// potential whose opposite they hold, so each of its two chains holds each candidate of
/// the digit at most once, plus that potential (7.5 plus the bonus).
pub(super) fn later_bounded<S: Size>(board: &Board<S>, max: Tenths) -> bool {
    use crate::core::logic::length_bonus;
    let (mut n, mut m) = (0, 0);
    for d in Digit::all() {
        let k = board.plane(d).len();
        n += k;
        m = m.max(k);
    }
    let first = Technique::ForcingChain.base_rating() + length_bonus(2 * n);
    let nishio = ChainLevel::Nishio.base_rating() + length_bonus(2 * m + 2);
    first <= max && nishio <= max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::Cell;
    use crate::core::logic::chains::ChainScratch;
    use crate::core::logic::testutil::{cg, er8_paths, random_minimal};
    use crate::core::logic::{Budget, Step};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// True when the first chaining level has a forcing chain rated `max` or less on
    /// `board`; None when the search ran out of budget.
    fn has_chain(board: &Board, max: Tenths, scratch: &mut ChainScratch) -> Option<bool> {
        let mut budget = Budget::new(50_000_000);
        let mut step = Step::default();
        let found =
            chains::find_forcing_chain_within(cg(), board, max, scratch, &mut budget, &mut step);
        (found || !budget.exhausted()).then_some(found)
    }

    #[test]
    fn a_board_within_the_links_of_one_without_forcing_chains_has_none() {
        // The boards of SE's paths on puzzles rated 8.0-9.0, and those boards less random
        // candidates the solution does not hold.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        let mut scratch = ChainScratch::new();
        let (mut quiet_boards, mut vouched, mut new_links, mut found_anew) = (0, 0, 0, 0);
        for (line, sol, boards) in er8_paths(12) {
            for quiet in boards {
                let max = 75;
                if quiet.is_solved() || has_chain(&quiet, max, &mut scratch) != Some(false) {
                    continue;
                }
                quiet_boards += 1;
                for k in 1..=6 {
                    let mut board = quiet;
                    for _ in 0..k {
                        let c = Cell::from_index(rng.random_range(0..81));
                        let keep = sol.digit(c);
                        let cands = board.candidates(c);
                        if let Some(d) = cands.iter().find(|&d| Some(d) != keep)
                            && cands.len() > 2
                        {
                            board.eliminate(c, d);
                        }
                    }
                    if !links_within(cg(), &quiet, &board) {
                        new_links += 1;
                        // A new link can make a chain: the test could tell a wrong vouch.
                        found_anew +=
                            usize::from(has_chain(&board, max, &mut scratch) == Some(true));
                        continue;
                    }
                    assert_eq!(has_chain(&board, max, &mut scratch), Some(false), "{line}");
                    vouched += 1;
                }
            }
        }
        // 288, 1,402, 326 and 265 when this was written.
        assert!(
            quiet_boards >= 200 && vouched >= 1000 && new_links >= 200 && found_anew >= 100,
            "{quiet_boards} {vouched} {new_links} {found_anew}"
        );
    }

    #[test]
    fn links_within_sees_a_new_strong_link() {
        let (_, start) = random_minimal(1)[0];
        assert!(links_within(cg(), &start, &start));
        // A cell of three candidates left with two makes a new link; one of four left
        // with three does not, nor does a house's place of a digit with four places left.
        let mut three = None;
        let mut four = None;
        for c in start.empty() {
            match start.candidates(c).len() {
                3 if three.is_none() => three = Some(c),
                n if n >= 4 && four.is_none() => four = Some(c),
                _ => {}
            }
        }
        let (three, four) = (three.unwrap(), four.unwrap());
        let mut b = start;
        b.eliminate(three, start.candidates(three).first().unwrap());
        assert!(!links_within(cg(), &start, &b));
        let mut b = start;
        let d = start.candidates(four).first().unwrap();
        b.eliminate(four, d);
        let crowded = cg()
            .cell_houses(four)
            .ids()
            .iter()
            .all(|&h| (start.plane(d) & cg().house_set(usize::from(h))).len() >= 4);
        assert_eq!(links_within(cg(), &start, &b), crowded);
        // A candidate the quiet board lacks is never within it.
        assert!(!links_within(cg(), &b, &start));
    }
}
