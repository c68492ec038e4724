//! The mission graph JSON format (`mission.json`), documented in
//! `docs/formats.md`. Format tag: `levelgraph.mission/1`.
//!
//! Nodes carry their stable vertex ids (there may be gaps where vertices
//! were deleted); edges refer to node ids. Reading a document back gives a
//! graph with the same ids, tags, attributes, positions and edges, so
//! `graph → JSON → graph → JSON` is byte-identical.
//!
//! [`host_for`] reads a document as a *host graph* for a compiled grammar,
//! with the grammar's tag and label tables, so that
//! [`crate::derive::derive_from`] can go on rewriting it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::derive::{Application, Derivation};
use crate::grammar::CompiledGrammar;
use crate::graph::{Edge, Graph, Point, VertexId};

/// The value of the `format` field.
pub const MISSION_FORMAT: &str = "levelgraph.mission/1";

/// Node ids must be below this (2²⁰) to be read back: a graph keeps a slot
/// per id up to its largest, holes included, so one huge id in a foreign
/// document would otherwise take gigabytes. Far above any mission graph.
pub const MAX_NODE_ID: u32 = 1 << 20;

/// A node's position coordinates and radius must be at most this (10¹⁵)
/// in absolute value to be read back: the pictures, the drawings and the
/// layout square and scale them, and a position of 10³⁰⁸ made
/// `mission.svg` `width="inf"`. Far above any level levelgraph draws.
pub const MAX_COORDINATE: f64 = 1e15;

/// A node's grid cell coordinates must be at most this (10⁹) in absolute
/// value to be read back, as grid rules keep cells within it: a grid rule
/// places new vertices at offsets of up to ±10⁶ from a matched cell, and
/// a cell near `i32::MAX` wrapped around to the far side of the grid.
pub use crate::matching::MAX_CELL;

/// A mission graph document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissionDoc {
    /// Always [`MISSION_FORMAT`].
    pub format: String,
    /// Name of the grammar that derived the graph.
    pub grammar: String,
    /// The derivation's seed.
    pub seed: u64,
    /// `no_rule_applies` or `iteration_limit`.
    pub stop_reason: String,
    /// The stop reason in words, with the limits that held rules back.
    pub stop_detail: String,
    /// Number of rule applications.
    pub applications: usize,
    /// Steps skipped by rule `probability`; omitted when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: usize,
    /// Vertices in increasing id order.
    pub nodes: Vec<NodeDoc>,
    /// Edges in increasing edge-id order.
    pub edges: Vec<EdgeDoc>,
    /// Applied rules in order.
    #[serde(default)]
    pub trace: Vec<TraceDoc>,
    /// The level's play semantics, when the grammar declares them: verdict,
    /// key–lock pairs, gating and playthrough ([`MissionDoc::with_play`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<super::play::PlayDoc>,
}

/// A vertex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeDoc {
    /// Stable vertex id.
    pub id: u32,
    /// Tag name.
    pub tag: String,
    /// Attributes, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Position `[x, y]` in drawing units, when the graph has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Point>,
    /// Room radius in drawing units, after a geometric derivation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Grid cell `[x, y]` in grid mode, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<[i32; 2]>,
    /// Id of the node this one is stored in (an item in a room), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u32>,
}

/// An edge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeDoc {
    /// Id of the first node (the tail when directed).
    pub source: u32,
    /// Id of the second node (the head when directed).
    pub target: u32,
    /// Whether the edge has a direction.
    pub directed: bool,
    /// Whether the edge is cosmetic (drawing only, never a corridor).
    pub cosmetic: bool,
    /// Label, or `null`.
    pub label: Option<String>,
    /// Desired-length multiplier for drawings.
    #[serde(default = "one")]
    pub length_factor: f64,
}

fn one() -> f64 {
    1.0
}

