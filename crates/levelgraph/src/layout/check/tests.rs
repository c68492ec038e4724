//! Unit tests of the checker (doors, overlaps, outlines, corridors,
//! distances, repeat modes) and a property test against rectangle arithmetic.

use super::cells::raster;
use super::doors::inverse;
use super::*;
use crate::layout::polygon::{GridPoint, Rect, Transform};
use crate::layout::template::DoorRule;
use crate::layout::{CorridorSpec, Door, RoomSpec};

fn pt(x: i32, y: i32) -> GridPoint {
    GridPoint::new(x, y)
}

fn pts(p: &[(i32, i32)]) -> Vec<GridPoint> {
    p.iter().map(|&(x, y)| pt(x, y)).collect()
}

const R0: Transform = Transform::IDENTITY;
const R90: Transform = Transform {
    rotation: 1,
    mirror: false,
};

/// Edgar's thesis_basic default door mode.
fn overlap_2_1() -> DoorRule {
    DoorRule::Overlap {
        length: 2,
        corner_distance: 1,
    }
}

fn rectangle(name: &str, w: i32, h: i32, transforms: Vec<Transform>) -> RoomTemplate {
    RoomTemplate::new(
        name,
        &pts(&[(0, 0), (0, h), (w, h), (w, 0)]),
        overlap_2_1(),
        transforms,
    )
    .unwrap()
}

const SQ8: usize = 0;
const SQ12: usize = 1;
const RECT12X18: usize = 2;
const L: usize = 3;
const CORRIDOR: usize = 4;

/// thesis_basic, an L and thesis_corridors' 2-square.
fn templates() -> Vec<RoomTemplate> {
    vec![
        rectangle("8-square", 8, 8, vec![]),
        rectangle("12-square", 12, 12, vec![]),
        rectangle("12-18-rectangle", 12, 18, vec![]),
        RoomTemplate::new(
            "L",
            &pts(&[(0, 0), (0, 8), (4, 8), (4, 4), (8, 4), (8, 0)]),
            overlap_2_1(),
            Transform::all(false).collect(),
        )
        .unwrap(),
        RoomTemplate::new(
            "2-square",
            &pts(&[(0, 0), (0, 2), (2, 2), (2, 0)]),
            DoorRule::Specific(vec![[pt(0, 0), pt(2, 0)], [pt(0, 2), pt(2, 2)]]),
            Transform::all(false).collect(),
        )
        .unwrap(),
    ]
}

fn problem(rooms: &[(&str, Vec<usize>)], edges: &[[usize; 2]]) -> LayoutProblem {
    LayoutProblem {
        rooms: rooms
            .iter()
            .map(|(name, templates)| RoomSpec {
                name: (*name).to_owned(),
                tag: "room".into(),
                templates: templates.clone(),
            })
            .collect(),
        edges: edges.to_vec(),
        templates: templates(),
        corridors: None,
        min_distance: 0,
        repeat: RepeatMode::Allow,
        drawing: None,
    }
}

/// A placed template, its outline made with the polygon module's own
/// `transformed` (not the checker's code).
fn place(problem: &LayoutProblem, template: usize, t: Transform, at: (i32, i32)) -> PlacedRoom {
    PlacedRoom {
        template,
        transform: t,
        position: pt(at.0, at.1),
        outline: problem.templates[template]
            .outline
            .transformed(t)
            .translated(pt(at.0, at.1))
            .points()
            .to_vec(),
    }
}

fn door(edge: usize, room: usize, corridor: Option<usize>, a: (i32, i32), b: (i32, i32)) -> Door {
    Door {
        edge,
        room,
        corridor,
        segment: [pt(a.0, a.1), pt(b.0, b.1)],
    }
}

fn room(index: usize, name: &str) -> Part {
    Part::Room {
        index,
        name: name.into(),
    }
}

