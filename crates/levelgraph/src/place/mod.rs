//! Content placement by SAT, and what can and cannot be where.
//!
//! A grammar's `place` block ([`PlaceSpec`]) lists content to put on each
//! level — the keys of its locks, the entrance and goal when the grammar
//! makes none, and items such as potions, a boss or a map — with the
//! constraints a designer asks of each: the tags of the places it may go
//! in, a count range, distances from the entrance, the goal or a key's own
//! lock, pacing (`lock first`: the player sees a lock no later than its
//! key), `every key needed`, `not with` and `alone`. This module:
//!
//! - reads a level into a [`Problem`] (`problem.rs`), with the places and
//!   passages the playability checker sees ([`crate::play`]);
//! - encodes it as CNF (`encode.rs`) whose models are exactly the
//!   placements that meet every constraint and keep the level completable:
//!   reachability in phases of key pick-ups over *zones* (places no lock
//!   separates, `zones.rs`), each phase written from every zone's minimal
//!   sets of locks to open (`ways.rs`), every auxiliary variable defined
//!   both ways, cardinality by rustsat's totalizer;
//! - draws diverse placements for a seed ([`Placer`], `solve.rs`) and
//!   names the constraints in conflict when there is none (the solver's
//!   core under assumptions, shrunk to a minimal one);
//! - classifies every (content, place) pair as possible, impossible or
//!   necessary ([`analyze`], `analyze.rs`), reusing every model found;
//! - writes a placement into the mission graph ([`apply`]) and tests one
//!   independently of the encoding ([`violations`], `verify.rs`).
//!
//! Sources: content placement as constraint solving, Smith & Mateas
//! ("Answer Set Programming for Procedural Content Generation: A Design
//! Space Approach", IEEE TCIAIG 2011) and Smith, Padget & Vidler
//! ("Graph-based generation of action-adventure dungeon levels using
//! answer set programming", FDG 2018); the possible/impossible loop with
//! assumptions follows the design notes of a pattern-rule puzzle solver;
//! Tseitin's definitional clauses (1968); the totalizer of Bailleux &
//! Boufkhad (CP 2003). The SAT solver is batsat (a MiniSat descendant in
//! pure Rust) through rustsat. docs/grammar-language.md, section 20, is
//! the reference.
//!
//! Scope: kept keys and corridors walked both ways, where the monotone
//! fixpoint of the checker is exact; a level with small keys, one-way
//! corridors or a locked entrance is refused ([`PlaceError::Unsupported`]).

mod analyze;
mod apply;
mod encode;
mod problem;
mod rules;
mod solve;
mod verify;
mod ways;
mod zones;

pub use analyze::{analyze, analyze_per_literal, Analysis, Status};
pub use apply::apply;
pub use encode::MAX_VARIABLES;
pub use problem::{Content, ContentKind, Fixed, Problem, UNREACHABLE};
pub use rules::{Rule, RuleKind};
pub use solve::Placer;
pub use verify::violations;
pub use ways::TooManyWays;

pub use crate::grammar::place::PlaceSpec;

/// Where each content went: per content of [`Problem::contents`], the
/// places holding one, increasing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Per content, its places (indices of the problem's places).
    pub at: Vec<Vec<u32>>,
}

/// Why content could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The level is outside what placement decides exactly, or lacks (or
    /// already has) an entrance or goal.
    #[error("{0}")]
    Unsupported(String),
    /// The encoding would exceed [`MAX_VARIABLES`]: the level has too many
    /// places, locks or keys for placement (the estimate and the limit).
    #[error("the placement encoding of this level would have about {estimated} variables, more than the {limit} accepted: fewer places, locks or contents, or leave out `every key needed` (one more unrolling per lock)")]
    TooLarge {
        /// The estimated variables.
        estimated: u64,
        /// [`MAX_VARIABLES`].
        limit: u64,
    },
    /// No placement meets every constraint: these rules conflict (a
    /// minimal set: without any one of them, the rest have a placement).
    #[error("no placement meets the `place` block: {}", rule_list(.rules))]
    NoPlacement {
        /// The rules in conflict.
        rules: Vec<Rule>,
    },
}

fn rule_list(rules: &[Rule]) -> String {
    let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    match names.as_slice() {
        [] => "the level itself admits none".into(),
        [one] => format!("{one} cannot hold"),
        _ => format!("these constraints conflict: {}", names.join("; ")),
    }
}
