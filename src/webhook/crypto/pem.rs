//! PEM blocks (RFC 7468): reading the private keys and certificates users paste, writing the ones
//! `webhook secret` generates. Reading is rustls-pki-types' parser, which knows the labels.
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rustls_pki_types::pem::{PemObject, SectionKind};

/// A private key read from PEM, by its label.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PrivateKeyPem {
    /// `PRIVATE KEY`: PKCS#8, any algorithm.
    Pkcs8(Vec<u8>),
    /// `RSA PRIVATE KEY`: PKCS#1.
    Pkcs1(Vec<u8>),
    /// `EC PRIVATE KEY`: SEC1.
    Sec1(Vec<u8>),
}

/// Whether `text` looks like PEM at all (so a caller can try the provider's own form otherwise).
pub(crate) fn looks_like_pem(text: &[u8]) -> bool {
    text.windows(11).any(|window| window == b"-----BEGIN ")
}

/// The first private key block in `text`, or `None` when there is none.
pub(crate) fn private_key(text: &[u8]) -> Option<PrivateKeyPem> {
    for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(text) {
        match section {
            Ok((SectionKind::PrivateKey, der)) => return Some(PrivateKeyPem::Pkcs8(der)),
            Ok((SectionKind::RsaPrivateKey, der)) => return Some(PrivateKeyPem::Pkcs1(der)),
            Ok((SectionKind::EcPrivateKey, der)) => return Some(PrivateKeyPem::Sec1(der)),
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Every block labelled `label`'s kind, in order (certificates: leaf first, as PEM chains are written).
pub(crate) fn sections(text: &[u8], kind: SectionKind) -> Vec<Vec<u8>> {
    <(SectionKind, Vec<u8>)>::pem_slice_iter(text)
        .filter_map(Result::ok)
        .filter(|(found, _)| *found == kind)
        .map(|(_, der)| der)
        .collect()
}

/// `der` as a PEM block labelled `label`, 64 columns, newline-terminated.
pub(crate) fn encode(label: &str, der: &[u8]) -> String {
    let encoded = STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in encoded.as_bytes().chunks(64) {
        // Base64 is ASCII, so nothing is ever replaced here.
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encoded_block_reads_back_by_its_label() {
        let der: Vec<u8> = (0..=200).collect();
        let text = encode("PRIVATE KEY", &der);
        assert!(looks_like_pem(text.as_bytes()));
        assert_eq!(private_key(text.as_bytes()), Some(PrivateKeyPem::Pkcs8(der.clone())));
        let rsa = encode("RSA PRIVATE KEY", &der);
        assert_eq!(private_key(rsa.as_bytes()), Some(PrivateKeyPem::Pkcs1(der.clone())));
        let two = format!("{}{}", encode("CERTIFICATE", &der[..10]), encode("CERTIFICATE", &der[10..]));
        assert_eq!(sections(two.as_bytes(), SectionKind::Certificate), vec![der[..10].to_vec(), der[10..].to_vec()]);
    }

    #[test]
    fn text_without_a_key_block_has_no_key() {
        assert!(!looks_like_pem(b"9f86d081884c7d659a2feaa0c55ad015"));
        assert_eq!(private_key(b"not pem"), None);
        assert_eq!(private_key(encode("CERTIFICATE", b"abc").as_bytes()), None);
    }
}