fn kinds(v: &[Violation]) -> Vec<&'static str> {
    v.iter()
        .map(|v| match v {
            Violation::RoomCount { .. } => "RoomCount",
            Violation::CorridorCount { .. } => "CorridorCount",
            Violation::UnknownTemplate { .. } => "UnknownTemplate",
            Violation::TemplateNotAllowed { .. } => "TemplateNotAllowed",
            Violation::TransformNotAllowed { .. } => "TransformNotAllowed",
            Violation::BadOutline { .. } => "BadOutline",
            Violation::OutlineMismatch { .. } => "OutlineMismatch",
            Violation::Overlap { .. } => "Overlap",
            Violation::TooClose { .. } => "TooClose",
            Violation::DoorEdgeUnknown { .. } => "DoorEdgeUnknown",
            Violation::DoorMisattached { .. } => "DoorMisattached",
            Violation::MissingDoor { .. } => "MissingDoor",
            Violation::DuplicateDoor { .. } => "DuplicateDoor",
            Violation::DoorNotStraight { .. } => "DoorNotStraight",
            Violation::DoorNotBetween { .. } => "DoorNotBetween",
            Violation::DoorNotAllowed { .. } => "DoorNotAllowed",
            Violation::RepeatedTemplate { .. } => "RepeatedTemplate",
            Violation::NeighboursShareTemplate { .. } => "NeighboursShareTemplate",
        })
        .collect()
}

/// Two 8-squares `a` at the origin and `b` at `b_at`, joined by one
/// edge with the door `seg`.
fn squares(b_at: (i32, i32), seg: [(i32, i32); 2]) -> (LayoutProblem, Layout) {
    let p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
    let layout = Layout {
        rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
        doors: vec![door(0, 0, None, seg[0], seg[1])],
        corridors: vec![],
    };
    (p, layout)
}

