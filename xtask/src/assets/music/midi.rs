//! Reading a Standard MIDI File into the notes each Game Boy channel plays, with every
//! check that needs the MIDI view (channels, overlaps, ranges, programs, drum notes).

use std::fmt;

use midly::{MetaMessage, MidiMessage, Smf, Timing, TrackEventKind};

use super::{drum_index, drum_kit_list, note_name, Channel, DUTIES, PERIOD_TABLE_LENGTH};
use crate::project::plural;

/// Tempo before any tempo event: 120 beats per minute.
const DEFAULT_TEMPO: u32 = 500_000;
/// The controller that sets the fade speed (GM2 "release time").
const FADE_CONTROLLER: u8 = 72;
/// The program a channel has before any program change (0-based): 50% duty on pulse,
/// the triangle on wave.
const DEFAULT_PROGRAM: [u8; 4] = [2, 2, 0, 0];

/// One note of one Game Boy channel, with what the MIDI file says about its sound.
#[derive(Clone, Debug)]
pub struct Note {
    /// Note-on and note-off, in ticks from the start.
    pub start: u64,
    pub end: u64,
    pub key: u8,
    pub velocity: u8,
    /// The program (0-based) in effect at the note-on.
    pub program: u8,
    /// CC 72 at the note-on.
    pub fade_controller: u8,
    /// The track (0-based) of the note-on.
    pub track: usize,
}

/// What a MIDI file says, sorted by Game Boy channel.
pub struct Midi {
    pub ticks_per_beat: u64,
    /// (tick, microseconds per quarter note), the first at tick 0.
    pub tempos: Vec<(u64, u32)>,
    /// (tick, numerator, denominator as a power of 2), the first at tick 0.
    time_signatures: Vec<(u64, u8, u8)>,
    pub loop_tick: Option<u64>,
    /// The notes of pulse 1, pulse 2, wave, noise, each in order of their start.
    pub notes: [Vec<Note>; 4],
    track_names: Vec<String>,
}

/// A reason a file cannot play, with where.
pub struct MidiError(pub String);

impl fmt::Display for MidiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a MIDI event is, as messages show it.
pub struct Place<'a> {
    midi: &'a Midi,
    track: usize,
    midi_channel: u8,
    /// None when the message says when itself.
    tick: Option<u64>,
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "track {}", self.track + 1)?;
        if let Some(name) = self.midi.track_names.get(self.track) {
            if !name.is_empty() {
                write!(f, " \"{name}\"")?;
            }
        }
        write!(f, ", MIDI channel {}", self.midi_channel + 1)?;
        if let Some(channel) = Channel::from_midi_channel(self.midi_channel) {
            write!(f, " ({})", channel.name())?;
        }
        match self.tick {
            Some(tick) => write!(f, ", {}", self.midi.bar_and_beat(tick)),
            None => Ok(()),
        }
    }
}

impl Midi {
    /// Where a note of `channel` is.
    pub fn place(&self, channel: Channel, note: &Note) -> Place<'_> {
        self.place_at(note.track, channel.midi_channel(), note.start)
    }

    pub fn place_at(&self, track: usize, midi_channel: u8, tick: u64) -> Place<'_> {
        Place {
            midi: self,
            track,
            midi_channel,
            tick: Some(tick),
        }
    }

    /// (bar, beat, ticks after the beat), bars and beats counted from 1, beats in the time
    /// signature's unit.
    pub fn bar_beat_tick(&self, tick: u64) -> (u64, u64, u64) {
        let signatures = &self.time_signatures;
        let mut bar = 1;
        for (index, &(start, numerator, power)) in signatures.iter().enumerate() {
            let beat = self.beat_length(power);
            let bar_length = beat * u64::from(numerator);
            match signatures.get(index + 1) {
                // A change that is not on a bar line starts a new bar.
                Some(&(next, ..)) if next <= tick => bar += (next - start).div_ceil(bar_length),
                _ => {
                    let into = tick - start;
                    let in_bar = into % bar_length;
                    return (bar + into / bar_length, in_bar / beat + 1, in_bar % beat);
                }
            }
        }
        unreachable!("the time signature list starts at tick 0")
    }

    /// `bar 5, beat 3`, or `bar 5, beat 3 + 120/480` when between beats.
    pub fn bar_and_beat(&self, tick: u64) -> String {
        let (bar, beat, rest) = self.bar_beat_tick(tick);
        let power = self.signature_at(tick).2;
        match rest {
            0 => format!("bar {bar}, beat {beat}"),
            rest => format!(
                "bar {bar}, beat {beat} + {rest}/{}",
                self.beat_length(power)
            ),
        }
    }

    fn signature_at(&self, tick: u64) -> (u64, u8, u8) {
        *self
            .time_signatures
            .iter()
            .rev()
            .find(|t| t.0 <= tick)
            .expect("the time signature list starts at tick 0")
    }

    fn beat_length(&self, power: u8) -> u64 {
        ((self.ticks_per_beat * 4) >> power).max(1)
    }

    /// The first bar line at or after `tick`.
    pub fn bar_line_after(&self, tick: u64) -> u64 {
        let (start, numerator, power) = self.signature_at(tick);
        let bar_length = self.beat_length(power) * u64::from(numerator);
        start + (tick - start).div_ceil(bar_length) * bar_length
    }
}

