//! Tests of the cave generator: the rules on hand-worked grids and against
//! a naive automaton, limits, parameters, joining and masks.

use proptest::prelude::*;

use super::params::interior_share;
use super::*;
// Named, as proptest's prelude has a trait of the same name.
use crate::rng::Rng;
use crate::tiles::metrics::Metrics;
use crate::tiles::regions::Regions;

fn interior(w: usize, h: usize) -> Vec<bool> {
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            x > 0 && y > 0 && x + 1 < w && y + 1 < h
        })
        .collect()
}

fn render(floor: &[bool], w: usize) -> Vec<String> {
    floor
        .chunks(w)
        .map(|row| row.iter().map(|&f| if f { '.' } else { '#' }).collect())
        .collect()
}

/// One iteration of `rule` on a map drawn as rows of `#` (wall) and `.`
/// (floor) whose outer ring is wall.
fn one_step(rows: &[&str], rule: CaveRule, add_walls: bool) -> Vec<String> {
    let (w, h) = (rows[0].len(), rows.len());
    let mask = interior(w, h);
    let mut automaton = Automaton::new(&mask, w).unwrap();
    for i in (0..w * h).filter(|&i| mask[i]) {
        let wall = rows[i / w].as_bytes()[i % w] == b'#';
        let j = automaton.window.local(i);
        automaton.wall[j] = u8::from(wall);
    }
    automaton.step(rule, add_walls);
    let mut floor = vec![false; w * h];
    automaton.write_floor(&mut floor);
    render(&floor, w)
}

// x runs right, y down. The wall counts the rules read at some cells
// (3×3: columns x−1..=x+1, rows y−1..=y+1; 4×4: columns x−1..=x+2,
// rows y−1..=y+2; R2: the 5×5 block without its corners):
//
//   (1,1) 3×3 = 5: the corner's five ring cells.       → wall (rule 1)
//   (2,2) 3×3 = 0; 4×4 = 1: only (4,3).                 → wall (rule 2)
//   (4,2) 3×3 = 1; 4×4 = 1.                             → wall (rule 2)
//   (5,2) 3×3 = 1; 4×4 = 5: (4,3) and column 7.         → floor (rule 3)
//   (4,3) 3×3 = 1; 4×4 = 2: (4,3), (3,5).               → stays wall by
//         rule 2, which comes before rule 3; without rule 2 → floor.
//         R2 = 2: (4,3), (3,5); (2,5) is a corner.      → wall (RogueBasin)
//   (1,2) 3×3 = 3: (0,1), (0,2), (0,3).                 → unchanged floor
//   (1,4) 3×3 = 4: (0,3), (0,4), (0,5), (2,5).          → unchanged floor
//   (3,5) 3×3 = 3: (2,5), (3,5), (2,6).                 → unchanged wall;
//         RogueBasin has no "unchanged": floor
//   (4,5) 3×3 = 2: (3,5), (5,6); 4×4 = 7.               → floor (rule 3)
//   (5,6) 3×3 = 4: (5,6) and row 7.                     → unchanged wall;
//         RogueBasin: floor
//   (4,6) 3×3 = 5: (3,5), (5,6), row 7.                 → wall (rule 1)
const HAND: [&str; 8] = [
    "########", // y0
    "#......#", // y1
    "#......#", // y2
    "#...#..#", // y3
    "#......#", // y4
    "#.##...#", // y5
    "#.#..#.#", // y6
    "########", // y7
];

#[test]
fn standard_rules_match_the_hand_worked_grid() {
    let adding = [
        "########", //
        "##....##", // (1,1), (6,1): 3×3 = 5
        "#.###..#", // (2..=4,2): 4×4 ≤ 2; (1,2), (6,2): 3×3 = 3, kept
        "#...#..#", // (4,3): 4×4 = 2 wins over 3×3 = 1
        "#......#", //
        "####...#", // (1,5): 3×3 = 5; (2,5), (3,5): 3×3 = 3, kept
        "########", // (5,6): 3×3 = 4, kept; the rest 3×3 ≥ 5
        "########",
    ];
    assert_eq!(one_step(&HAND, CaveRule::Standard, true), adding);
    let smoothing = [
        "########", //
        "##....##", //
        "#......#", // no 4×4 rule: 3×3 ≤ 2 → floor
        "#......#", // (4,3): 3×3 = 1 → floor
        "#......#", //
        "####...#", //
        "########", //
        "########",
    ];
    assert_eq!(one_step(&HAND, CaveRule::Standard, false), smoothing);
}

