//! The front end feature by feature, and every error a user can make with its exact text.

use std::path::PathBuf;

use crate::asm::diagnostic::{Diagnostic, Level};
use crate::asm::frontend::{assemble_source, assemble_source_with_defines};
use crate::asm::link::link;
use crate::asm::object::{BinaryOp, Expr, Object, PatchKind, Severity, UnaryOp};

fn assemble(source: &str) -> (Object, Vec<Diagnostic>) {
    assemble_source("test.asm", source, &[])
        .unwrap_or_else(|errors| panic!("does not assemble:\n{errors}"))
}

fn object(source: &str) -> Object {
    let (object, warnings) = assemble(source);
    assert!(warnings.is_empty(), "unexpected warnings: {warnings:?}");
    object
}

/// The bytes of the first section, which must be complete.
fn rom(source: &str) -> Vec<u8> {
    let object = object(source);
    let section = &object.sections[0];
    assert!(
        section.patches.is_empty(),
        "patches left: {:?}",
        section.patches
    );
    section.data.clone()
}

/// The bytes of `body` in a ROM0 section at $0200.
fn code(body: &str) -> Vec<u8> {
    rom(&format!("SECTION \"test\", ROM0[$0200]\n{body}\n"))
}

/// What the encoder says about `ld hl, sp`.
const LD_HL_SP: &str = "`ld hl, sp` is not an instruction; write `ld hl, sp + 0`";

fn brief(diagnostic: &Diagnostic) -> String {
    match &diagnostic.location {
        Some(l) => format!("{}:{}: {}", l.line, l.column, diagnostic.message),
        None => diagnostic.message.clone(),
    }
}

/// Every error, as `line:column: message`.
fn errors(source: &str) -> Vec<String> {
    match assemble_source("test.asm", source, &[]) {
        Ok(_) => panic!("assembles without errors"),
        Err(errors) => errors.errors().map(brief).collect(),
    }
}

fn warnings(source: &str) -> Vec<String> {
    assemble(source).1.iter().map(brief).collect()
}

fn in_section(body: &str) -> String {
    format!("SECTION \"test\", ROM0[$0200]\n{body}\n")
}

// Syntax

#[test]
fn a_command_line_define_is_the_string_1_as_rgbasm_d_makes_it() {
    let source = "SECTION \"test\", ROM0[$0200]\n\
                  IF DEF(TEST_DRIVER)\n\
                  db TEST_DRIVER, STRLEN(\"{TEST_DRIVER}\")\n\
                  ELSE\n\
                  db $FF\n\
                  ENDC\n";
    let (with, _) = assemble_source_with_defines("test.asm", source, &[], &["TEST_DRIVER"])
        .unwrap_or_else(|errors| panic!("does not assemble:\n{errors}"));
    assert_eq!(with.sections[0].data, [1, 1]);
    assert_eq!(rom(source), [0xFF]);
    let errors: Vec<String> = match assemble_source_with_defines(
        "t.asm",
        "DEF TEST_DRIVER EQU 2\n",
        &[],
        &["TEST_DRIVER"],
    ) {
        Ok(_) => panic!("assembles without errors"),
        Err(errors) => errors.errors().map(brief).collect(),
    };
    assert_eq!(
        errors,
        ["1:5: `TEST_DRIVER` already defined as a string constant (`EQUS`) at -D TEST_DRIVER:0:0"]
    );
}

#[test]
fn comments_continuations_and_case() {
    assert_eq!(
        code("  LD A, 1 ; load\n  ld /* inline */ b, 2\n  Ld c, \\\n    3\n  xor A :: INC a"),
        [0x3E, 1, 0x06, 2, 0x0E, 3, 0xAF, 0x3C]
    );
}

#[test]
fn number_literals_and_characters() {
    assert_eq!(
        code("db $10, 0x10, %10, 0b10, &10, 0o10, 1_0, 'A'\ndw `00112233, $1234"),
        [0x10, 0x10, 2, 2, 8, 8, 10, 65, 0x33, 0x0F, 0x34, 0x12]
    );
}

#[test]
fn operator_precedence_and_rounding() {
    assert_eq!(
        code("db -2 ** 2 & $FF, 2 ** 3 ** 2 >> 4, 1 + 2 << 1, 7 - 3 & 1, 8 >>> 1, -1 >>> 28\ndb -7 / 2 & $FF, -7 % 2, 7 % -2 & $FF"),
        [0xFC, 0x20, 5, 6, 4, 15, 0xFC, 1, 0xFF]
    );
    assert_eq!(
        code("db 1 == 1 && 2 > 1 || 0, !(3 < 2), ~$F0 & $FF"),
        [1, 1, 0x0F]
    );
}

#[test]
fn deprecated_strin_and_strrin_are_one_indexed_as_rgbasm() {
    let (object, found) = assemble(&in_section(
        "db STRIN(\"abcb\", \"b\"), STRRIN(\"abcb\", \"b\"), STRIN(\"abc\", \"z\"), STRRIN(\"\", \"\")",
    ));
    assert_eq!(object.sections[0].data, [2, 4, 0, 1]);
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        [
            "2:4: `STRIN` is deprecated; use 0-indexed `STRFIND` instead [-Wobsolete]",
            "2:24: `STRRIN` is deprecated; use 0-indexed `STRRFIND` instead [-Wobsolete]",
            "2:45: `STRIN` is deprecated; use 0-indexed `STRFIND` instead [-Wobsolete]",
            "2:64: `STRRIN` is deprecated; use 0-indexed `STRRFIND` instead [-Wobsolete]",
        ]
    );
}

