//! Benchmark 4: tile-map generators, levelgraph's three classic roguelike
//! generators (`levelgraph::tiles`) against the `mapgen` crate (0.6.0, MIT OR
//! Apache-2.0, Krzysztof Langner), used as a dependency through its
//! `MapBuilder` and filters.
//!
//! Three comparisons, each at the same map sizes with the same seeds
//! `0..seeds` for every generator:
//!
//! 1. **Rooms and corridors**: `rooms_and_corridors::generate` against
//!    `SimpleRooms` + `NearestCorridors` (and the same followed by
//!    `AreaStartingPosition` + `CullUnreachable`, mapgen's README pipeline
//!    for a map one can start on). mapgen's `SimpleRooms` has no
//!    parameters: 30 tries of one random room each, sides 6..=9, dropped
//!    if it overlaps or touches a room. Ours is run the same way (30 rooms, 1
//!    placement try each, 1 corridor per room) with its smallest side as
//!    near 6 as our `w/5 × h/5` size rule allows; its largest side
//!    stays `w/5 × h/5` (not settable). A last row, `floor`, is not a
//!    generator: seeding ChaCha8, 140 draws and a copy of our map for the
//!    seed, what any generator with our random source and our returned
//!    map spends before doing any work (see [`floor`]).
//! 2. **Caves**: `caves::generate` (defaults, and the RogueBasin rule)
//!    against `NoiseGenerator` + `CellularAutomata` (15 iterations of its
//!    8-neighbour rule), bare and followed by `AreaStartingPosition` +
//!    `CullUnreachable` (ours always joins its caves into one region).
//! 3. **Rooms by growth**: `accretion::generate` against `BspRooms` +
//!    `NearestCorridors` (+ start + cull): both fill the whole map with
//!    small rooms joined by corridors; different algorithms (see
//!    BENCHMARKS.md for how far the comparison goes).
//!
//! Timing: per seed, each generator in turn makes the map `repeats` times
//! (default 3) and the median of those is the seed's time; the table gives
//! the mean and median over seeds. Only generation is timed: for ours
//! `generate(&params, seed)`, for mapgen `StdRng::seed_from_u64(seed)` and
//! `MapBuilder::build_with_rng` on a builder made beforehand. mapgen's map
//! is then converted (untimed) into a `levelgraph::tiles::TileMap`: walkable
//! cells become floor, the rest wall, its rooms `TileRoom`s (mapgen keeps
//! no list of its corridors), and every map is measured by the same
//! `levelgraph::tiles::metrics::Metrics::of`, plus
//! [`open_blocks_outside_rooms`] (corridors side by side) for the room
//! generators.

use std::hint::black_box;
use std::time::Instant;

use levelgraph::rng::Rng;
use levelgraph::tiles::accretion;
use levelgraph::tiles::caves::{self, CaveParams, CaveRule};
use levelgraph::tiles::metrics::Metrics;
use levelgraph::tiles::rooms_and_corridors::{self, RoomsParams};
use levelgraph::tiles::{Tile, TileMap, TileRect, TileRoom, TilesError};
use mapgen::{
    AreaStartingPosition, BspRooms, CellularAutomata, CullUnreachable, MapBuffer, MapBuilder,
    NearestCorridors, NoiseGenerator, SimpleRooms, XStart, YStart,
};
use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::harness::{fmt_ratio, fmt_secs};
use crate::tile_support::{accretion_params, accretion_steps, describe_accretion};

/// What to run.
pub struct Options {
    /// Map sizes, width × height.
    pub sizes: Vec<(u32, u32)>,
    /// Seeds `0..seeds` per generator and size.
    pub seeds: u64,
    /// Timed maps per seed (the median is kept).
    pub repeats: usize,
    /// Which comparisons: a substring of `rooms`, `caves`, `growth`
    /// (empty: all).
    pub only: String,
}

/// The noise mapgen's caves start from: `NoiseGenerator::new(p)` makes a
/// cell floor when `next_u32() % 100 > 100 p`, so 0.55 gives 44 % floor.
/// 0.55 is the value of mapgen's own cellular-automaton test
/// (`lib.rs`, `test_ca_map`).
pub const MAPGEN_NOISE: f32 = 0.55;

