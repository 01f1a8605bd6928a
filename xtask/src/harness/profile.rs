//! An exact profiler: how often given routines are called and how many machine cycles they
//! take, callees included, while the machine runs.
//!
//! ```ignore
//! machine.start_profile(["GenerateMoves", "MakeMove"].map(Location::from))?;
//! machine.call("TestRunCommand", budget)?;
//! for routine in machine.stop_profile() {
//!     println!("{}: {} calls, {:?} cycles per call", routine.name, routine.calls, routine.cycles_per_call());
//! }
//! ```
//!
//! A routine is entered when the CPU reaches its address right after a `call` (conditional
//! or not) that pushed the address following it; `rst`, jumps and interrupts do not enter
//! it. It is left when the CPU comes back to that pushed address with SP as before the
//! `call`. Its cycles run from the end of the `call` to the end of its `ret`: a routine
//! that only returns costs 4 cycles. When a routine is active several times at once
//! (recursion), each entry counts as a call but only the outermost activation counts
//! cycles, so they are not counted twice. A routine that never comes back to its caller
//! (SP is unwound above the `call`'s frame, as a search abort would do) is left there.

use anyhow::Result;
use boytacean::gb::GameBoy;

use super::{Location, Machine};

/// What the profiler measured for one routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutineProfile {
    /// Its label, or `$1234` when it was given by address.
    pub name: String,
    pub address: u16,
    /// Entries by `call`.
    pub calls: u64,
    /// Machine cycles from the end of each outermost `call` to the end of its `ret`.
    pub cycles: u64,
    /// Activations left by unwinding the stack instead of returning (counted up to then).
    pub unwound: u64,
}

impl RoutineProfile {
    /// Average machine cycles per call, `None` before the first call.
    pub fn cycles_per_call(&self) -> Option<f64> {
        (self.calls > 0).then(|| self.cycles as f64 / self.calls as f64)
    }
}

/// One activation of a watched routine.
struct Frame {
    routine: usize,
    /// The address the `call` pushed.
    return_to: u16,
    /// SP before the `call`, and again once the routine has returned.
    sp: u16,
    entered_at: u64,
    outermost: bool,
}

/// The profiler's state, kept by the [`Machine`] while a profile runs.
pub(super) struct Profiler {
    /// For each address, 1 + the index of the routine there, or 0.
    routine_at: Vec<u16>,
    routines: Vec<RoutineProfile>,
    /// Activations of each routine under way.
    active: Vec<u32>,
    frames: Vec<Frame>,
    /// PC and SP before the step just executed.
    last_pc: u16,
    last_sp: u16,
}

/// `call n16` and `call cc, n16`.
fn is_call(opcode: u8) -> bool {
    matches!(opcode, 0xCD | 0xC4 | 0xCC | 0xD4 | 0xDC)
}

impl Profiler {
    fn new(routines: Vec<RoutineProfile>, pc: u16, sp: u16) -> Profiler {
        let mut routine_at = vec![0; 0x1_0000];
        for (index, routine) in routines.iter().enumerate() {
            routine_at[usize::from(routine.address)] = index as u16 + 1;
        }
        Profiler {
            routine_at,
            active: vec![0; routines.len()],
            routines,
            frames: Vec::new(),
            last_pc: pc,
            last_sp: sp,
        }
    }

    /// Called after every step, `cycles` being the machine's count after it.
    pub(super) fn after_step(&mut self, gb: &GameBoy, cycles: u64) {
        let cpu = gb.cpu_i();
        let (pc, sp) = (cpu.pc(), cpu.sp());
        let (last_pc, last_sp) = (self.last_pc, self.last_sp);
        self.last_pc = pc;
        self.last_sp = sp;
        while let Some(top) = self.frames.last() {
            let returned = pc == top.return_to && sp == top.sp;
            if !returned && sp <= top.sp {
                break;
            }
            self.leave(cycles, !returned);
        }
        let watched = self.routine_at[usize::from(pc)];
        if watched == 0 || sp != last_sp.wrapping_sub(2) {
            return;
        }
        let mmu = gb.mmu_i();
        let return_to = last_pc.wrapping_add(3);
        let pushed = u16::from_le_bytes([mmu.read(sp), mmu.read(sp.wrapping_add(1))]);
        if !is_call(mmu.read(last_pc)) || pushed != return_to {
            return;
        }
        let routine = usize::from(watched - 1);
        self.routines[routine].calls += 1;
        self.active[routine] += 1;
        self.frames.push(Frame {
            routine,
            return_to,
            sp: last_sp,
            entered_at: cycles,
            outermost: self.active[routine] == 1,
        });
    }

    fn leave(&mut self, cycles: u64, unwound: bool) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.active[frame.routine] -= 1;
        let routine = &mut self.routines[frame.routine];
        if frame.outermost {
            routine.cycles += cycles - frame.entered_at;
        }
        if unwound {
            routine.unwound += 1;
        }
    }
}

