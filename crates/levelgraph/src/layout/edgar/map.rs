//! Edgar map files: a map read into a [`LayoutProblem`] (rooms of the
//! range with their shapes' templates, passages, corridors, one repeat
//! mode), with the room sets resolving its `setName`s.

use super::builder::Builder;
use super::error::{invalid, InvalidKind};
use super::model::{repeat_name, MapModel};
use super::yaml::{check_flow_depth, read, yaml_error};
use super::{EdgarError, RoomSets, MAX_ROOMS};
use crate::layout::template::{DoorRule, RepeatMode};
use crate::layout::{CorridorSpec, LayoutProblem, RoomSpec};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

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
/// map's inline `customRoomDescriptionsSet` is the set [`CUSTOM_SET`](super::CUSTOM_SET).
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
    let range = Range::of(&map, file)?;
    let mut b = Builder {
        sets,
        custom: map.custom_room_descriptions_set.as_ref(),
        map_file: file,
        templates: Vec::new(),
        repeat: Vec::new(),
        by_key: HashMap::new(),
        names: HashSet::new(),
    };
    let rooms = rooms(&map, &range, &mut b)?;
    let edges = passages(&map, &range)?;
    let corridors = corridors(&map, file, &mut b)?;
    let repeat = repeat_mode(&rooms, &b, file)?;
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

/// A map's `roomsRange`, checked: room numbers `from..=to`, `count` of
/// them, in `file`.
struct Range<'a> {
    file: &'a Path,
    from: i32,
    count: usize,
    to: i32,
}

impl<'a> Range<'a> {
    /// The map's range, once it is there, in order and not too large.
    fn of(map: &MapModel, file: &'a Path) -> Result<Self, EdgarError> {
        let Some(range) = map.rooms_range else {
            return Err(invalid(file, "roomsRange", InvalidKind::MissingRange));
        };
        let (from, to) = (range.from, range.to);
        if from > to {
            return Err(invalid(
                file,
                "roomsRange",
                InvalidKind::ReversedRange { from, to },
            ));
        }
        let count = i64::from(to) - i64::from(from) + 1;
        if count > MAX_ROOMS as i64 {
            return Err(invalid(
                file,
                "roomsRange",
                InvalidKind::TooManyRooms { from, to, count },
            ));
        }
        Ok(Self {
            file,
            from,
            count: count as usize,
            to,
        })
    }

    /// The index of room number `room`, if it is in the range.
    fn index(&self, room: i32) -> Option<usize> {
        (self.from..=self.to)
            .contains(&room)
            .then(|| (i64::from(room) - i64::from(self.from)) as usize)
    }

    /// The number of the room at index `i`.
    fn number(&self, i: usize) -> i32 {
        self.from + i as i32
    }

    /// The error for room number `room` at `field`, outside the range.
    fn outside(&self, field: &str, room: i32) -> EdgarError {
        invalid(
            self.file,
            field,
            InvalidKind::RoomOutsideRange {
                room,
                from: self.from,
                to: self.to,
            },
        )
    }
}

/// Per room, the templates of the shapes the map's `rooms:` gives it, and
/// the field that gives them; `None` for the rooms it does not list.
#[allow(clippy::type_complexity)]
fn own_shapes(
    map: &MapModel,
    range: &Range<'_>,
    b: &mut Builder<'_>,
) -> Result<Vec<Option<(Vec<usize>, String)>>, EdgarError> {
    let mut own: Vec<Option<(Vec<usize>, String)>> = vec![None; range.count];
    if let Some(rooms) = &map.rooms {
        for (key, model) in &rooms.0 {
            let field = format!("rooms{}", list(key));
            let Some(shapes) = &model.room_shapes else {
                continue; // Edgar ignores an entry without roomShapes
            };
            for &room in key {
                let i = range
                    .index(room)
                    .ok_or_else(|| range.outside(&field, room))?;
                if let Some((_, first)) = &own[i] {
                    return Err(invalid(
                        range.file,
                        &field,
                        InvalidKind::ShapesTwice {
                            room,
                            first: first.clone(),
                        },
                    ));
                }
                own[i] = Some((Vec::new(), field.clone()));
            }
            let templates = b.shapes(shapes, &format!("{field}.roomShapes"))?;
            for &room in key {
                if let Some(i) = range.index(room) {
                    if let Some((t, _)) = &mut own[i] {
                        t.clone_from(&templates);
                    }
                }
            }
        }
    }

    Ok(own)
}

