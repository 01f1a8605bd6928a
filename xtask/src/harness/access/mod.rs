//! Hardware checking: what the PPU is doing at the machine cycle an SM83 instruction
//! touches VRAM or OAM, and the DMG quirks boytacean does not emulate, so that a ROM that
//! passes in the emulator also works on a real DMG.
//!
//! boytacean lets the CPU read and write VRAM and OAM at any time. On hardware the PPU locks
//! VRAM ($8000-$9FFF) while it draws (mode 3) and OAM ($FE00-$FE9F) while it scans or draws
//! (modes 2 and 3): a write is lost and a read returns $FF. The [`PpuAccessChecker`] looks at
//! the instruction at PC before every step ([`decode`] works out the address and machine
//! cycle of each read and write it makes) and records a [`Violation`] for each access
//! hardware would refuse.
//!
//! Timing. boytacean runs a whole instruction first and then advances the PPU by the
//! instruction's cycles, keeping the remainder when a mode ends, so its PPU position is
//! exact to the dot. The checker mirrors the dot counter of the current mode and computes
//! the PPU's mode at the access's own machine cycle (cycle `k` of an instruction starting at
//! dot `d` of a mode covers dots `d+4(k-1)` to `d+4k`), not at the instruction's start.
//!
//! Mode 3 as long as hardware makes it. boytacean's lines are always mode 2 for 80 dots,
//! mode 3 for 172, HBlank for 204 (456 dots a line, 154 lines, 70,224 dots or 17,556
//! machine cycles a frame). On a DMG mode 3 takes 172 dots plus SCX mod 8, plus a penalty
//! for the window and for each object on the line: up to 289 dots, which leaves HBlank 87.
//! The checker does not work out the penalties; it takes every line to be the longest a
//! DMG can draw: VRAM is locked in dots 80-368 of each visible line, OAM in dots 0-368
//! (HBlank accesses pass only in the last 87 dots of a line). So an access passes
//! only if it is safe on every line a ROM can produce. One exception keeps the usual
//! STAT-polling copy legal: once the CPU has read STAT and seen mode 0 or 1 (bit 1 clear),
//! VRAM is free for the next 80 dots whatever the line's length, because on hardware such a
//! read comes at the earliest when mode 3 really ended, and the mode 2 that may follow
//! leaves VRAM free too. The checker trusts the ROM to write only when the read said so.
//! OAM has no such exception: seen in HBlank, the line may end at once.
//!
//! The rules, each a [`ViolationKind`]:
//! - VRAM written or read in mode 3 ([`ViolationKind::VramWrite`],
//!   [`ViolationKind::VramRead`]; both of a CGB's banks, at the same addresses), a CGB's
//!   palette RAM through BCPD or OCPD likewise ([`ViolationKind::PaletteWrite`],
//!   [`ViolationKind::PaletteRead`]), OAM written or read in modes 2 and 3
//!   ([`ViolationKind::OamWrite`], [`ViolationKind::OamRead`]), mode 3 lasting 289 dots as
//!   above. Interrupt dispatches count too: they push PC in their cycles 3 and 4.
//! - The OAM corruption bug ([`ViolationKind::OamCorruption`]): on a DMG, the CPU's 16-bit
//!   incrementer puts a register pair's value on the address bus, and a value in
//!   $FE00-$FEFF while the PPU scans OAM (mode 2) corrupts OAM. Reported for `inc rr` and
//!   `dec rr`, `ld [hl+], a`, `ld [hl-], a`, `ld a, [hl+]`, `ld a, [hl-]` with the pair in
//!   that range, and for `push`, `pop`, `call`, `rst`, `ret`, `reti` and interrupt
//!   dispatches with SP in it, when any machine cycle of the instruction falls in mode 2.
//! - The CPU must stay in HRAM while OAM DMA runs (the other buses are busy).
//! - LCDC bit 7 may be cleared (LCD turned off) only in VBlank.
//! - The `halt` bug ([`ViolationKind::HaltBug`]): `halt` executed with IME off while an
//!   enabled interrupt is already requested ends at once, and a DMG then reads the byte
//!   after it twice; boytacean runs on normally.
//! - `ei` directly followed by `di` ([`ViolationKind::EiThenDi`]): `ei` takes effect after
//!   the next instruction, so a DMG takes no interrupt between them (the harness emulates
//!   that delay, see [`super::Machine::step`]; the pair is reported because it can only be
//!   a mistake).

