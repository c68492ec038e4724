//! Adding a bare detour exactly: every shape and free position of its
//! rooms, depth first ([`Run::exact_fill`]), or the most compact
//! placement, best first with branch and bound ([`Run::fill_best_first`]).

use super::detours::{MOST_HANGING, MOST_WRAPPING};
use super::energy::Terms;
use super::positions::FillCache;
use super::run::{Partial, Run, NONE};
use crate::layout::config_space::{ConfigSpace, PointBox};
use crate::layout::polygon::{GridPoint, Rect};

/// A limit ([`LayoutSettings::max_iterations`](super::LayoutSettings::max_iterations), [`LayoutSettings::time_limit`](super::LayoutSettings::time_limit),
/// [`LayoutSettings::max_work`](super::LayoutSettings::max_work)) stopped the run.
pub(super) struct Stopped;

/// The smallest box holding `a` and the box `b` moved by `p`.
fn hull(a: PointBox, b: Rect, p: GridPoint) -> PointBox {
    PointBox {
        x0: a.x0.min(b.x0 + p.x),
        y0: a.y0.min(b.y0 + p.y),
        x1: a.x1.max(b.x1 + p.x),
        y1: a.y1.max(b.y1 + p.y),
    }
}

/// The area of a box of `hull`s (0 when empty).
fn area(b: PointBox) -> i64 {
    if b.x0 > b.x1 || b.y0 > b.y1 {
        return 0;
    }
    i64::from(b.x1 - b.x0) * i64::from(b.y1 - b.y0)
}

impl Run<'_, '_> {
    /// The chain's rooms in the order [`Run::exact_fill`] places them, when
    /// the chain is a bare detour: one or two rooms, every neighbour of
    /// which is placed or in the chain, the first with a placed neighbour
    /// (and each next one with a placed neighbour or the one before).
    /// With `nested` (the chain is a bare detour of a door with three
    /// detours, [`nested_detours`](super::detours::nested_detours), which holds every pendant room
    /// ([`pendant_rooms`](super::detours::pendant_rooms)) hanging off it), the chain's pendant rooms are
    /// placed after its one or two cycle rooms. With `wraps` (the chain
    /// closes around a bare detour laid out before it,
    /// [`enclosed_detours_later`](super::detours::enclosed_detours_later)), the same, and pendant rooms next to it
    /// may also come in later chains, and it may have up to
    /// [`MOST_WRAPPING`] rooms: the chain is filled around the bare detour
    /// (capped, see [`LayoutSettings::compact_detours`](super::LayoutSettings::compact_detours)), and its dead ends
    /// are placed after it.
    pub(super) fn bare_detour(
        &self,
        partial: &Partial,
        chain: &[usize],
        nested: bool,
        wraps: bool,
    ) -> Option<Vec<usize>> {
        let prep = self.prep;
        // With `nested` or `wraps`, the chain's pendant rooms are placed
        // after its cycle rooms, in chain order (each touches one before
        // it).
        let (core, hung): (Vec<usize>, Vec<usize>) = if nested || wraps {
            chain.iter().partition(|&&r| !prep.pendant[r])
        } else {
            (chain.to_vec(), Vec::new())
        };
        let most = if wraps { MOST_WRAPPING } else { 2 };
        if core.is_empty() || core.len() > most || hung.len() > MOST_HANGING {
            return None;
        }
        let placed = |w: usize| partial.shape[w] != NONE;
        let bare = chain.iter().all(|&r| {
            prep.neighbours[r]
                .iter()
                .all(|&(w, _)| placed(w) || chain.contains(&w) || (wraps && prep.pendant[w]))
        });
        if !bare {
            return None;
        }
        let touches = |r: usize| prep.touches_placed(partial, r);
        let mut order = core;
        if !touches(order[0]) {
            order.reverse();
        }
        if !touches(order[0]) {
            return None;
        }
        for w in order.windows(2) {
            if !touches(w[1]) && !prep.joined(w[0], w[1]) {
                return None;
            }
        }
        for r in hung {
            if !order.iter().any(|&x| prep.joined(x, r)) {
                return None;
            }
            order.push(r);
        }
        Some(order)
    }

