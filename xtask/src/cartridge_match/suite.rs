//! `cargo xtask match --cartridge --make-suite`: writes bench's games suite
//! ([`positions::GAMES_SUITE_PATH`]) from the cartridge's own games of the run: every
//! position in which the cartridge was to move, openings included, in the order of the
//! games and their plies, each once (a position met again is skipped). Its header says how
//! it was made: the command line that writes the same file again (the games are
//! deterministic: the same ROM and engine play the same games).

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};

use super::play::{Job, Played};
use crate::cli::MatchArgs;
use crate::fairy::Fairy;
use crate::positions;
use crate::project;

/// The fewest games a suite is made of.
pub const MIN_SUITE_GAMES: usize = 20;

/// Fails unless a run of `games` games can make the suite.
pub fn check_plan(games: usize) -> Result<()> {
    if games < MIN_SUITE_GAMES {
        bail!(
            "--make-suite: {games} games would be played; the games suite is made of at least \
             {MIN_SUITE_GAMES} (--openings {} or more)",
            MIN_SUITE_GAMES.div_ceil(2)
        );
    }
    Ok(())
}

/// How the suite was made: its header's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    /// The arguments of `cargo xtask match` that make it again.
    pub command: String,
    /// Fairy-Stockfish's `id name`.
    pub engine: String,
    pub games: usize,
}

/// One position of the suite, with the note above it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub note: String,
    pub fen: String,
}

/// The command line of `args` that plays the same games.
fn command_of(args: &MatchArgs) -> String {
    let levels: Vec<String> = args
        .levels
        .iter()
        .map(|level| level.name().to_lowercase())
        .collect();
    let depths: Vec<String> = match args.fairy_depths.as_slice() {
        [] => vec![super::DEFAULT_FAIRY_DEPTH.to_string()],
        depths => depths.iter().map(u8::to_string).collect(),
    };
    format!(
        "cargo xtask match --cartridge --levels {} --fairy-depths {} --openings {} --seed {} --make-suite",
        levels.join(","),
        depths.join(","),
        args.openings.unwrap_or(super::DEFAULT_OPENINGS),
        args.seed
    )
}

