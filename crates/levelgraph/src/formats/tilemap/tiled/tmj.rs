//! The Tiled JSON map (`.tmj`), written by hand so that its layout is
//! Tiled's own: two-space indentation, one map row a line.

use std::fmt::Write as _;

use super::model::{Doc, Half, MapObject, Shape};
use super::{PropertyValue, TiledOptions, TILED_FORMAT_VERSION, TILESET_NAME};
use crate::formats::tilemap::TileExportError;
use crate::tiles::TileMap;

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
    let data = json_tile_data(map);
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
    let tileset = json_tileset(&doc, options);
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

/// The tile layer's `data`: every cell's global id, one map row a line.
fn json_tile_data(map: &TileMap) -> String {
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
    data
}

/// The embedded tileset: one tile per kind, with its `passable` property.
fn json_tileset(doc: &Doc, options: &TiledOptions) -> String {
    let t = options.tile_px;
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
    json_object(
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
    )
}

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
