//! Rendering diagnostics on stderr with ariadne: a header naming
//! `file:line:col`, the source line, a marker under the span and the hint.
//! Diagnostics located by a JSON field path print as `file: error: … (at path)`.

use std::io::IsTerminal;

use ariadne::{Color, Config, Label, Report, ReportKind, Source};
use levelgraph::diagnostic::{Diagnostic, Location, Severity};

/// Prints each diagnostic about `file` (whose text is `src`) to stderr.
pub(crate) fn print(file: &str, src: &str, diagnostics: &[Diagnostic]) {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // One source for all reports: making it splits the text into lines,
    // and 40,000 warnings about a 1 MB grammar made it 40,000 times.
    let mut cache = (file, Source::from(src));
    for d in diagnostics {
        let (kind, label_color, word) = match d.severity {
            Severity::Error => (ReportKind::Error, Color::Red, "error"),
            Severity::Warning => (ReportKind::Warning, Color::Yellow, "warning"),
        };
        match &d.location {
            Location::Span(span) => {
                let range = span.start..span.end.max(span.start + 1).min(src.len().max(1));
                let mut report = Report::build(kind, (file, range.clone()))
                    .with_config(Config::default().with_color(color))
                    .with_message(&d.message)
                    .with_label(
                        Label::new((file, range))
                            .with_color(label_color)
                            .with_message("here"),
                    );
                if let Some(h) = &d.hint {
                    report = report.with_help(h);
                }
                let _ = report.finish().eprint(&mut cache);
            }
            Location::Field(path) => {
                eprintln!("{file}: {word}: {} (at {path})", d.message);
                if let Some(h) = &d.hint {
                    eprintln!("  help: {h}");
                }
            }
            Location::Whole => {
                eprintln!("{file}: {word}: {}", d.message);
                if let Some(h) = &d.hint {
                    eprintln!("  help: {h}");
                }
            }
        }
    }
}
