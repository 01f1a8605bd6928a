//! The opening book (`engine_src::book`, read from `engine-src/book/book.txt`) rendered
//! into `generated/engine/book.inc` for asm/engine/book.asm, through the template
//! `xtask/templates/book.inc`: its constants and the table of its positions. The
//! analysis must have been made from the lines file as it is now (the hash in its
//! header): else `cargo xtask book` must run first.

use std::path::Path;

use anyhow::{bail, Context, Result};
use askama::Template;
use engine_src::book::{Book, BOOK_MAX_MOVES, BOOK_PLIES};

use super::eval::page_cell;
use super::Outputs;
use crate::book::{lines_header, ANALYSIS_PATH, LINES_PATH};

/// The file made, relative to `generated/`.
pub const BOOK_INC: &str = "engine/book.inc";

pub fn generate(root: &Path, outputs: &mut Outputs) -> Result<()> {
    let read =
        |path: &str| std::fs::read(root.join(path)).with_context(|| format!("reading {path}"));
    let lines = read(LINES_PATH)?;
    let analysis = String::from_utf8(read(ANALYSIS_PATH)?)
        .with_context(|| format!("{ANALYSIS_PATH} is not UTF-8"))?;
    let book =
        Book::parse(&analysis).map_err(|error| anyhow::anyhow!("{ANALYSIS_PATH}, {error}"))?;
    let made_from = book.header("lines").unwrap_or("");
    if made_from != lines_header(&lines) {
        bail!(
            "{ANALYSIS_PATH} was not made from {LINES_PATH} as it is now: run `cargo xtask book`"
        );
    }
    outputs.ensure_file_contents(BOOK_INC, render(&book)?.as_bytes())
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
    use crate::project;

    #[test]
    fn an_analysis_made_from_another_lines_file_is_refused() {
        let root =
            std::env::temp_dir().join(format!("chessattack-book-assets-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("engine-src/book")).unwrap();
        let analysis = std::fs::read(project::root().join(ANALYSIS_PATH)).unwrap();
        std::fs::write(root.join(ANALYSIS_PATH), analysis).unwrap();
        std::fs::write(root.join(LINES_PATH), "replies 0 all\n").unwrap();
        let error = generate(&root, &mut Outputs::default())
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
