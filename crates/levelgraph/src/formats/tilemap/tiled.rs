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

use std::collections::BTreeMap;
use std::fmt::Write as _;

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::{check_map, TileExportError, MAX_IMAGE_SIDE};
use crate::formats::graphml::{attribute, xml_document};
use crate::tiles::{TileMap, TileRect};

/// The `version` both files declare: Tiled's map format 1.10.
pub const TILED_FORMAT_VERSION: &str = "1.10";
/// The name of the embedded tileset.
pub const TILESET_NAME: &str = "levelgraph";

/// What the Tiled exports need besides the map. No `Default`: the tile
/// size and the image's file name are the caller's choice.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledOptions {
    /// The width and height of a tile, pixels, ≥ 1; the tileset image
    /// (`tile_px` × number of kinds) must fit in [`MAX_IMAGE_SIDE`].
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

/// The Tiled JSON map (`.tmj`) of `map`, as the module docs describe:
/// pretty-printed with two-space indentation, the tile data one map row a
/// line, a final newline. Keys in alphabetical order, as Tiled writes them.
///
/// # Errors
///
/// [`TileExportError::Parameter`] for options out of range (see
/// [`TiledOptions`]), [`TileExportError::Map`] when the map breaks an
/// invariant of [`TileMap`].
pub fn to_tmj(map: &TileMap, options: &TiledOptions) -> Result<String, TileExportError> {
    let doc = Doc::new(map, options)?;
    let t = options.tile_px;
    let mut data = String::from("[\n");
    for (y, row) in map.cells.chunks(map.width as usize).enumerate() {
        data.push_str(&pad(4));
        for (x, tile) in row.iter().enumerate() {
            if x > 0 {
                data.push_str(", ");
            }
            let _ = write!(data, "{}", u32::from(tile.0) + 1);
        }
        data.push_str(if y + 1 < map.height as usize {
            ",\n"
        } else {
            "\n"
        });
    }
    data.push_str(&pad(3));
    data.push(']');
    let tile_layer = json_object(
        2,
        &[
            ("data", data),
            ("height", map.height.to_string()),
            ("id", "1".into()),
            ("name", json_str("tiles")),
            ("opacity", "1".into()),
            ("type", json_str("tilelayer")),
            ("visible", "true".into()),
            ("width", map.width.to_string()),
            ("x", "0".into()),
            ("y", "0".into()),
        ],
    );
    let objects = doc.objects.iter().map(|o| json_map_object(o, 4)).collect();
    let object_layer = json_object(
        2,
        &[
            ("draworder", json_str("topdown")),
            ("id", "2".into()),
            ("name", json_str("objects")),
            ("objects", json_array(3, objects)),
            ("opacity", "1".into()),
            ("type", json_str("objectgroup")),
            ("visible", "true".into()),
            ("x", "0".into()),
            ("y", "0".into()),
        ],
    );
    let tiles = doc
        .kinds
        .iter()
        .enumerate()
        .map(|(id, (name, passable))| {
            json_object(
                4,
                &[
                    ("id", id.to_string()),
                    (
                        "properties",
                        json_array(
                            5,
                            vec![json_property("passable", "bool", passable.to_string())],
                        ),
                    ),
                    ("type", json_str(name)),
                ],
            )
        })
        .collect();
    let n = doc.kinds.len() as u64;
    let tileset = json_object(
        2,
        &[
            ("columns", n.to_string()),
            ("firstgid", "1".into()),
            ("image", json_str(&options.tileset_image)),
            ("imageheight", t.to_string()),
            ("imagewidth", (n * u64::from(t)).to_string()),
            ("margin", "0".into()),
            ("name", json_str(TILESET_NAME)),
            ("spacing", "0".into()),
            ("tilecount", n.to_string()),
            ("tileheight", t.to_string()),
            ("tiles", json_array(3, tiles)),
            ("tilewidth", t.to_string()),
        ],
    );
    let mut fields = vec![
        ("compressionlevel", "-1".to_owned()),
        ("height", map.height.to_string()),
        ("infinite", "false".into()),
        ("layers", json_array(1, vec![tile_layer, object_layer])),
        ("nextlayerid", "3".into()),
        ("nextobjectid", (doc.objects.len() + 1).to_string()),
        ("orientation", json_str("orthogonal")),
    ];
    if !options.properties.is_empty() {
        let properties = options
            .properties
            .iter()
            .map(|p| {
                let (kind, value) = match &p.value {
                    PropertyValue::String(s) => ("string", json_str(s)),
                    PropertyValue::Int(i) => ("int", i.to_string()),
                    PropertyValue::Float(f) => ("float", json_float(*f)),
                    PropertyValue::Bool(b) => ("bool", b.to_string()),
                };
                json_property(&p.name, kind, value)
            })
            .collect();
        fields.push(("properties", json_array(1, properties)));
    }
    fields.extend([
        ("renderorder", json_str("right-down")),
        ("tileheight", t.to_string()),
        ("tilesets", json_array(1, vec![tileset])),
        ("tilewidth", t.to_string()),
        ("type", json_str("map")),
        ("version", json_str(TILED_FORMAT_VERSION)),
        ("width", map.width.to_string()),
    ]);
    let mut out = json_object(0, &fields);
    out.push('\n');
    Ok(out)
}

