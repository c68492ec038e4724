//! `levelgraph layout`: an Edgar map, or a mission graph with its
//! grammar's `rooms` block, in; layout.json and layout.svg out. Also the
//! layout step of `generate` for grammars with a `rooms` block.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use levelgraph::alphabet::Alphabet;
use levelgraph::formats::{host_for, write_layout_svg, LayoutDoc, MissionDoc};
use levelgraph::grammar::RoomsSpec;
use levelgraph::layout::edgar::{self, RoomSets};
use levelgraph::layout::{
    Layout, LayoutError, LayoutProblem, LayoutSettings, LayoutStats, Prepared,
};
use levelgraph::rooms::level_problem;
use levelgraph::Graph;

use crate::output::{self, OutFile};
use crate::Failure;

/// The command line of `layout`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// An Edgar-DotNet YAML map (`.yml`/`.yaml`: roomsRange, passages,
    /// defaultRoomShapes, corridors, customRoomDescriptionsSet), or a
    /// mission graph (`.json`, e.g. from `generate`) with `--grammar`.
    pub(crate) input: PathBuf,
    /// For a mission graph: the grammar whose `rooms` block says which
    /// templates each tag uses.
    #[arg(long, value_name = "GRAMMAR")]
    pub(crate) grammar: Option<PathBuf>,
    /// Folder of Edgar room-set files the map's `setName`s refer to;
    /// default: the `rooms` folder beside the map's folder.
    #[arg(long, value_name = "DIR")]
    pub(crate) rooms: Option<PathBuf>,
    /// Seed of the layout: same input and seed, same output bytes.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::parse_seed)]
    pub(crate) seed: u64,
    /// Output folder, created if missing.
    #[arg(long, default_value = "out")]
    pub(crate) out: PathBuf,
    /// Work limit of the whole run, at least 1: simulated-annealing trials,
    /// greedy placements and the candidates of chains filled by exact
    /// enumeration, summed.
    #[arg(long, default_value_t = 1_000_000, value_parser = at_least_one)]
    pub(crate) max_iterations: u64,
    /// Wall-clock limit in seconds (a run it stops is not reproducible).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time_limit: Option<f64>,
}

/// The largest `--max-iterations` accepted: 100 times the default, about a
/// minute of layout on a small map (1,000,000 iterations of a triangle of
/// rooms take 0.6 s). Any `u64` used to be accepted, and a map that cannot
/// be laid out then ran for months.
const MAX_LAYOUT_ITERATIONS: u64 = 100_000_000;

/// `--max-iterations`: a whole number from 1 to [`MAX_LAYOUT_ITERATIONS`].
/// (clap's own range check said "0 is not in 1..18446744073709551615".)
fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("the work limit must be at least 1".to_owned()),
        Ok(n) if n > MAX_LAYOUT_ITERATIONS => Err(format!(
            "the work limit is at most {MAX_LAYOUT_ITERATIONS}, about a minute of layout on a small map"
        )),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    // Named first: a missing map was reported as its room folder (an Edgar
    // map) or as a mission graph without --grammar.
    if let Err(e) = std::fs::metadata(&o.input) {
        eprintln!("error: {}: {e}", o.input.display());
        return Err(Failure::BadInput);
    }
    let is = |ext: &str| {
        o.input
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
    };
    let time_limit = match o.time_limit.map(|s| (s, Duration::try_from_secs_f64(s))) {
        Some((s, Ok(d))) if s > 0.0 => Some(d),
        Some((s, _)) => {
            // `{s:e}` keeps 1e300 short; the bound is what a Duration holds.
            let s = if s.is_finite() && s.abs() >= 1e9 {
                format!("{s:e}")
            } else {
                s.to_string()
            };
            eprintln!(
                "error: --time-limit must be a number of seconds above 0 and below 1.8e19, not {s}"
            );
            return Err(Failure::BadInput);
        }
        None => None,
    };
    let (problem, alphabet, play) = if is("yml") || is("yaml") {
        if o.grammar.is_some() {
            eprintln!(
                "error: --grammar is for mission graphs; an Edgar map names its own room sets"
            );
            return Err(Failure::BadInput);
        }
        (edgar_problem(o)?, Alphabet::default(), None)
    } else if is("json") {
        mission_problem(o)?
    } else {
        eprintln!(
            "error: {}: `layout` reads an Edgar-DotNet YAML map (.yml, .yaml) or a mission graph (.json, with --grammar)",
            o.input.display()
        );
        return Err(Failure::BadInput);
    };
    let settings = LayoutSettings {
        max_iterations: o.max_iterations,
        time_limit,
        ..LayoutSettings::default()
    };
    let started = Instant::now();
    let (layout, stats) = lay_out(&problem, o.seed, &settings, &o.input.display().to_string())?;
    let elapsed = started.elapsed();
    let title = format!(
        "{} — seed {}",
        o.input
            .file_stem()
            .map_or("layout".into(), |s| s.to_string_lossy()),
        o.seed
    );
    let doc = LayoutDoc::new(&problem, &layout, o.seed);
    let doc = match &play {
        Some((level, report)) => doc.with_play(report, level),
        None => doc,
    };
    let files = vec![
        OutFile::streamed("layout.json", |w| doc.write_json(w)),
        OutFile::streamed("layout.svg", |mut w| {
            write_layout_svg(&mut w, &problem, &layout, &alphabet, &title)
        }),
    ];
    output::write_all(&o.out, files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", o.out.display());
        Failure::BadInput
    })?;
    output::say(format_args!(
        "{}: {}, {}, {}, {}, {}, {:.2} ms -> {}",
        o.input.display(),
        output::counted(layout.rooms.len() as u64, "room"),
        output::counted(layout.doors.len() as u64, "door"),
        output::counted(layout.corridors.len() as u64, "corridor"),
        output::counted(stats.iterations, "iteration"),
        output::counted(stats.backtracks, "backtrack"),
        elapsed.as_secs_f64() * 1e3,
        o.out.display()
    ))
}

