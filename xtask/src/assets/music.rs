//! MIDI songs to the audio driver's song data: every `assets/music/NAME.mid` becomes
//! `generated/music/NAME.asm` (RGBDS source: `db` lines with comments), and the song table,
//! constants and instrument tables beside it, which `asm/audio/` includes.
//!
//! # The mapping (what a composer needs to know)
//!
//! - **Channels.** MIDI channel 1 plays on pulse 1, channel 2 on pulse 2, channel 3 on the
//!   wave channel, channel 10 (the General MIDI drum channel) on the noise channel. Tracks
//!   do not matter: any track may hold any of these channels. Notes on any other channel
//!   are an error. Each channel plays one note at a time: two notes sounding at once on
//!   one channel are an error (play chords as broken chords, or spread them over
//!   channels). Pulse 1 is the one the move and check sounds borrow during a game, so it
//!   suits an accompaniment better than the melody.
//! - **Notes.** Middle C (MIDI note 60) is C4. Pulse channels play C2 to B7, the wave
//!   channel C1 to B6; anything outside is an error naming the note. A note sounds from
//!   its note-on to its note-off (a note-on without one is an error); the silence between
//!   notes is a rest.
//! - **Velocity → volume.** On pulse and noise the velocity sets the starting volume of
//!   the note's envelope, 1-15 (velocity × 15 / 127, rounded up). The wave channel has four
//!   output levels only: velocity 1-42 plays at 25%, 43-85 at 50%, 86-127 at 100%.
//! - **Program change → timbre.** Pulse: program 1, 2, 3, 4 (as sequencers number them;
//!   0-3 in the file) is a duty cycle of 12.5%, 25%, 50%, 75%. Wave: program 1-4 is the
//!   wave shape: triangle, sawtooth, square, sine. Other programs are an error; a
//!   program change on channel 10 is ignored. Before any program change: program 3 (50%)
//!   on pulse, program 1 (triangle) on wave.
//! - **Controller 72 (release time) → fade.** On pulse channels CC 72 ÷ 16 is the
//!   envelope's fade speed: 0 holds the volume for the whole note, 1 fades fastest
//!   (one volume step every 1/64 s), 7 slowest (every 7/64 s). Other controllers, pitch
//!   bend and aftertouch are ignored.
//! - **Drums.** On channel 10 each General MIDI drum note picks a noise sound from
//!   [`DRUM_KIT`] (kick, snare, hi-hats, toms, crash, ride, clap, side stick); other drum
//!   notes are an error that lists the kit. Each sound has its own fade; a drum's length is
//!   ignored: it rings until the next hit (or the song's end).
//! - **Loop.** A marker (or text or cue point event) reading `loop` on any track marks where
//!   the song starts again; the loop ends at the bar line after the last note-off (time
//!   signatures are followed). Without it the song plays once and falls silent.
//! - **Time.** Tempo changes are followed. Every note-on and note-off becomes a frame
//!   number, round(seconds × 59.7275), computed from its absolute tick through the tempo
//!   map in exact integer arithmetic (the DMG's frame rate is 4,194,304 / 70,224 Hz), so
//!   rounding never accumulates: every note starts within half a frame (8.4 ms) of its
//!   true time however long the song plays, and all four channels loop after the same
//!   number of frames. Notes closer than one frame on a channel are an error.
//!
//! Errors name the file, the track (numbered from 1 with its name), the MIDI channel and
//! the Game Boy channel, and the bar and beat.
//!
//! # The song format (read by `asm/audio/music.asm`)
//!
//! A song is four little-endian pointers, one per channel (pulse 1, pulse 2, wave, noise;
//! 0 = unused), each to a stream of commands:
//!
//! | bytes | command |
//! | --- | --- |
//! | `$00-$7F` n | note: period table index (pulse: 0 = C2; wave: 0 = C1) or drum kit index, sounding for n frames (1-255) |
//! | `$80` n | rest: silence for n frames |
//! | `$81` n | wait: n more frames of whatever sounds (a longer note or rest) |
//! | `$82` v | envelope for the next notes: NRx2 (pulse, noise) or NR32 (wave) |
//! | `$83` v | timbre for the next notes: NRx1 duty (pulse) or wave shape index (wave) |
//! | `$84` lo hi | jump (the loop) |
//! | `$85` | end: the channel falls silent |
//! | `$86` lo hi | call: play the commands there up to a return, then go on after the call |
//! | `$87` | return (from a call; calls do not nest) |
//!
//! A passage that repeats on a channel (the same commands, two or more times) is kept
//! once, after the channel's stream, and called where it plays, when that is smaller
//! (the passage saving the most bytes first, until none saves any): the title song takes
//! 1,282 bytes instead of 1,542. The driver keeps one return address a channel.