/// The TMX map (`.tmx`) of `map`, as the module docs describe: XML with
/// one-space indentation as Tiled writes it, the tile data as CSV one map
/// row a line, a final newline. Text that XML 1.0 cannot carry (control
/// characters) becomes U+FFFD.
///
/// # Errors
///
/// As [`to_tmj`].
pub fn to_tmx(map: &TileMap, options: &TiledOptions) -> Result<String, TileExportError> {
    let doc = Doc::new(map, options)?;
    let t = options.tile_px.to_string();
    let n = doc.kinds.len().to_string();
    let mut csv = String::from("\n");
    for (y, row) in map.cells.chunks(map.width as usize).enumerate() {
        for (x, tile) in row.iter().enumerate() {
            if x > 0 {
                csv.push(',');
            }
            let _ = write!(csv, "{}", u32::from(tile.0) + 1);
        }
        // Tiled's CSV runs on across rows: every row but the last ends in a
        // comma.
        csv.push_str(if y + 1 < map.height as usize {
            ",\n"
        } else {
            "\n"
        });
    }
    Ok(xml_document(1, |w| {
        let next_object = (doc.objects.len() + 1).to_string();
        let height = map.height.to_string();
        let width = map.width.to_string();
        w.create_element("map")
            .with_attributes([
                ("version", TILED_FORMAT_VERSION),
                ("orientation", "orthogonal"),
                ("renderorder", "right-down"),
                ("width", width.as_str()),
                ("height", height.as_str()),
                ("tilewidth", t.as_str()),
                ("tileheight", t.as_str()),
                ("infinite", "0"),
                ("nextlayerid", "3"),
                ("nextobjectid", next_object.as_str()),
            ])
            .write_inner_content(|w| {
                if !options.properties.is_empty() {
                    w.create_element("properties").write_inner_content(|w| {
                        for p in &options.properties {
                            let (kind, value) = match &p.value {
                                PropertyValue::String(s) => (None, s.clone()),
                                PropertyValue::Int(i) => (Some("int"), i.to_string()),
                                PropertyValue::Float(f) => (Some("float"), format!("{f}")),
                                PropertyValue::Bool(b) => (Some("bool"), b.to_string()),
                            };
                            xml_property(w, &p.name, kind, &value)?;
                        }
                        Ok(())
                    })?;
                }
                let image_width = (doc.kinds.len() as u64 * u64::from(options.tile_px)).to_string();
                w.create_element("tileset")
                    .with_attributes([
                        ("firstgid", "1"),
                        ("name", TILESET_NAME),
                        ("tilewidth", t.as_str()),
                        ("tileheight", t.as_str()),
                        ("tilecount", n.as_str()),
                        ("columns", n.as_str()),
                    ])
                    .write_inner_content(|w| {
                        w.create_element("image")
                            .with_attribute(attribute("source", &options.tileset_image))
                            .with_attribute(("width", image_width.as_str()))
                            .with_attribute(("height", t.as_str()))
                            .write_empty()?;
                        for (id, (name, passable)) in doc.kinds.iter().enumerate() {
                            w.create_element("tile")
                                .with_attribute(("id", id.to_string().as_str()))
                                .with_attribute(attribute("type", name))
                                .write_inner_content(|w| {
                                    w.create_element("properties").write_inner_content(|w| {
                                        let value = passable.to_string();
                                        xml_property(w, "passable", Some("bool"), &value)
                                    })?;
                                    Ok(())
                                })?;
                        }
                        Ok(())
                    })?;
                w.create_element("layer")
                    .with_attributes([
                        ("id", "1"),
                        ("name", "tiles"),
                        ("width", width.as_str()),
                        ("height", height.as_str()),
                    ])
                    .write_inner_content(|w| {
                        let mut start = BytesStart::new("data");
                        start.push_attribute(("encoding", "csv"));
                        w.write_event(Event::Start(start))?;
                        w.write_event(Event::Text(BytesText::from_escaped(csv.as_str())))?;
                        w.write_event(Event::End(BytesEnd::new("data")))?;
                        Ok(())
                    })?;
                w.create_element("objectgroup")
                    .with_attributes([("id", "2"), ("name", "objects")])
                    .write_inner_content(|w| {
                        for o in &doc.objects {
                            xml_map_object(w, o)?;
                        }
                        Ok(())
                    })?;
                Ok(())
            })?;
        Ok(())
    }))
}

