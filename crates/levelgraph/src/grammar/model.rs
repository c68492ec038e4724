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
    /// The build parameters (the limits of a derivation).
    #[serde(default)]
    pub limits: Limits,
    /// Grid mode (graph rewriting on a grid): the host starts as this grid
    /// instead of one start-symbol vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridSpec>,
    /// Geometric derivation: `geometric` in the header, with its settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geometry: Option<crate::settings::GeometrySettings>,
    /// The alphabet, in declaration order.
    pub tags: Vec<TagDecl>,
    /// The rules, in declaration order.
    pub rules: Vec<Rule>,
    /// Rule groups with a combined `max_uses` (a limit on how often the
    /// group's rules may fire in all), in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupDecl>,
    /// Ordered stages (a recipe, as Dormans' Ludoscope calls such a
    /// script). Without a recipe, one weighted loop runs over all rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
    /// Room templates for the layout of a derived level (the
    /// configuration-space layout of Ma et al. 2014): which templates each
    /// tag's rooms may use. With it, `generate` lays the level out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rooms: Option<RoomsSpec>,
    /// Play semantics: entrance, goal, keys and the locks they open
    /// (`play { … }`). With it, `generate` hands out only levels proved
    /// completable, and `check` reports how many sampled levels are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<super::play::PlaySpec>,
    /// Content a SAT solver places on every level (`place { … }`): keys,
    /// entrance, goal and items, with the designer's constraints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<super::place::PlaceSpec>,
    /// Where the text wrote the header's settings (`start`, `min_vertices`,
    /// `grid`, …), the word `grammar` of the header, the word `recipe`,
    /// and in a `geometric` block `radius TAG` (at the tag); empty for a
    /// grammar read from JSON.
    #[serde(skip)]
    pub spans: SettingSpans,
}

/// Where a grammar's text wrote each setting of a block, by the setting's
/// word: from the word to the end of its value. Diagnostics about a
/// setting point there; a grammar read from JSON has none of these and its
/// diagnostics name field paths instead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingSpans {
    /// Whether the grammar came from text (even one that writes none of
    /// its settings).
    from_text: bool,
    spans: BTreeMap<String, Span>,
}

impl SettingSpans {
    /// No spans yet, for a grammar read from text.
    pub fn text() -> Self {
        SettingSpans {
            from_text: true,
            spans: BTreeMap::new(),
        }
    }

    /// Whether the grammar came from text.
    pub fn is_text(&self) -> bool {
        self.from_text
    }

    /// Records that setting `key` was written at `span`.
    pub fn insert(&mut self, key: &str, span: Span) {
        self.spans.insert(key.to_owned(), span);
    }

    /// Where setting `key` was written, if it was.
    pub fn get(&self, key: &str) -> Option<Span> {
        self.spans.get(key).copied()
    }

    /// Where a diagnostic about settings `keys` points: the first of them
    /// the text writes; for text that writes none, the start of the file
    /// (line 1, column 1); for JSON, the field path `path`.
    pub fn locate(&self, keys: &[&str], path: &str) -> crate::diagnostic::Location {
        use crate::diagnostic::Location;
        if !self.from_text {
            return Location::Field(path.to_owned());
        }
        let span = keys.iter().find_map(|k| self.get(k));
        Location::Span(span.unwrap_or_default())
    }
}

