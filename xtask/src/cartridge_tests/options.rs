//! The option pages (asm/ui/options.asm) as a player goes through them with the buttons:
//! where the arrow is, what A, START and B do on each page, what ends up in `wGameMode`
//! and `wGameLevel`, and which screen comes next.

use super::support::{boot, current_screen, level_page, mode_page, options, press, Level, Mode};
use crate::harness::Button;

#[test]
fn the_arrow_goes_round_a_confirms_and_b_goes_back_a_page() {
    let mut machine = boot(10);
    press(&mut machine, Button::Start);
    assert_eq!(mode_page(&machine), 0, "the first page opens on WHITE");
    // Down and up, round the ends; left, right and SELECT do nothing.
    for (button, arrow) in [
        (Button::Down, 1),
        (Button::Down, 2),
        (Button::Down, 0),
        (Button::Up, 2),
        (Button::Up, 1),
        (Button::Left, 1),
        (Button::Right, 1),
        (Button::Select, 1),
    ] {
        press(&mut machine, button);
        assert_eq!(mode_page(&machine), arrow, "after {button:?}");
    }
    assert_eq!(
        options(&machine),
        (Some(Mode::White), Some(Level::Easy)),
        "nothing chosen yet"
    );

    // B on the first page: the title, nothing chosen.
    press(&mut machine, Button::B);
    assert_eq!(current_screen(&machine), "SetUpTitleScreen");
    assert_eq!(options(&machine), (Some(Mode::White), Some(Level::Easy)));
    // Back on the first page (A leaves the title too), the arrow on WHITE again.
    press(&mut machine, Button::A);
    assert_eq!(mode_page(&machine), 0);

    // BLACK, A: the level page, on EASY.
    press(&mut machine, Button::Down);
    press(&mut machine, Button::A);
    assert_eq!(options(&machine), (Some(Mode::Black), Some(Level::Easy)));
    assert_eq!(level_page(&machine), 0);
    for (button, arrow) in [
        (Button::Up, 3),
        (Button::Down, 0),
        (Button::Down, 1),
        (Button::Down, 2),
    ] {
        press(&mut machine, button);
        assert_eq!(level_page(&machine), arrow, "after {button:?}");
    }
    // B on the level page: the first page, the arrow on the mode chosen, the level as it was.
    press(&mut machine, Button::B);
    assert_eq!(
        mode_page(&machine),
        1,
        "B from the level page: the arrow on BLACK"
    );
    assert_eq!(options(&machine), (Some(Mode::Black), Some(Level::Easy)));

    // A again, HARD with START: the board.
    press(&mut machine, Button::A);
    assert_eq!(level_page(&machine), 0);
    press(&mut machine, Button::Down);
    press(&mut machine, Button::Down);
    press(&mut machine, Button::Start);
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    assert_eq!(options(&machine), (Some(Mode::Black), Some(Level::Hard)));
    machine.assert_no_violations().unwrap();
}

#[test]
fn clock_is_the_fourth_level_and_two_players_skip_the_level_page() {
    let mut machine = boot(10);
    press(&mut machine, Button::Start);
    press(&mut machine, Button::A);
    assert_eq!(level_page(&machine), 0);
    press(&mut machine, Button::Up);
    assert_eq!(level_page(&machine), 3);
    press(&mut machine, Button::A);
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    assert_eq!(
        options(&machine),
        (Some(Mode::White), Some(Level::Clock)),
        "WHITE against CLOCK"
    );

    let mut machine = boot(10);
    press(&mut machine, Button::Start);
    press(&mut machine, Button::Up);
    assert_eq!(mode_page(&machine), 2);
    press(&mut machine, Button::A);
    assert_eq!(
        current_screen(&machine),
        "SetUpBoardScreen",
        "TWO PLAYERS goes to the board"
    );
    assert_eq!(
        options(&machine),
        (Some(Mode::TwoPlayers), Some(Level::Easy))
    );
    machine.assert_no_violations().unwrap();
}
