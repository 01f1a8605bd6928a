//! Every rule of docs/rules.md, one hand-made position at a time.

use engine_src::notation::write;
use engine_src::{ByColor, Color, MoveKind, Position, Role, Square};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// The legal moves in UCI form, sorted.
fn uci_moves(position: &Position) -> Vec<String> {
    let mut moves: Vec<String> = position.legal_moves().iter().map(|m| m.to_uci()).collect();
    moves.sort();
    moves
}

/// The legal moves of the piece on `from`, in UCI form, sorted.
fn moves_from(position: &Position, from: Square) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .filter(|m| m.from == from)
        .map(|m| m.to_uci())
        .collect();
    moves.sort();
    moves
}

fn can_castle(fen: &str) -> bool {
    position(fen)
        .legal_moves()
        .iter()
        .any(|m| m.kind == MoveKind::Castle)
}

fn play_uci(position: &Position, uci: &str) -> Position {
    let m = position
        .parse_uci(uci)
        .unwrap_or_else(|error| panic!("{error}"));
    position.play(&m)
}

#[test]
fn start_position_moves() {
    let start = Position::start();
    assert_eq!(
        uci_moves(&start),
        [
            "a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3",
            "e2e4"
        ]
    );
    assert_eq!(start.turn(), Color::White);
    assert!(!start.is_check());
}

#[test]
fn castling_king_e1_to_c1_and_rook_a1_to_d1() {
    let before = position("4k/5/5/5/5/R3K w Q - 0 1");
    let castle = before
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.kind == MoveKind::Castle)
        .expect("castling is legal");
    assert_eq!(
        (castle.from, castle.to, castle.role),
        (Square::E1, Square::C1, Role::King)
    );
    assert_eq!(castle.to_uci(), "e1c1");
    assert_eq!(write(&before, &castle), "O-O-O");
    assert_eq!(before.play(&castle).to_fen(), "4k/5/5/5/5/2KR1 b - - 1 1");

    let black = position("r3k/5/5/5/5/4K b q - 0 1");
    assert_eq!(
        play_uci(&black, "e6c6").to_fen(),
        "2kr1/5/5/5/5/4K w - - 1 2"
    );
}

#[test]
fn castling_is_illegal_for_each_reason() {
    // The right is missing.
    assert!(!can_castle("4k/5/5/5/5/R3K w - - 0 1"));
    // A piece on b1, c1 or d1 (either colour).
    assert!(!can_castle("4k/5/5/5/5/RN2K w Q - 0 1"));
    assert!(!can_castle("4k/5/5/5/5/R1B1K w Q - 0 1"));
    assert!(!can_castle("4k/5/5/5/5/R2QK w Q - 0 1"));
    assert!(!can_castle("4k/5/5/5/5/Rn2K w Q - 0 1"));
    // The king is in check.
    assert!(!can_castle("3k1/5/4r/5/5/R3K w Q - 0 1"));
    // d1 or c1 is attacked.
    assert!(!can_castle("4k/5/3r1/5/5/R3K w Q - 0 1"));
    assert!(!can_castle("4k/5/2r2/5/5/R3K w Q - 0 1"));
    // A knight attacking d1.
    assert!(!can_castle("4k/5/5/5/1n3/R3K w Q - 0 1"));
    // Black: d6 attacked by a pawn on c5, but not by one on c4.
    assert!(!can_castle("r3k/2P2/5/5/5/2K2 b q - 0 1"));
    assert!(can_castle("r3k/5/2P2/5/5/2K2 b q - 0 1"));
}

#[test]
fn castling_is_legal_when_only_b1_or_the_rook_is_attacked() {
    assert!(can_castle("4k/5/5/5/5/R3K w Q - 0 1"));
    assert!(can_castle("4k/5/1r3/5/5/R3K w Q - 0 1"));
    assert!(can_castle("r3k/5/5/5/5/R3K w Q - 0 1"));
}

#[test]
fn castling_rights_are_lost_by_king_or_rook_moves_and_rook_captures() {
    let both = position("r3k/5/5/5/5/R3K w Qq - 0 1");
    let king_moved = play_uci(&both, "e1e2");
    assert_eq!(king_moved.castling_rights(), ByColor::new(false, true));
    assert_eq!(
        play_uci(&both, "a1b1").to_fen(),
        "r3k/5/5/5/5/1R2K b q - 1 1"
    );
    assert_eq!(play_uci(&both, "a1a6").to_fen(), "R3k/5/5/5/5/4K b - - 0 1");
    let after_black_rook = play_uci(&play_uci(&both, "e1d2"), "a6a5");
    assert_eq!(after_black_rook.to_fen(), "4k/r4/5/5/3K1/R4 w - - 2 2");
}

