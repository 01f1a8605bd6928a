//! A chess clock run down in emulated time (asm/ui/clock.asm): from the title screen,
//! which leaves the clocks alone, White's clock set to a whole number of minutes runs
//! until its flag falls. Checked on the way: the seconds the clock counts at the last
//! VBlank before given seconds have passed, m:ss on the tile map where each side's
//! clock sits, the flag falling at the first tick whose count reaches the clock's time
//! (within a tenth of a second of it), and nothing running off once it has fallen.

use anyhow::{ensure, Context, Result};
use engine_src::Color;

use super::cartridge::{
    clock_seconds, drain_vram_queue, set_clock_seconds, tile_text, title_between_updates,
};
use crate::harness::{Machine, Registers, CYCLES_PER_FRAME, CYCLES_PER_SECOND};
use crate::progress::Progress;

/// The clock's values the run reads, by name from the ROM's symbols once at the start
/// (asm/include/clock.inc, asm/include/layout.inc).
struct Values {
    /// wClockSide while no clock runs, and White's side (COLOR_WHITE).
    stopped: u8,
    white: u8,
    /// wFlagFell once White's flag has fallen.
    fell_white: u8,
    /// The clock a game starts with.
    start_seconds: u16,
    /// The panel's column and the rows of the top and bottom clocks.
    x: u16,
    top_y: u16,
    bottom_y: u16,
}

impl Values {
    /// Reads the values; fails naming a constant the ROM does not export.
    fn read(machine: &Machine) -> Result<Values> {
        let symbols = machine.symbols();
        let value = |name: &str| symbols.exported_as::<u16>(name);
        let byte = |name: &str| symbols.exported_as::<u8>(name);
        Ok(Values {
            stopped: byte("CLOCK_STOPPED")?,
            white: byte("COLOR_WHITE")?,
            fell_white: byte("FLAG_FELL_WHITE")?,
            start_seconds: value("CLOCK_START_SECONDS")?,
            x: value("CLOCK_X")?,
            top_y: value("CLOCK_TOP_Y")?,
            bottom_y: value("CLOCK_BOTTOM_Y")?,
        })
    }
}

/// The tiles of m:ss.
const M_SS_WIDTH: usize = 5;

/// What a run measured: the VBlank (counted from the one the clock started in) whose
/// tick made the flag fall, and how long after the clock started that was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockRun {
    pub seconds: u16,
    pub flag_fell_at_tick: u64,
    pub elapsed_seconds: f64,
}

/// The ticks of the VBlank handler until the count of 17,556 machine cycles a frame
/// first reaches `seconds` seconds of 1,048,576 machine cycles: the tick the flag falls.
pub fn ticks_until(seconds: u16) -> u64 {
    (u64::from(seconds) * CYCLES_PER_SECOND).div_ceil(CYCLES_PER_FRAME)
}

/// The last tick whose count stays below `seconds` seconds.
fn last_tick_before(seconds: u16) -> u64 {
    ticks_until(seconds) - 1
}

/// The seconds a clock of `start` seconds shows after `ticks` ticks.
fn seconds_after(start: u16, ticks: u64) -> u16 {
    start - (ticks * CYCLES_PER_FRAME / CYCLES_PER_SECOND) as u16
}

/// m:ss as the clock shows it, the minutes right-aligned in two places.
fn m_ss(seconds: u16) -> String {
    format!("{:>2}:{:02}", seconds / 60, seconds % 60)
}

/// White's and Black's counts of seconds.
fn seconds(machine: &Machine) -> Result<(u16, u16)> {
    Ok((
        clock_seconds(machine, Color::White)?,
        clock_seconds(machine, Color::Black)?,
    ))
}

/// Queues the clocks that changed (DrawClocks, called between two screen updates) and
/// copies them to the tile map; gives the top and bottom clocks' text.
fn shown(machine: &mut Machine, values: &Values) -> Result<(String, String)> {
    machine.run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)?;
    let registers = machine.registers();
    machine.set_registers(&Registers {
        af: 0,
        bc: 0,
        de: 0,
        hl: 0,
        ..registers
    });
    machine.call("DrawClocks", 20 * CYCLES_PER_FRAME)?;
    drain_vram_queue(machine, 2)?;
    Ok((
        tile_text(machine, values.x, values.top_y, M_SS_WIDTH)?,
        tile_text(machine, values.x, values.bottom_y, M_SS_WIDTH)?,
    ))
}

