use super::tiles::{decode_2bpp, encode_2bpp, sheet_of};
use super::*;

/// A PNG of RGBA pixels, row by row, built here so that each error case is one small image.
fn rgba_png(width: u32, height: u32, pixels: &[[u8; 4]]) -> Vec<u8> {
    assert_eq!(pixels.len(), (width * height) as usize);
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&pixels.concat()).unwrap();
    writer.finish().unwrap();
    bytes
}

const WHITE: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
const LIGHT: [u8; 4] = [0xAA, 0xAA, 0xAA, 0xFF];
const DARK: [u8; 4] = [0x55, 0x55, 0x55, 0xFF];
const BLACK: [u8; 4] = [0x00, 0x00, 0x00, 0xFF];
const CLEAR: [u8; 4] = [0x12, 0x34, 0x56, 0x00];

fn error_of<T>(result: Result<T>) -> String {
    match result {
        Ok(_) => panic!("expected an error"),
        Err(error) => format!("{error:#}"),
    }
}

fn art() -> Art {
    read_art().unwrap()
}

#[test]
fn two_bits_per_pixel_low_plane_first() {
    // Row 0: colours 0 1 2 3 0 1 2 3 -> low plane 01010101, high plane 00110011.
    let mut tile = [0; 64];
    for (x, colour) in tile.iter_mut().take(8).enumerate() {
        *colour = (x % 4) as u8;
    }
    tile[63] = 3;
    let bytes = encode_2bpp(&tile);
    assert_eq!(bytes[0], 0b0101_0101);
    assert_eq!(bytes[1], 0b0011_0011);
    assert_eq!(&bytes[2..14], &[0; 12]);
    assert_eq!(bytes[14..], [0b0000_0001, 0b0000_0001]);
    assert_eq!(decode_2bpp(&bytes), tile);
}

#[test]
fn png_to_tiles_to_png_is_lossless() {
    let art = art();
    // Background art: every tile of the title, in order, back to a PNG and read again.
    let tiles = tiles_of(&art.title, Palette::Background).unwrap();
    let back = sheet_of(TITLE_PNG, &tiles, 20, Palette::Background);
    let reread = decode_png(TITLE_PNG, &encode_png(&back).unwrap()).unwrap();
    assert_eq!(reread, art.title);
    // Objects, with transparency: the selector and last-move cells of board.png.
    let objects = art
        .board
        .crop(SELECTOR_CELL * SQUARE, 0, 2 * SQUARE, SQUARE);
    let tiles = tiles_of(&objects, Palette::Objects).unwrap();
    let back = sheet_of(BOARD_PNG, &tiles, 4, Palette::Objects);
    let reread = decode_png(BOARD_PNG, &encode_png(&back).unwrap()).unwrap();
    assert_eq!(reread, objects);
    assert!(objects.pixels.contains(&None), "no transparency was tested");
}

#[test]
fn the_title_map_and_its_tiles_give_back_the_title() {
    let art = art();
    let converted = convert(&art).unwrap();
    // Every tile by the number the map uses, as VRAM holds them.
    let mut vram: Vec<Option<TileBytes>> = vec![None; 256];
    for (i, &(_, bytes)) in converted.font.iter().enumerate() {
        vram[FONT_FIRST_TILE + i] = Some(bytes);
    }
    let high_first = FONT_FIRST_TILE + converted.font.len();
    for (i, bytes) in converted.title.low().iter().enumerate() {
        vram[i] = Some(*bytes);
    }
    for (i, bytes) in converted.title.high().iter().enumerate() {
        vram[high_first + i] = Some(*bytes);
    }
    let tiles: Vec<Tile> = converted
        .title_map
        .iter()
        .map(|&n| decode_2bpp(&vram[usize::from(n)].expect("a tile the title does not load")))
        .collect();
    assert_eq!(
        sheet_of(TITLE_PNG, &tiles, 20, Palette::Background),
        art.title
    );
    // Repeats were removed: fewer tiles than places on the screen, within the budget.
    assert!(converted.title.set.len() < 360);
    assert!(converted.title.set.len() <= converted.title.capacity());
    assert_eq!(converted.title.capacity(), 128 + 256 - high_first);
}

