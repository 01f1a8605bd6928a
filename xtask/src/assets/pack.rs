//! Packing the art for the cartridge, and unpacking it: the reference for the SM83
//! unpacker (`Unpack`, asm/home/unpack.asm).
//!
//! # The scheme: LZ with 4 KB of look-back
//!
//! A stream is groups of up to 8 items, each group led by a flag byte whose bits, the
//! highest first, say what the items are:
//!
//! - 0: a literal, one byte, copied to the output.
//! - 1: a match, two bytes `LLLL OOOO`, `OOOOOOOO`: the 4-bit `L` (1-15) is the length
//!   minus 2 (3 to 17 bytes), the 12-bit `O` the distance back in the output (1-4,095)
//!   whence they are copied, a byte at a time, so that a distance shorter than the length
//!   repeats (distance 1: one byte over and over; 2: a pair, one bitplane's row).
//!   `L` = 0 ends the stream: the match's first byte is then `$00` and has no second.
//!
//! The unpacker reads the output back (from VRAM, free to read with the LCD off), so it
//! needs no buffer; the distance is in the output, so a stream unpacks anywhere.
//!
//! # Why this scheme (measured by `cargo xtask assets`, which prints it per sheet)
//!
//! pb16 (a flag bit per byte: the same as two bytes before, or a literal) was the other
//! candidate ([`pb16_pack`]): it packs a tile's rows well but not a tile that repeats
//! another, and the art repeats whole rows and tiles (a piece on the light and on the dark
//! square shares its outline; glyphs have both bitplanes equal, distance 1). The LZ is
//! smaller on every sheet but the 8 object tiles (92 bytes against 70), where a second
//! unpacker would cost more than the 22 bytes; the README has the figures.
//!
//! [`pack`] finds the smallest stream for this format: the fewest bits (an item's flag bit
//! and its bytes) over every way of cutting the data into literals and matches (dynamic
//! programming from the end), a match taken at any length up to the longest within reach.

use std::fmt;

/// The shortest match: a 2-byte match of 2 bytes would save nothing over 2 literals.
pub const MIN_MATCH: usize = 3;
/// The longest match: `L` = 15.
pub const MAX_MATCH: usize = 15 + 2;
/// The farthest a match reaches back.
pub const MAX_DISTANCE: usize = 0xFFF;
/// Items a flag byte describes.
const GROUP: usize = 8;

/// A stream the unpacker refuses, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// The offset in the stream of the byte found wrong (for a truncated stream: its
    /// length, where a byte was still needed).
    pub offset: usize,
    pub problem: String,
}

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "packed stream refused at offset {}: {}",
            self.offset, self.problem
        )
    }
}

impl std::error::Error for Corrupt {}

/// One item of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Literal(u8),
    Match { distance: usize, length: usize },
}

/// Packs `data` into the smallest stream of the scheme (see the module's documentation).
pub fn pack(data: &[u8]) -> Vec<u8> {
    let longest = longest_matches(data);
    // cost[i]: the fewest bits that encode data[i..] (an item's flag bit included).
    let n = data.len();
    let mut cost = vec![0usize; n + 1];
    let mut choice = vec![0usize; n + 1];
    for i in (0..n).rev() {
        cost[i] = 9 + cost[i + 1];
        choice[i] = 1;
        let (_, length) = longest[i];
        for take in MIN_MATCH..=length {
            let bits = 17 + cost[i + take];
            if bits < cost[i] {
                cost[i] = bits;
                choice[i] = take;
            }
        }
    }
    let mut items = Vec::new();
    let mut i = 0;
    while i < n {
        let take = choice[i];
        if take == 1 {
            items.push(Item::Literal(data[i]));
        } else {
            items.push(Item::Match {
                distance: longest[i].0,
                length: take,
            });
        }
        i += take;
    }
    encode(&items)
}

