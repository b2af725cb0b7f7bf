//! Reading a request's body whole, with a bound on how long it may deliver nothing: a client that
//! stops half-way holds its request (and its connection) no longer than that.
use std::time::Duration;

use bytes::{Buf, Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Body;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long a request body may go without delivering a byte.
pub(crate) const BODY_PROGRESS_TIMEOUT: Duration = Duration::from_secs(10);

/// Reads a whole request body, failing when `BODY_PROGRESS_TIMEOUT` passes without a byte: a
/// client that stops half-way holds its request no longer than that.
pub(crate) async fn read_body<B>(body: B) -> Result<Bytes, BoxError>
where
    B: Body,
    B::Error: Into<BoxError>,
{
    read_body_within(body, BODY_PROGRESS_TIMEOUT).await
}

/// [`read_body`] with another progress timeout.
pub(crate) async fn read_body_within<B>(body: B, progress: Duration) -> Result<Bytes, BoxError>
where
    B: Body,
    B::Error: Into<BoxError>,
{
    let mut body = std::pin::pin!(body);
    // A body that arrives in one frame (most do) is kept as it came, without a copy.
    let mut only: Option<Bytes> = None;
    let mut collected = BytesMut::new();
    loop {
        let frame = match tokio::time::timeout(progress, body.frame()).await {
            Ok(Some(frame)) => frame.map_err(Into::into)?,
            Ok(None) => return Ok(only.unwrap_or_else(|| collected.freeze())),
            Err(_) => return Err(Box::new(BodyStalled { waited: progress })),
        };
        let Ok(mut data) = frame.into_data() else { continue };
        // Free for `Bytes` (hyper's data), a copy for other buffers.
        let bytes = data.copy_to_bytes(data.remaining());
        if bytes.is_empty() {
            continue;
        }
        match only.take() {
            None if collected.is_empty() => only = Some(bytes),
            held => {
                if let Some(held) = held {
                    collected.extend_from_slice(&held);
                }
                collected.extend_from_slice(&bytes);
            }
        }
    }
}

/// A request body delivered no bytes for `waited`: answered 408 by the servers that tell.
#[derive(Debug, thiserror::Error)]
#[error("no body bytes arrived for {}; the client stopped sending", crate::units::format_duration(*.waited))]
pub(crate) struct BodyStalled {
    pub waited: Duration,
}
