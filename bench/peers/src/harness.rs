//! A small timing harness: std::time::Instant, black_box, the median of
//! several rounds. No criterion, so the numbers are easy to read back to
//! the code that produced them.

use std::time::{Duration, Instant};

/// What one measurement found: seconds per call of the measured closure.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Median over the rounds.
    pub median: f64,
    /// Fastest round.
    pub fastest: f64,
    /// Slowest round.
    pub slowest: f64,
    /// Rounds timed (after one untimed warm-up call).
    pub rounds: usize,
    /// Calls per round.
    pub calls: usize,
}

/// Times `f`: one untimed warm-up call, then `rounds` rounds of as many
/// calls as make a round last at least `min_round` (at least one), and
/// reports seconds per call. A call that takes longer than `slow` gets
/// only 3 rounds, so the largest peer runs stay within minutes.
pub fn time<F: FnMut()>(rounds: usize, min_round: Duration, slow: Duration, mut f: F) -> Timing {
    let start = Instant::now();
    f();
    let warm = start.elapsed().max(Duration::from_nanos(1));
    let calls = ((min_round.as_secs_f64() / warm.as_secs_f64()).ceil() as usize).max(1);
    let rounds = if warm > slow { rounds.min(3) } else { rounds };
    let mut per_call: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_secs_f64() / calls as f64
        })
        .collect();
    per_call.sort_by(|a, b| a.partial_cmp(b).expect("finite times"));
    Timing {
        median: per_call[per_call.len() / 2],
        fastest: per_call[0],
        slowest: per_call[per_call.len() - 1],
        rounds,
        calls,
    }
}

/// A duration in seconds as a short human string with a unit.
pub fn fmt_secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.2} µs", s * 1e6)
    } else {
        format!("{:.1} ns", s * 1e9)
    }
}

/// An integer with thousands separators (one definition with levelgraph's
/// tiles harness).
pub(crate) use crate::tile_support::fmt_int;

/// A ratio `a / b` as `0.012×` or `34×`.
pub fn fmt_ratio(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}×")
    } else if r >= 1.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.3}×")
    }
}
