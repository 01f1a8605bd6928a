//! Every way a game ends (docs/rules.md, "How a game ends"), played through [`Game`].

use engine_src::{Color, Game, GameError, Outcome, Position};

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")))
}

/// Plays UCI moves, checking the game is still going before each.
fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        assert_eq!(game.outcome(), None, "game over before {text}");
        let m = game
            .position()
            .parse_uci(text)
            .unwrap_or_else(|error| panic!("{error}"));
        game.play(m).unwrap_or_else(|error| panic!("{error}"));
    }
}

#[test]
fn a_new_game_is_going_on() {
    let game = Game::new(Position::start());
    assert_eq!(game.outcome(), None);
    assert!(!game.is_over());
    assert_eq!(game.repetitions(), 1);
    assert!(game.moves().is_empty());
}

#[test]
fn checkmate() {
    let mut game = game("5/5/5/2k2/4q/K4 b - - 0 1");
    play(&mut game, &["e2b2"]);
    let outcome = Outcome::Checkmate {
        winner: Color::Black,
    };
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(outcome.to_string(), "checkmate, Black wins");
    assert_eq!(game.move_list().unwrap(), ["1...Qe2-b2#"]);
    let any_move = game.moves()[0];
    assert_eq!(game.play(any_move), Err(GameError::GameOver(outcome)));
}

#[test]
fn checkmate_beats_the_fifty_move_rule() {
    let mut game = game("5/5/5/2k2/4q/K4 b - - 99 80");
    play(&mut game, &["e2b2"]);
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn stalemate() {
    let mut game = game("4k/5/5/5/3q1/K4 b - - 0 1");
    play(&mut game, &["d2c2"]);
    assert_eq!(game.outcome(), Some(Outcome::Stalemate));
    assert_eq!(Outcome::Stalemate.to_string(), "stalemate");
}

#[test]
fn insufficient_material() {
    // King and knight against a bare king.
    let mut knight = game("4k/5/5/3p1/5/K1N2 w - - 0 1");
    play(&mut knight, &["c1d3"]);
    assert_eq!(knight.outcome(), Some(Outcome::InsufficientMaterial));
    // King and bishop against a bare king.
    let mut bishop = game("4k/5/5/3p1/5/KB3 w - - 0 1");
    play(&mut bishop, &["b1d3"]);
    assert_eq!(bishop.outcome(), Some(Outcome::InsufficientMaterial));
    // Bare kings.
    let mut bare = game("4k/5/5/5/3p1/2K2 w - - 0 1");
    play(&mut bare, &["c1d2"]);
    assert_eq!(bare.outcome(), Some(Outcome::InsufficientMaterial));
    assert_eq!(
        Outcome::InsufficientMaterial.to_string(),
        "draw by insufficient material"
    );
}

#[test]
fn two_minor_pieces_are_not_insufficient() {
    // Two knights, a bishop each, bishop against knight: play goes on.
    for (fen, capture) in [
        ("4k/5/5/3p1/5/KNN2 w - - 0 1", "c1d3"),
        ("3bk/5/5/3p1/5/KB3 w - - 0 1", "b1d3"),
        ("3nk/5/5/3p1/5/KB3 w - - 0 1", "b1d3"),
    ] {
        let mut game = game(fen);
        play(&mut game, &[capture]);
        assert_eq!(game.outcome(), None, "{fen}");
    }
}

#[test]
fn fifty_moves_is_100_plies_not_99() {
    let mut game = game("4k/5/5/5/5/KR3 w - - 98 60");
    play(&mut game, &["b1b2"]);
    assert_eq!(game.position().halfmove_clock(), 99);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["e6e5"]);
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(game.outcome(), Some(Outcome::FiftyMoves));
    assert_eq!(Outcome::FiftyMoves.to_string(), "draw by fifty moves");
}

