//! Room layout (issue 5): every layout the engine returns passes the
//! independent checker, runs are deterministic, and bad problems fail with
//! a clear error.

use std::path::PathBuf;

use levelgraph::layout::{
    check::check_layout, edgar, layout, DoorRule, GridPoint, LayoutError, LayoutProblem,
    LayoutSettings, LimitKind, Prepared, RepeatMode, RoomSpec, RoomTemplate, Transform,
};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/edgar")
}

fn map(name: &str) -> LayoutProblem {
    let sets = edgar::RoomSets::load_dir(&data().join("rooms")).expect("room sets");
    edgar::load_map(&data().join("maps").join(name), &sets).expect("map")
}

fn assert_valid_over_seeds(name: &str, seeds: u64) {
    let problem = map(name);
    let prep = Prepared::new(&problem).expect("prepared");
    for seed in 0..seeds {
        let (l, stats) = prep
            .run(seed, &LayoutSettings::default())
            .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
        let violations = check_layout(&problem, &l);
        assert!(
            violations.is_empty(),
            "{name} seed {seed}: {}",
            violations
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        );
        assert!(stats.iterations > 0);
    }
}

#[test]
fn edgar_example1_layouts_are_valid_basic_advanced_and_with_corridors() {
    assert_valid_over_seeds("example1_basic.yml", 10);
    assert_valid_over_seeds("example1_advanced.yml", 10);
    assert_valid_over_seeds("example1_corridors.yml", 5);
}

#[test]
fn edgar_generating_one_layout_maps_are_valid() {
    assert_valid_over_seeds("generating_one_layout.yml", 5);
    assert_valid_over_seeds("generating_one_layout_corridors.yml", 3);
}

#[test]
fn the_same_seed_gives_the_same_layout() {
    let problem = map("example1_advanced.yml");
    let settings = LayoutSettings::default();
    let a = layout(&problem, 11, &settings).unwrap().0;
    let b = layout(&problem, 11, &settings).unwrap().0;
    assert_eq!(a, b);
    let c = layout(&problem, 12, &settings).unwrap().0;
    assert_ne!(a, c, "another seed, another layout");
}

#[test]
fn a_search_that_fails_too_often_starts_again_and_still_gives_valid_layouts() {
    // backtracks_per_start 1: every failed chain empties the stack (the
    // count allowed grows by half of 1, that is not at all), so each
    // backtrack is a restart. 0 turns the rule off: restarts only when the
    // stack runs empty, never more often than backtracks.
    let problem = map("example2_basic.yml");
    let prep = Prepared::new(&problem).expect("prepared");
    let every = LayoutSettings {
        backtracks_per_start: 1,
        ..LayoutSettings::default()
    };
    let mut backtracked = false;
    for seed in 0..4 {
        let (l, stats) = prep
            .run(seed, &every)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check_layout(&problem, &l).is_empty(), "seed {seed}");
        assert_eq!(stats.restarts, stats.backtracks, "seed {seed}");
        backtracked |= stats.backtracks > 0;
        assert_eq!(prep.run(seed, &every).unwrap().0, l, "deterministic");
    }
    assert!(backtracked, "example2 backtracks on some of seeds 0..4");
    let off = LayoutSettings {
        backtracks_per_start: 0,
        ..LayoutSettings::default()
    };
    let (l, stats) = prep.run(0, &off).expect("a layout");
    assert!(check_layout(&problem, &l).is_empty());
    assert!(stats.restarts <= stats.backtracks);
}

fn square(name: &str, side: i32, length: u32) -> RoomTemplate {
    let p = [(0, 0), (0, side), (side, side), (side, 0)].map(|(x, y)| GridPoint::new(x, y));
    RoomTemplate::new(
        name,
        &p,
        DoorRule::Overlap {
            length,
            corner_distance: 1,
        },
        Transform::all(false).collect(),
    )
    .unwrap()
}

fn problem(n: usize, edges: Vec<[usize; 2]>, templates: Vec<RoomTemplate>) -> LayoutProblem {
    let all: Vec<usize> = (0..templates.len()).collect();
    LayoutProblem {
        rooms: (0..n)
            .map(|i| RoomSpec {
                name: format!("r{i}"),
                tag: "room".into(),
                templates: all.clone(),
            })
            .collect(),
        edges,
        templates,
        corridors: None,
        min_distance: 0,
        repeat: RepeatMode::Allow,
        drawing: None,
    }
}

/// The error of a run stopped after 10 iterations on `rooms` 8 × 8
/// rooms whose edges are `edges`.
fn failure_after_ten_iterations(rooms: usize, edges: Vec<[usize; 2]>) -> String {
    let p = problem(rooms, edges, vec![square("sq", 8, 2)]);
    let settings = LayoutSettings {
        max_iterations: 10,
        ..LayoutSettings::default()
    };
    layout(&p, 0, &settings).unwrap_err().to_string()
}

/// Rooms r0 and r1 share a door and are joined by the paths r0-r2-r1,
/// r0-r3-r1 and r0-r4-r5-r1 (the shape of the level of seed 92 of
/// examples/dungeon-rooms.lg).
const DOOR_WITH_THREE_DETOURS: [[usize; 2]; 8] = [
    [0, 1],
    [0, 2],
    [2, 1],
    [0, 3],
    [3, 1],
    [0, 4],
    [4, 5],
    [5, 1],
];

