//! Resolving the names of one side of a rule (pattern, condition or
//! alternative): vertex indexes, edges and containments.

use std::collections::{BTreeMap, BTreeSet};

use super::cx::{cx_loc, Cx, Path};
use crate::diagnostic::Span;
use crate::grammar::model::{self, RuleEdge};
use crate::graph::{Symbol, Symbols};

/// Indexes a side's vertex names; reports duplicates (possible only in JSON).
pub(super) fn name_index<'a>(
    cx: &mut Cx<'_>,
    names: impl Iterator<Item = (&'a str, Option<Span>)>,
    path: Path<'_>,
) -> BTreeMap<&'a str, usize> {
    let mut index = BTreeMap::new();
    for (k, (name, span)) in names.enumerate() {
        if index.insert(name, k).is_some() {
            cx.error(
                format!("vertex `{name}` appears twice on one side"),
                cx_loc(span, path.item("vertices", k)),
                None,
            );
        }
    }
    index
}

/// `{length: F}` belongs to edges a rule adds: an error on a pattern or
/// condition edge.
pub(super) fn reject_lengths(cx: &mut Cx<'_>, edges: &[RuleEdge], path: Path<'_>, side: &str) {
    for (k, e) in edges.iter().enumerate() {
        if e.length.is_some() {
            cx.error(
                format!("an edge of a {side} cannot have a length"),
                cx_loc(e.span, path.item("edges", k)),
                Some(
                    "`{length: F}` belongs on the right-hand side, on an edge the rule adds".into(),
                ),
            );
        }
    }
}

/// What makes two rule edges the same ([`model::same_edge`]): kind,
/// label and ends, the ends of an undirected edge in either order.
pub(super) type EdgeKey<'e> = (bool, bool, Option<&'e str>, (&'e str, &'e str));

/// The [`EdgeKey`] of `e`: equal keys exactly for edges that
/// [`model::same_edge`] calls the same, so sides of thousands of edges are
/// compared in a map instead of pair by pair.
pub(super) fn edge_key(e: &RuleEdge) -> EdgeKey<'_> {
    let (a, b) = (e.source.as_str(), e.target.as_str());
    let ends = if e.directed || a <= b { (a, b) } else { (b, a) };
    (e.directed, e.cosmetic, e.label.as_deref(), ends)
}

pub(super) fn resolve_edges(
    cx: &mut Cx<'_>,
    edges: &[RuleEdge],
    index: &BTreeMap<&str, usize>,
    labels: &mut Symbols,
    path: Path<'_>,
) -> Vec<Option<(usize, usize, Option<Symbol>)>> {
    let mut seen: BTreeSet<EdgeKey<'_>> = BTreeSet::new();
    edges
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let at = cx_loc(e.span, path.item("edges", k));
            let ends = (index.get(e.source.as_str()), index.get(e.target.as_str()));
            let (Some(&a), Some(&b)) = ends else {
                let missing = if ends.0.is_none() {
                    &e.source
                } else {
                    &e.target
                };
                cx.error(
                    format!("edge names vertex `{missing}`, which is not on this side"),
                    at,
                    None,
                );
                return None;
            };
            if e.length.is_some_and(|f| !(f.is_finite() && f > 0.0)) {
                cx.error(
                    format!("edge length {} must be a number greater than 0", e.length.unwrap_or(0.0)),
                    at.clone(),
                    None,
                );
            }
            if a == b {
                cx.error(
                    format!("edge from vertex `{}` to itself", e.source),
                    at,
                    Some("levels have no corridors from a room to itself".into()),
                );
                return None;
            }
            // A host never holds two identical edges, so a pattern that
            // needs two could never match; on the right it would be a no-op.
            if !seen.insert(edge_key(e)) {
                cx.error(
                    format!(
                        "edge between `{}` and `{}` is written twice on this side",
                        e.source, e.target
                    ),
                    at,
                    Some(
                        "a host graph never has two identical edges; use a label to tell edges apart"
                            .into(),
                    ),
                );
                return None;
            }
            Some((a, b, e.label.as_deref().map(|l| labels.intern(l))))
        })
        .collect()
}

/// Resolves `(child) in (parent)` pairs against a side's names. Errors:
/// a name not on the side, a vertex in itself, a vertex in two parents,
/// a cycle.
pub(super) fn resolve_inside(
    cx: &mut Cx<'_>,
    inside: &[model::Containment],
    index: &BTreeMap<&str, usize>,
    path: Path<'_>,
) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    // Where each pair of `out` was written.
    let mut written: Vec<(Option<Span>, usize)> = Vec::new();
    for (k, c) in inside.iter().enumerate() {
        let at = cx_loc(c.span, path.item("inside", k));
        let (Some(&child), Some(&parent)) =
            (index.get(c.child.as_str()), index.get(c.parent.as_str()))
        else {
            let missing = if index.contains_key(c.child.as_str()) {
                &c.parent
            } else {
                &c.child
            };
            cx.error(
                format!("`in` names vertex `{missing}`, which is not on this side"),
                at,
                None,
            );
            continue;
        };
        if child == parent {
            cx.error(
                format!("vertex `{}` cannot be stored in itself", c.child),
                at,
                None,
            );
            continue;
        }
        if out.iter().any(|&(ch, p)| ch == child && p != parent) {
            cx.error(
                format!("vertex `{}` is stored in two vertices on one side", c.child),
                at,
                Some("a vertex is stored in at most one other".into()),
            );
            continue;
        }
        if !out.contains(&(child, parent)) {
            out.push((child, parent));
            written.push((c.span, k));
        }
    }
    // No cycle: following parents from any vertex must end.
    for (&(start, _), &(span, k)) in out.iter().zip(&written) {
        let mut at = start;
        for _ in 0..=out.len() {
            match out.iter().find(|&&(ch, _)| ch == at) {
                Some(&(_, p)) if p == start => {
                    cx.error(
                        "containment on this side puts a vertex inside itself".into(),
                        cx_loc(span, path.item("inside", k)),
                        None,
                    );
                    return out;
                }
                Some(&(_, p)) => at = p,
                None => break,
            }
        }
    }
    out
}
