//! verify's search part: the cartridge's search (asm/engine/search.asm) against the
//! model's (engine-src/src/search.rs) on a suite of positions, at depths 1 to
//! [`MAX_COMPARED_DEPTH`] and once within a node budget, and with EASY's checks in the
//! quiescence search ([`Limits::check_plies`]) at EASY's depth, at
//! [`CHECKS_COMPARED_DEPTH`] and within a budget, and with MEDIUM's late-move reductions
//! ([`Limits::reduce_depth`]) at MEDIUM's depth and [`MAX_COMPARED_DEPTH`]: the same
//! move, score, principal variation, finished depth and node count, the transposition
//! table the search leaves (every entry, byte for byte: [`table_entry_bytes`], an empty
//! entry as zeros on both sides), and the
//! Zobrist keys of the root after the search (the ROM's as it loaded them, the search
//! having unmade every move it made).
//!
//! A difference is followed to the first node where the two searches part. With a node
//! budget b, both stop at the entry of node b + 1, on some line (the moves from the root
//! to that node: [`search::stopped_line`] for the model, the ROM's read off its frames);
//! two searches that visit the same nodes in the same order stop on the same line for
//! every budget, so a binary search over b finds the first budget at which the lines
//! differ, and the report shows both lines there and the line both were on one node
//! before.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use engine_src::search::{self, Limits, TableEntry};
use engine_src::{Game, Move, Position};

use super::report::KeysDifference;
use crate::rom_engine::{engine_move_bytes, RomEngine, RomKeys, SearchAnswer};

/// Every position is searched at depths 1 to this: the deepest level's (HARD).
pub const MAX_COMPARED_DEPTH: u8 = search::LEVEL_DEPTH_HARD;

/// EASY's checks in the quiescence search are compared at this depth too, where later
/// iterations follow a principal variation through them.
pub const CHECKS_COMPARED_DEPTH: u8 = 3;

/// What the search part asks the engine under test: [`RomEngine`], or a stand-in in tests.
pub(crate) trait Searches {
    fn search(&mut self, position: &Position, limits: Limits) -> Result<SearchAnswer>;
    /// The line the search was on when the budget stopped it; `None` when it did not
    /// stop.
    fn stopped_line(&mut self, position: &Position, limits: Limits) -> Result<Option<Vec<Move>>>;
    /// The Zobrist keys after the last search, which was of `position`.
    fn keys(&mut self, position: &Position) -> Result<RomKeys>;
    /// The bytes of the transposition table after the last search, which was of
    /// `position` within `limits`.
    fn table(&mut self, position: &Position, limits: Limits) -> Result<Vec<u8>>;
}

impl Searches for RomEngine {
    fn search(&mut self, position: &Position, limits: Limits) -> Result<SearchAnswer> {
        RomEngine::search(self, position, &[], limits)
    }

    fn stopped_line(&mut self, position: &Position, limits: Limits) -> Result<Option<Vec<Move>>> {
        RomEngine::stopped_line(self, position, &[], limits)
    }

    fn keys(&mut self, _position: &Position) -> Result<RomKeys> {
        RomEngine::keys(self)
    }

    fn table(&mut self, _position: &Position, _limits: Limits) -> Result<Vec<u8>> {
        RomEngine::table(self)
    }
}

/// The bytes of an entry of the transposition table as the cartridge keeps it
/// (TABLE_ENTRY_* in asm/engine/search.asm): the check (little-endian), the depth, the
/// bound, the move (its from and to bytes, [`engine_move_bytes`]; 0, 0 for none) and the
/// score (little-endian, plus $8000, as the search keeps scores). An empty entry (depth 0)
/// is all zeros.
pub fn table_entry_bytes(entry: &TableEntry) -> [u8; TABLE_ENTRY_SIZE] {
    if entry.depth == 0 {
        return [0; TABLE_ENTRY_SIZE];
    }
    let [check_low, check_high] = entry.check.to_le_bytes();
    let [from, to] = entry.best.as_ref().map_or([0, 0], engine_move_bytes);
    let [score_low, score_high] = (entry.score as u16 ^ SCORE_BIAS).to_le_bytes();
    [
        check_low,
        check_high,
        entry.depth,
        entry.bound,
        from,
        to,
        score_low,
        score_high,
    ]
}

/// The bytes of an entry: [`table_entry_bytes`].
pub const TABLE_ENTRY_SIZE: usize = 8;
/// What the search adds to a score (BIASED_ZERO in asm/engine/search.asm), so that
/// unsigned comparisons order scores.
const SCORE_BIAS: u16 = 0x8000;

