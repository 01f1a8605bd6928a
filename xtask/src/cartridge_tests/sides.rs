//! Changing sides through the pause menu: SWITCH SIDES against the engine (the engine
//! takes over the side to move and plays the model's move, the board turns so that the
//! player's side is at the bottom, with its labels and clocks; from the engine's think the
//! player takes the side it thought for), and between two players ENGINE PLAYS NOW with
//! its level question (left and right through the level page's words, A, B, START and
//! SELECT).

use engine_src::book::lookup;
use engine_src::search::{search, Level as ModelLevel};
use engine_src::{Color, Game, Move, Position};

use super::support::{
    assert_board_is, assert_status, assert_text_at, board_at, choose_menu_item, clock_seconds,
    clock_text, color_value, constant, cursor, game_at, message_row, model_square, options, place,
    play, pointer, press, records, state, wait_for_human, window_shown, ClockRow, Level, Mode,
    State,
};
use crate::harness::{Button, Machine};

/// The board is turned with `bottom` at the bottom: wBoardBottomColor, the rank numbers
/// and file letters, and each clock in its row (the bottom side's at the bottom).
fn assert_turned(machine: &mut Machine, bottom: Color) {
    super::support::drain(machine, 16);
    assert_eq!(
        machine.read_u8("wBoardBottomColor").unwrap(),
        color_value(machine, bottom),
        "the side at the bottom"
    );
    let (ranks, files) = match bottom {
        Color::White => ("654321", "a b c d e"),
        Color::Black => ("123456", "e d c b a"),
    };
    let rank_x: usize = constant(machine, "RANK_LABEL_X");
    let board_x: usize = constant(machine, "BOARD_TILE_X");
    let square: usize = constant(machine, "SQUARE_TILES");
    let shown: String = (0..6)
        .map(|rank| {
            super::support::screen_text(machine, rank_x, rank * square, 1)
                .chars()
                .next()
                .unwrap_or(' ')
        })
        .collect();
    assert_eq!(shown, ranks, "the rank numbers");
    let file_y: usize = constant(machine, "FILE_LABEL_Y");
    assert_text_at(machine, board_x, file_y, files, 9);
    let clock = |seconds: u16| format!("{:>2}:{:02}", seconds / 60, seconds % 60);
    assert_eq!(
        clock_text(machine, ClockRow::Bottom),
        clock(clock_seconds(machine, bottom)),
        "the bottom clock"
    );
    assert_eq!(
        clock_text(machine, ClockRow::Top),
        clock(clock_seconds(machine, bottom.other())),
        "the top clock"
    );
}

/// The move the engine played last, as the model's move in `position`.
fn last_engine_move(machine: &Machine, position: &Position) -> Move {
    let [from, to, _, _] = *records(machine).last().unwrap();
    position
        .parse_uci(&format!("{}{}", model_square(from), model_square(to)))
        .unwrap()
}

#[test]
fn switch_sides_gives_the_engine_the_side_to_move_and_turns_the_board() {
    let mut machine = board_at(Level::Easy);
    let start = Position::start();
    choose_menu_item(&mut machine, Button::Start, "MENU_SWITCH_SIDES");
    assert!(!window_shown(&machine), "the menu stayed open");
    assert_eq!(options(&machine), (Some(Mode::Black), Some(Level::Easy)));
    // The selector stays on a1, now at the top right.
    assert_eq!(cursor(&machine), place(super::support::square("a1"), true));
    wait_for_human(&mut machine);
    // The engine played White's move: the model's at EASY.
    let game = Game::new(start);
    let m = search(&game, ModelLevel::Easy.limits()).best.unwrap();
    assert_eq!(records(&machine).len(), 1, "the engine did not move");
    assert_eq!(last_engine_move(&machine, &start), m);
    let position = start.play(&m);
    assert_board_is(&machine, &position, "after the engine's move");
    assert_turned(&mut machine, Color::Black);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // Black's move through the joypad on the turned board; the engine answers.
    let position = play(&mut machine, &position, "e5e4", true);
    wait_for_human(&mut machine);
    assert_eq!(records(&machine).len(), 3, "the engine did not answer");
    let answer = last_engine_move(&machine, &position);
    let mut game = Game::new(start);
    game.play(m).unwrap();
    game.play(position_move(&start.play(&m), "e5e4")).unwrap();
    assert_eq!(
        answer,
        search(&game, ModelLevel::Easy.limits()).best.unwrap()
    );
    // And back: the engine takes Black, the player White at the bottom.
    choose_menu_item(&mut machine, Button::Select, "MENU_SWITCH_SIDES");
    assert_eq!(options(&machine).0, Some(Mode::White));
    wait_for_human(&mut machine);
    assert_eq!(records(&machine).len(), 4, "the engine did not take Black");
    assert_turned(&mut machine, Color::White);
    machine.assert_no_violations().unwrap();
}

/// A move of `position` by its UCI.
fn position_move(position: &Position, uci: &str) -> Move {
    position.parse_uci(uci).unwrap()
}

