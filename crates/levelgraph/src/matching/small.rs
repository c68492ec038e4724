//! The anchored search of small patterns without the general search's
//! machinery.
//!
//! The incremental match stores run many anchored searches of patterns of
//! two or three vertices (in the mutex STS about 1.4 per application), and
//! in the general search ([`super::search::SearchState`]) the set-up costs more
//! than the search: buffers from the thread's pool, vectors cleared and
//! resized, a `dyn` visitor. [`search`] walks the same [`SearchPlan`] with
//! the same tests in the same order, so it finds the same matches in the
//! same order, but keeps its state in fixed arrays on the stack and writes
//! the match into a buffer the caller keeps.
//!
//! Patterns it cannot take (see [`fits`]: more than [`MAX_VERTICES`]
//! vertices or [`MAX_EDGES`] edges, containment, grid rules) go to the
//! general search. Of the patterns it can take,
//! [`Pattern::for_each_anchored_into`] sends here the searches with one
//! anchor or with two anchors on distinct pattern vertices, and the rest
//! to the general search: no anchor, three or more anchors, or a pattern
//! vertex anchored twice. [`Pattern::for_each_match_into`] sends here every
//! search of a pattern with at least one vertex.
//!
//! [`search`] mirrors [`super::search::SearchState::extend`] and
//! [`super::search::SearchState::try_candidate`] test for test: a change to either
//! must be made to both.

use std::ops::ControlFlow;

use super::{budget, Match, Pattern, SearchPlan, TagTest, UNBOUND};
use crate::graph::{EdgeId, Graph, VertexId};

/// The most pattern vertices this search takes.
pub(super) const MAX_VERTICES: usize = 4;
/// The most pattern edges this search takes.
pub(super) const MAX_EDGES: usize = 4;

/// Whether [`search`] can run `pattern`. It cannot take, so these go to
/// the general search:
///
/// - more than [`MAX_VERTICES`] pattern vertices or more than
///   [`MAX_EDGES`] pattern edges (its state is in arrays of those sizes);
/// - containment (`pattern.inside` not empty: the general search's steps
///   with [`super::pattern::Step::inside`] take their candidates from the host's
///   containment);
/// - grid rules (`pattern.grid`: matched by frames, not by a plan).
///
/// Everything else goes through the same [`Pattern`] tests as in the
/// general search: the vertex tests, the edge lookups and the checks of
/// the complete match (forbidden tags, `induced`, conditions). Which
/// anchors reach [`search`] is the callers' choice (see the module
/// documentation).
pub(super) fn fits(pattern: &Pattern) -> bool {
    pattern.vertices.len() <= MAX_VERTICES
        && pattern.edges.len() <= MAX_EDGES
        && pattern.inside.is_empty()
        && pattern.grid.is_none()
}

/// The state of one search: [`super::search::SearchState`]'s buffers as arrays.
struct Small<'a, F> {
    pattern: &'a Pattern,
    host: &'a Graph,
    plan: &'a SearchPlan,
    /// Host vertices bound in advance, by pattern vertex (`UNBOUND`: free).
    fixed: [VertexId; MAX_VERTICES],
    /// `used[d]`: the host vertex placed at depth `d`.
    used: [VertexId; MAX_VERTICES],
    /// The host edges of the partial match, `used_edges[..edges]`.
    used_edges: [EdgeId; MAX_EDGES],
    edges: usize,
    image: &'a mut Match,
    visit: F,
}

/// Calls `visit` on every match of `pattern` (which [`fits`]) along `plan`
/// with pattern vertex `i` bound to `fixed[i]` where that is not
/// `UNBOUND` (entries past the pattern's vertices are `UNBOUND`), in the
/// order of the general search; `image` is the buffer the match is written
/// to.
pub(super) fn search<F>(
    pattern: &Pattern,
    host: &Graph,
    plan: &SearchPlan,
    fixed: &[VertexId; MAX_VERTICES],
    image: &mut Match,
    visit: F,
) -> ControlFlow<()>
where
    F: FnMut(&Match) -> ControlFlow<()>,
{
    debug_assert!(fits(pattern));
    let (n, e) = (pattern.vertices.len(), pattern.edges.len());
    if image.vertices.len() != n {
        image.vertices.clear();
        image.vertices.resize(n, UNBOUND);
    }
    if image.edges.len() != e {
        image.edges.clear();
        image.edges.resize(e, EdgeId(u32::MAX));
    }
    image.frame = None;
    if plan.steps.iter().all(|step| fixed[step.vertex] != UNBOUND) {
        return all_bound(pattern, host, plan, fixed, image, visit);
    }
    let mut state = Small {
        pattern,
        host,
        plan,
        // A copy of a fixed size: moves, no `memcpy` call.
        fixed: *fixed,
        used: [UNBOUND; MAX_VERTICES],
        used_edges: [EdgeId(u32::MAX); MAX_EDGES],
        edges: 0,
        image,
        visit,
    };
    state.extend(0)
}

