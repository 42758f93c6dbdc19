//! Human-readable and JSON forms of a [`Step`], in the literature's `rNcN` notation:
//! `Hidden single in box 3: r2c8=5`, `X-wing on 7 in rows 2,6: r4c3<>7, r9c3<>7`.
//!
//! Rendering allocates (it builds strings); it is meant for `explain`, not for the rating
//! hot path.

use std::fmt::{self, Write as _};

use serde::Serialize;

use super::{HouseList, Step, Technique, Tenths};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Geometry, Size};

/// A rating in tenths as text with one decimal (`32` -> `3.2`).
pub fn tenths(t: Tenths) -> String {
    format!("{}.{}", t / 10, t % 10)
}

struct Cells<'a, S: Size>(&'a Geometry<S>, S::Set);

impl<S: Size> fmt::Display for Cells<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.1.into_iter().enumerate() {
            if i > 0 {
                f.write_char(',')?;
            }
            write!(f, "{}", self.0.cell_name(c))?;
        }
        Ok(())
    }
}

struct Digits(DigitSet);

impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char(',')?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// Houses as `rows 2,6` (`grid 3 rows 2,6`) when they are all of one kind and grid, else
/// `row 2, box 3`.
struct Houses<'a, S: Size>(&'a Geometry<S>, HouseList);

impl<S: Size> fmt::Display for Houses<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0;
        let mut it = self.1.iter();
        let Some(first) = it.next() else {
            return Ok(());
        };
        let key = |h: usize| (g.house(h).kind, g.house(h).grid);
        let same = self.1.iter().all(|h| key(h) == key(first));
        if same && self.1.len() > 1 {
            let d = g.house(first);
            if d.grid > 0 {
                write!(f, "grid {} ", d.grid)?;
            }
            write!(f, "{}s ", d.kind.name())?;
            for (i, h) in self.1.iter().enumerate() {
                if i > 0 {
                    f.write_char(',')?;
                }
                write!(f, "{}", g.house(h).ordinal + 1)?;
            }
            Ok(())
        } else {
            for (i, h) in self.1.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{}", g.house_name(h))?;
            }
            Ok(())
        }
    }
}

impl<S: Size> Step<S> {
    /// The part before the colon: technique and pattern, e.g. `X-wing on 7 in rows 2,6`,
    /// with cells and houses named by geometry `g`.
    pub fn label(&self, g: &Geometry<S>) -> String {
        let name = self.technique.name();
        let cells = Cells(g, self.cells);
        let digits = Digits(self.digits);
        let base = Houses(g, self.base);
        let cover = Houses(g, self.cover);
        use Technique as T;
        match self.technique {
            T::FullHouse | T::HiddenSingleBox | T::HiddenSingleLine => format!("{name} in {base}"),
            T::NakedSingle => name.to_string(),
            T::DirectPointing | T::DirectClaiming | T::Pointing | T::Claiming => {
                // The base set of a direct hint also holds the house of the single.
                let first = self.base.iter().next();
                match first {
                    Some(h) => format!("{name}: {digits} in {} and {cover}", g.house_name(h)),
                    None => name.to_string(),
                }
            }
            T::NakedPair
            | T::NakedTriple
            | T::NakedQuad
            | T::HiddenPair
            | T::HiddenTriple
            | T::HiddenQuad
            | T::DirectHiddenPair
            | T::DirectHiddenTriple
            | T::DirectHiddenQuad => format!("{name} {digits} in {base} ({cells})"),
            T::XWing | T::Swordfish | T::Jellyfish => format!("{name} on {digits} in {base}"),
            T::XyWing | T::XyzWing => format!("{name} {cells} on {digits}"),
            T::UniqueRectangle1
            | T::UniqueRectangle2
            | T::UniqueRectangle3
            | T::UniqueRectangle4
            | T::UniqueLoop1
            | T::UniqueLoop2
            | T::UniqueLoop3
            | T::UniqueLoop4 => format!("{name} {cells} on {digits}"),
            T::BugType1 | T::BugType2 | T::BugType3 | T::BugType4 => format!("{name} {cells}"),
            T::AlignedPairExclusion | T::AlignedTripleExclusion => format!("{name} {cells}"),
            _ => {
                if self.size > 0 {
                    format!("{name} (length {})", self.size)
                } else {
                    name.to_string()
                }
            }
        }
    }

    /// The one-line text of the step with names from geometry `g`: `Hidden single in box 3:
    /// r2c8=5`, `Pointing: 4 in box 1 and row 2: r2c4<>4, ...`; eliminations first, then
    /// the placement after `; ` when a step has both.
    pub fn display<'a>(&'a self, g: &'a Geometry<S>) -> StepText<'a, S> {
        StepText { step: self, g }
    }
}

