//! What the server knows between requests: the grammar as last read, the
//! last grammar that compiled, its diagnostics, and a generation number
//! that every reload raises (the page's event stream waits on it).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use levelgraph::diagnostic::{Diagnostic, Severity};
use levelgraph::grammar::{self, CompiledGrammar, GrammarError};
use levelgraph::layout::edgar::RoomSets;

/// The largest grammar file `serve` reads, in bytes (4 MiB): a grammar of
/// that size already takes seconds to compile and lint, and every save
/// compiles it again. A larger file is an error shown in the page.
pub(crate) const MAX_GRAMMAR_BYTES: u64 = 4 << 20;

/// The most diagnostics the page lists (a grammar of 10,000 bad rules
/// would otherwise send 10,000 source excerpts on every request).
const MAX_DIAGNOSTICS: usize = 50;

/// The most characters of one rendered diagnostic (a long source line is
/// cut: the message and caret come first).
const MAX_RENDERED_CHARS: usize = 2_000;

/// A grammar that compiled, with what deriving its levels needs.
pub(crate) struct Good {
    /// The generation that read it.
    pub(crate) generation: u64,
    pub(crate) grammar: CompiledGrammar,
    /// The room sets the `rooms` block loads, or why they could not be read
    /// (`None` without a `rooms` block).
    pub(crate) room_sets: Option<Result<RoomSets, String>>,
}

/// One diagnostic as the page shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Shown {
    pub(crate) severity: &'static str,
    /// 1-based line and column (characters), when located by a span.
    pub(crate) line: Option<usize>,
    pub(crate) column: Option<usize>,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
    /// As `check` prints it without colour: `file:line:col: error: …`, the
    /// source line and a caret under the span.
    pub(crate) rendered: String,
}

/// The state every request and the watcher share.
pub(crate) struct State {
    /// The grammar file (absolute).
    pub(crate) path: PathBuf,
    /// Its name as the user gave it, for messages.
    pub(crate) shown_name: String,
    inner: Mutex<Inner>,
    /// Signalled after every reload.
    reloaded: Condvar,
}

struct Inner {
    generation: u64,
    good: Option<Arc<Good>>,
    /// The file's text as last read (also when it does not compile), for
    /// the editor; `None` when it could not be read.
    text: Option<Arc<str>>,
    /// The diagnostics of the last read (errors only; empty when it
    /// compiled), or why it could not be read.
    problems: Vec<Shown>,
}

/// A snapshot of [`State`] for one response.
pub(crate) struct Snapshot {
    pub(crate) generation: u64,
    pub(crate) good: Option<Arc<Good>>,
    pub(crate) text: Option<Arc<str>>,
    pub(crate) problems: Vec<Shown>,
}

