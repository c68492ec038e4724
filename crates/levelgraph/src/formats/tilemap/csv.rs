//! The tile codes of a map as CSV (`level.csv`): one line per row, top row
//! first, the codes of the row separated by commas, no header, no quotes,
//! `\n` after every row. The layout of a Tiled CSV layer and of Tiled's
//! "CSV" export (which writes tile ids, as here), and what Phaser's CSV
//! tilemap loader and most engines' CSV importers read as a grid of tile
//! indices.
//!
//! The codes are [`Tile`]'s and, since the tileset of
//! [`to_tmj`](super::to_tmj) and [`tileset_png`](super::tileset_png) puts
//! kind `c` at index `c`, also the tile indices into that tileset: `0`
//! wall, `1` floor, `2` door, `3` corridor, `4 + i` floor of a room tagged
//! `tag_kinds[i]`. Objects are not in this file (see the Tiled exports).

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::tiles::{Tile, TileMap};

/// The CSV text of `map`'s cells: `height` lines of `width` codes. Never
/// fails: cells missing from a short `cells` vector are written as walls.
/// The whole text in memory; [`write_csv`] writes the same bytes to a file
/// as it goes.
pub fn to_csv(map: &TileMap) -> String {
    crate::formats::in_memory(|w| write_csv(w, map))
}

/// [`to_csv`] written to `w` a row at a time.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_csv<W: Write>(w: &mut W, map: &TileMap) -> io::Result<()> {
    let width = map.width as usize;
    let mut row = String::with_capacity(width * 3);
    for y in 0..map.height as usize {
        row.clear();
        for x in 0..width {
            if x > 0 {
                row.push(',');
            }
            let tile = map.cells.get(y * width + x).copied().unwrap_or(Tile::WALL);
            // Writing into a String cannot fail.
            let _ = write!(row, "{}", tile.0);
        }
        row.push('\n');
        w.write_all(row.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_codes() {
        let mut map = TileMap::filled(3, 2, Tile::WALL);
        map.set(1, 0, Tile::FLOOR);
        map.set(2, 1, Tile(17));
        assert_eq!(to_csv(&map), "0,1,0\n0,0,17\n");
        map.cells.truncate(5);
        assert_eq!(to_csv(&map), "0,1,0\n0,0,0\n");
    }
}
