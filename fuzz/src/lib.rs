//! The bodies of levelgraph's fuzz targets: each takes the fuzzer's bytes,
//! feeds them to one reader of the library, and panics only when a promise
//! of the library is broken. Any input may be refused; none may make the
//! library panic, and what it accepts must hold together:
//!
//! - a grammar's JSON form loads back to the same JSON (text and JSON
//!   readers);
//! - a diagnostic's span lies inside the text it points into;
//! - a mission graph that reads as a graph is written and read back with
//!   its vertices and edges;
//! - a layout the engine returns passes the independent layout check;
//! - a derivation never exceeds the limits it was given.
//!
//! Each returns whether the input got past the reader (was accepted), so
//! that a test can tell seeds that exercise the deeper checks from seeds
//! that are refused at once. These are plain functions so that the library's test suite can run them
//! over the seed corpus (`crates/levelgraph/tests/suite/fuzz_seeds.rs`
//! includes this file) without libFuzzer or a nightly compiler: the
//! targets cannot rot unnoticed. Only `levelgraph` and `std` may be used
//! here.

use std::path::Path;
use std::sync::OnceLock;

use levelgraph::diagnostic::Location;
use levelgraph::formats::{host_for, MissionDoc};
use levelgraph::grammar::{self, CompiledGrammar, GrammarError};
use levelgraph::layout::edgar::{parse_map, RoomSets};
use levelgraph::layout::{self, LayoutSettings};
use levelgraph::pipeline::{self, Config};

/// The limits `derive` gives every derivation: small, so that each input
/// is quick and the fuzzer's time goes to the rules, not to growth.
const DERIVE_ITERATIONS: u32 = 64;
const DERIVE_VERTICES: u32 = 64;

/// Most rooms of an Edgar map the `edgar_map` target lays out, and the
/// layout's iterations: enough to place small maps, few enough to be quick.
const LAYOUT_ROOMS: usize = 40;
const LAYOUT_ITERATIONS: u64 = 2_000;

/// The grammar text reader: `grammar::load`, the lint's error checks and
/// the JSON form of what loads.
pub fn grammar_text(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    match grammar::load(text, "fuzz") {
        Ok(g) => {
            json_round_trip(&g);
            let _ = levelgraph::lint::errors(&g);
            true
        }
        Err(e) => {
            check_diagnostics(&e, text);
            false
        }
    }
}

/// The JSON grammar reader: `grammar::load_json`.
pub fn grammar_json(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    match grammar::load_json(text) {
        Ok(g) => {
            json_round_trip(&g);
            let _ = levelgraph::lint::errors(&g);
            true
        }
        Err(e) => {
            assert!(!e.diagnostics.is_empty(), "an error without a diagnostic");
            false
        }
    }
}

/// The mission-graph reader that `generate --host` and `layout` use:
/// `MissionDoc::from_json`, `to_graph` and `host_for` (against the built-in
/// grammar).
pub fn mission_host(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(doc) = MissionDoc::from_json(text) else {
        return false;
    };
    let graph = doc.to_graph();
    if let Ok(graph) = &graph {
        let again = MissionDoc::from_graph(graph, "fuzz", 0).to_json();
        let back = MissionDoc::from_json(&again)
            .and_then(|d| d.to_graph())
            .unwrap_or_else(|e| panic!("a graph written as mission.json does not read back: {e}"));
        assert_eq!(back.vertex_count(), graph.vertex_count());
        assert_eq!(back.edge_count(), graph.edge_count());
    }
    let _ = host_for(&doc, default_grammar());
    graph.is_ok()
}

/// The Edgar room-set reader: `RoomSets::parse`, then every set's
/// templates.
pub fn edgar_room_set(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let mut sets = RoomSets::new();
    if sets.parse(text, Path::new("fuzz.yml")).is_err() {
        return false;
    }
    let names: Vec<String> = sets.names().map(str::to_owned).collect();
    // Accepted when every set's templates could be built; all are built,
    // whatever the first failure.
    let mut all = true;
    for name in &names {
        all &= sets.templates(name, "fuzz").is_ok();
    }
    all
}

