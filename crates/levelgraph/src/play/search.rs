//! The bounded search for levels with small keys or one-way corridors,
//! where the player's choices matter: which lock a small key is spent on,
//! and which one-way corridor to take (there is no coming back).
//!
//! Deciding such levels is NP-hard in general (one-way corridors and keys
//! that open several locks encode satisfiability; so do small keys, as in
//! Viglietta's "Gaming is a hard job, but someone has to do it!", 2014),
//! so this is a depth-first search over the player's states with a limit
//! on the states it expands; when the limit stops it the answer is
//! *unknown*, never a guess.
//!
//! A state is where the player stands, the keys held and spent, the locks
//! opened by small keys and the goals reached. Every state is first
//! *closed*: the player walks everywhere they can come back from (the
//! strongly connected part of what is open around them), picks up every
//! key there and opens what kept keys open, until nothing changes — moves
//! that lose nothing. Then the choices branch: spend a small key on a lock
//! next to that part (one try per kind of key: keys that open the same
//! locks are interchangeable), or take a corridor out of it that does not
//! lead back. States already seen (after closing, with the position taken
//! as the part's first place) are not expanded again.

use std::collections::HashSet;

use super::level::Level;
use super::Event;

/// How the search ended.
#[derive(Clone, Debug)]
pub(crate) enum Outcome {
    /// A play that reaches every goal: its events.
    Found(Vec<Event>),
    /// Every state was expanded and none reaches the goals.
    Exhausted,
    /// The limit on expanded states stopped it.
    Limit,
}

/// A set of small indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn get(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    /// Where the player stands (after closing: the first place of the part
    /// they can walk around in).
    pos: u32,
    held: Bits,
    spent: Bits,
    /// Locks opened by a small key.
    opened: Bits,
    /// Goals reached (indices into `Level::goals`).
    goals: Bits,
}

/// A choice that leads from one state to the next.
#[derive(Clone, Copy, Debug)]
enum Action {
    Start,
    /// Spend small key `key` on lock `lock`.
    Open {
        lock: u32,
        key: u32,
    },
    /// Take the one-way step `passage` from place `from` to place `to`.
    Move {
        from: u32,
        passage: u32,
        to: u32,
    },
}

struct Node {
    parent: Option<usize>,
    action: Action,
}

/// Searches for a play from `start` that reaches every goal, expanding at
/// most `limit` states; returns the outcome and the states expanded.
pub(crate) fn search(level: &Level, start: u32, limit: u32) -> (Outcome, u32) {
    let mut nodes = vec![Node {
        parent: None,
        action: Action::Start,
    }];
    let initial = State {
        pos: start,
        held: Bits::new(level.keys.len()),
        spent: Bits::new(level.keys.len()),
        opened: Bits::new(level.locks.len()),
        goals: Bits::new(level.goals.len()),
    };
    let mut stack = vec![(initial, 0usize)];
    let mut seen: HashSet<State> = HashSet::new();
    let mut expanded = 0u32;
    while let Some((state, node)) = stack.pop() {
        let (state, part) = close(level, state, None);
        if !seen.insert(state.clone()) {
            continue;
        }
        if (0..level.goals.len() as u32).all(|g| state.goals.get(g)) {
            return (Outcome::Found(replay(level, start, &nodes, node)), expanded);
        }
        if expanded == limit {
            return (Outcome::Limit, expanded);
        }
        expanded += 1;
        let mut children = Vec::new();
        let open = open_locks(level, &state);
        let mut in_part = vec![false; level.places.len()];
        for &p in &part {
            in_part[p as usize] = true;
        }
        // Small keys spent on locks next to the part.
        let mut tried_locks = Vec::new();
        for &p in &part {
            for s in &level.out[p as usize] {
                for l in level.locks_on(s.passage, s.to) {
                    if open[l as usize] || tried_locks.contains(&l) {
                        continue;
                    }
                    tried_locks.push(l);
                    let mut kinds: Vec<&[u32]> = Vec::new();
                    for (k, key) in level.keys.iter().enumerate() {
                        let k = k as u32;
                        if !key.small || !state.held.get(k) || state.spent.get(k) {
                            continue;
                        }
                        let opens = level.opens(k);
                        if !opens.contains(&l) || kinds.contains(&opens) {
                            continue;
                        }
                        kinds.push(opens);
                        let mut next = state.clone();
                        next.opened.set(l);
                        next.spent.set(k);
                        children.push((next, Action::Open { lock: l, key: k }));
                    }
                }
            }
        }
        // One-way steps out of the part.
        let mut targets = Vec::new();
        for &p in &part {
            for s in &level.out[p as usize] {
                let passable = level.locks_on(s.passage, s.to).all(|l| open[l as usize]);
                if passable && !in_part[s.to as usize] && !targets.contains(&s.to) {
                    targets.push(s.to);
                    let mut next = state.clone();
                    next.pos = s.to;
                    children.push((
                        next,
                        Action::Move {
                            from: p,
                            passage: s.passage,
                            to: s.to,
                        },
                    ));
                }
            }
        }
        // Depth first, the first choice first.
        for (next, action) in children.into_iter().rev() {
            nodes.push(Node {
                parent: Some(node),
                action,
            });
            stack.push((next, nodes.len() - 1));
        }
    }
    (Outcome::Exhausted, expanded)
}

