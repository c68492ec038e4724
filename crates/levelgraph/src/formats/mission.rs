//! The mission graph JSON format (`mission.json`), documented in
//! `docs/formats.md`. Format tag: `levelgraph.mission/1`.
//!
//! Nodes carry their stable vertex ids (there may be gaps where vertices
//! were deleted); edges refer to node ids. Reading a document back gives a
//! graph with the same ids, tags, attributes, positions and edges, so
//! `graph → JSON → graph → JSON` is byte-identical.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::derive::{Application, Derivation};
use crate::graph::{Edge, Graph, Point, VertexId};

/// The value of the `format` field.
pub const MISSION_FORMAT: &str = "levelgraph.mission/1";

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
    /// Vertices in increasing id order.
    pub nodes: Vec<NodeDoc>,
    /// Edges in increasing edge-id order.
    pub edges: Vec<EdgeDoc>,
    /// Applied rules in order.
    #[serde(default)]
    pub trace: Vec<TraceDoc>,
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
    /// Host node ids matched, in pattern-vertex order.
    pub matched: Vec<u32>,
    /// Node ids created.
    pub created: Vec<u32>,
}

/// Why a document could not become a graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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
            nodes,
            edges,
            trace: Vec::new(),
        }
    }

    /// Pretty JSON text, ending with a newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("mission document serializes");
        s.push('\n');
        s
    }

    /// Parses JSON text.
    ///
    /// # Errors
    /// [`MissionError::Json`] or [`MissionError::Format`].
    pub fn from_json(text: &str) -> Result<Self, MissionError> {
        let doc: MissionDoc =
            serde_json::from_str(text).map_err(|e| MissionError::Json(e.to_string()))?;
        if doc.format != MISSION_FORMAT {
            return Err(MissionError::Format(doc.format));
        }
        Ok(doc)
    }

    /// The graph, with the document's vertex ids. Tags are interned in
    /// increasing node-id order, labels in edge order.
    ///
    /// # Errors
    /// Duplicate node ids; edges naming missing nodes; repeated edges.
    pub fn to_graph(&self) -> Result<Graph, MissionError> {
        let mut g = Graph::new();
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
        Ok(g)
    }
}

fn trace_doc(a: &Application) -> TraceDoc {
    TraceDoc {
        rule: a.rule.clone(),
        matched: ids(&a.matched),
        created: ids(&a.created),
    }
}
