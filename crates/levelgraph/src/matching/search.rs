//! The general search: a [`Pattern`]'s vertices placed one plan step at a
//! time, each found among the host neighbours of a placed vertex (or from
//! the tag index, or the containment index), in a deterministic order.

use std::cell::RefCell;
use std::ops::ControlFlow;

use super::pattern::SearchPlan;
use super::{budget, small, Match, Pattern, TagTest, UNBOUND};
use crate::graph::{EdgeId, Graph, VertexId};

impl Pattern {
    /// Calls `visit` on every match, in a deterministic order, until it
    /// returns `Break`. Returns `Break` if `visit` did.
    pub fn for_each_match(
        &self,
        host: &Graph,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.vertices.is_empty() {
            return ControlFlow::Continue(());
        }
        if let Some((offsets, transforms)) = &self.grid {
            return self.grid_search_from(host, offsets, transforms, None, visit);
        }
        let plan = &self.plans[self.choose_root(host)];
        with_buffers(|b| SearchState::new(self, host, plan, &[], &[], b).extend(0, visit))
    }

    /// [`Pattern::for_each_match`], for the incremental stores: the same
    /// matches in the same order, written into `image` (a buffer the
    /// caller keeps); small patterns take [`small::search`].
    ///
    /// Equivalence: for every pattern [`small::fits`], this gives exactly
    /// [`Pattern::find_all`]'s matches in its order; the proptest
    /// `the_small_search_is_the_general_search` (`matching/small.rs`)
    /// holds the two to it on random hosts, patterns and conditions.
    /// Measured 2026-11-28 (growth benchmark, 8 alternating rounds): the
    /// general search alone takes 1.18× the CPU time.
    pub(crate) fn for_each_match_into<F>(
        &self,
        host: &Graph,
        image: &mut Match,
        mut visit: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&Match) -> ControlFlow<()>,
    {
        if self.vertices.is_empty() || !small::fits(self) {
            return self.for_each_match(host, &mut visit);
        }
        let plan = &self.plans[self.choose_root(host)];
        let fixed = [UNBOUND; small::MAX_VERTICES];
        small::search(self, host, plan, &fixed, image, visit)
    }

    /// Whether the pattern has at least one match (stops at the first).
    pub fn has_match(&self, host: &Graph) -> bool {
        self.for_each_match(host, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    /// Every match, in the order of [`Pattern::for_each_match`].
    pub fn find_all(&self, host: &Graph) -> Vec<Match> {
        let mut out = Vec::new();
        let _ = self.for_each_match(host, &mut |m| {
            out.push(m.clone());
            ControlFlow::Continue(())
        });
        out
    }
}

/// The buffers of one search, recycled through [`BUFFERS`] so that the
/// many small searches of incremental updates and conditions allocate
/// nothing (measured 2026-11-28: with a fresh set per search, the derive
/// benchmark takes 6–8 % more CPU time).
pub(super) struct Buffers {
    /// Host vertices bound in advance, by pattern vertex (`UNBOUND`, or
    /// past the end: not bound).
    fixed: Vec<VertexId>,
    image: Match,
    /// Host vertices in the partial match, for injectivity (patterns are
    /// small, so a linear scan beats a set).
    used: Vec<VertexId>,
    used_edges: Vec<EdgeId>,
}

impl Buffers {
    /// Buffers with nothing allocated yet.
    const EMPTY: Buffers = Buffers {
        fixed: Vec::new(),
        image: Match {
            vertices: Vec::new(),
            edges: Vec::new(),
            frame: None,
        },
        used: Vec::new(),
        used_edges: Vec::new(),
    };
}

thread_local! {
    /// Idle search buffers of this thread (searches nest: a condition is
    /// searched inside the search it guards).
    // Boxed, so that taking buffers from the pool and giving them back
    // moves a pointer, not the whole struct (a `memcpy` call each way).
    #[allow(clippy::vec_box)]
    static BUFFERS: RefCell<Vec<Box<Buffers>>> = const { RefCell::new(Vec::new()) };
}

/// At most this many idle buffers are kept per thread.
const BUFFERS_KEPT: usize = 8;

pub(super) struct SearchState<'a> {
    pattern: &'a Pattern,
    host: &'a Graph,
    plan: &'a SearchPlan,
    /// The search's buffers, from [`with_buffers`].
    b: &'a mut Buffers,
}

/// Runs `f` with a set of search buffers from this thread's pool, then
/// gives them back.
pub(super) fn with_buffers<R>(f: impl FnOnce(&mut Buffers) -> R) -> R {
    let mut b = BUFFERS
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_else(|| Box::new(Buffers::EMPTY));
    let out = f(&mut b);
    BUFFERS.with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < BUFFERS_KEPT {
            pool.push(b);
        }
    });
    out
}

