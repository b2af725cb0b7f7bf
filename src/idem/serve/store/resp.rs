//! A small Redis client: RESP2 over a pool of plain TCP connections, one command in flight per
//! connection. Enough for the five commands the Redis store sends; written here rather than
//! pulling in the `redis` crate (about forty crates, URL/IDNA included, for five commands) and
//! so that a Redis that is down fails a request at once, without a reconnect loop holding it.
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufStream};
use tokio::net::TcpStream;

use super::StoreError;
use super::location::RedisAddress;
use crate::sync::lock;

/// A connection that takes longer than this to open counts as Redis being down.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// A reply that takes longer than this counts as Redis being down (the commands are O(1)).
const REPLY_TIMEOUT: Duration = Duration::from_secs(2);
/// Idle connections kept for reuse; more are opened under load and closed after.
const MAX_IDLE: usize = 128;
/// Bulk strings larger than this are refused rather than allocated (the largest value stored is
/// a response body, which the server already bounds).
const MAX_BULK: usize = 64 << 20;

/// One RESP2 reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reply {
    Status(String),
    Error(String),
    Integer(i64),
    Bulk(Option<Vec<u8>>),
    Array(Option<Vec<Reply>>),
}

struct Connection {
    stream: BufStream<TcpStream>,
}

/// Why a call on a connection failed.
enum CallError {
    /// The connection was already closed by the server before this command (Redis restarted
    /// while it sat idle): nothing was executed, so the command may go out on a new one.
    Stale,
    Failed(String),
}

impl Connection {
    async fn open(address: &RedisAddress) -> Result<Connection, String> {
        let connect = TcpStream::connect((address.host.as_str(), address.port));
        let tcp = match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
            Ok(Ok(tcp)) => tcp,
            Ok(Err(err)) => return Err(format!("cannot connect to {address}: {err}")),
            Err(_) => return Err(format!("cannot connect to {address}: no answer within 1s")),
        };
        let _ = tcp.set_nodelay(true);
        let mut connection = Connection { stream: BufStream::new(tcp) };
        if address.db != 0 {
            let db = address.db.to_string();
            match connection.call(&[b"SELECT", db.as_bytes()]).await {
                Ok(Reply::Status(_)) => {}
                Ok(Reply::Error(message)) => return Err(format!("{address} refused the database: {message}")),
                Ok(other) => return Err(format!("{address} answered SELECT with {other:?}")),
                Err(CallError::Stale | CallError::Failed(_)) => {
                    return Err(format!("{address} closed the connection on SELECT"));
                }
            }
        }
        Ok(connection)
    }

    async fn call(&mut self, args: &[&[u8]]) -> Result<Reply, CallError> {
        let mut command = format!("*{}\r\n", args.len()).into_bytes();
        for arg in args {
            command.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
            command.extend_from_slice(arg);
            command.extend_from_slice(b"\r\n");
        }
        let work = async {
            if let Err(err) = self.stream.write_all(&command).await {
                return Err(written_to_closed(err));
            }
            if let Err(err) = self.stream.flush().await {
                return Err(written_to_closed(err));
            }
            // A server that closed the connection before this command shows it as end of
            // stream (or a reset) before the first byte of a reply.
            match self.stream.fill_buf().await {
                Ok([]) => return Err(CallError::Stale),
                Ok(_) => {}
                Err(err) => return Err(written_to_closed(err)),
            }
            read_reply(&mut self.stream)
                .await
                .map_err(|err| CallError::Failed(format!("cannot read Redis's reply: {err}")))
        };
        tokio::time::timeout(REPLY_TIMEOUT, work)
            .await
            .unwrap_or_else(|_| Err(CallError::Failed("Redis did not answer within 2s".to_string())))
    }
}

fn written_to_closed(err: std::io::Error) -> CallError {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
    match err.kind() {
        BrokenPipe | ConnectionReset | ConnectionAborted => CallError::Stale,
        _ => CallError::Failed(format!("cannot talk to Redis: {err}")),
    }
}

type ReplyFuture<'a> = Pin<Box<dyn Future<Output = std::io::Result<Reply>> + Send + 'a>>;

