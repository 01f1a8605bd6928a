//! Random games for testing the engine: seeded (a seed replays the same games), of
//! three kinds that between them reach every way a game ends. Some games are plain
//! random play, some shuffle pieces back and forth (repetitions, castling rights lost
//! on the way), some capture down to an endgame and then avoid captures and pawn moves
//! (insufficient material, the fifty-move rule), sometimes from a loaded position whose
//! fifty-move counter is already high. Half of them start from the start position,
//! half from a position of the perft suite. No game is longer than the caller's
//! `max_history` moves from its start (verify's games are histories the test ROM's
//! mailbox must hold).

use std::fmt;

use anyhow::Result;
use engine_src::{Game, Move, Position, Role};

use crate::random::SplitMix64;
use crate::suite;

/// Plies of plain random play.
const RANDOM_PLIES: usize = 80;
/// Plies of a game that shuffles pieces back and forth.
const SHUFFLE_PLIES: usize = 60;
/// Plies allowed to capture down to an endgame.
const CAPTURE_PLIES: usize = 80;
/// Games this long or shorter have every position compared; longer ones a sample.
const FULL_GAME: usize = 24;
/// The last positions of a game (where games end) are always compared.
const GAME_TAIL: usize = 6;

/// The kind of a random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Uniformly random moves.
    Random,
    /// A few random moves, then pieces shuffled back and forth.
    Shuffle,
    /// From where captures have thinned the board out, quiet moves only as far as
    /// possible.
    Endgame,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Random => "random",
            Kind::Shuffle => "shuffling",
            Kind::Endgame => "quiet endgame",
        })
    }
}

/// A game to compare: where it starts (the position loaded into the ROM) and its moves.
pub struct Playout {
    pub kind: Kind,
    pub start: Position,
    pub moves: Vec<Move>,
}

/// The random games, one kind after the other.
pub struct Playouts {
    rng: SplitMix64,
    starts: Vec<Position>,
    /// The most moves a game has from its start.
    max_history: usize,
    count: usize,
}

impl Playouts {
    /// The games of `seed`, none longer than `max_history` moves from its start.
    pub fn new(seed: u64, max_history: usize) -> Result<Playouts> {
        let mut starts = vec![Position::start()];
        for entry in suite::checked_in()? {
            if !entry.position.legal_moves().is_empty() {
                starts.push(entry.position);
            }
        }
        Ok(Playouts {
            rng: SplitMix64::new(seed),
            starts,
            max_history,
            count: 0,
        })
    }

    /// Half of the games start from the start position, half from a suite position.
    fn start(&mut self) -> Position {
        if self.rng.below(2) == 0 {
            Position::start()
        } else {
            self.starts[self.rng.below(self.starts.len())]
        }
    }

    pub fn next_playout(&mut self) -> Playout {
        let kind = [Kind::Random, Kind::Shuffle, Kind::Endgame][self.count % 3];
        self.count += 1;
        let start = self.start();
        match kind {
            Kind::Random => {
                let mut game = Game::new(start);
                self.play(&mut game, RANDOM_PLIES, random_move);
                playout(kind, &game)
            }
            Kind::Shuffle => {
                let mut game = Game::new(start);
                let opening = self.rng.below(12);
                self.play(&mut game, opening, |rng, _, _, legal| {
                    legal[rng.below(legal.len())]
                });
                self.play(&mut game, SHUFFLE_PLIES, shuffle_move);
                playout(kind, &game)
            }
            Kind::Endgame => {
                let mut game = Game::new(start);
                let pieces_left = self.rng.below(5);
                let mut plies = 0;
                while plies < CAPTURE_PLIES && !game.is_over() && pieces(&game) > pieces_left {
                    self.play(&mut game, 1, capture_move);
                    plies += 1;
                }
                // The endgame starts over from here, sometimes with a fifty-move counter
                // that is already high.
                let mut setup = game.position().to_setup();
                if self.rng.below(2) == 0 {
                    setup.halfmoves = 50 + self.rng.below(47) as u32;
                }
                let start = Position::from_setup(setup).unwrap_or(*game.position());
                let mut game = Game::new(start);
                self.play(&mut game, self.max_history, quiet_move);
                playout(kind, &game)
            }
        }
    }

