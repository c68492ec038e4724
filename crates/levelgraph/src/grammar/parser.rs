//! Recursive-descent parser: grammar text → [`Grammar`] model with spans.
//!
//! The parser checks syntax and what can be seen locally (a vertex given two
//! different tag sets, a right-hand vertex with alternatives). Name
//! resolution (unknown tags, duplicate rules, right-hand vertices without a
//! tag) happens in [`crate::grammar::compile()`], which also serves the JSON
//! form. Syntax errors stop at the first one.

use std::collections::BTreeMap;

use super::lexer::{is_ident_char, string_value, tokenize, Token, TokenKind};
use super::model::{
    Alternative, Containment, DoorSpec, FillKind, FillSpec, Grammar, GridSpec, GroupDecl, Limits,
    PatternVertex, Recipe, ReplacementVertex, RoomsSpec, Rule, RuleEdge, SetSpec, SettingSpans,
    Side, Stage, StageRule, TagDecl, TemplateSpec, UseSpec, WILDCARD,
};
use super::play::{
    Directed, DoorSelector, KeyLink, KeySpec, LinkEdge, LockSpec, PlaySpec, VertexSelector,
};
use crate::diagnostic::{line_col, Diagnostic, Location, Span};
use crate::layout::{GridPoint, RepeatMode};
use crate::settings::{GeometrySettings, SpringShape};

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

/// Vertex names of one side, in order of first mention, for lookup by name.
/// Sides are small, so a linear scan serves; a map is built only for a side
/// with many vertices, to keep reading a huge side from going quadratic.
#[derive(Default)]
struct SideNames<'src> {
    order: Vec<&'src str>,
    map: BTreeMap<&'src str, usize>,
}

impl<'src> SideNames<'src> {
    /// Up to this many vertices, names are found by a scan.
    const SCAN: usize = 32;

    fn clear(&mut self) {
        self.order.clear();
        self.map.clear();
    }

    fn get(&self, name: &str) -> Option<usize> {
        if self.order.len() <= Self::SCAN {
            self.order.iter().position(|&n| n == name)
        } else {
            self.map.get(name).copied()
        }
    }

    /// Adds a name that [`SideNames::get`] did not find.
    fn push(&mut self, name: &'src str) {
        self.order.push(name);
        let n = self.order.len();
        if n == Self::SCAN + 1 {
            self.map = self
                .order
                .iter()
                .enumerate()
                .map(|(i, &name)| (name, i))
                .collect();
        } else if n > Self::SCAN {
            self.map.insert(name, n - 1);
        }
    }
}

const SETTINGS: &str =
    "start, max_iterations, min_vertices, max_vertices, max_valence, grid, geometric";

/// The settings of a `geometric { … }` block, for the unknown-setting hint.
const GEOMETRIC_SETTINGS: &str =
    "spring, steps, finish_steps, room_radius, radius, margin, retries";
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

const ROOMS_WORDS: [&str; 11] = [
    "door",
    "repeat",
    "min_distance",
    "load",
    "template",
    "set",
    "use",
    "corridors",
    "tile_scale",
    "fill",
    "retries",
];
const RULE_ATTRIBUTES: &str =
    "weight, max_uses, probability, no_repeat, priority, group, induced, orient any, mirror";

/// Which side of a rule is being parsed; vertex rules differ by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SideKind {
    /// The pattern: every vertex needs a tag set on first mention.
    Lhs,
    /// A `where not` condition: a vertex without tags names a pattern vertex.
    Nac,
    /// A replacement: one tag or none (keep the host tag).
    Rhs,
}

