//! Graphviz DOT output of a mission graph.
//!
//! One `digraph`: directed edges get arrows, undirected edges `dir=none`,
//! cosmetic edges are dashed, labels are edge labels; vertices are filled
//! circles in their alphabet colour, labelled with their tag. Node names are
//! `v<id>` with the stable vertex id. A stored (nested) vertex has a
//! dotted `in` edge to the vertex it is stored in.

use std::io::{self, Write};

use crate::alphabet::Alphabet;
use crate::graph::Graph;

/// The DOT text of `g`, titled `title`; the whole text in memory
/// ([`write_dot`] writes the same bytes to a file as it goes).
pub fn to_dot(g: &Graph, alphabet: &Alphabet, title: &str) -> String {
    super::in_memory(|w| write_dot(w, g, alphabet, title))
}

/// [`to_dot`] written to `w` a line at a time: one line per vertex, per
/// stored vertex and per edge, nothing held for the whole graph.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_dot<W: Write>(
    w: &mut W,
    g: &Graph,
    alphabet: &Alphabet,
    title: &str,
) -> io::Result<()> {
    let q = quote;
    writeln!(w, "digraph {} {{", q(title))?;
    writeln!(
        w,
        "  graph [label={}, labelloc=t, overlap=false];",
        q(title)
    )?;
    writeln!(
        w,
        "  node [shape=circle, style=filled, fontname=\"Helvetica\", fontsize=10];"
    )?;
    writeln!(w, "  edge [fontname=\"Helvetica\", fontsize=9];")?;
    for (id, v) in g.vertices() {
        let tag = g.tags().name(v.tag);
        let color = alphabet.color(tag);
        writeln!(
            w,
            "  v{} [label={}, fillcolor={}, fontcolor={}];",
            id.0,
            q(tag),
            q(color),
            q(Alphabet::text_color(color))
        )?;
    }
    // A stored vertex points at what it is stored in with a dotted "in" edge.
    for (id, v) in g.vertices() {
        if let Some(parent) = v.parent {
            writeln!(
                w,
                "  v{} -> v{} [style=dotted, arrowhead=odiamond, label=\"in\"];",
                id.0, parent.0
            )?;
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
        writeln!(w, "  v{} -> v{}{attrs};", e.source.0, e.target.0)?;
    }
    w.write_all(b"}\n")
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
