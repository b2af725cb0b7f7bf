//! The HTTP/2 frames the single-packet sender needs (RFC 9113 §4 and §6): encoding into a buffer,
//! and reading one frame at a time from the connection, with its size checked before allocation.
use anyhow::{Context, bail};
use tokio::io::{AsyncRead, AsyncReadExt};

pub(crate) const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

pub const DATA: u8 = 0x0;
pub(crate) const HEADERS: u8 = 0x1;
pub(crate) const RST_STREAM: u8 = 0x3;
pub(crate) const SETTINGS: u8 = 0x4;
pub(crate) const PING: u8 = 0x6;
pub(crate) const GOAWAY: u8 = 0x7;
pub(crate) const WINDOW_UPDATE: u8 = 0x8;
pub(crate) const CONTINUATION: u8 = 0x9;

pub const FLAG_END_STREAM: u8 = 0x1;
pub(crate) const FLAG_ACK: u8 = 0x1;
pub(crate) const FLAG_END_HEADERS: u8 = 0x4;
pub(crate) const FLAG_PADDED: u8 = 0x8;
pub(crate) const FLAG_PRIORITY: u8 = 0x20;

pub(crate) const SETTINGS_ENABLE_PUSH: u16 = 0x2;
pub(crate) const SETTINGS_MAX_CONCURRENT_STREAMS: u16 = 0x3;
pub(crate) const SETTINGS_INITIAL_WINDOW_SIZE: u16 = 0x4;
pub(crate) const SETTINGS_MAX_FRAME_SIZE: u16 = 0x5;

/// The frame size every peer must accept, and the one we advertise.
pub(crate) const DEFAULT_MAX_FRAME_SIZE: usize = 16_384;
/// The flow-control window both sides start with.
pub(crate) const DEFAULT_WINDOW: i64 = 65_535;
/// The window we give the server for its responses, per stream and (by WINDOW_UPDATE) for the
/// connection: large enough that answers never wait on us.
pub(crate) const OUR_WINDOW: u32 = 16 * 1024 * 1024;

/// One frame as read from the connection.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
}

impl Frame {
    pub(crate) fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    /// The payload of a DATA or HEADERS frame without padding (and, for HEADERS, the priority
    /// fields).
    pub(crate) fn content(&self) -> anyhow::Result<&[u8]> {
        let mut payload = self.payload.as_slice();
        let mut pad = 0usize;
        if self.has(FLAG_PADDED) {
            let (&length, rest) = payload.split_first().context("a padded frame has no pad length")?;
            pad = length as usize;
            payload = rest;
        }
        if self.kind == HEADERS && self.has(FLAG_PRIORITY) {
            payload = payload.get(5..).context("a HEADERS frame is too short for its priority fields")?;
        }
        if pad > payload.len() {
            bail!("a frame's padding is longer than the frame");
        }
        Ok(&payload[..payload.len() - pad])
    }
}

