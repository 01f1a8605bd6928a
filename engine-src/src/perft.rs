//! Perft: counting the leaves of the legal move tree, the standard test of a move
//! generator. From the start position: 12, 135, 1,734, 20,892, 286,223, 3,729,708
//! at depths 1 to 6.

use crate::moves::Move;
use crate::position::Position;

/// The number of move sequences of exactly `depth` plies from `position` (1 for
/// depth 0). The last ply is counted, not played (bulk counting).
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => position
            .legal_moves()
            .iter()
            .map(|m| perft(&position.play(m), depth - 1))
            .sum(),
    }
}

/// Perft split by first move: each legal move with the perft of `depth - 1` after
/// it, in move generation order. Empty for depth 0.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves()
        .iter()
        .map(|m| (*m, perft(&position.play(m), depth - 1)))
        .collect()
}
