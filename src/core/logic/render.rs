//! Human-readable and JSON forms of a [`Step`], in the literature's `rNcN` notation:
//! `Hidden single in box 3: r2c8=5`, `X-wing on 7 in rows 2,6: r4c3<>7, r9c3<>7`.
//!
//! Rendering allocates (it builds strings); it is meant for `explain`, not for the rating
//! hot path.

use std::fmt::{self, Write as _};

use serde::Serialize;

use super::{HouseSet, Step, Technique, Tenths};
use crate::core::bitboard::{CellSet, DigitSet};

/// A rating in tenths as text with one decimal (`32` -> `3.2`).
pub fn tenths(t: Tenths) -> String {
    format!("{}.{}", t / 10, t % 10)
}

struct Cells(CellSet);

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_char(',')?;
            }
            write!(f, "{c}")?;
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

/// Houses as `rows 2,6` when they are all of one kind, else `row 2, box 3`.
struct Houses(HouseSet);

impl fmt::Display for Houses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut it = self.0.iter();
        let Some(first) = it.next() else {
            return Ok(());
        };
        let same = self.0.iter().all(|h| h.kind() == first.kind());
        if same && self.0.len() > 1 {
            write!(f, "{}s ", first.kind().name())?;
            for (i, h) in self.0.iter().enumerate() {
                if i > 0 {
                    f.write_char(',')?;
                }
                write!(f, "{}", h.ordinal() + 1)?;
            }
            Ok(())
        } else {
            for (i, h) in self.0.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{h}")?;
            }
            Ok(())
        }
    }
}

impl Step {
    /// The part before the colon: technique and pattern, e.g. `X-wing on 7 in rows 2,6`.
    pub fn label(&self) -> String {
        let name = self.technique.name();
        let cells = Cells(self.cells);
        let digits = Digits(self.digits);
        let base = Houses(self.base);
        let cover = Houses(self.cover);
        use Technique as T;
        match self.technique {
            T::FullHouse | T::HiddenSingleBox | T::HiddenSingleLine => format!("{name} in {base}"),
            T::NakedSingle => name.to_string(),
            T::DirectPointing | T::DirectClaiming | T::Pointing | T::Claiming => {
                // The base set of a direct hint also holds the house of the single.
                let first = self.base.iter().next();
                match first {
                    Some(h) => format!("{name}: {digits} in {h} and {cover}"),
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
}

/// `Hidden single in box 3: r2c8=5`, `Pointing: 4 in box 1 and row 2: r2c4<>4, ...`;
/// eliminations first, then the placement after `; ` when a step has both.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.label())?;
        let mut first = true;
        for (c, d) in self.eliminated() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{c}<>{d}")?;
        }
        if let Some((c, d)) = self.placement {
            if !first {
                f.write_str("; ")?;
            }
            write!(f, "{c}={d}")?;
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
    /// The record of `step`, numbered `number`.
    pub fn new(number: u32, step: &Step) -> StepRecord {
        StepRecord {
            step: number,
            technique: step.technique.name(),
            rating: f64::from(step.difficulty) / 10.0,
            placements: step
                .placement
                .iter()
                .map(|(c, d)| format!("{c}={d}"))
                .collect(),
            eliminations: step
                .eliminated()
                .map(|(c, d)| format!("{c}<>{d}"))
                .collect(),
            cells: step.cells.iter().map(|c| c.to_string()).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            houses: step.base.iter().map(|h| h.to_string()).collect(),
            text: step.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{Cell, Digit, House};

    #[test]
    fn singles_and_fish_read_like_the_literature() {
        let mut s = Step::new(Technique::HiddenSingleBox);
        s.placement = Some((Cell::at(1, 7), Digit::new(5)));
        s.base.insert(House::boxed(2));
        assert_eq!(s.to_string(), "Hidden single in box 3: r2c8=5");

        let mut x = Step::new(Technique::XWing);
        x.digits.insert(Digit::new(7));
        x.base.insert(House::row(1));
        x.base.insert(House::row(5));
        x.eliminate(Cell::at(3, 2), Digit::new(7));
        x.eliminate(Cell::at(8, 2), Digit::new(7));
        assert_eq!(x.to_string(), "X-wing on 7 in rows 2,6: r4c3<>7, r9c3<>7");

        let r = StepRecord::new(4, &x);
        assert_eq!(r.rating, 3.2);
        assert_eq!(r.eliminations, ["r4c3<>7", "r9c3<>7"]);
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"technique\":\"X-wing\""), "{json}");
    }

    #[test]
    fn tenths_print_with_one_decimal() {
        assert_eq!(tenths(32), "3.2");
        assert_eq!(tenths(105), "10.5");
        assert_eq!(tenths(10), "1.0");
    }
}
