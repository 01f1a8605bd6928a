//! The built cartridge as a player meets it, run in the emulator harness with every
//! VRAM and OAM write checked against the PPU mode.

use crate::harness::{Button, Machine};
use crate::{project, rom};

/// The cartridge as `cargo xtask rom` builds it (in memory: the tests write nothing).
fn cartridge() -> rom::Build {
    let units = rom::engine_units(&project::root()).expect("asm/ has sources");
    rom::assemble_and_link(&units, "the cartridge").unwrap_or_else(|error| panic!("{error:#}"))
}

/// The cartridge after `frames` frames from power-on.
fn boot(frames: u32) -> Machine {
    let build = cartridge();
    let mut machine = Machine::new(&build.rom)
        .and_then(|machine| machine.with_symbols(&build.sym))
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
        .run_frames(frames)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
}

const SCREEN_WIDTH: usize = 160;

/// The board's top-left pixel on the screen (tile column 3, row 3: see asm/ui/board_view.asm).
const BOARD_LEFT: usize = 3 * 8;
const BOARD_TOP: usize = 3 * 8;
const SQUARE: usize = 16;

/// The 16x16 pixels of a square (file 0-4 = a-e, rank 0-5 = 1-6) with White at the
/// bottom, row by row.
fn square_pixels(machine: &Machine, file: usize, rank: usize) -> Vec<u8> {
    let screen = machine.screen();
    let left = BOARD_LEFT + file * SQUARE;
    let top = BOARD_TOP + (5 - rank) * SQUARE;
    (top..top + SQUARE)
        .flat_map(|y| (left..left + SQUARE).map(move |x| (x, y)))
        .map(|(x, y)| screen[y * SCREEN_WIDTH + x])
        .collect()
}

#[test]
fn the_cartridge_boots_to_the_board_with_the_display_on() {
    let machine = boot(10);
    let lcdc = machine.read_u8(0xFF40u16).unwrap();
    assert_eq!(
        lcdc & 0x81,
        0x81,
        "LCD and background on, LCDC = ${lcdc:02X}"
    );
    // Every square but a1 (under the selector): dark where file + rank is even, as a1 is
    // in chess, light otherwise, and all squares of a colour drawn alike.
    let dark = square_pixels(&machine, 2, 0);
    let light = square_pixels(&machine, 1, 0);
    let darkness = |pixels: &[u8]| pixels.iter().map(|&shade| u32::from(shade)).sum::<u32>();
    assert!(
        darkness(&dark) > darkness(&light),
        "c1 should be darker than b1 (a1 is a dark square)"
    );
    for rank in 0..6 {
        for file in 0..5 {
            if (file, rank) == (0, 0) {
                continue;
            }
            let want = if (file + rank) % 2 == 0 {
                &dark
            } else {
                &light
            };
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            assert_eq!(&square_pixels(&machine, file, rank), want, "square {name}");
        }
    }
    // The heading is drawn (row 1: the tiles of CHESS ATTACK are not blank).
    let screen = machine.screen();
    let heading = &screen[8 * SCREEN_WIDTH..16 * SCREEN_WIDTH];
    assert!(heading.iter().any(|&shade| shade != 0), "no heading");
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_control_pad_moves_the_selector_and_stops_at_the_edge() {
    let mut machine = boot(10);
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
    machine.assert_no_violations().unwrap();
}