/// The rooms, one per number of the range: their own shapes' templates,
/// else the default shapes'.
fn rooms(
    map: &MapModel,
    range: &Range<'_>,
    b: &mut Builder<'_>,
) -> Result<Vec<RoomSpec>, EdgarError> {
    let own = own_shapes(map, range, b)?;
    // Everyone else: the default shapes.
    let without: Vec<i32> = (0..range.count)
        .filter(|&i| own[i].is_none())
        .map(|i| range.number(i))
        .collect();
    let defaults = if without.is_empty() {
        Vec::new()
    } else {
        let Some(shapes) = &map.default_room_shapes else {
            return Err(invalid(
                range.file,
                "defaultRoomShapes",
                InvalidKind::MissingDefaultShapes { rooms: without },
            ));
        };
        b.shapes(shapes, "defaultRoomShapes")?
    };
    let mut rooms = Vec::with_capacity(range.count);
    for (i, o) in own.into_iter().enumerate() {
        let number = range.number(i);
        let (templates, field) = match o {
            Some((t, field)) => (t, field),
            None => (defaults.clone(), "defaultRoomShapes".to_owned()),
        };
        if templates.is_empty() {
            return Err(invalid(
                range.file,
                field,
                InvalidKind::NoTemplates { room: number },
            ));
        }
        rooms.push(RoomSpec {
            name: number.to_string(),
            tag: "room".to_owned(),
            templates,
        });
    }

    Ok(rooms)
}

/// The passages as edges between room indices: no self-loops, none twice
/// (either way round).
fn passages(map: &MapModel, range: &Range<'_>) -> Result<Vec<[usize; 2]>, EdgarError> {
    let mut edges: Vec<[usize; 2]> = Vec::new();
    let mut seen: HashMap<[usize; 2], usize> = HashMap::new();
    for (k, &[a, b2]) in map.passages.iter().flatten().enumerate() {
        let field = format!("passages[{k}]");
        let ia = range.index(a).ok_or_else(|| range.outside(&field, a))?;
        let ib = range.index(b2).ok_or_else(|| range.outside(&field, b2))?;
        if ia == ib {
            return Err(invalid(
                range.file,
                field,
                InvalidKind::SelfLoop { passage: [a, b2] },
            ));
        }
        let key = [ia.min(ib), ia.max(ib)];
        if let Some(&first) = seen.get(&key) {
            return Err(invalid(
                range.file,
                field,
                InvalidKind::RepeatedPassage {
                    passage: [a, b2],
                    first,
                },
            ));
        }
        seen.insert(key, k);
        edges.push([ia, ib]);
    }

    Ok(edges)
}

/// The corridors, when `corridors` is there and not `enable: false`:
/// offsets of at least 1, and corridor templates of two specific doors.
fn corridors(
    map: &MapModel,
    file: &Path,
    b: &mut Builder<'_>,
) -> Result<Option<CorridorSpec>, EdgarError> {
    Ok(match &map.corridors {
        Some(c) if c.enable.unwrap_or(true) => {
            let offsets = c.offsets.clone().unwrap_or_default();
            if let Some(k) = offsets.iter().position(|&o| o == 0) {
                return Err(invalid(
                    file,
                    format!("corridors.offsets[{k}]"),
                    InvalidKind::ZeroOffset,
                ));
            }
            let shapes = c.corridor_shapes.as_deref().unwrap_or_default();
            if shapes.is_empty() {
                return Err(invalid(
                    file,
                    "corridors.corridorShapes",
                    InvalidKind::NoCorridorShapes,
                ));
            }
            let templates = b.shapes(shapes, "corridors.corridorShapes")?;
            if templates.is_empty() {
                return Err(invalid(
                    file,
                    "corridors.corridorShapes",
                    InvalidKind::NoCorridorTemplates,
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
                        InvalidKind::CorridorDoors {
                            template: tpl.name.clone(),
                        },
                    ));
                }
            }
            Some(CorridorSpec { offsets, templates })
        }
        _ => None,
    })
}

/// The one repeat mode of the templates the rooms use ([`RepeatMode::Allow`]
/// when they use none); templates that ask for different ones are an error.
fn repeat_mode(rooms: &[RoomSpec], b: &Builder<'_>, file: &Path) -> Result<RepeatMode, EdgarError> {
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
    if modes.len() > 1 {
        return Err(invalid(
            file,
            "repeatMode",
            InvalidKind::MixedRepeatModes {
                modes: modes
                    .into_iter()
                    .map(|(m, names)| {
                        (m.to_owned(), names.into_iter().map(str::to_owned).collect())
                    })
                    .collect(),
            },
        ));
    }
    Ok(used.first().map_or(RepeatMode::Allow, |&t| b.repeat[t]))
}

/// `[1, 2, 3]`.
fn list(v: &[i32]) -> String {
    let numbers: Vec<String> = v.iter().map(i32::to_string).collect();
    format!("[{}]", numbers.join(", "))
}
