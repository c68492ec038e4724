//! The playability checker against an exhaustive search.
//!
//! Random small levels (2 to 8 places, stored items, undirected and
//! directed corridors, at most three locks — locked rooms and locked
//! doors — and four keys, kept or small, named by kind, by a shared
//! attribute or by link edges) are checked with [`play::check`] and with a
//! plain breadth-first search over the player's states written here from
//! the play semantics alone: where the player stands, the keys held and
//! spent, the locks small keys opened and the goals reached, moving one
//! corridor at a time. The checker must never call a level completable
//! that the search cannot finish, nor unfinishable one it can, nor unknown
//! (the search limit is far above these sizes; with a limit of a few
//! states it may say unknown, and what else it says must hold). Every
//! playthrough it gives must replay as a legal play; the reason of an
//! unfinishable level must hold; the places it calls unreachable must be
//! so, and a lock it says gates the goal (or rooms) must do so — exactly
//! so where the fixpoint decides alone (kept keys, two-way corridors, an
//! entrance that is no locked room).

use std::collections::{HashSet, VecDeque};
use std::sync::OnceLock;

use levelgraph::grammar;
use levelgraph::grammar::play::{Directed, PlaySpec};
use levelgraph::graph::{Edge, EdgeId, Graph, VertexId};
use levelgraph::play::{self, Event, LockRef, PlayReport, Reason, Verdict};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// The play block
// ---------------------------------------------------------------------------

/// How a statement's key names its locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// Any lock of the statement.
    Any,
    /// The locks with the key's `color`.
    Same,
    /// The locks a cosmetic edge `~>` from the key points at.
    Link,
}

/// What a statement's locks are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Locks {
    /// Vertices with this tag: locked rooms.
    Room(&'static str),
    /// Undirected corridors with this label: locked doors.
    Door(&'static str),
}

/// A key statement of the block.
struct Statement {
    key: &'static str,
    /// The key selector asks for `{color: red}`.
    red_only: bool,
    opens: Locks,
    via: Via,
    small: bool,
}

const fn statement(
    key: &'static str,
    red_only: bool,
    opens: Locks,
    via: Via,
    small: bool,
) -> Statement {
    Statement {
        key,
        red_only,
        opens,
        via,
        small,
    }
}

/// The key statements, in order: a key belongs to the first that names it
/// (a red `k0` to the first, any other `k0` to the second).
const STATEMENTS: [Statement; 9] = [
    statement("k0", true, Locks::Room("l1"), Via::Same, false),
    statement("k0", false, Locks::Room("l0"), Via::Any, false),
    statement("k1", false, Locks::Room("l1"), Via::Same, false),
    statement("k2", false, Locks::Room("l2"), Via::Link, false),
    statement("k3", false, Locks::Room("l3"), Via::Any, true),
    statement("k4", false, Locks::Room("l4"), Via::Same, true),
    statement("k5", false, Locks::Room("l5"), Via::Link, true),
    statement("kd", false, Locks::Door("locked"), Via::Any, false),
    statement("ksd", false, Locks::Door("slocked"), Via::Any, true),
];

const KEY_TAGS: [&str; 8] = ["k0", "k1", "k2", "k3", "k4", "k5", "kd", "ksd"];
const LOCK_TAGS: [&str; 6] = ["l0", "l1", "l2", "l3", "l4", "l5"];
/// Corridor labels: two kinds of locked door, and one that locks nothing.
const LABELS: [&str; 3] = ["locked", "slocked", "plain"];
const IGNORED: &str = "n";
const SEARCH_LIMIT: u32 = 1_000_000;
const MAX_LOCKS: usize = 3;
const MAX_KEYS: usize = 4;

/// The block's text, from [`STATEMENTS`].
fn play_block() -> String {
    let mut out = format!(
        "play {{\n  entrance entrance\n  goal goal\n  ignore {IGNORED}\n  search_limit {SEARCH_LIMIT}\n"
    );
    for s in &STATEMENTS {
        let small = if s.small { "small " } else { "" };
        let red = if s.red_only { " {color: red}" } else { "" };
        let opens = match s.opens {
            Locks::Room(tag) => tag.to_owned(),
            Locks::Door(label) => format!("-[{label}]-"),
        };
        let via = match s.via {
            Via::Any => "",
            Via::Same => " via same color",
            Via::Link => " via ~>",
        };
        out.push_str(&format!("  {small}key {}{red} opens {opens}{via}\n", s.key));
    }
    out.push_str("}\n");
    out
}

/// The compiled block (`directed one_way`).
fn spec() -> &'static PlaySpec {
    static SPEC: OnceLock<PlaySpec> = OnceLock::new();
    SPEC.get_or_init(|| {
        let tags: Vec<&str> = ["s", "entrance", "goal", "room", IGNORED]
            .into_iter()
            .chain(KEY_TAGS)
            .chain(LOCK_TAGS)
            .collect();
        let src = format!(
            "tags {{ {} }}\nrule start {{ (a:s) => (a:entrance) }}\n{}",
            tags.join(" "),
            play_block()
        );
        let g = grammar::load(&src, "oracle").unwrap_or_else(|e| panic!("{e}\n{src}"));
        g.play().expect("a play block").clone()
    })
}

