//! The search section of `cargo xtask bench`: the cartridge's search at each level on
//! the benchmark suite (positions of real games, `engine-src/search/bench.txt`), in
//! machine cycles and DMG seconds per move, against the targets the levels must meet.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use engine_src::search;
use engine_src::Game;

use crate::dmg_time;
use crate::harness::profile::RoutineProfile;
use crate::harness::Location;
use crate::positions::Entry;
use crate::progress::Progress;
use crate::rom;
use crate::rom_engine::{RomEngine, SearchAnswer};

/// A level of the game ([`search::Level`]: its name and depth) with the move times it
/// must keep to, in DMG seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelTarget {
    pub level: search::Level,
    /// The median move time must not pass this.
    pub median_target: f64,
    /// The longest move time must not pass this, where the level has such a target.
    pub max_target: Option<f64>,
}

impl LevelTarget {
    /// As the level page shows it: `EASY`.
    pub fn name(&self) -> &'static str {
        self.level.name()
    }

    pub fn depth(&self) -> u8 {
        self.level.depth()
    }

    /// Its key in `--json`: `easy`.
    pub fn key(&self) -> String {
        self.name().to_lowercase()
    }
}

/// The levels played against the engine, easiest first, with the think times a player
/// is promised: bench's suites and the cartridge's own games (`cargo xtask match
/// --cartridge`) are held to them.
pub const LEVELS: [LevelTarget; 3] = [
    LevelTarget {
        level: search::Level::Easy,
        median_target: 0.15,
        max_target: Some(1.0),
    },
    LevelTarget {
        level: search::Level::Medium,
        median_target: 0.5,
        max_target: Some(2.5),
    },
    LevelTarget {
        level: search::Level::Hard,
        median_target: 1.5,
        max_target: Some(8.0),
    },
];

/// The routines profiled while the hardest level searches (labels of the test ROM's
/// `.sym`; a missing one is listed as such).
pub const ROUTINES: [&str; 12] = [
    "Search",
    "OrderMoves",
    "PickNextMove",
    "Evaluate",
    "GenerateMoves",
    "GenerateQuiescenceMoves",
    "MakeMove",
    "UnmakeMove",
    "IsInCheck",
    "IsRepetition",
    "MayGiveCheck",
    "IsInCheckAfterMove",
];

/// Median and maximum of a level's move times, in machine cycles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveTimes {
    /// The middle value; with an even count, the mean of the two middle ones.
    pub median_cycles: f64,
    pub max_cycles: u64,
}

impl MoveTimes {
    /// Of `cycles`, one value per move; `None` for no moves.
    pub fn of(cycles: &[u64]) -> Option<MoveTimes> {
        let mut sorted = cycles.to_vec();
        sorted.sort_unstable();
        let count = sorted.len();
        let max_cycles = *sorted.last()?;
        let median_cycles = if count % 2 == 1 {
            sorted[count / 2] as f64
        } else {
            (sorted[count / 2 - 1] as f64 + sorted[count / 2] as f64) / 2.0
        };
        Some(MoveTimes {
            median_cycles,
            max_cycles,
        })
    }

    pub fn median_seconds(&self) -> f64 {
        self.median_cycles / crate::harness::CYCLES_PER_SECOND as f64
    }

    pub fn max_seconds(&self) -> f64 {
        dmg_time::seconds(self.max_cycles)
    }
}

/// What one level measured over the suite.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelRun {
    pub level: LevelTarget,
    pub times: MoveTimes,
    /// Every node of every search.
    pub nodes: u64,
    /// Every cycle of every search.
    pub cycles: u64,
    /// The slowest move's line in the suite and its note (which game, which ply).
    pub slowest: (usize, String),
}

impl LevelRun {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / dmg_time::seconds(self.cycles)
    }

    /// Whether the level keeps to its targets.
    pub fn meets_targets(&self) -> bool {
        self.times.median_seconds() <= self.level.median_target
            && self
                .level
                .max_target
                .is_none_or(|max| self.times.max_seconds() <= max)
    }
}

/// The whole section for one suite: each level, and the routines during the hardest one.
pub struct SearchRuns {
    /// The suite's file, from the repository root.
    pub path: &'static str,
    pub positions: usize,
    pub levels: Vec<LevelRun>,
    pub routines: Vec<RoutineProfile>,
    pub missing: Vec<&'static str>,
    /// The nodes and cycles of the profiled level.
    pub profiled: (u64, u64),
}

