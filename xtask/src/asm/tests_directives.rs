//! The golden directive vectors made with RGBDS 1.0.3 (`xtask/testdata/rgbds-vectors`):
//! each `NN-name.asm` assembled by the front end and compared with `NN-name.expected`.

use std::path::PathBuf;

use super::diagnostic::Level;
use super::expr::{eval_binary, eval_unary};
use super::frontend::assemble_file;
use super::object::{Expr, Object};
use super::operand::patch_bytes;

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/rgbds-vectors/directives")
}

#[derive(Debug, Default)]
struct Expected {
    assembly_fails: bool,
    link_fails: bool,
    /// Messages with their line, for failures and warnings.
    messages: Vec<(String, u32)>,
    sections: Vec<(String, u16, Vec<u8>)>,
    warnings: Vec<(String, u32)>,
    symbols: Vec<String>,
}

fn parse_expected(text: &str) -> Expected {
    let mut expected = Expected::default();
    let mut in_warnings = false;
    let mut pending: Option<String> = None;
    for line in text.lines() {
        if line == "ASSEMBLY FAILS" {
            expected.assembly_fails = true;
        } else if line == "LINK FAILS" {
            expected.link_fails = true;
        } else if let Some(rest) = line.strip_prefix("section \"") {
            let (name, rest) = rest.split_once("\" $").expect("section line");
            let (address, bytes) = rest.split_once(':').expect("section address");
            let bytes = bytes
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
                .collect();
            let address = u16::from_str_radix(address, 16).expect("hex address");
            expected.sections.push((name.to_string(), address, bytes));
        } else if line == "warnings:" {
            in_warnings = true;
        } else if line == "symbols:" {
            in_warnings = false;
        } else if let Some(message) = line
            .strip_prefix("warning: ")
            .or_else(|| line.strip_prefix("error: "))
        {
            pending = Some(message.to_string());
        } else if let Some(at) = line.trim_start().strip_prefix("at ") {
            let number = at
                .rsplit_once('(')
                .and_then(|(_, n)| n.strip_suffix(')'))
                .and_then(|n| n.parse().ok())
                .expect("line number");
            let message = pending.take().expect("message before `at`");
            if in_warnings {
                expected.warnings.push((message, number));
            } else {
                expected.messages.push((message, number));
            }
        } else if line.len() > 8 && line.as_bytes()[2] == b':' {
            expected.symbols.push(line.to_string());
        }
    }
    expected
}

/// `.sym`-style lines for the labels of sections at fixed addresses, sorted by address.
fn fixed_symbols(object: &Object) -> Vec<String> {
    let mut symbols: Vec<(u32, usize, String)> = object
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.name.starts_with('!'))
        .filter_map(|(order, symbol)| {
            let (section, offset) = symbol.section?;
            let section = &object.sections[section];
            let address = section.address? as u32 + offset;
            let bank = section
                .bank
                .unwrap_or(if section.kind.name() == "ROMX" { 1 } else { 0 });
            Some((
                address,
                order,
                format!("{bank:02X}:{address:04X} {}", symbol.name),
            ))
        })
        .collect();
    symbols.sort();
    symbols.into_iter().map(|(_, _, line)| line).collect()
}