// ---------------------------------------------------------------------------
// Generated levels
// ---------------------------------------------------------------------------

/// What a generated vertex is.
#[derive(Clone, Copy, Debug)]
enum Role {
    Room,
    Goal,
    /// Tagged `n`: no place, and nothing stored in it is in a place when
    /// it is top-level.
    Ignored,
    /// A key of one of the level's two statements (`LevelSpec::pool`).
    Key(u8),
    /// A locked room of one of them (a statement of locked doors lends
    /// the other's lock tag; with two such statements it is a room).
    Lock(u8),
}

/// A vertex: its role and its `color` (`Some(true)`: red).
type VertexSpec = (Role, Option<bool>);

/// A place's corridor to an earlier place: that place's index (modulo),
/// directed, pointing at the earlier place, and a label (see
/// [`label_of`]).
type TreeCorridor = (u8, bool, bool, Option<u8>);

#[derive(Clone, Debug)]
struct LevelSpec {
    /// The two key statements (indices into [`STATEMENTS`]) whose keys and
    /// locks the level uses, so that most locks have keys.
    pool: [u8; 2],
    /// Top-level vertices after the entrance (vertex 0), each joined to an
    /// earlier one.
    places: Vec<(VertexSpec, TreeCorridor)>,
    /// The goal: a place after the entrance (modulo).
    goal: u8,
    /// Stored vertices: a parent (modulo the vertices before it) and the
    /// vertex.
    items: Vec<(u8, VertexSpec)>,
    /// More corridors: ends (modulo the vertex count), directed, label
    /// (see [`label_of`]).
    corridors: Vec<(u8, u8, bool, Option<u8>)>,
    /// Cosmetic links: the nth key and the nth lock vertex (modulo their
    /// counts), and a style: 0–3 key `~>` lock, 4 lock `~>` key, 5 key `~~`
    /// lock, 6 key `~[plain]~>` lock (only the first names the lock).
    links: Vec<(u8, u8, u8)>,
    two_way: bool,
}

/// An edge of a built level, by vertex index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EdgeSpec {
    source: usize,
    target: usize,
    directed: bool,
    cosmetic: bool,
    label: Option<&'static str>,
}

/// A vertex of a built level.
#[derive(Clone, Debug)]
struct VertexDef {
    tag: &'static str,
    parent: Option<usize>,
    red: Option<bool>,
}

/// A level with the generator's caps applied: vertex index `i` is vertex
/// id `i` of the graph.
#[derive(Clone, Debug)]
struct Built {
    vertices: Vec<VertexDef>,
    edges: Vec<EdgeSpec>,
    two_way: bool,
}

fn tag_of(role: Role, pool: [u8; 2]) -> &'static str {
    let statement = |i: u8| &STATEMENTS[usize::from(pool[usize::from(i % 2)]) % STATEMENTS.len()];
    match role {
        Role::Room => "room",
        Role::Goal => "goal",
        Role::Ignored => IGNORED,
        Role::Key(i) => statement(i).key,
        Role::Lock(i) => match (statement(i).opens, statement(i + 1).opens) {
            (Locks::Room(tag), _) | (_, Locks::Room(tag)) => tag,
            _ => "room",
        },
    }
}

/// A generated corridor label `l` (0 to 11): mostly the door label of a
/// statement of the level's pool (a door its keys open) or `plain`;
/// rarely a door of either kind, which no key of the level may open.
fn label_of(l: u8, pool: [u8; 2]) -> &'static str {
    let door = pool
        .iter()
        .find_map(|&s| match STATEMENTS[usize::from(s)].opens {
            Locks::Door(label) => Some(label),
            Locks::Room(_) => None,
        });
    match (l % 6, door) {
        (0..=2, Some(label)) => label,
        (5, _) => LABELS[usize::from(l / 6) % 2],
        _ => "plain",
    }
}

