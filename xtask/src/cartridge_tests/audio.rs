//! The audio driver in the emulator: the songs play as their data says, on the right
//! frames, within the driver's cycle budget, and sound effects borrow a channel and give
//! it back.
//!
//! The expected sound comes from decoding the song data in the built ROM (the format of
//! `assets::music`); what the driver did comes from the harness's APU write log.

use std::collections::BTreeMap;

use super::support::{cartridge, constant, machine};
use crate::assets::music::{self, Channel};
use crate::harness::apu_log::ApuWrite;
use crate::harness::{Machine, Registers, CYCLES_PER_FRAME};
use crate::{project, rom};

/// The most machine cycles UpdateAudio may take in one frame.
const DRIVER_BUDGET: u64 = 1_500;

/// The sound registers (asm/include/hardware.inc), read by name from the `.sym` file:
/// the first of each channel (NRx0; the NR20 and NR40 before rNR21 and rNR41 exist but
/// do nothing), channel 3's DAC register NR30, and wave RAM.
struct Apu {
    channel_base: [u16; 4],
    nr10: u16,
    nr30: u16,
    wave_ram: u16,
    wave_size: u16,
}

impl Apu {
    fn of(machine: &Machine) -> Apu {
        let register = |name: &str| constant::<u16>(machine, name);
        Apu {
            channel_base: [
                register("rNR10"),
                register("rNR21") - 1,
                register("rNR30"),
                register("rNR41") - 1,
            ],
            nr10: register("rNR10"),
            nr30: register("rNR30"),
            wave_ram: register("_AUD3WAVERAM"),
            wave_size: register("AUD3WAVE_SIZE"),
        }
    }
}

/// What a channel does in a frame: a note starts (with the registers it starts with), or
/// the channel falls silent.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Pulse {
        duty: u8,
        envelope: u8,
        period: u16,
    },
    Wave {
        shape: [u8; 16],
        level: u8,
        period: u16,
    },
    Noise {
        envelope: u8,
        clock: u8,
    },
    Silence,
}

/// (frame, channel) -> what happens then, in frame order.
type Timeline = BTreeMap<(u64, usize), Event>;

/// Reads the built ROM by address (ROM0 and ROMX bank 1 are all there is).
struct RomReader<'a> {
    rom: &'a [u8],
    machine: &'a Machine,
}

impl RomReader<'_> {
    fn byte(&self, addr: u16) -> u8 {
        self.rom[usize::from(addr)]
    }

    fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.byte(addr), self.byte(addr + 1)])
    }

    fn label(&self, name: &str) -> u16 {
        self.machine
            .symbol(name)
            .unwrap_or_else(|error| panic!("{error:#}"))
    }
}

/// What song `label`'s data asks of each channel in its first `frames` frames, decoded from
/// the ROM as the driver should play it.
fn expected_timeline(rom: &RomReader, label: &str, frames: u64) -> Timeline {
    let song = rom.label(label);
    let (periods, drums, waves) = (
        rom.label("PeriodTable"),
        rom.label("DrumKit"),
        rom.label("WaveShapes"),
    );
    let mut timeline = Timeline::new();
    for (index, channel) in Channel::ALL.into_iter().enumerate() {
        let mut pointer = rom.word(song + 2 * index as u16);
        if pointer == 0 {
            continue;
        }
        let (mut frame, mut timbre, mut envelope) = (0, 0u8, 0u8);
        let mut return_to = 0;
        while frame < frames {
            let command = rom.byte(pointer);
            pointer += 1;
            let mut argument = || {
                pointer += 1;
                rom.byte(pointer - 1)
            };
            let event = match command {
                0x00..=0x7F => {
                    let period = rom.word(periods + 2 * u16::from(command));
                    Some(match channel {
                        Channel::Pulse1 | Channel::Pulse2 => Event::Pulse {
                            duty: timbre,
                            envelope,
                            period,
                        },
                        Channel::Wave => {
                            let shape = waves + 16 * u16::from(timbre);
                            Event::Wave {
                                shape: std::array::from_fn(|i| rom.byte(shape + i as u16)),
                                level: envelope,
                                period,
                            }
                        }
                        Channel::Noise => Event::Noise {
                            envelope,
                            clock: rom.byte(drums + u16::from(command)),
                        },
                    })
                }
                music::REST => Some(Event::Silence),
                music::WAIT => None,
                music::ENVELOPE => {
                    envelope = argument();
                    continue;
                }
                music::TIMBRE => {
                    timbre = argument();
                    continue;
                }
                music::JUMP => {
                    pointer = rom.word(pointer);
                    continue;
                }
                music::CALL => {
                    return_to = pointer + 2;
                    pointer = rom.word(pointer);
                    continue;
                }
                music::RETURN => {
                    pointer = return_to;
                    continue;
                }
                music::END => {
                    timeline.insert((frame, index), Event::Silence);
                    break;
                }
                other => panic!("unknown song command ${other:02X} at ${:04X}", pointer - 1),
            };
            if let Some(event) = event {
                timeline.insert((frame, index), event);
            }
            frame += u64::from(argument());
        }
    }
    timeline.retain(|&(frame, _), _| frame < frames);
    timeline
}

