//! `cargo xtask match --cartridge`: what a player waits for. The built cartridge
//! (build/chessattack.gb, built first as `cargo xtask rom` builds it) plays
//! Fairy-Stockfish in the harness, through its joypad from power-on, its music, clocks
//! and VBlank handler running and the PPU-access checks on ([`play`]): each level of
//! `--levels` against each depth of `--fairy-depths` (4 unless given), from `--openings`
//! openings (20 unless given, chosen by `--seed` as `cargo xtask match` chooses them),
//! each with the cartridge as White and as Black.
//!
//! How an opening is played, as the cartridge's own moves cannot be forced: the
//! player's side (Fairy-Stockfish's) plays the opening's move of each of its plies while
//! that move is legal in the game, and the cartridge answers with its own moves; once an
//! opening's move is no longer legal (the cartridge went another way), or the opening has
//! ended, Fairy-Stockfish's `go depth N` plays. Game `g` of a pairing presses START
//! `g` frames later than game 0, so the cartridge draws another seed at that press.
//!
//! Per pairing it prints every figure of the engine's think time ([`play`] defines its
//! two moments): median, 90th percentile and longest (with its position) in frames and
//! DMG seconds, the share of moves over the level's longest target and whether the median
//! meets its own (the targets of [`LEVELS`]), where the moves came from when the ROM says
//! (`wEngineMoveSource`), and the score with its Elo margin ([`Tally`]). The games run
//! on every core, a game at a time on each. `--out FILE` lists every engine move,
//! `--json` prints the figures as one JSON object, `--make-suite` writes every engine
//! position of the games to bench's games suite ([`suite`]).

pub mod play;
pub mod suite;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_src::search::Level;
use engine_src::Color;
use serde_json::{json, Value};

use crate::assets;
use crate::bench::{LevelTarget, LEVELS};
use crate::cli::MatchArgs;
use crate::dmg_time;
use crate::fairy::Fairy;
use crate::harness::CYCLES_PER_FRAME;
use crate::progress::Progress;
use crate::project::{self, plural};
use crate::rom;
use crate::strength::{self, GameResult, Opening, Tally};
use play::{Job, Played, Think, Values, MOVE_SOURCES};

/// The openings played unless `--openings` says, each with both colours: 40 games a
/// pairing.
pub const DEFAULT_OPENINGS: u32 = 20;
/// The Fairy-Stockfish depth played unless `--fairy-depths` says.
pub const DEFAULT_FAIRY_DEPTH: u8 = 4;

/// `frames` as DMG seconds (59.7275 frames a second).
pub fn frame_seconds(frames: u64) -> f64 {
    dmg_time::seconds(frames * CYCLES_PER_FRAME)
}

/// The think-time figures of one pairing's engine moves.
#[derive(Debug, Clone, PartialEq)]
pub struct ThinkFigures {
    pub moves: usize,
    /// The middle value in frames; with an even count, the mean of the two middle ones.
    pub median_frames: f64,
    /// The 90th percentile by nearest rank: the smallest value at least 90% of the
    /// moves do not pass.
    pub p90_frames: u64,
    pub longest_frames: u64,
    /// The position of the longest think (the first of the longest).
    pub longest_fen: String,
    /// Moves over the level's longest target.
    pub over_longest_target: usize,
    /// The median and the longest of the frames to all of it drawn (the move list's
    /// entry and the status line too, [`Think::drawn`]).
    pub median_drawn_frames: f64,
    pub longest_drawn_frames: u64,
}

/// The middle value of `values` (sorted, at least one); with an even count, the mean of
/// the two middle ones.
fn median_of(values: &[u64]) -> f64 {
    let count = values.len();
    if count % 2 == 1 {
        values[count / 2] as f64
    } else {
        (values[count / 2 - 1] + values[count / 2]) as f64 / 2.0
    }
}

