//! Reading and writing FEN for the 5x6 board, e.g. the start position
//! `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1`.
//!
//! Fields: board (rank 6 first, 5 squares per rank), side to move (`w`/`b`),
//! castling (`Q`, `q`, `Qq` or `-`: only the long castle exists), en-passant square,
//! halfmove clock, fullmove number. The last two may be left out (0 and 1).
//!
//! The en-passant square is written only when a pawn of the side to move can
//! actually capture en passant, as Fairy-Stockfish does; on reading, any square that
//! follows a double step is accepted (and dropped if no capture is possible).

use core::fmt;
use core::num::NonZeroU32;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::plural;
use crate::position::{Position, PositionError};
use crate::role::Piece;
use crate::setup::Setup;
use crate::square::{File, Rank, Square};

/// The FEN of the start position ([`Position::start`]).
pub const START_FEN: &str = "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1";

/// The six fields of a FEN, numbered from 1 in error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenField {
    Board,
    Turn,
    Castling,
    EpSquare,
    Halfmoves,
    Fullmoves,
}

impl FenField {
    /// 1 (board) to 6 (fullmove number).
    pub const fn number(self) -> usize {
        self as usize + 1
    }

    /// The field's name as error messages say it.
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EpSquare => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
        }
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FEN field {} ({})", self.number(), self.name())
    }
}

/// What is wrong with a FEN. The message names the field it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// The board does not have 6 ranks separated by `/`.
    RankCount(usize),
    /// A rank of the board does not describe exactly 5 squares (ranks counted
    /// from rank 6, the first one written).
    RankWidth { rank: Rank, squares: usize },
    /// A character of the board is neither a piece letter (`PNBRQK`, `pnbrqk`) nor
    /// a count of empty squares (`1` to `5`).
    UnknownPiece { rank: Rank, found: char },
    /// The side to move is not `w` or `b`.
    Turn(String),
    /// The castling field has a `K` or `k`: kingside castling does not exist.
    KingsideCastling(String),
    /// The castling field is not `-` or a combination of `Q` and `q`.
    Castling(String),
    /// The en-passant field is not `-` or a square of the board.
    EpSquare(String),
    /// The halfmove clock is not a number.
    Halfmoves(String),
    /// The fullmove number is not a number of 1 or more.
    Fullmoves(String),
    /// The fields are well formed but the position breaks the rules.
    Position(PositionError),
}

