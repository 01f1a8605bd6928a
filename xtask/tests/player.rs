//! `cargo xtask run` as a player meets it: a real window on a real X server (Xvfb), keys
//! sent to it with xdotool, the window's pixels read back with xwd.
//!
//! The expected pictures are `generated/screenshots/title.png` and `board.png`: the
//! harness's frames of the cartridge, which `cargo xtask shot --check` and a unit test keep
//! equal to what the ROM shows.
//!
//! On Linux the window test needs Xvfb, xdotool and xwd (Debian: `apt-get install -y xvfb
//! xdotool x11-apps`, which `.ci/run` does). In CI (`CI` set) it fails, saying so, without
//! them; elsewhere it says on stderr that it did not run and what to install, so that
//! `cargo test --workspace` still passes on a fresh machine with only a Rust toolchain.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

const XTASK: &str = env!("CARGO_BIN_EXE_xtask");
const WIDTH: usize = 160;
const HEIGHT: usize = 144;
/// The `--scale` of the tests' window.
const SCALE: usize = 2;
/// How the tests find the player's window: every title it shows contains this.
const WINDOW_NAME: &str = "Chess Attack player";
const INSTALL: &str = "apt-get install -y xvfb xdotool x11-apps";
/// How long the tests wait for what the window or the player's output should show
/// before they fail: long enough that only a hang fails, never a busy machine (the
/// tests wait on what the window shows, never on time).
const PATIENCE: Duration = Duration::from_secs(120);
/// The most pixels the title's blinking PRESS START changes (a row of 20 tiles, each
/// pixel `SCALE` x `SCALE`): more than this differing from title.png is another screen.
const BLINK_PIXELS: usize = 20 * 8 * 8 * SCALE * SCALE;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A picture as 0xRRGGBB pixels, row by row.
#[derive(PartialEq, Eq)]
struct Picture {
    width: usize,
    height: usize,
    pixels: Vec<u32>,
}

impl Picture {
    /// One of the project's screenshots (8-bit greyscale PNG), each pixel `scale` x `scale`.
    fn screenshot(name: &str, scale: usize) -> Picture {
        let path = root().join("generated/screenshots").join(name);
        let decoder = png::Decoder::new(BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut grey = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut grey).unwrap();
        assert_eq!(
            grey.len(),
            WIDTH * HEIGHT,
            "{} is 160x144 greyscale",
            path.display()
        );
        let mut pixels = Vec::with_capacity(grey.len() * scale * scale);
        for y in 0..HEIGHT * scale {
            for x in 0..WIDTH * scale {
                let value = u32::from(grey[y / scale * WIDTH + x / scale]);
                pixels.push(value << 16 | value << 8 | value);
            }
        }
        Picture {
            width: WIDTH * scale,
            height: HEIGHT * scale,
            pixels,
        }
    }

    /// Reads an XWD file as `xwd` writes it for a 24-bit TrueColor window: a header of 25
    /// big-endian words (its size first), the window's name, the colour map (12 bytes an
    /// entry), then the pixels as 32-bit words in the byte order the header gives.
    fn from_xwd(bytes: &[u8]) -> Picture {
        let word = |index: usize| {
            u32::from_be_bytes(bytes[index * 4..index * 4 + 4].try_into().unwrap()) as usize
        };
        let (header_size, width, height) = (word(0), word(4), word(5));
        let (byte_order, bits_per_pixel, bytes_per_line) = (word(7), word(11), word(12));
        let masks = (word(14), word(15), word(16));
        assert_eq!(
            (bits_per_pixel, masks),
            (32, (0xFF_0000, 0xFF00, 0xFF)),
            "the X server's screen is 24-bit TrueColor"
        );
        let start = header_size + word(19) * 12;
        let mut pixels = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let at = start + y * bytes_per_line + x * 4;
                let raw: [u8; 4] = bytes[at..at + 4].try_into().unwrap();
                let pixel = match byte_order {
                    0 => u32::from_le_bytes(raw),
                    _ => u32::from_be_bytes(raw),
                };
                pixels.push(pixel & 0xFF_FFFF);
            }
        }
        Picture {
            width,
            height,
            pixels,
        }
    }

    /// How many pixels differ from `other` (all of them if the sizes differ).
    fn differences(&self, other: &Picture) -> usize {
        if (self.width, self.height) != (other.width, other.height) {
            return self.pixels.len().max(other.pixels.len());
        }
        let pairs = self.pixels.iter().zip(&other.pixels);
        pairs.filter(|(a, b)| a != b).count()
    }
}