#[test]
fn a_door_with_three_detours_is_named_when_a_run_fails() {
    let text = failure_after_ten_iterations(6, DOOR_WITH_THREE_DETOURS.to_vec());
    assert!(
        text.contains(
            "rooms r0 and r1 share a door and are also joined by three other separate paths \
             of rooms (r0–r2–r1, r0–r3–r1, r0–r4–r5–r1)"
        ),
        "{text}"
    );
    // The path shut in brings one 8 × 8 room at the least (r2 or r3).
    assert!(
        text.contains("(rooms of at least 64 square units with the smallest templates)"),
        "{text}"
    );
    // r2 and r3 are bare.
    assert!(!text.contains("leave one of them bare"), "{text}");
    // Without the third path no such hint.
    let text =
        failure_after_ten_iterations(5, vec![[0, 1], [0, 2], [2, 1], [0, 3], [3, 1], [3, 4]]);
    assert!(!text.contains("three other separate paths"), "{text}");
}

#[test]
fn a_door_whose_three_detours_all_carry_rooms_asks_for_a_bare_one() {
    // As above, with a dead end off every path: r6 off r2, r7 off r3, r8
    // off r5. The path shut in brings two 8 × 8 rooms at the least.
    let mut edges = DOOR_WITH_THREE_DETOURS.to_vec();
    edges.extend([[2, 6], [3, 7], [5, 8]]);
    let text = failure_after_ten_iterations(9, edges);
    assert!(text.contains("(r0–r2–r1, r0–r3–r1, r0–r4–r5–r1)"), "{text}");
    assert!(
        text.contains("(rooms of at least 128 square units with the smallest templates)"),
        "{text}"
    );
    assert!(
        text.contains("join fewer paths around one door, or leave one of them bare"),
        "{text}"
    );
}

#[test]
fn a_non_planar_graph_is_refused_by_name() {
    let mut edges = Vec::new();
    for a in 0..5 {
        for b in a + 1..5 {
            edges.push([a, b]);
        }
    }
    let p = problem(5, edges, vec![square("s", 8, 2)]);
    let err = Prepared::new(&p).unwrap_err();
    assert!(matches!(err, LayoutError::NotPlanar(_)), "{err}");
    assert!(err.to_string().contains("not planar"));
}

#[test]
fn door_lengths_that_cannot_meet_are_named() {
    let mut p = problem(2, vec![[0, 1]], vec![square("a", 8, 2), square("b", 8, 3)]);
    p.rooms[0].templates = vec![0];
    p.rooms[1].templates = vec![1];
    let err = Prepared::new(&p).unwrap_err().to_string();
    assert!(err.contains("r0 and r1"), "{err}");
    assert!(err.contains("door lengths"), "{err}");
}

#[test]
fn a_disconnected_graph_is_refused() {
    let p = problem(3, vec![[0, 1]], vec![square("s", 8, 2)]);
    let err = Prepared::new(&p).unwrap_err().to_string();
    assert!(err.contains("not connected"), "{err}");
}

#[test]
fn the_iteration_limit_stops_a_run_and_says_so() {
    // A triangle of squares cannot close (three squares cannot touch pairwise
    // with doors at distance 1 from corners... they can, so make it tight:
    // 3-squares with door length 1 and corner distance 1 only touch
    // mid-side, and three such cannot all meet).
    let tight = RoomTemplate::new(
        "tight",
        &[(0, 0), (0, 3), (3, 3), (3, 0)].map(|(x, y)| GridPoint::new(x, y)),
        DoorRule::Overlap {
            length: 1,
            corner_distance: 1,
        },
        vec![Transform::IDENTITY],
    )
    .unwrap();
    let p = problem(3, vec![[0, 1], [1, 2], [2, 0]], vec![tight]);
    let settings = LayoutSettings {
        max_iterations: 5_000,
        ..LayoutSettings::default()
    };
    let err = layout(&p, 1, &settings).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LayoutError::Limit { .. }), "{text}");
    assert!(text.contains("max_iterations 5000"), "{text}");
    assert!(text.contains("chain 1 of 1"), "{text}");
}

