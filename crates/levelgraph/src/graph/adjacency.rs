//! Incidence lists of all vertices in one array: each vertex owns a block
//! (start, length, capacity) of a shared `Vec<Incidence>`.
//!
//! Why not a `Vec` per vertex: the matcher's inner loop reads a vertex's
//! list, then its neighbours' lists. With one heap allocation per vertex
//! those reads land anywhere in memory, and per-match time grows with the
//! host once the lists leave the cache. Here a host built in order (a grid,
//! a ring, a derivation's growth) keeps neighbouring vertices' blocks close
//! together, like the compressed sparse row (CSR) layout of static graph
//! libraries, while staying editable: a full block moves to the end of the
//! array with twice the room, and when more than half of the array is
//! abandoned blocks it is compacted in vertex order.
//!
//! Each vertex's block record also carries the vertex's tag (or marks the
//! id dead): a candidate's liveness, tag and degree, which the matcher
//! tests first, come from one 16-byte record.

use super::{Incidence, Symbol, VertexId};

/// `Block::tag` of a removed (or never used) vertex id.
const DEAD: u32 = u32::MAX;

/// Room of a vertex's block when it gets its first edge.
const FIRST_CAPACITY: u32 = 4;
/// Arrays smaller than this are never compacted.
const COMPACT_FROM: usize = 1024;

/// A vertex's block in the shared array, and its tag.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u32,
    len: u32,
    cap: u32,
    /// The vertex's tag index, or `DEAD`.
    tag: u32,
}

impl Block {
    /// An empty block of a vertex with tag index `tag`.
    fn empty(tag: u32) -> Block {
        Block {
            start: 0,
            len: 0,
            cap: 0,
            tag,
        }
    }
}

/// The incidence lists of a graph, by vertex index.
#[derive(Clone, Debug, Default)]
pub(super) struct Adjacency {
    blocks: Vec<Block>,
    entries: Vec<Incidence>,
    /// Entries in abandoned blocks (moved or cleared).
    waste: usize,
    /// Compactions so far (tests check that growth triggers them).
    #[cfg(test)]
    compactions: usize,
}

impl Adjacency {
    /// Adds an empty list for the next vertex index, a live vertex with
    /// `tag` or (`None`) an unused id.
    pub(super) fn push_vertex(&mut self, tag: Option<Symbol>) {
        self.blocks.push(Block::empty(tag.map_or(DEAD, |t| t.0)));
    }

    /// The tag of `v`, or `None` if `v` is not live.
    #[inline]
    pub(super) fn tag(&self, v: VertexId) -> Option<Symbol> {
        match self.blocks.get(v.index()) {
            Some(b) if b.tag != DEAD => Some(Symbol(b.tag)),
            _ => None,
        }
    }

    /// The tag of `v` if it is live, with the length of its list: one
    /// read of its block, no slice built.
    #[inline]
    pub(super) fn tag_and_len(&self, v: VertexId) -> Option<(Symbol, usize)> {
        match self.blocks.get(v.index()) {
            Some(b) if b.tag != DEAD => Some((Symbol(b.tag), b.len as usize)),
            _ => None,
        }
    }

    /// Records the tag of `v` (`None`: `v` is removed).
    pub(super) fn set_tag(&mut self, v: VertexId, tag: Option<Symbol>) {
        self.blocks[v.index()].tag = tag.map_or(DEAD, |t| t.0);
    }

    /// Makes room for `vertices` more vertices and `entries` more entries.
    pub(super) fn reserve(&mut self, vertices: usize, entries: usize) {
        self.blocks.reserve(vertices);
        self.entries.reserve(entries);
    }

    /// The list of `v` (empty for an unknown index).
    #[inline]
    pub(super) fn list(&self, v: VertexId) -> &[Incidence] {
        match self.blocks.get(v.index()) {
            Some(b) => &self.entries[b.start as usize..(b.start + b.len) as usize],
            None => &[],
        }
    }

    /// Appends `entry` to the list of `v`; returns its position there.
    #[inline(always)]
    pub(super) fn push(&mut self, v: VertexId, entry: Incidence) -> u32 {
        let b = self.blocks[v.index()];
        if b.len == b.cap {
            self.grow(v);
        }
        let b = &mut self.blocks[v.index()];
        self.entries[(b.start + b.len) as usize] = entry;
        b.len += 1;
        b.len - 1
    }

    /// Removes position `at` of the list of `v` by moving the last entry
    /// into it; returns the moved entry, if one moved.
    pub(super) fn swap_remove(&mut self, v: VertexId, at: u32) -> Option<Incidence> {
        let b = &mut self.blocks[v.index()];
        debug_assert!(at < b.len);
        let last = b.start + b.len - 1;
        b.len -= 1;
        if b.start + at == last {
            return None;
        }
        let moved = self.entries[last as usize];
        self.entries[(b.start + at) as usize] = moved;
        Some(moved)
    }

