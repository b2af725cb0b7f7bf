//! The one signer and verifier every described scheme runs on: it reads a [`SchemeDescription`],
//! checks it once (a header name that is not one, a template that signs no body), and then signs
//! and verifies deliveries by it. What the schemes used to repeat (find the header, strip the
//! prefix, decode, compare in constant time, then judge the timestamp) is written here once.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::description::{
    Algorithm, BodyFields, Compare, DescriptionError, FutureTimestamps, SchemeDescription, SecretForm, SignatureList,
    Signed, TimestampForm,
};
use super::mac::{Encoding, KeyForm, MacAlgorithm, SecretError, SigningKey, any_equal};
use super::provider_key::{KeyUse, PairAlgorithm, ProviderKey};
use super::received::{Future, check_entries, conclude, header_text, parse_timestamp};
use super::request::{ReceivedRequest, SIGNED_METHOD};
use super::{MAX_SIGNATURES, Scheme, SchemeKind, SignError, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::canonical::{adyen, mailgun, twilio};
use crate::webhook::delivery::{Delivery, DeliveryBody};
use crate::webhook::secret::Secret;

/// A description checked and ready to run.
#[derive(Debug, Clone)]
pub(crate) struct DescribedScheme {
    kind: SchemeKind,
    signature: HeaderName,
    signature_also: Vec<HeaderName>,
    encoding: Encoding,
    prefix: String,
    compare: Compare,
    id: Option<(HeaderName, Vec<HeaderName>)>,
    event: Option<HeaderName>,
    /// What is signed before the body, and after it.
    before_body: Vec<Piece>,
    after_body: Vec<Piece>,
    /// Twilio's URL + sorted form parameters instead of a template around the body.
    url_and_form: bool,
    algorithm: SignatureAlgorithm,
    timestamp: Option<(HeaderName, TimestampForm)>,
    future: Future,
    key_form: KeyForm,
    /// The signature header as a list carrying the timestamp and the signatures.
    list: Option<SignatureList>,
    /// The header carries the secret itself (`shared-token`), not a MAC.
    shared_token: bool,
    /// The signature and what it covers are fields of the body.
    fields: Option<BodyFields>,
}

/// The name a body-signed scheme answers for its signature header, which it has not: it is never
/// read nor written (such a scheme accepts its signature under no header name).
const SIGNED_IN_THE_BODY: HeaderName = HeaderName::from_static("x-signature-in-the-body");

/// What a list-form signature header carries: the timestamp's text and every signature's.
struct ListItems<'h> {
    timestamp: &'h str,
    signatures: Vec<&'h str>,
}

/// How the signed bytes become the tag: a MAC keyed with a shared secret, or a signature with
/// the private key of a pair that the public key verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SignatureAlgorithm {
    Mac(MacAlgorithm),
    Pair(PairAlgorithm),
}

/// A part of the signed text other than the body.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Timestamp,
    Id,
    Url,
    Method,
}

const PLACEHOLDERS: &str = "{body}, {timestamp}, {id}, {url}, {method}";

/// The values a template's placeholders stand for, for one delivery.
struct Values<'v> {
    timestamp: &'v str,
    id: &'v str,
    url: &'v str,
    method: &'v str,
}

fn header_name(field: &str, name: &str) -> Result<HeaderName, DescriptionError> {
    HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| DescriptionError::new(field, format!("`{}` is not a valid header name", name.escape_debug())))
}

fn header_names(field: &str, names: &[String]) -> Result<Vec<HeaderName>, DescriptionError> {
    names.iter().map(|name| header_name(field, name)).collect()
}

/// Splits a template at `{body}` into the pieces before and after it.
fn parse_template(template: &str) -> Result<(Vec<Piece>, Vec<Piece>), DescriptionError> {
    const FIELD: &str = "signed.template";
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut seen_body = false;
    let mut rest = template;
    while !rest.is_empty() {
        let pieces = if seen_body { &mut after } else { &mut before };
        let Some(open) = rest.find('{') else {
            pieces.push(Piece::Text(rest.to_string()));
            break;
        };
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').ok_or_else(|| {
            DescriptionError::new(FIELD, format!("a `{{` is not closed; the placeholders are {PLACEHOLDERS}"))
        })?;
        match &rest[open..open + close + 1] {
            "{body}" if seen_body => return Err(DescriptionError::new(FIELD, "{body} appears more than once")),
            "{body}" => seen_body = true,
            "{timestamp}" => pieces.push(Piece::Timestamp),
            "{id}" => pieces.push(Piece::Id),
            "{url}" => pieces.push(Piece::Url),
            "{method}" => pieces.push(Piece::Method),
            other => {
                return Err(DescriptionError::new(
                    FIELD,
                    format!("`{other}` is not a placeholder; the placeholders are {PLACEHOLDERS}"),
                ));
            }
        }
        rest = &rest[open + close + 1..];
    }
    if !seen_body {
        return Err(DescriptionError::new(FIELD, "it has no {body}: every scheme signs the body"));
    }
    Ok((before, after))
}

