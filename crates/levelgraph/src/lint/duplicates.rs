//! Rules that are duplicates of each other up to renaming their vertices.
//!
//! Each rule becomes one labelled graph: its pattern vertices (labelled
//! with their tag sets, forbidden tags, attributes, valence, and what each
//! right-hand alternative does to them), the own vertices of each
//! `where not` condition, the new vertices of each alternative, and every
//! edge of every side (labelled with the side, direction, cosmetic flag and
//! label). Two rules are duplicates when these graphs are isomorphic: when
//! their canonical forms ([`crate::canon`]) are equal, so each rule is
//! labelled once and the rules are grouped by form, instead of searching
//! for an isomorphism between every pair (the backtracking search it
//! replaced is kept below as the tests' reference).
//! Rule attributes that only say how often a rule runs (weight, max_uses,
//! probability, priority, …) are ignored; `induced`, `orient any` and
//! `mirror` change what a rule matches, so rules must agree on them.

use std::collections::{BTreeMap, BTreeSet};

use super::location;
use crate::canon::{self, ColouredGraph, SearchLimits};
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::{Grammar, Rule, RuleEdge};

/// Larger rules are not compared: each labelled-graph vertex is one side's
/// vertex, and a rule this large is no one's duplicate by accident.
const MAX_VERTICES: usize = 256;

pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    for (i, j) in duplicate_pairs(model, false) {
        let rule = &model.rules[j];
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "rule `{}` duplicates rule `{}` up to renaming its vertices",
                    rule.name, model.rules[i].name
                ),
                location(rule.span, format!("rules[{j}]")),
            )
            .with_hint("merge them (raise the weight of one) or make them differ"),
        );
    }
}

/// The attributes that change what a rule matches: `induced`, `orient
/// any`, `mirror`.
type Matching = (bool, bool, bool);

/// The duplicate pairs `(first, later)` of `model`'s rules, each later
/// rule with the first rule it duplicates: by canonical forms (what
/// `check` runs), or with `by_search` by the pairwise backtracking search
/// it replaced. For the benchmark that compares them
/// (`cargo bench -p levelgraph --bench duplicates`).
pub(crate) fn duplicate_pairs(model: &Grammar, by_search: bool) -> Vec<(usize, usize)> {
    let how = |r: &Rule| -> Matching { (r.induced, r.orient_any, r.mirror) };
    let mut pairs = Vec::new();
    if by_search {
        let graphs: Vec<Option<Labelled>> = model.rules.iter().map(Labelled::of).collect();
        for j in 0..graphs.len() {
            let first = (0..j).find(|&i| {
                how(&model.rules[i]) == how(&model.rules[j])
                    && matches!((&graphs[i], &graphs[j]), (Some(a), Some(b)) if a.isomorphic(b))
            });
            pairs.extend(first.map(|i| (i, j)));
        }
    } else {
        let mut first: BTreeMap<(Matching, Vec<u8>), usize> = BTreeMap::new();
        for (j, rule) in model.rules.iter().enumerate() {
            let Some(form) = Labelled::of(rule).and_then(|g| g.canonical_form()) else {
                continue;
            };
            match first.get(&(how(rule), form.clone())) {
                Some(&i) => pairs.push((i, j)),
                None => {
                    first.insert((how(rule), form), j);
                }
            }
        }
    }
    pairs
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

    /// The canonical form of this labelled graph: vertex and edge labels
    /// become colours in the order of their text, and the texts are the
    /// form's palette. `None` past the labelling's node budget.
    fn canonical_form(&self) -> Option<Vec<u8>> {
        let vertex_labels: BTreeSet<&String> = self.labels.iter().collect();
        let vertex_labels: Vec<&String> = vertex_labels.into_iter().collect();
        let edge_labels: BTreeSet<&String> = self.edges.iter().map(|(_, _, l)| l).collect();
        let edge_labels: Vec<&String> = edge_labels.into_iter().collect();
        let rank = |all: &[&String], l: &String| all.binary_search(&l).expect("listed") as u32;
        let mut g = ColouredGraph::new(
            self.labels
                .iter()
                .map(|l| rank(&vertex_labels, l))
                .collect(),
        );
        for (a, b, l) in &self.edges {
            g.add_arc(*a as u32, *b as u32, rank(&edge_labels, l))
                .ok()?;
        }
        let mut palette = Vec::new();
        for l in vertex_labels
            .iter()
            .chain([&&String::new()])
            .chain(&edge_labels)
        {
            palette.extend_from_slice(l.as_bytes());
            palette.push(0);
        }
        g.set_palette(palette);
        canon::canonical(&g, &SearchLimits::default())
            .ok()
            .map(|c| c.form)
    }

    /// The reference: an isomorphism found by backtracking.
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

#[cfg(test)]
mod tests {
    use super::Labelled;
    use crate::grammar;

    /// Canonical forms agree with the backtracking search on every pair of
    /// rules of the examples and of a grammar of near-duplicates.
    #[test]
    fn canonical_forms_agree_with_the_backtracking_search() {
        let mut models: Vec<grammar::Grammar> = Vec::new();
        for entry in
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples")).unwrap()
        {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "lg") {
                let text = std::fs::read_to_string(&path).unwrap();
                models.push(grammar::parse(&text, "example").unwrap());
            }
        }
        models.push(
            grammar::parse(
                "tags { s room key lock }\n\
                 rule a { (x:room) -- (y:room) => (x) -- (z:room) -- (y) }\n\
                 rule b { (p:room) -- (q:room) => (q) -- (r:room) -- (p) }\n\
                 rule c { (x:room) -> (y:room) => (x) -> (z:room) -> (y) }\n\
                 rule d { (x:room) -> (y:room) => (y) -> (z:room) -> (x) }\n\
                 rule e { (x:room) -- (y:room), (y) -- (w:room) => (x) -- (w) }\n\
                 rule f { (x:room) -- (y:room), (x) -- (w:room) => (y) -- (w) }\n\
                 rule g { (x:room) -- (y:key) => (x) -- (y), (y) ~> (l:lock) }\n\
                 rule h { (x:room) -- (y:key) => (x) -- (y), (l:lock) ~> (y) }",
                "near",
            )
            .unwrap(),
        );
        let mut pairs = 0;
        let mut duplicates = 0;
        for model in &models {
            let graphs: Vec<Labelled> = model.rules.iter().filter_map(Labelled::of).collect();
            let forms: Vec<Vec<u8>> = graphs.iter().map(|g| g.canonical_form().unwrap()).collect();
            for i in 0..graphs.len() {
                for j in 0..graphs.len() {
                    let by_search = graphs[i].isomorphic(&graphs[j]);
                    assert_eq!(
                        forms[i] == forms[j],
                        by_search,
                        "{} rules {i}, {j}",
                        model.name
                    );
                    pairs += 1;
                    duplicates += usize::from(by_search && i != j);
                }
            }
        }
        assert!(pairs > 200, "{pairs}");
        // a = b (the same rule written the other way round), e = f.
        assert!(duplicates >= 4, "{duplicates}");
    }
}
