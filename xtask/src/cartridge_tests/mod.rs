//! Tests that run the cartridge's code in the emulator, one file per concern of the
//! ROM: [`screens`] (what the player sees), [`options`] (the option pages), [`clock`]
//! (the chess clocks), [`move_list`] (the move list), [`endings`] (games played to
//! their end), [`audio`] (the music and sound-effect driver), [`engine`] (the SM83
//! chess engine through its test driver), [`home`] (the interrupt handlers, the press
//! queue's routines), [`presses`] (the press queue during the engine's search),
//! [`stages`] (B and START at every stage), [`soak`] (ten minutes of random presses).
//! Every VRAM and OAM write is checked against the PPU mode.
//!
//! Where tests go: a test of a Rust module's own code is a `#[cfg(test)] mod tests` in
//! that module's file, or in a `tests.rs` (or `tests/`) beside it when it is long, as in
//! `asm/`, `assets/` and `verify/`, even when that code drives the ROM (perft's and
//! verify's ROM backends). A test of what the cartridge does goes here. A test of what
//! a user sees of a command (its lines, its errors) runs the built `xtask` binary, in
//! `xtask/tests/commands.rs`.

mod audio;
mod clock;
mod endings;
mod engine;
mod game;
mod home;
mod move_list;
mod options;
mod presses;
mod screens;
mod search;
mod soak;
mod stages;
mod unpack;

use crate::assets::gfx::FONT_GLYPHS;
use crate::harness::Machine;
use crate::rom;

/// The cartridge as `cargo xtask rom` builds it (in memory: the tests write nothing).
fn cartridge() -> rom::Build {
    rom::cartridge().unwrap_or_else(|error| panic!("{error:#}"))
}

/// A machine at power-on with `build` in it and its symbols loaded.
fn machine(build: &rom::Build) -> Machine {
    Machine::new(&build.rom)
        .and_then(|machine| machine.with_symbols(&build.sym))
        .unwrap_or_else(|error| panic!("{error:#}"))
}

/// The cartridge after `frames` frames from power-on.
fn boot(frames: u32) -> Machine {
    let mut machine = machine(&cartridge());
    machine
        .run_frames(frames)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
}

/// The font's first tile number (asm/include/gfx.inc asserts it).
const FONT_FIRST_TILE: u8 = 0x80;

/// The text of `len` tiles of tile map 0 from column `x`, row `y`, read back through the
/// font (assets/font.png, in the order of `FONT_GLYPHS`); `~` for a tile that is no glyph.
fn tile_text(machine: &Machine, x: u16, y: u16, len: usize) -> String {
    let glyphs: Vec<char> = FONT_GLYPHS.concat().chars().collect();
    machine
        .read(0x9800 + y * 32 + x, len)
        .unwrap()
        .into_iter()
        .map(|tile| {
            tile.checked_sub(FONT_FIRST_TILE)
                .and_then(|i| glyphs.get(usize::from(i)).copied())
                .unwrap_or('~')
        })
        .collect()
}

/// The set-up routine of the screen the main loop shows, by its label (found through
/// `wCurrentScreen` and `ScreenTable`, so that the screens' numbers do not matter).
fn current_screen(machine: &Machine) -> String {
    let index = machine.read_u8("wCurrentScreen").unwrap();
    let table = machine.symbol("ScreenTable").unwrap();
    let set_up = machine.read_u16(table + 4 * u16::from(index)).unwrap();
    for name in [
        "SetUpTitleScreen",
        "SetUpModePage",
        "SetUpLevelPage",
        "SetUpBoardScreen",
    ] {
        if machine.symbol(name).unwrap() == set_up {
            return name.to_owned();
        }
    }
    format!("the screen at ${set_up:04X}")
}
