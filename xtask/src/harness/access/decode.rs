//! Instruction decoding: which memory the SM83 instruction at PC reads and writes, in which
//! of its machine cycles, with which value, which register pair it moves through the 16-bit
//! incrementer, and what the CPU does in its next step. Read before boytacean runs the
//! step, from the CPU's registers and memory as they are then.
//!
//! Stores land in their last cycle(s): `ld [hl], r` in cycle 2, `ld [hl], n8` and
//! `inc/dec [hl]` in cycle 3, `ld [n16], a` and CB `[hl]` read-modify-writes in cycle 4,
//! `ld [n16], sp` in cycles 4 and 5, `push` and `rst` in 3 and 4, `call` in 5 and 6, an
//! interrupt dispatch in 3 and 4. Loads read in their last cycle too: `ld r, [hl]` and the
//! ALU on `[hl]` in cycle 2, `ldh a, [n8]` in 3, `ld a, [n16]` in 4, CB `[hl]` in 3 (a
//! read-modify-write reads one cycle before it writes), `pop` and `ret` in 2 and 3.

use boytacean::gb::GameBoy;

const IF: u16 = 0xFF0F;
const IE: u16 = 0xFFFF;

/// The condition of a conditional `call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    Always,
    Nz,
    Z,
    Nc,
    C,
}

/// What an instruction does to memory that the harness cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// No memory write.
    None,
    /// Writes [HL] in the given machine cycle.
    Hl(u8),
    /// `ld [bc], a`: writes [BC] in cycle 2.
    Bc,
    /// `ld [de], a`: writes [DE] in cycle 2.
    De,
    /// `ld [n16], a`: writes [n16] in cycle 4.
    Absolute,
    /// `ldh [n8], a`: writes [$FF00+n8] in cycle 3.
    High,
    /// `ldh [c], a`: writes [$FF00+C] in cycle 2.
    HighC,
    /// `ld [n16], sp`: writes [n16] in cycle 4 and [n16+1] in cycle 5.
    AbsoluteSp,
    /// `push rr`, `rst`: writes [SP-1] in cycle 3 and [SP-2] in cycle 4.
    Push,
    /// `call (cc,) n16`: writes [SP-1] in cycle 5 and [SP-2] in cycle 6 when it calls.
    Call(Condition),
    /// The $CB prefix: the next byte says.
    Prefix,
    /// An opcode the SM83 does not have: hardware locks up, boytacean panics.
    Illegal,
    /// `stop`: boytacean runs it as a one-byte `nop`, hardware stops the CPU and the LCD.
    Stop,
}

const fn effect_of(opcode: u8) -> Effect {
    match opcode {
        0x02 => Effect::Bc,
        0x12 => Effect::De,
        // ld [hl+], a / ld [hl-], a
        0x22 | 0x32 => Effect::Hl(2),
        // inc [hl] / dec [hl] / ld [hl], n8
        0x34..=0x36 => Effect::Hl(3),
        // ld [hl], r (0x76 is halt)
        0x70..=0x75 | 0x77 => Effect::Hl(2),
        0x08 => Effect::AbsoluteSp,
        0xEA => Effect::Absolute,
        0xE0 => Effect::High,
        0xE2 => Effect::HighC,
        0xC5 | 0xD5 | 0xE5 | 0xF5 => Effect::Push,
        0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => Effect::Push,
        0xCD => Effect::Call(Condition::Always),
        0xC4 => Effect::Call(Condition::Nz),
        0xCC => Effect::Call(Condition::Z),
        0xD4 => Effect::Call(Condition::Nc),
        0xDC => Effect::Call(Condition::C),
        0xCB => Effect::Prefix,
        0xD3 | 0xDB | 0xDD | 0xE3 | 0xE4 | 0xEB | 0xEC | 0xED | 0xF4 | 0xFC | 0xFD => {
            Effect::Illegal
        }
        0x10 => Effect::Stop,
        _ => Effect::None,
    }
}

