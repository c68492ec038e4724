//! Tokens of the grammar language. See `docs/grammar-language.md`.
//!
//! Two lexical choices need care:
//! - `#` starts a comment, except `#` followed by exactly six hex digits
//!   (and no further identifier character), which is a colour `#rrggbb`.
//! - `-` inside a name (`init-lock`) is part of the name only when a letter,
//!   digit or `_` follows it, so `a--b` and `a->b` still split at the edge.

use crate::diagnostic::{Diagnostic, Span};

/// One token with its span.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) span: Span,
}

/// The kinds of token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TokenKind {
    Ident(String),
    Str(String),
    Number(f64),
    Color(String),
    LParen,
    RParen,
    LBrace,
    RBrace,
    Colon,
    Pipe,
    Bang,
    Star,
    Comma,
    Arrow,
    /// `..` in stage counts (`1..5`).
    DotDot,
    /// `@` before a grid offset (`@1,0`).
    At,
    /// `--`, `->`, `~~`, `~>`, `-[l]-`, `-[l]->`, `~[l]~`, `~[l]~>`.
    Edge {
        directed: bool,
        cosmetic: bool,
        label: Option<String>,
    },
    Eof,
}

impl TokenKind {
    /// How the token is named in "expected …, found …" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            TokenKind::Ident(s) => format!("`{s}`"),
            TokenKind::Str(s) => format!("string \"{s}\""),
            TokenKind::Number(n) => format!("number {n}"),
            TokenKind::Color(c) => format!("colour {c}"),
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
            TokenKind::LBrace => "`{`".into(),
            TokenKind::RBrace => "`}`".into(),
            TokenKind::Colon => "`:`".into(),
            TokenKind::Pipe => "`|`".into(),
            TokenKind::Bang => "`!`".into(),
            TokenKind::Star => "`*`".into(),
            TokenKind::Comma => "`,`".into(),
            TokenKind::Arrow => "`=>`".into(),
            TokenKind::DotDot => "`..`".into(),
            TokenKind::At => "`@`".into(),
            TokenKind::Edge { .. } => "an edge".into(),
            TokenKind::Eof => "end of file".into(),
        }
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits `src` into tokens, ending with [`TokenKind::Eof`].
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' {
            let hex = (1..=6).all(|k| at(i + k).is_ascii_hexdigit());
            if hex && !is_ident_char(at(i + 7)) {
                out.push(Token {
                    kind: TokenKind::Color(src[i..i + 7].to_ascii_lowercase()),
                    span: Span::new(i, i + 7),
                });
                i += 7;
                continue;
            }
            i = skip_line(bytes, i);
            continue;
        }
        if c == b'/' && at(i + 1) == b'/' {
            i = skip_line(bytes, i);
            continue;
        }
        if is_ident_start(c) {
            i += 1;
            while is_ident_char(at(i)) || (at(i) == b'-' && is_ident_char(at(i + 1))) {
                i += 1;
            }
            out.push(Token {
                kind: TokenKind::Ident(src[start..i].to_owned()),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'-' && at(i + 1).is_ascii_digit()) {
            i += 1;
            while at(i).is_ascii_digit() || (at(i) == b'.' && at(i + 1).is_ascii_digit()) {
                i += 1;
            }
            let text = &src[start..i];
            let value = text.parse::<f64>().map_err(|_| {
                Diagnostic::error(format!("bad number `{text}`"), Span::new(start, i))
            })?;
            out.push(Token {
                kind: TokenKind::Number(value),
                span: Span::new(start, i),
            });
            continue;
        }
        if c == b'"' {
            let (text, end) = lex_string(src, i)?;
            out.push(Token {
                kind: TokenKind::Str(text),
                span: Span::new(start, end),
            });
            i = end;
            continue;
        }
        if c == b'-' || c == b'~' {
            let (kind, end) = lex_edge(src, i)?;
            out.push(Token {
                kind,
                span: Span::new(start, end),
            });
            i = end;
            continue;
        }
        let (kind, len) = match c {
            b'(' => (TokenKind::LParen, 1),
            b')' => (TokenKind::RParen, 1),
            b'{' => (TokenKind::LBrace, 1),
            b'}' => (TokenKind::RBrace, 1),
            b':' => (TokenKind::Colon, 1),
            b'|' => (TokenKind::Pipe, 1),
            b'!' => (TokenKind::Bang, 1),
            b'*' => (TokenKind::Star, 1),
            b',' => (TokenKind::Comma, 1),
            b'=' if at(i + 1) == b'>' => (TokenKind::Arrow, 2),
            b'.' if at(i + 1) == b'.' => (TokenKind::DotDot, 2),
            b'@' => (TokenKind::At, 1),
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error(
                    format!("unexpected character `{ch}`"),
                    Span::new(i, i + ch.len_utf8()),
                ));
            }
        };
        out.push(Token {
            kind,
            span: Span::new(start, start + len),
        });
        i += len;
    }
    out.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}

