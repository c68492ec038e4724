//! The host graph: tagged vertices with attributes, and undirected or
//! directed, optionally labelled, optionally cosmetic edges.
//!
//! The model follows PRODUCT.md section A: a vertex carries a tag (a symbol of
//! the grammar's alphabet), free-form attributes and an optional position; an
//! edge may be directed, may carry a label, may be *cosmetic* (shapes a
//! drawing, is never a corridor, is ignored by valence and connectivity) and
//! has a length factor for drawing.
//!
//! **Ids are stable.** A [`VertexId`] or [`EdgeId`] is never reused within one
//! graph: removing a vertex or edge leaves a hole, so ids recorded in a
//! derivation trace keep naming the same element (petgraph's `StableGraph`
//! contract). Iteration is always in increasing id order, so every output
//! built from a graph is deterministic.

mod adjacency;

use std::collections::BTreeMap;

use adjacency::Adjacency;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Index of a vertex. Stable: never reused after removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VertexId(pub u32);

/// Index of an edge. Stable: never reused after removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EdgeId(pub u32);

impl VertexId {
    /// The id as a slice index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl EdgeId {
    /// The id as a slice index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VertexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// An interned symbol: a vertex tag or an edge label, an index into a
/// [`Symbols`] table. Comparing two symbols is an integer comparison, which is
/// what keeps matching fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symbol(pub u32);

impl Symbol {
    /// The symbol as a slice index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A table of names, each interned once. Ids are dense and given in order of
/// first interning, so two tables built from the same sequence of names agree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    names: Vec<String>,
    index: BTreeMap<String, Symbol>,
}

impl Symbols {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol of `name`, adding it if it is new.
    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(&sym) = self.index.get(name) {
            return sym;
        }
        let sym = Symbol(self.names.len() as u32);
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), sym);
        sym
    }

    /// The symbol of `name`, if it was interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.index.get(name).copied()
    }

    /// The name of `sym`. **Panics** if `sym` is not from this table.
    pub fn name(&self, sym: Symbol) -> &str {
        &self.names[sym.index()]
    }

    /// Number of interned names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A position in the plane, in drawing units.
pub type Point = [f64; 2];

/// A grid cell `[x, y]` (column, row) in grid mode.
pub type Cell = [i32; 2];

/// A vertex of the host graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Vertex {
    /// The vertex's tag, a symbol of the graph's tag table.
    pub tag: Symbol,
    /// Free-form attributes (`color: red`), ordered by key.
    pub attributes: BTreeMap<String, String>,
    /// Optional position in the plane (set by drawing or geometric derivation).
    pub position: Option<Point>,
    /// Room radius in drawing units, given by the geometric derivation's
    /// finishing step, if any.
    pub radius: Option<f64>,
    /// The grid cell `[x, y]` of the vertex in grid mode (graph rewriting on a
    /// grid), if any. Set through [`Graph::set_cell`], which keeps cells
    /// unique.
    pub cell: Option<Cell>,
    /// The vertex this one is stored in (a stored vertex: an item in a room),
    /// if any. Set through [`Graph::set_parent`], which keeps the children
    /// index right and refuses cycles.
    pub parent: Option<VertexId>,
}

/// An edge of the host graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// First endpoint; the tail of a directed edge.
    pub source: VertexId,
    /// Second endpoint; the head of a directed edge.
    pub target: VertexId,
    /// Whether the edge has a direction (`->`).
    pub directed: bool,
    /// A cosmetic edge (`~~`, `~>`) shapes drawings only: it is never a
    /// corridor, never counts toward valence and never matches a
    /// non-cosmetic pattern edge.
    pub cosmetic: bool,
    /// Optional label, a symbol of the graph's label table.
    pub label: Option<Symbol>,
    /// Multiplier of the desired edge length in drawings (the edge length
    /// factor); 1.0 by default.
    pub length_factor: f64,
}

impl Edge {
    /// The endpoint of this edge that is not `v` (or `v` for a loop).
    pub fn other(&self, v: VertexId) -> VertexId {
        if self.source == v {
            self.target
        } else {
            self.source
        }
    }

    /// The edge's kind seen from its source.
    pub fn kind(&self) -> EdgeKind {
        EdgeKind::new(self.directed, self.cosmetic, self.label, true)
    }

