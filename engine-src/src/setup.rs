//! [`Setup`]: a position as plain data, possibly illegal.

use core::num::NonZeroU32;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::square::Square;

/// Everything a FEN says, without any check that it makes sense. Turn it into a
/// [`crate::Position`] with [`crate::Position::from_setup`], which validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Whether each side may still castle (long castling is the only castling).
    pub castling: ByColor<bool>,
    /// The square a pawn just crossed with a double step, if any (a3 after a2-a4,
    /// a4 after a5-a3).
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move (the fifty-move rule draws at 100).
    pub halfmoves: u32,
    /// The move number: 1 at the start, incremented after each Black move.
    pub fullmoves: NonZeroU32,
}

impl Setup {
    /// The start position, `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1`.
    pub fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::White,
            castling: ByColor::new(true, true),
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// An empty board, White to move, no castling rights (not a legal position:
    /// there are no kings).
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling: ByColor::new(false, false),
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}
