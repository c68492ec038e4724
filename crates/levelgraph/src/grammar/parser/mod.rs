//! Recursive-descent parser: grammar text → [`Grammar`] model with spans.
//!
//! The parser checks syntax and what can be seen locally (a vertex given two
//! different tag sets, a right-hand vertex with alternatives). Name
//! resolution (unknown tags, duplicate rules, right-hand vertices without a
//! tag) happens in [`crate::grammar::compile()`], which also serves the JSON
//! form. Syntax errors stop at the first one.

mod errors;
mod header;
mod place;
mod play;
mod recipe;
mod rooms;
mod rules;
mod sides;
mod tags;
mod tokens;

use super::lexer::{tokenize, Token, TokenKind};
use super::model::{Grammar, Limits, SettingSpans};
use crate::diagnostic::{Diagnostic, Span};
use sides::{SideNames, VertexSpec};

/// Parses grammar text. `default_name` names the grammar when the text has
/// no `grammar "name" { … }` header (the CLI passes the file stem).
///
/// # Errors
/// The first syntax error, located by span.
pub fn parse(src: &str, default_name: &str) -> Result<Grammar, Diagnostic> {
    let tokens = tokenize(src)?;
    Parser {
        src,
        tokens,
        pos: 0,
        names: SideNames::default(),
        specs: Vec::new(),
    }
    .grammar(default_name)
}

/// Tokens borrow from `src`; names become owned `String`s only where the
/// model keeps them, and the parser's own lookup tables key on slices.
struct Parser<'src> {
    src: &'src str,
    tokens: Vec<Token<'src>>,
    pos: usize,
    /// The side being read: its vertex names in order of first mention.
    /// Kept between sides so that reading one allocates nothing here.
    names: SideNames<'src>,
    /// The side being read: per vertex, its tag part as written, if any.
    specs: Vec<Option<VertexSpec>>,
}

impl<'src> Parser<'src> {
    fn grammar(mut self, default_name: &str) -> Result<Grammar, Diagnostic> {
        let mut grammar = Grammar {
            name: default_name.to_owned(),
            start: "s".to_owned(),
            limits: Limits::default(),
            grid: None,
            geometry: None,
            tags: Vec::new(),
            rules: Vec::new(),
            groups: Vec::new(),
            recipe: None,
            rooms: None,
            play: None,
            place: None,
            spans: SettingSpans::text(),
        };
        let mut seen_recipe: Option<Span> = None;
        let mut seen_header: Option<Span> = None;
        let mut seen_tags: Option<Span> = None;
        let mut seen_rooms: Option<Span> = None;
        let mut seen_play: Option<Span> = None;
        let mut seen_place: Option<Span> = None;
        loop {
            let tok = self.peek();
            match tok.kind {
                TokenKind::Eof => return Ok(grammar),
                TokenKind::Ident("grammar") => {
                    self.bump();
                    if let Some(first) = seen_header {
                        return Err(self.duplicate_block("grammar", tok.span, first));
                    }
                    seen_header = Some(tok.span);
                    grammar.spans.insert("grammar", tok.span);
                    self.header(&mut grammar)?;
                }
                TokenKind::Ident("tags") => {
                    self.bump();
                    if let Some(first) = seen_tags {
                        return Err(self.duplicate_block("tags", tok.span, first));
                    }
                    seen_tags = Some(tok.span);
                    self.tags(&mut grammar.tags)?;
                }
                TokenKind::Ident("rule") => {
                    self.bump();
                    grammar.rules.push(self.rule()?);
                }
                TokenKind::Ident("group") => {
                    self.bump();
                    grammar.groups.push(self.group()?);
                }
                TokenKind::Ident("recipe") => {
                    self.bump();
                    if let Some(first) = seen_recipe {
                        return Err(self.duplicate_block("recipe", tok.span, first));
                    }
                    seen_recipe = Some(tok.span);
                    grammar.spans.insert("recipe", tok.span);
                    grammar.recipe = Some(self.recipe()?);
                }
                TokenKind::Ident("rooms") => {
                    self.bump();
                    if let Some(first) = seen_rooms {
                        return Err(self.duplicate_block("rooms", tok.span, first));
                    }
                    seen_rooms = Some(tok.span);
                    grammar.rooms = Some(self.rooms(tok.span)?);
                }
                TokenKind::Ident("play") => {
                    self.bump();
                    if let Some(first) = seen_play {
                        return Err(self.duplicate_block("play", tok.span, first));
                    }
                    seen_play = Some(tok.span);
                    grammar.play = Some(self.play(tok.span)?);
                }
                TokenKind::Ident("place") => {
                    self.bump();
                    if let Some(first) = seen_place {
                        return Err(self.duplicate_block("place", tok.span, first));
                    }
                    seen_place = Some(tok.span);
                    grammar.place = Some(self.place(tok.span)?);
                }
                _ => {
                    return Err(self
                        .unexpected(
                            "`grammar`, `tags`, `rule`, `group`, `recipe`, `rooms`, `play` or `place`",
                        )
                        .with_hint(
                            "a grammar file holds a `grammar` header, a `tags` block, `rule` blocks, `group` declarations, a `recipe`, a `rooms` block, a `play` block and a `place` block",
                        ))
                }
            }
        }
    }
}
