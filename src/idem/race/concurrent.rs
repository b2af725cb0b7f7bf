//! `--sync none`: the duplicates as plain concurrent requests through the ordinary client, with
//! no synchronisation at all; the baseline the synchronised modes are compared with.
use std::time::Instant;

use anyhow::Context;
use bytes::Bytes;
use http::Request;

use crate::http::client::{ClientOptions, HttpClient};
use crate::idem::request::RequestSpec;
use crate::race::answer::{Answer, Response};

/// Sends every request at once on its own task and waits for all answers.
pub(crate) async fn race(spec: &RequestSpec, requests: Vec<Request<Bytes>>) -> anyhow::Result<Vec<Answer>> {
    let client = HttpClient::new(ClientOptions { timeout: spec.timeout, insecure: spec.insecure, http2: spec.http2 })?;
    let mut tasks = tokio::task::JoinSet::new();
    for (index, request) in requests.into_iter().enumerate() {
        let client = client.clone();
        tasks.spawn(async move {
            let started = Instant::now();
            let outcome = client
                .send(request)
                .await
                .map(|exchange| Response {
                    status: exchange.status.as_u16(),
                    headers: exchange.headers,
                    body: exchange.body,
                })
                .map_err(|err| format!("{err:#}"));
            (index, Answer { latency: outcome.is_ok().then(|| started.elapsed()), outcome })
        });
    }
    let mut answers: Vec<Option<Answer>> = Vec::new();
    answers.resize_with(tasks.len(), || None);
    while let Some(joined) = tasks.join_next().await {
        let (index, answer) = joined.context("a request task failed")?;
        answers[index] = Some(answer);
    }
    Ok(answers
        .into_iter()
        .map(|answer| answer.unwrap_or(Answer { outcome: Err("no answer was read".into()), latency: None }))
        .collect())
}
