//! A level's play semantics as tile-map objects: the entrance (where the
//! player spawns), the goals, each key on a floor tile of the room it lies
//! in, and each lock on the doors it shuts — a locked room on every door
//! of the room, a locked door on that door. Keys name the locks they open
//! and locks the keys that open them (object properties `opens` and
//! `key`), so a game can load the level and play it as checked.

use std::collections::BTreeMap;

use super::{LockRef, PlayReport};
use crate::graph::{Graph, VertexId};
use crate::layout::LayoutProblem;
use crate::tiles::raster::{ItemPlace, StoredItem};

/// The objects of `report` (a report on `graph`, the level `problem` was
/// made from: rooms named by vertex id), followed by the items of
/// `stored` that play no part (a stored key or lock is placed as a key or
/// lock, once). Locks are named by their vertex id, a locked door by its
/// corridor's ends, `5-6`.
///
/// Object kinds and properties:
/// - `entrance`, `goal`: at the room's centre; `tag`;
/// - `key`: `opens` (the locks' names, comma-separated), `small` (`true`
///   for a small key), `tag`;
/// - `lock`: `key` (the keys' ids, comma-separated), `tag` for a locked
///   room, `door` (the corridor's ends) for a locked door.
pub fn tile_items(
    report: &PlayReport,
    graph: &Graph,
    problem: &LayoutProblem,
    stored: Vec<StoredItem>,
) -> Vec<StoredItem> {
    let room_of: BTreeMap<&str, usize> = problem
        .rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    let room = |v: VertexId| room_of.get(v.0.to_string().as_str()).copied();
    let tag = |v: VertexId| {
        graph
            .live_tag(v)
            .map_or("", |t| graph.tags().name(t))
            .to_owned()
    };
    let place = |v: VertexId| crate::drawing::top_level(graph, v);
    let tagged = |v: VertexId| vec![("tag".to_owned(), tag(v))];
    let mut out: Vec<StoredItem> = Vec::new();
    let mut roles: Vec<VertexId> = Vec::new();
    if let Some(e) = report.entrance {
        roles.push(e);
        out.extend(item(
            e.0.to_string(),
            "entrance",
            room(place(e)),
            ItemPlace::Centre,
            tagged(e),
        ));
    }
    for &g in &report.goals {
        roles.push(g);
        out.extend(item(
            g.0.to_string(),
            "goal",
            room(place(g)),
            ItemPlace::Centre,
            tagged(g),
        ));
    }
    for k in &report.keys {
        roles.push(k.key);
        let opens: Vec<String> = k.opens.iter().map(|&l| lock_name(graph, l)).collect();
        let mut properties = vec![("opens".to_owned(), opens.join(","))];
        if k.small {
            properties.push(("small".to_owned(), "true".to_owned()));
        }
        properties.extend(tagged(k.key));
        out.extend(item(
            k.key.0.to_string(),
            "key",
            room(k.room),
            ItemPlace::Centre,
            properties,
        ));
    }
    for l in &report.locks {
        let keys: Vec<String> = l.keys.iter().map(|k| k.0.to_string()).collect();
        let keys = ("key".to_owned(), keys.join(","));
        match l.lock {
            LockRef::Room(v) => {
                roles.push(v);
                let mut properties = vec![keys];
                properties.extend(tagged(v));
                out.extend(item(
                    v.0.to_string(),
                    "lock",
                    l.room.and_then(room),
                    ItemPlace::Doors,
                    properties,
                ));
            }
            LockRef::Door(e) => {
                let Some(edge) = graph.edge(e) else { continue };
                let (a, b) = (room(place(edge.source)), room(place(edge.target)));
                let name = lock_name(graph, l.lock);
                if let Some(b) = b {
                    let door = ("door".to_owned(), name.clone());
                    out.extend(item(
                        name,
                        "lock",
                        a,
                        ItemPlace::DoorTo(b),
                        vec![door, keys],
                    ));
                }
            }
        }
    }
    roles.sort_unstable();
    out.extend(stored.into_iter().filter(|item| {
        item.name
            .parse::<u32>()
            .map_or(true, |id| roles.binary_search(&VertexId(id)).is_err())
    }));
    out
}

/// The object `name` of `kind` in room `room`, when the layout has that
/// room.
fn item(
    name: String,
    kind: &str,
    room: Option<usize>,
    at: ItemPlace,
    properties: Vec<(String, String)>,
) -> Option<StoredItem> {
    Some(StoredItem {
        name,
        kind: kind.to_owned(),
        room: room?,
        at,
        properties,
    })
}

/// A lock's name in tile-map properties: its vertex id, or `5-6` for the
/// locked door between vertices 5 and 6.
fn lock_name(graph: &Graph, lock: LockRef) -> String {
    match lock {
        LockRef::Room(v) => v.0.to_string(),
        LockRef::Door(e) => graph
            .edge(e)
            .map_or_else(String::new, |x| format!("{}-{}", x.source.0, x.target.0)),
    }
}
