//! The SM83 instruction encoder: one mnemonic and its parsed operands to bytes.
//!
//! Covers every SM83 instruction in the RGBDS 1.0 syntax, with the aliases RGBDS accepts
//! (`[hli]`/`[hld]`, `ldi`/`ldd`, `ld [$FF00+c], a`, the optional `a,` of the ALU
//! instructions, `cpl a`, `stop n8`). Every immediate becomes a patch over placeholder zero
//! bytes, so that the front end resolves the constant ones and the linker the rest with the
//! same range checks ([`super::operand::patch_bytes`]).

use super::object::{Expr, PatchKind};
use super::operand::{Condition, Operand, Reg16, Reg8};

/// One encoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The opcode bytes, with zero placeholders where patches go.
    pub bytes: Vec<u8>,
    /// Offset within the instruction, what to write there, and its value.
    pub patches: Vec<(u32, PatchKind, Expr)>,
}

impl Encoded {
    fn fixed(bytes: &[u8]) -> Self {
        Encoded {
            bytes: bytes.to_vec(),
            patches: Vec::new(),
        }
    }

    /// An opcode followed by an immediate of `kind` (1 or 2 placeholder bytes).
    fn with_immediate(opcode: u8, kind: PatchKind, expr: &Expr) -> Self {
        let width = if kind == PatchKind::Word { 2 } else { 1 };
        let mut bytes = vec![opcode];
        bytes.resize(1 + width, 0);
        Encoded {
            bytes,
            patches: vec![(1, kind, expr.clone())],
        }
    }

    fn prefixed(opcode: u8) -> Self {
        Encoded::fixed(&[0xCB, opcode])
    }
}

/// Encodes one instruction. `mnemonic` is lowercase. The error says what the instruction
/// takes (for "file:line:column: error: ..." messages).
pub fn encode(mnemonic: &str, operands: &[Operand]) -> Result<Encoded, String> {
    use Operand as O;
    let ops = operands;
    match mnemonic {
        "nop" => no_operands(mnemonic, ops, 0x00),
        "halt" => no_operands(mnemonic, ops, 0x76),
        "di" => no_operands(mnemonic, ops, 0xF3),
        "ei" => no_operands(mnemonic, ops, 0xFB),
        "rlca" => no_operands(mnemonic, ops, 0x07),
        "rrca" => no_operands(mnemonic, ops, 0x0F),
        "rla" => no_operands(mnemonic, ops, 0x17),
        "rra" => no_operands(mnemonic, ops, 0x1F),
        "daa" => no_operands(mnemonic, ops, 0x27),
        "scf" => no_operands(mnemonic, ops, 0x37),
        "ccf" => no_operands(mnemonic, ops, 0x3F),
        "reti" => no_operands(mnemonic, ops, 0xD9),
        "cpl" => match ops {
            [] | [O::Reg8(Reg8::A)] => Ok(Encoded::fixed(&[0x2F])),
            _ => Err(takes(mnemonic, "no operand (or `a`)")),
        },
        "stop" => match ops {
            [] => Ok(Encoded::fixed(&[0x10, 0x00])),
            [O::Immediate(e)] => Ok(Encoded::with_immediate(0x10, PatchKind::Byte, e)),
            _ => Err(takes(mnemonic, "no operand, or `n8`")),
        },
        "add" | "adc" | "sub" | "sbc" | "and" | "xor" | "or" | "cp" => alu(mnemonic, ops),
        "inc" | "dec" => inc_dec(mnemonic, ops),
        "rlc" | "rrc" | "rl" | "rr" | "sla" | "sra" | "swap" | "srl" => rotate(mnemonic, ops),
        "bit" | "res" | "set" => bit_op(mnemonic, ops),
        "jp" => jump(ops),
        "jr" => jump_relative(ops),
        "call" => call(ops),
        "ret" => match ops {
            [] => Ok(Encoded::fixed(&[0xC9])),
            [op] => match condition(op) {
                Some(cc) => Ok(Encoded::fixed(&[0xC0 | cc << 3])),
                None => Err(takes(
                    mnemonic,
                    "no operand, or a condition (`nz`, `z`, `nc`, `c`)",
                )),
            },
            _ => Err(takes(
                mnemonic,
                "no operand, or a condition (`nz`, `z`, `nc`, `c`)",
            )),
        },
        "rst" => match ops {
            [O::Immediate(e)] => Ok(Encoded {
                bytes: vec![0],
                patches: vec![(0, PatchKind::Restart, e.clone())],
            }),
            _ => Err(takes(
                mnemonic,
                "a vector: $00, $08, $10, $18, $20, $28, $30 or $38",
            )),
        },
        "push" | "pop" => match ops {
            [op] => match reg16_tt(op) {
                Some(tt) => {
                    let base = if mnemonic == "push" { 0xC5 } else { 0xC1 };
                    Ok(Encoded::fixed(&[base | tt << 4]))
                }
                None => Err(takes(mnemonic, "`bc`, `de`, `hl` or `af`")),
            },
            _ => Err(takes(mnemonic, "`bc`, `de`, `hl` or `af`")),
        },
        "ld" => load(ops),
        "ldi" | "ldd" => {
            let (store, fetch) = if mnemonic == "ldi" {
                (0x22, 0x2A)
            } else {
                (0x32, 0x3A)
            };
            match ops {
                [O::MemHl, O::Reg8(Reg8::A)] => Ok(Encoded::fixed(&[store])),
                [O::Reg8(Reg8::A), O::MemHl] => Ok(Encoded::fixed(&[fetch])),
                _ => Err(takes(mnemonic, "`[hl], a` or `a, [hl]`")),
            }
        }
        "ldh" => match ops {
            [O::Mem(e), O::Reg8(Reg8::A)] => {
                Ok(Encoded::with_immediate(0xE0, PatchKind::HighRam, e))
            }
            [O::Reg8(Reg8::A), O::Mem(e)] => {
                Ok(Encoded::with_immediate(0xF0, PatchKind::HighRam, e))
            }
            [O::MemC { .. }, O::Reg8(Reg8::A)] => Ok(Encoded::fixed(&[0xE2])),
            [O::Reg8(Reg8::A), O::MemC { .. }] => Ok(Encoded::fixed(&[0xF2])),
            _ => Err(takes(
                mnemonic,
                "`[n8], a`, `a, [n8]`, `[c], a` or `a, [c]` (n8 an address from $FF00 to $FFFF)",
            )),
        },
        _ => Err(format!("`{mnemonic}` is not an SM83 instruction")),
    }
}

