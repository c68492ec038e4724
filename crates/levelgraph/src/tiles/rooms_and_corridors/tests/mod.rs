//! Tests of the whole generator: every guarantee on random and hand-picked
//! parameters, pinned maps, and maps made in lent buffers.

use proptest::prelude::*;

use super::placement::apart;
use super::*;
use crate::tiles::map::{room_name, Tile, TileRoom};
use crate::tiles::regions::Regions;

mod drawing;
mod path_check;

/// Every guarantee of [`generate`], checked on one map.
fn check_map(map: &TileMap, params: &RoomsParams) {
    let (w, h) = (map.width, map.height);
    assert_eq!((w, h), (params.width, params.height));
    assert!(!map.rooms.is_empty() && map.rooms.len() <= params.rooms as usize);
    // `Ctx::new` writes each room as a literal of what `TileRoom::rect`
    // makes.
    for (r, room) in map.rooms.iter().enumerate() {
        assert_eq!(*room, TileRoom::rect(room_name(r), "", room.bounds));
    }
    let at = |x: u32, y: u32| map.cells[(y * w + x) as usize];
    for x in 0..w {
        assert_eq!(at(x, 0), Tile::WALL);
        assert_eq!(at(x, h - 1), Tile::WALL);
    }
    for y in 0..h {
        assert_eq!(at(0, y), Tile::WALL);
        assert_eq!(at(w - 1, y), Tile::WALL);
    }
    // Rooms: sizes within the `w/5 × h/5` bound, apart, and the only floor.
    let mut room_at = vec![None; map.cells.len()];
    for (i, room) in map.rooms.iter().enumerate() {
        let r = room.bounds;
        assert_eq!(room.name, format!("room {i}"));
        assert!((params.min_room_size..=w / 5).contains(&r.width), "{r:?}");
        assert!((params.min_room_size..=h / 5).contains(&r.height), "{r:?}");
        for other in &map.rooms[..i] {
            assert!(apart(&r, &other.bounds), "{r:?} {:?}", other.bounds);
        }
        for y in r.y..r.bottom() {
            for x in r.x..r.right() {
                room_at[(y * w + x) as usize] = Some(i);
            }
        }
    }
    for (i, &t) in map.cells.iter().enumerate() {
        assert_eq!(t == Tile::FLOOR, room_at[i].is_some(), "cell {i}");
    }
    // Doors: every door tile listed once, with its room.
    let mut door_room = vec![None; map.cells.len()];
    for door in &map.doors {
        let c = door.cells;
        assert_eq!((c.width, c.height), (1, 1));
        let i = (c.y * w + c.x) as usize;
        assert_eq!(map.cells[i], Tile::DOOR);
        assert!(door_room[i].is_none(), "door listed twice");
        door_room[i] = door.rooms[0];
        assert_eq!(door.rooms[1], None);
    }
    let doors = map.cells.iter().filter(|&&t| t == Tile::DOOR).count();
    assert_eq!(doors, map.doors.len());
    // No grazing: open cells next to floor are doors of that room.
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let i = (y * w + x) as usize;
            let t = map.cells[i];
            if !t.is_passable() || t == Tile::FLOOR {
                continue;
            }
            for j in [i - 1, i + 1, i - w as usize, i + w as usize] {
                if let Some(r) = room_at[j] {
                    assert_eq!(t, Tile::DOOR, "corridor ({x}, {y}) grazes room {r}");
                    assert_eq!(door_room[i], Some(r), "door ({x}, {y})");
                }
            }
            let w = w as usize;
            let diagonal = [i - w - 1, i - w + 1, i + w - 1, i + w + 1];
            if t == Tile::CORRIDOR && diagonal.iter().any(|&j| room_at[j].is_some()) {
                panic!("corridor ({x}, {y}) touches a room's corner");
            }
        }
    }
    // No double corridors: no 2 × 2 block of corridor and door.
    let open = |x: u32, y: u32| matches!(at(x, y), Tile::CORRIDOR | Tile::DOOR);
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            assert!(
                !(open(x, y) && open(x + 1, y) && open(x, y + 1) && open(x + 1, y + 1)),
                "2x2 corridor block at ({x}, {y})\n{}",
                ascii(map)
            );
        }
    }
    // Corridors: walkable in order, from a room's door.
    for c in &map.corridors {
        assert!(c.cells.len() >= 2);
        assert!(c.rooms[0].is_some());
        let first = c.cells[0];
        assert_eq!(at(first[0], first[1]), Tile::DOOR);
        for pair in c.cells.windows(2) {
            let d = pair[0][0].abs_diff(pair[1][0]) + pair[0][1].abs_diff(pair[1][1]);
            assert_eq!(d, 1, "{:?}", c.cells);
        }
        for &[x, y] in &c.cells {
            assert!(matches!(at(x, y), Tile::CORRIDOR | Tile::DOOR));
        }
    }
    // One region holding every room.
    let regions = Regions::of(map);
    assert_eq!(regions.count(), 1, "\n{}", ascii(map));
}

