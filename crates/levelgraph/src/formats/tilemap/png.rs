//! PNG pictures of a tile map (`level.png`) and the tileset image of the
//! Tiled exports (`tileset.png`), written with the `png` crate.
//!
//! Both are 8-bit RGB without alpha, interlacing or extra chunks, filtered
//! and compressed with fixed settings (adaptive filter, zlib level 6 via
//! `flate2`), so the same map, palette and size give the same bytes. A
//! newer `png` or `flate2` release may compress differently; the golden
//! tests then say so, and the pixels stay the same.
//!
//! Colours: the four fixed kinds have fixed colours ([`WALL_COLOR`],
//! [`FLOOR_COLOR`], [`DOOR_COLOR`], [`CORRIDOR_COLOR`]); a tag kind is
//! the colour the alphabet gives its tag ([`Alphabet::color`], grey
//! [`UNKNOWN_TAG_COLOR`] for tags it does not declare), the same colour
//! the mission graph and layout pictures fill that tag with. An object's
//! marker has the colour of its kind, from the alphabet in the same way.

use std::collections::BTreeMap;

use ::png::{BitDepth, ColorType, DeflateCompression, Encoder, Filter};

use super::{check_map, TileExportError};
use crate::alphabet::{Alphabet, UNKNOWN_TAG_COLOR};
use crate::tiles::{Tile, TileMap};

/// A colour: red, green, blue, each 0–255.
pub type Rgb = [u8; 3];

/// Wall: dark blue-grey (`#263238`).
pub const WALL_COLOR: Rgb = [0x26, 0x32, 0x38];
/// Floor of untagged rooms and caves: pale grey (`#eceff1`).
pub const FLOOR_COLOR: Rgb = [0xec, 0xef, 0xf1];
/// Door: light brown (`#c47a2c`), apart from both walls and floors.
pub const DOOR_COLOR: Rgb = [0xc4, 0x7a, 0x2c];
/// Corridor: blue-grey (`#b0bec5`), darker than floor.
pub const CORRIDOR_COLOR: Rgb = [0xb0, 0xbe, 0xc5];
/// The frame of an object marker big enough to have one: black, so a
/// marker shows on a floor of its own colour.
pub const MARKER_OUTLINE_COLOR: Rgb = [0, 0, 0];

/// The largest width or height of an image, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 16_384;

/// The colours of a picture: one per tile kind and one per object kind.
///
/// Any colours are valid, so the fields are public; [`TilePalette::new`]
/// gives the house colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilePalette {
    /// The colour of tile code `c` is `tiles[c]`: wall, floor, door,
    /// corridor, then one per tag kind. Also the order of the tiles in
    /// [`tileset_png`].
    pub tiles: Vec<Rgb>,
    /// Marker colours of object kinds (a [`crate::tiles::TileObject`]'s
    /// `kind`).
    pub objects: BTreeMap<String, Rgb>,
    /// The marker colour of object kinds missing from `objects`.
    pub other_object: Rgb,
    /// The frame of markers at least 4 pixels wide.
    pub marker_outline: Rgb,
}

impl TilePalette {
    /// The palette of `map`: the fixed colours, then each of
    /// `map.tag_kinds` coloured by `alphabet`; a marker colour for each
    /// object kind on the map, also from `alphabet`. Tags and kinds the
    /// alphabet does not declare (or whose colour is not `#rrggbb`) are
    /// [`UNKNOWN_TAG_COLOR`].
    pub fn new(map: &TileMap, alphabet: &Alphabet) -> Self {
        let unknown = hex_color(UNKNOWN_TAG_COLOR).unwrap_or([0xbd; 3]);
        let color = |name: &str| hex_color(alphabet.color(name)).unwrap_or(unknown);
        let mut tiles = vec![WALL_COLOR, FLOOR_COLOR, DOOR_COLOR, CORRIDOR_COLOR];
        tiles.extend(map.tag_kinds.iter().map(|t| color(t)));
        let objects = map
            .objects
            .iter()
            .map(|o| (o.kind.clone(), color(&o.kind)))
            .collect();
        TilePalette {
            tiles,
            objects,
            other_object: unknown,
            marker_outline: MARKER_OUTLINE_COLOR,
        }
    }

    /// The colour of `tile`, `None` past the end of `tiles`.
    pub fn tile_color(&self, tile: Tile) -> Option<Rgb> {
        self.tiles.get(usize::from(tile.0)).copied()
    }

