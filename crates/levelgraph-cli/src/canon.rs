//! `levelgraph canon`: canonical forms and automorphism groups of levels
//! (mission graph files) and of a grammar's rule patterns.

use std::path::{Path, PathBuf};

use clap::Args;
use levelgraph::canon::{self, Canon, SearchLimits};
use levelgraph::formats::MissionDoc;
use serde_json::json;

use crate::{load_grammar, output, Failure};

/// Options of `levelgraph canon`.
#[derive(Args, Debug)]
pub(crate) struct Options {
    /// Mission graph files (mission.json) or grammars (`.lg`, or a
    /// grammar's JSON form). Two or more levels are also compared.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print JSON instead of text: per file its canonical hash, form (hex),
    /// labelling, automorphism generators, orbits and group order.
    #[arg(long)]
    json: bool,
    /// Search-tree nodes the canonical labelling may visit per graph.
    #[arg(long, default_value_t = SearchLimits::default().max_nodes)]
    max_nodes: u64,
}

/// What one file holds.
enum Read {
    Level(Box<levelgraph::Graph>),
    Grammar(Box<crate::Loaded>),
}

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    let limits = SearchLimits {
        max_nodes: o.max_nodes,
    };
    let mut levels: Vec<(&Path, u64, Vec<u8>)> = Vec::new();
    let mut documents = Vec::new();
    for path in &o.files {
        match read(path)? {
            Read::Level(graph) => {
                let (coloured, ids) = canon::of_graph(&graph);
                let c = canon::canonical(&coloured, &limits).map_err(|e| {
                    eprintln!("error: {}: {e}; raise it with --max-nodes", path.display());
                    Failure::Derivation
                })?;
                if o.json {
                    documents.push(level_json(path, &graph, &ids, &c));
                } else {
                    output::say(format_args!(
                        "{}: level of {} and {}: canonical hash {:016x}, automorphism group of order {} ({}, {})",
                        path.display(),
                        output::counted_as(graph.vertex_count() as u64, "vertex", "vertices"),
                        output::counted(graph.edge_count() as u64, "edge"),
                        c.hash,
                        c.automorphisms.order,
                        output::counted(c.automorphisms.generators.len() as u64, "generator"),
                        output::counted(orbit_count(&c.automorphisms.orbits) as u64, "orbit"),
                    ))?;
                }
                levels.push((path, c.hash, c.form));
            }
            Read::Grammar(loaded) => {
                let mut patterns = Vec::new();
                for rule in &loaded.grammar.model().rules {
                    let Some(s) = levelgraph::lint::rule_symmetry(rule, &limits) else {
                        eprintln!(
                            "note: {}: the pattern of rule `{}` passed the node limit",
                            path.display(),
                            rule.name
                        );
                        continue;
                    };
                    if o.json {
                        patterns.push(json!({
                            "rule": rule.name,
                            "hash": format!("{:016x}", s.hash),
                            "automorphisms": s.automorphisms.to_string(),
                            "orbits": s.orbits,
                            "uneven_matches_up_to": s.partial.as_ref().map(|p| p.0),
                        }));
                    } else {
                        let orbits: Vec<String> = s
                            .orbits
                            .iter()
                            .map(|o| format!("{{{}}}", o.join(" ")))
                            .collect();
                        let mut line = format!(
                            "{}: rule `{}`: pattern hash {:016x}, {} {}",
                            path.display(),
                            rule.name,
                            s.hash,
                            s.automorphisms,
                            if s.automorphisms.exact() == Some(1) {
                                "automorphism"
                            } else {
                                "automorphisms"
                            },
                        );
                        if !orbits.is_empty() {
                            line.push_str(&format!(", exchanged: {}", orbits.join(" ")));
                        }
                        if let Some((most, _)) = &s.partial {
                            line.push_str(&format!(
                                "; on some hosts up to {most} matches per subgraph{}",
                                if rule.count_once { " (count_once)" } else { "" }
                            ));
                        }
                        output::say(format_args!("{line}"))?;
                    }
                }
                if o.json {
                    documents.push(json!({
                        "file": path.display().to_string(),
                        "grammar": loaded.grammar.name(),
                        "patterns": patterns,
                    }));
                }
            }
        }
    }
    if o.json {
        return output::say(format_args!(
            "{}",
            serde_json::to_string_pretty(&documents).expect("JSON values serialize")
        ));
    }
    if levels.len() >= 2 {
        // Classes of isomorphic levels, in the order first named.
        let mut classes: Vec<(Vec<u8>, Vec<&Path>)> = Vec::new();
        for (path, _, form) in &levels {
            match classes.iter_mut().find(|(f, _)| f == form) {
                Some((_, paths)) => paths.push(path),
                None => classes.push((form.clone(), vec![path])),
            }
        }
        if classes.len() == 1 {
            output::say(format_args!(
                "all {} levels are the same level (isomorphic)",
                levels.len()
            ))?;
        } else {
            output::say(format_args!(
                "{} distinct levels among {}",
                classes.len(),
                levels.len()
            ))?;
            for (_, paths) in classes.iter().filter(|(_, p)| p.len() > 1) {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                output::say(format_args!("same level: {}", names.join(", ")))?;
            }
        }
    }
    Ok(())
}

