//! Planarity testing with a combinatorial embedding, and the faces of an
//! embedding (the layout's chains come from a planar embedding's faces, as
//! in Ma et al. 2014).
//!
//! [`planar_embedding`] is the **left-right planarity test** of de
//! Fraysseix and Rosenstiehl (H. de Fraysseix, P. Rosenstiehl, "A
//! characterization of planar graphs by Trémaux orders", Combinatorica 5,
//! 1985), in the form given by Ulrik Brandes, "The Left-Right Planarity
//! Test" (manuscript, University of Konstanz, 2009), including its third
//! phase that turns the left/right assignment into a rotation system. Its
//! three phases, each one depth-first traversal written with an explicit
//! stack (no recursion, so a 100,000-vertex path is fine):
//!
//! 1. *Orientation*: a DFS orients every edge away from the root, and
//!    computes heights, the lowpoints `lowpt`, `lowpt2` of every edge and
//!    its nesting depth `2·lowpt + [lowpt2 < height(source)]`.
//! 2. *Testing*: a second DFS visits every vertex's outgoing edges by
//!    increasing nesting depth and keeps a stack of conflict pairs of
//!    intervals of back edges that must lie on the same or on opposite
//!    sides; an unsatisfiable constraint means the graph is not planar.
//!    Sides are recorded relative to other edges (`ref` chains).
//! 3. *Embedding*: resolving the chains gives every edge a side (left or
//!    right); outgoing edges are then ordered by signed nesting depth, and
//!    a third DFS inserts each back edge beside the tree edge it returns
//!    around (left ones before it, right ones after it).
//!
//! Sorting by nesting depth is a counting sort, so the whole test is
//! O(n + m). Nothing iterates a hash map: the same input gives the same
//! embedding.
//!
//! [`Embedding::faces`] walks the faces of any rotation system;
//! [`Embedding::from_drawing`] reads the rotation system off a straight-line
//! drawing with exact angle comparisons.

use std::cmp::Ordering;

/// "No vertex / no edge / no half-edge" in the index arrays.
const NONE: usize = usize::MAX;

/// A combinatorial embedding (rotation system) of a simple undirected graph
/// on the vertices `0..n`: for each vertex, its neighbours in
/// counter-clockwise order around it.
///
/// Every edge `{u, v}` appears exactly twice: `v` in `rotation(u)` and `u`
/// in `rotation(v)`. An embedding from [`planar_embedding`] is planar: some
/// crossing-free drawing has exactly these counter-clockwise orders (its
/// mirror image has the reversed ones). Which neighbour a rotation starts
/// with carries no meaning (the order is cyclic), but it is deterministic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedding {
    /// `rotation[v]`: the neighbours of `v`, counter-clockwise.
    rotation: Vec<Vec<usize>>,
}

impl Embedding {
    /// The neighbours of `v` in counter-clockwise order (a cyclic order;
    /// empty for an isolated vertex). **Panics** if `v >= vertex_count()`.
    pub fn rotation(&self, v: usize) -> &[usize] {
        &self.rotation[v]
    }

    /// The number of vertices `n` (vertices are `0..n`).
    pub fn vertex_count(&self) -> usize {
        self.rotation.len()
    }

    /// The embedding of the subgraph of the edges `{u, v}` with
    /// `keep(u, v)`: every rotation with the other edges left out, in the
    /// same order, which is a planar embedding of the subgraph when this
    /// one is planar. `keep` must be symmetric.
    pub fn restricted(&self, keep: impl Fn(usize, usize) -> bool) -> Embedding {
        Embedding {
            rotation: self
                .rotation
                .iter()
                .enumerate()
                .map(|(u, r)| r.iter().copied().filter(|&v| keep(u, v)).collect())
                .collect(),
        }
    }

