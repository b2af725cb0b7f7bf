
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
            cand listen 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;sign'= {
            cand -d 'The body: DATA, @file (streamed, never read whole) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --data 'The body: DATA, @file (streamed, never read whole) or @- for stdin; with --event, the JSON for the envelope''s `data`'
            cand --event 'Build the body as an event envelope {"id","type","created","data"} of this type'
            cand --scheme 'The signing scheme'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --id 'Sign this delivery id (and use it as the envelope''s event id) instead of a fresh one'
            cand --timestamp 'Sign this Unix timestamp instead of now'
            cand --format 'What to print'
            cand --url 'Where the webhook goes, for --format curl and http'
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
            cand --scheme 'The signing scheme, or auto to pick it from the headers'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --tolerance 'How far a signed timestamp may be from now, in either direction'
            cand --now 'Judge timestamps as if it were this Unix time (to check a recorded delivery)'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;secret'= {
            cand --scheme 'The scheme the secret is for: whsec_ + base64 for standard and stripe, hex for the others'
            cand --color 'When to color the output'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'webhook;listen'= {
            cand --addr 'The address to listen on (port 0 picks a free one, printed on the first line)'
            cand --path 'Receive on this path only (others get 404) [default: any path]'
            cand --scheme 'The signing scheme, or auto to pick it per request from the signature header'
            cand --secret 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users'
            cand --secret-file 'Read the secret from this file (one trailing newline is dropped)'
            cand --signature-header '--scheme hmac: the header that carries the signature [default: X-Signature]'
            cand --encoding '--scheme hmac: how the signature is written [default: hex]'
            cand --prefix '--scheme hmac: text before the signature, may be empty [default: sha256=]'
            cand --tolerance 'How far a signed timestamp may be from now, in either direction'
            cand --max-body 'Bodies larger than this get 413'
            cand --record 'Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)'
            cand --forward-to 'Pass each accepted delivery on to exactly this URL and answer with its status and body'
            cand --forward-timeout 'How long the forward target may take to answer before the sender gets 502'
            cand --status 'Answer accepted deliveries with this status (e.g. 500 to make a sender retry)'
            cand --fail-first 'Answer the first N attempts of each event id with 500; later attempts succeed'
            cand --delay 'Wait this long before answering (to trip a sender''s timeout)'
            cand --format 'human: a colored line per delivery; json: a JSON line per delivery (see the README)'
            cand --color 'When to color the output'
            cand --svix 'Standard Webhooks under Svix''s header names (svix-id, svix-timestamp, svix-signature)'
            cand --accept-invalid 'Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)'
            cand --fsync 'Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries'
            cand --dedupe 'Answer a repeat of an acknowledged event directly instead of forwarding it again'
            cand -v 'Show each delivery''s headers and body too'
            cand --verbose 'Show each delivery''s headers and body too'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
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
            cand listen 'Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'webhook;help;sign'= {
        }
        &'webhook;help;verify'= {
        }
        &'webhook;help;secret'= {
        }
        &'webhook;help;listen'= {
        }
        &'webhook;help;completions'= {
        }
        &'webhook;help;help'= {
        }
    ]
    $completions[$command]
}
