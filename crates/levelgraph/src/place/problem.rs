//! A placement problem: one level read with the `play` block, the content
//! the `place` block asks for, where each piece may go, and the distances
//! its constraints measure.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use super::{PlaceError, Rule};
use crate::grammar::place::{key_tag, Anchor, PlaceSpec, Placed};
use crate::grammar::play::{KeyLink, LinkEdge, PlaySpec, VertexSelector};
use crate::graph::{Graph, VertexId};
use crate::play::level::{EntranceProblem, Level};
use crate::play::LockRef;

/// What a piece of content is to the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentKind {
    /// A kept key that opens these locks (indices into [`Problem::locks`]).
    Key {
        /// The locks it opens.
        opens: Vec<u32>,
    },
    /// The entrance: the player starts in its place.
    Entrance,
    /// The goal: the player must reach its place.
    Goal,
    /// Other content (a potion, a boss, a map).
    Item,
}

/// One kind of content to place: a key, the entrance, the goal or an item
/// tag. It is placed in between `count.0` and `count.1` places, at most
/// one per place.
#[derive(Clone, Debug)]
pub struct Content {
    /// Its name in messages and tables: `key of lock 7`, `potion`.
    pub name: String,
    /// The tag of the vertex placed.
    pub tag: String,
    /// Attributes of the vertex placed (the key selector's, and the
    /// lock's value of a `via same` attribute).
    pub attributes: BTreeMap<String, String>,
    /// What it is.
    pub kind: ContentKind,
    /// The `place` statement it comes from (index into
    /// [`PlaceSpec::statements`]).
    pub statement: usize,
    /// The fewest and most places that hold one.
    pub count: (u32, u32),
    /// The places its statement's `in` allows, increasing.
    pub candidates: Vec<u32>,
    /// A cosmetic link edge from a placed key to each lock vertex it
    /// opens (`via ~>`).
    pub link: Option<LinkEdge>,
}

/// Content the level already holds, which the solver does not move: the
/// keys (when `keys` is not placed), the entrance and the goals.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// Its tag.
    pub tag: String,
    /// The place it lies in.
    pub place: u32,
    /// For a key: the locks it opens.
    pub opens: Option<Vec<u32>>,
}

/// A placement problem on one level.
///
/// Built by [`Problem::new`] from the mission graph, the `play` block and
/// the `place` block: the graph with the keys the solver re-places taken
/// out, its places and passages (the playability checker's reading), the
/// content to place, the content fixed in the level, and the distances in
/// passages from every anchor a constraint names.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The mission graph the content goes into (the keys the solver places
    /// taken out).
    pub graph: Graph,
    pub(crate) level: Level,
    /// The place spec.
    pub spec: PlaceSpec,
    /// The content to place, in statement order (keys by their first
    /// lock).
    pub contents: Vec<Content>,
    /// Content the level holds already.
    pub fixed: Vec<Fixed>,
    /// The level's locks, as the checker reads them.
    pub locks: Vec<LockRef>,
    /// Per place: its neighbours by passages (both ways, sorted).
    pub(crate) neighbours: Vec<Vec<u32>>,
    /// The fixed entrance's place, if the level has one.
    pub entrance: Option<u32>,
    /// The fixed goals' places.
    pub goals: Vec<u32>,
    /// The constraints, each a rule the solver can drop to explain a
    /// conflict.
    pub rules: Vec<Rule>,
}

/// A distance no walk achieves.
pub(crate) const FAR: u32 = u32::MAX;

/// What [`Problem::locks_before`] gives a place no walk reaches.
pub const UNREACHABLE: u32 = FAR;

