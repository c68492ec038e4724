//! The `recipe { … }` block: stages of weighted rules with counts.

use super::Parser;
use crate::diagnostic::Diagnostic;
use crate::grammar::lexer::TokenKind;
use crate::grammar::model::{Recipe, Stage, StageRule};

impl<'src> Parser<'src> {
    /// `recipe { [label:] rule[:w] | rule[:w] … COUNT … }` where COUNT is
    /// `N`, `N..M`, `N..*` or `*`.
    pub(super) fn recipe(&mut self) -> Result<Recipe, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.stages().map_err(|e| self.brace_in_comment(open, e))
    }

    /// The recipe's stages, after its `{`, through its `}`.
    pub(super) fn stages(&mut self) -> Result<Recipe, Diagnostic> {
        let mut stages = Vec::new();
        while !self.eat(&TokenKind::RBrace) {
            let start = self.peek().span;
            let mut name = None;
            if let (TokenKind::Ident(label), TokenKind::Colon, TokenKind::Ident(_)) =
                (self.peek().kind, self.peek_kind(1), self.peek_kind(2))
            {
                self.bump();
                self.bump();
                name = Some(label.to_owned());
            }
            let mut rules = Vec::new();
            loop {
                let (rule, _) = self.ident("a rule name")?;
                let mut weight = 1.0;
                if self.eat(&TokenKind::Colon) {
                    let tok = self.peek();
                    match tok.kind {
                        TokenKind::Number(w) if w > 0.0 && w.is_finite() => {
                            self.bump();
                            weight = w;
                        }
                        _ => {
                            return Err(Diagnostic::error(
                                "a stage weight must be a number greater than 0",
                                tok.span,
                            ))
                        }
                    }
                }
                rules.push(StageRule {
                    rule: rule.to_owned(),
                    weight,
                });
                if !self.eat(&TokenKind::Pipe) {
                    break;
                }
            }
            let count_span = self.peek().span;
            let (min, max) = if self.eat(&TokenKind::Star) {
                (0, None)
            } else {
                if !matches!(self.peek().kind, TokenKind::Number(_)) {
                    return Err(self
                        .unexpected("`|` or a count: `N`, `N..M`, `N..*` or `*`")
                        .with_hint("a stage is `rule | other:2 1..5`: rules, then how often"));
                }
                self.range("the stage count")?
            };
            if max.is_some_and(|m| m < min) {
                return Err(Diagnostic::error(
                    format!("stage count {min}..{} runs backwards", max.unwrap_or(0)),
                    count_span,
                )
                .with_hint("write the smaller number first"));
            }
            let end = self.tokens[self.pos.saturating_sub(1)].span;
            stages.push(Stage {
                name,
                rules,
                min,
                max,
                span: Some(start.to(end)),
            });
        }
        Ok(Recipe { stages })
    }

    /// A whole-number range: `N` (`min` = `max` = N), `N..M` or `N..*`
    /// (no `max`), each number read by [`Parser::count`] as `what`. The
    /// recipe's stage counts and the `place` block's counts and distances;
    /// a range that runs backwards is the caller's to report.
    pub(super) fn range(&mut self, what: &str) -> Result<(u32, Option<u32>), Diagnostic> {
        let min = self.count(what)?;
        if !self.eat(&TokenKind::DotDot) {
            return Ok((min, Some(min)));
        }
        if self.eat(&TokenKind::Star) {
            return Ok((min, None));
        }
        Ok((min, Some(self.count(what)?)))
    }
}
