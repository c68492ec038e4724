//! `levelgraph analyze` as a user runs it: the files of a run, the same
//! bytes on one thread and on two, shards merged into exactly one run's
//! files, two runs compared, bad folders refused, Ctrl-C leaving nothing,
//! and the report opened in a real browser (headless Chromium).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/common.rs"]
mod common;
use common::{run, scratch, BIN};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// Runs `args`, which must exit 2 with `want` in its message and write
/// nothing to `out`.
fn refused(args: &[&str], want: &str, out: &Path) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = text(&o.stderr);
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file of a folder with its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

fn assert_same_files(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fa), names(&fb));
    for ((name, x), (_, y)) in fa.iter().zip(&fb) {
        assert!(
            x == y,
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_run_writes_its_files_the_same_on_one_and_two_threads() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let said = ok(&[
        "analyze",
        "--seeds",
        "1..400",
        "--threads",
        "1",
        "--out",
        path(&one),
    ]);
    assert!(said.starts_with("keys-and-cycles: 400 seeds, "), "{said}");
    assert!(said.contains(" distinct, in "), "{said}");
    ok(&[
        "analyze",
        "--seeds",
        "1..400",
        "--threads",
        "2",
        "--out",
        path(&two),
    ]);
    assert_same_files(&one, &two);
    let names: Vec<String> = files(&one).into_iter().map(|f| f.0).collect();
    for want in [
        "levels.csv",
        "summary.json",
        "run.json",
        "report.html",
        "plot-rooms.svg",
        "plot-rooms.png",
        "heat-rooms-cycles.svg",
        "heat-rooms-cycles.png",
        "level-1.svg",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
    }
    let csv = fs::read_to_string(one.join("levels.csv")).unwrap();
    assert_eq!(csv.lines().count(), 401);
    assert!(csv.starts_with("seed,status,why,hash,vertices,rooms,corridors,cycles,"));
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(one.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["seeds"], 400);
    let rooms = &summary["metrics"]["rooms"];
    assert!(rooms["min"].as_f64() <= rooms["q1"].as_f64());
    assert!(rooms["q1"].as_f64() <= rooms["median"].as_f64());
    assert!(rooms["median"].as_f64() <= rooms["q3"].as_f64());
    assert!(rooms["q3"].as_f64() <= rooms["max"].as_f64());
    assert!(summary["distinct_levels"].as_u64().unwrap() > 300);
}

#[test]
fn shards_merged_equal_one_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole");
    ok(&[
        "analyze",
        "--seeds",
        "5..254",
        "--sample",
        "7",
        "--out",
        path(&whole),
    ]);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.join(format!("part{k}"));
        let shard = format!("{k}/3");
        ok(&[
            "analyze",
            "--seeds",
            "5..254",
            "--sample",
            "7",
            "--shard",
            &shard,
            "--out",
            path(&part),
        ]);
        parts.push(part);
    }
    let merged = dir.join("merged");
    // Given in another order than their numbers.
    let said = ok(&[
        "analyze",
        "--merge",
        path(&parts[2]),
        path(&parts[0]),
        path(&parts[1]),
        "--out",
        path(&merged),
    ]);
    assert!(said.contains("3 shards merged, 250 seeds"), "{said}");
    assert_same_files(&whole, &merged);
}

