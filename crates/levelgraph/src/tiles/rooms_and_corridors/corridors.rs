//! Step 4's cheap paths: each link drawn as an L (from the centres, then
//! from random cells) or a Z of three legs, checked cell by cell
//! ([`Ctx::check_path`]) and drawn as one corridor per stretch between rooms.

use super::ctx::{Ctx, FREE, KIND, NONE, OPEN};
use crate::rng::Rng;
use crate::tiles::map::{Tile, TileCorridor, TileRect};

/// Random pairs of cells tried as an L's ends after the two centres.
pub const L_OFFSET_TRIES: usize = 4;
/// Paths of three legs (a Z or an S) between random cells of two rooms
/// tried after the Ls and before a search: each costs at most its length,
/// a search up to the whole map.
pub const Z_TRIES: usize = 8;

/// The path [`Ctx::build_path`] set up, as geometry, so a cell's index,
/// column and row are found without a division and without listing the
/// cells: from `start` (cell index `first`), `legs[i]` steps of `steps[i]`
/// (`offsets[i]` added to the index, wrapping) for each leg in turn.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PathShape {
    pub(super) start: [i64; 2],
    pub(super) first: usize,
    pub(super) steps: [[i64; 2]; 3],
    pub(super) offsets: [usize; 3],
    pub(super) legs: [usize; 3],
}

impl PathShape {
    /// The index of the path's last cell (its number of steps).
    pub(super) fn last(&self) -> usize {
        self.legs[0] + self.legs[1] + self.legs[2]
    }

    /// The map index of the path's cell `k`.
    pub(super) fn cell(&self, k: usize) -> usize {
        let mut c = self.first;
        let mut left = k;
        for (&offset, &len) in self.offsets.iter().zip(&self.legs) {
            let n = left.min(len);
            c = c.wrapping_add(offset.wrapping_mul(n));
            left -= n;
        }
        c
    }

    /// Whether `test` holds for the map index of every cell `first..=last`.
    pub(super) fn all_cells(
        &self,
        first: usize,
        last: usize,
        mut test: impl FnMut(usize) -> bool,
    ) -> bool {
        let mut c = self.cell(first);
        if !test(c) {
            return false;
        }
        let (mut k, mut end) = (first, 0);
        for (&offset, &len) in self.offsets.iter().zip(&self.legs) {
            end += len;
            while k < last && k < end {
                k += 1;
                c = c.wrapping_add(offset);
                if !test(c) {
                    return false;
                }
            }
        }
        true
    }

    /// The column and row of the path's cell `k`.
    pub(super) fn xy(&self, k: usize) -> [u32; 2] {
        let mut at = self.start;
        let mut left = k;
        for (step, &len) in self.steps.iter().zip(&self.legs) {
            let n = left.min(len);
            at[0] += n as i64 * step[0];
            at[1] += n as i64 * step[1];
            left -= n;
        }
        [at[0] as u32, at[1] as u32]
    }
}

impl Ctx {
    /// Draws one link of the list of steps 2 and 3: an L if one keeps the
    /// rules, else a searched route. Returns `false` when the link was
    /// needed (its rooms not yet connected) and nothing was drawn; a link whose rooms
    /// are already connected is dropped when no route is found.
    pub(super) fn link(&mut self, a: usize, b: usize, rng: &mut Rng) -> bool {
        let required = self.sets.find(a) != self.sets.find(b);
        if self.draw_l(a, b, rng) || (!required && self.loop_budget == 0) {
            return true;
        }
        self.draw_searched(a, b, required) || !required
    }

    /// Step 4 with doors: Ls from the centres (both axis orders, the first
    /// chosen at random), then from random cell pairs, then [`Z_TRIES`]
    /// paths of three legs between random cells (the middle leg at a random
    /// place between them), cheaper than the search that comes after. The
    /// plain algorithm's L carves through whatever lies on its way; here it
    /// may cross another room too, through a door on each side (entering
    /// and leaving straight), and is drawn as one corridor per stretch
    /// between rooms.
    pub(super) fn draw_l(&mut self, a: usize, b: usize, rng: &mut Rng) -> bool {
        let (ra, rb) = (self.rects[a], self.rects[b]);
        let horizontal_first = rng.below_inlined(2) == 0;
        for t in 0..=L_OFFSET_TRIES {
            let (pa, pb) = if t == 0 {
                (ra.center(), rb.center())
            } else {
                (random_cell(&ra, rng), random_cell(&rb, rng))
            };
            for horizontal in [horizontal_first, !horizontal_first] {
                let axis = usize::from(!horizontal);
                self.build_path(pa, pb, horizontal, pb[axis]);
                if self.check_path() {
                    self.draw_path();
                    return true;
                }
            }
        }
        for _ in 0..Z_TRIES {
            let (pa, pb) = (random_cell(&ra, rng), random_cell(&rb, rng));
            let horizontal = rng.below_inlined(2) == 0;
            let axis = usize::from(!horizontal);
            let (lo, hi) = (pa[axis].min(pb[axis]), pa[axis].max(pb[axis]));
            let middle = lo + rng.below_inlined((hi - lo + 1) as usize) as u32;
            self.build_path(pa, pb, horizontal, middle);
            if self.check_path() {
                self.draw_path();
                return true;
            }
        }
        false
    }

