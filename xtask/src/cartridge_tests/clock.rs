//! The chess clocks (asm/ui/clock.asm): ten minutes of emulated time on a clock, the
//! flag falling within a tenth of a second of them, m:ss on the tile map, and what
//! TickClocks costs the VBlank handler.

use super::support::{
    call_producer, clock_text, constant, drain, queued_bytes, title_between_updates,
    white_flag_falls_at_next_vblank, ClockRow, Mode,
};
use crate::harness::{Machine, CYCLES_PER_FRAME, CYCLES_PER_SECOND};

/// `CLOCK_STOPPED` and a `FLAG_FELL_*` value of asm/include/clock.inc.
fn clock_stopped(machine: &Machine) -> u8 {
    constant(machine, "CLOCK_STOPPED")
}

fn flag_fell(machine: &Machine, side: &str) -> u8 {
    constant(machine, &format!("FLAG_FELL_{side}"))
}

fn seconds(machine: &Machine) -> (u16, u16) {
    let bytes = machine.read("wClockSeconds", 4).unwrap();
    (
        u16::from_le_bytes([bytes[0], bytes[1]]),
        u16::from_le_bytes([bytes[2], bytes[3]]),
    )
}

/// The seconds a clock shows after `frames` VBlanks of running: 600 less the whole
/// seconds of 17,556 machine cycles a frame, 1,048,576 a second.
fn expected_seconds(frames: u64) -> u16 {
    600 - (frames * CYCLES_PER_FRAME / CYCLES_PER_SECOND) as u16
}

/// Queues the clocks that changed and copies them to the tile map; gives the top and
/// bottom clocks' text.
fn shown(machine: &mut Machine) -> (String, String) {
    machine
        .run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)
        .unwrap();
    call_producer(machine, "DrawClocks", 0, 0, 0, 0);
    drain(machine, 2);
    (
        clock_text(machine, ClockRow::Top),
        clock_text(machine, ClockRow::Bottom),
    )
}

#[test]
fn ten_minutes_take_a_clock_from_10_00_to_0_00_and_the_flag_falls_within_a_tenth_of_a_second() {
    // On the title screen, which leaves the clocks alone. Start-up reset them.
    let mut machine = title_between_updates();
    assert_eq!(seconds(&machine), (600, 600));
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        clock_stopped(&machine)
    );
    assert_eq!(
        shown(&mut machine),
        ("10:00".to_owned(), "10:00".to_owned())
    );

    // White's clock runs from the VBlank now beginning: at the n-th VBlank from here,
    // its handler has ticked it n times.
    machine.run_frames(1).unwrap();
    machine.write_u8("wClockSide", 0).unwrap();
    let start = machine.cycles();
    let ticks =
        |machine: &Machine| (machine.cycles() - start + CYCLES_PER_FRAME / 2) / CYCLES_PER_FRAME;
    for at in [59, 3_584, 32_252, 35_776] {
        let now = ticks(&machine);
        machine.run_frames((at - now) as u32).unwrap();
        assert_eq!(ticks(&machine), at);
        assert_eq!(
            seconds(&machine),
            (expected_seconds(at), 600),
            "after {at} VBlanks"
        );
        // DrawClocks runs after the next VBlank's tick.
        let expected = expected_seconds(at + 1);
        assert_eq!(
            shown(&mut machine),
            (
                "10:00".to_owned(),
                format!("{:>2}:{:02}", expected / 60, expected % 60)
            ),
            "Black's clock at the top, White's at the bottom, after {} VBlanks",
            at + 1
        );
        machine.run_frames(1).unwrap();
    }

    // The flag falls at the 35,837th tick: the first whose count passes 600 seconds
    // (600.0084 s counted, the first tick having counted the whole of the frame it
    // started in), in the VBlank 35,836 frames after the clock started: 599.9916 s.
    let mut fell_at = None;
    while ticks(&machine) < 35_900 {
        machine.run_frames(1).unwrap();
        if machine.read_u8("wFlagFell").unwrap() != 0 {
            fell_at = Some(ticks(&machine));
            break;
        }
        assert!(seconds(&machine).0 >= 1, "0:00 before the flag fell");
    }
    let fell_at = fell_at.expect("the flag did not fall");
    assert_eq!(fell_at, 35_837, "ticks until the flag fell");
    let elapsed = ((fell_at - 1) * CYCLES_PER_FRAME) as f64 / CYCLES_PER_SECOND as f64;
    assert!(
        (elapsed - 600.0).abs() < 0.1,
        "the flag fell {elapsed:.4} s after the clock started, not within 0.1 s of 600"
    );
    assert_eq!(
        machine.read_u8("wFlagFell").unwrap(),
        flag_fell(&machine, "WHITE")
    );
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        clock_stopped(&machine)
    );
    assert_eq!(seconds(&machine), (0, 600));
    assert_eq!(
        shown(&mut machine),
        ("10:00".to_owned(), " 0:00".to_owned())
    );
    // Stopped: nothing more runs off.
    machine.run_frames(120).unwrap();
    assert_eq!(seconds(&machine), (0, 600));
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_clocks_show_m_ss_where_their_side_sits_and_are_drawn_only_when_they_change() {
    let mut machine = title_between_updates();
    assert_eq!(
        shown(&mut machine),
        ("10:00".to_owned(), "10:00".to_owned())
    );
    // Nothing changed: nothing queued.
    machine
        .run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)
        .unwrap();
    call_producer(&mut machine, "DrawClocks", 0, 0, 0, 0);
    assert_eq!(
        queued_bytes(&machine),
        0,
        "DrawClocks queued a clock that had not changed"
    );
    // Black (the top clock) at 9:05, White at 0:59; then 1:00 and 10:00 (the widest).
    for (white, black, top, bottom) in [
        (59, 545, " 9:05", " 0:59"),
        (60, 600, "10:00", " 1:00"),
        (0, 1, " 0:01", " 0:00"),
    ] {
        let mut bytes = Vec::new();
        bytes.extend(u16::to_le_bytes(white));
        bytes.extend(u16::to_le_bytes(black));
        machine.write("wClockSeconds", &bytes).unwrap();
        assert_eq!(
            shown(&mut machine),
            (top.to_owned(), bottom.to_owned()),
            "White {white} s, Black {black} s"
        );
    }
    // Playing Black, the human's side is at the bottom: Black's clock there.
    let black = Mode::Black.value(&machine);
    machine.write_u8("wGameMode", black).unwrap();
    call_producer(&mut machine, "ResetClocks", 0, 0, 0, 0);
    machine
        .write("wClockSeconds", &[0x3B, 0, 0x4D, 0x02])
        .unwrap();
    assert_eq!(
        shown(&mut machine),
        (" 0:59".to_owned(), " 9:49".to_owned())
    );
    machine.assert_no_violations().unwrap();
}

