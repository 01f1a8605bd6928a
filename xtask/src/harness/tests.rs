//! The harness's own tests, on tiny hand-assembled ROMs (each byte commented).

use super::screen::grey;
use super::testrom::TestRom;
use super::*;

/// A ROM whose code at $0150 is `code` (entry: `nop; jp $0150`, 5 machine cycles).
fn boot(code: &[u8]) -> Machine {
    Machine::new(&TestRom::new().at(0x0150, code).build()).unwrap()
}

/// 15 `nop`s: the 60 dots from where the boot ROM hands over (line 153, dot 396) to line 0.
/// Placed first in a test's code, it makes cycle `c + 15` of the test the dot `4c` of line 0,
/// as the harness counted before its start moved to the hand-over.
const TO_LINE_0: [u8; 15] = [0x00; 15];

/// Waits for VBlank by polling LY: `ldh a, [rLY]; cp 144; jr nz, @-4` (6 bytes).
const WAIT_VBLANK: [u8; 6] = [0xF0, 0x44, 0xFE, 0x90, 0x20, 0xFA];

#[test]
fn starts_like_a_dmg_after_its_boot_rom() {
    let machine = boot(&[0x18, 0xFE]);
    assert_eq!(
        machine.registers(),
        Registers {
            pc: 0x0100,
            sp: 0xFFFE,
            af: 0x01B0,
            bc: 0x0013,
            de: 0x00D8,
            hl: 0x014D,
        }
    );
    assert_eq!(machine.read_u8(0xFF40).unwrap(), 0x91);
    assert_eq!(machine.read_u8(0xFF47).unwrap(), 0xFC);
    assert_eq!(machine.read_u8(0xFF0F).unwrap(), 0xE1);
    assert_eq!(machine.read_u8(0xFFFF).unwrap(), 0x00);
    // Line 153 (LY reads 0 there on a DMG, 153 in boytacean), in VBlank, 60 dots from its end.
    assert_eq!((machine.ly(), machine.ppu_mode()), (153, 1));
    assert_eq!((machine.cycles(), machine.frames()), (0, 0));
    // DIV has counted the 17,541 machine cycles the PPU was brought forward by, once per
    // 64: 274, so $12 (a DMG's boot ROM leaves $AB).
    assert_eq!(machine.read_u8(0xFF04).unwrap(), 0x12);
    assert!(!machine.ime());
}

#[test]
fn a_rom_of_the_wrong_size_is_a_clear_error() {
    let error = Machine::new(&[0; 1000]).err().unwrap().to_string();
    assert_eq!(
        error,
        "a ROM must be a whole number of 16 KiB banks and at least 32 KiB; this one is 1000 bytes"
    );
}

/// Machine cycles of every unprefixed opcode (conditional ones when the condition fails;
/// 0 for the $CB prefix and the opcodes the SM83 does not have), from the SM83 opcode table.
const BASE_CYCLES: [[u8; 16]; 16] = [
    [1, 3, 2, 2, 1, 1, 2, 1, 5, 2, 2, 2, 1, 1, 2, 1],
    [1, 3, 2, 2, 1, 1, 2, 1, 3, 2, 2, 2, 1, 1, 2, 1],
    [2, 3, 2, 2, 1, 1, 2, 1, 2, 2, 2, 2, 1, 1, 2, 1],
    [2, 3, 2, 2, 3, 3, 3, 1, 2, 2, 2, 2, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1],
    [2, 3, 3, 4, 3, 4, 2, 4, 2, 4, 3, 0, 3, 6, 2, 4],
    [2, 3, 3, 0, 3, 4, 2, 4, 2, 4, 3, 0, 3, 0, 2, 4],
    [3, 3, 2, 0, 0, 4, 2, 4, 4, 1, 4, 0, 0, 0, 2, 4],
    [3, 3, 2, 1, 0, 4, 2, 4, 3, 2, 4, 1, 0, 0, 2, 4],
];

#[test]
fn boytacean_charges_every_opcode_its_sm83_cycles() {
    for opcode in 0..256 {
        let expected = BASE_CYCLES[opcode / 16][opcode % 16];
        if expected == 0 {
            continue;
        }
        let (_, t_states, name) = boytacean::inst::INSTRUCTIONS[opcode];
        assert_eq!(t_states, expected * 4, "opcode ${opcode:02X} {name}");
    }
    for opcode in 0..256 {
        // CB: 2 cycles on a register, 4 on [hl] (read, modify, write), `bit n, [hl]` 3.
        let expected = match (opcode & 7, opcode >> 6) {
            (6, 1) => 3,
            (6, _) => 4,
            _ => 2,
        };
        let (_, t_states, name) = boytacean::inst::EXTENDED[opcode];
        assert_eq!(t_states, expected * 4, "opcode $CB ${opcode:02X} {name}");
    }
}

