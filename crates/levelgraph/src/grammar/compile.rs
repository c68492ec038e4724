//! Compilation: the [`Grammar`] model → a [`CompiledGrammar`] whose tags and
//! labels are interned symbols, whose patterns are ready to search and whose
//! rules carry a precomputed rewriting plan.
//!
//! Every name-level error is found here, for text and JSON grammars alike:
//! unknown tags, duplicate tags and rules, a replacement vertex that is
//! neither named in the pattern nor given a tag, edges naming missing
//! vertices. All errors are collected, not just the first.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::model::{self, Grammar, Limits, RuleEdge, WILDCARD};
use crate::alphabet::{Alphabet, TagStyle};
use crate::diagnostic::{line_col, Diagnostic, Location, Severity, Span};
use crate::graph::{Symbol, Symbols};
use crate::matching::{Nac, Pattern, PatternEdge, PatternVertex, TagTest, MAX_OFFSET};

/// Colours given to tags declared without one, in declaration order.
const PALETTE: [&str; 12] = [
    "#90a4ae", "#81c784", "#64b5f6", "#ffb74d", "#e57373", "#ba68c8", "#4db6ac", "#fff176",
    "#a1887f", "#f06292", "#7986cb", "#aed581",
];

/// A grammar ready to derive from.
#[derive(Clone, Debug)]
pub struct CompiledGrammar {
    model: Grammar,
    parts: Parts,
    /// Each rule's drawing for geometric derivation, made when first needed.
    drawings: std::sync::OnceLock<Vec<super::drawing::RuleDrawing>>,
}

/// A recipe stage with rule names resolved.
#[derive(Clone, Debug)]
pub(crate) struct CompiledStage {
    /// `name` or `stage N` (1-based), for messages.
    pub(crate) label: String,
    /// (rule index, weight in the stage).
    pub(crate) rules: Vec<(usize, f64)>,
    pub(crate) min: u32,
    pub(crate) max: Option<u32>,
}

/// One end of an edge the rewriting adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The host vertex matched by pattern vertex `i`.
    Kept(usize),
    /// The `j`-th vertex the application creates.
    Fresh(usize),
}

/// An edge the rewriting adds.
#[derive(Clone, Debug)]
pub(crate) struct NewEdge {
    pub(crate) source: End,
    pub(crate) target: End,
    pub(crate) directed: bool,
    pub(crate) cosmetic: bool,
    pub(crate) label: Option<Symbol>,
    /// `{length: F}`: the new edge's length factor is F times the mean of
    /// the matched pattern edges' (subdivided edges, whose length shrinks as
    /// they are split again); else 1.
    pub(crate) length: Option<f64>,
}

/// A rule with its pattern compiled and its rewriting planned.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRule {
    pub(crate) name: crate::trace::RuleName,
    pub(crate) weight: f64,
    pub(crate) max_uses: Option<u32>,
    pub(crate) probability: f64,
    pub(crate) no_repeat: bool,
    pub(crate) priority: i32,
    /// Index into the grammar's groups.
    pub(crate) group: Option<usize>,
    /// The pattern, with its `induced` flag and `where not` conditions.
    pub(crate) pattern: Pattern,
    /// The right-hand alternatives, at least one.
    pub(crate) alternatives: Vec<CompiledAlternative>,
    /// The smallest vertex delta of any alternative, for the max_vertices pre-check.
    pub(crate) min_vertex_delta: i64,
    /// Geometric grammars: the rule's own drawing from its offsets.
    pub(crate) drawing: Option<GivenDrawing>,
}

/// A rule's drawing given by offsets `@dx,dy` in a geometric grammar:
/// each pattern vertex's position, and per alternative each new vertex's.
pub(crate) type GivenDrawing = (Vec<[i32; 2]>, Vec<Vec<[i32; 2]>>);

/// The rewriting plan of one right-hand alternative.
#[derive(Clone, Debug)]
pub(crate) struct CompiledAlternative {
    pub(crate) weight: f64,
    /// Per pattern vertex: its new tag, `None` to keep the host tag.
    pub(crate) retag: Vec<Option<Symbol>>,
    /// Per pattern vertex: attributes to set.
    pub(crate) set_attributes: Vec<Vec<(String, String)>>,
    /// Pattern vertices not named on the right: deleted with their edges.
    pub(crate) deleted: Vec<usize>,
    /// Vertices to create: tag and attributes.
    pub(crate) fresh: Vec<(Symbol, Vec<(String, String)>)>,
    /// Grid rules: the offset of each vertex to create, placed through the
    /// match's frame; empty for other rules.
    pub(crate) fresh_offsets: Vec<[i32; 2]>,
    /// Pattern edges with no counterpart on the right: removed.
    pub(crate) removed_edges: Vec<usize>,
    /// Right-hand edges with no counterpart in the pattern: added.
    pub(crate) added_edges: Vec<NewEdge>,
    /// Per pattern vertex: its valence (non-cosmetic edges) in the
    /// replacement graph; the `max_valence` exception (a rule may give a kept
    /// vertex as many edges as its right-hand side draws).
    pub(crate) rhs_valence: Vec<usize>,
    /// Kept pattern vertices that gain at least one non-cosmetic edge.
    pub(crate) valence_watch: Vec<usize>,
    /// Pattern containments (child index) that the alternative drops: the
    /// child is taken out to the top level.
    pub(crate) removed_inside: Vec<usize>,
    /// Containments the alternative adds: (child, parent).
    pub(crate) added_inside: Vec<(End, End)>,
    /// Vertices created minus vertices deleted.
    pub(crate) vertex_delta: i64,
}

impl CompiledGrammar {
    /// Each rule's drawing (geometric derivation), made once.
    pub(crate) fn rule_drawings(&self) -> &[super::drawing::RuleDrawing] {
        self.drawings
            .get_or_init(|| super::drawing::RuleDrawing::for_rules(self.rules()))
    }

    /// The model this was compiled from.
    pub fn model(&self) -> &Grammar {
        &self.model
    }

    /// The grammar's name.
    pub fn name(&self) -> &str {
        &self.model.name
    }

    /// Build parameters.
    pub fn limits(&self) -> &Limits {
        &self.model.limits
    }

    /// The tag table: declared tags in declaration order.
    pub fn tags(&self) -> &Symbols {
        &self.parts.tags
    }

    /// The label table: labels in order of first use.
    pub fn labels(&self) -> &Symbols {
        &self.parts.labels
    }

    /// The start symbol.
    pub fn start(&self) -> Symbol {
        self.parts.start
    }

    /// Names, descriptions and colours of the declared tags (a palette
    /// colour for tags declared without one).
    pub fn alphabet(&self) -> Alphabet {
        Alphabet {
            tags: self
                .model
                .tags
                .iter()
                .zip(&self.parts.colors)
                .map(|(decl, color)| TagStyle {
                    name: decl.name.clone(),
                    description: decl.description.clone(),
                    color: color.clone().into_owned(),
                })
                .collect(),
        }
    }

    /// Number of rules.
    pub fn rule_count(&self) -> usize {
        self.parts.rules.len()
    }

    pub(crate) fn rules(&self) -> &[CompiledRule] {
        &self.parts.rules
    }

    pub(crate) fn group_limits(&self) -> &[u32] {
        &self.parts.group_limits
    }

    /// The `play` block: what the grammar's levels mean to the player,
    /// if it declares it.
    pub fn play(&self) -> Option<&super::play::PlaySpec> {
        self.model.play.as_ref()
    }

    /// Grid mode: rows, columns and tag of the starting grid.
    pub fn grid(&self) -> Option<(u32, u32, Symbol)> {
        self.parts.grid
    }

    pub(crate) fn recipe(&self) -> Option<&[CompiledStage]> {
        self.parts.recipe.as_deref()
    }
}

