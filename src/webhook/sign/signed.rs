//! A signed delivery, the one value every `webhook sign` printer reads.
use http::{HeaderName, HeaderValue};

use crate::webhook::delivery::Delivery;
use crate::webhook::scheme::Scheme;

/// A signed delivery, ready to print.
#[derive(Debug)]
pub(super) struct Signed<'a> {
    pub scheme: &'a dyn Scheme,
    pub delivery: Delivery,
    /// The body was built here (an `--event` envelope), so it must be shown.
    pub generated: bool,
    pub headers: Vec<(HeaderName, HeaderValue)>,
}
