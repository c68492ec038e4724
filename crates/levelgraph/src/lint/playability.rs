//! Whether the grammar's levels can be finished.
//!
//! With a `play` block, every sampled level is checked ([`crate::play`]):
//! the share that can be finished, the first that cannot with its reason
//! and the rule that made the key or lock at fault (from the trace), the
//! levels the bounded search could not decide, and levels that can be
//! finished but have rooms no play reaches. Without one, a grammar whose tags look like keys and
//! locks is told that nothing checks its levels.

use std::collections::BTreeMap;

use super::{location, Playability};
use crate::derive::{Derivation, DeriveError};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::grammar::play::{LockSpec, PlaySpec};
use crate::grammar::CompiledGrammar;
use crate::play::{self, Verdict};

/// The first sampled level that cannot be finished.
struct Example {
    seed: u64,
    message: String,
    advice: &'static str,
    /// The rule that made the vertex at fault, and that vertex's name.
    maker: Option<(String, String)>,
}

/// The playability of sampled levels.
pub(super) struct PlayCheck<'g> {
    grammar: &'g CompiledGrammar,
    spec: &'g PlaySpec,
    counts: Playability,
    /// Levels per reason (its few words).
    reasons: BTreeMap<&'static str, u64>,
    first_unfinishable: Option<Example>,
    first_unknown: Option<u64>,
    /// The first level with rooms no play reaches, and their names.
    first_unreachable: Option<(u64, Vec<String>)>,
    /// Per key statement: levels with a key of it, with a lock of it, and
    /// with a key of it that opens a lock.
    statements: Vec<[u64; 3]>,
}

impl<'g> PlayCheck<'g> {
    /// The check, when the grammar has a `play` block.
    pub(super) fn new(grammar: &'g CompiledGrammar) -> Option<Self> {
        Some(PlayCheck {
            grammar,
            spec: grammar.play()?,
            counts: Playability::default(),
            reasons: BTreeMap::new(),
            first_unfinishable: None,
            first_unknown: None,
            first_unreachable: None,
            statements: vec![[0; 3]; grammar.play()?.keys.len()],
        })
    }

    /// Checks the level of `seed`, when it was derived.
    pub(super) fn observe(&mut self, seed: u64, outcome: &Result<Derivation, DeriveError>) {
        let Ok(derivation) = outcome else { return };
        let graph = &derivation.graph;
        let report = play::check(graph, self.spec);
        self.counts.derived += 1;
        let mut seen = vec![[false; 3]; self.statements.len()];
        for k in &report.keys {
            seen[k.statement][0] = true;
            seen[k.statement][2] |= !k.opens.is_empty();
        }
        for l in &report.locks {
            for &s in &l.statements {
                seen[s][1] = true;
            }
        }
        for (count, seen) in self.statements.iter_mut().zip(seen) {
            for i in 0..3 {
                count[i] += u64::from(seen[i]);
            }
        }
        match &report.verdict {
            Verdict::Completable => self.counts.completable += 1,
            Verdict::Unfinishable(reason) => {
                self.counts.unfinishable += 1;
                *self.reasons.entry(reason.summary()).or_default() += 1;
                if self.first_unfinishable.is_none() {
                    let maker = reason.culprits().first().and_then(|&v| {
                        let rule = play::maker(self.grammar, &derivation.trace, v)?;
                        Some((rule.to_owned(), play::vertex_name(graph, v)))
                    });
                    self.first_unfinishable = Some(Example {
                        seed,
                        message: reason.message(graph),
                        advice: reason.advice(),
                        maker,
                    });
                }
            }
            Verdict::Unknown { .. } => {
                self.counts.unknown += 1;
                self.first_unknown.get_or_insert(seed);
            }
        }
        if report.idle_locks().next().is_some() {
            self.counts.with_idle_lock += 1;
        }
        // Rooms no play reaches in a level that cannot be finished are
        // that level's finding already.
        if report.is_completable() && !report.unreachable.is_empty() {
            self.counts.with_unreachable += 1;
            if self.first_unreachable.is_none() {
                let names = report
                    .unreachable
                    .iter()
                    .map(|&v| play::vertex_name(graph, v))
                    .collect();
                self.first_unreachable = Some((seed, names));
            }
        }
    }

