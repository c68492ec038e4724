//! `levelgraph place`: the `place` block's content on one level —
//! diverse placements by SAT, and what can and cannot be where
//! (possible / impossible / necessary per content and place), as a table
//! and as pictures; or, over many seeds, where each statement's content
//! could ever be.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use levelgraph::diagnostic::{Diagnostic, Location, Severity};
use levelgraph::drawing::{draw, ForceConfig};
use levelgraph::formats::{write_layout_svg_shaded, write_svg_shaded, Shading};
use levelgraph::grammar::CompiledGrammar;
use levelgraph::layout::edgar::RoomSets;
use levelgraph::layout::{Layout, LayoutProblem, LayoutSettings, Prepared};
use levelgraph::place::{analyze, Analysis, PlaceError, Placement, Placer, Problem, Status};
use levelgraph::rooms::level_problem;
use levelgraph::Graph;
use serde_json::json;

use crate::output::{self, OutFile};
use crate::{diagnostics, Failure, Loaded};

/// The command line of `place`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// Grammar file with `play` and `place` blocks (`.lg` or `.json`).
    pub(crate) grammar: PathBuf,
    /// The level: a mission graph (`.json`, e.g. from `generate`);
    /// default: the level the grammar derives with `--seed`.
    #[arg(long, value_name = "FILE")]
    pub(crate) mission: Option<PathBuf>,
    /// Seed of the derivation and of the placements' random choices.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::parse_seed)]
    pub(crate) seed: u64,
    /// How many different placements to write (1 to 10000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(crate) placements: u32,
    /// Instead of one level: the levels of seeds 1..=N, each analysed:
    /// per content and number of locks before a room, in how many levels
    /// the content can be (and must be) there (aggregate.csv; keys by
    /// their lock's depth, `key of lock #2`), and per room tag how many
    /// rooms lie behind how many locks (rooms.csv). 1 to 10000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(crate) levels: Option<u32>,
    /// Output folder, created if missing.
    #[arg(long, default_value = "out")]
    pub(crate) out: PathBuf,
}

/// Ring colours of the analysis pictures.
const NECESSARY: &str = "#1b5e20";
const POSSIBLE: &str = "#81c784";
const IMPOSSIBLE: &str = "#e0e0e0";

pub(crate) fn run(options: &Options) -> Result<(), Failure> {
    let started = Instant::now();
    let loaded = crate::load_grammar(Some(&options.grammar))?;
    crate::reject_lint_errors(&loaded)?;
    let grammar = &loaded.grammar;
    let (Some(play), Some(_)) = (grammar.play(), grammar.place()) else {
        eprintln!(
            "error: {}: grammar `{}` has no {} block",
            options.grammar.display(),
            grammar.name(),
            if grammar.play().is_none() {
                "`play`"
            } else {
                "`place`"
            }
        );
        eprintln!("  hint: a `place` block lists the content to place, and needs a `play` block (docs/grammar-language.md, section 20)");
        return Err(Failure::BadInput);
    };
    if let Some(n) = options.levels {
        return aggregate(&loaded, n, &options.out, started);
    }
    let graph = level_graph(grammar, options)?;
    let problem = Problem::new(&graph, play, grammar.place().expect("checked")).map_err(|e| {
        report(&loaded, &e, options.seed);
        failure(&e)
    })?;
    let mut placer = Placer::new(&problem, options.seed);
    let placements = placer
        .placements(options.placements as usize)
        .map_err(|e| {
            report(&loaded, &e, options.seed);
            failure(&e)
        })?;
    let analysis = analyze(&problem).map_err(|e| {
        report(&loaded, &e, options.seed);
        failure(&e)
    })?;
    let mut files = vec![
        OutFile::bytes("placements.json", placements_json(&problem, &placements)),
        OutFile::bytes("analysis.json", analysis_json(&problem, &analysis)),
        OutFile::bytes("analysis.csv", analysis_csv(&problem, &analysis)),
    ];
    let positions = draw(&problem.graph, &ForceConfig::for_picture(options.seed)).positions;
    let alphabet = grammar.alphabet();
    for (c, content) in problem.contents.iter().enumerate() {
        let shading = shading(&problem, &analysis, c);
        let title = format!("{}: where {} can be", grammar.name(), content.name);
        let mut svg = Vec::new();
        write_svg_shaded(
            &mut svg,
            &problem.graph,
            &positions,
            &alphabet,
            &title,
            &[],
            &shading,
        )
        .expect("writing to memory");
        files.push(OutFile::bytes(
            format!("analysis-{}.svg", slug(&content.name)),
            svg,
        ));
    }
    if let Some((rooms, laid)) = layout_of(grammar, &problem.graph, options.seed) {
        for (c, content) in problem.contents.iter().enumerate() {
            let outlines = room_outlines(&problem, &analysis, c, &rooms);
            let title = format!(
                "{}: where {} can be (outline: dark green necessary, light green possible, grey impossible)",
                grammar.name(),
                content.name
            );
            let mut svg = Vec::new();
            write_layout_svg_shaded(&mut svg, &rooms, &laid, &alphabet, &title, &outlines)
                .expect("writing to memory");
            files.push(OutFile::bytes(
                format!("analysis-{}-layout.svg", slug(&content.name)),
                svg,
            ));
        }
    }
    output::write_all(&options.out, files).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", options.out.display());
        Failure::BadInput
    })?;
    let count = |s: Status| {
        problem
            .contents
            .iter()
            .enumerate()
            .flat_map(|(c, content)| content.candidates.iter().map(move |&p| (c, p)))
            .filter(|&(c, p)| analysis.status[c][p as usize] == s)
            .count()
    };
    output::say(format_args!(
        "{}: {} on {} places: {} ({} solver calls); {} possible, {} necessary, {} impossible pairs in {} solver calls (the naive way: {}), in {} -> {}",
        grammar.name(),
        output::counted(problem.contents.len() as u64, "content"),
        problem.place_count(),
        output::counted(placements.len() as u64, "placement"),
        placer.solver_calls(),
        count(Status::Possible),
        count(Status::Necessary),
        count(Status::Impossible),
        analysis.solver_calls,
        analysis.naive_calls,
        output::duration(started.elapsed()),
        options.out.display()
    ))
}

