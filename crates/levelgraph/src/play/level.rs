//! A mission graph as the player sees it: places, the corridors between
//! them, the keys lying in places and the locks on places and corridors,
//! built from a [`Graph`] and a grammar's [`PlaySpec`].
//!
//! - A **place** is a top-level vertex whose tag is not ignored; a stored
//!   vertex (an item in a room) belongs to the place of its top-level
//!   ancestor.
//! - A **passage** is a non-cosmetic edge between two different places,
//!   walked both ways, or from source to target only when it is directed
//!   and the block says `directed one_way`.
//! - A **lock** is a vertex matched by a key statement's `opens` selector
//!   (it locks its place) or an edge matched by its door selector.
//! - A **key** is a vertex matched by a key statement's `key` selector (the
//!   first statement that matches it); it lies in its place.

use std::collections::BTreeMap;

use super::rows::Rows;
use crate::drawing::top_levels;
use crate::grammar::play::{
    Directed, DoorSelector, KeyLink, LinkEdge, LockSpec, PlaySpec, VertexSelector,
};
use crate::grammar::WILDCARD;
use crate::graph::{EdgeId, EdgeKind, Graph, Symbol, Vertex, VertexId};

/// What a lock is on: a locked room (the lock vertex, which may be stored
/// in the room it locks) or a locked door (a corridor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LockRef {
    /// A lock vertex: the room it is (or is stored in) is locked.
    Room(VertexId),
    /// A locked door: this corridor.
    Door(EdgeId),
}

/// One direction of a passage out of a place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// The place it leads to.
    pub(crate) to: u32,
    /// The passage (index into [`Level::passages`]).
    pub(crate) passage: u32,
}

/// A corridor between two places.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Passage {
    pub(crate) edge: EdgeId,
    /// Walked from target to source as well.
    pub(crate) two_way: bool,
    /// The lock on it when it is a locked door.
    pub(crate) lock: Option<u32>,
}

/// Which locks a key opens.
#[derive(Clone, Debug)]
pub(crate) enum Opens {
    /// These locks (a key statement with `via`).
    Listed(Vec<u32>),
    /// Every lock of key statement `g` (a statement without `via`): kept
    /// once, not per key.
    Group(u32),
}

/// A key.
#[derive(Clone, Debug)]
pub(crate) struct Key {
    pub(crate) vertex: VertexId,
    pub(crate) place: u32,
    /// The key statement it belongs to (index into `PlaySpec::keys`).
    pub(crate) statement: u32,
    /// Used up when it opens a lock.
    pub(crate) small: bool,
    pub(crate) opens: Opens,
}

/// A lock.
#[derive(Clone, Debug)]
pub(crate) struct Lock {
    pub(crate) what: LockRef,
    /// The key statements whose `opens` names it, in order.
    pub(crate) statements: Vec<u32>,
    /// The place it locks (a room lock), or `None` (a door).
    pub(crate) place: Option<u32>,
    /// Keys that name it with `via`.
    pub(crate) keys: Vec<u32>,
    /// Key statements without `via` whose locks include it.
    pub(crate) groups: Vec<u32>,
}

/// Why a level has no one place to start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EntranceProblem {
    None,
    Several(Vec<VertexId>),
}

/// A level as the player sees it.
#[derive(Clone, Debug)]
pub(crate) struct Level {
    /// The vertex of each place, in increasing id order.
    pub(crate) places: Vec<VertexId>,
    /// Per place: the steps out of it.
    pub(crate) out: Rows<Step>,
    /// Per place: the steps into it (reversed), for walking back.
    pub(crate) into: Rows<Step>,
    pub(crate) passages: Vec<Passage>,
    /// Per place: the locks on it.
    pub(crate) place_locks: Rows<u32>,
    pub(crate) keys: Vec<Key>,
    /// Per place: the keys lying in it.
    pub(crate) keys_at: Rows<u32>,
    pub(crate) locks: Vec<Lock>,
    /// Per key statement without `via`: its locks, and its keys.
    pub(crate) group_locks: Vec<Vec<u32>>,
    pub(crate) group_keys: Vec<Vec<u32>>,
    pub(crate) entrance: Result<u32, EntranceProblem>,
    /// The goal vertices and their places.
    pub(crate) goals: Vec<(VertexId, u32)>,
    /// Some passage is one-way.
    pub(crate) one_way: bool,
    /// Some key is small.
    pub(crate) small_keys: bool,
}

