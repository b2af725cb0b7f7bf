
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'idem' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'idem'
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
        'idem' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Send a request with an idempotency key, optionally repeated, and judge the answers')
            [CompletionResult]::new('race', 'race', [CompletionResultType]::ParameterValue, 'Fire synchronised concurrent duplicates (one key) to expose race conditions')
            [CompletionResult]::new('window', 'window', [CompletionResultType]::ParameterValue, 'Measure how far apart two duplicates (one key) can arrive and both still execute')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the workflows of an Arazzo description, probing every keyed step (retry, race, lost answer, mismatch)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)')
            [CompletionResult]::new('proxy', 'proxy', [CompletionResultType]::ParameterValue, 'Stand between a client and its API, lose answers on purpose, and judge how the client retries')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Tell the whole story on this machine: reference servers, retries, verdicts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'idem;send' {
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key [default: Idempotency-Key; idem check: the --profile''s]')
            [CompletionResult]::new('--key-in', '--key-in', [CompletionResultType]::ParameterName, 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation''s field) or jsonrpc-meta (the JSON-RPC request''s meta.idempotency_key, as ACP''s MCP binding) [default: header:Idempotency-Key]')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long (at most 1h)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send through this proxy: http://HOST:PORT (https:// URLs are tunnelled with CONNECT), https://… or socks5h://…; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Send the same request this many times with the same key, then judge the answers (at most 10000)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Wait this long between repeats (at most 1h)')
            [CompletionResult]::new('--max-attempts', '--max-attempts', [CompletionResultType]::ParameterName, 'Send each request up to N times in all: a lost or failed answer is retried with the same key and body (at most 101)')
            [CompletionResult]::new('--retry', '--retry', [CompletionResultType]::ParameterName, 'The older way to say --max-attempts, counting retries: --retry N is N+1 attempts (at most 100)')
            [CompletionResult]::new('--retry-on', '--retry-on', [CompletionResultType]::ParameterName, 'What is retried: any of 5xx, 429, timeout, connection, comma-separated')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'The first retry waits a random time up to this, doubling for each further retry (full jitter); a Retry-After (seconds or HTTP-date) replaces it (at most 10m)')
            [CompletionResult]::new('--backoff-max', '--backoff-max', [CompletionResultType]::ParameterName, 'No wait, backoff or Retry-After, is longer than this (at most 24h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--require-count', '--require-count', [CompletionResultType]::ParameterName, 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth')
            [CompletionResult]::new('--new-key-per-retry', '--new-key-per-retry', [CompletionResultType]::ParameterName, 'Reproduce the classic bug on purpose: a fresh key for every retry')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Insist that -d is JSON: refuse (exit 2) a body that does not parse, instead of sending it as text/plain')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;race' {
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key [default: Idempotency-Key; idem check: the --profile''s]')
            [CompletionResult]::new('--key-in', '--key-in', [CompletionResultType]::ParameterName, 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation''s field) or jsonrpc-meta (the JSON-RPC request''s meta.idempotency_key, as ACP''s MCP binding) [default: header:Idempotency-Key]')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long (at most 1h)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Duplicates per round (at most 1000)')
            [CompletionResult]::new('--requests', '--requests', [CompletionResultType]::ParameterName, 'Duplicates per round (at most 1000)')
            [CompletionResult]::new('--rounds', '--rounds', [CompletionResultType]::ParameterName, 'Rounds to run, each with a fresh key (at most 100000)')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'Which round of several to print in full: worst (most executions, then most 2xx answers), first, last, or a round number')
            [CompletionResult]::new('--sync', '--sync', [CompletionResultType]::ParameterName, 'How the duplicates are made to arrive together')
            [CompletionResult]::new('--stagger', '--stagger', [CompletionResultType]::ParameterName, 'Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together (at most 10s)')
            [CompletionResult]::new('--also', '--also', [CompletionResultType]::ParameterName, 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Refused: idem race connects directly (a proxy would serialise the duplicates)')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'No effect: idem race reaches every host directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--require-count', '--require-count', [CompletionResultType]::ParameterName, 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth')
            [CompletionResult]::new('--distinct-keys', '--distinct-keys', [CompletionResultType]::ParameterName, 'Give every duplicate its own key (a control: each should execute)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;window' {
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key [default: Idempotency-Key; idem check: the --profile''s]')
            [CompletionResult]::new('--key-in', '--key-in', [CompletionResultType]::ParameterName, 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation''s field) or jsonrpc-meta (the JSON-RPC request''s meta.idempotency_key, as ACP''s MCP binding) [default: header:Idempotency-Key]')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long (at most 1h)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'The widest spacing probed (at most 1m)')
            [CompletionResult]::new('--probes', '--probes', [CompletionResultType]::ParameterName, 'Pairs per spacing; a spacing executed twice if any pair did (at most 100)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Refused: idem window connects directly (a proxy would serialise the duplicates)')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'No effect: idem window reaches every host directly')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--require-count', '--require-count', [CompletionResultType]::ParameterName, 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;check' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one (or set IDEM_KEY)')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key [default: Idempotency-Key; idem check: the --profile''s]')
            [CompletionResult]::new('--key-in', '--key-in', [CompletionResultType]::ParameterName, 'Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME, graphql (an @idempotent(key:) directive on the mutation''s field) or jsonrpc-meta (the JSON-RPC request''s meta.idempotency_key, as ACP''s MCP binding) [default: header:Idempotency-Key]')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long (at most 1h)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests to the target (--count-url reads not counted): the run stops before the request that would exceed it, with exit status 2')
            [CompletionResult]::new('--noproxy', '--noproxy', [CompletionResultType]::ParameterName, 'Reach these hosts directly: hosts, domains (subdomains included), IPs or CIDR ranges, comma-separated, ''*'' for all; overrides NO_PROXY')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the concurrency check sends (at most 1000)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the concurrency check sends (at most 1000)')
            [CompletionResult]::new('--window-max', '--window-max', [CompletionResultType]::ParameterName, 'When concurrent-once fails, measure the race window (advisory `race-window`) up to this spacing; 0 skips it (at most 1m)')
            [CompletionResult]::new('--also', '--also', [CompletionResultType]::ParameterName, 'Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The contract to judge against: the key header and length, the statuses for a missing key, a changed body and work in flight, the replay marker, which stored answers are replayed (`--list --profile P` shows what each check requires under it) [default: ietf]')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'A header of a second caller, ''Authorization: Bearer other'' (repeatable), for caller-scoped')
            [CompletionResult]::new('--other-url', '--other-url', [CompletionResultType]::ParameterName, 'Another endpoint that accepts the same body, for path-scoped')
            [CompletionResult]::new('--work-hint', '--work-hint', [CompletionResultType]::ParameterName, 'How long one request takes on the server, so the in-flight checks retry late in the work (at most 1h)')
            [CompletionResult]::new('--max-work', '--max-work', [CompletionResultType]::ParameterName, 'The latest retry of lease-outlives-work while the first request still runs (at most 1h)')
            [CompletionResult]::new('--server-cmd', '--server-cmd', [CompletionResultType]::ParameterName, 'The command (run by sh -c) that starts the server under test on the URL''s port, for crash-recovers')
            [CompletionResult]::new('--stuck-for', '--stuck-for', [CompletionResultType]::ParameterName, 'How long crash-recovers retries after the restart before it calls the key stuck (at most 1h)')
            [CompletionResult]::new('--retention', '--retention', [CompletionResultType]::ParameterName, 'How long the server keeps a key''s record (or its lease): expired-key-taken-once waits it out, then races duplicates with the expired key (at most 1h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Judge only this check (repeatable; --list shows the ids)')
            [CompletionResult]::new('--skip', '--skip', [CompletionResultType]::ParameterName, 'Leave this check out (repeatable)')
            [CompletionResult]::new('--expect-fail', '--expect-fail', [CompletionResultType]::ParameterName, 'This check is known to fail: report it as an expected failure (xfail), which does not fail the run (repeatable)')
            [CompletionResult]::new('--junit-warnings', '--junit-warnings', [CompletionResultType]::ParameterName, 'How an advisory warning appears in --format junit')
            [CompletionResult]::new('--openapi', '--openapi', [CompletionResultType]::ParameterName, 'Test every operation of this OpenAPI 3.0/3.1 document (a file, - for stdin, or an http(s) URL; JSON or YAML; at most 32 MiB) that declares the key header, instead of one URL')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Where the API is [default: the spec''s first server, else the origin it was fetched from]')
            [CompletionResult]::new('--include-path', '--include-path', [CompletionResultType]::ParameterName, 'Test only operations with this path template, e.g. /payments/{id} (repeatable)')
            [CompletionResult]::new('--include-path-regex', '--include-path-regex', [CompletionResultType]::ParameterName, 'Test only operations whose path matches this regular expression (repeatable)')
            [CompletionResult]::new('--exclude-path', '--exclude-path', [CompletionResultType]::ParameterName, 'Skip operations with this path template (repeatable)')
            [CompletionResult]::new('--exclude-path-regex', '--exclude-path-regex', [CompletionResultType]::ParameterName, 'Skip operations whose path matches this regular expression (repeatable)')
            [CompletionResult]::new('--include-method', '--include-method', [CompletionResultType]::ParameterName, 'Test only operations with this method (repeatable)')
            [CompletionResult]::new('--include-method-regex', '--include-method-regex', [CompletionResultType]::ParameterName, 'Test only operations whose method matches this regular expression (repeatable)')
            [CompletionResult]::new('--exclude-method', '--exclude-method', [CompletionResultType]::ParameterName, 'Skip operations with this method (repeatable)')
            [CompletionResult]::new('--exclude-method-regex', '--exclude-method-regex', [CompletionResultType]::ParameterName, 'Skip operations whose method matches this regular expression (repeatable)')
            [CompletionResult]::new('--include-operation-id', '--include-operation-id', [CompletionResultType]::ParameterName, 'Test only the operation with this operationId (repeatable)')
            [CompletionResult]::new('--include-operation-id-regex', '--include-operation-id-regex', [CompletionResultType]::ParameterName, 'Test only operations whose operationId matches this regular expression (repeatable)')
            [CompletionResult]::new('--exclude-operation-id', '--exclude-operation-id', [CompletionResultType]::ParameterName, 'Skip the operation with this operationId (repeatable)')
            [CompletionResult]::new('--exclude-operation-id-regex', '--exclude-operation-id-regex', [CompletionResultType]::ParameterName, 'Skip operations whose operationId matches this regular expression (repeatable)')
            [CompletionResult]::new('--include-tag', '--include-tag', [CompletionResultType]::ParameterName, 'Test only operations with this tag (repeatable)')
            [CompletionResult]::new('--include-tag-regex', '--include-tag-regex', [CompletionResultType]::ParameterName, 'Test only operations with a tag matching this regular expression (repeatable)')
            [CompletionResult]::new('--exclude-tag', '--exclude-tag', [CompletionResultType]::ParameterName, 'Skip operations with this tag (repeatable)')
            [CompletionResult]::new('--exclude-tag-regex', '--exclude-tag-regex', [CompletionResultType]::ParameterName, 'Skip operations with a tag matching this regular expression (repeatable)')
            [CompletionResult]::new('--param', '--param', [CompletionResultType]::ParameterName, 'A path, query or header parameter''s value, name=value (repeatable); wins over the spec''s examples')
            [CompletionResult]::new('--max-operations', '--max-operations', [CompletionResultType]::ParameterName, 'Test at most this many operations (the rest are listed as skipped)')
            [CompletionResult]::new('--count-url-template', '--count-url-template', [CompletionResultType]::ParameterName, 'Each operation''s count of side effects (a GET, as --count-url), {operationId} filled in: http://127.0.0.1:8080/counts/{operationId}. An operation''s own x-idem-count-url (and x-idem-count-pointer) wins; --count-url applies when neither is given')
            [CompletionResult]::new('--concurrent-operations', '--concurrent-operations', [CompletionResultType]::ParameterName, 'How many operations are checked at the same time (1: one operation''s checks never overlap another''s) (at most 64)')
            [CompletionResult]::new('--proxy', '--proxy', [CompletionResultType]::ParameterName, 'Send the plain requests through this proxy (http://, https:// or socks5h://; overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '''' for none); concurrent-once and race-window connect directly, as idem race does')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--require-count', '--require-count', [CompletionResultType]::ParameterName, 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth')
            [CompletionResult]::new('--require-key', '--require-key', [CompletionResultType]::ParameterName, 'The endpoint must refuse a request without a key with 400')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'Print what a run would send (operations, URLs, bodies, the checks'' requests, the resources a correct API creates) and send nothing')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print every check of this suite (id, level, what it proves, how to fix it) and exit')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Send the requests (and your -H headers) to the spec''s first server even when it is not this machine, or, for a spec fetched from a URL, not the host it came from')
            [CompletionResult]::new('--include-deprecated', '--include-deprecated', [CompletionResultType]::ParameterName, 'Test deprecated operations too')
            [CompletionResult]::new('--all-unsafe', '--all-unsafe', [CompletionResultType]::ParameterName, 'Also test every POST and PATCH that does not declare the key header')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;run' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Where the API is: replaces the servers of every source document (a document''s server that is not this machine is refused without it)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Read this source description from PATH or URL instead of its `url` (repeatable; a URL in the description itself is read only when given here)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'A workflow input, NAME=VALUE (repeatable); VALUE is JSON when it parses (500, true, {"a":1}), else text')
            [CompletionResult]::new('--inputs', '--inputs', [CompletionResultType]::ParameterName, 'A JSON or YAML object of workflow inputs (--input wins on the same name)')
            [CompletionResult]::new('--workflow', '--workflow', [CompletionResultType]::ParameterName, 'Run only this workflow (and the workflows it dependsOn)')
            [CompletionResult]::new('--probes', '--probes', [CompletionResultType]::ParameterName, 'The probes of every keyed step, comma-separated [default: all that apply]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the race probe sends (at most 1000)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the race probe sends (at most 1000)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'The contract the probes are judged against (see idem check --profile) [default: ietf]')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A header for every step''s request, ''Name: value'' (repeatable): auth, tenant')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header for every step''s request, ''Name: value'' (repeatable): auth, tenant')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a keyed step''s answer')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long (at most 1h)')
            [CompletionResult]::new('--max-requests', '--max-requests', [CompletionResultType]::ParameterName, 'Send at most this many requests (count reads not counted): the run stops before the request that would exceed it, with exit status 2')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Receive the webhooks steps expect (x-idem-expect-webhook) on ADDR (127.0.0.1:9000), where the API under test delivers them: an embedded webhook listen verifies and counts them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'Print each workflow''s steps, their operations, probes and an estimate of requests and resources created, and send nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;serve' {
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'Where to listen; port 0 picks a free port and prints it')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'How keys are handled: correct, or one of the deliberately broken modes')
            [CompletionResult]::new('--work', '--work', [CompletionResultType]::ParameterName, 'Simulated time a payment takes, so duplicates can overlap (at most 10m)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'How long a completed key''s response is kept for replay (at most 168h, a week)')
            [CompletionResult]::new('--mode-on', '--mode-on', [CompletionResultType]::ParameterName, 'Apply --mode to this endpoint only (/customers, /payments or /refunds); every other endpoint is correct, so a customers → payments → refunds flow breaks one step at a time')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest request body accepted (at most 1GiB)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Log format: a colored line per request, or JSON lines')
            [CompletionResult]::new('--store', '--store', [CompletionResultType]::ParameterName, 'Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]')
            [CompletionResult]::new('--lease', '--lease', [CompletionResultType]::ParameterName, 'How long a claim holds without renewal; a duplicate after a crashed owner''s lease takes the key over (at most 24h)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--require-key', '--require-key', [CompletionResultType]::ParameterName, 'Answer a POST without an idempotency key with 400')
            [CompletionResult]::new('--any-path', '--any-path', [CompletionResultType]::ParameterName, 'Answer a POST to any path as POST /payments (each path its own key scope), e.g. to try `idem check --openapi` on a whole spec')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;proxy' {
            [CompletionResult]::new('--upstream', '--upstream', [CompletionResultType]::ParameterName, 'The API to forward to, e.g. http://127.0.0.1:8080 (its path, if any, prefixes every request''s)')
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'Where the client under test connects; port 0 picks a free port and prints it')
            [CompletionResult]::new('--fault', '--fault', [CompletionResultType]::ParameterName, 'What happens to a faulted attempt: lose-answer, timeout, reset, status:CODE or delay:DUR')
            [CompletionResult]::new('--hold', '--hold', [CompletionResultType]::ParameterName, 'With --fault timeout: hold the answer this long (or until the client gives up), then drop it (at most 1h)')
            [CompletionResult]::new('--retry-after', '--retry-after', [CompletionResultType]::ParameterName, 'With --fault status:CODE: send Retry-After with this many seconds (at most 86400, a day)')
            [CompletionResult]::new('--first', '--first', [CompletionResultType]::ParameterName, 'Fault the first N attempts of each logical operation (at most 1000) [default: 1]')
            [CompletionResult]::new('--every', '--every', [CompletionResultType]::ParameterName, 'Fault every K-th judged attempt, across operations (at most 1000000)')
            [CompletionResult]::new('--probability', '--probability', [CompletionResultType]::ParameterName, 'Fault each judged attempt with this probability (0 to 1)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for --probability, to repeat a run exactly')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Which requests are judged (and faulted), ''METHOD /path*'' or ''/path*'' (repeatable) [default: every request but GET, HEAD and OPTIONS]')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Attempts without a key, or with a new one, continue an operation with the same method, path and body within this time (at most 1h); an operation idle this long is judged and dropped from memory')
            [CompletionResult]::new('--window-ops', '--window-ops', [CompletionResultType]::ParameterName, 'Hold at most this many operations open (at least 1): past it the oldest is judged and dropped from memory, idle or not')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in the upstream''s answers')
            [CompletionResult]::new('--operations', '--operations', [CompletionResultType]::ParameterName, 'Stop and judge once this many operations have ended (at most 100000)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on the upstream''s answer after this long (the client then gets 502) (at most 1h)')
            [CompletionResult]::new('--idle-timeout', '--idle-timeout', [CompletionResultType]::ParameterName, 'Close a client''s connection after this long without a request being handled (silent, idle between requests, or still sending its headers); a request body stalling this long gets 408 (at most 1h)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Live lines and summary for people, or JSON lines')
            [CompletionResult]::new('--count-url', '--count-url', [CompletionResultType]::ParameterName, 'A URL whose GET returns how many side effects the server has (charges, orders, processed deliveries): read before and after each step, it decides how many times the server executed Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads several: every ledger is judged, and any one showing a second execution fails')
            [CompletionResult]::new('--count-pointer', '--count-pointer', [CompletionResultType]::ParameterName, 'JSON pointer to the count in the --count-url answer: a number, or an array whose length counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable')
            [CompletionResult]::new('--count-header', '--count-header', [CompletionResultType]::ParameterName, 'A header for the --count-url GET only (''Authorization: Bearer …''), repeatable; added to the command''s own -H headers, which the GET carries too where the command has -H; ''LEDGER=NAME: VALUE'' for one named ledger only')
            [CompletionResult]::new('--count-settle', '--count-settle', [CompletionResultType]::ParameterName, 'Re-read the count until two reads this far apart agree, before and after each step, so work the server does after answering is counted [default: 200ms, or 3 times the step''s slowest answer when longer] (at most 1m)')
            [CompletionResult]::new('--count-settle-max', '--count-settle-max', [CompletionResultType]::ParameterName, 'The longest the count is re-read before it is judged: one still moving then is unconfirmed (at most 10m)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate from an https upstream')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate from an https upstream')
            [CompletionResult]::new('--require-count', '--require-count', [CompletionResultType]::ParameterName, 'Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;demo' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;help' {
            [CompletionResult]::new('send', 'send', [CompletionResultType]::ParameterValue, 'Send a request with an idempotency key, optionally repeated, and judge the answers')
            [CompletionResult]::new('race', 'race', [CompletionResultType]::ParameterValue, 'Fire synchronised concurrent duplicates (one key) to expose race conditions')
            [CompletionResult]::new('window', 'window', [CompletionResultType]::ParameterValue, 'Measure how far apart two duplicates (one key) can arrive and both still execute')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the workflows of an Arazzo description, probing every keyed step (retry, race, lost answer, mismatch)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)')
            [CompletionResult]::new('proxy', 'proxy', [CompletionResultType]::ParameterValue, 'Stand between a client and its API, lose answers on purpose, and judge how the client retries')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Tell the whole story on this machine: reference servers, retries, verdicts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'idem;help;send' {
            break
        }
        'idem;help;race' {
            break
        }
        'idem;help;window' {
            break
        }
        'idem;help;check' {
            break
        }
        'idem;help;run' {
            break
        }
        'idem;help;serve' {
            break
        }
        'idem;help;proxy' {
            break
        }
        'idem;help;demo' {
            break
        }
        'idem;help;completions' {
            break
        }
        'idem;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
