//! levelgraph's canonical forms and automorphism groups (`canon`) side by
//! side with nauty, in one run: the same graphs to both, the isomorphism
//! classes and every group order compared, the time per graph measured.
//!
//! ```sh
//! cargo run --release --manifest-path bench/canon/Cargo.toml -- run     # everything (minutes)
//! cargo run --release --manifest-path bench/canon/Cargo.toml -- quick   # a smoke run (seconds)
//! ```
//!
//! Options: `--seed N` (graphs and shuffles, default 1), `--only TEXT`
//! (families whose name contains TEXT), `--nauty-prefix P` (default
//! `nauty-`: `P` + `geng`, `labelg`, …), `--dreadnaut PATH` (default
//! `dreadnaut`), `--examples DIR` (default the repository's `examples/`),
//! `--work DIR` (scratch files, default a directory under the system's
//! temporary directory), `--detail` (one line per graph to stderr: n,
//! arcs, our CPU µs and search nodes, nauty's nodes, the group order),
//! `--dump DIR` (write every graph whose search hit its limit, or on which
//! the two sides disagree, to DIR as a dreadnaut script, and as graph6
//! when it is plain), `--copies K` (K shuffled copies of every graph
//! instead of one: a stress test of the search's dependence on the vertex
//! order).
//!
//! Every graph of a family is given to both sides twice: as generated
//! and with its vertices renamed by a random permutation (and its edges
//! listed in a random order). Asserted per family, and reported in the
//! table: the partition of the family's graphs into isomorphism classes by
//! our canonical form equals nauty's (dreadnaut's canonical labelling;
//! also `labelg`'s canonical graph6 for the plain families), every shuffled
//! copy has its original's form, and every group order equals nauty's.
//! A disagreement is printed with a reproducer (the graph in dreadnaut's
//! input format) and makes the run fail.
//!
//! `stress` runs our side only on `--copies K` shuffled copies of every
//! graph of the `--only` families and reports the search nodes (and the
//! copies that hit the limit, written to `--dump DIR`); `file G6` runs our
//! search on every graph of a graph6 file (the reproducers in `repro/`).
//!
//! Progress goes to stderr, the Markdown table to stdout.

mod families;
mod graph;
mod levels;
mod nauty;
mod ours;

use std::collections::HashMap;
use std::hash::Hash;
use std::path::PathBuf;
use std::process::ExitCode;

use levelgraph::rng::Rng;

use families::{Family, Size};
use graph::Input;

const USAGE: &str = "usage: levelgraph-canon-bench [run|quick|stress|file G6] [--seed N] [--only TEXT] \
[--nauty-prefix P] [--dreadnaut PATH] [--examples DIR] [--work DIR] [--detail] [--dump DIR] [--copies K]";