/// Resolves names and plans rewriting.
///
/// # Errors
/// Every error found, each located by span (text grammars) or field path
/// (JSON grammars).
pub fn compile(grammar: &Grammar) -> Result<CompiledGrammar, Vec<Diagnostic>> {
    compile_parts(grammar, None).map(|parts| parts.with_model(grammar.clone()))
}

/// [`compile`] of a model the caller gives up, with the grammar's text when
/// there is one so hints can cite line numbers. The compiled grammar keeps
/// this model as it is, with no copy: `load` makes a model only to compile it.
pub(crate) fn compile_owned(
    grammar: Grammar,
    src: Option<&str>,
) -> Result<CompiledGrammar, Vec<Diagnostic>> {
    let parts = compile_parts(&grammar, src)?;
    Ok(parts.with_model(grammar))
}

/// Everything a [`CompiledGrammar`] holds besides its model.
#[derive(Clone, Debug)]
struct Parts {
    tags: Symbols,
    labels: Symbols,
    /// Per declared tag; palette colours are borrowed, not copied.
    colors: Vec<Cow<'static, str>>,
    start: Symbol,
    rules: Vec<CompiledRule>,
    /// Combined `max_uses` of each group, by group index.
    group_limits: Vec<u32>,
    /// Grid mode: rows, columns and tag of the starting grid.
    grid: Option<(u32, u32, Symbol)>,
    recipe: Option<Vec<CompiledStage>>,
}

impl Parts {
    fn with_model(self, model: Grammar) -> CompiledGrammar {
        CompiledGrammar {
            model,
            parts: self,
            drawings: std::sync::OnceLock::new(),
        }
    }
}

fn compile_parts(grammar: &Grammar, src: Option<&str>) -> Result<Parts, Vec<Diagnostic>> {
    let mut cx = Cx {
        src,
        errors: Vec::new(),
    };
    let mut tags = Symbols::new();
    let mut colors = Vec::new();
    let mut first_decl: BTreeMap<&str, Option<Span>> = BTreeMap::new();
    for (i, decl) in grammar.tags.iter().enumerate() {
        let at = || cx_loc(decl.span, Path::root("tags", i));
        if decl.name == WILDCARD || decl.name.is_empty() {
            cx.error(format!("`{}` cannot be a tag name", decl.name), at(), None);
            continue;
        }
        if let Some(first) = first_decl.get(decl.name.as_str()) {
            let hint = format!("`{}` is first declared {}", decl.name, cx.where_is(*first));
            cx.error(
                format!("tag `{}` is declared twice", decl.name),
                at(),
                Some(hint),
            );
            continue;
        }
        first_decl.insert(&decl.name, decl.span);
        let color = match &decl.color {
            Some(c) if is_hex_color(c) => Cow::Owned(c.to_ascii_lowercase()),
            Some(c) => {
                cx.error(format!("colour `{c}` is not `#rrggbb`"), at(), None);
                Cow::Borrowed("")
            }
            None => Cow::Borrowed(PALETTE[i % PALETTE.len()]),
        };
        tags.intern(&decl.name);
        colors.push(color);
    }
    let start = match tags.get(&grammar.start) {
        Some(s) => s,
        // Grid mode starts from the grid; an undeclared start symbol is unused.
        None if grammar.grid.is_some() => Symbol(0),
        None => {
            let spans = &grammar.spans;
            if spans.is_text() && grammar.tags.is_empty() && grammar.rules.is_empty() {
                cx.error(
                    "the grammar is empty: it has no `tags` block and no rules".into(),
                    spans.locate(&["grammar"], ""),
                    Some(format!(
                        "a grammar declares its tags, among them the start symbol `{}`, and rules; see docs/grammar-language.md",
                        grammar.start
                    )),
                );
            } else if spans.is_text() && spans.get("start").is_none() {
                cx.error(
                    format!(
                        "the start symbol is `{}` (the header sets no `start`), but `tags` does not declare it",
                        grammar.start
                    ),
                    spans.locate(&["grammar"], ""),
                    Some(format!(
                        "add `{} \"start symbol\"` to the tags block, or name a declared tag with `start TAG` in the grammar header",
                        grammar.start
                    )),
                );
            } else {
                cx.error(
                    format!("start symbol `{}` is not declared in `tags`", grammar.start),
                    spans.locate(&["start"], "start"),
                    Some(format!(
                        "add `{} \"start symbol\"` to the tags block",
                        grammar.start
                    )),
                );
            }
            Symbol(0)
        }
    };
    let mut group_index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut group_limits = Vec::new();
    for (gi, g) in grammar.groups.iter().enumerate() {
        let at = cx_loc(g.span, Path::root("groups", gi));
        if group_index.contains_key(g.name.as_str()) {
            cx.error(format!("group `{}` is declared twice", g.name), at, None);
            continue;
        }
        group_index.insert(&g.name, group_limits.len());
        group_limits.push(g.max_uses);
    }
    let mut labels = Symbols::new();
    let mut rules = Vec::new();
    let mut rule_names: BTreeMap<&str, Option<Span>> = BTreeMap::new();
    for (ri, rule) in grammar.rules.iter().enumerate() {
        let at = cx_loc(rule.span, Path::root("rules", ri));
        if let Some(first) = rule_names.get(rule.name.as_str()) {
            let hint = format!(
                "the first rule `{}` is {}; rule names must be unique",
                rule.name,
                cx.where_is(*first)
            );
            cx.error(format!("duplicate rule `{}`", rule.name), at, Some(hint));
            continue;
        }
        rule_names.insert(&rule.name, rule.span);
        if !(rule.weight > 0.0 && rule.weight.is_finite()) {
            cx.error(
                format!(
                    "rule `{}` has weight {}; weights must be greater than 0",
                    rule.name, rule.weight
                ),
                at,
                None,
            );
        }
        let geometric = grammar.geometry.is_some();
        if let Some(r) = compile_rule(
            &mut cx,
            &tags,
            &mut labels,
            &group_index,
            rule,
            ri,
            geometric,
        ) {
            rules.push(r);
        }
    }
    let recipe = grammar.recipe.as_ref().map(|recipe| {
        let at = grammar.spans.locate(&["recipe"], "recipe");
        compile_recipe(&mut cx, recipe, &grammar.rules, at)
    });
    let grid_at = grammar.spans.locate(&["grid"], "grid");
    let grid = grammar.grid.as_ref().and_then(|spec| {
        if spec.rows == 0 || spec.columns == 0 {
            cx.error(
                format!("the grid {} x {} is empty", spec.rows, spec.columns),
                grid_at.clone(),
                None,
            );
        }
        if u64::from(spec.rows) * u64::from(spec.columns) > u64::from(grammar.limits.max_vertices) {
            cx.error(
                format!(
                    "the grid {} x {} has more vertices than max_vertices {}",
                    spec.rows, spec.columns, grammar.limits.max_vertices
                ),
                grid_at.clone(),
                Some("raise max_vertices or make the grid smaller".into()),
            );
        }
        let tag = resolve_tag(&mut cx, &tags, &spec.tag, &grid_at)?;
        Some((spec.rows, spec.columns, tag))
    });
    if let Some(settings) = &grammar.geometry {
        check_geometry(&mut cx, &tags, settings, grammar);
    }
    if let Some(rooms) = &grammar.rooms {
        check_rooms(&mut cx, &tags, rooms);
    }
    if let Some(play) = &grammar.play {
        cx.errors.extend(super::play::check(play, &tags));
    }
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    Ok(Parts {
        grid,
        group_limits,
        recipe,
        tags,
        labels,
        colors,
        start,
        rules,
    })
}

