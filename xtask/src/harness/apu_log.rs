//! The APU write log: every store to the sound registers and wave RAM ($FF10-$FF3F), with
//! the value, the frame and the machine cycle it lands in, in the order the CPU makes them.
//!
//! ```ignore
//! machine.start_apu_log();
//! machine.run_frames(60)?;
//! for write in machine.take_apu_log() {
//!     println!("frame {} cycle {}: ${:04X} <- ${:02X}", write.frame, write.cycle, write.addr, write.value);
//! }
//! ```
//!
//! The harness already decodes every store before it runs (see [`super::access`]); the log
//! takes the address and machine cycle from there and works out the value from the
//! registers, so it sees what the program wrote, not what the registers read back (most
//! sound registers read some bits as 1).

use std::ops::RangeInclusive;

use super::access::Effect;
use super::{Machine, NextStep};

/// The sound registers and wave RAM.
pub const APU_ADDRESSES: RangeInclusive<u16> = 0xFF10..=0xFF3F;

/// One store to an APU address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApuWrite {
    /// VBlanks begun before the write ([`Machine::frames`]).
    pub frame: u64,
    /// The machine cycle (since power-on) the write lands in.
    pub cycle: u64,
    pub addr: u16,
    pub value: u8,
    /// The address of the instruction that wrote it.
    pub pc: u16,
}

impl Machine {
    /// Starts recording APU writes, forgetting any recorded so far.
    pub fn start_apu_log(&mut self) {
        self.apu_log = Some(Vec::new());
    }

    /// The APU writes recorded since [`Machine::start_apu_log`] or the last call, in order;
    /// recording goes on. Empty when the log was never started.
    pub fn take_apu_log(&mut self) -> Vec<ApuWrite> {
        self.apu_log
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Records the APU writes of the store about to run (`effect`, of `opcode` and the byte
    /// after a $CB prefix). Called before each step that may store while the log is on.
    pub(super) fn log_apu_writes(&mut self, effect: Effect, opcode: u8, prefixed: Option<u8>) {
        // Stack writes never go to the APU in a sane program: not worth their values.
        if matches!(effect, Effect::Push | Effect::Call(_)) {
            return;
        }
        let [Some((addr, cycle)), None] = self.instruction_writes(effect) else {
            return;
        };
        if !APU_ADDRESSES.contains(&addr) || self.next_step() != NextStep::Instruction {
            return;
        }
        let write = ApuWrite {
            frame: self.vblanks,
            cycle: self.cycles + u64::from(cycle) - 1,
            addr,
            value: self.stored_value(opcode, prefixed),
            pc: self.pc(),
        };
        if let Some(log) = self.apu_log.as_mut() {
            log.push(write);
        }
    }

    /// The byte the store at PC (`opcode`, and the byte after a $CB prefix) writes, from the
    /// CPU's registers and, for read-modify-write instructions, the byte at [HL] now.
    pub(super) fn stored_value(&self, opcode: u8, prefixed: Option<u8>) -> u8 {
        let cpu = self.gb.cpu_i();
        let mmu = self.gb.mmu_i();
        let old = || mmu.read(cpu.hl());
        match (opcode, prefixed) {
            (0x70..=0x77, _) => {
                [cpu.b, cpu.c, cpu.d, cpu.e, cpu.h, cpu.l, 0, cpu.a][usize::from(opcode & 7)]
            }
            (0x36, _) => mmu.read(cpu.pc().wrapping_add(1)),
            (0x34, _) => old().wrapping_add(1),
            (0x35, _) => old().wrapping_sub(1),
            (0xCB, Some(op)) => {
                let (old, bit) = (old(), 1 << ((op >> 3) & 7));
                let carry = u8::from(cpu.carry());
                match op {
                    0x00..=0x07 => old.rotate_left(1),
                    0x08..=0x0F => old.rotate_right(1),
                    0x10..=0x17 => old << 1 | carry,
                    0x18..=0x1F => old >> 1 | carry << 7,
                    0x20..=0x27 => old << 1,
                    0x28..=0x2F => old >> 1 | (old & 0x80),
                    0x30..=0x37 => old.rotate_left(4),
                    0x38..=0x3F => old >> 1,
                    0x80..=0xBF => old & !bit,
                    _ => old | bit,
                }
            }
            // Every other store writes A.
            _ => cpu.a,
        }
    }
}
