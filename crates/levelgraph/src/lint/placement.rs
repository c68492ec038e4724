//! Whether the `place` block's content fits the grammar's levels.
//!
//! Every sampled level gets the block's content as `generate` places it
//! (the first placement for the level's seed, [`crate::place`]); the other
//! checks then see the placed level, so a grammar whose keys come from the
//! block is checked with its keys. A level without a placement is counted
//! with the constraints in conflict, and a warning at the block names the
//! commonest conflict and the first seed that had it.

use std::collections::BTreeMap;

use super::location;
use super::playability::percent;
use crate::derive::Derivation;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::place::PlaceSpec;
use crate::grammar::play::PlaySpec;
use crate::grammar::CompiledGrammar;
use crate::place::{apply, PlaceError, Placer, Problem};

/// The placements of sampled levels.
pub(super) struct PlaceCheck<'g> {
    play: &'g PlaySpec,
    spec: &'g PlaceSpec,
    tried: u64,
    placed: u64,
    /// Per reason (the conflicting rules, or why the level is refused):
    /// how many levels, and the first seed.
    reasons: BTreeMap<String, (u64, u64)>,
}

impl<'g> PlaceCheck<'g> {
    /// The check, when the grammar has `play` and `place` blocks.
    pub(super) fn new(grammar: &'g CompiledGrammar) -> Option<Self> {
        Some(PlaceCheck {
            play: grammar.play()?,
            spec: grammar.place()?,
            tried: 0,
            placed: 0,
            reasons: BTreeMap::new(),
        })
    }

    /// The level of `seed` with the content placed, or `None` when none
    /// fits (counted).
    pub(super) fn observe(&mut self, seed: u64, derivation: &Derivation) -> Option<Derivation> {
        self.tried += 1;
        let placed = Problem::new(&derivation.graph, self.play, self.spec).and_then(|problem| {
            let placement = Placer::new(&problem, seed)
                .next_placement()?
                .expect("a first call gives a placement or the conflict");
            Ok(apply(&problem, &placement))
        });
        match placed {
            Ok(graph) => {
                self.placed += 1;
                let mut d = derivation.clone();
                d.graph = graph;
                Some(d)
            }
            Err(e) => {
                let why = match e {
                    PlaceError::NoPlacement { rules } => {
                        let names: Vec<String> = rules.into_iter().map(|r| r.name).collect();
                        format!("these constraints conflict: {}", names.join("; "))
                    }
                    other => other.to_string(),
                };
                let entry = self.reasons.entry(why).or_insert((0, seed));
                entry.0 += 1;
                None
            }
        }
    }

    /// A warning at the block when some sampled level took no placement.
    pub(super) fn finish(self, out: &mut Vec<Diagnostic>) {
        let failed = self.tried - self.placed;
        let Some((why, (n, seed))) = self
            .reasons
            .iter()
            .max_by_key(|(why, (n, _))| (*n, std::cmp::Reverse(why.as_str())))
        else {
            return;
        };
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "the `place` block's content fits {} of {} sampled levels ({}); commonest ({n} of {failed}), seed {seed}: {why}",
                    self.placed,
                    self.tried,
                    percent(self.placed, self.tried),
                ),
                location(self.spec.span, "place".to_owned()),
            )
            .with_hint(
                "`generate` gives such a level way to the next attempt seed (a `play` block retry); loosen a constraint named, or see the level with `levelgraph place GRAMMAR --seed N`",
            ),
        );
    }
}