/// Black's flag falls too, and TickClocks' cycles (without its `call`): stopped, running,
/// a second passing, the flag falling.
#[test]
fn tick_clocks_costs_and_blacks_flag() {
    // Between the music's frame and the next VBlank, where no interrupt comes.
    let mut machine = title_between_updates();
    machine
        .run_until("StatHandler", 2 * CYCLES_PER_FRAME)
        .unwrap();
    machine.run_cycles(2_000).unwrap();
    let tick = |machine: &mut Machine| machine.call("TickClocks", 1_000).unwrap();
    assert_eq!(tick(&mut machine), 11, "stopped");
    let black = constant::<u8>(&machine, "COLOR_BLACK");
    machine.write_u8("wClockSide", black).unwrap();
    assert_eq!(tick(&mut machine), 42, "running");
    let cycles = (CYCLES_PER_SECOND - CYCLES_PER_FRAME).to_le_bytes();
    machine
        .write("wClockCycles", &[0, 0, 0, cycles[0], cycles[1], cycles[2]])
        .unwrap();
    assert_eq!(tick(&mut machine), 65, "a second passing");
    assert_eq!(seconds(&machine), (600, 599));
    assert_eq!(machine.read_u8("wFlagFell").unwrap(), 0);
    machine
        .write("wClockCycles", &[0, 0, 0, cycles[0], cycles[1], cycles[2]])
        .unwrap();
    machine.write("wClockSeconds", &[0x58, 0x02, 1, 0]).unwrap();
    assert_eq!(tick(&mut machine), 78, "the flag falling");
    assert_eq!(seconds(&machine), (600, 0));
    assert_eq!(
        machine.read_u8("wFlagFell").unwrap(),
        flag_fell(&machine, "BLACK")
    );
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        clock_stopped(&machine)
    );
    // The worst case of the handler (cartridge_tests/home.rs) sets this up.
    white_flag_falls_at_next_vblank(&mut machine);
    machine.run_frames(2).unwrap();
    assert_eq!(
        machine.read_u8("wFlagFell").unwrap(),
        flag_fell(&machine, "WHITE")
    );
    machine.assert_no_violations().unwrap();
}