fn build(spec: &LevelSpec) -> Built {
    let mut vertices = vec![VertexDef {
        tag: "entrance",
        parent: None,
        red: None,
    }];
    let (mut locks, mut keys) = (0, 0);
    let mut add = |vertices: &mut Vec<VertexDef>, (role, red): VertexSpec, parent| {
        let role = match role {
            Role::Lock(_) if locks == MAX_LOCKS => Role::Room,
            Role::Key(_) if keys == MAX_KEYS => Role::Room,
            Role::Lock(_) => {
                locks += 1;
                role
            }
            Role::Key(_) => {
                keys += 1;
                role
            }
            _ => role,
        };
        vertices.push(VertexDef {
            tag: tag_of(role, spec.pool),
            parent,
            red,
        });
    };
    let goal = 1 + usize::from(spec.goal) % spec.places.len();
    for (i, &(v, _)) in spec.places.iter().enumerate() {
        let v = if i + 1 == goal { (Role::Goal, v.1) } else { v };
        add(&mut vertices, v, None);
    }
    for &(parent, v) in &spec.items {
        let parent = usize::from(parent) % vertices.len();
        add(&mut vertices, v, Some(parent));
    }
    let n = vertices.len();
    let mut edges: Vec<EdgeSpec> = Vec::new();
    let mut push = |e: EdgeSpec| {
        let same = |f: &EdgeSpec| {
            f.directed == e.directed
                && f.cosmetic == e.cosmetic
                && f.label == e.label
                && ((f.source, f.target) == (e.source, e.target)
                    || (!e.directed && (f.source, f.target) == (e.target, e.source)))
        };
        // The graph keeps one of identical edges.
        if !edges.iter().any(same) {
            edges.push(e);
        }
    };
    let mut doors = 0;
    let tree = spec
        .places
        .iter()
        .enumerate()
        .map(|(i, &(_, (to, directed, back, label)))| {
            let (a, b) = (i + 1, usize::from(to) % (i + 1));
            let (a, b) = if back { (a, b) } else { (b, a) };
            (a as u8, b as u8, directed, label)
        });
    for (a, b, directed, label) in tree.chain(spec.corridors.iter().copied()) {
        let mut label = label.map(|l| label_of(l, spec.pool));
        let is_door = !directed && matches!(label, Some("locked" | "slocked"));
        if is_door {
            if locks + doors == MAX_LOCKS {
                label = None;
            } else {
                doors += 1;
            }
        }
        push(EdgeSpec {
            source: usize::from(a) % n,
            target: usize::from(b) % n,
            directed,
            cosmetic: false,
            label,
        });
    }
    let key_vertices: Vec<usize> = (0..n)
        .filter(|&i| KEY_TAGS.contains(&vertices[i].tag))
        .collect();
    let lock_vertices: Vec<usize> = (0..n)
        .filter(|&i| LOCK_TAGS.contains(&vertices[i].tag))
        .collect();
    if !key_vertices.is_empty() && !lock_vertices.is_empty() {
        for &(k, l, style) in &spec.links {
            let k = key_vertices[usize::from(k) % key_vertices.len()];
            let l = lock_vertices[usize::from(l) % lock_vertices.len()];
            let (source, target, directed, label) = match style % 7 {
                0..=3 => (k, l, true, None),
                4 => (l, k, true, None),
                5 => (k, l, false, None),
                _ => (k, l, true, Some("plain")),
            };
            push(EdgeSpec {
                source,
                target,
                directed,
                cosmetic: true,
                label,
            });
        }
    }
    Built {
        vertices,
        edges,
        two_way: spec.two_way,
    }
}

/// The mission graph of `level`: vertex `i` has id `i`; edge `j` of
/// `level.edges` has the `j`th returned id.
fn graph_of(level: &Built) -> (Graph, Vec<EdgeId>) {
    let mut g = Graph::new();
    for v in &level.vertices {
        let id = g.add_vertex_named(v.tag);
        if let Some(red) = v.red {
            let color = if red { "red" } else { "blue" };
            g.vertex_mut(id)
                .unwrap()
                .attributes
                .insert("color".into(), color.into());
        }
        if let Some(p) = v.parent {
            assert!(g.set_parent(id, Some(VertexId(p as u32))));
        }
    }
    let ids = level
        .edges
        .iter()
        .map(|e| {
            let label = e.label.map(|l| g.labels_mut().intern(l));
            g.add_edge(Edge {
                source: VertexId(e.source as u32),
                target: VertexId(e.target as u32),
                directed: e.directed,
                cosmetic: e.cosmetic,
                label,
                length_factor: 1.0,
            })
        })
        .collect();
    (g, ids)
}

// ---------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------

/// A lock of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ModelLock {
    /// A lock vertex: locks its place.
    Room { vertex: usize, place: usize },
    /// A locked door: edge index into `Built::edges`.
    Door { edge: usize },
}

#[derive(Clone, Debug)]
struct ModelKey {
    vertex: usize,
    place: usize,
    small: bool,
    /// The locks it opens (a small key: may open, one of them).
    opens: Vec<usize>,
}

/// A corridor between two places, walked from `from` to `to` (and back
/// unless one-way), through the door lock `door`.
#[derive(Clone, Copy, Debug)]
struct Passage {
    from: usize,
    to: usize,
    one_way: bool,
    door: Option<usize>,
}

/// The level as the player sees it, read from the play semantics.
struct Model {
    /// Per edge of the level: its id in the graph.
    edge_ids: Vec<EdgeId>,
    /// Per place: its vertex index.
    places: Vec<usize>,
    /// Per vertex: its place.
    place_of: Vec<Option<usize>>,
    entrance: usize,
    /// The goals' places (one per goal vertex).
    goals: Vec<usize>,
    keys: Vec<ModelKey>,
    locks: Vec<ModelLock>,
    /// Per place: the locks on it.
    room_locks: Vec<Vec<usize>>,
    passages: Vec<Passage>,
}

