//! `cargo xtask bench`: the engine's performance in emulated machine cycles, exact and
//! repeatable (the harness counts every cycle; the DMG runs 1,048,576 machine cycles a
//! second, 17,556 a frame).
//!
//! Sections, each measured on the test ROM built in memory without its stack checks (the
//! engine as the cartridge runs it, with the test driver; build/test.gb, which `perft
//! --engine rom` and `verify` run, has them: 9 cycles per GenerateMoves and MakeMove call) or
//! read from the linked cartridge, and printed as a table:
//! - perft(4) from the start position: machine cycles, DMG seconds, cycles per leaf,
//!   nodes (leaves) per DMG second;
//! - the engine's main routines during that perft: calls, cycles (callees included, as
//!   the harness profiler counts them) and cycles per call;
//! - `IsInCheck` called on its own in every position of the perft suite (perft never
//!   calls it: the generator finds checks itself, but the search and the game will);
//! - the same for what a quiescence node of the search calls: `Evaluate`,
//!   `GenerateQuiescenceMoves` (with `GenerateMoves` beside it), and `MakeMove` and
//!   `UnmakeMove` of each quiescence move;
//! - the search at each level (EASY depth 2, MEDIUM 3, HARD 4) on each of two suites, the
//!   benchmark suite `engine-src/search/bench.txt` (Fairy-Stockfish's games against
//!   itself) and the games suite `engine-src/search/games.txt` (every position the
//!   cartridge met in its own games against Fairy-Stockfish, `cargo xtask match
//!   --cartridge --make-suite`): median and maximum cycles and DMG seconds per move, nodes
//!   per DMG second, against the levels' targets, and the routines' cycles per node
//!   during the HARD searches ([`search`]); `--positions N` searches the first N of each;
//! - ROM and RAM usage of the cartridge.
//!
//! Each section measures first and is printed after, as tables or (`--json`) as one
//! JSON object; the bench's wall-clock time is printed last. `--make-suite` writes the
//! benchmark suite anew instead ([`make_suite`]).

mod make_suite;
mod search;

pub use search::{LevelTarget, LEVELS};

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_src::Position;
use serde_json::{json, Value};

use crate::asm::link::region_name;
use crate::asm::object::SectionKind;
use crate::cli::BenchArgs;
use crate::dmg_time;
use crate::harness::profile::RoutineProfile;
use crate::harness::Location;
use crate::positions;
use crate::progress::Progress;
use crate::rom;
use crate::rom_engine::RomEngine;
use crate::suite;
use crate::usage::{region_usage, RegionUsage};

/// The perft depth measured from the start position.
const PERFT_DEPTH: u32 = 4;

/// The routines measured per call while perft runs (labels of the test ROM's `.sym`;
/// their calling conventions are in their headers in asm/engine/). `IsInCheck`, which perft
/// never calls, is measured on its own.
const ROUTINES: [&str; 3] = ["GenerateMoves", "MakeMove", "UnmakeMove"];

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.make_suite {
        return make_suite::run(&args.engine);
    }
    let started = Instant::now();
    let mut suites = [
        (positions::BENCH_SUITE_PATH, positions::bench_suite()?),
        (positions::GAMES_SUITE_PATH, positions::games_suite()?),
    ];
    if let Some(wanted) = args.positions {
        let wanted = wanted as usize;
        for (path, suite) in &mut suites {
            if wanted > suite.len() {
                bail!("--positions {wanted}: {path} has {} positions", suite.len());
            }
            suite.truncate(wanted);
        }
    }
    let build = rom::test_driver_rom(false)?;
    let mut rom = RomEngine::boot(&build.rom, &build.sym)
        .with_context(|| format!("booting {}", rom::UNCHECKED_TEST_ROM))?;
    let perft = {
        let _progress = Progress::new(format!("bench: perft({PERFT_DEPTH})"), 1);
        measure_perft(&mut rom, PERFT_DEPTH)?
    };
    let mut alone = vec![("IsInCheck", measure_in_check(&mut rom)?)];
    alone.extend(measure_quiescence(&mut rom)?);
    let searches = suites
        .iter()
        .map(|(path, suite)| search::measure(&mut rom, path, suite))
        .collect::<Result<Vec<_>>>()?;
    let usage = cartridge_usage()?;
    let wall_seconds = started.elapsed().as_secs_f64();
    if args.json {
        let figures = Figures {
            perft: &perft,
            alone: &alone,
            searches: &searches,
            usage: &usage,
            wall_seconds,
        };
        println!("{}", figures.json());
    } else {
        print!("{}", perft_table(&perft));
        println!();
        for (routine, cycles) in &alone {
            print!("{}", alone_table(routine, cycles));
            println!();
        }
        for runs in &searches {
            print!("{}", search::table(runs));
            println!();
        }
        print!("{}", usage_table(&usage));
        println!();
        println!("bench took {wall_seconds:.1} s (wall clock)");
    }
    Ok(())
}

