//! `cargo xtask bench --make-suite`: writes the benchmark suite
//! ([`positions::BENCH_SUITE_PATH`]) from games Fairy-Stockfish plays against itself.
//!
//! Game `g` (1, 2, ...) is seeded with `g`: its first [`RANDOM_PLIES`] plies (2 to 4) are
//! random legal moves, so that no two games open alike, and every later move is
//! Fairy-Stockfish's `go depth` [`FAIRY_DEPTH`] (after `ucinewgame`: its move depends
//! only on the game). A game ends when the model's rules end it, or after
//! [`MAX_GAME_PLIES`] plies. Two positions are taken from each game, from move 5 on and
//! before its end: one at random in the first half of those plies (mostly middlegames),
//! one in the second (mostly endgames); a position already taken is skipped. The same
//! engine and seeds write the same file.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use engine_src::{Game, Position};

use crate::fairy::Fairy;
use crate::positions;
use crate::progress::Progress;
use crate::random::SplitMix64;

/// Positions the suite holds.
pub const SUITE_POSITIONS: usize = 48;
/// Random plies that open each game: 2 to 4 (`2 + below(3)`).
pub const RANDOM_PLIES: std::ops::RangeInclusive<usize> = 2..=4;
/// The depth of Fairy-Stockfish's moves.
pub const FAIRY_DEPTH: u8 = 6;
/// The longest game played.
pub const MAX_GAME_PLIES: usize = 120;
/// Positions are taken from this fullmove number on.
pub const FIRST_MOVE: u32 = 5;
/// Games are played until the suite is full; more than this many means the games end
/// too early to give their positions, which is an error rather than an endless loop.
const MAX_GAMES: u64 = 1000;

/// Plays the games and writes the suite at `path`.
pub fn run(fairy_binary: &Path) -> Result<()> {
    let mut fairy = Fairy::start(fairy_binary)?;
    let progress = Progress::new("bench: Fairy-Stockfish's games", SUITE_POSITIONS as u64);
    let mut taken: Vec<(u64, usize, Position)> = Vec::new();
    let mut game_number = 0;
    while taken.len() < SUITE_POSITIONS {
        game_number += 1;
        if game_number > MAX_GAMES {
            bail!("{MAX_GAMES} games gave only {} positions", taken.len());
        }
        let game = play_game(&mut fairy, game_number)?;
        for (ply, position) in sample(&game, game_number) {
            if taken.len() < SUITE_POSITIONS && !taken.iter().any(|(.., p)| *p == position) {
                taken.push((game_number, ply, position));
                progress.advance(1);
            }
        }
    }
    drop(progress);
    let path = crate::project::root().join(positions::BENCH_SUITE_PATH);
    crate::project::write_atomic(
        &path,
        suite_text(fairy.name(), game_number, &taken).as_bytes(),
    )?;
    // Read back as bench reads it: a file bench refuses is never left behind silently.
    positions::bench_suite().with_context(|| format!("reading back {}", path.display()))?;
    println!(
        "{}: {} positions of {game_number} games",
        positions::BENCH_SUITE_PATH,
        taken.len()
    );
    Ok(())
}

/// Game `number`: random opening plies, then Fairy-Stockfish against itself.
fn play_game(fairy: &mut Fairy, number: u64) -> Result<Game> {
    let mut rng = SplitMix64::new(number);
    let random_plies = RANDOM_PLIES.start() + rng.below(RANDOM_PLIES.clone().count());
    let mut game = Game::new(Position::start());
    let start_fen = game.start().to_fen();
    let mut moves: Vec<String> = Vec::new();
    fairy.new_game()?;
    while !game.is_over() && game.moves().len() < MAX_GAME_PLIES {
        let position = *game.position();
        let m = if game.moves().len() < random_plies {
            let legal = position.legal_moves();
            legal.as_slice()[rng.below(legal.len())]
        } else {
            let uci = fairy
                .best_move(&start_fen, &moves, FAIRY_DEPTH)
                .with_context(|| format!("game {number} at {}", position.to_fen()))?;
            position.parse_uci(&uci).with_context(|| {
                format!(
                    "Fairy-Stockfish's move {uci} in game {number} at {}",
                    position.to_fen()
                )
            })?
        };
        moves.push(m.to_uci());
        game.play(m)?;
    }
    Ok(game)
}

