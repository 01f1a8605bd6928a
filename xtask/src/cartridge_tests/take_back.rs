//! Take back and replay (asm/ui/take_back.asm) through the joypad: every position they
//! come back to is the model's game with the same moves (the board and the side to
//! move, the fifty-move count, and the Zobrist keys of the position and of the whole
//! history of repetitions, which hold the castling and en-passant rights: every field
//! of the FEN), the move list's rows are the model's notation, the last move is
//! marked, and both clocks are exactly what they were when the position arose (read
//! at BeginTurn, before the clock of the side to move starts again).

use engine_src::{Game, Position};

use super::support::ending as game_ending;
use super::support::{
    assert_board_is, assert_status, assert_text_at, bottom_top, choose_menu_item, choose_move,
    constant, engine_square, engine_thinking, game, game_at, leave_book, message_row,
    move_list_panel, move_list_top, moves, press, record, records, resign, rows, state, view,
    wait_for_human, white_flag_falls_at_next_vblank, Ending, Level, Mode, State,
};
use crate::harness::{Button, Machine, CYCLES_PER_FRAME};
use crate::rom_engine::RomKeys;

/// A game between two players with a capture, an en passant (`3...Pc4xb3`), a check, the
/// castle and a promotion that mates (`8...Pa2-a1=Q#`): move_list.rs's.
const GAME: &str =
    "e2e3 c5c4 b1a3 d6a3 b2b4 c4b3 d1e2 b3a2 e2b5 e6d6 c1a3 d6e6 b5c5 a5a4 e1c1 a2a1q";

/// Both clocks as the cartridge keeps them: White's and Black's cycles towards the next
/// second (3 bytes each), then their seconds (2 bytes each).
type Clocks = Vec<u8>;

fn clocks(machine: &Machine) -> Clocks {
    let mut bytes = machine.read("wClockCycles", 6).unwrap();
    bytes.extend(machine.read("wClockSeconds", 4).unwrap());
    bytes
}

/// Holds A down until the game begins the next turn (BeginTurn: the clocks stopped,
/// the one of the side to move about to run), gives the clocks there, and lets go.
fn a_until_next_turn(machine: &mut Machine) -> Clocks {
    a_until(machine, "BeginTurn")
}

/// Holds A down until the CPU reaches `routine`, gives the clocks there, and lets go.
fn a_until(machine: &mut Machine, routine: &str) -> Clocks {
    machine.press(Button::A);
    machine
        .run_until(routine, 10 * 60 * CYCLES_PER_FRAME)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let at_turn = clocks(machine);
    machine.run_frames(2).unwrap();
    machine.release(Button::A);
    machine.run_frames(4).unwrap();
    at_turn
}

/// Plays `uci` with the joypad after `wait` frames on the player's turn; gives the
/// position after it and the clocks when it arose.
fn play_timed(
    machine: &mut Machine,
    position: &Position,
    uci: &str,
    black_bottom: bool,
    wait: u32,
) -> (Position, Clocks) {
    machine.run_frames(wait).unwrap();
    let m = choose_move(machine, position, uci, black_bottom);
    let after = position.play(&m);
    // A move that ends the game begins no turn: the clocks stand from EndGame on.
    let routine = match Game::new(after).outcome() {
        None => "BeginTurn",
        Some(_) => "EndGame",
    };
    (after, a_until(machine, routine))
}

/// Chooses TAKE BACK in the pause menu (opened with `opens`): gives the clocks when the
/// player's turn begins again.
fn take_back(machine: &mut Machine, opens: Button) -> Clocks {
    press(machine, opens);
    assert_eq!(state(machine), State::Menu, "{opens:?} opens no menu");
    for _ in 0..constant::<u32>(machine, "MENU_TAKE_BACK") {
        press(machine, Button::Down);
    }
    a_until_next_turn(machine)
}

/// The model's game of the first `plies` moves of `ucis`.
fn model_game(ucis: &[&str], plies: usize) -> Game {
    let mut game = Game::new(Position::start());
    for m in moves(&Position::start(), &ucis[..plies]) {
        game.play(m).unwrap();
    }
    game
}

