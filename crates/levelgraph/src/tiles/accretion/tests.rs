//! Tests of the accretion generator: its maps' invariants over many seeds
//! and sizes, parameters, limits and dead-end removal.

use proptest::prelude::*;

use super::*;
use crate::rng::Rng;
use crate::tiles::metrics::Metrics;
use crate::tiles::regions::Regions;

/// Small valid parameters: a `width × height` map with modest rooms.
fn small(width: u32, height: u32) -> AccretionParams {
    AccretionParams {
        width,
        height,
        steps: 200,
        min_room_width: 3,
        max_room_width: 5,
        min_room_height: 2,
        max_room_height: 4,
        min_corridor_length: 2,
        max_corridor_length: 6,
        room_chance: 0.5,
        connect_distance: 4,
    }
}

/// The map as text rows: `#` wall, `.` floor, `+` door, `,` corridor.
fn ascii(map: &TileMap) -> Vec<String> {
    (0..map.height)
        .map(|y| {
            (0..map.width)
                .map(|x| match map.cells[map.index(x, y)] {
                    Tile::WALL => '#',
                    Tile::FLOOR => '.',
                    Tile::DOOR => '+',
                    Tile::CORRIDOR => ',',
                    _ => '?',
                })
                .collect()
        })
        .collect()
}

fn grower_map(g: Grower<'_>) -> TileMap {
    g.into_map()
}

/// Every guarantee of [`generate`] on one map.
fn check_map(p: &AccretionParams, map: &TileMap) {
    let (w, h) = (map.width, map.height);
    assert_eq!((w, h), (p.width, p.height));
    assert_eq!(map.cells.len(), (w * h) as usize);
    let at = |x: i64, y: i64| map.get(x, y).unwrap_or(Tile::WALL);
    for x in 0..w {
        assert_eq!(map.cells[map.index(x, 0)], Tile::WALL);
        assert_eq!(map.cells[map.index(x, h - 1)], Tile::WALL);
    }
    for y in 0..h {
        assert_eq!(map.cells[map.index(0, y)], Tile::WALL);
        assert_eq!(map.cells[map.index(w - 1, y)], Tile::WALL);
    }
    // One region, no dead end.
    assert_eq!(Regions::of(map).count(), 1, "{:#?}", ascii(map));
    let metrics = Metrics::of(map);
    assert_eq!(metrics.dead_ends, 0, "{:#?}", ascii(map));
    // Rooms: sizes, floor, one-cell margin to every other room, and the
    // floor cells are exactly the rooms'.
    assert!(!map.rooms.is_empty());
    let mut floor = 0;
    for (i, room) in map.rooms.iter().enumerate() {
        let b = room.bounds;
        assert_eq!(room.name, format!("room {i}"));
        assert!((p.min_room_width..=p.max_room_width).contains(&b.width));
        assert!((p.min_room_height..=p.max_room_height).contains(&b.height));
        assert!(b.x >= 1 && b.y >= 1 && b.right() < w && b.bottom() < h);
        for y in b.y..b.bottom() {
            for x in b.x..b.right() {
                assert_eq!(map.cells[map.index(x, y)], Tile::FLOOR);
            }
        }
        floor += b.width * b.height;
        let ring = TileRect::new(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
        for other in &map.rooms[i + 1..] {
            assert!(!ring.intersects(&other.bounds), "{b:?} {:?}", other.bounds);
        }
    }
    let floor_cells = map.cells.iter().filter(|&&t| t == Tile::FLOOR).count();
    assert_eq!(floor_cells as u32, floor);
    // Nothing side by side but room floor.
    for y in 0..h as i64 - 1 {
        for x in 0..w as i64 - 1 {
            let block = [at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)];
            if block.iter().all(|t| t.is_passable()) {
                assert!(
                    block.iter().all(|&t| t == Tile::FLOOR),
                    "2 × 2 block at ({x}, {y}): {:#?}",
                    ascii(map)
                );
            }
        }
    }
    // No corridor cell beside room floor: rooms are entered by doors.
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            if at(x, y) == Tile::CORRIDOR {
                for (dx, dy) in DIRS {
                    let n = at(x + i64::from(dx), y + i64::from(dy));
                    assert_ne!(n, Tile::FLOOR, "corridor ({x}, {y}) grazes a room");
                }
            }
        }
    }
    check_doors(map);
    check_corridors(map);
}

