//! Incremental match stores: each rule's current matches, kept up to date
//! after every application by looking only where the host changed, so a
//! derivation does not search the whole host on every step.
//!
//! On small hosts a store is simply searched again when its rule is
//! needed after a change (bookkeeping would cost more than it saves); from
//! [`crate::derive`]'s size threshold on, it is built with indexes by one
//! full search and then maintained.
//! After an application ([`Changes`]) it
//! 1. drops the matches that contain a deleted or touched vertex (new tag,
//!    attributes or parent), or use a removed edge;
//! 2. drops the matches whose conditions look at a changed neighbourhood:
//!    a vertex at a *single-sensitive* position (exact valence, forbidden
//!    tags, a `where not` link to a condition vertex — see
//!    [`Sensitivity`]) that is an endpoint of an added or removed edge or
//!    containment, or lies within the conditions' reach of a touched
//!    vertex; and, for *pair-sensitive* patterns (`induced`, a `where not`
//!    edge between pattern vertices), the matches containing both ends of
//!    such a link;
//! 3. searches again, anchored at the changed elements only: each touched
//!    vertex at every pattern position that accepts it, each added edge as
//!    every pattern edge it could be, each changed neighbourhood at its
//!    sensitive positions, each changed pair at every pair of positions.
//!
//! Matches that none of this reaches are unaffected: their vertices, edges
//! and everything their conditions inspect are unchanged. Patterns whose
//! conditions are not linked to the match at all (a `where not` with no
//! vertex tied to the pattern) are rebuilt from scratch after each change.
//! Tests compare every store with a full search after every step
//! ([`crate::derive::verify_incremental`]).
//!
//! Matches are kept in a dense vector (uniform draws in O(1)); removal is a
//! swap with the last, so the order depends only on the sequence of
//! changes and stays deterministic. Lookups by vertex and edge use hash
//! maps that are never iterated.

use std::collections::{BTreeSet, HashMap};
use std::ops::ControlFlow;

use crate::graph::{EdgeId, Graph, VertexId};
use crate::matching::{Match, Pattern, Sensitivity};
use crate::rewrite::Changes;

/// The current matches of one pattern in a host that changes.
#[derive(Clone, Debug)]
pub(crate) struct MatchStore {
    built: bool,
    /// Whether `by_vertex` and `by_edge` are kept: only for stores that are
    /// maintained incrementally.
    indexed: bool,
    sensitivity: Sensitivity,
    /// Match `i` is `vertices[i*nv..(i+1)*nv]`, `edges[i*ne..(i+1)*ne]`,
    /// `frames[i]`: flat, so a search adds matches without allocating.
    vertices: Vec<VertexId>,
    edges: Vec<EdgeId>,
    frames: Vec<Option<crate::matching::Frame>>,
    nv: usize,
    ne: usize,
    /// Positions in `matches` of the matches containing each vertex.
    by_vertex: HashMap<VertexId, BTreeSet<u32>>,
    /// Positions in `matches` of the matches using each edge.
    by_edge: HashMap<EdgeId, BTreeSet<u32>>,
}

impl MatchStore {
    pub(crate) fn new(pattern: &Pattern) -> Self {
        MatchStore {
            built: false,
            indexed: false,
            sensitivity: pattern.sensitivity(),
            vertices: Vec::new(),
            edges: Vec::new(),
            frames: Vec::new(),
            nv: pattern.vertices().len(),
            ne: pattern.edges().len(),
            by_vertex: HashMap::new(),
            by_edge: HashMap::new(),
        }
    }

    /// Builds the store by a full search, if it is not built yet; with
    /// `indexed`, ready for incremental updates.
    pub(crate) fn ensure(&mut self, pattern: &Pattern, host: &Graph, indexed: bool) {
        if self.built && (self.indexed || !indexed) {
            return;
        }
        self.clear();
        self.indexed = indexed;
        let _ = pattern.for_each_match(host, &mut |m| {
            self.push(m);
            ControlFlow::Continue(())
        });
        self.built = true;
    }

    /// Drops the matches; the store is searched again if it is needed.
    pub(crate) fn discard(&mut self) {
        if self.built || !self.frames.is_empty() {
            self.built = false;
            self.clear();
        }
    }

    /// Number of matches. Build first with [`MatchStore::ensure`].
    pub(crate) fn len(&self) -> usize {
        self.frames.len()
    }

    /// Host vertices of match `i`, by pattern vertex.
    fn vertices_of(&self, i: usize) -> &[VertexId] {
        &self.vertices[i * self.nv..(i + 1) * self.nv]
    }

    /// Host edges of match `i`, by pattern edge.
    fn edges_of(&self, i: usize) -> &[EdgeId] {
        &self.edges[i * self.ne..(i + 1) * self.ne]
    }

    /// Match `i`.
    pub(crate) fn get(&self, i: usize) -> Match {
        Match {
            vertices: self.vertices_of(i).to_vec(),
            edges: self.edges_of(i).to_vec(),
            frame: self.frames[i],
        }
    }