#[test]
fn en_passant_is_written_as_the_pawn_capture() {
    let before = position("k4/5/3p1/5/4P/K4 w - - 0 1");
    let after_double_step = play_uci(&before, "e2e4");
    assert_eq!(after_double_step.ep_square(), Some(Square::E3));
    assert_eq!(after_double_step.to_fen(), "k4/5/3pP/5/5/K4 b - e3 0 1");
    let capture = after_double_step.parse_uci("d4e3").unwrap();
    assert_eq!(capture.kind, MoveKind::EnPassant);
    assert_eq!(capture.capture, Some(Role::Pawn));
    assert_eq!(write(&after_double_step, &capture), "Pd4xe3");
    assert_eq!(
        after_double_step.play(&capture).to_fen(),
        "k4/5/5/4p/5/K4 w - - 0 2"
    );
    // The right lasts one move only.
    let later = play_uci(&play_uci(&after_double_step, "a6b6"), "a1b1");
    assert_eq!(later.ep_square(), None);
    assert_eq!(moves_from(&later, Square::D4), ["d4d3"]);
}

#[test]
fn white_en_passant_after_a_black_double_step() {
    let before = position("4k/2p2/5/1P3/5/K4 b - - 0 1");
    let after = play_uci(&before, "c5c3");
    assert_eq!(after.to_fen(), "4k/5/5/1Pp2/5/K4 w - c4 0 2");
    assert_eq!(moves_from(&after, Square::B3), ["b3b4", "b3c4"]);
    assert_eq!(
        play_uci(&after, "b3c4").to_fen(),
        "4k/5/2P2/5/5/K4 b - - 0 2"
    );
}

#[test]
fn en_passant_that_exposes_the_king_along_the_rank_is_illegal() {
    // After b2-b4, c4xb3 would empty rank 4 between the rook on a4 and the king on e4.
    let before = position("5/5/R1p1k/5/1P3/K4 w - - 0 1");
    let after = play_uci(&before, "b2b4");
    assert_eq!(after.ep_square(), None);
    assert_eq!(after.to_fen(), "5/5/RPp1k/5/5/K4 b - - 0 1");
    assert_eq!(moves_from(&after, Square::C4), ["c4c3"]);
    // Written explicitly in a FEN, the square is accepted but dropped.
    let from_fen = position("5/5/RPp1k/5/5/K4 b - b3 0 1");
    assert_eq!(from_fen, after);
    // Without the rook the same capture is legal.
    let no_rook = play_uci(&position("5/5/2p1k/5/1P3/K4 w - - 0 1"), "b2b4");
    assert_eq!(no_rook.to_fen(), "5/5/1Pp1k/5/5/K4 b - b3 0 1");
    assert_eq!(moves_from(&no_rook, Square::C4), ["c4b3", "c4c3"]);
}

#[test]
fn en_passant_by_a_diagonally_pinned_pawn_is_illegal() {
    // The d4 pawn is pinned by the bishop on b2 against the king on e5.
    let after = play_uci(&position("5/4k/3p1/5/1B2P/K4 w - - 0 1"), "e2e4");
    assert_eq!(after.ep_square(), None);
    assert_eq!(moves_from(&after, Square::D4), Vec::<String>::new());
}

#[test]
fn en_passant_evades_a_check_from_the_double_stepped_pawn() {
    let after = play_uci(&position("5/3k1/3p1/5/4P/K4 w - - 0 1"), "e2e4");
    assert!(after.is_check());
    assert_eq!(after.checkers().single(), Some(Square::E4));
    assert_eq!(
        uci_moves(&after),
        ["d4e3", "d5c4", "d5c5", "d5c6", "d5d6", "d5e4", "d5e5", "d5e6"]
    );
}

