//! The command line of `cargo xtask`, all of it: every task, its arguments and their
//! defaults. `main` parses it and hands each task its arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use engine_src::search::Level;

/// `perft --depth` unless given.
pub const DEFAULT_PERFT_DEPTH: u32 = 4;
/// Positions of random games `verify` compares unless `--positions` says otherwise.
pub const DEFAULT_VERIFY_POSITIONS: u32 = 6000;
/// Positions `crosscheck` compares unless `--positions` says otherwise.
pub const DEFAULT_CROSSCHECK_POSITIONS: u32 = 300;
/// Where `apt-get install fairy-stockfish` puts the engine.
pub const DEFAULT_FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Build tool for the Chess Attack Game Boy cartridge"
)]
pub struct Cli {
    #[command(subcommand)]
    pub task: Task,
}

#[derive(Subcommand)]
pub enum Task {
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
    Bench(BenchArgs),
    /// How full each ROM bank and RAM area is.
    Usage,
    /// Ten emulated minutes of random presses (every move checked by the reference
    /// model) and of a chess clock running down, in the emulator.
    Soak,
    /// Run the ROM headless with a scripted button sequence and write PNG screenshots.
    Shot(ShotArgs),
    /// Play the reference search's levels against Fairy-Stockfish and each other.
    Match(MatchArgs),
    /// Analyse the opening book's positions (engine-src/book/lines.txt) with
    /// Fairy-Stockfish into engine-src/book/book.txt.
    Book(BookArgs),
}

#[derive(clap::Args)]
#[command(after_help = crate::run::keys::help())]
pub struct RunArgs {
    /// Play this .gb file instead of building and playing build/chessattack.gb.
    #[arg(long)]
    pub rom: Option<PathBuf>,
    /// Each Game Boy pixel as N x N pixels (default: the window about two thirds of the
    /// screen's height).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=crate::run::MAX_SCALE as i64))]
    pub scale: Option<u32>,
    /// The console: a DMG (greys), a Game Boy Color (the window in colour) or a Game Boy
    /// Advance (the colours lifted for its darker screen).
    #[arg(long, value_enum, default_value = "dmg")]
    pub model: Model,
}

/// The consoles `run` emulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    Dmg,
    Cgb,
    Gba,
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
    #[arg(long, default_value_t = DEFAULT_PERFT_DEPTH)]
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
    #[arg(long, default_value_t = DEFAULT_VERIFY_POSITIONS)]
    pub positions: u32,
    /// Seed of the random games (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Compare the searches on this list of positions (one FEN a line, `#` comments)
    /// instead of the checked-in search suite.
    #[arg(long)]
    pub search_suite: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Print one JSON object with every figure instead of the tables.
    #[arg(long, conflicts_with = "make_suite")]
    pub json: bool,
    /// Search only the first N positions of the benchmark suite (a quicker, rougher run).
    #[arg(long, value_name = "N", conflicts_with = "make_suite", value_parser = clap::value_parser!(u32).range(1..))]
    pub positions: Option<u32>,
    /// Write the benchmark suite engine-src/search/bench.txt anew from games
    /// Fairy-Stockfish plays against itself (nothing is measured).
    #[arg(long)]
    pub make_suite: bool,
    /// The Fairy-Stockfish binary, for --make-suite.
    #[arg(long, default_value = DEFAULT_FAIRY_STOCKFISH, requires = "make_suite")]
    pub engine: PathBuf,
}

#[derive(clap::Args)]
pub struct CrosscheckArgs {
    /// How many positions to compare (at least one).
    #[arg(long, default_value_t = DEFAULT_CROSSCHECK_POSITIONS, value_parser = clap::value_parser!(u32).range(1..))]
    pub positions: u32,
    /// Seed of the random games (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Fairy-Stockfish binary.
    #[arg(long, default_value = DEFAULT_FAIRY_STOCKFISH)]
    pub engine: PathBuf,
}

#[derive(clap::Args)]
pub struct MatchArgs {
    /// How many openings of engine-src/search/openings.txt to play, each twice with the
    /// colours swapped (default: all of them; with --cartridge 20).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub openings: Option<u32>,
    /// The levels that play (comma-separated).
    #[arg(long, value_delimiter = ',', value_parser = parse_level, default_value = "easy,medium,hard")]
    pub levels: Vec<Level>,
    /// The Fairy-Stockfish depths each level plays (comma-separated; `go depth N`;
    /// default 1,2,3,4, with --cartridge 4).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=20))]
    pub fairy_depths: Vec<u8>,
    /// Seed of the choice of openings when --openings asks for fewer than all.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The Fairy-Stockfish binary.
    #[arg(long, default_value = DEFAULT_FAIRY_STOCKFISH)]
    pub engine: PathBuf,
    /// Play the built cartridge (build/chessattack.gb) in the emulator through its
    /// joypad instead of the reference search, and report the engine's think times.
    #[arg(long)]
    pub cartridge: bool,
    /// With --cartridge: write every engine move (level, game, ply, frames, FEN) to FILE.
    #[arg(long, value_name = "FILE", requires = "cartridge")]
    pub out: Option<PathBuf>,
    /// With --cartridge: print one JSON object with every figure instead of the tables.
    #[arg(long, requires = "cartridge")]
    pub json: bool,
    /// With --cartridge: write every engine position of the games to bench's games
    /// suite engine-src/search/games.txt.
    #[arg(long, requires = "cartridge")]
    pub make_suite: bool,
}

#[derive(clap::Args)]
pub struct BookArgs {
    /// The Fairy-Stockfish binary.
    #[arg(long, default_value = DEFAULT_FAIRY_STOCKFISH)]
    pub engine: PathBuf,
}

/// `easy`, `medium` or `hard`, in any case.
fn parse_level(text: &str) -> Result<Level, String> {
    Level::ALL
        .into_iter()
        .find(|level| level.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| format!("`{text}` is not a level: easy, medium or hard"))
}
