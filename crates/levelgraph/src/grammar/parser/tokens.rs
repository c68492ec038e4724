//! The parser's token helpers: looking ahead, reading and expecting
//! tokens, names, keywords and whole numbers.

use super::Parser;
use crate::diagnostic::{Diagnostic, Span};
use crate::grammar::lexer::{Token, TokenKind};

impl<'src> Parser<'src> {
    pub(super) fn peek(&self) -> Token<'src> {
        self.tokens[self.pos]
    }

    /// The kind of the token `k` places ahead (`Eof` past the end).
    pub(super) fn peek_kind(&self, k: usize) -> TokenKind<'src> {
        self.tokens
            .get(self.pos + k)
            .map_or(TokenKind::Eof, |t| t.kind)
    }

    pub(super) fn bump(&mut self) -> Token<'src> {
        let t = self.tokens[self.pos];
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    /// The span of the token read last.
    pub(super) fn last_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    pub(super) fn at(&self, kind: &TokenKind<'_>) -> bool {
        self.tokens[self.pos].kind == *kind
    }

    pub(super) fn eat(&mut self, kind: &TokenKind<'_>) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(super) fn unexpected(&self, expected: &str) -> Diagnostic {
        let t = &self.tokens[self.pos];
        Diagnostic::error(
            format!("expected {expected}, found {}", t.kind.describe()),
            t.span,
        )
    }

    pub(super) fn expect(&mut self, kind: TokenKind<'_>) -> Result<Token<'src>, Diagnostic> {
        if self.at(&kind) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&kind.describe()))
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> Result<(&'src str, Span), Diagnostic> {
        match self.peek().kind {
            TokenKind::Ident(name) => Ok((name, self.bump().span)),
            _ => Err(self.unexpected(what)),
        }
    }

    /// Expects the word `word`.
    pub(super) fn keyword(&mut self, word: &str, what: &str) -> Result<(), Diagnostic> {
        match self.peek().kind {
            TokenKind::Ident(w) if w == word => {
                self.bump();
                Ok(())
            }
            _ => Err(self.unexpected(what)),
        }
    }

    pub(super) fn count(&mut self, what: &str) -> Result<u32, Diagnostic> {
        let tok = self.peek();
        match tok.kind {
            TokenKind::Number(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => {
                self.bump();
                Ok(n as u32)
            }
            TokenKind::Number(_) => Err(Diagnostic::error(
                format!("`{what}` must be a whole number from 0 to {}", u32::MAX),
                tok.span,
            )),
            _ => Err(self.unexpected(&format!("a whole number for `{what}`"))),
        }
    }
}
