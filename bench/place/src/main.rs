//! levelgraph's content placement side by side with clingo on an
//! equivalent answer-set encoding (placement.lp), in one run.
//!
//! ```sh
//! cargo run --release --manifest-path bench/place/Cargo.toml              # the benchmark
//! cargo run --release --manifest-path bench/place/Cargo.toml -- cross     # exhaustive agreement on small levels
//! cargo run --release --manifest-path bench/place/Cargo.toml -- facts 100 8 [ekn]  # one problem's facts
//! cargo run --release --manifest-path bench/place/Cargo.toml -- profile 100 8 [ekn] # where the time goes
//! ```
//!
//! Options: `--sizes 20,50,100,200`, `--keys 2,4,8`, `--rounds N`
//! (default 5), `--seed N` (levels and placements, default 1),
//! `--cross-seeds N` (default 300), `--cross-max N` (the most placements
//! asked of each side per cross-check problem, default 20000), `--clingo
//! PATH`.
//!
//! Progress goes to stderr, the Markdown table to stdout.

mod check;
mod clingo;
mod facts;
mod level;
mod read;
mod rust_side;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use levelgraph::grammar::place::PlaceSpec;
use levelgraph::grammar::play::PlaySpec;
use levelgraph::graph::Graph;
use levelgraph::place::Status;

use check::Placement;
use clingo::Clingo;
use level::{Rng, Shape};
use read::Reading;
use rust_side::{Side, Table};

const USAGE: &str = "usage: levelgraph-place-bench [bench|cross|facts N K [ekn]|profile N K [ekn]] \
[--sizes N,N,...] [--keys K,K,...] [--rounds N] [--seed N] [--cross-seeds N] [--cross-max N] [--clingo PATH]";

/// Seconds per call of `f`: one untimed warm-up call, then `rounds` rounds
/// of as many calls as make a round last 50 ms (at least one); the median
/// round. (bench/peers/src/harness.rs, cut down.)
fn time<F: FnMut()>(rounds: usize, mut f: F) -> f64 {
    let start = Instant::now();
    f();
    let warm = start.elapsed().max(Duration::from_nanos(1));
    let calls = ((0.05 / warm.as_secs_f64()).ceil() as usize).max(1);
    let mut per_call: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_secs_f64() / calls as f64
        })
        .collect();
    per_call.sort_by(|a, b| a.partial_cmp(b).unwrap());
    per_call[per_call.len() / 2]
}

fn ms(s: f64) -> String {
    if s >= 0.1 {
        format!("{:.0}", s * 1e3)
    } else if s >= 0.01 {
        format!("{:.1}", s * 1e3)
    } else {
        format!("{:.2}", s * 1e3)
    }
}

fn ratio(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}×")
    } else if r >= 1.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.2}×")
    }
}

/// The facts of a problem, written to a file for clingo.
fn write_facts(dir: &std::path::Path, name: &str, r: &Reading) -> PathBuf {
    std::fs::create_dir_all(dir).expect("a facts directory");
    let path = dir.join(format!("{name}.lp"));
    std::fs::write(&path, facts::write(r)).expect("facts written");
    path
}

/// The table from clingo's brave and cautious consequences: per content,
/// per place.
fn clingo_table(r: &Reading, brave: &[String], cautious: &[String]) -> Table {
    let mut t = vec![vec![Status::Impossible; r.places.len()]; r.contents.len()];
    for a in brave {
        let (c, p) = clingo::parse_at(r, a);
        t[c][p] = Status::Possible;
    }
    for a in cautious {
        let (c, p) = clingo::parse_at(r, a);
        t[c][p] = Status::Necessary;
    }
    t
}

/// The first difference of two tables, in words.
fn table_difference(r: &Reading, a: &Table, b: &Table) -> Option<String> {
    for c in 0..r.contents.len() {
        for p in 0..r.places.len() {
            if a[c][p] != b[c][p] {
                return Some(format!(
                    "{} in {}: clingo {}, levelgraph {}",
                    r.contents[c].kind.term(),
                    r.places[p].0,
                    a[c][p].word(),
                    b[c][p].word()
                ));
            }
        }
    }
    None
}

