//! A step's request: its operation's URL with the path parameters filled in, its query and header
//! parameters, and its body, every runtime expression resolved against what the run has so far.
use anyhow::{Context, bail};
use bytes::Bytes;
use http::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use serde_json::Value;

use super::document::{ParameterIn, Step};
use super::expression::{Exchanged, Scope, as_text};
use super::sources::Operation;
use crate::http::url::percent_encode_component;
use crate::idem::check::openapi::target::request_url;
use crate::idem::request::RequestSpec;

/// The step's request as a spec (the key not chosen yet), and what expressions read of it.
pub(crate) fn build(
    template: &RequestSpec,
    step: &Step,
    operation: &Operation,
    scope: &Scope<'_>,
) -> anyhow::Result<(RequestSpec, Exchanged)> {
    let mut path = operation.path.clone();
    let mut query = Vec::new();
    let mut path_values = Vec::new();
    let mut headers = template.headers.clone();
    let mut request_headers = http::HeaderMap::new();
    for parameter in &step.parameters {
        let value = scope.resolve(&parameter.value).with_context(|| format!("parameter `{}`", parameter.name))?;
        let text = as_text(&value);
        match parameter.location {
            ParameterIn::Path => {
                let placeholder = format!("{{{}}}", parameter.name);
                if !path.contains(&placeholder) {
                    bail!("parameter `{}` is in the path, but {} has no {placeholder}", parameter.name, operation.path);
                }
                path = path.replace(&placeholder, &percent_encode_component(&text));
                path_values.push((parameter.name.clone(), text));
            }
            ParameterIn::Query => query.push((parameter.name.clone(), text)),
            ParameterIn::Header => {
                let name = HeaderName::from_bytes(parameter.name.as_bytes())
                    .with_context(|| format!("parameter `{}` is not a header name", parameter.name))?;
                let value = HeaderValue::from_str(&text)
                    .with_context(|| format!("parameter `{}`'s value cannot be sent in a header", parameter.name))?;
                headers.insert(name.clone(), value.clone());
                request_headers.insert(name, value);
            }
        }
    }
    if let Some(start) = path.find('{') {
        let name = path[start + 1..].split('}').next().unwrap_or("");
        bail!("the path {} needs the parameter `{name}`: give it in the step's parameters (in: path)", operation.path);
    }
    let query_text: Vec<String> = query
        .iter()
        .map(|(name, value)| format!("{}={}", percent_encode_component(name), percent_encode_component(value)))
        .collect();
    let query_text = query_text.join("&");
    let url = request_url(&operation.base, &path, Some(&query_text))?;
    let (body, request_body) = match &step.request_body {
        None => (Bytes::new(), None),
        Some(body) => {
            let payload = scope.resolve(&body.payload).context("the requestBody's payload")?;
            let content_type = body
                .content_type
                .clone()
                .unwrap_or_else(|| if payload.is_string() { "text/plain" } else { "application/json" }.to_string());
            let bytes = match &payload {
                Value::String(text) => Bytes::from(text.clone()),
                other if content_type.contains("json") => Bytes::from(serde_json::to_vec(other)?),
                // A form or XML written as YAML would need that media type's encoding rules.
                _ => bail!(
                    "a requestBody payload written as an object for `{content_type}` is not supported yet by idem run (JSON is; or write the payload as a string)"
                ),
            };
            if !headers.contains_key(CONTENT_TYPE) {
                let value = HeaderValue::from_str(&content_type).context("the requestBody's contentType")?;
                headers.insert(CONTENT_TYPE, value);
            }
            // A JSON payload written as a string (the specification's BNPL example) is read as JSON.
            let as_json = match &payload {
                Value::String(text) => serde_json::from_str(text).unwrap_or(payload.clone()),
                other => other.clone(),
            };
            (bytes, Some(as_json))
        }
    };
    let mut spec = template.clone();
    spec.method = operation.method.clone();
    spec.url = url.clone();
    spec.headers = headers;
    spec.body = body;
    let exchanged = Exchanged {
        url: url.to_string(),
        method: operation.method.to_string(),
        request_headers,
        query,
        path: path_values,
        request_body,
        ..Exchanged::default()
    };
    Ok((spec, exchanged))
}

/// What expressions read of an answer: its status, headers and body (JSON when it parses).
pub(crate) fn answered(mut exchanged: Exchanged, answer: &crate::http::client::Exchange) -> Exchanged {
    exchanged.status = answer.status.as_u16();
    exchanged.response_headers = answer.headers.clone();
    exchanged.response_body = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&answer.body).into_owned()));
    exchanged
}
