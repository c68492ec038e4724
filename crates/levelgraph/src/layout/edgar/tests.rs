//! Unit tests of the Edgar reader: maps and sets that load, and each kind
//! of bad input with the message and place it gets.

use super::*;
use crate::layout::template::{DoorRule, RepeatMode, TemplateError};
use crate::layout::{LayoutProblem, PolygonError};
use std::path::Path;

/// Two small sets: `a` with a default door mode, `b` without.
fn sets() -> RoomSets {
    let mut s = RoomSets::new();
    s.parse(
        "name: a
default:
  doorMode: !OverlapMode
    doorLength: 1
roomDescriptions:
  sq:
    shape: [[0,0], [0,4], [4,4], [4,0]]
  wide:
    shape: [[0,0], [0,2], [6,2], [6,0]]
",
        Path::new("rooms/a.yml"),
    )
    .unwrap();
    s.parse(
        "name: b
roomDescriptions:
  door:
    shape: [[0,0], [0,2], [2,2], [2,0]]
    doorMode: !ManualMode
      doorPositions: [[[0,0],[2,0]], [[0,2],[2,2]]]
  nodoor:
    shape: [[0,0], [0,2], [2,2], [2,0]]
  diagonal:
    shape: [[0,0], [4,0], [4,4], [1,5]]
    doorMode: !SimpleMode {doorLength: 1}
",
        Path::new("rooms/b.yml"),
    )
    .unwrap();
    s
}

const HEAD: &str = "roomsRange: {from: 0, to: 8}\n";

fn load(body: &str) -> Result<LayoutProblem, EdgarError> {
    parse_map(&format!("{HEAD}{body}"), Path::new("m.yml"), &sets())
}

fn err(body: &str) -> String {
    match load(body) {
        Ok(_) => panic!("loaded:\n{body}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_small_map_loads() {
    let pb = load("passages: [[0,1], [8,0]]\ndefaultRoomShapes: [{setName: a}]\n").unwrap();
    assert_eq!(pb.rooms.len(), 9);
    assert_eq!(pb.edges, [[0, 1], [8, 0]]);
    let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a/sq", "a/wide"]);
    assert_eq!(
        pb.templates[0].doors,
        DoorRule::Overlap {
            length: 1,
            corner_distance: 0
        }
    );
}

#[test]
fn unknown_sets_list_the_known_ones() {
    assert_eq!(
        err("defaultRoomShapes: [{setName: a}, {setName: nope}]\n"),
        "m.yml: defaultRoomShapes[1].setName: unknown room set `nope` (known sets: a, b)"
    );
    assert_eq!(
        err("defaultRoomShapes: [{rotate: false}]\n"),
        "m.yml: defaultRoomShapes[0].setName: no setName, or setName `custom`, but the \
             map has no customRoomDescriptionsSet"
    );
    assert_eq!(
        err("defaultRoomShapes: [{setName: a, roomDescriptionName: round}]\n"),
        "m.yml: defaultRoomShapes[0].roomDescriptionName: set `a` has no room \
             description `round` (it has: sq, wide)"
    );
}

#[test]
fn rooms_outside_the_range_are_refused() {
    assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\npassages:\n  - [0,1]\n  - [1,2]\n  - [2,3]\n  - [3,12]\n"),
            "m.yml: passages[3]: room 12 is outside roomsRange 0..=8"
        );
    assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\nrooms:\n  [2, 9]:\n    roomShapes: [{setName: a}]\n"),
            "m.yml: rooms[2, 9]: room 9 is outside roomsRange 0..=8"
        );
}

#[test]
fn self_loops_and_repeated_passages_are_refused() {
    assert_eq!(
        err("defaultRoomShapes: [{setName: a}]\npassages: [[0,1], [4,4]]\n"),
        "m.yml: passages[1]: [4, 4] joins room 4 to itself"
    );
    assert_eq!(
        err("defaultRoomShapes: [{setName: a}]\npassages: [[0,1], [2,3], [1,0]]\n"),
        "m.yml: passages[2]: [1, 0] repeats passages[0]"
    );
}

