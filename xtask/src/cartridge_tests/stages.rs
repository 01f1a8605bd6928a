//! B, then START, at every stage a player meets, from the title to the end of a game:
//! what each does, as the player sees it (the screen, the game's state, the text).
//!
//! | stage | B | START |
//! | --- | --- | --- |
//! | title | nothing | the play-as page |
//! | play-as page | back to the title | chooses the item at the arrow |
//! | level page | back to the play-as page | chooses the level: the board |
//! | board, a player to move | nothing | the pause menu |
//! | a piece picked up | puts it back | puts it back, the pause menu |
//! | the promotion question | back to the squares | puts the piece back, the pause menu |
//! | the engine thinking | waits, then nothing on the player's turn | stops the search, the pause menu |
//! | pause menu | resumes | resumes |
//! | a draw offered (two players) | back to the menu | resumes the game |
//! | a hint's search ([`super::hint`]) | waits, then puts the hint's piece down | stops the search, the pause menu |
//! | the engine's level question (two players, [`super::sides`]) | back to the menu | resumes the game |
//! | game over | nothing | nothing (only A leaves the result) |

use engine_src::{Color, Position};

use super::support::{
    assert_board_is, assert_status, assert_text_at, boot, color_value, constant, current_screen,
    cursor, draw_offered, ending, engine_thinking, game, level_page, menu_item_x, menu_row,
    message_row, mode_page, options, pick_up, pointer, press, promotion_question, records, resign,
    square, state, wait_for_human, window_shown, Ending, Level, Mode, State,
};
use crate::harness::{Button, Machine};

/// Frames for a redrawn board (and the status line and the move list after it) to
/// come through the VRAM queue, a VBlank's budget at a time.
const REDRAW_FRAMES: u32 = 8;

/// The pause menu is open over the board: the window with its items, the pointer at
/// RESUME, the clocks stopped.
fn assert_menu_open(machine: &Machine, context: &str) {
    assert_eq!(state(machine), State::Menu, "{context}: the menu's state");
    assert!(window_shown(machine), "{context}: no window");
    // The third item: the engine takes over between two players.
    let sides = match options(machine).0 {
        Some(Mode::TwoPlayers) => "ENGINE PLAYS NOW",
        _ => "SWITCH SIDES",
    };
    for (i, item) in ["RESUME", "HINT", sides, "OFFER DRAW", "RESIGN"]
        .iter()
        .enumerate()
    {
        assert_text_at(
            machine,
            menu_item_x(machine),
            menu_row(machine, i),
            item,
            16,
        );
    }
    assert_eq!(
        pointer(machine),
        Some((pointer_x(machine), menu_row(machine, 0))),
        "{context}: the pointer"
    );
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        constant::<u8>(machine, "CLOCK_STOPPED"),
        "{context}: a clock runs in the menu"
    );
}

/// The menu pointer's column: left of the items.
fn pointer_x(machine: &Machine) -> usize {
    menu_item_x(machine) - 1
}

/// The game goes on with `side` ("WHITE", "BLACK") to move and nothing picked up: no
/// window, the status line saying so, that side's clock running.
fn assert_to_move(machine: &Machine, side: &str, context: &str) {
    assert_eq!(state(machine), State::Human, "{context}: the state");
    assert!(!window_shown(machine), "{context}: the window shows");
    assert_eq!(
        machine.read_u8("wPickedSquare").unwrap(),
        0,
        "{context}: a piece is picked up"
    );
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0, "{context}");
    assert_status(machine, [&format!("{side} TO MOVE"), "", "", ""]);
    let color = if side == "BLACK" {
        Color::Black
    } else {
        Color::White
    };
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        color_value(machine, color),
        "{context}: the clock of the side to move"
    );
}

#[test]
fn on_the_title_b_does_nothing_and_start_goes_to_the_play_as_page() {
    let mut machine = boot(10);
    press(&mut machine, Button::B);
    machine.run_frames(4).unwrap();
    assert_eq!(current_screen(&machine), "SetUpTitleScreen");
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    assert_eq!(mode_page(&machine), 0, "the arrow at WHITE");
    machine.assert_no_violations().unwrap();
}

