//! A small Redis client: RESP2 over one plain TCP connection shared by every request, commands
//! pipelined on it (see `Pool`). Enough for the five commands the Redis store sends; a Redis
//! that is down fails a request at once (a 503), without a reconnect loop holding it.
//!
//! Written here instead of taken from the `redis` crate, which was measured against it on
//! 2026-12-01: the crate adds 9 crates and about 300 s to a clean build and 185 KB to the release
//! `idem`, ties this client on `cargo bench --bench serve` within the noise, and bounds only the
//! depth of a reply, where this one bounds what a rogue server can make it hold (lines, lengths,
//! depth, the whole reply). The measurement is in docs/benchmarks-history.md (serve).
use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::StoreError;
use super::location::RedisAddress;
use crate::sync::lock;

/// A connection that takes longer than this to open counts as Redis being down.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// A reply that takes longer than this counts as Redis being down (the commands are O(1)).
const REPLY_TIMEOUT: Duration = Duration::from_secs(2);
/// Connections shared by all requests, each one pipelined; commands go to them in turn. One
/// already carries several commands per write at the bench's load (docs/benchmarks-history.md,
/// serve); more were not measured.
const LINKS: usize = 1;
/// A connection with commands waiting that has received nothing for this long is dropped (their
/// callers have given up long before); it bounds what a Redis that hangs makes a link hold.
const STALLED: Duration = Duration::from_secs(10);
/// Commands queued beyond this many bytes wait for the next write.
const MAX_BATCH: usize = 256 << 10;
/// Replies are read this much at a time; many replies fit in one read.
const READ_BUFFER: usize = 64 << 10;
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

/// Why a command failed on a link.
#[derive(Clone)]
enum CallError {
    /// The connection was closed by the server (Redis restarted) before any byte of this
    /// command's reply: the command may go out again on a new connection.
    Stale,
    Failed(String),
    /// What answered is not speaking RESP, or sent a reply past the limits.
    BadReply(String),
}

/// Why `Pool::call` failed: Redis could not be reached or did not answer in time, or what
/// answered sent a reply that is not RESP or is past the limits. Either way the request gets a
/// 503; at start-up the two call for different advice.
#[derive(Debug)]
pub(super) struct CallFailure {
    pub(super) reason: String,
    pub(super) bad_reply: bool,
}

impl From<CallError> for CallFailure {
    fn from(error: CallError) -> CallFailure {
        match error {
            CallError::Stale => CallFailure { reason: "Redis closed the connection".to_string(), bad_reply: false },
            CallError::Failed(reason) => CallFailure { reason, bad_reply: false },
            CallError::BadReply(reason) => CallFailure { reason, bad_reply: true },
        }
    }
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

fn written_to_closed(err: std::io::Error) -> CallError {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
    match err.kind() {
        BrokenPipe | ConnectionReset | ConnectionAborted => CallError::Stale,
        _ => CallError::Failed(format!("cannot talk to Redis: {err}")),
    }
}

fn read_failed(err: std::io::Error) -> CallError {
    match err.kind() {
        std::io::ErrorKind::InvalidData => CallError::BadReply(err.to_string()),
        _ => CallError::Failed(format!("cannot read Redis's reply: {err}")),
    }
}

/// One command in RESP: an array of bulk strings.
fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut command = format!("*{}\r\n", args.len()).into_bytes();
    for arg in args {
        command.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
        command.extend_from_slice(arg);
        command.extend_from_slice(b"\r\n");
    }
    command
}

/// Arrays nested deeper than this are refused: the store's commands get flat replies, and a
/// reply of 50,000 nested arrays from something that is not Redis must not exhaust the stack.
const MAX_DEPTH: usize = 64;
/// A whole reply may hold this much (bytes received, plus the size of each element in memory);
/// the largest legitimate one is the ledger's list of payments.
const MAX_REPLY: usize = 256 << 20;
/// A status, error or length line longer than this is refused rather than buffered.
const MAX_LINE: usize = 64 << 10;
const UNKNOWN_TYPE: &str = "a reply of unknown type (is this a Redis server?)";
/// How much of a bad reply an error shows, escaped.
const SHOWN: usize = 32;

