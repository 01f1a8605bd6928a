//! Position files: one FEN a line, `#` comments, and `## group: description` lines that
//! name the group of the positions below them. Two are checked in: the search suite
//! [`SEARCH_SUITE_PATH`] (positions of every kind the search must get right, which
//! `verify` searches with both engines) and the benchmark suite [`BENCH_SUITE_PATH`]
//! (positions of real games, which `bench` times). Every error names the file and the
//! line.

use std::path::Path;

use anyhow::{bail, Context, Result};
use engine_src::Position;

use crate::project::plural;

/// The search suite, from the repository root.
pub const SEARCH_SUITE_PATH: &str = "engine-src/search/suite.txt";
/// The benchmark suite, from the repository root.
pub const BENCH_SUITE_PATH: &str = "engine-src/search/bench.txt";
/// The games suite, from the repository root: the positions the cartridge met in its own
/// games against Fairy-Stockfish (`cargo xtask match --cartridge --make-suite`), which
/// `bench` times beside the benchmark suite.
pub const GAMES_SUITE_PATH: &str = "engine-src/search/games.txt";

/// The groups of the search suite, in the file's order, each with the fewest positions
/// it may have: what the search must get right, from both sides of the board.
pub const SEARCH_GROUPS: [(&str, usize); 11] = [
    ("openings", 8),
    ("middlegames", 10),
    ("endgames", 10),
    ("mate-in-1", 8),
    ("mate-in-2", 8),
    ("mate-in-3", 8),
    ("stalemate-traps", 6),
    ("repetition-traps", 5),
    ("fifty-move-traps", 6),
    ("under-promotions", 5),
    ("killers", 2),
];

/// The fewest positions the benchmark suite may have: its median and maximum mean
/// little with fewer.
pub const BENCH_MIN_POSITIONS: usize = 40;

/// One position of a file.
#[derive(Debug)]
pub struct Entry {
    /// 1-based line number in the file.
    pub line: usize,
    /// The name of the last `## name: ...` line above it, if any.
    pub group: Option<String>,
    /// The `#` comment line right above it (without the `#`), if any: what the position
    /// tests, and the line of play that shows it.
    pub note: Option<String>,
    pub fen: String,
    pub position: Position,
}

/// The search suite [`SEARCH_SUITE_PATH`], its groups checked against [`SEARCH_GROUPS`].
pub fn search_suite() -> Result<Vec<Entry>> {
    let path = crate::project::root().join(SEARCH_SUITE_PATH);
    let entries = read(&path)?;
    check_groups(&entries, &path)?;
    Ok(entries)
}

/// The benchmark suite [`BENCH_SUITE_PATH`], at least [`BENCH_MIN_POSITIONS`] long.
pub fn bench_suite() -> Result<Vec<Entry>> {
    timed_suite(BENCH_SUITE_PATH)
}

/// The games suite [`GAMES_SUITE_PATH`], at least [`BENCH_MIN_POSITIONS`] long.
pub fn games_suite() -> Result<Vec<Entry>> {
    timed_suite(GAMES_SUITE_PATH)
}

/// A suite `bench` times (`file`, from the repository root), at least
/// [`BENCH_MIN_POSITIONS`] long.
fn timed_suite(file: &str) -> Result<Vec<Entry>> {
    let path = crate::project::root().join(file);
    let entries = read(&path)?;
    if entries.len() < BENCH_MIN_POSITIONS {
        bail!(
            "{} has {}: a benchmark needs at least {BENCH_MIN_POSITIONS}",
            path.display(),
            plural(entries.len(), "position")
        );
    }
    Ok(entries)
}

/// Reads the position file at `path`. Every FEN is read before anything runs, so a typo
/// fails at once; a file without a single position is an error too, not an empty run.
pub fn read(path: &Path) -> Result<Vec<Entry>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let entries = parse(&text).map_err(|(line, message)| in_file(path, line, &message))?;
    if entries.is_empty() {
        bail!(
            "{} has no positions: expected one FEN a line",
            path.display()
        );
    }
    Ok(entries)
}

