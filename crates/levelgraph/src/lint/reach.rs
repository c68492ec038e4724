//! What a grammar can reach: tags never produced, rules that can never
//! match, recipe stages that can never run, rules no stage runs.
//!
//! "Produced" is a fixpoint: the start symbol is produced; a rule whose
//! every pattern vertex accepts a produced tag can fire and produces the
//! tags of all its right-hand sides. With a recipe the fixpoint runs stage
//! by stage, each stage over its own rules, starting from what the stages
//! before it could produce. This over-approximates what derivations reach
//! (it ignores edges, counts and conditions), so every "never" is certain.

use std::collections::BTreeSet;

use super::{is_start_rule, location};
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::{Grammar, Recipe, Rule, WILDCARD};

pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let mut produced: BTreeSet<&str> = BTreeSet::from([model.start.as_str()]);
    if let Some(grid) = &model.grid {
        produced.insert(grid.tag.as_str());
    }
    let mut can_fire = vec![false; model.rules.len()];
    match &model.recipe {
        None => {
            let all: Vec<usize> = (0..model.rules.len()).collect();
            fixpoint(model, &all, &mut produced, &mut can_fire);
        }
        Some(recipe) => recipe_stages(model, recipe, &mut produced, &mut can_fire, out),
    }
    unreached(model, &produced, &can_fire, out);
}

/// The fixpoint stage by stage: stages that can never run, a stage whose
/// only rule is `no_repeat`, rules in no stage. A rule already reported
/// here is marked in `can_fire`, so that it is not reported again as
/// never matching.
fn recipe_stages<'m>(
    model: &'m Grammar,
    recipe: &'m Recipe,
    produced: &mut BTreeSet<&'m str>,
    can_fire: &mut [bool],
    out: &mut Vec<Diagnostic>,
) {
    let rule_at = |i: usize| location(model.rules[i].span, format!("rules[{i}]"));
    let mut in_some_stage = vec![false; model.rules.len()];
    let mut reported_by_stage = vec![false; model.rules.len()];
    for (si, stage) in recipe.stages.iter().enumerate() {
        let members: Vec<usize> = stage
            .rules
            .iter()
            .filter_map(|sr| model.rules.iter().position(|r| r.name == sr.rule))
            .collect();
        members.iter().for_each(|&r| in_some_stage[r] = true);
        let runs = members.iter().any(|&r| fires(&model.rules[r], produced));
        // (A stage that can never run is reported as such below.)
        if let (true, [only]) = (runs, &members[..]) {
            let rule = &model.rules[*only];
            // Two applications in a row are what no_repeat forbids;
            // a skipped step (probability) would let it go on.
            if rule.no_repeat && rule.probability >= 1.0 && stage.min >= 2 {
                let label = stage
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("stage {}", si + 1));
                out.push(
                    Diagnostic::new(
                        Severity::Warning,
                        format!(
                            "recipe {label} needs at least {} steps, but its only rule `{}` is `no_repeat` and cannot apply twice in a row",
                            stage.min, rule.name
                        ),
                        location(stage.span, format!("recipe.stages[{si}]")),
                    )
                    .with_hint("every derivation stops there after one step; add a second rule to the stage or drop `no_repeat`"),
                );
            }
        }
        if !runs {
            let label = stage
                .name
                .clone()
                .unwrap_or_else(|| format!("stage {}", si + 1));
            let names: Vec<&str> = stage.rules.iter().map(|sr| sr.rule.as_str()).collect();
            let severity = if stage.min > 0 {
                Severity::Error
            } else {
                Severity::Warning
            };
            let consequence = if stage.min > 0 {
                "; it needs at least one step, so every derivation fails there"
            } else {
                ""
            };
            out.push(
                Diagnostic::new(
                    severity,
                    format!(
                        "recipe {label} can never run: none of {} can match after the stages before it{consequence}",
                        names.join(" | ")
                    ),
                    location(stage.span, format!("recipe.stages[{si}]")),
                )
                .with_hint("an earlier stage must produce the tags these rules' patterns need"),
            );
            // The stage finding covers its rules; not again as "can never match".
            members.iter().for_each(|&r| reported_by_stage[r] = true);
        }
        fixpoint(model, &members, produced, can_fire);
    }
    for (i, rule) in model.rules.iter().enumerate() {
        if reported_by_stage[i] {
            can_fire[i] = true;
        }
        if !in_some_stage[i] {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "rule `{}` is in no recipe stage, so it never runs",
                        rule.name
                    ),
                    rule_at(i),
                )
                .with_hint("add it to a stage, or remove it"),
            );
            // Reported once; not again as "can never match".
            can_fire[i] = true;
        }
    }
}

