//! Paths of the repository and helpers shared by every task.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The repository root: the parent of `xtask/`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ lives inside the repository")
        .to_path_buf()
}

/// Writes `contents` to `path` atomically: into a temporary file beside it, then renamed,
/// so that a failed run never leaves a half-written output.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, contents).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