fn refusals(v: &[Violation]) -> Vec<(String, DoorRefusal)> {
    v.iter()
        .filter_map(|v| match v {
            Violation::DoorNotAllowed { by, reason, .. } => Some((by.to_string(), reason.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn two_squares_side_by_side_with_a_door_are_valid() {
    let (p, l) = squares((8, 0), [(8, 1), (8, 3)]);
    assert_eq!(check_layout(&p, &l), vec![]);
    // Either end order, anywhere on the shared side off the corners.
    let (p, l) = squares((8, 0), [(8, 7), (8, 5)]);
    assert_eq!(check_layout(&p, &l), vec![]);
    // Stacked vertically.
    let (p, l) = squares((0, 8), [(3, 8), (5, 8)]);
    assert_eq!(check_layout(&p, &l), vec![]);
}

#[test]
fn a_door_at_a_corner_is_refused_by_both_rooms() {
    let (p, l) = squares((8, 0), [(8, 0), (8, 2)]);
    let v = check_layout(&p, &l);
    let near = DoorRefusal::NearCorner {
        distance: 0,
        wanted: 1,
    };
    assert_eq!(
        refusals(&v),
        vec![("room `a`".into(), near.clone()), ("room `b`".into(), near)]
    );
    assert_eq!(kinds(&v), ["DoorNotAllowed", "DoorNotAllowed"]);
    let msg = v[0].to_string();
    assert!(
        msg.contains("room `a`") && msg.contains("[8, 0]–[8, 2]"),
        "{msg}"
    );
    assert!(
        msg.contains("8-square") && msg.contains("corner distance 1"),
        "{msg}"
    );
}

#[test]
fn a_door_of_the_wrong_length_is_refused() {
    let (p, l) = squares((8, 0), [(8, 1), (8, 4)]);
    let v = check_layout(&p, &l);
    let long = DoorRefusal::Length {
        found: 3,
        wanted: 2,
    };
    assert_eq!(
        refusals(&v),
        vec![("room `a`".into(), long.clone()), ("room `b`".into(), long)]
    );
    assert_eq!(v.len(), 2);
}

#[test]
fn overlapping_rooms_are_reported() {
    let (p, l) = squares((7, 7), [(8, 1), (8, 3)]);
    let v = check_layout(&p, &l);
    assert!(
        v.contains(&Violation::Overlap {
            parts: [room(0, "a"), room(1, "b")],
            cells: 1,
            first: [7, 7],
        }),
        "{v:?}"
    );
    // A whole column.
    let (p, l) = squares((7, 0), [(8, 1), (8, 3)]);
    let v = check_layout(&p, &l);
    assert!(v
        .iter()
        .any(|v| matches!(v, Violation::Overlap { cells: 8, .. })));
}

#[test]
fn a_door_between_rooms_apart_is_reported() {
    let (p, l) = squares((10, 0), [(8, 1), (8, 3)]);
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["DoorNotBetween", "DoorNotAllowed"]);
    assert!(matches!(
        &v[0],
        Violation::DoorNotBetween { units: 2, first, .. } if *first == [pt(8, 1), pt(8, 2)]
    ));
    assert_eq!(
        refusals(&v),
        vec![("room `b`".into(), DoorRefusal::NotOnSide)]
    );
}

#[test]
fn a_door_must_lie_where_both_rooms_touch() {
    // b is raised by 4: the rooms share x = 8 for 4 ≤ y ≤ 8 only.
    let (p, l) = squares((8, 4), [(8, 5), (8, 7)]);
    assert_eq!(check_layout(&p, &l), vec![]);
    let (p, l) = squares((8, 4), [(8, 1), (8, 3)]);
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["DoorNotBetween", "DoorNotAllowed"]);
    // Half on the shared part.
    let (p, l) = squares((8, 4), [(8, 3), (8, 5)]);
    let v = check_layout(&p, &l);
    assert!(matches!(
        &v[0],
        Violation::DoorNotBetween { units: 1, first, .. } if *first == [pt(8, 3), pt(8, 4)]
    ));
    assert_eq!(
        refusals(&v),
        vec![("room `b`".into(), DoorRefusal::NotOnSide)]
    );
}

#[test]
fn doors_must_be_straight_and_attached_to_their_edge() {
    let (p, mut l) = squares((8, 0), [(8, 1), (9, 3)]);
    assert_eq!(kinds(&check_layout(&p, &l)), ["DoorNotStraight"]);
    l.doors[0].segment = [pt(8, 1), pt(8, 1)];
    assert_eq!(kinds(&check_layout(&p, &l)), ["DoorNotStraight"]);
    // From the wrong room: misattached, so the edge has no door.
    l.doors[0] = door(0, 1, None, (8, 1), (8, 3));
    assert_eq!(
        kinds(&check_layout(&p, &l)),
        ["DoorMisattached", "MissingDoor"]
    );
    l.doors[0] = door(3, 0, None, (8, 1), (8, 3));
    assert_eq!(
        kinds(&check_layout(&p, &l)),
        ["DoorEdgeUnknown", "MissingDoor"]
    );
    l.doors = vec![
        door(0, 0, None, (8, 1), (8, 3)),
        door(0, 0, None, (8, 5), (8, 7)),
    ];
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["DuplicateDoor"]);
    assert_eq!(
        v[0].to_string(),
        "edge `a`–`b` has 2 doors from room `a` into room `b`, expected one"
    );
}

#[test]
fn templates_transforms_and_outlines_are_checked() {
    // a uses the 12-square, which it may not.
    let p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
    let l = Layout {
        rooms: vec![place(&p, SQ12, R0, (0, 0)), place(&p, SQ8, R0, (12, 0))],
        doors: vec![door(0, 0, None, (12, 1), (12, 3))],
        corridors: vec![],
    };
    let v = check_layout(&p, &l);
    assert_eq!(
        v,
        vec![Violation::TemplateNotAllowed {
            part: room(0, "a"),
            template: "12-square".into()
        }]
    );

    // The 12 × 18 rectangle turned, which its template does not allow
    // (the outline and door are consistent with the turn).
    let p = problem(&[("a", vec![RECT12X18]), ("b", vec![SQ8])], &[[0, 1]]);
    let l = Layout {
        rooms: vec![
            place(&p, RECT12X18, R90, (0, 0)),
            place(&p, SQ8, R0, (18, 0)),
        ],
        doors: vec![door(0, 0, None, (18, 1), (18, 3))],
        corridors: vec![],
    };
    assert_eq!(kinds(&check_layout(&p, &l)), ["TransformNotAllowed"]);
    // Unturned, the outline is 12 wide: the given outline no longer
    // matches, and the door is off its side.
    let mut l2 = l.clone();
    l2.rooms[0].transform = R0;
    let v = check_layout(&p, &l2);
    assert!(matches!(
        v[0],
        Violation::OutlineMismatch {
            missing: 72,
            extra: 72,
            ..
        }
    ));

    // An 8 × 9 outline for an 8-square.
    let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
    l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 9), (0, 9)]);
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["OutlineMismatch"]);
    assert!(v[0].to_string().contains("0 cells missing, 8 extra"));
    // Same cells, other start and orientation: fine.
    l.rooms[0].outline = pts(&[(8, 8), (8, 0), (0, 0), (0, 8)]);
    assert_eq!(check_layout(&p, &l), vec![]);
    // A diagonal side through the corner cell's centre: the same cells
    // by the crossing rule, but not an orthogonal outline.
    l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 8), (1, 8), (0, 7)]);
    assert_eq!(kinds(&check_layout(&p, &l)), ["BadOutline"]);
    // A longer one cuts off the corner cell.
    l.rooms[0].outline = pts(&[(0, 0), (8, 0), (8, 8), (2, 8), (0, 6)]);
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["BadOutline", "OutlineMismatch"]);
    assert!(v[1].to_string().contains("1 cells missing, 0 extra"));
    // An unknown template.
    l.rooms[0] = place(&p, SQ8, R0, (0, 0));
    l.rooms[0].template = 99;
    assert_eq!(kinds(&check_layout(&p, &l)), ["UnknownTemplate"]);
}

