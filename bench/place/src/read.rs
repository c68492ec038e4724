//! The benchmark's own reading of a placement problem, from the level's
//! graph, its `play` block and its `place` block — written from
//! /work/place-semantics.md and docs/grammar-language.md (sections 19 and
//! 20), not from levelgraph's encoding: the fact writer (`facts.rs`) and
//! the independent validity checker (`check.rs`) both read problems
//! through it.
//!
//! Places are named by their vertex ids, locks by `room(V)` (the lock
//! vertex) or `door(E)` (the edge), content kinds as placement.lp names
//! them: `key(LOCK)`, `entrance`, `goal`, `item("TAG")`.

use std::collections::{BTreeMap, VecDeque};

use levelgraph::grammar::place::{key_tag, Anchor, PlaceSpec, Placed};
use levelgraph::grammar::play::{Directed, KeyLink, LockSpec, PlaySpec, VertexSelector};
use levelgraph::graph::{EdgeId, Graph, VertexId};

/// A lock: a locked room (its lock vertex) or a locked door (its edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LockName {
    Room(VertexId),
    Door(EdgeId),
}

impl LockName {
    /// The ASP term: `room(12)`, `door(40)`.
    pub fn term(self) -> String {
        match self {
            LockName::Room(v) => format!("room({})", v.0),
            LockName::Door(e) => format!("door({})", e.0),
        }
    }
}

/// A kind of content placed: what the analysis tables have a row for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The placed key named by its first lock (in lock order).
    Key(LockName),
    Entrance,
    Goal,
    Item(String),
}

impl Kind {
    /// The ASP term of placement.lp's `at(KIND, PLACE)`.
    pub fn term(&self) -> String {
        match self {
            Kind::Key(l) => format!("key({})", l.term()),
            Kind::Entrance => "entrance".into(),
            Kind::Goal => "goal".into(),
            Kind::Item(t) => format!("item({})", quote(t)),
        }
    }
}

/// An ASP string constant.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One content kind to place, with its statement.
#[derive(Clone, Debug)]
pub struct Content {
    pub kind: Kind,
    /// Index into `PlaceSpec::statements()`.
    pub statement: usize,
    /// The tag its content has (for `not with`).
    pub tag: String,
    /// The fewest and most places holding one.
    pub count: (u32, u32),
    /// For a key: the locks it opens (indices into `Reading::locks`).
    pub opens: Vec<usize>,
}

/// A key of the level that stays where it is (no `keys` statement).
#[derive(Clone, Debug)]
pub struct FixedKey {
    pub vertex: VertexId,
    pub place: usize,
    pub opens: Vec<usize>,
}

/// A problem as the player and the `place` block see it.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The vertex of each place, increasing.
    pub places: Vec<VertexId>,
    /// The tag of each place's vertex.
    pub place_tags: Vec<String>,
    /// Passages: edge, the places at its ends.
    pub passages: Vec<(EdgeId, usize, usize)>,
    /// Per place: (neighbour, passage index).
    pub adj: Vec<Vec<(usize, usize)>>,
    pub locks: Vec<LockName>,
    /// Per lock: the place it locks (a room) or its passage (a door).
    pub lock_at: Vec<LockAt>,
    /// Per place: the locks on it; per passage: the lock on it.
    pub place_locks: Vec<Vec<usize>>,
    pub passage_lock: Vec<Option<usize>>,
    pub entrance: Option<usize>,
    pub goals: Vec<usize>,
    pub fixed_keys: Vec<FixedKey>,
    /// Fixed content for `not with`: (place, tag) of the level's kept
    /// keys, entrance and goals.
    pub fixed_content: Vec<(usize, String)>,
    pub contents: Vec<Content>,
    pub spec: PlaceSpec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockAt {
    Room(usize),
    Door(usize),
}

fn selects(graph: &Graph, sel: &VertexSelector, v: VertexId) -> bool {
    let Some(x) = graph.vertex(v) else {
        return false;
    };
    sel.tags.iter().any(|t| t == "*" || t == graph.tag_name(v))
        && sel
            .attributes
            .iter()
            .all(|(k, want)| x.attributes.get(k) == Some(want))
}

