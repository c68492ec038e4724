//! Varró mutex benchmark, short transformation sequence (STS): Varró,
//! Schürr and Varró, "Benchmarking for Graph Transformation" (VL/HCC 2005).
//!
//! N processes on a ring of `next` edges share one resource. The grammar
//! (generated per N by [`grammar_text`]) builds the ring with a start rule
//! and `newRule`, mounts the resource with a `token` edge (`mountRule`),
//! lets every process `request` it (`requestRule`), then passes the token
//! once round the ring: `takeRule`, `releaseRule`, `giveRule` N times each.
//! The last stage is one recipe stage `takeRule | releaseRule | giveRule 3N`;
//! it works because exactly one of the three rules has a match at any time,
//! which [`check`] verifies on the trace.
//!
//! A small harness (no criterion). It first checks small rings (N = 2, 3,
//! 5, 100) in process: final graph and the whole trace. Then it times N =
//! 1,000, 10,000, 100,000 and 1,000,000, each in a child process (this
//! binary run again with `--child N`) so that a run that would take hours
//! can be killed. It stops going up after the first N that takes longer
//! than the budget. Run with `cargo bench -p levelgraph --bench mutex`;
//! figures go to BENCHMARKS.md.
//!
//! Environment: `MUTEX_BUDGET_S` (default 60): stop after an N slower than
//! this; `MUTEX_KILL_S` (default 600): kill a child running longer than
//! this; `MUTEX_N` (e.g. `1000,10000`): the sizes to time instead of the
//! default ones.

mod support;

use std::hint::black_box;
use std::time::Instant;

use levelgraph::grammar;
use levelgraph::{Derivation, Graph, VertexId};

/// Sizes timed by default.
const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// Sizes checked (final graph and trace) before timing.
const CHECKED: [usize; 4] = [2, 3, 5, 100];
/// Sizes on which [`exactly_one_applies`] is checked.
const EXCLUSIVE: [usize; 3] = [2, 5, 30];
/// Seeds of the checks of [`CHECKED`] sizes.
const CHECK_SEEDS: u64 = 10;
/// The seed of every timed derivation (the STS is the same for every seed up to
/// which process gets the resource first).
const SEED: u64 = 1;
/// Rounds of a size whose first run takes under a second (median reported).
const ROUNDS: usize = 5;
/// GrGen.NET's published times for the mutex STS, seconds, by N.
const GRGEN: [(usize, f64); 3] = [(10_000, 0.016), (100_000, 0.313), (1_000_000, 6.0)];

/// The mutex grammar for a ring of `n` processes (`n` ≥ 2).
///
/// Deviation from the paper, forced by our `where not` semantics: a
/// condition's own vertex is never a matched vertex (language reference
/// 7.4), so `where not (p) -[request]-> (m:resource)` cannot see a request
/// from `p` to the matched resource `r` itself. `requestRule` therefore
/// also has `where not (p) -[request]-> (r)`; without it a process could
/// "request" twice (the second edge would be refused as identical).
fn grammar_text(n: usize) -> String {
    let stages: String = phases(n).iter().map(|(_, s)| s.as_str()).collect();
    grammar_with_recipe(n, &stages)
}

/// The recipe's stages for `n` processes, one phase of the STS each:
/// (phase name, stage lines).
fn phases(n: usize) -> Vec<(&'static str, String)> {
    assert!(n >= 2, "a ring needs two processes");
    let mut ring = "  start 1\n".to_owned();
    if n > 2 {
        ring.push_str(&format!("  newRule {}\n", n - 2));
    }
    vec![
        ("start + newRule", ring),
        ("mountRule", "  mountRule 1\n".to_owned()),
        ("requestRule", format!("  requestRule {n}\n")),
        (
            "take | release | give",
            format!("  takeRule | releaseRule | giveRule {}\n", 3 * n),
        ),
    ]
}

/// The mutex grammar's rules with a recipe of `stages` (stage lines).
fn grammar_with_recipe(n: usize, stages: &str) -> String {
    format!(
        r#"grammar "mutex-sts-{n}" {{
  start s
  max_iterations {iterations}
  max_vertices {vertices}
}}

