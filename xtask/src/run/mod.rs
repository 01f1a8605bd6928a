//! `cargo xtask run`: plays the cartridge in a desktop window, with the keyboard as the
//! joypad and the sound through the sound card, at the DMG's speed (59.7275 frames a
//! second).
//!
//! The Game Boy is the harness's [`Machine`], access checks on, so a cartridge that writes
//! VRAM or OAM when the PPU forbids it is reported when the player quits. The window is
//! minifb's (X11 on Linux and the BSDs, loaded at run time; Cocoa on macOS; Win32 on
//! Windows); it shows the four DMG greys of the project's screenshots
//! ([`screen::grey`]), each pixel a square of `--scale` pixels, and keeps the picture's
//! shape when resized.
//!
//! Pacing: while sound plays, the sound card's clock paces the emulator (see [`sound`]):
//! each frame's sound is handed over whole, and the write waits while the device's
//! three-frame buffer is full. Paced that way the sound can neither crackle (the buffer
//! never runs dry as long as the emulator keeps up) nor drift from the picture. Without a
//! sound device, paused or fast-forwarding, a frame clock paces it instead ([`FrameClock`]).

mod display;
pub mod keys;
mod sound;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use minifb::{KeyRepeat, ScaleMode, Window, WindowOptions};

use crate::cli::{Model, RomArgs, RunArgs};
use crate::harness::{screen, Button, Console, Machine, CYCLES_PER_FRAME, CYCLES_PER_SECOND};
use crate::harness::{HEIGHT, WIDTH};
use crate::{project, rom};
use keys::{Action, BINDINGS};
use sound::{Speaker, SAMPLE_RATE};

/// Where F12 saves screenshots, relative to the repository root.
pub const SCREENSHOTS_DIR: &str = "build/screenshots";

/// Emulated frames per shown frame while fast-forwarding.
const FAST_FORWARD: u32 = 4;

/// The largest `--scale`.
pub const MAX_SCALE: u32 = 16;

/// The scale when the screen's size is not known.
const FALLBACK_SCALE: u32 = 4;

pub fn run(args: &RunArgs) -> Result<()> {
    let screen_size = display::screen_size()?;
    let scale = match args.scale {
        Some(scale) => scale,
        None => default_scale(screen_size),
    };
    let path = match &args.rom {
        Some(path) => path.clone(),
        None => {
            rom::run(&RomArgs {
                rgbds: false,
                test_driver: false,
            })?;
            project::root().join(rom::ROM_PATH)
        }
    };
    let name = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cartridge".to_string());
    let console = match args.model {
        Model::Dmg => Console::Dmg,
        Model::Cgb => Console::Cgb,
        Model::Gba => Console::Gba,
    };
    let mut player = Player::new(&path, &name, scale, console)?;
    println!(
        "playing {} in a {}x{} window ({scale}x); keys:\n{}",
        path.display(),
        WIDTH as u32 * scale,
        HEIGHT as u32 * scale,
        keys::table()
    );
    let speaker = Speaker::open();
    if speaker.is_on() {
        println!("sound: ALSA's default device, which paces the emulator");
    }
    player.play(speaker)
}

/// The scale that makes the window about two thirds of the screen's height (and no wider
/// than two thirds of its width).
fn default_scale(screen_size: Option<(u32, u32)>) -> u32 {
    match screen_size {
        Some((width, height)) => (height * 2 / 3 / HEIGHT as u32)
            .min(width * 2 / 3 / WIDTH as u32)
            .clamp(1, MAX_SCALE),
        None => FALLBACK_SCALE,
    }
}

/// Paces the emulator when the sound card does not: one frame every 17,556 / 1,048,576
/// seconds, each deadline counted from the start (so sleeping late never adds up).
struct FrameClock {
    start: Instant,
    frames: u32,
}

/// The length of a DMG frame.
const FRAME: Duration = Duration::from_nanos(CYCLES_PER_FRAME * 1_000_000_000 / CYCLES_PER_SECOND);

