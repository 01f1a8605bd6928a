//! The move list (asm/ui/move_list.asm): games played in the model, their moves handed to
//! AppendMoveToList as the game's records (asm/include/game_record.inc), and the panel
//! read back from the tile map must be the model's notation (`engine_src::notation`),
//! entry by entry, laid out one row per entry or two when it is wider than the panel;
//! then scrolling, and a game longer than the list holds.

use engine_src::notation::format_move_list;
use engine_src::{Color, Move, MoveKind, Position, Role, Square};

use super::home::{call_producer, drain};
use super::{boot, tile_text};
use crate::harness::{Button, Machine, CYCLES_PER_FRAME};

/// The panel of the board screen (asm/include/layout.inc).
const MOVE_LIST_X: u16 = 11;
const MOVE_LIST_Y: u16 = 1;
const MOVE_LIST_WIDTH: usize = 9;
pub(super) const MOVE_LIST_HEIGHT: usize = 11;
/// `MAX_GAME_MOVES` of asm/include/game_record.inc.
const MAX_GAME_MOVES: usize = 255;

/// Two games from the start with a capture, an en passant capture (`3...Pc4xb3`,
/// `5...Pd4xe3`), a check (`6.Bc1xa3+`), both sides' castle, and a promotion that mates.
const GAME_WHITE_CASTLES: &str =
    "e2e3 c5c4 b1a3 d6a3 b2b4 c4b3 d1e2 b3a2 e2b5 e6d6 c1a3 d6e6 b5c5 a5a4 e1c1 a2a1q";
const GAME_BLACK_CASTLES: &str =
    "b2b3 d5d4 a2a3 b6a4 b3b4 a4c3 b4a5 d6d5 e2e4 d4e3 c1b2 d5c4 a1a2 c6d5 b2c1 e6c6 a5a6q";

/// The engine's square (asm/engine/engine.inc): (2 + rank) * 16 + file.
fn engine_square(square: Square) -> u8 {
    (2 + square.rank() as u8) * 16 + square.file() as u8
}

/// A move's record as the game hands it to AppendMoveToList: from square, to byte (with
/// the promotion bits), the moving piece's code, MOVE_FLAG_*.
pub(super) fn record(position: &Position, m: &Move) -> [u8; 4] {
    let role_code = |role| match role {
        Role::Bishop => 0b0001,
        Role::Rook => 0b0010,
        Role::Queen => 0b0011,
        Role::Pawn => 0b0100,
        Role::Knight => 0b1000,
        Role::King => 0b1100,
    };
    let promotion_bits = match m.promotion {
        None | Some(Role::Queen) => 0,
        Some(Role::Rook) => 0b0000_1000,
        Some(Role::Bishop) => 0b1000_0000,
        Some(_) => 0b1000_1000,
    };
    let color = match position.turn() {
        Color::White => 0x10,
        Color::Black => 0x20,
    };
    let after = position.play(m);
    let flag = |set: bool, bit: u8| if set { 1 << bit } else { 0 };
    let flags = flag(m.is_capture(), 0)
        | flag(m.is_promotion(), 1)
        | flag(m.kind == MoveKind::Castle, 2)
        | flag(m.kind == MoveKind::EnPassant, 3)
        | flag(after.is_check(), 4)
        | flag(after.is_checkmate(), 5);
    [
        engine_square(m.from),
        engine_square(m.to) | promotion_bits,
        role_code(m.role) | color,
        flags,
    ]
}

/// The list's rows for `entries`: an entry as one row when it fits the panel, else its
/// number with its dots on one row and the move on the next.
pub(super) fn rows(entries: &[String]) -> Vec<String> {
    let mut rows = Vec::new();
    for entry in entries {
        if entry.len() <= MOVE_LIST_WIDTH {
            rows.push(entry.clone());
        } else {
            let split = entry
                .find(|c: char| !c.is_ascii_digit() && c != '.')
                .unwrap();
            rows.push(entry[..split].to_owned());
            rows.push(entry[split..].to_owned());
        }
    }
    rows
}

/// What the panel should show from the list's row `top`: MOVE_LIST_HEIGHT rows, blank
/// past the list's end, each padded with blanks to the panel's width.
pub(super) fn view(rows: &[String], top: usize) -> Vec<String> {
    (top..top + MOVE_LIST_HEIGHT)
        .map(|i| format!("{:<MOVE_LIST_WIDTH$}", rows.get(i).map_or("", |row| row)))
        .collect()
}

