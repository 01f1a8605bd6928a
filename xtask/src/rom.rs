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
//! which answers queries through a WRAM mailbox (see asm/test/driver.asm). Every unit of
//! it is assembled with `TEST_DRIVER` and `ENGINE_STACK_CHECKS` defined (as `rgbasm -D
//! TEST_DRIVER -D ENGINE_STACK_CHECKS` would); the second turns on the engine's stack
//! checks (its stacks overflowing, see asm/engine/engine.inc), which the cartridge does
//! not have. [`test_driver_rom`] builds the test ROM in memory with or without them:
//! `bench` measures it without, the engine as the cartridge runs it.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use xshell::{cmd, Shell};

use crate::asm::diagnostic::{Diagnostic, Level};
use crate::asm::fix::{fix, TITLE};
use crate::asm::frontend::assemble_source_with_defines;
use crate::asm::link::{link, region_name, region_size, Linked, PAD_BYTE};
use crate::asm::object::{Object, SectionKind};
use crate::asm::output::{map_file, section_sizes, sym_file};
use crate::assets;
use crate::cli::RomArgs;
use crate::project::{self, plural};
use crate::usage;

/// The cartridge, relative to the repository root.
pub const ROM_PATH: &str = "build/chessattack.gb";

/// The engine's test ROM (`--test-driver`), relative to the repository root.
pub const TEST_ROM_PATH: &str = "build/test.gb";

/// The string constants every unit of the test ROM build/test.gb is assembled with
/// (`rgbasm -D`): the test driver, and the engine's stack checks.
pub const TEST_DRIVER_DEFINES: &[&str] = &["TEST_DRIVER", "ENGINE_STACK_CHECKS"];

/// The same without the engine's stack checks.
const TEST_DRIVER_DEFINES_WITHOUT_STACK_CHECKS: &[&str] = &["TEST_DRIVER"];

