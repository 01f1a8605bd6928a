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
//!
//! The numbers are fitted to Fairy-Stockfish's judgement (docs/search.md, "The
//! evaluation"): 20,195 positions of the engine's own games (self-play at MEDIUM and
//! EASY with one move in ten at random, from the openings of the matches), each scored
//! by Fairy-Stockfish at depth 8; the 13,551 of them whose best move is quiet, scored
//! within 15 pawns, taught the weights by gradient descent on the logistic loss between
//! `sigmoid(k * ours)` and `sigmoid(k * theirs)`. `k` = 0.004 (a score of 400 is 5:1
//! odds) is where the hand-made weights fitted a first sample best without rescaling;
//! the fit pulled each weight towards its hand-made value (weight 1e-7 a centipawn
//! squared), made each table symmetric across the c-file (a and e, b and d share an
//! entry: fewer numbers, less noise) and kept [`TEMPO`] at 8 (fitted, it rose to 42,
//! which played worse). Entries of squares a piece rarely stands on (the king's ranks 5
//! and 6) stay near the hand-made ones.
//!
//! Two additions follow the kings in endgames, both kept by the search beside the sum:
//! [`MopUp`] drives a bare king to a corner, and [`ENDGAME_KING`] replaces the king's
//! table when few pieces are left (docs/search.md, "Mating a bare king" and "The king in
//! the endgame").

use crate::color::Color;
use crate::position::Position;
use crate::role::{ByRole, Piece, Role};
use crate::square::Square;

/// What each role is worth, in centipawns. The king is never taken: 0.
pub const MATERIAL: ByRole<i16> = ByRole {
    pawn: 101,
    knight: 323,
    bishop: 283,
    rook: 461,
    queen: 882,
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
    // Pawns gain as they advance, the b- and d-pawns most (the fit found a pawn on c3
    // worth less than one on c2); ranks 1 and 6 are never reached (a pawn on rank 6
    // has promoted): 0.
    pawn: [
        0, 0, 0, 0, 0, //
        -2, 10, 4, 10, -2, //
        -11, 43, -2, 43, -11, //
        17, 34, 49, 34, 17, //
        52, 63, 38, 63, 52, //
        0, 0, 0, 0, 0, //
    ],
    // Knights want the middle: on so small a board a corner knight has two squares.
    knight: [
        -40, -26, -20, -26, -40, //
        -30, -4, 11, -4, -30, //
        2, 21, 22, 21, 2, //
        -7, 17, 24, 17, -7, //
        -20, 1, 16, 1, -20, //
        -40, -22, -21, -22, -40, //
    ],
    bishop: [
        -25, -8, -23, -8, -25, //
        -6, -3, 4, -3, -6, //
        2, 8, 18, 8, 2, //
        -4, 8, 13, 8, -4, //
        -16, 7, 12, 7, -16, //
        -11, -12, -8, -12, -11, //
    ],
    // Rooks like the rank of the enemy pawns (rank 5) and the open middle files.
    rook: [
        -11, -3, 5, -3, -11, //
        -9, -3, 0, -3, -9, //
        -11, -7, -5, -7, -11, //
        0, 5, 1, 5, 0, //
        11, 16, 25, 16, 11, //
        6, 11, 3, 11, 6, //
    ],
    queen: [
        -15, -22, -10, -22, -15, //
        0, -12, -2, -12, 0, //
        2, 13, 13, 13, 2, //
        -6, 18, 8, 18, -6, //
        -2, 9, 5, 9, -2, //
        -9, -2, 1, -2, -9, //
    ],
    // The king stays home behind its pawns, the long castle's square c1 best; the ranks
    // ahead cost it little, so that it comes forward in the endgame.
    king: [
        -4, -17, 15, -17, -4, //
        -16, 5, 2, 5, -16, //
        -5, 6, -5, 6, -5, //
        -15, -3, -9, -3, -15, //
        -18, -10, -12, -10, -18, //
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
    evaluate_plus(position, 0)
}

/// [`evaluate`] with `white_extra` added to White's score first: the search adds the
/// mop-up's bonus ([`MopUp::white_bonus`]) so.
pub fn evaluate_plus(position: &Position, white_extra: i16) -> i16 {
    let score = white_score(position) + white_extra;
    let ours = match position.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    ours + TEMPO
}

/// The mop-up's bonus for each step the bare king stands nearer a corner it can be
/// mated in ([`MopUp`]).
pub const MOP_UP_CORNER_STEP: i16 = 10;
/// The mop-up's bonus for each step the two kings stand nearer each other.
pub const MOP_UP_KING_STEP: i16 = 5;
/// The most steps from a square to the nearest of the corners a [`MopUp`] drives to
/// (two corners of one colour: from the far side of the board, 2 files and 5 ranks).
pub const MOP_UP_CORNER_STEPS: i16 = 7;
/// The most steps between two squares (4 files and 5 ranks).
pub const MOP_UP_KING_STEPS: i16 = 9;

/// The corners a [`MopUp`] drives the bare king to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corners {
    /// a1, e1, a6 and e6: a queen or a rook mates in any corner (or on any edge).
    All,
    /// a1 and e1, the dark corners: a bishop on dark squares and a knight mate there.
    Dark,
    /// a6 and e6, the light corners.
    Light,
}

