//! Reading YAML text: the file, a guard against deep nesting before the
//! YAML crate scans it, and the YAML crate's errors with line and column.

use super::model::UNKNOWN_TAG;
use super::EdgarError;
use std::path::Path;

/// The deepest nesting of flow collections (`[…]`, `{…}`) a map or room
/// set may have. Edgar's deepest is a door's `[[x, y], [x, y]]` inside a
/// list (3); the YAML scanner takes time proportional to the depth for
/// every token, so 100,000 brackets in a 200 KB file took half a minute.
pub const MAX_FLOW_DEPTH: usize = 64;

/// Refuses text whose flow collections nest deeper than
/// [`MAX_FLOW_DEPTH`], before the YAML crate scans it. Brackets in quoted
/// strings and comments do not count.
pub(super) fn check_flow_depth(file: &Path, text: &str) -> Result<(), EdgarError> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut previous = '\n';
    for (line_index, line) in text.lines().enumerate() {
        let mut comment = false;
        for (column, c) in line.chars().enumerate() {
            match quote {
                Some(q) => {
                    // A `"` string ends at an unescaped `"`; a `'` string at
                    // a `'` (a doubled `''` closes and reopens it: the same).
                    if c == q && !(q == '"' && previous == '\\') {
                        quote = None;
                    }
                }
                None if comment => {}
                None => match c {
                    // A quote opens a string only where a token starts (in
                    // `it's` it is a letter).
                    '"' | '\'' if column == 0 || " \t[{,:-?".contains(previous) => {
                        quote = Some(c);
                    }
                    '#' if previous.is_whitespace() || column == 0 => comment = true,
                    '[' | '{' => {
                        depth += 1;
                        if depth > MAX_FLOW_DEPTH {
                            return Err(EdgarError::Yaml {
                                file: file.to_owned(),
                                line: Some(line_index + 1),
                                column: Some(column + 1),
                                message: format!(
                                    "flow collections (`[…]`, `{{…}}`) nested more than \
                                     {MAX_FLOW_DEPTH} deep"
                                ),
                            });
                        }
                    }
                    ']' | '}' => depth = depth.saturating_sub(1),
                    _ => {}
                },
            }
            previous = if previous == '\\' && c == '\\' {
                ' '
            } else {
                c
            };
        }
        previous = '\n';
    }
    Ok(())
}

pub(super) fn yaml_error(file: &Path, text: &str, e: &serde_norway::Error) -> EdgarError {
    let location = e.location();
    let mut message = e.to_string();
    let mut at = location.as_ref().map(|l| (l.line(), l.column()));
    if let Some(l) = &location {
        let suffix = format!(" at line {} column {}", l.line(), l.column());
        if let Some(m) = message.strip_suffix(&suffix) {
            message = m.to_owned();
        }
        // The YAML crate places errors inside a tagged value at the start of
        // the mapping around it: find the tag itself from there.
        if let Some(tag) = message
            .split_once(UNKNOWN_TAG)
            .and_then(|(_, rest)| rest.split_once('`'))
            .map(|(tag, _)| tag)
        {
            at = find_tag(text, l.line(), tag).or(at);
        }
    }
    EdgarError::Yaml {
        file: file.to_owned(),
        line: at.map(|a| a.0),
        column: at.map(|a| a.1),
        message,
    }
}

/// The 1-based line and column of the first `!tag` at or after line
/// `from` (1-based) of `text`.
fn find_tag(text: &str, from: usize, tag: &str) -> Option<(usize, usize)> {
    let needle = format!("!{tag}");
    for (n, line) in text.lines().enumerate().skip(from.saturating_sub(1)) {
        for (byte, _) in line.match_indices(&needle) {
            let after = line[byte + needle.len()..].chars().next();
            if after.is_none_or(|c| c.is_whitespace() || matches!(c, '{' | '[' | ',' | '}' | ']')) {
                return Some((n + 1, line[..byte].chars().count() + 1));
            }
        }
    }
    None
}

/// The largest Edgar file read, in bytes (64 MiB; Edgar's own maps and
/// room sets are a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of the Edgar file at `path`: a regular file (not a device such
/// as `/dev/zero`, a FIFO or a folder) of at most [`MAX_FILE_BYTES`], in
/// UTF-8 (the first invalid byte is reported at its line and column).
pub(super) fn read(path: &Path) -> Result<String, EdgarError> {
    let io = |source: std::io::Error| EdgarError::Io {
        file: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::other("not a regular file")));
    }
    let too_large = |size: u64| {
        io(std::io::Error::other(format!(
            "{size} bytes, more than the {} MiB an Edgar file may have",
            MAX_FILE_BYTES >> 20
        )))
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_FILE_BYTES + 1), &mut bytes)
        })
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    crate::diagnostic::utf8_text(bytes).map_err(|e| {
        io(std::io::Error::other(format!(
            "line {}, column {}: byte 0x{:02x} is not UTF-8 text",
            e.at.line, e.at.column, e.byte
        )))
    })
}
