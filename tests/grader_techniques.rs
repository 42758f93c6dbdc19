//! Each technique on a real candidate state where it is Sudoku Explainer's next step, with
//! its exact eliminations (and placement): the states come from puzzles of the rated
//! exchange set and of random minimal puzzles, captured when our grader (which agrees with
//! SE on those puzzles' ratings) reached the technique. Each case checks that the grader
//! picks this very step, that no elimination contradicts the puzzle's solution, and that
//! once applied, the technique does not fire again with the same removals.

use sudoku_batch::core::geometry;
use sudoku_batch::core::grader::Grader;
use sudoku_batch::core::logic::{Board, Budget, Step, Technique};
use sudoku_batch::core::{Grid, Solver};

/// A board from nine lines of pencil marks: a single digit is a placed value, several
/// digits are the candidates of an empty cell.
fn board(marks: &str) -> Board {
    Board::from_marks(marks).expect("81 cells of pencil marks")
}

fn check(technique: Technique, puzzle: &str, marks: &str, text: &str) {
    let b = board(marks);
    let geo = geometry::classic();
    let mut grader = Grader::new();
    let (step, _) = grader
        .next_step(geo, &b, &mut Budget::new(u64::MAX))
        .expect("a step");
    let shown = step.display(geo).to_string();
    assert_eq!(step.technique, technique, "{shown}");
    assert_eq!(shown, text);
    let p: Grid = puzzle.parse().unwrap();
    let sol = Solver::new().solve(&p, 2);
    assert_eq!(sol.count, 1);
    for (c, d) in step.eliminated() {
        assert_ne!(sol.solution.digit(c), Some(d), "{shown}");
    }
    if let Some((c, d)) = step.placement {
        assert_eq!(sol.solution.digit(c), Some(d));
    }
    // Applied, the same removals are not found again.
    let mut after = b;
    after.apply(geo, &step);
    if let Some((again, _)) = grader.next_step(geo, &after, &mut Budget::new(u64::MAX)) {
        let same: Vec<_> = again
            .eliminated()
            .filter(|e| step.eliminated().any(|f| f == *e))
            .collect();
        assert!(same.is_empty(), "{} repeats {shown}", again.display(geo));
    }
    let _: Step = step;
}

#[test]
fn direct_hidden_triple() {
    check(
        Technique::DirectHiddenTriple,
        "..61.39..9.......22..8.4..14.2.6.8.3.........6.8...2.75..4.2..93.......5..45.93..",
        "
         78 4578 6 1 2 3 9 4578 48
         9 134578 1357 67 57 567 4567 345678 2
         2 357 357 8 9 4 567 3567 1
         4 157 2 9 6 157 8 15 3
         17 13579 13579 2 14578 1578 1456 14569 46
         6 159 8 3 145 15 2 1459 7
         5 1678 17 4 3 2 167 1678 9
         3 126789 179 67 178 1678 1467 124678 5
         178 12678 4 5 178 9 3 12678 68",
        "Direct hidden triple 1,3,8 in row 2 (r2c2,r2c3,r2c8): r2c7=4",
    );
}

#[test]
fn hidden_pair() {
    check(
        Technique::HiddenPair,
        "4.....8.9..32...1.1...5...3.2..38.....5...9.....51..4.2...8...6.9...37..7.6.....5",
        "
         4 567 27 3 67 1 8 2567 9
         689 5678 3 2 4679 4679 456 1 47
         1 67 279 8 5 4679 246 267 3
         69 2 1479 469 3 8 156 567 17
         368 14678 5 46 2467 2467 9 23678 1278
         3689 678 789 5 1 2679 236 4 278
         2 134 14 7 8 5 134 9 6
         5 9 148 146 246 3 7 28 1248
         7 1348 6 149 249 249 1234 238 5",
        "Hidden pair 1,4 in box 4 (r4c3,r5c2): r4c3<>7, r4c3<>9, r5c2<>6, r5c2<>7, r5c2<>8",
    );
}