    /// The marker colour of objects of `kind`.
    pub fn object_color(&self, kind: &str) -> Rgb {
        self.objects.get(kind).copied().unwrap_or(self.other_object)
    }
}

/// The PNG picture of `map`: `width × cell_px` by `height × cell_px`
/// pixels, each cell a `cell_px × cell_px` block of its kind's colour from
/// `palette`. When `cell_px ≥ 3` each object is a square marker in the
/// middle of its cell, inset by a quarter of the cell (at least one pixel)
/// on every side, framed in `palette.marker_outline` when it is 4 pixels or
/// wider; later objects are drawn over earlier ones on a shared cell. With
/// `cell_px` 1 or 2 objects are not drawn.
///
/// # Errors
///
/// [`TileExportError::Parameter`] when `cell_px` is 0 or makes a side of
/// the image longer than [`MAX_IMAGE_SIDE`], or when `palette.tiles` has
/// no colour for a kind on the map; [`TileExportError::Map`] when the map
/// breaks an invariant of [`TileMap`].
pub fn to_png(
    map: &TileMap,
    palette: &TilePalette,
    cell_px: u32,
) -> Result<Vec<u8>, TileExportError> {
    if cell_px == 0 {
        return Err(TileExportError::parameter(
            "cell_px",
            "0 pixels per cell (at least 1)",
        ));
    }
    check_map(map)?;
    let (width_px, height_px) = (
        u64::from(map.width) * u64::from(cell_px),
        u64::from(map.height) * u64::from(cell_px),
    );
    if width_px.max(height_px) > u64::from(MAX_IMAGE_SIDE) {
        return Err(TileExportError::parameter(
            "cell_px",
            format!(
                "a {} × {} map at {cell_px} px per cell is {width_px} × {height_px} px \
                 (at most {MAX_IMAGE_SIDE} per side)",
                map.width, map.height
            ),
        ));
    }
    if let Some(i) = map
        .cells
        .iter()
        .position(|&t| palette.tile_color(t).is_none())
    {
        return Err(TileExportError::parameter(
            "palette.tiles",
            format!(
                "no colour for tile code {} (cells[{i}]); {} colours",
                map.cells[i].0,
                palette.tiles.len()
            ),
        ));
    }
    let width = map.width as usize;
    let cell = cell_px as usize;
    let mut markers: Vec<Option<Rgb>> = Vec::new();
    if cell_px >= 3 {
        markers = vec![None; map.cells.len()];
        for o in &map.objects {
            markers[map.index(o.cell[0], o.cell[1])] = Some(palette.object_color(&o.kind));
        }
    }
    let inset = (cell / 4).max(1);
    let side = cell.saturating_sub(2 * inset);
    let framed = side >= 4;
    let row_bytes = width * cell * 3;
    // One row of cells in its tile colours, and the pixel row being written
    // (that row with the markers' slice for the pixel row drawn over it).
    let mut tiles = vec![0u8; row_bytes];
    let mut pixels = vec![0u8; row_bytes];
    encode(width_px as u32, height_px as u32, |out| {
        for y in 0..map.height as usize {
            for (x, &tile) in map.cells[y * width..(y + 1) * width].iter().enumerate() {
                // Checked above: every cell has a colour.
                let rgb = palette.tile_color(tile).unwrap_or(WALL_COLOR);
                for px in tiles[x * cell * 3..(x + 1) * cell * 3].chunks_exact_mut(3) {
                    px.copy_from_slice(&rgb);
                }
            }
            let row_markers = markers.get(y * width..(y + 1) * width).unwrap_or(&[]);
            for dy in 0..cell {
                let in_marker = dy >= inset && dy < inset + side;
                if !in_marker || row_markers.iter().all(Option::is_none) {
                    out.write_all(&tiles)?;
                    continue;
                }
                pixels.copy_from_slice(&tiles);
                let edge_row = dy == inset || dy + 1 == inset + side;
                for (x, marker) in row_markers.iter().enumerate() {
                    let Some(rgb) = marker else { continue };
                    for dx in 0..side {
                        let edge = edge_row || dx == 0 || dx + 1 == side;
                        let color = if framed && edge {
                            palette.marker_outline
                        } else {
                            *rgb
                        };
                        let at = (x * cell + inset + dx) * 3;
                        pixels[at..at + 3].copy_from_slice(&color);
                    }
                }
                out.write_all(&pixels)?;
            }
        }
        Ok(())
    })
}