#[test]
fn steps_count_machine_cycles_exactly() {
    let rom = TestRom::new()
        .at(
            0x0150,
            &[
                0x00, // $0150 nop
                0x21, 0x00, 0xC0, // $0151 ld hl, $C000
                0x7E, // $0154 ld a, [hl]
                0x77, // $0155 ld [hl], a
                0x36, 0x05, // $0156 ld [hl], 5
                0x34, // $0158 inc [hl]
                0xCB, 0x46, // $0159 bit 0, [hl]
                0xCB, 0xC6, // $015B set 0, [hl]
                0xCB, 0x00, // $015D rlc b
                0xAF, // $015F xor a (Z set)
                0x20, 0x00, // $0160 jr nz, @+2 (not taken)
                0x28, 0x00, // $0162 jr z, @+2 (taken)
                0xC2, 0x00, 0x00, // $0164 jp nz, $0000 (not taken)
                0xCA, 0x6A, 0x01, // $0167 jp z, $016A (taken)
                0xC4, 0x00, 0x00, // $016A call nz, $0000 (not taken)
                0xCD, 0x00, 0x02, // $016D call $0200
                0xCC, 0x02, 0x02, // $0170 call z, $0202 (taken)
                0xC5, // $0173 push bc
                0xC1, // $0174 pop bc
                0x08, 0x10, 0xC0, // $0175 ld [$C010], sp
                0xEA, 0x20, 0xC0, // $0178 ld [$C020], a
                0xE0, 0x80, // $017B ldh [$FF80], a
                0xF0, 0x80, // $017D ldh a, [$FF80]
                0xE8, 0x02, // $017F add sp, 2
                0xE8, 0xFE, // $0181 add sp, -2
                0xF8, 0x00, // $0183 ld hl, sp+0
                0xF9, // $0185 ld sp, hl
                0x21, 0x8A, 0x01, // $0186 ld hl, $018A
                0xE9, // $0189 jp hl
                0x18, 0x00, // $018A jr @+2
                0xD7, // $018C rst $10
                0x3E, 0x01, // $018D ld a, IE_VBLANK
                0xE0, 0xFF, // $018F ldh [rIE], a
                0xAF, // $0191 xor a
                0xE0, 0x0F, // $0192 ldh [rIF], a
                0xFB, // $0194 ei
                0x76, // $0195 halt
                0xF3, // $0196 di
                0x76, // $0197 halt
                0x00, // $0198 nop
                0x18, 0xFE, // $0199 jr @
            ],
        )
        .at(0x0200, &[0xC0, 0xC8, 0xC9]) // ret nz (not taken); ret z (taken); ret
        .at(0x0010, &[0xC9]) // ret
        .at(0x0040, &[0xD9]) // reti
        .build();
    let mut machine = Machine::new(&rom).unwrap();
    let expected: &[(u16, u64)] = &[
        (0x0100, 1), // nop
        (0x0101, 4), // jp n16
        (0x0150, 1), // nop
        (0x0151, 3), // ld hl, n16
        (0x0154, 2), // ld a, [hl]
        (0x0155, 2), // ld [hl], a
        (0x0156, 3), // ld [hl], n8
        (0x0158, 3), // inc [hl]
        (0x0159, 3), // bit 0, [hl]
        (0x015B, 4), // set 0, [hl]
        (0x015D, 2), // rlc b
        (0x015F, 1), // xor a
        (0x0160, 2), // jr nz not taken
        (0x0162, 3), // jr z taken
        (0x0164, 3), // jp nz not taken
        (0x0167, 4), // jp z taken
        (0x016A, 3), // call nz not taken
        (0x016D, 6), // call
        (0x0200, 2), // ret nz not taken
        (0x0201, 5), // ret z taken
        (0x0170, 6), // call z taken
        (0x0202, 4), // ret
        (0x0173, 4), // push
        (0x0174, 3), // pop
        (0x0175, 5), // ld [n16], sp
        (0x0178, 4), // ld [n16], a
        (0x017B, 3), // ldh [n8], a
        (0x017D, 3), // ldh a, [n8]
        (0x017F, 4), // add sp, e8
        (0x0181, 4), // add sp, e8
        (0x0183, 3), // ld hl, sp+e8
        (0x0185, 2), // ld sp, hl
        (0x0186, 3), // ld hl, n16
        (0x0189, 1), // jp hl
        (0x018A, 3), // jr
        (0x018C, 4), // rst
        (0x0010, 4), // ret
        (0x018D, 2), // ld a, n8
        (0x018F, 3), // ldh
        (0x0191, 1), // xor a
        (0x0192, 3), // ldh
        (0x0194, 1), // ei
        (0x0195, 1), // halt
    ];
    let mut total = 0;
    for &(pc, cycles) in expected {
        assert_eq!(machine.pc(), pc, "PC before the step of {cycles} cycles");
        assert_eq!(
            machine.step().unwrap(),
            cycles,
            "cycles of the instruction at ${pc:04X}"
        );
        total += cycles;
    }
    assert_eq!(machine.cycles(), total);
    assert_eq!(machine.read(0xC000, 1).unwrap(), [7]);
    assert_eq!(machine.read_u16(0xC010).unwrap(), 0xFFFE);

    // Halted: one machine cycle per step until VBlank, then a 5-cycle interrupt dispatch.
    assert!(machine.halted());
    let mut halted_steps = 0;
    while machine.halted() {
        let cycles = machine.step().unwrap();
        if machine.pc() == 0x0040 {
            assert_eq!(cycles, 5, "interrupt dispatch");
            break;
        }
        assert_eq!(cycles, 1, "halted step");
        halted_steps += 1;
    }
    assert_eq!(machine.pc(), 0x0040);
    assert_eq!(machine.read_u16(machine.registers().sp).unwrap(), 0x0196);
    assert_eq!(machine.frames(), 1);
    // The whole wait is the time from `halt` to the start of VBlank (60 dots to line 0, then
    // 144 lines: cycle 16,431) plus the cycle that raises the interrupt.
    assert_eq!(total + halted_steps, 16_431 + 1);
    assert_eq!(machine.step().unwrap(), 4, "reti");
    assert_eq!(machine.pc(), 0x0196);
    assert_eq!(machine.step().unwrap(), 1, "di");
    assert_eq!(machine.step().unwrap(), 1, "halt");
    // Halted with IME off: the next VBlank wakes the CPU without a dispatch, and boytacean
    // runs the next instruction in the same step.
    while machine.halted() {
        assert_eq!(machine.step().unwrap(), 1);
    }
    assert_eq!(machine.pc(), 0x0199);
    assert_eq!(machine.frames(), 2);
}

#[test]
fn a_frame_is_17556_cycles_and_ends_when_vblank_begins() {
    // jr @ from $0150: instruction boundaries at cycles 1, 5, 8, 11, ...
    let mut machine = boot(&[0x18, 0xFE]);
    // VBlank begins at line 144: (60 + 144 * 456) / 4 = 16,431 cycles after the hand-over;
    // the jr that crosses it ends at cycle 16,433.
    assert_eq!(machine.run_frames(1).unwrap(), 16_433);
    assert_eq!((machine.ly(), machine.ppu_mode()), (144, 1));
    assert_eq!(machine.run_frames(1).unwrap(), 17_556);
    assert_eq!(machine.run_frames(3).unwrap(), 3 * 17_556);
    assert_eq!(machine.cycles(), 16_433 + 4 * 17_556);
    assert_eq!(machine.frames(), 5);
    machine.assert_no_violations().unwrap();
}

