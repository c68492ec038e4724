//! The `place` block: content that a SAT solver places on each derived
//! level — the keys of its locks, the entrance and the goal when the
//! grammar does not make them, and items such as potions, a boss or a map —
//! with the constraints a designer asks of each (rooms, counts, distances,
//! pacing). The model here is the block as written and its JSON form;
//! `check` validates it against the alphabet and the `play` block.
//! [`crate::place`] builds the encoding, places content and classifies
//! every (item, room) pair as possible, impossible or necessary.
//!
//! The placement-as-constraints view is that of Smith & Mateas ("Answer
//! Set Programming for Procedural Content Generation", 2011) and Smith,
//! Padget & Vidler (FDG 2018); docs/grammar-language.md, section 20, is
//! the reference.

use serde::{Deserialize, Serialize};

use super::model::SettingSpans;
use super::play::{error, KeyLink, LockSpec, PlaySpec};
use crate::diagnostic::{Diagnostic, Location, Span};
use crate::graph::Symbols;

/// The `place` block (docs/grammar-language.md, section 20).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceSpec {
    /// `keys …`: the solver places one key for every lock of the level
    /// (the key vertices the level already has are taken out first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Placed>,
    /// `entrance …`: the solver picks the entrance's room, for grammars
    /// whose levels have no entrance vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrance: Option<Placed>,
    /// `goal …`: the solver picks the goal's room, for grammars whose
    /// levels have no goal vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Placed>,
    /// `item TAG …`: other content, in the order written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Placed>,
    /// `every key needed`: no way to a goal passes around any lock — with
    /// any one lock kept shut, the goal cannot be reached.
    #[serde(default, skip_serializing_if = "is_false")]
    pub every_key_needed: bool,
    /// Where the block was written (the word `place`).
    #[serde(skip)]
    pub span: Option<Span>,
    /// Where the text wrote `every key needed`; empty for JSON.
    #[serde(skip)]
    pub setting_spans: SettingSpans,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One statement of the `place` block: what is placed and its
/// constraints. Every constraint holds for each copy placed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    /// The item's tag (`item potion`); `None` for `keys`, `entrance` and
    /// `goal`, whose tags come from the `play` block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// How many rooms hold one (`count 2..4`; items only, default 1). A
    /// room holds at most one item of a kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<Count>,
    /// The tags of the places it may lie in (`in room|hall`); empty: any
    /// place.
    #[serde(default, rename = "in", skip_serializing_if = "Vec::is_empty")]
    pub rooms: Vec<String>,
    /// Distances in passages, on the mission graph with every lock open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub distance: Vec<Distance>,
    /// Tags of placed content it never shares a room with (`not with
    /// key|boss`): item tags, the placed keys' tag, the entrance's or the
    /// goal's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_with: Vec<String>,
    /// `alone`: no other placed content in its room.
    #[serde(default, skip_serializing_if = "is_false")]
    pub alone: bool,
    /// `lock first` (keys only): the player sees a key's lock no later
    /// than they can pick the key up.
    #[serde(default, skip_serializing_if = "is_false")]
    pub lock_first: bool,
    /// Where the statement was written: from its first word to the end
    /// of its last constraint.
    #[serde(skip)]
    pub span: Option<Span>,
    /// Where the text wrote the item's tag (`tag`) and each constraint,
    /// from its first word to its end: `count`, `in`, `not_with`,
    /// `alone`, `lock_first`, `distance N` (N from 0); empty for JSON.
    #[serde(skip)]
    pub spans: SettingSpans,
}

/// A whole-number range, both ends included (`count 2..4`: `{"min": 2,
/// "max": 4}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Count {
    /// The fewest.
    pub min: u32,
    /// The most.
    pub max: u32,
}

/// `distance from ANCHOR MIN..MAX`: the shortest walk, in passages, from
/// the anchor's place to the place of the content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distance {
    /// What the distance is measured from.
    pub from: Anchor,
    /// The least distance.
    #[serde(default)]
    pub min: u32,
    /// The greatest distance; `None`: unbounded (`3..*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// What a [`Distance`] is measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Anchor {
    /// The entrance's place.
    Entrance,
    /// The nearest goal's place.
    Goal,
    /// A key's own lock: the locked room, or the nearer end of a locked
    /// door (keys only).
    Lock,
}

