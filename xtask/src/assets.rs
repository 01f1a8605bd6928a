//! `cargo xtask assets`.

use anyhow::Result;

pub fn run(_check: bool) -> Result<()> {
    crate::project::not_built("assets")
}
