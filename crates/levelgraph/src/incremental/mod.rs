//! Incremental match stores: each rule's current matches, kept up to date
//! after every application by looking only where the host changed, so a
//! derivation does not search the whole host on every step.
//!
//! On small hosts a store is simply searched again when its rule is
//! needed after a change (bookkeeping would cost more than it saves); from
//! [`crate::derive`](mod@crate::derive)'s size threshold on, it is built with indexes by one
//! full search and then maintained. Either way a change that cannot reach
//! the pattern leaves the store as it is: no vertex changed and no edge of
//! a kind the pattern or its conditions look at was added or removed
//! (`Pattern::store_facts`).
//! After an application ([`Changes`]) a maintained store
//! 1. drops the matches that contain a deleted or touched vertex (new tag,
//!    attributes or parent), or use a removed edge;
//! 2. looks again at the matches whose conditions see a changed
//!    neighbourhood: a vertex at a *single-sensitive* position (exact
//!    valence, forbidden tags, a `where not` link to a condition vertex —
//!    see [`Sensitivity`]) within the conditions' edge reach of an added
//!    or removed edge or containment, or within their reach of a touched
//!    vertex; and, for *pair-sensitive* patterns (`induced`, a `where not`
//!    edge between pattern vertices), the matches containing both ends of
//!    such a link. Those matches are dropped, to be found again in step 3;
//!    but where the change is an added edge and the conditions can only
//!    reject more when edges are added ([`Sensitivity::add_monotone`]),
//!    they are checked and dropped only if now rejected;
//! 3. searches again, anchored at the changed elements only: each touched
//!    vertex at every pattern position that accepts it (a new vertex only
//!    where the position has no pattern edge: the others are found from its
//!    new edges), each added edge as every pattern edge it could be, each
//!    changed neighbourhood of step 2 at its sensitive positions, each
//!    changed pair at every pair of positions. A search at a changed
//!    neighbourhood is skipped where some pattern edge at the position has
//!    only added edges at the vertex: the added-edge searches, which run
//!    first, found every such match (`found_from_added_edges`).
//!
//! A store whose conditions look at no links runs steps 1 and 3 only, and
//! a one-vertex pattern with tags and nothing else is built from the tag
//! index, in the order a search would find its matches.
//!
//! Matches that none of this reaches are unaffected: their vertices, edges
//! and everything their conditions inspect are unchanged. Patterns whose
//! conditions are not linked to the match at all (a `where not` with no
//! vertex tied to the pattern) are rebuilt from scratch after each change.
//! Tests compare every store with a full search after every step
//! ([`crate::derive::verify_incremental`]).
//!
//! Matches are kept in a dense vector (uniform draws in O(1)); removal is a
//! swap with the last, so the order depends only on the sequence of
//! changes and stays deterministic. The matches holding each vertex are
//! found through [`slots::SlotIndex`] (intrusive lists, O(1) per link and
//! unlink, never iterated as a whole; whatever a walk returns is sorted
//! before it is used), and those using an edge through its ends.

mod slots;

use std::cell::RefCell;
use std::ops::ControlFlow;

use crate::graph::{EdgeId, EdgeKind, Graph, VertexId};
use crate::matching::{Match, Pattern, Sensitivity, StoreFacts};
use crate::rewrite::{ChangedEdge, Changes};
use slots::SlotIndex;

/// The current matches of one pattern in a host that changes.
#[derive(Clone, Debug)]
pub(crate) struct MatchStore {
    built: bool,
    /// Whether `by_vertex` is kept: only for stores that are
    /// maintained incrementally.
    indexed: bool,
    /// Match `i` is `vertices[i*nv..(i+1)*nv]`, `edges[i*ne..(i+1)*ne]`,
    /// and for a grid rule `frames[i]` (every other match has no frame, so
    /// none is kept): flat, so a search adds matches without allocating.
    vertices: Vec<VertexId>,
    edges: Vec<EdgeId>,
    frames: Vec<Option<crate::matching::Frame>>,
    /// Number of matches.
    count: usize,
    /// The most words (vertex and edge ids) the matches may take; past it
    /// the store stops its search and is `overflowed`. Unlimited until
    /// [`MatchStore::set_word_cap`].
    word_cap: usize,
    /// Whether a search stopped because the matches passed `word_cap`:
    /// the store is then incomplete, and the derivation draws the rule's
    /// matches by randomized search instead
    /// ([`crate::derive::Budget::stored_match_words`]).
    overflowed: bool,
    /// Whether the pattern is a grid rule's (its matches have frames).
    grid: bool,
    nv: usize,
    ne: usize,
    /// The vertex slots (`i*nv + k`) holding each host vertex.
    by_vertex: SlotIndex,
    /// Scratch buffers of [`MatchStore::update`], kept to avoid allocating.
    /// Boxed, so that taking it out for an update moves a pointer.
    scratch: Option<Box<Scratch>>,
    /// Positions of matches to remove (scratch).
    hits: Vec<u32>,
    /// A match being checked again (scratch).
    probe: Match,
    /// The buffer anchored searches write their matches into (scratch).
    found: Match,
}