/// A [`VertexSelector`] resolved against one graph's tag table.
struct Selector<'a> {
    /// Per tag symbol: whether it is one of the selector's tags; `None`:
    /// any tag.
    tags: Option<Vec<bool>>,
    attributes: &'a BTreeMap<String, String>,
}

impl<'a> Selector<'a> {
    fn new(sel: &'a VertexSelector, graph: &Graph) -> Self {
        let tags = (!sel.tags.iter().any(|t| t == WILDCARD)).then(|| {
            let mut yes = vec![false; graph.tags().len()];
            for t in &sel.tags {
                if let Some(s) = graph.tags().get(t) {
                    yes[s.index()] = true;
                }
            }
            yes
        });
        Selector {
            tags,
            attributes: &sel.attributes,
        }
    }

    fn matches(&self, v: &Vertex) -> bool {
        self.tags
            .as_ref()
            .is_none_or(|yes| yes.get(v.tag.index()).copied().unwrap_or(false))
            && self
                .attributes
                .iter()
                .all(|(k, want)| v.attributes.get(k) == Some(want))
    }
}

/// The kind a door selector or link edge stands for in `graph`, seen from
/// the key's end (or the door's source); `None` when the graph has no
/// such label, so that no edge is of that kind.
fn edge_kind(
    graph: &Graph,
    directed: bool,
    cosmetic: bool,
    label: Option<&str>,
) -> Option<EdgeKind> {
    let label = match label {
        Some(name) => Some(graph.labels().get(name)?),
        None => None,
    };
    Some(EdgeKind::new(directed, cosmetic, label, true))
}

fn door_kind(graph: &Graph, door: &DoorSelector) -> Option<EdgeKind> {
    edge_kind(graph, door.directed, false, Some(&door.label))
}

fn link_kind(graph: &Graph, link: &LinkEdge) -> Option<EdgeKind> {
    edge_kind(graph, link.directed, link.cosmetic, link.label.as_deref())
}

impl Level {
    /// `graph` as the player sees it under `spec`.
    ///
    /// # Complexity
    /// O(V + E + the key–lock pairs that `via` links name), with a
    /// `via same ATTR` statement grouping its locks by value.
    pub(crate) fn new(graph: &Graph, spec: &PlaySpec) -> Level {
        let (places, place_of) = places(graph, spec);
        let n = places.len();
        let place = |v: VertexId| place_of[v.index()];

        let entrance_sel = Selector::new(&spec.entrance, graph);
        let entrances: Vec<VertexId> = graph
            .vertices()
            .filter(|&(v, x)| place(v).is_some() && entrance_sel.matches(x))
            .map(|(v, _)| v)
            .collect();
        let entrance = match entrances.as_slice() {
            [] => Err(EntranceProblem::None),
            [v] => Ok(place(*v).expect("entrances have places")),
            _ => Err(EntranceProblem::Several(entrances)),
        };
        let goal_sel = Selector::new(&spec.goal, graph);
        let goals: Vec<(VertexId, u32)> = graph
            .vertices()
            .filter_map(|(v, x)| Some((v, place(v)?)).filter(|_| goal_sel.matches(x)))
            .collect();

        let mut locks = Locks::new(graph, spec, &place_of);
        let keys = Keys::new(graph, spec, &place_of, &mut locks);
        let Locks {
            index: lock_index,
            mut locks,
            ..
        } = locks;
        for (g, mine) in keys.group_locks.iter().enumerate() {
            for &l in mine {
                locks[l as usize].groups.push(g as u32);
            }
        }
        let place_locks: Vec<(u32, u32)> = locks
            .iter()
            .enumerate()
            .filter_map(|(i, lock)| Some((lock.place?, i as u32)))
            .collect();
        let passages = Passages::new(graph, spec, &place_of, &lock_index);
        let keys_at: Vec<(u32, u32)> = keys
            .keys
            .iter()
            .enumerate()
            .map(|(k, key)| (key.place, k as u32))
            .collect();
        Level {
            places,
            out: Rows::new(n, &passages.out),
            into: Rows::new(n, &passages.into),
            one_way: passages.list.iter().any(|p| !p.two_way),
            passages: passages.list,
            place_locks: Rows::new(n, &place_locks),
            small_keys: keys.keys.iter().any(|k| k.small),
            keys_at: Rows::new(n, &keys_at),
            keys: keys.keys,
            locks,
            group_locks: keys.group_locks,
            group_keys: keys.group_keys,
            entrance,
            goals,
        }
    }
}