/// What the APU writes (each with the frame it belongs to) did, frame by frame: per channel
/// the last note started in a frame, or silence if it was switched off (its DAC) without a
/// note starting after.
fn actual_timeline(apu: &Apu, writes: &[(u64, ApuWrite)]) -> Timeline {
    let mut registers = [0u8; 0x30];
    let mut timeline = Timeline::new();
    for &(frame, write) in writes {
        let offset = usize::from(write.addr - apu.nr10);
        registers[offset] = write.value;
        let register = |addr: u16| registers[usize::from(addr - apu.nr10)];
        let period =
            |base: u16| u16::from(register(base + 3)) | u16::from(register(base + 4) & 7) << 8;
        for (channel, &base) in apu.channel_base.iter().enumerate() {
            let event = if write.addr == base + 4 && write.value & 0x80 != 0 {
                match channel {
                    0 | 1 => Event::Pulse {
                        duty: register(base + 1) & 0xC0,
                        envelope: register(base + 2),
                        period: period(base),
                    },
                    2 => Event::Wave {
                        shape: std::array::from_fn(|i| register(apu.wave_ram + i as u16)),
                        level: register(base + 2),
                        period: period(base),
                    },
                    _ => Event::Noise {
                        envelope: register(base + 2),
                        clock: register(base + 3),
                    },
                }
            } else if (channel != 2 && write.addr == base + 2 && write.value < 8)
                || (channel == 2 && write.addr == apu.nr30 && write.value & 0x80 == 0)
            {
                Event::Silence
            } else {
                continue;
            };
            timeline.insert((frame, channel), event);
        }
    }
    timeline
}

/// The first difference between two timelines, described.
fn first_difference(expected: &Timeline, actual: &Timeline) -> Option<String> {
    let keys: std::collections::BTreeSet<_> = expected.keys().chain(actual.keys()).collect();
    for key in keys {
        let (frame, channel) = *key;
        let (want, got) = (expected.get(key), actual.get(key));
        if want != got {
            return Some(format!(
                "frame {frame}, {}: the song data says {want:?}, the driver did {got:?}",
                Channel::ALL[channel].name()
            ));
        }
    }
    None
}

