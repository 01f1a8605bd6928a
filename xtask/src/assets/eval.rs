//! The evaluation's weights (`engine_src::eval`: [`MATERIAL`], [`PIECE_SQUARE`],
//! [`TEMPO`]) rendered into `generated/engine/eval.inc` for asm/engine/eval.asm.
//!
//! The weights are laid out as the assembly reads them: two 256-byte pages, White's then
//! Black's, each holding what a piece of that colour adds to White's score (Black's
//! entries are negated, and mirrored: a Black piece on a6 reads a1's entry), so that
//! MakeMove adds one entry and subtracts another whoever moves. In a colour's page:
//! - the piece-square entry of a role on a square is at cell `square + offset`, the
//!   square being the engine's mailbox square (16 cells a row, rank 1 in row 2) and the
//!   offset the role's (its own columns and rows, as the Zobrist key pages have them:
//!   bishop, rook and queen in columns 0-4, 5-9 and 10-14 of rows 2-7, pawn, knight and
//!   king in those of rows 8-13);
//! - a role's material is at cell `role code` (the low byte) and `role code + 16` (the
//!   high byte), the role code being the piece code's bits 0-3 (rows 0 and 1);
//! - at cell `role code + 224` (row 14), the role's offset, and at `role code + 240`
//!   (row 15) what the role counts towards mating material: the assembly's test of
//!   `Position::is_insufficient_material` (a bishop or knight 1, a pawn, rook or queen
//!   2, the king 0: below 2, neither side can mate), kept with the score so that one
//!   page lookup gives a piece all it adds;
//! - every other cell is 0.
//!
//! The file also defines the layout's constants, which eval.asm asserts are the engine's.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Result};
use askama::Template;
use engine_src::eval::{
    endgame_king_change_from, Corners, ENDGAME_KING_CHANGE_MAX, ENDGAME_KING_DEPTH, ENDGAME_PHASE,
    MATERIAL, MOP_UP_CORNER_STEP, MOP_UP_CORNER_STEPS, MOP_UP_KING_STEP, MOP_UP_KING_STEPS, PHASE,
    PIECE_SQUARE, PIECE_SQUARE_MAX, PIECE_SQUARE_MIN, TEMPO,
};
use engine_src::{ByRole, Color, File, Rank, Role, Square};

use super::Outputs;

/// The file made, relative to `generated/`.
pub const EVAL_INC: &str = "engine/eval.inc";

/// The mailbox: the row of rank 1 and the cells of a row (asm/engine/engine.inc's
/// BOARD_FIRST_ROW and BOARD_ROW_CELLS).
pub(crate) const BOARD_FIRST_ROW: usize = 2;
pub(crate) const BOARD_ROW_CELLS: usize = 16;
pub(super) const PAGE_SIZE: usize = 256;

/// Each role's code (bits 0-3 of a piece code, engine.inc's ROLE_*), its offset in a
/// page and its mating material, in the order of [`Role::ALL`] (the Zobrist key pages,
/// zobrist.rs, use the same offsets).
pub(crate) const ROLE_CODES: [(&str, u8, usize, u8); 6] = [
    ("PAWN", 0b0100, 6 * BOARD_ROW_CELLS, 2),
    ("KNIGHT", 0b1000, 6 * BOARD_ROW_CELLS + 5, 1),
    ("BISHOP", 0b0001, 0, 1),
    ("ROOK", 0b0010, 5, 2),
    ("QUEEN", 0b0011, 10, 2),
    ("KING", 0b1100, 6 * BOARD_ROW_CELLS + 10, 0),
];
/// The rows of a page holding each role's offset and mating material.
const OFFSET_ROW: usize = 14;
const MATING_ROW: usize = 15;

/// The weights of an evaluation, as `engine_src::eval` defines them.
#[derive(Clone, Debug)]
pub struct Weights {
    pub material: ByRole<i16>,
    pub piece_square: ByRole<[i8; Square::COUNT]>,
    pub tempo: i16,
}

impl Weights {
    /// engine-src's weights.
    pub fn model() -> Weights {
        Weights {
            material: MATERIAL,
            piece_square: PIECE_SQUARE,
            tempo: TEMPO,
        }
    }
}

pub fn generate(_root: &Path, outputs: &mut Outputs) -> Result<()> {
    let text = render(&Weights::model())?;
    outputs.ensure_file_contents(EVAL_INC, text.as_bytes())
}

