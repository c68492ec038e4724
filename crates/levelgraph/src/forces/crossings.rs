//! Counting the crossings of solid springs after a relaxation.

use super::neighbours::Box2;
use super::Spring;
use crate::graph::Point;
use crate::plane::segments_cross;

/// Pairs of solid springs that share no end, at least one of which has a
/// `moving` end, and whose segments meet (a touch counts). Only springs
/// whose box meets the box of the moving ones are tested, and a pair only
/// when their boxes meet (segments whose boxes are apart have no point in
/// common), so the count is that of testing every pair. O(m + k·m') for
/// `k` springs at moving vertices and `m'` springs near them. `movers`:
/// a buffer.
pub(crate) fn crossings(
    pos: &[Point],
    springs: &[Spring],
    moving: &[bool],
    movers: &mut Vec<Mover>,
) -> usize {
    let bounds = |s: &Spring| {
        let (a, b) = (pos[s.a], pos[s.b]);
        Box2 {
            lo: [a[0].min(b[0]), a[1].min(b[1])],
            hi: [a[0].max(b[0]), a[1].max(b[1])],
        }
    };
    let mut area = Box2 {
        lo: [f64::INFINITY; 2],
        hi: [f64::NEG_INFINITY; 2],
    };
    movers.clear();
    for (i, s) in springs.iter().enumerate() {
        if s.solid && (moving[s.a] || moving[s.b]) {
            let b = bounds(s);
            area = Box2 {
                lo: [area.lo[0].min(b.lo[0]), area.lo[1].min(b.lo[1])],
                hi: [area.hi[0].max(b.hi[0]), area.hi[1].max(b.hi[1])],
            };
            movers.push(Mover {
                index: i,
                bounds: b,
            });
        }
    }
    let mut count = 0;
    for (j, t) in springs.iter().enumerate() {
        if !t.solid {
            continue;
        }
        let bt = bounds(t);
        if !bt.meets(&area) {
            continue;
        }
        let t_moves = moving[t.a] || moving[t.b];
        // The movers whose box meets `t`'s, 64 at a time into a mask
        // without a branch per mover (most are apart); the count does
        // not depend on the order pairs are looked at.
        for movers in movers.chunks(64) {
            let mut mask = 0u64;
            for (b, m) in movers.iter().enumerate() {
                mask |= u64::from(m.bounds.meets(&bt)) << b;
            }
            while mask != 0 {
                let i = movers[mask.trailing_zeros() as usize].index;
                mask &= mask - 1;
                let s = &springs[i];
                // A pair with both moving is seen twice: count it once.
                if (t_moves && j < i) || s.a == t.a || s.a == t.b || s.b == t.a || s.b == t.b {
                    continue;
                }
                if segments_cross(pos[s.a], pos[s.b], pos[t.a], pos[t.b]) {
                    count += 1;
                }
            }
        }
    }
    count
}

/// A spring with a moving end, and its box, for [`crossings`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    index: usize,
    bounds: Box2,
}