/// The panel as the tile map shows it, once the VRAM queue has copied everything.
pub(super) fn panel(machine: &mut Machine) -> Vec<String> {
    drain(machine, 8);
    (0..MOVE_LIST_HEIGHT as u16)
        .map(|row| tile_text(machine, MOVE_LIST_X, MOVE_LIST_Y + row, MOVE_LIST_WIDTH))
        .collect()
}

pub(super) fn top(machine: &Machine) -> usize {
    usize::from(machine.read_u16("wMoveListTop").unwrap())
}

/// The board screen at the start of a game (TWO PLAYERS, so that no engine moves), between
/// two updates, the list empty.
fn board() -> Machine {
    let mut machine = boot(10);
    for button in [Button::Start, Button::Up, Button::A] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    machine.run_frames(8).unwrap();
    between_updates(&mut machine);
    assert_eq!(machine.read_u8("wMoveListCount").unwrap(), 0);
    machine
}

/// Scrolls the list by `by` rows between two updates; gives the bytes ScrollMoveList
/// queued (what the VRAM queue's write index moved by: the screen's own changes, a
/// clock's second, are queued by its update, not during the call).
fn scroll(machine: &mut Machine, by: i8) -> usize {
    between_updates(machine);
    let before = machine.read_u8("hVramQueueWrite").unwrap();
    call_producer(machine, "ScrollMoveList", by as u8, 0, 0, 0);
    usize::from(
        machine
            .read_u8("hVramQueueWrite")
            .unwrap()
            .wrapping_sub(before),
    )
}