/// The entries of a file's text, or the line number and message of its first error.
fn parse(text: &str) -> Result<Vec<Entry>, (usize, String)> {
    let mut entries = Vec::new();
    let mut group = None;
    let mut note = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        let above = note.take();
        if let Some(header) = line.strip_prefix("##") {
            let name = header.split(':').next().unwrap_or("").trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err((
                    number,
                    format!(
                        "expected `## group: description` with a one-word group name, \
                         found {line:?}"
                    ),
                ));
            }
            group = Some(name.to_owned());
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            note = Some(comment.trim().to_owned());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let position = Position::from_fen(line)
            .map_err(|error| (number, format!("bad FEN {line:?}: {error}")))?;
        if position.legal_moves().is_empty() {
            return Err((
                number,
                format!("{line:?} has no legal move: there is nothing to search"),
            ));
        }
        entries.push(Entry {
            line: number,
            group: group.clone(),
            note: above,
            fen: line.to_owned(),
            position,
        });
    }
    Ok(entries)
}

/// Checks that the entries are the search suite's groups, in [`SEARCH_GROUPS`]'s order,
/// each with at least its number of positions.
pub fn check_groups(entries: &[Entry], path: &Path) -> Result<()> {
    let mut counts: Vec<(&str, usize, usize)> = Vec::new();
    for entry in entries {
        let Some(group) = entry.group.as_deref() else {
            return Err(in_file(
                path,
                entry.line,
                "a position before the first `## group: description` line",
            ));
        };
        match counts.last_mut() {
            Some((name, _, count)) if *name == group => *count += 1,
            _ => {
                let expected = SEARCH_GROUPS.get(counts.len()).map(|(name, _)| *name);
                if expected != Some(group) {
                    let wanted = expected.map_or("no more groups".to_owned(), |name| {
                        format!("group {name:?}")
                    });
                    return Err(in_file(
                        path,
                        entry.line,
                        &format!(
                            "group {group:?} where the suite has {wanted} (groups in order: {})",
                            SEARCH_GROUPS.map(|(name, _)| name).join(", ")
                        ),
                    ));
                }
                counts.push((group, entry.line, 1));
            }
        }
    }
    if let Some((missing, _)) = SEARCH_GROUPS.get(counts.len()) {
        bail!("{} has no group {missing:?}", path.display());
    }
    for ((name, line, count), (_, fewest)) in counts.iter().zip(SEARCH_GROUPS) {
        if *count < fewest {
            return Err(in_file(
                path,
                *line,
                &format!(
                    "group {name:?} has {}, at least {fewest} wanted",
                    plural(*count, "position")
                ),
            ));
        }
    }
    Ok(())
}

