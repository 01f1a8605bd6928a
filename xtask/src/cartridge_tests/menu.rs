//! The pause menu through the joypad: every item reached with up and down (the list stops
//! at its ends, it does not wrap), the list, longer than the window, scrolling a row at a
//! time with its signs of more items above and below, A, B, START and SELECT at each item,
//! the music item turning the music off and on, and a menu reopened after a scroll showing
//! its first rows from its first frame.

use super::support::{
    assert_status, assert_text_at, color_value, constant, current_screen, game, menu_item_x,
    menu_row, message_row, pointer, press, screen_text, state, window_shown, Mode, State,
};
use crate::harness::{Button, Machine};
use engine_src::Color;

/// The items' texts as the window shows them in a game against the engine, in their
/// order, the music on, each with its number's name (MENU_*, asm/ui/menu.asm).
const ITEMS: [(&str, &str); 9] = [
    ("MENU_RESUME", "RESUME"),
    ("MENU_HINT", "HINT"),
    ("MENU_SWITCH_SIDES", "SWITCH SIDES"),
    ("MENU_OFFER_DRAW", "OFFER DRAW"),
    ("MENU_RESIGN", "RESIGN"),
    ("MENU_NEW_GAME", "NEW GAME"),
    ("MENU_MUSIC", "MUSIC ON"),
    ("MENU_TAKE_BACK", "TAKE BACK"),
    ("MENU_REPLAY", "REPLAY"),
];

/// The rows of items the window shows.
const ROWS: usize = 5;

/// A constant the menu exports (asm/ui/menu.asm), read from the `.sym` file.
fn menu_constant(machine: &Machine, name: &str) -> usize {
    constant(machine, name)
}

/// Row `row` of the window's tile map (tile map 1, which the window shows from its top
/// left corner at MENU_Y), read through the font, trailing blanks dropped; `~` for a tile
/// that is no glyph.
fn window_row(machine: &Machine, row: usize) -> String {
    let columns: usize = constant(machine, "SCREEN_WIDTH");
    let row = u16::try_from(row).unwrap();
    crate::soak::cartridge::map_text(machine, "TILEMAP1", 0, row, columns)
        .unwrap_or_else(|error| panic!("{error:#}"))
        .trim_end()
        .to_owned()
}

/// The rows of items the window shows (the row under them is the messages').
fn shown_rows(machine: &Machine) -> Vec<String> {
    (0..menu_constant(machine, "MENU_ROWS"))
        .map(|row| window_row(machine, row))
        .collect()
}

/// A window row as `window_row` reads it: the item's text from column 2, the sign of more
/// items (`^`, `v` or none) at column 18. (The pointer is an object, not a tile.)
fn row(text: &str, sign: char) -> String {
    format!("  {text:<16}{sign}").trim_end().to_owned()
}

/// The pointer is on the window's row `row`, left of the items.
fn assert_pointer_on(machine: &Machine, row: usize, context: &str) {
    assert_eq!(
        pointer(machine),
        Some((1, menu_row(machine, row))),
        "{context}: the pointer"
    );
}

/// Opens the menu with START: the window, the pointer at the first item.
fn open(machine: &mut Machine) {
    press(machine, Button::Start);
    assert_eq!(state(machine), State::Menu, "the menu did not open");
    assert!(window_shown(machine), "no window");
    assert_pointer_on(machine, 0, "the menu opened");
}

/// The window's rows with the list scrolled to item `top`, each with its sign of more
/// items, `music` the music's row.
fn window(top: usize, music: &str) -> Vec<String> {
    (top..top + ROWS)
        .map(|item| {
            let text = if ITEMS[item].0 == "MENU_MUSIC" {
                music
            } else {
                ITEMS[item].1
            };
            let sign = match item - top {
                0 if top > 0 => '^',
                last if last == ROWS - 1 && top + ROWS < ITEMS.len() => 'v',
                _ => ' ',
            };
            row(text, sign)
        })
        .collect()
}

