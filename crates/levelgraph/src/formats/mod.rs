//! File formats: the mission graph JSON document, Graphviz DOT and SVG.

pub mod dot;
pub mod mission;
pub mod svg;

pub use dot::to_dot;
pub use mission::{MissionDoc, MissionError, MISSION_FORMAT};
pub use svg::to_svg;