/// A generator's output before conversion.
enum Made {
    Ours(Result<TileMap, TilesError>),
    Theirs(MapBuffer),
}

/// One generator of a comparison.
struct Contender {
    name: String,
    params: String,
    ours: bool,
    make: Box<dyn FnMut(u64) -> Made>,
}

fn ours(
    name: &str,
    params: String,
    mut f: impl FnMut(u64) -> Result<TileMap, TilesError> + 'static,
) -> Contender {
    Contender {
        name: name.to_string(),
        params,
        ours: true,
        make: Box::new(move |seed| Made::Ours(f(seed))),
    }
}

fn theirs(name: &str, params: &str, mut builder: MapBuilder) -> Contender {
    Contender {
        name: name.to_string(),
        params: params.to_string(),
        ours: false,
        make: Box::new(move |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            Made::Theirs(builder.build_with_rng(&mut rng))
        }),
    }
}

/// mapgen's pipeline `filters` on a `w × h` map, optionally followed by a
/// start at the centre and `CullUnreachable`.
fn builder(w: u32, h: u32, filters: Vec<Box<dyn mapgen::MapFilter>>, cull: bool) -> MapBuilder {
    let mut b = MapBuilder::new(w as usize, h as usize);
    for f in filters {
        b.with(f);
    }
    if cull {
        b.with(AreaStartingPosition::new(XStart::CENTER, YStart::CENTER));
        b.with(CullUnreachable::new());
    }
    b
}

/// mapgen's map as a levelgraph tile map: walkable → floor, else wall;
/// rooms as rectangles (mapgen's `Rect` has exclusive `x2`, `y2`).
pub fn convert(m: &MapBuffer) -> TileMap {
    let mut map = TileMap::filled(m.width as u32, m.height as u32, Tile::WALL);
    for (cell, &walk) in map.cells.iter_mut().zip(&m.walkables) {
        if walk {
            *cell = Tile::FLOOR;
        }
    }
    for (i, r) in m.rooms.iter().enumerate() {
        let bounds = TileRect::new(
            r.x1 as u32,
            r.y1 as u32,
            r.width() as u32,
            r.height() as u32,
        );
        map.rooms
            .push(TileRoom::rect(format!("room {i}"), "", bounds));
    }
    map
}

/// 2 × 2 blocks of passable cells none of which lies in a listed room:
/// corridors running side by side ("parallel double corridors") or a
/// corridor's corner widened. Both of levelgraph's room generators
/// guarantee none; caves list no rooms, so every open 2 × 2 block of a cave
/// counts and the column is not shown for them.
pub fn open_blocks_outside_rooms(map: &TileMap) -> usize {
    let (w, h) = (map.width as usize, map.height as usize);
    let mut in_room = vec![false; w * h];
    for r in &map.rooms {
        let b = r.bounds;
        for y in b.y..b.bottom() {
            for x in b.x..b.right() {
                in_room[y as usize * w + x as usize] = true;
            }
        }
    }
    let open = |i: usize| map.cells[i].is_passable() && !in_room[i];
    let mut n = 0;
    for y in 0..h.saturating_sub(1) {
        for x in 0..w.saturating_sub(1) {
            let i = y * w + x;
            if open(i) && open(i + 1) && open(i + w) && open(i + w + 1) {
                n += 1;
            }
        }
    }
    n
}

/// One generator's results at one size.
pub struct Row {
    /// Whose and which generator.
    pub name: String,
    /// Its parameters or pipeline.
    pub params: String,
    /// levelgraph's (true) or mapgen's.
    pub ours: bool,
    /// Per-seed times (median of the repeats), sorted, seconds.
    pub times: Vec<f64>,
    /// Maps made (generation did not fail).
    pub maps: u64,
    /// Maps whose passable cells form one 4-connected region.
    pub one_region: u64,
    /// Sums over maps: floor ratio, regions, dead ends, rooms, corridors,
    /// longest path, open 2 × 2 blocks outside rooms.
    pub sums: [f64; 7],
    /// Whether every longest path was exact.
    pub exact: bool,
}

impl Row {
    /// Mean seconds per map.
    pub fn mean(&self) -> f64 {
        self.times.iter().sum::<f64>() / self.times.len().max(1) as f64
    }

