//! Expressive-range analysis: what a grammar makes over many seeds, in
//! numbers (Smith & Whitehead, "Analyzing the Expressive Range of a Level
//! Generator", PCG workshop 2010).
//!
//! A [`Batch`] derives every seed of a range once — the seed's own level,
//! no retries, kept whether or not it can be finished, so that a run shows
//! how often the grammar breaks — optionally lays it out and rasterizes
//! it, and measures it: a [`Record`] per seed with its [`Status`], the
//! reason when it failed or cannot be finished, its canonical hash
//! (distinct levels, [`crate::canon`]) and its [`Metric`]s. Seeds run in
//! parallel (rayon) in chunks handed back in seed order, so the records —
//! and everything written from them — are the same whatever the number of
//! threads.
//!
//! A [`Tally`] counts records into exact distributions (per value, not per
//! seed: memory flat in the number of seeds) and gives the [`Summary`]:
//! min, quartiles, max and mean of every metric, distinct levels, shares
//! derived and completable, failures and reasons tallied. The tally does
//! not depend on the order records come in, and `levels.csv` ([`csv`])
//! reads back to the records written, so shards of a run ([`Shard`])
//! merged give exactly what one run gives.
//!
//! The `levelgraph analyze` command writes `levels.csv`, `summary.json`,
//! the histograms and heat maps and `report.html` from these.

pub mod csv;
mod measure;
mod metric;
mod run;
mod summary;

pub use measure::{failure_code, Record, Status, Values};
pub use metric::{Metric, Stage};
pub use run::{next_chunk, Batch, Seeds, Shard, CHUNK_TIME, MAX_CHUNK, MIN_CHUNK};
pub use summary::{Spread, Summary, Tally, HEAT_MAP_PAIRS};
