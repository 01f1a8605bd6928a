//! `cargo xtask match`: how strong the reference search plays. Each level (EASY, MEDIUM,
//! HARD: [`Level`]) plays Fairy-Stockfish searching to fixed depths (`go depth N`), and
//! the levels play each other, from the openings of [`OPENINGS`], each opening twice with
//! the colours swapped. A level plays as the cartridge does: the book's move while the
//! book has one (`engine_src::book`, with a seed a game: [`book_seed`]), else its search
//! within the node budget that mirrors the time guard ([`Level::limits`]).
//!
//! The model referees: every move, ours and Fairy-Stockfish's, must be legal in the
//! model ([`Game::play`]), and a game ends when [`Game::outcome`] says so (checkmate,
//! stalemate, insufficient material, fifty moves, threefold repetition), or as a draw
//! after [`MAX_GAME_PLIES`] plies. Both players are deterministic (Fairy-Stockfish
//! forgets its hash table before each game), so a run always plays the same games.
//!
//! Each pairing prints its wins, draws and losses, the score and the Elo difference
//! with its 95% margin; the run ends with the table in Markdown (README, "Strength").

use std::fmt;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use engine_src::book::lookup;
use engine_src::search::{search, Level};
use engine_src::{Color, Game, Move, Outcome, Position};

use crate::cli::MatchArgs;
use crate::fairy::Fairy;
use crate::progress::Progress;
use crate::project::{self, plural};
use crate::random::SplitMix64;

/// The openings file, from the repository root.
pub const OPENINGS: &str = "engine-src/search/openings.txt";

/// The Fairy-Stockfish depths each level plays unless `--fairy-depths` says.
pub const DEFAULT_FAIRY_DEPTHS: [u8; 4] = [1, 2, 3, 4];

/// A game this long (opening included) without an ending is a draw.
pub const MAX_GAME_PLIES: usize = 200;

/// One side of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    /// The reference search at a level.
    Level(Level),
    /// Fairy-Stockfish, `go depth N`.
    Fairy(u8),
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Level(level) => write!(f, "{level} (depth {})", level.depth()),
            Player::Fairy(depth) => write!(f, "Fairy-Stockfish depth {depth}"),
        }
    }
}

/// An opening: its line number in the file and its moves from the start position.
pub struct Opening {
    pub line: usize,
    pub moves: Vec<Move>,
}

/// How one game went, for the first player of its pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// The games of one pairing, from the first player's side.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Draws because the game reached [`MAX_GAME_PLIES`].
    pub capped: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// The mean score per game, 0 to 1 (a draw is half a point).
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The Elo difference of the score, and half the width of its 95% interval: the
    /// interval of the mean score (1.96 standard errors, from the games' own spread)
    /// through the same formula. `None` where the formula gives no finite number (a
    /// score of 0% or 100%, or an interval reaching one of them).
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let games = f64::from(self.games());
        let mean = self.score();
        let spread = [(self.wins, 1.0), (self.draws, 0.5), (self.losses, 0.0)]
            .iter()
            .map(|&(count, points)| f64::from(count) * (points - mean).powi(2))
            .sum::<f64>()
            / games;
        let margin = 1.96 * (spread / games).sqrt();
        let low = elo_of(mean - margin);
        let high = elo_of(mean + margin);
        let half_width = low.zip(high).map(|(low, high)| (high - low) / 2.0);
        (elo_of(mean), half_width)
    }

    /// `+12 ± 60`, `-inf`, `+0 ± inf` (an interval reaching 0% or 100%).
    pub fn elo_text(&self) -> String {
        let (elo, margin) = self.elo();
        let elo = match elo {
            // Rounded first, so that a tiny negative number is not `-0`.
            Some(elo) => format!("{:+}", elo.round() + 0.0),
            None if self.score() >= 0.5 => "+inf".to_owned(),
            None => "-inf".to_owned(),
        };
        match margin {
            Some(margin) => format!("{elo} ± {margin:.0}"),
            None if elo.ends_with("inf") => elo,
            None => format!("{elo} ± inf"),
        }
    }
}