impl Anchor {
    /// The word the text writes.
    pub fn word(self) -> &'static str {
        match self {
            Anchor::Entrance => "entrance",
            Anchor::Goal => "goal",
            Anchor::Lock => "lock",
        }
    }
}

impl PlaceSpec {
    /// The most copies of one item (`count`): bounds the encoding's size.
    pub const MAX_COUNT: u32 = 10_000;

    /// Every statement with its name as written (`keys`, `entrance`,
    /// `goal`, `item potion`) and its JSON field path.
    pub fn statements(&self) -> Vec<(String, String, &Placed)> {
        let mut out = Vec::new();
        if let Some(p) = &self.keys {
            out.push(("keys".to_owned(), "keys".to_owned(), p));
        }
        if let Some(p) = &self.entrance {
            out.push(("entrance".to_owned(), "entrance".to_owned(), p));
        }
        if let Some(p) = &self.goal {
            out.push(("goal".to_owned(), "goal".to_owned(), p));
        }
        for (i, p) in self.items.iter().enumerate() {
            let tag = p.tag.as_deref().unwrap_or("?");
            out.push((format!("item {tag}"), format!("items[{i}]"), p));
        }
        out
    }
}

/// The tag a placed key of `play`'s statement `s` gets: its key
/// selector's first tag (`None` for `*`).
pub fn key_tag(play: &PlaySpec, s: usize) -> Option<&str> {
    let t = play.keys.get(s)?.key.tags.first()?;
    (t != super::model::WILDCARD).then_some(t.as_str())
}

