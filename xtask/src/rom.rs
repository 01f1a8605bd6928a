//! `cargo xtask rom`: assemble, link and fix `asm/` into build/chessattack.gb, with the
//! `.sym` and `.map` files beside it.
//!
//! Every `asm/**/*.asm` file but the test driver's (`asm/test/**`) is one unit, assembled
//! on its own as `rgbasm -o` would (`.inc` files are only INCLUDEd), with the repository
//! root and `asm/` as include directories; the units are linked in the order of their
//! paths. `--rgbds` builds the same units with rgbasm, rgblink and rgbfix from PATH into
//! build/rgbds/ and checks that both ROMs (and `.sym` files) are the same, byte for byte.
//!
//! `--test-driver` builds build/test.gb instead: the cartridge header
//! (asm/home/header.asm), the engine (asm/engine/**) and the test driver (asm/test/**),
//! which answers queries through a WRAM mailbox (see asm/test/driver.asm).

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use xshell::{cmd, Shell};

use crate::asm::diagnostic::{Diagnostic, Level};
use crate::asm::fix::{fix, TITLE};
use crate::asm::frontend::assemble_source;
use crate::asm::link::{link, Linked, PAD_BYTE, ROM_SIZE};
use crate::asm::object::SectionKind;
use crate::asm::output::{map_file, sym_file};
use crate::cli::RomArgs;
use crate::project;

/// The cartridge, relative to the repository root.
pub const ROM_PATH: &str = "build/chessattack.gb";

/// The engine's test ROM (`--test-driver`), relative to the repository root.
pub const TEST_ROM_PATH: &str = "build/test.gb";

/// Where `--rgbds` puts its objects and its ROM.
const RGBDS_DIR: &str = "build/rgbds";

/// A built ROM and what the linker knows about it.
pub struct Build {
    /// The fixed 32 KB image.
    pub rom: Vec<u8>,
    pub sym: String,
    pub map: String,
    pub linked: Linked,
    /// Every warning of the assembler, the linker and the header fixer.
    pub warnings: Vec<Diagnostic>,
}

/// A failed build: what was being built, and every error and warning, as the user reads
/// them (file:line:column, the line, a caret).
#[derive(Debug)]
pub struct BuildFailed {
    pub what: String,
    pub errors: usize,
    pub report: String,
}