    /// Median seconds per map.
    pub fn median(&self) -> f64 {
        self.times.get(self.times.len() / 2).copied().unwrap_or(0.0)
    }

    fn metric(&self, i: usize) -> f64 {
        self.sums[i] / self.maps.max(1) as f64
    }
}

/// One comparison at one size.
pub struct Comparison {
    /// Which comparison.
    pub title: &'static str,
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Ours first, then mapgen's.
    pub rows: Vec<Row>,
    /// (ours, theirs) row indices whose speed-up is judged.
    pub pairs: Vec<(usize, usize)>,
}

/// Runs the comparisons asked for at every size.
pub fn run(opts: &Options) -> Vec<Comparison> {
    let want = |key: &str| key.contains(opts.only.as_str());
    let mut out = Vec::new();
    for &(w, h) in &opts.sizes {
        if want("rooms") {
            out.push(compare(
                "Rooms and corridors",
                w,
                h,
                rooms_contenders(w, h, opts.seeds),
                vec![(0, 1), (0, 2)],
                opts,
            ));
        }
        if want("caves") {
            out.push(compare(
                "Caves",
                w,
                h,
                caves_contenders(w, h),
                vec![(0, 2), (0, 3), (1, 2), (1, 3)],
                opts,
            ));
        }
        if want("growth") {
            out.push(compare(
                "Rooms by growth (indicative)",
                w,
                h,
                growth_contenders(w, h),
                vec![(0, 1), (0, 2)],
                opts,
            ));
        }
    }
    out
}

/// Random draws the floor row makes per map: about what our rooms
/// generator makes at 80 × 25 (4 per placement try, 120 in all, and the
/// links'); more rooms make a few more at the larger sizes, so the floor
/// is an underestimate there.
const FLOOR_DRAWS: usize = 140;

fn rooms_contenders(w: u32, h: u32, seeds: u64) -> Vec<Contender> {
    let params = RoomsParams {
        width: w,
        height: h,
        rooms: 30,
        corridors: 1,
        placement_tries: 1,
        min_room_size: 6.min(w.min(h) / 5),
    };
    let text = format!(
        "30 rooms × 1 try, sides {}..={} × {}..={}, 1 corridor per room",
        params.min_room_size,
        w / 5,
        params.min_room_size,
        h / 5
    );
    let floor_row = floor(&params, seeds);
    vec![
        ours("levelgraph rooms_and_corridors", text, move |seed| {
            rooms_and_corridors::generate(&params, seed)
        }),
        theirs(
            "mapgen SimpleRooms + NearestCorridors",
            "30 rooms × 1 try, sides 6..=9",
            builder(
                w,
                h,
                vec![SimpleRooms::new(), NearestCorridors::new()],
                false,
            ),
        ),
        theirs(
            "mapgen SimpleRooms + NearestCorridors + start + cull",
            "the same, then AreaStartingPosition (centre) + CullUnreachable",
            builder(
                w,
                h,
                vec![SimpleRooms::new(), NearestCorridors::new()],
                true,
            ),
        ),
        floor_row,
    ]
}

/// Not a generator: what any rooms generator with levelgraph's guarantees
/// of output spends before doing any work — seeding ChaCha8 and making
/// [`FLOOR_DRAWS`] draws (the portable random source every generator
/// must use), and allocating and filling the map it returns (a copy of
/// the map levelgraph made for that seed: the same cells, rooms with
/// their names and outlines, doors and corridors). Its metrics are those
/// of levelgraph's maps.
fn floor(params: &RoomsParams, seeds: u64) -> Contender {
    // One more than measured: `compare` warms up on seed `seeds`.
    let maps: Vec<TileMap> = (0..=seeds)
        .map(|seed| rooms_and_corridors::generate(params, seed).expect("valid parameters"))
        .collect();
    Contender {
        name: "floor (not a generator): seeding, draws, a copy of levelgraph's map".to_string(),
        params: format!("ChaCha8 seeded, {FLOOR_DRAWS} draws, `TileMap::clone`"),
        ours: true,
        make: Box::new(move |seed| {
            let mut rng = Rng::seeded(seed);
            let mut sum = 0usize;
            for _ in 0..FLOOR_DRAWS {
                sum = sum.wrapping_add(rng.below(16));
            }
            black_box(sum);
            Made::Ours(Ok(maps[seed as usize].clone()))
        }),
    }
}