#[test]
fn frames_with_the_lcd_off_are_counted_in_cycles() {
    let mut code = WAIT_VBLANK.to_vec();
    code.extend([
        0xAF, // $0156 xor a
        0xE0, 0x40, // $0157 ldh [rLCDC], a
        0x18, 0xFE, // $0159 jr @
    ]);
    let mut machine = boot(&code);
    machine.run_frames(1).unwrap();
    let cycles = machine.run_frames(2).unwrap();
    assert!(
        (2 * CYCLES_PER_FRAME..2 * CYCLES_PER_FRAME + 20).contains(&cycles),
        "{cycles}"
    );
    assert_eq!(machine.frames(), 1);
    assert_eq!(machine.read_u8(0xFF40).unwrap(), 0);
    machine.assert_no_violations().unwrap();
}

#[test]
fn run_until_counts_the_cycles_to_a_label() {
    let rom = TestRom::new()
        .at(
            0x0150,
            &[
                0x06, 0x0A, // $0150 ld b, 10
                0x05, // $0152 .loop: dec b
                0x20, 0xFD, // $0153 jr nz, .loop
                0x18, 0xFE, // $0155 Done: jr @
            ],
        )
        .build();
    let sym = "00:0150 Main\n00:0152 Main.loop\n00:0155 Done\n";
    let mut machine = Machine::new(&rom).unwrap().with_symbols(sym).unwrap();
    assert_eq!(machine.run_until("Main", 100).unwrap(), 5);
    // ld b (2) + 10 x dec b (1) + 9 x jr taken (3) + jr not taken (2)
    assert_eq!(machine.run_until("Done", 100).unwrap(), 2 + 10 + 27 + 2);
    assert_eq!(machine.symbol("Done").unwrap(), 0x0155);
    // At least one step: from Done, the next arrival at Done is one `jr` later.
    assert_eq!(machine.run_until(0x0155, 100).unwrap(), 3);
}

#[test]
fn run_until_fails_clearly_when_the_budget_runs_out() {
    let sym = "00:0150 Main\n00:0200 Never\n";
    let rom = TestRom::new().at(0x0150, &[0x18, 0xFE]).build();
    let mut machine = Machine::new(&rom).unwrap().with_symbols(sym).unwrap();
    let error = machine.run_until("Never", 1000).unwrap_err().to_string();
    assert_eq!(
        error,
        "$0200 (Never) was not reached within 1000 machine cycles: the CPU is at $0150 (Main)"
    );
    assert!(machine.cycles() >= 1000 && machine.cycles() < 1003);
    let error = machine.run_until(0x0300, 10).unwrap_err().to_string();
    assert_eq!(
        error,
        "$0300 (Never+$0100) was not reached within 10 machine cycles: the CPU is at $0150 (Main)"
    );
    let error = machine.run_until("Nowhere", 10).unwrap_err().to_string();
    assert_eq!(
        error,
        "unknown label `Nowhere`: it is not among the 2 labels of the .sym file"
    );
}

#[test]
fn call_runs_a_routine_and_returns() {
    let rom = TestRom::new()
        .at(0x0150, &[0x18, 0xFE]) // jr @
        .at(
            0x0200,
            &[
                0x3E, 0x2A, // ld a, 42
                0xEA, 0x00, 0xC0, // ld [$C000], a
                0xC9, // ret
            ],
        )
        .build();
    let mut machine = Machine::new(&rom).unwrap();
    machine.run_until(0x0150, 100).unwrap();
    let before = machine.registers();
    assert_eq!(machine.call(0x0200, 100).unwrap(), 2 + 4 + 4);
    assert_eq!(machine.read_u8(0xC000).unwrap(), 42);
    let after = machine.registers();
    assert_eq!((after.pc, after.sp, after.a()), (before.pc, before.sp, 42));
    let error = machine.call(0x0150, 50).unwrap_err().to_string();
    assert_eq!(
        error,
        "the routine at $0150 did not return within 50 machine cycles: the CPU is at $0150"
    );
}

#[test]
fn memory_is_read_and_written_by_label() {
    let sym = "00:c000 wBoard\n00:c010 wTurn\n";
    let mut machine = boot(&[0x18, 0xFE]).with_symbols(sym).unwrap();
    machine.write("wBoard", &[1, 2, 3]).unwrap();
    machine.write_u8("wTurn", 0xAA).unwrap();
    assert_eq!(machine.read("wBoard", 3).unwrap(), [1, 2, 3]);
    assert_eq!(machine.read_u16("wBoard").unwrap(), 0x0201);
    assert_eq!(machine.read_u8(0xC010).unwrap(), 0xAA);
    let error = machine.read_u8("wBord").unwrap_err().to_string();
    assert!(error.starts_with("unknown label `wBord`"), "{error}");
    let error = machine.read(0xFFFF, 2).unwrap_err().to_string();
    assert_eq!(error, "reading 2 bytes from $FFFF runs past $FFFF");
}

#[test]
fn a_vram_write_in_mode_3_is_reported_with_its_pc_and_label() {
    let rom = TestRom::new()
        .at(
            0x0150,
            &[
                0xF0, 0x41, // $0150 ldh a, [rSTAT]
                0xE6, 0x03, // $0152 and STAT_MODE_MASK
                0xFE, 0x03, // $0154 cp 3
                0x20, 0xF8, // $0156 jr nz, $0150
                0x21, 0x00, 0x80, // $0158 ld hl, $8000
                0x77, // $015B .poke: ld [hl], a
                0x18, 0xFE, // $015C jr @
            ],
        )
        .build();
    let sym = "00:0150 Main\n00:015b Main.poke\n";
    let mut machine = Machine::new(&rom).unwrap().with_symbols(sym).unwrap();
    machine.run_frames(2).unwrap();
    // STAT reads at cycles 5, 15, 25 and 35 (boytacean reads at the instruction's start);
    // mode 3 begins at dot 80 of line 0 (cycle 35), so the fourth read sees it; ldh, and,
    // cp, jr (not taken), ld hl: the store starts at cycle 35 + 3 + 2 + 2 + 2 + 3 = 47 and
    // writes in its cycle 2, at dot 4 * 48 - 60 = 132.
    assert_eq!(
        machine.violations(),
        [Violation {
            kind: ViolationKind::VramWrite,
            pc: 0x015B,
            addr: 0x8000,
            mode: 3,
            ly: 0,
            dot: 132,
            frame: 0,
            cycle: 47,
            label: Some("Main.poke".to_string()),
        }]
    );
    assert_eq!(machine.violation_count(), 1);
    let error = machine.assert_no_violations().unwrap_err().to_string();
    assert_eq!(
        error,
        "1 PPU access violation at 1 place in the code:\n  \
         PC $015B (Main.poke): writes VRAM $8000 while the PPU draws \
         (mode 3, LY 0, frame 0, cycle 47)"
    );
}

