//! The SM83 engine in the emulator, asked through the test driver's WRAM mailbox.
//!
//! build/test.gb (`cargo xtask rom --test-driver`: the engine and asm/test/, no game)
//! boots to `TestDriverIdle`. Each query writes a position, a history of moves to play
//! from it and a command into the mailbox by `.sym` label, calls `TestRunCommand`, and
//! reads the answer back. The contract, byte by byte, is the mailbox section of
//! asm/test/driver.asm (summed up by the encoders below): squares a1 = 0 ... e6 = 29;
//! pieces 1-6 for White's pawn to king, plus 8 for Black's; moves as (from, to, promotion
//! role or 0).
//!
//! A history makes up the game that threefold repetition and the fifty-move counter
//! look at: the loaded position is its first position, so a game is sent as its start
//! position and every move played since.
//!
//! The driver's codes (commands, statuses, verdicts), limits and sizes are the ROM's:
//! it exports each as a constant, and [`RomEngine::boot`] reads them by name from the
//! `.sym` ([`read_contract`]) and fails, naming the constant, on one this side does not
//! know or expects otherwise. A new command is a `TEST_*` constant at the end of the
//! driver's list and a variant at the end of [`DriverCommand`].

use std::fmt;

use anyhow::{bail, Context, Result};
use engine_src::search::{self, line_key, Limits, LimitsError, SearchResult};
use engine_src::zobrist::{cartridge_bits, CARTRIDGE_KEY_BITS};
use engine_src::{Color, Game, Move, Outcome, Position, Role, Square};

use crate::harness::{Location, Machine, Symbols, CYCLES_PER_SECOND};
use crate::project;
use crate::rom;

/// Machine cycles the driver may take to initialise.
const BOOT_BUDGET: u64 = 10 * CYCLES_PER_SECOND;
/// Every command may take this long, plus the allowances below, before it counts as hung.
const COMMAND_BUDGET: u64 = 10 * CYCLES_PER_SECOND;
/// Allowance per history move (loading, checking and playing it).
const HISTORY_MOVE_BUDGET: u64 = 200_000;
/// Allowance per node of the perft tree (as the reference model counts it).
const PERFT_NODE_BUDGET: u64 = 100_000;
/// Allowance per node of a search (as the reference model counts them).
const SEARCH_NODE_BUDGET: u64 = 50_000;

/// Declares an enum of codes of the test driver: each variant stands for the constant the
/// ROM exports under the name given, the variants in the order of the constants' values
/// from 0, and the last name is the constant that counts them (the ROM's `const_value`
/// after the list). [`read_contract`] checks the ROM agrees, so `code as u8` is
/// the ROM's code.
macro_rules! driver_codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal, counted by $count:literal) {
            $($(#[$variant_meta:meta])* $variant:ident = $constant:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            /// Every code, in the order of their values.
            pub const ALL: [$name; [$($constant),+].len()] = [$($name::$variant),+];
        }

        impl DriverCodes for $name {
            const WHAT: &'static str = $what;
            const COUNT_CONSTANT: &'static str = $count;

            fn all() -> &'static [$name] {
                &$name::ALL
            }

            fn constant(self) -> &'static str {
                match self {
                    $($name::$variant => $constant,)+
                }
            }
        }
    };
}

/// An enum made by `driver_codes!`.
trait DriverCodes: Copy + fmt::Debug + 'static {
    /// What the codes are, in the plural: `commands`.
    const WHAT: &'static str;
    /// The ROM's constant that counts them.
    const COUNT_CONSTANT: &'static str;
    fn all() -> &'static [Self];
    /// The ROM's constant this code stands for.
    fn constant(self) -> &'static str;
}

driver_codes! {
    /// The driver's commands (`wTestCommand`); TEST_LOAD (load and play the history only)
    /// serves the driver's own tests.
    pub enum DriverCommand ("commands", counted by "TEST_COMMAND_COUNT") {
        Load = "TEST_LOAD",
        Perft = "TEST_PERFT",
        LegalMoves = "TEST_LEGAL_MOVES",
        Search = "TEST_SEARCH",
    }
}

driver_codes! {
    /// How a command ended (`wTestStatus`).
    enum DriverStatus ("statuses", counted by "TEST_STATUS_COUNT") {
        Ok = "TEST_STATUS_OK",
        /// A move of the history was not legal.
        IllegalHistory = "TEST_STATUS_ILLEGAL_HISTORY",
        /// GenerateMoves was to write a list where MAX_MOVES moves do not fit.
        MoveStackOverflow = "TEST_STATUS_MOVE_STACK_OVERFLOW",
        /// MakeMove found every undo record in use.
        UndoStackOverflow = "TEST_STATUS_UNDO_STACK_OVERFLOW",
    }
}

/// The limits of the test ROM's mailbox and engine, as it exports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverLimits {
    /// `MAX_TEST_HISTORY`: the most history moves the mailbox holds.
    pub max_history: usize,
    /// `MAX_MOVES`: the most moves the engine lists in one position.
    pub max_moves: usize,
    /// `TEST_MAX_PERFT_DEPTH`: the deepest perft the driver counts.
    pub max_perft_depth: u32,
    /// `MAX_PLIES`: the undo records MakeMove may fill.
    pub max_plies: usize,
    /// `MAX_SEARCH_DEPTH`: the deepest iteration the search is asked for.
    pub max_search_depth: u8,
    /// `MAX_SEARCH_PLY`: the longest principal variation.
    pub max_search_ply: usize,
}

/// Reads the test ROM's limits from its `.sym`, after checking that it exports every code
/// of [`DriverCommand`], [`DriverStatus`] and [`Verdict`] as this side numbers them, and
/// the mailbox formats this side writes: the first difference is the error, naming the
/// constant.
pub fn read_contract(symbols: &Symbols) -> Result<DriverLimits> {
    check_codes::<DriverCommand>(symbols)?;
    check_codes::<DriverStatus>(symbols)?;
    check_codes::<Verdict>(symbols)?;
    let mut formats = vec![
        ("NUM_SQUARES", NUM_SQUARES, "squares".to_string()),
        (
            "TEST_MOVE_SIZE",
            RomMove::SIZE,
            "bytes a move (from, to, promotion)".to_string(),
        ),
        (
            "TEST_NODES_SIZE",
            NODES_SIZE,
            "bytes a perft count".to_string(),
        ),
        (
            "GAME_KEY_SIZE",
            KEY_SIZE,
            "bytes a key (the low 32 bits of the model's)".to_string(),
        ),
        (
            "TEST_NO_EP_SQUARE",
            usize::from(NO_EP_SQUARE),
            "for no en-passant square".to_string(),
        ),
        (
            "CASTLE_WHITE",
            usize::from(CASTLE_WHITE),
            "for White's castling right".to_string(),
        ),
        (
            "CASTLE_BLACK",
            usize::from(CASTLE_BLACK),
            "for Black's castling right".to_string(),
        ),
        (
            "SETUP_BLACK",
            usize::from(SETUP_BLACK),
            "more for a Black piece".to_string(),
        ),
    ];
    for color in Color::ALL {
        formats.push((
            COLOR_CONSTANTS[color.index()],
            color.index(),
            format!("for {color:?} to move"),
        ));
    }
    for role in Role::ALL {
        formats.push((
            SETUP_ROLE_CONSTANTS[role.index()],
            usize::from(piece_byte(Color::White, role)),
            format!("for a White {role:?}"),
        ));
    }
    for (name, ours, meaning) in formats {
        let theirs = symbols.exported(name)?;
        if theirs as usize != ours {
            bail!("{name} is {theirs} in the test ROM, the driver's Rust side writes {ours} {meaning}");
        }
    }
    Ok(DriverLimits {
        max_history: symbols.exported("MAX_TEST_HISTORY")? as usize,
        max_moves: symbols.exported("MAX_MOVES")? as usize,
        max_perft_depth: symbols.exported("TEST_MAX_PERFT_DEPTH")?,
        max_plies: symbols.exported("MAX_PLIES")? as usize,
        max_search_depth: symbols.exported("MAX_SEARCH_DEPTH")? as u8,
        max_search_ply: symbols.exported("MAX_SEARCH_PLY")? as usize,
    })
}

