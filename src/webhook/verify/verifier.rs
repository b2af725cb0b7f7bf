//! The one verification path of `webhook verify` and `webhook listen`: the schemes and their keys,
//! derived once at start-up, and one result shape (code, message, hint) both commands report.
//!
//! Auto detection is where signature confusion comes from: Stripe, GitHub, Slack, Shopify and the
//! generic `hmac` scheme all key the HMAC with the secret as given, and the schemes without a
//! timestamp sign the whole body, so a Stripe signature over `"<t>." + body` is also a valid GitHub
//! signature over the body `"<t>." + body`, of any age. So `auto` only ever chooses among the
//! schemes the user names (`--allow`), a candidate set that shares a key between a timestamped and
//! an untimestamped scheme is refused at start-up, and a listener locks onto the scheme of its first
//! valid delivery.
use std::sync::OnceLock;

use http::HeaderMap;

use crate::webhook::scheme::{
    self, ReceivedRequest, Scheme, SchemeKind, SchemeOptions, SigningKey, TimeWindow, VerifyError,
};
use crate::webhook::secret::Secret;
use crate::webhook::verify::hint;

/// Which schemes may judge a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeSelection {
    /// Exactly this one.
    Fixed(SchemeKind),
    /// The one whose signature header the request carries, among these (`--scheme auto --allow`).
    Auto { allow: Vec<SchemeKind> },
}

impl From<SchemeKind> for SchemeSelection {
    fn from(kind: SchemeKind) -> SchemeSelection {
        SchemeSelection::Fixed(kind)
    }
}

/// One scheme with its key.
struct Candidate {
    scheme: Box<dyn Scheme>,
    key: SigningKey,
}

/// The schemes and keys, built once; cheap to share across every request.
pub(crate) struct Verifier {
    candidates: Vec<Candidate>,
    auto: bool,
    /// With `lock_on_first_valid`, the candidate whose delivery was the first valid one; from then
    /// on only that scheme judges.
    locked: OnceLock<usize>,
    lock_on_first_valid: bool,
    secret: Secret,
    options: SchemeOptions,
}

/// What checking one delivery's signature found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SignatureCheck {
    /// The scheme that judged; `None` when no allowed scheme's signature header was present.
    pub scheme: Option<SchemeKind>,
    /// The signed timestamp, when the scheme has one and it could be read.
    pub timestamp: Option<i64>,
    /// The delivery id the scheme's header carries (read even when the signature is wrong).
    pub delivery_id: Option<String>,
    /// Why the delivery is not authentic; `None` when it is.
    pub failure: Option<Failure>,
}

/// Why a delivery is not authentic, the same in `verify` and `listen`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// Stable, for `--format json`: a [`VerifyError::code`], `no_scheme` or `other_scheme`.
    pub code: &'static str,
    /// What failed, without the hint.
    pub message: String,
    /// A common mistake that explains a mismatch, when one fits (see [`Verifier::hint`]).
    pub hint: Option<String>,
    /// True only when the timestamp is what failed and the signature itself matched.
    pub signature_matched: bool,
    /// Whether a hint could explain this failure: a mismatch on a well-formed header.
    pub hintable: bool,
}

impl Failure {
    fn from_error(err: &VerifyError) -> Failure {
        let hintable = matches!(
            err,
            VerifyError::SignatureMismatch { .. }
                | VerifyError::TimestampOutsideTolerance { signature_matched: false, .. }
        );
        let message = match err {
            // The hint has a field (and a line) of its own.
            VerifyError::SignatureMismatch { .. } => VerifyError::SignatureMismatch { hint: None }.to_string(),
            other => other.to_string(),
        };
        Failure { code: err.code(), message, hint: None, signature_matched: err.signature_matched(), hintable }
    }

    /// The message with its hint, on one line (the journal's `reason`).
    pub(crate) fn with_hint(&self) -> String {
        match &self.hint {
            Some(hint) => format!("{}; hint: {hint}", self.message),
            None => self.message.clone(),
        }
    }
}

