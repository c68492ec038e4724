//! The tile map: a `width × height` grid of [`Tile`]s, row by row from the
//! top-left corner (x to the right, y down, as Tiled and every roguelike
//! library count), with the rooms, doors, corridors and objects that made
//! it kept as lists beside the cells (as rot.js's `Map.Digger` and the Rust
//! roguelike tutorial's `Map` keep their rooms).

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
pub use smol_str::SmolStr;

/// A room's outline points: up to four (a rectangle's corners, what the
/// grid generators make) are kept inline, so a rectangular room costs no
/// allocation of its own.
pub type Outline = SmallVec<[[u32; 2]; 4]>;

/// One cell's kind. Four fixed kinds, then one kind per tag name in
/// [`TileMap::tag_kinds`] (`Tile::tag(i)` is `tag_kinds[i]`), up to 251 of
/// them. One byte, so a 200 × 200 map is 40 KB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Tile(pub u8);

impl Tile {
    /// Solid rock or wall: not passable.
    pub const WALL: Tile = Tile(0);
    /// Open floor.
    pub const FLOOR: Tile = Tile(1);
    /// A door between two rooms, or a room and a corridor.
    pub const DOOR: Tile = Tile(2);
    /// Corridor floor.
    pub const CORRIDOR: Tile = Tile(3);
    /// The first tag kind's code.
    pub const FIRST_TAG: u8 = 4;
    /// The most tag kinds a map can name.
    pub const MAX_TAG_KINDS: usize = (u8::MAX - Self::FIRST_TAG) as usize + 1;

    /// The floor kind of tag `i` (an index into [`TileMap::tag_kinds`]).
    /// **Panics** if `i` is not below [`Tile::MAX_TAG_KINDS`].
    pub fn tag(i: usize) -> Tile {
        assert!(i < Self::MAX_TAG_KINDS, "tag kind {i} out of range");
        Tile(Self::FIRST_TAG + i as u8)
    }

    /// The tag index of a tag kind, `None` for the four fixed kinds.
    pub fn tag_index(self) -> Option<usize> {
        self.0.checked_sub(Self::FIRST_TAG).map(usize::from)
    }

    /// Everything but a wall can be walked on: floor, doors, corridors and
    /// tagged room floor.
    pub fn is_passable(self) -> bool {
        self != Tile::WALL
    }
}

/// An axis-aligned rectangle of cells: `x..x + width`, `y..y + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TileRect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Columns, ≥ 1.
    pub width: u32,
    /// Rows, ≥ 1.
    pub height: u32,
}

impl TileRect {
    /// The rectangle from its corner and size.
    pub fn new(x: u32, y: u32, width: u32, height: u32) -> Self {
        TileRect {
            x,
            y,
            width,
            height,
        }
    }

    /// One past the right column.
    pub fn right(&self) -> u32 {
        self.x + self.width
    }

    /// One past the bottom row.
    pub fn bottom(&self) -> u32 {
        self.y + self.height
    }

    /// The centre cell (rounded toward the top-left).
    pub fn center(&self) -> [u32; 2] {
        [
            self.x + (self.width - 1) / 2,
            self.y + (self.height - 1) / 2,
        ]
    }

    /// Whether cell `(x, y)` lies inside.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x >= self.x && x < self.right() && y >= self.y && y < self.bottom()
    }

    /// Whether the two share a cell.
    pub fn intersects(&self, other: &TileRect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

/// A room of the map.
///
/// Names, tags and rectangular outlines are kept inline ([`SmolStr`] holds
/// up to 23 bytes without allocating, [`Outline`] four points): a map of
/// the grid generators allocates nothing per room, which was a tenth of
/// the time of a rooms-and-corridors map (BENCHMARKS.md, tile maps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileRoom {
    /// A name for output: a level-graph vertex id, or `room N` for the
    /// generators.
    pub name: SmolStr,
    /// The level-graph tag, empty for rooms of the grid generators.
    pub tag: SmolStr,
    /// The bounding box of the room's floor cells.
    pub bounds: TileRect,
    /// The room's outline in cell-corner coordinates (a cell `(x, y)` spans
    /// `x..x+1`, `y..y+1`), clockwise on screen; for a rectangular room the
    /// four corners of `bounds`.
    pub outline: Outline,
}

impl TileRoom {
    /// A rectangular room: its outline is `bounds`' corners.
    pub fn rect(name: impl Into<SmolStr>, tag: impl Into<SmolStr>, bounds: TileRect) -> Self {
        let (l, t, r, b) = (bounds.x, bounds.y, bounds.right(), bounds.bottom());
        TileRoom {
            name: name.into(),
            tag: tag.into(),
            bounds,
            outline: SmallVec::from_buf([[l, t], [r, t], [r, b], [l, b]]),
        }
    }
}

