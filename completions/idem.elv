
use builtin;
use str;

set edit:completion:arg-completer[idem] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'idem'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'idem'= {
            cand --color 'When to color the output'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand send 'Send a request with an idempotency key, optionally repeated, and judge the answers'
            cand race 'Fire synchronised concurrent duplicates (one key) to expose race conditions'
            cand check 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
            cand serve 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
            cand demo 'Tell the whole story on this machine: reference servers, retries, verdicts'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'idem;send'= {
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again)'
            cand --key 'Use this idempotency key instead of a fresh one'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand --repeat 'Send the same request this many times with the same key, then judge the answers'
            cand --interval 'Wait this long between repeats'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;race'= {
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again)'
            cand --key 'Use this idempotency key instead of a fresh one'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand -n 'Duplicates per round'
            cand --requests 'Duplicates per round'
            cand --rounds 'Rounds to run, each with a fresh key'
            cand --sync 'How the duplicates are made to arrive together'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand --distinct-keys 'Give every duplicate its own key (a control: each should execute)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;check'= {
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again)'
            cand --key 'Use this idempotency key instead of a fresh one'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand -n 'How many concurrent duplicates the concurrency check sends'
            cand --concurrency 'How many concurrent duplicates the concurrency check sends'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand --require-key 'The endpoint must refuse a request without a key with 400'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;serve'= {
            cand --addr 'Where to listen; port 0 picks a free port and prints it'
            cand --mode 'How keys are handled: correct, or one of the deliberately broken modes'
            cand --work 'Simulated time a payment takes, so duplicates can overlap'
            cand --ttl 'How long a completed key''s response is kept for replay'
            cand --max-body 'Largest request body accepted'
            cand --format 'Log format: a colored line per request, or JSON lines'
            cand --color 'When to color the output'
            cand --require-key 'Answer a POST without an idempotency key with 400'
            cand --tls 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;demo'= {
            cand --color 'When to color the output'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;completions'= {
            cand --color 'When to color the output'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;help'= {
            cand send 'Send a request with an idempotency key, optionally repeated, and judge the answers'
            cand race 'Fire synchronised concurrent duplicates (one key) to expose race conditions'
            cand check 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
            cand serve 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
            cand demo 'Tell the whole story on this machine: reference servers, retries, verdicts'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'idem;help;send'= {
        }
        &'idem;help;race'= {
        }
        &'idem;help;check'= {
        }
        &'idem;help;serve'= {
        }
        &'idem;help;demo'= {
        }
        &'idem;help;completions'= {
        }
        &'idem;help;help'= {
        }
    ]
    $completions[$command]
}
