//! `cargo xtask assets`: regenerates `generated/` from `assets/` (and, later, from
//! `engine-src/`). Every generator is a `generate(check)` function that writes through
//! [`ensure_file_contents`]; with `--check` nothing is written and a stale file is an error.

pub mod gfx;
pub mod music;

use std::collections::BTreeSet;
use std::path::Path;

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
/// (a deleted song). Without `check` they are rewritten or removed.
pub fn generate(check: bool) -> Result<Vec<String>> {
    let mut outputs = Outputs {
        check,
        stale: Vec::new(),
        made: BTreeSet::new(),
    };
    gfx::generate(&mut outputs)?;
    music::generate(&mut outputs)?;
    outputs.sweep_leftovers()?;
    Ok(outputs.stale)
}

/// Where generators put what they make.
pub struct Outputs {
    check: bool,
    stale: Vec<String>,
    /// Every file a generator made this run, relative to `generated/`.
    made: BTreeSet<String>,
}

impl Outputs {
    /// Makes `generated/<name>` hold `contents`: written atomically when it differs, or,
    /// in check mode, only noted as stale.
    pub fn ensure_file_contents(&mut self, name: &str, contents: &[u8]) -> Result<()> {
        self.made.insert(name.to_owned());
        let path = project::root().join("generated").join(name);
        if std::fs::read(&path).ok().as_deref() == Some(contents) {
            return Ok(());
        }
        self.stale.push(name.to_owned());
        if !self.check {
            project::write_atomic(Path::new(&path), contents)?;
        }
        Ok(())
    }

    /// Files in a folder the generators write (`generated/gfx/`, `generated/music/`) that no
    /// generator made this run are stale: their source was deleted or renamed.
    fn sweep_leftovers(&mut self) -> Result<()> {
        let folders: BTreeSet<&str> = self
            .made
            .iter()
            .filter_map(|name| name.split_once('/').map(|(folder, _)| folder))
            .collect();
        let mut leftovers = Vec::new();
        for folder in folders {
            let dir = project::root().join("generated").join(folder);
            let entries =
                std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
                let name = format!("{folder}/{}", entry.file_name().to_string_lossy());
                if entry.path().is_file() && !self.made.contains(&name) {
                    leftovers.push((name, entry.path()));
                }
            }
        }
        for (name, path) in leftovers {
            if !self.check {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
            self.stale.push(name);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
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
