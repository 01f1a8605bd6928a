//! [`Position`]: a validated position, and making moves on it.

use core::fmt;
use core::num::NonZeroU32;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::moves::{Move, MoveKind};
use crate::role::Role;
use crate::setup::Setup;
use crate::square::{Rank, Square};
use crate::square_set::SquareSet;

/// A legal position: one king per side, the side not to move not in check, no pawn
/// on rank 1 or 6, castling rights only with king and rook at home, and an
/// en-passant square only where a double step just happened.
///
/// The en-passant square is kept only while a pawn can actually (legally) capture en
/// passant; otherwise it is dropped, as Fairy-Stockfish does. That is also what makes
/// two positions equal for threefold repetition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: ByColor<bool>,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: NonZeroU32,
}

/// Why a [`Setup`] is not a legal position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings { color: Color, count: u32 },
    /// A pawn stands on rank 1 or rank 6 (the first one found, a1 first).
    PawnOnBackRank(Square),
    /// A side has a castling right without its king on e1 (e6) and a rook on a1 (a6).
    InvalidCastlingRights(Color),
    /// The en-passant square does not follow a double step of the side not to move.
    InvalidEpSquare { square: Square, turn: Color },
    /// The side not to move is in check (its king could be captured).
    OppositeCheck(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::MissingKing(color) => write!(f, "{color} has no king"),
            PositionError::TooManyKings { color, count } => {
                write!(f, "{color} has {count} kings, exactly one is allowed")
            }
            PositionError::PawnOnBackRank(square) => write!(
                f,
                "pawn on {square}: pawns cannot stand on rank 1 or rank 6"
            ),
            PositionError::InvalidCastlingRights(color) => {
                let king = Square::E1.relative(color);
                let rook = Square::A1.relative(color);
                write!(
                    f,
                    "{color} cannot have the castling right: it needs its king on {king} and a rook on {rook}"
                )
            }
            PositionError::InvalidEpSquare { square, turn } => {
                let rank = Rank::Fourth.relative(turn);
                let opponent = turn.other().name().to_ascii_lowercase();
                write!(
                    f,
                    "en-passant square {square} is impossible: with {turn} to move it must be an empty square on rank {rank} that a {opponent} pawn has just crossed with a double step"
                )
            }
            PositionError::OppositeCheck(color) => {
                write!(f, "{color} is in check but it is {}'s turn", color.other())
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position, `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1`.
    pub fn start() -> Position {
        Position {
            board: Board::start(),
            turn: Color::White,
            castling: ByColor::new(true, true),
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// Validates a setup (see [`PositionError`] for what is checked). An en-passant
    /// square that is possible but where no pawn can legally capture is dropped.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let count = (board.kings() & board.by_color(color)).count();
            match count {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings { color, count }),
            }
        }
        if let Some(square) = (board.pawns() & SquareSet::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(square));
        }
        for color in Color::ALL {
            let king_home = Square::E1.relative(color);
            let rook_home = Square::A1.relative(color);
            let at_home = board.by_piece(Role::King.of(color)).contains(king_home)
                && board.by_piece(Role::Rook.of(color)).contains(rook_home);
            if setup.castling[color] && !at_home {
                return Err(PositionError::InvalidCastlingRights(color));
            }
        }
        if let Some(square) = setup.ep_square {
            if !ep_square_is_plausible(&board, setup.turn, square) {
                return Err(PositionError::InvalidEpSquare {
                    square,
                    turn: setup.turn,
                });
            }
        }
        let opponent = setup.turn.other();
        if let Some(king) = board.king_of(opponent) {
            if board.is_attacked(king, setup.turn) {
                return Err(PositionError::OppositeCheck(opponent));
            }
        }
        let mut position = Position {
            board,
            turn: setup.turn,
            castling: setup.castling,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        position.ep_square = setup
            .ep_square
            .filter(|&square| position.can_capture_en_passant(square));
        Ok(position)
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// Piece placement.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Whether each side still has its (long) castling right. A right can exist
    /// while castling is not possible right now (pieces between, check, ...).
    pub fn castling_rights(&self) -> ByColor<bool> {
        self.castling
    }

    /// The en-passant square, only when the side to move can legally capture there.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, incremented after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmoves.get()
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> SquareSet {
        match self.board.king_of(self.turn) {
            Some(king) => self
                .board
                .attackers_to(king, self.turn.other(), self.board.occupied()),
            None => SquareSet::EMPTY,
        }
    }

    /// `true` if the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// `true` if the side to move is in check and has no legal move: it has lost.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// `true` if the side to move is not in check and has no legal move: a draw.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// `true` if neither side can ever mate, by the rule of this game: bare kings,
    /// or king against king and one bishop or one knight. Nothing else counts (two
    /// knights, or a bishop each, do not).
    pub fn is_insufficient_material(&self) -> bool {
        let board = &self.board;
        (board.pawns() | board.rooks_and_queens()).is_empty()
            && !(board.knights() | board.bishops()).more_than_one()
    }

    /// `true` if `m` is one of the legal moves.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// The position after `m`, which must be legal here (from [`Self::legal_moves`],
    /// [`Self::parse_uci`] or [`crate::notation::parse`]); see [`Self::play_unchecked`].
    pub fn play(&self, m: &Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Plays `m`, which must be legal here. Nothing is checked: an illegal move leaves
    /// a position that may break the rules, but it never panics.
    ///
    /// Updates the board, the side to move, castling rights (lost when the king or the
    /// a-file rook moves, or that rook is captured), the en-passant square (set after a
    /// double step only if the opponent can legally capture), the halfmove clock (reset
    /// by captures and pawn moves) and the move number.
    pub fn play_unchecked(&mut self, m: &Move) {
        let us = self.turn;
        let mut double_step_crossed = None;
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        match m.kind {
            MoveKind::Castle => {
                let king_home = Square::E1.relative(us);
                let rook_home = Square::A1.relative(us);
                self.board.remove_piece_at(king_home);
                self.board.remove_piece_at(rook_home);
                self.board
                    .set_piece_at(Square::C1.relative(us), Role::King.of(us));
                self.board
                    .set_piece_at(Square::D1.relative(us), Role::Rook.of(us));
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(m.to.file(), m.from.rank());
                self.board.remove_piece_at(captured);
                self.board.remove_piece_at(m.from);
                self.board.set_piece_at(m.to, Role::Pawn.of(us));
                self.halfmoves = 0;
            }
            MoveKind::Normal => {
                let role = self
                    .board
                    .remove_piece_at(m.from)
                    .map_or(m.role, |p| p.role);
                let captured = self.board.remove_piece_at(m.to);
                if captured.is_some() || role == Role::Pawn {
                    self.halfmoves = 0;
                }
                let placed = m.promotion.unwrap_or(role);
                self.board.set_piece_at(m.to, placed.of(us));
                let from_rank = m.from.rank().index();
                let to_rank = m.to.rank().index();
                if role == Role::Pawn && from_rank.abs_diff(to_rank) == 2 {
                    double_step_crossed = Rank::new((from_rank + to_rank) as u32 / 2)
                        .map(|rank| Square::from_coords(m.from.file(), rank));
                }
            }
        }
        let touched = SquareSet::from_square(m.from) | m.to;
        for color in Color::ALL {
            let homes =
                SquareSet::from_square(Square::E1.relative(color)) | Square::A1.relative(color);
            if (touched & homes).any() {
                self.castling[color] = false;
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = us.other();
        self.ep_square = double_step_crossed.filter(|&square| self.can_capture_en_passant(square));
    }
}

/// `true` if `square` could be the en-passant square with `turn` to move: on the
/// right rank, empty, with the opponent's pawn just in front of it and the square
/// behind it (where that pawn came from) empty.
fn ep_square_is_plausible(board: &Board, turn: Color, square: Square) -> bool {
    let pusher = turn.other();
    let forward = if pusher == Color::White { 1 } else { -1 };
    let (Some(pawn_square), Some(origin)) = (square.offset(0, forward), square.offset(0, -forward))
    else {
        return false;
    };
    square.rank() == Rank::Third.relative(pusher)
        && !board.occupied().contains(square)
        && !board.occupied().contains(origin)
        && board.by_piece(Role::Pawn.of(pusher)).contains(pawn_square)
}

/// Shows the board diagram and the FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.board, self.to_fen())
    }
}
