//! Plain HTTP plumbing both tools use: bodies, the clients and their proxies, headers, the server loop, TLS, URLs and
//! problem documents. Nothing here knows about idempotency keys or webhook signatures.
pub mod body;
pub mod chunked;
pub mod client;
pub mod content_encoding;
pub mod forwarding_client;
pub mod header;
pub mod hop_by_hop;
pub mod problem;
pub mod proxy;
pub mod server;
pub mod tls;
pub mod url;
