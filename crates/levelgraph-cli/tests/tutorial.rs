//! docs/tutorial.md as a reader follows it: every `$ levelgraph ...`
//! command of its ```console blocks is run on the grammar its section uses,
//! saved under the name the tutorial gives it, and must print what the
//! block shows, so the tutorial cannot drift from the tool.
//!
//! Each block's grammar comes from `BLOCKS` below: `examples/tutorial/`
//! holds the steps the tutorial shows only in part, `examples/lock-and-key.lg`
//! the finished grammar. The blocks run in order in one folder, as a reader
//! runs them (`canon` reads what two `generate`s wrote).
//!
//! Before comparing, both sides lose trailing spaces and their times
//! (`0.10 ms`, `6.28 s`) and rates (`11164 levels/s`) become placeholders;
//! a doc line of just `…` (indented or not) stands for any number of
//! output lines. A command whose block shows an `error:` line must fail, any
//! other must succeed. Standard output and standard error go to one file,
//! so their lines interleave as on a terminal.
//!
//! After a change to what the tool prints, fix the tutorial's block (and the
//! prose's numbers around it) to what the command prints now. Run it alone
//! with `cargo test -p levelgraph-cli --test tutorial`; adding
//! `-- tutorial_commands` leaves out section 9's `analyze` runs, most of its
//! time in a debug build.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/common.rs"]
mod common;
use common::{scratch, BIN};

/// How a block's commands are run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Run to the end, in `tutorial_commands_print_what_the_tutorial_shows`.
    Quick,
    /// `analyze` over the doc's 10,000 seeds (about 14 s of the debug
    /// build's time): run to the end, in `tutorial_analyze_blocks`, a test of
    /// its own so it runs beside the others.
    Analyze,
    /// A server that runs until stopped (`serve`): started with `--port 0`
    /// added (a free port; the doc's port must be the default, which
    /// `serve --help` states), its first lines compared, then stopped.
    Server,
}

/// One ```console block of the tutorial, in order.
struct Block {
    /// The start of the heading of the section it is in.
    section: &'static str,
    /// The grammar the section uses, relative to `examples/`, and the name
    /// the tutorial saves it under; `None`: the commands read what earlier
    /// blocks wrote.
    grammar: Option<(&'static str, &'static str)>,
    /// How many `$ levelgraph` commands the block has.
    commands: usize,
    kind: Kind,
}

const DUNGEON: &str = "dungeon.lg";

