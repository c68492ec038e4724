//! Derivation benchmark: derivations per second of the example grammars.
//!
//! A small harness (no criterion): for each grammar, derive seeds 1..=N
//! once as warm-up, then time `ROUNDS` rounds of the same N seeds and report
//! the median and the spread of the per-derivation time. Run with
//! `cargo bench -p levelgraph --bench derive`; figures go to BENCHMARKS.md.

use std::hint::black_box;
use std::time::Instant;

use levelgraph::grammar;

const SEEDS: u64 = 1_000;
const ROUNDS: usize = 7;

fn main() {
    let grammars = [
        (
            "default (keys-and-cycles)",
            grammar::DEFAULT_GRAMMAR,
            "default",
        ),
        (
            "dormans2010",
            include_str!("../../../examples/dormans2010.lg"),
            "dormans2010",
        ),
    ];
    println!("grammar                      | seeds | median µs/derivation | min..max µs | derivations/s | mean vertices | mean applications");
    println!("-----------------------------|-------|----------------------|-------------|---------------|---------------|------------------");
    for (label, text, name) in grammars {
        let g = grammar::load(text, name).expect("example grammar compiles");
        let (mut vertices, mut applications) = (0usize, 0usize);
        for seed in 1..=SEEDS {
            let d = levelgraph::derive(&g, seed).expect("example derives");
            vertices += d.graph.vertex_count();
            applications += d.trace.len();
        }
        let mut per_derivation_us: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let start = Instant::now();
                for seed in 1..=SEEDS {
                    black_box(levelgraph::derive(&g, black_box(seed)).ok());
                }
                start.elapsed().as_secs_f64() * 1e6 / SEEDS as f64
            })
            .collect();
        per_derivation_us.sort_by(f64::total_cmp);
        let median = per_derivation_us[ROUNDS / 2];
        println!(
            "{label:<28} | {SEEDS:>5} | {median:>20.2} | {:>5.2}..{:<5.2} | {:>13.0} | {:>13.1} | {:>17.1}",
            per_derivation_us[0],
            per_derivation_us[ROUNDS - 1],
            1e6 / median,
            vertices as f64 / SEEDS as f64,
            applications as f64 / SEEDS as f64,
        );
    }
}