#[test]
fn en_passant_does_not_answer_a_check_from_another_piece() {
    // c2-c4 uncovers the rook on a2 against the king on e2: taking en passant on
    // c3 would not block rank 2.
    let after = play_uci(&position("K4/5/3p1/5/R1P1k/5 w - - 0 1"), "c2c4");
    assert!(after.is_check());
    assert_eq!(after.ep_square(), None);
    assert_eq!(after.to_fen(), "K4/5/2Pp1/5/R3k/5 b - - 0 1");
    assert_eq!(moves_from(&after, Square::D4), Vec::<String>::new());
}

#[test]
fn promotions_and_underpromotions_with_and_without_capture() {
    let white = position("r1n1k/1P3/5/5/5/4K w - - 0 1");
    assert_eq!(
        moves_from(&white, Square::B5),
        [
            "b5a6b", "b5a6n", "b5a6q", "b5a6r", "b5b6b", "b5b6n", "b5b6q", "b5b6r", "b5c6b",
            "b5c6n", "b5c6q", "b5c6r"
        ]
    );
    let knight = white.parse_uci("b5a6n").unwrap();
    assert_eq!(
        (knight.capture, knight.promotion),
        (Some(Role::Rook), Some(Role::Knight))
    );
    assert_eq!(write(&white, &knight), "Pb5xa6=N");
    assert_eq!(white.play(&knight).to_fen(), "N1n1k/5/5/5/5/4K b - - 0 1");
    let queen = white.parse_uci("b5b6q").unwrap();
    assert_eq!(write(&white, &queen), "Pb5-b6=Q");
    assert_eq!(white.play(&queen).to_fen(), "rQn1k/5/5/5/5/4K b - - 0 1");

    let black = position("4k/5/5/5/3p1/K4 b - - 0 1");
    let written: Vec<String> = black
        .legal_moves()
        .iter()
        .filter(|m| m.role == Role::Pawn)
        .map(|m| write(&black, m))
        .collect();
    assert_eq!(written, ["Pd2-d1=Q+", "Pd2-d1=R+", "Pd2-d1=B", "Pd2-d1=N"]);
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook e1 and knight d4 both check e6; the queen could take the knight in a
    // single check, but not now.
    let double = position("4k/5/1q1N1/5/5/K3R b - - 0 1");
    assert_eq!(double.checkers().count(), 2);
    assert_eq!(uci_moves(&double), ["e6d5", "e6d6"]);
    let single = position("4k/5/1q1N1/5/5/K4 b - - 0 1");
    assert_eq!(moves_from(&single, Square::B4), ["b4d4"]);
}

#[test]
fn single_check_is_answered_by_capture_block_or_king_move() {
    // The rook on a6 checks e6 along rank 6: the knight takes it or blocks on c6,
    // the king leaves the rank (d6 stays attacked behind the king).
    let checked = position("R3k/5/1n3/5/5/K4 b - - 0 1");
    assert!(checked.is_check());
    assert_eq!(moves_from(&checked, Square::B4), ["b4a6", "b4c6"]);
    assert_eq!(moves_from(&checked, Square::E6), ["e6d5", "e6e5"]);
}

#[test]
fn pinned_pieces_move_only_along_the_pin() {
    let pinned = position("r1k2/4q/5/5/RB3/K4 w - - 0 1");
    assert_eq!(
        moves_from(&pinned, Square::A2),
        ["a2a3", "a2a4", "a2a5", "a2a6"]
    );
    assert_eq!(moves_from(&pinned, Square::B2), ["b2c3", "b2d4", "b2e5"]);
    assert_eq!(uci_moves(&pinned).len(), 8);
    // A pinned knight cannot move at all; a pawn pinned on a file can still push.
    let knight = position("4k/4r/5/5/4N/4K w - - 0 1");
    assert_eq!(moves_from(&knight, Square::E2), Vec::<String>::new());
    let pawn = position("4k/4r/5/5/4P/4K w - - 0 1");
    assert_eq!(moves_from(&pawn, Square::E2), ["e2e3", "e2e4"]);
    // A pawn pinned on a diagonal neither pushes nor takes off the line (the knight
    // on a3), but takes the pinner next to it.
    let diagonal = position("4k/4b/5/n4/1P3/K4 w - - 0 1");
    assert_eq!(moves_from(&diagonal, Square::B2), Vec::<String>::new());
    let capture = position("4k/5/5/n1b2/1P3/K4 w - - 0 1");
    assert_eq!(moves_from(&capture, Square::B2), ["b2c3"]);
}