#[test]
fn a_vram_write_in_vblank_is_fine() {
    let mut code = WAIT_VBLANK.to_vec();
    code.extend([
        0x21, 0x00, 0x80, // $0156 ld hl, $8000
        0x3E, 0x42, // $0159 ld a, $42
        0x77, // $015B ld [hl], a
        0x18, 0xFE, // $015C jr @
    ]);
    let mut machine = boot(&code);
    machine.run_frames(2).unwrap();
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.read_u8(0x8000).unwrap(), 0x42);
}

/// [`TO_LINE_0`], `ld hl, $8000`, `nops` × `nop`, then `store` (to $8000), then `jr @`. The
/// store starts at machine cycle 5 + 15 + 3 + nops, at dot 4 × (8 + nops) of line 0: mode 3
/// covers boytacean's cycles 35 to 77 (dots 80-251), a DMG's up to cycle 106 (dot 368).
fn vram_store_after(nops: usize, store: &[u8]) -> Machine {
    store_after(0x8000, nops, store)
}

/// As [`vram_store_after`], `store` writing (or reading) `addr` instead of $8000.
fn store_after(addr: u16, nops: usize, store: &[u8]) -> Machine {
    let mut code = TO_LINE_0.to_vec();
    let [low, high] = addr.to_le_bytes();
    code.extend([0x21, low, high]);
    code.extend(std::iter::repeat_n(0x00, nops));
    code.extend(store);
    code.extend([0x18, 0xFE]);
    let mut machine = boot(&code);
    machine.run_cycles(200).unwrap();
    machine
}

#[test]
fn the_mode_is_the_one_at_the_write_cycle_not_at_the_instruction_start() {
    const LD_HL_A: &[u8] = &[0x77];
    const SET_0_HL: &[u8] = &[0xCB, 0xC6];
    // Starts at cycle 34 (mode 2); writes in its cycle 2, dots 80-83: mode 3.
    let machine = vram_store_after(11, LD_HL_A);
    let violations = machine.violations();
    assert_eq!(violations.len(), 1);
    assert_eq!((violations[0].cycle, violations[0].mode), (34, 3));
    // Starts at cycle 32 (mode 2); writes in its cycle 4, dots 80-83: mode 3.
    let machine = vram_store_after(9, SET_0_HL);
    let violations = machine.violations();
    assert_eq!(violations.len(), 1);
    assert_eq!((violations[0].cycle, violations[0].mode), (32, 3));
    // Starts at cycle 76 (mode 3); writes at dots 248-251: still mode 3.
    let machine = vram_store_after(53, LD_HL_A);
    assert_eq!(machine.violations().len(), 1);
    // Starts at cycle 118 (boytacean's HBlank); writes at dots 372-375: HBlank on any line.
    let machine = vram_store_after(84, LD_HL_A);
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.read_u8(0x8000).unwrap(), 0x01);
}

#[test]
fn oam_writes_in_mode_2_are_reported_also_from_push() {
    let mut code = TO_LINE_0.to_vec();
    code.extend([
        0x3E, 0x01, // $015F ld a, 1
        0xEA, 0x00, 0xFE, // $0161 ld [$FE00], a
        0x31, 0x10, 0xFE, // $0164 ld sp, $FE10
        0xC5, // $0167 push bc
        0x31, 0xFE, 0xFF, // $0168 ld sp, $FFFE
        0x18, 0xFE, // $016B jr @
    ]);
    let mut machine = boot(&code);
    machine.run_frames(1).unwrap();
    // The push also moves SP, in OAM's range, through the incrementer in mode 2.
    assert_eq!(
        violations_seen(&machine),
        [
            (ViolationKind::OamWrite, 0x0161, 0xFE00, 2, 22),
            (ViolationKind::OamWrite, 0x0167, 0xFE0F, 2, 29),
            (ViolationKind::OamWrite, 0x0167, 0xFE0E, 2, 29),
            (ViolationKind::OamCorruption, 0x0167, 0xFE10, 2, 29),
        ]
    );
    let report = machine.assert_no_violations().unwrap_err().to_string();
    assert!(report.starts_with("4 PPU access violations at 3 places in the code:"));
    assert!(
        report.contains(
            "writes OAM $FE0F while the PPU reads OAM (mode 2, LY 0, frame 0, cycle 29) [2 times]"
        ),
        "{report}"
    );
}

#[test]
fn turning_the_lcd_off_outside_vblank_is_reported() {
    let mut code = TO_LINE_0.to_vec();
    code.extend([
        0xAF, // $015F xor a
        0xE0, 0x40, // $0160 ldh [rLCDC], a
        0x18, 0xFE, // $0162 jr @
    ]);
    let mut machine = boot(&code);
    machine.run_cycles(100).unwrap();
    let seen: Vec<(ViolationKind, u16, u8)> = machine
        .violations()
        .iter()
        .map(|v| (v.kind, v.pc, v.mode))
        .collect();
    assert_eq!(seen, [(ViolationKind::LcdOffOutsideVblank, 0x0160, 2)]);

    let mut code = TO_LINE_0.to_vec();
    code.extend([
        0x21, 0x40, 0xFF, // $015F ld hl, rLCDC
        0xCB, 0xBE, // $0162 res 7, [hl]
        0x18, 0xFE, // $0164 jr @
    ]);
    let mut machine = boot(&code);
    machine.run_cycles(100).unwrap();
    assert_eq!(machine.violations()[0].pc, 0x0162);
    assert_eq!(machine.violation_count(), 1);
}

#[test]
fn start_up_code_has_the_last_60_dots_of_vblank_as_on_a_dmg() {
    // The boot ROM hands over 60 dots (15 machine cycles) before line 0: turning the LCD
    // off at once is in time, its write landing in cycle 8.
    let mut machine = boot(&[
        0xAF, // $0150 xor a
        0xE0, 0x40, // $0151 ldh [rLCDC], a
        0x18, 0xFE, // $0153 jr @
    ]);
    machine.run_cycles(100).unwrap();
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.read_u8(0xFF40).unwrap(), 0x00);
    // Nine `nop`s later it is not: the write lands in cycle 17, dot 8 of line 0.
    let mut code = vec![0x00; 9];
    code.extend([0xAF, 0xE0, 0x40, 0x18, 0xFE]);
    let mut machine = boot(&code);
    machine.run_cycles(100).unwrap();
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::LcdOffOutsideVblank, 0x015A, 0xFF40, 2, 15)]
    );
}