fn skip_line(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' {
        i += 1;
    }
    i
}

fn lex_string(src: &str, start: usize) -> Result<(String, usize), Diagnostic> {
    let mut text = String::new();
    let mut chars = src[start + 1..].char_indices();
    while let Some((k, ch)) = chars.next() {
        let pos = start + 1 + k;
        match ch {
            '"' => return Ok((text, pos + 1)),
            '\n' => break,
            '\\' => match chars.next() {
                Some((_, 'n')) => text.push('\n'),
                Some((_, '"')) => text.push('"'),
                Some((_, '\\')) => text.push('\\'),
                Some((k2, other)) => {
                    let p = start + 1 + k2;
                    return Err(Diagnostic::error(
                        format!("unknown escape `\\{other}` in string"),
                        Span::new(pos, p + other.len_utf8()),
                    )
                    .with_hint("strings know \\n, \\\" and \\\\"));
                }
                None => break,
            },
            _ => text.push(ch),
        }
    }
    Err(
        Diagnostic::error("unterminated string", Span::new(start, start + 1))
            .with_hint("close the string with `\"` on the same line"),
    )
}

/// Lexes an edge operator starting at `start` (a `-` or `~`).
fn lex_edge(src: &str, start: usize) -> Result<(TokenKind, usize), Diagnostic> {
    let bytes = src.as_bytes();
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let c = bytes[start];
    let cosmetic = c == b'~';
    let op_hint = "edges are written `--`, `->`, `~~`, `~>`, `-[label]-` or `-[label]->`";
    let bad = |end: usize| {
        Diagnostic::error(
            "malformed edge operator",
            Span::new(start, end.min(src.len())),
        )
        .with_hint(op_hint)
    };
    match at(start + 1) {
        x if x == c => Ok((
            TokenKind::Edge {
                directed: false,
                cosmetic,
                label: None,
            },
            start + 2,
        )),
        b'>' => Ok((
            TokenKind::Edge {
                directed: true,
                cosmetic,
                label: None,
            },
            start + 2,
        )),
        b'[' => {
            let mut i = start + 2;
            while at(i) == b' ' {
                i += 1;
            }
            let label_start = i;
            while is_ident_char(at(i)) || (at(i) == b'-' && is_ident_char(at(i + 1))) {
                i += 1;
            }
            if i == label_start || !is_ident_start(at(label_start)) {
                return Err(Diagnostic::error(
                    "edge label must be a name",
                    Span::new(label_start, (i + 1).min(src.len())),
                )
                .with_hint("write `-[locked]->`"));
            }
            let label = src[label_start..i].to_owned();
            while at(i) == b' ' {
                i += 1;
            }
            if at(i) != b']' || at(i + 1) != c {
                return Err(bad(i + 2));
            }
            i += 2;
            let directed = at(i) == b'>';
            if directed {
                i += 1;
            }
            Ok((
                TokenKind::Edge {
                    directed,
                    cosmetic,
                    label: Some(label),
                },
                i,
            ))
        }
        _ => Err(bad(start + 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        tokenize(src).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn hyphenated_names_and_edges() {
        use TokenKind::*;
        let e = |directed, cosmetic, label: Option<&str>| Edge {
            directed,
            cosmetic,
            label: label.map(str::to_owned),
        };
        assert_eq!(
            kinds("init-lock--a->b~~c~>d -[locked]-> e ~[x]~ f"),
            vec![
                Ident("init-lock".into()),
                e(false, false, None),
                Ident("a".into()),
                e(true, false, None),
                Ident("b".into()),
                e(false, true, None),
                Ident("c".into()),
                e(true, true, None),
                Ident("d".into()),
                e(true, false, Some("locked")),
                Ident("e".into()),
                e(false, true, Some("x")),
                Ident("f".into()),
                Eof
            ]
        );
    }

    #[test]
    fn colour_versus_comment() {
        use TokenKind::*;
        assert_eq!(
            kinds("a #9E9e9e # comment\n#deadbeef also comment\n// c\nb"),
            vec![
                Ident("a".into()),
                Color("#9e9e9e".into()),
                Ident("b".into()),
                Eof
            ]
        );
    }

    #[test]
    fn malformed_edge_is_located() {
        let err = tokenize("(a) -= (b)").unwrap_err();
        assert_eq!(err.message, "malformed edge operator");
        assert_eq!(
            err.location,
            crate::diagnostic::Location::Span(Span::new(4, 6))
        );
    }
}