#[test]
fn an_integer_constant_over_32_bits_is_a_warning_and_zero_as_rgbasm() {
    let (object, found) = assemble(&in_section(
        "db 99999999999, 1\ndw $1_2345_6789, %111111111111111111111111111111111\ndb 4294967295 & 7, 4294967296 + 2",
    ));
    assert_eq!(object.sections[0].data, [0, 1, 0, 0, 0, 0, 7, 2]);
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        [
            "2:4: Integer constant is too large [-Wlarge-constant]",
            "3:5: Integer constant is too large [-Wlarge-constant]",
            "3:19: Integer constant is too large [-Wlarge-constant]",
            "4:20: Integer constant is too large [-Wlarge-constant]",
        ]
    );
}

#[test]
fn string_functions() {
    let (object, found) = assemble(&in_section(
            "db STRLEN(\"hello\"), STRCMP(\"a\", \"b\") & $FF, STRFIND(\"abcb\", \"b\"), STRRFIND(\"abcb\", \"b\")\n\
             db STRCAT(\"a\", \"bc\"), STRSUB(\"hello\", 2, 3), STRSLICE(\"hello\", 1, -1)\n\
             db STRUPR(\"ab\"), STRLWR(\"AB\"), STRRPL(\"aXa\", \"a\", \"bb\"), \"x\" ++ \"y\"\n\
             db \"ab\" === \"ab\", \"ab\" !== \"ab\", BITWIDTH(5), TZCOUNT(8), STRFMT(\"%d-%02x\", 7, 10)"
    ));
    assert_eq!(
        object.sections[0].data,
        b"\x05\xFF\x01\x03abcellell\
          ABabbbXbbxy\
          \x01\x00\x03\x037-0a"
    );
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        ["3:23: `STRSUB` is deprecated; use 0-indexed `STRSLICE` instead [-Wobsolete]"]
    );
}

#[test]
fn high_low_def_isconst_and_sizeof_register() {
    assert_eq!(
        code("DEF X EQU 1\nLabel:\ndb HIGH($1234), LOW($1234), DEF(X), DEF(Y), ISCONST(Label), ISCONST(Later), SIZEOF(a), SIZEOF(hl)\nLater:"),
        [0x12, 0x34, 1, 0, 1, 0, 1, 2]
    );
    assert_eq!(
        code("dw STARTOF(WRAMX), SIZEOF(HRAM)"),
        [0x00, 0xD0, 0x7F, 0x00]
    );
}

// Sections

