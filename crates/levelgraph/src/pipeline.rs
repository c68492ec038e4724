//! The whole pipeline as library calls: a grammar and a seed to a level.
//! The stages below each do one thing; this module chooses and chains
//! them as the `levelgraph` command does, so that a game linking the
//! library gets the same level from the same grammar and seed.

use crate::derive::{Derivation, DeriveError};
use crate::grammar::CompiledGrammar;
use crate::graph::Graph;

/// Derives a mission graph with `seed`: by rewriting alone
/// ([`crate::derive::derive`]), or, when the grammar's header says
/// `geometric`, keeping a plane drawing while rewriting
/// ([`crate::geometric::derive`], with the header's settings; the
/// result's `seed` is then the attempt's seed, and the graph has positions
/// and room radii).
///
/// # Errors
/// [`DeriveError::TooFewVertices`] when it ends below `min_vertices`;
/// [`DeriveError::StageFailed`] when a recipe stage cannot make its minimum;
/// [`DeriveError::Drawing`] when no geometric attempt's drawing passes.
pub fn derive(grammar: &CompiledGrammar, seed: u64) -> Result<Derivation, DeriveError> {
    match &grammar.model().geometry {
        Some(settings) => crate::geometric::derive(grammar, seed, settings).map(|g| g.derivation),
        None => crate::derive::derive(grammar, seed),
    }
}

/// [`derive()`] from a given host graph (its tag and label tables the
/// grammar's or extending them, `Graph::with_symbols`).
///
/// # Errors
/// As [`derive()`].
pub fn derive_from(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
) -> Result<Derivation, DeriveError> {
    match &grammar.model().geometry {
        Some(settings) => {
            crate::geometric::derive_from(grammar, host, seed, settings).map(|g| g.derivation)
        }
        None => crate::derive::derive_from(grammar, host, seed),
    }
}
