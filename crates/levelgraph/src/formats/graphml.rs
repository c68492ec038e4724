//! GraphML output of a mission graph (`mission.graphml`), documented in
//! `docs/formats.md`, for graph tools such as yEd, Gephi, Cytoscape,
//! igraph and networkx.
//!
//! Written with `quick-xml`: one `<graph>` with a `<node id="v<id>">` per
//! vertex (stable vertex id) and an `<edge id="e<id>">` per edge (stable
//! edge id), in id order. Data keys: the graph's title; per vertex its tag,
//! the tag's colour, its position (`x`, `y`) when it has one, the node it is
//! stored in (`parent`, a node id) when it is nested, and one key per
//! vertex attribute name (sorted by name); per edge `directed`, `cosmetic`,
//! `label` (when there is one) and `length_factor`.
//!
//! Edge direction is written as the boolean data value `directed` on every
//! edge, with `edgedefault` `directed` when any edge is directed and
//! `undirected` otherwise. GraphML also allows a per-edge `directed` XML
//! attribute, but networkx refuses a file in which that attribute disagrees
//! with `edgedefault`, and mission graphs mix corridors with directed
//! edges, so the attribute is not written.
//!
//! Text reaches the file escaped; characters that XML 1.0 cannot carry at
//! all (control characters other than tab, line feed and carriage return;
//! U+FFFE, U+FFFF) are replaced by U+FFFD, so the output is always
//! well-formed XML.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer;

use crate::alphabet::Alphabet;
use crate::graph::Graph;

/// The GraphML namespace.
const NAMESPACE: &str = "http://graphml.graphdrawing.org/xmlns";
/// Where the GraphML 1.0 schema lives, for `xsi:schemaLocation`.
const SCHEMA_LOCATION: &str =
    "http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd";

/// Prefix of the `attr.name` of vertex-attribute keys, so that an attribute
/// called `color` or `tag` does not collide with the keys of the same name.
pub const ATTRIBUTE_PREFIX: &str = "attribute.";

/// The GraphML text of `g`, titled `title`; colours from `alphabet` (grey
/// for tags it does not know). Same graph, same bytes. The whole text in
/// memory; [`write_graphml`] writes the same bytes to a file as it goes.
pub fn to_graphml(g: &Graph, alphabet: &Alphabet, title: &str) -> String {
    super::in_memory(|w| write_graphml(w, g, alphabet, title))
}

/// [`to_graphml`] written to `w` element by element (quick-xml's writer
/// writes each tag as it comes), holding the attribute names' key ids but
/// nothing else for the whole graph.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_graphml<W: Write>(
    w: &mut W,
    g: &Graph,
    alphabet: &Alphabet,
    title: &str,
) -> io::Result<()> {
    // Attribute names in sorted order, each with its key id `a<i>`.
    let mut attribute_keys: BTreeMap<&str, String> = BTreeMap::new();
    for (_, v) in g.vertices() {
        for name in v.attributes.keys() {
            attribute_keys.entry(name.as_str()).or_default();
        }
    }
    for (i, id) in attribute_keys.values_mut().enumerate() {
        *id = format!("a{i}");
    }
    let any_position = g.vertices().any(|(_, v)| v.position.is_some());
    let any_parent = g.vertices().any(|(_, v)| v.parent.is_some());
    let any_directed = g.edges().any(|(_, e)| e.directed);

    write_xml_document(w, 2, |w| {
        w.create_element("graphml")
            .with_attribute(("xmlns", NAMESPACE))
            .with_attribute(("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"))
            .with_attribute(("xsi:schemaLocation", SCHEMA_LOCATION))
            .write_inner_content(|w| {
                key(w, "title", "graph", "title", "string")?;
                key(w, "tag", "node", "tag", "string")?;
                key(w, "color", "node", "color", "string")?;
                if any_position {
                    key(w, "x", "node", "x", "double")?;
                    key(w, "y", "node", "y", "double")?;
                }
                if any_parent {
                    key(w, "parent", "node", "parent", "string")?;
                }
                for (name, id) in &attribute_keys {
                    let attr_name = format!("{ATTRIBUTE_PREFIX}{name}");
                    key(w, id, "node", &attr_name, "string")?;
                }
                key(w, "directed", "edge", "directed", "boolean")?;
                key(w, "cosmetic", "edge", "cosmetic", "boolean")?;
                key(w, "label", "edge", "label", "string")?;
                key(w, "length_factor", "edge", "length_factor", "double")?;
                let edgedefault = if any_directed {
                    "directed"
                } else {
                    "undirected"
                };
                w.create_element("graph")
                    .with_attribute(("id", "G"))
                    .with_attribute(("edgedefault", edgedefault))
                    .write_inner_content(|w| {
                        data(w, "title", title)?;
                        for (id, v) in g.vertices() {
                            let tag = g.tags().name(v.tag);
                            w.create_element("node")
                                .with_attribute(("id", format!("v{}", id.0).as_str()))
                                .write_inner_content(|w| {
                                    data(w, "tag", tag)?;
                                    data(w, "color", alphabet.color(tag))?;
                                    if let Some([x, y]) = v.position {
                                        data(w, "x", &xs_double(x))?;
                                        data(w, "y", &xs_double(y))?;
                                    }
                                    if let Some(parent) = v.parent {
                                        data(w, "parent", &format!("v{}", parent.0))?;
                                    }
                                    for (name, value) in &v.attributes {
                                        data(w, &attribute_keys[name.as_str()], value)?;
                                    }
                                    Ok(())
                                })?;
                        }
                        for (id, e) in g.edges() {
                            w.create_element("edge")
                                .with_attribute(("id", format!("e{}", id.0).as_str()))
                                .with_attribute(("source", format!("v{}", e.source.0).as_str()))
                                .with_attribute(("target", format!("v{}", e.target.0).as_str()))
                                .write_inner_content(|w| {
                                    data(w, "directed", bool_text(e.directed))?;
                                    data(w, "cosmetic", bool_text(e.cosmetic))?;
                                    if let Some(l) = e.label {
                                        data(w, "label", g.labels().name(l))?;
                                    }
                                    data(w, "length_factor", &xs_double(e.length_factor))
                                })?;
                        }
                        Ok(())
                    })?;
                Ok(())
            })?;
        Ok(())
    })
}

