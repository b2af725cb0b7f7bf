
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
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long (at most 1h)'
            cand --proxy 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand --repeat 'Send the same request this many times with the same key, then judge the answers (at most 10000)'
            cand --interval 'Wait this long between repeats (at most 1h)'
            cand --max-attempts 'Send each request up to N times in all: a lost or failed answer is retried with the same key and body (at most 101)'
            cand --retry 'The older way to say --max-attempts, counting retries: --retry N is N+1 attempts (at most 100)'
            cand --retry-on 'What is retried: any of 5xx, 429, timeout, connection, comma-separated'
            cand --backoff 'The first retry waits a random time up to this, doubling for each further retry (full jitter); a Retry-After (seconds or HTTP-date) replaces it (at most 10m)'
            cand --backoff-max 'No wait, backoff or Retry-After, is longer than this (at most 24h)'
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
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long (at most 1h)'
            cand -n 'Duplicates per round (at most 1000)'
            cand --requests 'Duplicates per round (at most 1000)'
            cand --rounds 'Rounds to run, each with a fresh key (at most 100000)'
            cand --detail 'Which round of several to print in full: worst (most executions, then most 2xx answers), first, last, or a round number'
            cand --sync 'How the duplicates are made to arrive together'
            cand --stagger 'Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together (at most 10s)'
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
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long (at most 1h)'
            cand --max 'The widest spacing probed (at most 1m)'
            cand --probes 'Pairs per spacing; a spacing executed twice if any pair did (at most 100)'
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
            cand -H 'A request header, ''Name: value'' (repeatable)'
            cand --header 'A request header, ''Name: value'' (repeatable)'
            cand --max-body 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)'
            cand --key 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)'
            cand --key-format 'The format of generated keys'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in a response body'
            cand --id-header 'The header naming the created resource when the body has no id [default: Location, then Content-Location]'
            cand --timeout 'Give up on an answer after this long (at most 1h)'
            cand --noproxy 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY'
            cand -n 'How many concurrent duplicates the concurrency check sends (at most 1000)'
            cand --concurrency 'How many concurrent duplicates the concurrency check sends (at most 1000)'
            cand --window-max 'When concurrent-once fails, measure the race window (advisory `race-window`) up to this spacing; 0 skips it (at most 1m)'
            cand --also 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets'
            cand --format 'format'
            cand --only 'Judge only this check (repeatable; --list shows the ids)'
            cand --skip 'Leave this check out (repeatable)'
            cand --expect-fail 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)'
            cand --junit-warnings 'How an advisory warning appears in --format junit'
            cand --openapi 'Test every operation of this OpenAPI 3.0/3.1 document (a file or an http(s) URL, JSON or YAML) that declares the key header, instead of one URL'
            cand --base-url 'Where the API is [default: the spec''s first server, else the origin it was fetched from]'
            cand --include-path 'Test only operations with this path template, e.g. /payments/{id} (repeatable)'
            cand --include-path-regex 'Test only operations whose path matches this regular expression (repeatable)'
            cand --exclude-path 'Skip operations with this path template (repeatable)'
            cand --exclude-path-regex 'Skip operations whose path matches this regular expression (repeatable)'
            cand --include-method 'Test only operations with this method (repeatable)'
            cand --include-method-regex 'Test only operations whose method matches this regular expression (repeatable)'
            cand --exclude-method 'Skip operations with this method (repeatable)'
            cand --exclude-method-regex 'Skip operations whose method matches this regular expression (repeatable)'
            cand --include-operation-id 'Test only the operation with this operationId (repeatable)'
            cand --include-operation-id-regex 'Test only operations whose operationId matches this regular expression (repeatable)'
            cand --exclude-operation-id 'Skip the operation with this operationId (repeatable)'
            cand --exclude-operation-id-regex 'Skip operations whose operationId matches this regular expression (repeatable)'
            cand --include-tag 'Test only operations with this tag (repeatable)'
            cand --include-tag-regex 'Test only operations with a tag matching this regular expression (repeatable)'
            cand --exclude-tag 'Skip operations with this tag (repeatable)'
            cand --exclude-tag-regex 'Skip operations with a tag matching this regular expression (repeatable)'
            cand --param 'A path, query or header parameter''s value, name=value (repeatable); wins over the spec''s examples'
            cand --max-operations 'Test at most this many operations (the rest are listed as skipped)'
            cand --concurrent-operations 'How many operations are checked at the same time (1: one operation''s checks never overlap another''s) (at most 64)'
            cand --proxy 'Send the plain requests through this proxy (http://, https:// or socks5h://; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none); concurrent-once and race-window connect directly, as idem race does'
            cand -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand --data 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json'
            cand -X 'HTTP method'
            cand --method 'HTTP method'
            cand --color 'When to color the output'
            cand --no-key 'Send no key at all (a control)'
            cand -k 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --insecure 'Accept any TLS certificate (self-signed, expired, wrong host)'
            cand --http2 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
            cand --require-key 'The endpoint must refuse a request without a key with 400'
            cand --strict 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
            cand --list 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
            cand --include-deprecated 'Test deprecated operations too'
            cand --all-unsafe 'Also test every POST and PATCH that does not declare the key header'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'idem;serve'= {
            cand --addr 'Where to listen; port 0 picks a free port and prints it'
            cand --mode 'How keys are handled: correct, or one of the deliberately broken modes'
            cand --work 'Simulated time a payment takes, so duplicates can overlap (at most 10m)'
            cand --ttl 'How long a completed key''s response is kept for replay (at most 168h, a week)'
            cand --max-body 'Largest request body accepted (at most 1GiB)'
            cand --format 'Log format: a colored line per request, or JSON lines'
            cand --store 'Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]'
            cand --lease 'How long a claim holds without renewal; a duplicate after a crashed owner''s lease takes the key over (at most 24h)'
            cand --color 'When to color the output'
            cand --require-key 'Answer a POST without an idempotency key with 400'
            cand --any-path 'Answer a POST to any path as POST /payments (each path its own key scope), e.g. to try `idem check --openapi` on a whole spec'
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
            cand --hold 'With --fault timeout: hold the answer this long (or until the client gives up), then drop it (at most 1h)'
            cand --retry-after 'With --fault status:CODE: send Retry-After with this many seconds (at most 86400, a day)'
            cand --first 'Fault the first N attempts of each logical operation (at most 1000) [default: 1]'
            cand --every 'Fault every K-th judged attempt, across operations (at most 1000000)'
            cand --probability 'Fault each judged attempt with this probability (0 to 1)'
            cand --seed 'Seed for --probability, to repeat a run exactly'
            cand --match 'Which requests are judged (and faulted), ''METHOD /path*'' or ''/path*'' (repeatable) [default: every request but GET, HEAD and OPTIONS]'
            cand --window 'Attempts without a key, or with a new one, continue an operation with the same method, path and body within this time (at most 1h)'
            cand --key-header 'The header that carries the key'
            cand --id-field 'JSON pointer to the created resource''s id in the upstream''s answers'
            cand --operations 'Stop and judge once this many operations have ended (at most 100000)'
            cand --timeout 'Give up on the upstream''s answer after this long (the client then gets 502) (at most 1h)'
            cand --idle-timeout 'Close a client''s connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long gets 408 (at most 1h)'
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