/// The level: the mission file, or the grammar's derivation of `--seed`.
fn level_graph(grammar: &CompiledGrammar, options: &Options) -> Result<Graph, Failure> {
    match &options.mission {
        Some(path) => crate::load_host(path, grammar),
        None => levelgraph::derive::derive(grammar, options.seed)
            .map(|d| d.graph)
            .map_err(|e| {
                eprintln!("error: the derivation of seed {} failed: {e}", options.seed);
                Failure::Derivation
            }),
    }
}

/// Exit 1 when no placement exists, 2 when the level is outside what
/// placement decides.
fn failure(e: &PlaceError) -> Failure {
    match e {
        PlaceError::NoPlacement { .. } => Failure::Derivation,
        _ => Failure::BadInput,
    }
}

/// The error, with each conflicting rule shown at its line in the grammar.
pub(crate) fn report(loaded: &Loaded, e: &PlaceError, seed: u64) {
    match e {
        PlaceError::NoPlacement { rules } => {
            eprintln!(
                "error: no placement of grammar `{}`'s content fits the level of seed {seed}: {}",
                loaded.grammar.name(),
                if rules.len() == 1 {
                    "this constraint cannot hold"
                } else {
                    "these constraints conflict (drop or loosen one)"
                }
            );
            let notes: Vec<Diagnostic> = rules
                .iter()
                .filter_map(|r| {
                    Some(Diagnostic {
                        severity: Severity::Error,
                        message: r.name.clone(),
                        location: Location::Span(r.span?),
                        hint: None,
                    })
                })
                .collect();
            for r in rules.iter().filter(|r| r.span.is_none()) {
                eprintln!("  - {}", r.name);
            }
            diagnostics::print(&loaded.name, &loaded.text, &notes);
        }
        other => eprintln!("error: cannot place content on this level: {other}"),
    }
}

/// The level laid out with the grammar's `rooms` block (seed `seed`),
/// when it has one that needs no room-set files and the layout succeeds;
/// a note on stderr otherwise.
fn layout_of(
    grammar: &CompiledGrammar,
    graph: &Graph,
    seed: u64,
) -> Option<(LayoutProblem, Layout)> {
    let spec = grammar.model().rooms.as_ref()?;
    if !spec.load.is_empty() {
        eprintln!("note: the layout pictures are not drawn: the `rooms` block loads room sets (lay the level out with `levelgraph layout`)");
        return None;
    }
    let settings = LayoutSettings::default();
    let laid = level_problem(graph, spec, &RoomSets::new())
        .map_err(|e| e.to_string())
        .and_then(|problem| {
            let prepared = Prepared::within(&problem, &settings).map_err(|e| e.to_string())?;
            let (layout, _) = prepared.run(seed, &settings).map_err(|e| e.to_string())?;
            Ok((problem, layout))
        });
    match laid {
        Ok(done) => Some(done),
        Err(why) => {
            eprintln!("note: the layout pictures are not drawn: {why}");
            None
        }
    }
}