impl DescribedScheme {
    /// Checks `description` and makes it runnable as `kind`.
    pub(crate) fn new(kind: SchemeKind, description: &SchemeDescription) -> Result<DescribedScheme, DescriptionError> {
        let fields = match description.signed {
            Signed::Fields(fields) => Some(fields),
            _ => None,
        };
        let signature = match fields {
            Some(_) if description.signature.name.is_empty() => SIGNED_IN_THE_BODY,
            Some(_) => {
                return Err(DescriptionError::new("signature.name", "the signature is in the body: leave it empty"));
            }
            None => header_name("signature.name", &description.signature.name)?,
        };
        let signature_also = header_names("signature.also_read", &description.signature.also_read)?;
        if HeaderValue::from_str(&description.signature.prefix).is_err() {
            return Err(DescriptionError::new("signature.prefix", "it has characters a header cannot carry"));
        }
        let id = match &description.id_header {
            Some(id) => {
                Some((header_name("id_header.name", &id.name)?, header_names("id_header.also_read", &id.also_read)?))
            }
            None => None,
        };
        let event = match &description.event_header {
            Some(event) => Some(header_name("event_header.name", &event.name)?),
            None => None,
        };
        let (before_body, after_body) = match &description.signed {
            Signed::Body | Signed::Nothing | Signed::Fields(_) | Signed::UrlAndSortedForm => (Vec::new(), Vec::new()),
            Signed::Template(template) => parse_template(template)?,
        };
        let token = description.algorithm == Algorithm::SharedToken;
        match (token, &description.signed) {
            (true, Signed::Nothing) if description.signature.list.is_none() && description.timestamp.is_none() => {}
            (true, _) => {
                return Err(DescriptionError::new(
                    "algorithm",
                    "a shared token signs nothing: it needs `signed: nothing`, and no timestamp or list",
                ));
            }
            (false, Signed::Nothing) => {
                return Err(DescriptionError::new("signed", "`nothing` goes with the `shared-token` algorithm only"));
            }
            (false, _) => {}
        }
        let pieces = || before_body.iter().chain(&after_body);
        let list = &description.signature.list;
        let pair = matches!(description.algorithm, Algorithm::Ed25519 | Algorithm::EcdsaP256);
        if pair && (list.is_some() || fields.is_some()) {
            return Err(DescriptionError::new(
                "algorithm",
                "a key pair signs a header of its own; a signature list or body fields are MACs",
            ));
        }
        if let Some(list) = list {
            check_list(list)?;
            if description.timestamp.is_some() {
                return Err(DescriptionError::new(
                    "timestamp",
                    "the signature list carries the timestamp; a `timestamp` header as well is ambiguous",
                ));
            }
        }
        if description.timestamp.is_none() && list.is_none() && pieces().any(|piece| *piece == Piece::Timestamp) {
            return Err(DescriptionError::new(
                "signed.template",
                "it signs {timestamp} but the scheme has no `timestamp`",
            ));
        }
        if id.is_none() && pieces().any(|piece| *piece == Piece::Id) {
            return Err(DescriptionError::new("signed.template", "it signs {id} but the scheme has no `id_header`"));
        }
        let timestamp = match &description.timestamp {
            Some(timestamp) => Some((header_name("timestamp.name", &timestamp.name)?, timestamp.form)),
            None => None,
        };
        let future = match description.timestamp.as_ref().map(|timestamp| timestamp.future) {
            Some(FutureTimestamps::Accepted) => Future::Accepted,
            _ => Future::Refused,
        };
        Ok(DescribedScheme {
            kind,
            signature,
            signature_also,
            encoding: description.signature.encoding,
            prefix: description.signature.prefix.clone(),
            compare: description.signature.compare,
            id,
            event,
            before_body,
            after_body,
            url_and_form: description.signed == Signed::UrlAndSortedForm,
            algorithm: match (description.algorithm, description.algorithm.mac()) {
                (_, Some(mac)) => SignatureAlgorithm::Mac(mac),
                (Algorithm::Ed25519, None) => SignatureAlgorithm::Pair(PairAlgorithm::Ed25519),
                (Algorithm::EcdsaP256, None) => SignatureAlgorithm::Pair(PairAlgorithm::EcdsaP256),
                // A shared token computes no MAC; the field is then never read.
                (_, None) => SignatureAlgorithm::Mac(MacAlgorithm::HmacSha256),
            },
            timestamp,
            future,
            key_form: match description.secret {
                SecretForm::Raw => KeyForm::Raw,
                SecretForm::WhsecBase64 => KeyForm::WhsecBase64,
                SecretForm::Hex => KeyForm::Hex,
            },
            list: list.clone(),
            shared_token: description.algorithm == Algorithm::SharedToken,
            fields,
        })
    }

    /// The MAC of the forms that only a MAC signs (lists, body fields): `new` refuses a key-pair
    /// algorithm with them, so the fallback is never reached.
    fn mac_algorithm(&self) -> MacAlgorithm {
        match self.algorithm {
            SignatureAlgorithm::Mac(mac) => mac,
            SignatureAlgorithm::Pair(_) => MacAlgorithm::HmacSha256,
        }
    }

    fn pair_key(&self, pair: PairAlgorithm, used: KeyUse, secret: &Secret) -> Result<SigningKey, SecretError> {
        Ok(SigningKey::from_provider_key(ProviderKey::read(self.kind.name(), pair, used, secret)?))
    }

    fn render(pieces: &[Piece], values: &Values<'_>) -> Vec<u8> {
        let mut text = Vec::new();
        for piece in pieces {
            text.extend_from_slice(match piece {
                Piece::Text(literal) => literal.as_bytes(),
                Piece::Timestamp => values.timestamp.as_bytes(),
                Piece::Id => values.id.as_bytes(),
                Piece::Url => values.url.as_bytes(),
                Piece::Method => values.method.as_bytes(),
            });
        }
        text
    }

    fn signs_url_in_template(&self) -> bool {
        self.before_body.iter().chain(&self.after_body).any(|piece| *piece == Piece::Url)
    }