#[test]
fn the_cpu_must_stay_in_hram_during_oam_dma() {
    // Started from ROM and waiting in ROM: the CPU would fetch garbage on hardware.
    let mut machine = boot(&[
        0x3E, 0xC0, // $0150 ld a, HIGH($C000)
        0xE0, 0x46, // $0152 ldh [rDMA], a
        0x00, // $0154 nop
        0x18, 0xFE, // $0155 jr @
    ]);
    machine.run_cycles(400).unwrap();
    let first = &machine.violations()[0];
    assert_eq!(
        (first.kind, first.pc),
        (ViolationKind::OutsideHramDuringDma, 0x0154)
    );
    // The DMA lasts 160 cycles from the start of the `ldh` at cycle 7, to cycle 167: the
    // nop at cycle 10 and 52 jr at cycles 11, 14, ... 164 run during it.
    assert_eq!(machine.violation_count(), 53);

    // The usual routine in HRAM: start, wait 160 cycles, return.
    let mut machine = boot(&[
        0x3E, 0xC0, // $0150 ld a, HIGH($C000)
        0xCD, 0x80, 0xFF, // $0152 call hOAMDMA
        0x18, 0xFE, // $0155 jr @
    ]);
    machine
        .write(
            0xFF80,
            &[
                0xE0, 0x46, // hOAMDMA: ldh [rDMA], a
                0x3E, 0x28, // ld a, 40
                0x3D, // .wait: dec a
                0x20, 0xFD, // jr nz, .wait
                0xC9, // ret
            ],
        )
        .unwrap();
    let sprites: Vec<u8> = (0..160).collect();
    machine.write(0xC000, &sprites).unwrap();
    machine.run_frames(1).unwrap();
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.read(0xFE00, 160).unwrap(), sprites);
}

