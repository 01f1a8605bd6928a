//! The pause menu's HINT through the joypad: the move it picks up is the model's search at
//! the game's level (each fixed level against the engine, MEDIUM between two players) in
//! the game's position, with the thinking sign and the player's clock running during the
//! search; A plays it, B puts it down, START and SELECT stop the search and open the menu,
//! and on the engine's turn there is no hint.

use engine_src::search::{clock_level_frames, search, Level as ModelLevel, MAX_SEARCH_DEPTH};
use engine_src::{Color, Game, Move, Position};

use super::support::{
    assert_board_is, assert_status, assert_text_at, board_at, choose_menu_item, clock_seconds,
    constant, cursor, engine_square, game_at, message_row, model_square, oam_at, place, play,
    pointer_oam, press, record, records, state, wait_for_human, window_shown, Level, Mode, State,
};
use crate::harness::{Button, Machine};

/// The cartridge's level of a model level.
fn level(model: ModelLevel) -> Level {
    match model {
        ModelLevel::Easy => Level::Easy,
        ModelLevel::Medium => Level::Medium,
        ModelLevel::Hard => Level::Hard,
    }
}

/// The model's hint in `game` at `level`: its search without the time guard, its move.
fn model_hint(game: &Game, level: ModelLevel) -> Move {
    search(game, level.uncapped_limits())
        .best
        .expect("the model finds no move")
}