/// The text of `generated/engine/eval.inc` for `weights`; fails on a weight the layout
/// cannot hold.
pub fn render(weights: &Weights) -> Result<String> {
    for role in Role::ALL {
        for (index, &entry) in weights.piece_square[role].iter().enumerate() {
            if !(PIECE_SQUARE_MIN..=PIECE_SQUARE_MAX).contains(&entry) {
                bail!(
                    "engine-src/src/eval.rs: PIECE_SQUARE's {role} entry {index} ({}) is \
                     {entry}, outside {PIECE_SQUARE_MIN}..={PIECE_SQUARE_MAX}",
                    Square::ALL[index]
                );
            }
        }
        let material = weights.material[role];
        if !(0..=i16::MAX / 2).contains(&material) {
            bail!(
                "engine-src/src/eval.rs: MATERIAL's {role} is {material}, outside 0..={}",
                i16::MAX / 2
            );
        }
    }
    let mut lines = Vec::new();
    for color in Color::ALL {
        let page = page(weights, color);
        for (row, cells) in page.chunks(BOARD_ROW_CELLS).enumerate() {
            let mut line = "db ".to_string();
            for (i, byte) in cells.iter().enumerate() {
                let comma = if i == 0 { "" } else { ", " };
                write!(line, "{comma}{:>4}", *byte as i8).unwrap();
            }
            write!(line, " ; {color:?} {}", row_contents(row)).unwrap();
            lines.push(line);
        }
    }
    let template = EvalTemplate {
        offset_row: OFFSET_ROW,
        mating_row: MATING_ROW,
        first_row: BOARD_FIRST_ROW,
        row_cells: BOARD_ROW_CELLS,
        roles: ROLE_CODES
            .iter()
            .map(|&(name, code, offset, mating)| (name, format!("%{code:04b}"), offset, mating))
            .collect(),
        tempo: weights.tempo,
        lines,
        mop_up_corner_step: MOP_UP_CORNER_STEP,
        mop_up_king_step: MOP_UP_KING_STEP,
        mop_up_corner_steps: MOP_UP_CORNER_STEPS,
        mop_up_king_steps: MOP_UP_KING_STEPS,
        file_steps: db_list(
            File::ALL.map(|file| Corners::All.steps(Square::from_coords(file, Rank::First))),
        ),
        rank_steps: [
            ("all", "all four corners", Corners::All),
            ("dark", "the dark corners a1 and e1", Corners::Dark),
            ("light", "the light corners a6 and e6", Corners::Light),
        ]
        .map(|(name, what, corners)| {
            (
                name,
                what,
                db_list(Rank::ALL.map(|rank| corners.steps(Square::from_coords(File::A, rank)))),
            )
        })
        .to_vec(),
        endgame_phase: ENDGAME_PHASE,
        endgame_king_depth: ENDGAME_KING_DEPTH,
        phase_by_role: phase_by_role(),
        endgame_king_rows: endgame_king_rows(weights)?,
    };
    let mut text = template.render()?;
    text.push('\n');
    Ok(text)
}

/// [`PHASE`] by role code (the operands of a `db` of 16 bytes: codes without a role
/// count 0).
fn phase_by_role() -> String {
    let mut phases = [0i16; BOARD_ROW_CELLS];
    for (role, &(_, code, _, _)) in Role::ALL.into_iter().zip(&ROLE_CODES) {
        phases[usize::from(code)] = PHASE[role];
    }
    db_list(phases)
}

/// The table of a king's endgame (`eval::endgame_king_change`) as asm/engine/eval.asm
/// reads it: a row of 16 cells for each rank (1 first), the change a White king on a
/// file adds to White's score in cells 0-4 (by file) and a Black king's (negated) in
/// cells 5-9, so that the cell `square - ROW_RANK_1 + 5 * side` is the king's; the rest 0.
/// Fails when a change is larger than the assembly can add.
fn endgame_king_rows(weights: &Weights) -> Result<Vec<String>> {
    let mut rows = Vec::new();
    for rank in Rank::ALL {
        let mut cells = [0i16; BOARD_ROW_CELLS];
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            for (color, sign, first) in [(Color::White, 1, 0), (Color::Black, -1, File::COUNT)] {
                // From these weights' king table (the model's: eval::endgame_king_change),
                // so that the kings read ENDGAME_KING whatever the middlegame's table.
                let change =
                    endgame_king_change_from(&weights.piece_square[Role::King], color, square);
                if change.abs() > ENDGAME_KING_CHANGE_MAX {
                    bail!(
                        "engine-src/src/eval.rs: ENDGAME_KING's {color:?} king on {square} \
                         changes its score by {change}, more than {ENDGAME_KING_CHANGE_MAX}"
                    );
                }
                cells[first + file.index()] = sign * change;
            }
        }
        rows.push(format!("{} ; rank {}", db_list(cells), rank.index() + 1));
    }
    Ok(rows)
}

