//! `cargo xtask soak`: the long runs of the cartridge in the emulator, too long for
//! `cargo test` (which runs a minute of each, through the same code):
//! - [`mashing`]: ten emulated minutes of seeded random presses from power-on, every move
//!   checked by the reference model, every board compared, the CPU kept in the game's
//!   code;
//! - [`clock`]: a chess clock run down from 10:00 in emulated time, the flag falling at
//!   the exact VBlank and m:ss shown on the way.
//!
//! Each run fails, naming the frame, on the first check that does not hold; at the end
//! the command prints the figures of both and how fast the emulator ran them.

pub mod cartridge;
pub mod clock;
pub mod mashing;

use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::harness::Machine;
use crate::progress::Progress;
use crate::rom;

/// The emulated minutes of each long run.
pub const MINUTES: u16 = 10;

/// A machine at power-on with `build` in it and its symbols loaded.
pub fn machine(build: &rom::Build) -> Result<Machine> {
    Machine::new(&build.rom)?.with_symbols(&build.sym)
}

/// Frames and the wall-clock time they took, as emulated frames a second.
fn speed(frames: u64, took: Duration) -> String {
    format!(
        "{frames} frames in {:.1} s: {:.0} frames a second",
        took.as_secs_f64(),
        frames as f64 / took.as_secs_f64()
    )
}

pub fn run() -> Result<()> {
    let build = rom::cartridge()?;

    let frames = u64::from(MINUTES) * mashing::FRAMES_PER_MINUTE;
    let progress = Progress::new(format!("{MINUTES} minutes of random presses"), frames);
    let started = Instant::now();
    let figures =
        mashing::mash(&mut machine(&build)?, frames, &progress).context("the random presses")?;
    let mashing_took = started.elapsed();
    drop(progress);
    println!("{figures}");
    figures.check_promise(mashing::AT_LEAST_A_MINUTE, u32::from(MINUTES))?;
    figures.check_variety()?;
    println!("the presses: {}", speed(figures.frames, mashing_took));

    let ticks = clock::ticks_until(MINUTES * 60);
    let progress = Progress::new(format!("a clock run down from {MINUTES}:00"), ticks);
    let started = Instant::now();
    let mut clock_machine = machine(&build)?;
    let clock = clock::run_down(&mut clock_machine, MINUTES, &progress).context("the clock")?;
    let clock_took = started.elapsed();
    drop(progress);
    println!(
        "the clock: {} s run down, the flag fell at the {}th VBlank, {:.4} s after the \
         clock started",
        clock.seconds, clock.flag_fell_at_tick, clock.elapsed_seconds
    );
    println!("the clock: {}", speed(clock_machine.frames(), clock_took));
    println!(
        "soak passed: {} moves checked, {} boards compared, no PPU access violation",
        figures.moves_checked, figures.boards_checked
    );
    Ok(())
}
