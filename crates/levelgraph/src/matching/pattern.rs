//! Building a [`Pattern`]: its per-edge kinds, and one search plan per
//! possible root (and per anchored pair, when first needed); the
//! accessors the search, the conditions and the incremental stores read.

use std::sync::OnceLock;

use super::{Nac, Pattern, PatternEdge, PatternVertex, TagTest};
use crate::graph::{EdgeId, EdgeKind, Graph, Symbol, VertexId};

/// How to extend a partial match by one pattern vertex.
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub(super) vertex: usize,
    /// `Some(edge)`: find candidates among host neighbours along `edge`,
    /// which joins `vertex` to an earlier step's vertex. `None`: a new
    /// component; candidates come from the tag index.
    pub(super) via: Option<usize>,
    /// Without `via`: `Some((w, true))` when `vertex` must be stored in the
    /// image of the earlier vertex `w`, `Some((w, false))` when it must
    /// hold `w`'s image. Candidates then come from the host's containment
    /// (the children of `w`'s image, or its parent) instead of every
    /// vertex with the tag: a condition such as `where not (j:key) in (k)`
    /// looks at what `k` stores, not at every key of the level. The
    /// containment itself is still checked on the complete match.
    pub(super) inside: Option<(usize, bool)>,
    /// Other pattern edges from `vertex` to earlier vertices, checked after.
    pub(super) checks: Vec<usize>,
}

/// The order in which a [`Pattern`]'s vertices are matched from one root.
#[derive(Clone, Debug)]
pub(super) struct SearchPlan {
    pub(super) steps: Vec<Step>,
}

impl Pattern {
    /// A pattern from vertices and edges (edges index into `vertices`).
    /// **Panics** if an edge names a vertex index out of range.
    pub fn new(vertices: Vec<PatternVertex>, edges: Vec<PatternEdge>) -> Self {
        let mut degree = vec![0; vertices.len()];
        let mut incident = vec![Vec::new(); vertices.len()];
        for (j, e) in edges.iter().enumerate() {
            assert!(e.source < vertices.len() && e.target < vertices.len());
            degree[e.source] += 1;
            incident[e.source].push(j);
            if e.target != e.source {
                degree[e.target] += 1;
                incident[e.target].push(j);
            }
        }
        let kinds = edges
            .iter()
            .map(|e| [true, false].map(|out| EdgeKind::new(e.directed, e.cosmetic, e.label, out)))
            .collect();
        let any_forbidden = vertices.iter().any(|v| !v.forbidden.is_empty());
        let mut pattern = Pattern {
            vertices,
            edges,
            degree,
            incident,
            kinds,
            plans: Vec::new(),
            pair_plans: Vec::new(),
            store_facts: OnceLock::new(),
            any_forbidden,
            induced: false,
            nacs: Vec::new(),
            inside: Vec::new(),
            grid: None,
        };
        pattern.plans = (0..pattern.vertices.len())
            .map(|root| pattern.plan_with_prefix(&[root]))
            .collect();
        let n = pattern.vertices.len();
        pattern.pair_plans = (0..n * n).map(|_| OnceLock::new()).collect();
        pattern
    }

    /// The same pattern as a grid rule (grid mode): vertex `i` must be the
    /// host vertex in cell `frame.place(offsets[i])`, for every frame whose
    /// origin puts vertex 0 on a host vertex and whose transform is in
    /// `transforms`. Edges and all other conditions still apply.
    /// **Panics** unless there is one offset per vertex.
    pub fn with_grid(mut self, offsets: Vec<[i32; 2]>, transforms: Vec<u8>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        assert_eq!(offsets.len(), self.vertices.len());
        self.grid = Some((offsets, transforms));
        self
    }

    /// The same pattern, requiring each `(child, parent)` pair of vertex
    /// indices to match a host vertex stored in the other's image.
    /// **Panics** if an index is out of range.
    pub fn with_inside(mut self, inside: Vec<(usize, usize)>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        let n = self.vertices.len();
        assert!(inside.iter().all(|&(c, p)| c < n && p < n));
        self.inside = inside;
        // The plans take their candidates from containments where they can.
        self.plans = (0..n).map(|root| self.plan_with_prefix(&[root])).collect();
        self.pair_plans = (0..n * n).map(|_| OnceLock::new()).collect();
        self
    }

