//! A UCI client for Fairy-Stockfish playing Chess Attack: the independent
//! implementation of the rules that the reference model is checked against
//! (docs/rules.md, "The Fairy-Stockfish variant").
//!
//! The variant is defined by [`VARIANTS_INI`], written to a temporary file when the
//! engine starts. What this client relies on, as Fairy-Stockfish 11.1 prints it:
//! moves in UCI form with 5x6 squares (castling as the king's move `e1c1`,
//! promotions `b5b6q`); `go perft N` prints one `move: count` line per root move and
//! then `Nodes searched: N` (the search runs on a thread, so nothing may be sent that
//! could interrupt it before that line); `go depth N` prints `info` lines and then
//! `bestmove MOVE` (with `ponder MOVE` after it), and `ucinewgame` clears its hash table;
//! `d` prints the position with a `Fen:` line
//! and ends with a `Checkers:` line; a FEN has the en-passant square only when a pawn
//! attacks it; `position ... moves` silently ignores an illegal move and all that follow.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

/// The variant definition explained in docs/rules.md (a copy for people to read is
/// `engine-src/perft/variants.ini`; a test keeps the two equal).
pub const VARIANTS_INI: &str = "\
[chessattack:chess]
maxRank = 6
maxFile = e
startFen = rnbqk/ppppp/5/5/PPPPP/RNBQK w Qq - 0 1
promotionRank = 6
castlingKingsideFile = g
castlingQueensideFile = c
";

/// The variant's name in [`VARIANTS_INI`].
const VARIANT: &str = "chessattack";

/// What the engine says when it has loaded the variant, e.g. `info string variant
/// chessattack files 5 ranks 6 pocket 0 template fairy startpos ...`.
const VARIANT_LOADED: &str = "info string variant chessattack files 5 ranks 6 ";

/// How long the engine may take to answer `uci` and `isready`, and to print a position:
/// Fairy-Stockfish does it in milliseconds, so a program that is silent this long is
/// not a UCI engine (or is stuck).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a perft may take. Perft 3 takes milliseconds; this only turns a hung
/// engine into an error.
const PERFT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a `go depth N` may take. Depth 4 takes milliseconds; this only turns a hung
/// engine into an error.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);
/// The most lines an answer may have. Fairy-Stockfish's longest, to `uci`, has a few
/// dozen; a program that prints this many without the expected reply is not one.
const MAX_ANSWER_LINES: usize = 100_000;
/// Lines the reader thread holds before it waits for them to be read, so a program
/// that prints without end is held back rather than filling memory.
const LINES_IN_FLIGHT: usize = 1024;

/// How to get the engine when it is missing.
pub const INSTALL_HINT: &str = "install it with: apt-get install -y fairy-stockfish";

/// The result of `go perft N`: each root move with its count (in the engine's
/// order), and the total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FairyPerft {
    pub moves: Vec<(String, u64)>,
    pub nodes: u64,
}

/// A running Fairy-Stockfish set up for Chess Attack. Dropping it ends the process
/// and removes the variants file.
pub struct Fairy {
    /// The program, for messages.
    binary: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    variants_file: PathBuf,
    /// What the engine calls itself (its `id name`), e.g. `Fairy-Stockfish 11.1 LB 64`.
    name: String,
}