impl Verifier {
    /// Derives every candidate's key now, so a secret a scheme cannot use stops the command at
    /// start-up, and refuses a candidate set open to signature confusion.
    pub(crate) fn new(selection: &SchemeSelection, options: SchemeOptions, secret: Secret) -> anyhow::Result<Verifier> {
        let (kinds, auto) = match selection {
            SchemeSelection::Fixed(kind) => (vec![*kind], false),
            SchemeSelection::Auto { allow } if allow.is_empty() => anyhow::bail!(
                "--scheme auto needs --allow naming the schemes the sender may use, e.g. --allow github,standard; or \
                 name the one scheme with --scheme"
            ),
            SchemeSelection::Auto { allow } => (allow.clone(), true),
        };
        let mut candidates = Vec::new();
        for kind in ordered(kinds) {
            for scheme in schemes_of(kind, &options, auto) {
                let key = scheme.verifying_key(&secret).map_err(|err| anyhow::anyhow!("--scheme {kind}: {err}"))?;
                candidates.push(Candidate { scheme, key });
            }
        }
        refuse_confusable(&candidates)?;
        Ok(Verifier { candidates, auto, locked: OnceLock::new(), lock_on_first_valid: false, secret, options })
    }

    /// A listener: the first valid delivery decides the scheme for every later one, so one
    /// listener never judges deliveries by two schemes.
    pub(crate) fn locking_on_first_valid(mut self) -> Verifier {
        self.lock_on_first_valid = self.auto;
        self
    }

    /// The scheme's name for the banner: `stripe`, or `auto (github, standard)`.
    pub(crate) fn describe(&self) -> String {
        if !self.auto {
            return self.candidates.first().map(|c| c.scheme.kind().to_string()).unwrap_or_default();
        }
        let mut kinds: Vec<String> = Vec::new();
        for candidate in &self.candidates {
            let name = candidate.scheme.kind().to_string();
            if !kinds.contains(&name) {
                kinds.push(name);
            }
        }
        format!("auto ({})", kinds.join(", "))
    }

    /// The asynchronous step before [`check`](Self::check): the scheme that will judge the request
    /// fetches what its verdict needs from the network (SNS's and PayPal's certificates, from the
    /// provider's host only); nothing for the other schemes.
    pub(crate) async fn prefetch(&self, request: &ReceivedRequest<'_>) {
        if let Some(index) = self.choose(request.headers) {
            self.candidates[index].scheme.prefetch(request).await;
        }
    }

    /// Judges a delivery, without a hint (see [`hint`](Self::hint)).
    pub(crate) fn check(&self, request: &ReceivedRequest<'_>, window: TimeWindow) -> SignatureCheck {
        let headers = request.headers;
        let Some(index) = self.choose(headers) else {
            return self.no_scheme(headers);
        };
        let candidate = &self.candidates[index];
        let scheme = candidate.scheme.as_ref();
        let signature = match scheme.verify_request(request, &candidate.key, window) {
            Ok(verified) => SignatureCheck {
                scheme: Some(verified.scheme),
                timestamp: verified.timestamp,
                delivery_id: verified.id.or_else(|| scheme.delivery_id(headers)),
                failure: None,
            },
            Err(err) => SignatureCheck {
                scheme: Some(scheme.kind()),
                timestamp: match err {
                    VerifyError::TimestampOutsideTolerance { timestamp, .. } => Some(timestamp),
                    _ => None,
                },
                delivery_id: scheme.delivery_id(headers),
                failure: Some(Failure::from_error(&err)),
            },
        };
        if signature.failure.is_none() && self.lock_on_first_valid {
            // Only the first valid delivery sets it; concurrent ones of another scheme lose the race
            // and are judged by the winner from their next delivery on.
            let _ = self.locked.set(index);
        }
        signature
    }

