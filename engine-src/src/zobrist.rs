//! Zobrist hashing: a 64-bit key per position, from constants generated at compile
//! time by a `const fn` SplitMix64 generator with a fixed seed (so keys are the same
//! on every build and every machine).
//!
//! The key covers the pieces, the side to move, the castling rights and the
//! en-passant file, the latter only when an en-passant capture is possible (which is
//! the only time a [`Position`] keeps its en-passant square). Two positions that are
//! the same for threefold repetition have the same key.

use crate::color::Color;
use crate::position::Position;
use crate::role::Piece;
use crate::square::{File, Square};

const SEED: u64 = 0xC4E5_5A77_AC00_5A6B;

/// One step of SplitMix64: the next state and the output.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const PIECE_KEYS: usize = 2 * 6 * Square::COUNT;
const TURN_KEY: usize = PIECE_KEYS;
const CASTLING_KEYS: usize = TURN_KEY + 1;
const EP_KEYS: usize = CASTLING_KEYS + 2;
const KEY_COUNT: usize = EP_KEYS + File::COUNT;

const fn generate_keys() -> [u64; KEY_COUNT] {
    let mut keys = [0; KEY_COUNT];
    let mut state = SEED;
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, key) = splitmix64(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

static KEYS: [u64; KEY_COUNT] = generate_keys();

/// The key of `piece` standing on `square`.
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS[(piece.color.index() * 6 + piece.role.index()) * Square::COUNT + square.index()]
}

/// The key added when Black is to move.
pub fn black_to_move_key() -> u64 {
    KEYS[TURN_KEY]
}

/// The key added while `color` keeps its castling right.
pub fn castling_key(color: Color) -> u64 {
    KEYS[CASTLING_KEYS + color.index()]
}

/// The key added when an en-passant capture onto `file` is possible.
pub fn ep_key(file: File) -> u64 {
    KEYS[EP_KEYS + file.index()]
}

impl Position {
    /// The Zobrist key of the position (pieces, side to move, castling rights, and
    /// the en-passant file when an en-passant capture is possible; not the counters).
    pub fn zobrist(&self) -> u64 {
        let mut key = self
            .board
            .pieces()
            .fold(0, |key, (square, piece)| key ^ piece_key(piece, square));
        if self.turn == Color::Black {
            key ^= black_to_move_key();
        }
        for color in Color::ALL {
            if self.castling[color] {
                key ^= castling_key(color);
            }
        }
        if let Some(square) = self.ep_square {
            key ^= ep_key(square.file());
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_fixed() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEY_COUNT);
        assert!(keys.iter().all(|&key| key != 0));
    }
}
