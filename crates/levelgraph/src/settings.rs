//! Plain settings data that the grammar language reads and the stages
//! below it use: the geometric derivation's settings (`geometric { … }` in
//! a grammar's header). Types only; the geometric derivation
//! ([`crate::geometric`]) gives them their meaning.

use std::collections::BTreeMap;

/// Tuning of a geometric derivation. Start from [`GeometrySettings::default`]
/// (more fields may be added).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
#[non_exhaustive]
pub struct GeometrySettings {
    /// The spring shape of every relaxation. Default: the sigmoid, which
    /// passed as often as Eades' logarithmic spring and ran faster
    /// (BENCHMARKS.md, geometric derivation).
    pub spring: SpringShape,
    /// Most force steps after each application (the relaxation also stops
    /// when the drawing's energy settles).
    pub steps: u32,
    /// Most force steps of the finishing relaxation. Default 120: levels
    /// up to ~50 rooms mostly settle in fewer (on average 23 steps at 20
    /// rooms, 41 at 50, measured with 60);
    /// at ~98 / ~125 rooms, where 60 was the limit, 120 brings corridors
    /// from 50 % / 79 % to 37 % / 56 % off their ideal lengths for 3–6 %
    /// more time (BENCHMARKS.md, geometric derivation); since the
    /// evening-out has a bounded second try (`finish::EVEN_OUT_SHARE`),
    /// from 30 % / 34 % to 27 % / 30 %.
    pub finish_steps: u32,
    /// Range `[min, max]` of room radii, drawn uniformly per vertex, in
    /// drawing units (the ideal edge length while rewriting is 1).
    pub room_radius: [f64; 2],
    /// Radius ranges of particular tags, by tag name (`[r, r]` for a fixed
    /// radius); other tags use `room_radius`.
    pub tag_radius: BTreeMap<String, [f64; 2]>,
    /// Room between two rooms joined by an edge, added to the sum of their
    /// radii for the edge's ideal length; also the clearance the finishing
    /// relaxation keeps between circles.
    pub margin: f64,
    /// Derivations run again with the next seed when the drawing fails the
    /// self-intersection test.
    pub retries: u32,
}

impl GeometrySettings {
    /// The largest `steps` accepted (force steps after each application;
    /// default 8): each step costs time in the size of the neighbourhood.
    pub const MAX_STEPS: u32 = 1_000;
    /// The largest `finish_steps` accepted (default 120): each step of the
    /// finishing relaxation costs time in the size of the whole level.
    pub const MAX_FINISH_STEPS: u32 = 10_000;
    /// The largest `retries` accepted (default 20): each retry is a whole
    /// derivation.
    pub const MAX_RETRIES: u32 = 1_000;
}

impl Default for GeometrySettings {
    fn default() -> Self {
        GeometrySettings {
            spring: SpringShape::Sigmoid,
            steps: 8,
            finish_steps: 120,
            room_radius: [1.0, 2.0],
            tag_radius: BTreeMap::new(),
            margin: 0.5,
            retries: 20,
        }
    }
}

/// The shape of the spring force along an edge of current length `d` and
/// desired length `L`. Both have slope 1 at `d = L` in units of `d/L`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SpringShape {
    /// `ln(d / L)`: very strong on short edges, weak on long ones (Eades
    /// 1984).
    Logarithmic,
    /// `s((d − L) / L)` with `s(x) = x / √(1 + x²)`: bounded both ways.
    Sigmoid,
}
