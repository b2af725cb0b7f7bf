//! Releasing several connections at once: every connection's final bytes are prepared before the
//! release (on https, already encrypted into TLS records held back from the socket), then handed
//! to the kernel in one batched submission instead of one awaited write after another.
//!
//! - `io_uring`: one `io_uring_enter` submitting one SEND per socket, where the kernel allows it
//!   (Linux ≥ 5.6; `io_uring_setup` may be refused by seccomp or `kernel.io_uring_disabled`, which
//!   is probed at run time);
//! - `send-loop`: otherwise, a tight loop of non-blocking `send(2)` on each raw socket, with no
//!   await and no allocation between them;
//! - `sequential`: where no raw socket is reachable (an in-memory stream), one awaited write per
//!   connection, as before.
//!
//! A send the kernel takes only in part (a full socket buffer) or refuses for now (`EAGAIN`) is
//! finished through the connection's ordinary async writes right after the submission, and counted.
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;
use tokio::io::AsyncWriteExt;

use super::connect::BoxStream;

/// How the final bytes of several connections were put on their sockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub enum BatchMethod {
    /// One `io_uring_enter` submitting one SEND per socket.
    #[serde(rename = "io_uring")]
    IoUring,
    /// A tight loop of non-blocking `send(2)` calls, one per socket.
    #[serde(rename = "send-loop")]
    SendLoop,
    /// One awaited write per connection (no raw socket reachable).
    #[serde(rename = "sequential")]
    Sequential,
}

impl BatchMethod {
    /// The method as a short phrase for people: `one io_uring submission`.
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            BatchMethod::IoUring => "one io_uring submission",
            BatchMethod::SendLoop => "one send loop",
            BatchMethod::Sequential => "one awaited write after another",
        }
    }
}

/// What a batched release did, for the release record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    pub method: BatchMethod,
    /// Connections whose final bytes the submission did not take in full (a full socket buffer):
    /// the rest was written right after it, through the ordinary async path.
    pub finished_after: usize,
}

/// The most capable method this process may use: the benches lower it to compare the methods;
/// a command always starts from `io_uring` and falls back as the kernel says.
static CEILING: AtomicU8 = AtomicU8::new(0);

/// Use at most `method` from now on (`io_uring` allows all; `send-loop` skips io_uring;
/// `sequential` is the awaited writes of before), for comparing the methods.
pub fn limit_to(method: BatchMethod) {
    let rank = match method {
        BatchMethod::IoUring => 0,
        BatchMethod::SendLoop => 1,
        BatchMethod::Sequential => 2,
    };
    CEILING.store(rank, Ordering::Relaxed);
}

fn allowed(method: BatchMethod) -> bool {
    let ceiling = CEILING.load(Ordering::Relaxed);
    match method {
        BatchMethod::IoUring => ceiling == 0,
        BatchMethod::SendLoop => ceiling <= 1,
        BatchMethod::Sequential => true,
    }
}

/// One connection's final bytes, prepared before the release.
pub(crate) enum Held {
    /// What its socket must carry (the plaintext itself on TCP, its TLS records on https),
    /// already committed: nothing may be written through the stream before these bytes.
    Sealed(Vec<u8>),
    /// No raw socket is reachable: the plaintext, to write through the stream.
    Plain(Vec<u8>),
}

impl Held {
    /// Prepares `plaintext` for `stream`'s release.
    pub(crate) fn prepare(stream: &mut BoxStream, plaintext: &[u8]) -> anyhow::Result<Held> {
        if !allowed(BatchMethod::SendLoop) {
            return Ok(Held::Plain(plaintext.to_vec()));
        }
        Ok(match stream.seal(plaintext).context("cannot prepare the final bytes")? {
            Some(sealed) => Held::Sealed(sealed),
            None => Held::Plain(plaintext.to_vec()),
        })
    }
}

/// What the release looked like from the client.
#[derive(Debug, Clone)]
pub(crate) struct Released {
    pub batch: Batch,
    /// Just before the first connection's bytes were handed to the kernel.
    pub started: Instant,
    /// From `started` to just after the last connection's bytes were handed over: the whole
    /// submission (an upper bound on the gap between the first and the last send).
    pub spread: Duration,
    /// When each connection's send began, from `started`; all zero in one io_uring submission,
    /// which does not say when each of its sends went.
    pub offsets: Vec<Duration>,
    /// System calls and writes that carried the final bytes: one per connection, plus one per
    /// connection finished afterwards.
    pub writes: usize,
}