/// The rooms block of `examples/dungeon-rooms.lg`, built as the model.
fn dungeon_rooms() -> levelgraph::grammar::RoomsSpec {
    use levelgraph::grammar::{DoorSpec, RoomsSpec, SetSpec, TemplateSpec, UseSpec};
    let t = |name: &str, p: &[(i32, i32)]| TemplateSpec {
        name: name.into(),
        outline: p.iter().map(|&(x, y)| GridPoint::new(x, y)).collect(),
        door: None,
        doors: vec![],
        rotate: true,
        mirror: false,
        span: None,
    };
    let names = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    RoomsSpec {
        door: Some(DoorSpec {
            length: 2,
            corner_distance: 1,
        }),
        templates: vec![
            t("hall", &[(0, 0), (12, 0), (12, 12), (0, 12)]),
            t("small", &[(0, 0), (8, 0), (8, 8), (0, 8)]),
            t("long", &[(0, 0), (12, 0), (12, 18), (0, 18)]),
            t("ell", &[(0, 0), (12, 0), (12, 6), (6, 6), (6, 12), (0, 12)]),
            t(
                "tee",
                &[
                    (0, 0),
                    (18, 0),
                    (18, 6),
                    (12, 6),
                    (12, 12),
                    (6, 12),
                    (6, 6),
                    (0, 6),
                ],
            ),
            t("closet", &[(0, 0), (6, 0), (6, 6), (0, 6)]),
        ],
        sets: vec![SetSpec {
            name: "basic".into(),
            members: names(&["hall", "small", "long", "ell", "tee"]),
            span: None,
        }],
        uses: vec![
            UseSpec {
                tags: names(&["goal"]),
                members: names(&["hall", "long"]),
                span: None,
            },
            UseSpec {
                tags: names(&["key", "treasure"]),
                members: names(&["small", "closet"]),
                span: None,
            },
            UseSpec {
                tags: names(&["*"]),
                members: names(&["basic"]),
                span: None,
            },
        ],
        ..RoomsSpec::default()
    }
}

