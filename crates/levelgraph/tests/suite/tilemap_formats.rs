//! Tile map exports (`formats::tilemap`): ASCII, CSV, PNG and the Tiled
//! `.tmj`/`.tmx` files of a small hand-made map, compared byte for byte
//! with golden files; the PNGs decoded and their pixels checked; the Tiled
//! files parsed back; bad sizes and options refused; and, when Tiled's
//! `tmxrasterizer` is installed (Debian package `tiled`), both Tiled files
//! rendered by Tiled itself.
//!
//! Golden files live in `tests/golden/tiles/`; after an intended format
//! change, rerun with `UPDATE_GOLDEN=1` and review the diff.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use levelgraph::alphabet::{Alphabet, TagStyle};
use levelgraph::formats::tilemap::{
    ascii_legend, tileset_png, to_ascii, to_csv, to_png, to_tmj, to_tmx, PropertyValue,
    TileExportError, TilePalette, TiledOptions, TiledProperty, CORRIDOR_COLOR, DOOR_COLOR,
    FLOOR_COLOR, MARKER_OUTLINE_COLOR, MAX_IMAGE_SIDE, WALL_COLOR,
};
use levelgraph::tiles::{Tile, TileCorridor, TileDoor, TileMap, TileObject, TileRect, TileRoom};
use quick_xml::events::Event;
use quick_xml::Reader;

// ---------------------------------------------------------------- helpers

/// A 16 × 10 map with every kind of thing the exports draw (this is its
/// golden `level.txt`):
///
/// ```text
/// ################
/// #....####ccccc##    v0, top left: an untagged room with key v2 (k)
/// #.k..+::Lccccc##    door, corridor (::), door under lock v4 (L)
/// #....####ccccc##    v3, right: an L-shaped room tagged cave (c), with
/// ##::#######ccc##      item v6 (*) and a door on its west side
/// ##::####::+c*c##    a 2 × 2 corridor from v0 down to v5, cells row by
/// #gggg###:##ccc##      row (not a walk: drawn as its outline)
/// #gggg+:::#######    a corridor walking east, north, east from v5 to v3
/// #gggg###########    v5, bottom left: a room tagged goal (g)
/// ################
/// ```
fn sample_map() -> TileMap {
    let mut map = TileMap::filled(16, 10, Tile::WALL);
    let cave = map.tag_tile("cave").unwrap();
    let goal = map.tag_tile("goal").unwrap();
    // v0: rectangular, untagged.
    let v0 = TileRect::new(1, 1, 4, 3);
    map.fill_rect(v0, Tile::FLOOR);
    map.rooms.push(TileRoom::rect("v0", "", v0));
    // v3: an L, five wide at the top, three wide below.
    map.fill_rect(TileRect::new(9, 1, 5, 3), cave);
    map.fill_rect(TileRect::new(11, 4, 3, 3), cave);
    map.rooms.push(TileRoom {
        name: "v3".into(),
        tag: "cave".into(),
        bounds: TileRect::new(9, 1, 5, 6),
        outline: vec![[9, 1], [14, 1], [14, 7], [11, 7], [11, 4], [9, 4]].into(),
    });
    // v5: rectangular, tagged.
    let v5 = TileRect::new(1, 6, 4, 3);
    map.fill_rect(v5, goal);
    map.rooms.push(TileRoom::rect("v5", "goal", v5));
    // v0 → v3: door, two corridor cells, door.
    map.set(5, 2, Tile::DOOR);
    map.set(6, 2, Tile::CORRIDOR);
    map.set(7, 2, Tile::CORRIDOR);
    map.set(8, 2, Tile::DOOR);
    map.doors.push(TileDoor {
        cells: TileRect::new(5, 2, 1, 1),
        rooms: [Some(0), None],
    });
    map.doors.push(TileDoor {
        cells: TileRect::new(8, 2, 1, 1),
        rooms: [None, Some(1)],
    });
    map.corridors.push(TileCorridor {
        cells: vec![[6, 2], [7, 2]],
        rooms: [Some(0), Some(1)],
    });
    // v0 → v5: a 2 × 2 corridor, cells row by row as a rasterized layout
    // gives them, opening straight into both rooms.
    map.fill_rect(TileRect::new(2, 4, 2, 2), Tile::CORRIDOR);
    map.corridors.push(TileCorridor {
        cells: vec![[2, 4], [3, 4], [2, 5], [3, 5]],
        rooms: [Some(0), Some(2)],
    });
    // v5 → v3: door, a corridor walking east, north and east, door.
    let walk = [[6, 7], [7, 7], [8, 7], [8, 6], [8, 5], [9, 5]];
    map.set(5, 7, Tile::DOOR);
    for [x, y] in walk {
        map.set(x, y, Tile::CORRIDOR);
    }
    map.set(10, 5, Tile::DOOR);
    map.doors.push(TileDoor {
        cells: TileRect::new(5, 7, 1, 1),
        rooms: [Some(2), None],
    });
    map.doors.push(TileDoor {
        cells: TileRect::new(10, 5, 1, 1),
        rooms: [None, Some(1)],
    });
    map.corridors.push(TileCorridor {
        cells: walk.to_vec(),
        rooms: [Some(2), Some(1)],
    });
    map.objects.push(TileObject {
        name: "v2".into(),
        kind: "key".into(),
        cell: [2, 2],
        room: Some(0),
        properties: Vec::new(),
    });
    map.objects.push(TileObject {
        name: "v4".into(),
        kind: "lock".into(),
        cell: [8, 2],
        room: None,
        properties: Vec::new(),
    });
    map.objects.push(TileObject {
        name: "v6".into(),
        kind: "treasure".into(),
        cell: [12, 5],
        room: Some(1),
        properties: Vec::new(),
    });
    map
}