    /// Sets `l_shape` to the path from `pa` to `pb` (both ends included):
    /// along x when `horizontal_first` (else along y) to `middle` on that
    /// axis, along the other axis all the way, then along the first axis
    /// again to `pb`. With `middle` at `pb`'s coordinate this is the plain
    /// algorithm's L; with `middle` between the two ends (as every caller draws it) the
    /// path is monotone in both axes, so it enters and leaves each room at
    /// most once.
    #[inline]
    pub(super) fn build_path(
        &mut self,
        pa: [u32; 2],
        pb: [u32; 2],
        horizontal_first: bool,
        middle: u32,
    ) {
        let w = self.w as i64;
        let axis = usize::from(!horizontal_first);
        let other = 1 - axis;
        let unit = |axis: usize, from: u32, to: u32| -> [i64; 2] {
            let sign = if to >= from { 1 } else { -1 };
            if axis == 0 {
                [sign, 0]
            } else {
                [0, sign]
            }
        };
        let steps = [
            unit(axis, pa[axis], middle),
            unit(other, pa[other], pb[other]),
            unit(axis, middle, pb[axis]),
        ];
        let legs = [
            pa[axis].abs_diff(middle) as usize,
            pa[other].abs_diff(pb[other]) as usize,
            middle.abs_diff(pb[axis]) as usize,
        ];
        self.l_shape = PathShape {
            start: [i64::from(pa[0]), i64::from(pa[1])],
            first: pa[1] as usize * self.w + pa[0] as usize,
            steps,
            offsets: steps.map(|s| (s[0] + s[1] * w) as usize),
            legs,
        };
    }

    /// Draws the path [`Ctx::check_path`] accepted: one corridor per stretch
    /// (door to door) that opens a cell, all joined to the rooms at their
    /// ends and to the open cells the L met.
    pub(super) fn draw_path(&mut self) {
        let node = self.sets.push();
        // The root of the path's component, kept here: each join then
        // finds only the other side's root.
        let mut root = node;
        let shape = self.l_shape;
        let stretches = std::mem::take(&mut self.stretches);
        for &(s, e) in &stretches {
            let from = self.owner[shape.cell(s - 1)];
            let to = self.owner[shape.cell(e + 1)];
            root = self.sets.union(root, from as usize);
            root = self.sets.union(root, to as usize);
            let first = shape.cell(s);
            if self.is_open(first) && shape.all_cells(s, e, |c| self.is_open(c)) {
                continue;
            }
            if !self.is_open(first) {
                self.open_door(first, shape.xy(s), from);
            }
            // One pass lists the stretch's cells and opens those between
            // its two doors, the ring cells at its ends (between them it
            // runs on free cells only, so a cell still `FREE` is one to
            // open). The index and the column and row step together, the
            // leg picked without a branch: one loop per stretch, not one
            // per leg, as the end of a loop over a run of random length is
            // a branch mispredicted.
            let ends = [shape.legs[0], shape.legs[0] + shape.legs[1]];
            let offsets = shape.offsets;
            let steps = shape.steps.map(|[dx, dy]| [dx as u32, dy as u32]);
            // Slices of one length, so one bounds test serves the three.
            let zone = &mut self.zone[..];
            let tiles = &mut self.map.cells[..zone.len()];
            let owner = &mut self.owner[..zone.len()];
            let (mut c, mut at) = (first, shape.xy(s));
            // Written in place rather than pushed: a push's length lives in
            // memory, a slot of a slice in a register.
            let mut cells = vec![at; e + 1 - s];
            for (slot, k) in cells[1..].iter_mut().zip(s + 1..e + 1) {
                let leg = usize::from(k > ends[0]) + usize::from(k > ends[1]);
                c = c.wrapping_add(offsets[leg]);
                at = [
                    at[0].wrapping_add(steps[leg][0]),
                    at[1].wrapping_add(steps[leg][1]),
                ];
                *slot = at;
                debug_assert!(
                    k == e || zone[c] & KIND == FREE,
                    "a stretch's inner cell is free"
                );
                if zone[c] == FREE {
                    tiles[c] = Tile::CORRIDOR;
                    zone[c] = FREE | OPEN;
                    owner[c] = node as u32;
                }
            }
            if !self.is_open(c) {
                self.open_door(c, at, to);
            }
            self.map.corridors.push(TileCorridor {
                cells,
                rooms: [Some(from as usize), Some(to as usize)],
            });
        }
        // Consecutive cells met often share an owner (a corridor crossed or
        // run beside): one union each is enough.
        let mut last = NONE;
        for i in 0..self.meets.len() {
            let met = self.owner[self.meets[i]];
            if met != last {
                root = self.sets.union(root, met as usize);
                last = met;
            }
        }
        self.stretches = stretches;
    }
}

pub(super) fn random_cell(r: &TileRect, rng: &mut Rng) -> [u32; 2] {
    [
        r.x + rng.below_inlined(r.width as usize) as u32,
        r.y + rng.below_inlined(r.height as usize) as u32,
    ]
}
