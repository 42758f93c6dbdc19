//! Technique profiles: which techniques a grading path used and how many steps of each
//! ([`Profile`]), sets of techniques ([`TechniqueSet`]), the names users give them
//! ([`parse_techniques`]), and conditions on a rating's techniques for generation
//! ([`TechniqueTarget`]).
//!
//! A profile is counted by the grader as it applies steps (one add per step, no
//! allocation), so it always agrees with the steps `explain` prints for the same puzzle and
//! budget. Techniques that share a name ("Hidden single" in a box rates 1.2, in a line 1.5)
//! are one entry when written out, in Sudoku Explainer's order (by base rating).

use std::fmt;

use super::generator::ErRange;
use super::grader::Rating;
use super::logic::{Technique, Tenths};

/// Number of [`Technique`]s.
pub const TECHNIQUES: usize = Technique::ALL.len();

const _: () = assert!(TECHNIQUES <= 64, "a TechniqueSet is one u64");

impl Technique {
    /// The position of this technique in [`Technique::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The index in [`Technique::ALL`] of the first technique with this one's name (the
    /// hidden singles in a box and in a line share one): where a profile written out, or
    /// a per-name total, counts it. Techniques sharing a name are neighbours in `ALL`.
    pub fn name_index(self) -> usize {
        let mut i = self.index();
        while i > 0 && Technique::ALL[i - 1].name() == self.name() {
            i -= 1;
        }
        i
    }

    /// True when SE adds a bonus to the base rating of some steps of this technique (loop
    /// size, subset size, chain length), so a step can rate above
    /// [`Technique::base_rating`].
    pub const fn has_bonus(self) -> bool {
        use Technique as T;
        matches!(
            self,
            T::UniqueRectangle3
                | T::UniqueLoop1
                | T::UniqueLoop2
                | T::UniqueLoop3
                | T::UniqueLoop4
                | T::BugType3
        ) || self.base_rating() >= T::XCycle.base_rating()
            && !matches!(self, T::AlignedTripleExclusion)
    }
}

/// Steps per technique on one grading path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    counts: [u16; TECHNIQUES],
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            counts: [0; TECHNIQUES],
        }
    }
}