/// One applied rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceDoc {
    /// Rule name.
    pub rule: String,
    /// Index of the right-hand alternative applied; omitted when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub alternative: usize,
    /// Host node ids matched, in pattern-vertex order.
    pub matched: Vec<u32>,
    /// Node ids created.
    pub created: Vec<u32>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Why a document could not become a graph.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MissionError {
    /// Not JSON of this shape; the message names line and column.
    #[error("invalid mission JSON: {0}")]
    Json(String),
    /// The `format` field is not [`MISSION_FORMAT`].
    #[error("unsupported format `{0}` (expected `{MISSION_FORMAT}`)")]
    Format(String),
    /// Two nodes share an id (the field path names the second).
    #[error("nodes[{index}]: id {id} is used twice")]
    DuplicateId {
        /// Index in `nodes`.
        index: usize,
        /// The id.
        id: u32,
    },
    /// An edge names a node id that does not exist.
    #[error("edges[{index}]: node id {id} does not exist")]
    MissingNode {
        /// Index in `edges`.
        index: usize,
        /// The id.
        id: u32,
    },
    /// An edge is identical to an earlier one (same ends, direction, label
    /// and cosmetic flag); graphs never hold two, and merging would lose data.
    #[error("edges[{index}] repeats edges[{first}]")]
    DuplicateEdge {
        /// Index in `edges` of the repeat.
        index: usize,
        /// Index in `edges` of the first.
        first: usize,
    },
    /// Two nodes claim the same grid cell.
    #[error("nodes[{index}]: cell [{}, {}] is taken by another node", cell[0], cell[1])]
    DuplicateCell {
        /// Index in `nodes`.
        index: usize,
        /// The cell.
        cell: [i32; 2],
    },
    /// A node's `parent` names a node that does not exist.
    #[error("nodes[{index}]: parent {parent} does not exist")]
    MissingParent {
        /// Index in `nodes`.
        index: usize,
        /// The missing parent id.
        parent: u32,
    },
    /// A node's `parent` chain leads back to the node itself.
    #[error("nodes[{index}]: node {id} would be stored inside itself")]
    ParentCycle {
        /// Index in `nodes`.
        index: usize,
        /// The node's id.
        id: u32,
    },
    /// A node id is [`MAX_NODE_ID`] or more.
    #[error("nodes[{index}]: id {id} is too large (ids must be below {MAX_NODE_ID})")]
    IdTooLarge {
        /// Index in `nodes`.
        index: usize,
        /// The id.
        id: u32,
    },
    /// A node's position is not two numbers within ±[`MAX_COORDINATE`],
    /// its radius not a number above 0 and at most it, or its cell not
    /// within ±[`MAX_CELL`].
    #[error(
        "nodes[{index}] (id {id}): {} {value} is outside the drawing: {}",
        value.field(),
        value.rule()
    )]
    BadGeometry {
        /// Index in `nodes`.
        index: usize,
        /// The node's id.
        id: u32,
        /// The field and its value as read.
        value: GeometryValue,
    },
    /// A node's tag is not declared by the grammar the document is read
    /// for ([`host_for`]); no rule could ever rewrite or match it.
    #[error("nodes[{index}] (id {id}): tag `{tag}` is not declared by the grammar")]
    UndeclaredTag {
        /// Index in `nodes`.
        index: usize,
        /// The node's id.
        id: u32,
        /// The tag.
        tag: String,
    },
}

/// A node's geometry field that is out of range ([`MissionError::BadGeometry`]),
/// with its value as read.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum GeometryValue {
    /// `position` `[x, y]`: a coordinate beyond ±[`MAX_COORDINATE`].
    Position(Point),
    /// `cell` `[column, row]`: a coordinate beyond ±[`MAX_CELL`].
    Cell([i32; 2]),
    /// `radius`: not above 0, or beyond [`MAX_COORDINATE`].
    Radius(f64),
}

impl GeometryValue {
    /// The field's name: `position`, `cell` or `radius`.
    pub fn field(&self) -> &'static str {
        match self {
            GeometryValue::Position(_) => "position",
            GeometryValue::Cell(_) => "cell",
            GeometryValue::Radius(_) => "radius",
        }
    }

    /// What the field's value must be.
    pub fn rule(&self) -> &'static str {
        match self {
            GeometryValue::Position(_) => "coordinates are numbers from -1e15 to 1e15",
            GeometryValue::Cell(_) => {
                "cell coordinates are whole numbers from -1000000000 to 1000000000"
            }
            GeometryValue::Radius(_) => "a radius is a number above 0, at most 1e15",
        }
    }
}

/// The value as written: `[x, y]` and `r` in exponent form, `[column, row]`.
impl std::fmt::Display for GeometryValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GeometryValue::Position(p) => write!(f, "[{:e}, {:e}]", p[0], p[1]),
            GeometryValue::Cell(c) => write!(f, "[{}, {}]", c[0], c[1]),
            GeometryValue::Radius(r) => write!(f, "{r:e}"),
        }
    }
}

