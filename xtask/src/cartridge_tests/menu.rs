//! The pause menu through the joypad: every item reached with up and down (the list stops
//! at its ends, it does not wrap), A, B, START and SELECT at each item, the music item
//! turning the music off and on, and a list longer than the window (the cartridge built
//! with `-D MENU_TEST_ITEMS`, three items more) scrolling a row at a time with its signs
//! of more items above and below.

use super::support::{
    assert_status, assert_text_at, color_value, constant, current_screen, game, menu_row,
    message_row, new_game, pointer, press, state, window_shown, Level, Mode, Options, State,
};
use crate::harness::{Button, Machine};
use crate::{project, rom};
use engine_src::Color;

/// The items' texts as the window shows them, in their order, the music on, each with
/// its number's name (MENU_*, asm/ui/menu.asm).
const ITEMS: [(&str, &str); 7] = [
    ("MENU_RESUME", "RESUME"),
    ("MENU_OFFER_DRAW", "OFFER DRAW"),
    ("MENU_RESIGN", "RESIGN"),
    ("MENU_NEW_GAME", "NEW GAME"),
    ("MENU_MUSIC", "MUSIC ON"),
    ("MENU_TAKE_BACK", "TAKE BACK"),
    ("MENU_REPLAY", "REPLAY"),
];

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

#[test]
fn every_item_is_reached_with_up_and_down_and_the_list_stops_at_its_ends() {
    let mut machine = game(Mode::White);
    let items = menu_constant(&machine, "NUM_MENU_ITEMS");
    assert_eq!(items, ITEMS.len(), "the cartridge's items");
    assert_eq!(menu_constant(&machine, "MENU_ROWS"), 5, "the rows shown");
    for (i, (name, _)) in ITEMS.iter().enumerate() {
        assert_eq!(menu_constant(&machine, name), i, "{name}");
    }
    open(&mut machine);
    // The first five items, the sign of more below on the last row.
    let rows = 5;
    let first_shown: Vec<String> = ITEMS
        .iter()
        .take(rows)
        .enumerate()
        .map(|(i, (_, text))| row(text, if i == rows - 1 { 'v' } else { ' ' }))
        .collect();
    assert_eq!(shown_rows(&machine), first_shown, "the list's top");
    // Up at the first item stays there.
    press(&mut machine, Button::Up);
    assert_pointer_on(&machine, 0, "up at RESUME");
    // Down: past the last row shown the list scrolls, the pointer on the last row.
    for (item, (_, text)) in ITEMS.iter().enumerate().skip(1) {
        press(&mut machine, Button::Down);
        assert_pointer_on(&machine, item.min(rows - 1), &format!("down to {text}"));
        assert_eq!(machine.read_u8("wMenuItem").unwrap(), item as u8);
    }
    // Down at the last item stays there.
    press(&mut machine, Button::Down);
    assert_pointer_on(&machine, rows - 1, "down at REPLAY");
    let top = items - rows;
    for (item, (_, text)) in ITEMS.iter().enumerate().take(items - 1).rev() {
        press(&mut machine, Button::Up);
        assert_pointer_on(&machine, item - item.min(top), &format!("up to {text}"));
    }
    assert_eq!(shown_rows(&machine), first_shown, "back at the top");
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
            let rows: usize = menu_constant(&machine, "MENU_ROWS");
            assert_pointer_on(&machine, item.min(rows - 1), &context);
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
    let music = menu_row(&machine, menu_constant(&machine, "MENU_MUSIC"));
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
    assert_text_at(&machine, 2, music, "MUSIC OFF", 11);
    machine.assert_no_violations().unwrap();
}

/// The cartridge built with `-D MENU_TEST_ITEMS` (asm/ui/menu.asm): ten items, TEST 6
/// to TEST 8 after REPLAY, each showing TEST ITEM CHOSEN when A takes it.
fn eight_item_game() -> Machine {
    let root = project::root();
    let units = rom::engine_units(&root).unwrap();
    let build = rom::assemble_and_link(
        &units,
        &["MENU_TEST_ITEMS"],
        "the cartridge with -D MENU_TEST_ITEMS",
    )
    .unwrap_or_else(|error| panic!("{error:#}"));
    new_game(&build, Options::Chosen(Mode::White, Level::Easy), 8)
}

