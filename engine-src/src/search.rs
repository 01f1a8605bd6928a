//! The search: iterative deepening over a fail-soft negamax alpha-beta with a quiescence
//! search (delta pruned), a transposition table, killer moves, the last iteration's
//! principal variation first and a fixed move order, exactly as docs/search.md specifies
//! it.
//!
//! This is the reference the cartridge's search (`asm/engine/search.asm`) is checked
//! against node for node: the same move, score, principal variation and node count. Every
//! constant both sides need ([`INFINITY`], [`MATE`], the limits, the order keys `KEY_*`)
//! is defined here once; the assembly gets them through the generator.
//!
//! ```
//! use engine_src::search::{search, Limits, MATE};
//! use engine_src::{Game, Position};
//!
//! // White mates at once: Ra1-a6.
//! let game = Game::new(Position::from_fen("2k2/5/2K2/5/5/R4 w - - 0 1").unwrap());
//! let result = search(&game, Limits::depth(2));
//! assert_eq!(result.best.unwrap().to_uci(), "a1a6");
//! assert_eq!(result.score, MATE - 1);
//! ```

use core::fmt;

use crate::attacks::pawn_attacks;
use crate::eval::{
    endgame_king_bonus, evaluate_plus, is_king_endgame, piece_square, MopUp, ENDGAME_KING_DEPTH,
    MATERIAL,
};
use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::role::Role;
use crate::zobrist::ep_key;

/// The bounds of the first window.
pub const INFINITY: i16 = 32000;
/// The side to move is mated at ply `p`: `-(MATE - p)`.
pub const MATE: i16 = 31000;
/// The deepest iteration a search may be asked for.
pub const MAX_SEARCH_DEPTH: u8 = 8;
/// A node this many plies from the root is not searched: it returns the search's evaluation
/// ([`crate::eval::evaluate`], with the mop-up's and the king's endgame's additions).
pub const MAX_SEARCH_PLY: usize = 16;

/// The order key of the last finished iteration's principal variation's move, at a
/// full-width node on that variation (docs/search.md, "Following the principal
/// variation"); at the root, its best move.
pub const KEY_PREVIOUS_BEST: u8 = 255;
/// The order key of the transposition table's move (docs/search.md, "The transposition
/// table"), when it is not the principal variation's.
pub const KEY_TABLE_MOVE: u8 = 254;
/// The order key of an under-promotion to a knight, capture or not.
pub const KEY_UNDER_PROMOTION_KNIGHT: u8 = 3;
/// The order key of an under-promotion to a rook, capture or not.
pub const KEY_UNDER_PROMOTION_ROOK: u8 = 2;
/// The order key of an under-promotion to a bishop, capture or not.
pub const KEY_UNDER_PROMOTION_BISHOP: u8 = 1;
/// A capture's key is `KEY_CAPTURE + KEY_CAPTURE_VICTIM * victim - attacker` (roles
/// numbered by [`order_role`]), plus [`KEY_CAPTURE_QUEEN_PROMOTION`] when it promotes.
pub const KEY_CAPTURE: u8 = 150;
/// See [`KEY_CAPTURE`].
pub const KEY_CAPTURE_VICTIM: u8 = 8;
/// See [`KEY_CAPTURE`].
pub const KEY_CAPTURE_QUEEN_PROMOTION: u8 = 50;
/// The order key of a quiet promotion to a queen.
pub const KEY_QUEEN_PROMOTION: u8 = 190;
/// The order key of this ply's first killer.
pub const KEY_FIRST_KILLER: u8 = 140;
/// The order key of this ply's second killer.
pub const KEY_SECOND_KILLER: u8 = 139;
/// A quiet move's key is `KEY_QUIET + ((table[to] - table[from]) >> KEY_QUIET_SHIFT)`.
pub const KEY_QUIET: u8 = 64;
/// See [`KEY_QUIET`].
pub const KEY_QUIET_SHIFT: u32 = 2;

/// Delta pruning: the quiescence search skips a move when the evaluation plus what the
/// move takes ([`delta_gain`]) plus this margin is at most alpha.
pub const DELTA_MARGIN: i16 = 200;
/// What a promotion adds in [`delta_gain`]: a queen's material less a pawn's.
pub const DELTA_PROMOTION_GAIN: i16 = MATERIAL.queen - MATERIAL.pawn;

/// The transposition table's entries (docs/search.md, "The transposition table"): a power
/// of two, indexed by the low bits of the line key.
pub const TABLE_ENTRIES: usize = 128;
/// An entry's bound: its score is the node's exact score.
pub const BOUND_EXACT: u8 = 1;
/// An entry's bound: the node's score is at least its score (it failed high).
pub const BOUND_LOWER: u8 = 2;
/// An entry's bound: the node's score is at most its score (it failed low).
pub const BOUND_UPPER: u8 = 3;

/// The transposition table's entry for the position of 32-bit line key `key` (the
/// cartridge's `wZobristKey`, the low 32 bits of [`line_key`]): its low bits.
pub const fn table_index(key: u64) -> usize {
    key as usize & (TABLE_ENTRIES - 1)
}

/// The check an entry keeps to tell its position from the others of its index: the line
/// key's bits 16 to 31.
pub const fn table_check(key: u64) -> u16 {
    (key >> 16) as u16
}

/// A score as the table keeps it, at a node `ply` plies from the root: a mate score
/// counts its plies from the node, not from the root ([`table_score_at`] undoes it).
pub const fn table_score(score: i16, ply: usize) -> i16 {
    if is_mate_score(score) {
        if score > 0 {
            score + ply as i16
        } else {
            score - ply as i16
        }
    } else {
        score
    }
}