/// Puts every connection's `held` bytes (in the same order as `streams`) on its socket together.
pub(crate) async fn release(streams: &mut [&mut BoxStream], held: &[Held]) -> anyhow::Result<Released> {
    let sealed: Option<Vec<(i32, &[u8])>> = streams
        .iter_mut()
        .zip(held)
        .map(|(stream, held)| match (held, stream.raw_fd()) {
            (Held::Sealed(bytes), Some(fd)) => Some((fd, bytes.as_slice())),
            _ => None,
        })
        .collect();
    let Some(outgoing) = sealed else { return sequential(streams, held).await };
    let submitted = submit(&outgoing)?;
    let mut finished_after = 0;
    for ((stream, (_, bytes)), sent) in streams.iter_mut().zip(&outgoing).zip(&submitted.sent) {
        if *sent < bytes.len() {
            finished_after += 1;
            let socket = stream.tcp().context("the connection lost its socket")?;
            socket.write_all(&bytes[*sent..]).await.context("cannot release the final bytes")?;
        }
    }
    Ok(Released {
        batch: Batch { method: submitted.method, finished_after },
        started: submitted.started,
        spread: submitted.spread,
        offsets: submitted.offsets,
        writes: outgoing.len() + finished_after,
    })
}

/// Where a raw socket is missing: one awaited write per connection. Sealed bytes go on the socket
/// under the stream (they are TLS records already), plaintext through the stream.
async fn sequential(streams: &mut [&mut BoxStream], held: &[Held]) -> anyhow::Result<Released> {
    let started = Instant::now();
    let mut offsets = Vec::with_capacity(held.len());
    for (stream, held) in streams.iter_mut().zip(held) {
        offsets.push(started.elapsed());
        match held {
            Held::Sealed(bytes) => {
                let socket = stream.tcp().context("the connection lost its socket")?;
                socket.write_all(bytes).await.context("cannot release the final bytes")?;
            }
            Held::Plain(bytes) => {
                stream.write_all(bytes).await.context("cannot release the final bytes")?;
                stream.flush().await.context("cannot release the final bytes")?;
            }
        }
    }
    Ok(Released {
        batch: Batch { method: BatchMethod::Sequential, finished_after: 0 },
        started,
        spread: started.elapsed(),
        offsets,
        writes: held.len(),
    })
}

/// What one submission did: how many bytes of each connection's the kernel took.
pub(crate) struct Submitted {
    pub method: BatchMethod,
    pub started: Instant,
    pub spread: Duration,
    pub offsets: Vec<Duration>,
    pub sent: Vec<usize>,
}

/// Hands every `(fd, bytes)` to the kernel at once: io_uring where it is allowed and accepted,
/// else the send loop. Never blocks: a socket that cannot take all its bytes now reports fewer.
pub(crate) fn submit(outgoing: &[(i32, &[u8])]) -> anyhow::Result<Submitted> {
    #[cfg(target_os = "linux")]
    if allowed(BatchMethod::IoUring)
        && let Some(submitted) = uring::submit(outgoing)
    {
        return submitted;
    }
    Ok(send_loop(outgoing))
}

/// The fallback: one non-blocking `send(2)` per socket, back to back. The vectors are allocated
/// before the first send so nothing but the sends and the clock runs between them.
#[cfg(unix)]
pub(crate) fn send_loop(outgoing: &[(i32, &[u8])]) -> Submitted {
    let mut sent = Vec::with_capacity(outgoing.len());
    let mut starts = Vec::with_capacity(outgoing.len());
    let started = Instant::now();
    for (fd, bytes) in outgoing {
        starts.push(Instant::now());
        sent.push(send_now(*fd, bytes));
    }
    let spread = started.elapsed();
    let offsets = starts.iter().map(|at| at.saturating_duration_since(started)).collect();
    Submitted { method: BatchMethod::SendLoop, started, spread, offsets, sent }
}

/// Without raw sockets, nothing is sent here: every connection is finished by its async write.
#[cfg(not(unix))]
pub(crate) fn send_loop(outgoing: &[(i32, &[u8])]) -> Submitted {
    let started = Instant::now();
    Submitted {
        method: BatchMethod::Sequential,
        started,
        spread: Duration::ZERO,
        offsets: vec![Duration::ZERO; outgoing.len()],
        sent: vec![0; outgoing.len()],
    }
}

