//! A room layout as a tile map: every room, corridor and door of a
//! [`Layout`] becomes cells, a room's interior may be filled by a grid
//! generator chosen by its tag (a cave room by the cellular automaton of
//! [`caves`], kept joined to its doors), and keys, locks and stored items
//! become objects.
//!
//! Geometry. A layout's outlines run along grid lines with y up. At tile
//! scale `s`, grid point `(x, y)` becomes tile `((x − x0)·s, (y1 − y)·s)`
//! (y flipped to grow down, as tile maps count), so an outline passes
//! through tile *centres*: the tiles on a room's outline are its walls,
//! the tiles strictly inside are its floor, and two rooms that touch share
//! one wall line (as Edgar's tile-based rooms do). A door segment of `L`
//! grid units becomes the `L·s − 1` wall tiles strictly between its scaled
//! ends (the ends lie on corners or on the walls beside the door); each of
//! them has floor of both rooms on its two sides when `s ≥ 2`, or when the
//! rooms and doors are at least 2 units thick and long at `s = 1` —
//! [`rasterize`] checks this and reports a door that the scale closes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::caves::{self, CaveParams};
use super::map::{Tile, TileCorridor, TileDoor, TileMap, TileObject, TileRect, TileRoom};
use super::TilesError;
use crate::drawing::top_levels;
use crate::grammar::{FillKind, RoomsSpec};
use crate::graph::Graph;
use crate::layout::{GridPoint, Layout, LayoutProblem, OrthoPolygon, PlacedRoom, Rect};
use crate::rng::Rng;

/// The largest map side [`rasterize`] makes, in tiles.
pub const MAX_SIDE: u32 = 8192;

/// How a room's floor is made.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RoomFill {
    /// Every interior tile is floor.
    Floor,
    /// A cave by the cellular automaton of [`caves`] ([`caves::fill_mask`])
    /// on the room's interior, joined to every door
    /// ([`caves::join_regions`]).
    Cave(CaveParams),
}

/// Where the object of a tagged room goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ObjectPlace {
    /// On the floor tile nearest the room's centre (a key on its pedestal).
    Center,
    /// One on each door of the room (a lock on the way in).
    Doors,
}

/// How to rasterize.
#[derive(Clone, Debug, PartialEq)]
pub struct RasterSettings {
    /// Tiles per grid unit, 1 ..= 64. Default 2: every door of a valid
    /// layout stays open and every room has floor.
    pub scale: u32,
    /// Fills by room tag; a tag not listed gets [`RoomFill::Floor`].
    pub fills: Vec<(String, RoomFill)>,
    /// Tags whose rooms carry an object of that kind, and where. Default:
    /// `key` at the centre, `lock` on the doors.
    pub objects: Vec<(String, ObjectPlace)>,
}

impl Default for RasterSettings {
    fn default() -> Self {
        RasterSettings {
            scale: 2,
            fills: Vec::new(),
            objects: vec![
                ("key".to_owned(), ObjectPlace::Center),
                ("lock".to_owned(), ObjectPlace::Doors),
            ],
        }
    }
}

impl RasterSettings {
    /// The settings a grammar's `rooms` block asks for: its `tile_scale`
    /// and `fill` lines (a `cave` fill with [`CaveParams::default`]'s
    /// automaton), the default objects.
    pub fn for_rooms(spec: &RoomsSpec) -> Self {
        let mut settings = RasterSettings::default();
        if let Some(scale) = spec.tile_scale {
            settings.scale = scale;
        }
        for f in &spec.fills {
            let fill = match f.fill {
                FillKind::Floor => RoomFill::Floor,
                FillKind::Cave => RoomFill::Cave(CaveParams::default()),
            };
            for tag in &f.tags {
                settings.fills.push((tag.clone(), fill.clone()));
            }
        }
        settings
    }
}