/// An event with its absolute time, in the order they are read: at one tick, settings
/// first, then note-offs, then note-ons, so that a note may start where another ends.
struct Timed<'a> {
    tick: u64,
    rank: u8,
    track: usize,
    kind: TrackEventKind<'a>,
}

fn rank(kind: &TrackEventKind) -> u8 {
    match kind {
        TrackEventKind::Midi {
            message: MidiMessage::NoteOn { vel, .. },
            ..
        } if vel.as_int() > 0 => 2,
        TrackEventKind::Midi {
            message: MidiMessage::NoteOn { .. } | MidiMessage::NoteOff { .. },
            ..
        } => 1,
        _ => 0,
    }
}

/// Checks that the file holds every chunk its header announces, whole: a copy that
/// stopped early must not become a shorter song. (midly, built `strict`, rejects such a
/// file too, but only as "malformed midi: invalid chunk".)
fn check_complete(bytes: &[u8]) -> Result<(), MidiError> {
    let cut_short = |what: String| {
        MidiError(format!(
            "the file is cut short: {what} (it is damaged or was not copied whole)"
        ))
    };
    // A file too short for its header, or with another first chunk, is left to midly.
    if bytes.len() < 14 || &bytes[..4] != b"MThd" {
        return Ok(());
    }
    let announced = u16::from_be_bytes([bytes[10], bytes[11]]);
    // Chunks: a 4-byte type, a 4-byte big-endian length, the data.
    let (mut offset, mut tracks) = (0, 0u16);
    while offset < bytes.len() {
        let is_track = offset > 0 && bytes[offset..].starts_with(b"MTrk");
        let chunk = match (offset, is_track) {
            (0, _) => "the header".to_string(),
            (_, true) => format!("track {}", tracks + 1),
            (_, false) => format!("the chunk after track {tracks}"),
        };
        let remaining = bytes.len() - offset;
        if remaining < 8 {
            return Err(cut_short(format!(
                "it ends {} into {chunk}'s 8-byte chunk header",
                plural(remaining, "byte")
            )));
        }
        let length = u32::from_be_bytes(std::array::from_fn(|i| bytes[offset + 4 + i])) as usize;
        if length > remaining - 8 {
            return Err(cut_short(format!(
                "{chunk} is {} long, but only {} of them are in the file",
                plural(length, "byte"),
                remaining - 8
            )));
        }
        if is_track {
            tracks += 1;
        }
        offset += 8 + length;
    }
    if tracks < announced {
        return Err(cut_short(format!(
            "its header announces {}, but it holds {tracks}",
            plural(announced, "track")
        )));
    }
    Ok(())
}

/// The first track (numbered from 1) that midly cannot read, if the header can be read.
fn damaged_track(bytes: &[u8]) -> Option<usize> {
    let (_, tracks) = midly::parse(bytes).ok()?;
    tracks
        .enumerate()
        .find(|(_, track)| match track {
            Ok(events) => events.clone().any(|event| event.is_err()),
            Err(_) => true,
        })
        .map(|(index, _)| index + 1)
}

