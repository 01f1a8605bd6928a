//! The perft suite `engine-src/perft/suite.epd` (counts from Fairy-Stockfish, see the
//! file's header) through the reference model: every count must match exactly.
//!
//! To keep `cargo test` fast, counts above [`MAX_NODES`] are skipped here (today only
//! depth 6 of the start position, which `tests/perft.rs` checks on its own);
//! `cargo xtask perft --epd engine-src/perft/suite.epd` runs every count.

use std::path::Path;

use engine_src::perft::{parse_suite, perft, SuiteEntry};
use engine_src::Position;

/// The largest count this test runs.
const MAX_NODES: u64 = 2_000_000;

/// Reads the suite with the parser `cargo xtask perft --epd` uses.
fn read_suite() -> Vec<SuiteEntry> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft/suite.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    parse_suite(&text).unwrap_or_else(|error| panic!("suite.epd: {error}"))
}

#[test]
fn suite_counts_match_fairy_stockfish() {
    let entries = read_suite();
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in &entries {
        let position = Position::from_fen(&entry.fen)
            .unwrap_or_else(|error| panic!("suite.epd:{}: {}: {error}", entry.line, entry.fen));
        for &(depth, want) in &entry.counts {
            if want > MAX_NODES {
                continue;
            }
            checked += 1;
            let got = perft(&position, depth);
            if got != want {
                failures.push(format!(
                    "suite.epd:{}: {} depth {depth}: got {got}, want {want}",
                    entry.line, entry.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} counts wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A guard against a truncated suite file and against a `MAX_NODES` that skips more
/// than it should (update the figures when positions are added).
#[test]
fn suite_size_and_skipped_counts() {
    let entries = read_suite();
    assert_eq!(entries.len(), 125);
    let counts: usize = entries.iter().map(|entry| entry.counts.len()).sum();
    assert_eq!(counts, 607);
    let skipped: Vec<(usize, u32)> = entries
        .iter()
        .flat_map(|entry| {
            entry
                .counts
                .iter()
                .filter(|&&(_, count)| count > MAX_NODES)
                .map(|&(depth, _)| (entry.line, depth))
        })
        .collect();
    assert_eq!(
        skipped,
        [(16, 6)],
        "(line, depth) skipped above {MAX_NODES} nodes"
    );
}