    /// Twilio's string to sign for a delivery sent to `url`: the URL alone when it carries the
    /// body's `bodySHA256`, else the URL and the form parameters of the body.
    fn twilio_string_to_sign(&self, url: &str, body: &[u8]) -> Result<String, SignError> {
        let not_signable = |reason: String| SignError::NotSignable { scheme: self.kind.to_string(), reason };
        let hash = twilio::body_sha256(body);
        match body_sha256_of(url) {
            Some(given) if given == hash => Ok(url.to_string()),
            Some(given) => Err(not_signable(format!(
                "the URL's bodySHA256 is `{}`, but the body's SHA-256 is {hash}",
                given.escape_debug()
            ))),
            None if is_json(body) => Err(not_signable(format!(
                "Twilio signs a JSON body through the URL: add bodySHA256={hash} to the query of --url"
            ))),
            None => Ok(twilio::string_to_sign(url, &form_pairs(body))),
        }
    }

    /// Twilio's verdict: the body hash the URL carries, then the signature of the URL without
    /// and with its port, as `RequestValidator.validate` tries them.
    fn twilio_expected(&self, url: &str, body: &[u8], key: &SigningKey) -> Result<Vec<Vec<u8>>, VerifyError> {
        let params = match body_sha256_of(url) {
            Some(given) => {
                // Not a secret: the hash of a body the receiver holds, compared as text.
                if given != twilio::body_sha256(body) {
                    return Err(VerifyError::BodyHashMismatch);
                }
                Vec::new()
            }
            None => form_pairs(body),
        };
        Ok(twilio::url_variants(url)
            .iter()
            .map(|variant| key.digest(self.mac_algorithm(), &[twilio::string_to_sign(variant, &params).as_bytes()]))
            .collect())
    }

    /// The delivery id the signature covers: the id header's value, or nothing when the template
    /// signs none; a template that signs one needs the header.
    fn signed_id<'i>(&self, headers: &HeaderMap, id: &'i Option<String>) -> Result<&'i str, VerifyError> {
        match (id, &self.id) {
            (Some(id), _) => Ok(id.as_str()),
            (None, Some((primary, also))) if self.signs_id() => {
                Err(Self::present(headers, primary, also).err().unwrap_or_else(|| VerifyError::missing(primary)))
            }
            (None, _) => Ok(""),
        }
    }

    fn signs_id(&self) -> bool {
        self.before_body.iter().chain(&self.after_body).any(|piece| *piece == Piece::Id)
    }

    /// The first of `names` the request carries, or the error naming every one of them.
    fn present<'n>(
        headers: &HeaderMap,
        primary: &'n HeaderName,
        also: &'n [HeaderName],
    ) -> Result<&'n HeaderName, VerifyError> {
        if let Some(name) = also.iter().chain([primary]).find(|name| headers.contains_key(*name)) {
            return Ok(name);
        }
        if also.is_empty() {
            return Err(VerifyError::missing(primary));
        }
        // Say every name, so a receiver behind a proxy that renames headers knows any would do.
        let names: Vec<String> =
            [primary].into_iter().chain(also).map(|name| super::spelled(name).into_owned()).collect();
        Err(VerifyError::HeaderMissing { header: names.join(" or ") })
    }

    /// The timestamp as sent and in Unix seconds.
    fn received_timestamp<'h>(&self, headers: &'h HeaderMap) -> Result<Option<(&'h str, i64)>, VerifyError> {
        let Some((name, form)) = &self.timestamp else { return Ok(None) };
        let text = header_text(headers, name)?;
        let seconds = match form {
            TimestampForm::UnixSeconds => parse_timestamp(name, text)?,
            TimestampForm::UnixMilliseconds => parse_timestamp(name, text)?.div_euclid(1000),
            TimestampForm::Rfc3339 => chrono::DateTime::parse_from_rfc3339(text)
                .map_err(|_| VerifyError::malformed(name, format!("`{text}` is not an RFC 3339 time")))?
                .timestamp(),
        };
        Ok(Some((text, seconds)))
    }

    /// The items of a list-form header, read as Paddle's and Stripe's libraries split them: on
    /// the separator, each at its first `=`, nothing trimmed; the first timestamp counts.
    fn list_items<'h>(
        &self,
        list: &SignatureList,
        name: &HeaderName,
        text: &'h str,
    ) -> Result<ListItems<'h>, VerifyError> {
        let mut timestamp = None;
        let mut signatures = Vec::new();
        let mut entries = 0;
        for item in text.split(list.separator.as_str()) {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            if key == list.timestamp {
                timestamp = timestamp.or(Some(value));
                continue;
            }
            entries += 1;
            // Past the cap the header is refused anyway: counted, not kept.
            if key == list.signature && signatures.len() <= MAX_SIGNATURES {
                signatures.push(value);
            }
        }
        check_entries(name, entries)?;
        let timestamp = timestamp
            .ok_or_else(|| VerifyError::malformed(name, format!("it has no `{}=` timestamp", list.timestamp)))?;
        if signatures.is_empty() {
            return Err(VerifyError::malformed(
                name,
                format!("it has no `{}=` signature (items of other keys are not checked)", list.signature),
            ));
        }
        Ok(ListItems { timestamp, signatures })
    }

    /// Verifies a list-form header: one MAC, compared with every signature in the list.
    fn verify_list(
        &self,
        list: &SignatureList,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
        // The URL and method a template may sign; the timestamp and id come from the list.
        request: &Values<'_>,
    ) -> Result<Verified, VerifyError> {
        let name = Self::present(headers, &self.signature, &self.signature_also)?;
        let items = self.list_items(list, name, header_text(headers, name)?)?;
        let seconds = parse_timestamp(name, items.timestamp)?;
        let id = self.delivery_id(headers);
        let signed_id = self.signed_id(headers, &id)?;
        let values = Values { timestamp: items.timestamp, id: signed_id, ..*request };
        let before = Self::render(&self.before_body, &values);
        let after = Self::render(&self.after_body, &values);
        let expected = key.digest(self.mac_algorithm(), &[&before, body, &after]);
        let candidates = items.signatures.iter().filter_map(|value| value.strip_prefix(self.prefix.as_str()));
        let matched = match self.compare {
            Compare::Text => {
                let text = self.encoding.encode(&expected);
                any_equal(text.as_bytes(), candidates.map(str::as_bytes))
            }
            Compare::Bytes => {
                let decoded: Vec<Vec<u8>> = candidates.filter_map(|value| self.encoding.decode(value)).collect();
                any_equal(&expected, decoded.iter().map(Vec::as_slice))
            }
        };
        let note = conclude(window, Some(seconds), self.future, matched)?;
        Ok(Verified { scheme: self.kind, timestamp: Some(seconds), id, note })
    }
}

