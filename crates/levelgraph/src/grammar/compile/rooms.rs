//! The `rooms` block's checks (`check_rooms`): templates that build, unique
//! names, known tags, members that resolve, sets without cycles, corridors.

use std::collections::{BTreeMap, BTreeSet};

use super::cx::{cx_loc, Cx, Path};
use super::resolve_tag;
use crate::diagnostic::{Location, Span};
use crate::grammar::model::{RoomsSpec, WILDCARD};
use crate::graph::Symbols;

/// What a name of a `rooms` block stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RoomName {
    /// The inline template of this index.
    Template(usize),
    /// The set of this index.
    Set(usize),
}

impl RoomName {
    fn kind(self) -> &'static str {
        match self {
            RoomName::Template(_) => "template",
            RoomName::Set(_) => "set",
        }
    }
}

/// The `rooms` block: every inline template builds, template and set names
/// are unique, every member names a template or set (or, with a `load`,
/// may name a loaded one), no set contains itself, `use` lines name
/// declared tags once each, there is a `use` line, and corridor templates
/// have two doors. Files are not read here: loaded names are resolved when
/// the layout reads them.
pub(super) fn check_rooms(cx: &mut Cx<'_>, tags: &Symbols, rooms: &RoomsSpec) {
    let block_door_ok = check_settings(cx, rooms);
    let names = room_names(cx, rooms);
    check_templates(cx, rooms, block_door_ok);
    check_all_members(cx, rooms, &names);
    check_set_cycles(cx, rooms, &names);
    check_uses(cx, tags, rooms);
    check_numbers(cx, rooms);
    check_fills(cx, tags, rooms);
    check_corridor_templates(cx, rooms, &names);
}

/// A setting's own line in the text, else the block's.
fn setting_span(rooms: &RoomsSpec, key: &str) -> Option<Span> {
    rooms.setting_spans.get(key).or(rooms.span)
}

/// The block's door (a length of at least 1) and `load` lines (a name
/// each); whether the block's door is usable.
fn check_settings(cx: &mut Cx<'_>, rooms: &RoomsSpec) -> bool {
    let block = Path::field("rooms");
    let setting = |key: &str| setting_span(rooms, key);
    let mut block_door_ok = true;
    if let Some(d) = rooms.door {
        if d.length == 0 {
            block_door_ok = false;
            cx.error(
                "door length must be at least 1".into(),
                cx_loc(setting("door"), block.child("door")),
                None,
            );
        }
    }
    for (k, path) in rooms.load.iter().enumerate() {
        if path.trim().is_empty() {
            cx.error(
                "`load` needs a file or folder name".into(),
                cx_loc(setting(&format!("load {k}")), block.item("load", k)),
                Some("write `load \"rooms\"`, relative to the grammar file".into()),
            );
        }
    }
    block_door_ok
}

/// The names of inline templates and sets, one namespace: not empty, no
/// `/`, each declared once.
fn room_names<'r>(cx: &mut Cx<'_>, rooms: &'r RoomsSpec) -> BTreeMap<&'r str, RoomName> {
    let block = Path::field("rooms");
    // Names: inline templates and sets share one namespace.
    let mut names: BTreeMap<&str, RoomName> = BTreeMap::new();
    let mut declared: Vec<(&str, Option<Span>, RoomName)> = rooms
        .templates
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), t.span, RoomName::Template(i)))
        .chain(
            rooms
                .sets
                .iter()
                .enumerate()
                .map(|(i, s)| (s.name.as_str(), s.span, RoomName::Set(i))),
        )
        .collect();
    // In text order, so that "the first" is the one written first (JSON:
    // templates, then sets).
    declared.sort_by_key(|&(_, span, _)| span.map(|s| s.start));
    for (name, span, what) in declared {
        let at = match what {
            RoomName::Template(i) => cx_loc(span, block.item("templates", i)),
            RoomName::Set(i) => cx_loc(span, block.item("sets", i)),
        };
        if name.trim().is_empty() {
            cx.error(format!("a {} needs a name", what.kind()), at, None);
            continue;
        }
        if name.contains('/') {
            cx.error(
                format!("{} name `{name}` contains `/`", what.kind()),
                at.clone(),
                Some(
                    "`/` joins a loaded room set and one of its templates (`set/room`); choose another name"
                        .into(),
                ),
            );
        }
        if let Some(&first) = names.get(name) {
            let first_span = match first {
                RoomName::Template(i) => rooms.templates[i].span,
                RoomName::Set(i) => rooms.sets[i].span,
            };
            let hint = format!(
                "the first `{name}`, a {}, is {}; templates and sets need different names",
                first.kind(),
                cx.where_is(first_span)
            );
            cx.error(
                format!("{} `{name}` is declared twice", what.kind()),
                at,
                Some(hint),
            );
            continue;
        }
        names.insert(name, what);
    }
    names
}

