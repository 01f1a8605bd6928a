//! Instruction operands as the assembler front end parses them, for the encoder.

use super::object::{Expr, PatchKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg8 {
    B,
    C,
    D,
    E,
    H,
    L,
    A,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg16 {
    Bc,
    De,
    Hl,
    Sp,
    Af,
}

/// A jump condition. `c` is parsed as [`Operand::Reg8`]`(C)`; the encoder reads it as the
/// carry condition where an instruction takes a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    Nz,
    Z,
    Nc,
    C,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Reg8(Reg8),
    Reg16(Reg16),
    Condition(Condition),
    /// `[hl]`
    MemHl,
    /// `[hl+]`, `[hli]`
    MemHlIncrement,
    /// `[hl-]`, `[hld]`
    MemHlDecrement,
    /// `[bc]`
    MemBc,
    /// `[de]`
    MemDe,
    /// `[c]` (only `ldh`) or `[$FF00+c]` (only `ld`): `high_page` says which was written.
    MemC {
        high_page: bool,
    },
    /// `[n16]`
    Mem(Expr),
    /// `n8`, `n16`, `e8`, a jump target, a bit number, an `rst` vector.
    Immediate(Expr),
    /// `sp + e8` / `sp - e8` (for `ld hl, sp + e8`).
    SpOffset(Expr),
}

/// The bytes a patch of `kind` writes for `value`, with the range check RGBDS makes.
/// `address` is the address of the patched byte (used by `jr`).
/// `Ok((bytes, Some(warning)))` is a value RGBDS accepts with a warning (truncation).
pub fn patch_bytes(
    kind: PatchKind,
    value: i32,
    address: i32,
) -> Result<(Vec<u8>, Option<String>), String> {
    match kind {
        PatchKind::Byte => {
            // RGBDS warns by default outside -256..=255 (-256..=-129 only with -Wtruncation=2).
            let warning = (!(-256..=255).contains(&value)).then(|| {
                "Expression must be 8-bit; use `LOW()` to force 8-bit [-Wtruncation]".to_string()
            });
            Ok((vec![value as u8], warning))
        }
        PatchKind::Word => {
            let warning = (!(-65536..=65535).contains(&value))
                .then(|| "Expression must be 16-bit [-Wtruncation]".to_string());
            Ok((vec![value as u8, (value >> 8) as u8], warning))
        }
        PatchKind::Long => Ok((value.to_le_bytes().to_vec(), None)),
        PatchKind::Relative => {
            let distance = value.wrapping_sub(address.wrapping_add(1));
            if (-128..=127).contains(&distance) {
                Ok((vec![distance as u8], None))
            } else {
                Err(format!(
                    "`JR` target must be between -128 and 127 bytes away, not {distance}; use `JP` instead"
                ))
            }
        }
        PatchKind::HighRam => {
            if (0xFF00..=0xFFFF).contains(&value) {
                Ok((vec![value as u8], None))
            } else {
                Err(format!(
                    "Address ${value:04X} for `LDH` must be between $FF00 and $FFFF"
                ))
            }
        }
        PatchKind::Restart => {
            if value & !0x38 == 0 {
                Ok((vec![0xC7 | value as u8], None))
            } else {
                Err(format!(
                    "Invalid address ${value:04X} for `RST`; it must be one of $00, $08, $10, $18, $20, $28, $30 or $38"
                ))
            }
        }
    }
}
