//! The SM83 search (asm/engine/search.asm, order.asm) against the reference model's
//! (engine-src/src/search.rs), through the test driver's TEST_SEARCH: the results on a
//! few positions, the node budget, the stop flag, and the searches xtask refuses.

use engine_src::search::{search, Limits};
use engine_src::{Game, Position};

use super::support::position;
use crate::rom_engine::{RomEngine, RomMove, SearchAnswer};

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

/// The ROM's search of the game `moves` (UCI) lead to from `fen`, asserted equal to the
/// model's.
fn assert_game_search_as_model(
    rom: &mut RomEngine,
    fen: &str,
    moves: &[&str],
    limits: Limits,
) -> SearchAnswer {
    let start = position(fen);
    let mut game = Game::new(start);
    for text in moves {
        let m = game.position().parse_uci(text).unwrap();
        game.play(m).unwrap();
    }
    let history: Vec<RomMove> = game.moves().iter().map(RomMove::of).collect();
    let model = SearchAnswer::of_model(&search(&game, limits)).unwrap();
    let answer = rom
        .search(&start, &history, limits)
        .unwrap_or_else(|error| panic!("{fen}: {error:#}"));
    assert_eq!(answer, model, "{fen} {moves:?} within {limits:?}");
    answer
}

#[test]
fn searches_equal_the_models_at_depths_1_to_4() {
    let mut rom = RomEngine::for_tests();
    for fen in [
        engine_src::START_FEN,
        // White mates with Ra1-a6 (found from depth 2).
        "2k2/5/2K2/5/5/R4 w - - 0 1",
        // Promotions, with a capture and without.
        "r3k/1P3/5/5/5/R3K w Qq - 0 1",
        // Black to move, pieces of every kind.
        "r1bqk/ppp1p/2n2/3pP/PP3/RNBQK b Qq - 0 4",
    ] {
        for depth in 1..=4 {
            assert_search_as_model(&mut rom, fen, Limits::depth(depth));
        }
    }
}

#[test]
fn the_start_position_to_depth_4() {
    let mut rom = RomEngine::for_tests();
    let answer = assert_search_as_model(&mut rom, engine_src::START_FEN, Limits::depth(4));
    assert_eq!(
        answer.to_string(),
        "b2b3 score 8 nodes 544 depth 4 pv b2b3 b5b4 d2d3 d5d4"
    );
}

#[test]
fn a_mate_in_one_is_found_at_depth_1_and_ends_the_iterations() {
    // Depth 1 sees the mate: the mating move gives check and is searched a ply deeper
    // (the check extension).
    let mut rom = RomEngine::for_tests();
    let answer = assert_search_as_model(&mut rom, "2k2/5/2K2/5/5/R4 w - - 0 1", Limits::depth(8));
    assert_eq!(
        answer.to_string(),
        "a1a6 score 30999 nodes 15 depth 1 pv a1a6"
    );
}

/// Searches each of `cases` (a FEN, the answer) at HARD: the ROM's search must be the
/// model's and give the answer. Then the same root again, stopped: by HARD's limits with
/// a budget of 40 and of 150 nodes (the model's searches too), and by the stop flag
/// (the time guard's, move now's) 50,000 cycles into a search of depth 8. After every
/// one White's score must be the position's again and neither a mop-up nor a king's
/// endgame be left on (their bonus and entries taken off by EndMopUp and EndKingEndgame)
/// for the next search or the game's moves.
fn assert_hard_searches_leave_the_score(cases: &[(&str, &str)]) {
    let mut rom = RomEngine::for_tests();
    let hard = engine_src::search::Level::Hard.limits();
    for &(fen, answer) in cases {
        let found = assert_search_as_model(&mut rom, fen, hard);
        assert_eq!(found.to_string(), answer, "{fen}");
        assert_score_left_clean(&mut rom, fen, "a whole search");
        for nodes in [40, 150] {
            assert_search_as_model(&mut rom, fen, Limits { nodes, ..hard });
            assert_score_left_clean(&mut rom, fen, &format!("stopped at {nodes} nodes"));
        }
        search_stopped_after(&mut rom, fen, 8, 50_000);
        assert_score_left_clean(&mut rom, fen, "stopped by the flag");
    }
}

