//! The `play` block: what a level means to the player — where they start,
//! what they must reach, which vertices are keys, which vertices or edges
//! are locks, and how a key names the locks it opens. The model here is the
//! block as written (and its JSON form); `check` validates it against the
//! grammar's alphabet. [`crate::play`] reads a level with it and proves
//! the level completable.
//!
//! The semantics follow the lock-and-key missions of Dormans ("Adventures
//! in Level Design", 2010) and the key/lock checks of Smith, Padget and
//! Vidler ("Graph-based generation of action-adventure dungeon levels
//! using answer set programming", FDG 2018); docs/grammar-language.md,
//! section 19, is the reference.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{SettingSpans, WILDCARD};
use crate::diagnostic::{Diagnostic, Location, Severity, Span};
use crate::graph::Symbols;

/// The `play` block (docs/grammar-language.md, section 19).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaySpec {
    /// The vertex the player starts at: a level must have exactly one.
    pub entrance: VertexSelector,
    /// The vertices the player must reach: a level is finished when every
    /// one of them has been reached (most grammars make one).
    pub goal: VertexSelector,
    /// Key statements, in the order written: a key vertex belongs to the
    /// first statement whose `key` selector it matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeySpec>,
    /// Tags of vertices that are not places the player walks to (the
    /// empty cells of a grid grammar, markers): they and their edges are
    /// left out of the level the player sees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// What a directed corridor means to the player (`directed one_way`,
    /// the default, or `directed two_way`).
    #[serde(default, skip_serializing_if = "Directed::is_default")]
    pub directed: Directed,
    /// How many more levels `generate` derives when a level cannot be
    /// proved completable (`retries N`, 0 to [`PlaySpec::MAX_RETRIES`]);
    /// `None`: [`PlaySpec::DEFAULT_RETRIES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// The most states the bounded search for small keys and one-way
    /// corridors expands per level (`search_limit N`, 1 to
    /// [`PlaySpec::MAX_SEARCH_LIMIT`]); `None`:
    /// [`PlaySpec::DEFAULT_SEARCH_LIMIT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_limit: Option<u32>,
    /// Where the block was written (the word `play`).
    #[serde(skip)]
    pub span: Option<Span>,
    /// Where the text wrote `entrance`, `goal`, `directed`, `retries`,
    /// `search_limit` and each `ignore` line (`ignore N`, from 0); empty
    /// for JSON.
    #[serde(skip)]
    pub setting_spans: SettingSpans,
}

impl PlaySpec {
    /// The retries of a block that sets none. A grammar that keeps its
    /// keys before their locks by construction never uses them; one whose
    /// levels fail 41 % of the time (the measured rate of a grammar that
    /// places keys on either side of their lock) leaves a seed without a
    /// level about once in 10³⁹.
    pub const DEFAULT_RETRIES: u32 = 100;
    /// The most `retries` accepted.
    pub const MAX_RETRIES: u32 = 10_000;
    /// The states a block that sets no `search_limit` lets the bounded
    /// search expand per level.
    pub const DEFAULT_SEARCH_LIMIT: u32 = 100_000;
    /// The largest `search_limit` accepted: each state holds a few bit
    /// sets, so this bounds the search's memory to a few hundred MB.
    pub const MAX_SEARCH_LIMIT: u32 = 10_000_000;

    /// `retries`, or [`PlaySpec::DEFAULT_RETRIES`].
    pub fn retries(&self) -> u32 {
        self.retries.unwrap_or(Self::DEFAULT_RETRIES)
    }

    /// `search_limit`, or [`PlaySpec::DEFAULT_SEARCH_LIMIT`].
    pub fn search_limit(&self) -> u32 {
        self.search_limit.unwrap_or(Self::DEFAULT_SEARCH_LIMIT)
    }
}

/// What a directed (non-cosmetic) edge means to the player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Directed {
    /// A one-way corridor: walked from its source to its target only.
    #[default]
    OneWay,
    /// A corridor walked both ways; the direction records mission order
    /// (as in Dormans' mission graphs), not a one-way door.
    TwoWay,
}

impl Directed {
    fn is_default(&self) -> bool {
        *self == Directed::OneWay
    }
}

/// Which vertices a statement names: one of `tags` (or any tag, `*`),
/// carrying every attribute of `attributes` with that value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexSelector {
    /// Declared tags, or `["*"]` for any tag.
    pub tags: Vec<String>,
    /// Attributes the vertex must carry, with these exact values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// `[small] key SELECTOR opens LOCKS [via LINK]`: vertices that are keys,
/// the locks they open, and how one key names its locks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeySpec {
    /// The key vertices. A top-level key vertex is a place holding the key;
    /// a key stored in a room (`(k:key) in (r)`) lies in that room.
    pub key: VertexSelector,
    /// The locks such a key may open.
    pub opens: LockSpec,
    /// How one key names the locks it opens among `opens`; `None`: any of
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<KeyLink>,
    /// Small keys: a key opens one lock and is used up (otherwise a key is
    /// kept and opens every lock it names).
    #[serde(default, skip_serializing_if = "is_false")]
    pub small: bool,
    /// Where the statement was written (its word `key`).
    #[serde(skip)]
    pub span: Option<Span>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a key statement's locks are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum LockSpec {
    /// Locked rooms: vertices the player enters only once the lock is
    /// opened (a lock stored in a room locks that room).
    Room(VertexSelector),
    /// Locked doors: corridors of this kind, crossed only once opened.
    Door(DoorSelector),
}

