//! The linker: places the sections of every object, resolves symbols, writes every patch,
//! checks the link-time assertions, and lays the ROM image out.
//!
//! Placement follows rgblink 1.0.3 exactly, so that a build with the real RGBDS gives the
//! same bytes:
//! - Sections are placed by how constrained they are: bank and address first, then bank
//!   and alignment, bank only, address only, alignment only, and the unconstrained ones
//!   last. A section of a one-bank region (ROM0, WRAM0, HRAM, OAM) counts as having its
//!   bank fixed, as rgbasm writes it so.
//! - Within one class, the largest section first; of sections of the same size, the one
//!   read last goes first (objects in the order given, sections in the order each object
//!   declares them).
//! - Each goes to the lowest free address of its region where it fits (first fit over the
//!   free blocks in address order; an aligned section tries each aligned address in turn).
//!
//! The cartridge is a 32 KB ROM-only DMG cartridge: ROMX and WRAMX have bank 1 only, VRAM
//! bank 0 only, and there is no SRAM.
//!
//! Every error is reported, with the place in the source that caused it; the link fails if
//! there was any.

use std::collections::HashMap;

use super::diagnostic::{Diagnostic, Diagnostics, Level};
use super::expr::{eval_binary, eval_unary};
use super::object::{Expr, Location, Object, Section, SectionKind, Severity};
use super::operand::patch_bytes;
use crate::project::{noun, plural};

/// The byte in every ROM location no section fills: `rst $38`, so that a jump into unused
/// ROM lands in a known place, and the value of erased flash. `rom --rgbds` passes it to
/// rgblink and rgbfix (`-p`) too.
pub const PAD_BYTE: u8 = 0xFF;

/// The size of the cartridge ROM: ROM0 and ROMX bank 1.
pub const ROM_SIZE: usize = 0x8000;

/// Where the linker put one section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedSection {
    pub name: String,
    pub kind: SectionKind,
    /// The bank as RGBDS numbers it (ROMX and WRAMX: 1, everything else 0).
    pub bank: u32,
    pub address: u16,
    pub size: u32,
    /// Which object (in the order given to [`link`]) and which of its sections.
    pub object: usize,
    pub index: usize,
    /// Where the section was declared.
    pub location: Location,
    /// When the linker placed it (0 first): rgblink's map lists empty sections at one
    /// address the last placed first.
    pub placed: usize,
}

/// A named label with its final address (anonymous labels are left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub name: String,
    pub bank: u32,
    pub address: u16,
    /// Index into [`Linked::sections`].
    pub section: usize,
    pub exported: bool,
}

/// The linked program.
#[derive(Clone, Debug)]
pub struct Linked {
    /// The 32 KB image: ROM0 at $0000, ROMX bank 1 at $4000, [`PAD_BYTE`] where no section is.
    pub rom: Vec<u8>,
    /// Every section, in input order (object by object).
    pub sections: Vec<PlacedSection>,
    /// Every named label, object by object in the order each object lists them.
    pub labels: Vec<Label>,
    /// The exported numeric constants, each once.
    pub constants: Vec<(String, i32)>,
    pub warnings: Vec<Diagnostic>,
}

/// The bank of a region on this cartridge, as RGBDS numbers it.
pub fn region_bank(kind: SectionKind) -> u32 {
    match kind {
        SectionKind::Romx | SectionKind::Wramx | SectionKind::Sram => 1,
        _ => 0,
    }
}

/// The bytes one bank of a region holds.
pub fn region_size(kind: SectionKind) -> u32 {
    let (start, end) = kind.range();
    end - u32::from(start)
}

/// How many of its largest sections the error about a full region lists.
const LARGEST_IN_FULL_REGION: usize = 8;

/// The region's name in messages: `ROM0`, `ROMX bank 1`.
pub fn region_name(kind: SectionKind) -> String {
    match kind {
        SectionKind::Romx | SectionKind::Wramx => format!("{} bank 1", kind.name()),
        _ => kind.name().to_string(),
    }
}

/// Links `objects` (in this order: it decides ties in placement, as on rgblink's command
/// line). On failure, every error (and the warnings).
pub fn link(objects: &[Object]) -> Result<Linked, Diagnostics> {
    let mut linker = Linker::new(objects);
    linker.index_sections();
    linker.index_symbols();
    linker.place_sections();
    let rom = linker.write_rom();
    linker.check_assertions();
    linker.finish(rom)
}

#[derive(Clone, Copy, Debug)]
struct FreeSpace {
    address: u32,
    size: u32,
}

enum EvalError {
    Message(String),
    /// The value depends on a section that could not be placed (already reported).
    Unplaced,
}

