//! The free positions of a room of an exact fill: its placed neighbours'
//! configuration spaces intersected, cut by the rooms it would overlap,
//! with those against the rooms placed before the fill cached
//! ([`FillCache`]).

use super::run::{Partial, Run, NONE};
use super::Prepared;
use crate::layout::config_space::{ConfigSpace, PointBox};
use crate::layout::polygon::GridPoint;
use crate::layout::template::Shape;

/// Free positions of a room and the placed rooms near enough to matter.
pub(super) type Positions = Option<(ConfigSpace, Vec<usize>)>;

/// The free positions of the rooms of one exact fill against the rooms
/// placed before it, per room and shape, each computed when first asked
/// ([`Run::base_positions`]): the second room's would otherwise be cut
/// again for every valid position of the first.
pub(super) struct FillCache {
    /// The layout before the fill.
    pub(super) before: Partial,
    /// Per room with a placed neighbour: the room, and per shape (in the
    /// order of its shape list) its positions once computed.
    pub(super) rooms: Vec<(usize, Vec<Option<Positions>>)>,
    /// Beside each of `rooms`: the room, then the fill's first other room
    /// if any, whose reach prunes it whichever goes first (the two must
    /// touch).
    pub(super) pairs: Vec<([usize; 2], usize)>,
}

impl FillCache {
    pub(super) fn new(before: &Partial, order: &[usize], prep: &Prepared) -> Self {
        let mut rooms = Vec::new();
        let mut pairs = Vec::new();
        for &r in order {
            if !prep.touches_placed(before, r) {
                continue;
            }
            rooms.push((r, vec![None; prep.room_shapes[r].len()]));
            match order.iter().copied().find(|&x| x != r) {
                Some(next) => pairs.push(([r, next], 2)),
                None => pairs.push(([r, r], 1)),
            }
        }
        Self {
            before: before.clone(),
            rooms,
            pairs,
        }
    }
}

impl Run<'_, '_> {
    /// The positions of room `order[i]` with shape `s` in the intersection
    /// of all its placed neighbours' spaces (a position that misses one is
    /// not valid) that overlap no placed room, with the placed rooms near
    /// enough to matter; None when there are none (or the shape breaks the
    /// repeat mode, or a limit stopped the run). Each cut of the space by a
    /// placed room counts as an iteration.
    pub(super) fn free_positions(
        &mut self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
        cache: &mut FillCache,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let r = order[i];
        if !self.repeat_allows(layout, r, s) {
            return None;
        }
        let k = prep.room_shapes[r].iter().position(|&t| t == s)?;
        let Some(at) = cache.rooms.iter().position(|(x, _)| *x == r) else {
            // No placed neighbour before the fill: the fill's rooms only,
            // nothing to cache.
            return self.base_positions(layout, &order[i..], s);
        };
        if cache.rooms[at].1[k].is_none() {
            let (pair, len) = cache.pairs[at];
            let base = self.base_positions(&cache.before, &pair[..len], s);
            if self.stopped.is_some() {
                return None;
            }
            cache.rooms[at].1[k] = Some(base);
        }
        // Against the rooms placed before the fill the space is cut
        // already; only the fill's rooms placed since are left to apply.
        let fresh: Vec<usize> = order[..i]
            .iter()
            .copied()
            .filter(|&w| layout.shape[w] != NONE)
            .collect();
        let mut space: Option<ConfigSpace> = None;
        {
            let (base, _) = cache.rooms[at].1[k].as_ref()?.as_ref()?;
            for &w in &fresh {
                if prep.joined(r, w) {
                    let sp = self.space_at(layout.shape[w], layout.pos[w], s);
                    space = Some(match space {
                        None => self.intersect(base, &sp),
                        Some(acc) => self.intersect(&acc, &sp),
                    });
                }
            }
            if space.is_none() {
                space = Some(base.clone());
            }
        }
        let mut space = space?;
        if let Some(near_next) = self.reach_of_next(layout, order, i, s) {
            space = self.intersect(&space, &near_next);
        }
        if space.is_empty() {
            return None;
        }
        let (space, mut close) = self.cut_free(layout, r, s, space, Some(&fresh))?;
        if let Some(Some((_, near))) = &cache.rooms[at].1[k] {
            close.extend(near.iter().copied());
        }
        Some((space, close))
    }

    /// The positions of room `pair[0]` with shape `s` in the intersection
    /// of its placed neighbours' spaces, within reach of `pair[1]` if any
    /// (see [`Run::reach_of_next`]), that overlap no room placed in
    /// `layout`, with the placed rooms near enough to matter; the repeat
    /// mode is not asked (it depends on the fill's other room).
    pub(super) fn base_positions(
        &mut self,
        layout: &Partial,
        pair: &[usize],
        s: u32,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let r = pair[0];
        let mut space: Option<ConfigSpace> = None;
        for &(w, _) in &prep.neighbours[r] {
            if layout.shape[w] == NONE || w == r {
                continue;
            }
            let sp = self.space_at(layout.shape[w], layout.pos[w], s);
            space = Some(match space {
                None => sp,
                Some(acc) => self.intersect(&acc, &sp),
            });
        }
        let mut space = space?;
        if let Some(near_next) = self.reach_of_next(layout, pair, 0, s) {
            space = self.intersect(&space, &near_next);
        }
        self.cut_free(layout, r, s, space, None)
    }