/// The 256-entry table of `$entry(opcode)` for every unprefixed opcode, built at compile
/// time by a `const fn` `$entry` (a macro, as a constant cannot call a function pointer,
/// and a `while` loop, as it cannot run a `for`).
macro_rules! opcode_table {
    ($entry:path) => {{
        // Every entry starts as opcode 0's, which also gives the table its type.
        let mut table = [$entry(0); 256];
        let mut opcode = 1;
        while opcode < 256 {
            table[opcode] = $entry(opcode as u8);
            opcode += 1;
        }
        table
    }};
}

/// The effect of every unprefixed opcode, looked up once per step.
pub const EFFECTS: [Effect; 256] = opcode_table!(effect_of);

/// The effect of a $CB-prefixed opcode: every `[hl]` form writes in cycle 4 except `bit`.
pub const fn prefixed_effect(opcode: u8) -> Effect {
    if opcode & 0x07 == 0x06 && !(opcode >= 0x40 && opcode < 0x80) {
        Effect::Hl(4)
    } else {
        Effect::None
    }
}

/// Where an instruction reads memory: the address, and the machine cycle it reads it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// No memory read (besides the instruction's own bytes).
    None,
    /// Reads [HL] in the given machine cycle (`ld r, [hl]`, `add a, [hl]`, `inc [hl]`, ...).
    Hl(u8),
    /// `ld a, [bc]`: reads [BC] in cycle 2.
    Bc,
    /// `ld a, [de]`: reads [DE] in cycle 2.
    De,
    /// `ld a, [n16]`: reads [n16] in cycle 4.
    Absolute,
    /// `ldh a, [n8]`: reads [$FF00+n8] in cycle 3.
    High,
    /// `ldh a, [c]`: reads [$FF00+C] in cycle 2.
    HighC,
    /// `pop rr`, `ret`, `reti`: reads [SP] in cycle 2 and [SP+1] in cycle 3.
    Pop,
    /// `ret cc`: reads [SP] in cycle 3 and [SP+1] in cycle 4 when it returns.
    Return(Condition),
}

const fn read_of(opcode: u8) -> Read {
    match opcode {
        0x0A => Read::Bc,
        0x1A => Read::De,
        // ld a, [hl+] / ld a, [hl-]; inc [hl] / dec [hl] (which write in cycle 3)
        0x2A | 0x3A | 0x34 | 0x35 => Read::Hl(2),
        // ld r, [hl] (0x76 is halt) and the ALU on [hl]
        0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => Read::Hl(2),
        0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => Read::Hl(2),
        0xFA => Read::Absolute,
        0xF0 => Read::High,
        0xF2 => Read::HighC,
        0xC1 | 0xD1 | 0xE1 | 0xF1 | 0xC9 | 0xD9 => Read::Pop,
        0xC0 => Read::Return(Condition::Nz),
        0xC8 => Read::Return(Condition::Z),
        0xD0 => Read::Return(Condition::Nc),
        0xD8 => Read::Return(Condition::C),
        _ => Read::None,
    }
}

/// The read of every unprefixed opcode.
pub const READS: [Read; 256] = opcode_table!(read_of);

/// The read of a $CB-prefixed opcode: every `[hl]` form, `bit` included, reads in cycle 3.
pub const fn prefixed_read(opcode: u8) -> Read {
    if opcode & 0x07 == 0x06 {
        Read::Hl(3)
    } else {
        Read::None
    }
}

/// A 16-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pair {
    Bc,
    De,
    Hl,
    Sp,
}

