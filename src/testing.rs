//! What the integration tests (`tests/it`) and the benches (`benches/`) reach inside the library,
//! and nothing else: the library is the two binaries' engine, not an API with stability promises.
//!
//! Everything else in the crate is private, so rustc's dead-code and `unreachable_pub` lints see
//! the crate's real surface: an item that only this module's re-exports keep alive is one a test
//! drives directly (to start a server in-process, sign a delivery, read a journal) rather than
//! through the binaries.

/// The command-line definitions, for the tests that keep the generated man pages, completions and
/// JSON Schemas fresh.
pub mod cli {
    pub use crate::cli::completions::{SHELLS, file_name, generate};
    pub use crate::cli::idem::IdemCli;
    pub use crate::cli::webhook::WebhookCli;
    pub use crate::cli::{man, schemas};
}

/// The HTTP client every command sends with.
pub mod client {
    pub use crate::http::client::{ClientOptions, Exchange, HttpClient};
}

/// The server loop's timeouts (a listener's hardening).
pub mod server {
    pub use crate::http::server::Timeouts;
}

/// `idem serve`, the reference payments API, started in-process.
pub mod serve {
    pub use crate::idem::serve::log::{RequestOutcome, ServeTally};
    pub use crate::idem::serve::store::location::StoreLocation;
    pub use crate::idem::serve::{Mode, RunningServer, ServeConfig, start_quiet};
}

/// `idem proxy`, started in-process.
pub mod proxy {
    pub use crate::idem::proxy::fault::Selection;
    pub use crate::idem::proxy::{ProxyConfig, start};
}

/// The request an `idem` command sends, and its key.
pub mod request {
    pub use crate::idem::key::KeyPolicy;
    pub use crate::idem::request::RequestSpec;
}

/// `idem race`'s engine, for the race bench and the tests that drive the HTTP/2 single packet.
pub mod race {
    pub use crate::idem::race::round::{KeyMode, Spread, SyncMode, race_round, race_round_spread};
    pub use crate::idem::verdict::Verdict;
    pub use crate::race::batch::{BatchMethod, limit_to};
    pub use crate::race::h2_frames::{DATA, FLAG_END_STREAM};
    pub use crate::race::h2_single_packet;
}

/// The signature schemes, to sign deliveries the way providers do and check vectors.
pub mod scheme {
    pub use crate::webhook::scheme::error::VerifyError;
    pub use crate::webhook::scheme::mac::{BASE64, KeyForm, SigningKey};
    pub use crate::webhook::scheme::{
        ReceivedRequest, Scheme, SchemeKind, SchemeOptions, TimeWindow, Verified, build, detect,
    };
    pub use crate::webhook::secret::Secret;
}

/// A delivery: an event, its body and the time it is signed at.
pub mod delivery {
    pub use crate::webhook::delivery::{Delivery, DeliveryBody, unix_now};
}

/// `webhook listen`, started in-process.
pub mod listen {
    pub use crate::webhook::listen::forward::{ForwardRetry, Route};
    pub use crate::webhook::listen::summary::ListenerTally;
    pub use crate::webhook::listen::{ListenConfig, RunningListener, start};
    pub use crate::webhook::verify::verifier::SchemeSelection;
}

/// The delivery journal `webhook listen --record` writes and `webhook replay` reads.
pub mod journal {
    pub use crate::webhook::journal::reader::read_journal;
    pub use crate::webhook::journal::record::{HeaderText, JournalBody, JournalForward, JournalRecord, JournalVerdict};
    pub use crate::webhook::journal::writer::JournalWriter;
}

/// The asymmetric keys and certificates of the providers that sign with them (Discord, SendGrid,
/// AWS SNS, PayPal), for the differential test against the providers' SDKs and the certificate tests.
pub mod crypto {
    pub use crate::webhook::crypto::KeyError;
    pub use crate::webhook::crypto::cert_url::{
        CertFetchOptions, CertFetcher, CertProvider, CertUrlError, check_cert_url,
    };
    pub use crate::webhook::crypto::certificate::{CertificateError, SigningCertificate, TrustRoots};
    pub use crate::webhook::crypto::ecdsa_p256::{EcdsaP256Public, EcdsaP256Signer};
    pub use crate::webhook::crypto::ed25519::{Ed25519Public, Ed25519Signer};
    pub use crate::webhook::crypto::key_pair::{GeneratedPair, KeyAlgorithm, LocalCa, LocalCaFiles, generate_pair};
    pub use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};
}

/// AWS SNS and PayPal deliveries signed and verified with a certificate fetched from the provider's host.
pub mod certified {
    pub use crate::webhook::certified::CertifiedError;
    pub use crate::webhook::certified::paypal::{Transmission, sign as paypal_sign, verify as paypal_verify};
    pub use crate::webhook::certified::sns::{SnsVerified, sign as sns_sign, verify as sns_verify};
}

/// The string-to-sign builders of the providers whose signatures cover more than the body.
pub mod canonical {
    pub use crate::webhook::canonical::CanonicalError;
    pub use crate::webhook::canonical::adyen::{
        AdyenItem, item_string_to_sign as adyen_item_string_to_sign, items as adyen_items,
    };
    pub use crate::webhook::canonical::mailgun::{MailgunSigned, signed as mailgun_signed};
    pub use crate::webhook::canonical::paypal::string_to_sign as paypal_string_to_sign;
    pub use crate::webhook::canonical::sns::string_to_sign as sns_string_to_sign;
    pub use crate::webhook::canonical::twilio::{
        body_sha256 as twilio_body_sha256, string_to_sign as twilio_string_to_sign, url_variants as twilio_url_variants,
    };
}