    /// `space` without the positions at which room `r` with shape `s`
    /// overlaps a placed room (of `only`, when given), with the rooms near
    /// enough to matter; None when nothing is left or a limit stopped the
    /// run. Each cut counts as an iteration.
    pub(super) fn cut_free(
        &mut self,
        layout: &Partial,
        r: usize,
        s: u32,
        space: ConfigSpace,
        only: Option<&[usize]>,
    ) -> Option<(ConfigSpace, Vec<usize>)> {
        let prep = self.prep;
        let reach = space.bounds()?;
        // Rooms that can overlap (or come nearer than the minimum
        // distance to) the room anywhere in the space: their boxes meet
        // the space's box grown by the shape's box. Only these are tested
        // point by point.
        let min = prep.min_distance;
        let shape = &prep.shapes[s as usize];
        let (lo_x, lo_y) = (
            reach.x0 + shape.bounds.x0 - min,
            reach.y0 + shape.bounds.y0 - min,
        );
        let (hi_x, hi_y) = (
            reach.x1 + shape.bounds.x1 + min,
            reach.y1 + shape.bounds.y1 + min,
        );
        let all: Vec<usize>;
        let candidates: &[usize] = match only {
            Some(list) => list,
            None => {
                all = (0..layout.shape.len()).collect();
                &all
            }
        };
        let near: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&w| {
                if w == r || layout.shape[w] == NONE {
                    return false;
                }
                let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
                b.x0 + p.x < hi_x && lo_x < b.x1 + p.x && b.y0 + p.y < hi_y && lo_y < b.y1 + p.y
            })
            .collect();
        // The positions that overlap a nearby room go in whole runs (each
        // cut counted as an iteration), so that a room's long walls
        // against placed rooms are not tried point by point.
        let blocking: Vec<(&Shape, GridPoint)> = near
            .iter()
            .map(|&x| (&prep.shapes[layout.shape[x] as usize], layout.pos[x]))
            .collect();
        let (space, cuts, compared) = space.without_overlaps(shape, &blocking);
        self.charge(compared);
        for _ in 0..cuts {
            if !self.tick() {
                return None;
            }
        }
        (!space.is_empty()).then_some((space, near))
    }

    /// Where room `order[i]` with shape `s` can be so that the next room
    /// of the fill, when it must touch this one, can also touch its own
    /// placed neighbours: the next room's box (at most `W` wide and `H`
    /// high over its shapes) meets both boxes, so this room's box is at
    /// most `W` across and `H` up or down from each such neighbour's box.
    /// A necessary condition, as one box of positions; None when there is
    /// nothing to prune by (no such neighbour, or corridors, through
    /// which joined rooms do not touch).
    pub(super) fn reach_of_next(
        &self,
        layout: &Partial,
        order: &[usize],
        i: usize,
        s: u32,
    ) -> Option<ConfigSpace> {
        let prep = self.prep;
        let (r, &next) = (order[i], order.get(i + 1)?);
        // Rooms joined through a corridor do not touch: no prune then.
        if !prep.joined(r, next) || prep.problem.corridors.is_some() {
            return None;
        }
        let (mut wide, mut high) = (0, 0);
        for &t in &prep.room_shapes[next] {
            let b = prep.shapes[t as usize].bounds;
            wide = wide.max(b.x1 - b.x0);
            high = high.max(b.y1 - b.y0);
        }
        let own = prep.shapes[s as usize].bounds;
        let mut area = PointBox {
            x0: i32::MIN / 4,
            y0: i32::MIN / 4,
            x1: i32::MAX / 4,
            y1: i32::MAX / 4,
        };
        let mut any = false;
        for &(w, _) in &prep.neighbours[next] {
            if w == r || layout.shape[w] == NONE {
                continue;
            }
            any = true;
            let (b, p) = (prep.shapes[layout.shape[w] as usize].bounds, layout.pos[w]);
            area = PointBox {
                x0: area.x0.max(b.x0 + p.x - wide - own.x1),
                y0: area.y0.max(b.y0 + p.y - high - own.y1),
                x1: area.x1.min(b.x1 + p.x + wide - own.x0),
                y1: area.y1.min(b.y1 + p.y + high - own.y0),
            };
        }
        if !any {
            return None;
        }
        let boxes = if area.x0 <= area.x1 && area.y0 <= area.y1 {
            vec![area]
        } else {
            Vec::new()
        };
        Some(ConfigSpace { boxes })
    }
}