fn top(graph: &Graph, mut v: VertexId) -> VertexId {
    while let Some(p) = graph.parent(v) {
        v = p;
    }
    v
}

impl Reading {
    /// Reads `graph` with `play` and `place`. Errors for what placement
    /// does not take: one-way passages, small keys, no or several
    /// entrances (unless placed), no goal (unless placed), a locked
    /// entrance.
    pub fn new(graph: &Graph, play: &PlaySpec, place: &PlaceSpec) -> Result<Reading, String> {
        if play.directed == Directed::OneWay
            && graph
                .edges()
                .any(|(_, e)| e.directed && !e.cosmetic && e.source != e.target)
        {
            return Err("one-way passages".into());
        }
        if play.keys.iter().any(|k| k.small) {
            return Err("small keys".into());
        }
        let key_vertex = |v: VertexId| play.keys.iter().any(|k| selects(graph, &k.key, v));
        // Placed keys: the level's own keys (and what they store) go.
        let removed = |v: VertexId| {
            place.keys.is_some() && {
                let mut at = Some(v);
                let mut hit = false;
                while let Some(u) = at {
                    hit |= key_vertex(u);
                    at = graph.parent(u);
                }
                hit
            }
        };
        let ignored = |v: VertexId| play.ignore.iter().any(|t| t == graph.tag_name(v));
        let mut places = Vec::new();
        let mut place_index: BTreeMap<VertexId, usize> = BTreeMap::new();
        for (v, x) in graph.vertices() {
            if x.parent.is_none() && !ignored(v) && !removed(v) {
                place_index.insert(v, places.len());
                places.push(v);
            }
        }
        let place_of = |v: VertexId| -> Option<usize> {
            if ignored(v) || removed(v) {
                return None;
            }
            place_index.get(&top(graph, v)).copied()
        };
        let place_tags = places
            .iter()
            .map(|&v| graph.tag_name(v).to_owned())
            .collect();

        // Locks, by statement.
        let mut locks: Vec<LockName> = Vec::new();
        let mut lock_at = Vec::new();
        let mut of_statement: Vec<Vec<usize>> = Vec::new();
        for k in &play.keys {
            let mut mine = Vec::new();
            let mut add = |name: LockName, at: LockAt| {
                let i = match locks.iter().position(|&l| l == name) {
                    Some(i) => i,
                    None => {
                        locks.push(name);
                        lock_at.push(at);
                        locks.len() - 1
                    }
                };
                mine.push(i);
            };
            match &k.opens {
                LockSpec::Room(sel) => {
                    for (v, _) in graph.vertices() {
                        if let Some(p) = place_of(v) {
                            if selects(graph, sel, v) {
                                add(LockName::Room(v), LockAt::Room(p));
                            }
                        }
                    }
                }
                LockSpec::Door(door) => {
                    for (e, edge) in graph.edges() {
                        let label = edge.label.map(|l| graph.labels().name(l));
                        let (Some(a), Some(b)) = (place_of(edge.source), place_of(edge.target))
                        else {
                            continue;
                        };
                        if a != b
                            && !edge.cosmetic
                            && edge.directed == door.directed
                            && label == Some(door.label.as_str())
                        {
                            add(LockName::Door(e), LockAt::Door(usize::MAX));
                        }
                    }
                }
                _ => return Err("an unknown kind of lock".into()),
            }
            of_statement.push(mine);
        }

        // Passages.
        let mut passages = Vec::new();
        let mut adj = vec![Vec::new(); places.len()];
        let mut passage_lock = Vec::new();
        for (e, edge) in graph.edges() {
            if edge.cosmetic {
                continue;
            }
            let (Some(a), Some(b)) = (place_of(edge.source), place_of(edge.target)) else {
                continue;
            };
            if a == b {
                continue;
            }
            let i = passages.len();
            passages.push((e, a, b));
            adj[a].push((b, i));
            adj[b].push((a, i));
            let lock = locks.iter().position(|&l| l == LockName::Door(e));
            if let Some(l) = lock {
                lock_at[l] = LockAt::Door(i);
            }
            passage_lock.push(lock);
        }
        let mut place_locks = vec![Vec::new(); places.len()];
        for (l, at) in lock_at.iter().enumerate() {
            if let LockAt::Room(p) = at {
                place_locks[*p].push(l);
            }
        }

        // Entrance and goals.
        let entrances: Vec<VertexId> = graph
            .vertex_ids()
            .filter(|&v| place_of(v).is_some() && selects(graph, &play.entrance, v))
            .collect();
        let goal_vertices: Vec<VertexId> = graph
            .vertex_ids()
            .filter(|&v| place_of(v).is_some() && selects(graph, &play.goal, v))
            .collect();
        let entrance = match (entrances.as_slice(), place.entrance.is_some()) {
            ([], true) => None,
            ([v], false) => Some(place_of(*v).unwrap()),
            ([], false) => return Err("no entrance".into()),
            (_, true) => return Err("an entrance placed twice".into()),
            (_, false) => return Err("several entrances".into()),
        };
        if let Some(e) = entrance {
            if !place_locks[e].is_empty() {
                return Err("a locked entrance".into());
            }
        }
        let goals: Vec<usize> = goal_vertices
            .iter()
            .map(|&v| place_of(v).unwrap())
            .collect();
        match (goals.is_empty(), place.goal.is_some()) {
            (true, false) => return Err("no goal".into()),
            (false, true) => return Err("a goal placed twice".into()),
            _ => {}
        }

        // The level's fixed content.
        let mut fixed_content = Vec::new();
        let mut fixed_keys = Vec::new();
        if place.keys.is_none() {
            for (v, x) in graph.vertices() {
                let Some(p) = place_of(v) else { continue };
                let Some(s) = play.keys.iter().position(|k| selects(graph, &k.key, v)) else {
                    continue;
                };
                let k = &play.keys[s];
                let opens = match &k.via {
                    None => of_statement[s].clone(),
                    Some(KeyLink::Same(attr)) => of_statement[s]
                        .iter()
                        .copied()
                        .filter(|&l| match locks[l] {
                            LockName::Room(w) => {
                                let value = graph.vertex(w).and_then(|y| y.attributes.get(attr));
                                value.is_some() && value == x.attributes.get(attr)
                            }
                            LockName::Door(_) => false,
                        })
                        .collect(),
                    Some(KeyLink::Edge(link)) => {
                        let label = |e: &levelgraph::Edge| e.label.map(|l| graph.labels().name(l));
                        let mut out: Vec<usize> = graph
                            .edges()
                            .filter(|(_, e)| {
                                e.cosmetic == link.cosmetic
                                    && e.directed == link.directed
                                    && label(e) == link.label.as_deref()
                                    && (e.source == v || (!e.directed && e.target == v))
                            })
                            .filter_map(|(_, e)| {
                                let u = e.other(v);
                                let l = locks.iter().position(|&l| l == LockName::Room(u))?;
                                of_statement[s].contains(&l).then_some(l)
                            })
                            .collect();
                        out.sort_unstable();
                        out.dedup();
                        out
                    }
                    Some(_) => return Err("an unknown key link".into()),
                };
                fixed_keys.push(FixedKey {
                    vertex: v,
                    place: p,
                    opens,
                });
                fixed_content.push((p, graph.tag_name(v).to_owned()));
            }
        }
        if let Some(e) = entrance {
            let tag = play
                .entrance
                .tags
                .first()
                .filter(|t| *t != "*")
                .cloned()
                .unwrap_or_else(|| graph.tag_name(entrances[0]).to_owned());
            fixed_content.push((e, tag));
        }
        for (&v, &p) in goal_vertices.iter().zip(&goals) {
            fixed_content.push((p, graph.tag_name(v).to_owned()));
        }

        // Content to place.
        let mut contents = Vec::new();
        for (s, (_, path, p)) in place.statements().into_iter().enumerate() {
            match path.as_str() {
                "keys" => {
                    // One key per set of locks a key opens, named by its
                    // first lock: per lock with an edge link (`via ~>`),
                    // per value with `via same`, per statement without.
                    let mut seen: Vec<Vec<usize>> = Vec::new();
                    for (l, &name) in locks.iter().enumerate() {
                        let st = of_statement.iter().position(|m| m.contains(&l)).unwrap();
                        let opens: Vec<usize> = match &play.keys[st].via {
                            Some(KeyLink::Edge(_)) => vec![l],
                            Some(KeyLink::Same(attr)) => {
                                let value_of = |l: usize| match locks[l] {
                                    LockName::Room(w) => {
                                        graph.vertex(w).and_then(|y| y.attributes.get(attr))
                                    }
                                    LockName::Door(_) => None,
                                };
                                let Some(value) = value_of(l) else {
                                    return Err(format!("a lock without `{attr}`"));
                                };
                                of_statement[st]
                                    .iter()
                                    .copied()
                                    .filter(|&m| value_of(m) == Some(value))
                                    .collect()
                            }
                            _ => of_statement[st].clone(),
                        };
                        let mut set = opens.clone();
                        set.sort_unstable();
                        if seen.contains(&set) {
                            continue;
                        }
                        seen.push(set);
                        contents.push(Content {
                            kind: Kind::Key(name),
                            statement: s,
                            tag: key_tag(play, st).ok_or("an untagged key")?.to_owned(),
                            count: (1, 1),
                            opens,
                        });
                    }
                }
                "entrance" | "goal" => {
                    let sel = if path == "entrance" {
                        &play.entrance
                    } else {
                        &play.goal
                    };
                    contents.push(Content {
                        kind: if path == "entrance" {
                            Kind::Entrance
                        } else {
                            Kind::Goal
                        },
                        statement: s,
                        tag: sel.tags[0].clone(),
                        count: (1, 1),
                        opens: Vec::new(),
                    });
                }
                _ => {
                    let tag = p.tag.clone().ok_or("an item without a tag")?;
                    contents.push(Content {
                        kind: Kind::Item(tag.clone()),
                        statement: s,
                        tag,
                        count: p.count.map_or((1, 1), |c| (c.min, c.max)),
                        opens: Vec::new(),
                    });
                }
            }
        }

        Ok(Reading {
            places,
            place_tags,
            passages,
            adj,
            locks,
            lock_at,
            place_locks,
            passage_lock,
            entrance,
            goals,
            fixed_keys,
            fixed_content,
            contents,
            spec: place.clone(),
        })
    }

