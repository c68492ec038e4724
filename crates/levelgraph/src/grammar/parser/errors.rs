//! Errors that look past the token at hand: settings and blocks given
//! twice, blocks left open, and a `}` hidden in a comment.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::{line_col, Diagnostic, Location, Span};
use crate::grammar::lexer::{is_ident_char, Token, TokenKind};

impl<'src> Parser<'src> {
    /// Records setting `key` written at `span`; an error naming the line of
    /// the first one when it was set before.
    pub(super) fn once(
        &self,
        seen: &mut BTreeMap<&'src str, Span>,
        key: &'src str,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if let Some(first) = seen.get(key) {
            let line = line_col(self.src, first.start).line;
            return Err(Diagnostic::error(format!("`{key}` is set twice"), span)
                .with_hint(format!("it is first set at line {line}")));
        }
        seen.insert(key, span);
        Ok(())
    }

    pub(super) fn duplicate_block(&self, what: &str, span: Span, first: Span) -> Diagnostic {
        let line = line_col(self.src, first.start).line;
        Diagnostic::error(format!("second `{what}` block"), span).with_hint(format!(
            "the first `{what}` block is at line {line}; merge them"
        ))
    }

    /// `e`, with a hint when a comment between the block's `{` (`open`)
    /// and the current token holds a `}`: a `#` or `//` comment runs to the
    /// end of its line, so a `}` after one (`tags { a #abc }`, a colour
    /// typed with a digit too few) does not end the block, which then runs
    /// on into the next lines, and the error lands far from its cause.
    /// Only when the block ran on into another item (a top-level word
    /// such as `rule` at the start of a line was read inside it, or the
    /// file ended): a comment with a `}` in a block that ends where it
    /// should is not the cause of an error in it. Only comments before
    /// that word count, and only a `}` that no `{` before it in the
    /// comment matches; the colour's form is named when the colour lint
    /// would warn about the comment's first word.
    pub(super) fn brace_in_comment(&self, open: Span, e: Diagnostic) -> Diagnostic {
        let first = self.tokens.partition_point(|t| t.span.start < open.end);
        let upto = self.tokens.get(first..=self.pos).unwrap_or_default();
        // The `}` that was lost is before the first word the block ran on
        // into: a comment after it is in the next item.
        let Some(ran_on) = upto.iter().position(|&t| self.starts_item(t)) else {
            return e;
        };
        let mut gap_start = open.end;
        let mut comment = None;
        for t in &upto[..=ran_on] {
            comment = comment_with_brace(self.src, gap_start, t.span.start);
            if comment.is_some() {
                break;
            }
            gap_start = t.span.end;
        }
        let Some(comment) = comment else {
            return e;
        };
        let at = line_col(self.src, comment);
        let word = &self.src[comment..];
        let word = &word[..word
            .find(|c: char| c.is_whitespace() || c == '}')
            .unwrap_or(word.len())];
        let colour = if colour_comment_at(self.src, comment).is_some() {
            " (a colour is `#` and six hex digits)"
        } else {
            ""
        };
        e.with_hint(format!(
            "line {}'s `}}` is inside a comment: `{word}` at column {} starts one{colour} and it runs to the end of the line; if that `}}` was to end the block, the block runs on to here",
            at.line, at.column
        ))
    }

    /// Whether `t` is the end of the file or a word that starts a top-level
    /// item (`rule`, `tags`, …) at the start of a line: where a block that
    /// was not closed runs on to.
    pub(super) fn starts_item(&self, t: Token<'_>) -> bool {
        match t.kind {
            TokenKind::Eof => true,
            TokenKind::Ident(
                "grammar" | "tags" | "rule" | "group" | "recipe" | "rooms" | "play" | "place",
            ) => line_col(self.src, t.span.start).column == 1,
            _ => false,
        }
    }

    /// `e`, an error inside the block `what` opened at `open`, or, when it
    /// stopped at the end of the file or at a word that starts a top-level
    /// item at the start of a line (`rule`, `tags`, …), the error that the
    /// block was not closed: a forgotten `}` was reported at the next rule
    /// as "expected a vertex, found `rule`".
    pub(super) fn unclosed(&self, what: &str, open: Span, e: Diagnostic) -> Diagnostic {
        let t = self.peek();
        if !self.starts_item(t) || e.location != Location::Span(t.span) {
            return e;
        }
        let at = line_col(self.src, open.start);
        let e = Diagnostic::error(
            format!(
                "{what} is not closed: expected `}}` before {}",
                t.kind.describe()
            ),
            t.span,
        )
        .with_hint(format!(
            "its `{{` is at line {}, column {}; end the block with `}}`",
            at.line, at.column
        ));
        self.brace_in_comment(open, e)
    }
}

/// The offset of the first comment (`#` or `//`) in `src[from..to]`, text
/// between two tokens, that has a `}` before its line ends with no `{`
/// before it in the comment to match it: `# {a} is the hub` closes nothing.
pub(super) fn comment_with_brace(src: &str, from: usize, to: usize) -> Option<usize> {
    let gap = &src[from..to];
    let mut line_start = 0;
    for line in gap.split_inclusive('\n') {
        let comment = [line.find('#'), line.find("//")]
            .into_iter()
            .flatten()
            .min();
        if let Some(c) = comment {
            let mut depth = 0usize;
            for b in line[c..].bytes() {
                match b {
                    b'{' => depth += 1,
                    b'}' if depth == 0 => return Some(from + line_start + c),
                    b'}' => depth -= 1,
                    _ => {}
                }
            }
        }
        line_start += line.len();
    }
    None
}

/// The span of a `#` after byte `from` on the same line (past spaces and
/// tabs) that is followed by 3 to 8 hexadecimal digits other than 6 and
/// then by a character that cannot continue a name: a colour typed with a
/// digit too few or too many, which the `#` rule reads as a comment.
/// A word of letters a–f only, in either case (`#cafe`, `#Add`), counts
/// only when what follows it on the line is nothing, or starts with
/// `terminal`, `}` or another `#`: a word of prose after it makes it more
/// likely the first word of a comment than a colour.
pub(super) fn colour_comment_at(src: &str, from: usize) -> Option<Span> {
    let rest = &src.as_bytes()[from..];
    let hash = from
        + rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    if src.as_bytes().get(hash) != Some(&b'#') {
        return None;
    }
    let digits = src.as_bytes()[hash + 1..]
        .iter()
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    let end = hash + 1 + digits;
    let after = src.as_bytes().get(end).copied();
    let ends = after.is_none_or(|b| !is_ident_char(b));
    if !(3..=8).contains(&digits) || digits == 6 || !ends {
        return None;
    }
    let has_decimal = src.as_bytes()[hash + 1..end].iter().any(u8::is_ascii_digit);
    let line_rest = src[end..].lines().next().unwrap_or("").trim();
    let next_word = line_rest.split_whitespace().next().unwrap_or("");
    let like_a_colour =
        has_decimal || matches!(next_word, "" | "terminal" | "}") || next_word.starts_with('#');
    like_a_colour.then(|| Span::new(hash, end))
}
