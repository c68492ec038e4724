//! The adversarial corpus: inputs made to hang `levelgraph`, exhaust its
//! memory or leave its output half written (issue 23, "bounded
//! everywhere"), each run by the built binary under an address-space cap
//! and a wall-clock limit. Every case must end by itself with one of the
//! exit codes its manifest entry allows (0, 1 or 2), print the message it
//! names, never panic, and write nothing when it fails.
//!
//! The cases are listed in `tests/adversarial/cases.txt` (its head says
//! how to read and add one); their inputs are the files beside it, or, when
//! a file would be large or unreadable, made by a generator in this file
//! (`{gen}/NAME` in a case's command line; see [`generate_input`]).
//!
//! Environment:
//! - `ADVERSARIAL_ONLY=name,name`: run only these cases (pending or not).
//! - `ADVERSARIAL_PENDING=1`: run the pending cases too, and print what
//!   each did; they never fail the test (one that now passes says so).
//! - `LEVELGRAPH_BIN=path`: run another build, e.g. a release binary, which
//!   is about fifteen times faster than the debug build tests use.
#![cfg(target_os = "linux")]

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// The address-space cap of every case: 2 GiB. A Rust program that asks
/// for more gets an allocation failure and aborts (SIGABRT), which the test
/// reports, instead of the machine swapping or its OOM killer choosing a
/// victim. levelgraph's documented limits (a 4,000,000-vertex level at
/// about 1 GB) fit under it.
const ADDRESS_SPACE: u64 = 2 << 30;

/// The wall-clock limit of a case without its own `timeout`: a case still
/// running then is killed and reported as hung. The debug build the tests
/// run is about fifteen times slower than a release build, so a case meant
/// to end at a limit should end within a second or two of release time.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How much of each output stream's head and of its tail is kept for the
/// message check; the middle is read and dropped (a grammar name of a
/// megabyte is printed whole, and the count of errors after it).
const KEEP_BYTES: usize = 256 << 10;

const BIN: &str = env!("CARGO_BIN_EXE_levelgraph");

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adversarial")
}

/// One entry of `cases.txt`.
#[derive(Debug)]
struct Case {
    name: String,
    /// Line of its `case:` in the manifest, for messages.
    line: usize,
    /// The arguments of `levelgraph`, placeholders not yet replaced.
    run: Vec<String>,
    /// The exit codes allowed.
    exit: Vec<i32>,
    /// Alternatives: stdout or stderr must contain one of them.
    says: Vec<String>,
    /// Why the case is expected to fail today; it is then skipped.
    pending: Option<String>,
    /// Why the case needs an optimized build (a legal level of millions
    /// of vertices, tens of millions of steps): skipped when the tests run
    /// the debug binary, run by `cargo test --release`.
    release_only: Option<String>,
    timeout: Duration,
}