/// The places of `graph` (top-level vertices not ignored, in id order) and
/// every vertex's place: its own, or its top-level ancestor's for a stored
/// vertex; `None` for an ignored vertex.
fn places(graph: &Graph, spec: &PlaySpec) -> (Vec<VertexId>, Vec<Option<u32>>) {
    let ignored: Vec<Symbol> = spec
        .ignore
        .iter()
        .filter_map(|t| graph.tags().get(t))
        .collect();
    let tops = top_levels(graph);
    let mut place_of = vec![None; graph.vertex_bound()];
    let mut places = Vec::new();
    for (v, x) in graph.vertices() {
        if x.parent.is_none() && !ignored.contains(&x.tag) {
            place_of[v.index()] = Some(places.len() as u32);
            places.push(v);
        }
    }
    for v in graph.vertex_ids() {
        let top = tops[v.index()];
        let own_tag_ignored = ignored.contains(&graph.tag(v));
        place_of[v.index()] = if own_tag_ignored {
            None
        } else {
            place_of[top.index()]
        };
    }
    (places, place_of)
}

/// The locks of a level, by what they are on, and each key statement's
/// own list of them.
struct Locks {
    index: BTreeMap<LockRef, u32>,
    locks: Vec<Lock>,
    /// Per key statement: its locks, in the order found.
    of_statement: Vec<Vec<u32>>,
}

impl Locks {
    fn new(graph: &Graph, spec: &PlaySpec, place_of: &[Option<u32>]) -> Self {
        let place = |v: VertexId| place_of[v.index()];
        let mut index: BTreeMap<LockRef, u32> = BTreeMap::new();
        let mut locks: Vec<Lock> = Vec::new();
        let mut of_statement: Vec<Vec<u32>> = Vec::with_capacity(spec.keys.len());
        for (s, statement) in spec.keys.iter().enumerate() {
            let mut mine = Vec::new();
            let mut add = |what: LockRef, place: Option<u32>| {
                let i = *index.entry(what).or_insert_with(|| {
                    locks.push(Lock {
                        what,
                        statements: Vec::new(),
                        place,
                        keys: Vec::new(),
                        groups: Vec::new(),
                    });
                    (locks.len() - 1) as u32
                });
                if locks[i as usize].statements.last() != Some(&(s as u32)) {
                    locks[i as usize].statements.push(s as u32);
                }
                mine.push(i);
            };
            match &statement.opens {
                LockSpec::Room(sel) => {
                    let sel = Selector::new(sel, graph);
                    for (v, x) in graph.vertices() {
                        if let Some(p) = place(v) {
                            if sel.matches(x) {
                                add(LockRef::Room(v), Some(p));
                            }
                        }
                    }
                }
                LockSpec::Door(door) => {
                    if let Some(kind) = door_kind(graph, door) {
                        for (e, edge) in graph.edges() {
                            let (Some(a), Some(b)) = (place(edge.source), place(edge.target))
                            else {
                                continue;
                            };
                            if a != b && edge.kind().fits(kind) {
                                add(LockRef::Door(e), None);
                            }
                        }
                    }
                }
            }
            of_statement.push(mine);
        }
        Locks {
            index,
            locks,
            of_statement,
        }
    }