// ------------------------------------------------------------ the model

/// A length or coordinate in half pixels, so that cell centres at an odd
/// `tile_px` stay exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Half(i64);

impl std::fmt::Display for Half {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, half) = (self.0.div_euclid(2), self.0.rem_euclid(2) == 1);
        match (whole, half) {
            (w, false) => write!(f, "{w}"),
            // -0.5 has no whole part to carry its sign.
            (-1, true) => write!(f, "-0.5"),
            (w, true) if w < 0 => write!(f, "{}.5", w + 1),
            (w, true) => write!(f, "{w}.5"),
        }
    }
}

/// An object of the object layer.
struct MapObject {
    id: usize,
    name: String,
    kind: String,
    x: Half,
    y: Half,
    shape: Shape,
    /// Object-reference properties, by name in alphabetical order.
    refs: Vec<(&'static str, usize)>,
    /// String properties ([`crate::tiles::TileObject::properties`]).
    strings: Vec<(String, String)>,
}

impl MapObject {
    /// Every property as (name, Tiled type, value), by name: the object
    /// references and the strings.
    fn properties(&self) -> Vec<(&str, &'static str, String)> {
        let mut all: Vec<(&str, &'static str, String)> = self
            .refs
            .iter()
            .map(|(name, id)| (*name, "object", id.to_string()))
            .chain(
                self.strings
                    .iter()
                    .map(|(name, value)| (name.as_str(), "string", value.clone())),
            )
            .collect();
        all.sort_by(|a, b| a.0.cmp(b.0));
        all
    }
}

enum Shape {
    Rect {
        width: Half,
        height: Half,
    },
    /// Points relative to the object's position.
    Polygon(Vec<[Half; 2]>),
    /// Points relative to the object's position.
    Polyline(Vec<[Half; 2]>),
    Point,
}

/// What both files say: the tile kinds and the objects.
struct Doc {
    /// Each kind's name and whether it is passable, in code order.
    kinds: Vec<(String, bool)>,
    objects: Vec<MapObject>,
}

impl Doc {
    fn new(map: &TileMap, options: &TiledOptions) -> Result<Self, TileExportError> {
        check_options(map, options)?;
        check_map(map)?;
        let kinds = map
            .kinds()
            .map(|k| (map.kind_name(k).to_owned(), k.is_passable()))
            .collect();
        let tile = i64::from(options.tile_px);
        // A cell corner, and a cell centre, in half pixels.
        let corner = |v: u32| Half(2 * i64::from(v) * tile);
        let centre = |v: u32| Half((2 * i64::from(v) + 1) * tile);
        let mut objects: Vec<MapObject> = Vec::new();
        let room_id = |room: usize| room + 1;
        let mut push = |name: String,
                        kind: String,
                        (x, y, shape): (Half, Half, Shape),
                        refs,
                        strings: Vec<(String, String)>| {
            objects.push(MapObject {
                id: objects.len() + 1,
                name,
                kind,
                x,
                y,
                shape,
                refs,
                strings,
            });
        };
        let outline_object = |outline: &[[u32; 2]]| -> (Half, Half, Shape) {
            let outline = simplify_loop(outline);
            let (x0, y0, x1, y1) = bounding_box(&outline);
            let is_rect = outline.len() == 4
                && outline
                    .iter()
                    .all(|&[x, y]| (x == x0 || x == x1) && (y == y0 || y == y1));
            let shape = if is_rect {
                Shape::Rect {
                    width: corner(x1 - x0),
                    height: corner(y1 - y0),
                }
            } else {
                Shape::Polygon(
                    outline
                        .iter()
                        .map(|&[x, y]| [corner(x - x0), corner(y - y0)])
                        .collect(),
                )
            };
            (corner(x0), corner(y0), shape)
        };
        let rect_object = |r: &TileRect| {
            (
                corner(r.x),
                corner(r.y),
                Shape::Rect {
                    width: corner(r.width),
                    height: corner(r.height),
                },
            )
        };
        let side_refs = |rooms: &[Option<usize>; 2]| {
            let mut refs = Vec::new();
            if let Some(r) = rooms[0] {
                refs.push(("room_a", room_id(r)));
            }
            if let Some(r) = rooms[1] {
                refs.push(("room_b", room_id(r)));
            }
            refs
        };
        for room in &map.rooms {
            let kind = if room.tag.is_empty() {
                "room".to_owned()
            } else {
                room.tag.to_string()
            };
            push(
                room.name.to_string(),
                kind,
                outline_object(&room.outline),
                Vec::new(),
                Vec::new(),
            );
        }
        for door in &map.doors {
            push(
                String::new(),
                "door".into(),
                rect_object(&door.cells),
                side_refs(&door.rooms),
                Vec::new(),
            );
        }
        for corridor in &map.corridors {
            let cells = &corridor.cells;
            if cells.is_empty() {
                continue;
            }
            let is_walk = cells.len() >= 2
                && cells.windows(2).all(|w| {
                    let [[ax, ay], [bx, by]] = [w[0], w[1]];
                    ax.abs_diff(bx) + ay.abs_diff(by) == 1
                });
            let shape = if is_walk {
                let [x0, y0] = cells[0];
                let turns = simplify_path(cells);
                let points = turns
                    .iter()
                    .map(|&[x, y]| {
                        let dx = 2 * (i64::from(x) - i64::from(x0)) * tile;
                        let dy = 2 * (i64::from(y) - i64::from(y0)) * tile;
                        [Half(dx), Half(dy)]
                    })
                    .collect();
                (centre(x0), centre(y0), Shape::Polyline(points))
            } else if let Some(outline) = trace_outline(cells) {
                outline_object(&outline)
            } else {
                let (x0, y0, x1, y1) = bounding_box(cells);
                rect_object(&TileRect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
            };
            push(
                String::new(),
                "corridor".into(),
                shape,
                side_refs(&corridor.rooms),
                Vec::new(),
            );
        }
        for object in &map.objects {
            let [x, y] = object.cell;
            let refs = object
                .room
                .map(|r| vec![("room", room_id(r))])
                .unwrap_or_default();
            push(
                object.name.clone(),
                object.kind.clone(),
                (centre(x), centre(y), Shape::Point),
                refs,
                object.properties.clone(),
            );
        }
        Ok(Doc { kinds, objects })
    }
}

fn check_options(map: &TileMap, options: &TiledOptions) -> Result<(), TileExportError> {
    let n_kinds = map.kinds().count() as u64;
    let max = u64::from(MAX_IMAGE_SIDE) / n_kinds.max(1);
    if options.tile_px == 0 || u64::from(options.tile_px) > max {
        return Err(TileExportError::parameter(
            "options.tile_px",
            format!(
                "{} px per tile; with {n_kinds} tile kinds the tileset image allows 1 to {max}",
                options.tile_px
            ),
        ));
    }
    if options.tileset_image.is_empty() {
        return Err(TileExportError::parameter(
            "options.tileset_image",
            "empty (name the tileset PNG, e.g. `tileset.png`)",
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for p in &options.properties {
        if p.name.is_empty() {
            return Err(TileExportError::parameter(
                "options.properties",
                "a property without a name",
            ));
        }
        if !seen.insert(p.name.as_str()) {
            return Err(TileExportError::parameter(
                "options.properties",
                format!("`{}` given twice", p.name),
            ));
        }
        if let PropertyValue::Float(f) = p.value {
            if !f.is_finite() {
                return Err(TileExportError::parameter(
                    "options.properties",
                    format!("`{}` is {f} (floats must be finite)", p.name),
                ));
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------ geometry

/// `(min x, min y, max x, max y)` of non-empty `points`.
fn bounding_box(points: &[[u32; 2]]) -> (u32, u32, u32, u32) {
    points
        .iter()
        .fold((u32::MAX, u32::MAX, 0, 0), |(x0, y0, x1, y1), &[x, y]| {
            (x0.min(x), y0.min(y), x1.max(x), y1.max(y))
        })
}

/// A closed outline without repeated points and without points in the
/// middle of a straight edge.
fn simplify_loop(outline: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut points: Vec<[u32; 2]> = Vec::with_capacity(outline.len());
    for &p in outline {
        if points.last() != Some(&p) {
            points.push(p);
        }
    }
    while points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    // Dropping a point can make its neighbours collinear with the next, so
    // repeat until nothing changes (each pass drops at least one point).
    loop {
        let n = points.len();
        if n < 3 {
            return points;
        }
        let keep: Vec<bool> = (0..n)
            .map(|i| !collinear(points[(i + n - 1) % n], points[i], points[(i + 1) % n]))
            .collect();
        if keep.iter().all(|&k| k) {
            return points;
        }
        points = points
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&p, _)| p)
            .collect();
    }
}

/// An open path with only its ends and turns.
fn simplify_path(path: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for &p in path {
        if out.len() >= 2 && collinear(out[out.len() - 2], out[out.len() - 1], p) {
            out.pop();
        }
        out.push(p);
    }
    out
}

/// Whether `b` lies on the straight line through `a` and `c` (axis
/// parallel: outlines and walks of cells only turn at right angles).
fn collinear(a: [u32; 2], b: [u32; 2], c: [u32; 2]) -> bool {
    (a[0] == b[0] && b[0] == c[0]) || (a[1] == b[1] && b[1] == c[1])
}

/// The outline of a set of cells in cell-corner coordinates, clockwise on
/// screen, starting at the top-left corner of the topmost, leftmost cell;
/// `None` unless the cells' boundary is one simple loop (4-connected, no
/// holes, no two cells touching only at a corner).
fn trace_outline(cells: &[[u32; 2]]) -> Option<Vec<[u32; 2]>> {
    let set: std::collections::BTreeSet<[u32; 2]> = cells.iter().copied().collect();
    let has = |x: u32, y: u32, dx: i64, dy: i64| {
        let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
        nx >= 0 && ny >= 0 && set.contains(&[nx as u32, ny as u32])
    };
    // Boundary edges with the cells on their right, from start to end
    // corner; a corner starting two edges is a pinch.
    let mut next: BTreeMap<[u32; 2], [u32; 2]> = BTreeMap::new();
    let mut n_edges = 0usize;
    for &[x, y] in &set {
        let edges = [
            (has(x, y, 0, -1), [x, y], [x + 1, y]),
            (has(x, y, 1, 0), [x + 1, y], [x + 1, y + 1]),
            (has(x, y, 0, 1), [x + 1, y + 1], [x, y + 1]),
            (has(x, y, -1, 0), [x, y + 1], [x, y]),
        ];
        for (shared, from, to) in edges {
            if !shared {
                n_edges += 1;
                if next.insert(from, to).is_some() {
                    return None;
                }
            }
        }
    }
    // The set is ordered by [x, y]; the loop starts at the smallest corner
    // by row, then column.
    let start = *next.keys().min_by_key(|&&[x, y]| (y, x))?;
    let mut outline = vec![start];
    let mut at = next[&start];
    while at != start {
        outline.push(at);
        at = *next.get(&at)?;
        if outline.len() > n_edges {
            return None;
        }
    }
    (outline.len() == n_edges).then(|| simplify_loop(&outline))
}

// ------------------------------------------------------------ JSON

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

/// A JSON string literal.
fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A finite float in JSON's shortest round-trip form (`0.5`, `3`).
fn json_float(f: f64) -> String {
    format!("{f}")
}

/// An object whose closing brace is at `depth`; `fields` are rendered
/// values for depth `depth + 1`.
fn json_object(depth: usize, fields: &[(&str, String)]) -> String {
    let mut out = String::from("{\n");
    for (i, (key, value)) in fields.iter().enumerate() {
        out.push_str(&pad(depth + 1));
        out.push_str(&json_str(key));
        out.push_str(": ");
        out.push_str(value);
        out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
    }
    out.push_str(&pad(depth));
    out.push('}');
    out
}

/// An array whose closing bracket is at `depth`; `items` are rendered
/// values for depth `depth + 1`.
fn json_array(depth: usize, items: Vec<String>) -> String {
    if items.is_empty() {
        return "[]".into();
    }
    let mut out = String::from("[\n");
    let n = items.len();
    for (i, item) in items.into_iter().enumerate() {
        out.push_str(&pad(depth + 1));
        out.push_str(&item);
        out.push_str(if i + 1 < n { ",\n" } else { "\n" });
    }
    out.push_str(&pad(depth));
    out.push(']');
    out
}

/// A property on one line.
fn json_property(name: &str, kind: &str, value: String) -> String {
    format!(
        "{{\"name\": {}, \"type\": {}, \"value\": {value}}}",
        json_str(name),
        json_str(kind)
    )
}

fn json_points(points: &[[Half; 2]]) -> String {
    let items: Vec<String> = points
        .iter()
        .map(|[x, y]| format!("{{\"x\": {x}, \"y\": {y}}}"))
        .collect();
    format!("[{}]", items.join(", "))
}

/// An object of the object layer, closing brace at `depth`.
fn json_map_object(o: &MapObject, depth: usize) -> String {
    let zero = Half(0);
    let (width, height) = match o.shape {
        Shape::Rect { width, height } => (width, height),
        _ => (zero, zero),
    };
    let mut fields = vec![
        ("height", height.to_string()),
        ("id", o.id.to_string()),
        ("name", json_str(&o.name)),
    ];
    match &o.shape {
        Shape::Point => fields.push(("point", "true".into())),
        Shape::Polygon(points) => fields.push(("polygon", json_points(points))),
        Shape::Polyline(points) => fields.push(("polyline", json_points(points))),
        Shape::Rect { .. } => {}
    }
    let all = o.properties();
    if !all.is_empty() {
        let properties = all
            .into_iter()
            .map(|(name, kind, value)| {
                let value = if kind == "string" {
                    json_str(&value)
                } else {
                    value
                };
                json_property(name, kind, value)
            })
            .collect();
        fields.push(("properties", json_array(depth + 1, properties)));
    }
    fields.extend([
        ("rotation", "0".into()),
        ("type", json_str(&o.kind)),
        ("visible", "true".into()),
        ("width", width.to_string()),
        ("x", o.x.to_string()),
        ("y", o.y.to_string()),
    ]);
    json_object(depth, &fields)
}

// ------------------------------------------------------------ XML

/// `<property name=… [type=…] value=…/>`; a `None` type is Tiled's
/// default, `string`.
fn xml_property(
    w: &mut Writer<Vec<u8>>,
    name: &str,
    kind: Option<&str>,
    value: &str,
) -> std::io::Result<()> {
    let mut e = w
        .create_element("property")
        .with_attribute(attribute("name", name));
    if let Some(kind) = kind {
        e = e.with_attribute(("type", kind));
    }
    e.with_attribute(attribute("value", value)).write_empty()?;
    Ok(())
}

fn xml_map_object(w: &mut Writer<Vec<u8>>, o: &MapObject) -> std::io::Result<()> {
    let id = o.id.to_string();
    let (x, y) = (o.x.to_string(), o.y.to_string());
    let mut e = w
        .create_element("object")
        .with_attribute(("id", id.as_str()));
    if !o.name.is_empty() {
        e = e.with_attribute(attribute("name", &o.name));
    }
    e = e
        .with_attribute(attribute("type", &o.kind))
        .with_attribute(("x", x.as_str()))
        .with_attribute(("y", y.as_str()));
    if let Shape::Rect { width, height } = o.shape {
        let (width, height) = (width.to_string(), height.to_string());
        e = e
            .with_attribute(("width", width.as_str()))
            .with_attribute(("height", height.as_str()));
    }
    let all = o.properties();
    if all.is_empty() && matches!(o.shape, Shape::Rect { .. }) {
        e.write_empty()?;
        return Ok(());
    }
    e.write_inner_content(|w| {
        if !all.is_empty() {
            w.create_element("properties").write_inner_content(|w| {
                for (name, kind, value) in &all {
                    // Tiled's default type is `string`: written without one.
                    let kind = (*kind != "string").then_some(*kind);
                    xml_property(w, name, kind, value)?;
                }
                Ok(())
            })?;
        }
        let points = |points: &[[Half; 2]]| {
            points
                .iter()
                .map(|[x, y]| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match &o.shape {
            Shape::Rect { .. } => {}
            Shape::Point => {
                w.create_element("point").write_empty()?;
            }
            Shape::Polygon(p) => {
                w.create_element("polygon")
                    .with_attribute(("points", points(p).as_str()))
                    .write_empty()?;
            }
            Shape::Polyline(p) => {
                w.create_element("polyline")
                    .with_attribute(("points", points(p).as_str()))
                    .write_empty()?;
            }
        }
        Ok(())
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