/// Inline templates: `door` or `doors`, not both, and each builds.
fn check_templates(cx: &mut Cx<'_>, rooms: &RoomsSpec, block_door_ok: bool) {
    let block = Path::field("rooms");
    // Inline templates.
    for (i, t) in rooms.templates.iter().enumerate() {
        let at = block.item("templates", i);
        if t.door.is_some() && !t.doors.is_empty() {
            cx.error(
                format!("template `{}` has both `door` and `doors`", t.name),
                cx_loc(t.span, at.child("doors")),
                Some(
                    "`doors` lists where its doors are; `door LENGTH corner DISTANCE` lets them be anywhere on a side; keep one"
                        .into(),
                ),
            );
            continue;
        }
        if t.door.is_none() && t.doors.is_empty() && !block_door_ok {
            continue; // the block's door is reported above
        }
        if let Err(e) = t.build(rooms.door) {
            let (field, hint) = match &e {
                crate::layout::TemplateError::Outline {
                    source: crate::layout::PolygonError::TooManyCorners(_),
                    ..
                } => (
                    "outline",
                    "a layout's time grows with the square of its rooms' corners; draw the room with fewer",
                ),
                crate::layout::TemplateError::Outline { .. } => (
                    "outline",
                    "an outline lists an orthogonal polygon's corners in order, e.g. `(0,0) (4,0) (4,4) (0,4)`",
                ),
                crate::layout::TemplateError::Doors { .. } if !t.doors.is_empty() => (
                    "doors",
                    "each door is a segment `(x,y) (x,y)` on one side of the outline",
                ),
                crate::layout::TemplateError::Doors { .. } => (
                    "door",
                    "`door LENGTH corner DISTANCE` needs a side at least LENGTH + 2 × DISTANCE long",
                ),
            };
            cx.error(
                e.to_string(),
                cx_loc(t.span, at.child(field)),
                Some(hint.into()),
            );
        }
    }
}

/// Members of sets, uses and corridors name a template or set (or may
/// name a loaded one); sets and uses are not empty.
fn check_all_members(cx: &mut Cx<'_>, rooms: &RoomsSpec, names: &BTreeMap<&str, RoomName>) {
    let block = Path::field("rooms");
    let setting = |key: &str| setting_span(rooms, key);
    // Members of sets, uses and corridors.
    let loads = !rooms.load.is_empty();
    let known_hint = || {
        if names.is_empty() {
            "the block declares no template or set: add `template NAME (x,y) …`, or `load` an Edgar room set"
                .to_owned()
        } else {
            let list: Vec<String> = names.keys().map(|n| format!("`{n}`")).collect();
            format!(
                "the templates and sets are {}; a name from an Edgar room set needs a `load`",
                list.join(", ")
            )
        }
    };
    let check_members = |cx: &mut Cx<'_>, members: &[String], at: &Location| {
        for m in members {
            if !names.contains_key(m.as_str()) && !loads {
                cx.error(
                    format!("unknown template or set `{m}`"),
                    at.clone(),
                    Some(known_hint()),
                );
            }
        }
    };
    for (i, set) in rooms.sets.iter().enumerate() {
        let at = cx_loc(set.span, block.item("sets", i));
        if set.members.is_empty() {
            cx.error(format!("set `{}` has no members", set.name), at, None);
            continue;
        }
        check_members(cx, &set.members, &at);
    }
    for (i, u) in rooms.uses.iter().enumerate() {
        let at = cx_loc(u.span, block.item("uses", i));
        if u.members.is_empty() {
            cx.error(
                "a `use` line names no template or set".into(),
                at.clone(),
                None,
            );
        }
        check_members(cx, &u.members, &at);
    }
    for (k, c) in rooms.corridors.iter().enumerate() {
        check_members(
            cx,
            std::slice::from_ref(c),
            &cx_loc(setting("corridors"), block.item("corridors", k)),
        );
    }
}