/// Runs to the main loop's point between two screen updates. An update that fills the
/// VRAM queue waits for room there, a VBlank's worth a frame: up to 16 frames.
pub(super) fn between_updates(machine: &mut Machine) {
    machine
        .run_until("RunScreens.frame", 16 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
}

/// Hands a record to AppendMoveToList (from a scratch buffer the routine copies first).
fn append(machine: &mut Machine, record: [u8; 4]) {
    between_updates(machine);
    let scratch = machine.symbol("wMoveListLine").unwrap();
    machine.write(scratch, &record).unwrap();
    call_producer(machine, "AppendMoveToList", 0, 0, 0, scratch);
}

/// Plays `game` (UCI moves from the start) into the list, checking the panel after every
/// move against the model's move list; gives the list's rows.
fn play(machine: &mut Machine, game: &str) -> Vec<String> {
    let mut position = Position::start();
    let mut moves = Vec::new();
    for uci in game.split(' ') {
        let m = position.parse_uci(uci).unwrap();
        append(machine, record(&position, &m));
        position = position.play(&m);
        moves.push(m);
        let entries = format_move_list(&Position::start(), &moves).unwrap();
        let rows = rows(&entries);
        let top = rows.len().saturating_sub(MOVE_LIST_HEIGHT);
        assert_eq!(
            panel(machine),
            view(&rows, top),
            "the panel after {}",
            entries.last().unwrap()
        );
        assert_eq!(
            self::top(machine),
            top,
            "the top row after {}",
            entries.last().unwrap()
        );
    }
    let entries = format_move_list(&Position::start(), &moves).unwrap();
    rows(&entries)
}

/// `rows` padded to the panel's width.
fn padded(rows: &[&str]) -> Vec<String> {
    rows.iter()
        .map(|row| format!("{row:<MOVE_LIST_WIDTH$}"))
        .collect()
}

#[test]
fn the_panel_shows_the_models_notation_entry_by_entry_the_newest_at_the_bottom() {
    let mut machine = board();
    assert_eq!(
        panel(&mut machine),
        view(&[], 0),
        "a blank panel at the start of a game"
    );
    let rows = play(&mut machine, GAME_WHITE_CASTLES);
    assert_eq!(rows.len(), 24);
    assert_eq!(
        panel(&mut machine),
        padded(&[
            "5...",
            "Ke6-d6",
            "6.Bc1xa3+",
            "6...",
            "Kd6-e6",
            "7.Qb5-c5",
            "7...",
            "Pa5-a4",
            "8.O-O-O",
            "8...",
            "Pa2-a1=Q#",
        ]),
        "the end of the game"
    );
    assert_eq!(machine.read_u8("wMoveListCount").unwrap(), 16);

    machine.assert_no_violations().unwrap();

    let mut machine = board();
    let rows = play(&mut machine, GAME_BLACK_CASTLES);
    assert_eq!(rows.len(), 25);
    assert_eq!(
        panel(&mut machine)[7..],
        padded(&["8.Bb2-c1", "8...O-O-O", "9.", "Pa5-a6=Q#"]),
        "the end of the other game: Black's castle on one row, the mate on two"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_list_scrolls_a_row_at_a_time_between_its_ends() {
    let mut machine = board();
    let rows = play(&mut machine, GAME_WHITE_CASTLES);
    let bottom = rows.len() - MOVE_LIST_HEIGHT;
    assert_eq!(top(&machine), bottom);
    // Down at the end: nothing moves, nothing is queued.
    assert_eq!(
        scroll(&mut machine, 1),
        0,
        "scrolling past the end queued rows"
    );
    assert_eq!(top(&machine), bottom);
    // Up to the first row, one row at a time.
    for expected in (0..bottom).rev() {
        // Every row changes: 11 entries of 3 + 9 bytes.
        assert_eq!(
            scroll(&mut machine, -1),
            MOVE_LIST_HEIGHT * (3 + MOVE_LIST_WIDTH)
        );
        assert_eq!(top(&machine), expected);
        assert_eq!(
            panel(&mut machine),
            view(&rows, expected),
            "scrolled to row {expected}"
        );
    }
    assert_eq!(
        panel(&mut machine)[..4],
        padded(&["1.Pe2-e3", "1...", "Pc5-c4", "2.Nb1-a3"]),
    );
    assert_eq!(
        scroll(&mut machine, -1),
        0,
        "scrolling above the first row queued rows"
    );
    assert_eq!(top(&machine), 0, "scrolled above the first row");
    // And down again to the end.
    for expected in 1..=bottom {
        scroll(&mut machine, 1);
        assert_eq!(top(&machine), expected);
        assert_eq!(
            panel(&mut machine),
            view(&rows, expected),
            "scrolled to row {expected}"
        );
    }
    scroll(&mut machine, 1);
    assert_eq!(top(&machine), bottom);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_short_list_does_not_scroll() {
    let mut machine = board();
    let rows = play(&mut machine, "e2e3 c5c4 b1a3");
    assert_eq!(rows.len(), 4);
    for by in [1, -1i8] {
        assert_eq!(scroll(&mut machine, by), 0);
        assert_eq!(top(&machine), 0);
    }
    assert_eq!(panel(&mut machine), view(&rows, 0));
    machine.assert_no_violations().unwrap();
}

/// Past MAX_GAME_MOVES plies the list stops growing: 260 knight moves (the list takes
/// the records as they come, legal or not), of which the list keeps 255, up to
/// `128.Nb1-c3`, its three-digit number on a row of its own.
#[test]
fn the_list_holds_255_plies_and_ignores_more() {
    let mut machine = board();
    let white = [
        engine_square(Square::B1),
        engine_square(Square::C3),
        0x18,
        0,
    ];
    let black = [
        engine_square(Square::B6),
        engine_square(Square::C4),
        0x28,
        0,
    ];
    let mut entries = Vec::new();
    for ply in 0..260 {
        append(&mut machine, if ply % 2 == 0 { white } else { black });
        if ply < MAX_GAME_MOVES {
            entries.push(if ply % 2 == 0 {
                format!("{}.Nb1-c3", ply / 2 + 1)
            } else {
                format!("{}...Nb6-c4", ply / 2 + 1)
            });
        }
    }
    assert_eq!(
        usize::from(machine.read_u8("wMoveListCount").unwrap()),
        MAX_GAME_MOVES
    );
    let rows = rows(&entries);
    assert_eq!(top(&machine), rows.len() - MOVE_LIST_HEIGHT);
    let shown = panel(&mut machine);
    assert_eq!(shown, view(&rows, rows.len() - MOVE_LIST_HEIGHT));
    assert_eq!(shown[7..], padded(&["127...", "Nb6-c4", "128.", "Nb1-c3"]));
    // Scrolled all the way up (some 480 rows): the first entries.
    let bottom = top(&machine);
    for _ in 0..bottom + 2 {
        scroll(&mut machine, -1);
    }
    assert_eq!(top(&machine), 0);
    assert_eq!(panel(&mut machine), view(&rows, 0));
    machine.assert_no_violations().unwrap();
}
