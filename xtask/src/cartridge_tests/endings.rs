//! Games played to their end through the joypad, every move as a person would press it,
//! and the reference model's `Game` beside them: each draw the moves decide (stalemate,
//! insufficient material, fifty moves, repetition) between two players, and whole games
//! against the engine. After every ply wBoard is the model's; at the end the game says
//! the ending the model finds, in words, and the move list shows the model's notation.

use engine_src::{Color, Game, Move, Outcome, Position};

use super::support::{
    assert_board_is, assert_status, between_updates, bottom_top, choose_move, constant, drain,
    ending, game, game_at, move_list_panel, move_list_top, pad_bit, play, press, record, records,
    rows, state, view, winner, Ending, Level, Mode, State,
};
use crate::harness::{Button, Machine, CYCLES_PER_FRAME};
use crate::random::SplitMix64;

/// The stalemate in the fewest plies that 2,500,000 seeded random games found (each
/// move a random capture when there is one, else a random move): after 6...Pd4xe3
/// White, not in check, has no move: the knight on b1 is pinned by the rook on a1, the
/// pawns on b3 and e2 are blocked, and the queen on d6 (with the pawn on e3) covers the
/// king's d1 and d2.
const STALEMATE: &str = "b2b4 a5b4 c2c4 d5c4 d1b3 c4b3 a2b3 a6a1 d2d4 e5d4 c1e3 d4e3";

/// The insufficient material in the fewest plies (then the fewest presses) that
/// 2,500,000 seeded random games found, captures first as for [`STALEMATE`]:
/// 10.Ke1xe2 takes the last bishop, and a bare king stands against king and knight.
const INSUFFICIENT_MATERIAL: &str = "c2c4 d5c4 b2b3 d6d2 d1d2 c4b3 d2a5 b3a2 a5a6 a2b1r a6b5 \
    b1c1 a1c1 c6b5 c1c5 b5e2 c5e5 e6e5 e1e2";

/// Fifty moves: two pawn moves free the queens (1.Pc2-c4 Pa5-a3), then 100 plies
/// without a capture or a pawn move, mostly the two queens stepping round each other
/// next to the square the other has just left, no position a third time. Found by a
/// beam search over the model for the game of the fewest presses: from every pair of
/// first pawn moves, each ply every allowed move (no capture, no pawn move, no third
/// repetition), the 3,000 cheapest games kept.
const FIFTY_MOVES: &str =
    "c2c4 a5a3 d1a4 a6a5 a4b4 a5a4 b4b3 a4b4 b3c3 b4b3 c3d3 b3c3 d3e3 c3d3 e3e4 d3e3 e4d4 \
    e3e4 d4d3 e4e3 d3d4 e3d3 d4e4 d3d4 e4e3 d4e4 e3d3 e4e3 d3c3 e3d3 c3d4 d3e3 d4d3 e3e4 \
    d3e3 e4d4 e3e4 d4d3 e4e3 d3d4 e3d3 d4e4 d3d4 e4e3 d4e4 e3d3 e4e3 d3c3 e3d3 c3c2 e1d1 \
    c2c3 d3d4 c3d3 d4e4 d3d4 e4e3 d4d3 e3e4 d3d4 e4e3 d4e4 e3d3 e4e3 d3d4 e3e4 d4d3 e4d4 \
    d3c3 d4d3 c3c2 d3c3 c2b3 c3d3 b3c3 d3e3 c3d3 e3e4 d3d4 e4e3 d4e4 e3d3 e4e3 d3d4 e3d3 \
    d4e4 d3e3 e4d4 e3e4 d4d3 e4d4 d3c3 d4d3 c3b3 d3c3 b3b4 c3b3 b4a4 b3b4 a4a5 b4a4 a5a6";

/// The shortest threefold repetition: both knights out and back twice, and the start
/// position stands for the third time (with the same side to move and castling rights).
const REPETITION: &str = "b1a3 b6a4 a3b1 a4b6 b1a3 b6a4 a3b1 a4b6";

/// The wEnding, the winner line and the words of the status line the game shows for an
/// ending the moves decide (asm/ui/game.asm's EndingTexts), the last rows B: TAKE BACK and A: NEW GAME.
fn ending_on_screen(outcome: Outcome) -> (Ending, [String; 4]) {
    let (ending, words): (Ending, [&str; 2]) = match outcome {
        Outcome::Checkmate { .. } => (Ending::Checkmate, ["CHECKMATE", ""]),
        Outcome::Stalemate => (Ending::Stalemate, ["STALEMATE", "DRAW"]),
        Outcome::InsufficientMaterial => (
            Ending::InsufficientMaterial,
            ["DRAW BY INSUFFICIENT", "MATERIAL"],
        ),
        Outcome::FiftyMoves => (Ending::FiftyMoves, ["DRAW BY FIFTY MOVES", ""]),
        Outcome::ThreefoldRepetition => (Ending::Repetition, ["DRAW BY REPETITION", ""]),
        other => panic!("{other} is not decided by the moves"),
    };
    let second = match outcome.winner() {
        Some(Color::White) => "WHITE WINS".to_owned(),
        Some(Color::Black) => "BLACK WINS".to_owned(),
        None => words[1].to_owned(),
    };
    (
        ending,
        [
            words[0].to_owned(),
            second,
            "B: TAKE BACK".to_owned(),
            "A: NEW GAME".to_owned(),
        ],
    )
}