/// Asks for a hint (the menu opened with `opens`) and runs until the hint's piece is
/// picked up; fails after 3,000 frames.
fn hint(machine: &mut Machine, opens: Button) {
    choose_menu_item(machine, opens, "MENU_HINT");
    for _ in 0..3000 {
        if state(machine) == State::Picked {
            machine.run_frames(4).unwrap();
            return;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("no hint within 3,000 frames");
}

/// The hint's move is picked up: its piece's square marked, its destinations outlined
/// (the piece's moves), the selector on the move's destination.
fn assert_hint_is(machine: &Machine, position: &Position, m: &Move, black_bottom: bool) {
    let context = format!("the hint {m:?} in {}", position.to_fen());
    assert_eq!(state(machine), State::Picked, "{context}");
    assert_eq!(
        machine.read_u8("wPickedSquare").unwrap(),
        engine_square(m.from),
        "{context}: the piece picked up"
    );
    assert_eq!(
        cursor(machine),
        place(m.to, black_bottom),
        "{context}: the selector"
    );
    let count = usize::from(machine.read_u8("wOutlineCount").unwrap());
    let mut outlined: Vec<_> = machine
        .read("wOutlines", count)
        .unwrap()
        .iter()
        .map(|&to| model_square(to & constant::<u8>(machine, "MOVE_TO_SQUARE")))
        .collect();
    outlined.sort();
    outlined.dedup();
    let mut destinations: Vec<_> = position
        .legal_moves()
        .iter()
        .filter(|legal| legal.from == m.from)
        .map(|legal| legal.to)
        .collect();
    destinations.sort();
    destinations.dedup();
    assert_eq!(outlined, destinations, "{context}: the outlines");
}

/// A presses after the hint: the move is played, recorded as the model's (the board is
/// compared on the next player's turn: the engine's search works on it).
fn assert_a_plays(machine: &mut Machine, position: &Position, m: &Move) {
    let before = records(machine).len();
    press(machine, Button::A);
    // (The engine's answer may be recorded within the press's frames too: a book move.)
    let after = records(machine);
    assert!(after.len() > before, "A did not play the hint");
    assert_eq!(after[before], record(machine, position, m));
}

#[test]
fn against_the_engine_the_hint_is_the_models_search_at_the_games_level_and_a_plays_it() {
    for model_level in ModelLevel::ALL {
        let mut machine = board_at(level(model_level));
        let start = Position::start();
        hint(&mut machine, Button::Start);
        let m = model_hint(&Game::new(start), model_level);
        assert_hint_is(&machine, &start, &m, false);
        assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
        assert_a_plays(&mut machine, &start, &m);
        // The engine's turn: thinking, or over already with the book's answer recorded
        // within the press's frames (EASY's hint, b1-c3).
        let answered = records(&machine).len() > 1;
        assert_eq!(
            state(&machine),
            if answered {
                State::Human
            } else {
                State::Engine
            },
            "{model_level}: the engine's turn"
        );
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn at_clock_the_hint_deepens_within_a_share_of_the_players_clock() {
    let mut machine = board_at(Level::Clock);
    choose_menu_item(&mut machine, Button::Start, "MENU_HINT");
    machine.run_frames(2).unwrap();
    assert_eq!(state(&machine), State::Hint);
    assert_eq!(machine.read_u8("wSearchDepth").unwrap(), MAX_SEARCH_DEPTH);
    // White's seconds (the player's, whose clock runs) give the share, less the frames
    // since the search began (within the 6 run since A).
    let share = clock_level_frames(clock_seconds(&machine, Color::White));
    let left = machine.read_u16("wThinkFramesLeft").unwrap();
    assert!(
        (share - 6..=share).contains(&left),
        "{left} frames left to think, of {share}"
    );
    machine.run_frames(u32::from(left) + 10).unwrap();
    assert_eq!(state(&machine), State::Picked, "no hint by the deadline");
    let start = Position::start();
    let [from, to] = [
        machine.read_u8("wPickedSquare").unwrap(),
        machine.read_u8("wSearchBestMove").unwrap(),
    ];
    assert_eq!(from, to, "the piece picked up is the search's");
    let legal = start.legal_moves();
    let m = *legal
        .iter()
        .find(|m| engine_square(m.from) == from && place(m.to, false) == cursor(&machine))
        .expect("the hint is no legal move");
    assert_hint_is(&machine, &start, &m, false);
    machine.assert_no_violations().unwrap();
}

#[test]
fn playing_black_the_hint_is_found_on_the_turned_board() {
    let mut machine = game_at(Mode::Black, Level::Easy);
    wait_for_human(&mut machine);
    let start = Position::start();
    let [from, to, _, _] = records(&machine)[0];
    let first = start
        .parse_uci(&format!("{}{}", model_square(from), model_square(to)))
        .unwrap();
    let mut game = Game::new(start);
    game.play(first).unwrap();
    hint(&mut machine, Button::Select);
    let m = model_hint(&game, ModelLevel::Easy);
    assert_hint_is(&machine, game.position(), &m, true);
    assert_a_plays(&mut machine, game.position(), &m);
    machine.assert_no_violations().unwrap();
}

#[test]
fn between_two_players_the_hint_searches_at_medium_in_the_games_position() {
    let mut machine = game_at(Mode::TwoPlayers, Level::Easy);
    let mut game = Game::new(Position::start());
    for uci in ["b2b3", "d5d4", "c2c3"] {
        let position = play(&mut machine, game.position(), uci, false);
        let m = game.position().parse_uci(uci).unwrap();
        game.play(m).unwrap();
        assert_eq!(game.position(), &position);
    }
    // Black's hint, then White's, each played with A.
    for side in ["BLACK", "WHITE"] {
        hint(&mut machine, Button::Start);
        let m = model_hint(&game, ModelLevel::Medium);
        assert_hint_is(&machine, game.position(), &m, false);
        assert_status(&machine, [&format!("{side} TO MOVE"), "", "", ""]);
        assert_a_plays(&mut machine, game.position(), &m);
        game.play(m).unwrap();
        assert_board_is(&machine, game.position(), "after the hint's move");
    }
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_hints_search_shows_the_thinking_sign_and_runs_the_players_clock_and_b_puts_it_down() {
    let mut machine = board_at(Level::Hard);
    choose_menu_item(&mut machine, Button::Start, "MENU_HINT");
    assert!(!window_shown(&machine), "the menu stayed open");
    machine.run_frames(60).unwrap();
    assert_eq!(state(&machine), State::Hint);
    assert_eq!(machine.read_u8("hSearching").unwrap(), 1, "no search");
    let status_y: usize = constant(&machine, "STATUS_Y");
    assert_text_at(&machine, 0, status_y, "FINDING A HINT", 14);
    assert_eq!(pointer_oam(&machine).0, oam_at(&machine, 0, status_y).0);
    let full: u16 = constant(&machine, "CLOCK_START_SECONDS");
    assert_eq!(
        clock_seconds(&machine, Color::White),
        full - 1,
        "White's clock"
    );
    assert_eq!(clock_seconds(&machine, Color::Black), full, "Black's clock");
    // B during the search waits for the hint, then puts its piece down.
    machine.tap(Button::B, 2).unwrap();
    for _ in 0..3000 {
        if state(&machine) != State::Hint {
            break;
        }
        machine.run_frames(1).unwrap();
    }
    machine.run_frames(4).unwrap();
    let start = Position::start();
    let m = model_hint(&Game::new(start), ModelLevel::Hard);
    assert_eq!(
        state(&machine),
        State::Human,
        "B did not put the piece down"
    );
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0);
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0);
    assert_eq!(cursor(&machine), place(m.to, false), "the selector moved");
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    assert!(records(&machine).is_empty(), "a move was played");
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_or_select_stops_the_hints_search_and_opens_the_menu_and_resume_gives_no_hint() {
    for opens in [Button::Start, Button::Select] {
        let mut machine = board_at(Level::Hard);
        choose_menu_item(&mut machine, Button::Start, "MENU_HINT");
        machine.run_frames(30).unwrap();
        assert_eq!(state(&machine), State::Hint, "{opens:?}");
        machine.tap(opens, 2).unwrap();
        machine.run_frames(4).unwrap();
        assert_eq!(state(&machine), State::Menu, "{opens:?} opened no menu");
        assert_eq!(machine.read_u8("hSearching").unwrap(), 0, "{opens:?}");
        assert_eq!(
            machine.read_u8("wClockSide").unwrap(),
            constant::<u8>(&machine, "CLOCK_STOPPED"),
            "{opens:?}: a clock runs in the menu"
        );
        press(&mut machine, Button::B);
        assert_eq!(state(&machine), State::Human, "{opens:?}: RESUME");
        assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0, "{opens:?}");
        assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
        machine.run_frames(60).unwrap();
        assert_eq!(state(&machine), State::Human, "{opens:?}: a hint came");
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn on_the_engines_turn_the_menu_says_to_wait_for_a_hint() {
    let mut machine = board_at(Level::Hard);
    play(&mut machine, &Position::start(), "b2b3", false);
    machine.run_frames(10).unwrap();
    choose_menu_item(&mut machine, Button::Start, "MENU_HINT");
    assert_eq!(state(&machine), State::Menu);
    assert_text_at(&machine, 0, message_row(&machine), "WAIT FOR YOUR TURN", 20);
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Engine, "the engine thinks again");
    machine.assert_no_violations().unwrap();
}
