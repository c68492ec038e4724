//! Proof by exhaustion that some levels of `examples/dungeon-rooms.lg` as it
//! stood before its mission edges were directed (kept as
//! `tests/data/undirected-dungeon-rooms.lg`) have no room layout at all
//! (the levels of seeds 682 and 685 by default; other seeds as arguments,
//! e.g. `-- 682 685 92`).
//!
//! `cargo run --release -p levelgraph --example shut_in [-- SEED …]`
//! (about 20 s per level on one core, most of it checking placements;
//! 90 s for level 872, whose holes hold many). `SHUT_IN_SHOW=1` draws
//! the first three placements of an enclosed path's two rooms (letters
//! A–D the ring, E–F the path); `SHUT_IN_SCAN=N` only lists the levels of
//! seeds `0..N` with such a door and how many rooms hang off each path.
//! `SHUT_IN_GRAMMAR=FILE` reads another grammar with a `rooms` block (the
//! timings above are for `dungeon-rooms.lg`'s: with a large L-shaped
//! template added, one level took over 25 minutes). The claim is about
//! the levels `derive` makes today: after a change to the grammar or to
//! `derive`, run this again.
//!
//! Findings (this file's first version): the levels of seeds 682 and 685
//! have no layout (26,301,424 rings, 1,792 holes of at least 164 cells,
//! 7,680 placements of two enclosed rooms, none with the room hanging off
//! them); the levels of seeds 157 and 872, which the engine lays out,
//! are not proved impossible (their shut-in path can be bare).
//!
//! # The argument
//!
//! Such a level has a door between rooms `u` and `v` whose rooms are also
//! joined by three other paths of exactly two rooms each, with no room in
//! common (`u–x1–x2–v`); the grammar's rule `cycle`, applied three times
//! around one corridor, makes it.
//!
//! 1. In a valid layout, draw each room's centre and a line from it to
//!    the middle of each of its doors, inside the room: a plane drawing of
//!    the level graph. Around `u`, the door `u–v` and the three paths
//!    leave in some cyclic order, and the outer face lies between two
//!    consecutive ones. Whatever that order, one two-room path `W` lies
//!    on the bounded side of the closed curve formed by the door `u–v` and
//!    another two-room path `X` (if the door borders the outer face, the
//!    door and the path on the outer face's other side enclose both other
//!    paths; otherwise the door sits between two paths `P`, `Q` and the
//!    outer face between `Q` and the third path `X`, and then the door
//!    and `X` enclose `P`).
//! 2. That curve runs inside the four rooms `u`, `x1`, `x2`, `v` and
//!    through their doors. A room of `W` does not overlap them, so its
//!    inside, a connected set that misses the curve, lies in a bounded
//!    component (a *hole*) of the plane minus the union of the four
//!    rooms; so does every room joined to a room of `W` by a door and not
//!    one of the four (the inside of a door segment is not on the four
//!    rooms' union).
//! 3. So some ring of four rooms — `u` and `v` sharing a door, `x1`
//!    sharing one with `u`, `x2` with `x1` and `v` — with templates of
//!    those rooms must enclose a hole that holds `w1` (door to `u`), `w2`
//!    (doors to `w1` and `v`) and, for every room `z` hanging off `w1` or
//!    `w2` outside the ring, `z` (door to its room of `W`), none of them
//!    overlapping.
//!
//! The program enumerates every such ring exactly: `u` fixed at the
//! origin under each of its shapes (template × transform), `v` and `x1`
//! at every position of their configuration spaces around `u` (door to
//! door, no overlap), `x2` at every position of the intersection of its
//! spaces around `x1` and `v`, no two rooms overlapping; it computes the
//! union's holes (4-connected cells: rooms meeting at a corner close a
//! hole; skipped when a bound on all holes' cells, the free cells between
//! each row's leftmost and rightmost room cells, is below what the content
//! needs) and, in every hole at least as large as the content needs, tries
//! every position of `w1`, `w2` and `z`. When no ring admits the content
//! of any path `W` for any choice of `X`, no layout exists. Everything
//! else a layout needs (the other rooms, the repeat mode, a `min_distance`
//! that forbids touching) only removes configurations, so leaving it out
//! keeps the proof sound.
//!
//! Checks on the program itself: before the rings are enumerated, every
//! configuration space it uses is compared with a brute-force search over
//! a box of offsets (door segments compared directly), so no position is
//! missed; and, as a check that the search is not vacuous, every
//! placement of `w1` and `w2` found in a hole (without `z`) is written as
//! a six-room layout problem and passed through the independent checker
//! (`layout::check::check_layout`), which must accept it.