impl ThinkFigures {
    /// Of `thinks` (at least one), against `target`'s longest.
    pub fn of(thinks: &[&Think], target: &LevelTarget) -> Option<ThinkFigures> {
        let mut frames: Vec<u64> = thinks.iter().map(|think| think.frames).collect();
        frames.sort_unstable();
        let count = frames.len();
        let longest = thinks.iter().max_by_key(|think| think.frames)?;
        let longest = thinks
            .iter()
            .find(|think| think.frames == longest.frames)
            .expect("the longest is among them");
        let mut drawn: Vec<u64> = thinks.iter().map(|think| think.drawn).collect();
        drawn.sort_unstable();
        let rank = (count * 9).div_ceil(10);
        let over = target.max_target.map_or(0, |max| {
            frames
                .iter()
                .filter(|&&frames| frame_seconds(frames) > max)
                .count()
        });
        Some(ThinkFigures {
            moves: count,
            median_frames: median_of(&frames),
            p90_frames: frames[rank - 1],
            longest_frames: longest.frames,
            longest_fen: longest.fen.clone(),
            over_longest_target: over,
            median_drawn_frames: median_of(&drawn),
            longest_drawn_frames: drawn[count - 1],
        })
    }

    pub fn median_seconds(&self) -> f64 {
        self.median_frames * CYCLES_PER_FRAME as f64 / crate::harness::CYCLES_PER_SECOND as f64
    }

    /// The share of moves over the longest target, in percent.
    pub fn over_percent(&self) -> f64 {
        100.0 * self.over_longest_target as f64 / self.moves as f64
    }

    /// Whether the median and the longest keep to `target`.
    pub fn meets(&self, target: &LevelTarget) -> (bool, bool) {
        (
            self.median_seconds() <= target.median_target,
            target
                .max_target
                .is_none_or(|max| frame_seconds(self.longest_frames) <= max),
        )
    }
}

/// The games of one pairing: the cartridge at a level against a Fairy-Stockfish depth.
struct Pairing {
    level: LevelTarget,
    fairy_depth: u8,
    tally: Tally,
    plies: usize,
    /// Every engine move with the number of its game.
    thinks: Vec<(u32, Think)>,
}

impl Pairing {
    fn figures(&self) -> Option<ThinkFigures> {
        let thinks: Vec<&Think> = self.thinks.iter().map(|(_, think)| think).collect();
        ThinkFigures::of(&thinks, &self.level)
    }

    /// How many moves came from each source of [`MOVE_SOURCES`]; None when the ROM does
    /// not say.
    fn sources(&self) -> Option<Vec<(&'static str, usize)>> {
        if self.thinks.iter().any(|(_, think)| think.source.is_none()) {
            return None;
        }
        Some(
            MOVE_SOURCES
                .iter()
                .map(|&(constant, name)| {
                    let count = self
                        .thinks
                        .iter()
                        .filter(|(_, think)| think.source == Some(constant))
                        .count();
                    (name, count)
                })
                .collect(),
        )
    }

    fn name(&self) -> String {
        format!(
            "{} (depth {}) vs Fairy-Stockfish depth {}",
            self.level.name(),
            self.level.depth(),
            self.fairy_depth
        )
    }
}

/// The level's targets, from [`LEVELS`].
fn target_of(level: Level) -> LevelTarget {
    *LEVELS
        .iter()
        .find(|target| target.level == level)
        .expect("LEVELS holds every level")
}

/// What `run` plays and writes, from the command line.
pub struct Plan {
    pub levels: Vec<Level>,
    pub fairy_depths: Vec<u8>,
    pub openings: Vec<Opening>,
}

impl Plan {
    pub fn of(args: &MatchArgs) -> Result<Plan> {
        let mut levels = args.levels.clone();
        levels.sort();
        levels.dedup();
        if levels.is_empty() {
            bail!("no games to play: --levels needs a level");
        }
        let mut fairy_depths = match args.fairy_depths.as_slice() {
            [] => vec![DEFAULT_FAIRY_DEPTH],
            depths => depths.to_vec(),
        };
        fairy_depths.sort();
        fairy_depths.dedup();
        let openings =
            strength::read_openings(Some(args.openings.unwrap_or(DEFAULT_OPENINGS)), args.seed)?;
        Ok(Plan {
            levels,
            fairy_depths,
            openings,
        })
    }

    /// Every game: each level against each depth, each opening with the cartridge White,
    /// then Black; a pairing's games numbered from 0.
    fn jobs(&self) -> Vec<Job<'_>> {
        let mut jobs = Vec::new();
        for &level in &self.levels {
            for &fairy_depth in &self.fairy_depths {
                let mut number = 0;
                for opening in &self.openings {
                    for engine_color in Color::ALL {
                        jobs.push(Job {
                            level,
                            fairy_depth,
                            opening,
                            engine_color,
                            number,
                        });
                        number += 1;
                    }
                }
            }
        }
        jobs
    }
}

