//! verify's parts on a model with a planted bug, its reports word for word, and its
//! random games.

use std::collections::BTreeMap;

use anyhow::Result;
use engine_src::{Game, Move, Position, START_FEN};

use super::report::Difference;
use super::*;
use crate::cli::DEFAULT_VERIFY_POSITIONS;
use crate::random_games::{Kind, Playout};
use crate::rom_engine::RomKeys;

/// The verdicts the model gives at the compared positions of the default games.
fn model_verdicts(positions: usize, seed: u64) -> BTreeMap<Verdict, usize> {
    let max_history = RomEngine::for_tests().max_history();
    let mut generator = Playouts::new(seed, max_history).unwrap();
    let mut verdicts = BTreeMap::new();
    let mut compared = 0;
    while compared < positions {
        let playout = generator.next_playout();
        assert!(playout.moves.len() <= max_history);
        let mut game = Game::new(playout.start);
        let checked = checked_plies(playout.moves.len());
        for ply in 0..=playout.moves.len() {
            if checked.contains(&ply) {
                *verdicts.entry(Verdict::of_game(&game)).or_default() += 1;
                compared += 1;
            }
            if ply < playout.moves.len() {
                game.play(playout.moves[ply]).unwrap();
            }
        }
    }
    verdicts
}

#[test]
fn the_default_games_reach_every_verdict() {
    let verdicts = model_verdicts(DEFAULT_VERIFY_POSITIONS as usize, 1);
    for verdict in Verdict::ALL {
        let count = verdicts.get(&verdict).copied().unwrap_or(0);
        assert!(
            count >= 10,
            "{verdict}: only {count} positions in {verdicts:?}"
        );
    }
}

#[test]
fn the_random_games_line_counts_positions_and_games() {
    assert_eq!(
        random_games_compared(1, 1, 5),
        "1 position of 1 random game (seed 5)"
    );
    assert_eq!(
        random_games_compared(6000, 295, 1),
        "6000 positions of 295 random games (seed 1)"
    );
}

#[test]
fn a_difference_names_the_moves_of_each_engine_and_both_verdicts() {
    let start = Position::start();
    let legal = start.legal_moves();
    let mut moves: Vec<RomMove> = legal.iter().map(RomMove::of).collect();
    moves.retain(|m| m.to_string() != "b1c3");
    moves.push(moves[0]);
    moves.push(RomMove::decode([0, 5, 0]).unwrap());
    let listed = LegalMoves {
        moves,
        verdict: Verdict::Repetition,
        in_check: true,
        evaluation: -8,
        insufficient_material: true,
        quiescence: vec![
            RomMove::decode([0, 5, 0]).unwrap(),
            RomMove::decode([0, 5, 0]).unwrap(),
        ],
        keys: RomKeys {
            line: 0x8474_7464 ^ 0x8000_0000,
            history: vec![0x8474_7464],
        },
    };
    let model = Expected {
        ply: 0,
        verdict: Verdict::GoesOn,
        in_check: false,
        evaluation: 8,
        insufficient_material: false,
        keys: RomKeys {
            line: 0x8474_7464,
            history: vec![0x8474_7464],
        },
    };
    let difference = Difference::between(&listed, &legal, model.clone());
    assert_eq!(
        difference.to_string(),
        "  only in the ROM:   a1a2\n  only in the model: b1c3\n  listed twice by the ROM: \
         a2a3\n  quiescence moves only in the ROM:   a1a2\n  quiescence moves only in the model: \
         (none)\n  quiescence moves listed twice by the ROM: a1a2\n  verdict   ROM threefold \
         repetition (5), model game goes on (0)\n  in check  \
         ROM yes, model no\n  evaluation  ROM -8, model 8\n  insufficient material  ROM \
         yes, model no\n  line key (wZobristKey)  ROM $04747464, model $84747464\n"
    );
    assert_eq!(model, Expected::of(&Game::new(start)));
    let same = LegalMoves {
        moves: legal.iter().rev().map(RomMove::of).collect(),
        verdict: Verdict::GoesOn,
        in_check: false,
        evaluation: 8,
        insufficient_material: false,
        quiescence: Vec::new(),
        keys: model.keys.clone(),
    };
    assert!(Difference::between(&same, &legal, model).is_empty());
    let b2b3 = start.parse_uci("b2b3").unwrap();
    assert_eq!(
        Difference::context(&start, &[b2b3], &start.play(&b2b3)),
        "  start     rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1\n  history   b2b3\n  position  \
         rnbqk/ppppp/5/1P3/P1PPP/RNBQK b Qq - 0 1\n"
    );
}

