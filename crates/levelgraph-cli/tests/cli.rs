//! The `levelgraph` command as a user runs it: exit codes, files written,
//! "bad input writes nothing", determinism and golden outputs.
//!
//! Golden files live in `tests/golden/`; after an intended format change,
//! rerun with `UPDATE_GOLDEN=1` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's one golden-file helper, shared with the library's tests.
#[path = "../../levelgraph/tests/suite/common/golden.rs"]
mod golden;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

#[path = "support/common.rs"]
mod common;
use common::{run, scratch, BIN};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Sorted names of the entries of `dir`.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file `generate` writes by default.
const ALL_FILES: [&str; 5] = [
    "mission.dot",
    "mission.graphml",
    "mission.json",
    "mission.svg",
    "mission.txt",
];

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn generate_default_writes_five_files_and_a_summary() {
    let dir = scratch("default");
    let out = dir.join("out");
    let o = run(&["generate", "--seed", "7", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(listing(&out), ALL_FILES);
    let line = stdout(&o);
    assert!(line.starts_with("keys-and-cycles: "), "{line}");
    for part in [
        "vertices",
        "edges",
        "applications",
        "stopped: no rule applies",
        ", derived in ",
        " in all) -> ",
    ] {
        assert!(line.contains(part), "summary lacks {part:?}: {line}");
    }
    assert_eq!(line.lines().count(), 1);
    let (derived, in_all) = summary_times(&line);
    assert!(
        in_all >= derived && in_all > 0.0,
        "the whole command takes at least the derivation's time: {line}"
    );
}

/// The two times of a `generate` summary line, in milliseconds: the
/// derivation's and the whole command's (`derived in 0.18 ms (9.70 ms in
/// all) -> …`; a time of a second or more is in seconds).
fn summary_times(line: &str) -> (f64, f64) {
    let millis = |t: &str| -> f64 {
        match t.split_once(' ') {
            Some((n, "ms")) => n.parse().unwrap(),
            Some((n, "s")) => n.parse::<f64>().unwrap() * 1e3,
            _ => panic!("not a time: {t:?} in {line}"),
        }
    };
    let rest = line.split_once(", derived in ").expect("derived in").1;
    let (derived, rest) = rest.split_once(" (").expect("(");
    let in_all = rest.split_once(" in all) -> ").expect("in all").0;
    (millis(derived), millis(in_all))
}

#[test]
fn same_seed_same_bytes_other_seed_other_level() {
    let dir = scratch("determinism");
    let outs: Vec<PathBuf> = ["a", "b", "c"].iter().map(|n| dir.join(n)).collect();
    for (out, seed) in outs.iter().zip(["11", "11", "12"]) {
        let o = run(&["generate", "--seed", seed, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    for f in ALL_FILES {
        let a = fs::read(outs[0].join(f)).unwrap();
        assert_eq!(
            a,
            fs::read(outs[1].join(f)).unwrap(),
            "{f} differs for one seed"
        );
        assert_ne!(
            a,
            fs::read(outs[2].join(f)).unwrap(),
            "{f} equal for two seeds"
        );
    }
}

#[test]
fn golden_outputs_of_the_default_grammar() {
    let dir = scratch("golden");
    let o = run(&["generate", "--seed", "7", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_golden_files(&dir, "default-seed7", &ALL_FILES);
}

/// The geometric derivation's outputs (positions and radii in
/// `mission.json`, circles in `mission.svg`). Also pins the drawing: a
/// change to the forces, placement or finishing that moves any room shows
/// here, so that it is made on purpose and measured (BENCHMARKS.md,
/// geometric derivation). The default spring is the sigmoid, whose
/// arithmetic (`+ − × ÷ √`) is exact IEEE 754 on every platform.
#[test]
fn golden_outputs_of_a_geometric_derivation() {
    let dir = scratch("golden-geometric");
    let o = run(&[
        "generate",
        "--geometric",
        "--seed",
        "7",
        "--formats",
        "json,svg",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_golden_files(
        &dir,
        "default-geometric-seed7",
        &["mission.json", "mission.svg"],
    );
}

#[test]
fn examples_generate_and_check_clean() {
    let dir = scratch("examples");
    let mut n = 0;
    let mut rooms = 0;
    for entry in fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "lg") {
            continue;
        }
        n += 1;
        let p = path.to_str().unwrap();
        let o = run(&["check", p]);
        assert_eq!(o.status.code(), Some(0), "{p}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("0 errors, 0 warnings"),
            "{p}: {}",
            stdout(&o)
        );
        assert_eq!(stderr(&o), "", "{p}");
        let out = dir.join(path.file_stem().unwrap());
        let o = run(&["generate", p, "--seed", "1", "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{p}: {}", stderr(&o));
        // A grammar with a rooms block is laid out as well.
        let text = fs::read_to_string(&path).unwrap();
        let mut expected: Vec<&str> = ALL_FILES.to_vec();
        if text.lines().any(|l| l.trim_start().starts_with("rooms {")) {
            expected.extend([
                "layout.json",
                "layout.svg",
                "level.png",
                "level.tmj",
                "level-tileset.png",
            ]);
            rooms += 1;
        }
        expected.sort_unstable();
        assert_eq!(listing(&out), expected, "{p}");
    }
    assert!(rooms >= 1, "expected an example grammar with a rooms block");
    assert!(
        n >= 2,
        "expected the example grammars in {}",
        examples().display()
    );
}

/// Header settings are located by line and column in a text grammar, and
/// a leading byte-order mark is skipped without moving the columns.
#[test]
fn header_errors_and_byte_order_marks_are_located_by_line_and_column() {
    let dir = scratch("header");
    let tail = "tags { s room }\nrule start { (a:s) => (a:room) }\n";
    let minmax = write(
        &dir,
        "minmax.lg",
        &format!("grammar \"mm\" {{\n  min_vertices 50\n  max_vertices 40\n}}\n{tail}"),
    );
    let empty = write(&dir, "empty.lg", "");
    let grid = write(
        &dir,
        "grid.lg",
        "grammar \"g\" {\n  grid 0 x 9 of n\n}\ntags { n }\nrule r { (a:n @0,0) => (a:n) }\n",
    );
    let bom = write(
        &dir,
        "bom.lg",
        &format!("\u{feff}grammar \"b\" {{ min_vertices 5 max_vertices 4 }}\n{tail}"),
    );
    for (file, at, message) in [
        (
            &minmax,
            "minmax.lg:2:3",
            "min_vertices 50 is greater than max_vertices 40",
        ),
        (
            &empty,
            "empty.lg:1:1",
            "the grammar is empty: it has no `tags` block and no rules",
        ),
        (&grid, "grid.lg:2:3", "the grid 0 x 9 is empty"),
        (
            &bom,
            "bom.lg:1:15",
            "min_vertices 5 is greater than max_vertices 4",
        ),
    ] {
        let o = run(&["check", file]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        let err = stderr(&o);
        assert!(err.contains(&format!("{at} ]")), "no {at} in {err}");
        assert!(err.contains(message), "{err}");
        assert!(!err.contains("(at "), "a field path in {err}");
    }
    // Multi-byte characters before the span: the column counts characters
    // and the underline sits under `min_vertices` (ariadne read the byte
    // offsets as character offsets: column 20, three characters right).
    let accents = write(
        &dir,
        "accents.lg",
        &format!("\u{feff}grammar \"ééé\" {{ min_vertices 5 max_vertices 4 }}\n{tail}"),
    );
    let o = run(&["check", &accents]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("accents.lg:1:17 ]"), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let source = lines
        .iter()
        .position(|l| l.contains("grammar \"ééé\""))
        .unwrap_or_else(|| panic!("no source line in {err}"));
    let column = |line: &str, pat: &str| line[..line.find(pat).unwrap()].chars().count();
    assert_eq!(
        column(lines[source], "min_vertices"),
        column(lines[source + 1], "─"),
        "{err}"
    );
    let bom_default = write(
        &dir,
        "bom-default.lg",
        &format!(
            "\u{feff}{}",
            fs::read_to_string(examples().join("default.lg")).unwrap()
        ),
    );
    let o = run(&["check", &bom_default]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn bad_grammar_exits_2_located_and_writes_nothing() {
    let dir = scratch("bad");
    let grammar = write(
        &dir,
        "bad.lg",
        "tags { s room }\nrule start { (a:s) => (a:room) -- (b:rom) }\n",
    );
    // A fresh output folder is not even created...
    let fresh = dir.join("fresh");
    let o = run(&["generate", &grammar, "--out", fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!fresh.exists());
    let err = stderr(&o);
    assert!(err.contains("unknown tag `rom`"), "{err}");
    assert!(err.contains("bad.lg:2:35"), "no file:line:col in {err}");
    assert!(
        err.contains("(a:s) => (a:room) -- (b:rom)"),
        "no source line in {err}"
    );
    assert!(
        err.contains("Help: declare it in the `tags` block"),
        "no hint in {err}"
    );
    assert_eq!(stdout(&o), "");
    // ...and an existing one keeps exactly what it had.
    let existing = dir.join("existing");
    fs::create_dir_all(&existing).unwrap();
    fs::write(existing.join("mission.json"), "old").unwrap();
    let o = run(&["generate", &grammar, "--out", existing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(listing(&existing), ["mission.json"]);
    assert_eq!(
        fs::read_to_string(existing.join("mission.json")).unwrap(),
        "old"
    );
}

#[test]
fn failed_derivation_exits_1_and_writes_nothing() {
    let dir = scratch("failed");
    let grammar = write(
        &dir,
        "small.lg",
        "grammar \"small\" { min_vertices 50 }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule grow max_uses 3 { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }\n",
    );
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!out.exists());
    let err = stderr(&o);
    assert!(
        err.contains("derivation failed: 5 vertices, fewer than min_vertices 50"),
        "{err}"
    );
    assert!(err.contains("start×1, grow×3"), "{err}");
}

#[test]
fn lint_errors_exit_2_and_name_rule_and_line() {
    let dir = scratch("lint");
    let grammar = write(
        &dir,
        "lint.lg",
        "tags { s room }\nrule start { (a:s) => (a:room) -- (b:room) }\nrule back { (a:room) -- (b:room) => (a) -- (b:s) }\n",
    );
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("rule `back`: the start symbol `s` appears on the right-hand side"),
        "{err}"
    );
    assert!(err.contains("lint.lg:3:"), "{err}");
    assert!(stdout(&o).contains("1 error, 0 warnings"), "{}", stdout(&o));
    let out = dir.join("out");
    let o = run(&["generate", &grammar, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

#[test]
fn lint_warnings_keep_exit_0() {
    let dir = scratch("warn");
    let grammar = write(
        &dir,
        "warn.lg",
        "tags { s room boss }\nrule start { (a:s) => (a:room) -- (b:room) }\n",
    );
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("tag `boss` is declared but never produced"));
    assert!(stdout(&o).contains("0 errors, 1 warning"));
}

#[test]
fn usage_errors_and_missing_files_exit_2() {
    let o = run(&["generate", "--seed", "seven"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["check", "/nonexistent/grammar.lg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read grammar /nonexistent/grammar.lg"));
}

#[test]
fn grammar_json_round_trips_through_generate() {
    let dir = scratch("json");
    let o = run(&["grammar-json"]);
    assert_eq!(o.status.code(), Some(0));
    let json = write(&dir, "default.json", &stdout(&o));
    let (a, b) = (dir.join("a"), dir.join("b"));
    let o = run(&[
        "generate",
        &json,
        "--seed",
        "3",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["generate", "--seed", "3", "--out", b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        fs::read(a.join("mission.json")).unwrap(),
        fs::read(b.join("mission.json")).unwrap()
    );
    let bad = write(
        &dir,
        "bad.json",
        "{\"name\": \"x\", \"tags\": [], \"rules\": [",
    );
    let o = run(&["check", &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid grammar JSON"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn grammar_json_keeps_the_place_block() {
    let dir = scratch("place-json");
    let src = "tags { s entrance room goal key lock potion boss }
rule start { (a:s) => (a:entrance) -> (b:room) -> (l:lock) -> (g:goal), (b) -> (k:key), (k) ~> (l) }
play {
  entrance entrance
  goal goal
  key key opens lock via ~>
  directed two_way
}
place {
  keys in room lock first
  item potion count 2..4 in room not with key
  item boss in room distance from goal 1 alone
  every key needed
}
";
    let lg = write(&dir, "place.lg", src);
    let o = run(&["grammar-json", &lg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json = stdout(&o);
    // grammar -> JSON -> load_json: the text's model without its spans.
    let from_json = levelgraph::grammar::load_json(&json).expect("the JSON form loads");
    let from_text = levelgraph::grammar::load(src, "place").unwrap();
    let mut want = from_text.place().expect("a place block").clone();
    want.span = None;
    want.setting_spans = Default::default();
    let statements = [&mut want.keys, &mut want.entrance, &mut want.goal];
    for p in statements.into_iter().flatten().chain(&mut want.items) {
        p.span = None;
        p.spans = Default::default();
    }
    assert_eq!(from_json.place(), Some(&want));
    assert_eq!(from_json.model().to_json(), from_text.model().to_json());
    // The JSON file prints back as itself.
    let js = write(&dir, "place.json", &json);
    let o = run(&["grammar-json", &js]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), json);
}

#[test]
fn formats_option_chooses_the_files() {
    let dir = scratch("formats");
    let out = dir.join("out");
    let o = run(&[
        "generate",
        "--seed",
        "7",
        "--formats",
        "txt,graphml,txt",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(listing(&out), ["mission.graphml", "mission.txt"]);
    // The same bytes as when every file is written.
    let all = dir.join("all");
    let o = run(&["generate", "--seed", "7", "--out", all.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for f in ["mission.graphml", "mission.txt"] {
        assert_eq!(
            fs::read(out.join(f)).unwrap(),
            fs::read(all.join(f)).unwrap(),
            "{f}"
        );
    }
    let o = run(&[
        "generate",
        "--formats",
        "png",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

/// A grammar whose rules match a finished level of the default grammar:
/// each treasure room gets an annex, twice at most.
const ANNEX: &str = "grammar \"annex\" { min_vertices 1 max_vertices 60 }\n\
    tags { s entrance frontier room goal key lock treasure }\n\
    rule start { (a:s) => (a:room) }\n\
    rule annex max_uses 2 { (a:treasure) => (a) -- (x:room) }\n";

#[test]
fn host_round_trip_keeps_the_ids_of_the_host() {
    let dir = scratch("host");
    let first = dir.join("first");
    let o = run(&["generate", "--seed", "7", "--out", first.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let grammar = write(&dir, "annex.lg", ANNEX);
    let host = first.join("mission.json");
    let second = dir.join("second");
    let o = run(&[
        "generate",
        &grammar,
        "--host",
        host.to_str().unwrap(),
        "--seed",
        "1",
        "--out",
        second.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(listing(&second), ALL_FILES);
    assert!(stdout(&o).contains("2 applications"), "{}", stdout(&o));

    let before =
        levelgraph::formats::MissionDoc::from_json(&fs::read_to_string(&host).unwrap()).unwrap();
    let after = levelgraph::formats::MissionDoc::from_json(
        &fs::read_to_string(second.join("mission.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(after.grammar, "annex");
    assert_eq!(after.nodes.len(), before.nodes.len() + 2);
    // Every node of the host is still there with its id and tag, and the
    // two annexes got fresh ids above them.
    for n in &before.nodes {
        assert!(
            after.nodes.contains(n),
            "host node {} lost or changed",
            n.id
        );
    }
    let top = before.nodes.iter().map(|n| n.id).max().unwrap();
    for a in &after.trace {
        assert_eq!(a.rule, "annex");
        assert!(a.created.iter().all(|&id| id > top), "{a:?}");
    }
    // And the host's edges come first, unchanged.
    assert_eq!(after.edges[..before.edges.len()], before.edges[..]);
}

#[test]
fn host_with_an_undeclared_tag_exits_2_naming_the_node() {
    let dir = scratch("host-tag");
    let first = dir.join("first");
    let o = run(&["generate", "--seed", "7", "--out", first.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A grammar without `treasure`.
    let grammar = write(
        &dir,
        "small.lg",
        "tags { s entrance frontier room goal key lock }\nrule start { (a:s) => (a:room) }\n",
    );
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--host",
        first.join("mission.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    let err = stderr(&o);
    let doc = levelgraph::formats::MissionDoc::from_json(
        &fs::read_to_string(first.join("mission.json")).unwrap(),
    )
    .unwrap();
    let (index, node) = doc
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.tag == "treasure")
        .unwrap();
    let want = format!(
        "nodes[{index}] (id {}): tag `treasure` is not declared by the grammar",
        node.id
    );
    assert!(err.contains(&want), "{err}");
    assert!(err.contains("mission.json"), "{err}");
    assert_eq!(stdout(&o), "");
}

/// A host whose nodes are stored in one another 50,000 deep: reading it
/// walked the chain for every node, the picture's drawing walked it again
/// for every node (minutes, both), and deleting the outermost room
/// removed what it stores recursively, overflowing the stack (exit 134).
#[test]
fn host_nested_50000_deep_is_read_drawn_and_deleted() {
    let dir = scratch("host-deep");
    let depth = 50_000;
    let mut nodes = vec![
        r#"{"id": 0, "tag": "room"}"#.to_owned(),
        r#"{"id": 1, "tag": "frontier"}"#.to_owned(),
    ];
    for id in 2..depth {
        let parent = if id == 2 { 0 } else { id - 1 };
        nodes.push(format!(
            r#"{{"id": {id}, "tag": "key", "parent": {parent}}}"#
        ));
    }
    let host = write(
        &dir,
        "host.json",
        &format!(
            r#"{{"format": "levelgraph.mission/1", "grammar": "g", "seed": 0,
                "stop_reason": "no_rule_applies", "stop_detail": "", "applications": 0,
                "nodes": [{}], "edges": []}}"#,
            nodes.join(",")
        ),
    );
    let keep = write(
        &dir,
        "keep.lg",
        "grammar \"keep\" { max_vertices 100000 }\n\
         tags { s room frontier key }\nrule start { (a:s) => (a:room) }\n",
    );
    let out = dir.join("kept");
    let o = run(&[
        "generate",
        &keep,
        "--host",
        &host,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("keep: 50000 vertices"),
        "{}",
        stdout(&o)
    );
    assert_eq!(listing(&out), ALL_FILES);
    let delete = write(
        &dir,
        "delete.lg",
        "grammar \"delete\" { max_vertices 100000 }\n\
         tags { s room frontier key }\nrule start { (a:s) => (a:room) }\n\
         rule drop { (a:room), (b:frontier) => (b) }\n",
    );
    let out = dir.join("deleted");
    let o = run(&[
        "generate",
        &delete,
        "--host",
        &host,
        "--out",
        out.to_str().unwrap(),
        "--formats",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("delete: 1 vertex, 0 edges, "),
        "{}",
        stdout(&o)
    );
}

/// `check` of a grammar with 16,000 warnings: every report used to split
/// the whole file into lines again (8,000 rules: 8 s in a release build,
/// 20,000 rules over 20 s). Its time is measured by `bench/slow-inputs.sh`
/// (BENCHMARKS.md, the CLI end to end), not here.
#[test]
fn check_prints_sixteen_thousand_warnings() {
    let dir = scratch("many-warnings");
    let mut text = String::from("tags { s room }\nrule start { (a:s) => (a:room) }\n");
    for i in 0..8000 {
        text.push_str(&format!(
            "rule r{i} {{ (a:room) => (a:room) -- (b:room) }}\n"
        ));
    }
    let grammar = write(&dir, "many.lg", &text);
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("grammar `many`, 8001 rules, 2 tags: 0 errors, 15999 warnings\n"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("many.lg:8002:6"),
        "the last rule's line"
    );
}

/// `check` says on stderr when the work budget stopped the sampling of
/// levels (`examples_generate_and_check_clean` sees no note for
/// grammars it leaves all 200 seeds). Each level here has 2 vertices and
/// 200,000 steps, nearly all skipped by `probability`: 4,000,000 units of
/// work after 20 seeds.
#[test]
fn check_notes_when_the_budget_stopped_the_terminal_sampling() {
    let dir = scratch("sampling-note");
    let grammar = write(
        &dir,
        "skip.lg",
        "grammar \"skip\" {\n  start s\n  max_iterations 200000\n}\n\
         tags { s a terminal b }\n\
         rule start { (x:s) => (x:a) -- (y:b) }\n\
         rule flip probability 0.001 { (x:a) -- (y:b) => (x:b) -- (y:a) }\n",
    );
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(20 of 20 seeds, first seed 1)"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).ends_with(
            "\nnote: the checks of sampled levels derived 20 of 200 seeds: their levels reached the work budget of 4000000 (vertices and derivation steps, force steps in geometric grammars, and the canonical labelling that counts distinct levels)\n"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stdout(&o),
        // Every level is `a -- b`, one level up to isomorphism.
        format!("{grammar}: 20 sampled seeds: 1 distinct level\n{grammar}: grammar `skip`, 2 rules, 3 tags: 0 errors, 1 warning\n")
    );
}

/// An output folder where one of the files to write is a folder: the files
/// before it were already renamed into place when its rename failed, so
/// the run exited 2 having replaced `mission.json` and `mission.dot`.
#[test]
fn a_folder_in_the_way_of_an_output_file_changes_nothing() {
    let dir = scratch("folder-in-the-way");
    let out = dir.join("out");
    fs::create_dir_all(out.join("mission.svg")).unwrap();
    fs::write(out.join("mission.json"), "old").unwrap();
    let o = run(&["generate", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("mission.svg is a folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&out), ["mission.json", "mission.svg"]);
    assert_eq!(fs::read_to_string(out.join("mission.json")).unwrap(), "old");
}

/// 5,000 tags on one line, each never produced: every warning printed
/// that 40 KB line again, unbuffered (3,000 tags took 14 s). A diagnostic
/// on a line longer than 500 bytes now prints `file:line:col: …` alone.
/// Its time is measured by `bench/slow-inputs.sh`, not here.
#[test]
fn check_warns_about_a_very_long_line_briefly() {
    let dir = scratch("long-line");
    let tags: Vec<String> = (0..5000).map(|i| format!("t{i}")).collect();
    let grammar = write(
        &dir,
        "wide.lg",
        &format!(
            "tags {{ s room {} }}\nrule start {{ (a:s) => (a:room) }}\n",
            tags.join(" ")
        ),
    );
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("0 errors, 5000 warnings\n"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(
        err.contains("wide.lg:1:15: warning: tag `t0` is declared but never produced\n  help: "),
        "{}",
        &err[..err.len().min(2000)]
    );
    assert!(err.contains("wide.lg:1:18: warning: tag `t1` is declared"));
    assert!(err.len() < 1_000_000, "{} bytes of warnings", err.len());
}

#[test]
fn host_with_broken_json_exits_2_and_writes_nothing() {
    let dir = scratch("host-json");
    let host = write(
        &dir,
        "host.json",
        "{\"format\": \"levelgraph.mission/1\", \"nodes\": [",
    );
    let existing = dir.join("existing");
    fs::create_dir_all(&existing).unwrap();
    fs::write(existing.join("mission.json"), "old").unwrap();
    let o = run(&[
        "generate",
        "--host",
        &host,
        "--out",
        existing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid mission JSON"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&existing), ["mission.json"]);
    assert_eq!(
        fs::read_to_string(existing.join("mission.json")).unwrap(),
        "old"
    );
    let fresh = dir.join("fresh");
    let o = run(&[
        "generate",
        "--host",
        "/nonexistent/host.json",
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!fresh.exists());
    assert!(
        stderr(&o).contains("cannot read host graph /nonexistent/host.json"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn geometric_generation_draws_rooms_at_their_positions() {
    let out = scratch("geometric");
    let out_s = out.to_str().unwrap();
    let o = run(&["generate", "--geometric", "--seed", "3", "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("mission.json")).unwrap()).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    assert!(!nodes.is_empty());
    for n in nodes {
        assert!(n["position"].is_array(), "{n}");
        assert!(n["radius"].as_f64().is_some_and(|r| r > 0.0), "{n}");
    }
    // The picture draws each room as a circle of its radius, to scale.
    let svg = fs::read_to_string(out.join("mission.svg")).unwrap();
    let radii: std::collections::BTreeSet<&str> = svg
        .split(" r=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    assert!(radii.len() > 2, "rooms of different sizes: {radii:?}");
    // Same seed, same bytes.
    let again = scratch("geometric-again");
    let o = run(&[
        "generate",
        "--geometric",
        "--seed",
        "3",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for f in ["mission.json", "mission.svg"] {
        assert_eq!(
            fs::read(out.join(f)).unwrap(),
            fs::read(again.join(f)).unwrap(),
            "{f}"
        );
    }
    // A grammar whose header says `geometric` needs no flag.
    let wheel = examples().join("wheel.lg");
    let o = run(&["generate", wheel.to_str().unwrap(), "--out", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::read_to_string(out.join("mission.json"))
        .unwrap()
        .contains("\"radius\""));
}

#[test]
fn geometric_generation_of_a_grid_grammar_is_refused() {
    let out = scratch("geometric-grid");
    let grid = examples().join("grid-dungeon.lg");
    let o = run(&[
        "generate",
        grid.to_str().unwrap(),
        "--geometric",
        "--out",
        out.join("x").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a grid grammar"), "{}", stderr(&o));
    assert!(!out.join("x").exists());
}

fn edgar_map(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levelgraph/tests/data/edgar/maps")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn layout_of_an_edgar_map_writes_json_and_svg_deterministically() {
    let out = scratch("layout");
    let map = edgar_map("example1_corridors.yml");
    let dir = out.to_string_lossy().into_owned();
    let o = run(&["layout", &map, "--seed", "4", "--out", &dir]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(&out), ["layout.json", "layout.svg"]);
    assert!(
        stdout(&o).contains("9 rooms, 22 doors, 11 corridors"),
        "{}",
        stdout(&o)
    );
    let json = fs::read_to_string(out.join("layout.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["format"], "levelgraph.layout/1");
    assert_eq!(doc["rooms"].as_array().unwrap().len(), 9);
    assert_eq!(doc["corridors"].as_array().unwrap().len(), 11);
    assert!(doc["rooms"][0]["template"]
        .as_str()
        .unwrap()
        .starts_with("thesis_"));
    let svg = fs::read_to_string(out.join("layout.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("class=\"doors\""));
    // Same seed, same bytes.
    let again = scratch("layout-again");
    let o = run(&[
        "layout",
        &map,
        "--seed",
        "4",
        "--out",
        &again.to_string_lossy(),
    ]);
    assert!(o.status.success());
    assert_eq!(
        fs::read(again.join("layout.json")).unwrap(),
        json.as_bytes()
    );
}

/// The summary counts in words: one room, one door, no corridors.
#[test]
fn layout_summary_says_one_room_and_one_door_in_the_singular() {
    let out = scratch("layout-singular");
    let rooms = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levelgraph/tests/data/edgar/rooms");
    let rooms = rooms.to_string_lossy();
    for (name, map, said) in [
        (
            "one",
            "roomsRange:\n  from: 0\n  to: 0\npassages: []\n",
            "1 room, 0 doors, 0 corridors, ",
        ),
        (
            "two",
            "roomsRange:\n  from: 0\n  to: 1\npassages:\n  - [0,1]\n",
            "2 rooms, 1 door, 0 corridors, ",
        ),
    ] {
        let path = out.join(format!("{name}.yml"));
        fs::write(
            &path,
            format!("{map}defaultRoomShapes:\n  - setName: thesis_basic\n"),
        )
        .unwrap();
        let dir = out.join(name);
        let o = run(&[
            "layout",
            &path.to_string_lossy(),
            "--rooms",
            &rooms,
            "--out",
            &dir.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains(said), "{name}: {}", stdout(&o));
    }
}

#[test]
fn layout_bad_input_exits_2_and_a_limit_exits_1_writing_nothing() {
    let out = scratch("layout-bad");
    let dir = out.join("never").to_string_lossy().into_owned();
    // Neither a YAML map nor a mission graph.
    let level = write(&out, "level.txt", "not a map\n");
    let mission = write(&out, "mission.json", "{}\n");
    let o = run(&["layout", &level, "--out", &dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("Edgar-DotNet YAML map"),
        "{}",
        stderr(&o)
    );
    // A mission graph without the grammar that says which rooms to use.
    let o = run(&["layout", &mission, "--out", &dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs --grammar"), "{}", stderr(&o));
    // A grammar without a rooms block.
    let default = examples().join("default.lg");
    let o = run(&[
        "layout",
        &mission,
        "--grammar",
        default.to_str().unwrap(),
        "--out",
        &dir,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no `rooms` block"), "{}", stderr(&o));
    // A room outside the range, located in the file.
    let map = write(
        &out,
        "bad.yml",
        "roomsRange:\n  from: 0\n  to: 2\npassages:\n  - [0,1]\n  - [1,7]\ndefaultRoomShapes:\n  -\n    setName: thesis_basic\n",
    );
    let rooms = Path::new(&edgar_map("x"))
        .parent()
        .unwrap()
        .join("../rooms");
    let rooms = rooms.to_string_lossy().into_owned();
    let o = run(&["layout", &map, "--rooms", &rooms, "--out", &dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("passages[1]"), "{}", stderr(&o));
    // Too few iterations: exit 1, the limit named, nothing written.
    let o = run(&[
        "layout",
        &edgar_map("example2_basic.yml"),
        "--max-iterations",
        "50",
        "--out",
        &dir,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("max_iterations 50"), "{}", stderr(&o));
    assert!(!Path::new(&dir).exists());
}

#[test]
fn golden_layout_of_edgar_example1_with_corridors() {
    let dir = scratch("golden-layout");
    let map = edgar_map("example1_corridors.yml");
    let o = run(&[
        "layout",
        &map,
        "--seed",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_golden_files(
        &dir,
        "layout-example1-corridors-seed1",
        &["layout.json", "layout.svg"],
    );
}

#[test]
fn generate_lays_out_a_grammar_with_rooms_and_layout_reads_its_mission_back() {
    let out = scratch("rooms");
    let grammar = examples().join("dungeon-rooms.lg");
    let g = grammar.to_str().unwrap();
    let o = run(&["generate", g, "--seed", "7", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json = fs::read_to_string(out.join("layout.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mission: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("mission.json")).unwrap()).unwrap();
    // One room per vertex, named by its id, with its tag.
    let rooms = doc["rooms"].as_array().unwrap();
    let nodes = mission["nodes"].as_array().unwrap();
    assert_eq!(rooms.len(), nodes.len());
    for (room, node) in rooms.iter().zip(nodes) {
        assert_eq!(room["id"], node["id"].to_string());
        assert_eq!(room["tag"], node["tag"]);
    }
    // `layout` on the written mission graph gives the same layout.
    let again = scratch("rooms-again");
    let o = run(&[
        "layout",
        out.join("mission.json").to_str().unwrap(),
        "--grammar",
        g,
        "--seed",
        "7",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let relaid: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(again.join("layout.json")).unwrap()).unwrap();
    assert_eq!(relaid["rooms"], doc["rooms"]);
    assert_eq!(relaid["doors"], doc["doors"]);
}

/// `generate` and `tiles` share the default folder `out`: each Tiled map
/// must find its own tile set beside it (the two differ in tile count),
/// whichever command ran last.
#[test]
fn generate_and_tiles_in_one_folder_keep_their_own_tile_sets() {
    let out = scratch("shared-folder");
    let grammar = examples().join("dungeon-rooms.lg");
    let o = run(&[
        "generate",
        grammar.to_str().unwrap(),
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["tiles", "caves", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for map in ["level.tmj", "map.tmj"] {
        let tmj: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join(map)).unwrap()).unwrap();
        let tileset = &tmj["tilesets"][0];
        let image = tileset["image"].as_str().unwrap();
        let png = fs::read(out.join(image)).unwrap();
        // PNG header: the width is the big-endian u32 at bytes 16..20.
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let tile = tileset["tilewidth"].as_u64().unwrap() as u32;
        assert_eq!(
            u64::from(width / tile),
            tileset["tilecount"].as_u64().unwrap(),
            "{map}: {image}"
        );
    }
}

#[test]
fn generate_writes_the_laid_out_level_as_a_tiled_map() {
    let out = scratch("level-tiles");
    let grammar = examples().join("dungeon-rooms.lg");
    let o = run(&[
        "generate",
        grammar.to_str().unwrap(),
        "--seed",
        "7",
        "--formats",
        "tiles",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        listing(&out),
        ["level-tileset.png", "level.png", "level.tmj"]
    );
    let tmj: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("level.tmj")).unwrap()).unwrap();
    let (w, h) = (
        tmj["width"].as_u64().unwrap(),
        tmj["height"].as_u64().unwrap(),
    );
    let layers = tmj["layers"].as_array().unwrap();
    assert_eq!(layers[0]["data"].as_array().unwrap().len() as u64, w * h);
    let objects = layers[1]["objects"].as_array().unwrap();
    let count = |t: &str, point: bool| {
        objects
            .iter()
            .filter(|o| o["type"] == t && o["point"].as_bool().unwrap_or(false) == point)
            .count()
    };
    // The level's rooms by tag and its doors; a key object in each key
    // room, a lock object on each door of each lock room.
    assert_eq!(count("entrance", false), 1);
    assert_eq!(count("goal", false), 1);
    assert!(count("door", false) > 0);
    assert!(count("key", false) > 0, "seed 7 has keys");
    assert_eq!(count("key", true), count("key", false));
    assert!(count("lock", true) >= count("lock", false));
    assert_eq!(tmj["tilesets"][0]["image"], "level-tileset.png");
    let png = fs::read(out.join("level.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

/// A level wider than 2048 tiles: `level.png` at a fixed 8 pixels per tile
/// was wider than a PNG may be, and `generate` failed with exit 2 naming
/// `--cell-px`, a flag it does not have. It now uses fewer pixels per tile.
#[test]
fn generate_draws_a_level_wider_than_2048_tiles() {
    let dir = scratch("wide-level");
    let grammar = write(
        &dir,
        "long.lg",
        "grammar \"long\" { start s }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rooms {\n  template long (0,0) (1100,0) (1100,4) (0,4) no_rotate\n  use *: long\n}\n",
    );
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--formats",
        "tiles",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let tmj: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("level.tmj")).unwrap()).unwrap();
    let tiles_wide = tmj["width"].as_u64().unwrap();
    assert!(tiles_wide > 2048, "{tiles_wide}");
    let png = fs::read(out.join("level.png")).unwrap();
    let px_wide = u64::from(u32::from_be_bytes(png[16..20].try_into().unwrap()));
    assert!(px_wide <= 16384 && px_wide % tiles_wide == 0, "{px_wide}");
    assert_eq!(px_wide / tiles_wide, 16384 / tiles_wide);
}

/// Rooms a million grid units across cannot become a tile map at any
/// `tile_scale`; the message said "use a smaller scale" even at the
/// smallest. It now says so and names the largest scale when one fits.
#[test]
fn generate_names_a_tile_scale_that_fits_or_says_none_does() {
    let dir = scratch("tile-scale-hint");
    let block = |side: u32, scale: u32| {
        format!(
            "grammar \"big\" {{ start s }}\ntags {{ s room }}\n\
             rule start {{ (a:s) => (a:room) -- (b:room) }}\n\
             rooms {{\n  template sq (0,0) ({side},0) ({side},{side}) (0,{side})\n  \
             tile_scale {scale}\n  use *: sq\n}}\n"
        )
    };
    for (side, scale, hint) in [
        (
            1_000_000,
            1,
            "too large for a tile map at any scale: use smaller room templates, or leave the tile map out",
        ),
        (1000, 64, "use a scale of at most "),
    ] {
        let grammar = write(&dir, "big.lg", &block(side, scale));
        let out = dir.join("out");
        let o = run(&["generate", &grammar, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        // The grammar's setting, where the grammar writes it.
        let at = format!("big.lg:6:3: tile_scale {scale} in the `rooms` block: ");
        assert!(stderr(&o).contains(&at), "{}", stderr(&o));
        assert!(stderr(&o).contains(hint), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

/// A door the grammar's `tile_scale` closes is reported as that setting,
/// at its line in the grammar, with points as the grammar writes them.
#[test]
fn a_tile_scale_that_closes_a_door_names_the_grammar_line() {
    let dir = scratch("closed-door");
    let text = fs::read_to_string(examples().join("dungeon-rooms.lg"))
        .unwrap()
        .replacen("door 2 corner 1", "door 1 corner 0", 1);
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim() == "tile_scale 1")
        .expect("the example sets tile_scale 1");
    let column = line.find("tile_scale").unwrap() + 1;
    let grammar = write(&dir, "that.lg", &text);
    let out = dir.join("out");
    let o = run(&["generate", &grammar, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    let at = format!(
        "that.lg:{}:{column}: tile_scale 1 in the `rooms` block: the door of room ",
        index + 1
    );
    assert!(err.contains(&at), "{err}");
    assert!(
        err.contains(
            " is one grid unit long, which leaves no door tile at 1 tile per grid unit; use a scale of 2 or more"
        ),
        "{err}"
    );
    assert!(
        !err.contains("GridPoint") && !err.contains("`scale`"),
        "{err}"
    );
    assert!(!out.exists());
}

/// Caves too small for the automaton are refused by name (exit 2); a
/// search that runs out says which limit stopped it, after how many
/// starts, and why they failed (exit 1).
#[test]
fn caves_refuse_maps_too_small_and_say_what_stopped_a_search() {
    let out = scratch("caves-limits");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &["--width", "3", "--height", "3", "--floor-ratio", "0"],
            2,
            "error: caves: invalid parameter `width`: 3 is too small for the automaton",
        ),
        (
            &["--height", "3"],
            2,
            "error: caves: invalid parameter `height`: 3 is too small for the automaton",
        ),
        (
            &["--floor-chance", "1"],
            1,
            "error: caves: floor_chance 1 (after 1 of max_tries 100 starts) reached without success: \
             the best floor ratio in the only start was 0.0558, below floor_ratio 0.2 (floor_chance 1)",
        ),
        (
            &["--width", "6", "--height", "4", "--floor-ratio", "0"],
            1,
            "error: caves: floor_chance 1 (after 36 of max_tries 100 starts) reached without success: \
             no floor cell survived in all 36 starts (floor_chance rose from 0.65 to 1.00)",
        ),
    ];
    for (args, code, message) in cases {
        let mut all = vec!["tiles", "caves", "--out", o];
        all.extend_from_slice(args);
        let r = run(&all);
        assert_eq!(r.status.code(), Some(code), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).starts_with(message), "{args:?}: {}", stderr(&r));
    }
    // Without iterations a 3 × 3 map is its random fill.
    let r = run(&[
        "tiles",
        "caves",
        "--out",
        o,
        "--width",
        "3",
        "--height",
        "3",
        "--floor-ratio",
        "0",
        "--floor-chance",
        "1",
        "--wall-add-iterations",
        "0",
        "--no-wall-add-iterations",
        "0",
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
}

#[test]
fn tiles_runs_each_generator_and_writes_every_format() {
    for generator in ["rooms", "accretion", "caves"] {
        let out = scratch(&format!("tiles-{generator}"));
        let o = run(&[
            "tiles",
            generator,
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{generator}: {}", stderr(&o));
        assert_eq!(
            listing(&out),
            [
                "map-tileset.png",
                "map.csv",
                "map.png",
                "map.tmj",
                "map.tmx",
                "map.txt",
            ],
            "{generator}"
        );
        let summary = stdout(&o);
        assert!(
            summary.starts_with(&format!("{generator}: 80 × 50, floor "))
                && summary.contains(" 1 region, "),
            "{summary}"
        );
        // Same seed, same bytes; the ASCII map has 50 lines of 80.
        let again = scratch(&format!("tiles-{generator}-again"));
        run(&[
            "tiles",
            generator,
            "--seed",
            "3",
            "--out",
            again.to_str().unwrap(),
        ]);
        for f in listing(&out) {
            assert_eq!(
                fs::read(out.join(&f)).unwrap(),
                fs::read(again.join(&f)).unwrap()
            );
        }
        let txt = fs::read_to_string(out.join("map.txt")).unwrap();
        assert_eq!(txt.lines().count(), 50);
        assert!(txt.lines().all(|l| l.chars().count() == 80));
    }
}

#[test]
fn tiles_parameters_are_checked_and_limits_reported() {
    let out = scratch("tiles-bad");
    let target = out.join("never");
    let t = target.to_str().unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["tiles", "caves", "--floor-chance", "2"],
            2,
            "invalid parameter `floor_chance`",
        ),
        (
            &["tiles", "accretion", "--steps", "1000001"],
            2,
            "invalid parameter `steps`",
        ),
        (
            &["tiles", "rooms", "--width", "0"],
            2,
            "invalid parameter `width`",
        ),
        (&["tiles", "rooms", "--cell-px", "0"], 2, "--cell-px"),
        (
            &["tiles", "caves", "--floor-ratio", "0.9", "--max-tries", "2"],
            1,
            "max_tries",
        ),
        (&["tiles", "mazes"], 2, "unrecognized subcommand"),
    ];
    for (args, code, message) in cases {
        let mut args = args.to_vec();
        args.extend(["--out", t]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!target.exists(), "{args:?} wrote {}", target.display());
    }
}

/// Compares `files` in `dir` with `tests/golden/NAME/`, or writes them
/// there with `UPDATE_GOLDEN=1` (the library's helper, [`golden`]).
#[track_caller]
fn assert_golden_files(dir: &Path, name: &str, files: &[&str]) {
    for f in files {
        let got = fs::read(dir.join(f)).unwrap();
        golden::assert_golden(&format!("{name}/{f}"), &got);
    }
}

#[test]
fn a_rooms_block_loads_edgar_room_sets_relative_to_the_grammar() {
    let dir = scratch("rooms-load");
    // The grammar sits beside a copy of Edgar's room sets, named relatively.
    let sets = dir.join("sets");
    fs::create_dir_all(&sets).unwrap();
    let edgar = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levelgraph/tests/data/edgar/rooms");
    for name in ["thesis_basic.yml", "thesis_advanced.yml"] {
        fs::copy(edgar.join(name), sets.join(name)).unwrap();
    }
    let default = fs::read_to_string(examples().join("default.lg")).unwrap();
    let grammar = write(
        &dir,
        "g.lg",
        &format!(
            "{default}\nrooms {{\n  load \"sets\"\n  set big: thesis_basic thesis_advanced\n  use goal: \"thesis_basic/12-18-rectangle\"\n  use *: big\n}}\n"
        ),
    );
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("layout.json")).unwrap()).unwrap();
    for room in doc["rooms"].as_array().unwrap() {
        let template = room["template"].as_str().unwrap();
        assert!(template.starts_with("thesis_"), "{template}");
        if room["tag"] == "goal" {
            assert_eq!(template, "thesis_basic/12-18-rectangle");
        }
    }
    // A set name that no loaded file has: exit 2, named, nothing written.
    let bad = write(
        &dir,
        "bad.lg",
        &format!("{default}\nrooms {{\n  load \"sets\"\n  use *: nowhere\n}}\n"),
    );
    let never = dir.join("never");
    let o = run(&[
        "generate",
        &bad,
        "--seed",
        "3",
        "--out",
        never.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown template or set `nowhere`"),
        "{}",
        stderr(&o)
    );
    assert!(!never.exists());
    // A load path that does not exist: exit 2, the path named.
    let missing = write(
        &dir,
        "missing.lg",
        &format!("{default}\nrooms {{\n  load \"no-such.yml\"\n  use *: x\n}}\n"),
    );
    let o = run(&[
        "generate",
        &missing,
        "--seed",
        "3",
        "--out",
        never.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such.yml"), "{}", stderr(&o));
    // At the `load` line: the default grammar's lines, the blank line and
    // `rooms {`, then the `load`, whose word starts at column 3.
    let load_line = default.lines().count() + 3;
    assert!(
        stderr(&o).contains(&format!("missing.lg:{load_line}:3")),
        "{}",
        stderr(&o)
    );
    // `load` of a device is refused unread (`/dev/zero` would never end).
    if Path::new("/dev/zero").exists() {
        let zero = write(
            &dir,
            "zero.lg",
            &format!("{default}\nrooms {{\n  load \"/dev/zero\"\n  use *: x\n}}\n"),
        );
        let o = run(&["generate", &zero, "--out", never.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    assert!(!never.exists());
}

/// Input files: a byte that is not UTF-8 is named at its line and column;
/// a folder or device is refused before anything is read.
#[test]
fn unreadable_inputs_are_named_and_located() {
    let dir = scratch("unreadable");
    let latin1 = dir.join("latin1.lg");
    fs::write(
        &latin1,
        b"tags { s room }\nrule a { (x:s) => (x:caf\xe9) }\n".as_slice(),
    )
    .unwrap();
    let o = run(&["check", latin1.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("latin1.lg:2:25: byte 0xe9 is not UTF-8 text"),
        "{}",
        stderr(&o)
    );
    let out = dir.join("never");
    let o = run(&[
        "generate",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    if Path::new("/dev/zero").exists() {
        let o = run(&[
            "generate",
            "--host",
            "/dev/zero",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    assert!(!out.exists());
}

#[test]
fn layout_time_limits_out_of_range_exit_2() {
    let map = edgar_map("example1_basic.yml");
    for limit in ["1e30", "0", "-1", "NaN"] {
        let flag = format!("--time-limit={limit}");
        let o = run(&["layout", &map, &flag, "--out", "/nonexistent/never"]);
        assert_eq!(o.status.code(), Some(2), "{limit}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--time-limit"),
            "{limit}: {}",
            stderr(&o)
        );
    }
    // A huge limit is named short, with the bound (it said "must be a
    // positive number of seconds, not 1000…000", 301 digits, of 1e300).
    let o = run(&[
        "layout",
        &map,
        "--time-limit=1e300",
        "--out",
        "/nonexistent/never",
    ]);
    assert_eq!(
        stderr(&o),
        "error: --time-limit must be a number of seconds above 0 and below 1.8e19, not 1e300\n"
    );
}

#[test]
fn generate_derives_the_next_level_when_one_cannot_be_laid_out() {
    // Seed 682's level of the undirected dungeon-rooms grammar (the
    // example until its edges were directed) has no layout (BENCHMARKS.md,
    // "Room layout"); the next attempt's is laid out.
    let grammar = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../levelgraph/tests/data/undirected-dungeon-rooms.lg");
    let out = scratch("level-retry");
    let o = run(&[
        "generate",
        grammar.to_str().unwrap(),
        "--seed",
        "682",
        "--formats",
        "json,svg,layout",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let note = stderr(&o);
    assert!(
        note.contains("note: the level of attempt 2 (seed ")
            && note.contains("was laid out after seed 682 (not laid out)"),
        "{note}"
    );
    let seed_of = |file: &str| -> u64 {
        let doc: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join(file)).unwrap()).unwrap();
        doc["seed"].as_u64().unwrap()
    };
    let attempt = levelgraph::rng::attempt_seed(682, 1);
    assert_eq!(
        (seed_of("mission.json"), seed_of("layout.json")),
        (attempt, attempt)
    );
    // Every file is that level's: asking for its seed gives the same bytes.
    let again = scratch("level-retry-again");
    let attempt_text = attempt.to_string();
    let o = run(&[
        "generate",
        grammar.to_str().unwrap(),
        "--seed",
        &attempt_text,
        "--formats",
        "json,svg,layout",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for file in ["mission.json", "mission.svg", "layout.json", "layout.svg"] {
        assert_eq!(
            fs::read(out.join(file)).unwrap(),
            fs::read(again.join(file)).unwrap(),
            "{file}"
        );
    }

    // With `retries 0` the layout's limit is the error, exit 1, nothing written.
    let dir = scratch("level-no-retry");
    let text = fs::read_to_string(&grammar)
        .unwrap()
        .replacen("rooms {", "rooms {\n  retries 0", 1);
    let strict = write(&dir, "strict.lg", &text);
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &strict,
        "--seed",
        "682",
        "--formats",
        "json,layout",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no layout within max_iterations 1000000"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

/// A reader that closes the pipe early (`levelgraph grammar-json | head`)
/// ends the command quietly with exit code 0, as ripgrep does; `println!`
/// panicked (exit 101 and a backtrace).
#[test]
fn a_closed_standard_output_ends_the_command_quietly() {
    // Standard output closed before the command has read its grammar, so
    // its first write finds no reader.
    let run_unread = |args: &[&str]| {
        let mut child = Command::new(BIN)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        child.wait_with_output().unwrap()
    };
    let dormans = examples().join("dormans2010.lg");
    for args in [
        vec!["grammar-json", dormans.to_str().unwrap()],
        vec!["check", dormans.to_str().unwrap()],
    ] {
        let o = run_unread(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
    // The exit code is check's answer: a grammar with errors stays exit 2
    // when the summary finds no reader (`check bad.lg | head -0`).
    let dir = scratch("closed-check");
    let bad = dir.join("bad.lg");
    fs::write(
        &bad,
        "grammar \"bad\" { start s min_vertices 20 max_vertices 10 }\n\
         tags { s \"start\" room \"room\" terminal }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n",
    )
    .unwrap();
    let o = run_unread(&["check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("min_vertices 20 is greater than max_vertices 10"),
        "{}",
        stderr(&o)
    );
}

/// Standard output on a full disk is an error the command reports (exit 2),
/// not a panic.
#[test]
fn a_full_standard_output_is_reported() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // Not Linux: no device that is always full.
    };
    let o = Command::new(BIN)
        .args(["grammar-json"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("error: cannot write to standard output: No space left on device"),
        "{}",
        stderr(&o)
    );
}

/// `--formats` naming a layout or tile map that a grammar without a `rooms`
/// block cannot give: a note quoting what was asked, and the summary says
/// when nothing was written; the default list stays quiet about it.
#[test]
fn formats_the_grammar_cannot_give_are_noted() {
    let out = scratch("formats-note");
    let dir = out.join("never");
    let o = run(&[
        "generate",
        "--formats",
        "layout",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "note: `--formats layout` not written: grammar `keys-and-cycles` has no `rooms` block, so it is not laid out\n"
    );
    assert!(
        stdout(&o).ends_with(" in all) -> nothing written\n"),
        "{}",
        stdout(&o)
    );
    assert!(!dir.exists());
    let o = run(&[
        "generate",
        "--formats",
        "json,tiles",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("note: `--formats tiles` not written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&dir), ["mission.json"]);
    let o = run(&["generate", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

/// Newcomers' mistakes with `layout` and `--out`: each named, exit code 2,
/// nothing written.
#[test]
fn newcomer_mistakes_are_named_and_write_nothing() {
    let out = scratch("named-mistakes");
    let map = out.join("maps").join("m.yml");
    fs::create_dir_all(map.parent().unwrap()).unwrap();
    fs::copy(edgar_map("backtracking.yml"), &map).unwrap();
    let dir = out.join("o");
    let dir = dir.to_str().unwrap();
    // No `rooms` folder beside the map's folder.
    let o = run(&["layout", map.to_str().unwrap(), "--out", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("rooms: does not exist; the map's room sets are looked for in the `rooms` folder beside the map's folder")
            && stderr(&o).contains("hint: name the folder of Edgar room-set files with --rooms DIR"),
        "{}",
        stderr(&o)
    );
    // --rooms naming a file.
    let o = run(&[
        "layout",
        map.to_str().unwrap(),
        "--rooms",
        map.to_str().unwrap(),
        "--out",
        dir,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("m.yml: is not a folder;"),
        "{}",
        stderr(&o)
    );
    // A map that is not there is named before any folder or flag.
    for missing in ["no-such-map.yml", "no-such-mission.json"] {
        let o = run(&["layout", missing, "--out", dir]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).starts_with(&format!("error: {missing}: ")),
            "{}",
            stderr(&o)
        );
    }
    // No work at all.
    let o = run(&[
        "layout",
        map.to_str().unwrap(),
        "--max-iterations",
        "0",
        "--out",
        dir,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "invalid value '0' for '--max-iterations <MAX_ITERATIONS>': the work limit must be at least 1"
        ),
        "{}",
        stderr(&o)
    );
    // --out naming a file.
    let o = run(&["generate", "--out", map.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with("m.yml: it is a file, not a folder\n"),
        "{}",
        stderr(&o)
    );
    assert!(!Path::new(dir).exists());
    // A mission graph given as the grammar.
    let generated = out.join("g");
    let o = run(&[
        "generate",
        "--formats",
        "json",
        "--out",
        generated.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mission = generated.join("mission.json");
    let o = run(&["generate", mission.to_str().unwrap(), "--out", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "is a mission graph, not a grammar: derive from it with `generate GRAMMAR --host "
        ),
        "{}",
        stderr(&o)
    );
    assert!(!Path::new(dir).exists());
}

/// `tiles GENERATOR --help` shows each parameter's default, which is the
/// library's, and a run without parameters uses exactly those.
#[test]
fn tiles_help_shows_the_library_defaults() {
    use levelgraph::tiles::accretion::AccretionParams;
    use levelgraph::tiles::caves::CaveParams;
    use levelgraph::tiles::rooms_and_corridors::RoomsParams;
    let help = |generator: &str| stdout(&run(&["tiles", generator, "-h"]));
    let (rooms, accretion, caves) = (
        RoomsParams::default(),
        AccretionParams::default(),
        CaveParams::default(),
    );
    for (text, flag, default) in [
        (help("rooms"), "--rooms <ROOMS>", rooms.rooms.to_string()),
        (
            help("rooms"),
            "--min-room-size <MIN_ROOM_SIZE>",
            rooms.min_room_size.to_string(),
        ),
        (
            help("accretion"),
            "--steps <STEPS>",
            accretion.steps.to_string(),
        ),
        (
            help("accretion"),
            "--room-chance <ROOM_CHANCE>",
            accretion.room_chance.to_string(),
        ),
        (
            help("caves"),
            "--floor-chance <FLOOR_CHANCE>",
            caves.floor_chance.to_string(),
        ),
        (help("caves"), "--rule <RULE>", "standard".to_owned()),
        (help("caves"), "--connect <CONNECT>", "join".to_owned()),
    ] {
        let at = text
            .find(flag)
            .unwrap_or_else(|| panic!("{flag} in {text}"));
        let line = text[at..].lines().nth(1).unwrap();
        assert!(
            line.contains(&format!("[default: {default}]")),
            "{flag}: {line}"
        );
    }
}

/// `--rule seed004`, the old name of `standard`, still runs and makes the
/// same map; `--help` lists only the new name.
#[test]
fn caves_rule_keeps_its_old_name() {
    let mut maps = Vec::new();
    for rule in ["standard", "seed004"] {
        let out = scratch(&format!("caves-rule-{rule}"));
        let r = run(&[
            "tiles",
            "caves",
            "--rule",
            rule,
            "--seed",
            "5",
            "--formats",
            "txt",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.status.code(), Some(0), "{rule}: {}", stderr(&r));
        maps.push(fs::read(out.join("map.txt")).unwrap());
    }
    assert_eq!(maps[0], maps[1]);
    let help = stdout(&run(&["tiles", "caves", "--help"]));
    assert!(
        help.contains("standard") && !help.contains("seed004"),
        "{help}"
    );
}

/// `check`'s summary counts in words: `1 rule`, `1 error`, not `1 rules`.
#[test]
fn check_summary_says_one_without_a_plural() {
    let out = scratch("one-rule");
    let path = out.join("one.lg");
    fs::write(
        &path,
        "grammar \"one\" {\n  start s\n  min_vertices 50\n  max_vertices 40\n}\ntags { s \"s\" room \"r\" terminal }\nrule start { (a:s) => (a:room) }\n",
    )
    .unwrap();
    let o = run(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("grammar `one`, 1 rule, 2 tags: 1 error, 0 warnings\n"),
        "{}",
        stdout(&o)
    );
    // The error is the header's, at its line and column.
    assert!(stderr(&o).contains("one.lg:3:3"), "{}", stderr(&o));
}

/// A seed that is not a whole number from 0 to 2^64 − 1 is a usage error
/// (exit 2) that says what a seed is, for every command that takes one;
/// `-1` is not taken for a flag, in `--seed -1` (where `--seed=-1` would
/// not need `allow_negative_numbers`) as well.
#[test]
fn a_bad_seed_says_what_a_seed_is() {
    let expected = format!("a seed is a whole number from 0 to {}", u64::MAX);
    for args in [
        &["generate", "--seed", "-1"][..],
        &["generate", "--seed", "x"],
        &["tiles", "caves", "--seed", "-1"],
        &["tiles", "--seed", "-1", "caves"],
        &["tiles", "caves", "--seed=x"],
        &["layout", "map.yml", "--seed", "-1"],
        &["layout", "map.yml", "--seed=18446744073709551616"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains(&format!("for '--seed <SEED>': {expected}")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// The default grammar's rules before its edges were directed, with a play
/// block: `key_lock` can hang the key behind its own lock (seed 7's level
/// is one such).
fn undirected_default_with_play(dir: &Path, extra: &str) -> String {
    let text = fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../levelgraph/tests/data/undirected-dungeon-rooms.lg"),
    )
    .unwrap();
    let text = text.replace("\nrooms {", "\nrooms_unused {");
    let rooms = text.find("\nrooms_unused {").unwrap();
    let text = format!(
        "{}\nplay {{\n  entrance entrance\n  goal goal\n  key key opens lock via ~>\n{extra}}}\n",
        &text[..rooms]
    );
    write(dir, "undirected.lg", &text)
}

/// A level that cannot be finished is not handed out: `generate` says why
/// and derives the next attempt seed's level, whose files carry the play
/// section; the summary says in how many steps it can be finished.
#[test]
fn generate_rejects_a_level_that_cannot_be_finished() {
    let dir = scratch("unfinishable");
    let grammar = undirected_default_with_play(&dir, "");
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("note: 2 levels could not be proved completable and were not handed out:\n  seed 7: key 11 lies behind lock 10, the lock it opens (path entrance 0 → "),
        "{err}"
    );
    assert!(err.contains("; rule `key_lock` made key 11\n"), "{err}");
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("mission.json")).unwrap()).unwrap();
    assert_eq!(doc["seed"], levelgraph::rng::attempt_seed(7, 2));
    let play = &doc["play"];
    assert_eq!(play["verdict"], "completable");
    let steps = play["playthrough"].as_array().unwrap().len();
    assert_eq!(play["playthrough"][0]["event"], "enter");
    assert!(
        stdout(&o).contains(&format!(
            ", can be finished in {steps} steps after 2 rejected levels (a key behind its own lock: 2), "
        )),
        "{}",
        stdout(&o)
    );
    // The picture numbers the playthrough.
    let svg = fs::read_to_string(out.join("mission.svg")).unwrap();
    assert!(svg.contains("order of the playthrough"));
}

/// With no retries left, a level that cannot be finished is exit 1, with
/// the commonest reason and an example, and nothing written.
#[test]
fn generate_exits_1_when_no_level_can_be_finished() {
    let dir = scratch("never-finished");
    let grammar = undirected_default_with_play(&dir, "  retries 0\n");
    let out = dir.join("out");
    let o = run(&[
        "generate",
        &grammar,
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: no level of grammar `keys-and-cycles-rooms` could be proved completable: 1 level derived (seed 7 and 0 retries), none passed\n  commonest reason (1 of 1): a key behind its own lock; seed 7: key 11 lies behind lock 10"),
        "{err}"
    );
    assert!(
        err.contains("\n  hint: keep every key on the entrance side of its lock"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written");
    // A lock no key opens, every time: all retries used, then exit 1.
    let nokey = write(
        &dir,
        "nokey.lg",
        "tags { s entrance goal lock }\n\
         rule start { (a:s) => (a:entrance) -- (l:lock) -- (g:goal) }\n\
         play {\n  entrance entrance\n  goal goal\n  key entrance opens lock via ~>\n  retries 3\n}\n",
    );
    let o = run(&["generate", &nokey, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("error: no level of grammar `nokey` could be proved completable: 4 levels derived (seed 0 and 3 retries), none passed\n  commonest reason (4 of 4): a lock without a key; seed 0: goal 2 lies behind lock 1, which no key opens; rule `start` made lock 1\n"),
        "{}",
        stderr(&o)
    );
}

/// `check` prints the playability of its sampled levels, and for a grammar
/// whose levels cannot all be finished, a warning at the rule at fault.
#[test]
fn check_reports_playability() {
    let o = run(&["check", examples().join("default.lg").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("default.lg: playability of 200 sampled seeds: 200 derived, 200 can be finished (100 %)"),
        "{text}"
    );
    let dir = scratch("check-play");
    let grammar = undirected_default_with_play(&dir, "");
    let o = run(&["check", &grammar]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("41 % of sampled levels cannot be finished (81 of 200): seed 3: key 12 lies behind lock 11"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains(": playability of 200 sampled seeds: 200 derived, 119 can be finished (60 %), 81 cannot;"),
        "{}",
        stdout(&o)
    );
}

/// With a `play` block, `generate` marks the level's play semantics on the
/// tile map instead of the room tags: one entrance, one goal, a key object
/// per key naming the locks it opens, lock objects naming the keys that
/// open them; and layout.json says the level is completable.
#[test]
fn generate_marks_the_play_objects_on_the_tile_map() {
    let dir = scratch("play-objects");
    let grammar = examples().join("dungeon-rooms.lg");
    for seed in ["7", "12"] {
        let out = dir.join(format!("seed-{seed}"));
        let o = run(&[
            "generate",
            grammar.to_str().unwrap(),
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "seed {seed}: {}", stderr(&o));
        let layout: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("layout.json")).unwrap()).unwrap();
        let play = &layout["play"];
        assert_eq!(play["verdict"], "completable", "seed {seed}: {play}");
        let tmj: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("level.tmj")).unwrap()).unwrap();
        // Point objects are the items; rooms are rectangles or polygons
        // whose type is their tag (a room tagged `key` is not a key).
        let items: Vec<&serde_json::Value> = tmj["layers"][1]["objects"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["point"] == true)
            .collect();
        let of = |kind: &str| -> Vec<&serde_json::Value> {
            items
                .iter()
                .copied()
                .filter(|o| o["type"] == kind)
                .collect()
        };
        let property = |o: &serde_json::Value, name: &str| -> Option<String> {
            o["properties"]
                .as_array()?
                .iter()
                .find(|p| p["name"] == name)
                .and_then(|p| p["value"].as_str())
                .map(str::to_owned)
        };
        assert_eq!(of("entrance").len(), 1, "seed {seed}");
        assert_eq!(of("goal").len(), 1, "seed {seed}");
        assert_eq!(
            of("entrance")[0]["name"].as_str(),
            Some(play["entrance"].to_string().as_str()),
            "seed {seed}: the entrance object is the report's entrance"
        );
        let (keys, locks) = (of("key"), of("lock"));
        let key_ids: Vec<String> = play["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["key"].to_string())
            .collect();
        assert!(!key_ids.is_empty(), "seed {seed} has keys");
        let mut key_names: Vec<String> = keys
            .iter()
            .map(|k| k["name"].as_str().unwrap().to_owned())
            .collect();
        key_names.sort();
        let mut want = key_ids.clone();
        want.sort();
        assert_eq!(key_names, want, "seed {seed}: a key object per key");
        assert!(!locks.is_empty(), "seed {seed} has lock objects");
        let lock_names: Vec<&str> = locks.iter().map(|l| l["name"].as_str().unwrap()).collect();
        for k in &keys {
            let opens = property(k, "opens").unwrap_or_default();
            assert!(!opens.is_empty(), "seed {seed}: key {k} names its locks");
            for l in opens.split(',') {
                assert!(
                    lock_names.contains(&l),
                    "seed {seed}: key opens {l}, not on the map"
                );
            }
        }
        for l in &locks {
            let named = property(l, "key").unwrap_or_default();
            assert!(!named.is_empty(), "seed {seed}: lock {l} names its keys");
            for k in named.split(',') {
                assert!(
                    key_ids.iter().any(|id| id == k),
                    "seed {seed}: lock names key {k}"
                );
            }
        }
    }
}

/// `place` on `examples/placed.lg`: the tables, the placements and one
/// shaded picture per content; the same seed gives the same bytes.
#[test]
fn place_writes_the_analysis_and_is_deterministic() {
    let dir = scratch("place");
    let grammar = examples().join("placed.lg");
    let grammar = grammar.to_str().unwrap();
    let out = dir.join("a");
    let o = run(&[
        "place",
        grammar,
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("10 placements"), "{}", stdout(&o));
    let names = listing(&out);
    for want in [
        "analysis.csv",
        "analysis.json",
        "placements.json",
        "analysis-potion.svg",
        "analysis-boss.svg",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
    assert!(
        names
            .iter()
            .filter(|n| n.starts_with("analysis-key-of-lock-"))
            .count()
            >= 1
    );
    let csv = fs::read_to_string(out.join("analysis.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("content,room,room_tag,status"));
    let statuses: Vec<&str> = lines.map(|l| l.rsplit(',').next().unwrap()).collect();
    assert!(statuses
        .iter()
        .all(|s| ["possible", "impossible", "necessary"].contains(s)));
    assert!(statuses.contains(&"possible") && statuses.contains(&"impossible"));
    // The boss is one room from the goal at most two away: never in the
    // entrance.
    assert!(csv.contains("boss,0,entrance,impossible"), "{csv}");
    let placements: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("placements.json")).unwrap()).unwrap();
    assert_eq!(placements["placements"].as_array().unwrap().len(), 10);
    let svg = fs::read_to_string(out.join("analysis-potion.svg")).unwrap();
    assert!(svg.contains("Where potion can be") && svg.contains("#81c784"));
    let again = dir.join("b");
    let o = run(&[
        "place",
        grammar,
        "--seed",
        "1",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for name in &names {
        assert_eq!(
            fs::read(out.join(name)).unwrap(),
            fs::read(again.join(name)).unwrap(),
            "{name}"
        );
    }
}

/// Content that cannot be placed: exit 1, the conflicting constraints
/// named at their lines, nothing written; `generate` gives the level way
/// and says so. A grammar without a `place` block: exit 2.
#[test]
fn place_conflicts_are_located_and_exit_1() {
    let dir = scratch("place-conflict");
    let text = fs::read_to_string(examples().join("placed.lg"))
        .unwrap()
        .replace(
            "item boss in room|treasure distance from goal 1..2",
            "item boss in treasure distance from goal 0",
        );
    let grammar = write(&dir, "conflict.lg", &text);
    let out = dir.join("out");
    let o = run(&[
        "place",
        &grammar,
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("no placement of grammar"), "{err}");
    assert!(err.contains("`item boss`: in treasure"), "{err}");
    assert!(err.contains("`item boss`: distance from goal 0"), "{err}");
    assert!(err.contains("conflict.lg:"), "{err}");
    assert!(!out.exists());
    let o = run(&[
        "generate",
        &grammar,
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`item boss`: distance from goal 0"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let default = examples().join("default.lg");
    let o = run(&[
        "place",
        default.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has no `place` block"),
        "{}",
        stderr(&o)
    );
}

/// `generate` with a `place` block stores the placed content in rooms
/// and says so in the summary line; every level it hands out passes the
/// play check.
#[test]
fn generate_places_content_in_rooms() {
    let dir = scratch("place-generate");
    let grammar = examples().join("placed.lg");
    for seed in ["1", "2", "5"] {
        let out = dir.join(seed);
        let o = run(&[
            "generate",
            grammar.to_str().unwrap(),
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
            "--formats",
            "json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let line = stdout(&o);
        assert!(
            line.contains("can be finished")
                && line.contains("placed key ×")
                && line.contains("boss ×1"),
            "{line}"
        );
        let doc: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("mission.json")).unwrap()).unwrap();
        let text = doc.to_string();
        assert!(
            text.contains("\"potion\"") && text.contains("\"boss\""),
            "{text}"
        );
    }
}

/// `place --mission` on a level `generate` placed content on: the content
/// is taken out and placed anew, so the analysis equals that of the same
/// seed's level before placement.
#[test]
fn place_on_a_generated_mission_places_anew() {
    let dir = scratch("place-mission");
    let grammar = examples().join("placed.lg");
    let grammar = grammar.to_str().unwrap();
    let level = dir.join("level");
    let o = run(&[
        "generate",
        grammar,
        "--seed",
        "4",
        "--out",
        level.to_str().unwrap(),
        "--formats",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mission = level.join("mission.json");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let o = run(&[
        "place",
        grammar,
        "--mission",
        mission.to_str().unwrap(),
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "place",
        grammar,
        "--seed",
        "4",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = |d: &Path| fs::read_to_string(d.join("analysis.csv")).unwrap();
    assert_eq!(table(&a), table(&b));
}

/// `mission.json` with its vertex ids reversed and nodes and edges listed
/// backwards: the same level under other names.
fn relabelled(mission: &str) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(mission).unwrap();
    let nodes = doc["nodes"].as_array().unwrap().clone();
    let top = nodes
        .iter()
        .map(|n| n["id"].as_u64().unwrap())
        .max()
        .unwrap();
    let rename = |v: &serde_json::Value| serde_json::json!(top - v.as_u64().unwrap());
    let mut new_nodes: Vec<serde_json::Value> = nodes
        .iter()
        .map(|n| {
            let mut n = n.clone();
            n["id"] = rename(&n["id"]);
            if let Some(parent) = n.get("parent").filter(|p| !p.is_null()).cloned() {
                n["parent"] = rename(&parent);
            }
            n
        })
        .collect();
    new_nodes.reverse();
    let mut edges: Vec<serde_json::Value> = doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e["source"] = rename(&e["source"]);
            e["target"] = rename(&e["target"]);
            e
        })
        .collect();
    edges.reverse();
    doc["nodes"] = serde_json::Value::Array(new_nodes);
    doc["edges"] = serde_json::Value::Array(edges);
    // The trace names vertices by their old ids; it is not part of the level.
    doc.as_object_mut().unwrap().remove("trace");
    doc.as_object_mut().unwrap().remove("play");
    doc.to_string()
}

#[test]
fn canon_identifies_a_relabelled_level_and_tells_others_apart() {
    let dir = scratch("canon");
    for seed in ["1", "2"] {
        let out = dir.join(seed);
        let o = run(&[
            "generate",
            "--seed",
            seed,
            "--out",
            out.to_str().unwrap(),
            "--formats",
            "json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let one = dir.join("1/mission.json");
    let text = fs::read_to_string(&one).unwrap();
    let copy = dir.join("copy.json");
    fs::write(&copy, relabelled(&text)).unwrap();
    // One tag changed: another level.
    let retagged = dir.join("retagged.json");
    fs::write(
        &retagged,
        relabelled(&text).replacen("\"room\"", "\"treasure\"", 1),
    )
    .unwrap();
    let two = dir.join("2/mission.json");
    let files = [&one, &two, &copy, &retagged].map(|p| p.to_str().unwrap().to_owned());
    let mut args = vec!["canon"];
    args.extend(files.iter().map(String::as_str));
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let hash = |file: &str| {
        let line = out.lines().find(|l| l.starts_with(file)).unwrap();
        line.split("canonical hash ").nth(1).unwrap()[..16].to_owned()
    };
    assert_eq!(hash(&files[0]), hash(&files[2]), "{out}");
    assert_ne!(hash(&files[0]), hash(&files[3]), "{out}");
    assert_ne!(hash(&files[0]), hash(&files[1]), "{out}");
    assert!(out.contains("3 distinct levels among 4"), "{out}");
    assert!(
        out.contains(&format!("same level: {}, {}", files[0], files[2])),
        "{out}"
    );
}

#[test]
fn canon_prints_the_symmetries_of_every_rule_pattern() {
    let wheel = examples().join("wheel.lg");
    let o = run(&["canon", wheel.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("rule `spoke`: pattern hash ")
            && out.contains("2 automorphisms, exchanged: {b c}"),
        "{out}"
    );
    assert!(out.contains("rule `start`: pattern hash "), "{out}");
    assert!(out.contains(" 1 automorphism\n"), "{out}");
}

#[test]
fn canon_of_a_file_that_is_neither_level_nor_grammar_is_exit_2() {
    let dir = scratch("canon-bad");
    let bad = dir.join("bad.json");
    fs::write(&bad, "{\"nodes\": 3}").unwrap();
    let o = run(&["canon", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.json") && err.contains("neither a mission graph nor a grammar"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn explore_prints_the_shortest_derivation_of_a_broken_level() {
    let grammar =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../levelgraph/tests/data/behind-its-lock.lg");
    let o = run(&["explore", grammar.to_str().unwrap(), "--depth", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("shortest derivation of a level that cannot be finished (4 steps):"),
        "{out}"
    );
    assert!(
        out.contains("  4. key_lock (alternative 2) at a=v1, b=v4"),
        "{out}"
    );
    assert!(out.contains("why: key 6 lies behind lock 5"), "{out}");

    let o = run(&["check", grammar.to_str().unwrap(), "--explore", "6"]);
    let err = stderr(&o);
    assert!(
        err.contains("a level that cannot be finished is derived in 4 steps: start, extend, extend, key_lock"),
        "{err}"
    );
    assert!(stdout(&o).contains("explored derivations of up to 6 steps"));
}
