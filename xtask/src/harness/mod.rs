//! Headless emulator harness on boytacean: run the ROM, press buttons, read memory by label,
//! count machine cycles exactly, and catch the VRAM/OAM accesses hardware would refuse.
//!
//! ```ignore
//! let mut machine = Machine::new(&rom)?.with_symbols(&sym)?;
//! machine.run_frames(60)?;
//! machine.tap(Button::A, 2)?;
//! machine.run_until("MainLoop", 100_000)?;
//! assert_eq!(machine.read_u8("wTurn")?, 1);
//! machine.assert_no_violations()?;
//! ```
//!
//! Time is counted in machine cycles: 1 machine cycle = 4 clock T-states; the DMG runs
//! 1,048,576 per second, 17,556 per frame. boytacean's `clock()` returns T-states (`nop` 4,
//! an interrupt dispatch 20); the harness divides by 4.
//!
//! Start state: DMG mode, boot ROM skipped, the CPU at $0100 with the registers the DMG
//! boot ROM leaves (AF=$01B0, or $0180 when the header checksum byte is $00; BC=$0013,
//! DE=$00D8, HL=$014D, SP=$FFFE), LCDC=$91, BGP=$FC, IF=$E1 (VBlank requested), IE=$00,
//! TAC=$F8, the APU on (NR50=$77, NR51=$F3, no note playing). The PPU starts at the first
//! dot of line 0 (mode 2); the real DMG is a few hundred dots earlier, at the end of VBlank.
//! Every run of a ROM is deterministic.
//!
//! Where boytacean differs from hardware (game code should not depend on these): `ei` takes
//! effect at once, not after the next instruction (so with an interrupt already pending,
//! `ei; halt` takes it before the `halt` and then halts until the next one); there is no
//! `halt` bug; `stop` is treated as an error; mode 3 always lasts 172 dots; the joypad register reads bits 6-7
//! as 0 and selecting both button groups reads no buttons; DIV starts at 0.
//!
//! Access checking (see [`access`]) is on for every machine; [`Machine::without_access_checks`]
//! is the escape hatch for perft and benchmark runs only.

pub mod access;
pub mod apu_log;
pub mod profile;
pub mod screen;
pub mod symbols;

#[cfg(test)]
mod testrom;
#[cfg(test)]
mod tests;

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use boytacean::gb::{GameBoy, GameBoyMode};
use boytacean::pad::PadKey;
use boytacean::ppu::PpuMode;

use crate::project::plural;
use access::{Condition, Effect, PpuPosition, Region, EFFECTS};
pub use access::{Violation, ViolationKind};
pub use screen::{Screen, HEIGHT, WIDTH};
pub use symbols::Symbols;

/// Machine cycles per second of the DMG.
pub const CYCLES_PER_SECOND: u64 = 1_048_576;
/// Machine cycles per frame (154 lines of 456 dots, 4 dots per machine cycle).
pub const CYCLES_PER_FRAME: u64 = 17_556;

/// Violations kept for `violations()`; later ones are only counted.
const MAX_KEPT_VIOLATIONS: usize = 1000;
/// Distinct PCs listed by `assert_no_violations`.
const MAX_REPORTED_SITES: usize = 20;

const LCDC: u16 = 0xFF40;
const IF: u16 = 0xFF0F;
const IE: u16 = 0xFFFF;

/// I/O registers as the DMG boot ROM leaves them, written in this order (the APU must be
/// powered before its other registers take writes). The NRx4 registers are left alone: their
/// bit 7 would start a note.
const POST_BOOT_IO: [(u16, u8); 20] = [
    (0xFF07, 0xF8), // TAC
    (0xFF26, 0x80), // NR52: APU on
    (0xFF10, 0x80), // NR10
    (0xFF11, 0xBF), // NR11
    (0xFF12, 0xF3), // NR12
    (0xFF13, 0xFF), // NR13
    (0xFF16, 0x3F), // NR21
    (0xFF17, 0x00), // NR22
    (0xFF18, 0xFF), // NR23
    (0xFF1A, 0x7F), // NR30
    (0xFF1B, 0xFF), // NR31
    (0xFF1C, 0x9F), // NR32
    (0xFF1D, 0xFF), // NR33
    (0xFF20, 0xFF), // NR41
    (0xFF21, 0x00), // NR42
    (0xFF22, 0x00), // NR43
    (0xFF24, 0x77), // NR50
    (0xFF25, 0xF3), // NR51
    (0xFF47, 0xFC), // BGP
    (0xFF0F, 0xE1), // IF: VBlank requested
];