#[test]
fn the_joypad_shows_up_in_wram() {
    let mut code = WAIT_VBLANK.to_vec();
    code.extend([
        0x3E, 0x20, // $0156 ld a, P1F_GET_DPAD
        0xE0, 0x00, // $0158 ldh [rP1], a
        0xF0, 0x00, // $015A ldh a, [rP1]
        0xF0, 0x00, // $015C ldh a, [rP1]
        0x2F, // $015E cpl
        0xE6, 0x0F, // $015F and $0F
        0xCB, 0x37, // $0161 swap a
        0x47, // $0163 ld b, a
        0x3E, 0x10, // $0164 ld a, P1F_GET_BTN
        0xE0, 0x00, // $0166 ldh [rP1], a
        0xF0, 0x00, // $0168 ldh a, [rP1]
        0xF0, 0x00, // $016A ldh a, [rP1]
        0x2F, // $016C cpl
        0xE6, 0x0F, // $016D and $0F
        0xB0, // $016F or b
        0xEA, 0x00, 0xC0, // $0170 ld [wKeys], a
        0x3E, 0x30, // $0173 ld a, P1F_GET_NONE
        0xE0, 0x00, // $0175 ldh [rP1], a
        0xF0, 0x44, // $0177 .leave: ldh a, [rLY]
        0xFE, 0x90, // $0179 cp 144
        0x28, 0xFA, // $017B jr z, .leave
        0x18, 0xD1, // $017D jr $0150
    ]);
    let mut machine = boot(&code);
    let keys = |machine: &Machine| machine.read_u8(0xC000).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(keys(&machine), 0x00);
    machine.press(Button::A);
    machine.run_frames(2).unwrap();
    assert_eq!(keys(&machine), 0x01);
    machine.press(Button::Right);
    machine.run_frames(2).unwrap();
    assert_eq!(keys(&machine), 0x11);
    machine.release(Button::A);
    machine.release(Button::Right);
    machine.tap(Button::Down, 2).unwrap();
    assert_eq!(keys(&machine), 0x80);
    machine.tap(Button::Start, 2).unwrap();
    assert_eq!(keys(&machine), 0x08);
    machine.run_frames(2).unwrap();
    assert_eq!(keys(&machine), 0x00);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_screen_shows_the_background_in_exact_shades() {
    let mut code = WAIT_VBLANK.to_vec();
    code.extend([
        0xAF, // $0156 xor a
        0xE0, 0x40, // $0157 ldh [rLCDC], a
        0x21, 0x00, 0x80, // $0159 ld hl, $8000
        0x0E, 0x08, // $015C ld c, 8
        0x3E, 0x55, // $015E .row: ld a, %01010101 (low bit plane)
        0x22, // $0160 ld [hl+], a
        0x3E, 0x33, // $0161 ld a, %00110011 (high bit plane)
        0x22, // $0163 ld [hl+], a
        0x0D, // $0164 dec c
        0x20, 0xF7, // $0165 jr nz, .row
        0x3E, 0x1B, // $0167 ld a, %00011011 (colour n is shade 3 - n)
        0xE0, 0x47, // $0169 ldh [rBGP], a
        0x3E, 0x91, // $016B ld a, LCDC_ON | LCDC_BG_ON | LCDC_BLOCK01
        0xE0, 0x40, // $016D ldh [rLCDC], a
        0x18, 0xFE, // $016F jr @
    ]);
    let mut machine = boot(&code);
    machine.run_frames(1).unwrap();
    // The LCD goes off in this VBlank: a white screen.
    machine.run_cycles(200).unwrap();
    assert!(machine.screen().iter().all(|&shade| shade == 0));
    // The first frame after the LCD comes back is blank too; the next one shows the tiles.
    machine.run_frames(3).unwrap();
    // Every tile row is colours 0 1 2 3 0 1 2 3: shades 3 2 1 0.
    let expected: Vec<u8> = (0..WIDTH * HEIGHT)
        .map(|index| 3 - (index % WIDTH % 4) as u8)
        .collect();
    assert_eq!(machine.screen().to_vec(), expected);
    machine.assert_no_violations().unwrap();

    let path = std::env::temp_dir().join(format!("harness-test-{}.png", std::process::id()));
    machine.save_png(&path).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!((info.width, info.height), (160, 144));
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    assert_eq!(&pixels[..8], [0, 85, 170, 255, 0, 85, 170, 255]);
    let greys: Vec<u8> = expected.iter().map(|&shade| grey(shade)).collect();
    assert_eq!(pixels, greys);
}

#[test]
fn audio_is_silent_until_the_rom_plays_a_note() {
    let mut machine = boot(&[0x18, 0xFE]);
    machine.run_frames(10).unwrap();
    let audio = machine.take_audio();
    assert!(audio.len() > 10_000, "{} samples", audio.len());
    assert!(audio.iter().all(|&sample| sample == 0));
    assert_eq!(machine.audio_level(), 0);

    let mut machine = boot(&[
        0x3E, 0xFF, // $0150 ld a, $FF
        0xE0, 0x25, // $0152 ldh [rNR51], a
        0x3E, 0x80, // $0154 ld a, $80 (duty 50%)
        0xE0, 0x16, // $0156 ldh [rNR21], a
        0x3E, 0xF0, // $0158 ld a, $F0 (volume 15)
        0xE0, 0x17, // $015A ldh [rNR22], a
        0xAF, // $015C xor a
        0xE0, 0x18, // $015D ldh [rNR23], a
        0x3E, 0x87, // $015F ld a, $87 (trigger)
        0xE0, 0x19, // $0161 ldh [rNR24], a
        0x18, 0xFE, // $0163 jr @
    ]);
    machine.run_frames(10).unwrap();
    let audio = machine.take_audio();
    assert!(audio.iter().any(|&sample| sample != 0));
    assert!(machine.take_audio().is_empty());
}

#[test]
fn illegal_opcodes_and_stop_are_errors_not_panics() {
    let sym = "00:0150 Main\n";
    let mut machine = boot(&[0xDD]).with_symbols(sym).unwrap();
    let error = machine.run_frames(1).unwrap_err().to_string();
    assert_eq!(
        error,
        "the CPU reached the illegal opcode $DD at $0150 (Main), which locks up a DMG"
    );
    assert_eq!(machine.pc(), 0x0150);
    let mut machine = boot(&[0x10, 0x00]);
    let error = machine.run_frames(1).unwrap_err().to_string();
    assert!(
        error.starts_with("the CPU reached `stop` at $0150"),
        "{error}"
    );
}

#[test]
fn checking_can_be_turned_off_for_benchmarks() {
    let mut machine = vram_store_after(11, &[0x77]);
    assert_eq!(machine.violation_count(), 1);
    machine.clear_violations();
    machine.assert_no_violations().unwrap();
    let mut code = TO_LINE_0.to_vec();
    code.extend([0x21, 0x00, 0x80]);
    code.extend([0x00; 11]);
    code.extend([0x77, 0x18, 0xFE]);
    let mut machine = Machine::new(&TestRom::new().at(0x0150, &code).build())
        .unwrap()
        .without_access_checks();
    machine.run_cycles(200).unwrap();
    machine.assert_no_violations().unwrap();
}

#[test]
fn an_interrupt_pushing_into_oam_is_reported() {
    // The boot ROM leaves VBlank requested in IF: `ei` with IE_VBLANK dispatches after the
    // instruction that follows it (`jr @`, 3 cycles), its pushes in cycles 19 and 20 (line
    // 0, dots 16-23: mode 2), SP in OAM's range through the incrementer too.
    let rom = TestRom::new()
        .at(
            0x0150,
            &[
                0x31, 0x10, 0xFE, // $0150 ld sp, $FE10
                0x3E, 0x01, // $0153 ld a, IE_VBLANK
                0xE0, 0xFF, // $0155 ldh [rIE], a
                0xFB, // $0157 ei
                0x18, 0xFE, // $0158 jr @
            ],
        )
        .at(0x0040, &[0x18, 0xFE]) // jr @
        .build();
    let mut machine = Machine::new(&rom).unwrap();
    machine.run_cycles(100).unwrap();
    assert_eq!(machine.pc(), 0x0040);
    assert_eq!(
        violations_seen(&machine),
        [
            (ViolationKind::OamWrite, 0x0158, 0xFE0F, 2, 17),
            (ViolationKind::OamWrite, 0x0158, 0xFE0E, 2, 17),
            (ViolationKind::OamCorruption, 0x0158, 0xFE10, 2, 17),
        ]
    );
}

#[test]
fn open_loads_the_rom_and_the_sym_file_beside_it() {
    let dir = std::env::temp_dir().join(format!("harness-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rom_path = dir.join("game.gb");
    std::fs::write(&rom_path, TestRom::new().at(0x0150, &[0x18, 0xFE]).build()).unwrap();
    std::fs::write(dir.join("game.sym"), "00:0150 Main\n").unwrap();
    let mut machine = Machine::open_on(&rom_path, Console::Dmg).unwrap();
    assert_eq!(machine.run_until("Main", 10).unwrap(), 5);
    std::fs::write(dir.join("game.sym"), "Main\n").unwrap();
    let error = format!(
        "{:#}",
        Machine::open_on(&rom_path, Console::Dmg).err().unwrap()
    );
    assert!(error.starts_with("reading "), "{error}");
    assert!(
        error.ends_with(
            "game.sym: line 1 of the symbol file: expected `BB:AAAA Name`, found `Main`"
        ),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let error = format!(
        "{:#}",
        Machine::open_on(&dir.join("missing.gb"), Console::Dmg)
            .err()
            .unwrap()
    );
    assert!(
        error.starts_with("reading ") && error.contains("missing.gb"),
        "{error}"
    );
}

#[test]
fn a_write_in_boytaceans_hblank_is_reported_where_a_dmg_may_still_draw() {
    // At $0198, after 54 `nop`s: starts at cycle 77, writes at dot 252, where boytacean's
    // mode 3 has just ended and a DMG's may last to dot 368.
    let machine = vram_store_after(54, &[0x77]);
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::VramWrite, 0x0198, 0x8000, 0, 77)]
    );
    assert_eq!(machine.violations()[0].dot, 252);
    assert_eq!(
        machine.assert_no_violations().unwrap_err().to_string(),
        "1 PPU access violation at 1 place in the code:\n  \
         PC $0198: writes VRAM $8000 at dot 252 of the line, where a DMG may still draw \
         (mode 3 lasts up to 289 dots) (mode 0, LY 0, frame 0, cycle 77)"
    );
    // The last dot a DMG may still draw at, and the first it surely does not.
    let machine = vram_store_after(83, &[0x77]);
    assert_eq!(
        (machine.violation_count(), machine.violations()[0].dot),
        (1, 368)
    );
    vram_store_after(84, &[0x77])
        .assert_no_violations()
        .unwrap();
    // OAM alike; after the longest mode 3 it is free until the line ends.
    let machine = store_after(0xFE00, 54, &[0x77]);
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::OamWrite, 0x0198, 0xFE00, 0, 77)]
    );
    store_after(0xFE00, 84, &[0x77])
        .assert_no_violations()
        .unwrap();
}

