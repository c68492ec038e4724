//! The `levelgraph` command: a thin layer over the `levelgraph` library.
//!
//! Exit codes: 0 success; 1 a derivation failed within its limits; 2 bad
//! input or usage. Diagnostics go to stderr, results to files (written to a
//! temporary name and renamed, so a failed run leaves nothing half-written)
//! and the one-line summary to stdout.

mod analyze;
mod canon;
mod diagnostics;
mod explore;
mod input;
mod layout;
mod output;
mod place;
mod play;
mod serve;
mod tiles;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand, ValueEnum};
use levelgraph::diagnostic::Severity;
use levelgraph::drawing::{draw, ForceConfig};
use levelgraph::formats::{
    host_for, write_dot, write_graph_text, write_graphml, write_layout_svg, write_svg_numbered,
    MissionDoc, MissionError, MissionJson,
};
use levelgraph::geometric::GeometrySettings;
use levelgraph::grammar::{self, CompiledGrammar, GrammarError};
use levelgraph::lint::lint_report;
use levelgraph::pipeline::{self, Attempt, Config, GenerateError, Level, Outcome, Unproved};
use levelgraph::play::PlayReport;
use levelgraph::tiles::{TileMap, TilesError};
use levelgraph::{DeriveError, Graph};
use output::OutFile;

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
    /// mission.dot, mission.svg, mission.graphml and mission.txt (the
    /// one-line GRAPH text export).
    Generate {
        /// Grammar file (`.lg` text or `.json`); the built-in default
        /// grammar when absent.
        grammar: Option<PathBuf>,
        /// Seed of the derivation: same grammar and seed, same output bytes.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = parse_seed)]
        seed: u64,
        /// Output folder, created if missing.
        #[arg(long, default_value = "out")]
        out: PathBuf,
        /// Derive from this mission JSON graph (e.g. an earlier
        /// mission.json) instead of from the start symbol. Its tags must be
        /// declared by the grammar; the start rule then usually matches
        /// nothing.
        #[arg(long, value_name = "FILE.json")]
        host: Option<PathBuf>,
        /// Which files to write, comma-separated [default:
        /// json,dot,svg,graphml,txt,layout,tiles; layout and tiles only for
        /// a grammar with a `rooms` block].
        #[arg(long, value_enum, value_delimiter = ',')]
        formats: Option<Vec<Format>>,
        /// Geometric derivation (a plane drawing kept while rewriting): end
        /// with room circles that pass the self-intersection test (also on
        /// when the grammar's header says `geometric`).
        #[arg(long)]
        geometric: bool,
        /// Write the level of the seed asked for even when it cannot be
        /// proved completable (a grammar with a `play` block), to look at a
        /// level `check` warns about: mission.json's `play` section says
        /// why. Without it such a level is rejected and the next attempt
        /// seed's level derived.
        #[arg(long)]
        allow_unfinishable: bool,
    },
    /// Parse and lint a grammar: report errors and warnings with their line,
    /// and the rules whose patterns are symmetric.
    Check {
        /// Grammar file (`.lg` text or `.json`).
        grammar: PathBuf,
        /// Also explore every derivation of up to K steps (each state once
        /// up to isomorphism) and warn about the shortest one that yields a
        /// level that cannot be finished.
        #[arg(long, value_name = "K")]
        explore: Option<u32>,
    },
    /// Lay out a level graph as rooms with doors (configuration spaces,
    /// chains and simulated annealing, after Ma et al. 2014) and write
    /// layout.json and layout.svg.
    Layout(layout::Options),
    /// Make a tile map with one of three grid generators (rooms and
    /// corridors, accretion, cellular-automaton caves) and write map.txt, map.csv, map.png, map.tmj and
    /// map.tmx (with map-tileset.png).
    Tiles(tiles::Options),
    /// Place a grammar's `place` block content on a level by SAT: diverse
    /// placements (placements.json) and, for every content and room,
    /// whether it can be there (possible), must be (necessary) or cannot
    /// (impossible): analysis.json, analysis.csv and one shaded
    /// analysis-CONTENT.svg per content (and analysis-CONTENT-layout.svg
    /// with a `rooms` block). `--levels N` aggregates over the levels of
    /// seeds 1..=N instead (aggregate.csv, rooms.csv).
    Place(place::Options),
    /// Canonical form and automorphism group (individualisation-refinement,
    /// McKay & Piperno 2014) of mission graph files — two or more are also
    /// compared: the same level or not — and of every rule pattern of a
    /// grammar.
    Canon(canon::Options),
    /// Explore every derivation of a grammar up to K steps, breadth first,
    /// each state kept once by its canonical form (state-space exploration
    /// as in GROOVE): distinct states and levels per depth, and the
    /// shortest derivation of a level that cannot be finished.
    Explore(explore::Options),
    /// Expressive range (Smith & Whitehead 2010): derive every seed of a
    /// range once, in parallel, measure each level (size, cycles, keys,
    /// locks that gate, playthrough, linearity, distinct levels, ...) and
    /// write levels.csv, summary.json, histograms and heat maps (SVG, PNG)
    /// and report.html. `--shard K/N` runs a slice, `--merge` joins the
    /// slices, `--compare` puts two runs in one report.
    Analyze(analyze::Options),
    /// Live preview: a web page on 127.0.0.1 showing a seed's level of the
    /// grammar (mission graph, layout, tile map, play verdict, trace and a
    /// step-by-step replay, or the grammar's errors beside the last good
    /// level) that follows the grammar file: every save re-derives it.
    Serve(serve::Options),
    /// Print the JSON form of a grammar on stdout.
    GrammarJson {
        /// Grammar file (`.lg` text or `.json`); the built-in default when absent.
        grammar: Option<PathBuf>,
    },
}