    /// The number of (undirected, distinct) edges.
    pub fn edge_count(&self) -> usize {
        self.rotation.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// The embedding of a straight-line drawing: `points[v]` is where
    /// vertex `v` is drawn, and every vertex's neighbours are sorted
    /// counter-clockwise by the direction of the edge, starting from the
    /// direction of the positive x axis (x right, y up; angles in
    /// `[0, 2π)`).
    ///
    /// Edges are pairs of vertex indices; self-loops and repeated edges
    /// (either direction) are ignored. Directions are compared exactly —
    /// by half-plane, then by the sign of the cross product, computed
    /// without rounding — not with `atan2`, so the result is the same on
    /// every platform. Ties (two neighbours in the same direction, or at
    /// the vertex's own point, or a non-finite coordinate) are broken by
    /// vertex index.
    ///
    /// The caller promises the drawing is plane (no two edges cross or
    /// overlap); this is not checked, and for a drawing that is not plane
    /// the result is a rotation system that is not a planar embedding.
    ///
    /// **Panics** if `points.len() != n` or an endpoint is `>= n`.
    pub fn from_drawing(n: usize, edges: &[[usize; 2]], points: &[[f64; 2]]) -> Embedding {
        assert_eq!(
            points.len(),
            n,
            "from_drawing: {} points for {n} vertices",
            points.len()
        );
        let simple = simple_edges(n, edges).unwrap_or_else(|e| panic!("from_drawing: {e}"));
        let mut rotation = vec![Vec::new(); n];
        for &[a, b] in &simple {
            rotation[a].push(b);
            rotation[b].push(a);
        }
        for (v, nbrs) in rotation.iter_mut().enumerate() {
            let p = points[v];
            nbrs.sort_by(|&a, &b| {
                direction_cmp(
                    [points[a][0] - p[0], points[a][1] - p[1]],
                    [points[b][0] - p[0], points[b][1] - p[1]],
                )
                .then(a.cmp(&b))
            });
        }
        Embedding { rotation }
    }

    /// The faces of the embedding, each a cyclic list of vertices.
    ///
    /// Orientation: every face is walked **with the face on its left**.
    /// Arriving at `v` from `u`, the walk leaves `v` towards the neighbour
    /// that precedes `u` in `rotation(v)` (the next one clockwise). In a
    /// drawing whose counter-clockwise orders are the rotations, the
    /// bounded faces therefore come out counter-clockwise and the outer
    /// face clockwise.
    ///
    /// Every side of every edge (every directed edge `u → v`) is used by
    /// exactly one face, so the face lengths add up to twice the edge
    /// count; a vertex appears in a face once per visit (a cut vertex or a
    /// bridge's ends more than once). Faces are per connected component: a
    /// component with at least one edge has its own outer face, and an
    /// **isolated vertex `v` has exactly one face, `[v]`**. With that
    /// convention every component satisfies Euler's formula
    /// `V − E + F = 2` exactly when the rotation system is planar (so a
    /// tree has one face, and the whole graph has `V − E + F = 2C` for `C`
    /// components).
    ///
    /// Order: faces are listed by their first directed edge, scanning
    /// vertices in increasing order and each vertex's rotation in order;
    /// each face starts at that edge's tail. Deterministic, O(n + m).
    pub fn faces(&self) -> Vec<Vec<usize>> {
        let n = self.rotation.len();
        let mut offset = Vec::with_capacity(n + 1);
        offset.push(0);
        for r in &self.rotation {
            offset.push(offset.last().copied().unwrap_or(0) + r.len());
        }
        let half_count = offset[n];
        let mut tail = vec![0usize; half_count];
        let mut head = vec![0usize; half_count];
        for (v, r) in self.rotation.iter().enumerate() {
            for (i, &u) in r.iter().enumerate() {
                tail[offset[v] + i] = v;
                head[offset[v] + i] = u;
            }
        }
        // Twins: sort the directed edges by (min end, max end) with two
        // stable counting sorts; each edge's two directions become
        // neighbours.
        let all: Vec<usize> = (0..half_count).collect();
        let by_high = counting_sort(&all, n, |h| tail[h].max(head[h]));
        let by_pair = counting_sort(&by_high, n, |h| tail[h].min(head[h]));
        let mut twin = vec![NONE; half_count];
        for pair in by_pair.chunks(2) {
            debug_assert!(pair.len() == 2 && tail[pair[0]] == head[pair[1]]);
            if let [a, b] = *pair {
                twin[a] = b;
                twin[b] = a;
            }
        }

        let mut faces = Vec::new();
        let mut used = vec![false; half_count];
        for v in 0..n {
            if self.rotation[v].is_empty() {
                faces.push(vec![v]);
                continue;
            }
            for start in offset[v]..offset[v + 1] {
                if used[start] {
                    continue;
                }
                let mut face = Vec::new();
                let mut h = start;
                loop {
                    used[h] = true;
                    face.push(tail[h]);
                    // h = tail → u; its twin is u → tail at position k of u.
                    let u = head[h];
                    let k = twin[h] - offset[u];
                    let deg = offset[u + 1] - offset[u];
                    h = offset[u] + (k + deg - 1) % deg;
                    if h == start {
                        break;
                    }
                }
                faces.push(face);
            }
        }
        faces
    }
}

/// Why [`planar_embedding`] (or the edge check of
/// [`Embedding::from_drawing`]) found no embedding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanarityError {
    /// The graph is not planar.
    #[error(
        "the graph is not planar ({vertices} vertices, {edges} distinct edges{})",
        describe_failed_edge(.edge)
    )]
    NonPlanar {
        /// Vertex count `n`.
        vertices: usize,
        /// Distinct edges, self-loops and repeats left out.
        edges: usize,
        /// `None` when the edge count alone rules planarity out (`m > 3n − 6`
        /// for `n ≥ 3`). Otherwise `Some([v, w])`: the edge, oriented as the
        /// depth-first search met it, whose return edges could not be
        /// placed on either side. It lies in a block that is not planar,
        /// but need not belong to any particular Kuratowski subgraph.
        edge: Option<[usize; 2]>,
    },
    /// An edge has an endpoint outside `0..vertices`.
    #[error("edge {index} is {edge:?}, but vertices are 0..{vertices}")]
    BadEdge {
        /// Its index in the edge slice given.
        index: usize,
        /// The edge as given.
        edge: [usize; 2],
        /// The vertex count.
        vertices: usize,
    },
}

