//! RGBDS `.sym` files: label names to addresses, and addresses back to `Label+$offset`.

use std::collections::HashMap;

use anyhow::{anyhow, bail, Result};

use crate::project::plural;

/// One label of a `.sym` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// The ROM or RAM bank the label lives in (RGBDS writes `00` for ROM0 and WRAM0).
    pub bank: u16,
    pub addr: u16,
}

/// The labels of one `.sym` file, looked up by name or by address.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    by_name: HashMap<String, usize>,
    /// Every symbol, sorted by address (ties keep the file's order).
    sorted: Vec<Symbol>,
    /// Exported numeric constants (`05 CONST` lines: value, then name).
    constants: HashMap<String, u32>,
}

impl Symbols {
    /// Parses the text of an RGBDS `.sym` file: lines `BB:AAAA Name` (bank and address in
    /// hexadecimal), `VV Name` for an exported constant (value in hexadecimal), comments
    /// from `;` to the end of the line, blank lines.
    pub fn parse(text: &str) -> Result<Symbols> {
        let mut sorted: Vec<Symbol> = Vec::new();
        let mut constants: HashMap<String, u32> = HashMap::new();
        let mut lines_of: HashMap<String, usize> = HashMap::new();
        for (index, raw) in text.lines().enumerate() {
            let line_no = index + 1;
            let line = raw.split(';').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((location, name)) = line.split_once(char::is_whitespace) else {
                bail!("line {line_no} of the symbol file: expected `BB:AAAA Name`, found `{raw}`");
            };
            let name = name.trim();
            if !location.contains(':') {
                let Ok(value) = u32::from_str_radix(location, 16) else {
                    bail!(
                        "line {line_no} of the symbol file: `{location}` is neither a \
                         bank:address pair nor a constant's value in hexadecimal"
                    );
                };
                constants.insert(name.to_string(), value);
                continue;
            }
            let parsed = location.split_once(':').and_then(|(bank, addr)| {
                let bank = u16::from_str_radix(bank, 16).ok()?;
                let addr = u16::from_str_radix(addr, 16).ok()?;
                Some((bank, addr))
            });
            let Some((bank, addr)) = parsed else {
                bail!(
                    "line {line_no} of the symbol file: `{location}` is not a bank:address \
                     pair in hexadecimal (like `00:0150`)"
                );
            };
            if name.contains(char::is_whitespace) {
                bail!("line {line_no} of the symbol file: a label name cannot contain spaces: `{name}`");
            }
            if let Some(first) = lines_of.insert(name.to_string(), line_no) {
                bail!("line {line_no} of the symbol file: label `{name}` was already defined on line {first}");
            }
            sorted.push(Symbol {
                name: name.to_string(),
                bank,
                addr,
            });
        }
        // A stable sort keeps the file's order between labels at the same address.
        sorted.sort_by_key(|symbol| symbol.addr);
        let by_name = sorted
            .iter()
            .enumerate()
            .map(|(index, symbol)| (symbol.name.clone(), index))
            .collect();
        Ok(Symbols {
            by_name,
            sorted,
            constants,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// The value of an exported constant (`DEF X EQU n` with `EXPORT X`).
    pub fn constant(&self, name: &str) -> Option<u32> {
        self.constants.get(name).copied()
    }

    /// The value of the constant `name` the assembly exports, or an error naming it: the
    /// one way Rust reads a value the assembly defines (the tests, the test driver's
    /// contract), so that no number is copied across.
    pub fn exported(&self, name: &str) -> Result<u32> {
        match self.constant(name) {
            Some(value) => Ok(value),
            None if self.is_empty() && self.constants.is_empty() => bail!(
                "the ROM exports no constant {name}: no symbols are loaded (load the .sym \
                 file with `with_symbols`)"
            ),
            None => {
                bail!("the ROM exports no constant {name}: EXPORT it where the assembly defines it")
            }
        }
    }

    /// [`Symbols::exported`] as the type the caller keeps it in; fails naming the constant
    /// when it is missing or its value does not fit.
    pub fn exported_as<T: TryFrom<u32>>(&self, name: &str) -> Result<T> {
        let value = self.exported(name)?;
        T::try_from(value).map_err(|_| {
            anyhow!(
                "{name} is {value}, which does not fit a {}",
                std::any::type_name::<T>()
            )
        })
    }

    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.by_name.get(name).map(|&index| &self.sorted[index])
    }

    /// The address of `name`, or an error that says what went wrong and suggests labels
    /// whose names contain the one asked for (ignoring case).
    pub fn address(&self, name: &str) -> Result<u16> {
        if let Some(symbol) = self.get(name) {
            return Ok(symbol.addr);
        }
        if self.is_empty() {
            bail!("unknown label `{name}`: no symbols are loaded (load the .sym file with `with_symbols`)");
        }
        let wanted = name.to_ascii_lowercase();
        let mut similar: Vec<&str> = self
            .sorted
            .iter()
            .map(|symbol| symbol.name.as_str())
            .filter(|candidate| {
                let candidate = candidate.to_ascii_lowercase();
                candidate.contains(&wanted) || wanted.contains(&candidate)
            })
            .collect();
        similar.sort_unstable();
        similar.truncate(5);
        if similar.is_empty() {
            bail!(
                "unknown label `{name}`: it is not among the {} of the .sym file",
                plural(self.len(), "label")
            );
        }
        bail!(
            "unknown label `{name}`: it is not among the {} of the .sym file (similar: {})",
            plural(self.len(), "label"),
            similar
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// The label nearest at or below `addr` in the same memory area (ROM, VRAM, SRAM, WRAM,
    /// OAM, I/O or HRAM), written `Label` or `Label+$0004`. Of several labels at one address
    /// the last in the file wins (RGBDS lists a local label after its parent).
    pub fn describe(&self, addr: u16) -> Option<String> {
        let end = self.sorted.partition_point(|symbol| symbol.addr <= addr);
        let symbol = self.sorted[..end].last()?;
        if area(symbol.addr) != area(addr) {
            return None;
        }
        let offset = addr - symbol.addr;
        Some(if offset == 0 {
            symbol.name.clone()
        } else {
            format!("{}+${offset:04X}", symbol.name)
        })
    }
}

/// Which memory area of the DMG an address belongs to; a label describes addresses of its
/// own area only.
fn area(addr: u16) -> u8 {
    match addr {
        0x0000..=0x7FFF => 0,
        0x8000..=0x9FFF => 1,
        0xA000..=0xBFFF => 2,
        0xC000..=0xFDFF => 3,
        0xFE00..=0xFEFF => 4,
        0xFF00..=0xFF7F => 5,
        0xFF80..=0xFFFF => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYM: &str = "; File generated by rgblink\n\
                       00:0150 Main\n\
                       00:0153 Main.loop\n\
                       \n\
                       01:4000 Tables ; a comment after a label\n\
                       00:c000 wBoard\n\
                       00:0200 Routine\n\
                       00:0200 Routine.start\n\
                       00:ff80 hOAMDMA\n\
                       05 PIECE_SIZE\n";

    #[test]
    fn parses_names_banks_and_addresses() {
        let symbols = Symbols::parse(SYM).unwrap();
        assert_eq!(symbols.len(), 7);
        assert_eq!(symbols.address("Main").unwrap(), 0x0150);
        assert_eq!(symbols.address("Main.loop").unwrap(), 0x0153);
        assert_eq!(symbols.address("wBoard").unwrap(), 0xC000);
        let tables = symbols.get("Tables").unwrap();
        assert_eq!((tables.bank, tables.addr), (1, 0x4000));
        assert_eq!(symbols.constant("PIECE_SIZE"), Some(5));
        assert_eq!(symbols.get("PIECE_SIZE"), None);
    }

    #[test]
    fn an_exported_constant_is_read_by_name_and_a_missing_one_is_named() {
        let symbols = Symbols::parse(SYM).unwrap();
        assert_eq!(symbols.exported("PIECE_SIZE").unwrap(), 5);
        assert_eq!(
            symbols.exported("PIECE_COUNT").unwrap_err().to_string(),
            "the ROM exports no constant PIECE_COUNT: EXPORT it where the assembly defines it"
        );
        // A label is no constant.
        assert_eq!(
            symbols.exported("Main").unwrap_err().to_string(),
            "the ROM exports no constant Main: EXPORT it where the assembly defines it"
        );
        assert_eq!(
            Symbols::default()
                .exported("PIECE_SIZE")
                .unwrap_err()
                .to_string(),
            "the ROM exports no constant PIECE_SIZE: no symbols are loaded (load the .sym \
             file with `with_symbols`)"
        );
    }

    #[test]
    fn an_exported_constant_is_read_as_the_type_kept_and_one_that_does_not_fit_is_named() {
        let symbols = Symbols::parse("; File generated by rgblink\n0140 QUEUE_SIZE\n").unwrap();
        assert_eq!(symbols.exported_as::<u16>("QUEUE_SIZE").unwrap(), 0x140);
        assert_eq!(
            symbols
                .exported_as::<u8>("QUEUE_SIZE")
                .unwrap_err()
                .to_string(),
            "QUEUE_SIZE is 320, which does not fit a u8"
        );
    }

    #[test]
    fn describes_an_address_by_the_nearest_label_below_in_its_area() {
        let symbols = Symbols::parse(SYM).unwrap();
        assert_eq!(symbols.describe(0x0150).as_deref(), Some("Main"));
        assert_eq!(symbols.describe(0x0155).as_deref(), Some("Main.loop+$0002"));
        assert_eq!(
            symbols.describe(0x0203).as_deref(),
            Some("Routine.start+$0003")
        );
        assert_eq!(symbols.describe(0x4010).as_deref(), Some("Tables+$0010"));
        assert_eq!(symbols.describe(0xC005).as_deref(), Some("wBoard+$0005"));
        assert_eq!(symbols.describe(0xFF8A).as_deref(), Some("hOAMDMA+$000A"));
        // Below the first label, and in an area with no labels (VRAM): nothing.
        assert_eq!(symbols.describe(0x0100), None);
        assert_eq!(symbols.describe(0x9800), None);
    }

    #[test]
    fn an_unknown_label_is_a_clear_error_with_suggestions() {
        let symbols = Symbols::parse(SYM).unwrap();
        let error = symbols.address("main").unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown label `main`: it is not among the 7 labels of the .sym file \
             (similar: `Main`, `Main.loop`)"
        );
        let error = symbols.address("Nowhere").unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown label `Nowhere`: it is not among the 7 labels of the .sym file"
        );
        let error = Symbols::default().address("Main").unwrap_err().to_string();
        assert!(error.contains("no symbols are loaded"), "{error}");
    }

    #[test]
    fn malformed_lines_name_their_line_number() {
        let error = Symbols::parse("00:0150 Main\nMain2\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "line 2 of the symbol file: expected `BB:AAAA Name`, found `Main2`"
        );
        let error = Symbols::parse("00:x150 Main\n").unwrap_err().to_string();
        assert_eq!(
            error,
            "line 1 of the symbol file: `00:x150` is not a bank:address pair in hexadecimal \
             (like `00:0150`)"
        );
        let error = Symbols::parse("0g Main\n").unwrap_err().to_string();
        assert_eq!(
            error,
            "line 1 of the symbol file: `0g` is neither a bank:address pair nor a constant's \
             value in hexadecimal"
        );
        let error = Symbols::parse("00:0150 Main\n00:0160 Main\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "line 2 of the symbol file: label `Main` was already defined on line 1"
        );
    }
}
