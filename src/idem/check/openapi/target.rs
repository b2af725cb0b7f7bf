//! Where `idem check --openapi` sends its requests, and who said so. The requests carry the
//! user's `-H` headers (credentials, usually), so a document may not choose a host the user did
//! not name: `--base-url` and `--allow-remote` name one; without them a document read from a file
//! may only point at this machine, and a document fetched from a URL only at the host it came
//! from. Every request URL is the target's scheme and authority with the operation's path set
//! after the target's own path prefix, never a string concatenation a path key could reshape.
use std::net::IpAddr;

use anyhow::{Context, bail};
use http::Uri;
use http::uri::{Parts, PathAndQuery};
use serde_json::Value;

use super::document::Document;
use crate::http::url::{Redacted, parse_url};

/// Who chose the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TargetSource {
    /// `--base-url`.
    BaseUrl,
    /// The document's first `servers` entry (resolved against the spec's URL when relative).
    DocumentServer,
    /// The origin of the URL the spec was fetched from (the document names no servers).
    SpecUrl,
}

/// The base every operation's path goes after.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub base: Uri,
    pub source: TargetSource,
}

impl Target {
    /// The line printed before the first request: where requests go and who chose it.
    pub(crate) fn describe(&self) -> String {
        let from = match self.source {
            TargetSource::BaseUrl => "from --base-url",
            TargetSource::DocumentServer => "from the document's servers[0]",
            TargetSource::SpecUrl => "from the URL the document was fetched from",
        };
        format!("requests go to {} ({from})", Redacted(&self.base))
    }
}

/// Whether a document may send the requests to a host the user did not name, and, when not, which
/// flags the refusal may offer: only those of the command that reads the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Remote {
    /// `--allow-remote` was given.
    Allowed,
    /// Refused; the command has `--allow-remote` (`idem check --openapi`), so the hint offers it.
    RefusedUnlessAllowed,
    /// Refused; the command has only `--base-url` (`idem run`).
    Refused,
}

impl Remote {
    /// A command with `--allow-remote`: allowed when it was given.
    pub(crate) fn allow_remote(given: bool) -> Remote {
        if given { Remote::Allowed } else { Remote::RefusedUnlessAllowed }
    }
}

/// The target: `--base-url`, else the document's first server, else the spec's own origin;
/// refused when only the document chose a host the user did not name (see the module's notes).
pub(crate) fn resolve(base_url: Option<&str>, remote: Remote, document: &Document) -> anyhow::Result<Target> {
    if let Some(given) = base_url {
        let base = parse_url(given).with_context(|| format!("--base-url {}", Redacted(given)))?;
        return Ok(Target { base, source: TargetSource::BaseUrl });
    }
    let server = document.root.pointer("/servers/0/url").and_then(Value::as_str);
    let (base, source, written) = match (server, &document.fetched_from) {
        (Some(server), _) => (server_url(server, document)?, TargetSource::DocumentServer, server.to_string()),
        (None, Some(spec_url)) => (origin_of(spec_url)?, TargetSource::SpecUrl, spec_url.to_string()),
        (None, None) => bail!("the document names no servers and was not fetched from a URL: give --base-url URL"),
    };
    if remote != Remote::Allowed {
        permitted(&base, &written, document.fetched_from.as_ref(), remote)?;
    }
    Ok(Target { base, source })
}

/// The document's first server URL, its variables filled with their defaults and, when it is
/// relative, resolved against the URL the document was fetched from.
fn server_url(written: &str, document: &Document) -> anyhow::Result<Uri> {
    let filled = fill_server_variables(written, server_variables(document));
    if let Some(start) = filled.find(['{', '}']) {
        let variable = filled[start..].split_inclusive('}').next().unwrap_or("{");
        bail!(
            "the document's server URL `{written}` is a malformed template: `{variable}` is not a variable with a \
             `default` under `variables`; give --base-url URL"
        );
    }
    if let Some(scheme) = scheme_of(&filled) {
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            bail!(
                "the document's server URL `{}` uses the unsupported scheme `{scheme}`: idem tests http and https \
                 APIs only; give --base-url URL",
                Redacted(&filled)
            );
        }
        return parse_url(&filled).with_context(|| format!("the document's server URL `{}`", Redacted(&filled)));
    }
    let Some(origin) = &document.fetched_from else {
        let kind = if filled.starts_with("//") { "protocol-relative" } else { "relative" };
        bail!(
            "the document's server URL `{}` is {kind} and the document was read from a file, so there is nothing \
             to resolve it against: give --base-url URL",
            Redacted(&filled)
        );
    };
    let resolved = resolve_relative(origin, &filled);
    parse_url(&resolved).with_context(|| format!("the document's relative server URL `{}`", Redacted(&filled)))
}

