//! `levelgraph tiles`: three classic roguelike grid generators (rooms and
//! corridors, accretion, cellular-automaton caves) on the command line, and
//! the tile-map files that `tiles` and `generate` write.

use std::path::PathBuf;
use std::time::Instant;

use levelgraph::alphabet::Alphabet;
use levelgraph::formats::tilemap::{
    tileset_png, to_png, to_tmj, to_tmx, write_ascii, write_csv, TileExportError, TilePalette,
    TiledOptions, TiledProperty,
};
use levelgraph::tiles::accretion::{self, AccretionParams};
use levelgraph::tiles::caves::{self, CaveParams, CaveRule, Connectivity};
use levelgraph::tiles::metrics::Metrics;
use levelgraph::tiles::rooms_and_corridors::{self, RoomsParams};
use levelgraph::tiles::{TileMap, TilesError};

use crate::output::{self, OutFile};
use crate::Failure;

/// The command line of `tiles`.
#[derive(clap::Args, Debug)]
pub(crate) struct Options {
    #[command(subcommand)]
    generator: Generator,
    /// Seed of the map: same generator, parameters and seed, same bytes.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::parse_seed, global = true, help_heading = "Output")]
    seed: u64,
    /// Output folder, created if missing.
    #[arg(long, default_value = "out", global = true, help_heading = "Output")]
    out: PathBuf,
    /// Which files to write, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "txt,csv,png,tmj,tmx",
        global = true,
        help_heading = "Output"
    )]
    formats: Vec<TileFormat>,
    /// Pixels per cell in map.png (1: one pixel per cell).
    #[arg(long, default_value_t = 4, global = true, help_heading = "Output")]
    cell_px: u32,
}

/// A tile-map file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TileFormat {
    /// map.txt: ASCII, one character per cell.
    Txt,
    /// map.csv: tile codes, one row per line.
    Csv,
    /// map.png: a picture, `--cell-px` pixels per cell.
    Png,
    /// map.tmj: Tiled JSON map with map-tileset.png beside it.
    Tmj,
    /// map.tmx: Tiled XML map with map-tileset.png beside it.
    Tmx,
}

