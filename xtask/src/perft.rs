//! `cargo xtask perft`: leaf counts of the legal move tree, with either engine.

use anyhow::Result;

use crate::PerftArgs;

pub fn run(_args: &PerftArgs) -> Result<()> {
    crate::project::not_built("perft")
}
