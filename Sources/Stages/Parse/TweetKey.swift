/// The object keys the tweet decoder acts on, recognised with one length
/// switch and (usually) one comparison, instead of a chain of compares for
/// each of the ~30 keys of a tweet object.
enum TweetKey {
    case id, idStr, text, fullText, user, author, authorID, entities, extendedTweet, noteTweet
    case retweetedStatus, referencedTweets, type, createdAt, lang
    /// v1.1's `quoted_status_id_str` / `quoted_status_id` (the quoted tweet's id).
    case quotedIDStr, quotedID
    /// What `posts` reads (SPEC §15): v1.1 `quoted_status`, `in_reply_to_status_id(_str)`,
    /// `in_reply_to_screen_name`, v2 `in_reply_to_user_id`.
    case quotedStatus, replyIDStr, replyID, replyName, replyUserID
    case data, includes, statuses, results, tweet, meta, errors
    case notice
    /// Mastodon's Status (SPEC §16): `uri`, `account`, `content`, `tags`,
    /// top-level `mentions`, `card`, `language`, `reblog`, `quote`.
    case uri, account, content, tags, mentions, card, language, reblog, quote
    /// Bluesky (SPEC §16): a Jetstream event's `did`, `kind`, `time_us`,
    /// `commit`, `identity`; a post view's `record`, `indexedAt`; a feed
    /// item's `post`; a page's `posts` and `feed`.
    case did, kind, timeUS, commit, identity, record, indexedAt, post, posts, feed
    /// A post view's own `embed` (the quoted post's view) and a feed item's
    /// `reply` (the view of the post it answers); only `posts` reads them.
    case embed, reply
    case other

    /// Classifies the key `span` of the scanner's record.
    @inline(__always)
    static func classify(_ span: ByteSpan, _ s: JSONScanner) -> TweetKey {
        if span.escaped { return slowClassify(span, s) }
        let p = s.base + span.start
        @inline(__always) func eq(_ name: StaticString) -> Bool {
            JSONScanner.sameBytes(p, name.utf8Start, name.utf8CodeUnitCount)
        }
        switch span.end - span.start {
        case 2: return eq("id") ? .id : .other
        case 3:
            switch p[0] {
            case UInt8(ascii: "u"): return eq("uri") ? .uri : .other
            case UInt8(ascii: "d"): return eq("did") ? .did : .other
            default: return .other
            }
        case 4:
            switch p[0] {
            case UInt8(ascii: "t"): return eq("text") ? .text : eq("type") ? .type : eq("tags") ? .tags : .other
            case UInt8(ascii: "u"): return eq("user") ? .user : .other
            case UInt8(ascii: "d"): return eq("data") ? .data : .other
            case UInt8(ascii: "m"): return eq("meta") ? .meta : .other
            case UInt8(ascii: "l"): return eq("lang") ? .lang : .other
            case UInt8(ascii: "c"): return eq("card") ? .card : .other
            case UInt8(ascii: "k"): return eq("kind") ? .kind : .other
            case UInt8(ascii: "p"): return eq("post") ? .post : .other
            case UInt8(ascii: "f"): return eq("feed") ? .feed : .other
            default: return .other
            }
        case 5:
            return eq("tweet") ? .tweet : (eq("limit") || eq("event")) ? .notice : eq("posts") ? .posts
                : eq("quote") ? .quote : eq("embed") ? .embed : eq("reply") ? .reply : .other
        case 6:
            switch p[0] {
            case UInt8(ascii: "i"): return eq("id_str") ? .idStr : .other
            case UInt8(ascii: "a"): return eq("author") ? .author : .other
            case UInt8(ascii: "d"): return eq("delete") ? .notice : .other
            case UInt8(ascii: "e"): return eq("errors") ? .errors : .other
            case UInt8(ascii: "r"): return eq("reblog") ? .reblog : eq("record") ? .record : .other
            case UInt8(ascii: "c"): return eq("commit") ? .commit : .other
            default: return .other
            }
        case 7:
            switch p[0] {
            case UInt8(ascii: "r"): return eq("results") ? .results : .other
            case UInt8(ascii: "a"): return eq("account") ? .account : .other
            case UInt8(ascii: "c"): return eq("content") ? .content : .other
            case UInt8(ascii: "t"): return eq("time_us") ? .timeUS : .other
            default: return (eq("warning") || eq("friends")) ? .notice : .other
            }
        case 8:
            switch p[0] {
            case UInt8(ascii: "e"): return eq("entities") ? .entities : .other
            case UInt8(ascii: "s"): return eq("statuses") ? .statuses : .other
            case UInt8(ascii: "i"): return eq("includes") ? .includes : eq("identity") ? .identity : .other
            case UInt8(ascii: "l"): return eq("language") ? .language : .other
            case UInt8(ascii: "m"): return eq("mentions") ? .mentions : .other
            default: return .other
            }
        case 9:
            switch p[0] {
            case UInt8(ascii: "f"): return eq("full_text") ? .fullText : .other
            case UInt8(ascii: "a"): return eq("author_id") ? .authorID : .other
            case UInt8(ascii: "s"): return eq("scrub_geo") ? .notice : .other
            case UInt8(ascii: "i"): return eq("indexedAt") ? .indexedAt : .other
            default: return .other
            }
        case 10:
            switch p[0] {
            case UInt8(ascii: "n"): return eq("note_tweet") ? .noteTweet : .other
            case UInt8(ascii: "c"): return eq("created_at") ? .createdAt : .other
            default: return eq("disconnect") ? .notice : .other
            }
        case 11: return eq("friends_str") ? .notice : .other
        case 13: return eq("user_withheld") ? .notice : eq("quoted_status") ? .quotedStatus : .other
        case 14: return eq("extended_tweet") ? .extendedTweet : .other
        case 15: return eq("status_withheld") ? .notice : .other
        case 16: return eq("retweeted_status") ? .retweetedStatus : eq("quoted_status_id") ? .quotedID : .other
        case 17: return eq("referenced_tweets") ? .referencedTweets : .other
        case 19: return eq("in_reply_to_user_id") ? .replyUserID : .other
        case 21: return eq("in_reply_to_status_id") ? .replyID : .other
        case 23: return eq("in_reply_to_screen_name") ? .replyName : .other
        case 25: return eq("in_reply_to_status_id_str") ? .replyIDStr : .other
        case 20: return eq("quoted_status_id_str") ? .quotedIDStr : .other
        default: return .other
        }
    }

    /// A key written with escapes (`"\u0069d"`): decoded, then classified.
    private static func slowClassify(_ span: ByteSpan, _ s: JSONScanner) -> TweetKey {
        let decoded = Array(JSONText.decode(span, in: s.base).utf8)
        return decoded.withUnsafeBytes { raw in
            classify(ByteSpan(start: 0, end: raw.count, escaped: false), JSONScanner(raw))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