/// The cartridge's keys: wZobristKey and the history of game keys.
fn rom_keys(machine: &Machine) -> RomKeys {
    let word = |bytes: &[u8]| u32::from_le_bytes(bytes.try_into().unwrap());
    let count = usize::from(machine.read_u8("wGameKeyCount").unwrap());
    RomKeys {
        line: word(&machine.read("wZobristKey", 4).unwrap()),
        history: machine
            .read("wGameKeys", count * 4)
            .unwrap()
            .chunks_exact(4)
            .map(word)
            .collect(),
    }
}

/// The cartridge's position is `game`'s: the board, the side to move, the fifty-move
/// count, the keys of the position and its history; the move list holds and shows its
/// moves, at its end; the last move is marked.
fn assert_game_is(machine: &mut Machine, game: &Game, context: &str) {
    let position = game.position();
    assert_board_is(machine, position, context);
    assert_eq!(
        machine.read_u8("hHalfmoveClock").unwrap(),
        position.halfmove_clock() as u8,
        "{context}: the fifty-move count"
    );
    assert_eq!(
        rom_keys(machine),
        RomKeys::of_game(game),
        "{context}: the keys"
    );
    assert_eq!(
        records(machine).len(),
        game.moves().len(),
        "{context}: the move list's moves"
    );
    let rows = rows(machine, &game.move_list().unwrap());
    let top = bottom_top(machine, &rows);
    assert_eq!(move_list_top(machine), top, "{context}: the list's scroll");
    assert_eq!(
        move_list_panel(machine),
        view(machine, &rows, top),
        "{context}: the move list"
    );
    let marks = game
        .moves()
        .last()
        .map_or((0, 0), |m| (engine_square(m.from), engine_square(m.to)));
    assert_eq!(
        (
            machine.read_u8("wLastMoveFrom").unwrap(),
            machine.read_u8("wLastMoveTo").unwrap()
        ),
        marks,
        "{context}: the last move's marks"
    );
}

/// The clocks of a new game: 10:00 each, no cycle counted.
fn start_clocks(machine: &Machine) -> Clocks {
    let seconds = constant::<u16>(machine, "CLOCK_START_SECONDS").to_le_bytes();
    let mut bytes = vec![0; 6];
    for _ in 0..2 {
        bytes.extend(seconds);
    }
    bytes
}

/// Plays GAME between two players, some frames of thought before each move (so that the
/// clocks differ at every ply); gives the clocks when each position arose, the start's
/// first.
fn play_game(machine: &mut Machine) -> Vec<Clocks> {
    let ucis: Vec<&str> = GAME.split(' ').collect();
    let mut position = Position::start();
    let mut at_ply = vec![start_clocks(machine)];
    for (i, uci) in ucis.iter().enumerate() {
        let (after, clocks) = play_timed(machine, &position, uci, false, 37 * i as u32 + 11);
        position = after;
        at_ply.push(clocks);
    }
    at_ply
}

