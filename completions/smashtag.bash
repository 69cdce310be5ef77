# bash completion for smashtag
_smashtag() {
    local cur prev words cword
    _init_completion || return
    local commands="report help"
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case $prev in
        --format) COMPREPLY=($(compgen -W "csv json ndjson table xlsx html" -- "$cur")); return ;;
        --retweets) COMPREPLY=($(compgen -W "include exclude only" -- "$cur")); return ;;
        --deleted) COMPREPLY=($(compgen -W "skip include" -- "$cur")); return ;;
        --min-count|--top|--jobs|-j|--max-record|-t|--term|--since|--until|--lang|--columns|--by|--tz) return ;;
        --stats|-o|--output) _filedir; return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--term --format --output --min-count --top --jobs --strict --max-record --no-input-limits --deleted --progress --progress=plain --progress=off --stats --quiet --help --since --until --retweets --lang --columns --by --tz" -- "$cur"))
        return
    fi
    _filedir
}
complete -F _smashtag smashtag