fn ids(vs: &[VertexId]) -> Vec<u32> {
    vs.iter().map(|v| v.0).collect()
}

impl MissionDoc {
    /// The document of a derivation.
    pub fn from_derivation(d: &Derivation) -> Self {
        let mut doc = Self::from_graph(&d.graph, &d.grammar, d.seed);
        doc.stop_reason = d.stop.code().to_owned();
        doc.stop_detail = d.stop.to_string();
        doc.applications = d.trace.len();
        doc.skipped = d.skipped as usize;
        doc.trace = d.trace.iter().map(trace_doc).collect();
        doc
    }

    /// The document of a bare graph (no stop reason, empty trace).
    pub fn from_graph(g: &Graph, grammar: &str, seed: u64) -> Self {
        let nodes = g
            .vertices()
            .map(|(id, v)| NodeDoc {
                id: id.0,
                tag: g.tags().name(v.tag).to_owned(),
                attributes: v.attributes.clone(),
                position: v.position,
                radius: v.radius,
                cell: v.cell,
                parent: v.parent.map(|p| p.0),
            })
            .collect();
        let edges = g
            .edges()
            .map(|(_, e)| EdgeDoc {
                source: e.source.0,
                target: e.target.0,
                directed: e.directed,
                cosmetic: e.cosmetic,
                label: e.label.map(|l| g.labels().name(l).to_owned()),
                length_factor: e.length_factor,
            })
            .collect();
        MissionDoc {
            format: MISSION_FORMAT.to_owned(),
            grammar: grammar.to_owned(),
            seed,
            stop_reason: String::new(),
            stop_detail: String::new(),
            applications: 0,
            skipped: 0,
            nodes,
            edges,
            trace: Vec::new(),
            play: None,
        }
    }

    /// The document with `report`, a play report on `graph` (the graph the
    /// document was made from), as its `play` section.
    pub fn with_play(mut self, report: &crate::play::PlayReport, graph: &Graph) -> Self {
        self.play = Some(super::play::PlayDoc::new(report, graph));
        self
    }

