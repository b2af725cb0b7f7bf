//! Opening the race's connections: TCP with Nagle off (a withheld byte must leave the moment it is
//! written) and, on https, TLS with the ALPN protocols the chosen synchronisation needs.
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use http::Uri;

use crate::http::tls;

/// Where a race goes and how: what the engines need of a request, whichever tool sends it.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub url: Uri,
    /// Accept any TLS certificate (`-k`).
    pub insecure: bool,
    /// How long connecting (and each answer) may take.
    pub timeout: Duration,
}

impl Target {
    pub(crate) fn is_https(&self) -> bool {
        self.url.scheme_str() == Some("https")
    }

    /// The `:authority` / `Host` value of the URL.
    pub(crate) fn authority(&self) -> String {
        self.url.authority().map(|a| a.as_str().to_string()).unwrap_or_default()
    }
}

/// A connection, plain or TLS, behind one type, with what a batched release (`batch`) needs of
/// it: the TCP socket underneath and the bytes it must carry for a plaintext.
pub(crate) trait RaceStream: AsyncRead + AsyncWrite + Unpin + Send {
    /// The TCP socket under the stream, where one is reachable.
    fn tcp(&mut self) -> Option<&mut TcpStream> {
        None
    }

    /// The raw descriptor of `tcp()`, for a submission the runtime does not see.
    fn raw_fd(&mut self) -> Option<i32> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            self.tcp().map(|tcp| tcp.as_raw_fd())
        }
        #[cfg(not(unix))]
        None
    }

    /// The bytes `tcp()` must carry for `plaintext` (itself on TCP, its TLS records on https),
    /// committed: they must go out on the socket before anything else is written through the
    /// stream. `None` where there is no socket to put them on.
    fn seal(&mut self, _plaintext: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
        Ok(None)
    }
}

impl RaceStream for TcpStream {
    fn tcp(&mut self) -> Option<&mut TcpStream> {
        Some(self)
    }

    fn seal(&mut self, plaintext: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
        Ok(Some(plaintext.to_vec()))
    }
}

impl RaceStream for tokio_rustls::client::TlsStream<TcpStream> {
    fn tcp(&mut self) -> Option<&mut TcpStream> {
        Some(self.get_mut().0)
    }

    /// rustls encrypts `plaintext` into records held here instead of writing them: the next
    /// record's sequence number is taken, so they must reach the socket before any later write.
    fn seal(&mut self, plaintext: &[u8]) -> std::io::Result<Option<Vec<u8>>> {
        use std::io::Write;
        let (_, session) = self.get_mut();
        // Before the handshake ends rustls would only queue the plaintext, not encrypt it.
        if session.is_handshaking() {
            return Ok(None);
        }
        // Records still queued from earlier writes go first, as they would on the stream.
        session.writer().write_all(plaintext)?;
        let mut sealed = Vec::with_capacity(plaintext.len() + 64);
        while session.wants_write() {
            session.write_tls(&mut sealed)?;
        }
        Ok(Some(sealed))
    }
}

/// In-memory streams (tests): no socket, so releases through them are awaited writes.
impl RaceStream for tokio::io::DuplexStream {}

pub(crate) type BoxStream = Box<dyn RaceStream>;

/// An open connection and what ALPN settled on (`None` on plain http or without ALPN).
pub(crate) struct Connected {
    pub stream: BoxStream,
    pub alpn: Option<Vec<u8>>,
}

impl Connected {
    pub(crate) fn is_h2(&self) -> bool {
        self.alpn.as_deref() == Some(tls::ALPN_H2)
    }
}

/// Where the request goes and how to get there; built once, used for every connection of a round.
#[derive(Clone)]
pub(crate) struct Connector {
    host: String,
    port: u16,
    tls: Option<(tokio_rustls::TlsConnector, ServerName<'static>)>,
    timeout: Duration,
}

impl Connector {
    /// A connector offering `alpn` on https (ignored on http).
    pub(crate) fn new(target: &Target, alpn: &[&[u8]]) -> anyhow::Result<Connector> {
        let host = target.url.host().context("the URL has no host")?;
        // IPv6 literals come bracketed in URLs.
        let host = host.trim_start_matches('[').trim_end_matches(']').to_string();
        let https = target.is_https();
        let port = target.url.port_u16().unwrap_or(if https { 443 } else { 80 });
        let tls = if https {
            let config = tls::client_config(target.insecure, alpn)?;
            let name = ServerName::try_from(host.clone())
                .with_context(|| format!("`{host}` cannot be used as a TLS server name"))?;
            Some((tokio_rustls::TlsConnector::from(Arc::new(config)), name))
        } else {
            None
        };
        Ok(Connector { host, port, tls, timeout: target.timeout })
    }

    /// Connects (and handshakes), within the request timeout.
    pub(crate) async fn connect(&self) -> anyhow::Result<Connected> {
        let address = format!("{}:{}", self.host, self.port);
        let work = async {
            let tcp = TcpStream::connect((self.host.as_str(), self.port))
                .await
                .with_context(|| format!("cannot connect to {address}"))?;
            tcp.set_nodelay(true).context("cannot turn off Nagle's algorithm")?;
            match &self.tls {
                None => Ok(Connected { stream: Box::new(tcp) as BoxStream, alpn: None }),
                Some((connector, name)) => {
                    let stream = connector.connect(name.clone(), tcp).await.map_err(|err| {
                        match crate::http::connect_error::describe(&err, &address, false) {
                            Some(described) => anyhow!("TLS handshake with {address} failed: {described}"),
                            None => anyhow::Error::new(err).context(format!("TLS handshake with {address} failed")),
                        }
                    })?;
                    let alpn = stream.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
                    Ok(Connected { stream: Box::new(stream) as BoxStream, alpn })
                }
            }
        };
        tokio::time::timeout(self.timeout, work).await.map_err(|_| {
            anyhow!("cannot connect to {address}: no answer within {}", crate::units::format_duration(self.timeout))
        })?
    }
}
