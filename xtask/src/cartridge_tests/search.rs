//! The SM83 search (asm/engine/search.asm, order.asm) against the reference model's
//! (engine-src/src/search.rs), through the test driver's TEST_SEARCH: the results on a
//! few positions, the node budget, the stop flag, and the searches xtask refuses.

use engine_src::search::{search, Limits};
use engine_src::{Game, Position};

use crate::rom_engine::{RomEngine, SearchAnswer};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// The ROM's search of `fen` within `limits`, asserted equal to the model's.
fn assert_search_as_model(rom: &mut RomEngine, fen: &str, limits: Limits) -> SearchAnswer {
    let start = position(fen);
    let model = SearchAnswer::of_model(&search(&Game::new(start), limits)).unwrap();
    let answer = rom
        .search(&start, &[], limits)
        .unwrap_or_else(|error| panic!("{fen}: {error:#}"));
    assert_eq!(
        answer, model,
        "{fen} at depth {}, budget {}",
        limits.depth, limits.nodes
    );
    answer
}

#[test]
fn searches_equal_the_models() {
    let mut rom = RomEngine::for_tests();
    for fen in [
        engine_src::START_FEN,
        "2k2/5/2K2/5/5/R4 w - - 0 1",
        "r3k/1P3/5/5/5/R3K w Qq - 0 1",
    ] {
        for depth in 1..=4 {
            assert_search_as_model(&mut rom, fen, Limits::depth(depth));
        }
    }
}

/// Where the stop flag was set and where SearchBestMove returned, in machine cycles
/// from the start of the command; and the answer.
struct Stopped {
    set_at: u64,
    returned_at: u64,
    answer: SearchAnswer,
}

/// A search of `fen` to `depth` with hSearchStop set `after` cycles into the command, as
/// an interrupt handler would set it.
fn search_stopped_after(rom: &mut RomEngine, fen: &str, depth: u8, after: u64) -> Stopped {
    let returned = rom.machine_mut().symbol("TestSearch.searched").unwrap();
    let stop_flag = rom.machine_mut().symbol("hSearchStop").unwrap();
    let mut set_at = None;
    let mut returned_at = None;
    let answer = rom
        .search_with(
            &position(fen),
            &[],
            Limits::depth(depth),
            |machine, elapsed| {
                if set_at.is_none() && elapsed >= after {
                    machine.write_u8(stop_flag, 1).unwrap();
                    set_at = Some(elapsed);
                }
                if returned_at.is_none() && machine.pc() == returned {
                    returned_at = Some(elapsed);
                }
            },
        )
        .unwrap_or_else(|error| panic!("{error:#}"));
    Stopped {
        set_at: set_at.expect("the search ended before the flag was set"),
        returned_at: returned_at.expect("SearchBestMove did not return"),
        answer,
    }
}

#[test]
fn debug_timings() {
    let build = crate::rom::test_driver_rom(false).unwrap();
    let mut rom = RomEngine::boot(&build.rom, &build.sym).unwrap();
    for fen in [
        engine_src::START_FEN,
        "r1bqk/ppp1p/2n2/3pP/PP3/RNBQK w Qq - 0 4",
        "rnbqk/p2pp/1p3/2pP1/PPP1P/RNBQK w Qq - 0 5",
        "2k2/5/2K2/5/5/R4 w - - 0 1",
    ] {
        for depth in 2..=4 {
            rom.machine_mut()
                .start_profile(
                    [
                        "Search",
                        "OrderMoves",
                        "PickNextMove",
                        "GenerateMoves",
                        "MakeMove",
                        "UnmakeMove",
                        "IsRepetition",
                        "Evaluate",
                        "UpdatePv",
                    ]
                    .map(crate::harness::Location::Label),
                )
                .unwrap();
            let before = rom.cycles();
            let a = assert_search_as_model(&mut rom, fen, Limits::depth(depth));
            let cycles = rom.cycles() - before;
            let prof = rom.machine_mut().stop_profile();
            println!(
                "{fen} d{depth}: {a} cycles {cycles} per node {:.0}",
                cycles as f64 / a.nodes as f64
            );
            if depth == 4 {
                for r in prof {
                    println!(
                        "   {:<14} calls {:>7} cycles {:>9} per call {:.0}",
                        r.name,
                        r.calls,
                        r.cycles,
                        r.cycles as f64 / r.calls.max(1) as f64
                    );
                }
            }
        }
    }
}