#[test]
fn section_options_are_recorded() {
    let object = object(
        "SECTION \"a\", ROMX[$4100], BANK[1]\nSECTION \"b\", WRAM0, ALIGN[8]\nSECTION \"c\", HRAM[$FF80]\nSECTION \"d\", ROM0, ALIGN[4, 2]\nSECTION \"e\", vram",
    );
    let summary: Vec<String> = object
        .sections
        .iter()
        .map(|s| {
            format!(
                "{} {:?} {:?} {:?} {:?}",
                s.name, s.kind, s.address, s.bank, s.align
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "a Romx Some(16640) Some(1) None",
            "b Wram0 None None Some((8, 0))",
            "c Hram Some(65408) None None",
            "d Rom0 None None Some((4, 2))",
            "e Vram None None None",
        ]
    );
}

#[test]
fn ram_sections_reserve_space() {
    let object = object("SECTION \"vars\", WRAM0\nwA: db\nwB: dw\nwC: ds 10\nwD: dl\nwEnd:");
    let section = &object.sections[0];
    assert_eq!((section.size, section.data.len()), (17, 0));
    let offsets: Vec<(String, u32)> = object
        .symbols
        .iter()
        .map(|s| (s.name.clone(), s.section.expect("label").1))
        .collect();
    assert_eq!(
        offsets,
        [
            ("wA".to_string(), 0),
            ("wB".to_string(), 1),
            ("wC".to_string(), 3),
            ("wD".to_string(), 13),
            ("wEnd".to_string(), 17)
        ]
    );
}

#[test]
fn section_errors() {
    assert_eq!(
        errors(
            "SECTION \"a\", ROM0[$4000]\n\
             SECTION \"b\", WRAM0, BANK[1]\n\
             SECTION \"c\", ROMX, BANK[0]\n\
             SECTION \"d\", ROM0[$101], ALIGN[1]\n\
             SECTION \"e\", ROM0, ALIGN[17]\n\
             SECTION \"f\", ROM0, ALIGN[2, 4]\n\
             SECTION \"g\", ROM1\n\
             SECTION \"h\", ROM0\n\
             SECTION \"h\", ROM0\n\
             SECTION UNION \"i\", WRAM0\n\
             SECTION \"j\", ROM0, BANK[1]"
        ),
        [
            "1:19: Section \"a\"'s fixed address $4000 is outside of range [$0000; $3FFF]",
            "2:26: `BANK` only allowed for `ROMX`, `WRAMX`, `SRAM`, or `VRAM` sections",
            "3:25: ROMX bank value $0000 out of range ($0001 to $01FF)",
            "4:32: Section \"d\"'s fixed address does not match its alignment",
            "5:26: Alignment must be between 0 and 16, not 17",
            "6:29: Alignment offset (4) must be smaller than alignment size (4)",
            "7:14: expected a section type (ROM0, ROMX, VRAM, SRAM, WRAM0, WRAMX, OAM or HRAM), found `ROM1`",
            "9:1: Section \"h\" already defined at test.asm:8:1 (`SECTION FRAGMENT` and `UNION` are not supported)",
            "10:9: `SECTION UNION` is not supported by this assembler",
            "11:25: `BANK` only allowed for `ROMX`, `WRAMX`, `SRAM`, or `VRAM` sections",
        ]
    );
}

#[test]
fn data_outside_rom_or_section_is_an_error() {
    assert_eq!(
        errors("nop\nLabel:\nSECTION \"v\", WRAM0\n  ld a, b\n  db 1\n  ds 2, 0\nSECTION \"x\", ROM0[$3FFF]\n  dw 1"),
        [
            "1:1: Cannot output data outside of a `SECTION`",
            "2:1: Cannot define label `Label` outside of a `SECTION`",
            "4:3: Section \"v\" cannot contain code or data (not `ROM0` or `ROMX`)",
            "5:6: Section \"v\" cannot contain code or data (not `ROM0` or `ROMX`)",
            "6:3: Section \"v\" cannot contain code or data (not `ROM0` or `ROMX`)",
            "8:1: Section \"x\" grew too big (max size = $0001 bytes, reached $0002)",
        ]
    );
}

#[test]
fn pushs_and_pops_come_back_to_the_section_and_scope() {
    let object = object(
        "SECTION \"code\", ROM0[$100]\nRoutine:\n  ld a, 1\n  PUSHS \"vars\", WRAM0[$C000]\nwAnswer: db\n  POPS\n.local:\n  ld [wAnswer], a\n  PUSHS\nSECTION \"more\", ROM0[$200]\n  nop\n  POPS\n  ret",
    );
    let names: Vec<&str> = object.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Routine", "wAnswer", "Routine.local"]);
    assert_eq!(object.sections[0].data, [0x3E, 1, 0xEA, 0x00, 0xC0, 0xC9]);
    assert_eq!(object.sections[2].data, [0x00]);
    assert_eq!(
        errors("POPS"),
        ["1:1: No entries in the section stack (`POPS` without `PUSHS`)"]
    );
}

#[test]
fn mid_section_align_and_ds_align() {
    let object = object("SECTION \"f\", ROM0\n  db 1, 2, 3\n  ALIGN 4\nAligned:\nSECTION \"g\", ROM0[$0101]\n  ds ALIGN[4], $FF\n  db 9");
    assert_eq!(object.sections[0].align, Some((4, 13)));
    assert_eq!(
        object.sections[1].data,
        [0xFF; 15].iter().copied().chain([9]).collect::<Vec<u8>>()
    );
    assert_eq!(
        errors("SECTION \"g\", ROM0[$0101]\n  ALIGN 1\nSECTION \"h\", ROM0\n  ds ALIGN[3]"),
        [
            "2:3: Section is misaligned (at PC = $0101, expected ALIGN[1, 0], got ALIGN[1, 1])",
            "4:3: `DS ALIGN[3]` needs the section to be at a fixed address or aligned to at least 3 bits",
        ]
    );
    assert_eq!(
        errors("SECTION \"h\", ROM0\n  ds ALIGN[1]"),
        ["2:3: `DS ALIGN[1]` needs the section to be at a fixed address or aligned to at least 1 bit"]
    );
}

// Labels

#[test]
fn labels_local_exported_and_qualified() {
    let object = object(
        "SECTION \"code\", ROM0[$100]\nStart::\n.loop\n  jr .loop\nOther:\n.loop: nop\nStart.extra:\n  dw Start.loop, Other.loop",
    );
    let symbols: Vec<(String, i32, bool)> = object
        .symbols
        .iter()
        .map(|s| (s.name.clone(), s.value, s.exported))
        .collect();
    assert_eq!(
        symbols,
        [
            ("Start".to_string(), 0x100, true),
            ("Start.loop".to_string(), 0x100, false),
            ("Other".to_string(), 0x102, false),
            ("Other.loop".to_string(), 0x102, false),
            ("Start.extra".to_string(), 0x103, false),
        ]
    );
    assert_eq!(
        object.sections[0].data,
        [0x18, 0xFE, 0x00, 0x00, 0x01, 0x02, 0x01]
    );
}

#[test]
fn labels_in_floating_sections_are_left_to_the_linker() {
    let object = object(
        "SECTION \"code\", ROM0\nStart:\n  ld hl, Start\n.loop:\n  jr .loop\n  jp Far\n  db End - Start\nEnd:",
    );
    let section = &object.sections[0];
    assert_eq!(section.data, [0x21, 0, 0, 0x18, 0xFE, 0xC3, 0, 0, 0]);
    let patches: Vec<(u32, PatchKind, Expr, u32, u32)> = section
        .patches
        .iter()
        .map(|p| {
            (
                p.offset,
                p.kind,
                p.expr.clone(),
                p.pc_offset,
                p.location.line,
            )
        })
        .collect();
    assert_eq!(
        patches,
        [
            (
                1,
                PatchKind::Word,
                Expr::SectionAddress {
                    section: 0,
                    offset: 0
                },
                0,
                3
            ),
            (6, PatchKind::Word, Expr::Symbol("Far".to_string()), 5, 6),
            (
                8,
                PatchKind::Byte,
                Expr::Binary(
                    BinaryOp::Sub,
                    Box::new(Expr::Symbol("End".to_string())),
                    Box::new(Expr::SectionAddress {
                        section: 0,
                        offset: 0
                    })
                ),
                8,
                7
            ),
        ]
    );
    assert_eq!(object.symbols[0].section, Some((0, 0)));
}

#[test]
fn anonymous_labels() {
    let object = object("SECTION \"a\", ROM0[$200]\n:\n  jr :+\n  jr :-\n: jr :--\n  dw :+\n:");
    // Backward references are known; forward ones are left to the linker.
    assert_eq!(
        object.sections[0].data,
        [0x18, 0, 0x18, 0xFC, 0x18, 0xFA, 0, 0]
    );
    let patches: Vec<(u32, Expr)> = object.sections[0]
        .patches
        .iter()
        .map(|p| (p.offset, p.expr.clone()))
        .collect();
    assert_eq!(
        patches,
        [
            (1, Expr::Symbol("!1".to_string())),
            (6, Expr::Symbol("!2".to_string()))
        ]
    );
    // Anonymous labels are in the object (for the linker), named `!n`.
    let names: Vec<&str> = object.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["!0", "!1", "!2"]);
}

