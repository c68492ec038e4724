//! Benchmark 3: levelgraph's geometric derivation drawing, side by side
//! with Graphviz `neato` and `fdp` on the same graphs.
//!
//! Needs Graphviz's `neato` and `fdp` on the PATH (Debian: `graphviz`).
//!
//! Graphs: the built-in default grammar (`examples/default.lg`) edited as
//! text the way `crates/levelgraph/benches/growth.rs` does it, so that its
//! levels grow to a chosen size: the rule `settle` removed (it closes the
//! frontier, so levels stop near 26 vertices), `max_vertices N`,
//! `max_iterations 2N + 1000` and `min_vertices` at most N / 2. Each size
//! N derives seeds 1..=K with `levelgraph::geometric::derive` and
//! `GeometrySettings::default()`; every derivation that succeeds is kept
//! (levels may stay below N when placement blocks rules: the table reports
//! the mean size actually reached).
//!
//! Timing:
//! - levelgraph: wall time of `geometric::derive` for each kept seed, the
//!   whole derivation (rewriting with its drawing, finishing, retries).
//!   Conservative for us: Graphviz only lays out the finished graph.
//!   Median of `rounds` rounds over all kept seeds, after one untimed
//!   round.
//! - Graphviz: the kept graphs of one size go as one multi-graph DOT file
//!   to one `neato -Tplain -Gstart=1` (resp. `fdp`) process, which lays out
//!   each graph in turn; the wall time of that process (spawn to exit,
//!   output read) divided by the number of graphs, median of `rounds`
//!   runs. Process start-up is measured on its own (a one-node graph) and
//!   reported, with the time per graph less start-up.
//!
//! DOT: an undirected `graph` per level, one node per top-level vertex
//! (a stored vertex is drawn inside its room: its edges become its top-level
//! vertex's edges, self-loops dropped), every other edge kept (cosmetic
//! ones too: they shape our drawing as well), each node `shape=circle,
//! fixedsize=true, width=height=2r, label=""` with r our room radius.
//! Graphviz reads sizes in inches and `-Tplain` writes positions in
//! inches, so positions read back are in the units of our radii. No other
//! attribute is set: neato and fdp run their defaults (neato: stress
//! majorization, edge `len` 1 inch, `overlap=true`, i.e. overlaps are left
//! alone; fdp: its force model with the default `K` of 0.3 and `overlap`
//! unset as well, which in these runs left no circles overlapping).
//! One more row runs neato with `-Goverlap=false` (Prism overlap removal
//! after the layout), the way a Graphviz user gets rooms that do not
//! overlap, which our drawing guarantees.
//!
//! Scoring: the same `levelgraph::geometric::check_drawing` for every tool,
//! with our radii: crossings between corridors (non-cosmetic edges) that
//! share no end, and pairs of circles closer than the sum of their radii.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use levelgraph::drawing::top_level;
use levelgraph::geometric::{self, check_drawing, GeometrySettings};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::{DeriveError, Graph, VertexId};

use crate::harness::{fmt_ratio, time};

/// What to run.
pub struct Options {
    /// Values of `max_vertices`, one table each.
    pub sizes: Vec<usize>,
    /// Seeds 1..=seeds per size.
    pub seeds: u64,
    /// Rounds (levelgraph) and runs (Graphviz) per measurement; the median
    /// is reported.
    pub rounds: usize,
}

/// A Graphviz configuration: row label, program, extra arguments (after
/// `-Tplain -Gstart=1`). The first is the one the target names.
struct Graphviz {
    label: &'static str,
    program: &'static str,
    args: &'static [&'static str],
}

/// The Graphviz rows, in table order after levelgraph's. The defaults of
/// `neato` and `fdp` as the issue asks, and, since neato's default leaves
/// overlaps alone, neato with its own overlap removal (`overlap=false`:
/// Prism) as the like-for-like row for rooms that must not overlap.
const GRAPHVIZ: [Graphviz; 3] = [
    Graphviz {
        label: "neato",
        program: "neato",
        args: &[],
    },
    Graphviz {
        label: "fdp",
        program: "fdp",
        args: &[],
    },
    Graphviz {
        label: "neato overlap=false",
        program: "neato",
        args: &["-Goverlap=false"],
    },
];

/// The programs whose start-up is measured.
const PROGRAMS: [&str; 2] = ["neato", "fdp"];

