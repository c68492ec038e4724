//! Rendering diagnostics on stderr with ariadne: a header naming
//! `file:line:col`, the source line, a marker under the span and the hint.
//! Diagnostics located by a JSON field path print as `file: error: … (at path)`.

use std::io::{IsTerminal, Write};

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use levelgraph::diagnostic::{Diagnostic, Location, Severity};

/// Source lines longer than this (bytes) are not shown under a diagnostic:
/// a `tags` block of 100,000 tags on one line would print that line once
/// per warning. Such a diagnostic prints as `file:line:col: warning: …`.
const LONG_LINE: usize = 500;

/// Prints each diagnostic about `file` (whose text is `src`) to stderr.
pub(crate) fn print(file: &str, src: &str, diagnostics: &[Diagnostic]) {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // One source for all reports: making it splits the text into lines,
    // and 40,000 warnings about a 1 MB grammar made it 40,000 times.
    let mut cache = (file, Source::from(src));
    let places = places(src, diagnostics);
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stderr.lock());
    for (d, place) in diagnostics.iter().zip(places) {
        let (kind, label_color, word) = match d.severity {
            Severity::Error => (ReportKind::Error, Color::Red, "error"),
            Severity::Warning => (ReportKind::Warning, Color::Yellow, "warning"),
            // A severity added later reads as an error until it has a word.
            _ => (ReportKind::Error, Color::Red, "error"),
        };
        match &d.location {
            Location::Span(_) if place.is_some_and(|p| p.line_len > LONG_LINE) => {
                let p = place.expect("just tested");
                let _ = writeln!(out, "{file}:{}:{}: {word}: {}", p.line, p.column, d.message);
                if let Some(h) = &d.hint {
                    let _ = writeln!(out, "  help: {h}");
                }
            }
            Location::Span(span) => {
                let range = label_range(src, span.start, span.end);
                let mut report = Report::build(kind, (file, range.clone()))
                    // Spans are byte offsets; ariadne's default reads them
                    // as character offsets, which put the header's column
                    // and the underline past a multi-byte character.
                    .with_config(
                        Config::default()
                            .with_color(color)
                            .with_index_type(IndexType::Byte),
                    )
                    .with_message(&d.message)
                    .with_label(
                        Label::new((file, range))
                            .with_color(label_color)
                            .with_message("here"),
                    );
                if let Some(h) = &d.hint {
                    report = report.with_help(h);
                }
                let _ = report.finish().write(&mut cache, &mut out);
            }
            Location::Field(path) => {
                let _ = writeln!(out, "{file}: {word}: {} (at {path})", d.message);
                if let Some(h) = &d.hint {
                    let _ = writeln!(out, "  help: {h}");
                }
            }
            // A place added later is reported as the whole file is.
            _ => {
                let _ = writeln!(out, "{file}: {word}: {}", d.message);
                if let Some(h) = &d.hint {
                    let _ = writeln!(out, "  help: {h}");
                }
            }
        }
    }
    let _ = out.flush();
}

/// The bytes of `src` ariadne marks for span `start..end`: within the
/// text and on character boundaries (ariadne slices the line there, so a
/// byte range that ends inside a character or past the text panics), and
/// an empty span widened to the character at it, so that the marker has
/// a width; at the end of the text it stays empty.
fn label_range(src: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let mut start = start.min(src.len());
    while !src.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = end.min(src.len());
    if end <= start {
        end = src[start..]
            .chars()
            .next()
            .map_or(start, |c| start + c.len_utf8());
    }
    while !src.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Where a span diagnostic starts: 1-based line and column (in
/// characters, as `Diagnostic::line_col` counts) and its line's length.
#[derive(Clone, Copy)]
struct Place {
    line: usize,
    column: usize,
    line_len: usize,
}

/// The [`Place`] of every span diagnostic, found in one pass over the
/// text (a column per diagnostic, counted from its line's start, would
/// cost the line's length each on a very long line).
fn places(src: &str, diagnostics: &[Diagnostic]) -> Vec<Option<Place>> {
    let mut order: Vec<(usize, usize)> = diagnostics
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d.location {
            Location::Span(s) => Some((s.start.min(src.len()), i)),
            _ => None,
        })
        .collect();
    order.sort_unstable();
    let mut out = vec![None; diagnostics.len()];
    let (mut line, mut column, mut line_start) = (1, 1, 0);
    let mut chars = src.char_indices().peekable();
    // The start and end of the last line measured.
    let mut ends = (usize::MAX, 0);
    for (offset, i) in order {
        while let Some(&(at, c)) = chars.peek() {
            if at >= offset {
                break;
            }
            chars.next();
            if c == '\n' {
                (line, column, line_start) = (line + 1, 1, at + 1);
            } else {
                column += 1;
            }
        }
        if ends.0 != line_start {
            // Once per line that has a diagnostic.
            let end = src[line_start..]
                .find('\n')
                .map_or(src.len(), |e| line_start + e);
            ends = (line_start, end);
        }
        out[i] = Some(Place {
            line,
            column,
            line_len: ends.1 - line_start,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::label_range;

    #[test]
    fn label_ranges_stay_on_the_text_and_its_characters() {
        // An empty file: nothing to mark (ariadne panicked on `0..1`).
        assert_eq!(label_range("", 0, 0), 0..0);
        // An empty span takes the character at it, whole.
        assert_eq!(label_range("aé", 1, 1), 1..3);
        assert_eq!(label_range("ab", 0, 0), 0..1);
        // At or past the end of the text: empty, at the end.
        assert_eq!(label_range("ab", 2, 2), 2..2);
        assert_eq!(label_range("ab", 5, 9), 2..2);
        // Ends inside a character move to its end, starts to its start.
        assert_eq!(label_range("éé", 1, 3), 0..4);
        assert_eq!(label_range("abc", 1, 2), 1..2);
    }
}