/// `<key id=… for=… attr.name=… attr.type=…/>`.
fn key<W: Write>(
    w: &mut Writer<W>,
    id: &str,
    domain: &str,
    name: &str,
    kind: &str,
) -> io::Result<()> {
    w.create_element("key")
        .with_attribute(("id", id))
        .with_attribute(("for", domain))
        .with_attribute(attribute("attr.name", name))
        .with_attribute(("attr.type", kind))
        .write_empty()?;
    Ok(())
}

/// `<data key=…>value</data>`.
fn data<W: Write>(w: &mut Writer<W>, key: &str, value: &str) -> io::Result<()> {
    w.create_element("data")
        .with_attribute(("key", key))
        .write_text_content(text(value))?;
    Ok(())
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// An `xs:double` in its shortest round-trip form (`1`, `0.5`, `-2.25`;
/// `NaN`, `INF`, `-INF` for the values that have no digits).
fn xs_double(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else if v.is_infinite() {
        if v > 0.0 { "INF" } else { "-INF" }.to_owned()
    } else if v == 0.0 {
        "0".to_owned() // also for -0.0
    } else {
        format!("{v}")
    }
}

/// `s` with every character XML 1.0 cannot carry replaced by U+FFFD.
fn xml_chars(s: &str) -> Cow<'_, str> {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
    };
    if s.chars().all(allowed) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(
            s.chars()
                .map(|c| if allowed(c) { c } else { '\u{FFFD}' })
                .collect(),
        )
    }
}

/// Element text: escaped, with carriage returns as character references
/// (a parser would otherwise turn `\r\n` into `\n`).
fn text(s: &str) -> BytesText<'static> {
    let escaped = quick_xml::escape::escape(xml_chars(s)).replace('\r', "&#13;");
    BytesText::from_escaped(escaped)
}

/// An XML document written into memory: the declaration (version 1.0,
/// UTF-8), then what `body` writes, indented by `indent` spaces a level,
/// ending in a line break. Writing into a `Vec` cannot fail, so neither
/// can this. Shared with the Tiled `.tmx` writer.
pub(crate) fn xml_document(
    indent: usize,
    body: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> io::Result<()>,
) -> String {
    super::in_memory(|w| write_xml_document(w, indent, body))
}

/// [`xml_document`] written to `w` as it goes.
pub(crate) fn write_xml_document<W: Write>(
    w: W,
    indent: usize,
    body: impl FnOnce(&mut Writer<W>) -> io::Result<()>,
) -> io::Result<()> {
    let mut xml = Writer::new_with_indent(w, b' ', indent);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    body(&mut xml)?;
    xml.into_inner().write_all(b"\n")
}

/// An attribute holding arbitrary text: escaped, characters XML 1.0 cannot
/// carry replaced by U+FFFD, and tabs and line breaks as character
/// references (a parser would otherwise normalise them to spaces). Shared
/// with the Tiled `.tmx` writer.
pub(crate) fn attribute<'a>(name: &'a str, value: &str) -> Attribute<'a> {
    let escaped = quick_xml::escape::escape(xml_chars(value))
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;");
    Attribute {
        key: QName(name.as_bytes()),
        value: Cow::Owned(escaped.into_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_are_shortest_and_xs_valid() {
        assert_eq!(xs_double(1.0), "1");
        assert_eq!(xs_double(0.25), "0.25");
        assert_eq!(xs_double(-0.0), "0");
        assert_eq!(xs_double(f64::NAN), "NaN");
        assert_eq!(xs_double(f64::NEG_INFINITY), "-INF");
        assert_eq!(xs_double(1e-7), "0.0000001");
    }

    #[test]
    fn forbidden_characters_become_replacement_characters() {
        assert_eq!(xml_chars("a\u{1}b\tc\u{FFFF}"), "a\u{FFFD}b\tc\u{FFFD}");
        assert!(matches!(xml_chars("plain"), Cow::Borrowed(_)));
    }
}
