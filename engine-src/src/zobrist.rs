//! Zobrist hashing: a 64-bit key per position, from constants generated at compile
//! time by a `const fn` SplitMix64 generator with a fixed seed (so keys are the same
//! on every build and every machine).
//!
//! The key covers the pieces, the side to move, the castling rights and the
//! en-passant file, the latter only when an en-passant capture is possible (which is
//! the only time a [`Position`] keeps its en-passant square). Two positions that are
//! the same for threefold repetition have the same key.
//!
//! This file is the one definition of the keys on both sides: `cargo xtask assets`
//! renders them (xtask/src/assets/zobrist.rs) into `generated/engine/zobrist.inc`, which
//! asm/engine/zobrist.asm includes. The cartridge keeps the **low 32 bits** of every key
//! (bits 0-31, little-endian in its four bytes), the same subset everywhere; XOR works
//! bit by bit, so the cartridge's key of a position is the low 32 bits of
//! [`Position::zobrist`]: [`Position::cartridge_key`], which tests and `cargo xtask
//! verify` compare with the ROM's. That is the key of the game's history (GameKey,
//! asm/engine/gameend.asm). The key the search keeps along its line (MakeMove's
//! `wZobristKey`) is the low 32 bits of [`crate::search::line_key`]: the same but right
//! after a double step that lands beside an enemy pawn which cannot capture en passant,
//! where it also holds that file's [`ep_key`].

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

/// How many low bits of a key the cartridge keeps (see the top of the file). Not a
/// setting: [`cartridge_bits`] keeps them as a `u32`, whose width the assertion below
/// ties it to; the cartridge's key size (`GAME_KEY_SIZE` bytes) follows from it.
pub const CARTRIDGE_KEY_BITS: u32 = 32;

const _: () = assert!(
    CARTRIDGE_KEY_BITS == u32::BITS,
    "cartridge_bits keeps a key's low CARTRIDGE_KEY_BITS bits as a u32"
);

/// The bits of `key` the cartridge keeps: its low [`CARTRIDGE_KEY_BITS`].
pub const fn cartridge_bits(key: u64) -> u32 {
    key as u32
}

impl Position {
    /// The cartridge's key of the position: the low 32 bits of [`Position::zobrist`]
    /// ([`cartridge_bits`]), which its game history (GameKey) holds.
    pub fn cartridge_key(&self) -> u32 {
        cartridge_bits(self.zobrist())
    }

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
    use crate::role::Role;

    #[test]
    fn keys_are_distinct_and_fixed() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEY_COUNT);
        assert!(keys.iter().all(|&key| key != 0));
        // The cartridge's subset of them is distinct too: two keys equal in their low
        // 32 bits would make two piece moves cancel in the ROM's key only.
        let mut low: Vec<u32> = KEYS.iter().map(|&key| cartridge_bits(key)).collect();
        low.sort_unstable();
        low.dedup();
        assert_eq!(low.len(), KEY_COUNT);
    }

    #[test]
    fn the_cartridge_key_is_the_low_half_of_the_key() {
        let start = Position::start();
        assert_eq!(start.zobrist(), 0x55C8_E318_8474_7464);
        assert_eq!(start.cartridge_key(), 0x8474_7464);
        let after = start.play(&start.parse_uci("b2b3").unwrap());
        assert_eq!(
            after.cartridge_key(),
            0x8474_7464
                ^ cartridge_bits(piece_key(Role::Pawn.of(Color::White), Square::B2))
                ^ cartridge_bits(piece_key(Role::Pawn.of(Color::White), Square::B3))
                ^ cartridge_bits(black_to_move_key())
        );
    }

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
    }

    #[test]
    fn an_en_passant_square_no_pawn_can_take_on_leaves_the_key_alone() {
        // Black's c4 pawn stands beside the d4 pawn that crossed d3, but taking it
        // would empty the rank between the rook on a4 and Black's king on e4.
        let pinned = position("5/5/R1pPk/5/5/K4 b - d3 0 1");
        assert_eq!(pinned.ep_square(), None);
        let plain = position("5/5/R1pPk/5/5/K4 b - - 0 1");
        assert_eq!(pinned.zobrist(), plain.zobrist());
        assert_eq!(pinned.cartridge_key(), plain.cartridge_key());
        // Where the capture is legal, the file counts.
        let free = position("k4/5/3pP/5/5/K4 b - e3 0 1");
        assert_eq!(free.ep_square(), Some(Square::E3));
        let without = position("k4/5/3pP/5/5/K4 b - - 0 1");
        assert_eq!(free.zobrist(), without.zobrist() ^ ep_key(File::E));
    }
}