mod encode;
mod midi;
#[cfg(test)]
mod tests;

use std::path::Path;

use anyhow::{bail, Context, Result};
use askama::Template;

use super::Outputs;

pub use encode::{Line, Song};

/// Where the songs are, relative to the repository root.
const MUSIC_DIR: &str = "assets/music";

/// The command bytes of the song format (see the module documentation).
pub const REST: u8 = 0x80;
pub const WAIT: u8 = 0x81;
pub const ENVELOPE: u8 = 0x82;
pub const TIMBRE: u8 = 0x83;
pub const JUMP: u8 = 0x84;
pub const END: u8 = 0x85;
pub const CALL: u8 = 0x86;
pub const RETURN: u8 = 0x87;

/// The DMG's frame rate as a fraction: 4,194,304 Hz / 70,224 dots per frame.
pub const FRAMES_PER_SECOND_NUMERATOR: u64 = 4_194_304;
pub const FRAMES_PER_SECOND_DENOMINATOR: u64 = 70_224;

/// The four sound channels, in the order of their registers (and of a song's pointers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Pulse1,
    Pulse2,
    Wave,
    Noise,
}

impl Channel {
    pub const ALL: [Channel; 4] = [
        Channel::Pulse1,
        Channel::Pulse2,
        Channel::Wave,
        Channel::Noise,
    ];

    /// The channel's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Pulse1 => "pulse 1",
            Channel::Pulse2 => "pulse 2",
            Channel::Wave => "wave",
            Channel::Noise => "noise",
        }
    }

    /// Its local label in a song's data.
    fn label(self) -> &'static str {
        match self {
            Channel::Pulse1 => "pulse1",
            Channel::Pulse2 => "pulse2",
            Channel::Wave => "wave",
            Channel::Noise => "noise",
        }
    }

    /// The MIDI channel (0-based as in the file; sequencers show it plus 1) it plays.
    pub fn midi_channel(self) -> u8 {
        match self {
            Channel::Pulse1 => 0,
            Channel::Pulse2 => 1,
            Channel::Wave => 2,
            Channel::Noise => 9,
        }
    }

    pub fn from_midi_channel(channel: u8) -> Option<Channel> {
        Channel::ALL
            .into_iter()
            .find(|c| c.midi_channel() == channel)
    }

    /// The MIDI note of period table index 0: the wave channel sounds an octave below a
    /// pulse channel with the same period.
    pub fn lowest_note(self) -> u8 {
        match self {
            Channel::Wave => 24,
            _ => 36,
        }
    }
}

/// How many notes the period table holds (six octaves).
pub const PERIOD_TABLE_LENGTH: u8 = 72;

/// The period register value (NRx3, low 3 bits of NRx4) of period table entry `index`:
/// pulse channels sound 131,072 / (2048 - period) Hz, from C2 (MIDI note 36) up in
/// equal-tempered semitones with A4 = 440 Hz.
pub fn period(index: u8) -> u16 {
    let semitones_from_a4 = f64::from(index) + 36.0 - 69.0;
    let frequency = 440.0 * (semitones_from_a4 / 12.0).exp2();
    2048 - (131_072.0 / frequency).round() as u16
}

/// The name of a MIDI note, middle C (60) being C4.
pub fn note_name(key: u8) -> String {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    format!(
        "{}{}",
        NAMES[usize::from(key % 12)],
        i32::from(key / 12) - 1
    )
}

/// A noise sound of the drum kit.
pub struct Drum {
    pub name: &'static str,
    /// The General MIDI drum notes that play it.
    pub keys: &'static [u8],
    /// NR43: clock shift (bits 4-7), 7-bit width (bit 3), divider (bits 0-2).
    pub nr43: u8,
    /// The envelope's fade speed (NR42 bits 0-2).
    pub fade: u8,
}

