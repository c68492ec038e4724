//! Tile maps (PRODUCT.md D): the [`TileMap`] type, three classic roguelike
//! grid generators — [`rooms_and_corridors`] (random rooms joined by
//! L-shaped corridors), [`accretion`] (rooms and corridors dug out from
//! walls), [`caves`] (a cellular automaton) — the
//! rasterization of a room layout ([`raster`]), and [`metrics`] for any
//! map. The exports (ASCII, CSV, PNG, Tiled `.tmj`/`.tmx`) live in
//! `formats::tilemap`.
//!
//! Every generator takes its parameters (with documented defaults, checked
//! by `validate`) and a seed, draws from [`crate::rng::Rng`] only, bounds
//! every search, and returns a map whose passable cells form one
//! 4-connected region.

pub mod accretion;
pub mod caves;
mod map;
pub mod metrics;
pub mod raster;
pub mod regions;
pub mod rooms_and_corridors;

pub use map::{
    Outline, SmolStr, Tile, TileCorridor, TileDoor, TileMap, TileObject, TileRect, TileRoom,
};

/// Why a generator or the rasterizer refused or gave up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TilesError {
    /// A parameter is out of range or contradicts another (bad input:
    /// exit code 2 in the CLI). `field` is the parameter's name as the CLI
    /// and the docs spell it.
    #[error("invalid parameter `{field}`: {message}")]
    Parameter {
        /// The parameter.
        field: &'static str,
        /// What is wrong and what would be accepted.
        message: String,
    },
    /// A bounded search ran out (exit code 1 in the CLI): which limit of
    /// which generator, and what was reached.
    #[error("{generator}: {limit} reached without success: {detail}")]
    Limit {
        /// The generator or stage.
        generator: &'static str,
        /// The limit that stopped it (e.g. `100 floor-ratio retries`).
        limit: String,
        /// What it got closest to.
        detail: String,
    },
}

impl TilesError {
    /// A [`TilesError::Parameter`].
    pub fn parameter(field: &'static str, message: impl Into<String>) -> Self {
        TilesError::Parameter {
            field,
            message: message.into(),
        }
    }
}
