//! Random presses from power-on, seeded and weighted so that pieces get picked up and
//! played: the title, the option pages and their levels, new games, the pause menu (its
//! hints and side swaps among its items), take backs, replays and endings get visited (the figures say how often), and through all of it the CPU stays
//! in the game's code, the stack in its area, the VBlank handler keeps counting frames,
//! every move the move list records is a legal move of the reference model's game, whose
//! board wBoard then holds, and no VRAM or OAM access is one the hardware would refuse.

use std::fmt;

use anyhow::{bail, ensure, Context, Result};
use engine_src::{Game, Position};

use super::cartridge::{check_board, recorded_move, records, selector, RecordCodes};
use crate::harness::{Button, Machine};
use crate::progress::Progress;
use crate::project::plural;
use crate::random::SplitMix64;

/// The seed of the presses: another seed is another run (and other figures).
pub const SEED: u64 = 0x50C4;

/// A minute at the DMG's 59.7275 frames a second is 3,583.65 frames: 3,600 is a minute
/// and a bit.
pub const FRAMES_PER_MINUTE: u64 = 3_600;

/// The game's values the run reads, by name from the ROM's symbols once at the start
/// (asm/include/game.inc, game_state.inc, game_record.inc, asm/engine/engine.inc).
struct Values {
    screen_board: u8,
    two_players: u8,
    /// LEVEL_EASY, LEVEL_MEDIUM, LEVEL_HARD, LEVEL_CLOCK.
    levels: [u8; 4],
    human: u8,
    picked: u8,
    promotion: u8,
    menu: u8,
    over: u8,
    replay: u8,
    hint: u8,
    level_choice: u8,
    draw_answer: u8,
    /// The ENDING_* of each of [`ENDINGS`].
    endings: [u8; 8],
    /// What a move's record is made of.
    record: RecordCodes,
    /// The OAM DMA routine's bytes at hOAMDMA (asm/home/oam_dma.asm).
    oam_dma_size: u16,
}

impl Values {
    /// Reads the values; fails naming a constant the ROM does not export.
    fn read(machine: &Machine) -> Result<Values> {
        let symbols = machine.symbols();
        let byte = |name: &str| symbols.exported_as::<u8>(name);
        let mut endings = [0; 8];
        for (slot, (constant, _)) in endings.iter_mut().zip(ENDINGS) {
            *slot = byte(constant)?;
        }
        Ok(Values {
            screen_board: byte("SCREEN_BOARD")?,
            two_players: byte("GAME_MODE_TWO_PLAYERS")?,
            levels: [
                byte("LEVEL_EASY")?,
                byte("LEVEL_MEDIUM")?,
                byte("LEVEL_HARD")?,
                byte("LEVEL_CLOCK")?,
            ],
            human: byte("STATE_HUMAN")?,
            picked: byte("STATE_PICKED")?,
            promotion: byte("STATE_PROMOTION")?,
            menu: byte("STATE_MENU")?,
            over: byte("STATE_OVER")?,
            replay: byte("STATE_REPLAY")?,
            hint: byte("STATE_HINT")?,
            level_choice: byte("STATE_LEVEL_CHOICE")?,
            draw_answer: byte("STATE_DRAW_ANSWER")?,
            endings,
            record: RecordCodes::read(machine)?,
            oam_dma_size: u16::from(byte("OAM_DMA_ROUTINE_SIZE")?),
        })
    }
}

/// The least a minute of presses must do for the checks to mean something, in new
/// games, moves the model checks, boards compared with it, and pause menus: the seed's
/// runs do more (the figures of the seed's ten minutes are in the README). A change of the game's timing or menus changes those figures; only a
/// change that keeps the presses from reaching the game breaks these promises.
pub const AT_LEAST_A_MINUTE: Promise = Promise {
    games: 1,
    moves: 15,
    boards: 2_000,
    menus: 2,
};

/// The least a run does per emulated minute, see [`AT_LEAST_A_MINUTE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Promise {
    pub games: u32,
    pub moves: u32,
    pub boards: u32,
    pub menus: u32,
}

