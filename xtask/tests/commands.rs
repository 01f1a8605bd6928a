//! `cargo xtask` run as CI and scripts run it: its output into a pipe, not a terminal.
//! What a user sees of a command (its lines, its errors, how soon it fails) is tested
//! here; the code behind it is tested in its module.

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