/// [`search`] when every vertex is bound in advance (an added edge
/// between the two vertices of a one-edge pattern, say): one candidate per
/// step, so the search is a straight line. Each step's edges are found as
/// the search finds them (the first host edge that fits and is not taken
/// yet: the search does not try other edges either), then the conditions
/// are checked on the complete match.
fn all_bound<F>(
    pattern: &Pattern,
    host: &Graph,
    plan: &SearchPlan,
    fixed: &[VertexId; MAX_VERTICES],
    image: &mut Match,
    mut visit: F,
) -> ControlFlow<()>
where
    F: FnMut(&Match) -> ControlFlow<()>,
{
    let mut used_edges = [EdgeId(u32::MAX); MAX_EDGES];
    let mut edges = 0;
    for (depth, step) in plan.steps.iter().enumerate() {
        // With every vertex bound in advance, the callers' plans (one
        // anchor's, two anchors') have all the vertices in their prefix,
        // placed without an edge; a step with a `via` edge would have to
        // place that edge, which this loop does not.
        debug_assert!(step.via.is_none(), "a fixed vertex found through an edge");
        let (v, h) = (step.vertex, fixed[step.vertex]);
        if plan.steps[..depth].iter().any(|s| fixed[s.vertex] == h)
            || !pattern.vertex_fits(host, v, h)
        {
            return ControlFlow::Continue(());
        }
        image.vertices[v] = h;
        for &j in &step.checks {
            let pe = pattern.edges[j];
            let (a, b) = (image.vertices[pe.source], image.vertices[pe.target]);
            let used = &used_edges[..edges];
            let Some(e) = pattern.find_edge(host, j, a, b, |e| !used.contains(&e)) else {
                return ControlFlow::Continue(());
            };
            image.edges[j] = e;
            used_edges[edges] = e;
            edges += 1;
        }
    }
    if pattern.conditions_hold(host, image) {
        return visit(image);
    }
    ControlFlow::Continue(())
}