/// Checks that the ROM exports a constant for every code of `C`, each with the value of
/// its place in `C`, and no code more.
fn check_codes<C: DriverCodes>(symbols: &Symbols) -> Result<()> {
    let known = C::all();
    let what = C::WHAT;
    let last = known.len() - 1;
    for (index, &code) in known.iter().enumerate() {
        let name = code.constant();
        let value = symbols.exported(name)? as usize;
        if value > last {
            bail!(
                "{name} is {value} in the test ROM, the driver's Rust side knows {what} 0-{last}"
            );
        }
        if value != index {
            bail!(
                "{name} is {value} in the test ROM, the driver's Rust side has it as {index} \
                 ({code:?}): list the {what} in the same order on both sides"
            );
        }
    }
    let count = symbols.exported(C::COUNT_CONSTANT)? as usize;
    if count != known.len() {
        let names: Vec<&str> = known.iter().map(|code| code.constant()).collect();
        bail!(
            "the test ROM has {count} {what} ({}), the driver's Rust side knows {}: {}",
            C::COUNT_CONSTANT,
            known.len(),
            names.join(", ")
        );
    }
    Ok(())
}

/// The squares of the board, a1 first, as the mailbox holds them.
const NUM_SQUARES: usize = Square::COUNT;
/// The bytes of a perft count (32 bits, little-endian).
const NODES_SIZE: usize = 4;
/// The bytes of a Zobrist key (`wZobristKey`, a key of `wGameKeys`): the cartridge keeps
/// the low [`CARTRIDGE_KEY_BITS`] of the model's ([`cartridge_bits`]).
const KEY_SIZE: usize = CARTRIDGE_KEY_BITS as usize / 8;
/// `wTestEpSquare` when there is no en-passant square.
const NO_EP_SQUARE: u8 = 0xFF;
/// The bits of `wTestCastling`.
const CASTLE_WHITE: u8 = 1;
const CASTLE_BLACK: u8 = 2;
/// What a Black piece's byte adds to the White one's.
const SETUP_BLACK: u8 = 8;
/// The ROM's side constants, in the order of [`Color::ALL`].
const COLOR_CONSTANTS: [&str; 2] = ["COLOR_WHITE", "COLOR_BLACK"];
/// The ROM's piece byte constants, in the order of [`Role::ALL`].
const SETUP_ROLE_CONSTANTS: [&str; 6] = [
    "SETUP_PAWN",
    "SETUP_KNIGHT",
    "SETUP_BISHOP",
    "SETUP_ROOK",
    "SETUP_QUEEN",
    "SETUP_KING",
];

/// A position as the mailbox holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxPosition {
    /// `wTestBoard`: a piece byte per square, a1 first.
    pub board: [u8; NUM_SQUARES],
    /// `wTestSide`: 0 White to move, 1 Black.
    pub side: u8,
    /// `wTestCastling`: bit 0 White may still castle, bit 1 Black.
    pub castling: u8,
    /// `wTestEpSquare`: where a pawn capturing en passant lands, or [`NO_EP_SQUARE`].
    pub ep_square: u8,
    /// `wTestHalfmove`: plies since the last capture or pawn move (at most 255).
    pub halfmove: u8,
}

impl MailboxPosition {
    pub fn of(position: &Position) -> MailboxPosition {
        let mut board = [0; NUM_SQUARES];
        for (square, piece) in position.board().pieces() {
            board[square.index()] = piece_byte(piece.color, piece.role);
        }
        let castling = position.castling_rights();
        MailboxPosition {
            board,
            side: position.turn().index() as u8,
            castling: if castling[Color::White] {
                CASTLE_WHITE
            } else {
                0
            } | if castling[Color::Black] {
                CASTLE_BLACK
            } else {
                0
            },
            ep_square: position
                .ep_square()
                .map_or(NO_EP_SQUARE, |square| square.index() as u8),
            // Past 100 the count only has to stay at or above 100 for the fifty-move rule.
            halfmove: position.halfmove_clock().min(255) as u8,
        }
    }
}

/// The mailbox's piece byte: 1 pawn ... 6 king, plus [`SETUP_BLACK`] for Black.
pub fn piece_byte(color: Color, role: Role) -> u8 {
    role.index() as u8 + 1 + SETUP_BLACK * color.index() as u8
}

/// A move as the mailbox holds it: what the ROM lists and what a history plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RomMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl RomMove {
    /// The bytes of a move in the mailbox.
    pub const SIZE: usize = 3;

    pub fn of(m: &Move) -> RomMove {
        RomMove {
            from: m.from,
            to: m.to,
            promotion: m.promotion,
        }
    }

    /// The three mailbox bytes: from, to, promotion (0, or 2 knight ... 5 queen).
    pub fn encode(&self) -> [u8; RomMove::SIZE] {
        [
            self.from.index() as u8,
            self.to.index() as u8,
            self.promotion.map_or(0, |role| role.index() as u8 + 1),
        ]
    }

    /// Reads three mailbox bytes; fails on a square or promotion that cannot be.
    pub fn decode(bytes: [u8; RomMove::SIZE]) -> Result<RomMove> {
        let square = |byte: u8| {
            Square::new(u32::from(byte)).with_context(|| {
                format!("the ROM listed the move {bytes:02X?}: square ${byte:02X} is off the board")
            })
        };
        let promotion = match bytes[2] {
            0 => None,
            byte @ 2..=5 => Some(Role::ALL[usize::from(byte) - 1]),
            byte => {
                bail!("the ROM listed the move {bytes:02X?}: promotion ${byte:02X} is not 0 or 2-5")
            }
        };
        Ok(RomMove {
            from: square(bytes[0])?,
            to: square(bytes[1])?,
            promotion,
        })
    }

    /// The model's legal move that this is, if any.
    pub fn find_in(&self, position: &Position) -> Option<Move> {
        position
            .legal_moves()
            .iter()
            .find(|m| RomMove::of(m) == *self)
            .copied()
    }
}