/// Runs White's clock down from `minutes` minutes (1 to 10) in `machine`, freshly powered
/// on, checking it on the way (see the module documentation); fails on the first check
/// that does not hold. `progress` advances a step per frame.
pub fn run_down(machine: &mut Machine, minutes: u16, progress: &Progress) -> Result<ClockRun> {
    let values = Values::read(machine)?;
    let full_seconds = values.start_seconds;
    let start_seconds = minutes * 60;
    ensure!(
        (60..=full_seconds).contains(&start_seconds),
        "a clock runs from 1 to {} minutes, not {minutes}",
        full_seconds / 60
    );
    title_between_updates(machine, 10)?;
    // Start-up reset the clocks to the game's start, stopped.
    ensure!(
        seconds(machine)? == (full_seconds, full_seconds),
        "start-up left the clocks at {:?} seconds",
        seconds(machine)?
    );
    ensure!(
        machine.read_u8("wClockSide")? == values.stopped,
        "a clock runs after start-up"
    );
    let full = m_ss(full_seconds);
    ensure!(
        shown(machine, &values)? == (full.clone(), full.clone()),
        "the clocks do not show {full} after start-up"
    );
    set_clock_seconds(machine, Color::White, start_seconds)?;

    // White's clock runs from the VBlank now beginning: at the n-th VBlank from here,
    // its handler has ticked it n times.
    machine.run_frames(1)?;
    machine.write_u8("wClockSide", values.white)?;
    let start = machine.cycles();
    let ticks =
        |machine: &Machine| (machine.cycles() - start + CYCLES_PER_FRAME / 2) / CYCLES_PER_FRAME;
    let mut checkpoints = vec![1, start_seconds / 2, start_seconds - 1];
    if start_seconds >= 120 {
        checkpoints.push(start_seconds - 60);
    }
    checkpoints.sort_unstable();
    checkpoints.dedup();
    for passed in checkpoints {
        let at = last_tick_before(passed);
        let now = ticks(machine);
        machine.run_frames((at - now) as u32)?;
        progress.advance(at - now);
        ensure!(ticks(machine) == at, "{} ticks, not {at}", ticks(machine));
        let want = seconds_after(start_seconds, at);
        ensure!(
            seconds(machine)? == (want, full_seconds),
            "after {at} VBlanks the clocks count {:?} seconds, not {:?}",
            seconds(machine)?,
            (want, full_seconds)
        );
        // DrawClocks runs after the next VBlank's tick, where the second turns.
        let want = m_ss(seconds_after(start_seconds, at + 1));
        let shown = shown(machine, &values)?;
        ensure!(
            shown == (full.clone(), want.clone()),
            "after {} VBlanks the clocks show {shown:?}, not Black's {full} at the top \
             and White's {want} at the bottom",
            at + 1
        );
        machine.run_frames(1)?;
        progress.advance(1);
    }

    let want_fall = ticks_until(start_seconds);
    let mut fell_at = None;
    while ticks(machine) < want_fall + 60 {
        machine.run_frames(1)?;
        progress.advance(1);
        if machine.read_u8("wFlagFell")? != 0 {
            fell_at = Some(ticks(machine));
            break;
        }
        ensure!(
            seconds(machine)?.0 >= 1,
            "White's clock shows 0:00 at tick {} before the flag fell",
            ticks(machine)
        );
    }
    let fell_at = fell_at
        .with_context(|| format!("the flag did not fall within {} ticks", want_fall + 60))?;
    ensure!(
        fell_at == want_fall,
        "the flag fell at tick {fell_at}, not at {want_fall}: the first whose count \
         reaches {start_seconds} seconds"
    );
    // The first tick counts the whole of the frame it started in.
    let elapsed = ((fell_at - 1) * CYCLES_PER_FRAME) as f64 / CYCLES_PER_SECOND as f64;
    ensure!(
        (elapsed - f64::from(start_seconds)).abs() < 0.1,
        "the flag fell {elapsed:.4} s after the clock started, not within 0.1 s of \
         {start_seconds}"
    );
    ensure!(
        machine.read_u8("wFlagFell")? == values.fell_white,
        "the flag fell, but not White's"
    );
    ensure!(
        machine.read_u8("wClockSide")? == values.stopped,
        "the clock runs on after the flag fell"
    );
    ensure!(
        seconds(machine)? == (0, full_seconds),
        "the clocks count {:?} seconds after the flag fell",
        seconds(machine)?
    );
    let zero = m_ss(0);
    ensure!(
        shown(machine, &values)? == (full.clone(), zero.clone()),
        "the clocks do not show {full} and {zero} after the flag fell"
    );
    // Stopped: nothing more runs off.
    machine.run_frames(120)?;
    ensure!(
        seconds(machine)? == (0, full_seconds),
        "the clocks ran on after the flag fell"
    );
    machine.assert_no_violations()?;
    Ok(ClockRun {
        seconds: start_seconds,
        flag_fell_at_tick: fell_at,
        elapsed_seconds: elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_of_ten_minutes_falls_at_the_35837th_tick_and_of_one_at_the_3584th() {
        // 600 s are 629,145,600 machine cycles: 35,836.04 frames.
        assert_eq!(ticks_until(600), 35_837);
        assert_eq!(ticks_until(60), 3_584);
        assert_eq!(last_tick_before(1), 59);
        assert_eq!(seconds_after(600, 35_776), 2);
        assert_eq!(m_ss(600), "10:00");
        assert_eq!(m_ss(59), " 0:59");
    }
}