#[test]
fn naked_triple() {
    check(
        Technique::NakedTriple,
        ".592.176...........7.....9.8..7.9..11...6...3...142.....6.7.4....8...3...3.8.5.1.",
        "
         3 5 9 2 8 1 7 6 4
         246 8 124 46 9 7 125 3 25
         246 7 124 3 5 46 128 9 28
         8 246 5 7 3 9 26 24 1
         1 249 27 5 6 8 29 247 3
         79 69 3 1 4 2 5689 578 56789
         25 1 6 9 7 3 4 258 258
         2579 29 8 46 1 46 3 257 2579
         479 3 47 8 2 5 69 1 679",
        "Naked triple 2,6,9 in column 7 (r4c7,r5c7,r9c7): r2c7<>2, r3c7<>2, r6c7<>6, r6c7<>9",
    );
}

#[test]
fn swordfish() {
    check(
        Technique::Swordfish,
        "8.23......9..12.54.....4....7..9..43..3...1..41..3..2....7.....53.28..9......98.6",
        "
         8 4 2 3 567 56 9 67 1
         37 9 67 8 1 2 367 5 4
         137 56 1567 9 67 4 2367 678 28
         2 7 568 156 9 158 56 4 3
         69 568 3 4 2 578 1 678 589
         4 1 5689 56 3 578 567 2 589
         69 68 4689 7 46 3 25 1 25
         5 3 16 2 8 16 4 9 7
         17 2 147 15 45 9 8 3 6",
        "Swordfish on 6 in rows 2,4,6: r3c3<>6, r3c7<>6, r7c3<>6, r8c3<>6",
    );
}

#[test]
fn unique_loop2() {
    check(
        Technique::UniqueLoop2,
        ".....5.1.4...236...2.98....93....1...61...25...2....34....59.8...823...1.5.4.....",
        "
         367 9 367 67 4 5 8 1 2
         4 8 5 1 2 3 6 7 9
         1 2 67 9 8 67 3 4 5
         9 3 4 5 7 2 1 6 8
         8 6 1 3 9 4 2 5 7
         5 7 2 8 6 1 9 3 4
         2 1 367 67 5 9 4 8 36
         67 4 8 2 3 67 5 9 1
         36 5 9 4 1 8 7 2 36",
        "Unique loop type 2 r1c1,r1c3,r7c3,r7c9,r9c1,r9c9 on 3,6,7: r3c3<>7",
    );
}

#[test]
fn xyz_wing() {
    check(
        Technique::XyzWing,
        ".....2.9...19....33.71..2.6.....396...8.2.1...367.....1.5..46.98....13...2.6.....",
        "
         6 58 4 3 57 2 578 9 1
         2 58 1 9 6 578 4578 4578 3
         3 9 7 1 4 58 2 58 6
         7 1 2 4 8 3 9 6 5
         9 4 8 5 2 6 1 3 7
         5 3 6 7 1 9 48 48 2
         1 7 5 8 3 4 6 2 9
         8 6 9 2 57 1 3 57 4
         4 2 3 6 9 57 57 1 8",
        "XYZ-wing r1c7,r3c8,r9c7 on 5,7,8: r2c7<>5",
    );
}

#[test]
fn aligned_pair_exclusion() {
    check(
        Technique::AlignedPairExclusion,
        "7..2..6...9...842..5...6....1....8.58...7...25.7....4....3...1..496...3...8..1..4",
        "
         7 8 13 2 1349 349 6 5 139
         36 9 136 157 135 8 4 2 137
         4 5 2 179 139 6 1379 8 1379
         9 1 36 4 236 23 8 7 5
         8 36 4 159 7 359 139 69 2
         5 2 7 8 1369 39 139 4 1369
         26 67 5 3 2489 2479 279 1 6789
         1 4 9 6 258 257 257 3 78
         236 367 8 59 259 1 2579 69 4",
        "Aligned pair exclusion r7c7,r7c9: r7c9<>6",
    );
}

#[test]
fn unique_rectangle3() {
    check(
        Technique::UniqueRectangle3,
        "8....6..2...4128...54...1..14.....6..7..3..8..6.....91..6...52...3264...7..8....4",
        "
         8 139 179 357 57 6 379 4 2
         6 39 79 4 1 2 8 5 379
         2 5 4 379 8 79 1 37 6
         1 4 58 59 2 589 37 6 37
         9 7 2 6 3 1 4 8 5
         3 6 58 57 4 578 2 9 1
         4 89 6 1 79 37 5 2 389
         5 189 3 2 6 4 79 17 789
         7 2 19 8 59 35 6 13 4",
        "Unique rectangle type 3 r4c3,r4c6,r6c3,r6c6 on 5,8: r9c6<>3",
    );
}