/// The score the table keeps as `stored` for a node `ply` plies from the root.
pub const fn table_score_at(stored: i16, ply: usize) -> i16 {
    if is_mate_score(stored) {
        if stored > 0 {
            stored - ply as i16
        } else {
            stored + ply as i16
        }
    } else {
        stored
    }
}

/// One entry of the transposition table; depth 0: empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableEntry {
    /// [`table_check`] of the position's key.
    pub check: u16,
    /// The move to search first: the one that raised alpha, if one did.
    pub best: Option<Move>,
    /// The score ([`table_score`]: mates counted from the node).
    pub score: i16,
    /// The depth the node was searched to, 1 or more; 0 for an empty entry.
    pub depth: u8,
    /// [`BOUND_EXACT`], [`BOUND_LOWER`] or [`BOUND_UPPER`].
    pub bound: u8,
}

impl TableEntry {
    /// `true` if the entry is of the position of line key `key`: not empty, and its
    /// check is the key's.
    pub const fn holds(&self, key: u64) -> bool {
        self.depth != 0 && self.check == table_check(key)
    }

    /// What a hit does at a full-width node `ply` plies from the root (not the root)
    /// with `depth` to search and the window `alpha`, `beta`: the node's score, when the
    /// entry was searched at least as deep and its bound settles the node (exact; a
    /// lower bound at least beta; an upper bound at most alpha); else `None`, the node is
    /// searched.
    pub fn cutoff(&self, depth: u8, alpha: i16, beta: i16, ply: usize) -> Option<i16> {
        if self.depth < depth {
            return None;
        }
        let score = table_score_at(self.score, ply);
        let settled = match self.bound {
            BOUND_EXACT => true,
            BOUND_LOWER => score >= beta,
            _ => score <= alpha,
        };
        settled.then_some(score)
    }

    /// Replacement: `true` if a node of line key `key` searched to `depth` takes the
    /// entry's place. Always, unless the entry is of another position searched deeper.
    pub const fn yields_to(&self, key: u64, depth: u8) -> bool {
        self.holds(key) || self.depth <= depth
    }
}