/// After a search from `fen`: White's score is the position's and hMopUp and
/// hKingEndgame are 0.
fn assert_score_left_clean(rom: &mut RomEngine, fen: &str, what: &str) {
    let machine = rom.machine_mut();
    let white = machine.read("hWhiteScore", 2).unwrap();
    assert_eq!(
        i16::from_le_bytes([white[0], white[1]]),
        engine_src::eval::white_score(&position(fen)),
        "{fen}, {what}"
    );
    assert_eq!(machine.read("hMopUp", 1).unwrap(), [0], "{fen}, {what}");
    assert_eq!(
        machine.read("hKingEndgame", 1).unwrap(),
        [0],
        "{fen}, {what}"
    );
}

#[test]
fn a_mop_up_lives_for_its_search_alone() {
    // A bare king against a rook, a queen, a bishop and knight (the searches with the
    // bonus of eval::MopUp in their scores).
    assert_hard_searches_leave_the_score(&[
        (
            "R4/5/1k3/3K1/5/5 w - - 0 1",
            "a6e6 score 545 nodes 593 depth 4 pv a6e6 b4c5 d3c3 c5b5",
        ),
        (
            "5/1k3/5/1q3/5/3K1 w - - 0 1",
            "d1d2 score -993 nodes 731 depth 4 pv d1d2 b3c4 d2e3 c4c3 e3e4",
        ),
        (
            "5/5/2b2/2kn1/5/1K3 w - - 0 1",
            "b1a1 score -696 nodes 135 depth 4 pv b1a1 c3b3 a1b1 b3b4",
        ),
    ]);
}

#[test]
fn a_kings_endgame_lives_for_its_search_alone() {
    // Roots of a phase of at most 4 (eval::is_king_endgame), White and Black to move,
    // one with the long castle played inside the search (the kings reading
    // eval::ENDGAME_KING).
    assert_hard_searches_leave_the_score(&[
        (
            "r3k/pp1pp/2n2/2N2/PP1PP/R3K w Qq - 2 5",
            "b2b3 score 69 nodes 669 depth 4 pv b2b3 c4a3 e1c1 b5b4",
        ),
        (
            "k4/p4/n4/5/3Q1/K4 b - - 0 1",
            "a4c5 score -457 nodes 1007 depth 4 pv a4c5 d2e2 a6b6 a1b2 b6c6",
        ),
        (
            "5/1k1P1/4q/5/P4/K4 w - - 0 1",
            "d5d6n score 378 nodes 452 depth 4 pv d5d6n b5c5 d6e4 c5d4 e4d2 d4c3",
        ),
    ]);
}

#[test]
fn the_game_history_and_the_node_budget_are_the_models() {
    let mut rom = RomEngine::for_tests();
    // The knights went out and back twice: the start position came back.
    let shuffles = [
        "b1c3", "b6c4", "c3b1", "c4b6", "b1c3", "b6c4", "c3b1", "c4b6",
    ];
    for depth in 1..=3 {
        assert_game_search_as_model(
            &mut rom,
            engine_src::START_FEN,
            &shuffles,
            Limits::depth(depth),
        );
    }
    for nodes in [1, 2, 13, 14, 100, 1000] {
        let limits = Limits::budget(4, nodes);
        assert_search_as_model(&mut rom, engine_src::START_FEN, limits);
        assert_game_search_as_model(&mut rom, engine_src::START_FEN, &shuffles[..4], limits);
    }
}

