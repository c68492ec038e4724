//! Reading an input file as text, so that bad input ends with a located
//! message rather than a hang or an allocation the machine refuses: only
//! regular files (not `/dev/zero`, a FIFO or a folder), at most
//! [`MAX_INPUT_BYTES`], and UTF-8 with the first invalid byte named by
//! line and column.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest input file read, in bytes (256 MiB): far above any grammar,
/// mission graph or Edgar map in use, far below what a 2 GB machine holds.
pub(crate) const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Why an input file was not read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The operating system's error (no such file, no permission, …).
    Io(io::Error),
    /// A folder, device, FIFO or socket.
    NotAFile,
    /// Larger than [`MAX_INPUT_BYTES`]; its size in bytes.
    TooLarge(u64),
    /// Not UTF-8: the first invalid byte, at `line:column` (1-based,
    /// columns in characters of the valid text before it).
    NotUtf8 {
        line: usize,
        column: usize,
        byte: u8,
    },
}

impl ReadError {
    /// Prints the error on stderr: `error: cannot read WHAT FILE: …`, or
    /// `error: FILE:LINE:COL: …` for a byte that is not UTF-8.
    pub(crate) fn report(&self, what: &str, path: &Path) {
        let file = path.display();
        match self {
            ReadError::Io(e) => eprintln!("error: cannot read {what} {file}: {e}"),
            ReadError::NotAFile => {
                eprintln!("error: cannot read {what} {file}: it is not a regular file")
            }
            ReadError::TooLarge(size) => eprintln!(
                "error: cannot read {what} {file}: {size} bytes, more than the {} MiB levelgraph reads",
                MAX_INPUT_BYTES >> 20
            ),
            ReadError::NotUtf8{ line, column, byte } => eprintln!(
                "error: {file}:{line}:{column}: byte 0x{byte:02x} is not UTF-8 text; save the {what} as UTF-8"
            ),
        }
    }
}

/// The text of the regular file at `path`.
///
/// # Errors
/// [`ReadError`]: it cannot be opened or read, is not a regular file, is
/// larger than [`MAX_INPUT_BYTES`] (also when it grows while read), or is
/// not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    levelgraph::diagnostic::utf8_text(bytes).map_err(|e| ReadError::NotUtf8 {
        line: e.at.line,
        column: e.at.column,
        byte: e.byte,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("levelgraph-input-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn the_first_invalid_byte_is_located() {
        let path = scratch(
            "latin1",
            b"tags { s room }\nrule a { (x:s) => (x:caf\xe9) }\n",
        );
        match read_text(&path) {
            Err(ReadError::NotUtf8 { line, column, byte }) => {
                assert_eq!((line, column, byte), (2, 25, 0xe9));
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn folders_and_devices_are_refused_unread() {
        assert!(matches!(
            read_text(&std::env::temp_dir()),
            Err(ReadError::NotAFile)
        ));
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            assert!(matches!(read_text(zero), Err(ReadError::NotAFile)));
        }
    }

    #[test]
    fn utf8_text_is_read_whole() {
        let path = scratch("utf8", "grammar \"é\" {}\n".as_bytes());
        assert_eq!(read_text(&path).unwrap(), "grammar \"é\" {}\n");
        std::fs::remove_file(path).unwrap();
    }
}
