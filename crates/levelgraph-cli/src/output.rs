//! Writing result files without leaving half-written output behind, and
//! the summary lines on standard output.

use std::fs;
use std::io::{self, BufWriter, Write};
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

/// A time for the summary lines: milliseconds with two decimals below a
/// second (`0.18 ms`, `612.40 ms`), seconds with two decimals from one on
/// (`14.21 s`).
pub(crate) fn duration(d: std::time::Duration) -> String {
    let seconds = d.as_secs_f64();
    if seconds < 1.0 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
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

/// One file for [`write_all`]: its name in the output folder and what
/// writes its content.
pub(crate) struct OutFile<'a> {
    name: String,
    write: Writes<'a>,
}

/// Writes a file's content into the buffered temporary file it is staged
/// in, as it goes.
type Writes<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

impl<'a> OutFile<'a> {
    /// A file whose content `write` writes as it makes it, so that the
    /// content is never whole in memory.
    pub(crate) fn streamed(
        name: impl Into<String>,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()> + 'a,
    ) -> Self {
        OutFile {
            name: name.into(),
            write: Box::new(write),
        }
    }

    /// A file whose content is already made (small files, and encoders
    /// that return bytes).
    pub(crate) fn bytes(name: impl Into<String>, bytes: impl AsRef<[u8]> + 'a) -> Self {
        Self::streamed(name, move |w| w.write_all(bytes.as_ref()))
    }
}

/// Writes every file into `dir` (created if missing), all or nothing:
/// every file is staged under a temporary name first, its content written
/// through a buffer as its writer makes it; then each target is swapped in
/// (the old file moved aside to a backup name, the staged one renamed into
/// place). When any step fails, the swaps already made are undone in
/// reverse order, so the folder is left as it was: old files back, new
/// ones gone, no temporary or backup files. A target that is a folder
/// fails the call before anything is written. The folders this call had
/// to create (`dir` and missing parents) are removed again on failure.
/// Nothing at all (not even the folder) when `files` is empty. An error
/// while a file is staged names the file.
pub(crate) fn write_all(dir: &Path, files: Vec<OutFile<'_>>) -> io::Result<()> {
    write_all_with(dir, files, &mut |from, to| fs::rename(from, to))
}

/// [`write_all`] with the renames made by `rename`, so that a test can make
/// one fail.
fn write_all_with(
    dir: &Path,
    files: Vec<OutFile<'_>>,
    rename: &mut dyn FnMut(&Path, &Path) -> io::Result<()>,
) -> io::Result<()> {
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
    let mut staged: Vec<Staged> = Vec::new();
    let mut swapped: Vec<Swapped> = Vec::new();
    let result =
        stage(dir, files, &mut staged).and_then(|()| swap_all(&staged, &mut swapped, rename));
    match result {
        Ok(()) => {
            // Every file is in place: the backups are no longer needed.
            for s in &swapped {
                if let Some(backup) = &s.backup {
                    let _ = fs::remove_file(backup);
                }
            }
        }
        Err(_) => {
            roll_back(&swapped, rename);
            for s in &staged {
                let _ = fs::remove_file(&s.temp);
            }
            remove_created(&created);
        }
    }
    result
}

/// A file written under a temporary name, and where it goes.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
}

/// A target swapped in, and the backup of the file it replaced (`None`:
/// there was none).
struct Swapped {
    target: PathBuf,
    backup: Option<PathBuf>,
}

/// Writes every file under a temporary name in `dir`, recording each in
/// `staged` as soon as it exists (so that a failure removes it).
fn stage(dir: &Path, files: Vec<OutFile<'_>>, staged: &mut Vec<Staged>) -> io::Result<()> {
    for file in &files {
        let target = dir.join(&file.name);
        // Renaming a file over a folder fails, and it would fail after
        // the files before it had been replaced.
        if fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir()) {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{} is a folder", target.display()),
            ));
        }
    }
    let pid = std::process::id();
    for file in files {
        let temp = dir.join(format!(".{}.tmp-{pid}", file.name));
        staged.push(Staged {
            temp: temp.clone(),
            target: dir.join(&file.name),
        });
        write_file(&temp, file.write)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.name)))?;
    }
    Ok(())
}