/// One row of a size's table.
#[derive(Clone, Debug)]
pub struct Row {
    /// `levelgraph` or a Graphviz configuration's label.
    pub tool: &'static str,
    /// Seconds per graph, median of the rounds.
    pub per_graph: f64,
    /// Fastest and slowest round, seconds per graph.
    pub range: (f64, f64),
    /// Seconds per graph less the process start-up (Graphviz), or as
    /// `per_graph` (levelgraph).
    pub per_graph_less_startup: f64,
    /// Crossings in all graphs.
    pub crossings: usize,
    /// Graphs with at least one crossing.
    pub graphs_crossing: usize,
    /// Overlapping circle pairs in all graphs.
    pub overlaps: usize,
    /// Graphs with at least one overlap.
    pub graphs_overlapping: usize,
    /// When the runs gave different layouts: how they differed (the
    /// other columns score the first run's).
    pub varies: Option<Varies>,
}

/// How the layouts of a tool's runs on the same file differed.
#[derive(Clone, Copy, Debug)]
pub struct Varies {
    /// Distinct layouts among the runs.
    pub layouts: usize,
    /// Fewest and most crossings of a run.
    pub crossings: (usize, usize),
    /// Fewest and most overlaps of a run.
    pub overlaps: (usize, usize),
}

/// One size: what was derived and the rows of the three tools.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// `max_vertices`.
    pub cap: usize,
    /// Seeds tried.
    pub seeds: u64,
    /// Graphs kept (derivations that succeeded).
    pub graphs: usize,
    /// Mean top-level vertices (= DOT nodes) per kept graph.
    pub mean_vertices: f64,
    /// Fewest and most top-level vertices of a kept graph.
    pub vertex_range: (usize, usize),
    /// Mean DOT edges per kept graph (corridors and cosmetic edges).
    pub mean_edges: f64,
    /// Mean attempts of the kept derivations (1 = the first drawing passed).
    pub mean_attempts: f64,
    /// Mean force steps of the kept derivations' passing attempts.
    pub mean_steps: f64,
    /// Mean relaxations per kept derivation, and how many of them the
    /// step limit stopped before they settled.
    pub mean_relaxations: (f64, f64),
    /// The plain (not geometric) derivation of the same grammar and kept
    /// seeds: seconds per level (median of the rounds) and mean vertices.
    pub plain: (f64, f64),
    /// Seeds that failed, with the reason's code.
    pub failures: Vec<(u64, &'static str)>,
    /// levelgraph's row, then one per `GRAPHVIZ` configuration.
    pub rows: Vec<Row>,
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Logical CPUs.
    pub nproc: usize,
    /// `model name` from /proc/cpuinfo.
    pub cpu: String,
    /// The first line of `neato -V`.
    pub graphviz: String,
    /// /proc/loadavg when the run started.
    pub load: String,
    /// Wall time of each of `PROGRAMS` on a one-node graph, median of runs.
    pub startup: Vec<f64>,
    /// Runs and rounds per measurement.
    pub rounds: usize,
    /// One per size.
    pub sizes: Vec<SizeReport>,
}

/// The default grammar grown to `cap` vertices (`settle` removed,
/// `max_vertices cap`, `max_iterations 2·cap + 1000`: the edit the
/// levelgraph growth and layout harnesses make), with `min_vertices`
/// lowered to `cap / 2` when that is below its 12.
pub fn grammar_text(cap: usize) -> String {
    let text = crate::support::grown_grammar(grammar::DEFAULT_GRAMMAR, cap, true);
    assert_eq!(
        text.matches("min_vertices 12\n").count(),
        1,
        "default.lg changed: `min_vertices 12` not found once"
    );
    text.replace(
        "min_vertices 12\n",
        &format!("min_vertices {}\n", (cap / 2).clamp(1, 12)),
    )
}

/// The name of a failure, for the notes.
fn failure_code(e: &DeriveError) -> &'static str {
    match e {
        DeriveError::TooFewVertices { .. } => "too few vertices",
        DeriveError::StageFailed { .. } => "recipe stage failed",
        DeriveError::Drawing { .. } => "no drawing passed",
        _ => "another failure",
    }
}

/// Positions and radii of `g`'s vertices, indexed by vertex id.
type Drawn = (Vec<Option<[f64; 2]>>, Vec<Option<f64>>);

/// Our own drawing of `g`, as stored in its vertices.
fn our_drawing(g: &Graph) -> Drawn {
    let mut positions = vec![None; g.vertex_bound()];
    let mut radii = vec![None; g.vertex_bound()];
    for (v, x) in g.vertices() {
        positions[v.index()] = x.position;
        radii[v.index()] = x.radius;
    }
    (positions, radii)
}