#[test]
fn levels_of_the_default_grammar_are_laid_out_validly() {
    use levelgraph::rooms::level_problem;
    let grammar = levelgraph::grammar::default_grammar();
    let spec = dungeon_rooms();
    let sets = edgar::RoomSets::new();
    let mut laid = 0;
    for seed in 1..=12 {
        let Ok(d) = levelgraph::derive(&grammar, seed) else {
            continue;
        };
        let problem = level_problem(&d.graph, &spec, &sets).expect("problem");
        // Rooms are the vertices, in id order, with their tags.
        assert_eq!(problem.rooms.len(), d.graph.vertex_count());
        assert!(problem.rooms.iter().any(|r| r.tag == "goal"));
        let (l, _) = layout(&problem, seed, &LayoutSettings::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let violations = check_layout(&problem, &l);
        assert!(violations.is_empty(), "seed {seed}: {violations:?}");
        // Goals use the big templates only.
        for (r, placed) in l.rooms.iter().enumerate() {
            let name = &problem.templates[placed.template].name;
            match problem.rooms[r].tag.as_str() {
                "goal" => assert!(name == "hall" || name == "long", "{name}"),
                "key" | "treasure" => assert!(name == "small" || name == "closet", "{name}"),
                _ => {}
            }
        }
        laid += 1;
    }
    assert!(laid >= 10);
}

#[test]
fn a_tag_without_templates_is_named() {
    use levelgraph::rooms::level_problem;
    let grammar = levelgraph::grammar::default_grammar();
    let mut spec = dungeon_rooms();
    spec.uses.retain(|u| u.tags != ["*"]);
    let d = levelgraph::derive(&grammar, 7).unwrap();
    let err = level_problem(&d.graph, &spec, &edgar::RoomSets::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no `use` line"), "{err}");
    let mut spec = dungeon_rooms();
    spec.uses[0].members.push("nowhere".into());
    let err = level_problem(&d.graph, &spec, &edgar::RoomSets::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown template or set `nowhere`"), "{err}");
}

#[test]
fn repeat_modes_hold_in_every_layout_and_impossible_ones_are_refused() {
    // A review's case: no_repeat, a–b, a may use {s8, s6}, b only {s8}.
    let mut p = problem(
        2,
        vec![[0, 1]],
        vec![square("s8", 8, 2), square("s6", 6, 2)],
    );
    p.repeat = RepeatMode::NoRepeat;
    p.rooms[1].templates = vec![0];
    for seed in 0..30 {
        let (l, _) = layout(&p, seed, &LayoutSettings::default()).unwrap();
        assert!(check_layout(&p, &l).is_empty(), "seed {seed}");
        assert_eq!(l.rooms[0].template, 1, "seed {seed}: a must take s6");
    }
    // Both only s8: impossible, said before any search.
    p.rooms[0].templates = vec![0];
    let err = Prepared::new(&p).unwrap_err().to_string();
    assert!(err.contains("no_repeat"), "{err}");
    // no_immediate around a triangle with three templates.
    let mut t = problem(
        3,
        vec![[0, 1], [1, 2], [2, 0]],
        vec![square("a", 8, 2), square("b", 10, 2), square("c", 12, 2)],
    );
    t.repeat = RepeatMode::NoImmediate;
    for seed in 0..10 {
        let (l, _) = layout(&t, seed, &LayoutSettings::default()).unwrap();
        assert!(check_layout(&t, &l).is_empty(), "seed {seed}");
    }
}

#[test]
fn a_room_in_another_rooms_notch_without_a_door_is_not_accepted() {
    // A review's case: a 1 × 2 bar can sit in a U's notch, touching it with
    // the same centre but with no door; that must not count as contact.
    let g = GridPoint::new;
    let u = RoomTemplate::new(
        "U",
        &[
            g(0, 0),
            g(0, 6),
            g(2, 6),
            g(2, 2),
            g(3, 2),
            g(3, 6),
            g(5, 6),
            g(5, 0),
        ],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 2,
        },
        Transform::all(false).collect(),
    )
    .unwrap();
    let bar = RoomTemplate::new(
        "bar",
        &[g(0, 0), g(0, 2), g(1, 2), g(1, 0)],
        DoorRule::Specific(vec![[g(0, 0), g(1, 0)], [g(0, 2), g(1, 2)]]),
        vec![Transform::IDENTITY],
    )
    .unwrap();
    let sq = RoomTemplate::new(
        "sq",
        &[g(0, 0), g(0, 1), g(1, 1), g(1, 0)],
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0,
        },
        Transform::all(false).collect(),
    )
    .unwrap();
    let choices: [&[usize]; 6] = [&[1], &[0, 1, 2], &[1], &[1, 2], &[0], &[1]];
    let mut p = problem(
        6,
        vec![[0, 1], [1, 2], [0, 3], [2, 4], [3, 5]],
        vec![u, bar, sq],
    );
    for (room, c) in p.rooms.iter_mut().zip(choices) {
        room.templates = c.to_vec();
    }
    let settings = LayoutSettings {
        max_iterations: 50_000,
        ..LayoutSettings::default()
    };
    for seed in 0..20 {
        if let Ok((l, _)) = layout(&p, seed, &settings) {
            let v = check_layout(&p, &l);
            assert!(v.is_empty(), "seed {seed}: {v:?}");
        }
    }
}

#[test]
fn a_geometric_derivations_drawing_is_the_embedding_of_its_layout() {
    use levelgraph::geometric::{self, GeometrySettings};
    use levelgraph::rooms::level_problem;
    let grammar = levelgraph::grammar::default_grammar();
    let spec = dungeon_rooms();
    let mut laid = 0;
    for seed in 1..=8 {
        let Ok(g) = geometric::derive(&grammar, seed, &GeometrySettings::default()) else {
            continue;
        };
        let problem = level_problem(&g.derivation.graph, &spec, &edgar::RoomSets::new()).unwrap();
        let drawing = problem
            .drawing
            .as_ref()
            .expect("a geometric level has positions");
        assert_eq!(drawing.len(), problem.rooms.len());
        let (l, _) = layout(&problem, seed, &LayoutSettings::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check_layout(&problem, &l).is_empty(), "seed {seed}");
        laid += 1;
    }
    assert!(laid >= 6);
    // A plain derivation has no positions: the embedding is computed.
    let d = levelgraph::derive(&grammar, 3).unwrap();
    let problem = level_problem(&d.graph, &spec, &edgar::RoomSets::new()).unwrap();
    assert!(problem.drawing.is_none());
}

#[test]
fn stored_vertices_are_not_rooms_and_their_edges_are_their_rooms() {
    use levelgraph::rooms::level_problem;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/vaults.lg");
    let grammar =
        levelgraph::grammar::load(&std::fs::read_to_string(path).unwrap(), "vaults").unwrap();
    let mut spec = dungeon_rooms();
    spec.uses.retain(|u| u.tags == ["*"]);
    let mut with_stored = 0;
    for seed in 1..=10 {
        let Ok(d) = levelgraph::derive(&grammar, seed) else {
            continue;
        };
        let g = &d.graph;
        let top = g.vertex_ids().filter(|&v| g.parent(v).is_none()).count();
        with_stored += usize::from(top < g.vertex_count());
        let problem = level_problem(g, &spec, &edgar::RoomSets::new()).unwrap();
        assert_eq!(problem.rooms.len(), top, "seed {seed}");
        let (l, _) = layout(&problem, seed, &LayoutSettings::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check_layout(&problem, &l).is_empty(), "seed {seed}");
    }
    assert!(with_stored > 0, "vaults.lg stores items in rooms");
}

#[test]
fn sets_sharing_members_and_long_chains_of_sets_resolve() {
    use levelgraph::grammar::SetSpec;
    use levelgraph::rooms::level_problem;
    let d = levelgraph::derive(&levelgraph::grammar::default_grammar(), 7).unwrap();
    // A diamond of sets 30 levels deep: each level names both sets of the
    // one below (2^30 expansions without memoising).
    let mut spec = dungeon_rooms();
    spec.sets.push(SetSpec {
        name: "a0".into(),
        members: vec!["hall".into()],
        span: None,
    });
    spec.sets.push(SetSpec {
        name: "b0".into(),
        members: vec!["small".into()],
        span: None,
    });
    for k in 1..=30 {
        for x in ["a", "b"] {
            spec.sets.push(SetSpec {
                name: format!("{x}{k}"),
                members: vec![format!("a{}", k - 1), format!("b{}", k - 1)],
                span: None,
            });
        }
    }
    spec.uses.last_mut().unwrap().members = vec!["a30".into()];
    let p = level_problem(&d.graph, &spec, &edgar::RoomSets::new()).unwrap();
    let room = p.rooms.iter().find(|r| r.tag == "room").unwrap();
    let mut names: Vec<&str> = room
        .templates
        .iter()
        .map(|&t| p.templates[t].name.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["hall", "small"]);
    // A chain of 100 sets is long, not a cycle.
    let mut spec = dungeon_rooms();
    spec.sets.push(SetSpec {
        name: "c0".into(),
        members: vec!["hall".into()],
        span: None,
    });
    for k in 1..=100 {
        spec.sets.push(SetSpec {
            name: format!("c{k}"),
            members: vec![format!("c{}", k - 1)],
            span: None,
        });
    }
    spec.uses.last_mut().unwrap().members = vec!["c100".into()];
    let err = level_problem(&d.graph, &spec, &edgar::RoomSets::new());
    assert!(err.is_ok(), "{:?}", err.err().map(|e| e.to_string()));
}

#[test]
fn corridor_templates_need_two_explicit_doors() {
    use levelgraph::rooms::level_problem;
    let d = levelgraph::derive(&levelgraph::grammar::default_grammar(), 7).unwrap();
    let mut spec = dungeon_rooms();
    spec.corridors = vec!["closet".into()];
    let err = level_problem(&d.graph, &spec, &edgar::RoomSets::new())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("corridor template `closet` needs exactly two"),
        "{err}"
    );
}

