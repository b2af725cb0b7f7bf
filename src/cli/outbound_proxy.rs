//! `--proxy` and `--noproxy`: the flags every client command shares (`idem send`, `idem check`,
//! `webhook send`, `replay`, `check`), read as curl reads `-x` and `--noproxy`.
use clap::Args;

use crate::http::outbound_proxy::{Proxies, ProxyFlags};

#[derive(Debug, Clone, Default, Args)]
pub struct OutboundProxyArgs {
    /// Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT),
    /// https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '' for none
    #[arg(long, value_name = "URL", help_heading = "Proxy")]
    pub proxy: Option<String>,

    /// Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges,
    /// comma-separated, '*' for all; overrides NO_PROXY
    #[arg(long, value_name = "LIST", help_heading = "Proxy")]
    pub noproxy: Option<String>,
}

impl OutboundProxyArgs {
    pub fn flags(&self) -> ProxyFlags {
        ProxyFlags { proxy: self.proxy.clone(), noproxy: self.noproxy.clone() }
    }

    /// The proxies to use: these flags, then the environment.
    pub fn resolve(&self) -> anyhow::Result<Proxies> {
        Proxies::from_flags_and_env(&self.flags())
    }

    /// Whether `--proxy` names a proxy (`--proxy ''` names none).
    pub fn names_a_proxy(&self) -> bool {
        self.proxy.as_deref().is_some_and(|proxy| !proxy.trim().is_empty())
    }
}
