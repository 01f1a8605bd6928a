//! The game on the board screen, played through the joypad: picking up a piece and its
//! outlined destinations, moves (castling, en passant, promotion) against the reference
//! model's position, putting a piece back, the board turned round for Black, the pause
//! menu and the endings' words.

use engine_src::{Color, Game, Move, Piece, Position, Role, Square};

use super::boot;
use super::move_list;
use super::screens::{art, screen_area, text_picture, BOARD_LEFT, SQUARE};
use crate::assets::gfx;
use crate::harness::{Button, Machine};

/// `wGameMode` (asm/include/game.inc).
pub(super) const GAME_MODE_WHITE: u8 = 0;
pub(super) const GAME_MODE_BLACK: u8 = 1;
pub(super) const GAME_MODE_TWO_PLAYERS: u8 = 2;

/// The board screen's and the first option page's numbers (asm/include/screens.inc).
pub(super) const SCREEN_MODE_PAGE: u8 = 1;
pub(super) const SCREEN_BOARD: u8 = 3;

/// `wGameState` (asm/include/game_state.inc).
pub(super) const STATE_HUMAN: u8 = 0;
pub(super) const STATE_PICKED: u8 = 1;
pub(super) const STATE_PROMOTION: u8 = 2;
pub(super) const STATE_ENGINE: u8 = 3;
pub(super) const STATE_MENU: u8 = 4;
pub(super) const STATE_DRAW_ANSWER: u8 = 5;
pub(super) const STATE_OVER: u8 = 6;

/// `wEnding` (asm/include/game_state.inc).
pub(super) const ENDING_CHECKMATE: u8 = 1;
pub(super) const ENDING_STALEMATE: u8 = 2;
pub(super) const ENDING_INSUFFICIENT_MATERIAL: u8 = 3;
pub(super) const ENDING_FIFTY_MOVES: u8 = 4;
pub(super) const ENDING_REPETITION: u8 = 5;
const ENDING_TIME: u8 = 6;
pub(super) const ENDING_RESIGNED: u8 = 7;
const ENDING_AGREEMENT: u8 = 8;

/// `wWinner` of a draw: `NO_WINNER` (asm/include/game_state.inc).
pub(super) const NO_WINNER: u8 = 2;

/// The levels' numbers in `wGameLevel` (asm/include/game.inc).
pub(super) const LEVEL_EASY: u8 = 0;
pub(super) const LEVEL_MEDIUM: u8 = 1;

/// The move records' flags (asm/include/game_record.inc).
pub(super) const MOVE_FLAG_CAPTURE: u8 = 1;
pub(super) const MOVE_FLAG_PROMOTION: u8 = 2;
pub(super) const MOVE_FLAG_CASTLE: u8 = 4;
pub(super) const MOVE_FLAG_EN_PASSANT: u8 = 8;
pub(super) const MOVE_FLAG_CHECK: u8 = 16;
pub(super) const MOVE_FLAG_MATE: u8 = 32;

/// The tile rows of the status line and of the pause menu (asm/include/layout.inc).
pub(super) const STATUS_ROW: usize = 14;
pub(super) const MENU_ROW: usize = 12;

/// LCDC's window bit.
pub(super) const LCDC_WINDOW: u8 = 0x20;

// The engine's squares and piece codes and the move list's records, shared with
// `cargo xtask soak`.
pub(super) use crate::soak::cartridge::{engine_square, records};