/// An anchored search from an added edge: `edge`, as the image of
/// `pattern_edge`; `since` is the number of matches the store held when
/// its searches began.
#[derive(Clone, Copy, Debug)]
struct Fresh {
    pattern_edge: usize,
    edge: EdgeId,
    since: usize,
}

#[derive(Clone, Debug, Default)]
struct Scratch {
    neighbourhood: Vec<VertexId>,
    pairs: Vec<(VertexId, VertexId)>,
    research: Vec<VertexId>,
    research_pairs: Vec<(VertexId, VertexId)>,
    around: Vec<VertexId>,
    frontier: Vec<VertexId>,
    next: Vec<VertexId>,
}

thread_local! {
    /// The emptied stores of the last derivations on this thread, for the
    /// next: their buffers (matches and slot lists, which grow with the
    /// host) are then memory already mapped, not fresh pages the kernel
    /// must fault in and zero. Measured 2026-11-28 against fresh stores
    /// (alternating runs, CPU time): 5 % of the growth benchmark (caps
    /// 1,000 and 10,000), 1–4 % of the derive benchmark; in the mutex STS
    /// at N = 10,000 and 100,000 within the noise. Every store is cleared
    /// before use, so nothing it held reaches a result.
    static KEPT: RefCell<Vec<MatchStore>> = const { RefCell::new(Vec::new()) };
}

/// The most buffer memory, in bytes, the stores kept on a thread may hold
/// (16 MiB): a huge derivation's stores are freed, so one of them does not
/// hold its memory for the rest of the thread's life.
const KEEP_BYTES: usize = 16 << 20;

/// Up to this many matches appended by an update, a match found from an
/// added edge is looked for among them by a scan ([`MatchStore::holds_since`]);
/// beyond, through the slot lists, so that one added edge at a hub that
/// makes many matches does not cost their number squared.
const FEW_APPENDED: usize = 16;

/// An empty store for each of `patterns`, made from the stores this thread
/// kept ([`keep_stores`]) while there are any.
pub(crate) fn stores_for<'p>(patterns: impl Iterator<Item = &'p Pattern>) -> Vec<MatchStore> {
    let mut kept = KEPT
        .try_with(|k| std::mem::take(&mut *k.borrow_mut()))
        .unwrap_or_default();
    let stores = patterns
        .map(|p| match kept.pop() {
            Some(store) => store.reset_for(p),
            None => MatchStore::new(p),
        })
        .collect();
    // Any left over go back for the next derivation.
    let _ = KEPT.try_with(|k| *k.borrow_mut() = kept);
    stores
}

/// Keeps `stores` (a finished derivation's) for the next derivation on
/// this thread, up to [`KEEP_BYTES`] of buffers in all.
pub(crate) fn keep_stores(stores: Vec<MatchStore>) {
    let _ = KEPT.try_with(|k| {
        let mut kept = k.borrow_mut();
        let mut bytes: usize = kept.iter().map(MatchStore::buffer_bytes).sum();
        for store in stores {
            let more = store.buffer_bytes();
            if bytes + more <= KEEP_BYTES {
                bytes += more;
                kept.push(store);
            }
        }
    });
}

impl MatchStore {
    /// This store emptied and made ready for `pattern`, keeping its
    /// buffers' capacity.
    fn reset_for(mut self, pattern: &Pattern) -> Self {
        self.clear();
        self.built = false;
        self.indexed = false;
        self.word_cap = usize::MAX;
        self.overflowed = false;
        self.grid = pattern.is_grid();
        self.nv = pattern.vertices().len();
        self.ne = pattern.edges().len();
        self
    }

    /// Bytes held by the store's match and slot buffers (capacity, not
    /// length).
    fn buffer_bytes(&self) -> usize {
        use std::mem::size_of;
        self.vertices.capacity() * size_of::<VertexId>()
            + self.edges.capacity() * size_of::<EdgeId>()
            + self.frames.capacity() * size_of::<Option<crate::matching::Frame>>()
            + self.by_vertex.buffer_bytes()
    }

    pub(crate) fn new(pattern: &Pattern) -> Self {
        MatchStore {
            word_cap: usize::MAX,
            overflowed: false,
            built: false,
            indexed: false,
            vertices: Vec::new(),
            edges: Vec::new(),
            frames: Vec::new(),
            count: 0,
            grid: pattern.is_grid(),
            nv: pattern.vertices().len(),
            ne: pattern.edges().len(),
            by_vertex: SlotIndex::default(),
            scratch: None,
            hits: Vec::new(),
            probe: Match::default(),
            found: Match::default(),
        }
    }

