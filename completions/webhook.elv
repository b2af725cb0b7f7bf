
use builtin;
use str;

set edit:completion:arg-completer[webhook] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'webhook'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'webhook'= {
            cand --color 'When to color the output'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand sign 'Sign a payload the way a provider would and print the headers, a curl command or a raw request'
            cand verify 'Check a received webhook''s signature and say exactly why it fails'
            cand secret 'Print a new random signing secret in the scheme''s usual form'
            cand schemes 'List the signing schemes --scheme takes: the built-in ones and the providers described as data'
            cand send 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff'
            cand replay 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)'
            cand race 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?'
            cand check 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones'
            cand check-sender 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids'
            cand listen 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
            cand journal 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;sign'= {
            cand -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --data 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --event 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)'
            cand --set 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)'
            cand --unset 'With --event: remove a field of the built body (repeatable)'
            cand --scheme 'The signing scheme [default: the template''s provider with --event PROVIDER:TYPE, else hmac]'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --id 'Sign this delivery id (and use it as the envelope''s event id) instead of a fresh one'
            cand --timestamp 'Sign this Unix timestamp instead of now (not negative, at most 253402300799: the year 9999)'
            cand --format 'What to print'
            cand --url 'Where the webhook goes: for --format curl and http, and signed by the schemes that sign the URL (twilio, square, hubspot)'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;verify'= {
            cand -d 'The body as received: DATA, @file or @- (default: the body of --request, else stdin)'
            cand --data 'The body as received: DATA, @file or @- (default: the body of --request, else stdin)'
            cand -H 'A received header, ''Name: value'' (repeatable)'
            cand --header 'A received header, ''Name: value'' (repeatable)'
            cand --request 'A raw HTTP request (as `webhook sign --format http` writes one, or captured off the wire)'
            cand --url 'The URL the provider was given (the webhook URL in its dashboard), for schemes that sign it (twilio, square, hubspot)'
            cand --scheme 'The signing scheme the sender uses, or auto to pick it from the headers among --allow'
            cand --allow 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --public-key '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped'
            cand --tolerance 'How far a signed timestamp may be from now, in either direction (at most 24h)'
            cand --now 'Judge timestamps as if it were this Unix time (to check a recorded delivery) (not negative, at most 253402300799: the year 9999)'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;secret'= {
            cand --scheme 'The scheme the secret is for: whsec_ + base64 for standard and stripe, a key pair for discord and sendgrid, hex for the others'
            cand --scheme-file 'The scheme a JSON file describes (as --scheme-file of sign and verify), in place of --scheme'
            cand --format 'human: the secret (and the public key) one a line, a key-pair provider''s labelled; json: {"secret", "public"}'
            cand --color 'When to color the output'
            cand --asymmetric '--scheme standard: an Ed25519 key pair for v1a signatures (whsk_ secret key, whpk_ public key)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;schemes'= {
            cand --format 'human: a line per scheme, its name and what it signs; json: every scheme with its headers, algorithm and source'
            cand --scheme-file 'List this described scheme too, after the built-in ones (checked as every command that takes it checks it; repeatable)'
            cand --color 'When to color the output'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;send'= {
            cand --list-events 'List the provider templates --event PROVIDER:TYPE takes (of one provider, or all) and exit; with --format json, as a document for scripts'
            cand -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --data 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --event 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)'
            cand --set 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)'
            cand --unset 'With --event: remove a field of the built body (repeatable)'
            cand --scheme 'The signing scheme [default: the template''s provider with --event PROVIDER:TYPE, else the provider of --as, else hmac]'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --id 'Use this delivery id (and envelope event id) instead of a fresh one'
            cand --times 'Deliver the same event this many times, as a provider''s duplicate deliveries do (at most 10000)'
            cand --concurrency 'How many of the --times deliveries run at once (at most 1000)'
            cand --verify-token 'The verify token Meta''s handshake carries (with --handshake --scheme meta)'
            cand --as 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]'
            cand --max-attempts 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]'
            cand --backoff 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]'
            cand --backoff-max 'The backoff cap never grows beyond this (at most 24h) [default: 1h]'
            cand --schedule 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode'
            cand --time-scale 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run'
            cand --timeout 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]'
            cand --max-requests 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --chain 'With --event stripe:checkout.session.completed or stripe:payment_intent.succeeded, send the events around it as Stripe creates them (payment_intent.created, payment_intent.succeeded, charge.succeeded, then the session), their ids linked, one after another; --set and --unset apply to each'
            cand --handshake 'Perform the provider''s endpoint handshake first, and judge the answer as the provider does (Slack url_verification, Discord PING, Zoom endpoint.url_validation, Twitch callback verification, Meta''s hub.challenge with --verify-token, Dropbox''s challenge); a receiver that fails it gets no event, and the exit status is 2'
            cand -k 'Accept any TLS certificate (self-signed local receivers)'
            cand --insecure 'Accept any TLS certificate (self-signed local receivers)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;replay'= {
            cand --scheme 'The signing scheme to re-sign with [default: the one each journal line recorded; a line that recorded none, or a file of events, needs --scheme]'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --event-type 'Only entries of this event type (repeatable)'
            cand --id 'Only the entry with this event id (repeatable)'
            cand --rate 'Start at most this many deliveries per second, minute or hour: 10/s, 30/m, 100/h, 1/5s (at most 1h between two starts)'
            cand --as 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]'
            cand --max-attempts 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]'
            cand --backoff 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]'
            cand --backoff-max 'The backoff cap never grows beyond this (at most 24h) [default: 1h]'
            cand --schedule 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode'
            cand --time-scale 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run'
            cand --timeout 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]'
            cand --max-requests 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --order 'The order the deliveries go out in (receivers must cope with any: providers promise none)'
            cand --seed 'With --order shuffle: the shuffle''s seed, to repeat an order [default: a random one, printed]'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --resign 'Sign every entry again with a fresh timestamp, keeping the recorded delivery id (the default)'
            cand --verbatim 'Send the recorded headers unchanged, stale signature included, to check that the receiver refuses a replay (needs no secret)'
            cand --include-invalid 'With re-signing, also replay deliveries the listener recorded as invalid (they become valid)'
            cand -k 'Accept any TLS certificate (self-signed local receivers)'
            cand --insecure 'Accept any TLS certificate (self-signed local receivers)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;race'= {
            cand -d 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --data 'The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --event 'Build the body as an event envelope {"id","type","created","data"} of this type, or, as PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included (webhook send --list-events)'
            cand --set 'With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is JSON when it parses as JSON, else text (repeatable)'
            cand --unset 'With --event: remove a field of the built body (repeatable)'
            cand --scheme 'The signing scheme the receiver verifies [default: the template''s provider with --event PROVIDER:TYPE]'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --id 'Use this delivery id (and envelope event id) instead of a fresh one per round'
            cand -n 'Identical copies released together per round (at least 2, at most 1000)'
            cand --requests 'Identical copies released together per round (at least 2, at most 1000)'
            cand --rounds 'Rounds to run, each with a fresh delivery (at most 10000)'
            cand --max-requests 'Send at most this many copies in all (--count-url reads not counted): the race stops before the round that would exceed it, with exit status 2'
            cand --count-url 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails'
            cand --count-pointer 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable'
            cand --count-header 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only'
            cand --count-settle 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)'
            cand --count-settle-max 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)'
            cand --timeout 'How long each copy''s answer may take (at most 1h)'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --http2 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the copies go as one HTTP/2 single packet (on https, ALPN decides)'
            cand -k 'Accept any TLS certificate (self-signed local receivers)'
            cand --insecure 'Accept any TLS certificate (self-signed local receivers)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;check'= {
            cand --scheme 'The signing scheme the receiver verifies (required: signing with another would make every rejection pass for the wrong reason)'
            cand --count-url 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails'
            cand --count-pointer 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable'
            cand --count-header 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only'
            cand --count-settle 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)'
            cand --count-settle-max 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)'
            cand -n 'How many identical copies of one delivery concurrent-duplicates-processed-once releases together (at least 2, at most 1000)'
            cand --concurrency 'How many identical copies of one delivery concurrent-duplicates-processed-once releases together (at least 2, at most 1000)'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --event 'Valid deliveries are events of this type (the receiver must handle it) [default: webhook.check]'
            cand -d 'Valid deliveries carry this body (DATA, @file or @-; a JSON object''s top-level id is made fresh per delivery); with --event, the JSON for the envelope''s `data`'
            cand --data 'Valid deliveries carry this body (DATA, @file or @-; a JSON object''s top-level id is made fresh per delivery); with --event, the JSON for the envelope''s `data`'
            cand --tolerance 'The receiver''s timestamp tolerance; stale and future deliveries are signed 10 minutes or twice this from now, whichever is further (at most 24h)'
            cand --timeout 'How long each request may take before it counts as unanswered (at most 1h)'
            cand --ack-within 'How fast the valid delivery must be acknowledged for fast-ack (Slack retries after 3s, GitHub gives up after 10s) (at most 1m)'
            cand --max-requests 'Send at most this many requests to the receiver (--count-url reads not counted): the suite stops before the one that would exceed it, with exit status 2'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --format 'format'
            cand --only 'Judge only this check (repeatable; --list shows the ids)'
            cand --skip 'Leave this check out (repeatable)'
            cand --expect-fail 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)'
            cand --junit-warnings 'How an advisory warning appears in --format junit'
            cand --color 'When to color the output'
            cand --http2 'The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the concurrent copies go as one HTTP/2 single packet (on https, ALPN decides)'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand -k 'Accept any TLS certificate (self-signed local receivers)'
            cand --insecure 'Accept any TLS certificate (self-signed local receivers)'
            cand --strict 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
            cand --list 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;check-sender'= {
            cand --addr 'The address to receive on (port 0 picks a free one, printed on the first line)'
            cand --path 'Receive on this path only (others get 404) [default: any path]'
            cand --scheme 'The scheme the sender signs with, or auto to pick it per attempt from the signature header'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --public-key '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped'
            cand --tolerance 'How far a signed timestamp may be from this receiver''s clock (at most 24h)'
            cand --script 'How each event''s attempts are answered: statuses, STATUS:SECONDS for a Retry-After, hold for no answer until the sender gives up; `;` between events (later events get 200)'
            cand --events 'How many events to wait for (at most 10000) [default: the number of events in the script]'
            cand --timeout 'The longest to wait for the sender and the script to play out (at most 24h)'
            cand --record 'Append every attempt to this JSON-lines journal, as webhook listen --record does'
            cand --format 'format'
            cand --only 'Judge only this check (repeatable; --list shows the ids)'
            cand --skip 'Leave this check out (repeatable)'
            cand --expect-fail 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)'
            cand --junit-warnings 'How an advisory warning appears in --format junit'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --strict 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
            cand --list 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;listen'= {
            cand --addr 'The address to listen on (port 0 picks a free one, printed on the first line)'
            cand --path 'Receive on this path only (others get 404) [default: any path]'
            cand --scheme 'The signing scheme the sender uses, or auto to pick it from the headers among --allow'
            cand --allow 'With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped and an untimestamped scheme keyed with the same secret are refused'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --public-key '--scheme standard: the sender''s Ed25519 public key (whpk_…) to check v1a signatures with, in place of a secret; v1 entries in the same header are skipped'
            cand --tolerance 'How far a signed timestamp may be from now, in either direction (at most 24h)'
            cand --public-url 'The URL the provider was given, for schemes that sign it (twilio, square, hubspot): a whole webhook URL is signed as is; an origin (https://abc.tunnel.example) gets each request''s path and query [default: the local URL the request arrived at]'
            cand --verify-token 'The verify token of Meta''s subscription check (GET ?hub.mode=subscribe&hub.verify_token=…): the challenge is answered only to this token, 403 otherwise'
            cand --max-body 'Bodies larger than this get 413 (at most 1GiB)'
            cand --ui 'Serve the inspector: a page listing deliveries live, at the URL printed as `inspector: URL` (its token included); on a port of its own at 127.0.0.1 unless ADDR is given'
            cand --record 'Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)'
            cand --forward-to 'Pass each accepted delivery on to exactly this URL and answer with its status and body (the route for every event type no --route claims)'
            cand --route 'Forward deliveries whose event type matches GLOB (`*` any run of characters, `?` one) to URL; repeatable, the first match wins, ''*=URL'' takes the rest (unmatched ones are acknowledged here)'
            cand --forward-retries 'Retry a forward that got no answer, a 5xx or a 429 this many times (at most 20), waiting --forward-backoff, then twice as long each time (at most 10s)'
            cand --forward-backoff 'The wait before the first forward retry (at most 1m)'
            cand --re-sign 'Verify the provider''s signature, then forward signed again with this local secret (same scheme), so the application never holds the provider''s secret'
            cand --forward-timeout 'How long the forward target may take to answer before the sender gets 502 (at most 1h)'
            cand --dedupe-window 'Remember an event id this long after its first valid delivery (at most 168h, a week)'
            cand --dedupe-max 'Remember at most this many event ids; the oldest is forgotten first (at most 10000000)'
            cand --status 'Answer accepted deliveries with this status (e.g. 500 to make a sender retry)'
            cand --fail-first 'Answer the first N attempts of each event id with 500; later attempts succeed (at most 1000)'
            cand --delay 'Wait this long before answering (to trip a sender''s timeout) (at most 1h)'
            cand --idle-timeout 'Close a connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long fails too (at most 1h)'
            cand --format 'human: a colored line per delivery; json: a JSON line per delivery (see docs/json-output.md)'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --accept-invalid 'Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)'
            cand --confirm-subscriptions '--scheme sns: confirm the subscription of an authentic SubscriptionConfirmation by visiting its SubscribeURL, only on SNS''s host (through --trust-ca and --connect-to when given)'
            cand --fsync 'Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries'
            cand --ack-always 'Acknowledge every accepted delivery 200 once journaled, whatever the forward target answered [default: pass the application''s status back; 502 when it is down, 504 when it timed out]'
            cand --forward-http2 'Forward over HTTP/2: prior knowledge (h2c) on http://, ALPN on https://'
            cand --print-secret 'Print the --re-sign secret in the start-up lines, for the application''s configuration'
            cand --dedupe 'Answer a repeat of an acknowledged event directly instead of forwarding it again'
            cand -v 'Show each delivery''s headers and body too'
            cand --verbose 'Show each delivery''s headers and body too'
            cand --include-body 'With --format json: put each delivery''s body in its line too'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;journal'= {
            cand --type 'Only deliveries whose event type matches this glob (`*` any run of characters)'
            cand --status 'Only deliveries answered with this status (502) or class (5xx)'
            cand --since 'Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)'
            cand --ui 'Serve the inspector''s page over this journal (live as a listener appends to it), at the URL printed as `inspector: URL`; on a port of its own at 127.0.0.1 unless ADDR is given'
            cand --format 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)'
            cand --color 'When to color the output'
            cand --follow 'Keep printing deliveries as a running listener appends them, until Ctrl-C'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the deliveries (the default)'
            cand show 'Print one delivery in full: headers, pretty body, the verification and the forward'
            cand replay 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;journal;list'= {
            cand --format 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)'
            cand --color 'When to color the output'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;journal;show'= {
            cand --format 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)'
            cand --color 'When to color the output'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;journal;replay'= {
            cand --scheme 'The scheme to re-sign with [default: the one the delivery was verified with]'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --scheme-file 'A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in place of --scheme'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --as 'Deliver as this provider does: its retry schedule and timeout (unless --schedule, --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the provider of --event PROVIDER:TYPE]'
            cand --max-attempts 'Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the provider''s count with --as or --event PROVIDER:TYPE]'
            cand --backoff 'The backoff cap before the first retry; it doubles for each further retry, and the wait is a random time below it (full jitter) (at most 24h) [default: 1s]'
            cand --backoff-max 'The backoff cap never grows beyond this (at most 24h) [default: 1h]'
            cand --schedule 'The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h), `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe''s test mode'
            cand --time-scale 'Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours into seconds for a local run'
            cand --timeout 'How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub allows, or the provider''s with --as or --event PROVIDER:TYPE: Slack''s 3s]'
            cand --max-requests 'Send at most this many requests, attempts and retries included: the run stops before the one that would exceed it, with exit status 2'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --format 'human: a line per delivery; json: the journal''s own lines (schemas/journal-record.json)'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --verbatim 'Send the recorded headers unchanged, stale signature included (needs no secret)'
            cand -k 'Accept any TLS certificate (self-signed local receivers)'
            cand --insecure 'Accept any TLS certificate (self-signed local receivers)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;journal;help'= {
            cand list 'List the deliveries (the default)'
            cand show 'Print one delivery in full: headers, pretty body, the verification and the forward'
            cand replay 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;journal;help;list'= {
        }
        &'webhook;journal;help;show'= {
        }
        &'webhook;journal;help;replay'= {
        }
        &'webhook;journal;help;help'= {
        }
        &'webhook;completions'= {
            cand --color 'When to color the output'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;help'= {
            cand sign 'Sign a payload the way a provider would and print the headers, a curl command or a raw request'
            cand verify 'Check a received webhook''s signature and say exactly why it fails'
            cand secret 'Print a new random signing secret in the scheme''s usual form'
            cand schemes 'List the signing schemes --scheme takes: the built-in ones and the providers described as data'
            cand send 'Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff'
            cand replay 'Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)'
            cand race 'Fire identical copies of one signed delivery at a receiver at the same instant: processed once?'
            cand check 'Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones'
            cand check-sender 'Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids'
            cand listen 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
            cand journal 'Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;help;sign'= {
        }
        &'webhook;help;verify'= {
        }
        &'webhook;help;secret'= {
        }
        &'webhook;help;schemes'= {
        }
        &'webhook;help;send'= {
        }
        &'webhook;help;replay'= {
        }
        &'webhook;help;race'= {
        }
        &'webhook;help;check'= {
        }
        &'webhook;help;check-sender'= {
        }
        &'webhook;help;listen'= {
        }
        &'webhook;help;journal'= {
            cand list 'List the deliveries (the default)'
            cand show 'Print one delivery in full: headers, pretty body, the verification and the forward'
            cand replay 'Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim'
        }
        &'webhook;help;journal;list'= {
        }
        &'webhook;help;journal;show'= {
        }
        &'webhook;help;journal;replay'= {
        }
        &'webhook;help;completions'= {
        }
        &'webhook;help;help'= {
        }
    ]
    $completions[$command]
}