/// The cell content of a model piece in the art: 0 empty, 1-6 White's, 7-12 Black's.
fn cell_content(piece: Option<Piece>) -> usize {
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

pub(super) fn square(name: &str) -> Square {
    Square::from_ascii(name.as_bytes()).unwrap_or_else(|| panic!("no square {name}"))
}

/// Where a square is on the screen, as (column, row) of squares from the top left.
pub(super) fn place(square: Square, black_bottom: bool) -> (u8, u8) {
    let (file, rank) = (square.file().index() as u8, square.rank().index() as u8);
    if black_bottom {
        (4 - file, rank)
    } else {
        (file, 5 - rank)
    }
}

/// The cartridge on the board screen, a new game in `mode` (at EASY against the
/// engine).
pub(super) fn game(mode: u8) -> Machine {
    game_at(mode, LEVEL_EASY)
}

/// The cartridge on the board screen, a new game in `mode` at `level`: START on the
/// title, then A on the option pages, which open at the values wGameMode and
/// wGameLevel hold.
pub(super) fn game_at(mode: u8, level: u8) -> Machine {
    let mut machine = boot(10);
    machine.write_u8("wGameMode", mode).unwrap();
    machine.write_u8("wGameLevel", level).unwrap();
    let pages = if mode == GAME_MODE_TWO_PLAYERS { 1 } else { 2 };
    machine.tap(Button::Start, 2).unwrap();
    machine.run_frames(4).unwrap();
    for _ in 0..pages {
        machine.tap(Button::A, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    // The set-up queues the status line, the clocks and the blank move list, which
    // the VBlanks copy over the first frames.
    machine.run_frames(8).unwrap();
    assert_eq!(machine.read_u8("wCurrentScreen").unwrap(), SCREEN_BOARD);
    machine
}

/// One press: two frames down, then four frames for the screen to follow.
pub(super) fn press(machine: &mut Machine, button: Button) {
    machine.tap(button, 2).unwrap();
    machine.run_frames(4).unwrap();
}

pub(super) fn cursor(machine: &Machine) -> (u8, u8) {
    (
        machine.read_u8("wCursorColumn").unwrap(),
        machine.read_u8("wCursorRow").unwrap(),
    )
}

pub(super) fn state(machine: &Machine) -> u8 {
    machine.read_u8("wGameState").unwrap()
}

/// Runs frames until a player is to move (the engine has moved); the frames it took.
pub(super) fn wait_for_human(machine: &mut Machine) -> u32 {
    for frame in 0..3000 {
        if state(machine) == STATE_HUMAN {
            return frame;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine did not move within 3,000 frames");
}

/// Presses the control pad towards `to` (along the longer way first, rows on a tie)
/// until the selector is there.
pub(super) fn steer(machine: &mut Machine, to: (u8, u8), what: &str) {
    for _ in 0..12 {
        let (column, row) = cursor(machine);
        let across = i32::from(to.0) - i32::from(column);
        let down = i32::from(to.1) - i32::from(row);
        let button = match (across, down) {
            (0, 0) => return,
            (a, d) if d.abs() >= a.abs() && d < 0 => Button::Up,
            (a, d) if d.abs() >= a.abs() => Button::Down,
            (a, _) if a < 0 => Button::Left,
            _ => Button::Right,
        };
        press(machine, button);
    }
    panic!(
        "the selector did not reach {to:?} for {what}: it is at {:?}",
        cursor(machine)
    );
}

/// Picks up the piece on `from` with the joypad.
pub(super) fn pick_up(machine: &mut Machine, from: Square, black_bottom: bool) {
    steer(
        machine,
        place(from, black_bottom),
        &format!("picking up on {from}"),
    );
    press(machine, Button::A);
}

/// Plays `uci` with the joypad (picking up, going to the square, A, the promotion's
/// piece) and returns the position after it, checking that it is legal.
pub(super) fn play(
    machine: &mut Machine,
    position: &Position,
    uci: &str,
    black_bottom: bool,
) -> Position {
    let m = choose_move(machine, position, uci, black_bottom);
    press(machine, Button::A);
    position.play(&m)
}

/// Everything of [`play`] but its last press of A (which plays the move): the piece
/// picked up, the selector on its square, and for a promotion the question's pointer
/// on the piece; gives the move, checked legal.
pub(super) fn choose_move(
    machine: &mut Machine,
    position: &Position,
    uci: &str,
    black_bottom: bool,
) -> Move {
    let m: Move = position
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
    assert!(
        position.is_legal(&m),
        "{uci} is not legal in {}",
        position.to_fen()
    );
    pick_up(machine, m.from, black_bottom);
    assert_eq!(
        state(machine),
        STATE_PICKED,
        "{uci}: the piece was not picked up"
    );
    steer(machine, place(m.to, black_bottom), uci);
    if let Some(role) = m.promotion {
        press(machine, Button::A);
        assert_eq!(
            state(machine),
            STATE_PROMOTION,
            "{uci}: no promotion question"
        );
        let rights = match role {
            Role::Queen => 0,
            Role::Rook => 1,
            Role::Bishop => 2,
            _ => 3,
        };
        for _ in 0..rights {
            press(machine, Button::Right);
        }
    }
    m
}

/// wBoard and the side to move are `position`'s.
pub(super) fn assert_board_is(machine: &Machine, position: &Position, context: &str) {
    if let Err(error) = crate::soak::cartridge::check_board(machine, position) {
        panic!("{context}: {error:#}");
    }
}

/// The screen shows `position`'s pieces, `outlined` squares outlined (the selector and the
/// marks are left out: only squares without them are compared).
fn assert_screen_shows(
    machine: &Machine,
    position: &Position,
    outlined: &[Square],
    black_bottom: bool,
    skip: &[Square],
) {
    let art = art();
    for index in 0..30 {
        let sq = Square::new(index).unwrap();
        if skip.contains(&sq) {
            continue;
        }
        let content = cell_content(position.board().piece_at(sq));
        let dark = (sq.file().index() + sq.rank().index()).is_multiple_of(2);
        let want = gfx::cell_picture(
            &art.pieces,
            &art.board,
            content,
            usize::from(dark),
            outlined.contains(&sq),
        );
        let (column, row) = place(sq, black_bottom);
        let shown = screen_area(
            machine,
            BOARD_LEFT + usize::from(column) * SQUARE,
            usize::from(row) * SQUARE,
            SQUARE,
            SQUARE,
        );
        assert!(
            shown.pixels == want.pixels,
            "{sq} does not show content {content}{}",
            if outlined.contains(&sq) {
                ", outlined"
            } else {
                ""
            }
        );
    }
}

/// Every character of the font (assets/font.png).
const FONT_CHARS: &str = " ABCDEFGHIJKLMNOPQRSTUVWXYZ.-x+#0123456789=:/!?>abcde(),'";

/// The text on a row of the screen, `columns` tiles from column `left`: each tile read as
/// the font's glyph it shows (`~` for a tile that is none), trailing blanks dropped.
fn text_on_screen(machine: &Machine, left: usize, row: usize, columns: usize) -> String {
    let art = art();
    let text: String = (left..left + columns)
        .map(|column| {
            let tile = screen_area(machine, column * 8, row * 8, 8, 8);
            FONT_CHARS
                .chars()
                .find(|&ch| text_picture(&art, &ch.to_string()).pixels == tile.pixels)
                .unwrap_or('~')
        })
        .collect();
    text.trim_end().to_owned()
}

/// The text on a row of the screen, `columns` wide from column `left`, is `text`
/// (then blanks).
pub(super) fn assert_text_at(
    machine: &Machine,
    left: usize,
    row: usize,
    text: &str,
    columns: usize,
) {
    assert_eq!(
        text_on_screen(machine, left, row, columns),
        text,
        "the text on row {row} from column {left}"
    );
}

/// The status line's four rows read `rows`.
pub(super) fn assert_status(machine: &Machine, rows: [&str; 4]) {
    for (i, text) in rows.iter().enumerate() {
        assert_text_at(machine, 0, STATUS_ROW + i, text, 20);
    }
}

#[test]
fn the_board_screen_starts_with_white_to_move_and_the_start_position() {
    let machine = game(GAME_MODE_TWO_PLAYERS);
    let start = Position::start();
    assert_board_is(&machine, &start, "a new game");
    assert_eq!(state(&machine), STATE_HUMAN);
    assert_screen_shows(&machine, &start, &[], false, &[square("a1")]);
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_picks_up_a_knight_and_outlines_its_two_squares_and_b_puts_it_back() {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    let start = Position::start();
    pick_up(&mut machine, square("b1"), false);
    assert_eq!(state(&machine), STATE_PICKED);
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0x21, "b1");
    let mut outlines = machine.read("wOutlines", 2).unwrap();
    outlines.sort();
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 2);
    assert_eq!(outlines, [0x40, 0x42], "a3 and c3");
    let skip = [square("b1")];
    assert_screen_shows(
        &machine,
        &start,
        &[square("a3"), square("c3")],
        false,
        &skip,
    );
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), STATE_HUMAN);
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0);
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0);
    assert_board_is(&machine, &start, "after B");
    assert_screen_shows(&machine, &start, &[], false, &skip);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_piece_without_a_legal_move_is_not_picked_up_and_buzzes() {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    machine.start_apu_log();
    // The selector starts on a1: the rook there has no move.
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), STATE_HUMAN);
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0);
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0);
    // SFX_ERROR's first note: pulse 1 at 131 Hz, period 2048 - 131072 / 131 = 0x418.
    let writes = machine.take_apu_log();
    let low = writes.iter().any(|w| w.addr == 0xFF13 && w.value == 0x18);
    let high = writes.iter().any(|w| w.addr == 0xFF14 && w.value == 0x84);
    assert!(low && high, "no error sound on pulse 1");
    // An empty square does nothing either.
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), STATE_HUMAN);
    assert_board_is(&machine, &Position::start(), "after the refusals");
    machine.assert_no_violations().unwrap();
}

