//! The `play` section of `mission.json` and `layout.json`: a level's
//! [`PlayReport`] — verdict, entrance, goals, which key opens which lock,
//! what each lock gates, places no play reaches, and the playthrough —
//! with vertices named by their mission-graph ids (docs/formats.md,
//! section 2.9).

use serde::{Deserialize, Serialize};

use crate::graph::Graph;
use crate::play::{Event, LockRef, PlayReport, Verdict};

/// A lock as the documents name it: a lock vertex, or a locked door by its
/// corridor's two ends (source, target).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum LockDoc {
    /// The lock vertex's id.
    Vertex(u32),
    /// The locked corridor's ends, `[source, target]`.
    Door([u32; 2]),
}

impl LockDoc {
    fn new(lock: LockRef, graph: &Graph) -> Self {
        match lock {
            LockRef::Room(v) => LockDoc::Vertex(v.0),
            LockRef::Door(e) => {
                let ends = graph.edge(e).map_or([0, 0], |x| [x.source.0, x.target.0]);
                LockDoc::Door(ends)
            }
        }
    }
}

/// A key and the locks it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyDoc {
    /// The key vertex's id.
    pub key: u32,
    /// The id of the place it lies in.
    pub room: u32,
    /// A small key: opens one of `opens` and is used up.
    #[serde(default, skip_serializing_if = "is_false")]
    pub small: bool,
    /// The locks it opens.
    pub opens: Vec<LockDoc>,
}

/// A lock, its keys and what it gates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockEntryDoc {
    /// The lock.
    pub lock: LockDoc,
    /// The id of the place it locks (a locked room).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<u32>,
    /// The ids of the keys that open it.
    pub keys: Vec<u32>,
    /// With it shut, a goal cannot be reached.
    pub gates_goal: bool,
    /// The places (besides the locked room) that cannot be reached with
    /// it shut.
    pub gates: Vec<u32>,
}

/// One event of the playthrough.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum EventDoc {
    /// The player enters a place.
    Enter {
        /// Its id.
        room: u32,
        /// The place they came from; absent for the entrance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<u32>,
    },
    /// The player picks up a key.
    PickUp {
        /// The key's id.
        key: u32,
        /// The place it lies in.
        room: u32,
    },
    /// The player opens a lock.
    Open {
        /// The lock.
        lock: LockDoc,
        /// The key used.
        key: u32,
    },
}

/// The `play` section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayDoc {
    /// `completable`, `unfinishable` or `unknown`.
    pub verdict: String,
    /// Why not, in a sentence, when the verdict is not `completable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The reason's stable code ([`crate::play::Reason::code`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// The entrance's id, when there is exactly one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrance: Option<u32>,
    /// The goals' ids.
    pub goals: Vec<u32>,
    /// Every key and the locks it opens.
    pub keys: Vec<KeyDoc>,
    /// Every lock.
    pub locks: Vec<LockEntryDoc>,
    /// Places no play reaches.
    pub unreachable: Vec<u32>,
    /// States the bounded search expanded, when the level needed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub searched: Option<u32>,
    /// A play that finishes the level, in order.
    pub playthrough: Vec<EventDoc>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl PlayDoc {
    /// The section for `report`, a report on `graph`.
    pub fn new(report: &PlayReport, graph: &Graph) -> Self {
        let lock = |l: LockRef| LockDoc::new(l, graph);
        let (verdict, reason, reason_code) = match &report.verdict {
            Verdict::Completable => ("completable", None, None),
            Verdict::Unfinishable(r) => (
                "unfinishable",
                Some(r.message(graph)),
                Some(r.code().to_owned()),
            ),
            Verdict::Unknown { .. } => ("unknown", Some(report.verdict.why(graph)), None),
        };
        PlayDoc {
            verdict: verdict.to_owned(),
            reason,
            reason_code,
            entrance: report.entrance.map(|v| v.0),
            goals: report.goals.iter().map(|v| v.0).collect(),
            keys: report
                .keys
                .iter()
                .map(|k| KeyDoc {
                    key: k.key.0,
                    room: k.room.0,
                    small: k.small,
                    opens: k.opens.iter().map(|&l| lock(l)).collect(),
                })
                .collect(),
            locks: report
                .locks
                .iter()
                .map(|l| LockEntryDoc {
                    lock: lock(l.lock),
                    room: l.room.map(|v| v.0),
                    keys: l.keys.iter().map(|v| v.0).collect(),
                    gates_goal: l.gates_goal,
                    gates: l.gates_rooms.iter().map(|v| v.0).collect(),
                })
                .collect(),
            unreachable: report.unreachable.iter().map(|v| v.0).collect(),
            searched: report.searched,
            playthrough: report
                .playthrough
                .iter()
                .map(|e| match *e {
                    Event::Enter { room, from } => EventDoc::Enter {
                        room: room.0,
                        from: from.map(|v| v.0),
                    },
                    Event::PickUp { key, room } => EventDoc::PickUp {
                        key: key.0,
                        room: room.0,
                    },
                    Event::Open { lock: l, key } => EventDoc::Open {
                        lock: lock(l),
                        key: key.0,
                    },
                })
                .collect(),
        }
    }
}