#[test]
fn a_list_longer_than_the_window_scrolls_with_signs_of_more_above_and_below() {
    let mut machine = eight_item_game();
    assert_eq!(menu_constant(&machine, "NUM_MENU_ITEMS"), 10);
    let texts = [
        "RESUME",
        "OFFER DRAW",
        "RESIGN",
        "NEW GAME",
        "MUSIC ON",
        "TAKE BACK",
        "REPLAY",
        "TEST 6",
        "TEST 7",
        "TEST 8",
    ];
    // The window from item `top` on, with its signs.
    let window = |top: usize, music: &str| -> Vec<String> {
        (top..top + 5)
            .map(|item| {
                let text = if item == 4 { music } else { texts[item] };
                let sign = match item - top {
                    0 if top > 0 => '^',
                    4 if top + 5 < texts.len() => 'v',
                    _ => ' ',
                };
                row(text, sign)
            })
            .collect()
    };
    open(&mut machine);
    assert_eq!(shown_rows(&machine), window(0, "MUSIC ON"), "opened");
    // Down to the last row shown: the list stays.
    for (item, text) in texts.iter().enumerate().take(5).skip(1) {
        press(&mut machine, Button::Down);
        assert_pointer_on(&machine, item, text);
    }
    assert_eq!(shown_rows(&machine), window(0, "MUSIC ON"), "at MUSIC");
    // Down past it: the list scrolls a row a press, the pointer on the last row.
    for (item, text) in texts.iter().enumerate().skip(5) {
        press(&mut machine, Button::Down);
        assert_eq!(machine.read_u8("wMenuItem").unwrap(), item as u8);
        assert_pointer_on(&machine, 4, text);
        assert_eq!(
            shown_rows(&machine),
            window(item - 4, "MUSIC ON"),
            "down to {text}"
        );
    }
    // The end: down stays; A takes the item shown last.
    let (last, last_top) = (texts.len() - 1, texts.len() - 5);
    press(&mut machine, Button::Down);
    assert_eq!(
        machine.read_u8("wMenuItem").unwrap(),
        last as u8,
        "down at TEST 8"
    );
    assert_eq!(
        shown_rows(&machine),
        window(last_top, "MUSIC ON"),
        "down at TEST 8"
    );
    press(&mut machine, Button::A);
    assert_text_at(&machine, 0, message_row(&machine), "TEST ITEM CHOSEN", 20);
    assert_eq!(state(&machine), State::Menu, "TEST 8's action");
    // Up to the first row shown (TAKE BACK): the list stays; past it, it scrolls.
    for item in (last_top..last).rev() {
        press(&mut machine, Button::Up);
        assert_pointer_on(&machine, item - last_top, texts[item]);
    }
    // Up past TAKE BACK scrolls (MUSIC on the first row), and MUSIC turns off
    // there.
    press(&mut machine, Button::Up);
    assert_eq!(machine.read_u8("wMenuItem").unwrap(), 4, "at MUSIC");
    press(&mut machine, Button::A);
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 0);
    assert_eq!(shown_rows(&machine), window(4, "MUSIC OFF"), "MUSIC OFF");
    for item in (0..4).rev() {
        press(&mut machine, Button::Up);
        // The list scrolls a row a press, the pointer on the first row.
        assert_pointer_on(&machine, 0, texts[item]);
    }
    assert_eq!(
        shown_rows(&machine),
        window(0, "MUSIC OFF"),
        "back at RESUME"
    );
    // Left scrolled and closed, the menu opens again at its top.
    for _ in 0..last {
        press(&mut machine, Button::Down);
    }
    assert_eq!(
        shown_rows(&machine),
        window(last_top, "MUSIC OFF"),
        "at TEST 8"
    );
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Human);
    open(&mut machine);
    assert_eq!(shown_rows(&machine), window(0, "MUSIC OFF"), "opened again");
    machine.assert_no_violations().unwrap();
}