/// Doors: listed once each, two passable neighbours on opposite sides,
/// next to the rooms they name.
fn check_doors(map: &TileMap) {
    let at = |x: i64, y: i64| map.get(x, y).unwrap_or(Tile::WALL);
    let door_cells = map.cells.iter().filter(|&&t| t == Tile::DOOR).count();
    assert_eq!(door_cells, map.doors.len());
    let touches = |room: usize, x: u32, y: u32| {
        let b = map.rooms[room].bounds;
        let ring = TileRect::new(b.x - 1, b.y - 1, b.width + 2, b.height + 2);
        ring.contains(x, y) && !b.contains(x, y)
    };
    let mut seen = std::collections::BTreeSet::new();
    for door in &map.doors {
        let c = door.cells;
        assert_eq!((c.width, c.height), (1, 1));
        assert!(seen.insert((c.x, c.y)));
        let (x, y) = (i64::from(c.x), i64::from(c.y));
        assert_eq!(at(x, y), Tile::DOOR);
        let open: Vec<bool> = DIRS
            .iter()
            .map(|&(dx, dy)| at(x + i64::from(dx), y + i64::from(dy)).is_passable())
            .collect();
        assert!(
            open == [true, false, true, false] || open == [false, true, false, true],
            "door ({x}, {y}): {open:?}"
        );
        let a = door.rooms[0].expect("a door opens a room");
        assert!(touches(a, c.x, c.y));
        if let Some(b) = door.rooms[1] {
            assert!(touches(b, c.x, c.y) && a != b);
        }
    }
}

/// Corridors: straight runs of corridor cells, each cell listed once, ends
/// at the doors of the rooms they name.
fn check_corridors(map: &TileMap) {
    let mut listed = std::collections::BTreeSet::new();
    for corridor in &map.corridors {
        assert!(!corridor.cells.is_empty());
        for pair in corridor.cells.windows(2) {
            let [[ax, ay], [bx, by]] = [pair[0], pair[1]];
            assert_eq!(ax.abs_diff(bx) + ay.abs_diff(by), 1);
        }
        let [first, last] = [corridor.cells[0], *corridor.cells.last().unwrap()];
        assert!(first[0] == last[0] || first[1] == last[1]);
        for &[x, y] in &corridor.cells {
            assert_eq!(map.cells[map.index(x, y)], Tile::CORRIDOR);
            assert!(listed.insert((x, y)));
        }
        for (end, room) in [first, last].into_iter().zip(corridor.rooms) {
            if let Some(room) = room {
                let door = map.doors.iter().any(|d| {
                    d.rooms.contains(&Some(room))
                        && d.cells.x.abs_diff(end[0]) + d.cells.y.abs_diff(end[1]) == 1
                });
                assert!(door, "corridor end {end:?} has no door to room {room}");
            }
        }
    }
    let corridor_cells = map.cells.iter().filter(|&&t| t == Tile::CORRIDOR).count();
    assert_eq!(corridor_cells, listed.len());
}

#[test]
fn defaults_are_valid_and_grow_a_dungeon() {
    let p = AccretionParams::default();
    assert_eq!(p.validate(), Ok(()));
    let map = generate(&p, 7).unwrap();
    check_map(&p, &map);
    assert!(map.rooms.len() >= 10, "{} rooms", map.rooms.len());
    assert!(!map.corridors.is_empty());
}

#[test]
fn no_steps_leave_the_first_room_alone() {
    let p = AccretionParams {
        steps: 0,
        ..small(12, 9)
    };
    let map = generate(&p, 3).unwrap();
    check_map(&p, &map);
    assert_eq!(map.rooms.len(), 1);
    assert!(map.doors.is_empty() && map.corridors.is_empty());
}

