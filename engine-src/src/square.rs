//! Files, ranks and squares of the 5x6 board.
//!
//! A square's index is `rank * 5 + file`: a1 = 0, e1 = 4, a2 = 5, ..., e6 = 29.

use core::fmt;
use core::str::FromStr;

use crate::color::Color;

/// A column, `a` to `e`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
}

impl File {
    /// Number of files.
    pub const COUNT: usize = 5;
    /// Every file, `a` first.
    pub const ALL: [File; 5] = [File::A, File::B, File::C, File::D, File::E];

    /// The file with index 0 (`a`) to 4 (`e`).
    pub const fn new(index: u32) -> Option<File> {
        if index < File::COUNT as u32 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 (`a`) to 4 (`e`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'a'` to `'e'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Reads `'a'` to `'e'`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='e' => File::new(c as u32 - 'a' as u32),
            _ => None,
        }
    }

    /// The file `delta` columns to the right (negative: to the left), if on the board.
    pub const fn offset(self, delta: i32) -> Option<File> {
        let index = self as i32 + delta;
        if index < 0 {
            None
        } else {
            File::new(index as u32)
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A row, `1` to `6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 6;
    /// Every rank, `1` first.
    pub const ALL: [Rank; 6] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
    ];

    /// The rank with index 0 (`1`) to 5 (`6`).
    pub const fn new(index: u32) -> Option<Rank> {
        if index < Rank::COUNT as u32 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 (rank `1`) to 5 (rank `6`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'1'` to `'6'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Reads `'1'` to `'6'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='6' => Rank::new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The rank `delta` rows up (negative: down), if on the board.
    pub const fn offset(self, delta: i32) -> Option<Rank> {
        let index = self as i32 + delta;
        if index < 0 {
            None
        } else {
            Rank::new(index as u32)
        }
    }

    /// This rank seen from `color`'s side: unchanged for White, mirrored for Black
    /// (so `Rank::Second.relative(Color::Black)` is rank 5, Black's pawn rank).
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[Rank::COUNT - 1 - self as usize],
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the 30 squares.
#[rustfmt::skip]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Square {
    A1, B1, C1, D1, E1,
    A2, B2, C2, D2, E2,
    A3, B3, C3, D3, E3,
    A4, B4, C4, D4, E4,
    A5, B5, C5, D5, E5,
    A6, B6, C6, D6, E6,
}

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 30;

    /// Every square in index order: a1, b1, ..., e1, a2, ..., e6.
    #[rustfmt::skip]
    pub const ALL: [Square; 30] = {
        use Square::*;
        [
            A1, B1, C1, D1, E1,
            A2, B2, C2, D2, E2,
            A3, B3, C3, D3, E3,
            A4, B4, C4, D4, E4,
            A5, B5, C5, D5, E5,
            A6, B6, C6, D6, E6,
        ]
    };

    /// The square with index 0 (a1) to 29 (e6).
    pub const fn new(index: u32) -> Option<Square> {
        if index < Square::COUNT as u32 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * File::COUNT + file as usize]
    }

    /// 0 (a1) to 29 (e6).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    pub const fn file(self) -> File {
        File::ALL[self as usize % File::COUNT]
    }

    /// The square's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize / File::COUNT]
    }

    /// The square `files` to the right and `ranks` up, if it is on the board
    /// (never wraps from one edge of the board to the other).
    pub const fn offset(self, files: i32, ranks: i32) -> Option<Square> {
        match (self.file().offset(files), self.rank().offset(ranks)) {
            (Some(file), Some(rank)) => Some(Square::from_coords(file, rank)),
            _ => None,
        }
    }

    /// This square seen from `color`'s side: unchanged for White, rank mirrored for Black
    /// (`Square::E1.relative(Color::Black)` is e6, Black's king square).
    pub const fn relative(self, color: Color) -> Square {
        Square::from_coords(self.file(), self.rank().relative(color))
    }

    /// Reads a square name such as `b3` (file `a`-`e`, rank `1`-`6`), exactly two characters.
    pub fn from_ascii(text: &[u8]) -> Option<Square> {
        match *text {
            [file, rank] => Some(Square::from_coords(
                File::from_char(char::from(file))?,
                Rank::from_char(char::from(rank))?,
            )),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A string that is not a square name of the 5x6 board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a square: expected a file a-e and a rank 1-6, like b3",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(text.as_bytes()).ok_or_else(|| ParseSquareError(text.to_owned()))
    }
}