#[test]
fn a_drawing_with_crossings_is_not_taken_for_the_embedding() {
    // K5 drawn on a circle: its edges cross, so the planarity test runs and
    // says the graph is not planar (instead of a search that cannot end).
    let mut edges = Vec::new();
    for a in 0..5 {
        for b in a + 1..5 {
            edges.push([a, b]);
        }
    }
    let mut p = problem(5, edges, vec![square("s", 8, 2)]);
    p.drawing = Some(vec![
        [0.0, 2.0],
        [1.9, 0.6],
        [1.2, -1.6],
        [-1.2, -1.6],
        [-1.9, 0.6],
    ]);
    let err = Prepared::new(&p).unwrap_err();
    assert!(matches!(err, LayoutError::NotPlanar(_)), "{err}");
    // Said once: the message read "not planar (the graph is not planar (…))".
    let message = err.to_string();
    assert!(
        message.starts_with("the graph is not planar (5 vertices, 10 distinct edges")
            && message.ends_with("): rooms that touch can only make planar graphs")
            && message.matches("not planar").count() == 1,
        "{message}"
    );
}

#[test]
fn a_loaded_set_name_with_an_empty_description_is_refused() {
    let sets = edgar::RoomSets::load_dir(&data().join("rooms")).unwrap();
    let err = sets
        .templates("thesis_basic/", "use *")
        .unwrap_err()
        .to_string();
    assert!(err.contains("names no room description"), "{err}");
    assert_eq!(sets.templates("thesis_basic", "use *").unwrap().len(), 3);
}

#[test]
fn mirrored_templates_are_placed_and_checked() {
    // An L with unequal arms (its mirror image is no turn of it) that may
    // be mirrored, and a T that may only be turned: over seeds, some layout
    // uses a mirrored L, and every layout passes.
    let g = GridPoint::new;
    let ell = RoomTemplate::new(
        "ell",
        &[g(0, 0), g(12, 0), g(12, 6), g(6, 6), g(6, 18), g(0, 18)],
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1,
        },
        Transform::all(true).collect(),
    )
    .unwrap();
    let tee = RoomTemplate::new(
        "tee",
        &[
            g(0, 0),
            g(18, 0),
            g(18, 6),
            g(12, 6),
            g(12, 12),
            g(6, 12),
            g(6, 6),
            g(0, 6),
        ],
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1,
        },
        Transform::all(false).collect(),
    )
    .unwrap();
    let edges = vec![
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 0],
        [3, 4],
        [4, 5],
        [5, 6],
        [6, 4],
    ];
    let p = problem(7, edges, vec![ell, tee]);
    let mut mirrored = 0;
    for seed in 0..20 {
        let (l, _) = layout(&p, seed, &LayoutSettings::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(check_layout(&p, &l).is_empty(), "seed {seed}");
        mirrored += l.rooms.iter().filter(|r| r.transform.mirror).count();
        assert!(l
            .rooms
            .iter()
            .all(|r| r.template == 0 || !r.transform.mirror));
    }
    assert!(mirrored > 0, "some room uses a mirrored L");
}

/// A `layout.json` document read back into a [`Layout`] of `problem`
/// (templates, rooms and edges found by name), for layouts kept as files.
fn layout_of_doc(
    problem: &LayoutProblem,
    doc: &levelgraph::formats::LayoutDoc,
) -> levelgraph::layout::Layout {
    use levelgraph::layout::{Door, Layout, PlacedRoom};
    let room = |name: &str| {
        problem
            .rooms
            .iter()
            .position(|r| r.name == name)
            .unwrap_or_else(|| panic!("no room {name}"))
    };
    let template = |name: &str| {
        problem
            .templates
            .iter()
            .position(|t| t.name == name)
            .unwrap_or_else(|| panic!("no template {name}"))
    };
    let transform = |name: &str| {
        Transform::all(true)
            .find(|t| t.name() == name)
            .unwrap_or_else(|| panic!("no transform {name}"))
    };
    let rooms = doc
        .rooms
        .iter()
        .enumerate()
        .map(|(i, r)| {
            assert_eq!(room(&r.id), i, "rooms in the problem's order");
            PlacedRoom {
                template: template(&r.template),
                transform: transform(&r.transform),
                position: r.position,
                outline: r.outline.clone(),
            }
        })
        .collect();
    let doors = doc
        .doors
        .iter()
        .map(|d| {
            let ends = [room(&d.edge[0]), room(&d.edge[1])];
            let edge = problem
                .edges
                .iter()
                .position(|e| *e == ends)
                .unwrap_or_else(|| panic!("no edge {:?}", d.edge));
            Door {
                edge,
                room: room(&d.room),
                corridor: d.to_corridor,
                segment: d.segment,
            }
        })
        .collect();
    assert!(doc.corridors.is_empty(), "no corridors in these files");
    Layout {
        rooms,
        doors,
        corridors: vec![],
    }
}

