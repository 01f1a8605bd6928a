//! [`Game`]: a game from a start position, with its history, and how it ends.

use core::fmt;

use crate::color::Color;
use crate::moves::Move;
use crate::notation::{self, NotationError};
use crate::position::Position;

/// How a game ended. The first five follow from the moves; the last three are
/// decided by the player interface (clock, menu).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check with no legal move.
    Checkmate { winner: Color },
    /// The side to move is not in check and has no legal move: a draw.
    Stalemate,
    /// Bare kings, or king against king and one bishop or knight: a draw.
    InsufficientMaterial,
    /// 100 plies in a row without a capture or pawn move: a draw.
    FiftyMoves,
    /// The same position (pieces, side to move, castling and en-passant rights)
    /// for the third time: a draw.
    ThreefoldRepetition,
    /// `loser`'s clock reached 0:00.
    Timeout { loser: Color },
    /// `loser` resigned.
    Resignation { loser: Color },
    /// Both players agreed to a draw.
    Agreement,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Timeout { loser } | Outcome::Resignation { loser } => Some(loser.other()),
            Outcome::Stalemate
            | Outcome::InsufficientMaterial
            | Outcome::FiftyMoves
            | Outcome::ThreefoldRepetition
            | Outcome::Agreement => None,
        }
    }

    /// `true` for every drawn ending.
    pub fn is_draw(&self) -> bool {
        self.winner().is_none()
    }
}

/// The ending in words, as the end screen says it, e.g. `checkmate, White wins` or
/// `draw by fifty moves`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Timeout { .. } => "time",
            Outcome::Resignation { .. } => "resigned",
            Outcome::Stalemate => "stalemate",
            Outcome::InsufficientMaterial => "draw by insufficient material",
            Outcome::FiftyMoves => "draw by fifty moves",
            Outcome::ThreefoldRepetition => "draw by repetition",
            Outcome::Agreement => "draw by agreement",
        };
        match self.winner() {
            Some(winner) => write!(f, "{how}, {winner} wins"),
            None => f.write_str(how),
        }
    }
}

/// Why [`Game::play`] refused a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The move is not legal in the current position.
    IllegalMove(Move),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(outcome) => write!(f, "the game is over ({outcome})"),
            GameError::IllegalMove(m) => write!(f, "{m} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game: the start position, the moves played, the Zobrist key of every position
/// reached (for threefold repetition), and an ending decided outside the board.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// `keys[i]` is the key of the position after `i` moves.
    keys: Vec<u64>,
    ended_by_players: Option<Outcome>,
}

impl Game {
    /// A game starting at `start` (usually [`Position::start`]).
    pub fn new(start: Position) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![start.zobrist()],
            ended_by_players: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The Zobrist key ([`Position::zobrist`]) of every position reached, the start first
    /// and the current position last: the history a search counts repetitions in.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Plays `m` if it is legal and the game is not over.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        if !self.position.is_legal(&m) {
            return Err(GameError::IllegalMove(m));
        }
        self.position.play_unchecked(&m);
        self.moves.push(m);
        self.keys.push(self.position.zobrist());
        Ok(())
    }

    /// How many times the current position has occurred, this time included.
    /// Only positions since the last capture or pawn move can repeat it.
    pub fn repetitions(&self) -> usize {
        let Some((current, earlier)) = self.keys.split_last() else {
            return 0;
        };
        let window = self.position.halfmove_clock() as usize;
        1 + earlier
            .iter()
            .rev()
            .take(window)
            .filter(|&&key| key == *current)
            .count()
    }

    /// How the game ended, or `None` while it goes on. A checkmate or stalemate
    /// comes first, then insufficient material, the fifty-move rule, threefold
    /// repetition; an ending set by [`Self::resign`], [`Self::flag_fell`] or
    /// [`Self::agree_draw`] stands once set.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.ended_by_players.is_some() {
            return self.ended_by_players;
        }
        let position = &self.position;
        if position.legal_moves().is_empty() {
            return Some(if position.is_check() {
                Outcome::Checkmate {
                    winner: position.turn().other(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if position.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if position.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoves)
        } else if self.repetitions() >= 3 {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// `true` once the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn end_by_players(&mut self, outcome: Outcome) -> Result<(), GameError> {
        match self.outcome() {
            Some(earlier) => Err(GameError::GameOver(earlier)),
            None => {
                self.ended_by_players = Some(outcome);
                Ok(())
            }
        }
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Color) -> Result<(), GameError> {
        self.end_by_players(Outcome::Resignation { loser })
    }

    /// `loser`'s clock reached 0:00.
    pub fn flag_fell(&mut self, loser: Color) -> Result<(), GameError> {
        self.end_by_players(Outcome::Timeout { loser })
    }

    /// The players agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end_by_players(Outcome::Agreement)
    }

    /// The move list, one entry per ply: `1.Pb2-b3`, `1...Pb5-b4`, ...
    pub fn move_list(&self) -> Result<Vec<String>, NotationError> {
        notation::format_move_list(&self.start, &self.moves)
    }
}
