//! Writing result files without leaving half-written output behind, and
//! the summary lines on standard output.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::Failure;

/// `n thing` or `n things`, for the summary lines.
pub(crate) fn counted(n: u64, thing: &str) -> String {
    counted_as(n, thing, &format!("{thing}s"))
}

/// `n one` or `n many`, for a word whose plural is not `-s` (`vertex`,
/// `vertices`).
pub(crate) fn counted_as(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// Prints `text` and a newline on standard output. A reader that has gone
/// away (a pipe closed by `head`) ends the command quietly and
/// successfully, as ripgrep does; any other write error (a full disk behind
/// `>`) is reported, exit code 2. (`println!` panicked in both cases.)
pub(crate) fn say(text: std::fmt::Arguments<'_>) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::ReaderGone),
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            Err(Failure::BadInput)
        }
    }
}

/// Writes every `(file name, contents)` into `dir` (created if missing).
/// All contents go to temporary files first; only when every one is written
/// are they renamed into place, so a failure leaves no partial file. A
/// target that is a folder fails the call before any file is replaced.
/// The folders this call had to create (`dir` and missing parents) are
/// removed again on failure.
/// Nothing at all (not even the folder) when `files` is empty.
pub(crate) fn write_all<C: AsRef<[u8]>>(dir: &Path, files: &[(&str, C)]) -> io::Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            "it is a file, not a folder",
        ));
    }
    // The folders create_dir_all will make, deepest first.
    let created: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .map(Path::to_path_buf)
        .collect();
    if let Err(e) = fs::create_dir_all(dir) {
        remove_created(&created);
        return Err(e);
    }
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| {
        for (name, _) in files {
            let target = dir.join(name);
            // Renaming a file over a folder fails, and it would fail after
            // the files before it had been replaced.
            if fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir()) {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    format!("{} is a folder", target.display()),
                ));
            }
        }
        for (name, contents) in files {
            let target = dir.join(name);
            let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
            temps.push((temp.clone(), target));
            let mut f = fs::File::create(&temp)?;
            f.write_all(contents.as_ref())?;
            f.sync_all()?;
        }
        for (temp, target) in &temps {
            fs::rename(temp, target)?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (temp, _) in &temps {
            let _ = fs::remove_file(temp);
        }
        remove_created(&created);
    }
    result
}

/// Removes the folders `write_all` made (deepest first), if still empty.
fn remove_created(created: &[PathBuf]) {
    for d in created {
        let _ = fs::remove_dir(d);
    }
}
