// What the fastest validating JSON parser Debian ships does with the bench's
// report (issue 16's plain figure). A measuring peer for `make bench-limits`,
// not part of the product, as Benchmarks/duckdb_report.py is for DuckDB.
//
//   validating_parser dom|ondemand FILE.jsonl
//
// dom:      simdjson's DOM parser over the JSON lines (parse_many): every byte
//           of every record validated, as smashtag validates it; then the
//           fields the report reads.
// ondemand: simdjson's On-Demand front end (iterate_many), which checks
//           UTF-8 and the structure of every byte but not the values it
//           skips (a skipped `tru`, `"\q"` or `01` passes): the speed the
//           issue quotes, without the validation the issue requires.
//
// Both find, for the term #stanford, the tweets whose own or retweeted
// entities (extended_tweet's first) carry it, and print how many distinct
// tweets match and how many mentions those tweets carry: the answer's size,
// to set beside smashtag's `--stats` for the same report.
#include <simdjson.h>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <unordered_set>

using namespace simdjson;

namespace {
struct Tally {
    long records = 0, matching = 0, mentions = 0;
    std::unordered_set<std::string> seen;  // ids copied: a parser reuses its buffers record by record

    // A tweet carrying `n` mentions, the term among them when `hit`: counted once by its id.
    void add(std::string_view id, long n, bool hit) {
        if (hit && !id.empty() && seen.emplace(id).second) { matching++; mentions += n; }
    }
};

bool isTerm(std::string_view t) { return t.size() == 8 && strncasecmp(t.data(), "stanford", 8) == 0; }

// Hashtags and user mentions of an entities object: (mentions, carries the term).
std::pair<long, bool> entities(dom::element e) {
    long n = 0; bool hit = false;
    dom::array list;
    if (e["hashtags"].get_array().get(list) == SUCCESS)
        for (auto h : list) { std::string_view t; if (h["text"].get_string().get(t) == SUCCESS) { n++; hit |= isTerm(t); } }
    if (e["user_mentions"].get_array().get(list) == SUCCESS)
        for (auto u : list) { std::string_view t; if (u["screen_name"].get_string().get(t) == SUCCESS) n++; }
    return {n, hit};
}

std::pair<long, bool> tweetEntities(dom::element tweet) {
    dom::element e;
    if (tweet["extended_tweet"]["entities"].get(e) == SUCCESS) return entities(e);
    if (tweet["entities"].get(e) == SUCCESS) return entities(e);
    return {0, false};
}

int domReport(const padded_string &json, Tally &t) {
    dom::parser parser;
    dom::document_stream stream;
    if (parser.parse_many(json, 4 << 20).get(stream)) return 2;
    for (auto doc : stream) {
        dom::element tweet;
        if (doc.get(tweet)) return 3;  // the bench's data has no bad record
        t.records++;
        std::string_view id;
        if (tweet["id_str"].get_string().get(id)) continue;
        auto [n, hit] = tweetEntities(tweet);
        dom::element rt;
        if (tweet["retweeted_status"].get(rt) == SUCCESS) {
            auto [m, rtHit] = tweetEntities(rt);
            n += m + 1;  // the retweeted author is a mention too
            hit |= rtHit;
        }
        t.add(id, n, hit);
    }
    return 0;
}

template <class Value> std::pair<long, bool> entities(Value e) {
    long n = 0; bool hit = false;
    for (auto field : e.get_object()) {
        std::string_view k = field.unescaped_key();
        if (k == "hashtags") {
            for (auto h : field.value().get_array()) { std::string_view s; if (!h["text"].get_string().get(s)) { n++; hit |= isTerm(s); } }
        } else if (k == "user_mentions") {
            for (auto u : field.value().get_array()) { std::string_view s; if (!u["screen_name"].get_string().get(s)) n++; }
        }
    }
    return {n, hit};
}

// The entities of a tweet object as On-Demand meets them, front to back:
// extended_tweet's when it has them, else its own.
template <class Object> std::pair<long, bool> tweetEntities(Object tweet, std::string_view *id, std::pair<long, bool> *retweeted) {
    std::pair<long, bool> own{0, false}, extended{0, false};
    bool isExtended = false;
    for (auto field : tweet) {
        std::string_view k = field.unescaped_key();
        if (k == "entities") own = entities(field.value());
        else if (k == "extended_tweet") {
            for (auto inner : field.value().get_object())
                if (std::string_view(inner.unescaped_key()) == "entities") { extended = entities(inner.value()); isExtended = true; }
        } else if (id && k == "id_str") { if (field.value().get_string().get(*id)) *id = {}; }
        else if (retweeted && k == "retweeted_status") {
            auto [m, h] = tweetEntities(field.value().get_object(), nullptr, nullptr);
            *retweeted = {m + 1, h};  // the retweeted author is a mention too
        }
    }
    return isExtended ? extended : own;
}

int onDemandReport(const padded_string &json, Tally &t) {
    ondemand::parser parser;
    ondemand::document_stream stream;
    if (parser.iterate_many(json, 4 << 20).get(stream)) return 2;
    for (auto doc : stream) {
        ondemand::object tweet;
        if (doc.get_object().get(tweet)) return 3;
        t.records++;
        std::string_view id;
        std::pair<long, bool> retweeted{0, false};
        auto [n, hit] = tweetEntities(tweet, &id, &retweeted);
        t.add(id, n + retweeted.first, hit || retweeted.second);
    }
    return 0;
}
}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: validating_parser dom|ondemand FILE.jsonl\n"); return 2; }
    padded_string json;
    if (padded_string::load(argv[2]).get(json)) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    Tally t;
    // The parse alone is timed: loading the file into simdjson's padded
    // buffer (a copy smashtag, which maps its input, does not make) is not.
    std::clock_t start = std::clock();
    int status = strcmp(argv[1], "dom") == 0 ? domReport(json, t) : onDemandReport(json, t);
    if (status) { fprintf(stderr, "simdjson stopped: status %d\n", status); return status; }
    double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
    printf("%s (%s): %ld records, %ld matching tweets, %ld mentions in them\ncpu %.3f\n", argv[1],
           get_active_implementation()->name().c_str(), t.records, t.matching, t.mentions, cpu);
    return 0;
}
