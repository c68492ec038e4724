//! File formats: the mission graph JSON document (both ways, and as a host
//! graph for a grammar), Graphviz DOT, GraphML, SVG and the text export of
//! seed 003.

pub mod dot;
pub mod graphml;
pub mod layout;
pub mod mission;
pub mod play;
pub mod seed003;
pub mod svg;
pub mod tilemap;

pub use dot::to_dot;
pub use graphml::to_graphml;
pub use layout::{layout_svg, LayoutDoc, LAYOUT_FORMAT};
pub use mission::{
    host_for, MissionDoc, MissionError, MAX_CELL, MAX_COORDINATE, MAX_NODE_ID, MISSION_FORMAT,
};
pub use play::PlayDoc;
pub use seed003::to_seed003_text;
pub use svg::{to_svg, to_svg_numbered};
