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

/// The bit of a move's from square that marks a position's last move in the table: no
/// square of the board page has it.
pub const LAST_MOVE_BIT: u8 = 7;

/// The text of `generated/engine/book.inc` for `book`.
pub fn render(book: &Book) -> Result<String> {
    let mut positions = Vec::new();
    for entry in &book.entries {
        let mut moves = Vec::new();
        for (index, m) in entry.moves.iter().enumerate() {
            if m.is_promotion() {
                bail!(
                    "the book's move {} in {} promotes, which the table cannot hold",
                    m.to_uci(),
                    entry.position.to_fen()
                );
            }
            let from = page_cell(m.from, 0);
            assert!(
                from >> LAST_MOVE_BIT == 0,
                "square {from:#04x} has the last move's bit"
            );
            let last = usize::from(index + 1 == entry.moves.len()) << LAST_MOVE_BIT;
            moves.push((from | last, page_cell(m.to, 0), m.to_uci()));
        }
        positions.push(BookPosition {
            fen: entry.position.to_fen(),
            key: entry.key.to_le_bytes(),
            moves,
        });
    }
    if positions.len() > 255 {
        bail!(
            "the book has {} positions, more than the 255 its table can end after",
            positions.len()
        );
    }
    let end = table_end(positions.iter().map(|p| p.key[0]));
    let bytes: usize = positions
        .iter()
        .map(|p| 4 + 2 * p.moves.len())
        .sum::<usize>()
        + 1;
    let mut text = BookTemplate {
        plies: BOOK_PLIES,
        max_moves: BOOK_MAX_MOVES,
        count: positions.len(),
        bytes,
        last_move_bit: LAST_MOVE_BIT,
        end,
        positions,
    }
    .render()?;
    text.push('\n');
    Ok(text)
}

/// The table's end marker: the least byte that is none of `low_bytes` (the keys' low
/// bytes, which BookMove compares it with first); at most 255 keys leave one.
fn table_end(low_bytes: impl Iterator<Item = u8> + Clone) -> u8 {
    (0..=u8::MAX)
        .find(|&byte| low_bytes.clone().all(|low| low != byte))
        .expect("at most 255 positions leave a low byte unused")
}

/// A position of the table: its FEN (for the comment), its key's bytes (little-endian),
/// its moves (from square with the last move's bit, to square, UCI).
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
    last_move_bit: u8,
    end: u8,
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
    fn each_position_is_its_key_and_moves_the_last_marked_and_an_unused_low_byte_ends_the_table() {
        let book = Book::parse(
            "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1 | d2d3 33 a2a3 30 c2c3 28\n\
             rnbqk/ppppp/2P2/5/PP1PP/RNBQK b Qq - 0 1 | b6c4 40 d5c4 10\n",
        )
        .unwrap();
        let text = render(&book).unwrap();
        let table = &text[text.find("MACRO book_table").unwrap()..];
        let rows: Vec<&str> = table
            .lines()
            .filter(|line| line.starts_with("\tdb "))
            .collect();
        // Keys $84747464 and $A7F70FBC, little-endian; d2 is $33, a2 $30, c2 $32, with
        // bit 7 on the last; b6 $71. No key's low byte is 0, which ends the table.
        assert_eq!(
            rows,
            [
                "\tdb $64, $74, $74, $84",
                "\tdb $33, $43, $30, $40, $B2, $42",
                "\tdb $BC, $0F, $F7, $A7",
                "\tdb $F1, $52",
                "\tdb $00",
            ]
        );
        assert!(text.contains("DEF BOOK_TABLE_END EQU $00\n"));
        assert!(text.contains("DEF BOOK_TABLE_SIZE EQU 17\n"));
        assert_eq!(table_end([1, 0, 3, 0xFF].into_iter()), 2);
        assert_eq!(table_end(0..=254), 0xFF);
    }

    #[test]
    fn the_table_is_within_its_budget_with_every_position_and_move() {
        let text = render(engine_src::book::book()).unwrap();
        let book = engine_src::book::book();
        let moves: usize = book.entries.iter().map(|e| e.moves.len()).sum();
        let size = 4 * book.entries.len() + 2 * moves + 1;
        assert!(text.contains(&format!("DEF BOOK_TABLE_SIZE EQU {size}\n")));
        assert!(text.contains(&format!("DEF BOOK_POSITIONS EQU {}\n", book.entries.len())));
        // With BookMove's code, within the book's 1,700 bytes of ROM.
        assert!(size + 100 <= 1700, "{size} bytes of table");
    }
}
