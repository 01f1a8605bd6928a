//! One game of the cartridge match: the built cartridge from power-on in the harness (the
//! PPU-access checks on), the title, the option pages and the board screen driven through
//! the joypad only, Fairy-Stockfish's moves pressed in as a player would press them, the
//! engine's moves read back from the move list, every move and board checked by the model.
//!
//! The engine's think time is counted in frames, at VBlank starts (the harness stops at
//! the first instruction boundary after each VBlank begins):
//! - **its turn starts** at the first VBlank at which `wGameState` is `STATE_ENGINE`
//!   (BeginTurn set it in the update that played the player's move, or in the board
//!   screen's set-up when the engine plays White; that update also queued WHITE THINKING);
//! - **its move is on the board** at the first VBlank after that at which `wGameState` is
//!   no longer `STATE_ENGINE` (PlayMove played the move: its record is in the move list
//!   and its squares in the VRAM queue, first) and the tile map's squares show the
//!   model's board after the move: the picture drawn since the VBlank before shows the
//!   move;
//! - **all of it is drawn** at the first VBlank from then at which the VRAM queue is
//!   empty: the move list's entry and the status line are in the tile map too.
//!
//! The think time is the frames from the first to the second (the move on the board, as
//! a player sees the reply); the frames to the third are kept beside it. A DMG second is
//! 59.7275 frames.

use anyhow::{bail, ensure, Context, Result};
use engine_src::search::Level;
use engine_src::{Color, Game, Move, Outcome, Position};

use crate::assets::gfx::Art;
use crate::fairy::Fairy;
use crate::harness::{Button, Machine};
use crate::soak::cartridge::{
    check_board, check_shown_board, place, promotion_presses, queued_bytes, recorded_move, records,
    selector, steer_button, RecordCodes,
};
use crate::strength::{GameResult, Opening, MAX_GAME_PLIES};

/// Frames after power-on before the first press (START on the title) of game 0; game `g`
/// presses `g` frames later, so that DIV, which the cartridge draws its game's seed from at
/// that press, differs from game to game.
pub const FIRST_PRESS_FRAME: u32 = 10;

/// The most frames the engine may take over a move before the game is an error: ten
/// emulated minutes, the whole clock.
const MAX_THINK_FRAMES: u64 = 36_000;

/// Frames a press holds its button, and the frames the screen then takes to follow.
const PRESS_FRAMES: u32 = 2;
const FOLLOW_FRAMES: u32 = 4;

/// Where the engine's move came from (`wEngineMoveSource`'s `ENGINE_MOVE_*`), when the
/// ROM has that byte.
pub const MOVE_SOURCES: [(&str, &str); 4] = [
    ("ENGINE_MOVE_SEARCH", "search"),
    ("ENGINE_MOVE_BOOK", "book"),
    ("ENGINE_MOVE_GUARD", "time guard"),
    ("ENGINE_MOVE_NOW", "move now"),
];

/// The game's values the driver reads, by name from the ROM's symbols.
pub struct Values {
    screen_title: u8,
    screen_mode_page: u8,
    screen_level_page: u8,
    screen_board: u8,
    engine: u8,
    human: u8,
    picked: u8,
    promotion: u8,
    over: u8,
    ending_time: u8,
    no_winner: u8,
    white: u8,
    record: RecordCodes,
    /// Each `ENGINE_MOVE_*` of [`MOVE_SOURCES`], when the ROM has `wEngineMoveSource`.
    sources: Option<[u8; 4]>,
    /// The `ENDING_*` the model's outcomes stand for, in the order of [`ending_name`].
    endings: [u8; 5],
}

