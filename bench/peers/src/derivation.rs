//! Benchmark 2: whole derivations of a dungeon grammar, levelgraph against
//! the `graph-grammar` crate (1.0.2, MIT, Kiberon Labs).
//!
//! The peer runs its own showcase grammar, "★ Showcase · Dungeon Generator"
//! (packages/graph-grammar/src/examples/dungeon.ts in the Kiberon-Labs/
//! graph-grammar repository, commit d5155513), transcribed below into the
//! JSON form its engine reads: the same rules, priorities, weights,
//! probabilities, budgets, property expressions, start graph and config.
//! levelgraph runs its port, `examples/graph-grammar-dungeon.lg`, whose
//! header says what is kept and what is approximated.
//!
//! Both engines count a *step* the same way: a rule application, or a step
//! in which a drawn rule's `probability` gate failed (nothing changes, the
//! step counts). levelgraph's `max_iterations` and the peer's step limit
//! (`gg_engine_run(engine, max_steps)`) both cap steps, so the capped runs
//! give both engines exactly the same number of steps, the fewest either
//! makes on any seed when it runs to the end; the applications made within
//! them are reported.
//!
//! The peer is driven through its C ABI (`gg_engine_new`, `gg_engine_run`,
//! `gg_engine_step`, `gg_engine_graph`, `gg_engine_free`, exported by the
//! crate): its Rust API offers only `run_grammar`, which also serialises the
//! final graph. The peer reads the seed from the grammar's JSON, so each
//! derivation parses and schema-validates the grammar again. That cost is
//! measured on its own (`gg_engine_new` + `gg_engine_free`) and subtracted
//! for the "derivation only" comparison; the end-to-end comparison charges
//! levelgraph a `grammar::load` per derivation too.

use std::ffi::{c_char, CStr, CString};
use std::hint::black_box;
use std::ptr::{null, null_mut};
use std::time::Duration;

use levelgraph::grammar::{self, CompiledGrammar};
use serde_json::{json, Value};

use crate::harness::{fmt_int, fmt_ratio, fmt_secs, time, Timing};

// Link the peer crate so that its exported C symbols resolve.
use graph_grammar as _;

/// The peer's opaque `Engine*` handle, as its C header declares it.
#[repr(C)]
struct GgEngine {
    _private: [u8; 0],
}

extern "C" {
    fn gg_engine_new(
        grammar_json: *const c_char,
        start_graph_json: *const c_char,
        err_out: *mut *mut c_char,
    ) -> *mut GgEngine;
    fn gg_engine_step(eng: *mut GgEngine, out_json: *mut *mut c_char) -> i32;
    fn gg_engine_run(eng: *mut GgEngine, max_steps: i32, out_json: *mut *mut c_char) -> i32;
    fn gg_engine_graph(eng: *mut GgEngine, out_json: *mut *mut c_char) -> i32;
    fn gg_engine_free(eng: *mut GgEngine);
    fn gg_string_free(s: *mut c_char);
}

/// Our port of the peer's grammar.
pub const PORT: &str = include_str!("../../../examples/graph-grammar-dungeon.lg");
const PORT_LIMIT_LINE: &str = "max_iterations 500";
const PORT_MIN_LINE: &str = "min_vertices 34";

// ---------------------------------------------------------------------------
// The peer's showcase grammar, transcribed from dungeon.ts (MIT licence,
// Copyright Kiberon Labs) into the engine's JSON form. Builders expanded as
// builders.ts does: pn → {id, label, props: {}, predicates?}; pe → {id,
// source, target, label, directed, props: {}}; rn → {id, label, mapFrom,
// setProps?, props: {}}; re → {id, source, target, label, directed,
// mapFrom: null, props: {}}; rule → morphism from the mapFrom links and
// the default embedding (empty: no rule deletes a node); rule ids are
// given names here (upstream draws them with uid()).
// ---------------------------------------------------------------------------

