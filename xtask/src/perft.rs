//! `cargo xtask perft`: leaf counts of the legal move tree, with either engine, for
//! one position or for a suite in the `FEN ;D1 n ;D2 n ...` format
//! (`engine-src/perft/suite.epd`).
//!
//! Output of one position: with `--divide`, a `<uci-move>: n` line per root move in
//! UCI order; then `time 0.41 s` (and for the ROM, `cycles N (S DMG seconds)`: the
//! emulated machine cycles, 1,048,576 a second); the last line is always `nodes N`.
//! Output of a suite: each mismatch, the time (and cycles), and last `N passed, N failed`
//! (one check per position and depth); the command fails when any check failed.
//!
//! The ROM engine is build/test.gb in the emulator (see [`crate::rom_engine`]). Its
//! `--divide` lists the ROM's own legal moves, then counts below each by playing it as
//! a one-move history, so the ROM's move making is what is counted. From depth
//! [`ROM_DIVIDED_DEPTH`] its plain count is made the same way, so that the progress bar
//! can move; its cycles then include those one-move commands.
//!
//! On a terminal a progress bar (see [`crate::progress`]) shows how far a count is; the
//! reference model refuses depths beyond [`MAX_REFERENCE_DEPTH`] and the ROM beyond
//! [`MAX_ROM_DEPTH`] rather than run for hours, before anything is built or counted.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use engine_src::{Position, START_FEN};

use crate::cli::{Engine, PerftArgs};
use crate::dmg_time;
use crate::progress::Progress;
use crate::rom_engine::RomEngine;
use crate::suite;

/// The deepest perft the reference model is asked for. Perft(8) from the start position
/// is 754,383,020 leaves: 22 s at the model's 35 M leaves a second, 104 s measured on a
/// busy 2-core machine; each ply more multiplies that by about 14, and a middlegame
/// position by more, so depth 9 would run for many minutes to hours.
pub const MAX_REFERENCE_DEPTH: u32 = 8;
/// What perft([`MAX_REFERENCE_DEPTH`]) from the start position costs.
const REFERENCE_DEPTH_TIME: &str =
    "754,383,020 leaves, half a minute to two minutes, from the start position";

/// The deepest perft the ROM engine is asked for (its move stack would hold
/// `TEST_MAX_PERFT_DEPTH`, 8): perft(6) from the start is 606 million machine cycles,
/// 75 s of emulation measured here; each ply more multiplies that by about 14, so
/// perft(7) would take some 20 minutes and perft(8) hours.
pub const MAX_ROM_DEPTH: u32 = 6;
/// What perft([`MAX_ROM_DEPTH`]) from the start position costs.
const ROM_DEPTH_TIME: &str =
    "3,729,708 leaves, 606 million machine cycles, a minute or two of emulation, from the \
     start position";

/// From this depth the ROM's perft of one position is counted root move by root move
/// (as `--divide` does), so that a progress bar can show how far it is: perft(5) from
/// the start takes 45 million machine cycles, 5 to 10 s in the emulator, perft(6) 606
/// million, minutes.
const ROM_DIVIDED_DEPTH: u32 = 5;

pub fn run(args: &PerftArgs) -> Result<()> {
    match &args.epd {
        Some(path) => {
            let entries = suite::read(path)?;
            let (entry, deepest) = deepest_count(path, &entries, args.max_depth)?;
            let at_entry =
                |error: anyhow::Error| anyhow!("{}:{}: {error}", path.display(), entry.line);
            refuse_slow_depth(args.engine, deepest).map_err(at_entry)?;
            let mut engine = PerftEngine::new(args.engine)?;
            engine.check_depth(deepest).map_err(at_entry)?;
            run_suite(&mut engine, path, &entries, args.max_depth)
        }
        None => {
            if args.max_depth.is_some() {
                bail!("--max-depth applies only to a suite (--epd FILE)");
            }
            let fen = args.fen.as_deref().unwrap_or(START_FEN);
            refuse_slow_depth(args.engine, args.depth)?;
            let mut engine = PerftEngine::new(args.engine)?;
            run_one(&mut engine, fen, args.depth, args.divide)
        }
    }
}

/// Refuses a depth `engine` would not finish in reasonable time; known before the ROM
/// is built.
fn refuse_slow_depth(engine: Engine, depth: u32) -> Result<()> {
    match engine {
        Engine::Reference if depth > MAX_REFERENCE_DEPTH => bail!(
            "depth {depth} is too deep: the reference model's perft is limited to depth \
             {MAX_REFERENCE_DEPTH} ({REFERENCE_DEPTH_TIME})"
        ),
        Engine::Rom if depth > MAX_ROM_DEPTH => bail!(
            "depth {depth} is too deep: the ROM engine's perft is limited to depth \
             {MAX_ROM_DEPTH} ({ROM_DEPTH_TIME})"
        ),
        _ => Ok(()),
    }
}

