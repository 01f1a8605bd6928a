//! The kit of the cartridge tests: booting the game to a stage, pressing buttons,
//! steering the selector, playing moves, and reading back what the cartridge holds and
//! shows (the board, the state, the status line, the move list, the clocks, the option
//! pages, the VRAM queue). Every value the assembly defines is read by name from the
//! `.sym` file ([`constant`]), never copied.
//!
//! - The assembly's values: [`constant`], [`flags`] (`MOVE_FLAG_*`), [`pad_bit`]
//!   (`PAD_*`), [`color_value`] and [`side`] (`COLOR_*`), and the enums [`Mode`],
//!   [`Level`], [`State`], [`Ending`], each variant naming its constant.
//! - Booting to a stage: [`cartridge`], [`machine`], [`boot`] (the title after some
//!   frames), [`title_between_updates`], [`new_game`] (the board screen of a new game by
//!   START and A on the option pages, at the options power-on leaves or chosen ones,
//!   some frames after), and its shorthands [`board_screen`] (WHITE at EASY from
//!   power-on), [`game`] and [`game_at`] (a new game as White, Black or two players at a
//!   level, what the set-up queued copied), [`board_at`]; [`engine_thinking`],
//!   [`promotion_question`], [`draw_offered`].
//! - Pressing: [`press`] (a tap and the frames the screen takes to follow); holding is
//!   the harness's `Machine::press` and `release`.
//! - Steering and playing: [`position`] (of a FEN), [`moves`] (of UCI strings),
//!   [`square`], [`place`], [`cursor`], [`steer`], [`pick_up`],
//!   [`choose_move`] (with the promotion's piece), [`play`], [`choose_menu_item`],
//!   [`resign`],
//!   [`wait_for_human`].
//! - Reading the game: [`state`], [`ending`], [`winner`], [`options`],
//!   [`assert_board_is`] (wBoard against a model `Position`), [`engine_square`],
//!   [`model_square`], [`piece_code`], [`promotion_bits`].
//! - Reading the screen: [`screen_area`], [`square_area`], [`board_geometry`],
//!   [`screen_text`], [`tile_text`], [`assert_text_at`], [`assert_status`] (the status
//!   line), [`menu_row`], [`menu_item_x`], [`message_row`], [`window_shown`],
//!   [`pointer`], [`pointer_oam`], [`oam_at`], [`current_screen`], [`mode_page`],
//!   [`level_page`], [`art`], [`text_picture`].
//! - The move list: [`records`], [`record`] (a model move's record), [`rows`], [`view`],
//!   [`bottom_top`], [`move_list_panel`], [`move_list_panel_area`], [`move_list_top`],
//!   [`between_updates`].
//! - The clocks, by side and by their place in the panel: [`clock_seconds`],
//!   [`set_clock_seconds`], [`clock_place`], [`clock_text`],
//!   [`white_flag_falls_at_next_vblank`].
//! - The VRAM queue: [`call_producer`], [`queued_bytes`], [`drain`].

use engine_src::{Color, Move, MoveKind, Position, Role, Square};

use crate::assets::gfx::{self, Sheet, FONT_GLYPHS};
use crate::harness::{
    Button, Console, Machine, Registers, CYCLES_PER_FRAME, CYCLES_PER_SECOND, WIDTH,
};
use crate::rom;

// ----- the assembly's constants -----

/// The value of the constant `name` the assembly exports (`EXPORT` beside its `DEF`), as
/// the type the test compares it with; fails naming the constant when it is missing or
/// does not fit.
pub(super) fn constant<T: TryFrom<u32>>(machine: &Machine, name: &str) -> T {
    machine
        .symbols()
        .exported_as(name)
        .unwrap_or_else(|error| panic!("{error:#}"))
}

/// The OR of the `MOVE_FLAG_*` bits named (without the prefix): `flags(m, &["CAPTURE"])`.
pub(super) fn flags(machine: &Machine, names: &[&str]) -> u8 {
    names.iter().fold(0, |bits, name| {
        bits | constant::<u8>(machine, &format!("MOVE_FLAG_{name}"))
    })
}

/// Declares an enum of values of one of the game's bytes, each variant standing for the
/// constant the assembly exports under the name given, and a reader of the byte.
macro_rules! game_values {
    ($(#[$meta:meta])* $name:ident from $byte:literal { $($variant:ident = $constant:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(super) enum $name {
            $($variant,)+
        }

        impl $name {
            /// The constant of the assembly this value stands for.
            pub(super) fn constant(self) -> &'static str {
                match self {
                    $($name::$variant => $constant,)+
                }
            }

            /// Its value in the cartridge.
            pub(super) fn value(self, machine: &Machine) -> u8 {
                constant(machine, self.constant())
            }

            /// The value the byte holds, by the constants' values; None for a byte that
            /// is none of them.
            fn read(machine: &Machine) -> Option<$name> {
                let byte = machine.read_u8($byte).unwrap();
                [$($name::$variant),+]
                    .into_iter()
                    .find(|value| value.value(machine) == byte)
            }
        }
    };
}