#[test]
fn moves_through_the_joypad_play_as_the_model_with_en_passant_and_castling() {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    let mut position = Position::start();
    // White's pawn on b3 takes the c-pawn's double step en passant; then White clears
    // b1, c1, d1 and castles.
    let moves = [
        "b2b3", "c5c3", "b3c4", "a5a4", "b1a3", "e5e4", "c2c3", "d5d4", "c1b2", "b6c4", "d1c2",
        "c4a3", "e1c1",
    ];
    for uci in moves {
        position = play(&mut machine, &position, uci, false);
        machine.run_frames(4).unwrap();
        assert_board_is(&machine, &position, uci);
    }
    let records = records(&machine);
    assert_eq!(records.len(), moves.len());
    // b3xc4 en passant: a White pawn from b3 to c4, a capture.
    assert_eq!(
        records[2],
        [0x41, 0x52, 0x14, MOVE_FLAG_CAPTURE | MOVE_FLAG_EN_PASSANT]
    );
    // Nc4xa3: a Black knight takes on a3.
    assert_eq!(records[11], [0x52, 0x40, 0x28, MOVE_FLAG_CAPTURE]);
    // The castle: the White king from e1 to c1.
    assert_eq!(records[12], [0x24, 0x22, 0x1C, MOVE_FLAG_CASTLE]);
    // The last move's marks: e1 and c1.
    assert_eq!(machine.read_u8("wLastMoveFrom").unwrap(), 0x24);
    assert_eq!(machine.read_u8("wLastMoveTo").unwrap(), 0x22);
    let skip = [square("e1"), square("c1")];
    assert_screen_shows(&machine, &position, &[], false, &skip);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // The move list: White's entries take a row, Black's two (the number, then the
    // move): 7 + 2 * 6 = 19 rows, the last 11 in the panel.
    let start = Position::start();
    let played: Vec<Move> = {
        let mut p = start;
        moves
            .iter()
            .map(|uci| {
                let m = p.parse_uci(uci).unwrap();
                p = p.play(&m);
                m
            })
            .collect()
    };
    let entries = engine_src::notation::format_move_list(&start, &played).unwrap();
    let rows = move_list::rows(&entries);
    assert_eq!(rows.len(), 19);
    assert_eq!(panel(&machine), rows[8..]);
    // Black resigns (in a two-player game the side to move does); at the end the list
    // scrolls, within its ends.
    resign(&mut machine, Button::Start);
    assert_status(&machine, ["RESIGNED", "WHITE WINS", "", "A: NEW GAME"]);
    for _ in 0..3 {
        press(&mut machine, Button::Up);
    }
    assert_eq!(machine.read_u16("wMoveListTop").unwrap(), 5);
    assert_eq!(panel(&machine), rows[5..16]);
    for _ in 0..5 {
        press(&mut machine, Button::Down);
    }
    assert_eq!(
        machine.read_u16("wMoveListTop").unwrap(),
        8,
        "scrolled past the end"
    );
    assert_eq!(panel(&machine), rows[8..]);
    machine.assert_no_violations().unwrap();
}

