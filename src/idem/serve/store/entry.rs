//! How a key's entry is written in a shared store (a Redis value, a SQLite column): JSON, so an
//! operator can read it with `redis-cli GET` or `sqlite3`, and every instance reads it the same.
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::{Claim, Fingerprint, Lookup, StoreError, StoredResponse};

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub(super) enum SharedEntry {
    InFlight { owner: String, fingerprint: String },
    Completed { fingerprint: String, response: ResponseRecord },
}

/// A stored response; the body in base64, since nothing promises it is text.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ResponseRecord {
    status: u16,
    content_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<String>,
    body_base64: String,
}

impl ResponseRecord {
    pub(super) fn new(response: &StoredResponse) -> ResponseRecord {
        ResponseRecord {
            status: response.status,
            content_type: response.content_type.clone(),
            location: response.location.clone(),
            body_base64: BASE64.encode(&response.body),
        }
    }

    pub(super) fn into_response(self) -> Result<StoredResponse, StoreError> {
        let body = BASE64
            .decode(self.body_base64.as_bytes())
            .map_err(|err| StoreError::new("a stored answer's body is not base64", err))?;
        Ok(StoredResponse {
            status: self.status,
            content_type: self.content_type,
            location: self.location,
            body: Bytes::from(body),
        })
    }
}

impl SharedEntry {
    pub(super) fn in_flight(claim: &Claim, fingerprint: &Fingerprint) -> SharedEntry {
        SharedEntry::InFlight { owner: claim.owner.clone(), fingerprint: hex::encode(fingerprint) }
    }

    pub(super) fn completed(fingerprint: &Fingerprint, response: &StoredResponse) -> SharedEntry {
        SharedEntry::Completed { fingerprint: hex::encode(fingerprint), response: ResponseRecord::new(response) }
    }

    pub(super) fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub(super) fn decode(raw: &[u8]) -> Result<SharedEntry, StoreError> {
        serde_json::from_slice(raw).map_err(|err| StoreError::new("a key's entry in the store is unreadable", err))
    }

    /// What an existing entry means for a request with `fingerprint`.
    pub(super) fn judge(self, fingerprint: &Fingerprint) -> Result<Lookup, StoreError> {
        let expected = hex::encode(fingerprint);
        Ok(match self {
            SharedEntry::InFlight { fingerprint, .. } | SharedEntry::Completed { fingerprint, .. }
                if fingerprint != expected =>
            {
                Lookup::Mismatch
            }
            SharedEntry::InFlight { .. } => Lookup::InFlight,
            SharedEntry::Completed { response, .. } => Lookup::Replay(response.into_response()?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::fingerprint;
    use super::*;
    use std::time::Duration;

    #[test]
    fn entries_round_trip_and_judge_like_the_memory_store() {
        let print = fingerprint("POST", "/payments", b"{}");
        let other = fingerprint("POST", "/payments", b"{1}");
        let claim = Claim { owner: "x-1".into(), lease: Duration::from_secs(1) };
        let in_flight = SharedEntry::in_flight(&claim, &print).encode();
        assert_eq!(SharedEntry::decode(in_flight.as_bytes()).unwrap().judge(&print).unwrap(), Lookup::InFlight);
        assert_eq!(SharedEntry::decode(in_flight.as_bytes()).unwrap().judge(&other).unwrap(), Lookup::Mismatch);
        let response = StoredResponse {
            status: 201,
            content_type: "application/json".into(),
            location: Some("/payments/pay_1".into()),
            body: Bytes::from_static(b"\x00binary"),
        };
        let completed = SharedEntry::completed(&print, &response).encode();
        assert_eq!(SharedEntry::decode(completed.as_bytes()).unwrap().judge(&print).unwrap(), Lookup::Replay(response));
        assert!(SharedEntry::decode(b"not json").is_err());
    }
}