#[test]
fn bad_parameters_name_their_field() {
    type Edit = fn(&mut AccretionParams);
    let cases: [(&str, Edit); 16] = [
        ("width", |p| p.width = 0),
        ("height", |p| p.height = 3),
        ("width", |p| p.width = MAX_SIDE + 1),
        ("steps", |p| p.steps = MAX_STEPS + 1),
        ("min_room_width", |p| p.min_room_width = 1),
        ("max_room_width", |p| p.max_room_width = 3),
        ("max_room_width", |p| p.max_room_width = 79),
        ("min_room_height", |p| p.min_room_height = 0),
        ("max_room_height", |p| p.max_room_height = 2),
        ("max_room_height", |p| p.max_room_height = 49),
        ("min_corridor_length", |p| p.min_corridor_length = 0),
        ("max_corridor_length", |p| p.max_corridor_length = 2),
        ("max_corridor_length", |p| p.max_corridor_length = 79),
        ("room_chance", |p| p.room_chance = f64::NAN),
        ("room_chance", |p| p.room_chance = -0.1),
        ("room_chance", |p| p.room_chance = f64::INFINITY),
    ];
    for (field, edit) in cases {
        let mut p = AccretionParams::default();
        edit(&mut p);
        match generate(&p, 1) {
            Err(TilesError::Parameter { field: f, .. }) => assert_eq!(f, field, "{p:?}"),
            other => panic!("{p:?} gave {other:?}"),
        }
    }
    // The edges of the ranges are accepted.
    let p = AccretionParams {
        max_room_width: 78,
        max_room_height: 48,
        max_corridor_length: 78,
        room_chance: 1.0,
        connect_distance: u32::MAX,
        ..AccretionParams::default()
    };
    check_map(&p, &generate(&p, 1).unwrap());
}

#[test]
fn open_bits_answer_rectangles_across_words() {
    let mut bits = OpenBits::new(150, 3);
    bits.set(64, 1);
    assert!(bits.rect_clear(0, 0, 63, 2));
    assert!(!bits.rect_clear(63, 1, 64, 1));
    assert!(!bits.rect_clear(10, 0, 140, 2));
    assert!(bits.rect_clear(65, 0, 149, 2));
    assert!(bits.rect_clear(0, 0, 149, 0));
    bits.set(149, 2);
    assert!(!bits.rect_clear(149, 2, 149, 2));
    assert!(bits.get(149, 2) && !bits.get(148, 2));
}

/// Draws the two rooms of the hand-worked corridor examples on a
/// 20 × 7 map: room 0 at columns 1–3, room 1 at columns 12–14, rows
/// 2–4 both.
fn two_rooms(p: &AccretionParams) -> Grower<'_> {
    let mut g = Grower::new(p);
    g.draw_room(TileRect::new(1, 2, 3, 3), None);
    g.draw_room(TileRect::new(12, 2, 3, 3), None);
    g
}

#[test]
fn corridors_lengthen_to_join_within_connect_distance() {
    let p = AccretionParams {
        connect_distance: 5,
        ..small(20, 7)
    };
    let mut g = two_rooms(&p);
    // From (4, 3), east of room 0, 3 cells reach column 6; room 1's
    // floor is at column 12, 5 cells further: just within reach.
    assert_eq!(g.plan_corridor(4, 3, 1, 3), Some((8, Some((12, 3)))));
    let start = g.start_at(4, 3).unwrap();
    assert_eq!(
        start,
        Start {
            dir: 1,
            from_room: true
        }
    );
    g.draw_corridor(4, 3, start, 8, Some((12, 3)));
    g.remove_dead_ends();
    let map = grower_map(g);
    assert_eq!(
        ascii(&map),
        [
            "####################",
            "####################",
            "#...########...#####",
            "#...+,,,,,,+...#####",
            "#...########...#####",
            "####################",
            "####################",
        ]
    );
    assert_eq!(
        map.doors,
        [
            door_at(4, 3, [Some(0), None]),
            door_at(11, 3, [Some(1), None])
        ]
    );
    let cells: Vec<[u32; 2]> = (5..=10).map(|x| [x, 3]).collect();
    assert_eq!(
        map.corridors,
        [TileCorridor {
            cells,
            rooms: [Some(0), Some(1)]
        }]
    );
}

