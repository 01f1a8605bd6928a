//! `cargo xtask`: the one build tool of Chess Attack.
//!
//! `main` only parses the command line (all of it is defined in [`cli`]) and
//! dispatches to one module per task. Every task returns `anyhow::Result`; an error is
//! printed as one clear message (with its causes) and the process exits non-zero.
//! User mistakes never end in a panic backtrace.

mod asm;
mod assets;
mod bench;
mod book;
mod cartridge_match;
#[cfg(test)]
mod cartridge_tests;
mod cli;
mod crosscheck;
mod dmg_time;
mod fairy;
mod harness;
mod perft;
mod positions;
mod progress;
mod project;
mod random;
mod random_games;
mod rom;
mod rom_engine;
mod run;
mod shot;
mod soak;
mod strength;
mod suite;
mod usage;
mod verify;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Task};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Rom(args) => rom::run(&args),
        Task::Run(args) => run::run(&args),
        Task::Assets { check } => assets::run(check),
        Task::Verify(args) => verify::run(&args),
        Task::Perft(args) => perft::run(&args),
        Task::Crosscheck(args) => crosscheck::run(&args),
        Task::Bench(args) => bench::run(&args),
        Task::Usage => usage::run(),
        Task::Soak => soak::run(),
        Task::Shot(args) => shot::run(&args),
        Task::Match(args) => strength::run(&args),
        Task::Book(args) => book::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
