//! `--store sqlite:PATH`: the key table and the ledger in one SQLite file (WAL mode), shared by
//! every process that opens it and kept across restarts.
//!
//! - claim: `INSERT` of the in-flight row inside an immediate (write-locked) transaction; the
//!   primary key on (method, path, key) makes a second insert of the same key do nothing, and
//!   then the row that is there is the answer. A row whose lease or TTL ran out is taken over
//!   in the same transaction.
//! - commit: the payment and the answer are written in one transaction, the answer only while
//!   the row is still this owner's.
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;

use super::entry::ResponseRecord;
use super::{Claim, Completion, Fingerprint, Lookup, ScopedKey, Store, StoreError, StoreFuture};
use crate::idem::serve::payments::Payment;
use crate::sync::lock;

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS idempotency_keys (
    method      TEXT NOT NULL,
    path        TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    owner       TEXT,     -- set while in flight
    lease_until INTEGER,  -- unix ms, while in flight
    response    TEXT,     -- the answer to replay, once completed (JSON)
    expires_at  INTEGER,  -- unix ms, once completed
    PRIMARY KEY (method, path, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS payments (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    id      TEXT NOT NULL UNIQUE,
    payment TEXT NOT NULL
);
";

/// How long a statement waits for another process's write lock before the request gets a 503.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
    path: PathBuf,
    ttl: Duration,
}

/// A key's row, as far as judging it goes.
struct Row {
    fingerprint: Vec<u8>,
    lease_until: Option<i64>,
    response: Option<String>,
    expires_at: Option<i64>,
}

impl Row {
    fn is_stale(&self, now: i64) -> bool {
        match (&self.response, self.expires_at, self.lease_until) {
            (Some(_), Some(expires_at), _) => expires_at <= now,
            (None, _, Some(lease_until)) => lease_until <= now,
            _ => false,
        }
    }

    fn judge(self, fingerprint: &Fingerprint) -> Result<Lookup, StoreError> {
        if self.fingerprint.as_slice() != fingerprint.as_slice() {
            return Ok(Lookup::Mismatch);
        }
        match self.response {
            None => Ok(Lookup::InFlight),
            Some(json) => {
                let record: ResponseRecord = serde_json::from_str(&json)
                    .map_err(|err| StoreError::new("a stored answer in SQLite is unreadable", err))?;
                Ok(Lookup::Replay(record.into_response()?))
            }
        }
    }
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64)
}

fn ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

fn read_row(connection: &Connection, key: &ScopedKey) -> rusqlite::Result<Option<Row>> {
    connection
        .query_row(
            "SELECT fingerprint, lease_until, response, expires_at FROM idempotency_keys
             WHERE method = ?1 AND path = ?2 AND key = ?3",
            params![key.method, key.path, key.key],
            |row| {
                Ok(Row {
                    fingerprint: row.get(0)?,
                    lease_until: row.get(1)?,
                    response: row.get(2)?,
                    expires_at: row.get(3)?,
                })
            },
        )
        .optional()
}

impl SqliteStore {
    pub(super) async fn open(path: &Path, ttl: Duration) -> anyhow::Result<SqliteStore> {
        let owned = path.to_path_buf();
        let connection = tokio::task::spawn_blocking(move || -> anyhow::Result<Connection> {
            let connection = Connection::open(&owned).with_context(|| {
                format!("cannot open the SQLite store {} (does its folder exist and is it writable?)", owned.display())
            })?;
            connection.busy_timeout(BUSY_TIMEOUT)?;
            connection
                .execute_batch(SCHEMA)
                .with_context(|| format!("{} is not a usable SQLite store", owned.display()))?;
            connection.execute(
                "DELETE FROM idempotency_keys WHERE expires_at IS NOT NULL AND expires_at <= ?1",
                params![now_ms()],
            )?;
            Ok(connection)
        })
        .await
        .context("the task opening the SQLite store failed")??;
        Ok(SqliteStore { connection: Arc::new(Mutex::new(connection)), path: path.to_path_buf(), ttl })
    }

    /// Runs `work` on the connection off the async threads (SQLite blocks).
    fn run<T, F>(&self, what: &'static str, work: F) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let connection = Arc::clone(&self.connection);
        Box::pin(async move {
            let joined = tokio::task::spawn_blocking(move || {
                let mut connection = lock(&connection);
                work(&mut connection)
            })
            .await;
            joined.map_err(|err| StoreError::new(format!("the SQLite store failed to {what}"), err))?
        })
    }

