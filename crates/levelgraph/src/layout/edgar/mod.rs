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
//!
//! # Files
//!
//! `sets` reads room sets, `map` maps, both through `builder` (shapes
//! entries into templates); `model` holds the YAML models, `yaml` reads
//! the text, `error` the errors.
//!
//! [`LayoutProblem`]: crate::layout::LayoutProblem
//! [`DoorRule::Overlap`]: crate::layout::DoorRule::Overlap
//! [`DoorRule::Specific`]: crate::layout::DoorRule::Specific
//! [`RepeatMode::Allow`]: crate::layout::RepeatMode::Allow
//! [`Transform::all`]: crate::layout::Transform::all

mod builder;
mod error;
mod map;
mod model;
mod sets;
mod yaml;
pub use yaml::MAX_FILE_BYTES;

pub use error::{EdgarError, InvalidKind};
pub use map::{default_rooms_dir, load_map, parse_map};
pub use sets::RoomSets;
pub use yaml::MAX_FLOW_DEPTH;

/// The name of a map's inline room set (`customRoomDescriptionsSet`), and
/// the set a shapes entry without `setName` refers to.
pub const CUSTOM_SET: &str = "custom";

/// Most rooms a `roomsRange` may hold.
pub const MAX_ROOMS: usize = 100_000;

#[cfg(test)]
mod tests;
