//! Running a grammar over a range of seeds in parallel, in chunks whose
//! records come back in seed order.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::measure::Record;
use super::metric::{Metric, Stage};
use crate::grammar::CompiledGrammar;
use crate::pipeline::{self, Config};

/// An inclusive range of seeds, `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seeds {
    /// The first seed.
    pub first: u64,
    /// The last seed, included.
    pub last: u64,
}

/// One of `count` slices of a range of seeds, `index` from 1 (`--shard
/// 2/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which slice, from 1 to `count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Seeds {
    /// Reads `A..B` (A to B, both included, as a shell's `{1..10}`) or
    /// `N` (1 to N).
    ///
    /// # Errors
    /// A message when the text is neither, or B < A, or N is 0, or the last
    /// seed is 2^64 − 1 (so that the count fits a `u64`).
    pub fn parse(text: &str) -> Result<Seeds, String> {
        let text = text.trim();
        let number = |t: &str| {
            t.trim().parse::<u64>().map_err(|_| {
                format!(
                    "`{t}` is not a seed (a whole number from 0 to {})",
                    u64::MAX
                )
            })
        };
        let seeds = match text.split_once("..") {
            Some((a, b)) => Seeds {
                first: number(a)?,
                last: number(b.strip_prefix('=').unwrap_or(b))?,
            },
            None => Seeds {
                first: 1,
                last: number(text)?,
            },
        };
        if seeds.last == u64::MAX {
            return Err(format!("the last seed is at most {}", u64::MAX - 1));
        }
        if seeds.last < seeds.first {
            return Err(format!(
                "`{text}` is empty: seeds run from A to B with A ≤ B (`1..10000`), or from 1 to N (`10000`)"
            ));
        }
        Ok(seeds)
    }

    /// How many seeds (at least 1).
    pub fn len(&self) -> u64 {
        self.last - self.first + 1
    }

    /// Never empty: a range holds at least its first seed.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The slice `shard` of these seeds: `count` consecutive slices whose
    /// sizes differ by at most one, the earlier ones the smaller; `None`
    /// for an empty slice (more shards than seeds).
    pub fn shard(&self, shard: Shard) -> Option<Seeds> {
        let n = u128::from(self.len());
        let at = |k: u64| (n * u128::from(k) / u128::from(shard.count)) as u64;
        let (lo, hi) = (at(shard.index - 1), at(shard.index));
        (hi > lo).then(|| Seeds {
            first: self.first + lo,
            last: self.first + hi - 1,
        })
    }
}

impl Shard {
    /// Reads `K/N` with 1 ≤ K ≤ N.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: K/N with 1 ≤ K ≤ N, as `2/8`");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The fewest levels in a chunk, and the first chunk's size.
pub const MIN_CHUNK: u64 = 64;
/// The most levels in a chunk (its records are held until handed over).
pub const MAX_CHUNK: u64 = 8192;
/// About how long a chunk should take to make: long enough that the
/// threads' start and end of a chunk cost little, short enough that the
/// progress moves and Ctrl-C is answered soon.
pub const CHUNK_TIME: Duration = Duration::from_millis(100);

/// The size of the next chunk after one of `len` levels took `took`:
/// [`CHUNK_TIME`]'s worth at that pace, within [`MIN_CHUNK`] and
/// [`MAX_CHUNK`]. Chunk sizes change only how records are grouped on their
/// way to the sink, never which records or their order.
pub fn next_chunk(len: u64, took: Duration) -> u64 {
    let per_level = took.as_secs_f64() / len.max(1) as f64;
    if per_level <= 0.0 {
        return MAX_CHUNK;
    }
    let fits = CHUNK_TIME.as_secs_f64() / per_level;
    (fits as u64).clamp(MIN_CHUNK, MAX_CHUNK)
}

/// A grammar to run over seeds, with what to make of each level.
#[derive(Debug)]
pub struct Batch<'g> {
    grammar: &'g CompiledGrammar,
    config: Config,
    stages: Vec<Stage>,
    /// The batch's own worker threads; `None`: rayon's global pool.
    pool: Option<rayon::ThreadPool>,
}

impl<'g> Batch<'g> {
    /// Runs `grammar` with `config` (its layout and tile map settings;
    /// each seed gets one attempt, kept whether or not it can be finished:
    /// the range of the grammar, not of `generate`'s retries).
    ///
    /// For speed, give per-call limits by compiling the grammar with them
    /// rather than through `config` (which compiles it again per level).
    pub fn new(grammar: &'g CompiledGrammar, config: Config, layout: bool, tiles: bool) -> Self {
        let mut stages = vec![Stage::Mission];
        let rooms = grammar.model().rooms.is_some();
        if rooms && (layout || tiles) {
            stages.push(Stage::Layout);
        }
        if rooms && tiles {
            stages.push(Stage::Tiles);
        }
        let config = config
            .with_retries(false)
            .allow_unfinishable(true)
            .with_layout(layout)
            .with_tiles(tiles);
        Batch {
            grammar,
            config,
            stages,
            pool: None,
        }
    }