/// The SM83's `jp a16`.
const JP: u8 = 0xC3;

/// The most frames the VBlank handler may miss hFrameCounter's step (the LCD is off for
/// a few frames while a screen is set up).
const MAX_FRAMES_WITHOUT_VBLANK: u64 = 30;

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

/// In the pause menu: mostly down, A now and then, so that every item of the list is
/// chosen now and then, those far down it (RESIGN, NEW GAME, the music) about half as
/// often as the first ones (a walk from RESUME with these weights ends on RESUME 14% of
/// the time, HINT 11%, SWITCH SIDES 9%, OFFER DRAW 6%, RESIGN 5%, NEW GAME 5%, the music
/// 11%, and closes the menu with B, START or SELECT 39%; with the board's buttons, the
/// menu's before it had items, 67% ended on RESUME, 1% on NEW GAME).
const MENU_BUTTONS: [(Button, usize); 8] = [
    (Button::A, 8),
    (Button::Down, 50),
    (Button::Up, 10),
    (Button::Left, 3),
    (Button::Right, 3),
    (Button::B, 3),
    (Button::Start, 1),
    (Button::Select, 1),
];

/// At the engine's level question between two players: mostly B (back to the menu), so
/// that most two-player games stay quick; now and then another level and A, which hands
/// the side to move to the engine.
const LEVEL_CHOICE_BUTTONS: [(Button, usize); 4] = [
    (Button::B, 6),
    (Button::A, 2),
    (Button::Left, 1),
    (Button::Right, 1),
];

/// At a draw offered between two players (the pointer at NO): left (to YES) and A
/// about as often, so that about half the offers are taken.
const DRAW_ANSWER_BUTTONS: [(Button, usize); 4] = [
    (Button::Left, 4),
    (Button::Right, 1),
    (Button::A, 4),
    (Button::B, 1),
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

/// On the end screen: mostly A (a new game), now and then B (a take back, and the game
/// goes on), START and SELECT (the replay), up and down (the move list).
const END_BUTTONS: [(Button, usize); 6] = [
    (Button::A, 6),
    (Button::B, 1),
    (Button::Start, 1),
    (Button::Select, 1),
    (Button::Up, 1),
    (Button::Down, 1),
];

/// In the replay: mostly the control pad (a ply back or on, the start, the end), and
/// now and then B, START or SELECT, which go back.
const REPLAY_BUTTONS: [(Button, usize); 7] = [
    (Button::Left, 4),
    (Button::Right, 4),
    (Button::Up, 1),
    (Button::Down, 1),
    (Button::B, 1),
    (Button::Start, 1),
    (Button::Select, 1),
];

/// On the title and the option pages: mostly A (go on), now and then a move of the
/// arrow, B or START. The pages open at the mode and level played last, so a game is
/// mostly at the level of the one before: EASY at first, whose turns take the engine a
/// second at most (CLOCK's take half a minute), and every mode and level now and then.
const PAGE_BUTTONS: [(Button, usize); 5] = [
    (Button::A, 8),
    (Button::Down, 2),
    (Button::Up, 1),
    (Button::B, 1),
    (Button::Start, 1),
];

/// The endings, each by its constant (asm/include/game_state.inc) and its name in the
/// figures.
const ENDINGS: [(&str, &str); 8] = [
    ("ENDING_CHECKMATE", "checkmate"),
    ("ENDING_STALEMATE", "stalemate"),
    ("ENDING_INSUFFICIENT_MATERIAL", "insufficient material"),
    ("ENDING_FIFTY_MOVES", "fifty moves"),
    ("ENDING_REPETITION", "repetition"),
    ("ENDING_TIME", "time"),
    ("ENDING_RESIGNED", "resignation"),
    ("ENDING_AGREEMENT", "draw agreed"),
];

/// What a run saw: new games (and at which level against the engine, how many by two
/// players), moves checked against the model, boards compared, pause menus opened,
/// promotion questions asked, take backs and replays, hints asked for, side swaps
/// (SWITCH SIDES, or the engine taking over between two players: the game's mode
/// changed), endings reached (in the order of [`ENDINGS`]), and the deepest the
/// stack went.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Figures {
    pub frames: u64,
    pub games_started: u32,
    pub games_by_level: [u32; 4],
    pub two_player_games: u32,
    pub moves_checked: u32,
    pub boards_checked: u32,
    pub menus_opened: u32,
    pub promotion_questions: u32,
    pub take_backs: u32,
    pub replays: u32,
    pub hints: u32,
    pub side_swaps: u32,
    pub endings: [u32; 8],
    pub deepest_stack: u16,
}

impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [easy, medium, hard, clock] = self.games_by_level;
        writeln!(
            f,
            "{} of presses (seed {SEED:#X}): {} ({easy} EASY, {medium} MEDIUM, {hard} HARD, \
             {clock} CLOCK, {} of two players)",
            plural(self.frames, "frame"),
            plural(self.games_started, "game"),
            self.two_player_games
        )?;
        writeln!(
            f,
            "{} checked by the model, {} compared, {}, {}, {}, {}, {}, {}, the stack {} deep \
             at most",
            plural(self.moves_checked, "move"),
            plural(self.boards_checked, "board"),
            plural(self.menus_opened, "pause menu"),
            plural(self.promotion_questions, "promotion question"),
            plural(self.take_backs, "take back"),
            plural(self.replays, "replay"),
            plural(self.hints, "hint"),
            plural(self.side_swaps, "side swap"),
            plural(self.deepest_stack, "byte")
        )?;
        let endings: Vec<String> = ENDINGS
            .iter()
            .zip(self.endings)
            .filter(|&(_, count)| count > 0)
            .map(|((_, name), count)| format!("{count} {name}"))
            .collect();
        let endings = match endings.is_empty() {
            true => "none".to_owned(),
            false => endings.join(", "),
        };
        write!(f, "endings: {endings}")
    }
}

impl Figures {
    /// Fails, naming the figure, unless a run of `minutes` minutes kept `promise`.
    /// The long run's promise of variety: the presses reach a promotion question, a game
    /// of two players and one at CLOCK, a take back and a replay, a hint and a side swap,
    /// and end games by checkmate, resignation and an agreed draw (the seed's ten
    /// minutes: see the README's soak figures), so that none of those ways stops working
    /// unseen.
    pub fn check_variety(&self) -> Result<()> {
        let ending = |name: &str| {
            ENDINGS
                .iter()
                .position(|&(constant, _)| constant == name)
                .map_or(0, |index| self.endings[index])
        };
        for (what, done) in [
            ("promotion questions", self.promotion_questions),
            ("take backs", self.take_backs),
            ("replays", self.replays),
            ("games of two players", self.two_player_games),
            ("games at CLOCK", self.games_by_level[3]),
            ("hints", self.hints),
            ("side swaps", self.side_swaps),
            ("checkmates", ending("ENDING_CHECKMATE")),
            ("resignations", ending("ENDING_RESIGNED")),
            ("draws agreed", ending("ENDING_AGREEMENT")),
        ] {
            ensure!(done >= 1, "the presses made no {what}, which they promise");
        }
        Ok(())
    }

    pub fn check_promise(&self, promise: Promise, minutes: u32) -> Result<()> {
        for (what, done, per_minute) in [
            ("new games", self.games_started, promise.games),
            ("moves checked", self.moves_checked, promise.moves),
            ("boards compared", self.boards_checked, promise.boards),
            ("pause menus", self.menus_opened, promise.menus),
        ] {
            let least = per_minute * minutes;
            ensure!(
                done >= least,
                "{minutes} minutes of presses made {done} {what}, fewer than the {least} \
                 they promise"
            );
        }
        Ok(())
    }
}

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

