//! `cargo xtask verify`: the SM83 engine in the emulator against the reference model.
//!
//! Three parts, each counting its checks:
//! 1. perft from the start position at depths 1 to [`START_DEPTH`];
//! 2. every count of `engine-src/perft/suite.epd` up to depth [`SUITE_DEPTH`];
//! 3. random games (seeded: a seed replays the same games): at positions along each
//!    game, the ROM's legal moves (as a set), its verdict (game goes on, checkmate,
//!    stalemate, insufficient material, fifty moves, repetition) and whether the side
//!    to move is in check must be the model's. The ROM is given the game's start
//!    position and every move since, so it plays the history itself and judges
//!    repetitions and the fifty-move rule from it. Some games are plain random play,
//!    some shuffle pieces back and forth (repetitions, castling rights lost on the
//!    way), some capture down to an endgame and then avoid captures and pawn moves
//!    (insufficient material, the fifty-move rule), sometimes from a loaded position
//!    whose fifty-move counter is already high.
//!
//! A perft count that differs is followed down the tree, through the ROM's own move
//! making (one-move-longer histories), to the first position whose legal moves differ.
//! Every difference is printed with the start position, the moves, the position, the
//! moves only one engine has, and both verdicts; then the command fails.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_src::perft::{parse_suite, perft};
use engine_src::{Game, Move, Position, Role};

use crate::crosscheck::{suite_start_positions, SplitMix64};
use crate::perft::{dmg_seconds, START_FEN};
use crate::rom_engine::{HistoryRefused, LegalMoves, RomEngine, RomMove, Verdict};

/// The most moves a game plays from its start (the test ROM's mailbox holds
/// MAX_TEST_HISTORY, and the ROM engine refuses a longer history).
const MAX_HISTORY: usize = 200;
use crate::VerifyArgs;

/// Perft from the start position is compared at depths 1 to this.
const START_DEPTH: u32 = 4;
/// Suite counts are compared up to this depth.
const SUITE_DEPTH: u32 = 3;
/// Differences printed in full; later ones are only counted.
const MAX_PRINTED: usize = 10;
/// After this many differences the command stops: the engine is clearly broken.
const MAX_MISMATCHES: usize = 100;
/// Positions of random games compared unless `--positions` says otherwise.
pub const DEFAULT_POSITIONS: u32 = 6000;
/// Games this long or shorter have every position compared; longer ones a sample.
const FULL_GAME: usize = 24;
/// The last positions of a game (where games end) are always compared.
const GAME_TAIL: usize = 6;
/// Plies of plain random play.
const RANDOM_PLIES: usize = 80;
/// Plies of a game that shuffles pieces back and forth.
const SHUFFLE_PLIES: usize = 60;
/// Plies allowed to capture down to an endgame.
const CAPTURE_PLIES: usize = 80;