impl DescribedScheme {
    /// The headers of a shared-token scheme: the token is the secret, as the provider sends it.
    fn sign_with_token(
        &self,
        delivery: &Delivery,
        key: &SigningKey,
    ) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let mut token = self.prefix.clone().into_bytes();
        token.extend_from_slice(key.secret_bytes());
        // Not through `to_header_value`: its error quotes the value, and the value is the secret.
        let value = HeaderValue::from_bytes(&token).map_err(|_| SignError::NotAHeaderValue {
            what: "shared token",
            value: "(the secret, not shown)".into(),
            header: super::spelled(&self.signature).into_owned(),
        })?;
        let mut headers = vec![(self.signature.clone(), value)];
        if let (Some(name), Some(event)) = (&self.event, &delivery.event) {
            headers.push((name.clone(), to_header_value("event type", name, event.clone())?));
        }
        Ok(headers)
    }

    /// A shared token matches when it is the secret, compared in constant time.
    fn verify_token(&self, headers: &HeaderMap, key: &SigningKey) -> Result<Verified, VerifyError> {
        let name = Self::present(headers, &self.signature, &self.signature_also)?;
        let text = header_text(headers, name)?;
        let token = text
            .strip_prefix(self.prefix.as_str())
            .ok_or_else(|| VerifyError::malformed(name, format!("it does not start with `{}`", self.prefix)))?;
        if !any_equal(key.secret_bytes(), [token.as_bytes()]) {
            return Err(VerifyError::SignatureMismatch { hint: None });
        }
        Ok(Verified { scheme: self.kind, timestamp: None, id: self.delivery_id(headers), note: None })
    }
}

/// Schemes whose signature is a field of the body.
impl DescribedScheme {
    /// Mailgun: hex HMAC of `signature.timestamp` + `signature.token`, the timestamp judged too.
    fn verify_mailgun(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let signed = mailgun::signed(body).map_err(|err| VerifyError::BodyMalformed { reason: err.to_string() })?;
        let seconds: i64 = signed.timestamp.trim().parse().map_err(|_| VerifyError::BodyMalformed {
            reason: format!("signature.timestamp `{}` is not a Unix timestamp in seconds", signed.timestamp),
        })?;
        let expected = self.encoding.encode(&key.digest(self.mac_algorithm(), &[signed.string_to_sign.as_bytes()]));
        let matched = any_equal(expected.as_bytes(), [signed.signature_hex.as_bytes()]);
        let note = conclude(window, Some(seconds), self.future, matched)?;
        Ok(Verified { scheme: self.kind, timestamp: Some(seconds), id: self.delivery_id(headers), note })
    }

    /// Adyen: every item of the batch carries its own signature, and the batch is valid only when
    /// every one matches; the first that does not is named.
    fn verify_adyen(&self, headers: &HeaderMap, body: &[u8], key: &SigningKey) -> Result<Verified, VerifyError> {
        let items = adyen::items(body).map_err(|err| VerifyError::BodyMalformed { reason: err.to_string() })?;
        if items.is_empty() {
            return Err(VerifyError::BodyMalformed { reason: "notificationItems is empty".into() });
        }
        let count = items.len();
        for (index, item) in items.iter().enumerate() {
            let which = format!("notification item {} of {count} ({})", index + 1, item.string_to_sign);
            let Some(signature) = &item.signature_base64 else {
                return Err(VerifyError::BatchItemRefused {
                    item: which,
                    reason: "carries no additionalData.hmacSignature",
                });
            };
            let expected = self.encoding.encode(&key.digest(self.mac_algorithm(), &[item.string_to_sign.as_bytes()]));
            if !any_equal(expected.as_bytes(), [signature.as_bytes()]) {
                return Err(VerifyError::BatchItemRefused { item: which, reason: "does not match its signature" });
            }
        }
        Ok(Verified { scheme: self.kind, timestamp: None, id: self.delivery_id(headers), note: None })
    }
}

