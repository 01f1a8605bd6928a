//! The always-mapped code of asm/home/: the interrupt handlers.

use super::boot;
use crate::harness::{Machine, Registers, CYCLES_PER_FRAME};

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
    let resume = machine.read_u16(entry.sp).unwrap();
    let start = machine.cycles();
    while machine.pc() != resume || machine.registers().sp != entry.sp.wrapping_add(2) {
        machine.step().unwrap();
        assert!(
            machine.cycles() - start < CYCLES_PER_FRAME,
            "{label} did not return within a frame"
        );
    }
    Registers {
        pc: interrupted.pc,
        sp: interrupted.sp,
        ..machine.registers()
    }
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