    /// The same pattern with induced matching switched on or off and the
    /// given negative application conditions (each built over this
    /// pattern's vertices, see [`Nac::new`]).
    pub fn with_conditions(mut self, induced: bool, nacs: Vec<Nac>) -> Self {
        // The store facts depend on all of it: worked out again when needed.
        self.store_facts = OnceLock::new();
        self.induced = induced;
        self.nacs = nacs;
        self
    }

    /// Whether this is a grid rule's pattern ([`Pattern::with_grid`]),
    /// whose matches carry a [`super::Frame`].
    pub(crate) fn is_grid(&self) -> bool {
        self.grid.is_some()
    }

    /// The pattern's vertices.
    pub fn vertices(&self) -> &[PatternVertex] {
        &self.vertices
    }

    /// The pattern's edges.
    pub fn edges(&self) -> &[PatternEdge] {
        &self.edges
    }

    /// Number of host vertices a pattern vertex could be mapped to by tag alone.
    fn candidate_count(&self, host: &Graph, i: usize) -> usize {
        match &self.vertices[i].tags {
            TagTest::Any => host.vertex_count(),
            TagTest::OneOf(tags) => tags.iter().map(|&t| host.vertices_tagged(t).len()).sum(),
        }
    }

    /// How selective a vertex is without looking at a host: fewer
    /// alternative tags first, the wildcard last.
    fn static_selectivity(&self, v: usize) -> usize {
        match &self.vertices[v].tags {
            TagTest::Any => usize::MAX,
            TagTest::OneOf(tags) => tags.len(),
        }
    }

    /// The root for a search of `host`: the vertex with the fewest host
    /// candidates by tag, then the highest degree, then the lowest index.
    pub(super) fn choose_root(&self, host: &Graph) -> usize {
        (0..self.vertices.len())
            .min_by_key(|&v| {
                (
                    self.candidate_count(host, v),
                    std::cmp::Reverse(self.degree[v]),
                    v,
                )
            })
            .expect("pattern has a vertex")
    }

    /// The search order starting with the vertices of `prefix` (each
    /// placed without a search edge: a root, or a vertex bound in advance),
    /// then repeatedly the unplaced vertex with the most edges to placed
    /// ones (then the most selective, then the highest degree), found
    /// through one of those edges; a vertex with no edge to the placed ones
    /// starts a new component.
    pub(super) fn plan_with_prefix(&self, prefix: &[usize]) -> SearchPlan {
        let n = self.vertices.len();
        let mut placed = vec![false; n];
        let mut steps = Vec::with_capacity(n);
        let joins_of = |v: usize, placed: &[bool]| -> Vec<usize> {
            self.incident[v]
                .iter()
                .copied()
                .filter(|&j| {
                    let e = &self.edges[j];
                    e.source != e.target && placed[self.other_end(j, v)]
                })
                .collect()
        };
        let loops_of = |v: usize| -> Vec<usize> {
            self.incident[v]
                .iter()
                .copied()
                .filter(|&j| self.edges[j].source == self.edges[j].target)
                .collect()
        };
        for &v in prefix {
            let mut checks = joins_of(v, &placed);
            checks.extend(loops_of(v));
            placed[v] = true;
            steps.push(Step {
                vertex: v,
                via: None,
                inside: None,
                checks,
            });
        }
        while steps.len() < n {
            let next = {
                (0..n)
                    .filter(|&v| !placed[v])
                    .map(|v| (v, joins_of(v, &placed)))
                    .filter(|(_, joins)| !joins.is_empty())
                    .min_by_key(|(v, joins)| {
                        (
                            std::cmp::Reverse(joins.len()),
                            self.static_selectivity(*v),
                            std::cmp::Reverse(self.degree[*v]),
                            *v,
                        )
                    })
            };
            let step = match next {
                Some((v, joins)) => {
                    let mut checks: Vec<usize> = joins[1..].to_vec();
                    checks.extend(loops_of(v));
                    Step {
                        vertex: v,
                        via: Some(joins[0]),
                        inside: None,
                        checks,
                    }
                }
                None => {
                    let v = (0..n)
                        .filter(|&v| !placed[v])
                        .min_by_key(|&v| {
                            (
                                self.static_selectivity(v),
                                std::cmp::Reverse(self.degree[v]),
                                v,
                            )
                        })
                        .expect("an unplaced vertex remains");
                    // Self-loops on a root are checked like any other edge.
                    Step {
                        vertex: v,
                        via: None,
                        inside: self.inside_placed(v, &placed),
                        checks: loops_of(v),
                    }
                }
            };
            placed[step.vertex] = true;
            steps.push(step);
        }
        SearchPlan { steps }
    }

