//! Rules that are duplicates of each other up to renaming their vertices.
//!
//! Each rule becomes one labelled graph: its pattern vertices (labelled
//! with their tag sets, forbidden tags, attributes, valence, and what each
//! right-hand alternative does to them), the own vertices of each
//! `where not` condition, the new vertices of each alternative, and every
//! edge of every side (labelled with the side, direction, cosmetic flag and
//! label). Two rules are duplicates when these graphs are isomorphic, which
//! a small backtracking search decides (rules are small; candidates are
//! pruned by label and by adjacency to the vertices already mapped).
//! Rule attributes that only say how often a rule runs (weight, max_uses,
//! probability, priority, …) are ignored; `induced`, `orient any` and
//! `mirror` change what a rule matches, so rules must agree on them.

use std::collections::{BTreeMap, BTreeSet};

use super::location;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::{Grammar, Rule, RuleEdge};

/// Larger rules are not compared (the search is exponential in the worst case).
const MAX_VERTICES: usize = 24;

pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let graphs: Vec<Option<Labelled>> = model.rules.iter().map(Labelled::of).collect();
    let mut reported = vec![false; model.rules.len()];
    for j in 0..model.rules.len() {
        for i in 0..j {
            if reported[j] {
                break;
            }
            let (Some(a), Some(b)) = (&graphs[i], &graphs[j]) else {
                continue;
            };
            // These change what a rule matches, not just how often it runs.
            let how = |r: &Rule| (r.induced, r.orient_any, r.mirror);
            if how(&model.rules[i]) == how(&model.rules[j]) && a.isomorphic(b) {
                reported[j] = true;
                out.push(
                    Diagnostic::new(
                        Severity::Warning,
                        format!(
                            "rule `{}` duplicates rule `{}` up to renaming its vertices",
                            model.rules[j].name, model.rules[i].name
                        ),
                        location(model.rules[j].span, format!("rules[{j}]")),
                    )
                    .with_hint("merge them (raise the weight of one) or make them differ"),
                );
            }
        }
    }
}

/// A vertex-labelled, edge-labelled directed graph (undirected edges are
/// stored both ways).
#[derive(Debug)]
struct Labelled {
    labels: Vec<String>,
    edges: BTreeSet<(usize, usize, String)>,
}

