//! `cargo xtask crosscheck`: the reference model against Fairy-Stockfish.

use anyhow::Result;

use crate::CrosscheckArgs;

pub fn run(_args: &CrosscheckArgs) -> Result<()> {
    crate::project::not_built("crosscheck")
}