/// The tileset image of the Tiled exports: one `tile_px × tile_px` square
/// of solid colour per entry of `palette.tiles`, in code order, left to
/// right in one row (so tile index = tile code, as the tileset of
/// [`super::to_tmj`] says). `palette.tiles.len() × tile_px` by `tile_px`
/// pixels.
///
/// # Errors
///
/// [`TileExportError::Parameter`] when `tile_px` is 0 or makes the image
/// wider than [`MAX_IMAGE_SIDE`], or `palette.tiles` is empty.
pub fn tileset_png(palette: &TilePalette, tile_px: u32) -> Result<Vec<u8>, TileExportError> {
    if tile_px == 0 {
        return Err(TileExportError::parameter(
            "tile_px",
            "0 pixels per tile (at least 1)",
        ));
    }
    if palette.tiles.is_empty() {
        return Err(TileExportError::parameter(
            "palette.tiles",
            "no colours (at least 1)",
        ));
    }
    let width_px = palette.tiles.len() as u64 * u64::from(tile_px);
    if width_px > u64::from(MAX_IMAGE_SIDE) || tile_px > MAX_IMAGE_SIDE {
        return Err(TileExportError::parameter(
            "tile_px",
            format!(
                "{} tiles of {tile_px} px make a {width_px} px wide image (at most {MAX_IMAGE_SIDE})",
                palette.tiles.len()
            ),
        ));
    }
    let row: Vec<u8> = palette
        .tiles
        .iter()
        .flat_map(|rgb| rgb.repeat(tile_px as usize))
        .collect();
    encode(width_px as u32, tile_px, |out| {
        for _ in 0..tile_px {
            out.write_all(&row)?;
        }
        Ok(())
    })
}

/// An 8-bit RGB PNG of `width × height` pixels whose rows `write_rows`
/// writes top to bottom (3 bytes a pixel, no filter bytes). Rows are
/// streamed, so a large image never sits in memory unfiltered.
fn encode(
    width: u32,
    height: u32,
    write_rows: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<Vec<u8>, TileExportError> {
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(&mut bytes, width, height);
    encoder.set_color(ColorType::Rgb);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_deflate_compression(DeflateCompression::Level(6));
    encoder.set_filter(Filter::Adaptive);
    let mut writer = encoder.write_header()?;
    let mut stream = writer.stream_writer()?;
    write_rows(&mut stream).map_err(::png::EncodingError::from)?;
    stream.finish()?;
    writer.finish()?;
    Ok(bytes)
}

/// `#rrggbb` as a colour; `None` for anything else.
fn hex_color(s: &str) -> Option<Rgb> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([channel(0)?, channel(2)?, channel(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_and_others_do_not() {
        assert_eq!(hex_color("#c47A2c"), Some(DOOR_COLOR));
        assert_eq!(hex_color("#fff"), None);
        assert_eq!(hex_color("c47a2c"), None);
        assert_eq!(hex_color("#c47a2g"), None);
        assert_eq!(hex_color("#ééé"), None);
    }

    #[test]
    fn bad_sizes_are_errors_naming_the_parameter() {
        let map = TileMap::filled(4, 3, Tile::FLOOR);
        let palette = TilePalette::new(&map, &Alphabet::default());
        let field = |r: Result<Vec<u8>, TileExportError>| match r {
            Err(TileExportError::Parameter { field, .. }) => field,
            other => panic!("expected a parameter error, got {other:?}"),
        };
        assert_eq!(field(to_png(&map, &palette, 0)), "cell_px");
        assert_eq!(field(to_png(&map, &palette, 4097)), "cell_px");
        let wide = TileMap::filled(MAX_IMAGE_SIDE, 1, Tile::FLOOR);
        assert!(to_png(&wide, &palette, 1).is_ok());
        assert_eq!(field(to_png(&wide, &palette, 2)), "cell_px");
        assert_eq!(field(tileset_png(&palette, 0)), "tile_px");
        assert_eq!(field(tileset_png(&palette, 4097)), "tile_px");
        let short = TilePalette {
            tiles: vec![WALL_COLOR],
            ..palette.clone()
        };
        assert_eq!(field(to_png(&map, &short, 1)), "palette.tiles");
    }
}
