//! levelgraph's placement (`levelgraph::place`), its answers turned into
//! the benchmark's own naming (`read.rs`): content by kind, places by
//! index of the reading.

use std::collections::BTreeSet;

use levelgraph::grammar::place::PlaceSpec;
use levelgraph::grammar::play::PlaySpec;
use levelgraph::graph::Graph;
use levelgraph::place::{self, ContentKind, PlaceError, Placer, Problem, Status};
use levelgraph::play::LockRef;

use crate::check::Placement;
use crate::read::{Kind, LockName, Reading};

/// The table: per content of the reading, per place, the status.
pub type Table = Vec<Vec<Status>>;

/// levelgraph's problem, and how its contents and places map onto the
/// reading's.
pub struct Side {
    pub problem: Problem,
    /// Per Rust content: the reading's content.
    content: Vec<usize>,
    /// Per Rust place: the reading's place.
    place: Vec<usize>,
}

fn lock_name(l: LockRef) -> LockName {
    match l {
        LockRef::Room(v) => LockName::Room(v),
        LockRef::Door(e) => LockName::Door(e),
    }
}

impl Side {
    pub fn new(
        graph: &Graph,
        play: &PlaySpec,
        spec: &PlaceSpec,
        r: &Reading,
    ) -> Result<Side, String> {
        let problem = Problem::new(graph, play, spec).map_err(|e| e.to_string())?;
        if problem.contents.len() != r.contents.len() {
            return Err(format!(
                "levelgraph places {} pieces of content ({}), the reading {} ({})",
                problem.contents.len(),
                problem
                    .contents
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                r.contents.len(),
                r.contents
                    .iter()
                    .map(|c| c.kind.term())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let content = problem
            .contents
            .iter()
            .map(|c| {
                let found = match &c.kind {
                    ContentKind::Key { opens } => {
                        let want: BTreeSet<LockName> = opens
                            .iter()
                            .map(|&l| lock_name(problem.locks[l as usize]))
                            .collect();
                        r.contents.iter().position(|x| {
                            matches!(x.kind, Kind::Key(_))
                                && x.opens.iter().map(|&l| r.locks[l]).collect::<BTreeSet<_>>()
                                    == want
                        })
                    }
                    ContentKind::Entrance => {
                        r.contents.iter().position(|x| x.kind == Kind::Entrance)
                    }
                    ContentKind::Goal => r.contents.iter().position(|x| x.kind == Kind::Goal),
                    ContentKind::Item => r
                        .contents
                        .iter()
                        .position(|x| x.kind == Kind::Item(c.tag.clone())),
                };
                found.unwrap_or_else(|| {
                    panic!("levelgraph's content `{}` is not in the reading", c.name)
                })
            })
            .collect::<Vec<_>>();
        assert_eq!(
            content.len(),
            r.contents.len(),
            "levelgraph and the reading place different content"
        );
        let place = (0..problem.place_count() as u32)
            .map(|p| {
                let v = problem.place_vertex(p);
                r.places
                    .iter()
                    .position(|&w| w == v)
                    .unwrap_or_else(|| panic!("levelgraph's place {} is not in the reading", v.0))
            })
            .collect::<Vec<_>>();
        assert_eq!(
            place.len(),
            r.places.len(),
            "levelgraph and the reading see different places"
        );
        Ok(Side {
            problem,
            content,
            place,
        })
    }

    /// A levelgraph placement in the reading's naming.
    pub fn placement(&self, pl: &place::Placement) -> Placement {
        let mut out: Placement = vec![Vec::new(); self.content.len()];
        for (c, places) in pl.at.iter().enumerate() {
            let row = &mut out[self.content[c]];
            row.extend(places.iter().map(|&p| self.place[p as usize]));
            row.sort_unstable();
        }
        out
    }

    /// A placement of the reading as levelgraph's.
    pub fn to_rust(&self, pl: &Placement) -> place::Placement {
        let mut at = vec![Vec::new(); self.content.len()];
        for (rc, &c) in self.content.iter().enumerate() {
            let mut row: Vec<u32> = pl[c]
                .iter()
                .map(|&p| self.place.iter().position(|&q| q == p).unwrap() as u32)
                .collect();
            row.sort_unstable();
            at[rc] = row;
        }
        place::Placement { at }
    }

    /// Up to `n` placements for `seed`; empty when there is none.
    pub fn placements(&self, seed: u64, n: usize) -> Vec<Placement> {
        let mut placer = Placer::new(&self.problem, seed);
        match placer.placements(n) {
            Ok(v) => v.iter().map(|p| self.placement(p)).collect(),
            Err(PlaceError::NoPlacement { .. }) => Vec::new(),
            Err(e) => panic!("levelgraph: {e}"),
        }
    }

    /// The table, or `None` when there is no placement.
    pub fn table(&self) -> Option<Table> {
        let a = match place::analyze(&self.problem) {
            Ok(a) => a,
            Err(PlaceError::NoPlacement { .. }) => return None,
            Err(e) => panic!("levelgraph: {e}"),
        };
        let mut out = vec![vec![Status::Impossible; self.place.len()]; self.content.len()];
        for (c, row) in a.status.iter().enumerate() {
            for (p, &s) in row.iter().enumerate() {
                out[self.content[c]][self.place[p]] = s;
            }
        }
        Some(out)
    }

    /// levelgraph's own verdict on a placement: its violations.
    pub fn violations(&self, play: &PlaySpec, pl: &Placement) -> Vec<String> {
        place::violations(&self.problem, play, &self.to_rust(pl))
    }

    /// The encoding's size: variables, clauses, zones.
    pub fn size(&self) -> (u32, usize, usize) {
        Placer::new(&self.problem, 0).size()
    }
}