const BLOCKS: [Block; 9] = [
    Block {
        section: "## 1. A chain of rooms",
        grammar: Some(("tutorial/01-chain.lg", DUNGEON)),
        commands: 2,
        kind: Kind::Quick,
    },
    Block {
        section: "## 2. Keys and locks",
        grammar: Some(("tutorial/02-undirected-keys.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Quick,
    },
    Block {
        section: "## 2. Keys and locks",
        grammar: Some(("tutorial/02-undirected-keys.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Quick,
    },
    Block {
        section: "## 3. Keys before locks",
        grammar: Some(("lock-and-key.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Quick,
    },
    Block {
        section: "## 8. Every small level",
        grammar: Some(("tutorial/02-undirected-keys.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Quick,
    },
    // `canon` of what sections 1 and 2 generated (out/step1, out/step2).
    Block {
        section: "## 8. Every small level",
        grammar: None,
        commands: 1,
        kind: Kind::Quick,
    },
    Block {
        section: "## 9. What your grammar makes",
        grammar: Some(("tutorial/02-undirected-keys.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Analyze,
    },
    // The directed grammar's run, then both runs compared.
    Block {
        section: "## 9. What your grammar makes",
        grammar: Some(("lock-and-key.lg", DUNGEON)),
        commands: 2,
        kind: Kind::Analyze,
    },
    Block {
        section: "## 10. Watch the level follow your edits",
        grammar: Some(("lock-and-key.lg", DUNGEON)),
        commands: 1,
        kind: Kind::Server,
    },
];

/// A line of docs/tutorial.md with its number (from 1).
#[derive(Clone, Debug)]
struct DocLine {
    number: usize,
    text: String,
}

/// A `$ levelgraph ...` line and the output lines after it.
#[derive(Debug)]
struct DocCommand {
    line: DocLine,
    args: Vec<String>,
    output: Vec<DocLine>,
}

#[derive(Debug)]
struct DocBlock {
    heading: String,
    /// The line of the opening fence.
    line: usize,
    commands: Vec<DocCommand>,
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn tutorial() -> String {
    fs::read_to_string(root().join("docs/tutorial.md")).unwrap()
}

/// The fenced blocks of `text` whose fence reads "```" + `lang`, with the
/// heading of the section each is in, its fence's line and its lines.
fn fenced(text: &str, lang: &str) -> Vec<(String, usize, Vec<DocLine>)> {
    let mut blocks = Vec::new();
    let mut heading = String::new();
    let mut open: Option<(String, usize, Vec<DocLine>)> = None;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if let Some(block) = open.as_mut() {
            if line.trim_end() == "```" {
                blocks.push(open.take().unwrap());
            } else {
                block.2.push(DocLine {
                    number,
                    text: line.to_owned(),
                });
            }
        } else if in_other {
            in_other = line.trim_end() != "```";
        } else if let Some(info) = line.strip_prefix("```") {
            if info.trim() == lang {
                open = Some((heading.clone(), number, Vec::new()));
            } else {
                in_other = true;
            }
        } else if line.starts_with("## ") {
            heading = line.to_owned();
        }
    }
    assert!(
        open.is_none(),
        "docs/tutorial.md: a ```{lang} block is not closed"
    );
    blocks
}

/// Every ```console block of the tutorial, split into its commands.
fn console_blocks(text: &str) -> Vec<DocBlock> {
    fenced(text, "console")
        .into_iter()
        .map(|(heading, line, lines)| {
            let mut commands: Vec<DocCommand> = Vec::new();
            for l in lines {
                if let Some(command) = l.text.strip_prefix("$ ") {
                    let mut words = command.split_whitespace().map(str::to_owned);
                    assert_eq!(
                        words.next().as_deref(),
                        Some("levelgraph"),
                        "docs/tutorial.md:{}: a console block runs something other than levelgraph",
                        l.number
                    );
                    let args: Vec<String> = words.collect();
                    assert!(
                        args.iter().all(|a| !a.contains(['"', '\'', '\\', '*'])),
                        "docs/tutorial.md:{}: quoting is not supported here",
                        l.number
                    );
                    commands.push(DocCommand {
                        line: l.clone(),
                        args,
                        output: Vec::new(),
                    });
                } else {
                    let Some(last) = commands.last_mut() else {
                        panic!(
                            "docs/tutorial.md:{}: output before the block's first command",
                            l.number
                        )
                    };
                    last.output.push(l);
                }
            }
            DocBlock {
                heading,
                line,
                commands,
            }
        })
        .collect()
}

/// Does `line` hold a unit `unit` at byte `at`, ending there (not `seeds`)?
fn unit_at(line: &str, at: usize, unit: &str) -> bool {
    line[at..].starts_with(unit)
        && !line[at + unit.len()..]
            .chars()
            .next()
            .is_some_and(char::is_alphanumeric)
}

/// `line` without trailing spaces, its times and rates made placeholders:
/// `0.10 ms` and `6.28 s` become `<time>`, `11164 levels/s` `<rate>`.
fn normalise(line: &str) -> String {
    let line = line.trim_end();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        let c = line[i..].chars().next().unwrap();
        let starts_number = c.is_ascii_digit()
            && !line[..i]
                .chars()
                .next_back()
                .is_some_and(|p| p.is_alphanumeric() || p == '.' || p == '_');
        if starts_number {
            let end = i + line[i..]
                .find(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
                .unwrap_or(line.len() - i);
            if unit_at(line, end, " ms") || unit_at(line, end, " s") {
                out.push_str("<time>");
                i = end + if unit_at(line, end, " ms") { 3 } else { 2 };
                continue;
            }
            if unit_at(line, end, " levels/s") {
                out.push_str("<rate>");
                i = end + " levels/s".len();
                continue;
            }
            out.push_str(&line[i..end]);
            i = end;
            continue;
        }
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn is_ellipsis(line: &str) -> bool {
    line.trim() == "…"
}

/// Where `expected` (doc lines, `…` for any lines) fails to match `actual`,
/// as a message; `None` when it matches. The pieces between `…` lines
/// match at the earliest place each can, which finds a match if any exists.
fn mismatch(expected: &[DocLine], actual: &[String]) -> Option<String> {
    let pieces: Vec<&[DocLine]> = expected.split(|l| is_ellipsis(&l.text)).collect();
    let last = pieces.len() - 1;
    let mut at = 0;
    for (p, piece) in pieces.iter().enumerate() {
        let fits = |start: usize| {
            start + piece.len() <= actual.len()
                && piece
                    .iter()
                    .zip(&actual[start..])
                    .all(|(e, a)| normalise(&e.text) == *a)
        };
        if p == 0 {
            // The first piece is where the output starts.
            if let Some((k, (e, a))) = piece
                .iter()
                .zip(actual.iter().chain(std::iter::repeat(&String::new())))
                .enumerate()
                .find(|(k, (e, a))| *k >= actual.len() || normalise(&e.text) != **a)
            {
                return Some(if k >= actual.len() {
                    format!(
                        "doc line {} expects `{}`, but the output ended after {} lines",
                        e.number,
                        e.text,
                        actual.len()
                    )
                } else {
                    format!(
                        "doc line {}:\n    expected: {}\n    printed:  {}",
                        e.number,
                        normalise(&e.text),
                        a
                    )
                });
            }
            at = piece.len();
            if last == 0 && actual.len() > at {
                return Some(format!(
                    "the output goes on after the block's last line (doc line {}): `{}`",
                    piece.last().map_or(0, |l| l.number),
                    actual[at]
                ));
            }
        } else if p == last {
            // The last piece is where the output ends.
            let start = actual.len().checked_sub(piece.len()).filter(|s| *s >= at);
            if !start.is_some_and(fits) {
                let first = piece.first().map_or(0, |l| l.number);
                // The first line that differs, the piece set against the end.
                let differs = start.and_then(|s| {
                    piece
                        .iter()
                        .zip(&actual[s..])
                        .find(|(e, a)| normalise(&e.text) != **a)
                });
                return Some(match differs {
                    Some((e, a)) => format!(
                        "doc lines {first}.. (after a `…`) are not how the output ends; doc line {}:\n    expected: {}\n    printed:  {}",
                        e.number,
                        normalise(&e.text),
                        a
                    ),
                    None => format!(
                        "doc lines {first}.. (after a `…`) are not how the output ends: it is too short"
                    ),
                });
            }
        } else {
            match (at..=actual.len()).find(|s| fits(*s)) {
                Some(s) => at = s + piece.len(),
                None => {
                    return Some(format!(
                        "doc lines {}..{} (after a `…`) are nowhere in the rest of the output",
                        piece[0].number,
                        piece[piece.len() - 1].number
                    ))
                }
            }
        }
    }
    None
}

/// Runs `levelgraph args` in `dir` to the end, standard output and error
/// into one file as on a terminal: its exit code and what it printed.
fn run_to_end(dir: &Path, log: &Path, args: &[String]) -> (Option<i32>, String) {
    let file = fs::File::create(log).unwrap();
    let status = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    (status.code(), fs::read_to_string(log).unwrap())
}

/// Starts the server `levelgraph args --port 0` in `dir`, waits (a minute
/// at most) until it has printed `lines` lines, stops it and returns them
/// with the port it printed replaced by `port`, checking first that `port`
/// is `serve`'s default.
fn run_server(dir: &Path, log: &Path, args: &[String], lines: usize, port: &str) -> String {
    let help = common::run(&["serve", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(&format!("[default: {port}]")),
        "the tutorial's `serve` prints port {port}, which is not serve's default:\n{help}"
    );
    let file = fs::File::create(log).unwrap();
    let mut child = Command::new(BIN)
        .args(args)
        .args(["--port", "0"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut text = String::new();
    loop {
        text.clear();
        fs::File::open(log)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        let exited = child.try_wait().unwrap().is_some();
        if text.matches('\n').count() >= lines || exited || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    // `127.0.0.1:PORT/` with the port it picked.
    match text.find("127.0.0.1:") {
        Some(at) => {
            let from = at + "127.0.0.1:".len();
            let to = from
                + text[from..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(text.len() - from);
            format!("{}{port}{}", &text[..from], &text[to..])
        }
        None => text,
    }
}

/// Runs the tutorial's console blocks of the kinds `kinds`, in order, in
/// one scratch folder; returns how many commands ran. Panics with every
/// mismatch, each naming its section, block and doc line.
fn run_blocks(kinds: &[Kind]) -> usize {
    let text = tutorial();
    let blocks = console_blocks(&text);
    assert_eq!(
        blocks.len(),
        BLOCKS.len(),
        "docs/tutorial.md has {} ```console blocks, the table in tests/tutorial.rs {}: give each block its grammar there",
        blocks.len(),
        BLOCKS.len()
    );
    let scratch = scratch(
        &format!("{kinds:?}")
            .to_lowercase()
            .replace([' ', ',', '[', ']'], ""),
    );
    let dir = scratch.join("work");
    fs::create_dir_all(&dir).unwrap();
    let log = scratch.join("printed.txt");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (n, (block, want)) in blocks.iter().zip(&BLOCKS).enumerate() {
        let name = format!(
            "docs/tutorial.md, console block {} (line {}) in \"{}\"",
            n + 1,
            block.line,
            block.heading.trim_start_matches("## ")
        );
        assert!(
            block.heading.starts_with(want.section),
            "{name}: the table in tests/tutorial.rs expects it in section \"{}\"",
            want.section
        );
        assert_eq!(
            block.commands.len(),
            want.commands,
            "{name}: the number of commands"
        );
        if !kinds.contains(&want.kind) {
            continue;
        }
        if let Some((example, saved_as)) = want.grammar {
            let from = root().join("examples").join(example);
            fs::copy(&from, dir.join(saved_as))
                .unwrap_or_else(|e| panic!("{name}: {}: {e}", from.display()));
        }
        for command in &block.commands {
            let expected = &command.output;
            let printed = match want.kind {
                Kind::Server => {
                    let port = expected
                        .iter()
                        .find_map(|l| l.text.split("127.0.0.1:").nth(1))
                        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                        .unwrap_or_else(|| panic!("{name}: no address in the block"));
                    run_server(&dir, &log, &command.args, expected.len(), port)
                }
                Kind::Quick | Kind::Analyze => {
                    let (code, printed) = run_to_end(&dir, &log, &command.args);
                    let error = expected.iter().any(|l| l.text.starts_with("error:"));
                    if error == (code == Some(0)) {
                        failures.push(format!(
                            "{name}, `{}` (doc line {}): exit code {code:?}, but the block shows {}\n{printed}",
                            command.line.text,
                            command.line.number,
                            if error { "an error" } else { "no error" },
                        ));
                    }
                    printed
                }
            };
            ran += 1;
            let actual: Vec<String> = printed.lines().map(normalise).collect();
            if let Some(why) = mismatch(expected, &actual) {
                let mut report = format!(
                    "{name}, `{}` (doc line {}): {why}\n  the block shows (normalised):\n",
                    command.line.text, command.line.number
                );
                for l in expected {
                    report.push_str(&format!("    {:>4} | {}\n", l.number, normalise(&l.text)));
                }
                report.push_str("  the command printed (normalised):\n");
                for a in &actual {
                    report.push_str(&format!("         | {a}\n"));
                }
                failures.push(report);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the tutorial's printed output is not what levelgraph prints now; fix docs/tutorial.md (and the numbers in its prose):\n\n{}",
        failures.join("\n")
    );
    ran
}

/// Every console block but `analyze`'s: sections 1, 2, 3, 8 and 10.
#[test]
fn tutorial_commands_print_what_the_tutorial_shows() {
    assert_eq!(
        run_blocks(&[Kind::Quick, Kind::Server]),
        8,
        "commands run (7 to the end, 1 server)"
    );
}

/// Section 9's `analyze` blocks, over the doc's own 10,000 seeds: about
/// 14 s of a debug build on two cores (the derivations, and the plots a
/// debug build draws slowly), so a test of its own runs beside the rest.
#[test]
fn tutorial_analyze_blocks() {
    assert_eq!(run_blocks(&[Kind::Analyze]), 3, "analyze commands run");
}

/// The grammars the tutorial lists (whole in section 1, in part in
/// sections 2 and 3) are in the example files the blocks run: each
/// listing's lines, blank and `…` lines left out, appear in its file in
/// order; each file in examples/tutorial/ starts with a comment naming its
/// section.
#[test]
fn tutorial_listings_are_in_the_example_files() {
    let listings = fenced(&tutorial(), "lg");
    let files = [
        ("## 1. A chain of rooms", "tutorial/01-chain.lg"),
        ("## 2. Keys and locks", "tutorial/02-undirected-keys.lg"),
        ("## 3. Keys before locks", "lock-and-key.lg"),
    ];
    let mut checked = 0;
    for (heading, line, lines) in &listings {
        let Some((_, example)) = files.iter().find(|(h, _)| heading.starts_with(h)) else {
            continue;
        };
        checked += 1;
        let text = fs::read_to_string(root().join("examples").join(example)).unwrap();
        if let Some(step) = example.strip_prefix("tutorial/") {
            let section = heading.trim_start_matches("## ").split('.').next().unwrap();
            assert!(
                text.lines().next().is_some_and(
                    |l| l.starts_with('#') && l.contains(&format!("section {section} "))
                ),
                "examples/tutorial/{step} does not start with a comment naming section {section}"
            );
        }
        let mut file = text.lines().map(str::trim);
        for l in lines {
            let want = l.text.trim();
            if want.is_empty() || is_ellipsis(want) {
                continue;
            }
            assert!(
                file.any(|f| f == want),
                "docs/tutorial.md:{}: `{want}` (listing at line {line}) is not in examples/{example} where the listing has it",
                l.number
            );
        }
    }
    assert_eq!(checked, 3, "listings of sections 1 to 3");
}

#[test]
fn normalising_and_matching() {
    assert_eq!(
        normalise("derived in 0.10 ms (6.04 ms in all) -> out  "),
        "derived in <time> (<time> in all) -> out"
    );
    assert_eq!(
        normalise("10000 seeds, in 6.28 s (1592 levels/s) -> r"),
        "10000 seeds, in <time> (<rate>) -> r"
    );
    assert_eq!(
        normalise("hash dab2ca3dc66f1f16, 20 steps"),
        "hash dab2ca3dc66f1f16, 20 steps"
    );
    let doc = |lines: &[&str]| -> Vec<DocLine> {
        lines
            .iter()
            .enumerate()
            .map(|(i, t)| DocLine {
                number: i + 1,
                text: (*t).to_owned(),
            })
            .collect()
    };
    let out = |lines: &[&str]| -> Vec<String> { lines.iter().map(|l| (*l).to_owned()).collect() };
    assert!(mismatch(&doc(&["a", "b"]), &out(&["a", "b"])).is_none());
    assert!(mismatch(&doc(&["a", "b"]), &out(&["a", "c"])).is_some());
    assert!(mismatch(&doc(&["a"]), &out(&["a", "b"])).is_some());
    assert!(mismatch(&doc(&["a", "b"]), &out(&["a"])).is_some());
    assert!(mismatch(&doc(&["a", "  …", "d"]), &out(&["a", "b", "c", "d"])).is_none());
    assert!(mismatch(&doc(&["a", "…", "d"]), &out(&["a", "d"])).is_none());
    assert!(mismatch(
        &doc(&["a", "…", "c", "…", "e"]),
        &out(&["a", "b", "c", "d", "e"])
    )
    .is_none());
    assert!(mismatch(
        &doc(&["a", "…", "x", "…", "e"]),
        &out(&["a", "b", "c", "d", "e"])
    )
    .is_some());
    assert!(mismatch(&doc(&["a", "…", "d"]), &out(&["a", "b", "c"])).is_some());
}