/// A step with the geometry that names its cells (see [`Step::display`]).
pub struct StepText<'a, S: Size> {
    step: &'a Step<S>,
    g: &'a Geometry<S>,
}

impl<S: Size> fmt::Display for StepText<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, g) = (self.step, self.g);
        write!(f, "{}: ", s.label(g))?;
        let mut first = true;
        for (c, d) in s.eliminated() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{}<>{d}", g.cell_name(c))?;
        }
        if let Some((c, d)) = s.placement {
            if !first {
                f.write_str("; ")?;
            }
            write!(f, "{}={d}", g.cell_name(c))?;
        }
        Ok(())
    }
}

/// A step as plain data for JSON output.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRecord {
    /// 1-based position in the solving path.
    pub step: u32,
    /// The technique's name.
    pub technique: &'static str,
    /// The step's rating, one decimal.
    pub rating: f64,
    /// Digits placed, as `rNcN=D`.
    pub placements: Vec<String>,
    /// Candidates removed, as `rNcN<>D`.
    pub eliminations: Vec<String>,
    /// The pattern's cells.
    pub cells: Vec<String>,
    /// The pattern's digits.
    pub digits: Vec<u8>,
    /// The houses holding the pattern.
    pub houses: Vec<String>,
    /// The one-line text form.
    pub text: String,
}

impl StepRecord {
    /// The record of `step`, numbered `number`, with names from geometry `g`.
    pub fn new<S: Size>(number: u32, step: &Step<S>, g: &Geometry<S>) -> StepRecord {
        StepRecord {
            step: number,
            technique: step.technique.name(),
            rating: f64::from(step.difficulty) / 10.0,
            placements: step
                .placement
                .iter()
                .map(|&(c, d)| format!("{}={d}", g.cell_name(c)))
                .collect(),
            eliminations: step
                .eliminated()
                .map(|(c, d)| format!("{}<>{d}", g.cell_name(c)))
                .collect(),
            cells: step
                .cells
                .into_iter()
                .map(|c| g.cell_name(c).to_string())
                .collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            houses: step
                .base
                .iter()
                .map(|h| g.house_name(h).to_string())
                .collect(),
            text: step.display(g).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry;
    use crate::core::index::{Cell, Digit, House};

    #[test]
    fn singles_and_fish_read_like_the_literature() {
        let g = geometry::classic();
        let mut s: Step = Step::new(Technique::HiddenSingleBox);
        s.placement = Some((Cell::at(1, 7), Digit::new(5)));
        s.base.insert(House::boxed(2).index());
        assert_eq!(s.display(g).to_string(), "Hidden single in box 3: r2c8=5");

        let mut x: Step = Step::new(Technique::XWing);
        x.digits.insert(Digit::new(7));
        x.base.insert(House::row(1).index());
        x.base.insert(House::row(5).index());
        x.eliminate(Cell::at(3, 2), Digit::new(7));
        x.eliminate(Cell::at(8, 2), Digit::new(7));
        assert_eq!(
            x.display(g).to_string(),
            "X-wing on 7 in rows 2,6: r4c3<>7, r9c3<>7"
        );

        let r = StepRecord::new(4, &x, g);
        assert_eq!(r.rating, 3.2);
        assert_eq!(r.eliminations, ["r4c3<>7", "r9c3<>7"]);
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"technique\":\"X-wing\""), "{json}");
    }

    #[test]
    fn other_shapes_name_their_houses() {
        let x = geometry::x();
        let mut s: Step = Step::new(Technique::HiddenSingleLine);
        s.placement = Some((Cell::at(4, 4), Digit::new(1)));
        s.base.insert(27);
        assert_eq!(
            s.display(x).to_string(),
            "Hidden single in diagonal 1: r5c5=1"
        );
        let sam = geometry::samurai();
        let mut t: crate::core::logic::Step<geometry::S369> = Step::new(Technique::HiddenSingleBox);
        let c = Cell::from_index(0);
        t.placement = Some((c, Digit::new(2)));
        let h = sam.cell_houses(c).ids()[0] as usize;
        t.base.insert(h);
        assert_eq!(
            t.display(sam).to_string(),
            "Hidden single in grid 1 box 1: g1r1c1=2"
        );
    }

    #[test]
    fn tenths_print_with_one_decimal() {
        assert_eq!(tenths(32), "3.2");
        assert_eq!(tenths(105), "10.5");
        assert_eq!(tenths(10), "1.0");
    }
}
