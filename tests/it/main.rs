//! The one integration-test binary: real servers on port 0, the real binaries through assert_cmd.
//! Tests are filed by the command they exercise (`idem/`, `webhook/`); what every command owes
//! (exit statuses, schemas, secrets, documentation, generated files) is in `contracts/`; what
//! several files need is in `support/`.
mod contracts {
    mod behind_proxy;
    mod child_processes;
    mod differential;
    mod docs;
    mod exit_status;
    mod findings;
    mod flag_mentions;
    mod generated;
    mod html_reports;
    mod input_limits;
    mod junit;
    mod module_graph;
    mod provider_sdks;
    mod readme;
    mod schemas;
    mod secrets;
    mod suite_selection;
    mod vectors;
}
mod idem {
    mod check;
    mod check_failures;
    mod check_key_carriers;
    mod check_layers;
    mod check_openapi;
    mod check_profiles;
    mod counted_evidence;
    mod demo;
    mod proxy;
    mod race;
    mod run;
    mod send;
    mod send_key_carriers;
    mod send_ledgers;
    mod send_race_evidence;
    mod send_retries;
    mod serve;
    mod serve_stores;
    mod settled_counts;
    mod window;
}
mod support;
// `idem/check_openapi.rs` is kept as it was before the tests were filed by command, so that a
// pending branch's additions to it merge; it reaches these two helpers by their older paths.
use support::reference_libraries as differential;
use support::schemas;
mod webhook {
    mod check;
    mod check_cert_pinning;
    mod check_concurrent_duplicates;
    mod check_provider_probes;
    mod check_sender;
    mod cli;
    mod inspector;
    mod journal;
    mod listen;
    mod listen_gateway;
    mod listen_handshakes;
    mod listen_hostile_input;
    mod malformed_input;
    mod providers_asymmetric;
    mod providers_certified;
    mod providers_lists;
    mod providers_urls;
    mod race;
    mod replay;
    mod schemes;
    mod send;
    mod send_chains;
    mod send_handshake;
    mod send_personalities;
    mod send_provider_templates;
    mod send_templates;
    mod send_to_listen;
    mod sign_verify;
    mod sign_verify_properties;
}
