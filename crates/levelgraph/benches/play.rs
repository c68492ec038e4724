//! Playability checker benchmark: the time of `play::check` per level as
//! levels grow, and its share of a default-grammar derivation.
//!
//! A small harness (no criterion); it prints one markdown table.
//!
//! - **Grown levels.** The built-in default grammar
//!   (`levelgraph::grammar::DEFAULT_GRAMMAR`) edited as `benches/growth.rs`
//!   edits it (`max_vertices M`, rule `settle` removed, so a level grows to
//!   M vertices), and `key_lock`'s `max_uses 2` raised to `max(2, M / 10)`
//!   so that keys and locks grow with the rooms. M = 20, 100, 1,000,
//!   5,000, 10,000 and 20,000; seeds 1..=10, or 1..=5 from M = 5,000 on.
//!   Each level is derived and checked, then `derive` and `play::check`
//!   are timed on it, each as the median of 5 rounds, a round repeating the
//!   call until it has taken 20 ms (one call when it takes longer). Per
//!   size: places (the checker's rooms: top-level vertices, every vertex
//!   of these levels), keys and locks (medians over the seeds), median and
//!   mean time per check, and time per place × (locks + 1), which stays
//!   flat if the check costs what its docs say (the fixpoint once, then
//!   once more per lock for what the lock gates).
//! - **Default grammar.** Unchanged (about 25 vertices), seeds 1..=1000:
//!   7 rounds of deriving all 1000 levels and 7 of checking all of them,
//!   the median round per level (each level once a round, as `generate`
//!   checks each level it derives once).
//!
//! Times are wall time less the time the thread spent ready to run but
//! waiting for a CPU (`run_delay` in `/proc/thread-self/schedstat`; plain
//! wall time where the system does not report it), so that a busy
//! machine's queue for its CPUs is not counted; the harness prints how
//! much longer the wall time was. Other work still shares the caches.
//!
//! Run with `cargo bench -p levelgraph --bench play`; figures go to
//! BENCHMARKS.md. `PLAY_SIZES` (e.g. `20,100`) sets the sizes M,
//! `PLAY_SEEDS` the number of seeds per size. `--check M N` checks seeds
//! 1..=N of size M (0: the default grammar unchanged) once each and
//! prints what they hold, for a profiler:
//! `valgrind --tool=callgrind --toggle-collect='levelgraph::play::check*'
//! target/release/deps/play-* --check 5000 1`.

mod support;

use std::hint::black_box;
use std::time::Instant;

use levelgraph::{grammar, play, CompiledGrammar, Derivation, DeriveError, Graph};

/// Sizes M of the grown levels.
const SIZES: [usize; 6] = [20, 100, 1_000, 5_000, 10_000, 20_000];
/// Seeds per size below `FEWER_SEEDS_FROM`, and from it on.
const SEEDS: (usize, usize) = (10, 5);
const FEWER_SEEDS_FROM: usize = 5_000;
/// Rounds per timed call (median reported).
const ROUNDS: usize = 5;
/// A round of a grown level repeats a call until it has taken this long.
const ROUND_SECONDS: f64 = 0.02;
/// Seeds of the default grammar, and its rounds (median reported).
const DEFAULT_SEEDS: u64 = 1_000;
const DEFAULT_ROUNDS: usize = 7;

/// The default grammar grown to `cap` vertices, with `key_lock` allowed
/// `max(2, cap / 10)` uses; unchanged for `cap` 0.
fn grown(cap: usize) -> CompiledGrammar {
    if cap == 0 {
        return grammar::default_grammar();
    }
    let text = support::grown_grammar(grammar::DEFAULT_GRAMMAR, cap, true);
    let old = "rule key_lock weight 2 max_uses 2 {";
    assert_eq!(text.matches(old).count(), 1, "the default grammar changed");
    let uses = (cap / 10).max(2);
    let text = text.replace(old, &format!("rule key_lock weight 2 max_uses {uses} {{"));
    grammar::load(&text, "grown").expect("the grown grammar compiles")
}

fn derivation(r: Result<Derivation, DeriveError>) -> Derivation {
    r.unwrap_or_else(DeriveError::into_derivation)
}

/// The seconds the calling thread has spent waiting for a CPU while
/// ready to run, when the system reports it (`run_delay`, the second field
/// of `/proc/thread-self/schedstat`). The first field, time on the CPU, is
/// brought up to date only at a scheduler tick, too coarse for short
/// rounds; the wait is brought up to date each time the thread gets a CPU,
/// so it is exact whenever the thread reads it.
fn waited_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(ns * 1e-9)
}