pub fn read(bytes: &[u8]) -> Result<Midi, MidiError> {
    check_complete(bytes)?;
    let smf = Smf::parse(bytes).map_err(|error| {
        MidiError(format!(
            "not a readable MIDI file ({}{error})",
            damaged_track(bytes).map_or(String::new(), |track| format!("track {track}: "))
        ))
    })?;
    let ticks_per_beat = match smf.header.timing {
        Timing::Metrical(ticks) => u64::from(ticks.as_int()),
        Timing::Timecode(..) => {
            return Err(MidiError(
                "the file counts time in SMPTE frames; save it with musical time (ticks per \
                 quarter note)"
                    .into(),
            ))
        }
    };
    if ticks_per_beat == 0 {
        return Err(MidiError("the file has 0 ticks per quarter note".into()));
    }

    let mut events = Vec::new();
    let mut track_names = Vec::new();
    for (track, track_events) in smf.tracks.iter().enumerate() {
        let mut tick = 0u64;
        let mut name = String::new();
        for event in track_events {
            tick += u64::from(event.delta.as_int());
            if let TrackEventKind::Meta(MetaMessage::TrackName(text)) = event.kind {
                if name.is_empty() {
                    name = String::from_utf8_lossy(text).trim().to_string();
                }
            }
            events.push(Timed {
                tick,
                rank: rank(&event.kind),
                track,
                kind: event.kind,
            });
        }
        track_names.push(name);
    }
    events.sort_by_key(|event| (event.tick, event.rank, event.track));

    let mut midi = Midi {
        ticks_per_beat,
        tempos: vec![(0, DEFAULT_TEMPO)],
        time_signatures: vec![(0, 4, 2)],
        loop_tick: None,
        notes: Default::default(),
        track_names,
    };
    // Tempo and time signature changes first: messages about notes need the bars.
    for event in &events {
        match event.kind {
            TrackEventKind::Meta(MetaMessage::Tempo(tempo)) => {
                set_at(&mut midi.tempos, event.tick, tempo.as_int());
            }
            TrackEventKind::Meta(MetaMessage::TimeSignature(numerator, power, ..)) => {
                if numerator == 0 || power > 6 {
                    return Err(MidiError(format!(
                        "track {}: time signature {numerator}/2^{power} is not a time signature",
                        event.track + 1
                    )));
                }
                let signatures = &mut midi.time_signatures;
                match signatures.iter_mut().find(|t| t.0 == event.tick) {
                    Some(existing) => *existing = (event.tick, numerator, power),
                    None => signatures.push((event.tick, numerator, power)),
                }
            }
            _ => {}
        }
    }
    if let Some(&(tick, _)) = midi.tempos.iter().find(|t| t.1 == 0) {
        return Err(MidiError(format!(
            "a tempo of 0 microseconds per beat at {}",
            midi.bar_and_beat(tick)
        )));
    }

    let mut program = [0u8; 16];
    for channel in Channel::ALL {
        program[usize::from(channel.midi_channel())] = DEFAULT_PROGRAM[channel as usize];
    }
    let mut fade_controller = [0u8; 16];
    let mut sounding: [Option<Note>; 16] = Default::default();
    let mut notes: [Vec<Note>; 4] = Default::default();
    let mut loop_place: Option<(u64, usize)> = None;

    for event in &events {
        let (midi_channel, message) = match event.kind {
            TrackEventKind::Meta(
                MetaMessage::Marker(text) | MetaMessage::Text(text) | MetaMessage::CuePoint(text),
            ) => {
                if String::from_utf8_lossy(text)
                    .trim()
                    .eq_ignore_ascii_case("loop")
                {
                    if let Some((first, _)) = loop_place {
                        if first != event.tick {
                            return Err(MidiError(format!(
                                "two loop markers, at {} and at {} (track {}): keep one",
                                midi.bar_and_beat(first),
                                midi.bar_and_beat(event.tick),
                                event.track + 1
                            )));
                        }
                    }
                    loop_place = Some((event.tick, event.track));
                }
                continue;
            }
            TrackEventKind::Midi { channel, message } => (channel.as_int(), message),
            _ => continue,
        };
        let slot = usize::from(midi_channel);
        let place = |tick| midi.place_at(event.track, midi_channel, tick);
        match message {
            MidiMessage::ProgramChange { program: p } => program[slot] = p.as_int(),
            MidiMessage::Controller { controller, value }
                if controller.as_int() == FADE_CONTROLLER =>
            {
                fade_controller[slot] = value.as_int();
            }
            MidiMessage::NoteOn { key, vel } if vel.as_int() > 0 => {
                let (key, velocity) = (key.as_int(), vel.as_int());
                let Some(channel) = Channel::from_midi_channel(midi_channel) else {
                    return Err(MidiError(format!(
                        "{}: note {} is on a channel the Game Boy does not play; use MIDI \
                         channels 1 (pulse 1), 2 (pulse 2), 3 (wave) and 10 (noise drums)",
                        place(event.tick),
                        note_name(key)
                    )));
                };
                let note = Note {
                    start: event.tick,
                    end: event.tick,
                    key,
                    velocity,
                    program: program[slot],
                    fade_controller: fade_controller[slot],
                    track: event.track,
                };
                check_playable(channel, &note, &place(event.tick))?;
                if channel == Channel::Noise {
                    // Drum lengths do not matter, only two hits at one time.
                    if let Some(last) = notes[3].last() {
                        if last.start == note.start {
                            return Err(two_at_once(&place(event.tick), last, &note));
                        }
                    }
                    notes[3].push(note);
                    continue;
                }
                if let Some(other) = &sounding[slot] {
                    return Err(two_at_once(&place(event.tick), other, &note));
                }
                sounding[slot] = Some(note);
            }
            MidiMessage::NoteOn { key, .. } | MidiMessage::NoteOff { key, .. } => {
                let Some(channel) = Channel::from_midi_channel(midi_channel) else {
                    continue;
                };
                if channel == Channel::Noise {
                    if let Some(last) = notes[3].last_mut() {
                        if last.key == key.as_int() && last.end == last.start {
                            last.end = event.tick;
                        }
                    }
                    continue;
                }
                if sounding[slot]
                    .as_ref()
                    .is_some_and(|note| note.key == key.as_int())
                {
                    let mut note = sounding[slot].take().expect("checked above");
                    note.end = event.tick;
                    notes[channel as usize].push(note);
                }
            }
            _ => {}
        }
    }
    // A note without its note-off has no length to go by (taking the end of its track
    // made a lost note-off a silent 1-frame note).
    for (slot, open) in sounding.iter().enumerate() {
        if let Some(note) = open {
            let place = Place {
                midi: &midi,
                track: note.track,
                midi_channel: slot as u8,
                tick: None,
            };
            return Err(MidiError(format!(
                "{place}: note {} from {} never ends: it has no note-off (nor a note-on with \
                 velocity 0)",
                note_name(note.key),
                midi.bar_and_beat(note.start)
            )));
        }
    }
    for channel_notes in &mut notes {
        channel_notes.sort_by_key(|note| note.start);
    }
    midi.notes = notes;
    midi.loop_tick = loop_place.map(|(tick, _)| tick);
    Ok(midi)
}

