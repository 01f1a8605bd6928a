use std::path::PathBuf;

use engine_src::book::{book, choice, good_moves, ply, BOOK_MAX_MOVES};
use engine_src::Color;

use super::*;

/// An empty scratch repository root with `lines` as its lines file.
fn scratch(name: &str, lines: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("chessattack-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("engine-src/book")).unwrap();
    std::fs::write(root.join(LINES_PATH), lines).unwrap();
    root
}

/// The lines file as checked in.
fn coverage() -> Coverage {
    let text = std::fs::read_to_string(project::root().join(LINES_PATH)).unwrap();
    parse_lines(LINES_PATH, &text).unwrap()
}

#[test]
fn the_lines_file_reads_replies_and_lines() {
    let coverage = parse_lines(
        "lines.txt",
        "# a comment\n\nreplies 0 all\nreplies 3 2\nline c2c3 d5d4\n",
    )
    .unwrap();
    assert_eq!(
        coverage.replies,
        [
            Some(Replies::All),
            None,
            None,
            Some(Replies::Best(2)),
            None,
            None
        ]
    );
    let line: Vec<String> = coverage.lines[0].iter().map(|m| m.to_uci()).collect();
    assert_eq!(line, ["c2c3", "d5d4"]);
}

#[test]
fn a_bad_line_of_the_lines_file_is_an_error_naming_its_file_and_line() {
    for (text, message) in [
        ("replies 0 all\nline a2a5\n", "lines.txt:2: illegal move \"a2a5\": not a legal move for White in rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1"),
        ("line c2c3 x9\n", "lines.txt:1: cannot read UCI move \"x9\""),
        ("replies 6 all\n", "lines.txt:1: the ply `6` is not 0 to 5"),
        ("replies 1 4\n", "lines.txt:1: `4` is not `all` or a count of 1 to 3"),
        ("replies 1\n", "lines.txt:1: `replies 1` is not `replies PLY all` or `replies PLY N`"),
        ("replies 1 all\nreplies 1 2\n", "lines.txt:2: the replies at ply 1 are given twice"),
        ("depth 12\n", "lines.txt:1: `depth` is not `replies` or `line`"),
        ("line\n", "lines.txt:1: the line has no moves"),
    ] {
        let error = parse_lines("lines.txt", text).unwrap_err().to_string();
        assert!(error.starts_with(message), "{text:?}: {error}");
    }
}

#[test]
fn the_book_command_writes_nothing_for_a_bad_line_or_without_fairy_stockfish() {
    let root = scratch("bad-line", "replies 0 all\nline b1b2\n");
    let error = run_in(&root, Path::new(crate::cli::DEFAULT_FAIRY_STOCKFISH)).unwrap_err();
    assert!(
        format!("{error:#}").starts_with("engine-src/book/lines.txt:2: illegal move \"b1b2\""),
        "{error:#}"
    );
    assert!(
        !root.join(ANALYSIS_PATH).exists(),
        "an analysis was written"
    );
    let root = scratch("no-engine", "replies 0 all\n");
    let error = run_in(&root, Path::new("/nonexistent/fairy-stockfish")).unwrap_err();
    assert!(
        format!("{error:#}")
            .starts_with("Fairy-Stockfish not found at /nonexistent/fairy-stockfish"),
        "{error:#}"
    );
    assert!(
        !root.join(ANALYSIS_PATH).exists(),
        "an analysis was written"
    );
}

#[test]
fn the_analysis_was_made_from_the_lines_file_as_it_is() {
    let text = std::fs::read(project::root().join(LINES_PATH)).unwrap();
    assert_eq!(book().header("lines"), Some(lines_header(&text).as_str()));
    assert_eq!(book().header("settings"), Some(settings_header().as_str()));
}

#[test]
fn the_book_answers_every_first_move_a_player_can_make() {
    let start = Position::start();
    assert!(book().entry(&start).is_some(), "no first move for White");
    for m in start.legal_moves().iter() {
        let after = start.play(m);
        assert!(
            book().entry(&after).is_some(),
            "no answer to {}",
            m.to_uci()
        );
    }
}

#[test]
fn the_book_covers_six_plies_of_its_own_lines_and_the_replies_the_lines_file_follows() {
    let coverage = coverage();
    let mut positions = 0;
    for cartridge in [Color::White, Color::Black] {
        let mut frontier = vec![Position::start()];
        for at in 0..usize::from(BOOK_PLIES) {
            let mut next = Vec::new();
            for position in &frontier {
                if position.legal_moves().is_empty() {
                    continue;
                }
                if position.turn() == cartridge {
                    let entry = book().entry(position).unwrap_or_else(|| {
                        panic!("ply {at}: {} is not in the book", position.to_fen())
                    });
                    assert_eq!(ply(position) as usize, at);
                    assert!((1..=BOOK_MAX_MOVES).contains(&entry.moves.len()));
                    assert_eq!(entry.moves, good_moves(&entry.analysis));
                    positions += 1;
                    next.extend(entry.moves.iter().map(|m| position.play(m)));
                } else {
                    let replies: Vec<Move> = match coverage.replies[at] {
                        None => Vec::new(),
                        Some(Replies::All) => position.legal_moves().iter().copied().collect(),
                        Some(Replies::Best(count)) => {
                            // Fairy-Stockfish's best replies: at least `count` of them
                            // lead into the book (the analysis keeps only the
                            // cartridge's positions, so which ones is not known here).
                            let into_book: Vec<Move> = position
                                .legal_moves()
                                .iter()
                                .copied()
                                .filter(|m| book().entry(&position.play(m)).is_some())
                                .collect();
                            let legal = position.legal_moves().len();
                            assert!(
                                into_book.len() >= count.min(legal),
                                "ply {at}: {} of the replies in {} lead into the book, not {count}",
                                into_book.len(),
                                position.to_fen()
                            );
                            into_book
                        }
                    };
                    next.extend(replies.iter().map(|m| position.play(m)));
                }
            }
            frontier = next;
        }
    }
    println!("{positions} positions on the book's lines");
    assert!(positions >= book().entries.len() / 2);
}

#[test]
fn no_position_within_the_books_plies_has_the_key_of_another_in_the_book() {
    assert_eq!(false_hits(book()), Vec::<Position>::new());
}

#[test]
fn the_choice_mixes_the_seed_with_the_keys_low_byte() {
    assert_eq!(choice(0x8474_7464, 0, 1), 0);
    assert_eq!(choice(0xA7F7_0FBC, 0, 3), 0xBC % 3);
    assert_eq!(choice(0xA7F7_0FBC, 1, 3), 0xBD % 3);
    assert_eq!(choice(0xA7F7_0FBC, 0xBC, 2), 0);
}
