//! `cargo xtask`: the one build tool of Chess Attack.
//!
//! `main` only parses the command line (all of it is defined here, in one place) and
//! dispatches to one module per task. Every task returns `anyhow::Result`; an error is
//! printed as one clear message (with its causes) and the process exits non-zero.
//! User mistakes never end in a panic backtrace.

mod asm;
mod assets;
#[cfg(test)]
mod audio_tests;
mod bench;
#[cfg(test)]
mod cartridge_tests;
mod crosscheck;
#[cfg(test)]
mod engine_tests;
mod fairy;
mod harness;
mod perft;
mod project;
mod rom;
mod rom_engine;
mod run;
mod shot;
mod usage;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Build tool for the Chess Attack Game Boy cartridge"
)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build build/chessattack.gb (with .sym and .map beside it).
    Rom(RomArgs),
    /// Build the ROM and play it in a desktop window, with keyboard and sound.
    Run(RunArgs),
    /// Regenerate generated/ from assets/ and engine-src/.
    Assets {
        /// Fail if anything in generated/ is stale instead of rewriting it.
        #[arg(long)]
        check: bool,
    },
    /// Compare the assembly engine in the emulator with the reference model.
    Verify(VerifyArgs),
    /// Count leaf nodes of the legal move tree (perft) with either engine.
    Perft(PerftArgs),
    /// Play random games against Fairy-Stockfish and compare legal moves and perft(3).
    Crosscheck(CrosscheckArgs),
    /// The performance benchmark, in emulated machine cycles.
    Bench,
    /// How full each ROM bank and RAM area is.
    Usage,
    /// Run the ROM headless with a scripted button sequence and write PNG screenshots.
    Shot(ShotArgs),
}

#[derive(clap::Args)]
pub struct ShotArgs {
    /// Write nothing; fail if a screenshot in generated/screenshots/ is not what the ROM shows.
    #[arg(long)]
    pub check: bool,
}

#[derive(clap::Args)]
pub struct RomArgs {
    /// Build with rgbasm, rgblink and rgbfix from PATH instead of the in-tree assembler.
    #[arg(long)]
    pub rgbds: bool,
    /// Build the engine's test ROM build/test.gb (engine and test driver, no game).
    #[arg(long)]
    pub test_driver: bool,
}

#[derive(clap::Args)]
#[command(after_help = run::keys::help())]
pub struct RunArgs {
    /// Play this .gb file instead of building and playing build/chessattack.gb.
    #[arg(long)]
    pub rom: Option<PathBuf>,
    /// Each Game Boy pixel as N x N pixels (default: the window about two thirds of the
    /// screen's height).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=run::MAX_SCALE as i64))]
    pub scale: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// The Rust reference model in engine-src/.
    Reference,
    /// The SM83 assembly engine, run in the emulator.
    Rom,
}

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Which engine counts.
    #[arg(long, value_enum, default_value = "reference")]
    pub engine: Engine,
    /// Position to start from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Print the count below each legal move of the root.
    #[arg(long)]
    pub divide: bool,
    /// Run a suite of `FEN ;D1 n ;D2 n ...` lines instead of one position.
    #[arg(long, conflicts_with_all = ["fen", "divide"])]
    pub epd: Option<PathBuf>,
    /// With --epd, skip entries deeper than this.
    #[arg(long)]
    pub max_depth: Option<u32>,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// How many positions of random games to compare legal moves and verdicts on.
    #[arg(long, default_value_t = verify::DEFAULT_POSITIONS)]
    pub positions: u32,
    /// Seed of the random games (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(clap::Args)]
pub struct CrosscheckArgs {
    /// How many positions to compare.
    #[arg(long, default_value_t = 300)]
    pub positions: u32,
    /// Seed of the random games (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Fairy-Stockfish binary.
    #[arg(long, default_value = "/usr/games/fairy-stockfish")]
    pub engine: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Rom(args) => rom::run(&args),
        Task::Run(args) => run::run(&args),
        Task::Assets { check } => assets::run(check),
        Task::Verify(args) => verify::run(&args),
        Task::Perft(args) => perft::run(&args),
        Task::Crosscheck(args) => crosscheck::run(&args),
        Task::Bench => bench::run(),
        Task::Usage => usage::run(),
        Task::Shot(args) => shot::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