fn compile_recipe(
    cx: &mut Cx<'_>,
    recipe: &model::Recipe,
    rules: &[model::Rule],
    recipe_at: Location,
) -> Vec<CompiledStage> {
    if recipe.stages.is_empty() {
        cx.error(
            "the recipe has no stages".into(),
            recipe_at,
            Some("list stages as `rule 1..5`, or remove the recipe".into()),
        );
    }
    let mut out = Vec::new();
    for (si, stage) in recipe.stages.iter().enumerate() {
        let at = cx_loc(stage.span, Path::field("recipe").item("stages", si));
        let label = stage
            .name
            .clone()
            .unwrap_or_else(|| format!("stage {}", si + 1));
        if stage.max.is_some_and(|m| m < stage.min) {
            cx.error(
                format!(
                    "{label}: max {} is below min {}",
                    stage.max.unwrap_or(0),
                    stage.min
                ),
                at.clone(),
                None,
            );
        }
        let mut resolved = Vec::new();
        for sr in &stage.rules {
            match rules.iter().position(|r| r.name == sr.rule) {
                Some(ri) if sr.weight > 0.0 && sr.weight.is_finite() => {
                    resolved.push((ri, sr.weight))
                }
                Some(_) => cx.error(
                    format!(
                        "{label}: rule `{}` has weight {}; it must be greater than 0",
                        sr.rule, sr.weight
                    ),
                    at.clone(),
                    None,
                ),
                None => cx.error(
                    format!("{label} names rule `{}`, which does not exist", sr.rule),
                    at.clone(),
                    None,
                ),
            }
        }
        out.push(CompiledStage {
            label,
            rules: resolved,
            min: stage.min,
            max: stage.max,
        });
    }
    out
}

fn is_hex_color(c: &str) -> bool {
    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|ch| ch.is_ascii_hexdigit())
}

/// Where a diagnostic points: the span when the grammar came from text,
/// else the field path (spelled out only then).
fn cx_loc(span: Option<Span>, path: Path<'_>) -> Location {
    match span {
        Some(s) => Location::Span(s),
        None => Location::Field(path.to_string()),
    }
}

/// A JSON field path such as `rules[2].rhs[0].vertices[1]`, as a chain of
/// borrowed segments. Locations need a path only for grammars without spans
/// (JSON), so the text is made only when a diagnostic is located by it,
/// instead of a `format!` per vertex and edge on every load.
#[derive(Clone, Copy)]
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    field: &'static str,
    index: Option<usize>,
}

impl Path<'static> {
    /// A top-level field: `recipe`.
    fn field(field: &'static str) -> Self {
        Path {
            parent: None,
            field,
            index: None,
        }
    }

    /// An element of a top-level list: `rules[2]`.
    fn root(field: &'static str, index: usize) -> Self {
        Path {
            parent: None,
            field,
            index: Some(index),
        }
    }
}

impl<'a> Path<'a> {
    /// A field of this path: `….lhs`.
    fn child(&'a self, field: &'static str) -> Path<'a> {
        Path {
            parent: Some(self),
            field,
            index: None,
        }
    }

    /// An element of a list field of this path: `….vertices[3]`.
    fn item(&'a self, field: &'static str, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            field,
            index: Some(index),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            write!(f, "{parent}.")?;
        }
        f.write_str(self.field)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

struct Cx<'a> {
    /// The grammar text, when there is one, to turn spans into line numbers in hints.
    src: Option<&'a str>,
    errors: Vec<Diagnostic>,
}

impl Cx<'_> {
    /// "at line N" for a span when the text is known, else "earlier".
    fn where_is(&self, span: Option<Span>) -> String {
        match (self.src, span) {
            (Some(src), Some(s)) => format!("at line {}", line_col(src, s.start).line),
            _ => "earlier".to_owned(),
        }
    }

    fn error(&mut self, message: String, location: Location, hint: Option<String>) {
        self.errors.push(Diagnostic {
            severity: Severity::Error,
            message,
            location,
            hint,
        });
    }
}

/// The largest radius or margin of a geometric derivation, in drawing units.
const MAX_LENGTH: f64 = 1e6;

/// The `geometric` settings: not with a grid, declared tags, radii above 0
/// with min ≤ max, a finite margin of at least 0 (the text parser checks
/// the numbers too; the JSON form needs it here).
fn check_geometry(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    settings: &crate::settings::GeometrySettings,
    grammar: &Grammar,
) {
    // The text form checks the numbers as it reads them, so only the JSON
    // form reaches most of these, and those are located by field path.
    let spans = &grammar.spans;
    let at = |field: &str| spans.locate(&["geometric"], &format!("geometry.{field}"));
    if grammar.grid.is_some() {
        cx.error(
            "a grid grammar cannot be `geometric`".into(),
            spans.locate(&["geometric", "grid"], "geometry"),
            Some("grid vertices are drawn at their cells; remove `geometric` or `grid`".into()),
        );
    }
    // Above a million units, distances between rooms would overflow to
    // infinity in the self-intersection test.
    let range_ok = |[lo, hi]: [f64; 2]| lo > 0.0 && lo <= hi && hi <= MAX_LENGTH;
    if !range_ok(settings.room_radius) {
        cx.error(
            format!(
                "room_radius {}..{} is not a range of radii from above 0 to 1000000",
                settings.room_radius[0], settings.room_radius[1]
            ),
            at("room_radius"),
            None,
        );
    }
    for (tag, &range) in &settings.tag_radius {
        let tag_at = spans.locate(
            &[&format!("radius {tag}"), "geometric"],
            "geometry.tag_radius",
        );
        resolve_tag(cx, tags, tag, &tag_at);
        if !range_ok(range) {
            cx.error(
                format!(
                    "radius {}..{} of tag `{tag}` is not a range of radii from above 0 to 1000000",
                    range[0], range[1]
                ),
                at("tag_radius"),
                None,
            );
        }
    }
    if !(settings.margin >= 0.0 && settings.margin <= MAX_LENGTH) {
        cx.error(
            format!(
                "margin {} must be a number from 0 to 1000000",
                settings.margin
            ),
            at("margin"),
            None,
        );
    }
}

/// What a name of a `rooms` block stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RoomName {
    /// The inline template of this index.
    Template(usize),
    /// The set of this index.
    Set(usize),
}

impl RoomName {
    fn kind(self) -> &'static str {
        match self {
            RoomName::Template(_) => "template",
            RoomName::Set(_) => "set",
        }
    }
}

