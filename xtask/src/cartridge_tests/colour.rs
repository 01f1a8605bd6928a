//! Colour: the console told apart at start-up, a Game Boy Color's palettes and attribute
//! maps, its colour page, and the packets a Super Game Boy receives (asm/ui/colour.asm).

use super::support::{constant, current_screen, machine_on, press};
use crate::harness::sgb::{decode_packets, Packet, PACKET_GAP_CYCLES, PACKET_SIZE};
use crate::harness::{Button, Console, Machine};
use crate::rom;

fn build() -> rom::Build {
    super::support::cartridge()
}

/// A colour as the schemes store it, from red, green and blue (0-31).
fn rgb(r: u16, g: u16, b: u16) -> u16 {
    r | g << 5 | b << 10
}

/// The GBA's lift of a colour: each channel a quarter of the way to full.
fn lifted(colour: u16) -> u16 {
    let lift = |c: u16| c + (31 - c) / 4;
    let (r, g, b) = (colour & 31, colour >> 5 & 31, colour >> 10 & 31);
    rgb(lift(r), lift(g), lift(b))
}

/// The 16-bit colours of 64 bytes of palette RAM.
fn colours(bytes: &[u8; 64]) -> Vec<u16> {
    bytes
        .chunks(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

/// Scheme `scheme`'s stored colours, read from the ROM's ColourSchemes.
fn stored_scheme(machine: &Machine, scheme: u8) -> Vec<u16> {
    let size: u16 = constant(machine, "SCHEME_SIZE");
    let at = machine.symbol("ColourSchemes").unwrap() + u16::from(scheme) * size;
    let bytes = machine.read(at, usize::from(size)).unwrap();
    bytes
        .chunks(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

#[test]
fn the_console_is_the_one_the_boot_rom_or_the_sgb_reports() {
    let build = build();
    for (console, name) in [
        (Console::Dmg, "CONSOLE_DMG"),
        (Console::Sgb, "CONSOLE_SGB"),
        (Console::Cgb, "CONSOLE_CGB"),
        (Console::Gba, "CONSOLE_GBA"),
    ] {
        let mut machine = machine_on(&build, console);
        machine.run_frames(30).unwrap();
        let expected: u8 = constant(&machine, name);
        assert_eq!(
            machine.read_u8("hConsole").unwrap(),
            expected,
            "{console:?} is told as {name}"
        );
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn a_dmg_sends_the_multiplayer_request_alone_and_waits_for_nothing() {
    let build = build();
    let mut machine = machine_on(&build, Console::Dmg);
    machine.run_frames(30).unwrap();
    let packets = decode_packets(machine.joypad_writes()).unwrap();
    let mut expected = [0; PACKET_SIZE];
    expected[..2].copy_from_slice(&[header(0x11), 0x01]);
    assert_eq!(
        packets.iter().map(|p| p.bytes).collect::<Vec<_>>(),
        [expected]
    );
    // Sent while the start-up waits for VBlank with the LCD on, before it switches it off.
    println!(
        "MLT_REQ sent in machine cycles {}-{} after power-on",
        packets[0].start, packets[0].end
    );
    assert!(
        packets[0].end < 17_556,
        "the request went out in the first frame"
    );
}

/// The packets an SGB has received after the title and a new game's board screen.
fn sgb_packets() -> (Machine, Vec<Packet>) {
    let build = build();
    let mut machine = machine_on(&build, Console::Sgb);
    machine.run_frames(30).unwrap();
    // The joypad answers player 1 alone again: START leaves the title. (Each screen's
    // set-up sends a packet and waits its 4 frames with the LCD off, when no press is
    // read: the presses wait for it.)
    for button in [Button::Start, Button::A, Button::A] {
        press(&mut machine, button);
        machine.run_frames(6).unwrap();
    }
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    machine.assert_no_violations().unwrap();
    let packets = decode_packets(machine.joypad_writes()).unwrap_or_else(|e| panic!("{e}"));
    (machine, packets)
}

/// A one-packet command's header byte (Pan Docs' numbers: PAL01 $00, PAL23 $01, ATTR_BLK
/// $04, MLT_REQ $11).
fn header(command: u8) -> u8 {
    command << 3 | 1
}

/// A packet's 16 bytes from the ones that begin it.
fn packet(start: &[u8]) -> [u8; PACKET_SIZE] {
    let mut bytes = [0; PACKET_SIZE];
    bytes[..start.len()].copy_from_slice(start);
    bytes
}

#[test]
fn a_super_game_boy_receives_its_packets_with_pan_docs_timing() {
    let (machine, packets) = sgb_packets();
    let board_x: u8 = constant(&machine, "BOARD_TILE_X");
    let board_y: u8 = constant(&machine, "BOARD_TILE_Y");
    let squares: u8 = constant(&machine, "SQUARE_TILES");
    let (clock_x, clock_y, clock_width): (u8, u8, u8) = (
        constant(&machine, "CLOCK_X"),
        constant(&machine, "CLOCK_TOP_Y"),
        constant(&machine, "CLOCK_WIDTH"),
    );
    // WOOD's board colours are PAL01's colour 0 and palette 0.
    let wood = stored_scheme(&machine, 0);
    let mut pal01 = vec![header(0x00)];
    for colour in &wood[..4] {
        pal01.extend(colour.to_le_bytes());
    }
    for colour in [rgb(24, 20, 14), rgb(14, 10, 6), rgb(6, 4, 2)] {
        pal01.extend(colour.to_le_bytes());
    }
    let mut pal23 = vec![header(0x01)];
    for colour in &wood[..4] {
        pal23.extend(colour.to_le_bytes());
    }
    for colour in [rgb(26, 14, 8), rgb(20, 6, 3), rgb(12, 2, 1)] {
        pal23.extend(colour.to_le_bytes());
    }
    let whole_screen = packet(&[header(0x04), 1, 0b011, 2 | 2 << 2, 0, 0, 19, 17]);
    let board = packet(&[
        header(0x04),
        2,
        0b111,
        1 << 4,
        board_x,
        board_y,
        board_x + 5 * squares - 1,
        board_y + 6 * squares - 1,
        0b011,
        3 | 3 << 2,
        clock_x,
        clock_y,
        clock_x + clock_width - 1,
        clock_y,
    ]);
    let expected = [
        packet(&[header(0x11), 0x01]),
        packet(&[header(0x11), 0x00]),
        packet(&pal01),
        packet(&pal23),
        // the title, the two option pages, the board screen
        whole_screen,
        whole_screen,
        whole_screen,
        board,
    ];
    assert_eq!(
        packets.iter().map(|p| p.bytes).collect::<Vec<_>>(),
        expected
    );
    // 60 ms, 4 frames, between the end of a packet and the next one's reset pulse.
    for (number, pair) in packets.windows(2).enumerate() {
        let gap = pair[1].start - pair[0].end;
        println!("after packet {}: {gap} machine cycles", number + 1);
        assert!(
            gap >= PACKET_GAP_CYCLES,
            "packet {} follows packet {} after {gap} machine cycles",
            number + 2,
            number + 1
        );
    }
}

/// A CGB (or GBA) on the mode page, its colours applied with wColourScheme = `scheme`.
fn colour_page_machine(console: Console, scheme: u8) -> Machine {
    let build = build();
    let mut machine = machine_on(&build, console);
    machine.run_frames(10).unwrap();
    machine.write_u8("wColourScheme", scheme).unwrap();
    press(&mut machine, Button::Start);
    assert_eq!(current_screen(&machine), "SetUpModePage");
    machine.assert_no_violations().unwrap();
    machine
}

#[test]
fn palette_ram_holds_each_schemes_colours_lifted_on_a_gba() {
    for console in [Console::Cgb, Console::Gba] {
        for scheme in 0..constant::<u8>(&colour_page_machine(console, 0), "NUM_COLOUR_SCHEMES") {
            let machine = colour_page_machine(console, scheme);
            let stored = stored_scheme(&machine, scheme);
            let lift = |c: u16| {
                if console == Console::Gba {
                    lifted(c)
                } else {
                    c
                }
            };
            let palettes: usize = constant(&machine, "NUM_BG_PALETTES");
            // the board's four colours, then paper, paper, ink, ink for each other palette
            let mut background: Vec<u16> = stored[..4].iter().map(|&c| lift(c)).collect();
            for pair in stored[4..4 + 2 * (palettes - 1)].chunks(2) {
                let (paper, ink) = (lift(pair[0]), lift(pair[1]));
                background.extend([paper, paper, ink, ink]);
            }
            let ram = machine.palette_ram();
            assert_eq!(
                colours(&ram[0])[..4 * palettes],
                background[..],
                "{console:?}, scheme {scheme}: background palettes"
            );
            let marks = &stored[4 + 2 * (palettes - 1)..];
            assert_eq!(
                colours(&ram[1])[1..4],
                [lift(rgb(31, 31, 31)), lift(marks[0]), lift(marks[1])],
                "{console:?}, scheme {scheme}: the objects' palette"
            );
        }
    }
    // GREYS is the DMG's four greys; on a GBA lifted: black becomes 7 of 31.
    let greys: u8 = constant(&colour_page_machine(Console::Cgb, 0), "COLOUR_SCHEME_GREYS");
    let cgb = colour_page_machine(Console::Cgb, greys);
    assert_eq!(
        colours(&cgb.palette_ram()[0])[..4],
        [0x7FFF, 0x56B5, 0x294A, 0x0000]
    );
    let gba = colour_page_machine(Console::Gba, greys);
    assert_eq!(
        colours(&gba.palette_ram()[0])[..4],
        [0x7FFF, 0x5EF7, 0x3DEF, 0x1CE7]
    );
}

/// A Game Boy Color on the colour page: START on the title, A on the two option pages.
fn colour_page() -> Machine {
    let mut machine = machine_on(&build(), Console::Cgb);
    machine.run_frames(10).unwrap();
    press(&mut machine, Button::Start);
    press(&mut machine, Button::A);
    press(&mut machine, Button::A);
    assert_eq!(current_screen(&machine), "SetUpColourPage");
    machine
}

#[test]
fn the_board_screens_attribute_map_colours_board_panel_clocks_text_and_menu() {
    let mut machine = colour_page();
    press(&mut machine, Button::A);
    machine.run_frames(10).unwrap();
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    machine.assert_no_violations().unwrap();

    let value = |name: &str| -> usize { constant(&machine, name) };
    let (board_x, board_y, squares) = (
        value("BOARD_TILE_X"),
        value("BOARD_TILE_Y"),
        value("SQUARE_TILES"),
    );
    let (list_x, list_y, list_w, list_h) = (
        value("MOVE_LIST_X"),
        value("MOVE_LIST_Y"),
        value("MOVE_LIST_WIDTH"),
        value("MOVE_LIST_HEIGHT"),
    );
    let (clock_x, clock_w) = (value("CLOCK_X"), value("CLOCK_WIDTH"));
    let clocks = [value("CLOCK_TOP_Y"), value("CLOCK_BOTTOM_Y")];
    let bank1 = machine.vram_bank1();
    let map0 = value("TILEMAP0") - 0x8000;
    let map1 = value("TILEMAP1") - 0x8000;
    let width = value("TILEMAP_WIDTH");
    let name_of = |palette: u8| {
        ["PAL_BOARD", "PAL_PANEL", "PAL_CLOCK", "PAL_TEXT"]
            .into_iter()
            .find(|name| constant::<u8>(&machine, name) == palette)
            .unwrap_or("another palette")
    };
    for y in 0..18 {
        for x in 0..20 {
            let expected = if (board_x..board_x + 5 * squares).contains(&x)
                && (board_y..board_y + 6 * squares).contains(&y)
            {
                "PAL_BOARD"
            } else if (clock_x..clock_x + clock_w).contains(&x) && clocks.contains(&y) {
                "PAL_CLOCK"
            } else if (list_x..list_x + list_w).contains(&x)
                && (list_y..list_y + list_h).contains(&y)
            {
                "PAL_PANEL"
            } else {
                "PAL_TEXT"
            };
            assert_eq!(
                name_of(bank1[map0 + y * width + x]),
                expected,
                "the attribute of tile ({x}, {y})"
            );
        }
    }
    let menu_rows = value("MENU_HEIGHT");
    for y in 0..menu_rows {
        for x in 0..20 {
            assert_eq!(
                name_of(bank1[map1 + y * width + x]),
                "PAL_PANEL",
                "the pause menu's attribute of tile ({x}, {y})"
            );
        }
    }
}

#[test]
fn the_colour_page_chooses_the_scheme_the_board_shows_and_keeps_it() {
    let mut machine = colour_page();
    press(&mut machine, Button::Down);
    press(&mut machine, Button::A);
    machine.run_frames(10).unwrap();
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    let ocean: u8 = constant(&machine, "COLOUR_SCHEME_OCEAN");
    assert_eq!(machine.read_u8("wColourScheme").unwrap(), ocean);
    let stored = stored_scheme(&machine, ocean);
    assert_eq!(colours(&machine.palette_ram()[0])[..4], stored[..4]);
    machine.assert_no_violations().unwrap();
}
