//! The header fixer, as `rgbfix -v -c -s -l 0x33 -k 00 -t CHESSATTACK -m ROM -r 0 -p $FF`
//! would: the cartridge header at $0104-$014F (Pan Docs, "The Cartridge Header") and the
//! image padded to 32 KB. The cartridge works on a DMG and in a Game Boy Color's colour mode
//! (CGB flag $80) and uses Super Game Boy functions (SGB flag $03, which the SGB heeds only
//! with the old licensee code $33; the licensee is then the new code, "00", none).

use super::link::{PAD_BYTE, ROM_SIZE};

/// The title written at $0134.
pub const TITLE: &str = "CHESSATTACK";

/// The logo the boot ROM compares at $0104-$0133; a cartridge without it does not start.
pub const NINTENDO_LOGO: [u8; 48] = [
    0xCE, 0xED, 0x66, 0x66, 0xCC, 0x0D, 0x00, 0x0B, 0x03, 0x73, 0x00, 0x83, 0x00, 0x0C, 0x00, 0x0D,
    0x00, 0x08, 0x11, 0x1F, 0x88, 0x89, 0x00, 0x0E, 0xDC, 0xCC, 0x6E, 0xE6, 0xDD, 0xDD, 0xD9, 0x99,
    0xBB, 0xBB, 0x67, 0x63, 0x6E, 0x0E, 0xEC, 0xCC, 0xDD, 0xDC, 0x99, 0x9F, 0xBB, 0xB9, 0x33, 0x3E,
];

const LOGO_ADDRESS: usize = 0x104;
const TITLE_ADDRESS: usize = 0x134;
const TITLE_LENGTH: usize = 16;
const CGB_FLAG: usize = 0x143;
const NEW_LICENSEE_CODE: usize = 0x144;
const SGB_FLAG: usize = 0x146;
const CARTRIDGE_TYPE: usize = 0x147;
const ROM_SIZE_CODE: usize = 0x148;
const RAM_SIZE_CODE: usize = 0x149;
const OLD_LICENSEE_CODE: usize = 0x14B;
const HEADER_CHECKSUM: usize = 0x14D;

/// $0143: works on a DMG and in colour on a CGB.
pub const CGB_COMPATIBLE: u8 = 0x80;
/// $0146: uses Super Game Boy functions.
pub const SGB_SUPPORTED: u8 = 0x03;
/// $014B: the new licensee code says who; the SGB flag counts only with it.
pub const OLD_LICENSEE_USE_NEW: u8 = 0x33;
/// $0144-$0145: the new licensee code, "00" (none).
pub const NEW_LICENSEE: [u8; 2] = *b"00";
const GLOBAL_CHECKSUM: usize = 0x14E;

/// Fixes the header of `rom` in place: pads it to 32 KB with [`PAD_BYTE`], writes the logo,
/// the title (its own bytes only, the rest of $0134-$0142 left as linked), the CGB flag, the
/// new licensee code, the SGB flag, cartridge type $00 (ROM only), ROM size $00 (32 KB),
/// RAM size $00, the old licensee code, the header checksum at $014D and the global checksum
/// at $014E (big-endian).
/// Returns a warning for each header field that held other non-zero bytes, as rgbfix does.
pub fn fix(rom: &mut Vec<u8>, title: &str) -> Result<Vec<String>, String> {
    if rom.len() > ROM_SIZE {
        return Err(format!(
            "the ROM is {} bytes, more than a 32 KB cartridge holds",
            rom.len()
        ));
    }
    // The CGB flag takes the title's last byte.
    if title.len() > TITLE_LENGTH - 1 || !title.is_ascii() {
        return Err(format!(
            "the title \"{title}\" must be at most {} ASCII characters",
            TITLE_LENGTH - 1
        ));
    }
    rom.resize(ROM_SIZE, PAD_BYTE);
    let mut warnings = Vec::new();
    overwrite(
        rom,
        LOGO_ADDRESS,
        &NINTENDO_LOGO,
        "Nintendo logo",
        &mut warnings,
    );
    // Only the title's own bytes: the rest of the 16 stay as linked, as rgbfix leaves them.
    overwrite(rom, TITLE_ADDRESS, title.as_bytes(), "title", &mut warnings);
    overwrite(rom, CGB_FLAG, &[CGB_COMPATIBLE], "CGB flag", &mut warnings);
    overwrite(
        rom,
        NEW_LICENSEE_CODE,
        &NEW_LICENSEE,
        "new licensee code",
        &mut warnings,
    );
    overwrite(rom, SGB_FLAG, &[SGB_SUPPORTED], "SGB flag", &mut warnings);
    overwrite(
        rom,
        CARTRIDGE_TYPE,
        &[0x00],
        "cartridge type",
        &mut warnings,
    );
    // The ROM size is written, not checked, as rgbfix does with `-p`.
    rom[ROM_SIZE_CODE] = 0x00;
    overwrite(rom, RAM_SIZE_CODE, &[0x00], "RAM size", &mut warnings);
    overwrite(
        rom,
        OLD_LICENSEE_CODE,
        &[OLD_LICENSEE_USE_NEW],
        "old licensee code",
        &mut warnings,
    );
    let header = header_checksum(rom);
    overwrite(
        rom,
        HEADER_CHECKSUM,
        &[header],
        "header checksum",
        &mut warnings,
    );
    let global = global_checksum(rom);
    overwrite(
        rom,
        GLOBAL_CHECKSUM,
        &global.to_be_bytes(),
        "global checksum",
        &mut warnings,
    );
    Ok(warnings)
}