/// The Elo difference a mean score gives: `-400 log10(1 / score - 1)`; `None` at 0 and 1
/// and beyond.
fn elo_of(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

pub fn run(args: &MatchArgs) -> Result<()> {
    if args.cartridge {
        return crate::cartridge_match::run(args);
    }
    let openings = read_openings(args.openings, args.seed)?;
    let fairy_depths = match args.fairy_depths.as_slice() {
        [] => &DEFAULT_FAIRY_DEPTHS[..],
        depths => depths,
    };
    let pairings = pairings(&args.levels, fairy_depths);
    if pairings.is_empty() {
        bail!("no games to play: --levels needs a level, and a second level or --fairy-depths");
    }
    let mut fairy = if pairings
        .iter()
        .any(|&(_, second)| matches!(second, Player::Fairy(_)))
    {
        Some(Fairy::start(&args.engine)?)
    } else {
        None
    };
    let games_per_pairing = 2 * openings.len() as u64;
    let progress = Progress::new("match", games_per_pairing * pairings.len() as u64);
    let started = Instant::now();
    let mut rows = Vec::new();
    for &(first, second) in &pairings {
        progress.say(format!("{first} vs {second}"));
        let mut tally = Tally::default();
        let mut plies_played = 0;
        for opening in &openings {
            for first_color in Color::ALL {
                let (white, black) = match first_color {
                    Color::White => (first, second),
                    Color::Black => (second, first),
                };
                let seed = book_seed(opening.line, first_color);
                let (outcome, plies) = play(white, black, opening, seed, fairy.as_mut())?;
                let result = match outcome.and_then(|outcome| outcome.winner()) {
                    None => GameResult::Draw,
                    Some(winner) if winner == first_color => GameResult::Win,
                    Some(_) => GameResult::Loss,
                };
                if outcome.is_none() {
                    tally.capped += 1;
                }
                tally.add(result);
                plies_played += plies;
                progress.advance(1);
            }
        }
        progress.println(format!(
            "{first} vs {second}: {} ({:.0} plies on average), +{} ={} -{}, score {:.1}%, Elo {}{}",
            plural(tally.games(), "game"),
            plies_played as f64 / f64::from(tally.games()),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            tally.elo_text(),
            match tally.capped {
                0 => String::new(),
                capped => format!(
                    " ({} drawn at {MAX_GAME_PLIES} plies)",
                    plural(capped, "game")
                ),
            }
        ));
        rows.push((first, second, tally));
    }
    drop(progress);
    println!();
    print!("{}", markdown(&rows));
    println!();
    println!(
        "{} from {} (seed {}), time {:.1} s",
        plural(
            rows.iter().map(|(_, _, tally)| tally.games()).sum::<u32>(),
            "game"
        ),
        plural(openings.len(), "opening"),
        args.seed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `count` openings of [`OPENINGS`] (all of them when `None`), chosen by `seed`
/// ([`choose`]).
pub fn read_openings(count: Option<u32>, seed: u64) -> Result<Vec<Opening>> {
    let path = project::root().join(OPENINGS);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let openings = parse_openings(&text).map_err(|error| anyhow!("{OPENINGS}:{error}"))?;
    choose(openings, count, seed)
}

/// Every pairing, the first player the one the tally counts for: each level against
/// each Fairy-Stockfish depth, then each level against each easier one.
fn pairings(levels: &[Level], fairy_depths: &[u8]) -> Vec<(Player, Player)> {
    let mut levels = levels.to_vec();
    levels.sort();
    levels.dedup();
    let mut depths = fairy_depths.to_vec();
    depths.sort();
    depths.dedup();
    let mut pairings = Vec::new();
    for &level in &levels {
        for &depth in &depths {
            pairings.push((Player::Level(level), Player::Fairy(depth)));
        }
    }
    for (index, &stronger) in levels.iter().enumerate() {
        for &weaker in &levels[..index] {
            pairings.push((Player::Level(stronger), Player::Level(weaker)));
        }
    }
    pairings
}

/// The book's seed of a game (the cartridge draws one a game): from its opening's line
/// and the colour of the pairing's first player, so that every game of a match has its
/// own and a match is played the same whenever it is played.
fn book_seed(opening_line: usize, first_color: Color) -> u8 {
    (opening_line * 2 + usize::from(first_color == Color::Black)) as u8
}

/// Plays one game from `opening` (the levels' book choices with `seed`): its ending (`None` when it reached
/// [`MAX_GAME_PLIES`]) and its length in plies.
fn play(
    white: Player,
    black: Player,
    opening: &Opening,
    seed: u8,
    mut fairy: Option<&mut Fairy>,
) -> Result<(Option<Outcome>, usize)> {
    let mut game = Game::new(Position::start());
    let mut uci_moves = Vec::new();
    for m in &opening.moves {
        game.play(*m)?;
        uci_moves.push(m.to_uci());
    }
    if let Some(fairy) = fairy.as_deref_mut() {
        fairy.new_game()?;
    }
    let start_fen = Position::start().to_fen();
    // As the cartridge (wInBook): once the book has no move for a level, the game has
    // left it, for that level (White's, Black's).
    let mut in_book = [true; 2];
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok((Some(outcome), game.moves().len()));
        }
        if game.moves().len() >= MAX_GAME_PLIES {
            return Ok((None, game.moves().len()));
        }
        let player = match game.position().turn() {
            Color::White => white,
            Color::Black => black,
        };
        let side = usize::from(game.position().turn() == Color::Black);
        let m = match player {
            Player::Level(level) => match in_book[side].then(|| lookup(game.position(), seed)) {
                Some(Some(m)) => m,
                _ => {
                    in_book[side] = false;
                    search(&game, level.limits()).best.ok_or_else(|| {
                        anyhow!("the search found no move in a game still going on")
                    })?
                }
            },
            Player::Fairy(depth) => {
                let fairy = fairy
                    .as_deref_mut()
                    .ok_or_else(|| anyhow!("Fairy-Stockfish is not running"))?;
                let text = fairy.best_move(&start_fen, &uci_moves, depth)?;
                game.position().parse_uci(&text).map_err(|error| {
                    anyhow!(
                        "Fairy-Stockfish played {text} in {} (opening of line {}, moves {}): {error}",
                        game.position().to_fen(),
                        opening.line,
                        uci_moves.join(" ")
                    )
                })?
            }
        };
        game.play(m)
            .with_context(|| format!("{player} in {}", game.position().to_fen()))?;
        uci_moves.push(m.to_uci());
    }
}

/// Reads the openings file: one line of UCI moves from the start position per opening;
/// `#` comments and blank lines skipped. An error starts with `LINE:COLUMN: `.
fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let content = line.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            continue;
        }
        let mut position = Position::start();
        let mut moves = Vec::new();
        let mut column = 1;
        for word in content.split(' ') {
            if !word.is_empty() {
                let m = position
                    .parse_uci(word)
                    .map_err(|error| format!("{number}:{column}: {error}"))?;
                position = position.play(&m);
                moves.push(m);
            }
            column += word.chars().count() + 1;
        }
        openings.push(Opening {
            line: number,
            moves,
        });
    }
    if openings.is_empty() {
        return Err("1:1: no openings: expected lines of UCI moves such as `b2b3 b5b4`".into());
    }
    Ok(openings)
}