impl Fairy {
    /// Starts `binary` and selects the Chess Attack variant.
    pub fn start(binary: &Path) -> Result<Fairy> {
        if !binary.is_file() {
            bail!(
                "Fairy-Stockfish not found at {}: {INSTALL_HINT} (or pass --engine PATH)",
                binary.display()
            );
        }
        let variants_file =
            std::env::temp_dir().join(format!("chessattack-variants-{}.ini", std::process::id()));
        std::fs::write(&variants_file, VARIANTS_INI)
            .with_context(|| format!("writing {}", variants_file.display()))?;
        let spawned = Command::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                let _ = std::fs::remove_file(&variants_file);
                return Err(error).with_context(|| format!("starting {}", binary.display()));
            }
        };
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = std::fs::remove_file(&variants_file);
            bail!("no pipes to {}", binary.display());
        };
        let (sender, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut fairy = Fairy {
            binary: binary.to_owned(),
            child,
            stdin,
            lines,
            variants_file,
            name: String::new(),
        };
        fairy.select_variant().with_context(|| {
            format!(
                "{} is not a Fairy-Stockfish that plays Chess Attack ({INSTALL_HINT})",
                binary.display()
            )
        })?;
        Ok(fairy)
    }

    fn select_variant(&mut self) -> Result<()> {
        self.send("uci")?;
        let answer = self
            .read_until("uci", "uciok", HANDSHAKE_TIMEOUT)
            .map_err(|error| anyhow!("{error}: is it a UCI engine?"))?;
        self.name = answer
            .iter()
            .find_map(|line| line.strip_prefix("id name "))
            .unwrap_or("an unnamed UCI engine")
            .to_owned();
        let variants_file = self.variants_file.display().to_string();
        self.send(&format!("setoption name VariantPath value {variants_file}"))?;
        self.send(&format!("setoption name UCI_Variant value {VARIANT}"))?;
        self.send("isready")?;
        let answer = self.read_until("isready", "readyok", HANDSHAKE_TIMEOUT)?;
        if !answer.iter().any(|line| line.starts_with(VARIANT_LOADED)) {
            bail!("the engine did not load the {VARIANT} variant from {variants_file}");
        }
        Ok(())
    }

    /// `go perft depth` from `fen` after `moves` (UCI strings).
    pub fn perft(&mut self, fen: &str, moves: &[String], depth: u32) -> Result<FairyPerft> {
        self.set_position(fen, moves)?;
        let command = format!("go perft {depth}");
        self.send(&command)?;
        parse_perft(&self.read_until(&command, "Nodes searched:", PERFT_TIMEOUT)?)
    }

    /// What the engine calls itself (its `id name`), e.g. `Fairy-Stockfish 11.1 LB 64`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Forgets everything of the games before (its hash table): a game played after
    /// this is the same game whenever it is played.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.read_until("isready", "readyok", HANDSHAKE_TIMEOUT)?;
        Ok(())
    }

    /// The move the engine plays from `fen` after `moves` (UCI strings), searching to
    /// `depth` (`go depth N`), as it writes it (`b5b6q`).
    pub fn best_move(&mut self, fen: &str, moves: &[String], depth: u8) -> Result<String> {
        self.set_position(fen, moves)?;
        let command = format!("go depth {depth}");
        self.send(&command)?;
        let answer = self.read_until(&command, "bestmove", SEARCH_TIMEOUT)?;
        parse_best_move(answer.last().map_or("", String::as_str))
    }

    /// Sets a UCI option (`setoption name NAME value VALUE`) and waits until the engine
    /// is ready again.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        self.send(&format!("setoption name {name} value {value}"))?;
        self.send("isready")?;
        self.read_until("isready", "readyok", HANDSHAKE_TIMEOUT)?;
        Ok(())
    }

    /// The engine's best moves in `fen` with their scores (centipawns for the side to
    /// move, a mate in N as `MATE_SCORE - N`), the best first, from `go depth N` with
    /// the `MultiPV` option set before: the lines of the last depth, as many as it has.
    pub fn analyse(&mut self, fen: &str, depth: u8) -> Result<Vec<(String, i32)>> {
        self.set_position(fen, &[])?;
        let command = format!("go depth {depth}");
        self.send(&command)?;
        let answer = self.read_until(&command, "bestmove", SEARCH_TIMEOUT)?;
        parse_analysis(&answer, depth)
    }

    /// The FEN the engine writes for `fen` after `moves` (UCI strings).
    pub fn fen(&mut self, fen: &str, moves: &[String]) -> Result<String> {
        self.set_position(fen, moves)?;
        self.send("d")?;
        let answer = self.read_until("d", "Checkers:", HANDSHAKE_TIMEOUT)?;
        answer
            .iter()
            .find_map(|line| line.strip_prefix("Fen: "))
            .map(str::to_owned)
            .ok_or_else(|| anyhow!("Fairy-Stockfish printed no `Fen:` line for `d`"))
    }

    fn set_position(&mut self, fen: &str, moves: &[String]) -> Result<()> {
        if moves.is_empty() {
            self.send(&format!("position fen {fen}"))
        } else {
            self.send(&format!("position fen {fen} moves {}", moves.join(" ")))
        }
    }

    /// Sends one command. A program that has stopped reading is not an error here:
    /// every command is followed by reading its answer, and that read reports the stop
    /// (with the program's last lines) whether it came before or after this write.
    fn send(&mut self, command: &str) -> Result<()> {
        match writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()) {
            Err(error) if error.kind() != ErrorKind::BrokenPipe => Err(error)
                .with_context(|| format!("sending `{command}` to {}", self.binary.display())),
            _ => Ok(()),
        }
    }

    /// The lines up to and including the first one starting with `prefix`, the answer
    /// to `command`, which must come within `timeout` and [`MAX_ANSWER_LINES`].
    fn read_until(
        &mut self,
        command: &str,
        prefix: &str,
        timeout: Duration,
    ) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut answer = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    answer.push(line);
                    if done {
                        return Ok(answer);
                    }
                    if answer.len() == MAX_ANSWER_LINES {
                        bail!(
                            "{} printed {MAX_ANSWER_LINES} lines after `{command}` without `{prefix}`",
                            self.binary.display()
                        );
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!(
                    "{} did not answer `{command}` with `{prefix}` within {} s",
                    self.binary.display(),
                    timeout.as_secs()
                ),
                Err(RecvTimeoutError::Disconnected) => bail!(
                    "{} stopped before it answered `{command}` with `{prefix}`{}",
                    self.binary.display(),
                    last_lines(&answer)
                ),
            }
        }
    }
}

