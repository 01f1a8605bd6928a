//! The screens as a player meets them: the title, the option pages, the board with the
//! start position, the selector under the control pad.

use super::boot;
use crate::assets::gfx::{self, Sheet};
use crate::harness::{Button, Machine};

const SCREEN_WIDTH: usize = 160;

/// The board's top-left pixel on the screen (tile column 1, row 0: see
/// asm/include/layout.inc).
pub(super) const BOARD_LEFT: usize = 8;
pub(super) const BOARD_TOP: usize = 0;
pub(super) const SQUARE: usize = 16;
/// The tile row of the file letters, under the board.
pub(super) const FILE_LABEL_ROW: usize = 12;

/// Where the title shows PRESS START (tiles: see asm/ui/title.asm).
const PRESS_START: (usize, usize) = (8, 12 * 8);

/// The start position, rank 1 first, as cell contents: 0 empty, 1-6 White's pawn, knight,
/// bishop, rook, queen, king, 7-12 Black's.
const START_POSITION: [[usize; 5]; 6] = [
    [4, 2, 3, 5, 6],
    [1, 1, 1, 1, 1],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [7, 7, 7, 7, 7],
    [10, 8, 9, 11, 12],
];

/// The `width` x `height` pixels of the screen at (`left`, `top`), as a sheet.
pub(super) fn screen_area(
    machine: &Machine,
    left: usize,
    top: usize,
    width: usize,
    height: usize,
) -> Sheet {
    let screen = machine.screen();
    let mut area = Sheet::filled("the screen", width, height, None);
    for y in 0..height {
        for x in 0..width {
            area.set(x, y, Some(screen[(top + y) * SCREEN_WIDTH + left + x]));
        }
    }
    area
}

/// A square (file 0-4 = a-e, rank 0-5 = 1-6) on the screen, White at the bottom.
pub(super) fn square_on_screen(machine: &Machine, file: usize, rank: usize) -> Sheet {
    let (left, top) = (BOARD_LEFT + file * SQUARE, BOARD_TOP + (5 - rank) * SQUARE);
    screen_area(machine, left, top, SQUARE, SQUARE)
}

/// `text` in the font of assets/font.png, one 8x8 glyph per character.
pub(super) fn text_picture(art: &gfx::Art, text: &str) -> Sheet {
    let mut picture = Sheet::filled("text", text.len() * 8, 8, None);
    for (i, ch) in text.chars().enumerate() {
        let glyph = art
            .glyph(ch)
            .unwrap_or_else(|| panic!("no glyph for {ch:?}"));
        for y in 0..8 {
            for x in 0..8 {
                picture.set(i * 8 + x, y, glyph.at(x, y));
            }
        }
    }
    picture
}

pub(super) fn art() -> gfx::Art {
    gfx::read_art().unwrap_or_else(|error| panic!("{error:#}"))
}

/// The cartridge after pressing START on the title, then A on the option pages (WHITE,
/// EASY); the board screen's set-up, which starts a game, takes a few frames with the LCD
/// off.
pub(super) fn board_screen() -> Machine {
    let mut machine = boot(10);
    for button in [Button::Start, Button::A, Button::A] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    machine.run_frames(2).unwrap();
    machine
}

