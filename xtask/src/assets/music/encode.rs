//! From the notes of each channel to the driver's command streams: ticks to frames,
//! rests, the loop, instrument changes, and the `db` lines of the song file.

use std::collections::HashMap;
use std::fmt;

use super::midi::{Midi, MidiError, Note};
use super::{
    drum_index, note_name, pascal_case, volume, wave_level, Channel, CALL, DRUM_KIT, DUTIES, END,
    ENVELOPE, FRAMES_PER_SECOND_DENOMINATOR, FRAMES_PER_SECOND_NUMERATOR, JUMP, REST, RETURN,
    TIMBRE, WAIT, WAVE_NAMES,
};
use crate::project::plural;

/// The longest duration one command holds; longer notes and rests continue with waits.
const MAX_FRAMES: u64 = 255;

/// A converted song.
pub struct Song {
    /// The file's stem: `game_over`.
    pub name: String,
    /// Its label in the assembly: `SongGameOver`.
    pub label: String,
    /// Its number's name: `SONG_GAME_OVER`.
    pub constant: String,
    /// The MIDI file, as messages show it.
    pub source: String,
    /// How long it plays once (to the loop's end, or to its last note's end), in frames.
    pub frames: u64,
    /// Where it starts again, in frames from the start.
    pub loop_frame: Option<u64>,
    /// `bar 2, beat 1` for the loop point.
    pub loop_place: Option<String>,
    /// Pulse 1, pulse 2, wave, noise.
    pub channels: Vec<ChannelStream>,
}

/// One channel's commands.
pub struct ChannelStream {
    pub channel: Channel,
    /// Empty for a channel the song does not use.
    pub lines: Vec<Line>,
}

/// A line of the song file.
#[derive(Clone)]
pub enum Line {
    Label(String),
    Comment(String),
    Command(Command, String),
}

/// A command of the song format (see the module documentation of `music`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Note {
        index: u8,
        frames: u8,
    },
    Rest(u8),
    Wait(u8),
    Envelope(u8),
    Timbre(u8),
    /// Back to the loop label (local label name).
    Jump(String),
    End,
    /// The passage at the label (local label name), then on after this.
    Call(String),
    /// The end of a passage called.
    Return,
}

impl Command {
    /// Its size in bytes.
    pub fn size(&self) -> usize {
        match self {
            Command::End | Command::Return => 1,
            Command::Jump(_) | Command::Call(_) => 3,
            _ => 2,
        }
    }
}

impl fmt::Display for Command {
    /// The command as an assembly statement.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Note { index, frames } => write!(f, "db ${index:02X}, {frames}"),
            Command::Rest(frames) => write!(f, "db MUSIC_REST, {frames}"),
            Command::Wait(frames) => write!(f, "db MUSIC_WAIT, {frames}"),
            Command::Envelope(value) => write!(f, "db MUSIC_ENVELOPE, ${value:02X}"),
            Command::Timbre(value) => write!(f, "db MUSIC_TIMBRE, ${value:02X}"),
            Command::Jump(label) => write!(f, "db MUSIC_JUMP, LOW({label}), HIGH({label})"),
            Command::End => write!(f, "db MUSIC_END"),
            Command::Call(label) => write!(f, "db MUSIC_CALL, LOW({label}), HIGH({label})"),
            Command::Return => write!(f, "db MUSIC_RETURN"),
        }
    }
}

impl Song {
    /// Its size in bytes: the four pointers and every stream.
    pub fn size(&self) -> usize {
        8 + self.channels.iter().map(ChannelStream::size).sum::<usize>()
    }

    /// Seconds it plays once.
    pub fn seconds(&self) -> f64 {
        self.frames as f64 * FRAMES_PER_SECOND_DENOMINATOR as f64
            / FRAMES_PER_SECOND_NUMERATOR as f64
    }

    /// The summary line of its file: length, loop, size.
    pub fn summary(&self) -> String {
        let repeat = match (&self.loop_frame, &self.loop_place) {
            (Some(frame), Some(place)) => format!(
                "loops from {place} (frame {frame}) every {}",
                plural(self.frames - frame, "frame")
            ),
            _ => "plays once".to_string(),
        };
        format!(
            "{}: {:.1} s ({}), {repeat}; {}.",
            self.label,
            self.seconds(),
            plural(self.frames, "frame"),
            plural(self.size(), "byte")
        )
    }