impl Corners {
    /// The steps (files plus ranks) from `square` to the nearest of these corners.
    pub const fn steps(self, square: Square) -> i16 {
        let file = square.file().index() as i16;
        let rank = square.rank().index() as i16;
        let files = if file < 2 { file } else { 4 - file };
        let ranks = match self {
            Corners::All => {
                if rank < 3 {
                    rank
                } else {
                    5 - rank
                }
            }
            Corners::Dark => rank,
            Corners::Light => 5 - rank,
        };
        files + ranks
    }
}

/// Mating a bare king (docs/search.md, "Mating a bare king"). When a search's root has at
/// most `search::CHECK_EXTENSION_PIECES` pieces, one side only its king and the other a
/// queen, a rook or two minor pieces, every position of the search adds to the stronger
/// side's score [`MOP_UP_CORNER_STEP`] for each step the bare king stands nearer its
/// mating corners than the farthest square and [`MOP_UP_KING_STEP`] for each step the
/// kings stand nearer than the farthest apart. Material alone cannot tell a mate in
/// twenty moves from a shuffle: without this, HARD let K+R against K and K+Q against K
/// run into the fifty-move rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MopUp {
    /// The side with the pieces.
    pub winner: Color,
    /// The corners the bare king is driven to: a bishop's colour's two when the winner
    /// has no queen nor rook and its bishops all stand on one colour, else all four.
    pub corners: Corners,
}

impl MopUp {
    /// The mop-up of a search from `position`, if it has one.
    pub fn of(position: &Position, endgame: bool) -> Option<MopUp> {
        if !endgame {
            return None;
        }
        let board = position.board();
        let winner = Color::ALL
            .into_iter()
            .find(|&color| board.by_color(color.other()).count() == 1)?;
        let count = |role: Role| board.by_piece(role.of(winner)).count();
        let majors = count(Role::Queen) + count(Role::Rook);
        let bishops = board.by_piece(Role::Bishop.of(winner));
        if majors == 0 && bishops.count() + count(Role::Knight) < 2 {
            return None;
        }
        let dark = bishops
            .into_iter()
            .filter(|square| (square.file().index() + square.rank().index()) % 2 == 0)
            .count() as u32;
        let corners = if majors > 0 || bishops.count() == 0 {
            Corners::All
        } else if dark == bishops.count() {
            Corners::Dark
        } else if dark == 0 {
            Corners::Light
        } else {
            Corners::All
        };
        Some(MopUp { winner, corners })
    }

    /// What the mop-up adds to White's score in `position` (its kings' squares).
    pub fn white_bonus(self, position: &Position) -> i16 {
        let board = position.board();
        let (Some(winner), Some(loser)) = (
            board.king_of(self.winner),
            board.king_of(self.winner.other()),
        ) else {
            return 0;
        };
        let kings = winner.file().index().abs_diff(loser.file().index())
            + winner.rank().index().abs_diff(loser.rank().index());
        let bonus = MOP_UP_CORNER_STEP * (MOP_UP_CORNER_STEPS - self.corners.steps(loser))
            + MOP_UP_KING_STEP * (MOP_UP_KING_STEPS - kings as i16);
        match self.winner {
            Color::White => bonus,
            Color::Black => -bonus,
        }
    }
}

/// What each role counts towards a position's [`phase`]: a knight, a bishop or a rook 1,
/// a queen 2, pawns and kings nothing. The start position counts 10.
pub const PHASE: ByRole<i16> = ByRole {
    pawn: 0,
    knight: 1,
    bishop: 1,
    rook: 1,
    queen: 2,
    king: 0,
};

/// A search whose root's [`phase`] is at most this is a king's endgame: its kings read
/// [`ENDGAME_KING`] (at [`ENDGAME_KING_DEPTH`]; each side a rook and a minor piece, say,
/// or a queen and a minor piece in all).
pub const ENDGAME_PHASE: i16 = 4;