/// The tags of the content a `place` block puts on levels (items, and the
/// keys, entrance and goal it places): declared for the solver, not for
/// the rules, so no rule need produce them.
fn placed_tags(model: &Grammar) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    let (Some(place), Some(play)) = (&model.place, &model.play) else {
        return out;
    };
    out.extend(place.items.iter().filter_map(|p| p.tag.as_deref()));
    if place.keys.is_some() {
        out.extend((0..play.keys.len()).filter_map(|s| crate::grammar::place::key_tag(play, s)));
    }
    for (placed, sel) in [(&place.entrance, &play.entrance), (&place.goal, &play.goal)] {
        if placed.is_some() {
            out.extend(sel.tags.first().map(String::as_str));
        }
    }
    out
}

/// Rules that can never match, tags never produced (but for those a
/// `place` block places), and a recipe that runs no start rule.
fn unreached(
    model: &Grammar,
    produced: &BTreeSet<&str>,
    can_fire: &[bool],
    out: &mut Vec<Diagnostic>,
) {
    let rule_at = |i: usize| location(model.rules[i].span, format!("rules[{i}]"));
    for (i, rule) in model.rules.iter().enumerate() {
        if can_fire[i] {
            continue;
        }
        let mut missing: Vec<&str> = Vec::new();
        for v in &rule.lhs.vertices {
            if !accepts_produced(&v.tags, produced) {
                for t in &v.tags {
                    if !missing.contains(&t.as_str()) {
                        missing.push(t);
                    }
                }
            }
        }
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "rule `{}` can never match: no rule produces {}",
                    rule.name,
                    quote_list(&missing)
                ),
                rule_at(i),
            )
            .with_hint("produce the tag on some rule's right-hand side, or remove the rule"),
        );
    }
    let placed = placed_tags(model);
    for (i, decl) in model.tags.iter().enumerate() {
        if !produced.contains(decl.name.as_str()) && !placed.contains(decl.name.as_str()) {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!("tag `{}` is declared but never produced", decl.name),
                    location(decl.span, format!("tags[{i}]")),
                )
                .with_hint(
                    "no reachable rule puts it on a right-hand side; remove it or add a rule",
                ),
            );
        }
    }
    if model.grid.is_none()
        && model.recipe.as_ref().is_some_and(|r| {
            !r.stages.iter().flat_map(|s| &s.rules).any(|sr| {
                model
                    .rules
                    .iter()
                    .find(|rule| rule.name == sr.rule)
                    .is_some_and(|rule| is_start_rule(rule, &model.start))
            })
        })
    {
        out.push(
            Diagnostic::new(
                Severity::Error,
                "the recipe runs no start rule, so no derivation can begin".to_owned(),
                model.spans.locate(&["recipe"], "recipe"),
            )
            .with_hint("make the first stage the start rule, e.g. `start 1`"),
        );
    }
}

fn accepts_produced(tags: &[String], produced: &BTreeSet<&str>) -> bool {
    tags.iter()
        .any(|t| t == WILDCARD || produced.contains(t.as_str()))
}

fn fires(rule: &Rule, produced: &BTreeSet<&str>) -> bool {
    rule.lhs
        .vertices
        .iter()
        .all(|v| accepts_produced(&v.tags, produced))
}

/// Grows `produced` with what `members` can produce, marking those that fire.
pub(super) fn fixpoint<'m>(
    model: &'m Grammar,
    members: &[usize],
    produced: &mut BTreeSet<&'m str>,
    can_fire: &mut [bool],
) {
    let mut fired = vec![false; members.len()];
    loop {
        let mut changed = false;
        for (k, &r) in members.iter().enumerate() {
            let rule = &model.rules[r];
            if fired[k] || !fires(rule, produced) {
                continue;
            }
            fired[k] = true;
            can_fire[r] = true;
            changed = true;
            for v in rule.rhs.iter().flat_map(|alt| &alt.vertices) {
                if let Some(t) = &v.tag {
                    produced.insert(t.as_str());
                }
            }
        }
        if !changed {
            return;
        }
    }
}

fn quote_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|t| format!("`{t}`")).collect();
    match quoted.len() {
        0 => "its tags".to_owned(),
        1 => quoted[0].clone(),
        _ => format!("any of {}", quoted.join(", ")),
    }
}