#[test]
fn between_two_players_take_back_goes_back_a_ply_at_a_time_to_the_start() {
    let mut machine = game(Mode::TwoPlayers);
    let at_ply = play_game(&mut machine);
    let ucis: Vec<&str> = GAME.split(' ').collect();
    assert_eq!(game_ending(&machine), Some(Ending::Checkmate));
    machine.run_frames(8).unwrap();

    // On the end screen B takes back the mating promotion: the game goes on.
    assert_status(
        &machine,
        ["CHECKMATE", "BLACK WINS", "B: TAKE BACK", "A: NEW GAME"],
    );
    machine.press(Button::B);
    machine
        .run_until("BeginTurn", 10 * CYCLES_PER_FRAME)
        .unwrap();
    assert_eq!(
        clocks(&machine),
        at_ply[15],
        "the clocks after the end screen's B"
    );
    machine.run_frames(2).unwrap();
    machine.release(Button::B);
    machine.run_frames(4).unwrap();
    assert_eq!(game_ending(&machine), None, "the game goes on");
    assert_eq!(state(&machine), State::Human);
    assert_game_is(
        &mut machine,
        &model_game(&ucis, 15),
        "after the end screen's B",
    );
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);

    // Then the menu's TAKE BACK, after the castle, the check, the en passant, the
    // captures, down to the start.
    for plies in (0..15).rev() {
        let context = format!("taken back to ply {plies}");
        assert_eq!(
            take_back(&mut machine, Button::Start),
            at_ply[plies],
            "{context}: the clocks"
        );
        assert_eq!(state(&machine), State::Human, "{context}");
        assert!(
            !super::support::window_shown(&machine),
            "{context}: the menu closed"
        );
        assert_game_is(&mut machine, &model_game(&ucis, plies), &context);
    }

    // At the start there is nothing to take back: the menu says so and stays.
    press(&mut machine, Button::Select);
    for _ in 0..constant::<u32>(&machine, "MENU_TAKE_BACK") {
        press(&mut machine, Button::Down);
    }
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Menu);
    assert_text_at(
        &machine,
        0,
        message_row(&machine),
        "NO MOVE TO TAKE BACK",
        20,
    );
    assert_game_is(
        &mut machine,
        &model_game(&ucis, 0),
        "a take back at the start",
    );
}

/// Runs until the game begins the next turn; gives the clocks there.
fn until_next_turn(machine: &mut Machine) -> Clocks {
    machine
        .run_until("BeginTurn", 3000 * CYCLES_PER_FRAME)
        .unwrap_or_else(|e| panic!("{e:#}"));
    clocks(machine)
}

#[test]
fn against_the_engine_take_back_takes_back_its_move_and_the_players() {
    // (MEDIUM: EASY's reply can come within the frames the press takes, before the test
    // reaches its turn.)
    let mut machine = game_at(Mode::White, Level::Medium);
    // Out of the book, so that each engine move is a search begun at its own turn.
    leave_book(&mut machine);
    let mut game = Game::new(Position::start());
    let mut at_turn = vec![start_clocks(&machine)];
    for (i, uci) in ["b2b3", "a2a3", "c2c3"].into_iter().enumerate() {
        let (after, _) = play_timed(&mut machine, game.position(), uci, false, 23 * i as u32);
        game.play(*game.position().parse_uci(uci).as_ref().unwrap())
            .unwrap();
        assert_eq!(after, *game.position());
        // The engine's move, found among the model's by its record.
        at_turn.push(until_next_turn(&mut machine));
        wait_for_human(&mut machine);
        let engine = records(&machine)[game.moves().len()];
        let legal = game.position().legal_moves();
        let reply = *legal
            .iter()
            .find(|m| record(&machine, game.position(), m) == engine)
            .expect("the engine's move is legal");
        game.play(reply).unwrap();
    }
    let played = game.moves().to_vec();
    for turn in (0..3).rev() {
        let context = format!("taken back to the player's move {}", turn + 1);
        let clocks = take_back(&mut machine, Button::Start);
        assert_eq!(clocks, at_turn[turn], "{context}: the clocks");
        assert_eq!(state(&machine), State::Human, "{context}");
        let mut model = Game::new(Position::start());
        for m in &played[..2 * turn] {
            model.play(*m).unwrap();
        }
        assert_game_is(&mut machine, &model, &context);
    }
}

#[test]
fn during_the_engines_think_take_back_stops_the_search_and_takes_back_the_players_move() {
    let mut machine = engine_thinking(Level::Hard);
    let at_ply = take_back(&mut machine, Button::Start);
    assert_eq!(state(&machine), State::Human);
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        0,
        "the search stopped"
    );
    assert_game_is(
        &mut machine,
        &Game::new(Position::start()),
        "the player's move taken back",
    );
    assert_eq!(at_ply, start_clocks(&machine), "the clocks at the start");
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
}