/// A thing placed in a room: an item stored in a room (a level-graph
/// vertex inside a room vertex), or what the level's play semantics mark
/// (entrance, goal, key, lock). It becomes a [`TileObject`] on a free
/// floor tile of that room, or on its doors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredItem {
    /// The vertex id.
    pub name: String,
    /// Its tag, or its part in play (`entrance`, `goal`, `key`, `lock`).
    pub kind: String,
    /// The room holding it (an index into the layout's rooms).
    pub room: usize,
    /// Where in the room.
    pub at: ItemPlace,
    /// The object's properties ([`TileObject::properties`]).
    pub properties: Vec<(String, String)>,
}

/// Where in its room a [`StoredItem`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemPlace {
    /// On the free floor tile nearest the room's centre.
    Centre,
    /// One object on each door of the room (a locked room).
    Doors,
    /// On the door between the room and room `r` (a locked door); with
    /// corridors, on the door from the room into the corridor to `r`.
    DoorTo(usize),
}

/// The items stored in the rooms of `graph`, the level the layout problem
/// was made from by [`crate::rooms::level_problem`] (rooms named by
/// vertex id): every vertex with a parent, in id order, in the room of its
/// top-level ancestor.
pub fn stored_items(graph: &Graph, problem: &LayoutProblem) -> Vec<StoredItem> {
    let by_name: BTreeMap<&str, usize> = problem
        .rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    let tops = top_levels(graph);
    graph
        .vertex_ids()
        .filter(|&v| graph.parent(v).is_some())
        .filter_map(|v| {
            let room = *by_name.get(tops[v.index()].index().to_string().as_str())?;
            Some(StoredItem {
                name: v.index().to_string(),
                kind: graph.tags().name(graph.tag(v)).to_owned(),
                room,
                at: ItemPlace::Centre,
                properties: Vec::new(),
            })
        })
        .collect()
}

