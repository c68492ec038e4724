//! The peer: nauty's own programs (Debian package `nauty`), run as
//! processes over a whole file of graphs, never linked and never copied.
//!
//! * `dreadnaut` takes every family: each graph is encoded as an
//!   uncoloured simple graph `H` with an ordered vertex partition (the
//!   standard colour gadgets, below) and run with `c` (canonical labelling)
//!   and `x`; it prints the group order (`grpsize=`) and, with `b`, the
//!   canonical labelling.
//! * `nauty-labelg` takes the plain (uncoloured, undirected) families as
//!   graph6 and writes the canonical graph6 of each graph.
//!
//! **The gadget encoding** (`encode`), for graphs with vertex colours,
//! edge colours, directions, parallel edges and loops, read as `canon`
//! reads them: an undirected edge is two arcs of its colour, one each way,
//! and the arcs of one ordered pair are a multiset. Vertex colours become
//! the cells of the partition. A pair `{u, v}` whose arcs are exactly one
//! uncoloured arc each way stays a plain edge of `H`. Any other pair is
//! subdivided: if the arcs `u -> v` and `v -> u` have the same colour
//! multiset, by one new vertex `u - m - v` whose cell is that multiset;
//! otherwise by two, `u - a - b - v`, `a`'s cell the pair (multiset
//! `u -> v`, multiset `v -> u`), `b`'s the same pair seen from `v`. Loops
//! fold into their vertex's cell. There is one gadget per pair, so gadget
//! vertices are fixed once their ends are, and `Aut(H)` with the partition
//! is `Aut(G)`: group orders compare as printed. The cells are ordered by
//! their key (original vertices first, by colour and loops; then gadgets),
//! never by vertex number, so two graphs are isomorphic exactly when their
//! cell keys and sizes agree and nauty's canonical graphs are equal.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::graph::Input;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum CellKey {
    /// An original vertex: its colour and the sorted colours of its loop
    /// arcs (an undirected loop is two arcs, as in `canon`).
    Vertex(u32, Vec<u32>),
    /// The middle vertex of a pair whose arcs read the same both ways: the
    /// sorted colours of the arcs `u -> v` (equal to those of `v -> u`).
    Middle(Vec<u32>),
    /// The end vertex next to `u` of a pair: the sorted colours of the
    /// arcs `u -> v`, then of `v -> u`.
    End(Vec<u32>, Vec<u32>),
}

/// A graph as nauty is given it.
pub struct Encoded {
    pub n: usize,
    /// Neighbours of each vertex of `H`, larger-numbered only (each edge
    /// once), as dreadnaut reads them.
    pub adj: Vec<Vec<u32>>,
    /// The cells, in order.
    pub cells: Vec<Vec<u32>>,
    /// The cell keys and sizes: equal for two isomorphic graphs.
    pub signature: String,
    /// Edges of `H`.
    pub edges: usize,
}