/// Signing into the body, as Mailgun and Adyen lay their signatures out.
impl DescribedScheme {
    /// Mailgun: `{"signature": {"timestamp", "token", "signature"}, "event-data": …}`. A body that
    /// is not yet in that shape becomes its `event-data`; the token is the delivery id (Mailgun's
    /// is a random 50-character string, and the id is fresh unless `--id` pins it).
    fn sign_mailgun(&self, json: &mut serde_json::Value, delivery: &Delivery, key: &SigningKey) -> Result<(), String> {
        use serde_json::{Map, Value};
        if !json.get("event-data").is_some_and(Value::is_object) {
            let mut wrapped = Map::new();
            wrapped.insert("event-data".into(), json.take());
            *json = Value::Object(wrapped);
        }
        let token = json
            .pointer("/signature/token")
            .and_then(Value::as_str)
            .map_or_else(|| delivery.id.clone(), str::to_string);
        let timestamp = delivery.timestamp.to_string();
        let signature =
            self.encoding.encode(&key.digest(self.mac_algorithm(), &[format!("{timestamp}{token}").as_bytes()]));
        let object = json.as_object_mut().ok_or("the body is not a JSON object")?;
        let mut fields = Map::new();
        fields.insert("timestamp".into(), Value::from(timestamp));
        fields.insert("token".into(), Value::from(token));
        fields.insert("signature".into(), Value::from(signature));
        object.insert("signature".into(), Value::Object(fields));
        Ok(())
    }

    /// Adyen: every `notificationItems[].NotificationRequestItem` gets its own
    /// `additionalData.hmacSignature` over its fields.
    fn sign_adyen(&self, json: &mut serde_json::Value, key: &SigningKey) -> Result<(), String> {
        use serde_json::{Map, Value};
        let items = json
            .get_mut("notificationItems")
            .and_then(Value::as_array_mut)
            .filter(|items| !items.is_empty())
            .ok_or("Adyen signs each item of `notificationItems`, and the body has none")?;
        for (at, item) in items.iter_mut().enumerate() {
            let request = item
                .get_mut("NotificationRequestItem")
                .and_then(Value::as_object_mut)
                .ok_or_else(|| format!("notificationItems[{at}] has no NotificationRequestItem object"))?;
            let text = adyen::item_string_to_sign(&Value::Object(request.clone()));
            let signature = self.encoding.encode(&key.digest(self.mac_algorithm(), &[text.as_bytes()]));
            let additional = request.entry("additionalData").or_insert_with(|| Value::Object(Map::new()));
            let additional = additional
                .as_object_mut()
                .ok_or_else(|| format!("notificationItems[{at}]'s additionalData is not an object"))?;
            additional.insert("hmacSignature".into(), Value::from(signature));
        }
        Ok(())
    }
}

/// A list form whose keys and separator can be told apart.
fn check_list(list: &SignatureList) -> Result<(), DescriptionError> {
    if list.separator.is_empty() || list.separator.contains('=') {
        return Err(DescriptionError::new("signature.list.separator", "it must be non-empty text without `=`"));
    }
    for (field, key) in [("signature.list.timestamp", &list.timestamp), ("signature.list.signature", &list.signature)] {
        if key.is_empty() || key.contains('=') || key.contains(list.separator.as_str()) {
            return Err(DescriptionError::new(field, "it must be non-empty, without `=` or the separator"));
        }
    }
    if list.timestamp == list.signature {
        return Err(DescriptionError::new("signature.list", "the timestamp and the signature need different keys"));
    }
    Ok(())
}

impl Scheme for DescribedScheme {
    fn kind(&self) -> SchemeKind {
        self.kind
    }

    fn key_form(&self) -> KeyForm {
        self.key_form
    }

