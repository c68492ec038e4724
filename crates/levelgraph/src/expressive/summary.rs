//! The distribution of every metric over a run's levels, kept as exact
//! counts per value: memory grows with the distinct values (four decimals
//! at most, [`super::metric`]), not with the seeds, and the result does
//! not depend on the order levels are added in — so shards merged, or a
//! run on any number of threads, give the same summary to the byte.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::measure::{Record, Status};
use super::metric::{round4, Metric};

/// Values are kept as whole multiples of 10⁻⁴ (the CSV's precision).
const SCALE: f64 = 10_000.0;

fn key(x: f64) -> i64 {
    (x * SCALE).round() as i64
}

fn value(k: i64) -> f64 {
    k as f64 / SCALE
}

/// The pairs of metrics drawn as 2-D heat maps, after Smith & Whitehead's
/// linearity × leniency maps: size against loops, how straight against
/// how big, how much fetching against how locked.
pub const HEAT_MAP_PAIRS: [(Metric, Metric); 5] = [
    (Metric::Rooms, Metric::Cycles),
    (Metric::Rooms, Metric::Linearity),
    (Metric::Linearity, Metric::Branching),
    (Metric::GatingLocks, Metric::Backtracking),
    (Metric::Distance, Metric::Playthrough),
];

/// Counts of a run's records.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    seeds: u64,
    status: BTreeMap<Status, u64>,
    failures: BTreeMap<String, u64>,
    unfinishable: BTreeMap<String, u64>,
    hashes: HashSet<u64>,
    unhashed: u64,
    metrics: BTreeMap<Metric, BTreeMap<i64, u64>>,
    pairs: BTreeMap<(Metric, Metric), BTreeMap<(i64, i64), u64>>,
}

