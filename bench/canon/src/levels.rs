//! Levels: mission graphs derived from the example grammars
//! (`examples/*.lg`, seeds 1…N), and large levels of the default grammar
//! grown as crates/levelgraph/benches/support/mod.rs grows it (`settle`
//! removed, `max_vertices` raised).
//!
//! Each level is turned into a benchmark graph here, by this crate's own
//! reading of a level, independent of `canon::of_graph`: a vertex's colour
//! is its tag and attributes; an edge's colour is its label, cosmetic flag
//! and direction flag (a directed edge is an arc from its source, an
//! undirected one an edge); a stored vertex gets an arc of its own colour
//! from the vertex it is stored in. Grid cells, positions and radii are
//! left out. Colour numbers are interned across the whole family, so one
//! number means one thing in every graph.

use std::collections::HashMap;
use std::path::Path;

use levelgraph::graph::Graph;

use crate::graph::Input;

/// Colour numbers shared by every level of a family.
#[derive(Default)]
pub struct Interner {
    vertex: HashMap<String, u32>,
    edge: HashMap<String, u32>,
}

impl Interner {
    fn vertex(&mut self, key: String) -> u32 {
        let n = self.vertex.len() as u32;
        *self.vertex.entry(key).or_insert(n)
    }
    fn edge(&mut self, key: String) -> u32 {
        let n = self.edge.len() as u32;
        *self.edge.entry(key).or_insert(n)
    }
}

/// The benchmark graph of a level (see the module's docs).
pub fn of_level(g: &Graph, colours: &mut Interner) -> Input {
    let ids: Vec<_> = g.vertex_ids().collect();
    let mut index = vec![u32::MAX; g.vertex_bound()];
    for (i, v) in ids.iter().enumerate() {
        index[v.index()] = i as u32;
    }
    let mut input = Input::default();
    for (_, vertex) in g.vertices() {
        let mut key = g.tags().name(vertex.tag).to_string();
        for (k, v) in &vertex.attributes {
            key.push_str(&format!("\u{1f}{k}={v}"));
        }
        input.colours.push(colours.vertex(key));
    }
    for (_, e) in g.edges() {
        let label = e.label.map_or("", |l| g.labels().name(l));
        let key = format!("{label}\u{1f}{}\u{1f}{}", e.cosmetic, e.directed);
        let c = colours.edge(key);
        let (a, b) = (index[e.source.index()], index[e.target.index()]);
        if e.directed {
            input.arcs.push((a, b, c));
        } else {
            input.edges.push((a, b, c));
        }
    }
    let stored = colours.edge("\u{1f}stored in".to_string());
    for (v, vertex) in g.vertices() {
        if let Some(p) = vertex.parent {
            input
                .arcs
                .push((index[p.index()], index[v.index()], stored));
        }
    }
    input
}

/// `text` (the default grammar or one built on it) grown to `cap`
/// vertices: `max_vertices cap`, `max_iterations 2·cap + 1000`, rules
/// `settle` and `settle_before` removed.
pub fn grown(text: &str, cap: usize) -> String {
    let mut text = text
        .replace("max_vertices 40\n", &format!("max_vertices {cap}\n"))
        .replace(
            "max_iterations 300\n",
            &format!("max_iterations {}\n", 2 * cap + 1000),
        );
    for rule in ["rule settle ", "rule settle_before "] {
        let Some(start) = text.find(rule) else {
            continue;
        };
        let end = start + text[start..].find("\n}\n").expect("a rule ends") + 3;
        text.replace_range(start..end, "");
    }
    text
}

/// Levels: every example grammar at seeds `1..=seeds` (whatever each
/// derivation reached, also when it stopped short).
pub fn examples(dir: &Path, seeds: u64, seed0: u64) -> Vec<(String, Graph)> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("examples directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lg"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("grammar text");
        let grammar = match levelgraph::grammar::load(&text, &name) {
            Ok(g) => g,
            Err(_) => {
                eprintln!("  {name}: does not load, skipped");
                continue;
            }
        };
        for seed in seed0..seed0 + seeds {
            let d = match levelgraph::derive(&grammar, seed) {
                Ok(d) => d,
                Err(e) => e.into_derivation(),
            };
            out.push((name.clone(), d.graph));
        }
    }
    out
}

/// Large levels of the default grammar, `count` per cap.
pub fn large(dir: &Path, caps: &[usize], count: u64, seed0: u64) -> Vec<(String, Graph)> {
    let text = std::fs::read_to_string(dir.join("default.lg")).expect("default.lg");
    let mut out = Vec::new();
    for &cap in caps {
        let grammar = levelgraph::grammar::load(&grown(&text, cap), "default")
            .expect("the grown default grammar loads");
        for seed in seed0..seed0 + count {
            let d = match levelgraph::derive(&grammar, seed) {
                Ok(d) => d,
                Err(e) => e.into_derivation(),
            };
            out.push((format!("default grown to {cap}"), d.graph));
        }
    }
    out
}