    /// The hint for a failure [`check`](Self::check) found, when a common mistake explains it. It
    /// costs several more verifications, so it is only tried for a mismatch on a well-formed header.
    pub(crate) fn hint(
        &self,
        signature: &SignatureCheck,
        request: &ReceivedRequest<'_>,
        window: TimeWindow,
    ) -> Option<String> {
        let headers = request.headers;
        if signature.failure.as_ref().is_some_and(|failure| failure.code == "header_missing") {
            return self.other_scheme_hint(headers);
        }
        if !signature.failure.as_ref().is_some_and(|failure| failure.hintable) {
            return None;
        }
        let index = self.choose(headers)?;
        hint::diagnose(self.candidates[index].scheme.as_ref(), request, &self.secret, window)
    }

    /// The signature header is missing, but another scheme's is there: name that scheme.
    fn other_scheme_hint(&self, headers: &HeaderMap) -> Option<String> {
        let found = crate::webhook::scheme::detect(headers, &self.options)?;
        if self.candidates.iter().any(|candidate| candidate.scheme.kind() == found.kind()) {
            return None;
        }
        // The name it arrived under (Shopify's signature has two).
        let carried = found
            .accepted_signature_headers()
            .into_iter()
            .find(|name| headers.contains_key(name))
            .unwrap_or_else(|| found.signature_header());
        Some(format!(
            "this request carries {}: try --scheme {}",
            crate::webhook::scheme::spelled(&carried),
            found.kind()
        ))
    }

    /// [`check`](Self::check) then [`hint`](Self::hint), for one request (`webhook verify`).
    pub(crate) fn verify(&self, request: &ReceivedRequest<'_>, window: TimeWindow) -> SignatureCheck {
        let mut signature = self.check(request, window);
        let hint = self.hint(&signature, request, window);
        if let Some(failure) = signature.failure.as_mut() {
            failure.hint = hint;
        }
        signature
    }

    /// The candidate that judges this request: the locked one, else the first (most specific)
    /// whose signature header is present; a fixed scheme judges every request.
    fn choose(&self, headers: &HeaderMap) -> Option<usize> {
        if let Some(locked) = self.locked.get() {
            let locked = *locked;
            let present = |index: usize| self.candidates[index].scheme.carries_signature(headers);
            let other = (0..self.candidates.len()).any(|index| index != locked && present(index));
            return (present(locked) || !other).then_some(locked);
        }
        if !self.auto {
            return Some(0);
        }
        self.candidates.iter().position(|candidate| candidate.scheme.carries_signature(headers))
    }

    fn no_scheme(&self, headers: &HeaderMap) -> SignatureCheck {
        let failure = match self.locked.get() {
            Some(locked) => {
                let locked = self.candidates[*locked].scheme.kind();
                let other = self
                    .candidates
                    .iter()
                    .find(|candidate| candidate.scheme.carries_signature(headers))
                    .map_or_else(|| "another".to_string(), |candidate| candidate.scheme.kind().to_string());
                Failure {
                    code: "other_scheme",
                    message: format!(
                        "this listener locked onto {locked} with its first valid delivery and judges every delivery by \
                         it; this one carries a {other} signature instead (run one listener per sender, or restart \
                         it)"
                    ),
                    hint: None,
                    signature_matched: false,
                    hintable: false,
                }
            }
            None => Failure {
                code: "no_scheme",
                message: format!(
                    "no signature header of an allowed scheme (looked for {}); pass --scheme to say which one the \
                     sender uses, or add its headers",
                    self.signature_headers().join(", ")
                ),
                hint: None,
                signature_matched: false,
                hintable: false,
            },
        };
        SignatureCheck { scheme: None, timestamp: None, delivery_id: None, failure: Some(failure) }
    }

