_webhook() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="webhook"
                ;;
            webhook,check)
                cmd="webhook__subcmd__check"
                ;;
            webhook,check-sender)
                cmd="webhook__subcmd__check__subcmd__sender"
                ;;
            webhook,completions)
                cmd="webhook__subcmd__completions"
                ;;
            webhook,help)
                cmd="webhook__subcmd__help"
                ;;
            webhook,journal)
                cmd="webhook__subcmd__journal"
                ;;
            webhook,listen)
                cmd="webhook__subcmd__listen"
                ;;
            webhook,race)
                cmd="webhook__subcmd__race"
                ;;
            webhook,replay)
                cmd="webhook__subcmd__replay"
                ;;
            webhook,schemes)
                cmd="webhook__subcmd__schemes"
                ;;
            webhook,secret)
                cmd="webhook__subcmd__secret"
                ;;
            webhook,send)
                cmd="webhook__subcmd__send"
                ;;
            webhook,sign)
                cmd="webhook__subcmd__sign"
                ;;
            webhook,verify)
                cmd="webhook__subcmd__verify"
                ;;
            webhook__subcmd__help,check)
                cmd="webhook__subcmd__help__subcmd__check"
                ;;
            webhook__subcmd__help,check-sender)
                cmd="webhook__subcmd__help__subcmd__check__subcmd__sender"
                ;;
            webhook__subcmd__help,completions)
                cmd="webhook__subcmd__help__subcmd__completions"
                ;;
            webhook__subcmd__help,help)
                cmd="webhook__subcmd__help__subcmd__help"
                ;;
            webhook__subcmd__help,journal)
                cmd="webhook__subcmd__help__subcmd__journal"
                ;;
            webhook__subcmd__help,listen)
                cmd="webhook__subcmd__help__subcmd__listen"
                ;;
            webhook__subcmd__help,race)
                cmd="webhook__subcmd__help__subcmd__race"
                ;;
            webhook__subcmd__help,replay)
                cmd="webhook__subcmd__help__subcmd__replay"
                ;;
            webhook__subcmd__help,schemes)
                cmd="webhook__subcmd__help__subcmd__schemes"
                ;;
            webhook__subcmd__help,secret)
                cmd="webhook__subcmd__help__subcmd__secret"
                ;;
            webhook__subcmd__help,send)
                cmd="webhook__subcmd__help__subcmd__send"
                ;;
            webhook__subcmd__help,sign)
                cmd="webhook__subcmd__help__subcmd__sign"
                ;;
            webhook__subcmd__help,verify)
                cmd="webhook__subcmd__help__subcmd__verify"
                ;;
            webhook__subcmd__help__subcmd__journal,list)
                cmd="webhook__subcmd__help__subcmd__journal__subcmd__list"
                ;;
            webhook__subcmd__help__subcmd__journal,replay)
                cmd="webhook__subcmd__help__subcmd__journal__subcmd__replay"
                ;;
            webhook__subcmd__help__subcmd__journal,show)
                cmd="webhook__subcmd__help__subcmd__journal__subcmd__show"
                ;;
            webhook__subcmd__journal,help)
                cmd="webhook__subcmd__journal__subcmd__help"
                ;;
            webhook__subcmd__journal,list)
                cmd="webhook__subcmd__journal__subcmd__list"
                ;;
            webhook__subcmd__journal,replay)
                cmd="webhook__subcmd__journal__subcmd__replay"
                ;;
            webhook__subcmd__journal,show)
                cmd="webhook__subcmd__journal__subcmd__show"
                ;;
            webhook__subcmd__journal__subcmd__help,help)
                cmd="webhook__subcmd__journal__subcmd__help__subcmd__help"
                ;;
            webhook__subcmd__journal__subcmd__help,list)
                cmd="webhook__subcmd__journal__subcmd__help__subcmd__list"
                ;;
            webhook__subcmd__journal__subcmd__help,replay)
                cmd="webhook__subcmd__journal__subcmd__help__subcmd__replay"
                ;;
            webhook__subcmd__journal__subcmd__help,show)
                cmd="webhook__subcmd__journal__subcmd__help__subcmd__show"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        webhook)
            opts="-h -V --color --help --version sign verify secret schemes send replay race check check-sender listen journal completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__check)
            opts="-n -d -k -h -V --scheme --count-url --count-pointer --count-header --count-settle --count-settle-max --concurrency --http2 --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --event --data --tolerance --timeout --ack-within --insecure --max-requests --proxy --noproxy --format --only --skip --expect-fail --strict --junit-warnings --list --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --count-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-pointer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-settle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-settle-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ack-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --noproxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json junit html" -- "${cur}"))
                    return 0
                    ;;
                --only)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expect-fail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit-warnings)
                    COMPREPLY=($(compgen -W "skipped passed failed" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__check__subcmd__sender)
            opts="-h -V --addr --path --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --public-key --tolerance --script --events --timeout --record --format --only --skip --expect-fail --strict --junit-warnings --list --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --addr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "auto hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --script)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --events)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --record)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json junit html" -- "${cur}"))
                    return 0
                    ;;
                --only)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expect-fail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --junit-warnings)
                    COMPREPLY=($(compgen -W "skipped passed failed" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__completions)
            opts="-h -V --color --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help)
            opts="sign verify secret schemes send replay race check check-sender listen journal completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__check__subcmd__sender)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__journal)
            opts="list show replay"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__journal__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__journal__subcmd__replay)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__journal__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__listen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__race)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__replay)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__schemes)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__secret)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__send)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__sign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal)
            opts="-h -V --type --status --since --follow --ui --diff --compare --format --color --help --version list show replay help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ui)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --diff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__help)
            opts="list show replay help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__help__subcmd__replay)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__list)
            opts="-h -V --type --status --since --follow --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__replay)
            opts="-k -h -V --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --verbatim --as --max-attempts --backoff --backoff-max --schedule --time-scale --timeout --insecure --max-requests --proxy --noproxy --type --status --since --follow --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -W "github slack stripe standard" -- "${cur}"))
                    return 0
                    ;;
                --max-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --schedule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --noproxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__journal__subcmd__show)
            opts="-h -V --type --status --since --follow --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__listen)
            opts="-v -h -V --addr --path --scheme --allow --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --public-key --tolerance --public-url --accept-invalid --verify-token --confirm-subscriptions --verify-token-file --max-body --ui --ui-path --record --fsync --forward-to --route --forward-retries --forward-backoff --ack-always --forward-http2 --re-sign --re-sign-file --print-secret --forward-timeout --dedupe --dedupe-window --dedupe-max --status --fail-first --delay --idle-timeout --verbose --format --include-body --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --addr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "auto hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --verify-token)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --verify-token-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ui)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ui-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --record)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --forward-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --route)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --forward-retries)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --forward-backoff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --re-sign)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --re-sign-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --forward-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dedupe-window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dedupe-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fail-first)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --delay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idle-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__race)
            opts="-d -n -k -h -V --data --event --set --unset --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --id --requests --rounds --max-requests --count-url --count-pointer --count-header --count-settle --count-settle-max --http2 --insecure --timeout --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rounds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-pointer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-settle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-settle-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json html" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__replay)
            opts="-k -h -V --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --resign --verbatim --event-type --failed --latest-per-event --id --include-invalid --rate --as --max-attempts --backoff --backoff-max --schedule --time-scale --timeout --insecure --max-requests --proxy --noproxy --order --seed --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -W "github slack stripe standard" -- "${cur}"))
                    return 0
                    ;;
                --max-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --schedule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --noproxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --order)
                    COMPREPLY=($(compgen -W "as-is reverse shuffle" -- "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__schemes)
            opts="-h -V --format --scheme-file --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__secret)
            opts="-h -V --scheme --scheme-file --asymmetric --format --out --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__send)
            opts="-d -k -h -V --list-events --data --event --set --unset --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --id --times --concurrency --chain --handshake --verify-token --verify-token-file --as --max-attempts --backoff --backoff-max --schedule --time-scale --timeout --insecure --max-requests --proxy --noproxy --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --list-events)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --times)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --handshake)
                    COMPREPLY=($(compgen -W "provider slack discord zoom twitch meta dropbox graph event-grid cloudevents x-crc" -- "${cur}"))
                    return 0
                    ;;
                --verify-token)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --verify-token-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -W "github slack stripe standard" -- "${cur}"))
                    return 0
                    ;;
                --max-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --backoff-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --schedule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --noproxy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__sign)
            opts="-d -h -V --data --event --set --unset --scheme --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --id --timestamp --format --url --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --event)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --set)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unset)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timestamp)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "headers curl http json" -- "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        webhook__subcmd__verify)
            opts="-d -H -h -V --data --header --request --url --scheme --allow --secret --secret-file --svix --scheme-file --signature-header --encoding --prefix --cert-url --webhook-id --trust-ca --connect-to --public-key --tolerance --now --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -H)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme)
                    COMPREPLY=($(compgen -W "auto hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "hmac github stripe standard slack shopify meta zoom twitch typeform intercom vercel bitbucket coinbase-commerce linear discord sendgrid paddle calendly mux gitlab woocommerce sentry razorpay dropbox mailgun adyen twilio square hubspot sns paypal svix clerk resend replicate openai" -- "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scheme-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --signature-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=($(compgen -W "hex base64" -- "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --webhook-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trust-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --connect-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _webhook -o nosort -o bashdefault -o default webhook
else
    complete -F _webhook -o bashdefault -o default webhook
fi