/// A joypad button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    A,
    B,
    Select,
    Start,
    Right,
    Left,
    Up,
    Down,
}

impl Button {
    fn key(self) -> PadKey {
        match self {
            Button::A => PadKey::A,
            Button::B => PadKey::B,
            Button::Select => PadKey::Select,
            Button::Start => PadKey::Start,
            Button::Right => PadKey::Right,
            Button::Left => PadKey::Left,
            Button::Up => PadKey::Up,
            Button::Down => PadKey::Down,
        }
    }
}

/// The CPU registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registers {
    pub pc: u16,
    pub sp: u16,
    pub af: u16,
    pub bc: u16,
    pub de: u16,
    pub hl: u16,
}

impl Registers {
    pub fn a(&self) -> u8 {
        (self.af >> 8) as u8
    }
}

/// A memory location: an address, or a label of the loaded `.sym` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location<'a> {
    Address(u16),
    Label(&'a str),
}

impl From<u16> for Location<'_> {
    fn from(addr: u16) -> Self {
        Location::Address(addr)
    }
}

impl<'a> From<&'a str> for Location<'a> {
    fn from(label: &'a str) -> Self {
        Location::Label(label)
    }
}

impl<'a> From<&'a String> for Location<'a> {
    fn from(label: &'a String) -> Self {
        Location::Label(label)
    }
}

/// What the CPU does in its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NextStep {
    /// Executes the instruction at PC.
    Instruction,
    /// Dispatches an interrupt (pushes PC, jumps to the vector).
    Interrupt,
    /// Stays halted for one machine cycle.
    Halted,
}

/// One emulated DMG with a cartridge in it.
pub struct Machine {
    gb: Box<GameBoy>,
    symbols: Symbols,
    /// Machine cycles executed since power-on.
    cycles: u64,
    /// VBlanks begun since power-on.
    vblanks: u64,
    /// LCDC bit 7 as of the last instruction boundary.
    lcd_on: bool,
    /// Dots the PPU has spent in its current mode (boytacean keeps this private).
    ppu_dot: u16,
    checking: bool,
    violations: Vec<Violation>,
    violation_count: u64,
    /// The routines being profiled, see [`profile`].
    profiler: Option<Box<profile::Profiler>>,
    /// The APU writes recorded, see [`apu_log`].
    apu_log: Option<Vec<apu_log::ApuWrite>>,
}

impl Machine {
    /// Inserts the cartridge `rom` and powers on, skipping the boot ROM (see the module
    /// documentation for the start state).
    pub fn new(rom: &[u8]) -> Result<Machine> {
        if rom.len() < 0x8000 || rom.len() & 0x3FFF != 0 {
            bail!(
                "a ROM must be a whole number of 16 KiB banks and at least 32 KiB; this one \
                 is {} bytes",
                rom.len()
            );
        }
        let mut gb = Box::new(GameBoy::new(Some(GameBoyMode::Dmg)));
        gb.load(false)
            .map_err(|error| anyhow!("starting the emulator: {error}"))?;
        gb.load_rom(rom, None)
            .map_err(|error| anyhow!("the emulator cannot load this ROM: {error}"))?;
        gb.attach_null_serial();
        gb.load_boot_state();
        let flags = if rom[0x014D] == 0 { 0x80 } else { 0xB0 };
        let cpu = gb.cpu();
        cpu.set_af(0x0100 | flags);
        cpu.set_bc(0x0013);
        cpu.set_de(0x00D8);
        cpu.set_hl(0x014D);
        cpu.set_sp(0xFFFE);
        cpu.set_pc(0x0100);
        for (addr, value) in POST_BOOT_IO {
            gb.mmu().write(addr, value);
        }
        Ok(Machine {
            gb,
            symbols: Symbols::default(),
            cycles: 0,
            vblanks: 0,
            lcd_on: true,
            ppu_dot: 0,
            checking: true,
            violations: Vec::new(),
            violation_count: 0,
            profiler: None,
            apu_log: None,
        })
    }

