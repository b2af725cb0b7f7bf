//! `webhook journal FILE --ui`: the journal's deliveries, then each one a listener appends, read
//! as `--follow` reads them (only whole lines; a damaged line is skipped).
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::Inspector;
use crate::webhook::journal::reader::parse_record;

/// How often the journal is looked at for new lines.
const POLL: Duration = Duration::from_millis(200);

/// Feeds `inspector` what `path` holds, then what is appended, until the future is dropped.
pub(crate) async fn follow_journal(path: &Path, inspector: Arc<Inspector>) -> anyhow::Result<()> {
    let file = crate::webhook::journal::reader::open_regular(path)?;
    let (mut offset, mut line, mut partial) = (0u64, 0usize, Vec::new());
    let mut chunk = vec![0u8; 256 * 1024];
    loop {
        loop {
            let read = file.read_at(&mut chunk, offset)?;
            if read == 0 {
                break;
            }
            offset += read as u64;
            partial.extend_from_slice(&chunk[..read]);
            while let Some(end) = partial.iter().position(|byte| *byte == b'\n') {
                let whole: Vec<u8> = partial.drain(..=end).collect();
                line += 1;
                let Ok(text) = std::str::from_utf8(&whole) else { continue };
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                if let Ok(record) = parse_record(path, line, text, true) {
                    inspector.push(&record, Some(line));
                }
            }
        }
        tokio::time::sleep(POLL).await;
    }
}