/// The gadget encoding (see the module's docs). An undirected edge is the
/// two arcs `u -> v` and `v -> u` of its colour, as `canon` reads it, and
/// the arcs of one ordered pair are a multiset.
pub fn encode(g: &Input) -> Encoded {
    let n = g.n();
    let mut loops: Vec<Vec<u32>> = vec![Vec::new(); n];
    // (u, v) with u < v: arcs u -> v, arcs v -> u.
    let mut pairs: BTreeMap<(u32, u32), (Vec<u32>, Vec<u32>)> = BTreeMap::new();
    let mut arc = |u: u32, v: u32, c: u32| {
        if u == v {
            loops[u as usize].push(c);
        } else if u < v {
            pairs.entry((u, v)).or_default().0.push(c);
        } else {
            pairs.entry((v, u)).or_default().1.push(c);
        }
    };
    for &(u, v, c) in &g.edges {
        arc(u, v, c);
        arc(v, u, c);
    }
    for &(u, v, c) in &g.arcs {
        arc(u, v, c);
    }
    let mut keys: Vec<CellKey> = (0..n)
        .map(|v| {
            let mut l = std::mem::take(&mut loops[v]);
            l.sort_unstable();
            CellKey::Vertex(g.colours[v], l)
        })
        .collect();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let edge = |adj: &mut Vec<Vec<u32>>, a: u32, b: u32| {
        let (a, b) = (a.min(b), a.max(b));
        adj[a as usize].push(b);
    };
    let mut edges = 0;
    for ((u, v), (mut uv, mut vu)) in pairs {
        uv.sort_unstable();
        vu.sort_unstable();
        if uv == [0] && vu == [0] {
            edge(&mut adj, u, v);
            edges += 1;
        } else if uv == vu {
            let w = keys.len() as u32;
            keys.push(CellKey::Middle(uv));
            adj.push(Vec::new());
            edge(&mut adj, u, w);
            edge(&mut adj, w, v);
            edges += 2;
        } else {
            let a = keys.len() as u32;
            keys.push(CellKey::End(uv.clone(), vu.clone()));
            keys.push(CellKey::End(vu, uv));
            adj.push(Vec::new());
            adj.push(Vec::new());
            edge(&mut adj, u, a);
            edge(&mut adj, a, a + 1);
            edge(&mut adj, a + 1, v);
            edges += 3;
        }
    }
    let mut by_key: BTreeMap<&CellKey, Vec<u32>> = BTreeMap::new();
    for (v, k) in keys.iter().enumerate() {
        by_key.entry(k).or_default().push(v as u32);
    }
    let mut signature = String::new();
    for (k, vs) in &by_key {
        let _ = write!(signature, "{k:?}x{};", vs.len());
    }
    Encoded {
        n: keys.len(),
        adj,
        cells: by_key.into_values().collect(),
        signature,
        edges,
    }
}

/// How dreadnaut is asked to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Read each graph and its partition only (the input cost).
    Read,
    /// `x`: canonical labelling and group.
    Canon,
    /// `x b`: also print the canonical labelling, for the classes.
    CanonPrint,
}

/// Write the dreadnaut script for a file of encoded graphs.
pub fn script(graphs: &[Encoded], sparse: bool, run: Run) -> String {
    let mut s = String::new();
    s.push_str(if sparse { "As\n" } else { "An\n" });
    s.push_str("l=0 c -a -m\n");
    for (i, e) in graphs.iter().enumerate() {
        let _ = writeln!(s, "\"#G{i}\\n\" n={} g", e.n);
        // Each list ends with `;` but the last, which `.` ends.
        for (v, list) in e.adj.iter().enumerate() {
            for w in list {
                let _ = write!(s, " {w}");
            }
            s.push_str(if v + 1 < e.adj.len() { ";\n" } else { ".\n" });
        }
        if e.adj.is_empty() {
            s.push_str(".\n");
        }
        s.push_str("f=[");
        for (k, cell) in e.cells.iter().enumerate() {
            if k > 0 {
                s.push('|');
            }
            for (j, v) in cell.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                let _ = write!(s, "{v}");
            }
        }
        s.push_str("]\n");
        match run {
            Run::Read => {}
            Run::Canon => s.push_str("x\n"),
            Run::CanonPrint => s.push_str("x b\n"),
        }
    }
    s.push_str("q\n");
    s
}

/// CPU (user + system) seconds of one child process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    pub cpu: f64,
}

fn children_cpu() -> f64 {
    // SAFETY: getrusage writes the struct it is given; a zeroed rusage is
    // a valid value of it.
    let mut r: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut r) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(r.ru_utime) + t(r.ru_stime)
}

/// Timed runs per measurement; the fastest counts (the machine is shared,
/// and the fastest run is the one least disturbed).
pub const ROUNDS: usize = 3;

/// The cheapest of `rounds` runs.
pub fn best_of(rounds: usize, mut f: impl FnMut() -> Cost) -> Cost {
    (0..rounds)
        .map(|_| f())
        .min_by(|a, b| a.cpu.total_cmp(&b.cpu))
        .expect("at least one round")
}