/// Creates `path` and lets `write` fill it through a buffer (the writers
/// make many small writes), then flushes it to the disk.
fn write_file(path: &Path, write: Writes<'_>) -> io::Result<()> {
    let mut buffered = BufWriter::with_capacity(1 << 16, fs::File::create(path)?);
    write(&mut buffered)?;
    let file = buffered
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Swaps every staged file into place: an existing target is first moved
/// to a backup name beside it, then the staged file renamed over it.
/// Each completed swap is recorded in `swapped`.
fn swap_all(
    staged: &[Staged],
    swapped: &mut Vec<Swapped>,
    rename: &mut dyn FnMut(&Path, &Path) -> io::Result<()>,
) -> io::Result<()> {
    let pid = std::process::id();
    for s in staged {
        let backup = if fs::symlink_metadata(&s.target).is_ok() {
            let name = s.target.file_name().unwrap_or_default().to_string_lossy();
            let backup = s.target.with_file_name(format!(".{name}.old-{pid}"));
            rename(&s.target, &backup)?;
            Some(backup)
        } else {
            None
        };
        if let Err(e) = rename(&s.temp, &s.target) {
            // The old file goes back before the error is reported.
            if let Some(backup) = &backup {
                let _ = rename(backup, &s.target);
            }
            return Err(e);
        }
        swapped.push(Swapped {
            target: s.target.clone(),
            backup,
        });
    }
    Ok(())
}

/// Undoes `swapped`, last first: the backup renamed back over its target,
/// or a target that was new removed.
fn roll_back(swapped: &[Swapped], rename: &mut dyn FnMut(&Path, &Path) -> io::Result<()>) {
    for s in swapped.iter().rev() {
        match &s.backup {
            Some(backup) => {
                let _ = rename(backup, &s.target);
            }
            None => {
                let _ = fs::remove_file(&s.target);
            }
        }
    }
}

/// Removes the folders `write_all` made (deepest first), if still empty.
fn remove_created(created: &[PathBuf]) {
    for d in created {
        let _ = fs::remove_dir(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("levelgraph-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Files of the given names and contents, written whole.
    fn files<'a>(named: &[(&str, &'a str)]) -> Vec<OutFile<'a>> {
        named
            .iter()
            .map(|&(name, text)| OutFile::bytes(name, text))
            .collect()
    }

    /// The folder's files and their contents, sorted by name.
    fn listing(dir: &Path) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                (name, fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn durations_read_in_milliseconds_below_a_second() {
        use std::time::Duration;
        assert_eq!(duration(Duration::from_micros(180)), "0.18 ms");
        assert_eq!(duration(Duration::from_micros(999_990)), "999.99 ms");
        assert_eq!(duration(Duration::from_millis(14_213)), "14.21 s");
    }

    /// A failed rename at every point of the swap (the k-th rename call)
    /// leaves the folder exactly as it was: old files with their old
    /// contents, no new file, no temporary or backup file.
    #[test]
    fn a_failed_rename_leaves_the_folder_as_it_was() {
        let new = [("a.json", "new a"), ("b.svg", "new b"), ("c.dot", "new c")];
        // a and c exist, b is new: 2 swaps with a backup, 1 without, so
        // 5 renames on success.
        for fail_at in 0..5 {
            let dir = scratch(&format!("fail{fail_at}"));
            fs::write(dir.join("a.json"), "old a").unwrap();
            fs::write(dir.join("c.dot"), "old c").unwrap();
            fs::write(dir.join("keep.txt"), "untouched").unwrap();
            let before = listing(&dir);
            let mut calls = 0;
            let mut rename = |from: &Path, to: &Path| {
                calls += 1;
                if calls == fail_at + 1 {
                    return Err(io::Error::other("refused"));
                }
                fs::rename(from, to)
            };
            let err = write_all_with(&dir, files(&new), &mut rename).unwrap_err();
            assert_eq!(err.to_string(), "refused");
            assert_eq!(listing(&dir), before, "failing rename {}", fail_at + 1);
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn every_file_lands_and_no_backup_is_left() {
        let dir = scratch("ok");
        fs::write(dir.join("a.json"), "old a").unwrap();
        let new = [("a.json", "new a"), ("b.svg", "new b")];
        write_all(&dir, files(&new)).unwrap();
        assert_eq!(
            listing(&dir),
            [
                ("a.json".to_owned(), "new a".to_owned()),
                ("b.svg".to_owned(), "new b".to_owned())
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder that did not exist is removed again when a rename fails.
    #[test]
    fn a_failed_write_removes_the_folder_it_made() {
        let root = scratch("made");
        let dir = root.join("out/level");
        let mut rename = |_: &Path, _: &Path| Err(io::Error::other("refused"));
        assert!(write_all_with(&dir, files(&[("a.json", "x")]), &mut rename).is_err());
        assert!(!root.join("out").exists());
        fs::remove_dir_all(&root).unwrap();
    }

    /// A writer that fails part way through its file (a full disk) fails
    /// the call with an error naming the file, and leaves the folder as it
    /// was: the files staged before it, and its own half, removed.
    #[test]
    fn a_failed_write_names_the_file_and_leaves_the_folder_as_it_was() {
        let dir = scratch("half");
        fs::write(dir.join("a.json"), "old a").unwrap();
        let before = listing(&dir);
        let new = vec![
            OutFile::bytes("a.json", "new a"),
            OutFile::streamed("b.svg", |w| {
                w.write_all(b"<svg>")?;
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }),
            OutFile::bytes("c.dot", "new c"),
        ];
        let err = write_all(&dir, new).unwrap_err();
        assert_eq!(err.to_string(), "b.svg: disk full");
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert_eq!(listing(&dir), before);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A file's writer gets the staged file itself, through a buffer:
    /// what it writes piece by piece lands whole.
    #[test]
    fn a_streamed_file_lands_whole() {
        let dir = scratch("streamed");
        let new = vec![OutFile::streamed("n.txt", |w| {
            for i in 0..100_000 {
                writeln!(w, "{i}")?;
            }
            Ok(())
        })];
        write_all(&dir, new).unwrap();
        let text = fs::read_to_string(dir.join("n.txt")).unwrap();
        assert_eq!(text.lines().count(), 100_000);
        assert_eq!(text.lines().last(), Some("99999"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