impl BuildFailed {
    fn new(what: &str, diagnostics: &[Diagnostic]) -> Self {
        BuildFailed {
            what: what.to_string(),
            errors: diagnostics
                .iter()
                .filter(|d| d.level == Level::Error)
                .count(),
            report: diagnostics
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl fmt::Display for BuildFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.errors == 1 { "" } else { "s" };
        write!(f, "{} not built: {} error{plural}", self.what, self.errors)?;
        if !self.report.is_empty() {
            write!(f, "\n{}", self.report)?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildFailed {}

pub fn run(args: &RomArgs) -> Result<()> {
    let root = project::root();
    if args.rgbds {
        require_rgbds()?;
    }
    let (units, path) = if args.test_driver {
        (test_driver_units(&root)?, TEST_ROM_PATH)
    } else {
        (engine_units(&root)?, ROM_PATH)
    };
    let output = root.join(path);
    let build = build(&units, &output)?;
    for warning in &build.warnings {
        eprintln!("{warning}");
    }
    println!("{}", summary(path, &build));
    if args.rgbds {
        check_with_rgbds(&root, &units, &build, path)?;
    }
    Ok(())
}

/// Every `asm/**/*.asm` file of the repository but the test driver's (`asm/test/**`),
/// sorted by path: the units of the cartridge.
pub fn engine_units(root: &Path) -> Result<Vec<PathBuf>> {
    let asm = root.join("asm");
    let mut units = Vec::new();
    collect_units(&asm, &mut units)?;
    units.retain(|unit| !unit.starts_with(asm.join("test")));
    units.sort();
    if units.is_empty() {
        bail!("no assembly source (asm/**/*.asm) in {}", root.display());
    }
    Ok(units)
}

/// The units of the engine's test ROM, sorted by path: asm/home/header.asm, every
/// `asm/engine/**/*.asm` and every `asm/test/**/*.asm`.
pub fn test_driver_units(root: &Path) -> Result<Vec<PathBuf>> {
    let asm = root.join("asm");
    let mut units = vec![asm.join("home").join("header.asm")];
    for dir in ["engine", "test"] {
        let dir = asm.join(dir);
        if !dir.is_dir() {
            bail!("the test ROM needs {}: it does not exist", dir.display());
        }
        collect_units(&dir, &mut units)?;
    }
    units.sort();
    Ok(units)
}

fn collect_units(dir: &Path, units: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("reading {}", dir.display()))?
            .path();
        if path.is_dir() {
            collect_units(&path, units)?;
        } else if path.extension().is_some_and(|e| e == "asm") {
            units.push(path);
        }
    }
    Ok(())
}

/// The include directories every unit is assembled with (as `rgbasm -I`).
pub fn include_dirs(root: &Path) -> Vec<PathBuf> {
    vec![root.to_path_buf(), root.join("asm")]
}

/// A path as messages show it: relative to the repository root when it is inside.
fn display_path(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Assembles each unit, links them in this order and fixes the header, without writing
/// anything. On failure, every error of every unit (or of the link).
pub fn assemble_and_link(units: &[PathBuf], what: &str) -> Result<Build> {
    let root = project::root();
    let include_dirs = include_dirs(&root);
    let mut objects = Vec::new();
    let mut diagnostics = Vec::new();
    let mut failed = false;
    for unit in units {
        let name = display_path(&root, unit);
        let text = std::fs::read_to_string(unit).with_context(|| format!("reading {name}"))?;
        match assemble_source(&name, &text, &include_dirs) {
            Ok((object, warnings)) => {
                objects.push(object);
                diagnostics.extend(warnings);
            }
            Err(errors) => {
                failed = true;
                diagnostics.extend(errors.0);
            }
        }
    }
    if failed {
        return Err(BuildFailed::new(what, &diagnostics).into());
    }
    let mut linked = match link(&objects) {
        Ok(linked) => linked,
        Err(errors) => {
            diagnostics.extend(errors.0);
            return Err(BuildFailed::new(what, &diagnostics).into());
        }
    };
    diagnostics.append(&mut linked.warnings);
    let mut rom = linked.rom.clone();
    let fixer_warnings = match fix(&mut rom, TITLE) {
        Ok(warnings) => warnings,
        Err(message) => {
            diagnostics.push(Diagnostic::error(None, message));
            return Err(BuildFailed::new(what, &diagnostics).into());
        }
    };
    diagnostics.extend(
        fixer_warnings
            .into_iter()
            .map(|message| Diagnostic::warning(None, message)),
    );
    Ok(Build {
        sym: sym_file(&linked),
        map: map_file(&linked),
        rom,
        linked,
        warnings: diagnostics,
    })
}

/// The cartridge as `cargo xtask rom` builds it, assembled and linked in memory (nothing
/// written): what `usage`, `bench`, `shot` and the tests look at.
pub fn cartridge() -> Result<Build> {
    assemble_and_link(&engine_units(&project::root())?, ROM_PATH)
}

/// Builds `units` into the ROM `output`, with the `.sym` and `.map` files beside it (each
/// written whole or not at all).
pub fn build(units: &[PathBuf], output: &Path) -> Result<Build> {
    let root = project::root();
    let what = display_path(&root, output);
    let build = assemble_and_link(units, &what)?;
    project::write_atomic(output, &build.rom)?;
    project::write_atomic(&output.with_extension("sym"), build.sym.as_bytes())?;
    project::write_atomic(&output.with_extension("map"), build.map.as_bytes())?;
    Ok(build)
}

/// `build/chessattack.gb: 32768 bytes; ROM0 ... used`: one line for the terminal.
pub fn summary(path: &str, build: &Build) -> String {
    let used = |kind: SectionKind| -> u32 {
        build
            .linked
            .sections
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.size)
            .sum()
    };
    let rom_used = used(SectionKind::Rom0) + used(SectionKind::Romx);
    let ram_used = used(SectionKind::Wram0) + used(SectionKind::Wramx);
    format!(
        "{path}: {} bytes; ROM {rom_used} of {ROM_SIZE} bytes used ({:.1}%), WRAM {ram_used} of 8192, HRAM {} of 127",
        build.rom.len(),
        f64::from(rom_used) * 100.0 / ROM_SIZE as f64,
        used(SectionKind::Hram)
    )
}

/// A program on PATH, like `which`.
fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Fails unless rgbasm, rgblink and rgbfix are on PATH.
fn require_rgbds() -> Result<()> {
    let missing: Vec<&str> = ["rgbasm", "rgblink", "rgbfix"]
        .into_iter()
        .filter(|program| find_on_path(program).is_none())
        .collect();
    if !missing.is_empty() {
        bail!(
            "`--rgbds` needs rgbasm, rgblink and rgbfix (RGBDS 1.0) on PATH; not found: {}",
            missing.join(", ")
        );
    }
    Ok(())
}

/// Builds the same units with the real RGBDS and compares the ROMs and `.sym` files.
fn check_with_rgbds(root: &Path, units: &[PathBuf], build: &Build, ours: &str) -> Result<()> {
    let sh = Shell::new()?;
    sh.change_dir(root);
    let pad = format!("0x{PAD_BYTE:02X}");
    let mut objects = Vec::new();
    for unit in units {
        let source = display_path(root, unit);
        let inside_asm = unit.strip_prefix(root.join("asm")).unwrap_or(unit);
        let object = Path::new(RGBDS_DIR).join(inside_asm).with_extension("o");
        if let Some(dir) = object.parent() {
            sh.create_dir(dir)?;
        }
        cmd!(sh, "rgbasm -I . -I asm -o {object} {source}").run()?;
        objects.push(object);
    }
    let file_name = Path::new(ours).file_name().unwrap_or_default();
    let rom = Path::new(RGBDS_DIR).join(file_name);
    let sym = rom.with_extension("sym");
    let map = rom.with_extension("map");
    cmd!(
        sh,
        "rgblink -p {pad} -m {map} -n {sym} -o {rom} {objects...}"
    )
    .run()?;
    cmd!(sh, "rgbfix -v -t {TITLE} -m ROM -r 0 -p {pad} {rom}").run()?;

    let theirs =
        std::fs::read(root.join(&rom)).with_context(|| format!("reading {}", rom.display()))?;
    if let Some(difference) = first_difference(&build.rom, &theirs, &build.linked) {
        bail!("{ours} and {} differ: {difference}", rom.display());
    }
    let their_sym = std::fs::read_to_string(root.join(&sym))
        .with_context(|| format!("reading {}", sym.display()))?;
    if let Some((line, ours, theirs)) = first_line_difference(&build.sym, &their_sym) {
        bail!(
            "{} and {} differ at line {line}: `{ours}` here, `{theirs}` from rgblink",
            Path::new(ours).with_extension("sym").display(),
            sym.display()
        );
    }
    println!(
        "{} is identical to {ours} ({} bytes), and so are their .sym files",
        rom.display(),
        theirs.len()
    );
    Ok(())
}

/// Where two ROM images first differ, with the label at or before that address.
fn first_difference(ours: &[u8], theirs: &[u8], linked: &Linked) -> Option<String> {
    let Some(address) = ours.iter().zip(theirs).position(|(a, b)| a != b) else {
        return (ours.len() != theirs.len()).then(|| {
            format!(
                "the in-tree ROM is {} bytes, the RGBDS one {} bytes",
                ours.len(),
                theirs.len()
            )
        });
    };
    let count = ours.iter().zip(theirs).filter(|(a, b)| a != b).count();
    let nearest = nearest_label(linked, address)
        .map(|label| format!(" ({label})"))
        .unwrap_or_default();
    Some(format!(
        "first at ${address:04X}{nearest}: ${:02X} in-tree, ${:02X} from RGBDS; {count} byte{} differ",
        ours[address],
        theirs[address],
        if count == 1 { "" } else { "s" }
    ))
}

/// `Label` or `Label+$3`: the closest label at or below a ROM address.
pub fn nearest_label(linked: &Linked, address: usize) -> Option<String> {
    let rom_kind = if address < 0x4000 {
        SectionKind::Rom0
    } else {
        SectionKind::Romx
    };
    linked
        .labels
        .iter()
        .filter(|label| {
            linked.sections[label.section].kind == rom_kind && usize::from(label.address) <= address
        })
        .max_by_key(|label| (label.address, !label.name.contains('.')))
        .map(|label| match address - usize::from(label.address) {
            0 => label.name.clone(),
            offset => format!("{}+${offset:X}", label.name),
        })
}

fn first_line_difference<'a>(ours: &'a str, theirs: &'a str) -> Option<(usize, &'a str, &'a str)> {
    let mut ours_lines = ours.lines();
    let mut theirs_lines = theirs.lines();
    for line in 1.. {
        match (ours_lines.next(), theirs_lines.next()) {
            (None, None) => return None,
            (a, b) if a == b => continue,
            (a, b) => return Some((line, a.unwrap_or("(end)"), b.unwrap_or("(end)"))),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::link::build::{sym, ObjectBuilder};
    use crate::asm::object::PatchKind;

    fn linked() -> Linked {
        let object = ObjectBuilder::new("main.asm")
            .section("Code", SectionKind::Rom0)
            .at(0x150)
            .label("Main", true)
            .space(4, 0)
            .label("Main.loop", false)
            .patched(&[0x18, 0], 1, PatchKind::Relative, sym("Main.loop"))
            .section("Far", SectionKind::Romx)
            .label("FarAway", true)
            .space(2, 0)
            .build();
        link(&[object]).unwrap()
    }

    #[test]
    fn the_cartridge_builds_with_a_valid_header() {
        let units = engine_units(&project::root()).unwrap();
        let build = assemble_and_link(&units, ROM_PATH).unwrap_or_else(|e| panic!("{e}"));
        let rom = &build.rom;
        assert_eq!(rom.len(), 32_768);
        assert_eq!(&rom[0x104..0x134], crate::asm::fix::NINTENDO_LOGO);
        assert_eq!(&rom[0x134..0x144], b"CHESSATTACK\0\0\0\0\0");
        assert_eq!(
            &rom[0x147..0x14A],
            [0x00, 0x00, 0x00],
            "ROM only, 32 KB, no RAM"
        );
        let header: u32 = rom[0x134..=0x14D].iter().map(|&b| u32::from(b)).sum();
        assert_eq!((header + 25) % 256, 0, "header checksum");
        let global: u32 = rom.iter().map(|&b| u32::from(b)).sum::<u32>()
            - u32::from(rom[0x14E])
            - u32::from(rom[0x14F]);
        assert_eq!(u16::from_be_bytes([rom[0x14E], rom[0x14F]]), global as u16);
        assert!(build.sym.starts_with("; File generated by rgblink\n"));
        assert!(build.map.starts_with("SUMMARY:\n\tROM0: "));
    }

    #[test]
    fn a_difference_names_its_address_and_the_nearest_label() {
        let linked = linked();
        let ours = linked.rom.clone();
        let mut theirs = ours.clone();
        theirs[0x155] = 0x12;
        theirs[0x4001] = 0x34;
        assert_eq!(
            first_difference(&ours, &theirs, &linked).unwrap(),
            "first at $0155 (Main.loop+$1): $FE in-tree, $12 from RGBDS; 2 bytes differ"
        );
        assert_eq!(nearest_label(&linked, 0x4001).unwrap(), "FarAway+$1");
        assert_eq!(nearest_label(&linked, 0x150).unwrap(), "Main");
        assert_eq!(nearest_label(&linked, 0x100), None);
        assert_eq!(first_difference(&ours, &ours, &linked), None);
        assert_eq!(
            first_difference(&ours, &ours[..0x4000], &linked).unwrap(),
            "the in-tree ROM is 32768 bytes, the RGBDS one 16384 bytes"
        );
    }

    #[test]
    fn sym_files_are_compared_line_by_line() {
        assert_eq!(first_line_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_line_difference("a\nb\n", "a\nc\n"),
            Some((2, "b", "c"))
        );
        assert_eq!(
            first_line_difference("a\n", "a\nc\n"),
            Some((2, "(end)", "c"))
        );
    }

    #[test]
    fn a_failed_build_lists_every_error() {
        let failed = BuildFailed::new(
            "build/chessattack.gb",
            &[
                Diagnostic::warning(None, "odd"),
                Diagnostic::error(None, "first"),
                Diagnostic::error(None, "second"),
            ],
        );
        assert_eq!(
            failed.to_string(),
            "build/chessattack.gb not built: 2 errors\nwarning: odd\nerror: first\nerror: second"
        );
    }
}