/// Reads one reply, refusing one nested deeper than `MAX_DEPTH`, larger than `MAX_REPLY` or with
/// a line longer than `MAX_LINE`. Iterative (a stack of the arrays being filled), so no depth of
/// nesting can overflow the call stack before the limit is reached.
async fn read_reply<R: AsyncBufRead + Unpin>(stream: &mut R) -> std::io::Result<Reply> {
    ReplyReader { stream, budget: MAX_REPLY, head: Vec::new() }.read().await
}

struct ReplyReader<'a, R> {
    stream: &'a mut R,
    /// What the rest of the reply may still take.
    budget: usize,
    /// The reply's first bytes, to describe it if it is refused.
    head: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> ReplyReader<'_, R> {
    async fn read(&mut self) -> std::io::Result<Reply> {
        // Arrays still being filled, outermost first: their items so far and how many remain.
        let mut open: Vec<(Vec<Reply>, usize)> = Vec::new();
        loop {
            let mut value = match self.element().await? {
                Element::Complete(value) => value,
                Element::ArrayOf(count) => {
                    if open.len() == MAX_DEPTH {
                        return Err(self.invalid(&format!("arrays nested deeper than {MAX_DEPTH} levels")));
                    }
                    open.push((Vec::with_capacity(count.min(1024)), count));
                    continue;
                }
            };
            // Hand the value to the array it belongs to; an array that is now full is itself a
            // value for the one around it.
            loop {
                let Some((mut items, remaining)) = open.pop() else { return Ok(value) };
                items.push(value);
                if remaining > 1 {
                    open.push((items, remaining - 1));
                    break;
                }
                value = Reply::Array(Some(items));
            }
        }
    }

    /// One element: a whole value, or the header of a non-empty array whose items follow.
    async fn element(&mut self) -> std::io::Result<Element> {
        let line = self.line().await?;
        self.charge(line.len() + std::mem::size_of::<Reply>())?;
        let text = String::from_utf8_lossy(&line[1..line.len() - 2]).into_owned();
        let length = |what| match text.parse::<i64>() {
            Ok(-1) => Ok(None),
            Ok(number) => usize::try_from(number).map(Some).map_err(|_| what),
            Err(_) => Err(what),
        };
        Ok(Element::Complete(match line[0] {
            b'+' => Reply::Status(text),
            b'-' => Reply::Error(text),
            b':' => Reply::Integer(text.parse().map_err(|_| self.invalid("an integer that is not a number"))?),
            b'$' => match length("a value length that is not a number").map_err(|what| self.invalid(what))? {
                None => Reply::Bulk(None),
                Some(length) => Reply::Bulk(Some(self.bulk(length).await?)),
            },
            b'*' => match length("an array length that is not a number").map_err(|what| self.invalid(what))? {
                None => Reply::Array(None),
                Some(0) => Reply::Array(Some(Vec::new())),
                Some(count) => return Ok(Element::ArrayOf(count)),
            },
            _ => return Err(self.invalid(UNKNOWN_TYPE)),
        }))
    }

    /// One line, its `\r\n` included, at most `MAX_LINE` long.
    async fn line(&mut self) -> std::io::Result<Vec<u8>> {
        let mut line = Vec::new();
        loop {
            let available = self.stream.fill_buf().await?;
            if available.is_empty() {
                return Err(self.invalid("a reply cut short"));
            }
            let end = available.iter().position(|&byte| byte == b'\n');
            let taken = end.map_or(available.len(), |at| at + 1).min(MAX_LINE + 1 - line.len());
            line.extend_from_slice(&available[..taken]);
            self.stream.consume(taken);
            self.remember(line.len() - taken, &line);
            // Something that is not Redis (an HTTP server on the port, say) is told apart at
            // its first byte, without waiting for a line end that may never come.
            if !matches!(line.first(), Some(b'+' | b'-' | b':' | b'$' | b'*')) {
                return Err(self.invalid(UNKNOWN_TYPE));
            }
            if line.ends_with(b"\n") {
                break;
            }
            if line.len() > MAX_LINE {
                return Err(self.invalid(&format!("a line longer than {} KiB", MAX_LINE >> 10)));
            }
        }
        if !line.ends_with(b"\r\n") || line.len() < 3 {
            return Err(self.invalid("a reply line that does not end in CRLF"));
        }
        Ok(line)
    }

    /// A bulk string's `length` bytes and the line end after them.
    async fn bulk(&mut self, length: usize) -> std::io::Result<Vec<u8>> {
        if length > MAX_BULK {
            return Err(self.invalid("a value larger than 64 MiB"));
        }
        self.charge(length)?;
        let mut value = vec![0; length + 2];
        self.stream.read_exact(&mut value).await.map_err(|err| match err.kind() {
            std::io::ErrorKind::UnexpectedEof => self.invalid("a value cut short"),
            _ => err,
        })?;
        let already = self.head.len();
        self.remember(already, &value);
        if !value.ends_with(b"\r\n") {
            return Err(self.invalid("a value longer than its length said"));
        }
        value.truncate(length);
        Ok(value)
    }

    fn charge(&mut self, bytes: usize) -> std::io::Result<()> {
        self.budget = self
            .budget
            .checked_sub(bytes)
            .ok_or_else(|| self.invalid(&format!("a reply larger than {} MiB", MAX_REPLY >> 20)))?;
        Ok(())
    }

    /// Keeps the first `SHOWN` bytes of the reply, and one more to tell that it went on;
    /// `new[from..]` are the bytes just read.
    fn remember(&mut self, from: usize, new: &[u8]) {
        if self.head.len() <= SHOWN {
            let fresh = &new[from.min(new.len())..];
            self.head.extend_from_slice(&fresh[..fresh.len().min(SHOWN + 1 - self.head.len())]);
        }
    }

    /// A refused reply, described by what was wrong and its first bytes, never in full.
    fn invalid(&self, what: &str) -> std::io::Error {
        let message = format!("Redis sent {what} (the reply began `{}`)", excerpt(&self.head, SHOWN));
        std::io::Error::new(std::io::ErrorKind::InvalidData, message)
    }
}