/// Run `program args` with `input` as stdin and stdout to `output`.
pub fn run_timed(program: &str, args: &[&str], input: &Path, output: &Path) -> Cost {
    let cpu0 = children_cpu();
    let status = Command::new(program)
        .args(args)
        .stdin(std::fs::File::open(input).expect("input file"))
        .stdout(std::fs::File::create(output).expect("output file"))
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{program} could not run: {e}"));
    assert!(status.success(), "{program} {args:?} failed: {status}");
    Cost {
        cpu: children_cpu() - cpu0,
    }
}

/// What dreadnaut said about one graph.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// `grpsize=` as printed: an integer or `m.mmme±x`.
    pub grpsize: String,
    /// Seconds, as dreadnaut reports them (to 0.01 s).
    pub cpu: f64,
    /// Search-tree nodes, as dreadnaut reports them.
    pub nodes: u64,
    /// The canonical labelling (`Run::CanonPrint` only).
    pub labelling: Vec<u32>,
}

/// Parse dreadnaut's output: one `Answer` per `#G` marker.
pub fn parse(text: &str, count: usize) -> Vec<Answer> {
    let mut out: Vec<Answer> = Vec::with_capacity(count);
    let mut want_labels = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("#G") {
            let i: usize = rest.trim().parse().expect("graph marker");
            assert_eq!(i, out.len(), "dreadnaut output out of step");
            out.push(Answer::default());
            continue;
        }
        let Some(a) = out.last_mut() else { continue };
        if let Some(p) = line.find("grpsize=") {
            let rest = &line[p + 8..];
            a.grpsize = rest[..rest.find(';').unwrap_or(rest.len())].to_string();
            a.nodes = line
                .split(';')
                .find(|part| part.contains(" node"))
                .and_then(|part| part.split_whitespace().next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
        } else if let Some(p) = line.find("cpu time = ") {
            let rest = &line[p + 11..];
            a.cpu = rest
                .split_whitespace()
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0.0);
            want_labels = true;
        } else if want_labels {
            a.labelling = line
                .split_whitespace()
                .map(|x| x.parse().expect("a label"))
                .collect();
            want_labels = false;
        }
    }
    assert_eq!(out.len(), count, "dreadnaut answered for fewer graphs");
    out
}

/// nauty's canonical form of an encoded graph from its canonical
/// labelling: the signature and the relabelled edge list, hashed to 128
/// bits (two independent 64-bit FNV-style hashes; only equality is used).
pub fn canonical_key(e: &Encoded, labelling: &[u32]) -> (u64, u64) {
    assert_eq!(labelling.len(), e.n, "labelling of the wrong length");
    let mut pos = vec![0u32; e.n];
    for (i, &v) in labelling.iter().enumerate() {
        pos[v as usize] = i as u32;
    }
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(e.edges);
    for (u, list) in e.adj.iter().enumerate() {
        for &w in list {
            let (a, b) = (pos[u], pos[w as usize]);
            edges.push((a.min(b), a.max(b)));
        }
    }
    edges.sort_unstable();
    let mut h1 = Hasher::new(0xcbf2_9ce4_8422_2325);
    let mut h2 = Hasher::new(0x9e37_79b9_7f4a_7c15);
    for b in e.signature.bytes() {
        h1.byte(b);
        h2.byte(b);
    }
    for (a, b) in edges {
        h1.word(((a as u64) << 32) | b as u64);
        h2.word(((b as u64) << 32) | a as u64);
    }
    (h1.0, h2.0)
}

struct Hasher(u64);

impl Hasher {
    fn new(seed: u64) -> Self {
        Hasher(seed)
    }
    fn byte(&mut self, b: u8) {
        self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(23)
            ^ (w >> 29);
    }
}

/// dreadnaut over a file of graphs: the answers (with labellings) and the
/// costs of the timed run and of the read-only run.
pub struct Dreadnaut {
    pub answers: Vec<Answer>,
    pub canon: Cost,
    pub read: Cost,
}

