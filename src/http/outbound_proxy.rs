//! Outbound proxy settings (not `idem proxy`, which is a server): which proxy the client
//! commands go through, decided as curl decides it, so a user behind a corporate proxy needs no
//! new habits:
//!
//! - `--proxy URL` wins over the environment and applies to every scheme; `--proxy ''` means none.
//! - Otherwise `http_proxy` (or `HTTP_PROXY`) for http:// URLs, `https_proxy` (or `HTTPS_PROXY`)
//!   for https:// URLs, and `all_proxy` (or `ALL_PROXY`) for whichever of the two is unset. The
//!   lower-case name is read first, as curl does; an empty value counts as unset.
//! - `--noproxy LIST` wins over `no_proxy` (or `NO_PROXY`) and applies to `--proxy` too: hosts,
//!   domains (with their subdomains), IP addresses or CIDR ranges, comma-separated; `*` is every
//!   host.
//! - A proxy URL without a scheme is http://; without a port, 1080 (443 for https://), as curl.
//!   Its `user:password@` becomes proxy Basic auth and is never printed.
//! - Under CGI (`REQUEST_METHOD` set) `HTTP_PROXY` is ignored: a request's `Proxy:` header
//!   arrives there as that variable (httpoxy).
//!
//! Commands that must connect directly (`idem race`, `idem window`, the forwarders) use
//! [`Proxies::direct`] and never read the environment.
use anyhow::{Context, bail};
use http::Uri;

use crate::http::url::redact_password;

/// The proxy flags of a client command, before the environment is consulted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyFlags {
    /// `--proxy URL`; `Some("")` asks for no proxy at all.
    pub proxy: Option<String>,
    /// `--noproxy LIST`.
    pub noproxy: Option<String>,
}

/// Proxy schemes the client can speak: forwarding and CONNECT over http:// or https://, and SOCKS.
const PROXY_SCHEMES: &[&str] = &["http", "https", "socks4", "socks4a", "socks5", "socks5h"];

/// One proxy: where it is, what to show of it, and which setting named it.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyUrl {
    /// `scheme://[user:password@]host:port`, credentials included: only ever handed to the client.
    url: String,
    /// The same with the password replaced by `***`, for messages.
    shown: String,
    /// `--proxy` or the environment variable it came from.
    source: String,
}

impl std::fmt::Debug for ProxyUrl {
    /// The password stays out of debug output too.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (from {})", self.shown, self.source)
    }
}

impl ProxyUrl {
    /// Parses a proxy as curl reads one. Errors name the setting and never show the password.
    pub fn parse(text: &str, source: &str) -> anyhow::Result<ProxyUrl> {
        let text = text.trim();
        let shown = redact_password(text);
        let with_scheme = if text.contains("://") { text.to_string() } else { format!("http://{text}") };
        let fix = format!("fix {source} (e.g. http://proxy.example.com:3128)");
        let Ok(uri) = with_scheme.parse::<Uri>() else {
            // The parse error can quote the URL, password included: it is not chained.
            bail!("{source} `{shown}` is not a proxy URL; {fix}");
        };
        let scheme = uri.scheme_str().unwrap_or("http").to_ascii_lowercase();
        if !PROXY_SCHEMES.contains(&scheme.as_str()) {
            bail!(
                "{source} `{shown}` uses the scheme `{scheme}`; a proxy is http, https, socks4, socks4a, socks5 or socks5h"
            );
        }
        let Some(authority) = uri.authority() else { bail!("{source} `{shown}` has no host; {fix}") };
        if uri.host().is_none_or(str::is_empty) {
            bail!("{source} `{shown}` has no host; {fix}");
        }
        let default_port = if scheme == "https" { 443 } else { 1080 };
        let port = if authority.port().is_some() { String::new() } else { format!(":{default_port}") };
        let url = format!("{scheme}://{authority}{port}");
        Ok(ProxyUrl { shown: redact_password(&url), url, source: source.to_string() })
    }

    /// The proxy with its password replaced by `***`.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `--proxy` or the environment variable that named this proxy.
    pub fn source(&self) -> &str {
        &self.source
    }
}

/// The proxies a client goes through, resolved and checked before any request is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxies {
    /// For http:// URLs.
    http: Option<ProxyUrl>,
    /// For https:// URLs (tunnelled with CONNECT).
    https: Option<ProxyUrl>,
    /// The hosts reached directly, as `NO_PROXY` writes them.
    no_proxy: String,
}

impl Proxies {
    /// No proxy: every connection goes straight to the target, whatever the environment says.
    pub fn direct() -> Proxies {
        Proxies::default()
    }

