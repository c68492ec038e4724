//! A derived level as a layout problem: its top-level vertices are the
//! rooms, its corridors (non-cosmetic edges between two different rooms,
//! once per pair; a stored vertex's edges count as its room's) are the
//! edges that need doors, and the grammar's `rooms` block says which
//! templates each tag may use.

use std::collections::{BTreeMap, BTreeSet};

use crate::drawing::top_levels;
use crate::grammar::RoomsSpec;
use crate::graph::Graph;
use crate::layout::edgar::{EdgarError, RoomSets};
use crate::layout::{CorridorSpec, DoorRule, LayoutProblem, RoomSpec, RoomTemplate, TemplateError};

/// Why a level and a `rooms` block do not make a layout problem.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RoomsError {
    /// A name in a set, `use` or `corridors` line that is no template or
    /// set.
    #[error("rooms block: {place}: unknown template or set `{name}` (known: {})", known_names(.known))]
    Unknown {
        /// The name.
        name: String,
        /// Where it is used.
        place: RoomsPlace,
        /// The names that exist: templates, sets and loaded Edgar sets,
        /// sorted.
        known: Vec<String>,
    },
    /// Sets that contain each other.
    #[error("rooms block: set `{0}` contains itself")]
    Cycle(String),
    /// Sets nested deeper than the resolver follows.
    #[error("rooms block: set `{0}` is nested more than 256 sets deep")]
    TooDeep(String),
    /// A corridor template without exactly two explicit doors.
    #[error("rooms block: corridor template `{0}` needs exactly two explicit doors (`doors`, or Edgar's SpecificPositionsMode), one for each room it joins")]
    Corridor(String),
    /// A room whose tag no `use` line covers.
    #[error("vertex {vertex} has tag `{tag}`, which no `use` line of the rooms block names, and there is no `use *`")]
    NoTemplates {
        /// The vertex id.
        vertex: u32,
        /// Its tag.
        tag: String,
    },
    /// An inline template that does not build.
    #[error("rooms block: {0}")]
    Template(#[from] TemplateError),
    /// A loaded Edgar set or description that does not build.
    #[error("{0}")]
    Edgar(#[from] EdgarError),
}

/// Where a `rooms` block names a template or set.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RoomsPlace {
    /// A member of `set NAME`.
    Set(String),
    /// A `use` line, with its tags.
    Use(Vec<String>),
    /// The `corridors` line.
    Corridors,
}

impl std::fmt::Display for RoomsPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomsPlace::Set(name) => write!(f, "set {name}"),
            RoomsPlace::Use(tags) => write!(f, "use {}", tags.join(" ")),
            RoomsPlace::Corridors => f.write_str("corridors"),
        }
    }
}

