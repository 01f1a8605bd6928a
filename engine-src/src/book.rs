//! The opening book: the moves the cartridge plays without a search in the first
//! [`BOOK_PLIES`] plies, from Fairy-Stockfish's analysis (`cargo xtask book` writes
//! `engine-src/book/book.txt` from the lines of `engine-src/book/lines.txt`; `cargo xtask
//! assets` renders it into `generated/engine/book.inc` for asm/engine/book.asm).
//!
//! A position of the book is found by its cartridge key ([`Position::cartridge_key`],
//! the 32 bits the cartridge keeps) alone, and only at a ply below [`BOOK_PLIES`]: `cargo
//! xtask book` proves that no other position reachable in that many plies has the key of
//! a book position. A position's good moves are those Fairy-Stockfish scores within
//! [`BOOK_MARGIN`] centipawns of its best, [`BOOK_MAX_MOVES`] at most; which one is played
//! is [`choice`] of a seed the cartridge draws once a game, so games differ and every
//! choice can be replayed.
//!
//! ```
//! use engine_src::book::{book, lookup};
//! use engine_src::Position;
//!
//! let start = Position::start();
//! let first = lookup(&start, 0).unwrap();
//! assert!(book().entry(&start).unwrap().moves.contains(&first));
//! ```

use core::fmt;
use std::sync::OnceLock;

use crate::moves::Move;
use crate::position::Position;
use crate::Color;

/// A position is looked up in the book only when fewer plies than this have been
/// played since the start (its [`ply`]).
pub const BOOK_PLIES: u8 = 6;
/// A move Fairy-Stockfish scores at most this many centipawns below the best is a good
/// move of the book: 15 cp is less than a sixth of a pawn, which a depth-12 analysis of
/// an opening position does not tell apart from noise.
pub const BOOK_MARGIN: i32 = 15;
/// The most good moves a book position keeps, the best first.
pub const BOOK_MAX_MOVES: usize = 3;

/// The analysis the book is made of (`cargo xtask book` writes it).
pub const ANALYSIS: &str = include_str!("../book/book.txt");
/// What the book covers, the file `cargo xtask book` makes [`ANALYSIS`] from (whose
/// header names its hash: `cargo xtask assets` refuses an analysis of another).
pub const LINES: &str = include_str!("../book/lines.txt");

/// The plies played from the start to reach `position`: 0 for White's first move.
pub fn ply(position: &Position) -> u32 {
    let black = u32::from(position.turn() == Color::Black);
    2 * position.fullmove_number().saturating_sub(1) + black
}

/// Which of `count` good moves (at least 1) the book plays in the position with the
/// cartridge key `key` for the game's `seed`: the seed with the key's low byte mixed in
/// (so one seed does not pick the same rank everywhere), modulo the count.
pub const fn choice(key: u32, seed: u8, count: usize) -> usize {
    ((seed ^ key as u8) as usize) % count
}

/// The good moves of an analysis (moves and scores, the best first): those within
/// [`BOOK_MARGIN`] of the best, [`BOOK_MAX_MOVES`] at most.
pub fn good_moves(analysis: &[(Move, i32)]) -> Vec<Move> {
    let Some(&(_, best)) = analysis.first() else {
        return Vec::new();
    };
    analysis
        .iter()
        .take_while(|&&(_, score)| score >= best - BOOK_MARGIN)
        .take(BOOK_MAX_MOVES)
        .map(|&(m, _)| m)
        .collect()
}

/// One analysed position: its good moves, the best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookEntry {
    pub position: Position,
    /// Its [`Position::cartridge_key`].
    pub key: u32,
    /// Its good moves (1 to [`BOOK_MAX_MOVES`]), the best first.
    pub moves: Vec<Move>,
    /// Fairy-Stockfish's moves and scores as analysed (centipawns for the side to move),
    /// the best first.
    pub analysis: Vec<(Move, i32)>,
}

/// The book: its positions in the analysis file's order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Book {
    pub entries: Vec<BookEntry>,
    /// The analysis file's header lines (`lines`, `engine`, `settings`), by name.
    pub header: Vec<(String, String)>,
}

/// A line of the analysis file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

/// The separator between a position's FEN and its moves in the analysis file.
pub const ANALYSIS_SEPARATOR: &str = " | ";

