//! The delivery journal `webhook listen --record` appends to and `webhook replay` reads: the record
//! (one JSON line per delivery), the writer that appends it before the delivery is acknowledged, and
//! the reader.
pub(crate) mod diff;
pub(crate) mod inspect;
pub(crate) mod reader;
pub(crate) mod record;
mod tail;
pub(crate) mod writer;

#[cfg(test)]
mod tests {

    use super::reader::*;
    use super::record::*;
    use super::writer::*;

    fn record(body: &[u8]) -> JournalRecord {
        JournalRecord {
            received_at: "2026-11-29T13:17:00.123Z".into(),
            remote: Some("127.0.0.1:1".into()),
            method: "POST".into(),
            path: "/hook".into(),
            headers: vec![("content-type".into(), HeaderText::Text("application/json".into()))],
            body: JournalBody::from_bytes(body),
            verdict: JournalVerdict { valid: true, scheme: Some("hmac".into()), reason: None, code: None },
            event_id: "evt_1".into(),
            event_type: Some("payment.succeeded".into()),
            duplicate: false,
            attempt: 1,
            status: 200,
            forward_error: None,
            forward: None,
            handshake: None,
        }
    }

    #[test]
    fn records_round_trip_with_text_and_binary_bodies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = JournalWriter::open(&path, true).unwrap().0;
        writer.append(&record(br#"{"id":"evt_1"}"#)).unwrap();
        writer.append(&record(&[0xff, 0x00, 0x80])).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""body":"{\"id\":\"evt_1\"}""#), "{text}");
        assert!(text.contains(r#""body_base64":"/wCA""#), "{text}");
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        assert_eq!(records[1].body.to_bytes().unwrap(), [0xff, 0x00, 0x80]);
        assert_eq!(records[0], record(br#"{"id":"evt_1"}"#));
    }

    #[test]
    fn concurrent_appends_never_interleave_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = std::sync::Arc::new(JournalWriter::open(&path, false).unwrap().0);
        let threads: Vec<_> = (0..8)
            .map(|thread| {
                let writer = std::sync::Arc::clone(&writer);
                std::thread::spawn(move || {
                    for n in 0..200 {
                        let mut line = record(&vec![b'x'; 100 + n]);
                        line.event_id = format!("evt_{thread}_{n}");
                        writer.append(&line).unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        let ids: std::collections::HashSet<String> = records.into_iter().map(|record| record.event_id).collect();
        assert_eq!(ids.len(), 8 * 200);
    }

    #[test]
    fn async_appends_batch_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = std::sync::Arc::new(JournalWriter::open(&path, false).unwrap().0);
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().unwrap();
        runtime.block_on(async {
            let tasks: Vec<_> = (0..32)
                .map(|task| {
                    let writer = std::sync::Arc::clone(&writer);
                    tokio::spawn(async move {
                        for n in 0..50 {
                            let mut line = record(b"{}");
                            line.event_id = format!("evt_{task}_{n}");
                            writer.append_async(&line).await.unwrap();
                            // Mixed with blocking appends, which share the queue.
                            if n % 10 == 0 {
                                line.event_id.push_str("_sync");
                                writer.append(&line).unwrap();
                            }
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
        });
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        let ids: std::collections::HashSet<String> = records.into_iter().map(|record| record.event_id).collect();
        assert_eq!(ids.len(), 32 * 55);
    }

    #[test]
    fn lines_name_their_schema_and_lines_written_before_it_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (writer, _) = JournalWriter::open(&path, false).unwrap();
        writer.append(&record(b"new")).unwrap();
        drop(writer);
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.starts_with(r#"{"schema":"journal-record/1","received_at":"#), "{written}");
        // A journal of an earlier version: the same record without `schema`.
        let earlier = serde_json::to_string(&record(b"old")).unwrap();
        assert!(!earlier.contains("schema"));
        std::fs::write(&path, format!("{written}{earlier}\n")).unwrap();
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        assert_eq!(records, [record(b"new"), record(b"old")]);
    }

    #[test]
    fn damaged_lines_are_skipped_and_said_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let whole = serde_json::to_string(&record(b"x")).unwrap();
        std::fs::write(&path, format!("{whole}\n{}", &whole[..whole.len() / 2])).unwrap();
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(records.len(), 1);
        let warning = warning.unwrap();
        assert!(warning.contains("line 2") && warning.contains("torn by a crash"), "{warning}");
        // A damaged line in the middle costs that line only.
        std::fs::write(&path, format!("{}\n{whole}\n", &whole[..10])).unwrap();
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(records.len(), 1);
        assert!(warning.unwrap().contains("skipped line 1"));
        let (lines, issues) = super::reader::read_json_lines(&path).unwrap();
        assert_eq!((lines.len(), issues.skipped.len()), (1, 1));
    }

    #[test]
    fn a_bom_binary_data_and_nul_bytes_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let whole = serde_json::to_string(&record(b"x")).unwrap();
        std::fs::write(&path, format!("\u{feff}{whole}\n")).unwrap();
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(records.len(), 1);
        assert!(warning.unwrap().contains("byte-order mark"));
        std::fs::write(&path, [0u8; 64]).unwrap();
        let (_, warning) = read_journal(&path).unwrap();
        assert!(warning.unwrap().contains("64 NUL bytes"));
        std::fs::write(&path, b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe").unwrap();
        let (_, warning) = read_journal(&path).unwrap();
        let warning = warning.unwrap();
        assert!(warning.contains("binary data") && !warning.contains("crash"), "{warning}");
    }
}
