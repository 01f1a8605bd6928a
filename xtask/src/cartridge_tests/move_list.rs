//! The move list (asm/ui/move_list.asm): games played in the model, their moves handed to
//! AppendMoveToList as the game's records (asm/include/game_record.inc), and the panel
//! read back from the tile map must be the model's notation (`engine_src::notation`),
//! entry by entry, laid out one row per entry or two when it is wider than the panel;
//! then scrolling, and a game longer than the list holds.

use engine_src::notation::format_move_list;
use engine_src::{Color, Position, Role, Square};

use super::support::{
    between_updates, boot, call_producer, constant, engine_square, move_list_panel,
    move_list_panel_area, move_list_top, piece_code, record, rows, view,
};
use crate::harness::{Button, Machine};

/// Two games from the start with a capture, an en passant capture (`3...Pc4xb3`,
/// `5...Pd4xe3`), a check (`6.Bc1xa3+`), both sides' castle, and a promotion that mates.
const GAME_WHITE_CASTLES: &str =
    "e2e3 c5c4 b1a3 d6a3 b2b4 c4b3 d1e2 b3a2 e2b5 e6d6 c1a3 d6e6 b5c5 a5a4 e1c1 a2a1q";
const GAME_BLACK_CASTLES: &str =
    "b2b3 d5d4 a2a3 b6a4 b3b4 a4c3 b4a5 d6d5 e2e4 d4e3 c1b2 d5c4 a1a2 c6d5 b2c1 e6c6 a5a6q";

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
        let record = record(machine, &position, &m);
        append(machine, record);
        position = position.play(&m);
        moves.push(m);
        let entries = format_move_list(&Position::start(), &moves).unwrap();
        let rows = rows(machine, &entries);
        let top = rows.len().saturating_sub(height(machine));
        assert_eq!(
            move_list_panel(machine),
            view(machine, &rows, top),
            "the panel after {}",
            entries.last().unwrap()
        );
        assert_eq!(
            move_list_top(machine),
            top,
            "the top row after {}",
            entries.last().unwrap()
        );
    }
    let entries = format_move_list(&Position::start(), &moves).unwrap();
    rows(machine, &entries)
}

/// `rows` padded to the panel's width.
fn padded(machine: &Machine, rows: &[&str]) -> Vec<String> {
    let (_, _, width, _) = move_list_panel_area(machine);
    rows.iter().map(|row| format!("{row:<width$}")).collect()
}

/// The panel's rows (asm/include/layout.inc's MOVE_LIST_HEIGHT).
fn height(machine: &Machine) -> usize {
    move_list_panel_area(machine).3
}