    /// The commands of a channel as they play, without labels and comments: the passages
    /// called in their places, up to the stream's jump or end.
    #[cfg(test)]
    pub fn commands(&self, channel: Channel) -> Vec<Command> {
        self.channels[channel as usize].played()
    }
}

impl ChannelStream {
    /// The commands as they play: each call replaced by the passage it calls, up to the
    /// stream's jump or end (the passages come after it).
    pub fn played(&self) -> Vec<Command> {
        let commands_at = |start: usize| {
            self.lines[start..].iter().filter_map(|line| match line {
                Line::Command(command, _) => Some(command.clone()),
                _ => None,
            })
        };
        let mut played = Vec::new();
        for command in commands_at(0) {
            match command {
                Command::Call(label) => {
                    let at = self
                        .lines
                        .iter()
                        .position(|line| matches!(line, Line::Label(l) if *l == label))
                        .expect("a call's passage has its label");
                    played.extend(commands_at(at).take_while(|c| *c != Command::Return));
                }
                Command::Jump(_) | Command::End => {
                    played.push(command);
                    break;
                }
                _ => played.push(command),
            }
        }
        played
    }

    pub fn used(&self) -> bool {
        !self.lines.is_empty()
    }

    pub fn size(&self) -> usize {
        self.lines
            .iter()
            .map(|line| match line {
                Line::Command(command, _) => command.size(),
                _ => 0,
            })
            .sum()
    }

    /// The local label of the stream: `.pulse1`.
    pub fn label(&self) -> String {
        format!(".{}", self.channel.label())
    }

    /// What the song's pointer to it reads: the label, or 0.
    pub fn pointer(&self) -> String {
        match self.used() {
            true => self.label(),
            false => "0".to_string(),
        }
    }
}

/// The frame (from the song's start) of a tick: round(seconds × 4,194,304 / 70,224), in
/// exact integer arithmetic through the tempo map, so no rounding accumulates.
pub fn frame_of(midi: &Midi, tick: u64) -> u64 {
    let mut scaled: u128 = 0;
    for (index, &(start, tempo)) in midi.tempos.iter().enumerate() {
        if start >= tick {
            break;
        }
        let end = midi
            .tempos
            .get(index + 1)
            .map_or(tick, |next| next.0.min(tick));
        scaled += u128::from(end - start) * u128::from(tempo);
    }
    // seconds = scaled / (ticks_per_beat × 1,000,000)
    let numerator = scaled * u128::from(FRAMES_PER_SECOND_NUMERATOR);
    let denominator =
        u128::from(midi.ticks_per_beat) * 1_000_000 * u128::from(FRAMES_PER_SECOND_DENOMINATOR);
    ((2 * numerator + denominator) / (2 * denominator)) as u64
}

/// What a note plays, as the driver sees it.
#[derive(Clone)]
struct Sound {
    index: u8,
    envelope: u8,
    timbre: Option<u8>,
    /// The note's name (or drum's) for the comment.
    name: String,
}

/// A stretch of a channel's time: a note, or silence.
#[derive(Clone)]
struct Span {
    start: u64,
    end: u64,
    /// The ticks it starts and ends at (for the bar comments).
    tick: u64,
    end_tick: u64,
    sound: Option<Sound>,
}