/// The `rooms` block: every inline template builds, template and set names
/// are unique, every member names a template or set (or, with a `load`,
/// may name a loaded one), no set contains itself, `use` lines name
/// declared tags once each, there is a `use` line, and corridor templates
/// have two doors. Files are not read here: loaded names are resolved when
/// the layout reads them.
fn check_rooms(cx: &mut Cx<'_>, tags: &Symbols, rooms: &model::RoomsSpec) {
    let block = Path::field("rooms");
    // A setting's own line in the text, else the block's.
    let setting = |key: &str| rooms.setting_spans.get(key).or(rooms.span);
    let mut block_door_ok = true;
    if let Some(d) = rooms.door {
        if d.length == 0 {
            block_door_ok = false;
            cx.error(
                "door length must be at least 1".into(),
                cx_loc(setting("door"), block.child("door")),
                None,
            );
        }
    }
    for (k, path) in rooms.load.iter().enumerate() {
        if path.trim().is_empty() {
            cx.error(
                "`load` needs a file or folder name".into(),
                cx_loc(setting(&format!("load {k}")), block.item("load", k)),
                Some("write `load \"rooms\"`, relative to the grammar file".into()),
            );
        }
    }

    // Names: inline templates and sets share one namespace.
    let mut names: BTreeMap<&str, RoomName> = BTreeMap::new();
    let mut declared: Vec<(&str, Option<Span>, RoomName)> = rooms
        .templates
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), t.span, RoomName::Template(i)))
        .chain(
            rooms
                .sets
                .iter()
                .enumerate()
                .map(|(i, s)| (s.name.as_str(), s.span, RoomName::Set(i))),
        )
        .collect();
    // In text order, so that "the first" is the one written first (JSON:
    // templates, then sets).
    declared.sort_by_key(|&(_, span, _)| span.map(|s| s.start));
    for (name, span, what) in declared {
        let at = match what {
            RoomName::Template(i) => cx_loc(span, block.item("templates", i)),
            RoomName::Set(i) => cx_loc(span, block.item("sets", i)),
        };
        if name.trim().is_empty() {
            cx.error(format!("a {} needs a name", what.kind()), at, None);
            continue;
        }
        if name.contains('/') {
            cx.error(
                format!("{} name `{name}` contains `/`", what.kind()),
                at.clone(),
                Some(
                    "`/` joins a loaded room set and one of its templates (`set/room`); choose another name"
                        .into(),
                ),
            );
        }
        if let Some(&first) = names.get(name) {
            let first_span = match first {
                RoomName::Template(i) => rooms.templates[i].span,
                RoomName::Set(i) => rooms.sets[i].span,
            };
            let hint = format!(
                "the first `{name}`, a {}, is {}; templates and sets need different names",
                first.kind(),
                cx.where_is(first_span)
            );
            cx.error(
                format!("{} `{name}` is declared twice", what.kind()),
                at,
                Some(hint),
            );
            continue;
        }
        names.insert(name, what);
    }

    // Inline templates.
    for (i, t) in rooms.templates.iter().enumerate() {
        let at = block.item("templates", i);
        if t.door.is_some() && !t.doors.is_empty() {
            cx.error(
                format!("template `{}` has both `door` and `doors`", t.name),
                cx_loc(t.span, at.child("doors")),
                Some(
                    "`doors` lists where its doors are; `door LENGTH corner DISTANCE` lets them be anywhere on a side; keep one"
                        .into(),
                ),
            );
            continue;
        }
        if t.door.is_none() && t.doors.is_empty() && !block_door_ok {
            continue; // the block's door is reported above
        }
        if let Err(e) = t.build(rooms.door) {
            let (field, hint) = match &e {
                crate::layout::TemplateError::Outline { .. } => (
                    "outline",
                    "an outline lists an orthogonal polygon's corners in order, e.g. `(0,0) (4,0) (4,4) (0,4)`",
                ),
                crate::layout::TemplateError::Doors { .. } if !t.doors.is_empty() => (
                    "doors",
                    "each door is a segment `(x,y) (x,y)` on one side of the outline",
                ),
                crate::layout::TemplateError::Doors { .. } => (
                    "door",
                    "`door LENGTH corner DISTANCE` needs a side at least LENGTH + 2 × DISTANCE long",
                ),
            };
            cx.error(
                e.to_string(),
                cx_loc(t.span, at.child(field)),
                Some(hint.into()),
            );
        }
    }

    // Members of sets, uses and corridors.
    let loads = !rooms.load.is_empty();
    let known_hint = || {
        if names.is_empty() {
            "the block declares no template or set: add `template NAME (x,y) …`, or `load` an Edgar room set"
                .to_owned()
        } else {
            let list: Vec<String> = names.keys().map(|n| format!("`{n}`")).collect();
            format!(
                "the templates and sets are {}; a name from an Edgar room set needs a `load`",
                list.join(", ")
            )
        }
    };
    let check_members = |cx: &mut Cx<'_>, members: &[String], at: &Location| {
        for m in members {
            if !names.contains_key(m.as_str()) && !loads {
                cx.error(
                    format!("unknown template or set `{m}`"),
                    at.clone(),
                    Some(known_hint()),
                );
            }
        }
    };
    for (i, set) in rooms.sets.iter().enumerate() {
        let at = cx_loc(set.span, block.item("sets", i));
        if set.members.is_empty() {
            cx.error(format!("set `{}` has no members", set.name), at, None);
            continue;
        }
        check_members(cx, &set.members, &at);
    }
    for (i, u) in rooms.uses.iter().enumerate() {
        let at = cx_loc(u.span, block.item("uses", i));
        if u.members.is_empty() {
            cx.error(
                "a `use` line names no template or set".into(),
                at.clone(),
                None,
            );
        }
        check_members(cx, &u.members, &at);
    }
    for (k, c) in rooms.corridors.iter().enumerate() {
        check_members(
            cx,
            std::slice::from_ref(c),
            &cx_loc(setting("corridors"), block.item("corridors", k)),
        );
    }

    // Sets must not contain themselves.
    let set_members = |s: usize| {
        rooms.sets[s]
            .members
            .iter()
            .filter_map(|m| match names.get(m.as_str()) {
                Some(&RoomName::Set(j)) => Some(j),
                _ => None,
            })
    };
    let mut in_reported_cycle = vec![false; rooms.sets.len()];
    for start in 0..rooms.sets.len() {
        if in_reported_cycle[start]
            || names.get(rooms.sets[start].name.as_str()) != Some(&RoomName::Set(start))
        {
            continue;
        }
        // Depth-first search for a path start → … → start.
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, set_members(start).collect())];
        let mut visited = vec![false; rooms.sets.len()];
        let mut cycle = None;
        while let Some((_, next)) = stack.last_mut() {
            let Some(j) = next.pop() else {
                stack.pop();
                continue;
            };
            if j == start {
                let mut path: Vec<usize> = stack.iter().map(|&(s, _)| s).collect();
                path.push(start);
                cycle = Some(path);
                break;
            }
            if !visited[j] {
                visited[j] = true;
                stack.push((j, set_members(j).collect()));
            }
        }
        if let Some(path) = cycle {
            path.iter().for_each(|&s| in_reported_cycle[s] = true);
            let names: Vec<&str> = path.iter().map(|&s| rooms.sets[s].name.as_str()).collect();
            let set = &rooms.sets[start];
            let message = if path.len() == 2 {
                format!("set `{}` contains itself", set.name)
            } else {
                format!("set `{}` contains itself: {}", set.name, names.join(" → "))
            };
            cx.error(
                message,
                cx_loc(set.span, block.item("sets", start)),
                Some("a set may contain other sets, but not in a cycle".into()),
            );
        }
    }

    // Uses: declared tags, each in one line; `*` once.
    if rooms.uses.is_empty() {
        cx.error(
            "a rooms block needs a `use` line: which templates do rooms of each tag use?".into(),
            cx_loc(rooms.span, block.child("uses")),
            Some("`use *: NAME` gives rooms of every tag the templates of NAME".into()),
        );
    }
    let mut first_use: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, u) in rooms.uses.iter().enumerate() {
        let at = cx_loc(u.span, block.item("uses", i));
        if u.tags.is_empty() {
            cx.error("a `use` line names no tag".into(), at.clone(), None);
        }
        for tag in &u.tags {
            if tag != WILDCARD && resolve_tag(cx, tags, tag, &at).is_none() {
                continue;
            }
            match first_use.get(tag.as_str()) {
                None => {
                    first_use.insert(tag, i);
                }
                Some(&j) if j == i => cx.error(
                    format!("tag `{tag}` is named twice in one `use` line"),
                    at.clone(),
                    None,
                ),
                Some(&j) => {
                    let first = cx.where_is(rooms.uses[j].span);
                    if tag == WILDCARD {
                        cx.error(
                            "`use *` is written twice".into(),
                            at.clone(),
                            Some(format!(
                                "the first is {first}; `*` stands for every tag no other `use` names, once"
                            )),
                        );
                    } else {
                        cx.error(
                            format!("tag `{tag}` is in two `use` lines"),
                            at.clone(),
                            Some(format!(
                                "the first is {first}; list all its templates in one line"
                            )),
                        );
                    }
                }
            }
        }
    }

    if rooms.min_distance > model::RoomsSpec::MAX_MIN_DISTANCE {
        cx.error(
            format!("min_distance {} is out of range", rooms.min_distance),
            cx_loc(setting("min_distance"), block.child("min_distance")),
            Some(format!(
                "grid units between rooms that no edge joins: 0 to {}",
                model::RoomsSpec::MAX_MIN_DISTANCE
            )),
        );
    }

    // Tile map: the scale and the fills by tag, each tag in one `fill` line.
    if let Some(scale) = rooms.tile_scale {
        if !(1..=64).contains(&scale) {
            cx.error(
                format!("tile_scale {scale} is out of range"),
                cx_loc(setting("tile_scale"), block.child("tile_scale")),
                Some("tiles per grid unit: 1 to 64".into()),
            );
        }
    }
    if let Some(retries) = rooms.retries {
        if retries > model::RoomsSpec::MAX_RETRIES {
            cx.error(
                format!("retries {retries} is out of range"),
                cx_loc(setting("retries"), block.child("retries")),
                Some(format!(
                    "more levels derived when one cannot be laid out: 0 to {}",
                    model::RoomsSpec::MAX_RETRIES
                )),
            );
        }
    }
    let mut first_fill: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, f) in rooms.fills.iter().enumerate() {
        let at = cx_loc(f.span, block.item("fills", i));
        if f.tags.is_empty() {
            cx.error("a `fill` line names no tag".into(), at.clone(), None);
        }
        for tag in &f.tags {
            if resolve_tag(cx, tags, tag, &at).is_none() {
                continue;
            }
            if let Some(&j) = first_fill.get(tag.as_str()) {
                let first = cx.where_is(rooms.fills[j].span);
                cx.error(
                    format!("tag `{tag}` is in two `fill` lines"),
                    at.clone(),
                    Some(format!("the first is {first}; a room has one fill")),
                );
            } else {
                first_fill.insert(tag, i);
            }
        }
    }

    // Corridor templates: inline ones need exactly two `doors`.
    let mut corridor_templates = BTreeSet::new();
    let mut todo: Vec<&str> = rooms.corridors.iter().map(String::as_str).collect();
    let mut seen_sets = vec![false; rooms.sets.len()];
    while let Some(name) = todo.pop() {
        match names.get(name) {
            Some(&RoomName::Template(i)) => {
                corridor_templates.insert(i);
            }
            Some(&RoomName::Set(j)) if !seen_sets[j] => {
                seen_sets[j] = true;
                todo.extend(rooms.sets[j].members.iter().map(String::as_str));
            }
            _ => {}
        }
    }
    for i in corridor_templates {
        let t = &rooms.templates[i];
        if t.doors.len() != 2 {
            cx.error(
                format!(
                    "corridor template `{}` needs exactly two `doors`, it has {}",
                    t.name,
                    t.doors.len()
                ),
                cx_loc(t.span, block.item("templates", i).child("doors")),
                Some(
                    "a corridor joins two rooms through its two doors: `doors (x,y) (x,y), (x,y) (x,y)`"
                        .into(),
                ),
            );
        }
    }
}

