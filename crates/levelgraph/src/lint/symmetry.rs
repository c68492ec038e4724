//! Symmetric patterns: which rules' patterns have automorphisms, and which
//! have renamings that are symmetries on some hosts only, so that their
//! matches are not spread evenly over host subgraphs (grammar language
//! reference, section 9.8). `check` reports them beside its findings; they
//! are not warnings, since matching a subgraph once per symmetry is often
//! what the designer means.

use crate::canon::{rule_symmetry, PatternSymmetry, SearchLimits};
use crate::grammar::Grammar;

/// Every rule's pattern symmetry with more than one automorphism or a
/// partial symmetry, in rule order.
pub(super) fn check(model: &Grammar) -> Vec<PatternSymmetry> {
    model
        .rules
        .iter()
        .filter_map(|rule| rule_symmetry(rule, &SearchLimits::default()))
        .filter(|s| s.partial.is_some() || s.automorphisms.exact() != Some(1))
        .collect()
}
