//! What the command's test binaries share (`#[path]`-included, as the
//! golden-file helper is): the binary, running it, scratch folders.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `levelgraph` binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_levelgraph");

/// Runs `levelgraph` with `args` (colours off) and waits for it.
pub(crate) fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// A fresh, empty scratch folder for one test, removed with what it holds
/// when the test ends (passed or panicked), so runs leave nothing in the
/// temporary folder.
pub(crate) struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A scratch folder named after the test binary, the process and `name`.
pub(crate) fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!(
        "levelgraph-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}