pub mod decode;

use std::fmt;

use boytacean::gb::GameBoy;
use boytacean::ppu::PpuMode;

use crate::project::plural;

use super::symbols::Symbols;
use decode::{next_step, pending_interrupts, Instruction, NextStep, DI, HALT};

/// Dots in one machine cycle.
pub const DOTS_PER_CYCLE: u16 = 4;

/// The longest mode 3 of a DMG line, in dots.
pub const LONGEST_MODE_3: u16 = 289;

const LCDC: u16 = 0xFF40;
const STAT: u16 = 0xFF41;

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

/// The dot of the line (0-455) the PPU is at.
fn line_dot(at: PpuPosition) -> u16 {
    match at.mode {
        PpuMode::OamRead | PpuMode::VBlank => at.dot,
        PpuMode::VramRead => mode_length(PpuMode::OamRead) + at.dot,
        PpuMode::HBlank => mode_length(PpuMode::OamRead) + mode_length(PpuMode::VramRead) + at.dot,
    }
}

/// The memory the PPU locks: VRAM (both of a CGB's banks, which share the addresses) and a
/// CGB's palette RAM (through BCPD and OCPD) in mode 3, OAM in modes 2 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Vram,
    Oam,
    Palette,
}

/// BCPD and OCPD: a CGB's background and object palette data.
pub const PALETTE_DATA: [u16; 2] = [0xFF69, 0xFF6B];

/// The PPU-locked region `addr` is in, if any.
pub fn region(addr: u16) -> Option<Region> {
    match addr {
        0x8000..=0x9FFF => Some(Region::Vram),
        0xFE00..=0xFE9F => Some(Region::Oam),
        _ if PALETTE_DATA.contains(&addr) => Some(Region::Palette),
        _ => None,
    }
}

/// Whether a DMG may have `region` locked when boytacean's PPU is at `at`: in mode 3, and
/// for OAM in mode 2, mode 3 lasting the longest a line can make it.
pub fn may_be_locked(region: Region, at: PpuPosition) -> bool {
    match at.mode {
        PpuMode::OamRead => region == Region::Oam,
        PpuMode::VramRead => true,
        PpuMode::HBlank => at.dot < LONGEST_MODE_3 - mode_length(PpuMode::VramRead),
        PpuMode::VBlank => false,
    }
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// A write to VRAM while the PPU may be in mode 3 (hardware drops it).
    VramWrite,
    /// A write to OAM while the PPU may be in mode 2 or 3 (hardware drops it).
    OamWrite,
    /// A read of VRAM while the PPU may be in mode 3 (hardware returns $FF).
    VramRead,
    /// A read of OAM while the PPU may be in mode 2 or 3 (hardware returns $FF).
    OamRead,
    /// A write to a CGB's palette RAM (BCPD, OCPD) while the PPU may be in mode 3
    /// (hardware drops it).
    PaletteWrite,
    /// A read of a CGB's palette RAM while the PPU may be in mode 3 (hardware returns $FF).
    PaletteRead,
    /// A register pair in $FE00-$FEFF through the 16-bit incrementer in mode 2, which
    /// corrupts OAM on a DMG.
    OamCorruption,
    /// The CPU ran code (or took an interrupt) outside HRAM during OAM DMA; on hardware
    /// it would read garbage from the busy bus.
    OutsideHramDuringDma,
    /// LCDC bit 7 cleared (LCD turned off) outside VBlank, which hardware forbids.
    LcdOffOutsideVblank,
    /// `halt` with IME off and an enabled interrupt requested: a DMG runs the next byte twice.
    HaltBug,
    /// `di` right after `ei`: a DMG takes no interrupt between them.
    EiThenDi,
}

