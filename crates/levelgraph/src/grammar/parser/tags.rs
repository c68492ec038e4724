//! The `tags { … }` block: tag names with descriptions and colours.

use super::errors::colour_comment_at;
use super::Parser;
use crate::diagnostic::Diagnostic;
use crate::grammar::lexer::{string_value, TokenKind};
use crate::grammar::model::TagDecl;

impl<'src> Parser<'src> {
    pub(super) fn tags(&mut self, out: &mut Vec<TagDecl>) -> Result<(), Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        while !self.eat(&TokenKind::RBrace) {
            let (name, span) = match self.ident("a tag name or `}`") {
                Ok(found) => found,
                Err(e) => return Err(self.brace_in_comment(open, e)),
            };
            let mut decl = TagDecl {
                name: name.to_owned(),
                description: String::new(),
                color: None,
                terminal: false,
                span: Some(span),
                colour_comment: None,
            };
            let mut end = span.end;
            if let TokenKind::Str(text, escaped) = self.peek().kind {
                decl.description = string_value(text, escaped);
                end = self.bump().span.end;
            }
            if let TokenKind::Color(c) = self.peek().kind {
                decl.color = Some(c.to_ascii_lowercase());
                self.bump();
            } else {
                decl.colour_comment = colour_comment_at(self.src, end);
            }
            if matches!(self.peek().kind, TokenKind::Ident("terminal")) {
                self.bump();
                decl.terminal = true;
            }
            out.push(decl);
        }
        Ok(())
    }
}
