//! Tiled maps: JSON `.tmj` ([`to_tmj`]) and XML `.tmx` ([`to_tmx`]), in
//! the map formats of Tiled 1.10 (the "JSON Map Format" and "TMX Map
//! Format" pages of Tiled's reference documentation). Both files say the
//! same thing:
//!
//! - an orthogonal, finite map drawn `right-down`, `width × height` tiles
//!   of `tile_px × tile_px` pixels;
//! - the map properties the caller gives (e.g. `generator`, `seed`);
//! - one tileset, embedded in the map file, named [`TILESET_NAME`], with
//!   `firstgid` 1 and one tile per kind in code order (so tile id = tile
//!   code, global id = code + 1); each tile's `type` is its kind's name
//!   (`wall`, `floor`, `door`, `corridor`, or the tag) and its bool
//!   property `passable` says whether it can be walked on. The tileset's
//!   image is the file the caller names ([`TiledOptions::tileset_image`],
//!   relative to the map file), which should be
//!   [`tileset_png`](super::tileset_png)'s picture
//!   at the same `tile_px`;
//! - layer 1, the tile layer `tiles`: every cell's global id, row by row
//!   (CSV encoding in the `.tmx`, a number array in the `.tmj`);
//! - layer 2, the object layer `objects`, coordinates in pixels from the
//!   map's top-left corner, in this order with ids from 1:
//!   - each room: a rectangle (or, when its outline is not a rectangle, a
//!     polygon whose points are relative to the outline's top-left corner),
//!     `name` the room's name, `type` its tag or `room` when it has none;
//!   - each door: a rectangle over its cells, `type` `door`;
//!   - each corridor, `type` `corridor`: a polyline through its cells'
//!     centres (only the turns kept; points relative to the first) when its
//!     cells are a walk, else its outline as a polygon, or its bounding
//!     rectangle when the cells do not make one simple outline;
//!   - each key, lock or item: a point at its cell's centre, `name` the
//!     level-graph vertex id, `type` its kind (`key`, `lock`, …).
//!
//!   Doors and corridors carry object properties `room_a` and `room_b`,
//!   items `room`: the id of the room object on that side or holding them,
//!   left out when there is none.
//!
//! Tiled 1.9 wrote `class` where 1.8 and 1.10 write `type`; these files
//! use `type`, which Tiled 1.8 and later read (and 1.9 reads too).
//! Coordinates at a cell centre are half pixels when `tile_px` is odd and
//! are then written with a `.5`.

mod geometry;
mod model;
mod tmj;
mod tmx;

pub use tmj::to_tmj;
pub use tmx::to_tmx;

/// The `version` both files declare: Tiled's map format 1.10.
pub const TILED_FORMAT_VERSION: &str = "1.10";
/// The name of the embedded tileset.
pub const TILESET_NAME: &str = "levelgraph";

/// What the Tiled exports need besides the map. No `Default`: the tile
/// size and the image's file name are the caller's choice.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledOptions {
    /// The width and height of a tile, pixels, ≥ 1; the tileset image
    /// (`tile_px` × number of kinds) must fit in [`MAX_IMAGE_SIDE`](super::MAX_IMAGE_SIDE).
    pub tile_px: u32,
    /// The tileset image's file name, relative to the map file (e.g.
    /// `tileset.png`); not empty.
    pub tileset_image: String,
    /// Map properties, written in this order; names unique and not empty.
    pub properties: Vec<TiledProperty>,
}

/// A custom property of the map.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledProperty {
    /// Its name.
    pub name: String,
    /// Its value, whose variant is the property's Tiled type.
    pub value: PropertyValue,
}

/// A property value in one of Tiled's property types.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PropertyValue {
    /// `string`.
    String(String),
    /// `int`: Tiled's ints are 32-bit, so write a 64-bit seed as a string.
    Int(i32),
    /// `float`, finite.
    Float(f64),
    /// `bool`.
    Bool(bool),
}

impl TiledProperty {
    /// A `string` property.
    pub fn string(name: impl Into<String>, value: impl Into<String>) -> Self {
        TiledProperty {
            name: name.into(),
            value: PropertyValue::String(value.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::geometry::{simplify_loop, simplify_path, trace_outline};
    use super::model::Half;

    #[test]
    fn half_pixels_print_exactly() {
        let s = |h: i64| Half(h).to_string();
        assert_eq!(
            [s(0), s(1), s(2), s(7), s(-1), s(-2), s(-3)],
            ["0", "0.5", "1", "3.5", "-0.5", "-1", "-1.5"]
        );
    }

    #[test]
    fn outlines_are_traced_clockwise_and_pinches_refused() {
        // An L: three cells down the left, one to the right at the bottom.
        let l = [[0, 0], [0, 1], [0, 2], [1, 2]];
        assert_eq!(
            trace_outline(&l),
            Some(vec![[0, 0], [1, 0], [1, 2], [2, 2], [2, 3], [0, 3]])
        );
        // Two cells touching at a corner, and a ring with a hole.
        assert_eq!(trace_outline(&[[0, 0], [1, 1]]), None);
        let ring: Vec<[u32; 2]> = (0..3)
            .flat_map(|y| (0..3).map(move |x| [x, y]))
            .filter(|&c| c != [1, 1])
            .collect();
        assert_eq!(trace_outline(&ring), None);
    }

    #[test]
    fn straight_runs_lose_their_middle_points() {
        assert_eq!(
            simplify_loop(&[
                [0, 0],
                [1, 0],
                [2, 0],
                [2, 2],
                [2, 2],
                [0, 2],
                [0, 1],
                [0, 0]
            ]),
            vec![[0, 0], [2, 0], [2, 2], [0, 2]]
        );
        assert_eq!(
            simplify_path(&[[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [3, 2]]),
            vec![[0, 0], [2, 0], [2, 2], [3, 2]]
        );
    }
}
