//! Tests that run the cartridge's code in the emulator, one file per concern of the
//! ROM: [`screens`] (what the player sees), [`options`] (the option pages), [`clock`]
//! (the chess clocks), [`move_list`] (the move list), [`endings`] (games played to
//! their end), [`audio`] (the music and sound-effect driver), [`engine`] (the SM83
//! chess engine through its test driver), [`home`] (the interrupt handlers, the press
//! queue's routines), [`menu`] (the pause menu through the joypad, its list scrolling),
//! [`presses`] (the press queue during the engine's search), [`hint`] (the menu's
//! HINT), [`sides`] (SWITCH SIDES, and the engine taking over between two players),
//! [`engine_turn`] (the
//! book's move, the time guard and "move now" through the joypad),
//! [`stages`] (B and START at every stage), [`soak`] (ten minutes of random presses),
//! [`colour`] (the consoles told apart, the CGB palettes and attributes, the SGB packets),
//! [`take_back`] (take back and replay through the joypad), [`latency`] (the frames a
//! player waits around the engine's search).
//! Every VRAM and OAM write is checked against the PPU mode.
//!
//! [`support`] is their kit: booting to a stage (the title, the option pages, a game as
//! White, Black or two players at a level, the engine thinking, the promotion question, a
//! draw offered), pressing, steering the selector, playing a move by its squares, and
//! reading the board, the state, the status line, the move list, the clocks and the
//! option pages. Every value the assembly defines is read from the `.sym` file by name
//! (`support::constant`, the constants `EXPORT`ed beside their `DEF`), never copied. A
//! test file holds its tests and the helpers only it uses.
//!
//! Where tests go: a test of a Rust module's own code is a `#[cfg(test)] mod tests` in
//! that module's file, or in a `tests.rs` (or `tests/`) beside it when it is long, as in
//! `asm/`, `assets/` and `verify/`, even when that code drives the ROM (perft's and
//! verify's ROM backends). A test of what the cartridge does goes here. A test of what
//! a user sees of a command (its lines, its errors) runs the built `xtask` binary, in
//! `xtask/tests/commands.rs`.

mod audio;
mod clock;
mod colour;
mod endings;
mod engine;
mod engine_turn;
mod game;
mod hint;
mod home;
mod latency;
mod menu;
mod move_list;
mod options;
mod presses;
mod screens;
mod search;
mod sides;
mod soak;
mod stages;
mod support;
mod take_back;
mod unpack;