/// The bound of a full-width node's score `best`, searched with the window `alpha`,
/// `beta` (alpha as the node began): [`BOUND_LOWER`] at or above beta, [`BOUND_EXACT`]
/// above alpha, else [`BOUND_UPPER`].
pub const fn table_bound(best: i16, alpha: i16, beta: i16) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if best > alpha {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

/// Late-move reductions (docs/search.md): a full-width node not in check with at least
/// this depth ([`Limits::reduce_depth`]; MEDIUM's is [`LEVEL_REDUCE_DEPTH_MEDIUM`])
/// searches its late quiet moves a ply shallower first, with the null window.
pub const LMR_DEPTH: u8 = 3;
/// The moves a node searches before the late ones ([`LMR_DEPTH`]).
pub const LMR_MOVES: u8 = 3;
/// A node deeper than the least depth that reduces ([`Limits::reduce_depth`]) reduces a
/// late move by two plies, not one, once it has searched this many moves: the root's
/// last moves, at HARD's depth 4 and at MEDIUM's depth 3. Not in an endgame (a root of
/// at most [`CHECK_EXTENSION_PIECES`] pieces), where a quiet king's move late in the
/// order is often the one that mates: reduced by two plies, a mate in two starting so
/// was found only at depth 6.
pub const LMR_DEEP_MOVES: u8 = 6;

/// Futility pruning (docs/search.md): a node at depth 1 not in check whose evaluation
/// plus this margin is at most alpha skips its quiet moves after the first.
pub const FUTILITY_MARGIN: i16 = 150;

/// Late-move pruning (docs/search.md): a node at depth 1 off the principal variation (a
/// null window), not in check and not futile, searches this many quiet moves; a later
/// quiet move is searched only if it gives check.
pub const LATE_MOVE_PRUNING_QUIETS: u8 = 5;

/// Reverse futility pruning (docs/search.md): a node at depth 1 off the principal
/// variation (a null window) and not in check whose evaluation is at least beta plus this
/// margin returns its evaluation: no quiet move of the side to move is needed to stay
/// above beta, and the player's captures have a ply to answer.
pub const REVERSE_FUTILITY_MARGIN: i16 = 150;

/// The check extension (docs/search.md): in a search whose root has at most this many
/// pieces, the kings counted, only the nodes at plies below the iteration's depth extend
/// their checks. In such an endgame a queen or a rook can check at nearly every move,
/// and a run of checks, each searched a ply deeper, took the search to its last ply and
/// past the time guard.
pub const CHECK_EXTENSION_PIECES: u32 = 6;

/// Aspiration windows (docs/search.md): every iteration after the first starts with the
/// window of the last finished one's score, less and plus this margin; a score outside
/// it is searched again with that side of the window open.
pub const ASPIRATION_MARGIN: i16 = 50;

/// EASY's depth, in plies.
pub const LEVEL_DEPTH_EASY: u8 = 1;
/// MEDIUM's depth, in plies.
pub const LEVEL_DEPTH_MEDIUM: u8 = 3;
/// HARD's depth, in plies.
pub const LEVEL_DEPTH_HARD: u8 = 4;
/// EASY's quiescence nodes at plies 1 to this search checks too ([`Limits::check_plies`]):
/// its depth 1 then sees a mate in one or a forking check the player's reply gives. (At
/// 2, its own checking answer to a capture too: within 10 points of the same strength
/// with the fitted evaluation, but a move in two then takes more than 9 frames.)
pub const LEVEL_CHECK_PLIES_EASY: u8 = 1;
/// MEDIUM's late-move reductions start at depth 2, not [`LMR_DEPTH`]
/// ([`Limits::reduce_depth`]): its root's children reduce their late moves to the
/// quiescence search. A fifth of its time, for about 2 points against Fairy-Stockfish
/// depth 3, where MEDIUM has them to spare; HARD, which has none against depth 5, keeps
/// [`LMR_DEPTH`].
pub const LEVEL_REDUCE_DEPTH_MEDIUM: u8 = 2;

/// The time guard (docs/search.md, "The time guard"): the frames EASY's search may take
/// before the cartridge plays its last finished iteration's move. Each cap is its
/// level's promise (EASY 1 s, MEDIUM 2.5 s, HARD 8 s) in whole frames of the DMG's
/// 59.7275 a second, less [`LEVEL_CAP_SHOW_FRAMES`].
pub const LEVEL_CAP_FRAMES_EASY: u16 = 59 - LEVEL_CAP_SHOW_FRAMES;
/// MEDIUM's cap, in frames: see [`LEVEL_CAP_FRAMES_EASY`].
pub const LEVEL_CAP_FRAMES_MEDIUM: u16 = 149 - LEVEL_CAP_SHOW_FRAMES;
/// HARD's cap, in frames: see [`LEVEL_CAP_FRAMES_EASY`].
pub const LEVEL_CAP_FRAMES_HARD: u16 = 477 - LEVEL_CAP_SHOW_FRAMES;
/// The frames between the guard's stop and the move on the screen, which the caps leave
/// for it: the search returns within its node, PlayMove queues the move's two squares,
/// the move list's rows and the status row in the update after the VBlank that stopped
/// it, and the VBlank handler copies them a budget a frame. The cartridge's tests measure
/// 3 frames, and 4 once every move scrolls the move list (its 11 rows take two VBlanks of
/// their own); the cartridge match met 5 and 6 (a check's second status row, a clock's
/// second drawn in between) on 8 of its 43 guarded EASY moves
/// (xtask/src/cartridge_tests/latency.rs).
pub const LEVEL_CAP_SHOW_FRAMES: u16 = 6;
/// The DMG's machine cycles a frame (1,048,576 a second, 59.7275 frames a second).
pub const CYCLES_PER_FRAME: u64 = 17_556;
/// The machine cycles a node of the search costs in a game (the VBlank handler, the
/// music and the clocks included), as the cartridge's own games measured it; the node
/// budget of [`Level::limits`] is the cap's cycles over this.
pub const GAME_CYCLES_PER_NODE: u64 = 2_660;

/// The cartridge's CLOCK level, which [`Level`] leaves out (the model has no clock): its
/// search deepens iteratively up to [`MAX_SEARCH_DEPTH`] and is stopped after
/// [`clock_level_frames`] of the engine's remaining time, a twentieth of it and half a
/// second more, so that even with little time left depth 1 or 2 finishes. The frames a
/// second of time left gives the search (60 frames are a second: a twentieth is 3).
pub const CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT: u16 = 3;
/// The frames the CLOCK level's search gets on top of its share of the time left.
pub const CLOCK_LEVEL_EXTRA_FRAMES: u16 = 30;

/// The frames the CLOCK level's search may take with `seconds_left` on the engine's clock
/// ([`CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT`] a second, and [`CLOCK_LEVEL_EXTRA_FRAMES`]).
///
/// ```
/// use engine_src::search::clock_level_frames;
///
/// // Ten minutes left: 30.5 seconds to think (60 frames a second).
/// assert_eq!(clock_level_frames(600), 1830);
/// // None left: half a second.
/// assert_eq!(clock_level_frames(0), 30);
/// ```
pub const fn clock_level_frames(seconds_left: u16) -> u16 {
    seconds_left * CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT + CLOCK_LEVEL_EXTRA_FRAMES
}

/// The cartridge's levels against the engine that search to a fixed depth (the CLOCK
/// level: [`CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Depth [`LEVEL_DEPTH_EASY`].
    Easy,
    /// Depth [`LEVEL_DEPTH_MEDIUM`].
    Medium,
    /// Depth [`LEVEL_DEPTH_HARD`].
    Hard,
}

impl Level {
    /// Every level, the easiest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The depth the level searches to.
    pub const fn depth(self) -> u8 {
        match self {
            Level::Easy => LEVEL_DEPTH_EASY,
            Level::Medium => LEVEL_DEPTH_MEDIUM,
            Level::Hard => LEVEL_DEPTH_HARD,
        }
    }