/// Sets must not contain themselves.
fn check_set_cycles(cx: &mut Cx<'_>, rooms: &RoomsSpec, names: &BTreeMap<&str, RoomName>) {
    let block = Path::field("rooms");
    // Sets must not contain themselves.
    let set_members = |s: usize| {
        rooms.sets[s]
            .members
            .iter()
            .filter_map(|m| match names.get(m.as_str()) {
                Some(&RoomName::Set(j)) => Some(j),
                _ => None,
            })
    };
    let mut in_reported_cycle = vec![false; rooms.sets.len()];
    for start in 0..rooms.sets.len() {
        if in_reported_cycle[start]
            || names.get(rooms.sets[start].name.as_str()) != Some(&RoomName::Set(start))
        {
            continue;
        }
        // Depth-first search for a path start → … → start.
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, set_members(start).collect())];
        let mut visited = vec![false; rooms.sets.len()];
        let mut cycle = None;
        while let Some((_, next)) = stack.last_mut() {
            let Some(j) = next.pop() else {
                stack.pop();
                continue;
            };
            if j == start {
                let mut path: Vec<usize> = stack.iter().map(|&(s, _)| s).collect();
                path.push(start);
                cycle = Some(path);
                break;
            }
            if !visited[j] {
                visited[j] = true;
                stack.push((j, set_members(j).collect()));
            }
        }
        if let Some(path) = cycle {
            path.iter().for_each(|&s| in_reported_cycle[s] = true);
            let names: Vec<&str> = path.iter().map(|&s| rooms.sets[s].name.as_str()).collect();
            let set = &rooms.sets[start];
            let message = if path.len() == 2 {
                format!("set `{}` contains itself", set.name)
            } else {
                format!("set `{}` contains itself: {}", set.name, names.join(" → "))
            };
            cx.error(
                message,
                cx_loc(set.span, block.item("sets", start)),
                Some("a set may contain other sets, but not in a cycle".into()),
            );
        }
    }
}

/// Uses: there is one, declared tags, each in one line; `*` once.
fn check_uses(cx: &mut Cx<'_>, tags: &Symbols, rooms: &RoomsSpec) {
    let block = Path::field("rooms");
    // Uses: declared tags, each in one line; `*` once.
    if rooms.uses.is_empty() {
        cx.error(
            "a rooms block needs a `use` line: which templates do rooms of each tag use?".into(),
            cx_loc(rooms.span, block.child("uses")),
            Some("`use *: NAME` gives rooms of every tag the templates of NAME".into()),
        );
    }
    let mut first_use: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, u) in rooms.uses.iter().enumerate() {
        let at = cx_loc(u.span, block.item("uses", i));
        if u.tags.is_empty() {
            cx.error("a `use` line names no tag".into(), at.clone(), None);
        }
        for tag in &u.tags {
            if tag != WILDCARD && resolve_tag(cx, tags, tag, &at).is_none() {
                continue;
            }
            match first_use.get(tag.as_str()) {
                None => {
                    first_use.insert(tag, i);
                }
                Some(&j) if j == i => cx.error(
                    format!("tag `{tag}` is named twice in one `use` line"),
                    at.clone(),
                    None,
                ),
                Some(&j) => {
                    let first = cx.where_is(rooms.uses[j].span);
                    if tag == WILDCARD {
                        cx.error(
                            "`use *` is written twice".into(),
                            at.clone(),
                            Some(format!(
                                "the first is {first}; `*` stands for every tag no other `use` names, once"
                            )),
                        );
                    } else {
                        cx.error(
                            format!("tag `{tag}` is in two `use` lines"),
                            at.clone(),
                            Some(format!(
                                "the first is {first}; list all its templates in one line"
                            )),
                        );
                    }
                }
            }
        }
    }
}