impl Values {
    /// Reads the values; fails naming a constant the ROM does not export.
    pub fn read(machine: &Machine) -> Result<Values> {
        let symbols = machine.symbols();
        let byte = |name: &str| symbols.exported_as::<u8>(name);
        let sources = match symbols.get("wEngineMoveSource") {
            None => None,
            Some(_) => {
                let mut sources = [0; 4];
                for (slot, (name, _)) in sources.iter_mut().zip(MOVE_SOURCES) {
                    *slot = byte(name)?;
                }
                Some(sources)
            }
        };
        Ok(Values {
            screen_title: byte("SCREEN_TITLE")?,
            screen_mode_page: byte("SCREEN_MODE_PAGE")?,
            screen_level_page: byte("SCREEN_LEVEL_PAGE")?,
            screen_board: byte("SCREEN_BOARD")?,
            engine: byte("STATE_ENGINE")?,
            human: byte("STATE_HUMAN")?,
            picked: byte("STATE_PICKED")?,
            promotion: byte("STATE_PROMOTION")?,
            over: byte("STATE_OVER")?,
            ending_time: byte("ENDING_TIME")?,
            no_winner: byte("NO_WINNER")?,
            white: byte("COLOR_WHITE")?,
            record: RecordCodes::read(machine)?,
            sources,
            endings: [
                byte("ENDING_CHECKMATE")?,
                byte("ENDING_STALEMATE")?,
                byte("ENDING_INSUFFICIENT_MATERIAL")?,
                byte("ENDING_FIFTY_MOVES")?,
                byte("ENDING_REPETITION")?,
            ],
        })
    }

    /// The `ENDING_*` of an ending the rules reach (the others come from the players).
    fn ending_of(&self, outcome: Outcome) -> Option<u8> {
        let slot = match outcome {
            Outcome::Checkmate { .. } => 0,
            Outcome::Stalemate => 1,
            Outcome::InsufficientMaterial => 2,
            Outcome::FiftyMoves => 3,
            Outcome::ThreefoldRepetition => 4,
            _ => return None,
        };
        Some(self.endings[slot])
    }
}

/// One game to play: the cartridge at `level` with `engine_color` against
/// Fairy-Stockfish `go depth fairy_depth`, from `opening`; `number` (0, 1, ...) delays
/// the first press by that many frames.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub level: Level,
    pub fairy_depth: u8,
    pub opening: &'a Opening,
    pub engine_color: Color,
    pub number: u32,
}

/// One move of the engine: its ply in the game (0 = White's first), the position it
/// thought in, its think time in frames, and where the move came from (an
/// `ENGINE_MOVE_*` name of [`MOVE_SOURCES`], when the ROM says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Think {
    pub ply: usize,
    pub fen: String,
    /// From the turn's start to the move on the board.
    pub frames: u64,
    /// From the turn's start to the move list and the status line drawn too (at least
    /// `frames`).
    pub drawn: u64,
    pub source: Option<&'static str>,
}

/// How a game went.
#[derive(Debug, Clone)]
pub struct Played {
    /// For the engine.
    pub result: GameResult,
    /// How it ended, as the model says (None: a draw at [`MAX_GAME_PLIES`], or the game
    /// stopped at the caller's ply limit).
    pub outcome: Option<Outcome>,
    pub plies: usize,
    pub thinks: Vec<Think>,
}

/// The cartridge in a game, and what the driver knows of it between frames.
struct Driver<'a> {
    machine: Machine,
    values: &'a Values,
    art: &'a Art,
    model: Game,
    engine_color: Color,
    black_bottom: bool,
    /// The frame the engine's turn started, while it thinks.
    turn_started: Option<(u64, String)>,
    /// The engine's move has been played and its board is on its way to the screen.
    engine_moved: bool,
    /// The frame the engine's move was first seen on the board, until all is drawn.
    move_on_board: Option<u64>,
    /// A move was played whose board the screen has not been checked to show yet.
    board_to_check: bool,
    thinks: Vec<Think>,
}

