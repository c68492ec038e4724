//! A geometric grammar whose start rules can never be drawn: in every
//! alternative's drawing its own corridors cross (always for a right-hand
//! side that is not planar; also for a planar one the forces happen to
//! draw crossed, such as a wheel of three rooms around a hub), so the
//! geometric derivation holds the start rule back at every seed and every
//! level is the start vertex alone.

use super::{is_start_rule, location};
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::CompiledGrammar;

/// An error at the first start rule when no start rule can be drawn.
pub(super) fn check(grammar: &CompiledGrammar, out: &mut Vec<Diagnostic>) {
    let model = grammar.model();
    let Some(settings) = &model.geometry else {
        return;
    };
    if crate::geometric::start_can_be_drawn(grammar, settings) != Some(false) {
        return;
    }
    let start = model.start.as_str();
    let Some((i, rule)) = model
        .rules
        .iter()
        .enumerate()
        .find(|(_, r)| is_start_rule(r, start))
    else {
        return;
    };
    out.push(
        Diagnostic::new(
            Severity::Error,
            format!(
                "rule `{}`: no right-hand side can be drawn without crossing corridors, so a geometric derivation never applies it and every level is the start vertex alone",
                rule.name
            ),
            location(rule.span, format!("rules[{i}]")),
        )
        .with_hint("a geometric derivation keeps its drawing plane, and this rule's drawing crosses itself: draw it yourself with offsets `@dx,dy` on its vertices, give the right-hand side a shape the forces draw plane (a planar one: no K5 or K3,3 inside it), or drop `geometric`"),
    );
}
