//! Sides of rules: chains of vertices and edges, containment (`in`),
//! vertices with tags, attributes and grid offsets `@dx,dy`.

use std::collections::BTreeMap;

use super::Parser;
use crate::diagnostic::{line_col, Diagnostic, Span};
use crate::grammar::lexer::{string_value, TokenKind};
use crate::grammar::model::{
    Containment, PatternVertex, ReplacementVertex, RuleEdge, Side, WILDCARD,
};

/// Vertex names of one side, in order of first mention, for lookup by name.
/// Sides are small, so a linear scan serves; a map is built only for a side
/// with many vertices, to keep reading a huge side from going quadratic.
#[derive(Default)]
pub(super) struct SideNames<'src> {
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

/// Which side of a rule is being parsed; vertex rules differ by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SideKind {
    /// The pattern: every vertex needs a tag set on first mention.
    Lhs,
    /// A `where not` condition: a vertex without tags names a pattern vertex.
    Nac,
    /// A replacement: one tag or none (keep the host tag).
    Rhs,
}

impl<'src> Parser<'src> {
    /// A side: chains of vertices and edges, separated by commas (optional
    /// before a `(`). Ends before `=>` or `}`.
    pub(super) fn side<V: SideVertex>(&mut self, kind: SideKind) -> Result<Side<V>, Diagnostic> {
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
    pub(super) fn edge_length(&mut self) -> Result<f64, Diagnostic> {
        self.expect(TokenKind::LBrace)?;
        self.keyword("length", "`length` (an edge's only attribute)")?;
        self.expect(TokenKind::Colon)?;
        let value = self.length("length", false)?;
        self.expect(TokenKind::RBrace)?;
        Ok(value)
    }

    pub(super) fn vertex<V: SideVertex>(
        &mut self,
        side: &mut Side<V>,
    ) -> Result<&'src str, Diagnostic> {
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

    pub(super) fn tag_spec(&mut self) -> Result<VertexSpec, Diagnostic> {
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
    pub(super) fn offset(&mut self) -> Result<[i32; 2], Diagnostic> {
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

    pub(super) fn attributes(&mut self) -> Result<BTreeMap<String, String>, Diagnostic> {
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
pub(super) struct VertexSpec {
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
pub(super) trait SideVertex: Sized {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::parse;

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