impl FrameClock {
    fn new() -> FrameClock {
        FrameClock {
            start: Instant::now(),
            frames: 0,
        }
    }

    /// Sleeps until the next frame is due. After a stall of more than a few frames (the
    /// window dragged, the machine busy) it starts counting afresh instead of racing to
    /// catch up.
    fn wait(&mut self) {
        self.frames += 1;
        let due = self.start + FRAME * self.frames;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        } else if now - due > FRAME * 4 {
            *self = FrameClock::new();
        }
    }
}

/// Keeps the sound handed to the device exactly as long as the emulated time: stereo
/// frames at [`SAMPLE_RATE`] since power-on. boytacean makes a few samples a minute more
/// than that, and none at all while the cartridge has its APU off; [`AudioClock::fit`]
/// trims or pads each frame's share to the emulated time.
#[derive(Default)]
struct AudioClock {
    /// Stereo frames handed over (or skipped) since power-on.
    sent: u64,
}

impl AudioClock {
    /// Stereo frames `cycles` machine cycles of emulated time make.
    fn due(cycles: u64) -> u64 {
        (u128::from(cycles) * u128::from(SAMPLE_RATE) / u128::from(CYCLES_PER_SECOND)) as u64
    }

    /// `samples` (interleaved left/right) cut or padded, with their last frame, to the
    /// frames due by `cycles`; silence with `muted`.
    fn fit(&mut self, mut samples: Vec<i16>, cycles: u64, muted: bool) -> Vec<i16> {
        let due = Self::due(cycles).saturating_sub(self.sent);
        self.sent += due;
        let length = due as usize * 2;
        if muted {
            return vec![0; length];
        }
        let last = match samples.len() {
            0 | 1 => [0, 0],
            n => [samples[n - 2], samples[n - 1]],
        };
        samples.truncate(length & !1);
        while samples.len() < length {
            samples.extend_from_slice(&last);
        }
        samples
    }

    /// Forgets the sound of emulated time that was not played (paused or fast-forwarding).
    fn skip(&mut self, cycles: u64) {
        self.sent = Self::due(cycles);
    }
}

/// The game being played: the machine, the window and what the keys have toggled.
struct Player {
    /// The cartridge (and its `.sym` file beside it), read again on reset.
    path: PathBuf,
    /// The console it emulates (a reset keeps it).
    console: Console,
    machine: Machine,
    audio: AudioClock,
    window: Window,
    name: String,
    pixels: Vec<u32>,
    /// The buttons held down on the emulated joypad.
    held: Vec<Button>,
    paused: bool,
    muted: bool,
    fast: bool,
}

impl Player {
    fn new(path: &Path, name: &str, scale: u32, console: Console) -> Result<Player> {
        let machine = Machine::open_on(path, console)?;
        let scale = scale as usize;
        let mut window = Window::new(
            name,
            WIDTH * scale,
            HEIGHT * scale,
            WindowOptions {
                resize: true,
                scale_mode: ScaleMode::AspectRatioStretch,
                ..WindowOptions::default()
            },
        )
        .map_err(|error| anyhow!("cannot open a window: {error}"))?;
        // The player paces itself; minifb's own limit would only add a second sleep.
        window.set_target_fps(0);
        let mut player = Player {
            path: path.to_path_buf(),
            console,
            machine,
            audio: AudioClock::default(),
            window,
            name: name.to_string(),
            pixels: vec![0; WIDTH * HEIGHT],
            held: Vec::new(),
            paused: false,
            muted: false,
            fast: false,
        };
        player.show_title();
        Ok(player)
    }