#[test]
fn corridors_out_of_reach_are_drawn_short_then_pruned() {
    let p = AccretionParams {
        connect_distance: 4,
        ..small(20, 7)
    };
    let mut g = two_rooms(&p);
    assert_eq!(g.plan_corridor(4, 3, 1, 3), Some((3, None)));
    g.draw_corridor(4, 3, g.start_at(4, 3).unwrap(), 3, None);
    assert_eq!(g.cells[g.index(6, 3)], Tile::CORRIDOR);
    g.remove_dead_ends();
    let map = grower_map(g);
    assert!(map.doors.is_empty() && map.corridors.is_empty());
    assert_eq!(ascii(&map)[3], "#...########...#####");
}

#[test]
fn a_one_cell_corridor_between_rooms_is_one_door_of_both() {
    let p = small(12, 7);
    let mut g = Grower::new(&p);
    g.draw_room(TileRect::new(1, 2, 3, 3), None);
    g.draw_room(TileRect::new(5, 1, 3, 3), None);
    // (4, 2) lies between the rooms: two open neighbours, no start.
    assert_eq!(g.start_at(4, 2), None);
    // Planned from room 0 going east, one cell joins room 1 at once.
    assert_eq!(g.plan_corridor(4, 2, 1, 1), Some((1, Some((5, 2)))));
    let start = Start {
        dir: 1,
        from_room: true,
    };
    g.draw_corridor(4, 2, start, 1, Some((5, 2)));
    let map = grower_map(g);
    assert_eq!(map.doors, [door_at(4, 2, [Some(0), Some(1)])]);
    assert!(map.corridors.is_empty());
}

#[test]
fn rooms_need_a_ring_of_wall() {
    let p = small(16, 9);
    let mut g = Grower::new(&p);
    g.draw_room(TileRect::new(1, 1, 3, 3), None);
    // A corridor down from room 0's bottom row: (2, 4)..(2, 6), door
    // first.
    let start = g.start_at(2, 4).unwrap();
    assert_eq!(
        start,
        Start {
            dir: 2,
            from_room: true
        }
    );
    g.draw_corridor(2, 4, start, 3, None);
    // East from the corridor's end, through (3, 6): a 3 × 2 room at
    // (4, 6) has its ring in columns 3–7, rows 5–8, all wall: it fits.
    let east = g.start_at(3, 6).unwrap();
    assert_eq!(
        east,
        Start {
            dir: 1,
            from_room: false
        }
    );
    assert_eq!(
        g.plan_room(3, 6, 1, 3, 2, 0),
        Some(TileRect::new(4, 6, 3, 2))
    );
    // A 3 × 3 room shifted up to row 4 would have room 0's floor at
    // (3, 3) in its ring; shifted to row 5 it fits; at row 6 it would
    // reach the bottom border.
    assert_eq!(g.plan_room(3, 6, 1, 3, 3, 2), None);
    assert_eq!(
        g.plan_room(3, 6, 1, 3, 3, 1),
        Some(TileRect::new(4, 5, 3, 3))
    );
    assert_eq!(g.plan_room(3, 6, 1, 3, 3, 0), None);
    g.draw_room(TileRect::new(4, 5, 3, 3), Some((3, 6)));
    g.remove_dead_ends();
    let map = grower_map(g);
    assert_eq!(
        ascii(&map),
        [
            "################",
            "#...############",
            "#...############",
            "#...############",
            "##+#############",
            "##,#...#########",
            "##,+...#########",
            "####...#########",
            "################",
        ]
    );
    // The corridor turns through two doors, so it is no dead end. It
    // names room 0, which it was dug from; room 1 was dug from it, not
    // joined by it.
    assert_eq!(map.corridors.len(), 1);
    assert_eq!(map.corridors[0].cells, [[2, 5], [2, 6]]);
    assert_eq!(map.corridors[0].rooms, [Some(0), None]);
    assert_eq!(
        map.doors,
        [
            door_at(2, 4, [Some(0), None]),
            door_at(3, 6, [Some(1), None])
        ]
    );
    check_map(&p, &map);
}