fn pn(id: &str, label: &str) -> Value {
    json!({ "id": id, "label": label, "props": {} })
}

fn rn(id: &str, label: &str, map_from: Option<&str>, set_props: Option<Value>) -> Value {
    let mut v = json!({ "id": id, "label": label, "mapFrom": map_from, "props": {} });
    if let Some(sp) = set_props {
        v["setProps"] = sp;
    }
    v
}

fn re(id: &str, source: &str, target: &str, label: &str) -> Value {
    json!({
        "id": id, "source": source, "target": target, "label": label,
        "directed": true, "mapFrom": null, "props": {}
    })
}

#[allow(clippy::too_many_arguments)]
fn rule(
    id: &str,
    name: &str,
    priority: f64,
    weight: f64,
    probability: f64,
    max_applications: i64,
    lhs: Value,
    rhs: Value,
) -> Value {
    let morphism: Vec<Value> = rhs["nodes"]
        .as_array()
        .expect("rhs nodes")
        .iter()
        .filter_map(|n| {
            n["mapFrom"]
                .as_str()
                .map(|from| json!({ "lhsNodeId": from, "rhsNodeId": n["id"] }))
        })
        .collect();
    json!({
        "id": id, "name": name, "enabled": true, "weight": weight,
        "probability": probability, "priority": priority,
        "maxApplications": max_applications, "lhs": lhs, "rhs": rhs,
        "morphism": morphism, "embedding": []
    })
}

/// The peer's dungeon grammar with `config.seed = seed`.
#[rustfmt::skip]
pub fn upstream_dungeon(seed: u32) -> Value {
    let counter = json!({ "kind": "counter" });
    // A0 · Open from Start
    let seed_path = rule(
        "A0", "A0 · Open from Start", 20.0, 1.0, 1.0, 1,
        json!({ "nodes": [pn("s", "Start")], "edges": [] }),
        json!({
            "nodes": [rn("s", "Start", Some("s"), None), rn("p", "Path", None, None)],
            "edges": [re("c", "s", "p", "corridor")]
        }),
    );
    // A1 · Extend main path
    let grow = rule(
        "A1", "A1 · Extend main path", 10.0, 3.0, 1.0, 7,
        json!({ "nodes": [pn("p", "Path")], "edges": [] }),
        json!({
            "nodes": [
                rn("r", "Room", Some("p"), Some(json!({ "tier": counter }))),
                rn("p2", "Path", None, None)
            ],
            "edges": [re("c", "r", "p2", "corridor")]
        }),
    );
    // B1 · Branch a side room
    let branch = rule(
        "B1", "B1 · Branch a side room", 5.0, 2.0, 0.6, 8,
        json!({ "nodes": [pn("r", "Room")], "edges": [] }),
        json!({
            "nodes": [
                rn("r", "Room", Some("r"), None),
                rn("s", "Room", None, Some(json!({
                    "tier": counter,
                    "branch": { "kind": "literal", "value": true }
                })))
            ],
            "edges": [re("c", "r", "s", "corridor")]
        }),
    );
    // A2 · Seal the path into a Boss room
    let cap = rule(
        "A2", "A2 · Seal the path into a Boss room", 1.0, 1.0, 1.0, 1,
        json!({ "nodes": [pn("p", "Path")], "edges": [] }),
        json!({ "nodes": [rn("boss", "Boss", Some("p"), None)], "edges": [] }),
    );
    // C1 · Treasure in a dead end (exact degree 1)
    let mut dead_end = pn("r", "Room");
    dead_end["predicates"] = json!([{ "key": "branch", "op": "eq", "value": true }]);
    dead_end["exactDegree"] = json!(1);
    let treasure = rule(
        "C1", "C1 · Treasure in a dead end", 3.0, 1.0, 0.7, 0,
        json!({ "nodes": [dead_end], "edges": [] }),
        json!({ "nodes": [rn("t", "Treasure", Some("r"), None)], "edges": [] }),
    );
    // D1 · Add lock & key
    let lock_key = rule(
        "D1", "D1 · Add lock & key", 2.0, 1.0, 0.5, 3,
        json!({
            "nodes": [pn("a", "Room"), pn("b", "Room")],
            "edges": [{
                "id": "c", "source": "a", "target": "b", "label": "corridor",
                "directed": true, "props": {}
            }]
        }),
        json!({
            "nodes": [
                rn("a", "Room", Some("a"), None),
                rn("b", "Room", Some("b"), None),
                rn("key", "Key", None, Some(json!({ "id": counter })))
            ],
            "edges": [re("c", "a", "b", "locked"), re("holds", "a", "key", "holds")]
        }),
    );
    // E1 · Spawn monster
    let monster = rule(
        "E1", "E1 · Spawn monster", 1.0, 1.0, 0.6, 14,
        json!({ "nodes": [pn("r", "Room")], "edges": [] }),
        json!({
            "nodes": [
                rn("r", "Room", Some("r"), None),
                rn("m", "Monster", None, Some(json!({
                    "hp": { "kind": "randInt", "min": 10, "max": 60 }
                })))
            ],
            "edges": [re("in", "r", "m", "contains")]
        }),
    );
    json!({
        "id": "dungeon",
        "name": "★ Showcase · Dungeon Generator",
        "rules": [seed_path, grow, branch, cap, treasure, lock_key, monster],
        "start": {
            "nodes": [{ "id": "n_start", "label": "Start", "props": { "tier": 0 }, "x": 400, "y": 320 }],
            "edges": []
        },
        "config": { "strategy": "priority", "seed": seed, "maxSteps": -1, "maxNodes": 90 }
    })
}