struct Linker<'a> {
    objects: &'a [Object],
    /// `(bank, address)` of every section, by object and section index.
    placement: Vec<Vec<Option<(u32, u16)>>>,
    /// `(object, section)` in the order they were placed.
    placed: Vec<(usize, usize)>,
    /// Every symbol of each object by name.
    locals: Vec<HashMap<&'a str, usize>>,
    /// The exported symbols: `(object, symbol index)`.
    exported: HashMap<&'a str, (usize, usize)>,
    sections_by_name: HashMap<&'a str, (usize, usize)>,
    /// Floating sections that found no room, with what their own error would say: reported
    /// once every section has had its turn, by [`Self::report_unplaced`].
    unplaced: Vec<(usize, usize, String)>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Linker<'a> {
    fn new(objects: &'a [Object]) -> Self {
        Linker {
            objects,
            placement: objects
                .iter()
                .map(|o| vec![None; o.sections.len()])
                .collect(),
            placed: Vec::new(),
            locals: Vec::new(),
            exported: HashMap::new(),
            sections_by_name: HashMap::new(),
            unplaced: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    fn error(&mut self, location: Option<&Location>, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(location.cloned(), message));
    }

    fn warning(&mut self, location: Option<&Location>, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::warning(location.cloned(), message));
    }

    fn index_sections(&mut self) {
        for (o, object) in self.objects.iter().enumerate() {
            for (s, section) in object.sections.iter().enumerate() {
                if let Some(&(first_object, first_section)) =
                    self.sections_by_name.get(section.name.as_str())
                {
                    let first = &self.objects[first_object].sections[first_section].location;
                    self.error(
                        Some(&section.location),
                        format!("Section \"{}\" is already defined at {first}", section.name),
                    );
                } else {
                    self.sections_by_name.insert(&section.name, (o, s));
                }
            }
        }
    }

    fn index_symbols(&mut self) {
        for (o, object) in self.objects.iter().enumerate() {
            let mut locals: HashMap<&str, usize> = HashMap::new();
            for (i, symbol) in object.symbols.iter().enumerate() {
                if let Some(&first) = locals.get(symbol.name.as_str()) {
                    let first = object.symbols[first].location.clone();
                    self.error(
                        Some(&symbol.location),
                        format!("`{}` is already defined at {first}", symbol.name),
                    );
                    continue;
                }
                locals.insert(&symbol.name, i);
                if !symbol.exported {
                    continue;
                }
                match self.exported.get(symbol.name.as_str()) {
                    None => {
                        self.exported.insert(&symbol.name, (o, i));
                    }
                    Some(&(other_object, other_index)) => {
                        let other = &self.objects[other_object].symbols[other_index];
                        // The same constant exported twice (from one include file, say) is fine.
                        let same_constant = symbol.section.is_none()
                            && other.section.is_none()
                            && symbol.value == other.value;
                        if !same_constant {
                            let describe = |s: &super::object::Symbol| match s.section {
                                Some(_) => "a label".to_string(),
                                None => format!("the constant {}", s.value),
                            };
                            let message = format!(
                                "`{}` is defined as {} here, but also as {} at {}",
                                symbol.name,
                                describe(symbol),
                                describe(other),
                                other.location
                            );
                            self.error(Some(&symbol.location), message);
                        }
                    }
                }
            }
            self.locals.push(locals);
        }
    }

    /// Checks what a section asks for against this cartridge; `false` if it cannot be placed.
    fn check_section(&mut self, o: usize, s: usize) -> bool {
        let section = &self.objects[o].sections[s];
        let kind = section.kind;
        let (start, end) = kind.range();
        let problem = if kind == SectionKind::Sram {
            Some(format!(
                "Section \"{}\" is in SRAM, but a ROM-only cartridge has no cartridge RAM",
                section.name
            ))
        } else if let Some(bank) = section.bank.filter(|&b| b != region_bank(kind)) {
            Some(match kind {
                SectionKind::Vram => format!(
                    "Section \"{}\" is in VRAM bank {bank}, but the DMG has only VRAM bank 0",
                    section.name
                ),
                SectionKind::Romx => format!(
                    "Section \"{}\" is in ROMX bank {bank}, but a 32 KB ROM-only cartridge has only ROMX bank 1",
                    section.name
                ),
                SectionKind::Wramx => format!(
                    "Section \"{}\" is in WRAMX bank {bank}, but the DMG has only WRAMX bank 1",
                    section.name
                ),
                _ => format!(
                    "Section \"{}\" is in {} bank {bank}, but {} has only bank {}",
                    section.name,
                    kind.name(),
                    kind.name(),
                    region_bank(kind)
                ),
            })
        } else if let Some(address) = section.address {
            let section_end = u32::from(address) + section.size;
            if address < start || u32::from(address) >= end {
                Some(format!(
                    "Section \"{}\" is fixed at ${address:04X}, outside {} (${start:04X}-${:04X})",
                    section.name,
                    kind.name(),
                    end - 1
                ))
            } else if section_end > end {
                Some(format!(
                    "Section \"{}\" ({} at ${address:04X}) runs past the end of {} by {} (${section_end:04X} > ${end:04X})",
                    section.name,
                    plural(section.size, "byte"),
                    region_name(kind),
                    plural(section_end - end, "byte")
                ))
            } else {
                None
            }
        } else {
            None
        };
        match problem {
            Some(message) => {
                let location = section.location.clone();
                self.error(Some(&location), message);
                false
            }
            None => true,
        }
    }

    fn place_sections(&mut self) {
        // Classes as rgblink numbers them: bank 4 + address 2 + alignment 1; the most
        // constrained first. Each class is kept sorted by decreasing size; a section goes
        // before those of the same size already in (so the last read of equal ones first).
        let mut classes: [Vec<(usize, usize)>; 8] = Default::default();
        for o in 0..self.objects.len() {
            for s in 0..self.objects[o].sections.len() {
                if !self.check_section(o, s) {
                    continue;
                }
                let section = &self.objects[o].sections[s];
                let single_bank = matches!(
                    section.kind,
                    SectionKind::Rom0 | SectionKind::Wram0 | SectionKind::Hram | SectionKind::Oam
                );
                let mut class = 0;
                if section.bank.is_some() || single_bank {
                    class |= 4;
                }
                if section.address.is_some() {
                    class |= 2;
                } else if section.align.is_some_and(|(bits, _)| bits > 0) {
                    class |= 1;
                }
                let list = &mut classes[class];
                let position = list
                    .iter()
                    .position(|&(lo, ls)| self.objects[lo].sections[ls].size <= section.size)
                    .unwrap_or(list.len());
                list.insert(position, (o, s));
            }
        }

        let mut memory: HashMap<SectionKind, Vec<FreeSpace>> = HashMap::new();
        for class in classes.iter().rev() {
            for &(o, s) in class {
                self.place_section(o, s, &mut memory);
            }
        }
        self.report_unplaced();
    }

    /// The floating sections that found no room. In a region whose sections add up to more
    /// than its size, the ones left over are only the smallest (the largest go first), not
    /// the ones that grew: one error says by how much the region is over and lists its
    /// largest sections, where room can be made, and then the sections left out. In a region
    /// with room enough in total (but not in one piece), each section says why it did not fit.
    fn report_unplaced(&mut self) {
        let unplaced = std::mem::take(&mut self.unplaced);
        let mut full: Vec<SectionKind> = Vec::new();
        for &(o, s, _) in &unplaced {
            let kind = self.objects[o].sections[s].kind;
            if !full.contains(&kind) && self.region_total(kind) > region_size(kind) {
                full.push(kind);
            }
        }
        for (o, s, message) in &unplaced {
            let section = &self.objects[*o].sections[*s];
            if !full.contains(&section.kind) {
                let location = section.location.clone();
                self.error(Some(&location), message.clone());
            }
        }
        for kind in full {
            let left_out: Vec<(usize, usize)> = unplaced
                .iter()
                .filter(|&&(o, s, _)| self.objects[o].sections[s].kind == kind)
                .map(|&(o, s, _)| (o, s))
                .collect();
            let error = self.full_region_error(kind, &left_out);
            self.diagnostics.push(error);
        }
    }

    /// The bytes all the sections of a region need.
    fn region_total(&self, kind: SectionKind) -> u32 {
        self.objects
            .iter()
            .flat_map(|object| &object.sections)
            .filter(|section| section.kind == kind)
            .map(|section| section.size)
            .sum()
    }

    /// `ROM0 is full: ...`, then the region's largest sections and the ones left out.
    fn full_region_error(&self, kind: SectionKind, left_out: &[(usize, usize)]) -> Diagnostic {
        let total = self.region_total(kind);
        let size = region_size(kind);
        let region = region_name(kind);
        let mut sections: Vec<&Section> = self
            .objects
            .iter()
            .flat_map(|object| &object.sections)
            .filter(|section| section.kind == kind && section.size > 0)
            .collect();
        // Largest first; of equal sizes, the one read first (a stable sort).
        sections.sort_by_key(|section| std::cmp::Reverse(section.size));
        let shown = sections.len().min(LARGEST_IN_FULL_REGION);
        let mut error = Diagnostic::error(
            None,
            format!(
                "{region} is full: its sections need {total} bytes, {} more than the {size} it has",
                total - size
            ),
        );
        error.context.push(if shown < sections.len() {
            format!("the largest of its {} sections:", sections.len())
        } else {
            format!("its {}:", plural(sections.len(), "section"))
        });
        for section in &sections[..shown] {
            error.context.push(format!(
                "  {:>6} {:<5}  \"{}\" ({}:{})",
                section.size,
                noun(section.size, "byte"),
                section.name,
                section.location.file,
                section.location.line
            ));
        }
        let left_out: Vec<String> = left_out
            .iter()
            .map(|&(o, s)| {
                let section = &self.objects[o].sections[s];
                format!("\"{}\" ({})", section.name, plural(section.size, "byte"))
            })
            .collect();
        error
            .context
            .push(format!("left without room: {}", left_out.join(", ")));
        error
    }

    fn place_section(
        &mut self,
        o: usize,
        s: usize,
        memory: &mut HashMap<SectionKind, Vec<FreeSpace>>,
    ) {
        let section = &self.objects[o].sections[s];
        let kind = section.kind;
        let bank = region_bank(kind);
        let (start, end) = kind.range();
        self.placed.push((o, s));
        if section.size == 0 {
            // An empty section overlaps nothing.
            self.placement[o][s] = Some((bank, section.address.unwrap_or(start)));
            return;
        }
        let spaces = memory.entry(kind).or_insert_with(|| {
            vec![FreeSpace {
                address: u32::from(start),
                size: end - u32::from(start),
            }]
        });
        let align = section
            .align
            .filter(|&(bits, _)| bits > 0)
            .map(|(bits, offset)| ((1u32 << bits.min(16)) - 1, u32::from(offset)));
        let fixed = section.address.map(u32::from);
        match first_fit(spaces, section.size, fixed, align) {
            Some((index, address)) => {
                take(spaces, index, address, section.size);
                self.placement[o][s] = Some((bank, address as u16));
            }
            None => {
                if let Some(address) = fixed {
                    let message = self.overlap_message(o, s, address);
                    let location = section.location.clone();
                    self.error(Some(&location), message);
                    return;
                }
                let free: u32 = spaces.iter().map(|space| space.size).sum();
                let largest = spaces.iter().map(|space| space.size).max().unwrap_or(0);
                let mut message = format!(
                    "Section \"{}\" ({}) does not fit in {}: {} free",
                    section.name,
                    plural(section.size, "byte"),
                    region_name(kind),
                    plural(free, "byte")
                );
                if free < section.size {
                    message += &format!(", {} short", plural(section.size - free, "byte"));
                } else if let Some((mask, offset)) = align {
                    message += &format!(
                        ", but no free block of {} at an address aligned to {} (offset {offset})",
                        plural(section.size, "byte"),
                        mask + 1
                    );
                } else {
                    message += &format!(
                        ", but the largest free block is {}",
                        plural(largest, "byte")
                    );
                }
                self.unplaced.push((o, s, message));
            }
        }
    }

    fn overlap_message(&self, o: usize, s: usize, address: u32) -> String {
        let section = &self.objects[o].sections[s];
        let this_end = address + section.size;
        let overlapping = self
            .placement
            .iter()
            .enumerate()
            .find_map(|(po, sections)| {
                sections.iter().enumerate().find_map(|(ps, placed)| {
                    let other = &self.objects[po].sections[ps];
                    let (_, other_address) = (*placed)?;
                    let other_address = u32::from(other_address);
                    let other_end = other_address + other.size;
                    (other.kind == section.kind
                        && other.size > 0
                        && other_address < this_end
                        && address < other_end)
                        .then_some((other, other_address, other_end))
                })
            });
        match overlapping {
            Some((other, other_address, other_end)) => format!(
                "Section \"{}\" (${address:04X}-${:04X}) overlaps section \"{}\" (${other_address:04X}-${:04X}) declared at {}",
                section.name,
                this_end - 1,
                other.name,
                other_end - 1,
                other.location
            ),
            None => format!(
                "Section \"{}\" cannot be placed at ${address:04X}",
                section.name
            ),
        }
    }

    /// The symbol `name` as seen from object `o`: its own symbols first, then the exported ones.
    fn resolve(&self, o: usize, name: &str) -> Option<(usize, usize)> {
        if let Some(&i) = self.locals[o].get(name) {
            return Some((o, i));
        }
        self.exported.get(name).copied()
    }

    fn undefined(&self, o: usize, name: &str, what: &str) -> EvalError {
        let elsewhere = self.objects.iter().enumerate().find_map(|(other, object)| {
            if other == o {
                return None;
            }
            let &i = self.locals[other].get(name)?;
            Some(object.symbols[i].location.clone())
        });
        let mut message = format!("{what} `{name}`");
        if let Some(location) = elsewhere {
            message += &format!(
                " (`{name}` at {location} is not exported: write `{name}::` or `EXPORT {name}`)"
            );
        }
        EvalError::Message(message)
    }

    fn section_start(&self, o: usize, s: usize) -> Result<(u32, u16), EvalError> {
        self.placement[o][s].ok_or(EvalError::Unplaced)
    }

    fn section_named(&self, name: &str, what: &str) -> Result<(usize, usize), EvalError> {
        self.sections_by_name.get(name).copied().ok_or_else(|| {
            EvalError::Message(format!(
                "Requested `{what}()` of undefined section \"{name}\""
            ))
        })
    }

    fn eval(&self, o: usize, expr: &Expr) -> Result<i32, EvalError> {
        Ok(match expr {
            Expr::Number(n) => *n,
            Expr::Symbol(name) => {
                let (so, si) = self
                    .resolve(o, name)
                    .ok_or_else(|| self.undefined(o, name, "Undefined symbol"))?;
                let symbol = &self.objects[so].symbols[si];
                match symbol.section {
                    Some((s, offset)) => {
                        let (_, start) = self.section_start(so, s)?;
                        i32::from(start) + offset as i32
                    }
                    None => symbol.value,
                }
            }
            Expr::SectionAddress { section, offset } => {
                let (_, start) = self.section_start(o, *section)?;
                i32::from(start) + *offset as i32
            }
            Expr::Bank(inner) => match inner.as_ref() {
                Expr::Symbol(name) => {
                    let (so, si) = self.resolve(o, name).ok_or_else(|| {
                        self.undefined(o, name, "Requested `BANK()` of undefined symbol")
                    })?;
                    match self.objects[so].symbols[si].section {
                        Some((s, _)) => self.section_start(so, s)?.0 as i32,
                        None => {
                            return Err(EvalError::Message(format!(
                                "Requested `BANK()` of non-label symbol `{name}`"
                            )))
                        }
                    }
                }
                Expr::SectionAddress { section, .. } => self.section_start(o, *section)?.0 as i32,
                _ => {
                    return Err(EvalError::Message(
                        "`BANK()` takes a label, `@` or a section name".to_string(),
                    ))
                }
            },
            Expr::BankOfSection(name) => {
                let (so, ss) = self.section_named(name, "BANK")?;
                self.section_start(so, ss)?.0 as i32
            }
            Expr::SizeOfSection(name) => {
                let (so, ss) = self.section_named(name, "SIZEOF")?;
                self.objects[so].sections[ss].size as i32
            }
            Expr::StartOfSection(name) => {
                let (so, ss) = self.section_named(name, "STARTOF")?;
                i32::from(self.section_start(so, ss)?.1)
            }
            Expr::Unary(op, a) => eval_unary(*op, self.eval(o, a)?),
            Expr::Binary(op, a, b) => {
                let a = self.eval(o, a)?;
                let b = self.eval(o, b)?;
                eval_binary(*op, a, b).map_err(EvalError::Message)?
            }
        })
    }

    /// Applies every patch and lays the ROM image out.
    fn write_rom(&mut self) -> Vec<u8> {
        let mut rom = vec![PAD_BYTE; ROM_SIZE];
        for (o, object) in self.objects.iter().enumerate() {
            for (s, section) in object.sections.iter().enumerate() {
                let Some((_, start)) = self.placement[o][s] else {
                    continue;
                };
                if !section.kind.has_data() {
                    continue;
                }
                let mut data = section.data.clone();
                data.resize(section.size as usize, 0);
                for patch in &section.patches {
                    let value = match self.eval(o, &patch.expr) {
                        Ok(value) => value,
                        Err(EvalError::Unplaced) => continue,
                        Err(EvalError::Message(message)) => {
                            self.error(Some(&patch.location), message);
                            continue;
                        }
                    };
                    let address = i32::from(start) + patch.offset as i32;
                    match patch_bytes(patch.kind, value, address) {
                        Ok((bytes, warning)) => {
                            let offset = patch.offset as usize;
                            match data.get_mut(offset..offset + bytes.len()) {
                                Some(target) => target.copy_from_slice(&bytes),
                                None => self.error(
                                    Some(&patch.location),
                                    format!(
                                        "Patch would write past the end of section \"{}\" ({} long)",
                                        section.name,
                                        plural(section.size, "byte")
                                    ),
                                ),
                            }
                            if let Some(warning) = warning {
                                self.warning(Some(&patch.location), warning);
                            }
                        }
                        Err(message) => self.error(Some(&patch.location), message),
                    }
                }
                let start = usize::from(start);
                rom[start..start + data.len()].copy_from_slice(&data);
            }
        }
        rom
    }

    fn check_assertions(&mut self) {
        for (o, object) in self.objects.iter().enumerate() {
            for assertion in &object.assertions {
                let message = if assertion.message.is_empty() {
                    "assert failure"
                } else {
                    assertion.message.as_str()
                };
                let location = Some(assertion.location.clone());
                let diagnostic = match self.eval(o, &assertion.expr) {
                    Ok(0) => match assertion.severity {
                        Severity::Warn => Diagnostic::warning(location, message),
                        Severity::Error | Severity::Fatal => Diagnostic::error(location, message),
                    },
                    Ok(_) | Err(EvalError::Unplaced) => continue,
                    Err(EvalError::Message(error)) => {
                        let text = if assertion.severity == Severity::Fatal {
                            let separator = if assertion.message.is_empty() {
                                ""
                            } else {
                                ": "
                            };
                            format!(
                                "Failed to evaluate assertion{separator}{}: {error}",
                                assertion.message
                            )
                        } else {
                            error
                        };
                        Diagnostic::error(location, text)
                    }
                };
                // A failure in a macro names the line that called it.
                self.diagnostics.push(Diagnostic {
                    context: assertion.context.clone(),
                    ..diagnostic
                });
            }
        }
    }

    fn finish(self, rom: Vec<u8>) -> Result<Linked, Diagnostics> {
        if self.diagnostics.iter().any(|d| d.level == Level::Error) {
            return Err(Diagnostics(self.diagnostics));
        }
        let placed_rank: HashMap<(usize, usize), usize> = self
            .placed
            .iter()
            .enumerate()
            .map(|(rank, &section)| (section, rank))
            .collect();
        let mut sections = Vec::new();
        let mut section_index = HashMap::new();
        for (o, object) in self.objects.iter().enumerate() {
            for (s, section) in object.sections.iter().enumerate() {
                let (bank, address) = self.placement[o][s].unwrap_or_default();
                section_index.insert((o, s), sections.len());
                sections.push(PlacedSection {
                    name: section.name.clone(),
                    kind: section.kind,
                    bank,
                    address,
                    size: section.size,
                    object: o,
                    index: s,
                    location: section.location.clone(),
                    placed: placed_rank.get(&(o, s)).copied().unwrap_or(usize::MAX),
                });
            }
        }
        let mut labels = Vec::new();
        let mut constants: Vec<(String, i32)> = Vec::new();
        for (o, object) in self.objects.iter().enumerate() {
            for symbol in &object.symbols {
                match symbol.section {
                    Some((s, offset)) => {
                        if !symbol
                            .name
                            .starts_with(|c: char| c.is_ascii_alphabetic() || c == '.' || c == '_')
                        {
                            // Anonymous labels (`!0`...) have no name to show.
                            continue;
                        }
                        let index = section_index[&(o, s)];
                        let placed: &PlacedSection = &sections[index];
                        labels.push(Label {
                            name: symbol.name.clone(),
                            bank: placed.bank,
                            address: placed.address.wrapping_add(offset as u16),
                            section: index,
                            exported: symbol.exported,
                        });
                    }
                    None if symbol.exported
                        && !constants.iter().any(|(name, _)| *name == symbol.name) =>
                    {
                        constants.push((symbol.name.clone(), symbol.value));
                    }
                    None => {}
                }
            }
        }
        Ok(Linked {
            rom,
            sections,
            labels,
            constants,
            warnings: self.diagnostics,
        })
    }
}