/// UCI, as the model writes moves: `b2b3`, `e1c1`, `b5b6q`.
impl fmt::Display for RomMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion {
            Some(role) => write!(f, "{}", role.char()),
            None => Ok(()),
        }
    }
}

driver_codes! {
    /// How the game stands (`wTestVerdict`, the VERDICT_* of asm/engine/gameend.asm), in
    /// the precedence of engine-src's `Game::outcome`.
    pub enum Verdict ("verdicts", counted by "VERDICT_COUNT") {
        GoesOn = "VERDICT_ONGOING",
        Checkmate = "VERDICT_CHECKMATE",
        Stalemate = "VERDICT_STALEMATE",
        InsufficientMaterial = "VERDICT_INSUFFICIENT_MATERIAL",
        FiftyMoves = "VERDICT_FIFTY_MOVES",
        Repetition = "VERDICT_REPETITION",
    }
}

impl Verdict {
    pub fn from_byte(byte: u8) -> Result<Verdict> {
        Verdict::ALL
            .get(usize::from(byte))
            .copied()
            .with_context(|| {
                format!(
                    "the ROM's verdict is {byte}, which is not 0-{}",
                    Verdict::ALL.len() - 1
                )
            })
    }

    /// The model's verdict on a game.
    pub fn of_game(game: &Game) -> Verdict {
        match game.outcome() {
            None => Verdict::GoesOn,
            Some(Outcome::Checkmate { .. }) => Verdict::Checkmate,
            Some(Outcome::Stalemate) => Verdict::Stalemate,
            Some(Outcome::InsufficientMaterial) => Verdict::InsufficientMaterial,
            Some(Outcome::FiftyMoves) => Verdict::FiftyMoves,
            Some(Outcome::ThreefoldRepetition) => Verdict::Repetition,
            // Decided by the players, never by the moves.
            Some(Outcome::Timeout { .. } | Outcome::Resignation { .. } | Outcome::Agreement) => {
                Verdict::GoesOn
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::GoesOn => "game goes on",
            Verdict::Checkmate => "checkmate",
            Verdict::Stalemate => "stalemate",
            Verdict::InsufficientMaterial => "insufficient material",
            Verdict::FiftyMoves => "fifty-move rule",
            Verdict::Repetition => "threefold repetition",
        }
    }
}

/// `checkmate (1)`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), *self as u8)
    }
}

/// The ROM's answer to TEST_LEGAL_MOVES.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMoves {
    /// In the ROM's order.
    pub moves: Vec<RomMove>,
    pub verdict: Verdict,
    pub in_check: bool,
    /// `Evaluate`: the score for the side to move, from the score MakeMove kept up to
    /// date through the history (the model's `eval::evaluate`).
    pub evaluation: i16,
    /// `hMatingMaterial` says neither side can mate (`Position::is_insufficient_material`).
    pub insufficient_material: bool,
    /// `GenerateQuiescenceMoves`, in the ROM's order (the legal moves for which
    /// `Move::is_quiescence` holds).
    pub quiescence: Vec<RomMove>,
    /// The Zobrist keys after the history.
    pub keys: RomKeys,
}

/// The cartridge's Zobrist keys of a position and of its game (asm/engine/zobrist.asm),
/// each the low [`CARTRIDGE_KEY_BITS`] of one of the model's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RomKeys {
    /// `wZobristKey`, the key MakeMove keeps and the search compares: the model's
    /// [`line_key`] (its game key, with the en-passant file also right after a double
    /// step beside an enemy pawn that cannot take).
    pub line: u32,
    /// The game's history (`wGameKeys`, oldest first, made by GameKey in
    /// asm/engine/gameend.asm), which repetitions are counted in, by the game's verdict
    /// and by the search: the game key (the model's [`Position::cartridge_key`]) of
    /// every position since the last capture or pawn move (or since the start), the
    /// current position's last.
    pub history: Vec<u32>,
}

impl RomKeys {
    /// The model's keys of the position `game` has reached and of the positions before
    /// it, as the ROM keeps them after loading `game`'s start and playing its moves.
    /// (The ROM keeps at most MAX_GAME_KEYS, 104, game keys; a game keeps fewer, 101 at
    /// most: 100 plies without a capture or pawn move end it.)
    pub fn of_game(game: &Game) -> RomKeys {
        let position = game.position();
        let line = match game.moves().split_last() {
            None => position.cartridge_key(),
            Some((last, earlier)) => {
                let mut before = *game.start();
                for m in earlier {
                    before.play_unchecked(m);
                }
                cartridge_bits(line_key(&before, last, position))
            }
        };
        // `keys()[i]` is the key after `i` moves: those from the last capture or pawn
        // move on, which PlayGameMove starts the history anew at.
        let first = game
            .moves()
            .iter()
            .rposition(|m| m.is_capture() || m.role == Role::Pawn)
            .map_or(0, |index| index + 1);
        RomKeys {
            line,
            history: game.keys()[first..]
                .iter()
                .map(|&key| cartridge_bits(key))
                .collect(),
        }
    }

    /// The current position's game key: the history's last (`None` when it is empty).
    pub fn game(&self) -> Option<u32> {
        self.history.last().copied()
    }
}

/// `line $84747464, game $84747464`, with `(and 3 earlier game keys)` after it when the
/// history holds more than the current position's.
impl fmt::Display for RomKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line ${:08X}, game ", self.line)?;
        match self.game() {
            Some(game) => write!(f, "${game:08X}")?,
            None => write!(f, "(none)")?,
        }
        match self.history.len() {
            0 | 1 => Ok(()),
            2 => write!(f, " (and 1 earlier game key)"),
            n => write!(f, " (and {} earlier game keys)", n - 1),
        }
    }
}

/// The ROM's answer to TEST_SEARCH (SearchBestMove, asm/engine/search.asm).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchAnswer {
    /// The move chosen.
    pub best: RomMove,
    /// Its score for the side to move, in centipawns.
    pub score: i16,
    /// Every node searched.
    pub nodes: u64,
    /// The principal variation of the last finished iteration (empty when none did).
    pub pv: Vec<RomMove>,
    /// The last finished iteration, 0 when none did.
    pub depth: u8,
}

impl SearchAnswer {
    /// The model's result in the same terms; `None` when the model has no move.
    pub fn of_model(result: &SearchResult) -> Option<SearchAnswer> {
        Some(SearchAnswer {
            best: RomMove::of(result.best.as_ref()?),
            score: result.score,
            nodes: result.nodes,
            pv: result.pv.iter().map(RomMove::of).collect(),
            depth: result.depth,
        })
    }
}

