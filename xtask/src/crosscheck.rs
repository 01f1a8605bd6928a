//! `cargo xtask crosscheck`: the reference model against Fairy-Stockfish, an
//! independent implementation of the rules (docs/rules.md, "The Fairy-Stockfish variant").
//!
//! The games are verify's, [`crate::random_games`]'s, of all its kinds (a seed
//! replays the same games): plain random play, pieces shuffled back and forth (castling
//! rights lost on the way), endgames of quiet moves (fifty-move counters past 100), from
//! the start position and from positions of `engine-src/perft/suite.epd`. At the
//! positions of a game that verify would compare, both engines must agree on the set
//! of legal moves, on perft(3) below each of them, and on the FEN. Fairy-Stockfish is
//! given the game's start FEN and the moves played, so it tracks castling rights, en
//! passant and the clocks on its own. After a mismatch the game is left for the next
//! one, until `--positions` positions have been compared.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use anyhow::{bail, Result};
use engine_src::perft::divide;
use engine_src::Position;

use crate::cli::CrosscheckArgs;
use crate::fairy::{Fairy, FairyPerft};
use crate::progress::Progress;
use crate::project::plural;
use crate::random_games::{checked_plies, Playouts};

/// The most moves a game has from its start. The quiet endgames need 100 of them to
/// reach the fifty-move rule from a counter of 0; Fairy-Stockfish replays a game's
/// moves for each position, which costs nothing at this length.
const MAX_GAME_MOVES: usize = 200;

/// The depth of the perft compared at each position.
const PERFT_DEPTH: u32 = 3;

pub fn run(args: &CrosscheckArgs) -> Result<()> {
    let mut fairy = Fairy::start(&args.engine)?;
    let mut playouts = Playouts::new(args.seed, MAX_GAME_MOVES)?;
    let progress = Progress::new("crosscheck", u64::from(args.positions));
    let started = Instant::now();
    let (mut passed, mut failed, mut games) = (0u32, 0u32, 0u32);
    while passed + failed < args.positions {
        let playout = playouts.next_playout();
        games += 1;
        let start_fen = playout.start.to_fen();
        let mut position = playout.start;
        let mut moves: Vec<String> = Vec::new();
        let checked = checked_plies(playout.moves.len());
        for ply in 0..=playout.moves.len() {
            if checked.contains(&ply) {
                if passed + failed == args.positions {
                    break;
                }
                let report = compare(&mut fairy, &start_fen, &moves, &position)?;
                progress.advance(1);
                if let Some(mismatch) = report {
                    failed += 1;
                    progress.println(mismatch.to_string());
                    break;
                }
                passed += 1;
            }
            if let Some(m) = playout.moves.get(ply) {
                moves.push(m.to_uci());
                position = position.play(m);
            }
        }
    }
    drop(progress);
    println!(
        "{} (seed {}), time {:.2} s",
        plural(games, "game"),
        args.seed,
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        bail!(
            "the reference model and Fairy-Stockfish disagree on {}",
            plural(failed, "position")
        );
    }
    Ok(())
}

/// Compares the position reached by `moves` from `start_fen` in both engines; `None`
/// when they agree.
fn compare(
    fairy: &mut Fairy,
    start_fen: &str,
    moves: &[String],
    position: &Position,
) -> Result<Option<Mismatch>> {
    let theirs = fairy.perft(start_fen, moves, PERFT_DEPTH)?;
    let fairy_fen = fairy.fen(start_fen, moves)?;
    let ours: Vec<(String, u64)> = divide(position, PERFT_DEPTH)
        .into_iter()
        .map(|(m, count)| (m.to_uci(), count))
        .collect();
    let model_fen = position.to_fen();
    // Fairy-Stockfish writes the en-passant square when a pawn attacks it, the model
    // only when the capture is legal (not when the pawn is pinned); so FENs count as
    // equal when they make the same position, read back by the model.
    let same_fen = fairy_fen == model_fen
        || Position::from_fen(&fairy_fen).is_ok_and(|theirs| theirs == *position);
    let fens = (!same_fen).then(|| (model_fen.clone(), fairy_fen));
    let mismatch = Mismatch::between(&ours, &theirs, fens);
    Ok(mismatch.map(|mut mismatch| {
        mismatch.start_fen = start_fen.to_owned();
        mismatch.moves = moves.to_vec();
        mismatch.model_fen = model_fen;
        mismatch
    }))
}

/// How the two engines disagree at one position.
#[derive(Debug, Default, PartialEq, Eq)]
struct Mismatch {
    start_fen: String,
    moves: Vec<String>,
    model_fen: String,
    /// (model, Fairy-Stockfish), when they are different positions.
    fens: Option<(String, String)>,
    only_model: Vec<String>,
    only_fairy: Vec<String>,
    /// Root moves both have, with a different perft below them: (move, model, Fairy).
    counts: Vec<(String, u64, u64)>,
    model_nodes: u64,
    fairy_nodes: u64,
}