/// The cartridge as `cargo xtask rom` builds it, written to build/ and its summary
/// printed (on standard error with `--json`, whose standard output is the JSON alone).
fn build_cartridge(json: bool) -> Result<rom::Build> {
    let root = project::root();
    assets::require_up_to_date(&root)?;
    let build = rom::build(&rom::engine_units(&root)?, &[], &root.join(rom::ROM_PATH))?;
    let summary = rom::summary(rom::ROM_PATH, &build);
    if json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(build)
}

pub fn run(args: &MatchArgs) -> Result<()> {
    let plan = Plan::of(args)?;
    let jobs = plan.jobs();
    if args.make_suite {
        suite::check_plan(jobs.len())?;
    }
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(jobs.len());
    // Every engine first, so that a missing one fails before anything is built or played.
    let fairies = (0..workers)
        .map(|_| Fairy::start(&args.engine))
        .collect::<Result<Vec<_>>>()?;
    let build = build_cartridge(args.json)?;
    let values = Values::read(&crate::soak::machine(&build)?)?;
    let art = assets::gfx::read_art_from(&project::root())?;
    let started = Instant::now();
    let progress = Progress::new("match --cartridge", jobs.len() as u64);
    let image = play::Image {
        rom: &build.rom,
        sym: &build.sym,
    };
    let played = play_all(&jobs, fairies, &image, &values, &art, &progress, args.json)?;
    drop(progress);
    let wall_seconds = started.elapsed().as_secs_f64();

    let mut pairings: Vec<Pairing> = Vec::new();
    for (job, game) in jobs.iter().zip(&played) {
        let level = target_of(job.level);
        let index = match pairings
            .iter()
            .position(|p| p.level.level == job.level && p.fairy_depth == job.fairy_depth)
        {
            Some(index) => index,
            None => {
                pairings.push(Pairing {
                    level,
                    fairy_depth: job.fairy_depth,
                    tally: Tally::default(),
                    plies: 0,
                    thinks: Vec::new(),
                });
                pairings.len() - 1
            }
        };
        let pairing = &mut pairings[index];
        pairing.tally.add(game.result);
        if game.outcome.is_none() {
            pairing.tally.capped += 1;
        }
        pairing.plies += game.plies;
        pairing
            .thinks
            .extend(game.thinks.iter().map(|think| (job.number, think.clone())));
    }
    let summary = format!(
        "{} from {} (seed {}) on {} threads, time {wall_seconds:.1} s",
        plural(jobs.len(), "game"),
        plural(plan.openings.len(), "opening"),
        args.seed,
        workers
    );
    if args.json {
        println!("{}", json_of(&pairings, wall_seconds));
    } else {
        println!();
        print!("{}", table(&pairings));
        println!();
        print!("{}", details(&pairings));
        println!("{summary}");
    }
    if let Some(path) = &args.out {
        let text = moves_listing(&pairings);
        project::write_atomic(path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if args.make_suite {
        suite::write(&jobs, &played, args)?;
    }
    Ok(())
}

/// Plays every job on `fairies.len()` threads, each with its own Fairy-Stockfish, a game
/// at a time; a line per game as it ends (on standard error with `json`). Fails with the first game that fails (the
/// others stop at their next game).
fn play_all(
    jobs: &[Job<'_>],
    fairies: Vec<Fairy>,
    image: &play::Image<'_>,
    values: &Values,
    art: &assets::gfx::Art,
    progress: &Progress,
    json: bool,
) -> Result<Vec<Played>> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<Played>>>> =
        Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for mut fairy in fairies {
            let (next, failed, results) = (&next, &failed, &results);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= jobs.len() || failed.load(Ordering::Relaxed) {
                    return;
                }
                let job = jobs[index];
                let result = play::play(image, values, art, &mut fairy, job, usize::MAX)
                    .with_context(|| describe_job(&job));
                match &result {
                    Ok(game) if json => eprintln!("{}", game_line(&job, game)),
                    Ok(game) => progress.println(game_line(&job, game)),
                    Err(_) => failed.store(true, Ordering::Relaxed),
                }
                progress.advance(1);
                results.lock().expect("no thread panics holding it")[index] = Some(result);
            });
        }
    });
    let mut played = Vec::new();
    for result in results.into_inner().expect("no thread panicked") {
        match result {
            Some(result) => played.push(result?),
            None => bail!("a game was not played"),
        }
    }
    Ok(played)
}

