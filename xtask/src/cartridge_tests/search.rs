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
    assert_eq!(answer, model, "{fen} at depth {}, budget {}", limits.depth, limits.nodes);
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

#[test]
fn debug_print_searches() {
    let mut rom = RomEngine::for_tests();
    for fen in [engine_src::START_FEN, "2k2/5/2K2/5/5/R4 w - - 0 1", "r3k/1P3/5/5/5/R3K w Qq - 0 1"] {
        for depth in 1..=4 {
            let before = rom.cycles();
            let a = assert_search_as_model(&mut rom, fen, Limits::depth(depth));
            println!("{fen} d{depth}: {a} cycles {}", rom.cycles() - before);
        }
    }
}