/// The `rooms { … }` block: room templates (inline, or from Edgar-DotNet
/// room-set files), named sets of them, which tags use which, corridors
/// and layout options (docs/grammar-language.md, "Room layout").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomsSpec {
    /// Door rule of inline templates that give none: `door LENGTH corner
    /// DISTANCE` (default length 1, corner distance 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub door: Option<DoorSpec>,
    /// How often one template may repeat.
    #[serde(default)]
    pub repeat: crate::layout::RepeatMode,
    /// Least distance between rooms that no edge joins (grid units).
    #[serde(default)]
    pub min_distance: u32,
    /// Edgar-DotNet room-set files or folders to read, relative to the
    /// grammar file; their sets and templates (`set/room`) become names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load: Vec<String>,
    /// Inline templates, in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<TemplateSpec>,
    /// Named sets of templates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sets: Vec<SetSpec>,
    /// Which tags use which templates; tag `*` for every tag not named.
    #[serde(default)]
    pub uses: Vec<UseSpec>,
    /// Corridor templates (each with exactly two specific doors); empty:
    /// rooms meet door to door.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corridors: Vec<String>,
    /// Tiles per grid unit when the layout becomes a tile map
    /// (`tile_scale N`, 1 to 64); `None`: the rasterizer's default, 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_scale: Option<u32>,
    /// How many more levels `generate` derives when a level cannot be laid
    /// out within the layout's limits (`retries N`, 0 to 1000), each with
    /// the next seed of [`crate::rng::attempt_seed`]; `None`:
    /// [`RoomsSpec::DEFAULT_RETRIES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// How the floor of rooms of some tags is made in the tile map
    /// (`fill TAG …: cave`); other rooms are plain floor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fills: Vec<FillSpec>,
    /// Where the block was written.
    #[serde(skip)]
    pub span: Option<Span>,
    /// Where the text wrote the block's settings: `door`, `repeat`,
    /// `min_distance`, `corridors`, `tile_scale`, `retries`, and each
    /// `load` line as `load N` (N from 0); empty for JSON.
    #[serde(skip)]
    pub setting_spans: SettingSpans,
}

impl RoomsSpec {
    /// The retries of a block that sets none: with the example grammars'
    /// levels laid out 97–99 % of the time (BENCHMARKS.md), eight more
    /// levels leave a seed without a level about once in 10¹² if the
    /// failures are independent.
    pub const DEFAULT_RETRIES: u32 = 8;

    /// The most `retries` accepted.
    pub const MAX_RETRIES: u32 = 1000;

    /// The largest `min_distance` accepted: as far as two corners of
    /// template outlines (coordinates within ±1000000) are apart on one
    /// axis. The layout computes with 32-bit signed coordinates.
    pub const MAX_MIN_DISTANCE: u32 = 2_000_000;

    /// `retries`, or [`RoomsSpec::DEFAULT_RETRIES`].
    pub fn retries(&self) -> u32 {
        self.retries.unwrap_or(Self::DEFAULT_RETRIES)
    }
}

/// An overlap-mode door rule: doors `length` long, at least
/// `corner_distance` from a side's corners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorSpec {
    /// Door length in grid units.
    pub length: u32,
    /// Least distance from a corner.
    pub corner_distance: u32,
}

/// An inline room template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateSpec {
    /// Its name.
    pub name: String,
    /// Its outline's corners, `[x, y]` on the integer grid.
    pub outline: Vec<crate::layout::GridPoint>,
    /// Door length and corner distance (else the block's `door`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub door: Option<DoorSpec>,
    /// Explicit door segments instead of a door length.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<[crate::layout::GridPoint; 2]>,
    /// May it be turned (the four rotations)? Default yes.
    #[serde(default = "yes")]
    pub rotate: bool,
    /// May it be mirrored as well?
    #[serde(default)]
    pub mirror: bool,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

fn yes() -> bool {
    true
}

impl TemplateSpec {
    /// Its door rule: `doors` when it lists any, else overlap mode with its
    /// own `door`, else `block_door` (the block's `door`), else length 1
    /// and corner distance 1.
    pub fn door_rule(&self, block_door: Option<DoorSpec>) -> crate::layout::DoorRule {
        if !self.doors.is_empty() {
            return crate::layout::DoorRule::Specific(self.doors.clone());
        }
        let d = self.door.or(block_door).unwrap_or(DoorSpec {
            length: 1,
            corner_distance: 1,
        });
        crate::layout::DoorRule::Overlap {
            length: d.length,
            corner_distance: d.corner_distance,
        }
    }

    /// The transforms it may be placed under: the four rotations (and
    /// their mirror images with `mirror`) when `rotate`, else the identity
    /// (and the plain mirror image with `mirror`).
    pub fn transforms(&self) -> Vec<crate::layout::Transform> {
        use crate::layout::Transform;
        if self.rotate {
            Transform::all(self.mirror).collect()
        } else if self.mirror {
            vec![
                Transform::IDENTITY,
                Transform {
                    rotation: 0,
                    mirror: true,
                },
            ]
        } else {
            vec![Transform::IDENTITY]
        }
    }