impl Problem {
    /// Reads `graph` with `play` and lists what `place` asks for.
    ///
    /// # Errors
    /// [`PlaceError::Unsupported`] when the level has small keys, one-way
    /// passages or a locked entrance (the encoding is exact for kept keys
    /// and two-way passages only), when the `place` block places an
    /// entrance or goal the level already has or the level lacks one it
    /// does not place, when a lock that a `via same` key names lacks
    /// the attribute, or when a key placed for one `play` key statement
    /// would be read as a key of an earlier one (`key key opens lock via
    /// ~>` then `key key opens -[locked]-`: every `key` vertex belongs to
    /// the first, so a door key would open nothing).
    pub fn new(graph: &Graph, play: &PlaySpec, place: &PlaceSpec) -> Result<Problem, PlaceError> {
        let mut graph = graph.clone();
        if place.keys.is_some() {
            remove_keys(&mut graph, play);
        }
        remove_placed(&mut graph, play, place);
        let level = Level::new(&graph, play);
        check_supported(&graph, &level, place)?;
        let neighbours = neighbours(&level);
        let entrance = level.entrance.as_ref().ok().copied();
        let goals: Vec<u32> = level.goals.iter().map(|&(_, p)| p).collect();
        let locks: Vec<LockRef> = level.locks.iter().map(|l| l.what).collect();
        let mut problem = Problem {
            graph,
            level,
            spec: place.clone(),
            contents: Vec::new(),
            fixed: Vec::new(),
            locks,
            neighbours,
            entrance,
            goals,
            rules: Vec::new(),
        };
        problem.list_fixed(play, place);
        problem.list_contents(play, place)?;
        problem.rules = super::rules::list(&problem);
        let estimated = super::encode::estimated_variables(&problem);
        if estimated > super::MAX_VARIABLES {
            return Err(PlaceError::TooLarge {
                estimated,
                limit: super::MAX_VARIABLES,
            });
        }
        Ok(problem)
    }

    /// The number of places.
    pub fn place_count(&self) -> usize {
        self.level.places.len()
    }

    /// The vertex of place `p`.
    pub fn place_vertex(&self, p: u32) -> VertexId {
        self.level.places[p as usize]
    }

    /// Where lock `l` is: the locked room's place, or both ends of a
    /// locked door.
    pub(crate) fn lock_places(&self, l: u32) -> Vec<u32> {
        let lock = &self.level.locks[l as usize];
        match lock.place {
            Some(p) => vec![p],
            None => {
                let LockRef::Door(e) = lock.what else {
                    return Vec::new();
                };
                let p = self
                    .level
                    .passages
                    .iter()
                    .position(|x| x.edge == e)
                    .expect("a door is a passage");
                self.passage_ends(p as u32).to_vec()
            }
        }
    }

    /// The two places a passage joins.
    pub(crate) fn passage_ends(&self, passage: u32) -> [u32; 2] {
        let edge = self.level.passages[passage as usize].edge;
        let e = self.graph.edge(edge).expect("passages are live edges");
        let place = |v: VertexId| {
            self.level
                .places
                .binary_search(&top(&self.graph, v))
                .expect("passage ends have places") as u32
        };
        [place(e.source), place(e.target)]
    }

    /// Distances in passages from the nearest of `sources` to every place
    /// ([`FAR`] where no walk leads), every lock open, direction ignored.
    pub(crate) fn distances_from(&self, sources: &[u32]) -> Vec<u32> {
        let mut d = vec![FAR; self.place_count()];
        let mut queue = VecDeque::new();
        for &s in sources {
            if d[s as usize] != 0 {
                d[s as usize] = 0;
                queue.push_back(s);
            }
        }
        while let Some(p) = queue.pop_front() {
            for &q in &self.neighbours[p as usize] {
                if d[q as usize] == FAR {
                    d[q as usize] = d[p as usize] + 1;
                    queue.push_back(q);
                }
            }
        }
        d
    }

    /// Per place, the fewest locks a walk from the fixed entrance passes to
    /// reach it (a locked door, and the locks of a locked room entered,
    /// count one each; [`UNREACHABLE`] where no walk leads); `None` when the
    /// entrance is placed by the solver. A place at 2 or more is never
    /// reached before the second lock is opened.
    pub fn locks_before(&self) -> Option<Vec<u32>> {
        let start = self.entrance?;
        let n = self.place_count();
        let mut d = vec![FAR; n];
        let mut heap = BinaryHeap::new();
        d[start as usize] = 0;
        heap.push(Reverse((0u32, start)));
        // Dijkstra: a step costs the locks it passes (0, 1 or more).
        while let Some(Reverse((dp, p))) = heap.pop() {
            if dp > d[p as usize] {
                continue;
            }
            let level = &self.level;
            for step in &level.out[p as usize] {
                let q = step.to;
                let via = dp + level.locks_on(step.passage, q).count() as u32;
                if via < d[q as usize] {
                    d[q as usize] = via;
                    heap.push(Reverse((via, q)));
                }
            }
        }
        Some(d)
    }