fn describe_failed_edge(edge: &Option<[usize; 2]>) -> String {
    match edge {
        Some([v, w]) => format!("; constraints failed at edge {v}-{w}"),
        None => ", more than 3n - 6".to_string(),
    }
}

/// Tests whether the simple undirected graph with vertices `0..n` and
/// these edges is planar, and if so returns a planar [`Embedding`] of it.
///
/// Edges are pairs of vertex indices in either order; self-loops and
/// repeated edges are ignored. Disconnected graphs are fine: every
/// connected component is embedded on its own (see [`Embedding::faces`]).
/// Runs in O(n + m) time and memory, without recursion.
///
/// Algorithm: the left-right planarity test of de Fraysseix and
/// Rosenstiehl as presented by U. Brandes, "The Left-Right Planarity Test"
/// (2009), with its embedding phase (see the module documentation). A
/// graph with `n ≥ 3` and more than `3n − 6` distinct edges is rejected
/// at once.
///
/// # Errors
///
/// [`PlanarityError::BadEdge`] for the first edge with an endpoint
/// `>= n`; [`PlanarityError::NonPlanar`] if the graph is not planar.
pub fn planar_embedding(n: usize, edges: &[[usize; 2]]) -> Result<Embedding, PlanarityError> {
    let simple = simple_edges(n, edges)?;
    let m = simple.len();
    if n >= 3 && m > 3 * n - 6 {
        return Err(PlanarityError::NonPlanar {
            vertices: n,
            edges: m,
            edge: None,
        });
    }
    let mut lr = LeftRight::new(n, simple);
    lr.orient();
    lr.sort_out_edges_by_nesting_depth();
    if let Err(e) = lr.test() {
        return Err(PlanarityError::NonPlanar {
            vertices: n,
            edges: m,
            edge: Some(lr.ends[e]),
        });
    }
    Ok(Embedding {
        rotation: lr.embed(),
    })
}

/// The distinct edges as `[low, high]` pairs without self-loops, ordered
/// by low end and then by first occurrence. O(n + m).
fn simple_edges(n: usize, edges: &[[usize; 2]]) -> Result<Vec<[usize; 2]>, PlanarityError> {
    for (index, &edge) in edges.iter().enumerate() {
        if edge[0] >= n || edge[1] >= n {
            return Err(PlanarityError::BadEdge {
                index,
                edge,
                vertices: n,
            });
        }
    }
    let proper: Vec<usize> = (0..edges.len())
        .filter(|&i| edges[i][0] != edges[i][1])
        .collect();
    let by_low = counting_sort(&proper, n, |i| edges[i][0].min(edges[i][1]));
    let mut seen_from = vec![NONE; n];
    let mut out = Vec::with_capacity(by_low.len());
    for i in by_low {
        let [a, b] = edges[i];
        let (lo, hi) = (a.min(b), a.max(b));
        if seen_from[hi] != lo {
            seen_from[hi] = lo;
            out.push([lo, hi]);
        }
    }
    Ok(out)
}

