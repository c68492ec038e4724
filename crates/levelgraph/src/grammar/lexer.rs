//! Tokens of the grammar language. See `docs/grammar-language.md`.
//!
//! Two lexical choices need care:
//! - `#` starts a comment, except `#` followed by exactly six hex digits
//!   (and no further identifier character), which is a colour `#rrggbb`.
//! - `-` inside a name (`init-lock`) is part of the name only when a letter,
//!   digit or `_` follows it, so `a--b` and `a->b` still split at the edge.
//!
//! Tokens borrow their text from the source instead of owning it, and are
//! `Copy`: loading a grammar is on the path of every `load` + `derive`, and
//! copying each token's text into a `String` (and cloning tokens as the
//! parser looked at them) was the largest single cost of reading a grammar.
//! The parser makes owned strings only for what the model keeps.

use crate::diagnostic::{strip_bom, Diagnostic, Span};

/// The most tokens a grammar text may have (a million: the examples have a
/// few thousand, a rule of 30,000 vertices about 180,000). Each takes 40
/// bytes while the grammar is parsed.
pub const MAX_TOKENS: usize = 1_000_000;

/// One token with its span.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Token<'src> {
    pub(crate) kind: TokenKind<'src>,
    pub(crate) span: Span,
}

/// The kinds of token. Text is a slice of the source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TokenKind<'src> {
    Ident(&'src str),
    /// A string literal: its text between the quotes as written, and whether
    /// that text holds escapes ([`string_value`] gives its value).
    Str(&'src str, bool),
    Number(f64),
    /// `#rrggbb` as written (any case).
    Color(&'src str),
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
        label: Option<&'src str>,
    },
    Eof,
}

impl TokenKind<'_> {
    /// How the token is named in "expected …, found …" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            TokenKind::Ident(s) => format!("`{s}`"),
            TokenKind::Str(s, escaped) => format!("string \"{}\"", string_value(s, *escaped)),
            TokenKind::Number(n) => format!("number {n}"),
            TokenKind::Color(c) => format!("colour {}", c.to_ascii_lowercase()),
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

/// The value of a string token's text (`raw`, between the quotes): with
/// `escaped`, `\n`, `\"` and `\\` are replaced (the lexer has checked that
/// no other escape occurs).
pub(crate) fn string_value(raw: &str, escaped: bool) -> String {
    if escaped {
        unescape(raw)
    } else {
        raw.to_owned()
    }
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

pub(crate) fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits `src` into tokens, ending with [`TokenKind::Eof`].
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token<'_>>, Diagnostic> {
    let bytes = src.as_bytes();
    // The examples have one token per 6 to 14 bytes: reserving for one per 6
    // makes one allocation instead of a series of doublings.
    let mut out = Vec::with_capacity((src.len() / 6).min(MAX_TOKENS) + 1);
    // A UTF-8 byte-order mark (some Windows editors write one) is not part
    // of the text; spans stay offsets into `src` as given.
    let mut i = src.len() - strip_bom(src).len();
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
                    kind: TokenKind::Color(&src[i..i + 7]),
                    span: Span::new(i, i + 7),
                });
                i += 7;
                continue;
            }
            i = skip_line(src, i);
            continue;
        }
        if c == b'/' && at(i + 1) == b'/' {
            i = skip_line(src, i);
            continue;
        }
        // Every token is kept until the parser is done: without a cap, a
        // file of `( ( ( …` within the 256 MiB the command line reads
        // needed gigabytes before the parser saw its second token.
        if out.len() == MAX_TOKENS {
            return Err(Diagnostic::error(
                format!("the grammar has more than {MAX_TOKENS} tokens (names, numbers, strings and symbols)"),
                Span::new(i, i + src[i..].chars().next().map_or(1, char::len_utf8)),
            )
            .with_hint("a grammar is read whole: split it, or generate fewer or smaller rules"));
        }
        if is_ident_start(c) {
            i += 1;
            while is_ident_char(at(i)) || (at(i) == b'-' && is_ident_char(at(i + 1))) {
                i += 1;
            }
            out.push(Token {
                kind: TokenKind::Ident(&src[start..i]),
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
            let (escaped, end) = lex_string(src, i)?;
            out.push(Token {
                kind: TokenKind::Str(&src[start + 1..end - 1], escaped),
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

/// The offset of the newline ending the line that `i` is on (or the end).
fn skip_line(src: &str, i: usize) -> usize {
    // Comments are a good part of a grammar file; `str::find` of a char
    // searches a word at a time (memchr), a byte loop does not.
    src[i..].find('\n').map_or(src.len(), |k| i + k)
}

/// Checks the string literal starting at `start` (a `"`): whether it holds
/// escapes, and the offset after its closing quote.
fn lex_string(src: &str, start: usize) -> Result<(bool, usize), Diagnostic> {
    let mut escaped = false;
    let mut chars = src[start + 1..].char_indices();
    while let Some((k, ch)) = chars.next() {
        let pos = start + 1 + k;
        match ch {
            '"' => return Ok((escaped, pos + 1)),
            '\n' => break,
            '\\' => match chars.next() {
                Some((_, 'n' | '"' | '\\')) => escaped = true,
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
            _ => {}
        }
    }
    Err(
        Diagnostic::error("unterminated string", Span::new(start, start + 1))
            .with_hint("close the string with `\"` on the same line"),
    )
}

/// Lexes an edge operator starting at `start` (a `-` or `~`).
fn lex_edge(src: &str, start: usize) -> Result<(TokenKind<'_>, usize), Diagnostic> {
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
            let label = &src[label_start..i];
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

    fn kinds(src: &str) -> Vec<TokenKind<'_>> {
        tokenize(src).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn hyphenated_names_and_edges() {
        use TokenKind::*;
        let e = |directed, cosmetic, label| Edge {
            directed,
            cosmetic,
            label,
        };
        assert_eq!(
            kinds("init-lock--a->b~~c~>d -[locked]-> e ~[x]~ f"),
            vec![
                Ident("init-lock"),
                e(false, false, None),
                Ident("a"),
                e(true, false, None),
                Ident("b"),
                e(false, true, None),
                Ident("c"),
                e(true, true, None),
                Ident("d"),
                e(true, false, Some("locked")),
                Ident("e"),
                e(false, true, Some("x")),
                Ident("f"),
                Eof
            ]
        );
    }

    #[test]
    fn colour_versus_comment() {
        use TokenKind::*;
        assert_eq!(
            kinds("a #9E9e9e # comment\n#deadbeef also comment\n// c\nb"),
            vec![Ident("a"), Color("#9E9e9e"), Ident("b"), Eof]
        );
    }

    #[test]
    fn strings_keep_their_text_and_unescape_on_demand() {
        use TokenKind::*;
        let toks = kinds(r#""plain" "a\nb \"q\" \\""#);
        assert_eq!(
            toks,
            vec![Str("plain", false), Str(r#"a\nb \"q\" \\"#, true), Eof]
        );
        assert_eq!(string_value("plain", false), "plain");
        assert_eq!(string_value(r#"a\nb \"q\" \\"#, true), "a\nb \"q\" \\");
        assert_eq!(toks[1].describe(), "string \"a\nb \"q\" \\\"");
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
