_idem() {
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
                cmd="idem"
                ;;
            idem,check)
                cmd="idem__subcmd__check"
                ;;
            idem,completions)
                cmd="idem__subcmd__completions"
                ;;
            idem,demo)
                cmd="idem__subcmd__demo"
                ;;
            idem,help)
                cmd="idem__subcmd__help"
                ;;
            idem,proxy)
                cmd="idem__subcmd__proxy"
                ;;
            idem,race)
                cmd="idem__subcmd__race"
                ;;
            idem,run)
                cmd="idem__subcmd__run"
                ;;
            idem,send)
                cmd="idem__subcmd__send"
                ;;
            idem,serve)
                cmd="idem__subcmd__serve"
                ;;
            idem,window)
                cmd="idem__subcmd__window"
                ;;
            idem__subcmd__help,check)
                cmd="idem__subcmd__help__subcmd__check"
                ;;
            idem__subcmd__help,completions)
                cmd="idem__subcmd__help__subcmd__completions"
                ;;
            idem__subcmd__help,demo)
                cmd="idem__subcmd__help__subcmd__demo"
                ;;
            idem__subcmd__help,help)
                cmd="idem__subcmd__help__subcmd__help"
                ;;
            idem__subcmd__help,proxy)
                cmd="idem__subcmd__help__subcmd__proxy"
                ;;
            idem__subcmd__help,race)
                cmd="idem__subcmd__help__subcmd__race"
                ;;
            idem__subcmd__help,run)
                cmd="idem__subcmd__help__subcmd__run"
                ;;
            idem__subcmd__help,send)
                cmd="idem__subcmd__help__subcmd__send"
                ;;
            idem__subcmd__help,serve)
                cmd="idem__subcmd__help__subcmd__serve"
                ;;
            idem__subcmd__help,window)
                cmd="idem__subcmd__help__subcmd__window"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        idem)
            opts="-h -V --color --help --version send race window check run serve proxy demo completions help"
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
        idem__subcmd__check)
            opts="-H -k -n -d -X -h -V --header --max-body --key --key-format --key-header --key-in --no-key --id-field --id-header --timeout --insecure --http2 --max-requests --noproxy --count-url --count-pointer --count-header --count-settle --count-settle-max --require-count --concurrency --require-key --window-max --also --profile --as --other-url --work-hint --max-work --server-cmd --stuck-for --retention --format --plan --only --skip --expect-fail --strict --junit-warnings --list --openapi --base-url --allow-remote --include-path --include-path-regex --exclude-path --exclude-path-regex --include-method --include-method-regex --exclude-method --exclude-method-regex --include-operation-id --include-operation-id-regex --exclude-operation-id --exclude-operation-id-regex --include-tag --include-tag-regex --exclude-tag --exclude-tag-regex --include-deprecated --all-unsafe --param --max-operations --count-url-template --concurrent-operations --proxy --data --method --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -H)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-format)
                    COMPREPLY=($(compgen -W "uuid4 uuid7" -- "${cur}"))
                    return 0
                    ;;
                --key-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-in)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-header)
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
                --noproxy)
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
                --concurrency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window-max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --also)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "ietf stripe adyen paypal checkout worldline acp ucp strict" -- "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --other-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --work-hint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-work)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --server-cmd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stuck-for)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retention)
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
                --openapi)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-path-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-path-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-method-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-method-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-operation-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-operation-id-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-operation-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-operation-id-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --include-tag-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude-tag-regex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-operations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count-url-template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --concurrent-operations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy)
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
                --method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
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
        idem__subcmd__completions)
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
        idem__subcmd__demo)
            opts="-h -V --color --help --version"
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
        idem__subcmd__help)
            opts="send race window check run serve proxy demo completions help"
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
        idem__subcmd__help__subcmd__check)
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
        idem__subcmd__help__subcmd__completions)
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
        idem__subcmd__help__subcmd__demo)
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
        idem__subcmd__help__subcmd__help)
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
        idem__subcmd__help__subcmd__proxy)
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
        idem__subcmd__help__subcmd__race)
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
        idem__subcmd__help__subcmd__run)
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
        idem__subcmd__help__subcmd__send)
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
        idem__subcmd__help__subcmd__serve)
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
        idem__subcmd__help__subcmd__window)
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
        idem__subcmd__proxy)
            opts="-k -h -V --upstream --addr --fault --hold --retry-after --first --every --probability --seed --match --window --window-ops --key-header --id-field --operations --tls --insecure --timeout --idle-timeout --format --count-url --count-pointer --count-header --count-settle --count-settle-max --require-count --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --upstream)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --addr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fault)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --first)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --probability)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window-ops)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --operations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
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
        idem__subcmd__race)
            opts="-X -H -d -k -n -h -V --method --header --data --max-body --key --key-format --key-header --key-in --no-key --id-field --id-header --timeout --insecure --http2 --max-requests --count-url --count-pointer --count-header --count-settle --count-settle-max --require-count --requests --rounds --detail --sync --distinct-keys --stagger --also --format --proxy --noproxy --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
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
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-format)
                    COMPREPLY=($(compgen -W "uuid4 uuid7" -- "${cur}"))
                    return 0
                    ;;
                --key-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-in)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-header)
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
                --detail)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sync)
                    COMPREPLY=($(compgen -W "auto single-packet last-byte none" -- "${cur}"))
                    return 0
                    ;;
                --stagger)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --also)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json html" -- "${cur}"))
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
        idem__subcmd__run)
            opts="-n -H -k -h -V --base-url --source --input --inputs --workflow --probes --concurrency --profile --header --id-field --timeout --insecure --max-requests --count-url --count-pointer --count-header --count-settle --count-settle-max --listen --plan --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --source)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --inputs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --workflow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --probes)
                    COMPREPLY=($(compgen -W "retry race lost-answer mismatch" -- "${cur}"))
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
                --profile)
                    COMPREPLY=($(compgen -W "ietf stripe adyen paypal checkout worldline acp ucp strict" -- "${cur}"))
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
                --id-field)
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
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json junit html" -- "${cur}"))
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
        idem__subcmd__send)
            opts="-X -H -d -k -h -V --method --header --data --max-body --key --key-format --key-header --key-in --no-key --id-field --id-header --timeout --insecure --http2 --max-requests --proxy --noproxy --count-url --count-pointer --count-header --count-settle --count-settle-max --require-count --repeat --interval --max-attempts --retry --retry-on --backoff --backoff-max --new-key-per-retry --json --format --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
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
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-format)
                    COMPREPLY=($(compgen -W "uuid4 uuid7" -- "${cur}"))
                    return 0
                    ;;
                --key-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-in)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-header)
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
                --repeat)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-attempts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retry-on)
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
        idem__subcmd__serve)
            opts="-h -V --addr --mode --work --ttl --require-key --any-path --mode-on --max-body --tls --format --store --lease --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --addr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mode)
                    COMPREPLY=($(compgen -W "correct naive none local-lock unscoped short-lease sticky-lock drops-headers delete-on-error sticky-decline orphan-takeover" -- "${cur}"))
                    return 0
                    ;;
                --work)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ttl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mode-on)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json" -- "${cur}"))
                    return 0
                    ;;
                --store)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lease)
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
        idem__subcmd__window)
            opts="-X -H -d -k -h -V --method --header --data --max-body --key --key-format --key-header --key-in --no-key --id-field --id-header --timeout --insecure --http2 --max-requests --count-url --count-pointer --count-header --count-settle --count-settle-max --require-count --max --probes --format --proxy --noproxy --color --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --method)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -X)
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
                --data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-format)
                    COMPREPLY=($(compgen -W "uuid4 uuid7" -- "${cur}"))
                    return 0
                    ;;
                --key-header)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-in)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id-header)
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
                --max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --probes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "human json html" -- "${cur}"))
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
    complete -F _idem -o nosort -o bashdefault -o default idem
else
    complete -F _idem -o bashdefault -o default idem
fi
