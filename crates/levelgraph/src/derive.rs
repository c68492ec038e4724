//! Derivation: rewriting a host graph from the start symbol until no rule
//! applies or a limit stops it (seed 000's build loop).
//!
//! Each step: among rules with uses left whose application keeps the vertex
//! count within `max_vertices`, pick one with probability proportional to its
//! weight among those that have an applicable match (a match is applicable
//! when it keeps every valence within `max_valence`, see
//! [`crate::grammar::Limits::max_valence`]); pick one of its applicable
//! matches uniformly; apply it. The loop stops when no rule applies or after
//! `max_iterations` applications. Ending with fewer than `min_vertices`
//! vertices is a failed derivation ([`DeriveError::TooFewVertices`]).
//!
//! All randomness comes from one [`Rng`] seeded with the derivation's seed,
//! and every collection that reaches a choice is ordered, so the same
//! grammar and seed give the same graph, trace and bytes on every machine.

use std::fmt;

use crate::grammar::CompiledGrammar;
use crate::graph::{Graph, VertexId};
use crate::matching::MatchBuffer;
use crate::rewrite;
use crate::rng::Rng;

/// Why a derivation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// No rule has an applicable match. The counts say how many rules that
    /// still had uses left were held back by each limit: a rule counts under
    /// `max_vertices` when it has a match but would exceed that limit, and
    /// under `max_valence` when every one of its matches would exceed that.
    NoRuleApplies {
        /// Rules held back by `max_vertices`.
        blocked_by_max_vertices: u32,
        /// Rules held back by `max_valence`.
        blocked_by_max_valence: u32,
    },
    /// `max_iterations` applications were made (the payload is the limit).
    IterationLimit(u32),
}

impl StopReason {
    /// A stable machine-readable name: `no_rule_applies` or `iteration_limit`.
    pub fn code(&self) -> &'static str {
        match self {
            StopReason::NoRuleApplies { .. } => "no_rule_applies",
            StopReason::IterationLimit(_) => "iteration_limit",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StopReason::NoRuleApplies {
                blocked_by_max_vertices: v,
                blocked_by_max_valence: d,
            } => {
                f.write_str("no rule applies")?;
                match (v, d) {
                    (0, 0) => Ok(()),
                    (v, 0) => write!(f, " ({v} held back by max_vertices)"),
                    (0, d) => write!(f, " ({d} held back by max_valence)"),
                    (v, d) => write!(f, " ({v} held back by max_vertices, {d} by max_valence)"),
                }
            }
            StopReason::IterationLimit(n) => write!(f, "iteration limit ({n} applications)"),
        }
    }
}

/// One rule application of a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// Name of the rule applied.
    pub rule: String,
    /// Host vertex matched by each pattern vertex, in pattern order.
    pub matched: Vec<VertexId>,
    /// Vertices created, in right-hand order.
    pub created: Vec<VertexId>,
}

/// A finished derivation.
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The grammar's name.
    pub grammar: String,
    /// The seed it ran with.
    pub seed: u64,
    /// The mission graph.
    pub graph: Graph,
    /// Every application, in order.
    pub trace: Vec<Application>,
    /// Why it stopped.
    pub stop: StopReason,
}

/// A derivation that failed within its limits.
#[derive(Clone, Debug, thiserror::Error)]
pub enum DeriveError {
    /// The derivation ended or stalled with fewer than `min_vertices` vertices.
    #[error(
        "derivation failed: {} vertices, fewer than min_vertices {min_vertices}, when it stopped: {} after {} applications",
        derivation.graph.vertex_count(),
        derivation.stop,
        derivation.trace.len()
    )]
    TooFewVertices {
        /// The limit.
        min_vertices: u32,
        /// What was derived before it stopped.
        derivation: Box<Derivation>,
    },
}