#[test]
fn the_cartridge_boots_to_the_title_art_and_press_start_blinks() {
    let art = art();
    let (text_left, text_top) = PRESS_START;
    let text = text_picture(&art, "PRESS START");
    // Frames 64-95 show PRESS START; 32-63 show the art under it.
    let mut machine = boot(80);
    let lcdc = machine.read_u8(0xFF40u16).unwrap();
    assert_eq!(
        lcdc & 0x81,
        0x81,
        "LCD and background on, LCDC = ${lcdc:02X}"
    );
    let mut expected = art.title.clone();
    for y in 0..8 {
        for x in 0..text.width {
            expected.set(text_left + x, text_top + y, text.at(x, y));
        }
    }
    assert!(
        screen_area(&machine, 0, 0, 160, 144).pixels == expected.pixels,
        "the screen is not assets/title.png with PRESS START at (8, 96)"
    );
    machine.run_frames(32).unwrap();
    assert!(
        screen_area(&machine, 0, 0, 160, 144).pixels == art.title.pixels,
        "with PRESS START hidden, the screen is not assets/title.png"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_shows_the_board_with_the_start_position() {
    let art = art();
    let machine = board_screen();
    let lcdc = machine.read_u8(0xFF40u16).unwrap();
    assert_eq!(
        lcdc & 0x93,
        0x83,
        "LCD, background and objects on, tiles from $9000/$8800, LCDC = ${lcdc:02X}"
    );
    for (rank, contents) in START_POSITION.iter().enumerate() {
        for (file, &content) in contents.iter().enumerate() {
            // a1 (file + rank even) is dark, as in chess.
            let square = if (file + rank) % 2 == 0 { 1 } else { 0 };
            let mut want = gfx::cell_picture(&art.pieces, &art.board, content, square, false);
            if (file, rank) == (0, 0) {
                want = want.under(&art.selector());
            }
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            assert!(
                square_on_screen(&machine, file, rank).pixels == want.pixels,
                "square {name} does not show cell content {content} on its colour as assets/ draw it{}",
                if name == "a1" { ", under the selector" } else { "" }
            );
        }
    }
    // The rank numbers beside the board and the file letters under it.
    for rank in 0..6 {
        let label = screen_area(&machine, 0, BOARD_TOP + (5 - rank) * SQUARE, 8, 8);
        let digit = char::from(b'1' + rank as u8).to_string();
        assert_eq!(
            label.pixels,
            text_picture(&art, &digit).pixels,
            "rank {digit}"
        );
    }
    for file in 0..5 {
        let label = screen_area(
            &machine,
            BOARD_LEFT + file * SQUARE,
            FILE_LABEL_ROW * 8,
            8,
            8,
        );
        let letter = char::from(b'a' + file as u8).to_string();
        assert_eq!(
            label.pixels,
            text_picture(&art, &letter).pixels,
            "file {letter}"
        );
    }
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_control_pad_moves_the_selector_and_stops_at_the_edge() {
    let mut machine = board_screen();
    let at = |machine: &Machine| {
        (
            machine.read_u8("wCursorColumn").unwrap(),
            machine.read_u8("wCursorRow").unwrap(),
        )
    };
    // The selector starts on a1: column 0, row 5 counted from the top.
    assert_eq!(at(&machine), (0, 5));
    machine.tap(Button::Right, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(at(&machine), (1, 5));
    machine.tap(Button::Up, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(at(&machine), (1, 4));
    for _ in 0..3 {
        machine.tap(Button::Left, 2).unwrap();
        machine.run_frames(2).unwrap();
    }
    assert_eq!(at(&machine), (0, 4), "the selector left the board");
    // Every edge: down past rank 1, right past the e-file, up past rank 6.
    let press = |machine: &mut Machine, button, times| {
        for _ in 0..times {
            machine.tap(button, 2).unwrap();
            machine.run_frames(2).unwrap();
        }
    };
    press(&mut machine, Button::Down, 3);
    assert_eq!(at(&machine), (0, 5), "the selector went below rank 1");
    press(&mut machine, Button::Right, 6);
    assert_eq!(
        at(&machine),
        (4, 5),
        "the selector went right of the e-file"
    );
    press(&mut machine, Button::Up, 7);
    assert_eq!(at(&machine), (4, 0), "the selector went above rank 6");
    press(&mut machine, Button::Left, 4);
    press(&mut machine, Button::Down, 4);
    // Back on a2. On the screen: the selector is over a2, and a1 is a plain rook again.
    assert_eq!(at(&machine), (0, 4));
    let art = art();
    let a2 = gfx::cell_picture(&art.pieces, &art.board, 1, 0, false).under(&art.selector());
    assert!(
        square_on_screen(&machine, 0, 1).pixels == a2.pixels,
        "no selector on a2"
    );
    let a1 = gfx::cell_picture(&art.pieces, &art.board, 4, 1, false);
    assert!(
        square_on_screen(&machine, 0, 0).pixels == a1.pixels,
        "a1 still has the selector"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_leaves_the_title_too_and_other_buttons_do_not() {
    let art = art();
    let c1 = gfx::cell_picture(&art.pieces, &art.board, 3, 1, false);
    let mut machine = boot(10);
    for button in [Button::B, Button::Select, Button::Up, Button::Right] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    assert_eq!(
        screen_area(&machine, 0, 0, 160, 8).pixels,
        art.title.crop(0, 0, 160, 8).pixels,
        "B, SELECT or the control pad left the title"
    );
    // A on the title, then on WHITE and EASY (and the board screen's set-up, which
    // starts a game, with the LCD off).
    for _ in 0..3 {
        machine.tap(Button::A, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    machine.run_frames(6).unwrap();
    assert!(
        square_on_screen(&machine, 2, 0).pixels == c1.pixels,
        "A did not show the board (c1: a white bishop on a dark square)"
    );
    machine.assert_no_violations().unwrap();
}