    /// Whether this edge has the same endpoints, direction, label and
    /// cosmetic flag as `other`; undirected edges compare unordered. (The
    /// graph itself compares packed kinds: [`Graph::find_identical_edge`].)
    pub fn same_kind_and_ends(&self, other: &Edge) -> bool {
        if self.directed != other.directed
            || self.cosmetic != other.cosmetic
            || self.label != other.label
        {
            return false;
        }
        (self.source == other.source && self.target == other.target)
            || (!self.directed && self.source == other.target && self.target == other.source)
    }
}

/// An edge id's record: the edge while it is live, and its positions in
/// its source's and its target's incidence lists (slot 1 unused for a
/// loop), side by side so that removing an edge reads one place. The
/// positions make removal O(1) at a hub (swap-remove).
#[derive(Clone, Debug)]
struct EdgeSlot {
    edge: Option<Edge>,
    pos: [u32; 2],
}

/// What an edge looks like from one of its ends: label, direction,
/// cosmetic flag, and whether that end is the source. Packed into 32 bits
/// so that an incidence list can be searched without reading the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeKind(u32);

impl EdgeKind {
    const OUTGOING: u32 = 1;
    const COSMETIC: u32 = 2;
    const DIRECTED: u32 = 4;
    const LABEL_SHIFT: u32 = 3;

    /// The kind of an edge with these properties, seen from its source
    /// (`outgoing`) or from its target. Labels are symbols of one label
    /// table; indices up to 2^29 − 2 are told apart.
    pub fn new(directed: bool, cosmetic: bool, label: Option<Symbol>, outgoing: bool) -> Self {
        debug_assert!(
            label.is_none_or(|l| l.0 < (u32::MAX >> Self::LABEL_SHIFT)),
            "label index past the packed range"
        );
        let label = label.map_or(0, |l| (l.0 + 1) << Self::LABEL_SHIFT);
        EdgeKind(
            label
                | if directed { Self::DIRECTED } else { 0 }
                | if cosmetic { Self::COSMETIC } else { 0 }
                | if outgoing { Self::OUTGOING } else { 0 },
        )
    }

    /// The same kind with the end forgotten: equal for both ends of an
    /// edge.
    pub fn either_end(self) -> EdgeKind {
        EdgeKind(self.0 & !Self::OUTGOING)
    }

    /// The same edge seen from its other end.
    pub fn other_end(self) -> EdgeKind {
        EdgeKind(self.0 ^ Self::OUTGOING)
    }

    /// Whether the edge is cosmetic.
    pub fn is_cosmetic(self) -> bool {
        self.0 & Self::COSMETIC != 0
    }

    /// Whether the edge is directed.
    pub fn is_directed(self) -> bool {
        self.0 & Self::DIRECTED != 0
    }

    /// Whether this end is the edge's source (for a loop: always).
    pub fn is_outgoing(self) -> bool {
        self.0 & Self::OUTGOING != 0
    }

    /// Whether an edge of this kind at a vertex is an edge of kind `want`
    /// there: the same label, direction and cosmetic flag, and for a
    /// directed edge the same end.
    #[inline]
    pub fn fits(self, want: EdgeKind) -> bool {
        let mask = if want.0 & Self::DIRECTED != 0 {
            u32::MAX
        } else {
            !Self::OUTGOING
        };
        (self.0 ^ want.0) & mask == 0
    }
}

/// One entry of a vertex's incidence list: an incident edge, the vertex at
/// its other end (the vertex itself for a loop) and the edge's kind as
/// seen from this vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Incidence {
    /// The edge.
    pub edge: EdgeId,
    /// Its other end.
    pub other: VertexId,
    /// Its kind from this end.
    pub kind: EdgeKind,
}

/// A host graph: vertices and edges with stable ids, its tag and label
/// tables, and an index of vertices by tag.
///
/// The graph never holds two *identical* edges (same endpoints, direction,
/// label and cosmetic flag): [`Graph::add_edge`] returns the existing one.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    tags: Symbols,
    labels: Symbols,
    vertices: Vec<Option<Vertex>>,
    edges: Vec<EdgeSlot>,
    /// The incidence lists, and beside each a dense copy of the vertex's
    /// tag (liveness and tag tests, the matcher's inner loop, read it with
    /// the list's bounds instead of a whole vertex record).
    incidence: Adjacency,
    by_tag: Vec<Vec<VertexId>>,
    /// Per vertex: the vertices stored directly in it, in increasing id order.
    children: Vec<Vec<VertexId>>,
    /// The vertex in each occupied grid cell (looked up, never iterated
    /// into output).
    by_cell: BTreeMap<Cell, VertexId>,
    vertex_count: usize,
    edge_count: usize,
}