#[test]
fn on_the_play_as_page_b_goes_back_to_the_title_and_start_chooses() {
    let mut machine = boot(10);
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    mode_page(&machine);
    press(&mut machine, Button::B);
    machine.run_frames(4).unwrap();
    assert_eq!(current_screen(&machine), "SetUpTitleScreen");
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    press(&mut machine, Button::Down);
    assert_eq!(mode_page(&machine), 1, "the arrow at BLACK");
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    assert_eq!(options(&machine).0, Some(Mode::Black), "BLACK chosen");
    assert_eq!(level_page(&machine), 0, "the arrow at EASY");
    machine.assert_no_violations().unwrap();
}

#[test]
fn on_the_level_page_b_goes_back_a_page_and_start_begins_the_game() {
    let mut machine = boot(10);
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    level_page(&machine);
    press(&mut machine, Button::B);
    machine.run_frames(4).unwrap();
    assert_eq!(mode_page(&machine), 0, "back at WHITE");
    press(&mut machine, Button::Start);
    machine.run_frames(4).unwrap();
    press(&mut machine, Button::Down);
    assert_eq!(level_page(&machine), 1, "the arrow at MEDIUM");
    press(&mut machine, Button::Start);
    machine.run_frames(8).unwrap();
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    assert_eq!(options(&machine).1, Some(Level::Medium), "MEDIUM chosen");
    assert_to_move(&machine, "WHITE", "a new game");
    machine.assert_no_violations().unwrap();
}

#[test]
fn with_a_player_to_move_b_does_nothing_and_start_opens_the_menu() {
    let mut machine = game(Mode::White);
    let before = cursor(&machine);
    press(&mut machine, Button::B);
    assert_to_move(&machine, "WHITE", "after B");
    assert_eq!(cursor(&machine), before, "B moved the selector");
    assert_board_is(&machine, &Position::start(), "after B");
    press(&mut machine, Button::Start);
    assert_menu_open(&machine, "START");
    // RESUME: back where it was.
    press(&mut machine, Button::A);
    assert_to_move(&machine, "WHITE", "RESUME");
    machine.assert_no_violations().unwrap();
}

#[test]
fn with_a_piece_picked_up_b_puts_it_back_and_start_puts_it_back_and_opens_the_menu() {
    let mut machine = game(Mode::TwoPlayers);
    pick_up(&mut machine, square("b1"), false);
    assert_eq!(state(&machine), State::Picked);
    press(&mut machine, Button::B);
    assert_to_move(&machine, "WHITE", "after B");
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Picked, "picked up again");
    press(&mut machine, Button::Start);
    // The board's redraw (the piece put back) goes through the VRAM queue first.
    machine.run_frames(REDRAW_FRAMES).unwrap();
    assert_menu_open(&machine, "START");
    assert_eq!(
        machine.read_u8("wPickedSquare").unwrap(),
        0,
        "still picked up"
    );
    // RESUME: the player to move, the knight on b1, nothing picked up.
    press(&mut machine, Button::A);
    assert_to_move(&machine, "WHITE", "RESUME");
    assert_board_is(&machine, &Position::start(), "RESUME");
    machine.assert_no_violations().unwrap();
}

#[test]
fn at_the_promotion_question_b_goes_back_to_the_squares_and_start_puts_the_pawn_back() {
    let (mut machine, position) = promotion_question();
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Picked);
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    assert_eq!(pointer(&machine), None, "the question's pointer stayed");
    // A on a6 again: the question again.
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Promotion);
    assert_text_at(
        &machine,
        0,
        constant::<usize>(&machine, "STATUS_Y") + 1,
        "PROMOTE TO:>Q R B N",
        20,
    );
    press(&mut machine, Button::Start);
    machine.run_frames(REDRAW_FRAMES).unwrap();
    assert_menu_open(&machine, "START");
    // RESUME: the pawn on b5, nothing picked up, the question gone from the status line.
    press(&mut machine, Button::A);
    assert_to_move(&machine, "WHITE", "RESUME");
    assert_board_is(&machine, &position, "RESUME");
    assert_eq!(records(&machine).len(), 6, "a move was played");
    machine.assert_no_violations().unwrap();
}