/// `items` stably sorted by `key`, whose values are below `key_count`.
fn counting_sort(items: &[usize], key_count: usize, key: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut start = vec![0usize; key_count + 1];
    for &x in items {
        start[key(x) + 1] += 1;
    }
    for k in 0..key_count {
        start[k + 1] += start[k];
    }
    let mut out = vec![0usize; items.len()];
    for &x in items {
        let k = key(x);
        out[start[k]] = x;
        start[k] += 1;
    }
    out
}

/// An interval of back edges on one side: `high` is its highest return
/// edge, `low` its lowest, and `ref` links lead from `high` down to `low`.
/// Both are [`NONE`] when empty (during trimming, briefly only `high`).
#[derive(Clone, Copy, Debug)]
struct Interval {
    low: usize,
    high: usize,
}

impl Interval {
    const EMPTY: Interval = Interval {
        low: NONE,
        high: NONE,
    };

    fn is_empty(&self) -> bool {
        self.low == NONE && self.high == NONE
    }
}

/// Two intervals whose return edges must lie on opposite sides; `id`
/// identifies the pair (it keeps its id while trimmed in place) for the
/// stack-bottom test of Brandes' `add_constraints`.
#[derive(Clone, Copy, Debug)]
struct ConflictPair {
    left: Interval,
    right: Interval,
    id: usize,
}

/// The state of the left-right test on one simple graph. Edges are indices
/// into `ends`; after [`LeftRight::orient`], `ends[e] = [source, target]`.
struct LeftRight {
    n: usize,
    ends: Vec<[usize; 2]>,
    /// Incident edges of every vertex (CSR).
    adj_start: Vec<usize>,
    adj: Vec<usize>,
    oriented: Vec<bool>,
    height: Vec<usize>,
    parent_edge: Vec<usize>,
    roots: Vec<usize>,
    lowpt: Vec<usize>,
    lowpt2: Vec<usize>,
    nesting_depth: Vec<usize>,
    /// Outgoing edges of every vertex (CSR), sorted by nesting depth.
    out_start: Vec<usize>,
    out: Vec<usize>,
    refs: Vec<usize>,
    /// +1 right, −1 left (relative to `refs[e]` until resolved).
    side: Vec<i8>,
    lowpt_edge: Vec<usize>,
    stack_bottom: Vec<usize>,
    stack: Vec<ConflictPair>,
    next_pair_id: usize,
}

impl LeftRight {
    fn new(n: usize, ends: Vec<[usize; 2]>) -> Self {
        let m = ends.len();
        let mut adj_start = vec![0usize; n + 1];
        for &[a, b] in &ends {
            adj_start[a + 1] += 1;
            adj_start[b + 1] += 1;
        }
        for v in 0..n {
            adj_start[v + 1] += adj_start[v];
        }
        let mut fill = adj_start.clone();
        let mut adj = vec![0usize; 2 * m];
        for (e, &[a, b]) in ends.iter().enumerate() {
            adj[fill[a]] = e;
            fill[a] += 1;
            adj[fill[b]] = e;
            fill[b] += 1;
        }
        LeftRight {
            n,
            ends,
            adj_start,
            adj,
            oriented: vec![false; m],
            height: vec![NONE; n],
            parent_edge: vec![NONE; n],
            roots: Vec::new(),
            lowpt: vec![0; m],
            lowpt2: vec![0; m],
            nesting_depth: vec![0; m],
            out_start: Vec::new(),
            out: Vec::new(),
            refs: vec![NONE; m],
            side: vec![1; m],
            lowpt_edge: vec![NONE; m],
            stack_bottom: vec![NONE; m],
            stack: Vec::new(),
            next_pair_id: 0,
        }
    }