impl<'src> Parser<'src> {
    fn peek(&self) -> Token<'src> {
        self.tokens[self.pos]
    }

    /// The kind of the token `k` places ahead (`Eof` past the end).
    fn peek_kind(&self, k: usize) -> TokenKind<'src> {
        self.tokens
            .get(self.pos + k)
            .map_or(TokenKind::Eof, |t| t.kind)
    }

    fn bump(&mut self) -> Token<'src> {
        let t = self.tokens[self.pos];
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    /// The span of the token read last.
    fn last_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn at(&self, kind: &TokenKind<'_>) -> bool {
        self.tokens[self.pos].kind == *kind
    }

    fn eat(&mut self, kind: &TokenKind<'_>) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        let t = &self.tokens[self.pos];
        Diagnostic::error(
            format!("expected {expected}, found {}", t.kind.describe()),
            t.span,
        )
    }

    fn expect(&mut self, kind: TokenKind<'_>) -> Result<Token<'src>, Diagnostic> {
        if self.at(&kind) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&kind.describe()))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(&'src str, Span), Diagnostic> {
        match self.peek().kind {
            TokenKind::Ident(name) => Ok((name, self.bump().span)),
            _ => Err(self.unexpected(what)),
        }
    }

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
            spans: SettingSpans::text(),
        };
        let mut seen_recipe: Option<Span> = None;
        let mut seen_header: Option<Span> = None;
        let mut seen_tags: Option<Span> = None;
        let mut seen_rooms: Option<Span> = None;
        let mut seen_play: Option<Span> = None;
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
                    let (name, span) = self.ident("the group's name")?;
                    match self.peek().kind {
                        TokenKind::Ident("max_uses") => {
                            self.bump();
                        }
                        _ => {
                            return Err(self
                                .unexpected("`max_uses`")
                                .with_hint("a group is declared as `group NAME max_uses N`"))
                        }
                    }
                    let max_uses = self.count("max_uses")?;
                    grammar.groups.push(GroupDecl {
                        name: name.to_owned(),
                        max_uses,
                        span: Some(span),
                    });
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
                _ => {
                    return Err(self
                        .unexpected(
                            "`grammar`, `tags`, `rule`, `group`, `recipe`, `rooms` or `play`",
                        )
                        .with_hint(
                            "a grammar file holds a `grammar` header, a `tags` block, `rule` blocks, `group` declarations, a `recipe`, a `rooms` block and a `play` block",
                        ))
                }
            }
        }
    }

    /// Records setting `key` written at `span`; an error naming the line of
    /// the first one when it was set before.
    fn once(
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

    fn duplicate_block(&self, what: &str, span: Span, first: Span) -> Diagnostic {
        let line = line_col(self.src, first.start).line;
        Diagnostic::error(format!("second `{what}` block"), span).with_hint(format!(
            "the first `{what}` block is at line {line}; merge them"
        ))
    }

    fn header(&mut self, grammar: &mut Grammar) -> Result<(), Diagnostic> {
        match self.peek().kind {
            TokenKind::Str(name, escaped) => {
                self.bump();
                grammar.name = string_value(name, escaped);
            }
            _ => return Err(self.unexpected("the grammar's name as a string")),
        }
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.settings(grammar)
            .map_err(|e| self.brace_in_comment(open, e))
    }

    /// The header's settings, after its `{`, through its `}`.
    fn settings(&mut self, grammar: &mut Grammar) -> Result<(), Diagnostic> {
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            let (key, span) = self.ident("a setting or `}`")?;
            self.once(&mut seen, key, span)?;
            let limits = &mut grammar.limits;
            match key {
                "start" => grammar.start = self.ident("the start symbol")?.0.to_owned(),
                "max_iterations" => limits.max_iterations = self.count(key)?,
                "min_vertices" => limits.min_vertices = self.count(key)?,
                "max_vertices" => limits.max_vertices = self.count(key)?,
                "max_valence" => limits.max_valence = Some(self.count(key)?),
                "grid" => {
                    // grid ROWS x COLUMNS of TAG
                    let rows = self.count("grid rows")?;
                    self.keyword("x", "`x` between the grid's rows and columns")?;
                    let columns = self.count("grid columns")?;
                    self.keyword("of", "`of` before the grid's tag")?;
                    let (tag, _) = self.ident("the grid's tag")?;
                    grammar.grid = Some(GridSpec {
                        rows,
                        columns,
                        tag: tag.to_owned(),
                    });
                }
                "geometric" => {
                    grammar.geometry = Some(self.geometric(&mut grammar.spans)?);
                    // The word alone: a `{ … }` block may run over many lines.
                    grammar.spans.insert(key, span);
                    continue;
                }
                _ => {
                    return Err(Diagnostic::error(format!("unknown setting `{key}`"), span)
                        .with_hint(format!("settings are: {SETTINGS}")))
                }
            }
            grammar.spans.insert(key, span.to(self.last_span()));
        }
        Ok(())
    }

    /// `geometric`, optionally followed by `{ settings }`.
    fn geometric(&mut self, spans: &mut SettingSpans) -> Result<GeometrySettings, Diagnostic> {
        let mut settings = GeometrySettings::default();
        if !self.eat(&TokenKind::LBrace) {
            return Ok(settings);
        }
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            let (key, span) = self.ident("a geometric setting or `}`")?;
            if key != "radius" {
                self.once(&mut seen, key, span)?;
            }
            match key {
                "spring" => {
                    let (shape, at) = self.ident("`logarithmic` or `sigmoid`")?;
                    settings.spring = match shape {
                        "logarithmic" => SpringShape::Logarithmic,
                        "sigmoid" => SpringShape::Sigmoid,
                        _ => {
                            return Err(Diagnostic::error(format!("unknown spring `{shape}`"), at)
                                .with_hint("the springs are `logarithmic` and `sigmoid`"))
                        }
                    }
                }
                "steps" => settings.steps = self.count(key)?,
                "finish_steps" => settings.finish_steps = self.count(key)?,
                "retries" => settings.retries = self.count(key)?,
                "margin" => settings.margin = self.length(key, true)?,
                "room_radius" => settings.room_radius = self.length_range(key)?,
                "radius" => {
                    let (tag, at) = self.ident("a tag name after `radius`")?;
                    spans.insert(&format!("radius {tag}"), at);
                    let range = self.length_range("radius")?;
                    if settings.tag_radius.insert(tag.to_owned(), range).is_some() {
                        return Err(
                            Diagnostic::error(format!("`radius {tag}` is set twice"), at)
                                .with_hint("give each tag one radius or range"),
                        );
                    }
                }
                _ => {
                    return Err(Diagnostic::error(
                        format!("unknown geometric setting `{key}`"),
                        span,
                    )
                    .with_hint(format!("geometric settings are: {GEOMETRIC_SETTINGS}")))
                }
            }
        }
        Ok(settings)
    }

    /// A length in drawing units: a number above 0 (or 0 when `zero`).
    fn length(&mut self, what: &str, zero: bool) -> Result<f64, Diagnostic> {
        let tok = self.peek();
        match tok.kind {
            TokenKind::Number(n) if n.is_finite() && (n > 0.0 || (zero && n == 0.0)) => {
                self.bump();
                Ok(n)
            }
            TokenKind::Number(_) => Err(Diagnostic::error(
                format!(
                    "`{what}` must be a number {} 0",
                    if zero { "of at least" } else { "greater than" }
                ),
                tok.span,
            )),
            _ => Err(self.unexpected(&format!("a number for `{what}`"))),
        }
    }

    /// `R` or `MIN..MAX`: lengths above 0, MIN ≤ MAX.
    fn length_range(&mut self, what: &str) -> Result<[f64; 2], Diagnostic> {
        let start = self.peek().span;
        let lo = self.length(what, false)?;
        if !self.eat(&TokenKind::DotDot) {
            return Ok([lo, lo]);
        }
        let hi = self.length(what, false)?;
        if hi < lo {
            return Err(
                Diagnostic::error(format!("`{what}` range {lo}..{hi} is empty"), start)
                    .with_hint("write the smaller radius first"),
            );
        }
        Ok([lo, hi])
    }

    fn count(&mut self, what: &str) -> Result<u32, Diagnostic> {
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

    fn tags(&mut self, out: &mut Vec<TagDecl>) -> Result<(), Diagnostic> {
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
    fn brace_in_comment(&self, open: Span, e: Diagnostic) -> Diagnostic {
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

    fn rule(&mut self) -> Result<Rule, Diagnostic> {
        let (name, span) = self.ident("the rule's name")?;
        let mut rule = Rule {
            name: name.to_owned(),
            weight: 1.0,
            max_uses: None,
            probability: 1.0,
            no_repeat: false,
            priority: 0,
            group: None,
            induced: false,
            orient_any: false,
            mirror: false,
            lhs: Side::default(),
            where_not: Vec::new(),
            rhs: Vec::new(),
            span: Some(span),
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while let TokenKind::Ident(attr) = self.peek().kind {
            let attr_span = self.bump().span;
            if let Some(first) = seen.insert(attr, attr_span) {
                let at = line_col(self.src, first.start);
                return Err(Diagnostic::error(
                    format!("rule attribute `{attr}` is given twice"),
                    attr_span,
                )
                .with_hint(format!(
                    "it is first given at line {}, column {}; keep one",
                    at.line, at.column
                )));
            }
            match attr {
                "weight" => {
                    let tok = self.peek();
                    match tok.kind {
                        TokenKind::Number(w) if w > 0.0 && w.is_finite() => {
                            self.bump();
                            rule.weight = w;
                        }
                        TokenKind::Number(_) => {
                            return Err(Diagnostic::error(
                                "`weight` must be greater than 0",
                                tok.span,
                            )
                            .with_hint("to disable a rule, remove it or give it `max_uses 0`"))
                        }
                        _ => return Err(self.unexpected("a number for `weight`")),
                    }
                }
                "max_uses" => rule.max_uses = Some(self.count("max_uses")?),
                "probability" => {
                    let tok = self.peek();
                    match tok.kind {
                        TokenKind::Number(p) if p > 0.0 && p <= 1.0 => {
                            self.bump();
                            rule.probability = p;
                        }
                        TokenKind::Number(_) => {
                            return Err(Diagnostic::error(
                                "`probability` must be greater than 0 and at most 1",
                                tok.span,
                            ))
                        }
                        _ => return Err(self.unexpected("a number for `probability`")),
                    }
                }
                "no_repeat" => rule.no_repeat = true,
                "induced" => rule.induced = true,
                "mirror" => rule.mirror = true,
                "orient" => {
                    self.keyword("any", "`any` after `orient`")?;
                    rule.orient_any = true;
                }
                "priority" => {
                    let tok = self.peek();
                    match tok.kind {
                        TokenKind::Number(p)
                            if p.fract() == 0.0 && p.abs() <= f64::from(i32::MAX) =>
                        {
                            self.bump();
                            rule.priority = p as i32;
                        }
                        TokenKind::Number(_) => {
                            return Err(Diagnostic::error(
                                "`priority` must be a whole number",
                                tok.span,
                            ))
                        }
                        _ => return Err(self.unexpected("a whole number for `priority`")),
                    }
                }
                "group" => rule.group = Some(self.ident("the group's name")?.0.to_owned()),
                _ => {
                    return Err(Diagnostic::error(
                        format!("unknown rule attribute `{attr}`"),
                        attr_span,
                    )
                    .with_hint(format!("rule attributes are: {RULE_ATTRIBUTES}")))
                }
            }
        }
        if !self.at(&TokenKind::LBrace) {
            return Err(self.unexpected("a rule attribute or `{`"));
        }
        let open = self.bump().span;
        self.rule_body(&mut rule)
            .map_err(|e| self.unclosed(&format!("rule `{name}`"), open, e))?;
        Ok(rule)
    }

    /// A rule's body after its `{`: pattern, `where not` conditions,
    /// alternatives, and the closing `}`.
    fn rule_body(&mut self, rule: &mut Rule) -> Result<(), Diagnostic> {
        rule.lhs = self.side(SideKind::Lhs)?;
        while matches!(self.peek().kind, TokenKind::Ident("where")) {
            self.bump();
            match self.peek().kind {
                TokenKind::Ident("not") => {
                    self.bump();
                }
                _ => return Err(self.unexpected("`not` after `where`")),
            }
            rule.where_not.push(self.side(SideKind::Nac)?);
        }
        while self.at(&TokenKind::Arrow) {
            let arrow = self.bump().span;
            let mut weight = 1.0;
            if let (TokenKind::Number(w), TokenKind::Colon) = (self.peek().kind, self.peek_kind(1))
            {
                if !(w > 0.0 && w.is_finite()) {
                    return Err(Diagnostic::error(
                        "an alternative's weight must be greater than 0",
                        self.peek().span,
                    ));
                }
                self.bump();
                self.bump();
                weight = w;
            }
            let side: Side<ReplacementVertex> = self.side(SideKind::Rhs)?;
            rule.rhs.push(Alternative {
                weight,
                vertices: side.vertices,
                edges: side.edges,
                inside: side.inside,
                span: Some(arrow),
            });
        }
        if rule.rhs.is_empty() {
            return Err(self
                .unexpected("`=>`")
                .with_hint("a rule body is `pattern => replacement`"));
        }
        self.expect(TokenKind::RBrace)?;
        Ok(())
    }

    /// Whether `t` is the end of the file or a word that starts a top-level
    /// item (`rule`, `tags`, …) at the start of a line: where a block that
    /// was not closed runs on to.
    fn starts_item(&self, t: Token<'_>) -> bool {
        match t.kind {
            TokenKind::Eof => true,
            TokenKind::Ident(
                "grammar" | "tags" | "rule" | "group" | "recipe" | "rooms" | "play",
            ) => line_col(self.src, t.span.start).column == 1,
            _ => false,
        }
    }

    /// `e`, an error inside the block `what` opened at `open`, or, when it
    /// stopped at the end of the file or at a word that starts a top-level
    /// item at the start of a line (`rule`, `tags`, …), the error that the
    /// block was not closed: a forgotten `}` was reported at the next rule
    /// as "expected a vertex, found `rule`".
    fn unclosed(&self, what: &str, open: Span, e: Diagnostic) -> Diagnostic {
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

    /// `recipe { [label:] rule[:w] | rule[:w] … COUNT … }` where COUNT is
    /// `N`, `N..M`, `N..*` or `*`.
    fn recipe(&mut self) -> Result<Recipe, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.stages().map_err(|e| self.brace_in_comment(open, e))
    }

    /// The recipe's stages, after its `{`, through its `}`.
    fn stages(&mut self) -> Result<Recipe, Diagnostic> {
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
                let min = self.count("the stage count")?;
                if self.eat(&TokenKind::DotDot) {
                    if self.eat(&TokenKind::Star) {
                        (min, None)
                    } else {
                        (min, Some(self.count("the stage count")?))
                    }
                } else {
                    (min, Some(min))
                }
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

    /// `rooms { … }` after the word `rooms` (at `at`): door rule, repeat
    /// mode, minimum distance, loaded room sets, templates, sets, uses and
    /// corridors, in any order.
    fn rooms(&mut self, at: Span) -> Result<RoomsSpec, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.rooms_body(at)
            .map_err(|e| self.brace_in_comment(open, e))
    }

    /// The `rooms` block's words, after its `{`, through its `}`.
    fn rooms_body(&mut self, at: Span) -> Result<RoomsSpec, Diagnostic> {
        let mut spec = RoomsSpec {
            span: Some(at),
            setting_spans: SettingSpans::text(),
            ..RoomsSpec::default()
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            let (key, span) = self.ident("a word of the `rooms` block or `}`")?;
            if matches!(
                key,
                "door" | "repeat" | "min_distance" | "corridors" | "tile_scale" | "retries"
            ) {
                self.once(&mut seen, key, span)?;
            }
            match key {
                "door" => spec.door = Some(self.door_spec()?),
                "repeat" => {
                    let (mode, at) = self.ident("`allow`, `no_immediate` or `no_repeat`")?;
                    spec.repeat = match mode {
                        "allow" => RepeatMode::Allow,
                        "no_immediate" => RepeatMode::NoImmediate,
                        "no_repeat" => RepeatMode::NoRepeat,
                        _ => {
                            return Err(Diagnostic::error(
                                format!("unknown repeat mode `{mode}`"),
                                at,
                            )
                            .with_hint("the modes are `allow`, `no_immediate` and `no_repeat`"))
                        }
                    };
                }
                "min_distance" => spec.min_distance = self.count("min_distance")?,
                "load" => match self.peek().kind {
                    TokenKind::Str(path, escaped) => {
                        let at = self.bump().span;
                        let key = format!("load {}", spec.load.len());
                        spec.setting_spans.insert(&key, span.to(at));
                        spec.load.push(string_value(path, escaped));
                    }
                    _ => {
                        return Err(self
                            .unexpected("a file or folder name as a string")
                            .with_hint("write `load \"rooms\"`, relative to the grammar file"))
                    }
                },
                "template" => spec.templates.push(self.room_template()?),
                "set" => {
                    let (name, name_span) = self.room_name("the set's name")?;
                    self.expect(TokenKind::Colon)?;
                    let members = self.room_members()?;
                    spec.sets.push(SetSpec {
                        name,
                        members,
                        span: Some(name_span),
                    });
                }
                "use" => {
                    let mut tags = Vec::new();
                    loop {
                        match self.peek().kind {
                            TokenKind::Ident(tag) => tags.push(tag.to_owned()),
                            TokenKind::Star => tags.push(WILDCARD.to_owned()),
                            TokenKind::Colon if !tags.is_empty() => break,
                            _ if tags.is_empty() => {
                                return Err(self.unexpected("a tag or `*`").with_hint(
                                    "a use line is `use TAG …: TEMPLATE …`, or `use *: …` for every other tag",
                                ))
                            }
                            _ => return Err(self.unexpected("a tag, `*` or `:`")),
                        }
                        self.bump();
                    }
                    self.bump();
                    let members = self.room_members()?;
                    let end = self.tokens[self.pos.saturating_sub(1)].span;
                    spec.uses.push(UseSpec {
                        tags,
                        members,
                        span: Some(span.to(end)),
                    });
                }
                "corridors" => {
                    self.expect(TokenKind::Colon)?;
                    spec.corridors = self.room_members()?;
                }
                "tile_scale" => spec.tile_scale = Some(self.count("tile_scale")?),
                "retries" => spec.retries = Some(self.count("retries")?),
                "fill" => {
                    let mut tags = Vec::new();
                    while let TokenKind::Ident(tag) = self.peek().kind {
                        tags.push(tag.to_owned());
                        self.bump();
                    }
                    if tags.is_empty() {
                        return Err(self
                            .unexpected("a tag")
                            .with_hint("a fill line is `fill TAG …: cave` (or `floor`)"));
                    }
                    self.expect(TokenKind::Colon)?;
                    let (kind, kind_span) = self.ident("`cave` or `floor`")?;
                    let fill =
                        match kind {
                            "cave" => FillKind::Cave,
                            "floor" => FillKind::Floor,
                            _ => return Err(Diagnostic::error(
                                format!("unknown room fill `{kind}`"),
                                kind_span,
                            )
                            .with_hint(
                                "the fills are `cave` (a cave made by a cellular automaton) and `floor`",
                            )),
                        };
                    spec.fills.push(FillSpec {
                        tags,
                        fill,
                        span: Some(span.to(kind_span)),
                    });
                }
                _ => {
                    return Err(Diagnostic::error(
                        format!("unknown word `{key}` in the `rooms` block"),
                        span,
                    )
                    .with_hint(format!("a `rooms` block holds: {}", ROOMS_WORDS.join(", "))))
                }
            }
            if seen.contains_key(key) {
                spec.setting_spans.insert(key, span.to(self.last_span()));
            }
        }
        Ok(spec)
    }

    /// `play { … }` after the word `play` (at `at`): entrance, goal, key
    /// statements and settings, in any order (docs/grammar-language.md,
    /// section 19).
    fn play(&mut self, at: Span) -> Result<PlaySpec, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.play_body(at)
            .map_err(|e| self.unclosed("the `play` block", open, e))
    }

    /// The `play` block's statements, after its `{`, through its `}`.
    fn play_body(&mut self, at: Span) -> Result<PlaySpec, Diagnostic> {
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
    fn selector(&mut self, what: &str) -> Result<VertexSelector, Diagnostic> {
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
    fn key_statement(&mut self, at: Span, small: bool) -> Result<KeySpec, Diagnostic> {
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

    /// `LENGTH [corner DISTANCE]` after `door`; the corner distance is 1
    /// when not given.
    fn door_spec(&mut self) -> Result<DoorSpec, Diagnostic> {
        let at = self.peek().span;
        let length = self.count("door")?;
        if length == 0 {
            return Err(Diagnostic::error("door length must be at least 1", at)
                .with_hint("`door LENGTH corner DISTANCE`: a door is LENGTH grid units wide"));
        }
        let corner_distance = if matches!(self.peek().kind, TokenKind::Ident("corner")) {
            self.bump();
            self.count("corner")?
        } else {
            1
        };
        Ok(DoorSpec {
            length,
            corner_distance,
        })
    }

    /// A template or set name: a name or a string.
    fn room_name(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        let tok = self.peek();
        match tok.kind {
            TokenKind::Ident(name) => {
                self.bump();
                Ok((name.to_owned(), tok.span))
            }
            TokenKind::Str(name, escaped) => {
                self.bump();
                Ok((string_value(name, escaped), tok.span))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    /// The members after `set NAME:`, `use …:` or `corridors:`: at least
    /// one name or string; a name that is a word of the block ends the list.
    fn room_members(&mut self) -> Result<Vec<String>, Diagnostic> {
        let mut out = Vec::new();
        loop {
            match self.peek().kind {
                TokenKind::Ident(name) if !ROOMS_WORDS.contains(&name) => {
                    self.bump();
                    out.push(name.to_owned());
                }
                TokenKind::Str(name, escaped) => {
                    self.bump();
                    out.push(string_value(name, escaped));
                }
                _ if out.is_empty() => {
                    return Err(self.unexpected("a template or set name").with_hint(
                        "names that are words of the `rooms` block (`set`, `use`, …) and loaded `set/room` names are written as strings",
                    ))
                }
                _ => return Ok(out),
            }
        }
    }

    /// `NAME (x,y) (x,y) … [door N [corner M]] [doors (x,y) (x,y), …]
    /// [no_rotate] [mirror]` after `template`. A `door` on another line than
    /// the template's last token is the block's, not the template's.
    fn room_template(&mut self) -> Result<TemplateSpec, Diagnostic> {
        let (name, span) = self.room_name("the template's name")?;
        let mut outline = Vec::new();
        while self.at(&TokenKind::LParen) {
            outline.push(self.grid_point()?);
        }
        if outline.is_empty() {
            return Err(self
                .unexpected("the template's corners `(x,y)`")
                .with_hint("a template is `template NAME (0,0) (4,0) (4,4) (0,4)`"));
        }
        let mut spec = TemplateSpec {
            name,
            outline,
            door: None,
            doors: Vec::new(),
            rotate: true,
            mirror: false,
            span: Some(span),
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        while let TokenKind::Ident(option) = self.peek().kind {
            let at = self.peek().span;
            let same_line = {
                let prev = self.tokens[self.pos.saturating_sub(1)].span;
                !self.src[prev.end..at.start].contains('\n')
            };
            match option {
                "door" if same_line => {}
                "doors" | "no_rotate" | "mirror" => {}
                _ => break,
            }
            self.bump();
            if let Some(first) = seen.insert(option, at) {
                let line = line_col(self.src, first.start).line;
                return Err(Diagnostic::error(
                    format!("template `{}`: `{option}` is given twice", spec.name),
                    at,
                )
                .with_hint(format!("it is first given at line {line}")));
            }
            match option {
                "door" => spec.door = Some(self.door_spec()?),
                "doors" => loop {
                    let a = self.grid_point()?;
                    let b = self.grid_point()?;
                    spec.doors.push([a, b]);
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                },
                "no_rotate" => spec.rotate = false,
                _ => spec.mirror = true,
            }
        }
        Ok(spec)
    }

    /// A grid point `(x,y)`: two whole numbers.
    fn grid_point(&mut self) -> Result<GridPoint, Diagnostic> {
        let hint = "points are written `(x,y)` with whole numbers, e.g. `(0,-3)`";
        if !self.at(&TokenKind::LParen) {
            return Err(self.unexpected("a point `(x,y)`").with_hint(hint));
        }
        self.bump();
        let mut xy = [0; 2];
        for (k, what) in ["x", "y"].iter().enumerate() {
            if k == 1 && !self.eat(&TokenKind::Comma) {
                return Err(self.unexpected("`,`").with_hint(hint));
            }
            match self.peek().kind {
                TokenKind::Number(n) if n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX) => {
                    self.bump();
                    xy[k] = n as i32;
                }
                _ => {
                    return Err(self
                        .unexpected(&format!("a whole number for the point's {what}"))
                        .with_hint(hint))
                }
            }
        }
        if !self.eat(&TokenKind::RParen) {
            return Err(self.unexpected("`)`").with_hint(hint));
        }
        Ok(GridPoint::new(xy[0], xy[1]))
    }

    /// A side: chains of vertices and edges, separated by commas (optional
    /// before a `(`). Ends before `=>` or `}`.
    fn side<V: SideVertex>(&mut self, kind: SideKind) -> Result<Side<V>, Diagnostic> {
        let mut side: Side<V> = Side::default();
        self.names.clear();
        self.specs.clear();
        loop {
            if !self.at(&TokenKind::LParen) {
                if side.vertices.is_empty() {
                    let which = match kind {
                        SideKind::Lhs => "pattern",
                        SideKind::Nac => "`where not` condition",
                        SideKind::Rhs => "replacement",
                    };
                    return Err(
                        self.unexpected(&format!("a vertex `(name:tag)` starting the {which}"))
                    );
                }
                return Err(self.unexpected("a vertex `(name:tag)`"));
            }
            let mut prev = self.vertex(&mut side)?;
            loop {
                let tok = self.peek();
                let (edge, op_span) = match tok.kind {
                    TokenKind::Edge {
                        directed,
                        cosmetic,
                        label,
                    } => (Some((directed, cosmetic, label)), tok.span),
                    TokenKind::Ident("in") => (None, tok.span),
                    _ => break,
                };
                self.bump();
                let length = if edge.is_some() && self.at(&TokenKind::LBrace) {
                    Some(self.edge_length()?)
                } else {
                    None
                };
                if !self.at(&TokenKind::LParen) {
                    return Err(self.unexpected("a vertex after the edge"));
                }
                // `(a:s) -> (a:room)` in a pattern: `->` (a directed edge)
                // typed for `=>`, which reads as one vertex given two tags.
                let arrow_typo = kind == SideKind::Lhs
                    && matches!(edge, Some((true, false, None)))
                    && matches!(
                        (self.peek_kind(1), self.peek_kind(2)),
                        (TokenKind::Ident(n), TokenKind::Colon) if self.names.get(n).is_some()
                    );
                let next = self.vertex(&mut side).map_err(|e| {
                    if arrow_typo {
                        e.with_hint(
                            "`->` is a directed edge; the arrow from a rule's pattern to its replacement is `=>`",
                        )
                    } else {
                        e
                    }
                })?;
                match edge {
                    Some((directed, cosmetic, label)) => side.edges.push(RuleEdge {
                        source: prev.to_owned(),
                        target: next.to_owned(),
                        directed,
                        cosmetic,
                        label: label.map(str::to_owned),
                        length,
                        span: Some(op_span),
                    }),
                    None => side.inside.push(Containment {
                        child: prev.to_owned(),
                        parent: next.to_owned(),
                        span: Some(op_span),
                    }),
                }
                prev = next;
            }
            self.eat(&TokenKind::Comma);
            let at_where = matches!(self.peek().kind, TokenKind::Ident("where"));
            if self.at(&TokenKind::Arrow) || self.at(&TokenKind::RBrace) || at_where {
                break;
            }
        }
        for (v, spec) in side.vertices.iter_mut().zip(self.specs.drain(..)) {
            v.apply(spec, kind)?;
        }
        Ok(side)
    }

    /// `{length: F}` after an edge operator, F a number above 0.
    fn edge_length(&mut self) -> Result<f64, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        self.keyword("length", "`length` (an edge's only attribute)")?;
        self.expect(TokenKind::Colon)?;
        let value = self.length("length", false)?;
        self.expect(TokenKind::RBrace)?;
        Ok(value)
    }

    fn vertex<V: SideVertex>(&mut self, side: &mut Side<V>) -> Result<&'src str, Diagnostic> {
        let open = self.expect(TokenKind::LParen)?.span;
        let (name, _) = self.ident("a vertex name")?;
        let mut spec = None;
        if self.eat(&TokenKind::Colon) {
            spec = Some(self.tag_spec()?);
        }
        let offset = if self.eat(&TokenKind::At) {
            Some(self.offset()?)
        } else {
            None
        };
        let attributes = if self.at(&TokenKind::LBrace) {
            self.attributes()?
        } else {
            BTreeMap::new()
        };
        let close = self.expect(TokenKind::RParen)?.span;
        let span = open.to(close);
        match self.names.get(name) {
            None => {
                self.names.push(name);
                let mut v = V::new(name.to_owned(), attributes, span);
                v.set_offset(offset);
                side.vertices.push(v);
                self.specs.push(spec.map(|s| s.at(span)));
            }
            Some(i) => {
                if let Some(o) = offset {
                    match side.vertices[i].offset() {
                        Some(first) if first != o => {
                            return Err(Diagnostic::error(
                                format!(
                                    "vertex `{name}` is given two grid offsets on the same side"
                                ),
                                span,
                            ))
                        }
                        _ => side.vertices[i].set_offset(Some(o)),
                    }
                }
                if let Some(s) = spec {
                    match &self.specs[i] {
                        Some(first) if first.same_tags(&s) => {}
                        Some(first) => {
                            let line = line_col(self.src, first.span.start).line;
                            return Err(Diagnostic::error(
                                format!("vertex `{name}` is given different tags on the same side"),
                                span,
                            )
                            .with_hint(format!(
                                "its tags are set at line {line}; later mentions can be just `({name})`"
                            )));
                        }
                        None => self.specs[i] = Some(s.at(span)),
                    }
                }
                if !attributes.is_empty() {
                    side.vertices[i].merge_attributes(attributes);
                }
            }
        }
        Ok(name)
    }

    fn tag_spec(&mut self) -> Result<VertexSpec, Diagnostic> {
        let start = self.peek().span;
        let mut spec = VertexSpec {
            tags: Vec::new(),
            forbidden: Vec::new(),
            valence: None,
            span: start,
        };
        if self.eat(&TokenKind::Star) {
            spec.tags.push(WILDCARD.to_owned());
        } else if let TokenKind::Ident(_) = self.peek().kind {
            spec.tags.push(self.ident("a tag")?.0.to_owned());
            while self.eat(&TokenKind::Pipe) {
                spec.tags.push(self.ident("a tag after `|`")?.0.to_owned());
            }
        } else if self.at(&TokenKind::Bang) {
            return Err(
                Diagnostic::error("forbidden tags need a tag set before them", start)
                    .with_hint("write `(b:* !lock)` to match any tag except next to a lock"),
            );
        } else {
            return Err(self.unexpected("a tag, `*`, or alternatives `a|b`"));
        }
        while self.eat(&TokenKind::Bang) {
            spec.forbidden
                .push(self.ident("a tag after `!`")?.0.to_owned());
        }
        if matches!(self.peek().kind, TokenKind::Ident("valence")) {
            self.bump();
            spec.valence = Some(self.count("valence")?);
        }
        Ok(spec)
    }

    /// `dx,dy` after `@`: two whole numbers.
    fn offset(&mut self) -> Result<[i32; 2], Diagnostic> {
        let mut out = [0; 2];
        for (k, what) in ["dx", "dy"].iter().enumerate() {
            if k == 1 {
                self.expect(TokenKind::Comma)?;
            }
            match self.peek().kind {
                TokenKind::Number(n)
                    if n.fract() == 0.0 && n.abs() <= f64::from(crate::matching::MAX_OFFSET) =>
                {
                    self.bump();
                    out[k] = n as i32;
                }
                _ => {
                    return Err(self
                        .unexpected(&format!("a whole number for the offset's {what}"))
                        .with_hint("grid offsets are written `@dx,dy`, e.g. `@1,0`"))
                }
            }
        }
        Ok(out)
    }

    /// Expects the word `word`.
    fn keyword(&mut self, word: &str, what: &str) -> Result<(), Diagnostic> {
        match self.peek().kind {
            TokenKind::Ident(w) if w == word => {
                self.bump();
                Ok(())
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn attributes(&mut self) -> Result<BTreeMap<String, String>, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let mut out = BTreeMap::new();
        while !self.eat(&TokenKind::RBrace) {
            let (key, _) = self.ident("an attribute name or `}`")?;
            self.expect(TokenKind::Colon)?;
            let value = match self.peek().kind {
                TokenKind::Ident(s) => s.to_owned(),
                TokenKind::Str(s, escaped) => string_value(s, escaped),
                TokenKind::Number(n) => n.to_string(),
                _ => return Err(self.unexpected("an attribute value")),
            };
            self.bump();
            out.insert(key.to_owned(), value);
            if !self.eat(&TokenKind::Comma) && !self.at(&TokenKind::RBrace) {
                return Err(self.unexpected("`,` or `}`"));
            }
        }
        Ok(out)
    }
}

/// The tag part `:a|b !c` of a vertex as written.
/// Its tags are the model's strings already, moved into the vertex at the
/// end of the side.
#[derive(Clone, Debug)]
struct VertexSpec {
    tags: Vec<String>,
    forbidden: Vec<String>,
    valence: Option<u32>,
    span: Span,
}

impl VertexSpec {
    /// Same alternatives and forbidden tags, in any order.
    fn same_tags(&self, other: &VertexSpec) -> bool {
        fn sorted(v: &[String]) -> Vec<&str> {
            let mut v: Vec<&str> = v.iter().map(String::as_str).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        sorted(&self.tags) == sorted(&other.tags)
            && sorted(&self.forbidden) == sorted(&other.forbidden)
            && self.valence == other.valence
    }

    fn at(mut self, span: Span) -> Self {
        self.span = span;
        self
    }
}

/// What a side's vertex type needs from the parser.
trait SideVertex: Sized {
    fn new(name: String, attributes: BTreeMap<String, String>, span: Span) -> Self;
    fn merge_attributes(&mut self, attributes: BTreeMap<String, String>);
    fn offset(&self) -> Option<[i32; 2]>;
    fn set_offset(&mut self, offset: Option<[i32; 2]>);
    fn apply(&mut self, spec: Option<VertexSpec>, kind: SideKind) -> Result<(), Diagnostic>;
}

impl SideVertex for PatternVertex {
    fn new(name: String, attributes: BTreeMap<String, String>, span: Span) -> Self {
        PatternVertex {
            name,
            tags: Vec::new(),
            forbidden: Vec::new(),
            attributes,
            valence: None,
            offset: None,
            span: Some(span),
        }
    }

    fn offset(&self) -> Option<[i32; 2]> {
        self.offset
    }

    fn set_offset(&mut self, offset: Option<[i32; 2]>) {
        self.offset = offset;
    }

    fn merge_attributes(&mut self, attributes: BTreeMap<String, String>) {
        self.attributes.extend(attributes);
    }

    fn apply(&mut self, spec: Option<VertexSpec>, kind: SideKind) -> Result<(), Diagnostic> {
        match spec {
            Some(spec) => {
                self.tags = spec.tags;
                self.forbidden = spec.forbidden;
                self.valence = spec.valence;
                Ok(())
            }
            // In a `where not` condition a bare name refers to a pattern
            // vertex; compilation checks that it does.
            None if kind == SideKind::Nac => Ok(()),
            None => Err(Diagnostic::error(
                format!("pattern vertex `{}` has no tag", self.name),
                self.span.unwrap_or_default(),
            )
            .with_hint(format!("write `({}:*)` to match any tag", self.name))),
        }
    }
}

impl SideVertex for ReplacementVertex {
    fn new(name: String, attributes: BTreeMap<String, String>, span: Span) -> Self {
        ReplacementVertex {
            name,
            tag: None,
            attributes,
            offset: None,
            span: Some(span),
        }
    }

    fn offset(&self) -> Option<[i32; 2]> {
        self.offset
    }

    fn set_offset(&mut self, offset: Option<[i32; 2]>) {
        self.offset = offset;
    }

    fn merge_attributes(&mut self, attributes: BTreeMap<String, String>) {
        self.attributes.extend(attributes);
    }

    fn apply(&mut self, spec: Option<VertexSpec>, _kind: SideKind) -> Result<(), Diagnostic> {
        let Some(spec) = spec else { return Ok(()) };
        let name = &self.name;
        if spec.valence.is_some() {
            return Err(Diagnostic::error(
                format!("replacement vertex `{name}` cannot require a valence"),
                spec.span,
            )
            .with_hint("`valence N` belongs on the pattern side"));
        }
        if spec.tags.len() != 1 || spec.tags[0] == WILDCARD || !spec.forbidden.is_empty() {
            return Err(Diagnostic::error(
                format!("replacement vertex `{name}` must have exactly one tag"),
                spec.span,
            )
            .with_hint(format!(
                "alternatives, `*` and `!tag` belong on the pattern side; write `({name})` to keep the host tag"
            )));
        }
        self.tag = spec.tags.into_iter().next();
        Ok(())
    }
}

/// The offset of the first comment (`#` or `//`) in `src[from..to]`, text
/// between two tokens, that has a `}` before its line ends with no `{`
/// before it in the comment to match it: `# {a} is the hub` closes nothing.
fn comment_with_brace(src: &str, from: usize, to: usize) -> Option<usize> {
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
fn colour_comment_at(src: &str, from: usize) -> Option<Span> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_names_scan_then_map() {
        let names: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
        let mut side = SideNames::default();
        for (i, name) in names.iter().enumerate() {
            assert_eq!(side.get(name), None);
            side.push(name);
            // Every name so far is found, on both sides of the switch to a map.
            for (j, earlier) in names[..=i].iter().enumerate() {
                assert_eq!(side.get(earlier), Some(j));
            }
        }
        side.clear();
        assert_eq!(side.get("v0"), None);
    }

    #[test]
    fn a_side_with_many_vertices_keeps_first_mentions() {
        // 40 vertices in a chain, then the chain walked back: past the scan limit.
        let chain: Vec<String> = (0..40).map(|i| format!("(v{i}:s)")).collect();
        let back: Vec<String> = (0..40).rev().map(|i| format!("(v{i})")).collect();
        let src = format!(
            "tags {{ s }} rule r {{ {} , {} => (v0) }}",
            chain.join(" -> "),
            back.join(" ~~ ")
        );
        let g = parse(&src, "big").unwrap();
        let lhs = &g.rules[0].lhs;
        assert_eq!(lhs.vertices.len(), 40);
        assert!(lhs.vertices.iter().all(|v| v.tags == ["s"]));
        assert_eq!(lhs.edges.len(), 78);
        assert_eq!(lhs.edges[39].source, "v39");
        assert_eq!(lhs.edges[39].target, "v38");
    }
}