    /// `via same ATTR`: per key statement, its room locks by their value
    /// of the attribute (empty for other statements).
    fn by_value<'g>(&self, graph: &'g Graph, spec: &PlaySpec) -> Vec<BTreeMap<&'g str, Vec<u32>>> {
        spec.keys
            .iter()
            .zip(&self.of_statement)
            .map(|(k, mine)| {
                let mut map: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
                if let Some(KeyLink::Same(attr)) = &k.via {
                    for &l in mine {
                        if let LockRef::Room(v) = self.locks[l as usize].what {
                            if let Some(value) =
                                graph.vertex(v).and_then(|x| x.attributes.get(attr))
                            {
                                map.entry(value.as_str()).or_default().push(l);
                            }
                        }
                    }
                }
                map
            })
            .collect()
    }
}

/// The keys of a level, each under the first key statement that names
/// it, and the groups of the statements without `via`.
struct Keys {
    keys: Vec<Key>,
    /// Per key statement without `via`: its locks, and its keys.
    group_locks: Vec<Vec<u32>>,
    group_keys: Vec<Vec<u32>>,
}

impl Keys {
    /// Also lists each key that names a lock with `via` among the lock's
    /// keys.
    fn new(graph: &Graph, spec: &PlaySpec, place_of: &[Option<u32>], locks: &mut Locks) -> Self {
        let key_sels: Vec<Selector<'_>> = spec
            .keys
            .iter()
            .map(|k| Selector::new(&k.key, graph))
            .collect();
        let lock_sels: Vec<Option<Selector<'_>>> = spec
            .keys
            .iter()
            .map(|k| match &k.opens {
                LockSpec::Room(sel) => Some(Selector::new(sel, graph)),
                LockSpec::Door(_) => None,
            })
            .collect();
        let by_value = locks.by_value(graph, spec);
        let mut group_of_statement = vec![None; spec.keys.len()];
        let mut group_locks = Vec::new();
        for (s, k) in spec.keys.iter().enumerate() {
            if k.via.is_none() {
                group_of_statement[s] = Some(group_locks.len() as u32);
                group_locks.push(locks.of_statement[s].clone());
            }
        }
        let mut group_keys = vec![Vec::new(); group_locks.len()];
        let mut keys = Vec::new();
        for (v, x) in graph.vertices() {
            let Some(p) = place_of[v.index()] else {
                continue;
            };
            let Some(s) = key_sels.iter().position(|sel| sel.matches(x)) else {
                continue;
            };
            let statement = &spec.keys[s];
            let k = keys.len() as u32;
            let opens = match (&statement.via, group_of_statement[s]) {
                (None, Some(g)) => {
                    group_keys[g as usize].push(k);
                    Opens::Group(g)
                }
                (Some(KeyLink::Same(attr)), _) => Opens::Listed(
                    x.attributes
                        .get(attr)
                        .and_then(|value| by_value[s].get(value.as_str()))
                        .cloned()
                        .unwrap_or_default(),
                ),
                (Some(KeyLink::Edge(link)), _) => {
                    Opens::Listed(linked_locks(graph, v, link, lock_sels[s].as_ref(), locks))
                }
                (None, None) => unreachable!("a statement without `via` has a group"),
            };
            if let Opens::Listed(listed) = &opens {
                for &l in listed {
                    locks.locks[l as usize].keys.push(k);
                }
            }
            keys.push(Key {
                vertex: v,
                place: p,
                statement: s as u32,
                small: statement.small,
                opens,
            });
        }
        Keys {
            keys,
            group_locks,
            group_keys,
        }
    }
}