/// Per lock: open in `state` (a small key was spent on it, or a held kept
/// key opens it).
fn open_locks(level: &Level, state: &State) -> Vec<bool> {
    let mut open = vec![false; level.locks.len()];
    for (l, o) in open.iter_mut().enumerate() {
        *o = state.opened.get(l as u32);
    }
    for (k, key) in level.keys.iter().enumerate() {
        if !key.small && state.held.get(k as u32) {
            for &l in level.opens(k as u32) {
                open[l as usize] = true;
            }
        }
    }
    open
}

/// What the playthrough records while a path is replayed: the player's
/// walk, step by step.
struct Recorder {
    /// Where the player stands.
    at: u32,
    visited: Vec<bool>,
    passed: Vec<bool>,
    /// Per lock: the small key spent on it.
    spent_on: Vec<Option<u32>>,
    events: Vec<Event>,
    /// Goals not yet entered.
    goals_left: usize,
    /// How many of `events` lead up to the last goal, once it is entered.
    to_goal: Option<usize>,
}

impl Recorder {
    /// Records passing the locks of a step through `passage` into `to`.
    fn pass(&mut self, level: &Level, state: &State, passage: u32, to: u32) {
        for l in level.locks_on(passage, to) {
            if std::mem::replace(&mut self.passed[l as usize], true) {
                continue;
            }
            let key = self.spent_on[l as usize].or_else(|| {
                (0..level.keys.len() as u32).find(|&k| {
                    !level.keys[k as usize].small
                        && state.held.get(k)
                        && level.opens(k).contains(&l)
                })
            });
            if let Some(k) = key {
                self.events.push(Event::Open {
                    lock: level.locks[l as usize].what,
                    key: level.keys[k as usize].vertex,
                });
            }
        }
    }

