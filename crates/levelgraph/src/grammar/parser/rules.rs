//! Rules: `rule NAME attributes { pattern where not … => alternatives }`,
//! and `group` declarations.

use std::collections::BTreeMap;

use super::sides::SideKind;
use super::Parser;
use crate::diagnostic::{line_col, Diagnostic, Span};
use crate::grammar::lexer::TokenKind;
use crate::grammar::model::{Alternative, GroupDecl, ReplacementVertex, Rule, Side};

/// The attributes a rule may have, for the unknown-attribute hint.
const RULE_ATTRIBUTES: &str =
    "weight, max_uses, probability, no_repeat, count_once, priority, group, induced, orient any, mirror";

impl<'src> Parser<'src> {
    pub(super) fn rule(&mut self) -> Result<Rule, Diagnostic> {
        let (name, span) = self.ident("the rule's name")?;
        let mut rule = Rule {
            name: name.to_owned(),
            weight: 1.0,
            max_uses: None,
            probability: 1.0,
            no_repeat: false,
            count_once: false,
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
            self.rule_attribute(&mut rule, attr, attr_span)?;
        }
        if !self.at(&TokenKind::LBrace) {
            return Err(self.unexpected("a rule attribute or `{`"));
        }
        let open = self.bump().span;
        self.rule_body(&mut rule)
            .map_err(|e| self.unclosed(&format!("rule `{name}`"), open, e))?;
        Ok(rule)
    }

    /// The value of rule attribute `attr` (read at `attr_span`), into `rule`.
    pub(super) fn rule_attribute(
        &mut self,
        rule: &mut Rule,
        attr: &str,
        attr_span: Span,
    ) -> Result<(), Diagnostic> {
        match attr {
            "weight" => {
                let tok = self.peek();
                match tok.kind {
                    TokenKind::Number(w) if w > 0.0 && w.is_finite() => {
                        self.bump();
                        rule.weight = w;
                    }
                    TokenKind::Number(_) => {
                        return Err(
                            Diagnostic::error("`weight` must be greater than 0", tok.span)
                                .with_hint("to disable a rule, remove it or give it `max_uses 0`"),
                        )
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
            "count_once" => rule.count_once = true,
            "induced" => rule.induced = true,
            "mirror" => rule.mirror = true,
            "orient" => {
                self.keyword("any", "`any` after `orient`")?;
                rule.orient_any = true;
            }
            "priority" => {
                let tok = self.peek();
                match tok.kind {
                    TokenKind::Number(p) if p.fract() == 0.0 && p.abs() <= f64::from(i32::MAX) => {
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
        Ok(())
    }

    /// A rule's body after its `{`: pattern, `where not` conditions,
    /// alternatives, and the closing `}`.
    pub(super) fn rule_body(&mut self, rule: &mut Rule) -> Result<(), Diagnostic> {
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

    /// `NAME max_uses N` after `group`.
    pub(super) fn group(&mut self) -> Result<GroupDecl, Diagnostic> {
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
        Ok(GroupDecl {
            name: name.to_owned(),
            max_uses,
            span: Some(span),
        })
    }
}