/// The deepest count a suite run makes (with `max_depth`, those at or below it) and
/// the first entry holding it; an error when `max_depth` leaves no count (every entry
/// has one, [`suite::read`] makes sure), rather than a run that checks nothing.
fn deepest_count<'a>(
    path: &Path,
    entries: &'a [suite::Entry],
    max_depth: Option<u32>,
) -> Result<(&'a suite::Entry, u32)> {
    let max = max_depth.unwrap_or(u32::MAX);
    let mut deepest: Option<(&suite::Entry, u32)> = None;
    for entry in entries {
        for &(depth, _) in &entry.counts {
            if depth <= max && deepest.is_none_or(|(_, most)| depth > most) {
                deepest = Some((entry, depth));
            }
        }
    }
    deepest.ok_or_else(|| anyhow!("no count of {} is at depth {max} or less", path.display()))
}

/// The engine that counts. Each backend takes a FEN that the reference model has
/// accepted, so a bad FEN is reported the same way whichever engine runs.
pub enum PerftEngine {
    /// The Rust reference model in engine-src/.
    Reference,
    /// The SM83 engine in the emulator.
    Rom(Box<RomEngine>),
}

impl PerftEngine {
    /// The engine; for the ROM, builds build/test.gb and boots it.
    pub fn new(engine: Engine) -> Result<PerftEngine> {
        match engine {
            Engine::Reference => Ok(PerftEngine::Reference),
            Engine::Rom => Ok(PerftEngine::Rom(Box::new(RomEngine::build_and_boot()?))),
        }
    }

    /// The number of leaves at `depth` plies from `position`.
    pub fn perft(&mut self, position: &Position, depth: u32) -> Result<u64> {
        self.check_depth(depth)?;
        match self {
            PerftEngine::Reference => Ok(engine_src::perft::perft(position, depth)),
            PerftEngine::Rom(rom) => rom.perft(position, &[], depth),
        }
    }

    /// Each legal root move (UCI) with the count of leaves below it, in UCI order.
    /// On a terminal a progress bar shows how far the count is and the time left.
    pub fn divide(&mut self, position: &Position, depth: u32) -> Result<Vec<(String, u64)>> {
        self.check_depth(depth)?;
        let mut moves = match self {
            PerftEngine::Reference => reference_divide(position, depth),
            PerftEngine::Rom(rom) => rom_divide(rom, position, depth)?,
        };
        moves.sort();
        Ok(moves)
    }

    /// Whether a count of `depth` takes long enough to be counted root move by root move,
    /// for the progress bar: the reference model always can (it costs nothing); the ROM
    /// from [`ROM_DIVIDED_DEPTH`].
    fn counts_by_root_move(&self, depth: u32) -> bool {
        match self {
            PerftEngine::Reference => true,
            PerftEngine::Rom(_) => depth >= ROM_DIVIDED_DEPTH,
        }
    }

    /// Refuses a depth the engine cannot count, or would not finish in reasonable time.
    fn check_depth(&self, depth: u32) -> Result<()> {
        match self {
            PerftEngine::Reference => refuse_slow_depth(Engine::Reference, depth),
            PerftEngine::Rom(rom) if depth > rom.max_perft_depth() => bail!(
                "depth {depth} is too deep: the ROM engine counts perft to depth {} at most \
                 (its move stack holds the moves of that many plies)",
                rom.max_perft_depth()
            ),
            PerftEngine::Rom(_) => refuse_slow_depth(Engine::Rom, depth),
        }
    }

    /// The emulated machine cycles spent so far, for the ROM.
    pub fn cycles(&self) -> Option<u64> {
        match self {
            PerftEngine::Reference => None,
            PerftEngine::Rom(rom) => Some(rom.cycles()),
        }
    }
}

/// `time 0.41 s`, and for the ROM `cycles 123456789 (117.74 DMG seconds)`.
fn print_time(engine: &PerftEngine, started: Instant) {
    println!("time {:.2} s", started.elapsed().as_secs_f64());
    if let Some(cycles) = engine.cycles() {
        println!("cycles {cycles} ({})", dmg_time::describe(cycles));
    }
}