/// `b1c3 12 nodes 88 depth 2 pv b1c3 b6c4`.
impl fmt::Display for SearchAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pv: Vec<String> = self.pv.iter().map(RomMove::to_string).collect();
        write!(
            f,
            "{} score {} nodes {} depth {} pv {}",
            self.best,
            self.score,
            self.nodes,
            self.depth,
            if pv.is_empty() {
                "(none)".to_string()
            } else {
                pv.join(" ")
            }
        )
    }
}

/// A search the ROM is not asked for: xtask refuses it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchRefused {
    /// The depth or the budget is out of range (the model's [`Limits::check`]).
    Limits(LimitsError),
    /// The budget does not fit the mailbox's 32 bits (and is not "no budget").
    Budget(u64),
    /// A move of the history is not legal where it is played (1-based).
    IllegalHistory { ply: usize, played: RomMove },
    /// The position has no legal move: nothing to search.
    NoMove(Verdict),
}

impl fmt::Display for SearchRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchRefused::Limits(error) => write!(f, "{error}"),
            SearchRefused::Budget(nodes) => write!(
                f,
                "a node budget of {nodes} does not fit the ROM's 32 bits: at most {}",
                u32::MAX - 1
            ),
            SearchRefused::IllegalHistory { ply, played } => {
                write!(f, "history move {ply} ({played}) is not legal there")
            }
            SearchRefused::NoMove(verdict) => write!(
                f,
                "the position has no legal move ({}): there is nothing to search",
                verdict.name()
            ),
        }
    }
}

impl std::error::Error for SearchRefused {}

/// The game `history` leads to from `start`, and what a search of it would be refused for.
pub fn search_game(
    start: &Position,
    history: &[RomMove],
    limits: Limits,
) -> Result<Game, SearchRefused> {
    limits.check().map_err(SearchRefused::Limits)?;
    if limits.nodes != u64::MAX && limits.nodes >= u64::from(u32::MAX) {
        return Err(SearchRefused::Budget(limits.nodes));
    }
    let mut game = Game::new(*start);
    for (index, played) in history.iter().enumerate() {
        let Some(m) = played.find_in(game.position()) else {
            return Err(SearchRefused::IllegalHistory {
                ply: index + 1,
                played: *played,
            });
        };
        game.play(m).map_err(|_| SearchRefused::IllegalHistory {
            ply: index + 1,
            played: *played,
        })?;
    }
    if game.position().legal_moves().is_empty() {
        return Err(SearchRefused::NoMove(Verdict::of_game(&game)));
    }
    Ok(game)
}

/// The model's legal move that the engine's move bytes (from square, to byte, as
/// MakeMove takes them: asm/engine/engine.inc) stand for, if any.
fn engine_move(position: &Position, from: u8, to: u8) -> Option<Move> {
    let square = |byte: u8| {
        let (row, file) = (byte >> 4, byte & 0x0F);
        if !(2..8).contains(&row) || file >= 5 {
            return None;
        }
        Square::new(u32::from(row - 2) * 5 + u32::from(file))
    };
    let (from, to_square) = (square(from)?, square(to & 0x77)?);
    let promotion = match to & 0x88 {
        0x00 => None,
        0x08 => Some(Role::Rook),
        0x80 => Some(Role::Bishop),
        _ => Some(Role::Knight),
    };
    position.legal_moves().iter().copied().find(|m| {
        m.from == from
            && m.to == to_square
            && match promotion {
                Some(role) => m.promotion == Some(role),
                None => matches!(m.promotion, None | Some(Role::Queen)),
            }
    })
}

/// The engine's bytes of `m` (from square, to byte, as MakeMove takes them and the
/// search stores them: asm/engine/engine.inc), which [`engine_move`] reads back: a square
/// is its row (2 for rank 1 ... 7 for rank 6) times 16 plus its file, and the to byte
/// carries an under-promotion in bits 3 and 7 (a queen's is the plain move).
pub fn engine_move_bytes(m: &Move) -> [u8; 2] {
    let square = |square: Square| {
        let index = square.index() as u8;
        ((index / 5 + 2) << 4) | (index % 5)
    };
    let promotion = match m.promotion {
        Some(Role::Rook) => 0x08,
        Some(Role::Bishop) => 0x80,
        Some(Role::Knight) => 0x88,
        _ => 0x00,
    };
    [square(m.from), square(m.to) | promotion]
}

/// The driver refused a move of the history as illegal (TEST_STATUS_ILLEGAL_HISTORY).
#[derive(Debug)]
pub struct HistoryRefused;

impl fmt::Display for HistoryRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the ROM refused a move of the history as illegal")
    }
}

impl std::error::Error for HistoryRefused {}

/// The test ROM running in the emulator, between queries at `TestDriverIdle`.
pub struct RomEngine {
    machine: Machine,
    limits: DriverLimits,
    /// Machine cycles of every command so far.
    cycles: u64,
}

impl RomEngine {
    /// Builds build/test.gb from asm/ (as `cargo xtask rom --test-driver`) and boots it.
    pub fn build_and_boot() -> Result<RomEngine> {
        let root = project::root();
        let units = rom::test_driver_units(&root)?;
        let build = rom::build(
            &units,
            rom::TEST_DRIVER_DEFINES,
            &root.join(rom::TEST_ROM_PATH),
        )?;
        RomEngine::boot(&build.rom, &build.sym)
            .with_context(|| format!("booting {}", rom::TEST_ROM_PATH))
    }

    /// The test ROM built in memory (once per process) and booted: for tests, which
    /// write nothing.
    #[cfg(test)]
    pub fn for_tests() -> RomEngine {
        let (rom, sym) = test_build();
        RomEngine::boot(rom, sym).unwrap_or_else(|error| panic!("{error:#}"))
    }

    /// Boots a test ROM and runs it until its driver waits for queries; fails first if
    /// its `.sym` does not export the codes, limits and sizes this side knows
    /// ([`read_contract`]).
    pub fn boot(rom: &[u8], sym: &str) -> Result<RomEngine> {
        let mut machine = Machine::new(rom)?
            .with_symbols(sym)?
            .without_access_checks();
        let limits = read_contract(machine.symbols())?;
        machine.run_until("TestDriverIdle", BOOT_BUDGET)?;
        Ok(RomEngine {
            machine,
            limits,
            cycles: 0,
        })
    }

    /// Machine cycles the commands have taken so far (`TestRunCommand` from call to
    /// return: loading, the history, the command).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The deepest perft the test driver counts (its exported `TEST_MAX_PERFT_DEPTH`).
    pub fn max_perft_depth(&self) -> u32 {
        self.limits.max_perft_depth
    }

    /// The most history moves a query may have (its exported `MAX_TEST_HISTORY`).
    pub fn max_history(&self) -> usize {
        self.limits.max_history
    }

