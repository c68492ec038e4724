//! `levelgraph analyze`: expressive-range analysis of a grammar (Smith &
//! Whitehead 2010) — every seed of a range derived once, in parallel,
//! measured, and written as `levels.csv`, `summary.json`, histograms and
//! heat maps (SVG and PNG) and `report.html`; shards of a run merged into
//! exactly what one run gives; two runs compared in one report.

pub(crate) mod plots;
mod report;
mod runinfo;

use std::cell::RefCell;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use levelgraph::expressive::{csv, Batch, Metric, Record, Seeds, Shard, Tally};
use levelgraph::pipeline::Config;

use crate::output::{self, OutFile};
use crate::{Failure, Loaded};
use report::Report;
use runinfo::{RunDir, RunInfo};

/// The command line of `analyze`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    /// Grammar file (`.lg` or `.json`); the built-in default grammar when
    /// absent.
    pub(crate) grammar: Option<PathBuf>,
    /// The seeds: `A..B` (A to B, both included) or `N` (1 to N).
    #[arg(long, default_value = "1..1000", value_parser = Seeds::parse)]
    pub(crate) seeds: Seeds,
    /// Run only slice K of N of the seeds (`--shard 2/8`), to spread a run
    /// over machines; `--merge` joins the slices' folders into what one run
    /// writes.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub(crate) shard: Option<Shard>,
    /// Also lay each level out as rooms (a grammar with a `rooms` block):
    /// bounding box, density, corridors, layout iterations.
    #[arg(long)]
    pub(crate) layout: bool,
    /// Also lay out and rasterize each level as a tile map: floor ratio,
    /// longest path (implies --layout).
    #[arg(long)]
    pub(crate) tiles: bool,
    /// Worker threads; default: one per core. The output is the same for
    /// any number.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: Option<u32>,
    /// Levels pictured in the report's contact sheet, spread evenly over
    /// the seeds (0 to 200).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(0..=200))]
    pub(crate) sample: u64,
    /// Vertices at most, instead of the grammar's `max_vertices`.
    #[arg(long, value_name = "N")]
    pub(crate) max_vertices: Option<u32>,
    /// Vertices at least, instead of the grammar's `min_vertices`.
    #[arg(long, value_name = "N")]
    pub(crate) min_vertices: Option<u32>,
    /// Derivation steps at most, instead of the grammar's `max_iterations`.
    #[arg(long, value_name = "N")]
    pub(crate) max_iterations: Option<u32>,
    /// Instead of running: merge the folders of a run's shards (each
    /// written with `--shard K/N`) into `--out`, exactly what one run
    /// writes.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["grammar", "shard", "compare"])]
    pub(crate) merge: Vec<PathBuf>,
    /// Instead of running: compare two finished runs (two grammars, or one
    /// grammar under two settings) in one report in `--out`: their metrics
    /// side by side and their histograms overlaid.
    #[arg(long, value_name = "DIR", num_args = 2, conflicts_with_all = ["grammar", "shard"])]
    pub(crate) compare: Vec<PathBuf>,
    /// Output folder, created if missing.
    #[arg(long, default_value = "range")]
    pub(crate) out: PathBuf,
}

pub(crate) fn run(options: &Options) -> Result<(), Failure> {
    if !options.merge.is_empty() {
        return merge(&options.merge, &options.out);
    }
    if !options.compare.is_empty() {
        return compare(&options.compare, &options.out);
    }
    analyze(options)
}

/// Set by Ctrl-C: the run stops after the chunks in the making and writes
/// nothing.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = Arc::clone(&flag);
    // A second handler cannot be installed (tests call `run` once per
    // process): the default, which ends the process, then stays, and the
    // staged files are temporary names only.
    let _ = ctrlc::set_handler(move || set.store(true, Ordering::SeqCst));
    flag
}

