//! 8x8 tiles: from sheets to colour numbers, to the 2bpp bytes VRAM holds and back, and
//! sets of unique tiles.

use std::collections::HashMap;

use anyhow::{bail, Result};

use super::sheet::{Pixel, Sheet};
use crate::project::plural;

/// A tile's 64 colour numbers (0-3), row by row.
pub type Tile = [u8; 64];

/// A tile as VRAM holds it: for each row, the low bit plane byte, then the high one;
/// the leftmost pixel is bit 7.
pub type TileBytes = [u8; 16];

/// Which palette a tile is drawn with, and so how shades become colour numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// BGP as asm/home/init.asm sets it: colour n is shade n (white 0 .. black 3). Every
    /// pixel must be opaque.
    Background,
    /// OBP0 as asm/home/init.asm sets it: colour 0 is transparent, 1 white, 2 dark grey,
    /// 3 black. Light grey cannot be shown.
    Objects,
}

impl Palette {
    /// The colour number that shows `pixel`, or why none does (said after the pixel).
    fn colour(self, pixel: Pixel) -> std::result::Result<u8, &'static str> {
        match (self, pixel) {
            (Palette::Background, Some(shade)) => Ok(shade),
            (Palette::Background, None) => Err("but background art must be opaque everywhere"),
            (Palette::Objects, None) => Ok(0),
            (Palette::Objects, Some(0)) => Ok(1),
            (Palette::Objects, Some(1)) => Err(
                "which objects cannot show (their palette OBP0 has transparent, white, dark \
                 grey and black)",
            ),
            (Palette::Objects, Some(shade)) => Ok(shade),
        }
    }

    /// The pixel colour number `colour` shows.
    #[cfg(test)]
    pub fn pixel(self, colour: u8) -> Pixel {
        match (self, colour) {
            (Palette::Background, _) => Some(colour),
            (Palette::Objects, 0) => None,
            (Palette::Objects, 1) => Some(0),
            (Palette::Objects, _) => Some(colour),
        }
    }
}

/// The tile in tile column `column` and tile row `row` of `sheet`, in `palette`.
///
/// A tile of more than 4 colours (transparency counts as one) is an error that names the
/// tile and its colours, as is a pixel the palette cannot show.
pub fn tile_at(sheet: &Sheet, column: usize, row: usize, palette: Palette) -> Result<Tile> {
    let (left, top) = (column * 8, row * 8);
    let mut colours: Vec<Pixel> = Vec::new();
    for y in top..top + 8 {
        for x in left..left + 8 {
            if !colours.contains(&sheet.at(x, y)) {
                colours.push(sheet.at(x, y));
            }
        }
    }
    if colours.len() > 4 {
        colours.sort();
        let named: Vec<String> = colours.iter().map(|&pixel| sheet.describe(pixel)).collect();
        bail!(
            "{}: tile ({column}, {row}) (pixels {left}-{}, {top}-{}) has {} ({}); a \
             tile can have at most 4 (transparency counts as one)",
            sheet.name,
            left + 7,
            top + 7,
            plural(colours.len(), "colour"),
            named.join(", ")
        );
    }
    let mut tile = [0; 64];
    for y in 0..8 {
        for x in 0..8 {
            let pixel = sheet.at(left + x, top + y);
            tile[y * 8 + x] = match palette.colour(pixel) {
                Ok(colour) => colour,
                Err(why) => bail!(
                    "{}: pixel ({}, {}) in tile ({column}, {row}) is {}, {why}",
                    sheet.name,
                    left + x,
                    top + y,
                    sheet.describe(pixel)
                ),
            };
        }
    }
    Ok(tile)
}

/// Every tile of `sheet`, row by row.
pub fn tiles_of(sheet: &Sheet, palette: Palette) -> Result<Vec<Tile>> {
    let mut tiles = Vec::new();
    for row in 0..sheet.height / 8 {
        for column in 0..sheet.width / 8 {
            tiles.push(tile_at(sheet, column, row, palette)?);
        }
    }
    Ok(tiles)
}

/// The 2bpp bytes of a tile.
pub fn encode_2bpp(tile: &Tile) -> TileBytes {
    let mut bytes = [0; 16];
    for (row, pixels) in tile.chunks(8).enumerate() {
        for (x, &colour) in pixels.iter().enumerate() {
            let bit = 7 - x;
            bytes[row * 2] |= (colour & 1) << bit;
            bytes[row * 2 + 1] |= (colour >> 1 & 1) << bit;
        }
    }
    bytes
}

/// The tile 2bpp bytes hold.
pub fn decode_2bpp(bytes: &TileBytes) -> Tile {
    let mut tile = [0; 64];
    for row in 0..8 {
        for x in 0..8 {
            let bit = 7 - x;
            let low = bytes[row * 2] >> bit & 1;
            let high = bytes[row * 2 + 1] >> bit & 1;
            tile[row * 8 + x] = high << 1 | low;
        }
    }
    tile
}

/// Draws tiles, `columns` to a row, into a sheet as `palette` shows them: what
/// [`tiles_of`] read, given back.
#[cfg(test)]
pub fn sheet_of(name: &str, tiles: &[Tile], columns: usize, palette: Palette) -> Sheet {
    let rows = tiles.len().div_ceil(columns);
    let mut sheet = Sheet::filled(name, columns * 8, rows * 8, None);
    for (i, tile) in tiles.iter().enumerate() {
        let (left, top) = (i % columns * 8, i / columns * 8);
        for (j, &colour) in tile.iter().enumerate() {
            sheet.set(left + j % 8, top + j / 8, palette.pixel(colour));
        }
    }
    sheet
}

/// Tiles without repeats, in the order they were first added.
#[derive(Default)]
pub struct TileSet {
    pub tiles: Vec<TileBytes>,
    index: HashMap<TileBytes, usize>,
}

impl TileSet {
    /// The position of `tile` in the set, added at the end if it is new.
    pub fn insert(&mut self, tile: &Tile) -> usize {
        let bytes = encode_2bpp(tile);
        *self.index.entry(bytes).or_insert_with(|| {
            self.tiles.push(bytes);
            self.tiles.len() - 1
        })
    }

    /// The position of `tile` in the set, if it is there.
    pub fn find(&self, tile: &Tile) -> Option<usize> {
        self.index.get(&encode_2bpp(tile)).copied()
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }
}