/// A search asked for at least this depth (HARD's and CLOCK's) is the one whose kings
/// read [`ENDGAME_KING`] in a king's endgame. Such a search takes about 3 to 4% more nodes in
/// those endgames, which HARD's think time can pay for and MEDIUM's median cannot.
pub const ENDGAME_KING_DEPTH: u8 = 4;

/// The king's table in a king's endgame ([`ENDGAME_PHASE`]), from White's side as
/// [`PIECE_SQUARE`] is: with few pieces left to attack it, the king goes to the middle,
/// 6 for each step (files and ranks, counted in half-squares from the board's centre)
/// nearer it. The middlegame's table keeps it home behind its pawns.
pub const ENDGAME_KING: [i8; Square::COUNT] = [
    -24, -12, 0, -12, -24, //
    -12, 0, 12, 0, -12, //
    0, 12, 24, 12, 0, //
    0, 12, 24, 12, 0, //
    -12, 0, 12, 0, -12, //
    -24, -12, 0, -12, -24, //
];

/// The most a king's [`endgame_king_change`] may be either way: the assembly adds the
/// difference of two as a signed byte.
pub const ENDGAME_KING_CHANGE_MAX: i16 = 63;

/// What a position's pieces count by [`PHASE`].
pub fn phase(position: &Position) -> i16 {
    position
        .board()
        .pieces()
        .map(|(_, piece)| *PHASE.get(piece.role))
        .sum()
}

/// `true` when a search from `position` is a king's endgame ([`ENDGAME_PHASE`]).
pub fn is_king_endgame(position: &Position) -> bool {
    phase(position) <= ENDGAME_PHASE
}

/// What a king of `color` on `square` adds to its side's score in a king's endgame:
/// [`ENDGAME_KING`]'s entry less [`PIECE_SQUARE`]'s (the mirrored square's for Black),
/// so that the position's score reads the endgame's table for the kings.
pub const fn endgame_king_change(color: Color, square: Square) -> i16 {
    endgame_king_change_from(&PIECE_SQUARE.king, color, square)
}

/// [`endgame_king_change`] from the middlegame's king table `king` (the generator's
/// weights, which are [`PIECE_SQUARE`]'s for the cartridge).
pub const fn endgame_king_change_from(
    king: &[i8; Square::COUNT],
    color: Color,
    square: Square,
) -> i16 {
    let seen_from = square.relative(color).index();
    ENDGAME_KING[seen_from] as i16 - king[seen_from] as i16
}