    /// The name the level page shows: `EASY`, `MEDIUM`, `HARD`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "EASY",
            Level::Medium => "MEDIUM",
            Level::Hard => "HARD",
        }
    }

    /// The plies whose quiescence nodes search checks too ([`Limits::check_plies`]):
    /// [`LEVEL_CHECK_PLIES_EASY`] for EASY, none (0) for the others.
    pub const fn check_plies(self) -> u8 {
        match self {
            Level::Easy => LEVEL_CHECK_PLIES_EASY,
            Level::Medium | Level::Hard => 0,
        }
    }

    /// The least depth of a node that reduces its late moves ([`Limits::reduce_depth`]):
    /// [`LEVEL_REDUCE_DEPTH_MEDIUM`] for MEDIUM, [`LMR_DEPTH`] for the others.
    pub const fn reduce_depth(self) -> u8 {
        match self {
            Level::Medium => LEVEL_REDUCE_DEPTH_MEDIUM,
            Level::Easy | Level::Hard => LMR_DEPTH,
        }
    }

    /// The time guard's cap of the level, in frames ([`LEVEL_CAP_FRAMES_EASY`]).
    pub const fn cap_frames(self) -> u16 {
        match self {
            Level::Easy => LEVEL_CAP_FRAMES_EASY,
            Level::Medium => LEVEL_CAP_FRAMES_MEDIUM,
            Level::Hard => LEVEL_CAP_FRAMES_HARD,
        }
    }

    /// The nodes the cartridge searches in the level's cap: the cap's machine cycles
    /// ([`CYCLES_PER_FRAME`] a frame) over [`GAME_CYCLES_PER_NODE`].
    pub const fn node_budget(self) -> u64 {
        self.cap_frames() as u64 * CYCLES_PER_FRAME / GAME_CYCLES_PER_NODE
    }

    /// [`Limits`] of this level: its depth, its checks in the quiescence search, and the
    /// node budget that mirrors the time guard ([`Level::node_budget`]).
    pub const fn limits(self) -> Limits {
        Limits {
            nodes: self.node_budget(),
            ..self.uncapped_limits()
        }
    }

    /// [`Limits`] of this level without the time guard (a hint's): its depth, its
    /// checks in the quiescence search and its reductions, no node budget to speak of.
    pub const fn uncapped_limits(self) -> Limits {
        Limits {
            check_plies: self.check_plies(),
            reduce_depth: self.reduce_depth(),
            ..Limits::depth(self.depth())
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a search may spend: the iterations (1 to [`MAX_SEARCH_DEPTH`]) and the nodes;
/// and how far from the root its quiescence search looks at checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The last iteration to search.
    pub depth: u8,
    /// The node budget: the search stops before node number `nodes + 1`.
    pub nodes: u64,
    /// The quiescence nodes at plies 1 to this also search the quiet moves that give
    /// check, and search every move that gives check to depth 1 (a full-width node,
    /// which sees a mate); 0: none does (docs/search.md, "Checks in the quiescence
    /// search").
    pub check_plies: u8,
    /// The least depth of a full-width node that reduces its late moves (docs/search.md,
    /// "Late-move reductions"): [`LMR_DEPTH`] but at MEDIUM ([`Level::reduce_depth`]).
    pub reduce_depth: u8,
}

impl Limits {
    /// Iterations up to `depth`, with no node budget to speak of and no checks in the
    /// quiescence search.
    pub const fn depth(depth: u8) -> Limits {
        Limits {
            depth,
            nodes: u64::MAX,
            check_plies: 0,
            reduce_depth: LMR_DEPTH,
        }
    }

    /// Iterations up to `depth` within `nodes` nodes, with no checks in the quiescence
    /// search.
    pub const fn budget(depth: u8, nodes: u64) -> Limits {
        Limits {
            nodes,
            ..Limits::depth(depth)
        }
    }

    /// `Ok` when [`search`] accepts these limits: a depth of 1 to [`MAX_SEARCH_DEPTH`], a
    /// budget of at least one node and reductions from depth 2 or more.
    pub fn check(&self) -> Result<(), LimitsError> {
        if self.depth == 0 || self.depth > MAX_SEARCH_DEPTH {
            Err(LimitsError::Depth(self.depth))
        } else if self.nodes == 0 {
            Err(LimitsError::NoNodes)
        } else if self.reduce_depth < 2 {
            Err(LimitsError::ReduceDepth(self.reduce_depth))
        } else {
            Ok(())
        }
    }
}

/// Why [`Limits::check`] refuses limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitsError {
    /// The depth is 0 or above [`MAX_SEARCH_DEPTH`].
    Depth(u8),
    /// The node budget is 0.
    NoNodes,
    /// The least depth that reduces is below 2 (a reduced move goes 2 plies shallower).
    ReduceDepth(u8),
}

impl fmt::Display for LimitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitsError::Depth(depth) => write!(
                f,
                "search depth {depth} is out of range: it must be 1 to {MAX_SEARCH_DEPTH}"
            ),
            LimitsError::NoNodes => f.write_str("the node budget must be at least 1"),
            LimitsError::ReduceDepth(depth) => write!(
                f,
                "the least depth that reduces is {depth}: it must be at least 2"
            ),
        }
    }
}

impl std::error::Error for LimitsError {}

/// What a search found: the last finished iteration's move, score and principal
/// variation, and the nodes of the whole search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is none (checkmate, stalemate) or the
    /// limits were refused.
    pub best: Option<Move>,
    /// The score for the side to move, in centipawns (see [`MATE`]).
    pub score: i16,
    /// Every node searched, the unfinished iteration's included.
    pub nodes: u64,
    /// The principal variation, `best` first; empty when no iteration finished.
    pub pv: Vec<Move>,
    /// The last finished iteration, 0 when none did.
    pub depth: u8,
}

/// `true` for a score that says a side is mated: at least `MATE - MAX_SEARCH_PLY` away
/// from 0.
pub const fn is_mate_score(score: i16) -> bool {
    score.unsigned_abs() >= (MATE as u16) - MAX_SEARCH_PLY as u16
}