fn describe_job(job: &Job<'_>) -> String {
    format!(
        "{} as {:?} against Fairy-Stockfish depth {}, game {} (opening of line {})",
        job.level.name(),
        job.engine_color,
        job.fairy_depth,
        job.number,
        job.opening.line
    )
}

/// `HARD as White vs depth 4, game 3 (opening line 7): win in 63 plies, 31 engine moves,
/// longest 8.20 s`.
fn game_line(job: &Job<'_>, game: &Played) -> String {
    let result = match game.result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    };
    let longest = game
        .thinks
        .iter()
        .map(|think| think.frames)
        .max()
        .unwrap_or(0);
    format!(
        "{} as {:?} vs depth {}, game {} (opening line {}): {result} in {} plies ({}), {}, longest {:.2} s",
        job.level.name(),
        job.engine_color,
        job.fairy_depth,
        job.number,
        job.opening.line,
        game.plies,
        game.outcome.map_or("no ending by then".to_owned(), |outcome| format!("{outcome:?}")),
        plural(game.thinks.len(), "engine move"),
        frame_seconds(longest)
    )
}

/// `0.250 s (15)`: DMG seconds and frames.
fn seconds_and_frames(frames: f64) -> String {
    let seconds = frames * CYCLES_PER_FRAME as f64 / crate::harness::CYCLES_PER_SECOND as f64;
    format!("{seconds:.2} s ({frames})")
}

fn yes_no(met: bool) -> &'static str {
    if met {
        "yes"
    } else {
        "no"
    }
}

/// The table of the run, in Markdown (README, Performance, "What a player waits"): a row
/// per pairing.
fn table(pairings: &[Pairing]) -> String {
    let mut out = String::from(
        "| level | opponent | games | engine moves | median | 90th percentile | longest | \
         over the longest target | targets met (median, longest) | score | Elo (95%) |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n",
    );
    for pairing in pairings {
        let Some(figures) = pairing.figures() else {
            continue;
        };
        let (median_met, longest_met) = figures.meets(&pairing.level);
        let _ = writeln!(
            out,
            "| {} | FSF depth {} | {} | {} | {} | {} | {} | {:.1}% over {} s | {}, {} | {:.1}% | {} |",
            pairing.level.name(),
            pairing.fairy_depth,
            pairing.tally.games(),
            figures.moves,
            seconds_and_frames(figures.median_frames),
            seconds_and_frames(figures.p90_frames as f64),
            seconds_and_frames(figures.longest_frames as f64),
            figures.over_percent(),
            pairing.level.max_target.unwrap_or(f64::INFINITY),
            yes_no(median_met),
            yes_no(longest_met),
            100.0 * pairing.tally.score(),
            pairing.tally.elo_text()
        );
    }
    out
}

/// Per pairing: the games' results, the longest think's position, the targets, and
/// where the moves came from.
fn details(pairings: &[Pairing]) -> String {
    let mut out = String::new();
    for pairing in pairings {
        let tally = &pairing.tally;
        let _ = writeln!(
            out,
            "{}: {} ({:.0} plies on average), +{} ={} -{}{}",
            pairing.name(),
            plural(tally.games(), "game"),
            pairing.plies as f64 / f64::from(tally.games()),
            tally.wins,
            tally.draws,
            tally.losses,
            match tally.capped {
                0 => String::new(),
                capped => format!(
                    " ({} drawn at {} plies)",
                    plural(capped, "game"),
                    strength::MAX_GAME_PLIES
                ),
            }
        );
        if let Some(figures) = pairing.figures() {
            let _ = writeln!(
                out,
                "  targets: median at most {} s, longest at most {} s; the longest in {}",
                pairing.level.median_target,
                pairing.level.max_target.unwrap_or(f64::INFINITY),
                figures.longest_fen
            );
            let _ = writeln!(
                out,
                "  the move list and the status line drawn too: median {}, longest {}",
                seconds_and_frames(figures.median_drawn_frames),
                seconds_and_frames(figures.longest_drawn_frames as f64)
            );
        }
        match pairing.sources() {
            Some(sources) => {
                let counts: Vec<String> = sources
                    .iter()
                    .map(|(name, count)| format!("{name} {count}"))
                    .collect();
                let _ = writeln!(out, "  the engine's moves: {}", counts.join(", "));
            }
            None => {
                let _ = writeln!(
                    out,
                    "  the engine's moves: the ROM has no wEngineMoveSource (no breakdown)"
                );
            }
        }
    }
    out
}