    fn failed(&self, what: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + Send + 'static {
        let path = self.path.display().to_string();
        move |err| StoreError(format!("the SQLite store {path} failed to {what}: {err}"))
    }
}

impl Store for SqliteStore {
    fn claim<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint, claim: &'a Claim) -> StoreFuture<'a, Lookup> {
        let (key, claim, failed) = (key.clone(), claim.clone(), self.failed("claim a key"));
        self.run("claim a key", move |connection| {
            let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&failed)?;
            let now = now_ms();
            let lease_until = now.saturating_add(ms(claim.lease));
            let inserted = transaction
                .execute(
                    "INSERT INTO idempotency_keys (method, path, key, fingerprint, owner, lease_until)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
                    params![key.method, key.path, key.key, fingerprint.as_slice(), claim.owner, lease_until],
                )
                .map_err(&failed)?;
            let found = if inserted == 1 {
                Lookup::Fresh
            } else {
                match read_row(&transaction, &key).map_err(&failed)? {
                    Some(row) if !row.is_stale(now) => row.judge(&fingerprint)?,
                    _ => {
                        // Expired, or its owner stopped renewing: this request takes it over.
                        transaction
                            .execute(
                                "UPDATE idempotency_keys SET fingerprint = ?4, owner = ?5, lease_until = ?6,
                                 response = NULL, expires_at = NULL
                                 WHERE method = ?1 AND path = ?2 AND key = ?3",
                                params![
                                    key.method,
                                    key.path,
                                    key.key,
                                    fingerprint.as_slice(),
                                    claim.owner,
                                    lease_until
                                ],
                            )
                            .map_err(&failed)?;
                        Lookup::Fresh
                    }
                }
            };
            transaction.commit().map_err(&failed)?;
            Ok(found)
        })
    }

    fn lookup<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint) -> StoreFuture<'a, Lookup> {
        let (key, failed) = (key.clone(), self.failed("look a key up"));
        self.run("look a key up", move |connection| match read_row(connection, &key).map_err(&failed)? {
            Some(row) if !row.is_stale(now_ms()) => row.judge(&fingerprint),
            _ => Ok(Lookup::Fresh),
        })
    }

    fn renew<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, bool> {
        let (key, claim, failed) = (key.clone(), claim.clone(), self.failed("renew a lease"));
        self.run("renew a lease", move |connection| {
            let lease_until = now_ms().saturating_add(ms(claim.lease));
            let renewed = connection
                .execute(
                    "UPDATE idempotency_keys SET lease_until = ?5
                     WHERE method = ?1 AND path = ?2 AND key = ?3 AND owner = ?4 AND response IS NULL",
                    params![key.method, key.path, key.key, claim.owner, lease_until],
                )
                .map_err(&failed)?;
            Ok(renewed == 1)
        })
    }

    fn release<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, ()> {
        let (key, claim, failed) = (key.clone(), claim.clone(), self.failed("release a key"));
        self.run("release a key", move |connection| {
            connection
                .execute(
                    "DELETE FROM idempotency_keys
                     WHERE method = ?1 AND path = ?2 AND key = ?3 AND owner = ?4 AND response IS NULL",
                    params![key.method, key.path, key.key, claim.owner],
                )
                .map_err(&failed)?;
            Ok(())
        })
    }

    fn commit<'a>(&'a self, payment: &'a Payment, completion: Option<Completion<'a>>) -> StoreFuture<'a, ()> {
        let failed = self.failed("record a payment");
        let json = serde_json::to_string(payment).unwrap_or_default();
        let id = payment.id.clone();
        let answer = completion.map(|completion| {
            let response = serde_json::to_string(&ResponseRecord::new(completion.response)).unwrap_or_default();
            let owner = completion.claim.map(|claim| claim.owner.clone());
            (completion.key.clone(), completion.fingerprint, response, owner)
        });
        let ttl = ms(self.ttl);
        self.run("record a payment", move |connection| {
            let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&failed)?;
            transaction
                .execute("INSERT INTO payments (id, payment) VALUES (?1, ?2)", params![id, json])
                .map_err(&failed)?;
            if let Some((key, fingerprint, response, owner)) = answer {
                // Stored unless another owner took the key over after this one's lease ran out.
                transaction
                    .execute(
                        "INSERT INTO idempotency_keys (method, path, key, fingerprint, response, expires_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT (method, path, key) DO UPDATE SET fingerprint = excluded.fingerprint,
                             owner = NULL, lease_until = NULL, response = excluded.response,
                             expires_at = excluded.expires_at
                         WHERE ?7 IS NULL OR idempotency_keys.owner = ?7",
                        params![
                            key.method,
                            key.path,
                            key.key,
                            fingerprint.as_slice(),
                            response,
                            now_ms().saturating_add(ttl),
                            owner
                        ],
                    )
                    .map_err(&failed)?;
            }
            transaction.commit().map_err(&failed)
        })
    }

    fn payment<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Value>> {
        let (id, failed) = (id.to_string(), self.failed("read a payment"));
        self.run("read a payment", move |connection| {
            let json: Option<String> = connection
                .query_row("SELECT payment FROM payments WHERE id = ?1", params![id], |row| row.get(0))
                .optional()
                .map_err(&failed)?;
            json.map(|json| parse_payment(&json)).transpose()
        })
    }

    fn payments(&self) -> StoreFuture<'_, Vec<Value>> {
        let failed = self.failed("list payments");
        self.run("list payments", move |connection| {
            let mut statement = connection.prepare("SELECT payment FROM payments ORDER BY seq").map_err(&failed)?;
            let rows = statement.query_map([], |row| row.get::<_, String>(0)).map_err(&failed)?;
            let mut payments = Vec::new();
            for json in rows {
                payments.push(parse_payment(&json.map_err(&failed)?)?);
            }
            Ok(payments)
        })
    }
}