/// The DOT edges of `g`: each edge between the top-level vertices of its
/// ends, self-loops (edges inside one room) dropped.
fn dot_edges(g: &Graph) -> Vec<(VertexId, VertexId)> {
    g.edges()
        .map(|(_, e)| (top_level(g, e.source), top_level(g, e.target)))
        .filter(|(a, b)| a != b)
        .collect()
}

/// Top-level vertices of `g`.
fn top_vertices(g: &Graph) -> impl Iterator<Item = VertexId> + '_ {
    g.vertex_ids().filter(move |&v| g.parent(v).is_none())
}

/// Appends `g` as an undirected DOT graph named `name`.
fn write_dot(out: &mut String, name: &str, g: &Graph) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "graph {name} {{");
    out.push_str("  node [shape=circle, fixedsize=true, label=\"\"];\n");
    for v in top_vertices(g) {
        let d = 2.0 * g.vertex(v).and_then(|x| x.radius).unwrap_or(0.0);
        let _ = writeln!(out, "  v{} [width={d:.6}, height={d:.6}];", v.index());
    }
    for (a, b) in dot_edges(g) {
        let _ = writeln!(out, "  v{} -- v{};", a.index(), b.index());
    }
    out.push_str("}\n");
}

/// Positions per graph from Graphviz's `-Tplain` output of a multi-graph
/// file: one vector per `graph … stop` block, indexed by vertex id (nodes
/// are named `v<id>`), each `bound` long.
fn parse_plain(text: &str, bounds: &[usize]) -> Result<Vec<Vec<Option<[f64; 2]>>>, String> {
    let mut out: Vec<Vec<Option<[f64; 2]>>> = Vec::new();
    let mut current: Option<Vec<Option<[f64; 2]>>> = None;
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("graph") => {
                let bound = *bounds
                    .get(out.len())
                    .ok_or_else(|| format!("line {}: more graphs than written", i + 1))?;
                current = Some(vec![None; bound]);
            }
            Some("node") => {
                let pos = current
                    .as_mut()
                    .ok_or_else(|| format!("line {}: node outside a graph", i + 1))?;
                let name = words.next().unwrap_or("").trim_matches('"');
                let x: Option<f64> = words.next().and_then(|w| w.parse().ok());
                let y: Option<f64> = words.next().and_then(|w| w.parse().ok());
                let id: Option<usize> = name.strip_prefix('v').and_then(|n| n.parse().ok());
                match (id, x, y) {
                    (Some(id), Some(x), Some(y)) if id < pos.len() => pos[id] = Some([x, y]),
                    _ => return Err(format!("line {}: cannot read `{line}`", i + 1)),
                }
            }
            Some("stop") => {
                out.push(
                    current
                        .take()
                        .ok_or_else(|| format!("line {}: stop outside a graph", i + 1))?,
                );
            }
            _ => {}
        }
    }
    if out.len() != bounds.len() {
        return Err(format!(
            "{} graphs read back, {} written",
            out.len(),
            bounds.len()
        ));
    }
    Ok(out)
}

/// Runs `tool -Tplain -Gstart=1 args… file`, returning its wall time
/// (spawn to exit) and its output.
fn run_graphviz(tool: &str, args: &[&str], file: &Path) -> (f64, String) {
    let t = Instant::now();
    let out = Command::new(tool)
        .arg("-Tplain")
        .arg("-Gstart=1")
        .args(args)
        .arg(file)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"));
    let secs = t.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{tool} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        secs,
        String::from_utf8(out.stdout).expect("Graphviz writes UTF-8"),
    )
}

/// A measurement slower than this gets only 3 rounds (or runs), as in
/// the other benchmarks.
const SLOW: Duration = Duration::from_secs(2);

/// Median, fastest and slowest of `runs` runs of `tool` on `file` (3 when
/// the first takes longer than [`SLOW`]), and the outputs of the runs,
/// the first run's first, each distinct output once: the same input and
/// seed should give the same layout, but Graphviz 2.43's fdp does not
/// always (its layouts of the larger graphs change with the process's
/// memory addresses; with address randomisation off, `setarch -R`, they
/// repeat).
fn time_graphviz(
    tool: &str,
    args: &[&str],
    file: &Path,
    runs: usize,
) -> (f64, f64, f64, Vec<String>) {
    let mut times: Vec<f64> = Vec::new();
    let mut outputs: Vec<String> = Vec::new();
    let mut runs = runs.max(1);
    while times.len() < runs {
        if times.len() == 1 && times[0] > SLOW.as_secs_f64() {
            runs = runs.min(3);
        }
        let (t, out) = run_graphviz(tool, args, file);
        times.push(t);
        if !outputs.contains(&out) {
            outputs.push(out);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).expect("finite times"));
    (
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        outputs,
    )
}