/// Whether Xvfb, xdotool and xwd are on PATH. Without them the window test fails in CI and
/// is reported as not run elsewhere.
fn x_tools_present(test: &str) -> bool {
    let missing: Vec<&str> = ["Xvfb", "xdotool", "xwd"]
        .into_iter()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(Stdio::null())
                .status()
                .map_or(true, |status| !status.success())
        })
        .collect();
    common::may_run(test, &missing, INSTALL)
}

/// Runs a program to the end, or fails saying which package brings it.
fn output(program: &str, args: &[&str], display: &str) -> Output {
    Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {program} ({error}): {INSTALL}"))
}

/// An Xvfb server of the test's own, stopped when dropped.
struct Xvfb {
    server: Child,
    display: String,
}

/// Display numbers tried so far by this process (each test takes the next free one).
static TRIED: AtomicU32 = AtomicU32::new(0);

impl Xvfb {
    /// Starts Xvfb on a display number no one uses. The numbers start from one derived
    /// from the process id, and one already listened on (its socket, possibly abstract,
    /// in /proc/net/unix, or its lock file) is skipped: tests running side by side, and
    /// other X servers on the machine, never share a display.
    fn start() -> Xvfb {
        let first = 100 + std::process::id() % 500 * 16;
        for _ in 0..50 {
            let number = first + TRIED.fetch_add(1, Ordering::Relaxed);
            let sockets = std::fs::read_to_string("/proc/net/unix").unwrap_or_default();
            let socket = format!("/tmp/.X11-unix/X{number}");
            if sockets.lines().any(|line| line.ends_with(&socket))
                || Path::new(&socket).exists()
                || Path::new(&format!("/tmp/.X{number}-lock")).exists()
            {
                continue;
            }
            let display = format!(":{number}");
            // -noreset: an X server with no window manager otherwise resets whenever its
            // last client leaves, and refuses connections meanwhile.
            let server = Command::new("Xvfb")
                .args([
                    &display,
                    "-noreset",
                    "-screen",
                    "0",
                    "1024x768x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|error| panic!("cannot start Xvfb ({error}): {INSTALL}"));
            let mut xvfb = Xvfb { server, display };
            if xvfb.wait_until_ready() {
                return xvfb;
            }
        }
        panic!("no free X display found for Xvfb from :{first} on");
    }

    /// Whether the server answers (within 10 s) and is still the one running there.
    fn wait_until_ready(&mut self) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.server.try_wait() {
                return false;
            }
            let answer = output("xdotool", &["getdisplaygeometry"], &self.display);
            if answer.status.success() {
                return matches!(self.server.try_wait(), Ok(None));
            }
            thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// `cargo xtask run` in a window, its standard output read line by line.
struct Player {
    process: Child,
    lines: Receiver<String>,
    display: String,
    window: String,
}

impl Player {
    /// Starts the player with `home` as HOME (where ALSA reads `.asoundrc`).
    fn start(xvfb: &Xvfb, home: &Path) -> Player {
        let mut process = Command::new(XTASK)
            .args(["run", "--scale", &SCALE.to_string()])
            .env("DISPLAY", &xvfb.display)
            .env("HOME", home)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = process.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = Player {
            process,
            lines,
            display: xvfb.display.clone(),
            window: String::new(),
        };
        // Building the cartridge comes first: give it time on a busy machine.
        player.window = player.wait_for("the player's window", 120, |player| {
            let found = output(
                "xdotool",
                &["search", "--name", WINDOW_NAME],
                &player.display,
            );
            let text = String::from_utf8_lossy(&found.stdout);
            text.lines().next().map(str::to_string)
        });
        player
    }

    /// Polls `check` every 50 ms until it gives something, failing after `seconds` with
    /// what the player printed.
    fn wait_for<T>(
        &mut self,
        what: &str,
        seconds: u64,
        mut check: impl FnMut(&mut Player) -> Option<T>,
    ) -> T {
        let start = Instant::now();
        loop {
            if let Some(found) = check(self) {
                return found;
            }
            if let Ok(Some(status)) = self.process.try_wait() {
                panic!(
                    "the player ended ({status}) before {what}: {}",
                    self.take_stderr()
                );
            }
            assert!(
                start.elapsed() < Duration::from_secs(seconds),
                "no {what} within {seconds} s"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the window shows now.
    fn window_picture(&self) -> Picture {
        let shot = output("xwd", &["-id", &self.window, "-silent"], &self.display);
        assert!(
            shot.status.success(),
            "xwd failed: {}",
            String::from_utf8_lossy(&shot.stderr)
        );
        Picture::from_xwd(&shot.stdout)
    }

    /// Waits until the window shows `expected`, failing with the closest it came.
    fn wait_for_picture(&mut self, name: &str, expected: &Picture) {
        self.wait_for_window(name, |picture| picture == expected, expected);
    }

    /// Waits until the window's picture passes `shows`, failing after [`PATIENCE`] with
    /// the fewest pixels it differed from `near` by.
    fn wait_for_window(&mut self, what: &str, shows: impl Fn(&Picture) -> bool, near: &Picture) {
        let mut closest = usize::MAX;
        let start = Instant::now();
        while start.elapsed() < PATIENCE {
            let picture = self.window_picture();
            if shows(&picture) {
                return;
            }
            closest = closest.min(picture.differences(near));
            thread::sleep(Duration::from_millis(40));
        }
        panic!(
            "the window never showed {what} in {} s: {closest} pixels differed at best",
            PATIENCE.as_secs()
        );
    }

    /// The window's picture once two looks in a row see the same, failing after
    /// [`PATIENCE`] of a picture that keeps changing.
    fn settled_picture(&self) -> Picture {
        let start = Instant::now();
        let mut last = self.window_picture();
        while start.elapsed() < PATIENCE {
            thread::sleep(Duration::from_millis(40));
            let now = self.window_picture();
            if now == last {
                return now;
            }
            last = now;
        }
        panic!("the window kept changing for {} s", PATIENCE.as_secs());
    }

    /// Holds a joypad `key` down until the window passes `shows` (so that the emulator
    /// sees the press however slowly it runs), then lets it go.
    fn press_until(&mut self, key: &str, what: &str, shows: impl Fn(&Picture) -> bool) {
        let before = self.window_picture();
        self.hold(key);
        self.wait_for_window(what, shows, &before);
        self.release(key);
    }

    /// Puts `key` down, the window focused.
    fn hold(&self, key: &str) {
        output(
            "xdotool",
            &["windowfocus", "--sync", &self.window],
            &self.display,
        );
        self.xdotool(&["keydown", key]);
    }

    fn release(&self, key: &str) {
        self.xdotool(&["keyup", key]);
    }

    fn xdotool(&self, args: &[&str]) {
        let sent = output("xdotool", args, &self.display);
        assert!(sent.status.success(), "xdotool {args:?} failed");
    }

    /// Holds `key` down until `check` gives something (the player reads the keys held
    /// once a frame: a key let go before it looks is never seen), then lets it go.
    fn hold_until<T>(
        &mut self,
        key: &str,
        what: &str,
        check: impl FnMut(&mut Player) -> Option<T>,
    ) -> T {
        self.hold(key);
        let found = self.wait_for(what, PATIENCE.as_secs(), check);
        self.release(key);
        found
    }

    /// Holds `key` down until the window's title passes `shows`.
    fn hold_until_title(&mut self, key: &str, what: &str, shows: impl Fn(&str) -> bool) {
        self.hold_until(key, what, |player| shows(&player.title()).then_some(()));
    }

    /// The window's title now.
    fn title(&self) -> String {
        let name = output("xdotool", &["getwindowname", &self.window], &self.display);
        String::from_utf8_lossy(&name.stdout).trim_end().to_string()
    }

    /// The next line printed that starts with `prefix`, within [`PATIENCE`].
    fn line_starting(&self, prefix: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => continue,
                Err(_) => panic!("the player printed no line starting with {prefix:?}"),
            }
        }
    }
}

impl Player {
    /// Everything the player wrote on stderr, once it has ended.
    fn take_stderr(&mut self) -> String {
        let mut stderr = String::new();
        self.process
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        stderr
    }

    /// Presses Escape and checks that the player ends at once, successfully, with nothing
    /// on stderr (where it would report PPU access violations).
    fn quit(mut self) {
        let status = self.hold_until("Escape", "the player to quit on Escape", |player| {
            player.process.try_wait().unwrap()
        });
        let stderr = self.take_stderr();
        assert!(status.success(), "the player failed: {stderr}");
        assert_eq!(stderr, "", "the player warned (a PPU access violation?)");
    }
}

/// An empty HOME for the player, unique to `test`.
fn home(test: &str) -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

impl Drop for Player {
    fn drop(&mut self) {
        if let Ok(None) = self.process.try_wait() {
            let _ = self.process.kill();
            let _ = self.process.wait();
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_window_shows_the_title_then_the_board_after_start_and_the_keys_work() {
    if !x_tools_present("the player's window test") {
        return;
    }
    let xvfb = Xvfb::start();
    // A sound device that cannot open: silent, and paced by the frame clock, everywhere.
    let home = home("window");
    std::fs::write(
        home.join(".asoundrc"),
        "pcm.!default {\n  type hw\n  card 99\n}\n",
    )
    .unwrap();
    let mut player = Player::start(&xvfb, &home);
    assert!(
        player
            .line_starting("sound: ")
            .ends_with(": playing silently"),
        "the test's .asoundrc leaves no sound device"
    );
    let title = Picture::screenshot("title.png", SCALE);
    let board = Picture::screenshot("board.png", SCALE);
    let play_as = Picture::screenshot("play_as.png", SCALE);
    let level = Picture::screenshot("level.png", SCALE);
    // PRESS START blinks: half the time the window shows exactly title.png.
    player.wait_for_picture("the title screen (generated/screenshots/title.png)", &title);
    // START on the title, then as `cargo xtask shot` goes: the arrow down to BLACK
    // (play_as.png) and back up to WHITE, A (the X key); on the level page down to MEDIUM
    // (level.png) and back up to EASY, A. Each key is held until the window shows what it
    // does: an option page moves only when a key is pressed.
    player.press_until("Return", "another screen than the title", |picture| {
        picture.differences(&title) > BLINK_PIXELS
    });
    for (page, name) in [(&play_as, "play_as.png"), (&level, "level.png")] {
        player.press_until("Down", name, |picture| picture == page);
        player.press_until(
            "Up",
            &format!("the arrow moved up from {name}"),
            |picture| picture != page,
        );
        let settled = player.settled_picture();
        player.press_until("x", &format!("the page after {name}"), |picture| {
            *picture != settled
        });
    }
    player.wait_for_picture("the board (generated/screenshots/board.png)", &board);

    let line = player.hold_until("F12", "a screenshot", |player| {
        player
            .lines
            .try_recv()
            .ok()
            .filter(|line| line.starts_with("screenshot: "))
    });
    let saved = PathBuf::from(line.trim_start_matches("screenshot: "));
    let png = std::fs::read(&saved).unwrap();
    std::fs::remove_file(&saved).unwrap();
    assert!(
        saved.starts_with(root().join("build/screenshots")),
        "{line}"
    );
    assert_eq!(
        png,
        std::fs::read(root().join("generated/screenshots/board.png")).unwrap(),
        "{} is not the board as the harness shows it",
        saved.display()
    );

    player.press_until("F5", "the board gone after F5", |picture| picture != &board);
    player.wait_for_picture("the title screen again after F5", &title);
    for (key, word) in [("p", "[paused]"), ("m", "[muted]")] {
        player.hold_until_title(key, &format!("{word} in the title"), |title| {
            title.contains(word)
        });
        player.hold_until_title(key, &format!("{word} gone again"), |title| {
            !title.contains(word)
        });
    }
    player.hold("Tab");
    let fast = player.wait_for(
        "[fast forward] while Tab is held",
        PATIENCE.as_secs(),
        |player| Some(player.title()).filter(|title| title.contains("[fast forward]")),
    );
    player.release("Tab");
    assert!(fast.ends_with(" [fast forward]"), "Tab held: {fast}");
    player.wait_for(
        "the fast-forward mark to go with Tab",
        PATIENCE.as_secs(),
        |player| (!player.title().contains("[fast forward]")).then_some(()),
    );
    player.quit();
}

/// Stereo frames a second of the emulator's sound (a frame every 95 T-states).
const SOUND_FRAMES_PER_SECOND: usize = 44_151;

/// The sound goes through the real ALSA library: an `.asoundrc` makes its default device
/// a file (ALSA's `file` plugin in front of its `null` device), which the test then reads.
/// (The null device takes sound as fast as it comes, so this does not show the pacing.)
#[cfg(target_os = "linux")]
#[test]
fn the_cartridge_s_sound_reaches_alsa_as_16_bit_stereo() {
    if !x_tools_present("the player's sound test") {
        return;
    }
    let home = home("sound");
    let recording = home.join("sound.raw");
    std::fs::write(
        home.join(".asoundrc"),
        format!(
            "pcm.!default {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  \
             format \"raw\"\n}}\n",
            recording.display()
        ),
    )
    .unwrap();
    let xvfb = Xvfb::start();
    let mut player = Player::start(&xvfb, &home);
    assert_eq!(
        player.line_starting("sound: "),
        "sound: ALSA's default device, which paces the emulator"
    );
    // More than a second of sound recorded, however long the emulator takes to make it.
    let enough = 4 * SOUND_FRAMES_PER_SECOND as u64 + 4096;
    player.wait_for(
        "a second of sound in the recording",
        PATIENCE.as_secs(),
        |_| {
            let size = std::fs::metadata(&recording).map_or(0, |file| file.len());
            (size >= enough).then_some(())
        },
    );
    player.quit();
    let bytes = std::fs::read(&recording).unwrap();
    let samples: Vec<i16> = bytes
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    // More than a second of 44,151 stereo frames, whole frames only.
    assert_eq!(bytes.len() % 4, 0);
    assert!(
        samples.len() > 2 * SOUND_FRAMES_PER_SECOND,
        "{} samples",
        samples.len()
    );
    // The title song plays: four channels at most at full volume, 512 x 60 = 30,720.
    let loudest = samples
        .iter()
        .map(|sample| sample.unsigned_abs())
        .max()
        .unwrap();
    assert!(
        (8_000..=30_720).contains(&loudest),
        "loudest sample {loudest}"
    );
    let quiet = samples
        .iter()
        .filter(|&&sample| sample.unsigned_abs() < 256)
        .count();
    assert!(
        quiet < samples.len() / 2,
        "{quiet} of {} samples near silence",
        samples.len()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn without_a_display_the_player_says_so_and_fails() {
    let unset = Command::new(XTASK)
        .arg("run")
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    assert_eq!(unset.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&unset.stderr),
        "error: no display: DISPLAY is not set; `cargo xtask run` needs a desktop session \
         (X11, or Wayland with XWayland)\n"
    );
    // A display number no server has: 0-65535 are possible, Xvfb -displayfd starts at 0.
    let absent = Command::new(XTASK)
        .arg("run")
        .env("DISPLAY", ":64999")
        .output()
        .unwrap();
    assert_eq!(absent.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&absent.stderr),
        "error: no display: cannot open the X display `:64999` (DISPLAY); `cargo xtask run` \
         needs a desktop session (X11, or Wayland with XWayland)\n"
    );
}

#[test]
fn help_shows_the_keys() {
    let help = Command::new(XTASK)
        .args(["run", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    let keys = text
        .split_once("Keys:\n")
        .map(|(_, keys)| keys)
        .unwrap_or_default();
    assert_eq!(
        keys,
        "  Up arrow            D-pad up
  Down arrow          D-pad down
  Left arrow          D-pad left
  Right arrow         D-pad right
  X                   A
  Z                   B
  Enter               START
  Backspace or Shift  SELECT
  Tab                 fast forward (4x, silent) while held
  P                   pause / go on
  M                   sound off / on
  F12                 save a screenshot (PNG) in build/screenshots/
  F5                  reset (power off and on)
  Escape              quit (closing the window does too)
"
    );
}
