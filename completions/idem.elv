
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
            cand window 'Measure how far apart two duplicates (one key) can arrive and both still execute'
            cand check 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
            cand serve 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
            cand proxy 'Stand between a client and its API, lose answers on purpose, and judge how the client retries'
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
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --repeat 'Send the same request this many times with the same key, then judge the answers'
            cand --interval 'Wait this long between repeats'
            cand --retry 'Retry a lost or failed answer up to N times, with the same key and body'
            cand --retry-on 'What is retried: any of 5xx, 429, timeout, connection, comma-separated'
            cand --backoff 'The first retry waits a random time up to this, doubling for each further retry (full jitter); Retry-After wins when longer'
            cand --format 'format'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand --new-key-per-retry 'Reproduce the classic bug on purpose: a fresh key for every retry'
            cand --json 'Insist that -d is JSON: refuse (exit 2) a body that does not parse, instead of sending it as text/plain'
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
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand -n 'Duplicates per round'
            cand --requests 'Duplicates per round'
            cand --rounds 'Rounds to run, each with a fresh key'
            cand --detail 'Which round of several to print in full: worst (most executions, then most 2xx answers), first, last, or a round number'
            cand --sync 'How the duplicates are made to arrive together'
            cand --stagger 'Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together'
            cand --also 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets'
            cand --format 'format'
            cand --proxy 'Refused: idem race connects directly (a proxy would serialise the duplicates)'
            cand --noproxy 'No effect: idem race reaches every host directly'
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
        &'idem;window'= {
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand --max 'The widest spacing probed'
            cand --probes 'Pairs per spacing; a spacing executed twice if any pair did'
            cand --format 'format'
            cand --proxy 'Refused: idem window connects directly (a proxy would serialise the duplicates)'
            cand --noproxy 'No effect: idem window reaches every host directly'
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
        &'idem;check'= {
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand -n 'How many concurrent duplicates the concurrency check sends'
            cand --concurrency 'How many concurrent duplicates the concurrency check sends'
            cand --window-max 'When concurrent-once fails, measure the race window (advisory `race-window`) up to this spacing; 0 skips it'
            cand --also 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets'
            cand --format 'format'
            cand --only 'Judge only this check (repeatable; --list shows the ids)'
            cand --skip 'Leave this check out (repeatable)'
            cand --expect-fail 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)'
            cand --junit-warnings 'How an advisory warning appears in --format junit'
            cand --proxy 'Send the plain requests through this proxy (http://, https:// or socks5h://; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none); concurrent-once and race-window connect directly, as idem race does'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand --require-key 'The endpoint must refuse a request without a key with 400'
            cand --strict 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
            cand --list 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
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
            cand --store 'Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]'
            cand --lease 'How long a claim holds without renewal; a duplicate after a crashed owner''s lease takes the key over'
            cand --color 'When to color the output'
            cand --require-key 'Answer a POST without an idempotency key with 400'
            cand --tls 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;proxy'= {
            cand --upstream 'The API to forward to, e.g. http://127.0.0.1:8080 (its path, if any, prefixes every request''s)'
            cand --addr 'Where the client under test connects; port 0 picks a free port and prints it'
            cand --fault 'What happens to a faulted attempt: lose-answer, timeout, reset, status:CODE or delay:DUR'
            cand --hold 'With --fault timeout: hold the answer this long (or until the client gives up), then drop it'
            cand --retry-after 'With --fault status:CODE: send Retry-After with this many seconds'
            cand --first 'Fault the first N attempts of each logical operation [default: 1]'
            cand --every 'Fault every K-th judged attempt, across operations'
            cand --probability 'Fault each judged attempt with this probability (0 to 1)'
            cand --seed 'Seed for --probability, to repeat a run exactly'
            cand --match 'Which requests are judged (and faulted), ''METHOD /path*'' or ''/path*'' (repeatable) [default: every request but GET, HEAD and OPTIONS]'
            cand --window 'Attempts without a key, or with a new one, continue an operation with the same method, path and body within this time; an operation idle this long is judged and dropped from memory'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in the upstream''s answers'
            cand --operations 'Stop and judge once this many operations have ended'
            cand --timeout 'Give up on the upstream''s answer after this long (the client then gets 502)'
            cand --format 'Live lines and summary for people, or JSON lines'
            cand --color 'When to color the output'
            cand --tls 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up'
            cand -k 'Accept any TLS certificate from an https upstream'
            cand --insecure 'Accept any TLS certificate from an https upstream'
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
            cand window 'Measure how far apart two duplicates (one key) can arrive and both still execute'
            cand check 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
            cand serve 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
            cand proxy 'Stand between a client and its API, lose answers on purpose, and judge how the client retries'
            cand demo 'Tell the whole story on this machine: reference servers, retries, verdicts'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'idem;help;send'= {
        }
        &'idem;help;race'= {
        }
        &'idem;help;window'= {
        }
        &'idem;help;check'= {
        }
        &'idem;help;serve'= {
        }
        &'idem;help;proxy'= {
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