    /// The flags, then the process environment.
    pub fn from_flags_and_env(flags: &ProxyFlags) -> anyhow::Result<Proxies> {
        Proxies::resolve(flags, |name| std::env::var(name).ok())
    }

    /// The flags, then the variables `env` returns (the process environment, or a test's).
    pub fn resolve(flags: &ProxyFlags, env: impl Fn(&str) -> Option<String>) -> anyhow::Result<Proxies> {
        let first_set = |names: &[&'static str]| {
            names.iter().find_map(|name| env(name).filter(|value| !value.trim().is_empty()).map(|value| (*name, value)))
        };
        let no_proxy = match &flags.noproxy {
            Some(list) => list.clone(),
            None => first_set(&["no_proxy", "NO_PROXY"]).map(|(_, list)| list).unwrap_or_default(),
        };
        // `*` is every host, IP addresses included (the matcher below applies it to names only).
        if no_proxy.split(',').any(|entry| entry.trim() == "*") {
            return Ok(Proxies::direct());
        }
        if let Some(proxy) = &flags.proxy {
            if proxy.trim().is_empty() {
                return Ok(Proxies::direct());
            }
            let proxy = ProxyUrl::parse(proxy, "--proxy")?;
            return Ok(Proxies { http: Some(proxy.clone()), https: Some(proxy), no_proxy });
        }
        let parse =
            |found: Option<(&str, String)>| found.map(|(name, value)| ProxyUrl::parse(&value, name)).transpose();
        let http_names: &[&str] =
            if env("REQUEST_METHOD").is_some() { &["http_proxy"] } else { &["http_proxy", "HTTP_PROXY"] };
        let all = parse(first_set(&["all_proxy", "ALL_PROXY"]))?;
        let http = parse(first_set(http_names))?.or_else(|| all.clone());
        let https = parse(first_set(&["https_proxy", "HTTPS_PROXY"]))?.or(all);
        Ok(Proxies { http, https, no_proxy })
    }

    /// Whether any proxy is configured at all.
    pub fn is_direct(&self) -> bool {
        self.http.is_none() && self.https.is_none()
    }

    /// The proxy a request to `uri` goes through, if any: the same decision the client makes, for
    /// messages.
    pub fn route_for(&self, uri: &Uri) -> Option<&ProxyUrl> {
        if self.is_direct() {
            return None;
        }
        let mut matcher = hyper_util::client::proxy::matcher::Matcher::builder().no(self.no_proxy.clone());
        if let Some(http) = &self.http {
            matcher = matcher.http(http.url.clone());
        }
        if let Some(https) = &self.https {
            matcher = matcher.https(https.url.clone());
        }
        matcher.build().intercept(uri)?;
        match uri.scheme_str() {
            Some("https") => self.https.as_ref(),
            _ => self.http.as_ref(),
        }
    }

    /// Hands these proxies, and nothing from the environment, to a reqwest client.
    pub fn configure(&self, builder: reqwest::ClientBuilder) -> anyhow::Result<reqwest::ClientBuilder> {
        // `no_proxy()` turns off reqwest's own reading of the environment: it is done above, with
        // curl's order of names and with errors for values that are not proxies.
        let mut builder = builder.no_proxy();
        let no_proxy = || reqwest::NoProxy::from_string(&self.no_proxy);
        if let Some(http) = &self.http {
            let proxy = reqwest::Proxy::http(&http.url)
                .with_context(|| format!("cannot use the proxy {} from {}", http.shown, http.source))?;
            builder = builder.proxy(proxy.no_proxy(no_proxy()));
        }
        if let Some(https) = &self.https {
            let proxy = reqwest::Proxy::https(&https.url)
                .with_context(|| format!("cannot use the proxy {} from {}", https.shown, https.source))?;
            builder = builder.proxy(proxy.no_proxy(no_proxy()));
        }
        Ok(builder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| pairs.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone())
    }

    fn uri(text: &str) -> Uri {
        text.parse().unwrap()
    }

    fn routed(proxies: &Proxies, url: &str) -> Option<String> {
        proxies.route_for(&uri(url)).map(|proxy| format!("{} {}", proxy.shown(), proxy.source()))
    }

    #[test]
    fn each_scheme_takes_its_own_variable_and_all_proxy_fills_the_gaps() {
        let env = env_of(&[("HTTP_PROXY", "plain:3128"), ("ALL_PROXY", "socks5h://socks:1080")]);
        let proxies = Proxies::resolve(&ProxyFlags::default(), env).unwrap();
        assert_eq!(routed(&proxies, "http://api.example.com/"), Some("http://plain:3128 HTTP_PROXY".into()));
        assert_eq!(routed(&proxies, "https://api.example.com/"), Some("socks5h://socks:1080 ALL_PROXY".into()));
    }