    /// Phase 1: DFS orientation, heights, lowpoints and nesting depths.
    fn orient(&mut self) {
        let mut frames: Vec<(usize, usize)> = Vec::new();
        for root in 0..self.n {
            if self.height[root] != NONE {
                continue;
            }
            self.height[root] = 0;
            self.roots.push(root);
            frames.push((root, self.adj_start[root]));
            while let Some(frame) = frames.last_mut() {
                let v = frame.0;
                if frame.1 == self.adj_start[v + 1] {
                    frames.pop();
                    let e = self.parent_edge[v];
                    if e != NONE {
                        self.finish_oriented_edge(e, self.ends[e][0]);
                    }
                    continue;
                }
                let e = self.adj[frame.1];
                frame.1 += 1;
                if self.oriented[e] {
                    continue;
                }
                self.oriented[e] = true;
                let [a, b] = self.ends[e];
                let w = if a == v { b } else { a };
                self.ends[e] = [v, w];
                self.lowpt[e] = self.height[v];
                self.lowpt2[e] = self.height[v];
                if self.height[w] == NONE {
                    // Tree edge: finished when w is.
                    self.parent_edge[w] = e;
                    self.height[w] = self.height[v] + 1;
                    frames.push((w, self.adj_start[w]));
                } else {
                    // Back edge.
                    self.lowpt[e] = self.height[w];
                    self.finish_oriented_edge(e, v);
                }
            }
        }
    }

    /// The nesting depth of `e` (out of `v`), and its lowpoints passed on
    /// to `v`'s parent edge.
    fn finish_oriented_edge(&mut self, e: usize, v: usize) {
        self.nesting_depth[e] = 2 * self.lowpt[e] + usize::from(self.lowpt2[e] < self.height[v]);
        let p = self.parent_edge[v];
        if p == NONE {
            return;
        }
        let (low, low2) = (self.lowpt[e], self.lowpt2[e]);
        match low.cmp(&self.lowpt[p]) {
            Ordering::Less => {
                self.lowpt2[p] = self.lowpt[p].min(low2);
                self.lowpt[p] = low;
            }
            Ordering::Greater => self.lowpt2[p] = self.lowpt2[p].min(low),
            Ordering::Equal => self.lowpt2[p] = self.lowpt2[p].min(low2),
        }
    }

    fn sort_out_edges_by_nesting_depth(&mut self) {
        let n = self.n;
        let mut out_start = vec![0usize; n + 1];
        for &[a, _] in &self.ends {
            out_start[a + 1] += 1;
        }
        for v in 0..n {
            out_start[v + 1] += out_start[v];
        }
        self.out_start = out_start;
        // Nesting depths are below 2n.
        let depth = std::mem::take(&mut self.nesting_depth);
        self.out = self.out_edges_sorted_by(2 * n, |e| depth[e]);
        self.nesting_depth = depth;
    }

    /// Every vertex's outgoing edges, grouped by source (as `out_start`
    /// says) and within a source stably sorted by `key` (below
    /// `key_count`).
    fn out_edges_sorted_by(&self, key_count: usize, key: impl Fn(usize) -> usize) -> Vec<usize> {
        let all: Vec<usize> = (0..self.ends.len()).collect();
        let by_key = counting_sort(&all, key_count, key);
        let mut fill = self.out_start.clone();
        let mut out = vec![0usize; self.ends.len()];
        for e in by_key {
            let v = self.ends[e][0];
            out[fill[v]] = e;
            fill[v] += 1;
        }
        out
    }

    fn top_id(&self) -> usize {
        self.stack.last().map_or(NONE, |p| p.id)
    }

    fn push_pair(&mut self, left: Interval, right: Interval) {
        let id = self.next_pair_id;
        self.next_pair_id += 1;
        self.stack.push(ConflictPair { left, right, id });
    }

    fn conflicting(&self, interval: Interval, b: usize) -> bool {
        !interval.is_empty() && self.lowpt[interval.high] > self.lowpt[b]
    }

    fn lowest(&self, p: &ConflictPair) -> usize {
        if p.left.is_empty() {
            self.lowpt[p.right.low]
        } else if p.right.is_empty() {
            self.lowpt[p.left.low]
        } else {
            self.lowpt[p.left.low].min(self.lowpt[p.right.low])
        }
    }