impl Model {
    /// `level`, whose graph gave its edges `edge_ids`.
    fn new(level: &Built, edge_ids: &[EdgeId]) -> Model {
        let n = level.vertices.len();
        let top = |mut v: usize| {
            while let Some(p) = level.vertices[v].parent {
                v = p;
            }
            v
        };
        let ignored = |v: usize| level.vertices[v].tag == IGNORED;
        let places: Vec<usize> = (0..n)
            .filter(|&v| level.vertices[v].parent.is_none() && !ignored(v))
            .collect();
        let place_of: Vec<Option<usize>> = (0..n)
            .map(|v| {
                if ignored(v) {
                    return None;
                }
                places.iter().position(|&p| p == top(v))
            })
            .collect();
        let entrance = place_of[0].expect("vertex 0 is the entrance");
        let goals = (0..n)
            .filter(|&v| level.vertices[v].tag == "goal")
            .filter_map(|v| place_of[v])
            .collect();

        // Locks: lock vertices with a place, then undirected corridors with a
        // door label between two places.
        let mut locks = Vec::new();
        for v in (0..n).filter(|&v| LOCK_TAGS.contains(&level.vertices[v].tag)) {
            if let Some(place) = place_of[v] {
                locks.push(ModelLock::Room { vertex: v, place });
            }
        }
        let mut passages = Vec::new();
        for (i, e) in level.edges.iter().enumerate() {
            if e.cosmetic {
                continue;
            }
            let (Some(a), Some(b)) = (place_of[e.source], place_of[e.target]) else {
                continue;
            };
            if a == b {
                continue;
            }
            let door = match e.label {
                Some("locked" | "slocked") if !e.directed => {
                    locks.push(ModelLock::Door { edge: i });
                    Some(locks.len() - 1)
                }
                _ => None,
            };
            passages.push(Passage {
                from: a,
                to: b,
                one_way: e.directed && !level.two_way,
                door,
            });
        }
        let mut room_locks = vec![Vec::new(); places.len()];
        for (l, lock) in locks.iter().enumerate() {
            if let ModelLock::Room { place, .. } = lock {
                room_locks[*place].push(l);
            }
        }

        // Keys: each under the first statement that names it.
        let mut keys = Vec::new();
        for (v, x) in level.vertices.iter().enumerate() {
            let Some(place) = place_of[v] else { continue };
            let Some(s) = STATEMENTS
                .iter()
                .find(|s| s.key == x.tag && (!s.red_only || x.red == Some(true)))
            else {
                continue;
            };
            let of_statement = |lock: &ModelLock| match (lock, s.opens) {
                (ModelLock::Room { vertex, .. }, Locks::Room(tag)) => {
                    level.vertices[*vertex].tag == tag
                }
                (ModelLock::Door { edge }, Locks::Door(label)) => {
                    level.edges[*edge].label == Some(label)
                }
                _ => false,
            };
            let names = |lock: &ModelLock| match (s.via, lock) {
                (Via::Any, _) => true,
                (Via::Same, ModelLock::Room { vertex, .. }) => {
                    x.red.is_some() && level.vertices[*vertex].red == x.red
                }
                (Via::Link, ModelLock::Room { vertex, .. }) => level.edges.iter().any(|e| {
                    e.cosmetic
                        && e.directed
                        && e.label.is_none()
                        && e.source == v
                        && e.target == *vertex
                }),
                _ => false,
            };
            let opens = (0..locks.len())
                .filter(|&l| of_statement(&locks[l]) && names(&locks[l]))
                .collect();
            keys.push(ModelKey {
                vertex: v,
                place,
                small: s.small,
                opens,
            });
        }
        Model {
            edge_ids: edge_ids.to_vec(),
            places,
            place_of,
            entrance,
            goals,
            keys,
            locks,
            room_locks,
            passages,
        }
    }

    /// The model's lock that a report names.
    fn lock(&self, lock: LockRef) -> Result<usize, String> {
        self.locks
            .iter()
            .position(|m| match (m, lock) {
                (ModelLock::Room { vertex, .. }, LockRef::Room(v)) => *vertex == v.0 as usize,
                (ModelLock::Door { edge }, LockRef::Door(e)) => self.edge_ids[*edge] == e,
                _ => false,
            })
            .ok_or(format!("{lock:?} is no lock"))
    }

    /// The model's key that a report names.
    fn key(&self, v: VertexId) -> Result<usize, String> {
        self.keys
            .iter()
            .position(|k| k.vertex == v.0 as usize)
            .ok_or(format!("vertex {} is no key", v.0))
    }

    /// The place of a vertex a report names.
    fn place(&self, v: VertexId) -> Result<usize, String> {
        self.place_of
            .get(v.0 as usize)
            .copied()
            .flatten()
            .ok_or(format!("vertex {} has no place", v.0))
    }