/// The move list's 11 rows in the panel (asm/include/layout.inc).
fn panel(machine: &Machine) -> Vec<String> {
    (1..12)
        .map(|row| text_on_screen(machine, 11, row, 9))
        .collect()
}

/// A two-player game where White's pawn on b5 has been taken to a6, which promotes: the
/// promotion question is asked. Gives the position (before the promotion).
pub(super) fn promotion_question() -> (Machine, Position) {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    let mut position = Position::start();
    for uci in ["a2a3", "b5b4", "a3b4", "c5c4", "b4b5", "d5d4"] {
        position = play(&mut machine, &position, uci, false);
    }
    pick_up(&mut machine, square("b5"), false);
    steer(&mut machine, place(square("a6"), false), "b5a6");
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), STATE_PROMOTION);
    (machine, position)
}

/// Each of the four pieces a pawn may become, chosen in the question with the joypad:
/// the board, the record and the move list's last entry are the model's.
#[test]
fn every_promotion_piece_is_chosen_through_the_joypad() {
    for (uci, entry) in [
        ("b5a6q", "Pb5xa6=Q"),
        ("b5a6r", "Pb5xa6=R"),
        ("b5a6b", "Pb5xa6=B"),
        ("b5a6n", "Pb5xa6=N"),
    ] {
        let mut machine = game(GAME_MODE_TWO_PLAYERS);
        let mut model = Game::new(Position::start());
        for played in ["a2a3", "b5b4", "a3b4", "c5c4", "b4b5", "d5d4", uci] {
            let m = model.position().parse_uci(played).unwrap();
            play(&mut machine, model.position(), played, false);
            model.play(m).unwrap();
        }
        machine.run_frames(8).unwrap();
        assert_board_is(&machine, model.position(), uci);
        assert_eq!(records(&machine).len(), 7, "{uci}: the records");
        let rows = move_list::rows(&model.move_list().unwrap());
        assert_eq!(rows.last().map(String::as_str), Some(entry), "{uci}");
        let bottom = rows.len().saturating_sub(move_list::MOVE_LIST_HEIGHT);
        assert_eq!(
            move_list::panel(&mut machine),
            move_list::view(&rows, bottom),
            "{uci}: the move list"
        );
        assert_eq!(state(&machine), STATE_HUMAN, "{uci}: Black is to move");
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn a_promotion_asks_which_piece_and_b_goes_back() {
    // b5xa6: the question, then B, then A again on a6 and the knight.
    let (mut machine, mut position) = promotion_question();
    // The pointer (the glyph >) is left of Q.
    assert_text_at(&machine, 0, STATUS_ROW + 1, "PROMOTE TO:>Q R B N", 20);
    // The pointer is left of Q (column 11), on the status line's second row.
    let pointer = machine.read("wShadowOAM", 68).unwrap();
    assert_eq!(
        &pointer[64..66],
        &[(16 + (STATUS_ROW + 1) * 8) as u8, 8 + 11 * 8]
    );
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), STATE_PICKED);
    assert_board_is(&machine, &position, "after B in the question");
    press(&mut machine, Button::A);
    for _ in 0..5 {
        press(&mut machine, Button::Right);
    }
    // Right stops at N.
    let pointer = machine.read("wShadowOAM", 68).unwrap();
    assert_eq!(pointer[65], 8 + 17 * 8);
    press(&mut machine, Button::A);
    let m = position.parse_uci("b5a6n").unwrap();
    position = position.play(&m);
    machine.run_frames(4).unwrap();
    assert_board_is(&machine, &position, "b5xa6=N");
    let last = *records(&machine).last().unwrap();
    // The to byte is a6 with the knight's promotion bits (%10001000).
    assert_eq!(
        last,
        [
            0x61,
            0x70 | 0x88,
            0x14,
            MOVE_FLAG_CAPTURE | MOVE_FLAG_PROMOTION
        ]
    );
    assert_eq!(state(&machine), STATE_HUMAN);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_board_turns_round_when_the_human_plays_black_and_the_engine_moves_first() {
    let mut machine = game(GAME_MODE_BLACK);
    wait_for_human(&mut machine);
    machine.run_frames(6).unwrap();
    assert_eq!(machine.read_u8("wBoardBottomColor").unwrap(), 1);
    // The engine (White) has played one move; the board is the model's after it.
    let first = records(&machine);
    assert_eq!(first.len(), 1, "the engine did not move first");
    let start = Position::start();
    let [from, to, _, _] = first[0];
    let name = |s: u8| format!("{}{}", char::from(b'a' + (s & 15)), (s >> 4) - 1);
    let uci = format!("{}{}", name(from), name(to));
    let position = start.play(&start.parse_uci(&uci).unwrap());
    assert_board_is(&machine, &position, &uci);
    assert_eq!(state(&machine), STATE_HUMAN);
    // The selector is at the bottom left: e6.
    let skip = [square(&name(from)), square(&name(to)), square("e6")];
    assert_screen_shows(&machine, &position, &[], true, &skip);
    // The labels run the other way: rank 1 at the top, file e at the left.
    let art = art();
    for (i, digit) in "123456".chars().enumerate() {
        let label = screen_area(&machine, 0, i * SQUARE, 8, 8);
        assert_eq!(label.pixels, text_picture(&art, &digit.to_string()).pixels);
    }
    assert_text_at(&machine, 1, 12, "e d c b a", 10);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // Black's move through the joypad on the turned board, and the engine answers.
    play(&mut machine, &position, "e5e4", true);
    wait_for_human(&mut machine);
    machine.run_frames(6).unwrap();
    assert_eq!(records(&machine)[1][0], engine_square(square("e5")));
    assert_eq!(records(&machine).len(), 3, "the engine did not answer");
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_pause_menu_shows_its_items_and_turns_the_music_off() {
    let mut machine = game(GAME_MODE_WHITE);
    press(&mut machine, Button::Start);
    assert_eq!(state(&machine), STATE_MENU);
    assert_ne!(
        machine.read_u8(0xFF40u16).unwrap() & LCDC_WINDOW,
        0,
        "no window"
    );
    for (i, item) in ["RESUME", "OFFER DRAW", "RESIGN", "NEW GAME", "MUSIC ON"]
        .iter()
        .enumerate()
    {
        assert_text_at(&machine, 2, MENU_ROW + i, item, 11);
    }
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 1);
    for _ in 0..4 {
        press(&mut machine, Button::Down);
    }
    press(&mut machine, Button::A);
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 0);
    assert_text_at(&machine, 2, MENU_ROW + 4, "MUSIC OFF", 11);
    // Offer a draw: the engine has no reason to take it.
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    press(&mut machine, Button::A);
    assert_text_at(&machine, 0, MENU_ROW + 5, "DRAW DECLINED", 20);
    assert_eq!(state(&machine), STATE_MENU);
    // B resumes: the window goes, the game goes on.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), STATE_HUMAN);
    assert_eq!(
        machine.read_u8(0xFF40u16).unwrap() & LCDC_WINDOW,
        0,
        "the window stayed"
    );
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    machine.assert_no_violations().unwrap();
}

