//! Paths of the repository and helpers shared by every task.

use std::fmt;
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

/// `noun` as it goes with `count`: the singular for 1, else the plural made with an `s`
/// (every noun xtask counts is regular): `noun(1, "byte")` is `byte`, `noun(0, "byte")`
/// `bytes`.
pub fn noun<N: PartialEq + From<u8>>(count: N, singular: &str) -> String {
    if count == N::from(1) {
        singular.to_owned()
    } else {
        format!("{singular}s")
    }
}

/// `count` and its noun: `1 byte`, `7 bytes`, `0 errors`.
pub fn plural<N: PartialEq + From<u8> + fmt::Display + Copy>(count: N, singular: &str) -> String {
    format!("{count} {}", noun(count, singular))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_takes_the_singular_and_every_other_the_plural() {
        assert_eq!(plural(1u32, "byte"), "1 byte");
        assert_eq!(plural(0usize, "error"), "0 errors");
        assert_eq!(plural(7u64, "field"), "7 fields");
        assert_eq!(noun(1usize, "section"), "section");
        assert_eq!(noun(2i32, "section"), "sections");
    }
}