#[test]
fn doors_start_nothing_and_corridors_never_touch_one() {
    let p = AccretionParams {
        connect_distance: 3,
        ..small(16, 12)
    };
    let mut g = Grower::new(&p);
    g.draw_room(TileRect::new(1, 6, 3, 3), None);
    // A corridor east from room 0's top-right cell: its door (4, 6)
    // is next to the room's corner.
    g.draw_corridor(
        4,
        6,
        Start {
            dir: 1,
            from_room: true,
        },
        3,
        None,
    );
    // (4, 5), above the door, has the door as its only open neighbour:
    // a corridor north from it would fit, but nothing starts at a door.
    assert!(g.corridor_base_fits(4, 5, 0, 2));
    assert_eq!(g.start_at(4, 5), None);
    // A room above, and corridors down from it toward the door.
    g.draw_room(TileRect::new(3, 1, 3, 2), None);
    assert_eq!(
        g.start_at(4, 3),
        Some(Start {
            dir: 2,
            from_room: true
        })
    );
    // Three cells would end right above the door: refused.
    assert_eq!(g.plan_corridor(4, 3, 2, 3), None);
    // Two cells end one above it; lengthening would join the door, so
    // it is drawn as it is.
    assert_eq!(g.plan_corridor(4, 3, 2, 2), Some((2, None)));
}

#[test]
fn pruning_follows_dead_ends_back_to_the_junction() {
    let p = AccretionParams {
        connect_distance: 8,
        ..small(20, 9)
    };
    let mut g = Grower::new(&p);
    g.draw_room(TileRect::new(1, 4, 3, 3), None);
    g.draw_room(TileRect::new(12, 4, 3, 3), None);
    // Room 0 to room 1 along row 5, a spur up from (7, 4) to (7, 2),
    // and a stub out of room 1 going east.
    g.draw_corridor(
        4,
        5,
        Start {
            dir: 1,
            from_room: true,
        },
        8,
        Some((12, 5)),
    );
    g.draw_corridor(
        7,
        4,
        Start {
            dir: 0,
            from_room: false,
        },
        3,
        None,
    );
    g.draw_corridor(
        15,
        5,
        Start {
            dir: 1,
            from_room: true,
        },
        2,
        None,
    );
    let before = ascii(&grower_map(clone_grower(&g)));
    assert_eq!(before[2], "#######,############");
    assert_eq!(before[5], "#...+,,,,,,+...+,###");
    g.remove_dead_ends();
    let map = grower_map(g);
    assert_eq!(
        ascii(&map),
        [
            "####################",
            "####################",
            "####################",
            "####################",
            "#...########...#####",
            "#...+,,,,,,+...#####",
            "#...########...#####",
            "####################",
            "####################",
        ]
    );
    assert_eq!(map.corridors.len(), 1);
    assert_eq!(map.doors.len(), 2);
    check_map(
        &AccretionParams {
            min_room_width: 3,
            max_room_width: 3,
            min_room_height: 3,
            max_room_height: 3,
            ..p
        },
        &map,
    );
}

/// A copy of a grower's state (the type holds no `Clone` on purpose:
/// runs never copy it).
fn clone_grower<'a>(g: &Grower<'a>) -> Grower<'a> {
    Grower {
        params: g.params,
        width: g.width,
        height: g.height,
        reach: g.reach,
        cells: g.cells.clone(),
        open: OpenBits {
            words_per_row: g.open.words_per_row,
            bits: g.open.bits.clone(),
        },
        queued: g.queued.clone(),
        frontier: g.frontier.clone(),
        hopeless: g.hopeless,
        drawn: g.drawn,
        rooms: g.rooms.clone(),
        room_at: g.room_at.clone(),
        doors: g.doors.clone(),
        corridors: g
            .corridors
            .iter()
            .map(|c| CorridorRecord {
                cells: c.cells.clone(),
                ends: c.ends,
            })
            .collect(),
    }
}

#[test]
fn growth_stops_early_only_when_nothing_fits_anywhere() {
    for seed in 0..20 {
        let p = AccretionParams {
            steps: MAX_STEPS,
            ..small(24, 16)
        };
        let mut g = Grower::new(&p);
        let mut rng = Rng::seeded(seed);
        g.place_first_room(&mut rng);
        let taken = g.grow(&mut rng, p.steps);
        assert!(taken < p.steps, "seed {seed}: a small map fills up");
        for y in 1..g.height - 1 {
            for x in 1..g.width - 1 {
                assert_eq!(g.start_at(x, y), None, "seed {seed}: ({x}, {y})");
            }
        }
    }
}

