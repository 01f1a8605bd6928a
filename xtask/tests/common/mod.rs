//! What the command-level tests share.

/// Whether the programs a test needs from outside the Rust toolchain are there: `missing`
/// names those that are not, `install` says how to get them. In CI (`CI` set, as `.ci/run`
/// sets it) a missing program fails the test; elsewhere the test prints `NOT RUN` and what
/// to install, and is to return at once, so that `cargo test --workspace` passes on a
/// machine with nothing but Rust.
pub fn may_run(test: &str, missing: &[&str], install: &str) -> bool {
    if missing.is_empty() {
        return true;
    }
    let message = format!("{test}: {} not found: {install}", missing.join(", "));
    assert!(std::env::var_os("CI").is_none(), "{message}");
    eprintln!("NOT RUN {message}");
    false
}