/// The scheme a URL starts with (`https` in `https://…`, `gopher` in `gopher://…`), if any.
fn scheme_of(url: &str) -> Option<&str> {
    let (scheme, _) = url.split_once("://")?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then_some(scheme)
}

fn origin_of(url: &Uri) -> anyhow::Result<Uri> {
    let origin = format!("{}://{}", url.scheme_str().unwrap_or("http"), url.authority().map_or("", |a| a.as_str()));
    parse_url(&origin)
}

fn server_variables(document: &Document) -> Vec<(String, String)> {
    let variables = document.root.pointer("/servers/0/variables").and_then(Value::as_object);
    variables
        .into_iter()
        .flatten()
        .filter_map(|(name, variable)| Some((name.clone(), variable.get("default")?.as_str()?.to_string())))
        .collect()
}

fn fill_server_variables(url: &str, variables: Vec<(String, String)>) -> String {
    variables.into_iter().fold(url.to_string(), |url, (name, value)| url.replace(&format!("{{{name}}}"), &value))
}

/// A relative server URL (`/v1`, `v1`, `//host/v1`) resolved against the URL the spec came from.
fn resolve_relative(origin: &Uri, relative: &str) -> String {
    let scheme = origin.scheme_str().unwrap_or("http");
    let authority = origin.authority().map_or("", |a| a.as_str());
    if let Some(rest) = relative.strip_prefix("//") {
        return format!("{scheme}://{rest}");
    }
    if relative.starts_with('/') {
        return format!("{scheme}://{authority}{relative}");
    }
    let dir = origin.path().rsplit_once('/').map_or("", |(dir, _)| dir);
    format!("{scheme}://{authority}{dir}/{relative}")
}

/// `Ok` when a target the document chose is one the user named: this machine for a document
/// read from a file or stdin; the host it was fetched from (or this machine, when it was fetched
/// from this machine) for a fetched one.
fn permitted(target: &Uri, written: &str, fetched_from: Option<&Uri>, remote: Remote) -> anyhow::Result<()> {
    let host = target.host().unwrap_or("");
    let mut fix = "give --base-url URL to choose where the requests (and your -H headers) go".to_string();
    if remote == Remote::RefusedUnlessAllowed {
        fix.push_str(&format!(", or --allow-remote to send them to {}", Redacted(target)));
    } else {
        fix.push_str(&format!(" (--base-url {} to send them to the document's server)", Redacted(target)));
    }
    match fetched_from {
        None if is_loopback(host) => Ok(()),
        None => bail!(
            "the document's servers[0] (`{}`) points at {host}, {}, and a document read from a file may only point \
             at this machine: {fix}",
            Redacted(written),
            host_kind(host)
        ),
        Some(spec_url) => {
            let spec_host = spec_url.host().unwrap_or("");
            if host.eq_ignore_ascii_case(spec_host) || (is_loopback(host) && is_loopback(spec_host)) {
                return Ok(());
            }
            bail!(
                "the document fetched from {spec_host} names another host in its servers[0] (`{}`): {host}, {}; a \
                 fetched document may not move the requests to another host: {fix}",
                Redacted(written),
                host_kind(host)
            )
        }
    }
}

/// `localhost` or a loopback address (`127.0.0.0/8`, `::1`, and `::ffff:127.x.y.z`).
fn is_loopback(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match parse_ip(host) {
        Some(IpAddr::V4(ip)) => ip.is_loopback(),
        Some(IpAddr::V6(ip)) => ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|ip| ip.is_loopback()),
        None => false,
    }
}

fn parse_ip(host: &str) -> Option<IpAddr> {
    host.trim_start_matches('[').trim_end_matches(']').parse().ok()
}

/// What kind of host a refused target is, for the message.
fn host_kind(host: &str) -> &'static str {
    let ip = parse_ip(host).map(|ip| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    });
    match ip {
        Some(IpAddr::V4(ip)) if ip.is_link_local() => "a link-local address (where cloud metadata services answer)",
        Some(IpAddr::V4(ip)) if ip.is_private() || ip.octets()[0] == 100 && (ip.octets()[1] & 0xc0) == 64 => {
            "a private-range address"
        }
        Some(IpAddr::V6(ip)) if (ip.segments()[0] & 0xffc0) == 0xfe80 => "a link-local address",
        Some(IpAddr::V6(ip)) if (ip.segments()[0] & 0xfe00) == 0xfc00 => "a private-range address",
        Some(_) => "a remote address",
        None => "a remote host",
    }
}