    /// The emulator, e.g. to profile routines while a command runs.
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    /// The number of leaves `depth` plies below the position `history` leads to from
    /// `start`.
    pub fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64> {
        let max_depth = self.limits.max_perft_depth;
        if depth > max_depth {
            bail!("the ROM engine counts perft to depth {max_depth} at most, not {depth}");
        }
        self.write_query(start, history)?;
        self.machine.write_u8("wTestDepth", depth as u8)?;
        let budget = COMMAND_BUDGET
            + HISTORY_MOVE_BUDGET * history.len() as u64
            + PERFT_NODE_BUDGET * model_tree_size(start, history, depth);
        self.run(DriverCommand::Perft, budget)?;
        let bytes = self.machine.read("wTestNodes", NODES_SIZE)?;
        Ok(u64::from(u32::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3],
        ])))
    }

    /// The legal moves, the quiescence moves, the verdict, whether the side to move is in
    /// check, the evaluation and whether the material is insufficient, in the position
    /// `history` leads to from `start`.
    pub fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves> {
        self.write_query(start, history)?;
        self.run(
            DriverCommand::LegalMoves,
            COMMAND_BUDGET + HISTORY_MOVE_BUDGET * history.len() as u64,
        )?;
        Ok(LegalMoves {
            moves: self.read_moves("wTestMoveCount", "wTestMoves", "moves")?,
            quiescence: self.read_moves(
                "wTestQuiescenceCount",
                "wTestQuiescenceMoves",
                "quiescence moves",
            )?,
            verdict: Verdict::from_byte(self.machine.read_u8("wTestVerdict")?)?,
            in_check: match self.machine.read_u8("wTestInCheck")? {
                0 => false,
                1 => true,
                byte => bail!("the ROM's in-check flag is {byte}, which is not 0 or 1"),
            },
            evaluation: self.machine.read_u16("wTestEvaluation")? as i16,
            insufficient_material: match self.machine.read_u8("wTestInsufficient")? {
                0 => false,
                1 => true,
                byte => {
                    bail!("the ROM's insufficient-material flag is {byte}, which is not 0 or 1")
                }
            },
            keys: self.keys()?,
        })
    }

    /// The Zobrist keys of the position the last query loaded and played its history to
    /// (every command leaves them as it found them): `wZobristKey` and the game's
    /// history, `wGameKeyCount` keys of `wGameKeys`.
    pub fn keys(&self) -> Result<RomKeys> {
        let machine = &self.machine;
        let key = |bytes: &[u8]| {
            let mut word = [0; 4];
            word.copy_from_slice(bytes);
            u32::from_le_bytes(word)
        };
        let line = key(&machine.read("wZobristKey", KEY_SIZE)?);
        let count = usize::from(machine.read_u8("wGameKeyCount")?);
        if count == 0 {
            bail!("the ROM's game history (wGameKeyCount) is empty after a query");
        }
        let history = machine
            .read("wGameKeys", count * KEY_SIZE)?
            .chunks_exact(KEY_SIZE)
            .map(key)
            .collect();
        Ok(RomKeys { line, history })
    }

    /// The bytes of the search's transposition table (`wTranspositionTable`, its exported
    /// `TABLE_SIZE`), as the last search left it, an empty entry (its depth 0) as all
    /// zeros: SearchBestMove empties an entry by its depth alone, and the rest of it may
    /// be an earlier search's.
    pub fn table(&self) -> Result<Vec<u8>> {
        let symbols = self.machine.symbols();
        let size = symbols.exported_as::<usize>("TABLE_SIZE")?;
        let entry_size = symbols.exported_as::<usize>("TABLE_ENTRY_SIZE")?;
        let depth = symbols.exported_as::<usize>("TABLE_ENTRY_DEPTH")?;
        let mut bytes = self.machine.read("wTranspositionTable", size)?;
        for entry in bytes.chunks_exact_mut(entry_size) {
            if entry[depth] == 0 {
                entry.fill(0);
            }
        }
        Ok(bytes)
    }

    /// SearchBestMove on the position `history` leads to from `start`, to depth
    /// `limits.depth` within `limits.nodes` nodes (`u64::MAX`: no budget). Refused, with
    /// a [`SearchRefused`] and before the ROM is asked, when the model refuses the limits,
    /// the budget does not fit 32 bits, the history is not legal or the position has no
    /// legal move.
    pub fn search(
        &mut self,
        start: &Position,
        history: &[RomMove],
        limits: Limits,
    ) -> Result<SearchAnswer> {
        self.search_with(start, history, limits, |_, _| {})
    }

    /// [`RomEngine::search`], calling `hook` with the machine and the machine cycles
    /// since the command began after each instruction (to set `hSearchStop`, say).
    pub fn search_with(
        &mut self,
        start: &Position,
        history: &[RomMove],
        limits: Limits,
        hook: impl FnMut(&mut Machine, u64),
    ) -> Result<SearchAnswer> {
        let game = search_game(start, history, limits)?;
        if limits.depth > self.limits.max_search_depth {
            bail!(
                "the ROM searches to depth {} at most, not {}",
                self.limits.max_search_depth,
                limits.depth
            );
        }
        self.write_query(start, history)?;
        let budget = if limits.nodes == u64::MAX {
            u32::MAX
        } else {
            limits.nodes as u32
        };
        self.machine.write_u8("wTestDepth", limits.depth)?;
        self.machine
            .write_u8("wTestCheckPlies", limits.check_plies)?;
        self.machine
            .write_u8("wTestReduceDepth", limits.reduce_depth)?;
        self.machine
            .write("wTestNodeBudget", &budget.to_le_bytes())?;
        let nodes = search::search(&game, limits).nodes;
        let cycles = COMMAND_BUDGET
            + HISTORY_MOVE_BUDGET * history.len() as u64
            + SEARCH_NODE_BUDGET * nodes;
        self.run_with(DriverCommand::Search, cycles, hook)?;
        let machine = &self.machine;
        let read_move = |label: &str| -> Result<RomMove> {
            let bytes = machine.read(label, RomMove::SIZE)?;
            RomMove::decode([bytes[0], bytes[1], bytes[2]])
        };
        let best = read_move("wTestSearchMove")?;
        let nodes = machine.read("wTestNodes", NODES_SIZE)?;
        let length = usize::from(machine.read_u8("wTestPvLength")?);
        if length > self.limits.max_search_ply {
            bail!(
                "the ROM's principal variation has {length} moves, more than MAX_SEARCH_PLY ({})",
                self.limits.max_search_ply
            );
        }
        let bytes = machine.read("wTestPv", RomMove::SIZE * length)?;
        let pv = bytes
            .chunks_exact(RomMove::SIZE)
            .map(|chunk| RomMove::decode([chunk[0], chunk[1], chunk[2]]))
            .collect::<Result<Vec<_>>>()?;
        Ok(SearchAnswer {
            best,
            score: machine.read_u16("wTestSearchScore")? as i16,
            nodes: u64::from(u32::from_le_bytes([nodes[0], nodes[1], nodes[2], nodes[3]])),
            pv,
            depth: machine.read_u8("wTestSearchDepthDone")?,
        })
    }

    /// The line (the moves from the root) the ROM's search was at when its node budget
    /// stopped it, as the model's [`search::stopped_line`] gives it: read off the search's
    /// frames on the stack at `Search.budgetSpent`; `None` when the budget did not stop
    /// it.
    pub fn stopped_line(
        &mut self,
        start: &Position,
        history: &[RomMove],
        limits: Limits,
    ) -> Result<Option<Vec<Move>>> {
        let symbols = self.machine.symbols();
        let stop = symbols.address("Search.budgetSpent")?;
        let frame_size = u16::try_from(symbols.exported("SEARCH_FRAME_SIZE")?)?;
        let frame_next = u16::try_from(symbols.exported("SEARCH_FRAME_NEXT")?)?;
        let ply_address = symbols.address("hPly")?;
        let mut line: Option<Result<Vec<(u8, u8)>>> = None;
        self.search_with(start, history, limits, |machine, _| {
            if line.is_some() || machine.pc() != stop {
                return;
            }
            let read = || -> Result<Vec<(u8, u8)>> {
                let ply = u16::from(machine.read_u8(ply_address)?);
                let sp = machine.registers().sp;
                // The frame of the node at ply p is (ply - p) frames and return
                // addresses above this node's.
                (0..ply)
                    .map(|p| {
                        let frame = sp + (ply - p) * (frame_size + 2);
                        let next = machine.read_u16(frame + frame_next)?;
                        let bytes = machine.read(next.wrapping_sub(2), 2)?;
                        Ok((bytes[0], bytes[1]))
                    })
                    .collect()
            };
            line = Some(read());
        })?;
        let Some(line) = line else {
            return Ok(None);
        };
        let mut position = *search_game(start, history, limits)?.position();
        let mut moves = Vec::new();
        for (from, to) in line? {
            let m = engine_move(&position, from, to).with_context(|| {
                format!(
                    "the ROM's search line {} goes on with ${from:02X} ${to:02X}, which is \
                     not a legal move there",
                    moves.iter().map(Move::to_uci).collect::<Vec<_>>().join(" ")
                )
            })?;
            position.play_unchecked(&m);
            moves.push(m);
        }
        Ok(Some(moves))
    }

    /// A list of moves the driver wrote: its count at `count`, its moves at `moves`.
    fn read_moves(&self, count: &str, moves: &str, what: &str) -> Result<Vec<RomMove>> {
        let count = usize::from(self.machine.read_u8(count)?);
        if count > self.limits.max_moves {
            bail!(
                "the ROM listed {count} {what}, more than MAX_MOVES ({})",
                self.limits.max_moves
            );
        }
        let bytes = self.machine.read(moves, RomMove::SIZE * count)?;
        bytes
            .chunks_exact(RomMove::SIZE)
            .map(|chunk| RomMove::decode([chunk[0], chunk[1], chunk[2]]))
            .collect()
    }

    /// The book's move (BookMove, asm/engine/book.asm) in `position`, loaded as a game's
    /// start, as the game asks for it `ply` plies from the start with the game's `seed`:
    /// `None` when the ROM finds none.
    pub fn book_move(&mut self, position: &Position, ply: u8, seed: u8) -> Result<Option<Move>> {
        self.write_query(position, &[])?;
        self.run(DriverCommand::Load, COMMAND_BUDGET)?;
        let mut registers = self.machine.registers();
        registers.af = u16::from(ply) << 8;
        registers.bc = u16::from(seed) << 8;
        self.machine.set_registers(&registers);
        self.cycles += self
            .machine
            .call(Location::Label("BookMove"), COMMAND_BUDGET)?;
        let answer = self.machine.registers();
        // The carry flag, bit 4 of F.
        if answer.af & 0x10 == 0 {
            return Ok(None);
        }
        let [to, from] = answer.de.to_le_bytes();
        let square = |byte: u8| {
            crate::soak::cartridge::model_square(byte).with_context(|| {
                format!("BookMove answered the move ${from:02X} ${to:02X}: ${byte:02X} is off the board")
            })
        };
        let (from, to) = (square(from)?, square(to)?);
        position
            .legal_moves()
            .iter()
            .find(|m| m.from == from && m.to == to && m.promotion.is_none())
            .copied()
            .map(Some)
            .with_context(|| {
                format!(
                    "BookMove answered {from}{to}, not a legal move in {}",
                    position.to_fen()
                )
            })
    }

    fn write_query(&mut self, start: &Position, history: &[RomMove]) -> Result<()> {
        let max_history = self.limits.max_history;
        if history.len() > max_history {
            bail!(
                "the mailbox holds {max_history} history moves at most, not {}",
                history.len()
            );
        }
        let position = MailboxPosition::of(start);
        let machine = &mut self.machine;
        machine.write("wTestBoard", &position.board)?;
        machine.write_u8("wTestSide", position.side)?;
        machine.write_u8("wTestCastling", position.castling)?;
        machine.write_u8("wTestEpSquare", position.ep_square)?;
        machine.write_u8("wTestHalfmove", position.halfmove)?;
        machine.write_u8("wTestHistoryLength", history.len() as u8)?;
        let bytes: Vec<u8> = history.iter().flat_map(RomMove::encode).collect();
        machine.write("wTestHistory", &bytes)
    }

    fn run(&mut self, command: DriverCommand, budget: u64) -> Result<()> {
        self.run_with(command, budget, |_, _| {})
    }

    fn run_with(
        &mut self,
        command: DriverCommand,
        budget: u64,
        hook: impl FnMut(&mut Machine, u64),
    ) -> Result<()> {
        self.machine.write_u8("wTestCommand", command as u8)?;
        self.cycles += self
            .machine
            .call_with(Location::Label("TestRunCommand"), budget, hook)?;
        let byte = self.machine.read_u8("wTestStatus")?;
        let Some(&status) = DriverStatus::ALL.get(usize::from(byte)) else {
            bail!(
                "the test driver answered status {byte}, which is not 0-{}",
                DriverStatus::ALL.len() - 1
            );
        };
        match status {
            DriverStatus::Ok => Ok(()),
            DriverStatus::IllegalHistory => Err(HistoryRefused.into()),
            DriverStatus::MoveStackOverflow => bail!(
                // (the end named so: the transposition table's label shares its address)
                "the engine's move stack overflowed: GenerateMoves, called at {}, was to \
                 write a list at {}, where MAX_MOVES ({}) moves do not fit before ${:04X} \
                 (wMoveStackEnd)",
                self.trap_call_site()?,
                self.machine.describe(self.machine.read_u16("wTestTrapHL")?),
                self.limits.max_moves,
                self.machine.symbol("wMoveStackEnd")?,
            ),
            DriverStatus::UndoStackOverflow => bail!(
                "the engine's undo stack overflowed: MakeMove, called at {}, found all \
                 MAX_PLIES ({}) undo records in use",
                self.trap_call_site()?,
                self.limits.max_plies,
            ),
        }
    }

    /// Where the engine routine that stopped at a trap was called: the `call` before
    /// its return address.
    fn trap_call_site(&self) -> Result<String> {
        let return_address = self.machine.read_u16("wTestTrapReturn")?;
        Ok(self.machine.describe(return_address.wrapping_sub(3)))
    }
}

