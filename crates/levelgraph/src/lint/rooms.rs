//! Tags without room templates: with a `rooms` block and no `use *`, every
//! tag that can be in a finished level needs a `use` line, or its rooms
//! have no template to be laid out with.
//!
//! "Can be a room of a finished level" over-approximates, like `reach`: a
//! tag some rule that can fire gives a right-hand vertex that the rule does
//! not store in another (rooms are top-level vertices), or the grid's tag;
//! when any tag is marked `terminal`, only terminal tags (a non-terminal
//! left behind is the `terminals` check's finding).

use std::collections::BTreeSet;

use super::location;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::{Grammar, WILDCARD};

pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    let Some(rooms) = &model.rooms else { return };
    let used: BTreeSet<&str> = rooms
        .uses
        .iter()
        .flat_map(|u| &u.tags)
        .map(String::as_str)
        .collect();
    if used.contains(WILDCARD) {
        return;
    }
    let mut produced: BTreeSet<&str> = BTreeSet::from([model.start.as_str()]);
    let mut can_fire = vec![false; model.rules.len()];
    if let Some(grid) = &model.grid {
        produced.insert(grid.tag.as_str());
    }
    let all: Vec<usize> = (0..model.rules.len()).collect();
    super::reach::fixpoint(model, &all, &mut produced, &mut can_fire);
    // Rooms are top-level vertices: a vertex an alternative stores in
    // another (`(k) in (r)`) is not one.
    let mut in_levels: BTreeSet<&str> = BTreeSet::new();
    for (rule, _) in model.rules.iter().zip(&can_fire).filter(|(_, &f)| f) {
        for alt in &rule.rhs {
            for v in &alt.vertices {
                let stored = alt.inside.iter().any(|c| c.child == v.name);
                if let (Some(tag), false) = (v.tag.as_deref(), stored) {
                    in_levels.insert(tag);
                }
            }
        }
    }
    if let Some(grid) = &model.grid {
        in_levels.insert(grid.tag.as_str());
    }
    let marked = model.tags.iter().any(|t| t.terminal);
    for (i, decl) in model.tags.iter().enumerate() {
        let name = decl.name.as_str();
        if (marked && !decl.terminal) || !in_levels.contains(name) || used.contains(name) {
            continue;
        }
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!("tag `{name}` has no room templates: no `use` line names it"),
                location(decl.span, format!("tags[{i}]")),
            )
            .with_hint(format!(
                "its rooms cannot be laid out; add `{name}` to a `use` line, or add `use *: …` for every tag without one"
            )),
        );
    }
}