/// Every figure of a bench run, for `--json`.
struct Figures<'a> {
    perft: &'a PerftRun,
    /// Routines called on their own in each position of the perft suite: their cycles.
    alone: &'a [(&'static str, Vec<u64>)],
    /// The benchmark suite's, then the games suite's.
    searches: &'a [search::SearchRuns],
    usage: &'a [RegionUsage],
    wall_seconds: f64,
}

impl Figures<'_> {
    fn json(&self) -> Value {
        let routine = |r: &RoutineProfile, nodes: u64| {
            json!({
                "name": r.name,
                "calls": r.calls,
                "cycles": r.cycles,
                "cycles_per_call": r.cycles_per_call(),
                "cycles_per_node": r.cycles as f64 / nodes.max(1) as f64,
            })
        };
        let perft = self.perft;
        let seconds = dmg_time::seconds(perft.cycles);
        let suite = |runs: &search::SearchRuns| {
            let mut figures = json!({
                "path": runs.path,
                "positions": runs.positions,
                "search_routines": runs.routines.iter()
                    .map(|r| routine(r, runs.profiled.0)).collect::<Vec<_>>(),
            });
            for run in &runs.levels {
                figures[run.level.key()] = json!({
                    "depth": run.level.depth(),
                    "median_seconds": run.times.median_seconds(),
                    "max_seconds": run.times.max_seconds(),
                    "median_cycles": run.times.median_cycles,
                    "max_cycles": run.times.max_cycles,
                    "nodes": run.nodes,
                    "nodes_per_second": run.nodes_per_second(),
                    "target_median_seconds": run.level.median_target,
                    "target_max_seconds": run.level.max_target,
                    "targets_met": run.meets_targets(),
                    "slowest_line": run.slowest.0,
                });
            }
            figures
        };
        // The benchmark suite's figures at the top (`easy`, `medium`, `hard`, as before
        // the games suite), the games suite's under `games`.
        let mut figures = suite(&self.searches[0]);
        figures["wall_seconds"] = json!(self.wall_seconds);
        figures["perft"] = json!({
            "depth": perft.depth,
            "nodes": perft.nodes,
            "cycles": perft.cycles,
            "seconds": seconds,
            "cycles_per_leaf": perft.cycles as f64 / perft.nodes as f64,
            "nodes_per_second": perft.nodes as f64 / seconds,
            "routines": perft.routines.iter().map(|r| routine(r, perft.nodes)).collect::<Vec<_>>(),
        });
        figures["routines_alone"] = json!(self
            .alone
            .iter()
            .map(|(routine, cycles)| json!({
                "name": routine,
                "positions": cycles.len(),
                "mean_cycles": cycles.iter().sum::<u64>() as f64 / cycles.len().max(1) as f64,
                "min_cycles": cycles.iter().min(),
                "max_cycles": cycles.iter().max(),
            }))
            .collect::<Vec<_>>());
        figures["usage"] = json!(self
            .usage
            .iter()
            .map(|u| json!({
                "region": region_name(u.kind),
                "used": u.used,
                "size": u.size,
            }))
            .collect::<Vec<_>>());
        if let Some(games) = self.searches.get(1) {
            figures["games"] = suite(games);
        }
        figures
    }
}

