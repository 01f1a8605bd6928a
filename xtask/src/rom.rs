//! `cargo xtask rom`: assemble, link and fix `asm/` into build/chessattack.gb.

use anyhow::Result;

use crate::RomArgs;

pub fn run(_args: &RomArgs) -> Result<()> {
    crate::project::not_built("rom")
}