/// Waits for mode 3 and then for STAT to show VRAM free, then stores A to `addr`:
/// `ld hl, addr`, `.draw: ldh a, [rSTAT]; and STAT_MODE_MASK; cp 3; jr nz, .draw`,
/// `.busy: ldh a, [rSTAT]; and STAT_BUSY; jr nz, .busy`, `ld [hl], a`, `jr @` (the store at
/// $0161).
fn store_after_stat_shows_hblank(addr: u16) -> Machine {
    let [low, high] = addr.to_le_bytes();
    let mut machine = boot(&[
        0x21, low, high, // $0150 ld hl, addr
        0xF0, 0x41, // $0153 .draw: ldh a, [rSTAT]
        0xE6, 0x03, // $0155 and STAT_MODE_MASK
        0xFE, 0x03, // $0157 cp 3
        0x20, 0xF8, // $0159 jr nz, .draw
        0xF0, 0x41, // $015B .busy: ldh a, [rSTAT]
        0xE6, 0x02, // $015D and STAT_BUSY
        0x20, 0xFA, // $015F jr nz, .busy
        0x77, // $0161 ld [hl], a
        0x18, 0xFE, // $0162 jr @
    ]);
    machine.run_cycles(200).unwrap();
    machine
}

#[test]
fn a_vram_write_right_after_stat_shows_hblank_is_safe_on_any_line() {
    // On a DMG the poll ends only when mode 3 really has, however long the line: the
    // write comes 24 dots after the read that saw mode 0 (dot 288 here, of a line whose
    // mode 3 may last to dot 368).
    let machine = store_after_stat_shows_hblank(0x8000);
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.read_u8(0x8000).unwrap(), 0x00);
    // OAM is not: HBlank may end right after the read. The `.busy` reads start at cycles
    // 47, 55, ... 79 (boytacean reads at an instruction's start); the one at cycle 79 (dot
    // 256) sees mode 0; the store starts at cycle 79 + 3 + 2 + 2 = 86 and writes at dot 288.
    let machine = store_after_stat_shows_hblank(0xFE00);
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::OamWrite, 0x0161, 0xFE00, 0, 86)]
    );
    assert_eq!(machine.violations()[0].dot, 288);
}

#[test]
fn reads_of_locked_vram_and_oam_are_reported_they_give_ff_on_a_dmg() {
    // ld a, [hl] at $0176, cycle 43: reads $8000 in its cycle 2, dot 4 * 44 - 60 = 116.
    let machine = vram_store_after(20, &[0x7E]);
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::VramRead, 0x0176, 0x8000, 3, 43)]
    );
    assert_eq!(
        machine.assert_no_violations().unwrap_err().to_string(),
        "1 PPU access violation at 1 place in the code:\n  \
         PC $0176: reads VRAM $8000 while the PPU draws, which gives $FF on hardware \
         (mode 3, LY 0, frame 0, cycle 43)"
    );
    // ld a, [$FE00] at $015F, cycle 20: reads in its cycle 4, dot 32 of line 0 (mode 2).
    let mut code = TO_LINE_0.to_vec();
    code.extend([0xFA, 0x00, 0xFE, 0x18, 0xFE]);
    let mut machine = boot(&code);
    machine.run_cycles(100).unwrap();
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::OamRead, 0x015F, 0xFE00, 2, 20)]
    );
    assert!(machine
        .assert_no_violations()
        .unwrap_err()
        .to_string()
        .ends_with(
            "PC $015F: reads OAM $FE00 while the PPU reads OAM, which gives $FF on hardware \
             (mode 2, LY 0, frame 0, cycle 20)"
        ));
    // In VBlank both are free: ld a, [$8000]; ld a, [$FE00].
    let mut code = WAIT_VBLANK.to_vec();
    code.extend([0xFA, 0x00, 0x80, 0xFA, 0x00, 0xFE, 0x18, 0xFE]);
    let mut machine = boot(&code);
    machine.run_frames(2).unwrap();
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_register_pair_in_oam_range_through_the_incrementer_in_mode_2_is_reported() {
    // ld hl, $FE00; inc hl at $0162, cycle 23: dots 32-39 of line 0, mode 2.
    let mut code = TO_LINE_0.to_vec();
    code.extend([0x21, 0x00, 0xFE, 0x23, 0x18, 0xFE]);
    let mut machine = boot(&code);
    machine.run_cycles(100).unwrap();
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::OamCorruption, 0x0162, 0xFE00, 2, 23)]
    );
    assert!(machine
        .assert_no_violations()
        .unwrap_err()
        .to_string()
        .ends_with(
            "PC $0162: puts $FE00 through the 16-bit incrementer while the PPU scans OAM, \
             which corrupts OAM on a DMG (mode 2, LY 0, frame 0, cycle 23)"
        ));
    // ld bc, $FEFF; dec bc; ld de, $FF00; inc de at once: in VBlank, and $FF00 is outside.
    let mut machine = boot(&[
        0x01, 0xFF, 0xFE, // $0150 ld bc, $FEFF
        0x0B, // $0153 dec bc
        0x11, 0x00, 0xFF, // $0154 ld de, $FF00
        0x13, // $0157 inc de
        0x18, 0xFE, // $0158 jr @
    ]);
    machine.run_cycles(100).unwrap();
    machine.assert_no_violations().unwrap();
    assert_eq!(machine.registers().bc, 0xFEFE);
}