/// What one perft run on the engine measured.
struct PerftRun {
    depth: u32,
    nodes: u64,
    cycles: u64,
    routines: Vec<RoutineProfile>,
    /// Routines of [`ROUTINES`] that the test ROM's `.sym` does not have.
    missing: Vec<&'static str>,
}

/// Perft from the start position with the main routines profiled.
fn measure_perft(rom: &mut RomEngine, depth: u32) -> Result<PerftRun> {
    let start = Position::start();
    let machine = rom.machine_mut();
    let (present, missing): (Vec<&'static str>, Vec<&'static str>) = ROUTINES
        .iter()
        .partition(|name| machine.symbols().get(name).is_some());
    machine.start_profile(present.iter().map(|&name| Location::Label(name)))?;
    let before = rom.cycles();
    let nodes = rom.perft(&start, &[], depth);
    let cycles = rom.cycles() - before;
    let routines = rom.machine_mut().stop_profile();
    let nodes = nodes?;
    let want = engine_src::perft::perft(&start, depth);
    if nodes != want {
        bail!(
            "the ROM counts {nodes} leaves for perft({depth}) from the start position, the \
             reference model {want}: run `cargo xtask verify` to see where they differ"
        );
    }
    Ok(PerftRun {
        depth,
        nodes,
        cycles,
        routines,
        missing,
    })
}

fn perft_table(run: &PerftRun) -> String {
    let seconds = dmg_time::seconds(run.cycles);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "perft({}) from the start position on {}: the engine as the cartridge runs it",
        run.depth,
        rom::UNCHECKED_TEST_ROM
    );
    let rows = [
        ("leaves (nodes)", run.nodes.to_string()),
        ("machine cycles", run.cycles.to_string()),
        ("DMG seconds", format!("{seconds:.2}")),
        (
            "cycles per leaf",
            format!("{:.1}", run.cycles as f64 / run.nodes as f64),
        ),
        (
            "nodes per DMG second",
            format!("{:.0}", run.nodes as f64 / seconds),
        ),
    ];
    for (what, value) in rows {
        let _ = writeln!(out, "  {what:<22} {value:>12}");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "routines during perft({}): calls, cycles with their callees",
        run.depth
    );
    let _ = writeln!(
        out,
        "  {:<16} {:>10} {:>12} {:>12} {:>7}",
        "routine", "calls", "cycles", "per call", "share"
    );
    for routine in &run.routines {
        let per_call = routine
            .cycles_per_call()
            .map_or("-".to_string(), |cycles| format!("{cycles:.1}"));
        let _ = writeln!(
            out,
            "  {:<16} {:>10} {:>12} {:>12} {:>6.1}%",
            routine.name,
            routine.calls,
            routine.cycles,
            per_call,
            routine.cycles as f64 * 100.0 / run.cycles as f64
        );
    }
    for name in &run.missing {
        let _ = writeln!(
            out,
            "  {name:<16} (no such label in {})",
            rom::UNCHECKED_TEST_ROM
        );
    }
    out
}

/// Cycles of one `IsInCheck` call (the `call` not included) in each position of the perft
/// suite, each answer checked against the reference model.
fn measure_in_check(rom: &mut RomEngine) -> Result<Vec<u64>> {
    let mut cycles = Vec::new();
    let entries = suite::checked_in()?;
    let progress = Progress::new("bench: IsInCheck", entries.len() as u64);
    for suite::Entry { fen, position, .. } in entries {
        progress.advance(1);
        // Perft to depth 0 loads the position and counts it: nothing else.
        rom.perft(&position, &[], 0)?;
        let machine = rom.machine_mut();
        cycles.push(machine.call(Location::Label("IsInCheck"), IN_CHECK_BUDGET)?);
        let in_check = machine.registers().a() == 1;
        if in_check != position.is_check() {
            bail!(
                "IsInCheck says {} in {fen}, the reference model {}",
                if in_check { "check" } else { "no check" },
                if position.is_check() {
                    "check"
                } else {
                    "no check"
                }
            );
        }
    }
    Ok(cycles)
}

