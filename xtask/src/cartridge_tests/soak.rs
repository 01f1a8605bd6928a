//! Ten emulated minutes of seeded random presses from power-on, weighted so that pieces
//! get picked up and played: the title, the option pages and their levels, new games,
//! the pause menu and endings get visited (the figures at the end say how often), and
//! through all of it the CPU stays in the game's code, the stack in its area, and every
//! move the move list records is a legal move of the reference model's game, whose
//! board wBoard then holds.

use engine_src::{Game, Move, MoveKind, Position, Role};

use super::game::{
    assert_board_is, engine_square, piece_code, records, GAME_MODE_TWO_PLAYERS, MOVE_FLAG_CAPTURE,
    MOVE_FLAG_CASTLE, MOVE_FLAG_CHECK, MOVE_FLAG_EN_PASSANT, MOVE_FLAG_MATE, MOVE_FLAG_PROMOTION,
    SCREEN_BOARD, STATE_HUMAN, STATE_MENU, STATE_OVER, STATE_PICKED, STATE_PROMOTION,
};
use super::{cartridge, machine};
use crate::harness::{Button, Machine};
use crate::random::SplitMix64;

/// The seed of the presses: another seed is another run (and other figures below).
const SEED: u64 = 0x50AC;

/// Ten minutes at the DMG's 59.7275 frames a second are 35,836.5 frames: 36,000 is
/// ten minutes and a bit.
const FRAMES: u64 = 36_000;

/// On the board, every button with its weight: mostly A and the control pad, which pick
/// pieces up and play them (a piece picked up, any direction goes to one of its squares
/// and A plays there), so that games run long; B (which puts a piece back) rarely, and
/// START and SELECT (the pause menu, where A may resign or start a new game) rarer
/// still, but often enough that the menu, new games and the option pages keep being
/// visited.
const BOARD_BUTTONS: [(Button, usize); 8] = [
    (Button::A, 150),
    (Button::Right, 75),
    (Button::Left, 75),
    (Button::Up, 75),
    (Button::Down, 75),
    (Button::B, 15),
    (Button::Start, 1),
    (Button::Select, 1),
];

/// With a piece picked up: while the selector is on the piece (where A would put it
/// back), no A; once the control pad has taken it to one of the piece's squares,
/// mostly A, which plays the move there.
const PICKED_BUTTONS: [(Button, usize); 7] = [
    (Button::Right, 25),
    (Button::Left, 25),
    (Button::Up, 25),
    (Button::Down, 25),
    (Button::B, 5),
    (Button::Start, 1),
    (Button::Select, 1),
];
const AIMED_BUTTONS: [(Button, usize); 6] = [
    (Button::A, 100),
    (Button::Right, 10),
    (Button::Left, 10),
    (Button::Up, 10),
    (Button::Down, 10),
    (Button::B, 5),
];

/// On the title and the option pages: mostly A (go on), now and then a move of the
/// arrow, B or START. The pages open at the mode and level played last, so a game is
/// mostly at the level of the one before: EASY at first, whose turns take the engine a
/// second at most (CLOCK's take half a minute), and every mode and level now and then.
const PAGE_BUTTONS: [(Button, usize); 5] = [
    (Button::A, 8),
    (Button::Down, 1),
    (Button::Up, 1),
    (Button::B, 1),
    (Button::Start, 1),
];

/// A button drawn from `buttons` with their weights.
fn draw_button(rng: &mut SplitMix64, buttons: &[(Button, usize)]) -> Button {
    let total = buttons.iter().map(|&(_, weight)| weight).sum();
    let mut draw = rng.below(total);
    for &(button, weight) in buttons {
        if draw < weight {
            return button;
        }
        draw -= weight;
    }
    unreachable!("the draw is below the weights' sum")
}

/// The selector's square on the screen: (column, row).
fn selector(machine: &Machine) -> (u8, u8) {
    (
        machine.read_u8("wCursorColumn").unwrap(),
        machine.read_u8("wCursorRow").unwrap(),
    )
}

/// The promotion bits of a record's to byte (PROMOTE_MASK, asm/engine/engine.inc).
const PROMOTE_MASK: u8 = 0x88;

/// The OAM DMA routine's bytes at hOAMDMA (asm/home/oam_dma.asm).
const OAM_DMA_ROUTINE_SIZE: u16 = 8;

/// The SM83's `jp a16`.
const JP: u8 = 0xC3;

/// The most frames the VBlank handler may miss hFrameCounter's step (the LCD is off for
/// a few frames while a screen is set up).
const MAX_FRAMES_WITHOUT_VBLANK: u64 = 30;