/// A clock: wall time less the time spent waiting for a CPU (time on the
/// CPU, for a thread that never sleeps), or wall time where the system
/// does not report the wait.
struct Clock {
    waited: Option<f64>,
    wall: Instant,
}

impl Clock {
    // The wall clock is read outside the wait on both ends, so that a wait
    // between the two readings can only add to the measured time, never
    // make it negative.
    fn start() -> Self {
        let wall = Instant::now();
        Clock {
            waited: waited_seconds(),
            wall,
        }
    }

    /// (measured, wall) seconds since `start`.
    fn elapsed(&self) -> (f64, f64) {
        let waited = self.waited.and_then(|w0| Some(waited_seconds()? - w0));
        let wall = self.wall.elapsed().as_secs_f64();
        ((wall - waited.unwrap_or(0.0)).max(0.0), wall)
    }
}

/// Running totals of measured and wall time, to say how much the wall
/// time exceeded it.
#[derive(Default)]
struct Totals {
    measured: f64,
    wall: f64,
}

/// Seconds per call of `f`: the median of `ROUNDS` rounds of the same
/// number of calls, found by doubling it until a round takes `round`
/// seconds (one call when it takes longer).
fn time_per_call<T>(round: f64, totals: &mut Totals, mut f: impl FnMut() -> T) -> f64 {
    let mut reps = 1usize;
    loop {
        let clock = Clock::start();
        for _ in 0..reps {
            black_box(f());
        }
        if clock.elapsed().0 >= round {
            break;
        }
        reps *= 2;
    }
    median(
        (0..ROUNDS)
            .map(|_| {
                let clock = Clock::start();
                for _ in 0..reps {
                    black_box(f());
                }
                let (measured, wall) = clock.elapsed();
                totals.measured += measured;
                totals.wall += wall;
                measured / reps as f64
            })
            .collect(),
    )
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn median_usize(mut xs: Vec<usize>) -> usize {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

/// "27 (9..40)": the median and the range, or the one value when all are
/// equal.
fn spread(xs: Vec<usize>) -> String {
    let (min, max) = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
    if min == max {
        format!("{min}")
    } else {
        format!("{} ({min}..{max})", median_usize(xs))
    }
}

/// Places as the checker sees them: top-level vertices (the default
/// grammar ignores no tag and stores no vertex, so every vertex).
fn places(g: &Graph) -> usize {
    g.vertices().filter(|(_, x)| x.parent.is_none()).count()
}

/// One timed level.
struct Level {
    places: usize,
    keys: usize,
    locks: usize,
    completable: bool,
    derive_s: f64,
    check_s: f64,
}

/// Derives seeds 1..=`seeds` of `g`, checks each result and times both.
fn levels(g: &CompiledGrammar, seeds: u64, round: f64, totals: &mut Totals) -> Vec<Level> {
    let spec = g.play().expect("the default grammar has a play block");
    (1..=seeds)
        .map(|seed| {
            let d = derivation(levelgraph::derive(g, seed));
            let report = play::check(&d.graph, spec);
            let derive_s = time_per_call(round, totals, || {
                levelgraph::derive(black_box(g), black_box(seed))
            });
            let check_s = time_per_call(round, totals, || play::check(black_box(&d.graph), spec));
            Level {
                places: places(&d.graph),
                keys: report.keys.len(),
                locks: report.locks.len(),
                completable: report.is_completable(),
                derive_s,
                check_s,
            }
        })
        .collect()
}

/// One markdown table row.
fn row(label: &str, levels: &[Level]) {
    let min = |xs: &[f64]| xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |xs: &[f64]| xs.iter().copied().fold(0.0, f64::max);
    let checks: Vec<f64> = levels.iter().map(|l| l.check_s).collect();
    let derives: Vec<f64> = levels.iter().map(|l| l.derive_s).collect();
    let per_unit: Vec<f64> = levels
        .iter()
        .map(|l| l.check_s * 1e9 / (l.places * (l.locks + 1)) as f64)
        .collect();
    println!(
        "| {label} | {} | {} | {} / {} | {}/{} | {} | {} | {:.1} ({:.1}..{:.1}) | {} | {:.2} |",
        levels.len(),
        spread(levels.iter().map(|l| l.places).collect()),
        median_usize(levels.iter().map(|l| l.keys).collect()),
        spread(levels.iter().map(|l| l.locks).collect()),
        levels.iter().filter(|l| l.completable).count(),
        levels.len(),
        micros(median(checks.clone())),
        micros(mean(&checks)),
        median(per_unit.clone()),
        min(&per_unit),
        max(&per_unit),
        micros(mean(&derives)),
        mean(&checks) / mean(&derives),
    );
}

/// The row of the default grammar: seeds 1..=`DEFAULT_SEEDS`, each level
/// derived and checked once a round.
fn default_row(totals: &mut Totals) {
    let g = grammar::default_grammar();
    let spec = g.play().expect("the default grammar has a play block");
    let graphs: Vec<Graph> = (1..=DEFAULT_SEEDS)
        .map(|seed| derivation(levelgraph::derive(&g, seed)).graph)
        .collect();
    let reports: Vec<play::PlayReport> = graphs.iter().map(|x| play::check(x, spec)).collect();
    let sizes: Vec<usize> = graphs.iter().map(places).collect();
    let units: usize = sizes
        .iter()
        .zip(&reports)
        .map(|(p, r)| p * (r.locks.len() + 1))
        .sum();
    let mut round = |f: &mut dyn FnMut()| {
        let clock = Clock::start();
        f();
        let (measured, wall) = clock.elapsed();
        totals.measured += measured;
        totals.wall += wall;
        measured
    };
    let (mut derives, mut checks) = (Vec::new(), Vec::new());
    for _ in 0..DEFAULT_ROUNDS {
        derives.push(round(&mut || {
            for seed in 1..=DEFAULT_SEEDS {
                let _ = black_box(levelgraph::derive(black_box(&g), black_box(seed)));
            }
        }));
        checks.push(round(&mut || {
            for x in &graphs {
                black_box(play::check(black_box(x), spec));
            }
        }));
    }
    let (derive_s, check_s) = (median(derives), median(checks));
    let n = DEFAULT_SEEDS as f64;
    println!(
        "| default grammar, unchanged | {DEFAULT_SEEDS} | {} | {} / {} | {}/{DEFAULT_SEEDS} | – | {} | {:.1} (over all levels) | {} | {:.2} |",
        spread(sizes),
        median_usize(reports.iter().map(|r| r.keys.len()).collect()),
        spread(reports.iter().map(|r| r.locks.len()).collect()),
        reports.iter().filter(|r| r.is_completable()).count(),
        micros(check_s / n),
        check_s * 1e9 / units as f64,
        micros(derive_s / n),
        check_s / derive_s,
    );
}

/// Seconds as µs, ms or s with three significant digits or so.
fn micros(s: f64) -> String {
    let us = s * 1e6;
    if us < 100.0 {
        format!("{us:.1} µs")
    } else if us < 100_000.0 {
        format!("{:.2} ms", us / 1e3).replace(".00 ms", " ms")
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// Profiling mode, `--check M N`: check seeds 1..=N of size M once each.
fn check_once(cap: usize, seeds: u64) {
    let g = grown(cap);
    let spec = g.play().expect("the default grammar has a play block");
    for seed in 1..=seeds {
        let d = derivation(levelgraph::derive(&g, seed));
        let clock = Clock::start();
        let report = play::check(black_box(&d.graph), spec);
        let (measured, wall) = clock.elapsed();
        println!(
            "M {cap} seed {seed}: {} places, {} locks, completable {}, {measured:.6} s ({wall:.6} s wall)",
            places(&d.graph),
            report.locks.len(),
            report.is_completable(),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--check") {
        let cap = args[i + 1].parse().expect("--check M N");
        let seeds = args[i + 2].parse().expect("--check M N");
        check_once(cap, seeds);
        return;
    }
    let sizes = support::env_sizes("PLAY_SIZES", &SIZES);
    let seeds = std::env::var("PLAY_SEEDS").ok().map(|s| {
        s.parse::<usize>()
            .expect("PLAY_SEEDS: a number of seeds per size")
    });
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown model".to_owned());
    println!(
        "machine: {} CPUs, {model}; times are {}",
        std::thread::available_parallelism().map_or(0, usize::from),
        if waited_seconds().is_some() {
            "wall time less waits for a CPU (schedstat run_delay)"
        } else {
            "wall time"
        }
    );
    if let Some(load) = support::load_average() {
        println!("load average before timing: {load}");
    }
    println!();
    println!(
        "| level | seeds | places | keys / locks | completable | time / check, median | mean | ns / (place × (locks + 1)), median (min..max) | derive, mean | check / derive |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut totals = Totals::default();
    for &cap in &sizes {
        let n = seeds.unwrap_or(if cap < FEWER_SEEDS_FROM {
            SEEDS.0
        } else {
            SEEDS.1
        });
        let levels = levels(&grown(cap), n as u64, ROUND_SECONDS, &mut totals);
        row(&format!("grown, M = {cap}"), &levels);
    }
    default_row(&mut totals);
    println!();
    println!(
        "wall time / measured time over all timed rounds: {:.2}",
        totals.wall / totals.measured
    );
    if let Some(load) = support::load_average() {
        println!("load average after timing: {load}");
    }
}
