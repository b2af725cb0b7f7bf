//! JSON responses for the crate's servers, errors as RFC 9457 problem documents, so `idem serve`
//! and `webhook listen` answer in one shape a client can rely on.
use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::Full;
use serde_json::json;

/// `body` as a JSON response with `status`.
pub(crate) fn json_response(status: StatusCode, body: &impl serde::Serialize) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(serde_json::to_vec(body).unwrap_or_default())));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An RFC 9457 problem document.
pub(crate) fn problem(status: StatusCode, slug: &str, title: &str, detail: &str) -> Response<Full<Bytes>> {
    let body =
        json!({ "type": format!("/problems/{slug}"), "title": title, "status": status.as_u16(), "detail": detail });
    let mut response = json_response(status, &body);
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
    response
}
