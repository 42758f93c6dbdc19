//! Small bit sets: [`DigitSet`] (a set of digits 1-9), [`CellSet`] (a set of the 81 cells)
//! and [`WideCellSet`] (a set of up to 384 cells, for Samurai's 369).
//!
//! ```text
//! DigitSet (u16):   bit  8 7 6 5 4 3 2 1 0
//!                 digit  9 8 7 6 5 4 3 2 1        bits 9..16 are always zero
//!
//! CellSet (u128):   bit  0 .. 8  = r1c1 .. r1c9
//!                        9 .. 17 = r2c1 .. r2c9
//!                        ...
//!                       72 .. 80 = r9c1 .. r9c9   bits 81..128 are always zero
//! ```
//!
//! Both are `Copy` values; every operation is a handful of machine instructions.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use super::index::{Cell, Digit};

/// A set of digits 1-9, one bit per digit (bit `d-1` for digit `d`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DigitSet(u16);

impl DigitSet {
    /// No digit.
    pub const EMPTY: DigitSet = DigitSet(0);
    /// All nine digits.
    pub const ALL: DigitSet = DigitSet(0x1ff);

    /// The set with the given raw bits (bit `d-1` for digit `d`); bits above 8 are dropped.
    #[inline]
    pub const fn from_bits(bits: u16) -> DigitSet {
        DigitSet(bits & 0x1ff)
    }

    /// The set holding only `d`.
    #[inline]
    pub const fn single(d: Digit) -> DigitSet {
        DigitSet(1 << d.index())
    }

    /// Raw bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of digits in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no digit.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `d` is in the set.
    #[inline]
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    /// Adds `d`.
    #[inline]
    pub fn insert(&mut self, d: Digit) {
        self.0 |= 1 << d.index();
    }

    /// Removes `d`.
    #[inline]
    pub fn remove(&mut self, d: Digit) {
        self.0 &= !(1 << d.index());
    }

    /// The smallest digit in the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The digits in increasing order.
    #[inline]
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

/// Iterator over a [`DigitSet`], smallest digit first.
#[derive(Clone, Debug)]
pub struct DigitIter(u16);

impl Iterator for DigitIter {
    type Item = Digit;
    #[inline]
    fn next(&mut self) -> Option<Digit> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Digit::from_index(i))
    }
}

impl IntoIterator for DigitSet {
    type Item = Digit;
    type IntoIter = DigitIter;
    fn into_iter(self) -> DigitIter {
        self.iter()
    }
}

/// The bit of cell `i` (below 128) in a [`CellSet`]: the 64-bit bit put in its half, cheaper
/// than a 128-bit shift.
#[inline(always)]
fn cell_bit(i: usize) -> u128 {
    let bit = 1u64 << (i & 63);
    let (lo, hi) = if i < 64 { (bit, 0) } else { (0, bit) };
    u128::from(hi) << 64 | u128::from(lo)
}

/// A set of cells, one bit per cell in row-major order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet((1u128 << 81) - 1);

    /// The set with the given raw bits; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> CellSet {
        CellSet(bits & ((1u128 << 81) - 1))
    }

    /// The set holding only `c`.
    #[inline]
    pub const fn single(c: Cell) -> CellSet {
        CellSet(1u128 << c.index())
    }

    /// Raw bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Number of cells in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no cell.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        // The bit's 64-bit half, then a 64-bit shift: cheaper than a 128-bit shift.
        let i = c.index();
        let half = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (i & 63) & 1 != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0 |= cell_bit(c.index());
    }

    /// Removes `c`.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !cell_bit(c.index());
    }

    /// The first cell in reading order, if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The cells in reading order.
    #[inline]
    pub fn iter(self) -> CellIter {
        CellIter {
            word: self.0 as u64,
            high: (self.0 >> 64) as u64,
            base: 0,
        }
    }
}

/// Iterator over a [`CellSet`] in reading order: the low 64 bits, then the high ones
/// (64-bit steps are cheaper than 128-bit ones).
#[derive(Clone, Debug)]
pub struct CellIter {
    /// The bits left of the half being walked, whose first cell is `base`.
    word: u64,
    /// The high half, while the low one is walked.
    high: u64,
    base: u8,
}