/// An output file of `generate`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Format {
    /// mission.json, the mission graph document.
    Json,
    /// mission.dot, Graphviz.
    Dot,
    /// mission.svg, the picture.
    Svg,
    /// mission.graphml, GraphML.
    Graphml,
    /// mission.txt, the one-line GRAPH text export.
    Txt,
    /// layout.json and layout.svg, the room layout, when the grammar has a
    /// `rooms` block (none otherwise).
    Layout,
    /// level.png, level.tmj and level-tileset.png: the layout as a tile map,
    /// when the grammar has a `rooms` block (none otherwise).
    Tiles,
}

/// How a command ended, mapped to an exit code.
pub(crate) enum Failure {
    /// Exit 1: a derivation failed within its limits.
    Derivation,
    /// Exit 2: bad input or usage (the message is already printed).
    BadInput,
    /// Exit 0: standard output was closed by its reader (`| head`); what
    /// was asked is done or no longer wanted. Only a command whose work
    /// succeeded may return it (`check` of a grammar with errors stays 2).
    ReaderGone,
}

/// A `--seed` value: a whole number from 0 to 2^64 − 1. clap's own
/// messages read "-1" as an unknown flag ("to pass '-1' as a value, use
/// '-- -1'") and a word as "invalid digit found in string".
pub(crate) fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate {
            grammar,
            seed,
            out,
            host,
            formats,
            geometric,
            allow_unfinishable,
        } => generate(
            grammar.as_deref(),
            seed,
            &out,
            host.as_deref(),
            formats,
            Modes {
                geometric,
                allow_unfinishable,
            },
        ),
        Command::Check { grammar, explore } => check(&grammar, explore),
        Command::GrammarJson { grammar } => grammar_json(grammar.as_deref()),
        Command::Layout(options) => layout::run(&options),
        Command::Tiles(options) => tiles::run(&options),
        Command::Place(options) => place::run(&options),
        Command::Canon(options) => canon::run(&options),
        Command::Explore(options) => explore::run(&options),
        Command::Analyze(options) => analyze::run(&options),
        Command::Serve(options) => serve::run(&options),
    };
    match result {
        Ok(()) | Err(Failure::ReaderGone) => ExitCode::SUCCESS,
        Err(Failure::Derivation) => ExitCode::from(1),
        Err(Failure::BadInput) => ExitCode::from(2),
    }
}

/// A grammar read from disk (or the built-in one) with its text, for diagnostics.
pub(crate) struct Loaded {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) grammar: CompiledGrammar,
}