/// Every placement lies within the table: its atoms possible or
/// necessary, and every necessary atom in it.
fn within_table(r: &Reading, t: &Table, pl: &Placement) -> Result<(), String> {
    for c in 0..r.contents.len() {
        for p in 0..r.places.len() {
            let here = pl[c].contains(&p);
            match (t[c][p], here) {
                (Status::Impossible, true) | (Status::Necessary, false) => {
                    return Err(format!(
                        "{} in {}: {} by the table, {}in the placement",
                        r.contents[c].kind.term(),
                        r.places[p].0,
                        t[c][p].word(),
                        if here { "" } else { "not " }
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Checks one placement with the benchmark's checker and levelgraph's.
fn check_placement(
    who: &str,
    r: &Reading,
    side: &Side,
    play: &PlaySpec,
    pl: &Placement,
) -> Result<(), String> {
    check::check(r, pl).map_err(|e| format!("a {who} placement breaks the semantics: {e}"))?;
    let v = side.violations(play, pl);
    if !v.is_empty() {
        return Err(format!(
            "a {who} placement breaks levelgraph's check: {}",
            v.join("; ")
        ));
    }
    Ok(())
}

/// clingo's options for diverse placements: record each model as a
/// nogood and restart after it, with random signs and 30 % random
/// decisions. Plain `-n 100` (backtracking enumeration) gives
/// neighbouring answers that differ in one or two pieces.
const DIVERSE: [&str; 4] = [
    "--enum-mode=record",
    "--restart-on-model",
    "--sign-def=rnd",
    "--rand-freq=0.3",
];

/// The mean, over pairs of placements, of the pieces placed differently
/// (half the symmetric difference of their (content, place) pairs).
fn diversity(pls: &[Placement]) -> f64 {
    let mut sum = 0usize;
    let mut pairs = 0usize;
    for (i, a) in pls.iter().enumerate() {
        for b in &pls[i + 1..] {
            for (x, y) in a.iter().zip(b) {
                sum += x.iter().filter(|p| !y.contains(p)).count();
                sum += y.iter().filter(|p| !x.contains(p)).count();
            }
            pairs += 1;
        }
    }
    if pairs == 0 {
        0.0
    } else {
        sum as f64 / 2.0 / pairs as f64
    }
}

/// What one problem's comparison found.
struct Compared {
    sat: bool,
    /// Placements each side gave for `-n 100` (all there are if fewer).
    hundred: usize,
    exhausted: bool,
    /// Mean pieces moved between two of the 100: clingo backtracking,
    /// clingo diverse, levelgraph.
    diversity: [f64; 3],
}

/// Runs both solvers on one problem every way and asserts that they agree:
/// the same satisfiability, every placement valid by the benchmark's
/// checker and levelgraph's, distinct placements (the same set when both
/// give all there are), equal tables, placements within the table.
fn compare(
    clingo: &Clingo,
    facts: &std::path::Path,
    r: &Reading,
    side: &Side,
    play: &PlaySpec,
    seed: u64,
    n: usize,
) -> Result<Compared, String> {
    let first_c = clingo.run(facts, &["-n", "1"]);
    let first_r = side.placements(seed, 1);
    if first_c.satisfiable != !first_r.is_empty() {
        return Err(format!(
            "satisfiability: clingo {}, levelgraph {}",
            first_c.satisfiable,
            !first_r.is_empty()
        ));
    }
    let seed_arg = format!("--seed={seed}");
    let n_arg = if n >= 1 << 40 {
        "0".to_owned()
    } else {
        n.to_string()
    };
    let many_c = clingo.run(facts, &["-n", &n_arg, &seed_arg, "--sign-def=rnd"]);
    // At most 100: recording every model as a nogood and restarting
    // after each is slow for the cross-check's thousands.
    let n_diverse = n.min(100);
    let n_diverse_arg = n_diverse.to_string();
    let mut diverse_args = vec!["-n", &n_diverse_arg, &seed_arg];
    diverse_args.extend(DIVERSE);
    let diverse_c = clingo.run(facts, &diverse_args);
    let many_r = side.placements(seed, n);
    let pls_c: Vec<Placement> = many_c
        .answers
        .iter()
        .map(|a| clingo::placement(r, a))
        .collect();
    let pls_d: Vec<Placement> = diverse_c
        .answers
        .iter()
        .map(|a| clingo::placement(r, a))
        .collect();
    for pl in first_c
        .answers
        .iter()
        .map(|a| clingo::placement(r, a))
        .chain(pls_c.iter().cloned())
        .chain(pls_d.iter().cloned())
    {
        check_placement("clingo", r, side, play, &pl)?;
    }
    let set_d: BTreeSet<&Placement> = pls_d.iter().collect();
    if set_d.len() != pls_d.len() || pls_d.len() != pls_c.len().min(n_diverse) {
        return Err(format!(
            "clingo's diverse run: {} distinct of {}, backtracking {}",
            set_d.len(),
            pls_d.len(),
            pls_c.len()
        ));
    }
    for pl in first_r.iter().chain(&many_r) {
        check_placement("levelgraph", r, side, play, pl)?;
    }
    let set_c: BTreeSet<&Placement> = pls_c.iter().collect();
    let set_r: BTreeSet<&Placement> = many_r.iter().collect();
    if set_c.len() != pls_c.len() || set_r.len() != many_r.len() {
        return Err(format!(
            "repeated placements: clingo {} of {}, levelgraph {} of {}",
            set_c.len(),
            pls_c.len(),
            set_r.len(),
            many_r.len()
        ));
    }
    let exhausted = pls_c.len() < n || many_r.len() < n;
    if exhausted && set_c != set_r {
        return Err(format!(
            "all placements: clingo {} (exhausted: {}), levelgraph {}, {} in common",
            set_c.len(),
            many_c.exhausted,
            set_r.len(),
            set_c.intersection(&set_r).count()
        ));
    }
    let table_r = side.table();
    let table_c = if first_c.satisfiable {
        let brave = clingo.run(facts, &["--enum-mode=brave", "0"]);
        let cautious = clingo.run(facts, &["--enum-mode=cautious", "0"]);
        Some(clingo_table(
            r,
            brave.answers.last().map_or(&[][..], |a| a),
            cautious.answers.last().map_or(&[][..], |a| a),
        ))
    } else {
        None
    };
    match (&table_c, &table_r) {
        (Some(a), Some(b)) => {
            if let Some(d) = table_difference(r, a, b) {
                return Err(format!("tables differ: {d}"));
            }
            for pl in pls_c.iter().chain(&many_r) {
                within_table(r, a, pl)?;
            }
        }
        (None, None) => {}
        _ => return Err("tables: one side found none".into()),
    }
    Ok(Compared {
        sat: first_c.satisfiable,
        hundred: pls_c.len(),
        exhausted,
        diversity: [diversity(&pls_c), diversity(&pls_d), diversity(&many_r)],
    })
}

/// clingo's ground size: (atoms, rules) of the program, and the solver's
/// (variables, constraints).
fn ground_size(clingo: &Clingo, facts: &std::path::Path) -> (u64, u64, u64, u64) {
    let out = std::process::Command::new(&clingo.program)
        .arg(&clingo.encoding)
        .arg(facts)
        .args(["--outf=2", "--stats", "-n", "1"])
        .output()
        .expect("clingo runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let lp = &json["Stats"]["LP"];
    let pb = &json["Stats"]["Problem"];
    (
        lp["Atoms"].as_u64().unwrap_or(0),
        lp["Rules"]["Original"].as_u64().unwrap_or(0),
        pb["Variables"].as_u64().unwrap_or(0),
        pb["Constraints"]["Sum"].as_u64().unwrap_or(0),
    )
}

struct Options {
    sizes: Vec<usize>,
    keys: Vec<usize>,
    rounds: usize,
    seed: u64,
    cross_seeds: u64,
    /// The most placements the cross-check asks of each side per problem.
    cross_max: usize,
    facts_dir: PathBuf,
}

struct Row {
    places: usize,
    keys: usize,
    ekn: bool,
    compared: Compared,
    ground: (u64, u64, u64, u64),
    size: (u32, usize, usize),
    /// First, 100 diverse, table.
    clingo: [f64; 3],
    /// 100 by backtracking enumeration.
    clingo_bt: f64,
    rust: [f64; 3],
}

fn bench(clingo: &Clingo, o: &Options) -> Result<Vec<Row>, String> {
    let play = level::play_spec();
    let mut rows = Vec::new();
    for &n in &o.sizes {
        for &k in &o.keys {
            let graph = level::generate(Shape::plain(n, k), o.seed * 1000 + (n * 10 + k) as u64);
            for ekn in [false, true] {
                let name = format!("n{n}-k{k}{}", if ekn { "-ekn" } else { "" });
                eprintln!("{name}: checking agreement");
                let spec = level::place_spec(ekn);
                let r = Reading::new(&graph, &play, &spec).map_err(|e| format!("{name}: {e}"))?;

                let facts = write_facts(&o.facts_dir, &name, &r);
                let side =
                    Side::new(&graph, &play, &spec, &r).map_err(|e| format!("{name}: {e}"))?;
                let compared = compare(clingo, &facts, &r, &side, &play, o.seed, 100)
                    .map_err(|e| format!("{name}: {e}"))?;
                let ground = ground_size(clingo, &facts);
                let size = side.size();
                eprintln!("{name}: timing");
                let seed_arg = format!("--seed={}", o.seed);
                let c_first = time(o.rounds, || {
                    clingo.run(&facts, &["-n", "1"]);
                });
                let c_hundred = time(o.rounds, || {
                    clingo.run(&facts, &["-n", "100", &seed_arg, "--sign-def=rnd"]);
                });
                let mut diverse_args = vec!["-n", "100", &seed_arg];
                diverse_args.extend(DIVERSE);
                let c_diverse = time(o.rounds, || {
                    clingo.run(&facts, &diverse_args);
                });
                let c_table = time(o.rounds, || {
                    clingo.run(&facts, &["--enum-mode=brave", "0"]);
                    clingo.run(&facts, &["--enum-mode=cautious", "0"]);
                });
                // levelgraph's own API, from the graph: no conversion to
                // the benchmark's naming inside the timed calls.
                use levelgraph::place::{analyze, Placer, Problem};
                let new = || Problem::new(&graph, &play, &spec).expect("checked above");
                let placements = |m: usize| {
                    let problem = new();
                    let mut placer = Placer::new(&problem, o.seed);
                    std::hint::black_box(placer.placements(m).ok());
                };
                let r_first = time(o.rounds, || placements(1));
                let r_hundred = time(o.rounds, || placements(100));
                let r_table = time(o.rounds, || {
                    std::hint::black_box(analyze(&new()).ok());
                });
                rows.push(Row {
                    places: n,
                    keys: k,
                    ekn,
                    compared,
                    ground,
                    size,
                    clingo: [c_first, c_diverse, c_table],
                    clingo_bt: c_hundred,
                    rust: [r_first, r_hundred, r_table],
                });
            }
        }
    }
    Ok(rows)
}

fn print_rows(rows: &[Row]) {
    let head = |r: &Row| {
        vec![
            r.places.to_string(),
            r.keys.to_string(),
            if r.ekn { "yes" } else { "no" }.to_owned(),
        ]
    };
    println!("### Problems\n");
    println!(
        "| rooms | keys | every key needed | placements | clingo ground: atoms / rules → solver vars / constraints | levelgraph CNF: vars / clauses, zones | pieces moved between two of the 100: clingo `-n 100` / clingo diverse / levelgraph |"
    );
    println!("|---:|---:|:---:|---:|---:|---:|---:|");
    for row in rows {
        let placements = if !row.compared.sat {
            "none".to_owned()
        } else if row.compared.exhausted {
            format!("all {}", row.compared.hundred)
        } else {
            row.compared.hundred.to_string()
        };
        let d = row.compared.diversity;
        let mut cells = head(row);
        cells.extend([
            placements,
            format!(
                "{} / {} → {} / {}",
                row.ground.0, row.ground.1, row.ground.2, row.ground.3
            ),
            format!("{} / {}, {}", row.size.0, row.size.1, row.size.2),
            format!("{:.1} / {:.1} / {:.1}", d[0], d[1], d[2]),
        ]);
        println!("| {} |", cells.join(" | "));
    }
    println!("\n### Times (ms) and speed-up (clingo / levelgraph; bold under 5×)\n");
    println!(
        "| rooms | keys | every key needed | first: clingo | levelgraph | ratio | 100: clingo `-n 100` | clingo diverse | levelgraph | ratio (diverse) | table: clingo | levelgraph | ratio |"
    );
    println!("|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        let mut cells = head(row);
        for i in 0..3 {
            let q = row.clingo[i] / row.rust[i];
            cells.push(ms(row.clingo[i]));
            if i == 1 {
                cells.insert(cells.len() - 1, ms(row.clingo_bt));
            }
            cells.push(ms(row.rust[i]));
            cells.push(if q < 5.0 {
                format!("**{}**", ratio(q))
            } else {
                ratio(q)
            });
        }
        println!("| {} |", cells.join(" | "));
    }
    println!();
    let met = |i: usize| {
        rows.iter()
            .filter(|r| r.clingo[i] / r.rust[i] >= 5.0)
            .count()
    };
    let all = rows
        .iter()
        .filter(|r| (0..3).all(|i| r.clingo[i] / r.rust[i] >= 5.0))
        .count();
    println!(
        "Target, levelgraph at least 5× faster than clingo: first placement on {} of {n} rows, 100 placements (against clingo's diverse run) on {}, the table on {}; all three on {all}.",
        met(0),
        met(1),
        met(2),
        n = rows.len()
    );
    for row in rows.iter().filter(|r| r.places == 100 && r.keys == 8) {
        println!(
            "Table at 100 rooms × 8 keys{}: {} ms (target: under 1 s).",
            if row.ekn { ", every key needed" } else { "" },
            ms(row.rust[2])
        );
    }
}

/// A random `place` block for the cross-check, over what `shape` allows.
fn random_spec(rng: &mut Rng, shape: &Shape) -> PlaceSpec {
    use levelgraph::grammar::place::{Anchor, Count, Distance, Placed};
    let mut spec = PlaceSpec::default();
    let room = || vec!["room".to_owned()];
    if !shape.keys {
        let mut keys = Placed::default();
        if rng.chance(0.6) {
            keys.rooms = room();
        }
        keys.lock_first = rng.chance(0.5);
        if rng.chance(0.2) {
            keys.distance.push(Distance {
                from: Anchor::Lock,
                min: 0,
                max: Some(1 + rng.below(3) as u32),
            });
        }
        spec.keys = Some(keys);
    }
    if shape.no_ends {
        spec.entrance = Some(Placed {
            rooms: room(),
            ..Placed::default()
        });
        spec.goal = Some(Placed {
            rooms: room(),
            distance: vec![Distance {
                from: Anchor::Entrance,
                min: 2 + rng.below(3) as u32,
                max: None,
            }],
            ..Placed::default()
        });
    }
    let min = rng.below(3) as u32;
    let mut potion = Placed {
        tag: Some("potion".into()),
        count: Some(Count {
            min,
            max: min + rng.below(3) as u32,
        }),
        ..Placed::default()
    };
    if rng.chance(0.7) {
        potion.rooms = room();
    }
    if rng.chance(0.5) {
        potion.not_with.push("key".into());
    }
    if rng.chance(0.3) {
        potion.not_with.push("entrance".into());
    }
    if rng.chance(0.2) {
        potion.distance.push(Distance {
            from: Anchor::Entrance,
            min: 1 + rng.below(2) as u32,
            max: None,
        });
    }
    spec.items.push(potion);
    if rng.chance(0.7) {
        let mut boss = Placed {
            tag: Some("boss".into()),
            alone: rng.chance(0.6),
            ..Placed::default()
        };
        if rng.chance(0.7) {
            boss.rooms = room();
        }
        if rng.chance(0.7) {
            let d = rng.below(3) as u32;
            boss.distance.push(Distance {
                from: Anchor::Goal,
                min: d,
                max: Some(d + rng.below(2) as u32),
            });
        }
        spec.items.push(boss);
    }
    spec.every_key_needed = shape.locks > 0 && rng.chance(0.3);
    spec
}

/// The `play` block of a cross-check level: examples/default.lg's, or
/// with locked doors `key key opens -[locked]->` (one key opens every
/// door).
fn cross_play(shape: &Shape) -> PlaySpec {
    let mut play = level::play_spec();
    if shape.doors {
        play.keys = serde_json::from_str(
            r#"[{"key": {"tags": ["key"]}, "opens": {"door": {"label": "locked", "directed": true}}}]"#,
        )
        .expect("a key statement");
    }
    play
}

/// Small random levels and specs, every placement enumerated by both
/// solvers (clingo `-n 0`, levelgraph's placer until it has no more) and
/// compared as sets, with the tables.
fn cross(clingo: &Clingo, o: &Options) -> Result<(), String> {
    let mut kinds = [0usize; 4];
    let mut unsat = 0;
    let mut capped = 0;
    let mut total = 0usize;
    for seed in 1..=o.cross_seeds {
        let mut rng = Rng::new(seed * 7919);
        let mut shape = Shape::plain(0, rng.below(4));
        shape.side = 0.5;
        shape.cycles = 0.15;
        let variant = rng.below(4);
        match variant {
            1 => shape.doors = shape.locks > 0,
            2 => shape.keys = shape.locks > 0,
            3 => shape.no_ends = true,
            _ => {}
        }
        let lock_places = if shape.doors { 0 } else { shape.locks };
        shape.places = lock_places + shape.locks + 3 + rng.below(6);
        let graph: Graph = level::generate(shape, seed);
        let play = cross_play(&shape);
        let spec = random_spec(&mut rng, &shape);
        let name = format!("cross-{seed}");
        let r = Reading::new(&graph, &play, &spec).map_err(|e| format!("{name}: {e}"))?;

        let facts = write_facts(&o.facts_dir, &name, &r);
        let side = Side::new(&graph, &play, &spec, &r).map_err(|e| format!("{name}: {e}"))?;
        let c = compare(clingo, &facts, &r, &side, &play, seed, o.cross_max).map_err(|e| {
            format!(
                "{name} ({}): {e}\nspec: {}",
                facts.display(),
                serde_json::to_string(&spec).unwrap()
            )
        })?;
        kinds[variant] += 1;
        unsat += usize::from(!c.sat);
        capped += usize::from(!c.exhausted);
        total += c.hundred;
        eprint!(".");
    }
    eprintln!();
    println!(
        "cross-check: {} problems (locked rooms {}, doors {}, kept keys {}, placed entrance and goal {}), \
         {unsat} without a placement, {capped} with {} or more (compared on {} each and on the table), \
         {total} placements in all: clingo and levelgraph agree on every one.",
        o.cross_seeds, kinds[0], kinds[1], kinds[2], kinds[3], o.cross_max, o.cross_max
    );
    Ok(())
}

/// Where the time of one problem goes, on both sides (`profile N K [ekn]`).
fn profile(clingo: &Clingo, o: &Options, n: usize, k: usize, ekn: bool) -> Result<(), String> {
    use levelgraph::place::{analyze, Placer, Problem};
    let play = level::play_spec();
    let spec = level::place_spec(ekn);
    let graph = level::generate(Shape::plain(n, k), o.seed * 1000 + (n * 10 + k) as u64);
    let r = Reading::new(&graph, &play, &spec)?;
    let name = format!("profile-n{n}-k{k}{}", if ekn { "-ekn" } else { "" });
    let facts = write_facts(&o.facts_dir, &name, &r);
    println!("{name}: {}", facts.display());
    let t_problem = time(o.rounds, || {
        std::hint::black_box(Problem::new(&graph, &play, &spec).unwrap());
    });
    let problem = Problem::new(&graph, &play, &spec).unwrap();
    let t_encode = time(o.rounds, || {
        std::hint::black_box(Placer::new(&problem, o.seed));
    });
    let placer = Placer::new(&problem, o.seed);
    let (vars, clauses, zones) = placer.size();
    let by = match placer.unrolled_by() {
        None => "minimal lock sets".to_owned(),
        Some(limit) => format!("steps ({limit})"),
    };
    println!(
        "levelgraph: Problem::new {} ms; Placer::new (encode, load) {} ms: {vars} variables, {clauses} clauses, {zones} zones, reachability by {by}",
        ms(t_problem),
        ms(t_encode)
    );
    for m in [1usize, 100] {
        let mut calls = 0;
        let t = time(o.rounds, || {
            let mut placer = Placer::new(&problem, o.seed);
            std::hint::black_box(placer.placements(m).ok());
            calls = placer.solver_calls();
        });
        println!(
            "levelgraph: {m} placements {} ms with encoding, {} ms without; {calls} solver calls",
            ms(t),
            ms(t - t_encode)
        );
    }
    let mut calls = (0, 0);
    let t = time(o.rounds, || {
        if let Ok(a) = analyze(&problem) {
            calls = (a.solver_calls, a.naive_calls);
        }
    });
    println!(
        "levelgraph: analyze {} ms with encoding, {} ms without; {} solver calls (naive: {})",
        ms(t),
        ms(t - t_encode),
        calls.0,
        calls.1
    );
    for args in [
        &["-n", "1"][..],
        &["-n", "100", "--sign-def=rnd"][..],
        &[
            "-n",
            "100",
            "--enum-mode=record",
            "--restart-on-model",
            "--sign-def=rnd",
            "--rand-freq=0.3",
        ][..],
        &["--enum-mode=brave", "0"][..],
        &["--enum-mode=cautious", "0"][..],
    ] {
        let out = std::process::Command::new(&clingo.program)
            .arg(&clingo.encoding)
            .arg(&facts)
            .args(["--outf=2", "--stats"])
            .args(args)
            .output()
            .expect("clingo runs");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let t = &json["Time"];
        let total = t["Total"].as_f64().unwrap_or(0.0);
        let solve = t["Solve"].as_f64().unwrap_or(0.0);
        let wall = time(o.rounds, || {
            clingo.run(&facts, args);
        });
        println!(
            "clingo {}: {} ms as a process; its own total {} ms, of which solving {} ms, models {}",
            args.join(" "),
            ms(wall),
            ms(total),
            ms(solve),
            json["Models"]["Number"]
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut which = "bench".to_owned();
    let mut positional: Vec<String> = Vec::new();
    let mut o = Options {
        sizes: vec![20, 50, 100, 200],
        keys: vec![2, 4, 8],
        rounds: 5,
        seed: 1,
        cross_seeds: 300,
        cross_max: 20_000,
        // One directory per run: runs side by side do not share files.
        facts_dir: std::env::temp_dir()
            .join(format!("levelgraph-place-bench-{}", std::process::id())),
    };
    let mut clingo = Clingo::new();
    let mut args = std::env::args().skip(1);
    let list = |v: Option<String>| -> Option<Vec<usize>> {
        v?.split(',').map(|x| x.trim().parse().ok()).collect()
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "bench" | "cross" | "facts" | "profile" => which = a,
            "--sizes" => match list(args.next()) {
                Some(v) if !v.is_empty() => o.sizes = v,
                _ => {
                    eprintln!("--sizes needs numbers like 20,50\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--keys" => match list(args.next()) {
                Some(v) if !v.is_empty() => o.keys = v,
                _ => {
                    eprintln!("--keys needs numbers like 2,4\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--rounds" | "--seed" | "--cross-seeds" | "--cross-max" => {
                let Some(v) = args
                    .next()
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|&v| v > 0)
                else {
                    eprintln!("{a} needs a positive number\n{USAGE}");
                    return ExitCode::from(2);
                };
                match a.as_str() {
                    "--rounds" => o.rounds = v as usize,
                    "--seed" => o.seed = v,
                    "--cross-max" => o.cross_max = v as usize,
                    _ => o.cross_seeds = v,
                }
            }
            "--clingo" => match args.next() {
                Some(p) => clingo.program = PathBuf::from(p),
                None => {
                    eprintln!("--clingo needs a path\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if which == "facts" || which == "profile" => positional.push(a),
            _ => {
                eprintln!("unknown argument `{a}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let result = match which.as_str() {
        "facts" => {
            let n = positional.first().and_then(|v| v.parse().ok()).unwrap_or(100);
            let k = positional.get(1).and_then(|v| v.parse().ok()).unwrap_or(8);
            let ekn = positional.get(2).is_some_and(|v| v == "ekn");
            let graph = level::generate(Shape::plain(n, k), o.seed * 1000 + (n * 10 + k) as u64);
            let spec = level::place_spec(ekn);
            Reading::new(&graph, &level::play_spec(), &spec).map(|r| {
                print!("{}", facts::write(&r))
            })
        }
        "cross" => cross(&clingo, &o),
        "profile" => {
            let n = positional.first().and_then(|v| v.parse().ok()).unwrap_or(100);
            let k = positional.get(1).and_then(|v| v.parse().ok()).unwrap_or(8);
            let ekn = positional.get(2).is_some_and(|v| v == "ekn");
            profile(&clingo, &o, n, k, ekn)
        }
        _ => bench(&clingo, &o).map(|rows| {
            println!("# Content placement: levelgraph vs clingo 5 (placement.lp)\n");
            println!(
                "Levels: seeded random, locked rooms (`key key opens lock via ~>`), a fifth of the locks off the way to the goal; \
                 spec `keys in room lock first` + `item potion count 2..4 in room not with key` + \
                 `item boss in room distance from goal 1 alone` (+ `every key needed`). \
                 Times: median of {} rounds; clingo as whole processes (`-n 1`; `-n 100 --seed={} --sign-def=rnd`, and diverse: the same with `{}`; \
                 `--enum-mode=brave 0` plus `--enum-mode=cautious 0`), levelgraph from the graph \
                 (`Problem::new` and the placer or `analyze`). Both sides' answers checked equal before timing.\n",
                o.rounds, o.seed, DIVERSE.join(" ")
            );
            print_rows(&rows);
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