#[test]
fn label_errors() {
    assert_eq!(
        errors(
            "SECTION \"a\", ROM0\n.early:\nStart:\nStart:\na:\nhl::\nnop:\nA.b.c:\njr :--\n  ld a, .x.y"
        ),
        [
            "2:1: Unqualified local label `.early` in main scope",
            "4:1: `Start` already defined at test.asm:3:1",
            "5:1: `a` is a register name and cannot be a label",
            "6:1: `hl` is a register name and cannot be a label",
            "7:1: `nop` is an instruction and cannot be a label",
            "8:1: `A.b.c` has more than one `.`",
            "9:4: Reference to anonymous label 2 before, when only 0 have been created so far",
            "10:9: `Start.x.y` has more than one `.`",
        ]
    );
}

// Symbols

#[test]
fn def_equ_variables_and_compound_assignment() {
    assert_eq!(
        code(
            "DEF A1 EQU 3\nDEF V = 10\nDEF V += 5\nDEF V *= 2\nDEF V >>= 1\nDEF V ^= 1\nREDEF A1 EQU A1 + 1\nDEF #ld EQU 7\ndb A1, V, #ld"
        ),
        [4, 14, 7]
    );
}

#[test]
fn rs_counters() {
    assert_eq!(
        code("RSSET 4\nDEF S_A RB\nDEF S_B RW 2\nDEF S_C RL\nDEF S_SIZE RB 0\nRSRESET\nDEF T_A RB 3\ndb S_A, S_B, S_C, S_SIZE, T_A, _RS"),
        [4, 5, 9, 13, 0, 3]
    );
}

#[test]
fn equs_expansion_and_interpolation() {
    assert_eq!(
        code(
            "DEF REG EQUS \"hl\"\nDEF N EQU 10\nDEF NAME EQUS \"Value\"\nDEF {NAME}_{d:N} EQU $42\n  ld REG, 0\n  inc REG\n  db Value_10, \"{NAME}\", \"{x:N}{#04b:N}\"\nREDEF NAME EQUS \"{NAME}!\"\n  db \"{NAME}\", \"{5d:N}\""
        ),
        b"\x21\x00\x00\x23\x42Valuea%1010Value!   10".to_vec()
    );
}

#[test]
fn forward_references_to_constants_are_resolved() {
    let object = object("SECTION \"a\", ROM0\n  ld a, LATER\n  dw LATER * 2\nDEF LATER EQU $12");
    assert_eq!(object.sections[0].data, [0x3E, 0x12, 0x24, 0x00]);
    assert!(object.sections[0].patches.is_empty());
}

#[test]
fn export_and_purge() {
    let object = object(
        "DEF K EQU 5\nEXPORT K\nEXPORT Later\nEXPORT DEF J EQU 6\nDEF GONE EQU 1\nPURGE GONE\nDEF GONE EQUS \"again\"\nSECTION \"a\", ROM0\nLater:",
    );
    let symbols: Vec<String> = object
        .symbols
        .iter()
        .map(|s| format!("{} {:?} {} {}", s.name, s.section, s.value, s.exported))
        .collect();
    assert_eq!(
        symbols,
        [
            "Later Some((0, 0)) 0 true",
            "J None 6 true",
            "K None 5 true"
        ]
    );
}

#[test]
fn built_in_symbols_cannot_be_defined_as_in_rgbasm() {
    assert_eq!(
        errors(
            "SECTION \"s\", ROM0\nDEF _NARG = 1\nDEF _RS EQU 1\nREDEF __SCOPE__ EQU 2\n_NARG:\nDEF __UTC_YEAR__ RB 1\nDEF __LINE__ EQU 3"
        ),
        [
            "2:5: `_NARG` is reserved for a built-in symbol",
            "3:5: `_RS` already defined as built-in",
            "4:7: `__SCOPE__` already defined as built-in",
            "5:1: `_NARG` is reserved for a built-in symbol",
            "6:5: `__UTC_YEAR__` already defined as built-in",
        ]
    );
}

#[test]
fn symbol_errors() {
    assert_eq!(
        errors(
            "DEF X EQU 1\nDEF X EQU 2\nDEF X = 3\nDEF a EQU 1\nDEF nz EQU 1\nDEF V += 1\nDEF S EQUS \"s\"\nDEF S EQUS \"t\"\nMACRO mm\nENDM\nEXPORT mm\nPURGE Nope\nDEF Y EQU Later\nY EQU 5\nDEF Q 5\nLater:"
        ),
        [
            "2:5: `X` already defined as a constant at test.asm:1:5",
            "3:5: `X` already defined as a constant at test.asm:1:5",
            "4:5: `a` is a register name and cannot be a symbol name",
            "5:5: `nz` is a condition name and cannot be a symbol name",
            "6:5: `V` is not defined",
            "8:5: `S` already defined as a string constant (`EQUS`) at test.asm:7:5",
            "11:8: `mm` is a macro and cannot be exported",
            "12:7: Undefined symbol `Nope`",
            "13:11: The value of `Y` must be known at assembly time, but `Later` is not defined yet",
            "14:1: unknown instruction, directive or macro `Y` (to define a symbol, write `DEF Y ...`)",
            "15:7: expected `EQU`, `=`, `EQUS`, `RB`, `RW` or `RL` after `Q`, found `5`",
            "16:1: Cannot define label `Later` outside of a `SECTION`",
        ]
    );
}

// Data

