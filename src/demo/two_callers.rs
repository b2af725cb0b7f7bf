//! Chapter: two callers, one key. A store keyed by the header value alone (`--mode unscoped`, as
//! some middlewares do) hands caller A's stored answer to caller B who happens to send the same
//! key: B receives A's payment. The correct server scopes keys to the caller and charges B anew.
use anyhow::Context;
use http::{HeaderValue, Method};

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::http::client::{ClientOptions, HttpClient};
use crate::idem::request::RequestSpec;
use crate::idem::serve::{self, Mode, ServeConfig};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":45}"#;
const KEY: &str = "order-45";

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 7: two callers, one key")?;
    narrator.say("Keys are chosen by clients, so two customers can send the same one (`order-45`). A store")?;
    narrator.say("keyed by the header value alone answers the second customer with the first one's payment.")?;

    let (unscoped_a, unscoped_b) = two_callers(narrator, Mode::Unscoped).await?;
    let (correct_a, correct_b) = two_callers(narrator, Mode::Correct).await?;
    narrator.command(&format!(
        "idem check URL -d '{PAYMENT}' --as 'Authorization: Bearer bob'   # caller-scoped catches it"
    ))?;
    let expected = unscoped_a == unscoped_b && correct_a != correct_b;
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Alice pays, then Bob sends the same key and body; returns the payment id each got.
async fn two_callers(narrator: &mut Narrator, mode: Mode) -> anyhow::Result<(String, String)> {
    let palette = narrator.palette;
    let server = serve::start_quiet(&ServeConfig::local(mode)).await?;
    let url = server.url("/payments");
    narrator.say(&format!("\n{} idem serve --mode {}", palette.cyan("▸"), mode.as_str()))?;
    let spec = RequestSpec::new(Method::POST, &url, PAYMENT)?;
    let client = HttpClient::new(ClientOptions { timeout: spec.timeout, insecure: false, http2: false })?;
    let mut ids = Vec::new();
    for caller in ["alice", "bob"] {
        let mut request = spec.build(Some(KEY))?;
        request.headers_mut().insert(http::header::AUTHORIZATION, HeaderValue::from_str(&format!("Bearer {caller}"))?);
        let answer = client.send(request).await.context("the demo could not reach its own server")?;
        let id = spec.id_source().read(&answer.headers, &answer.body).map(|found| found.id).unwrap_or_default();
        narrator.command(&format!(
            "idem send {url} -H 'Authorization: Bearer {caller}' --key {KEY} -d '{PAYMENT}'   → {} {id}",
            answer.status
        ))?;
        ids.push(id);
    }
    server.shutdown().await;
    let (alice, bob) = (ids[0].clone(), ids[1].clone());
    let line = if alice == bob {
        palette.red(&format!(
            "Bob received Alice's payment {alice}: her amount, her order, her id. Bob was never charged."
        ))
    } else {
        palette.green(&format!("Bob got his own payment {bob}; Alice keeps {alice}."))
    };
    narrator.say(&format!("  {line}"))?;
    Ok((alice, bob))
}