    /// The statement of content `c`.
    pub fn statement(&self, c: usize) -> &Placed {
        self.spec.statements()[self.contents[c].statement].2
    }

    /// Whether `p` is a candidate of content `c` (its statement's `in`).
    pub fn candidate(&self, c: usize, p: usize) -> bool {
        let rooms = &self.statement(c).rooms;
        rooms.is_empty() || rooms.contains(&self.place_tags[p])
    }

    /// Breadth-first distances from the nearest of `sources` (every lock
    /// open, direction ignored); `None` where no walk leads.
    pub fn distances(&self, sources: &[usize]) -> Vec<Option<u32>> {
        let mut d = vec![None; self.places.len()];
        let mut queue = VecDeque::new();
        for &s in sources {
            if d[s].is_none() {
                d[s] = Some(0);
                queue.push_back(s);
            }
        }
        while let Some(p) = queue.pop_front() {
            for &(q, _) in &self.adj[p] {
                if d[q].is_none() {
                    d[q] = Some(d[p].unwrap() + 1);
                    queue.push_back(q);
                }
            }
        }
        d
    }

    /// The places a lock is measured from: the locked room, or both ends
    /// of the door.
    pub fn lock_places(&self, l: usize) -> Vec<usize> {
        match self.lock_at[l] {
            LockAt::Room(p) => vec![p],
            LockAt::Door(i) => vec![self.passages[i].1, self.passages[i].2],
        }
    }

    /// The anchor places of a distance constraint of content `c`, when the
    /// anchor is fixed; `None` when the solver places it.
    pub fn fixed_anchor(&self, c: usize, anchor: Anchor) -> Option<Vec<usize>> {
        match anchor {
            Anchor::Entrance => self.entrance.map(|e| vec![e]),
            Anchor::Goal => (!self.goals.is_empty()).then(|| self.goals.clone()),
            Anchor::Lock => {
                // The nearest of the locks the key opens.
                let locks = &self.contents[c].opens;
                (!locks.is_empty())
                    .then(|| locks.iter().flat_map(|&l| self.lock_places(l)).collect())
            }
        }
    }
}