/// What a king's endgame adds to White's score in `position`: White's king's
/// [`endgame_king_change`] less Black's.
pub fn endgame_king_bonus(position: &Position) -> i16 {
    Color::ALL
        .into_iter()
        .filter_map(|color| {
            let square = position.board().king_of(color)?;
            let change = endgame_king_change(color, square);
            Some(match color {
                Color::White => change,
                Color::Black => -change,
            })
        })
        .sum()
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
        assert_eq!(piece_value(white_pawn, Square::C4), 150);
        assert_eq!(piece_value(black_pawn, Square::C3), 150);
    }

    /// The mop-up of a root of at most six pieces (`endgame`), if it has one.
    fn mop_up(fen: &str) -> Option<MopUp> {
        let position = Position::from_fen(fen).unwrap();
        MopUp::of(&position, position.board().occupied().count() <= 6)
    }

    #[test]
    fn a_bare_king_against_a_rook_queen_or_two_minors_is_mopped_up() {
        let all = |winner| {
            Some(MopUp {
                winner,
                corners: Corners::All,
            })
        };
        assert_eq!(mop_up("R4/5/1k3/3K1/5/5 w - - 0 1"), all(Color::White));
        assert_eq!(mop_up("5/1k3/5/1q3/5/3K1 w - - 0 1"), all(Color::Black));
        // A bishop on d5 (light) and a knight: the light corners a6 and e6.
        assert_eq!(
            mop_up("5/5/2k2/3B1/5/1NK2 b - - 0 1"),
            Some(MopUp {
                winner: Color::White,
                corners: Corners::Light
            })
        );
        // A bishop on c4 (light) and a knight: a6 and e6; one on c3 (dark): a1 and e1.
        assert_eq!(
            mop_up("5/5/2b2/2kn1/5/1K3 w - - 0 1"),
            Some(MopUp {
                winner: Color::Black,
                corners: Corners::Light
            })
        );
        assert_eq!(
            mop_up("5/5/5/2b2/2kn1/K4 w - - 0 1"),
            Some(MopUp {
                winner: Color::Black,
                corners: Corners::Dark
            })
        );
        // Two knights: any corner.
        assert_eq!(mop_up("5/5/2k2/5/5/NNK2 w - - 0 1"), all(Color::White));
        // A lone minor piece cannot mate; a pawn has no mop-up; both sides have pieces.
        assert_eq!(mop_up("5/5/2k2/3B1/5/2K2 b - - 0 1"), None);
        assert_eq!(mop_up("5/5/2k2/3P1/5/2K2 b - - 0 1"), None);
        assert_eq!(mop_up("R4/5/1k3/3K1/1p3/5 w - - 0 1"), None);
        // More than six pieces: no endgame, no mop-up.
        assert_eq!(mop_up("R3Q/5/1k3/3K1/1PPPP/5 w - - 0 1"), None);
    }

    #[test]
    fn the_mop_up_bonus_counts_corner_and_king_steps() {
        let position = Position::from_fen("R4/5/1k3/3K1/5/5 w - - 0 1").unwrap();
        let mop_up = MopUp::of(&position, true).unwrap();
        // The bare king on b4: 1 file and 2 ranks from a6 (3 steps, 4 nearer than 7:
        // 40); the kings 2 files and 1 rank apart (3 steps, 6 nearer than 9: 30).
        assert_eq!(Corners::All.steps(Square::B4), 3);
        assert_eq!(mop_up.white_bonus(&position), 40 + 30);
        // Black's mop-up of the same kings, to the dark corners: the bare king is
        // White's, on d3, 1 file and 2 ranks from e1 (40); the kings still 3 steps
        // apart (30); negated, Black's bonus.
        let black = MopUp {
            winner: Color::Black,
            corners: Corners::Dark,
        };
        assert_eq!(black.white_bonus(&position), -(40 + 30));
        assert_eq!(Corners::Dark.steps(Square::B4), 4);
        assert_eq!(Corners::Light.steps(Square::C1), 7);
        assert_eq!(Corners::All.steps(Square::C3), 4);
        assert_eq!(
            evaluate_plus(&position, 70),
            white_score(&position) + 70 + TEMPO
        );
    }

    #[test]
    fn a_king_endgame_has_a_phase_of_at_most_four() {
        let phase_of = |fen: &str| phase(&Position::from_fen(fen).unwrap());
        assert_eq!(phase(&Position::start()), 10);
        // A rook and a bishop against a rook and a knight: 4, an endgame.
        assert_eq!(phase_of("r1n1k/pp3/5/5/3PP/R1B1K w - - 0 1"), 4);
        assert!(is_king_endgame(
            &Position::from_fen("r1n1k/pp3/5/5/3PP/R1B1K w - - 0 1").unwrap()
        ));
        // A queen and a rook against a rook: 4; a queen and a rook against a queen: 5.
        assert_eq!(phase_of("r3k/5/5/5/5/RQ2K w - - 0 1"), 4);
        assert_eq!(phase_of("q3k/5/5/5/5/RQ2K w - - 0 1"), 5);
        assert!(!is_king_endgame(
            &Position::from_fen("q3k/5/5/5/5/RQ2K w - - 0 1").unwrap()
        ));
    }

    #[test]
    fn the_endgame_king_goes_to_the_middle() {
        // White's king on c1: the middlegame's best square (15), the endgame's 0.
        assert_eq!(endgame_king_change(Color::White, Square::C1), -15);
        // c4: 24 in the endgame, -9 in the middlegame.
        assert_eq!(endgame_king_change(Color::White, Square::C4), 33);
        // Black's king on c3 reads c4's entries.
        assert_eq!(endgame_king_change(Color::Black, Square::C3), 33);
        // White's king on c4 (+33), Black's on e6 (e1's entries: -24 less -4, -20).
        let position = Position::from_fen("4k/5/2K2/5/5/5 w - - 0 1").unwrap();
        assert_eq!(endgame_king_bonus(&position), 33 + 20);
        for color in Color::ALL {
            for square in Square::ALL {
                assert!(endgame_king_change(color, square).abs() <= ENDGAME_KING_CHANGE_MAX);
            }
        }
    }

    #[test]
    fn a_pawn_up_is_worth_about_a_pawn() {
        // White has an extra pawn on b3 (worth 144); Black is to move.
        let position = Position::from_fen("rnbqk/p1ppp/5/1P3/P1PPP/RNBQK b Qq - 0 1").unwrap();
        assert_eq!(white_score(&position), 144);
        assert_eq!(evaluate(&position), -144 + TEMPO);
    }
}