impl State {
    /// The state of `path` before it is first read (generation 0).
    pub(crate) fn new(path: PathBuf, shown_name: String) -> Self {
        State {
            path,
            shown_name,
            inner: Mutex::new(Inner {
                generation: 0,
                good: None,
                text: None,
                problems: Vec::new(),
            }),
            reloaded: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A request thread that panicked holding the lock left a state
        // that is still whole (every field is replaced at once).
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current generation, grammar, text and diagnostics.
    pub(crate) fn snapshot(&self) -> Snapshot {
        let inner = self.lock();
        Snapshot {
            generation: inner.generation,
            good: inner.good.clone(),
            text: inner.text.clone(),
            problems: inner.problems.clone(),
        }
    }

    /// Waits until the generation passes `seen` or `timeout` passes;
    /// returns the generation then.
    pub(crate) fn wait_past(&self, seen: u64, timeout: Duration) -> u64 {
        let inner = self.lock();
        let (inner, _) = self
            .reloaded
            .wait_timeout_while(inner, timeout, |i| i.generation <= seen)
            .unwrap_or_else(|e| e.into_inner());
        inner.generation
    }

    /// Reads and compiles the grammar file again: a grammar that compiles
    /// without lint errors becomes the good one; otherwise its diagnostics
    /// are kept beside the last good grammar. Raises the generation either
    /// way and wakes the event streams.
    pub(crate) fn reload(&self) {
        let generation = self.lock().generation + 1;
        let (text, good, problems) = match read_capped(&self.path) {
            Err(message) => (None, None, vec![file_problem(message)]),
            Ok(text) => {
                let (good, problems) = self.compile(&text, generation);
                (Some(Arc::from(text.as_str())), good, problems)
            }
        };
        let mut inner = self.lock();
        inner.generation = generation;
        inner.text = text;
        inner.problems = problems;
        if let Some(good) = good {
            inner.good = Some(Arc::new(good));
        }
        drop(inner);
        self.reloaded.notify_all();
    }

    /// The grammar of `text`, or its errors (at most [`MAX_DIAGNOSTICS`]).
    fn compile(&self, text: &str, generation: u64) -> (Option<Good>, Vec<Shown>) {
        let is_json = self
            .path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let result = if is_json {
            grammar::load_json(text)
        } else {
            let stem = self
                .path
                .file_stem()
                .map_or("grammar".into(), |s| s.to_string_lossy());
            grammar::load(text, &stem)
        };
        let errors = match result {
            Ok(compiled) => {
                // As `generate`: lint errors make a grammar unusable.
                let errors = levelgraph::lint::errors(&compiled);
                if errors.is_empty() {
                    let room_sets = compiled.model().rooms.as_ref().map(|spec| {
                        crate::layout::load_room_sets(spec, &self.path, text)
                            .map_err(|m| m.trim_start_matches("error: ").to_owned())
                    });
                    let good = Good {
                        generation,
                        grammar: compiled,
                        room_sets,
                    };
                    return (Some(good), Vec::new());
                }
                errors
            }
            Err(GrammarError { diagnostics, .. }) => diagnostics,
        };
        let shown = errors
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .take(MAX_DIAGNOSTICS)
            .map(|d| self.show(d, text))
            .collect();
        (None, shown)
    }

    fn show(&self, d: &Diagnostic, text: &str) -> Shown {
        let at = d.line_col(text);
        let mut rendered = d.render_plain(&self.shown_name, text);
        if rendered.chars().count() > MAX_RENDERED_CHARS {
            rendered = rendered.chars().take(MAX_RENDERED_CHARS).collect();
            rendered.push_str(" …\n");
        }
        Shown {
            severity: match d.severity {
                Severity::Warning => "warning",
                _ => "error",
            },
            line: at.map(|a| a.line),
            column: at.map(|a| a.column),
            message: d.message.clone(),
            hint: d.hint.clone(),
            rendered,
        }
    }
}

/// A diagnostic about the file itself (missing, too large, not UTF-8).
fn file_problem(message: String) -> Shown {
    Shown {
        severity: "error",
        line: None,
        column: None,
        rendered: format!("error: {message}\n"),
        message,
        hint: None,
    }
}

/// The text of the grammar file, at most [`MAX_GRAMMAR_BYTES`], without
/// a byte-order mark; or why not, in a sentence.
pub(crate) fn read_capped(path: &Path) -> Result<String, String> {
    let name = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {name}: it is not a regular file"));
    }
    let too_large = |size: u64| {
        format!(
            "{name} has {size} bytes, more than the {} MiB `serve` reads; the last good level is kept",
            MAX_GRAMMAR_BYTES >> 20
        )
    };
    if meta.len() > MAX_GRAMMAR_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    File::open(path)
        .and_then(|f| f.take(MAX_GRAMMAR_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_GRAMMAR_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let mut text = levelgraph::diagnostic::utf8_text(bytes).map_err(|e| {
        format!(
            "{name}:{}:{}: byte 0x{:02x} is not UTF-8 text; save the grammar as UTF-8",
            e.at.line, e.at.column, e.byte
        )
    })?;
    // Columns are counted without the mark, as the library counts them.
    if text.starts_with(levelgraph::diagnostic::BOM) {
        text.drain(..levelgraph::diagnostic::BOM.len_utf8());
    }
    Ok(text)
}