use std::collections::BTreeSet;
use std::time::Instant;

use levelgraph::layout::{
    check::check_layout, edgar::RoomSets, Door, DoorLine, GridPoint, Layout, LayoutProblem,
    PlacedRoom, Rect, RoomSpec, Shape,
};
use levelgraph::rooms::level_problem;

/// A shape (template under one transform, bounding box from the origin).
struct Sh {
    shape: Shape,
}

impl Sh {
    fn rects(&self) -> &[Rect] {
        &self.shape.rects
    }
}

/// The distinct shapes of a room's templates.
fn shapes(problem: &LayoutProblem, room: usize) -> Vec<Sh> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for &t in &problem.rooms[room].templates {
        let tpl = &problem.templates[t];
        for &tr in &tpl.transforms {
            let shape = Shape::new(t, tpl, tr);
            if seen.insert((shape.outline.points().to_vec(), shape.doors.clone())) {
                out.push(Sh { shape });
            }
        }
    }
    out
}

fn overlap(a: &Sh, oa: GridPoint, b: &Sh, ob: GridPoint) -> bool {
    a.shape.overlap(oa, &b.shape, ob) > 0
}

/// A door segment both shapes allow on a side they share: `t` at
/// `o` relative to `s`, for each pair of facing door lines, the first
/// common door start.
fn doors(s: &Sh, t: &Sh, o: GridPoint) -> Vec<[GridPoint; 2]> {
    let mut out = Vec::new();
    for a in &s.shape.doors {
        for b in &t.shape.doors {
            if a.normal.x != -b.normal.x || a.normal.y != -b.normal.y || a.length != b.length {
                continue;
            }
            let start_b = b.start + o;
            let across = |l: &DoorLine, p: GridPoint| p.x * l.axis.y + p.y * l.axis.x;
            let along = |l: &DoorLine, p: GridPoint| p.x * l.axis.x + p.y * l.axis.y;
            if across(a, a.start) != across(a, start_b) {
                continue;
            }
            let lo = along(a, a.start).max(along(a, start_b));
            let hi = (along(a, a.start) + a.extra as i32).min(along(a, start_b) + b.extra as i32);
            if lo <= hi {
                let k = lo - along(a, a.start);
                let p = a.start + GridPoint::new(a.axis.x * k, a.axis.y * k);
                let len = a.length as i32;
                out.push([p, p + GridPoint::new(a.axis.x * len, a.axis.y * len)]);
            }
        }
    }
    out
}

/// The configuration space of `t` around `s`: every offset of `t`
/// relative to `s` at which they share a door and do not overlap.
fn space(s: &Sh, t: &Sh) -> Vec<GridPoint> {
    let mut out = BTreeSet::new();
    for a in &s.shape.doors {
        for b in &t.shape.doors {
            if a.normal.x != -b.normal.x || a.normal.y != -b.normal.y || a.length != b.length {
                continue;
            }
            let ax = a.axis;
            let across =
                a.start.x * ax.y + a.start.y * ax.x - (b.start.x * ax.y + b.start.y * ax.x);
            let along_a = a.start.x * ax.x + a.start.y * ax.y;
            let along_b = b.start.x * ax.x + b.start.y * ax.y;
            for k in (along_a - along_b - b.extra as i32)..=(along_a + a.extra as i32 - along_b) {
                let o = if ax.x == 1 {
                    GridPoint::new(k, across)
                } else {
                    GridPoint::new(across, k)
                };
                if !overlap(s, GridPoint::new(0, 0), t, o) {
                    out.insert(o);
                }
            }
        }
    }
    out.into_iter().collect()
}