/// A game's history of game keys is compared whole: how many positions the ROM keeps,
/// and the oldest ply whose key differs.
#[test]
fn a_history_difference_names_the_keys_kept_and_the_first_ply_that_differs() {
    // Both knights out and back: four reversible moves, so the history keeps all five
    // positions, the start's key first and last.
    let mut game = Game::new(Position::start());
    for uci in ["b1c3", "b6c4", "c3b1", "c4b6"] {
        let m = game.position().parse_uci(uci).unwrap();
        game.play(m).unwrap();
    }
    let model = Expected::of(&game);
    assert_eq!(model.ply, 4);
    assert_eq!(model.keys.history.len(), 5);
    assert_eq!(model.keys.history[0], 0x8474_7464);
    assert_eq!(model.keys.game(), Some(0x8474_7464));
    let position = game.position();
    let answer = |keys: RomKeys| LegalMoves {
        moves: position.legal_moves().iter().map(RomMove::of).collect(),
        verdict: model.verdict,
        in_check: model.in_check,
        evaluation: model.evaluation,
        insufficient_material: model.insufficient_material,
        quiescence: Vec::new(),
        keys,
    };
    let legal = position.legal_moves();
    assert!(Difference::between(&answer(model.keys.clone()), &legal, model.clone()).is_empty());
    // The oldest key dropped and the key of ply 2 spoilt: the keys of plies 1-4 compared.
    let mut keys = model.keys.clone();
    keys.history.remove(0);
    keys.history[1] ^= 1;
    let spoilt = keys.history[1];
    let difference = Difference::between(&answer(keys), &legal, model.clone());
    assert_eq!(
        difference.to_string(),
        format!(
            "  game keys kept  ROM 4 (plies 1-4), model 5 (plies 0-4)\n  game key of ply 2 \
             (the first that differs)  ROM ${spoilt:08X}, model ${:08X}\n",
            spoilt ^ 1
        )
    );
    // More keys than the game has positions.
    let mut keys = model.keys.clone();
    keys.history.insert(0, 0x1234_5678);
    let difference = Difference::between(&answer(keys), &legal, model);
    assert_eq!(
        difference.to_string(),
        "  game keys kept  ROM 6, more than the game's 5 positions, model 5 (plies 0-4)\n"
    );
}

/// The model with a planted bug: it never captures en passant.
struct WithoutEnPassant;

impl WithoutEnPassant {
    fn game(start: &Position, history: &[RomMove]) -> Game {
        let mut game = Game::new(*start);
        for m in history {
            game.play(m.find_in(game.position()).unwrap()).unwrap();
        }
        game
    }

    fn moves(position: &Position) -> Vec<Move> {
        let legal = position.legal_moves();
        legal
            .iter()
            .filter(|m| m.kind != engine_src::MoveKind::EnPassant)
            .copied()
            .collect()
    }

    fn count(position: &Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            _ => WithoutEnPassant::moves(position)
                .iter()
                .map(|m| WithoutEnPassant::count(&position.play(m), depth - 1))
                .sum(),
        }
    }
}

impl Answers for WithoutEnPassant {
    fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64> {
        let game = WithoutEnPassant::game(start, history);
        Ok(WithoutEnPassant::count(game.position(), depth))
    }

    fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves> {
        let game = WithoutEnPassant::game(start, history);
        let position = game.position();
        Ok(LegalMoves {
            moves: WithoutEnPassant::moves(position)
                .iter()
                .map(RomMove::of)
                .collect(),
            verdict: Verdict::of_game(&game),
            in_check: position.is_check(),
            evaluation: engine_src::eval::evaluate(position),
            insufficient_material: position.is_insufficient_material(),
            quiescence: WithoutEnPassant::moves(position)
                .iter()
                .filter(|m| m.is_quiescence())
                .map(RomMove::of)
                .collect(),
            keys: RomKeys::of_game(&game),
        })
    }
}

#[test]
fn a_perft_difference_is_followed_down_to_the_position_where_it_shows() {
    let mut tally = Tally::default();
    tally
        .perft(&mut WithoutEnPassant, START_FEN, &Position::start(), 3)
        .unwrap();
    assert_eq!((tally.passed, tally.failed), (0, 1));
    assert_eq!(
        tally.reports,
        [
            "MISMATCH perft(3) of rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1: ROM 1726, model 1734
  start     rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1
  history   a2a3 b5b3
  position  rnbqk/p1ppp/5/Pp3/1PPPP/RNBQK w Qq b4 0 2
  only in the ROM:   (none)
  only in the model: a3b4
  quiescence moves only in the ROM:   (none)
  quiescence moves only in the model: a3b4
"
        ]
    );
}