/// Until the linker is in: places nothing (every vector uses fixed addresses) and resolves
/// what the front end left, with the same range checks, for one object. Returns the link
/// errors as (message, line).
fn resolve_fixed(object: &mut Object) -> Vec<(String, u32)> {
    let mut errors = Vec::new();
    let labels: Vec<(String, i32)> = object
        .symbols
        .iter()
        .filter_map(|s| {
            let (section, offset) = s.section?;
            Some((
                s.name.clone(),
                object.sections[section].address? as i32 + offset as i32,
            ))
        })
        .collect();
    let sections: Vec<(String, i32, i32)> = object
        .sections
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                s.address.map_or(-1, i32::from),
                s.size as i32,
            )
        })
        .collect();
    fn value(
        expr: &Expr,
        labels: &[(String, i32)],
        sections: &[(String, i32, i32)],
    ) -> Result<i32, String> {
        let section = |name: &str| {
            sections
                .iter()
                .find(|s| s.0 == name)
                .ok_or_else(|| format!("Unknown section \"{name}\""))
        };
        Ok(match expr {
            Expr::Number(n) => *n,
            Expr::Symbol(name) => labels
                .iter()
                .find(|l| &l.0 == name)
                .map(|l| l.1)
                .ok_or_else(|| format!("Undefined symbol `{name}`"))?,
            Expr::SectionAddress { section, offset } => sections[*section].1 + *offset as i32,
            Expr::SizeOfSection(name) => section(name)?.2,
            Expr::StartOfSection(name) => section(name)?.1,
            // Every vector section is in ROM0: bank 0.
            Expr::BankOfSection(name) => {
                section(name)?;
                0
            }
            Expr::Unary(op, a) => eval_unary(*op, value(a, labels, sections)?),
            Expr::Binary(op, a, b) => eval_binary(
                *op,
                value(a, labels, sections)?,
                value(b, labels, sections)?,
            )?,
            other => return Err(format!("not resolvable in this test: {other:?}")),
        })
    }
    for section in &mut object.sections {
        let base = section.address.expect("every vector section is fixed") as i32;
        for patch in std::mem::take(&mut section.patches) {
            let result = value(&patch.expr, &labels, &sections)
                .and_then(|v| patch_bytes(patch.kind, v, base + patch.offset as i32));
            match result {
                Ok((bytes, _)) => {
                    let start = patch.offset as usize;
                    section.data[start..start + bytes.len()].copy_from_slice(&bytes);
                }
                Err(message) => errors.push((message, patch.location.line)),
            }
        }
    }
    errors
}

#[test]
fn directive_vectors_match_rgbds() {
    let mut names: Vec<String> = std::fs::read_dir(vectors())
        .expect("vectors folder")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".asm").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 20);
    let mut fully_checked = 0;
    for name in &names {
        let expected_text =
            std::fs::read_to_string(vectors().join(format!("{name}.expected"))).expect("expected");
        let expected = parse_expected(&expected_text);
        let result = assemble_file(&vectors().join(format!("{name}.asm")), &[vectors()]);
        if expected.assembly_fails {
            let errors = result.expect_err(name);
            let found: Vec<(String, u32)> = errors
                .errors()
                .map(|d| (d.message.clone(), d.location.as_ref().map_or(0, |l| l.line)))
                .collect();
            assert_eq!(found, expected.messages, "{name}");
            fully_checked += 1;
            continue;
        }
        let (object, warnings) =
            result.unwrap_or_else(|errors| panic!("{name} does not assemble:\n{errors}"));
        let found_warnings: Vec<(String, u32)> = warnings
            .iter()
            .filter(|d| d.level == Level::Warning)
            .map(|d| (d.message.clone(), d.location.as_ref().map_or(0, |l| l.line)))
            .collect();
        assert_eq!(found_warnings, expected.warnings, "{name}: warnings");
        let mut object = object;
        let link_errors = resolve_fixed(&mut object);
        if expected.link_fails {
            assert_eq!(link_errors, expected.messages, "{name}: link errors");
            fully_checked += 1;
            continue;
        }
        assert_eq!(link_errors, [], "{name}: link errors");
        let sections: Vec<(String, u16, Vec<u8>)> = object
            .sections
            .iter()
            .map(|s| (s.name.clone(), s.address.expect("fixed"), s.data.clone()))
            .collect();
        assert_eq!(sections, expected.sections, "{name}: sections");
        assert_eq!(fixed_symbols(&object), expected.symbols, "{name}: symbols");
        assert!(
            object.assertions.is_empty(),
            "{name}: {:?}",
            object.assertions
        );
        fully_checked += 1;
    }
    assert_eq!(fully_checked, 20);
}
