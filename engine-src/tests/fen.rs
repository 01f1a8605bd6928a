//! FEN reading and writing: round trips, the en-passant field, and every error
//! message with its exact text.

use engine_src::{FenError, Position, PositionError, Setup, Square};

mod common;
use common::walk_positions;

fn error(fen: &str) -> String {
    match Position::from_fen(fen) {
        Ok(position) => panic!("{fen} was accepted as {}", position.to_fen()),
        Err(error) => error.to_string(),
    }
}

/// The walk these tests take through the game tree.
const WALK_SEED: u64 = 0x2545_F491_4F6C_DD1D;

#[test]
fn round_trips_over_many_positions() {
    let positions = walk_positions(WALK_SEED, 60, 80);
    assert!(positions.len() > 3000);
    for position in positions {
        let fen = position.to_fen();
        assert_eq!(Position::from_fen(&fen), Ok(position), "{fen}");
    }
}

#[test]
fn written_fields() {
    let fen = "r1n1k/1P3/5/5/5/4K b - - 7 42";
    let position = Position::from_fen(fen).unwrap();
    assert_eq!(position.halfmove_clock(), 7);
    assert_eq!(position.fullmove_number(), 42);
    assert_eq!(position.to_fen(), fen);
    for castling in ["Q", "q", "Qq", "-"] {
        let fen = format!("r3k/5/5/5/5/R3K w {castling} - 0 1");
        assert_eq!(Position::from_fen(&fen).unwrap().to_fen(), fen);
    }
}

#[test]
fn en_passant_square_is_written_only_when_a_capture_is_possible() {
    // a4 after a5-a3 is a plausible square, but no white pawn stands next to a3.
    let no_capture = Position::from_fen("4k/5/5/p4/5/4K w - a4 0 1").unwrap();
    assert_eq!(no_capture.ep_square(), None);
    assert_eq!(no_capture.to_fen(), "4k/5/5/p4/5/4K w - - 0 1");
    let capture = Position::from_fen("4k/5/5/pP3/5/4K w - a4 0 1").unwrap();
    assert_eq!(capture.ep_square(), Some(Square::A4));
    assert_eq!(capture.to_fen(), "4k/5/5/pP3/5/4K w - a4 0 1");
    // White's double step a2-a4 gives a3, with a black pawn on b4 ready to take.
    let black = Position::from_fen("4k/5/Pp3/5/5/4K b - a3 0 1").unwrap();
    assert_eq!(black.ep_square(), Some(Square::A3));
}

#[test]
fn setup_keeps_what_the_fen_says() {
    let setup = Setup::from_fen("4k/5/5/p4/5/4K w - a4 3 9").unwrap();
    assert_eq!(setup.ep_square, Some(Square::A4));
    assert_eq!(setup.to_fen(), "4k/5/5/p4/5/4K w - a4 3 9");
}

#[test]
fn field_count_errors() {
    assert_eq!(
        error(""),
        "FEN has 0 fields, expected 4 to 6: board, side to move, castling, en passant, halfmove clock, fullmove number"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1 extra"),
        "FEN has 7 fields, expected 4 to 6: board, side to move, castling, en passant, halfmove clock, fullmove number"
    );
}

#[test]
fn a_count_of_one_is_singular() {
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK"),
        "FEN has 1 field, expected 4 to 6: board, side to move, castling, en passant, halfmove clock, fullmove number"
    );
    assert_eq!(
        error("rnbqk w Qq - 0 1"),
        "FEN field 1 (board): 1 rank, expected 6 separated by /"
    );
    assert_eq!(
        error("rnbqk/ppppp/1/5/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 1 (board): rank 4 has 1 square, expected 5"
    );
}

