//! Unit tests of the engine's internals: the exact fill of a bare detour
//! and the chain order's detours.

use super::detours::{
    bare_detours, enclosed_detours_later, hanging_rooms, nested_detours, pendant_rooms,
};
use super::paths::has_three_detours;
use super::run::{Partial, Run, NONE};
use super::{LayoutSettings, Prepared};
use crate::layout::polygon::GridPoint;
use crate::layout::template::{DoorRule, RepeatMode, RoomTemplate};
use crate::layout::{LayoutProblem, RoomSpec};

/// Rooms A, B, E placed on a grid of 2 × 2 squares whose doors are
/// whole sides (so joined rooms share a whole side), and the bare
/// detour A–C–D–B to fill: `b` and `e` are B's and E's cells.
fn detour(b: (i32, i32), e: (i32, i32)) -> LayoutProblem {
    let square = RoomTemplate::new(
        "square",
        &[
            GridPoint::new(0, 0),
            GridPoint::new(2, 0),
            GridPoint::new(2, 2),
            GridPoint::new(0, 2),
        ],
        DoorRule::Overlap {
            length: 2,
            corner_distance: 0,
        },
        Vec::new(),
    )
    .expect("a square");
    let room = |name: &str| RoomSpec {
        name: name.into(),
        tag: "room".into(),
        templates: vec![0],
    };
    // A = 0, B = 1, C = 2, D = 3, E = 4; E hangs off B. A drawing
    // keeps the graph plane whatever the cells.
    let cell = |(x, y): (i32, i32)| [f64::from(x), f64::from(y)];
    LayoutProblem {
        rooms: ["A", "B", "C", "D", "E"].iter().map(|n| room(n)).collect(),
        edges: vec![[0, 2], [2, 3], [3, 1], [1, 4]],
        templates: vec![square],
        corridors: None,
        min_distance: 0,
        repeat: RepeatMode::Allow,
        drawing: Some(vec![
            cell((0, 0)),
            cell(b),
            cell((1, -1)),
            cell((2, -1)),
            cell(e),
        ]),
    }
}

/// The partial layout with A at cell (0, 0), B at `b`, E at `e`.
fn placed(n: usize, b: (i32, i32), e: (i32, i32)) -> Partial {
    let mut p = Partial {
        shape: vec![NONE; n],
        pos: vec![GridPoint::default(); n],
        corridor: vec![None; 4],
        chains_done: 0,
    };
    for (r, (x, y)) in [(0, (0, 0)), (1, b), (4, e)] {
        p.shape[r] = 0;
        p.pos[r] = GridPoint::new(2 * x, 2 * y);
    }
    p
}

/// Runs `test` on a run with `seed` over [`detour`]`(b, e)` with A, B
/// and E placed, the chain of C and D, and its bare-detour order.
fn with_bare_detour(
    b: (i32, i32),
    e: (i32, i32),
    seed: u64,
    test: impl FnOnce(&mut Run<'_, '_>, Partial, &[usize], &[usize]),
) {
    let problem = detour(b, e);
    let prep = Prepared::new(&problem).expect("prepared");
    let settings = LayoutSettings::default();
    let mut run = Run::new(&prep, seed, &settings);
    let partial = placed(5, b, e);
    let chain = [2, 3];
    let order = run
        .bare_detour(&partial, &chain, false, false)
        .expect("a bare detour");
    test(&mut run, partial, &chain, &order);
}

#[test]
fn exact_fill_finds_the_only_placement_of_a_two_room_detour() {
    // B two cells right and one up from A; E fills the cell (1, 1),
    // so of the three paths of three steps from A to B only
    // right, right, up is free: C at (1, 0), D at (2, 0).
    let (b, e) = ((2, 1), (1, 1));
    let mut first = None;
    for _ in 0..2 {
        with_bare_detour(b, e, 7, |run, partial, chain, order| {
            assert_eq!(order[0], 2, "C touches a placed room, so it can go first");
            let found = run.exact_fill(partial, chain, order, 4);
            assert_eq!(found.len(), 1, "exactly one valid placement");
            assert_eq!(found[0].pos[2], GridPoint::new(2, 0));
            assert_eq!(found[0].pos[3], GridPoint::new(4, 0));
            // Every candidate counted, and far fewer than an
            // annealing schedule's trials.
            assert!(
                run.iterations > 0 && run.iterations < 200,
                "{}",
                run.iterations
            );
            // The same seed makes the same search.
            let pos = found[0].pos.clone();
            assert_eq!(*first.get_or_insert_with(|| pos.clone()), pos);
        });
    }
}