game_values! {
    /// `wGameMode` (asm/include/game.inc).
    Mode from "wGameMode" {
        White = "GAME_MODE_WHITE",
        Black = "GAME_MODE_BLACK",
        TwoPlayers = "GAME_MODE_TWO_PLAYERS",
    }
}

game_values! {
    /// `wGameLevel` (asm/include/game.inc).
    Level from "wGameLevel" {
        Easy = "LEVEL_EASY",
        Medium = "LEVEL_MEDIUM",
        Hard = "LEVEL_HARD",
        Clock = "LEVEL_CLOCK",
    }
}

game_values! {
    /// `wGameState` (asm/include/game_state.inc).
    State from "wGameState" {
        Human = "STATE_HUMAN",
        Picked = "STATE_PICKED",
        Promotion = "STATE_PROMOTION",
        Engine = "STATE_ENGINE",
        Menu = "STATE_MENU",
        DrawAnswer = "STATE_DRAW_ANSWER",
        Over = "STATE_OVER",
        Hint = "STATE_HINT",
        LevelChoice = "STATE_LEVEL_CHOICE",
        Replay = "STATE_REPLAY",
    }
}

game_values! {
    /// `wEnding` (asm/include/game_state.inc); 0 while the game goes on.
    Ending from "wEnding" {
        Checkmate = "ENDING_CHECKMATE",
        Stalemate = "ENDING_STALEMATE",
        InsufficientMaterial = "ENDING_INSUFFICIENT_MATERIAL",
        FiftyMoves = "ENDING_FIFTY_MOVES",
        Repetition = "ENDING_REPETITION",
        Time = "ENDING_TIME",
        Resigned = "ENDING_RESIGNED",
        Agreement = "ENDING_AGREEMENT",
    }
}

/// The game's mode and level as the option pages left them.
pub(super) fn options(machine: &Machine) -> (Option<Mode>, Option<Level>) {
    (Mode::read(machine), Level::read(machine))
}

/// The board screen's state.
pub(super) fn state(machine: &Machine) -> State {
    State::read(machine).unwrap_or_else(|| {
        panic!(
            "wGameState is {}, no STATE_*",
            machine.read_u8("wGameState").unwrap()
        )
    })
}

/// How the game ended, None while it goes on.
pub(super) fn ending(machine: &Machine) -> Option<Ending> {
    let ending = Ending::read(machine);
    if ending.is_none() {
        assert_eq!(
            machine.read_u8("wEnding").unwrap(),
            0,
            "wEnding is no ENDING_*"
        );
    }
    ending
}

/// `wWinner`: the side that won, None for a draw (`NO_WINNER`).
pub(super) fn winner(machine: &Machine) -> Option<Color> {
    let byte = machine.read_u8("wWinner").unwrap();
    if byte == constant::<u8>(machine, "NO_WINNER") {
        return None;
    }
    Some(side(machine, byte))
}

/// The side a `COLOR_*` byte stands for.
pub(super) fn side(machine: &Machine, byte: u8) -> Color {
    Color::ALL
        .into_iter()
        .find(|&color| color_value(machine, color) == byte)
        .unwrap_or_else(|| panic!("{byte} is no COLOR_*"))
}

/// The `COLOR_*` byte of a side (asm/include/chess.inc).
pub(super) fn color_value(machine: &Machine, color: Color) -> u8 {
    constant(
        machine,
        match color {
            Color::White => "COLOR_WHITE",
            Color::Black => "COLOR_BLACK",
        },
    )
}

// ----- booting -----

/// The cartridge as `cargo xtask rom` builds it (in memory: the tests write nothing).
pub(super) fn cartridge() -> rom::Build {
    rom::cartridge().unwrap_or_else(|error| panic!("{error:#}"))
}

/// A machine at power-on with `build` in it and its symbols loaded.
pub(super) fn machine(build: &rom::Build) -> Machine {
    machine_on(build, Console::Dmg)
}

/// The same in another console.
pub(super) fn machine_on(build: &rom::Build, console: Console) -> Machine {
    Machine::new_on(&build.rom, console)
        .and_then(|machine| machine.with_symbols(&build.sym))
        .unwrap_or_else(|error| panic!("{error:#}"))
}

/// The cartridge after `frames` frames from power-on.
pub(super) fn boot(frames: u32) -> Machine {
    let mut machine = machine(&cartridge());
    machine
        .run_frames(frames)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
}

/// The title screen with the main loop at the start of a round, just after the title's
/// update: a producer of the VRAM queue may run from here.
pub(super) fn title_between_updates() -> Machine {
    let mut machine = machine(&cartridge());
    crate::soak::cartridge::title_between_updates(&mut machine, 10)
        .unwrap_or_else(|error| panic!("{error:#}"));
    machine
}