/// `values` as the operands of a `db`.
fn db_list<const N: usize>(values: [i16; N]) -> String {
    values.map(|value| value.to_string()).join(", ")
}

/// One colour's page (see the top of the file).
fn page(weights: &Weights, color: Color) -> [u8; PAGE_SIZE] {
    let sign: i16 = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut page = [0u8; PAGE_SIZE];
    let mut used = [false; PAGE_SIZE];
    let mut put = |cell: usize, byte: u8| {
        assert!(!used[cell], "two weights in cell {cell} of a page");
        used[cell] = true;
        page[cell] = byte;
    };
    for (role, &(_, code, offset, mating)) in Role::ALL.into_iter().zip(&ROLE_CODES) {
        let [low, high] = (sign * weights.material[role]).to_le_bytes();
        put(usize::from(code), low);
        put(usize::from(code) + BOARD_ROW_CELLS, high);
        put(
            usize::from(code) + OFFSET_ROW * BOARD_ROW_CELLS,
            offset as u8,
        );
        put(usize::from(code) + MATING_ROW * BOARD_ROW_CELLS, mating);
        for square in Square::ALL {
            let cell = page_cell(square, offset);
            let entry = weights.piece_square[role][square.relative(color).index()];
            put(cell, (sign * i16::from(entry)) as u8);
        }
    }
    page
}

/// The cell of a piece page holding the value of a role with page offset `offset` on
/// `square`: the engine's mailbox square plus the offset.
pub(crate) fn page_cell(square: Square, offset: usize) -> usize {
    (BOARD_FIRST_ROW + square.rank().index()) * BOARD_ROW_CELLS + square.file().index() + offset
}

/// What row `row` of a page holds, for the comment beside it.
fn row_contents(row: usize) -> String {
    match row {
        0 => "material, low bytes (by role code)".to_string(),
        1 => "material, high bytes (by role code + 16)".to_string(),
        2..=7 => format!("bishop, rook, queen on rank {}", row - BOARD_FIRST_ROW + 1),
        8..=13 => format!("pawn, knight, king on rank {}", row - BOARD_FIRST_ROW - 5),
        OFFSET_ROW => "role offsets (by role code + 224)".to_string(),
        MATING_ROW => "mating material (by role code + 240)".to_string(),
        _ => "(unused)".to_string(),
    }
}