pub(crate) fn load_grammar(path: Option<&Path>) -> Result<Loaded, Failure> {
    let Some(path) = path else {
        return Ok(Loaded {
            name: "<built-in default grammar>".to_owned(),
            text: grammar::DEFAULT_GRAMMAR.to_owned(),
            grammar: grammar::default_grammar(),
        });
    };
    let display = path.display().to_string();
    let mut text = input::read_text(path).map_err(|e| {
        e.report("grammar", path);
        Failure::BadInput
    })?;
    // The library skips a byte-order mark too, but the diagnostics printed
    // here count columns in this text: without the mark, as the library does.
    if text.starts_with(levelgraph::diagnostic::BOM) {
        text.drain(..levelgraph::diagnostic::BOM.len_utf8());
    }
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
        Err(GrammarError { diagnostics, .. }) => {
            diagnostics::print(&display, &text, &diagnostics);
            if is_json && text.contains("\"levelgraph.mission/") {
                eprintln!(
                    "  hint: {display} is a mission graph, not a grammar: derive from it with `generate GRAMMAR --host {display}`"
                );
            }
            Err(Failure::BadInput)
        }
    }
}

/// Lint errors make a grammar unusable; warnings are left to `check`.
pub(crate) fn reject_lint_errors(loaded: &Loaded) -> Result<(), Failure> {
    // Errors only: the full lint samples derivations, which `check` is for.
    let errors = levelgraph::lint::errors(&loaded.grammar);
    if errors.is_empty() {
        return Ok(());
    }
    diagnostics::print(&loaded.name, &loaded.text, &errors);
    Err(Failure::BadInput)
}

/// Reads a mission JSON document as a host graph for `grammar`.
pub(crate) fn load_host(path: &Path, grammar: &CompiledGrammar) -> Result<Graph, Failure> {
    let display = path.display();
    let text = crate::input::read_text(path).map_err(|e| {
        e.report("host graph", path);
        Failure::BadInput
    })?;
    let result = MissionDoc::from_json(&text).and_then(|doc| host_for(&doc, grammar));
    result.map_err(|err| {
        eprintln!("error: host graph {display}: {err}");
        if let MissionError::UndeclaredTag { tag, .. } = &err {
            eprintln!(
                "  hint: grammar `{}` declares no tag `{tag}`; declare it in its `tags` block, or retag the node",
                grammar.name()
            );
        }
        Failure::BadInput
    })
}

/// How `generate` treats the level: `--geometric`, `--allow-unfinishable`.
struct Modes {
    geometric: bool,
    allow_unfinishable: bool,
}

