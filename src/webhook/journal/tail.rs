//! Repairing a journal whose last line lacks its line feed (a crash mid-append, a disk that filled
//! up) before appending to it: otherwise the next delivery would be glued onto the fragment and
//! lost to `webhook replay`, an acknowledged delivery no longer on file.
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// How far back to look at a time for the last line feed.
const CHUNK: u64 = 64 * 1024;
/// A fragment longer than this is not read to see whether it is a whole record; it is moved aside.
const MAX_PARSED_FRAGMENT: u64 = 16 * 1024 * 1024;

/// Makes the file end with a whole line: a fragment that is a complete JSON record only lost its
/// line feed, which is added; anything else is moved to `<journal>.torn-<unix ms>` and cut off.
/// Returns what was done, to be said, or `None` when the tail was whole.
pub(super) fn repair_tail(file: &File, path: &Path) -> anyhow::Result<Option<String>> {
    let len = file.metadata().with_context(|| format!("cannot read `{}`", path.display()))?.len();
    let Some(start) = fragment_start(file, len).with_context(|| format!("cannot read `{}`", path.display()))? else {
        return Ok(None);
    };
    let fragment_len = len - start;
    if fragment_len <= MAX_PARSED_FRAGMENT {
        let mut fragment = vec![0; usize::try_from(fragment_len).unwrap_or(0)];
        file.read_exact_at(&mut fragment, start).with_context(|| format!("cannot read `{}`", path.display()))?;
        if serde_json::from_slice::<serde_json::Value>(&fragment).is_ok_and(|value| value.is_object()) {
            let mut appender = file;
            appender
                .write_all(b"\n")
                .with_context(|| format!("cannot end the last line of the journal `{}`", path.display()))?;
            return Ok(Some(format!(
                "the last line of the journal `{}` was a whole record without its line feed; added the line feed",
                path.display()
            )));
        }
    }
    let aside = move_aside(file, path, start)?;
    file.set_len(start).with_context(|| format!("cannot cut the torn last line off `{}`", path.display()))?;
    Ok(Some(format!(
        "the last line of the journal `{}` was incomplete ({fragment_len} bytes, left by a crash or a full disk): moved \
         it to `{}` and appending after the last whole line",
        path.display(),
        aside.display()
    )))
}

/// Where the fragment after the last line feed starts, or `None` when the file is empty or ends
/// with a line feed.
fn fragment_start(file: &File, len: u64) -> std::io::Result<Option<u64>> {
    if len == 0 {
        return Ok(None);
    }
    let mut last = [0u8];
    file.read_exact_at(&mut last, len - 1)?;
    if last[0] == b'\n' {
        return Ok(None);
    }
    let mut end = len;
    let mut buffer = vec![0u8; CHUNK as usize];
    while end > 0 {
        let begin = end.saturating_sub(CHUNK);
        let chunk = &mut buffer[..(end - begin) as usize];
        file.read_exact_at(chunk, begin)?;
        if let Some(newline) = chunk.iter().rposition(|byte| *byte == b'\n') {
            return Ok(Some(begin + newline as u64 + 1));
        }
        end = begin;
    }
    Ok(Some(0))
}

/// Copies the bytes from `start` on into a new file beside the journal.
fn move_aside(file: &File, path: &Path, start: u64) -> anyhow::Result<PathBuf> {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis())
        .unwrap_or_default();
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".torn-{millis}"));
    let aside = PathBuf::from(name);
    let mut target =
        OpenOptions::new().write(true).create_new(true).open(&aside).with_context(|| {
            format!("cannot create `{}` to keep the torn last line of the journal", aside.display())
        })?;
    let mut reader = file.try_clone().with_context(|| format!("cannot read `{}`", path.display()))?;
    reader.seek(SeekFrom::Start(start)).with_context(|| format!("cannot read `{}`", path.display()))?;
    std::io::copy(&mut reader, &mut target)
        .and_then(|_| target.sync_all())
        .with_context(|| format!("cannot write `{}`", aside.display()))?;
    Ok(aside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &Path) -> File {
        OpenOptions::new().read(true).append(true).open(path).unwrap()
    }

    #[test]
    fn a_torn_fragment_is_moved_aside_and_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, "{\"a\":1}\n{\"b\":").unwrap();
        let said = repair_tail(&open(&path), &path).unwrap().unwrap();
        assert!(said.contains("incomplete (5 bytes"), "{said}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
        let aside: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().path()).collect();
        let torn = aside.iter().find(|path| path.to_string_lossy().contains(".torn-")).unwrap();
        assert_eq!(std::fs::read_to_string(torn).unwrap(), "{\"b\":");
    }

    #[test]
    fn a_whole_record_without_its_line_feed_gets_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        std::fs::write(&path, "{\"a\":1}").unwrap();
        assert!(repair_tail(&open(&path), &path).unwrap().unwrap().contains("added the line feed"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\":1}\n");
        assert_eq!(repair_tail(&open(&path), &path).unwrap(), None, "a whole tail is left alone");
    }

    #[test]
    fn a_fragment_longer_than_a_chunk_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let long = "x".repeat(3 * CHUNK as usize);
        std::fs::write(&path, format!("{{}}\n{long}")).unwrap();
        repair_tail(&open(&path), &path).unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
    }
}