/// The model's table after a search of `position` within `limits`, as the ROM's bytes.
fn model_table_bytes(position: &Position, limits: Limits) -> Vec<u8> {
    search::search_table(&Game::new(*position), limits)
        .iter()
        .flat_map(table_entry_bytes)
        .collect()
}

/// The entries where the ROM's table (`rom`) differs from the model's (`model`), one line
/// each, at most [`MAX_TABLE_LINES`]; empty when they are the same. Fails when the ROM's
/// table is not the model's size.
fn table_difference(rom: &[u8], model: &[u8]) -> Result<Vec<String>> {
    if rom.len() != model.len() {
        bail!(
            "the ROM's transposition table has {} bytes (TABLE_SIZE), the model's {} \
             ({} entries of {TABLE_ENTRY_SIZE} bytes)",
            rom.len(),
            model.len(),
            model.len() / TABLE_ENTRY_SIZE
        );
    }
    let differing: Vec<usize> = (0..rom.len() / TABLE_ENTRY_SIZE)
        .filter(|index| {
            let range = index * TABLE_ENTRY_SIZE..(index + 1) * TABLE_ENTRY_SIZE;
            rom[range.clone()] != model[range]
        })
        .collect();
    let entry = |bytes: &[u8], index: usize| {
        let fields = &bytes[index * TABLE_ENTRY_SIZE..(index + 1) * TABLE_ENTRY_SIZE];
        format!(
            "check ${:04X} depth {} bound {} move ${:02X} ${:02X} score {}",
            u16::from_le_bytes([fields[0], fields[1]]),
            fields[2],
            fields[3],
            fields[4],
            fields[5],
            (u16::from_le_bytes([fields[6], fields[7]]) ^ SCORE_BIAS) as i16
        )
    };
    let mut lines: Vec<String> = differing
        .iter()
        .take(MAX_TABLE_LINES)
        .map(|&index| {
            format!(
                "entry {index}: ROM {}, model {}",
                entry(rom, index),
                entry(model, index)
            )
        })
        .collect();
    if differing.len() > MAX_TABLE_LINES {
        lines.push(format!(
            "(and {} more entries)",
            differing.len() - MAX_TABLE_LINES
        ));
    }
    Ok(lines)
}

/// The most differing entries of the table a report lists.
const MAX_TABLE_LINES: usize = 4;

/// The model's [`search::stopped_line`], `None` when the budget did not stop it.
fn model_stopped_line(position: &Position, limits: Limits) -> Option<Vec<Move>> {
    let game = Game::new(*position);
    let result = search::search(&game, limits);
    (result.nodes == limits.nodes).then(|| search::stopped_line(&game, limits))
}

/// The searches compared on one position: depths 1 to [`MAX_COMPARED_DEPTH`], then the
/// deepest with half the nodes the model takes for it (so that the budget stops it
/// inside an iteration); then EASY's (its depth and checks in the quiescence search, no
/// budget), the same checks at [`CHECKS_COMPARED_DEPTH`], and EASY's within half its
/// nodes; then MEDIUM's (its depth, its late moves reduced from depth 2), and the same
/// reductions at [`MAX_COMPARED_DEPTH`].
pub fn compared_limits(position: &Position) -> Vec<Limits> {
    let game = Game::new(*position);
    let half_budget = |limits: Limits| Limits {
        nodes: (search::search(&game, limits).nodes / 2).max(1),
        ..limits
    };
    let mut limits: Vec<Limits> = (1..=MAX_COMPARED_DEPTH).map(Limits::depth).collect();
    limits.push(half_budget(Limits::depth(MAX_COMPARED_DEPTH)));
    let easy = search::Level::Easy.uncapped_limits();
    limits.extend([
        easy,
        Limits {
            depth: CHECKS_COMPARED_DEPTH,
            ..easy
        },
        half_budget(easy),
    ]);
    let medium = search::Level::Medium.uncapped_limits();
    limits.extend([
        medium,
        Limits {
            depth: MAX_COMPARED_DEPTH,
            ..medium
        },
    ]);
    limits
}

/// `depth 3`, `depth 4, budget 1810 nodes` or `depth 1, checks in the quiescence search
/// to ply 2`.
fn describe(limits: Limits) -> String {
    let mut text = format!("depth {}", limits.depth);
    if limits.nodes != u64::MAX {
        let _ = write!(text, ", budget {} nodes", limits.nodes);
    }
    if limits.check_plies > 0 {
        let _ = write!(
            text,
            ", checks in the quiescence search to ply {}",
            limits.check_plies
        );
    }
    if limits.reduce_depth != search::LMR_DEPTH {
        let _ = write!(
            text,
            ", late moves reduced from depth {}",
            limits.reduce_depth
        );
    }
    text
}