/// One entry of a written profile: a technique name and its steps.
pub type NamedCount = (&'static str, u32);

impl Profile {
    /// Counts one step of `t`.
    #[inline]
    pub fn add(&mut self, t: Technique) {
        let c = &mut self.counts[t.index()];
        *c = c.saturating_add(1);
    }

    /// Steps of `t`.
    pub fn count(&self, t: Technique) -> u32 {
        u32::from(self.counts[t.index()])
    }

    /// All steps.
    pub fn steps(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// The techniques with at least one step.
    pub fn used(&self) -> TechniqueSet {
        let mut s = TechniqueSet::EMPTY;
        for (i, &c) in self.counts.iter().enumerate() {
            if c > 0 {
                s.0 |= 1 << i;
            }
        }
        s
    }

    /// The profile as it is written out: `(name, steps)` for every name with steps, in SE's
    /// order, techniques sharing a name added together. Fills `out` from the start and
    /// returns the number of entries.
    pub fn named(&self, out: &mut [NamedCount; TECHNIQUES]) -> usize {
        let mut n = 0;
        for (t, &c) in Technique::ALL.iter().zip(&self.counts) {
            if c == 0 {
                continue;
            }
            // Techniques sharing a name are neighbours in `ALL` (tested below).
            if n > 0 && out[n - 1].0 == t.name() {
                out[n - 1].1 += u32::from(c);
            } else {
                out[n] = (t.name(), u32::from(c));
                n += 1;
            }
        }
        n
    }
}

/// A set of techniques.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TechniqueSet(u64);

impl TechniqueSet {
    /// No technique.
    pub const EMPTY: TechniqueSet = TechniqueSet(0);

    /// The set of one technique.
    pub const fn single(t: Technique) -> TechniqueSet {
        TechniqueSet(1 << t.index())
    }

    /// Adds `t`.
    pub fn insert(&mut self, t: Technique) {
        self.0 |= 1 << t.index();
    }

    /// True when `t` is in the set.
    pub fn contains(self, t: Technique) -> bool {
        self.0 & (1 << t.index()) != 0
    }

    /// True when no technique is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the sets share a technique.
    pub fn intersects(self, o: TechniqueSet) -> bool {
        self.0 & o.0 != 0
    }

    /// The techniques in the set, in SE's order.
    pub fn iter(self) -> impl Iterator<Item = Technique> {
        Technique::ALL
            .iter()
            .copied()
            .filter(move |&t| self.contains(t))
    }

    /// The smallest base rating in the set (`None` for the empty set).
    pub fn min_base(self) -> Option<Tenths> {
        self.iter().map(Technique::base_rating).min()
    }

    /// The largest base rating in the set (`None` for the empty set).
    pub fn max_base(self) -> Option<Tenths> {
        self.iter().map(Technique::base_rating).max()
    }

    /// The largest rating a step of these techniques can have, or `None` when one of them
    /// has bonuses (its steps can rate higher than its base).
    pub fn max_rating(self) -> Option<Tenths> {
        if self.iter().any(Technique::has_bonus) {
            None
        } else {
            self.max_base()
        }
    }

    /// The names in the set, in SE's order, each once, joined by `sep`.
    pub fn names(self, sep: &str) -> String {
        let mut names: Vec<&str> = Vec::new();
        for t in self.iter() {
            if names.last() != Some(&t.name()) {
                names.push(t.name());
            }
        }
        names.join(sep)
    }
}

/// Short forms accepted besides the names `explain` prints, with the techniques each
/// stands for (a family name stands for all of its types).
const ALIASES: &[(&str, &[Technique])] = {
    use Technique as T;
    &[
        ("lc1", &[T::Pointing]),
        ("lc2", &[T::Claiming]),
        ("locked-candidates", &[T::Pointing, T::Claiming]),
        ("ur1", &[T::UniqueRectangle1]),
        ("ur2", &[T::UniqueRectangle2]),
        ("ur3", &[T::UniqueRectangle3]),
        ("ur4", &[T::UniqueRectangle4]),
        (
            "ur",
            &[
                T::UniqueRectangle1,
                T::UniqueRectangle2,
                T::UniqueRectangle3,
                T::UniqueRectangle4,
            ],
        ),
        ("ul1", &[T::UniqueLoop1]),
        ("ul2", &[T::UniqueLoop2]),
        ("ul3", &[T::UniqueLoop3]),
        ("ul4", &[T::UniqueLoop4]),
        (
            "ul",
            &[
                T::UniqueLoop1,
                T::UniqueLoop2,
                T::UniqueLoop3,
                T::UniqueLoop4,
            ],
        ),
        ("bug1", &[T::BugType1]),
        ("bug2", &[T::BugType2]),
        ("bug3", &[T::BugType3]),
        ("bug4", &[T::BugType4]),
        ("bug", &[T::BugType1, T::BugType2, T::BugType3, T::BugType4]),
        ("ape", &[T::AlignedPairExclusion]),
        ("ate", &[T::AlignedTripleExclusion]),
        ("x-cycle", &[T::XCycle]),
        ("y-cycle", &[T::YCycle]),
        ("x-chain", &[T::ForcingXChain]),
        ("nishio", &[T::NishioForcingChain]),
        ("cfc", &[T::CellForcingChain]),
        ("rfc", &[T::RegionForcingChain]),
        ("dfc", &[T::DynamicForcingChain]),
        ("dfc+", &[T::DynamicForcingChainPlus]),
        ("nfc2", &[T::NestedForcingChain2]),
        ("nfc3", &[T::NestedForcingChain3]),
        ("nfc4", &[T::NestedForcingChain4]),
    ]
};

/// A name in the form names are compared in: lower case, letters, digits and `+` only
/// (so `X-wing`, `x-wing`, `xwing` and `X wing` are the same name). A trailing `s` is
/// dropped, so `Cell forcing chain` names `Cell forcing chains`.
fn normalize(s: &str) -> String {
    let mut n: String = s
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '+')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if n.ends_with('s') && n.len() > 1 {
        n.pop();
    }
    n
}

/// The techniques a name stands for: a name as `explain` prints it (any case, spaces and
/// hyphens optional) or a short form (`x-wing`, `ur1`, `bug1`, `nishio`, `ur` for every
/// unique rectangle type, ...). `None` for an unknown name.
pub fn technique_by_name(name: &str) -> Option<TechniqueSet> {
    let key = normalize(name);
    if key.is_empty() {
        return None;
    }
    let mut set = TechniqueSet::EMPTY;
    for &t in Technique::ALL {
        if normalize(t.name()) == key {
            set.insert(t);
        }
    }
    if set.is_empty() {
        for (alias, ts) in ALIASES {
            if normalize(alias) == key {
                for &t in *ts {
                    set.insert(t);
                }
            }
        }
    }
    (!set.is_empty()).then_some(set)
}

/// Every name [`technique_by_name`] accepts, for messages: the names `explain` prints,
/// then the short forms.
pub fn valid_names() -> String {
    let mut names: Vec<&str> = Vec::new();
    for t in Technique::ALL {
        if names.last() != Some(&t.name()) {
            names.push(t.name());
        }
    }
    let short: Vec<&str> = ALIASES.iter().map(|(a, _)| *a).collect();
    format!(
        "the names explain prints ({}), any case, spaces and hyphens optional; or the short forms {}",
        names.join(", "),
        short.join(", ")
    )
}

/// An unknown technique name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique(pub String);

impl fmt::Display for UnknownTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown technique '{}'; valid names are {}",
            self.0,
            valid_names()
        )
    }
}

