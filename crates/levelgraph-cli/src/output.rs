//! Writing result files without leaving half-written output behind.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes every `(file name, contents)` into `dir` (created if missing).
/// All contents go to temporary files first; only when every one is written
/// are they renamed into place, so a failure leaves no partial file.
/// A folder this call had to create is removed again on failure.
/// Nothing at all (not even the folder) when `files` is empty.
pub(crate) fn write_all<C: AsRef<[u8]>>(dir: &Path, files: &[(&str, C)]) -> io::Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    let created = !dir.exists();
    fs::create_dir_all(dir)?;
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    let result = (|| {
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
        if created {
            let _ = fs::remove_dir(dir);
        }
    }
    result
}