fn resolve_tag(cx: &mut Cx<'_>, tags: &Symbols, name: &str, at: &Location) -> Option<Symbol> {
    let sym = tags.get(name);
    if sym.is_none() {
        cx.error(
            format!("unknown tag `{name}`"),
            at.clone(),
            Some(format!(
                "declare it in the `tags` block: `{name} \"description\" #rrggbb`"
            )),
        );
    }
    sym
}

/// Indexes a side's vertex names; reports duplicates (possible only in JSON).
fn name_index<'a>(
    cx: &mut Cx<'_>,
    names: impl Iterator<Item = (&'a str, Option<Span>)>,
    path: Path<'_>,
) -> BTreeMap<&'a str, usize> {
    let mut index = BTreeMap::new();
    for (k, (name, span)) in names.enumerate() {
        if index.insert(name, k).is_some() {
            cx.error(
                format!("vertex `{name}` appears twice on one side"),
                cx_loc(span, path.item("vertices", k)),
                None,
            );
        }
    }
    index
}

/// `{length: F}` belongs to edges a rule adds: an error on a pattern or
/// condition edge.
fn reject_lengths(cx: &mut Cx<'_>, edges: &[RuleEdge], path: Path<'_>, side: &str) {
    for (k, e) in edges.iter().enumerate() {
        if e.length.is_some() {
            cx.error(
                format!("an edge of a {side} cannot have a length"),
                cx_loc(e.span, path.item("edges", k)),
                Some(
                    "`{length: F}` belongs on the right-hand side, on an edge the rule adds".into(),
                ),
            );
        }
    }
}

/// What makes two rule edges the same ([`model::same_edge`]): kind,
/// label and ends, the ends of an undirected edge in either order.
type EdgeKey<'e> = (bool, bool, Option<&'e str>, (&'e str, &'e str));

/// The [`EdgeKey`] of `e`: equal keys exactly for edges that
/// [`model::same_edge`] calls the same, so sides of thousands of edges are
/// compared in a map instead of pair by pair.
fn edge_key(e: &RuleEdge) -> EdgeKey<'_> {
    let (a, b) = (e.source.as_str(), e.target.as_str());
    let ends = if e.directed || a <= b { (a, b) } else { (b, a) };
    (e.directed, e.cosmetic, e.label.as_deref(), ends)
}

fn resolve_edges(
    cx: &mut Cx<'_>,
    edges: &[RuleEdge],
    index: &BTreeMap<&str, usize>,
    labels: &mut Symbols,
    path: Path<'_>,
) -> Vec<Option<(usize, usize, Option<Symbol>)>> {
    let mut seen: BTreeSet<EdgeKey<'_>> = BTreeSet::new();
    edges
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let at = cx_loc(e.span, path.item("edges", k));
            let ends = (index.get(e.source.as_str()), index.get(e.target.as_str()));
            let (Some(&a), Some(&b)) = ends else {
                let missing = if ends.0.is_none() {
                    &e.source
                } else {
                    &e.target
                };
                cx.error(
                    format!("edge names vertex `{missing}`, which is not on this side"),
                    at,
                    None,
                );
                return None;
            };
            if e.length.is_some_and(|f| !(f.is_finite() && f > 0.0)) {
                cx.error(
                    format!("edge length {} must be a number greater than 0", e.length.unwrap_or(0.0)),
                    at.clone(),
                    None,
                );
            }
            if a == b {
                cx.error(
                    format!("edge from vertex `{}` to itself", e.source),
                    at,
                    Some("levels have no corridors from a room to itself".into()),
                );
                return None;
            }
            // A host never holds two identical edges, so a pattern that
            // needs two could never match; on the right it would be a no-op.
            if !seen.insert(edge_key(e)) {
                cx.error(
                    format!(
                        "edge between `{}` and `{}` is written twice on this side",
                        e.source, e.target
                    ),
                    at,
                    Some(
                        "a host graph never has two identical edges; use a label to tell edges apart"
                            .into(),
                    ),
                );
                return None;
            }
            Some((a, b, e.label.as_deref().map(|l| labels.intern(l))))
        })
        .collect()
}

/// A rule is a grid rule when its pattern vertices have offsets `@dx,dy`:
/// then all must, and no two may share one. Returns the offsets in pattern
/// order. `orient any` and `mirror` need offsets.
fn grid_offsets(cx: &mut Cx<'_>, rule: &model::Rule, rule_at: &Location) -> Option<Vec<[i32; 2]>> {
    let with: Vec<[i32; 2]> = rule.lhs.vertices.iter().filter_map(|v| v.offset).collect();
    if with.is_empty() {
        if rule.orient_any || rule.mirror {
            cx.error(
                format!(
                    "rule `{}`: `orient any` and `mirror` need grid offsets",
                    rule.name
                ),
                rule_at.clone(),
                Some(
                    "give every pattern vertex an offset, e.g. `(a:room @0,0) -- (b:room @1,0)`"
                        .into(),
                ),
            );
        }
        return None;
    }
    if with.len() < rule.lhs.vertices.len() {
        let missing = rule
            .lhs
            .vertices
            .iter()
            .find(|v| v.offset.is_none())
            .expect("one lacks");
        cx.error(
            format!(
                "grid rule `{}`: pattern vertex `{}` has no offset",
                rule.name, missing.name
            ),
            cx_loc(missing.span, Path::field("lhs")),
            Some("in a grid rule every pattern vertex has an offset `@dx,dy`".into()),
        );
        return None;
    }
    for (k, o) in with.iter().enumerate() {
        if with[..k].contains(o) {
            cx.error(
                format!(
                    "grid rule `{}`: two pattern vertices share offset @{},{}",
                    rule.name, o[0], o[1]
                ),
                rule_at.clone(),
                Some("each grid cell holds one vertex".into()),
            );
            return None;
        }
    }
    Some(with)
}