/// The Edgar map reader: `parse_map` against Edgar's own room sets; a
/// small map that reads is laid out with a small work limit, and a layout
/// found must pass `layout::check::check_layout`.
pub fn edgar_map(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(problem) = parse_map(text, Path::new("fuzz.yml"), edgar_sets()) else {
        return false;
    };
    if problem.rooms.len() > LAYOUT_ROOMS {
        return true;
    }
    let settings = LayoutSettings {
        max_iterations: LAYOUT_ITERATIONS,
        ..LayoutSettings::default()
    };
    if let Ok((found, _)) = layout::layout(&problem, 0, &settings) {
        let violations = layout::check::check_layout(&problem, &found);
        assert!(violations.is_empty(), "an invalid layout: {violations:?}");
    }
    true
}

/// A derivation of grammar text that loads, by `pipeline::generate` (the
/// play check and the geometric derivation included, as the grammar asks)
/// within small limits. The seed is the input's length, so that grammar
/// files serve as seeds as they are, and a mutation that only pads one
/// tries another seed.
pub fn derive(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let seed = data.len() as u64;
    let Ok(g) = grammar::load(text, "fuzz") else {
        return false;
    };
    if !levelgraph::lint::errors(&g).is_empty() {
        return false;
    }
    let config = Config::new()
        .with_max_iterations(DERIVE_ITERATIONS)
        .with_max_vertices(DERIVE_VERTICES);
    // Accepted when a level was made.
    let Ok(level) = pipeline::generate(&g, seed, &config) else {
        return false;
    };
    let d = &level.derivation;
    // A grid may start above the vertex limit; only growth is bounded.
    let grid = g
        .grid()
        .map_or(0, |(rows, columns, _)| rows as usize * columns as usize);
    assert!(
        d.graph.vertex_count() <= (DERIVE_VERTICES as usize).max(grid),
        "{} vertices, above max_vertices {DERIVE_VERTICES}",
        d.graph.vertex_count()
    );
    assert!(
        d.trace.len() + d.skipped as usize <= DERIVE_ITERATIONS as usize,
        "{} steps, above max_iterations {DERIVE_ITERATIONS}",
        d.trace.len() + d.skipped as usize
    );
    let json = MissionDoc::from_derivation(d).to_json();
    assert!(
        MissionDoc::from_json(&json).is_ok(),
        "a derived mission.json does not read back"
    );
    true
}

/// A grammar's JSON form must load back, to the same JSON.
fn json_round_trip(g: &CompiledGrammar) {
    let json = g.model().to_json();
    match grammar::load_json(&json) {
        Ok(back) => assert_eq!(
            back.model().to_json(),
            json,
            "the JSON form changes when read back"
        ),
        Err(e) => panic!("the JSON form of a grammar that loads does not load: {e}\n{json}"),
    }
}

/// Every diagnostic of a failed load points inside the text and renders.
fn check_diagnostics(e: &GrammarError, text: &str) {
    assert!(!e.diagnostics.is_empty(), "an error without a diagnostic");
    for d in &e.diagnostics {
        if let Location::Span(s) = d.location {
            assert!(
                s.start <= s.end && s.end <= text.len(),
                "{d:?} lies outside the {} bytes of the text",
                text.len()
            );
        }
        let _ = d.render_plain("fuzz.lg", text);
    }
}

fn default_grammar() -> &'static CompiledGrammar {
    static GRAMMAR: OnceLock<CompiledGrammar> = OnceLock::new();
    GRAMMAR.get_or_init(grammar::default_grammar)
}

/// Edgar's room sets, as `layout` finds them beside Edgar's maps.
fn edgar_sets() -> &'static RoomSets {
    static SETS: OnceLock<RoomSets> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut sets = RoomSets::new();
        for (name, text) in EDGAR_ROOM_SETS {
            sets.parse(text, Path::new(name))
                .unwrap_or_else(|e| panic!("Edgar's room set {name}: {e}"));
        }
        sets
    })
}

macro_rules! edgar_sets {
    ($($file:literal),* $(,)?) => {
        [$(($file, include_str!(concat!("../../crates/levelgraph/tests/data/edgar/rooms/", $file)))),*]
    };
}

const EDGAR_ROOM_SETS: [(&str, &str); 9] = edgar_sets!(
    "basicRooms.yml",
    "bossRooms.yml",
    "corridors.yml",
    "otherShapes.yml",
    "rectangles.yml",
    "thesis_advanced.yml",
    "thesis_basic.yml",
    "thesis_corridors.yml",
    "thesis_corridors_offset_4.yml",
);