#[derive(Template)]
#[template(path = "eval.inc", escape = "none")]
struct EvalTemplate {
    offset_row: usize,
    mating_row: usize,
    first_row: usize,
    row_cells: usize,
    roles: Vec<(&'static str, String, usize, u8)>,
    tempo: i16,
    lines: Vec<String>,
    mop_up_corner_step: i16,
    mop_up_king_step: i16,
    mop_up_corner_steps: i16,
    mop_up_king_steps: i16,
    file_steps: String,
    rank_steps: Vec<(&'static str, &'static str, String)>,
    endgame_phase: i16,
    endgame_king_depth: u8,
    phase_by_role: String,
    endgame_king_rows: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `db` line of `color`'s page row `row` in `text`.
    fn row(text: &str, color: Color, row: usize) -> &str {
        let suffix = format!("; {color:?} {}", row_contents(row));
        text.lines()
            .find(|line| line.ends_with(&suffix))
            .unwrap_or_else(|| panic!("no line ending {suffix}"))
    }

    #[test]
    fn the_pages_hold_material_and_mirrored_negated_entries() {
        let text = render(&Weights::model()).unwrap();
        assert!(text.starts_with(
            "; Generated by `cargo xtask assets` from engine-src/src/eval.rs: do not edit"
        ));
        assert!(
            text.contains("\nDEF EVAL_TEMPO           EQU 8\n"),
            "{text}"
        );
        assert!(
            text.contains("\nDEF EVAL_OFFSET_PAWN     EQU 96\n"),
            "{text}"
        );
        assert!(
            text.contains("\nDEF EVAL_ROLE_KING       EQU %1100\n"),
            "{text}"
        );
        // Material: bishop 283 = $011B, rook 461 = $01CD, queen 882 = $0372, pawn 101 =
        // $0065, knight 323 = $0143 at their role codes 1, 2, 3, 4 and 8; Black's negated.
        assert_eq!(
            row(&text, Color::White, 0),
            "\tdb    0,   27,  -51,  114,  101,    0,    0,    0,   67,    0,    0,    0,    0,    0,    0,    0 ; White material, low bytes (by role code)"
        );
        assert_eq!(
            row(&text, Color::Black, 1),
            "\tdb    0,   -2,   -2,   -4,   -1,    0,    0,    0,   -2,    0,    0,    0,    0,    0,    0,    0 ; Black material, high bytes (by role code + 16)"
        );
        // The offsets and mating material, the same in both pages.
        for color in Color::ALL {
            assert!(row(&text, color, OFFSET_ROW).starts_with(
                "\tdb    0,    0,    5,   10,   96,    0,    0,    0,  101,    0,    0,    0,  106,"
            ));
            assert!(row(&text, color, MATING_ROW).starts_with(
                "\tdb    0,    1,    2,    2,    2,    0,    0,    0,    1,    0,    0,    0,    0,"
            ));
        }
        // White's pawns on rank 3 (row 10), knights beside them; Black's pawns on rank 4
        // read rank 3's entries, negated.
        assert_eq!(
            row(&text, Color::White, 10),
            "\tdb  -11,   43,   -2,   43,  -11,    2,   21,   22,   21,    2,   -5,    6,   -5,    6,   -5,    0 ; White pawn, knight, king on rank 3"
        );
        assert_eq!(
            row(&text, Color::Black, 11),
            "\tdb   11,  -43,    2,  -43,   11,   -2,  -21,  -22,  -21,   -2,    5,   -6,    5,   -6,    5,    0 ; Black pawn, knight, king on rank 4"
        );
    }

    #[test]
    fn a_changed_weight_changes_the_file() {
        let model = render(&Weights::model()).unwrap();
        let mut weights = Weights::model();
        weights.piece_square[Role::Knight][Square::C3.index()] = 21;
        let changed = render(&weights).unwrap();
        assert_ne!(changed, model);
        assert_eq!(
            row(&changed, Color::White, 4),
            row(&model, Color::White, 4),
            "the rows of other roles stay"
        );
        // c3's entry in White's row 10 (rank 3), c4's in Black's row 11 (negated).
        assert!(row(&changed, Color::White, 10).contains(",    2,   21,   21,   21,    2,"));
        assert!(row(&changed, Color::Black, 11).contains(",   -2,  -21,  -21,  -21,   -2,"));
        let mut weights = Weights::model();
        weights.tempo = 10;
        assert!(render(&weights)
            .unwrap()
            .contains("\nDEF EVAL_TEMPO           EQU 10\n"));
        let mut weights = Weights::model();
        weights.material[Role::Rook] = 500;
        assert_ne!(render(&weights).unwrap(), model);
    }

    #[test]
    fn a_weight_the_layout_cannot_hold_is_a_clear_error() {
        let mut weights = Weights::model();
        weights.piece_square[Role::Rook][Square::B2.index()] = 64;
        assert_eq!(
            render(&weights).unwrap_err().to_string(),
            "engine-src/src/eval.rs: PIECE_SQUARE's rook entry 6 (b2) is 64, outside -64..=63"
        );
        let mut weights = Weights::model();
        weights.material[Role::Queen] = -1;
        assert_eq!(
            render(&weights).unwrap_err().to_string(),
            "engine-src/src/eval.rs: MATERIAL's queen is -1, outside 0..=16383"
        );
    }

    #[test]
    fn the_endgame_kings_rows_are_the_models_changes() {
        let text = render(&Weights::model()).unwrap();
        // Rank 1: White's king on a1-e1 (eval::endgame_king_change), then Black's king on
        // a1-e1, which reads a6-e6's entries, negated.
        let white: Vec<i16> = File::ALL
            .map(|file| {
                engine_src::eval::endgame_king_change(
                    Color::White,
                    Square::from_coords(file, Rank::First),
                )
            })
            .to_vec();
        assert_eq!(white, [-20, 5, -15, 5, -20]);
        assert!(
            text.contains(
                "\tdb -20, 5, -15, 5, -20, 2, -6, -18, -6, 2, 0, 0, 0, 0, 0, 0 ; rank 1\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nDEF EVAL_ENDGAME_PHASE         EQU 4\n"),
            "{text}"
        );
        assert!(
            text.contains("\nDEF EVAL_ENDGAME_KING_DEPTH    EQU 4\n"),
            "{text}"
        );
        assert!(
            text.contains("\tdb 0, 1, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0\n"),
            "{text}"
        );
        // A middlegame king's entry of -64 on c3 would make c3's change 24 + 64 = 88.
        let mut weights = Weights::model();
        weights.piece_square[Role::King][Square::C3.index()] = -64;
        assert_eq!(
            render(&weights).unwrap_err().to_string(),
            "engine-src/src/eval.rs: ENDGAME_KING's White king on c3 changes its score by 88, \
             more than 63"
        );
    }
}
