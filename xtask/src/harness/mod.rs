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
//! Start state: where a DMG's boot ROM hands over. DMG mode, the CPU at $0100 with the
//! registers the boot ROM leaves (AF=$01B0, or $0180 when the header checksum byte is $00;
//! BC=$0013, DE=$00D8, HL=$014D, SP=$FFFE), LCDC=$91, BGP=$FC, IF=$E1 (VBlank requested),
//! IE=$00, TAC=$F8, the APU on (NR50=$77, NR51=$F3, no note playing). The PPU is on line
//! 153, the last of VBlank, at dot 396: 60 dots (15 machine cycles) before line 0 begins,
//! where the boot ROM leaves a DMG; start-up code has those 60 dots of VBlank and no more.
//! (To get there the harness runs the PPU from the start of a frame with the CPU halted, so
//! DIV starts at $12 where a DMG's reads $AB.) Every run of a ROM is deterministic.
//!
//! Where boytacean differs from hardware, the harness makes it behave like a DMG or reports
//! what the ROM would depend on (see [`access`]): `ei` takes effect after the next
//! instruction, as on a DMG ([`Machine::step`]); the joypad register reads bits 6-7 as 1
//! (plain loads from rP1; an ALU instruction on `[hl]` pointing at rP1 still sees 0); the
//! `halt` bug, `ei` right before `di`, and the OAM corruption bug are reported; accesses
//! are checked against the longest mode 3 a line can have. Left as boytacean has them:
//! `stop` is treated as an error; LY reads 153 on line 153 (a DMG reads 0 after its first
//! dots); selecting both button groups reads no buttons.
//!
//! Access checking (see [`access`]) is on for every machine;
//! [`Machine::without_access_checks`] is the escape hatch for perft and benchmark runs only.

pub mod access;
#[cfg(test)]
pub mod apu_log;
pub mod profile;
pub mod screen;
pub mod sgb;
pub mod symbols;

#[cfg(test)]
mod testrom;
#[cfg(test)]
mod tests;

use std::path::Path;

use anyhow::Context;
use anyhow::{anyhow, bail, Result};
use boytacean::gb::{GameBoy, GameBoyMode};
use boytacean::pad::PadKey;
use boytacean::ppu::PpuMode;

use crate::project::plural;
use access::decode::{
    next_step, Effect, Instruction, NextStep, DI, EFFECTS, EI, HALT, WATCHED,
    WATCHED_WITHOUT_CHECKS,
};
use access::{Moment, PpuAccessChecker};
#[cfg(test)]
pub use access::{Violation, ViolationKind};
pub use screen::{Screen, HEIGHT, WIDTH};
pub use symbols::Symbols;

/// Machine cycles per second of the DMG.
pub const CYCLES_PER_SECOND: u64 = 1_048_576;
/// Machine cycles per frame (154 lines of 456 dots, 4 dots per machine cycle).
pub const CYCLES_PER_FRAME: u64 = 17_556;

const LCDC: u16 = 0xFF40;
const P1: u16 = 0xFF00;

/// Where a DMG's boot ROM hands over to the cartridge: on line 153 (the last of VBlank,
/// which LY already reads as 0 there), 60 dots before line 0 begins: 70,164 dots, that is
/// 17,541 machine cycles, after the start of a frame.
const HANDOVER_CYCLES: usize = 17_541;
/// The dot of line 153 the boot ROM hands over at.
const HANDOVER_DOT: u16 = 396;

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

/// The console the cartridge is put in. boytacean emulates a DMG and a Game Boy Color; the
/// others are those two with what their boot ROM hands over (the registers Pan Docs gives,
/// "Power Up Sequence") and, for the Super Game Boy, the harness answering the joypad
/// register as one does ([`sgb`]). Every console starts where a DMG's boot ROM hands over
/// (see the module documentation); on the CGB and GBA the harness sets the boot ROM's
/// registers and I/O itself, without running a CGB boot ROM, and the header's CGB flag
/// keeps the PPU in colour mode (boytacean's KEY0 left as for a colour cartridge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Console {
    /// A DMG: AF=$01B0 (or $0180), BC=$0013, DE=$00D8, HL=$014D.
    Dmg,
    /// A Super Game Boy: a DMG inside, AF=$0100, BC=$0014, DE=$0000, HL=$C060.
    Sgb,
    /// A Game Boy Color in colour mode: AF=$1180, BC=$0000, DE=$FF56, HL=$000D.
    Cgb,
    /// A Game Boy Advance: a CGB whose boot ROM leaves B=$01 (AF=$1100, BC=$0100).
    Gba,
}