#[test]
fn counts_are_checked() {
    let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
    l.rooms.pop();
    assert_eq!(kinds(&check_layout(&p, &l)), ["RoomCount"]);
    let (p, mut l) = squares((8, 0), [(8, 1), (8, 3)]);
    l.corridors.push(place(&p, CORRIDOR, R0, (20, 20)));
    assert_eq!(kinds(&check_layout(&p, &l)), ["CorridorCount"]);
}

/// The L turned a quarter: its bottom row is 8 × 4 and its upper part
/// x 4..8, y 4..8; an 8-square at (−4, 4) sits in its inner corner.
fn l_and_square(seg: [(i32, i32); 2]) -> (LayoutProblem, Layout) {
    let p = problem(&[("l", vec![L]), ("s", vec![SQ8])], &[[0, 1]]);
    let l = Layout {
        rooms: vec![place(&p, L, R90, (0, 0)), place(&p, SQ8, R0, (-4, 4))],
        doors: vec![door(0, 0, None, seg[0], seg[1])],
        corridors: vec![],
    };
    (p, l)
}

#[test]
fn a_turned_l_takes_doors_on_its_inner_corner_sides() {
    let (p, l) = l_and_square([(1, 4), (3, 4)]);
    assert_eq!(
        l.rooms[0].outline,
        pts(&[(0, 0), (8, 0), (8, 8), (4, 8), (4, 4), (0, 4)])
    );
    assert_eq!(check_layout(&p, &l), vec![]);
    let (p, l) = l_and_square([(4, 5), (4, 7)]);
    assert_eq!(check_layout(&p, &l), vec![]);
    // At the L's outer corner (0, 4): refused by the L only.
    let (p, l) = l_and_square([(0, 4), (2, 4)]);
    assert_eq!(
        refusals(&check_layout(&p, &l)),
        vec![(
            "room `l`".into(),
            DoorRefusal::NearCorner {
                distance: 0,
                wanted: 1
            }
        )]
    );
    // At the inner corner (4, 4), which is also the square's corner.
    let (p, l) = l_and_square([(2, 4), (4, 4)]);
    let near = DoorRefusal::NearCorner {
        distance: 0,
        wanted: 1,
    };
    assert_eq!(
        refusals(&check_layout(&p, &l)),
        vec![("room `l`".into(), near.clone()), ("room `s`".into(), near)]
    );
}

/// Rooms `a` at the origin and `b` at `b_at`, a corridor at `c_at`
/// under `t`, with doors `da` (from a) and `db` (from b).
fn corridor_layout(
    b_at: (i32, i32),
    c_at: (i32, i32),
    t: Transform,
    da: [(i32, i32); 2],
    db: [(i32, i32); 2],
) -> (LayoutProblem, Layout) {
    let mut p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[[0, 1]]);
    p.corridors = Some(CorridorSpec {
        offsets: vec![2],
        templates: vec![CORRIDOR],
    });
    let l = Layout {
        rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
        doors: vec![
            door(0, 0, Some(0), da[0], da[1]),
            door(0, 1, Some(0), db[0], db[1]),
        ],
        corridors: vec![place(&p, CORRIDOR, t, c_at)],
    };
    (p, l)
}

