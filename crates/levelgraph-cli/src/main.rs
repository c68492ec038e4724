//! The `levelgraph` command: a thin layer over the `levelgraph` library.
//!
//! Exit codes: 0 success; 1 a derivation failed within its limits; 2 bad
//! input or usage. Diagnostics go to stderr, results to files (written to a
//! temporary name and renamed, so a failed run leaves nothing half-written)
//! and the one-line summary to stdout.

mod diagnostics;
mod layout;
mod output;
mod play;
mod tiles;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use levelgraph::derive::derive_from;
use levelgraph::diagnostic::Severity;
use levelgraph::drawing::{draw, ForceConfig};
use levelgraph::formats::{
    host_for, to_dot, to_graphml, to_seed003_text, to_svg_numbered, MissionDoc, MissionError,
};
use levelgraph::geometric::GeometrySettings;
use levelgraph::grammar::{self, CompiledGrammar, GrammarError};
use levelgraph::lint::lint_report;
use levelgraph::play::PlayReport;
use levelgraph::rng::attempt_seed;
use levelgraph::{DeriveError, Graph};

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
    /// mission.dot, mission.svg, mission.graphml and mission.txt (the text
    /// export of seed 003).
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
        /// Geometric derivation (seed 000): keep a plane drawing while
        /// rewriting and end with room circles that pass the
        /// self-intersection test (also on when the grammar's header says
        /// `geometric`).
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
    /// Parse and lint a grammar: report errors and warnings with their line.
    Check {
        /// Grammar file (`.lg` text or `.json`).
        grammar: PathBuf,
    },
    /// Lay out a level graph as rooms with doors (seed 001: configuration
    /// spaces, chains, simulated annealing) and write layout.json and
    /// layout.svg.
    Layout(layout::Options),
    /// Make a tile map with one of seed 004's grid generators (rooms,
    /// accretion, caves) and write map.txt, map.csv, map.png, map.tmj and
    /// map.tmx (with map-tileset.png).
    Tiles(tiles::Options),
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
    /// mission.txt, the text export of seed 003.
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
        Command::Check { grammar } => check(&grammar),
        Command::GrammarJson { grammar } => grammar_json(grammar.as_deref()),
        Command::Layout(options) => layout::run(&options),
        Command::Tiles(options) => tiles::run(&options),
    };
    match result {
        Ok(()) | Err(Failure::ReaderGone) => ExitCode::SUCCESS,
        Err(Failure::Derivation) => ExitCode::from(1),
        Err(Failure::BadInput) => ExitCode::from(2),
    }
}