impl Drop for Fairy {
    fn drop(&mut self) {
        // Every command has been answered, so `quit` cannot interrupt a search. A
        // process that does not quit (not a UCI engine at all) is killed.
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        // Dropping the receiver ends the reader thread and closes the program's output,
        // so a program blocked printing into a full channel (or pipe) stops too.
        drop(std::mem::replace(&mut self.lines, mpsc::sync_channel(0).1));
        for _ in 0..100 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.variants_file);
    }
}

/// The last lines the engine printed, for a message: `; its last lines:` and them, or
/// nothing when it printed none.
fn last_lines(lines: &[String]) -> String {
    match lines {
        [] => String::new(),
        _ => format!(
            "; its last lines:\n{}",
            lines[lines.len().saturating_sub(5)..].join("\n")
        ),
    }
}

/// Reads the answer to `go perft N`: `move: count` lines, then `Nodes searched: N`.
/// Other lines (blank ones, `info string`) are skipped.
fn parse_perft(answer: &[String]) -> Result<FairyPerft> {
    let mut moves = Vec::new();
    for line in answer {
        if let Some(total) = line.strip_prefix("Nodes searched:") {
            let nodes = total
                .trim()
                .parse()
                .with_context(|| format!("reading Fairy-Stockfish's {line:?}"))?;
            return Ok(FairyPerft { moves, nodes });
        }
        if let Some((uci, count)) = line.split_once(": ") {
            if is_uci_move(uci) {
                let count = count
                    .trim()
                    .parse()
                    .with_context(|| format!("reading Fairy-Stockfish's {line:?}"))?;
                moves.push((uci.to_owned(), count));
            }
        }
    }
    bail!(
        "Fairy-Stockfish's perft answer has no `Nodes searched:` line{}",
        last_lines(answer)
    )
}

/// The score [`Fairy::analyse`] gives a mate in N moves: this less N (its negation
/// when the side to move is mated).
pub const MATE_SCORE: i32 = 30000;