#[test]
fn roguebasin_rules_match_the_hand_worked_grid() {
    let adding = [
        "########", //
        "##....##", // 3×3 ≥ 5
        "#......#", // (2,2): 3×3 = 0 but R2 = 7 → floor
        "#...#..#", // (4,3): R2 = 2 → wall
        "#......#", //
        "##.....#", // (2,5), (3,5): 3×3 = 3, 3 → floor
        "#####.##", // (5,6): 3×3 = 4 → floor
        "########",
    ];
    assert_eq!(one_step(&HAND, CaveRule::RogueBasin, true), adding);
    let smoothing = [
        "########", //
        "##....##", //
        "#......#", //
        "#......#", // (4,3): 3×3 = 1 → floor
        "#......#", //
        "##.....#", //
        "#####.##", //
        "########",
    ];
    assert_eq!(one_step(&HAND, CaveRule::RogueBasin, false), smoothing);
}

/// The rules by their definition, one cell at a time: cells off the
/// grid or outside the mask are wall and stay wall.
fn naive_step(
    wall: &[bool],
    mask: &[bool],
    w: usize,
    rule: CaveRule,
    add_walls: bool,
) -> Vec<bool> {
    let h = wall.len() / w;
    let at = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            return 1;
        }
        let i = y as usize * w + x as usize;
        u32::from(!mask[i] || wall[i])
    };
    let count = |x: i64, y: i64, lo: i64, hi: i64, corners: bool| {
        let mut n = 0;
        for dy in lo..=hi {
            for dx in lo..=hi {
                if corners || dx.abs() != 2 || dy.abs() != 2 {
                    n += at(x + dx, y + dy);
                }
            }
        }
        n
    };
    (0..wall.len())
        .map(|i| {
            if !mask[i] {
                return true;
            }
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            let r1 = count(x, y, -1, 1, true);
            match rule {
                CaveRule::Standard => {
                    if r1 >= 5 || (add_walls && count(x, y, -1, 2, true) <= 2) {
                        true
                    } else if r1 <= 2 {
                        false
                    } else {
                        wall[i]
                    }
                }
                CaveRule::RogueBasin => r1 >= 5 || (add_walls && count(x, y, -2, 2, false) <= 2),
            }
        })
        .collect()
}

