//! Tile-map generators (issue 6; docs/tiles.md): time per map and the mean
//! metrics of the maps, for each generator at 80 × 25, 80 × 50, 100 × 100
//! and 200 × 200 cells, seeds 0..N, one map per seed.
//!
//! Parameters are each generator's defaults (the defaults are for 80 × 50)
//! with only the map size changed, except where the default is a count
//! that depends on the map's area:
//! - rooms and corridors: `rooms` stays 10 at every size, because the
//!   generator's room sides scale with the map (at most `w/5 × h/5`), so ten
//!   rooms cover the same share of every map; 1 corridor per room, 100
//!   placement tries, `min_room_size` 3;
//! - accretion: `steps` scaled with the area, 1,000 × area / (80 × 50)
//!   (500, 1,000, 2,500, 10,000), room and corridor sizes fixed; then again
//!   with `steps` 1,000,000 at every size (issue 6's target: under 100 ms);
//! - caves: the defaults (standard rule, `floor_chance` 0.65, 4 + 3
//!   iterations, joined), the automaton being local; and the RogueBasin
//!   rule as a second row.
//!
//! The target is under 500 ms per map (1 s at most): the "< 500 ms"
//! column counts the maps that met it. Timing covers `generate` only (the
//! metrics are computed afterwards, untimed): each seed's map is made
//! `TILES_REPEATS` times and the median of those is its time, so that one
//! preemption on a busy machine does not count. Every map is checked to be
//! one 4-connected region (a warning on stderr otherwise).
//!
//! `cargo bench -p levelgraph --bench tiles` (about 30 s). Knobs:
//! `TILES_RUNS` (seeds per row, default 100), `TILES_BIG_RUNS` (seeds for
//! the 1,000,000-step rows, default 20), `TILES_REPEATS` (timed maps per
//! seed, default 3), `TILES_SIZES` (default `80x25,80x50,100x100,200x200`),
//! `TILES_ONLY` (a substring the generator's name must contain: `rooms`,
//! `accretion`, `caves`).

use std::hint::black_box;
use std::time::Instant;

use levelgraph::tiles::accretion;
use levelgraph::tiles::caves::{self, CaveParams, CaveRule};
use levelgraph::tiles::metrics::Metrics;
use levelgraph::tiles::rooms_and_corridors::{self, RoomsParams};
use levelgraph::tiles::{TileMap, TilesError};

#[path = "support/tiles.rs"]
mod tile_support;
use tile_support::{accretion_params, accretion_steps, describe_accretion};

/// The target time per map, in seconds.
const BAR: f64 = 0.5;

fn main() {
    let knob = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(default)
    };
    let runs = knob("TILES_RUNS", 100);
    let big_runs = knob("TILES_BIG_RUNS", 20);
    let repeats = knob("TILES_REPEATS", 3) as usize;
    let only = std::env::var("TILES_ONLY").unwrap_or_default();
    let sizes: Vec<(u32, u32)> = std::env::var("TILES_SIZES")
        .unwrap_or_else(|_| "80x25,80x50,100x100,200x200".into())
        .split(',')
        .filter_map(|s| {
            let (w, h) = s.trim().split_once(['x', '×'])?;
            Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
        })
        .collect();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{runs} seeds per row (0..{runs}), {big_runs} for accretion with 1,000,000 steps; \
         time of `generate` per map, the median of {repeats} per seed; metrics are means \
         over the maps (longest path: ≥ when a search limit left it a lower bound); \
         load average before the run: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!();
    println!(
        "| generator | size | parameters | maps | mean time | median time | slowest | \
         < 500 ms | floor ratio | regions | dead ends | rooms | corridors | longest path |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let wanted = |name: &str| name.contains(&only);
    let mut big = Vec::new();
    for &(w, h) in &sizes {
        if wanted("rooms and corridors") {
            let params = RoomsParams {
                width: w,
                height: h,
                ..RoomsParams::default()
            };
            let note = format!(
                "rooms {}, corridors {}, tries {}, sides {}..={} × {}..={}",
                params.rooms,
                params.corridors,
                params.placement_tries,
                params.min_room_size,
                w / 5,
                params.min_room_size,
                h / 5
            );
            row(
                "rooms and corridors",
                w,
                h,
                &note,
                (runs, repeats),
                |seed| rooms_and_corridors::generate(&params, seed),
            );
        }
        if wanted("accretion") {
            for steps in [accretion_steps(w, h), accretion::MAX_STEPS] {
                let params = accretion_params(w, h, steps);
                let note = describe_accretion(&params);
                let n = if steps == accretion::MAX_STEPS {
                    big_runs
                } else {
                    runs
                };
                let slowest = row("accretion", w, h, &note, (n, repeats), |seed| {
                    accretion::generate(&params, seed)
                });
                if steps == accretion::MAX_STEPS {
                    big.push((w, h, slowest));
                }
            }
        }
        if wanted("caves") {
            for rule in [CaveRule::Standard, CaveRule::RogueBasin] {
                let params = CaveParams {
                    width: w,
                    height: h,
                    rule,
                    ..CaveParams::default()
                };
                let note = format!(
                    "rule {}, floor chance {}, floor ratio ≥ {}, iterations {} + {}, {}",
                    params.rule,
                    params.floor_chance,
                    params.floor_ratio,
                    params.wall_add_iterations,
                    params.no_wall_add_iterations,
                    params.connect
                );
                row("caves", w, h, &note, (runs, repeats), |seed| {
                    caves::generate(&params, seed)
                });
            }
        }
    }
    if !big.is_empty() {
        println!();
        println!("Issue 6's target, accretion with 1,000,000 steps under 100 ms per map:");
        println!();
        for (w, h, slowest) in big {
            println!(
                "- {w} × {h}: slowest map {} — {}",
                fmt_secs(slowest),
                if slowest < 0.1 { "met" } else { "**not met**" }
            );
        }
    }
}

