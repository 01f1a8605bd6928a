//! The Zobrist keys (`engine_src::zobrist`: [`piece_key`], [`black_to_move_key`],
//! [`castling_key`], [`ep_key`]) rendered into `generated/engine/zobrist.inc` for
//! asm/engine/zobrist.asm, so that the cartridge and the model hash with the same keys.
//!
//! The cartridge keeps the low 32 bits of each key ([`cartridge_bits`]), as engine-src's
//! zobrist.rs states. The piece keys are laid out for MakeMove's fast update: eight
//! 256-byte pages, one per colour and key byte (White's bytes 0-3, then Black's, byte 0
//! the lowest). In a page, the byte of a role's key on a square is at cell
//! `square + offset`, the square being the engine's mailbox square (16 cells a row,
//! rank 1 in row 2) and the offset the role's, as in the evaluation's pages (eval.rs):
//! bishop, rook and queen in columns 0-4, 5-9 and 10-14 of rows 2-7, pawn, knight and
//! king in those of rows 8-13. Every other cell (rows 0, 1, 14 and 15, and column 15)
//! is 0: no piece reads it, and the pages keep their size and alignment.
//!
//! The file also defines the layout's constants, which zobrist.asm asserts are the
//! engine's, and the other keys as 32-bit constants.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use askama::Template;
use engine_src::zobrist::{
    black_to_move_key, cartridge_bits, castling_key, ep_key, piece_key, CARTRIDGE_KEY_BITS,
};
use engine_src::{Color, File, Role, Square};

use super::eval::{page_cell, BOARD_FIRST_ROW, BOARD_ROW_CELLS, PAGE_SIZE, ROLE_CODES};
use super::Outputs;

/// The file made, relative to `generated/`.
pub const ZOBRIST_INC: &str = "engine/zobrist.inc";

/// The bytes of a key the cartridge keeps.
const KEY_BYTES: usize = CARTRIDGE_KEY_BITS as usize / 8;

pub fn generate(_root: &Path, outputs: &mut Outputs) -> Result<()> {
    outputs.ensure_file_contents(ZOBRIST_INC, render()?.as_bytes())
}

/// The text of `generated/engine/zobrist.inc`.
pub fn render() -> Result<String> {
    let mut lines = Vec::new();
    for color in Color::ALL {
        for byte in 0..KEY_BYTES {
            let page = page(color, byte);
            for (row, cells) in page.chunks(BOARD_ROW_CELLS).enumerate() {
                let mut line = "db ".to_string();
                for (i, cell) in cells.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    write!(line, "{comma}${cell:02X}").unwrap();
                }
                write!(line, " ; {color:?} byte {byte}, {}", row_contents(row)).unwrap();
                lines.push(line);
            }
        }
    }
    let key = |key: u64| format!("${:08X}", cartridge_bits(key));
    let template = ZobristTemplate {
        bits: CARTRIDGE_KEY_BITS,
        first_row: BOARD_FIRST_ROW,
        row_cells: BOARD_ROW_CELLS,
        offsets: ROLE_CODES
            .iter()
            .map(|&(name, _, offset, _)| (name, offset))
            .collect(),
        black_to_move: key(black_to_move_key()),
        castle_white: key(castling_key(Color::White)),
        castle_black: key(castling_key(Color::Black)),
        ep_files: File::ALL
            .into_iter()
            .map(|file| (file.index(), key(ep_key(file))))
            .collect(),
        lines,
    };
    let mut text = template.render()?;
    text.push('\n');
    Ok(text)
}

/// Byte `byte` of the keys of `color`'s pieces, laid out as the top of the file says.
fn page(color: Color, byte: usize) -> [u8; PAGE_SIZE] {
    let mut page = [0u8; PAGE_SIZE];
    let mut used = [false; PAGE_SIZE];
    for (role, &(_, _, offset, _)) in Role::ALL.into_iter().zip(&ROLE_CODES) {
        for square in Square::ALL {
            let cell = page_cell(square, offset);
            assert!(!used[cell], "two keys in cell {cell} of a page");
            used[cell] = true;
            let key = cartridge_bits(piece_key(role.of(color), square));
            page[cell] = key.to_le_bytes()[byte];
        }
    }
    page
}

