//! The progress bar of the commands that can run for minutes (verify, perft, bench,
//! crosscheck, match): what is being done, how far it is, the time spent and the time left.
//!
//! The bar is drawn on standard error and only when standard error is a terminal. In a
//! CI log, a pipe or a test nothing is drawn, so the output stays the same lines, the
//! last one the summary (CI reads the last line of perft for `nodes N`). The command's
//! own lines go through [`Progress::println`], which prints them above the bar.
//!
//! Drawn with `indicatif`, the usual progress-bar crate of Rust command-line tools
//! (cargo-style bars, ETA from the recent rate, well maintained).

use std::borrow::Cow;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the elapsed time and the estimate are redrawn while one step runs long.
const TICK: Duration = Duration::from_millis(250);

/// A progress bar of a known number of steps, cleared when dropped.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `total` steps, saying `what` is being done.
    pub fn new(what: impl Into<Cow<'static, str>>, total: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), draw_target());
        bar.set_style(
            ProgressStyle::with_template(
                "{wide_msg} [{bar:20}] {human_pos}/{human_len}, {elapsed} spent, \
                 about {eta} left",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        bar.set_message(what);
        if !bar.is_hidden() {
            bar.enable_steady_tick(TICK);
        }
        Progress { bar }
    }

    /// `steps` more done.
    pub fn advance(&self, steps: u64) {
        self.bar.inc(steps);
    }

    /// A new description of what is being done.
    pub fn say(&self, what: impl Into<Cow<'static, str>>) {
        self.bar.set_message(what);
    }

    /// Prints `line` on standard output, above the bar.
    pub fn println(&self, line: impl AsRef<str>) {
        self.bar.suspend(|| println!("{}", line.as_ref()));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Standard error when it is a terminal; nowhere otherwise, and never in tests (whose
/// standard error may be the developer's terminal).
fn draw_target() -> ProgressDrawTarget {
    if !cfg!(test) && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}
