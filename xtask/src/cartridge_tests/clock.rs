//! The chess clocks (asm/ui/clock.asm): a minute of emulated time on a clock (ten in
//! `cargo xtask soak`), the flag falling within a tenth of a second of it, m:ss on the
//! tile map, and what TickClocks costs the VBlank handler.

use engine_src::Color;

use super::support::{
    call_producer, clock_seconds, clock_text, constant, drain, queued_bytes, set_clock_seconds,
    title_between_updates, white_flag_falls_at_next_vblank, ClockRow, Mode,
};
use crate::harness::{Machine, CYCLES_PER_FRAME, CYCLES_PER_SECOND};
use crate::progress::Progress;

/// `CLOCK_STOPPED` and a `FLAG_FELL_*` value of asm/include/clock.inc.
fn clock_stopped(machine: &Machine) -> u8 {
    constant(machine, "CLOCK_STOPPED")
}

fn flag_fell(machine: &Machine, side: &str) -> u8 {
    constant(machine, &format!("FLAG_FELL_{side}"))
}

/// White's and Black's seconds.
fn seconds(machine: &Machine) -> (u16, u16) {
    (
        clock_seconds(machine, Color::White),
        clock_seconds(machine, Color::Black),
    )
}

/// Sets White's and Black's seconds.
fn set_seconds(machine: &mut Machine, white: u16, black: u16) {
    set_clock_seconds(machine, Color::White, white);
    set_clock_seconds(machine, Color::Black, black);
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

/// A minute of White's clock through the code `cargo xtask soak` runs for ten
/// ([`crate::soak::clock`]): 1:00 to 0:00 on the tile map, the flag falling at the
/// 3,584th VBlank, the first whose count reaches 60 seconds (60.0059 s counted, the first
/// tick having counted the whole of the frame it started in): 59.9891 s after the
/// clock started.
#[test]
fn a_minute_takes_a_clock_from_1_00_to_0_00_and_the_flag_falls_within_a_tenth_of_a_second() {
    let mut machine = super::support::machine(&super::support::cartridge());
    let progress = Progress::new("a clock run down from 1:00", 3_584);
    let run = crate::soak::clock::run_down(&mut machine, 1, &progress)
        .unwrap_or_else(|error| panic!("{error:#}"));
    println!("{run:?}");
    assert_eq!(run.flag_fell_at_tick, 3_584);
    assert!((run.elapsed_seconds - 59.9891).abs() < 0.0001, "{run:?}");
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
        set_seconds(&mut machine, white, black);
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
    set_seconds(&mut machine, 59, 589);
    assert_eq!(
        shown(&mut machine),
        (" 0:59".to_owned(), " 9:49".to_owned())
    );
    machine.assert_no_violations().unwrap();
}

/// Black's flag falls too, and what TickClocks costs (its cycles without its `call`):
/// each way costs more than the one before, stopped, running, a second passing, the
/// flag falling, so the flag falling is its worst, the way the VBlank handler's worst
/// case takes (`white_flag_falls_at_next_vblank`; cartridge_tests/home.rs shows that
/// case ends before VBlank does).
#[test]
fn tick_clocks_costs_and_blacks_flag() {
    // Between the music's frame and the next VBlank, where no interrupt comes.
    let mut machine = title_between_updates();
    machine
        .run_until("StatHandler", 2 * CYCLES_PER_FRAME)
        .unwrap();
    machine.run_cycles(2_000).unwrap();
    let full: u16 = constant(&machine, "CLOCK_START_SECONDS");
    let tick = |machine: &mut Machine| machine.call("TickClocks", 1_000).unwrap();
    let stopped = tick(&mut machine);
    let black = constant::<u8>(&machine, "COLOR_BLACK");
    machine.write_u8("wClockSide", black).unwrap();
    let running = tick(&mut machine);
    let cycles = (CYCLES_PER_SECOND - CYCLES_PER_FRAME).to_le_bytes();
    machine
        .write("wClockCycles", &[0, 0, 0, cycles[0], cycles[1], cycles[2]])
        .unwrap();
    let second = tick(&mut machine);
    assert_eq!(seconds(&machine), (full, full - 1));
    assert_eq!(machine.read_u8("wFlagFell").unwrap(), 0);
    machine
        .write("wClockCycles", &[0, 0, 0, cycles[0], cycles[1], cycles[2]])
        .unwrap();
    set_seconds(&mut machine, full, 1);
    let fall = tick(&mut machine);
    println!(
        "TickClocks: {stopped} machine cycles stopped, {running} running, {second} with a \
         second passing, {fall} with the flag falling"
    );
    assert!(
        stopped < running && running < second && second < fall,
        "TickClocks' ways do not cost more and more: {stopped}, {running}, {second}, {fall}"
    );
    assert_eq!(seconds(&machine), (full, 0));
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
