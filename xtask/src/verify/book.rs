//! verify's book part: the ROM's BookMove against the model's `Book::lookup` on every
//! position of the book for seeds that reach each of its good moves, at the last ply the
//! book answers and the first it does not, and on every position one reply after a book
//! move (the positions a game asks the book about next), in the book or not.

use anyhow::{Context, Result};
use engine_src::book::{book, BOOK_PLIES};
use engine_src::Position;

use super::tally::Tally;
use crate::rom_engine::RomEngine;

/// The seeds compared in each book position: eight in a row, which (mixed with the key's
/// low byte by xor, an aligned block of eight) reach every residue of 1 to 3 good moves.
pub const SEEDS: u8 = 8;

/// The checks [`compare`] makes.
pub fn checks() -> u64 {
    let replies: usize = book()
        .entries
        .iter()
        .map(|entry| replies(&entry.position).len())
        .sum();
    (book().entries.len() * (usize::from(SEEDS) + 1) + replies) as u64
}

/// Compares the ROM's book with the model's, recording each check in `tally`.
pub fn compare(rom: &mut RomEngine, tally: &mut Tally) -> Result<()> {
    for entry in &book().entries {
        let ply = engine_src::book::ply(&entry.position) as u8;
        for seed in 0..SEEDS {
            check(rom, tally, &entry.position, ply, seed)?;
        }
        check(rom, tally, &entry.position, BOOK_PLIES, 0)?;
        for position in replies(&entry.position) {
            let ply = engine_src::book::ply(&position) as u8;
            check(rom, tally, &position, ply, 0)?;
        }
    }
    Ok(())
}

/// The positions after each of `position`'s good moves and each reply to it.
fn replies(position: &Position) -> Vec<Position> {
    let Some(entry) = book().entry(position) else {
        return Vec::new();
    };
    entry
        .moves
        .iter()
        .map(|m| position.play(m))
        .flat_map(|after| {
            after
                .legal_moves()
                .iter()
                .map(|reply| after.play(reply))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn check(
    rom: &mut RomEngine,
    tally: &mut Tally,
    position: &Position,
    ply: u8,
    seed: u8,
) -> Result<()> {
    let ours = rom.book_move(position, ply, seed).with_context(|| {
        format!(
            "the book's move in {} (ply {ply}, seed {seed})",
            position.to_fen()
        )
    })?;
    // The model's lookup at `ply`: the position's own ply, or past the book.
    let theirs = if u32::from(ply) == engine_src::book::ply(position) {
        book().lookup(position, seed)
    } else {
        None
    };
    let name = |m: Option<engine_src::Move>| m.map_or("none".to_owned(), |m| m.to_uci());
    tally.record((ours != theirs).then(|| {
        format!(
            "the book in {} (ply {ply}, seed {seed}): the ROM plays {}, the model {}",
            position.to_fen(),
            name(ours),
            name(theirs)
        )
    }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roms_book_plays_the_models_move_in_every_book_position_and_after_each_reply() {
        let mut rom = RomEngine::for_tests();
        let mut tally = Tally::default();
        compare(&mut rom, &mut tally).unwrap();
        assert_eq!((tally.passed, tally.failed), (checks(), 0));
    }
}