/// A role's number in the capture key, 1 to 6: the roles ranked by their [`MATERIAL`]
/// (equal values by role, pawn first), the king, worth 0 to the evaluation, last. So the
/// captures come dearest victim first by the evaluation's own values, which the
/// assembly's quiescence search relies on (a capture delta pruning skips gains no less
/// than every one after it), whatever the weights.
pub const fn order_role(role: Role) -> u8 {
    if matches!(role, Role::King) {
        return 6;
    }
    let value = *MATERIAL.get(role);
    let mut rank = 1;
    let mut index = 0;
    while index < Role::ALL.len() - 1 {
        let other = Role::ALL[index];
        let other_value = *MATERIAL.get(other);
        if other_value < value || (other_value == value && other.index() < role.index()) {
            rank += 1;
        }
        index += 1;
    }
    rank
}

/// The two killers of a ply, the first one first.
pub type Killers = [Option<Move>; 2];

/// `true` if `a` and `b` have the same from-square, to-square and promotion: how killers
/// and the principal variation's move are compared.
fn same_move(a: &Move, b: &Move) -> bool {
    a.from == b.from && a.to == b.to && a.promotion == b.promotion
}

/// The move order key of `m`, a legal move of `position` (docs/search.md, "The move
/// order"): moves are searched by key, highest first. `previous_best` is the last
/// finished iteration's principal variation's move, given at a node on that variation
/// only (at the root, its best move); `table_move` the transposition table's move for
/// the position; `killers` are this ply's.
pub fn order_key(
    position: &Position,
    m: &Move,
    previous_best: Option<&Move>,
    table_move: Option<&Move>,
    killers: &Killers,
) -> u8 {
    if previous_best.is_some_and(|best| same_move(best, m)) {
        return KEY_PREVIOUS_BEST;
    }
    if table_move.is_some_and(|best| same_move(best, m)) {
        return KEY_TABLE_MOVE;
    }
    match m.promotion {
        Some(Role::Knight) => return KEY_UNDER_PROMOTION_KNIGHT,
        Some(Role::Rook) => return KEY_UNDER_PROMOTION_ROOK,
        Some(Role::Bishop) => return KEY_UNDER_PROMOTION_BISHOP,
        _ => {}
    }
    if let Some(victim) = m.capture {
        let promotion = if m.is_promotion() {
            KEY_CAPTURE_QUEEN_PROMOTION
        } else {
            0
        };
        return KEY_CAPTURE + KEY_CAPTURE_VICTIM * order_role(victim) - order_role(m.role)
            + promotion;
    }
    if m.is_promotion() {
        return KEY_QUEEN_PROMOTION;
    }
    if killers[0].is_some_and(|killer| same_move(&killer, m)) {
        return KEY_FIRST_KILLER;
    }
    if killers[1].is_some_and(|killer| same_move(&killer, m)) {
        return KEY_SECOND_KILLER;
    }
    let piece = m.role.of(position.turn());
    let gain = piece_square(piece, m.to) as i16 - piece_square(piece, m.from) as i16;
    (KEY_QUIET as i16 + (gain >> KEY_QUIET_SHIFT)) as u8
}

/// Sorts `moves` into search order: by [`order_key`], highest first, then by from-square
/// and to-square, lowest first.
pub fn order_moves(
    position: &Position,
    moves: &mut MoveList,
    previous_best: Option<&Move>,
    table_move: Option<&Move>,
    killers: &Killers,
) {
    let mut sort_keys = [0u32; MoveList::CAPACITY];
    for (index, m) in moves.iter().enumerate() {
        let key = order_key(position, m, previous_best, table_move, killers);
        // Higher keys first, then lower squares: one ascending number per move, the
        // list index in the low byte to find the move again.
        sort_keys[index] = (u32::from(255 - key) << 18)
            | ((m.from.index() as u32) << 13)
            | ((m.to.index() as u32) << 8)
            | index as u32;
    }
    let sort_keys = &mut sort_keys[..moves.len()];
    sort_keys.sort_unstable();
    let unsorted = moves.clone();
    let mut sorted = MoveList::new();
    for sort_key in sort_keys.iter() {
        sorted.push(unsorted[(sort_key & 0xFF) as usize]);
    }
    *moves = sorted;
}

/// The moves of `position` in search order, as a node on the principal variation (with
/// `previous_best`) or off it (with its ply's `killers`) searches them.
pub fn ordered_moves(
    position: &Position,
    previous_best: Option<&Move>,
    killers: &Killers,
) -> MoveList {
    let mut moves = position.legal_moves();
    order_moves(position, &mut moves, previous_best, None, killers);
    moves
}

/// The key the search line keeps for the position `after`, reached from `before` by `m`:
/// the game key ([`Position::zobrist`]), plus the en-passant file after a double step
/// that lands beside an enemy pawn even when that pawn cannot capture (the key the
/// assembly's MakeMove keeps).
pub fn line_key(before: &Position, m: &Move, after: &Position) -> u64 {
    let key = after.zobrist();
    if m.role != Role::Pawn
        || m.from.rank().index().abs_diff(m.to.rank().index()) != 2
        || after.ep_square().is_some()
    {
        return key;
    }
    let enemy_pawns = before.board().by_piece(Role::Pawn.of(after.turn()));
    let beside = [-1, 1]
        .into_iter()
        .filter_map(|files| m.to.offset(files, 0))
        .any(|square| enemy_pawns.contains(square));
    if beside {
        key ^ ep_key(m.to.file())
    } else {
        key
    }
}

/// What a quiescence move takes, for delta pruning: the material of the piece it
/// captures (a pawn for en passant), plus a queen's material less a pawn's when it
/// promotes.
pub fn delta_gain(m: &Move) -> i16 {
    let taken = m.capture.map_or(0, |role| *MATERIAL.get(role));
    if m.is_promotion() {
        taken + DELTA_PROMOTION_GAIN
    } else {
        taken
    }
}

