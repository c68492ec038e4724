//! `levelgraph tiles`: seed 004's grid generators on the command line, and
//! the tile-map files that `tiles` and `generate` write.

use std::path::PathBuf;
use std::time::Instant;

use levelgraph::alphabet::Alphabet;
use levelgraph::formats::tilemap::{
    tileset_png, to_ascii, to_csv, to_png, to_tmj, to_tmx, TileExportError, TilePalette,
    TiledOptions, TiledProperty,
};
use levelgraph::tiles::accretion::{self, AccretionParams};
use levelgraph::tiles::caves::{self, CaveParams, CaveRule, Connectivity};
use levelgraph::tiles::metrics::Metrics;
use levelgraph::tiles::rooms_and_corridors::{self, RoomsParams};
use levelgraph::tiles::{TileMap, TilesError};

use crate::output;
use crate::Failure;

/// The command line of `tiles`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    #[command(subcommand)]
    generator: Generator,
    /// Seed of the map: same generator, parameters and seed, same bytes.
    #[arg(long, default_value_t = 0, global = true)]
    seed: u64,
    /// Output folder, created if missing.
    #[arg(long, default_value = "out", global = true)]
    out: PathBuf,
    /// Which files to write, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "txt,csv,png,tmj,tmx",
        global = true
    )]
    formats: Vec<TileFormat>,
    /// Pixels per cell in map.png (1: one pixel per cell).
    #[arg(long, default_value_t = 4, global = true)]
    cell_px: u32,
}

/// A tile-map file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TileFormat {
    /// NAME.txt: ASCII, one character per cell.
    Txt,
    /// NAME.csv: tile codes, one row per line.
    Csv,
    /// NAME.png: a picture, `--cell-px` pixels per cell.
    Png,
    /// NAME.tmj: Tiled JSON map with tileset.png beside it.
    Tmj,
    /// NAME.tmx: Tiled XML map with tileset.png beside it.
    Tmx,
}