/// Searches every position of `suite` (the file `path`) at every level with the ROM,
/// each answer checked against the reference model's.
pub fn measure(rom: &mut RomEngine, path: &'static str, suite: &[Entry]) -> Result<SearchRuns> {
    let total = (suite.len() * LEVELS.len()) as u64;
    let progress = Progress::new(format!("bench: the search at each level on {path}"), total);
    let mut levels = Vec::new();
    let mut routines = Vec::new();
    let mut missing = Vec::new();
    let mut profiled = (0, 0);
    for (index, level) in LEVELS.iter().enumerate() {
        progress.say(format!(
            "bench: {} (depth {}) on {path}",
            level.name(),
            level.depth()
        ));
        let profile = index == LEVELS.len() - 1;
        if profile {
            let machine = rom.machine_mut();
            let present: Vec<&'static str>;
            (present, missing) = ROUTINES
                .iter()
                .partition(|name| machine.symbols().get(name).is_some());
            machine.start_profile(present.iter().map(|&name| Location::Label(name)))?;
        }
        let mut cycles = Vec::new();
        let mut nodes = 0;
        for entry in suite {
            // The level's whole search, without the time guard's node budget
            // (Level::limits): what the search itself costs.
            let limits = level.level.uncapped_limits();
            let before = rom.cycles();
            let answer = rom.search(&entry.position, &[], limits);
            cycles.push(rom.cycles() - before);
            let answer = answer?;
            let model = search::search(&Game::new(entry.position), limits);
            if SearchAnswer::of_model(&model).as_ref() != Some(&answer) {
                bail!(
                    "the ROM's search of {} at depth {} is {answer}, the reference model's {}: \
                     run `cargo xtask verify --search-suite {}` to see where they part",
                    entry.fen,
                    level.depth(),
                    SearchAnswer::of_model(&model)
                        .map_or("no move".to_owned(), |model| model.to_string()),
                    path
                );
            }
            nodes += answer.nodes;
            progress.advance(1);
        }
        if profile {
            routines = rom.machine_mut().stop_profile();
            profiled = (nodes, cycles.iter().sum());
        }
        let times = MoveTimes::of(&cycles).expect("the suite has positions");
        let slowest = (0..suite.len())
            .max_by_key(|&index| (cycles[index], std::cmp::Reverse(index)))
            .map(|index| &suite[index])
            .expect("the suite has positions");
        levels.push(LevelRun {
            level: *level,
            times,
            nodes,
            cycles: cycles.iter().sum(),
            slowest: (slowest.line, slowest.note.clone().unwrap_or_default()),
        });
    }
    Ok(SearchRuns {
        path,
        positions: suite.len(),
        levels,
        routines,
        missing,
        profiled,
    })
}

fn yes_no(met: bool) -> &'static str {
    if met {
        "yes"
    } else {
        "NO"
    }
}

/// A level's targets as the table shows them: `median <= 2.0 s, max <= 8 s`.
fn targets(level: &LevelTarget) -> String {
    let mut text = format!("median <= {} s", level.median_target);
    if let Some(max) = level.max_target {
        let _ = write!(text, ", max <= {max} s");
    }
    text
}