fn generate(
    path: Option<&Path>,
    seed: u64,
    out: &Path,
    host: Option<&Path>,
    formats: Option<Vec<Format>>,
    modes: Modes,
) -> Result<(), Failure> {
    let started = Instant::now();
    let Modes {
        geometric,
        allow_unfinishable,
    } = modes;
    // Asked for by name (not the default list): a layout or tile map the
    // grammar cannot give is then worth a note.
    let named = formats.is_some();
    let mut formats = formats.unwrap_or_else(|| Format::value_variants().to_vec());
    let loaded = load_grammar(path)?;
    reject_lint_errors(&loaded)?;
    let grammar = &loaded.grammar;
    let geometric = geometric || grammar.model().geometry.is_some();
    if geometric && grammar.grid().is_some() {
        report_geometric_grid(grammar);
        return Err(Failure::BadInput);
    }
    formats.sort();
    formats.dedup();
    let mut config = Config::new()
        .allow_unfinishable(allow_unfinishable)
        .with_layout(formats.contains(&Format::Layout))
        .with_tiles(formats.contains(&Format::Tiles));
    if geometric {
        // The header's own settings win over these.
        config = config.with_geometry(GeometrySettings::default());
    }
    if let Some(host) = host {
        config = config.with_host(load_host(host, grammar)?);
    }
    let base = path.unwrap_or(Path::new("grammar"));
    let (config, unread_sets) = with_room_sets(config, &loaded, &formats, base);
    let what = format!("the level of grammar {}", grammar.name());
    let (level, tiles_error) = match pipeline::generate(grammar, seed, &config) {
        Ok(level) => (level, None),
        Err(GenerateError::Tiles {
            error,
            scale,
            level,
        }) => (*level, Some((error, scale))),
        Err(err) => {
            note_attempts(err.attempts());
            return Err(report_generate_error(
                &loaded,
                &err,
                seed,
                &what,
                base,
                unread_sets.as_deref(),
            ));
        }
    };
    note_attempts(&level.attempts);
    let level_seed = level.seed;
    let rejected: Vec<&Unproved> = level.rejected().collect();
    play::note_rejected(&rejected);
    note_gave_way(&level);
    let derivation = &level.derivation;
    let report = level.play.as_ref();
    let alphabet = grammar.alphabet();
    let title = format!("{} — seed {level_seed}", grammar.name());
    let graph = &derivation.graph;
    let wants_picture = formats.contains(&Format::Svg) || formats.contains(&Format::Txt);
    let positions = picture_positions(graph, geometric, wants_picture, level_seed);
    let picture = Picture {
        alphabet: &alphabet,
        title: &title,
        positions: &positions,
    };
    let mut files = mission_files(&formats, derivation, report, &picture);
    if let Some((problem, l)) = &level.layout {
        if formats.contains(&Format::Layout) {
            files.extend(layout_files(
                problem,
                l,
                level_seed,
                report.map(|r| (r, graph)),
                &picture,
            ));
        }
        if formats.contains(&Format::Tiles) {
            if let Some((error, scale)) = &tiles_error {
                return Err(report_tiles_error(&loaded, error, *scale));
            }
            if let Some(map) = &level.tiles {
                files.extend(level_tiles(map, grammar, level_seed)?);
            }
        }
    }
    if named && level.layout.is_none() {
        note_not_laid_out(grammar, &formats);
    }
    let nothing = files.is_empty();
    output::write_all(out, files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", out.display());
        Failure::BadInput
    })?;
    let written = if nothing {
        "nothing written".to_owned()
    } else {
        out.display().to_string()
    };
    say_summary(grammar, &level, &rejected, started.elapsed(), &written)
}

/// The summary line of `generate`: the level's size, stop reason, whether
/// it can be finished (and what gave way before it), the derivation's time
/// and the whole command's (`in_all`: reading the grammar to the last file
/// written), and where the files went.
fn say_summary(
    grammar: &CompiledGrammar,
    level: &Level,
    rejected: &[&Unproved],
    in_all: Duration,
    written: &str,
) -> Result<(), Failure> {
    let derivation = &level.derivation;
    let graph = &derivation.graph;
    let finished = match &level.play {
        Some(r) if r.is_completable() => format!(
            ", can be finished in {}{}",
            output::counted(r.playthrough.len() as u64, "step"),
            play::rejected_summary(rejected)
        ),
        Some(_) => ", cannot be proved completable".to_owned(),
        None => String::new(),
    };
    let mut placed_counts: Vec<(&str, u64)> = Vec::new();
    for content in &level.placed {
        match placed_counts
            .iter_mut()
            .find(|(tag, _)| *tag == content.tag)
        {
            Some((_, n)) => *n += content.rooms.len() as u64,
            None => placed_counts.push((&content.tag, content.rooms.len() as u64)),
        }
    }
    let finished = if placed_counts.is_empty() {
        finished
    } else {
        let list: Vec<String> = placed_counts
            .iter()
            .map(|(tag, n)| format!("{tag} ×{n}"))
            .collect();
        format!("{finished}, placed {}", list.join(", "))
    };
    output::say(format_args!(
        "{}: {}, {}, {}, stopped: {}{finished}, derived in {} ({} in all) -> {}",
        grammar.name(),
        output::counted_as(graph.vertex_count() as u64, "vertex", "vertices"),
        output::counted(graph.edge_count() as u64, "edge"),
        output::counted(derivation.trace.len() as u64, "application"),
        derivation.stop,
        output::duration(level.derive_time),
        output::duration(in_all),
        written
    ))
}