/// Reads the manifest; panics naming the line of anything malformed, so a
/// mistyped case fails the test rather than being skipped.
fn read_manifest(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut current: Option<Case> = None;
    let finish = |case: Option<Case>, cases: &mut Vec<Case>| {
        if let Some(c) = case {
            assert!(
                !c.run.is_empty(),
                "case `{}` (line {}): no `run:`",
                c.name,
                c.line
            );
            assert!(
                !c.exit.is_empty(),
                "case `{}` (line {}): no `exit:`",
                c.name,
                c.line
            );
            assert!(
                !c.says.is_empty(),
                "case `{}` (line {}): no `says:`",
                c.name,
                c.line
            );
            assert!(
                cases.iter().all(|o| o.name != c.name),
                "case `{}` (line {}) is listed twice",
                c.name,
                c.line
            );
            cases.push(c);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('#') {
            continue;
        }
        if trimmed.is_empty() {
            finish(current.take(), &mut cases);
            continue;
        }
        let (key, value) = trimmed
            .split_once(':')
            .unwrap_or_else(|| panic!("cases.txt:{line}: expected `key: value`, found {raw:?}"));
        let value = value.trim();
        if key == "case" {
            finish(current.take(), &mut cases);
            current = Some(Case {
                name: value.to_owned(),
                line,
                run: Vec::new(),
                exit: Vec::new(),
                says: Vec::new(),
                pending: None,
                release_only: None,
                timeout: DEFAULT_TIMEOUT,
            });
            continue;
        }
        let case = current
            .as_mut()
            .unwrap_or_else(|| panic!("cases.txt:{line}: `{key}:` before any `case:`"));
        match key {
            "what" => {}
            "run" => case.run = value.split_whitespace().map(str::to_owned).collect(),
            "exit" => {
                case.exit = value
                    .split_whitespace()
                    .map(|c| match c.parse() {
                        Ok(code @ 0..=2) => code,
                        _ => panic!("cases.txt:{line}: exit codes are 0, 1 or 2, not {c:?}"),
                    })
                    .collect()
            }
            "says" => case.says = value.split(" | ").map(str::to_owned).collect(),
            "pending" => case.pending = Some(value.to_owned()),
            "release-only" => case.release_only = Some(value.to_owned()),
            "timeout" => {
                let seconds: u64 = value
                    .parse()
                    .unwrap_or_else(|_| panic!("cases.txt:{line}: timeout is whole seconds"));
                case.timeout = Duration::from_secs(seconds);
            }
            _ => panic!("cases.txt:{line}: unknown key `{key}`"),
        }
    }
    finish(current.take(), &mut cases);
    cases
}

/// How the address-space cap is put on a child: util-linux's `prlimit`,
/// else the shell's `ulimit -v`. Both exec the program, so the child's
/// pid, exit status and signal are the program's own.
#[derive(Clone, Copy, Debug)]
enum Cap {
    Prlimit,
    Ulimit,
}

impl Cap {
    fn command(self, program: &str, args: &[String]) -> Command {
        match self {
            Cap::Prlimit => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--as={ADDRESS_SPACE}"))
                    .arg("--")
                    .arg(program)
                    .args(args);
                c
            }
            Cap::Ulimit => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!(
                        "ulimit -v {} && exec \"$0\" \"$@\"",
                        ADDRESS_SPACE / 1024
                    ))
                    .arg(program)
                    .args(args);
                c
            }
        }
    }

    /// The first way that demonstrably sets the cap: a child reads its own
    /// limit from /proc. Panics when none does: the test would otherwise
    /// pass without bounding memory at all.
    fn find() -> Cap {
        for cap in [Cap::Prlimit, Cap::Ulimit] {
            let out = cap
                .command("cat", &["/proc/self/limits".to_owned()])
                .output();
            let Ok(out) = out else { continue };
            let limits = String::from_utf8_lossy(&out.stdout);
            let set = limits.lines().any(|l| {
                l.starts_with("Max address space")
                    && l.split_whitespace().nth(3) == Some(&ADDRESS_SPACE.to_string())
            });
            if out.status.success() && set {
                return cap;
            }
        }
        panic!("cannot cap a child's address space: neither `prlimit` nor `sh -c 'ulimit -v'` works here");
    }
}

/// What one run of a case did.
struct Outcome {
    status: Option<ExitStatus>,
    elapsed: Duration,
    /// The child's peak resident set, read from /proc while it ran (a lower
    /// bound: it is sampled), in KiB.
    peak_kib: u64,
    stdout: String,
    stderr: String,
}

/// A pipe read to its end on a thread, keeping its first and last
/// [`KEEP_BYTES`] (joined by `…` when something was dropped between them).
fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut head = Vec::new();
        let mut tail = Vec::new();
        let mut dropped = false;
        let mut buf = [0u8; 64 * 1024];
        while let Ok(n @ 1..) = pipe.read(&mut buf) {
            let room = KEEP_BYTES.saturating_sub(head.len());
            head.extend_from_slice(&buf[..n.min(room)]);
            tail.extend_from_slice(&buf[n.min(room)..n]);
            if tail.len() > 2 * KEEP_BYTES {
                tail.drain(..tail.len() - KEEP_BYTES);
                dropped = true;
            }
        }
        let gap = if dropped { "…" } else { "" };
        format!(
            "{}{gap}{}",
            String::from_utf8_lossy(&head),
            String::from_utf8_lossy(&tail)
        )
    })
}

