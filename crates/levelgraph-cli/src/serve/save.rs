//! Saving the grammar from the page without ever leaving it half written.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// folder (so the rename stays on one file system), synced, then renamed
/// over `path`. An editor watching the file sees one change; a failure
/// leaves the old file as it was and removes the temporary one.
///
/// # Errors
/// The first I/O error.
pub(crate) fn atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or("grammar".into(), |n| n.to_string_lossy());
    let temporary = folder.join(format!(
        ".{name}.levelgraph-serve-{}.tmp",
        std::process::id()
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        // The file keeps the permissions it had (an editor's save does).
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temporary, meta.permissions())?;
        }
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::atomically;

    #[test]
    fn a_save_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("lg-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.lg");
        std::fs::write(&path, "old").unwrap();
        atomically(&path, b"new text").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new text");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["g.lg"]);
        // A folder that does not exist: an error, nothing written.
        assert!(atomically(&dir.join("none/g.lg"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
