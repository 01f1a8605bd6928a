//! PPU access checking: what the PPU is doing at the machine cycle an SM83 instruction
//! writes VRAM or OAM, and whether hardware would take the write.
//!
//! boytacean lets the CPU write VRAM and OAM at any time. On hardware a write to VRAM
//! ($8000-$9FFF) while the PPU draws (mode 3), or to OAM ($FE00-$FE9F) while it scans or
//! draws (modes 2 and 3), is lost. The [`PpuAccessChecker`] therefore looks at the
//! instruction at PC before every step ([`decode`] works out the address and machine cycle
//! of each write it makes) and records a [`Violation`] for each write hardware would drop.
//!
//! Timing. boytacean runs a whole instruction first and then advances the PPU by the
//! instruction's cycles, keeping the remainder when a mode ends, so its PPU position is
//! exact to the dot. The checker mirrors the dot counter of the current mode and computes
//! the PPU's mode at the write's own machine cycle (cycle `k` of an instruction starting at
//! dot `d` of a mode covers dots `d+4(k-1)` to `d+4k`), not at the instruction's start.
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

pub mod decode;

use std::fmt;

use boytacean::gb::GameBoy;
use boytacean::ppu::PpuMode;

use crate::project::plural;

use super::symbols::Symbols;
use decode::{next_step, Effect, Instruction, NextStep};

/// Dots in one machine cycle.
pub const DOTS_PER_CYCLE: u16 = 4;

const LCDC: u16 = 0xFF40;

/// Violations kept for `violations()`; later ones are only counted.
const MAX_KEPT_VIOLATIONS: usize = 1000;
/// Distinct PCs listed by `report`.
const MAX_REPORTED_SITES: usize = 20;

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

/// When a step runs, for the violations it may record.
#[derive(Clone, Copy)]
pub struct Moment<'a> {
    /// VBlanks begun since power-on.
    pub frame: u64,
    /// Machine cycles executed since power-on.
    pub cycle: u64,
    pub symbols: &'a Symbols,
}

/// The checker's state, owned by the [`super::Machine`]: the PPU's dot counter mirrored,
/// and the violations seen.
#[derive(Default)]
pub struct PpuAccessChecker {
    /// Dots the PPU has spent in its current mode (boytacean keeps this private).
    dot: u16,
    /// The first [`MAX_KEPT_VIOLATIONS`] violations.
    violations: Vec<Violation>,
    /// All violations, kept or not.
    count: u64,
}

impl PpuAccessChecker {
    /// Whether the step about to run, of an instruction whose table effect is `effect`, can
    /// break a rule at all: a store, OAM DMA under way, or a stack that could be in VRAM or
    /// OAM (for an interrupt's push). Cheap: most steps stop here.
    pub fn watches(gb: &GameBoy, effect: Effect) -> bool {
        // `matches!` rather than `==`: no call in unoptimised builds, on the hottest path.
        !matches!(effect, Effect::None)
            || gb.dma_i().active_dma()
            || stack_may_be_locked(gb.cpu_i().sp())
    }

    /// Records the rules the next step of the CPU breaks, `instruction` being the one at PC.
    pub fn before_step(&mut self, gb: &GameBoy, instruction: &Instruction, moment: Moment<'_>) {
        let pc = gb.cpu_i().pc();
        let lcd_on = gb.mmu_i().read(LCDC) & 0x80 != 0;
        let outside_hram_during_dma = gb.dma_i().active_dma() && !(0xFF80..=0xFFFE).contains(&pc);
        let writes = match lcd_on {
            true => instruction.writes(gb),
            false => [None, None],
        };
        let watched = |write: Option<(u16, u8)>| {
            write.is_some_and(|(addr, _)| region(addr).is_some() || addr == LCDC)
        };
        let stack_locked = lcd_on && stack_may_be_locked(gb.cpu_i().sp());
        if !outside_hram_during_dma && !watched(writes[0]) && !watched(writes[1]) && !stack_locked {
            return;
        }
        let here = PpuPosition {
            mode: gb.ppu_i().mode(),
            ly: gb.ppu_i().ly(),
            dot: self.dot,
        };
        let by_instruction: Vec<_> = writes
            .into_iter()
            .flatten()
            .filter_map(|(addr, cycle)| check_write(gb, addr, cycle, here, instruction))
            .collect();
        let by_dispatch = match stack_locked {
            true => dispatch_violations(gb, here),
            false => Vec::new(),
        };
        if !outside_hram_during_dma && by_instruction.is_empty() && by_dispatch.is_empty() {
            return;
        }
        // Only now pay for reading IF and IE: what runs in this step decides what counts.
        let next = next_step(gb);
        if outside_hram_during_dma && next != NextStep::Halted {
            self.record(ViolationKind::OutsideHramDuringDma, pc, pc, here, moment);
        }
        let found = match next {
            NextStep::Instruction => by_instruction,
            NextStep::Interrupt => by_dispatch,
            NextStep::Halted => Vec::new(),
        };
        for (kind, addr, at) in found {
            self.record(kind, pc, addr, at, moment);
        }
    }

