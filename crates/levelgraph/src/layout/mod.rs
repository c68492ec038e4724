//! Room layout (Ma et al. 2014, "Game level layout from design
//! specification", as implemented in Nepožitek's Edgar): every vertex of a
//! level graph gets a room template, a transform and an integer position,
//! so that no two rooms overlap and every edge is a door between rooms that
//! touch, or a corridor between them.
//!
//! Stages: [`polygon`] and [`template`] (outlines, doors, transforms) →
//! configuration spaces of every shape pair, precomputed once → chains
//! from a planar embedding's faces ([`planarity`]) → incremental layout with
//! simulated annealing per chain and a stack of partial layouts to
//! backtrack to → corridors → a [`Layout`]. [`check`] is an independent
//! validity test of any layout against its problem. [`edgar`] reads
//! Edgar-DotNet's YAML maps and room sets.

mod chains;
pub mod check;
mod config_space;
pub mod edgar;
mod engine;
pub mod planarity;
pub mod polygon;
pub mod template;

pub use engine::{
    layout, Hint, LayoutError, LayoutSettings, LayoutStats, LimitKind, Prepared, ProblemError,
};
pub use polygon::{GridPoint, OrthoPolygon, PolygonError, Rect, Transform};
pub use template::{DoorFault, DoorLine, DoorRule, RepeatMode, RoomTemplate, Shape, TemplateError};

use serde::{Deserialize, Serialize};

/// What to lay out: the rooms (vertices of the level graph), the edges that
/// need doors, the templates, and the options.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutProblem {
    /// One per level-graph vertex, in vertex order.
    pub rooms: Vec<RoomSpec>,
    /// The level graph's edges as pairs of indices into `rooms` (no
    /// self-loops, no duplicates).
    pub edges: Vec<[usize; 2]>,
    /// Every template any room or corridor may use.
    pub templates: Vec<RoomTemplate>,
    /// Corridors between the rooms of every edge, if wanted.
    pub corridors: Option<CorridorSpec>,
    /// Least L∞ distance between two rooms that no edge joins (0: they may
    /// touch).
    pub min_distance: u32,
    /// How often a template may repeat.
    pub repeat: RepeatMode,
    /// A plane drawing of the level graph (one point per room), used for
    /// the planar embedding instead of computing one; from a geometric
    /// derivation.
    pub drawing: Option<Vec<[f64; 2]>>,
}

/// A room to place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomSpec {
    /// A name for output and messages (the vertex id or Edgar's room
    /// number).
    pub name: String,
    /// The level graph tag, for colours and the tag → template mapping.
    pub tag: String,
    /// Indices into [`LayoutProblem::templates`] of the templates it may
    /// use (at least one).
    pub templates: Vec<usize>,
}

/// Corridors: every edge becomes a corridor room of one of `templates`
/// between its two rooms, whose doors meet a door of each room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorridorSpec {
    /// Edgar's corridor offsets: the lengths (grid units, ≥ 1) the corridor
    /// templates span between the two rooms. Informational: the corridor
    /// templates' own door positions decide the distance.
    pub offsets: Vec<u32>,
    /// Indices into [`LayoutProblem::templates`]: the corridor templates
    /// (each with exactly two door positions).
    pub templates: Vec<usize>,
}

/// A finished layout: where every room went, every door, every corridor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// One per room of the problem, in the same order.
    pub rooms: Vec<PlacedRoom>,
    /// Without corridors one door per edge (from `edges[e][0]` into
    /// `edges[e][1]`); with corridors two per edge, one from each end room
    /// into the edge's corridor.
    pub doors: Vec<Door>,
    /// One per edge when corridors are on, in edge order; else empty.
    pub corridors: Vec<PlacedRoom>,
}

/// A template placed: `outline` is the template's outline under
/// `transform`, moved so that its bounding box starts at `(0, 0)`, then by
/// `position`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedRoom {
    /// Index into [`LayoutProblem::templates`].
    pub template: usize,
    /// The transform applied to the template.
    pub transform: Transform,
    /// Where the transformed outline's bounding-box corner `(0, 0)` went.
    pub position: GridPoint,
    /// The outline in layout coordinates, counter-clockwise.
    pub outline: Vec<GridPoint>,
}

/// A door: a segment on the boundary of two placed parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    /// Index into [`LayoutProblem::edges`] of the edge the door serves.
    pub edge: usize,
    /// The room it opens from (an index into the rooms).
    pub room: usize,
    /// `None`: it opens into the edge's other room. `Some(k)`: into
    /// corridor `k` (an index into [`Layout::corridors`]).
    pub corridor: Option<usize>,
    /// Its two ends.
    pub segment: [GridPoint; 2],
}
