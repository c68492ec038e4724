//! The `place { … }` block: the content a solver places on each level —
//! the keys of its locks, the entrance, the goal and items — with each
//! statement's constraints.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::{Diagnostic, Span};
use crate::grammar::lexer::TokenKind;
use crate::grammar::model::SettingSpans;
use crate::grammar::place::{Anchor, Count, Distance, PlaceSpec, Placed};

/// The statements of a `place` block, for the unknown-statement hint.
const PLACE_WORDS: [&str; 5] = ["keys", "entrance", "goal", "item", "every key needed"];

/// The constraints a statement of the `place` block takes, for the hints.
const CONSTRAINT_WORDS: [&str; 6] = [
    "in",
    "distance from",
    "not with",
    "alone",
    "lock first",
    "count",
];

impl<'src> Parser<'src> {
    /// `place { … }` after the word `place` (at `at`): the `keys`,
    /// `entrance`, `goal` and `item` statements with their constraints,
    /// and `every key needed`, in any order (docs/grammar-language.md,
    /// section 20).
    pub(super) fn place(&mut self, at: Span) -> Result<PlaceSpec, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.place_body(at)
            .map_err(|e| self.unclosed("the `place` block", open, e))
    }

    /// The `place` block's statements, after its `{`, through its `}`.
    pub(super) fn place_body(&mut self, at: Span) -> Result<PlaceSpec, Diagnostic> {
        let mut spec = PlaceSpec {
            span: Some(at),
            setting_spans: SettingSpans::text(),
            ..PlaceSpec::default()
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            // A top-level word at the start of a line: the block was left
            // open (`place`'s caller says so).
            if self.starts_item(self.peek()) {
                return Err(self.unexpected("a statement of the `place` block or `}`"));
            }
            let (word, span) = self.ident("a statement of the `place` block or `}`")?;
            match word {
                "keys" | "entrance" | "goal" => {
                    self.once(&mut seen, word, span)?;
                    let placed = Some(self.placed(span, None)?);
                    match word {
                        "keys" => spec.keys = placed,
                        "entrance" => spec.entrance = placed,
                        _ => spec.goal = placed,
                    }
                }
                "item" => {
                    let tag = self.ident("the item's tag").map_err(|e| {
                        e.with_hint("an item statement is `item TAG [count N..M] [CONSTRAINT…]`")
                    })?;
                    if self.at(&TokenKind::Pipe) {
                        return Err(Diagnostic::error(
                            "an item has one tag: `|` is for `in` and `not with`",
                            self.peek().span,
                        )
                        .with_hint("give each kind of item its own `item` statement"));
                    }
                    spec.items.push(self.placed(span, Some(tag))?);
                }
                "every" => {
                    self.once(&mut seen, "every key needed", span)?;
                    self.keyword("key", "`key` (`every key needed`)")?;
                    self.keyword("needed", "`needed` (`every key needed`)")?;
                    spec.every_key_needed = true;
                    spec.setting_spans
                        .insert("every_key_needed", span.to(self.last_span()));
                }
                _ => {
                    return Err(Diagnostic::error(
                        format!("unknown statement `{word}` in the `place` block"),
                        span,
                    )
                    .with_hint(format!(
                        "a `place` block holds: {}; each of the first four may be followed by constraints: {}",
                        PLACE_WORDS.join(", "),
                        CONSTRAINT_WORDS.join(", ")
                    )))
                }
            }
        }
        Ok(spec)
    }

    /// A statement's constraints, after its first word (at `at`) and, for
    /// an item, its tag: up to the first word that starts no constraint.
    fn placed(&mut self, at: Span, tag: Option<(&str, Span)>) -> Result<Placed, Diagnostic> {
        let mut p = Placed {
            spans: SettingSpans::text(),
            ..Placed::default()
        };
        if let Some((tag, span)) = tag {
            p.tag = Some(tag.to_owned());
            p.spans.insert("tag", span);
        }
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while let TokenKind::Ident(word) = self.peek().kind {
            let once = match word {
                "in" => "in",
                "not" => "not with",
                "alone" => "alone",
                "lock" => "lock first",
                "count" => "count",
                "distance" => "distance",
                _ => break,
            };
            let start = self.bump().span;
            if word != "distance" {
                self.once(&mut seen, once, start)?;
            }
            let key = match word {
                "in" => {
                    p.rooms = self.place_tags("in")?;
                    "in".to_owned()
                }
                "not" => {
                    self.keyword("with", "`with` (`not with TAG`)")?;
                    p.not_with = self.place_tags("not with")?;
                    "not_with".to_owned()
                }
                "alone" => {
                    p.alone = true;
                    "alone".to_owned()
                }
                "lock" => {
                    self.keyword("first", "`first` (`lock first`)")
                        .map_err(|e| e.with_hint("`lock first`: the player sees a key's lock before they can pick the key up"))?;
                    p.lock_first = true;
                    "lock_first".to_owned()
                }
                "count" => {
                    p.count = Some(self.place_count()?);
                    "count".to_owned()
                }
                _ => {
                    p.distance.push(self.distance()?);
                    format!("distance {}", p.distance.len() - 1)
                }
            };
            p.spans.insert(&key, start.to(self.last_span()));
        }
        p.span = Some(at.to(self.last_span()));
        Ok(p)
    }

    /// `TAG[|TAG…]` after `in` or `not with` (`what`).
    fn place_tags(&mut self, what: &str) -> Result<Vec<String>, Diagnostic> {
        if self.at(&TokenKind::Star) {
            let hint = if what == "in" {
                "without `in`, any place will do"
            } else {
                "name the tags of the content to keep away: `not with key|boss`"
            };
            return Err(self
                .unexpected(&format!("a tag after `{what}`"))
                .with_hint(hint));
        }
        let mut tags = vec![self.ident(&format!("a tag after `{what}`"))?.0.to_owned()];
        while self.eat(&TokenKind::Pipe) {
            tags.push(self.ident("a tag after `|`")?.0.to_owned());
        }
        Ok(tags)
    }

    /// `N` or `N..M` after `count`.
    fn place_count(&mut self) -> Result<Count, Diagnostic> {
        let hint = "`count 2..4`: two to four rooms hold one each; `count 3`: exactly three";
        if !matches!(self.peek().kind, TokenKind::Number(_)) {
            return Err(self.unexpected("a count: `N` or `N..M`").with_hint(hint));
        }
        let (min, max) = self.range("count")?;
        let Some(max) = max else {
            return Err(
                Diagnostic::error("a count needs a largest number", self.last_span()).with_hint(
                    format!(
                        "write `count {min}..M`, M at most {}: the solver places a bounded number",
                        PlaceSpec::MAX_COUNT
                    ),
                ),
            );
        };
        Ok(Count { min, max })
    }

    /// `from ANCHOR N`, `… N..M` or `… N..*` after `distance`.
    fn distance(&mut self) -> Result<Distance, Diagnostic> {
        let hint = "`distance from entrance 2..*`: two passages or more from the entrance; `from goal`: from the nearest goal; `from lock` (keys): from the key's own lock";
        self.keyword("from", "`from` (`distance from entrance 2`)")
            .map_err(|e| e.with_hint(hint))?;
        let tok = self.peek();
        let from = match tok.kind {
            TokenKind::Ident("entrance") => Anchor::Entrance,
            TokenKind::Ident("goal") => Anchor::Goal,
            TokenKind::Ident("lock") => Anchor::Lock,
            _ => {
                return Err(self
                    .unexpected("`entrance`, `goal` or `lock` after `distance from`")
                    .with_hint(hint))
            }
        };
        self.bump();
        if !matches!(self.peek().kind, TokenKind::Number(_)) {
            return Err(self
                .unexpected("a distance: `N`, `N..M` or `N..*`")
                .with_hint(hint));
        }
        let (min, max) = self.range("distance")?;
        Ok(Distance { from, min, max })
    }
}