/// Refuses grid offsets beyond ±[`MAX_OFFSET`] on either side of `rule`
/// (the text parser already does; a JSON grammar could give any `i32`,
/// and an offset of `i32::MIN` cannot even be turned).
fn offsets_in_range(cx: &mut Cx<'_>, rule: &model::Rule, rule_path: &Path<'_>) {
    let far = |o: Option<[i32; 2]>| {
        o.is_some_and(|o| {
            o.iter()
                .any(|c| c.unsigned_abs() > MAX_OFFSET.unsigned_abs())
        })
    };
    let lhs = rule_path.child("lhs");
    let pattern = rule
        .lhs
        .vertices
        .iter()
        .map(|v| (v.offset, v.span, &v.name));
    for (j, (offset, span, name)) in pattern.enumerate() {
        if far(offset) {
            let o = offset.expect("far");
            cx.error(
                format!(
                    "rule `{}`: vertex `{name}` has offset @{},{}, beyond ±{MAX_OFFSET}",
                    rule.name, o[0], o[1]
                ),
                cx_loc(span, lhs.item("vertices", j)),
                None,
            );
        }
    }
    for (ai, alt) in rule.rhs.iter().enumerate() {
        let rhs = rule_path.item("rhs", ai);
        for (j, v) in alt.vertices.iter().enumerate() {
            if far(v.offset) {
                let o = v.offset.expect("far");
                cx.error(
                    format!(
                        "rule `{}`: vertex `{}` has offset @{},{}, beyond ±{MAX_OFFSET}",
                        rule.name, v.name, o[0], o[1]
                    ),
                    cx_loc(v.span, rhs.item("vertices", j)),
                    None,
                );
            }
        }
    }
}

/// The orientations a grid rule is tried in: 0 (as written), with
/// `orient any` also 1..3 (turned 90°, 180°, 270°), with `mirror` the
/// mirror image of each (4..7).
fn transforms(rule: &model::Rule) -> Vec<u8> {
    let turns: &[u8] = if rule.orient_any { &[0, 1, 2, 3] } else { &[0] };
    let mut out: Vec<u8> = turns.to_vec();
    if rule.mirror {
        out.extend(turns.iter().map(|t| t + 4));
    }
    out
}

/// Offsets of the vertices an alternative creates (grid rules), checking
/// that kept vertices stay in their cells and no two vertices share a cell.
fn alternative_offsets(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    alt: &model::Alternative,
    lhs_index: &BTreeMap<&str, usize>,
    path: Path<'_>,
) -> Vec<[i32; 2]> {
    let grid =
        rule.lhs.vertices.iter().all(|v| v.offset.is_some()) && !rule.lhs.vertices.is_empty();
    let mut used: Vec<[i32; 2]> = rule.lhs.vertices.iter().filter_map(|v| v.offset).collect();
    let mut out = Vec::new();
    for (k, v) in alt.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        match lhs_index.get(v.name.as_str()) {
            Some(&i) => {
                if v.offset.is_some() && v.offset != rule.lhs.vertices[i].offset {
                    cx.error(
                        format!(
                            "vertex `{}` keeps its cell; its offset cannot change",
                            v.name
                        ),
                        at,
                        Some(format!("write `({})` or repeat its pattern offset", v.name)),
                    );
                }
            }
            None if !grid => {
                if v.offset.is_some() {
                    cx.error(
                        format!(
                            "vertex `{}` has an offset, but rule `{}` is not a grid rule",
                            v.name, rule.name
                        ),
                        at,
                        Some(
                            "give every pattern vertex an offset `@dx,dy` to make a grid rule"
                                .into(),
                        ),
                    );
                }
            }
            None => match v.offset {
                None => cx.error(
                    format!(
                        "new vertex `{}` of grid rule `{}` needs an offset",
                        v.name, rule.name
                    ),
                    at,
                    Some(format!("write `({}:tag @dx,dy)`", v.name)),
                ),
                Some(o) if used.contains(&o) => cx.error(
                    format!(
                        "new vertex `{}` takes offset @{},{}, which another vertex has",
                        v.name, o[0], o[1]
                    ),
                    at,
                    Some("each grid cell holds one vertex".into()),
                ),
                Some(o) => {
                    used.push(o);
                    out.push(o);
                }
            },
        }
    }
    out
}

/// Resolves `(child) in (parent)` pairs against a side's names. Errors:
/// a name not on the side, a vertex in itself, a vertex in two parents,
/// a cycle.
fn resolve_inside(
    cx: &mut Cx<'_>,
    inside: &[model::Containment],
    index: &BTreeMap<&str, usize>,
    path: Path<'_>,
) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    // Where each pair of `out` was written.
    let mut written: Vec<(Option<Span>, usize)> = Vec::new();
    for (k, c) in inside.iter().enumerate() {
        let at = cx_loc(c.span, path.item("inside", k));
        let (Some(&child), Some(&parent)) =
            (index.get(c.child.as_str()), index.get(c.parent.as_str()))
        else {
            let missing = if index.contains_key(c.child.as_str()) {
                &c.parent
            } else {
                &c.child
            };
            cx.error(
                format!("`in` names vertex `{missing}`, which is not on this side"),
                at,
                None,
            );
            continue;
        };
        if child == parent {
            cx.error(
                format!("vertex `{}` cannot be stored in itself", c.child),
                at,
                None,
            );
            continue;
        }
        if out.iter().any(|&(ch, p)| ch == child && p != parent) {
            cx.error(
                format!("vertex `{}` is stored in two vertices on one side", c.child),
                at,
                Some("a vertex is stored in at most one other".into()),
            );
            continue;
        }
        if !out.contains(&(child, parent)) {
            out.push((child, parent));
            written.push((c.span, k));
        }
    }
    // No cycle: following parents from any vertex must end.
    for (&(start, _), &(span, k)) in out.iter().zip(&written) {
        let mut at = start;
        for _ in 0..=out.len() {
            match out.iter().find(|&&(ch, _)| ch == at) {
                Some(&(_, p)) if p == start => {
                    cx.error(
                        "containment on this side puts a vertex inside itself".into(),
                        cx_loc(span, path.item("inside", k)),
                        None,
                    );
                    return out;
                }
                Some(&(_, p)) => at = p,
                None => break,
            }
        }
    }
    out
}

/// Pattern vertices of a pattern or `where not` side. With `bare_ok`, a
/// vertex without tags is accepted (a `where not` reference to a pattern
/// vertex; the caller handles it) and compiled as `*`.
fn compile_pattern_vertices<'v>(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    vertices: impl ExactSizeIterator<Item = &'v model::PatternVertex>,
    path: Path<'_>,
    bare_ok: bool,
) -> Vec<PatternVertex> {
    let mut out = Vec::with_capacity(vertices.len());
    for (k, v) in vertices.enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let test = if v.tags.is_empty() {
            if !bare_ok {
                cx.error(
                    format!("pattern vertex `{}` has no tag", v.name),
                    at.clone(),
                    Some(format!("write `({}:*)` to match any tag", v.name)),
                );
            }
            TagTest::Any
        } else if v.tags.iter().any(|t| t == WILDCARD) {
            if v.tags.len() > 1 {
                cx.error(
                    "`*` cannot be combined with other tags".into(),
                    at.clone(),
                    None,
                );
            }
            TagTest::Any
        } else {
            let mut set: Vec<Symbol> = v
                .tags
                .iter()
                .filter_map(|t| resolve_tag(cx, tags, t, &at))
                .collect();
            set.sort_unstable();
            set.dedup();
            TagTest::OneOf(set)
        };
        let mut forbidden: Vec<Symbol> = v
            .forbidden
            .iter()
            .filter_map(|t| resolve_tag(cx, tags, t, &at))
            .collect();
        forbidden.sort_unstable();
        forbidden.dedup();
        out.push(PatternVertex {
            tags: test,
            forbidden,
            attributes: v
                .attributes
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            valence: v.valence,
        });
    }
    out
}

