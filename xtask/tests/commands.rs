//! `cargo xtask` run as CI and scripts run it: its output into a pipe, not a terminal.
//! What a user sees of a command (its lines, its errors, how soon it fails) is tested
//! here; the code behind it is tested in its module.

mod common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `cargo xtask ARGS` with standard output and error captured (pipes).
fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn perft_into_a_pipe_prints_its_lines_only_and_ends_with_the_node_count() {
    let output = xtask(&["perft", "--depth", "5"]);
    assert!(output.status.success());
    // No progress bar, no escape codes: the time, then `nodes N` last (CI reads it).
    assert_eq!(text(&output.stderr), "");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout:?}");
    assert!(lines[0].starts_with("time "), "{stdout:?}");
    assert_eq!(lines[1], "nodes 286223");
}

#[test]
fn perft_refuses_a_depth_the_reference_model_would_not_finish() {
    let started = Instant::now();
    let output = xtask(&["perft", "--depth", "99"]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        "error: depth 99 is too deep: the reference model's perft is limited to depth 8 \
         (754,383,020 leaves, half a minute to two minutes, from the start position)\n"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn crosscheck_with_a_program_that_is_not_a_uci_engine_fails_within_seconds() {
    let started = Instant::now();
    let output = xtask(&["crosscheck", "--positions", "3", "--engine", "/bin/cat"]);
    assert!(!output.status.success());
    assert_eq!(
        text(&output.stderr),
        "error: /bin/cat is not a Fairy-Stockfish that plays Chess Attack (install it with: \
         apt-get install -y fairy-stockfish): /bin/cat did not answer `uci` with `uciok` \
         within 5 s: is it a UCI engine?\n"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_perft_suite_of_comments_only_is_an_error_naming_the_file() {
    let path =
        std::env::temp_dir().join(format!("chessattack-comments-{}.epd", std::process::id()));
    std::fs::write(&path, "# a suite still to be written\n\n").unwrap();
    let output = xtask(&["perft", "--epd", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "error: {} has no positions: expected `FEN ;D1 n ;D2 n ...` lines\n",
            path.display()
        )
    );
}

/// A suite file in the temporary directory, removed when dropped.
struct TempSuite(std::path::PathBuf);

impl TempSuite {
    fn new(name: &str, text: &str) -> TempSuite {
        let path =
            std::env::temp_dir().join(format!("chessattack-{name}-{}.epd", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempSuite(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempSuite {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const ROM_DEPTH_ERROR: &str = "the ROM engine's perft is limited to depth 6 (3,729,708 leaves, \
                               606 million machine cycles, a minute or two of emulation, from \
                               the start position)";

#[test]
fn perft_refuses_a_rom_depth_it_would_not_finish_before_building_anything() {
    for depth in ["7", "8"] {
        let started = Instant::now();
        let output = xtask(&["perft", "--engine", "rom", "--depth", depth]);
        assert!(!output.status.success());
        assert_eq!(text(&output.stdout), "");
        assert_eq!(
            text(&output.stderr),
            format!("error: depth {depth} is too deep: {ROM_DEPTH_ERROR}\n")
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn a_too_deep_suite_entry_is_an_error_naming_the_line_of_the_deepest_count() {
    let start = "rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1";
    let suite = TempSuite::new(
        "too-deep",
        &format!(
            "{start} ;D1 12\n# deeper ones\n{start} ;D7 1 ;D2 135\n{start} ;D9 1\n{start} ;D7 1\n"
        ),
    );
    let output = xtask(&["perft", "--epd", suite.path()]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "error: {}:4: depth 9 is too deep: the reference model's perft is limited to \
             depth 8 (754,383,020 leaves, half a minute to two minutes, from the start \
             position)\n",
            suite.path()
        )
    );
    let started = Instant::now();
    let output = xtask(&[
        "perft",
        "--engine",
        "rom",
        "--epd",
        suite.path(),
        "--max-depth",
        "8",
    ]);
    assert!(!output.status.success());
    assert_eq!(
        text(&output.stderr),
        format!(
            "error: {}:3: depth 7 is too deep: {ROM_DEPTH_ERROR}\n",
            suite.path()
        )
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_perft_suite_run_that_would_count_nothing_is_an_error() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine-src/perft/suite.epd");
    let output = xtask(&["perft", "--epd", suite, "--max-depth", "0"]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!("error: no count of {suite} is at depth 0 or less\n")
    );
}

#[test]
fn crosscheck_of_no_positions_is_refused() {
    let output = xtask(&["crosscheck", "--positions", "0", "--engine", "/bin/cat"]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        "error: invalid value '0' for '--positions <POSITIONS>': 0 is not in 1..=4294967295\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn crosscheck_of_one_position_is_one_game_and_ends_with_the_tally() {
    // The default engine, /usr/games/fairy-stockfish, as CI installs it.
    const ENGINE: &str = "/usr/games/fairy-stockfish";
    let missing: &[&str] = if std::path::Path::new(ENGINE).exists() {
        &[]
    } else {
        &[ENGINE]
    };
    if !common::may_run(
        "crosscheck test",
        missing,
        "apt-get install -y fairy-stockfish",
    ) {
        return;
    }
    let output = xtask(&["crosscheck", "--positions", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout:?}");
    assert!(lines[0].starts_with("1 game (seed 1), time "), "{stdout:?}");
    assert_eq!(lines[1], "1 passed, 0 failed");
}

#[test]
fn bench_json_is_one_object_with_the_figures_of_every_level() {
    // One position keeps it short: the perft, IsInCheck and usage figures are all there.
    let output = xtask(&["bench", "--json", "--positions", "1"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "");
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let figures: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    for (level, depth) in [("easy", 1), ("medium", 3), ("hard", 4)] {
        let run = &figures[level];
        assert_eq!(run["depth"], depth, "{level}");
        for key in [
            "median_seconds",
            "max_seconds",
            "median_cycles",
            "max_cycles",
            "nodes_per_second",
        ] {
            assert!(
                run[key].as_f64().is_some_and(|n| n > 0.0),
                "{level}.{key}: {run}"
            );
        }
        // One move: its time is the median and the maximum.
        assert_eq!(run["median_cycles"].as_f64(), run["max_cycles"].as_f64());
        assert!(run["targets_met"].is_boolean());
    }
    assert_eq!(figures["hard"]["target_median_seconds"], 1.5);
    assert_eq!(figures["hard"]["target_max_seconds"], 8.0);
    assert_eq!(figures["easy"]["target_max_seconds"], 1.0);
    assert_eq!(figures["positions"], 1);
    // The games suite's figures beside them, of its first position.
    let games = &figures["games"];
    assert_eq!(games["path"], "engine-src/search/games.txt");
    assert_eq!(games["positions"], 1);
    assert_eq!(games["hard"]["depth"], 4);
    assert!(games["hard"]["max_cycles"]
        .as_f64()
        .is_some_and(|n| n > 0.0));
    assert_eq!(figures["perft"]["depth"], 4);
    assert_eq!(figures["perft"]["nodes"], 20892);
    assert_eq!(figures["routines_alone"][0]["name"], "IsInCheck");
    assert_eq!(figures["routines_alone"][0]["positions"], 125);
    assert_eq!(figures["routines_alone"][1]["name"], "Evaluate");
    assert_eq!(figures["usage"][0]["region"], "ROM0");
    assert!(figures["wall_seconds"].as_f64().is_some_and(|s| s > 0.0));
}

#[test]
fn bench_refuses_more_positions_than_its_suite_has_at_once() {
    let started = Instant::now();
    let output = xtask(&["bench", "--positions", "99"]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        "error: --positions 99: engine-src/search/bench.txt has 48 positions\n"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn match_of_one_opening_plays_it_twice_and_ends_with_the_table() {
    // The default engine, /usr/games/fairy-stockfish, as CI installs it.
    const ENGINE: &str = "/usr/games/fairy-stockfish";
    let missing: &[&str] = if std::path::Path::new(ENGINE).exists() {
        &[]
    } else {
        &[ENGINE]
    };
    if !common::may_run("match test", missing, "apt-get install -y fairy-stockfish") {
        return;
    }
    let output = xtask(&[
        "match",
        "--openings",
        "1",
        "--levels",
        "easy",
        "--fairy-depths",
        "1",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stderr), "");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout:?}");
    assert!(
        lines[0].starts_with("EASY (depth 1) vs Fairy-Stockfish depth 1: 2 games ("),
        "{stdout:?}"
    );
    assert_eq!(lines[1], "");
    assert_eq!(
        lines[2],
        "| Engine | Opponent | Games | Wins | Draws | Losses | Score | Elo difference (95%) |"
    );
    assert_eq!(
        lines[3],
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    let cells: Vec<&str> = lines[4].split('|').map(str::trim).collect();
    assert_eq!(
        &cells[1..4],
        ["EASY (depth 1)", "Fairy-Stockfish depth 1", "2"]
    );
    let counts: Vec<u32> = cells[4..7]
        .iter()
        .map(|cell| cell.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{stdout:?}");
    let score = 100.0 * (f64::from(counts[0]) + f64::from(counts[1]) / 2.0) / 2.0;
    assert_eq!(cells[7], format!("{score:.1}%"));
    assert_eq!(lines[5], "");
    assert!(
        lines[6].starts_with("2 games from 1 opening (seed 1), time "),
        "{stdout:?}"
    );
}

#[test]
fn match_refuses_an_unknown_level() {
    let output = xtask(&["match", "--levels", "easy,expert"]);
    assert!(!output.status.success());
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        "error: invalid value 'expert' for '--levels <LEVELS>': `expert` is not a level: \
         easy, medium or hard\n\nFor more information, try '--help'.\n"
    );
}

#[test]
fn verify_refuses_a_search_suite_with_a_bad_line_at_once_naming_it() {
    for (name, text_of_file, message) in [
        (
            "bad-fen",
            "# a comment\nrnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1\nrnbqk/ppppp w - - 0 1\n",
            ":3: bad FEN \"rnbqk/ppppp w - - 0 1\": ",
        ),
        (
            "mated",
            "# mated\nk4/1Q3/1K3/5/5/5 b - - 0 1\n",
            ":2: \"k4/1Q3/1K3/5/5/5 b - - 0 1\" has no legal move: there is nothing to search\n",
        ),
    ] {
        let suite = TempSuite::new(name, text_of_file);
        let started = Instant::now();
        let output = xtask(&["verify", "--search-suite", suite.path()]);
        assert!(!output.status.success());
        assert_eq!(text(&output.stdout), "");
        let stderr = text(&output.stderr);
        let expected = format!("error: {}{message}", suite.path());
        assert!(
            stderr.starts_with(&expected),
            "{stderr}\nexpected {expected}"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

/// Copies the directory `from` into `to`, file by file.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A checkout copied elsewhere with the binary built here (as when a checkout is moved
/// with its `target/`): run as cargo runs it, with `CARGO_MANIFEST_DIR` naming the copy's
/// `xtask/`, the binary builds the copy's ROM into the copy's `build/`, finds the copy's
/// stale generated file (the original's is fresh) and rewrites it there.
#[test]
fn the_built_binary_run_from_a_copy_of_the_repository_works_on_the_copy() {
    let original = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let copy = std::env::temp_dir().join(format!("chessattack-moved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    for dir in ["asm", "assets", "generated", "engine-src"] {
        copy_dir(&original.join(dir), &copy.join(dir));
    }
    std::fs::create_dir(copy.join("xtask")).unwrap();
    let in_copy = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(args)
            .current_dir(&copy)
            .env("CARGO_MANIFEST_DIR", copy.join("xtask"))
            .output()
            .expect("the xtask binary runs")
    };

    let output = in_copy(&["rom"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let rom = std::fs::read(copy.join("build/chessattack.gb")).unwrap();
    assert_eq!(rom.len(), 32 * 1024);
    assert!(copy.join("build/chessattack.sym").exists());

    let eval = "generated/engine/eval.inc";
    let fresh = std::fs::read_to_string(original.join(eval)).unwrap();
    std::fs::write(copy.join(eval), format!("{fresh}; edited in the copy\n")).unwrap();
    let output = in_copy(&["assets", "--check"]);
    assert!(!output.status.success());
    assert_eq!(
        text(&output.stderr),
        format!("error: generated/ has 1 stale file: {eval}; run `cargo xtask assets`\n")
    );
    let output = in_copy(&["assets"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains(&format!("wrote {eval}\n")));
    assert_eq!(std::fs::read_to_string(copy.join(eval)).unwrap(), fresh);
    std::fs::remove_dir_all(&copy).unwrap();
}
