//! [`SquareSet`]: a set of squares as a 30-bit bitboard.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::color::Color;
use crate::square::{File, Rank, Square};

/// A set of squares: bit `i` stands for the square with index `i` (a1 = bit 0,
/// e6 = bit 29). Bits 30 and 31 are always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SquareSet(u32);

const FILE_A_BITS: u32 = 0b00001_00001_00001_00001_00001_00001;
const RANK_1_BITS: u32 = 0b11111;

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 30 squares.
    pub const FULL: SquareSet = SquareSet((1 << Square::COUNT) - 1);
    /// Squares of file a.
    pub const FILE_A: SquareSet = SquareSet(FILE_A_BITS);
    /// Squares of file e.
    pub const FILE_E: SquareSet = SquareSet(FILE_A_BITS << 4);
    /// Squares of rank 1.
    pub const RANK_1: SquareSet = SquareSet(RANK_1_BITS);
    /// Squares of rank 6.
    pub const RANK_6: SquareSet = SquareSet(RANK_1_BITS << 25);
    /// Ranks 1 and 6, where pawns can never stand.
    pub const BACKRANKS: SquareSet = SquareSet::RANK_1.union(SquareSet::RANK_6);

    /// The set with these bits; bits above 29 are dropped.
    pub const fn from_bits(bits: u32) -> SquareSet {
        SquareSet(bits & SquareSet::FULL.0)
    }

    /// The raw bits (bit `i` = square index `i`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set holding only `square`.
    pub const fn from_square(square: Square) -> SquareSet {
        SquareSet(1 << square as u32)
    }

    /// All squares of `file`.
    pub const fn from_file(file: File) -> SquareSet {
        SquareSet(FILE_A_BITS << file as u32)
    }

    /// All squares of `rank`.
    pub const fn from_rank(rank: Rank) -> SquareSet {
        SquareSet(RANK_1_BITS << (rank as u32 * File::COUNT as u32))
    }

    /// `true` if the set has no square.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if the set has at least one square.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// `true` if `square` is in the set.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square as u32) != 0
    }

    /// The set plus `square`.
    pub const fn with(self, square: Square) -> SquareSet {
        SquareSet(self.0 | 1 << square as u32)
    }

    /// The set minus `square`.
    pub const fn without(self, square: Square) -> SquareSet {
        SquareSet(self.0 & !(1 << square as u32))
    }

    /// The set with `square` added if absent, removed if present.
    pub const fn toggled(self, square: Square) -> SquareSet {
        SquareSet(self.0 ^ 1 << square as u32)
    }

    /// Squares in either set.
    pub const fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }

    /// Squares in both sets.
    pub const fn intersect(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & other.0)
    }

    /// Squares in `self` but not in `other`.
    pub const fn diff(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & !other.0)
    }

    /// Squares in exactly one of the sets.
    pub const fn xor(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 ^ other.0)
    }

    /// Squares of the board not in the set.
    pub const fn complement(self) -> SquareSet {
        SquareSet(!self.0 & SquareSet::FULL.0)
    }

    /// `true` if every square of `self` is in `other`.
    pub const fn is_subset(self, other: SquareSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// `true` if the set has two squares or more.
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square with the lowest index, if any.
    pub const fn first(self) -> Option<Square> {
        Square::new(self.0.trailing_zeros())
    }

    /// The square with the highest index, if any.
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(31 - self.0.leading_zeros())
        }
    }

    /// The only square of a one-square set; `None` if the set is empty or larger.
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Every square moved one rank up (towards rank 6); squares on rank 6 drop out.
    pub const fn shift_north(self) -> SquareSet {
        SquareSet((self.0 << File::COUNT) & SquareSet::FULL.0)
    }

    /// Every square moved one rank down; squares on rank 1 drop out.
    pub const fn shift_south(self) -> SquareSet {
        SquareSet(self.0 >> File::COUNT)
    }

    /// Every square moved one file right (towards e); squares on file e drop out
    /// instead of wrapping to file a of the next rank.
    pub const fn shift_east(self) -> SquareSet {
        SquareSet((self.0 & !SquareSet::FILE_E.0) << 1)
    }

    /// Every square moved one file left (towards a); squares on file a drop out
    /// instead of wrapping to file e of the rank below.
    pub const fn shift_west(self) -> SquareSet {
        SquareSet((self.0 & !SquareSet::FILE_A.0) >> 1)
    }

    /// Every square moved one rank forward from `color`'s point of view.
    pub const fn shift_forward(self, color: Color) -> SquareSet {
        match color {
            Color::White => self.shift_north(),
            Color::Black => self.shift_south(),
        }
    }

    /// An iterator over the squares, lowest index first.
    pub const fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