impl Iterator for CellIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.word == 0 {
            if self.high == 0 {
                return None;
            }
            self.word = self.high;
            self.high = 0;
            self.base = 64;
        }
        let i = self.word.trailing_zeros() as u8 + self.base;
        self.word &= self.word - 1;
        Some(Cell::new(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.word.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellIter;
    fn into_iter(self) -> CellIter {
        self.iter()
    }
}

macro_rules! bit_ops {
    ($t:ident, $mask:expr) => {
        impl BitAnd for $t {
            type Output = $t;
            #[inline]
            fn bitand(self, o: $t) -> $t {
                $t(self.0 & o.0)
            }
        }
        impl BitOr for $t {
            type Output = $t;
            #[inline]
            fn bitor(self, o: $t) -> $t {
                $t(self.0 | o.0)
            }
        }
        impl BitXor for $t {
            type Output = $t;
            #[inline]
            fn bitxor(self, o: $t) -> $t {
                $t(self.0 ^ o.0)
            }
        }
        impl Sub for $t {
            type Output = $t;
            /// Set difference.
            #[inline]
            fn sub(self, o: $t) -> $t {
                $t(self.0 & !o.0)
            }
        }
        impl Not for $t {
            type Output = $t;
            /// Complement within the universe (81 cells or nine digits).
            #[inline]
            fn not(self) -> $t {
                $t(!self.0 & $mask)
            }
        }
        impl BitAndAssign for $t {
            #[inline]
            fn bitand_assign(&mut self, o: $t) {
                self.0 &= o.0;
            }
        }
        impl BitOrAssign for $t {
            #[inline]
            fn bitor_assign(&mut self, o: $t) {
                self.0 |= o.0;
            }
        }
    };
}

bit_ops!(DigitSet, 0x1ff);
bit_ops!(CellSet, (1u128 << 81) - 1);

/// A set of up to 384 cells (Samurai's 369), one bit per cell index, in six 64-bit words:
/// cell `i` is bit `i % 64` of word `i / 64`. The wide counterpart of [`CellSet`] for the
/// logic engine on [`S369`](crate::core::geometry::S369).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WideCellSet([u64; 6]);

impl WideCellSet {
    /// Number of 64-bit words.
    pub const WORDS: usize = 6;

    /// No cell.
    pub const EMPTY: WideCellSet = WideCellSet([0; 6]);

    /// The set holding only `c`.
    #[inline]
    pub const fn single(c: Cell) -> WideCellSet {
        let mut w = [0u64; 6];
        w[c.index() >> 6] = 1 << (c.index() & 63);
        WideCellSet(w)
    }

    /// The words.
    #[inline]
    pub const fn words(&self) -> &[u64; 6] {
        &self.0
    }

    /// Number of cells in the set.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// True when the set holds no cell.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// True when `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0[c.index() >> 6] & (1 << (c.index() & 63)) != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0[c.index() >> 6] |= 1 << (c.index() & 63);
    }

    /// Removes `c`.
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0[c.index() >> 6] &= !(1 << (c.index() & 63));
    }

    /// The cell of lowest index, if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|i| Cell::from_index(i * 64 + self.0[i].trailing_zeros() as usize))
    }

    /// The cells in index order.
    #[inline]
    pub fn iter(self) -> WideCellIter {
        WideCellIter {
            words: self.0,
            i: 0,
        }
    }
}

/// Iterator over a [`WideCellSet`] in index order.
#[derive(Clone, Debug)]
pub struct WideCellIter {
    words: [u64; 6],
    i: usize,
}

impl Iterator for WideCellIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.i < 6 {
            let w = self.words[self.i];
            if w != 0 {
                self.words[self.i] = w & (w - 1);
                return Some(Cell::from_index(self.i * 64 + w.trailing_zeros() as usize));
            }
            self.i += 1;
        }
        None
    }
}

impl IntoIterator for WideCellSet {
    type Item = Cell;
    type IntoIter = WideCellIter;
    fn into_iter(self) -> WideCellIter {
        self.iter()
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for WideCellSet {
            type Output = WideCellSet;
            #[inline]
            fn $f(self, o: WideCellSet) -> WideCellSet {
                let mut w = self.0;
                for (a, b) in w.iter_mut().zip(o.0) {
                    *a $op b;
                }
                WideCellSet(w)
            }
        }
    };
}

wide_op!(BitAnd, bitand, &=);
wide_op!(BitOr, bitor, |=);
wide_op!(BitXor, bitxor, ^=);

impl Sub for WideCellSet {
    type Output = WideCellSet;
    /// Set difference.
    #[inline]
    fn sub(self, o: WideCellSet) -> WideCellSet {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0) {
            *a &= !b;
        }
        WideCellSet(w)
    }
}

impl BitAndAssign for WideCellSet {
    #[inline]
    fn bitand_assign(&mut self, o: WideCellSet) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
    }
}

impl BitOrAssign for WideCellSet {
    #[inline]
    fn bitor_assign(&mut self, o: WideCellSet) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_set_basics() {
        let mut s = DigitSet::EMPTY;
        s.insert(Digit::new(3));
        s.insert(Digit::new(9));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().map(|d| d.get()).collect::<Vec<_>>(), vec![3, 9]);
        assert_eq!((!s).len(), 7);
        s.remove(Digit::new(3));
        assert_eq!(s.first(), Some(Digit::new(9)));
    }

    #[test]
    fn cell_set_basics() {
        let s = CellSet::single(Cell::new(80)) | CellSet::single(Cell::new(0));
        assert_eq!(s.len(), 2);
        assert_eq!((!s).len(), 79);
        assert_eq!(s.iter().map(|c| c.index()).collect::<Vec<_>>(), vec![0, 80]);
        assert_eq!((CellSet::ALL - s).len(), 79);
    }

    #[test]
    fn cell_set_bits_and_walk_agree_with_the_raw_bits_in_both_halves() {
        // Sets of cells on either side of bit 64, and across it.
        let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835u128;
        for _ in 0..500 {
            x = x.rotate_left(17).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (x >> 31);
            for raw in [x, x << 64, x >> 64, x & (u64::MAX as u128)] {
                let s = CellSet::from_bits(raw);
                let bits = s.bits();
                let want: Vec<usize> = (0..81).filter(|&i| bits >> i & 1 == 1).collect();
                assert_eq!(s.iter().map(|c| c.index()).collect::<Vec<_>>(), want);
                assert_eq!(s.iter().size_hint(), (want.len(), Some(want.len())));
                let mut t = CellSet::EMPTY;
                for i in 0..81 {
                    let c = Cell::new(i as u8);
                    assert_eq!(s.contains(c), want.contains(&i));
                    if s.contains(c) {
                        t.insert(c);
                    }
                }
                assert_eq!(t, s);
                for &i in &want {
                    t.remove(Cell::new(i as u8));
                }
                assert!(t.is_empty());
            }
        }
    }
}
