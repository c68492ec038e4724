//! Edgar-DotNet's own example maps and room sets (copied into
//! `tests/data/edgar`, MIT) read into layout problems, checked exactly.

use levelgraph::layout::edgar::{self, EdgarError, RoomSets};
use levelgraph::layout::{DoorRule, GridPoint, LayoutProblem, RepeatMode, Shape, Transform};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/edgar")
}

fn sets() -> RoomSets {
    RoomSets::load_dir(&data().join("rooms")).expect("the reference room sets load")
}

fn map(name: &str) -> LayoutProblem {
    let path = data().join("maps").join(name);
    edgar::load_map(&path, &sets()).unwrap_or_else(|e| panic!("{e}"))
}

fn p(x: i32, y: i32) -> GridPoint {
    GridPoint::new(x, y)
}

const BASIC: [&str; 3] = [
    "thesis_basic/12-square",
    "thesis_basic/8-square",
    "thesis_basic/12-18-rectangle",
];
const ADVANCED: [&str; 3] = [
    "thesis_advanced/small-l-shape",
    "thesis_advanced/big-l-shape",
    "thesis_advanced/regular-t-shape",
];
const CORRIDOR: &str = "thesis_corridors/2-square";

/// What one reference map must load into.
struct Expect {
    file: &'static str,
    rooms: usize,
    edges: usize,
    /// Room templates, in order (every room may use all of them).
    templates: Vec<&'static str>,
    corridors: bool,
}

fn expectations() -> Vec<Expect> {
    let both: Vec<&str> = BASIC.iter().chain(ADVANCED.iter()).copied().collect();
    let custom5 = vec![
        "custom/6-square",
        "custom/6-9-rectangle",
        "custom/small-l-shape",
        "custom/big-l-shape",
        "custom/regular-t-shape",
    ];
    let custom4 = vec![
        "custom/6-square",
        "custom/6-9-rectangle",
        "custom/big-l-shape",
        "custom/regular-t-shape",
    ];
    let e = |file, rooms, edges, templates: &Vec<&'static str>, corridors| Expect {
        file,
        rooms,
        edges,
        templates: templates.clone(),
        corridors,
    };
    vec![
        e("backtracking.yml", 15, 14, &custom5, false),
        e("backtracking_advanced.yml", 15, 14, &both, false),
        e("backtracking_corridors.yml", 15, 14, &both, true),
        e("example1_basic.yml", 9, 11, &BASIC.to_vec(), false),
        e("example1_advanced.yml", 9, 11, &both, false),
        e("example1_corridors.yml", 9, 11, &both, true),
        e("example2_basic.yml", 17, 20, &BASIC.to_vec(), false),
        e("example2_advanced.yml", 17, 20, &both, false),
        e("example2_corridors.yml", 17, 20, &both, true),
        e("generating_one_layout.yml", 13, 15, &custom4, false),
        e("generating_one_layout_advanced.yml", 13, 15, &both, false),
        e("generating_one_layout_corridors.yml", 13, 15, &both, true),
    ]
}

#[test]
fn the_reference_room_sets_load_by_their_names() {
    let s = sets();
    let names: Vec<&str> = s.names().collect();
    // basicRooms.yml is the set `basicSet`: sets go by name, not file.
    assert_eq!(
        names,
        [
            "basicSet",
            "bossRooms",
            "corridors",
            "otherShapes",
            "rectangles",
            "thesis_advanced",
            "thesis_basic",
            "thesis_corridors",
            "thesis_corridors_offset_4",
        ]
    );
}