impl From<Square> for SquareSet {
    fn from(square: Square) -> SquareSet {
        SquareSet::from_square(square)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> SquareSet {
        squares
            .into_iter()
            .fold(SquareSet::EMPTY, |set, square| set.with(square))
    }
}

/// Iterator over the squares of a [`SquareSet`], lowest index first.
#[derive(Debug, Clone)]
pub struct SquareSetIter(u32);

impl Iterator for SquareSetIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        let square = Square::new(self.0.trailing_zeros())?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for SquareSetIter {}

impl DoubleEndedIterator for SquareSetIter {
    fn next_back(&mut self) -> Option<Square> {
        let square = SquareSet(self.0).last()?;
        self.0 &= !(1 << square as u32);
        Some(square)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;

    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, other: SquareSet) -> SquareSet {
        self.union(other)
    }
}

impl BitOr<Square> for SquareSet {
    type Output = SquareSet;
    fn bitor(self, square: Square) -> SquareSet {
        self.with(square)
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, other: SquareSet) -> SquareSet {
        self.intersect(other)
    }
}

impl BitXor for SquareSet {
    type Output = SquareSet;
    fn bitxor(self, other: SquareSet) -> SquareSet {
        self.xor(other)
    }
}

impl BitXor<Square> for SquareSet {
    type Output = SquareSet;
    fn bitxor(self, square: Square) -> SquareSet {
        self.toggled(square)
    }
}

impl Sub for SquareSet {
    type Output = SquareSet;
    fn sub(self, other: SquareSet) -> SquareSet {
        self.diff(other)
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    fn not(self) -> SquareSet {
        self.complement()
    }
}

impl BitOrAssign for SquareSet {
    fn bitor_assign(&mut self, other: SquareSet) {
        *self = self.union(other);
    }
}

impl BitOrAssign<Square> for SquareSet {
    fn bitor_assign(&mut self, square: Square) {
        *self = self.with(square);
    }
}

impl BitAndAssign for SquareSet {
    fn bitand_assign(&mut self, other: SquareSet) {
        *self = self.intersect(other);
    }
}

impl BitXorAssign for SquareSet {
    fn bitxor_assign(&mut self, other: SquareSet) {
        *self = self.xor(other);
    }
}

impl BitXorAssign<Square> for SquareSet {
    fn bitxor_assign(&mut self, square: Square) {
        *self = self.toggled(square);
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|square| format!("{square}")))
            .finish()
    }
}

/// A 6x5 grid, rank 6 on top: `1` for squares in the set, `.` for the others.
impl fmt::Display for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let mark = if self.contains(Square::from_coords(file, *rank)) {
                    '1'
                } else {
                    '.'
                };
                write!(f, "{mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let set = SquareSet::EMPTY.with(Square::A1).with(Square::E6);
        assert_eq!(set.count(), 2);
        assert!(set.contains(Square::E6));
        assert!(!set.contains(Square::C3));
        assert_eq!(set.first(), Some(Square::A1));
        assert_eq!(set.last(), Some(Square::E6));
        assert_eq!(set.single(), None);
        assert_eq!(set.without(Square::A1).single(), Some(Square::E6));
        assert_eq!(SquareSet::EMPTY.first(), None);
        assert_eq!(SquareSet::EMPTY.last(), None);
        assert_eq!(SquareSet::FULL.count(), 30);
        assert_eq!(SquareSet::EMPTY.complement(), SquareSet::FULL);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![Square::A1, Square::E6]);
        assert_eq!(
            set.iter().rev().collect::<Vec<_>>(),
            vec![Square::E6, Square::A1]
        );
        assert_eq!(
            [Square::B2, Square::C2].into_iter().collect::<SquareSet>(),
            SquareSet::from_square(Square::B2) | Square::C2
        );
        assert_eq!(
            SquareSet::from_rank(Rank::Second) & SquareSet::from_file(File::C),
            SquareSet::from_square(Square::C2)
        );
    }

    #[test]
    fn shifts_never_wrap_across_files_or_off_the_board() {
        let e_file = SquareSet::FILE_E;
        assert_eq!(e_file.shift_east(), SquareSet::EMPTY);
        assert_eq!(SquareSet::FILE_A.shift_west(), SquareSet::EMPTY);
        assert_eq!(SquareSet::RANK_6.shift_north(), SquareSet::EMPTY);
        assert_eq!(SquareSet::RANK_1.shift_south(), SquareSet::EMPTY);
        assert_eq!(
            SquareSet::from_square(Square::E3).shift_west(),
            SquareSet::from_square(Square::D3)
        );
        assert_eq!(
            SquareSet::from_square(Square::A4).shift_east(),
            SquareSet::from_square(Square::B4)
        );
        assert_eq!(
            SquareSet::from_square(Square::C5).shift_forward(Color::Black),
            SquareSet::from_square(Square::C4)
        );
        assert_eq!(SquareSet::FULL.shift_north().count(), 25);
        assert_eq!(SquareSet::FULL.shift_east().count(), 24);
    }

    #[test]
    fn display_draws_rank_six_on_top() {
        let set = SquareSet::from_square(Square::A6) | Square::E1;
        assert_eq!(
            set.to_string(),
            "1....\n.....\n.....\n.....\n.....\n....1\n"
        );
    }
}