fn alphabet() -> Alphabet {
    let tag = |name: &str, color: &str| TagStyle {
        name: name.into(),
        description: String::new(),
        color: color.into(),
    };
    Alphabet {
        tags: vec![
            tag("cave", "#8d6e63"),
            tag("goal", "#2e7d32"),
            tag("key", "#f9a825"),
            tag("lock", "#c62828"),
        ],
    }
}

fn options(tile_px: u32) -> TiledOptions {
    TiledOptions {
        tile_px,
        tileset_image: "tileset.png".into(),
        properties: vec![
            TiledProperty::string("generator", "levelgraph"),
            TiledProperty::string("seed", "18446744073709551615"),
            TiledProperty {
                name: "rooms".into(),
                value: PropertyValue::Int(3),
            },
            TiledProperty {
                name: "floor_ratio".into(),
                value: PropertyValue::Float(0.25),
            },
            TiledProperty {
                name: "connected".into(),
                value: PropertyValue::Bool(true),
            },
        ],
    }
}

/// Width, height and RGB pixels of an 8-bit RGB PNG.
fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

fn pixel(image: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let at = (y as usize * image.0 as usize + x as usize) * 3;
    image.2[at..at + 3].try_into().unwrap()
}

fn parameter_field(r: Result<impl std::fmt::Debug, TileExportError>) -> &'static str {
    match r {
        Err(TileExportError::Parameter { field, .. }) => field,
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

/// A fresh directory under Cargo's scratch space for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ---------------------------------------------------------------- goldens

#[test]
fn ascii_and_legend_match_the_golden_files() {
    let map = sample_map();
    let ascii = to_ascii(&map);
    common::assert_golden("tiles/level.txt", ascii.as_bytes());
    common::assert_golden("tiles/legend.txt", ascii_legend(&map).as_bytes());
    // Spot checks that do not depend on the golden file being right.
    let rows: Vec<&str> = ascii.lines().collect();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.chars().count() == 16));
    assert_eq!(&rows[2][..9], "#.k..+::L");
    assert_eq!(rows[5].chars().nth(12), Some('*'));
    assert_eq!(rows[6].chars().nth(1), Some('g'));
    assert_eq!(rows[1].chars().nth(9), Some('c'));
}

