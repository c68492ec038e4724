//! Tile map exports: a [`TileMap`] as the files a game developer loads.
//!
//! - [`to_ascii`] (`level.txt`): one character per cell, one line per row;
//!   [`ascii_legend`] names the characters a map uses. [`write_ascii`]
//!   writes it to a file a row at a time.
//! - [`to_csv`] (`level.csv`): the tile codes, comma-separated, one line per
//!   row (the layout of a Tiled CSV layer, and what Phaser's CSV tilemap
//!   loader reads); [`write_csv`] writes it a row at a time.
//! - [`to_png`] (`level.png`): one pixel, or one `cell_px × cell_px` block,
//!   per cell, coloured by a [`TilePalette`]; [`tileset_png`] draws one
//!   solid tile per kind, the image of the Tiled tileset.
//! - [`to_tmj`] (`level.tmj`) and [`to_tmx`] (`level.tmx`): Tiled 1.10 maps
//!   in JSON and XML with a tile layer, an object layer (rooms, doors,
//!   corridors, keys, locks, items) and an embedded tileset.
//!
//! Tile codes are [`Tile`]'s: `0` wall, `1` floor, `2` door, `3` corridor,
//! then `4 + i` for the floor of rooms tagged `map.tag_kinds[i]`. Tiled's
//! global tile ids are the codes plus one (`0` is Tiled's empty cell).
//! Coordinates: x to the right, y down, from the map's top-left corner, in
//! cells for ASCII and CSV and in pixels (`cell × tile_px`) for Tiled.
//!
//! Every export is deterministic: the same map (and palette, options) gives
//! the same bytes on every machine. The ASCII and CSV exports never fail;
//! the PNG and Tiled exports check their parameters and the map's
//! invariants (see [`TileMap`]) first and return a [`TileExportError`]
//! naming the field at fault.

mod ascii;
mod csv;
mod png;
mod tiled;

pub use self::ascii::{ascii_legend, ascii_symbols, to_ascii, write_ascii, AsciiSymbol};
pub use self::csv::{to_csv, write_csv};
pub use self::png::{
    tileset_png, to_png, Rgb, TilePalette, CORRIDOR_COLOR, DOOR_COLOR, FLOOR_COLOR,
    MARKER_OUTLINE_COLOR, MAX_IMAGE_SIDE, WALL_COLOR,
};
pub use self::tiled::{
    to_tmj, to_tmx, PropertyValue, TiledOptions, TiledProperty, TILED_FORMAT_VERSION, TILESET_NAME,
};

use crate::tiles::{Tile, TileMap, TileRect};

