//! Drawing one match at random without listing the others.
//!
//! The derivation draws a rule's match from its match store, uniformly
//! over all matches. When a pattern has too many matches to store (see
//! [`crate::derive::Budget::stored_match_words`]), it draws one here
//! instead: a randomized depth-first search along the pattern's search
//! plan that tries the candidates of each step in a random order — each
//! step picks uniformly among the host vertices not tried yet — and stops
//! at the first complete match. Memory is one candidate list per plan step,
//! however many matches there are. Every match can be drawn, but not with
//! equal probability: a match whose vertices have fewer alternatives at
//! each step is more likely. Dead ends are backtracked, so a match is found
//! whenever one exists, within the search budget ([`super::budget`]).

use std::ops::ControlFlow;

use super::pattern::SearchPlan;
use super::{budget, Match, Pattern, TagTest, UNBOUND};
use crate::graph::{EdgeId, Graph, VertexId};
use crate::rng::Rng;

impl Pattern {
    /// Draws a match of this pattern in `host` by a randomized search (see
    /// the module docs) and writes it to `out`. `false` when there is none
    /// — or when the search budget ran out first (the caller asks
    /// [`budget::within`]). Grid patterns are not drawn this way: for them
    /// it returns `false` at once.
    pub(crate) fn draw_match(&self, host: &Graph, rng: &mut Rng, out: &mut Match) -> bool {
        if self.vertices.is_empty() || self.grid.is_some() {
            return false;
        }
        out.vertices.clear();
        out.vertices.resize(self.vertices.len(), UNBOUND);
        out.edges.clear();
        out.edges.resize(self.edges.len(), EdgeId(u32::MAX));
        out.frame = None;
        let mut draw = Draw {
            pattern: self,
            host,
            plan: &self.plans[self.choose_root(host)],
            rng,
            image: out,
            used: Vec::with_capacity(self.vertices.len()),
            used_edges: Vec::with_capacity(self.edges.len()),
        };
        draw.extend(0).is_break()
    }
}

/// One randomized search.
struct Draw<'a> {
    pattern: &'a Pattern,
    host: &'a Graph,
    plan: &'a SearchPlan,
    rng: &'a mut Rng,
    image: &'a mut Match,
    used: Vec<VertexId>,
    used_edges: Vec<EdgeId>,
}