impl Graph {
    /// An empty graph with empty tag and label tables.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty graph whose tag and label tables are `tags` and `labels`
    /// (usually a grammar's, so the grammar's symbols can be used directly).
    pub fn with_symbols(tags: Symbols, labels: Symbols) -> Self {
        Graph {
            tags,
            labels,
            ..Self::default()
        }
    }

    /// How many vertex slots the graph has room for without reallocating
    /// (for tests of what a derivation reserves).
    pub fn vertex_capacity(&self) -> usize {
        self.vertices.capacity()
    }

    /// Makes room for `vertices` more vertices and `edges` more edges, so
    /// that a graph known to grow that far is not reallocated on the way.
    pub fn reserve(&mut self, vertices: usize, edges: usize) {
        self.vertices.reserve(vertices);
        self.children.reserve(vertices);
        self.incidence.reserve(vertices, 2 * edges);
        self.edges.reserve(edges);
    }

    /// The tag table.
    pub fn tags(&self) -> &Symbols {
        &self.tags
    }

    /// The label table.
    pub fn labels(&self) -> &Symbols {
        &self.labels
    }

    /// The tag table, for interning new tags.
    pub fn tags_mut(&mut self) -> &mut Symbols {
        &mut self.tags
    }

    /// The label table, for interning new labels.
    pub fn labels_mut(&mut self) -> &mut Symbols {
        &mut self.labels
    }

    /// Number of live vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// Number of live edges.
    pub fn edge_count(&self) -> usize {
        self.edge_count
    }

    /// One more than the largest vertex id ever given: the length of a
    /// slice indexed by [`VertexId`].
    pub fn vertex_bound(&self) -> usize {
        self.vertices.len()
    }

    /// Estimated bytes the graph takes: [`Graph::VERTEX_BYTES`] per vertex
    /// id ever given and [`Graph::EDGE_BYTES`] per edge id (ids are never
    /// reused, so removed elements still count: their slots stay).
    /// Attribute strings are not counted. Fixed costs, not `size_of`, so
    /// the estimate — and a budget stop that reads it — is the same on
    /// every platform.
    pub fn estimated_bytes(&self) -> u64 {
        self.vertices.len() as u64 * Self::VERTEX_BYTES + self.edges.len() as u64 * Self::EDGE_BYTES
    }

    /// Bytes a vertex slot is estimated to take: its record, its
    /// incidence-list header, its children list and its tag-index entry
    /// (about 150 bytes on a 64-bit machine).
    pub const VERTEX_BYTES: u64 = 160;

    /// Bytes an edge slot is estimated to take: its record and an
    /// incidence at each end, with the lists' spare room (about 90 bytes
    /// on a 64-bit machine).
    pub const EDGE_BYTES: u64 = 96;

    /// One more than the largest edge id ever given: the length of a slice
    /// indexed by [`EdgeId`]. Ids are never reused, so this counts every
    /// edge the graph has had.
    pub fn edge_bound(&self) -> usize {
        self.edges.len()
    }

    /// Adds a vertex tagged `tag` and returns its id (the next unused id).
    pub fn add_vertex(&mut self, tag: Symbol) -> VertexId {
        let id = VertexId(self.vertices.len() as u32);
        self.vertices.push(Some(Vertex {
            tag,
            attributes: BTreeMap::new(),
            position: None,
            radius: None,
            cell: None,
            parent: None,
        }));
        self.incidence.push_vertex(Some(tag));
        self.children.push(Vec::new());
        self.index_insert(tag, id);
        self.vertex_count += 1;
        id
    }

    /// Adds a vertex with the given id, which must be at least
    /// [`Graph::vertex_bound`]; ids skipped over stay unused (holes), as if
    /// their vertices had been removed. Used to read graphs back with their
    /// ids. **Panics** if `id` is below the bound.
    pub fn insert_vertex_at(&mut self, id: VertexId, tag: Symbol) -> VertexId {
        assert!(id.index() >= self.vertices.len(), "vertex id {id} is taken");
        while self.vertices.len() < id.index() {
            self.vertices.push(None);
            self.incidence.push_vertex(None);
            self.children.push(Vec::new());
        }
        self.add_vertex(tag)
    }