/// A machine stopped in the STAT handler at UpdateAudio's first call after power-on: the
/// title song has been requested and nothing played yet. Interrupts are off in the
/// handler, so `Machine::call("UpdateAudio")` from here plays exactly one frame of music.
/// The APU write log is on from here.
fn at_first_update(build: &rom::Build) -> Machine {
    let mut machine = machine(build);
    machine
        .run_until("UpdateAudio", 200 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine.start_apu_log();
    machine
}

/// Runs UpdateAudio once, as frame `frame`, and returns its cycles and APU writes.
fn update(machine: &mut Machine, frame: u64) -> (u64, Vec<(u64, ApuWrite)>) {
    let cycles = machine
        .call("UpdateAudio", 100_000)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let writes = machine.take_apu_log();
    (
        cycles,
        writes.into_iter().map(|write| (frame, write)).collect(),
    )
}

/// Calls a routine of the driver's interface with A set.
fn call_with_a(machine: &mut Machine, routine: &str, a: u8) {
    let registers = machine.registers();
    machine.set_registers(&Registers {
        af: u16::from(a) << 8 | (registers.af & 0xFF),
        ..registers
    });
    machine
        .call(routine, 10_000)
        .unwrap_or_else(|error| panic!("{error:#}"));
}

/// A song's number, from generated/music/music.inc.
fn song_number(name: &str) -> u8 {
    let text = std::fs::read_to_string(project::root().join("generated/music/music.inc"))
        .expect("generated/music/music.inc exists");
    text.lines()
        .find_map(|line| {
            let rest = line.strip_prefix("DEF ")?;
            let (key, value) = rest.split_once(" EQU ")?;
            (key.trim() == name).then(|| value.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("{name} is not in generated/music/music.inc"))
}

/// A sound effect's number, from its `const SFX_...` line in asm/include/audio.inc.
fn sfx(name: &str) -> u8 {
    let text = std::fs::read_to_string(project::root().join("asm/include/audio.inc"))
        .expect("asm/include/audio.inc exists");
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("const "))
        .filter(|constant| constant.starts_with("SFX_"))
        .position(|constant| constant == name)
        .unwrap_or_else(|| panic!("{name} is not in asm/include/audio.inc")) as u8
}

#[test]
fn the_title_song_plays_from_power_on_as_its_data_says() {
    const FRAMES: u64 = 5 * 60;
    let build = cartridge();
    let mut machine = at_first_update(&build);
    // Frame 0 is the frame of the driver's first call: the song's start.
    let start = machine.frames();
    machine.take_audio();
    machine
        .run_frames(FRAMES as u32)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let writes = machine.take_apu_log();
    let audio = machine.take_audio();
    let sounding = audio.iter().filter(|&&sample| sample != 0).count();
    assert!(
        sounding > audio.len() / 2,
        "the audio output is silent most of the time: {sounding} of {} samples",
        audio.len()
    );
    let framed: Vec<_> = writes.iter().map(|&w| (w.frame - start, w)).collect();
    let actual = actual_timeline(&Apu::of(&machine), &framed);
    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };
    let expected = expected_timeline(&reader, "SongTitle", FRAMES);
    assert!(
        expected.len() > 90,
        "the first {FRAMES} frames of the title song have only {} events",
        expected.len()
    );
    if let Some(difference) = first_difference(&expected, &actual) {
        panic!("{difference}");
    }
    // Wave RAM is written only with channel 3 off.
    let apu = Apu::of(&machine);
    let mut wave_on = false;
    for write in &writes {
        if write.addr == apu.nr30 {
            wave_on = write.value & 0x80 != 0;
        }
        assert!(
            !(apu.wave_ram..apu.wave_ram + apu.wave_size).contains(&write.addr) || !wave_on,
            "wave RAM written with channel 3 on, by {}",
            machine.describe(write.pc)
        );
    }
    machine
        .assert_no_violations()
        .unwrap_or_else(|error| panic!("{error:#}"));
}

/// The song `name` as the converter sees it (its length and loop point).
fn converted(name: &str) -> music::Song {
    let path = project::root().join(format!("assets/music/{name}.mid"));
    let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    music::convert(name, name, &bytes).unwrap_or_else(|error| panic!("{error:#}"))
}

/// Plays frames `frames` by calling UpdateAudio once per frame; returns the APU writes with
/// their frames, the worst and the total cycles.
fn play(machine: &mut Machine, frames: std::ops::Range<u64>) -> (Vec<(u64, ApuWrite)>, u64, u64) {
    let (mut worst, mut total) = (0, 0);
    let mut writes = Vec::new();
    for frame in frames {
        let (cycles, frame_writes) = update(machine, frame);
        worst = worst.max(cycles);
        total += cycles;
        writes.extend(frame_writes);
    }
    (writes, worst, total)
}

#[test]
fn both_songs_play_through_their_loop_or_end_within_the_cycle_budget() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };

    // The title, once through and 300 frames into its second time.
    let title = converted("title");
    let loop_frame = title.loop_frame.expect("the title song loops");
    let frames = title.frames + 300;
    let expected = expected_timeline(&reader, "SongTitle", frames);
    let (writes, title_worst, title_total) = play(&mut machine, 0..frames);
    let actual = actual_timeline(&Apu::of(&machine), &writes);
    if let Some(difference) = first_difference(&expected, &actual) {
        panic!("{difference}");
    }
    // The second time round sounds as the first.
    let shifted = |timeline: &Timeline, from: u64, to: u64, by: u64| -> Vec<_> {
        timeline
            .range((from, 0)..(to, 0))
            .map(|(&(frame, channel), event)| (frame - by, channel, event.clone()))
            .collect()
    };
    let period = title.frames - loop_frame;
    assert_eq!(
        shifted(&actual, loop_frame, loop_frame + 300, 0),
        shifted(&actual, title.frames, title.frames + 300, period),
        "the title song's second round differs from its first"
    );

    // The game-over jingle, from a request, to its end and beyond (it falls silent).
    let machine = &mut machine;
    call_with_a(machine, "PlaySong", song_number("SONG_GAME_OVER"));
    let jingle = converted("game_over");
    assert_eq!(jingle.loop_frame, None);
    let frames = jingle.frames + 60;
    let reader = RomReader {
        rom: &build.rom,
        machine,
    };
    let expected = expected_timeline(&reader, "SongGameOver", frames);
    let (writes, jingle_worst, _) = play(machine, 0..frames);
    let actual = actual_timeline(&Apu::of(machine), &writes);
    if let Some(difference) = first_difference(&expected, &actual) {
        panic!("{difference}");
    }
    assert!(
        actual.keys().all(|&(frame, _)| frame <= jingle.frames),
        "the jingle goes on after its end"
    );

    let worst = title_worst.max(jingle_worst);
    eprintln!(
        "UpdateAudio: worst frame {worst} machine cycles, {:.0} on average over the title \
         song ({} bytes) and the jingle ({} bytes)",
        title_total as f64 / (title.frames + 300) as f64,
        title.size(),
        jingle.size()
    );
    assert!(
        worst <= DRIVER_BUDGET,
        "UpdateAudio took {worst} machine cycles in one frame; the budget is {DRIVER_BUDGET}"
    );
}

