//! How the ROM's answers differ from the model's, in words: the one comparison of a
//! position's legal moves, quiescence moves, verdict, check, evaluation, insufficient
//! material and Zobrist keys (used by verify and by the engine's
//! cartridge tests), and the search down a perft tree for where a count goes wrong.

use std::fmt::{self, Write as _};

use anyhow::Result;
use engine_src::eval::evaluate;
use engine_src::perft::perft;
use engine_src::{Game, Move, Position};

use super::Answers;
use crate::project::plural;
use crate::rom_engine::{HistoryRefused, LegalMoves, RomKeys, RomMove, Verdict};

/// What the model says of a position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The moves played to the position: the ply of the history's last game key.
    pub ply: usize,
    pub verdict: Verdict,
    pub in_check: bool,
    /// `eval::evaluate`.
    pub evaluation: i16,
    pub insufficient_material: bool,
    /// [`RomKeys::of_game`].
    pub keys: RomKeys,
}

impl Expected {
    pub fn of(game: &Game) -> Expected {
        let position = game.position();
        Expected {
            ply: game.moves().len(),
            verdict: Verdict::of_game(game),
            in_check: position.is_check(),
            evaluation: evaluate(position),
            insufficient_material: position.is_insufficient_material(),
            keys: RomKeys::of_game(game),
        }
    }

    /// What the ROM said besides its moves (when only the moves are compared), at `ply`.
    pub fn as_listed(listed: &LegalMoves, ply: usize) -> Expected {
        Expected {
            ply,
            verdict: listed.verdict,
            in_check: listed.in_check,
            evaluation: listed.evaluation,
            insufficient_material: listed.insufficient_material,
            keys: listed.keys.clone(),
        }
    }
}

/// How the ROM's Zobrist keys ([`RomKeys`]) differ from the model's.
#[derive(Debug, PartialEq, Eq)]
pub struct KeysDifference {
    /// The ply of the position: the last game key's.
    ply: usize,
    /// `wZobristKey`, the ROM's and the model's, when they differ.
    line: Option<(u32, u32)>,
    /// How many game keys each keeps, when that differs.
    kept: Option<(usize, usize)>,
    /// The first ply whose game key differs, of those both keep, and the ROM's and the
    /// model's key there.
    key: Option<(usize, u32, u32)>,
}

impl KeysDifference {
    /// `None` when the two are the same; `ply` is the position's (the moves played to
    /// it), the ply of each history's last key.
    pub fn between(rom: &RomKeys, model: &RomKeys, ply: usize) -> Option<KeysDifference> {
        if rom == model {
            return None;
        }
        let (ours, theirs) = (&rom.history, &model.history);
        // Aligned at their ends, the current position's key; the oldest difference first.
        let key_at = |keys: &[u32], back: usize| keys[keys.len() - 1 - back];
        let key = (0..ours.len().min(theirs.len()))
            .rev()
            .find(|&back| key_at(ours, back) != key_at(theirs, back))
            .map(|back| {
                (
                    ply.saturating_sub(back),
                    key_at(ours, back),
                    key_at(theirs, back),
                )
            });
        Some(KeysDifference {
            ply,
            line: (rom.line != model.line).then_some((rom.line, model.line)),
            kept: (ours.len() != theirs.len()).then_some((ours.len(), theirs.len())),
            key,
        })
    }

    /// `5 (plies 3-7)` for 5 game keys kept at ply 7.
    fn describe_kept(&self, kept: usize) -> String {
        match kept {
            0 => "0".to_string(),
            1 => format!("1 (ply {})", self.ply),
            _ if kept <= self.ply + 1 => {
                format!("{kept} (plies {}-{})", self.ply + 1 - kept, self.ply)
            }
            _ => format!(
                "{kept}, more than the game's {}",
                plural(self.ply + 1, "position")
            ),
        }
    }
}

