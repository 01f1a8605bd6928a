//! The reserved words of the RGBDS dialect (all case-insensitive).

use super::object::SectionKind;
use super::operand::{Condition, Reg16, Reg8};

pub const MNEMONICS: &[&str] = &[
    "adc", "add", "and", "bit", "call", "ccf", "cp", "cpl", "daa", "dec", "di", "ei", "halt",
    "inc", "jp", "jr", "ld", "ldd", "ldh", "ldi", "nop", "or", "pop", "push", "res", "ret", "reti",
    "rl", "rla", "rlc", "rlca", "rr", "rra", "rrc", "rrca", "rst", "sbc", "scf", "set", "sla",
    "sra", "srl", "stop", "sub", "swap", "xor",
];

/// Built-in functions this assembler evaluates (uppercase).
pub const FUNCTIONS: &[&str] = &[
    "HIGH",
    "LOW",
    "BANK",
    "SIZEOF",
    "STARTOF",
    "DEF",
    "ISCONST",
    "BITWIDTH",
    "TZCOUNT",
    "STRLEN",
    "BYTELEN",
    "CHARLEN",
    "INCHARMAP",
    "STRCAT",
    "STRUPR",
    "STRLWR",
    "STRCMP",
    "STRFIND",
    "STRRFIND",
    "STRIN",
    "STRRIN",
    "STRRPL",
    "STRSUB",
    "STRSLICE",
    "STRFMT",
    "MUL",
    "DIV",
    "FMOD",
    "POW",
    "LOG",
    "ROUND",
    "CEIL",
    "FLOOR",
    "SIN",
    "COS",
    "TAN",
    "ASIN",
    "ACOS",
    "ATAN",
    "ATAN2",
    "READFILE",
    "REVCHAR",
    "STRBYTE",
    "STRCHAR",
    "CHARSUB",
    "CHARCMP",
    "CHARSIZE",
    "CHARVAL",
    "SECTION",
];

/// RGBDS functions this assembler rejects with a clear error.
pub const UNSUPPORTED_FUNCTIONS: &[&str] = &[
    "MUL", "DIV", "FMOD", "POW", "LOG", "ROUND", "CEIL", "FLOOR", "SIN", "COS", "TAN", "ASIN",
    "ACOS", "ATAN", "ATAN2", "READFILE", "REVCHAR", "STRBYTE", "STRCHAR", "CHARSUB", "CHARCMP",
    "CHARSIZE", "CHARVAL",
];

/// Directives (uppercase), supported or not.
pub const DIRECTIVES: &[&str] = &[
    "ALIGN",
    "ASSERT",
    "BREAK",
    "CHARMAP",
    "DB",
    "DEF",
    "DL",
    "DS",
    "DW",
    "ELIF",
    "ELSE",
    "ENDC",
    "ENDL",
    "ENDM",
    "ENDR",
    "ENDSECTION",
    "ENDU",
    "EQU",
    "EQUS",
    "EXPORT",
    "FAIL",
    "FATAL",
    "FOR",
    "FRAGMENT",
    "IF",
    "INCBIN",
    "INCLUDE",
    "LOAD",
    "MACRO",
    "NEWCHARMAP",
    "NEXTU",
    "OPT",
    "POPC",
    "POPO",
    "POPS",
    "PRINT",
    "PRINTLN",
    "PURGE",
    "PUSHC",
    "PUSHO",
    "PUSHS",
    "RB",
    "REDEF",
    "REPT",
    "RL",
    "RSRESET",
    "RSSET",
    "RW",
    "SECTION",
    "SETCHARMAP",
    "SHIFT",
    "STATIC_ASSERT",
    "UNION",
    "WARN",
];

/// RGBDS directives this assembler rejects with a clear error.
pub const UNSUPPORTED_DIRECTIVES: &[&str] = &[
    "LOAD",
    "ENDL",
    "UNION",
    "NEXTU",
    "ENDU",
    "NEWCHARMAP",
    "SETCHARMAP",
    "PUSHC",
    "POPC",
    "OPT",
    "PUSHO",
    "POPO",
    "FRAGMENT",
];