/// Five numbers and the mean of one metric over the levels that have it.
/// Quartiles interpolate linearly between order statistics (Hyndman &
/// Fan's type 7, the default of R and NumPy); every figure is rounded to
/// four decimals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Levels with a value.
    pub levels: u64,
    /// Smallest value.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Largest value.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Self {
        Tally::default()
    }

    /// Counts one record.
    pub fn add(&mut self, record: &Record) {
        self.seeds += 1;
        *self.status.entry(record.status).or_default() += 1;
        match record.status {
            Status::Failed => *self.failures.entry(record.why.clone()).or_default() += 1,
            Status::Unfinishable => *self.unfinishable.entry(record.why.clone()).or_default() += 1,
            _ => {}
        }
        if record.status != Status::Failed {
            match record.hash {
                Some(h) => {
                    self.hashes.insert(h);
                }
                None => self.unhashed += 1,
            }
        }
        for m in Metric::ALL {
            if let Some(x) = record.get(m) {
                *self
                    .metrics
                    .entry(m)
                    .or_default()
                    .entry(key(x))
                    .or_default() += 1;
            }
        }
        for (a, b) in HEAT_MAP_PAIRS {
            if let (Some(x), Some(y)) = (record.get(a), record.get(b)) {
                *self
                    .pairs
                    .entry((a, b))
                    .or_default()
                    .entry((key(x), key(y)))
                    .or_default() += 1;
            }
        }
    }

    /// Seeds counted.
    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// Seeds that ended with `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.status.get(&status).copied().unwrap_or(0)
    }

    /// Distinct levels among those derived, by canonical hash.
    pub fn distinct_levels(&self) -> u64 {
        self.hashes.len() as u64
    }

    /// Each failure code and how many seeds failed so.
    pub fn failures(&self) -> &BTreeMap<String, u64> {
        &self.failures
    }

    /// Each reason a level could not be finished and how many.
    pub fn unfinishable(&self) -> &BTreeMap<String, u64> {
        &self.unfinishable
    }

    /// The distinct values of `metric`, ascending, each with its levels.
    pub fn distribution(&self, metric: Metric) -> Vec<(f64, u64)> {
        self.metrics
            .get(&metric)
            .map(|d| d.iter().map(|(&k, &n)| (value(k), n)).collect())
            .unwrap_or_default()
    }

    /// The distinct value pairs of two metrics of [`HEAT_MAP_PAIRS`], each
    /// with its levels.
    pub fn joint(&self, x: Metric, y: Metric) -> Vec<((f64, f64), u64)> {
        self.pairs
            .get(&(x, y))
            .map(|d| {
                d.iter()
                    .map(|(&(a, b), &n)| ((value(a), value(b)), n))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The spread of `metric`; `None` when no level has it.
    pub fn spread(&self, metric: Metric) -> Option<Spread> {
        let dist = self.metrics.get(&metric)?;
        let n: u64 = dist.values().sum();
        if n == 0 {
            return None;
        }
        // The k-th smallest value (from 0).
        let nth = |k: u64| -> f64 {
            let mut seen = 0;
            for (&v, &c) in dist {
                seen += c;
                if k < seen {
                    return value(v);
                }
            }
            value(*dist.keys().next_back().expect("not empty"))
        };
        let quantile = |p: f64| -> f64 {
            let h = (n - 1) as f64 * p;
            let lo = h.floor();
            let (a, b) = (nth(lo as u64), nth((lo as u64 + 1).min(n - 1)));
            round4(a + (h - lo) * (b - a))
        };
        let total: i128 = dist.iter().map(|(&k, &c)| k as i128 * c as i128).sum();
        Some(Spread {
            levels: n,
            min: value(*dist.keys().next().expect("not empty")),
            q1: quantile(0.25),
            median: quantile(0.5),
            q3: quantile(0.75),
            max: value(*dist.keys().next_back().expect("not empty")),
            mean: round4(total as f64 / SCALE / n as f64),
        })
    }

    /// The summary as `summary.json` writes it, for the metrics `columns`.
    pub fn summary(&self, columns: &[Metric]) -> Summary {
        let share = |k: u64| {
            if self.seeds == 0 {
                0.0
            } else {
                round4(k as f64 / self.seeds as f64)
            }
        };
        let derived = self.seeds - self.count(Status::Failed);
        Summary {
            seeds: self.seeds,
            derived,
            derived_share: share(derived),
            completable: self.count(Status::Completable),
            completable_share: share(self.count(Status::Completable)),
            status: Status::ALL
                .into_iter()
                .map(|s| (s.name().to_owned(), self.count(s)))
                .collect(),
            distinct_levels: self.distinct_levels(),
            unhashed: self.unhashed,
            failures: self.failures.clone(),
            unfinishable: self.unfinishable.clone(),
            metrics: columns
                .iter()
                .filter_map(|&m| Some((m.name().to_owned(), self.spread(m)?)))
                .collect(),
        }
    }
}

/// What `summary.json` holds: shares are of all seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Seeds run.
    pub seeds: u64,
    /// Seeds whose level was derived (and placed, laid out, rasterized as
    /// asked).
    pub derived: u64,
    /// `derived / seeds`.
    pub derived_share: f64,
    /// Levels proved completable.
    pub completable: u64,
    /// `completable / seeds`.
    pub completable_share: f64,
    /// Seeds per status (`completable`, `unfinishable`, `unknown`,
    /// `unchecked`, `failed`).
    pub status: BTreeMap<String, u64>,
    /// Distinct levels by canonical form.
    pub distinct_levels: u64,
    /// Derived levels whose canonical labelling stopped at its node limit
    /// (not in `distinct_levels`).
    pub unhashed: u64,
    /// Failures by code.
    pub failures: BTreeMap<String, u64>,
    /// Unfinishable levels by reason code.
    pub unfinishable: BTreeMap<String, u64>,
    /// Per metric, its spread.
    pub metrics: BTreeMap<String, Spread>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seed: u64, rooms: Option<f64>) -> Record {
        let mut values = [None; Metric::ALL.len()];
        values[Metric::Rooms.index()] = rooms;
        Record {
            seed,
            status: Status::Unchecked,
            why: String::new(),
            hash: Some(seed % 3),
            values,
        }
    }

    #[test]
    fn quartiles_interpolate_as_type_7() {
        let mut t = Tally::new();
        for (i, x) in [1.0, 2.0, 3.0, 4.0].into_iter().enumerate() {
            t.add(&record(i as u64, Some(x)));
        }
        t.add(&record(9, None));
        let s = t.spread(Metric::Rooms).unwrap();
        // NumPy: quantile([1,2,3,4], [.25,.5,.75]) = 1.75, 2.5, 3.25.
        assert_eq!(
            (s.levels, s.min, s.q1, s.median, s.q3, s.max, s.mean),
            (4, 1.0, 1.75, 2.5, 3.25, 4.0, 2.5)
        );
        assert_eq!(t.distinct_levels(), 3);
        assert_eq!(t.spread(Metric::Cycles), None);
    }

    #[test]
    fn order_of_adding_does_not_matter() {
        let records: Vec<Record> = (0..50)
            .map(|s| record(s, Some(((s * 37) % 11) as f64 / 7.0)))
            .collect();
        let (mut a, mut b) = (Tally::new(), Tally::new());
        records.iter().for_each(|r| a.add(r));
        records.iter().rev().for_each(|r| b.add(r));
        let cols = [Metric::Rooms];
        assert_eq!(a.summary(&cols), b.summary(&cols));
    }
}