tags {{
  s         "start symbol"
  process   "process"   terminal
  resource  "resource"  terminal
}}

# Two processes on a ring.
rule start {{
  (a:s) => (a:process) -[next]-> (b:process) -[next]-> (a)
}}

rule newRule {{
  (p1:process) -[next]-> (p2:process)
  =>
  (p1) -[next]-> (p:process) -[next]-> (p2)
}}

# One pattern vertex: the lint warns (not context-sensitive); acceptable
# for a benchmark grammar, and it is the paper's rule.
rule mountRule {{
  (p:process) => (r:resource) -[token]-> (p)
}}

rule requestRule {{
  (r:resource), (p:process)
  where not (r) -[held_by]-> (p)
  where not (p) -[request]-> (m:resource)
  where not (p) -[request]-> (r)
  =>
  (p) -[request]-> (r)
}}

rule takeRule {{
  (r:resource) -[token]-> (p:process), (p) -[request]-> (r)
  =>
  (r) -[held_by]-> (p)
}}

rule releaseRule {{
  (r:resource) -[held_by]-> (p:process)
  where not (p) -[request]-> (m:resource)
  =>
  (r) -[release]-> (p)
}}

rule giveRule {{
  (r:resource) -[release]-> (p1:process), (p1) -[next]-> (p2:process)
  =>
  (r) -[token]-> (p2), (p1) -[next]-> (p2)
}}

recipe {{
{stages}}}
"#,
        iterations = 5 * n + 10,
        vertices = n + 10,
    )
}

/// The rule sequence the STS must produce for `n` processes.
fn expected_rule(n: usize, i: usize) -> &'static str {
    let new_end = 1 + (n - 2);
    let request_end = new_end + 1 + n;
    if i == 0 {
        "start"
    } else if i < new_end {
        "newRule"
    } else if i == new_end {
        "mountRule"
    } else if i < request_end {
        "requestRule"
    } else {
        ["takeRule", "releaseRule", "giveRule"][(i - request_end) % 3]
    }
}

/// Outgoing edges of `v` labelled `label`, as target vertices.
fn out_labelled(g: &Graph, v: VertexId, label: &str) -> Vec<VertexId> {
    let Some(sym) = g.labels().get(label) else {
        return Vec::new();
    };
    g.incident_edges(v)
        .filter_map(|e| g.edge(e))
        .filter(|e| e.directed && e.source == v && e.label == Some(sym))
        .map(|e| e.target)
        .collect()
}

