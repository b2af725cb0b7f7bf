
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'webhook;sign' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed, never read whole) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The body: DATA, @file (streamed, never read whole) or @- for stdin; with --event, the JSON for the envelope''s `data`')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Build the body as an event envelope {"id","type","created","data"} of this type')
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Sign this delivery id (and use it as the envelope''s event id) instead of a fresh one')
            [CompletionResult]::new('--timestamp', '--timestamp', [CompletionResultType]::ParameterName, 'Sign this Unix timestamp instead of now')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'What to print')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Where the webhook goes, for --format curl and http')
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
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The signing scheme, or auto to pick it from the headers')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible to other users')
            [CompletionResult]::new('--secret-file', '--secret-file', [CompletionResultType]::ParameterName, 'Read the secret from this file (one trailing newline is dropped)')
            [CompletionResult]::new('--signature-header', '--signature-header', [CompletionResultType]::ParameterName, '--scheme hmac: the header that carries the signature [default: X-Signature]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, '--scheme hmac: how the signature is written [default: hex]')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, '--scheme hmac: text before the signature, may be empty [default: sha256=]')
            [CompletionResult]::new('--tolerance', '--tolerance', [CompletionResultType]::ParameterName, 'How far a signed timestamp may be from now, in either direction')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Judge timestamps as if it were this Unix time (to check a recorded delivery)')
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
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'The scheme the secret is for: whsec_ + base64 for standard and stripe, hex for the others')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the output')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
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
