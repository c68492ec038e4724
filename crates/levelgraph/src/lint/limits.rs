//! The rule limits (the shape rules need for a drawing to be kept while
//! rewriting, as geometric derivation does) and the start-symbol rules.
//!
//! Errors (the grammar would break the engine's invariants):
//! - no start rule (a rule whose pattern is one vertex tagged with the start symbol);
//! - a pattern that mentions the start symbol but is not exactly one vertex
//!   with no edges;
//! - the start symbol on a right-hand side, including a start rule that keeps
//!   its vertex without retagging it;
//! - a one-vertex pattern with `*`, which also matches the start vertex;
//! - `min_vertices` greater than `max_vertices`.
//!
//! Warnings (the rule limits, which geometric derivation relies on, and
//! dead parts of the grammar):
//! - a side that is not connected (cosmetic edges do not connect; `in` does);
//! - a pattern vertex missing on the right (the map from pattern to
//!   replacement vertices is not total, so the vertex is deleted);
//! - a non-start rule with fewer than two pattern vertices (not context-sensitive);

use super::{is_start_rule, location};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::grammar::{Grammar, Rule, WILDCARD};
use crate::union_find::UnionFind;

/// Findings about the header limits, start rules and the rule limits.
pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    check_header(model, out);
    check_start_rules(model, out);
    for (i, rule) in model.rules.iter().enumerate() {
        check_rule(model, i, rule, out);
    }
}

/// The header's limits agree with each other.
fn check_header(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let limits = &model.limits;
    if limits.min_vertices > limits.max_vertices {
        out.push(
            Diagnostic::new(
                Severity::Error,
                format!(
                    "min_vertices {} is greater than max_vertices {}, so every derivation fails",
                    limits.min_vertices, limits.max_vertices
                ),
                model
                    .spans
                    .locate(&["min_vertices", "max_vertices", "grammar"], "limits"),
            )
            .with_hint("lower min_vertices or raise max_vertices in the grammar header"),
        );
    }
}

/// There is a start rule, the start symbol appears only as its one-vertex
/// pattern, never on a right-hand side, and no one-vertex `*` pattern can
/// fire before it.
fn check_start_rules(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let start = model.start.as_str();
    let rule_at = |i: usize| location(model.rules[i].span, format!("rules[{i}]"));
    let mut has_start_rule = false;
    for (i, rule) in model.rules.iter().enumerate() {
        let mentions_start = rule
            .lhs
            .vertices
            .iter()
            .any(|v| v.tags.iter().any(|t| t == start));
        let is_start_rule = is_start_rule(rule, start);
        has_start_rule |= is_start_rule;
        // Attribute constraints keep a pattern off the bare start vertex.
        // Grid mode has no start vertex to match.
        let wildcard_single = model.grid.is_none()
            && rule.lhs.vertices.len() == 1
            && rule.lhs.vertices[0].tags.iter().any(|t| t == WILDCARD)
            && rule.lhs.vertices[0].attributes.is_empty();
        if wildcard_single {
            out.push(
                Diagnostic::new(
                    Severity::Error,
                    format!(
                        "rule `{}`: its one-vertex pattern `*` also matches the start vertex, so it can fire before the start rule",
                        rule.name
                    ),
                    rule_at(i),
                )
                .with_hint("name the tags the rule is meant for instead of `*`"),
            );
        }
        if mentions_start && !is_start_rule {
            out.push(
                Diagnostic::new(
                    Severity::Error,
                    format!(
                        "rule `{}`: a pattern with the start symbol `{start}` must be that one vertex alone",
                        rule.name
                    ),
                    rule_at(i),
                )
                .with_hint(format!("start rules look like `(a:{start}) => …`")),
            );
        }
        for v in rule.rhs.iter().flat_map(|alt| &alt.vertices) {
            let keeps_start = v.tag.is_none()
                && rule
                    .lhs
                    .vertices
                    .iter()
                    .any(|p| p.name == v.name && p.tags == [start]);
            if v.tag.as_deref() == Some(start) || keeps_start {
                out.push(
                    Diagnostic::new(
                        Severity::Error,
                        format!(
                            "rule `{}`: the start symbol `{start}` appears on the right-hand side (vertex `{}`)",
                            rule.name, v.name
                        ),
                        location(v.span, format!("rules[{i}].rhs")),
                    )
                    .with_hint("the start symbol is consumed by the first application; give the vertex another tag"),
                );
            }
        }
    }
    // In grid mode derivations start from the grid, not a start vertex.
    if !has_start_rule && model.grid.is_none() {
        out.push(
            Diagnostic::new(
                Severity::Error,
                format!("no start rule: no rule's pattern is a single `{start}` vertex"),
                if model.spans.is_text() {
                    model.spans.locate(&["start", "grammar"], "")
                } else {
                    Location::Whole
                },
            )
            .with_hint(format!(
                "add `rule start {{ (a:{start}) => (a:room) }}`; a derivation begins from one `{start}` vertex"
            )),
        );
    }
}

