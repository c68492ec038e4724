//! `run.json`: what an analysis ran — grammar, seeds, shard, stages and
//! the sample of levels pictured — so that shards can be checked against
//! each other before they are merged, and two runs compared. Nothing in
//! it depends on the machine, the time or the number of threads.

use std::path::Path;

use levelgraph::expressive::{csv, Metric, Record, Seeds, Shard, Stage};
use serde::{Deserialize, Serialize};

/// The format tag of `run.json`.
pub(crate) const FORMAT: &str = "levelgraph.range/1";

/// What `run.json` holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunInfo {
    /// [`FORMAT`].
    pub(crate) format: String,
    /// The grammar's name.
    pub(crate) grammar: String,
    /// FNV-1a 64 of the grammar's text, in hex: shards of one run share it.
    pub(crate) grammar_hash: String,
    /// The whole run's seeds (a shard's own slice is `slice`).
    pub(crate) seeds: Seeds,
    /// The shard, when this folder holds one slice of the run.
    pub(crate) shard: Option<Shard>,
    /// The seeds of this folder: the run's, or the shard's slice (`None`:
    /// an empty shard).
    pub(crate) slice: Option<Seeds>,
    /// Stages measured: `mission`, `layout`, `tiles`.
    pub(crate) stages: Vec<String>,
    /// The derivation limits given on the command line, as `name value`.
    pub(crate) limits: Vec<String>,
    /// The seeds whose levels are pictured in the report's contact sheet.
    pub(crate) sample: Vec<u64>,
}

/// The stage's word in `run.json`.
pub(crate) fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Mission => "mission",
        Stage::Layout => "layout",
        Stage::Tiles => "tiles",
    }
}

/// FNV-1a 64 of `text`: a fingerprint of the grammar, portable.
pub(crate) fn fingerprint(text: &str) -> String {
    format!("{:016x}", levelgraph::canon::stable_hash(text.as_bytes()))
}

/// `count` seeds spread evenly over `seeds`, the first included.
pub(crate) fn sample(seeds: Seeds, count: u64) -> Vec<u64> {
    let n = seeds.len();
    let count = count.min(n);
    let mut picked: Vec<u64> = (0..count)
        .map(|i| seeds.first + (u128::from(i) * u128::from(n) / u128::from(count)) as u64)
        .collect();
    picked.dedup();
    picked
}

/// A finished run read back from its folder: what it ran and its records.
pub(crate) struct RunDir {
    pub(crate) info: RunInfo,
    pub(crate) columns: Vec<Metric>,
    pub(crate) records: Vec<Record>,
}

/// Reads `run.json` and `levels.csv` of the folder `dir`; a message naming
/// the file (and line and column) otherwise.
pub(crate) fn read_run(dir: &Path) -> Result<RunDir, String> {
    let info_path = dir.join("run.json");
    let text = std::fs::read_to_string(&info_path).map_err(|e| {
        format!(
            "{}: {e} (is it the --out folder of `levelgraph analyze`?)",
            info_path.display()
        )
    })?;
    let info: RunInfo = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}, line {}, column {}: {e}",
            info_path.display(),
            e.line(),
            e.column()
        )
    })?;
    if info.format != FORMAT {
        return Err(format!(
            "{}: format `{}`, this levelgraph reads `{FORMAT}`",
            info_path.display(),
            info.format
        ));
    }
    let csv_path = dir.join("levels.csv");
    let text =
        std::fs::read_to_string(&csv_path).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let (columns, records) =
        csv::read(&text).map_err(|e| format!("{}, {e}", csv_path.display()))?;
    Ok(RunDir {
        info,
        columns,
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_spread_over_the_seeds() {
        let seeds = Seeds {
            first: 1,
            last: 100,
        };
        assert_eq!(sample(seeds, 4), [1, 26, 51, 76]);
        assert_eq!(sample(Seeds { first: 5, last: 6 }, 12), [5, 6]);
    }
}
