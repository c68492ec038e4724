//! levelgraph side by side with its peers, in one run.
//!
//! ```sh
//! cargo run --release --manifest-path bench/peers/Cargo.toml            # everything
//! cargo run --release --manifest-path bench/peers/Cargo.toml -- matching
//! cargo run --release --manifest-path bench/peers/Cargo.toml -- derivation
//! cargo run --release --manifest-path bench/peers/Cargo.toml -- drawing
//! cargo run --release --manifest-path bench/peers/Cargo.toml -- tiles
//! ```
//!
//! Options: `--rounds N` (default 7; calls slower than 2 s get 3),
//! `--seeds N` (derivation, default 1000), `--petgraph-max N` (largest
//! host on which petgraph runs, default 100000: its VF2 allocates an n²
//! adjacency bitmap, 1.25 GB at 100,000 vertices), `--host N` (matching:
//! only the host of N vertices, e.g. to profile one size with perf),
//! `--drawing-seeds K` (drawing: seeds 1..=K per size, default 20),
//! `--drawing-sizes 20,50,100,200` (drawing: the `max_vertices` values).
//! The drawing benchmark (about 3 minutes; needs Graphviz's `neato` and
//! `fdp` on the PATH) takes its rounds from `--rounds` too. The tile-map
//! benchmark (`src/tiles.rs`, against the `mapgen` crate) takes
//! `--tiles-seeds N` (seeds 0..N per generator and size, default 100),
//! `--tiles-repeats N` (maps per seed, the median time kept, default 3),
//! `--tiles-sizes 80x25,80x50,100x100,200x200` and `--tiles-only
//! rooms|caves|growth`.
//!
//! Progress goes to stderr, the Markdown tables to stdout.

mod derivation;
mod drawing;
mod harness;
mod matching;
/// levelgraph's own bench helpers (one copy of the grammar-growing edit).
#[allow(dead_code)] // the child-process helpers are for levelgraph's harnesses
#[path = "../../../crates/levelgraph/benches/support/mod.rs"]
mod support;
#[path = "../../../crates/levelgraph/benches/support/tiles.rs"]
mod tile_support;
mod tiles;

use std::process::ExitCode;

const USAGE: &str = "usage: levelgraph-peer-bench [matching|derivation|drawing|tiles|all] \
[--rounds N] [--seeds N] [--petgraph-max N] [--host N] [--drawing-seeds K] \
[--drawing-sizes N,N,...] [--tiles-seeds N] [--tiles-repeats N] \
[--tiles-sizes WxH,WxH,...] [--tiles-only rooms|caves|growth]";