    /// Builds the store by a full search, if it is not built yet; with
    /// `indexed`, ready for incremental updates.
    #[inline]
    pub(crate) fn ensure(&mut self, pattern: &Pattern, host: &Graph, indexed: bool) {
        // Built already on almost every call: no call then.
        if self.needs_build(indexed) {
            self.build(pattern, host, indexed);
        }
    }

    /// Whether [`MatchStore::ensure`] would search.
    #[inline]
    pub(crate) fn needs_build(&self, indexed: bool) -> bool {
        !self.built || (indexed && !self.indexed)
    }

    /// [`MatchStore::ensure`] of a store that needs the search.
    fn build(&mut self, pattern: &Pattern, host: &Graph, indexed: bool) {
        self.clear();
        self.indexed = indexed;
        if self.vertices.capacity() == 0 {
            // Room for a few matches at once, not one doubling at a time.
            const FIRST_MATCHES: usize = 16;
            self.vertices.reserve(FIRST_MATCHES * self.nv);
            self.edges.reserve(FIRST_MATCHES * self.ne);
            if self.grid {
                self.frames.reserve(FIRST_MATCHES);
            }
        }
        if let Some(tags) = pattern.lone_vertex_tags() {
            // One vertex per match (mountRule's `(p:process)`, all N
            // processes): each vertex appended as it is, without a search
            // per candidate; the same matches in the same order.
            for &t in tags {
                for &v in host.vertices_tagged(t) {
                    if pattern.vertex_fits(host, 0, v) {
                        self.push_lone(v);
                        if self.overflowed {
                            return;
                        }
                    }
                }
            }
            self.built = true;
            return;
        }
        let mut image = std::mem::take(&mut self.found);
        let _ = pattern.for_each_match_into(host, &mut image, |m| {
            self.push(m);
            self.go_on()
        });
        self.found = image;
        self.built = true;
    }

    /// [`MatchStore::push`] of a match of a one-vertex pattern without
    /// edges or frame.
    fn push_lone(&mut self, v: VertexId) {
        debug_assert!(self.nv == 1 && self.ne == 0 && !self.grid);
        let at = self.count;
        self.vertices.push(v);
        self.count += 1;
        self.overflowed |= self.count > self.word_cap;
        if self.indexed {
            self.by_vertex.link(at, v.index());
        }
    }

    /// Drops the matches; the store is searched again if it is needed.
    pub(crate) fn discard(&mut self) {
        if self.built || self.count != 0 {
            self.built = false;
            self.clear();
        }
    }

    /// Sets the most words the matches may take (the derivation's budget
    /// grows with the host, so it sets it before each build and update).
    pub(crate) fn set_word_cap(&mut self, words: usize) {
        self.word_cap = words;
    }

    /// Whether a search stopped because the matches passed the store's
    /// word cap: the store is incomplete. The derivation then drops it.
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Words (vertex and edge ids) the matches take.
    pub(crate) fn words(&self) -> usize {
        self.count * self.words_per_match()
    }

    /// Words a match takes: its vertex and edge ids (at least one).
    fn words_per_match(&self) -> usize {
        (self.nv + self.ne).max(1)
    }

