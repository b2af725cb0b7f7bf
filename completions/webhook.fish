# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_webhook_global_optspecs
    string join \n color= h/help V/version
end

function __fish_webhook_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_webhook_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_webhook_using_subcommand
    set -l cmd (__fish_webhook_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c webhook -n "__fish_webhook_needs_command" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_needs_command" -s h -l help -d 'Print help'
complete -c webhook -n "__fish_webhook_needs_command" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "sign" -d 'Sign a payload the way a provider would and print the headers, a curl command or a raw request'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "verify" -d 'Check a received webhook\'s signature and say exactly why it fails'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "secret" -d 'Print a new random signing secret in the scheme\'s usual form'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "schemes" -d 'List the signing schemes --scheme takes: the built-in ones and the providers described as data'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "send" -d 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "replay" -d 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "race" -d 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "check" -d 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "check-sender" -d 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "listen" -d 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "journal" -d 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c webhook -n "__fish_webhook_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c webhook -n "__fish_webhook_using_subcommand sign" -s d -l data -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope\'s `data`' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l event -d 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l set -d 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l unset -d 'With --event: remove a field of the built body (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l scheme -d 'The signing scheme [default: the template\'s provider with --event PROVIDER:TYPE, else hmac]' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l id -d 'Sign this delivery id (and use it as the envelope\'s event id) instead of a fresh one' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l timestamp -d 'Sign this Unix timestamp instead of now (not negative, at most 253402300799: the year 9999)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l format -d 'What to print' -r -f -a "headers\t'`Name: value` lines (then a blank line and the body when --event built it)'
curl\t'A curl command that sends the signed request to --url'
http\t'The whole raw HTTP/1.1 request to --url, as `webhook verify --request` reads it'
json\t'One JSON document: scheme, id, timestamp, headers, body'"
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l url -d 'Where the webhook goes: for --format curl and http, and signed by the schemes that sign the URL (twilio, square, hubspot)' -r
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand sign" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand sign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand sign" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand verify" -s d -l data -d 'The body as received: DATA, @file or @- (default: the body of --request, else stdin)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -s H -l header -d 'A received header, \'Name: value\' (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l request -d 'A raw HTTP request (as `webhook sign --format http` writes one, or captured off the wire)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l url -d 'The URL the provider was given (the webhook URL in its dashboard), for schemes that sign it (twilio, square, hubspot)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l scheme -d 'The signing scheme the sender uses, or auto to pick it from the headers among --allow' -r -f -a "auto\t'The scheme whose signature header the request carries'
hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l allow -d 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l public-key -d '--scheme standard: the sender\'s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l tolerance -d 'How far a signed timestamp may be from now, in either direction (at most 24h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l now -d 'Judge timestamps as if it were this Unix time (to check a recorded delivery) (not negative, at most 253402300799: the year 9999)' -r
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand verify" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand verify" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l scheme -d 'The scheme the secret is for: whsec_ + base64 for standard and stripe, a key pair for discord and sendgrid, hex for the others' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l scheme-file -d 'The scheme a JSON file describes (as --scheme-file of sign and verify), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l format -d 'human: the secret (and the public key) one a line, a key-pair provider\'s labelled; json: {"secret", "public"}' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l out -d '--scheme sns|paypal: the directory to write a local CA (ca.pem, for the receiver\'s --trust-ca), the sender\'s RSA key (key.pem) and the signing certificate (cert.pem, to serve) into' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand secret" -l asymmetric -d '--scheme standard: an Ed25519 key pair for v1a signatures (whsk_ secret key, whpk_ public key)'
complete -c webhook -n "__fish_webhook_using_subcommand secret" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand secret" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand schemes" -l format -d 'human: a line per scheme, its name and what it signs; json: every scheme with its headers, algorithm and source' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand schemes" -l scheme-file -d 'List this described scheme too, after the built-in ones (checked as every command that takes it checks it; repeatable)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand schemes" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand schemes" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand schemes" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand send" -l list-events -d 'List the provider templates --event PROVIDER:TYPE takes (of one provider, or all) and exit; with --format json, as a document for scripts' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -s d -l data -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope\'s `data`' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l event -d 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l set -d 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l unset -d 'With --event: remove a field of the built body (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l scheme -d 'The signing scheme [default: the template\'s provider with --event PROVIDER:TYPE, else the provider of --as, else hmac]' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand send" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand send" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand send" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l id -d 'Use this delivery id (and envelope event id) instead of a fresh one' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l times -d 'Deliver the same event this many times, as a provider\'s duplicate deliveries do (at most 10000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l concurrency -d 'How many of the --times deliveries run at once (at most 1000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l handshake -d 'Perform an endpoint handshake first, and judge the answer as the provider does: the scheme\'s provider\'s (Slack url_verification, Discord PING, Zoom endpoint.url_validation, Twitch callback verification, Meta\'s hub.challenge with --verify-token, Dropbox\'s challenge), or the one named: --handshake=graph (Microsoft Graph validationToken), event-grid (Azure Event Grid validationCode), cloudevents (the CloudEvents webhook OPTIONS request), x-crc (X\'s CRC, answered with the --secret); a receiver that fails it gets no event, and the exit status is 2' -r -f -a "provider\t''
slack\t''
discord\t''
zoom\t''
twitch\t''
meta\t''
dropbox\t''
graph\t''
event-grid\t''
cloudevents\t''
x-crc\t''"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l verify-token -d 'The verify token Meta\'s handshake carries (with --handshake --scheme meta)' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l verify-token-file -d '--verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand send" -l as -d 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]' -r -f -a "github\t''
slack\t''
stripe\t''
standard\t''"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l max-attempts -d 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider\'s count with --as or --event PROVIDER:TYPE]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l backoff -d 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l backoff-max -d 'The backoff cap never grows beyond this (at most 24h) [default: 1h]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l schedule -d 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe\'s test mode' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l time-scale -d 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l timeout -d 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider\'s with --as or --event PROVIDER:TYPE: Slack\'s 3s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l max-requests -d 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l proxy -d 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c webhook -n "__fish_webhook_using_subcommand send" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand send" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand send" -l chain -d 'With --event stripe:checkout.session.completed or stripe:payment_intent.succeeded, send the events around it as Stripe creates them (payment_intent.created, payment_intent.succeeded, charge.succeeded, then the session), their ids linked, one after another; --set and --unset apply to each'
complete -c webhook -n "__fish_webhook_using_subcommand send" -s k -l insecure -d 'Accept any TLS certificate (self-signed local receivers)'
complete -c webhook -n "__fish_webhook_using_subcommand send" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand send" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l scheme -d 'The signing scheme to re-sign with [default: the one each journal line recorded; a line that recorded none, or a file of events, needs --scheme]' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l event-type -d 'Only entries whose event type matches this glob, as `webhook journal --type` reads it (`*` any run of characters, `?` one: \'customer.subscription.*\'; repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l id -d 'Only the entry with this event id (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l rate -d 'Start at most this many deliveries per second, minute or hour: 10/s, 30/m, 100/h, 1/5s (at most 1h between two starts)' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l as -d 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]' -r -f -a "github\t''
slack\t''
stripe\t''
standard\t''"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l max-attempts -d 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider\'s count with --as or --event PROVIDER:TYPE]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l backoff -d 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l backoff-max -d 'The backoff cap never grows beyond this (at most 24h) [default: 1h]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l schedule -d 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe\'s test mode' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l time-scale -d 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l timeout -d 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider\'s with --as or --event PROVIDER:TYPE: Slack\'s 3s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l max-requests -d 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l proxy -d 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l order -d 'The order the deliveries go out in (receivers must cope with any: providers promise none)' -r -f -a "as-is\t'In the order given (the file\'s, for replay)'
reverse\t'Last first'
shuffle\t'A random order; --seed makes it repeatable'"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l seed -d 'With --order shuffle: the shuffle\'s seed, to repeat an order [default: a random one, printed]' -r
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l resign -d 'Sign every entry again with a fresh timestamp, keeping the recorded delivery id (the default)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l verbatim -d 'Send the recorded headers unchanged, stale signature included, to check that the receiver refuses a replay (needs no secret)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l failed -d 'Only events whose last recorded delivery failed (the listener answered other than 2xx, or its forward was not delivered); a journal only'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l latest-per-event -d 'One copy of each event, its latest delivery (with --failed: each failed event once, as the Stripe CLI\'s `events resend` does)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -l include-invalid -d 'With re-signing, also replay deliveries the listener recorded as invalid (they become valid)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -s k -l insecure -d 'Accept any TLS certificate (self-signed local receivers)'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand replay" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand race" -s d -l data -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope\'s `data`' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l event -d 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l set -d 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l unset -d 'With --event: remove a field of the built body (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l scheme -d 'The signing scheme the receiver verifies [default: the template\'s provider with --event PROVIDER:TYPE]' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand race" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand race" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand race" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand race" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand race" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l id -d 'Use this delivery id (and envelope event id) instead of a fresh one per round' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -s n -l requests -d 'Identical copies released together per round (at least 2, at most 1000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l rounds -d 'Rounds to run, each with a fresh delivery (at most 10000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l max-requests -d 'Send at most this many copies in all (--count-url reads not counted): the race stops before the round that would exceed it, with exit status 2' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l timeout -d 'How long each copy\'s answer may take (at most 1h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand race" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c webhook -n "__fish_webhook_using_subcommand race" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand race" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand race" -l http2 -d 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the copies go as one HTTP/2 single packet (on https, ALPN decides)'
complete -c webhook -n "__fish_webhook_using_subcommand race" -s k -l insecure -d 'Accept any TLS certificate (self-signed local receivers)'
complete -c webhook -n "__fish_webhook_using_subcommand race" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand race" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand check" -l scheme -d 'The signing scheme the receiver verifies (required: signing with another would make every rejection pass for the wrong reason)' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand check" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -s n -l concurrency -d 'How many identical copies of one delivery concurrent-duplicates-processed-once releases together (at least 2, at most 1000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand check" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l event -d 'Valid deliveries are events of this type (the receiver must handle it) [default: webhook.check]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -s d -l data -d 'Valid deliveries carry this body (DATA, @file or @-; a JSON object\'s top-level id is made fresh per delivery); with --event, the JSON for the envelope\'s `data`' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l tolerance -d 'The receiver\'s timestamp tolerance; stale and future deliveries are signed 10 minutes or twice this from now, whichever is further (at most 24h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l timeout -d 'How long each request may take before it counts as unanswered (at most 1h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l ack-within -d 'How fast the valid delivery must be acknowledged for fast-ack (Slack retries after 3s, GitHub gives up after 10s) (at most 1m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l max-requests -d 'Send at most this many requests to the receiver (--count-url reads not counted): the suite stops before the one that would exceed it, with exit status 2' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l proxy -d 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l format -r -f -a "human\t'A table, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
junit\t'JUnit XML, for CI dashboards'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c webhook -n "__fish_webhook_using_subcommand check" -l only -d 'Judge only this check (repeatable; --list shows the ids)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l skip -d 'Leave this check out (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l expect-fail -d 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check" -l junit-warnings -d 'How an advisory warning appears in --format junit' -r -f -a "skipped\t'`<skipped message="warning: …">`: dashboards show it, the build stays green'
passed\t'A passing test case, the warning in its system-out'
failed\t'A `<failure>`: dashboards turn red (the exit status is unchanged)'"
complete -c webhook -n "__fish_webhook_using_subcommand check" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand check" -l http2 -d 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the concurrent copies go as one HTTP/2 single packet (on https, ALPN decides)'
complete -c webhook -n "__fish_webhook_using_subcommand check" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand check" -s k -l insecure -d 'Accept any TLS certificate (self-signed local receivers)'
complete -c webhook -n "__fish_webhook_using_subcommand check" -l strict -d 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
complete -c webhook -n "__fish_webhook_using_subcommand check" -l list -d 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
complete -c webhook -n "__fish_webhook_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand check" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l addr -d 'The address to receive on (port 0 picks a free one, printed on the first line)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l path -d 'Receive on this path only (others get 404) [default: any path]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l scheme -d 'The scheme the sender signs with, or auto to pick it per attempt from the signature header' -r -f -a "auto\t'The scheme whose signature header the request carries'
hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l public-key -d '--scheme standard: the sender\'s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l tolerance -d 'How far a signed timestamp may be from this receiver\'s clock (at most 24h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l script -d 'How each event\'s attempts are answered: statuses, STATUS:SECONDS for a Retry-After, hold for no answer until the sender gives up; `;` between events (later events get 200)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l events -d 'How many events to wait for (at most 10000) [default: the number of events in the script]' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l timeout -d 'The longest to wait for the sender and the script to play out (at most 24h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l record -d 'Append every attempt to this JSON-lines journal, as webhook listen --record does' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l format -r -f -a "human\t'A table, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
junit\t'JUnit XML, for CI dashboards'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l only -d 'Judge only this check (repeatable; --list shows the ids)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l skip -d 'Leave this check out (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l expect-fail -d 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l junit-warnings -d 'How an advisory warning appears in --format junit' -r -f -a "skipped\t'`<skipped message="warning: …">`: dashboards show it, the build stays green'
passed\t'A passing test case, the warning in its system-out'
failed\t'A `<failure>`: dashboards turn red (the exit status is unchanged)'"
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l strict -d 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -l list -d 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand check-sender" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l addr -d 'The address to listen on (port 0 picks a free one, printed on the first line)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l path -d 'Receive on this path only (others get 404) [default: any path]' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l scheme -d 'The signing scheme the sender uses, or auto to pick it from the headers among --allow' -r -f -a "auto\t'The scheme whose signature header the request carries'
hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l allow -d 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l public-key -d '--scheme standard: the sender\'s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l tolerance -d 'How far a signed timestamp may be from now, in either direction (at most 24h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l public-url -d 'The URL the provider was given, for schemes that sign it (twilio, square, hubspot): a whole webhook URL is signed as is; an origin (https://abc.tunnel.example) gets each request\'s path and query [default: the local URL the request arrived at]' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l verify-token -d 'The verify token of Meta\'s subscription check (GET ?hub.mode=subscribe&hub.verify_token=…): the challenge is answered only to this token, 403 otherwise' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l verify-token-file -d '--verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l max-body -d 'Bodies larger than this get 413 (at most 1GiB)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l ui -d 'Serve the inspector: a page listing deliveries live, at the URL printed as `inspector: URL` (its token included); on a port of its own at 127.0.0.1 unless ADDR is given' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l ui-path -d 'Serve the inspector under this path of the listener\'s own address instead (e.g. /_idem), token-guarded the same; a delivery to it is refused, never taken for a webhook' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l record -d 'Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l forward-to -d 'Pass each accepted delivery on to exactly this URL and answer with its status and body (the route for every event type no --route claims)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l route -d 'Forward deliveries whose event type matches GLOB (`*` any run of characters, `?` one) to URL; repeatable, the first match wins, \'*=URL\' takes the rest (unmatched ones are acknowledged here)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l forward-retries -d 'Retry a forward that got no answer, a 5xx or a 429 this many times (at most 20), waiting --forward-backoff, then twice as long each time (at most 10s)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l forward-backoff -d 'The wait before the first forward retry (at most 1m)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l re-sign -d 'Verify the provider\'s signature, then forward signed again with this local secret (same scheme), so the application never holds the provider\'s secret' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l re-sign-file -d '--re-sign\'s secret read from a file (a trailing newline is dropped), out of `ps` and shell history' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l forward-timeout -d 'How long the forward target may take to answer before the sender gets 504 (at most 1h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l dedupe-window -d 'Remember an event id this long after its first valid delivery (at most 168h, a week)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l dedupe-max -d 'Remember at most this many event ids; the oldest is forgotten first (at most 10000000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l status -d 'Answer accepted deliveries with this status (e.g. 500 to make a sender retry)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l fail-first -d 'Answer the first N attempts of each event id with 500; later attempts succeed (at most 1000)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l delay -d 'Wait this long before answering (to trip a sender\'s timeout) (at most 1h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l idle-timeout -d 'Close a connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long fails too (at most 1h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l format -d 'human: a colored line per delivery; json: a JSON line per delivery (see docs/json-output.md)' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l accept-invalid -d 'Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l confirm-subscriptions -d '--scheme sns: confirm the subscription of an authentic SubscriptionConfirmation by visiting its SubscribeURL, only on SNS\'s host (through --trust-ca and --connect-to when given)'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l fsync -d 'Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l ack-always -d 'Acknowledge every accepted delivery 200 once journaled, whatever the forward target answered [default: pass the application\'s status back; 502 when it is down, 504 when it timed out]'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l forward-http2 -d 'Forward over HTTP/2: prior knowledge (h2c) on http://, ALPN on https://'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l print-secret -d 'Print the --re-sign secret in the start-up lines, for the application\'s configuration'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l dedupe -d 'Answer a repeat of an acknowledged event directly instead of forwarding it again'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -s v -l verbose -d 'Show each delivery\'s headers and body too'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -l include-body -d 'With --format json: put each delivery\'s body in its line too'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand listen" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l type -d 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l status -d 'Only deliveries answered with this status (502) or class (5xx)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l since -d 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l ui -d 'Serve the inspector\'s page over this journal (live as a listener appends to it), at the URL printed as `inspector: URL`; on a port of its own at 127.0.0.1 unless ADDR is given' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l diff -d 'Compare FILE (a) with this second journal (b) as two series: events only in each, in both, delivered a different number of times, deliveries per event type, where their orders part. Exit 0 when the series are the same, 1 when they differ' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l compare -d 'With --ui: the page also compares FILE with this second journal, as --diff does' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l format -d 'human: a line per delivery; json: the journal\'s own lines (schemas/journal-record.json)' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -l follow -d 'Keep printing deliveries as a running listener appends them, until Ctrl-C'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -a "list" -d 'List the deliveries (the default)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -a "show" -d 'Print one delivery in full: headers, pretty body, the verification and the forward'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -a "replay" -d 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and not __fish_seen_subcommand_from list show replay help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l type -d 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l status -d 'Only deliveries answered with this status (502) or class (5xx)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l since -d 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l format -d 'human: a line per delivery; json: the journal\'s own lines (schemas/journal-record.json)' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -l follow -d 'Keep printing deliveries as a running listener appends them, until Ctrl-C'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l type -d 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l status -d 'Only deliveries answered with this status (502) or class (5xx)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l since -d 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l format -d 'human: a line per delivery; json: the journal\'s own lines (schemas/journal-record.json)' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -l follow -d 'Keep printing deliveries as a running listener appends them, until Ctrl-C'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l scheme -d 'The scheme to re-sign with [default: the one the delivery was verified with]' -r -f -a "hmac\t'X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)'
github\t'X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event'
stripe\t'Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
standard\t'Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)'
slack\t'X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"'
shopify\t'X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id'
meta\t'Meta (WhatsApp, Messenger, Instagram): X-Hub-Signature-256: sha256=<hex> over the body, keyed with the app secret'
zoom\t'x-zm-signature: v0=<hex> over "v0:<x-zm-request-timestamp>:<body>", keyed with the secret token'
twitch\t'Twitch EventSub: Twitch-Eventsub-Message-Signature: sha256=<hex> over message id + timestamp + body'
typeform\t'Typeform-Signature: sha256=<base64> over the body'
intercom\t'X-Hub-Signature: sha1=<hex> (HMAC-SHA1) over the body, keyed with the app\'s client secret'
vercel\t'x-vercel-signature: <hex> HMAC-SHA1 over the body'
bitbucket\t'Bitbucket Cloud: X-Hub-Signature: sha256=<hex> over the body (the GitHub header name, SHA-256)'
coinbase-commerce\t'Coinbase Commerce: X-CC-Webhook-Signature: <hex> over the body, keyed with the shared secret'
linear\t'Linear-Signature: <hex> over the body, with Linear-Delivery and Linear-Event'
discord\t'Discord interactions: X-Signature-Ed25519: <hex> Ed25519 over "<X-Signature-Timestamp><body>"; sign with the private key (hex seed or PEM), verify with the application\'s public key (hex)'
sendgrid\t'SendGrid Event Webhook: X-Twilio-Email-Event-Webhook-Signature: <base64 DER> ECDSA P-256 over "<X-Twilio-Email-Event-Webhook-Timestamp><body>"; sign with the private key (PEM), verify with the verification key (base64)'
paddle\t'Paddle Billing: Paddle-Signature: ts=<unix>;h1=<hex> over "<ts>:<body>"'
calendly\t'Calendly-Webhook-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
mux\t'Mux-Signature: t=<unix>,v1=<hex> over "<t>.<body>"'
gitlab\t'X-Gitlab-Token: the secret token itself (a shared token, not a signature), with X-Gitlab-Event'
woocommerce\t'X-WC-Webhook-Signature: <base64> over the body, with X-WC-Webhook-Delivery-ID and X-WC-Webhook-Topic'
sentry\t'Sentry-Hook-Signature: <hex> over the body, with Request-ID and Sentry-Hook-Resource'
razorpay\t'X-Razorpay-Signature: <hex> over the body, with the webhook secret'
dropbox\t'X-Dropbox-Signature: <hex> over the body, with the app secret'
mailgun\t'in the JSON body: signature.signature, hex HMAC-SHA256 of signature.timestamp + signature.token'
adyen\t'in the JSON body: each notification item\'s additionalData.hmacSignature, base64 HMAC-SHA256 (hex key) of its fields joined by \':\''
twilio\t'X-Twilio-Signature: <base64> HMAC-SHA1 over the URL + sorted form parameters (a JSON body through bodySHA256 in the URL)'
square\t'x-square-hmacsha256-signature: <base64> HMAC-SHA256 over the notification URL + body'
hubspot\t'X-HubSpot-Signature-v3: <base64> HMAC-SHA256 over method + URI + body + X-HubSpot-Request-Timestamp (milliseconds)'
sns\t'AWS SNS: the JSON message\'s Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com'
paypal\t'PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over "<transmission id>|<time>|<webhook id>|<crc32 of body>", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal\'s API host'
svix\t'alias of standard, under svix-id, svix-timestamp, svix-signature'
clerk\t'alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature'
resend\t'alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature'
replicate\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'
openai\t'alias of standard: webhook-id, webhook-timestamp, webhook-signature'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l secret -d 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l secret-file -d 'Read the secret from this file (one trailing newline is dropped)' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l scheme-file -d 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l signature-header -d '--scheme hmac: the header that carries the signature [default: X-Signature]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l encoding -d '--scheme hmac: how the signature is written [default: hex]' -r -f -a "hex\t'Lower-case hex digits'
base64\t'Standard base64 with padding'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l prefix -d '--scheme hmac: text before the signature, may be empty [default: sha256=]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l cert-url -d '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider\'s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l webhook-id -d '--scheme paypal: the webhook id (the receiver\'s, from PayPal\'s dashboard), which PayPal signs' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l trust-ca -d '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI\'s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider\'s host' -r -F
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l connect-to -d '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl\'s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l as -d 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]' -r -f -a "github\t''
slack\t''
stripe\t''
standard\t''"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l max-attempts -d 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider\'s count with --as or --event PROVIDER:TYPE]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l backoff -d 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l backoff-max -d 'The backoff cap never grows beyond this (at most 24h) [default: 1h]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l schedule -d 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe\'s test mode' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l time-scale -d 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l timeout -d 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider\'s with --as or --event PROVIDER:TYPE: Slack\'s 3s]' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l max-requests -d 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l proxy -d 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l type -d 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l status -d 'Only deliveries answered with this status (502) or class (5xx)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l since -d 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)' -r
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l format -d 'human: a line per delivery; json: the journal\'s own lines (schemas/journal-record.json)' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l svix -d 'Standard Webhooks under Svix\'s header names (svix-id, svix-timestamp, svix-signature)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l verbatim -d 'Send the recorded headers unchanged, stale signature included (needs no secret)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -s k -l insecure -d 'Accept any TLS certificate (self-signed local receivers)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -l follow -d 'Keep printing deliveries as a running listener appends them, until Ctrl-C'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from replay" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the deliveries (the default)'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print one delivery in full: headers, pretty body, the verification and the forward'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "replay" -d 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
complete -c webhook -n "__fish_webhook_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c webhook -n "__fish_webhook_using_subcommand completions" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c webhook -n "__fish_webhook_using_subcommand completions" -s h -l help -d 'Print help'
complete -c webhook -n "__fish_webhook_using_subcommand completions" -s V -l version -d 'Print version'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "sign" -d 'Sign a payload the way a provider would and print the headers, a curl command or a raw request'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "verify" -d 'Check a received webhook\'s signature and say exactly why it fails'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "secret" -d 'Print a new random signing secret in the scheme\'s usual form'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "schemes" -d 'List the signing schemes --scheme takes: the built-in ones and the providers described as data'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "send" -d 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "replay" -d 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "race" -d 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "check" -d 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "check-sender" -d 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "listen" -d 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "journal" -d 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c webhook -n "__fish_webhook_using_subcommand help; and not __fish_seen_subcommand_from sign verify secret schemes send replay race check check-sender listen journal completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c webhook -n "__fish_webhook_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "list" -d 'List the deliveries (the default)'
complete -c webhook -n "__fish_webhook_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "show" -d 'Print one delivery in full: headers, pretty body, the verification and the forward'
complete -c webhook -n "__fish_webhook_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "replay" -d 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
