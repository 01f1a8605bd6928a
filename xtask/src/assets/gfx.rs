//! The art: `assets/*.png` to tiles, tile maps and a charmap in `generated/gfx/`.
//!
//! # The sheets (what an artist edits)
//!
//! The art is drawn in four colours, any four: the DMG greys (#FFFFFF, #AAAAAA, #555555,
//! #000000), an editor's green Game Boy palette, other greys. The title uses all four, and
//! its colours are the palette: ordered by luminance as rgbgfx orders colours, the
//! lightest is shade 0 (white), the darkest shade 3 (black) (see [`palette`]). Every other
//! sheet uses colours of that palette and, where it allows it, transparency (alpha below
//! 16; 16 to 239 is an error). Any PNG colour type and depth is read. Sizes are whole 8x8
//! tiles. `cargo xtask assets` prints each sheet's colours and the shades they became.
//!
//! - `title.png`, 160x144, opaque: the title screen, converted to a tile map.
//! - `font.png`, 128 pixels wide, 8x8 glyphs 16 to a row in the order of
//!   [`FONT_GLYPHS`]; the generated charmap maps each character to its tile, so
//!   `db "PRESS START@"` in asm/ is text in this font.
//! - `pieces.png`, 96x32: 16x16 pieces in the columns pawn, knight, bishop, rook, queen,
//!   king, White in the top row and Black below, on a transparent background.
//! - `board.png`, 104x24: five 16x16 cells along the top (light square, dark square, the
//!   destination outline, the selector, the last-move mark) and, at x 80, a 3x3-tile sample
//!   of the frame around the board with its middle tile transparent. The squares and the
//!   frame are opaque. The pieces and the outline are drawn into background tiles over the
//!   squares (and the outline over the pieces), so their transparency shows what is under
//!   them and a tile of theirs may use all four shades besides. The selector and the
//!   last-move mark (x 48-79, y 0-15) are objects, and the only objects: drawn with OBP0,
//!   whose colour 0 is transparent and 1-3 white, dark grey and black, a tile of theirs has
//!   transparency and at most those three shades (no light grey). Below the cells, x 0-79
//!   of rows 16-23, nothing is drawn.
//!
//! # The tile budget (VRAM, 384 tiles of 16 bytes at $8000-$97FF)
//!
//! - $8800-$8FFF (tiles 128-255, the same numbers in both LCDC addressing modes): the
//!   font from tile 128 on, on every screen, so that the charmap is fixed; the rest of
//!   this block holds each screen's own tiles after its first 128.
//! - The title screen (LCDC_BLOCK01, as asm/home/init.asm starts the LCD): its tiles
//!   are numbered 0-127 at $8000, then after the font. Tiles equal to a font glyph (the
//!   blank one, say) are the glyph. So the title may have up to 128 + (128 - font)
//!   different tiles; more is an error.
//! - The board screen (LCDC_BLOCK21): background tiles 0-127 at $9000, then after the
//!   font; objects 0-127 at $8000, apart from the background. Each square is 2x2 tiles
//!   with its piece composited in at conversion time (a piece on a light square and on a
//!   dark square are different tiles), and again with the destination outline drawn over
//!   it: 13 contents (empty and 12 pieces) x 2 square colours x (plain, outlined),
//!   except outlined kings (a king is never captured), so 26 + 22 cells. An empty
//!   square repeats one tile; pieces take 4 each. With the frame that is
//!   2 + 24 x 4 + 8 + 20 x 4 + 8 = 194 tiles; their table (`BoardCells`, 4 tile numbers
//!   per cell) is what the board view draws from. The selector and the last-move mark
//!   are 4 objects each, 8 object tiles.
//!
//! `cargo xtask assets` prints the figures; the limits are checked and an overflow is an
//! error naming the screen.

mod palette;
mod sheet;
#[cfg(test)]
mod tests;
mod tiles;

use std::path::Path;

use anyhow::{bail, Result};
use askama::Template;