/// The CPU runs the game's code: PC in the ROM, in the OAM DMA routine in HRAM, or on
/// one of the engine's two `jp` instructions in wScanJumps (asm/engine/board.asm); SP
/// inside the stack area (asm/home/init.asm), `wStackTop` when it is empty.
fn check_running(machine: &Machine, values: &Values, figures: &mut Figures) -> Result<()> {
    let registers = machine.registers();
    let dma = machine.symbol("hOAMDMA")?;
    let scan_jumps = machine.symbol("wScanJumps")?;
    let on_scan_jump = (registers.pc == scan_jumps || registers.pc == scan_jumps + 3)
        && machine.read_u8(registers.pc)? == JP;
    ensure!(
        registers.pc < 0x8000
            || (dma..dma + values.oam_dma_size).contains(&registers.pc)
            || on_scan_jump,
        "the CPU runs from {}",
        machine.describe(registers.pc)
    );
    let (bottom, top) = (machine.symbol("wStack")?, machine.symbol("wStackTop")?);
    ensure!(
        (bottom..=top).contains(&registers.sp),
        "SP ${:04X} is outside the stack ${bottom:04X}-${top:04X}",
        registers.sp
    );
    figures.deepest_stack = figures.deepest_stack.max(top - registers.sp);
    Ok(())
}

/// Plays the records the model has not seen into it (a new model game when the list
/// no longer begins with the records seen: a take back, a replay's step, a new game);
/// gives whether the list lost moves.
fn follow_records(
    machine: &Machine,
    values: &Values,
    model: &mut Game,
    seen: &mut Vec<[u8; 4]>,
    figures: &mut Figures,
) -> Result<bool> {
    let records = records(machine)?;
    let shrank = records.len() < seen.len();
    if !records.starts_with(seen) {
        *model = Game::new(Position::start());
        seen.clear();
    }
    for &record in &records[seen.len()..] {
        let m = recorded_move(&values.record, model.position(), record)?;
        if let Err(error) = model.play(m) {
            bail!("the model does not play {m:?}: {error:?}");
        }
        figures.moves_checked += 1;
    }
    *seen = records;
    Ok(shrank)
}

/// What the presses know of the game between two frames.
struct Run {
    values: Values,
    rng: SplitMix64,
    figures: Figures,
    model: Game,
    /// The records the model has played.
    seen: Vec<[u8; 4]>,
    on_board: bool,
    last_state: u8,
    /// The game's mode (wGameMode) at the last frame on the board.
    last_mode: u8,
    /// Where the selector was when the piece picked up last was.
    picked_at: Option<(u8, u8)>,
    /// hFrameCounter and the frame it last changed in.
    last_counter: (u8, u64),
    /// The button held, the frame of the next release or press.
    held: Option<Button>,
    next_change: u64,
}

impl Run {
    /// Presses or releases a button when it is time: held 1 or 2 frames, up 1 or 2, a
    /// press every 3 frames on average (the press queue keeps every one, also while the
    /// engine thinks).
    fn press_or_release(&mut self, machine: &mut Machine, frame: u64) -> Result<()> {
        if frame != self.next_change {
            return Ok(());
        }
        if let Some(button) = self.held.take() {
            machine.release(button);
        } else {
            let picked = self.on_board && self.last_state == self.values.picked;
            let aimed = picked && Some(selector(machine)?) != self.picked_at;
            let state = self.last_state;
            let menu = self.on_board && state == self.values.menu;
            let level_choice = self.on_board && state == self.values.level_choice;
            let draw_answer = self.on_board && state == self.values.draw_answer;
            let buttons: &[(Button, usize)] = match (self.on_board, menu, picked, aimed) {
                (false, _, _, _) => &PAGE_BUTTONS,
                _ if state == self.values.over => &END_BUTTONS,
                _ if state == self.values.replay => &REPLAY_BUTTONS,
                _ if level_choice => &LEVEL_CHOICE_BUTTONS,
                _ if draw_answer => &DRAW_ANSWER_BUTTONS,
                (true, true, _, _) => &MENU_BUTTONS,
                (true, false, false, _) => &BOARD_BUTTONS,
                (true, false, true, false) => &PICKED_BUTTONS,
                (true, false, true, true) => &AIMED_BUTTONS,
            };
            let button = draw_button(&mut self.rng, buttons);
            machine.press(button);
            self.held = Some(button);
        }
        self.next_change = frame + 1 + self.rng.below(2) as u64;
        Ok(())
    }

