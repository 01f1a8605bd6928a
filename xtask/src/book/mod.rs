//! `cargo xtask book`: the opening book's analysis, `engine-src/book/book.txt`, made by
//! Fairy-Stockfish from what `engine-src/book/lines.txt` asks to cover (see [`Coverage`]).
//!
//! The book has two trees, one for each colour the cartridge may play. In each, every
//! position where the cartridge is to move, below [`BOOK_PLIES`] plies, is analysed and
//! its good moves ([`engine_src::book`]) are followed; where the other side is to move,
//! the lines file says which replies are followed at that ply: all of them, or
//! Fairy-Stockfish's best few. The lines file may add lines of its own, every position on
//! them analysed. The analysis is deterministic: one thread, a fixed hash, the hash
//! cleared before each position, a fixed depth.
//!
//! Nothing is written unless everything succeeded: an unreadable or illegal line of the
//! lines file is an error naming it (file:line) before Fairy-Stockfish is started, and a
//! book whose keys would give a false hit is refused ([`false_hits`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use anyhow::{bail, Context, Result};
use engine_src::book::{Book, ANALYSIS_SEPARATOR, BOOK_PLIES};
use engine_src::{Move, Position};

use crate::cli::BookArgs;
use crate::fairy::Fairy;
use crate::progress::Progress;
use crate::project;

#[cfg(test)]
mod tests;

/// The lines file, relative to the repository root.
pub const LINES_PATH: &str = "engine-src/book/lines.txt";
/// The analysis file, relative to the repository root.
pub const ANALYSIS_PATH: &str = "engine-src/book/book.txt";

/// Fairy-Stockfish's settings for the analysis: `go depth`, the lines it reports
/// (`MultiPV`: the candidates for the good moves and the best replies), one thread and a
/// hash of this many MB.
pub const ANALYSIS_DEPTH: u8 = 12;
pub const ANALYSIS_LINES: usize = 3;
pub const ANALYSIS_HASH_MB: u32 = 16;

/// The replies followed at a ply where the cartridge's opponent is to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replies {
    /// Every legal move.
    All,
    /// Fairy-Stockfish's best this many (at most [`ANALYSIS_LINES`]).
    Best(usize),
}

/// What the lines file asks the book to cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// `replies[ply]`: the opponent's replies followed at that ply (none when absent).
    pub replies: Vec<Option<Replies>>,
    /// Lines from the start (UCI moves) whose every position below [`BOOK_PLIES`] is in
    /// the book.
    pub lines: Vec<Vec<Move>>,
}

/// Reads the lines file: `#` comments, `replies PLY all|N` (the opponent's replies
/// followed at ply PLY, 0 for White's first move, below [`BOOK_PLIES`]), `line MOVE ...`
/// (UCI moves from the start). `path` names the file in the messages.
pub fn parse_lines(path: &str, text: &str) -> Result<Coverage> {
    let mut coverage = Coverage {
        replies: vec![None; usize::from(BOOK_PLIES)],
        lines: Vec::new(),
    };
    for (index, line) in text.lines().enumerate() {
        let at = format!("{path}:{}", index + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "replies" => {
                let [_, ply, count] = words[..] else {
                    bail!("{at}: `{line}` is not `replies PLY all` or `replies PLY N`");
                };
                let ply: usize = ply
                    .parse()
                    .ok()
                    .filter(|&ply| ply < usize::from(BOOK_PLIES))
                    .with_context(|| {
                        format!("{at}: the ply `{ply}` is not 0 to {}", BOOK_PLIES - 1)
                    })?;
                let replies = match count {
                    "all" => Replies::All,
                    _ => Replies::Best(
                        count
                            .parse()
                            .ok()
                            .filter(|n| (1..=ANALYSIS_LINES).contains(n))
                            .with_context(|| {
                                format!(
                                    "{at}: `{count}` is not `all` or a count of 1 to {ANALYSIS_LINES}"
                                )
                            })?,
                    ),
                };
                if coverage.replies[ply].replace(replies).is_some() {
                    bail!("{at}: the replies at ply {ply} are given twice");
                }
            }
            "line" => {
                if words.len() < 2 {
                    bail!("{at}: the line has no moves");
                }
                let mut position = Position::start();
                let mut moves = Vec::new();
                for text in &words[1..] {
                    let m = position
                        .parse_uci(text)
                        .map_err(|error| anyhow::anyhow!("{at}: {error}"))?;
                    position = position.play(&m);
                    moves.push(m);
                }
                coverage.lines.push(moves);
            }
            word => bail!("{at}: `{word}` is not `replies` or `line`"),
        }
    }
    Ok(coverage)
}

