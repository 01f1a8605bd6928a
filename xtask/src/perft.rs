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
//! a one-move history, so the ROM's move making is what is counted.

use std::fmt;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_src::{Position, START_FEN};

use crate::cli::{Engine, PerftArgs};
use crate::dmg_time;
use crate::rom_engine::RomEngine;
use crate::suite;

pub fn run(args: &PerftArgs) -> Result<()> {
    let mut engine = PerftEngine::new(args.engine)?;
    match &args.epd {
        Some(path) => run_suite(&mut engine, path, args.max_depth),
        None => {
            if args.max_depth.is_some() {
                bail!("--max-depth applies only to a suite (--epd FILE)");
            }
            let fen = args.fen.as_deref().unwrap_or(START_FEN);
            run_one(&mut engine, fen, args.depth, args.divide)
        }
    }
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
        match self {
            PerftEngine::Reference => Ok(engine_src::perft::perft(position, depth)),
            PerftEngine::Rom(rom) => rom.perft(position, &[], depth),
        }
    }

    /// Each legal root move (UCI) with the count of leaves below it, in UCI order.
    pub fn divide(&mut self, position: &Position, depth: u32) -> Result<Vec<(String, u64)>> {
        let mut moves: Vec<(String, u64)> = match self {
            PerftEngine::Reference => engine_src::perft::divide(position, depth)
                .into_iter()
                .map(|(m, count)| (m.to_uci(), count))
                .collect(),
            PerftEngine::Rom(rom) => {
                let legal = rom.legal_moves(position, &[])?.moves;
                let mut moves = Vec::with_capacity(legal.len());
                for m in legal {
                    let count = rom.perft(position, &[m], depth.saturating_sub(1))?;
                    moves.push((m.to_string(), count));
                }
                moves
            }
        };
        moves.sort();
        Ok(moves)
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
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let moves = engine.divide(&position, depth)?;
        for (uci, count) in &moves {
            println!("{uci}: {count}");
        }
        moves.iter().map(|(_, count)| count).sum()
    } else {
        engine.perft(&position, depth)?
    };
    print_time(engine, started);
    println!("nodes {nodes}");
    Ok(())
}

fn run_suite(engine: &mut PerftEngine, path: &Path, max_depth: Option<u32>) -> Result<()> {
    let entries = suite::read(path)?;
    let started = Instant::now();
    let (mut passed, mut failed) = (0, 0);
    for entry in &entries {
        for &(depth, want) in &entry.counts {
            if max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let got = engine.perft(&entry.position, depth)?;
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
                println!("{mismatch}");
            }
        }
    }
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