    /// Every match, in store order (for verification).
    pub(crate) fn matches(&self) -> Vec<Match> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    fn clear(&mut self) {
        self.vertices.clear();
        self.edges.clear();
        self.frames.clear();
        self.by_vertex.clear();
        self.by_edge.clear();
    }

    fn push(&mut self, m: &Match) {
        let at = self.len() as u32;
        self.vertices.extend_from_slice(&m.vertices);
        self.edges.extend_from_slice(&m.edges);
        self.frames.push(m.frame);
        if self.indexed {
            for &v in &m.vertices {
                self.by_vertex.entry(v).or_default().insert(at);
            }
            for &e in &m.edges {
                self.by_edge.entry(e).or_default().insert(at);
            }
        }
    }

    /// Removes the match at `at`, moving the last match into its place.
    fn remove_at(&mut self, at: usize) {
        let last = self.len() - 1;
        for k in 0..self.nv {
            forget(
                &mut self.by_vertex,
                self.vertices[at * self.nv + k],
                at as u32,
            );
        }
        for k in 0..self.ne {
            forget(&mut self.by_edge, self.edges[at * self.ne + k], at as u32);
        }
        if at != last {
            for k in 0..self.nv {
                let v = self.vertices[last * self.nv + k];
                renumber(&mut self.by_vertex, v, last as u32, at as u32);
            }
            for k in 0..self.ne {
                let e = self.edges[last * self.ne + k];
                renumber(&mut self.by_edge, e, last as u32, at as u32);
            }
            self.vertices
                .copy_within(last * self.nv..(last + 1) * self.nv, at * self.nv);
            self.edges
                .copy_within(last * self.ne..(last + 1) * self.ne, at * self.ne);
        }
        self.vertices.truncate(last * self.nv);
        self.edges.truncate(last * self.ne);
        self.frames.swap_remove(at);
    }

    /// Removes every match that `doomed` selects (given its host vertices)
    /// among those listed for `v`. Largest position first: a removal moves
    /// the last match into the freed slot, and the last match, if doomed,
    /// is the largest position, so the positions still to remove stay valid.
    fn remove_where(&mut self, v: VertexId, doomed: impl Fn(&[VertexId]) -> bool) {
        let Some(list) = self.by_vertex.get(&v) else {
            return;
        };
        let hits: Vec<u32> = list
            .iter()
            .rev()
            .copied()
            .filter(|&p| doomed(self.vertices_of(p as usize)))
            .collect();
        for p in hits {
            self.remove_at(p as usize);
        }
    }

    fn remove_using_edge(&mut self, e: EdgeId) {
        let Some(list) = self.by_edge.get(&e) else {
            return;
        };
        let hits: Vec<u32> = list.iter().rev().copied().collect();
        for p in hits {
            self.remove_at(p as usize);
        }
    }

    fn contains(&self, m: &Match) -> bool {
        // Look where the fewest matches are listed.
        let Some(list) = m
            .vertices
            .iter()
            .filter_map(|v| self.by_vertex.get(v))
            .min_by_key(|list| list.len())
        else {
            return false;
        };
        list.iter().any(|&p| {
            let p = p as usize;
            self.vertices_of(p) == m.vertices.as_slice()
                && self.edges_of(p) == m.edges.as_slice()
                && self.frames[p] == m.frame
        })
    }

    fn add_found(&mut self, pattern: &Pattern, host: &Graph, anchors: &[(usize, VertexId)]) {
        let _ = pattern.for_each_anchored(host, anchors, &mut |m| {
            if !self.contains(m) {
                self.push(m);
            }
            ControlFlow::Continue(())
        });
    }

