//! Golden files: the one helper of the workspace's tests. The library's
//! suite reaches it as `common::assert_golden`; the CLI's tests
//! (`crates/levelgraph-cli/tests/cli.rs`) include this file by path, so
//! both compare, report and refresh alike. It uses `std` only.

use std::path::Path;

/// Compares `got` byte for byte with `tests/golden/<name>` of the crate
/// whose test includes this file (`name` may name a subfolder), or writes
/// it there when `UPDATE_GOLDEN` is set: after an intended change, rerun
/// with `UPDATE_GOLDEN=1` and review the diff. A difference fails the test
/// with the file's path and where the bytes first differ (the line of each
/// side for text).
#[track_caller]
pub(crate) fn assert_golden(name: &str, got: &[u8]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let Ok(want) = std::fs::read(&path) else {
        panic!("missing {}; run with UPDATE_GOLDEN=1", path.display());
    };
    if got != want {
        panic!(
            "{name} differs from {}; rerun with UPDATE_GOLDEN=1 if intended\n{}",
            path.display(),
            first_difference(&want, got)
        );
    }
}

/// Where `got` first differs from `want`: for text, the line number and
/// both lines; else the byte offset and both lengths.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    let at = want
        .iter()
        .zip(got)
        .position(|(w, g)| w != g)
        .unwrap_or(want.len().min(got.len()));
    match (std::str::from_utf8(want), std::str::from_utf8(got)) {
        (Ok(want), Ok(got)) => {
            let line = got.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            let line_of = |text: &str| -> String {
                text.split('\n')
                    .nth(line)
                    .unwrap_or("(end of file)")
                    .to_owned()
            };
            format!(
                "first difference on line {}:\n--- want ---\n{}\n--- got ---\n{}",
                line + 1,
                line_of(want),
                line_of(got)
            )
        }
        _ => format!(
            "first difference at byte {at} (want {} bytes, got {})",
            want.len(),
            got.len()
        ),
    }
}
