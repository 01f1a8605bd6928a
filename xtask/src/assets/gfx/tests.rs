use super::palette::{luminance, ArtPalette};
use super::sheet::{Picture, Rgb, DMG_GREYS};
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

/// A PNG drawn in the exact DMG greys, in shades.
fn dmg_sheet(name: &str, png: &[u8]) -> Result<Sheet> {
    ArtPalette::dmg().sheet(&decode_png(name, png)?)
}

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
    let reread = dmg_sheet(TITLE_PNG, &encode_png(&back).unwrap()).unwrap();
    assert_eq!(reread, art.title);
    // Objects, with transparency: the selector and last-move cells of board.png.
    let objects = art
        .board
        .crop(SELECTOR_CELL * SQUARE, 0, 2 * SQUARE, SQUARE);
    let tiles = tiles_of(&objects, Palette::Objects).unwrap();
    let back = sheet_of(BOARD_PNG, &tiles, 4, Palette::Objects);
    let reread = dmg_sheet(BOARD_PNG, &encode_png(&back).unwrap()).unwrap();
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
    assert_eq!(converted.font.len(), 59);
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
fn a_colour_that_is_not_in_the_palette_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[2 * 8 + 3] = [0xAB, 0xAA, 0xAA, 0xFF];
    assert_eq!(
        error_of(dmg_sheet("assets/x.png", &rgba_png(8, 8, &pixels))),
        "assets/x.png: pixel (3, 2) is #ABAAAA, which is not in the palette (the colours of a \
         DMG greyscale image: #FFFFFF white, #AAAAAA light grey, #555555 dark grey, #000000 \
         black); draw with these, or with transparency where the sheet allows it"
    );
}

#[test]
fn alpha_between_transparent_and_opaque_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[5] = [0, 0, 0, 15];
    pixels[6] = [0, 0, 0, 240];
    let sheet = dmg_sheet("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
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
    let sheet = dmg_sheet("assets/x.png", &rgba_png(16, 8, &pixels)).unwrap();
    assert_eq!(
        error_of(tiles_of(&sheet, Palette::Objects)),
        "assets/x.png: tile (1, 0) (pixels 8-15, 0-7) has 5 colours (transparent, #FFFFFF \
         (white), #AAAAAA (light grey), #555555 (dark grey), #000000 (black)); a tile can have \
         at most 4 (transparency counts as one)"
    );
}

