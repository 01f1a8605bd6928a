//! Every SM83 instruction form of `sm83-encodings.tsv` (made with RGBDS 1.0.3), assembled by
//! the front end at its address: the bytes must be RGBDS's.

use std::path::PathBuf;

use crate::asm::frontend::assemble_source;

#[test]
fn every_instruction_form_assembles_to_the_rgbds_bytes() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/rgbds-vectors/sm83-encodings.tsv");
    let table = std::fs::read_to_string(path).expect("encodings table");
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [instruction, address, bytes] = fields[..] else {
            panic!("bad line: {line}");
        };
        let expected: Vec<u8> = bytes
            .split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
            .collect();
        let source = format!("SECTION \"t\", ROM0[{address}]\n    {instruction}\n");
        match assemble_source("encodings.asm", &source, &[]) {
            Ok((object, warnings)) => {
                let section = &object.sections[0];
                if section.data != expected || !section.patches.is_empty() || !warnings.is_empty() {
                    mismatches.push(format!(
                        "{instruction}: {:02X?} (patches {:?}, warnings {warnings:?})",
                        section.data, section.patches
                    ));
                }
            }
            Err(errors) => mismatches.push(format!("{instruction}: {errors}")),
        }
        checked += 1;
    }
    assert_eq!(mismatches, Vec::<String>::new());
    assert_eq!(checked, 585);
}
