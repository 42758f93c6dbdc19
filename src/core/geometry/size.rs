//! The compile-time side of a geometry: how many cells, and the types that hold per-cell and
//! per-house data and sets of cells. The logic engine is generic over a [`Size`], so it is
//! compiled once for the 81-cell shapes ([`S81`]: classic, X, Windoku, Jigsaw) and once for
//! Samurai ([`S369`]); everything else about a shape is data in its
//! [`Geometry`](super::Geometry).

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Index, IndexMut, Sub};

use crate::core::bitboard::{CellSet, WideCellSet};
use crate::core::index::Cell;

/// What a per-cell or per-house array may hold: small plain values.
pub trait Elem: Copy + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static {}

impl<T: Copy + fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static> Elem for T {}

/// A fixed-size array of `T` (one entry per cell, or per house, of a [`Size`]).
pub trait Arr<T: Elem>:
    Copy
    + fmt::Debug
    + PartialEq
    + Eq
    + Send
    + Sync
    + 'static
    + Index<usize, Output = T>
    + IndexMut<usize>
    + AsRef<[T]>
    + AsMut<[T]>
{
    /// The array with every entry `v`.
    fn splat(v: T) -> Self;
}

impl<T: Elem, const N: usize> Arr<T> for [T; N] {
    #[inline]
    fn splat(v: T) -> Self {
        [v; N]
    }
}

/// A set of cells of one [`Size`], one bit per cell: [`CellSet`] for 81 cells,
/// [`WideCellSet`] for 369. Iterates its cells in index order.
pub trait CellBits:
    Elem
    + Hash
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + IntoIterator<Item = Cell>
{
    /// No cell.
    const EMPTY: Self;
    /// Number of 64-bit words of [`CellBits::word`].
    const WORDS: usize;
    /// The set holding only `c`.
    fn single(c: Cell) -> Self;
    /// True when `c` is in the set.
    fn contains(self, c: Cell) -> bool;
    /// Adds `c`.
    fn insert(&mut self, c: Cell);
    /// Removes `c`.
    fn remove(&mut self, c: Cell);
    /// Number of cells.
    fn len(self) -> u32;
    /// True when the set holds no cell.
    fn is_empty(self) -> bool;
    /// The cell of lowest index, if any.
    fn first(self) -> Option<Cell>;
    /// The `i`-th 64-bit word of the bits (for fingerprints).
    fn word(self, i: usize) -> u64;
}

impl CellBits for CellSet {
    const EMPTY: Self = CellSet::EMPTY;
    const WORDS: usize = 2;
    #[inline]
    fn single(c: Cell) -> Self {
        CellSet::single(c)
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        self.contains(c)
    }
    #[inline]
    fn insert(&mut self, c: Cell) {
        self.insert(c)
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        self.remove(c)
    }
    #[inline]
    fn len(self) -> u32 {
        self.len()
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.is_empty()
    }
    #[inline]
    fn first(self) -> Option<Cell> {
        self.first()
    }
    #[inline]
    fn word(self, i: usize) -> u64 {
        (self.bits() >> (64 * i)) as u64
    }
}

impl CellBits for WideCellSet {
    const EMPTY: Self = WideCellSet::EMPTY;
    const WORDS: usize = WideCellSet::WORDS;
    #[inline]
    fn single(c: Cell) -> Self {
        WideCellSet::single(c)
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        self.contains(c)
    }
    #[inline]
    fn insert(&mut self, c: Cell) {
        self.insert(c)
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        self.remove(c)
    }
    #[inline]
    fn len(self) -> u32 {
        self.len()
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.is_empty()
    }
    #[inline]
    fn first(self) -> Option<Cell> {
        self.first()
    }
    #[inline]
    fn word(self, i: usize) -> u64 {
        self.words()[i]
    }
}

/// A set of candidates (`cell * 9 + digit index`) of one [`Size`], one bit per candidate.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CandSet<const W: usize>(pub [u64; W]);

impl<const W: usize> fmt::Debug for CandSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> Default for CandSet<W> {
    fn default() -> Self {
        CandSet([0; W])
    }
}

impl<const W: usize> CandSet<W> {
    /// No candidate.
    pub const EMPTY: Self = CandSet([0; W]);