/// The errors of a `place` block, each located by span (text) or field
/// path under `place` (JSON): a block without a `play` block, undeclared
/// tags, counts and distances that run backwards, constraints on the
/// wrong statement, an item that is a key, lock, entrance or goal of the
/// `play` block, keys the solver cannot place (small keys, keys linked by
/// a corridor), and content whose tag the `play` block cannot give.
pub(crate) fn check(spec: &PlaceSpec, tags: &Symbols, play: Option<&PlaySpec>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let block_at = || match spec.span {
        Some(s) => Location::Span(s),
        None => Location::Field("place".into()),
    };
    let Some(play) = play else {
        out.push(error(
            "a `place` block needs a `play` block".into(),
            block_at(),
            Some("placement keeps every level completable by the `play` block's entrance, goal, keys and locks; add one (section 19)".into()),
        ));
        return out;
    };
    let names = content_tags(spec, play);
    let mut seen_items: Vec<(&str, Option<Span>)> = Vec::new();
    for (name, path, p) in spec.statements() {
        let at = |key: &str, field: &str| match p.spans.get(key).or(p.span).or(spec.span) {
            Some(s) => Location::Span(s),
            None => Location::Field(format!("place.{path}{field}")),
        };
        let is_keys = path == "keys";
        let is_item = path.starts_with("items");
        if p.tag.is_some() && !is_item {
            out.push(error(
                format!("`{name}` takes no tag: its tag comes from the `play` block"),
                at("tag", ".tag"),
                Some("leave out `tag`; only items name theirs".into()),
            ));
        } else if let Some(tag) = &p.tag {
            if tags.get(tag).is_none() {
                out.push(error(
                    format!("the `place` block names tag `{tag}`, which `tags` does not declare"),
                    at("tag", ".tag"),
                    Some("declare it in the `tags` block, or name a declared tag".into()),
                ));
            } else if let Some(role) = play_role(play, tag) {
                out.push(error(
                    format!("`item {tag}` would be {role} of the `play` block"),
                    at("tag", ".tag"),
                    Some("place keys with `keys`, the entrance with `entrance` and the goal with `goal`; an item is other content".into()),
                ));
            }
            if let Some((_, first)) = seen_items.iter().find(|(t, _)| *t == tag.as_str()) {
                out.push(error(
                    format!("`item {tag}` is placed twice"),
                    at("tag", ".tag"),
                    Some(match first {
                        Some(_) => "give one statement per item, with a `count` range".into(),
                        None => "give one entry per item, with a `count` range".into(),
                    }),
                ));
            }
            seen_items.push((tag.as_str(), p.span));
        } else if is_item {
            out.push(error("an item needs a tag".into(), at("tag", ".tag"), None));
        }
        if let Some(c) = p.count {
            if !is_item {
                out.push(error(
                    if is_keys {
                        "`count` is for items; `keys` places exactly one key per lock".to_owned()
                    } else {
                        format!("`count` is for items; a level has exactly one {name}")
                    },
                    at("count", ".count"),
                    None,
                ));
            } else if c.min > c.max {
                out.push(error(
                    format!("count {}..{} runs backwards", c.min, c.max),
                    at("count", ".count"),
                    Some("write the smaller number first".into()),
                ));
            } else if c.max > PlaceSpec::MAX_COUNT {
                out.push(error(
                    format!(
                        "count {} is above the most accepted, {}",
                        c.max,
                        PlaceSpec::MAX_COUNT
                    ),
                    at("count", ".count"),
                    None,
                ));
            }
        }
        for t in &p.rooms {
            if tags.get(t).is_none() {
                out.push(error(
                    format!("`in` names tag `{t}`, which `tags` does not declare"),
                    at("in", ".in"),
                    Some("declare it in the `tags` block, or name a declared tag".into()),
                ));
            }
        }
        for (i, d) in p.distance.iter().enumerate() {
            let at_d = || at(&format!("distance {i}"), &format!(".distance[{i}]"));
            if d.max.is_some_and(|m| m < d.min) {
                out.push(error(
                    format!(
                        "distance from {} {}..{} runs backwards",
                        d.from.word(),
                        d.min,
                        d.max.unwrap_or(0)
                    ),
                    at_d(),
                    Some("write the smaller number first".into()),
                ));
            }
            if d.from == Anchor::Lock && !is_keys {
                out.push(error(
                    format!("`distance from lock` is for keys; `{name}` has no lock of its own"),
                    at_d(),
                    None,
                ));
            }
            if (d.from == Anchor::Entrance && path == "entrance")
                || (d.from == Anchor::Goal && path == "goal")
            {
                out.push(error(
                    format!("`{name}` cannot keep a distance from itself"),
                    at_d(),
                    None,
                ));
            }
        }
        for t in &p.not_with {
            if !names.iter().any(|(n, _)| n == t) {
                let mut known: Vec<String> = Vec::new();
                for (n, _) in &names {
                    let n = format!("`{n}`");
                    if !known.contains(&n) {
                        known.push(n);
                    }
                }
                out.push(error(
                    format!("`not with {t}`: no content of the level or the `place` block has tag `{t}`"),
                    at("not_with", ".not_with"),
                    Some(if known.is_empty() {
                        "`not with` names the tag of an item, the keys, the entrance or the goal".into()
                    } else {
                        format!("name the tag of content: {}", known.join(", "))
                    }),
                ));
            } else if names.iter().any(|(n, s)| n == t && *s == path) {
                out.push(error(
                    format!("`{name}` is `not with {t}`, its own kind"),
                    at("not_with", ".not_with"),
                    Some(if is_item {
                        format!("a room holds at most one `{t}` already; `not with` names other content")
                    } else {
                        "`not with` names other content".into()
                    }),
                ));
            }
        }
        if p.lock_first && !is_keys {
            out.push(error(
                format!("`lock first` is for keys; `{name}` has no lock"),
                at("lock_first", ".lock_first"),
                None,
            ));
        }
    }
    if spec.keys.is_some() {
        check_placed_keys(spec, play, &mut out);
    }
    for (word, sel, placed) in [
        ("entrance", &play.entrance, &spec.entrance),
        ("goal", &play.goal, &spec.goal),
    ] {
        if placed.is_some() && sel.tags.first().is_none_or(|t| t == super::model::WILDCARD) {
            out.push(error(
                format!("a placed {word} needs a tag: the `play` block's `{word}` selector is `*`"),
                match placed.as_ref().and_then(|p| p.span).or(spec.span) {
                    Some(s) => Location::Span(s),
                    None => Location::Field(format!("place.{word}")),
                },
                Some(format!("name the {word}'s tag in the `play` block")),
            ));
        }
    }
    if spec.every_key_needed && play.keys.is_empty() {
        out.push(error(
            "`every key needed`, but the `play` block names no keys".into(),
            match spec.setting_spans.get("every_key_needed").or(spec.span) {
                Some(s) => Location::Span(s),
                None => Location::Field("place.every_key_needed".into()),
            },
            None,
        ));
    }
    out
}