/// rgblink's search: the first free block, in address order, with a suitable address.
/// Returns the block's index and the address.
fn first_fit(
    spaces: &[FreeSpace],
    size: u32,
    fixed: Option<u32>,
    align: Option<(u32, u32)>,
) -> Option<(usize, u32)> {
    let suitable = |space: &FreeSpace, address: u32| {
        fixed.is_none_or(|f| f == address)
            && align.is_none_or(|(mask, offset)| address.wrapping_sub(offset) & mask == 0)
            && address >= space.address
            && address + size <= space.address + space.size
    };
    let mut index = 0;
    let mut address = spaces.first()?.address;
    while index < spaces.len() {
        if suitable(&spaces[index], address) {
            return Some((index, address));
        }
        if let Some(fixed) = fixed {
            if address >= fixed {
                return None;
            }
            address = fixed;
        } else if let Some((mask, offset)) = align {
            // The next address congruent to `offset` modulo the alignment, past this one.
            let step = i64::from(mask) + 1;
            let base = i64::from(address) - i64::from(offset);
            address = (base.div_euclid(step) * step + step + i64::from(offset)) as u32;
        } else {
            index += 1;
            match spaces.get(index) {
                Some(space) => address = space.address,
                None => return None,
            }
        }
        while index < spaces.len() && address >= spaces[index].address + spaces[index].size {
            index += 1;
        }
    }
    None
}