/// `room N`, the name the grid generators give room `r`. Every room of
/// every map is named, on the generators' hot path: the names of the first
/// [`NAMED_ROOMS`] rooms are made once per process and copied (a
/// [`SmolStr`] that short is inline: a copy of 24 bytes, no allocation),
/// which took a name from about 25 ns to a few.
pub(crate) fn room_name(r: usize) -> SmolStr {
    static NAMES: LazyLock<Vec<SmolStr>> =
        LazyLock::new(|| (0..NAMED_ROOMS).map(make_room_name).collect());
    match NAMES.get(r) {
        Some(name) => name.clone(),
        None => make_room_name(r),
    }
}

/// How many room names [`room_name`] keeps made.
const NAMED_ROOMS: usize = 128;

/// `room N`, made afresh.
fn make_room_name(r: usize) -> SmolStr {
    let mut name = String::with_capacity(24);
    name.push_str("room ");
    name.push_str(&r.to_string());
    SmolStr::new(name)
}

/// A door: the cells it covers and the rooms it joins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileDoor {
    /// The door cells (a line one or more cells long, one or more thick).
    pub cells: TileRect,
    /// The rooms on either side (indices into [`TileMap::rooms`]); `None`
    /// for a side that is a corridor or open ground.
    pub rooms: [Option<usize>; 2],
}

/// A corridor: its cells in walking order and the rooms at its ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileCorridor {
    /// Cells from one end to the other, each a 4-neighbour of the one
    /// before (for a corridor of a room layout, its floor cells row by row).
    pub cells: Vec<[u32; 2]>,
    /// The rooms it joins (indices into [`TileMap::rooms`]), `None` where
    /// an end joins another corridor or open ground.
    pub rooms: [Option<usize>; 2],
}

/// A thing placed on a cell: a key, a lock, an item stored in a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileObject {
    /// The level-graph vertex id it comes from.
    pub name: String,
    /// Its kind: the vertex's tag (`key`, `lock`, …).
    pub kind: String,
    /// The cell.
    pub cell: [u32; 2],
    /// The room it lies in, if any (an index into [`TileMap::rooms`]).
    pub room: Option<usize>,
    /// Named string values a game reads: a key's `opens` (the locks it
    /// opens), a lock's `key`, … (Tiled custom properties), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<(String, String)>,
}

/// A grid of tiles with the structure that made it.
///
/// Invariant: `cells.len() == width * height`; every cell's tag kind is
/// below `tag_kinds.len()`; every rectangle and cell in the lists lies on
/// the map. Built by the generators in [`crate::tiles`] and by
/// [`crate::tiles::raster`]; written by `formats::tilemap`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileMap {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Row-major: cell `(x, y)` is `cells[y * width + x]`.
    pub cells: Vec<Tile>,
    /// The names of the tag kinds: `Tile::tag(i)` is floor of a room
    /// tagged `tag_kinds[i]`.
    pub tag_kinds: Vec<String>,
    /// Rooms, in the order they were made.
    pub rooms: Vec<TileRoom>,
    /// Doors.
    pub doors: Vec<TileDoor>,
    /// Corridors.
    pub corridors: Vec<TileCorridor>,
    /// Objects: keys, locks, stored items.
    pub objects: Vec<TileObject>,
}

impl TileMap {
    /// A map of `width × height` walls with empty lists.
    pub fn filled(width: u32, height: u32, tile: Tile) -> Self {
        TileMap {
            width,
            height,
            cells: vec![tile; width as usize * height as usize],
            tag_kinds: Vec::new(),
            rooms: Vec::new(),
            doors: Vec::new(),
            corridors: Vec::new(),
            objects: Vec::new(),
        }
    }

    /// The index of cell `(x, y)` in `cells`. The caller keeps it on the map.
    #[inline]
    pub fn index(&self, x: u32, y: u32) -> usize {
        debug_assert!(x < self.width && y < self.height);
        y as usize * self.width as usize + x as usize
    }

