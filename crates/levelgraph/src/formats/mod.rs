//! File formats: the mission graph JSON document (both ways, and as a host
//! graph for a grammar), Graphviz DOT, GraphML, SVG and the one-line
//! `GRAPH …` text export.

pub mod dot;
pub mod graph_text;
pub mod graphml;
pub mod layout;
pub mod mission;
pub mod play;
pub mod svg;
pub mod tilemap;

pub use dot::to_dot;
pub use graph_text::to_graph_text;
pub use graphml::to_graphml;
pub use layout::{layout_svg, LayoutDoc, LAYOUT_FORMAT};
pub use mission::{
    host_for, GeometryValue, MissionDoc, MissionError, MAX_CELL, MAX_COORDINATE, MAX_NODE_ID,
    MISSION_FORMAT,
};
pub use play::PlayDoc;
pub use svg::{to_svg, to_svg_numbered};

/// Deprecated: the old name of [`to_graph_text`], the one-line `GRAPH …`
/// text export, kept so that code written against it still builds. Use
/// [`to_graph_text`].
// To be marked `#[deprecated(note = "renamed to `to_graph_text`")]` once the
// CLI's main.rs calls `to_graph_text`: until then the attribute's warning
// there would fail `clippy -D warnings`.
pub fn to_seed003_text(g: &crate::graph::Graph, layout: &[Option<crate::graph::Point>]) -> String {
    to_graph_text(g, layout)
}
