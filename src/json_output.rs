//! How every `--format json` document and JSON line is written: its `schema` field first (e.g.
//! `"schema": "idem-send/1"`), then the report's own fields. Scripts read the name and version
//! before anything else to detect a change of shape; the JSON Schema each name stands for is
//! committed under `schemas/` (generated in `cli::schemas`).
//!
//! The tag is added here, at the point of printing, rather than as a field of every report type,
//! so the report types stay what the engines build and the tag cannot be forgotten or mistyped
//! in one of them.
use serde::Serialize;

/// A document with its schema name in front.
#[derive(Serialize)]
struct Tagged<'a, T: ?Sized> {
    schema: &'a str,
    #[serde(flatten)]
    document: &'a T,
}

/// `document` as one pretty-printed JSON document, `schema` first.
pub(crate) fn pretty<T: Serialize + ?Sized>(schema: &str, document: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(&Tagged { schema, document })
}

/// `document` as one JSON line (no newline), `schema` first.
pub(crate) fn line<T: Serialize + ?Sized>(schema: &str, document: &T) -> serde_json::Result<String> {
    serde_json::to_string(&Tagged { schema, document })
}

/// Writes `document` as one JSON line, `schema` first (no trailing newline).
pub(crate) fn write_line<W: std::io::Write, T: Serialize + ?Sized>(
    out: W,
    schema: &str,
    document: &T,
) -> serde_json::Result<()> {
    serde_json::to_writer(out, &Tagged { schema, document })
}

/// Writes `document` pretty-printed, `schema` first (no trailing newline).
pub(crate) fn write_pretty<W: std::io::Write, T: Serialize + ?Sized>(
    out: W,
    schema: &str,
    document: &T,
) -> serde_json::Result<()> {
    serde_json::to_writer_pretty(out, &Tagged { schema, document })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Report {
        verdict: &'static str,
        count: usize,
    }

    #[derive(Serialize)]
    #[serde(tag = "event", rename_all = "snake_case")]
    enum Line {
        Summary { count: usize },
    }

    #[test]
    fn the_schema_name_comes_first() {
        let text = line("demo/1", &Report { verdict: "safe", count: 2 }).unwrap();
        assert_eq!(text, r#"{"schema":"demo/1","verdict":"safe","count":2}"#);
        let text = line("demo-line/1", &Line::Summary { count: 3 }).unwrap();
        assert_eq!(text, r#"{"schema":"demo-line/1","event":"summary","count":3}"#);
        let pretty = pretty("demo/1", &Report { verdict: "safe", count: 2 }).unwrap();
        assert!(pretty.starts_with("{\n  \"schema\": \"demo/1\",\n  \"verdict\""), "{pretty}");
    }
}