/// Which register pair an instruction increments or decrements with the CPU's 16-bit
/// incrementer (which puts the pair's value on the address bus, see the OAM corruption
/// check), and in how many machine cycles the instruction does it (all of them counted).
const fn incremented_pair(opcode: u8) -> Option<(Pair, u8, Condition)> {
    let always = Condition::Always;
    match opcode {
        0x03 | 0x0B => Some((Pair::Bc, 2, always)),
        0x13 | 0x1B => Some((Pair::De, 2, always)),
        0x23 | 0x2B => Some((Pair::Hl, 2, always)),
        0x33 | 0x3B => Some((Pair::Sp, 2, always)),
        // ld [hl+], a / ld a, [hl+] / ld [hl-], a / ld a, [hl-]
        0x22 | 0x2A | 0x32 | 0x3A => Some((Pair::Hl, 2, always)),
        // push, rst
        0xC5 | 0xD5 | 0xE5 | 0xF5 => Some((Pair::Sp, 4, always)),
        0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => Some((Pair::Sp, 4, always)),
        // pop, ret, reti
        0xC1 | 0xD1 | 0xE1 | 0xF1 => Some((Pair::Sp, 3, always)),
        0xC9 | 0xD9 => Some((Pair::Sp, 4, always)),
        0xCD => Some((Pair::Sp, 6, always)),
        0xC4 => Some((Pair::Sp, 6, Condition::Nz)),
        0xCC => Some((Pair::Sp, 6, Condition::Z)),
        0xD4 => Some((Pair::Sp, 6, Condition::Nc)),
        0xDC => Some((Pair::Sp, 6, Condition::C)),
        0xC0 => Some((Pair::Sp, 5, Condition::Nz)),
        0xC8 => Some((Pair::Sp, 5, Condition::Z)),
        0xD0 => Some((Pair::Sp, 5, Condition::Nc)),
        0xD8 => Some((Pair::Sp, 5, Condition::C)),
        _ => None,
    }
}

/// `halt`, `di`, `ei`: watched for the DMG's interrupt quirks.
pub const HALT: u8 = 0x76;
pub const DI: u8 = 0xF3;
pub const EI: u8 = 0xFB;

/// Whether the harness must look closer at an unprefixed opcode before it runs: it writes,
/// reads memory, moves a register pair through the incrementer, or is `halt`, `di`, `ei`.
pub const WATCHED: [bool; 256] = opcode_table!(is_watched);

const fn is_watched(opcode: u8) -> bool {
    !matches!(effect_of(opcode), Effect::None)
        || !matches!(read_of(opcode), Read::None)
        || incremented_pair(opcode).is_some()
        || matches!(opcode, HALT | DI | EI)
}

/// What the harness must still look at with the access checks off (perft and benchmark
/// runs): a load that may read rP1 into a register (bits 6-7 then read as 1, as on a DMG),
/// and `stop` and the illegal opcodes, which boytacean cannot run like hardware. Looking
/// at fewer opcodes keeps those runs fast: the harness is built without optimisation.
pub const WATCHED_WITHOUT_CHECKS: [bool; 256] = opcode_table!(is_watched_without_checks);

const fn is_watched_without_checks(opcode: u8) -> bool {
    loaded_register_of(opcode).is_some()
        || matches!(effect_of(opcode), Effect::Illegal | Effect::Stop)
}

/// The register an unprefixed load from memory writes (0-5 = b, c, d, e, h, l; 7 = a).
const fn loaded_register_of(opcode: u8) -> Option<u8> {
    match opcode {
        0x0A | 0x1A | 0x2A | 0x3A | 0xF0 | 0xF2 | 0xFA => Some(7),
        0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => Some((opcode >> 3) & 7),
        _ => None,
    }
}

/// The instruction at PC: its opcode, the byte after a $CB prefix, and its effect (the
/// prefixed instruction's for $CB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub opcode: u8,
    pub prefixed: Option<u8>,
    pub effect: Effect,
}

impl Instruction {
    /// Completes the decoding of `opcode` at PC whose table effect is `effect`.
    pub fn at_pc(gb: &GameBoy, opcode: u8, effect: Effect) -> Instruction {
        match effect {
            Effect::Prefix => {
                let second = gb.mmu_i().read(gb.cpu_i().pc().wrapping_add(1));
                Instruction {
                    opcode,
                    prefixed: Some(second),
                    effect: prefixed_effect(second),
                }
            }
            effect => Instruction {
                opcode,
                prefixed: None,
                effect,
            },
        }
    }