    /// Loads the ROM at `path` and, when it exists, the `.sym` file beside it.
    pub fn open(path: &Path) -> Result<Machine> {
        let rom = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let machine = Machine::new(&rom).with_context(|| format!("loading {}", path.display()))?;
        let sym_path = path.with_extension("sym");
        if !sym_path.exists() {
            return Ok(machine);
        }
        let sym = std::fs::read_to_string(&sym_path)
            .with_context(|| format!("reading {}", sym_path.display()))?;
        machine
            .with_symbols(&sym)
            .with_context(|| format!("reading {}", sym_path.display()))
    }

    /// Uses the labels of an RGBDS `.sym` file (`00:0150 Main`) for addresses and reports.
    pub fn with_symbols(mut self, sym_text: &str) -> Result<Machine> {
        self.symbols = Symbols::parse(sym_text)?;
        Ok(self)
    }

    /// Turns PPU access checking off. Only for perft and benchmark runs, where the LCD is
    /// off anyway; every test of the game runs with checking on.
    pub fn without_access_checks(mut self) -> Machine {
        self.checking = false;
        self
    }

    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// The address of a label, or a clear error naming it.
    pub fn symbol(&self, name: &str) -> Result<u16> {
        self.symbols.address(name)
    }

    /// An address with the nearest label below it: `$0153 (Main.loop)`, or `$0153`.
    pub fn describe(&self, addr: u16) -> String {
        match self.symbols.describe(addr) {
            Some(label) => format!("${addr:04X} ({label})"),
            None => format!("${addr:04X}"),
        }
    }

    fn resolve(&self, at: Location<'_>) -> Result<u16> {
        match at {
            Location::Address(addr) => Ok(addr),
            Location::Label(name) => self.symbols.address(name),
        }
    }

    // ----- time -----

    /// Machine cycles executed since power-on.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// VBlanks begun since power-on (frames the PPU has finished drawing).
    pub fn frames(&self) -> u64 {
        self.vblanks
    }

    /// Executes one instruction (or one machine cycle of `halt`, or one interrupt dispatch)
    /// and returns the machine cycles it took. Fails, without executing anything, on an
    /// opcode the SM83 does not have and on `stop`.
    pub fn step(&mut self) -> Result<u64> {
        self.inspect_next_step()?;
        let (mode, ly) = (self.gb.ppu_i().mode(), self.gb.ppu_i().ly());
        // One `GameBoy::clock()`: the CPU, then every other component for as long. Called
        // through `clocks`, which is compiled with boytacean, optimised even in dev builds.
        let t_states = self.gb.clocks(1) as u16;
        // The PPU's state between the CPU and its own clock differs from `mode`, `ly` only
        // when the instruction turned the LCD off (boytacean then resets it to line 0,
        // HBlank, dot 0), and that case is handled apart.
        let lcd_on = self.gb.mmu_i().read(LCDC) & 0x80 != 0;
        if lcd_on {
            let dot = self.ppu_dot + t_states;
            let (new_mode, new_ly) = (self.gb.ppu_i().mode(), self.gb.ppu_i().ly());
            let length = access::mode_length(mode);
            if new_mode as u8 != mode as u8 || new_ly != ly {
                debug_assert!(dot >= length, "PPU left mode {mode:?} at dot {dot}");
                self.ppu_dot = dot - length;
                if matches!(new_mode, PpuMode::VBlank) && !matches!(mode, PpuMode::VBlank) {
                    self.vblanks += 1;
                }
            } else {
                debug_assert!(dot < length, "PPU stayed in mode {mode:?} at dot {dot}");
                self.ppu_dot = dot;
            }
        } else {
            self.ppu_dot = 0;
        }
        self.lcd_on = lcd_on;
        let cycles = u64::from(t_states / 4);
        self.cycles += cycles;
        if let Some(profiler) = self.profiler.as_deref_mut() {
            profiler.after_step(&self.gb, self.cycles);
        }
        Ok(cycles)
    }

    /// Runs at least `cycles` machine cycles (to the first instruction boundary at or after
    /// them) and returns how many ran.
    pub fn run_cycles(&mut self, cycles: u64) -> Result<u64> {
        let start = self.cycles;
        while self.cycles - start < cycles {
            self.step()?;
        }
        Ok(self.cycles - start)
    }