use super::Outputs;
use crate::project::plural;
use palette::ArtPalette;
pub use sheet::Sheet;
#[cfg(test)]
use sheet::{decode_png, encode_png};
use tiles::{tile_at, tiles_of, Palette, Tile, TileBytes, TileSet};

/// The glyphs of `assets/font.png`, row by row, 16 to a row. `>` is the menu arrow, `^` and
/// `v` the pause menu's signs of more items above and below.
pub const FONT_GLYPHS: [&str; 4] = [
    " ABCDEFGHIJKLMNO",
    "PQRSTUVWXYZ.-x+#",
    "0123456789=:/!?>",
    "abcde(),'^v",
];
const FONT_COLUMNS: usize = 16;

/// The font's first tile number ($8800).
pub const FONT_FIRST_TILE: usize = 0x80;
/// Tile numbers a screen's own tiles take first: $8000 (LCDC_BLOCK01) or $9000
/// (LCDC_BLOCK21), before the ones after the font.
const LOW_TILES: usize = 128;
/// The bytes of a tile: 8 rows of 2 bitplanes.
const TILE_BYTES: usize = std::mem::size_of::<TileBytes>();

pub const TITLE_PNG: &str = "assets/title.png";
pub const FONT_PNG: &str = "assets/font.png";
pub const PIECES_PNG: &str = "assets/pieces.png";
pub const BOARD_PNG: &str = "assets/board.png";

const SQUARE: usize = 16;
/// The order of `pieces.png`'s columns: the roles as engine-src orders them.
pub const ROLES: [&str; 6] = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];
const COLORS: [&str; 2] = ["WHITE", "BLACK"];
/// `board.png`'s cells, left to right.
const LIGHT_CELL: usize = 0;
const DARK_CELL: usize = 1;
const DESTINATION_CELL: usize = 2;
const SELECTOR_CELL: usize = 3;
const LAST_MOVE_CELL: usize = 4;
const BOARD_CELLS: usize = 5;
/// Where the frame sample is in `board.png`.
const FRAME_LEFT: usize = BOARD_CELLS * SQUARE;
/// The frame's tiles: their names and their place (column, row) in the 3x3 sample.
const FRAME_TILES: [(&str, usize, usize); 8] = [
    ("TOP_LEFT", 0, 0),
    ("TOP", 1, 0),
    ("TOP_RIGHT", 2, 0),
    ("LEFT", 0, 1),
    ("RIGHT", 2, 1),
    ("BOTTOM_LEFT", 0, 2),
    ("BOTTOM", 1, 2),
    ("BOTTOM_RIGHT", 2, 2),
];

/// What a square of the board screen can show: empty, or one of the 12 pieces (White's
/// pawn to king, then Black's). Its index is the cell content number in `BoardCells`.
pub const CELL_CONTENTS: usize = 1 + 12;

pub fn generate(root: &Path, outputs: &mut Outputs) -> Result<()> {
    let art = read_art_from(root)?;
    let converted = convert(&art)?;
    for sheet in art.sheets() {
        outputs.note(sheet.conversion());
    }
    outputs.note(converted.budget());
    let streams = converted.streams();
    for stream in &streams {
        // The reference unpacker checks the packer.
        if super::pack::unpack(&stream.packed)? != stream.data {
            bail!(
                "{} does not unpack to its tiles: a bug in the packer",
                stream.label
            );
        }
        outputs.note(stream.sizes());
    }
    for (name, contents) in converted.files_of(&streams)? {
        outputs.ensure_file_contents(&name, contents.as_bytes())?;
    }
    Ok(())
}

/// The four sheets, in shades.
pub struct Art {
    pub title: Sheet,
    pub font: Sheet,
    pub pieces: Sheet,
    pub board: Sheet,
}

impl Art {
    pub fn sheets(&self) -> [&Sheet; 4] {
        [&self.title, &self.font, &self.pieces, &self.board]
    }
}

#[cfg(test)]
impl Art {
    /// The glyph of `ch` in the font, 8x8.
    pub fn glyph(&self, ch: char) -> Option<Sheet> {
        FONT_GLYPHS.iter().enumerate().find_map(|(row, chars)| {
            let column = chars.chars().position(|c| c == ch)?;
            Some(self.font.crop(column * 8, row * 8, 8, 8))
        })
    }

