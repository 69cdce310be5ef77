#!/usr/bin/env python3
"""Writes corpus_cases.json: the corpus cases the Swift tests replay.

Each case names corpus files (relative to the corpus root), the terms, the
min-count (and optionally top), where its expected report lives, and how many
records reference.py skipped as bad input.  Run regenerate.sh afterwards to
rewrite expected/*.csv and expected/*.json from the manifest.

    python3 make_cases.py [CORPUS_ROOT]
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import reference  # noqa: E402

# Every corpus file except twitter-text/ (extraction conformance suite, not
# tweets) and the LICENSE files, in the order a folder walk would read them.
FILES = {
    "darkliquid-twoo_tweets": "darkliquid-twoo/tweets.js",
    "python-twitter_3.2_extended_tweet_in_extended_mode": "python-twitter/3.2/extended_tweet_in_extended_mode.json",
    "python-twitter_get_search_raw": "python-twitter/get_search_raw.json",
    "python-twitter_get_user_timeline_count": "python-twitter/get_user_timeline_count.json",
    "python-twitter_streaming_lines": "python-twitter/streaming/lines.json",
    "sferik-twitter_premium_search_next": "sferik-twitter/premium_search_next.json",
    "sferik-twitter_track_streaming_user": "sferik-twitter/track_streaming_user.json",
    "twarc-csv_brexit": "twarc-csv/brexit.jsonl",
    "twarc-csv_flat": "twarc-csv/flat.jsonl",
    "twarc-csv_kpop": "twarc-csv/kpop.jsonl",
    "twarc-csv_streaming_output_with_error": "twarc-csv/streaming_output_with_error.jsonl",
    "twitter4j_streamingapi-testcase": "twitter4j/streamingapi-testcase.json",
}

# Terms that match something in each file (mixed case on purpose: terms are
# normalised before matching and printed normalised).
TERMS = {
    # An account archive has no author field: from: cannot match there.
    "darkliquid-twoo_tweets": ["@KissItBett3r", "#Dungeon23", "mastodon"],
    # python_twitter.egg-info: "_" is a word character, "." is not.
    "python-twitter_3.2_extended_tweet_in_extended_mode": ["from:NotInOurselves", "python_twitter", "expressive"],
    # 74 of 100 are retweets: @trappokemon comes from retweeted authors.
    "python-twitter_get_search_raw": ["@TrapPokemon", "from:aimeeime", "chillin", "#Snowzilla"],
    "python-twitter_get_user_timeline_count": ["from:jack", "#VRAA", "@twitter", "turkey"],
    # DUPLICATE: id 972473017333899264 (by @Inquired_Mind) is on lines 32 and
    # 55, byte-identical: 72 records, 71 distinct tweets, and from:inquired_mind
    # counts 1 tweet, not 2.  "&&" only matches after unescaping "&amp;&amp;".
    "python-twitter_streaming_lines": ["#BestFanArmy", "@BTS_twt", "from:Inquired_Mind", "&&"],
    "sferik-twitter_premium_search_next": ["#ピザの日", "@Suntory", "from:SSheensuales", "pizza"],
    # Line 3 is a {"direct_message":...} user-stream message: no id at top
    # level and not in the notice list, so it is 1 bad record.
    "sferik-twitter_track_streaming_user": ["from:sferik", "problem", "exactly"],
    # "brexit" (word) also matches "#Brexit" in the text.
    "twarc-csv_brexit": ["#Brexit", "@BorisJohnson", "from:calin_a", "levelled"],
    # "obama" must not match "#BarackObama" (letter before it).
    "twarc-csv_flat": ["obama", "#BarackObama", "@Breaking911", "from:the_reaper2008"],
    "twarc-csv_kpop": ["#LISA", "@ItsLiveOfficial", "from:xtxxzinfo", "blackpink"],
    # Last line is truncated JSON: 1 bad record.
    "twarc-csv_streaming_output_with_error": ["#dogs", "@PoliceMutual", "from:blackheart_265", "would"],
    "twitter4j_streamingapi-testcase": ["from:_Sabrinaa_", "twitter", "querendo"],
}

ALL_TERMS = ["*", "#Brexit", "#BREXIT", "@twitter", "obama", "from:jack", "#kpop", "pizza"]


def cases():
    out = []
    for key, path in FILES.items():
        out.append({"name": key + "_all", "paths": [path], "terms": ["*"], "min_count": 1})
        out.append({"name": key + "_terms", "paths": [path], "terms": TERMS[key], "min_count": 1})
    everything = list(FILES.values())
    out.append({"name": "corpus_all_terms", "paths": everything, "terms": ALL_TERMS, "min_count": 1})
    out.append({"name": "corpus_default_top3", "paths": everything,
                "terms": ["*", "#kpop", "@twitter", "pizza"], "min_count": 2, "top": 3})
    for case in out:
        case["expected"] = "expected/%s.csv" % case["name"]
        case["expected_json"] = "expected/%s.json" % case["name"]
    return out


def count_bad(root, paths):
    bad = reference.Bad()
    reference.run(["*"], [os.path.join(root, p) for p in paths], bad)
    return bad.count


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SMASHTAG_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    result = []
    for case in cases():
        case["bad_records"] = count_bad(root, case["paths"])
        result.append(case)
    with open(os.path.join(HERE, "corpus_cases.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