pub fn run(args: &VerifyArgs) -> Result<()> {
    let started = Instant::now();
    let mut rom = RomEngine::build_and_boot()?;
    let mut tally = Tally::default();

    let start = Position::start();
    for depth in 1..=START_DEPTH {
        tally.perft(&mut rom, START_FEN, &start, depth)?;
    }
    println!(
        "perft from the start position, depths 1-{START_DEPTH}: {}",
        tally.part()
    );

    let path = crate::project::root().join("engine-src/perft/suite.epd");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let entries = parse_suite(&text)
        .map_err(|error| anyhow::anyhow!("{}:{}: {}", path.display(), error.line, error.message))?;
    for entry in &entries {
        let position = Position::from_fen(&entry.fen)
            .with_context(|| format!("{}:{}: {}", path.display(), entry.line, entry.fen))?;
        for &(depth, _) in &entry.counts {
            if depth <= SUITE_DEPTH && !tally.stopped() {
                tally.perft(&mut rom, &entry.fen, &position, depth)?;
            }
        }
    }
    println!(
        "engine-src/perft/suite.epd, {} positions to depth {SUITE_DEPTH}: {}",
        entries.len(),
        tally.part()
    );

    let mut verdicts: BTreeMap<Verdict, u64> = BTreeMap::new();
    let mut in_check = 0;
    let mut games = 0;
    let mut generator = Playouts::new(args.seed)?;
    let mut positions = 0;
    while positions < args.positions && !tally.stopped() {
        let playout = generator.next_playout();
        games += 1;
        let mut game = Game::new(playout.start);
        let checked = checked_plies(playout.moves.len());
        for ply in 0..=playout.moves.len() {
            if checked.contains(&ply) {
                if positions == args.positions {
                    break;
                }
                positions += 1;
                let model = Expected::of(&game);
                *verdicts.entry(model.verdict).or_default() += 1;
                in_check += u64::from(model.in_check);
                if !tally.position(&mut rom, &playout, ply, &game, model)? {
                    break;
                }
            }
            if let Some(&m) = playout.moves.get(ply) {
                game.play(m)
                    .with_context(|| format!("replaying the model's own move {m}"))?;
            }
        }
    }
    println!(
        "{positions} positions of {games} random games (seed {}): {}",
        args.seed,
        tally.part()
    );
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|verdict| {
            let count = verdicts.get(verdict).copied().unwrap_or(0);
            format!("{count} {}", verdict.name())
        })
        .collect();
    println!(
        "  verdicts compared: {}; {in_check} in check",
        counts.join(", ")
    );

    println!(
        "time {:.2} s, cycles {} ({})",
        started.elapsed().as_secs_f64(),
        rom.cycles(),
        dmg_seconds(rom.cycles())
    );
    let (passed, failed) = (tally.passed, tally.failed);
    println!("{passed} passed, {failed} failed");
    if tally.stopped() {
        bail!("stopped after {MAX_MISMATCHES} differences between the ROM and the model");
    }
    if failed > 0 {
        bail!(
            "the ROM and the reference model differ in {failed} of {} checks",
            passed + failed
        );
    }
    Ok(())
}

/// Checks passed and failed, overall and since the last part.
#[derive(Default)]
struct Tally {
    passed: u64,
    failed: u64,
    part_passed: u64,
    part_failed: u64,
    /// The differences printed.
    reports: Vec<String>,
}

impl Tally {
    fn stopped(&self) -> bool {
        self.failed >= MAX_MISMATCHES as u64
    }

    /// `N passed, N failed` since the last call.
    fn part(&mut self) -> String {
        let text = format!("{} passed, {} failed", self.part_passed, self.part_failed);
        self.part_passed = 0;
        self.part_failed = 0;
        text
    }

    fn pass(&mut self) {
        self.passed += 1;
        self.part_passed += 1;
    }

    fn fail(&mut self, report: &str) {
        self.failed += 1;
        self.part_failed += 1;
        if self.failed <= MAX_PRINTED as u64 {
            println!("{report}");
            self.reports.push(report.to_string());
        } else if self.failed == MAX_PRINTED as u64 + 1 {
            println!("(further differences are counted, not printed)");
        }
    }

    /// Compares ROM perft with the model's at `position`.
    fn perft(
        &mut self,
        rom: &mut impl Answers,
        fen: &str,
        position: &Position,
        depth: u32,
    ) -> Result<()> {
        let want = perft(position, depth);
        let got = rom
            .perft(position, &[], depth)
            .with_context(|| format!("ROM perft({depth}) of {fen}"))?;
        if got == want {
            self.pass();
            return Ok(());
        }
        let mut report = format!("MISMATCH perft({depth}) of {fen}: ROM {got}, model {want}\n");
        let mut path = Vec::new();
        report.push_str(&locate(rom, position, &mut path, depth)?);
        self.fail(&report);
        Ok(())
    }