pub fn table(runs: &SearchRuns) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "the search at each level on the {} positions of {}, on {}: per move",
        runs.positions,
        runs.path,
        rom::UNCHECKED_TEST_ROM
    );
    let _ = writeln!(
        out,
        "  {:<7} {:>5} {:>9} {:>8} {:>13} {:>11} {:>8}  {:<30} met",
        "level", "depth", "median s", "max s", "median cycles", "max cycles", "nodes/s", "target",
    );
    for run in &runs.levels {
        let _ = writeln!(
            out,
            "  {:<7} {:>5} {:>9.3} {:>8.3} {:>13.0} {:>11} {:>8.0}  {:<30} {}",
            run.level.name(),
            run.level.depth(),
            run.times.median_seconds(),
            run.times.max_seconds(),
            run.times.median_cycles,
            run.times.max_cycles,
            run.nodes_per_second(),
            targets(&run.level),
            yes_no(run.meets_targets())
        );
    }
    if let Some(run) = runs.levels.last() {
        let (line, note) = &run.slowest;
        let _ = writeln!(
            out,
            "  slowest {} move: {:.3} s, line {line} of {} ({note})",
            run.level.name(),
            run.times.max_seconds(),
            runs.path
        );
    }
    let (nodes, cycles) = runs.profiled;
    let hardest = LEVELS[LEVELS.len() - 1];
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "routines during the {} searches of {} ({nodes} nodes): calls, cycles with their callees",
        hardest.name(),
        runs.path
    );
    let _ = writeln!(
        out,
        "  {:<23} {:>10} {:>12} {:>10} {:>10} {:>7}",
        "routine", "calls", "cycles", "per call", "per node", "share"
    );
    for routine in &runs.routines {
        let per_call = routine
            .cycles_per_call()
            .map_or("-".to_string(), |cycles| format!("{cycles:.1}"));
        let _ = writeln!(
            out,
            "  {:<23} {:>10} {:>12} {:>10} {:>10.1} {:>6.1}%",
            routine.name,
            routine.calls,
            routine.cycles,
            per_call,
            routine.cycles as f64 / nodes.max(1) as f64,
            routine.cycles as f64 * 100.0 / cycles.max(1) as f64
        );
    }
    for name in &runs.missing {
        let _ = writeln!(
            out,
            "  {name:<23} (no such label in {})",
            rom::UNCHECKED_TEST_ROM
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::CYCLES_PER_SECOND;

    #[test]
    fn median_and_maximum_of_move_times() {
        assert_eq!(MoveTimes::of(&[]), None);
        assert_eq!(
            MoveTimes::of(&[7]),
            Some(MoveTimes {
                median_cycles: 7.0,
                max_cycles: 7
            })
        );
        // Odd: the middle one, whatever the order.
        assert_eq!(
            MoveTimes::of(&[900, 100, 500, 300, 700]),
            Some(MoveTimes {
                median_cycles: 500.0,
                max_cycles: 900
            })
        );
        // Even: the mean of the two middle ones.
        let times = MoveTimes::of(&[4, 1, 3, 2_097_152]).unwrap();
        assert_eq!(times.median_cycles, 3.5);
        assert_eq!(times.max_cycles, 2_097_152);
        assert_eq!(times.max_seconds(), 2.0);
        let times = MoveTimes::of(&[CYCLES_PER_SECOND, 2 * CYCLES_PER_SECOND]).unwrap();
        assert_eq!(times.median_seconds(), 1.5);
    }

    fn run_of(level: LevelTarget, median_seconds: f64, max_seconds: f64) -> LevelRun {
        let second = CYCLES_PER_SECOND as f64;
        LevelRun {
            level,
            times: MoveTimes {
                median_cycles: median_seconds * second,
                max_cycles: (max_seconds * second) as u64,
            },
            nodes: 3000,
            cycles: 2 * CYCLES_PER_SECOND,
            slowest: (15, "game 7, ply 31".to_owned()),
        }
    }

    #[test]
    fn the_targets_are_the_median_and_for_hard_the_maximum() {
        let [easy, medium, hard] = LEVELS;
        assert!(run_of(easy, 0.15, 1.0).meets_targets());
        assert!(!run_of(easy, 0.15, 1.01).meets_targets());
        assert!(!run_of(easy, 0.151, 0.2).meets_targets());
        assert!(run_of(medium, 0.5, 2.5).meets_targets());
        assert!(!run_of(medium, 0.5, 2.6).meets_targets());
        assert!(run_of(hard, 1.5, 8.0).meets_targets());
        assert!(!run_of(hard, 1.5, 8.01).meets_targets());
        assert!(!run_of(hard, 1.51, 3.0).meets_targets());
        assert_eq!(run_of(hard, 1.0, 1.0).nodes_per_second(), 1500.0);
        assert_eq!(targets(&hard), "median <= 1.5 s, max <= 8 s");
        assert_eq!(targets(&easy), "median <= 0.15 s, max <= 1 s");
    }

    #[test]
    fn the_table_shows_each_level_its_targets_and_the_routines() {
        let [easy, medium, hard] = LEVELS;
        let runs = SearchRuns {
            path: crate::positions::BENCH_SUITE_PATH,
            positions: 48,
            levels: vec![
                run_of(easy, 0.1, 0.2),
                run_of(medium, 0.75, 1.5),
                run_of(hard, 1.5, 9.0),
            ],
            routines: vec![RoutineProfile {
                name: "Search".to_string(),
                address: 0x1234,
                calls: 3000,
                cycles: 1_048_576,
                unwound: 0,
            }],
            missing: vec!["IsRepetition"],
            profiled: (3000, 2 * CYCLES_PER_SECOND),
        };
        assert_eq!(
            table(&runs),
            "the search at each level on the 48 positions of engine-src/search/bench.txt, on \
             the test ROM without its stack checks: per move
  level   depth  median s    max s median cycles  max cycles  nodes/s  target                         met
  EASY        1     0.100    0.200        104858      209715     1500  median <= 0.15 s, max <= 1 s   yes
  MEDIUM      3     0.750    1.500        786432     1572864     1500  median <= 0.5 s, max <= 2.5 s  NO
  HARD        4     1.500    9.000       1572864     9437184     1500  median <= 1.5 s, max <= 8 s    NO
  slowest HARD move: 9.000 s, line 15 of engine-src/search/bench.txt (game 7, ply 31)

routines during the HARD searches of engine-src/search/bench.txt (3000 nodes): calls, cycles with their callees
  routine                      calls       cycles   per call   per node   share
  Search                        3000      1048576      349.5      349.5   50.0%
  IsRepetition            (no such label in the test ROM without its stack checks)
"
        );
    }
}