// ---------------------------------------------------------------------------
// Driving the peer.
// ---------------------------------------------------------------------------

struct PeerEngine(*mut GgEngine);

impl PeerEngine {
    fn new(grammar: &CStr) -> Self {
        let mut err = null_mut();
        // SAFETY: a valid NUL-terminated string; NULL start graph is allowed.
        let eng = unsafe { gg_engine_new(grammar.as_ptr(), null(), &mut err) };
        if eng.is_null() {
            // SAFETY: on failure the engine wrote an error string.
            let msg = unsafe { CStr::from_ptr(err) }
                .to_string_lossy()
                .into_owned();
            panic!("graph-grammar rejected the grammar: {msg}");
        }
        PeerEngine(eng)
    }

    /// One step: `Some(true)` applied a rule, `Some(false)` a rule was
    /// drawn but its probability gate failed, `None` nothing applies.
    fn step(&mut self) -> Option<bool> {
        let mut out = null_mut();
        // SAFETY: a live engine handle and an out pointer.
        let rc = unsafe { gg_engine_step(self.0, &mut out) };
        // SAFETY: the engine always writes a string to `out`.
        let text = unsafe { CStr::from_ptr(out) }.to_bytes();
        assert_eq!(rc, 0, "gg_engine_step: {}", String::from_utf8_lossy(text));
        let result = if text.starts_with(b"{\"applied\":true") {
            Some(true)
        } else if text.windows(8).any(|w| w == b"\"ruleId\"") {
            Some(false)
        } else {
            None
        };
        // SAFETY: the string came from the engine.
        unsafe { gg_string_free(out) };
        result
    }

    /// Steps to the end, with the engine's own `run` rule for failed
    /// probability gates (at most 64 in a row). Returns (applications,
    /// steps), not counting the last step, in which nothing applied.
    fn steps_to_end(&mut self) -> (usize, usize) {
        let (mut applied, mut steps, mut streak) = (0, 0, 0);
        loop {
            match self.step() {
                Some(true) => {
                    applied += 1;
                    streak = 0;
                }
                Some(false) if streak < 64 => streak += 1,
                _ => break,
            }
            steps += 1;
        }
        (applied, steps)
    }