    /// The selector as `board.png` draws it, 16x16 with transparency around.
    pub fn selector(&self) -> Sheet {
        self.board.crop(SELECTOR_CELL * SQUARE, 0, SQUARE, SQUARE)
    }
}

/// Reads the four sheets from the repository's `assets/`.
#[cfg(test)]
pub fn read_art() -> Result<Art> {
    read_art_from(&crate::project::root())
}

/// Reads the four sheets from `root/assets/`, in shades: the title's four colours are the
/// palette, and every sheet is drawn in them.
pub fn read_art_from(root: &Path) -> Result<Art> {
    let title = sheet::read_png(root, TITLE_PNG)?;
    let font = sheet::read_png(root, FONT_PNG)?;
    let pieces = sheet::read_png(root, PIECES_PNG)?;
    let board = sheet::read_png(root, BOARD_PNG)?;
    let palette = ArtPalette::of(&title)?;
    Ok(Art {
        title: palette.sheet(&title)?,
        font: palette.sheet(&font)?,
        pieces: palette.sheet(&pieces)?,
        board: palette.sheet(&board)?,
    })
}

/// Everything the cartridge gets from the art.
pub struct Converted {
    pub font: Vec<(char, TileBytes)>,
    /// The space's tile: what a cleared part of a screen shows.
    pub blank: u8,
    pub title: ScreenTiles,
    /// The title's tile numbers, 20 x 18, row by row.
    pub title_map: Vec<u8>,
    pub board: ScreenTiles,
    /// Per cell (mark, content, square colour, in that nesting): 4 tile numbers.
    pub board_cells: Vec<[u8; 4]>,
    pub frame: Vec<(&'static str, u8)>,
    pub objects: Vec<TileBytes>,
}

/// The tiles of one screen beyond the font.
pub struct ScreenTiles {
    pub name: &'static str,
    font_end: usize,
    font: TileSet,
    pub set: TileSet,
}

impl ScreenTiles {
    fn new(name: &'static str, font: &[(char, TileBytes)]) -> ScreenTiles {
        let mut font_set = TileSet::default();
        for (_, bytes) in font {
            font_set.insert(&tiles::decode_2bpp(bytes));
        }
        ScreenTiles {
            name,
            font_end: FONT_FIRST_TILE + font.len(),
            font: font_set,
            set: TileSet::default(),
        }
    }

    /// How many different tiles of its own a screen can have.
    pub fn capacity(&self) -> usize {
        LOW_TILES + 256 - self.font_end
    }

    /// The tile number that shows `tile`: a font glyph's, or one of the screen's own.
    fn number(&mut self, tile: &Tile) -> u8 {
        if let Some(glyph) = self.font.find(tile) {
            return (FONT_FIRST_TILE + glyph) as u8;
        }
        let index = self.set.insert(tile);
        // An overflow shows as a wrong number here, and as an error in `check`.
        let number = if index < LOW_TILES {
            index
        } else {
            self.font_end + index - LOW_TILES
        };
        number.min(255) as u8
    }

    fn check(&self, what: &str) -> Result<()> {
        if self.set.len() > self.capacity() {
            bail!(
                "{what} has {} different tiles (not counting repeats and font glyphs), but the \
                 {} screen has room for {}: {LOW_TILES} in one VRAM block and {} after the {} \
                 font tiles; simplify the art",
                self.set.len(),
                self.name,
                self.capacity(),
                self.capacity() - LOW_TILES,
                self.font_end - FONT_FIRST_TILE
            );
        }
        Ok(())
    }

    /// The tiles numbered 0-127.
    pub fn low(&self) -> &[TileBytes] {
        &self.set.tiles[..self.set.len().min(LOW_TILES)]
    }

