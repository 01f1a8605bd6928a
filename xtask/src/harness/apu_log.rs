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
//! The harness already decodes every store before it runs (see [`super::access::decode`]);
//! the log takes the address and machine cycle from there and works out the value from the
//! registers, so it sees what the program wrote, not what the registers read back (most
//! sound registers read some bits as 1).

use std::ops::RangeInclusive;

use super::access::decode::{Effect, Instruction, NextStep};
use super::Machine;

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

    /// Records the APU writes of the store about to run. Called before each step that may
    /// store while the log is on.
    pub(super) fn log_apu_writes(&mut self, instruction: &Instruction) {
        // Stack writes never go to the APU in a sane program: not worth their values.
        if matches!(instruction.effect, Effect::Push | Effect::Call(_)) {
            return;
        }
        let [Some((addr, cycle)), None] = instruction.writes(&self.gb) else {
            return;
        };
        if !APU_ADDRESSES.contains(&addr) || self.next_step() != NextStep::Instruction {
            return;
        }
        let write = ApuWrite {
            frame: self.vblanks,
            cycle: self.cycles + u64::from(cycle) - 1,
            addr,
            value: instruction.stored_value(&self.gb),
            pc: self.pc(),
        };
        if let Some(log) = self.apu_log.as_mut() {
            log.push(write);
        }
    }
}