/// The room locks that key `v` names by a `via` edge `link`: the lock
/// vertices (matched by `lock_sel`) at the other end of such an edge, in
/// increasing lock order.
fn linked_locks(
    graph: &Graph,
    v: VertexId,
    link: &LinkEdge,
    lock_sel: Option<&Selector<'_>>,
    locks: &Locks,
) -> Vec<u32> {
    let mut listed = Vec::new();
    if let (Some(kind), Some(lock_sel)) = (link_kind(graph, link), lock_sel) {
        for inc in graph.incidences(v) {
            let u = inc.other;
            if u == v || !inc.kind.fits(kind) {
                continue;
            }
            let is_lock = graph.vertex(u).is_some_and(|y| lock_sel.matches(y));
            if let Some(&l) = locks.index.get(&LockRef::Room(u)).filter(|_| is_lock) {
                listed.push(l);
            }
        }
    }
    listed.sort_unstable();
    listed.dedup();
    listed
}

/// The passages of a level (non-cosmetic edges between two places) and
/// the steps along them, out of and into each place.
struct Passages {
    list: Vec<Passage>,
    out: Vec<(u32, Step)>,
    into: Vec<(u32, Step)>,
}

impl Passages {
    fn new(
        graph: &Graph,
        spec: &PlaySpec,
        place_of: &[Option<u32>],
        lock_index: &BTreeMap<LockRef, u32>,
    ) -> Self {
        let one_way_mode = spec.directed == Directed::OneWay;
        // At most one passage per edge, each at most two steps each way:
        // sized once rather than grown (this runs once per level checked).
        let edges = graph.edge_count();
        let mut list = Vec::with_capacity(edges);
        let mut out = Vec::with_capacity(2 * edges);
        let mut into = Vec::with_capacity(2 * edges);
        for (e, edge) in graph.edges() {
            if edge.cosmetic {
                continue;
            }
            let (Some(a), Some(b)) = (place_of[edge.source.index()], place_of[edge.target.index()])
            else {
                continue;
            };
            if a == b {
                continue;
            }
            let i = list.len() as u32;
            let two_way = !(edge.directed && one_way_mode);
            list.push(Passage {
                edge: e,
                two_way,
                lock: lock_index.get(&LockRef::Door(e)).copied(),
            });
            out.push((a, Step { to: b, passage: i }));
            into.push((b, Step { to: a, passage: i }));
            if two_way {
                out.push((b, Step { to: a, passage: i }));
                into.push((a, Step { to: b, passage: i }));
            }
        }
        Passages { list, out, into }
    }
}

impl Level {
    /// The locks key `k` opens.
    pub(crate) fn opens(&self, k: u32) -> &[u32] {
        match &self.keys[k as usize].opens {
            Opens::Listed(listed) => listed,
            Opens::Group(g) => &self.group_locks[*g as usize],
        }
    }

    /// Every key that opens lock `l`, in increasing order.
    pub(crate) fn keys_of(&self, l: u32) -> Vec<u32> {
        let lock = &self.locks[l as usize];
        let mut keys = lock.keys.clone();
        for &g in &lock.groups {
            keys.extend_from_slice(&self.group_keys[g as usize]);
        }
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The locks a step through `passage` into place `to` must pass: the
    /// door's, then the room's.
    pub(crate) fn locks_on(&self, passage: u32, to: u32) -> impl Iterator<Item = u32> + '_ {
        self.passages[passage as usize]
            .lock
            .into_iter()
            .chain(self.place_locks[to as usize].iter().copied())
    }

    /// The vertex of place `p`.
    pub(crate) fn vertex(&self, p: u32) -> VertexId {
        self.places[p as usize]
    }
}