    /// The tiles numbered after the font.
    pub fn high(&self) -> &[TileBytes] {
        &self.set.tiles[self.set.len().min(LOW_TILES)..]
    }
}

/// Tiles as the cartridge stores them: packed (see [`super::pack`]), one stream for each
/// stretch of VRAM a screen's set-up unpacks them into.
pub struct Stream {
    pub label: &'static str,
    /// Where it unpacks to, as the asm names the place.
    pub destination: &'static str,
    /// What it holds, for the generated file.
    pub about: String,
    /// The tiles' bytes, as VRAM holds them once unpacked.
    pub data: Vec<u8>,
    pub packed: Vec<u8>,
}

impl Stream {
    fn new(label: &'static str, destination: &'static str, about: String, data: Vec<u8>) -> Stream {
        let packed = super::pack::pack(&data);
        Stream {
            label,
            destination,
            about,
            data,
            packed,
        }
    }

    /// The stream's sizes: unpacked, packed, and packed as pb16 (the scheme measured
    /// against).
    pub fn sizes(&self) -> String {
        format!(
            "{}: {} packed into {} (pb16: {})",
            self.label,
            plural(self.data.len(), "byte"),
            self.packed.len(),
            super::pack::pb16_pack(&self.data).len()
        )
    }
}

/// The bytes of `tiles`, one after the other.
fn tile_bytes(tiles: &[TileBytes]) -> Vec<u8> {
    tiles.iter().flatten().copied().collect()
}

/// Converts and checks all the art.
pub fn convert(art: &Art) -> Result<Converted> {
    let font = convert_font(&art.font)?;
    let Some(space) = font.iter().position(|&(ch, _)| ch == ' ') else {
        bail!(
            "{}: FONT_GLYPHS has no space, whose glyph is the blank tile",
            art.font.name
        );
    };

    if (art.title.width, art.title.height) != (160, 144) {
        bail!(
            "{}: the title is {}x{} pixels; it must be 160x144, the size of the screen",
            art.title.name,
            art.title.width,
            art.title.height
        );
    }
    let mut title = ScreenTiles::new("title", &font);
    let title_map = tiles_of(&art.title, Palette::Background)?
        .iter()
        .map(|tile| title.number(tile))
        .collect();
    title.check(&art.title.name)?;

    let mut board = ScreenTiles::new("board", &font);
    let board_cells = convert_cells(&art.pieces, &art.board, &mut board)?;
    let frame = convert_frame(&art.board, &mut board)?;
    board.check(&format!(
        "the board screen ({} and {})",
        art.pieces.name, art.board.name
    ))?;
    let objects = convert_objects(&art.board)?;
    Ok(Converted {
        font,
        blank: (FONT_FIRST_TILE + space) as u8,
        title,
        title_map,
        board,
        board_cells,
        frame,
        objects,
    })
}

/// Each glyph of [`FONT_GLYPHS`] and its tile.
fn convert_font(sheet: &Sheet) -> Result<Vec<(char, TileBytes)>> {
    let rows = FONT_GLYPHS.len();
    if (sheet.width, sheet.height) != (FONT_COLUMNS * 8, rows * 8) {
        bail!(
            "{}: the font is {}x{} pixels; it must be {}x{}: {rows} rows of {FONT_COLUMNS} \
             glyphs (see FONT_GLYPHS in xtask/src/assets/gfx.rs)",
            sheet.name,
            sheet.width,
            sheet.height,
            FONT_COLUMNS * 8,
            rows * 8
        );
    }
    let mut glyphs: Vec<(char, TileBytes)> = Vec::new();
    let mut seen = TileSet::default();
    for (row, chars) in FONT_GLYPHS.iter().enumerate() {
        let mut chars = chars.chars();
        for column in 0..FONT_COLUMNS {
            let tile = tile_at(sheet, column, row, Palette::Background)?;
            let Some(ch) = chars.next() else {
                if tile.iter().any(|&colour| colour != 0) {
                    bail!(
                        "{}: the glyph in tile ({column}, {row}) is drawn but has no character \
                         (add it to FONT_GLYPHS in xtask/src/assets/gfx.rs, or leave it white)",
                        sheet.name
                    );
                }
                continue;
            };
            let index = seen.insert(&tile);
            if index != glyphs.len() {
                bail!(
                    "{}: the glyphs {:?} and {ch:?} are drawn the same; each character needs \
                     its own drawing",
                    sheet.name,
                    glyphs[index].0
                );
            }
            glyphs.push((ch, tiles::encode_2bpp(&tile)));
        }
    }
    Ok(glyphs)
}

/// The 16x16 picture of a cell of the board screen: a square, maybe a piece on it, maybe
/// the destination outline over both. `content` is 0 for empty, else 1 + colour * 6 +
/// role; `square` 0 light, 1 dark.
pub fn cell_picture(
    pieces: &Sheet,
    board: &Sheet,
    content: usize,
    square: usize,
    outlined: bool,
) -> Sheet {
    let mut picture = board.crop(square * SQUARE, 0, SQUARE, SQUARE);
    if content > 0 {
        let (color, role) = ((content - 1) / 6, (content - 1) % 6);
        picture = picture.under(&pieces.crop(role * SQUARE, color * SQUARE, SQUARE, SQUARE));
    }
    if outlined {
        picture = picture.under(&board.crop(DESTINATION_CELL * SQUARE, 0, SQUARE, SQUARE));
    }
    picture
}

fn check_board_sheets(pieces: &Sheet, board: &Sheet) -> Result<()> {
    if (pieces.width, pieces.height) != (6 * SQUARE, 2 * SQUARE) {
        bail!(
            "{}: the pieces are {}x{} pixels; they must be 96x32: six 16x16 pieces (pawn, \
             knight, bishop, rook, queen, king) for White above six for Black",
            pieces.name,
            pieces.width,
            pieces.height
        );
    }
    if (board.width, board.height) != (FRAME_LEFT + 24, 24) {
        bail!(
            "{}: the sheet is {}x{} pixels; it must be {}x24: five 16x16 cells (light square, \
             dark square, destination outline, selector, last-move mark) and a 24x24 frame \
             sample",
            board.name,
            board.width,
            board.height,
            FRAME_LEFT + 24
        );
    }
    let cell = |index: usize| (index * SQUARE, 0, SQUARE, SQUARE);
    board.require(cell(LIGHT_CELL), true, "the light square")?;
    board.require(cell(DARK_CELL), true, "the dark square")?;
    board.require(
        (0, SQUARE, FRAME_LEFT, 24 - SQUARE),
        false,
        "the space under the cells",
    )?;
    board.require(
        (FRAME_LEFT + 8, 8, 8, 8),
        false,
        "the middle of the frame sample (where the board goes)",
    )?;
    board.require((FRAME_LEFT, 0, 24, 8), true, "the frame (background tiles)")?;
    board.require(
        (FRAME_LEFT, 16, 24, 8),
        true,
        "the frame (background tiles)",
    )?;
    board.require((FRAME_LEFT, 8, 8, 8), true, "the frame (background tiles)")?;
    board.require(
        (FRAME_LEFT + 16, 8, 8, 8),
        true,
        "the frame (background tiles)",
    )?;
    Ok(())
}

/// The tile numbers of every cell, in `BoardCells` order (see [`Converted::board_cells`]).
fn convert_cells(pieces: &Sheet, board: &Sheet, screen: &mut ScreenTiles) -> Result<Vec<[u8; 4]>> {
    check_board_sheets(pieces, board)?;
    let mut cells = Vec::new();
    for outlined in [false, true] {
        for content in 0..CELL_CONTENTS {
            for square in 0..2 {
                let is_king = content > 0 && (content - 1) % 6 == 5;
                if outlined && is_king {
                    // Never a destination: the plain king's tiles keep the table regular.
                    cells.push(cells[content * 2 + square]);
                    continue;
                }
                let picture = cell_picture(pieces, board, content, square, outlined);
                let mut numbers = [0; 4];
                for (i, number) in numbers.iter_mut().enumerate() {
                    *number = screen.number(&tile_at(&picture, i % 2, i / 2, Palette::Background)?);
                }
                cells.push(numbers);
            }
        }
    }
    Ok(cells)
}

fn convert_frame(board: &Sheet, screen: &mut ScreenTiles) -> Result<Vec<(&'static str, u8)>> {
    let sample = board.crop(FRAME_LEFT, 0, 24, 24);
    FRAME_TILES
        .iter()
        .map(|&(name, column, row)| {
            let tile = tile_at(&sample, column, row, Palette::Background)?;
            Ok((name, screen.number(&tile)))
        })
        .collect()
}

/// The selector's 4 tiles, then the last-move mark's: top left, top right, bottom left,
/// bottom right.
fn convert_objects(board: &Sheet) -> Result<Vec<TileBytes>> {
    let mut objects = Vec::new();
    for cell in [SELECTOR_CELL, LAST_MOVE_CELL] {
        for i in 0..4 {
            let tile = tile_at(board, cell * 2 + i % 2, i / 2, Palette::Objects)?;
            objects.push(tiles::encode_2bpp(&tile));
        }
    }
    Ok(objects)
}

/// A block of data with a label, in a generated file.
struct Block {
    label: String,
    comment: String,
    lines: Vec<String>,
}

impl Stream {
    /// The stream as a block of a generated file, 16 bytes a line.
    fn block(&self) -> Block {
        Block {
            label: self.label.into(),
            comment: format!(
                "{}: {} packed into {}, unpacked to {}",
                self.about,
                plural(self.data.len(), "byte"),
                self.packed.len(),
                self.destination
            ),
            lines: self
                .packed
                .chunks(16)
                .map(|line| {
                    let bytes: Vec<String> = line.iter().map(|b| format!("${b:02X}")).collect();
                    format!("db {}", bytes.join(","))
                })
                .collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "gfx_data.inc", escape = "none")]
struct DataTemplate<'a> {
    sources: &'a str,
    about: &'a str,
    blocks: Vec<Block>,
}

#[derive(Template)]
#[template(path = "gfx_charmap.inc", escape = "none")]
struct CharmapTemplate {
    chars: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "gfx_constants.inc", escape = "none")]