    /// Valid extensions of `current` by the bare detour `order` (see
    /// [`LayoutSettings::exact_detours`](super::LayoutSettings::exact_detours)), up to `want` sufficiently
    /// different ones:
    /// an exact search, so an empty result means none exists (unless a
    /// limit or a wrapping fill's cap stopped it). Iterations: one per cut
    /// of a room's space by a placed room (see
    /// [`ConfigSpace::without_overlaps`]) and one per candidate position
    /// then tested, for each of its shapes; each later room's once per
    /// valid placement of the rooms before it. Each room's space is cut by
    /// the rooms placed before the fill once per shape ([`FillCache`]);
    /// a later room's is then only intersected with the spaces of the
    /// fill's rooms it is joined to and cut by the fill's rooms. Of two rooms that both touch
    /// placed ones, the one with fewer free positions goes first. Shapes
    /// and starting points are drawn from the run's generator, so that the
    /// extensions kept are not always the same corner of the space. In a
    /// compact fill ([`LayoutSettings::compact_detours`](super::LayoutSettings::compact_detours)) the one kept is
    /// the most compact instead, found best first
    /// ([`Run::fill_best_first`]).
    pub(super) fn exact_fill(
        &mut self,
        mut current: Partial,
        chain: &[usize],
        order: &[usize],
        want: usize,
    ) -> Vec<Partial> {
        let mut found: Vec<Partial> = Vec::new();
        let mut order = order.to_vec();
        let mut cache = FillCache::new(&current, &order, self.prep);
        if let [a, b, ..] = order[..] {
            // The room with fewer free positions first: the second is
            // enumerated once per valid position of the first.
            if self.prep.touches_placed(&current, b) {
                let count = |run: &mut Self, first: &[usize], cache: &mut FillCache| -> u64 {
                    let shapes = run.prep.room_shapes[first[0]].clone();
                    let mut sum = 0;
                    for s in shapes {
                        if let Some((sp, _)) = run.free_positions(&current, first, 0, s, cache) {
                            sum += sp.weight();
                        }
                    }
                    sum
                };
                if count(self, &[b, a], &mut cache) < count(self, &[a, b], &mut cache) {
                    order.swap(0, 1);
                }
            }
        }
        let order = &order[..];
        self.fill_from(&mut current, chain, order, 0, want, &mut found, &mut cache);
        found
    }

