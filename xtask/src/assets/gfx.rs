//! PNG art to 2bpp tiles and tile maps (issue 5).

use anyhow::Result;

use super::Outputs;

pub fn generate(_outputs: &mut Outputs) -> Result<()> {
    Ok(())
}