    /// The warnings, and the counts for `check`'s report.
    pub(super) fn finish(self, out: &mut Vec<Diagnostic>) -> Playability {
        let model = self.grammar.model();
        let counts = self.counts;
        let block = location(self.spec.span, "play".to_owned());
        if let Some(example) = &self.first_unfinishable {
            let (at, made) = match &example.maker {
                Some((rule, vertex)) => {
                    let i = model.rules.iter().position(|r| r.name == *rule);
                    let at = i.map_or(block.clone(), |i| {
                        location(model.rules[i].span, format!("rules[{i}]"))
                    });
                    (at, format!("; rule `{rule}` made {vertex}"))
                }
                None => (block.clone(), String::new()),
            };
            let mut tally: Vec<(&str, u64)> = self.reasons.iter().map(|(r, n)| (*r, *n)).collect();
            tally.sort_by_key(|t| std::cmp::Reverse(t.1));
            let tally: Vec<String> = tally.iter().map(|(r, n)| format!("{r} ({n})")).collect();
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "{} of sampled levels cannot be finished ({} of {}): seed {}: {}{made}",
                        percent(counts.unfinishable, counts.derived),
                        counts.unfinishable,
                        counts.derived,
                        example.seed,
                        example.message,
                    ),
                    at,
                )
                .with_hint(format!(
                    "why: {}; {}; `generate` rejects such levels and derives the next seed's; see one with `levelgraph generate GRAMMAR --seed {} --allow-unfinishable`",
                    tally.join(", "),
                    example.advice,
                    example.seed
                )),
            );
        }
        self.unused_statements(out);
        if let Some(seed) = self.first_unknown {
            let at = match self.spec.setting_spans.get("search_limit") {
                Some(span) => Location::Span(span),
                None => block.clone(),
            };
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "the search for an order of play could not decide {} of {} sampled levels within its limit of {} (first seed {seed})",
                        counts.unknown,
                        counts.derived,
                        match self.spec.search_limit() {
                            1 => "1 state".to_owned(),
                            n => format!("{n} states"),
                        }
                    ),
                    at,
                )
                .with_hint(
                    "`generate` hands out only levels it proves completable; raise `search_limit` in the `play` block, or use fewer small keys and one-way corridors",
                ),
            );
        }
        if let Some((seed, names)) = &self.first_unreachable {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "{} of sampled levels can be finished but have rooms no play reaches ({} of {}; seed {seed}: {})",
                        percent(counts.with_unreachable, counts.derived),
                        counts.with_unreachable,
                        counts.derived,
                        names.join(", ")
                    ),
                    block,
                )
                .with_hint(format!(
                    "a key may lie behind its own lock off the way to the goal, or a room be cut off; see one with `levelgraph generate GRAMMAR --seed {seed}` (mission.json, `play.unreachable`)"
                )),
            );
        }
        counts
    }
}

impl PlayCheck<'_> {
    /// A key statement whose keys, locks or links never occur in a
    /// sampled level is warned about at the statement: a selector that
    /// matches nothing (a door `-[locked]-` written for directed corridors,
    /// a tag that no rule makes) gives levels without keys or locks and no
    /// other sign.
    fn unused_statements(&self, out: &mut Vec<Diagnostic>) {
        let derived = self.counts.derived;
        if derived == 0 {
            return;
        }
        for (i, (statement, [keys, locks, links])) in
            self.spec.keys.iter().zip(&self.statements).enumerate()
        {
            let what = if *keys == 0 {
                "no key"
            } else if *locks == 0 {
                "no lock"
            } else if *links == 0 {
                "no key that opens a lock"
            } else {
                continue;
            };
            let door = matches!(statement.opens, LockSpec::Door(_));
            let hint = match (*keys, *locks, door) {
                (0, _, _) => "no vertex of a sampled level matches its key selector: check the tag and attributes",
                (_, 0, true) => "no corridor of a sampled level matches its door: `-[locked]-` names undirected corridors labelled `locked`, `-[locked]->` directed ones",
                (_, 0, false) => "no vertex of a sampled level matches its lock selector: check the tag and attributes",
                _ => "its `via` names no lock from any key: check the edge's kind and direction (from the key to the lock), or the attribute",
            };
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "key statement {} finds {what} in any of the {derived} sampled levels",
                        i + 1
                    ),
                    location(statement.span, format!("play.keys[{i}]")),
                )
                .with_hint(hint),
            );
        }
    }
}

/// `41 %`; `under 1 %` and `over 99 %` for shares that round to 0 or 100
/// but are not (one level in a thousand is not "0 %").
pub(super) fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        return "0 %".to_owned();
    }
    match (n * 100 + of / 2) / of {
        0 if n > 0 => "under 1 %".to_owned(),
        100 if n < of => "over 99 %".to_owned(),
        p => format!("{p} %"),
    }
}

/// A grammar without a `play` block whose tags look like keys and locks
/// (a word `key` and a word `lock` in tag names, as the tile maps read
/// them) is told that nothing checks whether its levels can be finished.
pub(super) fn check_declared(grammar: &CompiledGrammar, out: &mut Vec<Diagnostic>) {
    let model = grammar.model();
    if model.play.is_some() {
        return;
    }
    let has_word = |name: &str, word: &str| {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    let key = model.tags.iter().position(|t| has_word(&t.name, "key"));
    let lock = model.tags.iter().find(|t| has_word(&t.name, "lock"));
    let (Some(k), Some(lock)) = (key, lock) else {
        return;
    };
    let key = &model.tags[k];
    out.push(
        Diagnostic::new(
            Severity::Warning,
            format!(
                "tags `{}` and `{}` look like keys and locks, but the grammar has no `play` block: nothing checks that its levels can be finished",
                key.name, lock.name
            ),
            location(key.span, format!("tags[{k}]")),
        )
        .with_hint(
            "declare what the tags mean, e.g. `play { entrance entrance  goal goal  key key opens lock via ~> }` (docs/grammar-language.md, section 19)",
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn shares_round_and_small_ones_are_not_zero() {
        assert_eq!(percent(408, 992), "41 %");
        assert_eq!(percent(1, 992), "under 1 %");
        assert_eq!(percent(0, 992), "0 %");
        assert_eq!(percent(5, 10), "50 %");
        assert_eq!(percent(3, 0), "0 %");
        assert_eq!(percent(999, 1000), "over 99 %");
        assert_eq!(percent(200, 200), "100 %");
    }
}