    /// Plays up to `plies` moves chosen by `choose` (given the moves so far and the
    /// legal moves) while the game goes on and is shorter than `max_history`.
    fn play(
        &mut self,
        game: &mut Game,
        plies: usize,
        choose: impl Fn(&mut SplitMix64, &Position, &[Move], &[Move]) -> Move,
    ) {
        for _ in 0..plies {
            if game.is_over() || game.moves().len() >= self.max_history {
                return;
            }
            let legal = game.position().legal_moves();
            let m = choose(&mut self.rng, game.position(), game.moves(), &legal);
            // The move is one of the model's legal moves and the game goes on.
            let _ = game.play(m);
        }
    }
}

/// The plies (positions after that many moves) of a game of `len` moves that are
/// compared: all of a short game; of a longer one, its last [`GAME_TAIL`] and an even
/// sample of the rest (each query replays the whole history, so long games are costly,
/// and the positions of a game are much alike: more games make more variety).
pub fn checked_plies(len: usize) -> Vec<usize> {
    if len <= FULL_GAME {
        return (0..=len).collect();
    }
    let tail = len + 1 - GAME_TAIL;
    let step = tail.div_ceil(FULL_GAME - GAME_TAIL);
    (0..tail).step_by(step).chain(tail..=len).collect()
}

fn playout(kind: Kind, game: &Game) -> Playout {
    Playout {
        kind,
        start: *game.start(),
        moves: game.moves().to_vec(),
    }
}

/// Pieces on the board other than the kings.
fn pieces(game: &Game) -> usize {
    game.position().board().occupied().count() as usize - 2
}

/// A move that neither captures nor moves a pawn: it keeps the fifty-move counter going.
fn is_quiet_piece_move(m: &Move) -> bool {
    !m.is_capture() && m.role != Role::Pawn
}

/// Half of the time a move that mates or stalemates when there is one (they are rare
/// in random play), else any move.
fn random_move(rng: &mut SplitMix64, position: &Position, _: &[Move], legal: &[Move]) -> Move {
    if rng.below(2) == 0 {
        return legal[rng.below(legal.len())];
    }
    pick(rng, legal, |m| position.play(m).legal_moves().is_empty())
}

/// Three times in four, moves back the piece that the side to move moved last (so
/// positions repeat); otherwise a random quiet piece move, or any move.
fn shuffle_move(rng: &mut SplitMix64, _: &Position, played: &[Move], legal: &[Move]) -> Move {
    if let Some(last) = played.len().checked_sub(2).map(|i| played[i]) {
        let back = legal
            .iter()
            .find(|m| m.from == last.to && m.to == last.from && is_quiet_piece_move(m));
        if let Some(&back) = back {
            if rng.below(4) != 0 {
                return back;
            }
        }
    }
    pick(rng, legal, is_quiet_piece_move)
}

/// A capture nine times in ten when there is one.
fn capture_move(rng: &mut SplitMix64, _: &Position, _: &[Move], legal: &[Move]) -> Move {
    if rng.below(10) == 0 {
        return legal[rng.below(legal.len())];
    }
    pick(rng, legal, Move::is_capture)
}

/// A quiet piece move 49 times in 50 when there is one.
fn quiet_move(rng: &mut SplitMix64, _: &Position, _: &[Move], legal: &[Move]) -> Move {
    if rng.below(50) == 0 {
        return legal[rng.below(legal.len())];
    }
    pick(rng, legal, is_quiet_piece_move)
}

/// A random move among those `wanted`, or among all when none is.
fn pick(rng: &mut SplitMix64, legal: &[Move], wanted: impl Fn(&Move) -> bool) -> Move {
    let chosen: Vec<&Move> = legal.iter().filter(|m| wanted(m)).collect();
    match chosen.len() {
        0 => legal[rng.below(legal.len())],
        n => *chosen[rng.below(n)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_games_are_sampled_short_ones_compared_whole() {
        assert_eq!(checked_plies(3), [0, 1, 2, 3]);
        assert_eq!(checked_plies(FULL_GAME).len(), FULL_GAME + 1);
        let long = checked_plies(150);
        assert!(long.len() <= FULL_GAME, "{long:?}");
        assert_eq!(long[0], 0);
        assert_eq!(
            long[long.len() - GAME_TAIL..],
            [145, 146, 147, 148, 149, 150]
        );
        assert!(long.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn no_game_is_longer_than_the_history_it_is_given() {
        for max_history in [30, 60] {
            let mut playouts = Playouts::new(1, max_history).unwrap();
            let longest = (0..30).map(|_| playouts.next_playout().moves.len()).max();
            assert_eq!(longest, Some(max_history));
        }
    }
}