fn analyze(options: &Options) -> Result<(), Failure> {
    let started = Instant::now();
    let loaded = crate::load_grammar(options.grammar.as_deref())?;
    crate::reject_lint_errors(&loaded)?;
    let grammar = with_limits(&loaded, options)?;
    let mut config = Config::new();
    let tiles = options.tiles;
    let layout = options.layout || tiles;
    if layout {
        match grammar.model().rooms.as_ref() {
            None => eprintln!(
                "note: grammar `{}` has no `rooms` block; only its mission graphs are measured",
                grammar.name()
            ),
            Some(spec) => {
                let base = options.grammar.as_deref().unwrap_or(Path::new("grammar"));
                match crate::layout::load_room_sets(spec, base, &loaded.text) {
                    Ok(sets) => config = config.with_room_sets(sets),
                    Err(message) => {
                        eprintln!("error: {message}");
                        return Err(Failure::BadInput);
                    }
                }
            }
        }
    }
    let threads = options.threads.map_or(0, |n| n as usize);
    let batch = Batch::new(&grammar, config, layout, tiles)
        .with_threads(threads)
        .map_err(|e| {
            eprintln!("error: cannot start the worker threads: {e}");
            Failure::BadInput
        })?;
    let columns = batch.columns();
    let slice = match options.shard {
        Some(shard) => options.seeds.shard(shard),
        None => Some(options.seeds),
    };
    let info = RunInfo {
        format: runinfo::FORMAT.to_owned(),
        grammar: grammar.name().to_owned(),
        grammar_hash: runinfo::fingerprint(&loaded.text),
        seeds: options.seeds,
        shard: options.shard,
        slice,
        stages: batch
            .stages()
            .iter()
            .map(|&s| runinfo::stage_name(s).to_owned())
            .collect(),
        limits: limit_words(options),
        sample: runinfo::sample(options.seeds, options.sample),
    };
    let interrupted = interrupt_flag();
    let tally = RefCell::new(Tally::new());
    let pictures = RefCell::new(Vec::new());
    let charts = report::Charts::new();
    let laid_out = batch.stages().len() > 1;
    let total = slice.map_or(0, |s| s.len());
    let bar = progress_bar(total);
    let run_seeds = |w: &mut dyn Write| -> io::Result<()> {
        writeln!(w, "{}", csv::header(&columns))?;
        let Some(slice) = slice else { return Ok(()) };
        let mut failed = None;
        let mut sampled = Vec::new();
        {
            batch.run(slice, |records: &[Record]| {
                for r in records {
                    tally.borrow_mut().add(r);
                    if info.sample.binary_search(&r.seed).is_ok() {
                        sampled.push(r.clone());
                    }
                    if let Err(e) = w.write_all(csv::row(r, &columns).as_bytes()) {
                        failed = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                if let Some(bar) = &bar {
                    bar.inc(records.len() as u64);
                }
                if interrupted.load(Ordering::SeqCst) {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if interrupted.load(Ordering::SeqCst) {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted (Ctrl-C)",
            ));
        }
        // The sample's pictures, drawn now that the run is done.
        *pictures.borrow_mut() =
            batch.install(|| report::draw_sample(&batch, &grammar, &sampled, laid_out));
        Ok(())
    };
    let mut files = vec![
        OutFile::streamed("levels.csv", run_seeds),
        OutFile::bytes("run.json", run_json(&info)),
    ];
    let report = Report::single(&info, &columns);
    files.push(OutFile::streamed("summary.json", |w| {
        let summary = tally.borrow().summary(&columns);
        serde_json::to_writer_pretty(&mut *w, &summary)?;
        writeln!(w)
    }));
    files.extend(report.files(&tally, &pictures, &charts));
    let written = output::write_all(&options.out, files);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Err(e) = written {
        if e.kind() == io::ErrorKind::Interrupted {
            eprintln!("interrupted: nothing written to {}", options.out.display());
            std::process::exit(130);
        }
        eprintln!("error: cannot write to {}: {e}", options.out.display());
        return Err(Failure::BadInput);
    }
    let tally = tally.into_inner();
    say_done(&info.grammar, &tally, total, started, &options.out)
}

/// The one-line summary on standard output.
fn say_done(
    grammar: &str,
    tally: &Tally,
    seeds: u64,
    started: Instant,
    out: &Path,
) -> Result<(), Failure> {
    use levelgraph::expressive::Status;
    let elapsed = started.elapsed();
    let rate = seeds as f64 / elapsed.as_secs_f64().max(1e-9);
    let checked = tally.seeds() - tally.count(Status::Unchecked) - tally.count(Status::Failed);
    let completable = if checked > 0 {
        format!(", {} completable", tally.count(Status::Completable))
    } else {
        String::new()
    };
    output::say(format_args!(
        "{grammar}: {}, {} derived{completable}, {} distinct, in {} ({rate:.0} levels/s) -> {}",
        output::counted(seeds, "seed"),
        seeds - tally.count(Status::Failed),
        tally.distinct_levels(),
        output::duration(elapsed),
        out.display()
    ))
}

/// The grammar with the command line's limits, compiled once (the
/// pipeline would compile it again for every level).
fn with_limits(
    loaded: &Loaded,
    options: &Options,
) -> Result<levelgraph::grammar::CompiledGrammar, Failure> {
    let grammar = &loaded.grammar;
    if options.max_vertices.is_none()
        && options.min_vertices.is_none()
        && options.max_iterations.is_none()
    {
        return Ok(grammar.clone());
    }
    let mut model = grammar.model().clone();
    if let Some(n) = options.max_vertices {
        model.limits.max_vertices = n;
    }
    if let Some(n) = options.min_vertices {
        model.limits.min_vertices = n;
    }
    if let Some(n) = options.max_iterations {
        model.limits.max_iterations = n;
    }
    levelgraph::grammar::compile(&model).map_err(|diagnostics| {
        for d in &diagnostics {
            eprintln!(
                "error: the limits given do not fit the grammar: {}",
                d.message
            );
        }
        Failure::BadInput
    })
}

/// The limits given on the command line, for `run.json`.
fn limit_words(options: &Options) -> Vec<String> {
    [
        ("max_vertices", options.max_vertices),
        ("min_vertices", options.min_vertices),
        ("max_iterations", options.max_iterations),
    ]
    .into_iter()
    .filter_map(|(name, v)| Some(format!("{name} {}", v?)))
    .collect()
}

fn run_json(info: &RunInfo) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(info).expect("run.json serializes");
    bytes.push(b'\n');
    bytes
}

/// A progress bar on standard error when it is a terminal.
fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} levels, {elapsed} so far, {eta} left",
        )
        .expect("the template is valid"),
    );
    Some(bar)
}