/// Keys the solver places must be kept keys, tagged, and linked to their
/// lock by a cosmetic edge, an attribute or nothing: a key linked by a
/// corridor would add a passage to the level.
fn check_placed_keys(spec: &PlaceSpec, play: &PlaySpec, out: &mut Vec<Diagnostic>) {
    let at = || match spec.keys.as_ref().and_then(|k| k.span).or(spec.span) {
        Some(s) => Location::Span(s),
        None => Location::Field("place.keys".into()),
    };
    if play.keys.is_empty() {
        out.push(error(
            "`keys`, but the `play` block names no keys".into(),
            at(),
            Some("add `key TAG opens LOCK` to the `play` block".into()),
        ));
    }
    for (s, k) in play.keys.iter().enumerate() {
        if k.small {
            out.push(error(
                "the solver places kept keys only; the `play` block has a `small key` statement".into(),
                at(),
                Some("placement encodes keys that stay with the player (see section 20.3); drop `small`, or leave `keys` out of the `place` block".into()),
            ));
        }
        if key_tag(play, s).is_none() {
            out.push(error(
                "a placed key needs a tag: a `play` key statement's key is `*`".into(),
                at(),
                None,
            ));
        }
        if let Some(KeyLink::Edge(e)) = &k.via {
            if !e.cosmetic {
                out.push(error(
                    "the solver cannot place keys linked to their lock by a corridor".into(),
                    at(),
                    Some("link keys by a cosmetic edge (`via ~>`), by an attribute (`via same color`), or leave out `via`".into()),
                ));
            }
        }
    }
}

/// The tags of content the block places or the level holds: item tags,
/// the key statements' tags and the entrance and goal tags, each with
/// the path of the statement that places it (`play` for content the
/// `play` block names but the `place` block does not place).
fn content_tags(spec: &PlaceSpec, play: &PlaySpec) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (_, path, p) in spec.statements() {
        if let Some(t) = &p.tag {
            out.push((t.clone(), path));
        }
    }
    let keys_path = if spec.keys.is_some() { "keys" } else { "play" };
    for s in 0..play.keys.len() {
        if let Some(t) = key_tag(play, s) {
            out.push((t.to_owned(), keys_path.to_owned()));
        }
    }
    for (word, sel, placed) in [
        ("entrance", &play.entrance, &spec.entrance),
        ("goal", &play.goal, &spec.goal),
    ] {
        if let Some(t) = sel.tags.first().filter(|t| *t != super::model::WILDCARD) {
            let path = if placed.is_some() { word } else { "play" };
            out.push((t.clone(), path.to_owned()));
        }
    }
    out
}

/// What `tag` already is in the `play` block, if anything: "a key",
/// "a lock", "the entrance" or "a goal".
fn play_role(play: &PlaySpec, tag: &str) -> Option<&'static str> {
    let has = |sel: &super::play::VertexSelector| sel.tags.iter().any(|t| t == tag);
    if play.keys.iter().any(|k| has(&k.key)) {
        return Some("a key");
    }
    if play
        .keys
        .iter()
        .any(|k| matches!(&k.opens, LockSpec::Room(sel) if has(sel)))
    {
        return Some("a lock");
    }
    if has(&play.entrance) {
        return Some("the entrance");
    }
    if has(&play.goal) {
        return Some("a goal");
    }
    None
}