impl<'a> SearchState<'a> {
    /// A search for `pattern` in `host` along `plan`, with the vertices in
    /// `fixed` bound in advance (`UNBOUND` or past its end: free) and the
    /// host edges in `used_edges` already taken (a NAC must not reuse the
    /// guarded match's edges).
    pub(super) fn new(
        pattern: &'a Pattern,
        host: &'a Graph,
        plan: &'a SearchPlan,
        fixed: &[VertexId],
        used_edges: &[EdgeId],
        b: &'a mut Buffers,
    ) -> Self {
        b.fixed.clear();
        b.fixed.extend_from_slice(fixed);
        b.image.vertices.clear();
        b.image.vertices.resize(pattern.vertices.len(), UNBOUND);
        b.image.edges.clear();
        b.image.edges.resize(pattern.edges.len(), EdgeId(u32::MAX));
        b.image.frame = None;
        b.used.clear();
        b.used_edges.clear();
        b.used_edges.extend_from_slice(used_edges);
        SearchState {
            pattern,
            host,
            plan,
            b,
        }
    }

    /// Places the plan's step `depth` and the ones after it, calling
    /// `visit` on each complete match.
    ///
    /// Keep in step with `matching/small.rs`, which mirrors these tests
    /// (the same candidates in the same order) for small patterns.
    pub(super) fn extend(
        &mut self,
        depth: usize,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if depth == self.plan.steps.len() {
            if self.pattern.conditions_hold(self.host, &self.b.image) {
                return visit(&self.b.image);
            }
            return ControlFlow::Continue(());
        }
        let step = &self.plan.steps[depth];
        let v = step.vertex;
        match step.via {
            None if self.b.fixed.get(v).is_some_and(|&h| h != UNBOUND) => {
                let h = self.b.fixed[v];
                budget::spend()?;
                self.try_candidate(depth, v, h, None, visit)?;
            }
            None if step.inside.is_some() => {
                let (w, stored) = step.inside.expect("checked");
                let host = self.host;
                let anchor = self.b.image.vertices[w];
                // The same candidates in the same order as the tag index
                // gives (tag by tag, each in id order), restricted to the
                // containment: children are kept sorted by id.
                let parent = host.parent(anchor);
                let inner: &[VertexId] = if stored {
                    host.children(anchor)
                } else {
                    parent.as_slice()
                };
                budget::spend_n(inner.len())?;
                match &self.pattern.vertices[v].tags {
                    TagTest::Any => {
                        for &h in inner {
                            self.try_candidate(depth, v, h, None, visit)?;
                        }
                    }
                    TagTest::OneOf(tags) => {
                        for &t in tags {
                            for &h in inner.iter().filter(|&&h| host.tag(h) == t) {
                                self.try_candidate(depth, v, h, None, visit)?;
                            }
                        }
                    }
                }
            }
            None => {
                let host = self.host;
                match &self.pattern.vertices[v].tags {
                    TagTest::Any => {
                        budget::spend_n(host.vertex_bound())?;
                        for h in host.vertex_ids() {
                            self.try_candidate(depth, v, h, None, visit)?;
                        }
                    }
                    // Tag by tag, each in id order: deterministic, no sorting.
                    TagTest::OneOf(tags) => {
                        for &t in tags {
                            budget::spend_n(host.vertices_tagged(t).len())?;
                            for &h in host.vertices_tagged(t) {
                                self.try_candidate(depth, v, h, None, visit)?;
                            }
                        }
                    }
                }
            }
            Some(via) => {
                let anchor_p = self.pattern.other_end(via, v);
                let anchor = self.b.image.vertices[anchor_p];
                // The kind the host edge has at the anchor's end.
                let want = self.pattern.kind_from(via, anchor_p);
                let host = self.host;
                budget::spend_n(host.incidences(anchor).len())?;
                for link in host.incidences(anchor) {
                    if !link.kind.fits(want) || self.b.used_edges.contains(&link.edge) {
                        continue;
                    }
                    self.try_candidate(depth, v, link.other, Some((via, link.edge)), visit)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Tries host vertex `h` (reached along host edge `via`, if any) for
    /// pattern vertex `v` at step `depth`, then the steps after it.
    ///
    /// Keep in step with `matching/small.rs`, which mirrors these tests
    /// (the same checks in the same order) for small patterns.
    fn try_candidate(
        &mut self,
        depth: usize,
        v: usize,
        h: VertexId,
        via: Option<(usize, EdgeId)>,
        visit: &mut dyn FnMut(&Match) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.b.used.contains(&h) || !self.pattern.vertex_fits(self.host, v, h) {
            return ControlFlow::Continue(());
        }
        self.b.image.vertices[v] = h;
        let mark = self.b.used_edges.len();
        if let Some((j, e)) = via {
            self.b.image.edges[j] = e;
            self.b.used_edges.push(e);
        }
        let step = &self.plan.steps[depth];
        let mut ok = true;
        for &j in &step.checks {
            let pe = self.pattern.edges[j];
            let (a, b) = (
                self.b.image.vertices[pe.source],
                self.b.image.vertices[pe.target],
            );
            let used = &self.b.used_edges;
            let found = self
                .pattern
                .find_edge(self.host, j, a, b, |e| !used.contains(&e));
            match found {
                Some(e) => {
                    self.b.image.edges[j] = e;
                    self.b.used_edges.push(e);
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        let mut flow = ControlFlow::Continue(());
        if ok {
            self.b.used.push(h);
            flow = self.extend(depth + 1, visit);
            self.b.used.pop();
        }
        self.b.used_edges.truncate(mark);
        flow
    }
}
