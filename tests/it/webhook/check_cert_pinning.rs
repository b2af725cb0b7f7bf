//! `webhook check --scheme sns` and its `cert-url-pinned` check, against two receivers written as
//! applications write them (tests/apps/sns_receiver.py): one that fetches the certificate from
//! whatever URL a message names, and one that pins SNS's host first. The suite's forgery names a
//! URL that only looks like SNS's (`http://sns.us-east-1.amazonaws.com@127.0.0.1:PORT/….pem`),
//! served by the suite itself with the forger's certificate: the report says whether the receiver
//! fetched it and whether it accepted the event.
use crate::support::apps::PythonApp;
use crate::support::certificate_host::{CertificateHost, SNS_CERT_URL, SNS_HOST};
use crate::support::run::Run;

fn check(host: &CertificateHost, receiver: &PythonApp) -> (i32, serde_json::Value) {
    Run::webhook(["check", &receiver.url("/sns"), "--scheme", "sns", "--cert-url", SNS_CERT_URL, "--secret-file"])
        .args([host.file("key.pem")])
        .args(["--only", "valid-accepted", "--only", "bad-signature-rejected", "--only", "cert-url-pinned"])
        .format_json()
        .code_and_json()
}

fn result<'r>(report: &'r serde_json::Value, id: &str) -> &'r serde_json::Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|check| check["id"] == id)
        .unwrap_or_else(|| panic!("{id}: {report}"))
}

fn receiver(host: &CertificateHost, pin: bool) -> PythonApp {
    let ca = host.file("ca.pem");
    let mut args = vec!["--trust-ca", ca.to_str().unwrap()];
    let connect_to = host.connect_to(SNS_HOST);
    args.extend(["--connect-to", &connect_to]);
    if pin {
        args.push("--pin");
    }
    PythonApp::start("sns_receiver.py", &args)
}

#[test]
fn a_receiver_that_fetches_any_certificate_url_fetches_the_look_alike_and_accepts_the_forgery() {
    let host = CertificateHost::start("sns");
    let naive = receiver(&host, false);
    let (code, report) = check(&host, &naive);
    assert_eq!(code, 1, "{report}");
    assert_eq!(result(&report, "valid-accepted")["outcome"], "pass", "{report}");
    assert_eq!(result(&report, "bad-signature-rejected")["outcome"], "pass", "{report}");
    let pinned = result(&report, "cert-url-pinned");
    assert_eq!(pinned["outcome"], "fail", "{report}");
    let evidence = pinned["evidence"].to_string();
    assert!(evidence.contains("FETCHED the look-alike certificate") && evidence.contains("200"), "{evidence}");
}

#[test]
fn a_receiver_that_pins_the_sns_host_neither_fetches_the_look_alike_nor_accepts_it() {
    let host = CertificateHost::start("sns");
    let pinning = receiver(&host, true);
    let (code, report) = check(&host, &pinning);
    assert_eq!(code, 0, "{report}");
    let pinned = result(&report, "cert-url-pinned");
    assert_eq!(pinned["outcome"], "pass", "{report}");
    assert!(pinned["evidence"].to_string().contains("did not fetch the look-alike certificate"), "{pinned}");
    // Only the real certificate was fetched from the SNS host, for the valid delivery.
    assert!(host.requests().iter().all(|path| path == "/SimpleNotificationService-local.pem"), "{:?}", host.requests());
}

#[test]
fn webhook_listen_as_the_receiver_passes_cert_url_pinned_for_sns_and_paypal() {
    use crate::support::certificate_host::{PAYPAL_CERT_URL, PAYPAL_HOST};
    use crate::support::listen_process::Binary;
    for (scheme, host_name, cert_url, webhook_id) in
        [("sns", SNS_HOST, SNS_CERT_URL, None), ("paypal", PAYPAL_HOST, PAYPAL_CERT_URL, Some("WH-LISTEN"))]
    {
        let host = CertificateHost::start(scheme);
        let ca = host.file("ca.pem");
        let connect_to = host.connect_to(host_name);
        let mut args = vec!["--scheme", scheme, "--trust-ca", ca.to_str().unwrap(), "--connect-to", &connect_to];
        if let Some(id) = webhook_id {
            args.extend(["--webhook-id", id]);
        }
        let listener = Binary::start_listen(&args);
        let mut run =
            Run::webhook(["check", &format!("{}/hook", listener.url), "--scheme", scheme, "--cert-url", cert_url])
                .args(["--only", "valid-accepted", "--only", "bad-signature-rejected", "--only", "cert-url-pinned"])
                .args([std::ffi::OsStr::new("--secret-file"), host.file("key.pem").as_os_str()]);
        if let Some(id) = webhook_id {
            run = run.args(["--webhook-id", id]);
        }
        let (code, report) = run.format_json().code_and_json();
        assert_eq!(code, 0, "{scheme}: {report}");
        let pinned = result(&report, "cert-url-pinned");
        assert_eq!(pinned["outcome"], "pass", "{scheme}: {report}");
        assert!(pinned["evidence"].to_string().contains("did not fetch"), "{scheme}: {pinned}");
        listener.interrupt();
    }
}
