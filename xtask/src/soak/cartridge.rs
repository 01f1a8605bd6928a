//! Reading the game's state out of the emulated cartridge: the engine's encoding of
//! squares and pieces (asm/engine/engine.inc, as the asset converter's eval.rs defines
//! it and eval.asm asserts), the board and the side to move, the move list's records,
//! the text of the tile map, the VRAM queue. The one home of these helpers: the long
//! runs of `cargo xtask soak` use them, and the cartridge tests' kit wraps them.

use anyhow::{bail, ensure, Result};
use engine_src::{Color, File, Piece, Position, Rank, Role, Square};

use crate::assets::eval::{page_cell, BOARD_FIRST_ROW, BOARD_ROW_CELLS, ROLE_CODES};
use crate::assets::gfx::{FONT_FIRST_TILE, FONT_GLYPHS};
use crate::harness::{Machine, CYCLES_PER_FRAME};

/// The colour bits of a piece code (engine.inc's PIECE_WHITE, PIECE_BLACK; the kit's
/// test `the_kits_squares_pieces_and_promotions_are_engine_incs` ties them).
const PIECE_WHITE: u8 = 1 << 4;
const PIECE_BLACK: u8 = 1 << 5;

/// The engine's square of a model square: the low byte of its cell in wBoard (rank 1 in
/// row BOARD_FIRST_ROW of a mailbox BOARD_ROW_CELLS cells wide).
pub fn engine_square(square: Square) -> u8 {
    page_cell(square, 0) as u8
}

/// The model square of an engine square (the low byte of its cell in wBoard), None for
/// a cell off the board.
pub fn model_square(engine: u8) -> Option<Square> {
    let cell = usize::from(engine);
    let file = File::new((cell % BOARD_ROW_CELLS) as u32)?;
    let rank = Rank::new((cell / BOARD_ROW_CELLS).checked_sub(BOARD_FIRST_ROW)? as u32)?;
    Some(Square::from_coords(file, rank))
}

/// The engine's piece code of a model piece, 0 (EMPTY) for none.
pub fn piece_code(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return 0 };
    let (_, role, _, _) = ROLE_CODES[Role::ALL
        .iter()
        .position(|&role| role == piece.role)
        .expect("Role::ALL holds every role")];
    role | match piece.color {
        Color::White => PIECE_WHITE,
        Color::Black => PIECE_BLACK,
    }
}

/// The moves the move list holds: (from, to byte, piece, flags) each, the flags without
/// the list's own bit (B_MOVE_FLAG_TWO_ROWS: the entry takes two rows). Fails naming a
/// constant the ROM does not export, or when a record is no longer those four bytes.
pub fn records(machine: &Machine) -> Result<Vec<[u8; 4]>> {
    let symbols = machine.symbols();
    let size = symbols.exported("MOVE_RECORD_SIZE")? as usize;
    ensure!(
        size == 4,
        "a move record is {size} bytes, no longer (from, to, piece, flags)"
    );
    let two_rows = 1u8 << symbols.exported("B_MOVE_FLAG_TWO_ROWS")?;
    let count = usize::from(machine.read_u8("wMoveListCount")?);
    Ok(machine
        .read("wMoveListRecords", count * size)?
        .chunks(size)
        .map(|c| [c[0], c[1], c[2], c[3] & !two_rows])
        .collect())
}

/// Fails, naming the first square that differs, unless wBoard and the side to move
/// (hSideToMove, COLOR_* of the side) are `position`'s.
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
    let want = machine.symbols().exported(match position.turn() {
        Color::White => "COLOR_WHITE",
        Color::Black => "COLOR_BLACK",
    })?;
    ensure!(
        u32::from(side) == want,
        "the side to move is {side}, not the model's ({})",
        position.to_fen()
    );
    Ok(())
}

/// The text of `len` tiles of tile map 0 (TILEMAP0) from column `x`, row `y`: see
/// [`map_text`].
pub fn tile_text(machine: &Machine, x: u16, y: u16, len: usize) -> Result<String> {
    map_text(machine, "TILEMAP0", x, y, len)
}

/// The text of `len` tiles of the tile map `map` names (TILEMAP0, or TILEMAP1 where the
/// window is), TILEMAP_WIDTH tiles a row, from column `x`, row `y`, read back through
/// the font (assets/font.png from tile FONT_FIRST_TILE, in the order of `FONT_GLYPHS`);
/// `~` for a tile that is no glyph.
pub fn map_text(machine: &Machine, map: &str, x: u16, y: u16, len: usize) -> Result<String> {
    let glyphs: Vec<char> = FONT_GLYPHS.concat().chars().collect();
    let map = machine.symbols().exported(map)?;
    let width = machine.symbols().exported("TILEMAP_WIDTH")?;
    let at = u16::try_from(map + u32::from(y) * width + u32::from(x))?;
    Ok(machine
        .read(at, len)?
        .into_iter()
        .map(|tile| {
            usize::from(tile)
                .checked_sub(FONT_FIRST_TILE)
                .and_then(|i| glyphs.get(i).copied())
                .unwrap_or('~')
        })
        .collect())
}

/// The bytes the VRAM queue holds and has not copied yet, as the ring's indices say.
pub fn queued_bytes(machine: &Machine) -> Result<usize> {
    let read = machine.read_u8("hVramQueueRead")?;
    let write = machine.read_u8("hVramQueueWrite")?;
    Ok(usize::from(write.wrapping_sub(read)))
}

/// Runs frames until the VRAM queue is empty; fails when `frames` frames do not empty it.
pub fn drain_vram_queue(machine: &mut Machine, frames: u32) -> Result<()> {
    for _ in 0..=frames {
        if queued_bytes(machine)? == 0 {
            return Ok(());
        }
        machine.run_frames(1)?;
    }
    bail!(
        "the VRAM queue still holds {} bytes after {frames} frames",
        queued_bytes(machine)?
    )
}

/// The cartridge on the title screen (`frames` frames after power-on), stopped at the
/// main loop's frame, between two screen updates.
pub fn title_between_updates(machine: &mut Machine, frames: u32) -> Result<()> {
    machine.run_frames(frames)?;
    machine.run_until("RunScreens.frame", 2 * CYCLES_PER_FRAME)?;
    Ok(())
}

/// The address of `side`'s word in wClockSeconds (a word per side, in the order of
/// COLOR_*).
fn clock_word(machine: &Machine, side: Color) -> Result<u16> {
    let color = machine.symbols().exported(match side {
        Color::White => "COLOR_WHITE",
        Color::Black => "COLOR_BLACK",
    })?;
    Ok(machine.symbol("wClockSeconds")? + 2 * u16::try_from(color)?)
}

/// The seconds left on `side`'s clock.
pub fn clock_seconds(machine: &Machine, side: Color) -> Result<u16> {
    machine.read_u16(clock_word(machine, side)?)
}

/// Sets the seconds left on `side`'s clock.
pub fn set_clock_seconds(machine: &mut Machine, side: Color, seconds: u16) -> Result<()> {
    let at = clock_word(machine, side)?;
    machine.write(at, &seconds.to_le_bytes())?;
    Ok(())
}