    /// Brings the store up to date with `changes`, made to `host` (which is
    /// already changed). A store not built yet stays unbuilt; one built
    /// without indexes (a small host, where a fresh search is cheaper than
    /// bookkeeping) is dropped, to be searched again when needed.
    pub(crate) fn update(&mut self, pattern: &Pattern, host: &Graph, changes: &Changes) {
        if !self.built {
            return;
        }
        if !self.indexed {
            self.built = false;
            self.clear();
            return;
        }
        let sens = self.sensitivity.clone();
        if sens.reach == usize::MAX {
            self.built = false;
            self.clear();
            return;
        }
        // Vertices whose neighbourhood changed, for single-sensitive positions.
        let any_single = sens.single.iter().any(|&s| s);
        let mut neighbourhood: Vec<VertexId> = Vec::new();
        let mut pairs: Vec<(VertexId, VertexId)> = Vec::new();
        for &(_, a, b) in &changes.removed_edges {
            neighbourhood.extend([a, b]);
            pairs.push((a, b));
        }
        for &e in &changes.added_edges {
            if let Some(edge) = host.edge(e) {
                neighbourhood.extend([edge.source, edge.target]);
                pairs.push((edge.source, edge.target));
            }
        }
        for &(c, p) in &changes.relinked {
            neighbourhood.extend([c, p]);
            pairs.push((c, p));
        }
        if sens.reach >= 1 {
            // A touched vertex may be a condition vertex next to a match:
            // its neighbours' matches are re-examined, out to the reach.
            let mut frontier: Vec<VertexId> = changes.touched.clone();
            let mut seen: Vec<VertexId> = frontier.clone();
            for _ in 0..sens.reach {
                let mut next = Vec::new();
                for &v in &frontier {
                    for w in links(host, v) {
                        if !seen.contains(&w) {
                            seen.push(w);
                            next.push(w);
                        }
                    }
                }
                neighbourhood.extend(next.iter().copied());
                frontier = next;
            }
            if sens.reach >= 2 {
                // Edge changes deeper in a condition: out to reach − 1.
                let mut frontier: Vec<VertexId> = neighbourhood.clone();
                for _ in 1..sens.reach {
                    let mut next = Vec::new();
                    for &v in &frontier {
                        for w in links(host, v) {
                            if !neighbourhood.contains(&w) && !next.contains(&w) {
                                next.push(w);
                            }
                        }
                    }
                    neighbourhood.extend(next.iter().copied());
                    frontier = next;
                }
            }
        }
        neighbourhood.sort_unstable();
        neighbourhood.dedup();

        // 1. Matches on changed vertices and removed edges.
        for &v in changes.deleted.iter().chain(&changes.touched) {
            self.remove_where(v, |_| true);
        }
        for &(e, _, _) in &changes.removed_edges {
            self.remove_using_edge(e);
        }
        // 2. Matches whose conditions look at a changed neighbourhood.
        if any_single {
            for &w in &neighbourhood {
                let positions: Vec<usize> = (0..sens.single.len())
                    .filter(|&i| sens.single[i] && pattern.accepts(host, i, w))
                    .collect();
                if positions.is_empty() && host.contains_vertex(w) {
                    continue;
                }
                let single = &sens.single;
                self.remove_where(w, |vs| {
                    vs.iter().enumerate().any(|(i, &x)| x == w && single[i])
                });
            }
        }
        if sens.pair {
            for &(a, b) in &pairs {
                let (short, other) = match (self.by_vertex.get(&a), self.by_vertex.get(&b)) {
                    (Some(la), Some(lb)) if la.len() <= lb.len() => (a, b),
                    (Some(_), Some(_)) => (b, a),
                    _ => continue,
                };
                self.remove_where(short, |vs| vs.contains(&other));
            }
        }
        // 3. Search again where something changed.
        let n = pattern.vertices().len();
        for &v in &changes.touched {
            if !host.contains_vertex(v) {
                continue;
            }
            for i in (0..n).filter(|&i| pattern.accepts(host, i, v)) {
                self.add_found(pattern, host, &[(i, v)]);
            }
        }
        for &e in &changes.added_edges {
            let Some(edge) = host.edge(e) else { continue };
            for pe in pattern.edges() {
                if pe.directed != edge.directed
                    || pe.cosmetic != edge.cosmetic
                    || pe.label != edge.label
                {
                    continue;
                }
                let mut ends = vec![(edge.source, edge.target)];
                if !edge.directed {
                    ends.push((edge.target, edge.source));
                }
                for (a, b) in ends {
                    self.add_found(pattern, host, &[(pe.source, a), (pe.target, b)]);
                }
            }
        }
        if any_single {
            for &w in &neighbourhood {
                if !host.contains_vertex(w) {
                    continue;
                }
                for i in (0..n).filter(|&i| sens.single[i] && pattern.accepts(host, i, w)) {
                    self.add_found(pattern, host, &[(i, w)]);
                }
            }
        }
        if sens.pair {
            for &(a, b) in &pairs {
                if !host.contains_vertex(a) || !host.contains_vertex(b) {
                    continue;
                }
                for i in (0..n).filter(|&i| pattern.accepts(host, i, a)) {
                    for j in (0..n).filter(|&j| j != i && pattern.accepts(host, j, b)) {
                        self.add_found(pattern, host, &[(i, a), (j, b)]);
                    }
                }
            }
        }
    }
}

/// Vertices one link from `v`: along any edge, or by containment.
fn links(host: &Graph, v: VertexId) -> Vec<VertexId> {
    let mut out: Vec<VertexId> = host
        .incident_edges(v)
        .iter()
        .filter_map(|&e| host.edge(e).map(|edge| edge.other(v)))
        .collect();
    out.extend(host.parent(v));
    out.extend(host.children(v).iter().copied());
    out
}

fn forget<K: std::hash::Hash + Eq>(map: &mut HashMap<K, BTreeSet<u32>>, key: K, at: u32) {
    if let Some(list) = map.get_mut(&key) {
        list.remove(&at);
        if list.is_empty() {
            map.remove(&key);
        }
    }
}

fn renumber<K: std::hash::Hash + Eq>(
    map: &mut HashMap<K, BTreeSet<u32>>,
    key: K,
    from: u32,
    to: u32,
) {
    if let Some(list) = map.get_mut(&key) {
        if list.remove(&from) {
            list.insert(to);
        }
    }
}
