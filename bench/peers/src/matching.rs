//! Benchmark 1: all matches of a small tagged pattern, levelgraph's matcher
//! against petgraph's VF2 (`subgraph_isomorphisms_iter`).
//!
//! The host is a triangulated grid (every unit square has its right,
//! down and down-right edges), each edge kept with probability 0.9, every
//! vertex tagged `a`, `b`, `c` or `d` uniformly, all drawn from
//! `levelgraph::rng::Rng` with a fixed seed. Then every edge joining an `a`
//! to a `c` or a `b` to a `d` is dropped. The same vertices and edges, in
//! the same order, go into a `levelgraph::Graph` and a petgraph `UnGraph`.
//!
//! Why drop those edges: petgraph's VF2 finds *node-induced* subgraphs
//! (its feasibility test also requires every host edge between mapped
//! vertices to be in the pattern), levelgraph matches *non-induced*. The
//! two agree exactly when no match has a chord. The patterns are
//!   path      a -- b -- c            (only chord: a–c)
//!   triangle  a -- a -- b -- a       (complete: no chord possible)
//!   4-cycle   a -- b -- c -- d -- a  (only chords: a–c, b–d)
//! so with no a–c and no b–d host edges both count the same matches. Both
//! count every mapping, automorphic images included, and the run asserts
//! the two counts are equal before timing anything.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use levelgraph::graph::Graph;
use levelgraph::matching::{Pattern, PatternEdge, PatternVertex, TagTest};
use levelgraph::rng::Rng;
use petgraph::algo::subgraph_isomorphisms_iter;
use petgraph::graph::UnGraph;
use petgraph::visit::GetAdjacencyMatrix;

use crate::harness::{fmt_int, fmt_ratio, fmt_secs, time, Timing};

const TAGS: [&str; 4] = ["a", "b", "c", "d"];
const SEED: u64 = 2026;

/// Vertices in all the distinct hosts of one "cold hosts" cycle together
/// (200 hosts of 1,000, 20 of 10,000, 2 of 100,000): more than the caches
/// hold, so no host is warm when it is searched again.
const COLD_VERTICES: usize = 200_000;

/// Grid shapes: 1,000, 10,000 and 100,000 vertices.
pub const SIZES: [(usize, usize); 3] = [(40, 25), (100, 100), (400, 250)];

/// One host in both libraries.
pub struct Host {
    pub vertices: usize,
    pub edges: usize,
    pub ours: Graph,
    pub petgraph: UnGraph<u8, ()>,
}

/// The triangulated grid of `w` × `h` vertices described in the module docs.
pub fn host(w: usize, h: usize, seed: u64) -> Host {
    let mut rng = Rng::seeded(seed);
    let n = w * h;
    let tags: Vec<u8> = (0..n).map(|_| rng.below(TAGS.len()) as u8).collect();
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= w || ny >= h {
                    continue;
                }
                if rng.unit() >= 0.9 {
                    continue;
                }
                let u = ny * w + nx;
                let pair = (tags[v].min(tags[u]), tags[v].max(tags[u]));
                // a–c and b–d: the only chords the patterns could have.
                if pair == (0, 2) || pair == (1, 3) {
                    continue;
                }
                edges.push((v, u));
            }
        }
    }
    let mut ours = Graph::new();
    let ids: Vec<_> = tags
        .iter()
        .map(|&t| ours.add_vertex_named(TAGS[t as usize]))
        .collect();
    for &(a, b) in &edges {
        ours.connect(ids[a], ids[b], false);
    }
    let mut pg = UnGraph::<u8, ()>::with_capacity(n, edges.len());
    let nodes: Vec<_> = tags.iter().map(|&t| pg.add_node(t)).collect();
    for &(a, b) in &edges {
        pg.add_edge(nodes[a], nodes[b], ());
    }
    Host {
        vertices: n,
        edges: edges.len(),
        ours,
        petgraph: pg,
    }
}

/// A pattern: tags of its vertices (indices into `TAGS`) and its edges.
pub struct PatternSpec {
    pub name: &'static str,
    pub tags: &'static [u8],
    pub edges: &'static [(usize, usize)],
}

pub const PATTERNS: [PatternSpec; 3] = [
    PatternSpec {
        name: "path a–b–c",
        tags: &[0, 1, 2],
        edges: &[(0, 1), (1, 2)],
    },
    PatternSpec {
        name: "triangle a–a–b",
        tags: &[0, 0, 1],
        edges: &[(0, 1), (1, 2), (2, 0)],
    },
    PatternSpec {
        name: "4-cycle a–b–c–d",
        tags: &[0, 1, 2, 3],
        edges: &[(0, 1), (1, 2), (2, 3), (3, 0)],
    },
];