impl Book {
    /// Reads an analysis file: `#` comments, header lines `NAME VALUE` (`lines`, `engine`,
    /// `settings`), and one line a position: `FEN | MOVE SCORE MOVE SCORE ...` (UCI
    /// moves, centipawns for the side to move, the best first).
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let error = |message: String| BookError {
                line: number,
                message,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((fen, moves)) = line.split_once(ANALYSIS_SEPARATOR) else {
                let (name, value) = line.split_once(' ').unwrap_or((line, ""));
                match name {
                    "lines" | "engine" | "settings" => {
                        book.header.push((name.to_owned(), value.trim().to_owned()));
                        continue;
                    }
                    _ => {
                        return Err(error(format!(
                            "`{line}` is neither a header line (lines, engine, settings) nor `FEN{ANALYSIS_SEPARATOR}MOVE SCORE ...`"
                        )))
                    }
                }
            };
            let position = Position::from_fen(fen.trim())
                .map_err(|e| error(format!("the FEN `{}`: {e}", fen.trim())))?;
            if ply(&position) >= u32::from(BOOK_PLIES) {
                return Err(error(format!(
                    "`{}` is {} plies from the start: the book holds the first {BOOK_PLIES}",
                    fen.trim(),
                    ply(&position)
                )));
            }
            let words: Vec<&str> = moves.split_whitespace().collect();
            if words.is_empty() || !words.len().is_multiple_of(2) {
                return Err(error(format!(
                    "`{}` is not pairs of a move and its score",
                    moves.trim()
                )));
            }
            let mut analysis = Vec::new();
            for pair in words.chunks(2) {
                let m = position
                    .parse_uci(pair[0])
                    .map_err(|e| error(format!("the move `{}`: {e}", pair[0])))?;
                let score: i32 = pair[1].parse().map_err(|_| {
                    error(format!(
                        "the score `{}` of {} is not a whole number",
                        pair[1], pair[0]
                    ))
                })?;
                if analysis.last().is_some_and(|&(_, last)| score > last) {
                    return Err(error(format!(
                        "{} scores {score}, more than the move before it: the best comes first",
                        pair[0]
                    )));
                }
                analysis.push((m, score));
            }
            let key = position.cartridge_key();
            if book.entries.iter().any(|entry| entry.key == key) {
                return Err(error(format!(
                    "`{}` is in the book twice (or shares its key {key:08X} with another position)",
                    fen.trim()
                )));
            }
            let moves = good_moves(&analysis);
            book.entries.push(BookEntry {
                position,
                key,
                moves,
                analysis,
            });
        }
        Ok(book)
    }

    /// A header line's value (`lines`, `engine`, `settings`).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }

    /// The entry whose key is `position`'s, at a ply below [`BOOK_PLIES`], as the
    /// cartridge finds it (by the key alone).
    pub fn entry(&self, position: &Position) -> Option<&BookEntry> {
        if ply(position) >= u32::from(BOOK_PLIES) {
            return None;
        }
        let key = position.cartridge_key();
        self.entries.iter().find(|entry| entry.key == key)
    }

    /// The book's move in `position` for the game's `seed`: of its good moves, the
    /// [`choice`]; `None` when the position is not in the book.
    pub fn lookup(&self, position: &Position, seed: u8) -> Option<Move> {
        let entry = self.entry(position)?;
        Some(entry.moves[choice(entry.key, seed, entry.moves.len())])
    }
}

/// The book the cartridge has ([`ANALYSIS`]).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        Book::parse(ANALYSIS).unwrap_or_else(|error| panic!("engine-src/book/book.txt, {error}"))
    })
}

/// [`Book::lookup`] in the cartridge's [`book`].
pub fn lookup(position: &Position, seed: u8) -> Option<Move> {
    book().lookup(position, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1";
    const AFTER_C3: &str = "rnbqk/ppppp/2P2/5/PP1PP/RNBQK b Qq - 0 1";

    fn error(text: &str) -> String {
        Book::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn an_analysis_reads_into_good_moves_within_the_margin_three_at_most() {
        let book = Book::parse(&format!(
            "# comment\nlines x fnv1a64 0\nengine FSF\nsettings depth 12\n\
             {START} | d2d3 33 a2a3 20 c2c3 18 b2b3 17\n{AFTER_C3} | b6c4 40 d5c4 20\n"
        ))
        .unwrap();
        assert_eq!(book.header("engine"), Some("FSF"));
        let moves =
            |entry: &BookEntry| -> Vec<String> { entry.moves.iter().map(|m| m.to_uci()).collect() };
        assert_eq!(moves(&book.entries[0]), ["d2d3", "a2a3", "c2c3"]);
        assert_eq!(moves(&book.entries[1]), ["b6c4"]);
        assert_eq!(book.entries[0].analysis.len(), 4);
    }

    #[test]
    fn a_bad_analysis_line_is_an_error_naming_its_line() {
        for (text, message) in [
            (format!("{START} | d2d3"), "line 1: `d2d3` is not pairs of a move and its score"),
            (format!("{START} | d2d4x 3"), "line 1: the move `d2d4x`: cannot read UCI move \"d2d4x\""),
            (format!("{START} | d2d3 x"), "line 1: the score `x` of d2d3 is not a whole number"),
            (
                format!("{START} | d2d3 3 c2c3 5"),
                "line 1: c2c3 scores 5, more than the move before it: the best comes first",
            ),
            (
                format!("{START} | d2d3 3\n{START} | d2d3 3"),
                "line 2: `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1` is in the book twice (or shares its key 84747464 with another position)",
            ),
            (
                "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 4 | d2d3 3".to_owned(),
                "line 1: `rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 4` is 6 plies from the start: the book holds the first 6",
            ),
            (
                "depth 12".to_owned(),
                "line 1: `depth 12` is neither a header line (lines, engine, settings) nor `FEN | MOVE SCORE ...`",
            ),
        ] {
            let found = error(&text);
            assert!(found.starts_with(message), "{text:?}: {found}");
        }
    }

    #[test]
    fn the_lookup_plays_the_seeds_choice_of_the_good_moves_and_only_within_the_plies() {
        let start = Position::start();
        let entry = book().entry(&start).unwrap();
        // Every seed picks one of the good moves, and the seeds reach all of them.
        let mut picked: Vec<Move> = (0..=255u8)
            .map(|seed| lookup(&start, seed).unwrap())
            .collect();
        picked.sort_by_key(|m| m.to_uci());
        picked.dedup();
        let mut good = entry.moves.clone();
        good.sort_by_key(|m| m.to_uci());
        assert_eq!(picked, good);
        for seed in [0u8, 1, 2, 77] {
            let index = (usize::from(seed) ^ (entry.key as usize & 0xFF)) % entry.moves.len();
            assert_eq!(lookup(&start, seed), Some(entry.moves[index]));
        }
        // The same position past the book's plies (only the move number differs).
        let late = Position::from_fen("rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 4").unwrap();
        assert_eq!(lookup(&late, 0), None);
    }

    #[test]
    fn some_book_positions_have_several_good_moves_so_seeds_make_games_differ() {
        let several = book().entries.iter().filter(|e| e.moves.len() > 1).count();
        assert!(several >= 10, "{several} positions with a choice");
    }
}
