//! Whether an L or a Z keeps every corridor rule, read off the zone grid:
//! leg by leg, plain runs eight cells at a time (a byte mask), with the
//! plain one-cell-at-a-time reference beside it for the tests.

use super::ctx::{Ctx, FLOOR, FREE, KIND, OPEN, RING};

impl Ctx {
    /// Whether the path in `l_shape` keeps every rule: it runs on free
    /// cells and room floor only, passing each room's ring straight through
    /// a door cell, and closes no 2 × 2 block of corridor and door. Records
    /// in `stretches` the index ranges of the parts outside rooms, door to
    /// door, and in `meets` the open cells it crosses or touches. Stops at
    /// the first cell that breaks a rule, so a refused path costs only the
    /// cells up to its fault.
    ///
    /// Each cell off the floor reads its two neighbours off the path, and a
    /// block's diagonal only when both its sides are open; the neighbours
    /// on the path count as open unless they are floor (they will be
    /// opened). The cells of a monotone path in one block are consecutive,
    /// and every such block is seen at one of them: one cell (a turn) with
    /// its two neighbours off the path, two with the off-path cell beside
    /// either, three at the middle one, whose diagonal is the fourth. So
    /// cells already open are tested too: the middle one may be.
    ///
    /// The cells are walked leg by leg from the shape: inside a leg a cell
    /// is entered and left by the same step, so only the cells where two
    /// legs meet take the turn's tests.
    #[inline]
    pub(super) fn check_path(&mut self) -> bool {
        self.stretches.clear();
        self.meets.clear();
        let shape = &self.l_shape;
        let mut check = PathCheck {
            zone: &self.zone,
            w: self.w,
            stretches: &mut self.stretches,
            meets: &mut self.meets,
            start: usize::MAX,
        };
        let last = shape.last();
        let mut c = shape.first;
        let mut k = 0;
        for leg in 0..3 {
            let (step, len) = (shape.offsets[leg], shape.legs[leg]);
            if len == 0 {
                continue;
            }
            // Every cell of the leg but its last is left by the same step.
            let mut straight = len - 1;
            while straight > 0 {
                let (skip, next_plain) = check.plain_cells(c, step, straight);
                if skip > 0 {
                    c = c.wrapping_add(step.wrapping_mul(skip));
                    k += skip;
                    straight -= skip;
                    // A run cut short ends at a cell that needs the full
                    // test: take it at once rather than read again.
                    if next_plain || straight == 0 {
                        continue;
                    }
                }
                c = c.wrapping_add(step);
                k += 1;
                straight -= 1;
                if !check.cell(c, step, step, k) {
                    return false;
                }
            }
            c = c.wrapping_add(step);
            k += 1;
            if k == last {
                break;
            }
            // The leg's last cell is left by the next non-empty leg's step.
            let next = (leg + 1..3)
                .find(|&l| shape.legs[l] > 0)
                .map_or(step, |l| shape.offsets[l]);
            if !check.cell(c, step, next, k) {
                return false;
            }
        }
        true
    }
}

/// What [`Ctx::check_path`] works with, borrowed apart from the path's
/// shape so that nothing is copied per path.
struct PathCheck<'a> {
    zone: &'a [u8],
    w: usize,
    stretches: &'a mut Vec<(usize, usize)>,
    meets: &'a mut Vec<usize>,
    /// The path index of the door the current stretch began at
    /// (`usize::MAX` inside a room).
    start: usize,
}

