//! Reloading the grammar when its file changes: the file's folder is
//! watched (notify: inotify on Linux), not the file, because editors save
//! by writing another file and renaming it over the grammar, which a watch
//! on the old file would not see.

use std::path::Path;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{EventKind, RecursiveMode, Watcher};

use super::state::State;

/// How long the folder must be quiet after a change before the grammar is
/// read: an editor's save is several events (write, rename, attributes).
const QUIET: Duration = Duration::from_millis(50);

/// The most quiet periods one reload waits for: a file written without
/// pause for longer than this (20 × 50 ms) is read while it changes, and
/// read again after.
const MAX_WAITS: usize = 20;

/// Starts watching `state.path`'s folder on a thread of its own; every
/// change to the file reloads it. The watcher lives as long as the thread,
/// which is as long as the process.
///
/// # Errors
/// The watcher could not be made or the folder not watched, in a sentence.
pub(crate) fn start(state: Arc<State>) -> Result<(), String> {
    let folder = state.path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let name = state.path.file_name().map(|n| n.to_owned());
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Events for other files of the folder are not ours; an error or an
        // event without paths (a rescan) may be, so it reloads too.
        let ours = match &event {
            Ok(e) => {
                changes_content(&e.kind)
                    && (e.paths.is_empty()
                        || e.paths
                            .iter()
                            .any(|p| p.file_name().map(|n| n.to_owned()) == name))
            }
            Err(_) => true,
        };
        if ours {
            let _ = tx.send(());
        }
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    watcher
        .watch(&folder, RecursiveMode::NonRecursive)
        .map_err(|e| format!("cannot watch {}: {e}", folder.display()))?;
    std::thread::Builder::new()
        .name("serve-watch".into())
        .spawn(move || {
            let _watcher = watcher;
            // Ends when the watcher is gone (never, while the process runs).
            while rx.recv().is_ok() {
                for _ in 0..MAX_WAITS {
                    if rx.recv_timeout(QUIET).is_err() {
                        break;
                    }
                }
                state.reload();
            }
        })
        .map_err(|e| format!("cannot start the watcher's thread: {e}"))?;
    Ok(())
}

/// Whether an event can change what the file holds: made, written,
/// renamed or removed. Not opening, reading or a change of attributes —
/// the reload itself reads the file, and reacting to that would reload
/// for ever.
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, DataChange, RenameMode};

    #[test]
    fn reading_the_file_is_not_a_change() {
        let read = [
            EventKind::Access(AccessKind::Open(AccessMode::Any)),
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            EventKind::Modify(ModifyKind::Metadata(
                notify::event::MetadataKind::AccessTime,
            )),
        ];
        assert!(read.iter().all(|k| !changes_content(k)));
        let written = [
            EventKind::Create(CreateKind::File),
            EventKind::Modify(ModifyKind::Data(DataChange::Any)),
            EventKind::Modify(ModifyKind::Name(RenameMode::To)),
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            EventKind::Remove(notify::event::RemoveKind::File),
        ];
        assert!(written.iter().all(changes_content));
    }
}