    /// The room template it describes, with the block's `door` as
    /// `block_door` ([`TemplateSpec::door_rule`]).
    ///
    /// # Errors
    /// The outline is not an orthogonal polygon, or the door rule gives no
    /// door.
    pub fn build(
        &self,
        block_door: Option<DoorSpec>,
    ) -> Result<crate::layout::RoomTemplate, crate::layout::TemplateError> {
        crate::layout::RoomTemplate::new(
            &self.name,
            &self.outline,
            self.door_rule(block_door),
            self.transforms(),
        )
    }
}

/// A named set of templates: each member an inline template, another set,
/// a loaded Edgar set or a loaded template `set/room`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetSpec {
    /// Its name.
    pub name: String,
    /// Its members.
    pub members: Vec<String>,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// `use TAG…: MEMBER…`: rooms with one of `tags` (or any tag not used
/// elsewhere, for `*`) may use the templates of `members`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UseSpec {
    /// Tags, or `*`.
    pub tags: Vec<String>,
    /// Templates and sets, as in [`SetSpec::members`].
    pub members: Vec<String>,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// `fill TAG …: KIND`: rooms with one of `tags` get their floor from
/// `kind` when the layout becomes a tile map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillSpec {
    /// Declared tags.
    pub tags: Vec<String>,
    /// How their floor is made.
    pub fill: FillKind,
    /// Where it was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A room floor generator of the tile map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FillKind {
    /// Every interior tile is floor.
    Floor,
    /// A cellular-automaton cave ([`crate::tiles::caves`]), joined to the
    /// room's doors.
    Cave,
}

/// The starting grid of grid mode: `rows` × `columns` vertices tagged `tag`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Number of rows (the `y` extent).
    pub rows: u32,
    /// Number of columns (the `x` extent).
    pub columns: u32,
    /// Tag of every grid vertex.
    pub tag: String,
}

/// A group of rules that share one `max_uses` budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupDecl {
    /// Group name, used by rules' `group NAME`.
    pub name: String,
    /// How many applications all the group's rules may make together.
    pub max_uses: u32,
    /// Where it was declared.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A recipe: stages run in order, each on the result of the one before.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// The stages, in order.
    pub stages: Vec<Stage>,
}

/// One stage of a recipe: a weighted choice among rules, applied a number
/// of times.
///
/// The stage draws a count uniformly from `min..=max` (with no `max`: it
/// runs until none of its rules applies), then makes that many steps; each
/// step picks one of the stage's rules that has an applicable match, by
/// weight. A stage whose rules stop applying before `min` steps fails the
/// derivation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// Optional label, used in messages (`stage 2` otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The rules to choose from, each with a weight for this stage.
    pub rules: Vec<StageRule>,
    /// Fewest steps the stage must make.
    pub min: u32,
    /// Most steps; `None` runs until none of the rules applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// Where the stage was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A rule named in a stage, with its weight in that stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageRule {
    /// Rule name.
    pub rule: String,
    /// Weight within the stage (default 1); multiplies nothing, the rule's
    /// own `weight` is not used inside a stage.
    #[serde(default = "default_weight")]
    pub weight: f64,
}

fn default_start() -> String {
    "s".to_owned()
}

/// The build parameters: how many steps a derivation may make, how small a
/// level may end, how large it may grow, and how many corridors a kept
/// vertex may be given.
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

