//! The game on the board screen, played through the joypad: picking up a piece and its
//! outlined destinations, moves (castling, en passant, promotion) against the reference
//! model's position, putting a piece back, the board turned round for Black, the pause
//! menu and the endings' words.

use engine_src::search::{clock_level_frames, Level as ModelLevel, MAX_SEARCH_DEPTH};
use engine_src::{Color, Game, Piece, Position, Role, Square};

use super::support::{
    art, assert_board_is, assert_status, assert_text_at, board_at, bottom_top, clock_place,
    clock_seconds, color_value, constant, draw_offered, ending, engine_search_started,
    engine_square, engine_thinking, engine_thinking_after, flags, game, menu_item_x, menu_row,
    message_row, model_square, move_list_panel, oam_at, pick_up, piece_code, place, play,
    pointer_oam, press, promotion_bits, promotion_question, records, resign, rows, screen_area,
    screen_text, set_clock_seconds, square, square_area, state, text_picture, view, wait_for_human,
    window_shown, winner, ClockRow, Ending, Level, Mode, State,
};
use crate::assets::gfx;
use crate::harness::{Button, Machine};
use crate::soak::cartridge::cell_content;

/// The screen shows `position`'s pieces, `outlined` squares outlined (the selector and the
/// marks are left out: only squares without them are compared).
fn assert_screen_shows(
    machine: &Machine,
    position: &Position,
    outlined: &[Square],
    black_bottom: bool,
    skip: &[Square],
) {
    let art = art();
    for sq in Square::ALL {
        if skip.contains(&sq) {
            continue;
        }
        let content = cell_content(position.board().piece_at(sq));
        let dark = (sq.file().index() + sq.rank().index()).is_multiple_of(2);
        let want = gfx::cell_picture(
            &art.pieces,
            &art.board,
            content,
            usize::from(dark),
            outlined.contains(&sq),
        );
        let (column, row) = place(sq, black_bottom);
        let shown = square_area(machine, usize::from(column), usize::from(row));
        assert!(
            shown.pixels == want.pixels,
            "{sq} does not show content {content}{}",
            if outlined.contains(&sq) {
                ", outlined"
            } else {
                ""
            }
        );
    }
}

#[test]
fn the_board_screen_starts_with_white_to_move_and_the_start_position() {
    let machine = game(Mode::TwoPlayers);
    let start = Position::start();
    assert_board_is(&machine, &start, "a new game");
    assert_eq!(state(&machine), State::Human);
    assert_screen_shows(&machine, &start, &[], false, &[square("a1")]);
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_picks_up_a_knight_and_outlines_its_two_squares_and_b_puts_it_back() {
    let mut machine = game(Mode::TwoPlayers);
    let start = Position::start();
    pick_up(&mut machine, square("b1"), false);
    assert_eq!(state(&machine), State::Picked);
    assert_eq!(
        machine.read_u8("wPickedSquare").unwrap(),
        engine_square(square("b1"))
    );
    let mut outlines = machine.read("wOutlines", 2).unwrap();
    outlines.sort();
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 2);
    assert_eq!(
        outlines,
        [engine_square(square("a3")), engine_square(square("c3"))]
    );
    let skip = [square("b1")];
    assert_screen_shows(
        &machine,
        &start,
        &[square("a3"), square("c3")],
        false,
        &skip,
    );
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Human);
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0);
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0);
    assert_board_is(&machine, &start, "after B");
    assert_screen_shows(&machine, &start, &[], false, &skip);
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_piece_without_a_legal_move_is_not_picked_up_and_buzzes() {
    let mut machine = game(Mode::TwoPlayers);
    machine.start_apu_log();
    // The selector starts on a1: the rook there has no move.
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Human);
    assert_eq!(machine.read_u8("wOutlineCount").unwrap(), 0);
    assert_eq!(machine.read_u8("wPickedSquare").unwrap(), 0);
    // SFX_ERROR's first note: pulse 1 at 131 Hz, period 2048 - 131072 / 131 = 0x418,
    // its high bits with the trigger bit.
    let (nr13, nr14): (u16, u16) = (constant(&machine, "rNR13"), constant(&machine, "rNR14"));
    let writes = machine.take_apu_log();
    let low = writes.iter().any(|w| w.addr == nr13 && w.value == 0x18);
    let high = writes.iter().any(|w| w.addr == nr14 && w.value == 0x84);
    assert!(low && high, "no error sound on pulse 1");
    // An empty square does nothing either.
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    press(&mut machine, Button::A);
    assert_eq!(state(&machine), State::Human);
    assert_board_is(&machine, &Position::start(), "after the refusals");
    machine.assert_no_violations().unwrap();
}

