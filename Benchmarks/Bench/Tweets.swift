// Synthetic, realistic API v1.1 stream lines: full user objects, retweets
// carrying their whole `retweeted_status`, long tweets truncated at top level
// with `extended_tweet`, quotes with `quoted_status`, replies, HTML-escaped
// text, emoji and non-Latin text and hashtags written as \u escapes. Hashtags,
// mentioned users, authors and retweeted authors are Zipf-distributed.

import Foundation

// MARK: - Vocabulary

struct Vocabulary {
    /// Canonical hashtags, most popular first. Rank 0 is `Stanford`.
    let tags: [String]
    /// Screen names, most popular first.
    let users: [String]

    static let headTags = [
        "Stanford", "AI", "BayArea", "MachineLearning", "Россия", "Pac12", "東京", "GoTrees",
        "Swift", "MarchMadness", "서울", "DataScience", "Москва", "ラーメン", "SiliconValley",
        "Ελλάδα", "مصر", "Zürich", "Café", "München", "北京", "Україна", "Київ", "大阪",
        "भारत", "ThankUNext", "ThankU", "NLP", "OpenSource", "Caltrain", "PaloAlto", "CS106A",
        "BeatCal", "iOSDev", "Photography", "Climate", "WorldCup", "NBA", "Music", "Travel",
        "Foodie", "Kpop", "アニメ", "台灣", "España", "Québec", "Kraków", "São_Paulo", "İyi",
        "SwiftUI", "Rustlang", "Python", "WWDC", "Warriors", "49ers", "coffee", "tbt",
        "MondayMotivation", "nofilter", "sunset", "hiking", "physics", "books", "research",
    ].filter { !$0.contains("İ") }   // no Turkish dotted I: lowercasing it is not 1:1

    static let headUsers = [
        "Stanford", "StanfordHAI", "GoStanford", "NASA", "Pac12", "StanfordDaily", "SFChronicle",
        "Caltrain", "NHK_news", "rianru", "swiftlang", "BBCWorld", "Reuters", "StanfordEng",
        "StanfordMed", "stanfordnlp", "paloaltoonline", "YouTube", "github", "nytimes",
    ]

    static let latinSyllables = ["ka", "to", "ri", "mo", "la", "ne", "su", "vi", "do", "ra", "pe", "lo",
                                 "mi", "ta", "zu", "che", "bra", "stro", "fi", "gen", "an", "el", "or",
                                 "tech", "net", "hub", "day", "life", "fest", "con"]
    static let scripts: [[String]] = [
        ["ка", "то", "ри", "мо", "ла", "не", "су", "ви", "до", "ра", "жи", "ще"],        // Cyrillic
        ["さ", "く", "ら", "ね", "こ", "た", "の", "し", "い", "ま", "カ", "ン"],          // Kana
        ["κα", "το", "ρι", "μο", "λα", "νε", "πι", "δο", "ρα", "πε"],                    // Greek (no sigma)
        ["سا", "لم", "كت", "با", "ور", "دي", "مر", "حب"],                                // Arabic
        ["가", "나", "다", "라", "마", "바", "사", "아", "한", "국"],                        // Hangul
        ["东", "京", "大", "学", "新", "年", "快", "乐", "中", "文"],                        // Han
    ]
    static let firstNames = ["anna", "ben", "chen", "dana", "eli", "fatima", "gus", "hana", "ivan",
                             "jules", "kai", "leah", "maria", "nico", "omar", "priya", "quinn",
                             "rosa", "sam", "taro", "uma", "vic", "wei", "xena", "yuki", "zoe",
                             "arjun", "sofia", "lucas", "mei", "olga", "pablo"]
    static let lastNames = ["smith", "sato", "ivanova", "mueller", "garcia", "chen", "kim", "nguyen",
                            "haddad", "rossi", "martin", "johnson", "tanaka", "silva", "kowalski",
                            "dubois", "park", "singh", "cohen", "novak"]