#[test]
fn searches_without_a_move_or_with_bad_limits_are_refused_before_the_rom_is_asked() {
    let mut rom = RomEngine::for_tests();
    let start = Position::start();
    let refused = |rom: &mut RomEngine, start: &Position, history: &[RomMove], limits: Limits| {
        let before = rom.cycles();
        let error = rom.search(start, history, limits).unwrap_err().to_string();
        assert_eq!(rom.cycles(), before, "the ROM was asked: {error}");
        error
    };
    assert_eq!(
        refused(&mut rom, &start, &[], Limits::depth(0)),
        "search depth 0 is out of range: it must be 1 to 8"
    );
    assert_eq!(
        refused(&mut rom, &start, &[], Limits::depth(9)),
        "search depth 9 is out of range: it must be 1 to 8"
    );
    assert_eq!(
        refused(&mut rom, &start, &[], Limits::budget(2, 0)),
        "the node budget must be at least 1"
    );
    assert_eq!(
        refused(&mut rom, &start, &[], Limits::budget(2, 1 << 32)),
        "a node budget of 4294967296 does not fit the ROM's 32 bits: at most 4294967294"
    );
    let mated = position("k4/1Q3/1K3/5/5/5 b - - 0 1");
    assert_eq!(
        refused(&mut rom, &mated, &[], Limits::depth(2)),
        "the position has no legal move (checkmate): there is nothing to search"
    );
    let stalemated = position("k4/2Q2/1K3/5/5/5 b - - 0 1");
    assert_eq!(
        refused(&mut rom, &stalemated, &[], Limits::depth(2)),
        "the position has no legal move (stalemate): there is nothing to search"
    );
    let b1c3 = RomMove::of(&start.parse_uci("b1c3").unwrap());
    assert_eq!(
        refused(&mut rom, &start, &[b1c3, b1c3], Limits::depth(2)),
        "history move 2 (b1c3) is not legal there"
    );
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

/// The stop flag's promise: the search returns within this many machine cycles of
/// hSearchStop being set, wherever it is set (5.6 ms, a third of a frame's 17,556; the
/// search's rules since the transposition table do more between nodes, and its unwinding
/// ply by ply took up to 5,360 on the stop points below):
/// the cartridge sets the flag from an interrupt handler (START, a clock's flag falling)
/// and the update that ran the search opens the menu or ends the game in the same frame.
/// The tests below print how long their stop points took (test.gb, with the stack
/// checks).
const STOP_BOUND: u64 = 17_556 / 3;

#[test]
fn the_stop_flag_ends_the_search_at_once_with_the_last_finished_iteration() {
    let mut rom = RomEngine::for_tests();
    let fen = engine_src::START_FEN;
    let game = Game::new(position(fen));
    // Iterations 1-3 search 210 nodes, some 0.6 million cycles, the fourth 334 more,
    // about a million cycles.
    let stopped = search_stopped_after(&mut rom, fen, 4, 1_000_000);
    let answer = &stopped.answer;
    assert_eq!(answer.depth, 3, "{answer}");
    let third = SearchAnswer::of_model(&search(&game, Limits::depth(3))).unwrap();
    assert_eq!(
        (answer.best, answer.score, &answer.pv),
        (third.best, third.score, &third.pv)
    );
    // Stopped by the flag after n nodes, it answers what the model's search within a
    // budget of n nodes does.
    let budget = Limits::budget(4, answer.nodes);
    assert_eq!(
        *answer,
        SearchAnswer::of_model(&search(&game, budget)).unwrap()
    );
    let took = stopped.returned_at - stopped.set_at;
    eprintln!("the search stopped {took} machine cycles after the flag (at most {STOP_BOUND})");
    assert!(
        took <= STOP_BOUND,
        "the search took {took} cycles to stop, more than {STOP_BOUND}"
    );
    // Stopped in the first iteration: the root's best move so far, depth 0.
    let stopped = search_stopped_after(&mut rom, fen, 4, 30_000);
    let budget = Limits::budget(4, stopped.answer.nodes);
    assert_eq!(stopped.answer.depth, 0);
    assert_eq!(
        stopped.answer,
        SearchAnswer::of_model(&search(&game, budget)).unwrap()
    );
}

#[test]
fn the_search_returns_within_a_few_thousand_cycles_of_the_stop_flag_wherever_it_is_set() {
    let mut rom = RomEngine::for_tests();
    let fen = "r1bqk/ppp1p/2n2/3pP/PP3/RNBQK w Qq - 0 4";
    let game = Game::new(position(fen));
    // The flag is set after 200,000 cycles, 400,000 ... up to STOP_POINTS times that
    // (the search takes some 2.16 million: 797 nodes).
    const STOP_POINTS: u64 = 10;
    let mut most = 0;
    for after in (1..=STOP_POINTS).map(|n| n * 200_000) {
        let stopped = search_stopped_after(&mut rom, fen, 4, after);
        let budget = Limits::budget(4, stopped.answer.nodes);
        assert_eq!(
            stopped.answer,
            SearchAnswer::of_model(&search(&game, budget)).unwrap(),
            "stopped after {after} cycles"
        );
        most = most.max(stopped.returned_at - stopped.set_at);
    }
    eprintln!(
        "the search stopped at most {most} machine cycles after the flag, over \
         {STOP_POINTS} stop points (at most {STOP_BOUND})"
    );
    assert!(
        most <= STOP_BOUND,
        "the search took up to {most} cycles to stop, more than {STOP_BOUND}"
    );
}