#[test]
fn moves_through_the_joypad_play_as_the_model_with_en_passant_and_castling() {
    let mut machine = game(Mode::TwoPlayers);
    let mut position = Position::start();
    // White's pawn on b3 takes the c-pawn's double step en passant; then White clears
    // b1, c1, d1 and castles.
    let moves = [
        "b2b3", "c5c3", "b3c4", "a5a4", "b1a3", "e5e4", "c2c3", "d5d4", "c1b2", "b6c4", "d1c2",
        "c4a3", "e1c1",
    ];
    for uci in moves {
        position = play(&mut machine, &position, uci, false);
        machine.run_frames(4).unwrap();
        assert_board_is(&machine, &position, uci);
    }
    let records = records(&machine);
    assert_eq!(records.len(), moves.len());
    let entry = |from: &str, to: &str, piece: Piece, names: &[&str]| {
        [
            engine_square(square(from)),
            engine_square(square(to)),
            piece_code(Some(piece)),
            flags(&machine, names),
        ]
    };
    // b3xc4 en passant: a White pawn from b3 to c4, a capture.
    assert_eq!(
        records[2],
        entry(
            "b3",
            "c4",
            Role::Pawn.of(Color::White),
            &["CAPTURE", "EN_PASSANT"]
        )
    );
    // Nc4xa3: a Black knight takes on a3.
    assert_eq!(
        records[11],
        entry("c4", "a3", Role::Knight.of(Color::Black), &["CAPTURE"])
    );
    // The castle: the White king from e1 to c1.
    assert_eq!(
        records[12],
        entry("e1", "c1", Role::King.of(Color::White), &["CASTLE"])
    );
    // The last move's marks: e1 and c1.
    assert_eq!(
        machine.read_u8("wLastMoveFrom").unwrap(),
        engine_square(square("e1"))
    );
    assert_eq!(
        machine.read_u8("wLastMoveTo").unwrap(),
        engine_square(square("c1"))
    );
    let skip = [square("e1"), square("c1")];
    assert_screen_shows(&machine, &position, &[], false, &skip);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // The move list: White's entries take a row, Black's two (the number, then the
    // move): 7 + 2 * 6 = 19 rows, the last 11 in the panel.
    let start = Position::start();
    let played = super::support::moves(&start, &moves);
    let entries = engine_src::notation::format_move_list(&start, &played).unwrap();
    let rows = rows(&machine, &entries);
    assert_eq!(rows.len(), 19);
    assert_eq!(panel_on_screen(&machine), rows[8..]);
    // Black resigns (in a two-player game the side to move does); at the end the list
    // scrolls, within its ends.
    resign(&mut machine, Button::Start);
    assert_status(
        &machine,
        ["RESIGNED", "WHITE WINS", "B: TAKE BACK", "A: NEW GAME"],
    );
    for _ in 0..3 {
        press(&mut machine, Button::Up);
    }
    assert_eq!(machine.read_u16("wMoveListTop").unwrap(), 5);
    assert_eq!(panel_on_screen(&machine), rows[5..16]);
    for _ in 0..5 {
        press(&mut machine, Button::Down);
    }
    assert_eq!(
        machine.read_u16("wMoveListTop").unwrap(),
        8,
        "scrolled past the end"
    );
    assert_eq!(panel_on_screen(&machine), rows[8..]);
    machine.assert_no_violations().unwrap();
}

