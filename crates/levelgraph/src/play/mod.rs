//! Playability: whether a level can be finished, and how.
//!
//! A grammar's `play` block ([`PlaySpec`]) says what its levels mean to
//! the player: the entrance, the goal, which vertices are keys and which
//! vertices or corridors are locks, and which key opens which lock.
//! [`check`] reads a mission graph with it and answers with a
//! [`PlayReport`]:
//!
//! - **completable**, with a **playthrough**: the places in the order they
//!   are reached, the keys as they are picked up and the locks as they
//!   are opened, up to the last goal;
//! - **unfinishable**, with a located [`Reason`] ("key 12 lies behind lock
//!   11, the lock it opens (path entrance 0 → room 5 → lock 11 → room 2 →
//!   key 12)");
//! - **unknown**, when the bounded search for small keys or one-way
//!   corridors reached its limit — never a guess;
//!
//! and, for every lock, what it gates (the goal, or places that cannot be
//! reached while it stays shut), and every place no play reaches.
//!
//! Method. With kept keys the answer is the monotone fixpoint from the
//! entrance (`fixpoint.rs`; linear in places, corridors and key–lock
//! pairs), the check that Dormans' lock-and-key missions are built to pass
//! ("Adventures in Level Design", 2010) and that Smith, Padget & Vidler
//! express as answer-set constraints (FDG 2018). Small keys (a key opens
//! one lock and is used up) and one-way corridors make the question
//! NP-hard; the fixpoint, with small keys treated as kept and every
//! corridor walkable back, still proves a level *unfinishable* when it
//! fails, and otherwise a bounded depth-first search over the player's
//! states decides (`search.rs`). So it does when the entrance is a locked
//! room: the player starts inside, but comes back in only once it is
//! open, which the fixpoint does not ask. Per-lock gating runs the
//! fixpoint once more per lock with that lock shut: time grows with places
//! × locks (benches/play.rs: about 20 ns per place × (locks + 1) from
//! 1,000 to 20,000 places).

mod explain;
mod fixpoint;
pub(crate) mod level;
mod objects;
mod rows;
mod search;

use std::fmt::Write as _;

pub use level::LockRef;
pub use objects::tile_items;

use crate::derive::Trace;
use crate::grammar::play::PlaySpec;
use crate::grammar::CompiledGrammar;
use crate::graph::{Graph, VertexId};
use fixpoint::Held;
use level::{EntranceProblem, Level};

/// One event of a playthrough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player enters `room` (a place: a top-level vertex), from the
    /// place `from` (`None` for the entrance).
    Enter {
        /// The place entered.
        room: VertexId,
        /// The place the player came from.
        from: Option<VertexId>,
    },
    /// The player picks up `key`, lying in `room`.
    PickUp {
        /// The key vertex.
        key: VertexId,
        /// The place it lies in (the key itself when it is a place).
        room: VertexId,
    },
    /// The player opens `lock` with `key`, on the way through it.
    Open {
        /// The lock.
        lock: LockRef,
        /// The key used.
        key: VertexId,
    },
}

/// Whether a level can be finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some play reaches every goal; the report's playthrough is one.
    Completable,
    /// No play reaches every goal, for this reason.
    Unfinishable(Reason),
    /// The bounded search expanded its limit of states without an answer.
    Unknown {
        /// The limit (the `play` block's `search_limit`).
        limit: u32,
    },
}

impl Verdict {
    /// Why a level is not completable, in a sentence: the reason's
    /// message, or the limit that stopped the search; empty for a
    /// completable level.
    pub fn why(&self, graph: &Graph) -> String {
        match self {
            Verdict::Completable => String::new(),
            Verdict::Unfinishable(reason) => reason.message(graph),
            Verdict::Unknown { limit } => format!(
                "the search for an order of play stopped at its limit of {limit} {} (`search_limit` in the `play` block)",
                if *limit == 1 { "state" } else { "states" }
            ),
        }
    }
}

/// A key that lies behind a lock, followed while explaining keys that wait
/// on each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The key.
    pub key: VertexId,
    /// The lock it opens.
    pub opens: LockRef,
    /// The lock it lies behind.
    pub behind: LockRef,
}