#[test]
fn csv_matches_the_golden_file() {
    let map = sample_map();
    let csv = to_csv(&map);
    common::assert_golden("tiles/level.csv", csv.as_bytes());
    let rows: Vec<Vec<u8>> = csv
        .lines()
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[2][..9], [0, 1, 1, 1, 1, 2, 3, 3, 2]);
    assert_eq!(rows[1][9], 4);
    assert_eq!(rows[6][1], 5);
}

#[test]
fn pngs_match_the_golden_files_and_show_the_palette() {
    let map = sample_map();
    let palette = TilePalette::new(&map, &alphabet());
    let small = to_png(&map, &palette, 1).unwrap();
    let large = to_png(&map, &palette, 8).unwrap();
    let tileset = tileset_png(&palette, 16).unwrap();
    common::assert_golden("tiles/level-1px.png", &small);
    common::assert_golden("tiles/level-8px.png", &large);
    common::assert_golden("tiles/tileset.png", &tileset);
    assert_eq!(to_png(&map, &palette, 8).unwrap(), large, "deterministic");

    let cave = [0x8d, 0x6e, 0x63];
    let goal = [0x2e, 0x7d, 0x32];
    let small = decode(&small);
    assert_eq!((small.0, small.1), (16, 10));
    assert_eq!(pixel(&small, 0, 0), WALL_COLOR);
    // One pixel per cell: objects are not drawn.
    assert_eq!(pixel(&small, 2, 2), FLOOR_COLOR);
    assert_eq!(pixel(&small, 5, 2), DOOR_COLOR);
    assert_eq!(pixel(&small, 6, 2), CORRIDOR_COLOR);
    assert_eq!(pixel(&small, 9, 1), cave);
    assert_eq!(pixel(&small, 1, 6), goal);

    let large = decode(&large);
    assert_eq!((large.0, large.1), (128, 80));
    // Cell (2, 2) holds the key: floor at the cell's rim, the marker from
    // pixel 2 to 5 (inset 8 / 4), framed in black, key yellow inside.
    let (x, y) = (2 * 8, 2 * 8);
    assert_eq!(pixel(&large, x, y), FLOOR_COLOR);
    assert_eq!(pixel(&large, x + 1, y + 1), FLOOR_COLOR);
    assert_eq!(pixel(&large, x + 2, y + 2), MARKER_OUTLINE_COLOR);
    assert_eq!(pixel(&large, x + 3, y + 3), [0xf9, 0xa8, 0x25]);
    assert_eq!(pixel(&large, x + 4, y + 4), [0xf9, 0xa8, 0x25]);
    assert_eq!(pixel(&large, x + 5, y + 5), MARKER_OUTLINE_COLOR);
    assert_eq!(pixel(&large, x + 6, y + 6), FLOOR_COLOR);
    // The lock on a door, the undeclared treasure grey on the cave.
    assert_eq!(pixel(&large, 8 * 8 + 3, 2 * 8 + 4), [0xc6, 0x28, 0x28]);
    assert_eq!(pixel(&large, 8 * 8, 2 * 8), DOOR_COLOR);
    assert_eq!(pixel(&large, 12 * 8 + 3, 5 * 8 + 3), [0xbd, 0xbd, 0xbd]);
    assert_eq!(pixel(&large, 12 * 8 + 7, 5 * 8 + 7), cave);

    let tileset = decode(&tileset);
    assert_eq!((tileset.0, tileset.1), (6 * 16, 16));
    for (code, want) in [
        WALL_COLOR,
        FLOOR_COLOR,
        DOOR_COLOR,
        CORRIDOR_COLOR,
        cave,
        goal,
    ]
    .into_iter()
    .enumerate()
    {
        let x = code as u32 * 16;
        assert_eq!(pixel(&tileset, x, 0), want, "tile {code}");
        assert_eq!(pixel(&tileset, x + 15, 15), want, "tile {code}");
    }
}