    fn signature_headers(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for candidate in &self.candidates {
            for name in candidate.scheme.accepted_signature_headers() {
                let name = scheme::spelled(&name).into_owned();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }
}

/// The allowed kinds in detection order (most specific header first, the described providers and
/// the aliases in the order given, and the generic `hmac` header last because other providers'
/// requests may carry an `X-Signature` too), each once.
fn ordered(kinds: Vec<SchemeKind>) -> Vec<SchemeKind> {
    const FIRST: [SchemeKind; 5] =
        [SchemeKind::Standard, SchemeKind::Stripe, SchemeKind::Github, SchemeKind::Slack, SchemeKind::Shopify];
    let mut ordered: Vec<SchemeKind> = FIRST.into_iter().filter(|kind| kinds.contains(kind)).collect();
    for kind in kinds
        .iter()
        .copied()
        .filter(|kind| matches!(kind, SchemeKind::Provider(_) | SchemeKind::Alias(_) | SchemeKind::Certified(_)))
    {
        if !ordered.contains(&kind) {
            ordered.push(kind);
        }
    }
    if kinds.contains(&SchemeKind::Hmac) {
        ordered.push(SchemeKind::Hmac);
    }
    ordered
}

/// The scheme for `kind`; in auto mode Standard Webhooks is looked for under both its own header
/// names and Svix's (unless `--svix` chose one).
fn schemes_of(kind: SchemeKind, options: &SchemeOptions, auto: bool) -> Vec<Box<dyn Scheme>> {
    if auto && kind == SchemeKind::Standard && !options.svix {
        let svix = SchemeOptions { svix: true, ..options.clone() };
        return vec![scheme::build(kind, options), scheme::build(kind, &svix)];
    }
    vec![scheme::build(kind, options)]
}

/// Refuses two candidates that key the HMAC identically when one signs a timestamp and the other
/// does not: a signature of the first would pass as one of the second, replay protection gone.
fn refuse_confusable(candidates: &[Candidate]) -> anyhow::Result<()> {
    const PROBE: &[u8] = b"webhook: do these schemes share a key?";
    for (index, first) in candidates.iter().enumerate() {
        for second in &candidates[index + 1..] {
            if first.scheme.is_timestamped() == second.scheme.is_timestamped() {
                continue;
            }
            if first.key.tag(&[PROBE]).as_ref() != second.key.tag(&[PROBE]).as_ref() {
                continue;
            }
            let (stamped, unstamped) = if first.scheme.is_timestamped() {
                (first.scheme.kind(), second.scheme.kind())
            } else {
                (second.scheme.kind(), first.scheme.kind())
            };
            anyhow::bail!(
                "--allow {stamped},{unstamped} is refused: both key the HMAC with the same secret, and {unstamped} signs \
                 no timestamp, so any captured {stamped} signature, however old, would pass as a {unstamped} one; run \
                 one listener per scheme with --scheme, or give each sender its own secret"
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use http::HeaderValue;

    use super::*;
    use crate::webhook::delivery::{Delivery, DeliveryBody};

    fn secret() -> Secret {
        Secret::new(b"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_vec()).unwrap()
    }

    fn signed(kind: SchemeKind, body: &str, timestamp: i64) -> HeaderMap {
        let scheme = scheme::build(kind, &SchemeOptions::default());
        let key = scheme.key(&secret()).unwrap();
        let body = DeliveryBody::Bytes(body.as_bytes().to_vec().into());
        let delivery = Delivery { id: "msg_1".into(), timestamp, body, event: None, url: None };
        scheme.sign(&delivery, &key).unwrap().into_iter().collect()
    }

    fn window() -> TimeWindow {
        TimeWindow::around_now(Duration::from_secs(300))
    }

    #[test]
    fn auto_needs_an_allow_list_and_refuses_confusable_sets() {
        let auto = |allow: &[SchemeKind]| {
            Verifier::new(&SchemeSelection::Auto { allow: allow.to_vec() }, SchemeOptions::default(), secret())
        };
        assert!(format!("{:#}", auto(&[]).err().unwrap()).contains("--allow"));
        let refused = format!("{:#}", auto(&[SchemeKind::Github, SchemeKind::Stripe]).err().unwrap());
        assert!(refused.contains("--allow stripe,github is refused"), "{refused}");
        assert!(auto(&[SchemeKind::Slack, SchemeKind::Shopify]).is_err());
        // Standard keys with the decoded secret: no other scheme shares its key.
        assert!(auto(&[SchemeKind::Github, SchemeKind::Standard]).is_ok());
        assert!(auto(&[SchemeKind::Stripe, SchemeKind::Slack, SchemeKind::Standard]).is_ok());
        assert!(auto(&[SchemeKind::Github, SchemeKind::Shopify, SchemeKind::Hmac]).is_ok());
    }

    #[test]
    fn a_stripe_signature_never_passes_as_a_github_one() {
        let now = crate::webhook::delivery::unix_now();
        let stripe = signed(SchemeKind::Stripe, "{}", now - 86_400);
        let value = stripe.get("stripe-signature").unwrap().to_str().unwrap().to_string();
        let (t, v1) = value.split_once(",v1=").unwrap();
        let forged_body = format!("{}.{{}}", t.trim_start_matches("t="));
        let mut forged = HeaderMap::new();
        forged.insert("x-hub-signature-256", HeaderValue::from_str(&format!("sha256={v1}")).unwrap());
        forged.insert("x-github-delivery", HeaderValue::from_static("fresh-1"));
        // The forgery is a real GitHub signature: only a verifier keyed for GitHub would take it.
        let github = Verifier::new(&SchemeSelection::Fixed(SchemeKind::Github), SchemeOptions::default(), secret());
        assert!(
            github.unwrap().check(&ReceivedRequest::post(&forged, forged_body.as_bytes()), window()).failure.is_none()
        );
        let stripe_only =
            Verifier::new(&SchemeSelection::Fixed(SchemeKind::Stripe), SchemeOptions::default(), secret());
        let signature = stripe_only.unwrap().check(&ReceivedRequest::post(&forged, forged_body.as_bytes()), window());
        assert_eq!(signature.failure.unwrap().code, "header_missing");
    }

    #[test]
    fn a_listener_locks_onto_the_first_valid_scheme() {
        let allow = SchemeSelection::Auto { allow: vec![SchemeKind::Github, SchemeKind::Standard] };
        let verifier = Verifier::new(&allow, SchemeOptions::default(), secret()).unwrap().locking_on_first_valid();
        let now = crate::webhook::delivery::unix_now();
        let github = signed(SchemeKind::Github, "{}", now);
        let unsigned = verifier.check(&ReceivedRequest::post(&HeaderMap::new(), b"{}"), window());
        assert_eq!(unsigned.failure.unwrap().code, "no_scheme");
        assert!(verifier.check(&ReceivedRequest::post(&github, b"{}"), window()).failure.is_none());
        let standard = signed(SchemeKind::Standard, "{}", now);
        let refused = verifier.check(&ReceivedRequest::post(&standard, b"{}"), window()).failure.unwrap();
        assert_eq!(refused.code, "other_scheme");
        assert!(refused.message.contains("locked onto github"), "{}", refused.message);
        assert!(verifier.check(&ReceivedRequest::post(&github, b"{}"), window()).failure.is_none());
    }

    #[test]
    fn hints_come_only_after_a_mismatch() {
        let verifier =
            Verifier::new(&SchemeSelection::Fixed(SchemeKind::Github), SchemeOptions::default(), secret()).unwrap();
        let headers = signed(SchemeKind::Github, "{\"a\":1}", 0);
        let signature = verifier.verify(&ReceivedRequest::post(&headers, b"{\"a\":1}\n"), window());
        let failure = signature.failure.unwrap();
        assert_eq!((failure.code, failure.message.as_str()), ("signature_mismatch", "the signature does not match"));
        assert!(failure.hint.unwrap().contains("trailing newline"));
        let mut malformed = HeaderMap::new();
        malformed.insert("x-hub-signature-256", HeaderValue::from_static("md5=1"));
        let signature = verifier.check(&ReceivedRequest::post(&malformed, b"{}"), window());
        assert!(!signature.failure.as_ref().unwrap().hintable);
        assert_eq!(verifier.hint(&signature, &ReceivedRequest::post(&malformed, b"{}"), window()), None);
    }
}
