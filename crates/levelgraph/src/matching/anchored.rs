//! Anchored searches (the matches that put given pattern vertices on
//! given host vertices) and what the incremental match stores need to
//! know about a pattern: how far a host change can reach its matches
//! ([`Pattern::sensitivity`]) and which edge kinds can affect them.

use std::ops::ControlFlow;

use super::search::{with_buffers, SearchState};
use super::{small, Match, Pattern, Sensitivity, StoreFacts, ANCHORS_INLINE, UNBOUND};
use crate::graph::{EdgeKind, Graph, VertexId};

impl Pattern {
    /// Calls `visit` on every match in which each pattern vertex
    /// `anchors[k].0` is the host vertex `anchors[k].1`, in a deterministic
    /// order. Used to find the matches a local change can create without
    /// searching the whole host.
    pub(crate) fn for_each_anchored(
        &self,
        host: &Graph,
        anchors: &[(usize, VertexId)],
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if anchors.is_empty() {
            return self.for_each_match(host, visit);
        }
        if let Some((offsets, transforms)) = &self.grid {
            // One anchor fixes the grid frame per orientation; the rest must agree.
            let (i, v) = anchors[0];
            return self.grid_search_from(host, offsets, transforms, Some((i, v)), &mut |m| {
                if anchors.iter().all(|&(k, w)| m.vertices[k] == w) {
                    visit(m)
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        let mut fixed = [UNBOUND; ANCHORS_INLINE];
        let mut fixed_vec = Vec::new();
        let fixed: &mut [VertexId] = if self.vertices.len() <= ANCHORS_INLINE {
            &mut fixed[..self.vertices.len()]
        } else {
            fixed_vec.resize(self.vertices.len(), UNBOUND);
            &mut fixed_vec
        };
        for &(i, v) in anchors {
            if fixed[i] != UNBOUND && fixed[i] != v {
                return ControlFlow::Continue(());
            }
            fixed[i] = v;
        }
        let owned;
        let plan = match anchors {
            [(i, _)] => &self.plans[*i],
            [(i, _), (j, _)] if i != j => self.pair_plans[i * self.vertices.len() + j]
                .get_or_init(|| self.plan_with_prefix(&[*i, *j])),
            _ => {
                let mut prefix: Vec<usize> = Vec::new();
                for &(i, _) in anchors {
                    if !prefix.contains(&i) {
                        prefix.push(i);
                    }
                }
                owned = self.plan_with_prefix(&prefix);
                &owned
            }
        };
        with_buffers(|b| SearchState::new(self, host, plan, fixed, &[], b).extend(0, visit))
    }

    /// [`Pattern::for_each_anchored`], for the incremental stores: the
    /// same matches in the same order, written into `image` (a buffer the
    /// caller keeps). Small patterns with one anchor or two take
    /// [`small::search`], which saves the general search's set-up; the
    /// rest go to the general search.
    ///
    /// Equivalence: for every anchoring, exactly the matches of
    /// [`Pattern::for_each_anchored`] in its order, held by the proptest
    /// `the_small_search_is_the_general_search` (`matching/small.rs`),
    /// which tries every one- and two-vertex anchoring of random small
    /// patterns on random hosts.
    pub(crate) fn for_each_anchored_into<F>(
        &self,
        host: &Graph,
        anchors: &[(usize, VertexId)],
        image: &mut Match,
        mut visit: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&Match) -> ControlFlow<()>,
    {
        if small::fits(self) {
            let plan = match anchors {
                [(i, _)] => Some(&self.plans[*i]),
                [(i, _), (j, _)] if i != j => Some(
                    self.pair_plans[i * self.vertices.len() + j]
                        .get_or_init(|| self.plan_with_prefix(&[*i, *j])),
                ),
                _ => None,
            };
            if let Some(plan) = plan {
                let mut fixed = [UNBOUND; small::MAX_VERTICES];
                for &(i, v) in anchors {
                    fixed[i] = v;
                }
                return small::search(self, host, plan, &fixed, image, visit);
            }
        }
        self.for_each_anchored(host, anchors, &mut visit)
    }

    /// How far a change in the host can reach into this pattern's matches:
    /// which pattern vertices' matches depend on their neighbourhood, and
    /// how far the conditions look. See [`Sensitivity`].
    pub(crate) fn sensitivity(&self) -> Sensitivity {
        let n = self.vertices.len();
        let mut single: Vec<bool> = self
            .vertices
            .iter()
            .map(|v| v.valence.is_some() || !v.forbidden.is_empty())
            .collect();
        let mut pair = self.induced;
        let mut reach = usize::from(self.vertices.iter().any(|v| !v.forbidden.is_empty()));
        let mut edge_reach = 0;
        for nac in &self.nacs {
            let total = nac.pattern.vertices.len();
            // Links of the condition: its edges and containments.
            let links: Vec<(usize, usize)> = nac
                .pattern
                .edges
                .iter()
                .map(|e| (e.source, e.target))
                .chain(nac.pattern.inside.iter().copied())
                .collect();
            for &(a, b) in &links {
                match (a < nac.bound, b < nac.bound) {
                    (true, true) => pair = true,
                    (true, false) => single[a] = true,
                    (false, true) => single[b] = true,
                    (false, false) => {}
                }
            }
            // Distance of each own vertex from the bound ones; an own vertex
            // not linked to them at all makes the condition global.
            let mut dist = vec![usize::MAX; total];
            (0..nac.bound.min(n)).for_each(|i| dist[i] = 0);
            for _ in 0..total {
                for &(a, b) in &links {
                    let (da, db) = (dist[a], dist[b]);
                    if da != usize::MAX && db > da + 1 {
                        dist[b] = da + 1;
                    }
                    if db != usize::MAX && da > db + 1 {
                        dist[a] = db + 1;
                    }
                }
            }
            for (i, &d) in dist.iter().enumerate().skip(nac.bound) {
                let v = &nac.pattern.vertices[i];
                let sees_neighbours = !v.forbidden.is_empty();
                reach = reach.max(if sees_neighbours {
                    d.saturating_add(1)
                } else {
                    d
                });
                if sees_neighbours || v.valence.is_some() {
                    edge_reach = edge_reach.max(d);
                }
            }
            for &(a, b) in &links {
                edge_reach = edge_reach.max(dist[a].min(dist[b]));
            }
        }
        let add_monotone = self.vertices.iter().all(|v| v.valence.is_none())
            && self.nacs.iter().all(|nac| {
                nac.pattern
                    .vertices
                    .iter()
                    .all(|v| v.valence.is_none() && v.forbidden.is_empty())
            });
        Sensitivity {
            single,
            pair,
            reach,
            edge_reach,
            add_monotone,
        }
    }

    /// [`StoreFacts`] of this pattern, worked out on first use (a pattern
    /// is complete once compiled; every derivation's stores share them).
    pub(crate) fn store_facts(&self) -> &StoreFacts {
        self.store_facts.get_or_init(|| {
            let sensitivity = self.sensitivity();
            StoreFacts {
                any_single: sensitivity.single.iter().any(|&s| s),
                sensitivity,
                watched: self.watched_kinds(),
                edge_kinds: self.edge_kinds(),
            }
        })
    }

    /// The kinds (either end) of this pattern's own edges, sorted: a match
    /// can only use host edges of these kinds.
    fn edge_kinds(&self) -> Vec<EdgeKind> {
        let mut kinds: Vec<EdgeKind> = self.kinds.iter().map(|k| k[0].either_end()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// The kinds of host edge (either end) whose addition or removal can
    /// change this pattern's matches: those of its edges and of its
    /// conditions' edges. `None` when every edge counts (exact valences,
    /// forbidden tags or `induced` look at all edges).
    fn watched_kinds(&self) -> Option<Vec<EdgeKind>> {
        let looks_at_all = |p: &Pattern| {
            p.induced
                || p.vertices
                    .iter()
                    .any(|v| v.valence.is_some() || !v.forbidden.is_empty())
        };
        if looks_at_all(self) || self.nacs.iter().any(|nac| looks_at_all(&nac.pattern)) {
            return None;
        }
        let mut kinds: Vec<EdgeKind> = std::iter::once(self)
            .chain(self.nacs.iter().map(|nac| &nac.pattern))
            .flat_map(|p| p.kinds.iter().map(|k| k[0].either_end()))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        Some(kinds)
    }
}