#[test]
fn a_repetition_reached_through_a_take_back_counts_the_positions_before_it() {
    let mut machine = game(Mode::TwoPlayers);
    // The start comes back twice; Black's pawn move then resets the history, and is
    // taken back: the knight's return makes the start's third time, a draw.
    let ucis = [
        "b1a3", "b6a4", "a3b1", "a4b6", "b1a3", "b6a4", "a3b1", "b5b4",
    ];
    let mut position = Position::start();
    for uci in ucis {
        position = play_timed(&mut machine, &position, uci, false, 3).0;
    }
    assert_eq!(
        machine.read_u8("wGameKeyCount").unwrap(),
        1,
        "the pawn move reset the history"
    );
    take_back(&mut machine, Button::Select);
    assert_game_is(
        &mut machine,
        &model_game(&ucis, 7),
        "the pawn move taken back",
    );
    let position = *model_game(&ucis, 7).position();
    super::support::play(&mut machine, &position, "a4b6", false);
    machine.run_frames(4).unwrap();
    assert_eq!(state(&machine), State::Over);
    assert_eq!(game_ending(&machine), Some(Ending::Repetition));
    assert_status(
        &machine,
        ["DRAW BY REPETITION", "", "B: TAKE BACK", "A: NEW GAME"],
    );
}

#[test]
fn after_a_fallen_flag_the_end_screen_offers_no_take_back() {
    let mut machine = game(Mode::TwoPlayers);
    super::support::play(&mut machine, &Position::start(), "b2b3", false);
    super::support::play(
        &mut machine,
        &model_game(&["b2b3"], 1).position().clone(),
        "b5b4",
        false,
    );
    white_flag_falls_at_next_vblank(&mut machine);
    machine.run_frames(8).unwrap();
    assert_eq!(game_ending(&machine), Some(Ending::Time));
    assert_status(&machine, ["TIME", "BLACK WINS", "", "A: NEW GAME"]);
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Over, "B takes nothing back");
    assert_eq!(records(&machine).len(), 2);
}

#[test]
fn a_resignation_is_taken_back_with_the_move_before_it() {
    let mut machine = game(Mode::TwoPlayers);
    let position = super::support::play(&mut machine, &Position::start(), "c2c3", false);
    resign(&mut machine, Button::Start);
    assert_status(
        &machine,
        ["RESIGNED", "WHITE WINS", "B: TAKE BACK", "A: NEW GAME"],
    );
    let _ = position;
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Human);
    assert_eq!(game_ending(&machine), None);
    assert_game_is(
        &mut machine,
        &Game::new(Position::start()),
        "the resignation taken back",
    );
}

/// The replay's status line at the position after `plies` of `game`.
fn replay_status(game: &Game, plies: usize) -> [String; 4] {
    let entry = match plies {
        0 => "START".to_owned(),
        _ => game.move_list().unwrap()[plies - 1].clone(),
    };
    [
        entry,
        String::new(),
        String::new(),
        "REPLAY: PAD  B: BACK".to_owned(),
    ]
}

fn assert_replay_at(machine: &mut Machine, ucis: &[&str], whole: &Game, plies: usize) {
    let context = format!("the replay at ply {plies}");
    assert_eq!(state(machine), State::Replay, "{context}");
    assert_game_is(machine, &model_game(ucis, plies), &context);
    let status = replay_status(whole, plies);
    assert_status(machine, status.each_ref().map(String::as_str));
}

