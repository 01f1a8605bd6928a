//! PPU access checking: which memory an SM83 instruction writes, in which of its machine
//! cycles, and what the PPU is doing at that moment.
//!
//! boytacean lets the CPU write VRAM and OAM at any time. On hardware a write to VRAM
//! ($8000-$9FFF) while the PPU draws (mode 3), or to OAM ($FE00-$FE9F) while it scans or
//! draws (modes 2 and 3), is lost. The harness therefore decodes the instruction at PC
//! before every step and works out the address and machine cycle of each write it makes.
//!
//! Timing. boytacean runs a whole instruction first and then advances the PPU by the
//! instruction's cycles, keeping the remainder when a mode ends, so its PPU position is
//! exact to the dot. The harness mirrors the dot counter of the current mode and computes
//! the PPU's mode at the write's own machine cycle (cycle `k` of an instruction starting at
//! dot `d` of a mode covers dots `d+4(k-1)` to `d+4k`), not at the instruction's start.
//! Stores land in their last cycle(s): `ld [hl], r` in cycle 2, `ld [hl], n8` and
//! `inc/dec [hl]` in cycle 3, `ld [n16], a` and CB `[hl]` read-modify-writes in cycle 4,
//! `ld [n16], sp` in cycles 4 and 5, `push` and `rst` in 3 and 4, `call` in 5 and 6, an
//! interrupt dispatch in 3 and 4.
//!
//! Two more hardware rules are checked on the way: the CPU must stay in HRAM while OAM DMA
//! runs (the other buses are busy), and the LCD may be turned off (LCDC bit 7 cleared) only
//! in VBlank.
//!
//! Mode lengths are boytacean's: mode 2 80 dots, mode 3 172, mode 0 204, a line 456, a
//! frame 154 lines (70,224 dots, 17,556 machine cycles). On hardware mode 3 lasts 172 to
//! 289 dots (objects, SCX, the window), so mode 0 can be as short as 87 dots; the check
//! therefore proves a write safe only for the shortest mode 3. Keep HBlank writes to a few
//! bytes right after STAT shows mode 0, and do bulk copies in VBlank.

use std::fmt;

use boytacean::ppu::PpuMode;

/// Dots in one machine cycle.
pub const DOTS_PER_CYCLE: u16 = 4;

/// The condition of a conditional `call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    Always,
    Nz,
    Z,
    Nc,
    C,
}

/// What an instruction does to memory that the checker cares about.
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

/// The effect of every unprefixed opcode, looked up once per step.
pub const EFFECTS: [Effect; 256] = {
    let mut table = [Effect::None; 256];
    let mut opcode = 0;
    while opcode < 256 {
        table[opcode] = effect_of(opcode as u8);
        opcode += 1;
    }
    table
};

/// The effect of a $CB-prefixed opcode: every `[hl]` form writes in cycle 4 except `bit`.
pub const fn prefixed_effect(opcode: u8) -> Effect {
    if opcode & 0x07 == 0x06 && !(opcode >= 0x40 && opcode < 0x80) {
        Effect::Hl(4)
    } else {
        Effect::None
    }
}

/// The PPU's position: mode, LY, and dots spent in the current mode so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpuPosition {
    pub mode: PpuMode,
    pub ly: u8,
    pub dot: u16,
}

/// How many dots boytacean's PPU stays in each mode (for VBlank: per line).
pub const fn mode_length(mode: PpuMode) -> u16 {
    match mode {
        PpuMode::OamRead => 80,
        PpuMode::VramRead => 172,
        PpuMode::HBlank => 204,
        PpuMode::VBlank => 456,
    }
}

impl PpuPosition {
    /// Where the PPU is `dots` dots later; `dots` must be shorter than any mode (80 dots),
    /// which every single instruction is (at most 24 dots).
    pub fn after(self, dots: u16) -> PpuPosition {
        let dot = self.dot + dots;
        let length = mode_length(self.mode);
        if dot < length {
            return PpuPosition { dot, ..self };
        }
        let dot = dot - length;
        let (mode, ly) = match self.mode {
            PpuMode::OamRead => (PpuMode::VramRead, self.ly),
            PpuMode::VramRead => (PpuMode::HBlank, self.ly),
            PpuMode::HBlank if self.ly == 143 => (PpuMode::VBlank, 144),
            PpuMode::HBlank => (PpuMode::OamRead, self.ly + 1),
            PpuMode::VBlank if self.ly == 153 => (PpuMode::OamRead, 0),
            PpuMode::VBlank => (PpuMode::VBlank, self.ly + 1),
        };
        PpuPosition { mode, ly, dot }
    }