/// What build messages call the test ROM without its stack checks (it is only built in
/// memory).
pub const UNCHECKED_TEST_ROM: &str = "the test ROM without its stack checks";

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
        write!(
            f,
            "{} not built: {}",
            self.what,
            plural(self.errors, "error")
        )?;
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
    let (units, defines, path) = if args.test_driver {
        (
            test_driver_units(&root)?,
            TEST_DRIVER_DEFINES,
            TEST_ROM_PATH,
        )
    } else {
        // The cartridge INCLUDEs generated/: built from a stale one it would show the old
        // art (or fail with a "File not found" per include) without saying why.
        assets::require_up_to_date(&root)?;
        (engine_units(&root)?, &[][..], ROM_PATH)
    };
    let output = root.join(path);
    let build = build(&units, defines, &output)?;
    for warning in &build.warnings {
        eprintln!("{warning}");
    }
    println!("{}", summary(path, &build));
    if args.rgbds {
        check_with_rgbds(&root, &units, defines, &build, path)?;
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

/// Assembles each unit (with the string constants `defines`, as `rgbasm -D` does), links
/// them in this order and fixes the header, without writing anything. On failure, every
/// error of every unit (or of the link).
pub fn assemble_and_link(units: &[PathBuf], defines: &[&str], what: &str) -> Result<Build> {
    let root = project::root();
    let include_dirs = include_dirs(&root);
    let mut objects = Vec::new();
    let mut diagnostics = Vec::new();
    let mut failed = false;
    for unit in units {
        let name = display_path(&root, unit);
        let text = std::fs::read_to_string(unit).with_context(|| format!("reading {name}"))?;
        match assemble_source_with_defines(&name, &text, &include_dirs, defines) {
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
            let previous_map = root.join(what).with_extension("map");
            if let Ok(map) = std::fs::read_to_string(&previous_map) {
                let shown = display_path(&root, &previous_map);
                diagnostics.extend(growth_note(&objects, &section_sizes(&map), &shown));
            }
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

/// How many grown sections [`growth_note`] names.
const GROWN_SECTIONS: usize = 3;

/// When a region is full: the sections of the full regions that grew (or are new) since
/// the build that wrote `previous` (the `.map` file `map_shown`), most grown first. The
/// linker can only list the largest sections; this names the ones that changed.
fn growth_note(
    objects: &[Object],
    previous: &HashMap<String, u32>,
    map_shown: &str,
) -> Option<Diagnostic> {
    let sections = || objects.iter().flat_map(|object| &object.sections);
    let over = |kind: SectionKind| {
        sections()
            .filter(|section| section.kind == kind)
            .map(|section| section.size)
            .sum::<u32>()
            > region_size(kind)
    };
    let mut grown: Vec<(u32, String)> = sections()
        .filter(|section| over(section.kind))
        .filter_map(|section| match previous.get(&section.name) {
            Some(&before) if section.size > before => Some((
                section.size - before,
                format!(
                    "\"{}\" grew by {} ({before} to {})",
                    section.name,
                    plural(section.size - before, "byte"),
                    section.size
                ),
            )),
            None if section.size > 0 => Some((
                section.size,
                format!(
                    "\"{}\" is new ({})",
                    section.name,
                    plural(section.size, "byte")
                ),
            )),
            _ => None,
        })
        .collect();
    if grown.is_empty() {
        return None;
    }
    grown.sort_by_key(|(growth, _)| std::cmp::Reverse(*growth));
    let named: Vec<String> = grown
        .iter()
        .take(GROWN_SECTIONS)
        .map(|(_, text)| text.clone())
        .collect();
    Some(Diagnostic::note(format!(
        "since the last build ({map_shown}): {}",
        named.join(", ")
    )))
}

/// The cartridge as `cargo xtask rom` builds it, assembled and linked in memory (nothing
/// written): what `usage`, `bench`, `shot` and the tests look at.
///
/// It does not check `generated/` first, as `cargo xtask rom` does; but a build that fails
/// for want of `generated/` files says that once instead of a "File not found" per include.
pub fn cartridge() -> Result<Build> {
    let root = project::root();
    assemble_and_link(&engine_units(&root)?, &[], ROM_PATH).map_err(|error| {
        match assets::check_generated(&root) {
            Ok(Some(problem @ assets::GeneratedProblem::Missing(_))) => {
                anyhow::anyhow!("{}", problem.message())
            }
            _ => error,
        }
    })
}

/// The engine's test ROM (as `cargo xtask rom --test-driver` builds it, with
/// `stack_checks`), or without the engine's stack checks: the engine as the cartridge
/// runs it, with the test driver. Built in memory, nothing written.
pub fn test_driver_rom(stack_checks: bool) -> Result<Build> {
    let units = test_driver_units(&project::root())?;
    if stack_checks {
        assemble_and_link(&units, TEST_DRIVER_DEFINES, TEST_ROM_PATH)
    } else {
        assemble_and_link(
            &units,
            TEST_DRIVER_DEFINES_WITHOUT_STACK_CHECKS,
            UNCHECKED_TEST_ROM,
        )
    }
}

/// Builds `units` (with the string constants `defines`) into the ROM `output`, with the
/// `.sym` and `.map` files beside it (each written whole or not at all).
pub fn build(units: &[PathBuf], defines: &[&str], output: &Path) -> Result<Build> {
    let root = project::root();
    let what = display_path(&root, output);
    let build = assemble_and_link(units, defines, &what)?;
    project::write_atomic(output, &build.rom)?;
    project::write_atomic(&output.with_extension("sym"), build.sym.as_bytes())?;
    project::write_atomic(&output.with_extension("map"), build.map.as_bytes())?;
    Ok(build)
}

/// One line for the terminal: the file, its size, and every region that holds anything,
/// with the names and figures of `cargo xtask usage`, e.g. `build/chessattack.gb: 32768
/// bytes; ROM0 9333 of 16384 bytes used (57.0%), ROMX bank 1 11470 of 16384 (70.0%), ...`.
pub fn summary(path: &str, build: &Build) -> String {
    let regions: Vec<String> = usage::region_usage(&build.linked)
        .iter()
        .filter(|region| region.used > 0)
        .enumerate()
        .map(|(i, region)| {
            format!(
                "{} {} of {}{} ({:.1}%)",
                region_name(region.kind),
                region.used,
                region.size,
                if i == 0 { " bytes used" } else { "" },
                region.percent()
            )
        })
        .collect();
    format!(
        "{path}: {}; {}",
        plural(build.rom.len(), "byte"),
        if regions.is_empty() {
            "no sections".to_owned()
        } else {
            regions.join(", ")
        }
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
fn check_with_rgbds(
    root: &Path,
    units: &[PathBuf],
    defines: &[&str],
    build: &Build,
    ours: &str,
) -> Result<()> {
    let sh = Shell::new()?;
    sh.change_dir(root);
    let pad = format!("0x{PAD_BYTE:02X}");
    let define_flags: Vec<String> = defines.iter().map(|name| format!("-D{name}")).collect();
    let mut objects = Vec::new();
    for unit in units {
        let source = display_path(root, unit);
        let inside_asm = unit.strip_prefix(root.join("asm")).unwrap_or(unit);
        let object = Path::new(RGBDS_DIR).join(inside_asm).with_extension("o");
        if let Some(dir) = object.parent() {
            sh.create_dir(dir)?;
        }
        let defines = &define_flags;
        cmd!(sh, "rgbasm -I . -I asm {defines...} -o {object} {source}").run()?;
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
    cmd!(
        sh,
        "rgbfix -v -c -s -l 0x33 -k 00 -t {TITLE} -m ROM -r 0 -p {pad} {rom}"
    )
    .run()?;

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
                "the in-tree ROM is {}, the RGBDS one {}",
                plural(ours.len(), "byte"),
                plural(theirs.len(), "byte")
            )
        });
    };
    let count = ours.iter().zip(theirs).filter(|(a, b)| a != b).count();
    let nearest = nearest_label(linked, address)
        .map(|label| format!(" ({label})"))
        .unwrap_or_default();
    Some(format!(
        "first at ${address:04X}{nearest}: ${:02X} in-tree, ${:02X} from RGBDS; {} in all",
        ours[address],
        theirs[address],
        plural(count, "differing byte")
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
        let build = assemble_and_link(&units, &[], ROM_PATH).unwrap_or_else(|e| panic!("{e}"));
        let rom = &build.rom;
        assert_eq!(rom.len(), 32_768);
        assert_eq!(&rom[0x104..0x134], crate::asm::fix::NINTENDO_LOGO);
        assert_eq!(&rom[0x134..0x143], b"CHESSATTACK\0\0\0\0");
        assert_eq!(rom[0x143], 0x80, "works on a DMG and a CGB");
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
    fn the_summary_names_every_region_in_use_with_its_size() {
        let object = ObjectBuilder::new("main.asm")
            .section("Code", SectionKind::Rom0)
            .space(0x1000, 0)
            .section("Tables", SectionKind::Romx)
            .space(1, 0)
            .section("Board", SectionKind::Wram0)
            .space(30, 0)
            .section("Flag", SectionKind::Hram)
            .space(1, 0)
            .build();
        let build = Build {
            rom: vec![0; 0x8000],
            sym: String::new(),
            map: String::new(),
            linked: link(&[object]).unwrap(),
            warnings: Vec::new(),
        };
        assert_eq!(
            summary("build/small.gb", &build),
            "build/small.gb: 32768 bytes; ROM0 4096 of 16384 bytes used (25.0%), ROMX bank 1 1 \
             of 16384 (0.0%), WRAM0 30 of 4096 (0.7%), HRAM 1 of 127 (0.8%)"
        );
    }

    /// What `cargo xtask rom` prints and what `cargo xtask usage` prints are the same
    /// figures: the used and total bytes of each region that holds anything.
    #[test]
    fn the_summary_of_the_cartridge_agrees_with_usage() {
        let build = cartridge().unwrap_or_else(|e| panic!("{e}"));
        let summary = summary(ROM_PATH, &build);
        let report = usage::report(&build.linked);
        let mut regions = Vec::new();
        for line in report.lines().skip(1).take_while(|line| !line.is_empty()) {
            let columns: Vec<&str> = line.split_whitespace().collect();
            let [name @ .., used, _free, size, percent] = columns.as_slice() else {
                panic!("usage line {line:?}");
            };
            if *used != "0" {
                let shown = format!("{} {used} of {size}", name.join(" "));
                let at = summary
                    .find(&shown)
                    .unwrap_or_else(|| panic!("{shown} in {summary}"));
                assert!(summary[at..].contains(&format!("({percent})")), "{summary}");
                regions.push(name[0]);
            }
        }
        assert_eq!(regions, ["ROM0", "ROMX", "VRAM", "WRAM0", "WRAMX", "HRAM"]);
        assert_eq!(summary.matches(" of ").count(), regions.len());
        assert!(summary.starts_with("build/chessattack.gb: 32768 bytes; ROM0 "));
    }

    #[test]
    fn a_full_bank_names_the_sections_that_grew_since_the_last_build() {
        let objects = [ObjectBuilder::new("asm/main.asm")
            .section("Tables", SectionKind::Rom0)
            .space(0x3000, 0)
            .section("Main", SectionKind::Rom0)
            .space(0xF00, 0)
            .section("Memcpy", SectionKind::Rom0)
            .space(14, 0)
            .section("Shrunk", SectionKind::Rom0)
            .space(0x100, 0)
            .section("Debug", SectionKind::Rom0)
            .space(1, 0)
            .section("Big RAM", SectionKind::Wram0)
            .space(0x800, 0)
            .build()];
        let previous: HashMap<String, u32> = [
            ("Tables", 0x3000),
            ("Main", 0x100),
            ("Memcpy", 14),
            ("Shrunk", 0x200),
            ("Big RAM", 0x10),
        ]
        .into_iter()
        .map(|(name, size)| (name.to_owned(), size))
        .collect();
        let note = growth_note(&objects, &previous, "build/chessattack.map").unwrap();
        assert_eq!(
            note.to_string(),
            "note: since the last build (build/chessattack.map): \"Main\" grew by 3584 bytes \
             (256 to 3840), \"Debug\" is new (1 byte)"
        );

        // Nothing is over its size: nothing to say.
        let fits = [ObjectBuilder::new("asm/main.asm")
            .section("Main", SectionKind::Rom0)
            .space(0x200, 0)
            .build()];
        assert!(growth_note(&fits, &previous, "build/chessattack.map").is_none());
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
            "first at $0155 (Main.loop+$1): $FE in-tree, $12 from RGBDS; 2 differing bytes in all"
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