fn peak_kib(child: &Child) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `levelgraph args` under the cap, killing it after `timeout`.
fn run_capped(cap: Cap, bin: &str, args: &[String], timeout: Duration) -> Outcome {
    let started = Instant::now();
    let mut child = cap
        .command(bin, args)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start levelgraph");
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for levelgraph") {
            break Some(status);
        }
        peak = peak.max(peak_kib(&child).unwrap_or(0));
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(10));
    };
    Outcome {
        status,
        elapsed: started.elapsed(),
        peak_kib: peak,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// How a run ended, in words.
fn ending(o: &Outcome, timeout: Duration) -> String {
    use std::os::unix::process::ExitStatusExt;
    match o.status {
        None => format!("hung: killed after {} s", timeout.as_secs()),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => format!("exit {code}"),
            (None, Some(6)) => {
                "killed by SIGABRT (an allocation beyond the cap, or an abort)".to_owned()
            }
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => "ended without a code".to_owned(),
        },
    }
}

/// What is wrong with `o` for `case` (empty when it passed).
fn judge(case: &Case, o: &Outcome, out_dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let code = o.status.and_then(|s| s.code());
    if !code.is_some_and(|c| case.exit.contains(&c)) {
        problems.push(format!(
            "{}, expected exit {:?}",
            ending(o, case.timeout),
            case.exit
        ));
    }
    if o.status.is_some()
        && !case
            .says
            .iter()
            .any(|s| o.stdout.contains(s) || o.stderr.contains(s))
    {
        problems.push(format!(
            "the output does not say {:?}",
            case.says.join(" | ")
        ));
    }
    if o.stderr.contains("panicked at") {
        problems.push("it panicked".to_owned());
    }
    // A run killed while writing may leave its staged files; one that
    // failed by itself must not.
    if matches!(code, Some(1 | 2)) && out_dir.exists() {
        problems.push(format!("it failed but wrote {}", out_dir.display()));
    }
    problems
}

/// The `{…}` placeholders of a command line replaced: `{corpus}` this
/// folder, `{gen}` the folder of generated inputs, `{out}` the case's own
/// output folder (not yet existing), `{examples}` the repository's
/// examples, `{edgar}` the library's Edgar test data.
fn expand(arg: &str, gen: &Path, out: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    arg.replace("{corpus}", &corpus().to_string_lossy())
        .replace("{gen}", &gen.to_string_lossy())
        .replace("{out}", &out.to_string_lossy())
        .replace("{examples}", &root.join("examples").to_string_lossy())
        .replace(
            "{edgar}",
            &root
                .join("crates/levelgraph/tests/data/edgar")
                .to_string_lossy(),
        )
}

/// The generated inputs a command line names: `{gen}/NAME…` gives NAME
/// (the first path component).
fn generated_names(case: &Case) -> Vec<String> {
    case.run
        .iter()
        .filter_map(|a| a.split_once("{gen}/"))
        .map(|(_, rest)| rest.split('/').next().unwrap().to_owned())
        .collect()
}