#[test]
fn the_replay_shows_every_position_of_the_game_and_b_start_select_go_back() {
    let mut machine = game(Mode::TwoPlayers);
    let at_ply = play_game(&mut machine);
    let ucis: Vec<&str> = GAME.split(' ').collect();
    let whole = model_game(&ucis, ucis.len());
    let end = ucis.len();
    let end_status = ["CHECKMATE", "BLACK WINS", "B: TAKE BACK", "A: NEW GAME"];

    for (opens, back) in [
        (Button::Start, Button::B),
        (Button::Select, Button::Start),
        (Button::Start, Button::Select),
    ] {
        press(&mut machine, opens);
        assert_replay_at(&mut machine, &ucis, &whole, end);
        // Left steps back to the start, a ply a press; a press more stays there.
        for plies in (0..end).rev() {
            press(&mut machine, Button::Left);
            assert_replay_at(&mut machine, &ucis, &whole, plies);
        }
        press(&mut machine, Button::Left);
        assert_replay_at(&mut machine, &ucis, &whole, 0);
        for plies in 1..=3 {
            press(&mut machine, Button::Right);
            assert_replay_at(&mut machine, &ucis, &whole, plies);
        }
        press(&mut machine, Button::Down);
        assert_replay_at(&mut machine, &ucis, &whole, end);
        press(&mut machine, Button::Right);
        assert_replay_at(&mut machine, &ucis, &whole, end);
        press(&mut machine, Button::Up);
        assert_replay_at(&mut machine, &ucis, &whole, 0);
        press(&mut machine, back);
        assert_eq!(
            state(&machine),
            State::Over,
            "{back:?} goes back to the end screen"
        );
        assert_game_is(&mut machine, &whole, "back from the replay");
        assert_status(&machine, end_status);
        assert_eq!(clocks(&machine), at_ply[end], "the clocks stood");
    }
}

#[test]
fn the_menus_replay_comes_back_to_the_game_where_it_was() {
    let mut machine = game(Mode::TwoPlayers);
    let ucis = ["e2e3", "c5c4", "b1a3"];
    let mut position = Position::start();
    for uci in ucis {
        position = play_timed(&mut machine, &position, uci, false, 5).0;
    }
    let whole = model_game(&ucis, 3);
    for back in [Button::B, Button::Start, Button::Select] {
        choose_menu_item(&mut machine, Button::Start, "MENU_REPLAY");
        assert_replay_at(&mut machine, &ucis, &whole, 3);
        press(&mut machine, Button::Left);
        assert_replay_at(&mut machine, &ucis, &whole, 2);
        let seconds = machine.read("wClockSeconds", 4).unwrap();
        machine.run_frames(120).unwrap();
        assert_eq!(
            machine.read("wClockSeconds", 4).unwrap(),
            seconds,
            "the clocks stand"
        );
        press(&mut machine, back);
        assert_eq!(
            state(&machine),
            State::Human,
            "{back:?} goes back to the game"
        );
        assert_game_is(&mut machine, &whole, "back from the replay");
        assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    }
    // The game goes on from there.
    super::support::play(&mut machine, &position, "d6a3", false);
    assert_game_is(
        &mut machine,
        &model_game(&GAME.split(' ').collect::<Vec<_>>(), 4),
        "a move after the replay",
    );
}

#[test]
fn a_take_back_at_the_longest_game_rebuilds_it_within_a_second() {
    // The most plies the list holds, the knights going to and fro: every position is
    // one of four, so the history of repetitions fills (a real game keeps at most 101
    // keys, the fifty-move rule ending it): the slowest rebuild there is.
    let mut machine = game(Mode::TwoPlayers);
    super::support::between_updates(&mut machine);
    let plies: usize = constant(&machine, "MAX_GAME_MOVES");
    let shuffle = ["b1a3", "b6a4", "a3b1", "a4b6"];
    let ucis: Vec<&str> = (0..plies).map(|i| shuffle[i % 4]).collect();
    let mut position = Position::start();
    let mut bytes = Vec::new();
    for m in moves(&Position::start(), &ucis) {
        bytes.extend(record(&machine, &position, &m));
        position = position.play(&m);
    }
    machine.write("wMoveListRecords", &bytes).unwrap();
    let registers = machine.registers();
    machine.set_registers(&crate::harness::Registers {
        af: (plies as u16) << 8,
        ..registers
    });
    let cycles = machine
        .call("ReplayGamePlies", 60 * CYCLES_PER_FRAME)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let frames = cycles as f64 / CYCLES_PER_FRAME as f64;
    println!("ReplayGamePlies of {plies} plies: {cycles} machine cycles, {frames:.1} frames");
    assert_board_is(&machine, &position, "the longest game rebuilt");
    // A DMG second is 59.7275 frames.
    assert!(frames < 59.7, "{frames:.1} frames");
}
