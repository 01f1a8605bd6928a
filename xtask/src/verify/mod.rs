//! `cargo xtask verify`: the SM83 engine in the emulator against the reference model.
//!
//! Four parts, each counting its checks:
//! 1. the start position as at the positions of part 3, then perft from it at depths 1
//!    to [`START_DEPTH`];
//! 2. each position of `engine-src/perft/suite.epd` as at the positions of part 3,
//!    and its every count up to depth [`SUITE_DEPTH`];
//! 3. random games (seeded: a seed replays the same games): at positions along each
//!    game, the ROM's legal moves (as a set), its verdict (game goes on, checkmate,
//!    stalemate, insufficient material, fifty moves, repetition), whether the side
//!    to move is in check, its evaluation (`Evaluate`, from the score MakeMove kept
//!    through the game, against `eval::evaluate`) and whether the material is
//!    insufficient (`hMatingMaterial`) and its Zobrist keys (`wZobristKey`, which
//!    MakeMove kept through the game, and the game's history `wGameKeys` whole, the
//!    game key of every position since the last capture or pawn move: the low 32 bits
//!    of the model's `search::line_key` and of `Game::keys`,
//!    [`crate::rom_engine::RomKeys::of_game`]; a history that differs is reported at
//!    its first ply that differs) must be the model's. The ROM is given the game's start
//!    position and every move since, so it plays the history itself and judges
//!    repetitions and the fifty-move rule from it. Some games are plain random play,
//!    some shuffle pieces back and forth (repetitions, castling rights lost on the
//!    way), some capture down to an endgame and then avoid captures and pawn moves
//!    (insufficient material, the fifty-move rule), sometimes from a loaded position
//!    whose fifty-move counter is already high;
//! 4. the search on a suite of positions ([`search`]): the same move, score, line, depth
//!    and nodes, the same transposition table left behind (every entry, byte for byte),
//!    and the Zobrist keys left as they were at the root.
//!
//! A perft count that differs is followed down the tree, through the ROM's own move
//! making (one-move-longer histories), to the first position whose legal moves differ.
//! Every difference is printed with the start position, the moves, the position, the
//! moves only one engine has, and both verdicts; then the command fails.
//!
//! The random games, and which of their positions are compared, are
//! [`crate::random_games`]'s; [`tally`] counts the checks and
//! prints the differences, which [`report`] describes.

mod book;
pub mod report;
pub mod search;
mod tally;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_src::search::Limits;
use engine_src::{Game, Position, START_FEN};

use crate::cli::VerifyArgs;
use crate::dmg_time;
use crate::positions::{self, SEARCH_SUITE_PATH};
use crate::project::plural;
use crate::random_games::{checked_plies, Playouts};
use crate::rom_engine::{LegalMoves, RomEngine, RomMove, Verdict};
use crate::suite::{self, SUITE_PATH};
use report::Expected;
use tally::{Tally, MAX_MISMATCHES};

/// Perft from the start position is compared at depths 1 to this.
const START_DEPTH: u32 = 4;
/// Suite counts are compared up to this depth.
const SUITE_DEPTH: u32 = 3;