impl Draw<'_> {
    /// Places plan step `depth` and the ones after it; `Break` when a
    /// complete match is in `image` (or the budget ran out).
    fn extend(&mut self, depth: usize) -> ControlFlow<()> {
        let Some(step) = self.plan.steps.get(depth) else {
            return if self.pattern.conditions_hold(self.host, self.image) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        };
        let mut candidates = self.candidates(depth);
        while !candidates.is_empty() {
            let (h, via) = candidates.swap_remove(self.rng.below(candidates.len()));
            budget::spend()?;
            if self.used.contains(&h) || !self.pattern.vertex_fits(self.host, step.vertex, h) {
                continue;
            }
            self.image.vertices[step.vertex] = h;
            let mark = self.used_edges.len();
            if let Some((j, e)) = via {
                self.image.edges[j] = e;
                self.used_edges.push(e);
            }
            if self.place_checked_edges(depth) {
                self.used.push(h);
                self.extend(depth + 1)?;
                self.used.pop();
            }
            self.used_edges.truncate(mark);
        }
        ControlFlow::Continue(())
    }

    /// The host vertices step `depth` may place (with the host edge that
    /// reaches each, for a step along a pattern edge): the neighbours of
    /// the anchor along the step's edge, the stored or storing vertices of
    /// a containment, or every vertex with an accepted tag — the general
    /// search's candidates ([`super::search`]), gathered to be drawn from.
    fn candidates(&self, depth: usize) -> Vec<(VertexId, Option<(usize, EdgeId)>)> {
        let step = &self.plan.steps[depth];
        let host = self.host;
        let tags = &self.pattern.vertices[step.vertex].tags;
        let tagged = |h: &&VertexId| host.live_tag(**h).is_some_and(|t| tags.accepts(t));
        match (step.via, step.inside) {
            (Some(via), _) => {
                let anchor_p = self.pattern.other_end(via, step.vertex);
                let want = self.pattern.kind_from(via, anchor_p);
                host.incidences(self.image.vertices[anchor_p])
                    .iter()
                    .filter(|link| link.kind.fits(want) && !self.used_edges.contains(&link.edge))
                    .map(|link| (link.other, Some((via, link.edge))))
                    .collect()
            }
            (None, Some((w, stored))) => {
                let anchor = self.image.vertices[w];
                let parent = host.parent(anchor);
                let inner: &[VertexId] = if stored {
                    host.children(anchor)
                } else {
                    parent.as_slice()
                };
                inner.iter().filter(tagged).map(|&h| (h, None)).collect()
            }
            (None, None) => match tags {
                TagTest::Any => host.vertex_ids().map(|h| (h, None)).collect(),
                TagTest::OneOf(tags) => tags
                    .iter()
                    .flat_map(|&t| host.vertices_tagged(t).iter().map(|&h| (h, None)))
                    .collect(),
            },
        }
    }

    /// Finds a host edge for each of step `depth`'s other edges to placed
    /// vertices (the first free one, as the general search does); `false`
    /// when one has none.
    fn place_checked_edges(&mut self, depth: usize) -> bool {
        for &j in &self.plan.steps[depth].checks {
            let pe = self.pattern.edges[j];
            let (a, b) = (
                self.image.vertices[pe.source],
                self.image.vertices[pe.target],
            );
            let used = &self.used_edges;
            match self
                .pattern
                .find_edge(self.host, j, a, b, |e| !used.contains(&e))
            {
                Some(e) => {
                    self.image.edges[j] = e;
                    self.used_edges.push(e);
                }
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::graph::Edge;
    use crate::matching::{PatternEdge, PatternVertex};

    fn room(g: &mut Graph, n: usize) -> Vec<VertexId> {
        (0..n).map(|_| g.add_vertex_named("room")).collect()
    }

    fn any_vertex() -> PatternVertex {
        PatternVertex {
            tags: TagTest::Any,
            forbidden: Vec::new(),
            attributes: Vec::new(),
            valence: None,
        }
    }

    /// The matches drawn are matches, and over many draws every match of a
    /// small case is drawn: a path a–b–c in a 4-cycle has 8 matches.
    #[test]
    fn draws_are_matches_and_reach_every_match() {
        let mut g = Graph::new();
        let v = room(&mut g, 4);
        for i in 0..4 {
            g.add_edge(Edge {
                source: v[i],
                target: v[(i + 1) % 4],
                directed: false,
                cosmetic: false,
                label: None,
                length_factor: 1.0,
            });
        }
        let edge = |source, target| PatternEdge {
            source,
            target,
            directed: false,
            cosmetic: false,
            label: None,
        };
        let p = Pattern::new(vec![any_vertex(); 3], vec![edge(0, 1), edge(1, 2)]);
        let all: Vec<Match> = p.find_all(&g);
        assert_eq!(all.len(), 8);
        let mut rng = Rng::seeded(7);
        let mut seen: BTreeMap<Vec<VertexId>, usize> = BTreeMap::new();
        let mut m = Match::default();
        for _ in 0..400 {
            assert!(p.draw_match(&g, &mut rng, &mut m));
            assert!(all.contains(&m), "{m:?} is not a match");
            *seen.entry(m.vertices.clone()).or_default() += 1;
        }
        assert_eq!(seen.len(), 8, "{seen:?}");
    }

    /// No match: `false`, after trying every candidate; and a budget too
    /// small stops the search.
    #[test]
    fn no_match_is_reported_and_the_budget_stops_a_draw() {
        let mut g = Graph::new();
        room(&mut g, 30);
        let edge = PatternEdge {
            source: 0,
            target: 1,
            directed: false,
            cosmetic: false,
            label: None,
        };
        // Thirty vertices, no edge: a two-vertex edge pattern has no match.
        let p = Pattern::new(vec![any_vertex(); 2], vec![edge]);
        let mut rng = Rng::seeded(1);
        let mut m = Match::default();
        let (found, out) = budget::within(1_000, || p.draw_match(&g, &mut rng, &mut m));
        assert!(!found && !out);
        // Six unconnected vertices: 30·29·…·25 matches, none listed.
        let p = Pattern::new(vec![any_vertex(); 6], Vec::new());
        let (found, out) = budget::within(1_000, || p.draw_match(&g, &mut rng, &mut m));
        assert!(found && !out);
        let mut distinct = m.vertices.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 6);
        let (_, out) = budget::within(3, || p.draw_match(&g, &mut rng, &mut m));
        assert!(out);
    }
}
