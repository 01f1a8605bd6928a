//! The evaluation: material and piece-square tables, in centipawns.
//!
//! This module is the one definition of every weight. `cargo xtask assets` renders it
//! into `generated/engine/eval.inc` for the assembly engine (`asm/engine/eval.asm`),
//! which keeps the same sum up to date in MakeMove and UnmakeMove; change a number here,
//! run `cargo xtask assets && cargo xtask rom`, and the cartridge plays differently.
//!
//! A piece is worth its role's [`MATERIAL`] plus its [`PIECE_SQUARE`] entry. The tables
//! are written from White's side; a Black piece reads the entry of the square mirrored
//! across the middle of the board (a6 reads a1's entry). [`white_score`] sums White's
//! pieces minus Black's; [`evaluate`] gives it from the side to move's view, plus
//! [`TEMPO`] for having the move.

use crate::color::Color;
use crate::position::Position;
use crate::role::{ByRole, Piece, Role};
use crate::square::Square;

/// What each role is worth, in centipawns. The king is never taken: 0.
pub const MATERIAL: ByRole<i16> = ByRole {
    pawn: 130,
    knight: 300,
    bishop: 310,
    rook: 480,
    queen: 880,
    king: 0,
};

/// The bonus for having the move.
pub const TEMPO: i16 = 8;

/// The range every piece-square entry keeps to: the search's quiet-move order
/// ([`crate::search`]) takes the difference of two entries as a signed byte.
pub const PIECE_SQUARE_MIN: i8 = -64;
/// See [`PIECE_SQUARE_MIN`].
pub const PIECE_SQUARE_MAX: i8 = 63;

/// The piece-square tables, from White's side: entry `rank * 5 + file`, so the first row
/// below is rank 1 (a1 ... e1) and the last rank 6.
pub const PIECE_SQUARE: ByRole<[i8; Square::COUNT]> = ByRole {
    // Pawns gain as they advance, more so in the centre files (a pawn one step from
    // promoting nearly the most an entry can be); rank 6 is never reached (a pawn there
    // has promoted).
    pawn: [
        0, 0, 0, 0, 0, //
        0, 2, 4, 2, -4, //
        10, 14, 20, 14, 8, //
        30, 36, 42, 36, 30, //
        58, 60, 63, 60, 58, //
        0, 0, 0, 0, 0, //
    ],
    // Knights want the middle: on so small a board a corner knight has two squares.
    knight: [
        -40, -22, -16, -22, -40, //
        -20, 0, 8, 0, -20, //
        -12, 12, 20, 12, -12, //
        -12, 12, 20, 12, -12, //
        -20, 0, 8, 0, -20, //
        -40, -22, -16, -22, -40, //
    ],
    bishop: [
        -12, -8, -8, -8, -12, //
        -6, 6, 4, 6, -6, //
        -4, 8, 12, 8, -4, //
        -4, 8, 12, 8, -4, //
        -6, 6, 4, 6, -6, //
        -12, -8, -8, -8, -12, //
    ],
    // Rooks like the rank of the enemy pawns (rank 5) and the open middle files.
    rook: [
        0, 2, 4, 4, 0, //
        -4, 0, 0, 0, -4, //
        -4, 0, 0, 0, -4, //
        -4, 0, 0, 0, -4, //
        12, 16, 16, 16, 12, //
        4, 6, 6, 6, 4, //
    ],
    queen: [
        -10, -4, -2, -4, -10, //
        -4, 2, 4, 2, -4, //
        -2, 4, 6, 4, -2, //
        -2, 4, 6, 4, -2, //
        -4, 2, 4, 2, -4, //
        -10, -4, -2, -4, -10, //
    ],
    // The king stays home behind its pawns, the long castle's square c1 best; the ranks
    // ahead cost it little, so that it comes forward in the endgame.
    king: [
        4, 8, 12, 6, 2, //
        -4, -4, -6, -4, -4, //
        -10, -6, -6, -6, -10, //
        -14, -8, -8, -8, -14, //
        -18, -12, -12, -12, -18, //
        -22, -18, -18, -18, -22, //
    ],
};

/// What `piece` on `square` adds to its side's score: material plus the table entry (of
/// the mirrored square for Black).
pub const fn piece_value(piece: Piece, square: Square) -> i16 {
    let seen_from = square.relative(piece.color);
    *MATERIAL.get(piece.role) + PIECE_SQUARE.get(piece.role)[seen_from.index()] as i16
}

/// The piece-square entry alone, as the quiet-move order reads it.
pub const fn piece_square(piece: Piece, square: Square) -> i8 {
    PIECE_SQUARE.get(piece.role)[square.relative(piece.color).index()]
}

/// White's pieces minus Black's, each by [`piece_value`].
pub fn white_score(position: &Position) -> i16 {
    position
        .board()
        .pieces()
        .map(|(square, piece)| match piece.color {
            Color::White => piece_value(piece, square),
            Color::Black => -piece_value(piece, square),
        })
        .sum()
}

/// The score of `position` for the side to move, in centipawns: [`white_score`] from its
/// side, plus [`TEMPO`].
pub fn evaluate(position: &Position) -> i16 {
    let score = white_score(position);
    let ours = match position.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    ours + TEMPO
}

/// Every role's table, pawn first (for the generator and the tests).
pub fn tables() -> impl Iterator<Item = (Role, &'static [i8; Square::COUNT])> {
    Role::ALL
        .into_iter()
        .map(|role| (role, PIECE_SQUARE.get(role)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_to_their_range() {
        for (role, table) in tables() {
            for (index, &entry) in table.iter().enumerate() {
                assert!(
                    (PIECE_SQUARE_MIN..=PIECE_SQUARE_MAX).contains(&entry),
                    "{role} entry {index} is {entry}"
                );
            }
        }
    }

    #[test]
    fn start_position_is_level_but_for_the_move() {
        let start = Position::start();
        assert_eq!(white_score(&start), 0);
        assert_eq!(evaluate(&start), TEMPO);
    }

    #[test]
    fn black_reads_the_mirrored_square() {
        let white_pawn = Role::Pawn.of(Color::White);
        let black_pawn = Role::Pawn.of(Color::Black);
        // A White pawn on c4 and a Black one on c3 have both made one step past the
        // middle: the same value.
        assert_eq!(piece_value(white_pawn, Square::C4), 172);
        assert_eq!(piece_value(black_pawn, Square::C3), 172);
    }

    #[test]
    fn a_pawn_up_is_worth_about_a_pawn() {
        // White has an extra pawn on b3 (worth 144); Black is to move.
        let position = Position::from_fen("rnbqk/p1ppp/5/1P3/P1PPP/RNBQK b Qq - 0 1").unwrap();
        assert_eq!(white_score(&position), 144);
        assert_eq!(evaluate(&position), -144 + TEMPO);
    }
}