fn read_reply(stream: &mut BufStream<TcpStream>) -> ReplyFuture<'_> {
    Box::pin(async move {
        let mut line = Vec::new();
        stream.read_until(b'\n', &mut line).await?;
        if !line.ends_with(b"\r\n") || line.len() < 3 {
            return Err(invalid("a reply line cut short"));
        }
        let text = String::from_utf8_lossy(&line[1..line.len() - 2]).into_owned();
        let number = || text.parse::<i64>().map_err(|_| invalid("a reply length that is not a number"));
        match line[0] {
            b'+' => Ok(Reply::Status(text)),
            b'-' => Ok(Reply::Error(text)),
            b':' => Ok(Reply::Integer(number()?)),
            b'$' => {
                let Ok(length) = usize::try_from(number()?) else { return Ok(Reply::Bulk(None)) };
                if length > MAX_BULK {
                    return Err(invalid("a value larger than 64 MiB"));
                }
                let mut value = vec![0; length + 2];
                stream.read_exact(&mut value).await?;
                value.truncate(length);
                Ok(Reply::Bulk(Some(value)))
            }
            b'*' => {
                let Ok(count) = usize::try_from(number()?) else { return Ok(Reply::Array(None)) };
                let mut items = Vec::with_capacity(count.min(1024));
                for _ in 0..count {
                    items.push(read_reply(stream).await?);
                }
                Ok(Reply::Array(Some(items)))
            }
            _ => Err(invalid("a reply of unknown type (is this a Redis server?)")),
        }
    })
}

fn invalid(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, format!("Redis sent {what}"))
}

/// Connections to one Redis, reused across requests.
pub(super) struct Pool {
    address: RedisAddress,
    idle: Mutex<Vec<Connection>>,
}

impl Pool {
    pub(super) fn new(address: RedisAddress) -> Pool {
        Pool { address, idle: Mutex::new(Vec::new()) }
    }

    pub(super) fn address(&self) -> &RedisAddress {
        &self.address
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Connection>> {
        lock(&self.idle)
    }

    /// Sends one command and returns its reply (an error reply is a `Reply::Error`, for the
    /// caller to judge). Fails when Redis cannot be reached or does not answer in time.
    pub(super) async fn call(&self, args: &[&[u8]]) -> Result<Reply, StoreError> {
        let reused = self.idle().pop();
        if let Some(mut connection) = reused {
            match connection.call(args).await {
                Ok(reply) => {
                    self.put_back(connection);
                    return Ok(reply);
                }
                // Redis went away since this connection was last used; its idle siblings are
                // as dead as it is. The command never ran, so it goes out on a new connection.
                Err(CallError::Stale) => self.idle().clear(),
                Err(CallError::Failed(reason)) => return Err(StoreError(reason)),
            }
        }
        let mut connection = Connection::open(&self.address).await.map_err(StoreError)?;
        match connection.call(args).await {
            Ok(reply) => {
                self.put_back(connection);
                Ok(reply)
            }
            Err(CallError::Stale) => Err(StoreError(format!("{} closed the connection", self.address))),
            Err(CallError::Failed(reason)) => Err(StoreError(reason)),
        }
    }

    fn put_back(&self, connection: Connection) {
        let mut idle = self.idle();
        if idle.len() < MAX_IDLE {
            idle.push(connection);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A fake Redis that answers every command with `reply`, then closes.
    async fn fake(reply: &'static [u8]) -> RedisAddress {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buffer = [0u8; 1024];
                let _ = socket.read(&mut buffer).await;
                let _ = socket.write_all(reply).await;
            }
        });
        RedisAddress { host: "127.0.0.1".into(), port, db: 0 }
    }

    #[tokio::test]
    async fn replies_of_every_type_parse() {
        for (bytes, expected) in [
            (&b"+OK\r\n"[..], Reply::Status("OK".into())),
            (b"-ERR nope\r\n", Reply::Error("ERR nope".into())),
            (b":42\r\n", Reply::Integer(42)),
            (b"$3\r\nabc\r\n", Reply::Bulk(Some(b"abc".to_vec()))),
            (b"$-1\r\n", Reply::Bulk(None)),
            (b"*2\r\n$1\r\na\r\n:1\r\n", Reply::Array(Some(vec![Reply::Bulk(Some(b"a".to_vec())), Reply::Integer(1)]))),
        ] {
            let pool = Pool::new(fake(bytes).await);
            assert_eq!(pool.call(&[b"PING"]).await.unwrap(), expected);
        }
    }

    #[tokio::test]
    async fn garbage_and_silence_are_errors_not_panics() {
        let pool = Pool::new(fake(b"HTTP/1.1 200 OK\r\n\r\n").await);
        assert!(pool.call(&[b"PING"]).await.unwrap_err().to_string().contains("unknown type"));
        let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let pool = Pool::new(RedisAddress { host: "127.0.0.1".into(), port: dead, db: 0 });
        assert!(pool.call(&[b"PING"]).await.unwrap_err().to_string().contains("cannot connect"));
    }
}
