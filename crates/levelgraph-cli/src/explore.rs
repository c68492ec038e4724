//! `levelgraph explore`: every derivation of a grammar up to a depth, each
//! state kept once up to isomorphism, and the shortest derivation of a
//! level that cannot be finished.

use std::path::PathBuf;

use clap::Args;
use levelgraph::explore::{explore, Exploration, ExploreLimits};

use crate::{load_grammar, output, Failure};

/// Options of `levelgraph explore`.
#[derive(Args, Debug)]
pub(crate) struct Options {
    /// Grammar file (`.lg` text or `.json`); the built-in default when absent.
    grammar: Option<PathBuf>,
    /// Rule applications from the start symbol (k).
    #[arg(long, short = 'k', default_value_t = 6)]
    depth: u32,
    /// Distinct states kept before the exploration stops.
    #[arg(long, default_value_t = ExploreLimits::new(0).max_states)]
    max_states: usize,
    /// Explore levels of at most N vertices (below the grammar's
    /// `max_vertices`), so that derivations end within few steps.
    #[arg(long, value_name = "N")]
    max_vertices: Option<u32>,
}

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    let loaded = load_grammar(o.grammar.as_deref())?;
    let errors = levelgraph::lint::errors(&loaded.grammar);
    if !errors.is_empty() {
        crate::diagnostics::print(&loaded.name, &loaded.text, &errors);
        return Err(Failure::BadInput);
    }
    let limits = ExploreLimits {
        max_states: o.max_states,
        max_vertices: o.max_vertices,
        ..ExploreLimits::new(o.depth)
    };
    let found = explore(&loaded.grammar, &limits);
    report(&loaded.name, &found, o.depth)
}

/// The exploration's table and verdict on stdout.
pub(crate) fn report(name: &str, found: &Exploration, depth: u32) -> Result<(), Failure> {
    output::say(format_args!(
        "{name}: derivations of up to {depth} steps: {} and {} (each counted once up to isomorphism)",
        output::counted(found.states as u64, "distinct state"),
        output::counted(found.levels as u64, "distinct level"),
    ))?;
    output::say(format_args!(
        "{:>5}  {:>9}  {:>7}  {:>14}  {:>6}",
        "depth", "new states", "levels", "unfinishable", "failed"
    ))?;
    for d in &found.depths {
        output::say(format_args!(
            "{:>5}  {:>9}  {:>7}  {:>14}  {:>6}",
            d.depth, d.states, d.levels, d.unfinishable, d.failed
        ))?;
    }
    if let Some(stop) = &found.stopped {
        output::say(format_args!(
            "stopped early by {stop}: the counts cover only what was explored"
        ))?;
    }
    if !found.checked_play {
        return output::say(format_args!(
            "no `play` block: levels are not checked for being finishable"
        ));
    }
    match &found.broken {
        Some(broken) => {
            output::say(format_args!(
                "shortest derivation of a level that cannot be finished ({}):",
                output::counted(broken.steps.len() as u64, "step")
            ))?;
            for (i, step) in broken.steps.iter().enumerate() {
                output::say(format_args!("  {}. {step}", i + 1))?;
            }
            output::say(format_args!("  why: {}", broken.why))?;
        }
        None if found.levels == 0 => output::say(format_args!(
            "no derivation ends within {depth} steps: nothing to check (raise --depth)"
        ))?,
        None if found.stopped.is_none() => output::say(format_args!(
            "every level derived in at most {depth} steps can be finished"
        ))?,
        None => output::say(format_args!(
            "no level that cannot be finished among those explored"
        ))?,
    }
    if found.unknown > 0 {
        output::say(format_args!(
            "{} the play check could not decide within its search limit",
            output::counted(found.unknown as u64, "level")
        ))?;
    }
    Ok(())
}