    /// The tile at `(x, y)`, `None` off the map.
    #[inline]
    pub fn get(&self, x: i64, y: i64) -> Option<Tile> {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return None;
        }
        Some(self.cells[y as usize * self.width as usize + x as usize])
    }

    /// Sets `(x, y)`. **Panics** off the map.
    #[inline]
    pub fn set(&mut self, x: u32, y: u32, tile: Tile) {
        assert!(
            x < self.width && y < self.height,
            "cell ({x}, {y}) off the map"
        );
        let i = self.index(x, y);
        self.cells[i] = tile;
    }

    /// Whether `(x, y)` is on the map and passable.
    #[inline]
    pub fn is_passable(&self, x: i64, y: i64) -> bool {
        self.get(x, y).is_some_and(Tile::is_passable)
    }

    /// Fills a rectangle (clipped to the map).
    pub fn fill_rect(&mut self, rect: TileRect, tile: Tile) {
        let right = rect.right().min(self.width);
        let bottom = rect.bottom().min(self.height);
        for y in rect.y..bottom {
            let row = y as usize * self.width as usize;
            self.cells[row + rect.x as usize..row + right as usize].fill(tile);
        }
    }

    /// The name of a tile's kind: `wall`, `floor`, `door`, `corridor`, or
    /// the tag name.
    pub fn kind_name(&self, tile: Tile) -> &str {
        match tile {
            Tile::WALL => "wall",
            Tile::FLOOR => "floor",
            Tile::DOOR => "door",
            Tile::CORRIDOR => "corridor",
            t => t
                .tag_index()
                .and_then(|i| self.tag_kinds.get(i))
                .map_or("unknown", String::as_str),
        }
    }

    /// The tile kind of room floor tagged `tag`, adding the tag to
    /// [`TileMap::tag_kinds`] if new; `None` when the map already names
    /// [`Tile::MAX_TAG_KINDS`] tags.
    pub fn tag_tile(&mut self, tag: &str) -> Option<Tile> {
        if let Some(i) = self.tag_kinds.iter().position(|t| t == tag) {
            return Some(Tile::tag(i));
        }
        if self.tag_kinds.len() >= Tile::MAX_TAG_KINDS {
            return None;
        }
        self.tag_kinds.push(tag.to_owned());
        Some(Tile::tag(self.tag_kinds.len() - 1))
    }

    /// Every kind a map can hold, in code order: the four fixed kinds, then
    /// the tag kinds.
    pub fn kinds(&self) -> impl Iterator<Item = Tile> + '_ {
        (0..Tile::FIRST_TAG as usize + self.tag_kinds.len()).map(|c| Tile(c as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_names_are_room_n_inside_and_past_the_table() {
        for r in (0..NAMED_ROOMS + 3).chain([999, 123_456, usize::MAX]) {
            assert_eq!(room_name(r), format!("room {r}"));
        }
    }

    #[test]
    fn a_rectangular_room_allocates_nothing_of_its_own() {
        let room = TileRoom::rect(room_name(1_000_000), "treasure", TileRect::new(2, 3, 4, 5));
        assert!(!room.name.is_heap_allocated() && !room.tag.is_heap_allocated());
        assert!(!room.outline.spilled());
        assert_eq!(&room.outline[..], [[2, 3], [6, 3], [6, 8], [2, 8]]);
        // A longer outline or name still fits: on the heap.
        let mut bent = room.clone();
        bent.outline.extend([[4, 8], [4, 6]]);
        bent.name = SmolStr::new("a name of more than twenty-three bytes");
        assert!(bent.outline.spilled() && bent.name.is_heap_allocated());
        let json = serde_json::to_string(&bent).unwrap();
        assert!(
            json.contains(r#""outline":[[2,3],[6,3],[6,8],[2,8],[4,8],[4,6]]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<TileRoom>(&json).unwrap(), bent);
    }

    #[test]
    fn tag_kinds_are_added_once_and_named() {
        let mut map = TileMap::filled(3, 2, Tile::WALL);
        let cave = map.tag_tile("cave").unwrap();
        assert_eq!(map.tag_tile("boss").unwrap(), Tile(5));
        assert_eq!(map.tag_tile("cave").unwrap(), cave);
        assert_eq!(map.kind_name(cave), "cave");
        assert_eq!(map.kind_name(Tile::CORRIDOR), "corridor");
        assert_eq!(map.kinds().count(), 6);
        assert!(cave.is_passable() && !Tile::WALL.is_passable());
    }

    #[test]
    fn cells_are_row_major_and_off_map_is_none() {
        let mut map = TileMap::filled(4, 3, Tile::WALL);
        map.set(3, 1, Tile::FLOOR);
        assert_eq!(map.cells[7], Tile::FLOOR);
        assert_eq!(map.get(3, 1), Some(Tile::FLOOR));
        assert_eq!(map.get(4, 1), None);
        assert_eq!(map.get(-1, 0), None);
        map.fill_rect(TileRect::new(2, 2, 5, 5), Tile::DOOR);
        assert_eq!(
            map.cells[8..],
            [Tile::WALL, Tile::WALL, Tile::DOOR, Tile::DOOR]
        );
    }

    #[test]
    fn rects_intersect_only_when_they_share_a_cell() {
        let a = TileRect::new(0, 0, 3, 3);
        assert!(a.intersects(&TileRect::new(2, 2, 1, 1)));
        assert!(!a.intersects(&TileRect::new(3, 0, 1, 1)));
        assert_eq!(TileRect::new(2, 4, 4, 3).center(), [3, 5]);
    }
}