    /// [`Run::fill_from`] for a compact fill: the candidates of room
    /// `order[i]` over all its shapes in order of the box they give
    /// (ties in the order of the shuffled shapes and a random start),
    /// tested only while that box can still beat the best placement found:
    /// the box only grows with the rooms still to place, so the rest
    /// cannot (best first, branch and bound).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fill_best_first(
        &mut self,
        layout: &mut Partial,
        chain: &[usize],
        order: &[usize],
        i: usize,
        want: usize,
        found: &mut Vec<Partial>,
        cache: &mut FillCache,
        shapes: &[u32],
    ) -> bool {
        let prep = self.prep;
        let r = order[i];
        // The box of everything but this room: each candidate's bound is
        // its hull with the room's box there.
        let others = self.spread_box(layout, chain);
        // Per shape with free positions: the shape and the rooms near it.
        let mut spaces: Vec<(u32, Vec<usize>)> = Vec::new();
        // (bound, index in `spaces`, rank after the random start, the
        // position); the first three are unique, so they fix the order.
        let mut candidates: Vec<(i64, usize, u64, GridPoint)> = Vec::new();
        for &s in shapes {
            let (space, near, start) = match self.shape_positions(layout, order, i, s, cache) {
                Ok(Some(found)) => found,
                Ok(None) => continue,
                Err(Stopped) => return false,
            };
            let w = space.weight();
            let bounds = prep.shapes[s as usize].bounds;
            // The positions in `nth` order, box by box (not `nth` for each:
            // that walks the boxes every time).
            let points = space
                .boxes
                .iter()
                .flat_map(|b| (0..b.count()).map(move |q| b.nth(q)));
            for (j, p) in (0..w).zip(points) {
                let bound = area(hull(others, bounds, p));
                candidates.push((bound, spaces.len(), (j + w - start) % w, p));
            }
            spaces.push((s, near));
        }
        candidates.sort_unstable_by_key(|&(bound, k, rank, _)| (bound, k, rank));
        for (bound, k, _, p) in candidates {
            if self.best_score.is_some_and(|b| bound >= b) {
                break;
            }
            if !self.fill_tick() {
                layout.shape[r] = NONE;
                return false;
            }
            let (s, near) = &spaces[k];
            layout.shape[r] = *s;
            layout.pos[r] = p;
            if !self.fits_here(layout, r, near) {
                continue;
            }
            if !self.fill_from(layout, chain, order, i + 1, want, found, cache) {
                layout.shape[r] = NONE;
                return false;
            }
        }
        layout.shape[r] = NONE;
        true
    }

    /// The area of the box around the rooms of `chain` and their
    /// neighbours placed in `layout`.
    pub(super) fn spread(&self, layout: &Partial, chain: &[usize]) -> i64 {
        area(self.spread_box(layout, chain))
    }

    /// The box around the rooms of `chain` and their neighbours placed in
    /// `layout` (empty: `x0 > x1`).
    pub(super) fn spread_box(&self, layout: &Partial, chain: &[usize]) -> PointBox {
        let prep = self.prep;
        let mut out = PointBox {
            x0: i32::MAX,
            y0: i32::MAX,
            x1: i32::MIN,
            y1: i32::MIN,
        };
        for &r in chain {
            let near = std::iter::once(r).chain(prep.neighbours[r].iter().map(|&(w, _)| w));
            for w in near {
                if layout.shape[w] == NONE {
                    continue;
                }
                let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
                out = hull(out, b, p);
            }
        }
        out
    }

    /// Places `order[i..]` in every valid way (depth first), pushing the
    /// complete ones to `found`; false once enough are found or a limit
    /// stopped the run, or a wrapping fill's cap (`fill_cap`) was reached
    /// (at most [`MOST_WRAPPING`] + [`MOST_HANGING`] levels deep, each loop
    /// over a room's finite shapes and positions).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fill_from(
        &mut self,
        layout: &mut Partial,
        chain: &[usize],
        order: &[usize],
        i: usize,
        want: usize,
        found: &mut Vec<Partial>,
        cache: &mut FillCache,
    ) -> bool {
        let prep = self.prep;
        if i == order.len() {
            if let Some(done) = self.with_corridors(layout) {
                if self.compact {
                    // Keep the most compact placement: the smallest box
                    // around the detour's rooms and their placed neighbours.
                    let score = self.spread(&done, chain);
                    if self.best_score.is_none_or(|b| score < b) {
                        self.best_score = Some(score);
                        found.clear();
                        found.push(done);
                    }
                    return true;
                }
                if self.different_enough(&done, found, chain) {
                    found.push(done);
                }
            }
            return found.len() < want;
        }
        let r = order[i];
        let mut shapes = prep.room_shapes[r].clone();
        for k in (1..shapes.len()).rev() {
            let j = self.rng.below(k + 1);
            shapes.swap(k, j);
        }
        if self.compact {
            return self.fill_best_first(layout, chain, order, i, want, found, cache, &shapes);
        }
        for s in shapes {
            let (space, near, start) = match self.shape_positions(layout, order, i, s, cache) {
                Ok(Some(found)) => found,
                Ok(None) => continue,
                Err(Stopped) => return false,
            };
            let w = space.weight();
            layout.shape[r] = s;
            for j in 0..w {
                if !self.fill_tick() {
                    layout.shape[r] = NONE;
                    return false;
                }
                let p = space.nth((start + j) % w);
                layout.pos[r] = p;
                if !self.fits_here(layout, r, &near) {
                    continue;
                }
                if !self.fill_from(layout, chain, order, i + 1, want, found, cache) {
                    layout.shape[r] = NONE;
                    return false;
                }
            }
            layout.shape[r] = NONE;
        }
        true
    }

    /// [`Run::free_positions`] of room `order[i]` with shape `s`, with a
    /// random starting index into them (so that the placements kept are
    /// not always the same corner of the space); `Ok(None)` when there are
    /// none, `Err(Stopped)` when a limit stopped the run.
    pub(super) fn shape_positions(
        &mut self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
        cache: &mut FillCache,
    ) -> Result<Option<(ConfigSpace, Vec<usize>, u64)>, Stopped> {
        let Some((space, near)) = self.free_positions(layout, order, i, s, cache) else {
            return if self.stopped.is_some() {
                Err(Stopped)
            } else {
                Ok(None)
            };
        };
        let w = space.weight();
        let start = if w > 1 {
            self.rng.below(w as usize) as u64
        } else {
            0
        };
        Ok(Some((space, near, start)))
    }

    /// Whether room `r`, where `layout` puts it, overlaps nothing and keeps
    /// every distance and contact: the nearby rooms `near` first, then the
    /// exact test against everything (corridors, far rooms), for the few
    /// positions that get that far.
    pub(super) fn fits_here(&self, layout: &Partial, r: usize, near: &[usize]) -> bool {
        !near
            .iter()
            .any(|&x| self.pair_term(layout, r, x) != Terms::default())
            && self.room_terms(layout, r) == Terms::default()
    }
}
