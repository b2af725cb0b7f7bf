//! What a request is (method, URL, headers, body, key) and how it is sent.
pub mod body;
pub mod client;
pub mod header;
pub mod hop_by_hop;
pub mod key;
pub mod problem;
pub mod request;
pub mod server;
pub mod tls;
