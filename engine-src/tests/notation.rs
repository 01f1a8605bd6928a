//! Move-list notation and UCI moves: the examples of docs/rules.md, round trips over
//! every legal move of many positions, and the exact error messages.

use engine_src::notation::{format_move_list, parse, parse_uci, write};
use engine_src::{Move, Position};

mod common;
use common::walk_positions;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

fn uci(position: &Position, text: &str) -> Move {
    position
        .parse_uci(text)
        .unwrap_or_else(|error| panic!("{error}"))
}

fn written(fen: &str, uci_move: &str) -> String {
    let position = position(fen);
    write(&position, &uci(&position, uci_move))
}

fn parse_error(position: &Position, text: &str) -> String {
    match parse(position, text) {
        Ok(m) => panic!("{text} was read as {m}"),
        Err(error) => error.to_string(),
    }
}

fn uci_error(position: &Position, text: &str) -> String {
    match parse_uci(position, text) {
        Ok(m) => panic!("{text} was read as {m}"),
        Err(error) => error.to_string(),
    }
}

/// The walk these tests take through the game tree.
const WALK_SEED: u64 = 0xD1B5_4A32_D192_ED03;

#[test]
fn spec_examples() {
    let start = "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1";
    assert_eq!(written(start, "b2b3"), "Pb2-b3");
    assert_eq!(written(start, "b1c3"), "Nb1-c3");
    assert_eq!(written("4k/5/p4/1P3/5/4K b - - 0 1", "a4b3"), "Pa4xb3");
    assert_eq!(written("4k/3p1/5/5/5/3QK w - - 0 1", "d1d5"), "Qd1xd5+");
    assert_eq!(written("4k/5/5/5/5/R3K w Q - 0 1", "e1c1"), "O-O-O");
    assert_eq!(written("4k/5/5/5/5/R3K w Q - 0 1", "e1d1"), "Ke1-d1");
    assert_eq!(written("4k/1P3/5/5/5/K4 w - - 0 1", "b5b6q"), "Pb5-b6=Q+");
    assert_eq!(written("5/1P2k/5/5/5/K4 w - - 0 1", "b5b6q"), "Pb5-b6=Q");
    assert_eq!(written("k4/5/3pP/5/5/K4 b - e3 0 1", "d4e3"), "Pd4xe3");
    assert_eq!(written("5/5/5/2k2/4q/K4 b - - 0 1", "e2b2"), "Qe2-b2#");
}

#[test]
fn numbered_move_list() {
    let start = Position::start();
    let mut current = start;
    let mut moves = Vec::new();
    for text in ["e2e3", "a5a4", "d2d3", "e5e4", "b2b3", "a4b3"] {
        let m = uci(&current, text);
        current.play_unchecked(&m);
        moves.push(m);
    }
    assert_eq!(
        format_move_list(&start, &moves).unwrap(),
        [
            "1.Pe2-e3",
            "1...Pa5-a4",
            "2.Pd2-d3",
            "2...Pe5-e4",
            "3.Pb2-b3",
            "3...Pa4xb3"
        ]
    );
    // A list starting with Black to move, numbered from the FEN's move number.
    let black = position("4k/5/p4/1P3/5/4K b - - 3 7");
    let m = uci(&black, "a4b3");
    assert_eq!(format_move_list(&black, &[m]).unwrap(), ["7...Pa4xb3"]);
    // An illegal move stops the list with an error.
    assert_eq!(
        format_move_list(&start, &[moves[1]])
            .unwrap_err()
            .to_string(),
        "illegal move \"a5a4\": not legal after 0 moves, at rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1"
    );
    assert_eq!(
        format_move_list(&start, &[moves[0], moves[0]])
            .unwrap_err()
            .to_string(),
        "illegal move \"e2e3\": not legal after 1 move, at rnbqk/ppppp/5/4P/PPPP1/RNBQK b Qq - 0 1"
    );
}

#[test]
fn parse_accepts_check_and_mate_signs_or_none() {
    let queen = position("4k/3p1/5/5/5/3QK w - - 0 1");
    let capture = uci(&queen, "d1d5");
    assert_eq!(parse(&queen, "Qd1xd5+"), Ok(capture));
    assert_eq!(parse(&queen, "Qd1xd5"), Ok(capture));
    assert_eq!(parse(&queen, " Qd1xd5 "), Ok(capture));
    let mate = position("5/5/5/2k2/4q/K4 b - - 0 1");
    assert_eq!(parse(&mate, "Qe2-b2#"), parse(&mate, "Qe2-b2"));
    let castle = position("4k/5/5/5/5/R3K w Q - 0 1");
    assert_eq!(parse(&castle, "O-O-O"), Ok(uci(&castle, "e1c1")));
    assert_eq!(parse(&castle, "0-0-0"), Ok(uci(&castle, "e1c1")));
}