/// [`space`] by brute force, for the self-check: every offset in a box
/// around `s` at which some door segment of `s` equals one of `t` and the
/// two do not overlap.
fn space_by_brute_force(s: &Sh, t: &Sh) -> Vec<GridPoint> {
    let segments = |sh: &Sh, o: GridPoint| -> BTreeSet<(GridPoint, GridPoint)> {
        let mut out = BTreeSet::new();
        for l in &sh.shape.doors {
            for k in 0..=l.extra as i32 {
                let a = l.start + GridPoint::new(l.axis.x * k, l.axis.y * k) + o;
                let len = l.length as i32;
                out.insert((a, a + GridPoint::new(l.axis.x * len, l.axis.y * len)));
            }
        }
        out
    };
    let mine = segments(s, GridPoint::new(0, 0));
    let (sb, tb) = (s.shape.bounds, t.shape.bounds);
    let mut out = Vec::new();
    for y in sb.y0 - tb.y1..=sb.y1 - tb.y0 {
        for x in sb.x0 - tb.x1..=sb.x1 - tb.x0 {
            let o = GridPoint::new(x, y);
            if !overlap(s, GridPoint::new(0, 0), t, o) && !mine.is_disjoint(&segments(t, o)) {
                out.push(o);
            }
        }
    }
    out.sort();
    out
}

/// A bounded hole of a union of placed shapes, as unit cells.
struct Hole {
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    cells: Vec<bool>,
}

impl Hole {
    /// Whether the shape at `o` lies wholly in the hole.
    fn holds(&self, s: &Sh, o: GridPoint) -> bool {
        s.rects().iter().all(|r| {
            (r.y0 + o.y..r.y1 + o.y).all(|y| {
                (r.x0 + o.x..r.x1 + o.x).all(|x| {
                    let (i, j) = (x - self.x0, y - self.y0);
                    i >= 0
                        && j >= 0
                        && i < self.w
                        && j < self.h
                        && self.cells[(j * self.w + i) as usize]
                })
            })
        })
    }
}

/// An upper bound on the cells of all bounded holes of the union of
/// `parts` (at most 16 rectangles in all): a hole's cell has a room cell
/// to its left and to its right in its row (else it would reach the
/// outside), so it is one of the free cells between the leftmost and the
/// rightmost room cell of its row. Rows are cut at every rectangle side.
fn row_bound(parts: &[(&Sh, GridPoint)]) -> i64 {
    let mut rects = [(0, 0, 0, 0); 16];
    let mut n = 0;
    for (s, o) in parts {
        for r in s.rects() {
            assert!(n < rects.len(), "at most 16 rectangles");
            rects[n] = (r.x0 + o.x, r.y0 + o.y, r.x1 + o.x, r.y1 + o.y);
            n += 1;
        }
    }
    let rects = &rects[..n];
    let mut ys = [0i32; 32];
    for (k, r) in rects.iter().enumerate() {
        ys[2 * k] = r.1;
        ys[2 * k + 1] = r.3;
    }
    let ys = &mut ys[..2 * n];
    ys.sort_unstable();
    let mut bound = 0i64;
    for w in ys.windows(2) {
        if w[0] == w[1] {
            continue;
        }
        let (mut lo, mut hi, mut covered) = (i32::MAX, i32::MIN, 0i64);
        for r in rects {
            if r.1 <= w[0] && r.3 >= w[1] {
                lo = lo.min(r.0);
                hi = hi.max(r.2);
                covered += i64::from(r.2 - r.0);
            }
        }
        if hi > lo {
            bound += (i64::from(hi - lo) - covered) * i64::from(w[1] - w[0]);
        }
    }
    bound
}