    /// A containment that ties `v` to a placed vertex (see [`Step::inside`]),
    /// the first listed.
    fn inside_placed(&self, v: usize, placed: &[bool]) -> Option<(usize, bool)> {
        self.inside.iter().find_map(|&(c, p)| {
            if c == v && p != v && placed[p] {
                Some((p, true))
            } else if p == v && c != v && placed[c] {
                Some((c, false))
            } else {
                None
            }
        })
    }

    pub(super) fn other_end(&self, edge: usize, v: usize) -> usize {
        let e = &self.edges[edge];
        if e.source == v {
            e.target
        } else {
            e.source
        }
    }

    /// The host edge kinds (either end) of the pattern edges at pattern
    /// vertex `i`: a match puts a host edge of each of them at `i`'s image.
    pub(crate) fn kinds_at(&self, i: usize) -> impl Iterator<Item = EdgeKind> + '_ {
        self.incident[i]
            .iter()
            .map(|&j| self.kinds[j][0].either_end())
    }

    /// For a pattern of one vertex with one or more tags and nothing else
    /// (no edge, containment, forbidden tag, `induced`, condition or grid):
    /// its tags. Its matches are then the vertices of those tags that pass
    /// [`Pattern::vertex_fits`], in the order of the search (tag by tag,
    /// each in the tag index's order), every complete-match check being
    /// vacuous.
    pub(crate) fn lone_vertex_tags(&self) -> Option<&[Symbol]> {
        match (&self.vertices[..], &self.edges[..]) {
            ([v], [])
                if self.inside.is_empty()
                    && !self.any_forbidden
                    && !self.induced
                    && self.nacs.is_empty()
                    && self.grid.is_none() =>
            {
                match &v.tags {
                    TagTest::OneOf(tags) => Some(tags),
                    TagTest::Any => None,
                }
            }
            _ => None,
        }
    }

    /// The host edge kind pattern edge `j` needs, seen from its source.
    pub(crate) fn kind(&self, j: usize) -> EdgeKind {
        self.kinds[j][0]
    }

    /// The host edge kind pattern edge `j` needs, seen from its end
    /// `end` (a pattern vertex index): a directed edge is outgoing from
    /// its source and incoming at its target.
    #[inline]
    pub(crate) fn kind_from(&self, j: usize, end: usize) -> EdgeKind {
        self.kinds[j][usize::from(self.edges[j].source != end)]
    }

    /// Number of pattern edges at pattern vertex `i` (a loop counts once).
    pub(crate) fn degree(&self, i: usize) -> usize {
        self.degree[i]
    }

    /// Whether pattern vertex `i` accepts host vertex `v` by tag alone.
    pub(crate) fn accepts(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        host.live_tag(v)
            .is_some_and(|tag| self.vertices[i].tags.accepts(tag))
    }

    /// A host edge from `a` to `b` (the images of pattern edge `j`'s source
    /// and target) that can be the image of edge `j` and that `free`
    /// accepts ([`Graph::find_edge`]).
    #[inline]
    pub(super) fn find_edge(
        &self,
        host: &Graph,
        j: usize,
        a: VertexId,
        b: VertexId,
        free: impl Fn(EdgeId) -> bool,
    ) -> Option<EdgeId> {
        host.find_edge(a, b, self.kinds[j][0], free)
    }

    /// Whether host vertex `v` passes pattern vertex `i`'s own tests: live,
    /// an accepted tag, at least `i`'s pattern degree, the exact valence
    /// and the attributes it asks for.
    #[inline(always)]
    pub(crate) fn vertex_fits(&self, host: &Graph, i: usize, v: VertexId) -> bool {
        let p = &self.vertices[i];
        let Some((tag, degree)) = host.live_tag_and_degree(v) else {
            return false;
        };
        p.tags.accepts(tag)
            && degree >= self.degree[i]
            && p.valence.is_none_or(|n| host.valence(v) == n as usize)
            && (p.attributes.is_empty()
                || host.vertex(v).is_some_and(|h| {
                    p.attributes
                        .iter()
                        .all(|(k, val)| h.attributes.get(k) == Some(val))
                }))
    }
}