/// Corridors that are locked doors: non-cosmetic edges with this label
/// (`-[locked]-` matches undirected ones, `-[locked]->` directed ones).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorSelector {
    /// The label.
    pub label: String,
    /// Directed edges (`-[l]->`) rather than undirected ones (`-[l]-`).
    #[serde(default)]
    pub directed: bool,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// How a key names the locks it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum KeyLink {
    /// An edge of this kind from the key to the lock (either way for an
    /// undirected kind): `via ~>`, `via -[opens]->`.
    Edge(LinkEdge),
    /// The same value of this attribute on key and lock: `via same color`.
    Same(String),
}

/// The edge kind of a [`KeyLink::Edge`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkEdge {
    /// `->`, `~>`: from the key to the lock.
    #[serde(default)]
    pub directed: bool,
    /// `~~`, `~>`: a cosmetic edge (not a corridor).
    #[serde(default)]
    pub cosmetic: bool,
    /// `-[l]-`: the edge's label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The errors of a `play` block: undeclared tags, an empty tag set, a
/// locked door named by an edge or an attribute (a door has neither), and
/// settings out of range; each located by span (text) or field path
/// (JSON, under `play`).
pub(crate) fn check(spec: &PlaySpec, tags: &Symbols) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Text: the statement's own span, else the block's; JSON: the field.
    let at = |span: Option<Span>, path: &str| match span.or(spec.span) {
        Some(s) => Location::Span(s),
        None => Location::Field(format!("play.{path}")),
    };
    let selector = |sel: &VertexSelector, path: &str, out: &mut Vec<Diagnostic>| {
        if sel.tags.is_empty() {
            out.push(error(
                "a play selector needs a tag, alternatives `a|b` or `*`".into(),
                at(sel.span, path),
                None,
            ));
        }
        for t in &sel.tags {
            if t != WILDCARD && tags.get(t).is_none() {
                out.push(error(
                    format!("the `play` block names tag `{t}`, which `tags` does not declare"),
                    at(sel.span, path),
                    Some("declare it in the `tags` block, or name a declared tag".into()),
                ));
            }
        }
    };
    selector(&spec.entrance, "entrance", &mut out);
    selector(&spec.goal, "goal", &mut out);
    for (i, key) in spec.keys.iter().enumerate() {
        let path = format!("keys[{i}]");
        selector(&key.key, &format!("{path}.key"), &mut out);
        match &key.opens {
            LockSpec::Room(sel) => selector(sel, &format!("{path}.opens.room"), &mut out),
            LockSpec::Door(door) => {
                if door.label.is_empty() {
                    out.push(error(
                        "a locked door needs a label: `-[locked]-`".into(),
                        at(door.span.or(key.span), &format!("{path}.opens.door")),
                        None,
                    ));
                }
                match &key.via {
                    Some(KeyLink::Edge(_)) => out.push(error(
                        "a key cannot name a locked door by an edge: the door is an edge itself".into(),
                        at(key.span, &format!("{path}.via")),
                        Some("leave out `via` (any key of the statement opens the door), or give each kind of door its own label and key statement".into()),
                    )),
                    Some(KeyLink::Same(attr)) => out.push(error(
                        format!("a key cannot name a locked door by attribute `{attr}`: edges carry no attributes"),
                        at(key.span, &format!("{path}.via")),
                        Some("leave out `via`, or give each kind of door its own label and key statement".into()),
                    )),
                    None => {}
                }
            }
        }
        // (A door's `via` is wrong whatever it says: reported above.)
        if let (Some(KeyLink::Same(attr)), LockSpec::Room(_)) = (&key.via, &key.opens) {
            if attr.is_empty() {
                out.push(error(
                    "`via same` needs an attribute name".into(),
                    at(key.span, &format!("{path}.via")),
                    None,
                ));
            }
        }
    }
    for (i, t) in spec.ignore.iter().enumerate() {
        if tags.get(t).is_none() {
            out.push(error(
                format!("`ignore` names tag `{t}`, which `tags` does not declare"),
                at(
                    spec.setting_spans.get(&format!("ignore {i}")),
                    &format!("ignore[{i}]"),
                ),
                None,
            ));
        }
    }
    if let Some(r) = spec.retries {
        if r > PlaySpec::MAX_RETRIES {
            out.push(error(
                format!(
                    "retries {r} is above the most accepted, {}",
                    PlaySpec::MAX_RETRIES
                ),
                at(spec.setting_spans.get("retries"), "retries"),
                None,
            ));
        }
    }
    if let Some(n) = spec.search_limit {
        if n == 0 || n > PlaySpec::MAX_SEARCH_LIMIT {
            out.push(error(
                format!(
                    "search_limit {n} is outside 1 to {}",
                    PlaySpec::MAX_SEARCH_LIMIT
                ),
                at(spec.setting_spans.get("search_limit"), "search_limit"),
                None,
            ));
        }
    }
    out
}

/// An error diagnostic of a block's checks (the `play` and `place` blocks).
pub(super) fn error(message: String, location: Location, hint: Option<String>) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        message,
        location,
        hint,
    }
}