/// The steps of a sound effect as APU events from its first frame, decoded from the ROM:
/// (the channel, the events, the frames it lasts).
fn effect_timeline(rom: &RomReader, effect: u8) -> (usize, Vec<(u64, Event)>, u64) {
    let mut pointer = rom.word(rom.label("SoundEffects") + 2 * u16::from(effect));
    let channel = usize::from(rom.byte(pointer));
    pointer += 1;
    let (mut frame, mut events) = (0, Vec::new());
    loop {
        let frames = rom.byte(pointer);
        if frames == 0 {
            return (channel, events, frame);
        }
        let r: [u8; 5] = std::array::from_fn(|i| rom.byte(pointer + 1 + i as u16));
        let event = match channel {
            3 => Event::Noise {
                envelope: r[2],
                clock: r[3],
            },
            _ => Event::Pulse {
                duty: r[1] & 0xC0,
                envelope: r[2],
                period: u16::from(r[3]) | u16::from(r[4] & 7) << 8,
            },
        };
        events.push((frame, event));
        frame += u64::from(frames);
        pointer += 6;
    }
}

#[test]
fn sound_effects_borrow_a_channel_from_the_music_and_give_it_back() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    const FRAMES: u64 = 400;
    let (move_at, capture_at) = (100, 250);
    let mut writes = Vec::new();
    let mut writes_at_release = Vec::new();
    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };
    let effects = [(move_at, "SFX_MOVE"), (capture_at, "SFX_CAPTURE")]
        .map(|(start, name)| (start, name, effect_timeline(&reader, sfx(name))));
    let mut expected = expected_timeline(&reader, "SongTitle", FRAMES);
    let mut frame = 0;
    for (start, name, (channel, events, length)) in &effects {
        writes.extend(play(&mut machine, frame..*start).0);
        call_with_a(&mut machine, "PlaySoundEffect", sfx(name));
        writes.extend(play(&mut machine, *start..start + length).0);
        // The frame the effect ends in: its channel is given back.
        let (_, release) = update(&mut machine, start + length);
        writes_at_release.push(release.clone());
        writes.extend(release);
        frame = start + length + 1;

        // While the effect plays the music goes on in time on the other channels; on its
        // channel the effect's steps sound, and at its end the channel is silent unless a
        // note of the music starts just then.
        expected.retain(|&(f, c), _| c != *channel || f < *start || f >= start + length);
        for (offset, event) in events {
            expected.insert((start + offset, *channel), event.clone());
        }
        expected
            .entry((start + length, *channel))
            .or_insert(Event::Silence);
    }
    writes.extend(play(&mut machine, frame..FRAMES).0);
    if let Some(difference) =
        first_difference(&expected, &actual_timeline(&Apu::of(&machine), &writes))
    {
        panic!("{difference}");
    }
    // Giving pulse 1 back: sweep off and the music's duty (12.5% in the title song).
    let restored: Vec<(u16, u8)> = writes_at_release[0]
        .iter()
        .map(|(_, write)| write)
        .filter(|write| (0xFF10..=0xFF12).contains(&write.addr))
        .map(|write| (write.addr, write.value))
        .take(3)
        .collect();
    assert_eq!(restored, [(0xFF10, 0x00), (0xFF11, 0x00), (0xFF12, 0x00)]);
}