#[test]
fn write_then_parse_gives_every_legal_move_back() {
    let positions = walk_positions(WALK_SEED, 40, 80);
    let mut moves = 0;
    for position in &positions {
        for m in &position.legal_moves() {
            let text = write(position, m);
            assert_eq!(
                parse(position, &text),
                Ok(*m),
                "{text} in {}",
                position.to_fen()
            );
            assert_eq!(
                position.parse_uci(&m.to_uci()),
                Ok(*m),
                "{m} in {}",
                position.to_fen()
            );
            moves += 1;
        }
    }
    assert!(moves > 20_000, "only {moves} moves checked");
}

#[test]
fn parse_errors() {
    let start = Position::start();
    assert_eq!(
        parse_error(&start, "Nb1c3"),
        "cannot read move \"Nb1c3\": expected a piece letter (K Q R B N P), two squares joined by - or x, and =Q, =R, =B or =N for a promotion, like Nb1-c3, Pa4xb3, Pb5-b6=Q, or O-O-O"
    );
    assert!(parse_error(&start, "nb1-c3").starts_with("cannot read move \"nb1-c3\""));
    assert!(parse_error(&start, "Pb2-b3=K").starts_with("cannot read move"));
    assert!(parse_error(&start, "Pb2-b3=q").starts_with("cannot read move"));
    assert!(parse_error(&start, "").starts_with("cannot read move \"\""));
    assert_eq!(
        parse_error(&start, "Nc3-d5"),
        "illegal move \"Nc3-d5\": there is no piece on c3"
    );
    assert_eq!(
        parse_error(&start, "Pb5-b4"),
        "illegal move \"Pb5-b4\": the piece on b5 is Black's, and it is White's turn"
    );
    assert_eq!(
        parse_error(&start, "Bb1-c3"),
        "illegal move \"Bb1-c3\": the piece on b1 is a knight (N), not a bishop (B)"
    );
    assert_eq!(
        parse_error(&start, "Nb1-d2"),
        "illegal move \"Nb1-d2\": the knight on b1 cannot go to d2"
    );
    assert_eq!(
        parse_error(&start, "Pb2xb3"),
        "illegal move \"Pb2xb3\": there is nothing to take on b3: write - for a move without capture"
    );
    assert_eq!(
        parse_error(&start, "Pb2-b3=Q"),
        "illegal move \"Pb2-b3=Q\": only a pawn reaching the last rank promotes"
    );
    assert_eq!(
        parse_error(&start, "O-O-O"),
        "illegal move \"O-O-O\": White cannot castle now"
    );
    let capture = position("4k/5/p4/1P3/5/4K b - - 0 1");
    assert_eq!(
        parse_error(&capture, "Pa4-b3"),
        "illegal move \"Pa4-b3\": it takes a pawn: write x instead of -"
    );
    let promotion = position("3k1/1P3/5/5/5/K4 w - - 0 1");
    assert_eq!(
        parse_error(&promotion, "Pb5-b6"),
        "illegal move \"Pb5-b6\": a pawn reaching rank 6 must promote: add =Q, =R, =B or =N"
    );
    let castle = position("4k/5/5/5/5/R3K w Q - 0 1");
    assert_eq!(
        parse_error(&castle, "Ke1-c1"),
        "illegal move \"Ke1-c1\": castling is written O-O-O"
    );
}

#[test]
fn uci_errors() {
    let start = Position::start();
    assert_eq!(
        uci_error(&start, "b2b5"),
        "illegal move \"b2b5\": not a legal move for White in rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1"
    );
    assert_eq!(
        uci_error(&start, "f2f3"),
        "cannot read UCI move \"f2f3\": expected two squares a1-e6 and an optional promotion letter q, r, b or n, like b2b3 or b5b6q"
    );
    for text in [
        "", "b2", "b2b3x", "b2b3k", "b5b6Q", "b2-b3", "b2b3qq", "é2e3",
    ] {
        assert!(
            uci_error(&start, text).starts_with("cannot read UCI move"),
            "{text}"
        );
    }
    assert!(uci_error(&start, "b2b3q").starts_with("illegal move \"b2b3q\""));
}

#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "KQRBNPkqrbnpabcdef0123456789-x=+#O é".chars().collect();
    let positions = walk_positions(WALK_SEED, 5, 30);
    let mut seed = 0x1234_5678_9ABC_DEF1_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..20_000 {
        let position = &positions[(next() % positions.len() as u64) as usize];
        let len = (next() % 10) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        if let Ok(m) = parse(position, &text) {
            assert!(position.is_legal(&m));
        }
        if let Ok(m) = parse_uci(position, &text) {
            assert!(position.is_legal(&m));
        }
    }
}
