//! `cargo xtask assets`: regenerates `generated/` from `assets/` (and, later, from
//! `engine-src/`). Every generator is a `generate(check)` function that writes through
//! [`ensure_file_contents`]; with `--check` nothing is written and a stale file is an error.

pub mod gfx;
pub mod music;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::project;

pub fn run(check: bool) -> Result<()> {
    let stale = generate(check)?;
    if check {
        if !stale.is_empty() {
            let plural = if stale.len() == 1 { " is" } else { "s are" };
            bail!(
                "{} file{plural} stale: {}; run `cargo xtask assets`",
                stale.len(),
                stale
                    .iter()
                    .map(|path| format!("generated/{path}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    } else {
        for path in &stale {
            let done = if project::root().join("generated").join(path).exists() {
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

/// Runs every generator; returns the files (relative to `generated/`) that were stale:
/// different from what the generator makes now, or left over from a source that is gone
/// (a deleted song). Without `check` they are rewritten or removed — but only once every
/// generator has succeeded, so a bad input leaves `generated/` as it was.
pub fn generate(check: bool) -> Result<Vec<String>> {
    let mut outputs = Outputs::default();
    gfx::generate(&mut outputs)?;
    music::generate(&mut outputs)?;
    outputs.commit(&project::root().join("generated"), check)
}

/// What the generators make, held until all of them have succeeded.
#[derive(Default)]
pub struct Outputs {
    /// Each file's contents, by name relative to `generated/`.
    files: BTreeMap<String, Vec<u8>>,
}

impl Outputs {
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
