//! The TMX map (`.tmx`), written with `quick-xml` with one-space
//! indentation as Tiled writes it.

use std::fmt::Write as _;

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::model::{Doc, Half, MapObject, Shape};
use super::{PropertyValue, TiledOptions, TILED_FORMAT_VERSION, TILESET_NAME};
use crate::formats::graphml::{attribute, xml_document};
use crate::formats::tilemap::TileExportError;
use crate::tiles::TileMap;

/// The TMX map (`.tmx`) of `map`, as the module docs describe: XML with
/// one-space indentation as Tiled writes it, the tile data as CSV one map
/// row a line, a final newline. Text that XML 1.0 cannot carry (control
/// characters) becomes U+FFFD.
///
/// # Errors
///
/// As [`to_tmj`](super::to_tmj).
pub fn to_tmx(map: &TileMap, options: &TiledOptions) -> Result<String, TileExportError> {
    let doc = Doc::new(map, options)?;
    let t = options.tile_px.to_string();
    let csv = csv_tile_data(map);
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
                xml_tileset(w, &doc, options)?;
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

/// The tile layer's CSV: every cell's global id, one map row a line.
fn csv_tile_data(map: &TileMap) -> String {
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
    csv
}

/// The embedded `<tileset>`: its image and one tile per kind, with its
/// `passable` property.
fn xml_tileset<W: std::io::Write>(
    w: &mut Writer<W>,
    doc: &Doc,
    options: &TiledOptions,
) -> std::io::Result<()> {
    let t = options.tile_px.to_string();
    let n = doc.kinds.len().to_string();
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
    Ok(())
}

/// `<property name=… [type=…] value=…/>`; a `None` type is Tiled's
/// default, `string`.
fn xml_property<W: std::io::Write>(
    w: &mut Writer<W>,
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

fn xml_map_object<W: std::io::Write>(w: &mut Writer<W>, o: &MapObject) -> std::io::Result<()> {
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