/// The two positions taken from `game` (ply, position): of the plies from move
/// [`FIRST_MOVE`] on, before the last position, one at random in each half.
fn sample(game: &Game, number: u64) -> Vec<(usize, Position)> {
    let mut position = *game.start();
    let mut plies = Vec::new();
    for (ply, m) in game.moves().iter().enumerate() {
        if position.fullmove_number() >= FIRST_MOVE {
            plies.push((ply, position));
        }
        position = position.play(m);
    }
    // Not the game's first random plies' stream: the sample has its own.
    let mut rng = SplitMix64::new(number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let half = plies.len() / 2;
    let mut taken = Vec::new();
    for part in [&plies[..half], &plies[half..]] {
        if !part.is_empty() {
            taken.push(part[rng.below(part.len())]);
        }
    }
    taken
}

/// The file: a header saying how it was made, then each position under a note naming
/// its game and ply.
fn suite_text(engine: &str, games: u64, taken: &[(u64, usize, Position)]) -> String {
    let mut text = format!(
        "# The benchmark suite of Chess Attack: {} positions of real games, one FEN a line,\n\
         # which `cargo xtask bench` searches at each level. Written by\n\
         # `cargo xtask bench --make-suite` (xtask/src/bench/make_suite.rs): do not edit by hand.\n\
         #\n\
         # Made from {games} games that {engine} played against itself\n\
         # (the variant of docs/rules.md). Game g is seeded with g (xtask's SplitMix64): its\n\
         # first 2 to 4 plies (2 + below(3)) are random legal moves, every later one is\n\
         # `go depth {FAIRY_DEPTH}` after `ucinewgame`; a game ends by the rules or after {MAX_GAME_PLIES} plies.\n\
         # Two positions are taken from each game, from move {FIRST_MOVE} on and before its end:\n\
         # one at random in the first half of those plies, one in the second; a position\n\
         # taken before is skipped.\n",
        taken.len()
    );
    for (game, ply, position) in taken {
        let _ = write!(text, "\n# game {game}, ply {ply}\n{}\n", position.to_fen());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_one_position_in_each_half_from_move_5_on() {
        let mut game = Game::new(Position::start());
        let mut rng = SplitMix64::new(3);
        while game.moves().len() < 30 && !game.is_over() {
            let legal = game.position().legal_moves();
            game.play(legal.as_slice()[rng.below(legal.len())]).unwrap();
        }
        let plies = game.moves().len();
        assert!(plies >= 20, "{plies}");
        // Fullmove 5 begins at ply 8.
        let half = (plies - 8) / 2;
        let taken = sample(&game, 7);
        let taken_plies: Vec<usize> = taken.iter().map(|(ply, _)| *ply).collect();
        assert_eq!(taken_plies.len(), 2);
        assert!((8..8 + half).contains(&taken_plies[0]), "{taken_plies:?}");
        assert!(
            (8 + half..plies).contains(&taken_plies[1]),
            "{taken_plies:?}"
        );
        assert!(taken.iter().all(|(_, p)| p.fullmove_number() >= FIRST_MOVE));
        // The same game and number take the same positions.
        let again: Vec<usize> = sample(&game, 7).iter().map(|(ply, _)| *ply).collect();
        assert_eq!(again, taken_plies);
    }

    #[test]
    fn the_checked_in_suite_is_exactly_what_make_suite_writes() {
        let path = crate::project::root().join(positions::BENCH_SUITE_PATH);
        let text = std::fs::read_to_string(&path).unwrap();
        // The number of games and the engine's name, from the header's fifth line.
        let fifth = text.lines().nth(4).unwrap();
        let (games, rest) = fifth
            .trim_start_matches("# Made from ")
            .split_once(" games that ")
            .unwrap();
        let engine = rest.split_once(" played against itself").unwrap().0;
        let taken: Vec<(u64, usize, Position)> = positions::bench_suite()
            .unwrap()
            .into_iter()
            .map(|entry| {
                let note = entry.note.unwrap();
                let (game, ply) = note
                    .trim_start_matches("game ")
                    .split_once(", ply ")
                    .unwrap();
                (game.parse().unwrap(), ply.parse().unwrap(), entry.position)
            })
            .collect();
        assert_eq!(taken.len(), SUITE_POSITIONS);
        assert_eq!(text, suite_text(engine, games.parse().unwrap(), &taken));
    }
}
