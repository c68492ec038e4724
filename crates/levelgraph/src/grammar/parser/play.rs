//! The `play { … }` block: entrance, goal, keys and their locks, and the
//! checker's settings.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::{Diagnostic, Span};
use crate::grammar::lexer::TokenKind;
use crate::grammar::model::{SettingSpans, WILDCARD};
use crate::grammar::play::{
    Directed, DoorSelector, KeyLink, KeySpec, LinkEdge, LockSpec, PlaySpec, VertexSelector,
};

/// The statements of a `play` block, for the unknown-statement hint.
/// The words of a `rooms { … }` block, for the unknown-word hint. A member
/// name spelled like one of them must be written as a string.
/// The statements of a `play` block, for the unknown-statement hint.
const PLAY_WORDS: [&str; 8] = [
    "entrance",
    "goal",
    "key",
    "small key",
    "ignore",
    "directed",
    "retries",
    "search_limit",
];

impl<'src> Parser<'src> {
    /// `play { … }` after the word `play` (at `at`): entrance, goal, key
    /// statements and settings, in any order (docs/grammar-language.md,
    /// section 19).
    pub(super) fn play(&mut self, at: Span) -> Result<PlaySpec, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.play_body(at)
            .map_err(|e| self.unclosed("the `play` block", open, e))
    }

    /// The `play` block's statements, after its `{`, through its `}`.
    pub(super) fn play_body(&mut self, at: Span) -> Result<PlaySpec, Diagnostic> {
        let mut entrance = None;
        let mut goal = None;
        let mut spec = PlaySpec {
            entrance: VertexSelector {
                tags: Vec::new(),
                attributes: BTreeMap::new(),
                span: None,
            },
            goal: VertexSelector {
                tags: Vec::new(),
                attributes: BTreeMap::new(),
                span: None,
            },
            keys: Vec::new(),
            ignore: Vec::new(),
            directed: Directed::default(),
            retries: None,
            search_limit: None,
            span: Some(at),
            setting_spans: SettingSpans::text(),
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            // A top-level word at the start of a line: the block was left
            // open (`play`'s caller says so).
            if self.starts_item(self.peek()) {
                return Err(self.unexpected("a statement of the `play` block or `}`"));
            }
            let (word, span) = self.ident("a statement of the `play` block or `}`")?;
            if matches!(
                word,
                "entrance" | "goal" | "directed" | "retries" | "search_limit"
            ) {
                self.once(&mut seen, word, span)?;
            }
            match word {
                "entrance" => entrance = Some(self.selector("the entrance's tag")?),
                "goal" => goal = Some(self.selector("the goal's tag")?),
                "key" => spec.keys.push(self.key_statement(span, false)?),
                "small" => {
                    self.keyword("key", "`key` (`small key TAG opens …`)")?;
                    spec.keys.push(self.key_statement(span, true)?);
                }
                "ignore" => {
                    let sel = self.selector("a tag")?;
                    if sel.tags.iter().any(|t| t == WILDCARD) || !sel.attributes.is_empty() {
                        return Err(Diagnostic::error(
                            "`ignore` takes tags only: `ignore n` or `ignore n|wall`",
                            sel.span.unwrap_or(span),
                        ));
                    }
                    for tag in sel.tags {
                        let key = format!("ignore {}", spec.ignore.len());
                        spec.setting_spans.insert(&key, span.to(self.last_span()));
                        spec.ignore.push(tag);
                    }
                }
                "directed" => {
                    let (mode, mode_span) = self.ident("`one_way` or `two_way`")?;
                    spec.directed = match mode {
                        "one_way" => Directed::OneWay,
                        "two_way" => Directed::TwoWay,
                        _ => {
                            return Err(Diagnostic::error(
                                format!("unknown corridor mode `{mode}`"),
                                mode_span,
                            )
                            .with_hint(
                                "`directed one_way`: a directed corridor is walked from its source to its target only; `directed two_way`: both ways",
                            ))
                        }
                    };
                }
                "retries" => spec.retries = Some(self.count("retries")?),
                "search_limit" => spec.search_limit = Some(self.count("search_limit")?),
                _ => {
                    return Err(Diagnostic::error(
                        format!("unknown statement `{word}` in the `play` block"),
                        span,
                    )
                    .with_hint(format!("a `play` block holds: {}", PLAY_WORDS.join(", "))))
                }
            }
            if seen.contains_key(word) {
                spec.setting_spans.insert(word, span.to(self.last_span()));
            }
        }
        let missing = |what: &str| {
            Diagnostic::error(format!("the `play` block has no `{what}`"), at).with_hint(format!(
                "a `play` block names the entrance and the goal: `entrance TAG` and `goal TAG`; `{what}` is missing"
            ))
        };
        spec.entrance = entrance.ok_or_else(|| missing("entrance"))?;
        spec.goal = goal.ok_or_else(|| missing("goal"))?;
        Ok(spec)
    }

    /// `TAG[|TAG…] [{attr: value, …}]` or `* {…}`: the vertices a play
    /// statement names.
    pub(super) fn selector(&mut self, what: &str) -> Result<VertexSelector, Diagnostic> {
        let start = self.peek().span;
        let mut tags = Vec::new();
        if self.eat(&TokenKind::Star) {
            tags.push(WILDCARD.to_owned());
        } else {
            tags.push(self.ident(what)?.0.to_owned());
            while self.eat(&TokenKind::Pipe) {
                tags.push(self.ident("a tag after `|`")?.0.to_owned());
            }
        }
        let attributes = if self.at(&TokenKind::LBrace) {
            self.attributes()?
        } else {
            BTreeMap::new()
        };
        Ok(VertexSelector {
            tags,
            attributes,
            span: Some(start.to(self.last_span())),
        })
    }

    /// After `key` (or `small key`), from the word at `at`:
    /// `SELECTOR opens LOCKS [via LINK]`.
    pub(super) fn key_statement(&mut self, at: Span, small: bool) -> Result<KeySpec, Diagnostic> {
        let key = self.selector("the key's tag")?;
        self.keyword("opens", "`opens` (`key TAG opens LOCK`)")
            .map_err(|e| e.with_hint("a key statement is `key TAG opens LOCK [via LINK]`"))?;
        let tok = self.peek();
        let opens =
            match tok.kind {
                TokenKind::Edge {
                    directed,
                    cosmetic,
                    label,
                } => {
                    self.bump();
                    match (cosmetic, label) {
                        (false, Some(label)) => LockSpec::Door(DoorSelector {
                            label: label.to_owned(),
                            directed,
                            span: Some(tok.span),
                        }),
                        _ => return Err(Diagnostic::error(
                            "a locked door is a labelled corridor: `-[locked]-` or `-[locked]->`",
                            tok.span,
                        )),
                    }
                }
                _ => LockSpec::Room(self.selector("the lock's tag, or a door `-[locked]-`")?),
            };
        let via = if matches!(self.peek().kind, TokenKind::Ident("via")) {
            self.bump();
            let tok = self.peek();
            match tok.kind {
                TokenKind::Edge {
                    directed,
                    cosmetic,
                    label,
                } => {
                    self.bump();
                    Some(KeyLink::Edge(LinkEdge {
                        directed,
                        cosmetic,
                        label: label.map(str::to_owned),
                        span: Some(tok.span),
                    }))
                }
                TokenKind::Ident("same") => {
                    self.bump();
                    let (attr, _) = self.ident("an attribute name after `same`")?;
                    Some(KeyLink::Same(attr.to_owned()))
                }
                _ => {
                    return Err(self.unexpected("an edge such as `~>`, or `same ATTRIBUTE`").with_hint(
                        "`via ~>`: the key's edge to its lock; `via same color`: key and lock carry the same `color`",
                    ))
                }
            }
        } else {
            None
        };
        Ok(KeySpec {
            key,
            opens,
            via,
            small,
            span: Some(at.to(self.last_span())),
        })
    }
}
