//! The MIDI mapping on small MIDI files made here with midly: what each channel plays, the
//! frames, the loop, and every error a composer can meet, with its exact message.

use midly::num::{u15, u28, u4, u7};
use midly::{Format, Header, MetaMessage, MidiMessage, Smf, Timing, TrackEvent, TrackEventKind};

use super::encode::Command::{self, End, Envelope, Jump, Note, Rest, Timbre, Wait};
use super::{convert, Channel, Song};

/// Ticks per quarter note of the test files.
const PPQ: u16 = 480;
const QUARTER: u32 = PPQ as u32;
const BAR: u32 = 4 * QUARTER;

/// An event `delta` ticks after the previous one of its track.
type Event = (u32, TrackEventKind<'static>);

fn midi_event(channel: u8, message: MidiMessage) -> TrackEventKind<'static> {
    TrackEventKind::Midi {
        channel: u4::new(channel - 1),
        message,
    }
}

/// Note-on on a MIDI channel numbered as sequencers show it (1-16).
fn on(channel: u8, key: u8, velocity: u8) -> TrackEventKind<'static> {
    midi_event(
        channel,
        MidiMessage::NoteOn {
            key: u7::new(key),
            vel: u7::new(velocity),
        },
    )
}

fn off(channel: u8, key: u8) -> TrackEventKind<'static> {
    midi_event(
        channel,
        MidiMessage::NoteOff {
            key: u7::new(key),
            vel: u7::new(0),
        },
    )
}

/// A program change, numbered as sequencers show it (1-128).
fn program(channel: u8, program: u8) -> TrackEventKind<'static> {
    midi_event(
        channel,
        MidiMessage::ProgramChange {
            program: u7::new(program - 1),
        },
    )
}

fn controller(channel: u8, controller: u8, value: u8) -> TrackEventKind<'static> {
    midi_event(
        channel,
        MidiMessage::Controller {
            controller: u7::new(controller),
            value: u7::new(value),
        },
    )
}