enum Element {
    Complete(Reply),
    ArrayOf(usize),
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

/// A command on its way to Redis, and where its reply goes.
struct Queued {
    command: Vec<u8>,
    reply: oneshot::Sender<Result<Reply, CallError>>,
}

/// The way into one link's task; closed once the task has ended (its connection failed or was
/// closed), and then replaced by the next command.
type Link = mpsc::UnboundedSender<Queued>;

/// Connections to one Redis shared by every request: each is a link, one task that owns the
/// socket, writes every command queued so far in one write and hands out the replies in the
/// order Redis sends them (Redis answers a connection's commands in order). One command in
/// flight per connection cost a pool of up to 128 connections and a write and a read per command
/// on both sides; pipelining on a few connections does the same work in far fewer system calls.
pub(super) struct Pool {
    address: RedisAddress,
    links: Vec<Mutex<Option<Link>>>,
    next: AtomicUsize,
    reply_timeout: Duration,
    /// How long a link with commands waiting may hear nothing before it is given up (`STALLED`).
    stalled_after: Duration,
}

impl Pool {
    pub(super) fn new(address: RedisAddress) -> Pool {
        Pool::with(address, LINKS, REPLY_TIMEOUT, STALLED)
    }

    fn with(address: RedisAddress, links: usize, reply_timeout: Duration, stalled_after: Duration) -> Pool {
        let links = (0..links.max(1)).map(|_| Mutex::new(None)).collect();
        Pool { address, links, next: AtomicUsize::new(0), reply_timeout, stalled_after }
    }