impl FenError {
    /// The field the error is about, if it is about one field.
    pub fn field(&self) -> Option<FenField> {
        match self {
            FenError::FieldCount(_) => None,
            FenError::RankCount(_) | FenError::RankWidth { .. } | FenError::UnknownPiece { .. } => {
                Some(FenField::Board)
            }
            FenError::Turn(_) => Some(FenField::Turn),
            FenError::KingsideCastling(_) | FenError::Castling(_) => Some(FenField::Castling),
            FenError::EpSquare(_) => Some(FenField::EpSquare),
            FenError::Halfmoves(_) => Some(FenField::Halfmoves),
            FenError::Fullmoves(_) => Some(FenField::Fullmoves),
            FenError::Position(PositionError::InvalidCastlingRights(_)) => Some(FenField::Castling),
            FenError::Position(PositionError::InvalidEpSquare { .. }) => Some(FenField::EpSquare),
            FenError::Position(_) => Some(FenField::Board),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = self.field() {
            write!(f, "{field}: ")?;
        }
        match self {
            FenError::FieldCount(count) => write!(
                f,
                "FEN has {}, expected 4 to 6: board, side to move, castling, en passant, halfmove clock, fullmove number",
                plural(*count, "field")
            ),
            FenError::RankCount(count) => {
                write!(f, "{}, expected 6 separated by /", plural(*count, "rank"))
            }
            FenError::RankWidth { rank, squares } => {
                write!(f, "rank {rank} has {}, expected 5", plural(*squares, "square"))
            }
            FenError::UnknownPiece { rank, found } => write!(
                f,
                "unknown piece letter {found:?} in rank {rank}, expected one of PNBRQK pnbrqk or a count 1-5 of empty squares"
            ),
            FenError::Turn(found) => write!(f, "expected w or b, got {found:?}"),
            FenError::KingsideCastling(found) => write!(
                f,
                "got {found:?}, but there is no kingside castling in Chess Attack: use Q, q, Qq or -"
            ),
            FenError::Castling(found) => write!(f, "expected Q, q, Qq or -, got {found:?}"),
            FenError::EpSquare(found) => {
                write!(f, "expected - or a square a1-e6, got {found:?}")
            }
            FenError::Halfmoves(found) => {
                write!(f, "expected a number of plies (0 or more), got {found:?}")
            }
            FenError::Fullmoves(found) => {
                write!(f, "expected a move number (1 or more), got {found:?}")
            }
            FenError::Position(error) => match error {
                PositionError::InvalidCastlingRights(_) | PositionError::InvalidEpSquare { .. } => {
                    write!(f, "{error}")
                }
                _ => write!(f, "illegal position: {error}"),
            },
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(error: PositionError) -> FenError {
        FenError::Position(error)
    }
}

fn parse_board(field: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != Rank::COUNT {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (text, rank) in ranks.iter().zip(Rank::ALL.iter().rev()) {
        let mut squares = 0usize;
        for c in text.chars() {
            if let Some(empty) = c.to_digit(10).filter(|&n| n >= 1) {
                squares += empty as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if let Some(file) = File::new(squares as u32) {
                    board.set_piece_at(Square::from_coords(file, *rank), piece);
                }
                squares += 1;
            } else {
                return Err(FenError::UnknownPiece {
                    rank: *rank,
                    found: c,
                });
            }
        }
        if squares != File::COUNT {
            return Err(FenError::RankWidth {
                rank: *rank,
                squares,
            });
        }
    }
    Ok(board)
}

fn parse_castling(field: &str) -> Result<ByColor<bool>, FenError> {
    if field == "-" {
        return Ok(ByColor::new(false, false));
    }
    if field.contains(['K', 'k']) {
        return Err(FenError::KingsideCastling(field.to_owned()));
    }
    match field {
        "Q" => Ok(ByColor::new(true, false)),
        "q" => Ok(ByColor::new(false, true)),
        "Qq" => Ok(ByColor::new(true, true)),
        _ => Err(FenError::Castling(field.to_owned())),
    }
}

impl Setup {
    /// Reads a FEN without checking that the position is legal (see
    /// [`Position::from_fen`] for that).
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        let castling = parse_castling(fields[2])?;
        let ep_square = match fields[3] {
            "-" => None,
            text => Some(
                Square::from_ascii(text.as_bytes())
                    .ok_or_else(|| FenError::EpSquare(text.to_owned()))?,
            ),
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(text) => {
                parse_number(text).ok_or_else(|| FenError::Halfmoves((*text).to_owned()))?
            }
        };
        let fullmoves = match fields.get(5) {
            None => NonZeroU32::MIN,
            Some(text) => parse_number(text)
                .and_then(NonZeroU32::new)
                .ok_or_else(|| FenError::Fullmoves((*text).to_owned()))?,
        };
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }

    /// Writes all six FEN fields, the en-passant square as given.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(48);
        for (index, rank) in Rank::ALL.iter().rev().enumerate() {
            if index > 0 {
                fen.push('/');
            }
            let mut empty = 0;
            for file in File::ALL {
                match self.board.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
        }
        let castling = match (self.castling.white, self.castling.black) {
            (true, true) => "Qq",
            (true, false) => "Q",
            (false, true) => "q",
            (false, false) => "-",
        };
        let ep = self
            .ep_square
            .map_or_else(|| "-".to_owned(), |square| square.to_string());
        fen.push_str(&format!(
            " {} {castling} {ep} {} {}",
            self.turn.char(),
            self.halfmoves,
            self.fullmoves
        ));
        fen
    }
}

/// Digits only (no sign), fitting in a `u32`.
fn parse_number(text: &str) -> Option<u32> {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

impl Position {
    /// Reads and validates a FEN. The error says which field is wrong and why.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(Setup::from_fen(fen)?)?)
    }

    /// Writes the FEN, with the en-passant square only when a pawn of the side to
    /// move can capture en passant.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trip() {
        assert_eq!(START_FEN, "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1");
        assert_eq!(Position::start().to_fen(), START_FEN);
        assert_eq!(Position::from_fen(START_FEN).unwrap(), Position::start());
    }

    #[test]
    fn counters_may_be_left_out() {
        let position = Position::from_fen("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq -").unwrap();
        assert_eq!(position, Position::start());
    }
}