    /// `gg_engine_run`: at most `max_steps` steps (-1: the grammar's
    /// maxSteps, here -1 too: to the end). Returns the applications made.
    fn run(&mut self, max_steps: i32) -> usize {
        let mut out = null_mut();
        // SAFETY: a live engine handle and an out pointer.
        let rc = unsafe { gg_engine_run(self.0, max_steps, &mut out) };
        // SAFETY: the engine always writes a string to `out`.
        let text = unsafe { CStr::from_ptr(out) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: the string came from the engine.
        unsafe { gg_string_free(out) };
        assert_eq!(rc, 0, "gg_engine_run: {text}");
        let v: Value = serde_json::from_str(&text).expect("run result is JSON");
        v["applied"].as_u64().expect("applied count") as usize
    }

    fn graph(&self) -> Value {
        let mut out = null_mut();
        // SAFETY: a live engine handle and an out pointer.
        let rc = unsafe { gg_engine_graph(self.0, &mut out) };
        // SAFETY: the engine always writes a string to `out`.
        let text = unsafe { CStr::from_ptr(out) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: the string came from the engine.
        unsafe { gg_string_free(out) };
        assert_eq!(rc, 0, "gg_engine_graph: {text}");
        serde_json::from_str(&text).expect("graph is JSON")
    }
}

impl Drop for PeerEngine {
    fn drop(&mut self) {
        // SAFETY: the handle is live and released exactly once.
        unsafe { gg_engine_free(self.0) };
    }
}

// ---------------------------------------------------------------------------
// The benchmark.
// ---------------------------------------------------------------------------

pub struct Options {
    pub seeds: u64,
    pub rounds: usize,
}

/// min, max and mean of a count over the seeds.
#[derive(Clone, Copy, Default)]
pub struct Spread {
    pub min: usize,
    pub max: usize,
    pub mean: f64,
}

fn spread(xs: impl Iterator<Item = usize>) -> Spread {
    let xs: Vec<usize> = xs.collect();
    Spread {
        min: *xs.iter().min().expect("seeds"),
        max: *xs.iter().max().expect("seeds"),
        mean: xs.iter().sum::<usize>() as f64 / xs.len() as f64,
    }
}

/// What one engine's derivations to the end produce, over all seeds.
#[derive(Clone, Copy, Default)]
pub struct Shape {
    pub applications: Spread,
    pub steps: Spread,
    pub vertices: Spread,
    pub treasures: Spread,
}

/// One derivation to the end: (applications, steps, vertices, treasures).
type Sample = (usize, usize, usize, usize);

fn shape(samples: &[Sample]) -> Shape {
    Shape {
        applications: spread(samples.iter().map(|s| s.0)),
        steps: spread(samples.iter().map(|s| s.1)),
        vertices: spread(samples.iter().map(|s| s.2)),
        treasures: spread(samples.iter().map(|s| s.3)),
    }
}

pub struct Results {
    pub seeds: u64,
    /// Steps of every capped derivation, on both sides.
    pub cap: usize,
    pub ours_shape: Shape,
    pub peer_shape: Shape,
    /// Applications made within `cap` steps.
    pub ours_capped_applications: Spread,
    pub peer_capped_applications: Spread,
    /// Per derivation, capped at `cap` steps.
    pub ours_derive: Timing,
    pub ours_load_derive: Timing,
    pub peer_full: Timing,
    pub peer_parse: Timing,
    /// Per derivation, each engine to its end.
    pub ours_to_end: Timing,
    pub peer_to_end: Timing,
}

/// The derivation, whether it succeeded or failed within its limits.
fn derivation(g: &CompiledGrammar, seed: u64) -> levelgraph::Derivation {
    levelgraph::derive(g, seed).unwrap_or_else(levelgraph::DeriveError::into_derivation)
}

pub fn run(opts: &Options) -> Results {
    let seeds: Vec<u64> = (1..=opts.seeds).collect();
    let ours_full = grammar::load(PORT, "graph-grammar-dungeon").expect("the port loads");

    // Each engine to its end, once per seed, to see what it makes.
    let ours_samples: Vec<Sample> = seeds
        .iter()
        .map(|&s| {
            let d = derivation(&ours_full, s);
            let g = &d.graph;
            let treasures = g
                .vertex_ids()
                .filter(|&v| g.tag_name(v) == "treasure")
                .count();
            let apps = d.trace.len();
            (apps, apps + d.skipped as usize, g.vertex_count(), treasures)
        })
        .collect();
    let peer_texts: Vec<CString> = seeds
        .iter()
        .map(|&s| CString::new(upstream_dungeon(s as u32).to_string()).expect("no NUL"))
        .collect();
    let peer_samples: Vec<Sample> = peer_texts
        .iter()
        .map(|text| {
            let mut e = PeerEngine::new(text);
            let (apps, steps) = e.steps_to_end();
            let g = e.graph();
            let nodes = g["nodes"].as_array().expect("nodes");
            let treasures = nodes.iter().filter(|n| n["label"] == "Treasure").count();
            (apps, steps, nodes.len(), treasures)
        })
        .collect();
    let ours_shape = shape(&ours_samples);
    let peer_shape = shape(&peer_samples);
    // The cap: the fewest steps either engine makes on any seed, so that
    // every capped derivation on both sides makes exactly `cap` steps.
    let cap = ours_shape.steps.min.min(peer_shape.steps.min);
    eprintln!(
        "derivation: {} seeds; steps to the end: levelgraph {}..{}, graph-grammar {}..{}; cap {cap} steps",
        seeds.len(),
        ours_shape.steps.min,
        ours_shape.steps.max,
        peer_shape.steps.min,
        peer_shape.steps.max,
    );

    // The port with max_iterations = cap (and no min_vertices, which a
    // capped level may fall short of; the work is the same either way).
    assert_eq!(PORT.matches(PORT_LIMIT_LINE).count(), 1);
    assert_eq!(PORT.matches(PORT_MIN_LINE).count(), 1);
    let capped_text = PORT
        .replace(PORT_LIMIT_LINE, &format!("max_iterations {cap}"))
        .replace(PORT_MIN_LINE, "min_vertices 0");
    let ours_capped = grammar::load(&capped_text, "graph-grammar-dungeon").expect("loads");
    let ours_capped_applications = spread(seeds.iter().map(|&s| {
        let d = levelgraph::derive(&ours_capped, s).expect("no min_vertices");
        assert_eq!(
            d.trace.len() + d.skipped as usize,
            cap,
            "levelgraph seed {s}"
        );
        d.trace.len()
    }));
    let cap_i32 = i32::try_from(cap).expect("small cap");
    let peer_capped_applications = spread(peer_texts.iter().zip(&seeds).map(|(text, &s)| {
        // Step by step, to check that all `cap` steps are made...
        let mut e = PeerEngine::new(text);
        let mut applied = 0;
        for _ in 0..cap {
            match e.step() {
                Some(true) => applied += 1,
                Some(false) => {}
                None => panic!("graph-grammar seed {s}: stopped before {cap} steps"),
            }
        }
        // ...and that its own step limit makes the same applications.
        assert_eq!(
            PeerEngine::new(text).run(cap_i32),
            applied,
            "graph-grammar seed {s}"
        );
        applied
    }));

    let per = |t: Timing| -> Timing {
        let n = seeds.len() as f64;
        Timing {
            median: t.median / n,
            fastest: t.fastest / n,
            slowest: t.slowest / n,
            ..t
        }
    };
    let min_round = Duration::from_millis(200);
    let slow = Duration::from_secs(5);
    let ours_derive = per(time(opts.rounds, min_round, slow, || {
        for &s in &seeds {
            black_box(levelgraph::derive(&ours_capped, s).ok());
        }
    }));
    eprintln!(
        "  levelgraph, derive:              {}",
        fmt_secs(ours_derive.median)
    );
    let ours_load_derive = per(time(opts.rounds, min_round, slow, || {
        for &s in &seeds {
            let g = grammar::load(black_box(&capped_text), "graph-grammar-dungeon").unwrap();
            black_box(levelgraph::derive(&g, s).ok());
        }
    }));
    eprintln!(
        "  levelgraph, load + derive:       {}",
        fmt_secs(ours_load_derive.median)
    );
    let peer_full = per(time(opts.rounds, min_round, slow, || {
        for text in &peer_texts {
            black_box(PeerEngine::new(text).run(cap_i32));
        }
    }));
    eprintln!(
        "  graph-grammar, new + run + free: {}",
        fmt_secs(peer_full.median)
    );
    let peer_parse = per(time(opts.rounds, min_round, slow, || {
        for text in &peer_texts {
            black_box(PeerEngine::new(text));
        }
    }));
    eprintln!(
        "  graph-grammar, new + free:       {}",
        fmt_secs(peer_parse.median)
    );
    let ours_to_end = per(time(opts.rounds, min_round, slow, || {
        for &s in &seeds {
            black_box(levelgraph::derive(&ours_full, s).ok());
        }
    }));
    eprintln!(
        "  levelgraph, to the end:          {}",
        fmt_secs(ours_to_end.median)
    );
    let peer_to_end = per(time(opts.rounds, min_round, slow, || {
        for text in &peer_texts {
            black_box(PeerEngine::new(text).run(-1));
        }
    }));
    eprintln!(
        "  graph-grammar, to the end:       {}",
        fmt_secs(peer_to_end.median)
    );

    Results {
        seeds: opts.seeds,
        cap,
        ours_shape,
        peer_shape,
        ours_capped_applications,
        peer_capped_applications,
        ours_derive,
        ours_load_derive,
        peer_full,
        peer_parse,
        ours_to_end,
        peer_to_end,
    }
}

fn per_sec(t: f64) -> String {
    fmt_int((1.0 / t).round() as u64)
}

fn fmt_spread(s: &Spread) -> String {
    format!("{}..{} (mean {:.1})", s.min, s.max, s.mean)
}

pub fn table(r: &Results) -> String {
    let mut s = String::new();
    let us = |t: f64| format!("{:.2}", t * 1e6);
    let peer_derive = r.peer_full.median - r.peer_parse.median;
    let ours_load = r.ours_load_derive.median - r.ours_derive.median;
    s.push_str(&format!(
        "Capped: every derivation on both sides makes exactly {} steps (seeds 1..={}).\n\n",
        r.cap, r.seeds
    ));
    s.push_str("| measured | levelgraph | graph-grammar 1.0.2 | levelgraph speed-up |\n");
    s.push_str("|---|---|---|---|\n");
    s.push_str(&format!(
        "| applications in those steps: min..max (mean) | {} | {} | |\n",
        fmt_spread(&r.ours_capped_applications),
        fmt_spread(&r.peer_capped_applications)
    ));
    s.push_str(&format!(
        "| derivation only: µs / derivation | {} | {} (new + run + free − new + free) | {} |\n",
        us(r.ours_derive.median),
        us(peer_derive),
        fmt_ratio(peer_derive / r.ours_derive.median)
    ));
    s.push_str(&format!(
        "| derivation only: derivations / s | {} | {} | |\n",
        per_sec(r.ours_derive.median),
        per_sec(peer_derive)
    ));
    s.push_str(&format!(
        "| derivation only: µs / application | {:.3} | {:.3} | {} |\n",
        r.ours_derive.median * 1e6 / r.ours_capped_applications.mean,
        peer_derive * 1e6 / r.peer_capped_applications.mean,
        fmt_ratio(
            (peer_derive / r.peer_capped_applications.mean)
                / (r.ours_derive.median / r.ours_capped_applications.mean)
        )
    ));
    s.push_str(&format!(
        "| end to end (grammar text → level): µs / derivation | {} (`grammar::load` + `derive`) | {} (`gg_engine_new` + `gg_engine_run` + `gg_engine_free`) | {} |\n",
        us(r.ours_load_derive.median),
        us(r.peer_full.median),
        fmt_ratio(r.peer_full.median / r.ours_load_derive.median)
    ));
    s.push_str(&format!(
        "| end to end: derivations / s | {} | {} | |\n",
        per_sec(r.ours_load_derive.median),
        per_sec(r.peer_full.median)
    ));
    s.push_str(&format!(
        "| reading the grammar alone: µs | {} (load + derive − derive) | {} (new + free) | {} |\n",
        us(ours_load),
        us(r.peer_parse.median),
        fmt_ratio(r.peer_parse.median / ours_load)
    ));
    s.push('\n');
    s.push_str("Uncapped: each engine runs its grammar to the end.\n\n");
    s.push_str("| measured | levelgraph | graph-grammar 1.0.2 | levelgraph speed-up |\n");
    s.push_str("|---|---|---|---|\n");
    let peer_end = r.peer_to_end.median - r.peer_parse.median;
    s.push_str(&format!(
        "| applications: min..max (mean) | {} | {} | |\n",
        fmt_spread(&r.ours_shape.applications),
        fmt_spread(&r.peer_shape.applications)
    ));
    s.push_str(&format!(
        "| steps (applications + skipped): min..max (mean) | {} | {} | |\n",
        fmt_spread(&r.ours_shape.steps),
        fmt_spread(&r.peer_shape.steps)
    ));
    s.push_str(&format!(
        "| vertices: min..max | {}..{} | {}..{} | |\n",
        r.ours_shape.vertices.min,
        r.ours_shape.vertices.max,
        r.peer_shape.vertices.min,
        r.peer_shape.vertices.max
    ));
    s.push_str(&format!(
        "| treasure rooms: min..max (mean) | {} | {} | |\n",
        fmt_spread(&r.ours_shape.treasures),
        fmt_spread(&r.peer_shape.treasures)
    ));
    s.push_str(&format!(
        "| derivation only: µs / derivation | {} | {} (new + run + free − new + free) | {} |\n",
        us(r.ours_to_end.median),
        us(peer_end),
        fmt_ratio(peer_end / r.ours_to_end.median)
    ));
    s.push_str(&format!(
        "| derivation only: derivations / s | {} | {} | |\n",
        per_sec(r.ours_to_end.median),
        per_sec(peer_end)
    ));
    s.push_str(&format!(
        "| derivation only: µs / application | {:.3} | {:.3} | {} |\n",
        r.ours_to_end.median * 1e6 / r.ours_shape.applications.mean,
        peer_end * 1e6 / r.peer_shape.applications.mean,
        fmt_ratio(
            (peer_end / r.peer_shape.applications.mean)
                / (r.ours_to_end.median / r.ours_shape.applications.mean)
        )
    ));
    s
}

pub fn rounds_note(r: &Results) -> String {
    let t = |name: &str, t: &Timing| {
        format!(
            "{name} {}×{} ({:.2}..{:.2} µs)",
            t.rounds,
            t.calls,
            t.fastest * 1e6,
            t.slowest * 1e6
        )
    };
    [
        t("levelgraph derive", &r.ours_derive),
        t("levelgraph load + derive", &r.ours_load_derive),
        t("graph-grammar new + run + free", &r.peer_full),
        t("graph-grammar new + free", &r.peer_parse),
        t("levelgraph to the end", &r.ours_to_end),
        t("graph-grammar to the end", &r.peer_to_end),
    ]
    .join("; ")
}