impl Limits {
    /// The largest `max_iterations` accepted: 20,000,000 steps, about
    /// 20 s of derivation and 600 MB of trace at worst, and room for a
    /// level of [`Limits::MAX_VERTICES`] grown one vertex a step.
    pub const MAX_ITERATIONS: u32 = 20_000_000;
    /// The largest `max_vertices` accepted: 4,000,000 vertices, about 4 GB
    /// while `generate` writes mission.json (measured: 1 GB per million
    /// vertices of the default grammar grown without `settle`).
    pub const MAX_VERTICES: u32 = 4_000_000;
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
    /// A terminal tag may remain in a finished level. When any tag is
    /// declared terminal, `check` reports non-terminal tags that can remain.
    #[serde(default, skip_serializing_if = "is_false")]
    pub terminal: bool,
    /// Where it was declared.
    #[serde(skip)]
    pub span: Option<Span>,
    /// A `#` right after the name or description that looks like a
    /// mistyped colour (3 to 8 hex digits, not 6) and so starts a comment
    /// (section 3.2 of the language reference): the lint warns about it.
    #[serde(skip)]
    pub colour_comment: Option<Span>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

fn is_zero(x: &i32) -> bool {
    *x == 0
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
    /// Chance in `(0, 1]` that the rule runs when it is chosen; otherwise the
    /// step is skipped. Default 1.
    #[serde(default = "default_weight", skip_serializing_if = "is_one")]
    pub probability: f64,
    /// Never applied twice in a row.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_repeat: bool,
    /// Each host subgraph counts once (`count_once`): a step draws
    /// uniformly among the host subgraphs the pattern matches (vertex and
    /// edge images), then among that subgraph's matches, instead of
    /// uniformly among matches — which favours a subgraph once per
    /// symmetry of the pattern it satisfies.
    #[serde(default, skip_serializing_if = "is_false")]
    pub count_once: bool,
    /// Among rules with an applicable match only those of the highest
    /// priority are chosen from. Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// The group whose combined `max_uses` this rule counts against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Induced matching: host edges between matched vertices must all be
    /// images of pattern edges.
    #[serde(default, skip_serializing_if = "is_false")]
    pub induced: bool,
    /// Grid rules: also try the rule turned by 90°, 180° and 270°
    /// (`orient any`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub orient_any: bool,
    /// Grid rules: also try the rule's mirror images (`mirror`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub mirror: bool,
    /// The pattern.
    pub lhs: Side<PatternVertex>,
    /// Negative application conditions (`where not …`): a match is rejected
    /// when any of these extends it. Vertices named as in the pattern are the
    /// matched vertices; other vertices must be distinct from them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub where_not: Vec<Side<PatternVertex>>,
    /// The replacements, each with a weight; one is chosen per application.
    pub rhs: Vec<Alternative>,
    /// Where the rule was declared (its name).
    #[serde(skip)]
    pub span: Option<Span>,
}

/// One right-hand side of a rule, with its weight among the rule's alternatives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    /// Relative chance among the rule's alternatives. Default 1.
    #[serde(default = "default_weight", skip_serializing_if = "is_one")]
    pub weight: f64,
    /// Vertices, in order of first mention.
    pub vertices: Vec<ReplacementVertex>,
    /// Edges, in order of mention.
    #[serde(default)]
    pub edges: Vec<RuleEdge>,
    /// Containment (`(i) in (r)`) to hold after the application.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inside: Vec<Containment>,
    /// Where the alternative starts (its `=>`).
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
    /// Containment (`(i) in (r)`): which vertex is stored in which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inside: Vec<Containment>,
}

impl<V> Default for Side<V> {
    fn default() -> Self {
        Side {
            vertices: Vec::new(),
            edges: Vec::new(),
            inside: Vec::new(),
        }
    }
}

/// `(child) in (parent)`: the child vertex is stored in the parent
/// (a stored vertex, as a node of a Ludoscope graph may hold a graph of its
/// own). In a pattern it must hold in the host; on a right-hand side it is made
/// to hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Containment {
    /// Name of the stored vertex.
    pub child: String,
    /// Name of the vertex it is stored in.
    pub parent: String,
    /// Where the `in` was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A vertex of a pattern.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternVertex {
    /// Name, shared with the right-hand side to keep the vertex.
    pub name: String,
    /// Alternatives that may match (`room|goal`), or `["*"]` for any tag.
    pub tags: Vec<String>,
    /// Forbidden tags (blocked neighbours, `!lock`): host vertices joined to
    /// the matched vertex by a host edge that the match does not cover must not
    /// carry any of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<String>,
    /// Attributes the host vertex must have, with these exact values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
    /// Exact valence (incident non-cosmetic host edges) the matched vertex
    /// must have (`valence 2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valence: Option<u32>,
    /// Grid offset `[dx, dy]` from the rule's origin (`@dx,dy`), in grid rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<[i32; 2]>,
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
    /// Grid offset `[dx, dy]` from the rule's origin (`@dx,dy`): where a new
    /// vertex of a grid rule is placed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<[i32; 2]>,
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
    /// `-- {length: F} `: on the right-hand side, the edge is a subdivided
    /// edge whose length factor is `F` times the mean length factor of the
    /// matched pattern edges. Not allowed on the left or in conditions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
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
    /// A leading byte-order mark is skipped.
    pub fn from_json(text: &str) -> Result<Grammar, serde_json::Error> {
        serde_json::from_str(crate::diagnostic::strip_bom(text))
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