/// The move list panel shows the model's notation of `model`'s game, scrolled to its
/// newest rows, and the list holds the game's records.
fn assert_move_list_is(machine: &mut Machine, model: &Game, context: &str) {
    let rows = rows(machine, &model.move_list().unwrap());
    let bottom = bottom_top(machine, &rows);
    assert_eq!(
        move_list_panel(machine),
        view(machine, &rows, bottom),
        "{context}: the panel"
    );
    assert_eq!(
        move_list_top(machine),
        bottom,
        "{context}: the panel's top row"
    );
    let mut position = *model.start();
    let want: Vec<[u8; 4]> = model
        .moves()
        .iter()
        .map(|m| {
            let r = record(machine, &position, m);
            position = position.play(m);
            r
        })
        .collect();
    assert_eq!(records(machine), want, "{context}: the records");
}

/// The game has ended as the model's game has, and says so.
fn assert_ended_as_the_model(machine: &mut Machine, model: &Game) {
    let outcome = model.outcome().expect("the model's game goes on");
    assert_eq!(
        state(machine),
        State::Over,
        "the game goes on after {outcome}"
    );
    let (ending, status) = ending_on_screen(outcome);
    assert_eq!(self::ending(machine), Some(ending), "{outcome}");
    assert_eq!(winner(machine), outcome.winner(), "{outcome}");
    // The last row's A: NEW GAME is queued after the ending's words.
    machine.run_frames(4).unwrap();
    assert_status(machine, status.each_ref().map(String::as_str));
}

/// Plays `game_moves` (UCI moves from the start) between two players through the joypad;
/// the game must end after its last move, as `outcome`, and not before.
fn play_to_the_end(game_moves: &str, outcome: Outcome) {
    let mut machine = game(Mode::TwoPlayers);
    let mut model = Game::new(Position::start());
    let moves: Vec<&str> = game_moves.split_whitespace().collect();
    for (ply, uci) in moves.iter().enumerate() {
        assert_eq!(model.outcome(), None, "the model's game ended before {uci}");
        assert_eq!(
            state(&machine),
            State::Human,
            "ply {ply}: the game is not waiting for {uci}"
        );
        let m = model.position().parse_uci(uci).unwrap();
        play(&mut machine, model.position(), uci, false);
        model.play(m).unwrap();
        assert_board_is(&machine, model.position(), &format!("ply {ply}, {uci}"));
    }
    assert_eq!(model.outcome(), Some(outcome), "the model's verdict");
    assert_ended_as_the_model(&mut machine, &model);
    assert_move_list_is(&mut machine, &model, "the end");
    machine.assert_no_violations().unwrap();
}

#[test]
fn two_players_reach_stalemate_through_the_joypad() {
    play_to_the_end(STALEMATE, Outcome::Stalemate);
}

#[test]
fn two_players_reach_insufficient_material_through_the_joypad() {
    play_to_the_end(INSUFFICIENT_MATERIAL, Outcome::InsufficientMaterial);
}

#[test]
fn two_players_reach_the_fifty_move_rule_through_the_joypad() {
    play_to_the_end(FIFTY_MOVES, Outcome::FiftyMoves);
}

#[test]
fn two_players_reach_a_threefold_repetition_through_the_joypad() {
    play_to_the_end(REPETITION, Outcome::ThreefoldRepetition);
}

/// The most frames the engine may think over one move (MEDIUM's longest on the
/// benchmark is under 5 DMG seconds, 300 frames).
const ENGINE_FRAMES: u32 = 3000;

/// The human's move: a random one of the legal moves that take nothing (any move when
/// all of them take), so that the human loses its pieces and the engine mates soon.
fn weak_move(position: &Position, rng: &mut SplitMix64) -> Move {
    let legal = position.legal_moves();
    let quiet: Vec<Move> = legal.iter().copied().filter(|m| !m.is_capture()).collect();
    let pool: &[Move] = if quiet.is_empty() { &legal } else { &quiet };
    pool[rng.below(pool.len())]
}

/// Runs frames until the engine's move is in the move list, then to the end of that
/// update (which goes on to draw the list and the board); gives the model's move it
/// is, checked to be legal in `position` with the record's piece and flags.
fn engine_move(machine: &mut Machine, position: &Position, ply: usize) -> Move {
    for _ in 0..ENGINE_FRAMES {
        if records(machine).len() > ply {
            between_updates(machine);
            let recorded = records(machine)[ply];
            return *position
                .legal_moves()
                .iter()
                .find(|m| record(machine, position, m) == recorded)
                .unwrap_or_else(|| {
                    panic!(
                        "ply {ply}: the engine's record {recorded:02X?} is no legal move of {}",
                        position.to_fen()
                    )
                });
        }
        machine.run_frames(1).unwrap();
    }
    panic!("ply {ply}: the engine did not move within {ENGINE_FRAMES} frames");
}