/// Checks a finished STS for `n` processes: the trace is the expected rule
/// sequence (so exactly one of take/release/give applied at each step of
/// the last stage, in turn), every process took the resource exactly once,
/// in ring order; the final graph is the ring of `n` processes and `n`
/// `next` edges, one resource, one `token` edge and nothing else.
fn check(n: usize, d: &Derivation) -> Result<(), String> {
    if d.stop.code() != "recipe_complete" {
        return Err(format!("stopped with {}", d.stop));
    }
    let want = 5 * n;
    if d.trace.len() != want || d.skipped != 0 {
        return Err(format!(
            "{} applications and {} skips, want {want} and 0 ({})",
            d.trace.len(),
            d.skipped,
            d.summary()
        ));
    }
    for (i, a) in d.trace.iter().enumerate() {
        let want = expected_rule(n, i);
        if a.rule != want {
            return Err(format!("application {i} is {}, want {want}", a.rule));
        }
    }
    let g = &d.graph;
    let tag = |name: &str| g.tags().get(name).map_or(0, |t| g.vertices_tagged(t).len());
    if g.vertex_count() != n + 1 || tag("process") != n || tag("resource") != 1 {
        return Err(format!(
            "{} vertices ({} processes, {} resources), want {n} processes and 1 resource",
            g.vertex_count(),
            tag("process"),
            tag("resource")
        ));
    }
    // The ring: every process has exactly one outgoing `next`, and
    // following them from one process visits all n before returning.
    let processes = g.vertices_tagged(g.tags().get("process").expect("process tag"));
    let mut next_count = 0;
    for &p in processes {
        let out = out_labelled(g, p, "next");
        if out.len() != 1 {
            return Err(format!("process {} has {} next edges", p.0, out.len()));
        }
        next_count += 1;
    }
    let (first, mut v, mut steps) = (processes[0], processes[0], 0);
    loop {
        v = out_labelled(g, v, "next")[0];
        steps += 1;
        if v == first || steps > n {
            break;
        }
    }
    if steps != n {
        return Err(format!("the next edges do not form one ring of {n}"));
    }
    let r = g.vertices_tagged(g.tags().get("resource").expect("resource tag"))[0];
    let tokens = out_labelled(g, r, "token");
    if tokens.len() != 1 || g.edge_count() != next_count + 1 {
        return Err(format!(
            "{} token edges and {} edges in all, want 1 and {} (no request, held_by or release left)",
            tokens.len(),
            g.edge_count(),
            n + 1
        ));
    }
    // Each take is a new process, and each give hands the token to the
    // next process on the ring, which takes it next.
    let start = 1 + (n - 2) + 1 + n;
    let mut taken: Vec<VertexId> = d
        .trace
        .iter()
        .skip(start)
        .filter(|a| a.rule == "takeRule")
        .map(|a| a.matched[1])
        .collect();
    for (k, give) in d
        .trace
        .iter()
        .skip(start)
        .filter(|a| a.rule == "giveRule")
        .enumerate()
    {
        let (p1, p2) = (give.matched[1], give.matched[2]);
        if p1 != taken[k] || out_labelled(g, p1, "next") != [p2] {
            return Err(format!("give {k} does not pass the token along the ring"));
        }
        if k + 1 < n && taken[k + 1] != p2 {
            return Err(format!(
                "take {} is not at the process given the token",
                k + 1
            ));
        }
    }
    taken.sort_unstable();
    taken.dedup();
    if taken.len() != n {
        return Err(format!(
            "{} distinct processes took the resource, want {n}",
            taken.len()
        ));
    }
    Ok(())
}

/// Checks that at every step of the last stage exactly one of `takeRule`,
/// `releaseRule` and `giveRule` has a match (the one the trace shows), and
/// none after the last: for each k, derives the STS with the last stage
/// cut to k steps, then tries each rule alone on that graph (a one-step
/// recipe from it, which fails when the rule has no match).
fn exactly_one_applies(n: usize) -> Result<(), String> {
    let rules = ["takeRule", "releaseRule", "giveRule"];
    let ring: String = phases(n)[..3].iter().map(|(_, s)| s.as_str()).collect();
    let alone: Vec<_> = rules
        .iter()
        .map(|r| grammar::load(&grammar_with_recipe(n, &format!("  {r} 1\n")), "mutex"))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    for k in 0..=3 * n {
        let stages = format!("{ring}  takeRule | releaseRule | giveRule {k}\n");
        let g =
            grammar::load(&grammar_with_recipe(n, &stages), "mutex").map_err(|e| e.to_string())?;
        let d = levelgraph::derive(&g, SEED).map_err(|e| e.to_string())?;
        let applicable: Vec<&str> = rules
            .iter()
            .zip(&alone)
            .filter(|(_, g)| levelgraph::derive::derive_from(g, d.graph.clone(), SEED).is_ok())
            .map(|(r, _)| *r)
            .collect();
        let want: Vec<&str> = if k < 3 * n {
            vec![rules[k % 3]]
        } else {
            Vec::new()
        };
        if applicable != want {
            return Err(format!(
                "after {k} steps of the last stage {applicable:?} apply, want {want:?}"
            ));
        }
    }
    Ok(())
}

