//! Growth benchmark: does the cost of one rule application stay flat as
//! the level grows?
//!
//! Two grammars, both the built-in default grammar
//! (`levelgraph::grammar::DEFAULT_GRAMMAR`, the text of
//! `examples/default.lg`) edited as text in this harness:
//!
//! - **default, raised cap**: `max_vertices 40` replaced by
//!   `max_vertices M` and `max_iterations 300` by `max_iterations 2M+1000`,
//!   for M = 10,000 and 100,000 (and 40 unchanged, as the baseline). The
//!   grammar stops growing by itself (`settle` closes the frontier rooms),
//!   so this shows how large its levels get without the cap; timed over
//!   seeds 1..=1000, median of 5 rounds.
//! - **growing variant**: the same edits, and the rule `settle` removed
//!   (the text from `rule settle` to its closing `}`; weights must be
//!   greater than 0, so it cannot be switched off otherwise). `extend` then
//!   keeps pushing the frontier until `max_vertices` holds it back, so
//!   every derivation has about M applications. Timed for M = 1,000,
//!   10,000, 100,000 and 1,000,000, seeds 1, 2, 3, each seed in a child
//!   process (this binary run again with `--child M SEED`) that is killed
//!   at a time limit; a derivation under a second is repeated 5 times and
//!   the median taken. The same seed makes the same steps up to the
//!   smaller cap, so `(T(M) − T(M')) / (A(M) − A(M'))` is the cost of an
//!   application while the level grows from M' to M vertices (the
//!   *marginal* cost).
//!
//! Run with `cargo bench -p levelgraph --bench growth`; figures go to
//! BENCHMARKS.md. Environment: `GROWTH_SIZES` (e.g. `1000,10000`), the
//! caps of the growing variant; `GROWTH_BUDGET_S` (default 60): larger
//! caps are not run after one whose slowest derivation took longer;
//! `GROWTH_KILL_S` (default 600): kill a derivation running longer.

mod support;

use std::hint::black_box;
use std::time::Instant;

use levelgraph::{grammar, Derivation, DeriveError};

/// Caps of the default grammar (40 is its own).
const DEFAULT_CAPS: [usize; 3] = [40, 10_000, 100_000];
/// Seeds of the default grammar runs.
const DEFAULT_SEEDS: u64 = 1_000;
/// Rounds of the default grammar runs (median reported).
const ROUNDS: usize = 5;
/// Caps of the growing variant.
const GROWING_CAPS: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// Seeds of the growing variant.
const GROWING_SEEDS: [u64; 3] = [1, 2, 3];

/// The default grammar with `max_vertices cap` and `max_iterations
/// 2·cap + 1000`; without the rule `settle` when `growing`.
fn grammar_text(cap: usize, growing: bool) -> String {
    support::grown_grammar(grammar::DEFAULT_GRAMMAR, cap, growing)
}

fn derivation(r: Result<Derivation, DeriveError>) -> (bool, Derivation) {
    match r {
        Ok(d) => (true, d),
        Err(e) => (false, e.into_derivation()),
    }
}

/// Part 1: the default grammar with its cap raised.
fn default_grammar() {
    println!(
        "default grammar (settle kept), seeds 1..={DEFAULT_SEEDS}, median of {ROUNDS} rounds:"
    );
    println!(
        "max_vertices | µs / derivation | µs / application | mean applications | vertices q1 / median / q3 (min..max) | ≥ 1,000 vertices | stop reasons"
    );
    println!(
        "-------------|-----------------|------------------|-------------------|--------------------------------------|------------------|-------------"
    );
    for cap in DEFAULT_CAPS {
        let g = grammar::load(&grammar_text(cap, false), "default").expect("compiles");
        let mut sizes = Vec::new();
        let mut applications = 0usize;
        let mut stops: Vec<(&'static str, usize)> = Vec::new();
        for seed in 1..=DEFAULT_SEEDS {
            let (_, d) = derivation(levelgraph::derive(&g, seed));
            sizes.push(d.graph.vertex_count());
            applications += d.trace.len();
            match stops.iter_mut().find(|(c, _)| *c == d.stop.code()) {
                Some((_, k)) => *k += 1,
                None => stops.push((d.stop.code(), 1)),
            }
        }
        let rounds: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let t = Instant::now();
                for seed in 1..=DEFAULT_SEEDS {
                    let _ = black_box(levelgraph::derive(&g, black_box(seed)));
                }
                t.elapsed().as_secs_f64()
            })
            .collect();
        let median = median(rounds);
        sizes.sort_unstable();
        let q = |f: usize| sizes[(sizes.len() - 1) * f / 4];
        let stops: Vec<String> = stops.iter().map(|(c, k)| format!("{c} {k}")).collect();
        println!(
            "{cap:>12} | {:>15.1} | {:>16.3} | {:>17.1} | {:<36} | {:>16} | {}",
            median * 1e6 / DEFAULT_SEEDS as f64,
            median * 1e6 / applications as f64,
            applications as f64 / DEFAULT_SEEDS as f64,
            format!(
                "{} / {} / {} ({}..{})",
                q(1),
                q(2),
                q(3),
                sizes[0],
                sizes[sizes.len() - 1]
            ),
            sizes.iter().filter(|&&s| s >= 1_000).count(),
            stops.join(", "),
        );
    }
}