struct Options {
    size: Size,
    seed: u64,
    only: Option<String>,
    prefix: String,
    dreadnaut: String,
    examples: PathBuf,
    work: PathBuf,
    detail: bool,
    dump: Option<PathBuf>,
    copies: usize,
    stress: bool,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        size: Size::Full,
        seed: 1,
        only: None,
        prefix: "nauty-".into(),
        dreadnaut: "dreadnaut".into(),
        examples: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples")),
        work: std::env::temp_dir().join(format!("canon-bench-{}", std::process::id())),
        detail: false,
        dump: None,
        copies: 1,
        stress: false,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "run" => o.size = Size::Full,
            "quick" => o.size = Size::Quick,
            "stress" => o.stress = true,
            "file" => o.files.push(PathBuf::from(value()?)),
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--only" => o.only = Some(value()?),
            "--nauty-prefix" => o.prefix = value()?,
            "--dreadnaut" => o.dreadnaut = value()?,
            "--examples" => o.examples = PathBuf::from(value()?),
            "--work" => o.work = PathBuf::from(value()?),
            "--detail" => o.detail = true,
            "--copies" => o.copies = value()?.parse().map_err(|e| format!("--copies: {e}"))?,
            "--dump" => o.dump = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(String::new()),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

/// CPU seconds of this process (user + system).
fn cpu_now() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Each index mapped to the first index with the same key: two partitions
/// of the same indices are equal exactly when these vectors are.
fn classes<K: Hash + Eq>(keys: impl IntoIterator<Item = Option<K>>) -> Vec<Option<usize>> {
    let mut first: HashMap<K, usize> = HashMap::new();
    keys.into_iter()
        .enumerate()
        .map(|(i, k)| k.map(|k| *first.entry(k).or_insert(i)))
        .collect()
}

fn count_classes(c: &[Option<usize>]) -> usize {
    c.iter().enumerate().filter(|&(i, k)| *k == Some(i)).count()
}

/// Whether nauty's group order (as printed) is ours.
fn orders_agree(ours: ours::GroupOrder, nauty: &str) -> bool {
    let (m, e, exact) = nauty::parse_grpsize(nauty);
    let (log_ours, exact_ours) = ours::order_parts(ours);
    if let (Some(a), Some(b)) = (exact, exact_ours) {
        return a == b;
    }
    let log_nauty = m.log10() + e as f64;
    (log_ours - log_nauty).abs() <= 1e-9 * log_nauty.abs().max(1.0)
}

/// One row of the table.
struct Row {
    name: String,
    graphs: usize,
    n_min: usize,
    n_max: usize,
    ours_us: f64,
    nauty_net_us: f64,
    nauty_whole_us: f64,
    nauty_own_us: f64,
    labelg_us: Option<f64>,
    mode: &'static str,
    orders: (usize, usize),
    ours_classes: usize,
    nauty_classes: usize,
    labelg_classes: Option<usize>,
    partitions_equal: bool,
    shuffles_equal: (usize, usize),
    limits: usize,
    /// Level families: the levels through `canon::of_graph` (classes,
    /// whether its partition of the levels is the bench's, µs per level
    /// for `of_graph` and the search).
    of_graph: Option<(usize, bool, f64)>,
}

/// A failure to report: what differs and a reproducer.
struct Disagreement {
    family: String,
    what: String,
    reproducer: String,
}

fn dreadnaut_reproducer(g: &Input) -> String {
    let e = nauty::encode(g);
    nauty::script(std::slice::from_ref(&e), false, nauty::Run::CanonPrint)
}

/// Run one family: both sides over the graphs and their shuffled copies.
fn run_family(
    o: &Options,
    name: &str,
    base: Vec<Input>,
    levels: &[levelgraph::Graph],
    rng: &mut Rng,
    bad: &mut Vec<Disagreement>,
) -> Row {
    let mut all = base.clone();
    for _ in 0..o.copies {
        all.extend(base.iter().map(|g| g.shuffled(rng)));
    }
    let count = all.len();
    let b = base.len();
    eprintln!("{name}: {count} graphs");

    // Ours: build untimed, then time the searches: the fastest of
    // `nauty::ROUNDS` rounds, as for nauty's runs.
    let built: Vec<_> = all.iter().map(ours::build).collect();
    let limits = ours::limits();
    let mut answers = Vec::with_capacity(count);
    let t0 = cpu_now();
    for g in &built {
        answers.push(ours::canonical(g, &limits));
    }
    let mut ours_s = cpu_now() - t0;
    for _ in 1..nauty::ROUNDS {
        let t = cpu_now();
        for g in &built {
            std::hint::black_box(ours::canonical(std::hint::black_box(g), &limits));
        }
        ours_s = ours_s.min(cpu_now() - t);
    }
    let limit_hits = answers.iter().filter(|a| a.is_none()).count();

    // nauty: dreadnaut on the gadget encoding.
    let encoded: Vec<_> = all.iter().map(nauty::encode).collect();
    let (vertices, edges) = encoded.iter().fold((0f64, 0f64), |(v, e), x| {
        (v + x.n as f64, e + x.edges as f64)
    });
    let mean_n = vertices / count as f64;
    // Sparse nauty when the mean degree is below an eighth of the order.
    let sparse = 2.0 * edges / vertices < mean_n / 8.0;
    let file = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(24)
        .collect::<String>();
    let dn = nauty::dreadnaut(&o.work, &file, &encoded, sparse, &o.dreadnaut);
    let nauty_keys = classes(
        encoded
            .iter()
            .zip(&dn.answers)
            .map(|(e, a)| Some(nauty::canonical_key(e, &a.labelling))),
    );
    let ours_keys = classes(answers.iter().map(|a| a.as_ref().map(|a| a.form.clone())));

    // labelg on the plain families.
    let lg = if all.iter().all(Input::is_plain) {
        let refs: Vec<&Input> = all.iter().collect();
        Some(nauty::labelg(&o.work, &file, &refs, sparse, &o.prefix))
    } else {
        None
    };
    let labelg_keys = lg
        .as_ref()
        .map(|l| classes(l.canonical.iter().map(|s| Some(s.clone()))));

    // Agreement.
    let mut orders = (0, 0);
    for (i, (a, d)) in answers.iter().zip(&dn.answers).enumerate() {
        let Some(a) = a else { continue };
        orders.1 += 1;
        if orders_agree(a.order, &d.grpsize) {
            orders.0 += 1;
        } else if bad.len() < 20 {
            bad.push(Disagreement {
                family: name.into(),
                what: format!(
                    "graph {i} (n = {}): group order {} (ours) vs {} (nauty)",
                    all[i].n(),
                    a.order,
                    d.grpsize
                ),
                reproducer: dreadnaut_reproducer(&all[i]),
            });
        }
    }
    let mut shuffles = (0, 0);
    for j in b..count {
        let i = j % b;
        if let (Some(x), Some(y)) = (&answers[i], &answers[j]) {
            shuffles.1 += 1;
            if x.form == y.form {
                shuffles.0 += 1;
            } else if bad.len() < 20 {
                bad.push(Disagreement {
                    family: name.into(),
                    what: format!(
                        "graph {i} (n = {}) and its shuffled copy {}: different forms",
                        all[i].n(),
                        j
                    ),
                    reproducer: dreadnaut_reproducer(&all[i]),
                });
            }
        }
    }
    // Partitions, over the graphs our search finished.
    let done: Vec<usize> = (0..count).filter(|&i| answers[i].is_some()).collect();
    let restrict = |k: &[Option<usize>]| classes(done.iter().map(|&i| k[i]));
    let (ours_p, nauty_p) = (restrict(&ours_keys), restrict(&nauty_keys));
    let labelg_equal = labelg_keys.as_ref().is_none_or(|l| *l == nauty_keys);
    let partitions_equal = ours_p == nauty_p && labelg_equal;
    if !partitions_equal {
        // The first pair the two sides split differently.
        for (j, &i) in done.iter().enumerate() {
            if ours_p[j] != nauty_p[j] {
                let (oi, ni) = (ours_p[j].unwrap(), nauty_p[j].unwrap());
                let other = done[oi.min(ni)];
                if bad.len() < 20 {
                    bad.push(Disagreement {
                        family: name.into(),
                        what: format!(
                            "graphs {other} and {i} (n = {}, {}): same class by {}, not by {}",
                            all[other].n(),
                            all[i].n(),
                            if oi < ni { "ours" } else { "nauty" },
                            if oi < ni { "nauty" } else { "ours" }
                        ),
                        reproducer: format!(
                            "{}{}",
                            dreadnaut_reproducer(&all[other]),
                            dreadnaut_reproducer(&all[i])
                        ),
                    });
                }
                break;
            }
        }
        if !labelg_equal {
            {
                bad.push(Disagreement {
                    family: name.into(),
                    what: "labelg and dreadnaut disagree (the encoding?)".into(),
                    reproducer: String::new(),
                });
            }
        }
    }

    if o.detail {
        for (i, (g, d)) in all.iter().zip(&dn.answers).enumerate() {
            let t = cpu_now();
            let a = ours::canonical(&built[i], &limits);
            let us = (cpu_now() - t) * 1e6;
            eprintln!(
                "  {i:>6} n {:>5} arcs {:>7} ours {:>10.1} µs {:>8} nodes | nauty {:>8} nodes | order {}",
                g.n(),
                2 * g.edges.len() + g.arcs.len(),
                us,
                a.as_ref().map_or("limit".into(), |a| a.nodes.to_string()),
                d.nodes,
                d.grpsize
            );
        }
    }
    if let Some(dir) = &o.dump {
        std::fs::create_dir_all(dir).expect("the dump directory");
        let file = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .take(24)
            .collect::<String>();
        for (i, g) in all.iter().enumerate() {
            if answers[i].is_none() {
                let stem = dir.join(format!("limit-{file}-{i}"));
                std::fs::write(stem.with_extension("dre"), dreadnaut_reproducer(g))
                    .expect("dump written");
                if g.is_plain() {
                    std::fs::write(stem.with_extension("g6"), g.to_graph6() + "\n")
                        .expect("dump written");
                }
                eprintln!("  graph {i} hit the limit: {}.dre", stem.display());
            }
        }
    }

    // Levels: `canon::of_graph`'s reading against this crate's.
    let of_graph = (!levels.is_empty()).then(|| {
        let t = cpu_now();
        let forms: Vec<_> = levels
            .iter()
            .map(|l| ours::canonical(&ours::of_graph(l), &limits).map(|a| a.form))
            .collect();
        let us = (cpu_now() - t) * 1e6 / levels.len() as f64;
        let theirs = classes(forms);
        let mine = classes(ours_keys[..b].iter().copied());
        if theirs != mine && bad.len() < 20 {
            let j = (0..b).find(|&j| theirs[j] != mine[j]).unwrap_or(0);
            bad.push(Disagreement {
                family: name.into(),
                what: format!(
                    "level {j}: canon::of_graph puts it with level {:?}, the bench's reading with {:?}",
                    theirs[j], mine[j]
                ),
                reproducer: dreadnaut_reproducer(&all[j]),
            });
        }
        (count_classes(&theirs), theirs == mine, us)
    });

    let per = |s: f64| s * 1e6 / count as f64;
    let net = (dn.canon.cpu - dn.read.cpu).max(0.0);
    Row {
        name: name.into(),
        graphs: count,
        n_min: all.iter().map(Input::n).min().unwrap_or(0),
        n_max: all.iter().map(Input::n).max().unwrap_or(0),
        ours_us: per(ours_s),
        nauty_net_us: per(net),
        nauty_whole_us: per(dn.canon.cpu),
        nauty_own_us: per(dn.answers.iter().map(|a| a.cpu).sum()),
        labelg_us: lg
            .as_ref()
            .map(|l| per((l.canon.cpu - l.copy.cpu).max(0.0))),
        mode: if sparse { "sparse" } else { "dense" },
        orders,
        ours_classes: count_classes(&ours_keys),
        nauty_classes: count_classes(&nauty_keys),
        labelg_classes: labelg_keys.as_ref().map(|l| count_classes(l)),
        partitions_equal,
        shuffles_equal: shuffles,
        limits: limit_hits,
        of_graph,
    }
}

fn us(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn ratio(r: f64) -> String {
    if !r.is_finite() {
        "–".into()
    } else if r >= 10.0 {
        format!("{r:.0}×")
    } else {
        format!("{r:.2}×")
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if !o.files.is_empty() {
        return files(&o);
    }
    std::fs::create_dir_all(&o.work).expect("a scratch directory");
    let mut fams: Vec<Family> = families::all(o.size, o.seed, &o.prefix);
    if o.stress {
        return stress(&o, fams);
    }

    // Levels.
    let full = o.size == Size::Full;
    let mut interner = levels::Interner::default();
    let example_levels = levels::examples(&o.examples, if full { 300 } else { 5 }, o.seed);
    let large_levels = levels::large(
        &o.examples,
        if full { &[100, 300, 1000] } else { &[100, 200] },
        if full { 20 } else { 2 },
        o.seed,
    );
    let level_inputs = |ls: &[(String, levelgraph::Graph)], it: &mut levels::Interner| {
        ls.iter()
            .map(|(_, g)| levels::of_level(g, it))
            .collect::<Vec<_>>()
    };
    fams.push(Family {
        name: "levels of the example grammars".into(),
        graphs: level_inputs(&example_levels, &mut interner),
        levels: example_levels.into_iter().map(|(_, g)| g).collect(),
    });
    fams.push(Family {
        name: "levels of the default grammar grown to 100…1000".into(),
        graphs: level_inputs(&large_levels, &mut interner),
        levels: large_levels.into_iter().map(|(_, g)| g).collect(),
    });

    let mut rows = Vec::new();
    let mut bad = Vec::new();
    for f in fams {
        if o.only
            .as_ref()
            .is_some_and(|t| !f.name.contains(t.as_str()))
        {
            continue;
        }
        // Each family's shuffles from its own generator, so that a family
        // run alone (`--only`) gets the same copies as in the whole run.
        let mut rng = Rng::seeded(f.name.bytes().fold(o.seed ^ 0x5eed_c0de, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        }));
        rows.push(run_family(
            &o, &f.name, f.graphs, &f.levels, &mut rng, &mut bad,
        ));
    }
    let _ = std::fs::remove_dir_all(&o.work);

    // The table.
    let total: usize = rows.iter().map(|r| r.graphs).sum();
    println!(
        "Command: `cargo run --release --manifest-path bench/canon/Cargo.toml -- {}{}`  ",
        if full { "run" } else { "quick" },
        std::env::args()
            .skip(2)
            .map(|a| format!(" {a}"))
            .collect::<String>()
    );
    println!("Machine: {}  ", machine());
    println!(
        "{total} graphs; every graph given {} (as generated, and shuffled). Times are CPU µs per graph: \
the fastest of 3 runs on each side; ours in process (`canon::canonical`), nauty = dreadnaut's run (`c`, `x`) minus a run that only reads the same graphs \
(whole run in brackets; dreadnaut's own `cpu time` sum after the slash), labelg = `nauty-labelg` minus `nauty-copyg` on the same graph6 file.\n",
        if o.copies == 1 { "twice".to_string() } else { format!("{} times", o.copies + 1) }
    );
    println!("| family | graphs | n | ours µs | nauty µs (whole / own) | labelg µs | ours ÷ nauty | group orders agree | classes ours / nauty (/ labelg) | shuffled copies agree | limit hit |");
    println!("|---|---:|---|---:|---:|---:|---:|---|---|---|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {}…{} | {} | {} ({} / {}) {} | {} | {} | {} | {} / {}{} {} | {} | {} |",
            r.name,
            r.graphs,
            r.n_min,
            r.n_max,
            us(r.ours_us),
            us(r.nauty_net_us),
            us(r.nauty_whole_us),
            us(r.nauty_own_us),
            r.mode,
            r.labelg_us.map_or("–".into(), us),
            ratio(r.ours_us / r.nauty_net_us),
            if r.orders.0 == r.orders.1 {
                format!("yes ({})", r.orders.1)
            } else {
                format!("**no** ({} of {})", r.orders.0, r.orders.1)
            },
            r.ours_classes,
            r.nauty_classes,
            r.labelg_classes
                .map_or(String::new(), |c| format!(" / {c}")),
            if r.partitions_equal {
                "equal"
            } else {
                "**differ**"
            },
            if r.shuffles_equal.0 == r.shuffles_equal.1 {
                "yes".to_string()
            } else {
                format!("**no** ({} of {})", r.shuffles_equal.0, r.shuffles_equal.1)
            },
            r.limits
        );
    }
    for r in &rows {
        if let Some((classes, equal, us_per)) = r.of_graph {
            println!(
                "\n{}: through `canon::of_graph` (the library's own reading of a level), {} µs per level \
with the search, {classes} classes, {} the bench's reading.",
                r.name,
                us(us_per),
                if equal { "the same partition as" } else { "**a different partition from**" }
            );
        }
    }
    if bad.is_empty() {
        println!("\nNo disagreement.");
        ExitCode::SUCCESS
    } else {
        println!("\n**{} disagreement(s):**\n", bad.len());
        for d in &bad {
            println!("- {}: {}\n\n```\n{}```\n", d.family, d.what, d.reproducer);
        }
        ExitCode::FAILURE
    }
}

/// `file G6`: our search on every graph of a graph6 file (the reproducers
/// in `repro/`): nodes, CPU time, group order, or the limit.
fn files(o: &Options) -> ExitCode {
    let limits = ours::limits();
    let mut hits = 0;
    for path in &o.files {
        let text = std::fs::read_to_string(path).expect("a graph6 file");
        for (i, line) in text.lines().filter(|l| !l.is_empty()).enumerate() {
            let g = graph::from_graph6(line);
            let t = cpu_now();
            let a = ours::canonical(&ours::build(&g), &limits);
            let ms = (cpu_now() - t) * 1e3;
            match a {
                Some(a) => println!(
                    "{} #{i}: n {}, {} nodes, {ms:.1} ms, group order {}",
                    path.display(),
                    g.n(),
                    a.nodes,
                    a.order
                ),
                None => {
                    hits += 1;
                    println!(
                        "{} #{i}: n {}, the search hit its limit ({ms:.0} ms)",
                        path.display(),
                        g.n()
                    );
                }
            }
        }
    }
    if hits == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `stress`: our side only, `--copies K` shuffled copies of every graph of
/// the (`--only`) families: the search nodes, the most of any copy, and the
/// copies that hit the limit (written to `--dump DIR`).
fn stress(o: &Options, fams: Vec<Family>) -> ExitCode {
    let limits = ours::limits();
    let mut hits = 0;
    for f in fams {
        if o.only
            .as_ref()
            .is_some_and(|t| !f.name.contains(t.as_str()))
        {
            continue;
        }
        let mut rng = Rng::seeded(o.seed ^ 0x57e5_5000);
        for (i, g) in f.graphs.iter().enumerate() {
            let mut nodes = Vec::new();
            for k in 0..=o.copies {
                let h = if k == 0 {
                    g.clone()
                } else {
                    g.shuffled(&mut rng)
                };
                match ours::canonical(&ours::build(&h), &limits) {
                    Some(a) => nodes.push(a.nodes),
                    None => {
                        hits += 1;
                        nodes.push(u64::MAX);
                        if let Some(dir) = &o.dump {
                            std::fs::create_dir_all(dir).expect("the dump directory");
                            let stem = dir.join(format!("stress-{i}-{k}"));
                            std::fs::write(stem.with_extension("dre"), dreadnaut_reproducer(&h))
                                .expect("dump written");
                            if h.is_plain() {
                                std::fs::write(stem.with_extension("g6"), h.to_graph6() + "\n")
                                    .expect("dump written");
                            }
                        }
                    }
                }
            }
            nodes.sort_unstable();
            println!(
                "{}: graph {i}, n {}: nodes min {} median {} max {}",
                f.name,
                g.n(),
                nodes[0],
                nodes[nodes.len() / 2],
                nodes.last().map_or("-".into(), |&m| if m == u64::MAX {
                    "limit".into()
                } else {
                    m.to_string()
                })
            );
        }
    }
    println!("{hits} searches hit the limit");
    if hits == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The CPU model and core count, for the table's header.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cores} cores; {}", nauty_version())
}

fn nauty_version() -> String {
    std::process::Command::new("dpkg-query")
        .args(["-W", "-f", "${Version}", "nauty"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or("nauty (version unknown)".into(), |v| {
            format!("nauty {v} (Debian)")
        })
}
