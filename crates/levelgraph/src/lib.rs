//! levelgraph: procedural level generation with graph grammars.
//!
//! A designer's grammar → a mission graph (rooms, keys, locks, cycles) →
//! a room layout → a tile map a game engine loads; plus grid map
//! generators. Every stage is a library call with a seed and explicit
//! limits: the same input and seed give the same bytes on every machine.
//! ARCHITECTURE.md (in the repository) maps the modules; the user guides
//! are in `docs/`.
//!
//! # The whole pipeline in one call
//!
//! [`pipeline::generate`] does what `levelgraph generate` does: derive a
//! mission graph, prove it can be finished, lay it out as rooms and
//! rasterize it, giving way to another attempt when a stage cannot.
//!
//! ```
//! use levelgraph::pipeline::{self, Config};
//!
//! let grammar = levelgraph::grammar::default_grammar();
//! let level = pipeline::generate(&grammar, 7, &Config::new())?;
//! assert!(level.play.as_ref().is_some_and(|p| p.is_completable()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The stages one by one
//!
//! **Grammar** ([`grammar`], docs/grammar-language.md): text or JSON,
//! parsed, compiled and checked; [`lint`] reports what `check` prints.
//!
//! ```
//! let grammar = levelgraph::grammar::load(r#"
//!     grammar "tiny" { min_vertices 3 max_vertices 6 }
//!     tags { s "start" room "room" }
//!     rule start { (a:s) => (a:room) -- (b:room) }
//!     rule grow  { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }
//! "#, "tiny")?;
//! assert!(levelgraph::lint::errors(&grammar).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Derivation** ([`derive()`](fn@derive); rewriting in [`matching`],
//! the trace in [`trace`]): the mission graph, how it was made and why it
//! stopped. [`geometric`] derives while keeping a plane drawing.
//!
//! ```
//! let grammar = levelgraph::grammar::default_grammar();
//! let derivation = levelgraph::derive(&grammar, 7)?;
//! assert!(derivation.graph.vertex_count() >= grammar.limits().min_vertices as usize);
//! assert!(!derivation.trace.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Playability** ([`play`]): an entrance, a goal, keys and the locks
//! they open; can the level be finished, and how.
//!
//! ```
//! let grammar = levelgraph::grammar::default_grammar();
//! let derivation = levelgraph::derive(&grammar, 7)?;
//! let report = levelgraph::play::check_level(&grammar, &derivation.graph)
//!     .expect("the default grammar has a play block");
//! println!("{}", report.verdict_message(&derivation.graph));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Pictures and files** ([`drawing`], [`formats`]): a force layout and
//! SVG, mission JSON (read back as a host graph), DOT, GraphML.
//!
//! ```
//! use levelgraph::{drawing, formats};
//!
//! let grammar = levelgraph::grammar::default_grammar();
//! let derivation = levelgraph::derive(&grammar, 7)?;
//! let positions = drawing::force_layout(&derivation.graph, &drawing::ForceConfig::for_picture(7));
//! let svg = formats::to_svg(&derivation.graph, &positions, &grammar.alphabet(), "seed 7");
//! let json = formats::MissionDoc::from_derivation(&derivation).to_json();
//! assert!(svg.starts_with("<svg") && json.contains("\"nodes\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Room layout** ([`rooms`] turns a level and its grammar's `rooms`
//! block into a [`layout::LayoutProblem`]; [`layout`] solves it with
//! configuration spaces, Ma et al. 2014 as in Edgar) and **tile maps**
//! ([`tiles::raster`]):
//!
//! ```
//! use levelgraph::layout::{self, edgar::RoomSets, LayoutSettings};
//!
//! let grammar = levelgraph::grammar::load(r#"
//!     grammar "rooms" { min_vertices 4 max_vertices 6 }
//!     tags { s "start" room "room" }
//!     rule start { (a:s) => (a:room) -- (b:room) -- (c:room) }
//!     rule grow  { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }
//!     rooms { template hall (0,0) (6,0) (6,6) (0,6)  use *: hall }
//! "#, "rooms")?;
//! let derivation = levelgraph::derive(&grammar, 3)?;
//! let spec = grammar.model().rooms.as_ref().expect("a rooms block");
//! let problem = levelgraph::rooms::level_problem(&derivation.graph, spec, &RoomSets::new())?;
//! let (placed, _stats) = layout::layout(&problem, 3, &LayoutSettings::default())?;
//! assert!(layout::check::check_layout(&problem, &placed).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Grid maps** ([`tiles`]): rooms and corridors, accretion and
//! cellular-automaton caves, with [`tiles::metrics`]; the tile-map files
//! are in [`formats::tilemap`].
//!
//! ```
//! use levelgraph::tiles::caves::{self, CaveParams};
//!
//! let map = caves::generate(&CaveParams::default(), 1)?;
//! let text = levelgraph::formats::tilemap::to_ascii(&map);
//! assert_eq!(text.lines().count() as u32, map.height);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod alphabet;
pub mod canon;
pub mod derive;
pub mod diagnostic;
pub mod drawing;
mod exact;
pub mod explore;
pub mod expressive;
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
pub mod place;
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
