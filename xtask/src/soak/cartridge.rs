//! Reading the game's state out of the emulated cartridge by label: the board and the
//! side to move, the move list's records, the text of the tile map. Shared by the long
//! runs of `cargo xtask soak` and the cartridge tests.

use anyhow::{bail, ensure, Result};
use engine_src::{Color, Piece, Position, Role, Square};

use crate::assets::gfx::FONT_GLYPHS;
use crate::harness::{Machine, CYCLES_PER_FRAME};

/// The font's first tile number (asm/include/gfx.inc asserts it).
const FONT_FIRST_TILE: u8 = 0x80;

/// Tile map 0 and its width in tiles.
const TILE_MAP_0: u16 = 0x9800;
const TILE_MAP_WIDTH: u16 = 32;

/// The engine's square of a model square: the low byte of its cell in wBoard.
pub fn engine_square(square: Square) -> u8 {
    ((2 + square.rank().index()) * 16 + square.file().index()) as u8
}

/// The engine's piece code (asm/engine/engine.inc) of a model piece, 0 for none.
pub fn piece_code(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return 0 };
    let role = match piece.role {
        Role::Bishop => 1,
        Role::Rook => 2,
        Role::Queen => 3,
        Role::Pawn => 4,
        Role::Knight => 8,
        Role::King => 12,
    };
    role | if piece.color == Color::White { 16 } else { 32 }
}

/// The moves the move list holds: (from, to byte, piece, flags) each, the flags without
/// the list's own bit 7 (the entry takes two rows).
pub fn records(machine: &Machine) -> Vec<[u8; 4]> {
    let count = usize::from(machine.read_u8("wMoveListCount").unwrap());
    machine
        .read("wMoveListRecords", count * 4)
        .unwrap()
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3] & 0x7F])
        .collect()
}

/// Fails, naming the first square that differs, unless wBoard and the side to move
/// (hSideToMove) are `position`'s.
pub fn check_board(machine: &Machine, position: &Position) -> Result<()> {
    let board = machine.read("wBoard", 256)?;
    for sq in Square::ALL {
        ensure!(
            board[usize::from(engine_square(sq))] == piece_code(position.board().piece_at(sq)),
            "wBoard's {sq} is not the model's ({})",
            position.to_fen()
        );
    }
    let side = machine.read_u8("hSideToMove")?;
    ensure!(
        side == u8::from(position.turn() == Color::Black),
        "the side to move is {side}, not the model's ({})",
        position.to_fen()
    );
    Ok(())
}

/// The text of `len` tiles of tile map 0 from column `x`, row `y`, read back through the
/// font (assets/font.png, in the order of `FONT_GLYPHS`); `~` for a tile that is no glyph.
pub fn tile_text(machine: &Machine, x: u16, y: u16, len: usize) -> String {
    let glyphs: Vec<char> = FONT_GLYPHS.concat().chars().collect();
    machine
        .read(TILE_MAP_0 + y * TILE_MAP_WIDTH + x, len)
        .unwrap()
        .into_iter()
        .map(|tile| {
            tile.checked_sub(FONT_FIRST_TILE)
                .and_then(|i| glyphs.get(usize::from(i)).copied())
                .unwrap_or('~')
        })
        .collect()
}

/// The bytes the VRAM queue holds and has not copied yet, as the ring's indices say.
pub fn queued_bytes(machine: &Machine) -> usize {
    let read = machine.read_u8("hVramQueueRead").unwrap();
    let write = machine.read_u8("hVramQueueWrite").unwrap();
    usize::from(write.wrapping_sub(read))
}

/// Runs frames until the VRAM queue is empty; fails when `frames` frames do not empty it.
pub fn drain_vram_queue(machine: &mut Machine, frames: u32) -> Result<()> {
    for _ in 0..=frames {
        if queued_bytes(machine) == 0 {
            return Ok(());
        }
        machine.run_frames(1)?;
    }
    bail!(
        "the VRAM queue still holds {} bytes after {frames} frames",
        queued_bytes(machine)
    )
}

/// The cartridge on the title screen (`frames` frames after power-on), stopped at the
/// main loop's frame, between two screen updates.
pub fn title_between_updates(machine: &mut Machine, frames: u32) -> Result<()> {
    machine.run_frames(frames)?;
    machine.run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)?;
    Ok(())
}