    init(tagCount: Int, userCount: Int, seed: UInt64) {
        var r = Rng(seed: seed ^ 0x7A65)
        var tags = Vocabulary.headTags
        var seen = Set(tags.map { $0.lowercased() })
        while tags.count < tagCount {
            var t = ""
            if r.chance(0.8) {
                for i in 0..<r.int(2, 4) {
                    let s = r.pick(Vocabulary.latinSyllables)
                    t += (i == 0 || r.chance(0.3)) && r.chance(0.5) ? s.capitalized : s
                }
                if r.chance(0.15) { t += String(r.int(1, 2030)) }
            } else {
                let script = r.pick(Vocabulary.scripts)
                for _ in 0..<r.int(2, 4) { t += r.pick(script) }
            }
            if seen.insert(t.lowercased()).inserted { tags.append(t) }
        }
        var users = Vocabulary.headUsers
        var seenUsers = Set(users.map { $0.lowercased() })
        while users.count < userCount {
            let f = r.pick(Vocabulary.firstNames), l = r.pick(Vocabulary.lastNames)
            var u: String
            switch r.below(5) {
            case 0: u = "\(f)_\(l)"
            case 1: u = "\(f)\(l)\(r.int(1, 99))"
            case 2: u = "\(l)\(f.prefix(3))"
            case 3: u = "\(f.capitalized)\(l.capitalized)"
            default: u = "\(f)\(r.int(100, 99999))"
            }
            if u.count > 15 { u = String(u.prefix(15)) }
            if seenUsers.insert(u.lowercased()).inserted { users.append(u) }
        }
        self.tags = tags
        self.users = users
    }
}

// MARK: - Text

enum Token {
    case word(String)
    case hashtag(String)
    case mention(Int)        // user index
    case url(UInt64)         // t.co seed
}

struct Words {
    static let en = ["the", "a", "great", "talk", "today", "on", "campus", "with", "my", "new", "paper",
                     "is", "out", "coffee", "before", "class", "game", "tonight", "who", "is", "going",
                     "to", "this", "weekend", "can't", "believe", "it", "finally", "shipped", "release",
                     "traffic", "again", "sunset", "over", "the", "bay", "lab", "meeting", "ran", "long",
                     "students", "research", "data", "model", "results", "thread", "read", "more", "here",
                     "R&D", "Q&A", "<3", "\"best\"", "day", "ever", "so", "proud", "of", "team", "win!"]
    static let es = ["hoy", "gran", "día", "en", "el", "campus", "con", "mis", "amigos", "qué", "partido",
                     "mañana", "café", "niño", "canción"]
    static let ru = ["Доброе", "утро", "из", "Москвы", "отличная", "лекция", "сегодня", "новый", "релиз",
                     "уже", "вышел", "спасибо", "друзья"]
    static let ja = ["今日は", "東京で", "勉強会でした", "桜が", "きれいな", "一日", "新しい", "アプリを",
                     "リリースしました", "ありがとう"]
    static let ar = ["صباح", "الخير", "من", "القاهرة", "محاضرة", "رائعة", "اليوم", "شكرا"]
    static let ko = ["오늘", "서울에서", "좋은", "하루", "감사합니다", "새로운", "발표"]
    static let el = ["καλημέρα", "από", "την", "Αθήνα", "ωραία", "μέρα", "ευχαριστώ"]
    static let hi = ["नमस्ते", "आज", "का", "दिन", "बहुत", "अच्छा", "धन्यवाद"]
    static let emoji = ["\u{1F602}", "\u{2764}\u{FE0F}", "\u{1F525}", "\u{1F44D}", "\u{1F389}",
                        "\u{1F3C8}", "\u{1F332}", "\u{2615}", "\u{1F680}", "\u{1F64C}", "\u{1F1EF}\u{1F1F5}"]
    static let langs: [(String, [String], Double)] = [
        ("en", en, 0.58), ("ja", ja, 0.12), ("es", es, 0.08), ("ru", ru, 0.06), ("ar", ar, 0.05),
        ("ko", ko, 0.04), ("hi", hi, 0.04), ("el", el, 0.03),
    ]
}

// MARK: - Tweets

final class Tweet {
    let id: UInt64
    let ms: Int64
    let author: Int
    let lang: String
    let source: Int
    var tokens: [Token] = []
    var replyTo: (user: Int, status: UInt64)?
    var quoted: Tweet?
    var retweeted: Tweet?
    var counts: (quote: Int, reply: Int, retweet: Int, favorite: Int) = (0, 0, 0, 0)

    init(id: UInt64, ms: Int64, author: Int, lang: String, source: Int) {
        self.id = id; self.ms = ms; self.author = author; self.lang = lang; self.source = source
    }
}