    /// Walks from where the player stands to `to` along a shortest walk
    /// through `open` locks, recording each step.
    fn walk(&mut self, level: &Level, state: &State, open: &[bool], to: u32) {
        let n = level.places.len();
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[self.at as usize] = true;
        let mut queue = std::collections::VecDeque::from([self.at]);
        while let Some(p) = queue.pop_front() {
            if p == to {
                break;
            }
            for s in &level.out[p as usize] {
                let passable = level.locks_on(s.passage, s.to).all(|l| open[l as usize]);
                if !seen[s.to as usize] && passable {
                    seen[s.to as usize] = true;
                    parent[s.to as usize] = Some((p, s.passage));
                    queue.push_back(s.to);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = to;
        while let Some((from, passage)) = parent[at as usize] {
            steps.push((from, passage, at));
            at = from;
        }
        for &(from, passage, to) in steps.iter().rev() {
            self.step(level, state, from, passage, to);
        }
    }

    /// Records a step from `from` through `passage` into `to`.
    fn step(&mut self, level: &Level, state: &State, from: u32, passage: u32, to: u32) {
        self.pass(level, state, passage, to);
        self.enter(level, to, Some(from));
    }

    /// Records entering `p` (the first time) and picking up its keys.
    fn enter(&mut self, level: &Level, p: u32, from: Option<u32>) {
        self.at = p;
        if std::mem::replace(&mut self.visited[p as usize], true) {
            return;
        }
        self.events.push(Event::Enter {
            room: level.vertex(p),
            from: from.map(|f| level.vertex(f)),
        });
        for &k in &level.keys_at[p as usize] {
            self.events.push(Event::PickUp {
                key: level.keys[k as usize].vertex,
                room: level.vertex(p),
            });
        }
        self.goals_left -= level.goals.iter().filter(|&&(_, gp)| gp == p).count();
        if self.goals_left == 0 && self.to_goal.is_none() {
            self.to_goal = Some(self.events.len());
        }
    }
}

/// Closes `state` (see the module docs): returns it with the position
/// taken as the part's first place, and the part's places in the order
/// they were reached. With a recorder, records a walk through the part's
/// places, starting where the recorder's player stands (in the part).
fn close(level: &Level, mut state: State, mut rec: Option<&mut Recorder>) -> (State, Vec<u32>) {
    loop {
        let open = open_locks(level, &state);
        let passable =
            |passage: u32, to: u32| level.locks_on(passage, to).all(|l| open[l as usize]);
        // Forward.
        let n = level.places.len();
        let mut fwd = vec![false; n];
        let mut order = vec![state.pos];
        fwd[state.pos as usize] = true;
        let mut i = 0;
        while i < order.len() {
            let p = order[i];
            i += 1;
            for s in &level.out[p as usize] {
                if !fwd[s.to as usize] && passable(s.passage, s.to) {
                    fwd[s.to as usize] = true;
                    order.push(s.to);
                }
            }
        }
        // Backward: who can walk to the position.
        let mut bwd = vec![false; n];
        let mut stack = vec![state.pos];
        bwd[state.pos as usize] = true;
        while let Some(p) = stack.pop() {
            for s in &level.into[p as usize] {
                if !bwd[s.to as usize] && passable(s.passage, p) {
                    bwd[s.to as usize] = true;
                    stack.push(s.to);
                }
            }
        }
        let part: Vec<u32> = order.into_iter().filter(|&p| bwd[p as usize]).collect();
        // Record this round's walk before picking up its keys: a lock a
        // key of this round opens is passed (and recorded) next round,
        // after the key's pick-up.
        if let Some(rec) = rec.as_deref_mut() {
            for &p in &part {
                if !rec.visited[p as usize] {
                    rec.walk(level, &state, &open, p);
                }
            }
        }
        let mut changed = false;
        for &p in &part {
            for &k in &level.keys_at[p as usize] {
                if !state.held.get(k) {
                    state.held.set(k);
                    changed |= !level.keys[k as usize].small;
                }
            }
            for (g, &(_, gp)) in level.goals.iter().enumerate() {
                if gp == p {
                    state.goals.set(g as u32);
                }
            }
        }
        if changed {
            continue;
        }
        state.pos = part.iter().copied().min().unwrap_or(state.pos);
        return (state, part);
    }
}

/// The events of the path from the root to `node`, up to entering the
/// last goal.
fn replay(level: &Level, start: u32, nodes: &[Node], node: usize) -> Vec<Event> {
    let mut path = Vec::new();
    let mut at = Some(node);
    while let Some(i) = at {
        path.push(nodes[i].action);
        at = nodes[i].parent;
    }
    path.reverse();
    let mut rec = Recorder {
        at: start,
        visited: vec![false; level.places.len()],
        passed: vec![false; level.locks.len()],
        spent_on: vec![None; level.locks.len()],
        events: Vec::new(),
        goals_left: level.goals.len(),
        to_goal: None,
    };
    rec.enter(level, start, None);
    let mut state = State {
        pos: start,
        held: Bits::new(level.keys.len()),
        spent: Bits::new(level.keys.len()),
        opened: Bits::new(level.locks.len()),
        goals: Bits::new(level.goals.len()),
    };
    for action in path {
        match action {
            Action::Start => {}
            Action::Open { lock, key } => {
                state.opened.set(lock);
                state.spent.set(key);
                rec.spent_on[lock as usize] = Some(key);
            }
            Action::Move { from, passage, to } => {
                rec.walk(level, &state, &open_locks(level, &state), from);
                rec.step(level, &state, from, passage, to);
                state.pos = to;
            }
        }
        state = close(level, state, Some(&mut rec)).0;
    }
    // The last close enters every place around the last goal: keep the
    // play up to the goal.
    let mut events = rec.events;
    events.truncate(rec.to_goal.unwrap_or(events.len()));
    events
}