fn main() -> ExitCode {
    let mut which = "all".to_string();
    let mut rounds = 7usize;
    let mut seeds = 1000u64;
    let mut petgraph_max = 100_000usize;
    let mut host: Option<usize> = None;
    let mut drawing_seeds = 20u64;
    let mut drawing_sizes = vec![20usize, 50, 100, 200];
    let mut tiles_opts = tiles::Options {
        sizes: vec![(80, 25), (80, 50), (100, 100), (200, 200)],
        seeds: 100,
        repeats: 3,
        only: String::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> Option<u64> {
            let v = args.next().and_then(|v| v.parse().ok());
            if v.is_none() {
                eprintln!("{name} needs a number\n{USAGE}");
            }
            v
        };
        match a.as_str() {
            "matching" | "derivation" | "drawing" | "tiles" | "all" => which = a,
            "--rounds" => match num("--rounds") {
                Some(n) if n > 0 => rounds = n as usize,
                _ => return ExitCode::from(2),
            },
            "--seeds" => match num("--seeds") {
                Some(n) if n > 0 => seeds = n,
                _ => return ExitCode::from(2),
            },
            "--petgraph-max" => match num("--petgraph-max") {
                Some(n) => petgraph_max = n as usize,
                None => return ExitCode::from(2),
            },
            "--host" => match num("--host") {
                Some(n) => host = Some(n as usize),
                None => return ExitCode::from(2),
            },
            "--drawing-seeds" => match num("--drawing-seeds") {
                Some(n) if n > 0 => drawing_seeds = n,
                _ => return ExitCode::from(2),
            },
            "--drawing-sizes" => {
                let sizes: Option<Vec<usize>> = args.next().and_then(|v| {
                    v.split(',')
                        .map(|n| n.trim().parse().ok().filter(|&n: &usize| n > 0))
                        .collect()
                });
                match sizes {
                    Some(s) if !s.is_empty() => drawing_sizes = s,
                    _ => {
                        eprintln!("--drawing-sizes needs numbers like 20,50\n{USAGE}");
                        return ExitCode::from(2);
                    }
                }
            }
            "--tiles-seeds" => match num("--tiles-seeds") {
                Some(n) if n > 0 => tiles_opts.seeds = n,
                _ => return ExitCode::from(2),
            },
            "--tiles-repeats" => match num("--tiles-repeats") {
                Some(n) if n > 0 => tiles_opts.repeats = n as usize,
                _ => return ExitCode::from(2),
            },
            "--tiles-sizes" => {
                let sizes: Option<Vec<(u32, u32)>> = args.next().and_then(|v| {
                    v.split(',')
                        .map(|s| {
                            let (w, h) = s.trim().split_once('x')?;
                            Some((w.parse().ok()?, h.parse().ok()?))
                        })
                        .collect()
                });
                match sizes {
                    Some(s) if !s.is_empty() => tiles_opts.sizes = s,
                    _ => {
                        eprintln!("--tiles-sizes needs sizes like 80x25,200x200\n{USAGE}");
                        return ExitCode::from(2);
                    }
                }
            }
            "--tiles-only" => match args.next() {
                Some(v) if ["rooms", "caves", "growth"].contains(&v.as_str()) => {
                    tiles_opts.only = v
                }
                _ => {
                    eprintln!("--tiles-only needs rooms, caves or growth\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => {
                eprintln!("unknown argument `{a}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }

    println!("# levelgraph and its peers, side by side\n");
    if which != "tiles" {
        println!(
            "Median of {rounds} rounds (3 for calls over 2 s), release build, single thread.\n"
        );
    }
    if which == "matching" || which == "all" {
        let rows = matching::run(&matching::Options {
            rounds,
            petgraph_max,
            host,
        });
        println!("## Matching: levelgraph vs petgraph 0.8 VF2\n");
        println!("{}", matching::table(&rows));
        println!(
            "Rounds × calls (fastest..slowest round, per call): {}\n",
            matching::rounds_note(&rows)
        );
        println!("### Time per match on warm and on cold hosts (levelgraph)\n");
        println!("{}", matching::cold_table(&rows));
    }
    if which == "derivation" || which == "all" {
        let r = derivation::run(&derivation::Options { seeds, rounds });
        println!("## Derivation: levelgraph vs graph-grammar 1.0.2 (dungeon showcase)\n");
        println!("{}", derivation::table(&r));
        println!(
            "Rounds × calls (fastest..slowest round, per derivation): {}\n",
            derivation::rounds_note(&r)
        );
    }
    if which == "drawing" || which == "all" {
        let r = drawing::run(&drawing::Options {
            sizes: drawing_sizes,
            seeds: drawing_seeds,
            rounds,
        });
        println!("## Drawing: levelgraph's geometric derivation vs Graphviz neato and fdp\n");
        println!("{}", drawing::preamble(&r));
        for s in &r.sizes {
            println!("{}", drawing::table(s));
        }
        println!("Target (at least 10× faster than neato, no more crossings):\n");
        println!("{}", drawing::verdicts(&r));
    }
    if which == "tiles" || which == "all" {
        let r = tiles::run(&tiles_opts);
        println!("## Tile maps: levelgraph's roguelike generators vs mapgen 0.6.0\n");
        println!(
            "Seeds 0..{} per generator and size, {} timed maps per seed (the median \
             kept); time of generation only.\n",
            tiles_opts.seeds, tiles_opts.repeats
        );
        for title in tiles::titles(&r) {
            println!("### {title}\n");
            println!("{}", tiles::table(&r, title));
        }
        println!(
            "Target (levelgraph at least 3× faster than mapgen at every size): speed-up, \
             mapgen's time / levelgraph's, on the mean / on the median; bold below 3×.\n"
        );
        println!("{}", tiles::verdicts(&r));
    }
    ExitCode::SUCCESS
}
