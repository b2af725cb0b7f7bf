//! Plain HTTP plumbing both tools use: bodies, the clients and their proxies, headers, the server loop, TLS, URLs and
//! problem documents. Nothing here knows about idempotency keys or webhook signatures.
pub(crate) mod body;
pub(crate) mod budget;
pub(crate) mod chunked;
pub(crate) mod client;
pub(crate) mod connect_error;
pub(crate) mod connection_watch;
pub(crate) mod connection_workers;
pub(crate) mod content_encoding;
pub(crate) mod forwarding_client;
pub(crate) mod forwarding_lane;
pub(crate) mod forwarding_loop;
pub(crate) mod h1_connection;
pub(crate) mod h1_server;
pub(crate) mod header;
pub(crate) mod hop_by_hop;
pub(crate) mod outbound_proxy;
pub(crate) mod problem;
pub(crate) mod request_body;
pub(crate) mod server;
pub(crate) mod server_timing;
pub(crate) mod tls;
pub(crate) mod url;
