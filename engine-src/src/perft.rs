//! Perft: counting the leaves of the legal move tree, the standard test of a move
//! generator. From the start position: 12, 135, 1,734, 20,892, 286,223, 3,729,708
//! at depths 1 to 6.

use crate::moves::Move;
use crate::position::Position;

/// The number of move sequences of exactly `depth` plies from `position` (1 for
/// depth 0). The last ply is counted, not played (bulk counting).
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => position
            .legal_moves()
            .iter()
            .map(|m| perft(&position.play(m), depth - 1))
            .sum(),
    }
}

/// Perft split by first move: each legal move with the perft of `depth - 1` after
/// it, in move generation order. Empty for depth 0.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves()
        .iter()
        .map(|m| (*m, perft(&position.play(m), depth - 1)))
        .collect()
}

/// One line of a suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the file.
    pub line: usize,
    pub fen: String,
    /// (depth, count) in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// A malformed suite line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Reads a perft suite (`engine-src/perft/suite.epd`): one `FEN ;D1 n ;D2 n ...` entry per line; blank lines and lines
/// starting with `#` are skipped. The FEN itself is checked later, by the model.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let line = index + 1;
        let error = |message: String| SuiteError { line, message };
        let mut fields = trimmed.split(';');
        let fen = fields.next().unwrap_or_default().trim();
        if fen.is_empty() {
            return Err(error("no FEN before the first `;`".to_owned()));
        }
        let mut counts: Vec<(u32, u64)> = Vec::new();
        for field in fields {
            let field = field.trim();
            let (depth, count) = field
                .strip_prefix('D')
                .and_then(|rest| rest.split_once(' '))
                .ok_or_else(|| error(format!("expected `;D<depth> <count>`, found {field:?}")))?;
            let depth: u32 = depth
                .parse()
                .map_err(|_| error(format!("depth {depth:?} in {field:?} is not a number")))?;
            let count: u64 = count.trim().parse().map_err(|_| {
                error(format!(
                    "count {:?} in {field:?} is not a number",
                    count.trim()
                ))
            })?;
            if counts.iter().any(|&(earlier, _)| earlier == depth) {
                return Err(error(format!("depth {depth} is given twice")));
            }
            counts.push((depth, count));
        }
        if counts.is_empty() {
            return Err(error(format!(
                "no counts after the FEN {fen:?}: expected `FEN ;D1 n ;D2 n ...`"
            )));
        }
        entries.push(SuiteEntry {
            line,
            fen: fen.to_owned(),
            counts,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::START_FEN;

    #[test]
    fn suite_lines_comments_and_blank_lines() {
        let text = "# the start\n\n  rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1 ;D1 12 ;D2 135\n\
                    k4/5/1Q3/5/5/K4 b - - 0 1;D1 0\n";
        assert_eq!(
            parse_suite(text).unwrap(),
            [
                SuiteEntry {
                    line: 3,
                    fen: START_FEN.to_owned(),
                    counts: vec![(1, 12), (2, 135)],
                },
                SuiteEntry {
                    line: 4,
                    fen: "k4/5/1Q3/5/5/K4 b - - 0 1".to_owned(),
                    counts: vec![(1, 0)],
                },
            ]
        );
    }

    fn error_of(text: &str) -> SuiteError {
        parse_suite(text).unwrap_err()
    }

    #[test]
    fn bad_suite_lines_name_the_line_and_the_problem() {
        let start = format!("# comment\n{START_FEN} ;D1 12\n");
        let cases = [
            (
                "x ;D1 12 ;E2 135",
                "expected `;D<depth> <count>`, found \"E2 135\"",
            ),
            ("x ;D1 12 ;D2", "expected `;D<depth> <count>`, found \"D2\""),
            ("x ;Done 12", "depth \"one\" in \"Done 12\" is not a number"),
            (
                "x ;D1 twelve",
                "count \"twelve\" in \"D1 twelve\" is not a number",
            ),
            ("x ;D1 -12", "count \"-12\" in \"D1 -12\" is not a number"),
            ("x ;D1 12 ;D1 12", "depth 1 is given twice"),
            (
                "x",
                "no counts after the FEN \"x\": expected `FEN ;D1 n ;D2 n ...`",
            ),
            (" ;D1 12", "no FEN before the first `;`"),
        ];
        for (line, message) in cases {
            let error = error_of(&format!("{start}{line}\n"));
            assert_eq!(
                error,
                SuiteError {
                    line: 3,
                    message: message.to_owned()
                },
                "{line}"
            );
        }
    }
}
