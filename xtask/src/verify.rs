//! `cargo xtask verify`.

use anyhow::Result;

pub fn run() -> Result<()> {
    crate::project::not_built("verify")
}
