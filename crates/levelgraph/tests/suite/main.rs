//! levelgraph's integration tests, built as one test binary: each file was
//! its own binary before, and twenty copies of the library and its
//! dependencies, linked one by one, cost CI most of its disk and link time.
//! Each module below is one area; run one with
//! `cargo test -p levelgraph --test suite <module>::`.

mod budgets;
mod canon;
mod common;

mod derivation;
mod edgar;
mod explore;
mod expressive;
mod fuzz_seeds;
mod geometric;
mod grammar_errors;
mod grid_mode;
mod incremental;
mod interchange;
mod invariants;
mod layers;
mod layout;
mod lint;
mod matching_oracle;
mod mission_format;
mod nesting;
mod no_panic;
mod place;
mod place_block;
mod play;
mod play_examples;
mod play_oracle;
mod replay;
mod rooms_block;
mod rule_features;
mod streaming_writers;
mod tilemap_formats;
mod tiles_raster;