/// `true` for a capture that loses material, which the quiescence search skips: a piece
/// takes a cheaper one (by [`MATERIAL`]) on a square an enemy pawn attacks, so the pawn
/// takes it back. Promotions are never losing.
pub fn is_losing_capture(position: &Position, m: &Move) -> bool {
    let Some(victim) = m.capture else {
        return false;
    };
    !m.is_promotion()
        && MATERIAL.get(m.role) > MATERIAL.get(victim)
        && (pawn_attacks(position.turn(), m.to)
            & position
                .board()
                .by_piece(Role::Pawn.of(position.turn().other())))
        .any()
}

/// The state of one search.
struct Searcher<'a> {
    budget: u64,
    nodes: u64,
    stopped: bool,
    /// [`Limits::check_plies`].
    check_plies: usize,
    /// [`Limits::reduce_depth`].
    reduce_depth: u8,
    /// `true` when the root has at most [`CHECK_EXTENSION_PIECES`] pieces.
    endgame: bool,
    /// The mop-up of the root ([`MopUp::of`]; only in an [`Searcher::endgame`]).
    mop_up: Option<MopUp>,
    /// `true` when the search is asked for at least [`ENDGAME_KING_DEPTH`] and the root is a
    /// king's endgame ([`is_king_endgame`]) with no mop-up (whose bonus drives the kings
    /// instead): the kings read the endgame's table ([`endgame_king_bonus`]).
    king_endgame: bool,
    /// The nodes at plies below this extend their checks: the iteration's depth in an
    /// [`Searcher::endgame`], every ply otherwise.
    extension_plies: usize,
    /// The game's keys, the root's last.
    history: &'a [u64],
    /// `line[ply]` is the key of the position at `ply` (the root's at 0).
    line: [u64; MAX_SEARCH_PLY + 1],
    killers: [Killers; MAX_SEARCH_PLY],
    /// `pv[ply][..pv_len[ply]]` is the principal variation from `ply` on.
    pv: [[Option<Move>; MAX_SEARCH_PLY]; MAX_SEARCH_PLY + 1],
    pv_len: [usize; MAX_SEARCH_PLY + 1],
    /// The last finished iteration's principal variation.
    previous_pv: Vec<Move>,
    /// The ply of the next node on `previous_pv` (docs/search.md, "Following the
    /// principal variation"): set to 0 at each iteration's start, to `ply + 1` by a
    /// full-width node on it that has a move of it to search first, to none whenever a
    /// child returns (the first child of a node is the only one that can be on it).
    follow: Option<usize>,
    root_best: Option<Move>,
    /// `moves[ply]` is the move being searched at `ply` (the line from the root).
    moves: [Option<Move>; MAX_SEARCH_PLY],
    /// The line at the node the budget stopped the search at.
    stopped_line: Vec<Move>,
    /// The transposition table, empty at the search's start.
    table: [TableEntry; TABLE_ENTRIES],
}