    /// Every check of the frame just run.
    fn check_frame(&mut self, machine: &Machine, frame: u64) -> Result<()> {
        check_running(machine, &self.values, &mut self.figures)?;
        let counter = machine.read_u8("hFrameCounter")?;
        if counter != self.last_counter.0 {
            self.last_counter = (counter, frame);
        }
        ensure!(
            frame - self.last_counter.1 <= MAX_FRAMES_WITHOUT_VBLANK,
            "hFrameCounter has not moved since frame {}",
            self.last_counter.1
        );

        // hGameLive is set once the board screen's set-up has loaded the new game.
        let values = &self.values;
        let now_on_board = machine.read_u8("wCurrentScreen")? == values.screen_board
            && machine.read_u8("hGameLive")? != 0;
        if now_on_board && !self.on_board {
            let figures = &mut self.figures;
            figures.games_started += 1;
            if machine.read_u8("wGameMode")? == values.two_players {
                figures.two_player_games += 1;
            } else {
                let level = machine.read_u8("wGameLevel")?;
                let slot = values
                    .levels
                    .iter()
                    .position(|&value| value == level)
                    .with_context(|| format!("a game started at level {level}"))?;
                figures.games_by_level[slot] += 1;
            }
            self.model = Game::new(Position::start());
            self.seen.clear();
            self.last_state = values.human;
            self.last_mode = machine.read_u8("wGameMode")?;
        }
        self.on_board = now_on_board;
        if !self.on_board {
            return Ok(());
        }
        let shrank = follow_records(
            machine,
            values,
            &mut self.model,
            &mut self.seen,
            &mut self.figures,
        )?;
        let mode = machine.read_u8("wGameMode")?;
        if mode != self.last_mode {
            self.figures.side_swaps += 1;
            self.last_mode = mode;
        }
        let state = machine.read_u8("wGameState")?;
        // The list loses moves in a take back, and in a replay's steps back.
        if shrank && state != values.replay && self.last_state != values.replay {
            self.figures.take_backs += 1;
        }
        if state != self.last_state {
            if state == values.replay {
                self.figures.replays += 1;
            } else if state == values.menu {
                self.figures.menus_opened += 1;
            } else if state == values.promotion {
                self.figures.promotion_questions += 1;
            } else if state == values.hint {
                self.figures.hints += 1;
            } else if state == values.picked {
                self.picked_at = Some(selector(machine)?);
            } else if state == values.over {
                let ending = machine.read_u8("wEnding")?;
                let slot = values
                    .endings
                    .iter()
                    .position(|&value| value == ending)
                    .with_context(|| format!("the game ended with ending {ending}"))?;
                self.figures.endings[slot] += 1;
            }
            self.last_state = state;
        }
        // The end screen once its ending is set (a take back clears it first, then
        // rebuilds the game); not the replay, whose steps rebuild the board over frames.
        let over = state == values.over && machine.read_u8("wEnding")? != 0;
        if (over || [values.human, values.picked].contains(&state)) && between_updates(machine)? {
            check_board(machine, self.model.position())
                .with_context(|| format!("after {} moves", self.model.moves().len()))?;
            self.figures.boards_checked += 1;
        }
        Ok(())
    }
}

/// Whether the main loop is between two updates, waiting in WaitVBlank (its only
/// caller is the loop): the board is compared only then. In the middle of an update it
/// may hold what no position does: PlayMove makes the move before it appends the move's
/// record (and queueing the board's squares between the two may wait for a VBlank), and
/// the move generator marks the king and the pinned pieces on the board while it runs.
fn between_updates(machine: &Machine) -> Result<bool> {
    let start = machine.symbol("WaitVBlank")?;
    // `.wait`: halt, ldh a, cp b, jr z, ret.
    let last = machine.symbol("WaitVBlank.wait")? + 6;
    ensure!(
        machine.read_u8(last)? == 0xC9,
        "WaitVBlank no longer ends in a `ret` 6 bytes after .wait: the soak's test of \
         the main loop's wait must follow it"
    );
    Ok((start..=last).contains(&machine.pc()))
}

