//! The grammar model: what a grammar file says, by name, before tags are
//! resolved. It is also the JSON form of a grammar (serde), so tools can
//! write grammars without the text syntax.
//!
//! Spans (byte ranges in the grammar text) are kept for diagnostics and are
//! not part of the JSON form; a grammar read from JSON has none, and its
//! diagnostics name field paths instead.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Span;

/// The wildcard tag of a pattern vertex: matches any host tag.
pub const WILDCARD: &str = "*";

/// A whole grammar: header settings, alphabet and rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grammar {
    /// The grammar's name (`grammar "name" { … }`), written into every output.
    pub name: String,
    /// The start symbol: a derivation starts from one vertex with this tag.
    #[serde(default = "default_start")]
    pub start: String,
    /// Build parameters of seed 000.
    #[serde(default)]
    pub limits: Limits,
    /// The alphabet, in declaration order.
    pub tags: Vec<TagDecl>,
    /// The rules, in declaration order.
    pub rules: Vec<Rule>,
}

fn default_start() -> String {
    "s".to_owned()
}

/// Seed 000's build parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Cap on rule applications. Default 1,000.
    pub max_iterations: u32,
    /// A derivation that ends or stalls with fewer vertices has failed. Default 0.
    pub min_vertices: u32,
    /// Never exceeded: a rule whose application would exceed it is not
    /// applied. Default 10,000.
    pub max_vertices: u32,
    /// No application may raise a vertex's valence (incident non-cosmetic
    /// edges) above this, unless the right-hand side itself gives that vertex
    /// a higher valence. `None`: no limit (the default).
    pub max_valence: Option<u32>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_iterations: 1_000,
            min_vertices: 0,
            max_vertices: 10_000,
            max_valence: None,
        }
    }
}

/// One symbol of the alphabet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagDecl {
    /// The tag as written in rules.
    pub name: String,
    /// What it stands for, shown in legends.
    #[serde(default)]
    pub description: String,
    /// Fill colour `#rrggbb` used by every picture; a palette colour when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Where it was declared.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A rewriting rule: a pattern (left-hand side) and its replacement
/// (right-hand side); vertices shared by name form the morphism.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Unique rule name.
    pub name: String,
    /// Relative chance among the rules that have a match. Default 1.
    #[serde(default = "default_weight")]
    pub weight: f64,
    /// How many times the rule may be applied in one derivation; unlimited when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_uses: Option<u32>,
    /// The pattern.
    pub lhs: Side<PatternVertex>,
    /// The replacement.
    pub rhs: Side<ReplacementVertex>,
    /// Where the rule was declared (its name).
    #[serde(skip)]
    pub span: Option<Span>,
}

fn default_weight() -> f64 {
    1.0
}

/// One side of a rule: named vertices and the edges between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side<V> {
    /// Vertices, in order of first mention.
    pub vertices: Vec<V>,
    /// Edges, in order of mention.
    #[serde(default)]
    pub edges: Vec<RuleEdge>,
}

impl<V> Default for Side<V> {
    fn default() -> Self {
        Side {
            vertices: Vec::new(),
            edges: Vec::new(),
        }
    }
}

/// A vertex of a pattern.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternVertex {
    /// Name, shared with the right-hand side to keep the vertex.
    pub name: String,
    /// Alternatives that may match (`room|goal`), or `["*"]` for any tag.
    pub tags: Vec<String>,
    /// Forbidden tags (seed 000's "false" values, `!lock`): host vertices
    /// joined to the matched vertex by a host edge that the match does not
    /// cover must not carry any of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<String>,
    /// Attributes the host vertex must have, with these exact values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Where the vertex was first written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A vertex of a replacement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplacementVertex {
    /// Name: a pattern vertex's name keeps that host vertex; a new name
    /// creates a vertex.
    pub name: String,
    /// The tag to give the vertex; absent keeps the host tag (only for kept vertices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Attributes to set on the vertex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Where the vertex was first written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// An edge of a rule side, between two vertices named on that side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleEdge {
    /// Name of the first vertex (the tail when directed).
    pub source: String,
    /// Name of the second vertex (the head when directed).
    pub target: String,
    /// `->` / `~>`.
    #[serde(default)]
    pub directed: bool,
    /// `~~` / `~>`.
    #[serde(default)]
    pub cosmetic: bool,
    /// `-[label]-`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Where the edge operator was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// Field-wise comparison of two rule edges ignoring spans: same ends (unordered
/// when undirected), direction, cosmetic flag and label.
pub(crate) fn same_edge(a: &RuleEdge, b: &RuleEdge) -> bool {
    a.directed == b.directed
        && a.cosmetic == b.cosmetic
        && a.label == b.label
        && ((a.source == b.source && a.target == b.target)
            || (!a.directed && a.source == b.target && a.target == b.source))
}

impl Grammar {
    /// Reads the JSON form. Errors name the line and column in the JSON text.
    pub fn from_json(text: &str) -> Result<Grammar, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Writes the JSON form (pretty-printed, fields in a fixed order).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("grammar model always serializes")
    }

    /// The rule named `name`.
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }
}