impl Searcher<'_> {
    /// The evaluation of `position` in this search: [`crate::eval::evaluate`], with the
    /// kings' endgame table when the root is a king's endgame and the mop-up's bonus when
    /// the root has one ([`MopUp`]).
    fn evaluate(&self, position: &Position) -> i16 {
        let mut extra = 0;
        if self.king_endgame {
            extra += endgame_king_bonus(position);
        }
        if let Some(mop_up) = self.mop_up {
            extra += mop_up.white_bonus(position);
        }
        evaluate_plus(position, extra)
    }

    /// `true` if the position at `ply` (with `halfmoves` on its clock) equals one an even
    /// number of plies earlier, at most `halfmoves` back, in the line or the history.
    fn repeats(&self, ply: usize, halfmoves: u32) -> bool {
        let key = self.line[ply];
        let window = halfmoves as usize;
        let root = self.history.len() - 1;
        (2..=window).step_by(2).any(|distance| {
            if distance <= ply {
                self.line[ply - distance] == key
            } else {
                let back = distance - ply;
                back <= root && self.history[root - back] == key
            }
        })
    }

    /// Makes the principal variation of `ply` the move `m` then the one of `ply + 1`.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = Some(m);
        let copied = child_len.min(MAX_SEARCH_PLY - 1);
        row[1..=copied].copy_from_slice(&tail[0][..copied]);
        self.pv_len[ply] = copied + 1;
    }

    fn search(
        &mut self,
        position: &Position,
        depth: u8,
        mut alpha: i16,
        beta: i16,
        ply: usize,
    ) -> i16 {
        if self.stopped {
            return 0;
        }
        if self.nodes == self.budget {
            self.stopped = true;
            self.stopped_line = self.moves[..ply].iter().flatten().copied().collect();
            return 0;
        }
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if ply > 0
            && (position.halfmove_clock() >= 100
                || position.is_insufficient_material()
                || self.repeats(ply, position.halfmove_clock()))
        {
            return 0;
        }
        if ply >= MAX_SEARCH_PLY {
            return self.evaluate(position);
        }
        if depth == 0 {
            return self.quiesce(position, alpha, beta, ply);
        }
        // The transposition table: a deep enough entry of this position ends the node
        // (not at the root, which must name a move); its move is searched early.
        let key = self.line[ply];
        let entry = self.table[table_index(key)];
        let hit = entry.holds(key);
        let table_move = if hit { entry.best } else { None };
        if hit && ply > 0 {
            if let Some(score) = entry.cutoff(depth, alpha, beta, ply) {
                return score;
            }
        }
        let alpha_at_start = alpha;
        let in_check = position.is_check();
        // Reverse futility pruning: at depth 1 off the principal variation (the root is
        // never searched with a null window), a node well above beta returns its
        // evaluation, before its moves are looked at (so a stalemate does too).
        if depth == 1 && alpha + 1 == beta && !in_check {
            let stand = self.evaluate(position);
            if stand - REVERSE_FUTILITY_MARGIN >= beta {
                return stand;
            }
        }
        let mut moves = position.legal_moves();
        if moves.is_empty() {
            return if position.is_check() {
                -(MATE - ply as i16)
            } else {
                0
            };
        }
        // On the previous principal variation: its move at this ply first, and the
        // first child (that move) follows it on.
        let previous_best = if self.follow == Some(ply) && ply < self.previous_pv.len() {
            self.follow = Some(ply + 1);
            Some(self.previous_pv[ply])
        } else {
            None
        };
        order_moves(
            position,
            &mut moves,
            previous_best.as_ref(),
            table_move.as_ref(),
            &self.killers[ply],
        );
        let mut best = -INFINITY;
        let mut raised = None;
        let mut searched: u8 = 0;
        // Futility pruning: at depth 1, when even a good quiet move cannot lift the
        // evaluation to alpha, only the first move, the captures, the promotions and the
        // checks are searched.
        let futile = depth == 1 && !in_check && self.evaluate(position) + FUTILITY_MARGIN <= alpha;
        // Late-move pruning: at depth 1 off the principal variation, in a node neither in
        // check nor futile, the quiet moves still to be searched whatever they do; past
        // them only a quiet move that gives check is.
        let mut quiets_left = (depth == 1 && alpha + 1 == beta && !in_check && !futile)
            .then_some(LATE_MOVE_PRUNING_QUIETS);
        for m in &moves {
            let after = position.play(m);
            let checks = after.is_check();
            let quiet = !m.is_capture() && !m.is_promotion();
            if futile && searched > 0 && quiet && !checks {
                continue;
            }
            if let (Some(left), true) = (quiets_left.as_mut(), quiet) {
                if *left > 0 {
                    *left -= 1;
                } else if !checks {
                    continue;
                }
            }
            self.line[ply + 1] = line_key(position, m, &after);
            self.moves[ply] = Some(*m);
            // Principal-variation search: the first move with the full window, every
            // later one with a null window, searched again when it lands inside.
            let mut score;
            // Late-move reduction: a late quiet move searched shallower with the null
            // window first; it is searched as usual only if it beats alpha there.
            let reduced = depth >= self.reduce_depth
                && searched >= LMR_MOVES
                && !in_check
                && !checks
                && !m.is_capture()
                && !m.is_promotion()
                && !self.killers[ply]
                    .iter()
                    .any(|killer| killer.is_some_and(|killer| same_move(&killer, m)));
            if reduced {
                let deep = depth > self.reduce_depth && !self.endgame;
                let reduction = if deep && searched >= LMR_DEEP_MOVES {
                    3
                } else {
                    2
                };
                score = -self.search(&after, depth - reduction, -alpha - 1, -alpha, ply + 1);
                self.follow = None;
            } else {
                score = alpha + 1;
            }
            if self.stopped {
                return 0;
            }
            // The check extension: a move that gives check is searched a ply deeper,
            // in an endgame only at a ply below the iteration's depth.
            let child_depth = if checks && ply < self.extension_plies {
                depth
            } else {
                depth - 1
            };
            if score <= alpha {
                // Proven no better by the reduced search.
            } else if searched == 0 || alpha + 1 == beta || depth < 2 {
                score = -self.search(&after, child_depth, -beta, -alpha, ply + 1);
            } else {
                score = -self.search(&after, child_depth, -alpha - 1, -alpha, ply + 1);
                self.follow = None;
                if !self.stopped && score > alpha && score < beta {
                    score = -self.search(&after, child_depth, -beta, -alpha, ply + 1);
                }
            }
            searched += 1;
            self.follow = None;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if ply == 0 {
                    self.root_best = Some(*m);
                }
                if score > alpha {
                    alpha = score;
                    raised = Some(*m);
                    self.update_pv(ply, *m);
                    if score >= beta {
                        if !m.is_capture() && !m.is_promotion() {
                            let killers = &mut self.killers[ply];
                            if !killers[0].is_some_and(|killer| same_move(&killer, m)) {
                                killers[1] = killers[0];
                                killers[0] = Some(*m);
                            }
                        }
                        break;
                    }
                }
            }
        }
        if entry.yields_to(key, depth) {
            self.table[table_index(key)] = TableEntry {
                check: table_check(key),
                best: raised,
                score: table_score(best, ply),
                depth,
                bound: table_bound(best, alpha_at_start, beta),
            };
        }
        best
    }

    /// Step 5 of a node: the quiescence search, after the node's first four steps.
    fn quiesce(&mut self, position: &Position, mut alpha: i16, beta: i16, ply: usize) -> i16 {
        let stand = self.evaluate(position);
        if stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        // Checks in the quiescence search: near the root, the quiet moves that give
        // check too, and each check searched full width (a mate is seen).
        let checks = ply <= self.check_plies;
        let mut moves = position.legal_moves();
        moves.retain(|m| match m.promotion {
            Some(role) => role == Role::Queen,
            None => m.is_capture() || (checks && position.play(m).is_check()),
        });
        order_moves(position, &mut moves, None, None, &self.killers[ply]);
        for m in &moves {
            // Delta pruning: a capture that cannot lift the score to alpha.
            if stand + delta_gain(m) + DELTA_MARGIN <= alpha {
                continue;
            }
            // A capture the enemy pawn pays back with interest.
            if is_losing_capture(position, m) {
                continue;
            }
            let after = position.play(m);
            self.line[ply + 1] = line_key(position, m, &after);
            self.moves[ply] = Some(*m);
            let child_depth = u8::from(checks && after.is_check());
            let score = -self.search(&after, child_depth, -beta, -alpha, ply + 1);
            self.follow = None;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Searches the current position of `game` (its history gives the repetitions) within
/// `limits`, as docs/search.md specifies: iterations 1 to `limits.depth`, the first with
/// the full window, each later one with an aspiration window ([`ASPIRATION_MARGIN`]),
/// until the budget runs out or an iteration finds a mate. The result is
/// the last finished iteration's; see [`SearchResult`].
///
/// Limits that [`Limits::check`] refuses, and a position without a legal move, are not
/// searched: the result has no move, score 0, 0 nodes and depth 0.
pub fn search(game: &Game, limits: Limits) -> SearchResult {
    run(game, limits).0
}

/// The line (the moves from the root) that [`search`] was searching when its node budget
/// stopped it: the moves to the node that found the budget spent. Empty when the budget
/// did not stop it. Two searches that visit the same nodes in the same order stop on
/// the same line for every budget, so `cargo xtask verify` finds the first node where
/// the cartridge's search parts from this one by a binary search over the budget.
pub fn stopped_line(game: &Game, limits: Limits) -> Vec<Move> {
    run(game, limits).1
}

/// The transposition table as [`search`] leaves it (every entry empty when it searched
/// nothing): `cargo xtask verify` compares it with the cartridge's, entry for entry.
pub fn search_table(game: &Game, limits: Limits) -> [TableEntry; TABLE_ENTRIES] {
    run(game, limits).2
}

/// [`search`], [`stopped_line`] and [`search_table`].
fn run(game: &Game, limits: Limits) -> (SearchResult, Vec<Move>, [TableEntry; TABLE_ENTRIES]) {
    let position = game.position();
    if limits.check().is_err() || position.legal_moves().is_empty() {
        let none = SearchResult {
            best: None,
            score: 0,
            nodes: 0,
            pv: Vec::new(),
            depth: 0,
        };
        return (none, Vec::new(), [TableEntry::default(); TABLE_ENTRIES]);
    }
    let history = game.keys();
    let endgame = position.board().occupied().count() <= CHECK_EXTENSION_PIECES;
    let mop_up = MopUp::of(position, endgame);
    let mut searcher = Searcher {
        budget: limits.nodes,
        nodes: 0,
        stopped: false,
        check_plies: limits.check_plies.into(),
        reduce_depth: limits.reduce_depth,
        endgame,
        mop_up,
        king_endgame: limits.depth >= ENDGAME_KING_DEPTH
            && mop_up.is_none()
            && is_king_endgame(position),
        extension_plies: MAX_SEARCH_PLY,
        history,
        line: [0; MAX_SEARCH_PLY + 1],
        killers: [[None; 2]; MAX_SEARCH_PLY],
        pv: [[None; MAX_SEARCH_PLY]; MAX_SEARCH_PLY + 1],
        pv_len: [0; MAX_SEARCH_PLY + 1],
        previous_pv: Vec::new(),
        follow: None,
        root_best: None,
        moves: [None; MAX_SEARCH_PLY],
        stopped_line: Vec::new(),
        table: [TableEntry::default(); TABLE_ENTRIES],
    };
    searcher.line[0] = history[history.len() - 1];
    // The last finished iteration (0: none) and its score; its principal variation is
    // `previous_pv`, the one the next iteration follows.
    let mut done = 0;
    let mut done_score = 0;
    for depth in 1..=limits.depth {
        if searcher.endgame {
            searcher.extension_plies = depth.into();
        }
        // Aspiration windows: after the first iteration, a window around the last score
        // (never a mate score: a mate ends the iterations). A root score is never
        // -INFINITY nor INFINITY, so an open side never fails: at most three searches.
        let (mut low, mut high) = if done == 0 {
            (-INFINITY, INFINITY)
        } else {
            (
                done_score - ASPIRATION_MARGIN,
                done_score + ASPIRATION_MARGIN,
            )
        };
        let score = loop {
            searcher.follow = Some(0);
            let score = searcher.search(position, depth, low, high, 0);
            if searcher.stopped {
                break score;
            }
            if score <= low {
                low = -INFINITY;
            } else if score >= high {
                high = INFINITY;
            } else {
                break score;
            }
        };
        if searcher.stopped {
            break;
        }
        done = depth;
        done_score = score;
        searcher.previous_pv = searcher.pv[0][..searcher.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect();
        if is_mate_score(score) {
            break;
        }
    }
    // The result, stored here alone. The move: the first of the last finished
    // iteration's principal variation (which `root_best` was when it finished: at the
    // root every move's score is above -INFINITY, and with beta at INFINITY a new best
    // is a new alpha); when none finished, the best root move so far.
    let best = if done == 0 {
        searcher
            .root_best
            .or_else(|| ordered_moves(position, None, &[None; 2]).first().copied())
    } else {
        searcher.previous_pv.first().copied()
    };
    let result = SearchResult {
        best,
        score: done_score,
        nodes: searcher.nodes,
        pv: searcher.previous_pv,
        depth: done,
    };
    (result, searcher.stopped_line, searcher.table)
}
