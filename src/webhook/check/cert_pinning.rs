//! `cert-url-pinned` (AWS SNS, PayPal): a delivery signed with an attacker's key, whose certificate
//! URL only LOOKS like the provider's (`http://sns.us-east-1.amazonaws.com@127.0.0.1:PORT/….pem`:
//! the provider's host name as the URL's user name, the real host this suite's own server, which
//! serves the attacker's certificate). A receiver that fetches whatever URL a delivery names, or
//! checks the URL as text, fetches it and verifies the forgery with the forger's own key. The
//! report says both what the receiver fetched (the server counts requests) and what it answered.
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http::Request;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::catalogue::CERT_URL_PINNED;
use super::probe::{Answer, Probe, describe, said};
use crate::conformance::CheckResult;
use crate::webhook::canonical;
use crate::webhook::crypto::cert_url::CertProvider;
use crate::webhook::crypto::key_pair::LocalCa;
use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};
use crate::webhook::delivery::fresh_id;

/// A plain HTTP server on 127.0.0.1 answering every request with `certificate`, counting them.
async fn serve_certificate(certificate: String) -> anyhow::Result<(u16, Arc<AtomicUsize>)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let counted = Arc::clone(&counted);
            let body = certificate.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buffer = [0u8; 1024];
                // Up to the end of the request head, bounded: nothing else is read.
                while !head.windows(4).any(|window| window == b"\r\n\r\n") && head.len() < 16 * 1024 {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => head.extend_from_slice(&buffer[..read]),
                    }
                }
                counted.fetch_add(1, Ordering::SeqCst);
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/x-pem-file\r\ncontent-length: {}\r\nconnection: \
                     close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    Ok((port, hits))
}

/// The forged delivery: body and headers, signed with `key`, naming `cert_url`.
fn forged_request(
    probe: &Probe,
    provider: CertProvider,
    key: &RsaSigner,
    cert_url: &str,
    webhook_id: &str,
) -> anyhow::Result<Request<Bytes>> {
    let event_id = fresh_id("evt_");
    let now = chrono::Utc::now();
    let builder = Request::post(probe.url.clone());
    let request = match provider {
        CertProvider::Sns => {
            let mut message = serde_json::json!({"Type": "Notification", "MessageId": fresh_id("msg_"),
                "TopicArn": "arn:aws:sns:us-east-1:123456789012:webhook", "Subject": "cert-url-pinned",
                "Message": serde_json::json!({"id": event_id, "type": "payment.succeeded"}).to_string(),
                "Timestamp": now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                "SignatureVersion": "1", "SigningCertURL": cert_url});
            let (text, hash) = canonical::sns::string_to_sign(&message)?;
            message["Signature"] = STANDARD.encode(key.sign(hash, text.as_bytes())?).into();
            builder
                .header("x-amz-sns-message-type", "Notification")
                .header("content-type", "text/plain; charset=UTF-8")
                .body(Bytes::from(serde_json::to_vec_pretty(&message)?))?
        }
        CertProvider::Paypal => {
            let body = serde_json::json!({"id": event_id, "event_type": "PAYMENT.CAPTURE.COMPLETED"}).to_string();
            let (id, time) = (fresh_id("tx_"), now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
            let text = canonical::paypal::string_to_sign(&id, &time, webhook_id, body.as_bytes());
            let signature = STANDARD.encode(key.sign(RsaHash::Sha256, text.as_bytes())?);
            builder
                .header("paypal-transmission-id", id)
                .header("paypal-transmission-time", time)
                .header("paypal-transmission-sig", signature)
                .header("paypal-cert-url", cert_url)
                .header("paypal-auth-algo", "SHA256withRSA")
                .header("content-type", "application/json")
                .body(Bytes::from(body))?
        }
    };
    Ok(request)
}

pub(crate) async fn cert_url_pinned(
    probe: &Probe,
    provider: CertProvider,
    webhook_id: &str,
) -> anyhow::Result<CheckResult> {
    let started = std::time::Instant::now();
    let (host, path) = match provider {
        CertProvider::Sns => ("sns.us-east-1.amazonaws.com", "/SimpleNotificationService-look-alike.pem"),
        CertProvider::Paypal => ("api.paypal.com", "/v1/notifications/certs/CERT-look-alike"),
    };
    // The forger's own CA and key: a receiver that trusts any certificate verifies with it.
    let forger = LocalCa::generate(host)?;
    let (port, hits) = serve_certificate(forger.cert_pem.clone()).await?;
    let cert_url = format!("http://{host}@127.0.0.1:{port}{path}");
    let key = RsaSigner::from_pem(&forger.key_pem)?;
    let answer = probe.send(forged_request(probe, provider, &key, &cert_url, webhook_id)?).await;
    let fetched = hits.load(Ordering::SeqCst);
    let accepted = matches!(&answer, Answer::Status(exchange) if exchange.status.is_success());
    let mut evidence = vec![format!("a delivery signed with another key, its certificate URL {cert_url}")];
    evidence.push(match fetched {
        0 => "the receiver did not fetch the look-alike certificate".to_string(),
        count => format!("the receiver FETCHED the look-alike certificate ({count} request(s) to this suite's server)"),
    });
    evidence.push(format!("and answered {}", describe(&answer)));
    let finding = format!(
        "fetched a look-alike certificate {fetched} time(s) and answered a delivery signed with another key {}",
        said(&answer)
    );
    Ok(CERT_URL_PINNED.judged(fetched == 0 && !accepted, finding, evidence, started.elapsed()))
}