#[test]
fn corridors_with_specific_doors() {
    // b two above a, the 2-square between them.
    let (p, l) = corridor_layout((0, 10), (3, 8), R0, [(3, 8), (5, 8)], [(5, 10), (3, 10)]);
    assert_eq!(check_layout(&p, &l), vec![]);

    // Missing b's door.
    let mut l2 = l.clone();
    l2.doors.pop();
    let v = check_layout(&p, &l2);
    assert_eq!(kinds(&v), ["MissingDoor"]);
    assert_eq!(
        v[0].to_string(),
        "edge `a`–`b` has no door from room `b` into the corridor of `a`–`b`"
    );

    // A door into no corridor when corridors are on.
    let mut l3 = l.clone();
    l3.doors[1].corridor = None;
    assert_eq!(
        kinds(&check_layout(&p, &l3)),
        ["DoorMisattached", "MissingDoor"]
    );

    // The corridor one lower overlaps a.
    let (p, l) = corridor_layout((0, 10), (3, 7), R0, [(3, 8), (5, 8)], [(3, 10), (5, 10)]);
    let v = check_layout(&p, &l);
    let corridor = Part::Corridor {
        edge: 0,
        ends: ["a".into(), "b".into()],
    };
    assert!(v.contains(&Violation::Overlap {
        parts: [room(0, "a"), corridor.clone()],
        cells: 2,
        first: [3, 7],
    }));
    assert!(refusals(&v).contains(&(corridor.to_string(), DoorRefusal::NotListed)));

    // Side by side with the corridor's doors on its left and right:
    // refused unturned, fine turned a quarter.
    let (p, l) = corridor_layout((10, 0), (8, 3), R0, [(8, 3), (8, 5)], [(10, 3), (10, 5)]);
    assert_eq!(
        refusals(&check_layout(&p, &l)),
        vec![
            (corridor.to_string(), DoorRefusal::NotListed),
            (corridor.to_string(), DoorRefusal::NotListed)
        ]
    );
    let (p, l) = corridor_layout((10, 0), (8, 3), R90, [(8, 3), (8, 5)], [(10, 3), (10, 5)]);
    assert_eq!(check_layout(&p, &l), vec![]);

    // Corridor templates must be corridor templates.
    let (p, mut l) = corridor_layout((0, 10), (3, 8), R0, [(3, 8), (5, 8)], [(5, 10), (3, 10)]);
    l.corridors[0].template = SQ8;
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v)[0], "TemplateNotAllowed");
}

/// Two unconnected 8-squares, `b` at `b_at`.
fn apart(b_at: (i32, i32), min_distance: u32) -> Vec<Violation> {
    let mut p = problem(&[("a", vec![SQ8]), ("b", vec![SQ8])], &[]);
    p.min_distance = min_distance;
    let l = Layout {
        rooms: vec![place(&p, SQ8, R0, (0, 0)), place(&p, SQ8, R0, b_at)],
        doors: vec![],
        corridors: vec![],
    };
    check_layout(&p, &l)
}

#[test]
fn unconnected_rooms_keep_the_minimum_distance() {
    let touching = Violation::TooClose {
        rooms: [room(0, "a"), room(1, "b")],
        gap: 0,
        min_distance: 1,
    };
    assert_eq!(apart((8, 0), 1), vec![touching.clone()]);
    assert!(touching.to_string().contains("only 0 apart"));
    assert_eq!(apart((8, 8), 1), vec![touching]); // corners touch
    assert_eq!(apart((9, 0), 1), vec![]);
    assert_eq!(apart((9, 9), 1), vec![]);
    assert_eq!(apart((8, 0), 0), vec![]);
    assert!(matches!(
        apart((9, -9), 2)[..],
        [Violation::TooClose { gap: 1, .. }]
    ));
    assert!(matches!(
        apart((-12, 3), 5)[..],
        [Violation::TooClose { gap: 4, .. }]
    ));
    // Overlap is reported as such, not as a distance.
    assert_eq!(kinds(&apart((4, 4), 1)), ["Overlap"]);
    // Rooms an edge joins may touch whatever the minimum distance.
    let (mut p, l) = squares((8, 0), [(8, 1), (8, 3)]);
    p.min_distance = 3;
    assert_eq!(check_layout(&p, &l), vec![]);
}