/// Reads the `info depth N ... multipv K score cp X ... pv MOVE ...` lines of the last
/// depth of a `go depth N`: each line's first move and score, by score, the best first
/// (bound lines, `lowerbound` or `upperbound`, are skipped).
fn parse_analysis(answer: &[String], depth: u8) -> Result<Vec<(String, i32)>> {
    let mut lines: Vec<(u32, String, i32)> = Vec::new();
    for line in answer {
        let words: Vec<&str> = line.split_whitespace().collect();
        let value = |name: &str| {
            words
                .iter()
                .position(|word| *word == name)
                .and_then(|at| words.get(at + 1))
                .copied()
        };
        if words.first() != Some(&"info")
            || value("depth") != Some(&depth.to_string())
            || words.contains(&"lowerbound")
            || words.contains(&"upperbound")
        {
            continue;
        }
        let (Some(pv), Some(score_at)) = (value("pv"), words.iter().position(|w| *w == "score"))
        else {
            continue;
        };
        let multipv: u32 = value("multipv").unwrap_or("1").parse().unwrap_or(1);
        let kind = words.get(score_at + 1).copied().unwrap_or("");
        let number: i32 = words
            .get(score_at + 2)
            .and_then(|word| word.parse().ok())
            .ok_or_else(|| anyhow!("Fairy-Stockfish printed an unreadable score: `{line}`"))?;
        let score = match kind {
            "cp" => number,
            "mate" if number > 0 => MATE_SCORE - number,
            "mate" => -MATE_SCORE - number,
            _ => bail!("Fairy-Stockfish printed an unreadable score: `{line}`"),
        };
        if !is_uci_move(pv) {
            bail!("Fairy-Stockfish printed `{pv}` as a move: `{line}`");
        }
        lines.retain(|(k, _, _)| *k != multipv);
        lines.push((multipv, pv.to_owned(), score));
    }
    if lines.is_empty() {
        bail!("Fairy-Stockfish printed no line of depth {depth}");
    }
    lines.sort_by_key(|(multipv, _, score)| (-score, *multipv));
    Ok(lines.into_iter().map(|(_, m, score)| (m, score)).collect())
}

/// Reads `bestmove b2b3` (perhaps followed by `ponder ...`): the move.
fn parse_best_move(line: &str) -> Result<String> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("bestmove"), Some(m)) if is_uci_move(m) => Ok(m.to_owned()),
        _ => bail!("Fairy-Stockfish answered `go depth` with {line:?}, not `bestmove MOVE`"),
    }
}

