//! The count each operation of `--openapi` is judged by, so its ✓ can say "executed once
//! (counted)": the operation's own `x-idem-count-url` (with `x-idem-count-pointer`), else
//! `--count-url-template` with `{operationId}` filled in, else the global `--count-url`. Without
//! any, the operation is judged on its answers, and its ✓ says "answer replayed".
use anyhow::{Context, bail};
use http::Uri;
use serde_json::Value;

use super::target::request_url;
use crate::count::CountSource;
use crate::http::url::{Redacted, percent_encode_component};
use crate::idem::request::RequestSpec;

/// The extension naming an operation's count URL.
pub(crate) const COUNT_URL_EXTENSION: &str = "x-idem-count-url";
/// The extension naming the JSON pointer to the count in its answer.
pub(crate) const COUNT_POINTER_EXTENSION: &str = "x-idem-count-pointer";
/// What `--count-url-template` replaces with the operation's id.
pub(crate) const OPERATION_ID: &str = "{operationId}";

/// What an operation declares about its count, as written (checked when the operation runs).
#[derive(Debug, Clone, Default)]
pub(crate) struct DeclaredCount {
    pub url: Option<Value>,
    pub pointer: Option<Value>,
}

/// The count extensions of an operation object.
pub(crate) fn declared(operation: &Value) -> DeclaredCount {
    DeclaredCount {
        url: operation.get(COUNT_URL_EXTENSION).cloned(),
        pointer: operation.get(COUNT_POINTER_EXTENSION).cloned(),
    }
}

/// Refuses a `--count-url-template` that names no operation or is not a URL, before anything is sent.
pub(crate) fn check_template(template: &str) -> anyhow::Result<()> {
    if !template.contains(OPERATION_ID) {
        bail!(
            "--count-url-template `{}` has no {OPERATION_ID} to fill in: give --count-url URL for one count every operation shares",
            Redacted(template)
        );
    }
    crate::http::url::parse_url(&template.replace(OPERATION_ID, "operation"))
        .with_context(|| format!("--count-url-template {}", Redacted(template)))?;
    Ok(())
}

/// The count for one operation, read with the user's headers and connection flags (`template`
/// is the suite's request before the operation's own headers); `None` when it has none.
pub(crate) fn operation_count(
    template: &RequestSpec,
    base: &Uri,
    declared: &DeclaredCount,
    operation_id: Option<&str>,
    url_template: Option<&str>,
) -> anyhow::Result<Option<CountSource>> {
    let pointer = match &declared.pointer {
        None => None,
        Some(Value::String(pointer)) => Some(pointer.clone()),
        Some(_) => bail!("{COUNT_POINTER_EXTENSION} is not a string (a JSON pointer such as /count)"),
    };
    let url = match (&declared.url, url_template) {
        (Some(Value::String(url)), _) => on_the_api(base, url)?,
        (Some(_), _) => {
            bail!("{COUNT_URL_EXTENSION} is not a string (a URL, or a path on the API such as /charges/count)")
        }
        (None, Some(url_template)) => match operation_id {
            Some(id) => url_template.replace(OPERATION_ID, &percent_encode_component(id)),
            None if !template.ledgers.is_empty() => return Ok(template.ledgers.first().cloned()),
            None => bail!(
                "no operationId to fill in --count-url-template; give the operation an operationId or an {COUNT_URL_EXTENSION}"
            ),
        },
        (None, None) => return Ok(template.ledgers.first().cloned()),
    };
    let source = CountSource::new(&url, pointer, template.headers.clone(), template.timeout, template.insecure)
        .with_context(|| format!("the count of this operation ({})", Redacted(&url)))?;
    Ok(Some(source))
}

/// An `x-idem-count-url` as a URL on the API: a path is resolved against the base URL; a full
/// URL must be on the base URL's origin, since the count GET carries the user's -H headers and a
/// document may not send them to a host the user did not name.
fn on_the_api(base: &Uri, written: &str) -> anyhow::Result<String> {
    if written.starts_with('/') {
        let (path, query) = match written.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (written, None),
        };
        return Ok(request_url(base, path, query)?.to_string());
    }
    let url =
        crate::http::url::parse_url(written).with_context(|| format!("{COUNT_URL_EXTENSION} {}", Redacted(written)))?;
    if url.scheme() != base.scheme()
        || url.authority().map(|a| (a.host(), a.port_u16())) != base.authority().map(|a| (a.host(), a.port_u16()))
    {
        bail!(
            "{COUNT_URL_EXTENSION} {} is not on the API's origin ({}): the count GET carries your -H headers; write it as a path such as /charges/count",
            Redacted(written),
            Redacted(base)
        );
    }
    Ok(written.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> RequestSpec {
        RequestSpec::new(http::Method::POST, "http://127.0.0.1:9/orders", "{}").unwrap()
    }

    fn base() -> Uri {
        "http://127.0.0.1:9/api".parse().unwrap()
    }

    #[test]
    fn the_operation_wins_over_the_template_which_wins_over_the_global_count() {
        let mut template = spec();
        template.ledgers = vec![
            CountSource::new("http://127.0.0.1:9/all", None, Default::default(), template.timeout, false).unwrap(),
        ];
        let own = DeclaredCount { url: Some("/counts/mine".into()), pointer: Some("/count".into()) };
        let count =
            operation_count(&template, &base(), &own, Some("createOrder"), Some("http://127.0.0.1:9/c/{operationId}"))
                .unwrap()
                .unwrap();
        assert_eq!(
            (count.url.to_string().as_str(), count.pointer.as_str()),
            ("http://127.0.0.1:9/api/counts/mine", "/count")
        );
        let count = operation_count(
            &template,
            &base(),
            &DeclaredCount::default(),
            Some("create order"),
            Some("http://127.0.0.1:9/c/{operationId}"),
        )
        .unwrap()
        .unwrap();
        assert_eq!(count.url.to_string(), "http://127.0.0.1:9/c/create%20order");
        let count = operation_count(&template, &base(), &DeclaredCount::default(), Some("x"), None).unwrap().unwrap();
        assert_eq!(count.url.to_string(), "http://127.0.0.1:9/all");
        assert!(operation_count(&spec(), &base(), &DeclaredCount::default(), Some("x"), None).unwrap().is_none());
    }

    #[test]
    fn a_count_elsewhere_or_unfillable_is_refused_with_the_reason() {
        let elsewhere = DeclaredCount { url: Some("http://example.com/count".into()), pointer: None };
        let err = operation_count(&spec(), &base(), &elsewhere, None, None).unwrap_err();
        assert!(format!("{err:#}").contains("not on the API's origin"), "{err:#}");
        let err = operation_count(
            &spec(),
            &base(),
            &DeclaredCount::default(),
            None,
            Some("http://127.0.0.1:9/{operationId}"),
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains("no operationId"), "{err:#}");
        assert!(check_template("http://127.0.0.1:9/count").unwrap_err().to_string().contains("{operationId}"));
        assert!(check_template("http://127.0.0.1:9/c/{operationId}").is_ok());
    }
}