impl std::error::Error for UnknownTechnique {}

/// Parses a comma-separated list of technique names, one set per name.
pub fn parse_techniques(list: &str) -> Result<Vec<TechniqueSet>, UnknownTechnique> {
    list.split(',')
        .map(|name| {
            technique_by_name(name.trim()).ok_or_else(|| UnknownTechnique(name.trim().into()))
        })
        .collect()
}

/// Most `--technique` names in one target.
pub const MAX_USES: usize = 8;

/// Conditions on the techniques of a puzzle's grading path (`generate --technique`,
/// `--hardest`, `--max-technique`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TechniqueTarget {
    /// The path uses a technique of each non-empty set.
    pub uses: [TechniqueSet; MAX_USES],
    /// The technique that set ER is in this set (the path went to the end).
    pub hardest: Option<TechniqueSet>,
    /// Every technique the path used has a base rating no higher than the largest of this
    /// set's ("nothing harder than"); the path went to the end.
    pub max: Option<TechniqueSet>,
}

impl TechniqueTarget {
    /// True when there is no condition.
    pub fn is_empty(&self) -> bool {
        self.uses.iter().all(|s| s.is_empty()) && self.hardest.is_none() && self.max.is_none()
    }

    /// How far `r` is from meeting the conditions: 0 when it meets them all; else 1 for
    /// each set of `uses` the path missed, 1 for a wrong (or unknown) hardest technique
    /// that the path still used, 4 for one it did not use,
    /// and for `max` the tenths by which the hardest technique used is above it (1 when
    /// the path did not go to the end).
    pub fn misses(&self, r: &Rating) -> u16 {
        let used = r.profile.used();
        let mut m = 0u16;
        for s in self.uses.iter().filter(|s| !s.is_empty()) {
            if !s.intersects(used) {
                m += 1;
            }
        }
        if let Some(h) = self.hardest
            && !(r.complete && r.steps > 0 && h.contains(r.hardest))
        {
            // A path that uses the technique somewhere is nearer than one that does not:
            // its neighbours more often still need it.
            m += if h.intersects(used) { 1 } else { 4 };
        }
        if let Some(max) = self.max {
            let allowed = max.max_base().unwrap_or(0);
            let top = used.max_base().unwrap_or(0);
            if top > allowed {
                m += u16::from(top - allowed);
            } else if !r.complete {
                m += 1;
            }
        }
        m
    }