    /// Pretty JSON text, ending with a newline. For a derivation's document
    /// written to a file, [`MissionJson`] writes the same bytes without
    /// this copy of the graph.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("mission document serializes");
        s.push('\n');
        s
    }

    /// Parses JSON text (a leading byte-order mark is skipped).
    ///
    /// # Errors
    /// [`MissionError::Json`] or [`MissionError::Format`].
    pub fn from_json(text: &str) -> Result<Self, MissionError> {
        let doc: MissionDoc = serde_json::from_str(crate::diagnostic::strip_bom(text))
            .map_err(|e| MissionError::Json(e.to_string()))?;
        if doc.format != MISSION_FORMAT {
            return Err(MissionError::Format(doc.format));
        }
        Ok(doc)
    }

    /// The graph, with the document's vertex ids. Tags are interned in
    /// increasing node-id order, labels in edge order.
    ///
    /// # Errors
    /// Node ids of [`MAX_NODE_ID`] or more; positions or radii beyond
    /// [`MAX_COORDINATE`] (or a radius not above 0); grid cells beyond
    /// ±[`MAX_CELL`]; duplicate node ids; edges naming
    /// missing nodes; repeated edges.
    pub fn to_graph(&self) -> Result<Graph, MissionError> {
        self.fill(Graph::new())
    }

    /// Node ids below [`MAX_NODE_ID`], then each node's position, cell and
    /// radius within range, the first offender reported.
    fn check_node_ranges(&self) -> Result<(), MissionError> {
        if let Some((index, n)) = self
            .nodes
            .iter()
            .enumerate()
            .find(|(_, n)| n.id >= MAX_NODE_ID)
        {
            return Err(MissionError::IdTooLarge { index, id: n.id });
        }
        for (index, n) in self.nodes.iter().enumerate() {
            let within = |c: f64| c.abs() <= MAX_COORDINATE;
            if let Some(p) = n.position.filter(|p| !p.iter().all(|&c| within(c))) {
                return Err(MissionError::BadGeometry {
                    index,
                    id: n.id,
                    value: GeometryValue::Position(p),
                });
            }
            if let Some(c) = n
                .cell
                .filter(|c| c.iter().any(|x| x.unsigned_abs() > MAX_CELL.unsigned_abs()))
            {
                return Err(MissionError::BadGeometry {
                    index,
                    id: n.id,
                    value: GeometryValue::Cell(c),
                });
            }
            if let Some(r) = n.radius.filter(|&r| !(r > 0.0 && within(r))) {
                return Err(MissionError::BadGeometry {
                    index,
                    id: n.id,
                    value: GeometryValue::Radius(r),
                });
            }
        }
        Ok(())
    }

    /// Adds the document's nodes and edges to `g` (an empty graph, possibly
    /// with symbol tables already filled), interning tags and labels that
    /// the tables lack.
    fn fill(&self, mut g: Graph) -> Result<Graph, MissionError> {
        self.check_node_ranges()?;
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        order.sort_by_key(|&i| self.nodes[i].id);
        for w in order.windows(2) {
            if self.nodes[w[0]].id == self.nodes[w[1]].id {
                return Err(MissionError::DuplicateId {
                    index: w[1].max(w[0]),
                    id: self.nodes[w[1]].id,
                });
            }
        }
        for &i in &order {
            let n = &self.nodes[i];
            let tag = g.tags_mut().intern(&n.tag);
            let v = g.insert_vertex_at(VertexId(n.id), tag);
            let vertex = g.vertex_mut(v).expect("just inserted");
            vertex.attributes = n.attributes.clone();
            vertex.position = n.position;
            vertex.radius = n.radius;
            if let Some(cell) = n.cell {
                if !g.set_cell(v, Some(cell)) {
                    return Err(MissionError::DuplicateCell { index: i, cell });
                }
            }
        }
        for (index, e) in self.edges.iter().enumerate() {
            for id in [e.source, e.target] {
                if !g.contains_vertex(VertexId(id)) {
                    return Err(MissionError::MissingNode { index, id });
                }
            }
            let label = e.label.as_deref().map(|l| g.labels_mut().intern(l));
            let edge = Edge {
                source: VertexId(e.source),
                target: VertexId(e.target),
                directed: e.directed,
                cosmetic: e.cosmetic,
                label,
                length_factor: e.length_factor,
            };
            // Edges are added in document order and none is removed, so an
            // edge id here is its index in `edges`.
            if let Some(first) = g.find_identical_edge(&edge) {
                return Err(MissionError::DuplicateEdge {
                    index,
                    first: first.index(),
                });
            }
            g.add_edge(edge);
        }
        for (index, n) in self.nodes.iter().enumerate() {
            let Some(parent) = n.parent else { continue };
            if !g.contains_vertex(VertexId(parent)) {
                return Err(MissionError::MissingParent { index, parent });
            }
            if !g.set_parent(VertexId(n.id), Some(VertexId(parent))) {
                return Err(MissionError::ParentCycle { index, id: n.id });
            }
        }
        Ok(g)
    }
}

/// The document's graph as a host graph for `grammar`: its tag and label
/// tables start as the grammar's, so [`crate::derive::derive_from`] can
/// rewrite it. Node ids (holes included), tags, attributes, positions,
/// edges, labels and length factors are kept, as by [`MissionDoc::to_graph`];
/// vertices created by a derivation get ids above the largest node id.
///
/// Every node's tag must be declared by the grammar. Edge labels need not
/// be: a label the grammar never mentions is added to the label table, and
/// an edge carrying it matches no pattern edge (a labelled pattern edge
/// needs its own label, an unlabelled one an unlabelled edge), though it
/// still counts for valence and for forbidden neighbours (`!tag`).
///
/// # Errors
/// [`MissionError::UndeclaredTag`] for the first node, in document order,
/// whose tag the grammar does not declare; otherwise as
/// [`MissionDoc::to_graph`].
pub fn host_for(doc: &MissionDoc, grammar: &CompiledGrammar) -> Result<Graph, MissionError> {
    if let Some((index, n)) = doc
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| grammar.tags().get(&n.tag).is_none())
    {
        return Err(MissionError::UndeclaredTag {
            index,
            id: n.id,
            tag: n.tag.clone(),
        });
    }
    doc.fill(Graph::with_symbols(
        grammar.tags().clone(),
        grammar.labels().clone(),
    ))
}