#[test]
fn merge_refuses_what_is_not_every_shard_of_one_run() {
    let dir = scratch("refuse");
    let a = dir.join("a");
    let b = dir.join("b");
    let other = dir.join("other");
    ok(&[
        "analyze",
        "--seeds",
        "1..60",
        "--shard",
        "1/2",
        "--out",
        path(&a),
    ]);
    ok(&[
        "analyze",
        "--seeds",
        "1..60",
        "--shard",
        "2/2",
        "--out",
        path(&b),
    ]);
    ok(&[
        "analyze",
        "--seeds",
        "1..61",
        "--shard",
        "2/2",
        "--out",
        path(&other),
    ]);
    let out = dir.join("out");
    let cases: [(&[&Path], &str); 4] = [
        (&[&a], "shard 2/2 is missing"),
        (&[&a, &a], "are both shard 1/2"),
        (&[&a, &other], "are not shards of one run"),
        (&[&dir], "run.json"),
    ];
    for (dirs, want) in cases {
        let mut args = vec!["analyze", "--merge"];
        args.extend(dirs.iter().map(|d| path(d)));
        args.extend(["--out", path(&out)]);
        refused(&args, want, &out);
    }
    // A damaged levels.csv is named with its line and column.
    let csv = b.join("levels.csv");
    let damaged = fs::read_to_string(&csv)
        .unwrap()
        .replacen(",completable,", ",finished,", 1);
    fs::write(&csv, damaged).unwrap();
    let o = run(&[
        "analyze",
        "--merge",
        path(&a),
        path(&b),
        "--out",
        path(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("levels.csv, line 2, column 4: `finished` is not a status"),
        "{err}"
    );
}

#[test]
fn two_runs_compare_in_one_report() {
    let dir = scratch("compare");
    let (small, large) = (dir.join("small"), dir.join("large"));
    ok(&[
        "analyze",
        "--seeds",
        "1..150",
        "--max-vertices",
        "20",
        "--min-vertices",
        "4",
        "--out",
        path(&small),
    ]);
    ok(&["analyze", "--seeds", "1..150", "--out", path(&large)]);
    let out = dir.join("both");
    let said = ok(&[
        "analyze",
        "--compare",
        path(&small),
        path(&large),
        "--out",
        path(&out),
    ]);
    assert!(
        said.contains("compared keys-and-cycles (small) and keys-and-cycles (large)"),
        "{said}"
    );
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("keys-and-cycles (small)") && html.contains("keys-and-cycles (large)"));
    assert!(html.contains("max_vertices 20"));
    assert!(out.join("plot-rooms.svg").exists() && out.join("a-heat-rooms-cycles.png").exists());
    assert!(out.join("b-level-1.svg").exists());
    // The smaller limit shows in the numbers: fewer rooms at the median.
    let median = |d: &Path| {
        let s: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(d.join("summary.json")).unwrap()).unwrap();
        s["metrics"]["rooms"]["median"].as_f64().unwrap()
    };
    assert!(median(&small) < median(&large));
}

#[test]
fn bad_options_exit_2() {
    let dir = scratch("bad");
    let out = dir.join("out");
    for (args, want) in [
        (vec!["analyze", "--seeds", "9..3"], "empty"),
        (vec!["analyze", "--shard", "4/3"], "is not a shard"),
        (vec!["analyze", "no-such-grammar.lg"], "no-such-grammar.lg"),
    ] {
        let mut args = args;
        args.extend(["--out", path(&out)]);
        refused(&args, want, &out);
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_file() {
    let dir = scratch("interrupt");
    let out = dir.join("out");
    let child = Command::new(BIN)
        .args(["analyze", "--seeds", "1..100000000", "--out", path(&out)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("interrupted: nothing written"));
    assert!(!out.exists(), "no folder, no temporary file");
}

/// Chromium, when installed (`.ci/run` installs Debian's `chromium` and
/// sets LEVELGRAPH_REQUIRE_BROWSER=1, so CI cannot skip this).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .map(|name| Path::new("/usr/bin").join(name))
        .find(|p| p.exists());
    if found.is_none() {
        assert!(
            std::env::var_os("LEVELGRAPH_REQUIRE_BROWSER").is_none(),
            "LEVELGRAPH_REQUIRE_BROWSER is set and no Chromium is installed"
        );
        eprintln!("note: no Chromium in /usr/bin; the browser test is skipped");
    }
    found
}

fn headless(browser: &Path, profile: &Path, extra: &[&str], page: &Path) -> Output {
    let url = format!("file://{}", page.display());
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap()
}

#[test]
fn the_report_shows_its_pictures_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("browser");
    let run_dir = dir.join("range");
    ok(&["analyze", "--seeds", "1..200", "--out", path(&run_dir)]);
    let page = run_dir.join("report.html");
    let o = headless(&browser, &dir.join("profile"), &["--dump-dom"], &page);
    let dom = text(&o.stdout);
    let attr = |name: &str| -> Option<u64> {
        let at = dom.find(&format!("data-{name}=\""))? + name.len() + 7;
        dom[at..].split('"').next()?.parse().ok()
    };
    let (images, loaded) = (attr("images"), attr("loaded"));
    // 14 histograms, 5 heat maps, 12 sampled levels.
    assert_eq!(images, Some(31), "{}", text(&o.stderr));
    assert_eq!(loaded, images, "every image was drawn");
    assert!(dom.contains("Expressive range of keys-and-cycles"));
    // A screenshot to look at: kept under the target folder.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze-report.png");
    let arg = format!("--screenshot={}", shot.display());
    let o = headless(
        &browser,
        &dir.join("profile2"),
        &[&arg, "--window-size=1400,2400"],
        &page,
    );
    assert!(shot.exists(), "{}", text(&o.stderr));
    eprintln!("screenshot: {}", shot.display());
}