/// Removes `[address, address + size)` from free block `index`.
fn take(spaces: &mut Vec<FreeSpace>, index: usize, address: u32, size: u32) {
    let space = spaces[index];
    let end = address + size;
    let space_end = space.address + space.size;
    match (space.address == address, space_end == end) {
        (true, true) => {
            spaces.remove(index);
        }
        (false, false) => {
            spaces[index].size = address - space.address;
            spaces.insert(
                index + 1,
                FreeSpace {
                    address: end,
                    size: space_end - end,
                },
            );
        }
        (true, false) => {
            spaces[index] = FreeSpace {
                address: end,
                size: space_end - end,
            };
        }
        (false, true) => spaces[index].size -= size,
    }
}

/// Hand-made objects for the linker's and the output files' tests.
#[cfg(test)]
pub(crate) mod build {
    use std::rc::Rc;

    use crate::asm::object::{
        Assertion, Expr, Location, Object, Patch, PatchKind, Section, SectionKind, Severity, Symbol,
    };

    pub fn location(file: &str, line: u32) -> Location {
        Location {
            file: Rc::from(file),
            line,
            column: 1,
            text: Rc::from(""),
        }
    }

    /// Builds one object as its source would: sections and labels in order of writing.
    pub struct ObjectBuilder {
        pub object: Object,
        /// The source file the built object pretends to come from (for locations).
        file: String,
        line: u32,
    }