pub fn dreadnaut(dir: &Path, name: &str, graphs: &[Encoded], sparse: bool, bin: &str) -> Dreadnaut {
    let write = |run: Run, tag: &str| -> PathBuf {
        let p = dir.join(format!("{name}.{tag}.dre"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).expect("script file"));
        f.write_all(script(graphs, sparse, run).as_bytes())
            .expect("script written");
        p
    };
    let print = write(Run::CanonPrint, "print");
    let out = dir.join(format!("{name}.print.out"));
    run_timed(bin, &[], &print, &out);
    let answers = parse(
        &std::fs::read_to_string(&out).expect("dreadnaut output"),
        graphs.len(),
    );
    let canon_script = write(Run::Canon, "canon");
    let read_script = write(Run::Read, "read");
    let sink = dir.join(format!("{name}.sink.out"));
    let canon = best_of(ROUNDS, || run_timed(bin, &[], &canon_script, &sink));
    let read = best_of(ROUNDS, || run_timed(bin, &[], &read_script, &sink));
    for p in [print, out, canon_script, read_script, sink] {
        let _ = std::fs::remove_file(p);
    }
    Dreadnaut {
        answers,
        canon,
        read,
    }
}

/// `nauty-labelg` over a graph6 file of plain graphs: the canonical graph6
/// of each and the cost of the run (and of `nauty-copyg`, which reads and
/// writes the same file: the input and output cost).
pub struct Labelg {
    pub canonical: Vec<String>,
    pub canon: Cost,
    pub copy: Cost,
}

pub fn labelg(dir: &Path, name: &str, graphs: &[&Input], sparse: bool, prefix: &str) -> Labelg {
    let input = dir.join(format!("{name}.g6"));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&input).expect("g6 file"));
        for g in graphs {
            writeln!(f, "{}", g.to_graph6()).expect("g6 written");
        }
    }
    let out = dir.join(format!("{name}.canon.g6"));
    let empty = dir.join("empty");
    std::fs::write(&empty, "").expect("empty file");
    let labelg_bin = format!("{prefix}labelg");
    let copyg_bin = format!("{prefix}copyg");
    let input_s = input.to_str().expect("utf-8 path");
    let out_s = out.to_str().expect("utf-8 path");
    let mut args = vec!["-q", "-g"];
    if sparse {
        args.push("-S");
    }
    args.extend([input_s, out_s]);
    let canon = best_of(ROUNDS, || {
        run_timed(&labelg_bin, &args, &empty, &dir.join("labelg.log"))
    });
    let canonical: Vec<String> = std::fs::read_to_string(&out)
        .expect("labelg output")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(canonical.len(), graphs.len(), "labelg wrote too few graphs");
    let copy_out = dir.join(format!("{name}.copy.g6"));
    let copy = best_of(ROUNDS, || {
        run_timed(
            &copyg_bin,
            &["-q", "-g", input_s, copy_out.to_str().expect("utf-8 path")],
            &empty,
            &dir.join("copyg.log"),
        )
    });
    for p in [input, out, copy_out] {
        let _ = std::fs::remove_file(p);
    }
    Labelg {
        canonical,
        canon,
        copy,
    }
}

/// The group order nauty printed, as (mantissa in [1, 10), exponent), or
/// exactly when it printed an integer.
pub fn parse_grpsize(s: &str) -> (f64, i32, Option<u128>) {
    if let Ok(x) = s.parse::<u128>() {
        let e = if x == 0 { 0 } else { x.ilog10() as i32 };
        return (x as f64 / 10f64.powi(e), e, Some(x));
    }
    let (m, e) = match s.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().expect("exponent")),
        None => (s, 0),
    };
    let m: f64 = m.parse().expect("mantissa");
    // Normalise (m is in [1, 10) as nauty prints it, but be safe).
    let shift = if m > 0.0 { m.log10().floor() as i32 } else { 0 };
    (m / 10f64.powi(shift), e + shift, None)
}