    pub(super) fn address(&self) -> &RedisAddress {
        &self.address
    }

    /// Sends one command and returns its reply (an error reply is a `Reply::Error`, for the
    /// caller to judge). Fails when Redis cannot be reached or does not answer in time.
    pub(super) async fn call(&self, args: &[&[u8]]) -> Result<Reply, CallFailure> {
        let command = encode(args);
        let slot = &self.links[self.next.fetch_add(1, Ordering::Relaxed) % self.links.len()];
        // Redis went away since the link was last used (a restart), so the command never ran:
        // it goes out once more, on a new connection. A second time means Redis closes new
        // connections, which is an answer.
        let result = match self.send(slot, command.clone()).await {
            Err(CallError::Stale) => match self.send(slot, command).await {
                Err(CallError::Stale) => Err(CallError::Failed(format!("{} closed the connection", self.address))),
                result => result,
            },
            result => result,
        };
        result.map_err(CallFailure::from)
    }

    async fn send(&self, slot: &Mutex<Option<Link>>, command: Vec<u8>) -> Result<Reply, CallError> {
        let (reply, answer) = oneshot::channel();
        let queued = Queued { command, reply };
        {
            // The link is opened lazily, by the first command after the last one failed: a
            // Redis that is down fails each request at once, and no loop retries in between.
            let mut link = lock(slot);
            let live = match link.as_ref() {
                Some(live) if !live.is_closed() => live,
                _ => link.insert(open(self.address.clone(), self.stalled_after)),
            };
            // The task ended between the check and now: nothing was sent.
            if live.send(queued).is_err() {
                return Err(CallError::Stale);
            }
        }
        match tokio::time::timeout(self.reply_timeout, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(CallError::Failed("the connection to Redis ended".to_string())),
            // The reply, when it comes, is read and dropped by the link, so the replies after
            // it still go to their own commands.
            Err(_) => {
                Err(CallError::Failed(format!("Redis did not answer within {}s", self.reply_timeout.as_secs_f64())))
            }
        }
    }
}

/// Starts a link's task; it connects first, so commands queued meanwhile wait for that alone.
fn open(address: RedisAddress, stalled_after: Duration) -> Link {
    let (link, commands) = mpsc::unbounded_channel();
    tokio::spawn(run_link(address, commands, stalled_after));
    link
}

async fn run_link(address: RedisAddress, mut commands: mpsc::UnboundedReceiver<Queued>, stalled_after: Duration) {
    let mut waiting = VecDeque::new();
    let failure = match connect(&address).await {
        Ok(stream) => pipeline(stream, &mut commands, &mut waiting, stalled_after).await,
        Err(reason) => CallError::Failed(reason),
    };
    // Everything sent on this connection, or queued for it, fails with the reason it ended;
    // closing the queue first makes the next command open a new link.
    commands.close();
    while let Ok(queued) = commands.try_recv() {
        waiting.push_back(queued.reply);
    }
    for reply in waiting {
        let _ = reply.send(Err(failure.clone()));
    }
}

async fn connect(address: &RedisAddress) -> Result<TcpStream, String> {
    let connect = TcpStream::connect((address.host.as_str(), address.port));
    let mut tcp = match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(err)) => return Err(format!("cannot connect to {address}: {err}")),
        Err(_) => return Err(format!("cannot connect to {address}: no answer within 1s")),
    };
    let _ = tcp.set_nodelay(true);
    if address.db != 0 {
        let db = address.db.to_string();
        let select = async {
            tcp.write_all(&encode(&[b"SELECT", db.as_bytes()])).await.map_err(written_to_closed)?;
            let mut reader = BufReader::new(&mut tcp);
            match reader.fill_buf().await {
                Ok([]) => return Err(CallError::Stale),
                Ok(_) => {}
                Err(err) => return Err(written_to_closed(err)),
            }
            // SELECT is alone on the connection, so nothing after its reply is in the buffer.
            read_reply(&mut reader).await.map_err(read_failed)
        };
        match tokio::time::timeout(REPLY_TIMEOUT, select).await {
            Ok(Ok(Reply::Status(_))) => {}
            Ok(Ok(Reply::Error(message))) => {
                return Err(format!("{address} refused the database: {}", excerpt(message.as_bytes(), 200)));
            }
            Ok(Ok(other)) => return Err(format!("{address} answered SELECT with {}", other.describe())),
            Ok(Err(CallError::Stale)) => return Err(format!("{address} closed the connection on SELECT")),
            Ok(Err(CallError::Failed(reason) | CallError::BadReply(reason))) => return Err(reason),
            Err(_) => return Err(format!("{address} did not answer SELECT within 2s")),
        }
    }
    Ok(tcp)
}