/// `names` as a message lists them: comma-separated, or "none".
fn known_names(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// The layout problem of `graph` under `spec`, with `loaded` holding the
/// Edgar room sets of the block's `load` lines (read by the caller).
/// Rooms are named by vertex id and come in id order; a geometric
/// derivation's positions become the problem's drawing.
///
/// # Errors
/// [`RoomsError`] naming the name, tag or template at fault.
pub fn level_problem(
    graph: &Graph,
    spec: &RoomsSpec,
    loaded: &RoomSets,
) -> Result<LayoutProblem, RoomsError> {
    let mut r = Resolver {
        spec,
        loaded,
        templates: Vec::new(),
        sets: BTreeMap::new(),
        open: BTreeSet::new(),
    };
    // Tag → template indices.
    let mut default: Option<Vec<usize>> = None;
    let mut by_tag: Vec<(String, Vec<usize>)> = Vec::new();
    for u in &spec.uses {
        let place = RoomsPlace::Use(u.tags.clone());
        let mut list = Vec::new();
        for m in &u.members {
            for t in r.resolve(m, &place, 0)? {
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
        for tag in &u.tags {
            if tag == "*" {
                default = Some(list.clone());
            } else {
                by_tag.push((tag.clone(), list.clone()));
            }
        }
    }
    let rooms_ids: Vec<_> = graph
        .vertex_ids()
        .filter(|&v| graph.parent(v).is_none())
        .collect();
    let mut slot = vec![usize::MAX; graph.vertex_bound()];
    let mut rooms = Vec::with_capacity(rooms_ids.len());
    for (i, &v) in rooms_ids.iter().enumerate() {
        slot[v.index()] = i;
        let tag = graph.tags().name(graph.tag(v)).to_owned();
        let templates = by_tag
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, l)| l.clone())
            .or_else(|| default.clone())
            .ok_or_else(|| RoomsError::NoTemplates {
                vertex: v.index() as u32,
                tag: tag.clone(),
            })?;
        rooms.push(RoomSpec {
            name: v.index().to_string(),
            tag,
            templates,
        });
    }
    let mut pairs = BTreeSet::new();
    let tops = top_levels(graph);
    for (_, e) in graph.edges() {
        if e.cosmetic {
            continue;
        }
        let (a, b) = (
            slot[tops[e.source.index()].index()],
            slot[tops[e.target.index()].index()],
        );
        if a != b {
            pairs.insert([a.min(b), a.max(b)]);
        }
    }
    let corridors = if spec.corridors.is_empty() {
        None
    } else {
        let mut list = Vec::new();
        for m in &spec.corridors {
            for t in r.resolve(m, &RoomsPlace::Corridors, 0)? {
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
        for &t in &list {
            let template = &r.templates[t];
            if !matches!(&template.doors, DoorRule::Specific(doors) if doors.len() == 2) {
                return Err(RoomsError::Corridor(template.name.clone()));
            }
        }
        Some(CorridorSpec {
            offsets: Vec::new(),
            templates: list,
        })
    };
    let points: Option<Vec<[f64; 2]>> = rooms_ids
        .iter()
        .map(|&v| graph.vertex(v).and_then(|x| x.position))
        .collect();
    Ok(LayoutProblem {
        rooms,
        edges: pairs.into_iter().collect(),
        templates: r.templates,
        corridors,
        min_distance: spec.min_distance,
        repeat: spec.repeat,
        drawing: points,
    })
}

/// Names → template indices, building each template once and resolving
/// each set once (sets that share members would otherwise be expanded
/// again at every level).
struct Resolver<'a> {
    spec: &'a RoomsSpec,
    loaded: &'a RoomSets,
    templates: Vec<RoomTemplate>,
    sets: BTreeMap<String, Vec<usize>>,
    /// Sets being resolved, to catch a set that contains itself.
    open: BTreeSet<String>,
}

/// Deepest nesting of sets in sets (keeps the recursion's stack small).
const MAX_DEPTH: usize = 256;

impl Resolver<'_> {
    fn resolve(
        &mut self,
        name: &str,
        place: &RoomsPlace,
        depth: usize,
    ) -> Result<Vec<usize>, RoomsError> {
        if let Some(t) = self.spec.templates.iter().find(|t| t.name == name) {
            return Ok(vec![self.add(t.build(self.spec.door)?)]);
        }
        if let Some(set) = self.spec.sets.iter().find(|s| s.name == name) {
            if let Some(done) = self.sets.get(name) {
                return Ok(done.clone());
            }
            if !self.open.insert(name.to_owned()) {
                return Err(RoomsError::Cycle(name.to_owned()));
            }
            if depth > MAX_DEPTH {
                return Err(RoomsError::TooDeep(name.to_owned()));
            }
            let mut out = Vec::new();
            for m in &set.members {
                for t in self.resolve(m, &RoomsPlace::Set(set.name.clone()), depth + 1)? {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            self.open.remove(name);
            self.sets.insert(name.to_owned(), out.clone());
            return Ok(out);
        }
        let set = name.split('/').next().unwrap_or(name);
        if self.loaded.contains(set) {
            let built = self.loaded.templates(name, &place.to_string())?;
            return Ok(built.into_iter().map(|t| self.add(t)).collect());
        }
        let mut known: Vec<String> = self
            .spec
            .templates
            .iter()
            .map(|t| t.name.clone())
            .chain(self.spec.sets.iter().map(|s| s.name.clone()))
            .chain(self.loaded.names().map(str::to_owned))
            .collect();
        known.sort();
        Err(RoomsError::Unknown {
            name: name.to_owned(),
            place: place.clone(),
            known,
        })
    }

    /// The index of `t`, adding it unless a template of its name is there.
    fn add(&mut self, t: RoomTemplate) -> usize {
        match self.templates.iter().position(|o| o.name == t.name) {
            Some(k) => k,
            None => {
                self.templates.push(t);
                self.templates.len() - 1
            }
        }
    }
}