#[test]
fn data_directives_with_strings_and_charmap() {
    let (object, found) = assemble(&in_section(
        "CHARMAP \"<NL>\", 10\nCHARMAP \"é\", $80\nCHARMAP \"<W>\", $1234\ndb \"a<NL>é\\n\", (\"b\")\ndw \"<W>x\"\ndl $11223344, -1\nds 3, 1, 2\ndb 1, 2,",
    ));
    assert_eq!(
        object.sections[0].data,
        [
            0x61, 10, 0x80, 10, 0x62, 0x34, 0x12, 0x78, 0x00, 0x44, 0x33, 0x22, 0x11, 0xFF, 0xFF,
            0xFF, 0xFF, 1, 2, 1, 1, 2
        ]
    );
    // As RGBDS: once the charmap maps anything, each unmapped character is a warning; a
    // string used as a number is deprecated.
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        [
            "5:4: Unmapped character 'a' [-Wunmapped-char]",
            "5:4: Unmapped character '\\n' [-Wunmapped-char]",
            "5:17: Unmapped character 'b' [-Wunmapped-char]",
            "5:17: Treating strings as numbers is deprecated; use character literals or `CHARVAL` instead [-Wobsolete]",
            "6:4: Unmapped character 'x' [-Wunmapped-char]",
        ]
    );
}

#[test]
fn charlen_warns_of_unmapped_characters_as_rgbasm_does() {
    let (object, found) = assemble(&in_section(
        "CHARMAP \"AB\", 10\ndb CHARLEN(\"xABy\"), CHARLEN(\"AB\")",
    ));
    assert_eq!(object.sections[0].data, [3, 1]);
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        [
            "3:12: Unmapped character 'x' [-Wunmapped-char]",
            "3:12: Unmapped character 'y' [-Wunmapped-char]",
        ]
    );
}

#[test]
fn truncation_is_a_warning_with_the_low_bits() {
    let source = in_section("  db 256, -257, -256, -129\n  ld a, 300\n  dw $12345\n  db \"<W>\"\nCHARMAP \"<W>\", $1FF\n  db \"<W>\"");
    let (object, found) = assemble(&source);
    assert_eq!(
        object.sections[0].data,
        [0, 0xFF, 0, 0x7F, 0x3E, 0x2C, 0x45, 0x23, 0x3C, 0x57, 0x3E, 0xFF]
    );
    let byte = "Expression must be 8-bit; use `LOW()` to force 8-bit [-Wtruncation]";
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        [
            format!("2:6: {byte}"),
            format!("2:11: {byte}"),
            format!("3:9: {byte}"),
            "4:6: Expression must be 16-bit [-Wtruncation]".to_string(),
            format!("7:6: {byte}"),
        ]
    );
}

#[test]
fn instruction_operand_forms() {
    assert_eq!(
        code(
            "ld a, [hl+]\nld [hli], a\nld a, [HL-]\nldi a, [hl]\nldd [hl], a\nld [$FF00 + c], a\nldh a, [c]\nldh [$FF80], a\nld hl, sp + 5\nld hl, sp - 3\nadd sp, -2\nld a, HIGH(bc)\nld LOW(de), a\njp !nz, $1234\nret !c\nld [$C000], sp\nbit 7, [hl]\nrst $38"
        ),
        [
            0x2A, 0x22, 0x3A, 0x2A, 0x32, 0xE2, 0xF2, 0xE0, 0x80, 0xF8, 0x05, 0xF8, 0xFD, 0xE8, 0xFE,
            0x78, 0x5F, 0xCA, 0x34, 0x12, 0xD0, 0x08, 0x00, 0xC0, 0xCB, 0x7E, 0xFF
        ]
    );
}

#[test]
fn instruction_errors() {
    assert_eq!(
        errors(&in_section(
            "  ld a,\n  ld a, (hl)\n  ld [a], b\n  ld a, [$FF01 + c]\n  ld a, [c]\n  jr $1000\n  ldh a, [$1234]\n  rst 3\n  frob a\n  ld hl, sp\n  nop 1\n  ld a, b c\n  ld a, [hl"
        )),
        [
            "2:8: expected a register or an expression after `,`, found the end of the line",
            "3:10: expected an expression after `(`, found `hl`, which is a register name",
            "4:7: `[a]` is not a memory operand: only `[bc]`, `[de]`, `[hl]`, `[hl+]`, `[hl-]`, `[c]` and `[n16]` are",
            "5:10: Base value must be equal to $FF00 for [$FF00+C]",
            "6:3: RGBDS 1.0 rejects `[c]` in `ld`; write `ldh [c], a` / `ldh a, [c]` or `ld [$FF00+c], a` / `ld a, [$FF00+c]`",
            "7:6: `JR` target must be between -128 and 127 bytes away, not 3582; use `JP` instead",
            "8:10: Address $1234 for `LDH` must be between $FF00 and $FFFF",
            "9:7: Invalid address $0003 for `RST`; it must be one of $00, $08, $10, $18, $20, $28, $30 or $38",
            "10:3: unknown instruction, directive or macro `frob`",
            "11:3: `ld hl, sp` is not an instruction; write `ld hl, sp + 0`",
            "12:3: `nop` takes no operand",
            "13:11: expected the end of the line after `b`, found `c`",
            "14:12: expected `]` after `hl`, found the end of the line",
        ]
    );
}

// Files

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asm-frontend-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_file_including_itself_twice_stops_at_the_recursion_limit() {
    // Without stopping, REPT 2 would include it 2^64 times.
    let dir = temp_dir("self-include");
    std::fs::write(dir.join("self.inc"), "REPT 2\nINCLUDE \"self.inc\"\nENDR\n").unwrap();
    let failure = assemble_source(
        "main.asm",
        "INCLUDE \"self.inc\"\nnot_reached\n",
        std::slice::from_ref(&dir),
    )
    .expect_err("fails");
    let found: Vec<String> = failure.errors().map(brief).collect();
    assert_eq!(found, ["1:1: Recursion limit (64) exceeded"]);
}

