//! `cargo xtask shot`: plays the cartridge headless with a scripted button sequence and
//! writes what the screen shows at chosen moments as PNG files in `generated/screenshots/`,
//! and an animated GIF of a short game against the engine, from power-on, as a player
//! would play it with the joypad (the README shows them). The same script on a Game Boy
//! Color (boytacean's colour mode) writes the colour screenshots in `generated/screenshots/cgb/`,
//! with the colour page, and the board in each colour scheme. `--check` writes nothing and
//! fails if a file differs from what the ROM shows now; a test does the same.

use std::path::Path;

use anyhow::{bail, ensure, Context, Result};
use engine_src::{Move, Position, Square};

use crate::cli::ShotArgs;
use crate::harness::{
    screen, Button, Console, Machine, Screen, CYCLES_PER_FRAME, CYCLES_PER_SECOND,
};
use crate::project::{self, plural};
use crate::rom;
use crate::soak::cartridge::model_square;

/// Where the screenshots go, relative to the repository root.
pub const SCREENSHOTS_DIR: &str = "generated/screenshots";
/// Where the colour screenshots go, relative to the repository root.
pub const COLOUR_SCREENSHOTS_DIR: &str = "generated/screenshots/cgb";

/// The colour schemes' names on the colour page, in its order (COLOUR_SCHEME_*).
const COLOUR_SCHEMES: [&str; 4] = ["wood", "ocean", "forest", "greys"];

/// One step of the script a player would follow.
enum Step {
    /// Let frames pass without touching anything.
    Wait(u32),
    /// Press a button for two frames, then let go.
    Press(Button),
    /// Take a screenshot, `<name>.png`.
    Shot(&'static str),
    /// On a Game Boy Color, the colour page: a screenshot with the arrow moved down once,
    /// then the scheme the run shows chosen. Nothing on a DMG, which never shows the page.
    ColourPage,
}

/// From power-on: the title once PRESS START shows (it blinks every 32 frames, shown
/// while the frame counter's bit 5 is 0: frames 64-95 here), then START; the first option
/// page with the arrow moved to BLACK, A; the level page with the arrow on MEDIUM, back
/// up to EASY, A; then the board, the pawn a2-a3 (up, A, up, A) and the engine's reply,
/// START for the pause menu, HINT (the hint's piece picked up, the selector on its
/// square), START again and RESIGN: the end; there START for the replay, and left a
/// ply back: the replay at White's move.
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
    Step::ColourPage,
    Step::Wait(10),
    Step::Shot("board"),
    Step::Press(Button::Up),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(4),
    Step::Press(Button::Up),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(150),
    Step::Press(Button::Start),
    Step::Wait(10),
    Step::Shot("menu"),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(120),
    Step::Shot("hint"),
    Step::Press(Button::Start),
    Step::Wait(10),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Press(Button::Down),
    Step::Wait(4),
    Step::Press(Button::A),
    Step::Wait(10),
    Step::Shot("end"),
    Step::Press(Button::Start),
    Step::Wait(10),
    Step::Press(Button::Left),
    Step::Wait(10),
    Step::Shot("replay"),
];

/// Runs the script on a built cartridge: each screenshot's name and screen. Fails if the
/// cartridge wrote VRAM or OAM when the PPU did not allow it.
pub fn screens(build: &rom::Build) -> Result<Vec<(&'static str, Screen)>> {
    let mut machine = Machine::new(&build.rom)?.with_symbols(&build.sym)?;
    let mut shots = Vec::new();
    run_script(&mut machine, 0, |name, machine| {
        shots.push((name, machine.screen()))
    })?;
    Ok(shots)
}

/// Runs the script on a Game Boy Color: each screenshot's name and RGB picture, the board
/// in COLOUR_SCHEMES[0] (the first, and the one a CGB starts with), then the board in each
/// other scheme (`board_<scheme>`). Fails if the cartridge broke the PPU's rules.
pub fn colour_screens(build: &rom::Build) -> Result<Vec<(String, Vec<u8>)>> {
    let mut shots = Vec::new();
    for (scheme, name) in COLOUR_SCHEMES.iter().enumerate() {
        let mut machine = Machine::new_on(&build.rom, Console::Cgb)?.with_symbols(&build.sym)?;
        run_script(&mut machine, scheme, |shot, machine| {
            if scheme == 0 {
                shots.push((shot.to_string(), machine.screen_rgb()));
            } else if shot == "board" {
                shots.push((format!("board_{name}"), machine.screen_rgb()));
            }
        })?;
    }
    Ok(shots)
}

