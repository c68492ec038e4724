//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// Every example grammar in `examples/` as (file stem, text), sorted by file
/// name, so each test that uses it covers new examples automatically.
/// **Panics** (failing the test) if fewer than two are found.
pub(crate) fn example_sources() -> Vec<(String, String)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "lg"))
        .collect();
    paths.sort();
    let sources: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
            (stem, text)
        })
        .collect();
    assert!(
        sources.len() >= 2,
        "expected at least 2 example grammars in {}, found {}",
        dir.display(),
        sources.len()
    );
    sources
}