pub fn run(args: &VerifyArgs) -> Result<()> {
    let started = Instant::now();
    // The search suite is read first, so that a mistake in it (positions::read refuses
    // a bad FEN and a position without a legal move) fails at once.
    let (suite_name, searched) = match &args.search_suite {
        Some(path) => (path.display().to_string(), positions::read(path)?),
        None => (SEARCH_SUITE_PATH.to_string(), positions::search_suite()?),
    };

    let mut rom = RomEngine::build_and_boot()?;
    let mut tally = Tally::default();

    let start = Position::start();
    tally.begin_part("verify: perft from the start", u64::from(START_DEPTH) + 1);
    tally.loaded(&mut rom, START_FEN, &start)?;
    for depth in 1..=START_DEPTH {
        tally.perft(&mut rom, START_FEN, &start, depth)?;
    }
    println!(
        "the start position's answer, then perft from it at depths 1-{START_DEPTH}: {}",
        tally.part()
    );

    let entries = suite::checked_in()?;
    let suite_checks = entries
        .iter()
        .flat_map(|entry| &entry.counts)
        .filter(|(depth, _)| *depth <= SUITE_DEPTH)
        .count();
    tally.begin_part("verify: the suite", (suite_checks + entries.len()) as u64);
    for entry in &entries {
        if tally.stopped() {
            break;
        }
        tally.loaded(&mut rom, &entry.fen, &entry.position)?;
        for &(depth, _) in &entry.counts {
            if depth <= SUITE_DEPTH && !tally.stopped() {
                tally.perft(&mut rom, &entry.fen, &entry.position, depth)?;
            }
        }
    }
    println!(
        "{SUITE_PATH}, {} (each position's answer, then perft to depth {SUITE_DEPTH}): {}",
        plural(entries.len(), "position"),
        tally.part()
    );

    let mut verdicts: BTreeMap<Verdict, u64> = BTreeMap::new();
    let mut in_check = 0;
    let mut games = 0;
    let mut generator = Playouts::new(args.seed, rom.max_history())?;
    let mut positions = 0;
    tally.begin_part("verify: random games", u64::from(args.positions));
    while positions < args.positions && !tally.stopped() {
        let playout = generator.next_playout();
        games += 1;
        let mut game = Game::new(playout.start);
        let checked = checked_plies(playout.moves.len());
        for ply in 0..=playout.moves.len() {
            if checked.contains(&ply) {
                if positions == args.positions {
                    break;
                }
                positions += 1;
                let model = Expected::of(&game);
                *verdicts.entry(model.verdict).or_default() += 1;
                in_check += u64::from(model.in_check);
                if !tally.position(&mut rom, &playout, ply, &game, model)? {
                    break;
                }
            }
            if let Some(&m) = playout.moves.get(ply) {
                game.play(m)
                    .with_context(|| format!("replaying the model's own move {m}"))?;
            }
        }
    }
    println!(
        "{}: {}",
        random_games_compared(positions, games, args.seed),
        tally.part()
    );
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|verdict| {
            let count = verdicts.get(verdict).copied().unwrap_or(0);
            format!("{count} {}", verdict.name())
        })
        .collect();
    println!(
        "  verdicts compared: {}; {in_check} in check",
        counts.join(", ")
    );

    let compared: Vec<Vec<Limits>> = searched
        .iter()
        .map(|entry| search::compared_limits(&entry.position))
        .collect();
    tally.begin_part(
        "verify: the search",
        compared.iter().map(|limits| limits.len() as u64).sum(),
    );
    for (entry, limits) in searched.iter().zip(&compared) {
        for &limits in limits {
            if !tally.stopped() {
                let difference = search::compare(&mut rom, &entry.fen, &entry.position, limits)
                    .with_context(|| {
                        format!("{suite_name}:{}: searching {}", entry.line, entry.fen)
                    })?;
                tally.record(difference);
            }
        }
    }
    println!(
        "{suite_name}, {}, searched at depths 1-{} and within a budget, with EASY's \
         checks in the quiescence search at depths {} and {} and within a budget, and with \
         MEDIUM's reductions at depths {} and {}: {}",
        plural(searched.len(), "position"),
        search::MAX_COMPARED_DEPTH,
        engine_src::search::LEVEL_DEPTH_EASY,
        search::CHECKS_COMPARED_DEPTH,
        engine_src::search::LEVEL_DEPTH_MEDIUM,
        search::MAX_COMPARED_DEPTH,
        tally.part()
    );

    tally.begin_part("verify: the book", book::checks());
    book::compare(&mut rom, &mut tally)?;
    println!(
        "the book, {} and the positions one reply after their moves: {}",
        plural(engine_src::book::book().entries.len(), "position"),
        tally.part()
    );

    println!(
        "time {:.2} s, cycles {} ({})",
        started.elapsed().as_secs_f64(),
        rom.cycles(),
        dmg_time::describe(rom.cycles())
    );
    let (passed, failed) = (tally.passed, tally.failed);
    println!("{passed} passed, {failed} failed");
    if tally.stopped() {
        bail!("stopped after {MAX_MISMATCHES} differences between the ROM and the model");
    }
    if failed > 0 {
        bail!(
            "the ROM and the reference model differ in {failed} of {} checks",
            passed + failed
        );
    }
    Ok(())
}

/// `6000 positions of 295 random games (seed 1)`.
fn random_games_compared(positions: u32, games: u32, seed: u64) -> String {
    format!(
        "{} of {} (seed {seed})",
        plural(positions, "position"),
        plural(games, "random game")
    )
}

/// What verify asks the engine under test: [`RomEngine`], or a stand-in in tests.
pub(crate) trait Answers {
    fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64>;
    fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves>;
}

impl Answers for RomEngine {
    fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64> {
        RomEngine::perft(self, start, history, depth)
    }

    fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves> {
        RomEngine::legal_moves(self, start, history)
    }
}
