//! The `grammar "name" { … }` header: limits, start symbol, grid and
//! `geometric` settings.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::{Diagnostic, Span};
use crate::grammar::lexer::{string_value, TokenKind};
use crate::grammar::model::{Grammar, GridSpec, SettingSpans};
use crate::settings::{GeometrySettings, SpringShape};

/// The header's settings, for the unknown-setting hint.
const SETTINGS: &str =
    "start, max_iterations, min_vertices, max_vertices, max_valence, grid, geometric";

/// The settings of a `geometric { … }` block, for the unknown-setting hint.
const GEOMETRIC_SETTINGS: &str =
    "spring, steps, finish_steps, room_radius, radius, margin, retries";

impl<'src> Parser<'src> {
    pub(super) fn header(&mut self, grammar: &mut Grammar) -> Result<(), Diagnostic> {
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
    pub(super) fn settings(&mut self, grammar: &mut Grammar) -> Result<(), Diagnostic> {
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
    pub(super) fn geometric(
        &mut self,
        spans: &mut SettingSpans,
    ) -> Result<GeometrySettings, Diagnostic> {
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
    pub(super) fn length(&mut self, what: &str, zero: bool) -> Result<f64, Diagnostic> {
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
    pub(super) fn length_range(&mut self, what: &str) -> Result<[f64; 2], Diagnostic> {
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
}
