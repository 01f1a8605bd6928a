//! The SM83 engine in the emulator, asked through the test driver's WRAM mailbox.
//!
//! build/test.gb (`cargo xtask rom --test-driver`: the engine and asm/test/, no game)
//! boots to `TestDriverIdle`. Each query writes a position, a history of moves to play
//! from it and a command into the mailbox by `.sym` label, calls `TestRunCommand`, and
//! reads the answer back. The contract, byte by byte, is the mailbox section of
//! asm/test/driver.asm (summed up by the encoders below): squares a1 = 0 ... e6 = 29; pieces 1-6 for White's
//! pawn to king, plus 8 for Black's; moves as (from, to, promotion role or 0).
//!
//! A history makes up the game that threefold repetition and the fifty-move counter
//! look at: the loaded position is its first position, so a game is sent as its start
//! position and every move played since.

use std::fmt;

use anyhow::{bail, Context, Result};
use engine_src::{Color, Game, Move, Outcome, Position, Role, Square};

use crate::harness::{Location, Machine, CYCLES_PER_SECOND};
use crate::project;
use crate::rom;

/// The longest history the mailbox holds.
pub const MAX_HISTORY: usize = 200;

/// The deepest perft asked of the engine: its move stack (wMoveStack, 512 moves) holds the
/// legal-move lists of one path, 8 plies of 64 moves; a position with more (several
/// promoted queens) leaves less depth, which neither the driver nor this client checks.
pub const MAX_DEPTH: u32 = 8;

/// Machine cycles the driver may take to initialise.
const BOOT_BUDGET: u64 = 10 * CYCLES_PER_SECOND;
/// Every command may take this long, plus the allowances below, before it counts as hung.
const COMMAND_BUDGET: u64 = 10 * CYCLES_PER_SECOND;
/// Allowance per history move (loading, checking and playing it).
const HISTORY_MOVE_BUDGET: u64 = 200_000;
/// Allowance per node of the perft tree (as the reference model counts it).
const PERFT_NODE_BUDGET: u64 = 100_000;

/// The driver's commands (`wTestCommand`); its 0, TEST_LOAD (load and play the history
/// only), serves the driver's own tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Perft = 1,
    LegalMoves = 2,
}

/// A position as the mailbox holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailboxPosition {
    /// `wTestBoard`: a piece byte per square, a1 first.
    pub board: [u8; 30],
    /// `wTestSide`: 0 White to move, 1 Black.
    pub side: u8,
    /// `wTestCastling`: bit 0 White may still castle, bit 1 Black.
    pub castling: u8,
    /// `wTestEpSquare`: where a pawn capturing en passant lands, or $FF.
    pub ep_square: u8,
    /// `wTestHalfmove`: plies since the last capture or pawn move (at most 255).
    pub halfmove: u8,
}

impl MailboxPosition {
    pub fn of(position: &Position) -> MailboxPosition {
        let mut board = [0; 30];
        for (square, piece) in position.board().pieces() {
            board[square.index()] = piece_byte(piece.color, piece.role);
        }
        let castling = position.castling_rights();
        MailboxPosition {
            board,
            side: position.turn().index() as u8,
            castling: u8::from(castling[Color::White]) | u8::from(castling[Color::Black]) << 1,
            ep_square: position
                .ep_square()
                .map_or(0xFF, |square| square.index() as u8),
            // Past 100 the count only has to stay at or above 100 for the fifty-move rule.
            halfmove: position.halfmove_clock().min(255) as u8,
        }
    }
}

/// The mailbox's piece byte: 1 pawn ... 6 king, plus 8 for Black.
pub fn piece_byte(color: Color, role: Role) -> u8 {
    role.index() as u8 + 1 + 8 * color.index() as u8
}

/// A move as the mailbox holds it: what the ROM lists and what a history plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RomMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl RomMove {
    pub fn of(m: &Move) -> RomMove {
        RomMove {
            from: m.from,
            to: m.to,
            promotion: m.promotion,
        }
    }

    /// The three mailbox bytes: from, to, promotion (0, or 2 knight ... 5 queen).
    pub fn encode(&self) -> [u8; 3] {
        [
            self.from.index() as u8,
            self.to.index() as u8,
            self.promotion.map_or(0, |role| role.index() as u8 + 1),
        ]
    }

    /// Reads three mailbox bytes; fails on a square or promotion that cannot be.
    pub fn decode(bytes: [u8; 3]) -> Result<RomMove> {
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

/// How the game stands (`wTestVerdict`), in the precedence of engine-src's
/// `Game::outcome`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    GoesOn = 0,
    Checkmate = 1,
    Stalemate = 2,
    InsufficientMaterial = 3,
    FiftyMoves = 4,
    Repetition = 5,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [
        Verdict::GoesOn,
        Verdict::Checkmate,
        Verdict::Stalemate,
        Verdict::InsufficientMaterial,
        Verdict::FiftyMoves,
        Verdict::Repetition,
    ];

    pub fn from_byte(byte: u8) -> Result<Verdict> {
        Verdict::ALL
            .get(usize::from(byte))
            .copied()
            .with_context(|| format!("the ROM's verdict is {byte}, which is not 0-5"))
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
}

/// The driver refused a move of the history as illegal (`wTestStatus` 1).
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
    /// Machine cycles of every command so far.
    cycles: u64,
}

