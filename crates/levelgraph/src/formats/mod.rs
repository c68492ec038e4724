//! File formats: the mission graph JSON document (both ways, and as a host
//! graph for a grammar), Graphviz DOT, GraphML, SVG and the one-line
//! `GRAPH …` text export.
//!
//! Each file that grows with the graph has two writers: `write_*`, which
//! writes to any [`std::io::Write`] element by element (a file of any size
//! in memory for one element), and `to_*`, the same bytes as a `String`.
//! A caller writing a file wraps it in a [`std::io::BufWriter`]: the
//! writers make many small writes.

pub mod dot;
pub mod graph_text;
pub mod graphml;
pub mod layout;
pub mod mission;
mod number_arrays;
pub mod play;
pub mod svg;
mod svg_marks;
pub mod tilemap;

pub use dot::{to_dot, write_dot};
pub use graph_text::{to_graph_text, write_graph_text};
pub use graphml::{to_graphml, write_graphml};
pub use layout::{layout_svg, write_layout_svg, write_layout_svg_shaded, LayoutDoc, LAYOUT_FORMAT};
pub use mission::{
    host_for, GeometryValue, MissionDoc, MissionError, MissionJson, MAX_CELL, MAX_COORDINATE,
    MAX_NODE_ID, MISSION_FORMAT,
};
pub use play::PlayDoc;
pub use svg::{to_svg, to_svg_numbered, write_svg, write_svg_numbered, write_svg_shaded, Shading};

/// Deprecated: the old name of [`to_graph_text`], the one-line `GRAPH …`
/// text export, kept so that code written against it still builds. Use
/// [`to_graph_text`].
// To be marked `#[deprecated(note = "renamed to `to_graph_text`")]` once the
// CLI's main.rs calls `to_graph_text`: until then the attribute's warning
// there would fail `clippy -D warnings`.
pub fn to_seed003_text(g: &crate::graph::Graph, layout: &[Option<crate::graph::Point>]) -> String {
    to_graph_text(g, layout)
}

/// What `write` writes, as text: the `to_*` functions are their `write_*`
/// functions into memory.
pub(crate) fn in_memory(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    write(&mut out).expect("writing into memory cannot fail");
    String::from_utf8(out).expect("every writer here writes UTF-8")
}