    /// Lock `l`'s own depth given [`Problem::locks_before`]: the locks a
    /// walk passes up to and through it (a locked room's own count, one
    /// more than the nearer end of a locked door).
    pub fn lock_depth(&self, l: u32, locks_before: &[u32]) -> u32 {
        let lock = &self.level.locks[l as usize];
        let ends = self.lock_places(l);
        let nearest = ends
            .iter()
            .map(|&p| locks_before[p as usize])
            .min()
            .unwrap_or(FAR);
        match lock.place {
            Some(_) => nearest,
            None => nearest.saturating_add(1),
        }
    }

    /// The distances a constraint `distance from ANCHOR` of content `c`
    /// measures, when its anchor is fixed: from the entrance, the nearest
    /// goal, or the nearest lock the key opens; `None` when the anchor is
    /// placed by the solver too.
    pub(crate) fn anchor_distances(&self, c: usize, anchor: Anchor) -> Option<Vec<u32>> {
        match anchor {
            Anchor::Entrance => self.entrance.map(|e| self.distances_from(&[e])),
            Anchor::Goal => (!self.goals.is_empty()).then(|| self.distances_from(&self.goals)),
            Anchor::Lock => {
                let ContentKind::Key { opens } = &self.contents[c].kind else {
                    return None;
                };
                let sources: Vec<u32> = opens.iter().flat_map(|&l| self.lock_places(l)).collect();
                Some(self.distances_from(&sources))
            }
        }
    }

    fn list_fixed(&mut self, play: &PlaySpec, place: &PlaceSpec) {
        if place.keys.is_none() {
            for (k, key) in self.level.keys.iter().enumerate() {
                self.fixed.push(Fixed {
                    tag: self.graph.tag_name(key.vertex).to_owned(),
                    place: key.place,
                    opens: Some(self.level.opens(k as u32).to_vec()),
                });
            }
        }
        if let Ok(e) = self.level.entrance {
            let v = self.level.places[e as usize];
            let tag = play
                .entrance
                .tags
                .first()
                .filter(|t| *t != "*")
                .cloned()
                .unwrap_or_else(|| self.graph.tag_name(v).to_owned());
            self.fixed.push(Fixed {
                tag,
                place: e,
                opens: None,
            });
        }
        for &(v, p) in &self.level.goals {
            self.fixed.push(Fixed {
                tag: self.graph.tag_name(v).to_owned(),
                place: p,
                opens: None,
            });
        }
    }

    fn list_contents(&mut self, play: &PlaySpec, place: &PlaceSpec) -> Result<(), PlaceError> {
        for (s, (_, path, p)) in place.statements().into_iter().enumerate() {
            let candidates = self.candidates(p);
            match path.as_str() {
                "keys" => self.list_keys(play, s, &candidates)?,
                "entrance" | "goal" => {
                    let (sel, kind) = if path == "entrance" {
                        (&play.entrance, ContentKind::Entrance)
                    } else {
                        (&play.goal, ContentKind::Goal)
                    };
                    self.contents.push(Content {
                        name: path.clone(),
                        tag: sel.tags[0].clone(),
                        attributes: sel.attributes.clone(),
                        kind,
                        statement: s,
                        count: (1, 1),
                        candidates,
                        link: None,
                    });
                }
                _ => {
                    let tag = p.tag.clone().unwrap_or_default();
                    let count = p.count.map_or((1, 1), |c| (c.min, c.max));
                    self.contents.push(Content {
                        name: tag.clone(),
                        tag,
                        attributes: BTreeMap::new(),
                        kind: ContentKind::Item,
                        statement: s,
                        count,
                        candidates,
                        link: None,
                    });
                }
            }
        }
        Ok(())
    }

