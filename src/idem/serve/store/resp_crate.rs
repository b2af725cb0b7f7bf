//! TEMPORARY (measurement only): the Redis client on the `redis` crate, one multiplexed
//! connection (re-opened after it fails), behind `--features redis-crate`; same interface as
//! resp.rs so the store above does not change.
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Value};

use super::StoreError;
use super::location::RedisAddress;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
const REPLY_TIMEOUT: Duration = Duration::from_secs(2);
const SHOWN: usize = 32;

/// One RESP2 reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reply {
    Status(String),
    Error(String),
    Integer(i64),
    Bulk(Option<Vec<u8>>),
    Array(Option<Vec<Reply>>),
}

/// Why `Pool::call` failed: Redis could not be reached or did not answer in time, or what
/// answered sent a reply that is not RESP or is past the limits. Either way the request gets a
/// 503; at start-up the two call for different advice.
#[derive(Debug)]
pub(super) struct CallFailure {
    pub(super) reason: String,
    pub(super) bad_reply: bool,
}

impl From<CallFailure> for StoreError {
    fn from(failure: CallFailure) -> StoreError {
        StoreError(failure.reason)
    }
}

impl std::fmt::Display for CallFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// At most `limit` bytes of `bytes`, escaped for one line of text, with `…` when cut.
pub(super) fn excerpt(bytes: &[u8], limit: usize) -> String {
    let shown = bytes[..bytes.len().min(limit)].escape_ascii().to_string();
    if bytes.len() > limit { format!("{shown}…") } else { shown }
}

impl Reply {
    /// What the reply is, for an error message: its kind and at most its first few dozen bytes
    /// (a rogue server's reply may be megabytes).
    pub(super) fn describe(&self) -> String {
        match self {
            Reply::Status(text) => format!("the status `{}`", excerpt(text.as_bytes(), SHOWN)),
            Reply::Error(text) => format!("the error `{}`", excerpt(text.as_bytes(), SHOWN)),
            Reply::Integer(number) => format!("the integer {number}"),
            Reply::Bulk(None) | Reply::Array(None) => "nil".to_string(),
            Reply::Bulk(Some(value)) => format!("a {}-byte value `{}`", value.len(), excerpt(value, SHOWN)),
            Reply::Array(Some(items)) => format!("an array of {} items", items.len()),
        }
    }
}

/// One multiplexed connection to one Redis, shared by every request.
pub(super) struct Pool {
    address: RedisAddress,
    client: redis::Client,
    current: tokio::sync::Mutex<Option<MultiplexedConnection>>,
}

impl Pool {
    pub(super) fn new(address: RedisAddress) -> Pool {
        let url = format!(
            "redis://{}:{}/{}",
            if address.host.contains(':') { format!("[{}]", address.host) } else { address.host.clone() },
            address.port,
            address.db
        );
        #[allow(clippy::expect_used)]
        let client = redis::Client::open(url.as_str()).expect("a valid URL");
        Pool { address, client, current: tokio::sync::Mutex::new(None) }
    }

    pub(super) fn address(&self) -> &RedisAddress {
        &self.address
    }

    async fn connection(&self) -> Result<(MultiplexedConnection, bool), CallFailure> {
        let mut current = self.current.lock().await;
        if let Some(connection) = &*current {
            return Ok((connection.clone(), true));
        }
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(REPLY_TIMEOUT));
        let connection = self.client.get_multiplexed_async_connection_with_config(&config).await.map_err(|err| {
            CallFailure { reason: format!("cannot connect to {}: {err}", self.address), bad_reply: false }
        })?;
        *current = Some(connection.clone());
        Ok((connection, false))
    }

    pub(super) async fn call(&self, args: &[&[u8]]) -> Result<Reply, CallFailure> {
        let mut command = redis::Cmd::new();
        for arg in args {
            command.arg(*arg);
        }
        let (mut connection, reused) = self.connection().await?;
        let mut result = connection.send_packed_command(&command).await;
        if reused && matches!(&result, Err(err) if err.is_connection_dropped()) {
            // Redis went away since this connection was last used: the command goes out once on
            // a new one.
            *self.current.lock().await = None;
            let (mut fresh, _) = self.connection().await?;
            result = fresh.send_packed_command(&command).await;
        }
        match result {
            Ok(value) => Ok(reply(value)),
            Err(err) if matches!(err.kind(), redis::ErrorKind::Server(_) | redis::ErrorKind::Extension) => {
                Ok(Reply::Error(format!("{} {}", err.code().unwrap_or("ERR"), err.detail().unwrap_or(""))))
            }
            Err(err) => {
                if err.is_unrecoverable_error()
                    || err.is_connection_dropped()
                    || err.is_io_error()
                    || err.kind() == redis::ErrorKind::Parse
                {
                    *self.current.lock().await = None;
                }
                let bad_reply = err.kind() == redis::ErrorKind::Parse;
                Err(CallFailure { reason: excerpt(format!("cannot talk to Redis: {err}").as_bytes(), 300), bad_reply })
            }
        }
    }
}

fn reply(value: Value) -> Reply {
    match value {
        Value::Nil => Reply::Bulk(None),
        Value::Int(number) => Reply::Integer(number),
        Value::BulkString(bytes) => Reply::Bulk(Some(bytes)),
        Value::Array(items) | Value::Set(items) => Reply::Array(Some(items.into_iter().map(reply).collect())),
        Value::SimpleString(text) => Reply::Status(text),
        Value::Okay => Reply::Status("OK".to_string()),
        Value::ServerError(err) => Reply::Error(format!("{} {}", err.code(), err.details().unwrap_or(""))),
        other => Reply::Status(format!("{other:?}")),
    }
}