#[test]
fn repeat_modes() {
    // a, b: 8-squares, c: a 12-square; edges a–b, b–c.
    let mut p = problem(
        &[
            ("a", vec![SQ8, SQ12]),
            ("b", vec![SQ8, SQ12]),
            ("c", vec![SQ8, SQ12]),
        ],
        &[[0, 1], [1, 2]],
    );
    let l = Layout {
        rooms: vec![
            place(&p, SQ8, R0, (0, 0)),
            place(&p, SQ8, R0, (8, 0)),
            place(&p, SQ12, R0, (16, 0)),
        ],
        doors: vec![
            door(0, 0, None, (8, 1), (8, 3)),
            door(1, 1, None, (16, 1), (16, 3)),
        ],
        corridors: vec![],
    };
    assert_eq!(check_layout(&p, &l), vec![]);
    p.repeat = RepeatMode::NoRepeat;
    assert_eq!(
        check_layout(&p, &l),
        vec![Violation::RepeatedTemplate {
            template: "8-square".into(),
            first: room(0, "a"),
            again: room(1, "b"),
        }]
    );
    p.repeat = RepeatMode::NoImmediate;
    let v = check_layout(&p, &l);
    assert_eq!(kinds(&v), ["NeighboursShareTemplate"]);
    assert!(v[0].to_string().contains("edge `a`–`b`"));
}

#[test]
fn rasterised_outlines_and_inverse_transforms() {
    let l = &templates()[L];
    for t in Transform::all(true) {
        let u = inverse(t);
        for p in [pt(2, 1), pt(-3, 5)] {
            assert_eq!(u.apply(t.apply(p)), p);
            assert_eq!(t.apply(u.apply(p)), p);
        }
        let turned: Vec<Cell> = l
            .outline
            .points()
            .iter()
            .map(|&p| {
                let q = t.apply(p);
                (i64::from(q.x), i64::from(q.y))
            })
            .collect();
        assert_eq!(raster(&turned).unwrap().len(), 48);
    }
    assert_eq!(inverse(R90).rotation, 3);
    // A triangle by the even-odd rule: the cells whose centre is below
    // its slope y = x / 2.
    let tri = raster(&[(0, 0), (4, 0), (4, 2)]).unwrap();
    assert_eq!(
        tri.into_iter().collect::<Vec<_>>(),
        [(1, 0), (2, 0), (3, 0), (3, 1)]
    );
}

proptest::proptest! {
    /// Cross-check against the polygon module's rectangle arithmetic:
    /// two unconnected rectangles overlap in `Rect::overlap` cells or
    /// are `Rect::gap` apart.
    #[test]
    fn rectangles_agree_with_rect_arithmetic(
        w1 in 1i32..7, h1 in 1i32..7, w2 in 1i32..7, h2 in 1i32..7,
        dx in -10i32..10, dy in -10i32..10, d in 1u32..4,
    ) {
        let mut p = problem(&[("a", vec![0]), ("b", vec![1])], &[]);
        p.templates = vec![
            RoomTemplate::new("r1", &pts(&[(0, 0), (w1, 0), (w1, h1), (0, h1)]),
                DoorRule::Overlap { length: 1, corner_distance: 0 }, vec![]).unwrap(),
            RoomTemplate::new("r2", &pts(&[(0, 0), (w2, 0), (w2, h2), (0, h2)]),
                DoorRule::Overlap { length: 1, corner_distance: 0 }, vec![]).unwrap(),
        ];
        p.min_distance = d;
        let l = Layout {
            rooms: vec![place(&p, 0, R0, (0, 0)), place(&p, 1, R0, (dx, dy))],
            doors: vec![],
            corridors: vec![],
        };
        let r1 = Rect { x0: 0, y0: 0, x1: w1, y1: h1 };
        let r2 = Rect { x0: 0, y0: 0, x1: w2, y1: h2 };
        let overlap = r1.overlap(&r2, pt(dx, dy));
        let gap = r1.gap(&r2, pt(dx, dy));
        let v = check_layout(&p, &l);
        let ok = if overlap > 0 {
            matches!(v[..], [Violation::Overlap { cells, .. }] if cells as i64 == overlap)
        } else if i64::from(gap) < i64::from(d) {
            matches!(v[..], [Violation::TooClose { gap: g, .. }] if g == i64::from(gap))
        } else {
            v.is_empty()
        };
        proptest::prop_assert!(ok, "overlap {}, gap {}: {:?}", overlap, gap, v);
    }
}