    /// The ER range every puzzle meeting the conditions is in (`None` when they imply
    /// nothing): at least the base rating of the hardest technique and of every technique
    /// the path must use; at most the largest rating the hardest (or the allowed)
    /// techniques can have. Generation steers toward it.
    pub fn er_range(&self) -> Option<ErRange> {
        let mut min: u16 = 0;
        let mut max: u16 = ErRange::OPEN;
        for s in self.uses.iter().filter(|s| !s.is_empty()) {
            min = min.max(s.min_base().map_or(0, u16::from));
        }
        if let Some(h) = self.hardest {
            min = min.max(h.min_base().map_or(0, u16::from));
            if let Some(m) = h.max_rating() {
                max = max.min(u16::from(m));
            }
        }
        if let Some(a) = self.max {
            let allowed = a.max_base().unwrap_or(0);
            let mut all = TechniqueSet::EMPTY;
            for &t in Technique::ALL {
                if t.base_rating() <= allowed {
                    all.insert(t);
                }
            }
            if let Some(m) = all.max_rating() {
                max = max.min(u16::from(m));
            }
        }
        (min > 0 || max != ErRange::OPEN).then_some(ErRange { min, max })
    }

    /// Why these conditions cannot all hold, if they cannot (a technique required or
    /// hardest that is harder than `--max-technique`, or a hardest technique easier than a
    /// required one).
    pub fn conflict(&self) -> Option<String> {
        if let Some(a) = self.max {
            let allowed = a.max_base().unwrap_or(0);
            for s in self.uses.iter().filter(|s| !s.is_empty()) {
                if s.min_base().unwrap_or(0) > allowed {
                    return Some(format!(
                        "--technique {} is harder than --max-technique {}",
                        s.names("/"),
                        a.names("/")
                    ));
                }
            }
            if let Some(h) = self.hardest
                && h.min_base().unwrap_or(0) > allowed
            {
                return Some(format!(
                    "--hardest {} is harder than --max-technique {}",
                    h.names("/"),
                    a.names("/")
                ));
            }
        }
        if let Some(h) = self.hardest
            && let Some(top) = h.max_rating()
        {
            for s in self.uses.iter().filter(|s| !s.is_empty()) {
                if s.min_base().unwrap_or(0) > top {
                    return Some(format!(
                        "--technique {} rates above --hardest {}, so it cannot be on the path",
                        s.names("/"),
                        h.names("/")
                    ));
                }
            }
        }
        None
    }