    /// Runs `n` frames and returns the machine cycles they took. A frame ends when VBlank
    /// begins (the PPU enters mode 1 at LY 144); the run stops at the first instruction
    /// boundary after the `n`-th VBlank start, so the screen then holds a whole picture.
    /// While the LCD is off there is no VBlank: every 17,556 machine cycles of LCD-off time
    /// count as a frame. With the LCD on all the time, consecutive calls of `run_frames(1)`
    /// return 17,556 cycles on average (each stop overshoots by part of an instruction).
    pub fn run_frames(&mut self, n: u32) -> Result<u64> {
        let start = self.cycles;
        for _ in 0..n {
            let target = self.vblanks + 1;
            let mut dark = 0;
            while self.vblanks < target {
                let cycles = self.step()?;
                if !self.lcd_on {
                    dark += cycles;
                    if dark >= CYCLES_PER_FRAME {
                        break;
                    }
                }
            }
        }
        Ok(self.cycles - start)
    }

    /// Runs until the CPU is about to execute the instruction at `target` (after executing at
    /// least one step) and returns the machine cycles that took. Fails, naming the target and
    /// where the CPU is, when that does not happen within `max_cycles`.
    pub fn run_until<'a>(
        &mut self,
        target: impl Into<Location<'a>>,
        max_cycles: u64,
    ) -> Result<u64> {
        let addr = self.resolve(target.into())?;
        let start = self.cycles;
        loop {
            self.step()?;
            let elapsed = self.cycles - start;
            if self.pc() == addr && self.next_step() == NextStep::Instruction {
                return Ok(elapsed);
            }
            if elapsed >= max_cycles {
                bail!(
                    "{} was not reached within {}: {}",
                    self.describe(addr),
                    plural(max_cycles, "machine cycle"),
                    self.where_is_the_cpu()
                );
            }
        }
    }

    /// Calls the routine at `routine` as a `call` instruction would from the current PC
    /// (pushing PC, jumping), runs until it returns there with the stack as before, and
    /// returns the machine cycles the routine took (the `call` itself not included).
    /// Interrupts are taken as they come. Fails when it does not return within `max_cycles`.
    pub fn call<'a>(&mut self, routine: impl Into<Location<'a>>, max_cycles: u64) -> Result<u64> {
        let addr = self.resolve(routine.into())?;
        let before = self.registers();
        let was_halted = self.gb.cpu_i().halted();
        let sp = before.sp.wrapping_sub(2);
        let [low, high] = before.pc.to_le_bytes();
        self.gb.mmu().write(sp, low);
        self.gb.mmu().write(sp.wrapping_add(1), high);
        self.gb.cpu().set_sp(sp);
        self.gb.cpu().set_pc(addr);
        self.gb.cpu().set_halted(false);
        let start = self.cycles;
        loop {
            self.step()?;
            let elapsed = self.cycles - start;
            let now = self.registers();
            if now.pc == before.pc
                && now.sp == before.sp
                && self.next_step() == NextStep::Instruction
            {
                self.gb.cpu().set_halted(was_halted);
                return Ok(elapsed);
            }
            if elapsed >= max_cycles {
                bail!(
                    "the routine at {} did not return within {}: {}",
                    self.describe(addr),
                    plural(max_cycles, "machine cycle"),
                    self.where_is_the_cpu()
                );
            }
        }
    }

    fn where_is_the_cpu(&self) -> String {
        let halted = if self.gb.cpu_i().halted() {
            ", halted"
        } else {
            ""
        };
        format!("the CPU is at {}{halted}", self.describe(self.pc()))
    }

    // ----- joypad -----

    /// Holds a button down until `release`.
    pub fn press(&mut self, button: Button) {
        self.gb.key_press(button.key());
    }

    pub fn release(&mut self, button: Button) {
        self.gb.key_lift(button.key());
    }

    /// Presses a button, runs `frames` frames, and releases it. Called where `run_frames`
    /// stops (VBlank has just begun), the button is seen by the joypad reads of the next
    /// `frames` VBlanks, the first of them being the one just begun.
    pub fn tap(&mut self, button: Button, frames: u32) -> Result<()> {
        self.press(button);
        let result = self.run_frames(frames);
        self.release(button);
        result.map(|_| ())
    }

    // ----- memory -----

    /// Reads a byte as the CPU would (no side effects on the DMG's registers).
    pub fn read_u8<'a>(&self, at: impl Into<Location<'a>>) -> Result<u8> {
        let addr = self.resolve(at.into())?;
        Ok(self.gb.mmu_i().read(addr))
    }

    /// Reads a little-endian word.
    pub fn read_u16<'a>(&self, at: impl Into<Location<'a>>) -> Result<u16> {
        let bytes = self.read(at, 2)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    /// Reads `len` bytes from a location on.
    pub fn read<'a>(&self, at: impl Into<Location<'a>>, len: usize) -> Result<Vec<u8>> {
        let addr = self.resolve(at.into())?;
        if usize::from(addr) + len > 0x1_0000 {
            bail!(
                "reading {} from ${addr:04X} runs past $FFFF",
                plural(len, "byte")
            );
        }
        let mmu = self.gb.mmu_i();
        Ok((0..len)
            .map(|offset| mmu.read(addr + offset as u16))
            .collect())
    }

    /// Writes a byte as the CPU would, but unchecked: the harness may set up VRAM any time.
    pub fn write_u8<'a>(&mut self, at: impl Into<Location<'a>>, value: u8) -> Result<()> {
        self.write(at, &[value])
    }

    /// Writes bytes from a location on (unchecked, as `write_u8`).
    pub fn write<'a>(&mut self, at: impl Into<Location<'a>>, bytes: &[u8]) -> Result<()> {
        let addr = self.resolve(at.into())?;
        if usize::from(addr) + bytes.len() > 0x1_0000 {
            bail!(
                "writing {} to ${addr:04X} runs past $FFFF",
                plural(bytes.len(), "byte")
            );
        }
        for (offset, &byte) in bytes.iter().enumerate() {
            self.gb.mmu().write(addr + offset as u16, byte);
        }
        self.lcd_on = self.gb.mmu_i().read(LCDC) & 0x80 != 0;
        if !self.lcd_on {
            self.ppu_dot = 0;
        }
        Ok(())
    }

    // ----- CPU and PPU state -----

    pub fn registers(&self) -> Registers {
        let cpu = self.gb.cpu_i();
        Registers {
            pc: cpu.pc(),
            sp: cpu.sp(),
            af: cpu.af(),
            bc: cpu.bc(),
            de: cpu.de(),
            hl: cpu.hl(),
        }
    }

    /// Sets every register (the low nibble of F always reads 0).
    pub fn set_registers(&mut self, registers: &Registers) {
        let cpu = self.gb.cpu();
        cpu.set_pc(registers.pc);
        cpu.set_sp(registers.sp);
        cpu.set_af(registers.af);
        cpu.set_bc(registers.bc);
        cpu.set_de(registers.de);
        cpu.set_hl(registers.hl);
    }

    pub fn pc(&self) -> u16 {
        self.gb.cpu_i().pc()
    }

    pub fn halted(&self) -> bool {
        self.gb.cpu_i().halted()
    }

    /// The interrupt master enable flag.
    pub fn ime(&self) -> bool {
        self.gb.cpu_i().ime()
    }

    /// The PPU mode as STAT shows it: 0 HBlank, 1 VBlank, 2 OAM scan, 3 drawing.
    pub fn ppu_mode(&self) -> u8 {
        access::mode_number(self.gb.ppu_i().mode())
    }

    /// The line the PPU is on (LY).
    pub fn ly(&self) -> u8 {
        self.gb.ppu_i().ly()
    }

    // ----- screen and sound -----

    /// The screen as DMG shades, 0 (white) to 3 (black), row by row. Lines the PPU has not
    /// drawn yet in the current frame still show the previous frame; right after
    /// `run_frames` the whole picture is one frame. The first frame after the LCD is turned
    /// on, and any time it is off, the screen is white.
    pub fn screen(&self) -> Screen {
        let mut screen = [0; WIDTH * HEIGHT];
        screen.copy_from_slice(&self.gb.ppu_i().shade_buffer[..]);
        screen
    }

    /// Writes the screen as a greyscale PNG (shade 0 white, 3 black).
    pub fn save_png(&self, path: &Path) -> Result<()> {
        screen::save_png(&self.screen(), path)
    }

    /// Takes the audio produced since the last call: interleaved left/right samples at
    /// 44,100 Hz, high-pass filtered like a DMG's output (silence is 0). boytacean
    /// keeps at most the last second.
    pub fn take_audio(&mut self) -> Vec<i16> {
        self.gb.apu().audio_buffer_mut().drain(..).collect()
    }

    /// The sum of the four channels' current outputs (0 = silent, at most 60).
    pub fn audio_level(&self) -> u16 {
        self.gb.audio_output()
    }

    // ----- access checking -----

    /// The first 1000 violations, in the order they happened.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// How many violations happened in all.
    pub fn violation_count(&self) -> u64 {
        self.violation_count
    }

    /// Forgets the violations seen so far.
    pub fn clear_violations(&mut self) {
        self.violations.clear();
        self.violation_count = 0;
    }

    /// Fails with a readable list (one line per offending PC, with how often it offended)
    /// if any violation happened.
    pub fn assert_no_violations(&self) -> Result<()> {
        if self.violation_count == 0 {
            return Ok(());
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
            plural(self.violation_count, "PPU access violation"),
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
        if self.violation_count > self.violations.len() as u64 {
            report.push_str(&format!(
                "\n  (only the first {} were kept)",
                self.violations.len()
            ));
        }
        bail!(report)
    }

    /// What the CPU does in its next step, as boytacean's `Cpu::clock` decides it.
    fn next_step(&self) -> NextStep {
        let cpu = self.gb.cpu_i();
        let mmu = self.gb.mmu_i();
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

    /// Looks at what the next step will do before boytacean runs it: refuses opcodes it
    /// would panic on, and records the accesses hardware would not allow. Most steps leave
    /// at the first `return`: no store, no DMA, the stack in RAM.
    fn inspect_next_step(&mut self) -> Result<()> {
        let cpu = self.gb.cpu_i();
        let pc = cpu.pc();
        let opcode = self.gb.mmu_i().read(pc);
        let effect = EFFECTS[usize::from(opcode)];
        // `matches!` rather than `==`: no call in unoptimised builds, on the hottest path.
        if matches!(effect, Effect::None)
            && (!self.checking || !(self.gb.dma_i().active_dma() || stack_may_be_locked(cpu.sp())))
        {
            return Ok(());
        }
        self.inspect_closely(opcode, effect)
    }

    fn inspect_closely(&mut self, opcode: u8, effect: Effect) -> Result<()> {
        let pc = self.pc();
        let (effect, prefixed) = match effect {
            Effect::Prefix => {
                let second = self.gb.mmu_i().read(pc.wrapping_add(1));
                (access::prefixed_effect(second), Some(second))
            }
            effect => (effect, None),
        };
        if matches!(effect, Effect::Illegal | Effect::Stop)
            && self.next_step() == NextStep::Instruction
        {
            if effect == Effect::Stop {
                bail!(
                    "the CPU reached `stop` at {}: the emulator cannot run it like hardware \
                     (which stops the CPU and the LCD until a button is pressed)",
                    self.describe(pc)
                );
            }
            bail!(
                "the CPU reached the illegal opcode ${opcode:02X} at {}, which locks up a DMG",
                self.describe(pc)
            );
        }
        if self.apu_log.is_some() {
            self.log_apu_writes(effect, opcode, prefixed);
        }
        if !self.checking {
            return Ok(());
        }
        let outside_hram_during_dma =
            self.gb.dma_i().active_dma() && !(0xFF80..=0xFFFE).contains(&pc);
        let writes = match self.lcd_on {
            true => self.instruction_writes(effect),
            false => [None, None],
        };
        let watched = |write: Option<(u16, u8)>| {
            write.is_some_and(|(addr, _)| access::region(addr).is_some() || addr == LCDC)
        };
        let stack_locked = self.lcd_on && stack_may_be_locked(self.gb.cpu_i().sp());
        if !outside_hram_during_dma && !watched(writes[0]) && !watched(writes[1]) && !stack_locked {
            return Ok(());
        }
        let here = PpuPosition {
            mode: self.gb.ppu_i().mode(),
            ly: self.gb.ppu_i().ly(),
            dot: self.ppu_dot,
        };
        let by_instruction: Vec<_> = writes
            .into_iter()
            .flatten()
            .filter_map(|(addr, cycle)| self.check_write(addr, cycle, here, opcode, prefixed))
            .collect();
        let by_dispatch = match stack_locked {
            true => self.dispatch_violations(here),
            false => Vec::new(),
        };
        if !outside_hram_during_dma && by_instruction.is_empty() && by_dispatch.is_empty() {
            return Ok(());
        }
        // Only now pay for reading IF and IE: what runs in this step decides what counts.
        let next = self.next_step();
        if outside_hram_during_dma && next != NextStep::Halted {
            self.record(ViolationKind::OutsideHramDuringDma, pc, pc, here);
        }
        let found = match next {
            NextStep::Instruction => by_instruction,
            NextStep::Interrupt => by_dispatch,
            NextStep::Halted => Vec::new(),
        };
        for (kind, addr, at) in found {
            self.record(kind, pc, addr, at);
        }
        Ok(())
    }

    /// The addresses the instruction at PC writes and the machine cycles it writes them in.
    fn instruction_writes(&self, effect: Effect) -> [Option<(u16, u8)>; 2] {
        let cpu = self.gb.cpu_i();
        let mmu = self.gb.mmu_i();
        let pc = cpu.pc();
        let sp = cpu.sp();
        let operand =
            || u16::from_le_bytes([mmu.read(pc.wrapping_add(1)), mmu.read(pc.wrapping_add(2))]);
        let calls = |condition: Condition| match condition {
            Condition::Always => true,
            Condition::Nz => !cpu.zero(),
            Condition::Z => cpu.zero(),
            Condition::Nc => !cpu.carry(),
            Condition::C => cpu.carry(),
        };
        match effect {
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
            Effect::Call(condition) if calls(condition) => {
                [Some((sp.wrapping_sub(1), 5)), Some((sp.wrapping_sub(2), 6))]
            }
            _ => [None, None],
        }
    }

    /// Whether the instruction at PC (`opcode`, and the byte after $CB) writing `addr` in
    /// its machine cycle `cycle` breaks a rule, the PPU being at `here` when it starts.
    fn check_write(
        &self,
        addr: u16,
        cycle: u8,
        here: PpuPosition,
        opcode: u8,
        prefixed: Option<u8>,
    ) -> Option<(ViolationKind, u16, PpuPosition)> {
        if let Some(region) = access::region(addr) {
            let at = here.at_cycle(cycle);
            return access::is_locked(region, at.mode).then_some((
                violation_kind(region),
                addr,
                at,
            ));
        }
        if addr != LCDC {
            return None;
        }
        let at = here.at_cycle(cycle);
        if at.mode == PpuMode::VBlank {
            return None;
        }
        let old = self.gb.mmu_i().read(LCDC);
        let new = self.stored_value(opcode, prefixed);
        (old & 0x80 != 0 && new & 0x80 == 0).then_some((
            ViolationKind::LcdOffOutsideVblank,
            addr,
            at,
        ))
    }

    /// The forbidden writes of an interrupt dispatch, if one happens now: it pushes PC in
    /// its cycles 3 and 4, which matters only with the stack in VRAM or OAM.
    fn dispatch_violations(&self, here: PpuPosition) -> Vec<(ViolationKind, u16, PpuPosition)> {
        let sp = self.gb.cpu_i().sp();
        let mut found = Vec::new();
        for (addr, cycle) in [(sp.wrapping_sub(1), 3), (sp.wrapping_sub(2), 4)] {
            let at = here.at_cycle(cycle);
            if let Some(region) = access::region(addr) {
                if access::is_locked(region, at.mode) {
                    found.push((violation_kind(region), addr, at));
                }
            }
        }
        found
    }

    fn record(&mut self, kind: ViolationKind, pc: u16, addr: u16, at: PpuPosition) {
        self.violation_count += 1;
        if self.violations.len() < MAX_KEPT_VIOLATIONS {
            self.violations.push(Violation {
                kind,
                pc,
                addr,
                mode: access::mode_number(at.mode),
                ly: at.ly,
                frame: self.vblanks,
                cycle: self.cycles,
                label: self.symbols.describe(pc),
            });
        }
    }
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