    #[test]
    fn lower_case_names_are_read_first_and_empty_values_are_unset() {
        let env = env_of(&[("https_proxy", "http://lower:1"), ("HTTPS_PROXY", "http://upper:2"), ("http_proxy", " ")]);
        let proxies = Proxies::resolve(&ProxyFlags::default(), env).unwrap();
        assert_eq!(routed(&proxies, "https://h/"), Some("http://lower:1 https_proxy".into()));
        assert_eq!(routed(&proxies, "http://h/"), None);
    }

    #[test]
    fn the_flag_wins_over_the_environment_and_empty_means_none() {
        let env = env_of(&[("HTTPS_PROXY", "http://env:1")]);
        let flags = ProxyFlags { proxy: Some("http://flag:2".into()), noproxy: None };
        let proxies = Proxies::resolve(&flags, &env).unwrap();
        assert_eq!(routed(&proxies, "https://h/"), Some("http://flag:2 --proxy".into()));
        assert_eq!(routed(&proxies, "http://h/"), Some("http://flag:2 --proxy".into()));
        let none = ProxyFlags { proxy: Some(String::new()), noproxy: None };
        assert!(Proxies::resolve(&none, &env).unwrap().is_direct());
    }

    #[test]
    fn no_proxy_matches_hosts_domains_and_ranges_and_the_flag_replaces_it() {
        let env = env_of(&[("HTTP_PROXY", "http://p:1"), ("NO_PROXY", "example.com, 10.0.0.0/8,localhost")]);
        let proxies = Proxies::resolve(&ProxyFlags::default(), &env).unwrap();
        for direct in ["http://example.com/", "http://api.example.com/", "http://10.1.2.3/", "http://localhost:8080/"] {
            assert_eq!(routed(&proxies, direct), None, "{direct}");
        }
        assert!(routed(&proxies, "http://notexample.com/").is_some());
        assert!(routed(&proxies, "http://127.0.0.1/").is_some());
        let flags = ProxyFlags { proxy: None, noproxy: Some("127.0.0.1".into()) };
        let proxies = Proxies::resolve(&flags, &env).unwrap();
        assert_eq!(routed(&proxies, "http://127.0.0.1/"), None);
        assert!(routed(&proxies, "http://example.com/").is_some());
        let everything = ProxyFlags { proxy: Some("http://p:1".into()), noproxy: Some("*".into()) };
        let everything = Proxies::resolve(&everything, &env).unwrap();
        assert_eq!(routed(&everything, "http://anything/"), None);
        assert_eq!(routed(&everything, "http://127.0.0.1/"), None);
        assert_eq!(routed(&everything, "http://[::1]/"), None);
    }

    #[test]
    fn under_cgi_the_upper_case_http_proxy_is_ignored() {
        let env = env_of(&[("REQUEST_METHOD", "GET"), ("HTTP_PROXY", "http://attacker:1")]);
        assert!(Proxies::resolve(&ProxyFlags::default(), env).unwrap().is_direct());
    }

    #[test]
    fn proxy_urls_get_curls_defaults_and_keep_their_password_out_of_sight() {
        let proxy = ProxyUrl::parse("alice:s3cret@proxy.corp", "HTTPS_PROXY").unwrap();
        assert_eq!(proxy.shown(), "http://alice:***@proxy.corp:1080");
        assert!(!format!("{proxy:?}").contains("s3cret"));
        assert_eq!(ProxyUrl::parse("https://proxy.corp", "--proxy").unwrap().shown(), "https://proxy.corp:443");
        assert_eq!(
            ProxyUrl::parse("http://proxy.corp:3128/ignored", "--proxy").unwrap().shown(),
            "http://proxy.corp:3128"
        );
    }

    #[test]
    fn bad_proxy_urls_name_the_setting_and_not_the_password() {
        let err =
            Proxies::resolve(&ProxyFlags::default(), env_of(&[("HTTPS_PROXY", "ftp://u:hunter2@p")])).unwrap_err();
        let message = format!("{err:#}");
        assert!(message.contains("HTTPS_PROXY") && message.contains("scheme `ftp`"), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
        let flags = ProxyFlags { proxy: Some("http://u:hunter2@bad host".into()), noproxy: None };
        let message = format!("{:#}", Proxies::resolve(&flags, env_of(&[])).unwrap_err());
        assert!(message.contains("--proxy") && !message.contains("hunter2"), "{message}");
    }

    #[test]
    fn direct_ignores_everything() {
        assert_eq!(Proxies::direct().route_for(&uri("http://h/")), None);
    }
}