impl PathCheck<'_> {
    /// How many of the next cells after `c` along `step` (at most `left`)
    /// are plain, read a few at a time: free wall, floor or corridor with
    /// nothing open across the path, so [`PathCheck::cell`] would pass them
    /// and record only the corridor cells as met (which this records, in
    /// walking order). 0 when the next cell needs the full test. Along a
    /// row, 8 cells and the 8 above and below come in three reads (a plain
    /// byte has no bit but [`FLOOR`]'s or [`OPEN`]'s, never both, and an
    /// open byte has [`OPEN`]), and the plain ones before the first that is
    /// not are counted; along a column, a cell and its two sides come in
    /// one. Reads that would leave the grid count as not plain. Also says
    /// whether the cell after those may be plain too (`false`: it is not).
    ///
    /// A path often runs on a corridor drawn before (out of the same door,
    /// say): its cells pass here, not one full test each.
    #[inline(always)]
    fn plain_cells(&mut self, c: usize, step: usize, left: usize) -> (usize, bool) {
        const NOT_PLAIN: u64 = !(FLOOR as u64 | OPEN as u64) & 0xFF;
        const OPEN_BYTE: u64 = OPEN as u64;
        const ONES: u64 = u64::from_le_bytes([1; 8]);
        let zone = self.zone;
        let word = |i: usize| -> u64 {
            zone.get(i..)
                .and_then(|rest| rest.first_chunk::<8>())
                .map_or(u64::MAX, |b| u64::from_le_bytes(*b))
        };
        let w = self.w;
        if step == 1 || step == usize::MAX {
            // The 8 cells after c, lowest address first: c+1.. rightward,
            // ..c-1 leftward.
            let lo = if step == 1 { c + 1 } else { c.wrapping_sub(8) };
            let (row, up, down) = (word(lo), word(lo.wrapping_sub(w)), word(lo.wrapping_add(w)));
            // A non-zero byte for each cell that is not plain.
            let bad = row & (NOT_PLAIN * ONES) | (up | down) & (OPEN_BYTE * ONES);
            let plain = if step == 1 {
                bad.trailing_zeros()
            } else {
                bad.leading_zeros()
            } as usize
                / 8;
            let n = plain.min(left);
            // The corridor cells among the n passed, in walking order: the
            // low bytes first rightward, the high bytes first leftward.
            let mut open = row & (OPEN_BYTE * ONES);
            if open != 0 && n > 0 {
                if step == 1 {
                    open &= u64::MAX >> (64 - 8 * n);
                    while open != 0 {
                        self.meets.push(lo + open.trailing_zeros() as usize / 8);
                        open &= open - 1;
                    }
                } else {
                    open &= u64::MAX << (64 - 8 * n);
                    while open != 0 {
                        let bit = 63 - open.leading_zeros();
                        self.meets.push(lo + bit as usize / 8);
                        open &= !(1 << bit);
                    }
                }
            }
            (n, plain == 8)
        } else {
            // The next cell and its left and right neighbours: bytes 0..3
            // of the word at its left neighbour.
            let next = c.wrapping_add(step);
            let v = word(next.wrapping_sub(1));
            let mask = OPEN_BYTE | NOT_PLAIN << 8 | OPEN_BYTE << 16;
            let plain = v & mask == 0;
            if plain && v & OPEN_BYTE << 8 != 0 {
                self.meets.push(next);
            }
            (usize::from(plain), plain)
        }
    }

    /// [`PathCheck::plain_cells`] one cell at a time, without the 8-byte
    /// reads: the plain reference the tuned version is held to (the
    /// proptest `plain_cells_agrees_with_a_cell_by_cell_reference`). Kept
    /// because the reads pay: without them a map took up to 16 % longer
    /// (tiles benchmark, 2026-11-28).
    #[cfg(test)]
    fn plain_cells_reference(&mut self, c: usize, step: usize, left: usize) -> (usize, bool) {
        let zone = self.zone;
        let w = self.w;
        // Whether the 8 bytes from `i` lie inside the grid (the tuned
        // reads count a read past its end as not plain).
        let readable = |i: usize| i.checked_add(8).is_some_and(|end| end <= zone.len());
        let plain_kind = |i: usize| zone[i] & !(FLOOR | OPEN) == 0;
        let open = |i: usize| zone[i] & OPEN != 0;
        if step == 1 || step == usize::MAX {
            let lo = if step == 1 { c + 1 } else { c.wrapping_sub(8) };
            if !(readable(lo) && readable(lo.wrapping_sub(w)) && readable(lo.wrapping_add(w))) {
                return (0, false);
            }
            // The k-th cell after c in walking order.
            let cell = |k: usize| if step == 1 { c + 1 + k } else { c - 1 - k };
            let plain = (0..8)
                .take_while(|&k| {
                    let x = cell(k);
                    plain_kind(x) && !open(x - w) && !open(x + w)
                })
                .count();
            let n = plain.min(left);
            for k in 0..n {
                if open(cell(k)) {
                    self.meets.push(cell(k));
                }
            }
            (n, plain == 8)
        } else {
            let next = c.wrapping_add(step);
            if !readable(next.wrapping_sub(1)) {
                return (0, false);
            }
            let plain = !open(next - 1) && plain_kind(next) && !open(next + 1);
            if plain && open(next) {
                self.meets.push(next);
            }
            (usize::from(plain), plain)
        }
    }

    /// [`Ctx::check_path`]'s tests at path cell `k`, map cell `c`, entered
    /// by index step `din` and left by `dout`.
    #[inline(always)]
    fn cell(&mut self, c: usize, din: usize, dout: usize, k: usize) -> bool {
        let zone = self.zone;
        let z = zone[c];
        if z == FLOOR {
            return true;
        }
        let open = |i: usize| zone[i] & OPEN != 0;
        let (p, n) = (c.wrapping_sub(din), c.wrapping_add(dout));
        match z & KIND {
            FREE => {}
            // A door is crossed straight, from floor to free or back.
            RING if din == dout => match (zone[p] & KIND, zone[n] & KIND) {
                (FLOOR, FREE) => self.start = k,
                (FREE, FLOOR) if self.start != usize::MAX => {
                    self.stretches.push((self.start, k));
                    self.start = usize::MAX;
                }
                _ => return false,
            },
            _ => return false,
        }
        if z & OPEN != 0 {
            self.meets.push(c);
        }
        let (s1, s2) = if din == dout {
            let across = if din == 1 || din == usize::MAX {
                self.w
            } else {
                1
            };
            (c + across, c - across)
        } else {
            (c.wrapping_add(din), c.wrapping_sub(dout))
        };
        let (o1, o2) = (open(s1), open(s2));
        if din == dout && !(o1 || o2) {
            // A straight cell with nothing open across the path closes
            // no block: every block holding it holds s1 or s2.
            return true;
        }
        if o1 {
            self.meets.push(s1);
        }
        if o2 {
            self.meets.push(s2);
        }
        let (p_open, n_open) = (zone[p] != FLOOR, zone[n] != FLOOR);
        // The fourth cell of the block of a, b and the path cell c.
        let diagonal = |a: usize, b: usize| open(a.wrapping_add(b).wrapping_sub(c));
        let block = if din == dout {
            // s1 and s2 lie across the path; each pairs with p and n.
            (o1 && ((p_open && diagonal(s1, p)) || (n_open && diagonal(s1, n))))
                || (o2 && ((p_open && diagonal(s2, p)) || (n_open && diagonal(s2, n))))
        } else {
            // At the turn s1 is straight on from p and s2 straight back
            // from n: the pairs are (p, n), (p, s2), (s1, n), (s1, s2).
            (p_open && n_open && diagonal(p, n))
                || (p_open && o2 && diagonal(p, s2))
                || (o1 && n_open && diagonal(s1, n))
                || (o1 && o2 && diagonal(s1, s2))
        };
        !block
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::tiles::rooms_and_corridors::ctx::{BORDER, CORNER};

    /// A zone cell as the path checks see it: mostly free wall and floor,
    /// some of it open, and the kinds a path may not cross.
    fn zone_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            4 => Just(FREE),
            3 => Just(FLOOR),
            3 => Just(FREE | OPEN),
            1 => Just(FLOOR | OPEN),
            1 => Just(BORDER),
            1 => Just(RING),
            1 => Just(RING | OPEN),
            1 => Just(CORNER),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The 8-byte reads of [`PathCheck::plain_cells`] give the count,
        /// the flag and the corridor cells met of the cell-by-cell
        /// reference, in every direction, at the grid's edges too.
        #[test]
        fn plain_cells_agrees_with_a_cell_by_cell_reference(
            (w, zone) in (2usize..40, 1usize..30)
                .prop_flat_map(|(w, h)| (Just(w), prop::collection::vec(zone_byte(), w * h))),
            at in any::<prop::sample::Index>(),
            direction in 0..4usize,
            left in 0usize..12,
        ) {
            let c = at.index(zone.len());
            let step = [1, usize::MAX, w, w.wrapping_neg()][direction];
            let (mut meets, mut reference_meets) = (Vec::new(), Vec::new());
            let tuned = PathCheck {
                zone: &zone,
                w,
                stretches: &mut Vec::new(),
                meets: &mut meets,
                start: usize::MAX,
            }
            .plain_cells(c, step, left);
            let reference = PathCheck {
                zone: &zone,
                w,
                stretches: &mut Vec::new(),
                meets: &mut reference_meets,
                start: usize::MAX,
            }
            .plain_cells_reference(c, step, left);
            prop_assert_eq!(tuned, reference);
            prop_assert_eq!(meets, reference_meets);
        }
    }
}