pub fn encode(name: &str, shown: &str, midi: &Midi) -> Result<Song, MidiError> {
    let last_tick = midi
        .notes
        .iter()
        .flatten()
        .map(|note| note.end.max(note.start))
        .max()
        .ok_or_else(|| {
            MidiError(
                "no notes: the Game Boy plays MIDI channels 1 (pulse 1), 2 (pulse 2), 3 (wave) \
                 and 10 (noise drums)"
                    .into(),
            )
        })?;
    let end_tick = match midi.loop_tick {
        Some(_) => midi.bar_line_after(last_tick.max(1)),
        None => last_tick,
    };
    if let Some(loop_tick) = midi.loop_tick {
        if loop_tick >= end_tick {
            return Err(MidiError(format!(
                "the loop marker at {} is at or after the song's end ({}): nothing would repeat",
                midi.bar_and_beat(loop_tick),
                midi.bar_and_beat(end_tick)
            )));
        }
    }
    let loop_frame = midi.loop_tick.map(|tick| frame_of(midi, tick));

    let mut timed = Vec::new();
    for channel in Channel::ALL {
        timed.push(frames_of_notes(midi, channel)?);
    }
    // The end: the last note's end, or the bar line after it for a loop; never before a
    // note that a rounding stretched to one frame.
    let mut end = frame_of(midi, end_tick);
    for spans in &timed {
        if let Some(last) = spans.last() {
            end = end.max(last.end);
        }
    }

    let mut channels = Vec::new();
    for (channel, mut notes) in Channel::ALL.into_iter().zip(timed) {
        if channel == Channel::Noise {
            // A drum rings until the next hit.
            for index in 0..notes.len() {
                let next = notes.get(index + 1).map(|next| (next.start, next.tick));
                (notes[index].end, notes[index].end_tick) = next.unwrap_or((end, end_tick));
            }
        }
        let mut spans = with_rests(notes, (end, end_tick));
        if let Some(loop_frame) = loop_frame {
            split_at(&mut spans, loop_frame, midi.loop_tick.unwrap_or(0));
        }
        let plain = ChannelStream {
            channel,
            lines: lines(channel, &spans, loop_frame, midi),
        };
        let shared = ChannelStream {
            channel,
            lines: share_repeats(channel, plain.lines.clone()),
        };
        assert!(
            shared.played() == plain.played(),
            "{name}: the {} stream with its repeats shared plays differently (a bug in \
             share_repeats)",
            channel.name()
        );
        channels.push(shared);
    }
    Ok(Song {
        name: name.to_string(),
        label: format!("Song{}", pascal_case(name)),
        constant: format!("SONG_{}", name.to_ascii_uppercase()),
        source: shown.to_string(),
        frames: end,
        loop_frame,
        loop_place: midi.loop_tick.map(|tick| midi.bar_and_beat(tick)),
        channels,
    })
}

/// The notes of a channel as spans of frames. A note shorter than a frame gets one;
/// notes less than a frame apart are an error.
fn frames_of_notes(midi: &Midi, channel: Channel) -> Result<Vec<Span>, MidiError> {
    let notes = &midi.notes[channel as usize];
    let mut spans: Vec<Span> = Vec::new();
    for (index, note) in notes.iter().enumerate() {
        let start = frame_of(midi, note.start);
        let end = frame_of(midi, note.end).max(start + 1);
        if let Some(previous) = spans.last_mut() {
            if start <= previous.start {
                let earlier = &notes[index - 1];
                return Err(MidiError(format!(
                    "{}: {} comes less than a frame (1/59.7 s) after {} at {}; the Game Boy \
                     plays at most one note per frame on a channel",
                    midi.place(channel, note),
                    note_name(note.key),
                    note_name(earlier.key),
                    midi.bar_and_beat(earlier.start)
                )));
            }
            previous.end = previous.end.min(start);
        }
        spans.push(Span {
            start,
            end,
            tick: note.start,
            end_tick: note.end,
            sound: Some(sound(channel, note)),
        });
    }
    Ok(spans)
}

fn sound(channel: Channel, note: &Note) -> Sound {
    let program = usize::from(note.program);
    match channel {
        Channel::Pulse1 | Channel::Pulse2 => Sound {
            index: note.key - channel.lowest_note(),
            envelope: volume(note.velocity) << 4 | (note.fade_controller / 16),
            timbre: Some(DUTIES[program].0),
            name: note_name(note.key),
        },
        Channel::Wave => Sound {
            index: note.key - channel.lowest_note(),
            envelope: wave_level(note.velocity),
            timbre: Some(note.program),
            name: note_name(note.key),
        },
        Channel::Noise => {
            let index = drum_index(note.key).expect("checked when read");
            let drum = &DRUM_KIT[usize::from(index)];
            Sound {
                index,
                envelope: volume(note.velocity) << 4 | drum.fade,
                timbre: None,
                name: drum.name.to_string(),
            }
        }
    }
}

/// The notes with the silences between them, covering frames 0 to `end` (frame, tick)
/// (nothing for a channel without notes).
fn with_rests(notes: Vec<Span>, end: (u64, u64)) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut cursor = (0, 0);
    for note in notes {
        if note.start > cursor.0 {
            spans.push(rest(cursor, (note.start, note.tick)));
        }
        cursor = (note.end, note.end_tick);
        spans.push(note);
    }
    if !spans.is_empty() && cursor.0 < end.0 {
        spans.push(rest(cursor, end));
    }
    spans
}

/// Silence between two (frame, tick) points.
fn rest((start, tick): (u64, u64), (end, end_tick): (u64, u64)) -> Span {
    Span {
        start,
        end,
        tick,
        end_tick,
        sound: None,
    }
}