/// Follows SCRIPT on `machine`, choosing the `scheme`-th item of the colour page, calling
/// `shot` at each screenshot.
fn run_script(
    machine: &mut Machine,
    scheme: usize,
    mut shot: impl FnMut(&'static str, &mut Machine),
) -> Result<()> {
    for step in SCRIPT {
        match step {
            Step::Wait(frames) => {
                machine.run_frames(*frames)?;
            }
            Step::Press(button) => machine.tap(*button, 2)?,
            Step::Shot(name) => shot(name, machine),
            Step::ColourPage if machine.console().is_colour() => {
                machine.run_frames(10)?;
                machine.tap(Button::Down, 2)?;
                machine.run_frames(4)?;
                shot("colours", machine);
                machine.tap(Button::Up, 2)?;
                machine.run_frames(4)?;
                for _ in 0..scheme {
                    machine.tap(Button::Down, 2)?;
                    machine.run_frames(4)?;
                }
                machine.tap(Button::A, 2)?;
            }
            Step::ColourPage => {}
        }
    }
    machine
        .assert_no_violations()
        .context("the cartridge broke the PPU's rules while the screenshots were taken")
}

/// The files of `shots` (PNG) and of the animation whose contents differ from what the
/// ROM shows (all of them written unless `check`).
fn write_or_check(
    root: &Path,
    shots: &[(&str, Screen)],
    colour_shots: &[(String, Vec<u8>)],
    animation: &[u8],
    check: bool,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for (name, shot) in shots {
        files.push((
            format!("{SCREENSHOTS_DIR}/{name}.png"),
            screen::encode_png(shot)?,
        ));
    }
    for (name, pixels) in colour_shots {
        files.push((
            format!("{COLOUR_SCREENSHOTS_DIR}/{name}.png"),
            screen::encode_rgb_png(pixels)?,
        ));
    }
    files.push((format!("{SCREENSHOTS_DIR}/{GAME_GIF}"), animation.to_vec()));
    let mut stale = Vec::new();
    for (path, bytes) in files {
        if std::fs::read(root.join(&path)).ok().as_deref() == Some(&bytes[..]) {
            continue;
        }
        if !check {
            project::write_atomic(&root.join(&path), &bytes)?;
        }
        stale.push(path);
    }
    Ok(stale)
}

// ----- the animation -----

/// The animation's file in `SCREENSHOTS_DIR`.
pub const GAME_GIF: &str = "game.gif";

/// White's moves in the animation (UCI), the human's, each played with the joypad on the
/// board and answered by the engine at EASY; the engine's replies are whatever it plays
/// (a change to the search may make a move here illegal: the error says where, and the
/// game so far).
const GAME_MOVES: &[&str] = &["b2b3", "c2c3", "b1a3", "c3b4", "d2d3"];

/// The animation takes a picture every other frame (33.5 ms, 3 to 4 hundredths of a
/// second, the GIF's unit of time).
const FRAMES_PER_PICTURE: u64 = 2;

/// Distinct screens, each with the frame it first showed at.
type Pictures = Vec<(u64, Screen)>;

/// The screens of the animation as they change.
struct Recording {
    machine: Machine,
    frame: u64,
    pictures: Pictures,
}

impl Recording {
    fn new(build: &rom::Build) -> Result<Recording> {
        let machine = Machine::new(&build.rom)?.with_symbols(&build.sym)?;
        Ok(Recording {
            machine,
            frame: 0,
            pictures: Vec::new(),
        })
    }

    /// Runs `frames` frames, keeping the screen when it changed.
    fn run(&mut self, frames: u32) -> Result<()> {
        for _ in 0..frames {
            self.machine.run_frames(1)?;
            self.frame += 1;
            if self.frame.is_multiple_of(FRAMES_PER_PICTURE) {
                let screen = self.machine.screen();
                if self.pictures.last().is_none_or(|(_, last)| *last != screen) {
                    self.pictures.push((self.frame, screen));
                }
            }
        }
        Ok(())
    }

    /// A player's press: two frames down, then a pause a viewer can follow.
    fn press(&mut self, button: Button) -> Result<()> {
        self.machine.press(button);
        let held = self.run(2);
        self.machine.release(button);
        held?;
        self.run(10)
    }

    fn cursor(&self) -> Result<(u8, u8)> {
        Ok((
            self.machine.read_u8("wCursorColumn")?,
            self.machine.read_u8("wCursorRow")?,
        ))
    }

    /// Presses the control pad towards `square` (White at the bottom) until the selector
    /// is there.
    fn steer(&mut self, square: Square) -> Result<()> {
        let to = (square.file().index() as u8, 5 - square.rank().index() as u8);
        for _ in 0..12 {
            let (column, row) = self.cursor()?;
            let button = match (
                i32::from(to.0) - i32::from(column),
                i32::from(to.1) - i32::from(row),
            ) {
                (0, 0) => return Ok(()),
                (a, d) if d.abs() >= a.abs() && d < 0 => Button::Up,
                (a, d) if d.abs() >= a.abs() => Button::Down,
                (a, _) if a < 0 => Button::Left,
                _ => Button::Right,
            };
            self.press(button)?;
        }
        bail!(
            "the selector did not reach {square}: it is at {:?}",
            self.cursor()?
        )
    }

    /// Plays `m` with the joypad: to its piece, A, to its square, A.
    fn play(&mut self, m: &Move) -> Result<()> {
        self.steer(m.from)?;
        self.press(Button::A)?;
        self.steer(m.to)?;
        self.press(Button::A)
    }

    /// A value the assembly exports (asm/include/game_state.inc's `STATE_*`, ...), by name.
    fn constant(&self, name: &str) -> Result<u32> {
        self.machine.symbols().exported(name)
    }

    /// Runs until a player is to move or the game is over (at most a minute); gives
    /// whether the game is over.
    fn wait_for_engine(&mut self) -> Result<bool> {
        let (human, over) = (self.constant("STATE_HUMAN")?, self.constant("STATE_OVER")?);
        for _ in 0..3_600 {
            let state = u32::from(self.machine.read_u8("wGameState")?);
            if state == human || state == over {
                return Ok(state == over);
            }
            self.run(1)?;
        }
        bail!("the engine did not move within a minute")
    }

    /// The last move of the move list, as the model's move in `position`.
    fn last_move(&self, position: &Position) -> Result<Move> {
        let count = u16::from(self.machine.read_u8("wMoveListCount")?);
        ensure!(count > 0, "the move list is empty");
        let size = u16::try_from(self.constant("MOVE_RECORD_SIZE")?)?;
        let at = self.machine.symbol("wMoveListRecords")? + size * (count - 1);
        let record = self.machine.read(at, 2)?;
        // A to byte's promotion bits masked off (asm/engine/engine.inc).
        let to_square = self.constant("MOVE_TO_SQUARE")? as u8;
        let (from, to) = (model_square(record[0]), model_square(record[1] & to_square));
        position
            .legal_moves()
            .iter()
            .find(|m| Some(m.from) == from && Some(m.to) == to)
            .copied()
            .with_context(|| {
                format!(
                    "the engine's move {record:02X?} is not legal in {}",
                    position.to_fen()
                )
            })
    }
}

/// Plays the animation's game from power-on: the title, START, WHITE and EASY on the
/// option pages, then GAME_MOVES against the engine; gives the distinct screens with the
/// frames they first showed at, and the game's moves (UCI). Fails if the cartridge broke
/// the PPU's rules.
fn record_game(build: &rom::Build) -> Result<(Pictures, Vec<String>)> {
    let mut recording = Recording::new(build)?;
    recording.run(80)?;
    recording.press(Button::Start)?;
    recording.run(30)?;
    recording.press(Button::A)?;
    recording.run(30)?;
    recording.press(Button::A)?;
    recording.run(30)?;
    let mut position = Position::start();
    let mut played = Vec::new();
    for uci in GAME_MOVES {
        let m = position
            .parse_uci(uci)
            .with_context(|| format!("the animation's move {uci} after {}", played.join(" ")))?;
        recording.play(&m)?;
        position = position.play(&m);
        played.push(m.to_uci());
        let over = recording.wait_for_engine()?;
        if usize::from(recording.machine.read_u8("wMoveListCount")?) > played.len() {
            let reply = recording.last_move(&position)?;
            position = position.play(&reply);
            played.push(reply.to_uci());
        }
        if over {
            break;
        }
    }
    recording.run(120)?;
    recording
        .machine
        .assert_no_violations()
        .context("the cartridge broke the PPU's rules while the game was recorded")?;
    Ok((recording.pictures, played))
}

/// The hundredths of a second since power-on at the start of `frame`, rounded: the GIF
/// counts time in hundredths, and each picture lasts until the next one's start, so the
/// animation keeps the DMG's time (59.7275 frames a second) without drifting.
fn hundredths(frame: u64) -> u64 {
    (frame * CYCLES_PER_FRAME * 100 + CYCLES_PER_SECOND / 2) / CYCLES_PER_SECOND
}

/// Encodes the pictures as a looping GIF in the DMG's four greys: the first whole, each
/// next one as the rectangle in which it differs from the one before, shown for as long
/// as the screen stayed that way (the last one until `end_frame`).
fn encode_gif(pictures: &[(u64, Screen)], end_frame: u64) -> Result<Vec<u8>> {
    let palette: Vec<u8> = (0..4).flat_map(|shade| [screen::grey(shade); 3]).collect();
    let mut bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(
            &mut bytes,
            screen::WIDTH as u16,
            screen::HEIGHT as u16,
            &palette,
        )
        .context("encoding the animation")?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .context("encoding the animation")?;
        let mut previous: Option<&Screen> = None;
        for (i, (frame, picture)) in pictures.iter().enumerate() {
            let next = pictures.get(i + 1).map_or(end_frame, |(next, _)| *next);
            // The rectangle that changed: all of it for the first picture.
            let (mut left, mut top, mut right, mut bottom) = (screen::WIDTH, screen::HEIGHT, 0, 0);
            for y in 0..screen::HEIGHT {
                for x in 0..screen::WIDTH {
                    let at = y * screen::WIDTH + x;
                    if previous.is_none_or(|before| before[at] != picture[at]) {
                        (left, top) = (left.min(x), top.min(y));
                        (right, bottom) = (right.max(x + 1), bottom.max(y + 1));
                    }
                }
            }
            let mut buffer = Vec::with_capacity((right - left) * (bottom - top));
            for y in top..bottom {
                buffer.extend_from_slice(
                    &picture[y * screen::WIDTH + left..y * screen::WIDTH + right],
                );
            }
            let frame = gif::Frame {
                delay: (hundredths(next) - hundredths(*frame)) as u16,
                dispose: gif::DisposalMethod::Keep,
                left: left as u16,
                top: top as u16,
                width: (right - left) as u16,
                height: (bottom - top) as u16,
                buffer: buffer.into(),
                ..gif::Frame::default()
            };
            encoder
                .write_frame(&frame)
                .context("encoding the animation")?;
            previous = Some(picture);
        }
    }
    Ok(bytes)
}