    /// Adds a vertex tagged with the tag named `tag`, interning it if new.
    pub fn add_vertex_named(&mut self, tag: &str) -> VertexId {
        let sym = self.tags.intern(tag);
        self.add_vertex(sym)
    }

    /// The vertex `v`, if it is live.
    pub fn vertex(&self, v: VertexId) -> Option<&Vertex> {
        self.vertices.get(v.index()).and_then(Option::as_ref)
    }

    /// The vertex `v` for changing attributes or position (not its tag:
    /// use [`Graph::set_tag`], which keeps the tag index right).
    pub fn vertex_mut(&mut self, v: VertexId) -> Option<&mut Vertex> {
        self.vertices.get_mut(v.index()).and_then(Option::as_mut)
    }

    /// Whether `v` is a live vertex.
    pub fn contains_vertex(&self, v: VertexId) -> bool {
        self.live_tag(v).is_some()
    }

    /// The tag of `v`, or `None` if `v` is not live.
    #[inline]
    pub fn live_tag(&self, v: VertexId) -> Option<Symbol> {
        self.incidence.tag(v)
    }

    /// The tag of `v` and its degree, if `v` is live: what a matching
    /// candidate's test reads, from one 16-byte record.
    #[inline]
    pub(crate) fn live_tag_and_degree(&self, v: VertexId) -> Option<(Symbol, usize)> {
        self.incidence.tag_and_len(v)
    }

    /// The tag of `v`. **Panics** if `v` is not live.
    pub fn tag(&self, v: VertexId) -> Symbol {
        self.live_tag(v).expect("live vertex")
    }

    /// The name of the tag of `v`. **Panics** if `v` is not live.
    pub fn tag_name(&self, v: VertexId) -> &str {
        self.tags.name(self.tag(v))
    }

    /// Retags `v`. **Panics** if `v` is not live.
    pub fn set_tag(&mut self, v: VertexId, tag: Symbol) {
        let old = self.tag(v);
        if old == tag {
            return;
        }
        self.index_remove(old, v);
        self.vertices[v.index()].as_mut().expect("live vertex").tag = tag;
        self.incidence.set_tag(v, Some(tag));
        self.index_insert(tag, v);
    }

    /// Removes `v`, every edge incident to it and every vertex stored in
    /// it (at any depth, with their edges); returns the vertex.
    ///
    /// Stored vertices go first, each child (in order) with what it
    /// stores before the child itself. The walk keeps its own stack: a
    /// chain of stored vertices can be deeper than the thread's stack.
    pub fn remove_vertex(&mut self, v: VertexId) -> Option<Vertex> {
        if !self.contains_vertex(v) {
            return None;
        }
        let mut stack = vec![(v, std::mem::take(&mut self.children[v.index()]), 0)];
        loop {
            let (x, kids, next) = stack.last_mut().expect("the stack holds v until the end");
            if let Some(&c) = kids.get(*next) {
                *next += 1;
                if self.contains_vertex(c) {
                    let grandchildren = std::mem::take(&mut self.children[c.index()]);
                    stack.push((c, grandchildren, 0));
                }
                continue;
            }
            let x = *x;
            stack.pop();
            let removed = self.remove_childless(x);
            if stack.is_empty() {
                return removed;
            }
        }
    }

    /// Removes `x`, whose stored vertices are gone already, and its edges.
    fn remove_childless(&mut self, v: VertexId) -> Option<Vertex> {
        let vertex = self.vertices[v.index()].take()?;
        self.incidence.set_tag(v, None);
        let incident = self.incidence.take(v);
        for link in incident {
            self.remove_edge(link.edge);
        }
        if let Some(p) = vertex.parent {
            self.children[p.index()].retain(|&c| c != v);
        }
        if let Some(c) = vertex.cell {
            self.by_cell.remove(&c);
        }
        self.index_remove(vertex.tag, v);
        self.vertex_count -= 1;
        Some(vertex)
    }

    /// The vertex in grid cell `cell`, if any.
    pub fn vertex_at(&self, cell: Cell) -> Option<VertexId> {
        self.by_cell.get(&cell).copied()
    }