/// What the run saw: new games (and at which level against the engine, how many by
/// two players), moves checked against the model, boards compared, pause menus
/// opened, promotion questions asked, endings reached (by `ENDING_*` - 1), and the
/// deepest the stack went.
#[derive(Debug, Default)]
struct Figures {
    games_started: u32,
    games_by_level: [u32; 4],
    two_player_games: u32,
    moves_checked: u32,
    boards_checked: u32,
    menus_opened: u32,
    promotion_questions: u32,
    endings: [u32; 8],
    deepest_stack: u16,
}

/// The model's move a record stands for, checked against the record's piece and flags;
/// panics, naming the frame, when the record is no legal move of `position`.
fn recorded_move(position: &Position, record: [u8; 4], frame: u64) -> Move {
    let [from, to_byte, piece, flags] = record;
    let to = to_byte & !PROMOTE_MASK;
    let promotion = (flags & MOVE_FLAG_PROMOTION != 0).then_some(match to_byte & PROMOTE_MASK {
        0x00 => Role::Queen,
        0x08 => Role::Rook,
        0x80 => Role::Bishop,
        _ => Role::Knight,
    });
    let legal = position.legal_moves();
    let m = *legal
        .iter()
        .find(|m| {
            engine_square(m.from) == from && engine_square(m.to) == to && m.promotion == promotion
        })
        .unwrap_or_else(|| {
            panic!(
                "frame {frame}: the record {record:02X?} is no legal move of {}",
                position.to_fen()
            )
        });
    let after = position.play(&m);
    let want_flags = [
        (m.capture.is_some(), MOVE_FLAG_CAPTURE),
        (m.promotion.is_some(), MOVE_FLAG_PROMOTION),
        (m.kind == MoveKind::Castle, MOVE_FLAG_CASTLE),
        (m.kind == MoveKind::EnPassant, MOVE_FLAG_EN_PASSANT),
        (after.is_check(), MOVE_FLAG_CHECK),
        (after.is_checkmate(), MOVE_FLAG_MATE),
    ]
    .into_iter()
    .filter(|&(set, _)| set)
    .fold(0, |flags, (_, flag)| flags | flag);
    assert_eq!(
        [piece, flags],
        [piece_code(position.board().piece_at(m.from)), want_flags],
        "frame {frame}: the record of {m:?} in {} has the wrong piece or flags",
        position.to_fen()
    );
    m
}

/// The CPU runs the game's code: PC in the ROM, in the OAM DMA routine in HRAM, or on
/// one of the engine's two `jp` instructions in wScanJumps (asm/engine/board.asm); SP
/// inside the stack area (asm/home/init.asm), `wStackTop` when it is empty.
fn assert_running(machine: &Machine, frame: u64, figures: &mut Figures) {
    let registers = machine.registers();
    let dma = machine.symbol("hOAMDMA").unwrap();
    let scan_jumps = machine.symbol("wScanJumps").unwrap();
    let on_scan_jump = (registers.pc == scan_jumps || registers.pc == scan_jumps + 3)
        && machine.read_u8(registers.pc).unwrap() == JP;
    assert!(
        registers.pc < 0x8000
            || (dma..dma + OAM_DMA_ROUTINE_SIZE).contains(&registers.pc)
            || on_scan_jump,
        "frame {frame}: the CPU runs from ${:04X} ({})",
        registers.pc,
        machine.describe(registers.pc)
    );
    let (bottom, top) = (
        machine.symbol("wStack").unwrap(),
        machine.symbol("wStackTop").unwrap(),
    );
    assert!(
        (bottom..=top).contains(&registers.sp),
        "frame {frame}: SP ${:04X} is outside the stack ${bottom:04X}-${top:04X}",
        registers.sp
    );
    figures.deepest_stack = figures.deepest_stack.max(top - registers.sp);
}

/// Plays the records the model has not seen into it (a new model game when the list
/// has fewer moves than it, or when the board screen has just been set up).
fn follow_records(machine: &Machine, model: &mut Game, frame: u64, figures: &mut Figures) {
    let records = records(machine);
    if records.len() < model.moves().len() {
        *model = Game::new(Position::start());
    }
    for &record in &records[model.moves().len()..] {
        let m = recorded_move(model.position(), record, frame);
        model.play(m).unwrap_or_else(|error| {
            panic!("frame {frame}: the model does not play {m:?}: {error:?}")
        });
        figures.moves_checked += 1;
    }
}