/// Seed 92's level of `undirected-dungeon-rooms.lg` (tests/data) has a
/// valid layout, though the engine rarely finds it within 1,000,000
/// iterations (issue 5, BENCHMARKS.md): rooms 8 and 9 share a door and
/// three other room-disjoint paths join them, and the layout kept here
/// (found by a long search) has 8 and 9 touching only at a corner with just
/// the door's wall in common. The level is the `mission.json` of
/// `levelgraph generate examples/dungeon-rooms.lg --seed 92 --formats
/// json`, its problem built as `levelgraph layout mission.json --grammar
/// examples/dungeon-rooms.lg` builds it. Pins that the failure is the
/// search's, not the level's.
#[test]
fn seed_92s_level_of_dungeon_rooms_has_a_valid_layout() {
    use levelgraph::formats::{host_for, LayoutDoc, MissionDoc};
    use levelgraph::layout::check::{Part, Violation};
    use levelgraph::rooms::level_problem;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let read = |p: PathBuf| std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    let grammar = levelgraph::grammar::load(
        &read(root.join("tests/data/undirected-dungeon-rooms.lg")),
        "dungeon-rooms",
    )
    .expect("grammar");
    let spec = grammar.model().rooms.clone().expect("a rooms block");
    assert!(spec.load.is_empty(), "templates inline, no room-set files");
    let data = root.join("tests/data/layout");
    let mission = MissionDoc::from_json(&read(data.join("dungeon-rooms-seed92.mission.json")))
        .expect("mission.json");
    assert_eq!(mission.seed, 92);
    let level = host_for(&mission, &grammar).expect("level");
    let problem = level_problem(&level, &spec, &edgar::RoomSets::new()).expect("problem");
    assert_eq!(problem.rooms.len(), 20);
    assert_eq!(problem.edges.len(), 22, "24 edges, 2 of them cosmetic");
    let doc: LayoutDoc =
        serde_json::from_str(&read(data.join("dungeon-rooms-seed92.layout.json"))).expect("json");
    let valid = layout_of_doc(&problem, &doc);
    assert_eq!(check_layout(&problem, &valid), vec![]);

    // Door 8-9 has three other separate paths, 16-17 bare (no other
    // neighbours): its chain comes right after the door's, before 1-14-4
    // and 10-11, the two-room path that closes round the door last, so it
    // is tucked beside the door, 1-14-4 annealed round it, and 10-11
    // filled around it by the capped enumeration.
    let named = |names: &[&str]| -> Vec<usize> {
        let mut v: Vec<usize> = names
            .iter()
            .map(|n| problem.rooms.iter().position(|r| r.name == *n).unwrap())
            .collect();
        v.sort_unstable();
        v
    };
    let chains: Vec<Vec<usize>> = Prepared::new(&problem)
        .expect("prepared")
        .chains()
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.sort_unstable();
            c
        })
        .collect();
    let bare = chains
        .iter()
        .position(|c| *c == named(&["16", "17"]))
        .unwrap_or_else(|| panic!("16-17 is a chain of its own: {chains:?}"));
    let done_by = |rooms: &[usize]| {
        rooms
            .iter()
            .map(|r| chains.iter().position(|c| c.contains(r)).unwrap())
            .max()
            .unwrap()
    };
    let door = done_by(&named(&["8", "9"]));
    let around = done_by(&named(&["1", "14", "4"]));
    let closing = done_by(&named(&["10", "11"]));
    assert_eq!(
        (door + 1, bare + 1, around + 1),
        (bare, around, closing),
        "{chains:?}"
    );

    // The checker is not just agreeing: room 8 moved one cell right,
    // outline and doors with it, overlaps 17 and 9, whose walls it touched.
    let r8 = problem.rooms.iter().position(|r| r.name == "8").unwrap();
    let shift = |p: GridPoint| GridPoint::new(p.x + 1, p.y);
    let mut moved = valid.clone();
    let placed = &mut moved.rooms[r8];
    placed.position = shift(placed.position);
    placed.outline = placed.outline.iter().copied().map(shift).collect();
    for door in moved.doors.iter_mut().filter(|d| d.room == r8) {
        door.segment = door.segment.map(shift);
    }
    let violations = check_layout(&problem, &moved);
    let overlapped: Vec<usize> = violations
        .iter()
        .filter_map(|v| match v {
            Violation::Overlap {
                parts: [Part::Room { index: a, .. }, Part::Room { index: b, .. }],
                ..
            } => Some(if *a == r8 { *b } else { *a }),
            _ => None,
        })
        .collect();
    let name = |r: usize| problem.rooms[r].name.as_str();
    assert_eq!(
        overlapped.iter().map(|&r| name(r)).collect::<Vec<_>>(),
        ["9", "17"],
        "{violations:?}"
    );
}

