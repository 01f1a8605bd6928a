//! A minute of seeded random presses from power-on ([`crate::soak::mashing`], which
//! `cargo xtask soak` runs for ten): the title, the option pages, new games, the pause
//! menu and endings get visited, the CPU stays in the game's code, and every move the
//! move list records is a legal move of the reference model's game, whose board wBoard
//! then holds.

use super::support::{cartridge, machine};
use crate::progress::Progress;
use crate::soak::mashing::{mash, AT_LEAST_A_MINUTE, FRAMES_PER_MINUTE};

#[test]
fn a_minute_of_random_presses_keeps_the_game_running_and_every_move_legal() {
    let build = cartridge();
    let mut machine = machine(&build);
    let progress = Progress::new("a minute of random presses", FRAMES_PER_MINUTE);
    let figures =
        mash(&mut machine, FRAMES_PER_MINUTE, &progress).unwrap_or_else(|e| panic!("{e:#}"));
    println!("{figures}");
    assert_eq!(figures.frames, FRAMES_PER_MINUTE);
    figures
        .check_promise(AT_LEAST_A_MINUTE, 1)
        .unwrap_or_else(|e| panic!("{e:#}"));
}
