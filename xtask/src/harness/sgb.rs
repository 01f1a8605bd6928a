//! The Super Game Boy's side of the joypad register, which boytacean does not emulate: the
//! harness logs every write to rP1 with its machine cycle, decodes the command packets a
//! cartridge sends through P14 and P15 (Pan Docs, "Command Packet Transfers"), checks their
//! timing, and, as an SGB would, answers a multiplayer request (MLT_REQ) with a player
//! number that moves on at each rising edge of P15.
//!
//! A packet is a reset pulse (P14 and P15 low together), 128 bits, least significant first,
//! each a pulse of P14 (a 0) or P15 (a 1), and a stop bit, a 0. The licensed software and
//! the boot ROM hold each pulse low for at least 5 machine cycles and both lines high for at
//! least 15 after it; an SGB needs 4 frames after a packet before the next one.

/// Machine cycles a pulse must stay low, and both lines high after it.
#[cfg(test)]
pub const PULSE_LOW_CYCLES: u64 = 5;
#[cfg(test)]
pub const PULSE_HIGH_CYCLES: u64 = 15;
/// Machine cycles an SGB needs after a packet: 60 ms, 4 frames.
#[cfg(test)]
pub const PACKET_GAP_CYCLES: u64 = 4 * super::CYCLES_PER_FRAME;
/// The bytes of a packet.
pub const PACKET_SIZE: usize = 16;
/// MLT_REQ's command number.
const MLT_REQ: u8 = 0x11;

/// One write to rP1: the machine cycle it took effect in, and bits 4-5 written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct P1Write {
    pub cycle: u64,
    pub lines: u8,
}

/// One command packet as the SGB received it.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub bytes: [u8; PACKET_SIZE],
    /// The machine cycles of its reset pulse and of the end of its stop bit.
    pub start: u64,
    pub end: u64,
}

/// The joypad register seen from an SGB.
#[derive(Debug, Default)]
pub struct SuperGameBoy {
    writes: Vec<P1Write>,
    /// The players MLT_REQ asked for (1, 2 or 4), and the one the register answers now.
    players: u8,
    player: u8,
    /// The bits of the packet being received, if one is.
    bits: Option<Vec<bool>>,
}

impl SuperGameBoy {
    pub fn new() -> SuperGameBoy {
        SuperGameBoy {
            players: 1,
            ..SuperGameBoy::default()
        }
    }

    /// Every write to rP1 so far.
    #[cfg(test)]
    pub fn writes(&self) -> &[P1Write] {
        &self.writes
    }

    /// Takes a write of `value` to rP1 at machine cycle `cycle`.
    pub fn write(&mut self, cycle: u64, value: u8) {
        let lines = value & 0x30;
        let before = self.writes.last().map_or(0x30, |w| w.lines);
        self.writes.push(P1Write { cycle, lines });
        match (lines, self.bits.as_mut()) {
            (0x00, _) => self.bits = Some(Vec::new()),
            (0x10 | 0x20, Some(bits)) => {
                bits.push(lines == 0x10);
                if bits.len() == 8 * PACKET_SIZE + 1 {
                    let bytes = packet_bytes(bits);
                    self.bits = None;
                    if bytes[0] >> 3 == MLT_REQ {
                        self.players = [1, 2, 1, 4][usize::from(bytes[1] & 3)];
                        self.player = 0;
                    }
                }
            }
            (0x30, None) if before & 0x20 == 0 && self.players > 1 => {
                self.player = (self.player + 1) % self.players;
            }
            _ => {}
        }
    }

    /// What the joypad register's low nibble reads with both lines high: the player
    /// number's complement ($F for player 1) while MLT_REQ asked for more than one.
    pub fn player_answer(&self) -> Option<u8> {
        let released = self.writes.last().is_none_or(|w| w.lines == 0x30);
        (released && self.players > 1).then_some(0x0F - self.player)
    }
}

fn packet_bytes(bits: &[bool]) -> [u8; PACKET_SIZE] {
    let mut bytes = [0; PACKET_SIZE];
    for (index, _) in bits
        .iter()
        .enumerate()
        .take(8 * PACKET_SIZE)
        .filter(|(_, &b)| b)
    {
        bytes[index / 8] |= 1 << (index % 8);
    }
    bytes
}

/// Decodes the packets in a log of rP1 writes and checks their timing: every pulse low for
/// [`PULSE_LOW_CYCLES`], both lines high for [`PULSE_HIGH_CYCLES`] after it, a 0 as the stop
/// bit. Writes outside packets (the joypad being read) are skipped. An error names the
/// packet and the bit.
#[cfg(test)]
pub fn decode_packets(writes: &[P1Write]) -> Result<Vec<Packet>, String> {
    let mut packets = Vec::new();
    let mut i = 0;
    while i < writes.len() {
        if writes[i].lines != 0x00 {
            i += 1;
            continue;
        }
        let number = packets.len() + 1;
        let start = writes[i].cycle;
        let mut bits = Vec::new();
        // pulse k: writes[i] low, writes[i + 1] both high, writes[i + 2] the next pulse
        loop {
            let (low, high) = match (writes.get(i), writes.get(i + 1)) {
                (Some(&low), Some(&high)) => (low, high),
                _ => return Err(format!("packet {number} ends after {} bits", bits.len())),
            };
            if high.lines != 0x30 {
                return Err(format!(
                    "packet {number}, bit {}: a pulse is followed by ${:02X}, not both lines high",
                    bits.len(),
                    high.lines
                ));
            }
            if high.cycle - low.cycle < PULSE_LOW_CYCLES {
                return Err(format!(
                    "packet {number}, bit {}: low for {} machine cycles, fewer than {PULSE_LOW_CYCLES}",
                    bits.len(),
                    high.cycle - low.cycle
                ));
            }
            if let Some(next) = writes.get(i + 2) {
                if bits.len() <= 8 * PACKET_SIZE && next.cycle - high.cycle < PULSE_HIGH_CYCLES {
                    return Err(format!(
                        "packet {number}, bit {}: high for {} machine cycles, fewer than \
                         {PULSE_HIGH_CYCLES}",
                        bits.len(),
                        next.cycle - high.cycle
                    ));
                }
            }
            if low.lines != 0x00 {
                bits.push(low.lines == 0x10);
            }
            i += 2;
            if bits.len() == 8 * PACKET_SIZE + 1 {
                if bits[8 * PACKET_SIZE] {
                    return Err(format!("packet {number}: the stop bit is a 1"));
                }
                packets.push(Packet {
                    bytes: packet_bytes(&bits),
                    start,
                    end: high.cycle,
                });
                break;
            }
            if writes
                .get(i)
                .is_some_and(|w| w.lines == 0x30 || w.lines == 0x00)
            {
                return Err(format!(
                    "packet {number}, bit {}: no pulse where a bit belongs",
                    bits.len()
                ));
            }
        }
    }
    Ok(packets)
}
