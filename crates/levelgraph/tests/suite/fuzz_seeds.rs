//! The fuzz targets' bodies (`fuzz/src/lib.rs`) run over their seed corpus
//! (`fuzz/corpus/<target>/`): every CI run compiles the targets and checks
//! that their seeds pass, without libFuzzer or a nightly compiler
//! (fuzz/README.md says how to fuzz).

use std::fs;
use std::path::Path;

#[allow(unreachable_pub, dead_code)]
#[path = "../../../../fuzz/src/lib.rs"]
mod targets;

/// Runs `body` on every file of the target's seed folder (links followed),
/// naming the file when it panics, and returns how many it accepted.
fn run_seeds(target: &str, body: fn(&[u8]) -> bool) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} has no seeds", dir.display());
    let mut accepted = 0;
    for file in files {
        let data = fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        match std::panic::catch_unwind(|| body(&data)) {
            Ok(yes) => accepted += usize::from(yes),
            Err(_) => panic!("fuzz target {target} panicked on {}", file.display()),
        }
    }
    accepted
}

// How many seeds of each target get past its reader. A seed that stops
// being accepted (an example that no longer loads or derives, a mission
// file whose format moved on) changes a count and fails here, rather than
// leaving the fuzzer's deeper checks unreached; when seeds are added or
// removed on purpose, update the count.
// The 9 examples, `place.lg` (default.lg with a `place` block) and 3 of
// the adversarial grammars (the others are refused by the parser or the
// compiler: an offset, a count, a limit, a byte).
const ACCEPTED_GRAMMAR_TEXT: usize = 13;
// 3 examples' JSON forms; not limits-2-32.json (its limits are refused).
const ACCEPTED_GRAMMAR_JSON: usize = 3;
const ACCEPTED_MISSION_HOST: usize = 4;
// Edgar's 5 sets and unit.yml; not far.yml (coordinates beyond ±1000000).
const ACCEPTED_EDGAR_ROOM_SET: usize = 6;
// Edgar's 12 maps; not the 4 adversarial ones.
const ACCEPTED_EDGAR_MAP: usize = 12;
// Every example derives.
const ACCEPTED_DERIVE: usize = 9;

#[test]
fn grammar_text() {
    let accepted = run_seeds("grammar_text", targets::grammar_text);
    assert_eq!(
        accepted, ACCEPTED_GRAMMAR_TEXT,
        "seeds of grammar_text accepted"
    );
}

#[test]
fn grammar_json() {
    let accepted = run_seeds("grammar_json", targets::grammar_json);
    assert_eq!(
        accepted, ACCEPTED_GRAMMAR_JSON,
        "seeds of grammar_json accepted"
    );
}

#[test]
fn mission_host() {
    let accepted = run_seeds("mission_host", targets::mission_host);
    assert_eq!(
        accepted, ACCEPTED_MISSION_HOST,
        "seeds of mission_host accepted"
    );
}

#[test]
fn edgar_room_set() {
    let accepted = run_seeds("edgar_room_set", targets::edgar_room_set);
    assert_eq!(
        accepted, ACCEPTED_EDGAR_ROOM_SET,
        "seeds of edgar_room_set accepted"
    );
}

#[test]
fn edgar_map() {
    let accepted = run_seeds("edgar_map", targets::edgar_map);
    assert_eq!(accepted, ACCEPTED_EDGAR_MAP, "seeds of edgar_map accepted");
}

#[test]
fn derive() {
    let accepted = run_seeds("derive", targets::derive);
    assert_eq!(accepted, ACCEPTED_DERIVE, "seeds of derive accepted");
}
