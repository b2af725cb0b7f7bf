//! The inspector's HTTP side: the page, the deliveries as JSON, the live feed as server-sent
//! events; every request checked for the token and the Host, every state-changing one for its
//! Origin.
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST, ORIGIN};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Frame, Incoming};
use tokio::sync::{broadcast, mpsc};

use super::Inspector;

/// The page: HTML, CSS and script in one file, compiled into the binary.
const PAGE: &str = include_str!("page.html");

/// What the server needs: the deliveries, the token every request must carry, the address bound.
pub(super) struct Site {
    pub inspector: Arc<Inspector>,
    pub token: String,
    pub bound: SocketAddr,
    /// Where it is served: `""` on a port of its own, `/_idem` under the listener's port
    /// (`--ui-path`).
    pub prefix: String,
}

pub(crate) type Answer = Response<BoxBody<Bytes, Infallible>>;

fn text(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Answer {
    let mut response = Response::new(http_body_util::Full::new(body.into()).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn refused(status: StatusCode, why: &str) -> Answer {
    text(status, "text/plain; charset=utf-8", format!("{why}\n"))
}

pub(super) async fn handle(site: Arc<Site>, request: Request<Incoming>) -> Result<Answer, Infallible> {
    Ok(route(&site, request).await)
}

async fn route(site: &Site, request: Request<Incoming>) -> Answer {
    // A page on another site that points a name at 127.0.0.1 (DNS rebinding) sends its own name
    // as the Host: on loopback, only the address bound (or `localhost` at its port) is this
    // inspector. Bound elsewhere on purpose, it is reached by names this side cannot know, and the
    // token alone guards it.
    let host = request.headers().get(HOST).and_then(|host| host.to_str().ok()).unwrap_or_default();
    let port = site.bound.port();
    if site.bound.ip().is_loopback() && host != site.bound.to_string() && host != format!("localhost:{port}") {
        return refused(StatusCode::MISDIRECTED_REQUEST, "this inspector answers to its own address only");
    }
    let query = request.uri().query().unwrap_or_default();
    let token_given = query.split('&').filter_map(|pair| pair.strip_prefix("token=")).next();
    if !token_given.is_some_and(|given| constant_time_eq(given.as_bytes(), site.token.as_bytes())) {
        if !site.prefix.is_empty() {
            // On the listener's port, a sender posting here must learn it is not a delivery path.
            return refused(
                StatusCode::FORBIDDEN,
                &format!(
                    "{} is the inspector's (--ui-path), not a delivery path: it needs the token in the URL it \
                     printed (inspector: http://…{}/?token=…)",
                    site.prefix, site.prefix
                ),
            );
        }
        return refused(
            StatusCode::FORBIDDEN,
            "this inspector needs the token in the URL it printed (inspector: http://…/?token=…)",
        );
    }
    // The page asks for `./api/…`: under a prefix it must be at `PREFIX/`, not `PREFIX`.
    let path = request.uri().path().strip_prefix(site.prefix.as_str()).unwrap_or_default().to_string();
    if path.is_empty() {
        let mut moved = refused(StatusCode::PERMANENT_REDIRECT, "the inspector is one slash further");
        if let Ok(location) = HeaderValue::from_str(&format!("{}/?{query}", site.prefix)) {
            moved.headers_mut().insert(http::header::LOCATION, location);
        }
        return moved;
    }
    if request.method() != Method::GET {
        // Anything that changes state must come from the page itself: a form or a fetch from
        // another origin carries that origin (and a missing Origin is refused too).
        let own = format!("http://{}", host);
        let origin = request.headers().get(ORIGIN).and_then(|origin| origin.to_str().ok());
        if origin != Some(own.as_str()) {
            return refused(StatusCode::FORBIDDEN, "cross-origin requests are refused (the page's own origin only)");
        }
        if path != "/api/resend" || request.method() != Method::POST {
            return refused(StatusCode::METHOD_NOT_ALLOWED, "nothing here changes with that request");
        }
        let body = match http_body_util::Limited::new(request.into_body(), 4 << 20).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return refused(StatusCode::PAYLOAD_TOO_LARGE, "the edited delivery is over 4 MiB"),
        };
        let asked = match serde_json::from_slice(&body) {
            Ok(asked) => asked,
            Err(err) => return refused(StatusCode::BAD_REQUEST, &format!("not a resend request: {err}")),
        };
        return match super::resend::resend(&site.inspector, asked).await {
            Ok(n) => text(StatusCode::OK, "application/json", format!("{{\"n\":{n}}}")),
            Err(why) => refused(StatusCode::UNPROCESSABLE_ENTITY, &why),
        };
    }
    match path.as_str() {
        "/" => {
            let mut page = text(StatusCode::OK, "text/html; charset=utf-8", PAGE);
            // The page runs its own script and talks to its own origin, nothing else.
            page.headers_mut().insert(
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; \
                     img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                ),
            );
            page
        }
        "/api/deliveries" => text(StatusCode::OK, "application/json", site.inspector.all()),
        "/api/events" => events(&site.inspector),
        "/api/compare" => match site.inspector.compare.get() {
            // Read afresh each time: the page asks again as deliveries are appended.
            Some((a, b)) => match crate::webhook::journal::diff::compare_files(a, b, &Default::default())
                .and_then(|diff| Ok(serde_json::to_string(&diff)?))
            {
                Ok(json) => text(StatusCode::OK, "application/json", json),
                Err(err) => refused(StatusCode::UNPROCESSABLE_ENTITY, &format!("{err:#}")),
            },
            None => refused(StatusCode::NOT_FOUND, "no second journal to compare with (journal A --ui --compare B)"),
        },
        _ => refused(StatusCode::NOT_FOUND, "no such page"),
    }
}

/// Compares a token without telling how much of it matched by how long it took.
fn constant_time_eq(given: &[u8], expected: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    given.len() == expected.len() && bool::from(given.ct_eq(expected))
}

/// The live feed: a `delivery` event per new delivery, and a comment now and then so the
/// connection is seen alive.
fn events(inspector: &Inspector) -> Answer {
    let mut feed = inspector.feed.subscribe();
    let (sender, receiver) = mpsc::channel::<Bytes>(64);
    tokio::spawn(async move {
        if sender.send(Bytes::from_static(b"retry: 1000\n\n")).await.is_err() {
            return;
        }
        loop {
            let chunk = tokio::select! {
                item = feed.recv() => match item {
                    Ok(item) => Bytes::from(format!("event: delivery\ndata: {item}\n\n")),
                    // The page fell behind: it reloads the whole list.
                    Err(broadcast::error::RecvError::Lagged(_)) => Bytes::from_static(b"event: reload\ndata: {}\n\n"),
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                () = tokio::time::sleep(std::time::Duration::from_secs(15)) => Bytes::from_static(b": alive\n\n"),
            };
            if sender.send(chunk).await.is_err() {
                return;
            }
        }
    });
    let mut response = Response::new(EventStream { receiver }.boxed());
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A response body fed by a channel: ends when the feed's task ends.
struct EventStream {
    receiver: mpsc::Receiver<Bytes>,
}

impl Body for EventStream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.receiver.poll_recv(cx).map(|chunk| chunk.map(|chunk| Ok(Frame::data(chunk))))
    }
}