/// The options a boot to the board chooses: those the pages open at after power-on
/// (WHITE, EASY), or a mode and level written to wGameMode and wGameLevel first, which
/// the pages then open at.
#[derive(Clone, Copy)]
pub(super) enum Options {
    PowerOn,
    Chosen(Mode, Level),
}

/// The cartridge `build` on the board screen of a new game: ten frames after power-on,
/// START on the title, then A on each option page (one page for two players, else two),
/// each press followed by four frames, and then `frames` frames more. The board screen's
/// set-up takes a few frames with the LCD off; after 8 frames the VBlanks have copied
/// what it queued (the status line, the clocks, the blank move list).
pub(super) fn new_game(build: &rom::Build, options: Options, frames: u32) -> Machine {
    let mut machine = machine(build);
    machine
        .run_frames(10)
        .unwrap_or_else(|error| panic!("{error:#}"));
    let mut pages = 2;
    if let Options::Chosen(mode, level) = options {
        machine.write_u8("wGameMode", mode.value(&machine)).unwrap();
        machine
            .write_u8("wGameLevel", level.value(&machine))
            .unwrap();
        if mode == Mode::TwoPlayers {
            pages = 1;
        }
    }
    press(&mut machine, Button::Start);
    for _ in 0..pages {
        press(&mut machine, Button::A);
    }
    machine.run_frames(frames).unwrap();
    assert_eq!(current_screen(&machine), "SetUpBoardScreen");
    machine
}

/// The board screen two frames after START on the title and A, A on the option pages as
/// power-on left them (WHITE, EASY).
pub(super) fn board_screen() -> Machine {
    new_game(&cartridge(), Options::PowerOn, 2)
}

/// The cartridge on the board screen, a new game in `mode` (at EASY against the
/// engine), what the set-up queued copied.
pub(super) fn game(mode: Mode) -> Machine {
    game_at(mode, Level::Easy)
}

/// The cartridge on the board screen, a new game in `mode` at `level`, what the set-up
/// queued copied.
pub(super) fn game_at(mode: Mode, level: Level) -> Machine {
    new_game(&cartridge(), Options::Chosen(mode, level), 8)
}

/// The cartridge on the board screen of a game against the engine at `level`, the
/// human White, two frames after the last A, the game out of the book (see
/// [`leave_book`]): the engine searches from its first move on.
pub(super) fn board_at(level: Level) -> Machine {
    let mut machine = new_game(&cartridge(), Options::Chosen(Mode::White, level), 2);
    leave_book(&mut machine);
    machine
}