#[test]
fn while_the_engine_thinks_b_waits_for_the_players_turn_and_does_nothing_there() {
    let mut machine = engine_thinking(Level::Medium);
    let before = cursor(&machine);
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Engine);
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "B stopped the search"
    );
    wait_for_human(&mut machine);
    machine.run_frames(REDRAW_FRAMES).unwrap();
    assert_eq!(records(&machine).len(), 2, "the engine did not move");
    assert_to_move(&machine, "WHITE", "the engine has moved");
    assert_eq!(cursor(&machine), before, "B moved the selector");
    machine.assert_no_violations().unwrap();
}

#[test]
fn while_the_engine_thinks_start_stops_it_at_once_and_opens_the_menu() {
    let mut machine = engine_thinking(Level::Medium);
    machine.tap(Button::Start, 2).unwrap();
    // The menu's rows come through the VRAM queue (its list scrolls, and opens at
    // its top).
    machine.run_frames(4).unwrap();
    assert_menu_open(&machine, "START");
    assert_eq!(machine.read_u8("hSearching").unwrap(), 0);
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    // RESUME: the engine thinks again, and moves.
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Engine);
    assert!(!window_shown(&machine));
    wait_for_human(&mut machine);
    assert_eq!(records(&machine).len(), 2, "the engine did not move");
    machine.assert_no_violations().unwrap();
}

#[test]
fn in_the_pause_menu_b_start_and_select_resume() {
    let mut machine = game(Mode::White);
    for (opens, resumes) in [
        (Button::Start, Button::B),
        (Button::Start, Button::Start),
        (Button::Select, Button::Select),
    ] {
        press(&mut machine, opens);
        assert_menu_open(&machine, &format!("{opens:?}"));
        // The pointer moved off RESUME first: the key resumes from any item.
        press(&mut machine, Button::Down);
        assert_eq!(
            pointer(&machine),
            Some((pointer_x(&machine), menu_row(&machine, 1)))
        );
        press(&mut machine, resumes);
        assert_to_move(&machine, "WHITE", &format!("{resumes:?} in the menu"));
        assert_eq!(pointer(&machine), None, "the menu's pointer stayed");
    }
    machine.assert_no_violations().unwrap();
}

#[test]
fn at_a_draw_offer_between_two_players_b_goes_back_to_the_menu_and_start_resumes() {
    let mut machine = draw_offered();
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Menu);
    assert_text_at(&machine, 0, message_row(&machine), "", 20);
    let offer: usize = constant(&machine, "MENU_OFFER_DRAW");
    assert_eq!(
        pointer(&machine),
        Some((pointer_x(&machine), menu_row(&machine, offer))),
        "at OFFER DRAW"
    );
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::DrawAnswer);
    press(&mut machine, Button::Start);
    assert_to_move(&machine, "WHITE", "START at the offer");
    assert_eq!(ending(&machine), None, "the game ended");
    // The next pause shows the menu without the question.
    press(&mut machine, Button::Select);
    assert_menu_open(&machine, "SELECT after the offer");
    assert_text_at(&machine, 0, message_row(&machine), "", 20);
    machine.assert_no_violations().unwrap();
}

#[test]
fn at_the_end_b_with_nothing_to_take_back_and_start_or_select_s_replay_keep_the_result() {
    // Resigned at the start: nothing to take back (take_back.rs takes back moves).
    let mut machine = game(Mode::White);
    resign(&mut machine, Button::Start);
    for button in [Button::B, Button::Start, Button::Select] {
        press(&mut machine, button);
        machine.run_frames(4).unwrap();
        if button != Button::B {
            assert_eq!(state(&machine), State::Replay, "{button:?} replays");
            press(&mut machine, Button::B);
            machine.run_frames(4).unwrap();
        }
        assert_eq!(state(&machine), State::Over, "{button:?}");
        assert_eq!(ending(&machine), Some(Ending::Resigned));
        assert_eq!(current_screen(&machine), "SetUpBoardScreen");
        assert!(!window_shown(&machine), "{button:?} opened the menu");
        assert_status(
            &machine,
            ["RESIGNED", "BLACK WINS", "B: TAKE BACK", "A: NEW GAME"],
        );
    }
    machine.assert_no_violations().unwrap();
}