/// Compares the search of `position` within `limits`; `None` when the two agree, else
/// the report of the difference.
pub fn compare(
    rom: &mut impl Searches,
    fen: &str,
    position: &Position,
    limits: Limits,
) -> Result<Option<String>> {
    let model = search::search(&Game::new(*position), limits);
    let want = SearchAnswer::of_model(&model)
        .expect("the suite's positions have a legal move (checked when it is read)");
    let got = rom.search(position, limits)?;
    let keys = rom.keys(position)?;
    let table = table_difference(
        &rom.table(position, limits)?,
        &model_table_bytes(position, limits),
    )?;
    // The root, loaded with no history: its own game key alone, at ply 0.
    let keys_difference =
        KeysDifference::between(&keys, &RomKeys::of_game(&Game::new(*position)), 0);
    if got == want && keys_difference.is_none() && table.is_empty() {
        return Ok(None);
    }
    let mut report = format!(
        "MISMATCH search of {fen} at {}:\n  ROM    {got}\n  model  {want}\n",
        describe(limits)
    );
    if !table.is_empty() {
        let _ = writeln!(report, "  the transposition tables differ:");
        for line in &table {
            let _ = writeln!(report, "    {line}");
        }
    }
    if let Some(difference) = keys_difference {
        let _ = writeln!(
            report,
            "  the Zobrist keys after the search, not the root's:"
        );
        for line in difference.to_string().lines() {
            let _ = writeln!(report, "  {line}");
        }
    }
    if got != want {
        // With a budget of the fewer nodes, the search that takes more stops and the
        // other does not: their lines differ there at the latest.
        let most = if got.nodes == want.nodes {
            got.nodes
        } else {
            got.nodes.min(want.nodes).max(1) - 1
        };
        report.push_str(&first_parting(rom, position, limits, most)?);
    }
    Ok(Some(report))
}

/// `b1c3 b6c4` or `(the root)`.
fn line_text(line: &Option<Vec<Move>>) -> String {
    match line {
        None => "(not stopped: the search ended first)".to_string(),
        Some(moves) if moves.is_empty() => "(the root)".to_string(),
        Some(moves) => moves.iter().map(Move::to_uci).collect::<Vec<_>>().join(" "),
    }
}

/// Where each search stops with a budget of `nodes`.
type Lines = (Option<Vec<Move>>, Option<Vec<Move>>);

fn lines(
    rom: &mut impl Searches,
    position: &Position,
    limits: Limits,
    nodes: u64,
) -> Result<Lines> {
    let limits = Limits { nodes, ..limits };
    Ok((
        rom.stopped_line(position, limits)?,
        model_stopped_line(position, limits),
    ))
}

