//! Tiny hand-assembled test ROMs for the harness's own tests.

/// A 32 KiB ROM-only cartridge: `nop; jp $0150` at the entry point, a valid header (title
/// `HARNESS`, header checksum), and whatever code the test places.
pub struct TestRom {
    bytes: Vec<u8>,
}

impl TestRom {
    pub fn new() -> TestRom {
        let mut bytes = vec![0; 0x8000];
        // $0100: nop; jp $0150
        bytes[0x0100..0x0104].copy_from_slice(&[0x00, 0xC3, 0x50, 0x01]);
        bytes[0x0134..0x013B].copy_from_slice(b"HARNESS");
        TestRom { bytes }
    }

    /// Places `code` at `addr`.
    pub fn at(mut self, addr: u16, code: &[u8]) -> TestRom {
        let start = usize::from(addr);
        self.bytes[start..start + code.len()].copy_from_slice(code);
        self
    }

    /// The ROM image with its header checksum fixed.
    pub fn build(mut self) -> Vec<u8> {
        let checksum = self.bytes[0x0134..=0x014C]
            .iter()
            .fold(0u8, |sum, &byte| sum.wrapping_sub(byte).wrapping_sub(1));
        self.bytes[0x014D] = checksum;
        self.bytes
    }
}