#[test]
fn the_board_budget_is_as_planned() {
    let converted = convert(&art()).unwrap();
    assert_eq!(converted.font.len(), FONT_GLYPHS.concat().chars().count());
    assert_eq!(converted.font.len(), 57);
    // 2 empty squares of one tile each, 24 pieces on 2 colours of 4, 2 outlined empty
    // squares and 20 outlined pieces of 4, 8 frame tiles: the module documentation's sum.
    assert_eq!(converted.board.set.len(), 2 + 24 * 4 + 8 + 20 * 4 + 8);
    assert!(converted.board.set.len() + converted.font.len() <= 256);
    assert_eq!(converted.board_cells.len(), 2 * CELL_CONTENTS * 2);
    assert_eq!(converted.objects.len(), 8);
}

#[test]
fn a_piece_is_composited_over_both_squares() {
    let art = art();
    let white_knight = 1 + 1;
    let on_light = cell_picture(&art.pieces, &art.board, white_knight, 0, false);
    let on_dark = cell_picture(&art.pieces, &art.board, white_knight, 1, false);
    let piece = art.pieces.crop(SQUARE, 0, SQUARE, SQUARE);
    for (i, pixel) in piece.pixels.iter().enumerate() {
        match pixel {
            Some(_) => {
                assert_eq!(on_light.pixels[i], *pixel);
                assert_eq!(on_dark.pixels[i], *pixel);
            }
            None => {
                assert_eq!(on_light.pixels[i], art.board.at(0, 0));
                assert_eq!(on_dark.pixels[i], art.board.at(SQUARE, 0));
            }
        }
    }
    assert!(on_light.pixels.iter().all(Option::is_some));
}

#[test]
fn a_size_that_is_not_whole_tiles_is_an_error() {
    let png = rgba_png(12, 8, &[WHITE; 96]);
    assert_eq!(
        error_of(decode_png("assets/odd.png", &png)),
        "assets/odd.png: the image is 12x8 pixels; both sides must be multiples of 8 (whole \
         8x8 tiles)"
    );
}

#[test]
fn a_colour_that_is_not_a_dmg_grey_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[2 * 8 + 3] = [0xAB, 0xAA, 0xAA, 0xFF];
    assert_eq!(
        error_of(decode_png("assets/x.png", &rgba_png(8, 8, &pixels))),
        "assets/x.png: pixel (3, 2) is #ABAAAA, not one of the four DMG greys #FFFFFF, \
         #AAAAAA, #555555, #000000"
    );
}

#[test]
fn alpha_between_transparent_and_opaque_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[5] = [0, 0, 0, 15];
    pixels[6] = [0, 0, 0, 240];
    let sheet = decode_png("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
    assert_eq!(sheet.at(5, 0), None, "alpha 15 is transparent");
    assert_eq!(sheet.at(6, 0), Some(3), "alpha 240 is opaque");
    pixels[7] = [0, 0, 0, 128];
    assert_eq!(
        error_of(decode_png("assets/x.png", &rgba_png(8, 8, &pixels))),
        "assets/x.png: pixel (7, 0) is partly transparent (alpha 128); use alpha below 16 for \
         transparent or 240 and above for opaque"
    );
}

#[test]
fn a_tile_of_more_than_four_colours_is_an_error_naming_the_tile() {
    // Tile (1, 0) has transparency and all four greys.
    let mut pixels = [WHITE; 128];
    for (x, colour) in [CLEAR, LIGHT, DARK, BLACK].into_iter().enumerate() {
        pixels[8 + x] = colour;
    }
    let sheet = decode_png("assets/x.png", &rgba_png(16, 8, &pixels)).unwrap();
    assert_eq!(
        error_of(tiles_of(&sheet, Palette::Objects)),
        "assets/x.png: tile (1, 0) (pixels 8-15, 0-7) has 5 colours; a tile can have at most \
         4 (transparency counts as one)"
    );
}