/// `min_distance`, `tile_scale` and `retries` in range.
fn check_numbers(cx: &mut Cx<'_>, rooms: &RoomsSpec) {
    let block = Path::field("rooms");
    let setting = |key: &str| setting_span(rooms, key);
    if rooms.min_distance > RoomsSpec::MAX_MIN_DISTANCE {
        cx.error(
            format!("min_distance {} is out of range", rooms.min_distance),
            cx_loc(setting("min_distance"), block.child("min_distance")),
            Some(format!(
                "grid units between rooms that no edge joins: 0 to {}",
                RoomsSpec::MAX_MIN_DISTANCE
            )),
        );
    }

    // Tile map: the scale and the fills by tag, each tag in one `fill` line.
    if let Some(scale) = rooms.tile_scale {
        if !(1..=64).contains(&scale) {
            cx.error(
                format!("tile_scale {scale} is out of range"),
                cx_loc(setting("tile_scale"), block.child("tile_scale")),
                Some("tiles per grid unit: 1 to 64".into()),
            );
        }
    }
    if let Some(retries) = rooms.retries {
        if retries > RoomsSpec::MAX_RETRIES {
            cx.error(
                format!("retries {retries} is out of range"),
                cx_loc(setting("retries"), block.child("retries")),
                Some(format!(
                    "more levels derived when one cannot be laid out: 0 to {}",
                    RoomsSpec::MAX_RETRIES
                )),
            );
        }
    }
}

/// Fills by tag, each tag in one `fill` line.
fn check_fills(cx: &mut Cx<'_>, tags: &Symbols, rooms: &RoomsSpec) {
    let block = Path::field("rooms");
    let mut first_fill: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, f) in rooms.fills.iter().enumerate() {
        let at = cx_loc(f.span, block.item("fills", i));
        if f.tags.is_empty() {
            cx.error("a `fill` line names no tag".into(), at.clone(), None);
        }
        for tag in &f.tags {
            if resolve_tag(cx, tags, tag, &at).is_none() {
                continue;
            }
            if let Some(&j) = first_fill.get(tag.as_str()) {
                let first = cx.where_is(rooms.fills[j].span);
                cx.error(
                    format!("tag `{tag}` is in two `fill` lines"),
                    at.clone(),
                    Some(format!("the first is {first}; a room has one fill")),
                );
            } else {
                first_fill.insert(tag, i);
            }
        }
    }
}

/// Corridor templates: inline ones need exactly two `doors`.
fn check_corridor_templates(cx: &mut Cx<'_>, rooms: &RoomsSpec, names: &BTreeMap<&str, RoomName>) {
    let block = Path::field("rooms");
    // Corridor templates: inline ones need exactly two `doors`.
    let mut corridor_templates = BTreeSet::new();
    let mut todo: Vec<&str> = rooms.corridors.iter().map(String::as_str).collect();
    let mut seen_sets = vec![false; rooms.sets.len()];
    while let Some(name) = todo.pop() {
        match names.get(name) {
            Some(&RoomName::Template(i)) => {
                corridor_templates.insert(i);
            }
            Some(&RoomName::Set(j)) if !seen_sets[j] => {
                seen_sets[j] = true;
                todo.extend(rooms.sets[j].members.iter().map(String::as_str));
            }
            _ => {}
        }
    }
    for i in corridor_templates {
        let t = &rooms.templates[i];
        if t.doors.len() != 2 {
            cx.error(
                format!(
                    "corridor template `{}` needs exactly two `doors`, it has {}",
                    t.name,
                    t.doors.len()
                ),
                cx_loc(t.span, block.item("templates", i).child("doors")),
                Some(
                    "a corridor joins two rooms through its two doors: `doors (x,y) (x,y), (x,y) (x,y)`"
                        .into(),
                ),
            );
        }
    }
}