/// Writes the suite of the games played (`played[i]` the game of `jobs[i]`), and reads
/// it back as bench reads it.
pub fn write(jobs: &[Job<'_>], played: &[Played], args: &MatchArgs) -> Result<()> {
    let engine = Fairy::start(&args.engine)?.name().to_owned();
    let mut taken: Vec<Taken> = Vec::new();
    for (job, game) in jobs.iter().zip(played) {
        for think in &game.thinks {
            if !taken.iter().any(|t| t.fen == think.fen) {
                taken.push(Taken {
                    note: format!(
                        "{} as {:?} vs depth {}, game {} (opening line {}), ply {}",
                        job.level.name(),
                        job.engine_color,
                        job.fairy_depth,
                        job.number,
                        job.opening.line,
                        think.ply
                    ),
                    fen: think.fen.clone(),
                });
            }
        }
    }
    let made = Made {
        command: command_of(args),
        engine,
        games: jobs.len(),
    };
    let path = project::root().join(positions::GAMES_SUITE_PATH);
    project::write_atomic(&path, suite_text(&made, &taken).as_bytes())?;
    positions::games_suite().with_context(|| format!("reading back {}", path.display()))?;
    println!(
        "{}: {} positions of {} games",
        positions::GAMES_SUITE_PATH,
        taken.len(),
        jobs.len()
    );
    Ok(())
}

/// The header's lines before the facts of [`Made`].
const HEADER: &str = "\
# The games suite of Chess Attack: the positions the cartridge met in its own games, one
# FEN a line, which `cargo xtask bench` searches at each level beside bench.txt. Written
# by `cargo xtask match --cartridge --make-suite` (xtask/src/cartridge_match/suite.rs): do
# not edit by hand.
#
# The cartridge (build/chessattack.gb, played through its joypad in the emulator) played
# Fairy-Stockfish from the openings of engine-src/search/openings.txt, each with the
# cartridge as White and as Black; Fairy-Stockfish's side played the opening's moves while
# they were legal. Every position in which the cartridge was to move is here, the openings
# included, in the order of the games and their plies; a position met again is skipped.
";

/// The file: [`HEADER`], the facts of `made`, then each position under its note.
pub fn suite_text(made: &Made, taken: &[Taken]) -> String {
    let mut text = HEADER.to_owned();
    let _ = writeln!(text, "#");
    let _ = writeln!(text, "# Command: {}", made.command);
    let _ = writeln!(text, "# Engine: {}", made.engine);
    let _ = writeln!(text, "# Games: {}", made.games);
    let _ = writeln!(text, "# Positions: {}", taken.len());
    for t in taken {
        let _ = write!(text, "\n# {}\n{}\n", t.note, t.fen);
    }
    text
}

/// The facts of a suite's header, or what is wrong with it.
#[cfg(test)]
pub fn read_header(text: &str) -> Result<(Made, usize)> {
    let Some(rest) = text.strip_prefix(HEADER) else {
        bail!("the header does not start as xtask/src/cartridge_match/suite.rs writes it");
    };
    let mut lines = rest.lines();
    if lines.next() != Some("#") {
        bail!("no `#` line after the header's text");
    }
    let mut fact = |name: &str| -> Result<String> {
        let line = lines.next().unwrap_or("");
        line.strip_prefix(&format!("# {name}: "))
            .map(str::to_owned)
            .with_context(|| format!("expected `# {name}: ...`, found {line:?}"))
    };
    let command = fact("Command")?;
    let engine = fact("Engine")?;
    let games = fact("Games")?.parse().context("`# Games:` is no number")?;
    let positions = fact("Positions")?
        .parse()
        .context("`# Positions:` is no number")?;
    Ok((
        Made {
            command,
            engine,
            games,
        },
        positions,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_suite_is_what_make_suite_writes() {
        let path = project::root().join(positions::GAMES_SUITE_PATH);
        let text = std::fs::read_to_string(&path).unwrap();
        let (made, count) = read_header(&text).unwrap();
        assert!(made.games >= MIN_SUITE_GAMES, "{made:?}");
        assert!(made.command.starts_with("cargo xtask match --cartridge "));
        let entries = positions::games_suite().unwrap();
        assert_eq!(entries.len(), count);
        let taken: Vec<Taken> = entries
            .into_iter()
            .map(|entry| Taken {
                note: entry.note.unwrap(),
                fen: entry.fen,
            })
            .collect();
        assert_eq!(text, suite_text(&made, &taken));
        let mut fens: Vec<&str> = taken.iter().map(|t| t.fen.as_str()).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), count, "a position is there twice");
    }

    #[test]
    fn a_header_not_written_by_make_suite_is_refused() {
        assert_eq!(
            read_header("# games\nrnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1\n")
                .unwrap_err()
                .to_string(),
            "the header does not start as xtask/src/cartridge_match/suite.rs writes it"
        );
        let made = Made {
            command: "cargo xtask match --cartridge --make-suite".to_owned(),
            engine: "Fairy-Stockfish 11.1 LB 64".to_owned(),
            games: 20,
        };
        let text = suite_text(&made, &[]);
        assert_eq!(read_header(&text).unwrap(), (made, 0));
        let broken = text.replace("# Games: 20", "# Games: twenty");
        assert_eq!(
            read_header(&broken).unwrap_err().to_string(),
            "`# Games:` is no number"
        );
    }

    #[test]
    fn fewer_than_twenty_games_make_no_suite() {
        assert!(check_plan(20).is_ok());
        assert_eq!(
            check_plan(18).unwrap_err().to_string(),
            "--make-suite: 18 games would be played; the games suite is made of at least 20 \
             (--openings 10 or more)"
        );
    }
}