/// Why a level cannot be finished. Vertex ids are the mission graph's;
/// paths list places from the entrance.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// No vertex is the entrance.
    NoEntrance,
    /// More than one vertex is the entrance.
    SeveralEntrances(Vec<VertexId>),
    /// No vertex is the goal.
    NoGoal,
    /// No walk leads from the entrance to `room` even with every lock
    /// open (and one-way corridors walked their way).
    Disconnected {
        /// The goal, or a place holding a needed key.
        room: VertexId,
    },
    /// `room` can be reached only by walking a one-way corridor against
    /// its direction.
    AgainstOneWay {
        /// The goal, or a place holding a needed key.
        room: VertexId,
        /// The first corridor on `path` walked the wrong way.
        corridor: crate::graph::EdgeId,
        /// A walk with the fewest such corridors.
        path: Vec<VertexId>,
    },
    /// `before` lies behind a lock that no key opens.
    LockWithoutKey {
        /// The lock.
        lock: LockRef,
        /// The goal, or a place holding a needed key.
        before: VertexId,
    },
    /// The only keys of `lock` lie behind it; `path` is a shortest walk
    /// from the entrance to the first, through the lock.
    KeyBehindOwnLock {
        /// The key.
        key: VertexId,
        /// The lock it opens.
        lock: LockRef,
        /// From the entrance to the key.
        path: Vec<VertexId>,
    },
    /// Keys that lie behind each other's locks, in a cycle: each lies
    /// behind the lock the next one opens.
    KeysBehindEachOther {
        /// The cycle.
        chain: Vec<Wait>,
    },
    /// Small keys or one-way corridors: the search tried every state it
    /// can reach and none reaches every goal (small keys run out, or a
    /// one-way corridor leads away from what is still needed).
    NoOrder {
        /// States expanded.
        explored: u32,
    },
}