fn overwrite(
    rom: &mut [u8],
    address: usize,
    bytes: &[u8],
    field: &str,
    warnings: &mut Vec<String>,
) {
    let target = &mut rom[address..address + bytes.len()];
    if target
        .iter()
        .zip(bytes)
        .any(|(&old, &new)| old != 0 && old != new)
    {
        warnings.push(format!(
            "Overwrote a non-zero byte in the {field} (${address:04X})"
        ));
    }
    target.copy_from_slice(bytes);
}

/// The byte the boot ROM checks: `x = x - byte - 1` over $0134-$014C.
pub fn header_checksum(rom: &[u8]) -> u8 {
    rom[TITLE_ADDRESS..HEADER_CHECKSUM]
        .iter()
        .fold(0u8, |sum, &byte| sum.wrapping_sub(byte).wrapping_sub(1))
}

/// The 16-bit sum of every byte of the ROM except the two checksum bytes themselves.
pub fn global_checksum(rom: &[u8]) -> u16 {
    rom.iter()
        .enumerate()
        .filter(|&(address, _)| address != GLOBAL_CHECKSUM && address != GLOBAL_CHECKSUM + 1)
        .fold(0u16, |sum, (_, &byte)| sum.wrapping_add(u16::from(byte)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::link::build::placement_objects;
    use crate::asm::link::link;

    fn placement_rom() -> Vec<u8> {
        let (a, b) = placement_objects();
        link(&[a, b]).unwrap().rom
    }

    #[test]
    fn the_fixed_header_is_what_rgbfix_writes() {
        let mut rom = placement_rom();
        let warnings = fix(&mut rom, TITLE).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(rom.len(), 32_768);
        // `rgblink -p 0xFF` then `rgbfix -v -c -s -l 0x33 -k 00 -t CHESSATTACK -m ROM -r 0
        // -p 0xFF` (RGBDS 1.0.3) on the same objects: $0100-$014F.
        let expected = "00c35001ceed6666cc0d000b03730083000c000d0008111f8889000edccc6ee6\
                        ddddd999bbbb67636e0eecccdddc999fbbb9333e434845535341545441434b00\
                        00000080303003000000003300a3aa48";
        let header: String = rom[0x100..0x150]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(header, expected);
    }

    #[test]
    fn header_fields_and_checksums() {
        let mut rom = placement_rom();
        rom.truncate(0x4000);
        fix(&mut rom, TITLE).unwrap();
        assert_eq!(rom.len(), 0x8000);
        assert!(rom[0x4000..].iter().all(|&b| b == PAD_BYTE));
        assert_eq!(&rom[0x104..0x134], NINTENDO_LOGO);
        assert_eq!(&rom[0x134..0x143], b"CHESSATTACK\0\0\0\0");
        assert_eq!(
            rom[0x143], 0x80,
            "CGB flag: a DMG cartridge that has colours"
        );
        assert_eq!(&rom[0x144..0x146], b"00", "new licensee code: none");
        assert_eq!(rom[0x146], 0x03, "SGB flag: uses SGB functions");
        assert_eq!(rom[0x147], 0x00, "cartridge type: ROM only");
        assert_eq!(rom[0x148], 0x00, "ROM size: 32 KB");
        assert_eq!(rom[0x149], 0x00, "RAM size: none");
        assert_eq!(rom[0x14B], 0x33, "old licensee code: see the new one");
        // The boot ROM's check: the bytes $0134-$014C, plus 25, plus the checksum, are 0 mod 256.
        let sum: u32 = rom[0x134..=0x14D].iter().map(|&b| u32::from(b)).sum();
        assert_eq!((sum + 25) % 256, 0);
        assert_eq!(rom[0x14D], 0xA3);
        // The global checksum: every other byte added up, stored big-endian.
        let total: u32 = rom.iter().map(|&b| u32::from(b)).sum::<u32>()
            - u32::from(rom[0x14E])
            - u32::from(rom[0x14F]);
        assert_eq!(u16::from_be_bytes([rom[0x14E], rom[0x14F]]), total as u16);
        assert_eq!(&rom[0x14E..0x150], [0xAA, 0x48]);
    }

    #[test]
    fn overwritten_header_bytes_are_reported() {
        let mut rom = placement_rom();
        rom[0x104] = 0x12;
        rom[0x136] = 0x07;
        rom[0x140] = b'X';
        rom[0x143] = 0xFF;
        rom[0x149] = 0x03;
        rom[0x14D] = 0x77;
        let warnings = fix(&mut rom, TITLE).unwrap();
        assert_eq!(
            warnings,
            [
                "Overwrote a non-zero byte in the Nintendo logo ($0104)",
                "Overwrote a non-zero byte in the title ($0134)",
                "Overwrote a non-zero byte in the CGB flag ($0143)",
                "Overwrote a non-zero byte in the RAM size ($0149)",
                "Overwrote a non-zero byte in the header checksum ($014D)",
            ]
        );
        // rgbfix writes the title's 11 bytes only: $013F-$0142 keep what was linked there.
        assert_eq!(&rom[0x134..0x144], b"CHESSATTACK\0X\0\0\x80");
    }

    #[test]
    fn an_image_larger_than_32_kb_is_an_error() {
        let mut rom = vec![0; 0x8001];
        assert_eq!(
            fix(&mut rom, TITLE).unwrap_err(),
            "the ROM is 32769 bytes, more than a 32 KB cartridge holds"
        );
        let mut rom = vec![0; 0x150];
        assert_eq!(
            fix(&mut rom, "A TITLE FAR TOO LONG").unwrap_err(),
            "the title \"A TITLE FAR TOO LONG\" must be at most 15 ASCII characters"
        );
    }
}