/// One thing the hardware would not do as boytacean does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub kind: ViolationKind,
    /// The address of the instruction (for an interrupt dispatch: the PC it interrupted).
    pub pc: u16,
    /// The address accessed (for `OamCorruption`: the register pair's value; for
    /// `OutsideHramDuringDma`, `HaltBug` and `EiThenDi`: the PC).
    pub addr: u16,
    /// The PPU mode (0-3) boytacean is in at the access's machine cycle.
    pub mode: u8,
    /// LY at the access's machine cycle.
    pub ly: u8,
    /// The dot of the line (0-455) at the access's machine cycle.
    pub dot: u16,
    /// How many VBlanks had begun before the access (0 during the first frame).
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
        // In boytacean's HBlank, the access is refused only on a long line.
        let long_line = format!(
            "at dot {} of the line, where a DMG may still draw (mode 3 lasts up to {} dots)",
            self.dot, LONGEST_MODE_3
        );
        let drawing = |what: &str| match self.mode {
            0 => long_line.clone(),
            _ => what.to_string(),
        };
        let addr = self.addr;
        match self.kind {
            ViolationKind::VramWrite => write!(
                f,
                ": writes VRAM ${addr:04X} {} {when}",
                drawing("while the PPU draws")
            ),
            ViolationKind::OamWrite => write!(
                f,
                ": writes OAM ${addr:04X} {} {when}",
                drawing("while the PPU reads OAM")
            ),
            ViolationKind::VramRead => write!(
                f,
                ": reads VRAM ${addr:04X} {}, which gives $FF on hardware {when}",
                drawing("while the PPU draws")
            ),
            ViolationKind::OamRead => write!(
                f,
                ": reads OAM ${addr:04X} {}, which gives $FF on hardware {when}",
                drawing("while the PPU reads OAM")
            ),
            ViolationKind::PaletteWrite => write!(
                f,
                ": writes palette RAM through ${addr:04X} {} {when}",
                drawing("while the PPU draws")
            ),
            ViolationKind::PaletteRead => write!(
                f,
                ": reads palette RAM through ${addr:04X} {}, which gives $FF on hardware {when}",
                drawing("while the PPU draws")
            ),
            ViolationKind::OamCorruption => write!(
                f,
                ": puts ${addr:04X} through the 16-bit incrementer while the PPU scans OAM, \
                 which corrupts OAM on a DMG {when}"
            ),
            ViolationKind::OutsideHramDuringDma => {
                write!(f, ": runs outside HRAM during OAM DMA {when}")
            }
            ViolationKind::LcdOffOutsideVblank => {
                write!(f, ": turns the LCD off outside VBlank {when}")
            }
            ViolationKind::HaltBug => write!(
                f,
                ": `halt` with interrupts disabled and one already requested: a DMG runs \
                 the byte after it twice {when}"
            ),
            ViolationKind::EiThenDi => write!(
                f,
                ": `di` right after `ei`: a DMG takes no interrupt in between {when}"
            ),
        }
    }
}

/// The step about to run, for the rules that depend on more than the instruction.
#[derive(Clone, Copy)]
pub struct Moment<'a> {
    /// VBlanks begun since power-on.
    pub frame: u64,
    /// Machine cycles executed since power-on.
    pub cycle: u64,
    /// Whether the step before executed `ei`.
    pub after_ei: bool,
    pub symbols: &'a Symbols,
}

/// One rule broken by the step about to run.
type Found = (ViolationKind, u16, PpuPosition);

/// The checker's state, owned by the [`super::Machine`]: the PPU's dot counter mirrored,
/// when STAT last showed VRAM free, and the violations seen.
pub struct PpuAccessChecker {
    /// Dots the PPU has spent in its current mode (boytacean keeps this private).
    dot: u16,
    /// The dot since power-on (4 per machine cycle) of the last STAT read that saw mode 0
    /// or 1.
    vram_free_seen_at: Option<u64>,
    /// The first [`MAX_KEPT_VIOLATIONS`] violations.
    violations: Vec<Violation>,
    /// All violations, kept or not.
    count: u64,
}

impl PpuAccessChecker {
    /// A checker for a PPU that has spent `dot` dots in its current mode.
    pub fn new(dot: u16) -> PpuAccessChecker {
        PpuAccessChecker {
            dot,
            vram_free_seen_at: None,
            violations: Vec::new(),
            count: 0,
        }
    }

