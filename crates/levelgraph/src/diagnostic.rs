//! Diagnostics: messages about bad input, located by a byte span in a source
//! text or by a field path in a JSON document, with an optional hint.
//!
//! The library only produces these values; rendering with colours and source
//! excerpts is the caller's business (the CLI uses ariadne). A plain renderer,
//! [`Diagnostic::render_plain`], gives `file:line:col: message`, the source
//! line and a caret for logs and tests.

use std::fmt;

/// A half-open byte range `start..end` in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// Line number, from 1.
    pub line: usize,
    /// Column number in characters, from 1.
    pub column: usize,
}

/// The UTF-8 byte-order mark. Text inputs may start with one (some Windows
/// editors write it); readers skip it, and columns count from the
/// character after it.
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Where a text input stops being UTF-8: the first invalid byte and its
/// line and column in the valid text before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// Where the byte is (its column counts the characters before it).
    pub at: LineCol,
    /// The byte.
    pub byte: u8,
}

/// `bytes` as text, or where they stop being UTF-8 (for a reader's
/// `FILE:LINE:COL` message).
///
/// # Errors
/// [`NotUtf8`] at the first byte that is not valid UTF-8.
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let prefix = std::str::from_utf8(&bytes[..valid]).expect("valid up to here");
        NotUtf8 {
            at: line_col(prefix, valid),
            byte: bytes[valid],
        }
    })
}

/// Line and column of byte `offset` in `source` (clamped to its length).
/// A leading byte-order mark takes no column.
pub fn line_col(source: &str, offset: usize) -> LineCol {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let mut line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if line_start == 0 && source.starts_with(BOM) {
        line_start = BOM.len_utf8().min(offset);
    }
    let column = source[line_start..offset].chars().count() + 1;
    LineCol { line, column }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where a diagnostic points.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A byte span in the grammar text.
    Span(Span),
    /// A field path in a JSON document, e.g. `rules[2].rhs.vertices[0]`.
    Field(String),
    /// The input as a whole.
    Whole,
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Severity {
    /// The input can still be used; the finding is worth a look.
    Warning,
    /// The input cannot be used.
    Error,
}

/// One finding about an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, one sentence without a trailing period.
    pub message: String,
    /// Where.
    pub location: Location,
    /// How to fix it, when there is something useful to say.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            location: Location::Span(span),
            hint: None,
        }
    }

    /// A diagnostic of `severity` at `location`.
    pub fn new(severity: Severity, message: impl Into<String>, location: Location) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            location,
            hint: None,
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Line and column of the start of the span, if located by span.
    pub fn line_col(&self, source: &str) -> Option<LineCol> {
        match self.location {
            Location::Span(span) => Some(line_col(source, span.start)),
            _ => None,
        }
    }

    /// `file:line:col: error: message`, then the source line with a caret
    /// under the span, then `hint: …`; for field locations
    /// `file: error: message (at field)`.
    pub fn render_plain(&self, file: &str, source: &str) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = String::new();
        match &self.location {
            Location::Span(span) => {
                let lc = line_col(source, span.start);
                out.push_str(&format!(
                    "{file}:{}:{}: {kind}: {}\n",
                    lc.line, lc.column, self.message
                ));
                let line_text = strip_bom(source).lines().nth(lc.line - 1).unwrap_or("");
                let end = span.end.max(span.start + 1);
                let end_lc = line_col(source, end);
                let width = if end_lc.line == lc.line {
                    (end_lc.column - lc.column).max(1)
                } else {
                    1
                };
                out.push_str(&format!("    {line_text}\n"));
                out.push_str(&format!(
                    "    {}{}\n",
                    " ".repeat(lc.column - 1),
                    "^".repeat(width)
                ));
            }
            Location::Field(path) => {
                out.push_str(&format!("{file}: {kind}: {} (at {path})\n", self.message));
            }
            Location::Whole => out.push_str(&format!("{file}: {kind}: {}\n", self.message)),
        }
        if let Some(hint) = &self.hint {
            out.push_str(&format!("    hint: {hint}\n"));
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Location::Field(path) = &self.location {
            write!(f, " (at {path})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars() {
        let src = "ab\ncé d\n";
        assert_eq!(line_col(src, 0), LineCol { line: 1, column: 1 });
        assert_eq!(line_col(src, 3), LineCol { line: 2, column: 1 });
        // 'é' is two bytes; 'd' is at byte 7, column 4.
        assert_eq!(line_col(src, 7), LineCol { line: 2, column: 4 });
    }

    #[test]
    fn plain_render_has_caret_under_span() {
        let src = "rule a {\n  (x:rom)\n}";
        let d = Diagnostic::error("unknown tag `rom`", Span::new(14, 17)).with_hint("declare it");
        let text = d.render_plain("g.lg", src);
        assert_eq!(
            text,
            "g.lg:2:6: error: unknown tag `rom`\n      (x:rom)\n         ^^^\n    hint: declare it\n"
        );
    }
}
