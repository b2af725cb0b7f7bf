
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'webhook' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'webhook'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'webhook' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a payload the way a provider would and print the headers, a curl command or a raw request')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check a received webhook''s signature and say exactly why it fails')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Print a new random signing secret in the scheme''s usual form')
            [CompletionResult]::new('schemes', 'schemes', [CompletionResultType]::ParameterValue, 'List the signing schemes --scheme takes: the built-in ones and the providers described as data')
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)')
            [CompletionResult]::new('race', 'race', [CompletionResultType]::ParameterValue, 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones')
            [CompletionResult]::new('check-sender', 'check-sender', [CompletionResultType]::ParameterValue, 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'webhook;sign' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)')
            [CompletionResult]::new('--unset', '--unset', [CompletionResultType]::ParameterName, 'With --event: remove a field of the built body (repeatable)')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme [default: the template''s provider with --event PROVIDER:TYPE, else hmac]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Sign this delivery id (and use it as the envelope''s event id) instead of a fresh one')
            [CompletionResult]::new('--timestamp', '--timestamp', [CompletionResultType]::ParameterName, 'Sign this Unix timestamp instead of now (not negative, at most 253402300799: the year 9999)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'What to print')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Where the webhook goes: for --format curl and http, and signed by the schemes that sign the URL (twilio, square, hubspot)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;verify' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body as received: DATA, @file or @- (default: the body of --request, else stdin)')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body as received: DATA, @file or @- (default: the body of --request, else stdin)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A received header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A received header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--request', '--request', [CompletionResultType]::ParameterName, 'A raw HTTP request (as `webhook sign --format http` writes one, or captured off the wire)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The URL the provider was given (the webhook URL in its dashboard), for schemes that sign it (twilio, square, hubspot)')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme the sender uses, or auto to pick it from the headers among --allow')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--public-key', '--public-key', [CompletionResultType]::ParameterName, '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped')
            [CompletionResult]::new('--tolerance', '--tolerance', [CompletionResultType]::ParameterName, 'How far a signed timestamp may be from now, in either direction (at most 24h)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Judge timestamps as if it were this Unix time (to check a recorded delivery) (not negative, at most 253402300799: the year 9999)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;secret' {
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The scheme the secret is for: whsec_ + base64 for standard and stripe, a key pair for discord and sendgrid, hex for the others')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'The scheme a JSON file describes (as --scheme-file of sign and verify), in place of --scheme')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: the secret (and the public key) one a line, a key-pair provider''s labelled; json: {"secret", "public"}')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, '--scheme sns|paypal: the directory to write a local CA (ca.pem, for the receiver''s --trust-ca), the sender''s RSA key (key.pem) and the signing certificate (cert.pem, to serve) into')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--asymmetric', '--asymmetric', [CompletionResultType]::ParameterName, '--scheme standard: an Ed25519 key pair for v1a signatures (whsk_ secret key, whpk_ public key)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;schemes' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a line per scheme, its name and what it signs; json: every scheme with its headers, algorithm and source')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'List this described scheme too, after the built-in ones (checked as every command that takes it checks it; repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;send' {
            [CompletionResult]::new('--list-events', '--list-events', [CompletionResultType]::ParameterName, 'List the provider templates --event PROVIDER:TYPE takes (of one provider, or all) and exit; with --format json, as a document for scripts')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)')
            [CompletionResult]::new('--unset', '--unset', [CompletionResultType]::ParameterName, 'With --event: remove a field of the built body (repeatable)')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme [default: the template''s provider with --event PROVIDER:TYPE, else the provider of --as, else hmac]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Use this delivery id (and envelope event id) instead of a fresh one')
            [CompletionResult]::new('--times', '--times', [CompletionResultType]::ParameterName, 'Deliver the same event this many times, as a provider''s duplicate deliveries do (at most 10000)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many of the --times deliveries run at once (at most 1000)')
            [CompletionResult]::new('--handshake', '--handshake', [CompletionResultType]::ParameterName, 'Perform an endpoint handshake first, and judge the answer as the provider does: the scheme''s provider''s (Slack url_verification, Discord PING, Zoom endpoint.url_validation, Twitch callback verification, Meta''s hub.challenge with --verify-token, Dropbox''s challenge), or the one named: --handshake=graph (Microsoft Graph validationToken), event-grid (Azure Event Grid validationCode), cloudevents (the CloudEvents webhook OPTIONS request), x-crc (X''s CRC, answered with the --secret); a receiver that fails it gets no event, and the exit status is 2')
            [CompletionResult]::new('--verify-token', '--verify-token', [CompletionResultType]::ParameterName, 'The verify token Meta''s handshake carries (with --handshake --scheme meta)')
            [CompletionResult]::new('--verify-token-file', '--verify-token-file', [CompletionResultType]::ParameterName, '--verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]')
            [CompletionResult]::new('--backoff-max', '--backoff-max', [CompletionResultType]::ParameterName, 'The backoff cap never grows beyond this (at most 24h) [default: 1h]')
            [CompletionResult]::new('--schedule', '--schedule', [CompletionResultType]::ParameterName, 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode')
            [CompletionResult]::new('--time-scale', '--time-scale', [CompletionResultType]::ParameterName, 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--chain', '--chain', [CompletionResultType]::ParameterName, 'With --event stripe:checkout.session.completed or stripe:payment_intent.succeeded, send the events around it as Stripe creates them (payment_intent.created, payment_intent.succeeded, charge.succeeded, then the session), their ids linked, one after another; --set and --unset apply to each')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;replay' {
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme to re-sign with [default: the one each journal line recorded; a line that recorded none, or a file of events, needs --scheme]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--event-type', '--event-type', [CompletionResultType]::ParameterName, 'Only entries whose event type matches this glob, as `webhook journal --type` reads it (`*` any run of characters, `?` one: ''customer.subscription.*''; repeatable)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Only the entry with this event id (repeatable)')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Start at most this many deliveries per second, minute or hour: 10/s, 30/m, 100/h, 1/5s (at most 1h between two starts)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]')
            [CompletionResult]::new('--backoff-max', '--backoff-max', [CompletionResultType]::ParameterName, 'The backoff cap never grows beyond this (at most 24h) [default: 1h]')
            [CompletionResult]::new('--schedule', '--schedule', [CompletionResultType]::ParameterName, 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode')
            [CompletionResult]::new('--time-scale', '--time-scale', [CompletionResultType]::ParameterName, 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--order', '--order', [CompletionResultType]::ParameterName, 'The order the deliveries go out in (receivers must cope with any: providers promise none)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'With --order shuffle: the shuffle''s seed, to repeat an order [default: a random one, printed]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--resign', '--resign', [CompletionResultType]::ParameterName, 'Sign every entry again with a fresh timestamp, keeping the recorded delivery id (the default)')
            [CompletionResult]::new('--verbatim', '--verbatim', [CompletionResultType]::ParameterName, 'Send the recorded headers unchanged, stale signature included, to check that the receiver refuses a replay (needs no secret)')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only events whose last recorded delivery failed (the listener answered other than 2xx, or its forward was not delivered); a journal only')
            [CompletionResult]::new('--latest-per-event', '--latest-per-event', [CompletionResultType]::ParameterName, 'One copy of each event, its latest delivery (with --failed: each failed event once, as the Stripe CLI''s `events resend` does)')
            [CompletionResult]::new('--include-invalid', '--include-invalid', [CompletionResultType]::ParameterName, 'With re-signing, also replay deliveries the listener recorded as invalid (they become valid)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;race' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)')
            [CompletionResult]::new('--unset', '--unset', [CompletionResultType]::ParameterName, 'With --event: remove a field of the built body (repeatable)')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme the receiver verifies [default: the template''s provider with --event PROVIDER:TYPE]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Use this delivery id (and envelope event id) instead of a fresh one per round')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Identical copies released together per round (at least 2, at most 1000)')
            [CompletionResult]::new('--requests', '--requests', [CompletionResultType]::ParameterName, 'Identical copies released together per round (at least 2, at most 1000)')
            [CompletionResult]::new('--rounds', '--rounds', [CompletionResultType]::ParameterName, 'Rounds to run, each with a fresh delivery (at most 10000)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many copies in all (--count-url reads not counted): the race stops before the round that would exceed it, with exit status 2')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long each copy''s answer may take (at most 1h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the copies go as one HTTP/2 single packet (on https, ALPN decides)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;check' {
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme the receiver verifies (required: signing with another would make every rejection pass for the wrong reason)')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many identical copies of one delivery concurrent-duplicates-processed-once releases together (at least 2, at most 1000)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many identical copies of one delivery concurrent-duplicates-processed-once releases together (at least 2, at most 1000)')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Valid deliveries are events of this type (the receiver must handle it) [default: webhook.check]')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Valid deliveries carry this body (DATA, @file or @-; a JSON object''s top-level id is made fresh per delivery); with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'Valid deliveries carry this body (DATA, @file or @-; a JSON object''s top-level id is made fresh per delivery); with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--tolerance', '--tolerance', [CompletionResultType]::ParameterName, 'The receiver''s timestamp tolerance; stale and future deliveries are signed 10 minutes or twice this from now, whichever is further (at most 24h)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long each request may take before it counts as unanswered (at most 1h)')
            [CompletionResult]::new('--ack-within', '--ack-within', [CompletionResultType]::ParameterName, 'How fast the valid delivery must be acknowledged for fast-ack (Slack retries after 3s, GitHub gives up after 10s) (at most 1m)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests to the receiver (--count-url reads not counted): the suite stops before the one that would exceed it, with exit status 2')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Judge only this check (repeatable; --list shows the ids)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Leave this check out (repeatable)')
            [CompletionResult]::new('--expect-fail', '--expect-fail', [CompletionResultType]::ParameterName, 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)')
            [CompletionResult]::new('--junit-warnings', '--junit-warnings', [CompletionResultType]::ParameterName, 'How an advisory warning appears in --format junit')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the concurrent copies go as one HTTP/2 single packet (on https, ALPN decides)')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print every check of this suite (id, level, what it proves, how to fix it) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;check-sender' {
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'The address to receive on (port 0 picks a free one, printed on the first line)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Receive on this path only (others get 404) [default: any path]')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The scheme the sender signs with, or auto to pick it per attempt from the signature header')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--public-key', '--public-key', [CompletionResultType]::ParameterName, '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped')
            [CompletionResult]::new('--tolerance', '--tolerance', [CompletionResultType]::ParameterName, 'How far a signed timestamp may be from this receiver''s clock (at most 24h)')
            [CompletionResult]::new('--script', '--script', [CompletionResultType]::ParameterName, 'How each event''s attempts are answered: statuses, STATUS:SECONDS for a Retry-After, hold for no answer until the sender gives up; `;` between events (later events get 200)')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'How many events to wait for (at most 10000) [default: the number of events in the script]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The longest to wait for the sender and the script to play out (at most 24h)')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Append every attempt to this JSON-lines journal, as webhook listen --record does')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Judge only this check (repeatable; --list shows the ids)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Leave this check out (repeatable)')
            [CompletionResult]::new('--expect-fail', '--expect-fail', [CompletionResultType]::ParameterName, 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)')
            [CompletionResult]::new('--junit-warnings', '--junit-warnings', [CompletionResultType]::ParameterName, 'How an advisory warning appears in --format junit')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print every check of this suite (id, level, what it proves, how to fix it) and exit')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;listen' {
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'The address to listen on (port 0 picks a free one, printed on the first line)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Receive on this path only (others get 404) [default: any path]')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme the sender uses, or auto to pick it from the headers among --allow')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--public-key', '--public-key', [CompletionResultType]::ParameterName, '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped')
            [CompletionResult]::new('--tolerance', '--tolerance', [CompletionResultType]::ParameterName, 'How far a signed timestamp may be from now, in either direction (at most 24h)')
            [CompletionResult]::new('--public-url', '--public-url', [CompletionResultType]::ParameterName, 'The URL the provider was given, for schemes that sign it (twilio, square, hubspot): a whole webhook URL is signed as is; an origin (https://abc.tunnel.example) gets each request''s path and query [default: the local URL the request arrived at]')
            [CompletionResult]::new('--verify-token', '--verify-token', [CompletionResultType]::ParameterName, 'The verify token of Meta''s subscription check (GET ?hub.mode=subscribe&hub.verify_token=…): the challenge is answered only to this token, 403 otherwise')
            [CompletionResult]::new('--verify-token-file', '--verify-token-file', [CompletionResultType]::ParameterName, '--verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Bodies larger than this get 413 (at most 1GiB)')
            [CompletionResult]::new('--ui', '--ui', [CompletionResultType]::ParameterName, 'Serve the inspector: a page listing deliveries live, at the URL printed as `inspector: URL` (its token included); on a port of its own at 127.0.0.1 unless ADDR is given')
            [CompletionResult]::new('--ui-path', '--ui-path', [CompletionResultType]::ParameterName, 'Serve the inspector under this path of the listener''s own address instead (e.g. /_idem), token-guarded the same; a delivery to it is refused, never taken for a webhook')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)')
            [CompletionResult]::new('--forward-to', '--forward-to', [CompletionResultType]::ParameterName, 'Pass each accepted delivery on to exactly this URL and answer with its status and body (the route for every event type no --route claims)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Forward deliveries whose event type matches GLOB (`*` any run of characters, `?` one) to URL; repeatable, the first match wins, ''*=URL'' takes the rest (unmatched ones are acknowledged here)')
            [CompletionResult]::new('--forward-retries', '--forward-retries', [CompletionResultType]::ParameterName, 'Retry a forward that got no answer, a 5xx or a 429 this many times (at most 20), waiting --forward-backoff, then twice as long each time (at most 10s)')
            [CompletionResult]::new('--forward-backoff', '--forward-backoff', [CompletionResultType]::ParameterName, 'The wait before the first forward retry (at most 1m)')
            [CompletionResult]::new('--re-sign', '--re-sign', [CompletionResultType]::ParameterName, 'Verify the provider''s signature, then forward signed again with this local secret (same scheme), so the application never holds the provider''s secret')
            [CompletionResult]::new('--re-sign-file', '--re-sign-file', [CompletionResultType]::ParameterName, '--re-sign''s secret read from a file (a trailing newline is dropped), out of `ps` and shell history')
            [CompletionResult]::new('--forward-timeout', '--forward-timeout', [CompletionResultType]::ParameterName, 'How long the forward target may take to answer before the sender gets 504 (at most 1h)')
            [CompletionResult]::new('--dedupe-window', '--dedupe-window', [CompletionResultType]::ParameterName, 'Remember an event id this long after its first valid delivery (at most 168h, a week)')
            [CompletionResult]::new('--dedupe-max', '--dedupe-max', [CompletionResultType]::ParameterName, 'Remember at most this many event ids; the oldest is forgotten first (at most 10000000)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Answer accepted deliveries with this status (e.g. 500 to make a sender retry)')
            [CompletionResult]::new('--fail-first', '--fail-first', [CompletionResultType]::ParameterName, 'Answer the first N attempts of each event id with 500; later attempts succeed (at most 1000)')
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'Wait this long before answering (to trip a sender''s timeout) (at most 1h)')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'Close a connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long fails too (at most 1h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a colored line per delivery; json: a JSON line per delivery (see docs/json-output.md)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--accept-invalid', '--accept-invalid', [CompletionResultType]::ParameterName, 'Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)')
            [CompletionResult]::new('--confirm-subscriptions', '--confirm-subscriptions', [CompletionResultType]::ParameterName, '--scheme sns: confirm the subscription of an authentic SubscriptionConfirmation by visiting its SubscribeURL, only on SNS''s host (through --trust-ca and --connect-to when given)')
            [CompletionResult]::new('--fsync', '--fsync', [CompletionResultType]::ParameterName, 'Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries')
            [CompletionResult]::new('--ack-always', '--ack-always', [CompletionResultType]::ParameterName, 'Acknowledge every accepted delivery 200 once journaled, whatever the forward target answered [default: pass the application''s status back; 502 when it is down, 504 when it timed out]')
            [CompletionResult]::new('--forward-http2', '--forward-http2', [CompletionResultType]::ParameterName, 'Forward over HTTP/2: prior knowledge (h2c) on http://, ALPN on https://')
            [CompletionResult]::new('--print-secret', '--print-secret', [CompletionResultType]::ParameterName, 'Print the --re-sign secret in the start-up lines, for the application''s configuration')
            [CompletionResult]::new('--dedupe', '--dedupe', [CompletionResultType]::ParameterName, 'Answer a repeat of an acknowledged event directly instead of forwarding it again')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each delivery''s headers and body too')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each delivery''s headers and body too')
            [CompletionResult]::new('--include-body', '--include-body', [CompletionResultType]::ParameterName, 'With --format json: put each delivery''s body in its line too')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;journal' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only deliveries answered with this status (502) or class (5xx)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)')
            [CompletionResult]::new('--ui', '--ui', [CompletionResultType]::ParameterName, 'Serve the inspector''s page over this journal (live as a listener appends to it), at the URL printed as `inspector: URL`; on a port of its own at 127.0.0.1 unless ADDR is given')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Compare FILE (a) with this second journal (b) as two series: events only in each, in both, delivered a different number of times, deliveries per event type, where their orders part. Exit 0 when the series are the same, 1 when they differ')
            [CompletionResult]::new('--compare', '--compare', [CompletionResultType]::ParameterName, 'With --ui: the page also compares FILE with this second journal, as --diff does')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing deliveries as a running listener appends them, until Ctrl-C')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the deliveries (the default)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print one delivery in full: headers, pretty body, the verification and the forward')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'webhook;journal;list' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only deliveries answered with this status (502) or class (5xx)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing deliveries as a running listener appends them, until Ctrl-C')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;journal;show' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only deliveries answered with this status (502) or class (5xx)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing deliveries as a running listener appends them, until Ctrl-C')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;journal;replay' {
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The scheme to re-sign with [default: the one the delivery was verified with]')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--scheme-file', '--scheme-file', [CompletionResultType]::ParameterName, 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--cert-url', '--cert-url', [CompletionResultType]::ParameterName, '--scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the provider''s host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)')
            [CompletionResult]::new('--webhook-id', '--webhook-id', [CompletionResultType]::ParameterName, '--scheme paypal: the webhook id (the receiver''s, from PayPal''s dashboard), which PayPal signs')
            [CompletionResult]::new('--trust-ca', '--trust-ca', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued by this CA instead of the web PKI''s roots (`webhook secret --scheme sns --out DIR` writes DIR/ca.pem); the certificate URL must still be on the provider''s host')
            [CompletionResult]::new('--connect-to', '--connect-to', [CompletionResultType]::ParameterName, '--scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as curl''s --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]')
            [CompletionResult]::new('--backoff-max', '--backoff-max', [CompletionResultType]::ParameterName, 'The backoff cap never grows beyond this (at most 24h) [default: 1h]')
            [CompletionResult]::new('--schedule', '--schedule', [CompletionResultType]::ParameterName, 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode')
            [CompletionResult]::new('--time-scale', '--time-scale', [CompletionResultType]::ParameterName, 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only deliveries answered with this status (502) or class (5xx)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--svix', '--svix', [CompletionResultType]::ParameterName, 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)')
            [CompletionResult]::new('--verbatim', '--verbatim', [CompletionResultType]::ParameterName, 'Send the recorded headers unchanged, stale signature included (needs no secret)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed local receivers)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing deliveries as a running listener appends them, until Ctrl-C')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;journal;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the deliveries (the default)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print one delivery in full: headers, pretty body, the verification and the forward')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'webhook;journal;help;list' {
            break
        }
        'webhook;journal;help;show' {
            break
        }
        'webhook;journal;help;replay' {
            break
        }
        'webhook;journal;help;help' {
            break
        }
        'webhook;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'webhook;help' {
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a payload the way a provider would and print the headers, a curl command or a raw request')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check a received webhook''s signature and say exactly why it fails')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Print a new random signing secret in the scheme''s usual form')
            [CompletionResult]::new('schemes', 'schemes', [CompletionResultType]::ParameterValue, 'List the signing schemes --scheme takes: the built-in ones and the providers described as data')
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)')
            [CompletionResult]::new('race', 'race', [CompletionResultType]::ParameterValue, 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones')
            [CompletionResult]::new('check-sender', 'check-sender', [CompletionResultType]::ParameterValue, 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'webhook;help;sign' {
            break
        }
        'webhook;help;verify' {
            break
        }
        'webhook;help;secret' {
            break
        }
        'webhook;help;schemes' {
            break
        }
        'webhook;help;send' {
            break
        }
        'webhook;help;replay' {
            break
        }
        'webhook;help;race' {
            break
        }
        'webhook;help;check' {
            break
        }
        'webhook;help;check-sender' {
            break
        }
        'webhook;help;listen' {
            break
        }
        'webhook;help;journal' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the deliveries (the default)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print one delivery in full: headers, pretty body, the verification and the forward')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim')
            break
        }
        'webhook;help;journal;list' {
            break
        }
        'webhook;help;journal;show' {
            break
        }
        'webhook;help;journal;replay' {
            break
        }
        'webhook;help;completions' {
            break
        }
        'webhook;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