    /// A key-pair scheme reads either half here (the private key if the text is one, else the
    /// public key); the commands ask for the half they need through `signing_key` and
    /// `verifying_key`, which refuse the other.
    fn key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        match self.algorithm {
            SignatureAlgorithm::Mac(_) => self.key_form.derive(secret),
            SignatureAlgorithm::Pair(pair) => {
                self.pair_key(pair, KeyUse::Sign, secret).or_else(|_| self.pair_key(pair, KeyUse::Verify, secret))
            }
        }
    }

    fn signing_key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        match self.algorithm {
            SignatureAlgorithm::Mac(_) => self.key_form.derive(secret),
            SignatureAlgorithm::Pair(pair) => self.pair_key(pair, KeyUse::Sign, secret),
        }
    }

    fn verifying_key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        match self.algorithm {
            SignatureAlgorithm::Mac(_) => self.key_form.derive(secret),
            SignatureAlgorithm::Pair(pair) => self.pair_key(pair, KeyUse::Verify, secret),
        }
    }

    fn is_timestamped(&self) -> bool {
        self.timestamp.is_some() || self.list.is_some()
    }

    fn accepts_future_timestamps(&self) -> bool {
        self.future == Future::Accepted
    }

    fn signature_header(&self) -> HeaderName {
        self.signature.clone()
    }

    fn sends_the_secret_itself(&self) -> bool {
        self.shared_token
    }

    fn accepted_signature_headers(&self) -> Vec<HeaderName> {
        if self.fields.is_some() {
            return Vec::new();
        }
        [self.signature.clone()].into_iter().chain(self.signature_also.iter().cloned()).collect()
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        self.id.as_ref().map(|(name, _)| name.clone())
    }

    fn delivery_id(&self, headers: &HeaderMap) -> Option<String> {
        let (primary, also) = self.id.as_ref()?;
        let name = Self::present(headers, primary, also).ok()?;
        headers.get(name)?.to_str().ok().map(str::to_string)
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        if self.shared_token {
            return self.sign_with_token(delivery, key);
        }
        if let Some(fields) = self.fields {
            // The signature went into the body (`sign_body`); no header carries it. A body that
            // does not carry it was never signed: refused, so nothing goes out unsigned.
            let body = whole_body(&delivery.body)?;
            let signed = match fields {
                BodyFields::Mailgun => mailgun::signed(&body).is_ok(),
                BodyFields::Adyen => adyen::items(&body)
                    .is_ok_and(|items| !items.is_empty() && items.iter().all(|item| item.signature_base64.is_some())),
            };
            if !signed {
                return Err(SignError::SignsInsideTheBody { scheme: self.kind.to_string() });
            }
            return Ok(Vec::new());
        }
        let timestamp = match self.timestamp {
            Some((_, TimestampForm::UnixMilliseconds)) => (i128::from(delivery.timestamp) * 1000).to_string(),
            Some((ref name, TimestampForm::Rfc3339)) => chrono::DateTime::from_timestamp(delivery.timestamp, 0)
                .ok_or_else(|| SignError::NotAHeaderValue {
                    what: "timestamp",
                    value: format!("{} (out of the range of RFC 3339 times)", delivery.timestamp),
                    header: super::spelled(name).into_owned(),
                })?
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            _ => delivery.timestamp.to_string(),
        };
        let url = match (&delivery.url, self.signs_url()) {
            (Some(url), true) => url.as_str(),
            (None, true) => return Err(SignError::UrlRequired { scheme: self.kind.to_string() }),
            (_, false) => "",
        };
        let values = Values { timestamp: &timestamp, id: &delivery.id, url, method: SIGNED_METHOD };
        let tag = match self.algorithm {
            SignatureAlgorithm::Mac(mac) if self.url_and_form => {
                let body = whole_body(&delivery.body)?;
                key.digest(mac, &[self.twilio_string_to_sign(url, &body)?.as_bytes()])
            }
            SignatureAlgorithm::Mac(mac) => {
                let before = Self::render(&self.before_body, &values);
                let after = Self::render(&self.after_body, &values);
                key.digest_streaming(mac, &before, &delivery.body, &after)?
            }
            SignatureAlgorithm::Pair(_) => {
                // Ed25519 signs the whole message at once: gather the body (a file's too).
                let mut message = Self::render(&self.before_body, &values);
                message.extend_from_slice(&whole_body(&delivery.body)?);
                message.extend_from_slice(&Self::render(&self.after_body, &values));
                match key.provider_key().and_then(|pair| pair.sign(&message)) {
                    Some(Ok(signature)) => signature,
                    Some(Err(err)) => {
                        return Err(SignError::NotSignable { scheme: self.kind.to_string(), reason: err.to_string() });
                    }
                    None => return Err(SignError::PrivateKeyNeeded { scheme: self.kind.to_string() }),
                }
            }
        };
        let mut signature = format!("{}{}", self.prefix, self.encoding.encode(&tag));
        if let Some(list) = &self.list {
            signature = format!("{}={timestamp}{}{}={signature}", list.timestamp, list.separator, list.signature);
        }
        let mut headers = vec![(self.signature.clone(), to_header_value("signature", &self.signature, signature)?)];
        if let Some((name, _)) = &self.timestamp {
            headers.push((name.clone(), to_header_value("timestamp", name, timestamp)?));
        }
        if let Some((name, _)) = &self.id {
            headers.push((name.clone(), to_header_value("delivery id", name, delivery.id.clone())?));
        }
        if let (Some(name), Some(event)) = (&self.event, &delivery.event) {
            headers.push((name.clone(), to_header_value("event type", name, event.clone())?));
        }
        Ok(headers)
    }

    fn sign_body(&self, delivery: &Delivery, key: &SigningKey) -> Result<Option<bytes::Bytes>, SignError> {
        let Some(fields) = self.fields else { return Ok(None) };
        let body = whole_body(&delivery.body)?;
        let not_signable = |reason: String| SignError::NotSignable { scheme: self.kind.to_string(), reason };
        let mut json: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|err| not_signable(format!("the body must be JSON, as {} sends it: {err}", self.kind)))?;
        match fields {
            BodyFields::Mailgun => self.sign_mailgun(&mut json, delivery, key).map_err(not_signable)?,
            BodyFields::Adyen => self.sign_adyen(&mut json, key).map_err(not_signable)?,
        }
        let text = serde_json::to_vec(&json).map_err(|err| not_signable(err.to_string()))?;
        Ok(Some(bytes::Bytes::from(text)))
    }

    fn signs_url(&self) -> bool {
        self.url_and_form || self.signs_url_in_template()
    }

    fn verify_request(
        &self,
        request: &ReceivedRequest<'_>,
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let ReceivedRequest { method, url, headers, body } = *request;
        let url = match url {
            Some(url) => url,
            None if self.signs_url() => return Err(VerifyError::UrlRequired { scheme: self.kind.to_string() }),
            None => "",
        };
        if let Some(list) = &self.list {
            let values = Values { timestamp: "", id: "", url, method };
            return self.verify_list(list, headers, body, key, window, &values);
        }
        if self.shared_token {
            return self.verify_token(headers, key);
        }
        match self.fields {
            Some(BodyFields::Mailgun) => return self.verify_mailgun(headers, body, key, window),
            Some(BodyFields::Adyen) => return self.verify_adyen(headers, body, key),
            None => {}
        }
        let timestamp = self.received_timestamp(headers)?;
        let name = Self::present(headers, &self.signature, &self.signature_also)?;
        let text = header_text(headers, name)?;
        let encoded = text
            .strip_prefix(self.prefix.as_str())
            .ok_or_else(|| VerifyError::malformed(name, format!("`{text}` does not start with `{}`", self.prefix)))?;
        let candidate = self
            .encoding
            .decode(encoded)
            .ok_or_else(|| VerifyError::malformed(name, format!("`{encoded}` is not {}", self.encoding.name())))?;
        let id = self.delivery_id(headers);
        let signed_id = self.signed_id(headers, &id)?;
        // The timestamp is signed as the text it was sent as, so sign those exact bytes.
        let timestamp_text = timestamp.map_or("", |(text, _)| text);
        let values = Values { timestamp: timestamp_text, id: signed_id, url, method };
        let matched = match self.algorithm {
            SignatureAlgorithm::Mac(mac) => {
                let expected = if self.url_and_form {
                    self.twilio_expected(url, body, key)?
                } else {
                    let before = Self::render(&self.before_body, &values);
                    let after = Self::render(&self.after_body, &values);
                    vec![key.digest(mac, &[&before, body, &after])]
                };
                // Every expected tag is compared, so the time taken does not say which URL variant matched.
                expected.iter().fold(false, |found, expected| {
                    found
                        | match self.compare {
                            Compare::Text => any_equal(self.encoding.encode(expected).as_bytes(), [encoded.as_bytes()]),
                            Compare::Bytes => any_equal(expected, [candidate.as_slice()]),
                        }
                })
            }
            // A key that is no pair's (an HMAC key a hint tries) verifies nothing.
            SignatureAlgorithm::Pair(_) => {
                let before = Self::render(&self.before_body, &values);
                let after = Self::render(&self.after_body, &values);
                key.provider_key()
                    .is_some_and(|pair| pair.verifies(&[before.as_slice(), body, &after].concat(), &candidate))
            }
        };
        let seconds = timestamp.map(|(_, seconds)| seconds);
        let note = conclude(window, seconds, self.future, matched)?;
        Ok(Verified { scheme: self.kind, timestamp: seconds, id, note })
    }
}

