//! The benchmark's levels and specs: seeded random lock-and-key levels
//! built with levelgraph's Graph API, the `play` block of
//! examples/default.lg, and the `place` blocks measured.

use levelgraph::grammar::place::PlaceSpec;
use levelgraph::grammar::play::PlaySpec;
use levelgraph::graph::{Graph, VertexId};

/// SplitMix64: a small seeded generator, enough for level shapes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

/// How a level is shaped.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Places in all: entrance, goal, locked rooms and rooms.
    pub places: usize,
    /// Locked rooms.
    pub locks: usize,
    /// The chance that a lock hangs off an earlier zone than the last
    /// one, off the way to the goal (a side lock).
    pub side: f64,
    /// Extra passages (closing cycles) per place.
    pub cycles: f64,
    /// Locked doors (edges labelled `locked`) instead of locked rooms.
    pub doors: bool,
    /// Key vertices in the level (a key off a room of the zone its lock
    /// hangs off, linked `key ~> lock`), for problems that do not place
    /// keys; only with locked rooms.
    pub keys: bool,
    /// No entrance and goal vertices (tagged `room` instead), for problems
    /// that place them.
    pub no_ends: bool,
}

impl Shape {
    /// A level of `places` places and `locks` locked rooms on the way to
    /// the goal, a fifth of them side locks, a passage closing a cycle per
    /// ten places.
    pub fn plain(places: usize, locks: usize) -> Shape {
        Shape {
            places,
            locks,
            side: 0.2,
            cycles: 0.1,
            doors: false,
            keys: false,
            no_ends: false,
        }
    }
}

/// A seeded random connected level: zones of rooms (each a random tree
/// plus extra passages closing cycles inside the zone) joined by locked
/// rooms. Zone 0 holds the entrance; lock `j` (1-based) leads from an
/// earlier zone (usually zone `j − 1`; a side lock from any earlier one)
/// into zone `j`; the goal hangs off a room of the last zone. So every
/// lock on the chain of zones to the goal is needed, and a side lock is
/// needed exactly when a key the goal needs lies behind it. Every zone
/// has at least one room. Edges point away from the entrance (mission
/// order), walked both ways (`directed two_way`).
pub fn generate(shape: Shape, seed: u64) -> Graph {
    let k = shape.locks;
    let lock_places = if shape.doors { 0 } else { k };
    assert!(
        shape.places >= lock_places + k + 3,
        "{} places cannot hold {k} locks",
        shape.places
    );
    let mut rng = Rng::new(seed);
    let mut g = Graph::new();
    for t in ["entrance", "room", "goal", "lock", "key", "potion", "boss"] {
        g.tags_mut().intern(t);
    }
    let locked = g.labels_mut().intern("locked");
    let (entrance_tag, goal_tag) = if shape.no_ends {
        ("room", "room")
    } else {
        ("entrance", "goal")
    };
    // Rooms per zone: one each, the rest at random.
    let rooms = shape.places - 2 - lock_places;
    let mut size = vec![1usize; k + 1];
    for _ in 0..rooms - (k + 1) {
        size[rng.below(k + 1)] += 1;
    }
    let mut zone: Vec<Vec<VertexId>> = Vec::new();
    let entrance = g.add_vertex_named(entrance_tag);
    for (z, &m) in size.iter().enumerate() {
        let mut members = Vec::new();
        if z == 0 {
            members.push(entrance);
        }
        for _ in 0..m {
            let v = g.add_vertex_named("room");
            if let Some(&parent) = members.get(rng.below(members.len().max(1))) {
                g.connect(parent, v, true);
            }
            members.push(v);
        }
        zone.push(members);
    }
    for j in 1..=k {
        let from = if j == 1 || !rng.chance(shape.side) {
            j - 1
        } else {
            rng.below(j - 1)
        };
        let a = zone[from][rng.below(zone[from].len())];
        if shape.doors {
            g.add_edge(levelgraph::Edge {
                source: a,
                target: zone[j][0],
                directed: true,
                cosmetic: false,
                label: Some(locked),
                length_factor: 1.0,
            });
            continue;
        }
        let lock = g.add_vertex_named("lock");
        g.connect(a, lock, true);
        g.connect(lock, zone[j][0], true);
        if shape.keys {
            let key = g.add_vertex_named("key");
            let b = zone[from][rng.below(zone[from].len())];
            g.connect(b, key, true);
            g.add_edge(levelgraph::Edge {
                source: key,
                target: lock,
                directed: true,
                cosmetic: true,
                label: None,
                length_factor: 1.0,
            });
        }
    }
    let goal = g.add_vertex_named(goal_tag);
    let last = &zone[k];
    g.connect(last[rng.below(last.len())], goal, true);
    // Cycles inside zones.
    let extra = (shape.places as f64 * shape.cycles).round() as usize;
    let mut tries = 0;
    let mut added = 0;
    while added < extra && tries < 100 * extra {
        tries += 1;
        let z = &zone[rng.below(zone.len())];
        if z.len() < 3 {
            continue;
        }
        let (a, b) = (z[rng.below(z.len())], z[rng.below(z.len())]);
        if a == b || g.incidences(a).iter().any(|i| i.other == b) {
            continue;
        }
        g.connect(a.min(b), a.max(b), true);
        added += 1;
    }
    g
}

/// The `play` block of examples/default.lg: `entrance entrance / goal
/// goal / key key opens lock via ~> / directed two_way`.
pub fn play_spec() -> PlaySpec {
    serde_json::from_str(
        r#"{
          "entrance": {"tags": ["entrance"]},
          "goal": {"tags": ["goal"]},
          "keys": [{"key": {"tags": ["key"]}, "opens": {"room": {"tags": ["lock"]}},
                    "via": {"edge": {"directed": true, "cosmetic": true}}}],
          "directed": "two_way"
        }"#,
    )
    .expect("a valid play block")
}

/// The measured `place` block:
///
/// ```text
/// place {
///   keys in room lock first
///   item potion count 2..4 in room not with key
///   item boss in room distance from goal 1 alone
///   every key needed          (the second variant only)
/// }
/// ```
pub fn place_spec(every_key_needed: bool) -> PlaceSpec {
    let mut spec: PlaceSpec = serde_json::from_str(
        r#"{
          "keys": {"in": ["room"], "lock_first": true},
          "items": [
            {"tag": "potion", "count": {"min": 2, "max": 4}, "in": ["room"], "not_with": ["key"]},
            {"tag": "boss", "in": ["room"], "distance": [{"from": "goal", "min": 1, "max": 1}], "alone": true}
          ]
        }"#,
    )
    .expect("a valid place block");
    spec.every_key_needed = every_key_needed;
    spec
}