/// The first node budget (1 to `most + 1`) at which the two searches to `depth` stop on
/// different lines, found by a binary search, and the lines there.
fn first_parting(
    rom: &mut impl Searches,
    position: &Position,
    limits: Limits,
    most: u64,
) -> Result<String> {
    let mut at_high = lines(rom, position, limits, most + 1)?;
    if at_high.0 == at_high.1 {
        return Ok(format!(
            "  the two searches stop on the same line at every budget tried (up to {} \
             nodes): they visit the same nodes but score them differently\n",
            most + 1
        ));
    }
    // The smallest budget whose lines differ is in low + 1 ..= high.
    let (mut low, mut high) = (0, most + 1);
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        let at_middle = lines(rom, position, limits, middle)?;
        if at_middle.0 == at_middle.1 {
            low = middle;
        } else {
            high = middle;
            at_high = at_middle;
        }
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "  the searches part at node {}: with a budget of {high} nodes",
        high + 1
    );
    let _ = writeln!(text, "    the ROM stops at   {}", line_text(&at_high.0));
    let _ = writeln!(text, "    the model stops at {}", line_text(&at_high.1));
    if low > 0 {
        let (before, _) = lines(rom, position, limits, low)?;
        let _ = writeln!(text, "    (with {low} both stop at {})", line_text(&before));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_src::START_FEN;

    /// The model's search with a planted difference: from node `parts_at` on it searches
    /// another line (it stops one move deeper than the model), and it counts one node more.
    struct PartsAt {
        parts_at: u64,
    }

    impl Searches for PartsAt {
        fn search(&mut self, position: &Position, limits: Limits) -> Result<SearchAnswer> {
            let mut answer =
                SearchAnswer::of_model(&search::search(&Game::new(*position), limits)).unwrap();
            answer.nodes += 1;
            Ok(answer)
        }

        fn stopped_line(
            &mut self,
            position: &Position,
            limits: Limits,
        ) -> Result<Option<Vec<Move>>> {
            let line = model_stopped_line(position, limits);
            if limits.nodes + 1 < self.parts_at {
                return Ok(line);
            }
            let mut line = line.unwrap_or_default();
            let mut there = *position;
            for m in &line {
                there.play_unchecked(m);
            }
            line.push(there.legal_moves()[0]);
            Ok(Some(line))
        }

        fn keys(&mut self, position: &Position) -> Result<RomKeys> {
            Ok(RomKeys::of_game(&Game::new(*position)))
        }

        fn table(&mut self, position: &Position, limits: Limits) -> Result<Vec<u8>> {
            Ok(model_table_bytes(position, limits))
        }
    }

    #[test]
    fn a_search_difference_names_the_first_node_where_the_searches_part() {
        let start = Position::start();
        let report = compare(
            &mut PartsAt { parts_at: 50 },
            START_FEN,
            &start,
            Limits::depth(2),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            report,
            format!(
                "MISMATCH search of {START_FEN} at depth 2:
  ROM    b1c3 score 8 nodes 67 depth 2 pv b1c3 b6c4
  model  b1c3 score 8 nodes 66 depth 2 pv b1c3 b6c4
  the searches part at node 50: with a budget of 49 nodes
    the ROM stops at   {}
    the model stops at {}
    (with 48 both stop at {})
",
                "a2a4 b5a4 a1a4 c6a4 b2b3", "a2a4 b5a4 a1a4 c6a4", "a2a4 b5a4 a1a4",
            )
        );
    }

    /// The model's search, its answers changed by `answer`, the keys it leaves by `keys`
    /// and its table's bytes by `table`.
    struct Altered {
        answer: fn(&mut SearchAnswer),
        keys: fn(&mut RomKeys),
        table: fn(&mut Vec<u8>),
    }

    impl Searches for Altered {
        fn search(&mut self, position: &Position, limits: Limits) -> Result<SearchAnswer> {
            let mut answer =
                SearchAnswer::of_model(&search::search(&Game::new(*position), limits)).unwrap();
            (self.answer)(&mut answer);
            Ok(answer)
        }

        fn stopped_line(
            &mut self,
            position: &Position,
            limits: Limits,
        ) -> Result<Option<Vec<Move>>> {
            Ok(model_stopped_line(position, limits))
        }

        fn keys(&mut self, position: &Position) -> Result<RomKeys> {
            let mut keys = RomKeys::of_game(&Game::new(*position));
            (self.keys)(&mut keys);
            Ok(keys)
        }

        fn table(&mut self, position: &Position, limits: Limits) -> Result<Vec<u8>> {
            let mut bytes = model_table_bytes(position, limits);
            (self.table)(&mut bytes);
            Ok(bytes)
        }
    }

    /// The report on a depth-1 search of the start position, which must differ.
    fn start_report(rom: &mut impl Searches) -> String {
        compare(rom, START_FEN, &Position::start(), Limits::depth(1))
            .unwrap()
            .expect("a difference")
    }

    #[test]
    fn the_same_nodes_scored_differently_are_said_so() {
        let mut rescored = Altered {
            answer: |answer| answer.score += 1,
            keys: |_| {},
            table: |_| {},
        };
        let report = start_report(&mut rescored);
        assert!(
            report.ends_with(
                "  the two searches stop on the same line at every budget tried (up to 14 \
                 nodes): they visit the same nodes but score them differently\n"
            ),
            "{report}"
        );
    }

    #[test]
    fn keys_left_otherwise_by_the_search_are_a_difference() {
        // Bit 0 of the line key flipped.
        let mut unkeyed = Altered {
            answer: |_| {},
            keys: |keys| keys.line ^= 1,
            table: |_| {},
        };
        let report = start_report(&mut unkeyed);
        assert_eq!(
            report,
            format!(
                "MISMATCH search of {START_FEN} at depth 1:
  ROM    b1c3 score 40 nodes 13 depth 1 pv b1c3
  model  b1c3 score 40 nodes 13 depth 1 pv b1c3
  the Zobrist keys after the search, not the root's:
    line key (wZobristKey)  ROM $84747465, model $84747464
"
            )
        );
    }

    #[test]
    fn a_table_entry_is_rendered_in_the_cartridges_bytes() {
        let position = Position::from_fen("4k/1P3/5/5/5/R3K w Q - 0 1").unwrap();
        let under_promotion = *position
            .legal_moves()
            .iter()
            .find(|m| m.to_uci() == "b5b6n")
            .unwrap();
        let entry = TableEntry {
            check: 0xBEEF,
            best: Some(under_promotion),
            score: -(search::MATE - 3),
            depth: 4,
            bound: search::BOUND_UPPER,
        };
        // -30997 + $8000 = $06EB; b5 is row 6, file 1; b6 row 7, a knight's bits $88.
        assert_eq!(
            table_entry_bytes(&entry),
            [0xEF, 0xBE, 4, 3, 0x61, 0xF9, 0xEB, 0x06]
        );
        let no_move = TableEntry {
            best: None,
            score: 130,
            ..entry
        };
        assert_eq!(
            table_entry_bytes(&no_move),
            [0xEF, 0xBE, 4, 3, 0, 0, 0x82, 0x80]
        );
        // An empty entry is all zeros, whatever its other fields.
        let empty = TableEntry { depth: 0, ..entry };
        assert_eq!(table_entry_bytes(&empty), [0; TABLE_ENTRY_SIZE]);
    }

    #[test]
    fn a_table_left_otherwise_by_the_search_is_a_difference_naming_the_entry() {
        // A depth-1 search stores the root alone (its children are quiescence nodes),
        // in the entry its key's low bits index: b1c3 (b1 is row 2, file 1; c3 row 4,
        // file 2), exact. The ROM here leaves it depth 2; the answers are the same, so
        // no parting is looked for.
        let start = Position::start();
        let index = search::table_index(start.zobrist());
        assert_eq!(index, 100);
        let mut deeper = Altered {
            answer: |_| {},
            keys: |_| {},
            table: |bytes| bytes[100 * TABLE_ENTRY_SIZE + 2] = 2,
        };
        let report = start_report(&mut deeper);
        assert_eq!(
            report,
            format!(
                "MISMATCH search of {START_FEN} at depth 1:
  ROM    b1c3 score 40 nodes 13 depth 1 pv b1c3
  model  b1c3 score 40 nodes 13 depth 1 pv b1c3
  the transposition tables differ:
    entry 100: ROM check $8474 depth 2 bound 1 move $21 $42 score 40, \
model check $8474 depth 1 bound 1 move $21 $42 score 40
"
            )
        );
    }

    #[test]
    fn a_table_of_another_size_is_an_error() {
        assert_eq!(
            table_difference(&[0; 16], &[0; 1024])
                .unwrap_err()
                .to_string(),
            "the ROM's transposition table has 16 bytes (TABLE_SIZE), the model's 1024 \
             (128 entries of 8 bytes)"
        );
    }

    #[test]
    fn the_limits_compared_are_depths_1_to_hards_half_the_deepest_budget_easys_and_mediums() {
        const HARD_NODES: u64 = 544;
        const EASY_NODES: u64 = 13;
        let limits = compared_limits(&Position::start());
        let start = Game::new(Position::start());
        assert_eq!(search::search(&start, Limits::depth(4)).nodes, HARD_NODES);
        let easy = search::Level::Easy.uncapped_limits();
        assert_eq!(search::search(&start, easy).nodes, EASY_NODES);
        let checks = |depth, nodes| Limits {
            depth,
            nodes,
            check_plies: search::LEVEL_CHECK_PLIES_EASY,
            reduce_depth: search::LMR_DEPTH,
        };
        let medium = |depth| Limits {
            reduce_depth: search::LEVEL_REDUCE_DEPTH_MEDIUM,
            ..Limits::depth(depth)
        };
        assert_eq!(
            limits,
            [1, 2, 3, 4]
                .map(Limits::depth)
                .into_iter()
                .chain([
                    Limits::budget(4, HARD_NODES / 2),
                    checks(1, u64::MAX),
                    checks(3, u64::MAX),
                    checks(1, EASY_NODES / 2),
                    medium(3),
                    medium(4),
                ])
                .collect::<Vec<_>>()
        );
        assert_eq!(
            describe(limits[4]),
            format!("depth 4, budget {} nodes", HARD_NODES / 2)
        );
        assert_eq!(
            describe(limits[7]),
            format!(
                "depth 1, budget {} nodes, checks in the quiescence search to ply 1",
                EASY_NODES / 2
            )
        );
        assert_eq!(
            describe(limits[8]),
            "depth 3, late moves reduced from depth 2"
        );
    }
}