/// More than any position can cost: a failing routine stops the bench, not the machine.
const IN_CHECK_BUDGET: u64 = 10_000;
/// The same for a move generator.
const GENERATOR_BUDGET: u64 = 100_000;

/// Cycles of what the search does at a quiescence node, each routine called on its own
/// (the `call` not included) in every position of the perft suite, its answer checked
/// against the reference model: `Evaluate`, `GenerateQuiescenceMoves`, and
/// `GenerateMoves` beside it for comparison.
fn measure_quiescence(rom: &mut RomEngine) -> Result<Vec<(&'static str, Vec<u64>)>> {
    let entries = suite::checked_in()?;
    let progress = Progress::new("bench: quiescence routines", entries.len() as u64);
    let mut evaluate = Vec::new();
    let mut quiescence = Vec::new();
    let mut full = Vec::new();
    let mut make = Vec::new();
    let mut unmake = Vec::new();
    for suite::Entry { fen, position, .. } in entries {
        progress.advance(1);
        // Perft to depth 0 loads the position and counts it: nothing else.
        rom.perft(&position, &[], 0)?;
        let machine = rom.machine_mut();
        evaluate.push(machine.call(Location::Label("Evaluate"), IN_CHECK_BUDGET)?);
        let score = machine.registers().hl as i16;
        let want = engine_src::eval::evaluate(&position);
        if score != want {
            bail!("Evaluate gives {score} in {fen}, the reference model {want}");
        }
        let legal = position.legal_moves();
        let quiescence_moves = legal.iter().filter(|m| m.is_quiescence()).count();
        let list = machine.symbol("wMoveStack")?;
        for (routine, cycles, want) in [
            ("GenerateQuiescenceMoves", &mut quiescence, quiescence_moves),
            ("GenerateMoves", &mut full, legal.len()),
        ] {
            let mut registers = machine.registers();
            registers.hl = list;
            // (c non-zero: GenerateQuiescenceMoves lists the legal moves)
            registers.bc = 1;
            machine.set_registers(&registers);
            cycles.push(machine.call(Location::Label(routine), GENERATOR_BUDGET)?);
            let listed = usize::from(machine.registers().hl.wrapping_sub(list)) / 2;
            if listed != want {
                bail!("{routine} lists {listed} moves in {fen}, the reference model {want}");
            }
        }
        // Each quiescence move made and unmade, as the quiescence search does (the list
        // is written again: GenerateMoves wrote over it).
        let mut registers = machine.registers();
        registers.hl = list;
        registers.bc = 1;
        machine.set_registers(&registers);
        machine.call(Location::Label("GenerateQuiescenceMoves"), GENERATOR_BUDGET)?;
        let moves = machine.read(Location::Address(list), 2 * quiescence_moves)?;
        for m in moves.chunks_exact(2) {
            for (routine, cycles) in [("MakeMove", &mut make), ("UnmakeMove", &mut unmake)] {
                let mut registers = machine.registers();
                registers.de = u16::from(m[0]) << 8 | u16::from(m[1]);
                machine.set_registers(&registers);
                cycles.push(machine.call(Location::Label(routine), IN_CHECK_BUDGET)?);
            }
        }
        let score = machine.read("hWhiteScore", 2)?;
        let want = engine_src::eval::white_score(&position);
        if i16::from_le_bytes([score[0], score[1]]) != want {
            bail!("making and unmaking the quiescence moves of {fen} leaves a score other than {want}");
        }
    }
    Ok(vec![
        ("Evaluate", evaluate),
        ("GenerateQuiescenceMoves", quiescence),
        ("GenerateMoves", full),
        ("MakeMove of a quiescence move", make),
        ("UnmakeMove of a quiescence move", unmake),
    ])
}