/// Runs `frames` frames of seeded random presses from power-on in `machine`, checking
/// every frame (see the module documentation), and gives the figures; fails naming the
/// frame of the first check that does not hold. `progress` advances a step per frame.
pub fn mash(machine: &mut Machine, frames: u64, progress: &Progress) -> Result<Figures> {
    let values = Values::read(machine)?;
    let mut run = Run {
        last_state: values.human,
        last_mode: 0,
        values,
        rng: SplitMix64::new(SEED),
        figures: Figures::default(),
        model: Game::new(Position::start()),
        seen: Vec::new(),
        on_board: false,
        picked_at: None,
        last_counter: (machine.read_u8("hFrameCounter")?, 0),
        held: None,
        next_change: 0,
    };
    for frame in 0..frames {
        run.press_or_release(machine, frame)
            .and_then(|()| machine.run_frames(1).map(|_| ()))
            .and_then(|()| run.check_frame(machine, frame))
            .with_context(|| format!("frame {frame} of the presses (seed {SEED:#X})"))?;
        run.figures.frames = frame + 1;
        progress.advance(1);
    }
    machine.assert_no_violations()?;
    Ok(run.figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_does_less_than_promised_fails_naming_the_figure() {
        let figures = Figures {
            games_started: 20,
            moves_checked: 149,
            boards_checked: 30_000,
            menus_opened: 40,
            ..Figures::default()
        };
        assert_eq!(
            figures
                .check_promise(AT_LEAST_A_MINUTE, 10)
                .unwrap_err()
                .to_string(),
            "10 minutes of presses made 149 moves checked, fewer than the 150 they promise"
        );
        assert!(figures.check_promise(AT_LEAST_A_MINUTE, 9).is_ok());
    }

    #[test]
    fn a_long_run_without_a_way_of_ending_fails_naming_it() {
        let index = |name: &str| ENDINGS.iter().position(|&(c, _)| c == name).unwrap();
        let mut figures = Figures {
            games_by_level: [3, 0, 0, 1],
            two_player_games: 11,
            promotion_questions: 4,
            take_backs: 1,
            replays: 1,
            hints: 2,
            side_swaps: 1,
            ..Figures::default()
        };
        figures.endings[index("ENDING_CHECKMATE")] = 3;
        figures.endings[index("ENDING_RESIGNED")] = 5;
        assert_eq!(
            figures.check_variety().unwrap_err().to_string(),
            "the presses made no draws agreed, which they promise"
        );
        figures.endings[index("ENDING_AGREEMENT")] = 4;
        assert!(figures.check_variety().is_ok());
    }

    #[test]
    fn the_figures_read_as_sentences_with_the_endings_reached() {
        let figures = Figures {
            frames: 36_000,
            games_started: 15,
            games_by_level: [3, 0, 0, 1],
            two_player_games: 11,
            moves_checked: 204,
            boards_checked: 30_666,
            menus_opened: 53,
            promotion_questions: 1,
            take_backs: 2,
            replays: 1,
            hints: 6,
            side_swaps: 1,
            endings: [3, 0, 0, 0, 0, 0, 5, 4],
            deepest_stack: 240,
        };
        assert_eq!(
            figures.to_string(),
            "36000 frames of presses (seed 0x50C4): 15 games (3 EASY, 0 MEDIUM, 0 HARD, \
             1 CLOCK, 11 of two players)\n\
             204 moves checked by the model, 30666 boards compared, 53 pause menus, \
             1 promotion question, 2 take backs, 1 replay, 6 hints, 1 side swap, the stack \
             240 bytes deep at most\n\
             endings: 3 checkmate, 5 resignation, 4 draw agreed"
        );
    }
}
