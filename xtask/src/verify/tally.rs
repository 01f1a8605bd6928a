//! The checks of a verify run, passed and failed, and the differences printed; each
//! part of the run has a progress bar of its checks.

use anyhow::{Context, Result};
use engine_src::perft::perft;
use engine_src::{Game, Position};

use super::report::{first_refused, locate, Difference, Expected};
use super::Answers;
use crate::progress::Progress;
use crate::random_games::Playout;
use crate::rom_engine::{HistoryRefused, RomMove};

/// Differences printed in full; later ones are only counted.
const MAX_PRINTED: usize = 10;
/// After this many differences the command stops: the engine is clearly broken.
pub const MAX_MISMATCHES: usize = 100;

/// Checks passed and failed, overall and since the last part.
#[derive(Default)]
pub struct Tally {
    pub passed: u64,
    pub failed: u64,
    part_passed: u64,
    part_failed: u64,
    /// The differences printed.
    pub reports: Vec<String>,
    /// The progress bar of the part under way.
    progress: Option<Progress>,
}

impl Tally {
    pub fn stopped(&self) -> bool {
        self.failed >= MAX_MISMATCHES as u64
    }

    /// A part of `checks` checks begins, described by `what` on its progress bar.
    pub fn begin_part(&mut self, what: &'static str, checks: u64) {
        self.progress = Some(Progress::new(what, checks));
    }

    /// `N passed, N failed` since the last call; the part's progress bar is cleared.
    pub fn part(&mut self) -> String {
        self.progress = None;
        let text = format!("{} passed, {} failed", self.part_passed, self.part_failed);
        self.part_passed = 0;
        self.part_failed = 0;
        text
    }

    fn pass(&mut self) {
        self.passed += 1;
        self.part_passed += 1;
        self.advance();
    }

    fn advance(&self) {
        if let Some(progress) = &self.progress {
            progress.advance(1);
        }
    }

    /// Prints `line` (above the progress bar).
    fn println(&self, line: &str) {
        match &self.progress {
            Some(progress) => progress.println(line),
            None => println!("{line}"),
        }
    }

    fn fail(&mut self, report: &str) {
        self.failed += 1;
        self.part_failed += 1;
        self.advance();
        if self.failed <= MAX_PRINTED as u64 {
            self.println(report);
            self.reports.push(report.to_string());
        } else if self.failed == MAX_PRINTED as u64 + 1 {
            self.println("(further differences are counted, not printed)");
        }
    }

    /// Counts a check: passed when there is no `difference`, failed (and the difference
    /// printed) when there is one.
    pub fn record(&mut self, difference: Option<String>) {
        match difference {
            None => self.pass(),
            Some(report) => self.fail(&report),
        }
    }

    /// Compares ROM perft with the model's at `position`.
    pub fn perft(
        &mut self,
        rom: &mut impl Answers,
        fen: &str,
        position: &Position,
        depth: u32,
    ) -> Result<()> {
        let want = perft(position, depth);
        let got = rom
            .perft(position, &[], depth)
            .with_context(|| format!("ROM perft({depth}) of {fen}"))?;
        if got == want {
            self.pass();
            return Ok(());
        }
        let mut report = format!("MISMATCH perft({depth}) of {fen}: ROM {got}, model {want}\n");
        let mut path = Vec::new();
        report.push_str(&locate(rom, position, &mut path, depth)?);
        self.fail(&report);
        Ok(())
    }

    /// Compares the ROM's answer on `position`, loaded with no history, with the model's
    /// (legal moves, verdict, check, evaluation, insufficient material).
    pub fn loaded(&mut self, rom: &mut impl Answers, fen: &str, position: &Position) -> Result<()> {
        let listed = rom
            .legal_moves(position, &[])
            .with_context(|| format!("the ROM's legal moves in {fen}"))?;
        let model = Expected::of(&Game::new(*position));
        let difference = Difference::between(&listed, &position.legal_moves(), model);
        if difference.is_empty() {
            self.pass();
            return Ok(());
        }
        self.fail(&format!(
            "MISMATCH in {fen}:\n{}{difference}",
            Difference::context(position, &[], position)
        ));
        Ok(())
    }

    /// Compares the ROM's answer at `ply` of a playout with the model's; `false` when
    /// they differ (the rest of that game is skipped).
    pub fn position(
        &mut self,
        rom: &mut impl Answers,
        playout: &Playout,
        ply: usize,
        game: &Game,
        model: Expected,
    ) -> Result<bool> {
        let moves = &playout.moves[..ply];
        let history: Vec<RomMove> = moves.iter().map(RomMove::of).collect();
        let context = || Difference::context(&playout.start, moves, game.position());
        let listed = match rom.legal_moves(&playout.start, &history) {
            Ok(listed) => listed,
            Err(error) if error.is::<HistoryRefused>() => {
                let refused = first_refused(rom, &playout.start, moves)?;
                self.fail(&format!(
                    "MISMATCH in a {} game: {}\n{}",
                    playout.kind,
                    refused,
                    context()
                ));
                return Ok(false);
            }
            Err(error) => {
                return Err(error.context(format!(
                    "the ROM's legal moves in a {} game\n{}",
                    playout.kind,
                    context()
                )))
            }
        };
        let difference = Difference::between(&listed, &game.position().legal_moves(), model);
        if difference.is_empty() {
            self.pass();
            return Ok(true);
        }
        self.fail(&format!(
            "MISMATCH in a {} game, ply {ply}:\n{}{difference}",
            playout.kind,
            context()
        ));
        Ok(false)
    }
}