#[test]
fn the_king_cannot_step_back_along_a_checking_line() {
    let check = position("4k/5/5/5/5/r3K w - - 0 1");
    assert_eq!(uci_moves(&check), ["e1d2", "e1e2"]);
}

#[test]
fn checkmate_and_stalemate() {
    let mate = position("5/5/5/2k2/1q3/K4 w - - 0 1");
    assert!(mate.is_check() && mate.is_checkmate() && !mate.is_stalemate());
    assert!(mate.legal_moves().is_empty());

    let stalemate = position("4k/5/5/5/2q2/K4 w - - 0 1");
    assert!(!stalemate.is_check() && stalemate.is_stalemate() && !stalemate.is_checkmate());

    let check_only = position("4k/5/5/5/1q3/K4 w - - 0 1");
    assert!(check_only.is_check() && !check_only.is_checkmate());
    assert_eq!(uci_moves(&check_only), ["a1b2"]);
}

#[test]
fn insufficient_material_is_only_bare_kings_or_one_minor_piece() {
    for fen in [
        "4k/5/5/5/5/K4 w - - 0 1",
        "4k/5/5/5/5/KB3 w - - 0 1",
        "4k/5/5/5/5/KN3 b - - 0 1",
        "3nk/5/5/5/5/K4 w - - 0 1",
        "3bk/5/5/5/5/K4 w - - 0 1",
    ] {
        assert!(position(fen).is_insufficient_material(), "{fen}");
    }
    for fen in [
        "4k/5/5/5/5/KNN2 w - - 0 1",
        "3bk/5/5/5/5/KB3 w - - 0 1",
        "3nk/5/5/5/5/KB3 w - - 0 1",
        "4k/5/5/5/1P3/K4 w - - 0 1",
        "4k/5/5/5/5/KR3 w - - 0 1",
        "4k/5/5/5/5/KQ3 w - - 0 1",
        "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1",
    ] {
        assert!(!position(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn halfmove_clock_and_move_number() {
    let start = Position::start();
    let knight = play_uci(&start, "b1c3");
    assert_eq!((knight.halfmove_clock(), knight.fullmove_number()), (1, 1));
    let black_knight = play_uci(&knight, "b6c4");
    assert_eq!(
        (
            black_knight.halfmove_clock(),
            black_knight.fullmove_number()
        ),
        (2, 2)
    );
    let pawn = play_uci(&black_knight, "a2a3");
    assert_eq!(pawn.halfmove_clock(), 0);
    let capture = play_uci(&play_uci(&pawn, "a5a4"), "c3a4");
    assert_eq!(capture.halfmove_clock(), 0);
}

#[test]
fn zobrist_keys_follow_the_repetition_rules() {
    let start = Position::start();
    // The start position again after four knight moves: same key, other counters.
    let knights = ["b1c3", "b6c4", "c3b1", "c4b6"]
        .iter()
        .fold(start, |p, m| play_uci(&p, m));
    assert_eq!(knights.zobrist(), start.zobrist());
    assert_ne!(knights, start);
    // Side to move, castling rights and a possible en passant change the key.
    let black_to_move = position("rnbqk/ppppp/5/5/PPPPP/RNBQK b Qq - 0 1");
    assert_ne!(black_to_move.zobrist(), start.zobrist());
    let no_rights = position("rnbqk/ppppp/5/5/PPPPP/RNBQK w q - 0 1");
    assert_ne!(no_rights.zobrist(), start.zobrist());
    let with_ep = position("k4/5/3pP/5/5/K4 b - e3 0 1");
    let without_ep = position("k4/5/3pP/5/5/K4 b - - 0 1");
    assert_ne!(with_ep.zobrist(), without_ep.zobrist());
    // An en-passant square where no capture is possible changes nothing.
    let useless_ep = position("k4/5/4P/5/5/K4 b - e3 0 1");
    let plain = position("k4/5/4P/5/5/K4 b - - 0 1");
    assert_eq!(useless_ep, plain);
    assert_eq!(useless_ep.zobrist(), plain.zobrist());
}

#[test]
fn zobrist_keys_are_fixed_constants() {
    // Generated at compile time from a fixed seed: the same on every machine and
    // build, so keys can be written down and compared.
    assert_eq!(Position::start().zobrist(), 0x55C8_E318_8474_7464);
}