    /// One key per distinct set of locks a key opens: per lock for a
    /// cosmetic link, per attribute value for `via same`, per statement
    /// without `via`.
    fn list_keys(
        &mut self,
        play: &PlaySpec,
        s: usize,
        candidates: &[u32],
    ) -> Result<(), PlaceError> {
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for (l, lock) in self.level.locks.iter().enumerate() {
            let statement = lock.statements[0] as usize;
            let spec = &play.keys[statement];
            let mut attributes = spec.key.attributes.clone();
            let (opens, link) = match &spec.via {
                Some(KeyLink::Edge(link)) => (vec![l as u32], Some(link.clone())),
                Some(KeyLink::Same(attr)) => {
                    let value = match lock.what {
                        LockRef::Room(v) => self
                            .graph
                            .vertex(v)
                            .and_then(|x| x.attributes.get(attr))
                            .cloned(),
                        LockRef::Door(_) => None,
                    };
                    let Some(value) = value else {
                        return Err(PlaceError::Unsupported(format!(
                            "{} has no `{attr}`, so no key can name it (`via same {attr}` in the `play` block)",
                            crate::play::lock_name(&self.graph, lock.what)
                        )));
                    };
                    let opens = self
                        .level
                        .locks
                        .iter()
                        .enumerate()
                        .filter(|(_, other)| {
                            other.statements.contains(&(statement as u32))
                                && matches!(other.what, LockRef::Room(w)
                                    if self.graph.vertex(w).and_then(|x| x.attributes.get(attr)) == Some(&value))
                        })
                        .map(|(i, _)| i as u32)
                        .collect();
                    attributes.insert(attr.clone(), value);
                    (opens, None)
                }
                None => (
                    self.level
                        .locks
                        .iter()
                        .enumerate()
                        .filter(|(_, other)| other.statements.contains(&(statement as u32)))
                        .map(|(i, _)| i as u32)
                        .collect(),
                    None,
                ),
            };
            if seen.contains(&opens) {
                continue;
            }
            seen.push(opens.clone());
            let tag = key_tag(play, statement)
                .expect("`check` refuses untagged placed keys")
                .to_owned();
            // The checker gives a key vertex to the first statement whose
            // selector it matches: a key placed for a later statement that
            // an earlier one claims would open nothing of its own.
            if let Some(first) = play.keys[..statement]
                .iter()
                .position(|k| selects(&k.key, &tag, &attributes))
            {
                return Err(PlaceError::Unsupported(format!(
                    "a key placed for {} would belong to the `play` block's key statement {} (which names `{tag}` first), not to its own statement {}, and open nothing; give each key statement's keys their own tag",
                    crate::play::lock_name(&self.graph, lock.what),
                    first + 1,
                    statement + 1
                )));
            }
            self.contents.push(Content {
                name: format!("key of {}", crate::play::lock_name(&self.graph, lock.what)),
                tag,
                attributes,
                kind: ContentKind::Key { opens },
                statement: s,
                count: (1, 1),
                candidates: candidates.to_vec(),
                link,
            });
        }
        Ok(())
    }

    /// The places whose tag `in` allows (every place without `in`).
    fn candidates(&self, p: &Placed) -> Vec<u32> {
        (0..self.place_count() as u32)
            .filter(|&q| {
                p.rooms.is_empty()
                    || p.rooms
                        .iter()
                        .any(|t| t == self.graph.tag_name(self.level.places[q as usize]))
            })
            .collect()
    }
}

/// The top-level ancestor of `v`.
fn top(graph: &Graph, mut v: VertexId) -> VertexId {
    while let Some(p) = graph.parent(v) {
        v = p;
    }
    v
}

/// Whether `sel` matches a vertex tagged `tag` with `attributes`.
fn selects(sel: &VertexSelector, tag: &str, attributes: &BTreeMap<String, String>) -> bool {
    sel.tags.iter().any(|t| t == "*" || t == tag)
        && sel
            .attributes
            .iter()
            .all(|(k, want)| attributes.get(k) == Some(want))
}

