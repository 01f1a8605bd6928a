//! The move list's notation and UCI moves.
//!
//! The move list uses long algebraic notation with the piece letter always written
//! (P for pawns): `Pb2-b3`, `Pa4xb3`, `Nb1-c3`, `Qd1xd5+`, `O-O-O`, `Pb5-b6=Q`, with
//! `+` for check and `#` for mate. En passant is written as the pawn capture it is
//! (`Pd4xe3`). In a numbered list White's moves read `3.Pb2-b3`, Black's `3...Pa4xb3`.
//!
//! UCI moves are `from` and `to` squares (`b2b3`), castling written as the king's
//! move (`e1c1`), a promotion with a lower-case letter (`b5b6q`).

use core::fmt;

use crate::color::Color;
use crate::moves::{Move, MoveKind};
use crate::plural;
use crate::position::Position;
use crate::role::Role;
use crate::square::{Rank, Square};

/// Why a move could not be read, or is not legal in the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not shaped like a move of the move list.
    Syntax(String),
    /// The text is not shaped like a UCI move.
    UciSyntax(String),
    /// The move is readable but not legal here; `reason` says why.
    Illegal { text: String, reason: String },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(text) => write!(
                f,
                "cannot read move {text:?}: expected a piece letter (K Q R B N P), two squares joined by - or x, and =Q, =R, =B or =N for a promotion, like Nb1-c3, Pa4xb3, Pb5-b6=Q, or O-O-O"
            ),
            NotationError::UciSyntax(text) => write!(
                f,
                "cannot read UCI move {text:?}: expected two squares a1-e6 and an optional promotion letter q, r, b or n, like b2b3 or b5b6q"
            ),
            NotationError::Illegal { text, reason } => {
                write!(f, "illegal move {text:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

const CASTLE: &str = "O-O-O";

/// Writes `m`, a legal move in `position`, in move-list notation, with `+` if it
/// gives check and `#` if it mates.
pub fn write(position: &Position, m: &Move) -> String {
    let mut text = if m.kind == MoveKind::Castle {
        CASTLE.to_owned()
    } else {
        let separator = if m.is_capture() { 'x' } else { '-' };
        let mut text = format!("{}{}{separator}{}", m.role.upper_char(), m.from, m.to);
        if let Some(promotion) = m.promotion {
            text.push('=');
            text.push(promotion.upper_char());
        }
        text
    };
    let after = position.play(m);
    if after.is_check() {
        text.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    text
}

/// The parts of a move written in move-list notation, before looking at the board.
struct Written {
    role: Role,
    from: Square,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
}

fn read_written(body: &str) -> Option<Written> {
    let bytes = body.as_bytes();
    let (head, promotion) = match bytes {
        [head @ .., b'=', letter] => (head, Some(*letter)),
        _ => (bytes, None),
    };
    let [role, from_file, from_rank, separator, to_file, to_rank] = *head else {
        return None;
    };
    let promotion = match promotion {
        None => None,
        Some(letter) => match Role::from_char(char::from(letter)) {
            Some(role) if letter.is_ascii_uppercase() && Role::PROMOTIONS.contains(&role) => {
                Some(role)
            }
            _ => return None,
        },
    };
    Some(Written {
        role: Role::from_char(char::from(role)).filter(|_| role.is_ascii_uppercase())?,
        from: Square::from_ascii(&[from_file, from_rank])?,
        capture: match separator {
            b'-' => false,
            b'x' => true,
            _ => return None,
        },
        to: Square::from_ascii(&[to_file, to_rank])?,
        promotion,
    })
}

/// Reads a move in move-list notation (`Nb1-c3`, `Pa4xb3`, `Pb5-b6=Q`, `O-O-O`,
/// with or without a trailing `+` or `#`) and returns the legal move it means.
pub fn parse(position: &Position, text: &str) -> Result<Move, NotationError> {
    let trimmed = text.trim();
    let body = trimmed.strip_suffix(['+', '#']).unwrap_or(trimmed);
    let illegal = |reason: String| NotationError::Illegal {
        text: trimmed.to_owned(),
        reason,
    };
    let legal = position.legal_moves();
    let turn = position.turn();
    if body == CASTLE || body == "0-0-0" {
        return legal
            .iter()
            .find(|m| m.kind == MoveKind::Castle)
            .copied()
            .ok_or_else(|| illegal(format!("{turn} cannot castle now")));
    }
    let written = read_written(body).ok_or_else(|| NotationError::Syntax(trimmed.to_owned()))?;
    let board = position.board();
    let Some(piece) = board.piece_at(written.from) else {
        return Err(illegal(format!("there is no piece on {}", written.from)));
    };
    if piece.color != turn {
        return Err(illegal(format!(
            "the piece on {} is {}'s, and it is {turn}'s turn",
            written.from, piece.color
        )));
    }
    if piece.role != written.role {
        return Err(illegal(format!(
            "the piece on {} is a {} ({}), not a {} ({})",
            written.from,
            piece.role,
            piece.role.upper_char(),
            written.role,
            written.role.upper_char()
        )));
    }
    let reaching = legal
        .iter()
        .filter(|m| m.from == written.from && m.to == written.to && m.kind != MoveKind::Castle)
        .copied()
        .collect::<Vec<Move>>();
    let Some(first) = reaching.first() else {
        if piece.role == Role::King
            && written.to == Square::C1.relative(turn)
            && written.from == Square::E1.relative(turn)
        {
            return Err(illegal(format!("castling is written {CASTLE}")));
        }
        return Err(illegal(format!(
            "the {} on {} cannot go to {}",
            piece.role, written.from, written.to
        )));
    };
    if first.is_capture() != written.capture {
        return Err(illegal(match first.capture {
            None => format!(
                "there is nothing to take on {}: write - for a move without capture",
                written.to
            ),
            Some(role) => format!("it takes a {role}: write x instead of -"),
        }));
    }
    let last_rank = Rank::Sixth.relative(turn);
    match written.promotion {
        None if first.is_promotion() => Err(illegal(format!(
            "a pawn reaching rank {last_rank} must promote: add =Q, =R, =B or =N"
        ))),
        Some(_) if !first.is_promotion() => Err(illegal(
            "only a pawn reaching the last rank promotes".to_owned(),
        )),
        promotion => Ok(reaching
            .iter()
            .find(|m| m.promotion == promotion)
            .copied()
            .unwrap_or(*first)),
    }
}

/// The move list from `start`, one entry per ply: `1.Pb2-b3`, `1...Pb5-b4`,
/// `2.Nb1-c3`, ... Numbering follows the position's move number and side to move (a
/// list starting with Black's move begins `n...`). Fails at the first move that is
/// not legal where it is played.
pub fn format_move_list(start: &Position, moves: &[Move]) -> Result<Vec<String>, NotationError> {
    let mut position = *start;
    let mut entries = Vec::with_capacity(moves.len());
    for m in moves {
        if !position.is_legal(m) {
            return Err(NotationError::Illegal {
                text: m.to_uci(),
                reason: format!(
                    "not legal after {}, at {}",
                    plural(entries.len(), "move"),
                    position.to_fen()
                ),
            });
        }
        let dots = match position.turn() {
            Color::White => ".",
            Color::Black => "...",
        };
        entries.push(format!(
            "{}{dots}{}",
            position.fullmove_number(),
            write(&position, m)
        ));
        position.play_unchecked(m);
    }
    Ok(entries)
}

/// Reads a UCI move (see the module documentation) and returns the legal move it
/// means in `position`.
pub fn parse_uci(position: &Position, text: &str) -> Result<Move, NotationError> {
    let bytes = text.as_bytes();
    let syntax = || NotationError::UciSyntax(text.to_owned());
    let (squares, promotion) = match bytes.len() {
        4 => (bytes, None),
        5 => (&bytes[..4], Some(bytes[4])),
        _ => return Err(syntax()),
    };
    let from = Square::from_ascii(&squares[..2]).ok_or_else(syntax)?;
    let to = Square::from_ascii(&squares[2..]).ok_or_else(syntax)?;
    let promotion = match promotion {
        None => None,
        Some(letter) => Some(
            Role::from_char(char::from(letter))
                .filter(|role| letter.is_ascii_lowercase() && Role::PROMOTIONS.contains(role))
                .ok_or_else(syntax)?,
        ),
    };
    position
        .legal_moves()
        .iter()
        .find(|m| m.from == from && m.to == to && m.promotion == promotion)
        .copied()
        .ok_or_else(|| NotationError::Illegal {
            text: text.to_owned(),
            reason: format!(
                "not a legal move for {} in {}",
                position.turn(),
                position.to_fen()
            ),
        })
}

impl Position {
    /// Reads a UCI move (`b2b3`, `e1c1`, `b5b6q`); see [`parse_uci`].
    pub fn parse_uci(&self, text: &str) -> Result<Move, NotationError> {
        parse_uci(self, text)
    }
}