/// The player to move resigns through the pause menu, opened with `opens` (START or
/// SELECT): two items down to RESIGN, A; the game is over.
pub(super) fn resign(machine: &mut Machine, opens: Button) {
    press(machine, opens);
    press(machine, Button::Down);
    press(machine, Button::Down);
    press(machine, Button::A);
    machine.run_frames(4).unwrap();
    assert_eq!(state(machine), STATE_OVER, "no resignation");
}

#[test]
fn resigning_ends_the_game_in_words_and_a_starts_a_new_one() {
    let mut machine = game(GAME_MODE_WHITE);
    resign(&mut machine, Button::Select);
    assert_eq!(machine.read_u8("wEnding").unwrap(), ENDING_RESIGNED);
    assert_eq!(machine.read_u8("wWinner").unwrap(), 1, "Black wins");
    assert_status(&machine, ["RESIGNED", "BLACK WINS", "", "A: NEW GAME"]);
    assert_eq!(machine.read_u8(0xFF40u16).unwrap() & LCDC_WINDOW, 0);
    // The board no longer takes moves; A leaves for a new game.
    press(&mut machine, Button::A);
    machine.run_frames(4).unwrap();
    assert_eq!(machine.read_u8("hGameLive").unwrap(), 0);
    assert_eq!(
        machine.read_u8("wCurrentScreen").unwrap(),
        SCREEN_MODE_PAGE,
        "A did not go to the option pages"
    );
    machine.assert_no_violations().unwrap();
}

