//! Adding a chain by annealing: a greedy first placement, then simulated
//! annealing over perturbations of one room at a time.

use super::energy::Terms;
use super::run::{Partial, Run, NONE};
use crate::exact::{exp, ln};
use crate::layout::config_space::ConfigSpace;
use crate::layout::polygon::GridPoint;

impl Run<'_, '_> {
    /// Valid extensions of `current` by `chain` (already counted in its
    /// `chains_done`): a greedy placement, then simulated annealing,
    /// keeping up to [`LayoutSettings::layouts_per_chain`](super::LayoutSettings::layouts_per_chain) sufficiently
    /// different valid layouts, most found first.
    pub(super) fn anneal(&mut self, mut current: Partial, chain: &[usize]) -> Vec<Partial> {
        self.greedy(&mut current, chain);
        let (slot, mut pair, mut own, mut terms) = self.chain_terms(&current, chain);
        let n = current.shape.len();
        let mut row = vec![Terms::default(); n];
        let mut energy = self.energy_of(terms);
        let mut found: Vec<Partial> = Vec::new();
        // Platform-independent ln and exp: a last bit can flip an
        // acceptance, and layouts must be the same bytes everywhere.
        let t0 = -1.0 / ln(0.2);
        let t1 = -1.0 / ln(0.01);
        let cycles = self.settings.cycles.max(1);
        let ratio = exp(ln(t1 / t0) / f64::from(cycles.max(2) - 1));
        let mut temperature = t0;
        let mut delta_average = 0.0f64;
        let mut accepted_worse = 0u64;
        let mut since_new = 0u32;
        'cycles: for _ in 0..cycles {
            for _ in 0..self.settings.trials_per_cycle {
                if found.len() >= self.settings.layouts_per_chain
                    || (!found.is_empty() && since_new >= self.settings.trials_without_new)
                    || !self.tick()
                {
                    break 'cycles;
                }
                since_new = since_new.saturating_add(1);
                // Perturb one room in place: only its pairs change, each
                // counted once in the chain's terms.
                let i = self.rng.below(chain.len());
                let r = chain[i];
                let before = (current.shape[r], current.pos[r]);
                self.perturb(&mut current, r);
                let mut new = self.corridor_term(&current, r);
                for (w, t) in row.iter_mut().enumerate() {
                    if current.shape[w] != NONE && w != r {
                        *t = self.pair_term(&current, r, w);
                        new.add(*t);
                    }
                }
                let mut next_terms = terms;
                next_terms.sub(own[i]);
                next_terms.add(new);
                let e = self.energy_of(next_terms);
                if e == 0.0 {
                    if let Some(done) = self.with_corridors(&current) {
                        if self.different_enough(&done, &found, chain) {
                            found.push(done);
                            since_new = 0;
                        }
                    }
                }
                let delta = e - energy;
                let accept = if delta <= 0.0 {
                    true
                } else {
                    if accepted_worse == 0 {
                        delta_average = delta;
                    }
                    let p = exp(-delta / (delta_average * temperature));
                    self.rng.unit() < p
                };
                if accept {
                    if delta > 0.0 {
                        accepted_worse += 1;
                        delta_average += (delta - delta_average) / accepted_worse as f64;
                    }
                    terms = next_terms;
                    energy = e;
                    // The moved room's row, and its column in the other
                    // chain rooms' rows.
                    own[i] = new;
                    for w in 0..n {
                        if current.shape[w] == NONE || w == r {
                            continue;
                        }
                        pair[i * n + w] = row[w];
                        if slot[w] != usize::MAX {
                            let j = slot[w];
                            own[j].sub(pair[j * n + r]);
                            own[j].add(row[w]);
                            pair[j * n + r] = row[w];
                        }
                    }
                } else {
                    (current.shape[r], current.pos[r]) = before;
                }
            }
            temperature *= ratio;
        }
        found
    }

    /// Every chain room's terms against every placed room (`pair[i * n +
    /// w]` for the chain's room `i`, `own[i]` their sum with its corridor
    /// term), so that a trial computes only the moved room's new terms,
    /// not its old ones; `slot[r]`: room `r`'s index in the chain
    /// (`usize::MAX`: none); and the chain's energy terms, which count each
    /// pair with a chain room once: a pair of two chain rooms from its lower
    /// room's row.
    fn chain_terms(
        &self,
        current: &Partial,
        chain: &[usize],
    ) -> (Vec<usize>, Vec<Terms>, Vec<Terms>, Terms) {
        let n = current.shape.len();
        let mut slot = vec![usize::MAX; n];
        for (i, &r) in chain.iter().enumerate() {
            slot[r] = i;
        }
        let mut pair = vec![Terms::default(); chain.len() * n];
        let mut own: Vec<Terms> = Vec::with_capacity(chain.len());
        let mut terms = Terms::default();
        for (i, &r) in chain.iter().enumerate() {
            let mut sum = self.corridor_term(current, r);
            terms.add(sum);
            for w in 0..n {
                if current.shape[w] != NONE && w != r {
                    let t = self.pair_term(current, r, w);
                    pair[i * n + w] = t;
                    sum.add(t);
                    if slot[w] == usize::MAX || r < w {
                        terms.add(t);
                    }
                }
            }
            own.push(sum);
        }
        (slot, pair, own, terms)
    }

    /// Places the chain's rooms one by one in breadth-first order from the
    /// placed rooms, each at the best of a few positions from the maximum
    /// intersection of its placed neighbours' spaces, over its shapes.
    pub(super) fn greedy(&mut self, layout: &mut Partial, chain: &[usize]) {
        let prep = self.prep;
        let mut order: Vec<usize> = Vec::with_capacity(chain.len());
        let mut queued = vec![false; prep.problem.rooms.len()];
        // Rooms next to placed ones first, then breadth-first.
        for &r in chain {
            if prep.neighbours[r]
                .iter()
                .any(|&(w, _)| layout.shape[w] != NONE)
            {
                order.push(r);
                queued[r] = true;
            }
        }
        if order.is_empty() {
            order.push(chain[0]);
            queued[chain[0]] = true;
        }
        let mut k = 0;
        while k < order.len() {
            let v = order[k];
            for &(w, _) in &prep.neighbours[v] {
                if !queued[w] && chain.contains(&w) {
                    queued[w] = true;
                    order.push(w);
                }
            }
            k += 1;
        }
        for &r in chain {
            if !queued[r] {
                order.push(r);
            }
        }
        for &r in &order {
            let mut best: Option<(f64, u32, GridPoint)> = None;
            let shapes = prep.room_shapes[r].clone();
            for &s in &shapes {
                if !self.repeat_allows(layout, r, s) {
                    continue;
                }
                for _ in 0..4 {
                    if !self.tick() {
                        break;
                    }
                    let Some(p) = self.sample_position(layout, r, s) else {
                        break;
                    };
                    layout.shape[r] = s;
                    layout.pos[r] = p;
                    let e = self.room_energy(layout, r);
                    if !matches!(best, Some((b, _, _)) if b <= e) {
                        best = Some((e, s, p));
                    }
                }
            }
            let (s, p) = match best {
                Some((_, s, p)) => (s, p),
                None => (shapes[self.rng.below(shapes.len())], GridPoint::default()),
            };
            layout.shape[r] = s;
            layout.pos[r] = p;
        }
    }

    /// A position for room `r` with shape `s`: a random point of the largest
    /// non-empty intersection of its placed neighbours' spaces, or with
    /// chance [`LayoutSettings::contact_bias`](super::LayoutSettings::contact_bias) an end of that point's
    /// segment (None when it has no placed neighbour: then the origin, or
    /// when every space is empty).
    pub(super) fn sample_position(
        &mut self,
        layout: &Partial,
        r: usize,
        s: u32,
    ) -> Option<GridPoint> {
        let prep = self.prep;
        let spaces: Vec<ConfigSpace> = prep.neighbours[r]
            .iter()
            .filter(|&&(w, _)| layout.shape[w] != NONE && w != r)
            .map(|&(w, _)| self.space_at(layout.shape[w], layout.pos[w], s))
            .filter(|sp| !sp.is_empty())
            .collect();
        if spaces.is_empty() {
            let placed_any = prep.neighbours[r]
                .iter()
                .any(|&(w, _)| layout.shape[w] != NONE);
            return (!placed_any).then_some(GridPoint::default());
        }
        let space = self.maximum_intersection(&spaces);
        let w = space.weight();
        if w == 0 {
            return None;
        }
        let k = ((self.rng.unit() * w as f64) as u64).min(w - 1);
        // The segment of a uniform point, so that long segments are still
        // chosen more often; then one of its ends (see `contact_bias`).
        let bias = self.settings.contact_bias;
        if bias > 0.0 && self.rng.unit() < bias {
            return Some(space.end_of_nth(k, self.rng.below(2) == 1));
        }
        Some(space.nth(k))
    }

    /// The intersection of as many of `spaces` as possible (largest subsets
    /// first; among subsets of one size, a random one that is not empty).
    pub(super) fn maximum_intersection(&mut self, spaces: &[ConfigSpace]) -> ConfigSpace {
        let k = spaces.len();
        if k == 1 {
            return spaces[0].clone();
        }
        let all = spaces[1..]
            .iter()
            .fold(spaces[0].clone(), |acc, s| self.intersect(&acc, s));
        if !all.is_empty() || k > 6 {
            if all.is_empty() {
                return spaces[self.rng.below(k)].clone();
            }
            return all;
        }
        for size in (1..k).rev() {
            let mut options: Vec<ConfigSpace> = Vec::new();
            for mask in 1u32..(1 << k) {
                if mask.count_ones() as usize != size {
                    continue;
                }
                let mut acc: Option<ConfigSpace> = None;
                for (i, s) in spaces.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        acc = Some(match acc {
                            None => s.clone(),
                            Some(a) => self.intersect(&a, s),
                        });
                    }
                }
                if let Some(a) = acc.filter(|a| !a.is_empty()) {
                    options.push(a);
                }
            }
            if !options.is_empty() {
                let i = self.rng.below(options.len());
                return options.swap_remove(i);
            }
        }
        ConfigSpace::default()
    }

    /// Changes room `r`: its shape (keeping its position), or its
    /// position (from its neighbours' spaces).
    pub(super) fn perturb(&mut self, layout: &mut Partial, r: usize) {
        let prep = self.prep;
        let shapes = &prep.room_shapes[r];
        if shapes.len() > 1 && self.rng.unit() < self.settings.shape_change {
            let s = shapes[self.rng.below(shapes.len())];
            if self.repeat_allows(layout, r, s) {
                layout.shape[r] = s;
                return;
            }
        }
        if let Some(p) = self.sample_position(layout, r, layout.shape[r]) {
            layout.pos[r] = p;
        }
    }

    /// Whether `layout` differs from every one in `found` by more than a
    /// fraction of a room's size on average over the chain.
    pub(super) fn different_enough(
        &self,
        layout: &Partial,
        found: &[Partial],
        chain: &[usize],
    ) -> bool {
        let side = self.prep.omega.sqrt();
        found.iter().all(|f| {
            let mut sum = 0.0;
            for &r in chain {
                let d = layout.pos[r] - f.pos[r];
                sum += f64::from(d.x.abs() + d.y.abs());
                if layout.shape[r] != f.shape[r] {
                    sum += side;
                }
            }
            sum / chain.len() as f64 > 0.4 * side
        })
    }
}