#[test]
fn halt_with_interrupts_off_and_one_requested_is_the_halt_bug() {
    // The boot ROM leaves VBlank requested in IF and IME off.
    let mut machine = boot(&[
        0x3E, 0x01, // $0150 ld a, IE_VBLANK
        0xE0, 0xFF, // $0152 ldh [rIE], a
        0x76, // $0154 halt
        0x04, // $0155 inc b
        0x18, 0xFE, // $0156 jr @
    ]);
    machine.run_cycles(100).unwrap();
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::HaltBug, 0x0154, 0x0154, 1, 10)]
    );
    assert!(machine
        .assert_no_violations()
        .unwrap_err()
        .to_string()
        .ends_with(
            "PC $0154: `halt` with interrupts disabled and one already requested: a DMG runs \
             the byte after it twice (mode 1, LY 153, frame 0, cycle 10)"
        ));
    // With IF cleared first, `halt` waits for the next VBlank and wakes without a dispatch.
    let mut machine = boot(&[
        0x3E, 0x01, // $0150 ld a, IE_VBLANK
        0xE0, 0xFF, // $0152 ldh [rIE], a
        0xAF, // $0154 xor a
        0xE0, 0x0F, // $0155 ldh [rIF], a
        0x76, // $0157 halt
        0x04, // $0158 inc b
        0x18, 0xFE, // $0159 jr @
    ]);
    machine.run_frames(1).unwrap();
    machine.run_cycles(10).unwrap();
    machine.assert_no_violations().unwrap();
    assert_eq!((machine.pc(), machine.registers().bc >> 8), (0x0159, 1));
}

/// `ld a, IE_VBLANK; ldh [rIE], a`, then `code` (from $0154), with `jr @` at $0040: the
/// VBlank the boot ROM left requested is pending from the start.
fn with_vblank_pending(code: &[u8]) -> Machine {
    let mut all = vec![0x3E, 0x01, 0xE0, 0xFF];
    all.extend(code);
    let rom = TestRom::new()
        .at(0x0150, &all)
        .at(0x0040, &[0x18, 0xFE])
        .build();
    let mut machine = Machine::new(&rom).unwrap();
    machine.run_cycles(100).unwrap();
    machine
}

#[test]
fn ei_takes_effect_after_the_next_instruction_as_on_a_dmg() {
    // ei; inc b; inc b; jr @: the interrupt comes after the first `inc b`, returning to
    // the second.
    let machine = with_vblank_pending(&[0xFB, 0x04, 0x04, 0x18, 0xFE]);
    let registers = machine.registers();
    assert_eq!((registers.pc, registers.bc >> 8), (0x0040, 1));
    assert_eq!(machine.read_u16(registers.sp).unwrap(), 0x0156);
    machine.assert_no_violations().unwrap();
    // ei; halt: a DMG services the interrupt and returns to the `halt`.
    let machine = with_vblank_pending(&[0xFB, 0x76, 0x04, 0x18, 0xFE]);
    let registers = machine.registers();
    assert_eq!((registers.pc, registers.bc >> 8), (0x0040, 0));
    assert_eq!(machine.read_u16(registers.sp).unwrap(), 0x0155);
    machine.assert_no_violations().unwrap();
}

#[test]
fn ei_directly_followed_by_di_is_reported_and_takes_no_interrupt() {
    // ei at $0154; di at $0155 (cycle 11); jr @.
    let machine = with_vblank_pending(&[0xFB, 0xF3, 0x18, 0xFE]);
    assert_eq!(machine.pc(), 0x0156);
    assert_eq!(
        violations_seen(&machine),
        [(ViolationKind::EiThenDi, 0x0155, 0x0155, 1, 11)]
    );
    assert!(machine
        .assert_no_violations()
        .unwrap_err()
        .to_string()
        .ends_with(
            "PC $0155: `di` right after `ei`: a DMG takes no interrupt in between \
             (mode 1, LY 153, frame 0, cycle 11)"
        ));
    // ei; nop; di: the interrupt comes after the `nop`.
    let machine = with_vblank_pending(&[0xFB, 0x00, 0xF3, 0x18, 0xFE]);
    assert_eq!(machine.pc(), 0x0040);
    assert_eq!(machine.read_u16(machine.registers().sp).unwrap(), 0x0156);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_joypad_register_reads_bits_6_and_7_as_1() {
    let mut machine = boot(&[
        0x3E, 0x20, // $0150 ld a, JOYP_GET_CTRL_PAD
        0xE0, 0x00, // $0152 ldh [rP1], a
        0xF0, 0x00, // $0154 ldh a, [rP1]
        0x47, // $0156 ld b, a
        0x21, 0x00, 0xFF, // $0157 ld hl, rP1
        0x4E, // $015A ld c, [hl]
        0x18, 0xFE, // $015B jr @
    ]);
    machine.press(Button::Right);
    machine.run_cycles(100).unwrap();
    // Bits 7-6 set, the control pad selected (bit 4 clear), Right pressed (bit 0 clear).
    assert_eq!(machine.registers().bc, 0xEEEE);
}

/// Each violation as (kind, PC, address, PPU mode, machine cycle), in order.
fn violations_seen(machine: &Machine) -> Vec<(ViolationKind, u16, u16, u8, u64)> {
    machine
        .violations()
        .iter()
        .map(|v| (v.kind, v.pc, v.addr, v.mode, v.cycle))
        .collect()
}

/// The palettes: a CGB's palette RAM (through BCPD $FF69 and OCPD $FF6B) is locked in
/// mode 3 like VRAM, and the check reports a write there; a DMG's BGP ($FF47, like OBP0
/// and OBP1) is a register the PPU reads as it draws, never locked (a write in mode 3
/// changes the shades from the next pixels on, which is no lost write), so it passes.
#[test]
fn a_palette_ram_write_in_mode_3_is_reported_and_a_bgp_write_is_not() {
    // ld [hl], a at $0176, cycle 43: writes in its cycle 2, dot 116 of line 0 (mode 3).
    for addr in crate::harness::access::PALETTE_DATA {
        let machine = store_after(addr, 20, &[0x77]);
        assert_eq!(
            violations_seen(&machine),
            [(ViolationKind::PaletteWrite, 0x0176, addr, 3, 43)]
        );
        assert_eq!(
            machine.assert_no_violations().unwrap_err().to_string(),
            format!(
                "1 PPU access violation at 1 place in the code:\n  \
                 PC $0176: writes palette RAM through ${addr:04X} while the PPU draws \
                 (mode 3, LY 0, frame 0, cycle 43)"
            )
        );
    }
    let machine = store_after(0xFF47, 20, &[0x77]);
    machine.assert_no_violations().unwrap();
}
