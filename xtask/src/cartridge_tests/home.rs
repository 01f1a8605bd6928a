//! The always-mapped code of asm/home/: the interrupt handlers, the VRAM queue the VBlank
//! handler drains, and the joypad routine.

use super::boot;
use crate::harness::{Button, Machine, Registers, CYCLES_PER_FRAME, CYCLES_PER_SECOND};

/// Runs from the entry of the interrupt handler at `label` to its `reti`, as if the
/// interrupted program held sentinel values, and returns the registers it came back with.
fn registers_after_handler(machine: &mut Machine, label: &str) -> Registers {
    machine
        .run_until(label, 2 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let entry = machine.registers();
    let interrupted = Registers {
        af: 0x12B0,
        bc: 0x3456,
        de: 0x789A,
        hl: 0xBCDE,
        ..entry
    };
    machine.set_registers(&interrupted);
    finish_handler(machine, label);
    Registers {
        pc: interrupted.pc,
        sp: interrupted.sp,
        ..machine.registers()
    }
}

/// From the first instruction of the interrupt handler `label`, where the machine stands,
/// runs until it has returned, and gives the machine cycles that took.
fn finish_handler(machine: &mut Machine, label: &str) -> u64 {
    let entry = machine.registers();
    let resume = machine.read_u16(entry.sp).unwrap();
    let start = machine.cycles();
    while machine.pc() != resume || machine.registers().sp != entry.sp.wrapping_add(2) {
        machine.step().unwrap();
        assert!(
            machine.cycles() - start < CYCLES_PER_FRAME,
            "{label} did not return within a frame"
        );
    }
    machine.cycles() - start
}

#[test]
fn the_interrupt_handlers_give_back_every_register() {
    let mut machine = boot(120);
    for handler in ["VBlankHandler", "StatHandler"] {
        let after = registers_after_handler(&mut machine, handler);
        assert_eq!(
            (after.af, after.bc, after.de, after.hl),
            (0x12B0, 0x3456, 0x789A, 0xBCDE),
            "{handler} changed the interrupted program's registers"
        );
    }
    machine.assert_no_violations().unwrap();
}

// ----- the VRAM queue (asm/home/vblank.asm) -----

/// What the VBlank handler copies from the VRAM queue in one VBlank: an entry counts its
/// length plus `VRAM_QUEUE_ENTRY_COST`.
const VRAM_QUEUE_BUDGET: usize = 72;
const VRAM_QUEUE_ENTRY_COST: usize = 4;
/// The longest entry, which takes the whole budget.
const VRAM_QUEUE_MAX_LENGTH: usize = VRAM_QUEUE_BUDGET - VRAM_QUEUE_ENTRY_COST;
/// The ring's bytes that can hold entries (one of its 256 always stays free).
const VRAM_QUEUE_ROOM: usize = 255;
/// An entry's length and VRAM address.
const VRAM_QUEUE_HEADER: usize = 3;
/// VBlank: lines 144-153, 114 machine cycles each.
const VBLANK_CYCLES: u64 = 10 * 114;
/// The VBlank handler starts this many cycles into VBlank when the main loop waits in
/// `halt`: the wake-up (1), the interrupt dispatch (5) and the jump at $0040 (4).
const VBLANK_HANDLER_START: u64 = 10;
/// Tile map 1 ($9C00): no screen shows it yet, so the tests may fill it.
const TILEMAP1: u16 = 0x9C00;
/// The VBlank handler's cycles, from its first instruction to its `reti`: with the
/// queue empty, the clocks stopped and no key pressed, with the queue empty and a clock
/// running, and the worst: the queue full, a clock's flag falling and a key pressed (a
/// new entry of the press queue).
const VBLANK_HANDLER_EMPTY_QUEUE: u64 = 364;
const VBLANK_HANDLER_CLOCK_RUNNING: u64 = 395;
const VBLANK_HANDLER_WORST: u64 = 1_106;

/// The title screen with the main loop at the start of a round, just after the title's
/// update: a producer of the VRAM queue may run from here.
pub(super) fn title_between_updates() -> Machine {
    let mut machine = boot(10);
    machine
        .run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
}

/// Calls one of the queue's routines with `a`, `c`, `de` and `hl` set, interrupts taken
/// as they come.
pub(super) fn call_producer(machine: &mut Machine, routine: &str, a: u8, c: u8, de: u16, hl: u16) {
    let registers = machine.registers();
    machine.set_registers(&Registers {
        af: u16::from(a) << 8,
        bc: u16::from(c),
        de,
        hl,
        ..registers
    });
    machine
        .call(routine, 20 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{routine}: {error:#}"));
}

/// The bytes queued and not yet copied, as the ring's indices say.
pub(super) fn queued_bytes(machine: &Machine) -> usize {
    let read = machine.read_u8("hVramQueueRead").unwrap();
    let write = machine.read_u8("hVramQueueWrite").unwrap();
    usize::from(write.wrapping_sub(read))
}

/// One VBlank of the queue: how many cycles into VBlank the handler started and how many
/// it took, where the PPU is when it returns, and where the STAT handler (the music) then
/// starts: (frame, LY, mode) for both.
struct QueueVBlank {
    started_after: u64,
    cycles: u64,
    returned_at: (u64, u8, u8),
    music_at: (u64, u8, u8),
}

/// Runs to the start of the next VBlank and through its handler, then to the music.
fn handle_one_vblank(machine: &mut Machine) -> QueueVBlank {
    machine.run_frames(1).unwrap();
    let started_after = machine
        .run_until("VBlankHandler", 100)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let cycles = finish_handler(machine, "VBlankHandler");
    let returned_at = (machine.frames(), machine.ly(), machine.ppu_mode());
    machine
        .run_until("StatHandler", CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let music_at = (machine.frames(), machine.ly(), machine.ppu_mode());
    QueueVBlank {
        started_after,
        cycles,
        returned_at,
        music_at,
    }
}

/// Runs frames until the queue is empty, at most `frames`.
pub(super) fn drain(machine: &mut Machine, frames: u32) {
    for _ in 0..=frames {
        if queued_bytes(machine) == 0 {
            return;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the VRAM queue still holds {} bytes", queued_bytes(machine));
}

/// How a test fills the queue: which routine, and the bytes each entry writes.
#[derive(Clone, Copy, Debug)]
enum Entries {
    /// QueueTiles of `n` bytes each, from the title's tiles in ROM.
    Copies(usize),
    /// QueueFill of `n` bytes each, entry `i` writing the byte `i + 1`.
    Fills(usize),
}

/// Fills the queue with entries of one kind, one after the other in tile map 1, until
/// the next would not fit, and gives the bytes each should leave in VRAM from $9C00 on.
fn fill_queue(machine: &mut Machine, entries: Entries) -> Vec<u8> {
    let source = machine.symbol("PackedTitleTiles").unwrap();
    let (length, size) = match entries {
        Entries::Copies(n) => (n, VRAM_QUEUE_HEADER + n),
        Entries::Fills(n) => (n, VRAM_QUEUE_HEADER + 1),
    };
    let count = VRAM_QUEUE_ROOM / size;
    let mut expected = Vec::new();
    for i in 0..count {
        let at = TILEMAP1 + expected.len() as u16;
        match entries {
            Entries::Copies(_) => {
                let from = source + expected.len() as u16;
                call_producer(machine, "QueueTiles", 0, length as u8, from, at);
                expected.extend(machine.read(from, length).unwrap());
            }
            Entries::Fills(_) => {
                let byte = i as u8 + 1;
                call_producer(machine, "QueueFill", byte, length as u8, 0, at);
                expected.extend(std::iter::repeat_n(byte, length));
            }
        }
    }
    assert_eq!(
        queued_bytes(machine),
        count * size,
        "{entries:?}: the queue did not take every entry before the next VBlank"
    );
    assert!(
        VRAM_QUEUE_ROOM - queued_bytes(machine) < size,
        "{entries:?}: the queue is not full"
    );
    expected
}

/// Sets White's clock running with one second left, a frame's cycles short of it: the
/// next VBlank's TickClocks takes its longest way, the second passing and the flag
/// falling (asm/ui/clock.asm).
pub(super) fn white_flag_falls_at_next_vblank(machine: &mut Machine) {
    let cycles = (CYCLES_PER_SECOND - CYCLES_PER_FRAME).to_le_bytes();
    machine.write("wClockCycles", &cycles[..3]).unwrap();
    machine.write("wClockSeconds", &[1, 0]).unwrap();
    machine.write_u8("wClockSide", 0).unwrap();
}

/// The worst case of the VBlank handler: the queue full of the entries that take the
/// most time within the budget, every one of which then arrives in VRAM, in VBlank, and
/// the music still starts at line 1, while a clock's flag falls (TickClocks' longest
/// way, after the queue) and a key is pressed (ReadJoypad's longest way: a new entry
/// of the press queue; B, which the title ignores). Every entry costs at most 9 cycles per unit of the budget (a
/// copied byte 9, an entry's handling 35 for a copy, 39 for a fill, against
/// VRAM_QUEUE_ENTRY_COST = 4 units), and the longest copy costs exactly that: one
/// of 68 bytes uses the whole budget of 72. 1-byte fills (48 cycles for 5 units) would be
/// worse but for the budget's remainder: 14 of them use 70, and the 15th is looked at
/// and left for the next VBlank.
#[test]
fn a_full_vram_queue_is_copied_within_vblank_and_every_byte_arrives() {
    const VBLANK_MODE: u8 = 1;
    const OAM_SCAN: u8 = 2;
    let mut empty = title_between_updates();
    let report = handle_one_vblank(&mut empty);
    assert_eq!(
        report.cycles, VBLANK_HANDLER_EMPTY_QUEUE,
        "the VBlank handler with the queue empty and the clocks stopped"
    );
    empty.write_u8("wClockSide", 0).unwrap();
    let report = handle_one_vblank(&mut empty);
    assert_eq!(
        report.cycles, VBLANK_HANDLER_CLOCK_RUNNING,
        "the VBlank handler with the queue empty and White's clock running"
    );

    let mut worst = 0;
    for (entries, entry_size, per_vblank, cycles) in [
        (
            Entries::Copies(VRAM_QUEUE_MAX_LENGTH),
            VRAM_QUEUE_HEADER + VRAM_QUEUE_MAX_LENGTH,
            1,
            1_106,
        ),
        (Entries::Copies(1), VRAM_QUEUE_HEADER + 1, 14, 1_075),
        (Entries::Fills(1), VRAM_QUEUE_HEADER + 1, 14, 1_089),
    ] {
        let mut machine = title_between_updates();
        let expected = fill_queue(&mut machine, entries);
        let before = queued_bytes(&machine);
        white_flag_falls_at_next_vblank(&mut machine);
        let write = machine.read_u8("hPadQueueWrite").unwrap();
        machine.press(Button::B);
        let vblank = handle_one_vblank(&mut machine);
        machine.release(Button::B);
        assert_eq!(
            machine.read_u8("hPadQueueWrite").unwrap(),
            (write + 1) % 8,
            "{entries:?}: B did not join the press queue"
        );
        let frame = vblank.returned_at.0;
        assert_eq!(
            (before - queued_bytes(&machine)) / entry_size,
            per_vblank,
            "{entries:?}: entries copied in one VBlank"
        );
        assert_eq!(
            machine.read_u8("wFlagFell").unwrap(),
            1,
            "{entries:?}: White's flag did not fall in that VBlank"
        );
        assert_eq!(
            vblank.started_after, VBLANK_HANDLER_START,
            "{entries:?}: cycles from the start of VBlank to the handler"
        );
        assert_eq!(
            vblank.cycles, cycles,
            "{entries:?}: the VBlank handler's machine cycles with a full queue"
        );
        assert_eq!(
            vblank.returned_at,
            (frame, vblank.returned_at.1, VBLANK_MODE),
            "{entries:?}: the VBlank handler returned after VBlank"
        );
        assert_eq!(
            vblank.music_at,
            (frame, 1, OAM_SCAN),
            "{entries:?}: the music did not start at line 1 after the full queue"
        );
        worst = worst.max(vblank.cycles);
        drain(&mut machine, 8);
        assert_eq!(
            machine.read(TILEMAP1, expected.len()).unwrap(),
            expected,
            "{entries:?}: tile map 1 does not hold every byte queued"
        );
        machine.assert_no_violations().unwrap();
    }
    assert_eq!(worst, VBLANK_HANDLER_WORST);
    // A margin of 20 cycles for the main loop holding interrupts off when VBlank starts.
    assert!(
        VBLANK_HANDLER_START + worst + 20 <= VBLANK_CYCLES,
        "the VBlank handler's worst case, {worst} cycles, leaves no margin"
    );
}

/// A change larger than the queue: QueueTiles waits for room and splits what is longer
/// than an entry, QueueString stops at the end of its string, QueueFill splits a long run,
/// and all of it arrives in VRAM, in order, without breaking the PPU's rules.
#[test]
fn more_than_the_queue_holds_waits_for_room_and_arrives_whole() {
    let mut machine = title_between_updates();
    let start = machine.frames();
    let source = machine.symbol("PackedTitleTiles").unwrap();
    let mut expected = Vec::new();
    for _ in 0..3 {
        let from = source + expected.len() as u16;
        call_producer(
            &mut machine,
            "QueueTiles",
            0,
            200,
            from,
            TILEMAP1 + expected.len() as u16,
        );
        expected.extend(machine.read(from, 200).unwrap());
    }
    let text = machine.symbol("PressStartText").unwrap();
    call_producer(
        &mut machine,
        "QueueString",
        0,
        0,
        text,
        TILEMAP1 + expected.len() as u16,
    );
    expected.extend(text_tiles(&machine, text));
    call_producer(
        &mut machine,
        "QueueFill",
        0xA5,
        180,
        0,
        TILEMAP1 + expected.len() as u16,
    );
    expected.extend([0xA5; 180]);
    assert_eq!(expected.len(), 3 * 200 + 11 + 180);
    // 600 + 11 + 180 bytes in 13 entries (200 = 68 + 68 + 64, 180 = 68 + 68 + 44),
    // costing 72, 72, 68 (three times), 15, then 72, 72, 48 of the 72 a VBlank copies;
    // whole entries only, and no two of them fit one VBlank, so 13 VBlanks, some of them
    // while the producer waited for room. The harness looks at the start of a VBlank,
    // before the handler: it sees the queue empty at the 14th.
    drain(&mut machine, 14);
    assert_eq!(machine.frames() - start, 14, "VBlanks until all was copied");
    assert_eq!(
        machine.read(TILEMAP1, expected.len()).unwrap(),
        expected,
        "tile map 1 does not hold every byte queued"
    );
    machine.assert_no_violations().unwrap();
}

/// With the LCD off (a screen's set-up) no VBlank comes to empty the queue: a producer
/// that finds no room copies the oldest entries to VRAM itself, which is free to write,
/// instead of waiting for ever. What is still queued when the LCD goes back on arrives
/// at the next VBlanks, and nothing breaks the PPU's rules.
#[test]
fn with_the_lcd_off_more_than_the_queue_holds_arrives_without_waiting() {
    let mut machine = title_between_updates();
    let lcdc = machine.read_u8("hLCDC").unwrap();
    machine
        .call("TurnLCDOff", 2 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("TurnLCDOff: {error:#}"));
    assert_eq!(
        machine.read_u8(0xFF40u16).unwrap() & 0x80,
        0,
        "the LCD is off"
    );
    let source = machine.symbol("PackedTitleTiles").unwrap();
    let mut expected = Vec::new();
    // 3 x 200 + 180 bytes, three times what the ring holds: each 200 is 3 entries
    // (68 + 68 + 64 bytes, 209 of the ring's 255), so the second and the third
    // QueueTiles find no room and copy the entries before them; the fill's 3 entries
    // (4 bytes each) fit beside the last 200.
    for _ in 0..3 {
        let from = source + expected.len() as u16;
        let at = TILEMAP1 + expected.len() as u16;
        call_producer(&mut machine, "QueueTiles", 0, 200, from, at);
        expected.extend(machine.read(from, 200).unwrap());
    }
    let at = TILEMAP1 + expected.len() as u16;
    call_producer(&mut machine, "QueueFill", 0x5A, 180, 0, at);
    expected.extend([0x5A; 180]);
    assert_eq!(queued_bytes(&machine), 209 + 3 * 4, "bytes still queued");
    assert_eq!(
        machine.read(TILEMAP1, 400).unwrap(),
        expected[..400],
        "the first two runs were not copied with the LCD off"
    );

    let registers = machine.registers();
    machine.set_registers(&Registers {
        af: u16::from(lcdc) << 8,
        ..registers
    });
    machine.call("TurnLCDOn", 100).unwrap();
    drain(&mut machine, 8);
    assert_eq!(
        machine.read(TILEMAP1, expected.len()).unwrap(),
        expected,
        "tile map 1 does not hold every byte queued"
    );
    machine.assert_no_violations().unwrap();
}

/// A screen change drops what the old screen queued before the LCD goes off: on a DMG
/// the VBlank request TurnLCDOff waits for stays pending while it holds interrupts off,
/// and the handler, run at its `ei` with the LCD off, would copy what is still queued.
/// (boytacean drops that request when the LCD goes off, so the test looks at the queue
/// when TurnLCDOff starts rather than at VRAM only.)
#[test]
fn a_screen_change_drops_what_the_old_screen_queued() {
    let mut machine = title_between_updates();
    let before = machine.read(TILEMAP1, 40).unwrap();
    call_producer(&mut machine, "QueueFill", 0xA5, 40, 0, TILEMAP1);
    assert_eq!(queued_bytes(&machine), VRAM_QUEUE_HEADER + 1);
    // As if the title's update had asked for the board: the main loop's change.
    let change = machine.symbol("RunScreens.change").unwrap();
    let registers = machine.registers();
    machine.set_registers(&Registers {
        pc: change,
        ..registers
    });
    machine
        .run_until("TurnLCDOff", 1_000)
        .unwrap_or_else(|error| panic!("{error:#}"));
    assert_eq!(
        queued_bytes(&machine),
        0,
        "bytes still queued when the LCD goes off"
    );
    machine
        .run_until("RunScreens.setUp", 2 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
    assert_eq!(
        machine.read_u8(0xFF40u16).unwrap() & 0x80,
        0,
        "the LCD is off for the set-up"
    );
    assert_eq!(
        machine.read(TILEMAP1, 40).unwrap(),
        before,
        "the old screen's fill reached tile map 1"
    );
    assert_eq!(queued_bytes(&machine), 0, "bytes queued for the set-up");
    machine.assert_no_violations().unwrap();
}

/// A string's tile numbers up to its TEXT_END ($FF), read from the machine.
fn text_tiles(machine: &Machine, at: u16) -> Vec<u8> {
    let bytes = machine.read(at, 64).unwrap();
    let end = bytes.iter().position(|&b| b == 0xFF).expect("a TEXT_END");
    bytes[..end].to_vec()
}

#[test]
fn read_joypad_sees_the_keys_with_rp1_bits_6_and_7_reading_1() {
    // The harness reads rP1 as a DMG does, bits 7-6 set (boytacean alone reads them as 0):
    // ReadJoypad must mask them off to see the eight keys right.
    let mut machine = boot(10);
    machine.press(Button::A);
    machine.press(Button::Up);
    machine.call("ReadJoypad", 1_000).unwrap();
    // PAD_UP | PAD_A
    assert_eq!(machine.read_u8("hPadHeld").unwrap(), 0x41);
    machine.release(Button::A);
    machine.release(Button::Up);
    machine.press(Button::Start);
    machine.press(Button::Down);
    machine.call("ReadJoypad", 1_000).unwrap();
    // PAD_DOWN | PAD_START
    assert_eq!(machine.read_u8("hPadHeld").unwrap(), 0x88);
    machine.assert_no_violations().unwrap();
}

// ----- the press queue (asm/home/joypad.asm) -----

/// The PAD_* bits of hardware.inc.
pub(super) const PAD_A: u8 = 0x01;
pub(super) const PAD_START: u8 = 0x08;
pub(super) const PAD_RIGHT: u8 = 0x10;
pub(super) const PAD_UP: u8 = 0x40;
/// The press queue's slots: one of them gathers the newest presses, so that the ring
/// holds this many frames' presses before two frames share an entry.
pub(super) const PAD_QUEUE_SIZE: usize = 8;
/// ReadJoypad's machine cycles: no new press and nothing gathered; a press that joins
/// the queue; a press (or presses gathered before) kept while the ring is full.
const READ_JOYPAD_NO_PRESS: u64 = 73;
const READ_JOYPAD_NEW_ENTRY: u64 = 89;
const READ_JOYPAD_RING_FULL: u64 = 85;

/// One frame's read of the keys as the VBlank handler makes it, with `held` down: the
/// cycles ReadJoypad took.
fn read_keys(machine: &mut Machine, held: &[Button]) -> u64 {
    for &button in held {
        machine.press(button);
    }
    let cycles = machine
        .call("ReadJoypad", 1_000)
        .unwrap_or_else(|error| panic!("ReadJoypad: {error:#}"));
    for &button in held {
        machine.release(button);
    }
    cycles
}

/// What TakePadPressed gives.
fn take_pressed(machine: &mut Machine) -> u8 {
    machine
        .call("TakePadPressed", 1_000)
        .unwrap_or_else(|error| panic!("TakePadPressed: {error:#}"));
    (machine.registers().af >> 8) as u8
}

/// What PadQueuedPresses gives: every key the queue holds a press of.
fn queued_presses(machine: &mut Machine) -> u8 {
    machine
        .call("PadQueuedPresses", 1_000)
        .unwrap_or_else(|error| panic!("PadQueuedPresses: {error:#}"));
    (machine.registers().af >> 8) as u8
}

#[test]
fn the_press_queue_keeps_each_frames_presses_in_order_and_merges_only_past_its_size() {
    let mut machine = title_between_updates();
    // No interrupt: only these calls read the keys and take the presses.
    machine.write_u8(0xFFFFu16, 0).unwrap();
    assert_eq!(read_keys(&mut machine, &[]), READ_JOYPAD_NO_PRESS);
    assert_eq!(take_pressed(&mut machine), 0, "an empty queue gives 0");

    // Right, let go, Right again, then A and Up together: three entries, the held key
    // counting once.
    assert_eq!(
        read_keys(&mut machine, &[Button::Right]),
        READ_JOYPAD_NEW_ENTRY
    );
    assert_eq!(read_keys(&mut machine, &[]), READ_JOYPAD_NO_PRESS);
    assert_eq!(
        read_keys(&mut machine, &[Button::Right]),
        READ_JOYPAD_NEW_ENTRY
    );
    assert_eq!(
        read_keys(&mut machine, &[Button::Right]),
        READ_JOYPAD_NO_PRESS
    );
    read_keys(&mut machine, &[Button::A, Button::Up]);
    assert_eq!(machine.read_u8("hPadHeld").unwrap(), PAD_A | PAD_UP);
    read_keys(&mut machine, &[]);
    assert_eq!(queued_presses(&mut machine), PAD_RIGHT | PAD_A | PAD_UP);
    assert_eq!(take_pressed(&mut machine), PAD_RIGHT);
    assert_eq!(take_pressed(&mut machine), PAD_RIGHT);
    assert_eq!(take_pressed(&mut machine), PAD_A | PAD_UP);
    assert_eq!(take_pressed(&mut machine), 0);
    assert_eq!(queued_presses(&mut machine), 0, "a taken slot is cleared");

    // Ten presses of Right while nothing is taken: the ring's 7 entries, then the
    // gathering slot takes the 8th and keeps gathering (START on top of the 9th), and
    // joins the queue once the first is taken.
    for press in 0..10 {
        let keys: &[Button] = if press == 8 {
            &[Button::Right, Button::Start]
        } else {
            &[Button::Right]
        };
        let want = if press < PAD_QUEUE_SIZE - 1 {
            READ_JOYPAD_NEW_ENTRY
        } else {
            READ_JOYPAD_RING_FULL
        };
        assert_eq!(read_keys(&mut machine, keys), want, "press {press}");
        let want = if press < PAD_QUEUE_SIZE - 1 {
            READ_JOYPAD_NO_PRESS
        } else {
            READ_JOYPAD_RING_FULL
        };
        assert_eq!(read_keys(&mut machine, &[]), want, "after press {press}");
    }
    assert_eq!(queued_presses(&mut machine), PAD_RIGHT | PAD_START);
    assert_eq!(take_pressed(&mut machine), PAD_RIGHT);
    // The next read finds room: the gathering slot joins the queue.
    assert_eq!(read_keys(&mut machine, &[]), READ_JOYPAD_NEW_ENTRY);
    let mut taken = Vec::new();
    loop {
        match take_pressed(&mut machine) {
            0 => break,
            keys => taken.push(keys),
        }
    }
    let mut want = vec![PAD_RIGHT; PAD_QUEUE_SIZE - 2];
    want.push(PAD_RIGHT | PAD_START);
    assert_eq!(taken, want, "the entries after the first");
    assert_eq!(queued_presses(&mut machine), 0);
    assert_eq!(read_keys(&mut machine, &[]), READ_JOYPAD_NO_PRESS);
    machine.assert_no_violations().unwrap();
}
