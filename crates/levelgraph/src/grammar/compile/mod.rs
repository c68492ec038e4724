//! Compilation: the [`Grammar`] model → a [`CompiledGrammar`] whose tags and
//! labels are interned symbols, whose patterns are ready to search and whose
//! rules carry a precomputed rewriting plan.
//!
//! Every name-level error is found here, for text and JSON grammars alike:
//! unknown tags, duplicate tags and rules, a replacement vertex that is
//! neither named in the pattern nor given a tag, edges naming missing
//! vertices. All errors are collected, not just the first.

mod alternative;
mod cx;
mod grid;
mod pattern;
mod play;
mod recipe;
mod rooms;
mod rule;
mod sides;

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::alphabet::{Alphabet, TagStyle};
use crate::diagnostic::{Diagnostic, Location, Span};
use crate::grammar::model::{Grammar, Limits, WILDCARD};
use crate::graph::{Symbol, Symbols};

pub(crate) use alternative::{CompiledAlternative, End, NewEdge};
use cx::{cx_loc, Cx, Path};
pub use pattern::MAX_PATTERN_VERTICES;
pub(crate) use recipe::CompiledStage;
pub(crate) use rule::CompiledRule;

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

    /// The `place` block: content the solver places on every level, if
    /// the grammar declares it.
    pub fn place(&self) -> Option<&super::place::PlaceSpec> {
        self.model.place.as_ref()
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

/// The most rules a grammar may have. Every derivation step weighs every
/// rule, and a rule costs memory (about 3 KB compiled); the examples have a
/// dozen.
pub const MAX_RULES: usize = 10_000;

/// The most tags a grammar may declare.
pub const MAX_TAGS: usize = 10_000;

fn compile_parts(grammar: &Grammar, src: Option<&str>) -> Result<Parts, Vec<Diagnostic>> {
    let mut cx = Cx {
        src,
        errors: Vec::new(),
    };
    // Refused before anything is compiled, so that a grammar of a million
    // rules costs no more than reading it.
    if let Some(rule) = grammar.rules.get(MAX_RULES) {
        cx.error(
            format!(
                "the grammar has {} rules, more than {MAX_RULES}",
                grammar.rules.len()
            ),
            cx_loc(rule.span, Path::root("rules", MAX_RULES)),
            Some(format!("this is rule {}; split the grammar", MAX_RULES + 1)),
        );
    }
    if let Some(tag) = grammar.tags.get(MAX_TAGS) {
        cx.error(
            format!(
                "the grammar declares {} tags, more than {MAX_TAGS}",
                grammar.tags.len()
            ),
            cx_loc(tag.span, Path::root("tags", MAX_TAGS)),
            Some(format!("this is tag {}", MAX_TAGS + 1)),
        );
    }
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let (tags, colors) = compile_tags(&mut cx, grammar);
    let start = resolve_start(&mut cx, grammar, &tags);
    let (group_index, group_limits) = compile_groups(&mut cx, grammar);
    let (labels, rules) = rule::compile_rules(&mut cx, grammar, &tags, &group_index);
    let recipe = grammar.recipe.as_ref().map(|recipe| {
        let at = grammar.spans.locate(&["recipe"], "recipe");
        recipe::compile_recipe(&mut cx, recipe, &grammar.rules, at)
    });
    check_limits(&mut cx, grammar);
    let grid = grid::compile_grid(&mut cx, grammar, &tags);
    if let Some(settings) = &grammar.geometry {
        grid::check_geometry(&mut cx, &tags, settings, grammar);
    }
    if let Some(rooms) = &grammar.rooms {
        rooms::check_rooms(&mut cx, &tags, rooms);
    }
    if let Some(play) = &grammar.play {
        play::check_play(&mut cx, &tags, play);
    }
    if let Some(place) = &grammar.place {
        cx.errors.extend(crate::grammar::place::check(
            place,
            &tags,
            grammar.play.as_ref(),
        ));
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

/// The tag table and each tag's colour: no `*` or empty name, no tag
/// declared twice, colours `#rrggbb` (a palette colour when none is given).
fn compile_tags(cx: &mut Cx<'_>, grammar: &Grammar) -> (Symbols, Vec<Cow<'static, str>>) {
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
    (tags, colors)
}

/// The start symbol, declared in `tags` (any symbol in grid mode, which
/// starts from the grid).
fn resolve_start(cx: &mut Cx<'_>, grammar: &Grammar, tags: &Symbols) -> Symbol {
    match tags.get(&grammar.start) {
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
    }
}

/// Group names to indexes, and each group's combined `max_uses`.
fn compile_groups<'g>(
    cx: &mut Cx<'_>,
    grammar: &'g Grammar,
) -> (BTreeMap<&'g str, usize>, Vec<u32>) {
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
    (group_index, group_limits)
}

/// The header's limits are within what a machine holds:
/// [`Limits::MAX_ITERATIONS`] and [`Limits::MAX_VERTICES`].
fn check_limits(cx: &mut Cx<'_>, grammar: &Grammar) {
    let limits = &grammar.limits;
    for (name, value, most, hint) in [
        (
            "max_iterations",
            limits.max_iterations,
            Limits::MAX_ITERATIONS,
            "a derivation keeps a record of every step; a recipe stage runs within max_iterations too",
        ),
        (
            "max_vertices",
            limits.max_vertices,
            Limits::MAX_VERTICES,
            "a level is kept in memory, about 1 GB per million vertices while its files are written",
        ),
    ] {
        if value > most {
            cx.error(
                format!("{name} {value} is above the most accepted, {most}"),
                grammar
                    .spans
                    .locate(&[name, "grammar"], &format!("limits.{name}")),
                Some(hint.into()),
            );
        }
    }
}

fn is_hex_color(c: &str) -> bool {
    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|ch| ch.is_ascii_hexdigit())
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
