//! Tests that run the cartridge's code in the emulator, one file per concern of the
//! ROM: [`screens`] (what the player sees), [`audio`] (the music and sound-effect
//! driver), [`engine`] (the SM83 chess engine through its test driver), [`home`] (the
//! interrupt handlers). Every VRAM and OAM write is checked against the PPU mode.
//!
//! Where tests go: a test of a Rust module's own code is a `#[cfg(test)] mod tests` in
//! that module's file, or in a `tests.rs` (or `tests/`) beside it when it is long, as in
//! `asm/`, `assets/` and `verify/`, even when that code drives the ROM (perft's and
//! verify's ROM backends). A test of what the cartridge does goes here. A test of what
//! a user sees of a command (its lines, its errors) runs the built `xtask` binary, in
//! `xtask/tests/commands.rs`.

mod audio;
mod engine;
mod game;
mod home;
mod screens;
mod search;

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