    /// Phase 2: the left-right test. `Err(e)`: the constraints of edge `e`
    /// could not be added (not planar).
    fn test(&mut self) -> Result<(), usize> {
        let mut frames: Vec<(usize, usize)> = Vec::new();
        for r in 0..self.roots.len() {
            let root = self.roots[r];
            frames.push((root, self.out_start[root]));
            while let Some(&(v, i)) = frames.last() {
                if i < self.out_start[v + 1] {
                    let ei = self.out[i];
                    let w = self.ends[ei][1];
                    self.stack_bottom[ei] = self.top_id();
                    if self.parent_edge[w] == ei {
                        // Tree edge: the rest once w is done.
                        frames.push((w, self.out_start[w]));
                        continue;
                    }
                    self.lowpt_edge[ei] = ei;
                    self.push_pair(Interval::EMPTY, Interval { low: ei, high: ei });
                    self.integrate(v, i, ei)?;
                    if let Some(frame) = frames.last_mut() {
                        frame.1 += 1;
                    }
                    continue;
                }
                // v is done: finish its parent edge e = (u, v).
                frames.pop();
                let e = self.parent_edge[v];
                if e == NONE {
                    continue;
                }
                let u = self.ends[e][0];
                self.trim_back_edges(u);
                if self.lowpt[e] < self.height[u] {
                    // e has a return edge: its side is that of the highest.
                    let top = *self.stack.last().expect("a return edge is on the stack");
                    let (hl, hr) = (top.left.high, top.right.high);
                    self.refs[e] = if hl != NONE && (hr == NONE || self.lowpt[hl] > self.lowpt[hr])
                    {
                        hl
                    } else {
                        hr
                    };
                }
                let (pu, pi) = *frames.last().expect("a tree edge has a parent frame");
                debug_assert!(pu == u && self.out[pi] == e);
                self.integrate(u, pi, e)?;
                if let Some(frame) = frames.last_mut() {
                    frame.1 += 1;
                }
            }
            debug_assert!(self.stack.is_empty());
        }
        Ok(())
    }

    /// After out-edge `ei` (the `i`-th entry of `out`) of `v` is done:
    /// integrate its return edges into the constraints of `v`'s parent
    /// edge.
    fn integrate(&mut self, v: usize, i: usize, ei: usize) -> Result<(), usize> {
        if self.lowpt[ei] < self.height[v] {
            let e = self.parent_edge[v];
            if i == self.out_start[v] {
                self.lowpt_edge[e] = self.lowpt_edge[ei];
            } else if !self.add_constraints(ei, e) {
                return Err(ei);
            }
        }
        Ok(())
    }

    /// Brandes' `add_constraints(e_i, e)`; false if not planar.
    fn add_constraints(&mut self, ei: usize, e: usize) -> bool {
        let mut p = ConflictPair {
            left: Interval::EMPTY,
            right: Interval::EMPTY,
            id: NONE,
        };
        // Merge the return edges of e_i into p.right.
        loop {
            let mut q = self
                .stack
                .pop()
                .expect("the return edges of e_i are above its stack bottom");
            if !q.left.is_empty() {
                std::mem::swap(&mut q.left, &mut q.right);
            }
            if !q.left.is_empty() {
                return false;
            }
            if self.lowpt[q.right.low] > self.lowpt[e] {
                // Merge intervals.
                if p.right.is_empty() {
                    p.right.high = q.right.high;
                } else {
                    self.refs[p.right.low] = q.right.high;
                }
                p.right.low = q.right.low;
            } else {
                // Align with the lowest return edge of e.
                self.refs[q.right.low] = self.lowpt_edge[e];
            }
            if self.top_id() == self.stack_bottom[ei] {
                break;
            }
        }
        // Merge the conflicting return edges of e_1 .. e_{i-1} into p.left.
        while let Some(&top) = self.stack.last() {
            if !(self.conflicting(top.left, ei) || self.conflicting(top.right, ei)) {
                break;
            }
            self.stack.pop();
            let mut q = top;
            if self.conflicting(q.right, ei) {
                std::mem::swap(&mut q.left, &mut q.right);
            }
            if self.conflicting(q.right, ei) {
                return false;
            }
            // Merge the interval below lowpt(e_i) into p.right.
            if !q.right.is_empty() {
                if p.right.is_empty() {
                    p.right = q.right;
                } else {
                    self.refs[p.right.low] = q.right.high;
                    p.right.low = q.right.low;
                }
            }
            if p.left.is_empty() {
                p.left.high = q.left.high;
            } else {
                self.refs[p.left.low] = q.left.high;
            }
            p.left.low = q.left.low;
        }
        if !(p.left.is_empty() && p.right.is_empty()) {
            self.push_pair(p.left, p.right);
        }
        true
    }