/// Takes out every vertex a `play` key statement's key selector matches,
/// with what is stored in it: the solver places keys anew.
fn remove_keys(graph: &mut Graph, play: &PlaySpec) {
    let matches = |sel: &VertexSelector, graph: &Graph, v: VertexId| {
        let x = graph.vertex(v).expect("live");
        sel.tags.iter().any(|t| t == "*" || t == graph.tag_name(v))
            && sel
                .attributes
                .iter()
                .all(|(k, want)| x.attributes.get(k) == Some(want))
    };
    let keys: Vec<VertexId> = graph
        .vertex_ids()
        .filter(|&v| play.keys.iter().any(|k| matches(&k.key, graph, v)))
        .collect();
    for v in keys {
        graph.remove_vertex(v);
    }
}

/// Takes out the stored vertices that an earlier placement put in rooms:
/// those tagged as an item of the block, or as the entrance or goal the
/// block places. So a level written by `generate` (or `place`) can be
/// given again and gets its content placed anew, not twice.
fn remove_placed(graph: &mut Graph, play: &PlaySpec, place: &PlaceSpec) {
    let mut tags: Vec<&str> = place
        .items
        .iter()
        .filter_map(|i| i.tag.as_deref())
        .collect();
    if place.entrance.is_some() {
        tags.extend(play.entrance.tags.first().map(String::as_str));
    }
    if place.goal.is_some() {
        tags.extend(play.goal.tags.first().map(String::as_str));
    }
    let stale: Vec<VertexId> = graph
        .vertex_ids()
        .filter(|&v| graph.parent(v).is_some() && tags.contains(&graph.tag_name(v)))
        .collect();
    for v in stale {
        graph.remove_vertex(v);
    }
}

/// Refuses levels the encoding cannot decide exactly, and entrances and
/// goals placed twice or not at all.
fn check_supported(graph: &Graph, level: &Level, place: &PlaceSpec) -> Result<(), PlaceError> {
    let refuse = |s: String| Err(PlaceError::Unsupported(s));
    if level.small_keys {
        return refuse("the level has small keys; placement keeps kept keys only".into());
    }
    if level.one_way {
        return refuse(
            "the level has one-way corridors; placement needs corridors walked both ways (`directed two_way` in the `play` block)".into(),
        );
    }
    match (&level.entrance, place.entrance.is_some()) {
        (Ok(e), true) => {
            return refuse(format!(
                "the level has an entrance already ({}); `entrance` in the `place` block is for levels whose grammar makes none",
                crate::play::vertex_name(graph, level.places[*e as usize])
            ))
        }
        (Err(EntranceProblem::None), false) => {
            return refuse("the level has no entrance; place one with `entrance` in the `place` block".into())
        }
        (Err(EntranceProblem::Several(v)), _) => {
            return refuse(format!("the level has {} entrances; a level starts at one", v.len()))
        }
        (Ok(e), false) if !level.place_locks[*e as usize].is_empty() => {
            return refuse("the level's entrance is a locked room; placement needs the player to start outside every lock".into())
        }
        _ => {}
    }
    match (level.goals.is_empty(), place.goal.is_some()) {
        (false, true) => refuse(format!(
            "the level has a goal already ({}); `goal` in the `place` block is for levels whose grammar makes none",
            crate::play::vertex_name(graph, level.goals[0].0)
        )),
        (true, false) => refuse("the level has no goal; place one with `goal` in the `place` block".into()),
        _ => Ok(()),
    }
}

/// Per place, its neighbours through passages, sorted and without repeats.
fn neighbours(level: &Level) -> Vec<Vec<u32>> {
    let n = level.places.len();
    let mut out = vec![Vec::new(); n];
    for (p, row) in out.iter_mut().enumerate() {
        row.extend(
            level.out[p]
                .iter()
                .chain(&level.into[p])
                .map(|step| step.to),
        );
        row.sort_unstable();
        row.dedup();
    }
    out
}