    /// Runs until Escape or the window is closed.
    fn play(&mut self, mut speaker: Speaker) -> Result<()> {
        let mut clock = FrameClock::new();
        let mut paced_by_sound = false;
        while self.window.is_open() {
            if self.handle_keys()? {
                break;
            }
            if !self.paused {
                let frames = if self.fast { FAST_FORWARD } else { 1 };
                self.machine.run_frames(frames)?;
            }
            self.show_screen()?;
            let by_sound = speaker.is_on() && !self.paused && !self.fast;
            if by_sound {
                let mut samples = self.machine.take_audio();
                sound::amplify(&mut samples);
                let cycles = self.machine.cycles();
                speaker.play(&self.audio.fit(samples, cycles, self.muted));
            } else {
                self.machine.take_audio();
                self.audio.skip(self.machine.cycles());
                if paced_by_sound {
                    clock = FrameClock::new();
                }
                clock.wait();
            }
            paced_by_sound = by_sound;
        }
        self.report_violations();
        Ok(())
    }

    /// Follows the keyboard: the joypad buttons held, the toggles pressed. True to quit.
    fn handle_keys(&mut self) -> Result<bool> {
        for key in self.window.get_keys_pressed(KeyRepeat::No) {
            match keys::action_of(key) {
                Some(Action::Quit) => return Ok(true),
                Some(Action::Pause) => self.paused = !self.paused,
                Some(Action::Mute) => self.muted = !self.muted,
                Some(Action::Screenshot) => self.screenshot()?,
                Some(Action::Reset) => self.reset()?,
                Some(Action::Pad(_) | Action::FastForward) | None => continue,
            }
            self.show_title();
        }
        let down = |action: Action| {
            BINDINGS
                .iter()
                .filter(|binding| binding.action == action)
                .flat_map(|binding| binding.keys)
                .any(|&key| self.window.is_key_down(key))
        };
        let fast = down(Action::FastForward);
        let mut held = Vec::new();
        for binding in BINDINGS {
            if let Action::Pad(button) = binding.action {
                if down(binding.action) {
                    held.push(button);
                }
            }
        }
        for &button in &self.held {
            if !held.contains(&button) {
                self.machine.release(button);
            }
        }
        for &button in &held {
            if !self.held.contains(&button) {
                self.machine.press(button);
            }
        }
        self.held = held;
        if fast != self.fast {
            self.fast = fast;
            self.show_title();
        }
        Ok(false)
    }

    /// The window's title: the cartridge and what is toggled.
    fn show_title(&mut self) {
        let mut title = format!("{} - Chess Attack player", self.name);
        for (on, word) in [
            (self.paused, "paused"),
            (self.muted, "muted"),
            (self.fast, "fast forward"),
        ] {
            if on {
                title.push_str(&format!(" [{word}]"));
            }
        }
        self.window.set_title(&title);
    }

    fn show_screen(&mut self) -> Result<()> {
        let rgb = self.machine.screen_rgb();
        for (pixel, rgb) in self.pixels.iter_mut().zip(rgb.chunks(3)) {
            *pixel = u32::from(rgb[0]) << 16 | u32::from(rgb[1]) << 8 | u32::from(rgb[2]);
        }
        self.window
            .update_with_buffer(&self.pixels, WIDTH, HEIGHT)
            .map_err(|error| anyhow!("drawing the window: {error}"))
    }

    /// Saves the screen as `build/screenshots/NAME-NNN.png`, the first number not taken.
    fn screenshot(&mut self) -> Result<()> {
        let dir = project::root().join(SCREENSHOTS_DIR);
        let path = (1..)
            .map(|n| dir.join(format!("{}-{n:03}.png", self.name)))
            .find(|path| !path.exists())
            .expect("some number is free");
        if self.console.is_colour() {
            let rgb = self.machine.screen_rgb();
            project::write_atomic(&path, &screen::encode_rgb_png(&rgb)?)?;
        } else {
            self.machine.save_png(&path)?;
        }
        println!("screenshot: {}", path.display());
        Ok(())
    }

    fn reset(&mut self) -> Result<()> {
        self.report_violations();
        for &button in &self.held {
            self.machine.release(button);
        }
        self.held.clear();
        self.machine = Machine::open_on(&self.path, self.console)?;
        self.audio = AudioClock::default();
        println!("reset");
        Ok(())
    }