/// `b2b3` or `b5b6q` on the 5x6 board.
fn is_uci_move(text: &str) -> bool {
    let bytes = text.as_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'e').contains(&file) && (b'1'..=b'6').contains(&rank);
    match bytes {
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, promotion] => {
            square(*f1, *r1) && square(*f2, *r2) && b"qrbn".contains(promotion)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn the_human_copy_of_variants_ini_is_the_one_the_engine_gets() {
        let copy = crate::project::root().join("engine-src/perft/variants.ini");
        assert_eq!(std::fs::read_to_string(copy).unwrap(), VARIANTS_INI);
    }

    #[test]
    fn the_variant_starts_from_the_models_start_position() {
        let start = format!("\nstartFen = {}\n", engine_src::START_FEN);
        assert!(VARIANTS_INI.contains(&start), "{VARIANTS_INI}");
    }

    #[test]
    fn perft_answer_with_moves_promotions_and_castling() {
        let answer =
            lines("info string something\na1b1: 3\nb5b6q: 12\ne1c1: 7\n\nNodes searched: 22");
        assert_eq!(
            parse_perft(&answer).unwrap(),
            FairyPerft {
                moves: vec![
                    ("a1b1".to_owned(), 3),
                    ("b5b6q".to_owned(), 12),
                    ("e1c1".to_owned(), 7)
                ],
                nodes: 22,
            }
        );
    }

    #[test]
    fn perft_answer_without_moves_is_a_mate_or_stalemate() {
        assert_eq!(
            parse_perft(&lines("\nNodes searched: 0")).unwrap(),
            FairyPerft {
                moves: Vec::new(),
                nodes: 0
            }
        );
    }

    #[test]
    fn perft_answer_errors() {
        let error = parse_perft(&lines("a2a3: 1")).unwrap_err().to_string();
        assert!(error.contains("no `Nodes searched:` line"), "{error}");
        let error = parse_perft(&lines("a2a3: x\nNodes searched: 1")).unwrap_err();
        assert_eq!(error.to_string(), "reading Fairy-Stockfish's \"a2a3: x\"");
        let error = parse_perft(&lines("Nodes searched: lots")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "reading Fairy-Stockfish's \"Nodes searched: lots\""
        );
    }

    #[test]
    fn analysis_keeps_the_last_depths_lines_by_score() {
        let answer = lines(
            "info depth 11 seldepth 14 multipv 1 score cp 30 nodes 1 pv b2b3 a5a4\n\
             info depth 12 seldepth 14 multipv 1 score cp 11 lowerbound nodes 2 pv e2e3\n\
             info depth 12 seldepth 14 multipv 1 score cp 11 nodes 3 pv d2d3 d5d4\n\
             info depth 12 seldepth 14 multipv 2 score cp 15 nodes 3 pv b2b3 a5a4\n\
             info depth 12 seldepth 14 multipv 3 score mate -2 nodes 3 pv a2a3\n\
             bestmove d2d3 ponder d5d4",
        );
        assert_eq!(
            parse_analysis(&answer, 12).unwrap(),
            [
                ("b2b3".to_owned(), 15),
                ("d2d3".to_owned(), 11),
                ("a2a3".to_owned(), -MATE_SCORE + 2)
            ]
        );
        let error = parse_analysis(&answer, 13).unwrap_err().to_string();
        assert_eq!(error, "Fairy-Stockfish printed no line of depth 13");
    }

    #[test]
    fn best_move_answers() {
        assert_eq!(parse_best_move("bestmove b5b6n").unwrap(), "b5b6n");
        assert_eq!(
            parse_best_move("bestmove e1c1 ponder a5a4").unwrap(),
            "e1c1"
        );
        assert_eq!(
            parse_best_move("bestmove (none)").unwrap_err().to_string(),
            "Fairy-Stockfish answered `go depth` with \"bestmove (none)\", not `bestmove MOVE`"
        );
    }

    #[test]
    fn uci_moves_on_the_5x6_board() {
        assert!(is_uci_move("e1c1"));
        assert!(is_uci_move("b5b6n"));
        assert!(!is_uci_move("f1c1"));
        assert!(!is_uci_move("a6a7"));
        assert!(!is_uci_move("b5b6k"));
        assert!(!is_uci_move("Nodes"));
    }

    #[test]
    fn a_missing_binary_says_how_to_install_it() {
        let error = Fairy::start(Path::new("/nonexistent/fairy-stockfish"))
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            error,
            "Fairy-Stockfish not found at /nonexistent/fairy-stockfish: install it with: \
             apt-get install -y fairy-stockfish (or pass --engine PATH)"
        );
    }

    #[test]
    fn a_binary_that_is_not_fairy_stockfish_is_refused() {
        let started = Instant::now();
        let error = Fairy::start(Path::new("/bin/true")).err().unwrap();
        assert_eq!(
            format!("{error:#}"),
            "/bin/true is not a Fairy-Stockfish that plays Chess Attack (install it with: \
             apt-get install -y fairy-stockfish): /bin/true stopped before it answered `uci` \
             with `uciok`: is it a UCI engine?"
        );
        assert!(
            started.elapsed() < HANDSHAKE_TIMEOUT,
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_program_that_does_not_answer_like_a_uci_engine_is_an_error_within_seconds() {
        // cat answers `uci` with `uci`, and then nothing.
        let started = Instant::now();
        let error = Fairy::start(Path::new("/bin/cat")).err().unwrap();
        assert_eq!(
            format!("{error:#}"),
            "/bin/cat is not a Fairy-Stockfish that plays Chess Attack (install it with: \
             apt-get install -y fairy-stockfish): /bin/cat did not answer `uci` with `uciok` \
             within 5 s: is it a UCI engine?"
        );
        assert!(
            started.elapsed() < HANDSHAKE_TIMEOUT + Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_program_that_prints_without_end_is_an_error_within_seconds() {
        // yes prints `y` lines as fast as they are read: the reader waits for them, and
        // the answer ends after MAX_ANSWER_LINES of them.
        let started = Instant::now();
        let error = Fairy::start(Path::new("/usr/bin/yes")).err().unwrap();
        assert_eq!(
            format!("{error:#}"),
            "/usr/bin/yes is not a Fairy-Stockfish that plays Chess Attack (install it with: \
             apt-get install -y fairy-stockfish): /usr/bin/yes printed 100000 lines after \
             `uci` without `uciok`: is it a UCI engine?"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }
}
