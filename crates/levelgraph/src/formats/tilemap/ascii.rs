//! The ASCII picture of a tile map (`level.txt`), the roguelike way: one
//! character per cell, one line per row, top row first.
//!
//! The alphabet:
//!
//! | char | meaning |
//! |---|---|
//! | `#` | wall |
//! | `.` | floor |
//! | `+` | door |
//! | `:` | corridor |
//! | a letter | floor of a room tagged with a tag kind (below) |
//! | `k` | an object whose kind has the word `key` (`key`, `red-key`) |
//! | `L` | an object whose kind has the word `lock` |
//! | `*` | any other object (an item stored in a room) |
//! | `?` | a cell whose code names no kind (a broken map) |
//!
//! Tag kinds get one character each, unique within the map, chosen in
//! `tag_kinds` order: the first letter of the tag's name, lowercased, that
//! no earlier kind took; else the first such letter uppercased; else the
//! first free one of `a`–`z`, `A`–`Z`, `0`–`9`; else (past 60 or so tag
//! kinds) Latin letters from U+00C0 on. `k` and `L` are never given to a
//! tag, so an object always stands out. Objects are drawn over their cell,
//! later ones over earlier ones.

use std::io::{self, Write};

use crate::tiles::{Tile, TileMap};

use super::ObjectClass;

/// Characters of the fixed kinds and object classes, which tag kinds never
/// get.
const RESERVED: [char; 8] = ['#', '.', '+', ':', 'k', 'L', '*', '?'];

/// One character of a map's ASCII alphabet and what it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsciiSymbol {
    /// The character.
    pub glyph: char,
    /// `wall`, `floor`, `door`, `corridor`, a tag kind's name, or `key`,
    /// `lock`, `item` for objects.
    pub meaning: String,
}

/// The ASCII picture of `map`: `height` lines of `width` characters, each
/// ending in `\n`, with the alphabet of the module docs. Never fails: cells
/// missing from a short `cells` vector read as walls, and objects off the
/// map are left out. The whole text in memory; [`write_ascii`] writes the
/// same bytes to a file as it goes.
pub fn to_ascii(map: &TileMap) -> String {
    crate::formats::in_memory(|w| write_ascii(w, map))
}

/// [`to_ascii`] written to `w` a row at a time.
///
/// # Errors
/// The first error of `w`, as it came.
pub fn write_ascii<W: Write>(w: &mut W, map: &TileMap) -> io::Result<()> {
    let tag_glyphs = tag_glyphs(map);
    let glyph = |tile: Tile| match tile {
        Tile::WALL => '#',
        Tile::FLOOR => '.',
        Tile::DOOR => '+',
        Tile::CORRIDOR => ':',
        t => t
            .tag_index()
            .and_then(|i| tag_glyphs.get(i).copied())
            .unwrap_or('?'),
    };
    // The objects by row; a stable sort keeps later ones over earlier ones.
    let mut objects: Vec<(usize, usize, char)> = map
        .objects
        .iter()
        .map(|o| {
            let [x, y] = o.cell;
            (
                y as usize,
                x as usize,
                object_glyph(ObjectClass::of(&o.kind)),
            )
        })
        .collect();
    objects.sort_by_key(|&(y, _, _)| y);
    let mut objects = objects.into_iter().peekable();
    let width = map.width as usize;
    let mut row = String::with_capacity(width + 1);
    let mut chars: Vec<char> = Vec::with_capacity(width);
    for y in 0..map.height as usize {
        chars.clear();
        chars.extend(
            (0..width).map(|x| glyph(map.cells.get(y * width + x).copied().unwrap_or(Tile::WALL))),
        );
        while let Some((_, x, c)) = objects.next_if(|o| o.0 <= y) {
            if let Some(cell) = chars.get_mut(x) {
                *cell = c;
            }
        }
        row.clear();
        row.extend(&chars);
        row.push('\n');
        w.write_all(row.as_bytes())?;
    }
    Ok(())
}