/// Splits the span that contains `frame` there, so that the loop label can go between.
/// A note sounding across the loop point starts again after it.
fn split_at(spans: &mut Vec<Span>, frame: u64, tick: u64) {
    if let Some(index) = spans.iter().position(|s| s.start < frame && frame < s.end) {
        let mut second = spans[index].clone();
        spans[index].end = frame;
        second.start = frame;
        second.tick = tick;
        spans.insert(index + 1, second);
    }
}

/// The lines of one channel's stream.
fn lines(channel: Channel, spans: &[Span], loop_frame: Option<u64>, midi: &Midi) -> Vec<Line> {
    let mut lines = Vec::new();
    if spans.is_empty() {
        return lines;
    }
    let label = format!(".{}", channel.label());
    let loop_label = format!("{label}Loop");
    let mut timbre = None;
    let mut envelope = None;
    let mut bar = 0;
    for span in spans {
        if Some(span.start) == loop_frame {
            lines.push(Line::Label(loop_label.clone()));
            // Whatever the end left set, the loop sets its own instrument again.
            timbre = None;
            envelope = None;
        }
        let (span_bar, ..) = midi.bar_beat_tick(span.tick);
        if span_bar != bar {
            bar = span_bar;
            lines.push(Line::Comment(format!("bar {bar}")));
        }
        let mut frames = span.end - span.start;
        let first = frames.min(MAX_FRAMES) as u8;
        match &span.sound {
            Some(sound) => {
                if sound.timbre.is_some() && sound.timbre != timbre {
                    timbre = sound.timbre;
                    let value = sound.timbre.unwrap_or_default();
                    let comment = match channel {
                        Channel::Wave => format!("wave: {}", WAVE_NAMES[usize::from(value)]),
                        _ => format!("duty {}", DUTIES[usize::from(value >> 6)].1),
                    };
                    lines.push(Line::Command(Command::Timbre(value), comment));
                }
                if envelope != Some(sound.envelope) {
                    envelope = Some(sound.envelope);
                    let value = sound.envelope;
                    let comment = match channel {
                        Channel::Wave => {
                            let percent = [0, 100, 50, 25][usize::from(value >> 5 & 3)];
                            format!("level {percent}%")
                        }
                        _ => format!("volume {}, fade {}", value >> 4, value & 7),
                    };
                    lines.push(Line::Command(Command::Envelope(value), comment));
                }
                let command = Command::Note {
                    index: sound.index,
                    frames: first,
                };
                lines.push(Line::Command(command, sound.name.clone()));
            }
            None => lines.push(Line::Command(Command::Rest(first), String::new())),
        }
        frames -= u64::from(first);
        while frames > 0 {
            let chunk = frames.min(MAX_FRAMES) as u8;
            lines.push(Line::Command(Command::Wait(chunk), String::new()));
            frames -= u64::from(chunk);
        }
    }
    let last = match loop_frame {
        Some(_) => Command::Jump(loop_label),
        None => Command::End,
    };
    lines.push(Line::Command(last, String::new()));
    lines
}

