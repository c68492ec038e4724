//! The `levelgraph` command: a thin layer over the `levelgraph` library.
//!
//! Exit codes: 0 success; 1 a derivation failed within its limits; 2 bad
//! input or usage. Diagnostics go to stderr, results to files (written to a
//! temporary name and renamed, so a failed run leaves nothing half-written)
//! and the one-line summary to stdout.

mod diagnostics;
mod output;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use levelgraph::diagnostic::Severity;
use levelgraph::drawing::{force_layout, ForceConfig};
use levelgraph::formats::{to_dot, to_svg, MissionDoc};
use levelgraph::grammar::{self, lint::lint, CompiledGrammar, GrammarError};
use levelgraph::DeriveError;

/// Procedural level generation with graph grammars.
#[derive(Parser, Debug)]
#[command(name = "levelgraph", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Derive a mission graph from a grammar and write mission.json,
    /// mission.dot and mission.svg.
    Generate {
        /// Grammar file (`.lg` text or `.json`); the built-in default
        /// grammar when absent.
        grammar: Option<PathBuf>,
        /// Seed of the derivation: same grammar and seed, same output bytes.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Output folder, created if missing.
        #[arg(long, default_value = "out")]
        out: PathBuf,
    },
    /// Parse and lint a grammar: report errors and warnings with their line.
    Check {
        /// Grammar file (`.lg` text or `.json`).
        grammar: PathBuf,
    },
    /// Print the JSON form of a grammar on stdout.
    GrammarJson {
        /// Grammar file (`.lg` text or `.json`); the built-in default when absent.
        grammar: Option<PathBuf>,
    },
}

/// How a command ended, mapped to an exit code.
enum Failure {
    /// Exit 1: a derivation failed within its limits.
    Derivation,
    /// Exit 2: bad input or usage (the message is already printed).
    BadInput,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate { grammar, seed, out } => generate(grammar.as_deref(), seed, &out),
        Command::Check { grammar } => check(&grammar),
        Command::GrammarJson { grammar } => grammar_json(grammar.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Derivation) => ExitCode::from(1),
        Err(Failure::BadInput) => ExitCode::from(2),
    }
}

/// A grammar read from disk (or the built-in one) with its text, for diagnostics.
struct Loaded {
    name: String,
    text: String,
    grammar: CompiledGrammar,
}

fn load_grammar(path: Option<&Path>) -> Result<Loaded, Failure> {
    let Some(path) = path else {
        return Ok(Loaded {
            name: "<built-in default grammar>".to_owned(),
            text: grammar::DEFAULT_GRAMMAR.to_owned(),
            grammar: grammar::default_grammar(),
        });
    };
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read grammar {display}: {e}");
        Failure::BadInput
    })?;
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let result = if is_json {
        grammar::load_json(&text)
    } else {
        let stem = path
            .file_stem()
            .map_or("grammar".into(), |s| s.to_string_lossy());
        grammar::load(&text, &stem)
    };
    match result {
        Ok(grammar) => Ok(Loaded {
            name: display,
            text,
            grammar,
        }),
        Err(GrammarError { diagnostics }) => {
            diagnostics::print(&display, &text, &diagnostics);
            Err(Failure::BadInput)
        }
    }
}

/// Lint errors make a grammar unusable; warnings are left to `check`.
fn reject_lint_errors(loaded: &Loaded) -> Result<(), Failure> {
    let errors: Vec<_> = lint(&loaded.grammar)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    diagnostics::print(&loaded.name, &loaded.text, &errors);
    Err(Failure::BadInput)
}

fn generate(path: Option<&Path>, seed: u64, out: &Path) -> Result<(), Failure> {
    let loaded = load_grammar(path)?;
    reject_lint_errors(&loaded)?;
    let grammar = &loaded.grammar;
    let started = Instant::now();
    let derivation = match levelgraph::derive(grammar, seed) {
        Ok(d) => d,
        Err(err) => {
            // The error names the limit or stage, the graph's size and the rules applied.
            eprintln!("error: {err}");
            eprintln!("  grammar {}, seed {seed}", grammar.name());
            let hint = match err {
                DeriveError::TooFewVertices { .. } => {
                    "try another --seed, or lower min_vertices in the grammar header"
                }
                DeriveError::StageFailed { .. } => {
                    "try another --seed, or lower the stage's minimum count in the recipe"
                }
            };
            eprintln!("  hint: {hint}");
            return Err(Failure::Derivation);
        }
    };
    let elapsed = started.elapsed();
    let alphabet = grammar.alphabet();
    let title = format!("{} — seed {seed}", grammar.name());
    let positions = force_layout(&derivation.graph, &ForceConfig::for_picture(seed));
    let files = [
        (
            "mission.json",
            MissionDoc::from_derivation(&derivation).to_json(),
        ),
        ("mission.dot", to_dot(&derivation.graph, &alphabet, &title)),
        (
            "mission.svg",
            to_svg(&derivation.graph, &positions, &alphabet, &title),
        ),
    ];
    output::write_all(out, &files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", out.display());
        Failure::BadInput
    })?;
    println!(
        "{}: {} vertices, {} edges, {} applications, stopped: {}, {:.2} ms -> {}",
        grammar.name(),
        derivation.graph.vertex_count(),
        derivation.graph.edge_count(),
        derivation.trace.len(),
        derivation.stop,
        elapsed.as_secs_f64() * 1e3,
        out.display()
    );
    Ok(())
}

fn check(path: &Path) -> Result<(), Failure> {
    let loaded = load_grammar(Some(path))?;
    let findings = lint(&loaded.grammar);
    diagnostics::print(&loaded.name, &loaded.text, &findings);
    let errors = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    println!(
        "{}: grammar `{}`, {} rules, {} tags: {errors} errors, {warnings} warnings",
        loaded.name,
        loaded.grammar.name(),
        loaded.grammar.rule_count(),
        loaded.grammar.tags().len()
    );
    if errors > 0 {
        Err(Failure::BadInput)
    } else {
        Ok(())
    }
}

fn grammar_json(path: Option<&Path>) -> Result<(), Failure> {
    let loaded = load_grammar(path)?;
    println!("{}", loaded.grammar.model().to_json());
    Ok(())
}
