//! What gets signed: one webhook delivery (body, id, timestamp, event type), as every command that
//! signs (`sign`, `send`, `replay`, `check`) describes it to a scheme.
use std::io::Read;
use std::path::PathBuf;

use bytes::Bytes;

/// One delivery to sign.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub body: DeliveryBody,
    /// The delivery (message) id. Schemes that carry one send it in a header; receivers
    /// de-duplicate on it.
    pub id: String,
    /// Unix seconds; timestamped schemes sign it.
    pub timestamp: i64,
    /// The event type, for schemes with an event header (`X-GitHub-Event`, `X-Shopify-Topic`).
    pub event: Option<String>,
    /// The URL the delivery is sent to (the one the provider was given), for the schemes that
    /// sign it (Twilio, Square, HubSpot); `None` when the command has none.
    pub url: Option<String>,
}

/// The body bytes, in memory or in a file streamed through the MAC so a large file is never read
/// whole.
#[derive(Debug, Clone)]
pub enum DeliveryBody {
    Bytes(Bytes),
    File(PathBuf),
}

/// Size of the reads when streaming a file body: large enough that the syscalls vanish next to the
/// hashing, small enough to stay in cache.
const STREAM_CHUNK: usize = 256 * 1024;

impl DeliveryBody {
    /// Feeds every byte of the body to `sink`, in order.
    pub fn for_each_chunk(&self, mut sink: impl FnMut(&[u8])) -> std::io::Result<()> {
        match self {
            DeliveryBody::Bytes(bytes) => {
                sink(bytes);
                Ok(())
            }
            DeliveryBody::File(path) => {
                let mut file = std::fs::File::open(path)?;
                let mut buffer = vec![0u8; STREAM_CHUNK];
                loop {
                    match file.read(&mut buffer) {
                        Ok(0) => return Ok(()),
                        Ok(read) => sink(&buffer[..read]),
                        Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(err) => return Err(err),
                    }
                }
            }
        }
    }

    /// Where the body lives, for error messages.
    pub fn describe(&self) -> String {
        match self {
            DeliveryBody::Bytes(bytes) => format!("the {}-byte body", bytes.len()),
            DeliveryBody::File(path) => format!("the body file `{}`", path.display()),
        }
    }
}

pub use crate::clock::unix_now;
pub(crate) use crate::ids::fresh_id;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_bodies_stream_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("body");
        let content: Vec<u8> = (0..(STREAM_CHUNK * 2 + 7)).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &content).unwrap();
        let mut seen = Vec::new();
        DeliveryBody::File(path).for_each_chunk(|chunk| seen.extend_from_slice(chunk)).unwrap();
        assert_eq!(seen, content);
    }
}
