//! `cargo xtask shot`: plays the cartridge headless with a scripted button sequence and
//! writes what the screen shows at chosen moments as PNG files in `generated/screenshots/`
//! (the README shows them). `--check` writes nothing and fails if a file differs from what
//! the ROM shows now; a test does the same.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::cli::ShotArgs;
use crate::harness::{screen, Button, Machine, Screen};
use crate::project::{self, plural};
use crate::rom;

/// Where the screenshots go, relative to the repository root.
pub const SCREENSHOTS_DIR: &str = "generated/screenshots";

/// One step of the script a player would follow.
enum Step {
    /// Let frames pass without touching anything.
    Wait(u32),
    /// Press a button for two frames, then let go.
    Press(Button),
    /// Take a screenshot, `<name>.png`.
    Shot(&'static str),
}

/// From power-on: the title once PRESS START shows (it blinks every 32 frames, shown
/// while the frame counter's bit 5 is 0: frames 64-95 here), then START; the first option
/// page with the arrow moved to BLACK, A; the level page with the arrow on MEDIUM, back
/// up to EASY, A; then the board.
const SCRIPT: &[Step] = &[
    Step::Wait(80),
    Step::Shot("title"),
    Step::Press(Button::Start),
    Step::Wait(10),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Shot("play_as"),
    Step::Press(Button::Up),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(10),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Shot("level"),
    Step::Press(Button::Up),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(10),
    Step::Shot("board"),
];

/// Runs the script on a built cartridge: each screenshot's name and screen. Fails if the
/// cartridge wrote VRAM or OAM when the PPU did not allow it.
pub fn screens(build: &rom::Build) -> Result<Vec<(&'static str, Screen)>> {
    let mut machine = Machine::new(&build.rom)?.with_symbols(&build.sym)?;
    let mut shots = Vec::new();
    for step in SCRIPT {
        match step {
            Step::Wait(frames) => {
                machine.run_frames(*frames)?;
            }
            Step::Press(button) => machine.tap(*button, 2)?,
            Step::Shot(name) => shots.push((*name, machine.screen())),
        }
    }
    machine
        .assert_no_violations()
        .context("the cartridge broke the PPU's rules while the screenshots were taken")?;
    Ok(shots)
}

/// The screenshot files whose contents differ from `shots` (all of them written unless
/// `check`).
fn write_or_check(root: &Path, shots: &[(&str, Screen)], check: bool) -> Result<Vec<String>> {
    let mut stale = Vec::new();
    for (name, shot) in shots {
        let path = format!("{SCREENSHOTS_DIR}/{name}.png");
        let png = screen::encode_png(shot)?;
        if std::fs::read(root.join(&path)).ok().as_deref() == Some(&png[..]) {
            continue;
        }
        if !check {
            project::write_atomic(&root.join(&path), &png)?;
        }
        stale.push(path);
    }
    Ok(stale)
}

pub fn run(args: &ShotArgs) -> Result<()> {
    let shots = screens(&rom::cartridge()?)?;
    let stale = write_or_check(&project::root(), &shots, args.check)?;
    if args.check {
        if !stale.is_empty() {
            bail!(
                "{} not what the ROM shows now: run `cargo xtask shot`",
                stale.join(", ")
            );
        }
        println!("{} up to date", plural(shots.len(), "screenshot"));
    } else {
        for path in &stale {
            println!("wrote {path}");
        }
        if stale.is_empty() {
            println!("{SCREENSHOTS_DIR}/ is up to date");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_screenshots_show_what_the_rom_shows() {
        let shots = screens(&rom::cartridge().unwrap()).unwrap_or_else(|error| panic!("{error:#}"));
        assert_eq!(
            shots.iter().map(|(name, _)| *name).collect::<Vec<_>>(),
            ["title", "play_as", "level", "board"]
        );
        let stale = write_or_check(&project::root(), &shots, true).unwrap();
        assert!(
            stale.is_empty(),
            "{} not what the ROM shows now: run `cargo xtask shot`",
            stale.join(", ")
        );
    }
}