struct ConstantsTemplate {
    groups: Vec<(String, Vec<(String, String)>)>,
}

/// A character as an RGBDS string literal's contents.
fn rgbds_char(ch: char) -> String {
    match ch {
        '"' | '\\' | '{' | '}' => format!("\\{ch}"),
        _ => ch.to_string(),
    }
}

/// A tile number or a cell content, as RGBDS hex.
fn constant(name: &str, value: usize) -> (String, String) {
    (name.to_owned(), format!("${value:02X}"))
}

/// A count, in decimal.
fn count(name: &str, value: usize) -> (String, String) {
    (name.to_owned(), value.to_string())
}

impl Converted {
    /// The packed streams, in the order of the generated files. The title's tiles after
    /// the font are a stream only when there are any. The board screen's background
    /// tiles are one stream from the first after the font on: those, zeros for the tile
    /// numbers up to 255 it does not use, then its first 128 at $9000, which follow
    /// $8FFF: so that the tiles of either half are matches for the other's.
    pub fn streams(&self) -> Vec<Stream> {
        let high_first = FONT_FIRST_TILE + self.font.len();
        let font: Vec<TileBytes> = self.font.iter().map(|&(_, bytes)| bytes).collect();
        let mut streams = vec![
            Stream::new(
                "PackedFontTiles",
                "vFontTiles",
                format!("{} glyphs: {}", self.font.len(), FONT_GLYPHS.concat()),
                tile_bytes(&font),
            ),
            Stream::new(
                "PackedTitleTiles",
                "vTilesBlock0",
                "The title's tiles $00-$7F, for $8000 (LCDC_BLOCK01)".into(),
                tile_bytes(self.title.low()),
            ),
        ];
        if !self.title.high().is_empty() {
            streams.push(Stream::new(
                "PackedTitleTilesHigh",
                "vScreenTilesHigh",
                format!("The title's tiles from ${high_first:02X}, after the font"),
                tile_bytes(self.title.high()),
            ));
        }
        let mut board = tile_bytes(self.board.high());
        let unused = 256 - high_first - self.board.high().len();
        board.resize(board.len() + unused * TILE_BYTES, 0);
        board.extend(tile_bytes(self.board.low()));
        streams.push(Stream::new(
            "PackedBoardTiles",
            "vScreenTilesHigh",
            format!(
                "Background tiles from ${high_first:02X} (after the font) to $FF, then \
                 $00-$7F at $9000 (LCDC_BLOCK21): {} of the board's, {unused} unused (zeros), \
                 {}",
                self.board.high().len(),
                self.board.low().len()
            ),
            board,
        ));
        streams.push(Stream::new(
            "PackedBoardObjectTiles",
            "vTilesBlock0",
            "Object tiles from $00, for $8000: the selector, the last-move mark".into(),
            tile_bytes(&self.objects),
        ));
        streams
    }