#[test]
fn a_game_difference_shows_the_game_and_stops_it() {
    let mut tally = Tally::default();
    let start = Position::start();
    let moves: Vec<Move> = ["a2a3", "b5b3"]
        .iter()
        .scan(start, |position, uci| {
            let m = position.parse_uci(uci).unwrap();
            position.play_unchecked(&m);
            Some(m)
        })
        .collect();
    let playout = Playout {
        kind: Kind::Random,
        start,
        moves: moves.clone(),
    };
    let mut game = Game::new(start);
    for (ply, m) in moves.iter().enumerate() {
        let fine = tally
            .position(
                &mut WithoutEnPassant,
                &playout,
                ply,
                &game,
                Expected::of(&game),
            )
            .unwrap();
        assert!(fine);
        game.play(*m).unwrap();
    }
    let fine = tally
        .position(
            &mut WithoutEnPassant,
            &playout,
            2,
            &game,
            Expected::of(&game),
        )
        .unwrap();
    assert!(!fine);
    assert_eq!((tally.passed, tally.failed), (2, 1));
    assert_eq!(
        tally.reports,
        ["MISMATCH in a random game, ply 2:
  start     rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1
  history   a2a3 b5b3
  position  rnbqk/p1ppp/5/Pp3/1PPPP/RNBQK w Qq b4 0 2
  only in the ROM:   (none)
  only in the model: a3b4
  quiescence moves only in the ROM:   (none)
  quiescence moves only in the model: a3b4
"]
    );
}

#[test]
fn the_rom_agrees_with_the_model_along_a_few_games() {
    let mut rom = RomEngine::for_tests();
    let mut generator = Playouts::new(7, rom.max_history()).unwrap();
    let mut tally = Tally::default();
    for _ in 0..3 {
        let playout = generator.next_playout();
        let mut game = Game::new(playout.start);
        let plies = playout.moves.len().min(12);
        for ply in 0..=plies {
            tally
                .position(&mut rom, &playout, ply, &game, Expected::of(&game))
                .unwrap();
            if ply < plies {
                game.play(playout.moves[ply]).unwrap();
            }
        }
    }
    assert_eq!(tally.failed, 0);
    assert!(tally.passed >= 3);
}

#[test]
fn a_loaded_position_difference_names_the_position() {
    let mut tally = Tally::default();
    let fen = "k4/5/5/1PpP1/5/4K w - c4 0 1";
    tally
        .loaded(
            &mut WithoutEnPassant,
            fen,
            &Position::from_fen(fen).unwrap(),
        )
        .unwrap();
    tally
        .loaded(&mut WithoutEnPassant, START_FEN, &Position::start())
        .unwrap();
    assert_eq!((tally.passed, tally.failed), (1, 1));
    assert_eq!(
        tally.reports,
        ["MISMATCH in k4/5/5/1PpP1/5/4K w - c4 0 1:
  start     k4/5/5/1PpP1/5/4K w - c4 0 1
  history   (none)
  position  k4/5/5/1PpP1/5/4K w - c4 0 1
  only in the ROM:   (none)
  only in the model: b3c4 d3c4
  quiescence moves only in the ROM:   (none)
  quiescence moves only in the model: b3c4 d3c4
"]
    );
}

/// The ROM's keys at named positions: the low 32 bits of the model's keys, written out,
/// and [`RomKeys::of_game`], the game's history whole (the game keys since the last
/// capture or pawn move).
#[test]
fn the_roms_keys_are_the_low_half_of_the_models_at_named_positions() {
    let mut rom = RomEngine::for_tests();
    let fen = |fen: &str| Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
    let start = Position::start();
    // A rook on a4 pins Black's c4 pawn to its king on e4 along the rank: after d2-d4
    // the pawn stands beside the pawn that crossed d3 but cannot take it, and the key
    // MakeMove keeps holds the d-file's en-passant key ($8C1E16E5), the game's does not.
    let pinned = fen("5/5/R1p1k/5/3P1/K4 w - - 0 1");
    // (name, start, moves, line key, game key, game keys kept)
    type Case = (
        &'static str,
        Position,
        &'static [&'static str],
        u32,
        u32,
        usize,
    );
    let cases: [Case; 8] = [
        ("the start", start, &[], 0x8474_7464, 0x8474_7464, 1),
        ("after b2-b3", start, &["b2b3"], 0x7DCB_6622, 0x7DCB_6622, 1),
        (
            "after White's rook left a1",
            start,
            &["a2a3", "b5b4", "a1a2"],
            0x1685_C01A,
            0x1685_C01A,
            2,
        ),
        (
            "loaded with an en-passant capture possible",
            fen("k4/5/3pP/5/5/K4 b - e3 0 1"),
            &[],
            0x0507_4196,
            0x0507_4196,
            1,
        ),
        (
            "after a double step Black may take en passant",
            start,
            &["a2a3", "c5c4", "b2b4"],
            0xECCE_CBF2,
            0xECCE_CBF2,
            1,
        ),
        (
            "after a double step beside a pinned pawn",
            pinned,
            &["d2d4"],
            0xA54A_2D89,
            0x2954_3B6C,
            1,
        ),
        (
            "after both knights went out and back",
            start,
            &["b1c3", "b6c4", "c3b1", "c4b6"],
            0x8474_7464,
            0x8474_7464,
            5,
        ),
        (
            "loaded with a high fifty-move count, then three moves",
            fen("k4/5/5/5/4R/K4 w - - 97 60"),
            &["e2e3", "a6b6", "e3e2"],
            0x55FD_6A2D,
            0x55FD_6A2D,
            4,
        ),
    ];
    for (name, start, moves, line, game_key, kept) in cases {
        let mut game = Game::new(start);
        let mut history = Vec::new();
        for uci in moves {
            let m = game.position().parse_uci(uci).unwrap();
            game.play(m).unwrap();
            history.push(RomMove::of(&m));
        }
        let listed = rom.legal_moves(&start, &history).unwrap();
        let model = RomKeys::of_game(&game);
        assert_eq!(listed.keys, model, "{name}");
        assert_eq!(
            model.game(),
            Some(game.position().cartridge_key()),
            "{name}"
        );
        assert_eq!(
            (model.line, model.game(), model.history.len()),
            (line, Some(game_key), kept),
            "{name}: {model}"
        );
    }
}