/// The characters [`to_ascii`] uses for `map`, in this order: the four
/// fixed kinds, the tag kinds in code order, then `key`, `lock` and `item`
/// for the object classes that occur on the map.
pub fn ascii_symbols(map: &TileMap) -> Vec<AsciiSymbol> {
    let symbol = |glyph: char, meaning: &str| AsciiSymbol {
        glyph,
        meaning: meaning.to_owned(),
    };
    let mut out = vec![
        symbol('#', "wall"),
        symbol('.', "floor"),
        symbol('+', "door"),
        symbol(':', "corridor"),
    ];
    out.extend(
        tag_glyphs(map)
            .into_iter()
            .zip(&map.tag_kinds)
            .map(|(glyph, tag)| symbol(glyph, tag)),
    );
    for (class, meaning) in [
        (ObjectClass::Key, "key"),
        (ObjectClass::Lock, "lock"),
        (ObjectClass::Item, "item"),
    ] {
        if map
            .objects
            .iter()
            .any(|o| ObjectClass::of(&o.kind) == class)
        {
            out.push(symbol(object_glyph(class), meaning));
        }
    }
    out
}

/// [`ascii_symbols`] as text: one `<char> <meaning>` line per symbol, to
/// print beside the picture.
pub fn ascii_legend(map: &TileMap) -> String {
    let mut out = String::new();
    for s in ascii_symbols(map) {
        out.push(s.glyph);
        out.push(' ');
        out.push_str(&s.meaning);
        out.push('\n');
    }
    out
}

fn object_glyph(class: ObjectClass) -> char {
    match class {
        ObjectClass::Key => 'k',
        ObjectClass::Lock => 'L',
        ObjectClass::Item => '*',
    }
}

/// One character per tag kind, by the rule in the module docs.
fn tag_glyphs(map: &TileMap) -> Vec<char> {
    let mut taken: Vec<char> = RESERVED.to_vec();
    let fallback = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        // Latin-1 and Latin Extended letters; × and ÷ are not letters.
        .chain(('\u{C0}'..='\u{24F}').filter(|c| !matches!(c, '\u{D7}' | '\u{F7}')));
    let mut out = Vec::with_capacity(map.tag_kinds.len());
    for tag in &map.tag_kinds {
        let letters = || tag.chars().filter(char::is_ascii_alphabetic);
        let glyph = letters()
            .map(|c| c.to_ascii_lowercase())
            .chain(letters().map(|c| c.to_ascii_uppercase()))
            .chain(fallback.clone())
            .find(|c| !taken.contains(c))
            // Unreachable below Tile::MAX_TAG_KINDS tags, which the range
            // above outnumbers.
            .unwrap_or('?');
        if glyph != '?' {
            taken.push(glyph);
        }
        out.push(glyph);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::TileObject;

    #[test]
    fn tag_glyphs_prefer_the_tags_letters_and_stay_unique() {
        let mut map = TileMap::filled(1, 1, Tile::WALL);
        map.tag_kinds = ["cave", "crypt", "key", "lake", "c", "cc"]
            .map(String::from)
            .to_vec();
        // key: k is reserved, e is free; lake: l is free (only L is reserved);
        // c: c is taken, so C; cc: c and C are taken, so the first free
        // letter of a–z.
        assert_eq!(tag_glyphs(&map), ['c', 'r', 'e', 'l', 'C', 'a']);
    }

    #[test]
    fn every_possible_tag_kind_gets_its_own_glyph() {
        let mut map = TileMap::filled(1, 1, Tile::WALL);
        map.tag_kinds = (0..Tile::MAX_TAG_KINDS).map(|i| format!("t{i}")).collect();
        let glyphs = tag_glyphs(&map);
        let mut unique = glyphs.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), Tile::MAX_TAG_KINDS);
        assert!(glyphs.iter().all(|g| !RESERVED.contains(g)));
    }

    #[test]
    fn short_cells_read_as_walls_and_objects_off_the_map_are_dropped() {
        let mut map = TileMap::filled(3, 2, Tile::FLOOR);
        map.cells.truncate(4);
        map.cells[1] = Tile(200);
        map.objects.push(TileObject {
            name: "x".into(),
            kind: "gem".into(),
            cell: [5, 0],
            room: None,
            properties: Vec::new(),
        });
        assert_eq!(to_ascii(&map), ".?.\n.##\n");
        assert_eq!(
            ascii_legend(&map),
            "# wall\n. floor\n+ door\n: corridor\n* item\n"
        );
    }
}
