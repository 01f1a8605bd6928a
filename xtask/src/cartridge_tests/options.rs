//! The option pages (asm/ui/options.asm) as a player goes through them with the buttons:
//! where the arrow is, what A, START and B do on each page, what ends up in `wGameMode`
//! and `wGameLevel`, and which screen comes next.

use super::{boot, current_screen, tile_text};
use crate::harness::{Button, Machine};

/// The rows of the items (every other row from row 7), the arrow's column and the items'.
const ITEM_ROW: u16 = 7;
const ARROW_COLUMN: u16 = 3;
const ITEM_COLUMN: u16 = 5;

/// `GAME_MODE_*` and `LEVEL_*` of asm/include/game.inc.
const GAME_MODE_BLACK: u8 = 1;
const GAME_MODE_TWO_PLAYERS: u8 = 2;
const LEVEL_EASY: u8 = 0;
const LEVEL_HARD: u8 = 2;
const LEVEL_CLOCK: u8 = 3;

fn press(machine: &mut Machine, button: Button) {
    machine.tap(button, 2).unwrap();
    machine.run_frames(4).unwrap();
}

/// The page's heading, items and hint as the tile map shows them, and where the arrow
/// is: the item it points at (the only `>` in the arrow's column) and `wOptionsArrow`.
fn page(machine: &Machine, items: usize) -> (String, Vec<String>, String, usize) {
    let heading = tile_text(machine, 0, 3, 20).trim().to_owned();
    let texts = (0..items)
        .map(|i| {
            tile_text(machine, ITEM_COLUMN, ITEM_ROW + 2 * i as u16, 15)
                .trim()
                .to_owned()
        })
        .collect();
    let hint = tile_text(machine, 0, 16, 20).trim().to_owned();
    let arrows: Vec<usize> = (0..items)
        .filter(|&i| tile_text(machine, ARROW_COLUMN, ITEM_ROW + 2 * i as u16, 2) == "> ")
        .collect();
    let blanks = (0..items)
        .filter(|&i| tile_text(machine, ARROW_COLUMN, ITEM_ROW + 2 * i as u16, 2) == "  ")
        .count();
    assert_eq!(
        (arrows.len(), blanks),
        (1, items - 1),
        "one arrow and blanks before the other items"
    );
    let arrow = usize::from(machine.read_u8("wOptionsArrow").unwrap());
    assert_eq!(
        arrows[0], arrow,
        "the arrow on the screen is not at wOptionsArrow"
    );
    (heading, texts, hint, arrow)
}

const MODES: [&str; 3] = ["WHITE", "BLACK", "TWO PLAYERS"];
const LEVELS: [&str; 4] = ["EASY", "MEDIUM", "HARD", "CLOCK"];

pub(super) fn mode_page(machine: &Machine) -> usize {
    assert_eq!(current_screen(machine), "SetUpModePage");
    let (heading, items, hint, arrow) = page(machine, MODES.len());
    assert_eq!(
        (heading.as_str(), hint.as_str()),
        ("PLAY AS", "A:CHOOSE  B:BACK")
    );
    assert_eq!(items, MODES);
    arrow
}

pub(super) fn level_page(machine: &Machine) -> usize {
    assert_eq!(current_screen(machine), "SetUpLevelPage");
    let (heading, items, hint, arrow) = page(machine, LEVELS.len());
    assert_eq!(
        (heading.as_str(), hint.as_str()),
        ("LEVEL", "A:CHOOSE  B:BACK")
    );
    assert_eq!(items, LEVELS);
    arrow
}

fn options(machine: &Machine) -> (u8, u8) {
    (
        machine.read_u8("wGameMode").unwrap(),
        machine.read_u8("wGameLevel").unwrap(),
    )
}

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
    assert_eq!(options(&machine), (0, LEVEL_EASY), "nothing chosen yet");

    // B on the first page: the title, nothing chosen.
    press(&mut machine, Button::B);
    assert_eq!(current_screen(&machine), "SetUpTitleScreen");
    assert_eq!(options(&machine), (0, LEVEL_EASY));
    // Back on the first page (A leaves the title too), the arrow on WHITE again.
    press(&mut machine, Button::A);
    assert_eq!(mode_page(&machine), 0);

    // BLACK, A: the level page, on EASY.
    press(&mut machine, Button::Down);
    press(&mut machine, Button::A);
    assert_eq!(options(&machine), (GAME_MODE_BLACK, LEVEL_EASY));
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
    assert_eq!(options(&machine), (GAME_MODE_BLACK, LEVEL_EASY));

    // A again, HARD with START: the board.
    press(&mut machine, Button::A);
    assert_eq!(level_page(&machine), 0);
    press(&mut machine, Button::Down);
    press(&mut machine, Button::Down);
    press(&mut machine, Button::Start);
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    assert_eq!(options(&machine), (GAME_MODE_BLACK, LEVEL_HARD));
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
    assert_eq!(options(&machine), (0, LEVEL_CLOCK), "WHITE against CLOCK");

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
    assert_eq!(options(&machine), (GAME_MODE_TWO_PLAYERS, LEVEL_EASY));
    machine.assert_no_violations().unwrap();
}