fn orbit_count(orbits: &[u32]) -> usize {
    orbits
        .iter()
        .enumerate()
        .filter(|&(v, &o)| v as u32 == o)
        .count()
}

/// The JSON of one level; vertex positions in the canonical labelling are
/// mapped back to the file's vertex ids.
fn level_json(
    path: &Path,
    graph: &levelgraph::Graph,
    ids: &[levelgraph::VertexId],
    c: &Canon,
) -> serde_json::Value {
    let hex: String = c.form.iter().map(|b| format!("{b:02x}")).collect();
    let id = |i: u32| ids[i as usize].0;
    let generators: Vec<Vec<[u32; 2]>> = c
        .automorphisms
        .generators
        .iter()
        .map(|g| {
            g.iter()
                .enumerate()
                .filter(|&(v, &w)| v as u32 != w)
                .map(|(v, &w)| [id(v as u32), id(w)])
                .collect()
        })
        .collect();
    let orbits: Vec<[u32; 2]> = c
        .automorphisms
        .orbits
        .iter()
        .enumerate()
        .map(|(v, &o)| [id(v as u32), id(o)])
        .collect();
    json!({
        "file": path.display().to_string(),
        "vertices": graph.vertex_count(),
        "edges": graph.edge_count(),
        "hash": format!("{:016x}", c.hash),
        "form": hex,
        "labelling": c.labelling.iter().map(|&v| id(v)).collect::<Vec<_>>(),
        "search_nodes": c.nodes,
        "automorphisms": {
            "order": c.automorphisms.order.to_string(),
            "generators": generators,
            "orbits": orbits,
        },
    })
}

/// A mission graph when the file is one, else a grammar.
fn read(path: &Path) -> Result<Read, Failure> {
    let is_grammar_text = path.extension().is_some_and(|e| e == "lg");
    if !is_grammar_text {
        let text = crate::input::read_text(path).map_err(|e| {
            e.report("file", path);
            Failure::BadInput
        })?;
        if let Ok(graph) = MissionDoc::from_json(&text).and_then(|doc| doc.to_graph()) {
            return Ok(Read::Level(Box::new(graph)));
        }
        // Not a mission graph: a grammar's JSON form, or an error that
        // says what each reading found.
        if levelgraph::grammar::Grammar::from_json(&text).is_err() {
            let err = MissionDoc::from_json(&text)
                .and_then(|doc| doc.to_graph())
                .err()
                .map_or_else(String::new, |e| e.to_string());
            eprintln!(
                "error: {}: neither a mission graph nor a grammar: as a mission graph, {err}",
                path.display()
            );
            return Err(Failure::BadInput);
        }
    }
    load_grammar(Some(path)).map(|l| Read::Grammar(Box::new(l)))
}