fn json_of(pairings: &[Pairing], wall_seconds: f64) -> Value {
    let rows: Vec<Value> = pairings
        .iter()
        .map(|pairing| {
            let figures = pairing.figures();
            let (elo, margin) = pairing.tally.elo();
            json!({
                "level": pairing.level.key(),
                "depth": pairing.level.depth(),
                "fairy_depth": pairing.fairy_depth,
                "games": pairing.tally.games(),
                "wins": pairing.tally.wins,
                "draws": pairing.tally.draws,
                "losses": pairing.tally.losses,
                "score": pairing.tally.score(),
                "elo": elo,
                "elo_margin": margin,
                "engine_moves": figures.as_ref().map(|f| f.moves),
                "median_frames": figures.as_ref().map(|f| f.median_frames),
                "median_seconds": figures.as_ref().map(ThinkFigures::median_seconds),
                "p90_frames": figures.as_ref().map(|f| f.p90_frames),
                "longest_frames": figures.as_ref().map(|f| f.longest_frames),
                "longest_seconds": figures.as_ref().map(|f| frame_seconds(f.longest_frames)),
                "longest_fen": figures.as_ref().map(|f| f.longest_fen.clone()),
                "over_longest_target": figures.as_ref().map(|f| f.over_longest_target),
                "median_drawn_frames": figures.as_ref().map(|f| f.median_drawn_frames),
                "longest_drawn_frames": figures.as_ref().map(|f| f.longest_drawn_frames),
                "target_median_seconds": pairing.level.median_target,
                "target_longest_seconds": pairing.level.max_target,
                "sources": pairing.sources().map(|sources| sources
                    .into_iter()
                    .map(|(name, count)| (name.to_owned(), json!(count)))
                    .collect::<serde_json::Map<_, _>>()),
            })
        })
        .collect();
    json!({ "wall_seconds": wall_seconds, "pairings": rows })
}