/// The tile map of `layout` (a solution of `problem`): rooms by their tag's
/// tile kind ([`TileMap::tag_tile`]), corridors as [`Tile::CORRIDOR`],
/// doors as [`Tile::DOOR`], walls elsewhere; the lists keep every room
/// (same order as the layout), door, corridor and object. `seed` drives the
/// cave fills only.
///
/// # Errors
/// [`TilesError::Parameter`] for a scale out of range, a map larger than
/// [`MAX_SIDE`], more tags than tile kinds, a room without floor at this
/// scale, or a door the scale closes (field `scale`); [`TilesError::Limit`]
/// when a cave room cannot be joined to its doors.
pub fn rasterize(
    problem: &LayoutProblem,
    layout: &Layout,
    items: &[StoredItem],
    settings: &RasterSettings,
    seed: u64,
) -> Result<TileMap, TilesError> {
    let s = settings.scale;
    if !(1..=64).contains(&s) {
        return Err(TilesError::parameter(
            "scale",
            format!("{s} tiles per grid unit; use 1 to 64"),
        ));
    }
    let frame = Frame::of(layout, s)?;
    let mut map = TileMap::filled(frame.width, frame.height, Tile::WALL);
    let mut rng = Rng::seeded(seed);

    // Rooms, then corridors: interiors only, so shared outlines stay wall.
    let mut interiors: Vec<Vec<usize>> = Vec::with_capacity(layout.rooms.len());
    for (i, placed) in layout.rooms.iter().enumerate() {
        let spec = &problem.rooms[i];
        let tile = map.tag_tile(&spec.tag).ok_or_else(|| {
            TilesError::parameter(
                "tags",
                format!(
                    "the level has more than {} room tags, more tile kinds than a map holds",
                    Tile::MAX_TAG_KINDS
                ),
            )
        })?;
        let cells = frame.interior(placed);
        if cells.is_empty() {
            return Err(TilesError::parameter(
                "scale",
                format!(
                    "room {} ({}) has no floor at {s} tiles per grid unit; use a larger scale",
                    spec.name, spec.tag
                ),
            ));
        }
        for &c in &cells {
            map.cells[c] = tile;
        }
        let bounds = bounds_of(&cells, map.width);
        map.rooms.push(TileRoom {
            name: spec.name.as_str().into(),
            tag: spec.tag.as_str().into(),
            bounds,
            outline: frame.floor_outline(placed).into(),
        });
        interiors.push(cells);
    }
    for (k, placed) in layout.corridors.iter().enumerate() {
        let cells = frame.interior(placed);
        if cells.is_empty() {
            return Err(TilesError::parameter(
                "scale",
                format!("corridor {k} has no floor at {s} tiles per grid unit; use a larger scale"),
            ));
        }
        for &c in &cells {
            map.cells[c] = Tile::CORRIDOR;
        }
        let [a, b] = problem.edges[k];
        map.corridors.push(TileCorridor {
            cells: cells.iter().map(|&c| cell_xy(c, map.width)).collect(),
            rooms: [Some(a), Some(b)],
        });
    }

    // Doors: the tiles strictly between a door segment's scaled ends.
    let mut across: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut inner_cells: Vec<Vec<usize>> = vec![Vec::new(); layout.rooms.len()];
    for door in &layout.doors {
        let tiles = frame.door_tiles(door.segment);
        let room_name = &problem.rooms[door.room].name;
        if tiles.is_empty() {
            return Err(TilesError::parameter(
                "scale",
                format!(
                    "the door of room {room_name} at ({}, {})–({}, {}) is one grid unit long, which leaves no door tile at 1 tile per grid unit; use a scale of 2 or more",
                    door.segment[0].x, door.segment[0].y, door.segment[1].x, door.segment[1].y
                ),
            ));
        }
        for &t in &tiles {
            map.cells[t] = Tile::DOOR;
        }
        let other = match door.corridor {
            Some(_) => None,
            None => {
                let [a, b] = problem.edges[door.edge];
                Some(if a == door.room { b } else { a })
            }
        };
        for &t in &tiles {
            let sides = frame.door_sides(door.segment, t);
            across.push((t, sides.clone()));
            for side in sides {
                for (room, cells) in [(Some(door.room), &interiors[door.room])]
                    .into_iter()
                    .chain(other.map(|o| (Some(o), &interiors[o])))
                {
                    if let (Some(r), true) = (room, cells.binary_search(&side).is_ok()) {
                        inner_cells[r].push(side);
                    }
                }
            }
        }
        map.doors.push(TileDoor {
            cells: bounds_of(&tiles, map.width),
            rooms: [Some(door.room), other],
        });
    }

    // Fills chosen by tag.
    for (i, spec) in problem.rooms.iter().enumerate() {
        let fill = settings.fills.iter().find(|(t, _)| *t == spec.tag);
        if let Some((_, RoomFill::Cave(params))) = fill {
            fill_cave(&mut map, &interiors[i], &inner_cells[i], params, &mut rng)
                .map_err(|e| in_room(e, &spec.name))?;
        }
    }

    // Every door must open onto floor on both sides.
    for (t, sides) in &across {
        if sides.len() < 2 || sides.iter().any(|&c| !map.cells[c].is_passable()) {
            let [x, y] = cell_xy(*t, map.width);
            return Err(TilesError::parameter(
                "scale",
                format!(
                    "the door at tile ({x}, {y}) has wall on one side at {s} tiles per grid unit; use a larger scale"
                ),
            ));
        }
    }

    place_objects(&mut map, problem, layout, settings, items, &interiors);
    Ok(map)
}

fn in_room(e: TilesError, room: &str) -> TilesError {
    match e {
        TilesError::Limit {
            generator,
            limit,
            detail,
        } => TilesError::Limit {
            generator,
            limit,
            detail: format!("cave room {room}: {detail}"),
        },
        other => other,
    }
}

/// The cave automaton on one room's interior, then joined so that the
/// tiles inside its doors reach each other; the rest of the interior
/// becomes wall.
fn fill_cave(
    map: &mut TileMap,
    interior: &[usize],
    inner: &[usize],
    params: &CaveParams,
    rng: &mut Rng,
) -> Result<(), TilesError> {
    let w = map.width as usize;
    let bounds = bounds_of(interior, map.width);
    let (bw, bh) = (bounds.width as usize, bounds.height as usize);
    let local = |c: usize| (c / w - bounds.y as usize) * bw + (c % w - bounds.x as usize);
    let mut mask = vec![false; bw * bh];
    for &c in interior {
        mask[local(c)] = true;
    }
    let mut floor = caves::fill_mask(&mask, bounds.width, bounds.height, params, rng);
    let must: Vec<usize> = inner.iter().map(|&c| local(c)).collect();
    caves::join_regions(&mut floor, &mask, bounds.width, bounds.height, &must)?;
    for &c in interior {
        if !floor[local(c)] {
            map.cells[c] = Tile::WALL;
        }
    }
    Ok(())
}

