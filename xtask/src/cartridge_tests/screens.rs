//! The screens as a player meets them: the title, the option pages, the board with the
//! start position, the selector under the control pad.

use super::support::{
    art, board_geometry, board_screen, boot, constant, cursor, screen_area, text_picture,
};
use crate::assets::gfx::{self, Sheet};
use crate::harness::{Button, Machine, HEIGHT, WIDTH};

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

/// A square (file 0-4 = a-e, rank 0-5 = 1-6) on the screen, White at the bottom.
fn square_on_screen(machine: &Machine, file: usize, rank: usize) -> Sheet {
    let (board_left, board_top, side) = board_geometry(machine);
    let (left, top) = (board_left + file * side, board_top + (5 - rank) * side);
    screen_area(machine, left, top, side, side)
}

/// Where the title shows PRESS START, in pixels (asm/ui/title.asm's PRESS_START_X and
/// PRESS_START_Y).
fn press_start(machine: &Machine) -> (usize, usize) {
    (
        8 * constant::<usize>(machine, "PRESS_START_X"),
        8 * constant::<usize>(machine, "PRESS_START_Y"),
    )
}

/// The OR of LCDC's bits named (asm/include/hardware.inc).
fn lcdc_bits(machine: &Machine, names: &[&str]) -> u8 {
    names
        .iter()
        .fold(0, |bits, name| bits | constant::<u8>(machine, name))
}

#[test]
fn the_cartridge_boots_to_the_title_art_and_press_start_blinks() {
    let art = art();
    let text = text_picture(&art, "PRESS START");
    // Frames 64-95 show PRESS START; 32-63 show the art under it.
    let mut machine = boot(80);
    let (text_left, text_top) = press_start(&machine);
    let lcdc = machine.read_u8(constant::<u16>(&machine, "rLCDC")).unwrap();
    let on = lcdc_bits(&machine, &["LCDC_ON", "LCDC_BG_ON"]);
    assert_eq!(lcdc & on, on, "LCD and background on, LCDC = ${lcdc:02X}");
    let mut expected = art.title.clone();
    for y in 0..8 {
        for x in 0..text.width {
            expected.set(text_left + x, text_top + y, text.at(x, y));
        }
    }
    assert!(
        screen_area(&machine, 0, 0, WIDTH, HEIGHT).pixels == expected.pixels,
        "the screen is not assets/title.png with PRESS START at (8, 96)"
    );
    machine.run_frames(32).unwrap();
    assert!(
        screen_area(&machine, 0, 0, WIDTH, HEIGHT).pixels == art.title.pixels,
        "with PRESS START hidden, the screen is not assets/title.png"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_shows_the_board_with_the_start_position() {
    let art = art();
    let machine = board_screen();
    let lcdc = machine.read_u8(constant::<u16>(&machine, "rLCDC")).unwrap();
    assert_eq!(
        lcdc & lcdc_bits(
            &machine,
            &["LCDC_ON", "LCDC_BLOCKS", "LCDC_OBJ_ON", "LCDC_BG_ON"]
        ),
        lcdc_bits(&machine, &["LCDC_ON", "LCDC_OBJ_ON", "LCDC_BG_ON"]),
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
    let (board_left, board_top, side) = board_geometry(&machine);
    let rank_label_x: usize = constant(&machine, "RANK_LABEL_X");
    let file_label_y: usize = constant(&machine, "FILE_LABEL_Y");
    for rank in 0..6 {
        let label = screen_area(
            &machine,
            rank_label_x * 8,
            board_top + (5 - rank) * side,
            8,
            8,
        );
        let digit = char::from(b'1' + rank as u8).to_string();
        assert_eq!(
            label.pixels,
            text_picture(&art, &digit).pixels,
            "rank {digit}"
        );
    }
    for file in 0..5 {
        let label = screen_area(&machine, board_left + file * side, file_label_y * 8, 8, 8);
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
    // The selector starts on a1: column 0, row 5 counted from the top.
    assert_eq!(cursor(&machine), (0, 5));
    machine.tap(Button::Right, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(cursor(&machine), (1, 5));
    machine.tap(Button::Up, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(cursor(&machine), (1, 4));
    for _ in 0..3 {
        machine.tap(Button::Left, 2).unwrap();
        machine.run_frames(2).unwrap();
    }
    assert_eq!(cursor(&machine), (0, 4), "the selector left the board");
    // Every edge: down past rank 1, right past the e-file, up past rank 6.
    let press = |machine: &mut Machine, button, times| {
        for _ in 0..times {
            machine.tap(button, 2).unwrap();
            machine.run_frames(2).unwrap();
        }
    };
    press(&mut machine, Button::Down, 3);
    assert_eq!(cursor(&machine), (0, 5), "the selector went below rank 1");
    press(&mut machine, Button::Right, 6);
    assert_eq!(
        cursor(&machine),
        (4, 5),
        "the selector went right of the e-file"
    );
    press(&mut machine, Button::Up, 7);
    assert_eq!(cursor(&machine), (4, 0), "the selector went above rank 6");
    press(&mut machine, Button::Left, 4);
    press(&mut machine, Button::Down, 4);
    // Back on a2. On the screen: the selector is over a2, and a1 is a plain rook again.
    assert_eq!(cursor(&machine), (0, 4));
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
        screen_area(&machine, 0, 0, WIDTH, 8).pixels,
        art.title.crop(0, 0, WIDTH, 8).pixels,
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