fn pattern_edges(
    edges: &[RuleEdge],
    resolved: &[Option<(usize, usize, Option<Symbol>)>],
) -> Vec<PatternEdge> {
    edges
        .iter()
        .zip(resolved)
        .map(|(e, r)| {
            let (a, b, label) = r.expect("resolved");
            PatternEdge {
                source: a,
                target: b,
                directed: e.directed,
                cosmetic: e.cosmetic,
                label,
            }
        })
        .collect()
}

/// The most vertices a pattern, or a `where not` condition, may have: a
/// pattern builds a search plan from each of its vertices (quadratic
/// each), and a 1,000-vertex chain took 5.5 s to load, 5,000 over 20 s.
pub const MAX_PATTERN_VERTICES: usize = 256;

fn compile_rule(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    groups: &BTreeMap<&str, usize>,
    rule: &model::Rule,
    ri: usize,
    geometric: bool,
) -> Option<CompiledRule> {
    let errors_before = cx.errors.len();
    let rule_path = Path::root("rules", ri);
    let lhs_path = rule_path.child("lhs");
    let rule_at = cx_loc(rule.span, rule_path);
    if rule.lhs.vertices.is_empty() {
        cx.error(
            format!("rule `{}` has an empty pattern", rule.name),
            rule_at.clone(),
            None,
        );
    }
    offsets_in_range(cx, rule, &rule_path);
    let sides = std::iter::once((&rule.lhs, "pattern", lhs_path)).chain(
        rule.where_not.iter().enumerate().map(|(n, side)| {
            (
                side,
                "`where not` condition",
                rule_path.item("where_not", n),
            )
        }),
    );
    for (side, what, path) in sides {
        if side.vertices.len() > MAX_PATTERN_VERTICES {
            cx.error(
                format!(
                    "rule `{}` has a {what} of {} vertices, more than {MAX_PATTERN_VERTICES}",
                    rule.name,
                    side.vertices.len()
                ),
                cx_loc(rule.span, path),
                Some(
                    "a pattern gets a search plan from each of its vertices, so its cost \
                     grows with the cube of its size; split the rule"
                        .into(),
                ),
            );
        }
    }
    if !(rule.probability > 0.0 && rule.probability <= 1.0) {
        cx.error(
            format!(
                "rule `{}` has probability {}; it must be greater than 0 and at most 1",
                rule.name, rule.probability
            ),
            rule_at.clone(),
            None,
        );
    }
    let group = rule.group.as_deref().and_then(|g| match groups.get(g) {
        Some(&gi) => Some(gi),
        None => {
            cx.error(
                format!(
                    "rule `{}` names group `{g}`, which is not declared",
                    rule.name
                ),
                rule_at.clone(),
                Some(format!("declare it: `group {g} max_uses N`")),
            );
            None
        }
    });
    let lhs_index = name_index(
        cx,
        rule.lhs.vertices.iter().map(|v| (v.name.as_str(), v.span)),
        lhs_path,
    );
    let pattern_vertices =
        compile_pattern_vertices(cx, tags, rule.lhs.vertices.iter(), lhs_path, false);
    let lhs_edges = resolve_edges(cx, &rule.lhs.edges, &lhs_index, labels, lhs_path);
    reject_lengths(cx, &rule.lhs.edges, lhs_path, "pattern");
    let lhs_inside = resolve_inside(cx, &rule.lhs.inside, &lhs_index, lhs_path);

    let nacs: Vec<Nac> = rule
        .where_not
        .iter()
        .enumerate()
        .filter_map(|(n, nac)| {
            compile_nac(
                cx,
                tags,
                labels,
                rule,
                &lhs_index,
                nac,
                rule_path.item("where_not", n),
            )
        })
        .collect();

    if rule.rhs.is_empty() {
        cx.error(
            format!("rule `{}` has no right-hand side", rule.name),
            rule_at.clone(),
            Some("write `=> replacement` after the pattern".into()),
        );
    }
    let mut alternatives: Vec<CompiledAlternative> = rule
        .rhs
        .iter()
        .enumerate()
        .filter_map(|(ai, alt)| {
            compile_alternative(
                cx,
                tags,
                labels,
                rule,
                alt,
                (&lhs_index, &lhs_inside),
                rule_path.item("rhs", ai),
            )
        })
        .collect();
    if cx.errors.len() > errors_before {
        return None;
    }
    let grid = grid_offsets(cx, rule, &rule_at);
    let mut pattern = Pattern::new(pattern_vertices, pattern_edges(&rule.lhs.edges, &lhs_edges))
        .with_inside(lhs_inside)
        .with_conditions(rule.induced, nacs);
    let mut drawing = None;
    match grid {
        // A geometric grammar has no cells: offsets are where the rule's
        // vertices sit in its own drawing (grammar language, section 17.3).
        Some(offsets) if geometric => {
            if rule.orient_any || rule.mirror {
                cx.error(
                    format!(
                        "rule `{}`: `orient any` and `mirror` belong to grid rules, not to a geometric grammar",
                        rule.name
                    ),
                    rule_at.clone(),
                    Some("a geometric rule is placed in every rotation already; flipped matches are never applied".into()),
                );
            }
            let fresh = alternatives
                .iter_mut()
                .map(|a| std::mem::take(&mut a.fresh_offsets))
                .collect();
            drawing = Some((offsets, fresh));
        }
        Some(offsets) => pattern = pattern.with_grid(offsets, transforms(rule)),
        None => {}
    }
    Some(CompiledRule {
        drawing,
        name: rule.name.as_str().into(),
        weight: rule.weight,
        max_uses: rule.max_uses,
        probability: rule.probability,
        no_repeat: rule.no_repeat,
        priority: rule.priority,
        group,
        pattern,
        min_vertex_delta: alternatives
            .iter()
            .map(|a| a.vertex_delta)
            .min()
            .unwrap_or(0),
        alternatives,
    })
}

/// A `where not` condition: the pattern's vertices (bound to the match)
/// followed by the condition's own vertices.
fn compile_nac(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    rule: &model::Rule,
    lhs_index: &BTreeMap<&str, usize>,
    nac: &model::Side<model::PatternVertex>,
    path: Path<'_>,
) -> Option<Nac> {
    let errors_before = cx.errors.len();
    let mut own: Vec<&model::PatternVertex> = Vec::new();
    for (k, v) in nac.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let refers = lhs_index.contains_key(v.name.as_str());
        if v.offset.is_some() {
            cx.error(
                format!("`where not` vertex `{}` cannot have a grid offset", v.name),
                at.clone(),
                Some("conditions are matched by edges, not by grid cells".into()),
            );
        }
        if refers {
            if !v.tags.is_empty()
                || !v.forbidden.is_empty()
                || v.valence.is_some()
                || !v.attributes.is_empty()
            {
                cx.error(
                    format!(
                        "in `where not`, `{}` is the pattern's vertex; it takes no tags here",
                        v.name
                    ),
                    at,
                    Some(format!(
                        "write just `({})`; its tags come from the pattern",
                        v.name
                    )),
                );
            }
        } else if v.tags.is_empty() {
            cx.error(
                format!(
                    "`where not` vertex `{}` is not in the pattern and has no tag",
                    v.name
                ),
                at,
                Some(format!(
                    "give it a tag set, `({}:lock)`, or name a pattern vertex",
                    v.name
                )),
            );
        } else if !v.forbidden.is_empty() {
            cx.error(
                format!("`where not` vertex `{}` cannot have forbidden tags", v.name),
                at,
                Some("state what must be absent as a vertex of the condition instead".into()),
            );
        } else {
            own.push(v);
        }
    }
    // Index: pattern vertices first (in pattern order), then the condition's own.
    let mut index: BTreeMap<&str, usize> = lhs_index.clone();
    let bound = rule.lhs.vertices.len();
    for (k, v) in own.iter().enumerate() {
        index.insert(v.name.as_str(), bound + k);
    }
    let own_vertices = compile_pattern_vertices(cx, tags, own.iter().copied(), path, false);
    let resolved = resolve_edges(cx, &nac.edges, &index, labels, path);
    reject_lengths(cx, &nac.edges, path, "`where not` condition");
    let inside = resolve_inside(cx, &nac.inside, &index, path);
    if cx.errors.len() > errors_before {
        return None;
    }
    let mut vertices: Vec<PatternVertex> = (0..bound)
        .map(|_| PatternVertex {
            tags: TagTest::Any,
            forbidden: Vec::new(),
            attributes: Vec::new(),
            valence: None,
        })
        .collect();
    vertices.extend(own_vertices);
    Some(Nac::new(
        vertices,
        pattern_edges(&nac.edges, &resolved),
        bound,
        inside,
    ))
}

