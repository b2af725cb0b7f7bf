//! A local HTTPS host standing in for a certificate-signed provider's (AWS SNS, PayPal):
//! `webhook secret --scheme P --out DIR` makes the local CA, the RSA key and its certificate, and
//! `tests/apps/certificate_host.py` serves the certificate under the names the tests' certificate
//! URLs end in, logging every path asked for. Receivers reach it through `--connect-to`, so no
//! name is ever looked up and nothing leaves the machine.
use std::path::{Path, PathBuf};

use crate::support::apps::PythonApp;
use crate::support::run::Run;

pub(crate) const SNS_HOST: &str = "sns.us-east-1.amazonaws.com";
pub(crate) const SNS_CERT_URL: &str = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-local.pem";
pub(crate) const PAYPAL_HOST: &str = "api.paypal.com";
pub(crate) const PAYPAL_CERT_URL: &str = "https://api.paypal.com/v1/notifications/certs/CERT-local";

pub(crate) struct CertificateHost {
    app: PythonApp,
    dir: tempfile::TempDir,
    log: PathBuf,
}

impl CertificateHost {
    /// Makes `scheme`'s local CA with the real binary and serves its certificate.
    pub(crate) fn start(scheme: &str) -> CertificateHost {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("keys");
        Run::webhook(["secret", "--scheme", scheme, "--out"]).args([&out]).expect_exit(0).finish();
        let served = dir.path().join("served");
        std::fs::create_dir(&served).unwrap();
        for name in ["SimpleNotificationService-local.pem", "CERT-local"] {
            std::fs::copy(out.join("cert.pem"), served.join(name)).unwrap();
        }
        let log = dir.path().join("requests.log");
        std::fs::write(&log, "").unwrap();
        let app = PythonApp::start(
            "certificate_host.py",
            &[
                out.join("cert.pem").to_str().unwrap(),
                out.join("key.pem").to_str().unwrap(),
                served.to_str().unwrap(),
                log.to_str().unwrap(),
            ],
        );
        CertificateHost { app, dir, log }
    }

    pub(crate) fn port(&self) -> u16 {
        self.app.url("").rsplit(':').next().unwrap().parse().unwrap()
    }

    /// `--connect-to` sending `host` to this server.
    pub(crate) fn connect_to(&self, host: &str) -> String {
        format!("{host}:443:127.0.0.1:{}", self.port())
    }

    /// `keys/ca.pem`, `keys/key.pem` or `keys/cert.pem`.
    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join("keys").join(name)
    }

    pub(crate) fn key_pem(&self) -> String {
        std::fs::read_to_string(self.file("key.pem")).unwrap()
    }

    /// Every path requested so far, in order.
    pub(crate) fn requests(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log).unwrap().lines().map(str::to_string).collect()
    }

    pub(crate) fn dir(&self) -> &Path {
        self.dir.path()
    }
}
