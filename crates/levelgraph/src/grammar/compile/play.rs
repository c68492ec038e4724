//! The `play` block's hookup: its checks against the tag table, run with
//! the rest of compilation.

use super::cx::Cx;
use crate::grammar::play::PlaySpec;
use crate::graph::Symbols;

/// Adds the `play` block's errors ([`crate::grammar::play::check`]).
pub(super) fn check_play(cx: &mut Cx<'_>, tags: &Symbols, play: &PlaySpec) {
    cx.errors.extend(crate::grammar::play::check(play, tags));
}
