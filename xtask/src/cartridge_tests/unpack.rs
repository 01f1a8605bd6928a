//! The packed art on the cartridge: `Unpack` (asm/home/unpack.asm) gives back, in VRAM,
//! what the reference unpacker (xtask/src/assets/pack.rs) gives for every stream, and
//! every screen change keeps the LCD off for at most 6 frames.

use super::support::{boot, constant, press, title_between_updates};
use crate::assets::gfx::{convert, read_art};
use crate::assets::pack;
use crate::harness::{Button, Machine, Registers, CYCLES_PER_FRAME};

/// The longest a screen change may keep the LCD off.
const MAX_FRAMES_DARK: u64 = 6;

fn lcd_on(machine: &Machine) -> bool {
    let lcdc = machine.read_u8(constant::<u16>(machine, "rLCDC")).unwrap();
    lcdc & constant::<u8>(machine, "LCDC_ON") != 0
}

/// Runs until the LCD goes off, then until it comes back on; returns the cycles it was
/// off. `button` is held until the LCD goes off (the press that changes the screen).
fn dark_cycles(machine: &mut Machine, button: Option<Button>) -> u64 {
    if let Some(button) = button {
        machine.press(button);
    }
    let limit = machine.cycles() + 60 * CYCLES_PER_FRAME;
    while lcd_on(machine) {
        machine.step().unwrap();
        assert!(machine.cycles() < limit, "the LCD did not go off");
    }
    if let Some(button) = button {
        machine.release(button);
    }
    let off = machine.cycles();
    while !lcd_on(machine) {
        machine.step().unwrap();
        assert!(machine.cycles() < limit, "the LCD did not come back on");
    }
    machine.cycles() - off
}

/// Every stream `cargo xtask assets` packs is on the cartridge as packed, and `Unpack`,
/// called with the LCD off, writes into its place in VRAM the bytes the reference
/// unpacker gives for it, which are the sheet's tiles; its cost per byte is printed.
#[test]
fn every_sheet_unpacks_in_vram_as_the_reference_unpacks_it() {
    let streams = convert(&read_art().unwrap()).unwrap().streams();
    assert_eq!(
        streams.iter().map(|s| s.label).collect::<Vec<_>>(),
        [
            "PackedFontTiles",
            "PackedTitleTiles",
            "PackedBoardTiles",
            "PackedBoardObjectTiles"
        ],
        "the art changed: these are the streams it packs into"
    );
    let mut machine = title_between_updates();
    machine.call("TurnLCDOff", 2 * CYCLES_PER_FRAME).unwrap();
    assert!(!lcd_on(&machine));
    for stream in &streams {
        let at = machine.symbol(stream.label).unwrap();
        let on_cartridge = machine.read(at, stream.packed.len()).unwrap();
        assert_eq!(
            on_cartridge, stream.packed,
            "{} on the cartridge",
            stream.label
        );
        let reference = pack::unpack(&on_cartridge).unwrap();
        assert_eq!(reference, stream.data, "{}: the reference", stream.label);

        let destination = machine.symbol(stream.destination).unwrap();
        // Whatever was there before is not what the stream writes.
        machine
            .write(destination, &vec![0x5A; reference.len()])
            .unwrap();
        let registers = machine.registers();
        machine.set_registers(&Registers {
            hl: at,
            de: destination,
            ..registers
        });
        let cycles = machine.call("Unpack", 10 * CYCLES_PER_FRAME).unwrap();
        let after = machine.registers();
        assert_eq!(
            machine.read(destination, reference.len()).unwrap(),
            reference,
            "{} unpacked in VRAM at ${destination:04X}",
            stream.label
        );
        assert_eq!(
            (after.hl, after.de),
            (
                at + stream.packed.len() as u16,
                destination + reference.len() as u16
            ),
            "{}: hl past the stream, de past the bytes written",
            stream.label
        );
        println!(
            "{}: {} bytes from {} in {cycles} cycles, {:.2} a byte",
            stream.label,
            reference.len(),
            stream.packed.len(),
            cycles as f64 / reference.len() as f64
        );
        // A promise to keep the set-ups short: at most 16 cycles a byte unpacked.
        assert!(
            cycles <= 16 * reference.len() as u64,
            "{}: {cycles} cycles for {} bytes",
            stream.label,
            reference.len()
        );
    }
    machine.assert_no_violations().unwrap();
}

/// Start-up, from power-on to the title (which clears all of RAM and VRAM besides), the
/// title to the first option page and back (B), to it again, on to the level page and the
/// board, and NEW GAME from the board's menu back to the option pages: each keeps the LCD
/// off for at most 6 frames. The figures are printed.
#[test]
fn no_screen_change_keeps_the_lcd_off_longer_than_6_frames() {
    let mut machine = boot(0);
    let mut changes = vec![("power-on to the title", dark_cycles(&mut machine, None))];
    for (change, button) in [
        ("the title to the first option page", Button::Start),
        ("B on the first option page to the title", Button::B),
        ("the title to the first option page", Button::Start),
        ("the first option page to the level page", Button::A),
        ("the level page to the board", Button::A),
    ] {
        machine.run_frames(10).unwrap();
        changes.push((change, dark_cycles(&mut machine, Some(button))));
    }
    machine.run_frames(10).unwrap();
    press(&mut machine, Button::Start);
    for _ in 0..constant::<usize>(&machine, "MENU_NEW_GAME") {
        press(&mut machine, Button::Down);
    }
    changes.push((
        "NEW GAME to the first option page",
        dark_cycles(&mut machine, Some(Button::A)),
    ));
    for (change, cycles) in &changes {
        println!(
            "{change}: the LCD off {cycles} cycles, {:.2} frames",
            *cycles as f64 / CYCLES_PER_FRAME as f64
        );
    }
    for (change, cycles) in changes {
        assert!(
            cycles <= MAX_FRAMES_DARK * CYCLES_PER_FRAME,
            "{change}: the LCD off for {cycles} cycles, more than {MAX_FRAMES_DARK} frames"
        );
    }
    machine.assert_no_violations().unwrap();
}