fn run_one(engine: &mut PerftEngine, fen: &str, depth: u32, divide: bool) -> Result<()> {
    let position = Position::from_fen(fen).with_context(|| format!("bad --fen {fen:?}"))?;
    engine.check_depth(depth)?;
    let started = Instant::now();
    let nodes = if depth > 0 && (divide || engine.counts_by_root_move(depth)) {
        let moves = engine.divide(&position, depth)?;
        if divide {
            for (uci, count) in &moves {
                println!("{uci}: {count}");
            }
        }
        moves.iter().map(|(_, count)| count).sum()
    } else {
        engine.perft(&position, depth)?
    };
    print_time(engine, started);
    println!("nodes {nodes}");
    Ok(())
}

/// The reference model's divide. From depth 3 it is counted below each position two
/// plies down, which is what the progress bar counts.
fn reference_divide(position: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth < 3 {
        return engine_src::perft::divide(position, depth)
            .into_iter()
            .map(|(m, count)| (m.to_uci(), count))
            .collect();
    }
    let after_root: Vec<(String, Position)> = position
        .legal_moves()
        .iter()
        .map(|m| (m.to_uci(), position.play(m)))
        .collect();
    let replies = after_root
        .iter()
        .map(|(_, after)| after.legal_moves().len() as u64)
        .sum();
    let what = format!("model perft({depth})");
    let progress = Progress::new(what.clone(), replies);
    after_root
        .into_iter()
        .map(|(uci, after)| {
            progress.say(format!("{what} {uci}"));
            let count = after
                .legal_moves()
                .iter()
                .map(|reply| {
                    let count = engine_src::perft::perft(&after.play(reply), depth - 2);
                    progress.advance(1);
                    count
                })
                .sum();
            (uci, count)
        })
        .collect()
}

/// The ROM's divide: its own legal moves, then its count below each through a one-move
/// history, so its own move making is what is counted. The progress bar counts leaves,
/// as many below each move as the reference model counts.
fn rom_divide(rom: &mut RomEngine, position: &Position, depth: u32) -> Result<Vec<(String, u64)>> {
    let legal = rom.legal_moves(position, &[])?.moves;
    let expected: BTreeMap<String, u64> = engine_src::perft::divide(position, depth)
        .into_iter()
        .map(|(m, count)| (m.to_uci(), count))
        .collect();
    let what = format!("ROM perft({depth})");
    let progress = Progress::new(what.clone(), expected.values().sum());
    let mut moves = Vec::with_capacity(legal.len());
    for m in legal {
        let uci = m.to_string();
        progress.say(format!("{what} {uci}"));
        let count = rom.perft(position, &[m], depth.saturating_sub(1))?;
        progress.advance(expected.get(&uci).copied().unwrap_or(0));
        moves.push((uci, count));
    }
    Ok(moves)
}

/// Runs the counts of `entries` (read from `path`) at depths up to `max_depth`, which
/// the engine has accepted.
fn run_suite(
    engine: &mut PerftEngine,
    path: &Path,
    entries: &[suite::Entry],
    max_depth: Option<u32>,
) -> Result<()> {
    let counted = |depth: u32| max_depth.is_none_or(|max| depth <= max);
    let checks = || {
        entries
            .iter()
            .flat_map(|entry| entry.counts.iter().filter(|(depth, _)| counted(*depth)))
    };
    let what = path.display().to_string();
    let progress = Progress::new(what.clone(), checks().map(|&(_, want)| want).sum());
    let started = Instant::now();
    let (mut passed, mut failed) = (0, 0);
    for entry in entries {
        for &(depth, want) in &entry.counts {
            if !counted(depth) {
                continue;
            }
            progress.say(format!("{what}:{} D{depth}", entry.line));
            let got = engine.perft(&entry.position, depth)?;
            progress.advance(want);
            if got == want {
                passed += 1;
            } else {
                failed += 1;
                let mismatch = Mismatch {
                    file: path,
                    line: entry.line,
                    fen: &entry.fen,
                    depth,
                    got,
                    want,
                };
                progress.println(mismatch.to_string());
            }
        }
    }
    drop(progress);
    print_time(engine, started);
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        bail!(
            "{failed} of {} perft counts differ from {}",
            passed + failed,
            path.display()
        );
    }
    Ok(())
}

/// A count of a suite that the engine got wrong.
struct Mismatch<'a> {
    file: &'a Path,
    line: usize,
    fen: &'a str,
    depth: u32,
    got: u64,
    want: u64,
}