    /// The addresses this instruction reads and the machine cycles it reads them in.
    pub fn reads(&self, gb: &GameBoy) -> [Option<(u16, u8)>; 2] {
        let cpu = gb.cpu_i();
        let mmu = gb.mmu_i();
        let pc = cpu.pc();
        let sp = cpu.sp();
        let read = match self.prefixed {
            Some(second) => prefixed_read(second),
            None => READS[usize::from(self.opcode)],
        };
        match read {
            Read::None => [None, None],
            Read::Hl(cycle) => [Some((cpu.hl(), cycle)), None],
            Read::Bc => [Some((cpu.bc(), 2)), None],
            Read::De => [Some((cpu.de(), 2)), None],
            Read::Absolute => {
                let addr = u16::from_le_bytes([
                    mmu.read(pc.wrapping_add(1)),
                    mmu.read(pc.wrapping_add(2)),
                ]);
                [Some((addr, 4)), None]
            }
            Read::High => [
                Some((0xFF00 | u16::from(mmu.read(pc.wrapping_add(1))), 3)),
                None,
            ],
            Read::HighC => [Some((0xFF00 | u16::from(cpu.c), 2)), None],
            Read::Pop => [Some((sp, 2)), Some((sp.wrapping_add(1), 3))],
            Read::Return(condition) if holds(gb, condition) => {
                [Some((sp, 3)), Some((sp.wrapping_add(1), 4))]
            }
            Read::Return(_) => [None, None],
        }
    }

    /// The value of the register pair this instruction moves through the 16-bit
    /// incrementer, and the machine cycles it takes (the incrementer works in some of them).
    pub fn incremented_pointer(&self, gb: &GameBoy) -> Option<(u16, u8)> {
        if self.prefixed.is_some() {
            return None;
        }
        let (pair, cycles, condition) = incremented_pair(self.opcode)?;
        if !holds(gb, condition) {
            return None;
        }
        let cpu = gb.cpu_i();
        let value = match pair {
            Pair::Bc => cpu.bc(),
            Pair::De => cpu.de(),
            Pair::Hl => cpu.hl(),
            Pair::Sp => cpu.sp(),
        };
        Some((value, cycles))
    }

    /// The register (0-7: B, C, D, E, H, L, -, A) this instruction loads from the byte it
    /// reads, for plain loads (`ld r, [hl]`, `ld a, [bc]`, `ldh a, [n8]`, ...).
    pub fn loaded_register(&self) -> Option<u8> {
        match self.prefixed {
            None => loaded_register_of(self.opcode),
            Some(_) => None,
        }
    }

    /// The addresses this instruction writes and the machine cycles it writes them in.
    pub fn writes(&self, gb: &GameBoy) -> [Option<(u16, u8)>; 2] {
        let cpu = gb.cpu_i();
        let mmu = gb.mmu_i();
        let pc = cpu.pc();
        let sp = cpu.sp();
        let operand =
            || u16::from_le_bytes([mmu.read(pc.wrapping_add(1)), mmu.read(pc.wrapping_add(2))]);
        match self.effect {
            Effect::Hl(cycle) => [Some((cpu.hl(), cycle)), None],
            Effect::Bc => [Some((cpu.bc(), 2)), None],
            Effect::De => [Some((cpu.de(), 2)), None],
            Effect::Absolute => [Some((operand(), 4)), None],
            Effect::AbsoluteSp => {
                let addr = operand();
                [Some((addr, 4)), Some((addr.wrapping_add(1), 5))]
            }
            Effect::High => [
                Some((0xFF00 | u16::from(mmu.read(pc.wrapping_add(1))), 3)),
                None,
            ],
            Effect::HighC => [Some((0xFF00 | u16::from(cpu.c), 2)), None],
            Effect::Push => [Some((sp.wrapping_sub(1), 3)), Some((sp.wrapping_sub(2), 4))],
            Effect::Call(condition) if holds(gb, condition) => {
                [Some((sp.wrapping_sub(1), 5)), Some((sp.wrapping_sub(2), 6))]
            }
            _ => [None, None],
        }
    }