#[test]
fn board_errors() {
    assert_eq!(
        error("rnbqk/ppppp/5/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 1 (board): 5 ranks, expected 6 separated by /"
    );
    assert_eq!(
        error("rnbqk/pppppp/5/5/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 1 (board): rank 5 has 6 squares, expected 5"
    );
    assert_eq!(
        error("rnbqk/ppppp/4/5/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 1 (board): rank 4 has 4 squares, expected 5"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/8/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 1 (board): rank 3 has 8 squares, expected 5"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQX w Qq - 0 1"),
        "FEN field 1 (board): unknown piece letter 'X' in rank 1, expected one of PNBRQK pnbrqk or a count 1-5 of empty squares"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1".replace("5/5", "5/05").as_str()),
        "FEN field 1 (board): unknown piece letter '0' in rank 3, expected one of PNBRQK pnbrqk or a count 1-5 of empty squares"
    );
}

#[test]
fn other_field_errors() {
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK x Qq - 0 1"),
        "FEN field 2 (side to move): expected w or b, got \"x\""
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w KQkq - 0 1"),
        "FEN field 3 (castling): got \"KQkq\", but there is no kingside castling in Chess Attack: use Q, q, Qq or -"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qx - 0 1"),
        "FEN field 3 (castling): expected Q, q, Qq or -, got \"Qx\""
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq f3 0 1"),
        "FEN field 4 (en passant): expected - or a square a1-e6, got \"f3\""
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - -1 1"),
        "FEN field 5 (halfmove clock): expected a number of plies (0 or more), got \"-1\""
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 0"),
        "FEN field 6 (fullmove number): expected a move number (1 or more), got \"0\""
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 99999999999"),
        "FEN field 6 (fullmove number): expected a move number (1 or more), got \"99999999999\""
    );
}

#[test]
fn illegal_position_errors() {
    assert_eq!(
        error("rnbq1/ppppp/5/5/PPPPP/RNBQK w Q - 0 1"),
        "FEN field 1 (board): illegal position: Black has no king"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBKK w q - 0 1"),
        "FEN field 1 (board): illegal position: White has 2 kings, exactly one is allowed"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/1PPPP/PNBQK w q - 0 1"),
        "FEN field 1 (board): illegal position: pawn on a1: pawns cannot stand on rank 1 or rank 6"
    );
    assert_eq!(
        error("4k/5/5/5/5/r3K b - - 0 1"),
        "FEN field 1 (board): illegal position: White is in check but it is Black's turn"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/1NBQK w Qq - 0 1"),
        "FEN field 3 (castling): White cannot have the castling right: it needs its king on e1 and a rook on a1"
    );
    assert_eq!(
        error("rnbq1/ppppk/5/5/PPPPP/RNBQK w Qq - 0 1"),
        "FEN field 3 (castling): Black cannot have the castling right: it needs its king on e6 and a rook on a6"
    );
    assert_eq!(
        error("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq c3 0 1"),
        "FEN field 4 (en passant): en-passant square c3 is impossible: with White to move it must be an empty square on rank 4 that a black pawn has just crossed with a double step"
    );
    // Right rank, but no pawn stands in front of the square.
    assert_eq!(
        error("4k/5/5/5/5/4K b - c3 0 1"),
        "FEN field 4 (en passant): en-passant square c3 is impossible: with Black to move it must be an empty square on rank 3 that a white pawn has just crossed with a double step"
    );
    assert_eq!(
        Position::from_fen("4k/5/5/5/5/4K b - c3 0 1"),
        Err(FenError::Position(PositionError::InvalidEpSquare {
            square: Square::C3,
            turn: engine_src::Color::Black
        }))
    );
}

/// Fuzzing by hand: random strings and random edits of valid FENs never panic.
#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "rnbqkpRNBQKP12345678906/ -wbQqKkabcdef\té€0x"
        .chars()
        .collect();
    let valid = walk_positions(WALK_SEED, 10, 40)
        .iter()
        .map(Position::to_fen)
        .collect::<Vec<_>>();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut accepted = 0;
    for round in 0..20_000 {
        let text: String = if round % 2 == 0 {
            let len = (next() % 60) as usize;
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        } else {
            let mut chars: Vec<char> = valid[(next() % valid.len() as u64) as usize]
                .chars()
                .collect();
            for _ in 0..1 + next() % 3 {
                let at = (next() % chars.len() as u64) as usize;
                let c = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 => chars[at] = c,
                    1 => chars.insert(at, c),
                    _ => {
                        chars.remove(at);
                    }
                }
                if chars.is_empty() {
                    chars.push(c);
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(position) = Position::from_fen(&text) {
            accepted += 1;
            // Whatever is accepted is a working position.
            let _ = position.legal_moves();
            assert_eq!(Position::from_fen(&position.to_fen()), Ok(position));
        }
    }
    assert!(
        accepted > 100,
        "only {accepted} mutated FENs were still valid"
    );
}