#[test]
fn music_off_silences_every_channel_and_on_resumes_in_time() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    let (off_at, on_at, frames) = (60, 160, 300);
    let (mut writes, ..) = play(&mut machine, 0..off_at);
    call_with_a(&mut machine, "SetMusicEnabled", 0);
    writes.extend(play(&mut machine, off_at..on_at).0);
    call_with_a(&mut machine, "SetMusicEnabled", 1);
    writes.extend(play(&mut machine, on_at..frames).0);
    let timeline = actual_timeline(&Apu::of(&machine), &writes);

    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };
    let mut expected = expected_timeline(&reader, "SongTitle", frames);
    expected.retain(|&(frame, _), _| frame < off_at || frame >= on_at);
    for channel in 0..4 {
        expected.insert((off_at, channel), Event::Silence);
    }
    if let Some(difference) = first_difference(&expected, &timeline) {
        panic!("{difference}");
    }
}

/// StopSong (the board screen stops the title song with it): in the frame after the
/// request every channel falls silent and no note of the song follows; sound effects
/// still play on a channel of the stopped music, and a song asked for later plays from
/// its start.
#[test]
fn stop_song_silences_every_channel_and_sound_effects_still_play() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    let (stop_at, effect_at, frames) = (60, 120, 300);
    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };
    let title = expected_timeline(&reader, "SongTitle", frames);
    let (channel, effect, length) = effect_timeline(&reader, sfx("SFX_MOVE"));

    let (mut writes, ..) = play(&mut machine, 0..stop_at);
    call_with_a(&mut machine, "StopSong", 0);
    writes.extend(play(&mut machine, stop_at..effect_at).0);
    call_with_a(&mut machine, "PlaySoundEffect", sfx("SFX_MOVE"));
    writes.extend(play(&mut machine, effect_at..frames).0);

    let mut expected = title.clone();
    expected.retain(|&(frame, _), _| frame < stop_at);
    for channel in 0..4 {
        expected.insert((stop_at, channel), Event::Silence);
    }
    for (offset, event) in effect {
        expected.insert((effect_at + offset, channel), event);
    }
    expected.insert((effect_at + length, channel), Event::Silence);
    assert!(
        title.keys().any(|&(frame, _)| frame >= stop_at),
        "the title song has notes after frame {stop_at}"
    );
    if let Some(difference) =
        first_difference(&expected, &actual_timeline(&Apu::of(&machine), &writes))
    {
        panic!("{difference}");
    }

    // Asked for again, the title song starts from the beginning (the registers it
    // finds, wave RAM among them, are those the first part left).
    call_with_a(&mut machine, "PlaySong", song_number("SONG_TITLE"));
    writes.extend(play(&mut machine, frames..2 * frames).0);
    let again: Timeline = actual_timeline(&Apu::of(&machine), &writes)
        .range((frames, 0)..)
        .map(|(&(frame, channel), event)| ((frame - frames, channel), event.clone()))
        .collect();
    if let Some(difference) = first_difference(&title, &again) {
        panic!("the title song again: {difference}");
    }
}