fn caves_contenders(w: u32, h: u32) -> Vec<Contender> {
    let standard = CaveParams {
        width: w,
        height: h,
        ..CaveParams::default()
    };
    let rogue = CaveParams {
        rule: CaveRule::RogueBasin,
        ..standard
    };
    let text = |p: &CaveParams| {
        format!(
            "rule {}, floor chance {}, {} + {} iterations, floor ratio ≥ {}, {}",
            p.rule,
            p.floor_chance,
            p.wall_add_iterations,
            p.no_wall_add_iterations,
            p.floor_ratio,
            p.connect
        )
    };
    let noise = format!("NoiseGenerator({MAPGEN_NOISE}), CellularAutomata (15 iterations)");
    vec![
        ours(
            "levelgraph caves (standard rule)",
            text(&standard),
            move |seed| caves::generate(&standard, seed),
        ),
        ours(
            "levelgraph caves (RogueBasin rule)",
            text(&rogue),
            move |seed| caves::generate(&rogue, seed),
        ),
        theirs(
            "mapgen NoiseGenerator + CellularAutomata",
            &noise,
            builder(
                w,
                h,
                vec![NoiseGenerator::new(MAPGEN_NOISE), CellularAutomata::new()],
                false,
            ),
        ),
        theirs(
            "mapgen NoiseGenerator + CellularAutomata + start + cull",
            &format!("{noise}, AreaStartingPosition (centre), CullUnreachable"),
            builder(
                w,
                h,
                vec![NoiseGenerator::new(MAPGEN_NOISE), CellularAutomata::new()],
                true,
            ),
        ),
    ]
}

fn growth_contenders(w: u32, h: u32) -> Vec<Contender> {
    let params = accretion_params(w, h, accretion_steps(w, h));
    let text = describe_accretion(&params);
    vec![
        ours("levelgraph accretion", text, move |seed| {
            accretion::generate(&params, seed)
        }),
        theirs(
            "mapgen BspRooms + NearestCorridors",
            "240 split tries, sides 4..=20",
            builder(w, h, vec![BspRooms::new(), NearestCorridors::new()], false),
        ),
        theirs(
            "mapgen BspRooms + NearestCorridors + start + cull",
            "the same, then AreaStartingPosition (centre) + CullUnreachable",
            builder(w, h, vec![BspRooms::new(), NearestCorridors::new()], true),
        ),
    ]
}

fn compare(
    title: &'static str,
    width: u32,
    height: u32,
    mut contenders: Vec<Contender>,
    pairs: Vec<(usize, usize)>,
    opts: &Options,
) -> Comparison {
    eprintln!("tiles: {title} at {width} × {height}, {} seeds", opts.seeds);
    let mut rows: Vec<Row> = contenders
        .iter()
        .map(|c| Row {
            name: c.name.clone(),
            params: c.params.clone(),
            ours: c.ours,
            times: Vec::new(),
            maps: 0,
            one_region: 0,
            sums: [0.0; 7],
            exact: true,
        })
        .collect();
    // Warm-up: one map each, on a seed outside the measured ones.
    for c in &mut contenders {
        black_box((c.make)(opts.seeds));
    }
    let repeats = opts.repeats.max(1);
    let mut samples = Vec::with_capacity(repeats);
    for seed in 0..opts.seeds {
        for (c, row) in contenders.iter_mut().zip(&mut rows) {
            samples.clear();
            let mut made = None;
            for _ in 0..repeats {
                let start = Instant::now();
                let m = black_box((c.make)(seed));
                samples.push(start.elapsed().as_secs_f64());
                made = Some(m);
            }
            samples.sort_by(f64::total_cmp);
            row.times.push(samples[samples.len() / 2]);
            let map = match made.expect("at least one repeat") {
                Made::Ours(Ok(map)) => map,
                Made::Ours(Err(e)) => {
                    eprintln!("tiles: {} {width} × {height} seed {seed}: {e}", c.name);
                    continue;
                }
                Made::Theirs(buffer) => convert(&buffer),
            };
            let m = Metrics::of(&map);
            row.maps += 1;
            row.one_region += u64::from(m.regions == 1);
            row.exact &= m.longest_path_exact;
            for (s, v) in row.sums.iter_mut().zip([
                m.floor_ratio,
                m.regions as f64,
                m.dead_ends as f64,
                m.rooms as f64,
                m.corridors as f64,
                f64::from(m.longest_path),
                open_blocks_outside_rooms(&map) as f64,
            ]) {
                *s += v;
            }
        }
    }
    for row in &mut rows {
        row.times.sort_by(f64::total_cmp);
    }
    Comparison {
        title,
        width,
        height,
        rows,
        pairs,
    }
}