#[test]
fn ten_minutes_of_random_presses_keep_the_game_running_and_every_move_legal() {
    let build = cartridge();
    let mut machine = machine(&build);
    let mut rng = SplitMix64::new(SEED);
    let mut figures = Figures::default();
    let mut model = Game::new(Position::start());
    let mut on_board = false;
    let mut last_state = STATE_HUMAN;
    // Where the selector was when the piece picked up last was.
    let mut picked_at = None;
    let mut last_counter = (machine.read_u8("hFrameCounter").unwrap(), 0);
    // The button held and the frame it is let go, then the frame of the next press: held
    // 1 or 2 frames, up 1 or 2, a press every 3 frames on average (the press queue
    // keeps every one, also while the engine thinks).
    let mut held: Option<Button> = None;
    let mut next_change = 0;
    for frame in 0..FRAMES {
        if frame == next_change {
            if let Some(button) = held.take() {
                machine.release(button);
                next_change = frame + 1 + rng.below(2) as u64;
            } else {
                let picked = on_board && last_state == STATE_PICKED;
                let aimed = picked && Some(selector(&machine)) != picked_at;
                let buttons: &[(Button, usize)] = match (on_board, picked, aimed) {
                    (false, _, _) => &PAGE_BUTTONS,
                    (true, false, _) => &BOARD_BUTTONS,
                    (true, true, false) => &PICKED_BUTTONS,
                    (true, true, true) => &AIMED_BUTTONS,
                };
                let button = draw_button(&mut rng, buttons);
                machine.press(button);
                held = Some(button);
                next_change = frame + 1 + rng.below(2) as u64;
            }
        }
        machine
            .run_frames(1)
            .unwrap_or_else(|error| panic!("frame {frame}: {error:#}"));
        assert_running(&machine, frame, &mut figures);
        let counter = machine.read_u8("hFrameCounter").unwrap();
        if counter != last_counter.0 {
            last_counter = (counter, frame);
        }
        assert!(
            frame - last_counter.1 <= MAX_FRAMES_WITHOUT_VBLANK,
            "frame {frame}: hFrameCounter has not moved since frame {}",
            last_counter.1
        );

        // hGameLive is set once the board screen's set-up has loaded the new game.
        let now_on_board = machine.read_u8("wCurrentScreen").unwrap() == SCREEN_BOARD
            && machine.read_u8("hGameLive").unwrap() != 0;
        if now_on_board && !on_board {
            figures.games_started += 1;
            if machine.read_u8("wGameMode").unwrap() == GAME_MODE_TWO_PLAYERS {
                figures.two_player_games += 1;
            } else {
                figures.games_by_level[usize::from(machine.read_u8("wGameLevel").unwrap())] += 1;
            }
            model = Game::new(Position::start());
            last_state = STATE_HUMAN;
        }
        on_board = now_on_board;
        if !on_board {
            continue;
        }
        follow_records(&machine, &mut model, frame, &mut figures);
        let state = machine.read_u8("wGameState").unwrap();
        if state != last_state {
            match state {
                STATE_MENU => figures.menus_opened += 1,
                STATE_PROMOTION => figures.promotion_questions += 1,
                STATE_PICKED => picked_at = Some(selector(&machine)),
                STATE_OVER => {
                    let ending = machine.read_u8("wEnding").unwrap();
                    figures.endings[usize::from(ending) - 1] += 1;
                }
                _ => {}
            }
            last_state = state;
        }
        if matches!(state, STATE_HUMAN | STATE_PICKED | STATE_OVER) {
            assert_board_is(
                &machine,
                model.position(),
                &format!("frame {frame}, after {} moves", model.moves().len()),
            );
            figures.boards_checked += 1;
        }
    }
    machine.assert_no_violations().unwrap();
    println!("seed {SEED:#X}, {FRAMES} frames: {figures:?}");
    // The figures seed 0x50AC gives (a regression guard: a change of the game's timing
    // or of its menus changes them): 15 games (3 at EASY, 1 at CLOCK, 11 of two
    // players), 204 moves, 53 pauses, 4 promotion questions, 3 checkmates, 5
    // resignations and 4 draws agreed.
    assert_eq!(figures.games_started, 15);
    assert_eq!(figures.games_by_level, [3, 0, 0, 1]);
    assert_eq!(figures.two_player_games, 11);
    assert_eq!(figures.moves_checked, 204);
    assert_eq!(figures.boards_checked, 30_655);
    assert_eq!(figures.menus_opened, 53);
    assert_eq!(figures.promotion_questions, 4);
    assert_eq!(figures.endings, [3, 0, 0, 0, 0, 0, 5, 4]);
}
