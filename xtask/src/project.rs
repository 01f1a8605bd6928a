//! Paths of the repository and helpers shared by every task.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};

/// The repository root: the parent of `xtask/`. cargo says where `xtask/` is when it runs
/// the binary (`cargo xtask`, `cargo run`, `cargo test` set `CARGO_MANIFEST_DIR`), and
/// that is preferred to where it was when the binary was built: a checkout moved or
/// copied together with its `target/` then works on its own files, not the old place's.
/// Run without cargo, the binary falls back on the place it was built in.
pub fn root() -> PathBuf {
    root_from(std::env::var_os("CARGO_MANIFEST_DIR"))
}

/// The root for `xtask/` at `manifest_dir` (as cargo sets it at run time), or at the
/// place the binary was built in when that is unset or has no parent.
fn root_from(manifest_dir: Option<OsString>) -> PathBuf {
    let run_time = manifest_dir
        .map(PathBuf::from)
        .and_then(|dir| dir.parent().map(Path::to_path_buf))
        .filter(|root| !root.as_os_str().is_empty());
    run_time.unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask/ lives inside the repository")
            .to_path_buf()
    })
}

/// Writes `contents` to `path` atomically: into a temporary file beside it, then renamed,
/// so that a failed run never leaves a half-written output. The temporary's name is this
/// process's and this write's own (`PATH.PID.N.tmp`), so that two builds at once (the
/// player's tests each build the ROM) cannot write into each other's; it is removed
/// when the write fails.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    let write = WRITES.fetch_add(1, Ordering::Relaxed);
    tmp.push(format!(".{}.{write}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, contents)
        .with_context(|| format!("writing {}", tmp.display()))
        .and_then(|()| {
            std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
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

    /// A fresh directory of its own for a test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chessattack-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_of_one_file_at_once_each_write_a_whole_file_and_leave_no_temporary() {
        let dir = scratch("atomic");
        let path = dir.join("chessattack.gb");
        let contents: Vec<Vec<u8>> = (0..4u8).map(|n| vec![n; 256 * 1024]).collect();
        std::thread::scope(|scope| {
            for bytes in &contents {
                let (path, contents) = (&path, &contents);
                scope.spawn(move || {
                    for _ in 0..20 {
                        write_atomic(path, bytes).unwrap();
                        assert!(contents.contains(&std::fs::read(path).unwrap()));
                    }
                });
            }
        });
        assert_eq!(names_in(&dir), ["chessattack.gb"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_no_temporary() {
        let dir = scratch("atomic-failed");
        // A directory where the file should go: the rename onto it fails.
        std::fs::create_dir(dir.join("out")).unwrap();
        let error = write_atomic(&dir.join("out"), b"ROM").unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("writing {}", dir.join("out").display())
        );
        assert_eq!(names_in(&dir), ["out"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_root_is_where_cargo_says_xtask_is_at_run_time_or_else_where_it_was_built() {
        assert_eq!(
            root_from(Some("/elsewhere/chessattack/xtask".into())),
            Path::new("/elsewhere/chessattack")
        );
        let built = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        assert_eq!(root_from(None), built);
        // Neither of these has a parent to be the root.
        assert_eq!(root_from(Some("".into())), built);
        assert_eq!(root_from(Some("xtask".into())), built);
    }

    #[test]
    fn a_count_of_one_takes_the_singular_and_every_other_the_plural() {
        assert_eq!(plural(1u32, "byte"), "1 byte");
        assert_eq!(plural(0usize, "error"), "0 errors");
        assert_eq!(plural(7u64, "field"), "7 fields");
        assert_eq!(noun(1usize, "section"), "section");
        assert_eq!(noun(2i32, "section"), "sections");
    }
}
