//! Reading the game's state out of the emulated cartridge: the engine's encoding of
//! squares and pieces (asm/engine/engine.inc, as the asset converter's eval.rs defines
//! it and eval.asm asserts), the board and the side to move, the move list's records,
//! the text of the tile map, the board the background shows, the VRAM queue, and where
//! the selector goes. The one home of these helpers: the long runs of `cargo xtask soak`
//! and the cartridge match (`cargo xtask match --cartridge`) use them, and the cartridge
//! tests' kit wraps them.

use anyhow::{bail, ensure, Context, Result};
use engine_src::{Color, File, Move, MoveKind, Piece, Position, Rank, Role, Square};

use crate::assets::eval::{page_cell, BOARD_FIRST_ROW, BOARD_ROW_CELLS, ROLE_CODES};
use crate::assets::gfx::{self, Art, FONT_FIRST_TILE, FONT_GLYPHS};
use crate::harness::{Button, Machine, CYCLES_PER_FRAME};

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

/// What a move's record (asm/include/game_record.inc) is made of, read by name from the
/// ROM's symbols: the MOVE_FLAG_* bits, the to byte's square bits (MOVE_TO_SQUARE) and
/// each promotion's bits (PROMOTE_*).
pub struct RecordCodes {
    capture: u8,
    promotion_flag: u8,
    castle: u8,
    en_passant: u8,
    check: u8,
    mate: u8,
    to_square: u8,
    promotions: [(Role, u8); 4],
}

impl RecordCodes {
    /// Reads the codes; fails naming a constant the ROM does not export.
    pub fn read(machine: &Machine) -> Result<RecordCodes> {
        let symbols = machine.symbols();
        let byte = |name: &str| symbols.exported_as::<u8>(name);
        let mut promotions = [(Role::Queen, 0); 4];
        for (slot, (role, constant)) in promotions.iter_mut().zip([
            (Role::Queen, "PROMOTE_QUEEN"),
            (Role::Rook, "PROMOTE_ROOK"),
            (Role::Bishop, "PROMOTE_BISHOP"),
            (Role::Knight, "PROMOTE_KNIGHT"),
        ]) {
            *slot = (role, byte(constant)?);
        }
        Ok(RecordCodes {
            capture: byte("MOVE_FLAG_CAPTURE")?,
            promotion_flag: byte("MOVE_FLAG_PROMOTION")?,
            castle: byte("MOVE_FLAG_CASTLE")?,
            en_passant: byte("MOVE_FLAG_EN_PASSANT")?,
            check: byte("MOVE_FLAG_CHECK")?,
            mate: byte("MOVE_FLAG_MATE")?,
            to_square: byte("MOVE_TO_SQUARE")?,
            promotions,
        })
    }

    /// The promotion bits of the to byte of a promotion to `role`.
    pub fn promotion_bits(&self, role: Role) -> Option<u8> {
        self.promotions
            .iter()
            .find(|&&(promoted, _)| promoted == role)
            .map(|&(_, bits)| bits)
    }
}

/// The model's move a record stands for, checked against the record's piece and flags;
/// fails when the record is no legal move of `position`.
pub fn recorded_move(codes: &RecordCodes, position: &Position, record: [u8; 4]) -> Result<Move> {
    let [from, to_byte, piece, flags] = record;
    let to = to_byte & codes.to_square;
    let promotion = match flags & codes.promotion_flag != 0 {
        false => None,
        true => Some(
            codes
                .promotions
                .iter()
                .find(|&&(_, bits)| bits == to_byte & !codes.to_square)
                .map(|&(role, _)| role)
                .with_context(|| format!("the record {record:02X?} promotes to no piece"))?,
        ),
    };
    let legal = position.legal_moves();
    let m = *legal
        .iter()
        .find(|m| {
            engine_square(m.from) == from && engine_square(m.to) == to && m.promotion == promotion
        })
        .with_context(|| {
            format!(
                "the record {record:02X?} is no legal move of {}",
                position.to_fen()
            )
        })?;
    let after = position.play(&m);
    let want_flags = [
        (m.capture.is_some(), codes.capture),
        (m.promotion.is_some(), codes.promotion_flag),
        (m.kind == MoveKind::Castle, codes.castle),
        (m.kind == MoveKind::EnPassant, codes.en_passant),
        (after.is_check(), codes.check),
        (after.is_checkmate(), codes.mate),
    ]
    .into_iter()
    .filter(|&(set, _)| set)
    .fold(0, |flags, (_, flag)| flags | flag);
    let want = [piece_code(position.board().piece_at(m.from)), want_flags];
    ensure!(
        [piece, flags] == want,
        "the record of {m:?} in {} has piece and flags {:02X?}, not {want:02X?}",
        position.to_fen(),
        [piece, flags]
    );
    Ok(m)
}

/// Where a square is on the screen, as (column, row) of squares from the top left, with
/// White at the bottom or (`black_bottom`) Black.
pub fn place(square: Square, black_bottom: bool) -> (u8, u8) {
    let (file, rank) = (square.file().index() as u8, square.rank().index() as u8);
    let (files, ranks) = (File::COUNT as u8, Rank::COUNT as u8);
    if black_bottom {
        (files - 1 - file, rank)
    } else {
        (file, ranks - 1 - rank)
    }
}