/// For each position of `data`: the distance and length of the longest match there (the
/// nearest of the longest), length 0 where none reaches [`MIN_MATCH`].
fn longest_matches(data: &[u8]) -> Vec<(usize, usize)> {
    let n = data.len();
    // Positions by their first 3 bytes, the latest last.
    let mut seen: std::collections::HashMap<[u8; 3], Vec<usize>> = Default::default();
    let mut longest = vec![(0, 0); n];
    for i in 0..n {
        if i + MIN_MATCH > n {
            break;
        }
        let key = [data[i], data[i + 1], data[i + 2]];
        let earlier = seen.entry(key).or_default();
        let reach = MAX_MATCH.min(n - i);
        for &j in earlier.iter().rev() {
            if i - j > MAX_DISTANCE {
                break;
            }
            // Only a match longer than the longest so far counts: one that differs at
            // that length cannot be.
            let best = longest[i].1;
            if best > 0 && (best >= reach || data[j + best] != data[i + best]) {
                continue;
            }
            let length = (0..reach)
                .take_while(|&k| data[j + k] == data[i + k])
                .count();
            if length > longest[i].1 {
                longest[i] = (i - j, length);
                if length == MAX_MATCH {
                    break;
                }
            }
        }
        earlier.push(i);
    }
    longest
}

/// The stream of `items`, with its end.
fn encode(items: &[Item]) -> Vec<u8> {
    let mut out = Vec::new();
    let ends = items.iter().map(Some).chain([None]);
    let mut flags_at = 0;
    for (count, item) in ends.enumerate() {
        if count % GROUP == 0 {
            flags_at = out.len();
            out.push(0);
        }
        let bit = 0x80 >> (count % GROUP);
        match item {
            Some(&Item::Literal(byte)) => out.push(byte),
            Some(&Item::Match { distance, length }) => {
                out[flags_at] |= bit;
                let high = ((length - 2) << 4 | distance >> 8) as u8;
                out.extend([high, distance as u8]);
            }
            None => {
                out[flags_at] |= bit;
                out.push(0);
            }
        }
    }
    out
}

/// Unpacks a stream, refusing one that is truncated, reaches back before its start, has
/// a bad end or bytes after its end.
pub fn unpack(stream: &[u8]) -> Result<Vec<u8>, Corrupt> {
    let truncated = |what: &str| Corrupt {
        offset: stream.len(),
        problem: format!("the stream ends where {what} should be"),
    };
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0;
    loop {
        let flags = *stream.get(at).ok_or_else(|| truncated("a flag byte"))?;
        at += 1;
        for bit in (0..GROUP).rev() {
            let item_at = at;
            let first = *stream.get(at).ok_or_else(|| truncated("an item"))?;
            at += 1;
            if flags >> bit & 1 == 0 {
                out.push(first);
                continue;
            }
            let length = usize::from(first >> 4) + 2;
            if length == 2 {
                if first != 0 {
                    return Err(Corrupt {
                        offset: item_at,
                        problem: format!("the end is ${first:02X}, not $00"),
                    });
                }
                if at != stream.len() {
                    return Err(Corrupt {
                        offset: at,
                        problem: format!(
                            "{} after the end",
                            crate::project::plural(stream.len() - at, "byte")
                        ),
                    });
                }
                return Ok(out);
            }
            let low = *stream
                .get(at)
                .ok_or_else(|| truncated("a match's second byte"))?;
            at += 1;
            let distance = usize::from(first & 0x0F) << 8 | usize::from(low);
            if distance == 0 || distance > out.len() {
                return Err(Corrupt {
                    offset: item_at,
                    problem: format!(
                        "a match reaches back {distance} bytes, with {} unpacked",
                        out.len()
                    ),
                });
            }
            for _ in 0..length {
                out.push(out[out.len() - distance]);
            }
        }
    }
}

/// pb16, the measured alternative: groups of 8 bytes, each led by a flag byte whose bits
/// (the highest first) say 1: the same byte as two before (0 before the start), 0: a
/// literal follows.
pub fn pb16_pack(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut before = [0u8; 2];
    for (g, group) in data.chunks(GROUP).enumerate() {
        let flags_at = out.len();
        out.push(0);
        for (k, &byte) in group.iter().enumerate() {
            let plane = (g * GROUP + k) % 2;
            if byte == before[plane] {
                out[flags_at] |= 0x80 >> k;
            } else {
                out.push(byte);
            }
            before[plane] = byte;
        }
    }
    out
}

