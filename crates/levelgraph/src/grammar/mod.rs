//! Grammars: the text language, its JSON form, compilation and lint.
//!
//! Pipeline: text --[`parse`]--> [`Grammar`] model --[`compile()`]-->
//! [`CompiledGrammar`]. [`load`] runs both. The JSON form is the serde form
//! of the model ([`Grammar::from_json`], [`Grammar::to_json`]). The language
//! is documented in `docs/grammar-language.md`.

mod compile;
mod drawing;
mod lexer;
mod model;
mod parser;
pub mod place;
pub mod play;

pub use compile::{compile, CompiledGrammar, MAX_PATTERN_VERTICES, MAX_RULES, MAX_TAGS};
pub(crate) use compile::{CompiledAlternative, CompiledRule, End, NewEdge};
pub(crate) use drawing::RuleDrawing;
pub use lexer::MAX_TOKENS;
pub use model::{
    Alternative, Containment, DoorSpec, FillKind, FillSpec, Grammar, GroupDecl, Limits,
    PatternVertex, Recipe, ReplacementVertex, RoomsSpec, Rule, RuleEdge, SetSpec, SettingSpans,
    Side, Stage, StageRule, TagDecl, TemplateSpec, UseSpec, WILDCARD,
};
pub use parser::parse;

use crate::diagnostic::Diagnostic;

/// The largest grammar text, or JSON form, [`load`] and [`load_json`] read:
/// 16 MiB. The examples have 5 KB; a grammar is held whole while it is
/// read, its JSON form as a model several times its size.
pub const MAX_GRAMMAR_BYTES: usize = 16 << 20;

/// The built-in default grammar (`examples/default.lg`): cycles, keys and locks.
pub const DEFAULT_GRAMMAR: &str = include_str!("../../../../examples/default.lg");

/// Why a grammar could not be loaded: one or more diagnostics, all errors.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", summary(.diagnostics))]
#[non_exhaustive]
pub struct GrammarError {
    /// The errors, in source order of discovery.
    pub diagnostics: Vec<Diagnostic>,
}

fn summary(diagnostics: &[Diagnostic]) -> String {
    match diagnostics {
        [] => "invalid grammar".to_owned(),
        [only] => only.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more errors)", rest.len()),
    }
}

/// Parses and compiles grammar text. `default_name` names a grammar without
/// a `grammar "…"` header.
///
/// # Errors
/// A syntax error, or every name-resolution error, located by span; text
/// longer than [`MAX_GRAMMAR_BYTES`].
pub fn load(src: &str, default_name: &str) -> Result<CompiledGrammar, GrammarError> {
    too_large(src)?;
    let model = parse(src, default_name).map_err(|d| GrammarError {
        diagnostics: vec![d],
    })?;
    compile::compile_owned(model, Some(src)).map_err(|diagnostics| GrammarError { diagnostics })
}

/// Reads and compiles a grammar in its JSON form.
///
/// # Errors
/// A JSON syntax or shape error (located by line and column of the JSON
/// text, given as a field location), or every name-resolution error,
/// located by field path; text longer than [`MAX_GRAMMAR_BYTES`].
pub fn load_json(text: &str) -> Result<CompiledGrammar, GrammarError> {
    too_large(text)?;
    let model = Grammar::from_json(text).map_err(|e| GrammarError {
        diagnostics: vec![Diagnostic::new(
            crate::diagnostic::Severity::Error,
            format!("invalid grammar JSON: {e}"),
            crate::diagnostic::Location::Whole,
        )],
    })?;
    compile::compile_owned(model, None).map_err(|diagnostics| GrammarError { diagnostics })
}

/// Refuses text longer than [`MAX_GRAMMAR_BYTES`], before it is read.
fn too_large(text: &str) -> Result<(), GrammarError> {
    if text.len() <= MAX_GRAMMAR_BYTES {
        return Ok(());
    }
    Err(GrammarError {
        diagnostics: vec![Diagnostic::new(
            crate::diagnostic::Severity::Error,
            format!(
                "the grammar is {} bytes long, more than the {} MiB a grammar may have",
                text.len(),
                MAX_GRAMMAR_BYTES >> 20
            ),
            crate::diagnostic::Location::Whole,
        )],
    })
}

/// The built-in default grammar, compiled.
pub fn default_grammar() -> CompiledGrammar {
    load(DEFAULT_GRAMMAR, "default").expect("the built-in grammar compiles")
}
