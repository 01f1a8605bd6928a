//! The object model between the assembler (front end) and the linker.
//!
//! The assembler turns one source file (with everything it INCLUDEs) into an [`Object`],
//! as `rgbasm` makes one `.o`. Whatever it cannot compute yet (a label in a floating
//! section, `BANK()`, `SIZEOF()` of a section placed later) stays an [`Expr`] in a
//! [`Patch`]; the linker places the sections, evaluates every patch and assertion, and
//! reports what does not fit at the place in the source that wrote it.

use std::fmt;
use std::rc::Rc;

/// Where something was written: for every message a user sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file as the user named it (relative to the repository root when possible).
    pub file: Rc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The whole source line, for the message.
    pub text: Rc<str>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The memory regions a section can live in, as RGBDS names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionKind {
    Rom0,
    Romx,
    Vram,
    Sram,
    Wram0,
    Wramx,
    Oam,
    Hram,
}

impl SectionKind {
    /// The address range of one bank of this region (inclusive start, exclusive end), for a
    /// 32 KB ROM-only DMG cartridge (ROMX is bank 1 only, WRAMX bank 1 only, no SRAM bank).
    pub fn range(self) -> (u16, u32) {
        match self {
            SectionKind::Rom0 => (0x0000, 0x4000),
            SectionKind::Romx => (0x4000, 0x8000),
            SectionKind::Vram => (0x8000, 0xA000),
            SectionKind::Sram => (0xA000, 0xC000),
            SectionKind::Wram0 => (0xC000, 0xD000),
            SectionKind::Wramx => (0xD000, 0xE000),
            SectionKind::Oam => (0xFE00, 0xFEA0),
            SectionKind::Hram => (0xFF80, 0xFFFF),
        }
    }

    /// Whether the section holds bytes in the ROM image (otherwise only a size).
    pub fn has_data(self) -> bool {
        matches!(self, SectionKind::Rom0 | SectionKind::Romx)
    }

    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Rom0 => "ROM0",
            SectionKind::Romx => "ROMX",
            SectionKind::Vram => "VRAM",
            SectionKind::Sram => "SRAM",
            SectionKind::Wram0 => "WRAM0",
            SectionKind::Wramx => "WRAMX",
            SectionKind::Oam => "OAM",
            SectionKind::Hram => "HRAM",
        }
    }
}

/// An expression the assembler could not reduce to a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Number(i32),
    /// A label or exported constant, by its full name (`Routine.local`). Resolved in the
    /// defining object first, then among the exported symbols of all objects.
    Symbol(String),
    /// An address inside a section of this object: `@`, or a label already defined there.
    SectionAddress {
        section: usize,
        offset: u32,
    },
    /// `BANK(symbol)`, `BANK("section")`, `BANK(@)`.
    Bank(Box<Expr>),
    BankOfSection(String),
    SizeOfSection(String),
    StartOfSection(String),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Negate,
    Complement,
    Not,
    High,
    Low,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Rounds toward minus infinity, as RGBDS does.
    Div,
    /// The sign of the divisor, as RGBDS does (`-17 % 5` is 3).
    Mod,
    Pow,
    Shl,
    /// Arithmetic shift right.
    Shr,
    /// Logical shift right (`>>>`).
    Ushr,
    And,
    Or,
    Xor,
    LogicalAnd,
    LogicalOr,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// What a patch writes, and the range check it makes at link time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchKind {
    /// One byte; the value must lie in -256..=255 (else a truncation warning, as RGBDS).
    Byte,
    /// Two bytes, little-endian; the value must lie in -65536..=65535 (else a warning).
    Word,
    /// Four bytes, little-endian.
    Long,
    /// `jr`: the byte is `target - (patch address + 1)`, which must lie in -128..=127.
    Relative,
    /// `ldh [n8]`: the value must lie in $FF00..=$FFFF (RGBDS 1.0 rejects $00..=$FF); the byte
    /// is its low byte.
    HighRam,
    /// `rst`: the value must be one of $00, $08, ... $38; the byte is `$C7 | value`.
    Restart,
}

#[derive(Clone, Debug)]
pub struct Patch {
    /// Offset of the first byte to write, inside the section's data.
    pub offset: u32,
    pub kind: PatchKind,
    pub expr: Expr,
    /// The address of the instruction's first byte relative to the section (for `jr`, `@`).
    pub pc_offset: u32,
    pub location: Location,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub kind: SectionKind,
    /// `SECTION "x", ROM0[$100]`.
    pub address: Option<u16>,
    /// `BANK[n]`.
    pub bank: Option<u32>,
    /// `ALIGN[bits, offset]`.
    pub align: Option<(u8, u16)>,
    /// The bytes (empty for RAM regions, whose size is `size`).
    pub data: Vec<u8>,
    pub size: u32,
    pub patches: Vec<Patch>,
    pub location: Location,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    /// `Some((section, offset))` for a label; `None` for a numeric constant (`value`).
    pub section: Option<(usize, u32)>,
    pub value: i32,
    /// `Label::` or `EXPORT`: visible to the other objects.
    pub exported: bool,
    pub location: Location,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Warn,
    Error,
    Fatal,
}

/// An `ASSERT` the assembler could not decide: the linker decides it.
#[derive(Clone, Debug)]
pub struct Assertion {
    pub expr: Expr,
    pub severity: Severity,
    pub message: String,
    pub location: Location,
    /// The macro calls and includes it was written through, innermost first, so that a
    /// failure in a macro names the line that called it (see `Diagnostic::context`).
    pub context: Vec<String>,
}

/// One assembled source file.
#[derive(Clone, Debug, Default)]
pub struct Object {
    pub sections: Vec<Section>,
    /// Labels and exported constants. Labels appear in the `.sym` file; anonymous labels
    /// and non-exported constants do not.
    pub symbols: Vec<Symbol>,
    pub assertions: Vec<Assertion>,
}