/// FNV-1a, 64 bits: the lines file's hash in the analysis's header.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The `lines` header of an analysis made from the lines file `text`.
pub fn lines_header(text: &[u8]) -> String {
    format!("{LINES_PATH} fnv1a64 {:016x}", fnv1a(text))
}

/// The `settings` header: Fairy-Stockfish's settings.
pub fn settings_header() -> String {
    format!("depth {ANALYSIS_DEPTH} multipv {ANALYSIS_LINES} threads 1 hash {ANALYSIS_HASH_MB}")
}

pub fn run(args: &BookArgs) -> Result<()> {
    run_in(&project::root(), &args.engine)
}

/// `cargo xtask book` on the repository at `root`, with the Fairy-Stockfish `engine`.
pub fn run_in(root: &Path, engine: &Path) -> Result<()> {
    let lines_path = root.join(LINES_PATH);
    let lines_text =
        std::fs::read(&lines_path).with_context(|| format!("reading {}", lines_path.display()))?;
    let text = String::from_utf8(lines_text.clone())
        .with_context(|| format!("{LINES_PATH} is not UTF-8"))?;
    let coverage = parse_lines(LINES_PATH, &text)?;
    let mut fairy = Fairy::start(engine)?;
    fairy.set_option("Threads", "1")?;
    fairy.set_option("Hash", &ANALYSIS_HASH_MB.to_string())?;
    fairy.set_option("MultiPV", &ANALYSIS_LINES.to_string())?;
    let analysis = build(&coverage, &mut fairy)?;
    let contents = write_analysis(&lines_text, fairy.name(), &analysis);
    let book =
        Book::parse(&contents).map_err(|error| anyhow::anyhow!("the analysis made, {error}"))?;
    let hits = false_hits(&book);
    if let Some(position) = hits.first() {
        bail!(
            "{} positions within the book's plies share a book position's key, e.g. {}: nothing written",
            hits.len(),
            position.to_fen()
        );
    }
    project::write_atomic(&root.join(ANALYSIS_PATH), contents.as_bytes())?;
    let moves: usize = book.entries.iter().map(|entry| entry.moves.len()).sum();
    println!(
        "{ANALYSIS_PATH}: {} positions, {moves} good moves ({})",
        book.entries.len(),
        fairy.name()
    );
    Ok(())
}

/// A position's analysis: Fairy-Stockfish's moves with their scores, the best first.
type Analysis = Vec<(Move, i32)>;