    /// Whether a step that executes no watched instruction ([`decode::WATCHED`]) can still
    /// break a rule: with OAM DMA under way, or a stack that could be in VRAM or OAM (for an
    /// interrupt's push). Cheap: most steps stop here.
    pub fn watches(gb: &GameBoy) -> bool {
        gb.dma_i().active_dma() || stack_may_be_locked(gb.cpu_i().sp())
    }

    /// Records the rules the next step of the CPU breaks, `instruction` being the one at PC.
    pub fn before_step(&mut self, gb: &GameBoy, instruction: &Instruction, moment: Moment<'_>) {
        let cpu = gb.cpu_i();
        let pc = cpu.pc();
        let unprefixed = instruction.prefixed.is_none();
        if unprefixed && matches!(instruction.opcode, HALT | DI) {
            self.check_interrupt_quirks(gb, instruction.opcode, moment);
        }
        let lcd_on = gb.mmu_i().read(LCDC) & 0x80 != 0;
        let outside_hram_during_dma = gb.dma_i().active_dma() && !(0xFF80..=0xFFFE).contains(&pc);
        if !lcd_on && !outside_hram_during_dma {
            return;
        }
        let (reads, writes, incremented) = match lcd_on {
            true => (
                instruction.reads(gb),
                instruction.writes(gb),
                instruction.incremented_pointer(gb),
            ),
            false => ([None, None], [None, None], None),
        };
        let watched = |access: &Option<(u16, u8)>| {
            access.is_some_and(|(addr, _)| region(addr).is_some() || addr == LCDC || addr == STAT)
        };
        let in_oam_range = |pointer: u16| (0xFE00..=0xFEFF).contains(&pointer);
        let stack_locked = lcd_on && stack_may_be_locked(cpu.sp());
        if !outside_hram_during_dma
            && !reads.iter().any(watched)
            && !writes.iter().any(watched)
            && !incremented.is_some_and(|(pointer, _)| in_oam_range(pointer))
            && !stack_locked
        {
            return;
        }
        let here = PpuPosition {
            mode: gb.ppu_i().mode(),
            ly: gb.ppu_i().ly(),
            dot: self.dot,
        };
        // Only now pay for reading IF and IE: what runs in this step decides what counts.
        let next = next_step(gb);
        if outside_hram_during_dma && next != NextStep::Halted {
            self.record(ViolationKind::OutsideHramDuringDma, pc, pc, here, moment);
        }
        let found: Vec<Found> = match next {
            NextStep::Instruction => {
                let mut found = Vec::new();
                for (addr, cycle) in reads.into_iter().flatten() {
                    let at = here.at_cycle(cycle);
                    if addr == STAT && gb.mmu_i().read(STAT) & 0x02 == 0 {
                        self.vram_free_seen_at = Some(dots_since_power_on(moment, cycle));
                    }
                    if let Some(region) = region(addr) {
                        if self.refuses(region, at, moment, cycle) {
                            found.push((read_violation(region), addr, at));
                        }
                    }
                }
                for (addr, cycle) in writes.into_iter().flatten() {
                    found.extend(self.check_write(gb, addr, cycle, here, moment, instruction));
                }
                if let Some((pointer, cycles)) = incremented.filter(|&(p, _)| in_oam_range(p)) {
                    found.extend(corruption(pointer, cycles, here));
                }
                found
            }
            NextStep::Interrupt => self.dispatch_violations(gb, here, moment),
            NextStep::Halted => Vec::new(),
        };
        for (kind, addr, at) in found {
            self.record(kind, pc, addr, at, moment);
        }
    }

    /// The `halt` bug and `ei` directly followed by `di`, for `opcode` (`halt` or `di`) at PC.
    fn check_interrupt_quirks(&mut self, gb: &GameBoy, opcode: u8, moment: Moment<'_>) {
        if next_step(gb) != NextStep::Instruction {
            return;
        }
        let kind = match opcode {
            HALT if !gb.cpu_i().ime() && pending_interrupts(gb) != 0 => ViolationKind::HaltBug,
            DI if moment.after_ei => ViolationKind::EiThenDi,
            _ => return,
        };
        let pc = gb.cpu_i().pc();
        let here = PpuPosition {
            mode: gb.ppu_i().mode(),
            ly: gb.ppu_i().ly(),
            dot: self.dot,
        };
        self.record(kind, pc, pc, here, moment);
    }