/// The problem of an Edgar map, its room sets from `--rooms` or beside it.
fn edgar_problem(o: &Options) -> Result<LayoutProblem, Failure> {
    let rooms_dir = o
        .rooms
        .clone()
        .unwrap_or_else(|| edgar::default_rooms_dir(&o.input));
    if !rooms_dir.is_dir() {
        let what = if rooms_dir.exists() {
            "is not a folder"
        } else {
            "does not exist"
        };
        match &o.rooms {
            Some(dir) => eprintln!(
                "error: --rooms {}: {what}; it names the folder of Edgar room-set files the map's `setName`s refer to",
                dir.display()
            ),
            None => {
                eprintln!(
                    "error: {}: {what}; the map's room sets are looked for in the `rooms` folder beside the map's folder",
                    rooms_dir.display()
                );
                eprintln!("  hint: name the folder of Edgar room-set files with --rooms DIR");
            }
        }
        return Err(Failure::BadInput);
    }
    edgar::RoomSets::load_dir(&rooms_dir)
        .and_then(|sets| edgar::load_map(&o.input, &sets))
        .map_err(|e| {
            eprintln!("error: {e}");
            Failure::BadInput
        })
}

/// The problem of a mission graph under its grammar's `rooms` block.
/// A mission graph's layout problem under its grammar's `rooms` block, the
/// grammar's alphabet, and with a `play` block the level and its play
/// report (for layout.json's `play` section).
fn mission_problem(o: &Options) -> Result<(LayoutProblem, Alphabet, MissionPlay), Failure> {
    let Some(grammar_path) = &o.grammar else {
        eprintln!(
            "error: {}: a mission graph needs --grammar GRAMMAR, whose `rooms` block says which templates each tag uses",
            o.input.display()
        );
        return Err(Failure::BadInput);
    };
    if o.rooms.is_some() {
        eprintln!("error: --rooms is for Edgar maps; a grammar's `rooms` block names its own files with `load`");
        return Err(Failure::BadInput);
    }
    let loaded = crate::load_grammar(Some(grammar_path))?;
    crate::reject_lint_errors(&loaded)?;
    let grammar = &loaded.grammar;
    let Some(spec) = &grammar.model().rooms else {
        eprintln!(
            "error: grammar {} has no `rooms` block: it does not say which room templates its tags use",
            grammar_path.display()
        );
        return Err(Failure::BadInput);
    };
    let text = crate::input::read_text(&o.input).map_err(|e| {
        e.report("mission graph", &o.input);
        Failure::BadInput
    })?;
    let host = MissionDoc::from_json(&text)
        .and_then(|doc| host_for(&doc, grammar))
        .map_err(|e| {
            eprintln!("error: {}: {e}", o.input.display());
            Failure::BadInput
        })?;
    let problem = problem_of_level(&host, spec, grammar_path, &loaded.text)?;
    let play = levelgraph::play::check_level(grammar, &host).map(|report| (host, report));
    Ok((problem, grammar.alphabet(), play))
}

