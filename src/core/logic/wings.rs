//! XY-wing (4.2) and XYZ-wing (4.4).
//!
//! *XY-wing*: a pivot with candidates `xy` sees two pincers `xz` and `yz`; whichever way the
//! pivot goes, one pincer is `z`, so `z` leaves every cell seeing both pincers.
//! *XYZ-wing*: the pivot is `xyz`; the removal is limited to cells that also see the pivot.
//!
//! As in Sudoku Explainer (`XYWing`): pivots in reading order, then the first pincer among
//! the pivot's peers, then the second; the pincers need not see each other.
//!
//! What a wing removes depends on its three cells' candidates and on the places of `z`
//! among their common peers, which only go. So a search given a [`Scope`] tests only the
//! wings with a changed cell among their three: the others found nothing before and can
//! find nothing now.

use super::unchanged::Scope;
use super::{Board, Step, Technique};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::Cell;

/// The first XY-wing (`xyz == false`) or XYZ-wing (`xyz == true`) that removes something.
pub fn find_xy_wing<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    xyz: bool,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    // Pivots of two (three) candidates, pincers of two.
    let [_, ge2, ge3, ge4] = board.cells_with_at_least();
    let bivalue = ge2 - ge3;
    let pivots = if xyz { ge3 - ge4 } else { bivalue };
    for pivot in pivots {
        let xy = board.candidates(pivot);
        let peers = g.peers(pivot) & bivalue;
        let pivot_changed = scope.cells.contains(pivot);
        // With the pivot and all its pincer-sized peers unchanged, so are its wings.
        if !pivot_changed && !scope.touches(peers) {
            continue;
        }
        // The pincers, among cells of two candidates: per pair of the pivot's digits, the
        // cells holding both (for an XY-wing, per digit of the pivot, the cells holding it).
        let planes: [S::Set; 3] = planes_of(board, xy);
        let within = if xyz {
            (planes[0] & planes[1]) | (planes[0] & planes[2]) | (planes[1] & planes[2])
        } else {
            planes[0] ^ planes[1]
        };
        // A first pincer shares one digit with the pivot (XY-wing) or is two of its three
        // (XYZ-wing).
        for xz_cell in peers & within {
            let xz = board.candidates(xz_cell);
            // The second pincer: the pivot's other digit with the first pincer's other one
            // (XY-wing), or another two of the pivot's three (XYZ-wing); the same cells as
            // testing every peer for a union of three digits, sharing none (one) with both.
            let fits = if xyz {
                let [a, b] = planes_of(board, xz);
                within - (a & b)
            } else {
                let [a, b] = planes_of(board, xy ^ xz);
                a & b
            };
            // With the pivot and the first pincer unchanged, only a changed second one can
            // make the wing new.
            let seconds = if pivot_changed || scope.cells.contains(xz_cell) {
                peers
            } else {
                peers & scope.cells
            };
            for yz_cell in seconds & fits {
                let yz = board.candidates(yz_cell);
                let union = xy | xz | yz;
                debug_assert!(union.len() == 3 && (xy & xz & yz).len() == if xyz { 1 } else { 0 });
                let Some(z) = (xz & yz).first() else { continue };
                let mut victims = g.peers(xz_cell) & g.peers(yz_cell);
                if xyz {
                    victims &= g.peers(pivot);
                }
                victims = victims - cells3::<S>(pivot, xz_cell, yz_cell);
                let elim = victims & board.plane(z);
                if elim.is_empty() {
                    continue;
                }
                step.reset(if xyz {
                    Technique::XyzWing
                } else {
                    Technique::XyWing
                });
                step.eliminations[z.index()] = elim;
                step.cells = cells3::<S>(pivot, xz_cell, yz_cell);
                step.digits = union;
                return true;
            }
        }
    }
    false
}

/// The planes of the first `N` digits of `digits` (empty beyond its last).
fn planes_of<S: Size, const N: usize>(board: &Board<S>, digits: DigitSet) -> [S::Set; N] {
    let mut planes = [S::Set::EMPTY; N];
    for (p, d) in planes.iter_mut().zip(digits) {
        *p = board.plane(d);
    }
    planes
}