/// Levels 157 and 401 of `undirected-dungeon-rooms.lg` (tests/data) each
/// have a door whose rooms are also joined by three other room-disjoint
/// paths, two of them bare (BENCHMARKS.md, "Room layout"): laid out by 21
/// of 100 layout seeds while the bare detours took their first placement
/// found, neither at its own seed. With the most compact placement
/// (`LayoutSettings::compact_detours`) both are laid out at their own
/// seeds, and validly.
#[test]
fn levels_157_and_401_of_dungeon_rooms_are_laid_out_at_their_own_seeds() {
    for seed in [157, 401] {
        lays_out_at_its_own_seed(&dungeon_rooms_level(seed), seed);
    }
}

/// The layout problem of the level of `seed` of the undirected
/// dungeon-rooms grammar (`tests/data/undirected-dungeon-rooms.lg`), as
/// `levelgraph generate` builds it.
fn dungeon_rooms_level(seed: u64) -> LayoutProblem {
    use levelgraph::rooms::level_problem;
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/undirected-dungeon-rooms.lg");
    let text = std::fs::read_to_string(path).expect("the example");
    let grammar = levelgraph::grammar::load(&text, "dungeon-rooms").expect("the example compiles");
    let spec = grammar.model().rooms.clone().expect("a rooms block");
    let derived = levelgraph::derive(&grammar, seed).expect("the level derives");
    level_problem(&derived.graph, &spec, &edgar::RoomSets::new()).expect("problem")
}

/// Lays `problem` out with the default settings and layout seed `seed`,
/// and checks the layout with the independent checker.
fn lays_out_at_its_own_seed(problem: &LayoutProblem, seed: u64) {
    let (l, _) = layout(problem, seed, &LayoutSettings::default())
        .unwrap_or_else(|e| panic!("level {seed}: {e}"));
    let violations = check_layout(problem, &l);
    assert!(violations.is_empty(), "level {seed}: {violations:?}");
}

/// Level 872 of `undirected-dungeon-rooms.lg` (tests/data): door 14-15 is
/// joined by three other room-disjoint paths, 17-18 bare, 19-20 with a dead
/// end and 1-9 carrying the rest of the level. 19-20 was annealed and 17-18
/// filled last into whatever pocket it left (9 of 20 layout seeds, not its
/// own); now 17-18 goes first, tucked beside the door, and 19-20 is filled
/// around it by the capped enumeration (`LayoutSettings::compact_detours`):
/// laid out at its own seed, validly. Level 1399 the same with a closing
/// detour of three rooms (6-16-9-8-7 round 6-14-13-7, whose dead end 15
/// goes with it), filled within an annealing's iterations.
#[test]
fn levels_872_and_1399_are_laid_out_with_the_closing_detour_filled_around_the_bare_one() {
    let cases: [(u64, [&[&str]; 2]); 2] = [
        (872, [&["17", "18"], &["20", "19"]]),
        (1399, [&["14", "13", "15"], &["16", "9", "8"]]),
    ];
    for (seed, expected) in cases {
        let problem = dungeon_rooms_level(seed);
        let prepared = Prepared::new(&problem).expect("prepared");
        let names = |c: &[usize]| -> Vec<&str> {
            c.iter().map(|&r| problem.rooms[r].name.as_str()).collect()
        };
        let chains: Vec<Vec<&str>> = prepared.chains().iter().map(|c| names(c)).collect();
        assert_eq!(chains[1..3], expected, "level {seed}: {chains:?}");
        lays_out_at_its_own_seed(&problem, seed);
    }
}

/// Grown level 283 of `undirected-dungeon-rooms.lg` (tests/data) (60 rooms:
/// the rule `settle` removed, `max_vertices` 60, as the layout bench's
/// `LAYOUT_GROWN` does): door 12-13 is joined by three other room-disjoint
/// paths, and the two short ones each have a dead end hanging off a room
/// (rooms 16-17 with 28, 19-20 with 21). Such a detour used to be annealed
/// (0 of 30 layout seeds laid the level out); taken as bare, dead ends
/// aside, and filled exactly with its dead end, it is laid out by 23 of 30
/// and at its own seed, validly.
#[test]
fn grown_level_283_with_dead_ends_off_its_detours_is_laid_out() {
    use levelgraph::rooms::level_problem;
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/undirected-dungeon-rooms.lg");
    let text = std::fs::read_to_string(path).expect("the example");
    let mut text = text
        .replace("max_vertices 40\n", "max_vertices 60\n")
        .replace("max_iterations 300\n", "max_iterations 1120\n");
    let start = text.find("rule settle ").expect("the rule settle");
    let end = start + text[start..].find("\n}\n").expect("its end") + 3;
    text.replace_range(start..end, "");
    let grammar = levelgraph::grammar::load(&text, "grown").expect("the grown example compiles");
    let spec = grammar.model().rooms.clone().expect("a rooms block");
    let derived = levelgraph::derive(&grammar, 283).expect("the level derives");
    let problem = level_problem(&derived.graph, &spec, &edgar::RoomSets::new()).expect("problem");
    assert_eq!(problem.rooms.len(), 60);
    lays_out_at_its_own_seed(&problem, 283);
}