/// Takes the game out of the opening book once it has started (hGameLive set), as if
/// the book had had no move: the engine then searches every move, as it does once a
/// game has left the book (wInBook, asm/ui/game.asm).
pub(super) fn leave_book(machine: &mut Machine) {
    for _ in 0..30 {
        if machine.read_u8("hGameLive").unwrap() != 0 {
            machine.write_u8("wInBook", 0).unwrap();
            return;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("no game started within 30 frames");
}

/// A game against the engine at `level`, the human White, after the human's b2-b3, out
/// of the book ([`board_at`]): the engine's search has just begun.
pub(super) fn engine_thinking(level: Level) -> Machine {
    engine_thinking_after(level, "b2b3")
}

/// As [`engine_thinking`], the player's first move `uci`.
pub(super) fn engine_thinking_after(level: Level, uci: &str) -> Machine {
    let mut machine = board_at(level);
    play(&mut machine, &Position::start(), uci, false);
    for _ in 0..10 {
        if machine.read_u8("hSearching").unwrap() == 1 {
            return machine;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine's search did not start");
}

/// As [`engine_thinking`], but stopped at the first instruction of RunSearch, StartSearch
/// just done: however soon the search would end (EASY's can end within the frames a press
/// takes).
pub(super) fn engine_search_started(level: Level) -> Machine {
    let mut machine = board_at(level);
    choose_move(&mut machine, &Position::start(), "b2b3", false);
    machine.press(Button::A);
    let started = machine.run_until("RunSearch", 8 * CYCLES_PER_FRAME);
    machine.release(Button::A);
    started.unwrap();
    machine
}

/// A two-player game where White's pawn on b5 has been taken to a6, which promotes: the
/// promotion question is asked. Gives the position (before the promotion).
pub(super) fn promotion_question() -> (Machine, Position) {
    let mut machine = game(Mode::TwoPlayers);
    let mut position = Position::start();
    for uci in ["a2a3", "b5b4", "a3b4", "c5c4", "b4b5", "d5d4"] {
        position = play(&mut machine, &position, uci, false);
    }
    pick_up(&mut machine, square("b5"), false);
    steer(&mut machine, place(square("a6"), false), "b5a6");
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Promotion);
    (machine, position)
}

/// A new game between two players in which White has offered a draw (the pause menu's
/// OFFER DRAW): the question waits for Black's answer, its pointer (the glyph >) at NO.
pub(super) fn draw_offered() -> Machine {
    let mut machine = game(Mode::TwoPlayers);
    choose_menu_item(&mut machine, Button::Start, "MENU_OFFER_DRAW");
    assert_eq!(state(&machine), State::DrawAnswer);
    assert_text_at(
        &machine,
        0,
        message_row(&machine),
        "ACCEPT DRAW? YES>NO",
        20,
    );
    machine
}

// ----- pressing -----

/// One press: two frames down, then four frames for the screen to follow.
pub(super) fn press(machine: &mut Machine, button: Button) {
    machine.tap(button, 2).unwrap();
    machine.run_frames(4).unwrap();
}

/// The `PAD_*` bit of a button (asm/include/hardware.inc).
pub(super) fn pad_bit(machine: &Machine, button: Button) -> u8 {
    let name = match button {
        Button::A => "PAD_A",
        Button::B => "PAD_B",
        Button::Select => "PAD_SELECT",
        Button::Start => "PAD_START",
        Button::Right => "PAD_RIGHT",
        Button::Left => "PAD_LEFT",
        Button::Up => "PAD_UP",
        Button::Down => "PAD_DOWN",
    };
    constant(machine, name)
}

// ----- steering and playing -----

/// The position of a FEN, or a panic naming it.
pub(super) fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// Moves from UCI strings, played from `start`.
pub(super) fn moves(start: &Position, ucis: &[&str]) -> Vec<Move> {
    let mut position = *start;
    ucis.iter()
        .map(|uci| {
            let m = position.parse_uci(uci).unwrap();
            position = position.play(&m);
            m
        })
        .collect()
}

pub(super) fn square(name: &str) -> Square {
    Square::from_ascii(name.as_bytes()).unwrap_or_else(|| panic!("no square {name}"))
}

/// Where a square is on the screen, as (column, row) of squares from the top left.
pub(super) fn place(square: Square, black_bottom: bool) -> (u8, u8) {
    crate::soak::cartridge::place(square, black_bottom)
}

/// The selector's square as (column, row) from the top left.
pub(super) fn cursor(machine: &Machine) -> (u8, u8) {
    (
        machine.read_u8("wCursorColumn").unwrap(),
        machine.read_u8("wCursorRow").unwrap(),
    )
}

/// Presses the control pad towards `to` (along the longer way first, rows on a tie)
/// until the selector is there.
pub(super) fn steer(machine: &mut Machine, to: (u8, u8), what: &str) {
    for _ in 0..12 {
        let Some(button) = crate::soak::cartridge::steer_button(cursor(machine), to) else {
            return;
        };
        press(machine, button);
    }
    panic!(
        "the selector did not reach {to:?} for {what}: it is at {:?}",
        cursor(machine)
    );
}

/// Picks up the piece on `from` with the joypad.
pub(super) fn pick_up(machine: &mut Machine, from: Square, black_bottom: bool) {
    steer(
        machine,
        place(from, black_bottom),
        &format!("picking up on {from}"),
    );
    press(machine, Button::A);
}

/// Plays `uci` with the joypad (picking up, going to the square, A, the promotion's
/// piece) and returns the position after it, checking that it is legal.
pub(super) fn play(
    machine: &mut Machine,
    position: &Position,
    uci: &str,
    black_bottom: bool,
) -> Position {
    let m = choose_move(machine, position, uci, black_bottom);
    press(machine, Button::A);
    position.play(&m)
}

/// Everything of [`play`] but its last press of A (which plays the move): the piece
/// picked up, the selector on its square, and for a promotion the question's pointer
/// on the piece; gives the move, checked legal.
pub(super) fn choose_move(
    machine: &mut Machine,
    position: &Position,
    uci: &str,
    black_bottom: bool,
) -> Move {
    let m: Move = position
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
    assert!(
        position.is_legal(&m),
        "{uci} is not legal in {}",
        position.to_fen()
    );
    pick_up(machine, m.from, black_bottom);
    assert_eq!(
        state(machine),
        State::Picked,
        "{uci}: the piece was not picked up"
    );
    steer(machine, place(m.to, black_bottom), uci);
    if let Some(role) = m.promotion {
        press(machine, Button::A);
        assert_eq!(
            state(machine),
            State::Promotion,
            "{uci}: no promotion question"
        );
        // The question's pieces from the left, in the order of their promotion bits in
        // PromotionCodes (asm/ui/board_screen.asm).
        let codes = machine
            .read("PromotionCodes", Role::PROMOTIONS.len())
            .unwrap();
        let rights = codes
            .iter()
            .position(|&bits| bits == promotion_bits(role))
            .unwrap_or_else(|| panic!("PromotionCodes {codes:02X?} holds no {role:?}"));
        for _ in 0..rights {
            press(machine, Button::Right);
        }
    }
    m
}

/// Opens the pause menu with `opens` (START or SELECT), goes down to the item `item`
/// names (a `MENU_*` constant, the item's index in the list from RESUME at 0) and
/// chooses it with A.
pub(super) fn choose_menu_item(machine: &mut Machine, opens: Button, item: &str) {
    press(machine, opens);
    assert_eq!(state(machine), State::Menu, "{opens:?} opens no menu");
    for _ in 0..constant::<u32>(machine, item) {
        press(machine, Button::Down);
    }
    press(machine, Button::A);
}

/// The player to move resigns through the pause menu, opened with `opens` (START or
/// SELECT); the game is over.
pub(super) fn resign(machine: &mut Machine, opens: Button) {
    choose_menu_item(machine, opens, "MENU_RESIGN");
    machine.run_frames(4).unwrap();
    assert_eq!(state(machine), State::Over, "no resignation");
}

/// Runs frames until a player is to move (the engine has moved); the frames it took.
pub(super) fn wait_for_human(machine: &mut Machine) -> u32 {
    for frame in 0..3000 {
        if state(machine) == State::Human {
            return frame;
        }
        machine.run_frames(1).unwrap();
    }
    panic!("the engine did not move within 3,000 frames");
}

// ----- the board -----

/// The engine's square of a model square and the engine's piece code of a model piece:
/// [`crate::soak::cartridge`]'s.
pub(super) use crate::soak::cartridge::{engine_square, piece_code};

/// The model square of an engine square (the low byte of its cell in wBoard); panics on
/// a cell off the board.
pub(super) fn model_square(engine: u8) -> Square {
    crate::soak::cartridge::model_square(engine)
        .unwrap_or_else(|| panic!("${engine:02X} is no engine square"))
}

/// The promotion bits of a move's to byte (asm/engine/engine.inc's PROMOTE_*).
pub(super) fn promotion_bits(role: Role) -> u8 {
    match role {
        Role::Rook => 0b0000_1000,
        Role::Bishop => 0b1000_0000,
        Role::Knight => 0b1000_1000,
        _ => 0,
    }
}

/// wBoard and the side to move are `position`'s ([`crate::soak::cartridge::check_board`]).
pub(super) fn assert_board_is(machine: &Machine, position: &Position, context: &str) {
    crate::soak::cartridge::check_board(machine, position)
        .unwrap_or_else(|error| panic!("{context}: {error:#}"));
}

// ----- the screen -----

/// The `width` x `height` pixels of the screen at (`left`, `top`), as a sheet.
pub(super) fn screen_area(
    machine: &Machine,
    left: usize,
    top: usize,
    width: usize,
    height: usize,
) -> Sheet {
    let screen = machine.screen();
    let mut area = Sheet::filled("the screen", width, height, None);
    for y in 0..height {
        for x in 0..width {
            area.set(x, y, Some(screen[(top + y) * WIDTH + left + x]));
        }
    }
    area
}

/// `text` in the font of assets/font.png, one 8x8 glyph per character.
pub(super) fn text_picture(art: &gfx::Art, text: &str) -> Sheet {
    let mut picture = Sheet::filled("text", text.len() * 8, 8, None);
    for (i, ch) in text.chars().enumerate() {
        let glyph = art
            .glyph(ch)
            .unwrap_or_else(|| panic!("no glyph for {ch:?}"));
        for y in 0..8 {
            for x in 0..8 {
                picture.set(i * 8 + x, y, glyph.at(x, y));
            }
        }
    }
    picture
}

pub(super) fn art() -> gfx::Art {
    gfx::read_art().unwrap_or_else(|error| panic!("{error:#}"))
}

/// The board's top-left pixel and a square's side in pixels (asm/include/layout.inc).
pub(super) fn board_geometry(machine: &Machine) -> (usize, usize, usize) {
    let tile = 8;
    (
        tile * constant::<usize>(machine, "BOARD_TILE_X"),
        tile * constant::<usize>(machine, "BOARD_TILE_Y"),
        tile * constant::<usize>(machine, "SQUARE_TILES"),
    )
}

/// The pixels of the square at (column, row) of squares from the board's top left.
pub(super) fn square_area(machine: &Machine, column: usize, row: usize) -> Sheet {
    let (left, top, side) = board_geometry(machine);
    screen_area(machine, left + column * side, top + row * side, side, side)
}

/// The text on a row of the screen, `columns` tiles from column `left`: each tile read as
/// the font's glyph it shows (`~` for a tile that is none), trailing blanks dropped.
pub(super) fn screen_text(machine: &Machine, left: usize, row: usize, columns: usize) -> String {
    let art = art();
    let glyphs: Vec<char> = FONT_GLYPHS.concat().chars().collect();
    let text: String = (left..left + columns)
        .map(|column| {
            let tile = screen_area(machine, column * 8, row * 8, 8, 8);
            glyphs
                .iter()
                .copied()
                .find(|&ch| text_picture(&art, &ch.to_string()).pixels == tile.pixels)
                .unwrap_or('~')
        })
        .collect();
    text.trim_end().to_owned()
}

/// The text on a row of the screen, `columns` wide from column `left`, is `text`
/// (then blanks).
pub(super) fn assert_text_at(
    machine: &Machine,
    left: usize,
    row: usize,
    text: &str,
    columns: usize,
) {
    assert_eq!(
        screen_text(machine, left, row, columns),
        text,
        "the text on row {row} from column {left}"
    );
}

/// The text of `len` tiles of tile map 0 from column `x`, row `y`
/// ([`crate::soak::cartridge::tile_text`]).
pub(super) fn tile_text(machine: &Machine, x: u16, y: u16, len: usize) -> String {
    crate::soak::cartridge::tile_text(machine, x, y, len).unwrap_or_else(|e| panic!("{e:#}"))
}

/// The status line's four rows read `rows` (asm/include/layout.inc's STATUS_*).
pub(super) fn assert_status(machine: &Machine, rows: [&str; 4]) {
    let (left, top, width): (usize, usize, usize) = (
        constant(machine, "STATUS_X"),
        constant(machine, "STATUS_Y"),
        constant(machine, "STATUS_WIDTH"),
    );
    for (i, text) in rows.iter().enumerate() {
        assert_text_at(machine, left, top + i, text, width);
    }
}

/// The screen row of the pause menu's item `item` (the window's row `item` from
/// MENU_Y), and the menu's item column.
pub(super) fn menu_row(machine: &Machine, item: usize) -> usize {
    constant::<usize>(machine, "MENU_Y") + item
}

pub(super) fn menu_item_x(machine: &Machine) -> usize {
    constant(machine, "MENU_ITEM_X")
}

/// The screen row of the pause menu's messages (a declined draw, the question).
pub(super) fn message_row(machine: &Machine) -> usize {
    menu_row(machine, constant(machine, "MESSAGE_ROW"))
}

/// The window shows (LCDC's window bit).
pub(super) fn window_shown(machine: &Machine) -> bool {
    let lcdc = machine.read_u8(constant::<u16>(machine, "rLCDC")).unwrap();
    lcdc & constant::<u8>(machine, "LCDC_WIN_ON") != 0
}

/// The pointer object's (POINTER_OBJ: the menu's arrow, the thinking sign) Y and X in
/// wShadowOAM.
pub(super) fn pointer_oam(machine: &Machine) -> (u8, u8) {
    let entry = constant::<usize>(machine, "POINTER_OBJ") * constant::<usize>(machine, "OBJ_SIZE");
    let oam = machine.read("wShadowOAM", entry + 2).unwrap();
    (
        oam[entry + constant::<usize>(machine, "OAMA_Y")],
        oam[entry + constant::<usize>(machine, "OAMA_X")],
    )
}

/// The OAM (Y, X) of an object at the screen's tile (column, row).
pub(super) fn oam_at(machine: &Machine, column: usize, row: usize) -> (u8, u8) {
    let y = constant::<usize>(machine, "OAM_Y_OFS") + 8 * row;
    let x = constant::<usize>(machine, "OAM_X_OFS") + 8 * column;
    (y as u8, x as u8)
}

/// The pointer object's place as (tile column, tile row) on the screen, None when it is
/// hidden.
pub(super) fn pointer(machine: &Machine) -> Option<(usize, usize)> {
    let (y, x) = pointer_oam(machine);
    let y_ofs: usize = constant(machine, "OAM_Y_OFS");
    let x_ofs: usize = constant(machine, "OAM_X_OFS");
    (y != 0).then(|| ((usize::from(x) - x_ofs) / 8, (usize::from(y) - y_ofs) / 8))
}

/// The set-up routine of the screen the main loop shows, by its label (found through
/// `wCurrentScreen` and `ScreenTable`, so that the screens' numbers do not matter).
pub(super) fn current_screen(machine: &Machine) -> String {
    let index = machine.read_u8("wCurrentScreen").unwrap();
    let table = machine.symbol("ScreenTable").unwrap();
    let set_up = machine.read_u16(table + 4 * u16::from(index)).unwrap();
    for name in [
        "SetUpTitleScreen",
        "SetUpModePage",
        "SetUpLevelPage",
        "SetUpBoardScreen",
        "SetUpColourPage",
    ] {
        if machine.symbol(name).unwrap() == set_up {
            return name.to_owned();
        }
    }
    format!("the screen at ${set_up:04X}")
}

// ----- the option pages -----

/// The page's heading, items and hint as the tile map shows them, and where the arrow
/// is: the item it points at (the only `>` in the arrow's column) and `wOptionsArrow`.
fn page(machine: &Machine, items: usize) -> (String, Vec<String>, String, usize) {
    let [heading_y, item_x, arrow_x, item_y, item_rows, hint_y]: [u16; 6] = [
        "PAGE_HEADING_Y",
        "PAGE_ITEM_X",
        "PAGE_ARROW_X",
        "PAGE_ITEM_Y",
        "PAGE_ITEM_ROWS",
        "PAGE_HINT_Y",
    ]
    .map(|name| constant(machine, name));
    let row = |i: usize| item_y + item_rows * i as u16;
    let heading = tile_text(machine, 0, heading_y, 20).trim().to_owned();
    let texts = (0..items)
        .map(|i| tile_text(machine, item_x, row(i), 15).trim().to_owned())
        .collect();
    let hint = tile_text(machine, 0, hint_y, 20).trim().to_owned();
    let arrows: Vec<usize> = (0..items)
        .filter(|&i| tile_text(machine, arrow_x, row(i), 2) == "> ")
        .collect();
    let blanks = (0..items)
        .filter(|&i| tile_text(machine, arrow_x, row(i), 2) == "  ")
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

/// The play-as page is shown, whole; gives the item its arrow is at.
pub(super) fn mode_page(machine: &Machine) -> usize {
    option_page(machine, "SetUpModePage", "PLAY AS", &MODES)
}

/// The level page is shown, whole; gives the item its arrow is at.
pub(super) fn level_page(machine: &Machine) -> usize {
    option_page(machine, "SetUpLevelPage", "LEVEL", &LEVELS)
}

/// The option page set up by `set_up` is shown, whole, with its heading and items; gives
/// the item its arrow is at.
fn option_page(machine: &Machine, set_up: &str, heading: &str, items: &[&str]) -> usize {
    assert_eq!(current_screen(machine), set_up);
    let (shown_heading, shown_items, hint, arrow) = page(machine, items.len());
    assert_eq!(
        (shown_heading.as_str(), hint.as_str()),
        (heading, "A:CHOOSE  B:BACK")
    );
    assert_eq!(shown_items, items);
    arrow
}

// ----- the move list -----

/// The moves the move list holds ([`crate::soak::cartridge::records`]).
pub(super) fn records(machine: &Machine) -> Vec<[u8; 4]> {
    crate::soak::cartridge::records(machine).unwrap_or_else(|e| panic!("{e:#}"))
}

/// A move's record as the game hands it to AppendMoveToList: from square, to byte (with
/// the promotion bits), the moving piece's code, MOVE_FLAG_*.
pub(super) fn record(machine: &Machine, position: &Position, m: &Move) -> [u8; 4] {
    let promotion_bits = m.promotion.map_or(0, promotion_bits);
    let after = position.play(m);
    let flag = |set: bool, name: &str| if set { flags(machine, &[name]) } else { 0 };
    let flags = flag(m.is_capture(), "CAPTURE")
        | flag(m.is_promotion(), "PROMOTION")
        | flag(m.kind == MoveKind::Castle, "CASTLE")
        | flag(m.kind == MoveKind::EnPassant, "EN_PASSANT")
        | flag(after.is_check(), "CHECK")
        | flag(after.is_checkmate(), "MATE");
    [
        engine_square(m.from),
        engine_square(m.to) | promotion_bits,
        piece_code(Some(m.role.of(position.turn()))),
        flags,
    ]
}

/// The move list panel's place and size (asm/include/layout.inc): column, row, width,
/// height in tiles.
pub(super) fn move_list_panel_area(machine: &Machine) -> (u16, u16, usize, usize) {
    (
        constant(machine, "MOVE_LIST_X"),
        constant(machine, "MOVE_LIST_Y"),
        constant(machine, "MOVE_LIST_WIDTH"),
        constant(machine, "MOVE_LIST_HEIGHT"),
    )
}

/// The list's rows for `entries`: an entry as one row when it fits the panel's `width`,
/// else its number with its dots on one row and the move on the next.
pub(super) fn rows(machine: &Machine, entries: &[String]) -> Vec<String> {
    let (_, _, width, _) = move_list_panel_area(machine);
    let mut rows = Vec::new();
    for entry in entries {
        if entry.len() <= width {
            rows.push(entry.clone());
        } else {
            let split = entry
                .find(|c: char| !c.is_ascii_digit() && c != '.')
                .unwrap();
            rows.push(entry[..split].to_owned());
            rows.push(entry[split..].to_owned());
        }
    }
    rows
}

/// What the panel should show from the list's row `top`: MOVE_LIST_HEIGHT rows, blank
/// past the list's end, each padded with blanks to the panel's width.
pub(super) fn view(machine: &Machine, rows: &[String], top: usize) -> Vec<String> {
    let (_, _, width, height) = move_list_panel_area(machine);
    (top..top + height)
        .map(|i| format!("{:<width$}", rows.get(i).map_or("", |row| row)))
        .collect()
}

/// The row of the list the panel shows from (its bottom `MOVE_LIST_HEIGHT` rows at the
/// end of a game).
pub(super) fn bottom_top(machine: &Machine, rows: &[String]) -> usize {
    let (_, _, _, height) = move_list_panel_area(machine);
    rows.len().saturating_sub(height)
}

/// The panel as the tile map shows it, once the VRAM queue has copied everything.
pub(super) fn move_list_panel(machine: &mut Machine) -> Vec<String> {
    drain(machine, 8);
    let (x, y, width, height) = move_list_panel_area(machine);
    (0..height as u16)
        .map(|row| tile_text(machine, x, y + row, width))
        .collect()
}

/// The list's row at the panel's top (`wMoveListTop`).
pub(super) fn move_list_top(machine: &Machine) -> usize {
    usize::from(machine.read_u16("wMoveListTop").unwrap())
}

/// Runs to the main loop's point between two screen updates. An update that fills the
/// VRAM queue waits for room there, a VBlank's worth a frame: up to 16 frames.
pub(super) fn between_updates(machine: &mut Machine) {
    machine
        .run_until("RunScreens.frame", 16 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{error:#}"));
}

// ----- the clocks -----

/// The seconds left on `side`'s clock ([`crate::soak::cartridge::clock_seconds`]).
pub(super) fn clock_seconds(machine: &Machine, side: Color) -> u16 {
    crate::soak::cartridge::clock_seconds(machine, side).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Sets the seconds left on `side`'s clock.
pub(super) fn set_clock_seconds(machine: &mut Machine, side: Color, seconds: u16) {
    crate::soak::cartridge::set_clock_seconds(machine, side, seconds)
        .unwrap_or_else(|e| panic!("{e:#}"));
}

/// Which clock of the panel (asm/include/layout.inc's CLOCK_TOP_Y, CLOCK_BOTTOM_Y).
#[derive(Clone, Copy, Debug)]
pub(super) enum ClockRow {
    Top,
    Bottom,
}

/// The clock's row and the panel's column and width it takes.
pub(super) fn clock_place(machine: &Machine, row: ClockRow) -> (u16, u16, usize) {
    let y = match row {
        ClockRow::Top => constant(machine, "CLOCK_TOP_Y"),
        ClockRow::Bottom => constant(machine, "CLOCK_BOTTOM_Y"),
    };
    (
        constant(machine, "CLOCK_X"),
        y,
        constant(machine, "CLOCK_WIDTH"),
    )
}

/// The text of a clock as the tile map holds it, m:ss in its first 5 tiles.
pub(super) fn clock_text(machine: &Machine, row: ClockRow) -> String {
    let (x, y, _) = clock_place(machine, row);
    tile_text(machine, x, y, 5)
}

/// Sets White's clock running with one second left, a frame's cycles short of it: the
/// next VBlank's TickClocks takes its longest way, the second passing and the flag
/// falling (asm/ui/clock.asm).
pub(super) fn white_flag_falls_at_next_vblank(machine: &mut Machine) {
    let cycles = (CYCLES_PER_SECOND - CYCLES_PER_FRAME).to_le_bytes();
    machine.write("wClockCycles", &cycles[..3]).unwrap();
    set_clock_seconds(machine, Color::White, 1);
    let white = color_value(machine, Color::White);
    machine.write_u8("wClockSide", white).unwrap();
}

// ----- the VRAM queue (asm/home/vblank.asm) -----

/// Calls one of the queue's routines with `a`, `c`, `de` and `hl` set, interrupts taken
/// as they come.
pub(super) fn call_producer(machine: &mut Machine, routine: &str, a: u8, c: u8, de: u16, hl: u16) {
    let registers = machine.registers();
    machine.set_registers(&Registers {
        af: u16::from(a) << 8,
        bc: u16::from(c),
        de,
        hl,
        ..registers
    });
    machine
        .call(routine, 20 * CYCLES_PER_FRAME)
        .unwrap_or_else(|error| panic!("{routine}: {error:#}"));
}

/// The bytes queued and not yet copied ([`crate::soak::cartridge::queued_bytes`]).
pub(super) fn queued_bytes(machine: &Machine) -> usize {
    crate::soak::cartridge::queued_bytes(machine).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Runs frames until the queue is empty, at most `frames`
/// ([`crate::soak::cartridge::drain_vram_queue`]).
pub(super) fn drain(machine: &mut Machine, frames: u32) {
    crate::soak::cartridge::drain_vram_queue(machine, frames).unwrap_or_else(|e| panic!("{e:#}"));
}