/// The move list's rows in the panel as the screen shows them (each tile read as the
/// font's glyph it shows, trailing blanks dropped).
fn panel_on_screen(machine: &Machine) -> Vec<String> {
    let (x, y, width, height) = super::support::move_list_panel_area(machine);
    (0..height)
        .map(|row| screen_text(machine, x.into(), usize::from(y) + row, width))
        .collect()
}

/// Each of the four pieces a pawn may become, chosen in the question with the joypad:
/// the board, the record and the move list's last entry are the model's.
#[test]
fn every_promotion_piece_is_chosen_through_the_joypad() {
    for (uci, entry) in [
        ("b5a6q", "Pb5xa6=Q"),
        ("b5a6r", "Pb5xa6=R"),
        ("b5a6b", "Pb5xa6=B"),
        ("b5a6n", "Pb5xa6=N"),
    ] {
        let mut machine = game(Mode::TwoPlayers);
        let mut model = Game::new(Position::start());
        for played in ["a2a3", "b5b4", "a3b4", "c5c4", "b4b5", "d5d4", uci] {
            let m = model.position().parse_uci(played).unwrap();
            play(&mut machine, model.position(), played, false);
            model.play(m).unwrap();
        }
        machine.run_frames(8).unwrap();
        assert_board_is(&machine, model.position(), uci);
        assert_eq!(records(&machine).len(), 7, "{uci}: the records");
        let rows = rows(&machine, &model.move_list().unwrap());
        assert_eq!(rows.last().map(String::as_str), Some(entry), "{uci}");
        let bottom = bottom_top(&machine, &rows);
        assert_eq!(
            move_list_panel(&mut machine),
            view(&machine, &rows, bottom),
            "{uci}: the move list"
        );
        assert_eq!(state(&machine), State::Human, "{uci}: Black is to move");
        machine.assert_no_violations().unwrap();
    }
}