fn takes(mnemonic: &str, forms: &str) -> String {
    format!("`{mnemonic}` takes {forms}")
}

fn no_operands(mnemonic: &str, operands: &[Operand], opcode: u8) -> Result<Encoded, String> {
    if operands.is_empty() {
        Ok(Encoded::fixed(&[opcode]))
    } else {
        Err(takes(mnemonic, "no operand"))
    }
}

/// `b c d e h l [hl] a` as the 3-bit register field.
fn reg8(operand: &Operand) -> Option<u8> {
    match operand {
        Operand::Reg8(r) => Some(match r {
            Reg8::B => 0,
            Reg8::C => 1,
            Reg8::D => 2,
            Reg8::E => 3,
            Reg8::H => 4,
            Reg8::L => 5,
            Reg8::A => 7,
        }),
        Operand::MemHl => Some(6),
        _ => None,
    }
}

/// `bc de hl sp` as the 2-bit register-pair field.
fn reg16_ss(operand: &Operand) -> Option<u8> {
    match operand {
        Operand::Reg16(Reg16::Bc) => Some(0),
        Operand::Reg16(Reg16::De) => Some(1),
        Operand::Reg16(Reg16::Hl) => Some(2),
        Operand::Reg16(Reg16::Sp) => Some(3),
        _ => None,
    }
}

/// `bc de hl af` as the 2-bit register-pair field of `push`/`pop`.
fn reg16_tt(operand: &Operand) -> Option<u8> {
    match operand {
        Operand::Reg16(Reg16::Af) => Some(3),
        Operand::Reg16(Reg16::Sp) => None,
        other => reg16_ss(other),
    }
}

/// A condition as the 2-bit field; the register `c` stands for the carry condition.
fn condition(operand: &Operand) -> Option<u8> {
    match operand {
        Operand::Condition(Condition::Nz) => Some(0),
        Operand::Condition(Condition::Z) => Some(1),
        Operand::Condition(Condition::Nc) => Some(2),
        Operand::Condition(Condition::C) | Operand::Reg8(Reg8::C) => Some(3),
        _ => None,
    }
}

/// `[bc] [de] [hl+] [hl-]`: the pointer field of `ld [rr], a` / `ld a, [rr]`.
fn pointer(operand: &Operand) -> Option<u8> {
    match operand {
        Operand::MemBc => Some(0),
        Operand::MemDe => Some(1),
        Operand::MemHlIncrement => Some(2),
        Operand::MemHlDecrement => Some(3),
        _ => None,
    }
}

