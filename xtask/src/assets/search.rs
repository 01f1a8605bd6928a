//! The search's constants (`engine_src::search`: the scores, the limits, the move order
//! keys, the pruning, the levels) rendered into `generated/engine/search.inc` for
//! asm/engine/search.asm and order.asm, and for ui/game.asm (the levels), through the
//! template `xtask/templates/search.inc`, so that the model and the cartridge use one
//! definition of each.

use std::path::Path;

use anyhow::Result;
use askama::Template;
use engine_src::role::Role;
use engine_src::search::order_role;
use engine_src::search::{
    Level, ASPIRATION_MARGIN, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, CHECK_EXTENSION_PIECES,
    CLOCK_LEVEL_EXTRA_FRAMES, CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT, DELTA_MARGIN,
    DELTA_PROMOTION_GAIN, FUTILITY_MARGIN, INFINITY, KEY_CAPTURE, KEY_CAPTURE_QUEEN_PROMOTION,
    KEY_CAPTURE_VICTIM, KEY_FIRST_KILLER, KEY_PREVIOUS_BEST, KEY_QUEEN_PROMOTION, KEY_QUIET,
    KEY_QUIET_SHIFT, KEY_SECOND_KILLER, KEY_TABLE_MOVE, KEY_UNDER_PROMOTION_BISHOP,
    KEY_UNDER_PROMOTION_KNIGHT, KEY_UNDER_PROMOTION_ROOK, LATE_MOVE_PRUNING_QUIETS,
    LEVEL_CAP_FRAMES_EASY, LEVEL_CAP_FRAMES_HARD, LEVEL_CAP_FRAMES_MEDIUM, LEVEL_DEPTH_EASY,
    LEVEL_DEPTH_HARD, LEVEL_DEPTH_MEDIUM, LMR_DEEP_MOVES, LMR_DEPTH, LMR_MOVES, MATE,
    MAX_SEARCH_DEPTH, MAX_SEARCH_PLY, REVERSE_FUTILITY_MARGIN, TABLE_ENTRIES,
};

use super::Outputs;

/// The file made, relative to `generated/`.
pub const SEARCH_INC: &str = "engine/search.inc";

pub fn generate(_root: &Path, outputs: &mut Outputs) -> Result<()> {
    outputs.ensure_file_contents(SEARCH_INC, render()?.as_bytes())
}