#[cfg(test)]
/// Unpacks pb16 into `len` bytes, refusing a stream too short for them or longer.
pub fn pb16_unpack(stream: &[u8], len: usize) -> Result<Vec<u8>, Corrupt> {
    let mut out = Vec::with_capacity(len);
    let mut at = 0;
    while out.len() < len {
        let next = |at: usize| {
            stream.get(at).copied().ok_or(Corrupt {
                offset: stream.len(),
                problem: "the stream ends before its data".into(),
            })
        };
        let flags = next(at)?;
        at += 1;
        for k in 0..GROUP.min(len - out.len()) {
            if flags & 0x80 >> k != 0 {
                let byte = if out.len() >= 2 {
                    out[out.len() - 2]
                } else {
                    0
                };
                out.push(byte);
            } else {
                out.push(next(at)?);
                at += 1;
            }
        }
    }
    if at != stream.len() {
        return Err(Corrupt {
            offset: at,
            problem: "bytes after the data".into(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_stream_is_its_end_alone() {
        assert_eq!(pack(&[]), [0x80, 0x00]);
        assert_eq!(unpack(&[0x80, 0x00]).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn a_run_is_a_literal_and_matches_reaching_back_one_byte() {
        // 20 x $FF: a literal and 19 to match, in two matches (17 bits each) since one
        // holds 17 at most; of the equal cuts the first shortest match is taken.
        let packed = pack(&[0xFF; 20]);
        assert_eq!(packed, [0x70, 0xFF, 0x10, 0x01, 0xE0, 0x01, 0x00]);
        assert_eq!(unpack(&packed).unwrap(), [0xFF; 20]);
    }

    #[test]
    fn a_match_reaches_back_as_far_as_4095_bytes() {
        // 1-17, zeros, 1-17 again 4,095 bytes after the first.
        let mut data: Vec<u8> = (1..=17).collect();
        data.resize(4095, 0);
        data.extend(1..=17u8);
        let packed = pack(&data);
        assert!(
            packed.windows(2).any(|pair| pair == [0xFF, 0xFF]),
            "no match of 17 from 4,095 back in {packed:02X?}"
        );
        // 18 literals, 241 matches and the end: 501 bytes and 33 flag bytes.
        assert_eq!(packed.len(), 534);
        assert_eq!(unpack(&packed).unwrap(), data);
    }

    #[test]
    fn a_truncated_stream_is_refused_at_its_end() {
        let packed = pack(b"chess attack chess attack");
        for cut in 0..packed.len() {
            let error = unpack(&packed[..cut]).unwrap_err();
            assert_eq!(error.offset, cut, "{error}");
        }
        let error = unpack(&packed[..packed.len() - 1]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "packed stream refused at offset {}: the stream ends where an item should be",
                packed.len() - 1
            )
        );
    }

    #[test]
    fn a_match_before_the_start_a_bad_end_and_bytes_after_it_are_refused() {
        // A literal, then a match 2 back with 1 byte unpacked.
        let error = unpack(&[0x40, 0x41, 0x10, 0x02, 0x00]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "packed stream refused at offset 2: a match reaches back 2 bytes, with 1 unpacked"
        );
        let error = unpack(&[0x40, 0x41, 0x05]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "packed stream refused at offset 2: the end is $05, not $00"
        );
        let error = unpack(&[0x40, 0x41, 0x00, 0x99]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "packed stream refused at offset 3: 1 byte after the end"
        );
    }

    #[test]
    fn pb16_round_trips_and_refuses_a_short_stream() {
        let data = [0, 0, 1, 1, 1, 1, 5, 0, 5, 0, 9];
        let packed = pb16_pack(&data);
        assert_eq!(packed, [0xCC, 1, 1, 5, 0, 0xC0, 9]);
        assert_eq!(pb16_unpack(&packed, data.len()).unwrap(), data);
        let error = pb16_unpack(&packed[..6], data.len()).unwrap_err();
        assert_eq!(error.offset, 6);
    }
}