/// A minimum distance beyond what fits in 32 signed bits (a problem built
/// by hand; grammars refuse it) is a very large distance, never a
/// negative one: a path of three rooms cannot keep its two ends that far
/// apart, so no layout comes back (it used to wrap to -1 and be ignored).
#[test]
fn a_huge_minimum_distance_does_not_wrap() {
    let mut p = problem(3, vec![[0, 1], [1, 2]], vec![square("sq", 4, 2)]);
    let settings = LayoutSettings {
        max_iterations: 20_000,
        ..LayoutSettings::default()
    };
    assert!(
        layout(&p, 0, &settings).is_ok(),
        "laid out without the distance"
    );
    p.min_distance = u32::MAX;
    assert!(layout(&p, 0, &settings).is_err(), "ends 4294967295 apart");
}

/// The corners of a staircase of `steps` steps of 1 (`2 · steps + 2`
/// corners), as `bench/stairs-map.sh` draws it.
fn stairs(steps: i32) -> Vec<GridPoint> {
    let mut points = vec![GridPoint::new(0, 0)];
    for i in 0..steps {
        points.push(GridPoint::new(steps - i, i));
        points.push(GridPoint::new(steps - i, i + 1));
    }
    points.push(GridPoint::new(0, steps));
    points
}

/// Three staircase rooms of `steps` steps in a row.
fn stairs_problem(steps: i32) -> LayoutProblem {
    let doors = DoorRule::Overlap {
        length: 1,
        corner_distance: 0,
    };
    let tpl = RoomTemplate::new(
        "stairs",
        &stairs(steps),
        doors,
        Transform::all(false).collect(),
    )
    .expect("a staircase within the corner limit");
    problem(3, vec![[0, 1], [1, 2]], vec![tpl])
}

#[test]
fn a_template_of_more_than_max_corners_is_refused() {
    use levelgraph::layout::polygon::MAX_CORNERS;
    use levelgraph::layout::{PolygonError, TemplateError};
    let steps = (MAX_CORNERS as i32 - 2) / 2;
    assert_eq!(stairs(steps).len(), MAX_CORNERS);
    let doors = DoorRule::Overlap {
        length: 1,
        corner_distance: 0,
    };
    assert!(RoomTemplate::new("ok", &stairs(steps), doors.clone(), vec![]).is_ok());
    let err = RoomTemplate::new("big", &stairs(steps + 1), doors, vec![]).unwrap_err();
    assert!(
        matches!(
            &err,
            TemplateError::Outline {
                source: PolygonError::TooManyCorners(n),
                ..
            } if *n == MAX_CORNERS + 2
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "template `big`: the outline lists 514 corners; a room may have at most 512"
    );
}

/// The work budget stops a run that the iteration limit would not: with
/// half the work a layout took, the same run stops, names `max_work`, and
/// made fewer iterations.
#[test]
fn the_work_budget_stops_a_run_and_says_so() {
    let problem = map("example2_basic.yml");
    let (_, stats) = layout(&problem, 3, &LayoutSettings::default()).expect("laid out");
    let half = stats.work / 2;
    let settings = LayoutSettings {
        max_work: half,
        ..LayoutSettings::default()
    };
    let err = layout(&problem, 3, &settings).unwrap_err();
    let text = err.to_string();
    match err {
        LayoutError::Limit {
            limit, iterations, ..
        } => {
            assert_eq!(limit, LimitKind::MaxWork(half));
            assert!(iterations < stats.iterations, "{text}");
        }
        other => panic!("not stopped by a limit: {other}"),
    }
    assert!(
        text.starts_with(&format!("no layout within max_work {half}: ")),
        "{text}"
    );
}

/// A budget too small for the configuration spaces stops before any
/// search, naming the budget and the largest template: building the
/// spaces of three 302-corner staircases (issue 23) is counted, where
/// `max_iterations` does not reach it.
#[test]
fn the_work_budget_covers_building_the_configuration_spaces() {
    let problem = stairs_problem(150);
    let settings = LayoutSettings {
        max_work: 1_000_000,
        max_iterations: 1,
        ..LayoutSettings::default()
    };
    let err = layout(&problem, 1, &settings).unwrap_err();
    assert!(
        matches!(
            &err,
            LayoutError::Preparation {
                limit: LimitKind::MaxWork(1_000_000),
                shapes: 4,
                corners: 302,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "no layout within max_work 1000000: the configuration spaces of 4 shapes need more work than that (the largest template, `stairs`, has 302 corners); fewer or smaller templates need less"
    );
    // With the default budget the same problem is prepared, and laid out.
    let settings = LayoutSettings::default();
    let (placed, stats) = layout(&problem, 1, &settings).expect("laid out");
    assert!(check_layout(&problem, &placed).is_empty());
    assert!(stats.work < settings.max_work);
}