impl Machine {
    /// Starts counting the calls and cycles of these routines (labels or addresses), from
    /// the current instruction on, replacing any profile under way. Fails on an unknown
    /// label or when two of them are the same address.
    pub fn start_profile<'a>(
        &mut self,
        routines: impl IntoIterator<Item = Location<'a>>,
    ) -> Result<()> {
        let mut profiles: Vec<RoutineProfile> = Vec::new();
        for routine in routines {
            let address = self.resolve(routine)?;
            let name = match routine {
                Location::Label(name) => name.to_string(),
                Location::Address(address) => format!("${address:04X}"),
            };
            if let Some(other) = profiles.iter().find(|p| p.address == address) {
                anyhow::bail!(
                    "{name} and {} are the same address ${address:04X}: profile one of them",
                    other.name
                );
            }
            profiles.push(RoutineProfile {
                name,
                address,
                calls: 0,
                cycles: 0,
                unwound: 0,
            });
        }
        let registers = self.registers();
        self.profiler = Some(Box::new(Profiler::new(
            profiles,
            registers.pc,
            registers.sp,
        )));
        Ok(())
    }

    /// Stops the profile and returns what it measured, in the order the routines were
    /// given (empty when no profile was running). Activations still under way count their
    /// cycles up to now.
    pub fn stop_profile(&mut self) -> Vec<RoutineProfile> {
        let Some(mut profiler) = self.profiler.take() else {
            return Vec::new();
        };
        while !profiler.frames.is_empty() {
            profiler.leave(self.cycles, false);
        }
        profiler.routines
    }
}

#[cfg(test)]
mod tests {
    use super::super::testrom::TestRom;
    use super::*;

    #[test]
    fn calls_and_inclusive_cycles_are_exact() {
        let rom = TestRom::new()
            .at(
                0x0150,
                &[
                    0x3E, 0x03, // $0150 ld a, 3
                    0xCD, 0x00, 0x02, // $0152 call A
                    0xCD, 0x20, 0x02, // $0155 call C
                    0xCD, 0x30, 0x02, // $0158 call R
                    0x31, 0x00, 0xD0, // $015B ld sp, $D000
                    0xCD, 0x40, 0x02, // $015E call W
                    0x18, 0xFE, // $0161 jr @ (never reached: V does not return)
                ],
            )
            .at(0x0170, &[0x18, 0xFE]) // $0170 jr @: the end
            // A: call z, B (taken: Z is set since boot); ret
            .at(0x0200, &[0xCC, 0x10, 0x02, 0xC9])
            // B: nop; ret
            .at(0x0210, &[0x00, 0xC9])
            // C: jp B (a tail call: B is not entered by a `call`)
            .at(0x0220, &[0xC3, 0x10, 0x02])
            // R: dec a; jr z, .done; call R; .done: ret
            .at(0x0230, &[0x3D, 0x28, 0x03, 0xCD, 0x30, 0x02, 0xC9])
            // W: call V; ret
            .at(0x0240, &[0xCD, 0x50, 0x02, 0xC9])
            // V: ld sp, $D002 (unwinds W's and its own frame); jp $0170
            .at(0x0250, &[0x31, 0x02, 0xD0, 0xC3, 0x70, 0x01])
            .build();
        let mut machine = Machine::new(&rom).unwrap();
        let routines = [0x0200, 0x0210, 0x0220, 0x0230, 0x0240, 0x0250];
        machine
            .start_profile(routines.map(Location::Address))
            .unwrap();
        machine.run_until(0x0170, 1000).unwrap();
        let measured: Vec<String> = machine
            .stop_profile()
            .iter()
            .map(|p| {
                format!(
                    "{} {} calls {} cycles {} unwound",
                    p.name, p.calls, p.cycles, p.unwound
                )
            })
            .collect();
        assert_eq!(
            measured,
            [
                // call z 6, B 5, ret 4
                "$0200 1 calls 15 cycles 0 unwound",
                // nop 1, ret 4; entered by A's call only
                "$0210 1 calls 5 cycles 0 unwound",
                // jp 4, then B's nop 1 and ret 4
                "$0220 1 calls 9 cycles 0 unwound",
                // three calls; the outermost: dec 1, jr 2, call 6, the inner 21, ret 4
                "$0230 3 calls 34 cycles 0 unwound",
                // call 6 and V's ld sp 3, when the stack is unwound
                "$0240 1 calls 9 cycles 1 unwound",
                "$0250 1 calls 3 cycles 1 unwound",
            ]
        );
        assert!(machine.stop_profile().is_empty());
    }

    #[test]
    fn a_label_the_sym_file_lacks_is_a_clear_error() {
        let mut machine = Machine::new(&TestRom::new().build()).unwrap();
        let error = machine
            .start_profile([Location::Label("GenerateMoves")])
            .unwrap_err()
            .to_string();
        assert!(error.contains("GenerateMoves"), "{error}");
        let error = machine
            .start_profile([Location::Address(0x0200), Location::Address(0x0200)])
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "$0200 and $0200 are the same address $0200: profile one of them"
        );
    }
}