    /// A short description for messages (`--hardest X-wing, --technique Naked pair`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let uses: Vec<String> = self
            .uses
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.names("/"))
            .collect();
        if !uses.is_empty() {
            parts.push(format!("--technique {}", uses.join(",")));
        }
        if let Some(h) = self.hardest {
            parts.push(format!("--hardest {}", h.names("/")));
        }
        if let Some(m) = self.max {
            parts.push(format!("--max-technique {}", m.names("/")));
        }
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_the_position_in_all() {
        for (i, t) in Technique::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
    }

    #[test]
    fn techniques_sharing_a_name_are_neighbours() {
        for (i, a) in Technique::ALL.iter().enumerate() {
            for b in &Technique::ALL[i + 1..] {
                if a.name() == b.name() {
                    assert_eq!(b.index(), a.index() + 1, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn named_adds_up_shared_names_in_se_order() {
        let mut p = Profile::default();
        for t in [
            Technique::XWing,
            Technique::HiddenSingleLine,
            Technique::HiddenSingleBox,
            Technique::HiddenSingleBox,
            Technique::NakedSingle,
        ] {
            p.add(t);
        }
        let mut out = [("", 0); TECHNIQUES];
        let n = p.named(&mut out);
        assert_eq!(
            &out[..n],
            &[("Hidden single", 3), ("Naked single", 1), ("X-wing", 1)]
        );
        assert_eq!(p.steps(), 5);
    }

    #[test]
    fn names_and_short_forms_are_recognised() {
        let one = |n: &str| technique_by_name(n).map(|s| s.iter().collect::<Vec<_>>());
        assert_eq!(one("x-wing"), Some(vec![Technique::XWing]));
        assert_eq!(one("X-wing"), Some(vec![Technique::XWing]));
        assert_eq!(one("XY-wing"), Some(vec![Technique::XyWing]));
        assert_eq!(one("xyz wing"), Some(vec![Technique::XyzWing]));
        assert_eq!(one("ur1"), Some(vec![Technique::UniqueRectangle1]));
        assert_eq!(
            one("Unique rectangle type 1"),
            Some(vec![Technique::UniqueRectangle1])
        );
        assert_eq!(one("bug1"), Some(vec![Technique::BugType1]));
        assert_eq!(one("nishio"), Some(vec![Technique::NishioForcingChain]));
        assert_eq!(
            one("Hidden single"),
            Some(vec![
                Technique::HiddenSingleBox,
                Technique::HiddenSingleLine
            ])
        );
        assert_eq!(one("dfc"), Some(vec![Technique::DynamicForcingChain]));
        assert_eq!(
            one("Dynamic forcing chains (+)"),
            Some(vec![Technique::DynamicForcingChainPlus])
        );
        assert_eq!(
            one("cell forcing chain"),
            Some(vec![Technique::CellForcingChain])
        );
        assert_eq!(one("ur").map(|v| v.len()), Some(4));
        assert_eq!(one("no such thing"), None);
        assert_eq!(one(""), None);
        // Every printed name names its own technique.
        for &t in Technique::ALL {
            assert!(technique_by_name(t.name()).unwrap().contains(t), "{t:?}");
        }
        let e = parse_techniques("x-wing,frobnicate").unwrap_err();
        assert!(e.to_string().contains("frobnicate"));
        assert!(e.to_string().contains("Swordfish"));
    }

    #[test]
    fn er_ranges_follow_from_the_conditions() {
        let set = |n: &str| technique_by_name(n).unwrap();
        let t = TechniqueTarget {
            hardest: Some(set("x-wing")),
            ..Default::default()
        };
        assert_eq!(t.er_range(), Some(ErRange { min: 32, max: 32 }));
        let t = TechniqueTarget {
            hardest: Some(set("nishio")),
            ..Default::default()
        };
        assert_eq!(
            t.er_range(),
            Some(ErRange {
                min: 75,
                max: ErRange::OPEN
            })
        );
        let t = TechniqueTarget {
            max: Some(set("xy-wing")),
            ..Default::default()
        };
        assert_eq!(t.er_range(), Some(ErRange { min: 0, max: 42 }));
        let mut t = TechniqueTarget {
            max: Some(set("x-wing")),
            ..Default::default()
        };
        t.uses[0] = set("swordfish");
        assert!(t.conflict().is_some());
        assert!(TechniqueTarget::default().is_empty());
        assert_eq!(TechniqueTarget::default().er_range(), None);
    }

    #[test]
    fn bonus_techniques() {
        assert!(!Technique::XWing.has_bonus());
        assert!(!Technique::AlignedTripleExclusion.has_bonus());
        assert!(!Technique::AlignedPairExclusion.has_bonus());
        assert!(Technique::UniqueRectangle3.has_bonus());
        assert!(Technique::NishioForcingChain.has_bonus());
        assert!(Technique::XCycle.has_bonus());
        assert!(!Technique::BugType1.has_bonus());
    }
}