    impl ObjectBuilder {
        pub fn new(file: &str) -> Self {
            ObjectBuilder {
                object: Object::default(),
                file: file.to_string(),
                line: 0,
            }
        }

        fn next_location(&mut self) -> Location {
            self.line += 1;
            location(&self.file, self.line)
        }

        fn current(&mut self) -> &mut Section {
            self.object.sections.last_mut().expect("a section first")
        }

        /// `SECTION "name", KIND` (floating).
        pub fn section(mut self, name: &str, kind: SectionKind) -> Self {
            let location = self.next_location();
            self.object.sections.push(Section {
                name: name.to_string(),
                kind,
                address: None,
                bank: None,
                align: None,
                data: Vec::new(),
                size: 0,
                patches: Vec::new(),
                location,
            });
            self
        }

        /// `[$address]` of the last section.
        pub fn at(mut self, address: u16) -> Self {
            self.current().address = Some(address);
            self
        }

        pub fn bank(mut self, bank: u32) -> Self {
            self.current().bank = Some(bank);
            self
        }

        pub fn align(mut self, bits: u8, offset: u16) -> Self {
            self.current().align = Some((bits, offset));
            self
        }

        /// Bytes (ROM) or reserved space (RAM) at the end of the last section.
        pub fn bytes(mut self, bytes: &[u8]) -> Self {
            let section = self.current();
            section.size += bytes.len() as u32;
            if section.kind.has_data() {
                section.data.extend_from_slice(bytes);
            }
            self
        }

        pub fn space(self, size: usize, fill: u8) -> Self {
            self.bytes(&vec![fill; size])
        }

        /// A label at the end of the last section; `Name::` when `exported`.
        pub fn label(mut self, name: &str, exported: bool) -> Self {
            let location = self.next_location();
            let section = self.object.sections.len() - 1;
            let offset = self.current().size;
            self.object.symbols.push(Symbol {
                name: name.to_string(),
                section: Some((section, offset)),
                value: offset as i32,
                exported,
                location,
            });
            self
        }

        pub fn constant(mut self, name: &str, value: i32) -> Self {
            let location = self.next_location();
            self.object.symbols.push(Symbol {
                name: name.to_string(),
                section: None,
                value,
                exported: true,
                location,
            });
            self
        }

        /// An instruction or data: `bytes` with a patch of `kind` at `offset` within them.
        pub fn patched(mut self, bytes: &[u8], offset: u32, kind: PatchKind, expr: Expr) -> Self {
            let location = self.next_location();
            let section = self.current();
            let start = section.size;
            section.patches.push(Patch {
                offset: start + offset,
                kind,
                expr,
                pc_offset: start,
                location,
            });
            self.bytes(bytes)
        }

        pub fn assert(mut self, severity: Severity, expr: Expr, message: &str) -> Self {
            let location = self.next_location();
            self.object.assertions.push(Assertion {
                expr,
                severity,
                message: message.to_string(),
                location,
                context: Vec::new(),
            });
            self
        }

        pub fn build(self) -> Object {
            self.object
        }
    }

    pub fn sym(name: &str) -> Expr {
        Expr::Symbol(name.to_string())
    }