/// `  line key  ROM $..., model $...`, then the game keys' lines, those that differ.
impl fmt::Display for KeysDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((rom, model)) = self.line {
            writeln!(
                f,
                "  line key (wZobristKey)  ROM ${rom:08X}, model ${model:08X}"
            )?;
        }
        if let Some((rom, model)) = self.kept {
            writeln!(
                f,
                "  game keys kept  ROM {}, model {}",
                self.describe_kept(rom),
                self.describe_kept(model)
            )?;
        }
        if let Some((ply, rom, model)) = self.key {
            writeln!(
                f,
                "  game key of ply {ply} (the first that differs)  ROM ${rom:08X}, model \
                 ${model:08X}"
            )?;
        }
        Ok(())
    }
}

/// How the ROM's answer about a position differs from the model's.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Difference {
    only_rom: Vec<String>,
    only_model: Vec<String>,
    /// Moves the ROM listed more than once.
    repeated: Vec<String>,
    /// The same of the quiescence moves.
    quiescence_only_rom: Vec<String>,
    quiescence_only_model: Vec<String>,
    quiescence_repeated: Vec<String>,
    /// The ROM's and the model's, when they differ.
    verdicts: Option<(Verdict, Verdict)>,
    in_check: Option<(bool, bool)>,
    evaluation: Option<(i16, i16)>,
    insufficient_material: Option<(bool, bool)>,
    keys: Option<KeysDifference>,
}

impl Difference {
    pub fn between(listed: &LegalMoves, legal: &[Move], model: Expected) -> Difference {
        let theirs: Vec<RomMove> = legal.iter().map(RomMove::of).collect();
        let (only_rom, only_model, repeated) = compare_sets(&listed.moves, &theirs);
        let quiescence: Vec<RomMove> = legal
            .iter()
            .filter(|m| m.is_quiescence())
            .map(RomMove::of)
            .collect();
        let (quiescence_only_rom, quiescence_only_model, quiescence_repeated) =
            compare_sets(&listed.quiescence, &quiescence);
        Difference {
            only_rom,
            only_model,
            repeated,
            quiescence_only_rom,
            quiescence_only_model,
            quiescence_repeated,
            verdicts: (listed.verdict != model.verdict).then_some((listed.verdict, model.verdict)),
            in_check: (listed.in_check != model.in_check)
                .then_some((listed.in_check, model.in_check)),
            evaluation: (listed.evaluation != model.evaluation)
                .then_some((listed.evaluation, model.evaluation)),
            insufficient_material: (listed.insufficient_material != model.insufficient_material)
                .then_some((listed.insufficient_material, model.insufficient_material)),
            keys: KeysDifference::between(&listed.keys, &model.keys, model.ply),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Difference::default()
    }

    /// The start position, the moves from it and the position they lead to.
    pub fn context(start: &Position, moves: &[Move], position: &Position) -> String {
        let history = match moves {
            [] => "(none)".to_string(),
            _ => moves.iter().map(Move::to_uci).collect::<Vec<_>>().join(" "),
        };
        format!(
            "  start     {}\n  history   {history}\n  position  {}\n",
            start.to_fen(),
            position.to_fen()
        )
    }
}

/// The lines that differ, each `  what  ROM ..., model ...`.
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |moves: &[String]| match moves {
            [] => "(none)".to_string(),
            _ => moves.join(" "),
        };
        if !self.only_rom.is_empty() || !self.only_model.is_empty() {
            writeln!(f, "  only in the ROM:   {}", list(&self.only_rom))?;
            writeln!(f, "  only in the model: {}", list(&self.only_model))?;
        }
        if !self.repeated.is_empty() {
            writeln!(f, "  listed twice by the ROM: {}", list(&self.repeated))?;
        }
        if !self.quiescence_only_rom.is_empty() || !self.quiescence_only_model.is_empty() {
            writeln!(
                f,
                "  quiescence moves only in the ROM:   {}",
                list(&self.quiescence_only_rom)
            )?;
            writeln!(
                f,
                "  quiescence moves only in the model: {}",
                list(&self.quiescence_only_model)
            )?;
        }
        if !self.quiescence_repeated.is_empty() {
            writeln!(
                f,
                "  quiescence moves listed twice by the ROM: {}",
                list(&self.quiescence_repeated)
            )?;
        }
        if let Some((rom, model)) = self.verdicts {
            writeln!(f, "  verdict   ROM {rom}, model {model}")?;
        }
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        if let Some((rom, model)) = self.in_check {
            writeln!(
                f,
                "  in check  ROM {}, model {}",
                yes_no(rom),
                yes_no(model)
            )?;
        }
        if let Some((rom, model)) = self.evaluation {
            writeln!(f, "  evaluation  ROM {rom}, model {model}")?;
        }
        if let Some((rom, model)) = self.insufficient_material {
            writeln!(
                f,
                "  insufficient material  ROM {}, model {}",
                yes_no(rom),
                yes_no(model)
            )?;
        }
        if let Some(keys) = &self.keys {
            write!(f, "{keys}")?;
        }
        Ok(())
    }
}

