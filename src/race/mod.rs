//! The race engine both tools use: N requests released to arrive at one instant. `idem race`
//! (and `idem check`, `window`, `demo`) fire duplicates at an API with it; `webhook race` and
//! `webhook check` fire duplicate deliveries at a receiver. It knows nothing of keys, verdicts
//! or reports: it takes requests and hands back answers and what the release looked like.
//!
//! One file per job: `h2_single_packet` with `h2_frames` and `hpack` the HTTP/2 single-packet
//! sender, `h1_last_byte` the HTTP/1.1 last-byte sender, `across` the single packet over several
//! instances, `connect` the TCP/TLS connections, `batch` the release of several connections in one
//! submission, `pacing` the exact waits of a staggered release, `answer` what every sender hands
//! back, `together` the choice between the two senders for one receiver.
pub(crate) mod across;
pub(crate) mod answer;
pub(crate) mod batch;
pub(crate) mod connect;
pub(crate) mod h1_last_byte;
pub(crate) mod h2_frames;
pub mod h2_single_packet;
pub(crate) mod hpack;
mod hpack_huffman;
pub(crate) mod pacing;
pub(crate) mod together;
