//! One journal record: one JSON line per delivery `webhook listen` received, appended before the
//! delivery is acknowledged, and read back by `webhook replay`.
//!
//! A line looks like this (wrapped here):
//! ```text
//! {"schema":"journal-record/1","received_at":"2026-11-29T13:17:00.123Z","remote":"127.0.0.1:50514","method":"POST",
//!  "path":"/webhooks","headers":[["content-type","application/json"],["stripe-signature","t=…"]],
//!  "body":"{\"id\":\"evt_1\",…}","verdict":{"valid":true,"scheme":"stripe","reason":null},
//!  "event_id":"evt_1","event_type":"payment.succeeded","duplicate":false,"attempt":1,"status":200}
//! ```
//! A body that is not UTF-8 is stored as `"body_base64"` instead of `"body"`, and a header value
//! that is not UTF-8 as `{"base64":"…"}` instead of a string, so every byte survives a replay.
//! `schema` names the shape (schemas/journal-record.json); records written before it existed lack
//! it and still read back.
use anyhow::Context;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

/// The `schema` value every journal line starts with.
pub(crate) const SCHEMA: &str = "journal-record/1";

/// One delivery, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalRecord {
    /// RFC 3339, UTC, milliseconds.
    pub received_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    pub method: String,
    /// The path and query, as requested.
    pub path: String,
    /// Every header in the order received, names lower-case, as `[name, value]` pairs.
    pub headers: Vec<(String, HeaderText)>,
    #[serde(flatten)]
    pub body: JournalBody,
    pub verdict: JournalVerdict,
    /// What de-duplication keyed on: the scheme's delivery id, else the body's top-level `id`,
    /// else `sha256:` and the body's hash.
    pub event_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    pub duplicate: bool,
    /// 1 for the first delivery of this event id, 2 for the first redelivery, and so on.
    pub attempt: u32,
    /// The status the listener answered with.
    pub status: u16,
    /// Why the forward target did not answer (the delivery was answered 502 or 504).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward_error: Option<String>,
    /// What the forward (`--forward-to`, `--route`) came to, retries included; absent when the
    /// delivery was not forwarded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward: Option<JournalForward>,
}

/// A delivery's forward, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalForward {
    /// The route's target.
    pub url: String,
    /// The target's last answer; `null` when it could not be reached or timed out.
    pub status: Option<u16>,
    /// How many times it was tried (1 + the retries used).
    pub attempts: u32,
    /// Why the last attempt got no answer.
    pub error: Option<String>,
    /// Whether the target finally answered 2xx.
    pub delivered: bool,
}

/// A header value as received: text when it is UTF-8, else its bytes in base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
#[serde(untagged)]
pub enum HeaderText {
    Text(String),
    Binary { base64: String },
}

impl HeaderText {
    pub fn from_bytes(bytes: &[u8]) -> HeaderText {
        match std::str::from_utf8(bytes) {
            Ok(text) => HeaderText::Text(text.to_string()),
            Err(_) => HeaderText::Binary { base64: BASE64.encode(bytes) },
        }
    }

    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            HeaderText::Text(text) => Ok(text.as_bytes().to_vec()),
            HeaderText::Binary { base64 } => {
                BASE64.decode(base64).context("a header's base64 value is not valid base64")
            }
        }
    }

    /// The value for a person: the text, or the bytes with what is not UTF-8 replaced.
    pub fn lossy(&self) -> String {
        match self {
            HeaderText::Text(text) => text.clone(),
            HeaderText::Binary { .. } => String::from_utf8_lossy(&self.to_bytes().unwrap_or_default()).into_owned(),
        }
    }
}

impl PartialEq<&str> for HeaderText {
    fn eq(&self, other: &&str) -> bool {
        matches!(self, HeaderText::Text(text) if text == other)
    }
}

/// The body: text when it is UTF-8, base64 otherwise, so the journal stays valid JSON lines and
/// every byte survives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub enum JournalBody {
    #[serde(rename = "body")]
    Text(String),
    #[serde(rename = "body_base64")]
    Base64(String),
}

impl JournalBody {
    pub fn from_bytes(bytes: &[u8]) -> JournalBody {
        match std::str::from_utf8(bytes) {
            Ok(text) => JournalBody::Text(text.to_string()),
            Err(_) => JournalBody::Base64(BASE64.encode(bytes)),
        }
    }

    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            JournalBody::Text(text) => Ok(text.as_bytes().to_vec()),
            JournalBody::Base64(encoded) => BASE64.decode(encoded).context("body_base64 is not valid base64"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalVerdict {
    pub valid: bool,
    /// The scheme the delivery was verified with.
    #[serde(default)]
    pub scheme: Option<String>,
    /// Why it was invalid, with the hint when one explains it.
    #[serde(default)]
    pub reason: Option<String>,
    /// The failure's stable code (as `webhook verify --format json` reports it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}