/// One non-blocking send: the bytes the kernel took (0 when it took none now, or refused: the
/// async write that finishes the connection then says why).
#[cfg(unix)]
fn send_now(fd: i32, bytes: &[u8]) -> usize {
    loop {
        // SAFETY: `bytes` is a live slice and `fd` an open socket for the whole call.
        let result =
            unsafe { libc::send(fd, bytes.as_ptr().cast(), bytes.len(), libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL) };
        if result >= 0 {
            return result as usize;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return 0;
        }
    }
}

#[cfg(target_os = "linux")]
mod uring {
    use std::cell::RefCell;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use io_uring::{IoUring, Probe, opcode, types};

    use anyhow::Context;

    use super::{BatchMethod, Submitted};

    /// The most sends one submission carries; larger releases use the send loop.
    const MAX_ENTRIES: usize = 4096;
    /// The smallest ring kept, so most rounds reuse the first one.
    const MIN_ENTRIES: usize = 256;

    /// Set once the kernel refused a ring or SEND: later releases go straight to the send loop.
    static REFUSED: AtomicBool = AtomicBool::new(false);

    thread_local! {
        /// This thread's ring, kept between releases: a new ring, and the kernel's per-thread
        /// io_uring context set up by a thread's first submission, cost hundreds of microseconds,
        /// which would land inside the release.
        static RING: RefCell<Option<IoUring>> = const { RefCell::new(None) };
    }

    /// A ring with room for `entries` submissions, already used once (a NOP) so the kernel's
    /// per-thread set-up is done; `None` where the kernel refuses io_uring or its SEND.
    fn ready(entries: usize) -> Option<IoUring> {
        let entries = entries.next_power_of_two().max(MIN_ENTRIES) as u32;
        let ring = IoUring::new(entries).ok()?;
        let mut probe = Probe::new();
        ring.submitter().register_probe(&mut probe).ok()?;
        if !probe.is_supported(opcode::Send::CODE) {
            return None;
        }
        let nop = opcode::Nop::new().build().user_data(u64::MAX);
        let mut ring = ring;
        // SAFETY: a NOP reads no buffer.
        unsafe { ring.submission().push(&nop).ok()? };
        ring.submit_and_wait(1).ok()?;
        ring.completion().for_each(drop);
        Some(ring)
    }

    /// One submission of one SEND per socket, or `None` where io_uring cannot be used (refused,
    /// SEND unsupported): nothing was sent then. An error: some sends may have gone, some not,
    /// and which is unknown, so the round cannot go on.
    pub(super) fn submit(outgoing: &[(i32, &[u8])]) -> Option<anyhow::Result<Submitted>> {
        if outgoing.is_empty() || outgoing.len() > MAX_ENTRIES || REFUSED.load(Ordering::Relaxed) {
            return None;
        }
        RING.with(|slot| {
            let mut slot = slot.borrow_mut();
            if slot.as_ref().is_none_or(|ring| ring.params().sq_entries() < outgoing.len() as u32) {
                *slot = ready(outgoing.len());
                if slot.is_none() {
                    REFUSED.store(true, Ordering::Relaxed);
                    return None;
                }
            }
            let ring = slot.as_mut()?;
            let submitted = submit_on(ring, outgoing);
            if submitted.is_err() {
                // Not used again, nor closed: the kernel may still hold sends that read buffers
                // about to be freed, and closing would not wait for them.
                if let Some(ring) = slot.take() {
                    std::mem::forget(ring);
                }
            }
            Some(submitted)
        })
    }