#[test]
fn exact_fill_reports_a_detour_that_cannot_fit_at_once() {
    // B diagonal to A: every path of three side steps between them
    // changes the parity of x + y three times, so none ends at B.
    with_bare_detour((1, 1), (2, 1), 3, |run, partial, chain, order| {
        assert!(run.exact_fill(partial.clone(), chain, order, 4).is_empty());
        // At once: far fewer iterations than the 1,250 trials an
        // annealing schedule would spend before giving up.
        assert!(run.iterations < 200, "{}", run.iterations);
        // A chain with a room whose neighbour is not placed is no
        // bare detour.
        let mut fewer = partial;
        fewer.shape[1] = NONE;
        assert!(run.bare_detour(&fewer, chain, false, false).is_none());
    });
}

#[test]
fn a_wrapping_fills_cap_stops_the_fill_not_the_run() {
    // The fill of the only placement above, with a cap reached before
    // its first candidate: nothing found, and the run goes on (the
    // chain counts as failed and the search backtracks).
    with_bare_detour((2, 1), (1, 1), 7, |run, partial, chain, order| {
        run.fill_cap = 0;
        assert!(run.exact_fill(partial.clone(), chain, order, 4).is_empty());
        assert!(run.stopped.is_none());
        assert!(run.tick(), "the run's own limits are untouched");
        // The compact (best-first) fill keeps the cap too.
        run.compact = true;
        assert!(run.exact_fill(partial.clone(), chain, order, 1).is_empty());
        run.compact = false;
        run.fill_cap = u64::MAX;
        assert_eq!(run.exact_fill(partial, chain, order, 4).len(), 1);
    });
}

/// Level 682's door of `tests/data/undirected-dungeon-rooms.lg`, relabelled: door
/// 0-1, detours 2-3 (the rest of the level, here a loop 2-8-9-3),
/// 4-5 with leaf 6 off 4, and 7-10 with leaf 11 off 10.
fn three_detours_with_leaves() -> Vec<Vec<(usize, usize)>> {
    let edges = [
        [0, 1],
        [0, 2],
        [2, 3],
        [3, 1],
        [0, 4],
        [4, 5],
        [5, 1],
        [4, 6],
        [0, 7],
        [7, 10],
        [10, 1],
        [10, 11],
        [2, 8],
        [8, 9],
        [9, 3],
    ];
    let mut neighbours = vec![Vec::new(); 12];
    for (k, &[a, b]) in edges.iter().enumerate() {
        neighbours[a].push((b, k));
        neighbours[b].push((a, k));
    }
    neighbours
}

#[test]
fn dead_ends_are_pendant_and_a_detour_with_one_is_still_bare() {
    let neighbours = three_detours_with_leaves();
    let pendant = pendant_rooms(&neighbours);
    let hung: Vec<usize> = (0..12).filter(|&x| pendant[x]).collect();
    assert_eq!(hung, [6, 11]);
    assert!(has_three_detours(&neighbours, 0, 1, 0));
    let late = vec![false; 12];
    // 2-3 has two more neighbours on a cycle (8, 9): not bare.
    let paths = bare_detours(&neighbours, &pendant, 0, 1, 0, &late);
    assert_eq!(paths, [vec![4, 5], vec![7, 10]]);
    assert_eq!(hanging_rooms(&neighbours, &pendant, &[4, 5]), [6]);
    // Without the pendant rule neither is: 4 and 10 have three
    // neighbours.
    let none = vec![false; 12];
    assert!(bare_detours(&neighbours, &none, 0, 1, 0, &late).is_empty());
    // A chain of the door's face, then 2-3 and 8-9, then the detours
    // and the leaves: the first bare detour takes its leaf along, and
    // is the only chain a compact fill gets (the other's leaf comes
    // later).
    let chains = vec![
        vec![0, 1, 2, 3],
        vec![8, 9],
        vec![4, 5],
        vec![7, 10],
        vec![6, 11],
    ];
    let edges: Vec<[usize; 2]> = {
        let mut e = Vec::new();
        for (a, list) in neighbours.iter().enumerate() {
            for &(b, k) in list {
                if a < b {
                    e.push((k, [a, b]));
                }
            }
        }
        e.sort_unstable();
        e.into_iter().map(|(_, x)| x).collect()
    };
    let (later, wraps) = enclosed_detours_later(chains, &edges, &neighbours, &pendant);
    // 7-10 closes the third path round the door, and is a detour of
    // two rooms (its leaf 11 aside): the bare detour goes right after
    // the door's chain, and 7-10 wraps around it.
    assert_eq!(
        later,
        [
            vec![0, 1, 2, 3],
            vec![4, 5, 6],
            vec![8, 9],
            vec![7, 10],
            vec![11]
        ]
    );
    assert_eq!(wraps, [false, false, false, true, false]);
    let nested = nested_detours(&later, &edges, &neighbours, &pendant);
    let marked: Vec<&Vec<usize>> = later
        .iter()
        .zip(&nested)
        .filter(|(_, &n)| n)
        .map(|(c, _)| c)
        .collect();
    assert_eq!(marked, [&vec![4, 5, 6]]);
}