/// A derivation's `mission.json` read straight from its graph and trace:
/// the same bytes as [`MissionDoc::from_derivation`] (and
/// [`MissionDoc::with_play`]) followed by [`MissionDoc::to_json`], without
/// first copying the graph into a document. [`MissionJson::write`]
/// serializes node by node, edge by edge and application by application,
/// so a file of any size takes memory for one element (and the `play`
/// section, which is made whole).
#[derive(Debug)]
pub struct MissionJson<'a> {
    derivation: &'a Derivation,
    play: Option<super::play::PlayDoc>,
}

impl<'a> MissionJson<'a> {
    /// The document of `derivation`, with `report` (a play report on its
    /// graph) as its `play` section when given.
    pub fn new(derivation: &'a Derivation, report: Option<&crate::play::PlayReport>) -> Self {
        let play = report.map(|r| super::play::PlayDoc::new(r, &derivation.graph));
        MissionJson { derivation, play }
    }

    /// Writes the pretty JSON text, ending with a newline, to `w` as it
    /// goes.
    ///
    /// # Errors
    /// The first error of `w`, as it came.
    pub fn write<W: std::io::Write>(&self, mut w: W) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut w, self).map_err(std::io::Error::from)?;
        w.write_all(b"\n")
    }

    /// The pretty JSON text in memory, ending with a newline.
    pub fn to_json(&self) -> String {
        super::in_memory(|w| self.write(w))
    }
}

/// The fields of [`MissionDoc`], in its order and with its omissions.
impl Serialize for MissionJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let d = self.derivation;
        let mut doc = serializer.serialize_struct("MissionDoc", 11)?;
        doc.serialize_field("format", MISSION_FORMAT)?;
        doc.serialize_field("grammar", &d.grammar)?;
        doc.serialize_field("seed", &d.seed)?;
        doc.serialize_field("stop_reason", d.stop.code())?;
        doc.serialize_field("stop_detail", &d.stop.to_string())?;
        doc.serialize_field("applications", &d.trace.len())?;
        if d.skipped != 0 {
            doc.serialize_field("skipped", &d.skipped)?;
        }
        doc.serialize_field(
            "nodes",
            &Each(|| d.graph.vertices().map(|v| node_ref(&d.graph, v))),
        )?;
        doc.serialize_field(
            "edges",
            &Each(|| d.graph.edges().map(|(_, e)| edge_ref(&d.graph, e))),
        )?;
        doc.serialize_field("trace", &Each(|| d.trace.iter().map(trace_doc)))?;
        if let Some(play) = &self.play {
            doc.serialize_field("play", play)?;
        }
        doc.end()
    }
}

/// A sequence serialized from the iterator its function makes, one item at a
/// time.
struct Each<F>(F);

impl<F, I> Serialize for Each<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A vertex as [`NodeDoc`] writes it, borrowed from the graph.
#[derive(Serialize)]
struct NodeRef<'a> {
    id: u32,
    tag: &'a str,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    attributes: &'a BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    radius: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
}

fn node_ref<'a>(g: &'a Graph, (id, v): (VertexId, &'a crate::graph::Vertex)) -> NodeRef<'a> {
    NodeRef {
        id: id.0,
        tag: g.tags().name(v.tag),
        attributes: &v.attributes,
        position: v.position,
        radius: v.radius,
        cell: v.cell,
        parent: v.parent.map(|p| p.0),
    }
}

/// An edge as [`EdgeDoc`] writes it, borrowed from the graph.
#[derive(Serialize)]
struct EdgeRef<'a> {
    source: u32,
    target: u32,
    directed: bool,
    cosmetic: bool,
    label: Option<&'a str>,
    length_factor: f64,
}

fn edge_ref<'a>(g: &'a Graph, e: &Edge) -> EdgeRef<'a> {
    EdgeRef {
        source: e.source.0,
        target: e.target.0,
        directed: e.directed,
        cosmetic: e.cosmetic,
        label: e.label.map(|l| g.labels().name(l)),
        length_factor: e.length_factor,
    }
}

fn trace_doc(a: Application<'_>) -> TraceDoc {
    TraceDoc {
        rule: a.rule.to_string(),
        alternative: a.alternative,
        matched: ids(a.matched),
        created: ids(a.created),
    }
}