impl Labelled {
    fn of(rule: &Rule) -> Option<Labelled> {
        // Every vertex of a side gets a label of its own or shares the
        // pattern vertex's, so a side larger than the cap means more
        // labels than the cap: give up before building anything.
        let mut sides = std::iter::once(rule.lhs.vertices.len())
            .chain(rule.where_not.iter().map(|n| n.vertices.len()))
            .chain(rule.rhs.iter().map(|a| a.vertices.len()));
        if sides.any(|n| n > MAX_VERTICES) {
            return None;
        }
        let mut labels = Vec::new();
        // Scoped name → id, the first id given a name: by map, as a side may
        // have many thousands of vertices.
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        let id_of = |names: &BTreeMap<String, usize>, scoped: &str| names.get(scoped).copied();
        for v in &rule.lhs.vertices {
            let mut tags = v.tags.clone();
            tags.sort();
            let mut forbidden = v.forbidden.clone();
            forbidden.sort();
            let mut label = format!(
                "L {tags:?} !{forbidden:?} {:?} v{:?} @{:?}",
                v.attributes, v.valence, v.offset
            );
            for (k, alt) in rule.rhs.iter().enumerate() {
                match alt.vertices.iter().find(|r| r.name == v.name) {
                    Some(r) => {
                        label.push_str(&format!(" | {k}: keep {:?} {:?}", r.tag, r.attributes))
                    }
                    None => label.push_str(&format!(" | {k}: delete")),
                }
            }
            names.entry(format!("L.{}", v.name)).or_insert(labels.len());
            labels.push(label);
        }
        for (n, nac) in rule.where_not.iter().enumerate() {
            for v in &nac.vertices {
                if id_of(&names, &format!("L.{}", v.name)).is_some() {
                    continue;
                }
                let mut tags = v.tags.clone();
                tags.sort();
                names
                    .entry(format!("N{n}.{}", v.name))
                    .or_insert(labels.len());
                labels.push(format!("N{n} {tags:?} {:?} v{:?}", v.attributes, v.valence));
            }
        }
        for (k, alt) in rule.rhs.iter().enumerate() {
            for v in &alt.vertices {
                if id_of(&names, &format!("L.{}", v.name)).is_some() {
                    continue;
                }
                names
                    .entry(format!("F{k}.{}", v.name))
                    .or_insert(labels.len());
                labels.push(format!(
                    "F{k} {:?} {:?} @{:?}",
                    v.tag, v.attributes, v.offset
                ));
            }
        }
        if labels.len() > MAX_VERTICES {
            return None;
        }
        let mut edges = BTreeSet::new();
        let mut add = |side: &str, scope: &str, e: &RuleEdge| {
            let end = |n: &str| {
                id_of(&names, &format!("L.{n}")).or_else(|| id_of(&names, &format!("{scope}.{n}")))
            };
            if let (Some(a), Some(b)) = (end(&e.source), end(&e.target)) {
                let label = format!("{side} {} {} {:?}", e.directed, e.cosmetic, e.label);
                edges.insert((a, b, label.clone()));
                if !e.directed {
                    edges.insert((b, a, label));
                }
            }
        };
        for e in &rule.lhs.edges {
            add("L", "L", e);
        }
        // Containment is a directed edge of its own kind.
        let contain = |scope: &str, c: &crate::grammar::Containment| RuleEdge {
            source: c.child.clone(),
            target: c.parent.clone(),
            directed: true,
            cosmetic: false,
            label: Some(format!("in.{scope}")),
            length: None,
            span: None,
        };
        for c in &rule.lhs.inside {
            add("L", "L", &contain("L", c));
        }
        for (n, nac) in rule.where_not.iter().enumerate() {
            for c in &nac.inside {
                add(&format!("N{n}"), &format!("N{n}"), &contain("N", c));
            }
        }
        for (k, alt) in rule.rhs.iter().enumerate() {
            for c in &alt.inside {
                add(&format!("A{k}"), &format!("F{k}"), &contain("A", c));
            }
        }
        for (n, nac) in rule.where_not.iter().enumerate() {
            for e in &nac.edges {
                add(&format!("N{n}"), &format!("N{n}"), e);
            }
        }
        for (k, alt) in rule.rhs.iter().enumerate() {
            for e in &alt.edges {
                add(&format!("A{k}"), &format!("F{k}"), e);
            }
        }
        Some(Labelled { labels, edges })
    }

    fn isomorphic(&self, other: &Labelled) -> bool {
        if self.labels.len() != other.labels.len() || self.edges.len() != other.edges.len() {
            return false;
        }
        let mut a: Vec<&String> = self.labels.iter().collect();
        let mut b: Vec<&String> = other.labels.iter().collect();
        a.sort();
        b.sort();
        if a != b {
            return false;
        }
        let mut map = vec![usize::MAX; self.labels.len()];
        let mut used = vec![false; other.labels.len()];
        self.extend(other, 0, &mut map, &mut used)
    }

    fn extend(&self, other: &Labelled, v: usize, map: &mut [usize], used: &mut [bool]) -> bool {
        if v == self.labels.len() {
            // Same edge count and every edge mapped onto an edge: a bijection.
            return self
                .edges
                .iter()
                .all(|(a, b, l)| other.edges.contains(&(map[*a], map[*b], l.clone())));
        }
        for w in 0..other.labels.len() {
            if used[w] || other.labels[w] != self.labels[v] {
                continue;
            }
            // Edges between v and already-mapped vertices must exist there too.
            let consistent = self.edges.iter().all(|(a, b, l)| {
                let (a2, b2) = (
                    if *a == v { w } else { map[*a] },
                    if *b == v { w } else { map[*b] },
                );
                let involved = (*a == v || *b == v) && a2 != usize::MAX && b2 != usize::MAX;
                !involved || other.edges.contains(&(a2, b2, l.clone()))
            });
            if !consistent {
                continue;
            }
            map[v] = w;
            used[w] = true;
            if self.extend(other, v + 1, map, used) {
                return true;
            }
            map[v] = usize::MAX;
            used[w] = false;
        }
        false
    }
}