    /// The position during machine cycle `cycle` (1-based) of an instruction that starts here.
    pub fn at_cycle(self, cycle: u8) -> PpuPosition {
        self.after(DOTS_PER_CYCLE * (u16::from(cycle) - 1))
    }
}

/// The STAT mode number (0-3) of a boytacean PPU mode.
pub fn mode_number(mode: PpuMode) -> u8 {
    mode as u8
}

/// The memory the PPU locks: VRAM in mode 3, OAM in modes 2 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Vram,
    Oam,
}

/// The PPU-locked region `addr` is in, if any.
pub fn region(addr: u16) -> Option<Region> {
    match addr {
        0x8000..=0x9FFF => Some(Region::Vram),
        0xFE00..=0xFE9F => Some(Region::Oam),
        _ => None,
    }
}

/// Whether a CPU write to `region` is lost while the PPU is in `mode`.
pub fn is_locked(region: Region, mode: PpuMode) -> bool {
    match region {
        Region::Vram => mode == PpuMode::VramRead,
        Region::Oam => matches!(mode, PpuMode::OamRead | PpuMode::VramRead),
    }
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// A write to VRAM while the PPU was in mode 3 (hardware drops it).
    VramWrite,
    /// A write to OAM while the PPU was in mode 2 or 3 (hardware drops it).
    OamWrite,
    /// The CPU ran code (or took an interrupt) outside HRAM during OAM DMA; on hardware
    /// it would read garbage from the busy bus.
    OutsideHramDuringDma,
    /// LCDC bit 7 cleared (LCD turned off) outside VBlank, which hardware forbids.
    LcdOffOutsideVblank,
}

/// One access the hardware would not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The address of the instruction (for an interrupt dispatch: the PC it interrupted).
    pub pc: u16,
    /// The address written (for `OutsideHramDuringDma`: the PC).
    pub addr: u16,
    /// The PPU mode (0-3) at the write's machine cycle.
    pub mode: u8,
    /// LY at the write's machine cycle.
    pub ly: u8,
    /// How many VBlanks had begun before the write (0 during the first frame).
    pub frame: u64,
    /// The machine cycle count at the start of the instruction.
    pub cycle: u64,
    /// `pc` as the nearest label below it (`Main.loop+$0003`), when symbols are loaded.
    pub label: Option<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PC ${:04X}", self.pc)?;
        if let Some(label) = &self.label {
            write!(f, " ({label})")?;
        }
        let when = format!(
            "(mode {}, LY {}, frame {}, cycle {})",
            self.mode, self.ly, self.frame, self.cycle
        );
        match self.kind {
            ViolationKind::VramWrite => write!(
                f,
                ": writes VRAM ${:04X} while the PPU draws {when}",
                self.addr
            ),
            ViolationKind::OamWrite => write!(
                f,
                ": writes OAM ${:04X} while the PPU reads OAM {when}",
                self.addr
            ),
            ViolationKind::OutsideHramDuringDma => {
                write!(f, ": runs outside HRAM during OAM DMA {when}")
            }
            ViolationKind::LcdOffOutsideVblank => {
                write!(f, ": turns the LCD off outside VBlank {when}")
            }
        }
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

    #[test]
    fn the_position_moves_through_the_modes_like_boytacean() {
        let start = PpuPosition {
            mode: PpuMode::VramRead,
            ly: 5,
            dot: 168,
        };
        assert_eq!(start.at_cycle(1), start);
        assert_eq!(
            start.at_cycle(2),
            PpuPosition {
                mode: PpuMode::HBlank,
                ly: 5,
                dot: 0
            }
        );
        let end_of_line = PpuPosition {
            mode: PpuMode::HBlank,
            ly: 143,
            dot: 200,
        };
        assert_eq!(
            end_of_line.after(8),
            PpuPosition {
                mode: PpuMode::VBlank,
                ly: 144,
                dot: 4
            }
        );
        let end_of_frame = PpuPosition {
            mode: PpuMode::VBlank,
            ly: 153,
            dot: 452,
        };
        assert_eq!(end_of_frame.after(4).mode, PpuMode::OamRead);
        assert_eq!(end_of_frame.after(4).ly, 0);
        // A line is 456 dots and a frame 154 lines: 17,556 machine cycles.
        let line: u16 = [PpuMode::OamRead, PpuMode::VramRead, PpuMode::HBlank]
            .into_iter()
            .map(mode_length)
            .sum();
        assert_eq!(line, mode_length(PpuMode::VBlank));
        assert_eq!(u32::from(line) * 154 / u32::from(DOTS_PER_CYCLE), 17_556);
    }
}