pub fn reg8(lower: &str) -> Option<Reg8> {
    Some(match lower {
        "a" => Reg8::A,
        "b" => Reg8::B,
        "c" => Reg8::C,
        "d" => Reg8::D,
        "e" => Reg8::E,
        "h" => Reg8::H,
        "l" => Reg8::L,
        _ => return None,
    })
}

pub fn reg16(lower: &str) -> Option<Reg16> {
    Some(match lower {
        "af" => Reg16::Af,
        "bc" => Reg16::Bc,
        "de" => Reg16::De,
        "hl" => Reg16::Hl,
        "sp" => Reg16::Sp,
        _ => return None,
    })
}

/// `nz`, `z`, `nc` (`c` is the register, which the encoder reads as the condition too).
pub fn condition(lower: &str) -> Option<Condition> {
    Some(match lower {
        "nz" => Condition::Nz,
        "z" => Condition::Z,
        "nc" => Condition::Nc,
        _ => return None,
    })
}

pub fn section_kind(name: &str) -> Option<SectionKind> {
    Some(match name.to_ascii_uppercase().as_str() {
        "ROM0" => SectionKind::Rom0,
        "ROMX" => SectionKind::Romx,
        "VRAM" => SectionKind::Vram,
        "SRAM" => SectionKind::Sram,
        "WRAM0" => SectionKind::Wram0,
        "WRAMX" => SectionKind::Wramx,
        "OAM" => SectionKind::Oam,
        "HRAM" => SectionKind::Hram,
        _ => None?,
    })
}

/// The built-in symbols of rgbasm 1.0, which no definition may use (case-sensitive).
const BUILTIN_SYMBOLS: &[&str] = &[
    "_NARG",
    "_RS",
    "__SCOPE__",
    "__RGBDS_MAJOR__",
    "__RGBDS_MINOR__",
    "__RGBDS_PATCH__",
    "__RGBDS_RC__",
    "__RGBDS_VERSION__",
    "__TIME__",
    "__DATE__",
    "__ISO_8601_LOCAL__",
    "__ISO_8601_UTC__",
    "__UTC_YEAR__",
    "__UTC_MONTH__",
    "__UTC_DAY__",
    "__UTC_HOUR__",
    "__UTC_MINUTE__",
    "__UTC_SECOND__",
];

/// Why a definition cannot use `name`, if it is a built-in symbol, as rgbasm words it
/// (`_NARG`, which has no value outside a macro, is "reserved").
pub fn builtin_symbol(name: &str) -> Option<String> {
    if !BUILTIN_SYMBOLS.contains(&name) {
        None
    } else if name == "_NARG" {
        Some(format!("`{name}` is reserved for a built-in symbol"))
    } else {
        Some(format!("`{name}` already defined as built-in"))
    }
}

/// Why `name` cannot be a symbol, if it is a reserved word.
pub fn reserved(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let upper = name.to_ascii_uppercase();
    if reg8(&lower).is_some() || reg16(&lower).is_some() || lower == "hli" || lower == "hld" {
        Some("is a register name")
    } else if condition(&lower).is_some() {
        Some("is a condition name")
    } else if MNEMONICS.contains(&lower.as_str()) {
        Some("is an instruction")
    } else if DIRECTIVES.contains(&upper.as_str()) {
        Some("is a directive")
    } else if FUNCTIONS.contains(&upper.as_str()) {
        Some("is a built-in function")
    } else if section_kind(name).is_some() {
        Some("is a section type")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_words_are_case_insensitive() {
        assert_eq!(reserved("A"), Some("is a register name"));
        assert_eq!(reserved("hl"), Some("is a register name"));
        assert_eq!(reserved("Nz"), Some("is a condition name"));
        assert_eq!(reserved("LD"), Some("is an instruction"));
        assert_eq!(reserved("section"), Some("is a directive"));
        assert_eq!(reserved("high"), Some("is a built-in function"));
        assert_eq!(reserved("wram0"), Some("is a section type"));
        assert_eq!(reserved("Label"), None);
        assert_eq!(reserved("_NARG"), None);
    }
}
