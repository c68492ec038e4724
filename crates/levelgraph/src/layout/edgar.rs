//! Edgar-DotNet's YAML input: map files and room-set files read into a
//! [`LayoutProblem`].
//!
//! Edgar-DotNet (Ondřej Nepožitek, MIT) describes a level in two kinds of
//! YAML file, side by side in a `maps/` and a `rooms/` folder (see
//! [`default_rooms_dir`]). This module reads both as Edgar-DotNet 1.x's
//! `ConfigLoader` does (its `MapDescriptionModel`, `RoomShapesModel`,
//! `RoomDescriptionsSetModel` and `RoomDescriptionModel`), and reports bad
//! input as an [`EdgarError`] naming the file and the place, never a panic.
//!
//! # Room sets
//!
//! ```yaml
//! name: thesis_basic            # how maps refer to the set (not the file name)
//! default:                      # optional: fills what a description leaves out
//!   doorMode: !OverlapMode
//!     doorLength: 2
//!     cornerDistance: 1
//! roomDescriptions:
//!   12-square:
//!     shape: [[0,0], [0,12], [12,12], [12,0]]
//!     doorMode: ...             # optional, else default.doorMode
//!     repeatMode: NoRepeat      # optional: AllowRepeat, NoImmediate, NoRepeat
//! ```
//!
//! Door modes are tagged: `!OverlapMode {doorLength, cornerDistance}` (alias
//! `!SimpleMode`; `cornerDistance` defaults to 0) becomes
//! [`DoorRule::Overlap`], `!SpecificPositionsMode {doorPositions: [[[x,y],
//! [x,y]], …]}` (alias `!ManualMode`) becomes [`DoorRule::Specific`].
//! `default` may also give a `shape`. The name `custom` is reserved for a
//! map's inline set.
//!
//! # Maps
//!
//! ```yaml
//! roomsRange: {from: 0, to: 8}     # room numbers, inclusive
//! passages: [[0,1], [0,3], ...]    # the level graph's edges
//! defaultRoomShapes:               # shapes of every room without its own
//!   - setName: thesis_basic
//! rooms:                           # optional: shapes of chosen rooms
//!   [2, 3]:
//!     roomShapes:
//!       - {setName: bossRooms, roomDescriptionName: bossRoom1, rotate: false}
//! customRoomDescriptionsSet: ...   # optional: an inline set, named `custom`
//! corridors:                       # optional
//!   enable: true                   # default true when `corridors` is there
//!   offsets: [2]
//!   corridorShapes:
//!     - setName: thesis_corridors
//! ```
//!
//! A shapes entry (`RoomShapesModel`) has `setName` (absent or empty: the
//! map's `custom` set), `roomDescriptionName` (one description of the set
//! instead of all), `rotate` (default true), `scale: [sx, sy]`, and
//! `probability` and `normalizeProbabilities`, which are read and ignored
//! (as by Edgar 1.x's final loader; earlier ones weighted the choice of
//! shapes with them). Unknown keys are errors,
//! as in Edgar (YamlDotNet refuses unmatched properties).
//!
//! # Mapping into a [`LayoutProblem`]
//!
//! - Rooms: one per number of `roomsRange`, in order, named by the number
//!   (`"0"`, `"1"`, …) with tag `"room"`. A range may hold a single room
//!   (Edgar asks for two); at most [`MAX_ROOMS`].
//! - Templates of a room: the union of its shapes entries, in order. A room
//!   listed under `rooms:` with `roomShapes` gets only those; the others get
//!   `defaultRoomShapes` (an error if it is missing and some room needs it).
//!   A room given shapes twice, or a number outside the range, is an error.
//! - Templates are shared: one per (set, description, scale, rotate), named
//!   `set/description` (e.g. `thesis_basic/12-square`), with `@SXxSY` added
//!   for a scale other than `[1, 1]` and `~r0` for `rotate: false`. (Edgar
//!   keys them by set, description and scale only, so the first `rotate`
//!   seen wins there; here each variant is its own template.)
//! - Door rule: the description's `doorMode`, else the set's
//!   `default.doorMode`, else an error. `repeatMode` likewise (Edgar ignores
//!   a default `repeatMode`; here it is inherited).
//! - Transforms: the four rotations ([`Transform::all`]`(false)`), as Edgar
//!   gives every template unless `rotate: false`, which leaves only the
//!   identity. Edgar's YAML has no mirroring.
//! - Scale: multiplies the outline's coordinates, as Edgar does; door
//!   positions and lengths stay as written (so specific doors rarely survive
//!   a scale: the template check then says which door is off its side).
//! - Edges: the passages, as indices into the rooms. Self-loops and repeated
//!   passages (either way round) are errors, as Edgar refuses them.
//! - Corridors: `Some(CorridorSpec)` when `corridors` is present and not
//!   `enable: false`; `corridorShapes` must give templates, each with exactly
//!   two specific door positions (a corridor joins two rooms). `offsets` is
//!   kept (each ≥ 1; absent: empty, which Edgar 1.x's final loader also
//!   accepts, as it no longer reads them).
//! - `min_distance`: 0. Edgar's YAML has no such key; Edgar 2's
//!   `LevelDescriptionGrid2D.MinimumRoomDistance` defaults to 0 (rooms may
//!   touch), with or without corridors.
//! - `repeat`: the repeat mode of the rooms' templates ([`RepeatMode::Allow`]
//!   when none is given: Edgar 1.x's default). A layout problem has one mode
//!   for all rooms, so templates that ask for different ones are an error.
//!   Corridor templates' modes are ignored.
//! - `drawing`: `None`.
//!
//! # YAML crate
//!
//! [`serde_norway`]: `serde_yaml` is deprecated and unmaintained; of its
//! forks, `serde_norway` is maintained and widely adopted in its place,
//! keeps `serde_yaml`'s API and behaviour (a YAML tag `!OverlapMode` selects
//! the enum variant `OverlapMode`; errors carry line and column), and adds
//! only small dependencies (`indexmap`, `itoa`, `ryu` and its own fork of
//! `unsafe-libyaml`, no proc macros, no build script). `serde_yaml_ng` was
//! the other candidate, with the same dependency footprint but older
//! releases.