#[test]
fn tiled_files_match_the_golden_files_and_parse() {
    let map = sample_map();
    let tmj = to_tmj(&map, &options(16)).unwrap();
    let tmx = to_tmx(&map, &options(16)).unwrap();
    common::assert_golden("tiles/level.tmj", tmj.as_bytes());
    common::assert_golden("tiles/level.tmx", tmx.as_bytes());

    let doc: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    assert_eq!(doc["version"], "1.10");
    assert_eq!(doc["orientation"], "orthogonal");
    assert_eq!(doc["infinite"], false);
    let data = doc["layers"][0]["data"].as_array().unwrap();
    assert_eq!(data.len(), 160);
    // Global ids are codes plus one.
    assert!(map
        .cells
        .iter()
        .zip(data)
        .all(|(t, gid)| gid.as_u64() == Some(u64::from(t.0) + 1)));
    let objects = doc["layers"][1]["objects"].as_array().unwrap();
    let kinds: Vec<&str> = objects
        .iter()
        .map(|o| o["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "room", "cave", "goal", "door", "door", "door", "door", "corridor", "corridor",
            "corridor", "key", "lock", "treasure"
        ]
    );
    assert_eq!(doc["nextobjectid"], 14);
    // The L room is a polygon, the others rectangles; the 2 × 2 corridor a
    // rectangle, the walks polylines.
    assert!(objects[1]["polygon"].is_array() && objects[0]["polygon"].is_null());
    assert_eq!(objects[8]["width"], 32);
    assert_eq!(objects[9]["polyline"].as_array().unwrap().len(), 4);
    assert_eq!(objects[10]["point"], true);
    assert_eq!(
        (&objects[10]["x"], &objects[10]["y"]),
        (&40.into(), &40.into())
    );
    let tileset = &doc["tilesets"][0];
    assert_eq!(tileset["image"], "tileset.png");
    assert_eq!(tileset["tilecount"], 6);
    assert_eq!(tileset["tiles"][4]["type"], "cave");

    let mut reader = Reader::from_str(&tmx);
    reader.config_mut().check_end_names = true;
    let (mut n_objects, mut csv) = (0, String::new());
    let mut in_data = false;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"object" => n_objects += 1,
            Event::Start(e) if e.name().as_ref() == b"data" => in_data = true,
            Event::Text(t) if in_data => csv.push_str(&t.decode().unwrap()),
            Event::End(e) if e.name().as_ref() == b"data" => in_data = false,
            _ => {}
        }
    }
    assert_eq!(n_objects, 13);
    let gids: Vec<u32> = csv.split(',').map(|g| g.trim().parse().unwrap()).collect();
    assert_eq!(gids.len(), 160);
    assert_eq!(gids[2 * 16 + 5], 3, "the door at (5, 2)");
}