/// The test ROM and its `.sym`, built in memory once per process.
#[cfg(test)]
fn test_build() -> &'static (Vec<u8>, String) {
    static BUILD: std::sync::OnceLock<(Vec<u8>, String)> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        let units = rom::test_driver_units(&project::root()).expect("asm/ has sources");
        let build = rom::assemble_and_link(&units, rom::TEST_DRIVER_DEFINES, rom::TEST_ROM_PATH)
            .unwrap_or_else(|error| panic!("{error:#}"));
        (build.rom, build.sym)
    })
}

/// Nodes of the model's perft tree below the position `history` leads to (all of its
/// levels), which bounds the time the ROM may take. A history the model refuses counts
/// from `start` one level deeper.
fn model_tree_size(start: &Position, history: &[RomMove], depth: u32) -> u64 {
    let mut position = *start;
    let mut depth = depth;
    for m in history {
        match m.find_in(&position) {
            Some(m) => position.play_unchecked(&m),
            None => {
                position = *start;
                depth += 1;
                break;
            }
        }
    }
    (0..=depth)
        .map(|d| engine_src::perft::perft(&position, d))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_in_the_mailbox() {
        let mailbox = MailboxPosition::of(&Position::start());
        #[rustfmt::skip]
        let board = [
            4, 2, 3, 5, 6,
            1, 1, 1, 1, 1,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            9, 9, 9, 9, 9,
            12, 10, 11, 13, 14,
        ];
        assert_eq!(
            mailbox,
            MailboxPosition {
                board,
                side: 0,
                castling: 3,
                ep_square: 0xFF,
                halfmove: 0,
            }
        );
    }

    #[test]
    fn side_castling_en_passant_and_halfmove_clock_in_the_mailbox() {
        // Only Black may castle; the en-passant square is kept when a capture follows
        // a double step (b2-b4, then c4xb3), never otherwise.
        let position = Position::from_fen("r3k/5/1Pp2/5/5/4K b q - 7 20").unwrap();
        let mailbox = MailboxPosition::of(&position);
        assert_eq!(
            (mailbox.side, mailbox.castling, mailbox.ep_square),
            (1, 2, 0xFF)
        );
        let position = Position::from_fen("r3k/5/1Pp2/5/5/4K b q b3 0 20").unwrap();
        let mailbox = MailboxPosition::of(&position);
        assert_eq!(
            (
                mailbox.side,
                mailbox.castling,
                mailbox.ep_square,
                mailbox.halfmove
            ),
            (1, 2, Square::B3.index() as u8, 0)
        );
        assert_eq!(mailbox.board[Square::B4.index()], 1);
        assert_eq!(mailbox.board[Square::C4.index()], 9);
        assert_eq!(mailbox.board[Square::A6.index()], 12);
        let position = Position::from_fen("4k/5/5/5/5/K4 w - - 300 200").unwrap();
        assert_eq!(MailboxPosition::of(&position).halfmove, 255);
        let position = Position::from_fen("4k/5/5/5/5/K4 w - - 99 200").unwrap();
        assert_eq!(MailboxPosition::of(&position).halfmove, 99);
    }

    #[test]
    fn moves_round_trip_through_the_mailbox_bytes() {
        let position = Position::from_fen("4k/1P3/5/5/5/R3K w Q - 0 1").unwrap();
        let mut encoded: Vec<([u8; 3], String)> = position
            .legal_moves()
            .iter()
            .map(|m| (RomMove::of(m).encode(), m.to_uci()))
            .collect();
        encoded.sort();
        let castle = (Square::E1.index() as u8, Square::C1.index() as u8);
        assert!(encoded.contains(&([castle.0, castle.1, 0], "e1c1".to_string())));
        for (bytes, uci, promotion) in [
            ([21, 26, 5], "b5b6q", Role::Queen),
            ([21, 26, 4], "b5b6r", Role::Rook),
            ([21, 26, 3], "b5b6b", Role::Bishop),
            ([21, 26, 2], "b5b6n", Role::Knight),
        ] {
            assert!(encoded.contains(&(bytes, uci.to_string())), "{uci}");
            let decoded = RomMove::decode(bytes).unwrap();
            assert_eq!(decoded.promotion, Some(promotion));
            assert_eq!(decoded.to_string(), uci);
            assert_eq!(decoded.find_in(&position).unwrap().to_uci(), uci);
        }
        for (bytes, uci) in encoded {
            let decoded = RomMove::decode(bytes).unwrap();
            assert_eq!(decoded.to_string(), uci);
            assert_eq!(decoded.encode(), bytes);
        }
    }

    #[test]
    fn moves_round_trip_through_the_engines_bytes() {
        let position = Position::from_fen("4k/1P3/5/5/5/R3K w Q - 0 1").unwrap();
        let moves = position.legal_moves();
        for m in moves.iter() {
            let [from, to] = engine_move_bytes(m);
            assert_eq!(engine_move(&position, from, to), Some(*m), "{m}");
        }
        let bytes = |uci: &str| {
            let m = moves.iter().find(|m| m.to_uci() == uci).unwrap();
            engine_move_bytes(m)
        };
        // e1 is row 2, file 4; b6 row 7, file 1.
        assert_eq!(bytes("e1c1"), [0x24, 0x22]);
        assert_eq!(bytes("b5b6q"), [0x61, 0x71]);
        assert_eq!(bytes("b5b6r"), [0x61, 0x79]);
        assert_eq!(bytes("b5b6b"), [0x61, 0xF1]);
        assert_eq!(bytes("b5b6n"), [0x61, 0xF9]);
    }

    #[test]
    fn impossible_move_bytes_are_clear_errors() {
        assert_eq!(
            RomMove::decode([30, 1, 0]).unwrap_err().to_string(),
            "the ROM listed the move [1E, 01, 00]: square $1E is off the board"
        );
        assert_eq!(
            RomMove::decode([0, 1, 1]).unwrap_err().to_string(),
            "the ROM listed the move [00, 01, 01]: promotion $01 is not 0 or 2-5"
        );
        assert_eq!(
            Verdict::from_byte(6).unwrap_err().to_string(),
            "the ROM's verdict is 6, which is not 0-5"
        );
    }

    /// A perft of `depth` plies from `fen`, asked by writing the mailbox directly (past
    /// the depth [`RomEngine::perft`] allows): the error the harness reports.
    fn perft_error(fen: &str, depth: u8) -> String {
        let mut rom = RomEngine::for_tests();
        rom.write_query(&Position::from_fen(fen).unwrap(), &[])
            .unwrap();
        rom.machine.write_u8("wTestDepth", depth).unwrap();
        let error = rom
            .run(DriverCommand::Perft, 60 * CYCLES_PER_SECOND)
            .unwrap_err()
            .to_string();
        // The driver answers the next command as ever.
        let start = Position::start();
        assert_eq!(rom.perft(&start, &[], 3).unwrap(), 1734);
        error
    }

    #[test]
    fn the_test_rom_exports_its_limits() {
        let rom = RomEngine::for_tests();
        assert_eq!(
            rom.limits,
            DriverLimits {
                max_history: 200,
                max_moves: 128,
                max_perft_depth: 8,
                max_plies: 32,
                max_search_depth: 8,
                max_search_ply: 16,
            }
        );
        assert_eq!((rom.max_history(), rom.max_perft_depth()), (200, 8));
        let error = RomEngine::for_tests()
            .perft(&Position::start(), &[], 9)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "the ROM engine counts perft to depth 8 at most, not 9"
        );
    }

    /// `$1D50 (Perft+$0002)`: the address `offset` bytes after `label` in the test ROM,
    /// as the harness describes it.
    fn described(label: &str, offset: u16) -> String {
        let symbols = Symbols::parse(&test_build().1).unwrap();
        let addr = symbols.address(label).unwrap() + offset;
        let suffix = if offset == 0 {
            String::new()
        } else {
            format!("+${offset:04X}")
        };
        format!("${addr:04X} ({label}{suffix})")
    }

    #[test]
    fn a_perft_deeper_than_the_undo_stack_stops_at_the_trap() {
        // 33 moves deep down the first line: one more than the undo stack holds.
        let error = perft_error(engine_src::START_FEN, 40);
        assert_eq!(
            error,
            format!(
                "the engine's undo stack overflowed: MakeMove, called at {}, found all \
                 MAX_PLIES (32) undo records in use",
                described("Perft.play", 0x000B)
            )
        );
    }

    #[test]
    fn a_perft_with_longer_lists_than_the_move_stack_holds_stops_at_the_trap() {
        // White's 72 moves (eight queens and the king) and Black's few, ply after ply,
        // fill the move stack within 30 plies, before the undo stack is full.
        let error = perft_error("kr3/rb1Q1/Q3Q/2Q2/Q3Q/1Q1QK w - - 0 1", 30);
        assert_eq!(
            error,
            format!(
                "the engine's move stack overflowed: GenerateMoves, called at {}, was to \
                 write a list at {}, where MAX_MOVES (128) moves do not fit before {}",
                described("Perft", 0x0002),
                described("wMoveStack", 0x076C),
                described("wMoveStackEnd", 0)
            )
        );
    }

    /// The error of [`read_contract`] on the test ROM's `.sym` with the line
    /// `old` replaced by `new`.
    fn contract_error(old: &str, new: &str) -> String {
        let (_, sym) = test_build();
        assert!(sym.contains(&format!("\n{old}\n")), "{old}");
        let changed = sym.replace(&format!("\n{old}\n"), &format!("\n{new}\n"));
        let symbols = Symbols::parse(&changed).unwrap();
        read_contract(&symbols).unwrap_err().to_string()
    }

    #[test]
    fn a_rom_exporting_other_codes_or_sizes_fails_at_boot_naming_the_constant() {
        assert_eq!(
            contract_error("02 VERDICT_STALEMATE", ""),
            "the ROM exports no constant VERDICT_STALEMATE: EXPORT it where the assembly defines it"
        );
        assert_eq!(
            contract_error("01 TEST_PERFT", "04 TEST_PERFT"),
            "TEST_PERFT is 4 in the test ROM, the driver's Rust side knows commands 0-3"
        );
        assert_eq!(
            contract_error(
                "01 TEST_STATUS_ILLEGAL_HISTORY",
                "02 TEST_STATUS_ILLEGAL_HISTORY"
            ),
            "TEST_STATUS_ILLEGAL_HISTORY is 2 in the test ROM, the driver's Rust side has it \
             as 1 (IllegalHistory): list the statuses in the same order on both sides"
        );
        assert_eq!(
            contract_error("04 TEST_COMMAND_COUNT", "05 TEST_COMMAND_COUNT"),
            "the test ROM has 5 commands (TEST_COMMAND_COUNT), the driver's Rust side knows \
             4: TEST_LOAD, TEST_PERFT, TEST_LEGAL_MOVES, TEST_SEARCH"
        );
        assert_eq!(
            contract_error("03 TEST_MOVE_SIZE", "04 TEST_MOVE_SIZE"),
            "TEST_MOVE_SIZE is 4 in the test ROM, the driver's Rust side writes 3 bytes a \
             move (from, to, promotion)"
        );
        assert_eq!(
            contract_error("08 SETUP_BLACK", "10 SETUP_BLACK"),
            "SETUP_BLACK is 16 in the test ROM, the driver's Rust side writes 8 more for a \
             Black piece"
        );
        assert_eq!(
            contract_error("04 SETUP_ROOK", "05 SETUP_ROOK"),
            "SETUP_ROOK is 5 in the test ROM, the driver's Rust side writes 4 for a White Rook"
        );
        assert_eq!(
            contract_error("01 COLOR_BLACK", "02 COLOR_BLACK"),
            "COLOR_BLACK is 2 in the test ROM, the driver's Rust side writes 1 for Black to move"
        );
        assert_eq!(
            contract_error("c8 MAX_TEST_HISTORY", ""),
            "the ROM exports no constant MAX_TEST_HISTORY: EXPORT it where the assembly defines it"
        );
        // At boot, before the driver runs.
        let (rom, sym) = test_build();
        let error = RomEngine::boot(rom, &sym.replace("\n05 SETUP_QUEEN\n", "\n"))
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            error,
            "the ROM exports no constant SETUP_QUEEN: EXPORT it where the assembly defines it"
        );
    }

    #[test]
    fn the_model_verdicts_map_to_the_mailbox_bytes() {
        let mated = Game::new(Position::from_fen("k4/2K2/5/5/5/1R3 w - - 0 1").unwrap());
        assert_eq!(Verdict::of_game(&mated), Verdict::GoesOn);
        let mut mated = mated;
        mated
            .play(mated.position().parse_uci("b1a1").unwrap())
            .unwrap();
        assert_eq!(Verdict::of_game(&mated), Verdict::Checkmate);
        let bare = Game::new(Position::from_fen("k4/5/2K2/5/5/5 w - - 0 1").unwrap());
        assert_eq!(Verdict::of_game(&bare), Verdict::InsufficientMaterial);
        let fifty = Game::new(Position::from_fen("k4/2K2/5/5/5/1R3 w - - 100 80").unwrap());
        assert_eq!(Verdict::of_game(&fifty), Verdict::FiftyMoves);
        assert_eq!(Verdict::FiftyMoves.to_string(), "fifty-move rule (4)");
    }
}