    /// Brandes' `trim_back_edges(u)`: drop the back edges ending at `u`.
    fn trim_back_edges(&mut self, u: usize) {
        let height = self.height[u];
        while let Some(top) = self.stack.last() {
            if self.lowest(top) != height {
                break;
            }
            let p = self.stack.pop().expect("non-empty");
            if p.left.low != NONE {
                self.side[p.left.low] = -1;
            }
        }
        let Some(mut p) = self.stack.pop() else {
            return;
        };
        while p.left.high != NONE && self.ends[p.left.high][1] == u {
            p.left.high = self.refs[p.left.high];
        }
        if p.left.high == NONE && p.left.low != NONE {
            // Just emptied.
            self.refs[p.left.low] = p.right.low;
            self.side[p.left.low] = -1;
            p.left.low = NONE;
        }
        while p.right.high != NONE && self.ends[p.right.high][1] == u {
            p.right.high = self.refs[p.right.high];
        }
        if p.right.high == NONE && p.right.low != NONE {
            self.refs[p.right.low] = p.left.low;
            self.side[p.right.low] = -1;
            p.right.low = NONE;
        }
        self.stack.push(p);
    }

    /// Resolves `side[e]` to an absolute side (following `refs`).
    fn resolve_side(&mut self, e: usize, path: &mut Vec<usize>) {
        path.clear();
        let mut x = e;
        while self.refs[x] != NONE {
            path.push(x);
            x = self.refs[x];
        }
        let mut s = self.side[x];
        for &y in path.iter().rev() {
            self.side[y] *= s;
            self.refs[y] = NONE;
            s = self.side[y];
        }
    }

    /// Phase 3: the rotation system, as described in the module docs.
    fn embed(&mut self) -> Vec<Vec<usize>> {
        let (n, m) = (self.n, self.ends.len());
        let mut path = Vec::new();
        for e in 0..m {
            self.resolve_side(e, &mut path);
        }
        // Signed nesting depth, shifted by one so that a left edge comes
        // before a right edge even at depth 0; keys in -2n..=2n.
        let shift = 2 * n;
        let keys: Vec<usize> = (0..m)
            .map(|e| {
                let d = self.nesting_depth[e] + 1;
                if self.side[e] < 0 {
                    shift - d
                } else {
                    shift + d
                }
            })
            .collect();
        self.out = self.out_edges_sorted_by(4 * n + 1, |e| keys[e]);

        // Half-edges: 2e at the source of e, 2e + 1 at its target, in
        // cyclic doubly linked lists per vertex. During construction the
        // lists run the opposite way (clockwise): parent edge, then
        // outgoing edges left to right, with back edges from below
        // inserted beside the tree edge they return around.
        let mut next = vec![NONE; 2 * m];
        let mut prev = vec![NONE; 2 * m];
        let first: Vec<usize> = (0..n)
            .map(|v| {
                let list = &self.out[self.out_start[v]..self.out_start[v + 1]];
                for (k, &e) in list.iter().enumerate() {
                    let h = 2 * list[(k + 1) % list.len()];
                    next[2 * e] = h;
                    prev[h] = 2 * e;
                }
                list.first().map_or(NONE, |&e| 2 * e)
            })
            .collect();
        let mut first = first;
        let mut left_ref = vec![NONE; n];
        let mut right_ref = vec![NONE; n];
        let mut frames: Vec<(usize, usize)> = Vec::new();
        for r in 0..self.roots.len() {
            let root = self.roots[r];
            frames.push((root, self.out_start[root]));
            while let Some(frame) = frames.last_mut() {
                let (v, i) = *frame;
                if i == self.out_start[v + 1] {
                    frames.pop();
                    continue;
                }
                frame.1 += 1;
                let ei = self.out[i];
                let w = self.ends[ei][1];
                let h = 2 * ei + 1;
                if self.parent_edge[w] == ei {
                    // The parent edge goes first at w.
                    if first[w] == NONE {
                        next[h] = h;
                        prev[h] = h;
                    } else {
                        insert_before(&mut next, &mut prev, first[w], h);
                    }
                    first[w] = h;
                    left_ref[v] = 2 * ei;
                    right_ref[v] = 2 * ei;
                    frames.push((w, self.out_start[w]));
                } else if self.side[ei] > 0 {
                    insert_after(&mut next, &mut prev, right_ref[w], h);
                } else {
                    insert_before(&mut next, &mut prev, left_ref[w], h);
                    left_ref[w] = h;
                }
            }
        }
        // Read the lists backwards: counter-clockwise.
        let other_end = |h: usize| self.ends[h / 2][1 - h % 2];
        (0..n)
            .map(|v| {
                let mut rotation = Vec::new();
                if first[v] != NONE {
                    let mut h = first[v];
                    loop {
                        rotation.push(other_end(h));
                        h = prev[h];
                        if h == first[v] {
                            break;
                        }
                    }
                }
                rotation
            })
            .collect()
    }
}