/// The cycles of `routine` called on its own in each position of the suite: the mean,
/// the fewest and the most.
fn alone_table(routine: &str, cycles: &[u64]) -> String {
    let heading = format!(
        "{routine} on its own, {} calls in the positions of the perft suite",
        cycles.len()
    );
    cycles_table(&heading, cycles)
}

/// `heading`, then the mean, the fewest and the most of `cycles`.
fn cycles_table(heading: &str, cycles: &[u64]) -> String {
    let total: u64 = cycles.iter().sum();
    let mut out = String::new();
    let _ = writeln!(out, "{heading}");
    let rows = [
        ("fewest cycles", cycles.iter().min().copied().unwrap_or(0)),
        ("most cycles", cycles.iter().max().copied().unwrap_or(0)),
    ];
    let _ = writeln!(
        out,
        "  {:<22} {:>12.1}",
        "mean cycles per call",
        total as f64 / cycles.len().max(1) as f64
    );
    for (what, value) in rows {
        let _ = writeln!(out, "  {what:<22} {value:>12}");
    }
    out
}

/// ROM and RAM used by the cartridge (as `cargo xtask usage` counts them): the regions
/// the table shows.
fn cartridge_usage() -> Result<Vec<RegionUsage>> {
    let build = rom::cartridge()?;
    let shown = [
        SectionKind::Rom0,
        SectionKind::Romx,
        SectionKind::Wram0,
        SectionKind::Wramx,
        SectionKind::Hram,
    ];
    Ok(region_usage(&build.linked)
        .into_iter()
        .filter(|usage| shown.contains(&usage.kind))
        .collect())
}

fn usage_table(usage: &[RegionUsage]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "ROM and RAM of the cartridge ({})", rom::ROM_PATH);
    let _ = writeln!(
        out,
        "  {:<16} {:>10} {:>12} {:>7}",
        "region", "used", "size", "used"
    );
    for usage in usage {
        let _ = writeln!(
            out,
            "  {:<16} {:>10} {:>12} {:>6.1}%",
            region_name(usage.kind),
            usage.used,
            usage.size,
            usage.percent()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::CYCLES_PER_SECOND;

    #[test]
    fn the_perft_table_shows_every_figure() {
        let run = PerftRun {
            depth: 4,
            nodes: 20892,
            cycles: 2 * CYCLES_PER_SECOND,
            routines: vec![RoutineProfile {
                name: "MakeMove".to_string(),
                address: 0x1234,
                calls: 1000,
                cycles: 524_288,
                unwound: 0,
            }],
            missing: vec!["IsInCheck"],
        };
        assert_eq!(
            perft_table(&run),
            "perft(4) from the start position on the test ROM without its stack checks: \
             the engine as the cartridge runs it
  leaves (nodes)                20892
  machine cycles              2097152
  DMG seconds                    2.00
  cycles per leaf               100.4
  nodes per DMG second          10446

routines during perft(4): calls, cycles with their callees
  routine               calls       cycles     per call   share
  MakeMove               1000       524288        524.3   25.0%
  IsInCheck        (no such label in the test ROM without its stack checks)
"
        );
    }

    #[test]
    fn the_in_check_table_shows_mean_fewest_and_most() {
        assert_eq!(
            alone_table("IsInCheck", &[300, 350, 400]),
            "IsInCheck on its own, 3 calls in the positions of the perft suite
  mean cycles per call          350.0
  fewest cycles                   300
  most cycles                     400
"
        );
    }

    #[test]
    fn the_usage_section_lists_rom_and_ram() {
        let section = usage_table(&cartridge_usage().unwrap());
        assert!(section.starts_with("ROM and RAM of the cartridge (build/chessattack.gb)\n"));
        for region in ["ROM0", "WRAM0", "HRAM"] {
            assert!(section.contains(&format!("\n  {region:<16}")), "{section}");
        }
    }
}