use super::polygon::{GridPoint, Transform};
use super::template::{DoorRule, RepeatMode, RoomTemplate, TemplateError};
use super::{CorridorSpec, LayoutProblem, RoomSpec};
use serde::de::{self, Deserializer, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// The name of a map's inline room set (`customRoomDescriptionsSet`), and
/// the set a shapes entry without `setName` refers to.
pub const CUSTOM_SET: &str = "custom";

/// Most rooms a `roomsRange` may hold.
pub const MAX_ROOMS: usize = 100_000;

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

fn invalid(file: &Path, field: impl Into<String>, message: impl Into<String>) -> EdgarError {
    EdgarError::Invalid {
        file: file.to_owned(),
        field: field.into(),
        message: message.into(),
    }
}

fn yaml_error(file: &Path, text: &str, e: &serde_norway::Error) -> EdgarError {
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

/// The deepest nesting of flow collections (`[…]`, `{…}`) a map or room
/// set may have. Edgar's deepest is a door's `[[x, y], [x, y]]` inside a
/// list (3); the YAML scanner takes time proportional to the depth for
/// every token, so 100,000 brackets in a 200 KB file took half a minute.
pub const MAX_FLOW_DEPTH: usize = 64;

/// Refuses text whose flow collections nest deeper than
/// [`MAX_FLOW_DEPTH`], before the YAML crate scans it. Brackets in quoted
/// strings and comments do not count.
fn check_flow_depth(file: &Path, text: &str) -> Result<(), EdgarError> {
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

/// How the message for an unknown door-mode tag starts, up to the tag.
const UNKNOWN_TAG: &str = "unknown door mode tag `!";

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

fn read(path: &Path) -> Result<String, EdgarError> {
    std::fs::read_to_string(path).map_err(|source| EdgarError::Io {
        file: path.to_owned(),
        source,
    })
}

// ---------------------------------------------------------------------------
// The YAML models (Edgar's, camelCase keys).

/// A mapping read in file order, refusing repeated keys.
#[derive(Clone, Debug)]
struct Ordered<K, V>(Vec<(K, V)>);

impl<'de, K, V> Deserialize<'de> for Ordered<K, V>
where
    K: Deserialize<'de> + Eq + std::hash::Hash + Clone + fmt::Debug,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seen<K, V>(PhantomData<(K, V)>);
        impl<'de, K, V> Visitor<'de> for Seen<K, V>
        where
            K: Deserialize<'de> + Eq + std::hash::Hash + Clone + fmt::Debug,
            V: Deserialize<'de>,
        {
            type Value = Ordered<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(K, V)> = Vec::new();
                let mut seen: HashSet<K> = HashSet::new();
                while let Some(k) = map.next_key::<K>()? {
                    if !seen.insert(k.clone()) {
                        return Err(de::Error::custom(format!("duplicate key {k:?}")));
                    }
                    let v = map.next_value::<V>()?;
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Seen(PhantomData))
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct MapModel {
    rooms_range: Option<RangeModel>,
    passages: Option<Vec<[i32; 2]>>,
    default_room_shapes: Option<Vec<ShapesModel>>,
    rooms: Option<Ordered<Vec<i32>, RoomModel>>,
    custom_room_descriptions_set: Option<SetModel>,
    corridors: Option<CorridorsModel>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RangeModel {
    #[serde(default)]
    from: i32,
    to: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RoomModel {
    room_shapes: Option<Vec<ShapesModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ShapesModel {
    set_name: Option<String>,
    room_description_name: Option<String>,
    rotate: Option<bool>,
    // Read for compatibility and ignored, as by Edgar 1.x's final loader
    // (earlier ones weighted the choice of shapes with them).
    #[allow(dead_code)]
    probability: Option<f64>,
    #[allow(dead_code)] // likewise
    normalize_probabilities: Option<bool>,
    scale: Option<[i32; 2]>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CorridorsModel {
    enable: Option<bool>,
    offsets: Option<Vec<u32>>,
    corridor_shapes: Option<Vec<ShapesModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SetModel {
    name: Option<String>,
    default: Option<DescriptionModel>,
    room_descriptions: Option<Ordered<String, DescriptionModel>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DescriptionModel {
    #[allow(dead_code)] // Edgar overwrites it with the key
    name: Option<String>,
    shape: Option<Vec<[i32; 2]>>,
    door_mode: Option<DoorModeModel>,
    repeat_mode: Option<RepeatModel>,
}

#[derive(Clone, Debug)]
enum DoorModeModel {
    Overlap(OverlapModel),
    Specific(SpecificModel),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct OverlapModel {
    door_length: u32,
    #[serde(default)]
    corner_distance: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SpecificModel {
    door_positions: Vec<[[i32; 2]; 2]>,
}

/// The tags Edgar maps to door modes (YamlDotNet's `WithTagMapping`).
const DOOR_TAGS: &[&str] = &[
    "OverlapMode",
    "SimpleMode",
    "SpecificPositionsMode",
    "ManualMode",
];

impl<'de> Deserialize<'de> for DoorModeModel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Tagged;
        impl<'de> Visitor<'de> for Tagged {
            type Value = DoorModeModel;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a door mode tagged !OverlapMode or !SpecificPositionsMode")
            }
            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
                let (tag, body): (String, _) = data.variant()?;
                match tag.as_str() {
                    "OverlapMode" | "SimpleMode" => {
                        body.newtype_variant().map(DoorModeModel::Overlap)
                    }
                    "SpecificPositionsMode" | "ManualMode" => {
                        body.newtype_variant().map(DoorModeModel::Specific)
                    }
                    other => Err(de::Error::custom(format!(
                        "{UNKNOWN_TAG}{other}`: Edgar's are !OverlapMode (or \
                         !SimpleMode) and !SpecificPositionsMode (or !ManualMode)"
                    ))),
                }
            }
        }
        d.deserialize_enum("DoorMode", DOOR_TAGS, Tagged)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
enum RepeatModel {
    #[serde(alias = "allowRepeat")]
    AllowRepeat,
    #[serde(alias = "noImmediate")]
    NoImmediate,
    #[serde(alias = "noRepeat")]
    NoRepeat,
}

impl RepeatModel {
    fn mode(self) -> RepeatMode {
        match self {
            RepeatModel::AllowRepeat => RepeatMode::Allow,
            RepeatModel::NoImmediate => RepeatMode::NoImmediate,
            RepeatModel::NoRepeat => RepeatMode::NoRepeat,
        }
    }
}

fn repeat_name(m: RepeatMode) -> &'static str {
    match m {
        RepeatMode::Allow => "AllowRepeat",
        RepeatMode::NoImmediate => "NoImmediate",
        RepeatMode::NoRepeat => "NoRepeat",
    }
}

// ---------------------------------------------------------------------------
// Room sets.

/// Room sets by name (their `name` key, not their file name), from a folder
/// of room-set files or from single files. Descriptions are checked when a
/// map uses them, as in Edgar.
#[derive(Clone, Debug, Default)]
pub struct RoomSets {
    sets: BTreeMap<String, LoadedSet>,
}

#[derive(Clone, Debug)]
struct LoadedSet {
    file: PathBuf,
    model: SetModel,
}

impl RoomSets {
    /// No sets.
    pub fn new() -> Self {
        Self::default()
    }

    /// The templates of set `set` (every description, each with the four
    /// rotations, named `set/description`), or of the one description
    /// `set/description` when `name` has that form: how a grammar's `rooms`
    /// block uses a loaded set. `field` names the place for messages.
    ///
    /// # Errors
    /// [`EdgarError::Invalid`] for an unknown set or description (listing
    /// the known ones), [`EdgarError::Template`] for a bad description.
    pub fn templates(&self, name: &str, field: &str) -> Result<Vec<RoomTemplate>, EdgarError> {
        let (set, description) = match name.split_once('/') {
            Some((set, d)) if !d.is_empty() => (set, Some(d.to_owned())),
            Some(_) => {
                return Err(invalid(
                    Path::new(field),
                    field,
                    format!("`{name}` names no room description after `/`"),
                ))
            }
            None => (name, None),
        };
        let file = self
            .sets
            .get(set)
            .map_or_else(|| PathBuf::from(field), |s| s.file.clone());
        let mut b = Builder {
            sets: self,
            custom: None,
            map_file: &file,
            templates: Vec::new(),
            repeat: Vec::new(),
            by_key: HashMap::new(),
            names: HashSet::new(),
        };
        let entry = ShapesModel {
            set_name: Some(set.to_owned()),
            room_description_name: description,
            rotate: None,
            probability: None,
            normalize_probabilities: None,
            scale: None,
        };
        b.shapes(&[entry], field)?;
        Ok(b.templates)
    }

    /// Every `*.yml` (and `*.yaml`) file of `dir`, in file-name order (not
    /// its subfolders).
    ///
    /// # Errors
    /// [`EdgarError::Io`] for an unreadable folder or file; any error of
    /// [`RoomSets::parse`].
    pub fn load_dir(dir: &Path) -> Result<Self, EdgarError> {
        let io = |source| EdgarError::Io {
            file: dir.to_owned(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let yaml = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"));
            if yaml && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        let mut sets = Self::new();
        for f in &files {
            sets.load_file(f)?;
        }
        Ok(sets)
    }

    /// Adds the set in the file at `path`.
    ///
    /// # Errors
    /// [`EdgarError::Io`]; any error of [`RoomSets::parse`].
    pub fn load_file(&mut self, path: &Path) -> Result<(), EdgarError> {
        let text = read(path)?;
        self.parse(&text, path)
    }

    /// Adds the set that `text` (the contents of `file`, named in errors)
    /// describes.
    ///
    /// # Errors
    /// [`EdgarError::Yaml`] for text that is not a room set;
    /// [`EdgarError::Invalid`] for a missing or empty `name`, the reserved
    /// name [`CUSTOM_SET`], or a name another file already took.
    pub fn parse(&mut self, text: &str, file: &Path) -> Result<(), EdgarError> {
        // A leading byte-order mark is not part of the text; the YAML
        // reader takes one for the start of a second document.
        let text = crate::diagnostic::strip_bom(text);
        check_flow_depth(file, text)?;
        let model: SetModel =
            serde_norway::from_str(text).map_err(|e| yaml_error(file, text, &e))?;
        let name = match model.name.as_deref() {
            None | Some("") => return Err(invalid(file, "name", "a room set needs a name")),
            Some(n) => n.to_owned(),
        };
        if name == CUSTOM_SET {
            return Err(invalid(
                file,
                "name",
                format!("`{CUSTOM_SET}` is reserved for a map's customRoomDescriptionsSet"),
            ));
        }
        if let Some(other) = self.sets.get(&name) {
            return Err(invalid(
                file,
                "name",
                format!(
                    "a room set named `{name}` is already loaded from {}",
                    other.file.display()
                ),
            ));
        }
        self.sets.insert(
            name,
            LoadedSet {
                file: file.to_owned(),
                model,
            },
        );
        Ok(())
    }

    /// The set names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.sets.keys().map(String::as_str)
    }

    /// Whether a set of this name is loaded.
    pub fn contains(&self, name: &str) -> bool {
        self.sets.contains_key(name)
    }

    /// How many sets are loaded.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether no set is loaded.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

// ---------------------------------------------------------------------------
// Maps.

/// Where a map's room sets are by default: the `rooms` folder beside the
/// map's folder (Edgar's layout: `maps/` and `rooms/` side by side), e.g.
/// `edgar/maps/example1_basic.yml` → `edgar/rooms`.
pub fn default_rooms_dir(map: &Path) -> PathBuf {
    let dir = map.parent().unwrap_or(Path::new(""));
    if dir.as_os_str().is_empty() {
        return Path::new("..").join("rooms");
    }
    match (dir.file_name(), dir.parent()) {
        (Some(_), Some(up)) => up.join("rooms"),
        // `.`, `..`, `/`: go up by name.
        _ => dir.join("..").join("rooms"),
    }
}

/// Reads the map file at `path`; `sets` resolves its `setName`s, and the
/// map's inline `customRoomDescriptionsSet` is the set [`CUSTOM_SET`].
///
/// # Errors
/// [`EdgarError::Io`]; any error of [`parse_map`].
pub fn load_map(path: &Path, sets: &RoomSets) -> Result<LayoutProblem, EdgarError> {
    let text = read(path)?;
    parse_map(&text, path, sets)
}

/// Reads a map from `text` (the contents of `file`, named in errors); see
/// the module docs for how it maps into a [`LayoutProblem`].
///
/// # Errors
/// [`EdgarError::Yaml`] for text that is not a map; [`EdgarError::Invalid`]
/// for a bad range, passage, set or description name, missing shapes or
/// door modes, bad corridors, clashing repeat modes;
/// [`EdgarError::Template`] for a description whose outline or doors are
/// not a valid template.
pub fn parse_map(text: &str, file: &Path, sets: &RoomSets) -> Result<LayoutProblem, EdgarError> {
    // As in `RoomSets::parse`.
    let text = crate::diagnostic::strip_bom(text);
    check_flow_depth(file, text)?;
    let map: MapModel = serde_norway::from_str(text).map_err(|e| yaml_error(file, text, &e))?;
    let Some(range) = map.rooms_range else {
        return Err(invalid(
            file,
            "roomsRange",
            "missing: a map needs `roomsRange: {from, to}`",
        ));
    };
    let (from, to) = (range.from, range.to);
    if from > to {
        return Err(invalid(
            file,
            "roomsRange",
            format!("from {from} is greater than to {to}"),
        ));
    }
    let count = i64::from(to) - i64::from(from) + 1;
    if count > MAX_ROOMS as i64 {
        return Err(invalid(
            file,
            "roomsRange",
            format!("{from}..={to} holds {count} rooms; at most {MAX_ROOMS} are allowed"),
        ));
    }
    let count = count as usize;
    let index = |room: i32| -> Option<usize> {
        (from..=to)
            .contains(&room)
            .then(|| (i64::from(room) - i64::from(from)) as usize)
    };
    let outside = |field: &str, room: i32| {
        invalid(
            file,
            field,
            format!("room {room} is outside roomsRange {from}..={to}"),
        )
    };

    let mut b = Builder {
        sets,
        custom: map.custom_room_descriptions_set.as_ref(),
        map_file: file,
        templates: Vec::new(),
        repeat: Vec::new(),
        by_key: HashMap::new(),
        names: HashSet::new(),
    };

    // Rooms with shapes of their own.
    let mut own: Vec<Option<(Vec<usize>, String)>> = vec![None; count];
    if let Some(rooms) = &map.rooms {
        for (key, model) in &rooms.0 {
            let field = format!("rooms{}", list(key));
            let Some(shapes) = &model.room_shapes else {
                continue; // Edgar ignores an entry without roomShapes
            };
            for &room in key {
                let i = index(room).ok_or_else(|| outside(&field, room))?;
                if let Some((_, first)) = &own[i] {
                    return Err(invalid(
                        file,
                        &field,
                        format!("room {room} already has shapes from {first}"),
                    ));
                }
                own[i] = Some((Vec::new(), field.clone()));
            }
            let templates = b.shapes(shapes, &format!("{field}.roomShapes"))?;
            for &room in key {
                if let Some(i) = index(room) {
                    if let Some((t, _)) = &mut own[i] {
                        t.clone_from(&templates);
                    }
                }
            }
        }
    }

    // Everyone else: the default shapes.
    let without: Vec<i32> = (0..count)
        .filter(|&i| own[i].is_none())
        .map(|i| from + i as i32)
        .collect();
    let defaults = if without.is_empty() {
        Vec::new()
    } else {
        let Some(shapes) = &map.default_room_shapes else {
            return Err(invalid(
                file,
                "defaultRoomShapes",
                format!(
                    "missing, and rooms {} have no shapes of their own",
                    numbers(&without)
                ),
            ));
        };
        b.shapes(shapes, "defaultRoomShapes")?
    };
    let mut rooms = Vec::with_capacity(count);
    for (i, o) in own.into_iter().enumerate() {
        let number = from + i as i32;
        let (templates, field) = match o {
            Some((t, field)) => (t, field),
            None => (defaults.clone(), "defaultRoomShapes".to_owned()),
        };
        if templates.is_empty() {
            return Err(invalid(
                file,
                field,
                format!(
                    "room {number} gets no room templates (the sets named have no descriptions)"
                ),
            ));
        }
        rooms.push(RoomSpec {
            name: number.to_string(),
            tag: "room".to_owned(),
            templates,
        });
    }

    // Passages.
    let mut edges: Vec<[usize; 2]> = Vec::new();
    let mut seen: HashMap<[usize; 2], usize> = HashMap::new();
    for (k, &[a, b2]) in map.passages.iter().flatten().enumerate() {
        let field = format!("passages[{k}]");
        let ia = index(a).ok_or_else(|| outside(&field, a))?;
        let ib = index(b2).ok_or_else(|| outside(&field, b2))?;
        if ia == ib {
            return Err(invalid(
                file,
                field,
                format!("[{a}, {b2}] joins room {a} to itself"),
            ));
        }
        let key = [ia.min(ib), ia.max(ib)];
        if let Some(&first) = seen.get(&key) {
            return Err(invalid(
                file,
                field,
                format!("[{a}, {b2}] repeats passages[{first}]"),
            ));
        }
        seen.insert(key, k);
        edges.push([ia, ib]);
    }

    // Corridors.
    let corridors = match &map.corridors {
        Some(c) if c.enable.unwrap_or(true) => {
            let offsets = c.offsets.clone().unwrap_or_default();
            if let Some(k) = offsets.iter().position(|&o| o == 0) {
                return Err(invalid(
                    file,
                    format!("corridors.offsets[{k}]"),
                    "an offset must be at least 1",
                ));
            }
            let shapes = c.corridor_shapes.as_deref().unwrap_or_default();
            if shapes.is_empty() {
                return Err(invalid(
                    file,
                    "corridors.corridorShapes",
                    "corridors are enabled but no corridor shapes are given",
                ));
            }
            let templates = b.shapes(shapes, "corridors.corridorShapes")?;
            if templates.is_empty() {
                return Err(invalid(
                    file,
                    "corridors.corridorShapes",
                    "the sets named have no descriptions",
                ));
            }
            for &t in &templates {
                let tpl = &b.templates[t];
                let doors = match &tpl.doors {
                    DoorRule::Specific(list) => list.len(),
                    DoorRule::Overlap { .. } => 0,
                };
                if doors != 2 {
                    return Err(invalid(
                        file,
                        "corridors.corridorShapes",
                        format!(
                            "corridor template `{}` needs exactly two door positions \
                             (!SpecificPositionsMode with two doorPositions): a corridor \
                             joins two rooms",
                            tpl.name
                        ),
                    ));
                }
            }
            Some(CorridorSpec { offsets, templates })
        }
        _ => None,
    };

    // One repeat mode for all rooms.
    let mut used: Vec<usize> = rooms.iter().flat_map(|r| r.templates.clone()).collect();
    used.sort_unstable();
    used.dedup();
    let mut modes: BTreeMap<&'static str, Vec<&str>> = BTreeMap::new();
    for &t in &used {
        modes
            .entry(repeat_name(b.repeat[t]))
            .or_default()
            .push(&b.templates[t].name);
    }
    let repeat = if modes.len() > 1 {
        let detail: Vec<String> = modes
            .iter()
            .map(|(m, names)| format!("{m}: {}", names.join(", ")))
            .collect();
        return Err(invalid(
            file,
            "repeatMode",
            format!(
                "the rooms' templates ask for different repeat modes ({}); a layout has one \
                 repeat mode for all its rooms",
                detail.join("; ")
            ),
        ));
    } else {
        used.first().map_or(RepeatMode::Allow, |&t| b.repeat[t])
    };

    Ok(LayoutProblem {
        rooms,
        edges,
        templates: b.templates,
        corridors,
        min_distance: 0,
        repeat,
        drawing: None,
    })
}

/// `[1, 2, 3]`.
fn list(v: &[i32]) -> String {
    format!("[{}]", numbers(v))
}

/// `1, 2, 3`.
fn numbers(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}

/// One set as a shapes entry sees it.
struct SetRef<'a> {
    name: &'a str,
    file: &'a Path,
    /// The key path of the set inside `file` (`customRoomDescriptionsSet.`
    /// for a map's inline set, else empty).
    prefix: &'static str,
    model: &'a SetModel,
}

/// Turns shapes entries into templates, once per (set, description, scale,
/// rotate).
struct Builder<'a> {
    sets: &'a RoomSets,
    custom: Option<&'a SetModel>,
    map_file: &'a Path,
    templates: Vec<RoomTemplate>,
    /// Per template: its repeat mode.
    repeat: Vec<RepeatMode>,
    by_key: HashMap<(String, String, [i32; 2], bool), usize>,
    names: HashSet<String>,
}

impl<'a> Builder<'a> {
    fn set(&self, name: &str, field: &str) -> Result<SetRef<'a>, EdgarError> {
        if name == CUSTOM_SET {
            return match self.custom {
                Some(model) => Ok(SetRef {
                    name: CUSTOM_SET,
                    file: self.map_file,
                    prefix: "customRoomDescriptionsSet.",
                    model,
                }),
                None => Err(invalid(
                    self.map_file,
                    field,
                    "no setName, or setName `custom`, but the map has no \
                     customRoomDescriptionsSet",
                )),
            };
        }
        match self.sets.sets.get_key_value(name) {
            Some((key, set)) => Ok(SetRef {
                name: key,
                file: &set.file,
                prefix: "",
                model: &set.model,
            }),
            None => {
                let mut known: Vec<&str> = self.sets.names().collect();
                if self.custom.is_some() {
                    known.push(CUSTOM_SET);
                }
                let known = if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                };
                Err(invalid(
                    self.map_file,
                    field,
                    format!("unknown room set `{name}` (known sets: {known})"),
                ))
            }
        }
    }

    /// The templates of a list of shapes entries, each once, in order.
    fn shapes(&mut self, entries: &[ShapesModel], field: &str) -> Result<Vec<usize>, EdgarError> {
        let mut out: Vec<usize> = Vec::new();
        for (k, entry) in entries.iter().enumerate() {
            let field = format!("{field}[{k}]");
            let set_name = match entry.set_name.as_deref() {
                None | Some("") => CUSTOM_SET,
                Some(n) => n,
            };
            let set = self.set(set_name, &format!("{field}.setName"))?;
            let scale = entry.scale.unwrap_or([1, 1]);
            if scale[0] < 1 || scale[1] < 1 {
                return Err(invalid(
                    self.map_file,
                    format!("{field}.scale"),
                    format!(
                        "[{}, {}]: both factors must be at least 1",
                        scale[0], scale[1]
                    ),
                ));
            }
            let rotate = entry.rotate.unwrap_or(true);
            let descriptions: &[(String, DescriptionModel)] = set
                .model
                .room_descriptions
                .as_ref()
                .map_or(&[], |d| d.0.as_slice());
            let chosen: Vec<&(String, DescriptionModel)> =
                match entry.room_description_name.as_deref() {
                    None | Some("") => descriptions.iter().collect(),
                    Some(want) => {
                        let hit: Vec<_> = descriptions.iter().filter(|(n, _)| n == want).collect();
                        if hit.is_empty() {
                            let have: Vec<&str> =
                                descriptions.iter().map(|(n, _)| n.as_str()).collect();
                            return Err(invalid(
                                self.map_file,
                                format!("{field}.roomDescriptionName"),
                                format!(
                                    "set `{}` has no room description `{want}` (it has: {})",
                                    set.name,
                                    if have.is_empty() {
                                        "none".to_owned()
                                    } else {
                                        have.join(", ")
                                    }
                                ),
                            ));
                        }
                        hit
                    }
                };
            for (name, desc) in chosen {
                let t = self.template(&set, name, desc, scale, rotate)?;
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        Ok(out)
    }

    fn template(
        &mut self,
        set: &SetRef<'_>,
        name: &str,
        desc: &DescriptionModel,
        scale: [i32; 2],
        rotate: bool,
    ) -> Result<usize, EdgarError> {
        let key = (set.name.to_owned(), name.to_owned(), scale, rotate);
        if let Some(&t) = self.by_key.get(&key) {
            return Ok(t);
        }
        let field = format!("{}roomDescriptions.{name}", set.prefix);
        let default = set.model.default.as_ref();
        let Some(shape) = desc
            .shape
            .as_ref()
            .or_else(|| default.and_then(|d| d.shape.as_ref()))
        else {
            return Err(invalid(
                set.file,
                field,
                format!("no shape, and set `{}` has no default shape", set.name),
            ));
        };
        let Some(door_mode) = desc
            .door_mode
            .as_ref()
            .or_else(|| default.and_then(|d| d.door_mode.as_ref()))
        else {
            return Err(invalid(
                set.file,
                field,
                format!(
                    "no doorMode, and set `{}` has no default doorMode",
                    set.name
                ),
            ));
        };
        let repeat = desc
            .repeat_mode
            .or_else(|| default.and_then(|d| d.repeat_mode))
            .map_or(RepeatMode::Allow, RepeatModel::mode);
        let mut outline = Vec::with_capacity(shape.len());
        for &[x, y] in shape {
            match (x.checked_mul(scale[0]), y.checked_mul(scale[1])) {
                (Some(x), Some(y)) => outline.push(GridPoint::new(x, y)),
                _ => {
                    return Err(invalid(
                        set.file,
                        format!("{field}.shape"),
                        format!(
                            "[{x}, {y}] scaled by [{}, {}] overflows",
                            scale[0], scale[1]
                        ),
                    ))
                }
            }
        }
        let doors = match door_mode {
            DoorModeModel::Overlap(o) => DoorRule::Overlap {
                length: o.door_length,
                corner_distance: o.corner_distance,
            },
            DoorModeModel::Specific(s) => DoorRule::Specific(
                s.door_positions
                    .iter()
                    .map(|&[[ax, ay], [bx, by]]| [GridPoint::new(ax, ay), GridPoint::new(bx, by)])
                    .collect(),
            ),
        };
        let mut tname = format!("{}/{name}", set.name);
        if scale != [1, 1] {
            tname.push_str(&format!("@{}x{}", scale[0], scale[1]));
        }
        if !rotate {
            tname.push_str("~r0");
        }
        let transforms: Vec<Transform> = if rotate {
            Transform::all(false).collect()
        } else {
            vec![Transform::IDENTITY]
        };
        let template =
            RoomTemplate::new(&tname, &outline, doors, transforms).map_err(|source| {
                EdgarError::Template {
                    file: set.file.to_owned(),
                    field: field.clone(),
                    source,
                }
            })?;
        if !self.names.insert(tname.clone()) {
            return Err(invalid(
                set.file,
                field,
                format!("template name `{tname}` is already taken by another description"),
            ));
        }
        self.templates.push(template);
        self.repeat.push(repeat);
        let t = self.templates.len() - 1;
        self.by_key.insert(key, t);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::PolygonError;

    /// Two small sets: `a` with a default door mode, `b` without.
    fn sets() -> RoomSets {
        let mut s = RoomSets::new();
        s.parse(
            "name: a
default:
  doorMode: !OverlapMode
    doorLength: 1
roomDescriptions:
  sq:
    shape: [[0,0], [0,4], [4,4], [4,0]]
  wide:
    shape: [[0,0], [0,2], [6,2], [6,0]]
",
            Path::new("rooms/a.yml"),
        )
        .unwrap();
        s.parse(
            "name: b
roomDescriptions:
  door:
    shape: [[0,0], [0,2], [2,2], [2,0]]
    doorMode: !ManualMode
      doorPositions: [[[0,0],[2,0]], [[0,2],[2,2]]]
  nodoor:
    shape: [[0,0], [0,2], [2,2], [2,0]]
  diagonal:
    shape: [[0,0], [4,0], [4,4], [1,5]]
    doorMode: !SimpleMode {doorLength: 1}
",
            Path::new("rooms/b.yml"),
        )
        .unwrap();
        s
    }

    const HEAD: &str = "roomsRange: {from: 0, to: 8}\n";

    fn load(body: &str) -> Result<LayoutProblem, EdgarError> {
        parse_map(&format!("{HEAD}{body}"), Path::new("m.yml"), &sets())
    }

    fn err(body: &str) -> String {
        match load(body) {
            Ok(_) => panic!("loaded:\n{body}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_small_map_loads() {
        let pb = load("passages: [[0,1], [8,0]]\ndefaultRoomShapes: [{setName: a}]\n").unwrap();
        assert_eq!(pb.rooms.len(), 9);
        assert_eq!(pb.edges, [[0, 1], [8, 0]]);
        let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a/sq", "a/wide"]);
        assert_eq!(
            pb.templates[0].doors,
            DoorRule::Overlap {
                length: 1,
                corner_distance: 0
            }
        );
    }

    #[test]
    fn unknown_sets_list_the_known_ones() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}, {setName: nope}]\n"),
            "m.yml: defaultRoomShapes[1].setName: unknown room set `nope` (known sets: a, b)"
        );
        assert_eq!(
            err("defaultRoomShapes: [{rotate: false}]\n"),
            "m.yml: defaultRoomShapes[0].setName: no setName, or setName `custom`, but the \
             map has no customRoomDescriptionsSet"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a, roomDescriptionName: round}]\n"),
            "m.yml: defaultRoomShapes[0].roomDescriptionName: set `a` has no room \
             description `round` (it has: sq, wide)"
        );
    }

    #[test]
    fn rooms_outside_the_range_are_refused() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\npassages:\n  - [0,1]\n  - [1,2]\n  - [2,3]\n  - [3,12]\n"),
            "m.yml: passages[3]: room 12 is outside roomsRange 0..=8"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\nrooms:\n  [2, 9]:\n    roomShapes: [{setName: a}]\n"),
            "m.yml: rooms[2, 9]: room 9 is outside roomsRange 0..=8"
        );
    }

    #[test]
    fn self_loops_and_repeated_passages_are_refused() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\npassages: [[0,1], [4,4]]\n"),
            "m.yml: passages[1]: [4, 4] joins room 4 to itself"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\npassages: [[0,1], [2,3], [1,0]]\n"),
            "m.yml: passages[2]: [1, 0] repeats passages[0]"
        );
    }

    #[test]
    fn bad_ranges_are_refused() {
        let e = parse_map("passages: []\n", Path::new("m.yml"), &sets()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.yml: roomsRange: missing: a map needs `roomsRange: {from, to}`"
        );
        let e = parse_map(
            "roomsRange: {from: 5, to: 3}\n",
            Path::new("m.yml"),
            &sets(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.yml: roomsRange: from 5 is greater than to 3"
        );
        let e = parse_map(
            "roomsRange: {from: -2147483648, to: 2147483647}\n",
            Path::new("m.yml"),
            &sets(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("at most 100000"), "{e}");
        // One room is fine.
        let pb = parse_map(
            "roomsRange: {from: 3, to: 3}\ndefaultRoomShapes: [{setName: a}]\n",
            Path::new("m.yml"),
            &sets(),
        )
        .unwrap();
        assert_eq!(pb.rooms[0].name, "3");
    }

    #[test]
    fn diagonal_shapes_wrap_the_template_error() {
        let e =
            load("defaultRoomShapes: [{setName: b, roomDescriptionName: diagonal}]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "rooms/b.yml: roomDescriptions.diagonal: template `b/diagonal`: side [4, 4] → \
             [1, 5] is neither horizontal nor vertical"
        );
        assert!(matches!(
            e,
            EdgarError::Template {
                source: TemplateError::Outline {
                    source: PolygonError::Diagonal { .. },
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn a_missing_door_mode_is_named() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: b}]\n"),
            "rooms/b.yml: roomDescriptions.nodoor: no doorMode, and set `b` has no default doorMode"
        );
        // In the map's own set, the key path says so.
        assert_eq!(
            err("defaultRoomShapes: [{setName: custom}]\ncustomRoomDescriptionsSet:\n  roomDescriptions:\n    x: {shape: [[0,0],[0,1],[1,1],[1,0]]}\n"),
            "m.yml: customRoomDescriptionsSet.roomDescriptions.x: no doorMode, and set \
             `custom` has no default doorMode"
        );
    }

    #[test]
    fn malformed_yaml_gives_line_and_column() {
        let e = load("defaultRoomShapes: [{setName: a}]\npassages:\n  - [0,1]\n  - [1,2\n")
            .unwrap_err();
        let EdgarError::Yaml { line, column, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(*line, Some(6));
        assert!(column.is_some());
        assert!(e.to_string().starts_with("m.yml:6:"), "{e}");
        assert!(e.to_string().contains("flow sequence"), "{e}");
        // A key Edgar does not know (a typo) is refused, with its place.
        let e = load("defaultRoomShapes: [{setName: a}]\npassage: [[0,1]]\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("m.yml:3:1: unknown field `passage`"),
            "{e}"
        );
        // Wrong types say where.
        let e = load("defaultRoomShapes: [{setName: a}]\npassages: [[0,1,2]]\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("m.yml:3:12: passages[0]: invalid length 3"),
            "{e}"
        );
    }

    #[test]
    fn unknown_door_mode_tags_are_refused_with_their_line() {
        let mut s = RoomSets::new();
        let e = s
            .parse(
                "name: t\nroomDescriptions:\n  x:\n    shape: [[0,0],[0,1],[1,1],[1,0]]\n    doorMode: !CornerMode\n      doorLength: 1\n",
                Path::new("t.yml"),
            )
            .unwrap_err();
        let EdgarError::Yaml { line, column, .. } = &e else {
            panic!("{e:?}");
        };
        assert_eq!((*line, *column), (Some(5), Some(15)));
        assert!(
            e.to_string().starts_with(
                "t.yml:5:15: roomDescriptions.x: unknown door mode tag `!CornerMode`: Edgar's are"
            ),
            "{e}"
        );
        // An untagged door mode is refused too.
        let e = s
            .parse(
                "name: t\nroomDescriptions:\n  x:\n    doorMode:\n      doorLength: 1\n      cornerDistance: 0\n",
                Path::new("t.yml"),
            )
            .unwrap_err();
        assert!(e.to_string().starts_with("t.yml:"), "{e}");
        assert!(s.is_empty());
    }

    #[test]
    fn set_names_are_required_unique_and_not_custom() {
        let mut s = sets();
        let e = s
            .parse("roomDescriptions: {}\n", Path::new("x.yml"))
            .unwrap_err();
        assert_eq!(e.to_string(), "x.yml: name: a room set needs a name");
        let e = s.parse("name: custom\n", Path::new("x.yml")).unwrap_err();
        assert!(e.to_string().contains("`custom` is reserved"), "{e}");
        let e = s.parse("name: a\n", Path::new("x.yml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.yml: name: a room set named `a` is already loaded from rooms/a.yml"
        );
        let e = s
            .parse(
                "name: d\nroomDescriptions:\n  x: {}\n  x: {}\n",
                Path::new("d.yml"),
            )
            .unwrap_err();
        assert!(e.to_string().contains("duplicate key \"x\""), "{e}");
        assert_eq!(s.len(), 2);
        assert!(s.contains("b") && !s.contains("d"));
    }

    #[test]
    fn rooms_need_shapes_once() {
        assert_eq!(
            err("rooms:\n  [0, 1]:\n    roomShapes: [{setName: a}]\n"),
            "m.yml: defaultRoomShapes: missing, and rooms 2, 3, 4, 5, 6, 7, 8 have no shapes \
             of their own"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\nrooms:\n  [0, 1]:\n    roomShapes: [{setName: a}]\n  [1]:\n    roomShapes: [{setName: b, roomDescriptionName: door}]\n"),
            "m.yml: rooms[1]: room 1 already has shapes from rooms[0, 1]"
        );
        // All rooms with their own shapes: defaults may be left out.
        let pb = parse_map(
            "roomsRange: {from: 0, to: 1}\nrooms:\n  [0, 1]:\n    roomShapes: [{setName: a, roomDescriptionName: wide}]\n",
            Path::new("m.yml"),
            &sets(),
        )
        .unwrap();
        assert_eq!(pb.templates.len(), 1);
        assert_eq!(pb.rooms[1].templates, [0]);
    }

    #[test]
    fn corridor_templates_need_two_specific_doors() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  offsets: [2]\n  corridorShapes: [{setName: a}]\n"),
            "m.yml: corridors.corridorShapes: corridor template `a/sq` needs exactly two door \
             positions (!SpecificPositionsMode with two doorPositions): a corridor joins two rooms"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  enable: true\n"),
            "m.yml: corridors.corridorShapes: corridors are enabled but no corridor shapes are \
             given"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a}]\ncorridors:\n  offsets: [2, 0]\n  corridorShapes: [{setName: b, roomDescriptionName: door}]\n"),
            "m.yml: corridors.offsets[1]: an offset must be at least 1"
        );
        let pb = load("defaultRoomShapes: [{setName: a}]\ncorridors:\n  corridorShapes: [{setName: b, roomDescriptionName: door}]\n").unwrap();
        let c = pb.corridors.unwrap();
        assert!(c.offsets.is_empty());
        assert_eq!(c.templates, [2]);
    }

    #[test]
    fn scales_must_be_positive_and_fit() {
        assert_eq!(
            err("defaultRoomShapes: [{setName: a, scale: [0, 2]}]\n"),
            "m.yml: defaultRoomShapes[0].scale: [0, 2]: both factors must be at least 1"
        );
        assert_eq!(
            err("defaultRoomShapes: [{setName: a, scale: [2000000000, 1]}]\n"),
            "rooms/a.yml: roomDescriptions.sq.shape: [4, 4] scaled by [2000000000, 1] overflows"
        );
    }

    #[test]
    fn repeat_modes_must_agree() {
        let map = "roomsRange: {from: 0, to: 2}
defaultRoomShapes: [{setName: custom}]
customRoomDescriptionsSet:
  default:
    doorMode: !OverlapMode {doorLength: 1}
    repeatMode: NoImmediate
  roomDescriptions:
    x: {shape: [[0,0],[0,3],[3,3],[3,0]]}
    y: {shape: [[0,0],[0,3],[3,3],[3,0]], repeatMode: NoImmediate}
";
        let pb = parse_map(map, Path::new("m.yml"), &sets()).unwrap();
        assert_eq!(pb.repeat, RepeatMode::NoImmediate);
        let clash = map.replace("repeatMode: NoImmediate}", "repeatMode: NoRepeat}");
        let e = parse_map(&clash, Path::new("m.yml"), &sets()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.yml: repeatMode: the rooms' templates ask for different repeat modes \
             (NoImmediate: custom/x; NoRepeat: custom/y); a layout has one repeat mode for \
             all its rooms"
        );
    }

    #[test]
    fn the_same_description_rotated_and_not_is_two_templates() {
        let pb = load(
            "defaultRoomShapes:\n  - {setName: a, roomDescriptionName: sq}\n  - {setName: a, roomDescriptionName: sq, rotate: false}\n  - {setName: a, roomDescriptionName: sq}\n",
        )
        .unwrap();
        let names: Vec<&str> = pb.templates.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a/sq", "a/sq~r0"]);
        assert_eq!(pb.rooms[0].templates, [0, 1]);
    }
}