/// `count` openings of `openings` (all of them when `None`), chosen by a shuffle seeded
/// with `seed` when fewer than all, in the file's order.
fn choose(openings: Vec<Opening>, count: Option<u32>, seed: u64) -> Result<Vec<Opening>> {
    let available = openings.len();
    let Some(count) = count else {
        return Ok(openings);
    };
    let count = count as usize;
    if count > available {
        bail!(
            "--openings {count}: {OPENINGS} has {}",
            plural(available, "opening")
        );
    }
    let mut order: Vec<usize> = (0..available).collect();
    shuffle(&mut order, seed);
    let mut chosen: Vec<usize> = order[..count].to_vec();
    chosen.sort_unstable();
    let mut openings: Vec<Option<Opening>> = openings.into_iter().map(Some).collect();
    Ok(chosen
        .into_iter()
        .filter_map(|index| openings[index].take())
        .collect())
}

/// Fisher-Yates with [`SplitMix64`].
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut random = SplitMix64::new(seed);
    for index in (1..items.len()).rev() {
        items.swap(index, random.below(index + 1));
    }
}

/// The table of the run: one row per pairing.
fn markdown(rows: &[(Player, Player, Tally)]) -> String {
    let mut table = String::from(
        "| Engine | Opponent | Games | Wins | Draws | Losses | Score | Elo difference (95%) |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (first, second, tally) in rows {
        table.push_str(&format!(
            "| {first} | {second} | {} | {} | {} | {} | {:.1}% | {} |\n",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            tally.elo_text()
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How the openings file is made (a test keeps the file equal to it): every position
    /// three plies from the start, each reached by the first line in the model's move order,
    /// and of those [`OPENING_COUNT`] chosen by a SplitMix64 shuffle with this seed.
    const OPENING_PLIES: usize = 3;
    const OPENING_SEED: u64 = 1;
    const OPENING_COUNT: usize = 60;

    /// The openings as [`OPENING_PLIES`], [`OPENING_SEED`] and [`OPENING_COUNT`] make them:
    /// the lines of the file, in the order of the model's move generator.
    fn generate_openings() -> Vec<String> {
        fn walk(
            position: &Position,
            line: &mut Vec<Move>,
            seen: &mut Vec<u64>,
            out: &mut Vec<String>,
        ) {
            if line.len() == OPENING_PLIES {
                let key = position.zobrist();
                if !seen.contains(&key) {
                    seen.push(key);
                    let moves: Vec<String> = line.iter().map(Move::to_uci).collect();
                    out.push(moves.join(" "));
                }
                return;
            }
            for m in &position.legal_moves() {
                line.push(*m);
                walk(&position.play(m), line, seen, out);
                line.pop();
            }
        }
        let mut all = Vec::new();
        walk(
            &Position::start(),
            &mut Vec::new(),
            &mut Vec::new(),
            &mut all,
        );
        let mut order: Vec<usize> = (0..all.len()).collect();
        shuffle(&mut order, OPENING_SEED);
        let mut chosen: Vec<usize> = order[..OPENING_COUNT].to_vec();
        chosen.sort_unstable();
        chosen.into_iter().map(|index| all[index].clone()).collect()
    }

    /// The header of the openings file.
    const OPENINGS_HEADER: &str = "\
        # Openings of `cargo xtask match`: one line of UCI moves from the start position each;\n\
        # every opening is played twice, the colours swapped.\n\
        #\n\
        # Made by xtask/src/strength.rs (`generate_openings`, which a test keeps equal to this\n\
        # file): of every position three plies from the start, each reached by the first line\n\
        # in the model's move order, 60 chosen by a SplitMix64 shuffle with seed 1.\n";

    /// The openings file as [`generate_openings`] makes it.
    fn openings_file() -> String {
        let mut text = OPENINGS_HEADER.to_owned();
        for line in generate_openings() {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    #[test]
    fn the_openings_file_is_the_seeded_choice() {
        let text = std::fs::read_to_string(project::root().join(OPENINGS)).unwrap();
        assert_eq!(text, openings_file(), "expected:\n{}", openings_file());
        let openings = parse_openings(&text).unwrap();
        assert_eq!(openings.len(), 60);
        assert!(openings.iter().all(|opening| opening.moves.len() == 3));
    }

    #[test]
    fn opening_errors_name_line_and_column() {
        let error = parse_openings("# two\nb2b3 b5b4\nb2b3  b2b4\n")
            .err()
            .unwrap();
        assert!(error.starts_with("3:7: "), "{error}");
        let error = parse_openings("# nothing\n").err().unwrap();
        assert_eq!(
            error,
            "1:1: no openings: expected lines of UCI moves such as `b2b3 b5b4`"
        );
    }

    #[test]
    fn choosing_openings() {
        let openings = || parse_openings("b2b3\nc2c3\nd2d3\ne2e3\n").unwrap();
        assert_eq!(choose(openings(), None, 1).unwrap().len(), 4);
        let lines: Vec<usize> = choose(openings(), Some(2), 1)
            .unwrap()
            .iter()
            .map(|opening| opening.line)
            .collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0] < lines[1]);
        assert_eq!(
            choose(openings(), Some(5), 1).err().unwrap().to_string(),
            "--openings 5: engine-src/search/openings.txt has 4 openings"
        );
    }

    #[test]
    fn pairings_of_levels_and_depths() {
        let pairings: Vec<String> = pairings(&[Level::Hard, Level::Easy], &[2, 1, 2])
            .iter()
            .map(|(first, second)| format!("{first} - {second}"))
            .collect();
        assert_eq!(
            pairings,
            [
                "EASY (depth 1) - Fairy-Stockfish depth 1",
                "EASY (depth 1) - Fairy-Stockfish depth 2",
                "HARD (depth 4) - Fairy-Stockfish depth 1",
                "HARD (depth 4) - Fairy-Stockfish depth 2",
                "HARD (depth 4) - EASY (depth 1)",
            ]
        );
    }

    #[test]
    fn elo_and_its_margin() {
        let tally = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            capped: 0,
        };
        assert_eq!(tally.score(), 0.7);
        let (elo, margin) = tally.elo();
        // -400 log10(1 / 0.7 - 1) = 147.2; the spread of the scores is 0.16, the
        // standard error 0.04, the interval 0.6216 to 0.7784, Elo 86.2 to 218.3.
        assert_eq!(format!("{:.1}", elo.unwrap()), "147.2");
        assert_eq!(format!("{:.1}", margin.unwrap()), "66.0");
        assert_eq!(tally.elo_text(), "+147 ± 66");
        let even = Tally {
            wins: 1,
            draws: 0,
            losses: 1,
            capped: 0,
        };
        assert_eq!(even.elo_text(), "+0 ± inf");
        let lost = Tally {
            losses: 4,
            ..Tally::default()
        };
        assert_eq!(lost.elo_text(), "-inf");
    }
}
