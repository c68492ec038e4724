//! The `rooms { … }` block: door rule, repeat mode, loaded room sets,
//! inline templates, sets, `use` lines, corridors and fills.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::line_col;
use crate::diagnostic::{Diagnostic, Span};
use crate::grammar::lexer::{string_value, TokenKind};
use crate::grammar::model::{
    DoorSpec, FillKind, FillSpec, RoomsSpec, SetSpec, SettingSpans, TemplateSpec, UseSpec, WILDCARD,
};
use crate::layout::{GridPoint, RepeatMode};

/// The words of a `rooms { … }` block, for the unknown-word hint. A member
/// name spelled like one of them must be written as a string.
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

impl<'src> Parser<'src> {
    /// `rooms { … }` after the word `rooms` (at `at`): door rule, repeat
    /// mode, minimum distance, loaded room sets, templates, sets, uses and
    /// corridors, in any order.
    pub(super) fn rooms(&mut self, at: Span) -> Result<RoomsSpec, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        let open = self.last_span();
        self.rooms_body(at)
            .map_err(|e| self.brace_in_comment(open, e))
    }

    /// The `rooms` block's words, after its `{`, through its `}`.
    pub(super) fn rooms_body(&mut self, at: Span) -> Result<RoomsSpec, Diagnostic> {
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
                "repeat" => spec.repeat = self.repeat_mode()?,
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
                "use" => spec.uses.push(self.use_line(span)?),
                "corridors" => {
                    self.expect(TokenKind::Colon)?;
                    spec.corridors = self.room_members()?;
                }
                "tile_scale" => spec.tile_scale = Some(self.count("tile_scale")?),
                "retries" => spec.retries = Some(self.count("retries")?),
                "fill" => spec.fills.push(self.fill_line(span)?),
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

    /// `allow`, `no_immediate` or `no_repeat` after `repeat`.
    pub(super) fn repeat_mode(&mut self) -> Result<RepeatMode, Diagnostic> {
        let (mode, at) = self.ident("`allow`, `no_immediate` or `no_repeat`")?;
        Ok(match mode {
            "allow" => RepeatMode::Allow,
            "no_immediate" => RepeatMode::NoImmediate,
            "no_repeat" => RepeatMode::NoRepeat,
            _ => {
                return Err(
                    Diagnostic::error(format!("unknown repeat mode `{mode}`"), at)
                        .with_hint("the modes are `allow`, `no_immediate` and `no_repeat`"),
                )
            }
        })
    }

    /// `TAG …: MEMBER …` (or `*: …`) after `use` (at `span`).
    pub(super) fn use_line(&mut self, span: Span) -> Result<UseSpec, Diagnostic> {
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
        Ok(UseSpec {
            tags,
            members,
            span: Some(span.to(end)),
        })
    }

    /// `TAG …: cave` (or `floor`) after `fill` (at `span`).
    pub(super) fn fill_line(&mut self, span: Span) -> Result<FillSpec, Diagnostic> {
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
        let fill = match kind {
            "cave" => FillKind::Cave,
            "floor" => FillKind::Floor,
            _ => {
                return Err(
                    Diagnostic::error(format!("unknown room fill `{kind}`"), kind_span).with_hint(
                        "the fills are `cave` (a cave made by a cellular automaton) and `floor`",
                    ),
                )
            }
        };
        Ok(FillSpec {
            tags,
            fill,
            span: Some(span.to(kind_span)),
        })
    }

    /// `LENGTH [corner DISTANCE]` after `door`; the corner distance is 1
    /// when not given.
    pub(super) fn door_spec(&mut self) -> Result<DoorSpec, Diagnostic> {
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
    pub(super) fn room_name(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
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
    pub(super) fn room_members(&mut self) -> Result<Vec<String>, Diagnostic> {
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
    pub(super) fn room_template(&mut self) -> Result<TemplateSpec, Diagnostic> {
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
    pub(super) fn grid_point(&mut self) -> Result<GridPoint, Diagnostic> {
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
}