    /// Adds `cand`.
    #[inline]
    pub fn set(&mut self, cand: u16) {
        self.0[cand as usize >> 6] |= 1 << (cand & 63);
    }

    /// True when `cand` is in the set.
    #[inline]
    pub fn contains(&self, cand: u16) -> bool {
        self.0[cand as usize >> 6] & (1 << (cand & 63)) != 0
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The candidates in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i as u32 * 64 + b) as u16)
            })
        })
    }
}

/// A set of candidates of one [`Size`] (see [`CandSet`]).
pub trait CandBits: Elem + Hash {
    /// No candidate.
    const NONE: Self;
    /// Adds `cand`.
    fn set(&mut self, cand: u16);
    /// True when `cand` is in the set.
    fn has(&self, cand: u16) -> bool;
    /// True when the set is empty.
    fn none(&self) -> bool;
    /// The candidates in increasing order.
    fn cands(&self) -> impl Iterator<Item = u16> + '_;
    /// Adds every candidate of `other`.
    fn union_with(&mut self, other: &Self);
    /// Keeps only the candidates also in `other`.
    fn intersect_with(&mut self, other: &Self);
}

impl<const W: usize> CandBits for CandSet<W> {
    const NONE: Self = CandSet([0; W]);
    #[inline]
    fn set(&mut self, cand: u16) {
        CandSet::set(self, cand)
    }
    #[inline]
    fn has(&self, cand: u16) -> bool {
        self.contains(cand)
    }
    #[inline]
    fn none(&self) -> bool {
        self.is_empty()
    }
    fn cands(&self) -> impl Iterator<Item = u16> + '_ {
        self.iter()
    }
    #[inline]
    fn union_with(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= *b;
        }
    }
    #[inline]
    fn intersect_with(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= *b;
        }
    }
}

/// The compile-time size of a family of shapes: its cell count and the types sized by it.
pub trait Size:
    Copy + Clone + fmt::Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// Number of cells.
    const CELLS: usize;
    /// Room for houses in [`Size::Houses`] (a geometry may use fewer).
    const HOUSES: usize;
    /// A set of cells.
    type Set: CellBits;
    /// One `T` per cell.
    type Cells<T: Elem>: Arr<T>;
    /// One `T` per house.
    type Houses<T: Elem>: Arr<T>;
    /// A set of candidates (`9 * CELLS` bits).
    type Cands: CandBits;
}

/// The 81-cell shapes: classic, X, Windoku and Jigsaw (at most 31 houses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S81;

impl Size for S81 {
    const CELLS: usize = 81;
    const HOUSES: usize = 32;
    type Set = CellSet;
    type Cells<T: Elem> = [T; 81];
    type Houses<T: Elem> = [T; 32];
    type Cands = CandSet<12>;
}

/// Samurai: 369 cells, 131 houses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S369;

impl Size for S369 {
    const CELLS: usize = 369;
    const HOUSES: usize = 131;
    type Set = WideCellSet;
    type Cells<T: Elem> = [T; 369];
    type Houses<T: Elem> = [T; 131];
    type Cands = CandSet<52>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cand_sets_iterate_in_order() {
        let mut s = CandSet::<12>::EMPTY;
        for c in [728u16, 0, 64, 63] {
            s.set(c);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 64, 728]);
        assert!(s.contains(64) && !s.contains(65));
        assert!(!s.is_empty() && CandSet::<12>::EMPTY.is_empty());
    }

    #[test]
    fn both_cell_sets_behave_alike() {
        fn check<S: CellBits>(cells: &[usize]) {
            let mut s = S::EMPTY;
            for &c in cells {
                s.insert(Cell::from_index(c));
            }
            assert_eq!(s.len() as usize, cells.len());
            assert_eq!(s.first(), cells.iter().min().map(|&c| Cell::from_index(c)));
            let got: Vec<usize> = s.into_iter().map(|c| c.index()).collect();
            let mut want = cells.to_vec();
            want.sort_unstable();
            assert_eq!(got, want);
            let first = Cell::from_index(cells[0]);
            s.remove(first);
            assert!(!s.contains(first));
            assert!((s & S::single(first)).is_empty());
        }
        check::<CellSet>(&[80, 3, 64, 17]);
        check::<WideCellSet>(&[368, 3, 64, 127, 128, 255, 300]);
    }
}