/// The noise channel's sounds, in drum kit index order.
pub const DRUM_KIT: [Drum; 10] = [
    Drum {
        name: "kick",
        keys: &[35, 36],
        nr43: 0x54,
        fade: 1,
    },
    Drum {
        name: "side stick",
        keys: &[37],
        nr43: 0x1A,
        fade: 1,
    },
    Drum {
        name: "snare",
        keys: &[38, 40],
        nr43: 0x32,
        fade: 2,
    },
    Drum {
        name: "clap",
        keys: &[39],
        nr43: 0x42,
        fade: 1,
    },
    Drum {
        name: "low tom",
        keys: &[41, 43, 45],
        nr43: 0x5C,
        fade: 2,
    },
    Drum {
        name: "high tom",
        keys: &[47, 48, 50],
        nr43: 0x4B,
        fade: 2,
    },
    Drum {
        name: "closed hi-hat",
        keys: &[42, 44],
        nr43: 0x00,
        fade: 1,
    },
    Drum {
        name: "open hi-hat",
        keys: &[46],
        nr43: 0x01,
        fade: 3,
    },
    Drum {
        name: "crash",
        keys: &[49, 57],
        nr43: 0x12,
        fade: 6,
    },
    Drum {
        name: "ride",
        keys: &[51, 59],
        nr43: 0x02,
        fade: 4,
    },
];

/// The kit index of a General MIDI drum note.
pub fn drum_index(key: u8) -> Option<u8> {
    DRUM_KIT
        .iter()
        .position(|drum| drum.keys.contains(&key))
        .map(|index| index as u8)
}

/// The kit as an error message lists it.
fn drum_kit_list() -> String {
    DRUM_KIT
        .iter()
        .map(|drum| {
            let keys: Vec<String> = drum.keys.iter().map(u8::to_string).collect();
            format!("{} {}", keys.join("/"), drum.name)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Program 1-4 on pulse: the duty cycles, as NRx1 values and as names.
pub const DUTIES: [(u8, &str); 4] = [(0x00, "12.5%"), (0x40, "25%"), (0x80, "50%"), (0xC0, "75%")];

/// Program 1-4 on the wave channel: the shapes, 32 samples of 0-15 each.
pub const WAVE_NAMES: [&str; 4] = ["triangle", "sawtooth", "square", "sine"];

/// Wave RAM contents (two samples per byte, the first in the high nibble) of each shape.
pub fn wave_shapes() -> [[u8; 16]; 4] {
    let sample = |shape: usize, i: usize| -> u8 {
        match shape {
            0 if i < 16 => i as u8,
            0 => 31 - i as u8,
            1 => (i / 2) as u8,
            2 if i < 16 => 15,
            2 => 0,
            _ => {
                let angle = std::f64::consts::TAU * i as f64 / 32.0;
                (7.5 + 7.5 * angle.sin()).round() as u8
            }
        }
    };
    std::array::from_fn(|shape| {
        std::array::from_fn(|byte| (sample(shape, 2 * byte) << 4) | sample(shape, 2 * byte + 1))
    })
}

/// Velocity 1-127 to an envelope's starting volume, 1-15.
pub fn volume(velocity: u8) -> u8 {
    ((u16::from(velocity) * 15).div_ceil(127)) as u8
}

/// Velocity 1-127 to the wave channel's output level (NR32).
pub fn wave_level(velocity: u8) -> u8 {
    match velocity {
        0..=42 => 0x60,
        43..=85 => 0x40,
        _ => 0x20,
    }
}

pub fn generate(root: &Path, outputs: &mut Outputs) -> Result<()> {
    let dir = root.join(MUSIC_DIR);
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {MUSIC_DIR}"))? {
        let path = entry
            .with_context(|| format!("reading {MUSIC_DIR}"))?
            .path();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("mid"))
        {
            paths.push(path);
        }
    }
    paths.sort();
    let mut songs = Vec::new();
    for path in &paths {
        songs.push(read_song(path)?);
    }
    for song in &songs {
        let name = format!("music/{}.asm", song.name);
        write(outputs, &name, &SongTemplate { song })?;
    }
    write(outputs, "music/songs.asm", &SongsTemplate { songs: &songs })?;
    let constants = ConstantsTemplate {
        songs: &songs,
        commands: encode::COMMAND_BYTES,
        periods: PERIOD_TABLE_LENGTH,
        waves: WAVE_NAMES.len(),
        drums: DRUM_KIT.len(),
    };
    write(outputs, "music/music.inc", &constants)?;
    write(
        outputs,
        "music/instruments.asm",
        &InstrumentsTemplate::new(),
    )
}

/// Renders a template into `generated/<name>`, ending with a newline.
fn write(outputs: &mut Outputs, name: &str, template: &impl Template) -> Result<()> {
    let mut text = template
        .render()
        .with_context(|| format!("rendering generated/{name}"))?;
    text.push('\n');
    outputs.ensure_file_contents(name, text.as_bytes())
}

/// Reads and converts one MIDI file.
fn read_song(path: &Path) -> Result<Song> {
    let shown = format!(
        "{MUSIC_DIR}/{}",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = song_name(&shown, &stem)?;
    let bytes = std::fs::read(path).with_context(|| format!("reading {shown}"))?;
    convert(&name, &shown, &bytes)
}

/// Checks that a file's stem can name a song in the assembly.
fn song_name(shown: &str, stem: &str) -> Result<String> {
    if stem.is_empty()
        || !stem.starts_with(|c: char| c.is_ascii_lowercase())
        || !stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        bail!(
            "{shown}: a song's file name must be lower-case letters, digits and underscores, \
             starting with a letter (it names the song in the assembly, e.g. title.mid is \
             SONG_TITLE)"
        );
    }
    Ok(stem.to_string())
}

/// Converts the MIDI file `bytes` (shown as `shown` in errors) into song `name`.
pub fn convert(name: &str, shown: &str, bytes: &[u8]) -> Result<Song> {
    let midi = midi::read(bytes).map_err(|error| anyhow::anyhow!("{shown}: {error}"))?;
    encode::encode(name, shown, &midi).map_err(|error| anyhow::anyhow!("{shown}: {error}"))
}

/// `game_over` -> `GameOver`.
fn pascal_case(name: &str) -> String {
    name.split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "music_song.asm", escape = "none")]
