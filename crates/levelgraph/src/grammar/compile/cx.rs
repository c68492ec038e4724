//! The compiler's context: the errors found so far, and where each points
//! (a span in the text, or a JSON field path built only when needed).

use std::fmt;

use crate::diagnostic::{line_col, Diagnostic, Location, Severity, Span};

/// Where a diagnostic points: the span when the grammar came from text,
/// else the field path (spelled out only then).
pub(super) fn cx_loc(span: Option<Span>, path: Path<'_>) -> Location {
    match span {
        Some(s) => Location::Span(s),
        None => Location::Field(path.to_string()),
    }
}

/// A JSON field path such as `rules[2].rhs[0].vertices[1]`, as a chain of
/// borrowed segments. Locations need a path only for grammars without spans
/// (JSON), so the text is made only when a diagnostic is located by it,
/// instead of a `format!` per vertex and edge on every load.
#[derive(Clone, Copy)]
pub(super) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    field: &'static str,
    index: Option<usize>,
}

impl Path<'static> {
    /// A top-level field: `recipe`.
    pub(super) fn field(field: &'static str) -> Self {
        Path {
            parent: None,
            field,
            index: None,
        }
    }

    /// An element of a top-level list: `rules[2]`.
    pub(super) fn root(field: &'static str, index: usize) -> Self {
        Path {
            parent: None,
            field,
            index: Some(index),
        }
    }
}

impl<'a> Path<'a> {
    /// A field of this path: `….lhs`.
    pub(super) fn child(&'a self, field: &'static str) -> Path<'a> {
        Path {
            parent: Some(self),
            field,
            index: None,
        }
    }

    /// An element of a list field of this path: `….vertices[3]`.
    pub(super) fn item(&'a self, field: &'static str, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            field,
            index: Some(index),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            write!(f, "{parent}.")?;
        }
        f.write_str(self.field)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

pub(super) struct Cx<'a> {
    /// The grammar text, when there is one, to turn spans into line numbers in hints.
    pub(super) src: Option<&'a str>,
    pub(super) errors: Vec<Diagnostic>,
}

impl Cx<'_> {
    /// "at line N" for a span when the text is known, else "earlier".
    pub(super) fn where_is(&self, span: Option<Span>) -> String {
        match (self.src, span) {
            (Some(src), Some(s)) => format!("at line {}", line_col(src, s.start).line),
            _ => "earlier".to_owned(),
        }
    }

    pub(super) fn error(&mut self, message: String, location: Location, hint: Option<String>) {
        self.errors.push(Diagnostic {
            severity: Severity::Error,
            message,
            location,
            hint,
        });
    }
}