/// The titles of the comparisons in `all`, in order, each once.
pub fn titles(all: &[Comparison]) -> Vec<&'static str> {
    let mut t: Vec<&'static str> = Vec::new();
    for c in all {
        if !t.contains(&c.title) {
            t.push(c.title);
        }
    }
    t
}

/// One comparison's table: every size, every generator, with the time
/// relative to the size's first row (levelgraph's).
pub fn table(all: &[Comparison], title: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "| size | generator | parameters | maps | mean time | median time \
         | time / levelgraph's first row (mean, median) | floor ratio | regions \
         | maps of one region | dead ends | rooms | corridors listed | longest path \
         | open 2 × 2 blocks outside rooms |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for c in all.iter().filter(|c| c.title == title) {
        let first = &c.rows[0];
        for r in &c.rows {
            s.push_str(&format!(
                "| {} × {} | {} | {} | {} | {} | {} | {}, {} | {:.3} | {:.2} | {} / {} | {:.1} | {:.1} | {} | {}{:.0} | {} |\n",
                c.width,
                c.height,
                r.name,
                r.params,
                r.maps,
                fmt_secs(r.mean()),
                fmt_secs(r.median()),
                fmt_ratio(r.mean() / first.mean()),
                fmt_ratio(r.median() / first.median()),
                r.metric(0),
                r.metric(1),
                r.one_region,
                r.maps,
                r.metric(2),
                r.metric(3),
                if r.ours {
                    format!("{:.1}", r.metric(4))
                } else {
                    "–".to_string()
                },
                if r.exact { "" } else { "≥ " },
                r.metric(5),
                if c.title == "Caves" {
                    "–".to_string()
                } else {
                    format!("{:.1}", r.metric(6))
                },
            ));
        }
    }
    s
}

/// Issue 6's target (levelgraph at least 3× faster than mapgen): one row
/// per judged pair, one column per size, each cell the speed-up (mapgen's
/// time / ours) on the mean and on the median, **bold** below 3×.
pub fn verdicts(all: &[Comparison]) -> String {
    let mut sizes: Vec<(u32, u32)> = Vec::new();
    for c in all {
        if !sizes.contains(&(c.width, c.height)) {
            sizes.push((c.width, c.height));
        }
    }
    let mut s = String::from("| comparison | levelgraph | mapgen |");
    for (w, h) in &sizes {
        s.push_str(&format!(" {w} × {h} |"));
    }
    s.push_str("\n|---|---|---|");
    s.push_str(&"---|".repeat(sizes.len()));
    s.push('\n');
    for title in titles(all) {
        let first = all
            .iter()
            .find(|c| c.title == title)
            .expect("a title has a comparison");
        for &(a, b) in &first.pairs {
            s.push_str(&format!(
                "| {title} | {} | {} |",
                first.rows[a].name, first.rows[b].name
            ));
            for &(w, h) in &sizes {
                let Some(c) = all
                    .iter()
                    .find(|c| c.title == title && (c.width, c.height) == (w, h))
                else {
                    s.push_str(" |");
                    continue;
                };
                let (o, t) = (&c.rows[a], &c.rows[b]);
                let (mean, median) = (t.mean() / o.mean(), t.median() / o.median());
                let cell = format!("{} / {}", fmt_ratio(mean), fmt_ratio(median));
                if mean >= 3.0 && median >= 3.0 {
                    s.push_str(&format!(" {cell} |"));
                } else {
                    s.push_str(&format!(" **{cell}** |"));
                }
            }
            s.push('\n');
        }
    }
    s
}