#[test]
fn a_promotion_asks_which_piece_and_b_goes_back() {
    // b5xa6: the question, then B, then A again on a6 and the knight.
    let (mut machine, mut position) = promotion_question();
    // The pointer (the glyph >) is left of Q.
    let question = "PROMOTE TO:>Q R B N";
    let status_y: usize = constant(&machine, "STATUS_Y");
    assert_text_at(&machine, 0, status_y + 1, question, 20);
    // The pointer object is left of Q (column 11), on the status line's second row.
    let left_of_q = question.find('Q').unwrap() - 1;
    assert_eq!(
        pointer_oam(&machine),
        oam_at(&machine, left_of_q, status_y + 1)
    );
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Picked);
    assert_board_is(&machine, &position, "after B in the question");
    press(&mut machine, Button::A);
    for _ in 0..5 {
        press(&mut machine, Button::Right);
    }
    // Right stops at N (column 17).
    let left_of_n = question.find('N').unwrap() - 1;
    assert_eq!(
        pointer_oam(&machine).1,
        oam_at(&machine, left_of_n, status_y + 1).1
    );
    press(&mut machine, Button::A);
    let m = position.parse_uci("b5a6n").unwrap();
    position = position.play(&m);
    machine.run_frames(4).unwrap();
    assert_board_is(&machine, &position, "b5xa6=N");
    let last = *records(&machine).last().unwrap();
    // The to byte is a6 with the knight's promotion bits (%10001000).
    assert_eq!(
        last,
        [
            engine_square(square("b5")),
            engine_square(square("a6")) | promotion_bits(Role::Knight),
            piece_code(Some(Role::Pawn.of(Color::White))),
            flags(&machine, &["CAPTURE", "PROMOTION"])
        ]
    );
    assert_eq!(state(&machine), State::Human);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_board_turns_round_when_the_human_plays_black_and_the_engine_moves_first() {
    let mut machine = game(Mode::Black);
    wait_for_human(&mut machine);
    machine.run_frames(6).unwrap();
    assert_eq!(
        machine.read_u8("wBoardBottomColor").unwrap(),
        color_value(&machine, Color::Black)
    );
    // The engine (White) has played one move; the board is the model's after it.
    let first = records(&machine);
    assert_eq!(first.len(), 1, "the engine did not move first");
    let start = Position::start();
    let [from, to, _, _] = first[0];
    let uci = format!("{}{}", model_square(from), model_square(to));
    let position = start.play(&start.parse_uci(&uci).unwrap());
    assert_board_is(&machine, &position, &uci);
    assert_eq!(state(&machine), State::Human);
    // The selector is at the bottom left: e6.
    let skip = [model_square(from), model_square(to), square("e6")];
    assert_screen_shows(&machine, &position, &[], true, &skip);
    // The labels run the other way: rank 1 at the top, file e at the left.
    let art = art();
    let (board_left, board_top, side) = super::support::board_geometry(&machine);
    let rank_label_x: usize = constant(&machine, "RANK_LABEL_X");
    for (i, digit) in "123456".chars().enumerate() {
        let label = screen_area(&machine, rank_label_x * 8, board_top + i * side, 8, 8);
        assert_eq!(label.pixels, text_picture(&art, &digit.to_string()).pixels);
    }
    let file_label_y: usize = constant(&machine, "FILE_LABEL_Y");
    assert_text_at(&machine, board_left / 8, file_label_y, "e d c b a", 10);
    assert_status(&machine, ["BLACK TO MOVE", "", "", ""]);
    // Black's move through the joypad on the turned board, and the engine answers.
    play(&mut machine, &position, "e5e4", true);
    wait_for_human(&mut machine);
    machine.run_frames(6).unwrap();
    assert_eq!(records(&machine)[1][0], engine_square(square("e5")));
    assert_eq!(records(&machine).len(), 3, "the engine did not answer");
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_pause_menu_shows_its_items_and_turns_the_music_off() {
    let mut machine = game(Mode::White);
    press(&mut machine, Button::Start);
    assert_eq!(state(&machine), State::Menu);
    assert!(window_shown(&machine), "no window");
    let item_x = menu_item_x(&machine);
    for (i, item) in ["RESUME", "HINT", "SWITCH SIDES", "OFFER DRAW", "RESIGN"]
        .iter()
        .enumerate()
    {
        assert_text_at(&machine, item_x, menu_row(&machine, i), item, 16);
    }
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 1);
    // Down to MUSIC, the last item, on the last row once the list has scrolled.
    for _ in 0..6 {
        press(&mut machine, Button::Down);
    }
    press(&mut machine, Button::A);
    assert_eq!(machine.read_u8("wMusicEnabled").unwrap(), 0);
    assert_text_at(&machine, item_x, menu_row(&machine, 4), "MUSIC OFF", 11);
    // Offer a draw: the engine has no reason to take it.
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    press(&mut machine, Button::Up);
    assert_eq!(machine.read_u8("wMenuItem").unwrap(), 3, "at OFFER DRAW");
    press(&mut machine, Button::A);
    assert_text_at(&machine, 0, message_row(&machine), "DRAW DECLINED", 20);
    assert_eq!(state(&machine), State::Menu);
    // B resumes: the window goes, the game goes on.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Human);
    assert!(!window_shown(&machine), "the window stayed");
    assert_status(&machine, ["WHITE TO MOVE", "", "", ""]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn resigning_ends_the_game_in_words_and_a_starts_a_new_one() {
    let mut machine = game(Mode::White);
    resign(&mut machine, Button::Select);
    assert_eq!(ending(&machine), Some(Ending::Resigned));
    assert_eq!(winner(&machine), Some(Color::Black), "Black wins");
    assert_status(
        &machine,
        ["RESIGNED", "BLACK WINS", "B: TAKE BACK", "A: NEW GAME"],
    );
    assert!(!window_shown(&machine));
    // The board no longer takes moves; A leaves for a new game.
    press(&mut machine, Button::A);
    machine.run_frames(4).unwrap();
    assert_eq!(machine.read_u8("hGameLive").unwrap(), 0);
    assert_eq!(
        machine.read_u8("wCurrentScreen").unwrap(),
        constant::<u8>(&machine, "SCREEN_MODE_PAGE"),
        "A did not go to the option pages"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn two_players_agree_a_draw_when_the_other_says_yes() {
    let mut machine = draw_offered();
    // NO is chosen first; B is NO too.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Menu);
    press(&mut machine, Button::A);
    press(&mut machine, Button::Left);
    press(&mut machine, Button::A);
    machine.run_frames(4).unwrap();
    assert_eq!(state(&machine), State::Over);
    assert_eq!(ending(&machine), Some(Ending::Agreement));
    assert_status(
        &machine,
        ["DRAW BY AGREEMENT", "", "B: TAKE BACK", "A: NEW GAME"],
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_check_is_said_on_the_status_line_and_recorded() {
    let mut machine = game(Mode::TwoPlayers);
    let mut position = Position::start();
    // Pc2-c3 opens the queen's way to b3, Pd5-d4 the diagonal b3-e6.
    for uci in ["c2c3", "d5d4", "d1b3"] {
        position = play(&mut machine, &position, uci, false);
    }
    machine.run_frames(4).unwrap();
    assert!(position.is_check(), "the line gives no check");
    assert_board_is(&machine, &position, "Qd1-b3+");
    let check = flags(&machine, &["CHECK"]);
    assert_eq!(records(&machine)[2][3] & check, check);
    assert_status(&machine, ["BLACK TO MOVE", "CHECK", "", ""]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn start_during_the_engines_search_opens_the_menu_and_the_engine_thinks_again_after() {
    let mut machine = board_at(Level::Hard);
    let start = Position::start();
    // HARD's reply to c2c3 takes some 6 seconds (to b2b3's 2): long enough to watch.
    play(&mut machine, &start, "c2c3", false);
    // HARD thinks for seconds: meanwhile the screen lives. The thinking sign (the
    // pointer, a dot) moves, and Black's clock runs and is drawn.
    machine.run_frames(20).unwrap();
    assert_eq!(
        machine.read_u8("hSearching").unwrap(),
        1,
        "no search running"
    );
    let status_y: usize = constant(&machine, "STATUS_Y");
    assert_text_at(&machine, 0, status_y, "BLACK THINKING", 14);
    let mut xs = Vec::new();
    for _ in 0..4 {
        let (y, x) = pointer_oam(&machine);
        assert_eq!(
            y,
            oam_at(&machine, 0, status_y).0,
            "the sign is not on the status line"
        );
        xs.push(x);
        machine.run_frames(8).unwrap();
    }
    xs.sort();
    xs.dedup();
    assert!(xs.len() >= 3, "the thinking sign does not move: {xs:?}");
    machine.run_frames(60).unwrap();
    let full: u16 = constant(&machine, "CLOCK_START_SECONDS");
    assert_eq!(
        clock_seconds(&machine, Color::White),
        full,
        "White's clock ran"
    );
    assert_eq!(clock_seconds(&machine, Color::Black), full - 1);
    // Black's clock at the top of the panel, drawn during the search; White's under it.
    for (row, text) in [(ClockRow::Top, " 9:59"), (ClockRow::Bottom, "10:00")] {
        let (x, y, width) = clock_place(&machine, row);
        assert_text_at(&machine, x.into(), y.into(), text, width);
    }
    // START: the search stops at once, the menu opens, the move found is dropped.
    machine.tap(Button::Start, 2).unwrap();
    machine.run_frames(2).unwrap();
    assert_eq!(state(&machine), State::Menu);
    assert_eq!(machine.read_u8("hSearching").unwrap(), 0);
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        constant::<u8>(&machine, "CLOCK_STOPPED"),
        "a clock runs in the menu"
    );
    // B: the engine thinks again, and moves.
    press(&mut machine, Button::B);
    assert_eq!(state(&machine), State::Engine);
    wait_for_human(&mut machine);
    assert_eq!(records(&machine).len(), 2, "the engine did not move");
    machine.assert_no_violations().unwrap();
}

#[test]
fn checkmate_ends_the_game_in_words_with_the_winner() {
    let mut machine = game(Mode::TwoPlayers);
    let mut position = Position::start();
    // The shortest mate from the start (found with the model): Qb3xe3#.
    for uci in ["c2c4", "e5e3", "d1b3", "e6e5", "b3e3"] {
        position = play(&mut machine, &position, uci, false);
    }
    machine.run_frames(6).unwrap();
    assert!(position.is_checkmate());
    assert_board_is(&machine, &position, "Qb3xe3#");
    assert_eq!(state(&machine), State::Over);
    assert_eq!(ending(&machine), Some(Ending::Checkmate));
    assert_eq!(winner(&machine), Some(Color::White), "White wins");
    assert_eq!(
        records(&machine)[4][3],
        flags(&machine, &["CAPTURE", "CHECK", "MATE"])
    );
    assert_status(
        &machine,
        ["CHECKMATE", "WHITE WINS", "B: TAKE BACK", "A: NEW GAME"],
    );
    // The game has ended: the selector is gone and A picks nothing up.
    assert_eq!(
        machine.read_u8("wShadowOAM").unwrap(),
        0,
        "the selector shows"
    );
    assert_eq!(
        machine.read_u8("wClockSide").unwrap(),
        constant::<u8>(&machine, "CLOCK_STOPPED"),
        "a clock runs"
    );
    machine.assert_no_violations().unwrap();
}

#[test]
fn a_flag_falling_during_the_search_ends_the_game_on_time_at_once() {
    let mut machine = engine_thinking_after(Level::Hard, "c2c3");
    // Black's clock (the engine's) down to 2 seconds: it falls within 2 seconds, long
    // before HARD's search would end (some 6 seconds here).
    set_clock_seconds(&mut machine, Color::Black, 2);
    machine.run_frames(2 * 60 + 10).unwrap();
    assert_eq!(
        machine.read_u8("wFlagFell").unwrap(),
        constant::<u8>(&machine, "FLAG_FELL_BLACK"),
        "Black's flag"
    );
    assert_eq!(state(&machine), State::Over);
    assert_eq!(ending(&machine), Some(Ending::Time));
    assert_eq!(winner(&machine), Some(Color::White), "White wins");
    assert_eq!(records(&machine).len(), 1, "the engine moved");
    assert_status(&machine, ["TIME", "WHITE WINS", "", "A: NEW GAME"]);
    machine.assert_no_violations().unwrap();
}

#[test]
fn the_clock_level_thinks_a_share_of_its_time_and_deepens_up_to_the_deepest_search() {
    let mut machine = engine_thinking(Level::Clock);
    assert_eq!(machine.read_u8("wSearchDepth").unwrap(), MAX_SEARCH_DEPTH);
    assert_eq!(
        machine.read_u8("wSearchReduceDepth").unwrap(),
        engine_src::search::LMR_DEPTH
    );
    // 600 seconds left: the model's share of them (1,830 frames today), less the VBlanks
    // since the search began (within the 4 frames play() runs after A).
    let share = clock_level_frames(600);
    let left = machine.read_u16("wThinkFramesLeft").unwrap();
    assert!(
        (share - 4..=share).contains(&left),
        "{left} frames left to think, of {share}"
    );
    machine.run_frames(10).unwrap();
    assert_eq!(machine.read_u16("wThinkFramesLeft").unwrap(), left - 10);
    // EASY's deadline is its time guard's cap; its quiescence search looks at checks.
    let machine = engine_search_started(Level::Easy);
    assert_level_search(&machine, ModelLevel::Easy);
    let cap = ModelLevel::Easy.cap_frames();
    let left = machine.read_u16("wThinkFramesLeft").unwrap();
    assert!(
        (cap - 4..=cap).contains(&left),
        "{left} frames left, of {cap}"
    );
    // MEDIUM reduces its late moves from depth 2, the others from LMR_DEPTH.
    let machine = engine_search_started(Level::Medium);
    assert_level_search(&machine, ModelLevel::Medium);
    assert_eq!(ModelLevel::Medium.reduce_depth(), 2);
}

/// The search the cartridge started is the model level's: its depth, the plies whose
/// quiescence nodes look at checks, and the least depth that reduces late moves.
fn assert_level_search(machine: &Machine, level: ModelLevel) {
    assert_eq!(
        [
            machine.read_u8("wSearchDepth").unwrap(),
            machine.read_u8("wSearchCheckPlies").unwrap(),
            machine.read_u8("wSearchReduceDepth").unwrap(),
        ],
        [level.depth(), level.check_plies(), level.reduce_depth()],
        "{level}: the depth, the checks' plies and the reductions' depth"
    );
}

#[test]
fn the_engine_accepts_a_draw_only_when_its_search_and_its_evaluation_find_it_worse() {
    // (wEngineScore: the last search's score, the engine's view; hWhiteScore: White's
    // evaluation) for an engine playing Black, and whether it takes the draw.
    for (search, white, accepts) in [
        (-50i16, 50i16, true),
        (-50, -50, false),
        (50, 50, false),
        (-50, 0, false),
    ] {
        let mut machine = game(Mode::White);
        press(&mut machine, Button::Start);
        machine
            .write("wEngineScore", &search.to_le_bytes())
            .unwrap();
        machine.write("hWhiteScore", &white.to_le_bytes()).unwrap();
        for _ in 0..constant::<u32>(&machine, "MENU_OFFER_DRAW") {
            press(&mut machine, Button::Down);
        }
        press(&mut machine, Button::A);
        machine.run_frames(4).unwrap();
        let case = format!("search {search}, White's evaluation {white}");
        if accepts {
            assert_eq!(state(&machine), State::Over, "{case}");
            assert_eq!(ending(&machine), Some(Ending::Agreement));
            assert_status(
                &machine,
                ["DRAW BY AGREEMENT", "", "B: TAKE BACK", "A: NEW GAME"],
            );
        } else {
            assert_eq!(state(&machine), State::Menu, "{case}");
            assert_text_at(&machine, 0, message_row(&machine), "DRAW DECLINED", 20);
        }
        machine.assert_no_violations().unwrap();
    }
}

/// asm/ui/game.asm assembled as it is, and with one of its status texts' rows grown to 21
/// characters: QueuePaddedTiles pads a row to the line's 20 columns and has no room for
/// more, so the build must stop, naming the row.
#[test]
fn a_status_row_wider_than_the_status_line_fails_the_build_naming_it() {
    let root = crate::project::root();
    let path = "asm/ui/game.asm";
    let source = std::fs::read_to_string(root.join(path)).unwrap();
    let include_dirs = crate::rom::include_dirs(&root);
    let assemble = |text: &str| crate::asm::frontend::assemble_source(path, text, &include_dirs);
    assert!(
        assemble(&source).is_ok(),
        "game.asm as it is does not assemble"
    );
    for (row, wider, message) in [
        (
            "\"DRAW BY INSUFFICIENT\"",
            "\"DRAW BY INSUFFICIENTS\"",
            "the status row \"DRAW BY INSUFFICIENTS\", with 0 characters before it, is wider than the status line (STATUS_WIDTH characters)",
        ),
        (
            "\"MATERIAL\"",
            "\"MATERIAL ON THE BOARD\"",
            "the status row \"MATERIAL ON THE BOARD\" is wider than the status line (STATUS_WIDTH characters)",
        ),
        // WHITE or BLACK before it: 5 + 16 characters.
        (
            "\" THINKING\"",
            "\" THINKING HARDER\"",
            "the status row \" THINKING HARDER\", with longest_side_name characters before it, is wider than the status line (STATUS_WIDTH characters)",
        ),
    ] {
        assert_eq!(source.matches(row).count(), 1, "{row} is not once in {path}");
        let errors = match assemble(&source.replace(row, wider)) {
            Ok(_) => panic!("{path} with {wider} assembles"),
            Err(errors) => errors,
        };
        let found: Vec<String> = errors.errors().map(|e| e.message.clone()).collect();
        assert_eq!(found, [format!("Assertion failed: {message}")], "{wider}");
    }
}