fn place_objects(
    map: &mut TileMap,
    problem: &LayoutProblem,
    layout: &Layout,
    settings: &RasterSettings,
    items: &[StoredItem],
    interiors: &[Vec<usize>],
) {
    let w = map.width;
    let mut taken: Vec<usize> = Vec::new();
    // The free floor tile nearest the room's centre; when every floor tile
    // holds an object already, the nearest floor tile all the same: two
    // objects share a tile rather than one (a key) going missing.
    let free_near_centre = |map: &TileMap, room: usize, taken: &mut Vec<usize>| {
        let [cx, cy] = map.rooms[room].bounds.center();
        let floor = interiors[room]
            .iter()
            .copied()
            .filter(|&c| map.cells[c].is_passable());
        let nearest = |c: &usize| {
            let [x, y] = cell_xy(*c, w);
            (x.abs_diff(cx) + y.abs_diff(cy), y, x)
        };
        let best = floor
            .clone()
            .filter(|c| !taken.contains(c))
            .min_by_key(nearest)
            .or_else(|| floor.min_by_key(nearest));
        if let Some(c) = best {
            taken.push(c);
        }
        best
    };
    for (i, spec) in problem.rooms.iter().enumerate() {
        let Some((kind, place)) = settings.objects.iter().find(|(t, _)| *t == spec.tag) else {
            continue;
        };
        match place {
            ObjectPlace::Center => {
                if let Some(c) = free_near_centre(map, i, &mut taken) {
                    map.objects.push(TileObject {
                        name: spec.name.clone(),
                        kind: kind.clone(),
                        cell: cell_xy(c, w),
                        room: Some(i),
                        properties: Vec::new(),
                    });
                }
            }
            ObjectPlace::Doors => {
                // One object per door of the room: the door's first tile.
                for c in door_firsts(map, problem, layout, i, None) {
                    map.objects.push(TileObject {
                        name: spec.name.clone(),
                        kind: kind.clone(),
                        cell: cell_xy(c, w),
                        room: Some(i),
                        properties: Vec::new(),
                    });
                }
            }
        }
    }
    for item in items {
        if item.room >= map.rooms.len() {
            continue;
        }
        let cells: Vec<usize> = match item.at {
            ItemPlace::Centre => free_near_centre(map, item.room, &mut taken)
                .into_iter()
                .collect(),
            ItemPlace::Doors => door_firsts(map, problem, layout, item.room, None),
            ItemPlace::DoorTo(other) => door_firsts(map, problem, layout, item.room, Some(other)),
        };
        for c in cells {
            map.objects.push(TileObject {
                name: item.name.clone(),
                kind: item.kind.clone(),
                cell: cell_xy(c, w),
                room: Some(item.room),
                properties: item.properties.clone(),
            });
        }
    }
}

/// The first tile of each door of `room`; with `to`, of the door that
/// serves the edge between `room` and room `to` on `room`'s side: the
/// door between the two rooms, or with corridors the door from `room`
/// into the edge's corridor (whose map door names no second room).
/// `map.doors` are `layout.doors`, in the same order.
fn door_firsts(
    map: &TileMap,
    problem: &LayoutProblem,
    layout: &Layout,
    room: usize,
    to: Option<usize>,
) -> Vec<usize> {
    map.doors
        .iter()
        .zip(&layout.doors)
        .filter(|(d, _)| d.rooms.contains(&Some(room)))
        .filter(|(_, door)| {
            to.is_none_or(|t| {
                let ends = problem.edges[door.edge];
                ends.contains(&room)
                    && ends.contains(&t)
                    && (door.corridor.is_none() || door.room == room)
            })
        })
        .map(|(d, _)| map.index(d.cells.x, d.cells.y))
        .collect()
}