    /// `Break` once the store has overflowed: its searches stop there.
    fn go_on(&self) -> ControlFlow<()> {
        if self.overflowed {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Number of matches. Build first with [`MatchStore::ensure`].
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// Host vertices of match `i`, by pattern vertex.
    pub(crate) fn vertices_of(&self, i: usize) -> &[VertexId] {
        &self.vertices[i * self.nv..(i + 1) * self.nv]
    }

    /// Host edges of match `i`, by pattern edge.
    pub(crate) fn edges_of(&self, i: usize) -> &[EdgeId] {
        &self.edges[i * self.ne..(i + 1) * self.ne]
    }

    /// Match `i`.
    pub(crate) fn get(&self, i: usize) -> Match {
        let mut m = Match::default();
        self.get_into(i, &mut m);
        m
    }

    /// Match `i`, written into `m` (whose buffers are reused).
    #[inline(always)]
    pub(crate) fn get_into(&self, i: usize, m: &mut Match) {
        m.vertices.clear();
        m.vertices.extend_from_slice(self.vertices_of(i));
        m.edges.clear();
        m.edges.extend_from_slice(self.edges_of(i));
        m.frame = self.frame_of(i);
    }

    /// The frame of match `i` (`None` unless the pattern is a grid rule's).
    fn frame_of(&self, i: usize) -> Option<crate::matching::Frame> {
        if self.grid {
            self.frames[i]
        } else {
            None
        }
    }

    /// Every match, in store order (for verification).
    pub(crate) fn matches(&self) -> Vec<Match> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    fn clear(&mut self) {
        self.overflowed = false;
        self.vertices.clear();
        self.edges.clear();
        self.frames.clear();
        self.count = 0;
        self.by_vertex.clear();
    }

    #[inline(always)]
    fn push(&mut self, m: &Match) {
        let at = self.len();
        self.vertices.extend_from_slice(&m.vertices);
        self.edges.extend_from_slice(&m.edges);
        debug_assert!(self.grid || m.frame.is_none());
        if self.grid {
            self.frames.push(m.frame);
        }
        self.count += 1;
        self.overflowed |= self.count * self.words_per_match() > self.word_cap;
        if self.indexed {
            for (k, v) in m.vertices.iter().enumerate() {
                self.by_vertex.link(at * self.nv + k, v.index());
            }
        }
    }

    /// Removes the match at `at`, moving the last match into its place.
    #[inline(always)]
    fn remove_at(&mut self, at: usize) {
        let last = self.len() - 1;
        let (nv, ne) = (self.nv, self.ne);
        for k in 0..nv {
            let v = self.vertices[at * nv + k];
            self.by_vertex.unlink(at * nv + k, v.index());
        }
        if at != last {
            for k in 0..nv {
                let v = self.vertices[last * nv + k];
                self.by_vertex
                    .relocate(last * nv + k, at * nv + k, v.index());
            }
            self.vertices
                .copy_within(last * nv..(last + 1) * nv, at * nv);
            self.edges.copy_within(last * ne..(last + 1) * ne, at * ne);
        }
        self.vertices.truncate(last * nv);
        self.edges.truncate(last * ne);
        self.by_vertex.truncate(last * nv);
        if self.grid {
            self.frames.swap_remove(at);
        }
        self.count -= 1;
    }

    /// Removes the matches in `hits` (positions; reordered here). Largest
    /// position first: a removal moves the last match into the freed slot,
    /// and the last match, if doomed, is the largest position, so the
    /// positions still to remove stay valid.
    #[inline(always)]
    fn remove_all(&mut self, hits: &mut Vec<u32>) {
        if hits.len() > 1 {
            hits.sort_unstable_by(|a, b| b.cmp(a));
        }
        for &p in hits.iter() {
            self.remove_at(p as usize);
        }
        hits.clear();
    }

    /// Removes every match that `doomed` selects (given its host vertices)
    /// among those holding `v`.
    fn remove_where(&mut self, v: VertexId, doomed: impl Fn(&[VertexId]) -> bool) {
        // A vertex in no match (a new one, say): nothing to walk.
        if self.by_vertex.count(v.index()) == 0 {
            return;
        }
        let mut hits = std::mem::take(&mut self.hits);
        hits.extend(
            self.by_vertex
                .slots(v.index())
                .map(|slot| slot / self.nv)
                .filter(|&p| doomed(self.vertices_of(p)))
                .map(|p| p as u32),
        );
        self.remove_all(&mut hits);
        self.hits = hits;
    }

    /// Whether `changes` cannot change the matches: no vertex changed and
    /// no edge of a watched kind was added or removed. Such a store stays
    /// exact as it is, searched or maintained.
    fn unaffected(facts: &StoreFacts, changes: &Changes) -> bool {
        let Some(watched) = &facts.watched else {
            return false;
        };
        let watched = |k: EdgeKind| watched.binary_search(&k.either_end()).is_ok();
        changes.touched.is_empty()
            && changes.deleted.is_empty()
            && changes.relinked.is_empty()
            && !changes.removed_edges.iter().any(|r| watched(r.kind))
            && !changes.added_edges.iter().any(|a| watched(a.kind))
    }

    /// Removes every match among those holding `v` that `selected` picks
    /// (given its host vertices) and whose conditions the host now rejects.
    fn remove_rejected(
        &mut self,
        pattern: &Pattern,
        host: &Graph,
        v: VertexId,
        selected: impl Fn(&[VertexId]) -> bool,
    ) {
        let mut hits = std::mem::take(&mut self.hits);
        let mut m = std::mem::take(&mut self.probe);
        for slot in self.by_vertex.slots(v.index()) {
            let p = slot / self.nv;
            if selected(self.vertices_of(p)) {
                self.get_into(p, &mut m);
                if !pattern.conditions_hold(host, &m) {
                    hits.push(p as u32);
                }
            }
        }
        self.remove_all(&mut hits);
        self.hits = hits;
        self.probe = m;
    }

    /// Removes every match that uses edge `e`, whose ends were `a` and `b`
    /// (a match using an edge holds both its ends: look at the end in fewer
    /// matches).
    fn remove_using_edge(&mut self, e: EdgeId, a: VertexId, b: VertexId) {
        if self.ne == 0 {
            return;
        }
        let (na, nb) = (
            self.by_vertex.count(a.index()),
            self.by_vertex.count(b.index()),
        );
        // An end in no match: no match uses the edge (the second edge a
        // rule removed from the match the first one took away, say).
        if na == 0 || nb == 0 {
            return;
        }
        let end = if nb < na { b } else { a };
        let mut hits = std::mem::take(&mut self.hits);
        hits.extend(
            self.by_vertex
                .slots(end.index())
                .map(|slot| slot / self.nv)
                .filter(|&p| self.edges_of(p).contains(&e))
                .map(|p| p as u32),
        );
        self.remove_all(&mut hits);
        self.hits = hits;
    }

    fn contains(&self, m: &Match) -> bool {
        // Look where the fewest matches are listed.
        let Some(&v) = m
            .vertices
            .iter()
            .min_by_key(|v| self.by_vertex.count(v.index()))
        else {
            return false;
        };
        self.by_vertex.slots(v.index()).any(|slot| {
            let p = slot / self.nv;
            self.vertices_of(p) == m.vertices.as_slice()
                && self.edges_of(p) == m.edges.as_slice()
                && self.frame_of(p) == m.frame
        })
    }

    /// Whether one of the matches from position `since` on is `m`: a
    /// scan, so only for a few matches (see [`FEW_APPENDED`]).
    fn holds_since(&self, since: usize, m: &Match) -> bool {
        (since..self.count).any(|p| {
            self.vertices_of(p) == m.vertices.as_slice()
                && self.edges_of(p) == m.edges.as_slice()
                && self.frame_of(p) == m.frame
        })
    }

    /// Appends the matches of an anchored search that the store does not
    /// hold yet. With `fresh`, the search is from an added edge: a match
    /// that uses it is younger than the application, so the store can
    /// only hold it among the matches this update appended, and it is
    /// looked for there instead of through the slot lists.
    fn add_found(
        &mut self,
        pattern: &Pattern,
        host: &Graph,
        anchors: &[(usize, VertexId)],
        fresh: Option<Fresh>,
    ) {
        // The search writes its matches into the store's own buffer.
        let mut image = std::mem::take(&mut self.found);
        let _ = pattern.for_each_anchored_into(host, anchors, &mut image, |m| {
            let held = match fresh {
                // Both tests are exact; the scan is cheaper only while
                // the update has appended few matches (one added edge at
                // a hub can make thousands).
                Some(f)
                    if m.edges[f.pattern_edge] == f.edge
                        && self.count - f.since <= FEW_APPENDED =>
                {
                    self.holds_since(f.since, m)
                }
                _ => self.contains(m),
            };
            if !held {
                self.push(m);
            }
            self.go_on()
        });
        self.found = image;
    }

    /// Brings the store up to date with `changes`, made to `host` (which is
    /// already changed). A store not built yet stays unbuilt; one built
    /// without indexes (a small host, where a fresh search is cheaper than
    /// bookkeeping) is dropped, to be searched again when needed.
    #[inline]
    pub(crate) fn update(&mut self, pattern: &Pattern, host: &Graph, changes: &Changes) {
        // Most stores of a step are not built (rules of other recipe
        // stages, not tried yet): no call for them.
        if self.built {
            self.update_built(pattern, host, changes);
        }
    }

    /// [`MatchStore::update`] of a built store.
    fn update_built(&mut self, pattern: &Pattern, host: &Graph, changes: &Changes) {
        let facts = pattern.store_facts();
        if Self::unaffected(facts, changes) {
            return;
        }
        if !self.indexed {
            self.built = false;
            self.clear();
            return;
        }
        if facts.sensitivity.reach == usize::MAX {
            self.built = false;
            self.clear();
            return;
        }
        if !facts.any_single && !facts.sensitivity.pair {
            // No condition looks at links (newRule, takeRule, giveRule in
            // the mutex STS): steps 1 and 3 only, with no changed
            // neighbourhood to collect and no scratch space to take out.
            self.remove_changed(changes, facts);
            self.search_changed(pattern, host, changes);
            return;
        }
        // Taken out for the update, which changes the rest of the store.
        let mut sc = self.scratch.take().unwrap_or_default();
        self.apply_changes(pattern, host, changes, facts, &mut sc);
        self.scratch = Some(sc);
    }

    /// Step 1 of an update: drops the matches on deleted or touched
    /// vertices and those using a removed edge.
    #[inline(always)]
    fn remove_changed(&mut self, changes: &Changes, facts: &StoreFacts) {
        for &v in changes.deleted.iter().chain(&changes.touched) {
            self.remove_where(v, |_| true);
        }
        for r in &changes.removed_edges {
            // Only an edge of a kind the pattern's edges have can be in a match.
            if facts.edge_kinds.binary_search(&r.kind.either_end()).is_ok() {
                self.remove_using_edge(r.id, r.source, r.target);
            }
        }
    }

    /// The first searches of step 3: at every touched vertex and from
    /// every added edge.
    #[inline(always)]
    fn search_changed(&mut self, pattern: &Pattern, host: &Graph, changes: &Changes) {
        // Steps 1 and 2 only remove and step 3 only appends: whatever this
        // update adds lies from `since` on.
        let since = self.count;
        let n = pattern.vertices().len();
        for &v in &changes.touched {
            if !host.contains_vertex(v) {
                continue;
            }
            // A new vertex's edges are all new: a match that puts it at a
            // position with pattern edges is found from those edges below.
            let created = changes.created.contains(&v);
            for i in (0..n)
                .filter(|&i| !(created && pattern.degree(i) > 0) && pattern.accepts(host, i, v))
            {
                self.add_found(pattern, host, &[(i, v)], None);
            }
        }
        for edge in &changes.added_edges {
            for (j, pe) in pattern.edges().iter().enumerate() {
                // Same direction, cosmetic flag and label: the same packed
                // kind seen from the source.
                if pattern.kind(j) != edge.kind {
                    continue;
                }
                let fresh = Some(Fresh {
                    pattern_edge: j,
                    edge: edge.id,
                    since,
                });
                self.add_found(
                    pattern,
                    host,
                    &[(pe.source, edge.source), (pe.target, edge.target)],
                    fresh,
                );
                if !edge.kind.is_directed() {
                    self.add_found(
                        pattern,
                        host,
                        &[(pe.source, edge.target), (pe.target, edge.source)],
                        fresh,
                    );
                }
            }
        }
    }

    fn apply_changes(
        &mut self,
        pattern: &Pattern,
        host: &Graph,
        changes: &Changes,
        facts: &StoreFacts,
        sc: &mut Scratch,
    ) {
        let sens = &facts.sensitivity;
        let (single, pair) = (&sens.single, sens.pair);
        let any_single = facts.any_single;
        // Where conditions may now reject a match: every changed link.
        let (mut neighbourhood, mut pairs) = (
            std::mem::take(&mut sc.neighbourhood),
            std::mem::take(&mut sc.pairs),
        );
        // Only conditions look at changed links (none: nothing to collect).
        let conditions = any_single || pair;
        if conditions {
            changed_links(
                host,
                changes,
                true,
                sens,
                &mut neighbourhood,
                &mut pairs,
                sc,
            );
        } else {
            neighbourhood.clear();
            pairs.clear();
        }
        // Where conditions may now accept a match: without the added edges
        // when adding can only reject (see `Sensitivity::add_monotone`).
        let research =
            (conditions && sens.add_monotone && !changes.added_edges.is_empty()).then(|| {
                let (mut at, mut pairs) = (
                    std::mem::take(&mut sc.research),
                    std::mem::take(&mut sc.research_pairs),
                );
                changed_links(host, changes, false, sens, &mut at, &mut pairs, sc);
                (at, pairs)
            });

        self.remove_changed(changes, facts);
        // 2. Matches whose conditions look at a changed neighbourhood:
        // dropped where step 3 searches again, else (a change that can
        // only reject) checked and dropped if rejected.
        let research_at = research.as_ref().map_or(&neighbourhood, |r| &r.0);
        let research_pairs = research.as_ref().map_or(&pairs, |r| &r.1);
        if any_single {
            for &w in &neighbourhood {
                let sensitive_here =
                    (0..single.len()).any(|i| single[i] && pattern.accepts(host, i, w));
                if !sensitive_here && host.contains_vertex(w) {
                    continue;
                }
                let at_sensitive =
                    |vs: &[VertexId]| vs.iter().enumerate().any(|(i, &x)| x == w && single[i]);
                if research_at.binary_search(&w).is_ok() {
                    self.remove_where(w, at_sensitive);
                } else {
                    self.remove_rejected(pattern, host, w, at_sensitive);
                }
            }
        }
        if pair {
            for &(a, b) in &pairs {
                let (na, nb) = (
                    self.by_vertex.count(a.index()),
                    self.by_vertex.count(b.index()),
                );
                if na == 0 || nb == 0 {
                    continue;
                }
                let (short, other) = if na <= nb { (a, b) } else { (b, a) };
                if research_pairs.contains(&(a, b)) {
                    self.remove_where(short, |vs| vs.contains(&other));
                } else {
                    self.remove_rejected(pattern, host, short, |vs| vs.contains(&other));
                }
            }
        }
        // 3. Search again where something changed.
        self.search_changed(pattern, host, changes);
        let n = pattern.vertices().len();
        if any_single {
            for &w in research_at {
                if !host.contains_vertex(w) {
                    continue;
                }
                for i in (0..n).filter(|&i| single[i] && pattern.accepts(host, i, w)) {
                    if found_from_added_edges(pattern, host, changes, i, w) {
                        continue;
                    }
                    self.add_found(pattern, host, &[(i, w)], None);
                }
            }
        }
        if pair {
            for &(a, b) in research_pairs {
                if !host.contains_vertex(a) || !host.contains_vertex(b) {
                    continue;
                }
                for i in (0..n).filter(|&i| pattern.accepts(host, i, a)) {
                    for j in (0..n).filter(|&j| j != i && pattern.accepts(host, j, b)) {
                        self.add_found(pattern, host, &[(i, a), (j, b)], None);
                    }
                }
            }
        }
        // Keep the buffers for the next update.
        sc.neighbourhood = neighbourhood;
        sc.pairs = pairs;
        if let Some((at, pairs)) = research {
            sc.research = at;
            sc.research_pairs = pairs;
        }
    }
}

/// Whether every match that puts host vertex `w` at pattern vertex `i`
/// uses an edge the application added: true when some pattern edge at `i`
/// has no image at `w` but added edges. The searches from the added edges
/// (step 3, before the searches at changed neighbourhoods) have then found
/// every such match already, so a search anchored at `(i, w)` would only
/// find matches the store holds, and skipping it leaves the store and its
/// order exactly as they would be. It is also true, harmlessly, when `w`
/// has no link of that kind at all: then no match puts `w` at `i`. (In
/// the mutex STS this is every search
/// at a changed neighbourhood: `releaseRule`'s process after a take or a
/// release, whose only `held_by` edge is the one just added, or none.)
fn found_from_added_edges(
    pattern: &Pattern,
    host: &Graph,
    changes: &Changes,
    i: usize,
    w: VertexId,
) -> bool {
    let added = &changes.added_edges;
    if added.is_empty() {
        return false;
    }
    let links = host.incidences(w);
    pattern.kinds_at(i).any(|kind| {
        links
            .iter()
            .all(|l| l.kind.either_end() != kind || added.iter().any(|a| a.id == l.edge))
    })
}

/// Collects in `neighbourhood` the vertices whose neighbourhood changed,
/// sorted, when some position is single-sensitive: the ends of removed
/// (and with `with_added` added) edges and containments, every vertex
/// within `sens.edge_reach` links of those ends and within `sens.reach`
/// links of a touched vertex; and in `pairs` the changed links, when the
/// pattern is pair-sensitive. What the pattern does not read is left
/// empty.
#[inline(always)]
fn changed_links(
    host: &Graph,
    changes: &Changes,
    with_added: bool,
    sens: &Sensitivity,
    neighbourhood: &mut Vec<VertexId>,
    pairs: &mut Vec<(VertexId, VertexId)>,
    sc: &mut Scratch,
) {
    neighbourhood.clear();
    pairs.clear();
    let added: &[ChangedEdge] = if with_added {
        &changes.added_edges
    } else {
        &[]
    };
    if changes.removed_edges.is_empty()
        && added.is_empty()
        && changes.relinked.is_empty()
        && changes.touched.is_empty()
    {
        // Nothing changed a link (requestRule's changes seen without its
        // added edge): both sets stay empty.
        return;
    }
    if sens.pair {
        for e in &changes.removed_edges {
            pairs.push((e.source, e.target));
        }
        for e in added {
            pairs.push((e.source, e.target));
        }
        pairs.extend_from_slice(&changes.relinked);
    }
    if sens.single.iter().any(|&s| s) {
        for e in &changes.removed_edges {
            neighbourhood.extend([e.source, e.target]);
        }
        for e in added {
            neighbourhood.extend([e.source, e.target]);
        }
        for &(c, p) in &changes.relinked {
            neighbourhood.extend([c, p]);
        }
        // A link changed deeper in a condition (an edge between two of its
        // own vertices, or at one whose valence or neighbours it tests):
        // the matches within `edge_reach` of the link's ends.
        if sens.edge_reach > 0 {
            within(host, neighbourhood, sens.edge_reach, sc);
        }
        // A touched vertex may be a condition vertex (or the neighbour of
        // one whose neighbours it tests): the matches within `reach`.
        if sens.reach > 0 && !changes.touched.is_empty() {
            let mut around = std::mem::take(&mut sc.around);
            around.clear();
            around.extend_from_slice(&changes.touched);
            within(host, &mut around, sens.reach, sc);
            neighbourhood.extend_from_slice(&around);
            sc.around = around;
        }
        sort_dedup(neighbourhood);
    }
}

/// Sorts `set` and drops repeats. The few ends of one application's
/// changed links (usually 2 to 6) are sorted by insertion in place, without
/// the call into the standard sort; more by `sort_unstable`. The result is
/// the same either way.
#[inline(always)]
fn sort_dedup(set: &mut Vec<VertexId>) {
    const BY_INSERTION: usize = 16;
    if set.len() <= BY_INSERTION {
        for i in 1..set.len() {
            let x = set[i];
            let mut j = i;
            while j > 0 && set[j - 1] > x {
                set[j] = set[j - 1];
                j -= 1;
            }
            set[j] = x;
        }
    } else {
        set.sort_unstable();
    }
    set.dedup();
}

/// Adds to `set` every vertex within `radius` links of a vertex in it
/// (each once; with a radius of 0 or an empty set, `set` is left as it is,
/// else it comes back sorted). Sorting instead of membership
/// scans keeps a hub's thousands of neighbours from costing a quadratic
/// walk.
fn within(host: &Graph, set: &mut Vec<VertexId>, radius: usize, sc: &mut Scratch) {
    if radius == 0 || set.is_empty() {
        return;
    }
    set.sort_unstable();
    set.dedup();
    let (frontier, next) = (&mut sc.frontier, &mut sc.next);
    frontier.clear();
    frontier.extend_from_slice(set);
    for _ in 0..radius {
        next.clear();
        for &v in frontier.iter() {
            for_each_link(host, v, |w| next.push(w));
        }
        next.sort_unstable();
        next.dedup();
        next.retain(|w| set.binary_search(w).is_err());
        if next.is_empty() {
            break;
        }
        set.extend_from_slice(next);
        set.sort_unstable();
        std::mem::swap(frontier, next);
    }
}

/// Calls `f` on each vertex one link from `v`: along any edge, or by
/// containment.
fn for_each_link(host: &Graph, v: VertexId, mut f: impl FnMut(VertexId)) {
    for link in host.incidences(v) {
        f(link.other);
    }
    if let Some(p) = host.parent(v) {
        f(p);
    }
    for &c in host.children(v) {
        f(c);
    }
}

#[cfg(test)]
mod tests {
    use super::{sort_dedup, MatchStore};
    use crate::graph::{Edge, Graph, VertexId};
    use crate::matching::{Pattern, PatternVertex, TagTest};

    /// A one-vertex pattern with tags and nothing else is built from the
    /// tag index without a search: it must hold what a search finds, in
    /// the search's order (a derivation draws from the store by position,
    /// and the incremental tests compare stores as sets only).
    #[test]
    fn a_one_vertex_store_is_built_in_the_searchs_order() {
        let mut g = Graph::new();
        let [a, b, c] = ["a", "b", "c"].map(|t| g.tags_mut().intern(t));
        // Tags interleaved, degrees 0..3, a cosmetic edge (no valence),
        // attributes, and a vertex stored in another.
        let vs: Vec<VertexId> = (0..24).map(|i| g.add_vertex([a, b, c][i % 3])).collect();
        for i in 0..23 {
            for j in (i + 1..24).step_by(5).take(i % 4) {
                g.add_edge(Edge {
                    source: vs[i],
                    target: vs[j],
                    directed: i % 2 == 0,
                    cosmetic: j % 7 == 0,
                    label: None,
                    length_factor: 1.0,
                });
            }
            if i % 4 == 1 {
                if let Some(x) = g.vertex_mut(vs[i]) {
                    x.attributes.insert("colour".into(), "red".into());
                }
            }
        }
        assert!(g.set_parent(vs[4], Some(vs[9])));
        let one = |tags: Vec<_>, attributes: Vec<(String, String)>, valence| {
            Pattern::new(
                vec![PatternVertex {
                    tags: TagTest::OneOf(tags),
                    forbidden: vec![],
                    attributes,
                    valence,
                }],
                vec![],
            )
        };
        let red = || vec![("colour".to_string(), "red".to_string())];
        let patterns = [
            one(vec![a], vec![], None),
            one(vec![a, c], vec![], None),
            one(vec![b], vec![], Some(1)),
            one(vec![a, b, c], vec![], Some(2)),
            one(vec![b, c], red(), None),
            one(vec![a, b], red(), Some(g.valence(vs[9]) as u32)),
        ];
        for (k, p) in patterns.iter().enumerate() {
            assert!(
                p.lone_vertex_tags().is_some(),
                "pattern {k} takes the tag-index build"
            );
            let wanted = p.find_all(&g);
            assert!(!wanted.is_empty(), "pattern {k} matches something");
            for indexed in [true, false] {
                let mut store = MatchStore::new(p);
                store.ensure(p, &g, indexed);
                assert_eq!(store.matches(), wanted, "pattern {k}, indexed {indexed}");
            }
        }
    }

    #[test]
    fn sort_dedup_sorts_and_drops_repeats_at_every_length() {
        let mut x: u32 = 12345;
        for len in 0..40 {
            let mut ours: Vec<VertexId> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    VertexId((x >> 16) % 23)
                })
                .collect();
            let mut std = ours.clone();
            std.sort_unstable();
            std.dedup();
            sort_dedup(&mut ours);
            assert_eq!(ours, std, "{len} ids");
        }
    }
}
