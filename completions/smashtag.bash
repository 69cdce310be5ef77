# bash completion for smashtag
#
# Each command's options are one *_options list, checked against what the
# command's parser takes by Tests/PipelineTests/CompletionTests.swift.
_smashtag() {
    local cur prev words cword
    _init_completion || return
    local commands="report pairs trend posts extract aggregate ingest import track untrack terms history prune export help"
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local input_options="--jobs --strict --max-record --no-input-limits --deleted --mentions-from --id-column --text-column --author-column"
    local report_options="--term --format --output --min-count --top --columns --kinds --by --tz --since --until --retweets --lang --store --wait --progress --progress=plain --progress=off --stats --quiet --help $input_options"
    local pairs_options="--term --format --output --min-count --top --kinds --without-term --max-pair-mentions --since --until --retweets --lang --store --wait --progress --progress=plain --progress=off --stats --quiet --help $input_options"
    local trend_options="--term --current --baseline --now --tz --min-authors --by-tweets --all --format --output --top --kinds --since --until --retweets --lang --store --wait --progress --progress=plain --progress=off --stats --quiet --help $input_options"
    local posts_options="--term --format --output --columns --min-count --top --since --until --retweets --lang --store --wait --progress --progress=plain --progress=off --stats --quiet --help $input_options"
    local command=${words[1]}
    case $prev in
        --format)
            if [[ $command == pairs ]]; then
                COMPREPLY=($(compgen -W "csv json ndjson gexf table xlsx" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "csv json ndjson table xlsx html" -- "$cur"))
            fi
            return ;;
        --retweets) COMPREPLY=($(compgen -W "include exclude only" -- "$cur")); return ;;
        --by) COMPREPLY=($(compgen -W "hour day week month year" -- "$cur")); return ;;
        --mentions-from) COMPREPLY=($(compgen -W "entities text" -- "$cur")); return ;;
        --baseline) COMPREPLY=($(compgen -W "previous weekago mean:" -- "$cur")); return ;;
        --current) COMPREPLY=($(compgen -W "1d 7d 6h 1w" -- "$cur")); return ;;
        --deleted) COMPREPLY=($(compgen -W "skip include" -- "$cur")); return ;;
        --min-count|--top|--max-pair-mentions|--now|--min-authors|--jobs|-j|--max-record|-t|--term|--since|--until|--lang|--columns|--tz|--wait) return ;;
        --kinds) COMPREPLY=($(compgen -W "hashtag,user hashtag user symbol url host domain poster" -- "$cur")); return ;;
        --id-column|--text-column|--author-column) return ;;
        --stats|-o|--output|--store) _filedir; return ;;
    esac
    if [[ $cur == -* ]]; then
        case $command in
            report) COMPREPLY=($(compgen -W "$report_options" -- "$cur")) ;;
            pairs) COMPREPLY=($(compgen -W "$pairs_options" -- "$cur")) ;;
            trend) COMPREPLY=($(compgen -W "$trend_options" -- "$cur")) ;;
            posts) COMPREPLY=($(compgen -W "$posts_options" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
        esac
        return
    fi
    _filedir
}
complete -F _smashtag smashtag