/// The selector's square on the screen: (column, row).
pub fn selector(machine: &Machine) -> Result<(u8, u8)> {
    Ok((
        machine.read_u8("wCursorColumn")?,
        machine.read_u8("wCursorRow")?,
    ))
}

/// The press of the control pad that takes the selector from `at` a square towards `to`
/// (along the longer way first, rows on a tie), None when it is there.
pub fn steer_button(at: (u8, u8), to: (u8, u8)) -> Option<Button> {
    let across = i32::from(to.0) - i32::from(at.0);
    let down = i32::from(to.1) - i32::from(at.1);
    match (across, down) {
        (0, 0) => None,
        (a, d) if d.abs() >= a.abs() && d < 0 => Some(Button::Up),
        (a, d) if d.abs() >= a.abs() => Some(Button::Down),
        (a, _) if a < 0 => Some(Button::Left),
        _ => Some(Button::Right),
    }
}

/// How many presses of Right take the promotion question's pointer from its first piece
/// to `role`'s (the pieces from the left in the order of their bits in PromotionCodes,
/// asm/ui/board_screen.asm).
pub fn promotion_presses(machine: &Machine, codes: &RecordCodes, role: Role) -> Result<usize> {
    let bits = codes
        .promotion_bits(role)
        .with_context(|| format!("no promotion to {role:?}"))?;
    let shown = machine.read("PromotionCodes", Role::PROMOTIONS.len())?;
    shown
        .iter()
        .position(|&code| code == bits)
        .with_context(|| format!("PromotionCodes {shown:02X?} holds no {role:?}"))
}

/// The DMG's background palette register (Pan Docs: BGP, $FF47), a hardware address
/// like the harness's LCDC.
const BGP: u16 = 0xFF47;

/// Fails, naming the first square that differs, unless the board the background shows
/// (the tile map's squares and their tiles in VRAM, through BGP: what the screen shows
/// under the selector and the marks, which are objects) is `position`'s, as the art
/// draws it (gfx::cell_picture), no square outlined.
pub fn check_shown_board(
    machine: &Machine,
    art: &Art,
    position: &Position,
    black_bottom: bool,
) -> Result<()> {
    let symbols = machine.symbols();
    let [map, width, board_x, board_y, square_tiles]: [u32; 5] = [
        "TILEMAP0",
        "TILEMAP_WIDTH",
        "BOARD_TILE_X",
        "BOARD_TILE_Y",
        "SQUARE_TILES",
    ]
    .map(|name| symbols.exported(name))
    .into_iter()
    .collect::<Result<Vec<_>>>()?
    .try_into()
    .expect("five names");
    let lcdc = machine.read_u8(u16::try_from(symbols.exported("rLCDC")?)?)?;
    let blocks = lcdc & symbols.exported_as::<u8>("LCDC_BLOCKS")? != 0;
    let palette = machine.read_u8(BGP)?;
    let side = 8 * square_tiles as usize;
    for sq in Square::ALL {
        let (column, row) = place(sq, black_bottom);
        let mut shown = gfx::Sheet::filled("the background", side, side, None);
        for tile_y in 0..square_tiles {
            for tile_x in 0..square_tiles {
                let x = board_x + u32::from(column) * square_tiles + tile_x;
                let y = board_y + u32::from(row) * square_tiles + tile_y;
                let tile = machine.read_u8(u16::try_from(map + y * width + x)?)?;
                // LCDC_BLOCKS: tiles from $8000 by an unsigned index; else from $9000 by
                // a signed one.
                let data = if blocks {
                    0x8000 + 16 * u16::from(tile)
                } else {
                    (0x9000 + 16 * i32::from(tile as i8)) as u16
                };
                let bytes = machine.read(data, 16)?;
                for py in 0..8 {
                    let (low, high) = (bytes[2 * py], bytes[2 * py + 1]);
                    for px in 0..8 {
                        let bit = 7 - px;
                        let colour = (low >> bit & 1) | (high >> bit & 1) << 1;
                        let shade = palette >> (2 * colour) & 3;
                        shown.set(
                            8 * tile_x as usize + px,
                            8 * tile_y as usize + py,
                            Some(shade),
                        );
                    }
                }
            }
        }
        let dark = (sq.file().index() + sq.rank().index()).is_multiple_of(2);
        let want = gfx::cell_picture(
            &art.pieces,
            &art.board,
            cell_content(position.board().piece_at(sq)),
            usize::from(dark),
            false,
        );
        ensure!(
            shown.pixels == want.pixels,
            "the screen's {sq} does not show the model's {} ({})",
            position
                .board()
                .piece_at(sq)
                .map_or("empty square".to_owned(), |piece| format!("{piece:?}")),
            position.to_fen()
        );
    }
    Ok(())
}

/// The cell content of a model piece in the art (gfx::cell_picture): 0 empty, 1-6
/// White's pawn to king, 7-12 Black's.
pub fn cell_content(piece: Option<Piece>) -> usize {
    let Some(piece) = piece else { return 0 };
    let role = match piece.role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    1 + role + if piece.color == Color::White { 0 } else { 6 }
}
