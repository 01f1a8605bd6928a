//! `cargo xtask usage`.

use anyhow::Result;

pub fn run() -> Result<()> {
    crate::project::not_built("usage")
}