/// A grid with a mask and a wall state per cell.
fn grid() -> impl Strategy<Value = (usize, Vec<(bool, bool)>)> {
    (1usize..14, 1usize..14).prop_flat_map(|(w, h)| {
        (
            Just(w),
            prop::collection::vec((prop::bool::weighted(0.8), any::<bool>()), w * h),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn running_sums_match_the_rules_cell_by_cell(
        (w, cells) in grid(),
        rb in any::<bool>(),
        add_walls in any::<bool>(),
    ) {
        let rule = if rb { CaveRule::RogueBasin } else { CaveRule::Standard };
        let mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
        let wall: Vec<bool> = cells.iter().map(|c| c.1).collect();
        let expected = naive_step(&wall, &mask, w, rule, add_walls);
        let mut got = vec![false; mask.len()];
        if let Some(mut automaton) = Automaton::new(&mask, w) {
            for i in (0..mask.len()).filter(|&i| mask[i]) {
                let j = automaton.window.local(i);
                automaton.wall[j] = u8::from(wall[i]);
            }
            automaton.step(rule, add_walls);
            automaton.write_floor(&mut got);
        }
        let got_wall: Vec<bool> = got.iter().map(|&f| !f).collect();
        prop_assert_eq!(got_wall, expected);
    }

    #[test]
    fn a_start_is_the_fill_then_the_rules(
        (w, cells) in grid(),
        rb in any::<bool>(),
        seed in any::<u64>(),
        chance in 0.3f64..0.9,
    ) {
        let rule = if rb { CaveRule::RogueBasin } else { CaveRule::Standard };
        let mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
        let params = CaveParams {
            rule,
            floor_chance: chance,
            floor_ratio: 0.0,
            max_tries: 1,
            ..CaveParams::default()
        };
        let h = mask.len() / w;
        let got = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(seed));
        // One draw per mask cell in row-major order, then 4 + 3 steps.
        let mut rng = Rng::seeded(seed);
        let mut wall: Vec<bool> =
            mask.iter().map(|&m| !m || rng.unit() >= chance).collect();
        for k in 0..7 {
            wall = naive_step(&wall, &mask, w, rule, k < 4);
        }
        let expected: Vec<bool> = wall.iter().map(|&x| !x).collect();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn generated_caves_are_one_closed_region_with_enough_floor(
        seed in any::<u64>(),
        w in 8u32..48,
        h in 8u32..32,
        rb in any::<bool>(),
        largest in any::<bool>(),
        floor_ratio in 0.0f64..0.25,
    ) {
        let params = CaveParams {
            width: w,
            height: h,
            floor_ratio,
            rule: if rb { CaveRule::RogueBasin } else { CaveRule::Standard },
            connect: if largest { Connectivity::Largest } else { Connectivity::Join },
            max_tries: 40,
            ..CaveParams::default()
        };
        match generate(&params, seed) {
            Ok(map) => {
                let metrics = Metrics::of(&map);
                prop_assert_eq!(metrics.regions, 1);
                prop_assert!(metrics.floor_ratio >= floor_ratio);
                for (i, &t) in map.cells.iter().enumerate() {
                    let (x, y) = (i as u32 % w, i as u32 / w);
                    let ring = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                    prop_assert!(t == Tile::WALL || (t == Tile::FLOOR && !ring));
                }
                prop_assert_eq!(generate(&params, seed), Ok(map));
            }
            Err(TilesError::Limit { generator, .. }) => {
                prop_assert_eq!(generator, "caves");
                // Joined maps this large and this undemanding always
                // pass (measured: every one of 500 seeds, 20 × 15).
                let easy = if rb { 0.2 } else { 0.1 };
                prop_assert!(
                    largest || w < 20 || h < 15 || floor_ratio > easy,
                    "an easy map failed"
                );
            }
            Err(e) => prop_assert!(false, "{e}"),
        }
    }

    #[test]
    fn fill_mask_stays_inside_the_mask(
        (w, cells) in grid(),
        extra in 0usize..20,
        short in any::<bool>(),
        seed in any::<u64>(),
        floor_ratio in 0.0f64..1.0,
    ) {
        let mut mask: Vec<bool> = cells.iter().map(|c| c.0).collect();
        let h = mask.len() / w;
        // A mask longer or shorter than the grid is read as far as both go.
        if short {
            mask.truncate(mask.len().saturating_sub(extra));
        } else {
            mask.extend(std::iter::repeat_n(true, extra));
        }
        let params = CaveParams { floor_ratio, max_tries: 5, ..CaveParams::default() };
        let floor = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(seed));
        prop_assert_eq!(floor.len(), mask.len());
        for (i, (&f, &m)) in floor.iter().zip(&mask).enumerate() {
            prop_assert!(!f || (m && i < w * h));
        }
    }

    #[test]
    fn join_regions_joins_floor_and_door_cells_inside_the_mask(
        (w, cells) in grid(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
    ) {
        // The mask: a rectangle one cell in from the grid's edge (all
        // of it for thin grids), so it is 4-connected.
        let h = cells.len() / w;
        let inset = |x: usize, n: usize| n < 3 || (x > 0 && x + 1 < n);
        let mask: Vec<bool> =
            (0..w * h).map(|i| inset(i % w, w) && inset(i / w, h)).collect();
        let before: Vec<bool> =
            cells.iter().zip(&mask).map(|(c, &m)| m && c.1).collect();
        let inside: Vec<usize> = (0..w * h).filter(|&i| mask[i]).collect();
        let must: Vec<usize> = if inside.is_empty() {
            Vec::new()
        } else {
            picks.iter().map(|p| inside[p.index(inside.len())]).collect()
        };
        let mut floor = before.clone();
        prop_assert_eq!(join_regions(&mut floor, &mask, w as u32, h as u32, &must), Ok(()));
        let regions = Regions::of_cells(w as u32, h as u32, |i| floor[i]);
        prop_assert!(regions.count() <= 1);
        for i in 0..w * h {
            prop_assert!(!before[i] || floor[i], "floor was lost");
            prop_assert!(!floor[i] || mask[i], "carved outside the mask");
        }
        for &i in &must {
            prop_assert!(floor[i]);
        }
    }

    #[test]
    fn any_parameters_give_a_map_or_an_error_never_a_panic(
        width in prop::sample::select(vec![0u32, 1, 2, 3, 4, 9, 24, 2049, u32::MAX]),
        height in prop::sample::select(vec![0u32, 2, 3, 5, 17, 5000]),
        floor_chance in prop::num::f64::ANY,
        floor_ratio in prop::num::f64::ANY,
        wall_add_iterations in prop::sample::select(vec![0u32, 1, 4, 101, u32::MAX]),
        no_wall_add_iterations in prop::sample::select(vec![0u32, 3, 100, 101]),
        max_tries in prop::sample::select(vec![0u32, 1, 3, 1001, u32::MAX]),
        seed in any::<u64>(),
    ) {
        let params = CaveParams {
            width,
            height,
            floor_chance,
            floor_ratio,
            wall_add_iterations,
            no_wall_add_iterations,
            max_tries,
            ..CaveParams::default()
        };
        match (params.validate(), generate(&params, seed)) {
            (Ok(()), Ok(_) | Err(TilesError::Limit { .. })) => {}
            (Err(e), Err(f)) => prop_assert_eq!(e, f),
            (v, g) => prop_assert!(false, "validate {v:?}, generate {g:?}"),
        }
        // The masked form takes anything.
        let n = (width.min(12) * height.min(12)) as usize;
        let floor = fill_mask(&vec![true; n], width, height, &params, &mut Rng::seeded(seed));
        prop_assert_eq!(floor.len(), n);
    }
}

#[test]
fn defaults_make_caves_at_the_benchmark_sizes() {
    assert_eq!(CaveParams::default().validate(), Ok(()));
    for (width, height) in [(80, 25), (80, 50), (100, 100)] {
        for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
            let params = CaveParams {
                width,
                height,
                rule,
                ..CaveParams::default()
            };
            for seed in 0..4 {
                let map = generate(&params, seed).unwrap();
                let metrics = Metrics::of(&map);
                assert_eq!(metrics.regions, 1);
                assert!(metrics.floor_ratio >= 0.2, "{metrics:?}");
            }
        }
    }
    let params = CaveParams::default();
    assert_ne!(generate(&params, 1), generate(&params, 2));
}

#[test]
fn largest_keeps_one_region_and_join_keeps_every_open_cell() {
    let params = CaveParams {
        floor_ratio: 0.0,
        max_tries: 1,
        ..CaveParams::default()
    };
    let join = generate(&params, 5).unwrap();
    let largest = generate(
        &CaveParams {
            connect: Connectivity::Largest,
            ..params
        },
        5,
    )
    .unwrap();
    // Same draws, so Largest's cave is one of the pockets Join joined.
    for (l, j) in largest.cells.iter().zip(&join.cells) {
        assert!(*l == Tile::WALL || *j == Tile::FLOOR);
    }
    assert!(Metrics::of(&largest).floor_ratio < Metrics::of(&join).floor_ratio);
    assert_eq!(Metrics::of(&largest).regions, 1);
}

#[test]
fn an_unreachable_floor_ratio_stops_at_the_limit() {
    // The standard rule opens about 0.3 of a map at best.
    let params = CaveParams {
        width: 40,
        height: 30,
        floor_ratio: 0.6,
        ..CaveParams::default()
    };
    match generate(&params, 3) {
        Err(TilesError::Limit {
            generator,
            limit,
            detail,
        }) => {
            assert_eq!(generator, "caves");
            // Chance 0.65 + 0.01 × 35 = 1 is the 36th start; after it
            // every start would be the same, so chance 1 stopped it,
            // not max_tries.
            assert_eq!(limit, "floor_chance 1 (after 36 of max_tries 100 starts)");
            assert!(
                detail.starts_with("the best floor ratio in all 36 starts was 0."),
                "{detail}"
            );
            assert!(
                detail.ends_with(
                    ", below floor_ratio 0.6 (floor_chance rose from 0.65 to 1.00); \
                     at floor_chance 1 every start is the same all-floor fill, so the \
                     later starts were skipped"
                ),
                "{detail}"
            );
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
    let few = CaveParams {
        max_tries: 3,
        ..params
    };
    let Err(TilesError::Limit { limit, detail, .. }) = generate(&few, 3) else {
        panic!("expected a limit error");
    };
    assert_eq!(limit, "3 starts (max_tries)");
    assert!(detail.contains("in all 3 starts was 0."), "{detail}");
    assert!(
        detail.ends_with("(floor_chance rose from 0.65 to 0.67)"),
        "{detail}"
    );
}

/// A start with no floor at all is said to be one, not a ratio "below"
/// a floor_ratio of 0; one start is not "starts".
#[test]
fn a_limit_without_any_floor_says_so() {
    // Chance 1 fills the interior with floor, which the 4 × 4 rule
    // walls over but for a few cells: one start, then the same.
    let all_floor = CaveParams {
        floor_chance: 1.0,
        ..CaveParams::default()
    };
    let e = generate(&all_floor, 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "caves: floor_chance 1 (after 1 of max_tries 100 starts) reached without success: \
         the best floor ratio in the only start was 0.0558, below floor_ratio 0.2 \
         (floor_chance 1); at floor_chance 1 every start is the same all-floor fill, so the \
         later starts were skipped"
    );
    let no_floor = CaveParams {
        floor_chance: 0.0,
        floor_ratio: 0.0,
        max_tries: 1,
        ..CaveParams::default()
    };
    assert_eq!(
        generate(&no_floor, 0).unwrap_err().to_string(),
        "caves: 1 start (max_tries) reached without success: no floor cell survived in \
         the only start (floor_chance 0)"
    );
    let small = CaveParams {
        width: 4,
        height: 5,
        ..CaveParams::default()
    };
    assert!(generate(&small, 0).unwrap_err().to_string().ends_with(
        "starts were skipped; a 4 × 5 map may be too small to keep floor through 7 iterations"
    ),);
    // Not when the size cannot be the cause: every start filled at
    // floor_chance 0, or no iteration to wall the fill over.
    let small_no_floor = CaveParams {
        width: 5,
        height: 5,
        ..no_floor
    };
    assert_eq!(
        generate(&small_no_floor, 0).unwrap_err().to_string(),
        "caves: 1 start (max_tries) reached without success: no floor cell survived in \
         the only start (floor_chance 0)"
    );
    let small_no_iterations = CaveParams {
        wall_add_iterations: 0,
        no_wall_add_iterations: 0,
        max_tries: 2,
        ..small_no_floor
    };
    assert_eq!(
        generate(&small_no_iterations, 0).unwrap_err().to_string(),
        "caves: 2 starts (max_tries) reached without success: no floor cell survived in \
         all 2 starts (floor_chance rose from 0 to 0.01)"
    );
    let two = CaveParams {
        max_tries: 2,
        ..no_floor
    };
    assert_eq!(
        generate(&two, 0).unwrap_err().to_string(),
        "caves: 2 starts (max_tries) reached without success: no floor cell survived in \
         all 2 starts (floor_chance rose from 0 to 0.01)"
    );
}

/// Below 4 cells a side, or at 4 × 4, no floor survives an iteration
/// of either rule, whatever the fill: such maps are refused when any
/// iteration runs, and allowed without iterations.
#[test]
fn maps_too_small_to_hold_floor_are_refused() {
    for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
        for (w, h) in [(3usize, 3usize), (3, 40), (40, 3), (4, 4)] {
            for seed in 0..20 {
                for chance in [0.3, 0.65, 0.9, 1.0] {
                    for steps in [(1, 0), (0, 1), (4, 3)] {
                        let mut rng = Rng::seeded(seed);
                        let params = CaveParams {
                            floor_chance: chance,
                            floor_ratio: 0.0,
                            wall_add_iterations: steps.0,
                            no_wall_add_iterations: steps.1,
                            max_tries: 1,
                            rule,
                            ..CaveParams::default()
                        };
                        let floor =
                            fill_mask(&interior(w, h), w as u32, h as u32, &params, &mut rng);
                        assert!(!floor.contains(&true), "{w}×{h} {rule} {chance} {steps:?}");
                    }
                }
            }
        }
    }
    let small = |width, height| CaveParams {
        width,
        height,
        floor_ratio: 0.0,
        ..CaveParams::default()
    };
    let message = |p: CaveParams| match p.validate() {
        Err(TilesError::Parameter { field, message }) => format!("{field}: {message}"),
        other => panic!("{p:?}: {other:?}"),
    };
    assert_eq!(
        message(small(3, 3)),
        "width: 3 is too small for the automaton: the interior is one cell wide, so every \
         interior cell sees at least 6 cells of the wall ring in its 3×3 block and the first \
         iteration walls it over; use at least 4 (or 0 iterations)"
    );
    assert!(message(small(80, 3)).starts_with("height: 3 is too small"));
    assert_eq!(
        message(small(4, 4)),
        "width: a 4×4 map is too small for the automaton: each interior cell touches a \
         corner and sees 5 cells of the wall ring in its 3×3 block, so the first iteration \
         walls it over; make width or height at least 5 (or use 0 iterations)"
    );
    // Without iterations the random fill is the map.
    let still = CaveParams {
        wall_add_iterations: 0,
        no_wall_add_iterations: 0,
        floor_chance: 1.0,
        ..small(3, 3)
    };
    let map = generate(&still, 0).unwrap();
    assert_eq!(map.cells[4], Tile::FLOOR);
    // 4 × 5 and 5 × 4 can hold floor after an iteration: the
    // all-floor fill keeps the interior cells away from the corners.
    for (w, h) in [(4, 5), (5, 4), (4, 80)] {
        let p = CaveParams {
            floor_chance: 1.0,
            wall_add_iterations: 1,
            no_wall_add_iterations: 0,
            ..small(w, h)
        };
        let map = generate(&p, 0).unwrap_or_else(|e| panic!("{w}×{h}: {e}"));
        assert!(map.cells.contains(&Tile::FLOOR), "{w}×{h}");
    }
}

#[test]
fn bad_parameters_name_their_field() {
    let ok = CaveParams::default();
    let cases: [(CaveParams, &str); 17] = [
        (CaveParams { width: 0, ..ok }, "width"),
        (CaveParams { width: 2, ..ok }, "width"),
        (CaveParams { width: 3, ..ok }, "width"),
        (CaveParams { height: 3, ..ok }, "height"),
        (
            CaveParams {
                width: 4,
                height: 4,
                floor_ratio: 0.0,
                ..ok
            },
            "width",
        ),
        (
            CaveParams {
                height: MAX_SIDE + 1,
                ..ok
            },
            "height",
        ),
        (
            CaveParams {
                floor_chance: f64::NAN,
                ..ok
            },
            "floor_chance",
        ),
        (
            CaveParams {
                floor_chance: 1.01,
                ..ok
            },
            "floor_chance",
        ),
        (
            CaveParams {
                floor_chance: -0.1,
                ..ok
            },
            "floor_chance",
        ),
        (
            CaveParams {
                floor_ratio: f64::INFINITY,
                ..ok
            },
            "floor_ratio",
        ),
        (
            CaveParams {
                floor_ratio: -0.5,
                ..ok
            },
            "floor_ratio",
        ),
        // 80 × 50 has 78 × 48 interior cells: 0.936 of the map.
        (
            CaveParams {
                floor_ratio: 0.99,
                ..ok
            },
            "floor_ratio",
        ),
        (
            CaveParams {
                wall_add_iterations: 101,
                ..ok
            },
            "wall_add_iterations",
        ),
        (
            CaveParams {
                no_wall_add_iterations: u32::MAX,
                ..ok
            },
            "no_wall_add_iterations",
        ),
        (CaveParams { max_tries: 0, ..ok }, "max_tries"),
        (
            CaveParams {
                max_tries: MAX_TRIES + 1,
                ..ok
            },
            "max_tries",
        ),
        (
            CaveParams {
                width: u32::MAX,
                height: u32::MAX,
                ..ok
            },
            "width",
        ),
    ];
    for (params, field) in cases {
        match generate(&params, 0) {
            Err(TilesError::Parameter { field: f, message }) => {
                assert_eq!(f, field, "{message}");
            }
            other => panic!("{params:?}: expected a parameter error, got {other:?}"),
        }
    }
    let full = CaveParams {
        floor_ratio: interior_share(80, 50),
        ..ok
    };
    assert_eq!(full.validate(), Ok(()));
}

#[test]
fn join_regions_carves_the_fewest_walls_and_shares_tunnels() {
    let rows = [
        "#########", //
        "#..#..#.#", // three pockets in a row, one wall apart
        "#########",
    ];
    let (w, h) = (9, 3);
    let mut floor: Vec<bool> = rows.concat().bytes().map(|b| b == b'.').collect();
    let mask = interior(w, h);
    join_regions(&mut floor, &mask, w as u32, h as u32, &[]).unwrap();
    assert_eq!(render(&floor, w), ["#########", "#.......#", "#########"]);

    // A door cell far from the floor: one straight tunnel of 3 walls.
    let rows = [
        "#######", //
        "#..####", //
        "#######", //
        "#######", //
    ];
    let (w, h) = (7, 4);
    let mut floor: Vec<bool> = rows.concat().bytes().map(|b| b == b'.').collect();
    let mask = vec![true; w * h];
    join_regions(&mut floor, &mask, w as u32, h as u32, &[w + 6]).unwrap();
    assert_eq!(
        render(&floor, w),
        ["#######", "#......", "#######", "#######"]
    );
}

#[test]
fn join_regions_refuses_what_the_mask_cannot_join() {
    let (w, h) = (5u32, 3u32);
    // Two mask parts, columns 0–1 and 3–4, with floor in each.
    let mask: Vec<bool> = (0..15).map(|i| i % 5 != 2).collect();
    let before: Vec<bool> = (0..15).map(|i| i == 0 || i == 4).collect();
    let mut floor = before.clone();
    let err = join_regions(&mut floor, &mask, w, h, &[]).unwrap_err();
    assert!(
        matches!(err, TilesError::Parameter { field: "mask", .. }),
        "{err}"
    );
    assert_eq!(floor, before, "left unchanged");

    let mut floor = vec![false; 15];
    let field = |r: Result<(), TilesError>| match r {
        Err(TilesError::Parameter { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        field(join_regions(&mut floor, &mask, w, h, &[15])),
        "must_join"
    );
    assert_eq!(
        field(join_regions(&mut floor, &mask, w, h, &[2])),
        "must_join"
    );
    assert_eq!(
        field(join_regions(&mut floor, &mask[1..], w, h, &[])),
        "mask"
    );
    assert_eq!(
        field(join_regions(&mut floor[1..], &mask, w, h, &[])),
        "floor"
    );
    floor[7] = true;
    assert_eq!(field(join_regions(&mut floor, &mask, w, h, &[])), "floor");
    // Empty grids and masks have nothing to join.
    assert_eq!(join_regions(&mut [], &[], 0, 7, &[]), Ok(()));
    assert_eq!(
        join_regions(&mut [false; 4], &[false; 4], 2, 2, &[]),
        Ok(())
    );
}

#[test]
fn fill_mask_returns_the_best_start_when_none_passes() {
    let (w, h) = (24usize, 16usize);
    let mask = interior(w, h);
    let params = CaveParams {
        floor_ratio: 1.0,
        max_tries: 1,
        ..CaveParams::default()
    };
    let count = |f: &[bool]| f.iter().filter(|&&x| x).count();
    let one = fill_mask(&mask, w as u32, h as u32, &params, &mut Rng::seeded(9));
    let many = CaveParams {
        max_tries: 8,
        ..params
    };
    let best = fill_mask(&mask, w as u32, h as u32, &many, &mut Rng::seeded(9));
    // The first of the eight starts is the single start.
    assert!(count(&best) >= count(&one));
    assert!(count(&one) > 0);
    assert_eq!(
        fill_mask(&mask, 0, 5, &params, &mut Rng::seeded(9)),
        vec![false; w * h]
    );
}

#[test]
fn rule_and_connectivity_names_round_trip() {
    for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
        assert_eq!(rule.to_string().parse::<CaveRule>(), Ok(rule));
    }
    assert_eq!(CaveRule::Standard.to_string(), "standard");
    // The old name is still read.
    assert_eq!("seed004".parse::<CaveRule>(), Ok(CaveRule::Standard));
    for connect in [Connectivity::Largest, Connectivity::Join] {
        assert_eq!(connect.to_string().parse::<Connectivity>(), Ok(connect));
    }
    assert!(matches!(
        "5x5".parse::<CaveRule>(),
        Err(TilesError::Parameter { field: "rule", .. })
    ));
    assert!(matches!(
        "all".parse::<Connectivity>(),
        Err(TilesError::Parameter {
            field: "connect",
            ..
        })
    ));
}
