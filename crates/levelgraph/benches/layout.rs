//! Room layout benchmark (issue 5) following Edgar's thesis protocol: 100
//! runs per input, a run succeeds if it finds a full valid layout within
//! 1,000,000 iterations; success rate, mean and median time, mean
//! iterations. Every layout found is also checked by the independent
//! checker (`layout::check`), and a run whose layout fails it counts as a
//! failure.
//!
//! Inputs: every map of Edgar-DotNet's examples
//! (`crates/levelgraph/tests/data/edgar/maps`, room sets beside them), and
//! the levels of every example grammar with a `rooms` block (run `k`
//! derives seed `k` and lays that level out with seed `k`: each run is a
//! different level). Then the same for `examples/dungeon-rooms.lg` grown
//! to larger levels (the rule `settle` removed and `max_vertices` raised,
//! as `growth.rs` does; `LAYOUT_GROWN`, default `60,100,200`).
//! Timing is per run and includes building the shapes, configuration
//! spaces and chains (`Prepared::new`), as a fresh generator would.
//!
//! `cargo bench -p levelgraph --bench layout`; `LAYOUT_RUNS` (default 100)
//! sets the runs, `LAYOUT_MAPS` a substring the map names must contain.
//! The seeds of failed runs of a row go to standard error. `LAYOUT_LEVEL=k`
//! makes every run of the grammar rows lay out the level of seed `k` (with
//! the run's own layout seed): how often one hard level is laid out.
//! `LAYOUT_BIAS` sets `LayoutSettings::contact_bias`; `LAYOUT_EXACT=0`
//! turns `LayoutSettings::exact_detours` off, `LAYOUT_COMPACT=0`
//! `LayoutSettings::compact_detours`. `LAYOUT_SHOW=1` prints each row's
//! chains (rooms by name, with their number of neighbours) and its first
//! run's outcome to standard error; `LAYOUT_SHOW=2` also its first run's
//! edges and room tags (to read a hard level's shape).
//! `LAYOUT_MAX_ITERATIONS` sets `LayoutSettings::max_iterations` (to ask
//! whether a level that fails has a layout at all). Some levels have none:
//! of the first 3,000 levels of `examples/dungeon-rooms.lg`, those of
//! seeds 115, 2079 and 2494 (of the undirected grammar it replaced, 682
//! and 685), which `examples/shut_in.rs` proves by enumeration.
//! Each row's most work (`LayoutSettings::max_work`'s units, over runs
//! laid out or stopped) goes to standard error: how far the inputs are
//! from the work budget.

use std::path::PathBuf;
use std::time::Instant;

#[allow(dead_code)] // the child-process helpers are for the other harnesses
mod support;

use levelgraph::layout::{
    check::check_layout, edgar, LayoutError, LayoutProblem, LayoutSettings, Prepared,
};
use levelgraph::rooms::level_problem;