    /// Puts `v` in grid cell `cell` (`None`: off the grid). Returns `false`
    /// and changes nothing when `v` is not live or another vertex has the
    /// cell.
    pub fn set_cell(&mut self, v: VertexId, cell: Option<Cell>) -> bool {
        if !self.contains_vertex(v) {
            return false;
        }
        if let Some(c) = cell {
            if self.by_cell.get(&c).is_some_and(|&other| other != v) {
                return false;
            }
        }
        let vertex = self.vertices[v.index()].as_mut().expect("live");
        if let Some(old) = vertex.cell.take() {
            self.by_cell.remove(&old);
        }
        vertex.cell = cell;
        if let Some(c) = cell {
            self.by_cell.insert(c, v);
        }
        true
    }

    /// A `rows` × `columns` grid of vertices tagged `tag`, created row by
    /// row (ids in reading order), each in cell `[column, row]` with the
    /// position `[column, row]`; no edges. The starting graph of grid mode.
    pub fn add_grid(&mut self, rows: u32, columns: u32, tag: Symbol) {
        for y in 0..rows as i32 {
            for x in 0..columns as i32 {
                let v = self.add_vertex(tag);
                self.set_cell(v, Some([x, y]));
                self.vertices[v.index()].as_mut().expect("live").position =
                    Some([f64::from(x), f64::from(y)]);
            }
        }
    }

    /// The vertex `v` is stored in, if any.
    pub fn parent(&self, v: VertexId) -> Option<VertexId> {
        self.vertex(v).and_then(|x| x.parent)
    }

    /// The vertices stored directly in `v`, in increasing id order.
    pub fn children(&self, v: VertexId) -> &[VertexId] {
        self.children.get(v.index()).map_or(&[], Vec::as_slice)
    }

    /// Whether storing `child` in `parent` would put a vertex inside itself
    /// (`parent` is `child` or stored, at any depth, in `child`).
    pub fn would_cycle(&self, child: VertexId, parent: VertexId) -> bool {
        if self.children(child).is_empty() {
            // Nothing is stored in `child`: only `child` itself is inside
            // it. (Without this, storing a chain in order would walk the
            // chain for every link.)
            return parent == child;
        }
        let mut at = Some(parent);
        while let Some(p) = at {
            if p == child {
                return true;
            }
            at = self.parent(p);
        }
        false
    }

    /// Stores `child` in `parent` (`None`: takes it out to the top level).
    /// Returns `false` and changes nothing when a vertex is not live or the
    /// change would put a vertex inside itself.
    pub fn set_parent(&mut self, child: VertexId, parent: Option<VertexId>) -> bool {
        if !self.contains_vertex(child) || parent.is_some_and(|p| !self.contains_vertex(p)) {
            return false;
        }
        if parent.is_some_and(|p| self.would_cycle(child, p)) {
            return false;
        }
        if let Some(old) = self.parent(child) {
            self.children[old.index()].retain(|&c| c != child);
        }
        if let Some(p) = parent {
            let list = &mut self.children[p.index()];
            let at = list.partition_point(|&c| c < child);
            list.insert(at, child);
        }
        self.vertices[child.index()].as_mut().expect("live").parent = parent;
        true
    }

    /// Adds an edge and returns its id; if an identical edge exists (same
    /// endpoints, direction, label and cosmetic flag) returns that one and
    /// adds nothing. Self-loops are allowed by the model.
    /// **Panics** if an endpoint is not live.
    // Forced inline here and in `remove_edge`: LLVM keeps both out of
    // line, and a rewrite's every edge goes through them (the mutex STS at
    // N = 10,000: 4 M more instructions of 193 M without).
    #[inline(always)]
    pub fn add_edge(&mut self, edge: Edge) -> EdgeId {
        assert!(self.contains_vertex(edge.source) && self.contains_vertex(edge.target));
        if let Some(existing) = self.find_identical_edge(&edge) {
            return existing;
        }
        let id = EdgeId(self.edges.len() as u32);
        let at_source = self.incidence.push(
            edge.source,
            Incidence {
                edge: id,
                other: edge.target,
                kind: EdgeKind::new(edge.directed, edge.cosmetic, edge.label, true),
            },
        );
        let mut at_target = at_source;
        if edge.target != edge.source {
            at_target = self.incidence.push(
                edge.target,
                Incidence {
                    edge: id,
                    other: edge.source,
                    kind: EdgeKind::new(edge.directed, edge.cosmetic, edge.label, false),
                },
            );
        }
        self.edges.push(EdgeSlot {
            edge: Some(edge),
            pos: [at_source, at_target],
        });
        self.edge_count += 1;
        id
    }

