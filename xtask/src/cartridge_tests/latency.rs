//! The frames a player waits around the engine's search, counted as the cartridge match
//! counts them (xtask/src/cartridge_match/play.rs): the engine's turn starts at the first
//! VBlank with wGameState at STATE_ENGINE, its move is shown at the first VBlank after
//! the state has left it with the VRAM queue empty. What PlayMove queues after the
//! engine's move: its two squares (two tiles a tile row, the board first; the rows of
//! squares for a castle or an en-passant capture), the move list's new rows (or all 11
//! once it scrolls), and the status line's row (20 tiles). The VBlank handler copies
//! VRAM_QUEUE_BUDGET (72) of it a frame, an entry costing its length and
//! VRAM_QUEUE_ENTRY_COST (4): so the move shows three frames after the VBlank its search
//! was stopped in, four once the list scrolls, and the time guard's caps leave
//! LEVEL_CAP_SHOW_FRAMES for that (engine-src/src/search.rs).

use engine_src::search::{search, Limits, LEVEL_CAP_SHOW_FRAMES};
use engine_src::{Game, Move, Position};

use super::support::{
    art, board_at, cartridge, choose_move, constant, engine_thinking, new_game, play, queued_bytes,
    records, state, wait_for_human, Level, Mode, Options, State,
};
use crate::harness::{Button, Machine};
use crate::soak::cartridge::{check_shown_board, recorded_move, RecordCodes};

/// The most frames any wait here may take.
const MOST_FRAMES: u32 = 600;