fn main() {
    let runs: u64 = std::env::var("LAYOUT_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let filter = std::env::var("LAYOUT_MAPS").unwrap_or_default();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/edgar");
    let sets = edgar::RoomSets::load_dir(&dir.join("rooms")).expect("room sets");
    let mut maps: Vec<PathBuf> = std::fs::read_dir(dir.join("maps"))
        .expect("maps folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    maps.sort();
    let mut settings = LayoutSettings::default();
    // Tuning knobs for experiments (defaults otherwise).
    let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(v) = knob("LAYOUT_MAX_ITERATIONS") {
        settings.max_iterations = v;
    }
    if let Some(v) = knob("LAYOUT_WITHOUT_NEW") {
        settings.trials_without_new = v as u32;
    }
    if let Some(v) = knob("LAYOUT_PER_CHAIN") {
        settings.layouts_per_chain = v as usize;
    }
    if let Some(v) = knob("LAYOUT_TRIALS") {
        settings.trials_per_cycle = v as u32;
    }
    if let Some(v) = knob("LAYOUT_PER_START") {
        settings.backtracks_per_start = v as u32;
    }
    if let Some(v) = std::env::var("LAYOUT_BIAS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        settings.contact_bias = v;
    }
    if let Some(v) = knob("LAYOUT_EXACT") {
        settings.exact_detours = v != 0;
    }
    if let Some(v) = knob("LAYOUT_COMPACT") {
        settings.compact_detours = v != 0;
    }
    // One level for every run of the grammar rows, laid out with run k's
    // seed k: how often that level is laid out (e.g. LAYOUT_LEVEL=92).
    let level = knob("LAYOUT_LEVEL");
    println!(
        "{runs} runs per map, seeds 0..{runs}, max_iterations {}",
        settings.max_iterations
    );
    println!();
    println!("| map | rooms | edges | corridors | success | mean time | median time | slowest | mean iterations | mean backtracks | set-up (shapes, spaces, chains) |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for map in maps {
        let problem = edgar::load_map(&map, &sets).expect("map");
        let name = map
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        row(
            &name,
            (0..runs).map(|seed| (seed, problem.clone())),
            &settings,
        );
    }
    // Example grammars with a rooms block: each run lays out another level.
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut grammars: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lg"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    grammars.sort();
    for path in grammars {
        let text = std::fs::read_to_string(&path).expect("grammar");
        let grammar = levelgraph::grammar::load(&text, "example").expect("example grammar");
        let Some(spec) = grammar.model().rooms.clone() else {
            continue;
        };
        let levels = (0..runs).filter_map(|seed| {
            let derived = levelgraph::derive(&grammar, level.unwrap_or(seed)).ok()?;
            let problem = level_problem(&derived.graph, &spec, &edgar::RoomSets::new())
                .expect("the example's rooms block needs no files");
            Some((seed, problem))
        });
        let name = format!(
            "{} (levels)",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        );
        row(&name, levels, &settings);
    }
    // Larger levels: the rooms example grown.
    let grown = std::env::var("LAYOUT_GROWN").unwrap_or_else(|_| "60,100,200".into());
    let rooms_text = std::fs::read_to_string(examples.join("dungeon-rooms.lg")).expect("example");
    for cap in grown
        .split(',')
        .filter_map(|c| c.trim().parse::<usize>().ok())
    {
        let grammar =
            levelgraph::grammar::load(&support::grown_grammar(&rooms_text, cap, true), "grown")
                .expect("the grown rooms example compiles");
        let spec = grammar.model().rooms.clone().expect("a rooms block");
        let levels = (0..runs).filter_map(|seed| {
            let derived = levelgraph::derive(&grammar, level.unwrap_or(seed)).ok()?;
            let problem = level_problem(&derived.graph, &spec, &edgar::RoomSets::new()).ok()?;
            Some((seed, problem))
        });
        row(
            &format!("dungeon-rooms.lg grown to {cap} (levels)"),
            levels,
            &settings,
        );
    }
}

/// One table row: every `(seed, problem)` run once.
fn row(name: &str, runs: impl Iterator<Item = (u64, LayoutProblem)>, settings: &LayoutSettings) {
    let mut times = Vec::new();
    let mut ok = 0u64;
    let mut iterations = 0u64;
    let mut backtracks = 0u64;
    let mut setup = 0.0;
    let mut rooms = 0usize;
    let mut edges = 0usize;
    let mut corridors = false;
    let mut failed: Vec<u64> = Vec::new();
    // The most work of a run, and its seed.
    let mut most_work = (0u64, 0u64);
    for (seed, problem) in runs {
        rooms += problem.rooms.len();
        edges += problem.edges.len();
        corridors |= problem.corridors.is_some();
        let start = Instant::now();
        let prepared = Prepared::new(&problem).expect("prepared");
        setup += start.elapsed().as_secs_f64();
        let result = prepared.run(seed, settings);
        times.push(start.elapsed().as_secs_f64());
        if std::env::var("LAYOUT_SHOW").is_ok() && times.len() == 1 {
            // The chains (rooms by name, with their degree) and the first
            // run's outcome: what the search had to do on this input.
            let degree = |r: usize| problem.edges.iter().filter(|e| e.contains(&r)).count();
            for (i, chain) in prepared.chains().iter().enumerate() {
                let rooms: Vec<String> = chain
                    .iter()
                    .map(|&r| format!("{}({})", problem.rooms[r].name, degree(r)))
                    .collect();
                eprintln!("{name}: chain {}: {}", i + 1, rooms.join(" "));
            }
            if std::env::var("LAYOUT_SHOW").is_ok_and(|v| v == "2") {
                // The edges too, by room name: to read the level's shape.
                let edges: Vec<String> = problem
                    .edges
                    .iter()
                    .map(|&[a, b]| format!("{}-{}", problem.rooms[a].name, problem.rooms[b].name))
                    .collect();
                eprintln!("{name}: edges: {}", edges.join(" "));
                let tags: Vec<String> = problem
                    .rooms
                    .iter()
                    .map(|r| format!("{}:{}", r.name, r.tag))
                    .collect();
                eprintln!("{name}: tags: {}", tags.join(" "));
            }
            match &result {
                Ok((_, stats)) => eprintln!("{name}: seed {seed}: {stats:?}"),
                Err(e) => eprintln!("{name}: seed {seed}: {e}"),
            }
        }
        let work = match &result {
            Ok((_, stats)) => stats.work,
            Err(LayoutError::Limit { work, .. }) => *work,
            Err(_) => 0,
        };
        most_work = most_work.max((work, seed));
        if let Ok((layout, stats)) = result {
            iterations += stats.iterations;
            backtracks += stats.backtracks;
            if check_layout(&problem, &layout).is_empty() {
                ok += 1;
            } else {
                eprintln!("{name}: seed {seed}: the checker refused the layout");
                failed.push(seed);
            }
        } else {
            failed.push(seed);
        }
    }
    if !failed.is_empty() {
        // On standard error, so the table on standard output stays clean.
        eprintln!("{name}: failed seeds {failed:?}");
    }
    eprintln!(
        "{name}: most work {} units (seed {})",
        most_work.0, most_work.1
    );
    let n = times.len().max(1);
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / n as f64;
    println!(
        "| {name} | {} | {} | {} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {} | {:.1} | {:.2} ms |",
        fmt_mean(rooms, n),
        fmt_mean(edges, n),
        if corridors { "yes" } else { "no" },
        fmt_success(ok as usize, n),
        mean * 1e3,
        times.get(times.len() / 2).copied().unwrap_or(0.0) * 1e3,
        times.last().copied().unwrap_or(0.0) * 1e3,
        iterations / ok.max(1),
        backtracks as f64 / ok.max(1) as f64,
        setup / n as f64 * 1e3,
    );
}

/// The success rate of `ok` runs in `n` as a percentage, with as many
/// decimals as it takes never to print 100 % for a rate below it (498 of
/// 500 is "99.6 %", not "100 %"), and the counts when some failed.
fn fmt_success(ok: usize, n: usize) -> String {
    if ok == n {
        return "100 %".to_owned();
    }
    let rate = 100.0 * ok as f64 / n as f64;
    let mut decimals = 0;
    while decimals < 3 && format!("{rate:.decimals$}") == format!("{:.decimals$}", 100.0) {
        decimals += 1;
    }
    format!("{rate:.decimals$} % ({ok} of {n})")
}

/// A count per run: whole when every run had the same, else one decimal.
fn fmt_mean(total: usize, n: usize) -> String {
    if total % n == 0 {
        (total / n).to_string()
    } else {
        format!("{:.1}", total as f64 / n as f64)
    }
}