    /// Compares the ROM's answer at `ply` of a playout with the model's; `false` when
    /// they differ (the rest of that game is skipped).
    fn position(
        &mut self,
        rom: &mut impl Answers,
        playout: &Playout,
        ply: usize,
        game: &Game,
        model: Expected,
    ) -> Result<bool> {
        let moves = &playout.moves[..ply];
        let history: Vec<RomMove> = moves.iter().map(RomMove::of).collect();
        let context = || Difference::context(&playout.start, moves, game.position());
        let listed = match rom.legal_moves(&playout.start, &history) {
            Ok(listed) => listed,
            Err(error) if error.is::<HistoryRefused>() => {
                let refused = first_refused(rom, &playout.start, moves)?;
                self.fail(&format!(
                    "MISMATCH in a {} game: {}\n{}",
                    playout.kind,
                    refused,
                    context()
                ));
                return Ok(false);
            }
            Err(error) => {
                return Err(error.context(format!(
                    "the ROM's legal moves in a {} game\n{}",
                    playout.kind,
                    context()
                )))
            }
        };
        let difference = Difference::between(&listed, &game.position().legal_moves(), model);
        if difference.is_empty() {
            self.pass();
            return Ok(true);
        }
        self.fail(&format!(
            "MISMATCH in a {} game, ply {ply}:\n{}{difference}",
            playout.kind,
            context()
        ));
        Ok(false)
    }
}

/// What verify asks the engine under test: [`RomEngine`], or a stand-in in tests.
trait Answers {
    fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64>;
    fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves>;
}

impl Answers for RomEngine {
    fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64> {
        RomEngine::perft(self, start, history, depth)
    }

    fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves> {
        RomEngine::legal_moves(self, start, history)
    }
}

/// What the model says of a position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Expected {
    verdict: Verdict,
    in_check: bool,
}

impl Expected {
    fn of(game: &Game) -> Expected {
        Expected {
            verdict: Verdict::of_game(game),
            in_check: game.position().is_check(),
        }
    }
}

/// How the ROM's answer about a position differs from the model's.
#[derive(Debug, Default, PartialEq, Eq)]
struct Difference {
    only_rom: Vec<String>,
    only_model: Vec<String>,
    /// Moves the ROM listed more than once.
    repeated: Vec<String>,
    /// The ROM's and the model's, when they differ.
    verdicts: Option<(Verdict, Verdict)>,
    in_check: Option<(bool, bool)>,
}

impl Difference {
    fn between(listed: &LegalMoves, legal: &[Move], model: Expected) -> Difference {
        let theirs: Vec<RomMove> = legal.iter().map(RomMove::of).collect();
        let mut ours = listed.moves.clone();
        ours.sort();
        let mut repeated: Vec<String> = ours
            .windows(2)
            .filter(|pair| pair[0] == pair[1])
            .map(|pair| pair[0].to_string())
            .collect();
        repeated.dedup();
        let names = |moves: &[RomMove], others: &[RomMove]| -> Vec<String> {
            let mut names: Vec<String> = moves
                .iter()
                .filter(|m| !others.contains(m))
                .map(RomMove::to_string)
                .collect();
            names.sort();
            names.dedup();
            names
        };
        Difference {
            only_rom: names(&ours, &theirs),
            only_model: names(&theirs, &ours),
            repeated,
            verdicts: (listed.verdict != model.verdict).then_some((listed.verdict, model.verdict)),
            in_check: (listed.in_check != model.in_check)
                .then_some((listed.in_check, model.in_check)),
        }
    }

    fn is_empty(&self) -> bool {
        *self == Difference::default()
    }

    /// The start position, the moves from it and the position they lead to.
    fn context(start: &Position, moves: &[Move], position: &Position) -> String {
        let history = match moves {
            [] => "(none)".to_string(),
            _ => moves.iter().map(Move::to_uci).collect::<Vec<_>>().join(" "),
        };
        format!(
            "  start     {}\n  history   {history}\n  position  {}\n",
            start.to_fen(),
            position.to_fen()
        )
    }
}

