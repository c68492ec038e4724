//! The one random source of levelgraph: ChaCha8 seeded from a `u64`, with
//! sampling written out here so results do not depend on the platform's
//! pointer width or on a sampling crate's version.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A seeded, portable random number generator.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator for `seed`. Same seed, same sequence, on every machine.
    pub fn seeded(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n`. **Panics** if `n == 0`.
    ///
    /// Lemire's multiply-and-reject method ("Fast Random Integer Generation
    /// in an Interval", 2019) on 64-bit draws: unbiased.
    pub fn below(&mut self, n: usize) -> usize {
        self.below_inlined(n)
    }

    /// [`Rng::below`] inlined where it is called: the same draws and the
    /// same results, for a generator that draws in a tight loop (rooms and
    /// corridors makes about 140 draws a map, where the call cost 5 % of
    /// the map). `below` itself stays a call, so the inlining of the
    /// derivation's hot path does not change.
    #[inline(always)]
    pub(crate) fn below_inlined(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        let n = n as u64;
        let mut m = u128::from(self.0.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.0.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as usize
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Index `i` with probability `weights[i] / sum`. Weights must be
    /// positive and finite; **panics** if `weights` is empty.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        self.weighted_by(weights.len(), |i| weights[i])
    }

    /// Index `i < n` with probability `weight(i) / sum`: [`Rng::weighted`]
    /// over weights read in place (the same draws and the same result), for
    /// callers whose weights sit inside other records. **Panics** if `n`
    /// is 0.
    #[inline(always)]
    pub fn weighted_by(&mut self, n: usize, weight: impl Fn(usize) -> f64) -> usize {
        assert!(n > 0, "weighted choice from nothing");
        let total: f64 = (0..n).map(&weight).sum();
        let mut r = self.unit() * total;
        for i in 0..n {
            let w = weight(i);
            if r < w {
                return i;
            }
            r -= w;
        }
        n - 1
    }
}

/// The seed of attempt `attempt` (0 is `seed` itself): SplitMix64's
/// finaliser of `seed + attempt · φ·2⁶⁴`, so neighbouring seeds give
/// unrelated retries. Used wherever a failed attempt is made again with
/// another seed: a geometric derivation whose drawing fails its test, and
/// `generate`'s level that cannot be laid out.
pub fn attempt_seed(seed: u64, attempt: u32) -> u64 {
    if attempt == 0 {
        return seed;
    }
    let mut z = seed.wrapping_add(u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_pinned_values() {
        let mut a = Rng::seeded(7);
        let mut b = Rng::seeded(7);
        let xs: Vec<usize> = (0..8).map(|_| a.below(1000)).collect();
        let ys: Vec<usize> = (0..8).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        // Pinned: a change of generator or sampling shows up here.
        let mut c = Rng::seeded(0);
        let first: Vec<usize> = (0..4).map(|_| c.below(100)).collect();
        assert_eq!(first, PINNED);
    }

    const PINNED: [usize; 4] = [70, 46, 69, 6];

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = Rng::seeded(1);
        let mut counts = [0u32; 5];
        for _ in 0..50_000 {
            counts[r.below(5)] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn weighted_follows_weights() {
        let mut r = Rng::seeded(3);
        let mut counts = [0u32; 3];
        for _ in 0..60_000 {
            counts[r.weighted(&[1.0, 2.0, 3.0])] += 1;
        }
        assert!((9_000..11_000).contains(&counts[0]), "{counts:?}");
        assert!((19_000..21_000).contains(&counts[1]), "{counts:?}");
        assert!((29_000..31_000).contains(&counts[2]), "{counts:?}");
    }
}