    /// Follows the PPU through a step of `dots` dots that took it from `before` (mode, LY) to
    /// `after`, `lcd_on` being LCDC bit 7 after the step. The PPU's state between the CPU and
    /// its own clock differs from `before` only when the instruction turned the LCD off
    /// (boytacean then resets it to line 0, HBlank, dot 0), and that case is handled apart.
    pub fn after_step(
        &mut self,
        before: (PpuMode, u8),
        after: (PpuMode, u8),
        dots: u16,
        lcd_on: bool,
    ) {
        if !lcd_on {
            self.dot = 0;
            return;
        }
        let dot = self.dot + dots;
        let (mode, length) = (before.0, mode_length(before.0));
        if after.0 as u8 != mode as u8 || after.1 != before.1 {
            debug_assert!(dot >= length, "PPU left mode {mode:?} at dot {dot}");
            self.dot = dot - length;
        } else {
            debug_assert!(dot < length, "PPU stayed in mode {mode:?} at dot {dot}");
            self.dot = dot;
        }
    }

    /// Follows LCDC being written from outside the CPU: the LCD off resets the PPU.
    pub fn lcd_written(&mut self, lcd_on: bool) {
        if !lcd_on {
            self.dot = 0;
        }
    }

    /// The first 1000 violations, in the order they happened.
    #[cfg(test)]
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// How many violations happened in all.
    #[cfg(test)]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Forgets the violations seen so far.
    #[cfg(test)]
    pub fn clear(&mut self) {
        self.violations.clear();
        self.count = 0;
    }

    /// A readable list of the violations (one line per offending PC and kind, with how
    /// often it offended), or `None` when there were none.
    pub fn report(&self) -> Option<String> {
        if self.count == 0 {
            return None;
        }
        let mut sites: Vec<(&Violation, u64)> = Vec::new();
        for violation in &self.violations {
            match sites
                .iter_mut()
                .find(|(first, _)| first.pc == violation.pc && first.kind == violation.kind)
            {
                Some((_, count)) => *count += 1,
                None => sites.push((violation, 1)),
            }
        }
        let mut report = format!(
            "{} at {} in the code:",
            plural(self.count, "PPU access violation"),
            plural(sites.len(), "place")
        );
        for (violation, count) in sites.iter().take(MAX_REPORTED_SITES) {
            report.push_str(&format!("\n  {violation}"));
            if *count > 1 {
                report.push_str(&format!(" [{count} times]"));
            }
        }
        if sites.len() > MAX_REPORTED_SITES {
            report.push_str(&format!(
                "\n  ... and {} more",
                plural(sites.len() - MAX_REPORTED_SITES, "place")
            ));
        }
        if self.count > self.violations.len() as u64 {
            report.push_str(&format!(
                "\n  (only the first {} were kept)",
                self.violations.len()
            ));
        }
        Some(report)
    }

    fn record(
        &mut self,
        kind: ViolationKind,
        pc: u16,
        addr: u16,
        at: PpuPosition,
        moment: Moment<'_>,
    ) {
        self.count += 1;
        if self.violations.len() < MAX_KEPT_VIOLATIONS {
            self.violations.push(Violation {
                kind,
                pc,
                addr,
                mode: mode_number(at.mode),
                ly: at.ly,
                frame: moment.frame,
                cycle: moment.cycle,
                label: moment.symbols.describe(pc),
            });
        }
    }
}

/// Whether `instruction` writing `addr` in its machine cycle `cycle` breaks a rule, the PPU
/// being at `here` when it starts.
fn check_write(
    gb: &GameBoy,
    addr: u16,
    cycle: u8,
    here: PpuPosition,
    instruction: &Instruction,
) -> Option<(ViolationKind, u16, PpuPosition)> {
    if let Some(region) = region(addr) {
        let at = here.at_cycle(cycle);
        return is_locked(region, at.mode).then_some((violation_kind(region), addr, at));
    }
    if addr != LCDC {
        return None;
    }
    let at = here.at_cycle(cycle);
    if at.mode == PpuMode::VBlank {
        return None;
    }
    let old = gb.mmu_i().read(LCDC);
    let new = instruction.stored_value(gb);
    (old & 0x80 != 0 && new & 0x80 == 0).then_some((ViolationKind::LcdOffOutsideVblank, addr, at))
}

/// The forbidden writes of an interrupt dispatch, if one happens now: it pushes PC in its
/// cycles 3 and 4, which matters only with the stack in VRAM or OAM.
fn dispatch_violations(gb: &GameBoy, here: PpuPosition) -> Vec<(ViolationKind, u16, PpuPosition)> {
    let sp = gb.cpu_i().sp();
    let mut found = Vec::new();
    for (addr, cycle) in [(sp.wrapping_sub(1), 3), (sp.wrapping_sub(2), 4)] {
        let at = here.at_cycle(cycle);
        if let Some(region) = region(addr) {
            if is_locked(region, at.mode) {
                found.push((violation_kind(region), addr, at));
            }
        }
    }
    found
}

fn violation_kind(region: Region) -> ViolationKind {
    match region {
        Region::Vram => ViolationKind::VramWrite,
        Region::Oam => ViolationKind::OamWrite,
    }
}

/// Whether a push from this SP could land in VRAM or OAM.
fn stack_may_be_locked(sp: u16) -> bool {
    (0x8001..=0xA001).contains(&sp) || (0xFE01..=0xFEA1).contains(&sp)
}

#[cfg(test)]
mod tests {
    use super::*;

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