/// Derives a mission graph from `grammar`'s start symbol with `seed`.
///
/// # Errors
/// [`DeriveError::TooFewVertices`] when it ends below `min_vertices`.
pub fn derive(grammar: &CompiledGrammar, seed: u64) -> Result<Derivation, DeriveError> {
    let mut host = Graph::with_symbols(grammar.tags().clone(), grammar.labels().clone());
    host.add_vertex(grammar.start());
    derive_from(grammar, host, seed)
}

/// Derives from a given host graph. The host's tag and label tables must
/// be the grammar's or extend them (`Graph::with_symbols`).
///
/// # Errors
/// [`DeriveError::TooFewVertices`] when it ends below `min_vertices`.
pub fn derive_from(
    grammar: &CompiledGrammar,
    mut host: Graph,
    seed: u64,
) -> Result<Derivation, DeriveError> {
    let limits = *grammar.limits();
    let max_valence = limits.max_valence.map_or(usize::MAX, |v| v as usize);
    let rules = grammar.rules();
    let mut rng = Rng::seeded(seed);
    let mut uses = vec![0u32; rules.len()];
    let mut trace = Vec::new();
    let mut candidates: Vec<usize> = Vec::with_capacity(rules.len());
    let mut weights: Vec<f64> = Vec::with_capacity(rules.len());
    let mut held_back: Vec<usize> = Vec::new();
    let mut matches = MatchBuffer::default();
    let stop = loop {
        if trace.len() >= limits.max_iterations as usize {
            break StopReason::IterationLimit(limits.max_iterations);
        }
        candidates.clear();
        held_back.clear();
        for (r, rule) in rules.iter().enumerate() {
            if rule.max_uses.is_some_and(|n| uses[r] >= n) {
                continue;
            }
            if host.vertex_count() as i64 + rule.vertex_delta > i64::from(limits.max_vertices) {
                held_back.push(r);
                continue;
            }
            candidates.push(r);
        }
        let mut blocked_by_max_valence = 0;
        let chosen = loop {
            if candidates.is_empty() {
                break None;
            }
            weights.clear();
            weights.extend(candidates.iter().map(|&r| rules[r].weight));
            let pick = rng.weighted(&weights);
            let r = candidates[pick];
            let rule = &rules[r];
            matches.fill(&rule.pattern, &host);
            let found_any = matches.len() > 0;
            // Draw uniformly; a match that max_valence blocks is dropped and
            // the draw repeated. Sampling without replacement until a match
            // is allowed is uniform over the allowed matches, and checks
            // only the matches drawn rather than all of them.
            let mut allowed = None;
            while matches.len() > 0 {
                let i = rng.below(matches.len());
                let m = matches.get(i);
                matches.swap_remove(i);
                if limits.max_valence.is_none()
                    || rewrite::valence_allows(&host, rule, &m, max_valence)
                {
                    allowed = Some(m);
                    break;
                }
            }
            let Some(m) = allowed else {
                if found_any {
                    blocked_by_max_valence += 1;
                }
                candidates.swap_remove(pick);
                continue;
            };
            break Some((r, m));
        };
        let Some((r, m)) = chosen else {
            // Counted only here: matching the held-back rules costs a search each.
            let blocked_by_max_vertices = held_back
                .iter()
                .filter(|&&r| rules[r].pattern.has_match(&host))
                .count() as u32;
            break StopReason::NoRuleApplies {
                blocked_by_max_vertices,
                blocked_by_max_valence,
            };
        };
        let created = rewrite::apply(&mut host, &rules[r], &m);
        uses[r] += 1;
        trace.push(Application {
            rule: rules[r].name.clone(),
            matched: m.vertices,
            created,
        });
    };
    let derivation = Derivation {
        grammar: grammar.name().to_owned(),
        seed,
        graph: host,
        trace,
        stop,
    };
    if derivation.graph.vertex_count() < limits.min_vertices as usize {
        return Err(DeriveError::TooFewVertices {
            min_vertices: limits.min_vertices,
            derivation: Box::new(derivation),
        });
    }
    Ok(derivation)
}
