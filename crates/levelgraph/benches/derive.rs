//! Derivation benchmark: derivations per second of the example grammars,
//! and what they produce (vertex-count quartiles, share within limits).
//!
//! A small harness (no criterion): for each grammar, derive seeds 1..=N
//! once to collect sizes, then time `ROUNDS` rounds of the same N seeds and
//! report the median and the spread of the per-derivation time. Run with
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
    println!(
        "grammar                   | median µs/derivation | min..max µs     | derivations/s | vertices q1/q2/q3 (min..max) | within limits | mean applications"
    );
    println!(
        "--------------------------|----------------------|-----------------|---------------|------------------------------|---------------|------------------"
    );
    for (label, text, name) in grammars {
        let g = grammar::load(text, name).expect("example grammar compiles");
        let mut sizes = Vec::new();
        let (mut ok, mut applications) = (0usize, 0usize);
        for seed in 1..=SEEDS {
            let d = match levelgraph::derive(&g, seed) {
                Ok(d) => {
                    ok += 1;
                    d
                }
                Err(e) => e.into_derivation(),
            };
            sizes.push(d.graph.vertex_count());
            applications += d.trace.len();
        }
        sizes.sort_unstable();
        let q = |f: usize| sizes[(sizes.len() - 1) * f / 4];
        let mut per_derivation_us: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let start = Instant::now();
                for seed in 1..=SEEDS {
                    let _ = black_box(levelgraph::derive(&g, black_box(seed)));
                }
                start.elapsed().as_secs_f64() * 1e6 / SEEDS as f64
            })
            .collect();
        per_derivation_us.sort_by(f64::total_cmp);
        let median = per_derivation_us[ROUNDS / 2];
        println!(
            "{label:<25} | {median:>20.1} | {:>6.1}..{:<7.1} | {:>13.0} | {:>2}/{:>2}/{:>2} ({:>2}..{:<2}) {:>10} | {:>12.1}% | {:>17.1}",
            per_derivation_us[0],
            per_derivation_us[ROUNDS - 1],
            1e6 / median,
            q(1),
            q(2),
            q(3),
            sizes[0],
            sizes[sizes.len() - 1],
            "",
            100.0 * ok as f64 / SEEDS as f64,
            applications as f64 / SEEDS as f64,
        );
    }
}