    /// The steps out of place `p`: (passage, place reached).
    fn steps(&self, p: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.passages.iter().enumerate().filter_map(move |(i, s)| {
            if s.from == p {
                Some((i, s.to))
            } else if s.to == p && !s.one_way {
                Some((i, s.from))
            } else {
                None
            }
        })
    }

    /// The locks a step through `passage` into `to` must pass.
    fn locks_on(&self, passage: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
        self.passages[passage]
            .door
            .into_iter()
            .chain(self.room_locks[to].iter().copied())
    }

    fn keys_at(&self, p: usize) -> u32 {
        (0..self.keys.len())
            .filter(|&k| self.keys[k].place == p)
            .fold(0, |m, k| m | 1 << k)
    }

    fn goals_at(&self, p: usize) -> u32 {
        (0..self.goals.len())
            .filter(|&g| self.goals[g] == p)
            .fold(0, |m, g| m | 1 << g)
    }
}

/// A player's state: position, keys held, small keys spent, locks small
/// keys opened, goals reached (bit sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    pos: usize,
    held: u32,
    spent: u32,
    opened: u32,
    goals: u32,
}

/// What the exhaustive search found.
struct Search {
    completable: bool,
    /// Per place: some play enters it.
    reached: Vec<bool>,
}

/// Every state reachable from the entrance, one move at a time: step
/// through a corridor whose locks are open (picking up the keys and
/// reaching the goals of the place entered), or spend a small key held on
/// a lock it opens. A lock is open once a small key was spent on it or
/// while a kept key that opens it is held. `shut`: a lock that never
/// opens; `open`: a lock open from the start.
fn explore(model: &Model, shut: Option<usize>, open: Option<usize>) -> Search {
    let all_goals = (1u32 << model.goals.len()) - 1;
    let start = State {
        pos: model.entrance,
        held: model.keys_at(model.entrance),
        spent: 0,
        opened: 0,
        goals: model.goals_at(model.entrance),
    };
    let is_open = |s: &State, l: usize| {
        Some(l) == open
            || (Some(l) != shut
                && (s.opened >> l & 1 == 1
                    || model.keys.iter().enumerate().any(|(k, key)| {
                        !key.small && s.held >> k & 1 == 1 && key.opens.contains(&l)
                    })))
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    let mut out = Search {
        completable: false,
        reached: vec![false; model.places.len()],
    };
    while let Some(s) = queue.pop_front() {
        out.reached[s.pos] = true;
        out.completable |= s.goals == all_goals;
        let mut next = Vec::new();
        for (passage, to) in model.steps(s.pos) {
            if model.locks_on(passage, to).all(|l| is_open(&s, l)) {
                next.push(State {
                    pos: to,
                    held: s.held | model.keys_at(to),
                    goals: s.goals | model.goals_at(to),
                    ..s
                });
            }
        }
        for (k, key) in model.keys.iter().enumerate() {
            if !key.small || s.held >> k & 1 == 0 || s.spent >> k & 1 == 1 {
                continue;
            }
            for &l in &key.opens {
                if !is_open(&s, l) && Some(l) != shut {
                    next.push(State {
                        spent: s.spent | 1 << k,
                        opened: s.opened | 1 << l,
                        ..s
                    });
                }
            }
        }
        for t in next {
            if seen.insert(t) {
                queue.push_back(t);
            }
        }
    }
    out
}

/// Replays a completable report's playthrough in the model: it starts at
/// the entrance; each place is entered once, from a place entered before
/// that the player can walk to from where they stand (through places
/// entered before), through a corridor whose locks were opened; the keys of a place are picked up right after
/// entering it; a lock is opened with a key held that opens it, a small
/// key once; every goal is reached, the last on the last entry.
fn replay(model: &Model, report: &PlayReport) -> Result<(), String> {
    let place = |v: VertexId| model.place(v);
    let n = model.places.len();
    let mut visited = vec![false; n];
    let mut pos = None;
    let mut held = vec![false; model.keys.len()];
    let mut spent = vec![false; model.keys.len()];
    let mut opened = vec![false; model.locks.len()];
    let mut to_pick: Vec<usize> = Vec::new();
    let mut last_enter = None;
    for (i, event) in report.playthrough.iter().enumerate() {
        let fail = |why: String| Err(format!("event {i} ({event:?}): {why}"));
        if !to_pick.is_empty() && !matches!(event, Event::PickUp { .. }) {
            return fail(format!("keys {to_pick:?} were not picked up"));
        }
        match *event {
            Event::Enter { room, from } => {
                let p = place(room)?;
                if model.places[p] != room.0 as usize {
                    return fail("not a place's vertex".into());
                }
                if visited[p] {
                    return fail("entered twice".into());
                }
                match (from, pos) {
                    (None, None) if p == model.entrance => {}
                    (None, _) => {
                        return fail("a start that is not the first entry at the entrance".into())
                    }
                    (Some(_), None) => return fail("does not start at the entrance".into()),
                    (Some(f), Some(here)) => {
                        let f = place(f)?;
                        if !visited[f] {
                            return fail("from a place not entered".into());
                        }
                        // Walk from here to `f` through open corridors and
                        // places entered before.
                        let mut seen = vec![false; n];
                        seen[here] = true;
                        let mut stack = vec![here];
                        while let Some(q) = stack.pop() {
                            for (s, t) in model.steps(q) {
                                let open = model.locks_on(s, t).all(|l| opened[l]);
                                if !seen[t] && visited[t] && open {
                                    seen[t] = true;
                                    stack.push(t);
                                }
                            }
                        }
                        if !seen[f] {
                            return fail(
                                "the player cannot walk back to where it enters from".into(),
                            );
                        }
                        let through = model
                            .steps(f)
                            .any(|(s, t)| t == p && model.locks_on(s, t).all(|l| opened[l]));
                        if !through {
                            return fail("no open corridor leads there".into());
                        }
                    }
                }
                visited[p] = true;
                pos = Some(p);
                last_enter = Some(p);
                to_pick = (0..model.keys.len())
                    .filter(|&k| model.keys[k].place == p)
                    .collect();
            }
            Event::PickUp { key, room } => {
                let k = model.key(key)?;
                if pos != Some(place(room)?) || model.keys[k].place != place(room)? {
                    return fail("picked up away from the player".into());
                }
                if held[k] {
                    return fail("picked up twice".into());
                }
                held[k] = true;
                to_pick.retain(|&x| x != k);
            }
            Event::Open { lock, key } => {
                let (l, k) = (model.lock(lock)?, model.key(key)?);
                if !held[k] {
                    return fail("the key is not held".into());
                }
                if !model.keys[k].opens.contains(&l) {
                    return fail("the key does not open it".into());
                }
                if opened[l] {
                    return fail("opened twice".into());
                }
                if model.keys[k].small {
                    if spent[k] {
                        return fail("a small key used twice".into());
                    }
                    spent[k] = true;
                }
                opened[l] = true;
            }
        }
    }
    if let Some(g) = model.goals.iter().find(|&&g| !visited[g]) {
        return Err(format!("goal place {g} is never entered"));
    }
    if !last_enter.is_some_and(|p| model.goals.contains(&p)) {
        return Err("the playthrough goes on past the last goal".into());
    }
    Ok(())
}

/// Checks one level against the model, with the block's search limit or
/// `limit`; `Err` describes the disagreement, with the verdict, the
/// playthrough and the level.
fn agree(spec: &LevelSpec, limit: Option<u32>) -> Result<(), String> {
    let level = build(spec);
    let (graph, edge_ids) = graph_of(&level);
    let mut play_spec = spec_for(level.two_way);
    if limit.is_some() {
        play_spec.search_limit = limit;
    }
    let report = play::check(&graph, &play_spec);
    let model = Model::new(&level, &edge_ids);
    let verdict = match (&report.verdict, limit) {
        // A tight limit may stop the search, after exactly that many states.
        (Verdict::Unknown { limit: l }, Some(limit)) => {
            if *l == limit && report.searched == Some(limit) {
                return Ok(());
            }
            Err(format!(
                "unknown at {l}, after {:?} states",
                report.searched
            ))
        }
        _ => disagreement(&model, &graph, &report),
    };
    verdict.map_err(|what| {
        format!(
            "{what}\nverdict {:?}\nplaythrough {:?}\nlevel {level:#?}",
            report.verdict, report.playthrough
        )
    })
}

/// Where `report` on `graph` disagrees with the model.
fn disagreement(model: &Model, graph: &Graph, report: &PlayReport) -> Result<(), String> {
    if model.goals.is_empty() {
        return match report.verdict {
            Verdict::Unfinishable(Reason::NoGoal) => Ok(()),
            _ => Err("no goal".into()),
        };
    }
    let search = explore(model, None, None);
    match &report.verdict {
        Verdict::Completable if !search.completable => {
            return Err("completable, yet no play reaches every goal".into());
        }
        Verdict::Completable => {
            replay(model, report).map_err(|e| format!("the playthrough does not replay: {e}"))?;
        }
        Verdict::Unfinishable(reason) if search.completable => {
            return Err(format!(
                "unfinishable ({}), yet a play finishes it",
                reason.message(graph)
            ));
        }
        Verdict::Unfinishable(reason) => {
            reason_holds(model, graph, reason)
                .map_err(|e| format!("{}: {e}", reason.message(graph)))?;
        }
        Verdict::Unknown { .. } => return Err("unknown below the search limit".into()),
    }
    // With kept keys, two-way corridors and an entrance that is no locked
    // room, the fixpoint is exact: unreachable places and gating are
    // those of the search. Otherwise they are what no play can do.
    let exact = model.keys.iter().all(|k| !k.small)
        && model.passages.iter().all(|p| !p.one_way)
        && model.room_locks[model.entrance].is_empty();
    let unreached = |search: &Search| -> Vec<usize> {
        (0..model.places.len())
            .filter(|&p| !search.reached[p])
            .collect()
    };
    let unreachable: Vec<usize> = report
        .unreachable
        .iter()
        .map(|&v| model.place(v))
        .collect::<Result<_, _>>()?;
    if let Some(p) = unreachable.iter().find(|&&p| search.reached[p]) {
        return Err(format!(
            "place {p} is called unreachable, yet a play enters it"
        ));
    }
    if exact && unreachable != unreached(&search) {
        return Err(format!(
            "unreachable places {unreachable:?}, yet no play enters {:?}",
            unreached(&search)
        ));
    }
    for lock in &report.locks {
        let l = model.lock(lock.lock)?;
        let shut = explore(model, Some(l), None);
        if lock.gates_goal && shut.completable {
            return Err(format!(
                "{:?} gates the goal, yet a play finishes without it",
                lock.lock
            ));
        }
        let own = match model.locks[l] {
            ModelLock::Room { place, .. } => Some(place),
            ModelLock::Door { .. } => None,
        };
        let gated: Vec<usize> = lock
            .gates_rooms
            .iter()
            .map(|&v| model.place(v))
            .collect::<Result<_, _>>()?;
        if let Some(p) = gated.iter().find(|&&p| shut.reached[p]) {
            return Err(format!(
                "{:?} gates place {p}, yet a play enters it without the lock",
                lock.lock
            ));
        }
        if exact {
            // What it gates: what a play reaches with it open and not with
            // it shut; a lock no play opens (its keys lie behind it) is held
            // open to see what lies behind it.
            let opened = model
                .keys
                .iter()
                .any(|k| k.opens.contains(&l) && search.reached[k.place]);
            let held_open;
            let with = if opened {
                &search
            } else {
                held_open = explore(model, None, Some(l));
                &held_open
            };
            let lost: Vec<usize> = (0..model.places.len())
                .filter(|&p| with.reached[p] && !shut.reached[p] && Some(p) != own)
                .collect();
            let goal = with.completable && !shut.completable;
            if gated != lost || lock.gates_goal != goal {
                return Err(format!(
                    "{:?} gates the goal: {}, places {gated:?}; without it the goal is lost: {goal}, places {lost:?}",
                    lock.lock, lock.gates_goal
                ));
            }
        }
    }
    Ok(())
}

/// What an unfinishable verdict's reason says holds in the model: a lock
/// without a key has none, a key behind its own lock opens it and its
/// path is a walk from the entrance through the lock, keys behind each
/// other's locks form a cycle, a corridor walked the wrong way is one-way
/// and a place cut off is out of reach with every lock open.
fn reason_holds(model: &Model, graph: &Graph, reason: &Reason) -> Result<(), String> {
    let place = |v: VertexId| model.place(v);
    // With every lock open: the places reached from the entrance.
    let mut open_reach = vec![false; model.places.len()];
    open_reach[model.entrance] = true;
    let mut stack = vec![model.entrance];
    while let Some(p) = stack.pop() {
        for (_, t) in model.steps(p) {
            if !std::mem::replace(&mut open_reach[t], true) {
                stack.push(t);
            }
        }
    }
    match reason {
        Reason::LockWithoutKey { lock, .. } => {
            let l = model.lock(*lock)?;
            if model.keys.iter().any(|k| k.opens.contains(&l)) {
                return Err("the lock has a key".into());
            }
        }
        Reason::KeyBehindOwnLock { key, lock, path } => {
            let (k, l) = (model.key(*key)?, model.lock(*lock)?);
            if !model.keys[k].opens.contains(&l) {
                return Err("the key does not open the lock".into());
            }
            let places: Vec<usize> = path.iter().map(|&v| place(v)).collect::<Result<_, _>>()?;
            if places.first() != Some(&model.entrance)
                || places.last() != Some(&model.keys[k].place)
            {
                return Err("the path does not lead from the entrance to the key".into());
            }
            let mut through = false;
            for w in places.windows(2) {
                if !model.steps(w[0]).any(|(_, t)| t == w[1]) {
                    return Err(format!("no corridor from {} to {}", w[0], w[1]));
                }
                through |= model
                    .steps(w[0])
                    .any(|(s, t)| t == w[1] && model.locks_on(s, t).any(|x| x == l));
            }
            if !through {
                return Err("the path does not pass the lock".into());
            }
        }
        Reason::KeysBehindEachOther { chain } => {
            if chain.len() < 2 {
                return Err("a cycle of fewer than two keys".into());
            }
            for (i, w) in chain.iter().enumerate() {
                let (k, l) = (model.key(w.key)?, model.lock(w.opens)?);
                if !model.keys[k].opens.contains(&l) {
                    return Err(format!("entry {i}: the key does not open its lock"));
                }
                if w.behind != chain[(i + 1) % chain.len()].opens {
                    return Err(format!("entry {i}: not behind the next entry's lock"));
                }
            }
        }
        Reason::AgainstOneWay { corridor, room, .. } => {
            let edge = graph.edge(*corridor).ok_or("no such corridor")?;
            if !edge.directed {
                return Err("the corridor is not one-way".into());
            }
            if open_reach[place(*room)?] {
                return Err("the place can be reached along the corridors' ways".into());
            }
        }
        Reason::Disconnected { room } => {
            if open_reach[place(*room)?] {
                return Err("the place can be reached with every lock open".into());
            }
        }
        Reason::NoEntrance | Reason::SeveralEntrances(_) | Reason::NoGoal => {
            return Err("vertex 0 is the one entrance and every level has a goal".into());
        }
        Reason::NoOrder { .. } => {}
        other => return Err(format!("a reason this oracle does not know: {other:?}")),
    }
    Ok(())
}

/// The block, reading directed corridors as it is told.
fn spec_for(two_way: bool) -> PlaySpec {
    let mut s = spec().clone();
    s.directed = if two_way {
        Directed::TwoWay
    } else {
        Directed::OneWay
    };
    s
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

fn color() -> impl Strategy<Value = Option<bool>> {
    prop::option::weighted(0.8, any::<bool>())
}

fn role() -> impl Strategy<Value = Role> {
    prop_oneof![
        4 => Just(Role::Room),
        1 => Just(Role::Goal),
        1 => Just(Role::Ignored),
        6 => (0u8..2).prop_map(Role::Key),
        4 => (0u8..2).prop_map(Role::Lock),
    ]
}

/// A corridor: directed (with probability `directed`), and a label.
fn corridor(directed: f64) -> impl Strategy<Value = (bool, Option<u8>)> {
    (
        prop::bool::weighted(directed),
        prop::option::weighted(0.25, 0u8..12),
    )
}

/// Levels whose two statements come from `pool`, with corridors directed
/// with probability `directed` (a place's corridor to an earlier one
/// pointing back with probability `back`) and read `directed two_way` with
/// probability `two_way`.
fn level_strategy(
    pool: impl Strategy<Value = [u8; 2]>,
    directed: f64,
    back: f64,
    two_way: f64,
) -> impl Strategy<Value = LevelSpec> {
    (
        pool,
        prop::collection::vec(
            (
                (role(), color()),
                (any::<u8>(), prop::bool::weighted(back), corridor(directed))
                    .prop_map(|(to, back, (d, l))| (to, d, back, l)),
            ),
            1..=7,
        ),
        any::<u8>(),
        prop::collection::vec((any::<u8>(), (role(), color())), 0..=4),
        prop::collection::vec(
            (any::<u8>(), any::<u8>(), corridor(directed)).prop_map(|(a, b, (d, l))| (a, b, d, l)),
            0..=5,
        ),
        prop::collection::vec((any::<u8>(), any::<u8>(), 0u8..7), 0..=6),
        prop::bool::weighted(two_way),
    )
        .prop_map(
            |(pool, places, goal, items, corridors, links, two_way)| LevelSpec {
                pool,
                places,
                goal,
                items,
                corridors,
                links,
                two_way,
            },
        )
}

/// Any two statements.
fn any_pool() -> impl Strategy<Value = [u8; 2]> {
    [0u8..STATEMENTS.len() as u8, 0u8..STATEMENTS.len() as u8]
}

/// A statement of small keys and any other: the search's choices.
fn small_pool() -> impl Strategy<Value = [u8; 2]> {
    let small: Vec<u8> = (0..STATEMENTS.len() as u8)
        .filter(|&s| STATEMENTS[usize::from(s)].small)
        .collect();
    (prop::sample::select(small), 0u8..STATEMENTS.len() as u8).prop_map(|(a, b)| [a, b])
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Never write a regressions file next to the sources; a failure
        // prints the minimal case instead.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Every kind of statement; a third of the corridors directed, and a
    /// third of the levels read them two-way.
    #[test]
    fn the_checker_agrees_with_exhaustive_search(
        level in level_strategy(any_pool(), 0.3, 0.5, 0.3),
    ) {
        if let Err(e) = agree(&level, None) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Small keys and one-way corridors, where the order of play matters
    /// and the checker searches.
    #[test]
    fn the_search_agrees_with_exhaustive_search(
        level in level_strategy(small_pool(), 0.5, 0.1, 0.0),
    ) {
        if let Err(e) = agree(&level, None) {
            prop_assert!(false, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// The same with a search limit of a few states: the search may stop
    /// (unknown), but what it answers holds.
    #[test]
    fn a_tight_search_limit_answers_unknown_or_right(
        level in level_strategy(small_pool(), 0.5, 0.1, 0.0),
        limit in 1u32..=4,
    ) {
        if let Err(e) = agree(&level, Some(limit)) {
            prop_assert!(false, "{}", e);
        }
    }
}