impl Reason {
    /// A stable machine-readable name: `no_entrance`,
    /// `several_entrances`, `no_goal`, `disconnected`, `against_one_way`,
    /// `lock_without_key`, `key_behind_own_lock`,
    /// `keys_behind_each_other` or `no_order`.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::NoEntrance => "no_entrance",
            Reason::SeveralEntrances(_) => "several_entrances",
            Reason::NoGoal => "no_goal",
            Reason::Disconnected { .. } => "disconnected",
            Reason::AgainstOneWay { .. } => "against_one_way",
            Reason::LockWithoutKey { .. } => "lock_without_key",
            Reason::KeyBehindOwnLock { .. } => "key_behind_own_lock",
            Reason::KeysBehindEachOther { .. } => "keys_behind_each_other",
            Reason::NoOrder { .. } => "no_order",
        }
    }

    /// What it is about, in a few words, for tallies: "a key behind its
    /// own lock", …
    pub fn summary(&self) -> &'static str {
        match self {
            Reason::NoEntrance => "no entrance",
            Reason::SeveralEntrances(_) => "several entrances",
            Reason::NoGoal => "no goal",
            Reason::Disconnected { .. } => "a place cut off from the entrance",
            Reason::AgainstOneWay { .. } => "a one-way corridor the wrong way",
            Reason::LockWithoutKey { .. } => "a lock without a key",
            Reason::KeyBehindOwnLock { .. } => "a key behind its own lock",
            Reason::KeysBehindEachOther { .. } => "keys behind each other's locks",
            Reason::NoOrder { .. } => "no order of play works",
        }
    }

    /// What to do about it, in a sentence, for hints.
    pub fn advice(&self) -> &'static str {
        match self {
            Reason::KeyBehindOwnLock { .. } | Reason::KeysBehindEachOther { .. } => {
                "keep every key on the entrance side of its lock: point corridors away from the entrance and hang keys off the room before the lock (docs/tutorial.md)"
            }
            Reason::LockWithoutKey { .. } => {
                "make a key with every lock, and check that a key statement of the `play` block names it (its `via` link, or a door's label and direction)"
            }
            Reason::NoEntrance | Reason::SeveralEntrances(_) => {
                "a level has one entrance: check the `play` block's `entrance` and the rules that make or retag it"
            }
            Reason::NoGoal => {
                "check the `play` block's `goal` and the rules that make or retag it"
            }
            Reason::Disconnected { .. } => {
                "join the place to the rest, or `ignore` its tag if it is not a place the player walks to"
            }
            Reason::AgainstOneWay { .. } => {
                "turn the corridor round, or say `directed two_way` if arrows are mission order, not one-way doors"
            }
            Reason::NoOrder { .. } => {
                "give small keys to spare, or make one-way corridors lead back to what is still needed"
            }
        }
    }

    /// The vertices the reason is about, the most telling first (a key
    /// before its lock): the rule that made the first is the one at fault.
    pub fn culprits(&self) -> Vec<VertexId> {
        let lock = |l: &LockRef| match l {
            LockRef::Room(v) => Some(*v),
            LockRef::Door(_) => None,
        };
        match self {
            Reason::NoEntrance | Reason::NoGoal | Reason::NoOrder { .. } => Vec::new(),
            Reason::SeveralEntrances(vs) => vs.clone(),
            Reason::Disconnected { room } | Reason::AgainstOneWay { room, .. } => vec![*room],
            Reason::LockWithoutKey { lock: l, .. } => lock(l).into_iter().collect(),
            Reason::KeyBehindOwnLock { key, lock: l, .. } => {
                std::iter::once(*key).chain(lock(l)).collect()
            }
            Reason::KeysBehindEachOther { chain } => chain
                .iter()
                .flat_map(|w| std::iter::once(w.key).chain(lock(&w.opens)))
                .collect(),
        }
    }

    /// The reason in a sentence, naming vertices by tag and id:
    /// "key 12 lies behind lock 11, the lock it opens (path entrance 0 →
    /// room 5 → lock 11 → room 2 → key 12)".
    pub fn message(&self, graph: &Graph) -> String {
        let name = |v: VertexId| vertex_name(graph, v);
        let path = |p: &[VertexId]| p.iter().map(|&v| name(v)).collect::<Vec<_>>().join(" → ");
        match self {
            Reason::NoEntrance => "no vertex is the entrance".to_owned(),
            Reason::SeveralEntrances(vs) => format!(
                "{} vertices are the entrance ({}); a level starts at one",
                vs.len(),
                vs.iter().map(|&v| name(v)).collect::<Vec<_>>().join(", ")
            ),
            Reason::NoGoal => "no vertex is the goal".to_owned(),
            Reason::Disconnected { room } => format!(
                "{} cannot be reached: no corridor leads there from the entrance",
                name(*room)
            ),
            Reason::AgainstOneWay {
                room,
                corridor,
                path: p,
            } => {
                let (a, b) = graph
                    .edge(*corridor)
                    .map_or((VertexId(0), VertexId(0)), |e| (e.source, e.target));
                format!(
                    "{} can be reached only against the one-way corridor {} → {} (path {})",
                    name(*room),
                    name(a),
                    name(b),
                    path(p)
                )
            }
            Reason::LockWithoutKey { lock, before } => format!(
                "{} lies behind {}, which no key opens",
                name(*before),
                lock_name(graph, *lock)
            ),
            Reason::KeyBehindOwnLock { key, lock, path: p } => format!(
                "{} lies behind {}, the lock it opens (path {})",
                name(*key),
                lock_name(graph, *lock),
                path(p)
            ),
            Reason::KeysBehindEachOther { chain } => {
                let mut out = "keys lie behind each other's locks:".to_owned();
                for (i, w) in chain.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    let _ = write!(
                        out,
                        "{sep}{} (for {}) lies behind {}",
                        name(w.key),
                        lock_name(graph, w.opens),
                        lock_name(graph, w.behind)
                    );
                }
                out
            }
            Reason::NoOrder { explored } => format!(
                "no order of play reaches the goal: the search tried all {explored} states it can reach (small keys run out, or a one-way corridor leads away from what is still needed)"
            ),
        }
    }
}

/// "key 12": a vertex by its tag and id.
pub fn vertex_name(graph: &Graph, v: VertexId) -> String {
    match graph.live_tag(v) {
        Some(t) => format!("{} {}", graph.tags().name(t), v.0),
        None => format!("vertex {}", v.0),
    }
}

/// "lock 11", or "the locked door 5 → 6" (`--` for a two-way one).
pub fn lock_name(graph: &Graph, lock: LockRef) -> String {
    match lock {
        LockRef::Room(v) => vertex_name(graph, v),
        LockRef::Door(e) => match graph.edge(e) {
            Some(edge) => format!(
                "the locked door {} {} {}",
                vertex_name(graph, edge.source),
                if edge.directed { "→" } else { "--" },
                vertex_name(graph, edge.target)
            ),
            None => format!("the locked door {}", e.0),
        },
    }
}

/// A key of the level and the locks it opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyReport {
    /// The key vertex.
    pub key: VertexId,
    /// The key statement of the `play` block it belongs to (an index into
    /// its `keys`).
    pub statement: usize,
    /// The place it lies in.
    pub room: VertexId,
    /// A small key: opens one of `opens` and is used up.
    pub small: bool,
    /// The locks it opens (a small key: may open), in order.
    pub opens: Vec<LockRef>,
}

