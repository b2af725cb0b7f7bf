//! The bundled provider templates: one JSON file per event under templates/PROVIDER/, compiled in
//! (so the binary needs no files at run time). A unit test checks that this list and the
//! directory hold the same files.
pub(super) const FILES: &[&str] = &[
    include_str!("../../../templates/calendly/invitee.created.json"),
    include_str!("../../../templates/discord/APPLICATION_AUTHORIZED.json"),
    include_str!("../../../templates/github/issues.json"),
    include_str!("../../../templates/github/ping.json"),
    include_str!("../../../templates/github/pull_request.json"),
    include_str!("../../../templates/github/push.json"),
    include_str!("../../../templates/github/release.json"),
    include_str!("../../../templates/github/workflow_run.json"),
    include_str!("../../../templates/gitlab/issue.json"),
    include_str!("../../../templates/gitlab/push.json"),
    include_str!("../../../templates/hubspot/contact.creation.json"),
    include_str!("../../../templates/linear/Issue.json"),
    include_str!("../../../templates/meta/whatsapp.messages.json"),
    include_str!("../../../templates/mux/video.asset.ready.json"),
    include_str!("../../../templates/paddle/customer.created.json"),
    include_str!("../../../templates/sentry/issue.json"),
    include_str!("../../../templates/shopify/app_uninstalled.json"),
    include_str!("../../../templates/shopify/orders_create.json"),
    include_str!("../../../templates/shopify/orders_paid.json"),
    include_str!("../../../templates/shopify/refunds_create.json"),
    include_str!("../../../templates/slack/app_mention.json"),
    include_str!("../../../templates/slack/channel_created.json"),
    include_str!("../../../templates/slack/channel_rename.json"),
    include_str!("../../../templates/slack/message.json"),
    include_str!("../../../templates/slack/url_verification.json"),
    include_str!("../../../templates/square/payment.created.json"),
    include_str!("../../../templates/standard/contact.created.json"),
    include_str!("../../../templates/standard/invoice.paid.json"),
    include_str!("../../../templates/stripe/charge.captured.json"),
    include_str!("../../../templates/stripe/charge.dispute.closed.json"),
    include_str!("../../../templates/stripe/charge.dispute.created.json"),
    include_str!("../../../templates/stripe/charge.failed.json"),
    include_str!("../../../templates/stripe/charge.refund.updated.json"),
    include_str!("../../../templates/stripe/charge.refunded.json"),
    include_str!("../../../templates/stripe/charge.succeeded.json"),
    include_str!("../../../templates/stripe/checkout.session.completed.json"),
    include_str!("../../../templates/stripe/checkout.session.expired.json"),
    include_str!("../../../templates/stripe/customer.created.json"),
    include_str!("../../../templates/stripe/customer.subscription.created.json"),
    include_str!("../../../templates/stripe/customer.subscription.deleted.json"),
    include_str!("../../../templates/stripe/customer.subscription.trial_will_end.json"),
    include_str!("../../../templates/stripe/customer.subscription.updated.json"),
    include_str!("../../../templates/stripe/invoice.created.json"),
    include_str!("../../../templates/stripe/invoice.finalized.json"),
    include_str!("../../../templates/stripe/invoice.paid.json"),
    include_str!("../../../templates/stripe/invoice.payment_failed.json"),
    include_str!("../../../templates/stripe/invoice.payment_succeeded.json"),
    include_str!("../../../templates/stripe/payment_intent.canceled.json"),
    include_str!("../../../templates/stripe/payment_intent.created.json"),
    include_str!("../../../templates/stripe/payment_intent.payment_failed.json"),
    include_str!("../../../templates/stripe/payment_intent.processing.json"),
    include_str!("../../../templates/stripe/payment_intent.requires_action.json"),
    include_str!("../../../templates/stripe/payment_intent.succeeded.json"),
    include_str!("../../../templates/stripe/payment_method.attached.json"),
    include_str!("../../../templates/stripe/refund.created.json"),
    include_str!("../../../templates/stripe/refund.updated.json"),
    include_str!("../../../templates/twitch/channel.follow.json"),
    include_str!("../../../templates/woocommerce/order.created.json"),
    include_str!("../../../templates/zoom/meeting.started.json"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_templates_is_listed_once() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let mut on_disk = Vec::new();
        for provider in std::fs::read_dir(&root).unwrap() {
            for file in std::fs::read_dir(provider.unwrap().path()).unwrap() {
                on_disk.push(std::fs::read_to_string(file.unwrap().path()).unwrap());
            }
        }
        on_disk.sort();
        let mut listed: Vec<String> = FILES.iter().map(|text| text.to_string()).collect();
        listed.sort();
        assert_eq!(listed.len(), on_disk.len(), "templates/ and src/webhook/template/files.rs differ");
        assert_eq!(listed, on_disk, "templates/ and src/webhook/template/files.rs differ");
    }
}