/// Derives the STS for `n` with `seed`: (compile seconds, derive seconds, derivation).
fn run(n: usize, seed: u64) -> (f64, f64, Derivation) {
    let text = grammar_text(n);
    let t = Instant::now();
    let g = grammar::load(&text, "mutex").expect("the mutex grammar compiles");
    let compile = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let d = levelgraph::derive(black_box(&g), black_box(seed)).expect("the STS derives");
    let derive = t.elapsed().as_secs_f64();
    (compile, derive, d)
}

/// Child mode, `--child N`: time the STS for N and print `RESULT n
/// compile_s derive_s applications fastest_s slowest_s rounds`. A run
/// under a second is repeated (`ROUNDS` in all) and the median reported.
fn child(n: usize) {
    let (compile, first, d) = run(n, SEED);
    if let Err(e) = check(n, &d) {
        eprintln!("N = {n}: wrong result: {e}");
        std::process::exit(3);
    }
    let applications = d.trace.len();
    // Freeing a large graph and trace is not part of the derivation.
    std::mem::forget(d);
    let mut times = vec![first];
    if first < 1.0 {
        while times.len() < ROUNDS {
            let (_, t, d) = run(n, SEED);
            drop(black_box(d));
            times.push(t);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "RESULT {n} {compile} {} {applications} {} {} {}",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len()
    );
}

/// Child mode, `--phases N`: the STS phase by phase, each phase a
/// derivation (its stage alone) from the graph the previous one left
/// (`derive_from`); prints `PHASE n name seconds applications` per phase.
fn child_phases(n: usize) {
    let mut host: Option<Graph> = None;
    let mut trace: Option<levelgraph::derive::Trace> = None;
    let mut last = None;
    for (name, stages) in phases(n) {
        let g = grammar::load(&grammar_with_recipe(n, &stages), "mutex").expect("compiles");
        let t = Instant::now();
        let d = match host.take() {
            None => levelgraph::derive(&g, SEED),
            Some(h) => levelgraph::derive::derive_from(&g, h, SEED),
        }
        .expect("the phase derives");
        let seconds = t.elapsed().as_secs_f64();
        println!("PHASE {n} {name} {seconds} {}", d.trace.len());
        host = Some(d.graph.clone());
        match &mut trace {
            None => trace = Some(d.trace.clone()),
            Some(t) => t.append(&d.trace),
        }
        last = Some(d);
    }
    let mut d = last.expect("four phases");
    d.trace = trace.expect("four phases");
    if let Err(e) = check(n, &d) {
        eprintln!("N = {n} by phases: wrong result: {e}");
        std::process::exit(3);
    }
}

/// What a child reports for one N.
struct Timing {
    compile: f64,
    /// Median of the rounds.
    derive: f64,
    applications: usize,
    fastest: f64,
    slowest: f64,
    rounds: usize,
}

/// Times the whole STS for `n` in a child.
fn time_in_child(n: usize, kill_after: f64) -> Result<Timing, String> {
    let text = support::run_child(&["--child".to_owned(), n.to_string()], kill_after)?;
    let line = text
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .ok_or("no RESULT line")?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let num = |i: usize| f[i].parse::<f64>().map_err(|e| e.to_string());
    Ok(Timing {
        compile: num(2)?,
        derive: num(3)?,
        applications: num(4)? as usize,
        fastest: num(5)?,
        slowest: num(6)?,
        rounds: num(7)? as usize,
    })
}

/// Times the STS for `n` phase by phase in a child: (phase, s, applications).
fn phases_in_child(n: usize, kill_after: f64) -> Result<Vec<(String, f64, usize)>, String> {
    let text = support::run_child(&["--phases".to_owned(), n.to_string()], kill_after)?;
    text.lines()
        .filter_map(|l| l.strip_prefix("PHASE "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let k = f.len();
            let seconds = f[k - 2].parse::<f64>().map_err(|e| e.to_string())?;
            let applications = f[k - 1].parse::<usize>().map_err(|e| e.to_string())?;
            Ok((f[1..k - 2].join(" "), seconds, applications))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        let n = args[i + 1].parse().expect("--child N");
        child(n);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--phases") {
        let n = args[i + 1].parse().expect("--phases N");
        child_phases(n);
        return;
    }
    let budget = support::env_secs("MUTEX_BUDGET_S", 60.0);
    let kill_after = support::env_secs("MUTEX_KILL_S", 600.0).max(budget);
    let sizes = support::env_sizes("MUTEX_N", &SIZES);

    for n in CHECKED {
        for seed in 1..=CHECK_SEEDS {
            let (_, _, d) = run(n, seed);
            if let Err(e) = check(n, &d) {
                panic!("check N = {n}, seed {seed}: {e}");
            }
        }
        println!(
            "check N = {n}: seeds 1..={CHECK_SEEDS}: final graph and trace ok ({} applications, recipe complete)",
            5 * n
        );
    }
    for n in EXCLUSIVE {
        match exactly_one_applies(n) {
            Ok(()) => println!(
                "check N = {n}: at each of the {} steps of the last stage exactly one rule applies, none after",
                3 * n
            ),
            Err(e) => panic!("check N = {n}: {e}"),
        }
    }
    let lint = levelgraph::lint::lint(&grammar::load(&grammar_text(5), "mutex").expect("compiles"));
    for finding in &lint {
        println!("lint (N = 5): {finding}");
    }
    println!();
    if let Some(load) = support::load_average() {
        println!("load average before timing: {load}");
    }
    println!("budget {budget:.0} s (stop going up after an N slower than this), kill at {kill_after:.0} s");
    println!(
        "N         | applications | derive s (median)  | fastest..slowest (rounds) | µs / application | compile ms | GrGen.NET s | ratio to GrGen"
    );
    println!(
        "----------|--------------|--------------------|---------------------------|------------------|------------|-------------|---------------"
    );
    let mut previous: Option<(usize, f64)> = None;
    let mut within_budget = Vec::new();
    for n in sizes {
        match time_in_child(n, kill_after) {
            Ok(t) => {
                let derive = t.derive;
                let grgen = GRGEN.iter().find(|&&(m, _)| m == n).map(|&(_, s)| s);
                println!(
                    "{n:<9} | {:>12} | {derive:>18.4} | {:>9.4}..{:<9.4} ({}) | {:>16.3} | {:>10.2} | {:>11} | {:>14}",
                    t.applications,
                    t.fastest,
                    t.slowest,
                    t.rounds,
                    derive * 1e6 / t.applications as f64,
                    t.compile * 1e3,
                    grgen.map_or("-".to_owned(), |s| format!("{s}")),
                    // Two decimals: near 1 the ratio is the finding.
                    grgen.map_or("-".to_owned(), |s| format!("{:.2}×", derive / s)),
                );
                if let Some((m, t)) = previous {
                    let exponent = (derive / t).ln() / (n as f64 / m as f64).ln();
                    println!("          growth from N = {m}: time ∝ N^{exponent:.2}");
                }
                previous = Some((n, derive));
                if derive <= budget {
                    within_budget.push(n);
                } else {
                    println!(
                        "stopped: N = {n} took {derive:.1} s, over the {budget:.0} s budget; larger N not run"
                    );
                    break;
                }
            }
            Err(why) => {
                println!("{n:<9} | no figure: {why}");
                println!(
                    "stopped: N = {n} gave no figure within {kill_after:.0} s; larger N not run"
                );
                break;
            }
        }
    }
    println!();
    println!(
        "by phase (each phase a derivation of its stage alone from the graph the last one left):"
    );
    println!("N         | phase                 | applications | s          | µs / application");
    println!("----------|-----------------------|--------------|------------|-----------------");
    for n in within_budget {
        match phases_in_child(n, kill_after) {
            Ok(rows) => {
                for (phase, seconds, applications) in rows {
                    println!(
                        "{n:<9} | {phase:<21} | {applications:>12} | {seconds:>10.3} | {:>16.3}",
                        seconds * 1e6 / applications.max(1) as f64
                    );
                }
            }
            Err(why) => println!("{n:<9} | no figure: {why}"),
        }
    }
}