#[test]
fn a_capture_or_pawn_move_restarts_the_fifty_move_count() {
    let mut capture = game("4k/5/5/1r3/5/KR3 b - - 99 60");
    play(&mut capture, &["b3b1"]);
    assert_eq!(capture.position().halfmove_clock(), 0);
    assert_eq!(capture.outcome(), None);
    let mut pawn = game("4k/2p2/5/5/5/KR3 b - - 99 60");
    play(&mut pawn, &["c5c4"]);
    assert_eq!(pawn.position().halfmove_clock(), 0);
    assert_eq!(pawn.outcome(), None);
}

#[test]
fn threefold_repetition_by_knight_shuffling() {
    let mut game = Game::new(Position::start());
    let shuffle = ["b1a3", "b6a4", "a3b1", "a4b6"];
    play(&mut game, &shuffle);
    assert_eq!(game.repetitions(), 2);
    play(&mut game, &shuffle[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &shuffle[3..]);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
    assert_eq!(
        Outcome::ThreefoldRepetition.to_string(),
        "draw by repetition"
    );
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    // The rooks go out and back: the board is the start board again, but without
    // castling rights it is a new position.
    let mut game = game("r3k/5/5/5/5/R3K w Qq - 0 1");
    let shuffle = ["a1b1", "a6b6", "b1a1", "b6a6"];
    play(&mut game, &shuffle);
    assert_eq!(game.position().to_fen(), "r3k/5/5/5/5/R3K w - - 4 3");
    assert_eq!(game.repetitions(), 1);
    // The start board with White to move, for the third time: not a repetition.
    play(&mut game, &shuffle);
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    // Rooks on b1 and b6, rights gone, for the third time.
    play(&mut game, &shuffle[..2]);
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn a_possible_en_passant_makes_a_different_position() {
    // After e2-e4 Black may take en passant; after the knights' round trip the
    // same board no longer allows it, so it does not repeat the first one.
    let mut game = game("n3k/5/3p1/5/4P/N3K w - - 0 1");
    play(&mut game, &["e2e4", "a6b4", "a1b3", "b4a6", "b3a1"]);
    assert_eq!(game.position().board(), game_after_double_step().board());
    assert_eq!(game.repetitions(), 1);
    play(&mut game, &["a6b4", "a1b3", "b4a6", "b3a1"]);
    assert_eq!(game.repetitions(), 2);
}

fn game_after_double_step() -> Position {
    Position::from_fen("n3k/5/3pP/5/5/N3K b - e3 0 1").unwrap()
}

#[test]
fn endings_decided_by_the_players() {
    let mut resigned = Game::new(Position::start());
    resigned.resign(Color::White).unwrap();
    let outcome = Outcome::Resignation {
        loser: Color::White,
    };
    assert_eq!(resigned.outcome(), Some(outcome));
    assert_eq!(outcome.winner(), Some(Color::Black));
    assert_eq!(outcome.to_string(), "resigned, Black wins");
    let any_move = Position::start().legal_moves()[0];
    assert_eq!(resigned.play(any_move), Err(GameError::GameOver(outcome)));
    assert_eq!(resigned.agree_draw(), Err(GameError::GameOver(outcome)));

    let mut flag = Game::new(Position::start());
    flag.flag_fell(Color::Black).unwrap();
    assert_eq!(
        flag.outcome(),
        Some(Outcome::Timeout {
            loser: Color::Black
        })
    );
    assert_eq!(flag.outcome().unwrap().to_string(), "time, White wins");

    let mut agreed = Game::new(Position::start());
    agreed.agree_draw().unwrap();
    assert_eq!(agreed.outcome(), Some(Outcome::Agreement));
    assert!(Outcome::Agreement.is_draw());
    assert_eq!(Outcome::Agreement.to_string(), "draw by agreement");
}

#[test]
fn illegal_moves_are_refused() {
    let mut game = Game::new(Position::start());
    let black_move = game
        .position()
        .play(&game.position().legal_moves()[0])
        .legal_moves()[0];
    assert_eq!(
        game.play(black_move),
        Err(GameError::IllegalMove(black_move))
    );
    assert_eq!(
        GameError::IllegalMove(black_move).to_string(),
        format!("{black_move} is not a legal move in this position")
    );
    assert!(game.moves().is_empty());
}