// Each parameter's default is the library's (`RoomsParams::default()` and
// so on), shown by `--help`; the ranges are checked by the library's
// `validate`, which names the parameter.
#[derive(clap::Subcommand, Debug)]
enum Generator {
    /// Rooms and corridors: rooms of random size joined by L-shaped
    /// corridors, every room reachable from the first.
    Rooms {
        /// Map columns, in cells (5 × min_room_size to 4096).
        #[arg(long, default_value_t = RoomsParams::default().width)]
        width: u32,
        /// Map rows, in cells (5 × min_room_size to 4096).
        #[arg(long, default_value_t = RoomsParams::default().height)]
        height: u32,
        /// Rooms to place (roomN), 1 to 1024; a room that finds no place in
        /// its tries is left out.
        #[arg(long, default_value_t = RoomsParams::default().rooms)]
        rooms: u32,
        /// Corridors sent from each room to random other rooms (corridorN),
        /// 0 to 16.
        #[arg(long, default_value_t = RoomsParams::default().corridors)]
        corridors: u32,
        /// Placement tries per room, 1 to 1000.
        #[arg(long, default_value_t = RoomsParams::default().placement_tries)]
        placement_tries: u32,
        /// Smallest room side, in cells (the largest is width/5 × height/5).
        #[arg(long, default_value_t = RoomsParams::default().min_room_size)]
        min_room_size: u32,
    },
    /// Accretion (after Anderson's "Dungeon-Building Algorithm"): rooms and
    /// corridors dug out from the walls of what is already dug, then dead
    /// ends removed.
    Accretion {
        /// Map columns, in cells (maxW).
        #[arg(long, default_value_t = AccretionParams::default().width)]
        width: u32,
        /// Map rows, in cells (maxH).
        #[arg(long, default_value_t = AccretionParams::default().height)]
        height: u32,
        /// Attempts to add a room or corridor (at most 1,000,000).
        #[arg(long, default_value_t = AccretionParams::default().steps)]
        steps: u32,
        /// Narrowest room, in cells.
        #[arg(long, default_value_t = AccretionParams::default().min_room_width)]
        min_room_width: u32,
        /// Widest room, in cells.
        #[arg(long, default_value_t = AccretionParams::default().max_room_width)]
        max_room_width: u32,
        /// Lowest room, in cells.
        #[arg(long, default_value_t = AccretionParams::default().min_room_height)]
        min_room_height: u32,
        /// Highest room, in cells.
        #[arg(long, default_value_t = AccretionParams::default().max_room_height)]
        max_room_height: u32,
        /// Shortest corridor, in cells.
        #[arg(long, default_value_t = AccretionParams::default().min_corridor_length)]
        min_corridor_length: u32,
        /// Longest corridor, in cells.
        #[arg(long, default_value_t = AccretionParams::default().max_corridor_length)]
        max_corridor_length: u32,
        /// Chance of a room rather than a corridor, 0..=1.
        #[arg(long, default_value_t = AccretionParams::default().room_chance)]
        room_chance: f64,
        /// How many cells past its length a corridor may be extended to
        /// join open space (connectDistance).
        #[arg(long, default_value_t = AccretionParams::default().connect_distance)]
        connect_distance: u32,
    },
    /// Caves: a cellular automaton (a variant of RogueBasin's 4-5 rule)
    /// with a floor-ratio test, reduced or joined to one region.
    Caves {
        /// Map columns, in cells (3 to 2048; with iterations at least 4,
        /// and 5 on the longer side).
        #[arg(long, default_value_t = CaveParams::default().width)]
        width: u32,
        /// Map rows, in cells (as width).
        #[arg(long, default_value_t = CaveParams::default().height)]
        height: u32,
        /// Chance of floor in the random start, 0..=1 (floorChance).
        #[arg(long, default_value_t = CaveParams::default().floor_chance)]
        floor_chance: f64,
        /// Least share of floor for a map to be accepted, 0..=1
        /// (floorRatio); a start below it is retried with floor_chance
        /// raised by 0.01.
        #[arg(long, default_value_t = CaveParams::default().floor_ratio)]
        floor_ratio: f64,
        /// Iterations with the 4×4 (or 5×5) wall-adding rule (wallAddIts).
        #[arg(long, default_value_t = CaveParams::default().wall_add_iterations)]
        wall_add_iterations: u32,
        /// Iterations without it (noWallAddIts).
        #[arg(long, default_value_t = CaveParams::default().no_wall_add_iterations)]
        no_wall_add_iterations: u32,
        /// The rule set: the standard 3×3/4×4/3×3 rules or RogueBasin's
        /// classic 3×3/5×5.
        #[arg(long, value_enum, default_value_t = RuleArg::from(CaveParams::default().rule))]
        rule: RuleArg,
        /// Starts before giving up on the floor ratio.
        #[arg(long, default_value_t = CaveParams::default().max_tries)]
        max_tries: u32,
        /// Keep the largest region, or join every region by tunnels.
        #[arg(long, value_enum, default_value_t = ConnectArg::from(CaveParams::default().connect))]
        connect: ConnectArg,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum RuleArg {
    /// Standard: 3×3 ≥ 5 walls → wall; 4×4 ≤ 2 walls → wall; 3×3 ≤ 2 walls → floor.
    #[value(alias = "seed004")]
    Standard,
    /// RogueBasin: 3×3 ≥ 5 walls or 5×5 ≤ 2 walls → wall, else floor.
    Roguebasin,
}

impl From<CaveRule> for RuleArg {
    fn from(rule: CaveRule) -> Self {
        match rule {
            CaveRule::Standard => RuleArg::Standard,
            CaveRule::RogueBasin => RuleArg::Roguebasin,
            other => unreachable!("cave rule `{other}` has no command-line name"),
        }
    }
}

impl From<RuleArg> for CaveRule {
    fn from(rule: RuleArg) -> Self {
        match rule {
            RuleArg::Standard => CaveRule::Standard,
            RuleArg::Roguebasin => CaveRule::RogueBasin,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ConnectArg {
    /// Fill every region but the largest.
    Largest,
    /// Carve tunnels joining every region.
    Join,
}

impl From<Connectivity> for ConnectArg {
    fn from(connect: Connectivity) -> Self {
        match connect {
            Connectivity::Largest => ConnectArg::Largest,
            Connectivity::Join => ConnectArg::Join,
            other => unreachable!("connectivity `{other}` has no command-line name"),
        }
    }
}

impl From<ConnectArg> for Connectivity {
    fn from(connect: ConnectArg) -> Self {
        match connect {
            ConnectArg::Largest => Connectivity::Largest,
            ConnectArg::Join => Connectivity::Join,
        }
    }
}

/// The value name `--help` shows as the default.
macro_rules! display_as_value_name {
    ($($t:ty),*) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let value = clap::ValueEnum::to_possible_value(self).expect("no skipped values");
                f.write_str(value.get_name())
            }
        }
    )*};
}
display_as_value_name!(RuleArg, ConnectArg);

pub(crate) fn run(o: &Options) -> Result<(), Failure> {
    let started = Instant::now();
    let (name, map) = match o.generator {
        Generator::Rooms {
            width,
            height,
            rooms,
            corridors,
            placement_tries,
            min_room_size,
        } => {
            let p = RoomsParams {
                width,
                height,
                rooms,
                corridors,
                placement_tries,
                min_room_size,
            };
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
            let p = AccretionParams {
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
            };
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
            let p = CaveParams {
                width,
                height,
                floor_chance,
                floor_ratio,
                wall_add_iterations,
                no_wall_add_iterations,
                rule: rule.into(),
                max_tries,
                connect: connect.into(),
            };
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
    output::write_all(&o.out, files).map_err(|e| {
        eprintln!("error: cannot write to {}: {e}", o.out.display());
        Failure::BadInput
    })?;
    let m = Metrics::of(&map);
    output::say(format_args!(
        "{name}: {} × {}, floor {:.1} %, {}, {}, {}, {}, longest path {}{}, {:.2} ms -> {}",
        m.width,
        m.height,
        m.floor_ratio * 100.0,
        output::counted(m.regions as u64, "region"),
        output::counted(m.dead_ends as u64, "dead end"),
        output::counted(m.rooms as u64, "room"),
        output::counted(m.corridors as u64, "corridor"),
        m.longest_path,
        if m.longest_path_exact {
            ""
        } else {
            " (at least)"
        },
        elapsed.as_secs_f64() * 1e3,
        o.out.display()
    ))
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
        _ => {
            eprintln!("error: {what}: {e}");
            Failure::Derivation
        }
    }
}

/// The files of `map` in `formats`, named `stem.EXT`, plus
/// `stem-tileset.png` when a Tiled map is among them. The tile set is named
/// after its map: `generate` (`level`) and `tiles` (`map`) write to the same
/// default folder, and their tile sets differ (one tile per kind the map
/// names), so a shared `tileset.png` written by one broke the other's
/// Tiled map.
pub(crate) fn tile_files<'a>(
    map: &'a TileMap,
    stem: &str,
    formats: &[TileFormat],
    cell_px: u32,
    alphabet: &Alphabet,
    properties: &[TiledProperty],
) -> Result<Vec<OutFile<'a>>, Failure> {
    let palette = TilePalette::new(map, alphabet);
    let tiled = TiledOptions {
        tile_px: 16,
        tileset_image: format!("{stem}-tileset.png"),
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
        let name = |ext: &str| format!("{stem}.{ext}");
        // The text exports cannot fail and are written as they go; the
        // others are made whole first, so their errors come before any file.
        files.push(match format {
            TileFormat::Txt => OutFile::streamed(name("txt"), |mut w| write_ascii(&mut w, map)),
            TileFormat::Csv => OutFile::streamed(name("csv"), |mut w| write_csv(&mut w, map)),
            TileFormat::Png => OutFile::bytes(
                name("png"),
                to_png(map, &palette, cell_px).map_err(|e| fail("--cell-px", e))?,
            ),
            TileFormat::Tmj => OutFile::bytes(
                name("tmj"),
                to_tmj(map, &tiled).map_err(|e| fail("Tiled JSON", e))?,
            ),
            TileFormat::Tmx => OutFile::bytes(
                name("tmx"),
                to_tmx(map, &tiled).map_err(|e| fail("Tiled XML", e))?,
            ),
        });
    }
    if formats
        .iter()
        .any(|f| matches!(f, TileFormat::Tmj | TileFormat::Tmx))
    {
        let png = tileset_png(&palette, tiled.tile_px).map_err(|e| fail("tileset", e))?;
        files.push(OutFile::bytes(tiled.tileset_image.clone(), png));
    }
    Ok(files)
}