/// The moves only the ROM listed, those only the model has, and those the ROM listed
/// more than once, each sorted by name.
fn compare_sets(listed: &[RomMove], model: &[RomMove]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut ours = listed.to_vec();
    ours.sort();
    let mut repeated: Vec<String> = ours
        .windows(2)
        .filter(|pair| pair[0] == pair[1])
        .map(|pair| pair[0].to_string())
        .collect();
    repeated.dedup();
    let names = |moves: &[RomMove], others: &[RomMove]| -> Vec<String> {
        let mut names: Vec<String> = moves
            .iter()
            .filter(|m| !others.contains(m))
            .map(RomMove::to_string)
            .collect();
        names.sort();
        names.dedup();
        names
    };
    (names(&ours, model), names(model, &ours), repeated)
}

/// Follows a perft difference down from `start` + `path`: the first position whose
/// legal moves differ, or the subtree whose count differs at depth 1.
pub fn locate(
    rom: &mut impl Answers,
    start: &Position,
    path: &mut Vec<Move>,
    depth: u32,
) -> Result<String> {
    let mut position = *start;
    for m in path.iter() {
        position.play_unchecked(m);
    }
    let history: Vec<RomMove> = path.iter().map(RomMove::of).collect();
    let legal = position.legal_moves();
    let context = Difference::context(start, path, &position);
    let listed = match rom.legal_moves(start, &history) {
        Ok(listed) => listed,
        Err(error) if error.is::<HistoryRefused>() => {
            return Ok(format!("{}\n{context}", first_refused(rom, start, path)?));
        }
        Err(error) => return Err(error),
    };
    // Only the moves matter in a perft tree: compare them with the ROM's own verdict.
    let model = Expected::as_listed(&listed, path.len());
    let difference = Difference::between(&listed, &legal, model);
    if !difference.is_empty() {
        return Ok(format!("{context}{difference}"));
    }
    let mut moves: Vec<Move> = legal.to_vec();
    moves.sort_by_key(Move::to_uci);
    if depth > 1 {
        for m in moves {
            let mut below = history.clone();
            below.push(RomMove::of(&m));
            let got = rom.perft(start, &below, depth - 1)?;
            let want = perft(&position.play(&m), depth - 1);
            if got != want {
                path.push(m);
                return locate(rom, start, path, depth - 1);
            }
        }
    }
    let mut text = context;
    let _ = writeln!(
        text,
        "  the ROM lists the same moves here and counts the same below each of them through \
         its history, yet its perft({depth}) differs: its perft routine itself is at fault"
    );
    Ok(text)
}

/// Which history move the ROM refused, and the moves it listed instead.
pub fn first_refused(rom: &mut impl Answers, start: &Position, moves: &[Move]) -> Result<String> {
    let history: Vec<RomMove> = moves.iter().map(RomMove::of).collect();
    for ply in 0..moves.len() {
        let listed = match rom.legal_moves(start, &history[..ply]) {
            Ok(listed) => listed,
            Err(error) if error.is::<HistoryRefused>() => continue,
            Err(error) => return Err(error),
        };
        if !listed.moves.contains(&history[ply]) {
            let mut names: Vec<String> = listed.moves.iter().map(RomMove::to_string).collect();
            names.sort();
            return Ok(format!(
                "the ROM refused history move {} ({}) as illegal; it lists there: {}",
                ply + 1,
                history[ply],
                names.join(" ")
            ));
        }
    }
    Ok(
        "the ROM refused the history, yet lists every move of it when asked one at a time"
            .to_string(),
    )
}