/// Appends a frame header and payload.
pub(crate) fn push_frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    let length = payload.len() as u32;
    out.extend_from_slice(&length.to_be_bytes()[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    out.extend_from_slice(payload);
}

pub(crate) fn push_settings(out: &mut Vec<u8>, settings: &[(u16, u32)]) {
    let mut payload = Vec::with_capacity(settings.len() * 6);
    for (id, value) in settings {
        payload.extend_from_slice(&id.to_be_bytes());
        payload.extend_from_slice(&value.to_be_bytes());
    }
    push_frame(out, SETTINGS, 0, 0, &payload);
}

pub(crate) fn push_window_update(out: &mut Vec<u8>, stream: u32, increment: u32) {
    push_frame(out, WINDOW_UPDATE, 0, stream, &(increment & 0x7fff_ffff).to_be_bytes());
}

/// A header block split into HEADERS and CONTINUATION frames of at most `max_frame` bytes.
pub(crate) fn push_headers(out: &mut Vec<u8>, stream: u32, block: &[u8], end_stream: bool, max_frame: usize) {
    let mut chunks = block.chunks(max_frame.max(1)).peekable();
    let mut first = true;
    if block.is_empty() {
        let flags = FLAG_END_HEADERS | if end_stream { FLAG_END_STREAM } else { 0 };
        push_frame(out, HEADERS, flags, stream, &[]);
        return;
    }
    while let Some(chunk) = chunks.next() {
        let last = chunks.peek().is_none();
        let mut flags = if last { FLAG_END_HEADERS } else { 0 };
        if first && end_stream {
            flags |= FLAG_END_STREAM;
        }
        push_frame(out, if first { HEADERS } else { CONTINUATION }, flags, stream, chunk);
        first = false;
    }
}

/// DATA frames carrying `data`, at most `max_frame` bytes each; END_STREAM on the last one when
/// asked (an empty DATA frame when `data` is empty).
pub(crate) fn push_data(out: &mut Vec<u8>, stream: u32, data: &[u8], end_stream: bool, max_frame: usize) {
    if data.is_empty() {
        if end_stream {
            push_frame(out, DATA, FLAG_END_STREAM, stream, &[]);
        }
        return;
    }
    let mut chunks = data.chunks(max_frame.max(1)).peekable();
    while let Some(chunk) = chunks.next() {
        let flags = if end_stream && chunks.peek().is_none() { FLAG_END_STREAM } else { 0 };
        push_frame(out, DATA, flags, stream, chunk);
    }
}

/// The server answered the HTTP/2 preface in HTTP/1.x: the bytes where a frame header was expected
/// begin `HTTP/1.` (or are text, as an HTTP/0.9-style error page). The race turns this into advice
/// (drop --http2).
#[derive(Debug, thiserror::Error)]
#[error("the server answered in text, not HTTP/2 frames (`{line}`)")]
pub(crate) struct AnsweredInHttp1 {
    /// The first line it sent, e.g. `HTTP/1.1 400 Bad Request`.
    pub line: String,
    /// It began with an HTTP/1.x status line.
    pub status_line: bool,
}

/// Reads one frame; a frame larger than `max_frame` (what we advertised) is a protocol error.
pub(crate) async fn read_frame(reader: &mut (impl AsyncRead + Unpin), max_frame: usize) -> anyhow::Result<Frame> {
    let mut header = [0u8; 9];
    reader.read_exact(&mut header).await.context("the server closed the connection")?;
    let text = |byte: &u8| byte.is_ascii_graphic() || matches!(byte, b' ' | b'\r' | b'\n' | b'\t');
    if header.starts_with(b"HTTP/1.") || header.iter().all(text) {
        // An HTTP/1.1 status line read as a frame header would be a 4.7 MB frame; say what it is.
        let mut line = header.to_vec();
        let mut rest = [0u8; 40];
        if let Ok(Ok(read)) = tokio::time::timeout(std::time::Duration::from_millis(100), reader.read(&mut rest)).await
        {
            line.extend_from_slice(&rest[..read]);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.lines().next().unwrap_or_default().trim().to_string();
        return Err(AnsweredInHttp1 { status_line: header.starts_with(b"HTTP/1."), line }.into());
    }
    let length = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
    if length > max_frame {
        bail!("the server sent a {length}-byte frame, larger than the {max_frame} bytes allowed");
    }
    let mut payload = vec![0u8; length];
    reader.read_exact(&mut payload).await.context("the server closed the connection mid-frame")?;
    Ok(Frame {
        kind: header[3],
        flags: header[4],
        stream: u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff,
        payload,
    })
}

/// Reads a 32-bit big-endian value at `offset`, if the payload is long enough.
pub(crate) fn be_u32(payload: &[u8], offset: usize) -> Option<u32> {
    let bytes = payload.get(offset..offset + 4)?;
    Some(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// An RFC 9113 error code, named.
pub(crate) fn error_name(code: u32) -> &'static str {
    match code {
        0x0 => "NO_ERROR",
        0x1 => "PROTOCOL_ERROR",
        0x2 => "INTERNAL_ERROR",
        0x3 => "FLOW_CONTROL_ERROR",
        0x4 => "SETTINGS_TIMEOUT",
        0x5 => "STREAM_CLOSED",
        0x6 => "FRAME_SIZE_ERROR",
        0x7 => "REFUSED_STREAM",
        0x8 => "CANCEL",
        0x9 => "COMPRESSION_ERROR",
        0xa => "CONNECT_ERROR",
        0xb => "ENHANCE_YOUR_CALM",
        0xc => "INADEQUATE_SECURITY",
        0xd => "HTTP_1_1_REQUIRED",
        _ => "unknown error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_round_trip_and_padding_is_removed() {
        let mut out = Vec::new();
        push_frame(&mut out, DATA, FLAG_PADDED | FLAG_END_STREAM, 3, &[2, b'h', b'i', 0, 0]);
        let frame = read_frame(&mut out.as_slice(), DEFAULT_MAX_FRAME_SIZE).await.unwrap();
        assert_eq!((frame.kind, frame.stream, frame.has(FLAG_END_STREAM)), (DATA, 3, true));
        assert_eq!(frame.content().unwrap(), b"hi");
    }

    #[tokio::test]
    async fn oversized_and_badly_padded_frames_are_errors() {
        let mut out = Vec::new();
        push_frame(&mut out, DATA, 0, 1, &[0; 20]);
        assert!(read_frame(&mut out.as_slice(), 10).await.is_err());
        let frame = Frame { kind: DATA, flags: FLAG_PADDED, stream: 1, payload: vec![9, 1] };
        assert!(frame.content().is_err());
        assert!(read_frame(&mut &out[..5], 100).await.is_err());
    }

    #[test]
    fn long_header_blocks_continue() {
        let mut out = Vec::new();
        push_headers(&mut out, 1, &[7; 25], false, 10);
        // HEADERS(10) + CONTINUATION(10) + CONTINUATION(5, END_HEADERS)
        assert_eq!(out.len(), 3 * 9 + 25);
        assert_eq!((out[3], out[4]), (HEADERS, 0));
        assert_eq!((out[19 + 3], out[19 + 4]), (CONTINUATION, 0));
        assert_eq!((out[38 + 3], out[38 + 4]), (CONTINUATION, FLAG_END_HEADERS));
    }
}