/// Every folder's run, or the first error printed.
fn read_runs(dirs: &[PathBuf]) -> Result<Vec<RunDir>, Failure> {
    dirs.iter()
        .map(|dir| {
            runinfo::read_run(dir).map_err(|message| {
                eprintln!("error: {message}");
                Failure::BadInput
            })
        })
        .collect()
}

/// `--merge`: the shards' folders into one run's.
fn merge(dirs: &[PathBuf], out: &Path) -> Result<(), Failure> {
    let runs = read_runs(dirs)?;
    // Each shard holds the pictures of the sampled seeds of its slice.
    let mut pictures = Vec::new();
    for (dir, run) in dirs.iter().zip(&runs) {
        let laid_out = run.info.stages.len() > 1;
        let found = report::read_sample_pictures(dir, &run.info.sample, &run.records, laid_out);
        pictures.extend(found.map_err(|message| {
            eprintln!("error: {message}");
            Failure::BadInput
        })?);
    }
    let (info, columns, records) = join_shards(dirs, runs).map_err(|message| {
        eprintln!("error: {message}");
        Failure::BadInput
    })?;
    let mut tally = Tally::new();
    for r in &records {
        tally.add(r);
    }
    pictures.sort_by_key(|p| p.seed);
    let tally = RefCell::new(tally);
    let pictures = RefCell::new(pictures);
    let charts = report::Charts::new();
    let mut files = vec![
        OutFile::streamed("levels.csv", |w| {
            writeln!(w, "{}", csv::header(&columns))?;
            for r in &records {
                w.write_all(csv::row(r, &columns).as_bytes())?;
            }
            Ok(())
        }),
        OutFile::bytes("run.json", run_json(&info)),
        OutFile::streamed("summary.json", |w| {
            serde_json::to_writer_pretty(&mut *w, &tally.borrow().summary(&columns))?;
            writeln!(w)
        }),
    ];
    let report = Report::single(&info, &columns);
    files.extend(report.files(&tally, &pictures, &charts));
    output::write_all(out, files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", out.display());
        Failure::BadInput
    })?;
    output::say(format_args!(
        "{}: {} shards merged, {} -> {}",
        info.grammar,
        dirs.len(),
        output::counted(records.len() as u64, "seed"),
        out.display()
    ))
}