#[test]
fn bad_ranges_are_refused() {
    let e = parse_map("passages: []\n", Path::new("m.yml"), &sets()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "m.yml: roomsRange: missing: a map needs `roomsRange: {from, to}`"
    );
    let e = parse_map(
        "roomsRange: {from: 5, to: 3}\n",
        Path::new("m.yml"),
        &sets(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "m.yml: roomsRange: from 5 is greater than to 3"
    );
    let e = parse_map(
        "roomsRange: {from: -2147483648, to: 2147483647}\n",
        Path::new("m.yml"),
        &sets(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most 100000"), "{e}");
    // One room is fine.
    let pb = parse_map(
        "roomsRange: {from: 3, to: 3}\ndefaultRoomShapes: [{setName: a}]\n",
        Path::new("m.yml"),
        &sets(),
    )
    .unwrap();
    assert_eq!(pb.rooms[0].name, "3");
}

#[test]
fn diagonal_shapes_wrap_the_template_error() {
    let e = load("defaultRoomShapes: [{setName: b, roomDescriptionName: diagonal}]\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "rooms/b.yml: roomDescriptions.diagonal: template `b/diagonal`: side [4, 4] → \
             [1, 5] is neither horizontal nor vertical"
    );
    assert!(matches!(
        e,
        EdgarError::Template {
            source: TemplateError::Outline {
                source: PolygonError::Diagonal { .. },
                ..
            },
            ..
        }
    ));
}

#[test]
fn a_missing_door_mode_is_named() {
    assert_eq!(
        err("defaultRoomShapes: [{setName: b}]\n"),
        "rooms/b.yml: roomDescriptions.nodoor: no doorMode, and set `b` has no default doorMode"
    );
    // In the map's own set, the key path says so.
    assert_eq!(
            err("defaultRoomShapes: [{setName: custom}]\ncustomRoomDescriptionsSet:\n  roomDescriptions:\n    x: {shape: [[0,0],[0,1],[1,1],[1,0]]}\n"),
            "m.yml: customRoomDescriptionsSet.roomDescriptions.x: no doorMode, and set \
             `custom` has no default doorMode"
        );
}

#[test]
fn malformed_yaml_gives_line_and_column() {
    let e =
        load("defaultRoomShapes: [{setName: a}]\npassages:\n  - [0,1]\n  - [1,2\n").unwrap_err();
    let EdgarError::Yaml { line, column, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*line, Some(6));
    assert!(column.is_some());
    assert!(e.to_string().starts_with("m.yml:6:"), "{e}");
    assert!(e.to_string().contains("flow sequence"), "{e}");
    // A key Edgar does not know (a typo) is refused, with its place.
    let e = load("defaultRoomShapes: [{setName: a}]\npassage: [[0,1]]\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("m.yml:3:1: unknown field `passage`"),
        "{e}"
    );
    // Wrong types say where.
    let e = load("defaultRoomShapes: [{setName: a}]\npassages: [[0,1,2]]\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("m.yml:3:12: passages[0]: invalid length 3"),
        "{e}"
    );
}

#[test]
fn unknown_door_mode_tags_are_refused_with_their_line() {
    let mut s = RoomSets::new();
    let e = s
            .parse(
                "name: t\nroomDescriptions:\n  x:\n    shape: [[0,0],[0,1],[1,1],[1,0]]\n    doorMode: !CornerMode\n      doorLength: 1\n",
                Path::new("t.yml"),
            )
            .unwrap_err();
    let EdgarError::Yaml { line, column, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!((*line, *column), (Some(5), Some(15)));
    assert!(
        e.to_string().starts_with(
            "t.yml:5:15: roomDescriptions.x: unknown door mode tag `!CornerMode`: Edgar's are"
        ),
        "{e}"
    );
    // An untagged door mode is refused too.
    let e = s
            .parse(
                "name: t\nroomDescriptions:\n  x:\n    doorMode:\n      doorLength: 1\n      cornerDistance: 0\n",
                Path::new("t.yml"),
            )
            .unwrap_err();
    assert!(e.to_string().starts_with("t.yml:"), "{e}");
    assert!(s.is_empty());
}

#[test]
fn set_names_are_required_unique_and_not_custom() {
    let mut s = sets();
    let e = s
        .parse("roomDescriptions: {}\n", Path::new("x.yml"))
        .unwrap_err();
    assert_eq!(e.to_string(), "x.yml: name: a room set needs a name");
    let e = s.parse("name: custom\n", Path::new("x.yml")).unwrap_err();
    assert!(e.to_string().contains("`custom` is reserved"), "{e}");
    let e = s.parse("name: a\n", Path::new("x.yml")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.yml: name: a room set named `a` is already loaded from rooms/a.yml"
    );
    let e = s
        .parse(
            "name: d\nroomDescriptions:\n  x: {}\n  x: {}\n",
            Path::new("d.yml"),
        )
        .unwrap_err();
    assert!(e.to_string().contains("duplicate key \"x\""), "{e}");
    assert_eq!(s.len(), 2);
    assert!(s.contains("b") && !s.contains("d"));
}

#[test]
fn rooms_need_shapes_once() {
    assert_eq!(
        err("rooms:\n  [0, 1]:\n    roomShapes: [{setName: a}]\n"),
        "m.yml: defaultRoomShapes: missing, and rooms 2, 3, 4, 5, 6, 7, 8 have no shapes \
             of their own"
    );
    assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\nrooms:\n  [0, 1]:\n    roomShapes: [{setName: a}]\n  [1]:\n    roomShapes: [{setName: b, roomDescriptionName: door}]\n"),
            "m.yml: rooms[1]: room 1 already has shapes from rooms[0, 1]"
        );
    // All rooms with their own shapes: defaults may be left out.
    let pb = parse_map(
            "roomsRange: {from: 0, to: 1}\nrooms:\n  [0, 1]:\n    roomShapes: [{setName: a, roomDescriptionName: wide}]\n",
            Path::new("m.yml"),
            &sets(),
        )
        .unwrap();
    assert_eq!(pb.templates.len(), 1);
    assert_eq!(pb.rooms[1].templates, [0]);
}

#[test]
fn corridor_templates_need_two_specific_doors() {
    assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  offsets: [2]\n  corridorShapes: [{setName: a}]\n"),
            "m.yml: corridors.corridorShapes: corridor template `a/sq` needs exactly two door \
             positions (!SpecificPositionsMode with two doorPositions): a corridor joins two rooms"
        );
    assert_eq!(
        err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  enable: true\n"),
        "m.yml: corridors.corridorShapes: corridors are enabled but no corridor shapes are \
             given"
    );
    assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  offsets: [2, 0]\n  corridorShapes: [{setName: b, roomDescriptionName: door}]\n"),
            "m.yml: corridors.offsets[1]: an offset must be at least 1"
        );
    let pb = load("defaultRoomShapes: [{setName: a}]\ncorridors:\n  corridorShapes: [{setName: b, roomDescriptionName: door}]\n").unwrap();
    let c = pb.corridors.unwrap();
    assert!(c.offsets.is_empty());
    assert_eq!(c.templates, [2]);
}

#[test]
fn scales_must_be_positive_and_fit() {
    assert_eq!(
        err("defaultRoomShapes: [{setName: a, scale: [0, 2]}]\n"),
        "m.yml: defaultRoomShapes[0].scale: [0, 2]: both factors must be at least 1"
    );
    assert_eq!(
        err("defaultRoomShapes: [{setName: a, scale: [2000000000, 1]}]\n"),
        "rooms/a.yml: roomDescriptions.sq.shape: [4, 4] scaled by [2000000000, 1] overflows"
    );
}

#[test]
fn repeat_modes_must_agree() {
    let map = "roomsRange: {from: 0, to: 2}
defaultRoomShapes: [{setName: custom}]
customRoomDescriptionsSet:
  default:
    doorMode: !OverlapMode {doorLength: 1}
    repeatMode: NoImmediate
  roomDescriptions:
    x: {shape: [[0,0],[0,3],[3,3],[3,0]]}
    y: {shape: [[0,0],[0,3],[3,3],[3,0]], repeatMode: NoImmediate}
";
    let pb = parse_map(map, Path::new("m.yml"), &sets()).unwrap();
    assert_eq!(pb.repeat, RepeatMode::NoImmediate);
    let clash = map.replace("repeatMode: NoImmediate}", "repeatMode: NoRepeat}");
    let e = parse_map(&clash, Path::new("m.yml"), &sets()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "m.yml: repeatMode: the rooms' templates ask for different repeat modes \
             (NoImmediate: custom/x; NoRepeat: custom/y); a layout has one repeat mode for \
             all its rooms"
    );
}

#[test]
fn the_same_description_rotated_and_not_is_two_templates() {
    let pb = load(
            "defaultRoomShapes:\n  - {setName: a, roomDescriptionName: sq}\n  - {setName: a, roomDescriptionName: sq, rotate: false}\n  - {setName: a, roomDescriptionName: sq}\n",
        )
        .unwrap();
    let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a/sq", "a/sq~r0"]);
    assert_eq!(pb.rooms[0].templates, [0, 1]);
}