/// Writes commands as they come and reads replies as they come, until the connection fails or
/// the pool is gone and every reply is in; returns why it stopped. `waiting` holds the commands
/// sent and not yet answered, oldest first; a reply always goes to the oldest, even if its
/// caller gave up waiting, so one slow reply never shifts the others.
async fn pipeline(
    stream: TcpStream,
    commands: &mut mpsc::UnboundedReceiver<Queued>,
    waiting: &mut VecDeque<oneshot::Sender<Result<Reply, CallError>>>,
    stalled_after: Duration,
) -> CallError {
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::with_capacity(READ_BUFFER, read);
    let mut batch = Vec::new();
    let mut accepting = true;
    // When Redis has to have said something, if anything is waiting (see `STALLED`); the timer
    // is moved only when it goes off, not at every reply.
    let mut deadline = Instant::now() + stalled_after;
    let stalled = tokio::time::sleep_until(deadline);
    tokio::pin!(stalled);
    loop {
        tokio::select! {
            queued = commands.recv(), if accepting => {
                let Some(queued) = queued else {
                    // The pool is gone: answer what was sent, then stop.
                    accepting = false;
                    if waiting.is_empty() {
                        return CallError::Failed("the Redis store was closed".to_string());
                    }
                    continue;
                };
                if waiting.is_empty() {
                    deadline = Instant::now() + stalled_after;
                }
                // Everything queued by now goes out in one write (up to a limit, so a burst
                // does not build one huge buffer). The runtime runs a woken task next on the
                // same thread, so this one would otherwise write each command alone, before the
                // requests ready beside the one that queued it have queued theirs: yielding once
                // lets them, and a write (and Redis's read and write) carries several commands.
                batch.clear();
                tokio::task::yield_now().await;
                let mut next = Some(queued);
                while let Some(queued) = next {
                    batch.extend_from_slice(&queued.command);
                    waiting.push_back(queued.reply);
                    next = if batch.len() < MAX_BATCH { commands.try_recv().ok() } else { None };
                }
                if let Err(err) = write.write_all(&batch).await {
                    return written_to_closed(err);
                }
            }
            ended = async { read.fill_buf().await.map(|bytes| bytes.is_empty()) } => {
                match ended {
                    // The server closed the connection between replies (a restart, or an idle
                    // timeout): nothing still waiting got a byte of its reply.
                    Ok(true) => return CallError::Stale,
                    Ok(false) => {}
                    Err(err) => return written_to_closed(err),
                }
                // Every reply already received is handed out before the next write.
                loop {
                    let Some(reply) = waiting.pop_front() else {
                        return CallError::BadReply(format!(
                            "Redis sent a reply to no command (it began `{}`)",
                            excerpt(read.buffer(), SHOWN)
                        ));
                    };
                    // A reply begun and not finished holds the link (nothing is written
                    // meanwhile), so it gets the same limit as silence.
                    match tokio::time::timeout(stalled_after, read_reply(&mut read)).await {
                        Ok(Ok(value)) => {
                            let _ = reply.send(Ok(value));
                        }
                        Ok(Err(err)) => {
                            waiting.push_front(reply);
                            return read_failed(err);
                        }
                        Err(_) => {
                            waiting.push_front(reply);
                            return CallError::Failed(format!(
                                "Redis stopped in the middle of a reply for {}s",
                                stalled_after.as_secs_f64()
                            ));
                        }
                    }
                    deadline = Instant::now() + stalled_after;
                    if read.buffer().is_empty() {
                        break;
                    }
                }
                if !accepting && waiting.is_empty() {
                    return CallError::Failed("the Redis store was closed".to_string());
                }
            }
            () = &mut stalled, if !waiting.is_empty() => {
                if Instant::now() < deadline {
                    stalled.as_mut().reset(deadline);
                    continue;
                }
                return CallError::Failed(format!("Redis did not answer for {}s", stalled_after.as_secs_f64()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
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

    /// A fake Redis that runs `serve` on each connection it accepts (with the connection's
    /// number, from 0), and counts them.
    async fn fake_with<F, Fut>(serve: F) -> (RedisAddress, Arc<AtomicUsize>)
    where
        F: Fn(usize, BufReader<TcpStream>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = accepted.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(counter.fetch_add(1, Ordering::SeqCst), BufReader::new(socket)));
            }
        });
        (RedisAddress { host: "127.0.0.1".into(), port, db: 0 }, accepted)
    }

    /// Reads one command (a RESP array of bulk strings) and returns its last argument.
    async fn last_argument(socket: &mut BufReader<TcpStream>) -> Option<Vec<u8>> {
        match read_reply(socket).await.ok()? {
            Reply::Array(Some(mut args)) => match args.pop() {
                Some(Reply::Bulk(Some(arg))) => Some(arg),
                _ => None,
            },
            _ => None,
        }
    }

    fn bulk(value: &[u8]) -> Vec<u8> {
        let mut reply = format!("${}\r\n", value.len()).into_bytes();
        reply.extend_from_slice(value);
        reply.extend_from_slice(b"\r\n");
        reply
    }

    /// Answers each command with its last argument; every command already received is answered
    /// in one write, as Redis does with a pipeline.
    async fn echo(mut socket: BufReader<TcpStream>) {
        while let Some(first) = last_argument(&mut socket).await {
            let mut replies = bulk(&first);
            while !socket.buffer().is_empty() {
                let Some(next) = last_argument(&mut socket).await else { return };
                replies.extend(bulk(&next));
            }
            if socket.get_mut().write_all(&replies).await.is_err() {
                return;
            }
        }
    }

    async fn echo_call(pool: &Pool, text: &str) -> Result<Reply, CallFailure> {
        pool.call(&[b"ECHO", text.as_bytes()]).await
    }

    #[tokio::test]
    async fn concurrent_commands_share_one_connection_and_each_gets_its_own_reply() {
        let (address, accepted) = fake_with(|_, socket| echo(socket)).await;
        let pool = Arc::new(Pool::with(address, 1, REPLY_TIMEOUT, STALLED));
        let calls: Vec<_> = (0..500)
            .map(|n| {
                let pool = pool.clone();
                tokio::spawn(async move { (n, echo_call(&pool, &format!("reply {n}")).await.unwrap()) })
            })
            .collect();
        for call in calls {
            let (n, reply) = call.await.unwrap();
            assert_eq!(reply, Reply::Bulk(Some(format!("reply {n}").into_bytes())));
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_timed_out_command_does_not_shift_the_replies_after_it() {
        // The first command's reply is held back until the test has seen its caller give up.
        let (release, held) = oneshot::channel::<()>();
        let held = Arc::new(Mutex::new(Some(held)));
        let (address, accepted) = fake_with(move |_, mut socket| {
            let held = lock(&held).take();
            async move {
                let Some(first) = last_argument(&mut socket).await else { return };
                if let Some(held) = held {
                    let _ = held.await;
                }
                if socket.get_mut().write_all(&bulk(&first)).await.is_ok() {
                    echo(socket).await;
                }
            }
        })
        .await;
        let pool = Pool::with(address, 1, Duration::from_millis(200), STALLED);
        let message = echo_call(&pool, "late").await.unwrap_err().to_string();
        assert!(message.contains("did not answer within"), "{message}");
        release.send(()).unwrap();
        for text in ["second", "third"] {
            assert_eq!(echo_call(&pool, text).await.unwrap(), Reply::Bulk(Some(text.as_bytes().to_vec())));
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 1, "the slow reply did not cost the connection");
    }

    #[tokio::test]
    async fn a_rogue_reply_fails_every_command_pending_and_the_next_command_reconnects() {
        // The first connection waits for three commands, then answers with 1,000 nested arrays;
        // the next ones echo.
        let (address, accepted) = fake_with(|connection, mut socket| async move {
            if connection > 0 {
                return echo(socket).await;
            }
            for _ in 0..3 {
                if last_argument(&mut socket).await.is_none() {
                    return;
                }
            }
            let _ = socket.get_mut().write_all(&nested(1_000)).await;
            // Held open: the client must not wait for more.
            let _ = socket.read_to_end(&mut Vec::new()).await;
        })
        .await;
        let pool = Arc::new(Pool::with(address, 1, REPLY_TIMEOUT, STALLED));
        let pending: Vec<_> = (0..3)
            .map(|n| {
                let pool = pool.clone();
                tokio::spawn(async move { echo_call(&pool, &n.to_string()).await })
            })
            .collect();
        for call in pending {
            let failure = call.await.unwrap().unwrap_err();
            assert!(failure.bad_reply, "{failure}");
            assert!(failure.reason.contains("arrays nested deeper than 64 levels (the reply began `*1"), "{failure}");
        }
        assert_eq!(echo_call(&pool, "after").await.unwrap(), Reply::Bulk(Some(b"after".to_vec())));
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_redis_that_hangs_silent_or_mid_reply_loses_the_link_and_the_next_command_reconnects() {
        // The first connection hangs without a byte, the second after half a reply; later ones
        // echo. A hung link is given up after `stalled_after`, so its queue cannot grow for ever.
        let (address, accepted) = fake_with(|connection, mut socket| async move {
            match connection {
                0 | 1 => {
                    let _ = last_argument(&mut socket).await;
                    if connection == 1 {
                        let _ = socket.get_mut().write_all(b"$10\r\nhalf").await;
                    }
                    let _ = socket.read_to_end(&mut Vec::new()).await;
                }
                _ => echo(socket).await,
            }
        })
        .await;
        let stalled_after = Duration::from_millis(300);
        let pool = Pool::with(address, 1, Duration::from_millis(100), stalled_after);
        for expected in [1, 2] {
            let message = echo_call(&pool, "lost").await.unwrap_err().to_string();
            assert!(message.contains("did not answer within"), "{message}");
            // The caller gave up; the link ends once it has heard nothing for `stalled_after`.
            tokio::time::sleep(stalled_after * 2).await;
            assert_eq!(accepted.load(Ordering::SeqCst), expected);
        }
        assert_eq!(echo_call(&pool, "after").await.unwrap(), Reply::Bulk(Some(b"after".to_vec())));
        assert_eq!(accepted.load(Ordering::SeqCst), 3, "a new link for the command after each hang");
    }

    #[tokio::test]
    async fn a_connection_closed_by_redis_is_replaced_on_the_next_command() {
        // Each connection answers one command, then closes, as a Redis that restarts would.
        let (address, accepted) = fake_with(|_, mut socket| async move {
            if let Some(argument) = last_argument(&mut socket).await {
                let _ = socket.get_mut().write_all(&bulk(&argument)).await;
            }
        })
        .await;
        let pool = Pool::with(address, 1, REPLY_TIMEOUT, STALLED);
        for text in ["one", "two", "three"] {
            assert_eq!(echo_call(&pool, text).await.unwrap(), Reply::Bulk(Some(text.as_bytes().to_vec())));
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 3);
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

    async fn parse(bytes: &[u8]) -> std::io::Result<Reply> {
        read_reply(&mut &bytes[..]).await
    }

    fn nested(depth: usize) -> Vec<u8> {
        let mut bytes = b"*1\r\n".repeat(depth);
        bytes.extend_from_slice(b":7\r\n");
        bytes
    }

    #[tokio::test]
    async fn nesting_is_bounded_and_a_refused_reply_is_described_by_its_first_bytes() {
        let mut expected = Reply::Integer(7);
        for _ in 0..MAX_DEPTH {
            expected = Reply::Array(Some(vec![expected]));
        }
        assert_eq!(parse(&nested(MAX_DEPTH)).await.unwrap(), expected);
        for depth in [MAX_DEPTH + 1, 1_000, 200_000] {
            let message = parse(&nested(depth)).await.unwrap_err().to_string();
            assert!(message.contains("arrays nested deeper than 64 levels"), "{message}");
            assert!(message.ends_with(&format!("began `{}…`)", r"*1\r\n".repeat(8))), "{message}");
            assert!(message.len() < 200, "{} bytes: {message}", message.len());
        }
    }

    #[tokio::test]
    async fn size_is_bounded_per_line_per_value_and_per_reply() {
        let mut long_line = b"+".to_vec();
        long_line.extend(std::iter::repeat_n(b'a', 1 << 20));
        let message = parse(&long_line).await.unwrap_err().to_string();
        assert!(message.contains("a line longer than 64 KiB"), "{message}");
        assert!(message.len() < 200, "{message}");

        let message = parse(b"$100000000\r\n").await.unwrap_err().to_string();
        assert!(message.contains("larger than 64 MiB"), "{message}");

        // The whole-reply budget, shown with a small one: 1,000 one-byte values do not fit 4 KiB.
        let mut many = b"*1000\r\n".to_vec();
        many.extend(b"$1\r\nx\r\n".repeat(1000));
        let mut reader = ReplyReader { stream: &mut &many[..], budget: 4096, head: Vec::new() };
        let message = reader.read().await.unwrap_err().to_string();
        assert!(message.contains("a reply larger than"), "{message}");
        assert!(parse(&many).await.is_ok());
    }

    #[tokio::test]
    async fn malformed_replies_are_refused() {
        for (bytes, says) in [
            (&b"*2\r\n:1\r\n"[..], "cut short"),
            (b"$3\r\nabcdef\r\n", "longer than its length"),
            (b"$5\r\nab", "cut short"),
            (b"$-2\r\n", "not a number"),
            (b":x\r\n", "not a number"),
            (b"+OK\n", "CRLF"),
            (b"\x00\x01", "unknown type"),
        ] {
            let message = parse(bytes).await.unwrap_err().to_string();
            assert!(message.contains(says), "{bytes:?}: {message}");
        }
    }

    #[test]
    fn a_reply_is_described_in_a_few_dozen_bytes() {
        let huge = Reply::Bulk(Some(vec![b'\n'; 1 << 20]));
        let description = huge.describe();
        assert!(description.starts_with("a 1048576-byte value `\\n\\n"), "{description}");
        assert!(description.len() < 200, "{description}");
        assert_eq!(Reply::Array(Some(vec![Reply::Integer(1); 3])).describe(), "an array of 3 items");
        assert_eq!(Reply::Status("OK".into()).describe(), "the status `OK`");
    }
}