impl RomEngine {
    /// Builds build/test.gb from asm/ (as `cargo xtask rom --test-driver`) and boots it.
    pub fn build_and_boot() -> Result<RomEngine> {
        let root = project::root();
        let units = rom::test_driver_units(&root)?;
        let build = rom::build(&units, &root.join(rom::TEST_ROM_PATH))?;
        RomEngine::boot(&build.rom, &build.sym)
            .with_context(|| format!("booting {}", rom::TEST_ROM_PATH))
    }

    /// The test ROM built in memory (once per process) and booted: for tests, which
    /// write nothing.
    #[cfg(test)]
    pub fn for_tests() -> RomEngine {
        static BUILD: std::sync::OnceLock<(Vec<u8>, String)> = std::sync::OnceLock::new();
        let (rom, sym) = BUILD.get_or_init(|| {
            let units = rom::test_driver_units(&project::root()).expect("asm/ has sources");
            let build = rom::assemble_and_link(&units, rom::TEST_ROM_PATH)
                .unwrap_or_else(|error| panic!("{error:#}"));
            (build.rom, build.sym)
        });
        RomEngine::boot(rom, sym).unwrap_or_else(|error| panic!("{error:#}"))
    }

    /// Boots a test ROM and runs it until its driver waits for queries.
    pub fn boot(rom: &[u8], sym: &str) -> Result<RomEngine> {
        let mut machine = Machine::new(rom)?
            .with_symbols(sym)?
            .without_access_checks();
        machine.run_until("TestDriverIdle", BOOT_BUDGET)?;
        Ok(RomEngine { machine, cycles: 0 })
    }

    /// Machine cycles the commands have taken so far (`TestRunCommand` from call to
    /// return: loading, the history, the command).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The emulator, e.g. to profile routines while a command runs.
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    /// The number of leaves `depth` plies below the position `history` leads to from
    /// `start`.
    pub fn perft(&mut self, start: &Position, history: &[RomMove], depth: u32) -> Result<u64> {
        if depth > MAX_DEPTH {
            bail!("the ROM engine counts perft to depth {MAX_DEPTH} at most, not {depth}");
        }
        self.write_query(start, history)?;
        self.machine.write_u8("wTestDepth", depth as u8)?;
        let budget = COMMAND_BUDGET
            + HISTORY_MOVE_BUDGET * history.len() as u64
            + PERFT_NODE_BUDGET * model_tree_size(start, history, depth);
        self.run(Command::Perft, budget)?;
        let bytes = self.machine.read("wTestNodes", 4)?;
        Ok(u64::from(u32::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3],
        ])))
    }

    /// The legal moves, the verdict and whether the side to move is in check, in the
    /// position `history` leads to from `start`.
    pub fn legal_moves(&mut self, start: &Position, history: &[RomMove]) -> Result<LegalMoves> {
        self.write_query(start, history)?;
        self.run(
            Command::LegalMoves,
            COMMAND_BUDGET + HISTORY_MOVE_BUDGET * history.len() as u64,
        )?;
        let count = usize::from(self.machine.read_u8("wTestMoveCount")?);
        let bytes = self.machine.read("wTestMoves", 3 * count)?;
        let moves = bytes
            .chunks_exact(3)
            .map(|chunk| RomMove::decode([chunk[0], chunk[1], chunk[2]]))
            .collect::<Result<Vec<_>>>()?;
        Ok(LegalMoves {
            moves,
            verdict: Verdict::from_byte(self.machine.read_u8("wTestVerdict")?)?,
            in_check: match self.machine.read_u8("wTestInCheck")? {
                0 => false,
                1 => true,
                byte => bail!("the ROM's in-check flag is {byte}, which is not 0 or 1"),
            },
        })
    }

    fn write_query(&mut self, start: &Position, history: &[RomMove]) -> Result<()> {
        if history.len() > MAX_HISTORY {
            bail!(
                "the mailbox holds {MAX_HISTORY} history moves at most, not {}",
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

    fn run(&mut self, command: Command, budget: u64) -> Result<()> {
        self.machine.write_u8("wTestCommand", command as u8)?;
        self.cycles += self
            .machine
            .call(Location::Label("TestRunCommand"), budget)?;
        match self.machine.read_u8("wTestStatus")? {
            0 => Ok(()),
            1 => Err(HistoryRefused.into()),
            status => bail!("the test driver answered status {status}, which is not 0 or 1"),
        }
    }
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
