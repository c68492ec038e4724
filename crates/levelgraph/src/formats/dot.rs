//! Graphviz DOT output of a mission graph.
//!
//! One `digraph`: directed edges get arrows, undirected edges `dir=none`,
//! cosmetic edges are dashed, labels are edge labels; vertices are filled
//! circles in their alphabet colour, labelled with their tag. Node names are
//! `v<id>` with the stable vertex id. A stored (nested) vertex has a
//! dotted `in` edge to the vertex it is stored in.

use std::fmt::Write;

use crate::alphabet::Alphabet;
use crate::graph::Graph;

/// The DOT text of `g`, titled `title`.
pub fn to_dot(g: &Graph, alphabet: &Alphabet, title: &str) -> String {
    let mut out = String::new();
    let q = quote;
    let _ = writeln!(out, "digraph {} {{", q(title));
    let _ = writeln!(
        out,
        "  graph [label={}, labelloc=t, overlap=false];",
        q(title)
    );
    let _ = writeln!(
        out,
        "  node [shape=circle, style=filled, fontname=\"Helvetica\", fontsize=10];"
    );
    let _ = writeln!(out, "  edge [fontname=\"Helvetica\", fontsize=9];");
    for (id, v) in g.vertices() {
        let tag = g.tags().name(v.tag);
        let color = alphabet.color(tag);
        let _ = writeln!(
            out,
            "  v{} [label={}, fillcolor={}, fontcolor={}];",
            id.0,
            q(tag),
            q(color),
            q(Alphabet::text_color(color))
        );
    }
    // A stored vertex points at what it is stored in with a dotted "in" edge.
    for (id, v) in g.vertices() {
        if let Some(parent) = v.parent {
            let _ = writeln!(
                out,
                "  v{} -> v{} [style=dotted, arrowhead=odiamond, label=\"in\"];",
                id.0, parent.0
            );
        }
    }
    for (_, e) in g.edges() {
        let mut attrs = Vec::new();
        if !e.directed {
            attrs.push("dir=none".to_owned());
        }
        if e.cosmetic {
            attrs.push("style=dashed".to_owned());
        }
        if let Some(l) = e.label {
            attrs.push(format!("label={}", q(g.labels().name(l))));
        }
        let attrs = if attrs.is_empty() {
            String::new()
        } else {
            format!(" [{}]", attrs.join(", "))
        };
        let _ = writeln!(out, "  v{} -> v{}{attrs};", e.source.0, e.target.0);
    }
    out.push_str("}\n");
    out
}

/// A DOT double-quoted string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}