struct SongTemplate<'a> {
    song: &'a Song,
}

#[derive(Template)]
#[template(path = "music_songs.asm", escape = "none")]
struct SongsTemplate<'a> {
    songs: &'a [Song],
}

#[derive(Template)]
#[template(path = "music.inc", escape = "none")]
struct ConstantsTemplate<'a> {
    songs: &'a [Song],
    commands: [(&'static str, u8); 8],
    periods: u8,
    waves: usize,
    drums: usize,
}

#[derive(Template)]
#[template(path = "music_instruments.asm", escape = "none")]
struct InstrumentsTemplate {
    periods: Vec<(String, u16)>,
    waves: Vec<(&'static str, String)>,
    drums: Vec<(String, u8)>,
}

impl InstrumentsTemplate {
    fn new() -> Self {
        let periods = (0..PERIOD_TABLE_LENGTH)
            .map(|index| {
                let pulse = note_name(Channel::Pulse1.lowest_note() + index);
                let wave = note_name(Channel::Wave.lowest_note() + index);
                (format!("{pulse} (wave {wave})"), period(index))
            })
            .collect();
        let waves = WAVE_NAMES
            .iter()
            .zip(wave_shapes())
            .map(|(name, bytes)| {
                let bytes: Vec<String> = bytes.iter().map(|b| format!("${b:02X}")).collect();
                (*name, bytes.join(", "))
            })
            .collect();
        let drums = DRUM_KIT
            .iter()
            .map(|drum| {
                let keys: Vec<String> = drum.keys.iter().map(u8::to_string).collect();
                (
                    format!(
                        "{} (notes {}, fade {})",
                        drum.name,
                        keys.join(", "),
                        drum.fade
                    ),
                    drum.nr43,
                )
            })
            .collect();
        InstrumentsTemplate {
            periods,
            waves,
            drums,
        }
    }
}
