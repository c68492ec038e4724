//! Why an Edgar file could not be read ([`EdgarError`]): the file, and the
//! place in it (line and column, or the field).

use crate::layout::template::TemplateError;
use std::path::{Path, PathBuf};

/// Why an Edgar file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EdgarError {
    /// The file or folder could not be read.
    #[error("{}: {source}", file.display())]
    Io {
        /// The file or folder.
        file: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The YAML crate refused the text: bad YAML, a wrong type, an unknown
    /// key, an unknown door-mode tag.
    #[error("{}{}: {message}", file.display(), position(*line, *column))]
    Yaml {
        /// The file.
        file: PathBuf,
        /// 1-based line, where the YAML crate reports one.
        line: Option<usize>,
        /// 1-based column, where the YAML crate reports one.
        column: Option<usize>,
        /// The YAML crate's message, with the field path it gives.
        message: String,
    },
    /// Well-formed YAML that says something impossible: an unknown set, a
    /// room outside the range, a missing door mode, …
    #[error("{}: {field}: {message}", file.display())]
    Invalid {
        /// The file.
        file: PathBuf,
        /// Where in the file, as a path of keys (`passages[3]`,
        /// `defaultRoomShapes[0].setName`).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A room description that is no valid template (its outline or doors).
    #[error("{}: {field}: {source}", file.display())]
    Template {
        /// The file that holds the description (a set's file, or the map
        /// for its `customRoomDescriptionsSet`).
        file: PathBuf,
        /// The description's place in that file.
        field: String,
        /// What is wrong with it.
        source: TemplateError,
    },
}

/// `:line:column` when known.
fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

pub(super) fn invalid(
    file: &Path,
    field: impl Into<String>,
    message: impl Into<String>,
) -> EdgarError {
    EdgarError::Invalid {
        file: file.to_owned(),
        field: field.into(),
        message: message.into(),
    }
}
