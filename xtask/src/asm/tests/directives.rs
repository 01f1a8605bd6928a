//! The golden directive vectors made with RGBDS 1.0.3 (`xtask/testdata/rgbds-vectors`):
//! each `NN-name.asm` assembled by the front end, linked, and compared with `NN-name.expected`.

use std::path::PathBuf;

use crate::asm::diagnostic::Level;
use crate::asm::frontend::assemble_source;
use crate::asm::link::{link, Linked};
use crate::asm::object::Object;
use crate::asm::output::sym_file;

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

/// Links the one object as rgblink would: the link errors as (message, line), or the program.
fn link_alone(object: Object) -> Result<Linked, Vec<(String, u32)>> {
    link(&[object]).map_err(|diagnostics| {
        diagnostics
            .errors()
            .map(|d| (d.message.clone(), d.location.as_ref().map_or(0, |l| l.line)))
            .collect()
    })
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
        let path = vectors().join(format!("{name}.asm"));
        let source = std::fs::read_to_string(&path).expect("vector source");
        let result = assemble_source(&path.display().to_string(), &source, &[vectors()]);
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
        let linked = match link_alone(object) {
            Ok(linked) => linked,
            Err(link_errors) => {
                assert!(expected.link_fails, "{name}: link errors {link_errors:?}");
                assert_eq!(link_errors, expected.messages, "{name}: link errors");
                fully_checked += 1;
                continue;
            }
        };
        assert!(!expected.link_fails, "{name} links");
        let sections: Vec<(String, u16, Vec<u8>)> = linked
            .sections
            .iter()
            .map(|s| {
                let start = usize::from(s.address);
                let bytes = linked.rom[start..start + s.size as usize].to_vec();
                (s.name.clone(), s.address, bytes)
            })
            .collect();
        assert_eq!(sections, expected.sections, "{name}: sections");
        let symbols: Vec<String> = sym_file(&linked)
            .lines()
            .skip(1)
            .map(str::to_string)
            .collect();
        assert_eq!(symbols, expected.symbols, "{name}: symbols");
        fully_checked += 1;
    }
    assert_eq!(fully_checked, 20);
}