/// A scratch folder removed (with what it holds) when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn every_adversarial_input_ends_cleanly_within_its_bounds() {
    let text = fs::read_to_string(corpus().join("cases.txt")).expect("read cases.txt");
    let cases = read_manifest(&text);
    let only: Option<Vec<String>> = std::env::var("ADVERSARIAL_ONLY")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
    let with_pending = std::env::var_os("ADVERSARIAL_PENDING").is_some();
    if let Some(only) = &only {
        for name in only {
            assert!(
                cases.iter().any(|c| &c.name == name),
                "ADVERSARIAL_ONLY names no case `{name}`"
            );
        }
    }
    let chosen: Vec<&Case> = cases
        .iter()
        .filter(|c| match &only {
            Some(only) => only.contains(&c.name),
            None => {
                (c.pending.is_none() || with_pending)
                    && (c.release_only.is_none() || !cfg!(debug_assertions))
            }
        })
        .collect();
    let skipped: Vec<&Case> = cases
        .iter()
        .filter(|c| !chosen.iter().any(|k| k.name == c.name))
        .collect();

    let scratch = Scratch(
        std::env::temp_dir().join(format!("levelgraph-adversarial-{}", std::process::id())),
    );
    let gen = scratch.0.join("gen");
    fs::create_dir_all(&gen).unwrap();
    let mut names: Vec<String> = chosen.iter().flat_map(|c| generated_names(c)).collect();
    names.sort();
    names.dedup();
    for name in &names {
        generate_input(name, &gen);
    }

    let cap = Cap::find();
    let bin = std::env::var("LEVELGRAPH_BIN").unwrap_or_else(|_| BIN.to_owned());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Outcome, Vec<String>)>> = Mutex::new(Vec::new());
    // As many cases at a time as there are cores: each is one process, and
    // at most that many caps of memory are in use at once.
    let workers = thread::available_parallelism().map_or(2, |n| n.get().min(4));
    thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = chosen.get(i) else { break };
                let out = scratch.0.join("out").join(&case.name);
                let args: Vec<String> = case.run.iter().map(|a| expand(a, &gen, &out)).collect();
                let outcome = run_capped(cap, &bin, &args, case.timeout);
                let problems = judge(case, &outcome, &out);
                results.lock().unwrap().push((i, outcome, problems));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);

    // The table, printed whether the test passes or not (`cargo test --
    // --nocapture` shows it on success).
    let mut table = String::new();
    let mut failures = String::new();
    let mut now_passing = Vec::new();
    for (i, o, problems) in &results {
        let case = chosen[*i];
        let verdict = match (problems.is_empty(), &case.pending) {
            (true, None) => "ok".to_owned(),
            (true, Some(_)) => {
                now_passing.push(case.name.as_str());
                "ok (pending: passes now)".to_owned()
            }
            (false, Some(_)) => format!("pending: {}", problems.join("; ")),
            (false, None) => format!("FAILED: {}", problems.join("; ")),
        };
        let _ = writeln!(
            table,
            "{:<34} {:<24} {:>7.2} s {:>8} MiB  {verdict}",
            case.name,
            ending(o, case.timeout),
            o.elapsed.as_secs_f64(),
            o.peak_kib / 1024,
        );
        if case.pending.is_none() && !problems.is_empty() {
            let _ = writeln!(
                failures,
                "case `{}` (cases.txt line {}): {}\n  command: levelgraph {}\n  stderr: {}",
                case.name,
                case.line,
                problems.join("; "),
                case.run.join(" "),
                tail(&o.stderr, 800),
            );
        }
    }
    for case in &skipped {
        let why = match (&case.pending, &case.release_only) {
            (Some(why), _) => why.clone(),
            (None, Some(why)) => format!("debug build (run with --release): {why}"),
            (None, None) => "not in ADVERSARIAL_ONLY".to_owned(),
        };
        let _ = writeln!(table, "{:<34} skipped: {why}", case.name);
    }
    println!("{table}");
    if !now_passing.is_empty() {
        println!(
            "pending cases that pass now (remove their `pending:` line): {}",
            now_passing.join(", ")
        );
    }
    assert!(failures.is_empty(), "\n{table}\n{failures}");
}

/// The last `n` bytes of `s` (at a character boundary), for messages.
fn tail(s: &str, n: usize) -> &str {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    s[start..].trim()
}