#[test]
fn naked_quad() {
    check(
        Technique::NakedQuad,
        ".....237......7625.2.5..8....84......7.1.6.3......59....6..8.1.2146......852.....",
        "
         145689 4569 19 89 14689 2 3 7 14
         13489 349 139 389 13489 7 6 2 5
         36 2 7 5 36 14 8 49 149
         3569 3569 8 4 27 39 1 56 27
         459 7 29 1 289 6 245 3 248
         1346 346 123 378 2378 5 9 468 24678
         379 39 6 379 45 8 245 1 24
         2 1 4 6 3579 39 57 589 389
         379 8 5 2 13479 14 47 469 3469",
        "Naked quad 2,4,5,7 in box 9 (r7c7,r7c9,r8c7,r9c7): r8c8<>5, r9c8<>4, r9c9<>4",
    );
}

#[test]
fn jellyfish() {
    check(
        Technique::Jellyfish,
        ".2.5..4.6....1..73...8...2.19.....64.7.426.1.26.....57.1...5...54..7....6.7..9.4.",
        "
         789 2 1 5 39 37 4 89 6
         489 58 6 29 1 24 589 7 3
         47 35 39 8 6 47 159 2 159
         1 9 38 7 5 38 2 6 4
         38 7 5 4 2 6 389 1 89
         2 6 4 139 389 138 38 5 7
         389 1 2389 6 4 5 7 389 289
         5 4 2389 123 7 1238 6 389 1289
         6 38 7 12 38 9 15 4 125",
        "Jellyfish on 3 in columns 1,4,7,8: r6c5<>3, r6c6<>3, r7c3<>3, r8c3<>3, r8c6<>3",
    );
}

#[test]
fn hidden_triple() {
    check(
        Technique::HiddenTriple,
        ".....9..1.6..3.4....5..68...78.4..5...........5..7.63...95..2....7.6..9.2..8.....",
        "
         7 238 23 4 58 9 35 6 1
         89 6 1 7 3 58 4 2 59
         349 349 5 1 2 6 8 7 39
         1369 7 8 369 4 13 19 5 2
         13469 2349 2346 2369 58 12358 179 148 478
         149 5 24 29 7 128 6 3 48
         3468 348 9 5 1 347 2 48 34678
         5 1348 7 23 6 234 13 9 348
         2 134 346 8 9 347 1357 14 34567",
        "Hidden triple 5,6,7 in box 9 (r7c9,r9c7,r9c9): r7c9<>3, r7c9<>4, r7c9<>8, r9c7<>1, r9c7<>3, r9c9<>3, r9c9<>4",
    );
}

#[test]
fn bug_type3() {
    check(
        Technique::BugType3,
        "..3...4......1....9.......2....9.....892.574...73.15..1.......364.....58..59.62..",
        "
         8 1 3 67 27 279 4 69 5
         5 2 46 46 1 39 8 39 7
         9 7 46 58 35 348 1 36 2
         4 5 1 78 9 78 3 2 6
         3 8 9 2 6 5 7 4 1
         2 6 7 3 4 1 5 8 9
         1 9 8 45 25 24 6 7 3
         6 4 2 1 37 37 9 5 8
         7 3 5 9 8 6 2 1 4",
        "BUG type 3 r1c6,r3c6,r8c6: r2c6<>3, r4c6<>7",
    );
}

#[test]
fn unique_rectangle4() {
    check(
        Technique::UniqueRectangle4,
        "...3.246...6......54.....8....5..8.91.....7......8..2..8..1....3......1..9..486..",
        "
         8 1 79 3 579 2 4 6 57
         27 3 6 8 57 4 15 9 1257
         5 4 279 1 679 679 3 8 27
         4 267 27 5 267 1 8 3 9
         1 256 8 269 3 69 7 4 56
         9 567 3 4 8 67 15 2 156
         6 8 5 29 1 3 29 7 4
         3 27 4 67 269 5 29 1 8
         27 9 1 27 4 8 6 5 3",
        "Unique rectangle type 4 r2c7,r2c9,r6c7,r6c9 on 1,5: r2c9<>5, r6c9<>5",
    );
}