/// A note on stderr naming the attempts whose level was not derived or
/// not laid out before `level`'s.
fn note_gave_way(level: &Level) {
    let failed: Vec<String> = level
        .attempts
        .iter()
        .filter_map(|a| match a.outcome {
            Outcome::NotDerived(_) => Some(format!("seed {} (not derived)", a.seed)),
            Outcome::NotLaidOut(_) => Some(format!("seed {} (not laid out)", a.seed)),
            Outcome::NotPlaced(_) => Some(format!("seed {} (content not placed)", a.seed)),
            _ => None,
        })
        .collect();
    if !failed.is_empty() {
        eprintln!(
            "note: the level of attempt {} (seed {}) was {} after {}",
            level.attempts.len(),
            level.seed,
            if level.layout.is_some() {
                "laid out"
            } else {
                "derived"
            },
            failed.join(", ")
        );
    }
}

/// Where the pictures put each vertex: a geometric derivation's own
/// drawing, else a force-directed drawing when a picture or the text
/// export is wanted (with a note when its work limit cut it short).
pub(crate) fn picture_positions(
    graph: &Graph,
    geometric: bool,
    wanted: bool,
    seed: u64,
) -> Vec<Option<levelgraph::graph::Point>> {
    if geometric {
        let mut positions = vec![None; graph.vertex_bound()];
        for (v, x) in graph.vertices() {
            positions[v.index()] = x.position;
        }
        positions
    } else if wanted {
        let config = ForceConfig::for_picture(seed);
        let drawing = draw(graph, &config);
        if drawing.iterations < config.iterations {
            eprintln!(
                "note: the picture's force-directed drawing made {} of {} iterations: {} top-level vertices reach its work limit",
                drawing.iterations,
                config.iterations,
                drawing.vertices
            );
        }
        drawing.positions
    } else {
        Vec::new()
    }
}

/// `config` with the Edgar room sets the grammar's `rooms` block loads,
/// when a layout or tile map is wanted; a file that cannot be read is
/// returned as a message, to be reported where the first level's layout
/// would begin.
fn with_room_sets(
    config: Config,
    loaded: &Loaded,
    formats: &[Format],
    base: &Path,
) -> (Config, Option<String>) {
    let wants_layout = formats.contains(&Format::Layout) || formats.contains(&Format::Tiles);
    match loaded
        .grammar
        .model()
        .rooms
        .as_ref()
        .filter(|_| wants_layout)
    {
        Some(spec) => match layout::load_room_sets(spec, base, &loaded.text) {
            Ok(sets) => (config.with_room_sets(sets), None),
            Err(message) => (config, Some(message)),
        },
        None => (config, None),
    }
}

/// layout.json (with the play section when there is a report on the
/// level's graph) and layout.svg.
fn layout_files<'a>(
    problem: &'a levelgraph::layout::LayoutProblem,
    layout: &'a levelgraph::layout::Layout,
    seed: u64,
    play: Option<(&PlayReport, &Graph)>,
    picture: &'a Picture,
) -> [OutFile<'a>; 2] {
    let doc = levelgraph::formats::LayoutDoc::new(problem, layout, seed);
    let doc = match play {
        Some((r, graph)) => doc.with_play(r, graph),
        None => doc,
    };
    [
        OutFile::streamed("layout.json", move |w| doc.write_json(w)),
        OutFile::streamed("layout.svg", move |mut w| {
            write_layout_svg(&mut w, problem, layout, picture.alphabet, picture.title)
        }),
    ]
}

/// A note that the layout or tile map asked for by name was not written:
/// the grammar has no `rooms` block.
fn note_not_laid_out(grammar: &CompiledGrammar, formats: &[Format]) {
    let unlaid: Vec<&str> = [(Format::Layout, "layout"), (Format::Tiles, "tiles")]
        .into_iter()
        .filter(|(f, _)| formats.contains(f))
        .map(|(_, name)| name)
        .collect();
    if !unlaid.is_empty() {
        eprintln!(
            "note: `--formats {}` not written: grammar `{}` has no `rooms` block, so it is not laid out",
            unlaid.join(","),
            grammar.name()
        );
    }
}

/// What the mission pictures share: tag colours, title, positions.
struct Picture<'a> {
    alphabet: &'a levelgraph::alphabet::Alphabet,
    title: &'a str,
    positions: &'a [Option<levelgraph::graph::Point>],
}