impl<F> Small<'_, F>
where
    F: FnMut(&Match) -> ControlFlow<()>,
{
    /// [`super::search::SearchState::extend`] without containment steps.
    fn extend(&mut self, depth: usize) -> ControlFlow<()> {
        let Some(step) = self.plan.steps.get(depth) else {
            if self.pattern.conditions_hold(self.host, self.image) {
                return (self.visit)(self.image);
            }
            return ControlFlow::Continue(());
        };
        let v = step.vertex;
        let host = self.host;
        match step.via {
            None if self.fixed[v] != UNBOUND => {
                budget::spend()?;
                self.try_candidate(depth, v, self.fixed[v], None)?;
            }
            None => match &self.pattern.vertices[v].tags {
                TagTest::Any => {
                    budget::spend_n(host.vertex_bound())?;
                    for h in host.vertex_ids() {
                        self.try_candidate(depth, v, h, None)?;
                    }
                }
                TagTest::OneOf(tags) => {
                    for &t in tags {
                        budget::spend_n(host.vertices_tagged(t).len())?;
                        for &h in host.vertices_tagged(t) {
                            self.try_candidate(depth, v, h, None)?;
                        }
                    }
                }
            },
            Some(via) => {
                let anchor_p = self.pattern.other_end(via, v);
                let anchor = self.image.vertices[anchor_p];
                let want = self.pattern.kind_from(via, anchor_p);
                budget::spend_n(host.incidences(anchor).len())?;
                for link in host.incidences(anchor) {
                    if !link.kind.fits(want) || self.used_edges[..self.edges].contains(&link.edge) {
                        continue;
                    }
                    self.try_candidate(depth, v, link.other, Some((via, link.edge)))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// [`super::search::SearchState::try_candidate`].
    fn try_candidate(
        &mut self,
        depth: usize,
        v: usize,
        h: VertexId,
        via: Option<(usize, EdgeId)>,
    ) -> ControlFlow<()> {
        if self.used[..depth].contains(&h) || !self.pattern.vertex_fits(self.host, v, h) {
            return ControlFlow::Continue(());
        }
        self.image.vertices[v] = h;
        let mark = self.edges;
        if let Some((j, e)) = via {
            self.image.edges[j] = e;
            self.used_edges[self.edges] = e;
            self.edges += 1;
        }
        let step = &self.plan.steps[depth];
        let mut ok = true;
        for &j in &step.checks {
            let pe = self.pattern.edges[j];
            let (a, b) = (
                self.image.vertices[pe.source],
                self.image.vertices[pe.target],
            );
            let used = &self.used_edges[..self.edges];
            match self
                .pattern
                .find_edge(self.host, j, a, b, |e| !used.contains(&e))
            {
                Some(e) => {
                    self.image.edges[j] = e;
                    self.used_edges[self.edges] = e;
                    self.edges += 1;
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        let mut flow = ControlFlow::Continue(());
        if ok {
            self.used[depth] = h;
            flow = self.extend(depth + 1);
        }
        self.edges = mark;
        flow
    }
}

#[cfg(test)]
mod tests {
    //! The fast paths against the general search: [`search`] (through
    //! [`Pattern::for_each_anchored_into`]) must give exactly the matches
    //! of [`Pattern::for_each_anchored`], in the same order, and each
    //! [`super::super::NacShape`] check exactly the answer of the general
    //! condition search, on random small hosts, patterns and conditions.

    use std::ops::ControlFlow;

    use proptest::prelude::*;

    use super::super::conditions::NacShape;
    use super::super::{Nac, PatternEdge, PatternVertex};
    use super::*;
    use crate::graph::{Edge, EdgeKind, Symbol};

    /// A host edge: ends (modulo the vertex count), directed, cosmetic, label.
    type EdgeSpec = (u8, u8, bool, bool, Option<u8>);
    /// A pattern vertex: tag (`None`: any), forbidden tag, exact valence.
    type VertexSpec = (Option<u8>, Option<u8>, Option<u8>);
    /// A pattern edge: ends (modulo the vertex count), directed, cosmetic,
    /// label.
    type PEdgeSpec = (u8, u8, bool, bool, Option<u8>);
    /// A condition: own vertices, and edges over guarded and own vertices
    /// (ends modulo their count), each with whether its own end (when the
    /// condition has own vertices) is the target rather than the source.
    type NacSpec = (Vec<VertexSpec>, Vec<(PEdgeSpec, bool)>);

    fn host(tags: &[u8], edges: &[EdgeSpec], remove: Option<u8>) -> Graph {
        let mut g = Graph::new();
        for t in ["t0", "t1", "t2"] {
            g.tags_mut().intern(t);
        }
        for l in ["l0", "l1"] {
            g.labels_mut().intern(l);
        }
        let vs: Vec<VertexId> = tags
            .iter()
            .map(|&t| g.add_vertex(Symbol(u32::from(t))))
            .collect();
        for &(a, b, directed, cosmetic, label) in edges {
            let (a, b) = (vs[a as usize % vs.len()], vs[b as usize % vs.len()]);
            g.add_edge(Edge {
                source: a,
                target: b,
                directed,
                cosmetic,
                label: label.map(|l| Symbol(u32::from(l))),
                length_factor: 1.0,
            });
        }
        if let Some(r) = remove {
            g.remove_vertex(vs[r as usize % vs.len()]);
        }
        g
    }

    fn vertex(&(tag, forbidden, valence): &VertexSpec) -> PatternVertex {
        PatternVertex {
            tags: tag.map_or(TagTest::Any, |t| TagTest::OneOf(vec![Symbol(u32::from(t))])),
            forbidden: forbidden
                .map(|t| Symbol(u32::from(t)))
                .into_iter()
                .collect(),
            attributes: vec![],
            valence: valence.map(u32::from),
        }
    }

    fn edges(specs: &[PEdgeSpec], n: usize) -> Vec<PatternEdge> {
        specs
            .iter()
            .map(|&(a, b, directed, cosmetic, label)| PatternEdge {
                source: a as usize % n,
                target: b as usize % n,
                directed,
                cosmetic,
                label: label.map(|l| Symbol(u32::from(l))),
            })
            .collect()
    }

    fn nac(n: usize, (own, own_edges): &NacSpec) -> Nac {
        let any = PatternVertex {
            tags: TagTest::Any,
            forbidden: vec![],
            attributes: vec![],
            valence: None,
        };
        let mut vertices = vec![any; n];
        vertices.extend(own.iter().map(vertex));
        let total = vertices.len();
        // Own edges have an own vertex at one end (the source or the
        // target, as generated) when there is one, so that most conditions
        // have the shapes the fast paths take, seen from the guarded vertex
        // as incoming or as outgoing.
        let es = own_edges
            .iter()
            .map(|&((a, b, directed, cosmetic, label), own_is_target)| {
                let own_end = if own.is_empty() {
                    a as usize % n
                } else {
                    n + a as usize % own.len()
                };
                let other = b as usize % total;
                let (source, target) = if own_is_target {
                    (other, own_end)
                } else {
                    (own_end, other)
                };
                PatternEdge {
                    source,
                    target,
                    directed,
                    cosmetic,
                    label: label.map(|l| Symbol(u32::from(l))),
                }
            })
            .collect();
        Nac::new(vertices, es, n, vec![])
    }

    fn pattern(vs: &[VertexSpec], es: &[PEdgeSpec], induced: bool, nacs: &[NacSpec]) -> Pattern {
        let n = vs.len();
        let nacs = nacs.iter().map(|s| nac(n, s)).collect();
        Pattern::new(vs.iter().map(vertex).collect(), edges(es, n)).with_conditions(induced, nacs)
    }

    fn general(p: &Pattern, g: &Graph, anchors: &[(usize, VertexId)]) -> Vec<Match> {
        let mut out = Vec::new();
        let _ = p.for_each_anchored(g, anchors, &mut |m| {
            out.push(m.clone());
            ControlFlow::Continue(())
        });
        out
    }

    /// The fast path's matches, written through `image` (a buffer reused
    /// from call to call, as the stores do).
    fn fast(
        p: &Pattern,
        g: &Graph,
        anchors: &[(usize, VertexId)],
        image: &mut Match,
    ) -> Vec<Match> {
        let mut out = Vec::new();
        let _ = p.for_each_anchored_into(g, anchors, image, |m| {
            out.push(m.clone());
            ControlFlow::Continue(())
        });
        out
    }

    fn small_tag() -> impl Strategy<Value = Option<u8>> {
        prop::option::weighted(0.8, 0..3u8)
    }

    fn vertex_spec() -> impl Strategy<Value = VertexSpec> {
        (
            small_tag(),
            prop::option::weighted(0.1, 0..3u8),
            prop::option::weighted(0.1, 0..4u8),
        )
    }

    fn pedge_spec() -> impl Strategy<Value = PEdgeSpec> {
        (
            0..4u8,
            0..4u8,
            any::<bool>(),
            prop::bool::weighted(0.2),
            prop::option::weighted(0.5, 0..2u8),
        )
    }

    fn nac_spec() -> impl Strategy<Value = NacSpec> {
        (
            prop::collection::vec(vertex_spec(), 0..=2),
            prop::collection::vec((pedge_spec(), any::<bool>()), 1..=2),
        )
    }

    /// A match buffer holding stale ids of the given lengths and a frame,
    /// as a store's buffer may after a search of another rule.
    fn garbage((vertices, edges): (usize, usize)) -> Match {
        Match {
            vertices: vec![VertexId(7); vertices],
            edges: vec![EdgeId(11); edges],
            frame: Some(super::super::Frame {
                origin: [3, -2],
                transform: 5,
            }),
        }
    }

    fn host_spec() -> impl Strategy<Value = (Vec<u8>, Vec<EdgeSpec>, Option<u8>)> {
        (
            prop::collection::vec(0..3u8, 1..9),
            prop::collection::vec(
                (
                    0..9u8,
                    0..9u8,
                    any::<bool>(),
                    prop::bool::weighted(0.2),
                    prop::option::weighted(0.5, 0..2u8),
                ),
                0..20,
            ),
            prop::option::weighted(0.2, 0..9u8),
        )
    }

    proptest! {
        // 4096 cases: at 512 a search that visits a vertex's links in
        // reverse (the same matches in another order) went unnoticed in
        // half the runs; at 4096 it is caught every time.
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The same matches in the same order as the general search,
        /// without anchors and for every way of anchoring one or two
        /// pattern vertices, with one match buffer (holding stale ids at
        /// first) for all the fast searches.
        #[test]
        fn the_small_search_is_the_general_search(
            (tags, host_edges, remove) in host_spec(),
            vs in prop::collection::vec(vertex_spec(), 1..=4),
            es in prop::collection::vec(pedge_spec(), 0..=4),
            induced in prop::bool::weighted(0.3),
            nacs in prop::collection::vec(nac_spec(), 0..=2),
            stale in (0..=5usize, 0..=5usize),
        ) {
            let g = host(&tags, &host_edges, remove);
            let p = pattern(&vs, &es, induced, &nacs);
            prop_assert!(fits(&p));
            let n = vs.len();
            let mut image = garbage(stale);
            let mut whole = Vec::new();
            let _ = p.for_each_match_into(&g, &mut image, |m| {
                whole.push(m.clone());
                ControlFlow::Continue(())
            });
            prop_assert_eq!(whole, p.find_all(&g));
            let live: Vec<VertexId> = g.vertex_ids().collect();
            for i in 0..n {
                for &a in &live {
                    let one = [(i, a)];
                    prop_assert_eq!(fast(&p, &g, &one, &mut image), general(&p, &g, &one));
                    for j in 0..n {
                        for &b in &live {
                            let two = [(i, a), (j, b)];
                            prop_assert_eq!(
                                fast(&p, &g, &two, &mut image),
                                general(&p, &g, &two)
                            );
                        }
                    }
                }
            }
        }

        /// Each condition shape checked without a search answers as the
        /// search does, on every match of the guarded pattern's vertices.
        #[test]
        fn condition_shapes_answer_as_the_search(
            (tags, host_edges, remove) in host_spec(),
            n in 1..=3usize,
            spec in nac_spec(),
            used in prop::collection::vec(0..20u8, 0..2),
        ) {
            let g = host(&tags, &host_edges, remove);
            let condition = nac(n, &spec);
            let searched = Nac { shape: NacShape::General, ..condition.clone() };
            let live: Vec<VertexId> = g.vertex_ids().collect();
            let all_edges: Vec<EdgeId> = g.edges().map(|(e, _)| e).collect();
            // Every injective choice of `n` live vertices, with a few of the
            // host's edges as the match's own edges.
            let mut m = Match {
                vertices: vec![UNBOUND; n],
                edges: used
                    .iter()
                    .filter_map(|&k| all_edges.get(k as usize).copied())
                    .collect(),
                frame: None,
            };
            let mut stack = vec![0usize];
            while let Some(&k) = stack.last() {
                let depth = stack.len() - 1;
                if k == live.len() {
                    stack.pop();
                    if let Some(last) = stack.last_mut() {
                        *last += 1;
                    }
                    continue;
                }
                let v = live[k];
                if m.vertices[..depth].contains(&v) {
                    *stack.last_mut().expect("not empty") += 1;
                    continue;
                }
                m.vertices[depth] = v;
                if depth + 1 == n {
                    prop_assert_eq!(condition.extends(&g, &m), searched.extends(&g, &m));
                    *stack.last_mut().expect("not empty") += 1;
                } else {
                    stack.push(0);
                }
            }
        }
    }

    /// The shapes the mutex STS's conditions have are recognised.
    #[test]
    fn conditions_of_one_edge_take_the_fast_paths() {
        let own = (Some(1), None, None);
        // `where not (p) -[request]-> (m:resource)`: guarded vertex 0 to
        // the own vertex, an outgoing link seen from vertex 0.
        let to_own = nac(2, &(vec![own], vec![((0, 0, true, false, Some(0)), true)]));
        let out = EdgeKind::new(true, false, Some(Symbol(0)), true);
        assert!(matches!(
            to_own.shape,
            NacShape::OwnNeighbour { from: 0, want } if want == out
        ));
        // The own vertex to guarded vertex 1: an incoming link there.
        let from_own = nac(2, &(vec![own], vec![((0, 1, true, false, Some(0)), false)]));
        let into = EdgeKind::new(true, false, Some(Symbol(0)), false);
        assert!(matches!(
            from_own.shape,
            NacShape::OwnNeighbour { from: 1, want } if want == into
        ));
        let between = nac(2, &(vec![], vec![((0, 1, true, false, Some(1)), false)]));
        assert!(matches!(between.shape, NacShape::BoundEdge));
        let forbidden = nac(
            2,
            &(
                vec![(Some(1), Some(0), None)],
                vec![((0, 1, true, false, None), false)],
            ),
        );
        assert!(matches!(forbidden.shape, NacShape::General));
        let two_edges = nac(
            2,
            &(
                vec![own],
                vec![
                    ((0, 0, true, false, None), false),
                    ((0, 1, false, false, None), false),
                ],
            ),
        );
        assert!(matches!(two_edges.shape, NacShape::General));
    }
}