/// A lock of the level: its keys and what it gates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockReport {
    /// The lock.
    pub lock: LockRef,
    /// The key statements whose `opens` names it (indices into the `play`
    /// block's `keys`).
    pub statements: Vec<usize>,
    /// The place it locks (a locked room), or `None` (a locked door).
    pub room: Option<VertexId>,
    /// The keys that open it, in id order.
    pub keys: Vec<VertexId>,
    /// With this lock shut, some goal cannot be reached that can with it
    /// open.
    pub gates_goal: bool,
    /// The places reached with it open but not while it stays shut, in id
    /// order, other than the locked room itself (for a lock whose keys all
    /// lie behind it: what it would let the player reach). Empty with
    /// `gates_goal` false: the lock gates nothing (there is a way around
    /// it).
    pub gates_rooms: Vec<VertexId>,
}

/// What [`check`] found. Gating and unreachable places are those of the
/// fixpoint (small keys counted as kept, corridors walkable back, when the
/// level has them): a place it does not reach no play reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    /// Whether the level can be finished.
    pub verdict: Verdict,
    /// The entrance vertex, when there is exactly one.
    pub entrance: Option<VertexId>,
    /// The goal vertices, in id order.
    pub goals: Vec<VertexId>,
    /// A play that finishes the level, up to the last goal (empty unless
    /// completable).
    pub playthrough: Vec<Event>,
    /// Every key, in id order.
    pub keys: Vec<KeyReport>,
    /// Every lock: lock vertices in id order, then locked doors.
    pub locks: Vec<LockReport>,
    /// Places no play reaches, in id order.
    pub unreachable: Vec<VertexId>,
    /// States the bounded search expanded, when the level needed it
    /// (small keys, one-way corridors or a locked entrance).
    pub searched: Option<u32>,
}

impl PlayReport {
    /// The level can be finished.
    pub fn is_completable(&self) -> bool {
        self.verdict == Verdict::Completable
    }

    /// The locks that gate nothing: the goal and every place can be
    /// reached with them shut.
    pub fn idle_locks(&self) -> impl Iterator<Item = &LockReport> {
        self.locks
            .iter()
            .filter(|l| !l.gates_goal && l.gates_rooms.is_empty())
    }

    /// The verdict in a sentence: "completable: 17 steps to the goal",
    /// "cannot be finished: " and the reason, or "unknown: " and the limit
    /// that stopped the search ([`Verdict::why`] without the word).
    pub fn verdict_message(&self, graph: &Graph) -> String {
        match &self.verdict {
            Verdict::Completable => {
                format!("completable: {} steps to the goal", self.playthrough.len())
            }
            Verdict::Unfinishable(_) => format!("cannot be finished: {}", self.verdict.why(graph)),
            Verdict::Unknown { .. } => format!("unknown: {}", self.verdict.why(graph)),
        }
    }
}

/// Checks whether `graph` can be finished under `spec`: the verdict, a
/// playthrough, the key–lock pairs, what each lock gates and the places no
/// play reaches.
///
/// # Complexity
/// O((P + C + K) × (L + 1)) for P places, C corridors, K key–lock pairs
/// and L locks (the fixpoint once, then once per lock for its gating);
/// with small keys or one-way corridors, the bounded search adds at most
/// `spec.search_limit()` states, each O((P + C + K) × kept keys).
pub fn check(graph: &Graph, spec: &PlaySpec) -> PlayReport {
    let level = Level::new(graph, spec);
    let mut report = PlayReport {
        verdict: Verdict::Completable,
        entrance: None,
        goals: level.goals.iter().map(|&(v, _)| v).collect(),
        playthrough: Vec::new(),
        keys: key_reports(&level),
        locks: Vec::new(),
        unreachable: Vec::new(),
        searched: None,
    };
    let start = match &level.entrance {
        Ok(p) => *p,
        Err(problem) => {
            report.verdict = Verdict::Unfinishable(match problem {
                EntranceProblem::None => Reason::NoEntrance,
                EntranceProblem::Several(vs) => Reason::SeveralEntrances(vs.clone()),
            });
            report.locks = lock_reports(&level, None);
            return report;
        }
    };
    report.entrance = Some(level.vertex(start));
    let reach = fixpoint::explore(&level, start, None, true);
    report.unreachable = (0..level.places.len())
        .filter(|&p| !reach.reached[p])
        .map(|p| level.places[p])
        .collect();
    report.locks = lock_reports(&level, Some((start, &reach)));
    if level.goals.is_empty() {
        report.verdict = Verdict::Unfinishable(Reason::NoGoal);
        return report;
    }
    if !reach.goals_reached {
        let goal = level
            .goals
            .iter()
            .map(|&(_, p)| p)
            .find(|&p| !reach.reached[p as usize])
            .expect("a goal was not reached");
        report.verdict = Verdict::Unfinishable(explain::explain(&level, start, &reach, goal));
        return report;
    }
    // The fixpoint walks back anywhere it has been; a player who starts in
    // a locked room comes back into it only once it is open.
    let locked_start = !level.place_locks[start as usize].is_empty();
    if !level.one_way && !level.small_keys && !locked_start {
        let mut events = reach.events;
        events.truncate(reach.to_goal);
        report.playthrough = events;
        return report;
    }
    let limit = spec.search_limit();
    let (outcome, expanded) = search::search(&level, start, limit);
    report.searched = Some(expanded);
    match outcome {
        search::Outcome::Found(events) => report.playthrough = events,
        search::Outcome::Exhausted => {
            report.verdict = Verdict::Unfinishable(Reason::NoOrder { explored: expanded });
        }
        search::Outcome::Limit => report.verdict = Verdict::Unknown { limit },
    }
    report
}