#[derive(clap::Subcommand, Debug)]
enum Generator {
    /// Seed 004 algorithm 1: rooms of random size joined by L-shaped
    /// corridors, every room reachable from the first.
    Rooms {
        /// Map columns.
        #[arg(long)]
        width: Option<u32>,
        /// Map rows.
        #[arg(long)]
        height: Option<u32>,
        /// Rooms to place (roomN).
        #[arg(long)]
        rooms: Option<u32>,
        /// Corridors sent from each room to random other rooms (corridorN).
        #[arg(long)]
        corridors: Option<u32>,
        /// Placement tries per room.
        #[arg(long)]
        placement_tries: Option<u32>,
        /// Smallest room side in cells.
        #[arg(long)]
        min_room_size: Option<u32>,
    },
    /// Seed 004 algorithm 2: rooms and corridors accreted onto the walls of
    /// what is already dug, then dead ends removed.
    Accretion {
        /// Map columns (maxW).
        #[arg(long)]
        width: Option<u32>,
        /// Map rows (maxH).
        #[arg(long)]
        height: Option<u32>,
        /// Attempts to add a room or corridor (at most 1,000,000).
        #[arg(long)]
        steps: Option<u32>,
        /// Narrowest room.
        #[arg(long)]
        min_room_width: Option<u32>,
        /// Widest room.
        #[arg(long)]
        max_room_width: Option<u32>,
        /// Lowest room.
        #[arg(long)]
        min_room_height: Option<u32>,
        /// Highest room.
        #[arg(long)]
        max_room_height: Option<u32>,
        /// Shortest corridor.
        #[arg(long)]
        min_corridor_length: Option<u32>,
        /// Longest corridor.
        #[arg(long)]
        max_corridor_length: Option<u32>,
        /// Chance of a room rather than a corridor, 0..1.
        #[arg(long)]
        room_chance: Option<f64>,
        /// How far a corridor is extended to join open space.
        #[arg(long)]
        connect_distance: Option<u32>,
    },
    /// Seed 004 algorithm 3: cellular-automaton caves with a floor-ratio
    /// test, reduced or joined to one region.
    Caves {
        /// Map columns.
        #[arg(long)]
        width: Option<u32>,
        /// Map rows.
        #[arg(long)]
        height: Option<u32>,
        /// Chance of floor in the random start, 0..1.
        #[arg(long)]
        floor_chance: Option<f64>,
        /// Least share of floor for a map to be accepted, 0..1.
        #[arg(long)]
        floor_ratio: Option<f64>,
        /// Iterations with the 4×4 (or 5×5) wall-adding rule (wallAddIts).
        #[arg(long)]
        wall_add_iterations: Option<u32>,
        /// Iterations without it (noWallAddIts).
        #[arg(long)]
        no_wall_add_iterations: Option<u32>,
        /// The rule set: seed 004's 3×3/4×4/3×3 rules or RogueBasin's
        /// classic 3×3/5×5.
        #[arg(long, value_enum)]
        rule: Option<RuleArg>,
        /// Starts before giving up on the floor ratio.
        #[arg(long)]
        max_tries: Option<u32>,
        /// Keep the largest region, or join every region by tunnels.
        #[arg(long, value_enum)]
        connect: Option<ConnectArg>,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum RuleArg {
    /// Seed 004: 3×3 ≥ 5 walls → wall; 4×4 ≤ 2 walls → wall; 3×3 ≤ 2 walls → floor.
    Seed004,
    /// RogueBasin: 3×3 ≥ 5 walls or 5×5 ≤ 2 walls → wall, else floor.
    Roguebasin,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ConnectArg {
    /// Fill every region but the largest.
    Largest,
    /// Carve tunnels joining every region.
    Join,
}

fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    let started = Instant::now();
    let (name, map) = match &o.generator {
        Generator::Rooms {
            width,
            height,
            rooms,
            corridors,
            placement_tries,
            min_room_size,
        } => {
            let mut p = RoomsParams::default();
            set(&mut p.width, *width);
            set(&mut p.height, *height);
            set(&mut p.rooms, *rooms);
            set(&mut p.corridors, *corridors);
            set(&mut p.placement_tries, *placement_tries);
            set(&mut p.min_room_size, *min_room_size);
            ("rooms", rooms_and_corridors::generate(&p, o.seed))
        }
        Generator::Accretion {
            width,
            height,
            steps,
            min_room_width,
            max_room_width,
            min_room_height,
            max_room_height,
            min_corridor_length,
            max_corridor_length,
            room_chance,
            connect_distance,
        } => {
            let mut p = AccretionParams::default();
            set(&mut p.width, *width);
            set(&mut p.height, *height);
            set(&mut p.steps, *steps);
            set(&mut p.min_room_width, *min_room_width);
            set(&mut p.max_room_width, *max_room_width);
            set(&mut p.min_room_height, *min_room_height);
            set(&mut p.max_room_height, *max_room_height);
            set(&mut p.min_corridor_length, *min_corridor_length);
            set(&mut p.max_corridor_length, *max_corridor_length);
            set(&mut p.room_chance, *room_chance);
            set(&mut p.connect_distance, *connect_distance);
            ("accretion", accretion::generate(&p, o.seed))
        }
        Generator::Caves {
            width,
            height,
            floor_chance,
            floor_ratio,
            wall_add_iterations,
            no_wall_add_iterations,
            rule,
            max_tries,
            connect,
        } => {
            let mut p = CaveParams::default();
            set(&mut p.width, *width);
            set(&mut p.height, *height);
            set(&mut p.floor_chance, *floor_chance);
            set(&mut p.floor_ratio, *floor_ratio);
            set(&mut p.wall_add_iterations, *wall_add_iterations);
            set(&mut p.no_wall_add_iterations, *no_wall_add_iterations);
            set(&mut p.max_tries, *max_tries);
            set(
                &mut p.rule,
                rule.map(|r| match r {
                    RuleArg::Seed004 => CaveRule::Seed004,
                    RuleArg::Roguebasin => CaveRule::RogueBasin,
                }),
            );
            set(
                &mut p.connect,
                connect.map(|c| match c {
                    ConnectArg::Largest => Connectivity::Largest,
                    ConnectArg::Join => Connectivity::Join,
                }),
            );
            ("caves", caves::generate(&p, o.seed))
        }
    };
    let map = map.map_err(|e| report(name, &e))?;
    let elapsed = started.elapsed();
    let properties = vec![
        TiledProperty::string("generator", name),
        TiledProperty::string("seed", o.seed.to_string()),
    ];
    let files = tile_files(
        &map,
        "map",
        &o.formats,
        o.cell_px,
        &Alphabet::default(),
        &properties,
    )?;
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect();
    output::write_all(&o.out, &files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", o.out.display());
        Failure::BadInput
    })?;
    let m = Metrics::of(&map);
    println!(
        "{name}: {} × {}, floor {:.1} %, {} region(s), {} dead end(s), {} rooms, {} corridors, longest path {}{}, {:.2} ms -> {}",
        m.width,
        m.height,
        m.floor_ratio * 100.0,
        m.regions,
        m.dead_ends,
        m.rooms,
        m.corridors,
        m.longest_path,
        if m.longest_path_exact { "" } else { " (at least)" },
        elapsed.as_secs_f64() * 1e3,
        o.out.display()
    );
    Ok(())
}

/// Prints a generator's error; parameters are bad input (exit 2), a limit
/// is a failure within limits (exit 1).
pub(crate) fn report(what: &str, e: &TilesError) -> Failure {
    match e {
        TilesError::Parameter { .. } => {
            eprintln!("error: {what}: {e}");
            Failure::BadInput
        }
        // A limit's message names its generator already.
        TilesError::Limit { .. } => {
            eprintln!("error: {e}");
            Failure::Derivation
        }
    }
}

/// The files of `map` in `formats`, named `stem.EXT`, plus `tileset.png`
/// when a Tiled map is among them.
pub(crate) fn tile_files(
    map: &TileMap,
    stem: &str,
    formats: &[TileFormat],
    cell_px: u32,
    alphabet: &Alphabet,
    properties: &[TiledProperty],
) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    let palette = TilePalette::new(map, alphabet);
    let tiled = TiledOptions {
        tile_px: 16,
        tileset_image: "tileset.png".to_owned(),
        properties: properties.to_vec(),
    };
    // The map is ours and the options fixed: an error here is a defect,
    // reported rather than hidden.
    let fail = |what: &str, e: TileExportError| {
        eprintln!("error: {what}: {e}");
        Failure::BadInput
    };
    let mut formats = formats.to_vec();
    formats.sort();
    formats.dedup();
    let mut files = Vec::new();
    for format in &formats {
        let (ext, bytes) = match format {
            TileFormat::Txt => ("txt", to_ascii(map).into_bytes()),
            TileFormat::Csv => ("csv", to_csv(map).into_bytes()),
            TileFormat::Png => (
                "png",
                to_png(map, &palette, cell_px).map_err(|e| fail("--cell-px", e))?,
            ),
            TileFormat::Tmj => (
                "tmj",
                to_tmj(map, &tiled)
                    .map_err(|e| fail("Tiled JSON", e))?
                    .into_bytes(),
            ),
            TileFormat::Tmx => (
                "tmx",
                to_tmx(map, &tiled)
                    .map_err(|e| fail("Tiled XML", e))?
                    .into_bytes(),
            ),
        };
        files.push((format!("{stem}.{ext}"), bytes));
    }
    if formats
        .iter()
        .any(|f| matches!(f, TileFormat::Tmj | TileFormat::Tmx))
    {
        let png = tileset_png(&palette, tiled.tile_px).map_err(|e| fail("tileset", e))?;
        files.push((tiled.tileset_image.clone(), png));
    }
    Ok(files)
}