fn parse_payment(json: &str) -> Result<Value, StoreError> {
    serde_json::from_str(json).map_err(|err| StoreError::new("a payment in SQLite is unreadable", err))
}

#[cfg(test)]
mod tests {
    use super::super::{StoredResponse, fingerprint};
    use super::*;
    use crate::idem::serve::payments::NewPayment;

    fn key(k: &str) -> ScopedKey {
        ScopedKey { method: "POST".into(), path: "/payments".into(), key: k.into() }
    }

    fn payment() -> Payment {
        Payment::charge(NewPayment { amount: 5, currency: "USD".into(), order_id: None, description: None })
    }

    #[tokio::test]
    async fn claims_replays_and_takeovers_persist_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let print = fingerprint("POST", "/payments", b"{}");
        let crashed = Claim { owner: "a-1".into(), lease: Duration::ZERO };
        let taker = Claim { owner: "b-1".into(), lease: Duration::from_secs(30) };
        let response = StoredResponse {
            status: 201,
            content_type: "application/json".into(),
            location: Some("/payments/pay_x".into()),
            body: bytes::Bytes::from_static(b"{\"id\":\"pay_x\"}"),
        };
        {
            let store = SqliteStore::open(&path, Duration::from_secs(60)).await.unwrap();
            assert_eq!(store.claim(&key("k"), print, &crashed).await.unwrap(), Lookup::Fresh);
            assert_eq!(store.claim(&key("k"), print, &taker).await.unwrap(), Lookup::Fresh, "the lease ran out");
            assert!(!store.renew(&key("k"), &crashed).await.unwrap());
            assert!(store.renew(&key("k"), &taker).await.unwrap());
            assert_eq!(store.claim(&key("k"), print, &crashed).await.unwrap(), Lookup::InFlight);
            let late = Completion { key: &key("k"), fingerprint: print, response: &response, claim: Some(&crashed) };
            store.commit(&payment(), Some(late)).await.unwrap();
            assert_eq!(store.lookup(&key("k"), print).await.unwrap(), Lookup::InFlight, "not the owner's to store");
            let done = Completion { key: &key("k"), fingerprint: print, response: &response, claim: Some(&taker) };
            store.commit(&payment(), Some(done)).await.unwrap();
        }
        let reopened = SqliteStore::open(&path, Duration::from_secs(60)).await.unwrap();
        assert_eq!(reopened.claim(&key("k"), print, &taker).await.unwrap(), Lookup::Replay(response));
        let other = fingerprint("POST", "/payments", b"{2}");
        assert_eq!(reopened.claim(&key("k"), other, &taker).await.unwrap(), Lookup::Mismatch);
        assert_eq!(reopened.payments().await.unwrap().len(), 2);
    }
}
