//! [`Move`] and [`MoveList`].

use core::fmt;
use core::ops::Deref;

use crate::role::Role;
use crate::square::Square;

/// What kind of move a [`Move`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the two below, promotions included.
    Normal,
    /// A pawn capturing a pawn that just made a double step, by moving to the square
    /// that pawn crossed.
    EnPassant,
    /// The long castle, the only castle there is: written as the king's move
    /// (e1 to c1, or e6 to c6); the rook goes from the a-file to the d-file.
    Castle,
}

/// A move, with what a move list needs to show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the moving piece starts (the king's square for castling).
    pub from: Square,
    /// Where it lands (c1 or c6 for castling).
    pub to: Square,
    /// The moving piece's role (a pawn for promotions, a king for castling).
    pub role: Role,
    /// The role of the captured piece (a pawn for en passant), if any.
    pub capture: Option<Role>,
    /// What a pawn promotes to, if it reaches the last rank.
    pub promotion: Option<Role>,
    /// Normal, en passant or castle.
    pub kind: MoveKind,
}

impl Move {
    /// `true` if the move takes a piece (en passant included).
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// `true` if a pawn promotes.
    pub const fn is_promotion(&self) -> bool {
        self.promotion.is_some()
    }

    /// `true` if the quiescence search plays the move (docs/search.md, step 5): a
    /// capture (en passant included) other than an under-promotion, or a quiet
    /// promotion to a queen. The assembly's twin is GenerateQuiescenceMoves.
    pub const fn is_quiescence(&self) -> bool {
        match self.promotion {
            Some(role) => matches!(role, Role::Queen),
            None => self.capture.is_some(),
        }
    }

    /// `true` if the move resets the fifty-move counter (a capture or a pawn move).
    pub const fn is_zeroing(&self) -> bool {
        self.capture.is_some() || matches!(self.role, Role::Pawn)
    }

    /// The move in UCI form with 5x6 squares: `b2b3`, castling as the king's move
    /// `e1c1`, promotions with a lower-case letter, `b5b6q`.
    pub fn to_uci(&self) -> String {
        match self.promotion {
            Some(role) => format!("{}{}{}", self.from, self.to, role.char()),
            None => format!("{}{}", self.from, self.to),
        }
    }
}

/// Shows the UCI form, `b2b3`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci())
    }
}

/// A list of moves kept in a fixed array (no heap allocation), used for the legal
/// moves of a position. It dereferences to a slice: `len()`, `iter()`, `contains()`,
/// indexing.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

const PLACEHOLDER: Move = Move {
    from: Square::A1,
    to: Square::A1,
    role: Role::Pawn,
    capture: None,
    promotion: None,
    kind: MoveKind::Normal,
};

impl MoveList {
    /// Room for more moves than any position has, even a set-up one with more
    /// pieces than a game can reach: with `k` pieces on its side, a piece other than
    /// the king has at most `min(17, 30 - k)` moves (a queen reaches 17 squares at
    /// most, a pawn makes at most 12 moves counting each promotion), the king at most
    /// 9 with castling; the total stays below 230 for every `k`.
    pub const CAPACITY: usize = 256;

    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [PLACEHOLDER; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// Appends a move; a move beyond the capacity (impossible, see [`Self::CAPACITY`])
    /// would be dropped rather than panic.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(&m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_form() {
        let promotion = Move {
            from: Square::B5,
            to: Square::B6,
            role: Role::Pawn,
            capture: None,
            promotion: Some(Role::Queen),
            kind: MoveKind::Normal,
        };
        assert_eq!(promotion.to_uci(), "b5b6q");
        let castle = Move {
            from: Square::E1,
            to: Square::C1,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle,
        };
        assert_eq!(castle.to_string(), "e1c1");
    }

    /// The quiescence moves of the position `fen`, in UCI, sorted.
    fn quiescence_moves(fen: &str) -> Vec<String> {
        let position = crate::Position::from_fen(fen).unwrap();
        let mut moves: Vec<String> = position
            .legal_moves()
            .iter()
            .filter(|m| m.is_quiescence())
            .map(Move::to_uci)
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn quiescence_moves_are_captures_and_queen_promotions() {
        // a5 takes on b6 and promotes, or pushes to a6: as a queen only; a2 takes b3.
        assert_eq!(
            quiescence_moves("1n2k/P4/5/1p3/P4/4K w - - 0 1"),
            ["a2b3", "a5a6q", "a5b6q"]
        );
        assert_eq!(
            quiescence_moves("k4/5/5/1PpP1/5/4K w - c4 0 1"),
            ["b3c4", "d3c4"]
        );
    }

    #[test]
    fn list_push_and_retain() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        for to in [Square::A2, Square::A3, Square::A4] {
            list.push(Move { to, ..PLACEHOLDER });
        }
        assert_eq!(list.len(), 3);
        list.retain(|m| m.to != Square::A3);
        let targets: Vec<Square> = list.iter().map(|m| m.to).collect();
        assert_eq!(targets, vec![Square::A2, Square::A4]);
    }
}
