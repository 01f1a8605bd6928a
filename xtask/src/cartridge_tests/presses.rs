//! The press queue (asm/home/joypad.asm) through the joypad, while the engine's search
//! keeps the main loop busy for seconds: every press counts, in the order made, and
//! acts where UpdateEngineTurn (asm/ui/game.asm) says: on the player's turn after the
//! engine's move, or, before a START that stops the search, on the engine's turn.

use super::support::{
    constant, cursor, engine_thinking, place, press, records, square, state, wait_for_human, Level,
    State,
};
use crate::harness::{Button, Machine};

/// HARD: a search of about two seconds after b2-b3 (730 nodes), room for two dozen presses.
const HARD: Level = Level::Hard;

/// Where the selector stands after the player's b2-b3: b3, column 1, row 3 from the top.
fn on_b3() -> (u8, u8) {
    place(square("b3"), false)
}

/// The press queue's slots (asm/home/joypad.asm).
fn queue_size(machine: &Machine) -> usize {
    constant(machine, "PAD_QUEUE_SIZE")
}

/// Presses each button in turn (two frames down, two up), and checks the search ran
/// through all of them.
fn press_during_search(machine: &mut Machine, buttons: &[Button]) {
    for &button in buttons {
        machine.tap(button, 2).unwrap();
        machine.run_frames(2).unwrap();
    }
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "the search ended before the presses did"
    );
}

/// Waits for the engine's move, then for the queued presses to be taken.
fn after_the_engines_move(machine: &mut Machine) {
    wait_for_human(machine);
    let frames = 2 * queue_size(machine) as u32;
    machine.run_frames(frames).unwrap();
    assert_eq!(records(machine).len(), 2, "the engine did not move");
    assert_eq!(state(machine), State::Human);
}

#[test]
fn each_press_during_the_search_moves_the_selector_once_the_player_is_to_move() {
    let mut machine = engine_thinking(HARD);
    assert_eq!(cursor(&machine), on_b3());
    // Up three times and Right twice, each let go before the next: five presses.
    press_during_search(
        &mut machine,
        &[
            Button::Up,
            Button::Up,
            Button::Right,
            Button::Up,
            Button::Right,
        ],
    );
    assert_eq!(
        cursor(&machine),
        on_b3(),
        "the selector moved during the search"
    );
    after_the_engines_move(&mut machine);
    assert_eq!(
        cursor(&machine),
        (3, 0),
        "three rows up and two columns right"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn presses_before_a_start_act_before_the_menu_opens_and_those_after_act_in_it() {
    let mut machine = engine_thinking(HARD);
    // Right twice, START, then Down twice (the menu's pointer, which the START has
    // opened by then, goes to its third item, SWITCH SIDES).
    for button in [Button::Right, Button::Right, Button::Start] {
        machine.tap(button, 2).unwrap();
        machine.run_frames(2).unwrap();
    }
    assert_eq!(state(&machine), State::Menu, "START did not open the menu");
    assert_eq!(cursor(&machine), (3, 3), "the two Rights before the START");
    press(&mut machine, Button::Down);
    press(&mut machine, Button::Down);
    assert_eq!(
        machine.read_u8("wMenuItem").unwrap(),
        constant::<u8>(&machine, "MENU_SWITCH_SIDES"),
        "SWITCH SIDES"
    );
    // B resumes: the engine thinks again, moves, and nothing is left to act.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Engine);
    after_the_engines_move(&mut machine);
    assert_eq!(cursor(&machine), (3, 3));
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_twice_during_a_search_opens_the_menu_and_closes_it_and_the_engine_thinks_on() {
    let mut machine = engine_thinking(HARD);
    machine.tap(Button::Start, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(state(&machine), State::Menu, "the first START");
    assert_eq!(machine.read_u8("hSearching").unwrap(), 0);
    machine.tap(Button::Start, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(state(&machine), State::Engine, "the second START resumed");
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "the engine does not think again"
    );
    after_the_engines_move(&mut machine);
    assert_eq!(cursor(&machine), on_b3());
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_burst_longer_than_the_ring_keeps_every_key_and_merges_only_the_repeats_past_it() {
    let mut machine = engine_thinking(HARD);
    // Right three times (to e3), Left four (to a3), then Right three more: ten presses.
    // The ring keeps the first 8 apart; the 9th and 10th join the 8th, so the last
    // three Rights count as one: the selector ends on b3, not d3.
    let mut burst = vec![Button::Right; 3];
    burst.extend([Button::Left; 4]);
    burst.extend([Button::Right; 3]);
    press_during_search(&mut machine, &burst);
    after_the_engines_move(&mut machine);
    assert_eq!(cursor(&machine), on_b3());
    // And a key pressed only past the ring's size is not lost: nine Lefts, then Up, which
    // joins the 8th entry.
    let mut machine = engine_thinking(HARD);
    let mut burst = vec![Button::Left; queue_size(&machine) + 1];
    burst.push(Button::Up);
    press_during_search(&mut machine, &burst);
    after_the_engines_move(&mut machine);
    assert_eq!(cursor(&machine), (0, 2), "the Up after the burst");
    machine.assert_no_violations().unwrap();
}