/// The window row the pointer is on at `item` after going down from the first item.
fn row_going_down(item: usize) -> usize {
    item.min(ROWS - 1)
}

#[test]
fn every_item_is_reached_with_up_and_down_the_list_scrolling_with_signs_of_more() {
    let mut machine = game(Mode::White);
    assert_eq!(
        menu_constant(&machine, "NUM_MENU_ITEMS"),
        ITEMS.len(),
        "the cartridge's items"
    );
    assert_eq!(menu_constant(&machine, "MENU_ROWS"), ROWS, "the rows shown");
    for (i, (name, _)) in ITEMS.iter().enumerate() {
        assert_eq!(menu_constant(&machine, name), i, "{name}");
    }
    open(&mut machine);
    assert_eq!(shown_rows(&machine), window(0, "MUSIC ON"), "opened");
    // Up at the first item stays there.
    press(&mut machine, Button::Up);
    assert_pointer_on(&machine, 0, "up at RESUME");
    // Down to the last row shown: the list stays; past it, it scrolls a row a press.
    for (item, (_, text)) in ITEMS.iter().enumerate().skip(1) {
        press(&mut machine, Button::Down);
        assert_eq!(machine.read_u8("wMenuItem").unwrap(), item as u8);
        assert_pointer_on(&machine, row_going_down(item), &format!("down to {text}"));
        let top = item.saturating_sub(ROWS - 1);
        assert_eq!(
            shown_rows(&machine),
            window(top, "MUSIC ON"),
            "down to {text}"
        );
    }
    // Down at the last item stays there.
    let last = ITEMS.len() - 1;
    press(&mut machine, Button::Down);
    assert_eq!(machine.read_u8("wMenuItem").unwrap(), last as u8);
    assert_pointer_on(&machine, ROWS - 1, "down at REPLAY");
    // Up to the first row shown: the list stays; past it, it scrolls back.
    let top = last + 1 - ROWS;
    for item in (0..last).rev() {
        press(&mut machine, Button::Up);
        let shown_top = item.min(top);
        assert_pointer_on(&machine, item - shown_top, ITEMS[item].1);
        assert_eq!(
            shown_rows(&machine),
            window(shown_top, "MUSIC ON"),
            "up to {}",
            ITEMS[item].1
        );
    }
    machine.assert_no_violations().unwrap();
}

