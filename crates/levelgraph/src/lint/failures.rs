//! Grammars whose every sampled derivation fails: `generate` cannot make a
//! single level of them, though every rule may be well formed. Reported
//! per cause — a recipe stage that cannot make its minimum, too few
//! vertices, drawings that fail — at the stage or setting at fault.

use std::collections::BTreeMap;

use super::location;
use crate::derive::{Derivation, DeriveError};
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::CompiledGrammar;

/// Why a sampled derivation failed, as the place to point at.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cause {
    /// A recipe stage, by its label.
    Stage(String),
    MinVertices,
    Drawing,
}

/// The failed derivations among the sampled ones.
pub(super) struct Failures<'g> {
    grammar: &'g CompiledGrammar,
    sampled: u64,
    /// Per cause: how many failed so, and the first seed with its message.
    causes: BTreeMap<Cause, (u64, u64, String)>,
}

impl<'g> Failures<'g> {
    pub(super) fn new(grammar: &'g CompiledGrammar) -> Self {
        Failures {
            grammar,
            sampled: 0,
            causes: BTreeMap::new(),
        }
    }

    pub(super) fn observe(&mut self, seed: u64, outcome: &Result<Derivation, DeriveError>) {
        self.sampled += 1;
        let Err(e) = outcome else { return };
        let cause = match e {
            DeriveError::StageFailed { stage, .. } => Cause::Stage(stage.clone()),
            DeriveError::TooFewVertices { .. } => Cause::MinVertices,
            DeriveError::Drawing { .. } => Cause::Drawing,
        };
        let entry = self.causes.entry(cause).or_insert((0, seed, e.to_string()));
        entry.0 += 1;
    }

    /// A warning per cause when every sampled derivation failed.
    pub(super) fn finish(self, out: &mut Vec<Diagnostic>) {
        let failed: u64 = self.causes.values().map(|c| c.0).sum();
        if self.sampled == 0 || failed < self.sampled {
            return;
        }
        let model = self.grammar.model();
        for (cause, (count, seed, message)) in self.causes {
            let at = match &cause {
                Cause::Stage(label) => {
                    let stages = model.recipe.as_ref().map_or(&[][..], |r| &r.stages[..]);
                    let i = stages.iter().enumerate().position(|(i, st)| {
                        st.name
                            .clone()
                            .unwrap_or_else(|| format!("stage {}", i + 1))
                            == *label
                    });
                    match i {
                        Some(i) => location(stages[i].span, format!("recipe.stages[{i}]")),
                        None => model.spans.locate(&["recipe"], "recipe"),
                    }
                }
                Cause::MinVertices => model.spans.locate(&["min_vertices"], "limits.min_vertices"),
                Cause::Drawing => model.spans.locate(&["geometric"], "geometry"),
            };
            let hint = match cause {
                Cause::Stage(_) => "`generate` cannot make a level: lower the stage's minimum count, or let its rules match more often",
                Cause::MinVertices => "`generate` cannot make a level: lower min_vertices, or let the rules grow the level further",
                Cause::Drawing => "`generate` cannot make a level: raise `retries` in the `geometric` block, or cap max_valence",
            };
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "every sampled derivation fails ({count} of {} seeds so; first seed {seed}: {message})",
                        self.sampled
                    ),
                    at,
                )
                .with_hint(hint),
            );
        }
    }
}
