//! The opening book (`engine_src::book`, read from `engine-src/book/book.txt`) rendered
//! into `generated/engine/book.inc` for asm/engine/book.asm, through the template
//! `xtask/templates/book.inc`: its constants and the table of its positions. Like the
//! other engine pages it renders the model as compiled (`engine_src::book::book`, which
//! reads `book.txt`); the analysis must have been made from the lines file as it is now
//! (the hash in its header, against `engine_src::book::LINES`): else `cargo xtask book`
//! must run first.

use std::path::Path;

use anyhow::{bail, Result};
use askama::Template;
use engine_src::book::{Book, BOOK_MAX_MOVES, BOOK_PLIES, LINES};

use super::eval::page_cell;
use super::Outputs;
use crate::book::{lines_header, ANALYSIS_PATH, LINES_PATH};

/// The file made, relative to `generated/`.
pub const BOOK_INC: &str = "engine/book.inc";

pub fn generate(_root: &Path, outputs: &mut Outputs) -> Result<()> {
    // Read here rather than through book(), which panics on a file it cannot read.
    let book = Book::parse(engine_src::book::ANALYSIS)
        .map_err(|error| anyhow::anyhow!("{ANALYSIS_PATH}, {error}"))?;
    check_made_from(&book, LINES.as_bytes())?;
    outputs.ensure_file_contents(BOOK_INC, render(&book)?.as_bytes())
}

/// `Ok` when `book` was made from the lines file `lines` (the hash in its header).
pub fn check_made_from(book: &Book, lines: &[u8]) -> Result<()> {
    if book.header("lines") != Some(lines_header(lines).as_str()) {
        bail!(
            "{ANALYSIS_PATH} was not made from {LINES_PATH} as it is now: run `cargo xtask book`"
        );
    }
    Ok(())
}

/// The text of `generated/engine/book.inc` for `book`.
pub fn render(book: &Book) -> Result<String> {
    let mut positions = Vec::new();
    for entry in &book.entries {
        let mut moves = Vec::new();
        for m in &entry.moves {
            if m.is_promotion() {
                bail!(
                    "the book's move {} in {} promotes, which the table cannot hold",
                    m.to_uci(),
                    entry.position.to_fen()
                );
            }
            moves.push((page_cell(m.from, 0), page_cell(m.to, 0), m.to_uci()));
        }
        positions.push(BookPosition {
            fen: entry.position.to_fen(),
            key: entry.key.to_le_bytes(),
            moves,
        });
    }
    if positions.len() > 255 {
        bail!(
            "the book has {} positions, more than the 255 its table counts",
            positions.len()
        );
    }
    let bytes: usize = positions
        .iter()
        .map(|p| 5 + 2 * p.moves.len())
        .sum::<usize>()
        + 1;
    let mut text = BookTemplate {
        plies: BOOK_PLIES,
        max_moves: BOOK_MAX_MOVES,
        count: positions.len(),
        bytes,
        positions,
    }
    .render()?;
    text.push('\n');
    Ok(text)
}

/// A position of the table: its FEN (for the comment), its key's bytes (little-endian),
/// its moves (from square, to square, UCI).
struct BookPosition {
    fen: String,
    key: [u8; 4],
    moves: Vec<(usize, usize, String)>,
}

/// `xtask/templates/book.inc`.
#[derive(Template)]
#[template(path = "book.inc", escape = "none")]
struct BookTemplate {
    plies: u8,
    max_moves: usize,
    count: usize,
    bytes: usize,
    positions: Vec<BookPosition>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_made_from_another_lines_file_is_refused() {
        let book = engine_src::book::book();
        check_made_from(book, LINES.as_bytes()).unwrap();
        let error = check_made_from(book, b"replies 0 all\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "engine-src/book/book.txt was not made from engine-src/book/lines.txt as it is now: run `cargo xtask book`"
        );
    }

    #[test]
    fn the_table_is_within_its_budget_with_every_position_and_move() {
        let text = render(engine_src::book::book()).unwrap();
        let book = engine_src::book::book();
        let moves: usize = book.entries.iter().map(|e| e.moves.len()).sum();
        let size = 5 * book.entries.len() + 2 * moves + 1;
        assert!(text.contains(&format!("DEF BOOK_TABLE_SIZE EQU {size}\n")));
        assert!(text.contains(&format!("DEF BOOK_POSITIONS EQU {}\n", book.entries.len())));
        // With BookMove's code, within the book's 1,700 bytes of ROM.
        assert!(size + 100 <= 1700, "{size} bytes of table");
    }
}
