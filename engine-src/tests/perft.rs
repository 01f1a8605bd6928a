//! Perft counts. The start position's are those of docs/rules.md; the others were
//! computed with Fairy-Stockfish (variant `chessattack`, defined in docs/rules.md).

use std::collections::BTreeMap;

use engine_src::perft::{divide, perft};
use engine_src::Position;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

#[test]
fn start_position_depths_1_to_5() {
    let start = Position::start();
    let counts: Vec<u64> = (1..=5).map(|depth| perft(&start, depth)).collect();
    assert_eq!(counts, [12, 135, 1_734, 20_892, 286_223]);
}

#[test]
fn start_position_depth_6() {
    assert_eq!(perft(&Position::start(), 6), 3_729_708);
}

#[test]
fn depth_0_is_one_leaf() {
    assert_eq!(perft(&Position::start(), 0), 1);
    assert!(divide(&Position::start(), 0).is_empty());
}

/// Fairy-Stockfish's `go perft 2` from the start.
#[test]
fn divide_from_the_start() {
    let split: BTreeMap<String, u64> = divide(&Position::start(), 2)
        .into_iter()
        .map(|(m, count)| (m.to_uci(), count))
        .collect();
    let expected: BTreeMap<String, u64> = [
        ("a2a3", 11),
        ("b2b3", 11),
        ("c2c3", 11),
        ("d2d3", 11),
        ("e2e3", 11),
        ("a2a4", 11),
        ("b2b4", 12),
        ("c2c4", 12),
        ("d2d4", 12),
        ("e2e4", 11),
        ("b1a3", 11),
        ("b1c3", 11),
    ]
    .into_iter()
    .map(|(m, count)| (m.to_owned(), count))
    .collect();
    assert_eq!(split, expected);
    assert_eq!(split.values().sum::<u64>(), 135);
}

/// Positions stressing one rule each, with Fairy-Stockfish's perft(4) and perft(5).
const POSITIONS: [(&str, u64, u64); 8] = [
    // Castling on both sides.
    ("r3k/5/5/5/5/R3K w Qq - 0 1", 11_446, 118_901),
    ("r3k/ppppp/5/5/PPPPP/R3K b Qq - 0 1", 39_619, 505_393),
    // Promotions with and without capture.
    ("r1n1k/1P3/5/5/5/K4 w - - 0 1", 4_077, 39_870),
    ("4k/2P2/5/1p3/2p2/K4 b - - 0 1", 911, 6_798),
    // En passant: plain, evading a pawn check, exposing the king along the rank.
    ("k4/5/3p1/5/4P/K4 w - - 0 1", 845, 5_673),
    ("5/3k1/3p1/5/4P/K4 w - - 0 1", 1_547, 10_315),
    ("5/5/R1p1k/5/1P3/K4 w - - 0 1", 3_045, 33_511),
    // A crowded middlegame.
    (
        "r1bqk/p1ppp/1pn2/1P1P1/P1P1P/RNBQK w Qq - 0 1",
        40_109,
        611_909,
    ),
];

#[test]
fn positions_for_each_rule_match_fairy_stockfish() {
    for (fen, depth_4, depth_5) in POSITIONS {
        let position = position(fen);
        assert_eq!(perft(&position, 4), depth_4, "perft(4) of {fen}");
        assert_eq!(perft(&position, 5), depth_5, "perft(5) of {fen}");
    }
}