#[test]
fn what_a_palette_cannot_show_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[9] = LIGHT;
    let sheet = decode_png("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
    assert_eq!(
        error_of(tiles_of(&sheet, Palette::Objects)),
        "assets/x.png: pixel (1, 1) in tile (0, 0) is light grey, which objects cannot show \
         (their palette OBP0 has transparent, white, dark grey and black)"
    );
    pixels[9] = CLEAR;
    let sheet = decode_png("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
    assert_eq!(
        error_of(tiles_of(&sheet, Palette::Background)),
        "assets/x.png: pixel (1, 1) in tile (0, 0) is transparent, but background art must be \
         opaque everywhere"
    );
}

#[test]
fn a_title_of_too_many_different_tiles_is_an_error() {
    let mut art = art();
    // Give every tile its own pattern: the tile's number in binary along its top two rows.
    for i in 0..360usize {
        let (left, top) = (i % 20 * 8, i / 20 * 8);
        for bit in 0..9 {
            let shade = if i >> bit & 1 == 1 { 3 } else { 1 };
            art.title.set(left + bit % 8, top + bit / 8, Some(shade));
        }
    }
    assert_eq!(
        error_of(convert(&art)),
        "assets/title.png has 360 different tiles (not counting repeats and font glyphs), but \
         the title screen has room for 199: 128 in one VRAM block and 71 after the 57 font \
         tiles; simplify the art"
    );
}

#[test]
fn a_title_of_the_wrong_size_is_an_error() {
    let mut art = art();
    art.title = art.title.crop(0, 0, 160, 136);
    assert_eq!(
        error_of(convert(&art)),
        "assets/title.png: the title is 160x136 pixels; it must be 160x144, the size of the \
         screen"
    );
}

#[test]
fn font_mistakes_are_errors() {
    let mut art = art();
    // A drawing in the first free place after the last glyph.
    let (column, row) = (FONT_GLYPHS[3].len(), 3);
    art.font.set(column * 8 + 2, row * 8 + 2, Some(3));
    assert_eq!(
        error_of(convert(&art)),
        "assets/font.png: the glyph in tile (9, 3) is drawn but has no character (add it to \
         FONT_GLYPHS in xtask/src/assets/gfx.rs, or leave it white)"
    );
    // "O" drawn like "0".
    let mut art = self::art();
    let zero = art.font.crop(0, 16, 8, 8);
    for y in 0..8 {
        for x in 0..8 {
            art.font.set(15 * 8 + x, y, zero.at(x, y));
        }
    }
    assert_eq!(
        error_of(convert(&art)),
        "assets/font.png: the glyphs 'O' and '0' are drawn the same; each character needs its \
         own drawing"
    );
}

#[test]
fn board_sheet_mistakes_are_errors() {
    let mut art = art();
    art.board.set(3, 4, None);
    assert_eq!(
        error_of(convert(&art)),
        "assets/board.png: pixel (3, 4) is transparent, but the light square must be opaque"
    );
    let mut art = self::art();
    art.board.set(FRAME_LEFT + 10, 10, Some(0));
    assert_eq!(
        error_of(convert(&art)),
        "assets/board.png: pixel (90, 10) is drawn, but the middle of the frame sample (where \
         the board goes) must be transparent"
    );
    let mut art = self::art();
    art.pieces = art.pieces.crop(0, 0, 80, 32);
    assert_eq!(
        error_of(convert(&art)),
        "assets/pieces.png: the pieces are 80x32 pixels; they must be 96x32: six 16x16 pieces \
         (pawn, knight, bishop, rook, queen, king) for White above six for Black"
    );
}
