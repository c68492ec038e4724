//! levelgraph: procedural level generation with graph grammars.
//!
//! A designer's grammar → a mission graph (rooms, keys, locks, cycles) → a
//! picture, and in later stages a spatial layout and a tile map. Every stage
//! is a library call with a seed and explicit limits: the same input and seed
//! give the same bytes on every machine.
//!
//! ```
//! use levelgraph::{grammar, derive};
//!
//! let g = grammar::load(r#"
//!     grammar "tiny" { min_vertices 3 max_vertices 6 }
//!     tags { s "start" room "room" }
//!     rule start { (a:s) => (a:room) -- (b:room) }
//!     rule grow  { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }
//! "#, "tiny")?;
//! let level = derive::derive(&g, 7)?;
//! assert_eq!(level.graph.vertex_count(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules, in pipeline order: [`grammar`] (language, JSON form, compile,
//! lint) → [`matching`] (pattern search) → [`derive`](mod@derive) (the rewriting loop)
//! → [`drawing`] and [`formats`] (JSON, DOT, SVG, GraphML, GRAPH text).
//! [`graph`] is the host graph model shared by all of them; [`diagnostic`]
//! the error values.

pub mod alphabet;
pub mod derive;
pub mod diagnostic;
pub mod drawing;
mod exact;
mod forces;
pub mod formats;
pub mod geometric;
pub mod grammar;
pub mod graph;
mod incremental;
pub mod layout;
pub mod lint;
pub mod matching;
pub mod pipeline;
mod plane;
pub mod play;
mod rewrite;
pub mod rng;
pub mod rooms;
mod settings;
pub mod tiles;
pub mod trace;
mod union_find;

pub use derive::{Derivation, DeriveError, RuleName, StopReason};
pub use grammar::{load, CompiledGrammar, Grammar, GrammarError};
pub use graph::{Edge, EdgeId, EdgeKind, Graph, Incidence, Vertex, VertexId};
pub use pipeline::{derive, derive_from, generate};