#[test]
fn what_a_palette_cannot_show_is_an_error() {
    let mut pixels = [WHITE; 64];
    pixels[9] = LIGHT;
    let sheet = dmg_sheet("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
    assert_eq!(
        error_of(tiles_of(&sheet, Palette::Objects)),
        "assets/x.png: pixel (1, 1) in tile (0, 0) is #AAAAAA (light grey), which objects \
         cannot show (their palette OBP0 has transparent, white, dark grey and black)"
    );
    pixels[9] = CLEAR;
    let sheet = dmg_sheet("assets/x.png", &rgba_png(8, 8, &pixels)).unwrap();
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
         the title screen has room for 197: 128 in one VRAM block and 69 after the 59 font \
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
        "assets/font.png: the glyph in tile (11, 3) is drawn but has no character (add it to \
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

// The art's palette: any four colours, ordered by luminance.

/// Aseprite's "Game Boy" palette (its hardware palettes' `gameboy.gpl`), white to black.
const GREEN: [Rgb; 4] = [
    [0x9B, 0xBC, 0x0F],
    [0x8B, 0xAC, 0x0F],
    [0x30, 0x62, 0x30],
    [0x0F, 0x38, 0x0F],
];
/// Four greys that are not the DMG's (light #B2B2B2, dark #666666), white to black.
const GREYS: [Rgb; 4] = [[0xFF; 3], [0xB2; 3], [0x66; 3], [0x00; 3]];

/// The ways a test writes a PNG: the colour types and depths editors save.
#[derive(Clone, Copy, Debug)]
enum Format {
    Rgba8,
    Grey8,
    GreyAlpha8,
    Grey16,
    GreyAlpha16,
    /// A palette of the picture's colours, transparency at index 0 with a `tRNS` chunk, as
    /// an editor saves an indexed sprite.
    Indexed,
}

/// `picture` as a PNG in `format`. The grey formats need a grey picture, the ones without
/// alpha an opaque one.
fn png_in(picture: &Picture, format: Format) -> Vec<u8> {
    let grey = |pixel: &Option<Rgb>| {
        let [r, g, b] = pixel.expect("a transparent pixel in a format without alpha");
        assert!(r == g && g == b, "#{r:02X}{g:02X}{b:02X} is not a grey");
        r
    };
    let alpha = |pixel: &Option<Rgb>| if pixel.is_some() { 0xFF } else { 0x00 };
    let mut plte = Vec::new();
    let mut trns = Vec::new();
    let (color, depth, data): (png::ColorType, png::BitDepth, Vec<u8>) = match format {
        Format::Rgba8 => (
            png::ColorType::Rgba,
            png::BitDepth::Eight,
            picture
                .pixels
                .iter()
                .flat_map(|pixel| {
                    let [r, g, b] = pixel.unwrap_or([0xFF; 3]);
                    [r, g, b, alpha(pixel)]
                })
                .collect(),
        ),
        Format::Grey8 | Format::GreyAlpha8 | Format::Grey16 | Format::GreyAlpha16 => {
            let with_alpha = matches!(format, Format::GreyAlpha8 | Format::GreyAlpha16);
            let sixteen = matches!(format, Format::Grey16 | Format::GreyAlpha16);
            let mut data = Vec::new();
            for pixel in &picture.pixels {
                let mut samples = vec![pixel.map_or(0xFF, |_| grey(pixel))];
                if with_alpha {
                    samples.push(alpha(pixel));
                }
                for sample in samples {
                    if sixteen {
                        data.extend((u16::from(sample) * 257).to_be_bytes());
                    } else {
                        data.push(sample);
                    }
                }
            }
            let color = if with_alpha {
                png::ColorType::GrayscaleAlpha
            } else {
                png::ColorType::Grayscale
            };
            let depth = if sixteen {
                png::BitDepth::Sixteen
            } else {
                png::BitDepth::Eight
            };
            (color, depth, data)
        }
        Format::Indexed => {
            let mut entries: Vec<Option<Rgb>> = Vec::new();
            if picture.pixels.contains(&None) {
                entries.push(None);
                trns.push(0x00);
            }
            let data = picture
                .pixels
                .iter()
                .map(|pixel| {
                    if !entries.contains(pixel) {
                        entries.push(*pixel);
                    }
                    entries.iter().position(|entry| entry == pixel).unwrap() as u8
                })
                .collect();
            plte = entries
                .iter()
                .flat_map(|entry| entry.unwrap_or([0; 3]))
                .collect();
            (png::ColorType::Indexed, png::BitDepth::Eight, data)
        }
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, picture.width as u32, picture.height as u32);
    encoder.set_color(color);
    encoder.set_depth(depth);
    if !plte.is_empty() {
        encoder.set_palette(plte);
    }
    if !trns.is_empty() {
        encoder.set_trns(trns);
    }
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    bytes
}

/// A sheet in its colours, as a file holds it.
fn picture_of(sheet: &Sheet) -> Picture {
    Picture {
        name: sheet.name.clone(),
        width: sheet.width,
        height: sheet.height,
        pixels: sheet
            .pixels
            .iter()
            .map(|pixel| pixel.map(|shade| sheet.colours[usize::from(shade)]))
            .collect(),
    }
}

fn picture(name: &str, width: usize, colours: &[Option<Rgb>]) -> Picture {
    Picture {
        name: name.to_owned(),
        width,
        height: colours.len() / width,
        pixels: colours.to_vec(),
    }
}

/// A scratch folder with `assets/` holding `art` recoloured in `colours`, every sheet saved
/// as a `format` PNG.
fn scratch_assets(label: &str, art: &Art, colours: [Rgb; 4], format: Format) -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("xtask-palette-{}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("assets")).unwrap();
    for sheet in art.sheets() {
        let recoloured = Sheet {
            colours,
            ..sheet.clone()
        };
        std::fs::write(
            root.join(&sheet.name),
            png_in(&picture_of(&recoloured), format),
        )
        .unwrap();
    }
    root
}

#[test]
fn the_projects_art_is_in_the_dmg_greys_and_says_so() {
    let art = art();
    for sheet in art.sheets() {
        assert_eq!(sheet.colours, DMG_GREYS, "{}", sheet.name);
    }
    let lines: Vec<String> = art
        .sheets()
        .iter()
        .map(|sheet| sheet.conversion())
        .collect();
    assert_eq!(
        lines,
        [
            "assets/title.png: #FFFFFF -> white, #AAAAAA -> light grey, #555555 -> dark grey, \
             #000000 -> black",
            "assets/font.png: #FFFFFF -> white, #000000 -> black",
            "assets/pieces.png: #FFFFFF -> white, #AAAAAA -> light grey, #555555 -> dark grey, \
             #000000 -> black, and transparency",
            "assets/board.png: #FFFFFF -> white, #AAAAAA -> light grey, #555555 -> dark grey, \
             #000000 -> black, and transparency",
        ]
    );
}

/// The title's and the font's lines of `cargo xtask assets` for art in Aseprite's greens.
const GREEN_CONVERSION: [&str; 2] = [
    "assets/title.png: #9BBC0F -> white, #8BAC0F -> light grey, #306230 -> dark grey, #0F380F \
     -> black",
    "assets/font.png: #9BBC0F -> white, #0F380F -> black",
];

/// A title drawn in a Game Boy palette builds into the same cartridge as in the DMG greys:
/// every generated file is the same, byte for byte.
#[test]
fn art_recoloured_in_a_game_boy_palette_converts_to_the_same_files() {
    let art = art();
    let want = convert(&art).unwrap().files().unwrap();
    for (label, colours, format, conversion) in [
        ("green", GREEN, Format::Indexed, GREEN_CONVERSION),
        ("green-rgba", GREEN, Format::Rgba8, GREEN_CONVERSION),
        (
            "greys",
            GREYS,
            Format::GreyAlpha16,
            [
                "assets/title.png: #FFFFFF -> white, #B2B2B2 -> light grey, #666666 -> dark \
                 grey, #000000 -> black",
                "assets/font.png: #FFFFFF -> white, #000000 -> black",
            ],
        ),
    ] {
        let root = scratch_assets(label, &art, colours, format);
        let recoloured = read_art_from(&root).unwrap_or_else(|error| panic!("{error:#}"));
        let got = convert(&recoloured).unwrap().files().unwrap();
        assert_eq!(got.len(), want.len());
        for ((name, contents), (want_name, want_contents)) in got.iter().zip(&want) {
            assert_eq!(name, want_name);
            assert!(
                contents == want_contents,
                "{label} art ({format:?} PNGs) makes a different generated/{name}"
            );
        }
        assert_eq!(
            [recoloured.title.conversion(), recoloured.font.conversion()],
            conversion,
            "{label}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}

#[test]
fn greyscale_pngs_of_every_kind_convert() {
    // Four greys that are not the DMG's along the top row; a transparent bottom row for
    // the formats with alpha.
    let mut opaque = Sheet {
        colours: GREYS,
        ..Sheet::filled(TITLE_PNG, 8, 8, Some(0))
    };
    for x in 0..8 {
        opaque.set(x, 0, Some(3 - (x % 4) as u8));
    }
    let mut clear = opaque.clone();
    for x in 0..8 {
        clear.set(x, 7, None);
    }
    for (format, sheet) in [
        (Format::Grey8, &opaque),
        (Format::Grey16, &opaque),
        (Format::GreyAlpha8, &clear),
        (Format::GreyAlpha16, &clear),
        (Format::Indexed, &clear),
        (Format::Indexed, &opaque),
    ] {
        let picture = decode_png(TITLE_PNG, &png_in(&picture_of(sheet), format)).unwrap();
        assert_eq!(picture, picture_of(sheet), "{format:?}");
        let palette = ArtPalette::of(&picture).unwrap();
        assert_eq!(palette.colours, GREYS, "{format:?}");
        assert_eq!(&palette.sheet(&picture).unwrap(), sheet, "{format:?}");
    }
}

#[test]
fn the_palette_is_ordered_by_luminance_not_by_hue_or_order_of_appearance() {
    // Pure red is lighter than pure blue (54.2 against 7.2), though their channels add up
    // to the same; black comes first in the file.
    let (red, blue) = ([0xFF, 0, 0], [0, 0, 0xFF]);
    let title = picture(
        TITLE_PNG,
        8,
        &[[[0; 3], blue, [0xFF; 3], red].map(Some); 16].concat(),
    );
    let palette = ArtPalette::of(&title).unwrap();
    assert_eq!(palette.colours, [[0xFF; 3], red, blue, [0; 3]]);
    assert_eq!(luminance(red), 542_130);
    assert_eq!(luminance(blue), 184_110);
    assert_eq!(
        palette.sheet(&title).unwrap().pixels[..4],
        [3, 2, 0, 1].map(Some)
    );
}

#[test]
fn a_palette_that_is_not_four_distinct_lightnesses_is_an_error() {
    let grey = |value: u8| Some([value; 3]);
    let three = picture(
        TITLE_PNG,
        8,
        &[[grey(0xFF), grey(0x80), grey(0)]; 64].concat()[..64],
    );
    assert_eq!(
        error_of(ArtPalette::of(&three)),
        "assets/title.png: the image has 3 colours (#FFFFFF, #808080, #000000), but it must \
         have exactly four: its colours are the palette of all the art, the lightest shown as \
         white, the darkest as black"
    );
    assert_eq!(
        error_of(ArtPalette::of(&picture(TITLE_PNG, 8, &[grey(0xFF); 64]))),
        "assets/title.png: the image has 1 colour (#FFFFFF), but it must have exactly four: \
         its colours are the palette of all the art, the lightest shown as white, the darkest \
         as black"
    );
    let many: Vec<Option<Rgb>> = (0..64).map(|i| grey((i * 16 % 160) as u8)).collect();
    assert_eq!(
        error_of(ArtPalette::of(&picture(TITLE_PNG, 8, &many))),
        "assets/title.png: the image has 10 colours (#909090, #808080, #707070, #606060, \
         #505050, #404040, #303030, #202020, and 2 more), but it must have exactly four: its \
         colours are the palette of all the art, the lightest shown as white, the darkest as \
         black"
    );
    // 0.2126 * 128 + 0.7152 * 64 + 0.0722 * 128 = 0.2126 * 111 + 0.7152 * 74 + 0.0722 * 79.
    let (purple, olive) = ([0x80, 0x40, 0x80], [0x6F, 0x4A, 0x4F]);
    assert_eq!(luminance(purple), luminance(olive));
    let tie = picture(
        TITLE_PNG,
        8,
        &[[grey(0xFF), Some(purple), Some(olive), grey(0)]; 16].concat(),
    );
    assert_eq!(
        error_of(ArtPalette::of(&tie)),
        "assets/title.png: #6F4A4F and #804080 are equally light (luminance 0.2126 R + 0.7152 \
         G + 0.0722 B = 82.2272), so which shade each is cannot be told; make one of them \
         lighter"
    );
}

#[test]
fn a_sheet_in_another_palette_than_the_titles_is_an_error_naming_the_pixel_and_palette() {
    let art = art();
    let root = scratch_assets("mixed", &art, GREEN, Format::Rgba8);
    // The pieces as they were, in the DMG greys, beside a green title.
    std::fs::write(
        root.join(PIECES_PNG),
        png_in(&picture_of(&art.pieces), Format::Rgba8),
    )
    .unwrap();
    let first = art.pieces.pixels.iter().position(Option::is_some).unwrap();
    let (x, y) = (first % art.pieces.width, first / art.pieces.width);
    assert_eq!(
        error_of(read_art_from(&root)),
        format!(
            "assets/pieces.png: pixel ({x}, {y}) is {}, which is not in the palette (the \
             colours of assets/title.png: #9BBC0F white, #8BAC0F light grey, #306230 dark \
             grey, #0F380F black); draw with these, or with transparency where the sheet \
             allows it",
            art.pieces
                .describe(art.pieces.pixels[first])
                .split(' ')
                .next()
                .unwrap()
        )
    );
    std::fs::remove_dir_all(&root).unwrap();
}

// Which parts of board.png are objects: the selector and the last-move mark.

#[test]
fn an_object_tile_is_transparency_white_dark_grey_and_black() {
    let mut art = art();
    // The selector's top-left tile (x 48-55, y 0-7), its top row: transparent, white, dark
    // grey, black, twice.
    let left = SELECTOR_CELL * SQUARE;
    for x in 0..8 {
        art.board
            .set(left + x, 0, [None, Some(0), Some(2), Some(3)][x % 4]);
    }
    let converted = convert(&art).unwrap();
    // Colours 0-3 (OBP0: transparent, white, dark grey, black): low plane 01010101,
    // high plane 00110011.
    assert_eq!(converted.objects[0][..2], [0b0101_0101, 0b0011_0011]);

    // Light grey in the last-move mark (x 64-79): OBP0 cannot show it.
    let mark = LAST_MOVE_CELL * SQUARE;
    art.board.set(mark + 9, 10, Some(1));
    assert_eq!(
        error_of(convert(&art)),
        "assets/board.png: pixel (73, 10) in tile (9, 1) is #AAAAAA (light grey), which \
         objects cannot show (their palette OBP0 has transparent, white, dark grey and black)"
    );
    // All four colours and transparency in one object tile.
    for (x, shade) in [None, Some(0), Some(1), Some(2), Some(3)]
        .into_iter()
        .enumerate()
    {
        art.board.set(mark + x, 0, shade);
    }
    assert_eq!(
        error_of(convert(&art)),
        "assets/board.png: tile (8, 0) (pixels 64-71, 0-7) has 5 colours (transparent, \
         #FFFFFF (white), #AAAAAA (light grey), #555555 (dark grey), #000000 (black)); a tile \
         can have at most 4 (transparency counts as one)"
    );
}

#[test]
fn a_piece_or_the_outline_may_use_all_four_shades_and_transparency_in_a_tile() {
    let mut art = art();
    // The white pawn's top-left tile and the outline's: transparent, then the four shades.
    for left in [0, DESTINATION_CELL * SQUARE] {
        let sheet = if left == 0 {
            &mut art.pieces
        } else {
            &mut art.board
        };
        for (x, shade) in [None, Some(0), Some(1), Some(2), Some(3)]
            .into_iter()
            .enumerate()
        {
            sheet.set(left + x, 0, shade);
        }
    }
    convert(&art).unwrap();
    // They are drawn into background tiles, over the square: transparency shows it.
    let pawn = 1;
    for square in 0..2 {
        let cell = cell_picture(&art.pieces, &art.board, pawn, square, true);
        let under = art.board.at(square * SQUARE, 0);
        assert_eq!(
            cell.pixels[..5],
            [under, Some(0), Some(1), Some(2), Some(3)]
        );
    }
}

/// Every stream of the art unpacks to exactly its tiles; the board's holds the tiles after
/// the font, zeros up to tile 255, then its first 128; the LZ is smaller than pb16 on all
/// but the 8 object tiles.
#[test]
fn every_sheet_round_trips_through_its_packed_stream() {
    let converted = convert(&read_art().unwrap()).unwrap();
    let tiles = |tiles: &[TileBytes]| -> Vec<u8> { tiles.iter().flatten().copied().collect() };
    let mut board = tiles(converted.board.high());
    let unused = 256 - FONT_FIRST_TILE - converted.font.len() - converted.board.high().len();
    board.resize(board.len() + unused * 16, 0);
    board.extend(tiles(converted.board.low()));
    let font: Vec<TileBytes> = converted.font.iter().map(|&(_, bytes)| bytes).collect();
    let want = [
        ("PackedFontTiles", tiles(&font)),
        ("PackedTitleTiles", tiles(converted.title.low())),
        ("PackedBoardTiles", board),
        ("PackedBoardObjectTiles", tiles(&converted.objects)),
    ];
    let streams = converted.streams();
    assert_eq!(streams.len(), want.len());
    for (stream, (label, data)) in streams.iter().zip(want) {
        assert_eq!(stream.label, label);
        assert_eq!(stream.data, data, "{label}");
        assert_eq!(
            crate::assets::pack::unpack(&stream.packed).unwrap(),
            data,
            "{label}"
        );
        let pb16 = crate::assets::pack::pb16_pack(&data);
        assert_eq!(
            crate::assets::pack::pb16_unpack(&pb16, data.len()).unwrap(),
            data
        );
        if label != "PackedBoardObjectTiles" {
            assert!(stream.packed.len() < pb16.len(), "{}", stream.sizes());
        }
    }
}
