//! Geometric derivation benchmark (issue 4): over seeds 1..=N of
//! every example grammar that is not a grid grammar, the share of
//! derivations whose drawing passes the self-intersection test on the
//! first try and after retries, the derivations that fail their limits,
//! and the time per derivation; for both spring shapes.
//!
//! A small harness (no criterion). Each example is derived with its own
//! `geometric` settings if its header has them, else the defaults, with
//! only the spring changed. Run with
//! `cargo bench -p levelgraph --bench geometric`; `GEO_SEEDS` (default
//! 1000) sets N. With `GEO_GROWN=20,50,100,200` the rows are instead the
//! default grammar grown to those `max_vertices` (the rule `settle`
//! removed, as `benches/growth.rs` grows it) with the default settings
//! and spring, for the finishing at larger sizes. `GEO_FINISH` and
//! `GEO_STEPS` override `finish_steps` and `steps` in every row. Figures
//! go to BENCHMARKS.md.

use std::time::Instant;

use levelgraph::geometric::{self, GeometrySettings, SpringShape};
use levelgraph::{grammar, DeriveError};

mod support;

/// Per grammar and spring: what N derivations did.
#[derive(Default)]
struct Tally {
    first_try: usize,
    after_retries: usize,
    limits: usize,
    drawing: usize,
    attempts: u64,
    seconds: f64,
    vertices: usize,
    relaxations: u64,
    steps: u64,
    unsettled: u64,
    /// Sum over passing derivations of the mean |length / ideal − 1| of
    /// their corridors.
    stretch: f64,
}

/// Mean |length / ideal − 1| over the corridors of a finished drawing
/// (ideal = the two radii plus the margin): how near the finishing
/// relaxation got to the ideal lengths.
fn stretch(g: &levelgraph::Graph, margin: f64) -> f64 {
    let mut sum = 0.0;
    let mut n = 0usize;
    for (_, e) in g.edges().filter(|(_, e)| !e.cosmetic) {
        let (Some(a), Some(b)) = (g.vertex(e.source), g.vertex(e.target)) else {
            continue;
        };
        let (Some(p), Some(q), Some(r), Some(s)) = (a.position, b.position, a.radius, b.radius)
        else {
            continue;
        };
        let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
        sum += (d / (r + s + margin) - 1.0).abs();
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

fn run(g: &levelgraph::CompiledGrammar, settings: &GeometrySettings, seeds: u64) -> Tally {
    let mut t = Tally::default();
    let start = Instant::now();
    for seed in 1..=seeds {
        match geometric::derive(g, seed, settings) {
            Ok(d) => {
                t.after_retries += 1;
                t.first_try += usize::from(d.attempts == 1);
                t.attempts += u64::from(d.attempts);
                t.vertices += d.derivation.graph.vertex_count();
                t.relaxations += u64::from(d.relax.relaxations);
                t.steps += d.relax.steps;
                t.unsettled += u64::from(d.relax.unsettled);
                t.stretch += stretch(&d.derivation.graph, settings.margin);
            }
            Err(DeriveError::Drawing { attempts, .. }) => {
                t.drawing += 1;
                t.attempts += u64::from(attempts);
            }
            Err(_) => t.limits += 1,
        }
    }
    t.seconds = start.elapsed().as_secs_f64();
    t
}

fn main() {
    let seeds: u64 = std::env::var("GEO_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000);
    let grown = support::env_sizes("GEO_GROWN", &[]);
    if let Some(load) = support::load_average() {
        println!("load average at the start: {load}");
    }
    println!("seeds 1..={seeds}; first try = attempt 1 passes; after retries = some attempt passes; limits = the rewriting failed its limits (no retry)");
    println!();
    println!("| grammar | spring | first try | after retries | failed: limits | failed: drawing | mean attempts | mean vertices | ms / derivation | force steps / relaxation | relaxations stopped by the step limit | corridor length vs ideal |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    if !grown.is_empty() {
        for cap in grown {
            let text = support::grown_grammar(grammar::DEFAULT_GRAMMAR, cap, true);
            let g = grammar::load(&text, "grown").expect("the grown default compiles");
            let settings = with_env_steps(GeometrySettings::default());
            let name = format!("default grown to {cap}");
            row(&name, &settings, &run(&g, &settings, seeds), seeds);
        }
        return;
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lg"))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("example readable");
        let g = grammar::load(&text, &name).expect("example compiles");
        if g.grid().is_some() {
            println!("| {name} | – | grid grammar: not geometric | | | | | | |");
            continue;
        }
        for spring in [SpringShape::Logarithmic, SpringShape::Sigmoid] {
            let mut settings = with_env_steps(g.model().geometry.clone().unwrap_or_default());
            settings.spring = spring;
            row(&name, &settings, &run(&g, &settings, seeds), seeds);
        }
    }
}

/// `settings` with `finish_steps` from `GEO_FINISH` and `steps` from
/// `GEO_STEPS` where those are set.
fn with_env_steps(mut settings: GeometrySettings) -> GeometrySettings {
    let var = |name: &str| std::env::var(name).ok().and_then(|s| s.parse().ok());
    if let Some(n) = var("GEO_FINISH") {
        settings.finish_steps = n;
    }
    if let Some(n) = var("GEO_STEPS") {
        settings.steps = n;
    }
    settings
}

/// One table row: what `seeds` derivations of `name` did.
fn row(name: &str, settings: &GeometrySettings, t: &Tally, seeds: u64) {
    let pct = |k: usize| 100.0 * k as f64 / seeds as f64;
    let passed = t.after_retries.max(1);
    println!(
        "| {name} | {:?} | {:.1} % | {:.1} % | {} | {} | {:.2} | {:.1} | {:.2} | {:.1} | {:.1} % | {:.0} % |",
        settings.spring,
        pct(t.first_try),
        pct(t.after_retries),
        t.limits,
        t.drawing,
        t.attempts as f64 / (seeds as usize - t.limits).max(1) as f64,
        t.vertices as f64 / passed as f64,
        t.seconds * 1e3 / seeds as f64,
        t.steps as f64 / t.relaxations.max(1) as f64,
        100.0 * t.unsettled as f64 / t.relaxations.max(1) as f64,
        100.0 * t.stretch / passed as f64,
    );
}
