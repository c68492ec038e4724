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
    #[error("{}: {field}: {kind}", file.display())]
    Invalid {
        /// The file.
        file: PathBuf,
        /// Where in the file, as a path of keys (`passages[3]`,
        /// `defaultRoomShapes[0].setName`).
        field: String,
        /// What is wrong.
        kind: InvalidKind,
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

/// [`EdgarError::Invalid`] in `file` at `field`.
pub(super) fn invalid(file: &Path, field: impl Into<String>, kind: InvalidKind) -> EdgarError {
    EdgarError::Invalid {
        file: file.to_owned(),
        field: field.into(),
        kind,
    }
}

/// What is wrong with well-formed Edgar YAML ([`EdgarError::Invalid`]).
/// Room numbers are Edgar's (`roomsRange`), not indices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidKind {
    /// A name `set/` with nothing after the `/`.
    #[error("`{name}` names no room description after `/`")]
    NoDescriptionAfterSlash {
        /// The name as given.
        name: String,
    },
    /// A room set without `name`, or with an empty one.
    #[error("a room set needs a name")]
    SetWithoutName,
    /// A room set named [`CUSTOM_SET`](super::CUSTOM_SET).
    #[error(
        "`{}` is reserved for a map's customRoomDescriptionsSet",
        super::CUSTOM_SET
    )]
    ReservedSetName,
    /// A room set name another file took already.
    #[error("a room set named `{name}` is already loaded from {}", .other.display())]
    DuplicateSet {
        /// The name.
        name: String,
        /// The file that has it.
        other: PathBuf,
    },
    /// A map without `roomsRange`.
    #[error("missing: a map needs `roomsRange: {{from, to}}`")]
    MissingRange,
    /// `roomsRange` with `from` above `to`.
    #[error("from {from} is greater than to {to}")]
    ReversedRange {
        /// Its first room number.
        from: i32,
        /// Its last room number.
        to: i32,
    },
    /// `roomsRange` with more than [`MAX_ROOMS`](super::MAX_ROOMS) rooms.
    #[error(
        "{from}..={to} holds {count} rooms; at most {} are allowed",
        super::MAX_ROOMS
    )]
    TooManyRooms {
        /// Its first room number.
        from: i32,
        /// Its last room number.
        to: i32,
        /// How many rooms it holds.
        count: i64,
    },
    /// A room number outside `roomsRange`.
    #[error("room {room} is outside roomsRange {from}..={to}")]
    RoomOutsideRange {
        /// The room number.
        room: i32,
        /// The range's first room number.
        from: i32,
        /// The range's last room number.
        to: i32,
    },
    /// A room given shapes by two entries of `rooms:`.
    #[error("room {room} already has shapes from {first}")]
    ShapesTwice {
        /// The room number.
        room: i32,
        /// The field of the first entry.
        first: String,
    },
    /// No `defaultRoomShapes`, though some rooms have no shapes of their
    /// own.
    #[error("missing, and rooms {} have no shapes of their own", numbers(.rooms))]
    MissingDefaultShapes {
        /// Those rooms' numbers.
        rooms: Vec<i32>,
    },
    /// A room whose shapes entries name sets without descriptions.
    #[error("room {room} gets no room templates (the sets named have no descriptions)")]
    NoTemplates {
        /// The room number.
        room: i32,
    },
    /// A passage from a room to itself.
    #[error("[{}, {}] joins room {} to itself", .passage[0], .passage[1], .passage[0])]
    SelfLoop {
        /// The passage as given (room numbers).
        passage: [i32; 2],
    },
    /// A passage given twice (either way round).
    #[error("[{}, {}] repeats passages[{first}]", .passage[0], .passage[1])]
    RepeatedPassage {
        /// The passage as given (room numbers).
        passage: [i32; 2],
        /// The index of its first occurrence.
        first: usize,
    },
    /// A corridor offset of 0.
    #[error("an offset must be at least 1")]
    ZeroOffset,
    /// Corridors enabled without corridor shapes.
    #[error("corridors are enabled but no corridor shapes are given")]
    NoCorridorShapes,
    /// Corridor shapes whose sets have no descriptions.
    #[error("the sets named have no descriptions")]
    NoCorridorTemplates,
    /// A corridor template without exactly two specific door positions.
    #[error("corridor template `{template}` needs exactly two door positions (!SpecificPositionsMode with two doorPositions): a corridor joins two rooms")]
    CorridorDoors {
        /// The template's name.
        template: String,
    },
    /// Templates of the rooms with different repeat modes.
    #[error(
        "the rooms' templates ask for different repeat modes ({}); a layout has one repeat mode for all its rooms",
        repeat_modes(.modes)
    )]
    MixedRepeatModes {
        /// Each mode (by Edgar's name, sorted) with the templates that ask
        /// for it.
        modes: Vec<(String, Vec<String>)>,
    },
    /// Set `custom` named, but the map has no inline set.
    #[error("no setName, or setName `custom`, but the map has no customRoomDescriptionsSet")]
    NoCustomSet,
    /// A set name no loaded set has.
    #[error("unknown room set `{name}` (known sets: {})", none_or_list(.known))]
    UnknownSet {
        /// The name.
        name: String,
        /// The sets loaded (and `custom`, if the map has it).
        known: Vec<String>,
    },
    /// A scale factor below 1.
    #[error("[{}, {}]: both factors must be at least 1", .scale[0], .scale[1])]
    BadScale {
        /// The scale as given.
        scale: [i32; 2],
    },
    /// A description name the set does not have.
    #[error("set `{set}` has no room description `{name}` (it has: {})", none_or_list(.known))]
    UnknownDescription {
        /// The set.
        set: String,
        /// The name asked for.
        name: String,
        /// The set's descriptions.
        known: Vec<String>,
    },
    /// A description without shape, in a set without a default shape.
    #[error("no shape, and set `{set}` has no default shape")]
    NoShape {
        /// The set.
        set: String,
    },
    /// A description without door mode, in a set without a default one.
    #[error("no doorMode, and set `{set}` has no default doorMode")]
    NoDoorMode {
        /// The set.
        set: String,
    },
    /// A scaled corner beyond `i32`.
    #[error("[{}, {}] scaled by [{}, {}] overflows", .point[0], .point[1], .scale[0], .scale[1])]
    ScaleOverflow {
        /// The corner as given.
        point: [i32; 2],
        /// The scale.
        scale: [i32; 2],
    },
    /// A template name two descriptions would both get.
    #[error("template name `{name}` is already taken by another description")]
    NameTaken {
        /// The name.
        name: String,
    },
}

/// `1, 2, 3`.
fn numbers(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}

/// `a, b`, or `none` for an empty list.
fn none_or_list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// `Mode: a, b; Other: c`.
fn repeat_modes(modes: &[(String, Vec<String>)]) -> String {
    modes
        .iter()
        .map(|(m, names)| format!("{m}: {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
