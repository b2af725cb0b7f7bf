
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
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)')
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
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long')
            [CompletionResult]::new('--repeat', '--repeat', [CompletionResultType]::ParameterName, 'Send the same request this many times with the same key, then judge the answers')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Wait this long between repeats')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
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
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Duplicates per round')
            [CompletionResult]::new('--requests', '--requests', [CompletionResultType]::ParameterName, 'Duplicates per round')
            [CompletionResult]::new('--rounds', '--rounds', [CompletionResultType]::ParameterName, 'Rounds to run, each with a fresh key')
            [CompletionResult]::new('--sync', '--sync', [CompletionResultType]::ParameterName, 'How the duplicates are made to arrive together')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--distinct-keys', '--distinct-keys', [CompletionResultType]::ParameterName, 'Give every duplicate its own key (a control: each should execute)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;check' {
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'HTTP method')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A request header, ''Name: value'' (repeatable)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'The largest body -d reads (it is held in memory to be sent again)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Use this idempotency key instead of a fresh one')
            [CompletionResult]::new('--key-format', '--key-format', [CompletionResultType]::ParameterName, 'The format of generated keys')
            [CompletionResult]::new('--key-header', '--key-header', [CompletionResultType]::ParameterName, 'The header that carries the key')
            [CompletionResult]::new('--id-field', '--id-field', [CompletionResultType]::ParameterName, 'JSON pointer to the created resource''s id in a response body')
            [CompletionResult]::new('--id-header', '--id-header', [CompletionResultType]::ParameterName, 'The header naming the created resource when the body has no id [default: Location, then Content-Location]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on an answer after this long')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the concurrency check sends')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many concurrent duplicates the concurrency check sends')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--no-key', '--no-key', [CompletionResultType]::ParameterName, 'Send no key at all (a control)')
            [CompletionResult]::new('-k', '-k', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--insecure', '--insecure', [CompletionResultType]::ParameterName, 'Accept any TLS certificate (self-signed, expired, wrong host)')
            [CompletionResult]::new('--http2', '--http2', [CompletionResultType]::ParameterName, 'HTTP/2: prior knowledge on http://, h2 only in ALPN on https://')
            [CompletionResult]::new('--require-key', '--require-key', [CompletionResultType]::ParameterName, 'The endpoint must refuse a request without a key with 400')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'idem;serve' {
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'Where to listen; port 0 picks a free port and prints it')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'How keys are handled: correct, or one of the deliberately broken modes')
            [CompletionResult]::new('--work', '--work', [CompletionResultType]::ParameterName, 'Simulated time a payment takes, so duplicates can overlap')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'How long a completed key''s response is kept for replay')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest request body accepted')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Log format: a colored line per request, or JSON lines')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('--require-key', '--require-key', [CompletionResultType]::ParameterName, 'Answer a POST without an idempotency key with 400')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up')
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
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)')
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
        'idem;help;check' {
            break
        }
        'idem;help;serve' {
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
