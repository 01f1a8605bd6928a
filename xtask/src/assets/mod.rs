//! `cargo xtask assets`: regenerates `generated/` from `assets/` (and, later, from
//! `engine-src/`). Every generator is a `generate(check)` function that writes through
//! [`ensure_file_contents`]; with `--check` nothing is written and a stale file is an error.

pub mod gfx;
pub mod music;

use std::path::Path;

use anyhow::{bail, Result};

use crate::project;

pub fn run(check: bool) -> Result<()> {
    let stale = generate(check)?;
    if !check {
        for path in &stale {
            println!("wrote generated/{path}");
        }
    }
    if check && !stale.is_empty() {
        bail!(
            "{} stale: run `cargo xtask assets`",
            stale
                .iter()
                .map(|path| format!("generated/{path}"))
                .collect::<Vec<_>>()
                .join(", ")
                + if stale.len() == 1 { " is" } else { " are" }
        );
    }
    if !check {
        println!("generated/ is up to date");
    }
    Ok(())
}

/// Runs every generator; returns the files (relative to `generated/`) that were stale.
/// Without `check` the stale files are rewritten and the list says which.
pub fn generate(check: bool) -> Result<Vec<String>> {
    let mut outputs = Outputs {
        check,
        stale: Vec::new(),
    };
    gfx::generate(&mut outputs)?;
    music::generate(&mut outputs)?;
    Ok(outputs.stale)
}

/// Where generators put what they make.
pub struct Outputs {
    check: bool,
    stale: Vec<String>,
}

impl Outputs {
    /// Makes `generated/<name>` hold `contents`: written atomically when it differs, or,
    /// in check mode, only noted as stale.
    pub fn ensure_file_contents(&mut self, name: &str, contents: &[u8]) -> Result<()> {
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
}