/// Writes the generated input `name` into `dir` (a file, or a folder for
/// Edgar maps with their room sets). Each is made here because as a file it
/// would be large (megabytes of one identifier) or unreadable (a
/// 40-vertex clique written out); the comment at each says what it attacks.
fn generate_input(name: &str, dir: &Path) {
    let path = dir.join(name);
    let text = match name {
        // --- Matching (issue 23 a) ---
        // A 6-clique pattern on a complete host of 40 rooms: 40·39·…·35
        // ordered matches. The `-check` form marks its tags terminal, so
        // that `check` samples derivations.
        "six-clique.lg" => clique_grammar("six-clique", 40, None, 6, false),
        "six-clique-check.lg" => clique_grammar("six-clique-check", 40, None, 6, true),
        // A 12-clique pattern on a host without one: 22 rooms, each joined
        // to all but its partner (a cocktail-party graph, largest clique
        // 11), so no match exists and a search must rule out every
        // partial one.
        "twelve-clique.lg" => clique_grammar("twelve-clique", 22, Some(2), 12, false),
        "twelve-clique-check.lg" => clique_grammar("twelve-clique-check", 22, Some(2), 12, true),
        // --- Layout (issue 23 b and others) ---
        // Staircase templates of 302 and 502 corners, as Edgar room sets,
        // and a map of six of them in a ring.
        "stairs" => {
            for (corners, steps) in [(302, 150), (502, 250)] {
                let set = format!("stairs{corners}");
                write(
                    &path.join(format!("rooms/{set}.yml")),
                    &format!(
                        "# Attacks: layout. A staircase of {corners} corners.\nname: {set}\ndefault:\n  doorMode: !OverlapMode\n    doorLength: 1\nroomDescriptions:\n  stairs:\n    shape: [{}]\n",
                        staircase(steps)
                    ),
                );
                write(
                    &path.join(format!("maps/{set}.yml")),
                    &format!("# Attacks: layout. Six rooms in a ring, each a staircase of {corners} corners.\nroomsRange: {{from: 0, to: 5}}\npassages: [[0,1], [1,2], [2,3], [3,4], [4,5], [5,0]]\ndefaultRoomShapes:\n  - setName: {set}\n"),
                );
            }
            return;
        }
        // 4000 rectangles in one room set, for a map of two rooms: the
        // configuration spaces of every pair of templates.
        "many-templates" => {
            let mut set = String::from("# Attacks: layout. 4000 templates, all different rectangles.\nname: many\ndefault:\n  doorMode: !OverlapMode\n    doorLength: 1\nroomDescriptions:\n");
            for i in 0..4000 {
                let (w, h) = (3 + i / 50, 3 + i % 50);
                let _ = writeln!(
                    set,
                    "  r{i}:\n    shape: [[0,0], [0,{h}], [{w},{h}], [{w},0]]"
                );
            }
            write(&path.join("rooms/many.yml"), &set);
            write(
                &path.join("maps/two.yml"),
                "roomsRange: {from: 0, to: 1}\npassages: [[0,1]]\ndefaultRoomShapes:\n  - setName: many\n",
            );
            return;
        }
        // A path of 100,000 rooms (the most an Edgar map may have), with
        // Edgar's own room sets.
        "path-100k.yml" => {
            let mut map = String::from("# Attacks: layout. A path of 100,000 rooms.\nroomsRange: {from: 0, to: 99999}\npassages: [");
            for i in 0..99_999 {
                let _ = write!(map, "{}[{i},{}]", if i > 0 { "," } else { "" }, i + 1);
            }
            map.push_str("]\ndefaultRoomShapes:\n  - setName: basicSet\n");
            map
        }
        // A mission graph of 200,000 rooms in a path (node ids go up to
        // 1,048,575), for `layout --grammar` and `generate --host`.
        "path-200k.json" => {
            let mut doc = String::from("{\"format\":\"levelgraph.mission/1\",\"grammar\":\"g\",\"seed\":0,\"stop_reason\":\"no_rule_applies\",\"stop_detail\":\"\",\"applications\":0,\"nodes\":[");
            for i in 0..200_000 {
                let _ = write!(doc, "{}{{\"id\":{i},\"tag\":\"room\"}}", if i > 0 { "," } else { "" });
            }
            doc.push_str("],\"edges\":[");
            for i in 0..199_999 {
                let _ = write!(doc, "{}{{\"source\":{i},\"target\":{},\"directed\":false,\"cosmetic\":false,\"label\":null,\"length_factor\":1.0}}", if i > 0 { "," } else { "" }, i + 1);
            }
            doc.push_str("],\"trace\":[]}");
            doc
        }
        // --- Nesting: 100,000 open brackets, where a reader that recursed
        // per bracket would overflow its stack ---
        "deep-parens.lg" => format!(
            "# Attacks: the parser's depth.\ntags {{ s room }}\nrule start {{ (a:s) => {}{} }}\n",
            "(".repeat(100_000),
            ")".repeat(100_000)
        ),
        "deep-braces.lg" => format!(
            "# Attacks: the parser's depth, in a vertex's attributes.\ntags {{ s room }}\nrule start {{ (a:s) => (a:room {}{}) }}\n",
            "{".repeat(100_000),
            "}".repeat(100_000)
        ),
        "deep-grammar.json" => format!(
            "{{\"name\": \"deep\", \"tags\": {}{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
        "deep-mission.json" => format!(
            "{{\"format\": \"levelgraph.mission/1\", \"nodes\": {}{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
        "deep-flow.yml" => format!(
            "# Attacks: the YAML reader's depth (flow collections).\nroomsRange: {{from: 0, to: 1}}\npassages: {}{}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
        "deep-block.yml" => format!(
            "# Attacks: the YAML reader's depth (block sequences on one line).\nroomsRange: {{from: 0, to: 1}}\npassages:\n  {}[0, 1]\n",
            "- ".repeat(100_000)
        ),
        // --- Size: very long tokens and lines, many rules and tags ---
        "long-identifier.lg" => {
            let tag = "r".repeat(1_000_000);
            format!("# Attacks: a 1 MB tag name, declared and used, then an unknown tag.\ntags {{ s {tag} }}\nrule start {{ (a:s) => (a:{tag}) -- (b:nope) }}\n")
        }
        "long-string.lg" => format!(
            "# Attacks: a 1 MB grammar name, printed in the summary.\ngrammar \"{}\" {{}}\ntags {{ s room }}\nrule start {{ (a:s) => (a:room) -- (b:room) }}\n",
            "x".repeat(1_000_000)
        ),
        "long-number.lg" => format!(
            "# Attacks: a number of 1,000,000 digits.\ngrammar \"n\" {{ max_vertices {} }}\ntags {{ s room }}\nrule start {{ (a:s) => (a:room) -- (b:room) }}\n",
            "9".repeat(1_000_000)
        ),
        "long-line.lg" => {
            let mut g = String::from("# Attacks: one line of 10,000 rules (300 KB), every finding on it.\n");
            g.push_str("tags { s room } rule start { (a:s) => (a:room) }");
            for i in 0..9_999 {
                let _ = write!(g, " rule r{i} {{ (a:room) => (a) }}");
            }
            g.push('\n');
            g
        }
        "rules-10k.lg" => many_rules(9_999),
        "rules-10k-long.lg" => format!(
            "grammar \"rules-10k-long\" {{ max_iterations 20000000 }}\n{}",
            many_rules(9_999)
        ),
        "rules-1m.lg" => many_rules(1_000_000),
        "tags-10k.lg" | "tags-100k.lg" => {
            let n = if name == "tags-10k.lg" { 9_998 } else { 99_998 };
            let mut g = format!("# Attacks: {} tags, none used.\ntags {{ s room", n + 2);
            for i in 0..n {
                let _ = write!(g, " t{i}");
            }
            g.push_str(" }\nrule start { (a:s) => (a:room) -- (b:room) }\n");
            g
        }
        // Geometric grammars whose start rule makes a star of 2,000 or
        // 50,000 rooms: the rule's own drawing is relaxed by forces.
        "star-2000-geometric.lg" => star_grammar("star-2000-geometric", 2_000),
        "star-50k-geometric.lg" => star_grammar("star-50k-geometric", 50_000),
        // --- Grammars beyond the reader's limits ---
        // 2,000,000 tokens of `(` (2 MB): the lexer keeps every token.
        "tokens-2m.lg" => format!("# Attacks: the lexer.\n{}", "(".repeat(2_000_000)),
        // 17 MB of one comment: beyond the 16 MiB a grammar may have.
        "grammar-17mb.lg" => format!("# {}\n", "x".repeat(17 << 20)),
        "grammar-17mb.json" => format!("{{\"name\": \"{}\"}}", "x".repeat(17 << 20)),
        // 10,001 rules, one more than a grammar may have.
        "rules-10001.lg" => many_rules(10_000),
        // --- Files that are not files ---
        // A FIFO nobody writes to: opening it to read would block forever.
        // FIFOs nobody writes to, as a grammar, a host, an Edgar map and
        // a room set: opening one to read would block forever.
        "fifos" => {
            fs::create_dir_all(&path).unwrap();
            for fifo in ["grammar.lg", "host.json", "map.yml"] {
                let made = Command::new("mkfifo").arg(path.join(fifo)).status();
                assert!(made.is_ok_and(|s| s.success()), "mkfifo {fifo}");
            }
            return;
        }
        // A regular file where an output folder should be.
        "a-file" => "not a folder\n".to_owned(),
        _ => panic!("cases.txt names an unknown generated input `{{gen}}/{name}`"),
    };
    write(&path, &text);
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A grammar whose start rule makes `rooms` rooms, each joined to every
/// other (except, with `parts`, to those of its own part of that many),
/// and a rule whose pattern is a `clique`-clique of rooms. `terminal`
/// marks every tag terminal, which makes `check` sample derivations.
fn clique_grammar(
    name: &str,
    rooms: usize,
    parts: Option<usize>,
    clique: usize,
    terminal: bool,
) -> String {
    let side = |n: usize, prefix: &str, joined: &dyn Fn(usize, usize) -> bool| {
        let mut s: Vec<String> = (0..n).map(|i| format!("({prefix}{i}:room)")).collect();
        for i in 0..n {
            for j in i + 1..n {
                if joined(i, j) {
                    s.push(format!("({prefix}{i}) -- ({prefix}{j})"));
                }
            }
        }
        s.join(", ")
    };
    let host = side(rooms, "r", &|i, j| parts.is_none_or(|p| i / p != j / p));
    let pattern = side(clique, "c", &|_, _| true);
    let t = if terminal { " terminal" } else { "" };
    format!(
        "# Attacks: matching. A {clique}-clique pattern on a host of {rooms} rooms{}.\ngrammar \"{name}\" {{ max_iterations 50 }}\ntags {{ s room{t} hall{t} }}\nrule start {{ (a:s) => {host} }}\nrule clique {{ {pattern} => {pattern}, (c0) -- (x:hall) }}\n",
        if parts.is_some() { " without one" } else { ", all joined" }
    )
}

/// The points of a staircase polygon with `steps` steps, as YAML pairs:
/// `2 * steps + 2` corners.
fn staircase(steps: i32) -> String {
    let mut points = vec![(0, 0)];
    for i in 0..steps {
        points.push((i, i + 1));
        points.push((i + 1, i + 1));
    }
    points.push((steps, 0));
    points
        .iter()
        .map(|(x, y)| format!("[{x},{y}]"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A geometric grammar whose start rule makes a star of `leaves` rooms.
fn star_grammar(name: &str, leaves: usize) -> String {
    let mut g = format!("# Attacks: a rule drawing of {} vertices.\ngrammar \"{name}\" {{ max_vertices 200000 geometric }}\ntags {{ s room }}\nrule start {{ (a:s) => (a:room)", leaves + 1);
    for i in 0..leaves {
        let _ = write!(g, ", (a) -- (v{i}:room)");
    }
    g.push_str(" }\n");
    g
}

/// A grammar of `n` rules that change nothing, and a start rule.
fn many_rules(n: usize) -> String {
    let mut g = format!(
        "# Attacks: {} rules.\ntags {{ s room }}\nrule start {{ (a:s) => (a:room) -- (b:room) }}\n",
        n + 1
    );
    for i in 0..n {
        let _ = writeln!(g, "rule r{i} {{ (a:room) => (a) }}");
    }
    g
}