/// The whole body, for the schemes that parse it before signing (Twilio's form parameters).
fn whole_body(body: &DeliveryBody) -> Result<Vec<u8>, SignError> {
    let mut bytes = Vec::new();
    body.for_each_chunk(|chunk| bytes.extend_from_slice(chunk))
        .map_err(|source| SignError::ReadBody { body: body.describe(), source })?;
    Ok(bytes)
}

/// The first `bodySHA256` value of the URL's query, as python's `parse_qs` reads it (an empty
/// value counts as absent).
fn body_sha256_of(url: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    let query = query.split_once('#').map_or(query, |(query, _)| query);
    form_pairs(query.as_bytes())
        .into_iter()
        .find(|(name, value)| name == "bodySHA256" && !value.is_empty())
        .map(|(_, value)| value)
}

/// `application/x-www-form-urlencoded` name/value pairs, as a web framework hands them to
/// Twilio's library: `+` is a space, `%XX` a byte, invalid UTF-8 replaced.
fn form_pairs(body: &[u8]) -> Vec<(String, String)> {
    let decode = |text: &[u8]| {
        let spaced: Vec<u8> = text.iter().map(|&byte| if byte == b'+' { b' ' } else { byte }).collect();
        String::from_utf8_lossy(&percent_encoding::percent_decode(&spaced).collect::<Vec<u8>>()).into_owned()
    };
    body.split(|&byte| byte == b'&' || byte == b';')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.iter().position(|&byte| byte == b'=') {
            Some(at) => (decode(&pair[..at]), decode(&pair[at + 1..])),
            None => (decode(pair), String::new()),
        })
        .collect()
}

/// Whether the body is a JSON document (Twilio signs those through `bodySHA256`).
fn is_json(body: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
}

#[cfg(test)]
mod tests {
    use base64::Engine;

    use super::*;
    use crate::webhook::scheme::BASE64;