/// One table row: `generate` for seeds `0..runs`, each made `repeats`
/// times (the median time kept) after one untimed warm-up map (seed
/// `runs`, not in the row). Returns the slowest seed's time.
fn row(
    name: &str,
    w: u32,
    h: u32,
    note: &str,
    (runs, repeats): (u64, usize),
    mut generate: impl FnMut(u64) -> Result<TileMap, TilesError>,
) -> f64 {
    let _ = black_box(generate(runs));
    let mut times = Vec::new();
    let mut failures = 0u64;
    let mut sums = [0.0f64; 6];
    let mut maps = 0u64;
    let mut exact = true;
    let mut samples = Vec::new();
    for seed in 0..runs {
        samples.clear();
        let mut result = None;
        for _ in 0..repeats.max(1) {
            let start = Instant::now();
            let r = black_box(generate(seed));
            samples.push(start.elapsed().as_secs_f64());
            result = Some(r);
        }
        samples.sort_by(f64::total_cmp);
        times.push(samples[samples.len() / 2]);
        match result.expect("at least one repeat") {
            Ok(map) => {
                let m = Metrics::of(&map);
                exact &= m.longest_path_exact;
                if m.regions != 1 {
                    eprintln!("{name} {w}×{h} seed {seed}: {} regions", m.regions);
                }
                maps += 1;
                for (s, v) in sums.iter_mut().zip([
                    m.floor_ratio,
                    m.regions as f64,
                    m.dead_ends as f64,
                    m.rooms as f64,
                    m.corridors as f64,
                    f64::from(m.longest_path),
                ]) {
                    *s += v;
                }
            }
            Err(e) => {
                failures += 1;
                eprintln!("{name} {w}×{h} seed {seed}: {e}");
            }
        }
    }
    let n = times.len().max(1);
    let under = times.iter().filter(|&&t| t < BAR).count();
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / n as f64;
    let k = maps.max(1) as f64;
    let maps_note = if failures > 0 {
        format!("{maps} ({failures} failed)")
    } else {
        maps.to_string()
    };
    println!(
        "| {name} | {w} × {h} | {note} | {maps_note} | {} | {} | {} | {under} / {n} | {:.3} | {:.2} | {:.1} | {:.1} | {:.1} | {}{:.0} |",
        fmt_secs(mean),
        fmt_secs(times[times.len() / 2]),
        fmt_secs(times[times.len() - 1]),
        sums[0] / k,
        sums[1] / k,
        sums[2] / k,
        sums[3] / k,
        sums[4] / k,
        if exact { "" } else { "≥ " },
        sums[5] / k,
    );
    times[times.len() - 1]
}

/// Seconds as ms or µs with three significant digits or so.
fn fmt_secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}