/// Sets the value in effect from `tick` on in a change list.
fn set_at<T>(changes: &mut Vec<(u64, T)>, tick: u64, value: T) {
    match changes.iter_mut().find(|change| change.0 == tick) {
        Some(existing) => existing.1 = value,
        None => changes.push((tick, value)),
    }
}

fn two_at_once(place: &Place, earlier: &Note, later: &Note) -> MidiError {
    let what = if Channel::from_midi_channel(place.midi_channel) == Some(Channel::Noise) {
        "two drum notes at once"
    } else {
        "two notes at once"
    };
    let while_ = if earlier.start == later.start {
        format!(
            "{} and {} start together",
            note_name(earlier.key),
            note_name(later.key)
        )
    } else {
        format!(
            "{} starts while {} (from {}) still sounds",
            note_name(later.key),
            note_name(earlier.key),
            place.midi.bar_and_beat(earlier.start)
        )
    };
    MidiError(format!(
        "{place}: {what}: {while_}; a Game Boy channel plays one note at a time"
    ))
}

/// Checks that `channel` can play `note`: its range, its program, its drum sound.
fn check_playable(channel: Channel, note: &Note, place: &Place) -> Result<(), MidiError> {
    let key = note.key;
    match channel {
        Channel::Noise => {
            if drum_index(key).is_none() {
                return Err(MidiError(format!(
                    "{place}: drum note {key} ({}) has no noise sound; the kit plays {}",
                    note_name(key),
                    drum_kit_list()
                )));
            }
        }
        Channel::Pulse1 | Channel::Pulse2 | Channel::Wave => {
            let lowest = channel.lowest_note();
            let highest = lowest + PERIOD_TABLE_LENGTH - 1;
            if !(lowest..=highest).contains(&key) {
                return Err(MidiError(format!(
                    "{place}: note {} is out of range: {} plays {} to {}",
                    note_name(key),
                    channel.name(),
                    note_name(lowest),
                    note_name(highest)
                )));
            }
            if usize::from(note.program) >= DUTIES.len() {
                let meaning = match channel {
                    Channel::Wave => "choose the wave shape (triangle, sawtooth, square, sine)",
                    _ => "choose the duty cycle (12.5%, 25%, 50%, 75%)",
                };
                return Err(MidiError(format!(
                    "{place}: program {} has no sound on {}: programs 1-4 {meaning}",
                    u16::from(note.program) + 1,
                    channel.name()
                )));
            }
        }
    }
    Ok(())
}
