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

/// A connection, plain or TLS, behind one type.
pub(crate) trait RaceStream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> RaceStream for T {}

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