/// The bounded holes of the union of `parts` of at least `min` cells
/// (4-connected components of the complement that do not reach the
/// bounding box's rim), on the grid cut at every rectangle side.
fn holes(parts: &[(&Sh, GridPoint)], min: i64) -> Vec<Hole> {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for (s, o) in parts {
        for r in s.rects() {
            xs.extend([r.x0 + o.x, r.x1 + o.x]);
            ys.extend([r.y0 + o.y, r.y1 + o.y]);
        }
    }
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    let (nx, ny) = (xs.len() - 1, ys.len() - 1);
    let mut mark = vec![0u32; nx * ny]; // 1: room; 2: outside; 3+: holes
    for (s, o) in parts {
        for r in s.rects() {
            let i0 = xs.binary_search(&(r.x0 + o.x)).expect("cut");
            let i1 = xs.binary_search(&(r.x1 + o.x)).expect("cut");
            let j0 = ys.binary_search(&(r.y0 + o.y)).expect("cut");
            let j1 = ys.binary_search(&(r.y1 + o.y)).expect("cut");
            for j in j0..j1 {
                for i in i0..i1 {
                    mark[j * nx + i] = 1;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut next = 2;
    // The outside first: every free cell on the rim.
    let rim: Vec<usize> = (0..nx * ny)
        .filter(|&c| {
            let (i, j) = (c % nx, c / nx);
            i == 0 || j == 0 || i == nx - 1 || j == ny - 1
        })
        .collect();
    let order = rim.into_iter().chain(0..nx * ny);
    for start in order {
        if mark[start] != 0 {
            continue;
        }
        let label = next;
        next += 1;
        mark[start] = label;
        stack.push(start);
        let mut area = 0i64;
        let mut members = Vec::new();
        while let Some(c) = stack.pop() {
            let (i, j) = (c % nx, c / nx);
            area += i64::from(xs[i + 1] - xs[i]) * i64::from(ys[j + 1] - ys[j]);
            members.push(c);
            let mut go = |d: usize| {
                if mark[d] == 0 {
                    mark[d] = label;
                    stack.push(d);
                }
            };
            if i > 0 {
                go(c - 1);
            }
            if i + 1 < nx {
                go(c + 1);
            }
            if j > 0 {
                go(c - nx);
            }
            if j + 1 < ny {
                go(c + nx);
            }
        }
        let outside = members.iter().any(|&c| {
            let (i, j) = (c % nx, c / nx);
            i == 0 || j == 0 || i == nx - 1 || j == ny - 1
        });
        if outside || area < min {
            continue;
        }
        let (x0, y0) = (xs[0], ys[0]);
        let (w, h) = (xs[nx] - x0, ys[ny] - y0);
        let mut cells = vec![false; (w * h) as usize];
        for c in members {
            let (i, j) = (c % nx, c / nx);
            for y in ys[j]..ys[j + 1] {
                for x in xs[i]..xs[i + 1] {
                    cells[((y - y0) * w + (x - x0)) as usize] = true;
                }
            }
        }
        out.push(Hole {
            x0,
            y0,
            w,
            h,
            cells,
        });
    }
    out
}

/// Doors `u–v` of the level joined by three other two-room paths with no
/// room in common: `(u, v, paths)` with each path `[x1, x2]`, `x1` next
/// to `u`.
fn theta_doors(problem: &LayoutProblem) -> Vec<(usize, usize, Vec<[usize; 2]>)> {
    let n = problem.rooms.len();
    let mut adj = vec![BTreeSet::new(); n];
    for &[a, b] in &problem.edges {
        adj[a].insert(b);
        adj[b].insert(a);
    }
    let mut out = Vec::new();
    for &[u, v] in &problem.edges {
        let paths: Vec<[usize; 2]> = adj[u]
            .iter()
            .flat_map(|&x| adj[x].iter().map(move |&y| [x, y]))
            .filter(|&[x, y]| x != v && y != u && y != v && adj[y].contains(&v))
            .collect();
        // Three pairwise disjoint ones.
        let mut found = None;
        for i in 0..paths.len() {
            for j in i + 1..paths.len() {
                for k in j + 1..paths.len() {
                    let all = [paths[i], paths[j], paths[k]];
                    let rooms: BTreeSet<usize> = all.iter().flatten().copied().collect();
                    if rooms.len() == 6 && found.is_none() {
                        found = Some(all.to_vec());
                    }
                }
            }
        }
        if let Some(p) = found {
            out.push((u, v, p));
        }
    }
    out
}

/// What must fit in the hole for one enclosed path `[w1, w2]`: the rooms
/// hanging off it outside the ring, each tried on its own.
struct Content {
    path: [usize; 2],
    /// `(room, index in path of the room it hangs off)`; empty: the path
    /// alone.
    hanging: Vec<(usize, usize)>,
}

fn main() {
    let seeds: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let seeds = if seeds.is_empty() {
        vec![682, 685]
    } else {
        seeds
    };
    let path = std::env::var("SHUT_IN_GRAMMAR").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/undirected-dungeon-rooms.lg"
        )
        .into()
    });
    let text = std::fs::read_to_string(&path).expect("the grammar file");
    let grammar = levelgraph::grammar::load(&text, "dungeon-rooms.lg").expect("example compiles");
    let spec = grammar.model().rooms.clone().expect("a rooms block");
    if let Some(n) = std::env::var("SHUT_IN_SCAN")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        for seed in 0..n {
            let Ok(level) = levelgraph::derive(&grammar, seed) else {
                continue;
            };
            let problem = level_problem(&level.graph, &spec, &RoomSets::new()).expect("problem");
            for (u, v, paths) in theta_doors(&problem) {
                let theta: BTreeSet<usize> =
                    paths.iter().flatten().copied().chain([u, v]).collect();
                let hanging: Vec<usize> = paths
                    .iter()
                    .map(|w| {
                        problem
                            .edges
                            .iter()
                            .filter(|e| {
                                (w.contains(&e[0]) && !theta.contains(&e[1]))
                                    || (w.contains(&e[1]) && !theta.contains(&e[0]))
                            })
                            .count()
                    })
                    .collect();
                println!(
                    "seed {seed}: door {u}-{v} paths {paths:?} rooms hanging off each {hanging:?}"
                );
            }
        }
        return;
    }
    for seed in seeds {
        let level = levelgraph::derive(&grammar, seed).expect("level derives");
        let problem = level_problem(&level.graph, &spec, &RoomSets::new()).expect("problem");
        assert!(
            problem.corridors.is_none(),
            "the argument is for rooms that meet door to door"
        );
        println!(
            "level {seed}: {} rooms, {} edges",
            problem.rooms.len(),
            problem.edges.len()
        );
        let thetas = theta_doors(&problem);
        if thetas.is_empty() {
            println!("  no door with three other two-room paths: nothing to prove here");
            continue;
        }
        let mut proved = false;
        for (u, v, paths) in &thetas {
            let name = |r: usize| problem.rooms[r].name.clone();
            println!(
                "  door {}–{}, paths {}",
                name(*u),
                name(*v),
                paths
                    .iter()
                    .map(|p| format!("{}–{}–{}–{}", name(*u), name(p[0]), name(p[1]), name(*v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            // Rings with the same templates are enumerated once, with the
            // contents of every path some ring of them may enclose.
            let content_of = |w: &[usize; 2], ring: &BTreeSet<usize>| {
                let mut hanging = Vec::new();
                for &[a, b] in &problem.edges {
                    for (end, other) in [(a, b), (b, a)] {
                        if let Some(k) = w.iter().position(|&r| r == end) {
                            if !ring.contains(&other) && !w.contains(&other) {
                                hanging.push((other, k));
                            }
                        }
                    }
                }
                Content { path: *w, hanging }
            };
            let signature =
                |x: &[usize; 2]| [*u, *v, x[1], x[0]].map(|r| problem.rooms[r].templates.clone());
            let mut fits_by_x = vec![false; paths.len()];
            let mut done = vec![false; paths.len()];
            for xi in 0..paths.len() {
                if done[xi] {
                    continue;
                }
                let group: Vec<usize> = (xi..paths.len())
                    .filter(|&j| !done[j] && signature(&paths[j]) == signature(&paths[xi]))
                    .collect();
                // Content of path w when ring x encloses it, for every
                // pair (x in group, w ≠ x).
                let mut contents = Vec::new();
                let mut owner = Vec::new();
                for &x in &group {
                    done[x] = true;
                    let ring: BTreeSet<usize> = [*u, *v, paths[x][0], paths[x][1]].into();
                    for (wi, w) in paths.iter().enumerate() {
                        if wi != x {
                            contents.push(content_of(w, &ring));
                            owner.push(x);
                        }
                    }
                }
                let x = paths[xi];
                let fits = ring_search(&problem, [*u, *v, x[1], x[0]], &contents);
                println!(
                    "    rings {}–x1–x2–{} with the templates of {}: {}",
                    name(*u),
                    name(*v),
                    group
                        .iter()
                        .map(|&j| format!("{}–{}", name(paths[j][0]), name(paths[j][1])))
                        .collect::<Vec<_>>()
                        .join(", "),
                    fits.summary
                );
                for (k, &f) in fits.full.iter().enumerate() {
                    if f > 0 {
                        fits_by_x[owner[k]] = true;
                    }
                }
            }
            let all_fail = fits_by_x.iter().all(|f| !f);
            if all_fail {
                proved = true;
                println!(
                    "  => no ring of {}, {} and another path can hold the path it must shut in: level {seed} has no layout",
                    name(*u),
                    name(*v)
                );
            }
        }
        if !proved {
            println!("  => not proved impossible");
        }
    }
}

struct Outcome {
    /// Per content, the placements with every hanging room.
    full: Vec<u64>,
    summary: String,
}

/// Every ring `[a, b, c, d]` (`a` at the origin; doors a–b, b–c, c–d,
/// d–a) and, in its large holes, every placement of each content.
fn ring_search(problem: &LayoutProblem, ring: [usize; 4], contents: &[Content]) -> Outcome {
    let started = Instant::now();
    let [sa, sb, sc, sd] = ring.map(|r| shapes(problem, r));
    let spaces = |x: &[Sh], y: &[Sh]| -> Vec<Vec<Vec<GridPoint>>> {
        x.iter()
            .map(|s| y.iter().map(|t| space(s, t)).collect())
            .collect()
    };
    let (ab, ad, bc, dc) = (
        spaces(&sa, &sb),
        spaces(&sa, &sd),
        spaces(&sb, &sc),
        spaces(&sd, &sc),
    );
    // Self-check: the spaces are exactly the offsets found by brute force.
    let mut content_shapes: Vec<Sh> = Vec::new();
    for c in contents {
        for &r in c.path.iter().chain(c.hanging.iter().map(|(z, _)| z)) {
            content_shapes.extend(shapes(problem, r));
        }
    }
    let mut seen = BTreeSet::new();
    let every: Vec<&Sh> = [&sa, &sb, &sc, &sd]
        .into_iter()
        .flatten()
        .chain(content_shapes.iter())
        .filter(|s| seen.insert((s.shape.outline.points().to_vec(), s.shape.doors.clone())))
        .collect();
    for s in &every {
        for t in &every {
            assert_eq!(
                space(s, t),
                space_by_brute_force(s, t),
                "a configuration space"
            );
        }
    }
    // The content rooms' shapes and spaces.
    let min_area = |r: usize| -> i64 {
        shapes(problem, r)
            .iter()
            .map(|s| s.shape.area)
            .min()
            .unwrap_or(0)
    };
    let need: i64 = contents
        .iter()
        .map(|c| {
            c.path.iter().map(|&r| min_area(r)).sum::<i64>()
                + c.hanging
                    .iter()
                    .map(|&(z, _)| min_area(z))
                    .min()
                    .unwrap_or(0)
        })
        .min()
        .unwrap_or(0);
    // Offsets of touching shapes differ by at most the two shapes' extents
    // along each axis, so the differences `δ` below (two such offsets
    // apart) are within ±`reach` = 4 × the largest extent of any ring
    // shape: every `δ` has its own bucket.
    let extent = [&sa, &sb, &sc, &sd]
        .into_iter()
        .flatten()
        .flat_map(|s| s.rects().iter())
        .map(|r| r.x0.abs().max(r.y0.abs()).max(r.x1.abs()).max(r.y1.abs()))
        .max()
        .unwrap_or(0);
    let reach = 4 * extent.max(1);
    let side = (2 * reach + 1) as usize;
    let cell = |p: GridPoint| {
        assert!(
            p.x.abs() <= reach && p.y.abs() <= reach,
            "offset {p:?} beyond ±{reach}"
        );
        ((p.y + reach) as usize) * side + (p.x + reach) as usize
    };
    let (mut rings, mut big_holes, mut pairs) = (0u64, 0u64, 0u64);
    let mut full = vec![0u64; contents.len()];
    let mut checked = 0u64;
    for (ib, b) in sb.iter().enumerate() {
        for (id, d) in sd.iter().enumerate() {
            // For c closing the ring: by δ = pos(d) − pos(b), the shapes
            // and offsets (relative to b) of c touching both.
            let mut by_delta: Vec<Vec<(usize, GridPoint)>> = vec![Vec::new(); side * side];
            for ic in 0..sc.len() {
                for &p in &bc[ib][ic] {
                    for &q in &dc[id][ic] {
                        by_delta[cell(p - q)].push((ic, p));
                    }
                }
            }
            for (ia, a) in sa.iter().enumerate() {
                let origin = GridPoint::new(0, 0);
                for &ob in &ab[ia][ib] {
                    for &od in &ad[ia][id] {
                        if overlap(b, ob, d, od) {
                            continue;
                        }
                        for &(ic, p) in &by_delta[cell(od - ob)] {
                            let c = &sc[ic];
                            let oc = ob + p;
                            if overlap(a, origin, c, oc) {
                                continue;
                            }
                            rings += 1;
                            let parts = [(a, origin), (b, ob), (c, oc), (d, od)];
                            if row_bound(&parts) < need {
                                continue;
                            }
                            for hole in holes(&parts, need) {
                                big_holes += 1;
                                for (k, content) in contents.iter().enumerate() {
                                    let r = fill(problem, &parts, &hole, content, &mut checked);
                                    pairs += r.0;
                                    full[k] += r.1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let summary = format!(
        "{rings} rings, {big_holes} holes of at least {need} cells, {pairs} placements of an enclosed path's two rooms ({checked} checked valid by check_layout), {} with its hanging rooms as well ({:.1} s)",
        full.iter().sum::<u64>(),
        started.elapsed().as_secs_f64()
    );
    Outcome { full, summary }
}

/// Placements of `content` in `hole` of the ring `parts` (`[a, b, c, d]`
/// placed): `(w1–w2 placements, placements with a hanging room too)`.
/// Every w1–w2 placement is checked by `check_layout` as a six-room
/// problem.
fn fill(
    problem: &LayoutProblem,
    parts: &[(&Sh, GridPoint); 4],
    hole: &Hole,
    content: &Content,
    checked: &mut u64,
) -> (u64, u64) {
    let [w1, w2] = content.path;
    let (s1, s2) = (shapes(problem, w1), shapes(problem, w2));
    let (a, oa) = parts[0];
    let (b, ob) = parts[1];
    let (mut pairs, mut full) = (0, 0);
    for x in &s1 {
        for p in space(a, x).into_iter().map(|p| oa + p) {
            if !hole.holds(x, p) {
                continue;
            }
            for y in &s2 {
                let beside: BTreeSet<GridPoint> = space(x, y).into_iter().map(|q| p + q).collect();
                for q in space(b, y).into_iter().map(|q| ob + q) {
                    if !beside.contains(&q) || !hole.holds(y, q) || overlap(x, p, y, q) {
                        continue;
                    }
                    pairs += 1;
                    if std::env::var("SHUT_IN_SHOW").is_ok() && *checked < 3 {
                        let all: Vec<(&Sh, GridPoint)> =
                            parts.iter().copied().chain([(x, p), (y, q)]).collect();
                        println!("{}", picture(&all));
                    }
                    if validate(problem, parts, [(x, p), (y, q)]) {
                        *checked += 1;
                    } else {
                        panic!("a placement the search accepts fails check_layout");
                    }
                    // Each hanging room on its own: the path fits only if
                    // every one of them fits.
                    let every = content.hanging.iter().all(|&(z, k)| {
                        let (host, at) = if k == 0 { (x, p) } else { (y, q) };
                        shapes(problem, z).iter().any(|s| {
                            space(host, s).into_iter().any(|t| {
                                let t = at + t;
                                hole.holds(s, t) && !overlap(s, t, x, p) && !overlap(s, t, y, q)
                            })
                        })
                    });
                    if every {
                        full += 1;
                    }
                }
            }
        }
    }
    (pairs, full)
}

/// The ring and the two enclosed rooms as a layout problem of six rooms
/// (doors a–b, b–c, c–d, d–a, a–w1, w1–w2, w2–b), checked by the
/// independent checker.
fn validate(
    problem: &LayoutProblem,
    parts: &[(&Sh, GridPoint); 4],
    inner: [(&Sh, GridPoint); 2],
) -> bool {
    let placed: Vec<(&Sh, GridPoint)> = parts.iter().copied().chain(inner).collect();
    let edges = vec![[0, 1], [1, 2], [2, 3], [3, 0], [0, 4], [4, 5], [5, 1]];
    let sub = LayoutProblem {
        rooms: placed
            .iter()
            .enumerate()
            .map(|(i, (s, _))| RoomSpec {
                name: format!("r{i}"),
                tag: "room".into(),
                templates: vec![s.shape.template],
            })
            .collect(),
        edges: edges.clone(),
        templates: problem.templates.clone(),
        corridors: None,
        min_distance: 0,
        repeat: levelgraph::layout::RepeatMode::Allow,
        drawing: None,
    };
    let mut door_list = Vec::new();
    for (e, &[i, j]) in edges.iter().enumerate() {
        let ((s, os), (t, ot)) = (placed[i], placed[j]);
        let Some(seg) = doors(s, t, ot - os).first().copied() else {
            return false;
        };
        door_list.push(Door {
            edge: e,
            room: i,
            corridor: None,
            segment: seg.map(|p| p + os),
        });
    }
    let layout = Layout {
        rooms: placed
            .iter()
            .map(|(s, o)| PlacedRoom {
                template: s.shape.template,
                transform: s.shape.transform,
                position: *o,
                outline: s.shape.outline.points().iter().map(|&p| p + *o).collect(),
            })
            .collect(),
        doors: door_list,
        corridors: Vec::new(),
    };
    check_layout(&sub, &layout).is_empty()
}

/// The placed shapes as text, one letter per room (`.` empty), top row
/// first.
fn picture(placed: &[(&Sh, GridPoint)]) -> String {
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for (s, o) in placed {
        for r in s.rects() {
            x0 = x0.min(r.x0 + o.x);
            y0 = y0.min(r.y0 + o.y);
            x1 = x1.max(r.x1 + o.x);
            y1 = y1.max(r.y1 + o.y);
        }
    }
    let mut out = String::new();
    for y in (y0..y1).rev() {
        for x in x0..x1 {
            let mut ch = '.';
            for (k, (s, o)) in placed.iter().enumerate() {
                if s.rects()
                    .iter()
                    .any(|r| x >= r.x0 + o.x && x < r.x1 + o.x && y >= r.y0 + o.y && y < r.y1 + o.y)
                {
                    ch = (b'A' + k as u8) as char;
                }
            }
            out.push(ch);
        }
        out.push('\n');
    }
    out
}
