//! Legal move generation.
//!
//! Moves are generated legal from the start, without playing them to test: pieces
//! pinned to their king move only along the pin line; in check, non-king moves must
//! capture the single checker or step between it and the king (in double check only
//! the king moves); the king never steps onto an attacked square (attacks computed
//! with the king lifted off the board, so it cannot retreat along a checking line).
//! En passant, which removes two pieces from a line at once (the horizontal
//! discovered check along the rank), is checked by recomputing the attacks on the
//! king after the capture.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, ray,
    rook_attacks,
};
use crate::board::Board;
use crate::color::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::role::Role;
use crate::square::{Rank, Square};
use crate::square_set::SquareSet;

impl Position {
    /// Every legal move of the side to move. Empty when the game is over by
    /// checkmate or stalemate.
    ///
    /// The order is fixed (a search that mirrors this model may rely on it): pawn
    /// moves by starting square a1 to e6, each pawn's single step, double step, then
    /// captures by target square, a promotion as four moves (queen, rook, bishop,
    /// knight); then knights, bishops, rooks and queens, each by starting square and
    /// then target square; the long castle; en passant; king moves by target square.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        let us = self.turn;
        let board = &self.board;
        let Some(king) = board.king_of(us) else {
            return moves;
        };
        let checkers = board.attackers_to(king, us.other(), board.occupied());
        let target = match checkers.single() {
            _ if checkers.is_empty() => !board.by_color(us),
            Some(checker) => between(king, checker).with(checker),
            None => SquareSet::EMPTY,
        };
        if target.any() {
            let pinned = self.pinned(king);
            self.generate_pawn_moves(&mut moves, king, target, pinned);
            self.generate_piece_moves(&mut moves, king, target, pinned);
        }
        if checkers.is_empty() {
            self.generate_castle(&mut moves);
        }
        self.generate_en_passant(&mut moves);
        self.generate_king_moves(&mut moves, king);
        moves
    }

    /// Pieces of the side to move that stand alone between their king and an enemy
    /// slider aiming at it.
    fn pinned(&self, king: Square) -> SquareSet {
        let board = &self.board;
        let them = board.by_color(self.turn.other());
        let snipers = ((rook_attacks(king, SquareSet::EMPTY) & board.rooks_and_queens())
            | (bishop_attacks(king, SquareSet::EMPTY) & board.bishops_and_queens()))
            & them;
        let mut pinned = SquareSet::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & board.occupied();
            if let Some(blocker) = blockers.single() {
                pinned |= blocker;
            }
        }
        pinned & board.by_color(self.turn)
    }

    fn generate_pawn_moves(
        &self,
        moves: &mut MoveList,
        king: Square,
        target: SquareSet,
        pinned: SquareSet,
    ) {
        let us = self.turn;
        let board = &self.board;
        let occupied = board.occupied();
        let theirs = board.by_color(us.other());
        let forward = if us == Color::White { 1 } else { -1 };
        let start_rank = Rank::Second.relative(us);
        for from in board.pawns() & board.by_color(us) {
            let allowed = if pinned.contains(from) {
                target & ray(king, from)
            } else {
                target
            };
            if let Some(to) = from.offset(0, forward) {
                if !occupied.contains(to) {
                    if allowed.contains(to) {
                        push_pawn_move(moves, from, to, None);
                    }
                    if from.rank() == start_rank {
                        if let Some(to2) = to.offset(0, forward) {
                            if !occupied.contains(to2) && allowed.contains(to2) {
                                push_pawn_move(moves, from, to2, None);
                            }
                        }
                    }
                }
            }
            for to in pawn_attacks(us, from) & theirs & allowed {
                push_pawn_move(moves, from, to, board.role_at(to));
            }
        }
    }

    fn generate_piece_moves(
        &self,
        moves: &mut MoveList,
        king: Square,
        target: SquareSet,
        pinned: SquareSet,
    ) {
        let board = &self.board;
        let ours = board.by_color(self.turn);
        let occupied = board.occupied();
        // A pinned knight can never move: no knight move stays on a line.
        for from in board.knights() & ours & !pinned {
            self.push_piece_moves(moves, Role::Knight, from, knight_attacks(from) & target);
        }
        for (role, pieces) in [
            (Role::Bishop, board.bishops()),
            (Role::Rook, board.rooks()),
            (Role::Queen, board.queens()),
        ] {
            for from in pieces & ours {
                let mut targets = target
                    & match role {
                        Role::Bishop => bishop_attacks(from, occupied),
                        Role::Rook => rook_attacks(from, occupied),
                        _ => queen_attacks(from, occupied),
                    };
                if pinned.contains(from) {
                    targets &= ray(king, from);
                }
                self.push_piece_moves(moves, role, from, targets);
            }
        }
    }

    #[inline]
    fn push_piece_moves(&self, moves: &mut MoveList, role: Role, from: Square, targets: SquareSet) {
        for to in targets {
            moves.push(Move {
                from,
                to,
                role,
                capture: self.board.role_at(to),
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    fn generate_king_moves(&self, moves: &mut MoveList, king: Square) {
        let board = &self.board;
        let them = self.turn.other();
        let occupied_without_king = board.occupied().without(king);
        for to in king_attacks(king) & !board.by_color(self.turn) {
            if board
                .attackers_to(to, them, occupied_without_king)
                .is_empty()
            {
                self.push_piece_moves(moves, Role::King, king, SquareSet::from_square(to));
            }
        }
    }

    /// The long castle, the only one: king e1-c1 and rook a1-d1 (e6-c6, a6-d6 for
    /// Black), called only when not in check. b, c and d must be empty; d and c must
    /// not be attacked (b may be).
    fn generate_castle(&self, moves: &mut MoveList) {
        let us = self.turn;
        if !self.castling[us] {
            return;
        }
        let board = &self.board;
        let king = Square::E1.relative(us);
        let rook = Square::A1.relative(us);
        let king_to = Square::C1.relative(us);
        let rook_to = Square::D1.relative(us);
        let path = SquareSet::from_square(Square::B1.relative(us)) | king_to | rook_to;
        let at_home = board.by_piece(Role::King.of(us)).contains(king)
            && board.by_piece(Role::Rook.of(us)).contains(rook);
        if at_home
            && (board.occupied() & path).is_empty()
            && !board.is_attacked(rook_to, us.other())
            && !board.is_attacked(king_to, us.other())
        {
            moves.push(Move {
                from: king,
                to: king_to,
                role: Role::King,
                capture: None,
                promotion: None,
                kind: MoveKind::Castle,
            });
        }
    }

    fn generate_en_passant(&self, moves: &mut MoveList) {
        let Some(ep_square) = self.ep_square else {
            return;
        };
        let us = self.turn;
        for from in pawn_attacks(us.other(), ep_square) & self.board.by_piece(Role::Pawn.of(us)) {
            if en_passant_is_legal(&self.board, us, from, ep_square) {
                moves.push(Move {
                    from,
                    to: ep_square,
                    role: Role::Pawn,
                    capture: Some(Role::Pawn),
                    promotion: None,
                    kind: MoveKind::EnPassant,
                });
            }
        }
    }

    /// `true` if a pawn of the side to move can legally capture en passant on
    /// `ep_square` (the square an enemy pawn just crossed).
    pub(crate) fn can_capture_en_passant(&self, ep_square: Square) -> bool {
        let us = self.turn;
        (pawn_attacks(us.other(), ep_square) & self.board.by_piece(Role::Pawn.of(us)))
            .into_iter()
            .any(|from| en_passant_is_legal(&self.board, us, from, ep_square))
    }
}

fn push_pawn_move(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    let m = Move {
        from,
        to,
        role: Role::Pawn,
        capture,
        promotion: None,
        kind: MoveKind::Normal,
    };
    if SquareSet::BACKRANKS.contains(to) {
        for promotion in Role::PROMOTIONS {
            moves.push(Move {
                promotion: Some(promotion),
                ..m
            });
        }
    } else {
        moves.push(m);
    }
}

/// `true` if `us`'s pawn on `from` capturing en passant on `ep_square` leaves its
/// king safe. The attacks on the king are recomputed with both pawns gone from their
/// squares and the capturer on `ep_square`: that covers pins, the rank emptied by
/// both pawns at once, and capturing a checking pawn.
fn en_passant_is_legal(board: &Board, us: Color, from: Square, ep_square: Square) -> bool {
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let captured = Square::from_coords(ep_square.file(), from.rank());
    let occupied = board
        .occupied()
        .without(from)
        .without(captured)
        .with(ep_square);
    board
        .attackers_to(king, us.other(), occupied)
        .without(captured)
        .is_empty()
}