    /// The entry at position `at` of the list of `v`.
    pub(super) fn get(&self, v: VertexId, at: u32) -> Option<Incidence> {
        self.list(v).get(at as usize).copied()
    }

    /// Empties the list of `v` and returns what it held.
    pub(super) fn take(&mut self, v: VertexId) -> Vec<Incidence> {
        let out = self.list(v).to_vec();
        let b = &mut self.blocks[v.index()];
        self.waste += b.cap as usize;
        *b = Block::empty(b.tag);
        out
    }

    /// Moves the block of `v` to the end of the array with twice the room
    /// (compacting first when most of the array is abandoned).
    fn grow(&mut self, v: VertexId) {
        if self.waste > self.entries.len() / 2 && self.entries.len() >= COMPACT_FROM {
            self.compact();
        }
        let b = self.blocks[v.index()];
        let cap = if b.cap == 0 {
            FIRST_CAPACITY
        } else {
            b.cap * 2
        };
        let start = self.entries.len() as u32;
        self.entries
            .extend_from_within(b.start as usize..(b.start + b.len) as usize);
        self.entries.resize((start + cap) as usize, FILLER);
        self.waste += b.cap as usize;
        self.blocks[v.index()] = Block {
            start,
            len: b.len,
            cap,
            tag: b.tag,
        };
    }

    /// Rewrites the array with the blocks in vertex order and no abandoned
    /// space beyond each block's own room.
    fn compact(&mut self) {
        let mut entries = Vec::with_capacity(self.entries.len() - self.waste);
        for b in &mut self.blocks {
            let start = entries.len() as u32;
            entries.extend_from_slice(&self.entries[b.start as usize..(b.start + b.len) as usize]);
            entries.resize((start + b.cap) as usize, FILLER);
            b.start = start;
        }
        self.entries = entries;
        self.waste = 0;
        #[cfg(test)]
        {
            self.compactions += 1;
        }
    }
}

/// Content of unused room (never read: lists end at their length).
const FILLER: Incidence = Incidence {
    edge: super::EdgeId(u32::MAX),
    other: VertexId(u32::MAX),
    kind: super::EdgeKind(0),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeId, EdgeKind};

    fn entry(e: u32) -> Incidence {
        Incidence {
            edge: EdgeId(e),
            other: VertexId(0),
            kind: EdgeKind(0),
        }
    }

    fn edges(adj: &Adjacency, v: u32) -> Vec<u32> {
        adj.list(VertexId(v)).iter().map(|i| i.edge.0).collect()
    }

    /// Lists stay exact through growth, swap-removal, clearing and
    /// compaction, with many vertices sharing the array.
    #[test]
    fn lists_survive_growth_removal_and_compaction() {
        let mut adj = Adjacency::default();
        let n = 300;
        for _ in 0..n {
            adj.push_vertex(None);
        }
        let mut want: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut e = 0;
        for round in 0..24 {
            for (v, list) in want.iter_mut().enumerate() {
                if (v + round) % 2 == 0 {
                    assert_eq!(adj.push(VertexId(v as u32), entry(e)) as usize, list.len());
                    list.push(e);
                    e += 1;
                }
            }
            for v in (0..n).step_by(7) {
                if want[v].len() > 1 {
                    let moved = adj.swap_remove(VertexId(v as u32), 0);
                    want[v].swap_remove(0);
                    assert_eq!(moved.map(|m| m.edge.0), Some(want[v][0]));
                }
            }
            if round % 5 == 4 {
                let v = round * 11 % n;
                let taken: Vec<u32> = adj
                    .take(VertexId(v as u32))
                    .iter()
                    .map(|i| i.edge.0)
                    .collect();
                assert_eq!(taken, want[v]);
                want[v].clear();
            }
        }
        // Vertices removed (lists taken) leave abandoned blocks; growing
        // the others then compacts the array.
        for (v, list) in want.iter_mut().enumerate().filter(|(v, _)| v % 4 != 0) {
            adj.take(VertexId(v as u32));
            list.clear();
        }
        for _ in 0..40 {
            for (v, list) in want.iter_mut().enumerate().step_by(4) {
                adj.push(VertexId(v as u32), entry(e));
                list.push(e);
                e += 1;
            }
        }
        assert!(adj.compactions > 0, "growth compacted the array");
        adj.compact();
        for (v, list) in want.iter().enumerate() {
            assert_eq!(&edges(&adj, v as u32), list, "vertex {v}");
        }
        assert_eq!(adj.list(VertexId(n as u32 + 5)), &[]);
    }
}