fn cell_xy(c: usize, width: u32) -> [u32; 2] {
    [(c % width as usize) as u32, (c / width as usize) as u32]
}

/// The bounding rectangle of non-empty `cells`.
fn bounds_of(cells: &[usize], width: u32) -> TileRect {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &c in cells {
        let [x, y] = cell_xy(c, width);
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    TileRect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
}

/// Grid to tile coordinates for one layout at one scale.
struct Frame {
    scale: i64,
    x0: i64,
    y1: i64,
    width: u32,
    height: u32,
}

impl Frame {
    fn of(layout: &Layout, scale: u32) -> Result<Self, TilesError> {
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for p in layout
            .rooms
            .iter()
            .chain(&layout.corridors)
            .flat_map(|r| &r.outline)
        {
            x0 = x0.min(i64::from(p.x));
            y0 = y0.min(i64::from(p.y));
            x1 = x1.max(i64::from(p.x));
            y1 = y1.max(i64::from(p.y));
        }
        if x0 > x1 {
            return Err(TilesError::parameter("layout", "the layout has no rooms"));
        }
        let s = i64::from(scale);
        let (w, h) = ((x1 - x0) * s + 1, (y1 - y0) * s + 1);
        if w > i64::from(MAX_SIDE) || h > i64::from(MAX_SIDE) {
            // The largest scale that fits, if any: at scale 1 the layout
            // itself may be too large (rooms up to 2000000 units across).
            let fits = (i64::from(MAX_SIDE) - 1) / (x1 - x0).max(y1 - y0).max(1);
            let hint = if fits >= 1 {
                format!("use a scale of at most {fits}")
            } else {
                format!(
                    "the layout is {} × {} grid units, too large for a tile map at any scale: \
                     use smaller room templates, or leave the tile map out",
                    x1 - x0,
                    y1 - y0
                )
            };
            return Err(TilesError::parameter(
                "scale",
                format!("the map would be {w} × {h} tiles; at most {MAX_SIDE} per side: {hint}"),
            ));
        }
        Ok(Frame {
            scale: s,
            x0,
            y1,
            width: w as u32,
            height: h as u32,
        })
    }

    fn tile(&self, p: GridPoint) -> (i64, i64) {
        (
            (i64::from(p.x) - self.x0) * self.scale,
            (self.y1 - i64::from(p.y)) * self.scale,
        )
    }

    /// The tiles strictly inside a placed outline, row-major (sorted).
    fn interior(&self, placed: &PlacedRoom) -> Vec<usize> {
        let Ok(polygon) = OrthoPolygon::new(&placed.outline) else {
            return Vec::new();
        };
        // A tile is interior when the four tile squares around its centre
        // all lie in the polygon, i.e. it is inside and off the outline;
        // each rectangle of the polygon's cut contributes its open inside,
        // and the seams between rectangles are inside too.
        let w = i64::from(self.width);
        let rects = polygon.rectangles();
        let mut covered = Vec::new();
        for r in &rects {
            let (ax, ay) = self.tile(GridPoint::new(r.x0, r.y1));
            let (bx, by) = self.tile(GridPoint::new(r.x1, r.y0));
            for y in ay..=by {
                for x in ax..=bx {
                    covered.push((y * w + x) as usize);
                }
            }
        }
        covered.sort_unstable();
        covered.dedup();
        covered
            .iter()
            .copied()
            .filter(|&c| {
                let (x, y) = ((c as i64) % w, (c as i64) / w);
                self.squares_inside(&rects, x, y) == 4
            })
            .collect()
    }

    /// How many of the four unit tile squares around tile `(x, y)`'s
    /// centre lie inside the polygon cut into `rects`.
    fn squares_inside(&self, rects: &[Rect], x: i64, y: i64) -> usize {
        [(-1, -1), (0, -1), (-1, 0), (0, 0)]
            .iter()
            .filter(|&&(dx, dy)| {
                // Square with top-left tile centre (x+dx, y+dy): its grid cell.
                let (sx, sy) = (x + dx, y + dy);
                if sx < 0 || sy < 0 {
                    return false;
                }
                let gx = self.x0 + sx.div_euclid(self.scale);
                let gy = self.y1 - 1 - sy.div_euclid(self.scale);
                cell_in(rects, gx, gy)
            })
            .count()
    }

    /// The outline of a room's floor in cell-corner coordinates, clockwise
    /// on screen: each side of the scaled outline moved half a tile inward.
    fn floor_outline(&self, placed: &PlacedRoom) -> Vec<[u32; 2]> {
        let pts: Vec<(i64, i64)> = placed.outline.iter().map(|&p| self.tile(p)).collect();
        let n = pts.len();
        // Orientation in tile coordinates decides which side is inside.
        let twice_area: i64 = (0..n)
            .map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % n]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        let sign = twice_area.signum();
        // The inside's corner coordinate of a side at tile-centre coordinate
        // `c` whose inside lies toward `+` (then c + 1) or `−` (then c).
        let inward = |c: i64, toward_plus: bool| if toward_plus { c + 1 } else { c };
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let prev = pts[(i + n - 1) % n];
            let here = pts[i];
            let next = pts[(i + 1) % n];
            let (mut cx, mut cy) = (None, None);
            for (a, b) in [(prev, here), (here, next)] {
                let (dx, dy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
                // Left normal (−dy, dx) points inside when the area is positive.
                let (nx, ny) = (-dy * sign, dx * sign);
                if dy == 0 && dx != 0 {
                    cy = Some(inward(a.1, ny > 0));
                } else if dx == 0 && dy != 0 {
                    cx = Some(inward(a.0, nx > 0));
                }
            }
            if let (Some(x), Some(y)) = (cx, cy) {
                out.push([x.max(0) as u32, y.max(0) as u32]);
            }
        }
        // Clockwise on screen (y down) is a positive shoelace sum.
        let area: i64 = (0..out.len())
            .map(|i| {
                let (a, b) = (out[i], out[(i + 1) % out.len()]);
                i64::from(a[0]) * i64::from(b[1]) - i64::from(b[0]) * i64::from(a[1])
            })
            .sum();
        if area < 0 {
            out.reverse();
        }
        out
    }

    /// The tiles strictly between a door segment's scaled ends.
    fn door_tiles(&self, segment: [GridPoint; 2]) -> Vec<usize> {
        let (a, b) = (self.tile(segment[0]), self.tile(segment[1]));
        let w = i64::from(self.width);
        let mut out = Vec::new();
        if a.1 == b.1 {
            for x in a.0.min(b.0) + 1..a.0.max(b.0) {
                out.push((a.1 * w + x) as usize);
            }
        } else {
            for y in a.1.min(b.1) + 1..a.1.max(b.1) {
                out.push((y * w + a.0) as usize);
            }
        }
        out
    }

    /// The two tiles beside door tile `t`, across the door's line.
    fn door_sides(&self, segment: [GridPoint; 2], t: usize) -> Vec<usize> {
        let w = self.width as usize;
        let horizontal = segment[0].y == segment[1].y;
        let (x, y) = (t % w, t / w);
        let mut out = Vec::new();
        if horizontal {
            if y > 0 {
                out.push(t - w);
            }
            if y + 1 < self.height as usize {
                out.push(t + w);
            }
        } else {
            if x > 0 {
                out.push(t - 1);
            }
            if x + 1 < w {
                out.push(t + 1);
            }
        }
        out
    }
}

/// Whether unit grid cell `(gx, gy)` (spanning `gx..gx+1`, `gy..gy+1`)
/// lies in the polygon cut into `rects`.
fn cell_in(rects: &[Rect], gx: i64, gy: i64) -> bool {
    rects.iter().any(|r| {
        gx >= i64::from(r.x0)
            && gx < i64::from(r.x1)
            && gy >= i64::from(r.y0)
            && gy < i64::from(r.y1)
    })
}