#[test]
fn bug_type2() {
    check(
        Technique::BugType2,
        "..28..4.9..92...8..3...5.2..48.............1..2..71.4..6..8......5.........419..6",
        "
         56 1 2 8 36 7 4 35 9
         567 57 9 2 36 4 13 8 15
         8 3 4 1 9 5 6 2 7
         1 4 8 9 5 2 7 6 3
         3 59 7 6 4 8 59 1 2
         59 2 6 3 7 1 589 4 58
         79 6 1 5 8 3 2 79 4
         4 89 5 7 2 6 13 39 18
         2 78 3 4 1 9 58 57 6",
        "BUG type 2 r2c1,r6c7: r6c1<>5",
    );
}

#[test]
fn bug_type1() {
    check(
        Technique::BugType1,
        "4.....1.8.39...........35..37.6.1...14.3...2....8...6......86....2.....9.......7.",
        "
         4 25 7 59 6 259 1 3 8
         56 3 9 1 8 25 7 4 26
         28 68 1 47 47 3 5 9 26
         3 7 8 6 2 1 9 5 4
         1 4 6 3 59 59 8 2 7
         29 29 5 8 47 47 3 6 1
         7 59 4 2 59 8 6 1 3
         56 1 2 57 3 67 4 8 9
         89 68 3 49 1 46 2 7 5",
        "BUG type 1 r1c6: r1c6<>2, r1c6<>9",
    );
}

#[test]
fn bug_type4() {
    check(
        Technique::BugType4,
        "2......83.....4.1.61.....5..2.15......9.......6...2....42.....91..8...3..9..7.6..",
        "
         2 5 4 79 6 1 79 8 3
         9 38 7 5 38 4 2 1 6
         6 1 38 2 389 78 479 5 47
         4 2 38 1 5 6 37 9 78
         5 38 9 37 4 78 1 6 2
         7 6 1 39 89 2 35 4 58
         3 4 2 6 1 5 8 7 9
         1 7 6 8 2 9 45 3 45
         8 9 5 4 7 3 6 2 1",
        "BUG type 4 r3c5,r3c7: r3c5<>3, r3c7<>4",
    );
}

#[test]
fn hidden_quad() {
    check(
        Technique::HiddenQuad,
        "...7.39.......165....4....7.3596..7......5....2......8..98.2.....4...3.986.......",
        "
         156 18 1268 7 58 3 9 124 124
         479 489 78 2 89 1 6 5 3
         1359 19 123 4 59 6 8 12 7
         14 3 5 9 6 8 2 7 14
         1479 14789 178 13 2 5 14 39 6
         169 2 16 13 7 4 5 39 8
         137 17 9 8 34 2 14 6 5
         2 5 4 6 1 7 3 8 9
         8 6 13 5 34 9 7 124 124",
        "Hidden quad 2,3,5,6 in box 1 (r1c1,r1c3,r3c1,r3c3): r1c1<>1, r1c3<>1, r1c3<>8, r3c1<>1, r3c1<>9, r3c3<>1",
    );
}

#[test]
fn unique_loop3() {
    check(
        Technique::UniqueLoop3,
        "56..9.1...........49..6..75.47.....2..2.15........7.16...8.....3..149..........83",
        "
         5 6 38 7 9 238 1 23 4
         27 27 1 35 358 4 368 36 9
         4 9 38 23 6 1 238 7 5
         1 4 7 369 38 368 35 359 2
         6 3 2 49 1 5 7 49 8
         8 5 9 234 23 7 34 1 6
         9 27 56 8 237 23 456 456 1
         3 8 56 1 4 9 256 256 7
         27 1 4 256 257 26 9 8 3",
        "Unique loop type 3 r2c1,r2c2,r7c2,r7c5,r9c1,r9c5 on 2,7: r6c5<>3",
    );
}