/// Why an export refused a map or its parameters.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TileExportError {
    /// A parameter of the export is out of range (`field` as the Rust API
    /// spells it, e.g. `cell_px`, `options.tile_px`).
    #[error("invalid `{field}`: {message}")]
    Parameter {
        /// The parameter.
        field: &'static str,
        /// What is wrong and what would be accepted.
        message: String,
    },
    /// The map breaks an invariant of [`TileMap`]: `field` is the path of
    /// the first offending value, e.g. `cells[17]` or `doors[2].rooms[1]`.
    #[error("invalid map field `{field}`: {message}")]
    Map {
        /// The offending field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The PNG encoder failed (it writes into memory, so this means an
    /// image the `png` crate refuses).
    #[error("PNG encoding failed")]
    Png(#[from] ::png::EncodingError),
}

impl TileExportError {
    fn parameter(field: &'static str, message: impl Into<String>) -> Self {
        TileExportError::Parameter {
            field,
            message: message.into(),
        }
    }

    fn map(field: impl Into<String>, message: impl Into<String>) -> Self {
        TileExportError::Map {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// How an object is drawn: keys and locks get their own symbol and Tiled
/// objects keep their kind, everything else is an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ObjectClass {
    Key,
    Lock,
    Item,
}

impl ObjectClass {
    /// `key` when a word of `kind` (split at anything but ASCII letters
    /// and digits, case ignored) is `key`, else `lock` likewise, else an
    /// item: so `key`, `init-key` and `red_key` are keys, and grammars that
    /// tag keys by colour still draw them as keys.
    fn of(kind: &str) -> Self {
        let has_word = |word: &str| {
            kind.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case(word))
        };
        if has_word("key") {
            ObjectClass::Key
        } else if has_word("lock") {
            ObjectClass::Lock
        } else {
            ObjectClass::Item
        }
    }
}

/// Checks the invariants of [`TileMap`] the PNG and Tiled exports rely on:
/// a non-empty grid with `width × height` cells, every cell of a kind the
/// map names, every rectangle and cell of the lists on the map, every room
/// index naming a room and every room outline at least a triangle.
fn check_map(map: &TileMap) -> Result<(), TileExportError> {
    if map.width == 0 {
        return Err(TileExportError::map("width", "must be at least 1"));
    }
    if map.height == 0 {
        return Err(TileExportError::map("height", "must be at least 1"));
    }
    let n_cells = u64::from(map.width) * u64::from(map.height);
    if map.cells.len() as u64 != n_cells {
        return Err(TileExportError::map(
            "cells",
            format!(
                "{} cells for a {} × {} map (want {n_cells})",
                map.cells.len(),
                map.width,
                map.height
            ),
        ));
    }
    if map.tag_kinds.len() > Tile::MAX_TAG_KINDS {
        return Err(TileExportError::map(
            "tag_kinds",
            format!(
                "{} tag kinds (at most {})",
                map.tag_kinds.len(),
                Tile::MAX_TAG_KINDS
            ),
        ));
    }
    let n_kinds = usize::from(Tile::FIRST_TAG) + map.tag_kinds.len();
    if let Some(i) = map.cells.iter().position(|t| usize::from(t.0) >= n_kinds) {
        return Err(TileExportError::map(
            format!("cells[{i}]"),
            format!(
                "tile code {} but the map names only {n_kinds} kinds",
                map.cells[i].0
            ),
        ));
    }
    let on_map = |x: u32, y: u32| x < map.width && y < map.height;
    let rect_on_map = |r: &TileRect| {
        r.width >= 1
            && r.height >= 1
            && u64::from(r.x) + u64::from(r.width) <= u64::from(map.width)
            && u64::from(r.y) + u64::from(r.height) <= u64::from(map.height)
    };
    let room_ref = |field: String, room: Option<usize>| match room {
        Some(r) if r >= map.rooms.len() => Err(TileExportError::map(
            field,
            format!("room {r} but the map has {} rooms", map.rooms.len()),
        )),
        _ => Ok(()),
    };
    for (i, room) in map.rooms.iter().enumerate() {
        if !rect_on_map(&room.bounds) {
            return Err(TileExportError::map(
                format!("rooms[{i}].bounds"),
                "empty or off the map",
            ));
        }
        if room.outline.len() < 3 {
            return Err(TileExportError::map(
                format!("rooms[{i}].outline"),
                format!("{} points (at least 3)", room.outline.len()),
            ));
        }
        if let Some(k) = room
            .outline
            .iter()
            .position(|&[x, y]| x > map.width || y > map.height)
        {
            return Err(TileExportError::map(
                format!("rooms[{i}].outline[{k}]"),
                "off the map",
            ));
        }
    }
    for (i, door) in map.doors.iter().enumerate() {
        if !rect_on_map(&door.cells) {
            return Err(TileExportError::map(
                format!("doors[{i}].cells"),
                "empty or off the map",
            ));
        }
        for (side, room) in door.rooms.iter().enumerate() {
            room_ref(format!("doors[{i}].rooms[{side}]"), *room)?;
        }
    }
    for (i, corridor) in map.corridors.iter().enumerate() {
        if let Some(k) = corridor.cells.iter().position(|&[x, y]| !on_map(x, y)) {
            return Err(TileExportError::map(
                format!("corridors[{i}].cells[{k}]"),
                "off the map",
            ));
        }
        for (side, room) in corridor.rooms.iter().enumerate() {
            room_ref(format!("corridors[{i}].rooms[{side}]"), *room)?;
        }
    }
    for (i, object) in map.objects.iter().enumerate() {
        let [x, y] = object.cell;
        if !on_map(x, y) {
            return Err(TileExportError::map(
                format!("objects[{i}].cell"),
                "off the map",
            ));
        }
        room_ref(format!("objects[{i}].room"), object.room)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::{TileDoor, TileObject, TileRoom};

    #[test]
    fn object_classes_go_by_words_of_the_kind() {
        assert_eq!(ObjectClass::of("key"), ObjectClass::Key);
        assert_eq!(ObjectClass::of("init-key"), ObjectClass::Key);
        assert_eq!(ObjectClass::of("Red_Key"), ObjectClass::Key);
        assert_eq!(ObjectClass::of("lock"), ObjectClass::Lock);
        assert_eq!(ObjectClass::of("monkey"), ObjectClass::Item);
        assert_eq!(ObjectClass::of("treasure"), ObjectClass::Item);
    }

    #[test]
    fn broken_maps_are_refused_naming_the_field() {
        let mut map = TileMap::filled(3, 2, Tile::FLOOR);
        assert!(check_map(&map).is_ok());
        let field = |map: &TileMap| match check_map(map) {
            Err(TileExportError::Map { field, .. }) => field,
            other => panic!("expected a map error, got {other:?}"),
        };
        map.cells[4] = Tile(9);
        assert_eq!(field(&map), "cells[4]");
        map.cells[4] = Tile::FLOOR;
        map.rooms
            .push(TileRoom::rect("a", "", TileRect::new(1, 0, 3, 2)));
        assert_eq!(field(&map), "rooms[0].bounds");
        map.rooms[0] = TileRoom::rect("a", "", TileRect::new(0, 0, 3, 2));
        map.doors.push(TileDoor {
            cells: TileRect::new(0, 0, 1, 1),
            rooms: [Some(0), Some(1)],
        });
        assert_eq!(field(&map), "doors[0].rooms[1]");
        map.doors[0].rooms[1] = None;
        map.objects.push(TileObject {
            name: "k".into(),
            kind: "key".into(),
            cell: [3, 0],
            room: None,
            properties: Vec::new(),
        });
        assert_eq!(field(&map), "objects[0].cell");
        map.cells.pop();
        assert_eq!(field(&map), "cells");
        assert_eq!(field(&TileMap::filled(0, 2, Tile::WALL)), "width");
    }
}