/// The mission graph's files among `formats`, each written as it is made.
fn mission_files<'a>(
    formats: &[Format],
    derivation: &'a levelgraph::Derivation,
    report: Option<&'a PlayReport>,
    picture: &'a Picture,
) -> Vec<OutFile<'a>> {
    let graph = &derivation.graph;
    let (alphabet, title, positions) = (picture.alphabet, picture.title, picture.positions);
    formats
        .iter()
        .filter_map(|format| match format {
            Format::Json => Some(OutFile::streamed("mission.json", move |w| {
                MissionJson::new(derivation, report).write(w)
            })),
            Format::Dot => Some(OutFile::streamed("mission.dot", move |mut w| {
                write_dot(&mut w, graph, alphabet, title)
            })),
            Format::Svg => Some(OutFile::streamed("mission.svg", move |mut w| {
                write_svg_numbered(&mut w, graph, positions, alphabet, title, &entered(report))
            })),
            Format::Graphml => Some(OutFile::streamed("mission.graphml", move |mut w| {
                write_graphml(&mut w, graph, alphabet, title)
            })),
            Format::Txt => Some(OutFile::streamed("mission.txt", move |mut w| {
                write_graph_text(&mut w, graph, positions)
            })),
            Format::Layout | Format::Tiles => None,
        })
        .collect()
}

/// What each attempt of `generate` printed as it went: a geometric
/// derivation's failed drawings, and a level kept by
/// `--allow-unfinishable` although it cannot be proved completable.
fn note_attempts(attempts: &[Attempt]) {
    for attempt in attempts {
        if let Some(drawing) = attempt.drawing.filter(|d| d.attempts > 1) {
            eprintln!(
                "note: the drawings of {} failed the self-intersection test; attempt {} (seed {}) passed",
                output::counted(u64::from(drawing.attempts - 1), "attempt"),
                drawing.attempts,
                drawing.seed
            );
        }
        let kept = !matches!(attempt.outcome, Outcome::Rejected);
        if let Some(unproved) = attempt.unproved.as_ref().filter(|_| kept) {
            eprintln!(
                "warning: the level of seed {} {} (written as asked by --allow-unfinishable)",
                attempt.seed,
                unproved.verdict_message()
            );
        }
    }
}

/// Reports why `generate` made no level (its attempts' notes already
/// printed): the failed derivation, the rejected levels, the layout's
/// limit, a `rooms` block or layout problem that cannot work. `seed` is
/// the seed asked for, `base` the grammar's path (its `load` lines are
/// relative to its folder), `unread_sets` the error of a `load` that could
/// not be read.
fn report_generate_error(
    loaded: &Loaded,
    err: &GenerateError,
    seed: u64,
    what: &str,
    base: &Path,
    unread_sets: Option<&str>,
) -> Failure {
    let grammar = &loaded.grammar;
    match err {
        GenerateError::Derive {
            seed: level_seed,
            error,
            ..
        } => {
            report_derive_error(grammar, error, *level_seed);
            Failure::Derivation
        }
        GenerateError::NotPlaced { error, .. } => {
            place::report(loaded, error, seed);
            Failure::Derivation
        }
        GenerateError::Unfinishable { attempts } => {
            let rejected: Vec<&Unproved> = pipeline::rejected(attempts).collect();
            play::report_exhausted(grammar, seed, attempts.len(), &rejected);
            Failure::Derivation
        }
        GenerateError::NotLaidOut {
            seed: level_seed,
            error,
            attempts,
        } => {
            layout::report_limit(error, what, *level_seed);
            let retries = grammar.model().rooms.as_ref().map_or(0, |r| r.retries());
            if retries > 0 {
                eprintln!(
                    "  {} levels were tried (seed {seed} and {}) and none was laid out",
                    attempts.len(),
                    output::counted_as(attempts.len() as u64 - 1, "retry", "retries")
                );
                eprintln!(
                    "  hint: raise `retries` in the grammar's `rooms` block, or give the templates more doors"
                );
            }
            Failure::Derivation
        }
        GenerateError::NoRoomSets { .. } => {
            match unread_sets {
                Some(message) => eprintln!("{message}"),
                None => eprintln!("error: {}: {err}", base.display()),
            }
            Failure::BadInput
        }
        GenerateError::Rooms { error, .. } => {
            eprintln!("error: {}: {error}", base.display());
            Failure::BadInput
        }
        GenerateError::Layout { error, .. } => {
            eprintln!("error: {what}: {error}");
            Failure::BadInput
        }
        GenerateError::GeometricGrid { .. } => {
            report_geometric_grid(grammar);
            Failure::BadInput
        }
        GenerateError::Tiles { error, scale, .. } => report_tiles_error(loaded, error, *scale),
        GenerateError::Limits { diagnostics } => {
            diagnostics::print(&loaded.name, &loaded.text, diagnostics);
            Failure::BadInput
        }
        _ => {
            eprintln!("error: {err}");
            Failure::BadInput
        }
    }
}

