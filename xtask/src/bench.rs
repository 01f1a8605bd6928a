//! `cargo xtask bench`.

use anyhow::Result;

pub fn run() -> Result<()> {
    crate::project::not_built("bench")
}
