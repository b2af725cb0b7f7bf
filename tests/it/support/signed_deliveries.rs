//! Deliveries signed in-process as a provider would sign them, and posted to a listener with the
//! library's own HTTP client.
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request};
use idem::testing::client::{ClientOptions, Exchange, HttpClient};
use idem::testing::delivery::{Delivery, DeliveryBody, unix_now};
use idem::testing::scheme::{self, SchemeKind, SchemeOptions};
use serde_json::Value;

use crate::support::{runtime, secret};

/// A delivery signed with `kind`, as a provider would send it.
pub(crate) struct Signed {
    pub(crate) headers: Vec<(HeaderName, HeaderValue)>,
    pub(crate) body: Bytes,
}

pub(crate) fn sign(kind: SchemeKind, id: &str, timestamp: i64, event: Option<&str>, body: &[u8]) -> Signed {
    let scheme = scheme::build(kind, &SchemeOptions::default());
    let key = scheme.key(&secret()).unwrap();
    let delivery = Delivery {
        body: DeliveryBody::Bytes(Bytes::copy_from_slice(body)),
        id: id.to_string(),
        timestamp,
        event: event.map(str::to_string),
        url: None,
    };
    let headers = scheme.sign(&delivery, &key).unwrap();
    Signed { headers, body: Bytes::copy_from_slice(body) }
}

/// A Stripe-style event envelope signed now.
pub(crate) fn stripe_event(id: &str, event_type: &str) -> Signed {
    let body = format!(r#"{{"id":"{id}","type":"{event_type}","created":{},"data":{{"amount":100}}}}"#, unix_now());
    sign(SchemeKind::Stripe, id, unix_now(), None, body.as_bytes())
}

pub(crate) fn client(http2: bool) -> HttpClient {
    HttpClient::new(ClientOptions { timeout: Duration::from_secs(10), insecure: false, http2 }).unwrap()
}

pub(crate) fn post_with(
    client: &HttpClient,
    url: &str,
    signed: &Signed,
    extra: &[(&str, &str)],
) -> anyhow::Result<Exchange> {
    let mut request = Request::post(url).body(signed.body.clone()).unwrap();
    for (name, value) in &signed.headers {
        request.headers_mut().append(name.clone(), value.clone());
    }
    for (name, value) in extra {
        request.headers_mut().append(HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
    }
    runtime().block_on(client.send(request))
}

pub(crate) fn post(url: &str, signed: &Signed) -> Exchange {
    post_with(&client(false), url, signed, &[]).expect("the listener answers")
}

pub(crate) fn json(exchange: &Exchange) -> Value {
    serde_json::from_slice(&exchange.body).unwrap_or_else(|_| panic!("not JSON: {:?}", exchange.body))
}