fn alu(mnemonic: &str, operands: &[Operand]) -> Result<Encoded, String> {
    let index: u8 = match mnemonic {
        "add" => 0,
        "adc" => 1,
        "sub" => 2,
        "sbc" => 3,
        "and" => 4,
        "xor" => 5,
        "or" => 6,
        _ => 7, // cp
    };
    if mnemonic == "add" {
        match operands {
            [Operand::Reg16(Reg16::Hl), rr] => {
                return match reg16_ss(rr) {
                    Some(ss) => Ok(Encoded::fixed(&[0x09 | ss << 4])),
                    None => Err("`add hl, ...` takes `bc`, `de`, `hl` or `sp`".to_string()),
                };
            }
            [Operand::Reg16(Reg16::Sp), Operand::Immediate(e)] => {
                return Ok(Encoded::with_immediate(0xE8, PatchKind::Byte, e));
            }
            _ => {}
        }
    }
    let source = match operands {
        [Operand::Reg8(Reg8::A), source] | [source] => source,
        _ => {
            let extra = if mnemonic == "add" {
                ", `hl, r16` or `sp, e8`"
            } else {
                ""
            };
            return Err(takes(
                mnemonic,
                &format!("`a, r8`, `a, [hl]` or `a, n8` (the `a,` may be left out){extra}"),
            ));
        }
    };
    if let Some(r) = reg8(source) {
        return Ok(Encoded::fixed(&[0x80 | index << 3 | r]));
    }
    match source {
        Operand::Immediate(e) => Ok(Encoded::with_immediate(
            0xC6 | index << 3,
            PatchKind::Byte,
            e,
        )),
        _ => Err(takes(
            mnemonic,
            "`a, r8`, `a, [hl]` or `a, n8` (the `a,` may be left out)",
        )),
    }
}

fn inc_dec(mnemonic: &str, operands: &[Operand]) -> Result<Encoded, String> {
    let dec = mnemonic == "dec";
    match operands {
        [op] => {
            if let Some(r) = reg8(op) {
                return Ok(Encoded::fixed(&[(0x04 | u8::from(dec)) | r << 3]));
            }
            if let Some(ss) = reg16_ss(op) {
                return Ok(Encoded::fixed(&[if dec { 0x0B } else { 0x03 } | ss << 4]));
            }
            Err(takes(mnemonic, "`r8`, `[hl]`, `bc`, `de`, `hl` or `sp`"))
        }
        _ => Err(takes(mnemonic, "`r8`, `[hl]`, `bc`, `de`, `hl` or `sp`")),
    }
}

fn rotate(mnemonic: &str, operands: &[Operand]) -> Result<Encoded, String> {
    let index: u8 = match mnemonic {
        "rlc" => 0,
        "rrc" => 1,
        "rl" => 2,
        "rr" => 3,
        "sla" => 4,
        "sra" => 5,
        "swap" => 6,
        _ => 7, // srl
    };
    match operands {
        [op] => match reg8(op) {
            Some(r) => Ok(Encoded::prefixed(index << 3 | r)),
            None => Err(takes(mnemonic, "`r8` or `[hl]`")),
        },
        _ => Err(takes(mnemonic, "`r8` or `[hl]`")),
    }
}

fn bit_op(mnemonic: &str, operands: &[Operand]) -> Result<Encoded, String> {
    let base: u8 = match mnemonic {
        "bit" => 0x40,
        "res" => 0x80,
        _ => 0xC0, // set
    };
    let usage = || {
        takes(
            mnemonic,
            "`n3, r8` or `n3, [hl]` (n3 a constant from 0 to 7)",
        )
    };
    match operands {
        [Operand::Immediate(index), target] => {
            let r = reg8(target).ok_or_else(usage)?;
            match index {
                Expr::Number(n @ 0..=7) => Ok(Encoded::prefixed(base | (*n as u8) << 3 | r)),
                Expr::Number(n) => Err(format!(
                    "bit number {n} of `{mnemonic}` must be between 0 and 7"
                )),
                _ => Err(format!(
                    "the bit number of `{mnemonic}` must be a constant from 0 to 7 known when assembling"
                )),
            }
        }
        _ => Err(usage()),
    }
}

fn jump(operands: &[Operand]) -> Result<Encoded, String> {
    let usage = || takes("jp", "`n16`, `cc, n16` or `hl`");
    match operands {
        [Operand::Reg16(Reg16::Hl)] => Ok(Encoded::fixed(&[0xE9])),
        [Operand::MemHl] => Err("`jp [hl]` is written `jp hl` in RGBDS 1.0".to_string()),
        [Operand::Immediate(e)] => Ok(Encoded::with_immediate(0xC3, PatchKind::Word, e)),
        [cc, Operand::Immediate(e)] => match condition(cc) {
            Some(cc) => Ok(Encoded::with_immediate(0xC2 | cc << 3, PatchKind::Word, e)),
            None => Err(usage()),
        },
        _ => Err(usage()),
    }
}

fn jump_relative(operands: &[Operand]) -> Result<Encoded, String> {
    let usage = || {
        takes(
            "jr",
            "`n16` or `cc, n16` (a target from -128 to 127 bytes away)",
        )
    };
    match operands {
        [Operand::Immediate(e)] => Ok(Encoded::with_immediate(0x18, PatchKind::Relative, e)),
        [cc, Operand::Immediate(e)] => match condition(cc) {
            Some(cc) => Ok(Encoded::with_immediate(
                0x20 | cc << 3,
                PatchKind::Relative,
                e,
            )),
            None => Err(usage()),
        },
        _ => Err(usage()),
    }
}