/// The game-over jingle is a sound effect: with the music off it still sounds, whole; then
/// nothing sounds, and a song asked for later stays silent until the music is turned on
/// (and then plays in time).
#[test]
fn with_the_music_off_the_game_over_jingle_still_sounds_and_then_all_is_silent() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    let reader = RomReader {
        rom: &build.rom,
        machine: &machine,
    };
    let jingle = converted("game_over");
    let jingle_expected = expected_timeline(&reader, "SongGameOver", jingle.frames + 60);
    let title_expected = expected_timeline(&reader, "SongTitle", 600);
    play(&mut machine, 0..30);
    call_with_a(&mut machine, "SetMusicEnabled", 0);
    play(&mut machine, 30..90);

    call_with_a(&mut machine, "PlaySoundEffect", sfx("SFX_GAME_OVER"));
    let (writes, ..) = play(&mut machine, 0..jingle.frames + 60);
    let actual = actual_timeline(&Apu::of(&machine), &writes);
    let notes = |timeline: &Timeline| {
        timeline
            .values()
            .filter(|event| **event != Event::Silence)
            .count()
    };
    assert!(
        notes(&jingle_expected) >= 20,
        "the jingle has 20 notes or more"
    );
    assert_eq!(
        notes(&actual),
        notes(&jingle_expected),
        "notes played with the music off, notes of the jingle"
    );
    if let Some(difference) = first_difference(&jingle_expected, &actual) {
        panic!("with the music off: {difference}");
    }
    assert!(
        actual.keys().all(|&(frame, _)| frame <= jingle.frames),
        "something sounds after the jingle's end"
    );

    // The title song, asked for with the music still off: not a note.
    call_with_a(&mut machine, "PlaySong", song_number("SONG_TITLE"));
    let (writes, ..) = play(&mut machine, 0..300);
    assert_eq!(
        notes(&actual_timeline(&Apu::of(&machine), &writes)),
        0,
        "notes with the music off"
    );
    // On again: the title song goes on in time.
    call_with_a(&mut machine, "SetMusicEnabled", 1);
    let (writes, ..) = play(&mut machine, 300..600);
    let mut expected = title_expected;
    expected.retain(|&(frame, _), _| frame >= 300);
    let actual = actual_timeline(&Apu::of(&machine), &writes);
    if let Some(difference) = first_difference(&expected, &actual) {
        panic!("the music on again: {difference}");
    }
}

#[test]
fn a_song_and_a_sound_effect_starting_in_one_frame_fit_the_cycle_budget() {
    let build = cartridge();
    let mut machine = at_first_update(&build);
    // The title song starts in this frame (loading its wave shape), and a check sound.
    call_with_a(&mut machine, "PlaySoundEffect", sfx("SFX_CHECK"));
    let (title, _) = update(&mut machine, 0);
    // The jingle (with another wave shape), and a capture sound on the noise channel.
    call_with_a(&mut machine, "PlaySong", song_number("SONG_GAME_OVER"));
    call_with_a(&mut machine, "PlaySoundEffect", sfx("SFX_CAPTURE"));
    let (jingle, _) = update(&mut machine, 1);
    eprintln!(
        "UpdateAudio: {title} machine cycles to start the title song and a sound effect, \
         {jingle} for the jingle and another"
    );
    assert!(
        title.max(jingle) <= DRIVER_BUDGET,
        "{title} and {jingle} cycles"
    );
}