impl Driver<'_> {
    fn read(&self, name: &str) -> Result<u8> {
        self.machine.read_u8(name)
    }

    fn on_board(&self) -> Result<bool> {
        Ok(self.read("wCurrentScreen")? == self.values.screen_board)
    }

    fn state(&self) -> Result<u8> {
        self.read("wGameState")
    }

    /// Runs one frame and follows the game: the moves the move list records played into
    /// the model (each checked a legal move with the right piece and flags), the engine's
    /// turn timed, the board checked once shown.
    fn frame(&mut self) -> Result<()> {
        self.machine.run_frames(1)?;
        if !self.on_board()? {
            return Ok(());
        }
        let records = records(&self.machine)?;
        ensure!(
            records.len() >= self.model.moves().len(),
            "the move list holds {} moves, the game {}",
            records.len(),
            self.model.moves().len()
        );
        for &record in &records[self.model.moves().len()..] {
            ensure!(
                self.model.position().turn() != self.engine_color || self.turn_started.is_some(),
                "the engine moved at ply {} without a VBlank of its turn",
                self.model.moves().len()
            );
            let m = recorded_move(&self.values.record, self.model.position(), record)?;
            self.model
                .play(m)
                .map_err(|error| anyhow::anyhow!("the model does not play {m:?}: {error:?}"))?;
            self.board_to_check = true;
        }
        let state = self.state()?;
        let frame = self.machine.frames();
        if state == self.values.engine {
            if self.turn_started.is_none() && !self.engine_moved {
                self.turn_started = Some((frame, self.model.position().to_fen()));
            }
        } else if self.turn_started.is_some() && !self.engine_moved {
            if self.model.position().turn() != self.engine_color {
                self.engine_moved = true;
            } else if state == self.values.over {
                // The flag fell while the engine thought: no move, no think time.
                self.turn_started = None;
            } else {
                bail!(
                    "the engine's turn ended without a move in {}",
                    self.model.position().to_fen()
                );
            }
        }
        if self.engine_moved
            && self.move_on_board.is_none()
            && check_shown_board(
                &self.machine,
                self.art,
                self.model.position(),
                self.black_bottom,
            )
            .is_ok()
        {
            self.move_on_board = Some(frame);
        }
        let queue_empty = queued_bytes(&self.machine)? == 0;
        if self.engine_moved && queue_empty {
            // (Once the queue is empty the board is drawn: the check below says so, or
            // the game fails.)
            let on_board = self.move_on_board.take().unwrap_or(frame);
            let (started, fen) = self
                .turn_started
                .take()
                .context("the engine moved without a turn")?;
            let source = match self.values.sources {
                None => None,
                Some(sources) => {
                    let byte = self.read("wEngineMoveSource")?;
                    let slot = sources
                        .iter()
                        .position(|&value| value == byte)
                        .with_context(|| {
                            format!("wEngineMoveSource is {byte}, no ENGINE_MOVE_*")
                        })?;
                    Some(MOVE_SOURCES[slot].0)
                }
            };
            self.thinks.push(Think {
                ply: self.model.moves().len() - 1,
                fen,
                frames: on_board - started,
                drawn: frame - started,
                source,
            });
            self.engine_moved = false;
        }
        // PlayMove records a move before it draws the board (which may wait frames for
        // room in the queue) and sets the next turn's state last: the board is all
        // queued once the state is the next turn's.
        let next_turn = if self.model.position().turn() == self.engine_color {
            self.values.engine
        } else {
            self.values.human
        };
        let move_done = state == next_turn || state == self.values.over;
        if self.board_to_check && queue_empty && !self.engine_moved && move_done {
            check_shown_board(
                &self.machine,
                self.art,
                self.model.position(),
                self.black_bottom,
            )
            .with_context(|| format!("after {} plies", self.model.moves().len()))?;
            if state == self.values.human || state == self.values.over {
                check_board(&self.machine, self.model.position())
                    .with_context(|| format!("after {} plies", self.model.moves().len()))?;
            }
            self.board_to_check = false;
        }
        Ok(())
    }

    fn frames(&mut self, count: u32) -> Result<()> {
        for _ in 0..count {
            self.frame()?;
        }
        Ok(())
    }

    /// A press: the button held [`PRESS_FRAMES`] frames, then [`FOLLOW_FRAMES`] more.
    fn press(&mut self, button: Button) -> Result<()> {
        self.machine.press(button);
        let held = self.frames(PRESS_FRAMES);
        self.machine.release(button);
        held?;
        self.frames(FOLLOW_FRAMES)
    }

    /// Presses the control pad until the selector is at `to` (screen column, row).
    fn steer(&mut self, to: (u8, u8)) -> Result<()> {
        for _ in 0..12 {
            match steer_button(selector(&self.machine)?, to) {
                None => return Ok(()),
                Some(button) => self.press(button)?,
            }
        }
        bail!(
            "the selector did not reach {to:?}: it is at {:?}",
            selector(&self.machine)?
        )
    }

    /// Down or Up on an option page until its arrow is at item `item`, then A.
    fn choose_item(&mut self, page: u8, item: u8, what: &str) -> Result<()> {
        ensure!(
            self.read("wCurrentScreen")? == page,
            "the {what} page is not shown"
        );
        for _ in 0..8 {
            let arrow = self.read("wOptionsArrow")?;
            if arrow == item {
                return self.press(Button::A);
            }
            self.press(if arrow < item {
                Button::Down
            } else {
                Button::Up
            })?;
        }
        bail!("the {what} page's arrow did not reach item {item}")
    }

    /// Plays `m` with the joypad as a player would: the selector to its piece, A, the
    /// selector to its square, A, and for a promotion Right to its piece and A.
    fn play(&mut self, m: &Move) -> Result<()> {
        let plies = self.model.moves().len();
        self.steer(place(m.from, self.black_bottom))?;
        self.press(Button::A)?;
        ensure!(
            self.state()? == self.values.picked,
            "A on {} picked nothing up",
            m.from
        );
        self.steer(place(m.to, self.black_bottom))?;
        if let Some(role) = m.promotion {
            self.press(Button::A)?;
            ensure!(
                self.state()? == self.values.promotion,
                "{}: no promotion question",
                m.to_uci()
            );
            for _ in 0..promotion_presses(&self.machine, &self.values.record, role)? {
                self.press(Button::Right)?;
            }
        }
        self.press(Button::A)?;
        // The engine may have answered already, within the frames of the press.
        ensure!(
            self.model.moves().get(plies) == Some(m),
            "the joypad's {} is not the move the list recorded",
            m.to_uci()
        );
        Ok(())
    }

    /// Runs frames until a player may move or the game is over (the engine has moved).
    fn wait_for_player(&mut self) -> Result<()> {
        let started = self.machine.frames();
        loop {
            let state = self.state()?;
            if self.on_board()?
                && (state == self.values.human || state == self.values.over)
                && self.turn_started.is_none()
                && !self.engine_moved
                && !self.board_to_check
            {
                return Ok(());
            }
            if self.machine.frames() - started > MAX_THINK_FRAMES {
                bail!(
                    "the engine did not move within {MAX_THINK_FRAMES} frames in {}",
                    self.model.position().to_fen()
                );
            }
            self.frame()?;
        }
    }
}

