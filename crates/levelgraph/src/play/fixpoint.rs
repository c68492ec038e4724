//! The monotone-key fixpoint: everything a player reaches from the
//! entrance when keys are kept once picked up.
//!
//! Starting in the entrance, the player enters every place a passage leads
//! to whose locks (the door's and the room's) a held key opens; picking up
//! a key opens its locks, and every step that waited at one of them is
//! tried again. Nothing is ever lost, so the set of places reached only
//! grows and the order of steps does not change it: one pass, each step
//! tried once from each end and once more per lock it waited at, each
//! key's locks opened once — linear in places, passages and key–lock
//! pairs. It is exact when every key is kept, every passage two-way and
//! the entrance no locked room (the player, who starts inside, must open
//! it to come back); otherwise it treats small keys as kept and lets the
//! player walk back from anywhere, so a place it does not reach is
//! unreachable in any play (the bounded search of `search.rs` decides the
//! rest).

use std::collections::VecDeque;

use super::level::{Level, Opens};
use super::Event;

/// What the fixpoint reached.
#[derive(Clone, Debug)]
pub(crate) struct Reach {
    /// Per place: reached.
    pub(crate) reached: Vec<bool>,
    /// Per lock: the key that first opened it (a held key names it), or
    /// [`NO_KEY`] for a lock held open.
    pub(crate) opener: Vec<Option<u32>>,
    /// The playthrough in order: places entered, keys picked up, locks
    /// opened as a step passes them. Empty unless asked for.
    pub(crate) events: Vec<Event>,
    /// How many of `events` lead up to the last goal (all of them when a
    /// goal was not reached).
    pub(crate) to_goal: usize,
    /// Every goal was reached.
    pub(crate) goals_reached: bool,
}

/// One lock held shut, or open from the start, whatever the keys say: to
/// tell what it gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    Shut(u32),
    Open(u32),
}

/// The opener of a lock held open: no key.
const NO_KEY: u32 = u32::MAX;

/// The fixpoint from `start`, with lock `held` held shut or open.
/// `events`: record the playthrough (not with a lock held open, which no
/// key opened).
pub(crate) fn explore(level: &Level, start: u32, held: Option<Held>, events: bool) -> Reach {
    debug_assert!(!(events && matches!(held, Some(Held::Open(_)))));
    let mut opener = vec![None; level.locks.len()];
    if let Some(Held::Open(l)) = held {
        opener[l as usize] = Some(NO_KEY);
    }
    let mut run = Run {
        level,
        closed: match held {
            Some(Held::Shut(l)) => Some(l),
            _ => None,
        },
        record: events,
        reached: vec![false; level.places.len()],
        opener,
        group_open: vec![false; level.group_locks.len()],
        waiting: vec![Vec::new(); level.locks.len()],
        passed: vec![false; level.locks.len()],
        steps: VecDeque::new(),
        events: Vec::new(),
        goals_left: level.goals.len(),
        to_goal: None,
    };
    run.enter(start, None);
    while let Some((from, passage, to)) = run.steps.pop_front() {
        run.step(from, passage, to);
    }
    let goals_reached = run.goals_left == 0;
    let to_goal = run.to_goal.unwrap_or(run.events.len());
    Reach {
        reached: run.reached,
        opener: run.opener,
        events: run.events,
        to_goal,
        goals_reached,
    }
}

struct Run<'a> {
    level: &'a Level,
    /// A lock held shut.
    closed: Option<u32>,
    record: bool,
    reached: Vec<bool>,
    opener: Vec<Option<u32>>,
    /// Per key statement without `via`: its locks are open.
    group_open: Vec<bool>,
    /// Per lock: steps that stopped at it, tried again once it opens.
    waiting: Vec<Vec<(u32, u32, u32)>>,
    /// Per lock: a step has passed it (its `Open` event is recorded).
    passed: Vec<bool>,
    /// Steps to try: (from place, passage, to place).
    steps: VecDeque<(u32, u32, u32)>,
    events: Vec<Event>,
    goals_left: usize,
    to_goal: Option<usize>,
}

impl Run<'_> {
    fn enter(&mut self, p: u32, from: Option<u32>) {
        let level = self.level;
        self.reached[p as usize] = true;
        if self.record {
            self.events.push(Event::Enter {
                room: level.vertex(p),
                from: from.map(|f| level.vertex(f)),
            });
        }
        for &k in &level.keys_at[p as usize] {
            if self.record {
                self.events.push(Event::PickUp {
                    key: level.keys[k as usize].vertex,
                    room: level.vertex(p),
                });
            }
            match &level.keys[k as usize].opens {
                Opens::Listed(locks) => {
                    for &l in locks {
                        self.open(l, k);
                    }
                }
                Opens::Group(g) => {
                    if !std::mem::replace(&mut self.group_open[*g as usize], true) {
                        for &l in &level.group_locks[*g as usize] {
                            self.open(l, k);
                        }
                    }
                }
            }
        }
        let goals_here = level.goals.iter().filter(|&&(_, gp)| gp == p).count();
        if goals_here > 0 {
            self.goals_left -= goals_here;
            if self.goals_left == 0 {
                self.to_goal = Some(self.events.len());
            }
        }
        for s in &level.out[p as usize] {
            if !self.reached[s.to as usize] {
                self.steps.push_back((p, s.passage, s.to));
            }
        }
    }

    fn open(&mut self, l: u32, k: u32) {
        if self.closed == Some(l) || self.opener[l as usize].is_some() {
            return;
        }
        self.opener[l as usize] = Some(k);
        let waiting = std::mem::take(&mut self.waiting[l as usize]);
        self.steps.extend(waiting);
    }

    fn step(&mut self, from: u32, passage: u32, to: u32) {
        if self.reached[to as usize] {
            return;
        }
        let level = self.level;
        if let Some(l) = level
            .locks_on(passage, to)
            .find(|&l| self.opener[l as usize].is_none())
        {
            self.waiting[l as usize].push((from, passage, to));
            return;
        }
        if self.record {
            for l in level.locks_on(passage, to) {
                if !std::mem::replace(&mut self.passed[l as usize], true) {
                    let key = self.opener[l as usize].expect("an open lock has an opener");
                    self.events.push(Event::Open {
                        lock: level.locks[l as usize].what,
                        key: level.keys[key as usize].vertex,
                    });
                }
            }
        }
        self.enter(to, Some(from));
    }
}