/// Runs frames until the engine's move (the move list's record `plies`) is shown: the
/// state has left STATE_ENGINE and the VRAM queue is empty at a VBlank. Gives the frames
/// it took.
fn frames_until_shown(machine: &mut Machine, plies: usize) -> u32 {
    for frame in 0..=MOST_FRAMES {
        if records(machine).len() > plies
            && state(machine) != State::Engine
            && queued_bytes(machine) == 0
        {
            return frame;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine's move was not shown within {MOST_FRAMES} frames");
}

/// Runs frames until the engine's turn has started (a VBlank with STATE_ENGINE); the
/// frames it took.
fn frames_until_engine_turn(machine: &mut Machine) -> u32 {
    for frame in 0..=MOST_FRAMES {
        if state(machine) == State::Engine {
            return frame;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine's turn did not start within {MOST_FRAMES} frames");
}

/// wEngineMoveSource is the ENGINE_MOVE_* constant `name`.
fn source_is(machine: &Machine, name: &str) -> bool {
    machine.read_u8("wEngineMoveSource").unwrap() == constant::<u8>(machine, name)
}

/// Brings the search's deadline (wThinkFramesLeft, counted down by each VBlank) to
/// `frames`.
fn set_deadline(machine: &mut Machine, frames: u16) {
    let at = machine.symbol("wThinkFramesLeft").unwrap();
    machine.write(at, &frames.to_le_bytes()).unwrap();
}

/// Runs frames up to the VBlank whose handler stops the search at its deadline (the
/// deadline is then 1); then the frames from there to the move shown.
fn frames_from_deadline_to_shown(machine: &mut Machine) -> u32 {
    let plies = records(machine).len();
    for _ in 0..=MOST_FRAMES {
        if machine.read_u16("wThinkFramesLeft").unwrap() == 1 {
            let frames = frames_until_shown(machine, plies);
            assert!(
                source_is(machine, "ENGINE_MOVE_GUARD"),
                "the guard did not stop it"
            );
            return frames;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the deadline did not come");
}

/// The board the screen shows is `position`'s.
fn assert_board_shown(machine: &Machine, position: &Position) {
    check_shown_board(machine, &art(), position, false).unwrap_or_else(|e| panic!("{e:#}"));
}

#[test]
fn the_players_move_starts_the_engines_turn_at_the_next_vblank() {
    let mut machine = board_at(Level::Easy);
    let start = Position::start();
    choose_move(&mut machine, &start, "b2b3", false);
    // A seen by this VBlank's joypad read: the update after it plays b2-b3 (its rows of
    // squares, its list row and the status line queued) and makes it the engine's turn.
    machine.press(Button::A);
    let frames = frames_until_engine_turn(&mut machine);
    machine.release(Button::A);
    assert_eq!(
        frames, 1,
        "the engine's turn started {frames} frames after the A"
    );
    // Its search starts in the update right after that VBlank (once the handler, about
    // 1,100 cycles while it copies the player's move, has run).
    machine.run_until("StartSearch", 4_000).unwrap();
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_book_move_is_shown_three_frames_after_the_engines_turn_starts() {
    let mut machine = new_game(&cartridge(), Options::Chosen(Mode::White, Level::Hard), 2);
    let start = Position::start();
    let m = choose_move(&mut machine, &start, "c2c3", false);
    let after = start.play(&m);
    machine.press(Button::A);
    frames_until_engine_turn(&mut machine);
    machine.release(Button::A);
    // The book's move is played in the turn's first update, behind what is left of the
    // player's move in the queue (the rows its outlines were on, its list row and the
    // status row): both take two more VBlanks.
    let frames = frames_until_shown(&mut machine, 1);
    assert!(source_is(&machine, "ENGINE_MOVE_BOOK"));
    assert_eq!(
        frames, 3,
        "the book's move was shown {frames} frames after its turn"
    );
    let codes = RecordCodes::read(&machine).unwrap();
    let reply = recorded_move(&codes, &after, records(&machine)[1]).unwrap();
    assert_board_shown(&machine, &after.play(&reply));
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_search_stopped_by_its_deadline_shows_its_move_three_frames_later() {
    let mut machine = engine_thinking(Level::Hard);
    set_deadline(&mut machine, 60);
    // The search stops in the VBlank handler and its move is played in the update after
    // it: its two squares (24 of the budget), Black's two list rows (26) and the status
    // row (24) take two more VBlanks.
    let frames = frames_from_deadline_to_shown(&mut machine);
    assert_eq!(
        frames, 3,
        "the move was shown {frames} frames after the deadline"
    );
    machine.assert_no_violations().unwrap();
}

/// The model's answer to `game` at depth 1: the player's moves of [`list_scrolling`].
fn players_move(game: &Game) -> Move {
    search(game, Limits::depth(1))
        .best
        .expect("the player has a move")
}

/// A game against the engine out of the book, the human White playing the model's depth-1
/// moves, until the move list no longer fits its panel: each move from then on scrolls
/// every row of it. Gives the game so far (the player to move).
fn list_scrolling(machine: &mut Machine) -> Game {
    let codes = RecordCodes::read(machine).unwrap();
    let height = usize::try_from(constant::<u32>(machine, "MOVE_LIST_HEIGHT")).unwrap();
    let mut game = Game::new(Position::start());
    while usize::from(machine.read_u16("wMoveListRows").unwrap()) <= height {
        let m = players_move(&game);
        play(machine, game.position(), &m.to_uci(), false);
        game.play(m).unwrap();
        wait_for_human(machine);
        let reply = recorded_move(
            &codes,
            game.position(),
            records(machine)[game.moves().len()],
        )
        .unwrap();
        game.play(reply).unwrap();
        assert!(game.outcome().is_none(), "the game ended");
    }
    game
}

#[test]
fn with_the_move_list_scrolling_a_stopped_search_shows_its_move_four_frames_later() {
    // (MEDIUM: EASY's search can end within the frames the player's press takes, before
    // the test sets its deadline.)
    let mut machine = board_at(Level::Medium);
    let mut game = list_scrolling(&mut machine);
    let codes = RecordCodes::read(&machine).unwrap();
    // The engine's first stopped move that gives no check (a check's second status row
    // would come a frame later): each move of the player is answered so.
    let frames = loop {
        let m = players_move(&game);
        play(&mut machine, game.position(), &m.to_uci(), false);
        game.play(m).unwrap();
        assert_eq!(
            state(&machine),
            State::Engine,
            "the engine has moved already"
        );
        set_deadline(&mut machine, 2);
        // Its two squares (24 of the budget), the list's 11 rows (143) and the status
        // row (24): three VBlanks after the one that stopped the search.
        let frames = frames_from_deadline_to_shown(&mut machine);
        let reply = recorded_move(
            &codes,
            game.position(),
            records(&machine)[game.moves().len()],
        )
        .unwrap();
        game.play(reply).unwrap();
        assert!(game.outcome().is_none(), "the game ended");
        if !game.position().is_check() {
            break frames;
        }
        wait_for_human(&mut machine);
    };
    assert_eq!(
        frames, 4,
        "the move was shown {frames} frames after the deadline"
    );
    // The caps leave these frames and two more: for a move that also gives check or
    // ends the game (two to four status rows), with a clock's second drawn in between;
    // the cartridge match met 6 frames on 1 of its 43 guarded EASY moves, 5 on 7. So a
    // move the guard cut is shown by the level's promise.
    assert_eq!(
        u32::from(LEVEL_CAP_SHOW_FRAMES),
        frames + 2,
        "the frames the time guard's caps leave to show the move"
    );
    assert_board_shown(&machine, game.position());
    machine.assert_no_violations().unwrap();
}
