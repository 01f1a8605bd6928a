//! The engine's turn through the joypad (UpdateEngineTurn, asm/ui/game.asm): the book's
//! move played at once, the time guard's cap stopping a long search, and A during the
//! search ("move now"); each move is the model's (`engine_src::book::lookup` for the
//! game's seed, the model's search stopped where the cartridge's stopped) and
//! wEngineMoveSource says which of them chose it.

use engine_src::book::lookup;
use engine_src::search::{search, Level as ModelLevel, Limits};
use engine_src::{Game, Move, Position};

use super::support::{
    cartridge, constant, engine_thinking, new_game, press, record, records, state, Level, Mode,
    Options, State,
};
use crate::harness::{Button, Machine};

/// The most frames from the engine's turn starting to its book move in the move list.
const BOOK_FRAMES: u32 = 2;

/// wEngineMoveSource as its ENGINE_MOVE_* constant's name.
fn source(machine: &Machine) -> String {
    let byte = machine.read_u8("wEngineMoveSource").unwrap();
    [
        "ENGINE_MOVE_SEARCH",
        "ENGINE_MOVE_BOOK",
        "ENGINE_MOVE_GUARD",
        "ENGINE_MOVE_NOW",
    ]
    .into_iter()
    .find(|name| constant::<u8>(machine, name) == byte)
    .unwrap_or_else(|| panic!("wEngineMoveSource is {byte}, no ENGINE_MOVE_*"))
    .to_owned()
}

/// The model's move that the record at `ply` is, in `position`.
fn recorded_move(machine: &Machine, position: &Position, ply: usize) -> Move {
    let recorded = records(machine)[ply];
    *position
        .legal_moves()
        .iter()
        .find(|m| record(machine, position, m) == recorded)
        .unwrap_or_else(|| panic!("the record {recorded:02X?} is no legal move"))
}