/// The rule limits of rule `i`: a connected pattern and right-hand sides,
/// an edge to place new vertices against, every pattern vertex kept, and
/// `where not` conditions that can fail.
fn check_rule(model: &Grammar, i: usize, rule: &Rule, out: &mut Vec<Diagnostic>) {
    let start = model.start.as_str();
    let rule_at = |i: usize| location(model.rules[i].span, format!("rules[{i}]"));
    let is_start_rule = rule.lhs.vertices.len() == 1 && rule.lhs.vertices[0].tags == [start];
    // Grid rules (graph rewriting on a grid) are held together and
    // placed by grid offsets, not by edges: the rule limits below do
    // not apply.
    // In a geometric grammar offsets are the rule's drawing instead.
    let grid_rule =
        model.geometry.is_none() && rule.lhs.vertices.iter().any(|v| v.offset.is_some());
    if grid_rule && model.grid.is_none() {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "rule `{}` has grid offsets, but the grammar has no `grid`: it matches only a host whose vertices have cells",
                    rule.name
                ),
                rule_at(i),
            )
            .with_hint("add `grid ROWS x COLUMNS of TAG` to the grammar header, or derive from such a host with `generate --host`"),
        );
    }
    if !is_start_rule && !grid_rule && rule.lhs.vertices.len() < 2 {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!("rule `{}`: the pattern has one vertex, so the rule is not context-sensitive", rule.name),
                rule_at(i),
            )
            .with_hint("the rule limits: a non-start rule needs an edge in its pattern to place new vertices against (docs/grammar-language.md, section 10.2)"),
        );
    }
    let lhs_names: Vec<&str> = rule.lhs.vertices.iter().map(|v| v.name.as_str()).collect();
    // A stored vertex is connected to what it is stored in.
    let lhs_pairs = rule
        .lhs
        .edges
        .iter()
        .filter(|e| !e.cosmetic)
        .map(|e| (e.source.as_str(), e.target.as_str()))
        .chain(
            rule.lhs
                .inside
                .iter()
                .map(|c| (c.child.as_str(), c.parent.as_str())),
        );
    if !grid_rule && !connected(&lhs_names, lhs_pairs) {
        out.push(not_connected(&rule.name, "pattern", rule_at(i)));
    }
    for (k, cond) in rule.where_not.iter().enumerate() {
        // Nothing of its own to look for: the condition is met by every
        // match, so it rejects them all.
        let only_matched = cond
            .vertices
            .iter()
            .all(|v| lhs_names.contains(&v.name.as_str()));
        if only_matched && cond.edges.is_empty() && cond.inside.is_empty() {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "rule `{}`: `where not` condition {} names only pattern vertices and no edge or containment, so every match meets it and the rule never applies",
                        rule.name,
                        k + 1
                    ),
                    cond.vertices
                        .first()
                        .map_or_else(|| rule_at(i), |v| location(v.span, format!("rules[{i}].where_not[{k}]"))),
                )
                .with_hint("a condition rejects a match when it can be found next to it: give it an edge, a containment or a vertex of its own"),
            );
        }
    }
    check_right_sides(i, rule, grid_rule, out);
}

/// Rule `i`'s right-hand sides are connected (unless it is a grid rule)
/// and keep every pattern vertex.
fn check_right_sides(i: usize, rule: &Rule, grid_rule: bool, out: &mut Vec<Diagnostic>) {
    let rule_at = |i: usize| location(rule.span, format!("rules[{i}]"));
    let several = rule.rhs.len() > 1;
    for (k, alt) in rule.rhs.iter().enumerate() {
        let side = if several {
            format!("right-hand side {}", k + 1)
        } else {
            "right-hand side".to_owned()
        };
        let rhs_names: Vec<&str> = alt.vertices.iter().map(|v| v.name.as_str()).collect();
        let pairs = alt
            .edges
            .iter()
            .filter(|e| !e.cosmetic)
            .map(|e| (e.source.as_str(), e.target.as_str()))
            .chain(
                alt.inside
                    .iter()
                    .map(|c| (c.child.as_str(), c.parent.as_str())),
            );
        if !grid_rule && !connected(&rhs_names, pairs) {
            out.push(not_connected(&rule.name, &side, rule_at(i)));
        }
        for v in &rule.lhs.vertices {
            if !rhs_names.contains(&v.name.as_str()) {
                let which = if several {
                    format!(" in right-hand side {}", k + 1)
                } else {
                    String::new()
                };
                out.push(
                    Diagnostic::new(
                        Severity::Warning,
                        format!(
                            "rule `{}`: pattern vertex `{}` is not on the right{which}, so it is deleted",
                            rule.name, v.name
                        ),
                        location(v.span, format!("rules[{i}].lhs")),
                    )
                    .with_hint(format!(
                        "the rule limits: every pattern vertex is kept on the right; write `({})` there to keep it",
                        v.name
                    )),
                );
            }
        }
    }
}

fn not_connected(rule: &str, side: &str, at: Location) -> Diagnostic {
    Diagnostic::new(
        Severity::Warning,
        format!("rule `{rule}`: the {side} is not connected"),
        at,
    )
    .with_hint("the rule limits: both sides must be connected (cosmetic edges do not count)")
}

fn connected<'a>(names: &[&'a str], edges: impl Iterator<Item = (&'a str, &'a str)>) -> bool {
    if names.len() <= 1 {
        return true;
    }
    // By map, not by scan: a side may have many thousands of vertices.
    let index: std::collections::BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i))
        .rev()
        .collect();
    let idx = |n: &str| index.get(n).copied();
    let mut sets = UnionFind::new(names.len());
    for (a, b) in edges {
        if let (Some(a), Some(b)) = (idx(a), idx(b)) {
            sets.union(a, b);
        }
    }
    sets.sets() == 1
}