fn meta(message: MetaMessage<'static>) -> TrackEventKind<'static> {
    TrackEventKind::Meta(message)
}

fn name(text: &'static str) -> Event {
    (0, meta(MetaMessage::TrackName(text.as_bytes())))
}

/// A Format 1 file with these tracks.
fn midi_file(tracks: Vec<Vec<Event>>) -> Vec<u8> {
    let mut smf = Smf::new(Header::new(
        Format::Parallel,
        Timing::Metrical(u15::new(PPQ)),
    ));
    for track in tracks {
        let mut events: Vec<TrackEvent> = track
            .into_iter()
            .map(|(delta, kind)| TrackEvent {
                delta: u28::new(delta),
                kind,
            })
            .collect();
        events.push(TrackEvent {
            delta: u28::new(0),
            kind: meta(MetaMessage::EndOfTrack),
        });
        smf.tracks.push(events);
    }
    let mut bytes = Vec::new();
    smf.write_std(&mut bytes).expect("writing to memory");
    bytes
}

fn song(tracks: Vec<Vec<Event>>) -> Song {
    convert("test", "assets/music/test.mid", &midi_file(tracks))
        .unwrap_or_else(|error| panic!("{error:#}"))
}

fn error(tracks: Vec<Vec<Event>>) -> String {
    match convert("test", "assets/music/test.mid", &midi_file(tracks)) {
        Ok(_) => panic!("the file converted"),
        Err(error) => format!("{error:#}"),
    }
}

/// A conductor track at 120 beats per minute (a quarter note is 29.86 frames).
fn conductor() -> Vec<Event> {
    vec![
        name("Conductor"),
        (0, meta(MetaMessage::Tempo(500_000.into()))),
        (0, meta(MetaMessage::TimeSignature(4, 2, 24, 8))),
    ]
}

/// Quarter notes, one after another, from tick 0.
fn quarters(channel: u8, keys: &[u8], velocity: u8) -> Vec<Event> {
    let mut events = Vec::new();
    for &key in keys {
        events.push((0, on(channel, key, velocity)));
        events.push((QUARTER, off(channel, key)));
    }
    events
}

#[test]
fn each_midi_channel_plays_on_its_game_boy_channel_with_its_instrument() {
    let song = song(vec![
        conductor(),
        // Pulse 1: program 2 (25%), fade 3 (CC 72 = 48), velocity 127 (volume 15); a
        // quarter of rest between C4 and E4.
        [
            vec![name("Lead"), (0, program(1, 2)), (0, controller(1, 72, 48))],
            quarters(1, &[60], 127),
            vec![(QUARTER, on(1, 64, 127)), (QUARTER, off(1, 64))],
        ]
        .concat(),
        // Pulse 2: the defaults (50%, no fade), velocity 1 (volume 1).
        quarters(2, &[36], 1),
        // Wave: program 4 (sine), velocity 64 (50%); C1 is its lowest note.
        [vec![(0, program(3, 4))], quarters(3, &[24, 95], 64)].concat(),
        // Noise: kick (36) then snare (38); each rings until the next hit or the end.
        quarters(10, &[36, 38], 100),
    ]);
    assert_eq!(
        song.commands(Channel::Pulse1),
        [
            Timbre(0x40),
            Envelope(0xF3),
            Note {
                index: 24,
                frames: 30
            },
            Rest(30),
            Note {
                index: 28,
                frames: 30
            },
            End
        ]
    );
    assert_eq!(
        song.commands(Channel::Pulse2),
        [
            Timbre(0x80),
            Envelope(0x10),
            Note {
                index: 0,
                frames: 30
            },
            Rest(60),
            End
        ]
    );
    assert_eq!(
        song.commands(Channel::Wave),
        [
            Timbre(3),
            Envelope(0x40),
            Note {
                index: 0,
                frames: 30
            },
            Note {
                index: 71,
                frames: 30
            },
            Rest(30),
            End
        ]
    );
    assert_eq!(
        song.commands(Channel::Noise),
        [
            Envelope(0xC1),
            Note {
                index: 0,
                frames: 30
            },
            Envelope(0xC2),
            Note {
                index: 2,
                frames: 60
            },
            End
        ]
    );
    assert_eq!(song.frames, 90);
    assert_eq!(song.loop_frame, None);
    assert_eq!(song.label, "SongTest");
    assert_eq!(song.constant, "SONG_TEST");
}

#[test]
fn frames_are_rounded_from_the_start_so_rounding_never_accumulates() {
    // 100 quarter notes at 120 bpm: 2,986.375 frames; each note starts at the frame nearest
    // its true time, so the durations are 30 or 29 and add up to the rounded total.
    let keys = [60; 100];
    let durations: Vec<u64> = song(vec![conductor(), quarters(1, &keys, 100)])
        .commands(Channel::Pulse1)
        .iter()
        .filter_map(|command| match command {
            Note { frames, .. } => Some(u64::from(*frames)),
            _ => None,
        })
        .collect();
    assert_eq!(durations.len(), 100);
    assert_eq!(durations.iter().sum::<u64>(), 2986);
    let mut start = 0;
    for (index, duration) in durations.iter().enumerate() {
        let exact = (index as f64 + 1.0) * 0.5 * 4_194_304.0 / 70_224.0;
        start += duration;
        assert!(
            (start as f64 - exact).abs() <= 0.5,
            "note {index} ends at frame {start}, its true time is {exact:.2}"
        );
    }
    // A tempo change halfway: the second half of the notes at 60 bpm, twice as long.
    let mut track = conductor();
    track.push((50 * QUARTER, meta(MetaMessage::Tempo(1_000_000.into()))));
    let slower = song(vec![track, quarters(1, &keys, 100)]);
    // 25 s and 50 s: 75 × 59.7275 = 4,479.56 frames.
    assert_eq!(slower.frames, 4480);
}

#[test]
fn a_loop_marker_repeats_the_song_from_there_to_the_end_of_its_last_bar() {
    let mut track = conductor();
    track.push((BAR, meta(MetaMessage::Marker(b"loop"))));
    // Bar 1: a half note; bar 2: a half note from beat 2, so the loop ends at the bar line
    // after it (bar 3).
    let notes = vec![
        (0, on(1, 60, 127)),
        (2 * QUARTER, off(1, 60)),
        (2 * QUARTER + QUARTER, on(1, 62, 127)),
        (2 * QUARTER, off(1, 62)),
    ];
    let song = song(vec![track, notes]);
    // Bar lines at frames 0, 119 (1.99 s), 239; the loop from 119 to 239.
    assert_eq!(song.loop_frame, Some(119));
    assert_eq!(song.frames, 239);
    assert_eq!(song.loop_place.as_deref(), Some("bar 2, beat 1"));
    assert_eq!(
        song.commands(Channel::Pulse1),
        [
            Timbre(0x80),
            Envelope(0xF0),
            Note {
                index: 24,
                frames: 60
            },
            Rest(59),
            // The loop point: the rest goes on after it, then the instrument again before
            // the first note, as the end may have left another.
            Rest(30),
            Timbre(0x80),
            Envelope(0xF0),
            Note {
                index: 26,
                frames: 60
            },
            Rest(30),
            Jump(".pulse1Loop".into())
        ]
    );
}

#[test]
fn notes_longer_than_255_frames_go_on_with_waits() {
    // Four bars of one note at 120 bpm: 477.82 frames.
    let notes = vec![(0, on(2, 60, 127)), (4 * BAR, off(2, 60))];
    let commands: Vec<Command> = song(vec![conductor(), notes])
        .commands(Channel::Pulse2)
        .into_iter()
        .skip(2)
        .collect();
    assert_eq!(
        commands,
        [
            Note {
                index: 24,
                frames: 255
            },
            Wait(223),
            End
        ]
    );
}

#[test]
fn what_the_game_boy_cannot_play_is_an_error_naming_track_channel_bar_and_beat() {
    let lead = |events: Vec<Event>| vec![conductor(), [vec![name("Lead")], events].concat()];
    assert_eq!(
        error(lead(vec![
            (0, on(1, 60, 100)),
            (QUARTER, on(1, 64, 100)),
            (QUARTER, off(1, 60)),
            (0, off(1, 64)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 1 (pulse 1), bar 1, beat 2: \
         two notes at once: E4 starts while C4 (from bar 1, beat 1) still sounds; a Game Boy \
         channel plays one note at a time"
    );
    assert_eq!(
        error(lead(vec![
            (BAR + 240, on(10, 36, 100)),
            (0, on(10, 42, 100)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 10 (noise), bar 2, beat 1 + \
         240/480: two drum notes at once: C2 and F#2 start together; a Game Boy channel plays \
         one note at a time"
    );
    assert_eq!(
        error(lead(vec![
            (3 * BAR, on(2, 120, 100)),
            (QUARTER, off(2, 120))
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 2 (pulse 2), bar 4, beat 1: \
         note C9 is out of range: pulse 2 plays C2 to B7"
    );
    assert_eq!(
        error(lead(vec![(0, on(3, 96, 100)), (QUARTER, off(3, 96))])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 3 (wave), bar 1, beat 1: note \
         C7 is out of range: wave plays C1 to B6"
    );
    assert_eq!(
        error(lead(vec![
            (QUARTER, on(10, 56, 100)),
            (QUARTER, off(10, 56))
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 10 (noise), bar 1, beat 2: drum \
         note 56 (G#3) has no noise sound; the kit plays 35/36 kick, 37 side stick, 38/40 \
         snare, 39 clap, 41/43/45 low tom, 47/48/50 high tom, 42/44 closed hi-hat, 46 open \
         hi-hat, 49/57 crash, 51/59 ride"
    );
    assert_eq!(
        error(lead(vec![(0, on(5, 60, 100)), (QUARTER, off(5, 60))])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 5, bar 1, beat 1: note C4 is on \
         a channel the Game Boy does not play; use MIDI channels 1 (pulse 1), 2 (pulse 2), 3 \
         (wave) and 10 (noise drums)"
    );
    assert_eq!(
        error(lead(vec![
            (0, program(1, 9)),
            (0, on(1, 60, 100)),
            (QUARTER, off(1, 60)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 1 (pulse 1), bar 1, beat 1: \
         program 9 has no sound on pulse 1: programs 1-4 choose the duty cycle (12.5%, 25%, \
         50%, 75%)"
    );
    assert_eq!(
        error(lead(vec![
            (0, program(3, 5)),
            (0, on(3, 60, 100)),
            (QUARTER, off(3, 60)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 3 (wave), bar 1, beat 1: \
         program 5 has no sound on wave: programs 1-4 choose the wave shape (triangle, \
         sawtooth, square, sine)"
    );
    assert_eq!(
        error(lead(vec![
            (0, on(1, 60, 100)),
            (5, off(1, 60)),
            (0, on(1, 62, 100)),
            (QUARTER, off(1, 62)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 1 (pulse 1), bar 1, beat 1 + \
         5/480: D4 comes less than a frame (1/59.7 s) after C4 at bar 1, beat 1; the Game Boy \
         plays at most one note per frame on a channel"
    );
    assert_eq!(
        error(lead(vec![
            (0, on(1, 60, 100)),
            (QUARTER, off(1, 60)),
            (0, on(1, 74, 100)),
            (QUARTER, on(2, 60, 100)),
            (QUARTER, off(2, 60)),
        ])),
        "assets/music/test.mid: track 2 \"Lead\", MIDI channel 1 (pulse 1): note D5 from bar \
         1, beat 2 never ends: it has no note-off (nor a note-on with velocity 0)"
    );
    let mut track = conductor();
    track.push((BAR, meta(MetaMessage::Marker(b"Loop"))));
    assert_eq!(
        error(vec![track, quarters(1, &[60], 100)]),
        "assets/music/test.mid: the loop marker at bar 2, beat 1 is at or after the song's end \
         (bar 2, beat 1): nothing would repeat"
    );
    assert_eq!(
        error(vec![conductor()]),
        "assets/music/test.mid: no notes: the Game Boy plays MIDI channels 1 (pulse 1), 2 \
         (pulse 2), 3 (wave) and 10 (noise drums)"
    );
}

#[test]
fn files_that_are_not_songs_are_errors() {
    let error = convert("x", "assets/music/x.mid", b"RIFF....")
        .err()
        .map(|error| format!("{error:#}"))
        .expect("not a MIDI file");
    assert!(
        error.starts_with("assets/music/x.mid: not a readable MIDI file ("),
        "{error}"
    );
    // Cut short, as a copy that stopped early: in the middle of a track, after the first
    // of the two tracks the header announces, in a chunk's header.
    let whole = midi_file(vec![conductor(), quarters(1, &[60, 62, 64, 65], 100)]);
    let first_track_length = u32::from_be_bytes([whole[18], whole[19], whole[20], whole[21]]);
    let second_track = 14 + 8 + first_track_length as usize;
    let second_track_length = whole.len() - second_track - 8;
    for (cut, problem) in [
        (
            second_track + 12,
            format!(
                "track 2 is {second_track_length} bytes long, but only 4 of them are in the file"
            ),
        ),
        (
            second_track,
            "its header announces 2 tracks, but it holds 1".to_string(),
        ),
        (
            20,
            "it ends 6 bytes into track 1's 8-byte chunk header".to_string(),
        ),
    ] {
        assert_eq!(
            convert("x", "assets/music/x.mid", &whole[..cut])
                .err()
                .map(|error| format!("{error:#}")),
            Some(format!(
                "assets/music/x.mid: the file is cut short: {problem} (it is damaged or was \
                 not copied whole)"
            )),
            "the file cut after {cut} of {} bytes",
            whole.len()
        );
    }
    // Damaged: the first note-on's key byte (after delta time 0 and the status $90) has
    // its top bit set, which no data byte may have.
    assert_eq!(&whole[second_track + 8..second_track + 11], [0, 0x90, 60]);
    let mut damaged = whole.clone();
    damaged[second_track + 10] = 0x80 | 60;
    assert_eq!(
        convert("x", "assets/music/x.mid", &damaged)
            .err()
            .map(|error| format!("{error:#}")),
        Some(
            "assets/music/x.mid: not a readable MIDI file (track 2: malformed midi: malformed \
             event)"
                .to_string()
        )
    );
    let mut smpte = midi_file(vec![quarters(1, &[60], 100)]);
    // The header's division: negative frames per second, ticks per frame.
    smpte[12] = 0xE7;
    smpte[13] = 40;
    assert_eq!(
        convert("x", "assets/music/x.mid", &smpte)
            .err()
            .map(|error| format!("{error:#}")),
        Some(
            "assets/music/x.mid: the file counts time in SMPTE frames; save it with musical \
             time (ticks per quarter note)"
                .to_string()
        )
    );
    assert_eq!(
        super::song_name("assets/music/Title Song.mid", "Title Song")
            .err()
            .map(|error| format!("{error:#}")),
        Some(
            "assets/music/Title Song.mid: a song's file name must be lower-case letters, \
             digits and underscores, starting with a letter (it names the song in the \
             assembly, e.g. title.mid is SONG_TITLE)"
                .to_string()
        )
    );
}

/// A bar played three times is kept once and called three times (3 x 8 bytes become
/// 3 x 3 + 8 + 1), and the stream plays as before; the bar's comment stays in the stream.
#[test]
fn a_passage_that_repeats_is_kept_once_and_called_where_it_plays() {
    use super::encode::{share_repeats, ChannelStream, Line};
    let bar = |index: u8| Line::Command(Note { index, frames: 30 }, String::new());
    let mut lines = vec![
        Line::Command(Timbre(0x80), String::new()),
        Line::Command(Envelope(0xF0), String::new()),
    ];
    for number in 1..=3 {
        lines.push(Line::Comment(format!("bar {number}")));
        lines.extend([bar(24), bar(28), bar(31), bar(36)]);
    }
    lines.push(Line::Command(End, String::new()));
    let plain = ChannelStream {
        channel: Channel::Pulse1,
        lines: lines.clone(),
    };
    let shared = ChannelStream {
        channel: Channel::Pulse1,
        lines: share_repeats(Channel::Pulse1, lines),
    };
    let shown: Vec<String> = shared
        .lines
        .iter()
        .map(|line| match line {
            Line::Label(label) => label.clone(),
            Line::Comment(text) => format!("; {text}"),
            Line::Command(command, _) => command.to_string(),
        })
        .collect();
    let call = "db MUSIC_CALL, LOW(.pulse1Passage1), HIGH(.pulse1Passage1)";
    assert_eq!(
        shown,
        [
            "db MUSIC_TIMBRE, $80",
            "db MUSIC_ENVELOPE, $F0",
            "; bar 1",
            call,
            "; bar 2",
            call,
            "; bar 3",
            call,
            "db MUSIC_END",
            ".pulse1Passage1",
            "db $18, 30",
            "db $1C, 30",
            "db $1F, 30",
            "db $24, 30",
            "db MUSIC_RETURN",
        ]
    );
    assert_eq!((plain.size(), shared.size()), (29, 23));
    assert_eq!(shared.played(), plain.played());
}
