//! `cargo xtask shot`.

use anyhow::Result;

pub fn run() -> Result<()> {
    crate::project::not_built("shot")
}