/// Crossings, graphs with a crossing, overlaps, graphs with an overlap of
/// `graphs` drawn with `positions` and their own radii.
fn score(graphs: &[Graph], positions: &[Vec<Option<[f64; 2]>>]) -> (usize, usize, usize, usize) {
    let mut s = (0, 0, 0, 0);
    for (g, p) in graphs.iter().zip(positions) {
        let (_, radii) = our_drawing(g);
        let c = check_drawing(g, p, &radii);
        s.0 += c.crossings.len();
        s.1 += usize::from(!c.crossings.is_empty());
        s.2 += c.overlaps.len();
        s.3 += usize::from(!c.overlaps.is_empty());
    }
    s
}

/// A scratch directory for the DOT files.
fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("levelgraph-peer-drawing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

fn write_file(path: &Path, text: &str) {
    let mut f = std::fs::File::create(path).expect("create DOT file");
    f.write_all(text.as_bytes()).expect("write DOT file");
}

/// One size.
fn run_size(cap: usize, opts: &Options, startup: &[f64], dir: &Path) -> SizeReport {
    let g: CompiledGrammar = grammar::load(&grammar_text(cap), "default-growing")
        .expect("the grown default grammar compiles");
    let settings = GeometrySettings::default();
    let mut kept_seeds = Vec::new();
    let mut graphs = Vec::new();
    let mut attempts = 0u64;
    let (mut steps, mut relaxations, mut unsettled) = (0u64, 0u64, 0u64);
    let mut failures = Vec::new();
    for seed in 1..=opts.seeds {
        match geometric::derive(&g, seed, &settings) {
            Ok(d) => {
                attempts += u64::from(d.attempts);
                steps += d.relax.steps;
                relaxations += u64::from(d.relax.relaxations);
                unsettled += u64::from(d.relax.unsettled);
                kept_seeds.push(seed);
                graphs.push(d.derivation.graph);
            }
            Err(e) => failures.push((seed, failure_code(&e))),
        }
    }
    let n = graphs.len();
    eprintln!(
        "drawing {cap}: {n} of {} seeds derived, timing levelgraph",
        opts.seeds
    );
    assert!(n > 0, "no derivation of size {cap} succeeded");

    // levelgraph: the whole geometric derivation of every kept seed.
    let t = time(opts.rounds, Duration::ZERO, SLOW, || {
        for &seed in &kept_seeds {
            let d = geometric::derive(&g, std::hint::black_box(seed), &settings);
            std::hint::black_box(d.is_ok());
        }
    });
    // For context: the same grammar and seeds without geometry (other
    // matches are allowed there, so the levels differ a little).
    let mut plain_vertices = 0usize;
    for &seed in &kept_seeds {
        plain_vertices += match levelgraph::derive(&g, seed) {
            Ok(d) => d.graph.vertex_count(),
            Err(e) => e.into_derivation().graph.vertex_count(),
        };
    }
    let plain = time(opts.rounds, Duration::ZERO, SLOW, || {
        for &seed in &kept_seeds {
            std::hint::black_box(levelgraph::derive(&g, std::hint::black_box(seed)).is_ok());
        }
    });
    let ours_drawn: Vec<_> = graphs.iter().map(|g| our_drawing(g).0).collect();
    let (c, gc, o, go) = score(&graphs, &ours_drawn);
    let mut rows = vec![Row {
        tool: "levelgraph",
        per_graph: t.median / n as f64,
        range: (t.fastest / n as f64, t.slowest / n as f64),
        per_graph_less_startup: t.median / n as f64,
        crossings: c,
        graphs_crossing: gc,
        overlaps: o,
        graphs_overlapping: go,
        varies: None,
    }];

    // Graphviz: one file, one process per tool.
    let mut dot = String::new();
    for (g, seed) in graphs.iter().zip(&kept_seeds) {
        write_dot(&mut dot, &format!("seed{seed}"), g);
    }
    let file = dir.join(format!("levels-{cap}.dot"));
    write_file(&file, &dot);
    let bounds: Vec<usize> = graphs.iter().map(Graph::vertex_bound).collect();
    for gv in &GRAPHVIZ {
        let tool = gv.label;
        eprintln!("drawing {cap}: timing {tool}");
        let (median, fastest, slowest, outputs) =
            time_graphviz(gv.program, gv.args, &file, opts.rounds);
        let scores: Vec<_> = outputs
            .iter()
            .map(|out| {
                let positions = parse_plain(out, &bounds)
                    .unwrap_or_else(|e| panic!("{tool} output for size {cap}: {e}"));
                for (g, p) in graphs.iter().zip(&positions) {
                    for v in top_vertices(g) {
                        assert!(p[v.index()].is_some(), "{tool} placed every node");
                    }
                }
                score(&graphs, &positions)
            })
            .collect();
        let (c, gc, o, go) = scores[0];
        let varies = (scores.len() > 1).then(|| Varies {
            layouts: scores.len(),
            crossings: (
                scores.iter().map(|s| s.0).min().unwrap_or(0),
                scores.iter().map(|s| s.0).max().unwrap_or(0),
            ),
            overlaps: (
                scores.iter().map(|s| s.2).min().unwrap_or(0),
                scores.iter().map(|s| s.2).max().unwrap_or(0),
            ),
        });
        let start = PROGRAMS
            .iter()
            .position(|&p| p == gv.program)
            .map_or(0.0, |k| startup[k]);
        rows.push(Row {
            tool,
            per_graph: median / n as f64,
            range: (fastest / n as f64, slowest / n as f64),
            per_graph_less_startup: (median - start).max(0.0) / n as f64,
            crossings: c,
            graphs_crossing: gc,
            overlaps: o,
            graphs_overlapping: go,
            varies,
        });
    }

    let vertices: Vec<usize> = graphs.iter().map(|g| top_vertices(g).count()).collect();
    SizeReport {
        cap,
        seeds: opts.seeds,
        graphs: n,
        mean_vertices: vertices.iter().sum::<usize>() as f64 / n as f64,
        vertex_range: (
            *vertices.iter().min().expect("n > 0"),
            *vertices.iter().max().expect("n > 0"),
        ),
        mean_edges: graphs.iter().map(|g| dot_edges(g).len()).sum::<usize>() as f64 / n as f64,
        mean_attempts: attempts as f64 / n as f64,
        mean_steps: steps as f64 / n as f64,
        mean_relaxations: (relaxations as f64 / n as f64, unsettled as f64 / n as f64),
        plain: (plain.median / n as f64, plain_vertices as f64 / n as f64),
        failures,
        rows,
    }
}

/// The CPU model from /proc/cpuinfo.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The first line `neato -V` writes (to stderr).
fn graphviz_version() -> String {
    Command::new("neato")
        .arg("-V")
        .output()
        .map(|o| {
            let text = if o.stderr.is_empty() {
                o.stdout
            } else {
                o.stderr
            };
            String::from_utf8_lossy(&text)
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .unwrap_or_else(|e| format!("neato not runnable: {e}"))
}

/// Runs every size.
pub fn run(opts: &Options) -> Report {
    let dir = scratch_dir();
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    let one = dir.join("one-node.dot");
    write_file(&one, "graph one {\n  v0;\n}\n");
    let startup_runs = opts.rounds.max(5);
    let startup: Vec<f64> = PROGRAMS
        .iter()
        .map(|p| time_graphviz(p, &[], &one, startup_runs).0)
        .collect();
    let sizes = opts
        .sizes
        .iter()
        .map(|&cap| run_size(cap, opts, &startup, &dir))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Report {
        nproc: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu: cpu_model(),
        graphviz: graphviz_version(),
        load,
        startup,
        rounds: opts.rounds,
        sizes,
    }
}

/// Milliseconds with three significant-ish digits.
fn ms(s: f64) -> String {
    let m = s * 1e3;
    if m >= 100.0 {
        format!("{m:.0}")
    } else if m >= 10.0 {
        format!("{m:.1}")
    } else {
        format!("{m:.2}")
    }
}

/// The machine and tool lines above the tables.
pub fn preamble(r: &Report) -> String {
    format!(
        "Machine: {} logical CPUs, {}; load average at start {}. {}.\n\
         Process start-up (a one-node graph, median of {} runs): neato {} ms, fdp {} ms.\n\
         Median of {} rounds (levelgraph) and {} runs (Graphviz); 3 when one takes over 2 s.\n",
        r.nproc,
        r.cpu,
        r.load,
        r.graphviz,
        r.rounds.max(5),
        ms(r.startup[0]),
        ms(r.startup[1]),
        r.rounds,
        r.rounds,
    )
}

/// The table of one size, with its notes.
pub fn table(s: &SizeReport) -> String {
    let ours = s.rows[0].per_graph;
    let mut t = format!(
        "### max_vertices {}: {} of {} seeds derived, {:.1} vertices on average ({}..{})\n\n",
        s.cap, s.graphs, s.seeds, s.mean_vertices, s.vertex_range.0, s.vertex_range.1
    );
    t.push_str(
        "| tool | graphs | mean vertices | mean edges | ms / graph (fastest..slowest) | ms / graph less start-up | time / levelgraph's | crossings | graphs with a crossing | overlaps | graphs with an overlap |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &s.rows {
        t.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {} ({}..{}) | {} | {} | {} | {} | {} | {} |\n",
            r.tool,
            s.graphs,
            s.mean_vertices,
            s.mean_edges,
            ms(r.per_graph),
            ms(r.range.0),
            ms(r.range.1),
            if r.per_graph_less_startup > 0.0 {
                ms(r.per_graph_less_startup)
            } else {
                "≈ 0 (within start-up noise)".to_string()
            },
            fmt_ratio(r.per_graph / ours),
            r.crossings,
            r.graphs_crossing,
            r.overlaps,
            r.graphs_overlapping,
        ));
    }
    t.push('\n');
    for r in &s.rows {
        if let Some(v) = r.varies {
            t.push_str(&format!(
                "{}'s runs on the same file gave {} different layouts (crossings {}..{}, overlaps {}..{}; the table scores the first run). ",
                r.tool, v.layouts, v.crossings.0, v.crossings.1, v.overlaps.0, v.overlaps.1
            ));
        }
    }
    t.push_str(&format!(
        "levelgraph needed {:.2} attempts per kept level on average (1 = the first drawing passed); \
         its passing attempt made {:.0} relaxations ({:.1} stopped by the step limit) and {:.0} force steps. \
         The same grammar and seeds derived without geometry: {} ms per level ({:.1} vertices).",
        s.mean_attempts,
        s.mean_relaxations.0,
        s.mean_relaxations.1,
        s.mean_steps,
        ms(s.plain.0),
        s.plain.1,
    ));
    if !s.failures.is_empty() {
        let mut reasons: Vec<(&str, Vec<u64>)> = Vec::new();
        for &(seed, why) in &s.failures {
            match reasons.iter_mut().find(|(w, _)| *w == why) {
                Some((_, seeds)) => seeds.push(seed),
                None => reasons.push((why, vec![seed])),
            }
        }
        let list: Vec<String> = reasons
            .iter()
            .map(|(why, seeds)| {
                let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
                format!("{why}: seeds {}", seeds.join(", "))
            })
            .collect();
        t.push_str(&format!(
            " Not kept ({} seeds): {}.",
            s.failures.len(),
            list.join("; ")
        ));
    }
    t.push('\n');
    t
}

/// Whether the target holds at each size: at least 10× faster
/// than neato with no more crossings, judged on the wall time per graph
/// (start-up shared by the graphs of one process) and on the time per
/// graph less start-up.
pub fn verdicts(r: &Report) -> String {
    let mut t = String::new();
    for s in &r.sizes {
        let ours = &s.rows[0];
        let neato = &s.rows[1];
        let speed = neato.per_graph / ours.per_graph;
        let net = neato.per_graph_less_startup / ours.per_graph;
        let fewer = ours.crossings <= neato.crossings;
        let verdict = |ratio: f64| {
            let mut why = Vec::new();
            if ratio < 10.0 {
                why.push("not 10× faster");
            }
            if !fewer {
                why.push("more crossings");
            }
            if why.is_empty() {
                "met".to_string()
            } else {
                format!("not met ({})", why.join(", "))
            }
        };
        t.push_str(&format!(
            "- max_vertices {}: crossings {} (levelgraph) vs {} (neato); neato takes {} levelgraph's time per graph: {}; less its start-up {}: {}.\n",
            s.cap,
            ours.crossings,
            neato.crossings,
            fmt_ratio(speed),
            verdict(speed),
            fmt_ratio(net),
            if net > 0.0 {
                verdict(net)
            } else {
                "cannot tell (start-up noise)".to_string()
            },
        ));
    }
    t
}