/// [`check`] with the grammar's `play` block; `None` when it has none.
pub fn check_level(grammar: &CompiledGrammar, graph: &Graph) -> Option<PlayReport> {
    grammar.play().map(|spec| check(graph, spec))
}

fn key_reports(level: &Level) -> Vec<KeyReport> {
    (0..level.keys.len() as u32)
        .map(|k| {
            let key = &level.keys[k as usize];
            KeyReport {
                key: key.vertex,
                statement: key.statement as usize,
                room: level.vertex(key.place),
                small: key.small,
                opens: level
                    .opens(k)
                    .iter()
                    .map(|&l| level.locks[l as usize].what)
                    .collect(),
            }
        })
        .collect()
}

/// Every lock with its keys, and with a fixpoint `base` from `start`,
/// what it gates.
fn lock_reports(level: &Level, base: Option<(u32, &fixpoint::Reach)>) -> Vec<LockReport> {
    (0..level.locks.len() as u32)
        .map(|l| {
            let lock = &level.locks[l as usize];
            // What it gates: what is reached with it open but not with it
            // shut. A lock no key reached opens (its key lies behind it) is
            // shut in `base` already, and is held open to see behind it.
            let (gates_goal, gates_rooms) = match base {
                Some((start, reach)) => {
                    let other;
                    let (open, shut) = if reach.opener[l as usize].is_some() {
                        other = fixpoint::explore(level, start, Some(Held::Shut(l)), false);
                        (reach, &other)
                    } else {
                        other = fixpoint::explore(level, start, Some(Held::Open(l)), false);
                        (&other, reach)
                    };
                    let own = lock.place.map(|p| p as usize);
                    let rooms = (0..level.places.len())
                        .filter(|&p| open.reached[p] && !shut.reached[p] && Some(p) != own)
                        .map(|p| level.places[p])
                        .collect();
                    (open.goals_reached && !shut.goals_reached, rooms)
                }
                None => (false, Vec::new()),
            };
            LockReport {
                lock: lock.what,
                statements: lock.statements.iter().map(|&s| s as usize).collect(),
                room: lock.place.map(|p| level.vertex(p)),
                keys: level
                    .keys_of(l)
                    .iter()
                    .map(|&k| level.keys[k as usize].vertex)
                    .collect(),
                gates_goal,
                gates_rooms,
            }
        })
        .collect()
}

/// The rule that made `v` what it is: the last application in `trace`
/// that created it or gave it a tag; `None` for a vertex of the start
/// host that no rule touched.
pub fn maker<'t>(grammar: &CompiledGrammar, trace: &'t Trace, v: VertexId) -> Option<&'t str> {
    let rules = grammar.rules();
    let mut found = None;
    for a in trace {
        if a.created.contains(&v) {
            found = Some(a.rule.as_str());
            continue;
        }
        let Some(pos) = a.matched.iter().position(|&m| m == v) else {
            continue;
        };
        let retagged = rules
            .iter()
            .find(|r| r.name == *a.rule)
            .and_then(|r| r.alternatives.get(a.alternative))
            .is_some_and(|alt| alt.retag.get(pos).is_some_and(Option::is_some));
        if retagged {
            found = Some(a.rule.as_str());
        }
    }
    found
}