/// The lines that differ, each `  what  ROM ..., model ...`.
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |moves: &[String]| match moves {
            [] => "(none)".to_string(),
            _ => moves.join(" "),
        };
        if !self.only_rom.is_empty() || !self.only_model.is_empty() {
            writeln!(f, "  only in the ROM:   {}", list(&self.only_rom))?;
            writeln!(f, "  only in the model: {}", list(&self.only_model))?;
        }
        if !self.repeated.is_empty() {
            writeln!(f, "  listed twice by the ROM: {}", list(&self.repeated))?;
        }
        if let Some((rom, model)) = self.verdicts {
            writeln!(f, "  verdict   ROM {rom}, model {model}")?;
        }
        if let Some((rom, model)) = self.in_check {
            let yes_no = |b: bool| if b { "yes" } else { "no" };
            writeln!(
                f,
                "  in check  ROM {}, model {}",
                yes_no(rom),
                yes_no(model)
            )?;
        }
        Ok(())
    }
}

/// Follows a perft difference down from `start` + `path`: the first position whose
/// legal moves differ, or the subtree whose count differs at depth 1.
fn locate(
    rom: &mut impl Answers,
    start: &Position,
    path: &mut Vec<Move>,
    depth: u32,
) -> Result<String> {
    let mut position = *start;
    for m in path.iter() {
        position.play_unchecked(m);
    }
    let history: Vec<RomMove> = path.iter().map(RomMove::of).collect();
    let legal = position.legal_moves();
    let context = Difference::context(start, path, &position);
    let listed = match rom.legal_moves(start, &history) {
        Ok(listed) => listed,
        Err(error) if error.is::<HistoryRefused>() => {
            return Ok(format!("{}\n{context}", first_refused(rom, start, path)?));
        }
        Err(error) => return Err(error),
    };
    // Only the moves matter in a perft tree: compare them with the ROM's own verdict.
    let model = Expected {
        verdict: listed.verdict,
        in_check: listed.in_check,
    };
    let difference = Difference::between(&listed, &legal, model);
    if !difference.is_empty() {
        return Ok(format!("{context}{difference}"));
    }
    let mut moves: Vec<Move> = legal.to_vec();
    moves.sort_by_key(Move::to_uci);
    if depth > 1 {
        for m in moves {
            let mut below = history.clone();
            below.push(RomMove::of(&m));
            let got = rom.perft(start, &below, depth - 1)?;
            let want = perft(&position.play(&m), depth - 1);
            if got != want {
                path.push(m);
                return locate(rom, start, path, depth - 1);
            }
        }
    }
    let mut text = context;
    let _ = writeln!(
        text,
        "  the ROM lists the same moves here and counts the same below each of them through \
         its history, yet its perft({depth}) differs: its perft routine itself is at fault"
    );
    Ok(text)
}

/// Which history move the ROM refused, and the moves it listed instead.
fn first_refused(rom: &mut impl Answers, start: &Position, moves: &[Move]) -> Result<String> {
    let history: Vec<RomMove> = moves.iter().map(RomMove::of).collect();
    for ply in 0..moves.len() {
        let listed = match rom.legal_moves(start, &history[..ply]) {
            Ok(listed) => listed,
            Err(error) if error.is::<HistoryRefused>() => continue,
            Err(error) => return Err(error),
        };
        if !listed.moves.contains(&history[ply]) {
            let mut names: Vec<String> = listed.moves.iter().map(RomMove::to_string).collect();
            names.sort();
            return Ok(format!(
                "the ROM refused history move {} ({}) as illegal; it lists there: {}",
                ply + 1,
                history[ply],
                names.join(" ")
            ));
        }
    }
    Ok(
        "the ROM refused the history, yet lists every move of it when asked one at a time"
            .to_string(),
    )
}