#[test]
fn the_panel_shows_the_models_notation_entry_by_entry_the_newest_at_the_bottom() {
    let mut machine = board();
    assert_eq!(
        move_list_panel(&mut machine),
        view(&machine, &[], 0),
        "a blank panel at the start of a game"
    );
    let rows = play(&mut machine, GAME_WHITE_CASTLES);
    assert_eq!(rows.len(), 24);
    assert_eq!(
        move_list_panel(&mut machine),
        padded(
            &machine,
            &[
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
            ]
        ),
        "the end of the game"
    );
    assert_eq!(machine.read_u8("wMoveListCount").unwrap(), 16);

    machine.assert_no_violations().unwrap();

    let mut machine = board();
    let rows = play(&mut machine, GAME_BLACK_CASTLES);
    assert_eq!(rows.len(), 25);
    assert_eq!(
        move_list_panel(&mut machine)[7..],
        padded(&machine, &["8.Bb2-c1", "8...O-O-O", "9.", "Pa5-a6=Q#"]),
        "the end of the other game: Black's castle on one row, the mate on two"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_list_scrolls_a_row_at_a_time_between_its_ends() {
    let mut machine = board();
    let rows = play(&mut machine, GAME_WHITE_CASTLES);
    let bottom = rows.len() - height(&machine);
    assert_eq!(move_list_top(&machine), bottom);
    // Down at the end: nothing moves, nothing is queued.
    assert_eq!(
        scroll(&mut machine, 1),
        0,
        "scrolling past the end queued rows"
    );
    assert_eq!(move_list_top(&machine), bottom);
    // Up to the first row, one row at a time.
    for expected in (0..bottom).rev() {
        // Every row changes: an entry a row, its header and the panel's width.
        let header: usize = constant(&machine, "VRAM_QUEUE_HEADER_SIZE");
        assert_eq!(
            scroll(&mut machine, -1),
            height(&machine) * (header + move_list_panel_area(&machine).2)
        );
        assert_eq!(move_list_top(&machine), expected);
        assert_eq!(
            move_list_panel(&mut machine),
            view(&machine, &rows, expected),
            "scrolled to row {expected}"
        );
    }
    assert_eq!(
        move_list_panel(&mut machine)[..4],
        padded(&machine, &["1.Pe2-e3", "1...", "Pc5-c4", "2.Nb1-a3"]),
    );
    assert_eq!(
        scroll(&mut machine, -1),
        0,
        "scrolling above the first row queued rows"
    );
    assert_eq!(move_list_top(&machine), 0, "scrolled above the first row");
    // And down again to the end.
    for expected in 1..=bottom {
        scroll(&mut machine, 1);
        assert_eq!(move_list_top(&machine), expected);
        assert_eq!(
            move_list_panel(&mut machine),
            view(&machine, &rows, expected),
            "scrolled to row {expected}"
        );
    }
    scroll(&mut machine, 1);
    assert_eq!(move_list_top(&machine), bottom);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_short_list_does_not_scroll() {
    let mut machine = board();
    let rows = play(&mut machine, "e2e3 c5c4 b1a3");
    assert_eq!(rows.len(), 4);
    for by in [1, -1i8] {
        assert_eq!(scroll(&mut machine, by), 0);
        assert_eq!(move_list_top(&machine), 0);
    }
    assert_eq!(move_list_panel(&mut machine), view(&machine, &rows, 0));
    machine.assert_no_violations().unwrap();
}

/// Past MAX_GAME_MOVES plies the list stops growing: 260 knight moves (the list takes
/// the records as they come, legal or not), of which the list keeps 255, up to
/// `128.Nb1-c3`, its three-digit number on a row of its own.
#[test]
fn the_list_holds_255_plies_and_ignores_more() {
    let mut machine = board();
    let max_game_moves: usize = constant(&machine, "MAX_GAME_MOVES");
    let white = [
        engine_square(Square::B1),
        engine_square(Square::C3),
        piece_code(Some(Role::Knight.of(Color::White))),
        0,
    ];
    let black = [
        engine_square(Square::B6),
        engine_square(Square::C4),
        piece_code(Some(Role::Knight.of(Color::Black))),
        0,
    ];
    let mut entries = Vec::new();
    for ply in 0..260 {
        append(&mut machine, if ply % 2 == 0 { white } else { black });
        if ply < max_game_moves {
            entries.push(if ply % 2 == 0 {
                format!("{}.Nb1-c3", ply / 2 + 1)
            } else {
                format!("{}...Nb6-c4", ply / 2 + 1)
            });
        }
    }
    assert_eq!(
        usize::from(machine.read_u8("wMoveListCount").unwrap()),
        max_game_moves
    );
    let rows = rows(&machine, &entries);
    assert_eq!(move_list_top(&machine), rows.len() - height(&machine));
    let shown = move_list_panel(&mut machine);
    assert_eq!(shown, view(&machine, &rows, rows.len() - height(&machine)));
    assert_eq!(
        shown[7..],
        padded(&machine, &["127...", "Nb6-c4", "128.", "Nb1-c3"])
    );
    // Scrolled all the way up (some 480 rows): the first entries.
    let bottom = move_list_top(&machine);
    for _ in 0..bottom + 2 {
        scroll(&mut machine, -1);
    }
    assert_eq!(move_list_top(&machine), 0);
    assert_eq!(move_list_panel(&mut machine), view(&machine, &rows, 0));
    machine.assert_no_violations().unwrap();
}