/// A whole game against the engine at `level`, the human playing `human` with
/// [`weak_move`] from `seed` through the joypad, checked ply by ply against the model
/// until it ends.
fn play_against_the_engine(human: Color, level: Level, seed: u64) {
    let black_bottom = human == Color::Black;
    let mode = if black_bottom {
        Mode::Black
    } else {
        Mode::White
    };
    let mut machine = game_at(mode, level);
    // The most plies a game against the engine may take here: the move list's.
    let max_plies: usize = constant(&machine, "MAX_GAME_MOVES");
    let mut model = Game::new(Position::start());
    let mut rng = SplitMix64::new(seed);
    let mut panels_checked = 0;
    let mut answered_at_once = 0;
    while !model.is_over() {
        let ply = model.moves().len();
        assert!(ply < max_plies, "no ending within {max_plies} plies");
        let position = *model.position();
        let m = if position.turn() == human {
            assert_eq!(
                state(&machine),
                State::Human,
                "ply {ply}: not the human's turn"
            );
            let m = weak_move(&position, &mut rng);
            choose_move(&mut machine, &position, &m.to_uci(), black_bottom);
            // The last A plays the move. The engine's search, which makes and
            // unmakes its moves on wBoard, starts at the next update: A is held until
            // then (the two frames of a press) and wBoard is read there.
            let mut after = model.clone();
            after.play(m).unwrap();
            if after.is_over() {
                press(&mut machine, Button::A);
            } else {
                machine.press(Button::A);
                machine
                    .run_until("UpdateEngineTurn", 4 * CYCLES_PER_FRAME)
                    .unwrap_or_else(|error| panic!("ply {ply}: {error:#}"));
                machine.release(Button::A);
            }
            m
        } else {
            if position
                .legal_moves()
                .iter()
                .any(|m| position.play(m).is_checkmate())
            {
                press_up_during_the_last_search(&mut machine, ply);
            }
            engine_move(&mut machine, &position, ply)
        };
        let context = format!("ply {ply}, {m}");
        assert_eq!(
            records(&machine).get(ply),
            Some(&record(&machine, &position, &m)),
            "{context}: the record"
        );
        model.play(m).unwrap();
        assert_board_is(&machine, model.position(), &context);
        // The panel follows the human's move while the engine thinks, over the frames
        // the VRAM queue takes; an engine that answers within them has changed it
        // again, and the check after its move sees both moves' rows. (A book move
        // comes at once: then both moves' redraws are queued, 16 frames' worth.)
        drain(&mut machine, 16);
        if records(&machine).len() == model.moves().len() {
            assert_move_list_is(&mut machine, &model, &context);
            panels_checked += 1;
        } else {
            // The engine answered within those frames: its move's check covers this one.
            answered_at_once += 1;
        }
    }
    assert_ended_as_the_model(&mut machine, &model);
    machine.assert_no_violations().unwrap();
    println!(
        "{human} at level {level:?}, seed {seed}: {}, {} plies, the panel checked after {panels_checked}",
        model.outcome().unwrap(),
        model.moves().len()
    );
    assert_eq!(
        panels_checked + answered_at_once,
        model.moves().len(),
        "the panel was not checked after every ply (or the engine's answer to it)"
    );
}

/// The engine can mate: Up is pressed while it searches (on the end screen it would
/// scroll the move list; A would be "move now", which spends it), and must still be
/// queued when the mate ends the game. (The ending drops it, so the result stays on the
/// screen as it came: [`assert_ended_as_the_model`] then looks at it.)
fn press_up_during_the_last_search(machine: &mut Machine, ply: usize) {
    // A mate in one the search sees at depth 1 (the check extension) can be played
    // within the frames of the player's last press: then there is no search to press
    // Up in, and the ending is checked as usual.
    if state(machine) == State::Over && records(machine).len() == ply + 1 {
        return;
    }
    assert_eq!(
        (state(machine), records(machine).len()),
        (State::Engine, ply),
        "ply {ply}: the engine is not thinking"
    );
    machine.press(Button::Up);
    machine
        .run_until("EndGame", u64::from(ENGINE_FRAMES) * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("ply {ply}: the mate did not end the game: {error:#}"));
    machine.release(Button::Up);
    let queue_size: usize = constant(machine, "PAD_QUEUE_SIZE");
    let pad_up = pad_bit(machine, Button::Up);
    let queue = machine.read("hPadQueue", queue_size).unwrap();
    assert!(
        queue.iter().any(|presses| presses & pad_up != 0),
        "ply {ply}: the engine's search ended before Up was read (queue {queue:02X?})"
    );
}

#[test]
fn a_whole_game_as_white_against_the_engine_at_easy_ends_as_the_model_says() {
    play_against_the_engine(Color::White, Level::Easy, 1);
}

#[test]
fn a_whole_game_as_black_against_the_engine_at_medium_ends_as_the_model_says() {
    play_against_the_engine(Color::Black, Level::Medium, 1);
}