/// `--geometric` (or a `geometric` header) with a grid grammar.
fn report_geometric_grid(grammar: &CompiledGrammar) {
    eprintln!(
        "error: grammar `{}` is a grid grammar; a geometric derivation needs a start symbol, not a grid",
        grammar.name()
    );
    eprintln!("  hint: grid vertices are drawn at their cells; leave out --geometric");
}

/// The places of a playthrough in the order they are entered, for the
/// numbers in mission.svg; none without a report.
pub(crate) fn entered(report: Option<&PlayReport>) -> Vec<levelgraph::VertexId> {
    report.map_or_else(Vec::new, |r| {
        r.playthrough
            .iter()
            .filter_map(|e| match e {
                levelgraph::play::Event::Enter { room, .. } => Some(*room),
                _ => None,
            })
            .collect()
    })
}

/// Reports a failed derivation: the limit or stage, the graph's size and
/// the rules applied (in the error), the seed, and a hint.
fn report_derive_error(grammar: &CompiledGrammar, err: &DeriveError, seed: u64) {
    eprintln!("error: {err}");
    eprintln!("  grammar {}, seed {seed}", grammar.name());
    let hint = match err {
        DeriveError::TooFewVertices { .. } => {
            "try another --seed, or lower min_vertices in the grammar header"
        }
        DeriveError::StageFailed { .. } => {
            "try another --seed, or lower the stage's minimum count in the recipe"
        }
        DeriveError::Drawing { .. } => {
            "try another --seed, raise `retries` in the grammar's `geometric` block, or cap max_valence"
        }
        _ => "try another --seed",
    };
    eprintln!("  hint: {hint}");
}

/// A level the rasterizer cannot draw at the grammar's scale: the scale is
/// the `rooms` block's `tile_scale`, named with its place in the grammar
/// when the text writes it (exit code 2, like the setting's other errors).
fn report_tile_scale(loaded: &Loaded, scale: u32, message: &str) -> Failure {
    let rooms = loaded.grammar.model().rooms.as_ref();
    let written = rooms.and_then(|r| r.setting_spans.get("tile_scale"));
    let file = &loaded.name;
    match (written, rooms.and_then(|r| r.tile_scale)) {
        (Some(span), _) => {
            let at = levelgraph::diagnostic::line_col(&loaded.text, span.start);
            eprintln!(
                "error: {file}:{}:{}: tile_scale {scale} in the `rooms` block: {message}",
                at.line, at.column
            );
        }
        (None, Some(_)) => {
            eprintln!("error: {file}: tile_scale {scale} (at rooms.tile_scale): {message}")
        }
        (None, None) => eprintln!(
            "error: {file}: the default tile_scale {scale} (the `rooms` block sets none): {message}"
        ),
    }
    Failure::BadInput
}

/// A tile map the rasterizer could not make: a scale that closes a door
/// is the `rooms` block's `tile_scale` at fault (exit 2); any other error
/// as the `tiles` command reports it.
fn report_tiles_error(loaded: &Loaded, error: &TilesError, scale: u32) -> Failure {
    match error {
        TilesError::Parameter {
            field: "scale",
            message,
        } => report_tile_scale(loaded, scale, message),
        _ => tiles::report("tile map of the layout", error),
    }
}

/// The files of a level's tile map: level.png, level.tmj and
/// level-tileset.png.
fn level_tiles<'a>(
    map: &'a TileMap,
    grammar: &CompiledGrammar,
    seed: u64,
) -> Result<Vec<OutFile<'a>>, Failure> {
    use levelgraph::formats::tilemap::TiledProperty;
    let properties = vec![
        TiledProperty::string("grammar", grammar.name()),
        TiledProperty::string("seed", seed.to_string()),
    ];
    tiles::tile_files(
        map,
        "level",
        &[tiles::TileFormat::Png, tiles::TileFormat::Tmj],
        level_cell_px(map.width, map.height),
        &grammar.alphabet(),
        &properties,
    )
}