/// Links `h` into a cyclic list right after `at`.
fn insert_after(next: &mut [usize], prev: &mut [usize], at: usize, h: usize) {
    let b = next[at];
    next[at] = h;
    prev[h] = at;
    next[h] = b;
    prev[b] = h;
}

/// Links `h` into a cyclic list right before `at`.
fn insert_before(next: &mut [usize], prev: &mut [usize], at: usize, h: usize) {
    insert_after(next, prev, prev[at], h);
}

/// Counter-clockwise order of two directions by angle in `[0, 2π)` from
/// the positive x axis, exactly. Zero or non-finite directions compare
/// equal to each other and before all others.
fn direction_cmp(a: [f64; 2], b: [f64; 2]) -> Ordering {
    fn half(d: [f64; 2]) -> u8 {
        let [x, y] = d;
        if !(x.is_finite() && y.is_finite()) || (x == 0.0 && y == 0.0) {
            0
        } else if y > 0.0 || (y == 0.0 && x > 0.0) {
            1 // [0, π)
        } else {
            2 // [π, 2π)
        }
    }
    let (ha, hb) = (half(a), half(b));
    if ha != hb || ha == 0 {
        return ha.cmp(&hb);
    }
    // Within a half-plane, a comes first iff cross(a, b) = ax·by − ay·bx > 0,
    // i.e. iff ay·bx < ax·by.
    exact_product_cmp([a[1], b[0]], [a[0], b[1]])
}

/// Compares `p[0]·p[1]` with `q[0]·q[1]` without rounding (finite inputs).
fn exact_product_cmp(p: [f64; 2], q: [f64; 2]) -> Ordering {
    /// `x = sign · mantissa · 2^exponent`.
    fn split(x: f64) -> (i8, u64, i32) {
        let bits = x.to_bits();
        let sign = if bits >> 63 == 1 { -1 } else { 1 };
        let exponent = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1u64 << 52) - 1);
        if exponent == 0 {
            (sign, fraction, -1074)
        } else {
            (sign, fraction | (1u64 << 52), exponent - 1075)
        }
    }
    fn product(a: f64, b: f64) -> (i8, u128, i32) {
        let (sa, ma, ea) = split(a);
        let (sb, mb, eb) = split(b);
        let mantissa = u128::from(ma) * u128::from(mb);
        let sign = if mantissa == 0 { 0 } else { sa * sb };
        (sign, mantissa, ea + eb)
    }
    let (sp, mp, ep) = product(p[0], p[1]);
    let (sq, mq, eq) = product(q[0], q[1]);
    if sp != sq || sp == 0 {
        return sp.cmp(&sq);
    }
    // Same sign, both non-zero: compare magnitudes (at most 106 bits each).
    let (lp, lq) = (128 - mp.leading_zeros(), 128 - mq.leading_zeros());
    let magnitude = match (lp as i32 + ep).cmp(&(lq as i32 + eq)) {
        Ordering::Equal if lp < lq => (mp << (lq - lp)).cmp(&mq),
        Ordering::Equal => mp.cmp(&(mq << (lp - lq))),
        other => other,
    };
    if sp > 0 {
        magnitude
    } else {
        magnitude.reverse()
    }
}

#[cfg(test)]
mod tests;