/// The rewriting plan of one right-hand alternative.
fn compile_alternative(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    rule: &model::Rule,
    alt: &model::Alternative,
    (lhs_index, lhs_inside): (&BTreeMap<&str, usize>, &[(usize, usize)]),
    path: Path<'_>,
) -> Option<CompiledAlternative> {
    let errors_before = cx.errors.len();
    let at_alt = cx_loc(alt.span.or(rule.span), path);
    if !(alt.weight > 0.0 && alt.weight.is_finite()) {
        cx.error(
            format!(
                "an alternative of rule `{}` has weight {}; it must be greater than 0",
                rule.name, alt.weight
            ),
            at_alt.clone(),
            None,
        );
    }
    if alt.vertices.is_empty() {
        cx.error(
            format!("rule `{}` has an empty right-hand side", rule.name),
            at_alt,
            Some("a rule keeps, retags or creates at least one vertex".into()),
        );
    }
    let rhs_index = name_index(
        cx,
        alt.vertices.iter().map(|v| (v.name.as_str(), v.span)),
        path,
    );
    let n = rule.lhs.vertices.len();
    let mut retag = vec![None; n];
    let mut set_attributes = vec![Vec::new(); n];
    let mut fresh = Vec::new();
    let mut rhs_end = Vec::new();
    for (k, v) in alt.vertices.iter().enumerate() {
        let at = cx_loc(v.span, path.item("vertices", k));
        let tag = v.tag.as_deref().and_then(|t| {
            if t == WILDCARD {
                cx.error(
                    format!("replacement vertex `{}` cannot have tag `*`", v.name),
                    at.clone(),
                    Some(format!("write `({})` to keep the host tag", v.name)),
                );
                None
            } else {
                resolve_tag(cx, tags, t, &at)
            }
        });
        let attrs: Vec<(String, String)> = v
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        match lhs_index.get(v.name.as_str()) {
            Some(&i) => {
                retag[i] = tag;
                set_attributes[i] = attrs;
                rhs_end.push(End::Kept(i));
            }
            None => {
                if v.tag.is_none() {
                    cx.error(
                        format!(
                            "replacement vertex `{}` is not in the pattern and has no tag",
                            v.name
                        ),
                        at,
                        Some(format!(
                            "give the new vertex a tag, `({}:room)`, or name a pattern vertex",
                            v.name
                        )),
                    );
                }
                rhs_end.push(End::Fresh(fresh.len()));
                fresh.push((tag.unwrap_or(Symbol(0)), attrs));
            }
        }
    }
    let deleted: Vec<usize> = rule
        .lhs
        .vertices
        .iter()
        .enumerate()
        .filter(|(_, v)| !rhs_index.contains_key(v.name.as_str()))
        .map(|(i, _)| i)
        .collect();
    let fresh_offsets = alternative_offsets(cx, rule, alt, lhs_index, path);
    let rhs_edges = resolve_edges(cx, &alt.edges, &rhs_index, labels, path);
    let rhs_inside = resolve_inside(cx, &alt.inside, &rhs_index, path);
    if cx.errors.len() > errors_before {
        return None;
    }
    // Containment pairs by pattern index: kept ones stay, pattern-only ones
    // are dropped (when the child survives), right-only ones are added.
    let rhs_pairs: Vec<(End, End)> = rhs_inside
        .iter()
        .map(|&(c, p)| (rhs_end[c], rhs_end[p]))
        .collect();
    let removed_inside: Vec<usize> = lhs_inside
        .iter()
        .filter(|&&(c, p)| {
            !rhs_pairs.contains(&(End::Kept(c), End::Kept(p))) && !deleted.contains(&c)
        })
        .map(|&(c, _)| c)
        .collect();
    let added_inside: Vec<(End, End)> = rhs_pairs
        .iter()
        .copied()
        .filter(|&(c, p)| match (c, p) {
            (End::Kept(c), End::Kept(p)) => !lhs_inside.contains(&(c, p)),
            _ => true,
        })
        .collect();

    // Pair each pattern edge with an identical right-hand edge (by vertex
    // names); unpaired pattern edges are removed, unpaired right edges added.
    // Right-hand edges by what makes two edges the same (model::same_edge),
    // each list in order: a pattern edge takes the first unpaired one.
    let mut unpaired: BTreeMap<_, std::collections::VecDeque<usize>> = BTreeMap::new();
    for (k, re) in alt.edges.iter().enumerate() {
        unpaired.entry(edge_key(re)).or_default().push_back(k);
    }
    let mut paired_rhs = BTreeSet::new();
    let mut removed_edges = Vec::new();
    for (j, le) in rule.lhs.edges.iter().enumerate() {
        let pair = unpaired
            .get_mut(&edge_key(le))
            .and_then(|list| list.pop_front())
            .map(|k| (k, &alt.edges[k]));
        match pair {
            Some((k, re)) => {
                debug_assert!(model::same_edge(le, re));
                paired_rhs.insert(k);
                if re.length.is_some() {
                    cx.error(
                        format!(
                            "edge between `{}` and `{}` is kept from the pattern, so it keeps its length factor",
                            re.source, re.target
                        ),
                        cx_loc(re.span, path.item("edges", k)),
                        Some("only an edge the rule adds can take `{length: F}`".into()),
                    );
                }
            }
            None => removed_edges.push(j),
        }
    }
    let mut added_edges: Vec<NewEdge> = Vec::new();
    for (k, re) in alt.edges.iter().enumerate() {
        if paired_rhs.contains(&k) {
            continue;
        }
        let (a, b, label) = rhs_edges[k].expect("resolved");
        added_edges.push(NewEdge {
            source: rhs_end[a],
            target: rhs_end[b],
            directed: re.directed,
            cosmetic: re.cosmetic,
            label,
            length: re.length,
        });
    }

    let mut rhs_valence = vec![0; n];
    for (re, r) in alt.edges.iter().zip(&rhs_edges) {
        let (a, b, _) = r.expect("resolved");
        if re.cosmetic {
            continue;
        }
        for end in [a, b] {
            if let End::Kept(i) = rhs_end[end] {
                rhs_valence[i] += 1;
            }
        }
    }
    let mut valence_watch: Vec<usize> = added_edges
        .iter()
        .filter(|e| !e.cosmetic)
        .flat_map(|e| [e.source, e.target])
        .filter_map(|end| match end {
            End::Kept(i) => Some(i),
            End::Fresh(_) => None,
        })
        .collect();
    valence_watch.sort_unstable();
    valence_watch.dedup();

    Some(CompiledAlternative {
        weight: alt.weight,
        retag,
        set_attributes,
        vertex_delta: fresh.len() as i64 - deleted.len() as i64,
        deleted,
        fresh,
        fresh_offsets,
        removed_edges,
        added_edges,
        rhs_valence,
        valence_watch,
        removed_inside,
        added_inside,
    })
}
