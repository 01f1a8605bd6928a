//! Reference model of the rules of Chess Attack: chess on a board of 5 files (a-e)
//! and 6 ranks (1-6), start position `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1`, only
//! the long castle. It is the executable form of docs/rules.md, and the yardstick the
//! assembly engine is checked against.
//!
//! The modules: the rules ([`position`] and its move generation, [`game`] for how a game
//! ends, [`fen`], [`notation`], [`perft`], [`zobrist`]) on the board types ([`square`],
//! [`square_set`], [`board`], [`attacks`], [`role`], [`color`], [`setup`], [`moves`]),
//! and the engine the cartridge mirrors: the evaluation [`eval`] and the search
//! [`search`] (docs/search.md).
//!
//! ```
//! use engine_src::{perft::perft, Position};
//!
//! let start = Position::start();
//! assert_eq!(start.legal_moves().len(), 12);
//! assert_eq!(perft(&start, 3), 1734);
//! let m = start.parse_uci("b1c3").unwrap();
//! assert_eq!(engine_src::notation::write(&start, &m), "Nb1-c3");
//! ```

pub mod attacks;
pub mod board;
pub mod book;
pub mod color;
pub mod eval;
pub mod fen;
pub mod game;
mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod role;
pub mod search;
pub mod setup;
pub mod square;
pub mod square_set;
pub mod zobrist;

pub use board::Board;
pub use color::{ByColor, Color};
pub use fen::{FenError, FenField, START_FEN};
pub use game::{Game, GameError, Outcome};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::NotationError;
pub use position::{Position, PositionError};
pub use role::{ByRole, Piece, Role};
pub use setup::Setup;
pub use square::{File, Rank, Square};
pub use square_set::SquareSet;

/// `count` and `noun` for the error messages: `1 field`, `0 fields`, `7 fields` (every
/// noun counted here is regular). xtask has its own (`project::plural`): the model depends
/// on nothing.
pub(crate) fn plural<N: PartialEq + From<u8> + core::fmt::Display>(count: N, noun: &str) -> String {
    if count == N::from(1) {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
