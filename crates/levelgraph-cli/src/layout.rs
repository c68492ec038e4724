//! `levelgraph layout`: an Edgar map in, layout.json and layout.svg out.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use levelgraph::alphabet::Alphabet;
use levelgraph::formats::{layout_svg, LayoutDoc};
use levelgraph::layout::{edgar, LayoutError, LayoutSettings, Prepared};

use crate::output;
use crate::Failure;

/// The command line of `layout`.
pub(crate) struct Options {
    pub(crate) input: PathBuf,
    pub(crate) rooms: Option<PathBuf>,
    pub(crate) seed: u64,
    pub(crate) out: PathBuf,
    pub(crate) max_iterations: u64,
    pub(crate) time_limit: Option<f64>,
}

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    let yaml = o
        .input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"));
    if !yaml {
        eprintln!(
            "error: {}: `layout` reads Edgar-DotNet YAML maps (.yml or .yaml)",
            o.input.display()
        );
        eprintln!("  hint: level graphs from `generate` are laid out once grammars can name room templates (a `rooms` block); not yet");
        return Err(Failure::BadInput);
    }
    let time_limit = match o.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            eprintln!("error: --time-limit must be a positive number of seconds, not {s}");
            return Err(Failure::BadInput);
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let rooms_dir = o
        .rooms
        .clone()
        .unwrap_or_else(|| edgar::default_rooms_dir(&o.input));
    let loaded =
        edgar::RoomSets::load_dir(&rooms_dir).and_then(|sets| edgar::load_map(&o.input, &sets));
    let problem = loaded.map_err(|e| {
        eprintln!("error: {e}");
        Failure::BadInput
    })?;
    let started = Instant::now();
    let prepared = Prepared::new(&problem).map_err(|e| {
        eprintln!("error: {}: {e}", o.input.display());
        Failure::BadInput
    })?;
    let settings = LayoutSettings {
        max_iterations: o.max_iterations,
        time_limit,
        ..LayoutSettings::default()
    };
    let (layout, stats) = match prepared.run(o.seed, &settings) {
        Ok(done) => done,
        Err(e @ LayoutError::Limit { .. }) => {
            let text = e.to_string();
            let mut lines = text.lines();
            eprintln!("error: {}", lines.next().unwrap_or_default());
            for hint in lines {
                eprintln!("  {hint}");
            }
            eprintln!("  map {}, seed {}", o.input.display(), o.seed);
            return Err(Failure::Derivation);
        }
        Err(e) => {
            eprintln!("error: {}: {e}", o.input.display());
            return Err(Failure::BadInput);
        }
    };
    let elapsed = started.elapsed();
    let title = format!(
        "{} — seed {}",
        o.input
            .file_stem()
            .map_or("layout".into(), |s| s.to_string_lossy()),
        o.seed
    );
    let files = [
        (
            "layout.json",
            LayoutDoc::new(&problem, &layout, o.seed).to_json(),
        ),
        (
            "layout.svg",
            layout_svg(&problem, &layout, &Alphabet::default(), &title),
        ),
    ];
    output::write_all(&o.out, &files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", o.out.display());
        Failure::BadInput
    })?;
    println!(
        "{}: {} rooms, {} doors, {} corridors, {} iterations, {} backtracks, {:.2} ms -> {}",
        o.input.display(),
        layout.rooms.len(),
        layout.doors.len(),
        layout.corridors.len(),
        stats.iterations,
        stats.backtracks,
        elapsed.as_secs_f64() * 1e3,
        o.out.display()
    );
    Ok(())
}
