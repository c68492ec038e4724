//! The constraints of a placement problem as named rules. Each rule's
//! clauses hang off one selector literal, assumed true in every solve, so
//! that an unsatisfiable problem's core names the rules in conflict.

use super::problem::Problem;
use crate::diagnostic::Span;

/// What a rule asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// Statement `s`'s `count` (items).
    Count(usize),
    /// Statement `s`'s `in`.
    In(usize),
    /// Statement `s`'s distance constraint `i`.
    Distance(usize, usize),
    /// Statement `s`'s `not with`.
    NotWith(usize),
    /// Statement `s`'s `alone`.
    Alone(usize),
    /// Statement `s`'s `lock first` (keys).
    LockFirst(usize),
    /// The level can be finished: the fixpoint reaches every goal.
    Completable,
    /// Every placed key and item lies where the player can go.
    Reachable,
    /// `every key needed`.
    EveryKeyNeeded,
}

/// One constraint, with its name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// What it asks.
    pub kind: RuleKind,
    /// In words: ``item potion: count 2..4``.
    pub name: String,
    /// Where the grammar's text wrote it, if it came from text.
    pub span: Option<Span>,
}

/// Every rule of `problem`, in statement order, then the three that
/// concern the whole level.
pub(super) fn list(problem: &Problem) -> Vec<Rule> {
    let mut out = Vec::new();
    let spec = &problem.spec;
    for (s, (name, _, p)) in spec.statements().into_iter().enumerate() {
        let at = |key: &str| p.spans.get(key).or(p.span);
        if let Some(c) = p.count {
            out.push(Rule {
                kind: RuleKind::Count(s),
                name: format!("`{name}`: count {}..{}", c.min, c.max),
                span: at("count"),
            });
        }
        if !p.rooms.is_empty() {
            out.push(Rule {
                kind: RuleKind::In(s),
                name: format!("`{name}`: in {}", p.rooms.join("|")),
                span: at("in"),
            });
        }
        for (i, d) in p.distance.iter().enumerate() {
            let range = match d.max {
                Some(m) if m == d.min => format!("{m}"),
                Some(m) => format!("{}..{m}", d.min),
                None => format!("{}..*", d.min),
            };
            out.push(Rule {
                kind: RuleKind::Distance(s, i),
                name: format!("`{name}`: distance from {} {range}", d.from.word()),
                span: at(&format!("distance {i}")),
            });
        }
        if !p.not_with.is_empty() {
            out.push(Rule {
                kind: RuleKind::NotWith(s),
                name: format!("`{name}`: not with {}", p.not_with.join("|")),
                span: at("not_with"),
            });
        }
        if p.alone {
            out.push(Rule {
                kind: RuleKind::Alone(s),
                name: format!("`{name}`: alone"),
                span: at("alone"),
            });
        }
        if p.lock_first {
            out.push(Rule {
                kind: RuleKind::LockFirst(s),
                name: format!("`{name}`: lock first"),
                span: at("lock_first"),
            });
        }
    }
    out.push(Rule {
        kind: RuleKind::Completable,
        name: "the level can be finished (the `play` block)".into(),
        span: None,
    });
    out.push(Rule {
        kind: RuleKind::Reachable,
        name: "every placed key and item can be reached".into(),
        span: None,
    });
    if spec.every_key_needed {
        out.push(Rule {
            kind: RuleKind::EveryKeyNeeded,
            name: "`every key needed`".into(),
            span: spec.setting_spans.get("every_key_needed").or(spec.span),
        });
    }
    out
}
