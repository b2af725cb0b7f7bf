# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_idem_global_optspecs
    string join \n color= h/help V/version
end

function __fish_idem_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_idem_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_idem_using_subcommand
    set -l cmd (__fish_idem_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c idem -n "__fish_idem_needs_command" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_needs_command" -s h -l help -d 'Print help'
complete -c idem -n "__fish_idem_needs_command" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_needs_command" -f -a "send" -d 'Send a request with an idempotency key, optionally repeated, and judge the answers'
complete -c idem -n "__fish_idem_needs_command" -f -a "race" -d 'Fire synchronised concurrent duplicates (one key) to expose race conditions'
complete -c idem -n "__fish_idem_needs_command" -f -a "window" -d 'Measure how far apart two duplicates (one key) can arrive and both still execute'
complete -c idem -n "__fish_idem_needs_command" -f -a "check" -d 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
complete -c idem -n "__fish_idem_needs_command" -f -a "run" -d 'Run the workflows of an Arazzo description, probing every keyed step (retry, race, lost answer, mismatch)'
complete -c idem -n "__fish_idem_needs_command" -f -a "serve" -d 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
complete -c idem -n "__fish_idem_needs_command" -f -a "proxy" -d 'Stand between a client and its API, lose answers on purpose, and judge how the client retries'
complete -c idem -n "__fish_idem_needs_command" -f -a "demo" -d 'Tell the whole story on this machine: reference servers, retries, verdicts'
complete -c idem -n "__fish_idem_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c idem -n "__fish_idem_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c idem -n "__fish_idem_using_subcommand send" -s X -l method -d 'HTTP method' -r
complete -c idem -n "__fish_idem_using_subcommand send" -s H -l header -d 'A request header, \'Name: value\' (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -s d -l data -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l max-body -d 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l key -d 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l key-format -d 'The format of generated keys' -r -f -a "uuid4\t'Random UUID v4, what most client libraries send'
uuid7\t'Time-ordered UUID v7, friendlier to database indexes'"
complete -c idem -n "__fish_idem_using_subcommand send" -l key-header -d 'The header that carries the key [default: Idempotency-Key; idem check: the --profile\'s]' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l key-in -d 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation\'s field) or jsonrpc-meta (the JSON-RPC request\'s meta.idempotency_key, as ACP\'s MCP binding) [default: header:Idempotency-Key]' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l id-field -d 'JSON pointer to the created resource\'s id in a response body' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l id-header -d 'The header naming the created resource when the body has no id [default: Location, then Content-Location]' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l timeout -d 'Give up on an answer after this long (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l max-requests -d 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l proxy -d 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l repeat -d 'Send the same request this many times with the same key, then judge the answers (at most 10000)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l interval -d 'Wait this long between repeats (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l max-attempts -d 'Send each request up to N times in all: a lost or failed answer is retried with the same key and body (at most 101)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l retry -d 'The older way to say --max-attempts, counting retries: --retry N is N+1 attempts (at most 100)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l retry-on -d 'What is retried: any of 5xx, 429, timeout, connection, comma-separated' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l backoff -d 'The first retry waits a random time up to this, doubling for each further retry (full jitter); a Retry-After (seconds or HTTP-date) replaces it (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l backoff-max -d 'No wait, backoff or Retry-After, is longer than this (at most 24h)' -r
complete -c idem -n "__fish_idem_using_subcommand send" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c idem -n "__fish_idem_using_subcommand send" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand send" -l no-key -d 'Send no key at all (a control)'
complete -c idem -n "__fish_idem_using_subcommand send" -s k -l insecure -d 'Accept any TLS certificate (self-signed, expired, wrong host)'
complete -c idem -n "__fish_idem_using_subcommand send" -l http2 -d 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
complete -c idem -n "__fish_idem_using_subcommand send" -l require-count -d 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth'
complete -c idem -n "__fish_idem_using_subcommand send" -l new-key-per-retry -d 'Reproduce the classic bug on purpose: a fresh key for every retry'
complete -c idem -n "__fish_idem_using_subcommand send" -l json -d 'Insist that -d is JSON: refuse (exit 2) a body that does not parse, instead of sending it as text/plain'
complete -c idem -n "__fish_idem_using_subcommand send" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand send" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand race" -s X -l method -d 'HTTP method' -r
complete -c idem -n "__fish_idem_using_subcommand race" -s H -l header -d 'A request header, \'Name: value\' (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -s d -l data -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l max-body -d 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l key -d 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l key-format -d 'The format of generated keys' -r -f -a "uuid4\t'Random UUID v4, what most client libraries send'
uuid7\t'Time-ordered UUID v7, friendlier to database indexes'"
complete -c idem -n "__fish_idem_using_subcommand race" -l key-header -d 'The header that carries the key [default: Idempotency-Key; idem check: the --profile\'s]' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l key-in -d 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation\'s field) or jsonrpc-meta (the JSON-RPC request\'s meta.idempotency_key, as ACP\'s MCP binding) [default: header:Idempotency-Key]' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l id-field -d 'JSON pointer to the created resource\'s id in a response body' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l id-header -d 'The header naming the created resource when the body has no id [default: Location, then Content-Location]' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l timeout -d 'Give up on an answer after this long (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l max-requests -d 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -s n -l requests -d 'Duplicates per round (at most 1000)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l rounds -d 'Rounds to run, each with a fresh key (at most 100000)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l detail -d 'Which round of several to print in full: worst (most executions, then most 2xx answers), first, last, or a round number' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l sync -d 'How the duplicates are made to arrive together' -r -f -a "auto\t'single-packet where the server speaks HTTP/2 (h2 in ALPN on https, --http2 on http), else last-byte'
single-packet\t'HTTP/2, one connection: every request\'s final frame released in one TCP packet'
last-byte\t'HTTP/1.1, one connection per request: every final byte released in one tight loop'
none\t'Plain concurrent requests, no synchronisation (for comparison)'"
complete -c idem -n "__fish_idem_using_subcommand race" -l stagger -d 'Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together (at most 10s)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l also -d 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c idem -n "__fish_idem_using_subcommand race" -l proxy -d 'Refused: idem race connects directly (a proxy would serialise the duplicates)' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l noproxy -d 'No effect: idem race reaches every host directly' -r
complete -c idem -n "__fish_idem_using_subcommand race" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand race" -l no-key -d 'Send no key at all (a control)'
complete -c idem -n "__fish_idem_using_subcommand race" -s k -l insecure -d 'Accept any TLS certificate (self-signed, expired, wrong host)'
complete -c idem -n "__fish_idem_using_subcommand race" -l http2 -d 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
complete -c idem -n "__fish_idem_using_subcommand race" -l require-count -d 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth'
complete -c idem -n "__fish_idem_using_subcommand race" -l distinct-keys -d 'Give every duplicate its own key (a control: each should execute)'
complete -c idem -n "__fish_idem_using_subcommand race" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand race" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand window" -s X -l method -d 'HTTP method' -r
complete -c idem -n "__fish_idem_using_subcommand window" -s H -l header -d 'A request header, \'Name: value\' (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -s d -l data -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l max-body -d 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l key -d 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l key-format -d 'The format of generated keys' -r -f -a "uuid4\t'Random UUID v4, what most client libraries send'
uuid7\t'Time-ordered UUID v7, friendlier to database indexes'"
complete -c idem -n "__fish_idem_using_subcommand window" -l key-header -d 'The header that carries the key [default: Idempotency-Key; idem check: the --profile\'s]' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l key-in -d 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation\'s field) or jsonrpc-meta (the JSON-RPC request\'s meta.idempotency_key, as ACP\'s MCP binding) [default: header:Idempotency-Key]' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l id-field -d 'JSON pointer to the created resource\'s id in a response body' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l id-header -d 'The header naming the created resource when the body has no id [default: Location, then Content-Location]' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l timeout -d 'Give up on an answer after this long (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l max-requests -d 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l max -d 'The widest spacing probed (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l probes -d 'Pairs per spacing; a spacing executed twice if any pair did (at most 100)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l format -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c idem -n "__fish_idem_using_subcommand window" -l proxy -d 'Refused: idem window connects directly (a proxy would serialise the duplicates)' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l noproxy -d 'No effect: idem window reaches every host directly' -r
complete -c idem -n "__fish_idem_using_subcommand window" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand window" -l no-key -d 'Send no key at all (a control)'
complete -c idem -n "__fish_idem_using_subcommand window" -s k -l insecure -d 'Accept any TLS certificate (self-signed, expired, wrong host)'
complete -c idem -n "__fish_idem_using_subcommand window" -l http2 -d 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
complete -c idem -n "__fish_idem_using_subcommand window" -l require-count -d 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth'
complete -c idem -n "__fish_idem_using_subcommand window" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand window" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand check" -s H -l header -d 'A request header, \'Name: value\' (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l max-body -d 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l key -d 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l key-format -d 'The format of generated keys' -r -f -a "uuid4\t'Random UUID v4, what most client libraries send'
uuid7\t'Time-ordered UUID v7, friendlier to database indexes'"
complete -c idem -n "__fish_idem_using_subcommand check" -l key-header -d 'The header that carries the key [default: Idempotency-Key; idem check: the --profile\'s]' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l key-in -d 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation\'s field) or jsonrpc-meta (the JSON-RPC request\'s meta.idempotency_key, as ACP\'s MCP binding) [default: header:Idempotency-Key]' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l id-field -d 'JSON pointer to the created resource\'s id in a response body' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l id-header -d 'The header naming the created resource when the body has no id [default: Location, then Content-Location]' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l timeout -d 'Give up on an answer after this long (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l max-requests -d 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l noproxy -d 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, \'*\' for all; overrides NO_PROXY' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -s n -l concurrency -d 'How many concurrent duplicates the concurrency check sends (at most 1000)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l window-max -d 'When concurrent-once fails, measure the race window (advisory `race-window`) up to this spacing; 0 skips it (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l also -d 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l profile -d 'The contract to judge against: the key header and length, the statuses for a missing key, a changed body and work in flight, the replay marker, which stored answers are replayed (`--list --profile P` shows what each check requires under it) [default: ietf]' -r -f -a "ietf\t'The IETF draft: 422 for a changed body recommended, no replay marker, stored errors left open'
stripe\t'Stripe: any 4xx for a changed body, Idempotent-Replayed required, 500s replayed, keys ≤ 255'
adyen\t'Adyen: keys ≤ 64 characters, statuses not documented (nothing may execute twice)'
paypal\t'PayPal: PayPal-Request-Id ≤ 108 characters, a reused id gets the first request\'s latest status'
checkout\t'Checkout.com: Cko-Idempotency-Key, only 2xx answers stored (4xx/5xx retried afresh), 409 in flight'
worldline\t'Worldline: X-GCS-Idempotence-Key ≤ 40, a changed body gets the first answer, X-GCS-Idempotence-Request-Timestamp on replays'
acp\t'Agentic Commerce Protocol: a key on every POST (400 without), ≤ 255, 422 on conflict, 409 + Retry-After, Idempotent-Replayed'
ucp\t'Universal Commerce Protocol: a key required, 409 for a changed body'
strict\t'The strictest reading of the draft, Stripe and ACP together'"
complete -c idem -n "__fish_idem_using_subcommand check" -l as -d 'A header of a second caller, \'Authorization: Bearer other\' (repeatable), for caller-scoped' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l other-url -d 'Another endpoint that accepts the same body, for path-scoped' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l work-hint -d 'How long one request takes on the server, so the in-flight checks retry late in the work (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l max-work -d 'The latest retry of lease-outlives-work while the first request still runs (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l server-cmd -d 'The command (run by sh -c) that starts the server under test on the URL\'s port, for crash-recovers' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l stuck-for -d 'How long crash-recovers retries after the restart before it calls the key stuck (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l retention -d 'How long the server keeps a key\'s record (or its lease): expired-key-taken-once waits it out, then races duplicates with the expired key (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l format -r -f -a "human\t'A table, colored on a terminal'
json\t'One JSON document, documented in docs/json-output.md'
junit\t'JUnit XML, for CI dashboards'
html\t'One self-contained HTML page (inline CSS and SVG, no script)'"
complete -c idem -n "__fish_idem_using_subcommand check" -l only -d 'Judge only this check (repeatable; --list shows the ids)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l skip -d 'Leave this check out (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l expect-fail -d 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l junit-warnings -d 'How an advisory warning appears in --format junit' -r -f -a "skipped\t'`<skipped message="warning: …">`: dashboards show it, the build stays green'
passed\t'A passing test case, the warning in its system-out'
failed\t'A `<failure>`: dashboards turn red (the exit status is unchanged)'"
complete -c idem -n "__fish_idem_using_subcommand check" -l openapi -d 'Test every operation of this OpenAPI 3.0/3.1 document (a file, - for stdin, or an http(s) URL; JSON or YAML; at most 32 MiB) that declares the key header, instead of one URL' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l base-url -d 'Where the API is [default: the spec\'s first server, else the origin it was fetched from]' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-path -d 'Test only operations with this path template, e.g. /payments/{id} (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-path-regex -d 'Test only operations whose path matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-path -d 'Skip operations with this path template (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-path-regex -d 'Skip operations whose path matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-method -d 'Test only operations with this method (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-method-regex -d 'Test only operations whose method matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-method -d 'Skip operations with this method (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-method-regex -d 'Skip operations whose method matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-operation-id -d 'Test only the operation with this operationId (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-operation-id-regex -d 'Test only operations whose operationId matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-operation-id -d 'Skip the operation with this operationId (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-operation-id-regex -d 'Skip operations whose operationId matches this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-tag -d 'Test only operations with this tag (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l include-tag-regex -d 'Test only operations with a tag matching this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-tag -d 'Skip operations with this tag (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l exclude-tag-regex -d 'Skip operations with a tag matching this regular expression (repeatable)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l param -d 'A path, query or header parameter\'s value, name=value (repeatable); wins over the spec\'s examples' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l max-operations -d 'Test at most this many operations (the rest are listed as skipped)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l count-url-template -d 'Each operation\'s count of side effects (a GET, as --count-url), {operationId} filled in: http://127.0.0.1:8080/counts/{operationId}. An operation\'s own x-idem-count-url (and x-idem-count-pointer) wins; --count-url applies when neither is given' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l concurrent-operations -d 'How many operations are checked at the same time (1: one operation\'s checks never overlap another\'s) (at most 64)' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l proxy -d 'Send the plain requests through this proxy (http://, https:// or socks5h://; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; \'\' for none); concurrent-once and race-window connect directly, as idem race does' -r
complete -c idem -n "__fish_idem_using_subcommand check" -s d -l data -d 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json' -r
complete -c idem -n "__fish_idem_using_subcommand check" -s X -l method -d 'HTTP method' -r
complete -c idem -n "__fish_idem_using_subcommand check" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand check" -l no-key -d 'Send no key at all (a control)'
complete -c idem -n "__fish_idem_using_subcommand check" -s k -l insecure -d 'Accept any TLS certificate (self-signed, expired, wrong host)'
complete -c idem -n "__fish_idem_using_subcommand check" -l http2 -d 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://'
complete -c idem -n "__fish_idem_using_subcommand check" -l require-count -d 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth'
complete -c idem -n "__fish_idem_using_subcommand check" -l require-key -d 'The endpoint must refuse a request without a key with 400'
complete -c idem -n "__fish_idem_using_subcommand check" -l plan -d 'Print what a run would send (operations, URLs, bodies, the checks\' requests, the resources a correct API creates) and send nothing'
complete -c idem -n "__fish_idem_using_subcommand check" -l strict -d 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)'
complete -c idem -n "__fish_idem_using_subcommand check" -l list -d 'Print every check of this suite (id, level, what it proves, how to fix it) and exit'
complete -c idem -n "__fish_idem_using_subcommand check" -l allow-remote -d 'Send the requests (and your -H headers) to the spec\'s first server even when it is not this machine, or, for a spec fetched from a URL, not the host it came from'
complete -c idem -n "__fish_idem_using_subcommand check" -l include-deprecated -d 'Test deprecated operations too'
complete -c idem -n "__fish_idem_using_subcommand check" -l all-unsafe -d 'Also test every POST and PATCH that does not declare the key header'
complete -c idem -n "__fish_idem_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand check" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand run" -l base-url -d 'Where the API is: replaces the servers of every source document (a document\'s server that is not this machine is refused without it)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l source -d 'Read this source description from PATH or URL instead of its `url` (repeatable; a URL in the description itself is read only when given here)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l input -d 'A workflow input, NAME=VALUE (repeatable); VALUE is JSON when it parses (500, true, {"a":1}), else text' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l inputs -d 'A JSON or YAML object of workflow inputs (--input wins on the same name)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l workflow -d 'Run only this workflow (and the workflows it dependsOn)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l probes -d 'The probes of every keyed step, comma-separated [default: all that apply]' -r -f -a "retry\t'A sequential retry with the same key (`retry-replays`)'
race\t'Concurrent duplicates with one fresh key, released together (`concurrent-once`)'
lost-answer\t'A request whose answer is lost, then retried with its key (`effect-then-failure`; needs a count)'
mismatch\t'The same key with a changed body (`mismatch-rejected`)'"
complete -c idem -n "__fish_idem_using_subcommand run" -s n -l concurrency -d 'How many concurrent duplicates the race probe sends (at most 1000)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l profile -d 'The contract the probes are judged against (see idem check --profile) [default: ietf]' -r -f -a "ietf\t'The IETF draft: 422 for a changed body recommended, no replay marker, stored errors left open'
stripe\t'Stripe: any 4xx for a changed body, Idempotent-Replayed required, 500s replayed, keys ≤ 255'
adyen\t'Adyen: keys ≤ 64 characters, statuses not documented (nothing may execute twice)'
paypal\t'PayPal: PayPal-Request-Id ≤ 108 characters, a reused id gets the first request\'s latest status'
checkout\t'Checkout.com: Cko-Idempotency-Key, only 2xx answers stored (4xx/5xx retried afresh), 409 in flight'
worldline\t'Worldline: X-GCS-Idempotence-Key ≤ 40, a changed body gets the first answer, X-GCS-Idempotence-Request-Timestamp on replays'
acp\t'Agentic Commerce Protocol: a key on every POST (400 without), ≤ 255, 422 on conflict, 409 + Retry-After, Idempotent-Replayed'
ucp\t'Universal Commerce Protocol: a key required, 409 for a changed body'
strict\t'The strictest reading of the draft, Stripe and ACP together'"
complete -c idem -n "__fish_idem_using_subcommand run" -s H -l header -d 'A header for every step\'s request, \'Name: value\' (repeatable): auth, tenant' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l id-field -d 'JSON pointer to the created resource\'s id in a keyed step\'s answer' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l timeout -d 'Give up on an answer after this long (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l max-requests -d 'Send at most this many requests (count reads not counted): the run stops before the request that would exceed it, with exit status 2' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l listen -d 'Receive the webhooks steps expect (x-idem-expect-webhook) on ADDR (127.0.0.1:9000), where the API under test delivers them: an embedded webhook listen verifies and counts them' -r
complete -c idem -n "__fish_idem_using_subcommand run" -l format -r -f -a "human\t'Per workflow and step, colored on a terminal'
json\t'One JSON document (schema idem-run/1)'
junit\t'JUnit XML: a test case per step and per probe'
html\t'One self-contained HTML page (inline CSS, no script): a row per step and probe, with evidence'"
complete -c idem -n "__fish_idem_using_subcommand run" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand run" -s k -l insecure -d 'Accept any TLS certificate (self-signed, expired, wrong host)'
complete -c idem -n "__fish_idem_using_subcommand run" -l plan -d 'Print each workflow\'s steps, their operations, probes and an estimate of requests and resources created, and send nothing'
complete -c idem -n "__fish_idem_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand run" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand serve" -l addr -d 'Where to listen; port 0 picks a free port and prints it' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l mode -d 'How keys are handled: correct, or one of the deliberately broken modes' -r -f -a "correct\t'Claims each key atomically: 409 while in flight, 422 for another body, replays afterwards'
naive\t'DELIBERATELY BROKEN: looks the key up, does the work, then stores it, so concurrent duplicates all execute'
none\t'DELIBERATELY BROKEN: ignores keys, so every retry executes again'
local-lock\t'DELIBERATELY BROKEN: claims under an in-process lock, writes the shared store after the work, so duplicates sent to two instances both execute'
unscoped\t'DELIBERATELY BROKEN: keys the store by the header value alone (not the caller, method or path) and fingerprints raw bytes, so caller B gets caller A\'s payment'
short-lease\t'DELIBERATELY BROKEN: the claim\'s lease is half the --work and never renewed, so a retry late in the work executes again'
sticky-lock\t'DELIBERATELY BROKEN: an in-flight claim never expires, so after a crash (SQLite, Redis) every retry gets 409'
drops-headers\t'DELIBERATELY BROKEN: replays the stored body and status without the Location header'
delete-on-error\t'DELIBERATELY BROKEN: fails after the payment is committed (500) and deletes the key record in its error handler, so every retry charges again'
sticky-decline\t'DELIBERATELY BROKEN: keeps a declined payment (4xx) by caller and endpoint for a minute and answers it to the caller\'s next payments, new keys included'
orphan-takeover\t'DELIBERATELY BROKEN: a key whose record expired (--ttl) is taken over by read-then-write, so duplicates that arrive together after expiry all execute'"
complete -c idem -n "__fish_idem_using_subcommand serve" -l work -d 'Simulated time a payment takes, so duplicates can overlap (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l ttl -d 'How long a completed key\'s response is kept for replay (at most 168h, a week)' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l mode-on -d 'Apply --mode to this endpoint only (/customers, /payments or /refunds); every other endpoint is correct, so a customers → payments → refunds flow breaks one step at a time' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l max-body -d 'Largest request body accepted (at most 1GiB)' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l format -d 'Log format: a colored line per request, or JSON lines' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c idem -n "__fish_idem_using_subcommand serve" -l store -d 'Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l lease -d 'How long a claim holds without renewal; a duplicate after a crashed owner\'s lease takes the key over (at most 24h)' -r
complete -c idem -n "__fish_idem_using_subcommand serve" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand serve" -l require-key -d 'Answer a POST without an idempotency key with 400'
complete -c idem -n "__fish_idem_using_subcommand serve" -l any-path -d 'Answer a POST to any path as POST /payments (each path its own key scope), e.g. to try `idem check --openapi` on a whole spec'
complete -c idem -n "__fish_idem_using_subcommand serve" -l tls -d 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up'
complete -c idem -n "__fish_idem_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand serve" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand proxy" -l upstream -d 'The API to forward to, e.g. http://127.0.0.1:8080 (its path, if any, prefixes every request\'s)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l addr -d 'Where the client under test connects; port 0 picks a free port and prints it' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l fault -d 'What happens to a faulted attempt: lose-answer, timeout, reset, status:CODE or delay:DUR' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l hold -d 'With --fault timeout: hold the answer this long (or until the client gives up), then drop it (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l retry-after -d 'With --fault status:CODE: send Retry-After with this many seconds (at most 86400, a day)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l first -d 'Fault the first N attempts of each logical operation (at most 1000) [default: 1]' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l every -d 'Fault every K-th judged attempt, across operations (at most 1000000)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l probability -d 'Fault each judged attempt with this probability (0 to 1)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l seed -d 'Seed for --probability, to repeat a run exactly' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l match -d 'Which requests are judged (and faulted), \'METHOD /path*\' or \'/path*\' (repeatable) [default: every request but GET, HEAD and OPTIONS]' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l window -d 'Attempts without a key, or with a new one, continue an operation with the same method, path and body within this time (at most 1h); an operation idle this long is judged and dropped from memory' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l window-ops -d 'Hold at most this many operations open (at least 1): past it the oldest is judged and dropped from memory, idle or not' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l key-header -d 'The header that carries the key' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l id-field -d 'JSON pointer to the created resource\'s id in the upstream\'s answers' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l operations -d 'Stop and judge once this many operations have ended (at most 100000)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l timeout -d 'Give up on the upstream\'s answer after this long (the client then gets 502) (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l idle-timeout -d 'Close a client\'s connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long gets 408 (at most 1h)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l format -d 'Live lines and summary for people, or JSON lines' -r -f -a "human\t'Readable, colored on a terminal'
json\t'One JSON document (JSON Lines for streams), documented in docs/json-output.md'"
complete -c idem -n "__fish_idem_using_subcommand proxy" -l count-url -d 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l count-pointer -d 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l count-header -d 'A header for the --count-url GET only (\'Authorization: Bearer …\'), repeatable; added to the command\'s own -H headers, which the GET carries too where the command has -H; \'LEDGER=NAME: VALUE\' for one named ledger only' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l count-settle -d 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step\'s slowest answer when longer] (at most 1m)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l count-settle-max -d 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)' -r
complete -c idem -n "__fish_idem_using_subcommand proxy" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand proxy" -l tls -d 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up'
complete -c idem -n "__fish_idem_using_subcommand proxy" -s k -l insecure -d 'Accept any TLS certificate from an https upstream'
complete -c idem -n "__fish_idem_using_subcommand proxy" -l require-count -d 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth'
complete -c idem -n "__fish_idem_using_subcommand proxy" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c idem -n "__fish_idem_using_subcommand proxy" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand demo" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand demo" -s h -l help -d 'Print help'
complete -c idem -n "__fish_idem_using_subcommand demo" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand completions" -l color -d 'When to color the output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c idem -n "__fish_idem_using_subcommand completions" -s h -l help -d 'Print help'
complete -c idem -n "__fish_idem_using_subcommand completions" -s V -l version -d 'Print version'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "send" -d 'Send a request with an idempotency key, optionally repeated, and judge the answers'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "race" -d 'Fire synchronised concurrent duplicates (one key) to expose race conditions'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "window" -d 'Measure how far apart two duplicates (one key) can arrive and both still execute'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "check" -d 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "run" -d 'Run the workflows of an Arazzo description, probing every keyed step (retry, race, lost answer, mismatch)'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "serve" -d 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "proxy" -d 'Stand between a client and its API, lose answers on purpose, and judge how the client retries'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "demo" -d 'Tell the whole story on this machine: reference servers, retries, verdicts'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c idem -n "__fish_idem_using_subcommand help; and not __fish_seen_subcommand_from send race window check run serve proxy demo completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
