//! [`Board`]: where the pieces stand, as one bitboard per role and per colour.

use core::fmt;

use crate::attacks;
use crate::color::{ByColor, Color};
use crate::role::{ByRole, Piece, Role};
use crate::square::{File, Rank, Square};
use crate::square_set::SquareSet;

/// Piece placement, with no notion of whose turn it is. Any placement is
/// representable, legal or not; [`crate::Position`] checks legality.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: ByRole<SquareSet>,
    by_color: ByColor<SquareSet>,
    occupied: SquareSet,
}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: ByRole {
                pawn: SquareSet::EMPTY,
                knight: SquareSet::EMPTY,
                bishop: SquareSet::EMPTY,
                rook: SquareSet::EMPTY,
                queen: SquareSet::EMPTY,
                king: SquareSet::EMPTY,
            },
            by_color: ByColor::new(SquareSet::EMPTY, SquareSet::EMPTY),
            occupied: SquareSet::EMPTY,
        }
    }

    /// The start position: `RNBQK` on rank 1, white pawns on rank 2, black pawns on
    /// rank 5 and `rnbqk` on rank 6.
    pub fn start() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
        ];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.set_piece_at(
                Square::from_coords(file, Rank::First),
                role.of(Color::White),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Second),
                Role::Pawn.of(Color::White),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Fifth),
                Role::Pawn.of(Color::Black),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::Sixth),
                role.of(Color::Black),
            );
        }
        board
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> SquareSet {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> SquareSet {
        self.by_color[color]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> SquareSet {
        self.by_role[role]
    }

    /// The squares holding `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> SquareSet {
        self.by_color[piece.color] & self.by_role[piece.role]
    }

    /// Pawns of both colours.
    #[inline]
    pub fn pawns(&self) -> SquareSet {
        self.by_role.pawn
    }

    /// Knights of both colours.
    #[inline]
    pub fn knights(&self) -> SquareSet {
        self.by_role.knight
    }

    /// Bishops of both colours.
    #[inline]
    pub fn bishops(&self) -> SquareSet {
        self.by_role.bishop
    }

    /// Rooks of both colours.
    #[inline]
    pub fn rooks(&self) -> SquareSet {
        self.by_role.rook
    }

    /// Queens of both colours.
    #[inline]
    pub fn queens(&self) -> SquareSet {
        self.by_role.queen
    }

    /// Kings of both colours.
    #[inline]
    pub fn kings(&self) -> SquareSet {
        self.by_role.king
    }

    /// Rooks and queens (the pieces that attack along ranks and files).
    #[inline]
    pub fn rooks_and_queens(&self) -> SquareSet {
        self.by_role.rook | self.by_role.queen
    }

    /// Bishops and queens (the pieces that attack along diagonals).
    #[inline]
    pub fn bishops_and_queens(&self) -> SquareSet {
        self.by_role.bishop | self.by_role.queen
    }

    /// The square of `color`'s king (the lowest one if a broken board has several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role.king & self.by_color[color]).first()
    }

    /// The colour of the piece on `square`, if any.
    #[inline]
    pub fn color_at(&self, square: Square) -> Option<Color> {
        if self.by_color.white.contains(square) {
            Some(Color::White)
        } else if self.by_color.black.contains(square) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `square`, if any.
    #[inline]
    pub fn role_at(&self, square: Square) -> Option<Role> {
        if !self.occupied.contains(square) {
            None
        } else if self.by_role.pawn.contains(square) {
            Some(Role::Pawn)
        } else if self.by_role.knight.contains(square) {
            Some(Role::Knight)
        } else if self.by_role.bishop.contains(square) {
            Some(Role::Bishop)
        } else if self.by_role.rook.contains(square) {
            Some(Role::Rook)
        } else if self.by_role.queen.contains(square) {
            Some(Role::Queen)
        } else {
            Some(Role::King)
        }
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(square)?,
            role: self.role_at(square)?,
        })
    }

    /// Removes and returns the piece on `square`, if any.
    #[inline]
    pub fn remove_piece_at(&mut self, square: Square) -> Option<Piece> {
        let piece = self.piece_at(square)?;
        self.by_role[piece.role] ^= square;
        self.by_color[piece.color] ^= square;
        self.occupied ^= square;
        Some(piece)
    }

    /// Puts `piece` on `square`, replacing whatever stood there.
    #[inline]
    pub fn set_piece_at(&mut self, square: Square, piece: Piece) {
        self.remove_piece_at(square);
        self.by_role[piece.role] |= square;
        self.by_color[piece.color] |= square;
        self.occupied |= square;
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .iter()
            .filter_map(|square| Some((square, self.piece_at(square)?)))
    }

    /// The squares the piece on `square` attacks (empty if there is none).
    pub fn attacks_from(&self, square: Square) -> SquareSet {
        self.piece_at(square).map_or(SquareSet::EMPTY, |piece| {
            attacks::attacks(square, piece, self.occupied)
        })
    }

    /// The pieces of `attacker` that attack `square`, with sliders blocked by
    /// `occupied` (which may differ from the board's own occupancy, to ask "what if").
    #[inline]
    pub fn attackers_to(&self, square: Square, attacker: Color, occupied: SquareSet) -> SquareSet {
        self.by_color[attacker]
            & ((attacks::rook_attacks(square, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(square, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(square) & self.by_role.knight)
                | (attacks::king_attacks(square) & self.by_role.king)
                | (attacks::pawn_attacks(attacker.other(), square) & self.by_role.pawn))
    }

    /// `true` if any piece of `attacker` attacks `square` on this board.
    #[inline]
    pub fn is_attacked(&self, square: Square, attacker: Color) -> bool {
        self.attackers_to(square, attacker, self.occupied).any()
    }
}

/// A 6-line diagram, rank 6 on top, FEN letters for pieces and `.` for empty squares.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let square = Square::from_coords(file, *rank);
                let symbol = self.piece_at(square).map_or('.', Piece::char);
                write!(f, "{symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\n{self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board() {
        let board = Board::start();
        assert_eq!(
            board.to_string(),
            "rnbqk\nppppp\n.....\n.....\nPPPPP\nRNBQK\n"
        );
        assert_eq!(board.king_of(Color::White), Some(Square::E1));
        assert_eq!(board.king_of(Color::Black), Some(Square::E6));
        assert_eq!(board.occupied().count(), 20);
        assert_eq!(
            board.piece_at(Square::D6),
            Some(Role::Queen.of(Color::Black))
        );
        assert_eq!(board.piece_at(Square::C3), None);
    }

    #[test]
    fn attackers() {
        let board = Board::start();
        assert_eq!(
            board.attackers_to(Square::C3, Color::White, board.occupied()),
            [Square::B1, Square::B2, Square::D2].into_iter().collect()
        );
        assert!(!board.is_attacked(Square::C4, Color::White));
        assert!(board.is_attacked(Square::C4, Color::Black));
    }

    #[test]
    fn set_and_remove() {
        let mut board = Board::empty();
        board.set_piece_at(Square::C3, Role::Queen.of(Color::White));
        board.set_piece_at(Square::C3, Role::Knight.of(Color::Black));
        assert_eq!(
            board.piece_at(Square::C3),
            Some(Role::Knight.of(Color::Black))
        );
        assert_eq!(board.occupied().count(), 1);
        assert_eq!(board.queens(), SquareSet::EMPTY);
        assert_eq!(
            board.remove_piece_at(Square::C3),
            Some(Role::Knight.of(Color::Black))
        );
        assert_eq!(board, Board::empty());
    }
}
