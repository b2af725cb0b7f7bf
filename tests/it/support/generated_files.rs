//! Committed generated files (completions, man pages, schemas) compared with a fresh generation,
//! or rewritten under `REGENERATE=1`.
use std::path::Path;

pub(crate) fn regenerate() -> bool {
    std::env::var_os("REGENERATE").is_some()
}

/// Compares `content` with the committed file at `path`, or rewrites it under `REGENERATE=1`.
pub(crate) fn check_fresh(path: &Path, content: &[u8]) {
    if regenerate() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        return;
    }
    let committed = std::fs::read(path).unwrap_or_default();
    assert!(committed == content, "{} is stale: run `REGENERATE=1 cargo test generated` and commit it", path.display());
}

/// `dir` holds exactly the `expected` files: a renamed or removed command leaves nothing behind.
pub(crate) fn check_holds_exactly(dir: &Path, mut expected: Vec<String>, what: &str) {
    let mut committed: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    committed.sort();
    expected.sort();
    assert_eq!(committed, expected, "{} holds {what} (or lacks some)", dir.display());
}