#[test]
fn include_and_incbin_search_the_include_dirs() {
    let dir = temp_dir("include");
    std::fs::write(
        dir.join("defs.inc"),
        "DEF FROM_INCLUDE EQU 9\nMACRO twice\n  db \\1, \\1\nENDM\n",
    )
    .unwrap();
    std::fs::write(dir.join("data.bin"), [1u8, 2, 3, 4, 5]).unwrap();
    let source = "INCLUDE \"defs.inc\"\nSECTION \"a\", ROM0[0]\n  db FROM_INCLUDE\n  twice 7\n  INCBIN \"data.bin\", 1, 2\n  INCBIN \"data.bin\", 3\n";
    let (object, _) =
        assemble_source("main.asm", source, std::slice::from_ref(&dir)).expect("assembles");
    assert_eq!(object.sections[0].data, [9, 7, 7, 2, 3, 4, 5]);

    let failure = assemble_source(
        "main.asm",
        "SECTION \"a\", ROM0\nINCBIN \"data.bin\", 6\nINCBIN \"data.bin\", 2, 4\nINCLUDE \"missing.inc\"\n",
        std::slice::from_ref(&dir),
    )
    .expect_err("fails");
    let found: Vec<String> = failure.errors().map(brief).collect();
    assert_eq!(
        found,
        [
            "2:20: Specified start position (6) is greater than length of \"data.bin\" (5)"
                .to_string(),
            "3:20: Specified range in `INCBIN` file \"data.bin\" is out of bounds (2 + 4 > 5)"
                .to_string(),
            format!(
                "4:9: File \"missing.inc\" not found (searched the current directory, {})",
                dir.display()
            ),
        ]
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn errors_in_included_files_name_the_file_and_the_include() {
    let dir = temp_dir("nested");
    std::fs::write(dir.join("bad.inc"), "\n  ld a, ,\n").unwrap();
    let failure = assemble_source(
        "main.asm",
        "SECTION \"a\", ROM0\n  INCLUDE \"bad.inc\"\n",
        std::slice::from_ref(&dir),
    )
    .expect_err("fails");
    let error = &failure.0[0];
    let location = error.location.as_ref().expect("location");
    assert_eq!(
        (location.file.to_string(), location.line, location.column),
        (dir.join("bad.inc").display().to_string(), 2, 9)
    );
    assert_eq!(
        error.context,
        [format!(
            "in file {} included at main.asm:2:3",
            dir.join("bad.inc").display()
        )]
    );
    std::fs::remove_dir_all(dir).ok();
}

// Macros and loops

#[test]
fn macro_arguments_shift_and_narg() {
    assert_eq!(
        code(
            "MACRO m\n  db _NARG, \\1, \\<3>, \\<-1>\n  SHIFT 2\n  db _NARG, \\1\n  SHIFT -1\n  db \\1\nENDM\n  m 1, 2, 3, 4\nMACRO all\n  db \\#\nENDM\n  all 5, STRLEN(\"a,b\"), \"c\", 1\\,2"
        ),
        [4, 1, 3, 4, 2, 3, 2, 5, 3, b'c', 1, 2]
    );
}

#[test]
fn macro_arguments_inside_strings_are_literal() {
    assert_eq!(
        code("DEF S EQUS \"zz\"\nMACRO m\n  db \"<\\1>\"\nENDM\n  m \"x\\ty\"\n  m a\\\\b\n  m {S}\n  m \\{S\\}"),
        b"<\"x\\ty\"><a\\b><zz><{S}>"
    );
}

#[test]
fn quiet_marks_are_accepted() {
    assert_eq!(
        code("MACRO? twice\n  db \\1, \\1\nENDM\n  twice 3\nREPT? 2\n  db 4\nENDR\nFOR? V, 2\n  db V\nENDR"),
        [3, 3, 4, 4, 0, 1]
    );
    assert_eq!(
        errors("MACRO m\nENDM\n  m? 1"),
        ["3:4: rgbasm 1.0.3 does not accept a quiet macro call `m?`; write `m`"]
    );
}

#[test]
fn macro_unique_suffix_is_one_number_per_call() {
    let object = object(
        "MACRO wait\n.loop\\@:\n  jr .loop\\@\n  db \"\\@\"\nENDM\nMACRO plain\n  nop\nENDM\nSECTION \"a\", ROM0[0]\nStart:\n  wait\n  plain\n  wait\n  REPT 2\n    db \"\\@\"\n  ENDR",
    );
    let names: Vec<&str> = object.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Start", "Start.loop_u1", "Start.loop_u2"]);
    assert_eq!(
        object.sections[0].data,
        b"\x18\xFE_u1\x00\x18\xFE_u2_u3_u4".to_vec()
    );
}

#[test]
fn loops_for_and_break() {
    assert_eq!(
        code(
            "FOR V, 4, 25, 5\n  db V\n  DEF V *= 2\nENDR\n  db V\nFOR I, 1, 100\n  IF I == 3\n    BREAK\n  ENDC\n  db I\nENDR\n  db I\nREPT 2\n  REPT 2\n    db $AA\n  ENDR\n  db $BB\nENDR\nREPT 0\n  db 1\nENDR\nFOR J, 3, 0\nENDR"
        ),
        [4, 9, 14, 19, 24, 29, 1, 2, 3, 0xAA, 0xAA, 0xBB, 0xAA, 0xAA, 0xBB]
    );
}

#[test]
fn conditionals_skip_unevaluated_blocks() {
    assert_eq!(
        code(
            "IF 0\n  this is not even parsed {nor interpolated}\n  IF 1\n    db 1\n  ELSE\n    db 2\n  ENDC\nELIF 1\n  db 3\nELIF Undefined / 0\n  db 4\nELSE\n  db 5\nENDC\nif 1\n  db 6\nelse\n  db 7\nendc\nIF 0\nELSE\n  db 8\nENDC"
        ),
        [3, 6, 8]
    );
}

#[test]
fn a_bad_block_opener_does_not_cascade() {
    assert_eq!(
        errors("IF {nope}\n  db 1\nELSE\n  db 2\nENDC\nREPT {nope}\n  nop\nENDR\nMACRO {nope}\n  nop\nENDM"),
        [
            "1:4: Interpolated symbol `nope` does not exist",
            "6:6: Interpolated symbol `nope` does not exist",
            "9:7: Interpolated symbol `nope` does not exist",
        ]
    );
}

#[test]
fn block_errors() {
    assert_eq!(
        errors("ENDC\nELSE\nENDR\nENDM\nBREAK\nSHIFT\nIF Later\nENDC\nIF 1\nLabel: ENDC\nREPT -1\nENDR\nFOR X, 1, 2, 0\nENDR\nIF 0\nELSE\nELSE\nENDC\nIF 1\nELSE\nELIF 1\nENDC\nIF 1\n"),
        [
            "1:1: Found `ENDC` outside of an `IF` construct",
            "2:1: Found `ELSE` outside of an `IF` construct",
            "3:1: Found `ENDR` outside of a `REPT` or `FOR` block",
            "4:1: Found `ENDM` outside of a macro definition",
            "5:1: `BREAK` can only be used inside a loop (`REPT`/`FOR` block)",
            "6:1: `SHIFT` can only be used inside a macro",
            "7:4: An `IF` condition must be known at assembly time, but `Later` is not defined yet",
            "10:1: a label cannot come before `ENDC`: put it on its own line",
            "11:6: The `REPT` count must not be negative, not -1",
            "13:14: `FOR` cannot have a step value of 0",
            "17:1: Found `ELSE` after an `ELSE` block",
            "21:1: Found `ELIF` after an `ELSE` block",
            "23:1: Ended block with 1 unterminated conditional (`IF` without `ENDC`)",
        ]
    );
    assert_eq!(
        errors("MACRO m\n  nop\n"),
        ["1:1: Unterminated macro definition (no `ENDM`)"]
    );
    assert_eq!(
        errors("REPT 2\n  nop\n"),
        ["1:1: Unterminated loop (`REPT`/`FOR` block without `ENDR`)"]
    );
}

#[test]
fn errors_in_macros_carry_the_call_chain() {
    let failure = assemble_source(
        "test.asm",
        "MACRO inner\n  ld hl, \\1\nENDM\nMACRO outer\n  REPT 2\n    inner \\1\n  ENDR\nENDM\nSECTION \"a\", ROM0\n  outer sp\n",
        &[],
    )
    .expect_err("fails");
    let found: Vec<(String, Vec<String>)> = failure
        .errors()
        .map(|d| (brief(d), d.context.clone()))
        .collect();
    let context = |iteration| {
        vec![
            "in macro `inner` called at test.asm:6:5".to_string(),
            format!("in REPT loop (iteration {iteration} of 2) at test.asm:5:3"),
            "in macro `outer` called at test.asm:10:3".to_string(),
        ]
    };
    assert_eq!(
        found,
        [
            (format!("2:3: {LD_HL_SP}"), context(1)),
            (format!("2:3: {LD_HL_SP}"), context(2)),
        ]
    );
}

#[test]
fn macro_errors() {
    assert_eq!(
        errors("MACRO ld\nENDM\nMACRO m\n  db \\2\nENDM\nMACRO m\nENDM\n  db \\1\nMACRO r\n  r\nENDM\nSECTION \"a\", ROM0\n  m 1\n  undefined_macro 1, 2\n  r\n  also_undefined"),
        [
            "1:7: `ld` is an instruction and cannot be a symbol name",
            "6:7: `m` already defined at test.asm:3:7",
            "8:6: macro argument `\\1` used outside of a macro",
            "4:6: macro argument `\\2` not defined (the macro got 1 argument)",
            "14:3: unknown instruction, directive or macro `undefined_macro`",
            // Fatal, as in rgbasm: nothing after it is read.
            "10:3: Recursion limit (64) exceeded",
        ]
    );
}

// Assertions and messages

#[test]
fn assertions_now_or_at_link_time() {
    let (object, found) = assemble(
        "SECTION \"a\", ROM0\nStart:\n  ds 4\nEnd:\n  ASSERT End - Start == 4\n  ASSERT WARN, Start == 0, \"start\"\n  STATIC_ASSERT 1\n  ASSERT FATAL, BANK(Start) == 0\n  WARN \"careful\"",
    );
    type Summary = (Expr, Severity, String, u32);
    let assertions: Vec<Summary> = object
        .assertions
        .iter()
        .map(|a| {
            (
                a.expr.clone(),
                a.severity,
                a.message.clone(),
                a.location.line,
            )
        })
        .collect();
    assert_eq!(
        assertions,
        [(
            Expr::Binary(
                BinaryOp::Eq,
                Box::new(Expr::SectionAddress {
                    section: 0,
                    offset: 0
                }),
                Box::new(Expr::Number(0))
            ),
            Severity::Warn,
            "start".to_string(),
            6
        )]
    );
    assert_eq!(
        found.iter().map(brief).collect::<Vec<_>>(),
        ["9:3: careful [-Wuser]"]
    );
}

/// The `fallthrough` macro of asm/include/macros.inc: `@` is where the
/// assertion stands, in its macro, and the label named after it is defined
/// later, so the linker decides (as rgbasm leaves it to rgblink).
#[test]
fn an_assertion_on_the_pc_waits_for_a_label_defined_after_it() {
    let (object, _) = assemble(
        "MACRO fallthrough\n  ASSERT @ == \\1, \"\\1 must follow\"\nENDM\nSECTION \"a\", ROM0\nFirst:\n  nop\n  fallthrough Second\nSecond:\n  nop\n  fallthrough Third\n  nop\nThird:\n  ret",
    );
    assert_eq!(
        object
            .assertions
            .iter()
            .map(|a| (a.message.as_str(), a.location.line))
            .collect::<Vec<_>>(),
        [("Second must follow", 2), ("Third must follow", 2)]
    );
    let errors = match link(&[object]) {
        Ok(_) => panic!("links although Third does not follow"),
        Err(errors) => errors
            .errors()
            .map(|e| (brief(e), e.context.clone()))
            .collect::<Vec<_>>(),
    };
    // The macro's line, and the line that called it.
    assert_eq!(
        errors,
        [(
            "2:3: Third must follow".to_string(),
            vec!["in macro `fallthrough` called at test.asm:10:3".to_string()]
        )]
    );
}

#[test]
fn failed_assertions_and_fail() {
    assert_eq!(
        warnings("ASSERT WARN, 0, \"soft\"\nASSERT warn, 1 == 2"),
        [
            "1:1: Assertion failed: soft [-Wassert]",
            "2:1: Assertion failed [-Wassert]"
        ]
    );
    assert_eq!(
        errors("ASSERT 0, \"hard\"\nSTATIC_ASSERT 1 == 0\nSTATIC_ASSERT Later\nASSERT FATAL, 0, \"stop\"\nASSERT 0, \"never reached\""),
        [
            "1:1: Assertion failed: hard",
            "2:1: Assertion failed",
            "3:15: `STATIC_ASSERT` needs a condition known at assembly time, but `Later` is not defined yet",
            "4:1: Assertion failed: stop",
        ]
    );
    assert_eq!(
        errors("FAIL \"no {d:N}\"\nDEF N EQU 1\nnop"),
        [
            "1:10: Interpolated symbol `N` does not exist",
            "3:1: Cannot output data outside of a `SECTION`"
        ]
    );
    assert_eq!(errors("DEF N EQU 2\nFAIL \"no {d:N}\"\nnop"), ["2:1: no 2"]);
}

// Reporting

#[test]
fn all_errors_of_a_run_are_reported_with_the_line() {
    let failure = assemble_source(
        "src/bad.asm",
        "SECTION \"a\", ROM0\n  ld a, 1 +\n  nop\n  jp\n  db 1 / 0\n",
        &[],
    )
    .expect_err("fails");
    assert_eq!(
        failure.to_string(),
        "src/bad.asm:2:12: error: expected an expression after `+`, found the end of the line\n\
         \x202 |   ld a, 1 +\n\
         \x20  |            ^\n\
         src/bad.asm:4:3: error: `jp` takes `n16`, `cc, n16` or `hl`\n\
         \x204 |   jp\n\
         \x20  |   ^\n\
         src/bad.asm:5:8: error: Division by zero\n\
         \x205 |   db 1 / 0\n\
         \x20  |        ^\n\
         3 errors"
    );
}

#[test]
fn unsupported_features_are_named() {
    assert_eq!(
        errors("LOAD \"x\", WRAM0\nSECTION FRAGMENT \"f\", ROM0\nOPT b.X\ndb MUL(1.0, 2.0)\ndb 1.5\nPUSHC\n"),
        [
            "1:1: `LOAD` is not supported by this assembler (it implements the RGBDS features the project uses)",
            "2:9: `SECTION FRAGMENT` is not supported by this assembler",
            "3:1: `OPT` is not supported by this assembler (it implements the RGBDS features the project uses)",
            "4:4: `MUL()` is not supported by this assembler",
            "5:4: fixed-point numbers are not supported by this assembler",
            "6:1: `PUSHC` is not supported by this assembler (it implements the RGBDS features the project uses)",
        ]
    );
}

#[test]
fn expression_errors() {
    assert_eq!(
        errors(&in_section(
            "  db 1 % 0\n  db 2 ** -1\n  db \"ab\" + 1\n  db 'ab'\n  db STRLEN(5)\n  db \"a\" ++ 1\n  ds Later\n  db _NARG\n  db (1\n  db ]\nLater:"
        )),
        [
            "2:8: Modulo by zero",
            "3:8: Exponentiation by negative power",
            "4:6: Strings as numbers must be a single charmap unit",
            "5:6: Character literals must be a single charmap unit",
            "6:13: expected a string for `STRLEN`, found `5`",
            "7:13: `++` concatenates two strings",
            "8:6: The `DS` size must be known at assembly time, but `Later` is not defined yet",
            "9:6: `_NARG` has no value outside of a macro",
            "10:8: expected `)` after `1`, found the end of the line",
            "11:6: expected an expression after `db`, found `]`",
        ]
    );
}

#[test]
fn absurd_nesting_is_an_error_not_a_crash() {
    let deep = format!("db {}1{}", "(".repeat(100), ")".repeat(100));
    assert_eq!(
        errors(&in_section(&deep)),
        ["2:68: expression nested more than 64 levels deep"]
    );
    let negations = format!("db {}1", "-".repeat(100));
    assert_eq!(
        errors(&in_section(&negations)),
        ["2:68: expression nested more than 64 levels deep"]
    );
    assert_eq!(
        code(&format!("db {}1{}", "(".repeat(60), ")".repeat(60))),
        [1]
    );
}

#[test]
fn warnings_do_not_hide_errors_and_unary_high_low_fold() {
    let object = object("SECTION \"a\", ROM0\nLbl:\n  ld a, HIGH(Lbl)\n  ld b, LOW(Lbl + 1)");
    let patches: Vec<&Expr> = object.sections[0].patches.iter().map(|p| &p.expr).collect();
    let l = Expr::SectionAddress {
        section: 0,
        offset: 0,
    };
    assert_eq!(
        patches,
        [
            &Expr::Unary(UnaryOp::High, Box::new(l.clone())),
            &Expr::Unary(
                UnaryOp::Low,
                Box::new(Expr::Binary(
                    BinaryOp::Add,
                    Box::new(l),
                    Box::new(Expr::Number(1))
                ))
            ),
        ]
    );
    assert!(assemble_source("t.asm", "WARN \"w\"\nnop", &[])
        .expect_err("fails")
        .0
        .iter()
        .any(|d| d.level == Level::Warning));
}