    /// Runs on `threads` worker threads of its own (0: rayon's global
    /// pool, one per core). The records are the same for any number.
    ///
    /// # Errors
    /// The threads could not be started.
    pub fn with_threads(mut self, threads: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        self.pool = match threads {
            0 => None,
            n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build()?),
        };
        Ok(self)
    }

    /// Runs `work` on the batch's threads.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    /// The stages measured: the mission graph, and the layout and tile map
    /// when asked for and the grammar has a `rooms` block.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The metric columns of this batch's records.
    pub fn columns(&self) -> Vec<Metric> {
        Metric::ALL
            .into_iter()
            .filter(|m| self.stages.contains(&m.stage()))
            .collect()
    }

    /// The level of one seed, as the batch makes it.
    ///
    /// # Errors
    /// Why the seed made no level ([`crate::pipeline::GenerateError`]).
    pub fn level(&self, seed: u64) -> Result<pipeline::Level, pipeline::GenerateError> {
        pipeline::generate(self.grammar, seed, &self.config)
    }

    /// The record of one seed.
    pub fn record(&self, seed: u64) -> Record {
        Record::of(seed, &self.level(seed), self.grammar.play())
    }

    /// The records of `first..=last`, made in parallel on the batch's
    /// threads, in seed order.
    fn chunk(&self, first: u64, last: u64) -> Vec<Record> {
        self.install(|| {
            // Each level a piece of its own (`with_max_len(1)`, which needs
            // the indexed range of usize offsets, not of u64 seeds): with
            // rayon's larger pieces one thread finished its last piece of a
            // chunk while the other sat idle; 2 threads were 85 % busy, now
            // 96 % (a level takes ~60 µs, a piece's overhead is far less).
            let count = (last - first + 1) as usize;
            (0..count)
                .into_par_iter()
                .with_max_len(1)
                .map(|i| self.record(first + i as u64))
                .collect()
        })
    }

    /// The records of `seeds`, a chunk at a time, each chunk made in
    /// parallel on the batch's threads and handed to `sink` in seed order;
    /// the same records whatever the number of threads. Chunks are sized
    /// to take about [`CHUNK_TIME`] each ([`next_chunk`]): thousands of
    /// quick mission graphs, tens of slow layouts. Two chunks are in the
    /// making at a time, so that the threads finishing one chunk's last
    /// levels have the next one's to take, and while `sink` takes a chunk
    /// (counting, writing) the threads go on. Returns the seeds handed to
    /// `sink`: all of them, or up to the chunk after which it said to stop
    /// (the chunks in the making then are finished and dropped).
    pub fn run(&self, seeds: Seeds, mut sink: impl FnMut(&[Record]) -> ControlFlow<()>) -> u64 {
        const IN_FLIGHT: usize = 2;
        let make = |first: u64, last: u64| {
            let start = Instant::now();
            let records = self.chunk(first, last);
            (records, start.elapsed())
        };
        std::thread::scope(|scope| {
            let mut done = 0;
            let mut next = Some(seeds.first);
            let mut size = MIN_CHUNK;
            let mut making = VecDeque::new();
            loop {
                while let Some(first) = next.filter(|_| making.len() < IN_FLIGHT) {
                    let last = seeds.last.min(first.saturating_add(size - 1));
                    next = (last < seeds.last).then(|| last + 1);
                    making.push_back(scope.spawn(move || make(first, last)));
                }
                let Some(chunk) = making.pop_front() else {
                    break;
                };
                let (records, took) = chunk.join().expect("a level's record does not panic");
                // Made beside another chunk: twice the time its levels
                // alone would take.
                size = next_chunk(records.len() as u64, took / IN_FLIGHT as u32);
                done += records.len() as u64;
                if sink(&records).is_break() {
                    break;
                }
            }
            done
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_sized_to_their_pace() {
        let ms = Duration::from_millis;
        // 1,000 levels in 50 ms: 2,000 fit in 100 ms.
        assert_eq!(next_chunk(1000, ms(50)), 2000);
        // Quick levels: at most MAX_CHUNK; slow ones: at least MIN_CHUNK.
        assert_eq!(next_chunk(1000, ms(1)), MAX_CHUNK);
        assert_eq!(next_chunk(64, Duration::ZERO), MAX_CHUNK);
        assert_eq!(next_chunk(64, ms(2000)), MIN_CHUNK);
    }

    #[test]
    fn seeds_and_shards_read_and_split() {
        assert_eq!(
            Seeds::parse("1..10000"),
            Ok(Seeds {
                first: 1,
                last: 10000
            })
        );
        assert_eq!(Seeds::parse("5..=7"), Ok(Seeds { first: 5, last: 7 }));
        assert_eq!(
            Seeds::parse("200"),
            Ok(Seeds {
                first: 1,
                last: 200
            })
        );
        assert!(Seeds::parse("9..3").unwrap_err().contains("empty"));
        assert!(Seeds::parse("a..3")
            .unwrap_err()
            .contains("`a` is not a seed"));
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert!(Shard::parse("0/8").is_err() && Shard::parse("9/8").is_err());
        let seeds = Seeds { first: 1, last: 10 };
        let slices: Vec<Option<Seeds>> = (1..=3)
            .map(|index| seeds.shard(Shard { index, count: 3 }))
            .collect();
        assert_eq!(
            slices,
            [
                Some(Seeds { first: 1, last: 3 }),
                Some(Seeds { first: 4, last: 6 }),
                Some(Seeds { first: 7, last: 10 })
            ]
        );
        let tiny = Seeds { first: 1, last: 2 };
        assert_eq!(tiny.shard(Shard { index: 1, count: 3 }), None);
        let max = Seeds {
            first: 0,
            last: u64::MAX - 1,
        };
        assert_eq!(
            max.shard(Shard { index: 2, count: 2 }).unwrap().last,
            u64::MAX - 1
        );
    }
}