/// The layout rooms' outlines, coloured as the mission picture's rings.
fn room_outlines(
    problem: &Problem,
    analysis: &Analysis,
    c: usize,
    rooms: &LayoutProblem,
) -> Vec<(usize, String)> {
    (0..problem.place_count() as u32)
        .filter_map(|p| {
            let name = problem.place_vertex(p).0.to_string();
            let r = rooms.rooms.iter().position(|room| room.name == name)?;
            Some((r, colour(analysis.status[c][p as usize]).to_owned()))
        })
        .collect()
}

fn colour(status: Status) -> &'static str {
    match status {
        Status::Necessary => NECESSARY,
        Status::Possible => POSSIBLE,
        Status::Impossible => IMPOSSIBLE,
    }
}

/// Rings per place: dark for necessary, light for possible, grey for
/// impossible.
fn shading(problem: &Problem, analysis: &Analysis, c: usize) -> Shading {
    let rings = (0..problem.place_count() as u32)
        .map(|p| {
            (
                problem.place_vertex(p),
                colour(analysis.status[c][p as usize]).to_owned(),
            )
        })
        .collect();
    Shading {
        rings,
        legend: Some((
            format!("Where {} can be", problem.contents[c].name),
            vec![
                (NECESSARY.into(), "necessary: in every placement".into()),
                (POSSIBLE.into(), "possible: in some placements".into()),
                (IMPOSSIBLE.into(), "impossible: in none".into()),
            ],
        )),
    }
}

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn contents_json(problem: &Problem) -> Vec<serde_json::Value> {
    problem
        .contents
        .iter()
        .map(|c| json!({"name": c.name, "tag": c.tag, "count": [c.count.0, c.count.1]}))
        .collect()
}

fn placements_json(problem: &Problem, placements: &[Placement]) -> String {
    let list: Vec<serde_json::Value> = placements
        .iter()
        .map(|p| {
            let per: Vec<Vec<u32>> =
                p.at.iter()
                    .map(|at| at.iter().map(|&q| problem.place_vertex(q).0).collect())
                    .collect();
            json!(per)
        })
        .collect();
    let doc = json!({"contents": contents_json(problem), "placements": list});
    serde_json::to_string_pretty(&doc).expect("plain JSON") + "\n"
}

fn analysis_json(problem: &Problem, analysis: &Analysis) -> String {
    let contents: Vec<serde_json::Value> = problem
        .contents
        .iter()
        .enumerate()
        .map(|(c, content)| {
            let rooms: Vec<serde_json::Value> = (0..problem.place_count() as u32)
                .map(|p| {
                    let v = problem.place_vertex(p);
                    json!({"room": v.0, "tag": problem.graph.tag_name(v), "status": analysis.status[c][p as usize].word()})
                })
                .collect();
            json!({"name": content.name, "tag": content.tag, "rooms": rooms})
        })
        .collect();
    let doc = json!({
        "contents": contents,
        "solver_calls": analysis.solver_calls,
        "naive_calls": analysis.naive_calls,
    });
    serde_json::to_string_pretty(&doc).expect("plain JSON") + "\n"
}

fn analysis_csv(problem: &Problem, analysis: &Analysis) -> String {
    let mut out = String::from("content,room,room_tag,status\n");
    for (c, content) in problem.contents.iter().enumerate() {
        for p in 0..problem.place_count() as u32 {
            let v = problem.place_vertex(p);
            let _ = writeln!(
                out,
                "{},{},{},{}",
                content.name,
                v.0,
                problem.graph.tag_name(v),
                analysis.status[c][p as usize].word()
            );
        }
    }
    out
}