    /// Adds a plain edge (length factor 1) between `a` and `b`.
    pub fn connect(&mut self, a: VertexId, b: VertexId, directed: bool) -> EdgeId {
        self.add_edge(Edge {
            source: a,
            target: b,
            directed,
            cosmetic: false,
            label: None,
            length_factor: 1.0,
        })
    }

    /// The id of an edge identical to `edge`, if the graph has one.
    /// Scans the shorter of the two endpoints' incidence lists (without
    /// reading the edges themselves).
    #[inline(always)]
    pub fn find_identical_edge(&self, edge: &Edge) -> Option<EdgeId> {
        self.find_edge(edge.source, edge.target, edge.kind(), |_| true)
    }

    /// The first edge between `a` and `b` that has kind `at_a` seen from
    /// `a` (see [`EdgeKind::fits`]) and that `accept` takes. Scans the
    /// shorter of the two incidence lists, so a lookup at a hub costs the
    /// other end's degree, and reads no edge record.
    #[inline]
    pub fn find_edge(
        &self,
        a: VertexId,
        b: VertexId,
        at_a: EdgeKind,
        accept: impl Fn(EdgeId) -> bool,
    ) -> Option<EdgeId> {
        let (la, lb) = (self.incidence.list(a), self.incidence.list(b));
        let (list, other, want) = if lb.len() < la.len() {
            (lb, a, at_a.other_end())
        } else {
            (la, b, at_a)
        };
        list.iter()
            .find(|link| link.other == other && link.kind.fits(want) && accept(link.edge))
            .map(|link| link.edge)
    }

    /// Removes edge `e`; returns it. O(1): the edge leaves each endpoint's
    /// incidence list by swap-remove (so incidence order is the order of
    /// additions, changed only by removals; deterministic either way).
    #[inline(always)]
    pub fn remove_edge(&mut self, e: EdgeId) -> Option<Edge> {
        let slot = self.edges.get_mut(e.index())?;
        let edge = slot.edge.take()?;
        let pos = slot.pos;
        let ends: &[(usize, VertexId)] = if edge.source == edge.target {
            &[(0, edge.source)]
        } else {
            &[(0, edge.source), (1, edge.target)]
        };
        for &(slot, end) in ends {
            // A vertex being removed has given up its list already.
            if !self.contains_vertex(end) {
                continue;
            }
            let at = pos[slot];
            let listed = self.incidence.get(end, at).map(|link| link.edge);
            debug_assert_eq!(listed, Some(e), "edge positions out of step with the list");
            if listed != Some(e) {
                continue;
            }
            if let Some(moved) = self.incidence.swap_remove(end, at) {
                // A loop is listed once, at its source (slot 0).
                let moved_slot = usize::from(!moved.kind.is_outgoing());
                self.edges[moved.edge.index()].pos[moved_slot] = at;
            }
        }
        self.edge_count -= 1;
        Some(edge)
    }

    /// The edge `e`, if it is live.
    pub fn edge(&self, e: EdgeId) -> Option<&Edge> {
        self.edges.get(e.index()).and_then(|s| s.edge.as_ref())
    }

    /// Sets the length factor of edge `e`; returns whether `e` is live.
    ///
    /// There is deliberately no `edge_mut`: changing an edge's ends,
    /// direction or label in place could break the incidence lists or create
    /// two identical edges. Remove the edge and add a new one instead.
    pub fn set_length_factor(&mut self, e: EdgeId, length_factor: f64) -> bool {
        match self.edges.get_mut(e.index()).and_then(|s| s.edge.as_mut()) {
            Some(edge) => {
                edge.length_factor = length_factor;
                true
            }
            None => false,
        }
    }