/// What row `row` of a page holds, for the comment beside it.
fn row_contents(row: usize) -> String {
    match row {
        2..=7 => format!("bishop, rook, queen on rank {}", row - BOARD_FIRST_ROW + 1),
        8..=13 => format!("pawn, knight, king on rank {}", row - BOARD_FIRST_ROW - 5),
        _ => "(unused)".to_string(),
    }
}

#[derive(Template)]
#[template(path = "zobrist.inc", escape = "none")]
struct ZobristTemplate {
    bits: u32,
    first_row: usize,
    row_cells: usize,
    offsets: Vec<(&'static str, usize)>,
    black_to_move: String,
    castle_white: String,
    castle_black: String,
    ep_files: Vec<(usize, String)>,
    lines: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of the `db` lines of `text`'s pages, in order.
    fn page_bytes(text: &str) -> Vec<u8> {
        text.lines()
            .filter_map(|line| line.strip_prefix("\tdb "))
            .flat_map(|line| {
                let (cells, _) = line.split_once(" ;").unwrap();
                cells
                    .split(", ")
                    .map(|cell| u8::from_str_radix(cell.trim_start_matches('$'), 16).unwrap())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn the_pages_hold_the_low_32_bits_of_every_piece_key_and_zero_elsewhere() {
        let text = render().unwrap();
        assert!(text.starts_with(
            "; Generated by `cargo xtask assets` from engine-src/src/zobrist.rs: do not edit"
        ));
        let bytes = page_bytes(&text);
        assert_eq!(bytes.len(), 8 * PAGE_SIZE);
        let mut used = vec![false; bytes.len()];
        for color in Color::ALL {
            for (role, &(_, _, offset, _)) in Role::ALL.into_iter().zip(&ROLE_CODES) {
                for square in Square::ALL {
                    let cell = page_cell(square, offset);
                    let at = |byte: usize| (color.index() * KEY_BYTES + byte) * PAGE_SIZE + cell;
                    let key = u32::from_le_bytes([0, 1, 2, 3].map(|b| bytes[at(b)]));
                    assert_eq!(
                        key,
                        cartridge_bits(piece_key(role.of(color), square)),
                        "{color:?} {role} on {square}"
                    );
                    for byte in 0..KEY_BYTES {
                        used[at(byte)] = true;
                    }
                }
            }
        }
        assert_eq!(used.iter().filter(|&&cell| cell).count(), 2 * 6 * 30 * 4);
        for (index, &byte) in bytes.iter().enumerate() {
            assert!(used[index] || byte == 0, "cell {index} holds ${byte:02X}");
        }
        // White's pawns on rank 2 (row 9, columns 0-4), knights and king beside them.
        assert!(text.contains(
            "\n\tdb $8C, $71, $5A, $9B, $95, $39, $E7, $92, $F4, $27, $2D, $60, $5A, $BA, $B7, \
             $00 ; White byte 0, pawn, knight, king on rank 2\n"
        ));
        assert!(text.contains(
            "\n\tdb $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, $00, \
             $00 ; Black byte 3, (unused)\n"
        ));
    }

    #[test]
    fn the_other_keys_are_the_low_32_bits_of_the_models() {
        let text = render().unwrap();
        assert_eq!(cartridge_bits(black_to_move_key()), 0xEAFB_5057);
        for line in [
            "DEF ZOBRIST_BLACK_TO_MOVE   EQU $EAFB5057",
            "DEF ZOBRIST_CASTLE_WHITE    EQU $7D1D4B25",
            "DEF ZOBRIST_CASTLE_BLACK    EQU $BD3464B1",
            "DEF ZOBRIST_EP_FILE_0       EQU $325D6813",
            "DEF ZOBRIST_EP_FILE_4       EQU $FBD5B01F",
            "DEF ZOBRIST_OFFSET_KING     EQU 106",
        ] {
            assert!(text.contains(&format!("\n{line}\n")), "{line}\n{text}");
        }
        assert_eq!(
            cartridge_bits(ep_key(File::E)),
            0xFBD5_B01F,
            "the e-file's key"
        );
    }
}