/// `--out`: every engine move, a line each: level, Fairy-Stockfish depth, game, ply,
/// frames to the move on the board, DMG seconds, frames to all of it drawn, source, FEN;
/// tab-separated under a header line.
fn moves_listing(pairings: &[Pairing]) -> String {
    let mut out =
        String::from("level\tfairy_depth\tgame\tply\tframes\tseconds\tdrawn_frames\tsource\tfen\n");
    for pairing in pairings {
        for (game, think) in &pairing.thinks {
            let _ = writeln!(
                out,
                "{}\t{}\t{game}\t{}\t{}\t{:.3}\t{}\t{}\t{}",
                pairing.level.key(),
                pairing.fairy_depth,
                think.ply,
                think.frames,
                frame_seconds(think.frames),
                think.drawn,
                think.source.unwrap_or("-"),
                think.fen
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Task, DEFAULT_FAIRY_STOCKFISH};

    fn match_args(words: &[&str]) -> Result<MatchArgs, clap::Error> {
        let mut line = vec!["cargo xtask", "match"];
        line.extend_from_slice(words);
        match Cli::try_parse_from(line)?.task {
            Task::Match(args) => Ok(args),
            _ => unreachable!("the match task"),
        }
    }

    #[test]
    fn a_cartridge_game_at_easy_times_each_engine_move_in_frames() {
        let build = rom::cartridge().unwrap();
        let image = play::Image {
            rom: &build.rom,
            sym: &build.sym,
        };
        let values = Values::read(&crate::soak::machine(&build).unwrap()).unwrap();
        let art = assets::gfx::read_art_from(&project::root()).unwrap();
        let mut fairy = Fairy::start(Path::new(DEFAULT_FAIRY_STOCKFISH)).unwrap();
        let openings = strength::read_openings(Some(1), 1).unwrap();
        let job = Job {
            level: Level::Easy,
            fairy_depth: 1,
            opening: &openings[0],
            engine_color: Color::Black,
            number: 0,
        };
        let game = play::play(&image, &values, &art, &mut fairy, job, 12).unwrap();
        assert_eq!(game.plies, 12);
        assert_eq!(game.outcome, None);
        let plies: Vec<usize> = game.thinks.iter().map(|think| think.ply).collect();
        assert_eq!(plies, [1, 3, 5, 7, 9, 11]);
        let frames: Vec<u64> = game.thinks.iter().map(|think| think.frames).collect();
        let drawn: Vec<u64> = game.thinks.iter().map(|think| think.drawn).collect();
        // The engine's think times at EASY on this build, in frames, to the move on the
        // board and to all of it drawn: they change with the engine's speed (print them
        // with --nocapture and write them here).
        println!("think frames: {frames:?}, drawn: {drawn:?}");
        assert_eq!(
            (frames.as_slice(), drawn.as_slice()),
            (&THINK_FRAMES.0[..], &THINK_FRAMES.1[..])
        );
        assert_eq!(
            game.thinks[0].fen,
            "rnbqk/ppppp/3P1/5/PPP1P/RNBQK b Qq - 0 1"
        );
    }

    /// See [`a_cartridge_game_at_easy_times_each_engine_move_in_frames`].
    const THINK_FRAMES: ([u64; 6], [u64; 6]) = ([3, 5, 8, 5, 4, 13], [3, 6, 9, 8, 7, 16]);

    #[test]
    fn an_unknown_level_is_refused_by_name() {
        let error = match_args(&["--cartridge", "--levels", "easy,expert"])
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.starts_with(
                "error: invalid value 'expert' for '--levels <LEVELS>': `expert` is not a \
                 level: easy, medium or hard\n"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_missing_engine_is_refused_naming_its_path_before_anything_is_played() {
        let args =
            match_args(&["--cartridge", "--engine", "/nonexistent/fairy-stockfish"]).unwrap();
        assert_eq!(
            run(&args).unwrap_err().to_string(),
            "Fairy-Stockfish not found at /nonexistent/fairy-stockfish: install it with: \
             apt-get install -y fairy-stockfish (or pass --engine PATH)"
        );
    }

    #[test]
    fn the_cartridge_options_need_cartridge() {
        for option in [&["--json"][..], &["--make-suite"], &["--out", "moves.tsv"]] {
            assert!(match_args(option).is_err(), "{option:?}");
        }
        let args = match_args(&["--cartridge"]).unwrap();
        let plan = Plan::of(&args).unwrap();
        assert_eq!(plan.openings.len(), 20);
        assert_eq!(plan.fairy_depths, [4]);
        assert_eq!(plan.levels, Level::ALL);
        assert_eq!(plan.jobs().len(), 120);
    }

    fn think(frames: u64, fen: &str) -> Think {
        Think {
            ply: 0,
            fen: fen.to_owned(),
            frames,
            drawn: frames + 2,
            source: None,
        }
    }

    #[test]
    fn the_figures_of_think_times() {
        let hard = target_of(Level::Hard);
        // 8 s is 477.8 frames: 478 is over.
        let thinks: Vec<Think> = [30, 90, 478, 60, 477, 120, 478, 10, 20, 40]
            .iter()
            .enumerate()
            .map(|(i, &frames)| think(frames, &format!("fen {i}")))
            .collect();
        let refs: Vec<&Think> = thinks.iter().collect();
        let figures = ThinkFigures::of(&refs, &hard).unwrap();
        assert_eq!(
            figures,
            ThinkFigures {
                moves: 10,
                median_frames: 75.0,
                p90_frames: 478,
                longest_frames: 478,
                longest_fen: "fen 2".to_owned(),
                over_longest_target: 2,
                median_drawn_frames: 77.0,
                longest_drawn_frames: 480,
            }
        );
        assert_eq!(figures.over_percent(), 20.0);
        assert_eq!(format!("{:.4}", figures.median_seconds()), "1.2557");
        assert_eq!(figures.meets(&hard), (true, false));
        assert_eq!(ThinkFigures::of(&[], &hard), None);
        assert_eq!(format!("{:.4}", frame_seconds(60)), "1.0046");
    }
}