fn call(operands: &[Operand]) -> Result<Encoded, String> {
    let usage = || takes("call", "`n16` or `cc, n16`");
    match operands {
        [Operand::Immediate(e)] => Ok(Encoded::with_immediate(0xCD, PatchKind::Word, e)),
        [cc, Operand::Immediate(e)] => match condition(cc) {
            Some(cc) => Ok(Encoded::with_immediate(0xC4 | cc << 3, PatchKind::Word, e)),
            None => Err(usage()),
        },
        _ => Err(usage()),
    }
}

fn load(operands: &[Operand]) -> Result<Encoded, String> {
    use Operand as O;
    let [destination, source] = operands else {
        return Err(load_usage());
    };
    match (destination, source) {
        (O::MemHl, O::MemHl) => Err(
            "`ld [hl], [hl]` is not an instruction (its opcode is `halt`)".to_string(),
        ),
        (O::MemC { high_page: false }, _) | (_, O::MemC { high_page: false }) => Err(
            "RGBDS 1.0 rejects `[c]` in `ld`; write `ldh [c], a` / `ldh a, [c]` or `ld [$FF00+c], a` / `ld a, [$FF00+c]`"
                .to_string(),
        ),
        (O::MemC { high_page: true }, O::Reg8(Reg8::A)) => Ok(Encoded::fixed(&[0xE2])),
        (O::Reg8(Reg8::A), O::MemC { high_page: true }) => Ok(Encoded::fixed(&[0xF2])),
        (O::Reg8(Reg8::A), O::Mem(e)) => Ok(Encoded::with_immediate(0xFA, PatchKind::Word, e)),
        (O::Mem(e), O::Reg8(Reg8::A)) => Ok(Encoded::with_immediate(0xEA, PatchKind::Word, e)),
        (O::Mem(e), O::Reg16(Reg16::Sp)) => {
            Ok(Encoded::with_immediate(0x08, PatchKind::Word, e))
        }
        (O::Reg16(Reg16::Sp), O::Reg16(Reg16::Hl)) => Ok(Encoded::fixed(&[0xF9])),
        (O::Reg16(Reg16::Hl), O::SpOffset(e)) => {
            Ok(Encoded::with_immediate(0xF8, PatchKind::Byte, e))
        }
        (O::Reg16(Reg16::Hl), O::Reg16(Reg16::Sp)) => {
            Err("`ld hl, sp` is not an instruction; write `ld hl, sp + 0`".to_string())
        }
        (O::Reg16(Reg16::Sp), O::Reg16(from)) => Err(format!(
            "`ld sp, {}` is not an instruction; only `ld sp, hl` exists",
            pair_name(*from)
        )),
        (O::Reg16(pair), O::Reg16(from))
            if [pair, from]
                .iter()
                .all(|r| matches!(r, Reg16::Bc | Reg16::De | Reg16::Hl)) =>
        {
            Err(format!(
                "`ld {}, {}` is not an instruction; load the two halves one by one",
                pair_name(*pair),
                pair_name(*from)
            ))
        }
        (O::Reg16(_), O::Immediate(e)) => match reg16_ss(destination) {
            Some(ss) => Ok(Encoded::with_immediate(0x01 | ss << 4, PatchKind::Word, e)),
            None => Err(load_usage()),
        },
        (pointer_operand, O::Reg8(Reg8::A)) if pointer(pointer_operand).is_some() => {
            let p = pointer(pointer_operand).unwrap_or_default();
            Ok(Encoded::fixed(&[0x02 | p << 4]))
        }
        (O::Reg8(Reg8::A), pointer_operand) if pointer(pointer_operand).is_some() => {
            let p = pointer(pointer_operand).unwrap_or_default();
            Ok(Encoded::fixed(&[0x0A | p << 4]))
        }
        (to, O::Immediate(e)) if reg8(to).is_some() => {
            let r = reg8(to).unwrap_or_default();
            Ok(Encoded::with_immediate(0x06 | r << 3, PatchKind::Byte, e))
        }
        (to, from) => match (reg8(to), reg8(from)) {
            (Some(d), Some(s)) => Ok(Encoded::fixed(&[0x40 | d << 3 | s])),
            _ => Err(load_usage()),
        },
    }
}

fn pair_name(pair: Reg16) -> &'static str {
    match pair {
        Reg16::Bc => "bc",
        Reg16::De => "de",
        Reg16::Hl => "hl",
        Reg16::Sp => "sp",
        Reg16::Af => "af",
    }
}