fn our_pattern(spec: &PatternSpec, host: &Graph) -> Pattern {
    let vertices = spec
        .tags
        .iter()
        .map(|&t| PatternVertex {
            tags: TagTest::OneOf(vec![host
                .tags()
                .get(TAGS[t as usize])
                .expect("every tag occurs in the host")]),
            forbidden: Vec::new(),
            attributes: Vec::new(),
            valence: None,
        })
        .collect();
    let edges = spec
        .edges
        .iter()
        .map(|&(s, t)| PatternEdge {
            source: s,
            target: t,
            directed: false,
            cosmetic: false,
            label: None,
        })
        .collect();
    Pattern::new(vertices, edges)
}

fn petgraph_pattern(spec: &PatternSpec) -> UnGraph<u8, ()> {
    let mut g = UnGraph::<u8, ()>::default();
    let nodes: Vec<_> = spec.tags.iter().map(|&t| g.add_node(t)).collect();
    for &(s, t) in spec.edges {
        g.add_edge(nodes[s], nodes[t], ());
    }
    g
}

/// Every match of `pattern`, counted, through levelgraph's streaming API.
fn count_ours(pattern: &Pattern, host: &Graph) -> u64 {
    let mut n = 0u64;
    let _ = pattern.for_each_match(host, &mut |m| {
        black_box(m);
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

/// Every match of `pattern`, counted, through petgraph's VF2 iterator.
fn count_petgraph(pattern: &UnGraph<u8, ()>, host: &UnGraph<u8, ()>) -> u64 {
    let mut nm = |a: &u8, b: &u8| a == b;
    let mut em = |_: &(), _: &()| true;
    let count = match subgraph_isomorphisms_iter(&pattern, &host, &mut nm, &mut em) {
        Some(it) => it
            .map(|m| {
                black_box(m);
                1u64
            })
            .sum(),
        None => 0,
    };
    count
}

/// One row of the results.
pub struct Row {
    pub pattern: &'static str,
    pub vertices: usize,
    pub edges: usize,
    pub matches: u64,
    pub ours: Timing,
    /// `Pattern::find_all`: every match as an owned `Match` (two `Vec`s),
    /// the closest to petgraph's iterator, which yields a `Vec` per match.
    pub ours_find_all: Timing,
    pub petgraph: Timing,
    /// Time to build petgraph's n² adjacency bitmap alone, which VF2 does
    /// on every call.
    pub petgraph_matrix: Timing,
    /// levelgraph on cold hosts: one call searches each of `cold_hosts`
    /// distinct hosts of this size once (seeds after `SEED`), finding
    /// `cold_matches` matches in all.
    pub cold: Timing,
    pub cold_hosts: usize,
    pub cold_matches: u64,
}

pub struct Options {
    pub rounds: usize,
    /// Largest host (vertices) on which petgraph is run.
    pub petgraph_max: usize,
    /// Only the host with this many vertices.
    pub host: Option<usize>,
}

pub fn run(opts: &Options) -> Vec<(Row, bool)> {
    let mut rows = Vec::new();
    for &(w, h) in &SIZES {
        if opts.host.is_some_and(|n| n != w * h) {
            continue;
        }
        let host = host(w, h, SEED);
        eprintln!(
            "matching: host {} vertices, {} edges",
            fmt_int(host.vertices as u64),
            fmt_int(host.edges as u64)
        );
        let run_peer = host.vertices <= opts.petgraph_max;
        // The same searches on many distinct hosts, each searched once per
        // cycle: a repeated search of one small host runs from warm caches
        // and a branch predictor that has learnt that host, which a
        // derivation never sees.
        let cold_hosts: Vec<Graph> = (1..=(COLD_VERTICES / host.vertices).max(2) as u64)
            .map(|k| self::host(w, h, SEED + k).ours)
            .collect();
        let matrix = if run_peer {
            time(
                opts.rounds,
                Duration::from_millis(50),
                Duration::from_secs(2),
                || {
                    black_box(host.petgraph.adjacency_matrix());
                },
            )
        } else {
            zero()
        };
        for spec in &PATTERNS {
            let ours_p = our_pattern(spec, &host.ours);
            let peer_p = petgraph_pattern(spec);
            let matches = count_ours(&ours_p, &host.ours);
            if run_peer {
                let theirs = count_petgraph(&peer_p, &host.petgraph);
                assert_eq!(
                    matches, theirs,
                    "{} on {} vertices: levelgraph finds {matches} matches, petgraph {theirs}",
                    spec.name, host.vertices
                );
            }
            let ours = time(
                opts.rounds,
                Duration::from_millis(50),
                Duration::from_secs(2),
                || {
                    black_box(count_ours(&ours_p, &host.ours));
                },
            );
            let ours_find_all = time(
                opts.rounds,
                Duration::from_millis(50),
                Duration::from_secs(2),
                || {
                    black_box(ours_p.find_all(&host.ours));
                },
            );
            let cold_patterns: Vec<Pattern> =
                cold_hosts.iter().map(|g| our_pattern(spec, g)).collect();
            let cold_matches: u64 = cold_patterns
                .iter()
                .zip(&cold_hosts)
                .map(|(p, g)| count_ours(p, g))
                .sum();
            let cold = time(
                opts.rounds,
                Duration::from_millis(50),
                Duration::from_secs(2),
                || {
                    for (p, g) in cold_patterns.iter().zip(&cold_hosts) {
                        black_box(count_ours(p, g));
                    }
                },
            );
            let petgraph = if run_peer {
                time(
                    opts.rounds,
                    Duration::from_millis(50),
                    Duration::from_secs(2),
                    || {
                        black_box(count_petgraph(&peer_p, &host.petgraph));
                    },
                )
            } else {
                zero()
            };
            eprintln!(
                "  {:<16} {:>9} matches  levelgraph {:>10} (find_all {:>10})  petgraph {:>10}",
                spec.name,
                fmt_int(matches),
                fmt_secs(ours.median),
                fmt_secs(ours_find_all.median),
                if run_peer {
                    fmt_secs(petgraph.median)
                } else {
                    "skipped".into()
                }
            );
            rows.push((
                Row {
                    pattern: spec.name,
                    vertices: host.vertices,
                    edges: host.edges,
                    matches,
                    ours,
                    ours_find_all,
                    petgraph,
                    petgraph_matrix: matrix,
                    cold,
                    cold_hosts: cold_hosts.len(),
                    cold_matches,
                },
                run_peer,
            ));
        }
    }
    rows
}

fn zero() -> Timing {
    Timing {
        median: f64::NAN,
        fastest: f64::NAN,
        slowest: f64::NAN,
        rounds: 0,
        calls: 0,
    }
}

/// `t` seconds shared by `n` matches, formatted; a dash for no matches.
fn per_match(t: f64, n: u64) -> String {
    if n == 0 {
        "–".to_string()
    } else {
        fmt_secs(t / n as f64)
    }
}

pub fn table(rows: &[(Row, bool)]) -> String {
    let mut s = String::new();
    s.push_str(
        "| pattern | host vertices / edges | matches (both) | levelgraph / run | levelgraph / match | levelgraph `find_all` / run | petgraph VF2 / run | of which its n² adjacency bitmap | petgraph / match | time ratio levelgraph ÷ petgraph | levelgraph speed-up |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (r, peer) in rows {
        let of_run = |t: f64| per_match(t, r.matches);
        let ours = format!(
            "| {} | {} / {} | {} | {} | {} | {} |",
            r.pattern,
            fmt_int(r.vertices as u64),
            fmt_int(r.edges as u64),
            fmt_int(r.matches),
            fmt_secs(r.ours.median),
            of_run(r.ours.median),
            fmt_secs(r.ours_find_all.median),
        );
        if *peer {
            s.push_str(&format!(
                "{ours} {} | {} | {} | {} | {} |\n",
                fmt_secs(r.petgraph.median),
                fmt_secs(r.petgraph_matrix.median),
                of_run(r.petgraph.median),
                fmt_ratio(r.ours.median / r.petgraph.median),
                fmt_ratio(r.petgraph.median / r.ours.median),
            ));
        } else {
            s.push_str(&format!("{ours} not run | – | – | – | – |\n"));
        }
    }
    s
}

/// levelgraph's time per match on one warm host (the table above) and
/// on cold hosts, by size: whether time per match stays flat.
pub fn cold_table(rows: &[(Row, bool)]) -> String {
    let mut s = String::new();
    s.push_str(
        "| pattern | host vertices | levelgraph / match, one host searched again and again | distinct hosts per cycle | matches per cycle | levelgraph / match, each host searched once per cycle |\n",
    );
    s.push_str("|---|---|---|---|---|---|\n");
    for (r, _) in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.pattern,
            fmt_int(r.vertices as u64),
            per_match(r.ours.median, r.matches),
            r.cold_hosts,
            fmt_int(r.cold_matches),
            per_match(r.cold.median, r.cold_matches),
        ));
    }
    s
}

/// Rounds actually timed, for the notes under the table.
pub fn rounds_note(rows: &[(Row, bool)]) -> String {
    let mut parts = Vec::new();
    for (r, peer) in rows {
        parts.push(format!(
            "{} on {}: levelgraph {}×{} calls ({}..{}){}",
            r.pattern,
            fmt_int(r.vertices as u64),
            r.ours.rounds,
            r.ours.calls,
            fmt_secs(r.ours.fastest),
            fmt_secs(r.ours.slowest),
            if *peer {
                format!(
                    ", petgraph {}×{} calls ({}..{})",
                    r.petgraph.rounds,
                    r.petgraph.calls,
                    fmt_secs(r.petgraph.fastest),
                    fmt_secs(r.petgraph.slowest)
                )
            } else {
                String::new()
            }
        ));
    }
    parts.join("; ")
}