    /// The byte this store writes, from the CPU's registers and, for read-modify-write
    /// instructions, the byte at [HL] now.
    pub fn stored_value(&self, gb: &GameBoy) -> u8 {
        let cpu = gb.cpu_i();
        let mmu = gb.mmu_i();
        let old = || mmu.read(cpu.hl());
        match (self.opcode, self.prefixed) {
            (0x70..=0x77, _) => {
                [cpu.b, cpu.c, cpu.d, cpu.e, cpu.h, cpu.l, 0, cpu.a][usize::from(self.opcode & 7)]
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

/// Whether `condition` holds for the CPU's flags now.
fn holds(gb: &GameBoy, condition: Condition) -> bool {
    let cpu = gb.cpu_i();
    match condition {
        Condition::Always => true,
        Condition::Nz => !cpu.zero(),
        Condition::Z => cpu.zero(),
        Condition::Nc => !cpu.carry(),
        Condition::C => cpu.carry(),
    }
}

/// The interrupts requested and enabled now (IF & IE, the five sources).
pub fn pending_interrupts(gb: &GameBoy) -> u8 {
    let mmu = gb.mmu_i();
    mmu.read(IF) & mmu.read(IE) & 0x1F
}

/// What the CPU does in its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextStep {
    /// Executes the instruction at PC.
    Instruction,
    /// Dispatches an interrupt (pushes PC, jumps to the vector).
    Interrupt,
    /// Stays halted for one machine cycle.
    Halted,
}

/// What the CPU does in its next step, as boytacean's `Cpu::clock` decides it.
pub fn next_step(gb: &GameBoy) -> NextStep {
    let cpu = gb.cpu_i();
    let mmu = gb.mmu_i();
    let (ime, halted) = (cpu.ime(), cpu.halted());
    let enabled = mmu.read(IE);
    let pending = if (ime || halted) && enabled != 0 {
        mmu.read(IF) & enabled & 0x1F
    } else {
        0
    };
    if ime && pending != 0 {
        NextStep::Interrupt
    } else if halted && pending == 0 {
        NextStep::Halted
    } else {
        NextStep::Instruction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_store_form_is_decoded_with_its_write_cycle() {
        // ld [hl], b ... ld [hl], l, ld [hl], a; halt (0x76) is not a store.
        for opcode in (0x70..=0x75).chain([0x77]) {
            assert_eq!(EFFECTS[opcode], Effect::Hl(2), "opcode {opcode:02X}");
        }
        assert_eq!(EFFECTS[0x76], Effect::None);
        assert_eq!(EFFECTS[0x22], Effect::Hl(2));
        assert_eq!(EFFECTS[0x32], Effect::Hl(2));
        assert_eq!(EFFECTS[0x36], Effect::Hl(3));
        assert_eq!(EFFECTS[0x34], Effect::Hl(3));
        assert_eq!(EFFECTS[0x35], Effect::Hl(3));
        assert_eq!(EFFECTS[0x02], Effect::Bc);
        assert_eq!(EFFECTS[0x12], Effect::De);
        assert_eq!(EFFECTS[0xEA], Effect::Absolute);
        assert_eq!(EFFECTS[0x08], Effect::AbsoluteSp);
        assert_eq!(EFFECTS[0xE0], Effect::High);
        assert_eq!(EFFECTS[0xE2], Effect::HighC);
        assert_eq!(EFFECTS[0xFF], Effect::Push);
        assert_eq!(EFFECTS[0xDC], Effect::Call(Condition::C));
        let stores = EFFECTS.iter().filter(|e| **e != Effect::None).count();
        // 7 ld [hl],r + 2 ld [hl±] + 3 [hl] ops + bc + de + abs + abs sp + 2 ldh + 4 push
        // + 8 rst + 5 call + prefix + 11 illegal + stop
        assert_eq!(stores, 7 + 2 + 3 + 2 + 2 + 2 + 4 + 8 + 5 + 1 + 11 + 1);
        // CB: rlc..srl [hl], res b,[hl], set b,[hl] write in cycle 4; bit b,[hl] does not.
        let writing: Vec<u8> = (0..=255u8)
            .filter(|&op| prefixed_effect(op) == Effect::Hl(4))
            .collect();
        assert_eq!(writing.len(), 8 + 8 + 8);
        assert!(writing.contains(&0x06) && writing.contains(&0x86) && writing.contains(&0xFE));
        assert_eq!(prefixed_effect(0x46), Effect::None);
        assert_eq!(prefixed_effect(0x7E), Effect::None);
    }
}