impl Console {
    /// Whether boytacean runs it in colour mode.
    pub fn is_colour(self) -> bool {
        matches!(self, Console::Cgb | Console::Gba)
    }
}

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
    /// The PPU access checker, see [`access`]; `None` without access checks.
    checker: Option<PpuAccessChecker>,
    /// Whether the last step executed `ei`, whose effect hardware delays by an instruction.
    after_ei: bool,
    /// The routines being profiled, see [`profile`].
    profiler: Option<Box<profile::Profiler>>,
    /// The APU writes recorded, see [`apu_log`].
    #[cfg(test)]
    apu_log: Option<Vec<apu_log::ApuWrite>>,
    /// The console it runs as.
    console: Console,
    /// The joypad register's writes, and on a Super Game Boy its answers, see [`sgb`].
    joypad: sgb::SuperGameBoy,
}

impl Machine {
    /// Inserts the cartridge `rom` and powers on, skipping the boot ROM (see the module
    /// documentation for the start state).
    pub fn new(rom: &[u8]) -> Result<Machine> {
        Machine::new_on(rom, Console::Dmg)
    }

    /// Inserts the cartridge `rom` into `console` and powers on, skipping the boot ROM.
    pub fn new_on(rom: &[u8], console: Console) -> Result<Machine> {
        if rom.len() < 0x8000 || rom.len() & 0x3FFF != 0 {
            bail!(
                "a ROM must be a whole number of 16 KiB banks and at least 32 KiB; this one \
                 is {} bytes",
                rom.len()
            );
        }
        let mode = if console.is_colour() {
            GameBoyMode::Cgb
        } else {
            GameBoyMode::Dmg
        };
        let mut gb = Box::new(GameBoy::new(Some(mode)));
        gb.load(false)
            .map_err(|error| anyhow!("starting the emulator: {error}"))?;
        gb.load_rom(rom, None)
            .map_err(|error| anyhow!("the emulator cannot load this ROM: {error}"))?;
        gb.attach_null_serial();
        gb.load_boot_state();
        // Bring the PPU to where the boot ROM leaves it, the CPU halted meanwhile (with IE
        // clear nothing wakes it); the APU is set up after, and what it played is dropped.
        gb.cpu().set_halted(true);
        gb.clocks(HANDOVER_CYCLES);
        gb.cpu().set_halted(false);
        gb.apu().audio_buffer_mut().clear();
        let flags = if rom[0x014D] == 0 { 0x80 } else { 0xB0 };
        let (af, bc, de, hl) = match console {
            Console::Dmg => (0x0100 | flags, 0x0013, 0x00D8, 0x014D),
            Console::Sgb => (0x0100, 0x0014, 0x0000, 0xC060),
            Console::Cgb => (0x1180, 0x0000, 0xFF56, 0x000D),
            Console::Gba => (0x1100, 0x0100, 0xFF56, 0x000D),
        };
        let cpu = gb.cpu();
        cpu.set_af(af);
        cpu.set_bc(bc);
        cpu.set_de(de);
        cpu.set_hl(hl);
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
            checker: Some(PpuAccessChecker::new(HANDOVER_DOT)),
            after_ei: false,
            profiler: None,
            #[cfg(test)]
            apu_log: None,
            console,
            joypad: sgb::SuperGameBoy::new(),
        })
    }

    /// The console it runs as.
    pub fn console(&self) -> Console {
        self.console
    }

    /// Every write to the joypad register so far, with its machine cycle (with access
    /// checks on).
    #[cfg(test)]
    pub fn joypad_writes(&self) -> &[sgb::P1Write] {
        self.joypad.writes()
    }

    /// Loads the ROM at `path` into `console` and, when it exists, the `.sym` file beside it.
    pub fn open_on(path: &Path, console: Console) -> Result<Machine> {
        let rom = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let machine = Machine::new_on(&rom, console)
            .with_context(|| format!("loading {}", path.display()))?;
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
        self.checker = None;
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
    ///
    /// Two things boytacean does otherwise are made to behave as on a DMG here. `ei` takes
    /// effect after the instruction that follows it: when boytacean would dispatch an
    /// interrupt right after `ei`, that instruction runs first with IME held off (except
    /// `halt`: with an interrupt pending, a DMG services it and returns to the `halt`, as
    /// boytacean does). And the joypad register reads bits 6-7 as 1: a plain load from rP1
    /// (`ldh a, [rP1]`, `ld r, [hl]`, ...) gets them set.
    pub fn step(&mut self) -> Result<u64> {
        // Halted with nothing to wake the CPU, a step only lets time pass: nothing to
        // decode or check (most frames of a game are spent so, one machine cycle a step).
        if self.gb.cpu_i().halted() && !self.after_ei && self.next_step() == NextStep::Halted {
            let before = (self.gb.ppu_i().mode(), self.gb.ppu_i().ly());
            let t_states = self.gb.clocks(1) as u16;
            return Ok(self.after_clock(before, t_states));
        }
        let opcode = self.gb.mmu_i().read(self.gb.cpu_i().pc());
        let after_ei = std::mem::take(&mut self.after_ei);
        let hold_interrupt = after_ei && opcode != HALT && self.next_step() == NextStep::Interrupt;
        if hold_interrupt {
            self.gb.cpu().set_ime(false);
        }
        let executes_ei = opcode == EI && self.next_step() == NextStep::Instruction;
        let p1_load = self.inspect_next_step(opcode, after_ei)?;
        let before = (self.gb.ppu_i().mode(), self.gb.ppu_i().ly());
        // One `GameBoy::clock()`: the CPU, then every other component for as long. Called
        // through `clocks`, which is compiled with boytacean, optimised even in dev builds.
        let t_states = self.gb.clocks(1) as u16;
        if hold_interrupt && opcode != DI {
            self.gb.cpu().set_ime(true);
        }
        // `ei; ei`: the second one runs with IME held off and makes it take effect at once.
        self.after_ei = executes_ei && !hold_interrupt;
        if let Some(register) = p1_load {
            let cpu = self.gb.cpu();
            let loaded = match register {
                0 => &mut cpu.b,
                1 => &mut cpu.c,
                2 => &mut cpu.d,
                3 => &mut cpu.e,
                4 => &mut cpu.h,
                5 => &mut cpu.l,
                _ => &mut cpu.a,
            };
            *loaded |= 0xC0;
            if self.console == Console::Sgb {
                if let Some(answer) = self.joypad.player_answer() {
                    *loaded = (*loaded & 0xF0) | answer;
                }
            }
        }
        Ok(self.after_clock(before, t_states))
    }

    /// Follows a step of `t_states` that took the PPU from `before` (mode, LY): counts
    /// VBlanks and cycles, moves the access checker's dot counter and the profiler on, and
    /// returns the step's machine cycles.
    fn after_clock(&mut self, before: (PpuMode, u8), t_states: u16) -> u64 {
        let lcd_on = self.gb.mmu_i().read(LCDC) & 0x80 != 0;
        let after = (self.gb.ppu_i().mode(), self.gb.ppu_i().ly());
        if lcd_on && matches!(after.0, PpuMode::VBlank) && !matches!(before.0, PpuMode::VBlank) {
            self.vblanks += 1;
        }
        if let Some(checker) = self.checker.as_mut() {
            checker.after_step(before, after, t_states, lcd_on);
        }
        self.lcd_on = lcd_on;
        let cycles = u64::from(t_states / 4);
        self.cycles += cycles;
        if let Some(profiler) = self.profiler.as_deref_mut() {
            profiler.after_step(&self.gb, self.cycles);
        }
        cycles
    }

    /// Runs at least `cycles` machine cycles (to the first instruction boundary at or after
    /// them) and returns how many ran.
    #[cfg(test)]
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
        self.call_with(routine, max_cycles, |_, _| {})
    }

    /// [`Machine::call`], calling `hook` after each step with the machine and the machine
    /// cycles since the call began: to change memory while the routine runs, as an
    /// interrupt handler would.
    pub fn call_with<'a>(
        &mut self,
        routine: impl Into<Location<'a>>,
        max_cycles: u64,
        mut hook: impl FnMut(&mut Machine, u64),
    ) -> Result<u64> {
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
            hook(self, elapsed);
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
        if let Some(checker) = self.checker.as_mut() {
            checker.lcd_written(self.lcd_on);
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

    #[cfg(test)]
    pub fn halted(&self) -> bool {
        self.gb.cpu_i().halted()
    }

    /// The interrupt master enable flag.
    #[cfg(test)]
    pub fn ime(&self) -> bool {
        self.gb.cpu_i().ime()
    }

    /// The PPU mode as STAT shows it: 0 HBlank, 1 VBlank, 2 OAM scan, 3 drawing.
    #[cfg(test)]
    pub fn ppu_mode(&self) -> u8 {
        access::mode_number(self.gb.ppu_i().mode())
    }

    /// The line the PPU is on (LY).
    #[cfg(test)]
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

    /// The screen in colour as boytacean's CGB mode draws it, 3 bytes (red, green, blue) a
    /// pixel, row by row; on a DMG, the shades as greys.
    pub fn screen_rgb(&mut self) -> Vec<u8> {
        if self.console.is_colour() {
            return self.gb.ppu().frame_buffer().to_vec();
        }
        self.screen()
            .iter()
            .flat_map(|&shade| [screen::grey(shade); 3])
            .collect()
    }

    /// VRAM bank 1 (a CGB's background attributes at the tile maps' addresses), 8 KB from
    /// $8000.
    #[cfg(test)]
    pub fn vram_bank1(&self) -> Vec<u8> {
        self.gb.ppu_i().vram()[0x2000..0x4000].to_vec()
    }

    /// A CGB's palette RAM: the 64 bytes of the background palettes and the 64 of the
    /// object palettes.
    #[cfg(test)]
    pub fn palette_ram(&self) -> [[u8; 64]; 2] {
        *self.gb.ppu_i().palettes_color()
    }

    /// Writes the screen as a greyscale PNG (shade 0 white, 3 black).
    pub fn save_png(&self, path: &Path) -> Result<()> {
        screen::save_png(&self.screen(), path)
    }

    /// Takes the audio produced since the last call: interleaved left/right samples at
    /// 44,100 Hz nominally (boytacean makes one every 95 T-states, 44,150.6 a second),
    /// high-pass filtered like a DMG's output (silence is 0). boytacean keeps at most the
    /// last second, and makes none while the APU is off (NR52 bit 7 clear).
    pub fn take_audio(&mut self) -> Vec<i16> {
        self.gb.apu().audio_buffer_mut().drain(..).collect()
    }

    /// The sum of the four channels' current outputs (0 = silent, at most 60).
    #[cfg(test)]
    pub fn audio_level(&self) -> u16 {
        self.gb.audio_output()
    }

    // ----- access checking -----

    /// The first 1000 violations, in the order they happened.
    #[cfg(test)]
    pub fn violations(&self) -> &[Violation] {
        self.checker
            .as_ref()
            .map_or(&[], |checker| checker.violations())
    }

    /// How many violations happened in all.
    #[cfg(test)]
    pub fn violation_count(&self) -> u64 {
        self.checker.as_ref().map_or(0, PpuAccessChecker::count)
    }

    /// Forgets the violations seen so far.
    #[cfg(test)]
    pub fn clear_violations(&mut self) {
        if let Some(checker) = self.checker.as_mut() {
            checker.clear();
        }
    }

    /// Fails with a readable list (one line per offending PC, with how often it offended)
    /// if any violation happened.
    pub fn assert_no_violations(&self) -> Result<()> {
        match self.checker.as_ref().and_then(PpuAccessChecker::report) {
            Some(report) => bail!(report),
            None => Ok(()),
        }
    }

    /// What the CPU does in its next step.
    fn next_step(&self) -> NextStep {
        next_step(&self.gb)
    }

    /// Whether the APU write log is on (a test's).
    fn logs_apu(&self) -> bool {
        #[cfg(test)]
        return self.apu_log.is_some();
        #[cfg(not(test))]
        false
    }

    /// Looks at what the next step will do before boytacean runs it: refuses opcodes it
    /// would panic on, logs APU writes, lets the access checker record what hardware would
    /// not do, and returns the register a load from rP1 fills, if it makes one. `opcode` is
    /// the byte at PC, `after_ei` whether the step before executed `ei`. Most steps leave at
    /// the first `return`.
    fn inspect_next_step(&mut self, opcode: u8, after_ei: bool) -> Result<Option<u8>> {
        let pc = self.gb.cpu_i().pc();
        let look = if self.checker.is_some() || self.logs_apu() {
            WATCHED[usize::from(opcode)] || PpuAccessChecker::watches(&self.gb)
        } else {
            WATCHED_WITHOUT_CHECKS[usize::from(opcode)]
        };
        if !look {
            return Ok(None);
        }
        let effect = EFFECTS[usize::from(opcode)];
        let instruction = Instruction::at_pc(&self.gb, opcode, effect);
        if matches!(instruction.effect, Effect::Illegal | Effect::Stop)
            && self.next_step() == NextStep::Instruction
        {
            if instruction.effect == Effect::Stop {
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
        #[cfg(test)]
        if self.apu_log.is_some() {
            self.log_apu_writes(&instruction);
        }
        if let Some(checker) = self.checker.as_mut() {
            let moment = Moment {
                frame: self.vblanks,
                cycle: self.cycles,
                after_ei,
                symbols: &self.symbols,
            };
            checker.before_step(&self.gb, &instruction, moment);
        }
        if self.next_step() == NextStep::Instruction {
            for (addr, cycle) in instruction.writes(&self.gb).into_iter().flatten() {
                if addr == P1 {
                    let value = instruction.stored_value(&self.gb);
                    self.joypad.write(self.cycles + u64::from(cycle), value);
                }
            }
        }
        let p1_load = instruction.loaded_register().filter(|_| {
            instruction.reads(&self.gb)[0].is_some_and(|(addr, _)| addr == P1)
                && self.next_step() == NextStep::Instruction
        });
        Ok(p1_load)
    }
}