/// The request URL of an operation: the base's scheme and authority, the base's path prefix
/// (`/v1`) followed by `path` (an operation path, already checked to start with `/` and to hold
/// no `?` or `#`), then the base's query and the operation's, joined. The authority is the
/// base's by construction, and checked again: nothing in a path may move a request elsewhere.
pub(crate) fn request_url(base: &Uri, path: &str, query: Option<&str>) -> anyhow::Result<Uri> {
    if !path.starts_with('/') || path.contains(['?', '#']) {
        bail!("the operation path `{path}` is not a path (it must start with `/` and hold no `?` or `#`)");
    }
    let prefix = base.path().trim_end_matches('/');
    let mut path_and_query = format!("{prefix}{path}");
    let queries: Vec<&str> = base.query().into_iter().chain(query).filter(|q| !q.is_empty()).collect();
    if !queries.is_empty() {
        path_and_query.push('?');
        path_and_query.push_str(&queries.join("&"));
    }
    let mut parts = Parts::default();
    parts.scheme = base.scheme().cloned();
    parts.authority = base.authority().cloned();
    parts.path_and_query = Some(
        PathAndQuery::try_from(path_and_query.as_str())
            .with_context(|| format!("the operation path `{path}` cannot be sent in a URL"))?,
    );
    let url = Uri::from_parts(parts).with_context(|| format!("the operation path `{path}` cannot be sent in a URL"))?;
    // The URL as it will be sent is its text: read back, it must still name the base's server.
    let sent: Uri = url.to_string().parse().with_context(|| format!("the operation path `{path}` makes no URL"))?;
    if sent.scheme() != base.scheme() || sent.authority() != base.authority() {
        bail!("the operation path `{path}` would send the request to another server than {}", Redacted(base));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document(servers: Value, fetched_from: Option<&str>) -> Document {
        let root = json!({"openapi": "3.1.0", "info": {}, "paths": {}, "servers": servers});
        Document::from_value(root, "t", fetched_from.map(|url| url.parse().unwrap())).unwrap()
    }

    fn refusal(servers: Value, fetched_from: Option<&str>) -> String {
        format!("{:#}", resolve(None, Remote::RefusedUnlessAllowed, &document(servers, fetched_from)).unwrap_err())
    }

    #[test]
    fn relative_servers_resolve_against_the_spec_url() {
        let origin: Uri = "https://api.example.com/specs/openapi.yaml".parse().unwrap();
        assert_eq!(resolve_relative(&origin, "/v1"), "https://api.example.com/v1");
        assert_eq!(resolve_relative(&origin, "v2"), "https://api.example.com/specs/v2");
        assert_eq!(resolve_relative(&origin, "//other.example.com/v1"), "https://other.example.com/v1");
        let variables = vec![("region".to_string(), "eu".to_string())];
        assert_eq!(fill_server_variables("https://{region}.example.com", variables), "https://eu.example.com");
        let fetched = document(json!([{"url": "/v1"}]), Some("https://api.example.com/openapi.json"));
        let target = resolve(None, Remote::RefusedUnlessAllowed, &fetched).unwrap();
        assert_eq!(
            (target.base.to_string(), target.source),
            ("https://api.example.com/v1".into(), TargetSource::DocumentServer)
        );
    }

    #[test]
    fn the_request_url_keeps_the_base_authority_and_path_prefix() {
        let base: Uri = "http://127.0.0.1:18401/v1/".parse().unwrap();
        assert_eq!(request_url(&base, "/payments", None).unwrap().to_string(), "http://127.0.0.1:18401/v1/payments");
        assert_eq!(request_url(&base, "/p", Some("a=1")).unwrap().to_string(), "http://127.0.0.1:18401/v1/p?a=1");
        let bare: Uri = "http://127.0.0.1:18401".parse().unwrap();
        for hostile in ["@127.0.0.1:18402/stolen", "2/stolen", ".localhost/stolen", "/p?x=1", "/p#f"] {
            // Appended as text these moved the request (or its query); they are not paths.
            let err = request_url(&bare, hostile, None).unwrap_err().to_string();
            assert!(err.contains("is not a path"), "{hostile}: {err}");
        }
        // After a `/`, an `@` or a `:` is part of the path and the authority stays.
        let url = request_url(&bare, "/@127.0.0.1:18402/stolen", None).unwrap();
        assert_eq!(url.authority().unwrap().as_str(), "127.0.0.1:18401", "{url}");
        let with_query: Uri = "http://h/v1?tenant=a".parse().unwrap();
        assert_eq!(request_url(&with_query, "/p", Some("b=2")).unwrap().to_string(), "http://h/v1/p?tenant=a&b=2");
    }

    #[test]
    fn a_refusal_offers_allow_remote_only_to_a_command_that_has_it() {
        let remote = document(json!([{"url": "https://api.example.com/v1"}]), None);
        let offered = format!("{:#}", resolve(None, Remote::RefusedUnlessAllowed, &remote).unwrap_err());
        assert!(offered.contains("--base-url URL") && offered.contains("--allow-remote"), "{offered}");
        let base_url_only = format!("{:#}", resolve(None, Remote::Refused, &remote).unwrap_err());
        assert!(!base_url_only.contains("--allow-remote"), "{base_url_only}");
        assert!(base_url_only.contains("--base-url https://api.example.com/v1"), "{base_url_only}");
    }

    #[test]
    fn a_document_may_point_only_where_the_user_said() {
        assert!(
            resolve(None, Remote::RefusedUnlessAllowed, &document(json!([{"url": "http://127.0.0.1:9/v1"}]), None))
                .is_ok()
        );
        assert!(
            resolve(None, Remote::RefusedUnlessAllowed, &document(json!([{"url": "http://localhost:9"}]), None))
                .is_ok()
        );
        assert!(
            resolve(None, Remote::RefusedUnlessAllowed, &document(json!([{"url": "http://[::1]:9"}]), None)).is_ok()
        );
        let metadata = refusal(json!([{"url": "http://169.254.169.254/latest"}]), None);
        assert!(metadata.contains("link-local") && metadata.contains("--allow-remote"), "{metadata}");
        let variable =
            refusal(json!([{"url": "http://{host}:8080", "variables": {"host": {"default": "10.0.0.1"}}}]), None);
        assert!(variable.contains("10.0.0.1, a private-range address"), "{variable}");
        assert!(refusal(json!([{"url": "https://api.example.com"}]), None).contains("a remote host"));
        let moved = refusal(json!([{"url": "//169.254.169.254/x"}]), Some("http://127.0.0.1:8000/openapi.json"));
        assert!(moved.contains("may not move the requests to another host"), "{moved}");
        let to_loopback = refusal(json!([{"url": "http://127.0.0.1/"}]), Some("https://api.example.com/openapi.json"));
        assert!(to_loopback.contains("another host"), "{to_loopback}");
        // Same host, or this machine under two names: the user named it.
        let same = document(json!([{"url": "https://api.example.com/v2"}]), Some("https://API.example.com/spec"));
        assert!(resolve(None, Remote::RefusedUnlessAllowed, &same).is_ok());
        let local = document(json!([{"url": "http://127.0.0.1:8000"}]), Some("http://localhost:8000/openapi.json"));
        assert!(resolve(None, Remote::RefusedUnlessAllowed, &local).is_ok());
        // Named by the user: allowed.
        let remote = document(json!([{"url": "http://169.254.169.254/latest"}]), None);
        assert!(resolve(None, Remote::Allowed, &remote).is_ok());
        let given = resolve(Some("http://10.0.0.1:8080/v1"), Remote::RefusedUnlessAllowed, &remote).unwrap();
        assert_eq!(given.source, TargetSource::BaseUrl);
    }

    #[test]
    fn unusable_server_urls_say_what_is_wrong() {
        let gopher = refusal(json!([{"url": "gopher://127.0.0.1/x"}]), None);
        assert!(gopher.contains("unsupported scheme `gopher`"), "{gopher}");
        let file = refusal(json!([{"url": "file:///etc/passwd"}]), None);
        assert!(file.contains("unsupported scheme `file`"), "{file}");
        let template = refusal(json!([{"url": "http://{region}.example.com"}]), None);
        assert!(template.contains("malformed template: `{region}`"), "{template}");
        let relative = refusal(json!([{"url": "/v1"}]), None);
        assert!(relative.contains("is relative and the document was read from a file"), "{relative}");
        let protocol_relative = refusal(json!([{"url": "//127.0.0.1/v1"}]), None);
        assert!(protocol_relative.contains("protocol-relative"), "{protocol_relative}");
    }
}