    /// Whether an access to `region` in machine cycle `cycle` of the step, the PPU being at
    /// `at` then, may be refused on hardware.
    fn refuses(&self, region: Region, at: PpuPosition, moment: Moment<'_>, cycle: u8) -> bool {
        if !may_be_locked(region, at) {
            return false;
        }
        let free_for = u64::from(mode_length(PpuMode::OamRead));
        let seen_free = self
            .vram_free_seen_at
            .is_some_and(|seen| dots_since_power_on(moment, cycle) - seen < free_for);
        !(region != Region::Oam && at.mode == PpuMode::HBlank && seen_free)
    }

    /// Whether the instruction writing `addr` in its machine cycle `cycle` breaks a rule, the
    /// PPU being at `here` when it starts.
    fn check_write(
        &self,
        gb: &GameBoy,
        addr: u16,
        cycle: u8,
        here: PpuPosition,
        moment: Moment<'_>,
        instruction: &Instruction,
    ) -> Option<Found> {
        let at = here.at_cycle(cycle);
        if let Some(region) = region(addr) {
            return self.refuses(region, at, moment, cycle).then_some((
                write_violation(region),
                addr,
                at,
            ));
        }
        if addr != LCDC || at.mode == PpuMode::VBlank {
            return None;
        }
        let old = gb.mmu_i().read(LCDC);
        let new = instruction.stored_value(gb);
        (old & 0x80 != 0 && new & 0x80 == 0).then_some((
            ViolationKind::LcdOffOutsideVblank,
            addr,
            at,
        ))
    }

    /// What an interrupt dispatch, if one happens now, breaks: it pushes PC in its cycles 3
    /// and 4, which matters only with the stack in VRAM or OAM.
    fn dispatch_violations(
        &self,
        gb: &GameBoy,
        here: PpuPosition,
        moment: Moment<'_>,
    ) -> Vec<Found> {
        let sp = gb.cpu_i().sp();
        let mut found = Vec::new();
        for (addr, cycle) in [(sp.wrapping_sub(1), 3), (sp.wrapping_sub(2), 4)] {
            if let Some(region) = region(addr) {
                let at = here.at_cycle(cycle);
                if self.refuses(region, at, moment, cycle) {
                    found.push((write_violation(region), addr, at));
                }
            }
        }
        if (0xFE00..=0xFEFF).contains(&sp) {
            found.extend(corruption(sp, 5, here));
        }
        found
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
                dot: line_dot(at),
                frame: moment.frame,
                cycle: moment.cycle,
                label: moment.symbols.describe(pc),
            });
        }
    }
}

/// The dot since power-on of machine cycle `cycle` (1-based) of the step about to run.
fn dots_since_power_on(moment: Moment<'_>, cycle: u8) -> u64 {
    (moment.cycle + u64::from(cycle) - 1) * u64::from(DOTS_PER_CYCLE)
}

/// The OAM corruption of an instruction of `cycles` machine cycles, starting at `here`,
/// that puts `pointer` (in $FE00-$FEFF) through the incrementer: reported at its first
/// machine cycle in mode 2, if any.
fn corruption(pointer: u16, cycles: u8, here: PpuPosition) -> Option<Found> {
    (1..=cycles)
        .map(|cycle| here.at_cycle(cycle))
        .find(|at| at.mode == PpuMode::OamRead)
        .map(|at| (ViolationKind::OamCorruption, pointer, at))
}

fn write_violation(region: Region) -> ViolationKind {
    match region {
        Region::Vram => ViolationKind::VramWrite,
        Region::Oam => ViolationKind::OamWrite,
        Region::Palette => ViolationKind::PaletteWrite,
    }
}

fn read_violation(region: Region) -> ViolationKind {
    match region {
        Region::Vram => ViolationKind::VramRead,
        Region::Oam => ViolationKind::OamRead,
        Region::Palette => ViolationKind::PaletteRead,
    }
}

/// Whether a push from this SP could land in VRAM or OAM, or SP is in OAM's range.
fn stack_may_be_locked(sp: u16) -> bool {
    (0x8001..=0xA001).contains(&sp) || (0xFE00..=0xFEFF).contains(&sp)
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