/// What text and entities a tweet shows, with code point offsets.
struct Rendered {
    var text = ""
    var length = 0
    var hashtags: [(String, Int, Int)] = []
    var mentions: [(Int, Int, Int)] = []
    var urls: [(UInt64, Int, Int)] = []
}

struct Generator {
    let vocab: Vocabulary
    let tagZipf: Zipf
    let mentionZipf: Zipf
    let authorZipf: Zipf
    let famousZipf: Zipf
    var r: Rng
    var clockMs: Int64 = 1_795_910_400_000          // 2026-11-29T00:00:00Z
    var recentIds: [(UInt64, Int)] = []             // (tweet id, author) for delete notices
    var lastSeq: UInt64 = 0

    static let twepoch: Int64 = 1_288_834_974_657
    static let sources = [
        ("http://twitter.com/download/iphone", "Twitter for iPhone"),
        ("http://twitter.com/download/android", "Twitter for Android"),
        ("https://mobile.twitter.com", "Twitter Web App"),
        ("https://about.twitter.com/products/tweetdeck", "TweetDeck"),
        ("http://instagram.com", "Instagram"),
        ("https://ifttt.com", "IFTTT"),
    ]

    init(seed: UInt64) {
        vocab = Vocabulary(tagCount: 30_000, userCount: 100_000, seed: seed)
        tagZipf = Zipf(count: vocab.tags.count, exponent: 1.0)
        mentionZipf = Zipf(count: vocab.users.count, exponent: 1.0)
        authorZipf = Zipf(count: vocab.users.count, exponent: 0.7)
        famousZipf = Zipf(count: vocab.users.count, exponent: 1.2)
        r = Rng(seed: seed)
    }

    mutating func snowflake(_ ms: Int64) -> UInt64 {
        lastSeq = (lastSeq + 1 + UInt64(r.below(7))) & 0xFFF
        return UInt64(ms - Generator.twepoch) << 22 | UInt64(r.below(1024)) << 12 | lastSeq
    }

    // MARK: composing

    mutating func tagForm(_ t: String) -> String {
        let simpleCase = t.unicodeScalars.allSatisfy { $0.isASCII || (0x410...0x44F).contains($0.value) }
        guard simpleCase else { return t }
        switch r.below(20) {
        case 0..<3: return t.lowercased()
        case 3..<5: return t.uppercased()
        default: return t
        }
    }