/// Seeds 1..=n: per content and number of locks before a place, in how
/// many levels the content can be (and must be) in such a place
/// (aggregate.csv), and per room tag how many rooms lie behind how many
/// locks (rooms.csv). Keys are grouped by their lock's own depth: `key of
/// lock #2` is the key of a lock behind one other.
fn aggregate(loaded: &Loaded, n: u32, out: &Path, started: Instant) -> Result<(), Failure> {
    use std::collections::BTreeMap;
    let grammar = &loaded.grammar;
    let play = grammar.play().expect("checked");
    let spec = grammar.place().expect("checked");
    // (content group, locks before) -> (levels with such a candidate place, possible, necessary)
    let mut table: BTreeMap<(String, u32), [u32; 3]> = BTreeMap::new();
    // (room tag, locks before) -> (levels, rooms)
    let mut rooms: BTreeMap<(String, u32), [u32; 2]> = BTreeMap::new();
    let (mut analysed, mut no_placement, mut unsupported, mut not_derived) =
        (0u32, 0u32, 0u32, 0u32);
    // Canonical forms of the analysed levels: how many differ.
    let mut distinct = std::collections::BTreeSet::new();
    for seed in 1..=u64::from(n) {
        let Ok(d) = levelgraph::derive::derive(grammar, seed) else {
            not_derived += 1;
            continue;
        };
        let Ok(problem) = Problem::new(&d.graph, play, spec) else {
            unsupported += 1;
            continue;
        };
        let Ok(analysis) = analyze(&problem) else {
            no_placement += 1;
            continue;
        };
        analysed += 1;
        let (coloured, _) = levelgraph::canon::of_graph(&d.graph);
        if let Ok(c) = levelgraph::canon::canonical(&coloured, &Default::default()) {
            distinct.insert(c.form);
        }
        let depth = problem
            .locks_before()
            .unwrap_or_else(|| vec![0; problem.place_count()]);
        let mut level_rooms: BTreeMap<(String, u32), u32> = BTreeMap::new();
        for (p, &d) in depth.iter().enumerate() {
            let tag = problem
                .graph
                .tag_name(problem.place_vertex(p as u32))
                .to_owned();
            *level_rooms.entry((tag, d)).or_default() += 1;
        }
        for (k, count) in level_rooms {
            let e = rooms.entry(k).or_default();
            e[0] += 1;
            e[1] += count;
        }
        let mut seen: BTreeMap<(String, u32), [bool; 3]> = BTreeMap::new();
        for (c, content) in problem.contents.iter().enumerate() {
            let group = match &content.kind {
                levelgraph::place::ContentKind::Key { opens } => {
                    let own = opens
                        .iter()
                        .map(|&l| problem.lock_depth(l, &depth))
                        .min()
                        .unwrap_or(0);
                    format!("key of lock #{own}")
                }
                _ => content.name.clone(),
            };
            for &p in &content.candidates {
                let e = seen.entry((group.clone(), depth[p as usize])).or_default();
                e[0] = true;
                match analysis.status[c][p as usize] {
                    Status::Possible => e[1] = true,
                    Status::Necessary => (e[1], e[2]) = (true, true),
                    Status::Impossible => {}
                }
            }
        }
        for (k, flags) in seen {
            let e = table.entry(k).or_default();
            for i in 0..3 {
                e[i] += u32::from(flags[i]);
            }
        }
    }
    let depth_word = |d: u32| {
        if d == levelgraph::place::UNREACHABLE {
            "never".to_owned()
        } else {
            d.to_string()
        }
    };
    let mut csv = String::from("content,locks_before,levels,levels_possible,levels_necessary\n");
    for ((group, d), [levels, possible, necessary]) in &table {
        let _ = writeln!(
            csv,
            "{group},{},{levels},{possible},{necessary}",
            depth_word(*d)
        );
    }
    let mut rooms_csv = String::from("room_tag,locks_before,levels,rooms\n");
    for ((tag, d), [levels, count]) in &rooms {
        let _ = writeln!(rooms_csv, "{tag},{},{levels},{count}", depth_word(*d));
    }
    output::write_all(
        out,
        vec![
            OutFile::bytes("aggregate.csv", csv),
            OutFile::bytes("rooms.csv", rooms_csv),
        ],
    )
    .map_err(|e| {
        eprintln!("error: cannot write {}: {e}", out.display());
        Failure::BadInput
    })?;
    output::say(format_args!(
        "{}: {} analysed of seeds 1..={n}, {} distinct ({} without a placement, {} outside what placement decides, {} not derived), in {} -> {}",
        grammar.name(),
        output::counted(u64::from(analysed), "level"),
        distinct.len(),
        no_placement,
        unsupported,
        not_derived,
        output::duration(started.elapsed()),
        out.display()
    ))
}