/// A grammar read from disk (or the built-in one) with its text, for diagnostics.
pub(crate) struct Loaded {
    name: String,
    text: String,
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
    let mut text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read grammar {display}: {e}");
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
        Err(GrammarError { diagnostics }) => {
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
fn load_host(path: &Path, grammar: &CompiledGrammar) -> Result<Graph, Failure> {
    let display = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read host graph {display}: {e}");
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
    let geometry = match (&grammar.model().geometry, geometric) {
        (Some(settings), _) => Some(settings.clone()),
        (None, true) => Some(GeometrySettings::default()),
        (None, false) => None,
    };
    if geometry.is_some() && grammar.grid().is_some() {
        eprintln!(
            "error: grammar `{}` is a grid grammar; a geometric derivation needs a start symbol, not a grid",
            grammar.name()
        );
        eprintln!("  hint: grid vertices are drawn at their cells; leave out --geometric");
        return Err(Failure::BadInput);
    }
    let host = host.map(|h| load_host(h, grammar)).transpose()?;
    formats.sort();
    formats.dedup();
    // The room layout (seed 001) when the grammar says which templates its
    // tags use. A level that cannot be proved completable (a `play` block),
    // or that its limits cannot lay out, gives way to the next level,
    // derived with the next attempt seed, up to the retries of the `play`
    // and the `rooms` block.
    let wants_layout = formats.contains(&Format::Layout) || formats.contains(&Format::Tiles);
    let rooms = grammar.model().rooms.as_ref().filter(|_| wants_layout);
    let play_spec = grammar.play();
    let play_retries = play_spec.map_or(0, |spec| spec.retries());
    let layout_retries = rooms.map_or(0, |spec| spec.retries());
    let attempts = 1 + play_retries + layout_retries;
    let base = path.unwrap_or(Path::new("grammar"));
    let what = format!("the level of grammar {}", grammar.name());
    let settings = levelgraph::layout::LayoutSettings::default();
    // Each attempt that was not laid out or not derived: its seed and why.
    let mut failed: Vec<(u64, &str)> = Vec::new();
    let mut rejected: Vec<play::Rejected> = Vec::new();
    let (derivation, elapsed, report, layout, level_seed) = loop {
        let attempt = (failed.len() + rejected.len()) as u32;
        let level_seed = attempt_seed(seed, attempt);
        let last = attempt + 1 == attempts;
        let started = Instant::now();
        let derived = derive_level(grammar, host.as_ref(), level_seed, geometry.as_ref());
        // The time reported is the derivation's, as without a layout.
        let elapsed = started.elapsed();
        let derivation = match derived {
            Ok(d) => d,
            // The seed asked for is reported as before; a retry's level
            // that cannot be derived gives way like one not laid out.
            Err(err) if attempt == 0 || last => {
                report_derive_error(grammar, &err, level_seed);
                return Err(Failure::Derivation);
            }
            Err(_) => {
                failed.push((level_seed, "not derived"));
                continue;
            }
        };
        let report = play_spec.map(|spec| levelgraph::play::check(&derivation.graph, spec));
        let unfinishable = report.as_ref().filter(|r| !r.is_completable());
        if let Some(r) = unfinishable.filter(|_| allow_unfinishable) {
            eprintln!(
                "warning: the level of seed {level_seed} {} (written as asked by --allow-unfinishable)",
                r.verdict_message(&derivation.graph)
            );
        } else if let Some(r) = unfinishable {
            rejected.push(play::Rejected::new(grammar, &derivation, r));
            if rejected.len() as u32 > play_retries || last {
                play::report_exhausted(grammar, seed, attempt as usize + 1, &rejected);
                return Err(Failure::Derivation);
            }
            continue;
        }
        let Some(spec) = rooms else {
            break (derivation, elapsed, report, None, level_seed);
        };
        let problem = layout::problem_of_level(&derivation.graph, spec, base)?;
        let unlaid = failed.iter().filter(|f| f.1 == "not laid out").count() as u32;
        match layout::try_lay_out(&problem, level_seed, &settings, &what)? {
            Ok((l, _)) => break (derivation, elapsed, report, Some((problem, l)), level_seed),
            Err(_) if unlaid < layout_retries && !last => failed.push((level_seed, "not laid out")),
            Err(limit) => {
                layout::report_limit(&limit, &what, level_seed);
                if layout_retries > 0 {
                    eprintln!(
                        "  {} levels were tried (seed {seed} and {}) and none was laid out",
                        attempt + 1,
                        output::counted_as(u64::from(attempt), "retry", "retries")
                    );
                    eprintln!(
                        "  hint: raise `retries` in the grammar's `rooms` block, or give the templates more doors"
                    );
                }
                return Err(Failure::Derivation);
            }
        }
    };
    play::note_rejected(&rejected);
    if !failed.is_empty() {
        let tried: Vec<String> = failed
            .iter()
            .map(|(s, why)| format!("seed {s} ({why})"))
            .collect();
        eprintln!(
            "note: the level of attempt {} (seed {level_seed}) was {} after {}",
            failed.len() + rejected.len() + 1,
            if layout.is_some() {
                "laid out"
            } else {
                "derived"
            },
            tried.join(", ")
        );
    }
    let alphabet = grammar.alphabet();
    let title = format!("{} — seed {level_seed}", grammar.name());
    let graph = &derivation.graph;
    let positions = if geometry.is_some() {
        // The derivation's own drawing.
        let mut positions = vec![None; graph.vertex_bound()];
        for (v, x) in graph.vertices() {
            positions[v.index()] = x.position;
        }
        positions
    } else if formats.contains(&Format::Svg) || formats.contains(&Format::Txt) {
        let config = ForceConfig::for_picture(level_seed);
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
    };
    let mut files: Vec<(String, Vec<u8>)> = formats
        .iter()
        .filter_map(|format| match format {
            Format::Json => Some(("mission.json", {
                let doc = MissionDoc::from_derivation(&derivation);
                match &report {
                    Some(r) => doc.with_play(r, graph),
                    None => doc,
                }
                .to_json()
            })),
            Format::Dot => Some(("mission.dot", to_dot(graph, &alphabet, &title))),
            Format::Svg => Some((
                "mission.svg",
                to_svg_numbered(
                    graph,
                    &positions,
                    &alphabet,
                    &title,
                    &entered(report.as_ref()),
                ),
            )),
            Format::Graphml => Some(("mission.graphml", to_graphml(graph, &alphabet, &title))),
            Format::Txt => Some(("mission.txt", to_seed003_text(graph, &positions))),
            Format::Layout | Format::Tiles => None,
        })
        .map(|(name, text)| (name.to_owned(), text.into_bytes()))
        .collect();
    if let Some((problem, l)) = &layout {
        if formats.contains(&Format::Layout) {
            let doc = levelgraph::formats::LayoutDoc::new(problem, l, level_seed);
            let doc = match &report {
                Some(r) => doc.with_play(r, graph),
                None => doc,
            };
            files.push(("layout.json".to_owned(), doc.to_json().into_bytes()));
            files.push((
                "layout.svg".to_owned(),
                levelgraph::formats::layout_svg(problem, l, &alphabet, &title).into_bytes(),
            ));
        }
        if formats.contains(&Format::Tiles) {
            files.extend(level_tiles(
                graph,
                problem,
                l,
                &loaded,
                report.as_ref(),
                level_seed,
            )?);
        }
    }
    let unlaid: Vec<&str> = [(Format::Layout, "layout"), (Format::Tiles, "tiles")]
        .into_iter()
        .filter(|(f, _)| named && layout.is_none() && formats.contains(f))
        .map(|(_, name)| name)
        .collect();
    if !unlaid.is_empty() {
        eprintln!(
            "note: `--formats {}` not written: grammar `{}` has no `rooms` block, so it is not laid out",
            unlaid.join(","),
            grammar.name()
        );
    }
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect();
    output::write_all(out, &files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", out.display());
        Failure::BadInput
    })?;
    let written = if files.is_empty() {
        "nothing written".to_owned()
    } else {
        out.display().to_string()
    };
    let finished = match &report {
        Some(r) if r.is_completable() => format!(
            ", can be finished in {}{}",
            output::counted(r.playthrough.len() as u64, "step"),
            play::rejected_summary(&rejected)
        ),
        Some(_) => ", cannot be proved completable".to_owned(),
        None => String::new(),
    };
    output::say(format_args!(
        "{}: {}, {}, {}, stopped: {}{finished}, {:.2} ms -> {}",
        grammar.name(),
        output::counted_as(derivation.graph.vertex_count() as u64, "vertex", "vertices"),
        output::counted(derivation.graph.edge_count() as u64, "edge"),
        output::counted(derivation.trace.len() as u64, "application"),
        derivation.stop,
        elapsed.as_secs_f64() * 1e3,
        written
    ))
}

/// The places of a playthrough in the order they are entered, for the
/// numbers in mission.svg; none without a report.
fn entered(report: Option<&PlayReport>) -> Vec<levelgraph::VertexId> {
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

/// Derives one level with `seed`: geometrically when `geometry` is given
/// (its own attempts noted), from `host` when given.
fn derive_level(
    grammar: &CompiledGrammar,
    host: Option<&Graph>,
    seed: u64,
    geometry: Option<&GeometrySettings>,
) -> Result<levelgraph::Derivation, DeriveError> {
    match (host, geometry) {
        (host, Some(settings)) => {
            let outcome = match host {
                Some(host) => {
                    levelgraph::geometric::derive_from(grammar, host.clone(), seed, settings)
                }
                None => levelgraph::geometric::derive(grammar, seed, settings),
            };
            outcome.map(|g| {
                if g.attempts > 1 {
                    eprintln!(
                        "note: the drawings of {} failed the self-intersection test; attempt {} (seed {}) passed",
                        output::counted(u64::from(g.attempts - 1), "attempt"),
                        g.attempts,
                        g.derivation.seed
                    );
                }
                g.derivation
            })
        }
        (Some(host), None) => derive_from(grammar, host.clone(), seed),
        (None, None) => levelgraph::derive(grammar, seed),
    }
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

/// The tile map of a laid-out level: level.png, level.tmj and level-tileset.png.
fn level_tiles(
    graph: &Graph,
    problem: &levelgraph::layout::LayoutProblem,
    layout: &levelgraph::layout::Layout,
    loaded: &Loaded,
    report: Option<&PlayReport>,
    seed: u64,
) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    use levelgraph::formats::tilemap::TiledProperty;
    use levelgraph::tiles::raster::{rasterize, stored_items, RasterSettings};
    use levelgraph::tiles::TilesError;
    let grammar = &loaded.grammar;
    let mut items = stored_items(graph, problem);
    let mut settings = grammar
        .model()
        .rooms
        .as_ref()
        .map_or_else(RasterSettings::default, RasterSettings::for_rooms);
    // With play semantics the objects say what each key, lock, entrance and
    // goal is, instead of marking rooms by their tag's name.
    if let Some(report) = report {
        settings.objects.clear();
        items = levelgraph::play::tile_items(report, graph, problem, items);
    }
    let map = rasterize(problem, layout, &items, &settings, seed).map_err(|e| match &e {
        TilesError::Parameter {
            field: "scale",
            message,
        } => report_tile_scale(loaded, settings.scale, message),
        _ => tiles::report("tile map of the layout", &e),
    })?;
    let properties = vec![
        TiledProperty::string("grammar", grammar.name()),
        TiledProperty::string("seed", seed.to_string()),
    ];
    tiles::tile_files(
        &map,
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
fn level_cell_px(width: u32, height: u32) -> u32 {
    use levelgraph::formats::tilemap::MAX_IMAGE_SIDE;
    (MAX_IMAGE_SIDE / width.max(height).max(1)).clamp(1, 8)
}

fn check(path: &Path) -> Result<(), Failure> {
    let loaded = load_grammar(Some(path))?;
    let report = lint_report(&loaded.grammar);
    let findings = report.findings;
    diagnostics::print(&loaded.name, &loaded.text, &findings);
    if let Some(note) = report.sampling.and_then(|s| s.budget_note()) {
        eprintln!("note: {note}");
    }
    let errors = findings
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    if let (Some(p), Some(s)) = (report.playability, report.sampling) {
        output::say(format_args!(
            "{}: playability of {} sampled seeds: {}",
            loaded.name,
            s.sampled,
            p.summary()
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
