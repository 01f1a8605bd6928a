//! Attack tables, all computed at compile time by `const fn`.
//!
//! King, knight and pawn attacks are plain lookups. Sliding pieces use ray tables:
//! for each of the eight directions, the squares from a square to the edge. The
//! attack along a ray stops at the first blocker, found with one bit scan (the
//! lowest bit for rays that go to higher indices, the highest bit for the others).

use crate::color::Color;
use crate::role::{Piece, Role};
use crate::square::Square;
use crate::square_set::SquareSet;

const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (2, -1),
    (2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
];

/// The squares one `(files, ranks)` step from `square`, for each step that stays on
/// the board.
const fn step_attacks(square: Square, steps: &[(i32, i32)]) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let mut i = 0;
    while i < steps.len() {
        if let Some(target) = square.offset(steps[i].0, steps[i].1) {
            set = set.with(target);
        }
        i += 1;
    }
    set
}

const fn step_table(steps: &[(i32, i32)]) -> [SquareSet; Square::COUNT] {
    let mut table = [SquareSet::EMPTY; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        table[i] = step_attacks(Square::ALL[i], steps);
        i += 1;
    }
    table
}

static KING_ATTACKS: [SquareSet; Square::COUNT] = step_table(&KING_STEPS);
static KNIGHT_ATTACKS: [SquareSet; Square::COUNT] = step_table(&KNIGHT_STEPS);
/// Indexed by `Color::index()`: White pawns capture upwards, Black pawns downwards.
static PAWN_ATTACKS: [[SquareSet; Square::COUNT]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// The eight directions as `(files, ranks)` steps. The first four go to higher
/// square indices (north, east, north-east, north-west), the last four to lower ones.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];
const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

/// The squares from `square` (excluded) to the edge in direction `(files, ranks)`.
const fn ray_to_edge(square: Square, files: i32, ranks: i32) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let mut current = square;
    while let Some(next) = current.offset(files, ranks) {
        set = set.with(next);
        current = next;
    }
    set
}

const fn ray_table() -> [[SquareSet; Square::COUNT]; 8] {
    let mut table = [[SquareSet::EMPTY; Square::COUNT]; 8];
    let mut direction = 0;
    while direction < 8 {
        let (files, ranks) = DIRECTIONS[direction];
        let mut i = 0;
        while i < Square::COUNT {
            table[direction][i] = ray_to_edge(Square::ALL[i], files, ranks);
            i += 1;
        }
        direction += 1;
    }
    table
}

static RAYS: [[SquareSet; Square::COUNT]; 8] = ray_table();

/// Attacks along a ray that goes to higher indices: blocked at the lowest blocker.
#[inline(always)]
fn positive_ray_attacks(direction: usize, square: Square, occupied: SquareSet) -> SquareSet {
    let ray = RAYS[direction][square.index()];
    match (ray & occupied).first() {
        Some(blocker) => ray ^ RAYS[direction][blocker.index()],
        None => ray,
    }
}

/// Attacks along a ray that goes to lower indices: blocked at the highest blocker.
#[inline(always)]
fn negative_ray_attacks(direction: usize, square: Square, occupied: SquareSet) -> SquareSet {
    let ray = RAYS[direction][square.index()];
    match (ray & occupied).last() {
        Some(blocker) => ray ^ RAYS[direction][blocker.index()],
        None => ray,
    }
}

/// Squares a king on `square` attacks.
#[inline]
pub fn king_attacks(square: Square) -> SquareSet {
    KING_ATTACKS[square.index()]
}

/// Squares a knight on `square` attacks.
#[inline]
pub fn knight_attacks(square: Square) -> SquareSet {
    KNIGHT_ATTACKS[square.index()]
}

/// Squares a pawn of `color` on `square` attacks (captures towards the opponent).
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> SquareSet {
    PAWN_ATTACKS[color.index()][square.index()]
}

/// Squares a rook on `square` attacks when the squares in `occupied` are occupied
/// (a blocker is attacked; what lies behind it is not).
#[inline]
pub fn rook_attacks(square: Square, occupied: SquareSet) -> SquareSet {
    positive_ray_attacks(NORTH, square, occupied)
        | positive_ray_attacks(EAST, square, occupied)
        | negative_ray_attacks(SOUTH, square, occupied)
        | negative_ray_attacks(WEST, square, occupied)
}

/// Squares a bishop on `square` attacks given the occupied squares.
#[inline]
pub fn bishop_attacks(square: Square, occupied: SquareSet) -> SquareSet {
    positive_ray_attacks(NORTH_EAST, square, occupied)
        | positive_ray_attacks(NORTH_WEST, square, occupied)
        | negative_ray_attacks(SOUTH_WEST, square, occupied)
        | negative_ray_attacks(SOUTH_EAST, square, occupied)
}

/// Squares a queen on `square` attacks given the occupied squares.
#[inline]
pub fn queen_attacks(square: Square, occupied: SquareSet) -> SquareSet {
    rook_attacks(square, occupied) | bishop_attacks(square, occupied)
}

/// Squares `piece` on `square` attacks given the occupied squares.
pub fn attacks(square: Square, piece: Piece, occupied: SquareSet) -> SquareSet {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, square),
        Role::Knight => knight_attacks(square),
        Role::Bishop => bishop_attacks(square, occupied),
        Role::Rook => rook_attacks(square, occupied),
        Role::Queen => queen_attacks(square, occupied),
        Role::King => king_attacks(square),
    }
}