/// The text of `generated/engine/search.inc`.
pub fn render() -> Result<String> {
    let sections: Vec<Block> = vec![
        (
            vec!["Scores, in centipawns (docs/search.md, \"Scores\")."],
            vec![("INFINITY", INFINITY.into()), ("MATE", MATE.into())],
        ),
        (
            vec!["The limits."],
            vec![
                ("MAX_SEARCH_DEPTH", MAX_SEARCH_DEPTH.into()),
                ("MAX_SEARCH_PLY", MAX_SEARCH_PLY as i64),
            ],
        ),
        (
            vec!["The move order keys (docs/search.md, \"The move order\")."],
            vec![
                ("KEY_PREVIOUS_BEST", KEY_PREVIOUS_BEST.into()),
                ("KEY_TABLE_MOVE", KEY_TABLE_MOVE.into()),
                (
                    "KEY_UNDER_PROMOTION_KNIGHT",
                    KEY_UNDER_PROMOTION_KNIGHT.into(),
                ),
                ("KEY_UNDER_PROMOTION_ROOK", KEY_UNDER_PROMOTION_ROOK.into()),
                (
                    "KEY_UNDER_PROMOTION_BISHOP",
                    KEY_UNDER_PROMOTION_BISHOP.into(),
                ),
                ("KEY_CAPTURE", KEY_CAPTURE.into()),
                ("KEY_CAPTURE_VICTIM", KEY_CAPTURE_VICTIM.into()),
                ("ORDER_ROLE_PAWN", order_role(Role::Pawn).into()),
                ("ORDER_ROLE_KNIGHT", order_role(Role::Knight).into()),
                ("ORDER_ROLE_BISHOP", order_role(Role::Bishop).into()),
                ("ORDER_ROLE_ROOK", order_role(Role::Rook).into()),
                ("ORDER_ROLE_QUEEN", order_role(Role::Queen).into()),
                ("ORDER_ROLE_KING", order_role(Role::King).into()),
                (
                    "KEY_CAPTURE_QUEEN_PROMOTION",
                    KEY_CAPTURE_QUEEN_PROMOTION.into(),
                ),
                ("KEY_QUEEN_PROMOTION", KEY_QUEEN_PROMOTION.into()),
                ("KEY_FIRST_KILLER", KEY_FIRST_KILLER.into()),
                ("KEY_SECOND_KILLER", KEY_SECOND_KILLER.into()),
                ("KEY_QUIET", KEY_QUIET.into()),
                ("KEY_QUIET_SHIFT", KEY_QUIET_SHIFT.into()),
            ],
        ),
        (
            vec![
                "The transposition table (docs/search.md, \"The transposition table\"): its",
                "entries, and the bound an entry keeps.",
            ],
            vec![
                ("TABLE_ENTRIES", TABLE_ENTRIES as i64),
                ("BOUND_EXACT", BOUND_EXACT.into()),
                ("BOUND_LOWER", BOUND_LOWER.into()),
                ("BOUND_UPPER", BOUND_UPPER.into()),
            ],
        ),
        (
            vec![
                "Late-move reductions (docs/search.md, \"Late-move reductions\"): the least depth",
                "of a node that reduces (but at MEDIUM), and the moves it searches before the late",
                "ones; a deeper node reduces by two plies after LMR_DEEP_MOVES moves.",
            ],
            vec![
                ("LMR_DEPTH", LMR_DEPTH.into()),
                ("LMR_MOVES", LMR_MOVES.into()),
                ("LMR_DEEP_MOVES", LMR_DEEP_MOVES.into()),
            ],
        ),
        (
            vec![
                "Futility pruning and reverse futility pruning at depth 1 (docs/search.md,",
                "\"Futility pruning\" and \"Reverse futility, late-move pruning and deeper",
                "reductions\").",
            ],
            vec![
                ("FUTILITY_MARGIN", FUTILITY_MARGIN.into()),
                ("REVERSE_FUTILITY_MARGIN", REVERSE_FUTILITY_MARGIN.into()),
            ],
        ),
        (
            vec![
                "Late-move pruning at depth 1 (docs/search.md, \"Reverse futility, late-move",
                "pruning and deeper reductions\").",
            ],
            vec![(
                "LATE_MOVE_PRUNING_QUIETS",
                LATE_MOVE_PRUNING_QUIETS.into(),
            )],
        ),
        (
            vec![
                "The check extension (docs/search.md, \"The check extension\"): when the root",
                "has at most this many pieces, only at plies below the iteration's depth.",
            ],
            vec![("CHECK_EXTENSION_PIECES", CHECK_EXTENSION_PIECES.into())],
        ),
        (
            vec!["Aspiration windows (docs/search.md, \"Aspiration windows\")."],
            vec![("ASPIRATION_MARGIN", ASPIRATION_MARGIN.into())],
        ),
        (
            vec!["Delta pruning (docs/search.md, \"A node\")."],
            vec![
                ("DELTA_MARGIN", DELTA_MARGIN.into()),
                ("DELTA_PROMOTION_GAIN", DELTA_PROMOTION_GAIN.into()),
            ],
        ),
        (
            vec![
                "The levels: the depth in plies of the fixed-depth ones; the CLOCK level deepens up",
                "to MAX_SEARCH_DEPTH within a share of its clock's time left, in frames (a second",
                "left gives CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT) and CLOCK_LEVEL_EXTRA_FRAMES more.",
                "The plies whose quiescence nodes search checks too at each fixed-depth level",
                "(docs/search.md, \"Checks in the quiescence search\"; CLOCK: none), and the least",
                "depth of a node that reduces its late moves (\"Late-move reductions\"; CLOCK:",
                "LMR_DEPTH).",
            ],
            vec![
                ("LEVEL_DEPTH_EASY", LEVEL_DEPTH_EASY.into()),
                ("LEVEL_DEPTH_MEDIUM", LEVEL_DEPTH_MEDIUM.into()),
                ("LEVEL_DEPTH_HARD", LEVEL_DEPTH_HARD.into()),
                ("LEVEL_CHECK_PLIES_EASY", Level::Easy.check_plies().into()),
                ("LEVEL_CHECK_PLIES_MEDIUM", Level::Medium.check_plies().into()),
                ("LEVEL_CHECK_PLIES_HARD", Level::Hard.check_plies().into()),
                ("LEVEL_REDUCE_DEPTH_EASY", Level::Easy.reduce_depth().into()),
                ("LEVEL_REDUCE_DEPTH_MEDIUM", Level::Medium.reduce_depth().into()),
                ("LEVEL_REDUCE_DEPTH_HARD", Level::Hard.reduce_depth().into()),
                (
                    "CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT",
                    CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT.into(),
                ),
                ("CLOCK_LEVEL_EXTRA_FRAMES", CLOCK_LEVEL_EXTRA_FRAMES.into()),
            ],
        ),
        (
            vec![
                "The time guard: the frames the fixed-depth levels' search may take before the",
                "last finished iteration's move is played (docs/search.md, \"The time guard\").",
            ],
            vec![
                ("LEVEL_CAP_FRAMES_EASY", LEVEL_CAP_FRAMES_EASY.into()),
                ("LEVEL_CAP_FRAMES_MEDIUM", LEVEL_CAP_FRAMES_MEDIUM.into()),
                ("LEVEL_CAP_FRAMES_HARD", LEVEL_CAP_FRAMES_HARD.into()),
            ],
        ),
    ];
    // The names' column: as wide as the longest name.
    let width = sections
        .iter()
        .flat_map(|(_, constants)| constants.iter().map(|(name, _)| name.len()))
        .max()
        .unwrap_or(0);
    let mut text = SearchTemplate { sections, width }.render()?;
    text.push('\n');
    Ok(text)
}