#[test]
fn between_two_players_the_third_item_says_the_engine_plays() {
    let mut machine = game(Mode::TwoPlayers);
    open(&mut machine);
    assert_eq!(
        shown_rows(&machine)[menu_constant(&machine, "MENU_SWITCH_SIDES")],
        row("ENGINE PLAYS NOW", ' ')
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_menu_reopened_after_a_scroll_shows_its_first_rows_from_its_first_frame() {
    let mut machine = game(Mode::White);
    // The screen's rows under the board from the items' column, as the player sees them
    // (the pointer, an object, is left of it): the board's, then the menu's.
    let menu_y: usize = constant(&machine, "MENU_Y");
    let item_x = menu_item_x(&machine);
    let screen_rows = |machine: &Machine| -> Vec<String> {
        (0..ROWS)
            .map(|i| screen_text(machine, item_x, menu_y + i, 20 - item_x))
            .collect()
    };
    let board = screen_rows(&machine);
    open(&mut machine);
    for _ in 1..ITEMS.len() {
        press(&mut machine, Button::Down);
    }
    assert_eq!(
        shown_rows(&machine),
        window(ITEMS.len() - ROWS, "MUSIC ON"),
        "scrolled"
    );
    // B, and START as soon as the board shows again.
    machine.tap(Button::B, 1).unwrap();
    let mut frames = 1;
    while screen_rows(&machine) != board {
        machine.run_frames(1).unwrap();
        frames += 1;
        assert!(frames < 10, "the menu did not close");
    }
    machine.tap(Button::Start, 1).unwrap();
    while screen_rows(&machine) == board {
        machine.run_frames(1).unwrap();
        frames += 1;
        assert!(frames < 20, "the menu did not open again");
    }
    let seen = screen_rows(&machine);
    let first: Vec<String> = window(0, "MUSIC ON")
        .iter()
        .map(|text| text[item_x..].to_owned())
        .collect();
    assert_eq!(seen, first, "the first frame of the menu opened again");
    machine.assert_no_violations().unwrap();
}

#[test]
fn b_start_and_select_resume_the_game_from_every_item() {
    let mut machine = game(Mode::White);
    for (item, (_, text)) in ITEMS.iter().enumerate() {
        for resumes in [Button::B, Button::Start, Button::Select] {
            let context = format!("{resumes:?} at {text}");
            open(&mut machine);
            assert_eq!(
                machine.read_u8("wClockSide").unwrap(),
                constant::<u8>(&machine, "CLOCK_STOPPED"),
                "{context}: the clocks stand"
            );
            for _ in 0..item {
                press(&mut machine, Button::Down);
            }
            assert_pointer_on(&machine, row_going_down(item), &context);
            press(&mut machine, resumes);
            assert_eq!(state(&machine), State::Human, "{context}: the state");
            assert!(!window_shown(&machine), "{context}: the window stayed");
            assert_eq!(pointer(&machine), None, "{context}: the pointer stayed");
            assert_eq!(
                machine.read_u8("wClockSide").unwrap(),
                color_value(&machine, Color::White),
                "{context}: White's clock runs again"
            );
            assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
            assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 1, "{context}");
        }
    }
    machine.assert_no_violations().unwrap();
}

/// A game with the menu open and the pointer moved down to the item `name` (MENU_*),
/// then A.
fn choose(name: &str) -> Machine {
    let mut machine = game(Mode::White);
    let item = menu_constant(&machine, name);
    open(&mut machine);
    for _ in 0..item {
        press(&mut machine, Button::Down);
    }
    press(&mut machine, Button::A);
    machine
}

#[test]
fn a_at_each_item_does_what_it_says() {
    let resume = choose("MENU_RESUME");
    assert_eq!(state(&resume), State::Human, "RESUME");
    assert!(!window_shown(&resume), "RESUME: the window stayed");

    // The engine, at the start position, does not take a draw.
    let draw = choose("MENU_OFFER_DRAW");
    assert_eq!(state(&draw), State::Menu, "OFFER DRAW");
    assert_text_at(&draw, 0, message_row(&draw), "DRAW DECLINED", 20);

    let resign = choose("MENU_RESIGN");
    assert_eq!(state(&resign), State::Over, "RESIGN");
    assert_status(
        &resign,
        ["RESIGNED", "BLACK WINS", "B: TAKE BACK", "A: NEW GAME"],
    );

    let mut new_game = choose("MENU_NEW_GAME");
    new_game.run_frames(4).unwrap();
    assert_eq!(current_screen(&new_game), "SetUpModePage", "NEW GAME");

    for machine in [resume, draw, resign, new_game] {
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn the_music_item_turns_the_music_off_and_on_and_says_which() {
    let mut machine = choose("MENU_MUSIC");
    // MUSIC, reached going down, on the window's last row.
    let music = menu_row(&machine, ROWS - 1);
    assert_eq!(state(&machine), State::Menu);
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 0);
    assert_text_at(&machine, 2, music, "MUSIC OFF", 11);
    press(&mut machine, Button::A);
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 1);
    assert_text_at(&machine, 2, music, "MUSIC ON", 11);
    press(&mut machine, Button::A);
    // Closed and opened again, the menu says what the music is.
    press(&mut machine, Button::B);
    open(&mut machine);
    for _ in 0..menu_constant(&machine, "MENU_MUSIC") {
        press(&mut machine, Button::Down);
    }
    assert_text_at(&machine, 2, music, "MUSIC OFF", 11);
    machine.assert_no_violations().unwrap();
}