#[test]
fn odd_tile_sizes_put_centres_on_half_pixels() {
    let map = sample_map();
    let tmj = to_tmj(&map, &options(5)).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&tmj).unwrap();
    let key = &doc["layers"][1]["objects"][10];
    assert_eq!(
        (key["x"].as_f64(), key["y"].as_f64()),
        (Some(12.5), Some(12.5))
    );
    assert!(to_tmx(&map, &options(5))
        .unwrap()
        .contains(r#"name="v2" type="key" x="12.5" y="12.5""#));
}

// ---------------------------------------------------------------- errors

#[test]
fn bad_sizes_and_options_are_errors_naming_the_field() {
    let map = sample_map();
    let palette = TilePalette::new(&map, &alphabet());
    assert_eq!(parameter_field(to_png(&map, &palette, 0)), "cell_px");
    // 16 × 1025 = 16400 pixels wide.
    assert_eq!(parameter_field(to_png(&map, &palette, 1025)), "cell_px");
    assert_eq!(parameter_field(tileset_png(&palette, 0)), "tile_px");
    assert_eq!(
        parameter_field(tileset_png(&palette, MAX_IMAGE_SIDE / 6 + 1)),
        "tile_px"
    );

    assert_eq!(
        parameter_field(to_tmj(&map, &options(0))),
        "options.tile_px"
    );
    assert_eq!(
        parameter_field(to_tmx(&map, &options(MAX_IMAGE_SIDE / 6 + 1))),
        "options.tile_px"
    );
    let mut o = options(16);
    o.tileset_image.clear();
    assert_eq!(parameter_field(to_tmj(&map, &o)), "options.tileset_image");
    let mut o = options(16);
    o.properties.push(TiledProperty::string("seed", "1"));
    assert_eq!(parameter_field(to_tmx(&map, &o)), "options.properties");
    let mut o = options(16);
    o.properties[3].value = PropertyValue::Float(f64::NAN);
    assert_eq!(parameter_field(to_tmj(&map, &o)), "options.properties");

    // A map that breaks its invariants is refused, not drawn.
    let mut broken = sample_map();
    broken.corridors[0].cells.push([16, 2]);
    match to_tmj(&broken, &options(16)) {
        Err(TileExportError::Map { field, .. }) => assert_eq!(field, "corridors[0].cells[2]"),
        other => panic!("expected a map error, got {other:?}"),
    }
    let mut broken = sample_map();
    broken.cells[7] = Tile(6);
    assert!(matches!(
        to_png(&broken, &palette, 1),
        Err(TileExportError::Map { .. })
    ));
}

// ---------------------------------------------------------------- Tiled

/// Renders both Tiled files with Tiled's own `tmxrasterizer`, once whole
/// and once without the object layer, and checks the pictures' size and
/// that every cell shows its kind's tile from the tileset. Skipped, with a
/// note, where Tiled is not installed (`apt-get install tiled` on Debian
/// and Ubuntu).
#[test]
fn tiled_renders_both_files() {
    let dir = scratch("tilemap-tiled");
    let map = sample_map();
    let palette = TilePalette::new(&map, &alphabet());
    std::fs::write(dir.join("level.tmj"), to_tmj(&map, &options(16)).unwrap()).unwrap();
    std::fs::write(dir.join("level.tmx"), to_tmx(&map, &options(16)).unwrap()).unwrap();
    std::fs::write(dir.join("tileset.png"), tileset_png(&palette, 16).unwrap()).unwrap();
    for file in ["level.tmj", "level.tmx"] {
        for tiles_only in [false, true] {
            let out = dir.join(format!("{file}-{tiles_only}.png"));
            let mut command = Command::new("tmxrasterizer");
            command.env("QT_QPA_PLATFORM", "offscreen");
            if tiles_only {
                command.args(["--hide-layer", "objects"]);
            }
            let run = match command.arg(dir.join(file)).arg(&out).output() {
                Ok(run) => run,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    eprintln!("note: tmxrasterizer not found (Debian package `tiled`); skipped");
                    return;
                }
                Err(e) => panic!("tmxrasterizer: {e}"),
            };
            assert!(
                run.status.success(),
                "tmxrasterizer {file}: {}\n{}",
                run.status,
                String::from_utf8_lossy(&run.stderr)
            );
            let (width, height, channels, pixels) = decode_any(&std::fs::read(&out).unwrap());
            assert_eq!(
                (width, height),
                (256, 160),
                "{file} rendered at the map's size"
            );
            if !tiles_only {
                continue;
            }
            for y in 0..map.height {
                for x in 0..map.width {
                    let at =
                        ((y * 16 + 8) as usize * width as usize + (x * 16 + 8) as usize) * channels;
                    let tile = map.cells[map.index(x, y)];
                    assert_eq!(
                        pixels[at..at + 3],
                        palette.tile_color(tile).unwrap(),
                        "{file}: cell ({x}, {y})"
                    );
                }
            }
        }
    }
}

/// Width, height, channels per pixel and 8-bit pixels of any PNG.
fn decode_any(png_bytes: &[u8]) -> (u32, u32, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    let channels = info.line_size / info.width as usize;
    (info.width, info.height, channels, pixels)
}
