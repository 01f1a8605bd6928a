//! `cargo xtask run`.

use anyhow::Result;

pub fn run() -> Result<()> {
    crate::project::not_built("run")
}
