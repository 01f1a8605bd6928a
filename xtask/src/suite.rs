//! Perft suites: files of `FEN ;D1 n ;D2 n ...` lines (the format is
//! [`engine_src::perft::parse_suite`]'s), read for `perft --epd`, and the checked-in
//! suite [`SUITE_PATH`], whose positions `verify`, `crosscheck` and `bench` also start
//! from. Every error names the file and the line.

use std::path::Path;

use anyhow::{bail, Context, Result};
use engine_src::perft::{parse_suite, SuiteError};
use engine_src::Position;

/// The checked-in suite, from the repository root: positions for every special rule
/// with their counts from Fairy-Stockfish.
pub const SUITE_PATH: &str = "engine-src/perft/suite.epd";

/// One line of a suite, its FEN read by the model.
pub struct Entry {
    /// 1-based line number in the file.
    pub line: usize,
    pub fen: String,
    pub position: Position,
    /// (depth, count) in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// The checked-in suite [`SUITE_PATH`].
pub fn checked_in() -> Result<Vec<Entry>> {
    read(&crate::project::root().join(SUITE_PATH))
}

/// Reads the suite at `path`. Every FEN is read before anything runs, so a typo fails at
/// once; a file without a single position is an error too, not an empty run.
pub fn read(path: &Path) -> Result<Vec<Entry>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let entries = parse_suite(&text).map_err(|error| in_file(error, path))?;
    if entries.is_empty() {
        bail!(
            "{} has no positions: expected `FEN ;D1 n ;D2 n ...` lines",
            path.display()
        );
    }
    entries
        .into_iter()
        .map(|entry| {
            let position = Position::from_fen(&entry.fen).map_err(|error| {
                let error = SuiteError {
                    line: entry.line,
                    message: format!("bad FEN {:?}: {error}", entry.fen),
                };
                in_file(error, path)
            })?;
            Ok(Entry {
                line: entry.line,
                fen: entry.fen,
                position,
                counts: entry.counts,
            })
        })
        .collect()
}

/// A suite error as `file:line: message`.
fn in_file(error: SuiteError, path: &Path) -> anyhow::Error {
    anyhow::anyhow!("{}:{}: {}", path.display(), error.line, error.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_src::START_FEN;

    #[test]
    fn a_suite_error_reads_file_colon_line() {
        let error = in_file(parse_suite("x ;D1\n").unwrap_err(), Path::new("suite.epd"));
        assert_eq!(
            error.to_string(),
            "suite.epd:1: expected `;D<depth> <count>`, found \"D1\""
        );
    }

    #[test]
    fn a_suite_without_positions_is_an_error_naming_the_file() {
        let dir = std::env::temp_dir().join(format!("chessattack-suite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in [
            ("empty.epd", ""),
            ("comments.epd", "# only a comment\n\n   \n# and another\n"),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let error = read(&path).err().unwrap();
            assert_eq!(
                error.to_string(),
                format!(
                    "{} has no positions: expected `FEN ;D1 n ;D2 n ...` lines",
                    path.display()
                )
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_fen_names_the_file_and_the_line() {
        let path = std::env::temp_dir().join(format!("chessattack-fen-{}.epd", std::process::id()));
        std::fs::write(
            &path,
            format!("{START_FEN} ;D1 12\n# next\nrnbqk/ppppp w - - 0 1 ;D1 3\n"),
        )
        .unwrap();
        let error = read(&path).err().unwrap().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(
            error.starts_with(&format!(
                "{}:3: bad FEN \"rnbqk/ppppp w - - 0 1\": ",
                path.display()
            )),
            "{error}"
        );
    }

    #[test]
    fn the_checked_in_suite_parses() {
        let entries = checked_in().unwrap();
        assert_eq!(entries.len(), 125);
        assert_eq!(entries[0].fen, START_FEN);
        assert_eq!(entries[0].position, Position::start());
        assert_eq!(
            entries[0].counts,
            [
                (1, 12),
                (2, 135),
                (3, 1734),
                (4, 20892),
                (5, 286223),
                (6, 3729708)
            ]
        );
    }
}