/// The animation of the game, as GIF bytes, and its moves.
pub fn animation(build: &rom::Build) -> Result<(Vec<u8>, Vec<String>)> {
    let (pictures, moves) = record_game(build)?;
    let end = pictures.last().map_or(0, |(frame, _)| frame + 120);
    Ok((encode_gif(&pictures, end)?, moves))
}

pub fn run(args: &ShotArgs) -> Result<()> {
    let build = rom::cartridge()?;
    let shots = screens(&build)?;
    let colour_shots = colour_screens(&build)?;
    let (animation, moves) = animation(&build)?;
    let stale = write_or_check(
        &project::root(),
        &shots,
        &colour_shots,
        &animation,
        args.check,
    )?;
    if args.check {
        if !stale.is_empty() {
            bail!(
                "{} not what the ROM shows now: run `cargo xtask shot`",
                stale.join(", ")
            );
        }
        println!(
            "{}, {} in colour and the animation up to date",
            plural(shots.len(), "screenshot"),
            colour_shots.len()
        );
    } else {
        for path in &stale {
            println!("wrote {path}");
        }
        if stale.is_empty() {
            println!("{SCREENSHOTS_DIR}/ is up to date");
        }
        println!("the animation's game: {}", moves.join(" "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_screenshots_and_the_animation_show_what_the_rom_shows() {
        let build = rom::cartridge().unwrap();
        let shots = screens(&build).unwrap_or_else(|error| panic!("{error:#}"));
        assert_eq!(
            shots.iter().map(|(name, _)| *name).collect::<Vec<_>>(),
            ["title", "play_as", "level", "board", "menu", "hint", "end", "replay"]
        );
        let colour_shots = colour_screens(&build).unwrap_or_else(|error| panic!("{error:#}"));
        assert_eq!(
            colour_shots
                .iter()
                .map(|(name, _)| name.as_str())
                .collect::<Vec<_>>(),
            [
                "title",
                "play_as",
                "level",
                "colours",
                "board",
                "menu",
                "hint",
                "end",
                "replay",
                "board_ocean",
                "board_forest",
                "board_greys"
            ]
        );
        let (animation, moves) = animation(&build).unwrap_or_else(|error| panic!("{error:#}"));
        assert_eq!(
            moves.len(),
            2 * GAME_MOVES.len(),
            "the engine answered every move"
        );
        let stale =
            write_or_check(&project::root(), &shots, &colour_shots, &animation, true).unwrap();
        assert!(
            stale.is_empty(),
            "{} not what the ROM shows now: run `cargo xtask shot`",
            stale.join(", ")
        );
    }

    #[test]
    fn the_animation_keeps_the_dmgs_time() {
        // 59.7275 frames a second: 3,584 frames are 60.0 seconds.
        assert_eq!(hundredths(0), 0);
        assert_eq!(hundredths(2), 3);
        assert_eq!(hundredths(4), 7);
        assert_eq!(hundredths(3_584), 6_001);
    }
}