/// Checks that `runs` are every shard of one run, once each, and joins
/// their records in seed order.
fn join_shards(
    dirs: &[PathBuf],
    runs: Vec<RunDir>,
) -> Result<(RunInfo, Vec<Metric>, Vec<Record>), String> {
    let first = &runs[0];
    let Some(count) = first.info.shard.map(|s| s.count) else {
        return Err(format!(
            "{} is not a shard (it was run without --shard K/N)",
            dirs[0].display()
        ));
    };
    let mut seen = vec![None; count as usize];
    for (dir, run) in dirs.iter().zip(&runs) {
        let same = RunInfo {
            shard: first.info.shard,
            slice: first.info.slice,
            ..run.info.clone()
        };
        if same != first.info || run.columns != first.columns {
            return Err(format!(
                "{} and {} are not shards of one run (grammar, seeds, stages, limits or sample differ)",
                dirs[0].display(),
                dir.display()
            ));
        }
        let Some(shard) = run.info.shard.filter(|s| s.count == count) else {
            return Err(format!("{} is not a shard of {count}", dir.display()));
        };
        let slot = &mut seen[(shard.index - 1) as usize];
        if let Some(other) = slot.replace(dir) {
            return Err(format!(
                "{} and {} are both shard {}/{count}",
                other.display(),
                dir.display(),
                shard.index
            ));
        }
        let expected = first.info.seeds.shard(shard);
        if run.info.slice != expected || run.records.len() as u64 != expected.map_or(0, |s| s.len())
        {
            return Err(format!(
                "{}: shard {}/{count} should hold {} rows, it holds {} (an interrupted or edited run?)",
                dir.display(),
                shard.index,
                expected.map_or(0, |s| s.len()),
                run.records.len()
            ));
        }
    }
    if let Some(missing) = seen.iter().position(Option::is_none) {
        return Err(format!("shard {}/{count} is missing", missing + 1));
    }
    let info = RunInfo {
        shard: None,
        slice: Some(first.info.seeds),
        ..first.info.clone()
    };
    let columns = first.columns.clone();
    let mut records: Vec<Record> = runs.into_iter().flat_map(|r| r.records).collect();
    records.sort_by_key(|r| r.seed);
    Ok((info, columns, records))
}

/// `--compare`: two runs in one report.
fn compare(dirs: &[PathBuf], out: &Path) -> Result<(), Failure> {
    let runs = read_runs(dirs)?;
    let names: Vec<String> = dirs
        .iter()
        .zip(&runs)
        .map(|(dir, run)| {
            let folder = dir.file_name().map_or_else(
                || dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            format!("{} ({folder})", run.info.grammar)
        })
        .collect();
    let mut sides = Vec::new();
    for (dir, run) in dirs.iter().zip(runs) {
        let mut tally = Tally::new();
        for r in &run.records {
            tally.add(r);
        }
        let laid_out = run.info.stages.len() > 1;
        let pictures = report::read_sample_pictures(dir, &run.info.sample, &run.records, laid_out);
        let pictures = pictures.map_err(|message| {
            eprintln!("error: {message}");
            Failure::BadInput
        })?;
        sides.push((run.info, run.columns, tally, pictures));
    }
    let files = report::comparison_files(&names, &sides);
    output::write_all(out, files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", out.display());
        Failure::BadInput
    })?;
    output::say(format_args!(
        "compared {} and {} -> {}",
        names[0],
        names[1],
        out.join("report.html").display()
    ))
}