    #[test]
    fn templates_split_at_the_body() {
        let (before, after) = parse_template("v0:{timestamp}:{body}").unwrap();
        assert_eq!(before, [Piece::Text("v0:".into()), Piece::Timestamp, Piece::Text(":".into())]);
        assert!(after.is_empty());
        let (before, after) = parse_template("{id}{body}{timestamp}").unwrap();
        assert_eq!((before, after), (vec![Piece::Id], vec![Piece::Timestamp]));
        for (bad, says) in [
            ("{timestamp}.", "no {body}"),
            ("{body}{body}", "more than once"),
            ("{uri}{body}", "`{uri}` is not a placeholder"),
            ("{body", "not closed"),
        ] {
            let err = parse_template(bad).unwrap_err();
            assert_eq!(err.field, "signed.template");
            assert!(err.reason.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn a_list_form_needs_distinct_keys_and_no_timestamp_header_beside_it() {
        let list = |separator: &str, timestamp: &str, signature: &str| SignatureList {
            separator: separator.into(),
            timestamp: timestamp.into(),
            signature: signature.into(),
        };
        assert!(check_list(&list(";", "ts", "h1")).is_ok());
        for (bad, field) in [
            (list("", "t", "v1"), "signature.list.separator"),
            (list("=", "t", "v1"), "signature.list.separator"),
            (list(",", "t", "t"), "signature.list"),
            (list(",", "", "v1"), "signature.list.timestamp"),
            (list(",", "t", "v,1"), "signature.list.signature"),
        ] {
            assert_eq!(check_list(&bad).unwrap_err().field, field, "{bad:?}");
        }
        let mut description: SchemeDescription =
            serde_json::from_str(include_str!("providers/paddle.json")).expect("paddle.json parses");
        description.timestamp = Some(super::super::description::TimestampHeader {
            name: "X-Timestamp".into(),
            form: TimestampForm::UnixSeconds,
            future: FutureTimestamps::Refused,
        });
        let err = DescribedScheme::new(SchemeKind::Hmac, &description).unwrap_err();
        assert_eq!(err.field, "timestamp");
    }

    #[test]
    fn a_shared_token_signs_nothing_and_nothing_is_only_for_a_token() {
        let gitlab: SchemeDescription =
            serde_json::from_str(include_str!("providers/gitlab.json")).expect("gitlab.json parses");
        assert!(DescribedScheme::new(SchemeKind::Hmac, &gitlab).is_ok());
        let mut signs_the_body = gitlab.clone();
        signs_the_body.signed = Signed::Body;
        assert_eq!(DescribedScheme::new(SchemeKind::Hmac, &signs_the_body).unwrap_err().field, "algorithm");
        let mut a_mac_of_nothing = gitlab;
        a_mac_of_nothing.algorithm = super::super::description::Algorithm::HmacSha256;
        assert_eq!(DescribedScheme::new(SchemeKind::Hmac, &a_mac_of_nothing).unwrap_err().field, "signed");
    }

    fn scheme_signing(signed: Signed, encoding: &str) -> DescribedScheme {
        let description: SchemeDescription = serde_json::from_value(serde_json::json!({
            "name": "url-test",
            "summary": "a test",
            "signature": { "name": "X-Sig", "encoding": encoding },
            "signed": signed,
            "algorithm": "hmac-sha1",
        }))
        .unwrap();
        DescribedScheme::new(SchemeKind::Hmac, &description).unwrap()
    }

    fn delivery(body: &[u8], url: Option<&str>) -> Delivery {
        Delivery {
            body: DeliveryBody::Bytes(body.to_vec().into()),
            id: "msg_1".into(),
            timestamp: 0,
            event: None,
            url: url.map(str::to_string),
        }
    }

    fn signature(scheme: &DescribedScheme, delivery: &Delivery) -> Result<String, SignError> {
        let headers = scheme.sign(delivery, &SigningKey::from_bytes(b"12345"))?;
        Ok(headers[0].1.to_str().unwrap().to_string())
    }

    fn verdict(scheme: &DescribedScheme, signature: &str, url: Option<&str>, body: &[u8]) -> Result<(), VerifyError> {
        let mut headers = HeaderMap::new();
        headers.insert("x-sig", HeaderValue::from_str(signature).unwrap());
        let request = ReceivedRequest { method: "POST", url, headers: &headers, body };
        let window = TimeWindow { now: 0, tolerance: std::time::Duration::from_secs(300) };
        scheme.verify_request(&request, &SigningKey::from_bytes(b"12345"), window).map(|_| ())
    }

    #[test]
    fn templates_sign_the_url_and_method_and_need_the_url() {
        let scheme = scheme_signing(Signed::Template("{method}{url}{body}".into()), "hex");
        assert!(scheme.signs_url());
        let url = "https://example.com/hook?a=1";
        let signed = signature(&scheme, &delivery(b"{}", Some(url))).unwrap();
        let key = SigningKey::from_bytes(b"12345");
        let expected = key.digest(MacAlgorithm::HmacSha1, &[b"POSThttps://example.com/hook?a=1{}"]);
        assert_eq!(signed, hex::encode(expected));
        assert!(verdict(&scheme, &signed, Some(url), b"{}").is_ok());
        assert!(matches!(
            verdict(&scheme, &signed, Some("https://example.com/hook"), b"{}"),
            Err(VerifyError::SignatureMismatch { .. })
        ));
        assert!(matches!(verdict(&scheme, &signed, None, b"{}"), Err(VerifyError::UrlRequired { .. })));
        assert!(matches!(signature(&scheme, &delivery(b"{}", None)), Err(SignError::UrlRequired { .. })));
        assert!(!scheme_signing(Signed::Body, "hex").signs_url());
    }

    #[test]
    fn twilios_form_is_signed_sorted_and_verified_with_or_without_the_port() {
        let scheme = scheme_signing(Signed::UrlAndSortedForm, "base64");
        // Twilio's documented example (see canonical/twilio.rs), sent as a form.
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        let form = b"To=%2B18005551212&From=%2B12349013030&Digits=1234&Caller=%2B12349013030&CallSid=CA1234567890ABCDE";
        let signed = signature(&scheme, &delivery(form, Some(url))).unwrap();
        assert_eq!(signed, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=");
        assert!(verdict(&scheme, &signed, Some(url), form).is_ok());
        assert!(verdict(&scheme, &signed, Some("https://mycompany.com:443/myapp.php?foo=1&bar=2"), form).is_ok());
        assert!(verdict(&scheme, &signed, Some(url), b"To=%2B18005551213").is_err());
    }

    #[test]
    fn twilio_signs_a_json_body_through_its_hash_in_the_url() {
        let scheme = scheme_signing(Signed::UrlAndSortedForm, "base64");
        let body = b"{\"a\":1}";
        let hash = crate::webhook::canonical::twilio::body_sha256(body);
        let refused = signature(&scheme, &delivery(body, Some("https://example.com/hook"))).unwrap_err();
        assert!(refused.to_string().contains(&format!("bodySHA256={hash}")), "{refused}");
        let url = format!("https://example.com/hook?bodySHA256={hash}");
        let signed = signature(&scheme, &delivery(body, Some(&url))).unwrap();
        let key = SigningKey::from_bytes(b"12345");
        assert_eq!(signed, BASE64.encode(key.digest(MacAlgorithm::HmacSha1, &[url.as_bytes()])));
        assert!(verdict(&scheme, &signed, Some(&url), body).is_ok());
        assert!(matches!(verdict(&scheme, &signed, Some(&url), b"{\"a\":2}"), Err(VerifyError::BodyHashMismatch)));
    }
}