/// A new game between two players in which White has offered a draw (the pause menu's
/// OFFER DRAW): the question waits for Black's answer, its pointer (the glyph >) at NO.
pub(super) fn draw_offered() -> Machine {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    press(&mut machine, Button::Start);
    press(&mut machine, Button::Down);
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), STATE_DRAW_ANSWER);
    assert_text_at(&machine, 0, MENU_ROW + 5, "ACCEPT DRAW? YES>NO", 20);
    machine
}

#[test]
fn two_players_agree_a_draw_when_the_other_says_yes() {
    let mut machine = draw_offered();
    // NO is chosen first; B is NO too.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), STATE_MENU);
    press(&mut machine, Button::A);
    press(&mut machine, Button::Left);
    press(&mut machine, Button::A);
    machine.run_frames(4).unwrap();
    assert_eq!(state(&machine), STATE_OVER);
    assert_eq!(machine.read_u8("wEnding").unwrap(), ENDING_AGREEMENT);
    assert_status(&machine, ["DRAW BY AGREEMENT", "", "", "A: NEW GAME"]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_check_is_said_on_the_status_line_and_recorded() {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    let mut position = Position::start();
    // Pc2-c3 opens the queen's way to b3, Pd5-d4 the diagonal b3-e6.
    for uci in ["c2c3", "d5d4", "d1b3"] {
        position = play(&mut machine, &position, uci, false);
    }
    machine.run_frames(4).unwrap();
    assert!(position.is_check(), "the line gives no check");
    assert_board_is(&machine, &position, "Qd1-b3+");
    assert_eq!(records(&machine)[2][3] & MOVE_FLAG_CHECK, MOVE_FLAG_CHECK);
    assert_status(&machine, ["BLACK TO MOVE", "CHECK", "", ""]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_during_the_engines_search_opens_the_menu_and_the_engine_thinks_again_after() {
    let mut machine = boot(10);
    machine.write_u8("wGameMode", GAME_MODE_WHITE).unwrap();
    machine.write_u8("wGameLevel", 2).unwrap();
    for button in [Button::Start, Button::A, Button::A] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    machine.run_frames(2).unwrap();
    let start = Position::start();
    play(&mut machine, &start, "b2b3", false);
    // HARD thinks for seconds: meanwhile the screen lives. The thinking sign (the
    // pointer, a dot) moves, and Black's clock runs and is drawn.
    machine.run_frames(20).unwrap();
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "no search running"
    );
    assert_text_at(&machine, 0, STATUS_ROW, "BLACK THINKING", 14);
    let mut xs = Vec::new();
    for _ in 0..4 {
        let pointer = machine.read("wShadowOAM", 68).unwrap();
        assert_eq!(
            pointer[64],
            16 + 14 * 8,
            "the sign is not on the status line"
        );
        xs.push(pointer[65]);
        machine.run_frames(8).unwrap();
    }
    xs.sort();
    xs.dedup();
    assert!(xs.len() >= 3, "the thinking sign does not move: {xs:?}");
    machine.run_frames(60).unwrap();
    assert_eq!(
        machine.read_u16("wClockSeconds").unwrap(),
        600,
        "White's clock ran"
    );
    assert_eq!(
        machine
            .read_u16(machine.symbol("wClockSeconds").unwrap() + 2)
            .unwrap(),
        599
    );
    // Black's clock at the top of the panel, drawn during the search; White's under it.
    assert_text_at(&machine, 11, 0, " 9:59", 9);
    assert_text_at(&machine, 11, 12, "10:00", 9);
    // START: the search stops at once, the menu opens, the move found is dropped.
    machine.tap(Button::Start, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(state(&machine), STATE_MENU);
    assert_eq!(machine.read_u8("hSearching").unwrap(), 0);
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        0xFF,
        "a clock runs in the menu"
    );
    // B: the engine thinks again, and moves.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), STATE_ENGINE);
    wait_for_human(&mut machine);
    assert_eq!(records(&machine).len(), 2, "the engine did not move");
    machine.assert_no_violations().unwrap();
}

#[test]
fn checkmate_ends_the_game_in_words_with_the_winner() {
    let mut machine = game(GAME_MODE_TWO_PLAYERS);
    let mut position = Position::start();
    // The shortest mate from the start (found with the model): Qb3xe3#.
    for uci in ["c2c4", "e5e3", "d1b3", "e6e5", "b3e3"] {
        position = play(&mut machine, &position, uci, false);
    }
    machine.run_frames(6).unwrap();
    assert!(position.is_checkmate());
    assert_board_is(&machine, &position, "Qb3xe3#");
    assert_eq!(state(&machine), STATE_OVER);
    assert_eq!(machine.read_u8("wEnding").unwrap(), ENDING_CHECKMATE);
    assert_eq!(machine.read_u8("wWinner").unwrap(), 0, "White wins");
    assert_eq!(
        records(&machine)[4][3],
        MOVE_FLAG_CAPTURE | MOVE_FLAG_CHECK | MOVE_FLAG_MATE
    );
    assert_status(&machine, ["CHECKMATE", "WHITE WINS", "", "A: NEW GAME"]);
    // The game has ended: the selector is gone and A picks nothing up.
    assert_eq!(
        machine.read_u8("wShadowOAM").unwrap(),
        0,
        "the selector shows"
    );
    assert_eq!(machine.read_u8("wClockSide").unwrap(), 0xFF, "a clock runs");
    machine.assert_no_violations().unwrap();
}

/// A game against the engine at `level` (0 EASY ... 3 CLOCK), the human White, after
/// the human's b2-b3: the engine's search has just begun.
pub(super) fn engine_thinking(level: u8) -> Machine {
    let mut machine = boot(10);
    machine.write_u8("wGameMode", GAME_MODE_WHITE).unwrap();
    machine.write_u8("wGameLevel", level).unwrap();
    for button in [Button::Start, Button::A, Button::A] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(4).unwrap();
    }
    machine.run_frames(2).unwrap();
    play(&mut machine, &Position::start(), "b2b3", false);
    for _ in 0..10 {
        if machine.read_u8("hSearching").unwrap() == 1 {
            return machine;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine's search did not start");
}

#[test]
fn a_flag_falling_during_the_search_ends_the_game_on_time_at_once() {
    let mut machine = engine_thinking(2);
    // Black's clock (the engine's) down to 2 seconds: it falls within 2 seconds, long
    // before HARD's search would end (about 14 seconds here).
    let black_seconds = machine.symbol("wClockSeconds").unwrap() + 2;
    machine.write(black_seconds, &[2, 0]).unwrap();
    machine.run_frames(2 * 60 + 10).unwrap();
    assert_eq!(machine.read_u8("wFlagFell").unwrap(), 2, "Black's flag");
    assert_eq!(state(&machine), STATE_OVER);
    assert_eq!(machine.read_u8("wEnding").unwrap(), ENDING_TIME);
    assert_eq!(machine.read_u8("wWinner").unwrap(), 0, "White wins");
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    assert_status(&machine, ["TIME", "WHITE WINS", "", "A: NEW GAME"]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_clock_level_thinks_a_twentieth_of_its_time_and_deepens_up_to_depth_8() {
    let mut machine = engine_thinking(3);
    assert_eq!(machine.read_u8("wSearchDepth").unwrap(), 8);
    // 600 seconds left: 3 frames a second and 30 more, 1,830, less the VBlanks since
    // the search began (within the 4 frames play() runs after A).
    let left = machine.read_u16("wThinkFramesLeft").unwrap();
    assert!((1826..=1830).contains(&left), "{left} frames left to think");
    machine.run_frames(10).unwrap();
    assert_eq!(machine.read_u16("wThinkFramesLeft").unwrap(), left - 10);
    // EASY has no deadline.
    let machine = engine_thinking(0);
    assert_eq!(machine.read_u8("wSearchDepth").unwrap(), 2);
    assert_eq!(machine.read_u16("wThinkFramesLeft").unwrap(), 0);
}

#[test]
fn the_engine_accepts_a_draw_only_when_its_search_and_its_evaluation_find_it_worse() {
    // (wEngineScore: the last search's score, the engine's view; hWhiteScore: White's
    // evaluation) for an engine playing Black, and whether it takes the draw.
    for (search, white, accepts) in [
        (-50i16, 50i16, true),
        (-50, -50, false),
        (50, 50, false),
        (-50, 0, false),
    ] {
        let mut machine = game(GAME_MODE_WHITE);
        press(&mut machine, Button::Start);
        machine
            .write("wEngineScore", &search.to_le_bytes())
            .unwrap();
        machine.write("hWhiteScore", &white.to_le_bytes()).unwrap();
        press(&mut machine, Button::Down);
        press(&mut machine, Button::A);
        machine.run_frames(4).unwrap();
        let case = format!("search {search}, White's evaluation {white}");
        if accepts {
            assert_eq!(state(&machine), STATE_OVER, "{case}");
            assert_eq!(machine.read_u8("wEnding").unwrap(), ENDING_AGREEMENT);
            assert_status(&machine, ["DRAW BY AGREEMENT", "", "", "A: NEW GAME"]);
        } else {
            assert_eq!(state(&machine), STATE_MENU, "{case}");
            assert_text_at(&machine, 0, MENU_ROW + 5, "DRAW DECLINED", 20);
        }
        machine.assert_no_violations().unwrap();
    }
}
