//! `cargo xtask assets`: regenerates `generated/` from `assets/` and from `engine-src/`
//! (the evaluation's weights, the search's constants, the Zobrist keys). Every generator is a `generate(check)` function that writes through
//! [`ensure_file_contents`]; with `--check` nothing is written and a stale file is an error.

pub mod book;
pub mod eval;
pub mod gfx;
pub mod music;
pub mod pack;
pub mod search;
pub mod zobrist;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::project::{self, plural};

pub fn run(check: bool) -> Result<()> {
    let root = project::root();
    let report = generate_in(&root, check)?;
    for note in &report.notes {
        println!("{note}");
    }
    if check {
        if !report.stale.is_empty() {
            bail!(
                "generated/ has {}: {}; run `cargo xtask assets`",
                plural(report.stale.len(), "stale file"),
                report
                    .stale
                    .iter()
                    .map(|path| format!("generated/{path}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    } else {
        for path in &report.stale {
            let done = if root.join("generated").join(path).exists() {
                "wrote"
            } else {
                "removed"
            };
            println!("{done} generated/{path}");
        }
        println!("generated/ is up to date");
    }
    Ok(())
}

/// What one run of the generators found.
pub struct Report {
    /// The files (relative to `generated/`) that were stale: different from what the
    /// generator makes now, missing, or left over from a source that is gone (a deleted
    /// song). Rewritten or removed unless the run was a check.
    pub stale: Vec<String>,
    /// Every file the generators make, relative to `generated/`.
    pub made: BTreeSet<String>,
    /// What the generators say about their inputs (the tile budget), one line each.
    pub notes: Vec<String>,
}

/// Runs every generator on the repository; returns the stale files (see [`Report::stale`]).
#[cfg(test)]
pub fn generate(check: bool) -> Result<Vec<String>> {
    Ok(generate_in(&project::root(), check)?.stale)
}

/// Runs every generator on `root/assets/` against `root/generated/`. Without `check` the
/// stale files are rewritten or removed — but only once every generator has succeeded, so
/// a bad input leaves `generated/` as it was.
pub fn generate_in(root: &Path, check: bool) -> Result<Report> {
    let mut outputs = Outputs::default();
    gfx::generate(root, &mut outputs)?;
    music::generate(root, &mut outputs)?;
    eval::generate(root, &mut outputs)?;
    search::generate(root, &mut outputs)?;
    zobrist::generate(root, &mut outputs)?;
    book::generate(root, &mut outputs)?;
    let made = outputs.files.keys().cloned().collect();
    let notes = std::mem::take(&mut outputs.notes);
    let stale = outputs.commit(&root.join("generated"), check)?;
    Ok(Report { stale, made, notes })
}

/// How many stale files a message names before it says "and N more".
const NAMED_FILES: usize = 3;

/// What is wrong with `generated/`, as [`check_generated`] finds it.
#[derive(Debug, PartialEq, Eq)]
pub enum GeneratedProblem {
    /// Some or all of its files are not there: nothing that INCLUDEs them builds.
    Missing(String),
    /// Its files are there but not what the converters make of `assets/` now.
    Stale(String),
}

impl GeneratedProblem {
    pub fn message(&self) -> &str {
        match self {
            GeneratedProblem::Missing(message) | GeneratedProblem::Stale(message) => message,
        }
    }
}

/// What `cargo xtask rom` checks before it assembles: that `root/generated/` is what
/// `cargo xtask assets` makes of `root/assets/` now. Writes nothing; it costs about 0.05 s
/// (the converters run, the files are compared), against 1-2 s for the build. Fails with
/// one message when generated/ is missing, incomplete or stale, naming at most
/// [`NAMED_FILES`] of the files and the command that makes them.
pub fn require_up_to_date(root: &Path) -> Result<()> {
    match check_generated(root)? {
        None => Ok(()),
        Some(problem) => bail!("{}", problem.message()),
    }
}

/// Compares `root/generated/` with what the converters make of `root/assets/`, writing
/// nothing; `None` when they are the same.
pub fn check_generated(root: &Path) -> Result<Option<GeneratedProblem>> {
    let report = generate_in(root, true)
        .context("generated/ could not be checked against assets/, which it is made from")?;
    if report.stale.is_empty() {
        return Ok(None);
    }
    let generated = root.join("generated");
    let missing: Vec<&String> = report
        .stale
        .iter()
        .filter(|name| report.made.contains(*name) && !generated.join(name).exists())
        .collect();
    if missing.len() == report.made.len() {
        return Ok(Some(GeneratedProblem::Missing(
            "generated/ is missing: run `cargo xtask assets` to make it from assets/".to_owned(),
        )));
    }
    if !missing.is_empty() {
        return Ok(Some(GeneratedProblem::Missing(format!(
            "generated/ is incomplete: it lacks {}; run `cargo xtask assets` to make {} from assets/",
            some_files(&missing),
            if missing.len() == 1 { "it" } else { "them" }
        ))));
    }
    let (different, left_over): (Vec<&String>, Vec<&String>) = report
        .stale
        .iter()
        .partition(|name| report.made.contains(*name));
    let mut what = Vec::new();
    if !different.is_empty() {
        let verb = if different.len() == 1 {
            "differs"
        } else {
            "differ"
        };
        what.push(format!("{} {verb}", some_files(&different)));
    }
    if !left_over.is_empty() {
        what.push(format!(
            "{} left over from a source that is gone",
            some_files(&left_over)
        ));
    }
    Ok(Some(GeneratedProblem::Stale(format!(
        "generated/ is stale: it is not what assets/ makes now ({}); run `cargo xtask assets` to refresh it",
        what.join("; ")
    ))))
}

/// `generated/a, generated/b, generated/c and 4 more files`: the first [`NAMED_FILES`].
fn some_files(names: &[&String]) -> String {
    let named: Vec<String> = names
        .iter()
        .take(NAMED_FILES)
        .map(|name| format!("generated/{name}"))
        .collect();
    match names.len().checked_sub(NAMED_FILES) {
        Some(rest) if rest > 0 => format!("{} and {}", named.join(", "), plural(rest, "more file")),
        _ => match named.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        },
    }
}

/// What the generators make, held until all of them have succeeded.
#[derive(Default)]
pub struct Outputs {
    /// Each file's contents, by name relative to `generated/`.
    files: BTreeMap<String, Vec<u8>>,
    /// What the generators say about their inputs, printed by `cargo xtask assets`.
    notes: Vec<String>,
}

impl Outputs {
    /// A line for `cargo xtask assets` to print (a budget), not for other commands.
    pub fn note(&mut self, text: String) {
        self.notes.push(text);
    }

    /// Says that `generated/<name>` must hold `contents` (written, if it differs, once
    /// every generator has succeeded).
    pub fn ensure_file_contents(&mut self, name: &str, contents: &[u8]) -> Result<()> {
        if self
            .files
            .insert(name.to_owned(), contents.to_vec())
            .is_some()
        {
            bail!("two generators make generated/{name}");
        }
        Ok(())
    }

    /// Compares every file with what `generated/` holds; without `check`, writes the ones
    /// that differ (each atomically) and removes leftovers. Returns the stale names.
    fn commit(self, generated: &Path, check: bool) -> Result<Vec<String>> {
        let mut stale = Vec::new();
        for (name, contents) in &self.files {
            let path = generated.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(contents.as_slice()) {
                if !check {
                    project::write_atomic(&path, contents)?;
                }
                stale.push(name.clone());
            }
        }
        for (name, path) in self.leftovers(generated)? {
            if !check {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
            stale.push(name);
        }
        Ok(stale)
    }

    /// Files in a folder the generators write (`generated/gfx/`, `generated/music/`) that no
    /// generator made this run: their source was deleted or renamed.
    fn leftovers(&self, generated: &Path) -> Result<Vec<(String, PathBuf)>> {
        let folders: BTreeSet<&str> = self
            .files
            .keys()
            .filter_map(|name| name.split_once('/').map(|(folder, _)| folder))
            .collect();
        let mut leftovers = Vec::new();
        for folder in folders {
            let dir = generated.join(folder);
            if !dir.is_dir() {
                continue;
            }
            let entries =
                std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
                let name = format!("{folder}/{}", entry.file_name().to_string_lossy());
                if entry.path().is_file() && !self.files.contains_key(&name) {
                    leftovers.push((name, entry.path()));
                }
            }
        }
        Ok(leftovers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(files: &[(&str, &str)]) -> Outputs {
        let mut outputs = Outputs::default();
        for (name, contents) in files {
            outputs
                .ensure_file_contents(name, contents.as_bytes())
                .unwrap();
        }
        outputs
    }

    #[test]
    fn check_only_names_stale_and_leftover_files_and_write_mode_fixes_them() {
        let dir = std::env::temp_dir().join(format!("xtask-outputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("music")).unwrap();
        std::fs::write(dir.join("music/title.asm"), "old").unwrap();
        std::fs::write(dir.join("music/same.asm"), "same").unwrap();
        std::fs::write(dir.join("music/deleted.asm"), "gone").unwrap();
        let made = [("music/title.asm", "new"), ("music/same.asm", "same")];

        let stale = outputs(&made).commit(&dir, true).unwrap();
        assert_eq!(stale, ["music/title.asm", "music/deleted.asm"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("music/title.asm")).unwrap(),
            "old"
        );
        assert!(dir.join("music/deleted.asm").exists());

        let stale = outputs(&made).commit(&dir, false).unwrap();
        assert_eq!(stale, ["music/title.asm", "music/deleted.asm"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("music/title.asm")).unwrap(),
            "new"
        );
        assert!(!dir.join("music/deleted.asm").exists());
        assert_eq!(
            outputs(&made).commit(&dir, true).unwrap(),
            Vec::<String>::new()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A scratch repository in a temporary folder: copies of `assets/` and of the folders
    /// of `generated/` that `cargo xtask assets` writes.
    fn scratch(name: &str) -> PathBuf {
        fn copy(from: &Path, to: &Path) {
            std::fs::create_dir_all(to).unwrap();
            for entry in std::fs::read_dir(from).unwrap() {
                let path = entry.unwrap().path();
                let target = to.join(path.file_name().unwrap());
                if path.is_dir() {
                    copy(&path, &target);
                } else {
                    std::fs::copy(&path, &target).unwrap();
                }
            }
        }
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = project::root();
        copy(&root.join("assets"), &dir.join("assets"));
        for folder in ["gfx", "music", "engine"] {
            copy(
                &root.join("generated").join(folder),
                &dir.join("generated").join(folder),
            );
        }
        dir
    }

    fn rom_check(root: &Path) -> String {
        match require_up_to_date(root) {
            Ok(()) => "up to date".to_owned(),
            Err(error) => format!("{error:#}"),
        }
    }

    #[test]
    fn rom_says_once_that_generated_is_missing_or_incomplete() {
        let root = scratch("missing");
        assert_eq!(rom_check(&root), "up to date");

        for name in ["gfx/font.inc", "music/title.asm"] {
            std::fs::remove_file(root.join("generated").join(name)).unwrap();
        }
        assert_eq!(
            rom_check(&root),
            "generated/ is incomplete: it lacks generated/gfx/font.inc and \
             generated/music/title.asm; run `cargo xtask assets` to make them from assets/"
        );
        for name in ["gfx/board.inc", "gfx/title.inc", "music/songs.asm"] {
            std::fs::remove_file(root.join("generated").join(name)).unwrap();
        }
        assert_eq!(
            rom_check(&root),
            "generated/ is incomplete: it lacks generated/gfx/board.inc, generated/gfx/font.inc, \
             generated/gfx/title.inc and 2 more files; run `cargo xtask assets` to make them from \
             assets/"
        );

        std::fs::remove_dir_all(root.join("generated")).unwrap();
        assert_eq!(
            rom_check(&root),
            "generated/ is missing: run `cargo xtask assets` to make it from assets/"
        );
        generate_in(&root, false).unwrap();
        assert_eq!(rom_check(&root), "up to date");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn rom_says_that_generated_is_stale_after_an_edit_of_the_art() {
        let root = scratch("stale");
        let title = root.join(gfx::TITLE_PNG);
        let mut art = image::open(&title).unwrap().to_rgba8();
        assert_eq!(art.get_pixel(0, 0).0, [0, 0, 0, 0xFF]);
        art.put_pixel(0, 0, image::Rgba([0xFF, 0xFF, 0xFF, 0xFF]));
        art.save_with_format(&title, image::ImageFormat::Png)
            .unwrap();
        assert_eq!(
            rom_check(&root),
            "generated/ is stale: it is not what assets/ makes now (generated/gfx/constants.inc \
             and generated/gfx/title.inc differ); run `cargo xtask assets` to refresh it"
        );

        std::fs::write(root.join("generated/music/deleted.asm"), "old song").unwrap();
        assert_eq!(
            rom_check(&root),
            "generated/ is stale: it is not what assets/ makes now (generated/gfx/constants.inc \
             and generated/gfx/title.inc differ; generated/music/deleted.asm left over from a \
             source that is gone); run `cargo xtask assets` to refresh it"
        );
        generate_in(&root, false).unwrap();
        assert_eq!(rom_check(&root), "up to date");
        std::fs::write(root.join("generated/gfx/font.inc"), "edited by hand").unwrap();
        assert_eq!(
            rom_check(&root),
            "generated/ is stale: it is not what assets/ makes now (generated/gfx/font.inc \
             differs); run `cargo xtask assets` to refresh it"
        );
        // The files made from engine-src (the evaluation, the Zobrist keys) are checked
        // the same way.
        for name in ["engine/eval.inc", "engine/zobrist.inc"] {
            generate_in(&root, false).unwrap();
            std::fs::write(root.join("generated").join(name), "edited by hand").unwrap();
            assert_eq!(
                rom_check(&root),
                format!(
                    "generated/ is stale: it is not what assets/ makes now (generated/{name} \
                     differs); run `cargo xtask assets` to refresh it"
                )
            );
        }

        // A bad PNG cannot be checked: the converter's error says what is wrong.
        art.put_pixel(1, 0, image::Rgba([0x12, 0x34, 0x56, 0xFF]));
        art.save_with_format(&title, image::ImageFormat::Png)
            .unwrap();
        assert_eq!(
            rom_check(&root),
            "generated/ could not be checked against assets/, which it is made from: \
             assets/title.png: the image has 5 colours (#FFFFFF, #AAAAAA, #555555, #123456, \
             #000000), but it must have exactly four: its colours are the palette of all the \
             art, the lightest shown as white, the darkest as black"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn two_generators_cannot_make_one_file() {
        let mut outputs = outputs(&[("gfx/font.inc", "a")]);
        let error = outputs
            .ensure_file_contents("gfx/font.inc", b"b")
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "two generators make generated/gfx/font.inc"
        );
    }

    /// `cargo xtask assets --check` on the checked-in tree: every generated file is what
    /// the converters make of assets/ now, and nothing is left over.
    #[test]
    fn generated_files_are_up_to_date() {
        let stale = super::generate(true).unwrap_or_else(|error| panic!("{error:#}"));
        assert!(
            stale.is_empty(),
            "generated/{} stale: run `cargo xtask assets`",
            stale.join(", generated/")
        );
    }
}
