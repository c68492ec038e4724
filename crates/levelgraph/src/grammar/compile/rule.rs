//! Rules: each rule's settings, compiled pattern and right-hand plans
//! together as a `CompiledRule`.

use std::collections::BTreeMap;

use super::alternative::{compile_alternative, CompiledAlternative};
use super::cx::{cx_loc, Cx, Path};
use super::pattern::{
    compile_nac, compile_pattern_vertices, grid_offsets, offsets_in_range, pattern_edges,
    transforms, MAX_PATTERN_VERTICES,
};
use super::sides::{name_index, reject_lengths, resolve_edges, resolve_inside};
use crate::diagnostic::{Location, Span};
use crate::grammar::model::{self, Grammar};
use crate::graph::Symbols;
use crate::matching::{Nac, Pattern};

/// Every rule compiled in order, with the label table their edges fill;
/// a rule whose name was taken already is reported and left out.
pub(super) fn compile_rules(
    cx: &mut Cx<'_>,
    grammar: &Grammar,
    tags: &Symbols,
    group_index: &BTreeMap<&str, usize>,
) -> (Symbols, Vec<CompiledRule>) {
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
        if let Some(r) = compile_rule(cx, tags, &mut labels, group_index, rule, ri, geometric) {
            rules.push(r);
        }
    }
    (labels, rules)
}

/// A rule with its pattern compiled and its rewriting planned.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRule {
    pub(crate) name: crate::trace::RuleName,
    pub(crate) weight: f64,
    pub(crate) max_uses: Option<u32>,
    pub(crate) probability: f64,
    pub(crate) no_repeat: bool,
    /// Draw a host subgraph uniformly, then one of its matches.
    pub(crate) count_once: bool,
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

pub(super) fn compile_rule(
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
    check_pattern_sizes(cx, rule, &rule_path);
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
    let group = rule_group(cx, rule, groups, &rule_at);
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

    let nacs = compile_nacs(cx, tags, labels, rule, &lhs_index, &rule_path);

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
    let pattern = Pattern::new(pattern_vertices, pattern_edges(&rule.lhs.edges, &lhs_edges))
        .with_inside(lhs_inside)
        .with_conditions(rule.induced, nacs);
    let (pattern, drawing) = place(
        cx,
        rule,
        &rule_at,
        geometric,
        pattern,
        &mut alternatives,
        grid,
    );
    Some(CompiledRule {
        drawing,
        name: rule.name.as_str().into(),
        weight: rule.weight,
        max_uses: rule.max_uses,
        probability: rule.probability,
        no_repeat: rule.no_repeat,
        count_once: rule.count_once,
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

/// Patterns and `where not` conditions of at most [`MAX_PATTERN_VERTICES`]
/// vertices.
fn check_pattern_sizes(cx: &mut Cx<'_>, rule: &model::Rule, rule_path: &Path<'_>) {
    let sides = std::iter::once((&rule.lhs, "pattern", rule_path.child("lhs"))).chain(
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
}

/// The index of the group a rule names, which must be declared.
fn rule_group(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    groups: &BTreeMap<&str, usize>,
    rule_at: &Location,
) -> Option<usize> {
    rule.group.as_deref().and_then(|g| match groups.get(g) {
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
    })
}

/// A rule's offsets put to use: in a grid grammar the pattern's grid and
/// orientations; in a geometric one the rule's own drawing, returned beside
/// the pattern (the alternatives' new offsets move into it).
fn place(
    cx: &mut Cx<'_>,
    rule: &model::Rule,
    rule_at: &Location,
    geometric: bool,
    mut pattern: Pattern,
    alternatives: &mut [CompiledAlternative],
    grid: Option<Vec<[i32; 2]>>,
) -> (Pattern, Option<GivenDrawing>) {
    let mut drawing: Option<GivenDrawing> = None;
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
    (pattern, drawing)
}

/// The rule's `where not` conditions, each compiled by [`compile_nac`]; a
/// condition with errors is left out.
fn compile_nacs(
    cx: &mut Cx<'_>,
    tags: &Symbols,
    labels: &mut Symbols,
    rule: &model::Rule,
    lhs_index: &BTreeMap<&str, usize>,
    rule_path: &Path<'_>,
) -> Vec<Nac> {
    rule.where_not
        .iter()
        .enumerate()
        .filter_map(|(n, nac)| {
            compile_nac(
                cx,
                tags,
                labels,
                rule,
                lhs_index,
                nac,
                rule_path.item("where_not", n),
            )
        })
        .collect()
}