/// Valid parameters for small, fast maps.
fn valid_params() -> impl Strategy<Value = AccretionParams> {
    (
        (6u32..40, 6u32..30, 0u32..300),
        (2u32..6, 0u32..5, 2u32..6, 0u32..5),
        (1u32..6, 0u32..8, 0u32..=4, 0u32..10),
    )
        .prop_map(
            |((width, height, steps), (rw, drw, rh, drh), (cl, dcl, chance, reach))| {
                let max_room_width = (rw + drw).min(width - 2);
                let max_room_height = (rh + drh).min(height - 2);
                let max_corridor_length = (cl + dcl).min(width.max(height) - 2);
                AccretionParams {
                    width,
                    height,
                    steps,
                    min_room_width: rw.min(max_room_width),
                    max_room_width,
                    min_room_height: rh.min(max_room_height),
                    max_room_height,
                    min_corridor_length: cl.min(max_corridor_length),
                    max_corridor_length,
                    room_chance: f64::from(chance) / 4.0,
                    connect_distance: reach,
                }
            },
        )
}

/// Anything, often out of range.
fn wild_u32(small: std::ops::Range<u32>) -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => small,
        1 => Just(0u32),
        1 => Just(u32::MAX),
        1 => any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Connectivity, no dead end, room bounds and margins, true lists.
    #[test]
    fn every_map_keeps_the_guarantees(p in valid_params(), seed in any::<u64>()) {
        prop_assert_eq!(p.validate(), Ok(()));
        let map = generate(&p, seed).unwrap();
        check_map(&p, &map);
        prop_assert_eq!(&generate(&p, seed).unwrap(), &map);
    }

    /// The bitset's rectangles agree with looking at every cell.
    #[test]
    fn open_bits_agree_with_cells(
        width in 1usize..200,
        set in proptest::collection::vec((0usize..200, 0usize..4), 0..20),
        rect in (0usize..200, 0usize..200, 0usize..4, 0usize..4),
    ) {
        let mut bits = OpenBits::new(width, 4);
        let mut cells = vec![false; width * 4];
        for (x, y) in set {
            let x = x % width;
            bits.set(x, y);
            cells[y * width + x] = true;
        }
        let (a, b) = (rect.0 % width, rect.1 % width);
        let (x0, x1, y0, y1) = (a.min(b), a.max(b), rect.2.min(rect.3), rect.2.max(rect.3));
        let slow = (y0..=y1).all(|y| (x0..=x1).all(|x| !cells[y * width + x]));
        prop_assert_eq!(bits.rect_clear(x0, y0, x1, y1), slow);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any parameters: a map that keeps the guarantees or a
    /// `Parameter` error, never a panic.
    #[test]
    fn wild_parameters_never_panic(
        sides in (wild_u32(4..40), wild_u32(4..30)),
        steps in prop_oneof![3 => 0u32..200, 1 => Just(MAX_STEPS + 1), 1 => Just(u32::MAX)],
        rooms in (wild_u32(0..8), wild_u32(0..12), wild_u32(0..8), wild_u32(0..12)),
        corridors in (wild_u32(0..6), wild_u32(0..20), wild_u32(0..10)),
        room_chance in prop_oneof![
            3 => -0.5f64..1.5,
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
        ],
        seed in any::<u64>(),
    ) {
        let p = AccretionParams {
            width: sides.0,
            height: sides.1,
            steps,
            min_room_width: rooms.0,
            max_room_width: rooms.1,
            min_room_height: rooms.2,
            max_room_height: rooms.3,
            min_corridor_length: corridors.0,
            max_corridor_length: corridors.1,
            room_chance,
            connect_distance: corridors.2,
        };
        // Keep the accepted cases small so the test stays fast.
        prop_assume!(p.width.saturating_mul(p.height) <= 4096 || p.validate().is_err());
        match generate(&p, seed) {
            Ok(map) => check_map(&p, &map),
            Err(TilesError::Parameter { field, .. }) => {
                prop_assert!(!field.is_empty());
                prop_assert!(p.validate().is_err());
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }
}