#[test]
fn switch_sides_during_the_engines_think_gives_the_player_the_side_it_thought_for() {
    let mut machine = board_at(Level::Hard);
    let start = Position::start();
    let position = play(&mut machine, &start, "b2b3", false);
    machine.run_frames(10).unwrap();
    assert_eq!(state(&machine), State::Engine);
    choose_menu_item(&mut machine, Button::Start, "MENU_SWITCH_SIDES");
    assert_eq!(state(&machine), State::Human, "the player's turn");
    assert_eq!(options(&machine).0, Some(Mode::Black));
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    assert_turned(&mut machine, Color::Black);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // Black's clock runs: the player's.
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        color_value(&machine, Color::Black)
    );
    let before = position;
    play(&mut machine, &position, "b5b4", true);
    assert_eq!(state(&machine), State::Engine, "the engine plays White");
    let m = position_move(&before, "b5b4");
    assert_eq!(
        *records(&machine).last().unwrap(),
        super::support::record(&machine, &before, &m)
    );
    machine.assert_no_violations().unwrap();
}

/// The level question's text and pointer: ENGINE LEVEL: and the level's name, the pointer
/// before it.
fn assert_level_question(machine: &Machine, name: &str) {
    assert_eq!(state(machine), State::LevelChoice);
    let row = message_row(machine);
    assert_text_at(machine, 0, row, &format!("ENGINE LEVEL:>{name}"), 20);
    assert_eq!(pointer(machine), Some((13, row)), "the pointer");
}

#[test]
fn between_two_players_engine_plays_now_asks_the_level_and_the_engine_takes_the_side_to_move() {
    for (moves, player) in [(&["a2a3"][..], Color::White), (&[][..], Color::Black)] {
        let mut machine = game_at(Mode::TwoPlayers, Level::Medium);
        let mut game = Game::new(Position::start());
        for uci in moves {
            play(&mut machine, game.position(), uci, false);
            game.play(position_move(game.position(), uci)).unwrap();
        }
        choose_menu_item(&mut machine, Button::Start, "MENU_SWITCH_SIDES");
        // The level page's words, from the level the options hold, round both ways.
        assert_level_question(&machine, "MEDIUM");
        for (button, name) in [
            (Button::Right, "HARD"),
            (Button::Right, "CLOCK"),
            (Button::Right, "EASY"),
            (Button::Left, "CLOCK"),
            (Button::Left, "HARD"),
            (Button::Left, "MEDIUM"),
            (Button::Left, "EASY"),
        ] {
            press(&mut machine, button);
            assert_level_question(&machine, name);
        }
        press(&mut machine, Button::A);
        let mode = match player {
            Color::White => Mode::White,
            Color::Black => Mode::Black,
        };
        assert_eq!(options(&machine), (Some(mode), Some(Level::Easy)));
        assert!(!window_shown(&machine), "the menu stayed open");
        wait_for_human(&mut machine);
        // The engine's first move is the book's while the game is still in it.
        let seed = machine.read_u8("wBookSeed").unwrap();
        let m = lookup(game.position(), seed)
            .unwrap_or_else(|| search(&game, ModelLevel::Easy.limits()).best.unwrap());
        assert_eq!(last_engine_move(&machine, game.position()), m);
        assert_eq!(records(&machine).len(), moves.len() + 1);
        assert_turned(&mut machine, player);
        // The menu's third item now switches sides.
        press(&mut machine, Button::Start);
        assert_text_at(
            &machine,
            2,
            super::support::menu_row(&machine, 2),
            "SWITCH SIDES",
            16,
        );
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn b_goes_back_from_the_level_question_and_start_or_select_resume_between_two_players() {
    for leaves in [Button::B, Button::Start, Button::Select] {
        let mut machine = game_at(Mode::TwoPlayers, Level::Hard);
        choose_menu_item(&mut machine, Button::Start, "MENU_SWITCH_SIDES");
        assert_level_question(&machine, "HARD");
        press(&mut machine, Button::Left);
        press(&mut machine, leaves);
        let context = format!("{leaves:?}");
        assert_eq!(
            options(&machine),
            (Some(Mode::TwoPlayers), Some(Level::Hard))
        );
        if leaves == Button::B {
            assert_eq!(state(&machine), State::Menu, "{context}");
            assert_text_at(&machine, 0, message_row(&machine), "", 20);
            let item: usize = constant(&machine, "MENU_SWITCH_SIDES");
            assert_eq!(
                pointer(&machine),
                Some((1, super::support::menu_row(&machine, item))),
                "{context}: the pointer"
            );
        } else {
            assert_eq!(state(&machine), State::Human, "{context}");
            assert!(!window_shown(&machine), "{context}: the window stayed");
            assert_eq!(pointer(&machine), None, "{context}: the pointer stayed");
            assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
        }
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn b_start_and_select_in_the_menu_after_a_switch_resume_the_engines_game() {
    for resumes in [Button::B, Button::Start, Button::Select] {
        let mut machine = board_at(Level::Easy);
        choose_menu_item(&mut machine, Button::Start, "MENU_SWITCH_SIDES");
        wait_for_human(&mut machine);
        press(&mut machine, Button::Start);
        press(&mut machine, resumes);
        assert_eq!(state(&machine), State::Human, "{resumes:?}");
        assert_eq!(options(&machine).0, Some(Mode::Black), "{resumes:?}");
        assert_eq!(records(&machine).len(), 1, "{resumes:?}");
        machine.assert_no_violations().unwrap();
    }
}