/// The music plays from the STAT interrupt at the start of line 1 (AUDIO_LINE), after
/// VBlank, once a frame: VBlank is left to the main loop's VRAM writes, and the music keeps
/// time however long the main loop is busy.
#[test]
fn the_music_plays_once_a_frame_at_line_1_outside_vblank() {
    const OAM_SCAN: u8 = 2;
    let build = cartridge();
    let mut machine = machine(&build);
    let mut entered_at = Vec::new();
    for budget in [200, 2, 2, 2] {
        machine
            .run_until("StatHandler", budget * CYCLES_PER_FRAME)
            .unwrap_or_else(|error| panic!("{error:#}"));
        entered_at.push((machine.frames(), machine.ly(), machine.ppu_mode()));
        machine
            .run_until("UpdateAudio", 100)
            .unwrap_or_else(|error| panic!("{error:#}"));
    }
    let first = entered_at[0].0;
    assert_eq!(
        entered_at,
        [0, 1, 2, 3].map(|n| (first + n, 1, OAM_SCAN)),
        "(frame, LY, PPU mode) when the STAT handler starts"
    );
}

/// asm/include/hardware.inc names the audio flags as hardware.inc 5 does, per channel
/// (AUD1ENV_UP, AUD4GO_RESTART, ...), with the values Pan Docs gives; the version 4
/// names shared by all channels (AUDENV_UP, AUDHIGH_RESTART, ...) are gone.
#[test]
fn the_audio_flags_have_their_hardware_inc_5_names() {
    use std::fmt::Write;

    let mut v5 = vec![
        ("AUD1SWEEP_UP".to_string(), 0x00),
        ("AUD1SWEEP_DOWN".to_string(), 0x08),
    ];
    for channel in ["AUD1LEN", "AUD2LEN"] {
        for (duty, value) in [("12_5", 0x00), ("25", 0x40), ("50", 0x80), ("75", 0xC0)] {
            v5.push((format!("{channel}_DUTY_{duty}"), value));
        }
    }
    for channel in ["AUD1ENV", "AUD2ENV", "AUD4ENV"] {
        v5.push((format!("{channel}_DOWN"), 0x00));
        v5.push((format!("{channel}_UP"), 0x08));
    }
    for channel in ["AUD1HIGH", "AUD2HIGH", "AUD3HIGH", "AUD4GO"] {
        v5.push((format!("{channel}_RESTART"), 0x80));
        v5.push((format!("{channel}_LENGTH_ON"), 0x40));
        v5.push((format!("{channel}_LENGTH_OFF"), 0x00));
    }
    let v4 = [
        "AUDLEN_DUTY_12_5",
        "AUDLEN_DUTY_25",
        "AUDLEN_DUTY_50",
        "AUDLEN_DUTY_75",
        "AUDENV_DOWN",
        "AUDENV_UP",
        "AUDHIGH_RESTART",
        "AUDHIGH_LENGTH_ON",
        "AUDHIGH_LENGTH_OFF",
    ];
    let mut source = String::from("INCLUDE \"include/hardware.inc\"\n");
    for (name, value) in &v5 {
        writeln!(
            source,
            "IF !DEF({name})\n FAIL \"{name} is not defined\"\nELIF {name} != {value}\n \
             FAIL \"{name} is not {value:#04X}\"\nENDC"
        )
        .expect("writing to a string");
    }
    for name in v4 {
        writeln!(
            source,
            "IF DEF({name})\n FAIL \"{name} is hardware.inc 4's name\"\nENDC"
        )
        .expect("writing to a string");
    }
    let include_dirs = rom::include_dirs(&project::root());
    if let Err(errors) = crate::asm::frontend::assemble_source("names.asm", &source, &include_dirs)
    {
        let errors: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
        panic!("{}", errors.join("\n"));
    }
}