fn ascii(map: &TileMap) -> String {
    let mut s = String::new();
    for row in map.cells.chunks(map.width as usize) {
        for &t in row {
            s.push(match t {
                Tile::WALL => '#',
                Tile::FLOOR => '.',
                Tile::DOOR => '+',
                _ => ',',
            });
        }
        s.push('\n');
    }
    s
}

fn params_strategy() -> impl Strategy<Value = RoomsParams> {
    (1u32..=4)
        .prop_flat_map(|min| {
            (
                5 * min..=100,
                5 * min..=70,
                1u32..=30,
                0u32..=4,
                1u32..=120,
                Just(min),
            )
        })
        .prop_map(
            |(width, height, rooms, corridors, placement_tries, min_room_size)| RoomsParams {
                width,
                height,
                rooms,
                corridors,
                placement_tries,
                min_room_size,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Connectivity, no grazing, no double corridors, rooms in bounds
    /// and apart, solid border, and determinism over random parameters.
    #[test]
    fn every_map_keeps_the_guarantees(params in params_strategy(), seed in any::<u64>()) {
        let map = generate(&params, seed).unwrap();
        check_map(&map, &params);
        prop_assert_eq!(generate(&params, seed).unwrap(), map);
    }

    /// Any parameters at all: an error naming a field, or a map; never
    /// a panic.
    #[test]
    fn any_parameters_give_a_map_or_a_named_error(
        width in prop_oneof![0u32..200, any::<u32>()],
        height in prop_oneof![0u32..200, any::<u32>()],
        rooms in prop_oneof![0u32..40, any::<u32>()],
        corridors in prop_oneof![0u32..20, any::<u32>()],
        placement_tries in prop_oneof![0u32..200, any::<u32>()],
        min_room_size in prop_oneof![0u32..10, any::<u32>()],
        seed in any::<u64>(),
    ) {
        let params = RoomsParams { width, height, rooms, corridors, placement_tries, min_room_size };
        match (params.validate(), generate(&params, seed)) {
            (Ok(()), Ok(map)) => check_map(&map, &params),
            (Err(e), Err(f)) => {
                prop_assert_eq!(&e, &f);
                let TilesError::Parameter { field, .. } = e else {
                    panic!("{e:?}");
                };
                prop_assert!([
                    "width", "height", "rooms", "corridors", "placement_tries", "min_room_size"
                ].contains(&field));
            }
            (v, g) => panic!("validate {v:?}, generate {g:?}"),
        }
    }
}

#[test]
fn defaults_are_valid_and_many_corridors_still_keep_the_rules() {
    let params = RoomsParams::default();
    check_map(&generate(&params, 1).unwrap(), &params);
    for (corridors, rooms) in [(16, 20), (4, 60)] {
        let params = RoomsParams {
            corridors,
            rooms,
            ..RoomsParams::default()
        };
        for seed in 0..20 {
            let map = generate(&params, seed).unwrap();
            check_map(&map, &params);
        }
    }
}

#[test]
fn rooms_across_a_narrow_map_are_still_connected() {
    // Three inner rows and rooms one cell high: a room in the middle
    // row walls off the map with its ring, so a corridor can only join
    // neighbours; links to far rooms wait, or give way to joining the
    // nearest component.
    let params = RoomsParams {
        width: 90,
        height: 5,
        rooms: 30,
        corridors: 1,
        placement_tries: 100,
        min_room_size: 1,
    };
    for seed in 0..40 {
        let map = generate(&params, seed).unwrap();
        assert!(map.rooms.len() >= 4);
        check_map(&map, &params);
    }
}

#[test]
fn a_small_map_is_pinned() {
    // A change to the random draws or to the drawing shows up here.
    let params = RoomsParams {
        width: 40,
        height: 20,
        rooms: 6,
        corridors: 1,
        ..RoomsParams::default()
    };
    let map = generate(&params, 7).unwrap();
    check_map(&map, &params);
    assert_eq!(ascii(&map), PINNED, "\n{}", ascii(&map));
}

const PINNED: &str = "\
    ########################################\n\
    #################....###################\n\
    #####,,,,,,,,,,,+....+,,,,,,,,,+....####\n\
    #####,##,########....###########....####\n\
    #####,##,#######################....####\n\
    #####,##+########################+######\n\
    #####,#.....#####################,######\n\
    #####,#.....+,,,,,,,,,,,,,,,,,,,,,######\n\
    #####,#.....############################\n\
    #####,#.....###......###################\n\
    #####,##+######......+,,,,,,############\n\
    #####,##,######......######+############\n\
    #####,##,#################...###########\n\
    #####+##+#################...###########\n\
    ###......#################...###########\n\
    ###......#################+#############\n\
    ###......+,,,,,,,,,,,,,,,,,#############\n\
    ########################################\n\
    ########################################\n\
    ########################################\n";

/// Eight parameter sets that reach every path of the generator: Ls,
/// Zs, crossings, searches, narrow, crowded and odd sizes (the order is
/// part of [`many_maps_are_pinned`]'s hash).
fn sample_sets() -> [RoomsParams; 8] {
    [
        RoomsParams::default(),
        RoomsParams {
            width: 80,
            height: 25,
            ..RoomsParams::default()
        },
        RoomsParams {
            width: 15,
            height: 15,
            ..RoomsParams::default()
        },
        RoomsParams {
            width: 90,
            height: 5,
            rooms: 30,
            min_room_size: 1,
            ..RoomsParams::default()
        },
        RoomsParams {
            width: 97,
            height: 31,
            rooms: 25,
            corridors: 3,
            min_room_size: 1,
            ..RoomsParams::default()
        },
        RoomsParams {
            width: 200,
            height: 200,
            rooms: 30,
            placement_tries: 1,
            min_room_size: 6,
            ..RoomsParams::default()
        },
        RoomsParams {
            width: 60,
            height: 40,
            rooms: 200,
            corridors: 16,
            placement_tries: 1000,
            min_room_size: 1,
        },
        RoomsParams {
            width: 7,
            height: 120,
            rooms: 40,
            corridors: 2,
            min_room_size: 1,
            ..RoomsParams::default()
        },
    ]
}

/// A map does not depend on the maps made before it on the same thread
/// (the lent buffers hold their cells): each map made after others of
/// larger, smaller and other-width maps equals the map made on a fresh
/// thread.
#[test]
fn maps_do_not_depend_on_the_maps_made_before_them() {
    // Every sample set, each with a seed of its own.
    let sets: Vec<(RoomsParams, u64)> = sample_sets().into_iter().zip(1..).collect();
    let fresh: Vec<TileMap> = sets
        .iter()
        .map(|(p, s)| {
            let (p, s) = (p.clone(), *s);
            std::thread::spawn(move || generate(&p, s).unwrap())
                .join()
                .unwrap()
        })
        .collect();
    for order in [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [7, 6, 5, 4, 3, 2, 1, 0],
        [5, 2, 0, 7, 4, 1, 6, 3],
    ] {
        for i in order {
            let (p, s) = &sets[i];
            assert_eq!(
                generate(p, *s).unwrap(),
                fresh[i],
                "set {i} after {order:?}"
            );
        }
    }
}

/// A map made while the thread's buffers are borrowed (a map made
/// inside a map) is made in fresh buffers, not a double-borrow panic,
/// and is the same map.
#[test]
fn a_map_made_while_the_buffers_are_lent_is_the_same_map() {
    let params = RoomsParams::default();
    let before = generate(&params, 5).unwrap();
    let during = SCRATCH.with(|scratch| {
        let _lent = scratch.borrow_mut();
        generate(&params, 5).unwrap()
    });
    assert_eq!(during, before);
}

/// A thread keeps the buffers of a map of up to [`SCRATCH_KEEP_CELLS`]
/// cells and frees those of a larger one.
#[test]
fn a_thread_keeps_the_buffers_of_small_maps_only() {
    std::thread::spawn(|| {
        let sized = |width, height| RoomsParams {
            width,
            height,
            ..RoomsParams::default()
        };
        let kept = || SCRATCH.with(|s| s.borrow().owner.capacity() + s.borrow().zone.capacity());
        generate(&sized(1024, 1024), 1).unwrap();
        assert!(kept() >= 2 * SCRATCH_KEEP_CELLS);
        generate(&sized(1025, 1024), 1).unwrap();
        assert_eq!(kept(), 0);
    })
    .join()
    .unwrap();
}

/// Pins the bytes of 240 maps of eight parameter sets (Ls, Zs,
/// crossings, searches, narrow and odd sizes): an FNV-1a hash of each
/// map's JSON, folded. Computed on 5bb437c.
#[test]
fn many_maps_are_pinned() {
    let fnv = |h: u64, bytes: &[u8]| {
        bytes
            .iter()
            .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
    };
    let sets = sample_sets();
    let mut h = 0xcbf2_9ce4_8422_2325;
    for p in &sets {
        for seed in 0..30 {
            let map = generate(p, seed).unwrap();
            h = fnv(h, &serde_json::to_vec(&map).unwrap());
        }
    }
    assert_eq!(h, 0x10ad_e03c_ca6b_de10, "pinned hash {h:#018x}");
}

#[test]
fn a_map_of_rooms_wider_than_64_keeps_the_rules() {
    // Rooms of 65 cells and more are filled past `fill_short`'s
    // fixed-size writes.
    let params = RoomsParams {
        width: 400,
        height: 400,
        rooms: 12,
        corridors: 2,
        placement_tries: 100,
        min_room_size: 66,
    };
    for seed in 0..3 {
        let map = generate(&params, seed).unwrap();
        assert!(map.rooms.iter().any(|r| r.bounds.width > 64));
        check_map(&map, &params);
    }
}