impl Mismatch {
    /// The differences between the model's divide and Fairy-Stockfish's, or `None`.
    fn between(
        model: &[(String, u64)],
        fairy: &FairyPerft,
        fens: Option<(String, String)>,
    ) -> Option<Mismatch> {
        let ours: BTreeMap<&str, u64> = model.iter().map(|(m, n)| (m.as_str(), *n)).collect();
        let theirs: BTreeMap<&str, u64> =
            fairy.moves.iter().map(|(m, n)| (m.as_str(), *n)).collect();
        let only = |a: &BTreeMap<&str, u64>, b: &BTreeMap<&str, u64>| -> Vec<String> {
            a.keys()
                .filter(|m| !b.contains_key(*m))
                .map(|m| m.to_string())
                .collect()
        };
        let counts: Vec<(String, u64, u64)> = ours
            .iter()
            .filter_map(|(m, &n)| match theirs.get(m) {
                Some(&t) if t != n => Some((m.to_string(), n, t)),
                _ => None,
            })
            .collect();
        let model_nodes = model.iter().map(|(_, n)| n).sum();
        let mismatch = Mismatch {
            fens,
            only_model: only(&ours, &theirs),
            only_fairy: only(&theirs, &ours),
            counts,
            model_nodes,
            fairy_nodes: fairy.nodes,
            ..Mismatch::default()
        };
        let agree = mismatch.fens.is_none()
            && mismatch.only_model.is_empty()
            && mismatch.only_fairy.is_empty()
            && mismatch.counts.is_empty()
            && model_nodes == fairy.nodes
            && ours.len() == model.len()
            && theirs.len() == fairy.moves.len();
        (!agree).then_some(mismatch)
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "MISMATCH at {}", self.model_fen)?;
        write!(f, "  reached by: position fen {}", self.start_fen)?;
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        writeln!(f)?;
        if let Some((model, fairy)) = &self.fens {
            writeln!(f, "  FEN of the model:          {model}")?;
            writeln!(f, "  FEN of Fairy-Stockfish:    {fairy}")?;
        }
        if !self.only_model.is_empty() {
            writeln!(
                f,
                "  moves only the model has:  {}",
                self.only_model.join(" ")
            )?;
        }
        if !self.only_fairy.is_empty() {
            writeln!(
                f,
                "  moves only Fairy-Stockfish has: {}",
                self.only_fairy.join(" ")
            )?;
        }
        for (m, model, fairy) in &self.counts {
            writeln!(
                f,
                "  perft({}) after {m}: model {model}, Fairy-Stockfish {fairy}",
                PERFT_DEPTH - 1
            )?;
        }
        write!(
            f,
            "  perft({PERFT_DEPTH}): model {}, Fairy-Stockfish {}",
            self.model_nodes, self.fairy_nodes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_src::START_FEN;

    fn divide_of(moves: &[(&str, u64)]) -> Vec<(String, u64)> {
        moves.iter().map(|(m, n)| (m.to_string(), *n)).collect()
    }

    fn fairy_of(moves: &[(&str, u64)]) -> FairyPerft {
        let moves = divide_of(moves);
        let nodes = moves.iter().map(|(_, n)| n).sum();
        FairyPerft { moves, nodes }
    }

    #[test]
    fn the_same_moves_in_another_order_agree() {
        let model = divide_of(&[("e1c1", 5), ("a2a3", 7)]);
        let fairy = fairy_of(&[("a2a3", 7), ("e1c1", 5)]);
        assert_eq!(Mismatch::between(&model, &fairy, None), None);
        let mated = fairy_of(&[]);
        assert_eq!(Mismatch::between(&[], &mated, None), None);
    }

    #[test]
    fn moves_in_one_engine_only_and_different_counts_are_reported() {
        let model = divide_of(&[("a2a3", 7), ("e1c1", 5), ("b5b6q", 3)]);
        let fairy = fairy_of(&[("a2a3", 8), ("b5b6q", 3), ("b5b6n", 2)]);
        let mut mismatch = Mismatch::between(&model, &fairy, None).unwrap();
        assert_eq!(mismatch.only_model, ["e1c1"]);
        assert_eq!(mismatch.only_fairy, ["b5b6n"]);
        assert_eq!(mismatch.counts, [("a2a3".to_owned(), 7, 8)]);
        assert_eq!((mismatch.model_nodes, mismatch.fairy_nodes), (15, 13));
        mismatch.start_fen = START_FEN.to_owned();
        mismatch.moves = vec!["b2b3".to_owned(), "a5a4".to_owned()];
        mismatch.model_fen = "rnbqk/1pppp/5/p4/PPPPP/RNBQK w Qq - 0 2".to_owned();
        assert_eq!(
            mismatch.to_string(),
            "MISMATCH at rnbqk/1pppp/5/p4/PPPPP/RNBQK w Qq - 0 2\n\
             \x20 reached by: position fen rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1 moves b2b3 a5a4\n\
             \x20 moves only the model has:  e1c1\n\
             \x20 moves only Fairy-Stockfish has: b5b6n\n\
             \x20 perft(2) after a2a3: model 7, Fairy-Stockfish 8\n\
             \x20 perft(3): model 15, Fairy-Stockfish 13"
        );
    }

    #[test]
    fn a_different_fen_alone_is_a_mismatch() {
        let model = divide_of(&[("a2a3", 7)]);
        let fairy = fairy_of(&[("a2a3", 7)]);
        let fens = (
            "k4/5/5/5/5/K4 w - - 0 1".to_owned(),
            "k4/5/5/5/5/K4 w - - 1 1".to_owned(),
        );
        let mismatch = Mismatch::between(&model, &fairy, Some(fens.clone())).unwrap();
        assert_eq!(mismatch.fens, Some(fens));
        assert!(mismatch.to_string().contains(
            "  FEN of the model:          k4/5/5/5/5/K4 w - - 0 1\n  \
             FEN of Fairy-Stockfish:    k4/5/5/5/5/K4 w - - 1 1\n"
        ));
    }

    #[test]
    fn a_different_total_alone_is_a_mismatch() {
        let model = divide_of(&[("a2a3", 7)]);
        let fairy = FairyPerft {
            moves: divide_of(&[("a2a3", 7)]),
            nodes: 8,
        };
        assert!(Mismatch::between(&model, &fairy, None).is_some());
    }
}