fn load_usage() -> String {
    takes(
        "ld",
        "`r8, r8`, `r8, n8`, `r16, n16`, `[bc]`/`[de]`/`[hl+]`/`[hl-], a` (or the reverse), \
         `[n16], a`, `a, [n16]`, `[$FF00+c], a`, `a, [$FF00+c]`, `[n16], sp`, `sp, hl` \
         or `hl, sp + e8`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Operand as O;

    fn n(value: i32) -> Expr {
        Expr::Number(value)
    }

    fn imm(value: i32) -> Operand {
        O::Immediate(n(value))
    }

    fn bytes(mnemonic: &str, operands: &[Operand]) -> Vec<u8> {
        match encode(mnemonic, operands) {
            Ok(encoded) => encoded.bytes,
            Err(message) => panic!("{mnemonic} {operands:?}: {message}"),
        }
    }

    fn error(mnemonic: &str, operands: &[Operand]) -> String {
        match encode(mnemonic, operands) {
            Ok(encoded) => panic!("{mnemonic} {operands:?} encoded as {encoded:?}"),
            Err(message) => message,
        }
    }

    const REG8: [Operand; 8] = [
        O::Reg8(Reg8::B),
        O::Reg8(Reg8::C),
        O::Reg8(Reg8::D),
        O::Reg8(Reg8::E),
        O::Reg8(Reg8::H),
        O::Reg8(Reg8::L),
        O::MemHl,
        O::Reg8(Reg8::A),
    ];

    const SS: [Operand; 4] = [
        O::Reg16(Reg16::Bc),
        O::Reg16(Reg16::De),
        O::Reg16(Reg16::Hl),
        O::Reg16(Reg16::Sp),
    ];

    const CONDITIONS: [Operand; 4] = [
        O::Condition(Condition::Nz),
        O::Condition(Condition::Z),
        O::Condition(Condition::Nc),
        O::Reg8(Reg8::C),
    ];

    /// Every form of every instruction, written once, with its operands.
    fn every_form() -> Vec<(&'static str, Vec<Operand>)> {
        let mut forms: Vec<(&'static str, Vec<Operand>)> = Vec::new();
        for m in [
            "nop", "stop", "halt", "di", "ei", "rlca", "rrca", "rla", "rra", "daa", "cpl", "scf",
            "ccf", "ret", "reti",
        ] {
            forms.push((m, vec![]));
        }
        for d in &REG8 {
            for s in &REG8 {
                if !(d == &O::MemHl && s == &O::MemHl) {
                    forms.push(("ld", vec![d.clone(), s.clone()]));
                }
            }
            forms.push(("ld", vec![d.clone(), imm(0x12)]));
            forms.push(("inc", vec![d.clone()]));
            forms.push(("dec", vec![d.clone()]));
            for m in ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"] {
                forms.push((m, vec![d.clone()]));
            }
            for m in ["rlc", "rrc", "rl", "rr", "sla", "sra", "swap", "srl"] {
                forms.push((m, vec![d.clone()]));
            }
            for bit in 0..8 {
                for m in ["bit", "res", "set"] {
                    forms.push((m, vec![imm(bit), d.clone()]));
                }
            }
        }
        for m in ["add", "adc", "sub", "sbc", "and", "xor", "or", "cp"] {
            forms.push((m, vec![imm(0x12)]));
        }
        for ss in &SS {
            forms.push(("ld", vec![ss.clone(), imm(0x1234)]));
            forms.push(("inc", vec![ss.clone()]));
            forms.push(("dec", vec![ss.clone()]));
            forms.push(("add", vec![O::Reg16(Reg16::Hl), ss.clone()]));
        }
        for tt in [Reg16::Bc, Reg16::De, Reg16::Hl, Reg16::Af] {
            forms.push(("push", vec![O::Reg16(tt)]));
            forms.push(("pop", vec![O::Reg16(tt)]));
        }
        for p in [O::MemBc, O::MemDe, O::MemHlIncrement, O::MemHlDecrement] {
            forms.push(("ld", vec![p.clone(), O::Reg8(Reg8::A)]));
            forms.push(("ld", vec![O::Reg8(Reg8::A), p]));
        }
        for cc in &CONDITIONS {
            forms.push(("jr", vec![cc.clone(), imm(0x210)]));
            forms.push(("jp", vec![cc.clone(), imm(0x1234)]));
            forms.push(("call", vec![cc.clone(), imm(0x1234)]));
            forms.push(("ret", vec![cc.clone()]));
        }
        forms.push(("jr", vec![imm(0x210)]));
        forms.push(("jp", vec![imm(0x1234)]));
        forms.push(("jp", vec![O::Reg16(Reg16::Hl)]));
        forms.push(("call", vec![imm(0x1234)]));
        for vector in (0..8).map(|v| v * 8) {
            forms.push(("rst", vec![imm(vector)]));
        }
        forms.push(("ld", vec![O::Mem(n(0xC123)), O::Reg16(Reg16::Sp)]));
        forms.push(("ld", vec![O::Mem(n(0xC123)), O::Reg8(Reg8::A)]));
        forms.push(("ld", vec![O::Reg8(Reg8::A), O::Mem(n(0xC123))]));
        forms.push(("ld", vec![O::Reg16(Reg16::Sp), O::Reg16(Reg16::Hl)]));
        forms.push(("ld", vec![O::Reg16(Reg16::Hl), O::SpOffset(n(5))]));
        forms.push(("add", vec![O::Reg16(Reg16::Sp), imm(-8)]));
        forms.push(("ldh", vec![O::Mem(n(0xFF80)), O::Reg8(Reg8::A)]));
        forms.push(("ldh", vec![O::Reg8(Reg8::A), O::Mem(n(0xFF80))]));
        forms.push(("ldh", vec![O::MemC { high_page: false }, O::Reg8(Reg8::A)]));
        forms.push(("ldh", vec![O::Reg8(Reg8::A), O::MemC { high_page: false }]));
        forms
    }

    /// The opcode (with `rst` and its patch applied) of an encoding, `$CBxx` for prefixed.
    fn opcode(encoded: &Encoded) -> u16 {
        if encoded.bytes[0] == 0xCB {
            return 0xCB00 | u16::from(encoded.bytes[1]);
        }
        match encoded.patches.first() {
            Some((0, PatchKind::Restart, Expr::Number(v))) => 0xC7 | *v as u16,
            _ => u16::from(encoded.bytes[0]),
        }
    }

    #[test]
    fn the_forms_cover_all_500_opcodes_exactly_once() {
        let mut seen = std::collections::HashMap::new();
        for (mnemonic, operands) in every_form() {
            let encoded = encode(mnemonic, &operands)
                .unwrap_or_else(|e| panic!("{mnemonic} {operands:?}: {e}"));
            if let Some(previous) = seen.insert(opcode(&encoded), (mnemonic, operands.clone())) {
                panic!("{mnemonic} {operands:?} and {previous:?} share an opcode");
            }
        }
        let illegal = [
            0xD3, 0xDB, 0xDD, 0xE3, 0xE4, 0xEB, 0xEC, 0xED, 0xF4, 0xFC, 0xFD,
        ];
        for code in 0..=0xFFu16 {
            if code == 0xCB {
                continue;
            }
            assert_eq!(
                seen.contains_key(&code),
                !illegal.contains(&(code as u8)),
                "opcode ${code:02X}"
            );
        }
        for code in 0xCB00..=0xCBFFu16 {
            assert!(seen.contains_key(&code), "opcode ${code:04X}");
        }
        assert_eq!(seen.len(), 244 + 256);
    }

    #[test]
    fn instruction_lengths_match_the_opcode_table() {
        for (mnemonic, operands) in every_form() {
            let encoded = encode(mnemonic, &operands).unwrap();
            let code = opcode(&encoded);
            let expected = match code {
                0xCB00..=0xCBFF => 2,
                0x10 => 2,
                0x01 | 0x11 | 0x21 | 0x31 | 0x08 | 0xEA | 0xFA | 0xC3 | 0xCD => 3,
                c if c & 0xE7 == 0xC2 || c & 0xE7 == 0xC4 => 3,
                c if c & 0xC7 == 0x06 => 2,
                0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0xE0 | 0xF0 | 0xE8 | 0xF8 => 2,
                c if c & 0xC7 == 0xC6 => 2,
                _ => 1,
            };
            assert_eq!(
                encoded.bytes.len(),
                expected,
                "{mnemonic} {operands:?} (${code:02X})"
            );
        }
    }

    #[test]
    fn loads_between_registers() {
        assert_eq!(bytes("ld", &[O::Reg8(Reg8::B), O::Reg8(Reg8::B)]), [0x40]);
        assert_eq!(bytes("ld", &[O::Reg8(Reg8::A), O::MemHl]), [0x7E]);
        assert_eq!(bytes("ld", &[O::MemHl, O::Reg8(Reg8::E)]), [0x73]);
        assert_eq!(bytes("ld", &[O::Reg8(Reg8::L), O::Reg8(Reg8::A)]), [0x6F]);
        assert_eq!(
            bytes("ld", &[O::Reg16(Reg16::Sp), O::Reg16(Reg16::Hl)]),
            [0xF9]
        );
    }

    #[test]
    fn immediates_become_patches_after_the_opcode() {
        let ld = encode("ld", &[O::Reg8(Reg8::D), imm(300)]).unwrap();
        assert_eq!(ld.bytes, [0x16, 0x00]);
        assert_eq!(ld.patches, [(1, PatchKind::Byte, n(300))]);

        let label = Expr::Symbol("Main".to_string());
        let call = encode(
            "call",
            &[O::Condition(Condition::Nz), O::Immediate(label.clone())],
        )
        .unwrap();
        assert_eq!(call.bytes, [0xC4, 0x00, 0x00]);
        assert_eq!(call.patches, [(1, PatchKind::Word, label.clone())]);

        let store = encode("ld", &[O::Mem(label.clone()), O::Reg16(Reg16::Sp)]).unwrap();
        assert_eq!(store.bytes, [0x08, 0x00, 0x00]);
        assert_eq!(store.patches, [(1, PatchKind::Word, label.clone())]);

        let hl = encode("ld", &[O::Reg16(Reg16::Hl), O::SpOffset(n(-3))]).unwrap();
        assert_eq!(hl.bytes, [0xF8, 0x00]);
        assert_eq!(hl.patches, [(1, PatchKind::Byte, n(-3))]);

        let sp = encode("add", &[O::Reg16(Reg16::Sp), imm(7)]).unwrap();
        assert_eq!(sp.bytes, [0xE8, 0x00]);
        assert_eq!(sp.patches, [(1, PatchKind::Byte, n(7))]);

        let stop = encode("stop", &[imm(0x42)]).unwrap();
        assert_eq!(stop.bytes, [0x10, 0x00]);
        assert_eq!(stop.patches, [(1, PatchKind::Byte, n(0x42))]);
    }

    #[test]
    fn jumps() {
        let target = Expr::Symbol("Loop".to_string());
        let jr = encode("jr", &[O::Reg8(Reg8::C), O::Immediate(target.clone())]).unwrap();
        assert_eq!(jr.bytes, [0x38, 0x00]);
        assert_eq!(jr.patches, [(1, PatchKind::Relative, target.clone())]);
        assert_eq!(
            bytes("jr", &[O::Condition(Condition::Nc), imm(0)]),
            [0x30, 0]
        );
        assert_eq!(
            bytes("jp", &[O::Condition(Condition::Z), imm(0)]),
            [0xCA, 0, 0]
        );
        assert_eq!(bytes("jp", &[O::Reg16(Reg16::Hl)]), [0xE9]);
        assert_eq!(bytes("ret", &[O::Condition(Condition::C)]), [0xD8]);
        assert_eq!(bytes("ret", &[O::Reg8(Reg8::C)]), [0xD8]);
        assert_eq!(bytes("reti", &[]), [0xD9]);
        assert_eq!(
            error("jp", &[O::MemHl]),
            "`jp [hl]` is written `jp hl` in RGBDS 1.0"
        );
        assert_eq!(
            error("jr", &[O::Reg8(Reg8::B), imm(0)]),
            "`jr` takes `n16` or `cc, n16` (a target from -128 to 127 bytes away)"
        );
    }

    #[test]
    fn rst_patches_the_whole_opcode() {
        let rst = encode("rst", &[imm(0x38)]).unwrap();
        assert_eq!(rst.bytes, [0x00]);
        assert_eq!(rst.patches, [(0, PatchKind::Restart, n(0x38))]);
    }

    #[test]
    fn the_optional_a_of_alu_instructions() {
        for (m, register, immediate) in [
            ("add", 0x80, 0xC6),
            ("adc", 0x88, 0xCE),
            ("sub", 0x90, 0xD6),
            ("sbc", 0x98, 0xDE),
            ("and", 0xA0, 0xE6),
            ("xor", 0xA8, 0xEE),
            ("or", 0xB0, 0xF6),
            ("cp", 0xB8, 0xFE),
        ] {
            assert_eq!(bytes(m, &[O::Reg8(Reg8::B)]), [register]);
            assert_eq!(bytes(m, &[O::Reg8(Reg8::A), O::Reg8(Reg8::B)]), [register]);
            assert_eq!(bytes(m, &[O::Reg8(Reg8::A)]), [register | 7]);
            assert_eq!(
                bytes(m, &[O::Reg8(Reg8::A), O::Reg8(Reg8::A)]),
                [register | 7]
            );
            assert_eq!(bytes(m, &[O::Reg8(Reg8::A), O::MemHl]), [register | 6]);
            assert_eq!(bytes(m, &[imm(1)]), [immediate, 0]);
            assert_eq!(bytes(m, &[O::Reg8(Reg8::A), imm(1)]), [immediate, 0]);
        }
        assert_eq!(
            bytes("add", &[O::Reg16(Reg16::Hl), O::Reg16(Reg16::Sp)]),
            [0x39]
        );
        assert_eq!(
            error("sub", &[O::Reg8(Reg8::B), O::Reg8(Reg8::C)]),
            "`sub` takes `a, r8`, `a, [hl]` or `a, n8` (the `a,` may be left out)"
        );
        assert_eq!(bytes("cpl", &[O::Reg8(Reg8::A)]), [0x2F]);
    }

    #[test]
    fn memory_forms_and_aliases() {
        let a = O::Reg8(Reg8::A);
        assert_eq!(bytes("ld", &[O::MemHlIncrement, a.clone()]), [0x22]);
        assert_eq!(bytes("ld", &[a.clone(), O::MemHlDecrement]), [0x3A]);
        assert_eq!(bytes("ldi", &[O::MemHl, a.clone()]), [0x22]);
        assert_eq!(bytes("ldi", &[a.clone(), O::MemHl]), [0x2A]);
        assert_eq!(bytes("ldd", &[O::MemHl, a.clone()]), [0x32]);
        assert_eq!(bytes("ldd", &[a.clone(), O::MemHl]), [0x3A]);
        assert_eq!(
            bytes("ld", &[O::MemC { high_page: true }, a.clone()]),
            [0xE2]
        );
        assert_eq!(
            bytes("ld", &[a.clone(), O::MemC { high_page: true }]),
            [0xF2]
        );
        assert_eq!(
            bytes("ldh", &[O::MemC { high_page: true }, a.clone()]),
            [0xE2]
        );
        assert_eq!(
            bytes("ldh", &[a.clone(), O::MemC { high_page: false }]),
            [0xF2]
        );
        // No automatic `ldh`: a constant high address still makes the 3-byte form.
        assert_eq!(bytes("ld", &[O::Mem(n(0xFF80)), a.clone()]), [0xEA, 0, 0]);
        let ldh = encode("ldh", &[O::Mem(n(0xFF80)), a.clone()]).unwrap();
        assert_eq!(ldh.bytes, [0xE0, 0x00]);
        assert_eq!(ldh.patches, [(1, PatchKind::HighRam, n(0xFF80))]);
        assert_eq!(bytes("push", &[O::Reg16(Reg16::Af)]), [0xF5]);
        assert_eq!(bytes("pop", &[O::Reg16(Reg16::Af)]), [0xF1]);
    }

    #[test]
    fn bit_numbers_must_be_constants_from_0_to_7() {
        assert_eq!(bytes("bit", &[imm(7), O::Reg8(Reg8::A)]), [0xCB, 0x7F]);
        assert_eq!(bytes("res", &[imm(0), O::MemHl]), [0xCB, 0x86]);
        assert_eq!(bytes("set", &[imm(3), O::Reg8(Reg8::C)]), [0xCB, 0xD9]);
        assert_eq!(
            error("bit", &[imm(8), O::Reg8(Reg8::A)]),
            "bit number 8 of `bit` must be between 0 and 7"
        );
        assert_eq!(
            error(
                "set",
                &[O::Immediate(Expr::Symbol("x".into())), O::Reg8(Reg8::A)]
            ),
            "the bit number of `set` must be a constant from 0 to 7 known when assembling"
        );
    }

    #[test]
    fn invalid_forms_say_what_is_expected() {
        let a = O::Reg8(Reg8::A);
        assert!(error("ld", &[O::MemC { high_page: false }, a.clone()])
            .starts_with("RGBDS 1.0 rejects `[c]` in `ld`"));
        assert!(error("ld", &[a.clone(), O::MemC { high_page: false }])
            .starts_with("RGBDS 1.0 rejects `[c]` in `ld`"));
        assert_eq!(
            error("ld", &[O::MemHl, O::MemHl]),
            "`ld [hl], [hl]` is not an instruction (its opcode is `halt`)"
        );
        assert_eq!(
            error("ld", &[O::Reg16(Reg16::Hl), O::Reg16(Reg16::Sp)]),
            "`ld hl, sp` is not an instruction; write `ld hl, sp + 0`"
        );
        assert_eq!(
            error("ld", &[O::Reg16(Reg16::Bc), O::Reg16(Reg16::De)]),
            "`ld bc, de` is not an instruction; load the two halves one by one"
        );
        assert!(error("ld", &[O::MemBc, O::Reg8(Reg8::B)]).starts_with("`ld` takes `r8, r8`"));
        assert!(error("ld", &[O::Reg16(Reg16::Af), imm(1)]).starts_with("`ld` takes"));
        assert_eq!(
            error("push", &[O::Reg16(Reg16::Sp)]),
            "`push` takes `bc`, `de`, `hl` or `af`"
        );
        assert_eq!(
            error("nop", std::slice::from_ref(&a)),
            "`nop` takes no operand"
        );
        assert_eq!(
            error("ldi", &[O::MemHlIncrement, a.clone()]),
            "`ldi` takes `[hl], a` or `a, [hl]`"
        );
        assert_eq!(error("mov", &[]), "`mov` is not an SM83 instruction");
        assert_eq!(
            error("inc", &[O::Reg16(Reg16::Af)]),
            "`inc` takes `r8`, `[hl]`, `bc`, `de`, `hl` or `sp`"
        );
        assert_eq!(
            error("jp", &[O::Condition(Condition::Nz), O::Reg16(Reg16::Hl)]),
            "`jp` takes `n16`, `cc, n16` or `hl`"
        );
    }
}