    /// The files of `generated/` this makes, and their contents.
    #[cfg(test)]
    pub fn files(&self) -> Result<Vec<(String, String)>> {
        self.files_of(&self.streams())
    }

    /// The files of `generated/`, with the streams packed (by [`Converted::streams`]).
    fn files_of(&self, streams: &[Stream]) -> Result<Vec<(String, String)>> {
        let blocks_of = |prefix: &str| -> Vec<Block> {
            streams
                .iter()
                .filter(|stream| stream.label.starts_with(prefix))
                .map(Stream::block)
                .collect()
        };
        let font = DataTemplate {
            sources: FONT_PNG,
            about: "The font's tiles, for $8800 (tile $80 on), packed (see \
                    xtask/src/assets/pack.rs).",
            blocks: blocks_of("PackedFont"),
        };
        let high_first = FONT_FIRST_TILE + self.font.len();
        let mut title_blocks = blocks_of("PackedTitle");
        title_blocks.push(Block {
            label: "TitleMap".into(),
            comment: "The tile map, 20 x 18 tiles, row by row".into(),
            lines: self
                .title_map
                .chunks(20)
                .map(|row| {
                    let numbers: Vec<String> = row.iter().map(|n| format!("${n:02X}")).collect();
                    format!("db {}", numbers.join(","))
                })
                .collect(),
        });
        let title = DataTemplate {
            sources: TITLE_PNG,
            about: "The title screen: its own tiles, packed (see xtask/src/assets/pack.rs; \
                    the font is loaded apart), and its map.",
            blocks: title_blocks,
        };
        let mut cell_lines = Vec::new();
        for (i, numbers) in self.board_cells.iter().enumerate() {
            let (mark, content, square) = (i / (CELL_CONTENTS * 2), i / 2 % CELL_CONTENTS, i % 2);
            let what = if content == 0 {
                "empty".to_owned()
            } else {
                let (color, role) = ((content - 1) / 6, (content - 1) % 6);
                format!("{} {}", COLORS[color], ROLES[role]).to_lowercase()
            };
            cell_lines.push(format!(
                "db ${:02X},${:02X},${:02X},${:02X} ; {} {what}{}",
                numbers[0],
                numbers[1],
                numbers[2],
                numbers[3],
                ["light", "dark"][square],
                ["", ", outlined"][mark]
            ));
        }
        let board = DataTemplate {
            sources: &format!("{PIECES_PNG} and {BOARD_PNG}"),
            about: "The board screen: background tiles (pieces drawn on squares, the frame) and \
                    object tiles, packed (see xtask/src/assets/pack.rs), and the tiles of each \
                    cell.",
            blocks: blocks_of("PackedBoard")
                .into_iter()
                .chain([Block {
                    label: "BoardCells".into(),
                    comment: "Each cell's tiles (top left, top right, bottom left, bottom right) \
                              by [outlined][content][square colour]"
                        .into(),
                    lines: cell_lines,
                }])
                .collect(),
        };
        let charmap = CharmapTemplate {
            chars: self
                .font
                .iter()
                .enumerate()
                .map(|(i, &(ch, _))| (rgbds_char(ch), format!("${:02X}", FONT_FIRST_TILE + i)))
                .collect(),
        };

        let mut contents = vec![count("NUM_CELL_CONTENTS", CELL_CONTENTS)];
        contents.push(constant("CELL_EMPTY", 0));
        for (color, color_name) in COLORS.iter().enumerate() {
            for (role, role_name) in ROLES.iter().enumerate() {
                contents.push(constant(
                    &format!("CELL_{color_name}_{role_name}"),
                    1 + color * 6 + role,
                ));
            }
        }
        let font_constants = vec![
            constant("FONT_FIRST_TILE", FONT_FIRST_TILE),
            count("NUM_FONT_TILES", self.font.len()),
            constant("TILE_BLANK", self.blank.into()),
            constant("SCREEN_HIGH_FIRST_TILE", high_first),
        ];
        let mut board_constants = vec![
            count("NUM_BOARD_TILES_LOW", self.board.low().len()),
            count("NUM_BOARD_TILES_HIGH", self.board.high().len()),
        ];
        for &(name, number) in &self.frame {
            board_constants.push(constant(&format!("TILE_FRAME_{name}"), number.into()));
        }
        let constants = ConstantsTemplate {
            groups: vec![
                (
                    "The font, at the same tile numbers on every screen ($8800 on)".into(),
                    font_constants,
                ),
                (
                    "The title screen's own tiles: how many at $8000, how many after the font"
                        .into(),
                    vec![
                        count("NUM_TITLE_TILES_LOW", self.title.low().len()),
                        count("NUM_TITLE_TILES_HIGH", self.title.high().len()),
                    ],
                ),
                (
                    "The board screen's background tiles (at $9000, then after the font) and \
                     the frame's tile numbers"
                        .into(),
                    board_constants,
                ),
                (
                    "Object tiles of the board screen ($8000 on): 4 each, top left, top right, \
                     bottom left, bottom right"
                        .into(),
                    vec![
                        constant("OBJ_TILE_SELECTOR", 0),
                        constant("OBJ_TILE_LAST_MOVE", 4),
                        count("NUM_BOARD_OBJ_TILES", self.objects.len()),
                    ],
                ),
                (
                    "What a cell of BoardCells shows: content numbers (empty, then White's \
                     pawn to king, then Black's), and the table's shape"
                        .into(),
                    contents,
                ),
                (
                    "BoardCells: [outlined][content][square colour] of 4 tile numbers".into(),
                    vec![
                        constant("CELL_LIGHT", 0),
                        constant("CELL_DARK", 1),
                        count("CELL_SIZE", 4),
                        count("CELL_OUTLINED", CELL_CONTENTS * 2 * 4),
                        count("NUM_BOARD_CELLS", self.board_cells.len()),
                    ],
                ),
            ],
        };

        Ok(vec![
            ("gfx/constants.inc".into(), constants.render()?),
            ("gfx/charmap.inc".into(), charmap.render()?),
            ("gfx/font.inc".into(), font.render()?),
            ("gfx/title.inc".into(), title.render()?),
            ("gfx/board.inc".into(), board.render()?),
        ])
    }

    /// One line per screen: how many tiles it uses of how many, and the bytes of VRAM.
    pub fn budget(&self) -> String {
        let font = self.font.len();
        let line = |screen: &ScreenTiles, extra: &str| {
            format!(
                "{} screen: {} of its own (room for {}) + {font} font = {}, {} of VRAM{extra}",
                screen.name,
                plural(screen.set.len(), "tile"),
                screen.capacity(),
                plural(screen.set.len() + font, "tile"),
                plural((screen.set.len() + font) * 16, "byte")
            )
        };
        format!(
            "{}\n{}",
            line(&self.title, ""),
            line(
                &self.board,
                &format!(
                    ", and {} ({})",
                    plural(self.objects.len(), "object tile"),
                    plural(self.objects.len() * 16, "byte")
                )
            )
        )
    }
}