impl fmt::Display for Mismatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Mismatch {
            file,
            line,
            fen,
            depth,
            got,
            want,
        } = self;
        write!(
            f,
            "MISMATCH {}:{line}: {fen} depth {depth}: got {got}, want {want}",
            file.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mismatch_report_names_file_line_fen_depth_and_both_counts() {
        let mismatch = Mismatch {
            file: Path::new("engine-src/perft/suite.epd"),
            line: 16,
            fen: START_FEN,
            depth: 3,
            got: 1733,
            want: 1734,
        };
        assert_eq!(
            mismatch.to_string(),
            "MISMATCH engine-src/perft/suite.epd:16: rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1 \
             depth 3: got 1733, want 1734"
        );
    }

    #[test]
    fn the_rom_engine_counts_perft_3_from_the_start() {
        let mut engine = PerftEngine::Rom(Box::new(RomEngine::for_tests()));
        assert_eq!(engine.perft(&Position::start(), 3).unwrap(), 1734);
        assert!(engine.cycles().unwrap() > 0);
    }

    #[test]
    fn the_rom_engine_divides_tricky_suite_positions_like_the_model() {
        let mut rom = PerftEngine::Rom(Box::new(RomEngine::for_tests()));
        let mut reference = PerftEngine::Reference;
        // En passant that would expose the king along the rank; a middlegame with
        // castling, pins and checks.
        for (fen, depth, nodes) in [
            ("k4/5/5/KPp1r/5/5 w - c4 0 1", 3, 125),
            ("1r1k1/p2q1/1nbp1/2P2/1PQN1/R3K w Q - 0 12", 2, 572),
        ] {
            let position = Position::from_fen(fen).unwrap();
            let moves = rom.divide(&position, depth).unwrap();
            assert_eq!(moves, reference.divide(&position, depth).unwrap(), "{fen}");
            assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), nodes, "{fen}");
        }
    }

    #[test]
    fn the_reference_model_refuses_a_depth_it_would_not_finish() {
        let mut engine = PerftEngine::Reference;
        let error = engine.perft(&Position::start(), 99).unwrap_err();
        assert_eq!(
            error.to_string(),
            "depth 99 is too deep: the reference model's perft is limited to depth 8 \
             (754,383,020 leaves, half a minute to two minutes, from the start position)"
        );
        assert!(engine.divide(&Position::start(), 9).is_err());
        assert_eq!(engine.perft(&Position::start(), 5).unwrap(), 286_223);
    }

    #[test]
    fn the_rom_engine_refuses_a_depth_beyond_its_move_stack_at_once() {
        let mut engine = PerftEngine::Rom(Box::new(RomEngine::for_tests()));
        let message = "depth 9 is too deep: the ROM engine counts perft to depth 8 at most \
                       (its move stack holds the moves of that many plies)";
        let start = Position::start();
        assert_eq!(engine.perft(&start, 9).unwrap_err().to_string(), message);
        assert_eq!(engine.divide(&start, 9).unwrap_err().to_string(), message);
    }

    #[test]
    fn the_rom_engine_refuses_a_depth_it_would_not_finish_in_minutes() {
        let mut engine = PerftEngine::Rom(Box::new(RomEngine::for_tests()));
        let message = "depth 7 is too deep: the ROM engine's perft is limited to depth 6 \
                       (3,729,708 leaves, 606 million machine cycles, a minute or two of \
                       emulation, from the start position)";
        let start = Position::start();
        assert_eq!(engine.perft(&start, 7).unwrap_err().to_string(), message);
        assert_eq!(engine.divide(&start, 7).unwrap_err().to_string(), message);
        assert_eq!(engine.cycles(), Some(0));
    }

    #[test]
    fn the_reference_divide_counted_two_plies_down_is_the_models_divide() {
        let position = Position::from_fen("1r1k1/p2q1/1nbp1/2P2/1PQN1/R3K w Q - 0 12").unwrap();
        let mut model: Vec<(String, u64)> = engine_src::perft::divide(&position, 3)
            .into_iter()
            .map(|(m, count)| (m.to_uci(), count))
            .collect();
        model.sort();
        let moves = PerftEngine::Reference.divide(&position, 3).unwrap();
        assert_eq!(moves, model);
        assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), 9716);
    }

    #[test]
    fn divide_is_in_uci_order_and_sums_to_perft() {
        let mut engine = PerftEngine::new(Engine::Reference).unwrap();
        let start = Position::start();
        let moves = engine.divide(&start, 2).unwrap();
        let names: Vec<&str> = moves.iter().map(|(uci, _)| uci.as_str()).collect();
        assert_eq!(
            names,
            [
                "a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4",
                "e2e3", "e2e4"
            ]
        );
        let total: u64 = moves.iter().map(|(_, count)| count).sum();
        assert_eq!(total, 135);
        assert_eq!(engine.perft(&start, 2).unwrap(), 135);
    }
}
