//! The reachability graph the encoding unrolls: places that no lock
//! separates are one *zone* (the player who reaches one reaches all of
//! them, whatever keys they hold), and every locked room is a zone of its
//! own. A level of hundreds of places with eight locks has a few dozen
//! zones, so the phases of key pick-ups unroll over zones, not places.

use crate::play::level::Level;
use crate::union_find::UnionFind;

/// One way from a zone into a neighbouring zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Link {
    pub(crate) from: u32,
    pub(crate) to: u32,
    /// The locked door on the way, if any.
    pub(crate) door: Option<u32>,
}

/// The zones of a level.
#[derive(Clone, Debug)]
pub(crate) struct Zones {
    /// Per place: its zone.
    pub(crate) of_place: Vec<u32>,
    /// Per zone: its places, increasing.
    pub(crate) places: Vec<Vec<u32>>,
    /// Per zone: the locks to open to enter it (a locked room's).
    pub(crate) enter_locks: Vec<Vec<u32>>,
    /// The links between zones, sorted, without repeats.
    pub(crate) links: Vec<Link>,
}

impl Zones {
    /// Joins the places of `level` that a passage without a door lock
    /// links and that are not locked rooms.
    ///
    /// # Complexity
    /// O(places + passages), near enough (union–find).
    pub(crate) fn new(level: &Level, ends: impl Fn(u32) -> [u32; 2]) -> Zones {
        let n = level.places.len();
        let locked = |p: u32| !level.place_locks[p as usize].is_empty();
        let mut sets = UnionFind::new(n);
        for (i, passage) in level.passages.iter().enumerate() {
            let [a, b] = ends(i as u32);
            if passage.lock.is_none() && !locked(a) && !locked(b) {
                sets.union(a as usize, b as usize);
            }
        }
        // Zones numbered by their first place, so that the numbering
        // follows place order.
        let mut zone_of_root = vec![u32::MAX; n];
        let mut of_place = vec![0; n];
        let mut places: Vec<Vec<u32>> = Vec::new();
        let mut enter_locks = Vec::new();
        for (p, zone) in of_place.iter_mut().enumerate() {
            let root = sets.find(p);
            if zone_of_root[root] == u32::MAX {
                zone_of_root[root] = places.len() as u32;
                places.push(Vec::new());
                enter_locks.push(level.place_locks[p].to_vec());
            }
            let z = zone_of_root[root];
            *zone = z;
            places[z as usize].push(p as u32);
        }
        let mut links = Vec::new();
        for (i, passage) in level.passages.iter().enumerate() {
            let [a, b] = ends(i as u32);
            let (za, zb) = (of_place[a as usize], of_place[b as usize]);
            if za != zb {
                links.push(Link {
                    from: za,
                    to: zb,
                    door: passage.lock,
                });
                links.push(Link {
                    from: zb,
                    to: za,
                    door: passage.lock,
                });
            }
        }
        links.sort_unstable();
        links.dedup();
        Zones {
            of_place,
            places,
            enter_locks,
            links,
        }
    }

    /// The number of zones.
    pub(crate) fn len(&self) -> usize {
        self.places.len()
    }
}