    /// placement-a.asm and placement-b.asm of the RGBDS vectors, as rgbasm assembles them.
    pub fn placement_objects() -> (Object, Object) {
        let a = ObjectBuilder::new("placement-a.asm")
            .section("Header", SectionKind::Rom0)
            .at(0x100)
            .bytes(&[0x00, 0xC3, 0x50, 0x01])
            .space(0x150 - 0x104, 0)
            .section("Small", SectionKind::Rom0)
            .label("Small", true)
            .bytes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
            .section("Big", SectionKind::Rom0)
            .label("Big", true)
            .space(100, 0x11)
            .section("Mid", SectionKind::Rom0)
            .label("Mid", true)
            .space(50, 0x22)
            .section("Aligned", SectionKind::Rom0)
            .align(8, 0)
            .label("Aligned", true)
            .bytes(&[0x33])
            .section("Vars", SectionKind::Wram0)
            .label("wA", true)
            .space(3, 0)
            .section("Vars2", SectionKind::Wram0)
            .label("wB", true)
            .space(40, 0)
            .section("HVars", SectionKind::Hram)
            .label("hA", true)
            .space(2, 0)
            .build();
        let b = ObjectBuilder::new("placement-b.asm")
            .section("Other", SectionKind::Rom0)
            .label("Other", true)
            .space(20, 0x44)
            .section("Vars3", SectionKind::Wram0)
            .label("wC", true)
            .space(7, 0)
            .build();
        (a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::build::{location, placement_objects, sym, ObjectBuilder};
    use super::*;
    use crate::asm::object::{BinaryOp, PatchKind, UnaryOp};

    fn placed(linked: &Linked, name: &str) -> (u32, u16) {
        let section = linked
            .sections
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no section {name}"));
        (section.bank, section.address)
    }

    fn errors(objects: &[Object]) -> Vec<String> {
        match link(objects) {
            Ok(_) => panic!("the link succeeded"),
            Err(diagnostics) => diagnostics
                .errors()
                .map(|d| match &d.location {
                    Some(l) => format!("{}:{}: {}", l.file, l.line, d.message),
                    None => d.message.clone(),
                })
                .collect(),
        }
    }

    #[test]
    fn floating_sections_are_placed_like_rgblink() {
        let (a, b) = placement_objects();
        for objects in [[a.clone(), b.clone()], [b, a]] {
            let linked = link(&objects).unwrap();
            let addresses: Vec<(&str, u16)> = [
                "Aligned", "Big", "Mid", "Other", "Small", "Header", "Vars2", "Vars3", "Vars",
                "HVars",
            ]
            .iter()
            .map(|&name| (name, placed(&linked, name).1))
            .collect();
            assert_eq!(
                addresses,
                [
                    ("Aligned", 0x0000),
                    ("Big", 0x0001),
                    ("Mid", 0x0065),
                    ("Other", 0x0097),
                    ("Small", 0x00AB),
                    ("Header", 0x0100),
                    ("Vars2", 0xC000),
                    ("Vars3", 0xC028),
                    ("Vars", 0xC02F),
                    ("HVars", 0xFF80),
                ]
            );
            assert_eq!(linked.rom.len(), 0x8000);
            assert_eq!(&linked.rom[0x00..0x03], [0x33, 0x11, 0x11]);
            assert_eq!(
                &linked.rom[0xAB..0xB6],
                [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, PAD_BYTE]
            );
            assert_eq!(&linked.rom[0x100..0x104], [0x00, 0xC3, 0x50, 0x01]);
            assert!(linked.rom[0x150..].iter().all(|&b| b == PAD_BYTE));
        }
    }

    #[test]
    fn of_two_sections_of_one_size_the_one_read_last_goes_first() {
        let object = ObjectBuilder::new("tie.asm")
            .section("Fixed", SectionKind::Rom0)
            .at(0x10)
            .space(8, 1)
            .section("First", SectionKind::Rom0)
            .space(16, 2)
            .section("Second", SectionKind::Rom0)
            .space(16, 3)
            .section("Al", SectionKind::Rom0)
            .align(4, 2)
            .space(3, 4)
            .section("X", SectionKind::Romx)
            .space(5, 5)
            .section("W", SectionKind::Wramx)
            .space(4, 0)
            .section("V", SectionKind::Vram)
            .space(16, 0)
            .section("Empty", SectionKind::Rom0)
            .build();
        let linked = link(&[object]).unwrap();
        // As rgblink 1.0.3 places the same sections.
        assert_eq!(placed(&linked, "Empty"), (0, 0x0000));
        assert_eq!(placed(&linked, "Al"), (0, 0x0002));
        assert_eq!(placed(&linked, "Fixed"), (0, 0x0010));
        assert_eq!(placed(&linked, "Second"), (0, 0x0018));
        assert_eq!(placed(&linked, "First"), (0, 0x0028));
        assert_eq!(placed(&linked, "X"), (1, 0x4000));
        assert_eq!(placed(&linked, "W"), (1, 0xD000));
        assert_eq!(placed(&linked, "V"), (0, 0x8000));
    }

    #[test]
    fn bank_constrained_sections_go_before_address_constrained_ones() {
        // ROMX[$4000] without a bank is placed after the floating ROMX BANK[1] sections
        // (rgblink's order), so here it finds its address taken.
        let object = ObjectBuilder::new("order.asm")
            .section("Anywhere in bank 1", SectionKind::Romx)
            .bank(1)
            .space(4, 1)
            .section("At $4000", SectionKind::Romx)
            .at(0x4000)
            .space(2, 2)
            .build();
        assert_eq!(
            errors(&[object]),
            ["order.asm:2: Section \"At $4000\" ($4000-$4001) overlaps section \"Anywhere in bank 1\" ($4000-$4003) declared at order.asm:1:1"]
        );
    }

    #[test]
    fn aligned_sections_skip_to_the_next_aligned_address() {
        let object = ObjectBuilder::new("align.asm")
            .section("Low", SectionKind::Wram0)
            .at(0xC000)
            .space(0x10, 0)
            .section("Table", SectionKind::Wram0)
            .align(8, 0)
            .space(0x100, 0)
            .section("Odd", SectionKind::Wram0)
            .align(2, 3)
            .space(1, 0)
            .build();
        let linked = link(&[object]).unwrap();
        assert_eq!(placed(&linked, "Table").1, 0xC100);
        assert_eq!(placed(&linked, "Odd").1, 0xC013);
    }

    #[test]
    fn patches_resolve_labels_across_objects() {
        let main = ObjectBuilder::new("main.asm")
            .section("Code", SectionKind::Rom0)
            .at(0x150)
            .label("Start", false)
            .patched(&[0xCD, 0, 0], 1, PatchKind::Word, sym("Helper"))
            .patched(&[0x18, 0], 1, PatchKind::Relative, sym("Start"))
            .patched(
                &[0x3E, 0],
                1,
                PatchKind::Byte,
                Expr::Bank(Box::new(sym("Data"))),
            )
            .patched(
                &[0x21, 0, 0],
                1,
                PatchKind::Word,
                Expr::StartOfSection("Far".to_string()),
            )
            .patched(
                &[0x06, 0],
                1,
                PatchKind::Byte,
                Expr::SizeOfSection("Far".to_string()),
            )
            .patched(&[0xE0, 0], 1, PatchKind::HighRam, sym("hByte"))
            .patched(&[0], 0, PatchKind::Restart, sym("VECTOR"))
            .patched(
                &[0],
                0,
                PatchKind::Byte,
                Expr::Binary(
                    BinaryOp::Div,
                    Box::new(Expr::Unary(UnaryOp::Negate, Box::new(sym("SEVENTEEN")))),
                    Box::new(Expr::Number(5)),
                ),
            )
            .patched(
                &[0],
                0,
                PatchKind::Byte,
                Expr::Binary(
                    BinaryOp::Mod,
                    Box::new(Expr::Unary(UnaryOp::Negate, Box::new(sym("SEVENTEEN")))),
                    Box::new(Expr::Number(5)),
                ),
            )
            .build();
        let library = ObjectBuilder::new("library.asm")
            .section("Far", SectionKind::Romx)
            .space(3, 0xAA)
            .label("Data", true)
            .label("Helper", true)
            .bytes(&[0xC9])
            .section("High", SectionKind::Hram)
            .label("hByte", true)
            .space(1, 0)
            .constant("VECTOR", 0x38)
            .constant("SEVENTEEN", 17)
            .build();
        let linked = link(&[main, library]).unwrap();
        assert_eq!(
            &linked.rom[0x150..0x150 + 18],
            [
                0xCD, 0x03, 0x40, // call Helper
                0x18, 0xFB, // jr Start
                0x3E, 0x01, // ld a, BANK(Data)
                0x21, 0x00, 0x40, // ld hl, STARTOF("Far")
                0x06, 0x04, // ld b, SIZEOF("Far")
                0xE0, 0x80, // ldh [hByte], a
                0xFF, // rst VECTOR
                0xFC, // db -17 / 5
                0x03, // db -17 % 5
                PAD_BYTE,
            ]
        );
        assert_eq!(
            &linked.rom[0x4000..0x4005],
            [0xAA, 0xAA, 0xAA, 0xC9, PAD_BYTE]
        );
        assert_eq!(
            linked.constants,
            [("VECTOR".to_string(), 0x38), ("SEVENTEEN".to_string(), 17)]
        );
    }

    #[test]
    fn an_object_sees_its_own_symbols_before_exported_ones() {
        let a = ObjectBuilder::new("a.asm")
            .section("A", SectionKind::Rom0)
            .at(0x200)
            .label("Helper", false)
            .patched(&[0xC3, 0, 0], 1, PatchKind::Word, sym("Helper"))
            .build();
        let b = ObjectBuilder::new("b.asm")
            .section("B", SectionKind::Rom0)
            .at(0x300)
            .label("Helper", true)
            .bytes(&[0xC9])
            .build();
        let linked = link(&[a, b]).unwrap();
        assert_eq!(&linked.rom[0x200..0x203], [0xC3, 0x00, 0x02]);
    }

    #[test]
    fn undefined_symbols_and_far_jumps_are_reported_where_they_were_written() {
        // The vectors' 15-jr-range-error.asm and 16-undefined-error.asm.
        let jr = ObjectBuilder::new("15-jr-range-error.asm")
            .section("test", SectionKind::Rom0)
            .at(0x200)
            .label("Start", false)
            .patched(&[0x18, 0], 1, PatchKind::Relative, sym("Far"))
            .space(200, 0)
            .label("Far", false)
            .bytes(&[0xC9])
            .build();
        assert_eq!(
            errors(&[jr]),
            ["15-jr-range-error.asm:3: `JR` target must be between -128 and 127 bytes away, not 200; use `JP` instead"]
        );
        let undefined = ObjectBuilder::new("16-undefined-error.asm")
            .section("test", SectionKind::Rom0)
            .at(0x200)
            .patched(&[0xC3, 0, 0], 1, PatchKind::Word, sym("Nowhere"))
            .build();
        assert_eq!(
            errors(&[undefined]),
            ["16-undefined-error.asm:2: Undefined symbol `Nowhere`"]
        );
    }

    #[test]
    fn a_label_that_is_not_exported_is_undefined_elsewhere_with_a_hint() {
        let a = ObjectBuilder::new("a.asm")
            .section("A", SectionKind::Rom0)
            .patched(&[0xCD, 0, 0], 1, PatchKind::Word, sym("Secret"))
            .build();
        let b = ObjectBuilder::new("b.asm")
            .section("B", SectionKind::Rom0)
            .label("Secret", false)
            .bytes(&[0xC9])
            .build();
        assert_eq!(
            errors(&[a, b]),
            ["a.asm:2: Undefined symbol `Secret` (`Secret` at b.asm:2:1 is not exported: write `Secret::` or `EXPORT Secret`)"]
        );
    }

    /// The whole link report, as `cargo xtask rom` prints it.
    fn report(objects: &[Object]) -> String {
        match link(objects) {
            Ok(_) => panic!("the link succeeded"),
            Err(diagnostics) => diagnostics.to_string(),
        }
    }

    #[test]
    fn a_full_bank_says_by_how_much_and_lists_its_sections_instead_of_blaming_the_last_one() {
        let object = ObjectBuilder::new("big.asm")
            .section("Tables", SectionKind::Rom0)
            .space(0x3000, 0)
            .section("Code", SectionKind::Rom0)
            .space(0x1100, 0)
            .section("Vars", SectionKind::Hram)
            .space(0x80, 0)
            .build();
        assert_eq!(
            errors(std::slice::from_ref(&object)),
            [
                "ROM0 is full: its sections need 16640 bytes, 256 more than the 16384 it has",
                "HRAM is full: its sections need 128 bytes, 1 more than the 127 it has",
            ]
        );
        assert_eq!(
            report(&[object]),
            "\
error: ROM0 is full: its sections need 16640 bytes, 256 more than the 16384 it has
 its 2 sections:
    12288 bytes  \"Tables\" (big.asm:1)
     4352 bytes  \"Code\" (big.asm:2)
 left without room: \"Code\" (4352 bytes)
error: HRAM is full: its sections need 128 bytes, 1 more than the 127 it has
 its 1 section:
      128 bytes  \"Vars\" (big.asm:3)
 left without room: \"Vars\" (128 bytes)
2 errors"
        );
    }

    /// A program grows by a few bytes in one section: what does not fit is a small routine
    /// placed last, but the error starts with the region and its largest sections, and
    /// names the small ones only as left without room.
    #[test]
    fn a_small_program_that_overflows_rom0_by_seven_bytes() {
        let source = "\
SECTION \"Tables\", ROM0
\tds $3000, 0
SECTION \"Code\", ROM0
\tds $FF8, 0
SECTION \"Memcpy\", ROM0
\tds 14, 0
SECTION \"Byte\", ROM0
\tdb 1
";
        let (object, warnings) = crate::asm::frontend::assemble_source("grown.asm", source, &[])
            .unwrap_or_else(|errors| panic!("{errors}"));
        assert!(warnings.is_empty());
        assert_eq!(
            report(&[object]),
            "\
error: ROM0 is full: its sections need 16391 bytes, 7 more than the 16384 it has
 its 4 sections:
    12288 bytes  \"Tables\" (grown.asm:1)
     4088 bytes  \"Code\" (grown.asm:3)
       14 bytes  \"Memcpy\" (grown.asm:5)
        1 byte   \"Byte\" (grown.asm:7)
 left without room: \"Memcpy\" (14 bytes)
1 error"
        );
    }

    #[test]
    fn a_full_bank_lists_only_its_largest_sections() {
        let mut builder = ObjectBuilder::new("many.asm");
        for i in 0..10u32 {
            builder = builder
                .section(&format!("Part {i}"), SectionKind::Hram)
                .space(10 + i as usize, 0);
        }
        let report = report(&[builder.build()]);
        assert_eq!(
            report.lines().take(3).collect::<Vec<_>>(),
            [
                "error: HRAM is full: its sections need 145 bytes, 18 more than the 127 it has",
                " the largest of its 10 sections:",
                "       19 bytes  \"Part 9\" (many.asm:10)",
            ]
        );
        assert_eq!(
            report
                .lines()
                .filter(|l| l.ends_with(')') && l.contains("bytes  "))
                .count(),
            8
        );
        assert_eq!(
            report.lines().nth(10).unwrap(),
            " left without room: \"Part 1\" (11 bytes), \"Part 0\" (10 bytes)"
        );
    }

    #[test]
    fn a_fragmented_bank_says_so() {
        let object = ObjectBuilder::new("frag.asm")
            .section("Middle", SectionKind::Wram0)
            .at(0xC800)
            .space(0x10, 0)
            .section("Buffer", SectionKind::Wram0)
            .space(0x900, 0)
            .build();
        assert_eq!(
            errors(&[object]),
            ["frag.asm:2: Section \"Buffer\" (2304 bytes) does not fit in WRAM0: 4080 bytes free, but the largest free block is 2048 bytes"]
        );
    }

    #[test]
    fn overlapping_and_misplaced_fixed_sections() {
        let object = ObjectBuilder::new("fixed.asm")
            .section("Header", SectionKind::Rom0)
            .at(0x100)
            .space(0x50, 0)
            .section("Main", SectionKind::Rom0)
            .at(0x140)
            .space(4, 0)
            .section("Tail", SectionKind::Rom0)
            .at(0x3FFE)
            .space(4, 0)
            .section("Save", SectionKind::Sram)
            .space(4, 0)
            .section("Bank 2", SectionKind::Romx)
            .bank(2)
            .space(4, 0)
            .section("Color VRAM", SectionKind::Vram)
            .bank(1)
            .space(4, 0)
            .build();
        assert_eq!(
            errors(&[object]),
            [
                "fixed.asm:3: Section \"Tail\" (4 bytes at $3FFE) runs past the end of ROM0 by 2 bytes ($4002 > $4000)",
                "fixed.asm:4: Section \"Save\" is in SRAM, but a ROM-only cartridge has no cartridge RAM",
                "fixed.asm:5: Section \"Bank 2\" is in ROMX bank 2, but a 32 KB ROM-only cartridge has only ROMX bank 1",
                "fixed.asm:6: Section \"Color VRAM\" is in VRAM bank 1, but the DMG has only VRAM bank 0",
                "fixed.asm:2: Section \"Main\" ($0140-$0143) overlaps section \"Header\" ($0100-$014F) declared at fixed.asm:1:1",
            ]
        );
    }

    #[test]
    fn duplicate_definitions_name_both_places() {
        let a = ObjectBuilder::new("a.asm")
            .section("Code", SectionKind::Rom0)
            .label("Main", true)
            .label("Main", false)
            .constant("LIMIT", 3)
            .build();
        let b = ObjectBuilder::new("b.asm")
            .section("Code", SectionKind::Rom0)
            .label("Main", true)
            .constant("LIMIT", 3)
            .constant("WIDTH", 5)
            .build();
        let c = ObjectBuilder::new("c.asm").constant("WIDTH", 6).build();
        assert_eq!(
            errors(&[a, b, c]),
            [
                "b.asm:1: Section \"Code\" is already defined at a.asm:1:1",
                "a.asm:3: `Main` is already defined at a.asm:2:1",
                "b.asm:2: `Main` is defined as a label here, but also as a label at a.asm:2:1",
                "c.asm:1: `WIDTH` is defined as the constant 6 here, but also as the constant 5 at b.asm:4:1",
            ]
        );
    }

    #[test]
    fn link_time_assertions() {
        let object = ObjectBuilder::new("assert.asm")
            .section("Table", SectionKind::Rom0)
            .space(7, 0)
            .assert(
                Severity::Error,
                Expr::Binary(
                    BinaryOp::Eq,
                    Box::new(Expr::SizeOfSection("Table".to_string())),
                    Box::new(Expr::Number(8)),
                ),
                "Table must hold 8 entries",
            )
            .assert(
                Severity::Warn,
                Expr::Binary(
                    BinaryOp::Lt,
                    Box::new(Expr::StartOfSection("Table".to_string())),
                    Box::new(Expr::Number(0)),
                ),
                "",
            )
            .assert(Severity::Fatal, sym("Missing"), "needs Missing")
            .assert(Severity::Error, Expr::Number(1), "holds")
            .build();
        match link(&[object]) {
            Ok(_) => panic!("the link succeeded"),
            Err(diagnostics) => {
                let messages: Vec<(Level, String, u32)> = diagnostics
                    .0
                    .iter()
                    .map(|d| {
                        (
                            d.level,
                            d.message.clone(),
                            d.location.as_ref().map_or(0, |l| l.line),
                        )
                    })
                    .collect();
                assert_eq!(
                    messages,
                    [
                        (Level::Error, "Table must hold 8 entries".to_string(), 2),
                        (Level::Warning, "assert failure".to_string(), 3),
                        (
                            Level::Error,
                            "Failed to evaluate assertion: needs Missing: Undefined symbol `Missing`"
                                .to_string(),
                            4
                        ),
                    ]
                );
            }
        }
    }

    #[test]
    fn patch_range_errors_and_truncation_warnings() {
        let object = ObjectBuilder::new("range.asm")
            .section("Code", SectionKind::Rom0)
            .at(0x150)
            .label("Here", false)
            .patched(&[0xE0, 0], 1, PatchKind::HighRam, sym("Here"))
            .patched(&[0], 0, PatchKind::Restart, sym("Here"))
            .patched(
                &[0],
                0,
                PatchKind::Byte,
                Expr::Binary(
                    BinaryOp::Div,
                    Box::new(sym("Here")),
                    Box::new(Expr::Number(0)),
                ),
            )
            .build();
        assert_eq!(
            errors(std::slice::from_ref(&object)),
            [
                "range.asm:3: Address $0150 for `LDH` must be between $FF00 and $FFFF",
                "range.asm:4: Invalid address $0150 for `RST`; it must be one of $00, $08, $10, $18, $20, $28, $30 or $38",
                "range.asm:5: Division by zero",
            ]
        );
        let warned = ObjectBuilder::new("warn.asm")
            .section("Code", SectionKind::Rom0)
            .at(0x150)
            .label("Here", false)
            .patched(&[0x3E, 0], 1, PatchKind::Byte, sym("Here"))
            .build();
        let linked = link(&[warned]).unwrap();
        assert_eq!(linked.rom[0x151], 0x50);
        assert_eq!(linked.warnings.len(), 1);
        assert_eq!(
            linked.warnings[0].message,
            "Expression must be 8-bit; use `LOW()` to force 8-bit [-Wtruncation]"
        );
        assert_eq!(linked.warnings[0].location, Some(location("warn.asm", 3)));
    }

    #[test]
    fn labels_carry_their_final_address_and_bank() {
        let object = ObjectBuilder::new("labels.asm")
            .section("Code", SectionKind::Romx)
            .space(2, 0)
            .label("Routine", true)
            .space(3, 0)
            .label("Routine.skip", false)
            .label("!0", false)
            .build();
        let linked = link(&[object]).unwrap();
        assert_eq!(
            linked.labels,
            [
                Label {
                    name: "Routine".to_string(),
                    bank: 1,
                    address: 0x4002,
                    section: 0,
                    exported: true
                },
                Label {
                    name: "Routine.skip".to_string(),
                    bank: 1,
                    address: 0x4005,
                    section: 0,
                    exported: false
                },
            ]
        );
    }
}