/// Child mode, `--child CAP SEED`: derive the growing variant and print
/// `RESULT cap seed seconds applications vertices frontier stop`. A
/// derivation under a second is repeated (`ROUNDS` in all) and the median
/// time reported.
fn child(cap: usize, seed: u64) {
    let g = grammar::load(&grammar_text(cap, true), "growing").expect("compiles");
    let t = Instant::now();
    let (_, d) = derivation(levelgraph::derive(black_box(&g), black_box(seed)));
    let first = t.elapsed().as_secs_f64();
    let mut times = vec![first];
    if first < 1.0 {
        while times.len() < ROUNDS {
            let t = Instant::now();
            let again = levelgraph::derive(black_box(&g), black_box(seed));
            times.push(t.elapsed().as_secs_f64());
            drop(black_box(again));
        }
    }
    let seconds = median(times);
    let vertices = d.graph.vertex_count();
    assert!(vertices <= cap, "max_vertices exceeded");
    let frontier = d
        .graph
        .tags()
        .get("frontier")
        .map_or(0, |t| d.graph.vertices_tagged(t).len());
    println!(
        "RESULT {cap} {seed} {seconds} {} {vertices} {frontier} {}",
        d.trace.len(),
        d.stop.code()
    );
    // Freeing a large graph and trace is not part of the derivation.
    std::mem::forget(d);
}

/// One derivation of the growing variant, as a child reports it.
struct Run {
    seconds: f64,
    applications: usize,
    vertices: usize,
    frontier: usize,
    stop: String,
}

fn run_in_child(cap: usize, seed: u64, kill_after: f64) -> Result<Run, String> {
    let text = support::run_child(
        &["--child".to_owned(), cap.to_string(), seed.to_string()],
        kill_after,
    )?;
    let line = text
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .ok_or("no RESULT line")?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let int = |i: usize| f[i].parse::<usize>().map_err(|e| e.to_string());
    Ok(Run {
        seconds: f[3]
            .parse()
            .map_err(|e: std::num::ParseFloatError| e.to_string())?,
        applications: int(4)?,
        vertices: int(5)?,
        frontier: int(6)?,
        stop: f[7].to_owned(),
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Part 2: the growing variant.
fn growing(caps: &[usize], budget: f64, kill_after: f64) {
    println!(
        "growing variant (settle removed), seeds {GROWING_SEEDS:?}; per seed the median of {ROUNDS} derivations if under 1 s; medians over the seeds:"
    );
    println!(
        "max_vertices | vertices  | applications | s (fastest..slowest)     | µs / application | marginal µs / application | frontier left | stop"
    );
    println!(
        "-------------|-----------|--------------|--------------------------|------------------|---------------------------|---------------|-----"
    );
    let mut previous: Option<Vec<Run>> = None;
    for &cap in caps {
        let mut runs = Vec::new();
        for seed in GROWING_SEEDS {
            match run_in_child(cap, seed, kill_after) {
                Ok(r) => runs.push(r),
                Err(why) => {
                    println!("{cap:>12} | seed {seed}: no figure: {why}");
                    println!("stopped: larger caps not run");
                    return;
                }
            }
        }
        let seconds: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        let slowest = seconds.iter().copied().fold(0.0, f64::max);
        let fastest = seconds.iter().copied().fold(f64::INFINITY, f64::min);
        let per_application = median(
            runs.iter()
                .map(|r| r.seconds * 1e6 / r.applications as f64)
                .collect(),
        );
        let marginal = previous.as_ref().map(|prev| {
            median(
                runs.iter()
                    .zip(prev)
                    .map(|(r, p)| {
                        (r.seconds - p.seconds) * 1e6
                            / r.applications.saturating_sub(p.applications).max(1) as f64
                    })
                    .collect(),
            )
        });
        let mid = &runs[runs.len() / 2];
        println!(
            "{cap:>12} | {:>9} | {:>12} | {:>24} | {per_application:>16.3} | {:>25} | {:>13} | {}",
            mid.vertices,
            mid.applications,
            format!("{:.3} ({fastest:.3}..{slowest:.3})", median(seconds)),
            marginal.map_or("-".to_owned(), |m| format!("{m:.3}")),
            mid.frontier,
            mid.stop,
        );
        previous = Some(runs);
        if slowest > budget {
            println!(
                "stopped: a derivation with max_vertices {cap} took {slowest:.1} s, over the {budget:.0} s budget; larger caps not run"
            );
            return;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        let cap = args[i + 1].parse().expect("--child CAP SEED");
        let seed = args[i + 2].parse().expect("--child CAP SEED");
        child(cap, seed);
        return;
    }
    let budget = support::env_secs("GROWTH_BUDGET_S", 60.0);
    let kill_after = support::env_secs("GROWTH_KILL_S", 600.0).max(budget);
    let caps = support::env_sizes("GROWTH_SIZES", &GROWING_CAPS);
    if let Some(load) = support::load_average() {
        println!("load average before timing: {load}");
    }
    default_grammar();
    println!();
    growing(&caps, budget, kill_after);
}
