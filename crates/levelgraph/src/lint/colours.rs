//! Tags whose colour was typed with too few or too many hex digits: the
//! `#` then starts a comment (language reference, section 3.2), so the tag
//! silently has no colour, and the rest of its line (`terminal` too) is
//! comment.

use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::grammar::Grammar;

/// One warning per tag with a `colour_comment` (set by the text parser).
pub(super) fn check(model: &Grammar, out: &mut Vec<Diagnostic>) {
    for tag in &model.tags {
        let Some(span) = tag.colour_comment else {
            continue;
        };
        let digits = span.end - span.start - 1;
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "tag `{}`: `#` and {digits} hex digits is a comment, not a colour",
                    tag.name
                ),
                Location::Span(span),
            )
            .with_hint(
                "a colour is `#` and exactly six hex digits (`#9e9e9e`); the rest of the line after `#` is a comment",
            ),
        );
    }
}