/// For two squares on one rank, file or diagonal: the squares strictly between them
/// and the whole line through both, edge to edge.
const fn line_tables() -> (
    [[SquareSet; Square::COUNT]; Square::COUNT],
    [[SquareSet; Square::COUNT]; Square::COUNT],
) {
    let mut between = [[SquareSet::EMPTY; Square::COUNT]; Square::COUNT];
    let mut line = [[SquareSet::EMPTY; Square::COUNT]; Square::COUNT];
    let mut a = 0;
    while a < Square::COUNT {
        let mut direction = 0;
        while direction < 8 {
            let (files, ranks) = DIRECTIONS[direction];
            let forward = ray_to_edge(Square::ALL[a], files, ranks);
            let full_line = forward
                .union(ray_to_edge(Square::ALL[a], -files, -ranks))
                .with(Square::ALL[a]);
            let mut squares_between = SquareSet::EMPTY;
            let mut current = Square::ALL[a];
            while let Some(b) = current.offset(files, ranks) {
                between[a][b as usize] = squares_between;
                line[a][b as usize] = full_line;
                squares_between = squares_between.with(b);
                current = b;
            }
            direction += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: (
    [[SquareSet; Square::COUNT]; Square::COUNT],
    [[SquareSet; Square::COUNT]; Square::COUNT],
) = line_tables();

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal;
/// otherwise the empty set.
#[inline]
pub fn between(a: Square, b: Square) -> SquareSet {
    LINES.0[a.index()][b.index()]
}

/// The whole line (edge to edge, both squares included) through `a` and `b` if they
/// share a rank, file or diagonal; otherwise (or if `a == b`) the empty set.
#[inline]
pub fn ray(a: Square, b: Square) -> SquareSet {
    LINES.1[a.index()][b.index()]
}

/// `true` if `a`, `b` and `c` lie on one rank, file or diagonal.
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    ray(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Square::*;

    fn set(squares: &[Square]) -> SquareSet {
        squares.iter().copied().collect()
    }

    #[test]
    fn leaper_attacks() {
        assert_eq!(king_attacks(A1), set(&[B1, A2, B2]));
        assert_eq!(king_attacks(E3), set(&[D2, E2, D3, D4, E4]));
        assert_eq!(knight_attacks(A1), set(&[C2, B3]));
        assert_eq!(knight_attacks(C3), set(&[A2, A4, B1, B5, D1, D5, E2, E4]));
        assert_eq!(knight_attacks(E6), set(&[C5, D4]));
        assert_eq!(pawn_attacks(Color::White, A2), set(&[B3]));
        assert_eq!(pawn_attacks(Color::White, C5), set(&[B6, D6]));
        assert_eq!(pawn_attacks(Color::Black, E5), set(&[D4]));
        assert_eq!(pawn_attacks(Color::Black, B1), SquareSet::EMPTY);
    }

    #[test]
    fn slider_attacks_stop_at_blockers() {
        assert_eq!(
            rook_attacks(A1, SquareSet::EMPTY),
            set(&[B1, C1, D1, E1, A2, A3, A4, A5, A6])
        );
        assert_eq!(
            rook_attacks(C3, set(&[C5, B3, C1, E6])),
            set(&[C4, C5, B3, D3, E3, C2, C1])
        );
        assert_eq!(
            bishop_attacks(C3, SquareSet::EMPTY),
            set(&[B2, A1, D4, E5, B4, A5, D2, E1])
        );
        assert_eq!(bishop_attacks(A1, set(&[C3])), set(&[B2, C3]));
        assert_eq!(
            queen_attacks(E6, set(&[D5, E4])),
            set(&[D6, C6, B6, A6, E5, E4, D5])
        );
    }

    #[test]
    fn slider_attacks_match_a_naive_walk_for_many_boards() {
        let mut seed = 0x1234_5678_u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occupied = SquareSet::from_bits(seed as u32 & (seed >> 32) as u32);
            for square in Square::ALL {
                let mut rook = SquareSet::EMPTY;
                let mut bishop = SquareSet::EMPTY;
                for (files, ranks) in DIRECTIONS {
                    let mut current = square;
                    while let Some(next) = current.offset(files, ranks) {
                        if files == 0 || ranks == 0 {
                            rook |= next;
                        } else {
                            bishop |= next;
                        }
                        if occupied.contains(next) {
                            break;
                        }
                        current = next;
                    }
                }
                assert_eq!(rook_attacks(square, occupied), rook, "rook {square}");
                assert_eq!(bishop_attacks(square, occupied), bishop, "bishop {square}");
            }
        }
    }

    #[test]
    fn between_and_ray() {
        assert_eq!(between(A1, E1), set(&[B1, C1, D1]));
        assert_eq!(between(E1, A1), set(&[B1, C1, D1]));
        assert_eq!(between(A1, E5), set(&[B2, C3, D4]));
        assert_eq!(between(A1, B2), SquareSet::EMPTY);
        assert_eq!(between(A1, B3), SquareSet::EMPTY);
        assert_eq!(between(A1, A1), SquareSet::EMPTY);
        assert_eq!(ray(B2, C3), set(&[A1, B2, C3, D4, E5]));
        assert_eq!(ray(C1, C2), SquareSet::from_file(crate::square::File::C));
        assert_eq!(ray(A1, B3), SquareSet::EMPTY);
        assert_eq!(ray(D4, D4), SquareSet::EMPTY);
        assert!(aligned(A6, C4, E2));
        assert!(!aligned(A6, C4, E3));
    }
}