/// Runs frames until the move list has `plies` records; the frames it took.
fn frames_until_records(machine: &mut Machine, plies: usize, most: u32) -> u32 {
    for frame in 0..=most {
        if records(machine).len() >= plies {
            return frame;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("no move within {most} frames");
}

/// The model's search of `game` at HARD stopped after the nodes the cartridge's search
/// counted (wSearchNodes): what the cartridge must have played.
fn model_stopped_where_the_cartridge_stopped(machine: &Machine, game: &Game) -> Move {
    let bytes = machine.read("wSearchNodes", 4).unwrap();
    let nodes = u64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
    let limits = Limits::budget(ModelLevel::Hard.depth(), nodes);
    let result = search(game, limits);
    assert_eq!(
        u64::from(machine.read_u8("wSearchDepthDone").unwrap()),
        u64::from(result.depth),
        "the last finished iteration"
    );
    assert!(
        result.depth < ModelLevel::Hard.depth(),
        "the search finished: it was not stopped"
    );
    println!(
        "stopped after {nodes} nodes, depth {} finished: {}",
        result.depth,
        result.best.unwrap()
    );
    result.best.unwrap()
}

/// The game [`engine_thinking`] plays: b2-b3.
fn after_b2b3() -> Game {
    let mut game = Game::new(Position::start());
    game.play(Position::start().parse_uci("b2b3").unwrap())
        .unwrap();
    game
}

#[test]
fn as_white_the_cartridge_plays_the_books_move_for_the_games_seed_within_two_frames() {
    let mut machine = new_game(&cartridge(), Options::Chosen(Mode::Black, Level::Hard), 0);
    // The game starts (the board screen's set-up), then the engine's first update.
    for _ in 0..30 {
        if machine.read_u8("hGameLive").unwrap() != 0 {
            break;
        }
        machine.run_frames(1).unwrap();
    }
    let seed = machine.read_u8("wBookSeed").unwrap();
    let frames = frames_until_records(&mut machine, 1, 30);
    let start = Position::start();
    let played = recorded_move(&machine, &start, 0);
    println!("seed {seed}: {played} after {frames} frames");
    assert_eq!(
        Some(played),
        lookup(&start, seed),
        "the book's move for seed {seed}"
    );
    assert!(frames <= BOOK_FRAMES, "{frames} frames to the book's move");
    assert_eq!(source(&machine), "ENGINE_MOVE_BOOK");
    machine.assert_no_violations().unwrap();
}

#[test]
fn as_black_the_cartridge_answers_the_players_first_move_from_the_book() {
    let mut machine = new_game(&cartridge(), Options::Chosen(Mode::White, Level::Hard), 2);
    let start = Position::start();
    let after = super::support::play(&mut machine, &start, "c2c3", false);
    let seed = machine.read_u8("wBookSeed").unwrap();
    frames_until_records(&mut machine, 2, BOOK_FRAMES + 4);
    let played = recorded_move(&machine, &after, 1);
    assert_eq!(
        Some(played),
        lookup(&after, seed),
        "the book's move for seed {seed}"
    );
    assert_eq!(source(&machine), "ENGINE_MOVE_BOOK");
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_time_guard_plays_the_last_finished_iteration_when_the_deadline_ends() {
    // After b2-b3, out of the book, HARD's search starts with the cap as its deadline.
    let mut machine = engine_thinking(Level::Hard);
    let game = after_b2b3();
    // The deadline, counted down from the cap by each VBlank since the search began.
    let cap = ModelLevel::Hard.cap_frames();
    let cap_left = machine.read_u16("wThinkFramesLeft").unwrap();
    assert!(
        (cap - 4..=cap).contains(&cap_left),
        "{cap_left} frames left of {cap}"
    );
    // The whole search there now takes less than the cap (under 2 seconds): the deadline
    // is brought forward to 1.3 seconds, within depth 4, to see what its end does.
    let left: u16 = 80;
    let [low, high] = left.to_le_bytes();
    machine.write_u8("wThinkFramesLeft", low).unwrap();
    let deadline = machine.symbol("wThinkFramesLeft").unwrap();
    machine.write_u8(deadline + 1, high).unwrap();
    let frames = frames_until_records(&mut machine, 2, u32::from(cap));
    assert_eq!(
        frames,
        u32::from(left),
        "the move came {frames} frames later, {left} were left of the cap of {cap}"
    );
    assert_eq!(source(&machine), "ENGINE_MOVE_GUARD");
    let expected = model_stopped_where_the_cartridge_stopped(&machine, &game);
    assert_eq!(recorded_move(&machine, game.position(), 1), expected);
    println!(
        "the model's node budget ({} nodes) plays {}",
        ModelLevel::Hard.node_budget(),
        search(&game, ModelLevel::Hard.limits()).best.unwrap()
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_during_the_search_plays_the_last_finished_iterations_move_at_once_and_is_spent() {
    let mut machine = engine_thinking(Level::Hard);
    let game = after_b2b3();
    // A second into the search (an earlier iteration has finished, not the fourth), A.
    machine.run_frames(60).unwrap();
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "the search ended"
    );
    let cursor = super::support::cursor(&machine);
    machine.tap(Button::A, 2).unwrap();
    let frames = frames_until_records(&mut machine, 2, 4);
    println!("moved {frames} frames after the A's two");
    assert_eq!(source(&machine), "ENGINE_MOVE_NOW");
    let expected = model_stopped_where_the_cartridge_stopped(&machine, &game);
    assert_eq!(recorded_move(&machine, game.position(), 1), expected);
    // The A does not pick up a piece on the player's turn.
    machine.run_frames(8).unwrap();
    assert_eq!(
        state(&machine),
        State::Human,
        "the A acted on the player's turn"
    );
    assert_eq!(super::support::cursor(&machine), cursor);
    // A new A picks up a piece: the pawn on c2 (the engine's b5-b4 blocks the one on b3).
    super::support::steer(
        &mut machine,
        super::support::place(super::support::square("c2"), false),
        "c2",
    );
    press(&mut machine, Button::A);
    assert_eq!(
        state(&machine),
        State::Picked,
        "a new A picks up the pawn on c2"
    );
    machine.assert_no_violations().unwrap();
}