/// The cartridge's image and symbols, which the game threads share.
pub struct Image<'a> {
    pub rom: &'a [u8],
    pub sym: &'a str,
}

/// Plays `job` on `image` against `fairy`, until the game ends or, at the player's turn,
/// it has `max_plies` plies (stopped there) or [`MAX_GAME_PLIES`] (a draw); fails naming
/// the ply on the first check that does not hold.
pub fn play(
    image: &Image<'_>,
    values: &Values,
    art: &Art,
    fairy: &mut Fairy,
    job: Job<'_>,
    max_plies: usize,
) -> Result<Played> {
    let machine = Machine::new(image.rom)?.with_symbols(image.sym)?;
    let black_bottom = job.engine_color == Color::White;
    let mut driver = Driver {
        machine,
        values,
        art,
        model: Game::new(Position::start()),
        engine_color: job.engine_color,
        black_bottom,
        turn_started: None,
        engine_moved: false,
        move_on_board: None,
        board_to_check: false,
        thinks: Vec::new(),
    };
    driver.machine.run_frames(FIRST_PRESS_FRAME + job.number)?;
    ensure!(
        driver.read("wCurrentScreen")? == values.screen_title,
        "the title is not shown"
    );
    driver.press(Button::Start)?;
    let mode = driver
        .machine
        .symbols()
        .exported_as::<u8>(match job.engine_color {
            Color::White => "GAME_MODE_BLACK",
            Color::Black => "GAME_MODE_WHITE",
        })?;
    let level = driver
        .machine
        .symbols()
        .exported_as::<u8>(match job.level {
            Level::Easy => "LEVEL_EASY",
            Level::Medium => "LEVEL_MEDIUM",
            Level::Hard => "LEVEL_HARD",
        })?;
    driver.choose_item(values.screen_mode_page, mode, "play-as")?;
    driver.choose_item(values.screen_level_page, level, "level")?;
    ensure!(
        (driver.read("wGameMode")?, driver.read("wGameLevel")?) == (mode, level),
        "the option pages chose another game"
    );
    fairy.new_game()?;
    let start_fen = Position::start().to_fen();
    let outcome = loop {
        driver.wait_for_player()?;
        let uci_moves: Vec<String> = driver.model.moves().iter().map(Move::to_uci).collect();
        let plies = uci_moves.len();
        let over = driver.state()? == values.over;
        if let Some(outcome) = driver.model.outcome() {
            ensure!(
                over,
                "the model ends the game ({outcome:?}), the cartridge does not"
            );
            let ending = driver.read("wEnding")?;
            ensure!(
                values.ending_of(outcome) == Some(ending),
                "the game ended as {outcome:?}, the cartridge's wEnding is {ending}"
            );
            let winner = driver.read("wWinner")?;
            let want = match outcome.winner() {
                None => values.no_winner,
                Some(Color::White) => values.white,
                Some(Color::Black) => values.white ^ 1,
            };
            ensure!(winner == want, "wWinner is {winner}, not {want}");
            break Some(outcome);
        }
        if over {
            let ending = driver.read("wEnding")?;
            ensure!(
                ending == values.ending_time,
                "the cartridge ended the game (wEnding {ending}), the model does not"
            );
            let loser = driver.model.position().turn();
            driver
                .model
                .flag_fell(loser)
                .map_err(|error| anyhow::anyhow!("{error:?}"))?;
            break driver.model.outcome();
        }
        if plies >= MAX_GAME_PLIES || plies >= max_plies {
            break None;
        }
        let position = *driver.model.position();
        ensure!(
            position.turn() != job.engine_color,
            "the engine's turn, yet the cartridge waits for the player"
        );
        let from_opening = job
            .opening
            .moves
            .get(plies)
            .and_then(|m| position.parse_uci(&m.to_uci()).ok())
            .filter(|m| position.is_legal(m));
        let m = match from_opening {
            Some(m) => m,
            None => {
                let text = fairy.best_move(&start_fen, &uci_moves, job.fairy_depth)?;
                position.parse_uci(&text).map_err(|error| {
                    anyhow::anyhow!(
                        "Fairy-Stockfish played {text} in {}: {error}",
                        position.to_fen()
                    )
                })?
            }
        };
        driver
            .play(&m)
            .with_context(|| format!("playing {} in {}", m.to_uci(), position.to_fen()))?;
    };
    driver.machine.assert_no_violations()?;
    let result = match outcome.and_then(|outcome| outcome.winner()) {
        None => GameResult::Draw,
        Some(winner) if winner == job.engine_color => GameResult::Win,
        Some(_) => GameResult::Loss,
    };
    Ok(Played {
        result,
        outcome,
        plies: driver.model.moves().len(),
        thinks: driver.thinks,
    })
}