    /// Says, on stderr, where the cartridge wrote VRAM or OAM when the PPU forbade it.
    fn report_violations(&self) {
        if let Err(report) = self.machine.assert_no_violations() {
            eprintln!("warning: {report}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_window_is_about_two_thirds_of_the_screen_height() {
        assert_eq!(default_scale(Some((1920, 1080))), 5);
        assert_eq!(default_scale(Some((2560, 1440))), 6);
        assert_eq!(default_scale(Some((3840, 2160))), 10);
        assert_eq!(default_scale(Some((1366, 768))), 3);
        // A tall narrow screen: the width decides.
        assert_eq!(default_scale(Some((480, 1920))), 2);
        assert_eq!(default_scale(Some((100, 100))), 1);
        assert_eq!(default_scale(Some((20_000, 20_000))), MAX_SCALE);
        assert_eq!(default_scale(None), 4);
    }

    #[test]
    fn a_frame_lasts_as_long_as_on_a_dmg() {
        assert_eq!(FRAME, Duration::from_nanos(16_742_706));
        assert!((1.0 / FRAME.as_secs_f64() - 59.7275).abs() < 0.0001);
    }

    #[test]
    fn the_frame_clock_keeps_the_dmg_s_pace() {
        let mut clock = FrameClock::new();
        let start = clock.start;
        for _ in 0..30 {
            clock.wait();
        }
        let elapsed = start.elapsed();
        // Never early (a sleep ends late, never early); late by about one sleep's
        // overshoot, as each deadline counts from the start (generous: CI is busy).
        assert!(elapsed >= FRAME * 30, "{elapsed:?}");
        assert!(
            elapsed < FRAME * 30 + Duration::from_millis(250),
            "{elapsed:?}"
        );
    }

    #[test]
    fn the_sound_handed_over_is_as_long_as_the_emulated_time() {
        let mut audio = AudioClock::default();
        // 44,151 stereo frames a second: 739 or 740 a frame (739.2 on average).
        // A second of emulated time, frame by frame, boytacean making one too many each.
        let mut handed = 0;
        let mut cycles = 0;
        while cycles < CYCLES_PER_SECOND {
            cycles += CYCLES_PER_FRAME;
            let due = AudioClock::due(cycles) - audio.sent;
            let samples = vec![7; due as usize * 2 + 2];
            let fitted = audio.fit(samples, cycles, false);
            assert_eq!(fitted.len(), due as usize * 2);
            handed += fitted.len() / 2;
        }
        assert_eq!(cycles, 60 * CYCLES_PER_FRAME);
        assert_eq!(
            handed as u64,
            60 * CYCLES_PER_FRAME * 44_151 / CYCLES_PER_SECOND
        );
        assert_eq!(handed, 44_352);
        // With the APU off boytacean makes no samples: the frame is padded to its length.
        let next = cycles + CYCLES_PER_FRAME;
        assert_eq!(audio.fit(Vec::new(), next, false), vec![0; 739 * 2]);
        // The last left/right pair is held rather than dropping to silence.
        let next = next + CYCLES_PER_FRAME;
        let fitted = audio.fit(vec![1, 2, 3, 4], next, false);
        assert_eq!(fitted.len(), 739 * 2);
        assert_eq!(&fitted[..6], &[1, 2, 3, 4, 3, 4]);
        // Muted: silence of the frame's length.
        let next = next + CYCLES_PER_FRAME;
        assert_eq!(audio.fit(vec![9; 1480], next, true), vec![0; 740 * 2]);
        // Paused: the time passes without sound, and the next frame is a frame's worth.
        audio.skip(next + 100 * CYCLES_PER_FRAME);
        let next = next + 101 * CYCLES_PER_FRAME;
        assert_eq!(audio.fit(vec![5; 1478], next, false).len(), 739 * 2);
    }
}