/// A block of `generated/engine/search.inc`: its comment's lines, its constants (name,
/// value).
type Block = (Vec<&'static str>, Vec<(&'static str, i64)>);

/// `xtask/templates/search.inc`: blocks of constants, each under its comment's lines.
#[derive(Template)]
#[template(path = "search.inc", escape = "none")]
struct SearchTemplate {
    sections: Vec<Block>,
    width: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_the_models() {
        let text = render().unwrap();
        for (name, value) in [
            ("INFINITY", 32000),
            ("MATE", 31000),
            ("MAX_SEARCH_DEPTH", 8),
            ("MAX_SEARCH_PLY", 16),
            ("KEY_PREVIOUS_BEST", 255),
            ("KEY_TABLE_MOVE", 254),
            ("TABLE_ENTRIES", 128),
            ("BOUND_UPPER", 3),
            ("LMR_DEPTH", 3),
            ("LMR_MOVES", 3),
            ("LMR_DEEP_MOVES", 6),
            ("FUTILITY_MARGIN", 150),
            ("REVERSE_FUTILITY_MARGIN", 150),
            ("LATE_MOVE_PRUNING_QUIETS", 5),
            ("CHECK_EXTENSION_PIECES", 6),
            ("ASPIRATION_MARGIN", 50),
            ("KEY_QUIET_SHIFT", 2),
            // The bishop (283) is worth less than the knight (323): taken after it.
            ("ORDER_ROLE_PAWN", 1),
            ("ORDER_ROLE_BISHOP", 2),
            ("ORDER_ROLE_KNIGHT", 3),
            ("ORDER_ROLE_ROOK", 4),
            ("ORDER_ROLE_QUEEN", 5),
            ("ORDER_ROLE_KING", 6),
            ("DELTA_MARGIN", 200),
            ("DELTA_PROMOTION_GAIN", 781),
            ("LEVEL_DEPTH_EASY", 1),
            ("LEVEL_DEPTH_MEDIUM", 3),
            ("LEVEL_DEPTH_HARD", 4),
            ("LEVEL_CHECK_PLIES_EASY", 1),
            ("LEVEL_CHECK_PLIES_MEDIUM", 0),
            ("LEVEL_CHECK_PLIES_HARD", 0),
            ("LEVEL_REDUCE_DEPTH_EASY", 3),
            ("LEVEL_REDUCE_DEPTH_MEDIUM", 2),
            ("LEVEL_REDUCE_DEPTH_HARD", 3),
            ("CLOCK_LEVEL_FRAMES_PER_SECOND_LEFT", 3),
            ("CLOCK_LEVEL_EXTRA_FRAMES", 30),
            ("LEVEL_CAP_FRAMES_EASY", 53),
            ("LEVEL_CAP_FRAMES_MEDIUM", 143),
            ("LEVEL_CAP_FRAMES_HARD", 471),
        ] {
            let line = format!("DEF {name:<34} EQU {value}\n");
            assert!(text.contains(&line), "{line}{text}");
        }
    }
}
