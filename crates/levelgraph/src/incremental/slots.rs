//! An index from keys (host vertex indices) to the slots of a
//! [`super::MatchStore`] that hold them: one intrusive doubly linked list
//! per key, threaded through a per-slot array of `[next, prev]` pairs.
//!
//! Every operation a store needs is O(1) (link, unlink, move a slot,
//! count), and nothing is allocated per match: the arrays grow with the
//! number of slots and with the largest key seen. Keys are dense indices
//! (`VertexId::index`), so the heads are a vector, not a
//! hash map, and the index is never iterated as a whole.

/// No slot.
const NIL: u32 = u32::MAX;

/// Slot lists by key. A slot is `match * width + position`.
#[derive(Clone, Debug, Default)]
pub(super) struct SlotIndex {
    /// Per key: the first slot of its list (`NIL` when empty) and the
    /// list's length, side by side (one cache line for both).
    head: Vec<[u32; 2]>,
    /// Per slot: the next and the previous slot of its list, side by side
    /// (a link or an unlink reads and writes both).
    links: Vec<[u32; 2]>,
}

impl SlotIndex {
    /// Forgets every list.
    pub(super) fn clear(&mut self) {
        self.head.clear();
        self.links.clear();
    }

    /// Bytes held by the index's buffers (capacity, not length).
    pub(super) fn buffer_bytes(&self) -> usize {
        use std::mem::size_of;
        self.head.capacity() * size_of::<[u32; 2]>() + self.links.capacity() * size_of::<[u32; 2]>()
    }

    /// Number of slots listed under `key`.
    pub(super) fn count(&self, key: usize) -> usize {
        self.head.get(key).map_or(0, |h| h[1] as usize)
    }

    /// Adds `slot` (not listed yet) to `key`'s list. Inlined: a store
    /// links every vertex slot of every match it adds.
    #[inline(always)]
    pub(super) fn link(&mut self, slot: usize, key: usize) {
        if key >= self.head.len() {
            self.head.resize(key + 1, [NIL, 0]);
        }
        let first = self.head[key][0];
        if slot == self.links.len() {
            // A store appends its matches: the slot is the next one.
            self.links.push([first, NIL]);
        } else {
            if slot > self.links.len() {
                self.links.resize(slot + 1, [NIL, NIL]);
            }
            self.links[slot] = [first, NIL];
        }
        if first != NIL {
            self.links[first as usize][1] = slot as u32;
        }
        self.head[key] = [slot as u32, self.head[key][1] + 1];
    }

    /// Takes `slot` out of `key`'s list (where it must be).
    pub(super) fn unlink(&mut self, slot: usize, key: usize) {
        let [next, prev] = self.links[slot];
        if prev == NIL {
            self.head[key][0] = next;
        } else {
            self.links[prev as usize][0] = next;
        }
        if next != NIL {
            self.links[next as usize][1] = prev;
        }
        self.head[key][1] -= 1;
    }

    /// Lists `to` (a slot listed nowhere) in place of `from` in `key`'s
    /// list, keeping the list's order; `from` is then listed nowhere.
    pub(super) fn relocate(&mut self, from: usize, to: usize, key: usize) {
        let [next, prev] = self.links[from];
        self.links[to] = [next, prev];
        if prev == NIL {
            self.head[key][0] = to as u32;
        } else {
            self.links[prev as usize][0] = to as u32;
        }
        if next != NIL {
            self.links[next as usize][1] = to as u32;
        }
    }

    /// Drops the per-slot entries from `slots` on (slots no longer used).
    pub(super) fn truncate(&mut self, slots: usize) {
        self.links.truncate(slots);
    }

    /// The slots listed under `key`, most recently linked first.
    pub(super) fn slots(&self, key: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.head.get(key).map_or(NIL, |h| h[0]);
        std::iter::from_fn(move || {
            if at == NIL {
                return None;
            }
            let slot = at as usize;
            at = self.links[slot][0];
            Some(slot)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::SlotIndex;

    fn listed(index: &SlotIndex, key: usize) -> Vec<usize> {
        let mut s: Vec<usize> = index.slots(key).collect();
        s.sort_unstable();
        assert_eq!(s.len(), index.count(key));
        s
    }

    #[test]
    fn link_unlink_relocate_keep_lists_exact() {
        let mut index = SlotIndex::default();
        index.link(0, 5);
        index.link(1, 5);
        index.link(2, 7);
        index.link(3, 5);
        assert_eq!(listed(&index, 5), vec![0, 1, 3]);
        assert_eq!(listed(&index, 7), vec![2]);
        assert_eq!(listed(&index, 6), Vec::<usize>::new());
        index.unlink(1, 5);
        assert_eq!(listed(&index, 5), vec![0, 3]);
        // Slot 3 moves into the freed slot 1, as a store's swap-remove does.
        index.relocate(3, 1, 5);
        index.truncate(3);
        assert_eq!(listed(&index, 5), vec![0, 1]);
        index.unlink(0, 5);
        index.unlink(1, 5);
        assert_eq!(listed(&index, 5), Vec::<usize>::new());
        assert_eq!(index.count(99), 0);
    }

    /// `link` of a slot that is not the next one (a store always appends,
    /// but the contract is any slot listed nowhere): past the end, the
    /// slots skipped over are listed nowhere; over a slot unlinked
    /// earlier, the slot is listed again, under its new key only.
    #[test]
    fn link_past_the_end_and_over_an_unlinked_slot() {
        let mut index = SlotIndex::default();
        index.link(4, 2);
        assert_eq!(listed(&index, 2), vec![4]);
        for key in [0, 1, 3] {
            assert_eq!(listed(&index, key), Vec::<usize>::new());
        }
        // Slots 0–3 exist now and are listed nowhere: link two of them.
        index.link(1, 2);
        index.link(3, 0);
        assert_eq!(index.slots(2).collect::<Vec<_>>(), vec![1, 4]);
        assert_eq!(listed(&index, 0), vec![3]);
        // Over a slot unlinked from one key, under another key.
        index.unlink(4, 2);
        index.link(4, 0);
        assert_eq!(listed(&index, 2), vec![1]);
        assert_eq!(index.slots(0).collect::<Vec<_>>(), vec![4, 3]);
        // Over the head of a list, under the same key again.
        index.unlink(4, 0);
        index.link(4, 0);
        assert_eq!(index.slots(0).collect::<Vec<_>>(), vec![4, 3]);
        // And the next slot appended after all that.
        index.link(5, 2);
        assert_eq!(index.slots(2).collect::<Vec<_>>(), vec![5, 1]);
        index.unlink(1, 2);
        index.unlink(3, 0);
        assert_eq!(index.slots(2).collect::<Vec<_>>(), vec![5]);
        assert_eq!(index.slots(0).collect::<Vec<_>>(), vec![4]);
    }
}