    /// Live vertex ids in increasing order.
    pub fn vertex_ids(&self) -> impl Iterator<Item = VertexId> + '_ {
        self.vertices
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_some())
            .map(|(i, _)| VertexId(i as u32))
    }

    /// Live vertices with their ids, in increasing id order.
    pub fn vertices(&self) -> impl Iterator<Item = (VertexId, &Vertex)> + '_ {
        self.vertices
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.as_ref().map(|v| (VertexId(i as u32), v)))
    }

    /// Live edges with their ids, in increasing id order.
    pub fn edges(&self) -> impl Iterator<Item = (EdgeId, &Edge)> + '_ {
        self.edges
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.edge.as_ref().map(|e| (EdgeId(i as u32), e)))
    }

    /// Edges incident to `v` (both directions; a loop once), in the order
    /// they were added, except that a removal moves the last edge into the
    /// removed one's place. Empty for a dead vertex.
    pub fn incident_edges(
        &self,
        v: VertexId,
    ) -> impl ExactSizeIterator<Item = EdgeId> + DoubleEndedIterator + Clone + '_ {
        self.incidences(v).iter().map(|link| link.edge)
    }

    /// The incidence list of `v`: each incident edge with its other end and
    /// kind, in [`Graph::incident_edges`] order.
    pub fn incidences(&self, v: VertexId) -> &[Incidence] {
        self.incidence.list(v)
    }

    /// Number of edges incident to `v` (a loop counts once).
    pub fn degree(&self, v: VertexId) -> usize {
        self.incidences(v).len()
    }

    /// Valence of `v`: the number of incident non-cosmetic edges (the
    /// `max_valence` build parameter counts corridors, and cosmetic edges
    /// are never corridors).
    pub fn valence(&self, v: VertexId) -> usize {
        self.incidences(v)
            .iter()
            .filter(|link| !link.kind.is_cosmetic())
            .count()
    }

    /// Live vertices tagged `tag`, in increasing id order.
    pub fn vertices_tagged(&self, tag: Symbol) -> &[VertexId] {
        self.by_tag.get(tag.index()).map_or(&[], Vec::as_slice)
    }

    /// Whether the top-level vertices are connected, ignoring cosmetic
    /// edges and edge directions (stored vertices live inside their parent
    /// and do not count). The empty graph counts as connected.
    pub fn is_connected(&self) -> bool {
        let top = |v: &VertexId| self.parent(*v).is_none();
        let Some(first) = self.vertex_ids().find(top) else {
            return true;
        };
        let mut seen = vec![false; self.vertex_bound()];
        let mut stack = vec![first];
        seen[first.index()] = true;
        while let Some(v) = stack.pop() {
            for link in self.incidences(v) {
                if link.kind.is_cosmetic() {
                    continue;
                }
                let w = link.other;
                if !seen[w.index()] {
                    seen[w.index()] = true;
                    stack.push(w);
                }
            }
        }
        self.vertex_ids().filter(top).all(|v| seen[v.index()])
    }

    fn index_insert(&mut self, tag: Symbol, v: VertexId) {
        if self.by_tag.len() <= tag.index() {
            self.by_tag.resize_with(tag.index() + 1, Vec::new);
        }
        let list = &mut self.by_tag[tag.index()];
        // Ids grow, so a new vertex goes at the end; a retagged one is inserted in order.
        match list.last() {
            Some(&last) if last > v => {
                let at = list.partition_point(|&x| x < v);
                list.insert(at, v);
            }
            _ => list.push(v),
        }
    }

    fn index_remove(&mut self, tag: Symbol, v: VertexId) {
        if let Some(list) = self.by_tag.get_mut(tag.index()) {
            if let Ok(at) = list.binary_search(&v) {
                list.remove(at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_after_removal() {
        let mut g = Graph::new();
        let a = g.add_vertex_named("room");
        let b = g.add_vertex_named("room");
        let c = g.add_vertex_named("key");
        g.connect(a, b, false);
        g.connect(b, c, true);
        g.remove_vertex(b);
        let d = g.add_vertex_named("room");
        assert_eq!(d, VertexId(3));
        assert_eq!(g.vertex_count(), 3);
        assert_eq!(g.edge_count(), 0);
        assert_eq!(g.tag_name(c), "key");
        let room = g.tags().get("room").unwrap();
        assert_eq!(g.vertices_tagged(room), &[a, d]);
    }

    #[test]
    fn identical_edges_are_not_duplicated_but_kinds_differ() {
        let mut g = Graph::new();
        let a = g.add_vertex_named("room");
        let b = g.add_vertex_named("room");
        let e1 = g.connect(a, b, false);
        let e2 = g.connect(b, a, false);
        assert_eq!(e1, e2);
        let e3 = g.connect(b, a, true);
        assert_ne!(e1, e3);
        assert_eq!(g.valence(a), 2);
    }

    #[test]
    fn retag_keeps_index_sorted() {
        let mut g = Graph::new();
        let vs: Vec<_> = (0..4).map(|_| g.add_vertex_named("a")).collect();
        let b = g.tags_mut().intern("b");
        g.set_tag(vs[2], b);
        g.set_tag(vs[0], b);
        assert_eq!(g.vertices_tagged(b), &[vs[0], vs[2]]);
        let a = g.tags().get("a").unwrap();
        assert_eq!(g.vertices_tagged(a), &[vs[1], vs[3]]);
    }

    #[test]
    fn cosmetic_edges_do_not_connect_or_count() {
        let mut g = Graph::new();
        let a = g.add_vertex_named("room");
        let b = g.add_vertex_named("room");
        g.add_edge(Edge {
            source: a,
            target: b,
            directed: false,
            cosmetic: true,
            label: None,
            length_factor: 1.0,
        });
        assert!(!g.is_connected());
        assert_eq!(g.valence(a), 0);
    }
}

#[cfg(test)]
mod nesting_tests {
    use super::*;

    #[test]
    fn stored_vertices_follow_their_parent_and_never_cycle() {
        let mut g = Graph::new();
        let room = g.add_vertex_named("room");
        let chest = g.add_vertex_named("chest");
        let gem = g.add_vertex_named("gem");
        let other = g.add_vertex_named("room");
        g.connect(room, other, false);
        assert!(g.set_parent(chest, Some(room)));
        assert!(g.set_parent(gem, Some(chest)));
        assert!(!g.set_parent(room, Some(gem)), "a room inside its own gem");
        assert!(!g.set_parent(room, Some(room)));
        assert_eq!(g.children(room), &[chest]);
        assert!(g.is_connected(), "stored vertices need no corridor");
        g.remove_vertex(room);
        assert_eq!(g.vertex_count(), 1, "chest and gem go with their room");
        assert!(!g.contains_vertex(gem));
    }

    #[test]
    fn moving_a_vertex_updates_both_parents() {
        let mut g = Graph::new();
        let a = g.add_vertex_named("room");
        let b = g.add_vertex_named("room");
        let item = g.add_vertex_named("key");
        g.set_parent(item, Some(a));
        g.set_parent(item, Some(b));
        assert!(g.children(a).is_empty());
        assert_eq!(g.children(b), &[item]);
        g.set_parent(item, None);
        assert!(g.children(b).is_empty() && g.parent(item).is_none());
    }
}

#[cfg(test)]
mod grid_tests {
    use super::*;

    #[test]
    fn cells_are_unique_and_follow_removal() {
        let mut g = Graph::new();
        let t = g.tags_mut().intern("u");
        g.add_grid(2, 3, t);
        assert_eq!(g.vertex_count(), 6);
        assert_eq!(g.vertex_at([2, 1]), Some(VertexId(5)));
        let extra = g.add_vertex(t);
        assert!(!g.set_cell(extra, Some([0, 0])), "cell taken");
        g.remove_vertex(VertexId(0));
        assert_eq!(g.vertex_at([0, 0]), None);
        assert!(g.set_cell(extra, Some([0, 0])));
        assert!(g.set_cell(extra, Some([9, 9])));
        assert_eq!(g.vertex_at([0, 0]), None, "moving frees the old cell");
    }
}

#[cfg(test)]
mod removal_tests {
    use super::*;

    /// Removing edges from a hub in any order keeps every incidence list
    /// exactly the live incident edges.
    #[test]
    fn hub_edges_leave_in_any_order() {
        let mut g = Graph::new();
        let hub = g.add_vertex_named("hub");
        let leaves: Vec<VertexId> = (0..40).map(|_| g.add_vertex_named("leaf")).collect();
        let mut edges: Vec<EdgeId> = leaves.iter().map(|&l| g.connect(l, hub, true)).collect();
        edges.push(g.connect(hub, hub, false));
        edges.push(g.connect(leaves[3], leaves[3], true));
        // A fixed scramble: every 5th edge, wrapping around (5 is coprime to 42).
        let order: Vec<usize> = (0..edges.len()).map(|k| (k * 5) % edges.len()).collect();
        for (n, &k) in order.iter().enumerate() {
            assert!(g.remove_edge(edges[k]).is_some());
            for v in g.vertex_ids() {
                let mut listed: Vec<EdgeId> = g.incident_edges(v).collect();
                listed.sort();
                let mut live: Vec<EdgeId> = g
                    .edges()
                    .filter(|(_, e)| e.source == v || e.target == v)
                    .map(|(id, _)| id)
                    .collect();
                live.sort();
                assert_eq!(listed, live, "after {} removals, at {v}", n + 1);
            }
        }
        assert_eq!(g.edge_count(), 0);
    }
}