#[test]
fn every_reference_map_loads_exactly() {
    let all = expectations();
    assert_eq!(all.len(), 12);
    let mut files: Vec<String> = std::fs::read_dir(data().join("maps"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = all.iter().map(|e| e.file.to_owned()).collect();
    listed.sort();
    assert_eq!(files, listed, "every map file is checked");

    for want in &all {
        let pb = map(want.file);
        let f = want.file;
        assert_eq!(pb.rooms.len(), want.rooms, "{f}");
        assert_eq!(pb.edges.len(), want.edges, "{f}");
        let k = want.templates.len();
        let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
        if want.corridors {
            assert_eq!(&names[..k], &want.templates[..], "{f}");
            assert_eq!(&names[k..], &[CORRIDOR], "{f}");
            let c = pb.corridors.as_ref().expect("corridors");
            assert_eq!(c.offsets, [2], "{f}");
            assert_eq!(c.templates, [k], "{f}");
        } else {
            assert_eq!(names, want.templates, "{f}");
            assert!(pb.corridors.is_none(), "{f}");
        }
        let room_templates: Vec<usize> = (0..k).collect();
        for (i, r) in pb.rooms.iter().enumerate() {
            assert_eq!(r.name, i.to_string(), "{f}");
            assert_eq!(r.tag, "room", "{f}");
            assert_eq!(r.templates, room_templates, "{f} room {i}");
        }
        for &[a, b] in &pb.edges {
            assert!(a < pb.rooms.len() && b < pb.rooms.len() && a != b, "{f}");
        }
        assert_eq!(pb.min_distance, 0);
        assert_eq!(pb.repeat, RepeatMode::Allow);
        assert!(pb.drawing.is_none());
        for (i, t) in pb.templates.iter().enumerate() {
            let rotations: Vec<Transform> = Transform::all(false).collect();
            assert_eq!(t.transforms, rotations, "{f} {}", t.name);
            for &tr in &t.transforms {
                let s = Shape::new(i, t, tr);
                assert!(!s.doors.is_empty(), "{f} {} {}", t.name, tr.name());
            }
        }
    }
}

#[test]
fn passages_keep_their_order_and_ends() {
    let pb = map("example1_basic.yml");
    assert_eq!(
        pb.edges,
        [
            [0, 1],
            [0, 3],
            [1, 2],
            [1, 4],
            [1, 5],
            [2, 3],
            [3, 6],
            [4, 5],
            [6, 7],
            [6, 8],
            [7, 8]
        ]
    );
    let pb = map("example2_corridors.yml");
    assert_eq!(pb.edges[0], [0, 1]);
    assert_eq!(pb.edges[19], [15, 16]);
}

#[test]
fn door_rules_and_outlines_come_through_exactly() {
    let pb = map("example1_corridors.yml");
    let t = |name: &str| {
        pb.templates
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(
        t(CORRIDOR).doors,
        DoorRule::Specific(vec![[p(0, 0), p(2, 0)], [p(0, 2), p(2, 2)]])
    );
    assert_eq!(t(CORRIDOR).outline.area(), 4);
    assert_eq!(
        t("thesis_basic/12-square").doors,
        DoorRule::Overlap {
            length: 2,
            corner_distance: 1
        }
    );
    assert_eq!(t("thesis_basic/12-18-rectangle").outline.area(), 12 * 18);
    assert_eq!(
        t("thesis_advanced/regular-t-shape").outline.area(),
        18 * 6 + 6 * 6
    );
    assert_eq!(t("thesis_advanced/big-l-shape").outline.points().len(), 6);

    let pb = map("backtracking.yml");
    for t in &pb.templates {
        assert_eq!(
            t.doors,
            DoorRule::Overlap {
                length: 1,
                corner_distance: 1
            },
            "{}",
            t.name
        );
    }
    let t = pb
        .templates
        .iter()
        .find(|t| t.name == "custom/small-l-shape")
        .unwrap();
    assert_eq!(t.outline.area(), 27);
}

/// A map in the style of Edgar's own `dragonAge.yml`: rooms with shapes of
/// their own, single descriptions, `rotate: false`, `scale`, a per
/// description door mode over the set default, corridors on by default.
#[test]
fn per_room_shapes_rotate_scale_and_implicit_corridors() {
    let text = r"
roomsRange:
  from: 1
  to: 6
passages: [[1,2], [2,3], [3,4], [4,5], [5,6], [6,1]]
rooms:
  # the boss room, never turned
  [1]:
    roomShapes:
      - setName: bossRooms
        rotate: false
  [2, 3]:
    roomShapes:
      - {setName: basicSet, roomDescriptionName: 5-square, probability: 0.5}
      - {setName: basicSet, roomDescriptionName: 12-square}
defaultRoomShapes:
  - setName: basicSet
    roomDescriptionName: 12-square
  - setName: rectangles
    scale: [2, 1]
corridors:
  offsets: [1]
  corridorShapes:
    - setName: corridors
";
    let pb =
        edgar::parse_map(text, Path::new("dragon.yml"), &sets()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "bossRooms/bossRoom1~r0",
            "basicSet/5-square",
            "basicSet/12-square",
            "rectangles/6-square@2x1",
            "rectangles/6-9-rectangle@2x1",
            "corridors/1-2-rectangle",
            "corridors/1-square",
            "corridors/2-l-shape",
        ]
    );
    let rooms: Vec<(&str, &[usize])> = pb
        .rooms
        .iter()
        .map(|r| (r.name.as_str(), r.templates.as_slice()))
        .collect();
    assert_eq!(
        rooms,
        [
            ("1", &[0][..]),
            ("2", &[1, 2][..]),
            ("3", &[1, 2][..]),
            // 12-square is shared with rooms 2 and 3.
            ("4", &[2, 3, 4][..]),
            ("5", &[2, 3, 4][..]),
            ("6", &[2, 3, 4][..]),
        ]
    );
    assert_eq!(pb.templates[0].transforms, [Transform::IDENTITY]);
    assert_eq!(pb.templates[1].transforms.len(), 4);
    // 5-square overrides basicSet's default door mode (corner distance 3).
    assert_eq!(
        pb.templates[1].doors,
        DoorRule::Overlap {
            length: 1,
            corner_distance: 1
        }
    );
    assert_eq!(
        pb.templates[2].doors,
        DoorRule::Overlap {
            length: 1,
            corner_distance: 3
        }
    );
    let b = pb.templates[3].outline.bounds();
    assert_eq!((b.x1 - b.x0, b.y1 - b.y0), (12, 6));
    let b = pb.templates[4].outline.bounds();
    assert_eq!((b.x1 - b.x0, b.y1 - b.y0), (12, 9));
    assert_eq!(pb.edges.len(), 6);
    assert_eq!(pb.edges[5], [5, 0]);
    let c = pb
        .corridors
        .as_ref()
        .expect("corridors on without `enable`");
    assert_eq!(c.offsets, [1]);
    assert_eq!(c.templates, [5, 6, 7]);
    assert_eq!(
        pb.templates[7].doors,
        DoorRule::Specific(vec![[p(0, 0), p(1, 0)], [p(2, 1), p(2, 2)]])
    );
}

#[test]
fn corridors_can_be_switched_off() {
    let path = data().join("maps/example1_corridors.yml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("enable: true", "enable: false");
    let pb = edgar::parse_map(&text, &path, &sets()).unwrap();
    assert!(pb.corridors.is_none());
    assert_eq!(pb.templates.len(), 6, "corridor shapes are not read");
}

#[test]
fn the_default_rooms_folder_is_beside_the_maps_folder() {
    let m = data().join("maps/example1_basic.yml");
    assert_eq!(edgar::default_rooms_dir(&m), data().join("rooms"));
    assert_eq!(
        edgar::default_rooms_dir(Path::new("maps/a.yml")),
        Path::new("rooms")
    );
    assert_eq!(
        edgar::default_rooms_dir(Path::new("a.yml")),
        Path::new("../rooms")
    );
    assert_eq!(
        edgar::default_rooms_dir(Path::new("./a.yml")),
        Path::new("./../rooms")
    );
    let s = RoomSets::load_dir(&edgar::default_rooms_dir(&m)).unwrap();
    assert_eq!(s.len(), 9);
}

#[test]
fn missing_files_name_the_path() {
    let e = edgar::load_map(&data().join("maps/nope.yml"), &sets()).unwrap_err();
    assert!(matches!(e, EdgarError::Io { .. }));
    assert!(e.to_string().contains("nope.yml"), "{e}");
    let e = RoomSets::load_dir(&data().join("no-such-dir")).unwrap_err();
    assert!(e.to_string().contains("no-such-dir"), "{e}");
}

/// A file that is not UTF-8 names the first bad byte's line and column; a
/// folder is refused as a file before anything is read.
#[test]
fn unreadable_files_are_named_and_located() {
    let dir = std::env::temp_dir().join(format!("levelgraph-edgar-bytes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let latin1 = dir.join("latin1.yml");
    std::fs::write(&latin1, b"Rooms:\n  - Caf\xe9\n".as_slice()).unwrap();
    let e = edgar::load_map(&latin1, &sets()).unwrap_err();
    assert!(e.to_string().contains("latin1.yml"), "{e}");
    assert!(
        e.to_string()
            .contains("line 2, column 8: byte 0xe9 is not UTF-8 text"),
        "{e}"
    );
    let e = edgar::load_map(&dir, &sets()).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input never panics: every prefix of every reference file, read as
/// the kind of file it is and as the other kind.
#[test]
fn every_prefix_of_every_reference_file_loads_or_errs() {
    let s = sets();
    let mut texts = Vec::new();
    for dir in ["maps", "rooms"] {
        for e in std::fs::read_dir(data().join(dir)).unwrap() {
            let path = e.unwrap().path();
            texts.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    for (path, text) in &texts {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let part = &text[..end];
            if let Err(e) = edgar::parse_map(part, path, &s) {
                assert!(!e.to_string().is_empty());
            }
            let mut fresh = RoomSets::new();
            let _ = fresh.parse(part, path);
        }
    }
}

/// Deeply nested flow collections are refused before the YAML scanner,
/// whose time grows with the depth for every token, reads them: 100,000
/// `[` (a 200 KB map) took half a minute before failing on the type. The
/// error's column is the 65th bracket's, where the scanner would not have
/// stopped; the time is measured by `bench/slow-inputs.sh`, not here.
#[test]
fn deeply_nested_brackets_are_refused_at_once() {
    let s = sets();
    for (open, close) in [("[", "]"), ("{a: ", "}")] {
        let text = format!(
            "roomsRange: {}{}\n",
            open.repeat(100_000),
            close.repeat(100_000)
        );
        let e = edgar::parse_map(&text, Path::new("deep.yml"), &s).unwrap_err();
        let column = 13 + edgar::MAX_FLOW_DEPTH * open.len();
        assert_eq!(
            e.to_string(),
            format!(
                "deep.yml:1:{column}: flow collections (`[…]`, `{{…}}`) nested more than 64 deep"
            )
        );
        let mut fresh = RoomSets::new();
        let e = fresh.parse(&text, Path::new("deep.yml")).unwrap_err();
        assert!(e.to_string().contains("nested more than 64 deep"), "{e}");
    }
    // Brackets in strings and comments are text, and 64 levels are fine
    // for the scanner (the map is then wrong for other reasons).
    let quoted = format!(
        "# {}\nroomsRange: \"{}\"\n",
        "[".repeat(100),
        "[".repeat(100)
    );
    let e = edgar::parse_map(&quoted, Path::new("q.yml"), &s).unwrap_err();
    assert!(!e.to_string().contains("nested"), "{e}");
    let shallow = format!("roomsRange: {}{}\n", "[".repeat(64), "]".repeat(64));
    let e = edgar::parse_map(&shallow, Path::new("s.yml"), &s).unwrap_err();
    assert!(!e.to_string().contains("nested"), "{e}");
}

/// A byte-order mark before a room set or a map (some Windows editors
/// write one) is skipped, and error lines count as without it.
#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let s = sets();
    for name in ["example1_basic.yml", "backtracking_corridors.yml"] {
        let path = data().join("maps").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let plain = edgar::parse_map(&text, &path, &s).unwrap();
        let marked = edgar::parse_map(&format!("\u{feff}{text}"), &path, &s)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{marked:?}"), format!("{plain:?}"), "{name}");
    }
    let dir = data().join("rooms");
    let first = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_file())
        .expect("a room set file");
    let text = std::fs::read_to_string(&first).unwrap();
    let mut fresh = RoomSets::new();
    fresh
        .parse(&format!("\u{feff}{text}"), &first)
        .unwrap_or_else(|e| panic!("{e}"));
    let bad = "\u{feff}roomsRange: {from: 0, to: 1}\npassages: 7\n";
    let e = edgar::parse_map(bad, Path::new("bad.yml"), &s).unwrap_err();
    let plain =
        edgar::parse_map(&bad['\u{feff}'.len_utf8()..], Path::new("bad.yml"), &s).unwrap_err();
    assert_eq!(e.to_string(), plain.to_string());
}

/// A staircase outline of `corners` corners as Edgar's `shape` list.
fn stairs_shape(corners: usize) -> String {
    let steps = (corners as i32 - 2) / 2;
    let mut points = vec!["[0,0]".to_owned()];
    for i in 0..steps {
        points.push(format!("[{},{i}]", steps - i));
        points.push(format!("[{},{}]", steps - i, i + 1));
    }
    points.push(format!("[0,{steps}]"));
    format!("[{}]", points.join(", "))
}

/// An outline of more than `MAX_CORNERS` corners is refused where it is
/// written: in a map's own set and in a room-set file, by file and field.
#[test]
fn a_description_of_too_many_corners_is_refused_by_file_and_field() {
    use levelgraph::layout::polygon::MAX_CORNERS;
    let description = |corners: usize| {
        format!(
            "  default:\n    doorMode: !OverlapMode {{doorLength: 1}}\n  roomDescriptions:\n    stairs:\n      shape: {}\n",
            stairs_shape(corners)
        )
    };
    let map = |corners: usize| {
        format!(
            "roomsRange: {{from: 0, to: 1}}\npassages: [[0, 1]]\ndefaultRoomShapes:\n  - setName: custom\ncustomRoomDescriptionsSet:\n{}",
            description(corners)
        )
    };
    let s = sets();
    let path = Path::new("stairs.yml");
    assert!(edgar::parse_map(&map(MAX_CORNERS), path, &s).is_ok());
    let e = edgar::parse_map(&map(MAX_CORNERS + 2), path, &s).unwrap_err();
    assert!(matches!(e, EdgarError::Template { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "stairs.yml: customRoomDescriptionsSet.roomDescriptions.stairs: template `custom/stairs`: the outline lists 514 corners; a room may have at most 512"
    );
    // In a room-set file, when a map uses it.
    let mut s = sets();
    let set = format!(
        "name: big\n{}",
        description(MAX_CORNERS + 2).replace("\n  ", "\n")
    );
    let set = set.replacen("  default:", "default:", 1);
    s.parse(&set, Path::new("rooms/big.yml")).unwrap();
    let uses =
        "roomsRange: {from: 0, to: 1}\npassages: [[0, 1]]\ndefaultRoomShapes:\n  - setName: big\n";
    let e = edgar::parse_map(uses, path, &s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "rooms/big.yml: roomDescriptions.stairs: template `big/stairs`: the outline lists 514 corners; a room may have at most 512"
    );
}