/// Analyses every position the coverage reaches; the book's positions, by key, in the
/// order first reached.
fn build(coverage: &Coverage, fairy: &mut Fairy) -> Result<Vec<(Position, Analysis)>> {
    let mut analysed: HashMap<u64, Analysis> = HashMap::new();
    let mut book: Vec<(Position, Analysis)> = Vec::new();
    let mut in_book: HashSet<u64> = HashSet::new();
    let mut analyse = |position: &Position, fairy: &mut Fairy| -> Result<Analysis> {
        if let Some(found) = analysed.get(&position.zobrist()) {
            return Ok(found.clone());
        }
        fairy.new_game()?;
        let fen = position.to_fen();
        let lines = fairy
            .analyse(&fen, ANALYSIS_DEPTH)
            .with_context(|| format!("analysing {fen}"))?;
        let mut analysis = Vec::new();
        for (text, score) in lines {
            let m = position
                .parse_uci(&text)
                .with_context(|| format!("Fairy-Stockfish's move {text} in {fen}"))?;
            analysis.push((m, score));
        }
        analysed.insert(position.zobrist(), analysis.clone());
        Ok(analysis)
    };
    let progress = Progress::new("book", u64::from(BOOK_PLIES) * 2);
    let mut add = |position: &Position, analysis: &Analysis, book: &mut Vec<_>| {
        if in_book.insert(position.zobrist()) {
            book.push((*position, analysis.clone()));
        }
    };
    for cartridge in [engine_src::Color::White, engine_src::Color::Black] {
        let mut frontier = vec![Position::start()];
        for ply in 0..usize::from(BOOK_PLIES) {
            let mut next = Vec::new();
            let mut seen = HashSet::new();
            for position in frontier.iter().filter(|p| seen.insert(p.zobrist())) {
                if position.legal_moves().is_empty() {
                    continue;
                }
                let followed: Vec<Move> = if position.turn() == cartridge {
                    let analysis = analyse(position, fairy)?;
                    add(position, &analysis, &mut book);
                    engine_src::book::good_moves(&analysis)
                } else {
                    match coverage.replies[ply] {
                        None => Vec::new(),
                        Some(Replies::All) => position.legal_moves().iter().copied().collect(),
                        Some(Replies::Best(count)) => analyse(position, fairy)?
                            .iter()
                            .take(count)
                            .map(|&(m, _)| m)
                            .collect(),
                    }
                };
                next.extend(followed.iter().map(|m| position.play(m)));
            }
            frontier = next;
            progress.advance(1);
        }
    }
    for line in &coverage.lines {
        let mut position = Position::start();
        for m in line.iter().take(usize::from(BOOK_PLIES)) {
            let analysis = analyse(&position, fairy)?;
            add(&position, &analysis, &mut book);
            position = position.play(m);
        }
    }
    Ok(book)
}

/// The analysis file's text.
pub fn write_analysis(lines_text: &[u8], engine: &str, book: &[(Position, Analysis)]) -> String {
    let mut text = format!(
        "# Made by `cargo xtask book` from {LINES_PATH}: do not edit (edit that file and run\n\
         # the command again). Each position: FEN{ANALYSIS_SEPARATOR}Fairy-Stockfish's moves and\n\
         # scores (centipawns for the side to move), the best first.\n\
         lines {}\nengine {engine}\nsettings {}\n",
        lines_header(lines_text),
        settings_header()
    );
    let by_ply: BTreeMap<(u32, String), &Analysis> = book
        .iter()
        .map(|(position, analysis)| {
            (
                (engine_src::book::ply(position), position.to_fen()),
                analysis,
            )
        })
        .collect();
    for ((_, fen), analysis) in by_ply {
        let moves: Vec<String> = analysis
            .iter()
            .map(|(m, score)| format!("{} {score}", m.to_uci()))
            .collect();
        text.push_str(&format!("{fen}{ANALYSIS_SEPARATOR}{}\n", moves.join(" ")));
    }
    text
}

/// The positions reachable from the start in fewer than [`BOOK_PLIES`] plies that are
/// not a book position but have a book position's cartridge key: the lookups that would
/// find a wrong entry (none, for a book the cartridge may have).
pub fn false_hits(book: &Book) -> Vec<Position> {
    let keys: HashMap<u32, u64> = book
        .entries
        .iter()
        .map(|entry| (entry.key, entry.position.zobrist()))
        .collect();
    let mut hits = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut frontier = vec![Position::start()];
    for ply in 0..BOOK_PLIES {
        let mut next = Vec::new();
        for position in frontier {
            if !seen.insert(position.zobrist()) {
                continue;
            }
            if keys
                .get(&position.cartridge_key())
                .is_some_and(|&zobrist| zobrist != position.zobrist())
            {
                hits.push(position);
            }
            if ply + 1 < BOOK_PLIES {
                next.extend(position.legal_moves().iter().map(|m| position.play(m)));
            }
        }
        frontier = next;
    }
    hits
}
