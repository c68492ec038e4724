//! What both Tiled files say, before either is written: the tile kinds and
//! the object layer's objects, in half pixels, and the options' checks.

use super::geometry::{bounding_box, simplify_loop, simplify_path, trace_outline};
use super::{PropertyValue, TiledOptions};
use crate::formats::tilemap::{check_map, TileExportError, MAX_IMAGE_SIDE};
use crate::tiles::{TileMap, TileRect};

/// A length or coordinate in half pixels, so that cell centres at an odd
/// `tile_px` stay exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Half(pub(super) i64);

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
pub(super) struct MapObject {
    pub(super) id: usize,
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) x: Half,
    pub(super) y: Half,
    pub(super) shape: Shape,
    /// Object-reference properties, by name in alphabetical order.
    pub(super) refs: Vec<(&'static str, usize)>,
    /// String properties ([`crate::tiles::TileObject::properties`]).
    pub(super) strings: Vec<(String, String)>,
}

impl MapObject {
    /// Every property as (name, Tiled type, value), by name: the object
    /// references and the strings.
    pub(super) fn properties(&self) -> Vec<(&str, &'static str, String)> {
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

pub(super) enum Shape {
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
pub(super) struct Doc {
    /// Each kind's name and whether it is passable, in code order.
    pub(super) kinds: Vec<(String, bool)>,
    pub(super) objects: Vec<MapObject>,
}

impl Doc {
    /// The kinds and objects of `map`, once `options` and the map pass their
    /// checks.
    pub(super) fn new(map: &TileMap, options: &TiledOptions) -> Result<Self, TileExportError> {
        check_options(map, options)?;
        check_map(map)?;
        let kinds = map
            .kinds()
            .map(|k| (map.kind_name(k).to_owned(), k.is_passable()))
            .collect();
        let tile = i64::from(options.tile_px);
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
                outline_object(&room.outline, tile),
                Vec::new(),
                Vec::new(),
            );
        }
        for door in &map.doors {
            push(
                String::new(),
                "door".into(),
                rect_object(&door.cells, tile),
                side_refs(&door.rooms),
                Vec::new(),
            );
        }
        for corridor in &map.corridors {
            let cells = &corridor.cells;
            if cells.is_empty() {
                continue;
            }
            let shape = corridor_shape(cells, tile);
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
                (centre(x, tile), centre(y, tile), Shape::Point),
                refs,
                object.properties.clone(),
            );
        }
        Ok(Doc { kinds, objects })
    }
}

/// A cell corner, in half pixels, with tiles of `tile` pixels.
fn corner(v: u32, tile: i64) -> Half {
    Half(2 * i64::from(v) * tile)
}

/// A cell centre, in half pixels, with tiles of `tile` pixels.
fn centre(v: u32, tile: i64) -> Half {
    Half((2 * i64::from(v) + 1) * tile)
}

/// The object of a closed outline of cell corners: a rectangle when it is
/// one, else a polygon relative to its top-left corner.
fn outline_object(outline: &[[u32; 2]], tile: i64) -> (Half, Half, Shape) {
    let outline = simplify_loop(outline);
    let (x0, y0, x1, y1) = bounding_box(&outline);
    let is_rect = outline.len() == 4
        && outline
            .iter()
            .all(|&[x, y]| (x == x0 || x == x1) && (y == y0 || y == y1));
    let shape = if is_rect {
        Shape::Rect {
            width: corner(x1 - x0, tile),
            height: corner(y1 - y0, tile),
        }
    } else {
        Shape::Polygon(
            outline
                .iter()
                .map(|&[x, y]| [corner(x - x0, tile), corner(y - y0, tile)])
                .collect(),
        )
    };
    (corner(x0, tile), corner(y0, tile), shape)
}

/// The object of a rectangle of cells.
fn rect_object(r: &TileRect, tile: i64) -> (Half, Half, Shape) {
    (
        corner(r.x, tile),
        corner(r.y, tile),
        Shape::Rect {
            width: corner(r.width, tile),
            height: corner(r.height, tile),
        },
    )
}

/// A corridor's object: a polyline through its cells' centres when they
/// are a walk, else its outline, else its bounding rectangle.
fn corridor_shape(cells: &[[u32; 2]], tile: i64) -> (Half, Half, Shape) {
    let is_walk = cells.len() >= 2
        && cells.windows(2).all(|w| {
            let [[ax, ay], [bx, by]] = [w[0], w[1]];
            ax.abs_diff(bx) + ay.abs_diff(by) == 1
        });
    if is_walk {
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
        (centre(x0, tile), centre(y0, tile), Shape::Polyline(points))
    } else if let Some(outline) = trace_outline(cells) {
        outline_object(&outline, tile)
    } else {
        let (x0, y0, x1, y1) = bounding_box(cells);
        rect_object(&TileRect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1), tile)
    }
}

pub(super) fn check_options(map: &TileMap, options: &TiledOptions) -> Result<(), TileExportError> {
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