/// An error as `file:line: message`.
fn in_file(path: &Path, line: usize, message: &str) -> anyhow::Error {
    anyhow::anyhow!("{}:{line}: {message}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_src::{notation, Color, Role, START_FEN};

    /// The line of play of a note: the moves after its last `: `.
    fn line_of(entry: &Entry) -> &str {
        let note = entry
            .note
            .as_deref()
            .unwrap_or_else(|| panic!("line {}: no `#` line above {}", entry.line, entry.fen));
        note.rsplit_once(": ")
            .unwrap_or_else(|| panic!("line {}: no `: ` in {note:?}", entry.line))
            .1
    }

    /// The positions after each move of `line` (the move list's notation) from `start`.
    fn play(start: &Position, line: &str, entry: &Entry) -> Vec<(String, Position)> {
        let mut position = *start;
        let mut played = Vec::new();
        for text in line.split_whitespace() {
            let m = notation::parse(&position, text)
                .unwrap_or_else(|error| panic!("line {}: {text} in {line:?}: {error}", entry.line));
            // The note writes the move as the move list would, check or mate included.
            assert_eq!(notation::write(&position, &m), text, "line {}", entry.line);
            position = position.play(&m);
            played.push((text.to_owned(), position));
        }
        assert!(
            !played.is_empty(),
            "line {}: an empty line of play",
            entry.line
        );
        played
    }

    fn group<'a>(entries: &'a [Entry], name: &str) -> Vec<&'a Entry> {
        entries
            .iter()
            .filter(|entry| entry.group.as_deref() == Some(name))
            .collect()
    }

    #[test]
    fn the_search_suite_has_every_group_in_order_with_its_sizes() {
        let entries = search_suite().unwrap();
        let sizes: Vec<(&str, usize)> = SEARCH_GROUPS
            .iter()
            .map(|(name, _)| (*name, group(&entries, name).len()))
            .collect();
        assert_eq!(
            sizes,
            [
                ("openings", 8),
                ("middlegames", 10),
                ("endgames", 10),
                ("mate-in-1", 8),
                ("mate-in-2", 8),
                ("mate-in-3", 8),
                ("stalemate-traps", 6),
                ("repetition-traps", 7),
                ("fifty-move-traps", 6),
                ("under-promotions", 5),
                ("killers", 2),
            ]
        );
        assert_eq!(entries.len(), 78);
        // Both colours to move in every group but the openings' (White's and Black's
        // moves both) and the middlegames'.
        for (name, _) in SEARCH_GROUPS {
            let turns: Vec<Color> = group(&entries, name)
                .iter()
                .map(|entry| entry.position.turn())
                .collect();
            assert!(turns.contains(&Color::White), "{name}");
            assert!(turns.contains(&Color::Black), "{name}");
        }
    }

    #[test]
    fn every_line_of_play_in_the_search_suite_is_legal_and_shows_its_claim() {
        let entries = search_suite().unwrap();
        let start = Position::from_fen(START_FEN).unwrap();
        for entry in &entries {
            let group = entry.group.as_deref().unwrap();
            let note = entry.note.as_deref().unwrap();
            let line = line_of(entry);
            if group == "openings" {
                // The moves from the start reach the position, clocks included.
                let played = play(&start, line, entry);
                assert_eq!(
                    played.last().unwrap().1.to_fen(),
                    entry.fen,
                    "line {}",
                    entry.line
                );
                continue;
            }
            let played = play(&entry.position, line, entry);
            let (first, after_first) = &played[0];
            match group {
                "mate-in-1" | "mate-in-2" | "mate-in-3" => {
                    let n: usize = group["mate-in-".len()..].parse().unwrap();
                    assert_eq!(note, format!("mate in {n}: {line}"));
                    assert_eq!(played.len(), 2 * n - 1, "line {}", entry.line);
                    assert!(
                        played.last().unwrap().1.is_checkmate(),
                        "line {}",
                        entry.line
                    );
                    assert!(
                        played.last().unwrap().0.ends_with('#'),
                        "line {}",
                        entry.line
                    );
                }
                "stalemate-traps" => {
                    // Each move the note names before `stalemate` stalemates; the line wins.
                    let (trap, _) = note.split_once(" stalemate").unwrap();
                    for text in trap.split(" and ") {
                        let m = notation::parse(&entry.position, text).unwrap();
                        assert!(
                            entry.position.play(&m).is_stalemate(),
                            "line {}: {text}",
                            entry.line
                        );
                    }
                    assert!(
                        played.last().unwrap().1.is_checkmate(),
                        "line {}",
                        entry.line
                    );
                }
                "repetition-traps" => {
                    // Every move of the side to move checks, until a position repeats.
                    for (text, position) in played.iter().step_by(2) {
                        assert!(position.is_check(), "line {}: {text}", entry.line);
                    }
                    let same = |a: &Position, b: &Position| {
                        let fields = |p: &Position| {
                            let fen = p.to_fen();
                            fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
                        };
                        fields(a) == fields(b)
                    };
                    let (last, before) = played.split_last().unwrap();
                    assert!(
                        same(&last.1, &entry.position)
                            || before.iter().any(|(_, position)| same(&last.1, position)),
                        "line {}: no repetition",
                        entry.line
                    );
                }
                "fifty-move-traps" => {
                    let clock = entry.position.halfmove_clock();
                    assert!(
                        (96..=99).contains(&clock),
                        "line {}: clock {clock}",
                        entry.line
                    );
                    assert!(
                        note.starts_with(&format!("clock {clock}: ")),
                        "line {}",
                        entry.line
                    );
                }
                "under-promotions" => {
                    let m = notation::parse(&entry.position, first).unwrap();
                    assert_eq!(m.promotion, Some(Role::Knight), "line {}", entry.line);
                    assert!(after_first.is_check(), "line {}", entry.line);
                    assert!(
                        note.starts_with(&format!("only {first} ")),
                        "line {}",
                        entry.line
                    );
                }
                _ => assert!(note.starts_with("Fairy-Stockfish "), "line {}", entry.line),
            }
        }
    }

    #[test]
    fn the_reference_search_gets_the_claims_of_the_search_suite_right() {
        use engine_src::search::{search, Limits, MATE};
        use engine_src::Game;
        let entries = search_suite().unwrap();
        let mut wrong = Vec::new();
        for entry in &entries {
            let group = entry.group.as_deref().unwrap();
            let game = Game::new(entry.position);
            let at = |depth: u8| search(&game, Limits::depth(depth));
            let verdict = match group {
                "mate-in-1" | "mate-in-2" | "mate-in-3" => {
                    // A mate in n moves is found from depth 2n (docs/search.md), as a mate
                    // in n, or in n + 1 when late-move reductions put off a quiet first
                    // move (line 115's Qd3-a3: a mate in 3 at depth 4).
                    let n: u8 = group["mate-in-".len()..].parse().unwrap();
                    let result = at(2 * n);
                    let shortest = MATE - (2 * i16::from(n) - 1);
                    (
                        result.score == shortest
                            || (entry.line == 115 && result.score == shortest - 2),
                        format!("{}", result.score),
                    )
                }
                "stalemate-traps" | "under-promotions" | "repetition-traps"
                | "fifty-move-traps" => {
                    let result = at(4);
                    let best = result.best.unwrap();
                    let after = entry.position.play(&best);
                    let note = entry.note.as_deref().unwrap();
                    let ok = match group {
                        "stalemate-traps" => !after.is_stalemate(),
                        "under-promotions" => best.promotion == Some(Role::Knight),
                        // The perpetual's first check (its draw lies beyond depth 4).
                        "repetition-traps" => {
                            let first = line_of(entry).split(' ').next().unwrap();
                            notation::write(&entry.position, &best) == first
                        }
                        // A draw is a draw; a win keeps the game going: it resets the
                        // clock (or mates) rather than reach 100.
                        _ if note.contains("a draw") => result.score == 0,
                        _ => after.halfmove_clock() == 0 || after.is_checkmate(),
                    };
                    (ok, format!("{} {}", best.to_uci(), result.score))
                }
                _ => (true, String::new()),
            };
            if !verdict.0 {
                wrong.push(format!("line {} ({group}): {}", entry.line, verdict.1));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn the_bench_suite_has_its_positions() {
        let entries = bench_suite().unwrap();
        assert_eq!(entries.len(), 48);
        assert!(entries.len() >= BENCH_MIN_POSITIONS);
    }

    fn parse_error(text: &str) -> (usize, String) {
        parse(text).unwrap_err()
    }

    #[test]
    fn groups_notes_and_lines_are_read() {
        let entries = parse(&format!(
            "# a file\n{START_FEN}\n## first: the start\n# the note\n  {START_FEN}  \n\n\
             # not the note\n\n## second\n4k/5/5/5/5/K4 w - -\n"
        ))
        .unwrap();
        let read: Vec<(usize, Option<&str>, Option<&str>, &str)> = entries
            .iter()
            .map(|e| {
                (
                    e.line,
                    e.group.as_deref(),
                    e.note.as_deref(),
                    e.fen.as_str(),
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                (2, None, Some("a file"), START_FEN),
                (5, Some("first"), Some("the note"), START_FEN),
                (10, Some("second"), None, "4k/5/5/5/5/K4 w - -"),
            ]
        );
    }

    #[test]
    fn a_bad_fen_or_group_line_is_an_error_naming_the_line() {
        let (line, message) = parse_error(&format!("{START_FEN}\n\nrnbqk/ppppp w - - 0 1\n"));
        assert_eq!(line, 3);
        assert!(
            message.starts_with("bad FEN \"rnbqk/ppppp w - - 0 1\": "),
            "{message}"
        );
        assert_eq!(
            parse_error("## two words: x\n"),
            (
                1,
                "expected `## group: description` with a one-word group name, found \
                 \"## two words: x\""
                    .to_owned()
            )
        );
        assert_eq!(parse_error("##\n").0, 1);
    }

    /// A file with the search suite's groups, `sizes[i]` positions in the i-th.
    fn suite_of(sizes: &[usize]) -> String {
        let mut text = String::new();
        for ((name, _), size) in SEARCH_GROUPS.iter().zip(sizes) {
            text += &format!("## {name}: x\n");
            for _ in 0..*size {
                text += &format!("{START_FEN}\n");
            }
        }
        text
    }

    fn groups_error(text: &str) -> String {
        let entries = parse(text).unwrap();
        check_groups(&entries, Path::new("suite.txt"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn the_groups_are_checked_for_order_and_size() {
        let fewest: Vec<usize> = SEARCH_GROUPS.iter().map(|(_, n)| *n).collect();
        let entries = parse(&suite_of(&fewest)).unwrap();
        check_groups(&entries, Path::new("suite.txt")).unwrap();

        let mut short = fewest.clone();
        short[2] -= 1;
        // openings 8 + 1 header, middlegames 10 + 1, then the endgames' header.
        assert_eq!(
            groups_error(&suite_of(&short)),
            "suite.txt:22: group \"endgames\" has 9 positions, at least 10 wanted"
        );
        assert_eq!(
            groups_error(&suite_of(&fewest[..10])),
            "suite.txt has no group \"killers\""
        );
        assert_eq!(
            groups_error(&format!("{START_FEN}\n")),
            "suite.txt:1: a position before the first `## group: description` line"
        );
        let swapped = suite_of(&fewest).replacen("## middlegames", "## endgames", 1);
        assert_eq!(
            groups_error(&swapped),
            "suite.txt:11: group \"endgames\" where the suite has group \"middlegames\" \
             (groups in order: openings, middlegames, endgames, mate-in-1, mate-in-2, \
             mate-in-3, stalemate-traps, repetition-traps, fifty-move-traps, under-promotions, \
             killers)"
        );
        let extra = suite_of(&fewest) + &format!("## more: x\n{START_FEN}\n");
        assert!(
            groups_error(&extra).contains("group \"more\" where the suite has no more groups"),
            "{}",
            groups_error(&extra)
        );
    }

    #[test]
    fn a_position_file_reads_one_fen_a_line_and_names_the_line_of_an_error() {
        let path =
            std::env::temp_dir().join(format!("chessattack-search-{}.txt", std::process::id()));
        let read_text = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read(&path).map_err(|error| error.to_string())
        };
        let entries = read_text(&format!("# a comment\n\n  {START_FEN}  \n")).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!((entries[0].line, entries[0].fen.as_str()), (3, START_FEN));
        let shown = path.display();
        let error = read_text(&format!("{START_FEN}\nrnbqk/ppppp w - - 0 1\n")).unwrap_err();
        assert!(
            error.starts_with(&format!("{shown}:2: bad FEN \"rnbqk/ppppp w - - 0 1\": ")),
            "{error}"
        );
        assert_eq!(
            read_text("# mated\nk4/1Q3/1K3/5/5/5 b - - 0 1\n").unwrap_err(),
            format!(
                "{shown}:2: \"k4/1Q3/1K3/5/5/5 b - - 0 1\" has no legal move: there is \
                 nothing to search"
            )
        );
        assert_eq!(
            read_text("# nothing\n").unwrap_err(),
            format!("{shown} has no positions: expected one FEN a line")
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_without_positions_is_an_error_naming_it() {
        let path =
            std::env::temp_dir().join(format!("chessattack-positions-{}.txt", std::process::id()));
        std::fs::write(&path, "## openings: none yet\n# a comment\n").unwrap();
        let error = read(&path).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            error,
            format!(
                "{} has no positions: expected one FEN a line",
                path.display()
            )
        );
    }
}