/// A mission graph and its play report, when its grammar has a `play`
/// block.
type MissionPlay = Option<(Graph, levelgraph::play::PlayReport)>;

/// The layout problem of a level under a `rooms` block whose `load` paths
/// are relative to `grammar_path`'s folder. Bad blocks and files exit 2.
pub(crate) fn problem_of_level(
    level: &Graph,
    spec: &RoomsSpec,
    grammar_path: &Path,
    grammar_text: &str,
) -> Result<LayoutProblem, Failure> {
    let sets = load_room_sets(spec, grammar_path, grammar_text).map_err(|message| {
        eprintln!("{message}");
        Failure::BadInput
    })?;
    level_problem(level, spec, &sets).map_err(|e| {
        eprintln!("error: {}: {e}", grammar_path.display());
        Failure::BadInput
    })
}

/// The Edgar room sets of a `rooms` block's `load` lines, relative to
/// `grammar_path`'s folder; a file or folder that cannot be read is the
/// error line to print (exit 2), so that `generate` can print it where
/// the level's layout would have begun. The line names the grammar file
/// and, for a text grammar (`grammar_text`), the `load` line and column.
pub(crate) fn load_room_sets(
    spec: &RoomsSpec,
    grammar_path: &Path,
    grammar_text: &str,
) -> Result<RoomSets, String> {
    let base = grammar_path.parent().unwrap_or(Path::new("."));
    let mut sets = RoomSets::new();
    for (i, entry) in spec.load.iter().enumerate() {
        let path = base.join(entry);
        let at = match spec.setting_spans.get(&format!("load {i}")) {
            Some(span) => {
                let at = levelgraph::diagnostic::line_col(grammar_text, span.start);
                format!("{}:{}:{}", grammar_path.display(), at.line, at.column)
            }
            None => grammar_path.display().to_string(),
        };
        // A folder is read as `load_dir` reads it; a set name loaded twice
        // is an error of `load_file`.
        let files = if path.is_dir() {
            match yaml_files(&path) {
                Ok(files) if !files.is_empty() => files,
                Ok(_) => {
                    return Err(format!(
                        "error: rooms block of {at}: folder {} has no room-set files (*.yml, *.yaml)",
                        path.display()
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "error: rooms block of {at}: cannot read folder {}: {e}",
                        path.display()
                    ));
                }
            }
        } else {
            vec![path]
        };
        for file in files {
            if let Err(e) = sets.load_file(&file) {
                return Err(format!("error: rooms block of {at}: {e}"));
            }
        }
    }
    Ok(sets)
}

/// The `*.yml`/`*.yaml` files of `dir` in name order (as `load_dir` reads them).
fn yaml_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        let yaml = p
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("yml") || x.eq_ignore_ascii_case("yaml"));
        if yaml && p.is_file() {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

/// Runs the layout; a limit exits 1, a problem that cannot be laid out
/// (not planar, not connected, rooms that cannot meet, configuration
/// spaces beyond the work budget) exits 2; messages name `what`.
pub(crate) fn lay_out(
    problem: &LayoutProblem,
    seed: u64,
    settings: &LayoutSettings,
    what: &str,
) -> Result<(Layout, LayoutStats), Failure> {
    let prepared = Prepared::within(problem, settings).map_err(|e| {
        eprintln!("error: {what}: {e}");
        Failure::BadInput
    })?;
    match prepared.run(seed, settings) {
        Ok(done) => Ok(done),
        Err(limit @ LayoutError::Limit { .. }) => {
            report_limit(&limit, what, seed);
            Err(Failure::Derivation)
        }
        Err(e) => {
            eprintln!("error: {what}: {e}");
            Err(Failure::BadInput)
        }
    }
}

/// Prints a layout that its limits stopped: the error, its hints, and
/// what was laid out with which seed.
pub(crate) fn report_limit(limit: &LayoutError, what: &str, seed: u64) {
    let text = limit.to_string();
    let mut lines = text.lines();
    eprintln!("error: {}", lines.next().unwrap_or_default());
    for hint in lines {
        eprintln!("  {hint}");
    }
    eprintln!("  hint: another --seed gives another layout (with `generate`, another level)");
    eprintln!("  {what}, seed {seed}");
}