/// Pixels per cell of `level.png`: 8, large enough for the key and lock
/// markers to show, or for a map wider than 2048 cells as many as keep the
/// picture within its 16384 pixels a side (at least 1; a rasterized
/// layout is at most 8192 cells a side). `generate` has no `--cell-px`,
/// so a fixed 8 made such a level an error naming that flag.
pub(crate) fn level_cell_px(width: u32, height: u32) -> u32 {
    use levelgraph::formats::tilemap::MAX_IMAGE_SIDE;
    (MAX_IMAGE_SIDE / width.max(height).max(1)).clamp(1, 8)
}

fn check(path: &Path, explore_depth: Option<u32>) -> Result<(), Failure> {
    let loaded = load_grammar(Some(path))?;
    let report = lint_report(&loaded.grammar);
    let mut findings = report.findings;
    let has_errors = findings.iter().any(|d| d.severity == Severity::Error);
    let explored = match explore_depth {
        Some(depth) if !has_errors => {
            let found = levelgraph::explore::explore(
                &loaded.grammar,
                &levelgraph::explore::ExploreLimits::new(depth),
            );
            findings.extend(found.finding(&loaded.grammar));
            Some((depth, found))
        }
        _ => None,
    };
    diagnostics::print(&loaded.name, &loaded.text, &findings);
    if let Some(note) = report.sampling.and_then(|s| s.budget_note()) {
        eprintln!("note: {note}");
    }
    let errors = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    if let (Some(distinct), Some(s)) = (report.distinct_levels, report.sampling) {
        output::say(format_args!(
            "{}: {} sampled seeds: {}",
            loaded.name,
            s.sampled,
            output::counted(distinct, "distinct level"),
        ))?;
    }
    if let (Some(p), Some(s)) = (report.playability, report.sampling) {
        output::say(format_args!(
            "{}: playability of {} sampled seeds: {}",
            loaded.name,
            s.sampled,
            p.summary()
        ))?;
    }
    for s in &report.symmetric {
        output::say(format_args!("{}: {s}", loaded.name))?;
    }
    if let Some((depth, found)) = &explored {
        let verdict = match (&found.broken, found.checked_play) {
            (Some(b), _) => format!(
                "a level that cannot be finished after {}",
                output::counted(b.steps.len() as u64, "step")
            ),
            (None, true) if found.levels == 0 => "no derivation ends that soon".to_owned(),
            (None, true) if found.stopped.is_none() => "every level can be finished".to_owned(),
            (None, true) => "no level that cannot be finished among those explored".to_owned(),
            (None, false) => "no `play` block to check levels with".to_owned(),
        };
        output::say(format_args!(
            "{}: explored derivations of up to {depth} steps: {}, {}; {verdict}{}",
            loaded.name,
            output::counted(found.states as u64, "distinct state"),
            output::counted(found.levels as u64, "distinct level"),
            match &found.stopped {
                Some(stop) => format!(" (stopped early by {stop})"),
                None => String::new(),
            }
        ))?;
    }
    let said = output::say(format_args!(
        "{}: grammar `{}`, {}, {}: {}, {}",
        loaded.name,
        loaded.grammar.name(),
        output::counted(loaded.grammar.rule_count() as u64, "rule"),
        output::counted(loaded.grammar.tags().len() as u64, "tag"),
        output::counted(errors as u64, "error"),
        output::counted(warnings as u64, "warning"),
    ));
    // The exit code is check's answer: a grammar with errors is exit 2
    // even when the summary line found no reader (`check bad.lg | head -0`
    // under `set -o pipefail` passed).
    if errors > 0 {
        Err(Failure::BadInput)
    } else {
        said
    }
}

fn grammar_json(path: Option<&Path>) -> Result<(), Failure> {
    let loaded = load_grammar(path)?;
    output::say(format_args!("{}", loaded.grammar.model().to_json()))
}