/// The plies (positions after that many moves) of a game of `len` moves that are
/// compared: all of a short game; of a longer one, its last [`GAME_TAIL`] and an even
/// sample of the rest (each query replays the whole history, so long games are costly).
fn checked_plies(len: usize) -> Vec<usize> {
    if len <= FULL_GAME {
        return (0..=len).collect();
    }
    let tail = len + 1 - GAME_TAIL;
    let step = tail.div_ceil(FULL_GAME - GAME_TAIL);
    (0..tail).step_by(step).chain(tail..=len).collect()
}

/// The kind of a random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
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
struct Playout {
    kind: Kind,
    start: Position,
    moves: Vec<Move>,
}

/// The random games, one kind after the other.
struct Playouts {
    rng: SplitMix64,
    starts: Vec<Position>,
    count: usize,
}

impl Playouts {
    fn new(seed: u64) -> Result<Playouts> {
        let mut starts = vec![Position::start()];
        for fen in suite_start_positions()? {
            let position =
                Position::from_fen(&fen).with_context(|| format!("the suite position {fen}"))?;
            if !position.legal_moves().is_empty() {
                starts.push(position);
            }
        }
        Ok(Playouts {
            rng: SplitMix64::new(seed),
            starts,
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

    fn next_playout(&mut self) -> Playout {
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
                self.play(&mut game, MAX_HISTORY, quiet_move);
                playout(kind, &game)
            }
        }
    }

    /// Plays up to `plies` moves chosen by `choose` (given the moves so far and the
    /// legal moves) while the game goes on.
    fn play(
        &mut self,
        game: &mut Game,
        plies: usize,
        choose: impl Fn(&mut SplitMix64, &Position, &[Move], &[Move]) -> Move,
    ) {
        for _ in 0..plies {
            if game.is_over() {
                return;
            }
            let legal = game.position().legal_moves();
            let m = choose(&mut self.rng, game.position(), game.moves(), &legal);
            // The move is one of the model's legal moves and the game goes on.
            let _ = game.play(m);
        }
    }
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

    /// The verdicts the model gives at the compared positions of the default games.
    fn model_verdicts(positions: usize, seed: u64) -> BTreeMap<Verdict, usize> {
        let mut generator = Playouts::new(seed).unwrap();
        let mut verdicts = BTreeMap::new();
        let mut compared = 0;
        while compared < positions {
            let playout = generator.next_playout();
            assert!(playout.moves.len() <= MAX_HISTORY);
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
        let verdicts = model_verdicts(DEFAULT_POSITIONS as usize, 1);
        for verdict in Verdict::ALL {
            let count = verdicts.get(&verdict).copied().unwrap_or(0);
            assert!(
                count >= 10,
                "{verdict}: only {count} positions in {verdicts:?}"
            );
        }
    }

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
        };
        let model = Expected {
            verdict: Verdict::GoesOn,
            in_check: false,
        };
        let difference = Difference::between(&listed, &legal, model);
        assert_eq!(
            difference.to_string(),
            "  only in the ROM:   a1a2\n  only in the model: b1c3\n  listed twice by the ROM: \
             a2a3\n  verdict   ROM threefold repetition (5), model game goes on (0)\n  in check  \
             ROM yes, model no\n"
        );
        let same = LegalMoves {
            moves: legal.iter().rev().map(RomMove::of).collect(),
            verdict: Verdict::GoesOn,
            in_check: false,
        };
        assert!(Difference::between(&same, &legal, model).is_empty());
        let b2b3 = start.parse_uci("b2b3").unwrap();
        assert_eq!(
            Difference::context(&start, &[b2b3], &start.play(&b2b3)),
            "  start     rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1\n  history   b2b3\n  position  \
             rnbqk/ppppp/5/1P3/P1PPP/RNBQK b Qq - 0 1\n"
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
"]
        );
    }

    #[test]
    fn the_rom_agrees_with_the_model_along_a_few_games() {
        let mut rom = RomEngine::for_tests();
        let mut generator = Playouts::new(7).unwrap();
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
}