fn cells3<S: Size>(a: Cell, b: Cell, c: Cell) -> S::Set {
    S::Set::single(a) | S::Set::single(b) | S::Set::single(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::CellSet;
    use crate::core::bitboard::DigitSet;
    use crate::core::index::Digit;
    use crate::core::logic::testutil::{cg, elims};

    /// A full search (no earlier board) for an XY-wing, or an XYZ-wing with `xyz`.
    fn wing(b: &Board, xyz: bool, s: &mut Step) -> bool {
        find_xy_wing(cg(), b, xyz, &Scope::everything(cg()), s)
    }

    fn keep_only(b: &mut Board, c: Cell, keep: &[u8]) {
        for d in Digit::all() {
            if !keep.contains(&d.get()) {
                b.eliminate(c, d);
            }
        }
    }

    #[test]
    fn xy_wing_removes_z_from_common_peers() {
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: 3 leaves r5c5.
        let mut b = Board::EMPTY;
        keep_only(&mut b, Cell::at(0, 0), &[1, 2]);
        keep_only(&mut b, Cell::at(0, 4), &[1, 3]);
        keep_only(&mut b, Cell::at(4, 0), &[2, 3]);
        let mut s = Step::default();
        assert!(wing(&b, false, &mut s));
        assert_eq!(s.technique, Technique::XyWing);
        assert_eq!(s.difficulty, 42);
        assert_eq!(elims(&s), ["r5c5<>3"]);
        assert_eq!(s.digits, DigitSet::from_bits(0b111));
        assert!(!wing(&b, true, &mut s), "no XYZ-wing");
    }

    #[test]
    fn xyz_wing_needs_cells_seeing_all_three() {
        // Pivot r1c1 {1,2,3}, pincers r1c2 {1,3} (box and row) and r3c1 {2,3} (box, column):
        // 3 leaves the cells of box 1 seeing all three: r2c1? no, r2c1 sees r1c2 by box,
        // r3c1 by column/box, r1c1 by box: yes. Likewise r2c2, r3c2 ... check the list.
        let mut b = Board::EMPTY;
        keep_only(&mut b, Cell::at(0, 0), &[1, 2, 3]);
        keep_only(&mut b, Cell::at(0, 1), &[1, 3]);
        keep_only(&mut b, Cell::at(2, 0), &[2, 3]);
        let mut s = Step::default();
        assert!(!wing(&b, false, &mut s), "no XY-wing");
        assert!(wing(&b, true, &mut s));
        assert_eq!(s.technique, Technique::XyzWing);
        assert_eq!(s.difficulty, 44);
        assert_eq!(
            elims(&s),
            [
                "r1c3<>3", "r2c1<>3", "r2c2<>3", "r2c3<>3", "r3c2<>3", "r3c3<>3"
            ]
        );
    }

    #[test]
    fn wings_found_are_the_first_of_a_scan_of_every_empty_cell() {
        // Thinned random minimal puzzles, against SE's scan: every empty cell in reading
        // order as pivot (two or three candidates), every empty peer in order as first
        // pincer (two), then as second; the first wing that removes something.
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(22);
        let mut found = [0; 2];
        for (_, board) in random_minimal(200) {
            for _ in 0..5 {
                let b = thinned(&board, rng.random_range(100..400), &mut rng);
                for (k, xyz) in [false, true].into_iter().enumerate() {
                    let want = first_wing(&b, xyz);
                    let mut s = Step::default();
                    let got = find_xy_wing(cg(), &b, xyz, &Scope::everything(cg()), &mut s);
                    assert_eq!(got, want.is_some());
                    if let Some((cells, z, elim)) = want {
                        assert_eq!(s.cells, cells);
                        assert_eq!(s.eliminations[z.index()], elim);
                        found[k] += 1;
                    }
                }
            }
        }
        assert!(found[0] > 150 && found[1] > 150, "{found:?}");
    }

    /// The first wing of a scan of every empty cell: its cells, `z` and removals.
    fn first_wing(b: &Board, xyz: bool) -> Option<(CellSet, Digit, CellSet)> {
        let size = if xyz { 3 } else { 2 };
        for pivot in b.empty() {
            let xy = b.candidates(pivot);
            if xy.len() != size {
                continue;
            }
            let peers = cg().peers(pivot) & b.empty();
            for p1 in peers {
                for p2 in peers {
                    let (xz, yz) = (b.candidates(p1), b.candidates(p2));
                    if xz.len() != 2 || yz.len() != 2 || (xy - xz).len() != 1 {
                        continue;
                    }
                    let want_inter = if xyz { 1 } else { 0 };
                    if (xy | xz | yz).len() != 3 || (xy & xz & yz).len() != want_inter {
                        continue;
                    }
                    let Some(z) = (xz & yz).first() else { continue };
                    let cells = CellSet::single(pivot) | CellSet::single(p1) | CellSet::single(p2);
                    let mut seen = cg().peers(p1) & cg().peers(p2);
                    if xyz {
                        seen &= cg().peers(pivot);
                    }
                    let elim = (seen - cells) & b.plane(z);
                    if !elim.is_empty() {
                        return Some((cells, z, elim));
                    }
                }
            }
        }
        None
    }
}
