//! `cargo xtask usage`: how full each ROM bank and RAM area of the cartridge is, the RAM
//! map, and the largest sections. Builds `asm/` in memory (writes nothing).

use std::fmt::Write;

use anyhow::Result;

use crate::asm::link::{region_name, Linked, PlacedSection};
use crate::asm::object::SectionKind;
use crate::project::noun;
use crate::rom;

/// The regions reported, in address order.
const REGIONS: [SectionKind; 7] = [
    SectionKind::Rom0,
    SectionKind::Romx,
    SectionKind::Vram,
    SectionKind::Wram0,
    SectionKind::Wramx,
    SectionKind::Oam,
    SectionKind::Hram,
];

/// How many of the largest sections to list.
const LARGEST: usize = 10;

/// The space used in one region (one bank of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionUsage {
    pub kind: SectionKind,
    pub used: u32,
    pub size: u32,
}

impl RegionUsage {
    pub fn free(&self) -> u32 {
        self.size - self.used
    }

    pub fn percent(&self) -> f64 {
        f64::from(self.used) * 100.0 / f64::from(self.size)
    }
}

pub fn run() -> Result<()> {
    let build = rom::cartridge()?;
    print!("{}", report(&build.linked));
    Ok(())
}

/// Used and free bytes of every region of the cartridge.
pub fn region_usage(linked: &Linked) -> Vec<RegionUsage> {
    REGIONS
        .iter()
        .map(|&kind| {
            let (start, end) = kind.range();
            RegionUsage {
                kind,
                used: linked
                    .sections
                    .iter()
                    .filter(|s| s.kind == kind)
                    .map(|s| s.size)
                    .sum(),
                size: end - u32::from(start),
            }
        })
        .collect()
}

/// The whole report: the table of regions, the RAM map, the largest sections.
pub fn report(linked: &Linked) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<13} {:>7} {:>7} {:>7} {:>6}",
        "region", "used", "free", "size", "used"
    );
    for usage in region_usage(linked) {
        let _ = writeln!(
            out,
            "{:<13} {:>7} {:>7} {:>7} {:>5.1}%",
            region_name(usage.kind),
            usage.used,
            usage.free(),
            usage.size,
            usage.percent()
        );
    }

    out.push_str("\nRAM map:\n");
    let mut ram: Vec<&PlacedSection> = linked
        .sections
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                SectionKind::Wram0 | SectionKind::Wramx | SectionKind::Hram
            ) && s.size > 0
        })
        .collect();
    ram.sort_by_key(|s| s.address);
    if ram.is_empty() {
        out.push_str("  (no RAM sections)\n");
    }
    for section in ram {
        let _ = writeln!(out, "  {}  {}", span(section), describe(section));
    }

    let _ = writeln!(out, "\nlargest sections:");
    let mut largest: Vec<&PlacedSection> = linked.sections.iter().filter(|s| s.size > 0).collect();
    largest.sort_by(|a, b| b.size.cmp(&a.size).then(a.address.cmp(&b.address)));
    for section in largest.into_iter().take(LARGEST) {
        let _ = writeln!(
            out,
            "  {:<12} {}  {}",
            region_name(section.kind),
            span(section),
            describe(section)
        );
    }
    out
}

/// `$C000-$C09F    160 bytes`, `$C3B0-$C3B0      1 byte `.
fn span(section: &PlacedSection) -> String {
    let end = u32::from(section.address) + section.size - 1;
    format!(
        "${:04X}-${end:04X} {:>6} {:<5}",
        section.address,
        section.size,
        noun(section.size, "byte")
    )
}

/// `"Shadow OAM" (asm/home/oam_dma.asm)`.
fn describe(section: &PlacedSection) -> String {
    format!("\"{}\" ({})", section.name, section.location.file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::link::build::ObjectBuilder;
    use crate::asm::link::link;

    #[test]
    fn the_report_shows_each_region_the_ram_map_and_the_largest_sections() {
        let object = ObjectBuilder::new("asm/main.asm")
            .section("Header", SectionKind::Rom0)
            .at(0x100)
            .space(0x50, 0)
            .section("Code", SectionKind::Rom0)
            .space(0x1000, 0)
            .section("Tables", SectionKind::Romx)
            .space(0x200, 0)
            .section("Board", SectionKind::Wram0)
            .space(30, 0)
            .section("Stack", SectionKind::Wram0)
            .at(0xCF00)
            .space(0x100, 0)
            .section("History", SectionKind::Wramx)
            .space(0x400, 0)
            .section("Shadow registers", SectionKind::Hram)
            .space(4, 0)
            .build();
        let linked = link(&[object]).unwrap();
        assert_eq!(
            region_usage(&linked)[0],
            RegionUsage {
                kind: SectionKind::Rom0,
                used: 0x1050,
                size: 0x4000
            }
        );
        assert_eq!(
            report(&linked),
            "\
region           used    free    size   used
ROM0             4176   12208   16384  25.5%
ROMX bank 1       512   15872   16384   3.1%
VRAM                0    8192    8192   0.0%
WRAM0             286    3810    4096   7.0%
WRAMX bank 1     1024    3072    4096  25.0%
OAM                 0     160     160   0.0%
HRAM                4     123     127   3.1%

RAM map:
  $C000-$C01D     30 bytes  \"Board\" (asm/main.asm)
  $CF00-$CFFF    256 bytes  \"Stack\" (asm/main.asm)
  $D000-$D3FF   1024 bytes  \"History\" (asm/main.asm)
  $FF80-$FF83      4 bytes  \"Shadow registers\" (asm/main.asm)

largest sections:
  ROM0         $0150-$114F   4096 bytes  \"Code\" (asm/main.asm)
  WRAMX bank 1 $D000-$D3FF   1024 bytes  \"History\" (asm/main.asm)
  ROMX bank 1  $4000-$41FF    512 bytes  \"Tables\" (asm/main.asm)
  WRAM0        $CF00-$CFFF    256 bytes  \"Stack\" (asm/main.asm)
  ROM0         $0100-$014F     80 bytes  \"Header\" (asm/main.asm)
  WRAM0        $C000-$C01D     30 bytes  \"Board\" (asm/main.asm)
  HRAM         $FF80-$FF83      4 bytes  \"Shadow registers\" (asm/main.asm)
"
        );
    }

    #[test]
    fn a_one_byte_section_is_one_byte() {
        let object = ObjectBuilder::new("asm/ui/title.asm")
            .section("Title screen state", SectionKind::Wram0)
            .space(1, 0)
            .build();
        let report = report(&link(&[object]).unwrap());
        assert!(
            report.contains(
                "\n  $C000-$C000      1 byte   \"Title screen state\" (asm/ui/title.asm)\n"
            ),
            "{report}"
        );
    }
}