    mutating func newTweet(ms: Int64, author: Int, depth: Int) -> Tweet {
        var lang = "en"
        var words = Words.en
        var u = r.unit()
        for (l, w, p) in Words.langs { if u < p { lang = l; words = w; break }; u -= p }
        let t = Tweet(id: snowflake(ms), ms: ms, author: author, lang: lang,
                      source: r.below(Generator.sources.count))
        var tokens: [Token] = []
        if depth == 0 && r.chance(0.15) {
            let to = mentionZipf.sample(&r)
            t.replyTo = (to, snowflake(ms - Int64(r.int(1_000, 86_400_000))))
            tokens.append(.mention(to))
        }
        // body length: 70% short, 30% long (truncated at top level, extended_tweet)
        let long = r.chance(0.3)
        let target = long ? r.int(150, 250) : r.int(20, 100)
        var hashtags: [String] = []
        let nTags = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 5][r.below(20)]
        for _ in 0..<nTags { hashtags.append(tagForm(vocab.tags[tagZipf.sample(&r)])) }
        if !hashtags.isEmpty && r.chance(0.03) { hashtags.append(tagForm(hashtags[0])) }  // repeated in one tweet
        var mentions: [Int] = []
        let nMentions = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 4][r.below(20)]
        for _ in 0..<nMentions { mentions.append(mentionZipf.sample(&r)) }
        var length = 0
        var inlineTags = hashtags.prefix(r.below(hashtags.count + 1))
        var inlineMentions = mentions[...]
        while length < target {
            if !inlineMentions.isEmpty && r.chance(0.15) {
                tokens.append(.mention(inlineMentions.removeFirst())); length += 10
            } else if !inlineTags.isEmpty && r.chance(0.15) {
                tokens.append(.hashtag(inlineTags.removeFirst())); length += 10
            } else if r.chance(0.03) {
                tokens.append(.word(r.pick(Words.emoji))); length += 2
            } else if r.chance(0.01) {
                tokens.append(.word("\n")); length += 1
            } else {
                let w = r.pick(words)
                tokens.append(.word(w)); length += w.count + 1
            }
        }
        for m in inlineMentions { tokens.append(.mention(m)) }
        let placed = tokens.reduce(0) { if case .hashtag = $1 { return $0 + 1 }; return $0 }
        for h in hashtags.dropFirst(placed) { tokens.append(.hashtag(h)) }
        if r.chance(0.2) { tokens.append(.url(r.next())) }
        if depth == 0 && r.chance(0.1) {
            // a quote: the quoted tweet is another, older tweet
            let q = newTweet(ms: ms - Int64(r.int(60_000, 7 * 86_400_000)), author: famousZipf.sample(&r),
                             depth: depth + 1)
            t.quoted = q
            tokens.append(.url(q.id))
        }
        t.tokens = tokens
        t.counts = (r.below(5), r.below(10), r.below(50), r.below(200))
        return t
    }

    enum LineKind { case tweet, retweet, delete, limit }

    /// One line of the stream: a status (half of them retweets), a delete or
    /// limit notice.
    mutating func line(into o: inout JSONOut) -> LineKind {
        clockMs += Int64(r.int(0, 40))
        let u = r.unit()
        if u < 0.04, let (id, author) = recentIds.isEmpty ? nil : recentIds[r.below(recentIds.count)] {
            o.raw("{\"delete\":{\"status\":{\"id\":"); o.int(id)
            o.raw(",\"id_str\":"); o.strInt(id)
            o.raw(",\"user_id\":"); o.int(userId(author))
            o.raw(",\"user_id_str\":"); o.strInt(userId(author))
            o.raw("},\"timestamp_ms\":"); o.strInt(clockMs); o.raw("}}\n")
            return .delete
        }
        if u < 0.043 {
            o.raw("{\"limit\":{\"track\":"); o.int(r.int(1, 5000))
            o.raw(",\"timestamp_ms\":"); o.strInt(clockMs); o.raw("}}\n")
            return .limit
        }
        let author = authorZipf.sample(&r)
        let t: Tweet
        if r.chance(0.5) {
            let original = newTweet(ms: clockMs - Int64(r.int(10_000, 3 * 86_400_000)),
                                    author: famousZipf.sample(&r), depth: 0)
            t = Tweet(id: snowflake(clockMs), ms: clockMs, author: author, lang: original.lang,
                      source: r.below(Generator.sources.count))
            t.retweeted = original
        } else {
            t = newTweet(ms: clockMs, author: author, depth: 0)
        }
        recentIds.append((t.id, author))
        if recentIds.count > 4096 { recentIds.removeFirst(2048) }
        status(t, nested: false, into: &o)
        o.raw("\n")
        return t.retweeted == nil ? .tweet : .retweet
    }

    // MARK: rendering

    func userId(_ u: Int) -> UInt64 {
        var x = Rng(seed: UInt64(u) &* 0x9E37_79B9 &+ 17)
        return u < 5_000 ? 10_000_000 + x.next() % 3_000_000_000 : 700_000_000_000_000_000 + x.next() % 800_000_000_000_000_000
    }

    func render(_ tokens: [Token], prefix: String = "") -> Rendered {
        var out = Rendered()
        out.text = prefix
        out.length = prefix.unicodeScalars.count
        for (i, tok) in tokens.enumerated() {
            if i > 0 || !prefix.isEmpty { out.text += " "; out.length += 1 }
            let s: String
            switch tok {
            case .word(let w): s = Generator.htmlEscaped(w)
            case .hashtag(let h): s = "#" + h
            case .mention(let m): s = "@" + vocab.users[m]
            case .url(let seed): s = Generator.tco(seed)
            }
            let n = s.unicodeScalars.count
            switch tok {
            case .hashtag(let h): out.hashtags.append((h, out.length, out.length + n))
            case .mention(let m): out.mentions.append((m, out.length, out.length + n))
            case .url(let seed): out.urls.append((seed, out.length, out.length + n))
            case .word: break
            }
            out.text += s
            out.length += n
        }
        return out
    }

    /// The first `limit` code points' worth of whole tokens, then "…".
    func truncated(_ full: Rendered, limit: Int, tail: String) -> Rendered {
        var out = Rendered()
        let scalars = Array(full.text.unicodeScalars)
        var end = min(limit, scalars.count)
        while end > 0 && end < scalars.count && scalars[end] != " " { end -= 1 }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[0..<end])
        out.text = String(s) + "\u{2026}" + tail
        out.length = out.text.unicodeScalars.count
        out.hashtags = full.hashtags.filter { $0.2 <= end }
        out.mentions = full.mentions.filter { $0.2 <= end }
        out.urls = full.urls.filter { $0.2 <= end }
        return out
    }

    /// Tweet text is HTML-escaped in the API: `&amp;` `&lt;` `&gt;`.
    static func htmlEscaped(_ w: String) -> String {
        guard w.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else { return w }
        var out = ""
        for c in w.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789")

    static func tco(_ seed: UInt64) -> String {
        var x = seed, s = "https://t.co/"
        for _ in 0..<10 { s.append(alphabet[Int(x % UInt64(alphabet.count))]); x /= UInt64(alphabet.count); x ^= seed >> 7 }
        return s
    }

    func entities(_ r: Rendered, into o: inout JSONOut) {
        o.raw("{\"hashtags\":[")
        for (i, h) in r.hashtags.enumerated() {
            if i > 0 { o.raw(",") }
            o.raw("{\"text\":"); o.str(h.0); o.raw(",\"indices\":["); o.int(h.1); o.raw(","); o.int(h.2); o.raw("]}")
        }
        o.raw("],\"urls\":[")
        for (i, u) in r.urls.enumerated() {
            if i > 0 { o.raw(",") }
            o.raw("{\"url\":"); o.str(Generator.tco(u.0))
            let host = Generator.linkHosts[Int(u.0 % UInt64(Generator.linkHosts.count))]
            o.raw(",\"expanded_url\":"); o.str("https://\(host)/posts/\(u.0 % 1_000_000)?ref=tw&utm_source=twitter")
            o.raw(",\"display_url\":"); o.str("\(host)/posts/\(u.0 % 1_000_000)\u{2026}")
            o.raw(",\"indices\":["); o.int(u.1); o.raw(","); o.int(u.2); o.raw("]}")
        }
        o.raw("],\"user_mentions\":[")
        for (i, m) in r.mentions.enumerated() {
            if i > 0 { o.raw(",") }
            o.raw("{\"screen_name\":"); o.str(vocab.users[m.0])
            o.raw(",\"name\":"); o.str(displayName(m.0))
            o.raw(",\"id\":"); o.int(userId(m.0))
            o.raw(",\"id_str\":"); o.strInt(userId(m.0))
            o.raw(",\"indices\":["); o.int(m.1); o.raw(","); o.int(m.2); o.raw("]}")
        }
        // About one tweet in 13 names a cashtag (SPEC §13), chosen from its length: no draw of the generator's.
        if r.length % 13 == 0 {
            o.raw("],\"symbols\":[{\"text\":"); o.str(Generator.cashtags[(r.length / 13) % Generator.cashtags.count])
            o.raw(",\"indices\":[0,0]}]}")
        } else {
            o.raw("],\"symbols\":[]}")
        }
    }

    /// The hosts of the generated links: one in twenty is the New York Times's (`report domain:nytimes.com`).
    static let linkHosts = ["www.nytimes.com", "example.org", "news.bbc.co.uk", "www.youtube.com", "youtu.be", "bit.ly",
                            "github.com", "a.b.github.io", "www.theguardian.com", "twitter.com", "www.reuters.com", "medium.com",
                            "t.me", "www.instagram.com", "open.spotify.com", "en.wikipedia.org", "www.washingtonpost.com",
                            "edition.cnn.com", "www.bbc.com", "apnews.com"]
    static let cashtags = ["AAPL", "TSLA", "BTC", "GOOG", "AMZN", "MSFT", "ETH", "NVDA", "GME", "SPY"]

    func displayName(_ u: Int) -> String {
        var x = Rng(seed: UInt64(u) &+ 0xD15)
        let name = vocab.users[u]
        switch x.below(6) {
        case 0: return ["Анна Иванова", "山田 太郎", "김민준", "Μαρία Παπαδοπούλου", "محمد علي", "José Núñez"][x.below(6)]
        case 1: return name.capitalized + " " + Words.emoji[x.below(Words.emoji.count)]
        default: return name.replacingOccurrences(of: "_", with: " ").capitalized
        }
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// "Sun Nov 29 12:00:00 +0000 2026"
    static func date(_ ms: Int64) -> String {
        let secs = ms / 1000
        let daysSinceEpoch = secs / 86_400
        let rem = secs % 86_400
        // civil from days (Howard Hinnant)
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(days[Int(daysSinceEpoch % 7)]) \(months[Int(m - 1)]) \(two(d)) \(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60)) +0000 \(y)"
    }

    /// User objects are the same bytes every time (per user index): made once.
    final class UserCache { var objects: [Int: [UInt8]] = [:] }
    let userCache = UserCache()

    func user(_ u: Int, into o: inout JSONOut) {
        if let cached = userCache.objects[u] {
            o.bytes.append(contentsOf: cached)
            return
        }
        var fresh = JSONOut(capacity: 2048)
        makeUser(u, into: &fresh)
        userCache.objects[u] = fresh.bytes
        o.bytes.append(contentsOf: fresh.bytes)
    }

    func makeUser(_ u: Int, into o: inout JSONOut) {
        var x = Rng(seed: UInt64(u) &* 0x2545_F491 &+ 3)
        let id = userId(u)
        o.raw("{\"id\":"); o.int(id); o.raw(",\"id_str\":"); o.strInt(id)
        o.raw(",\"name\":"); o.str(displayName(u))
        o.raw(",\"screen_name\":"); o.str(vocab.users[u])
        o.raw(",\"location\":")
        o.str(["Palo Alto, CA", "Москва", "東京都", "São Paulo", "", "Earth \u{1F30D}", "Cairo, Egypt", "서울"][x.below(8)])
        o.raw(",\"url\":")
        if x.chance(0.4) { o.str("https://www.example.com/~\(vocab.users[u].lowercased())") } else { o.raw("null") }
        o.raw(",\"description\":")
        var d = ""
        for _ in 0..<x.int(4, 22) { d += (d.isEmpty ? "" : " ") + Words.en[x.below(Words.en.count)] }
        if x.chance(0.3) { d += " " + Words.ja[x.below(Words.ja.count)] + " " + Words.emoji[x.below(Words.emoji.count)] }
        o.str(d)
        o.raw(",\"translator_type\":\"none\",\"protected\":false,\"verified\":"); o.bool(u < 40)
        o.raw(",\"followers_count\":"); o.int(u < 100 ? 5_000_000 / (u + 1) : x.int(0, 20_000))
        o.raw(",\"friends_count\":"); o.int(x.int(0, 5_000))
        o.raw(",\"listed_count\":"); o.int(x.int(0, 300))
        o.raw(",\"favourites_count\":"); o.int(x.int(0, 90_000))
        o.raw(",\"statuses_count\":"); o.int(x.int(1, 200_000))
        o.raw(",\"created_at\":"); o.str(Generator.date(1_200_000_000_000 + Int64(x.below(560_000_000)) * 1000))
        o.raw(",\"utc_offset\":null,\"time_zone\":null,\"geo_enabled\":"); o.bool(x.chance(0.3))
        o.raw(",\"lang\":null,\"contributors_enabled\":false,\"is_translator\":false,")
        o.raw("\"profile_background_color\":\"F5F8FA\",\"profile_background_image_url\":\"\",")
        o.raw("\"profile_background_image_url_https\":\"\",\"profile_background_tile\":false,")
        o.raw("\"profile_link_color\":\"1DA1F2\",\"profile_sidebar_border_color\":\"C0DEED\",")
        o.raw("\"profile_sidebar_fill_color\":\"DDEEF6\",\"profile_text_color\":\"333333\",")
        o.raw("\"profile_use_background_image\":true,\"profile_image_url\":")
        let img = "\(id)/\(String(x.next(), radix: 36))"
        o.str("http://pbs.twimg.com/profile_images/\(img)_normal.jpg")
        o.raw(",\"profile_image_url_https\":"); o.str("https://pbs.twimg.com/profile_images/\(img)_normal.jpg")
        if x.chance(0.6) {
            o.raw(",\"profile_banner_url\":"); o.str("https://pbs.twimg.com/profile_banners/\(id)/\(1_500_000_000 + x.below(90_000_000))")
        }
        o.raw(",\"default_profile\":"); o.bool(x.chance(0.5))
        o.raw(",\"default_profile_image\":false,\"following\":null,\"follow_request_sent\":null,\"notifications\":null}")
    }

    /// A status object. `nested` ones (retweeted_status, quoted_status) have no
    /// filter_level or timestamp_ms, as in the stream.
    func status(_ t: Tweet, nested: Bool, into o: inout JSONOut) {
        let shown: Rendered
        var full: Rendered?
        if let rt = t.retweeted {
            let whole = render(rt.tokens, prefix: "RT @\(vocab.users[rt.author]):")
            let author = (rt.author, 3, 3 + vocab.users[rt.author].unicodeScalars.count + 1)
            var s = whole.length > 140 ? truncated(whole, limit: 139, tail: "") : whole
            s.mentions.insert(author, at: 0)
            shown = s
        } else {
            let whole = render(t.tokens)
            if whole.length > 140 {
                full = whole
                shown = truncated(whole, limit: 113, tail: " " + Generator.tco(t.id))
                var s = shown
                s.urls.append((t.id, s.length - 23, s.length))
                return statusBody(t, shown: s, full: full, nested: nested, into: &o)
            }
            shown = whole
        }
        statusBody(t, shown: shown, full: full, nested: nested, into: &o)
    }

    func statusBody(_ t: Tweet, shown: Rendered, full: Rendered?, nested: Bool, into o: inout JSONOut) {
        o.raw("{\"created_at\":"); o.str(Generator.date(t.ms))
        o.raw(",\"id\":"); o.int(t.id); o.raw(",\"id_str\":"); o.strInt(t.id)
        o.raw(",\"text\":"); o.str(shown.text)
        let (href, app) = Generator.sources[t.source]
        o.raw(",\"source\":"); o.str("<a href=\"\(href)\" rel=\"nofollow\">\(app)</a>")
        o.raw(",\"truncated\":"); o.bool(full != nil)
        if let (to, status) = t.replyTo {
            o.raw(",\"in_reply_to_status_id\":"); o.int(status)
            o.raw(",\"in_reply_to_status_id_str\":"); o.strInt(status)
            o.raw(",\"in_reply_to_user_id\":"); o.int(userId(to))
            o.raw(",\"in_reply_to_user_id_str\":"); o.strInt(userId(to))
            o.raw(",\"in_reply_to_screen_name\":"); o.str(vocab.users[to])
        } else {
            o.raw(",\"in_reply_to_status_id\":null,\"in_reply_to_status_id_str\":null,\"in_reply_to_user_id\":null,")
            o.raw("\"in_reply_to_user_id_str\":null,\"in_reply_to_screen_name\":null")
        }
        o.raw(",\"user\":"); user(t.author, into: &o)
        o.raw(",\"geo\":null,\"coordinates\":null,\"place\":null,\"contributors\":null")
        let q = t.quoted ?? t.retweeted?.quoted
        if let q {
            o.raw(",\"quoted_status_id\":"); o.int(q.id)
            o.raw(",\"quoted_status_id_str\":"); o.strInt(q.id)
            o.raw(",\"quoted_status\":"); status(q, nested: true, into: &o)
            o.raw(",\"quoted_status_permalink\":{\"url\":"); o.str(Generator.tco(q.id))
            o.raw(",\"expanded\":"); o.str("https://twitter.com/\(vocab.users[q.author])/status/\(q.id)")
            o.raw(",\"display\":"); o.str("twitter.com/\(vocab.users[q.author])/\u{2026}"); o.raw("}")
        }
        if let rt = t.retweeted {
            o.raw(",\"retweeted_status\":"); status(rt, nested: true, into: &o)
        }
        o.raw(",\"is_quote_status\":"); o.bool(q != nil)
        if let full {
            o.raw(",\"extended_tweet\":{\"full_text\":"); o.str(full.text)
            o.raw(",\"display_text_range\":[0,"); o.int(full.length); o.raw("],\"entities\":")
            entities(full, into: &o)
            o.raw("}")
        }
        let c = nested ? t.counts : (0, 0, 0, 0)
        o.raw(",\"quote_count\":"); o.int(c.0)
        o.raw(",\"reply_count\":"); o.int(c.1)
        o.raw(",\"retweet_count\":"); o.int(c.2)
        o.raw(",\"favorite_count\":"); o.int(c.3)
        o.raw(",\"entities\":"); entities(shown, into: &o)
        o.raw(",\"favorited\":false,\"retweeted\":false")
        if !shown.urls.isEmpty { o.raw(",\"possibly_sensitive\":false") }
        o.raw(",\"filter_level\":\"low\",\"lang\":"); o.str(t.lang)
        if !nested { o.raw(",\"timestamp_ms\":"); o.strInt(t.ms) }
        o.raw("}")
    }
}