    /// The submission on `ring`. An error leaves the ring unusable: the caller abandons it.
    fn submit_on(ring: &mut IoUring, outgoing: &[(i32, &[u8])]) -> anyhow::Result<Submitted> {
        // MSG_DONTWAIT: a socket that cannot take its bytes now fails the SEND at once with
        // EAGAIN instead of leaving it in flight, so every SEND completes within the submission.
        let flags = libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL;
        {
            let mut queue = ring.submission();
            for (index, (fd, bytes)) in outgoing.iter().enumerate() {
                let length = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
                let send = opcode::Send::new(types::Fd(*fd), bytes.as_ptr(), length)
                    .flags(flags)
                    .build()
                    .user_data(index as u64);
                // SAFETY: each buffer outlives its SEND: this function waits for every
                // completion before it returns (or the ring is never freed).
                unsafe { queue.push(&send) }.context("the io_uring queue is full")?;
            }
        }
        let started = Instant::now();
        let mut submitted = 0;
        while submitted < outgoing.len() {
            match ring.submit() {
                Ok(count) => submitted += count,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let spread = started.elapsed();
        let mut sent = vec![0; outgoing.len()];
        let mut completed = 0;
        while completed < submitted {
            for completion in ring.completion() {
                if let Some(slot) = sent.get_mut(completion.user_data() as usize) {
                    *slot = usize::try_from(completion.result()).unwrap_or(0);
                }
                completed += 1;
            }
            if completed < submitted {
                match ring.submit_and_wait(submitted - completed) {
                    Ok(_) => {}
                    Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                    // The ring cannot be waited on: the caller abandons it with what it holds
                    // rather than let the kernel read buffers that are freed.
                    Err(err) => {
                        return Err(anyhow::Error::new(err).context("cannot wait for the io_uring sends"));
                    }
                }
            }
        }
        if submitted < outgoing.len() {
            // Entries the kernel would not take stay queued and would go out with a later
            // submission: the ring is abandoned and the round fails rather than risk that.
            return Err(anyhow::anyhow!(
                "the io_uring submission took {submitted} of {} sends; the release cannot be trusted",
                outgoing.len()
            ));
        }
        Ok(Submitted {
            method: BatchMethod::IoUring,
            started,
            spread,
            offsets: vec![Duration::ZERO; outgoing.len()],
            sent,
        })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::fd::AsRawFd;

    use tokio::io::AsyncReadExt;
    use tokio::net::{TcpListener, TcpStream};

    use super::*;

    /// A connected loopback pair whose client side's send buffer is small.
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let size: libc::c_int = 4096;
        // SAFETY: a valid option value for an open socket.
        unsafe {
            libc::setsockopt(
                client.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_SNDBUF,
                (&raw const size).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
        (client, server)
    }

    /// The methods under test: the send loop always, io_uring where this kernel allows it.
    /// A way to submit, as the tests call it.
    type Submit = fn(&[(i32, &[u8])]) -> Submitted;

    async fn sends_fill_the_buffer_and_the_rest_is_finished_intact(submit: Submit) {
        let (mut small_client, mut small_server) = pair().await;
        let (mut big_client, mut big_server) = pair().await;
        let small = b"x".to_vec();
        // Far more than a loopback socket's buffers hold while nobody reads.
        let big: Vec<u8> = (0..16 * 1024 * 1024).map(|i: u32| (i % 251) as u8).collect();
        let outgoing = [(small_client.as_raw_fd(), small.as_slice()), (big_client.as_raw_fd(), big.as_slice())];
        let submitted = submit(&outgoing);
        assert_eq!(submitted.sent[0], 1, "one byte fits an empty socket");
        assert!(submitted.sent[1] < big.len(), "the big send was taken whole: {}", submitted.sent[1]);

        let reader = tokio::spawn(async move {
            let mut received = Vec::new();
            big_server.read_to_end(&mut received).await.unwrap();
            received
        });
        big_client.write_all(&big[submitted.sent[1]..]).await.unwrap();
        big_client.shutdown().await.unwrap();
        drop(big_client);
        let received = reader.await.unwrap();
        assert!(received == big, "{} of {} bytes came, or in the wrong order", received.len(), big.len());

        small_client.shutdown().await.unwrap();
        let mut received = Vec::new();
        small_server.read_to_end(&mut received).await.unwrap();
        assert_eq!(received, small);
    }

    #[tokio::test]
    async fn send_loop_takes_what_fits_and_the_async_write_finishes_the_rest() {
        sends_fill_the_buffer_and_the_rest_is_finished_intact(send_loop).await;
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn io_uring_or_its_fallback_takes_what_fits_and_the_async_write_finishes_the_rest() {
        sends_fill_the_buffer_and_the_rest_is_finished_intact(|outgoing| submit(outgoing).unwrap()).await;
    }

    #[tokio::test]
    async fn a_closed_peer_leaves_the_bytes_unsent_for_the_async_write_to_report() {
        let (client, server) = pair().await;
        drop(server);
        // The first send after the peer closed may still be taken; a reset refuses later ones.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let bytes = b"abc";
        let _ = send_loop(&[(client.as_raw_fd(), bytes)]);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let submitted = send_loop(&[(client.as_raw_fd(), bytes)]);
        assert_eq!(submitted.sent, [0]);
        assert_eq!(submitted.method, BatchMethod::SendLoop);
    }
}