/// The base of the passages' hashes (any odd number with many bits set).
const HASH_BASE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Keeps each passage that repeats once, after the stream's end, and calls it where it
/// plays, as long as that makes the stream smaller: the passage that saves the most bytes
/// first (a call is 3 bytes, the return 1). A passage is 2 commands or more of notes,
/// rests, waits and instrument changes, never across the loop label; calls do not nest.
pub(super) fn share_repeats(channel: Channel, mut lines: Vec<Line>) -> Vec<Line> {
    let mut passages: Vec<Line> = Vec::new();
    for number in 1.. {
        // Runs of commands a passage may hold: (line index, command), split at labels and
        // at jumps, ends and calls.
        let mut runs: Vec<Vec<(usize, &Command)>> = vec![Vec::new()];
        for (at, line) in lines.iter().enumerate() {
            match line {
                Line::Command(
                    command @ (Command::Note { .. }
                    | Command::Rest(_)
                    | Command::Wait(_)
                    | Command::Envelope(_)
                    | Command::Timbre(_)),
                    _,
                ) => runs.last_mut().unwrap().push((at, command)),
                Line::Comment(_) => {}
                _ => runs.push(Vec::new()),
            }
        }
        // The best passage: (bytes saved, its first occurrence (run, index), length).
        // Each command as a number, each run as their sums of hashes and of sizes from its
        // start: a passage's hash and size in constant time.
        let mut ids: HashMap<&Command, u64> = HashMap::new();
        let mut id_runs: Vec<Vec<u64>> = Vec::new();
        let mut hashes: Vec<Vec<u64>> = Vec::new();
        let mut sizes: Vec<Vec<usize>> = Vec::new();
        for run in &runs {
            let (mut id_run, mut hash, mut size) = (Vec::new(), vec![0u64], vec![0usize]);
            for &(_, command) in run {
                let next = ids.len() as u64 + 1;
                let id = *ids.entry(command).or_insert(next);
                id_run.push(id);
                hash.push(
                    hash[hash.len() - 1]
                        .wrapping_mul(HASH_BASE)
                        .wrapping_add(id),
                );
                size.push(size[size.len() - 1] + command.size());
            }
            id_runs.push(id_run);
            hashes.push(hash);
            sizes.push(size);
        }
        // The best passage: (bytes saved, its first occurrence (run, index), length).
        let mut best: Option<(usize, (usize, usize), usize)> = None;
        let longest = runs.iter().map(Vec::len).max().unwrap_or(0);
        let mut power = HASH_BASE;
        for length in 2..=longest / 2 {
            power = power.wrapping_mul(HASH_BASE);
            let mut found: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
            for (r, hash) in hashes.iter().enumerate() {
                for i in 0..hash.len().saturating_sub(length) {
                    let key = hash[i + length].wrapping_sub(hash[i].wrapping_mul(power));
                    found.entry(key).or_default().push((r, i));
                }
            }
            for places in found.values() {
                let (r0, i0) = places[0];
                let passage = &id_runs[r0][i0..i0 + length];
                let same: Vec<(usize, usize)> = places
                    .iter()
                    .copied()
                    .filter(|&(r, i)| id_runs[r][i..i + length] == *passage)
                    .collect();
                let count = non_overlapping(&same, length).len();
                let bytes = sizes[r0][i0 + length] - sizes[r0][i0];
                let saved = (count * bytes).saturating_sub(count * 3 + bytes + 1);
                let first = (r0, i0);
                if saved > 0
                    && best.is_none_or(|(s, f, _)| {
                        (saved, std::cmp::Reverse(first)) > (s, std::cmp::Reverse(f))
                    })
                {
                    best = Some((saved, first, length));
                }
            }
        }
        let Some((_, first, length)) = best else {
            break;
        };
        let key: Vec<Command> = runs[first.0][first.1..first.1 + length]
            .iter()
            .map(|&(_, c)| c.clone())
            .collect();
        let mut places = Vec::new();
        for (r, run) in runs.iter().enumerate() {
            for i in 0..(run.len() + 1).saturating_sub(length) {
                if run[i..i + length].iter().map(|&(_, c)| c).eq(key.iter()) {
                    places.push((r, i));
                }
            }
        }
        // The line spans to replace, from each occurrence's first command to its last.
        let spans: Vec<(usize, usize)> = non_overlapping(&places, length)
            .into_iter()
            .map(|(r, i)| (runs[r][i].0, runs[r][i + length - 1].0))
            .collect();
        let label = format!(".{}Passage{number}", channel.label());
        passages.push(Line::Label(label.clone()));
        let (from, to) = spans[0];
        for line in &lines[from..=to] {
            passages.push(match line {
                Line::Comment(text) => Line::Comment(text.clone()),
                Line::Command(command, comment) => Line::Command(command.clone(), comment.clone()),
                Line::Label(_) => unreachable!("a passage holds no label"),
            });
        }
        passages.push(Line::Command(Command::Return, String::new()));
        for &(from, to) in spans.iter().rev() {
            let call = Line::Command(Command::Call(label.clone()), format!("{} commands", length));
            lines.splice(from..=to, [call]);
        }
    }
    lines.extend(passages);
    lines
}

/// Of the places (run, index) of a passage of `length` commands, in order, those that do
/// not overlap the one taken before.
fn non_overlapping(places: &[(usize, usize)], length: usize) -> Vec<(usize, usize)> {
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for &(r, i) in places {
        if taken
            .last()
            .is_none_or(|&(lr, li)| lr != r || i >= li + length)
        {
            taken.push((r, i));
        }
    }
    taken
}

/// The command byte values, for the generated constants.
pub const COMMAND_BYTES: [(&str, u8); 8] = [
    ("MUSIC_REST", REST),
    ("MUSIC_WAIT", WAIT),
    ("MUSIC_ENVELOPE", ENVELOPE),
    ("MUSIC_TIMBRE", TIMBRE),
    ("MUSIC_JUMP", JUMP),
    ("MUSIC_END", END),
    ("MUSIC_CALL", CALL),
    ("MUSIC_RETURN", RETURN),
];
