// `smashtag-bench generate-jetstream`: synthetic Bluesky Jetstream lines
// (SPEC §16) in the mix the firehose carries: likes, follows, posts and
// reposts, deletes, identity and account events. Posts have tag, mention and
// link facets at their UTF-8 byte ranges, some `record.tags` (some written
// `" tag"` or `"#tag"`), languages, replies and external embeds; reposts name
// a recent post of the file or one the file does not hold; a few lines are
// written twice, as a reconnecting collector does. Hashtags and authors are
// Zipf-distributed over the tweet bench's vocabulary.

import Foundation

struct JetstreamGenerator {
    let vocab: Vocabulary
    let tagZipf: Zipf
    let authorZipf: Zipf
    let mentionZipf: Zipf
    var r: Rng
    var clockUs: Int64 = 1_795_910_400_000_000          // 2026-11-29T00:00:00Z
    /// Recent posts (their AT-URIs): what likes, replies and reposts point at.
    var recentPosts: [String] = []
    var recentDeletable: [(did: Int, collection: String, rkey: String)] = []
    var tidCounter: UInt64 = 0

    enum Kind { case post, repost, like, follow, delete, identity, account }

    init(seed: UInt64) {
        vocab = Vocabulary(tagCount: 50_000, userCount: 200_000, seed: seed)
        tagZipf = Zipf(count: vocab.tags.count, exponent: 1.0)
        authorZipf = Zipf(count: vocab.users.count, exponent: 0.7)
        mentionZipf = Zipf(count: vocab.users.count, exponent: 1.0)
        r = Rng(seed: seed ^ 0xB15C)
    }

    static let base32 = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
    static let sortable = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    /// A DID per user index, stable across the file.
    func did(_ u: Int) -> String {
        var x = Rng(seed: UInt64(u) &* 0x9E37_79B9 &+ 91)
        var s = "did:plc:"
        for _ in 0..<24 { s.unicodeScalars.append(UnicodeScalar(JetstreamGenerator.base32[Int(x.next() % 32)])) }
        return s
    }

    func handle(_ u: Int) -> String { vocab.users[u].lowercased() + ".bsky.social" }

    /// A record key: a timestamp identifier, 13 sortable base-32 characters.
    mutating func tid() -> String {
        tidCounter += 1
        let v = (UInt64(clockUs) << 10 | (tidCounter & 0x3FF)) & 0x7FFF_FFFF_FFFF_FFFF
        var s = ""
        for i in stride(from: 60, through: 0, by: -5) {
            s.unicodeScalars.append(UnicodeScalar(JetstreamGenerator.sortable[Int((v >> UInt64(i)) & 31)]))
        }
        return s
    }

    mutating func cid() -> String {
        var s = "bafyrei"
        for _ in 0..<52 { s.unicodeScalars.append(UnicodeScalar(JetstreamGenerator.base32[r.below(32)])) }
        return s
    }

    /// "2026-11-29T12:00:00.123Z"
    static func iso(_ us: Int64) -> String {
        let ms = us / 1000
        let f = Generator.date(ms)      // "Sun Nov 29 12:00:00 +0000 2026"
        let parts = f.split(separator: " ")
        let month = (Generator.months.firstIndex(of: String(parts[1])) ?? 0) + 1
        let frac = ms % 1000
        return "\(parts[5])-\(month < 10 ? "0" : "")\(month)-\(parts[2])T\(parts[3])."
            + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)Z"
    }

    mutating func head(_ author: Int, into o: inout JSONOut) {
        o.raw("{\"did\":"); o.utf8Str(did(author))
        o.raw(",\"time_us\":"); o.int(clockUs)
    }

    mutating func commitHead(_ operation: String, _ collection: String, _ rkey: String, into o: inout JSONOut) {
        o.raw(",\"kind\":\"commit\",\"commit\":{\"rev\":"); o.utf8Str(tid())
        o.raw(",\"operation\":"); o.utf8Str(operation)
        o.raw(",\"collection\":"); o.utf8Str(collection)
        o.raw(",\"rkey\":"); o.utf8Str(rkey)
    }

    mutating func strongRef(_ uri: String, into o: inout JSONOut) {
        o.raw("{\"cid\":"); o.utf8Str(cid()); o.raw(",\"uri\":"); o.utf8Str(uri); o.raw("}")
    }

    /// A post's URI the file does not hold.
    mutating func foreignPost() -> String {
        "at://\(did(mentionZipf.sample(&r)))/app.bsky.feed.post/\(tid())"
    }

    mutating func line(into o: inout JSONOut) -> Kind {
        clockUs += Int64(r.int(0, 4_000))
        let author = authorZipf.sample(&r)
        let u = r.unit()
        let kind: Kind = u < 0.42 ? .like : u < 0.62 ? .post : u < 0.72 ? .repost : u < 0.88 ? .follow
            : u < 0.95 ? .delete : u < 0.98 ? .identity : .account
        head(author, into: &o)
        switch kind {
        case .post: post(author, into: &o)
        case .repost, .like:
            let collection = kind == .like ? "app.bsky.feed.like" : "app.bsky.feed.repost"
            let rkey = tid()
            commitHead("create", collection, rkey, into: &o)
            o.raw(",\"record\":{\"$type\":"); o.utf8Str(collection)
            o.raw(",\"createdAt\":"); o.utf8Str(JetstreamGenerator.iso(clockUs - Int64(r.int(0, 2_000_000))))
            o.raw(",\"subject\":")
            let subject = !recentPosts.isEmpty && r.chance(0.6) ? recentPosts[r.below(recentPosts.count)] : foreignPost()
            strongRef(subject, into: &o)
            o.raw("},\"cid\":"); o.utf8Str(cid()); o.raw("}}")
            if kind == .repost { remember(author, collection, rkey) }
        case .follow:
            commitHead("create", "app.bsky.graph.follow", tid(), into: &o)
            o.raw(",\"record\":{\"$type\":\"app.bsky.graph.follow\",\"createdAt\":")
            o.utf8Str(JetstreamGenerator.iso(clockUs))
            o.raw(",\"subject\":"); o.utf8Str(did(mentionZipf.sample(&r)))
            o.raw("},\"cid\":"); o.utf8Str(cid()); o.raw("}}")
        case .delete:
            let d = recentDeletable.isEmpty ? (did: author, collection: "app.bsky.feed.like", rkey: tid())
                : recentDeletable[r.below(recentDeletable.count)]
            o.bytes.removeAll(keepingCapacity: true)
            head(d.did, into: &o)
            commitHead("delete", d.collection, d.rkey, into: &o)
            o.raw("}}")
        case .identity:
            o.raw(",\"kind\":\"identity\",\"identity\":{\"did\":"); o.utf8Str(did(author))
            o.raw(",\"handle\":"); o.utf8Str(handle(author))
            o.raw(",\"seq\":"); o.int(r.int(1_000_000, 9_000_000_000))
            o.raw(",\"time\":"); o.utf8Str(JetstreamGenerator.iso(clockUs)); o.raw("}}")
        case .account:
            o.raw(",\"kind\":\"account\",\"account\":{\"active\":"); o.bool(r.chance(0.9))
            o.raw(",\"did\":"); o.utf8Str(did(author))
            o.raw(",\"seq\":"); o.int(r.int(1_000_000, 9_000_000_000))
            o.raw(",\"time\":"); o.utf8Str(JetstreamGenerator.iso(clockUs)); o.raw("}}")
        }
        o.raw("\n")
        return kind
    }

    mutating func remember(_ author: Int, _ collection: String, _ rkey: String) {
        recentDeletable.append((author, collection, rkey))
        if recentDeletable.count > 4096 { recentDeletable.removeFirst(2048) }
    }

    enum Piece { case word(String), tag(String), mention(Int), link(String) }

    mutating func post(_ author: Int, into o: inout JSONOut) {
        var lang = "en", words = Words.en
        var u = r.unit()
        for (l, w, p) in Words.langs { if u < p { lang = l; words = w; break }; u -= p }
        var pieces: [Piece] = []
        var tags: [String] = []
        let nTags = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 5][r.below(20)]
        for _ in 0..<nTags { tags.append(vocab.tags[tagZipf.sample(&r)]) }
        var mentions: [Int] = []
        let nMentions = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 3][r.below(20)]
        for _ in 0..<nMentions { mentions.append(mentionZipf.sample(&r)) }
        // A few tags only in record.tags (clients write them with a space or a `#`).
        var recordTags: [String] = []
        if !tags.isEmpty && r.chance(0.08) {
            let t = tags.removeLast()
            recordTags.append([t, " " + t, "#" + t, t.lowercased()][r.below(4)])
        }
        if r.chance(0.03) { recordTags.append(vocab.tags[tagZipf.sample(&r)]) }
        let links = r.chance(0.12) ? ["https://\(r.pick(Generator.linkHosts))/\(vocab.tags[r.below(500)].lowercased())-\(r.int(1, 99_999))"] : []
        let target = r.chance(0.3) ? r.int(120, 280) : r.int(15, 100)
        var length = 0
        var tagQueue = tags[...], mentionQueue = mentions[...], linkQueue = links[...]
        while length < target || !tagQueue.isEmpty || !mentionQueue.isEmpty || !linkQueue.isEmpty {
            if let m = mentionQueue.first, r.chance(0.2) { pieces.append(.mention(m)); mentionQueue.removeFirst(); length += 12 }
            else if let t = tagQueue.first, r.chance(0.2) || length >= target { pieces.append(.tag(t)); tagQueue.removeFirst(); length += 10 }
            else if let l = linkQueue.first, r.chance(0.1) || length >= target { pieces.append(.link(l)); linkQueue.removeFirst(); length += 25 }
            else if let m = mentionQueue.first, length >= target { pieces.append(.mention(m)); mentionQueue.removeFirst() }
            else if r.chance(0.04) { pieces.append(.word(r.pick(Words.emoji))); length += 2 }
            else { let w = r.pick(words); pieces.append(.word(w)); length += w.count + 1 }
        }
        // The text and each facet's UTF-8 byte range.
        var text = ""
        var facets: [(start: Int, end: Int, piece: Piece)] = []
        for (i, p) in pieces.enumerated() {
            if i > 0 { text += " " }
            let start = text.utf8.count
            switch p {
            case .word(let w): text += w
            case .tag(let t): text += "#" + t
            case .mention(let m): text += "@" + handle(m)
            case .link(let l): text += l.count > 30 ? String(l.dropFirst(8).prefix(24)) + "..." : l
            }
            if case .word = p { continue }
            facets.append((start, text.utf8.count, p))
        }
        let rkey = tid()
        commitHead("create", "app.bsky.feed.post", rkey, into: &o)
        o.raw(",\"record\":{\"$type\":\"app.bsky.feed.post\",\"createdAt\":")
        o.utf8Str(JetstreamGenerator.iso(clockUs - Int64(r.int(0, 3_000_000))))
        if !links.isEmpty && r.chance(0.5) {
            o.raw(",\"embed\":{\"$type\":\"app.bsky.embed.external\",\"external\":{\"description\":")
            o.utf8Str(r.pick(words) + " " + r.pick(words)); o.raw(",\"title\":"); o.utf8Str(r.pick(words))
            o.raw(",\"uri\":"); o.utf8Str(links[0]); o.raw("}}")
        }
        if !facets.isEmpty {
            o.raw(",\"facets\":[")
            for (i, f) in facets.enumerated() {
                if i > 0 { o.raw(",") }
                o.raw("{\"features\":[{\"$type\":")
                switch f.piece {
                case .tag(let t): o.raw("\"app.bsky.richtext.facet#tag\",\"tag\":"); o.utf8Str(t)
                case .mention(let m): o.raw("\"app.bsky.richtext.facet#mention\",\"did\":"); o.utf8Str(did(m))
                case .link(let l): o.raw("\"app.bsky.richtext.facet#link\",\"uri\":"); o.utf8Str(l)
                case .word: break
                }
                o.raw("}],\"index\":{\"byteEnd\":"); o.int(f.end)
                o.raw(",\"byteStart\":"); o.int(f.start); o.raw("}}")
            }
            o.raw("]")
        }
        o.raw(",\"langs\":["); o.utf8Str(lang); o.raw("]")
        if !recentPosts.isEmpty && r.chance(0.25) {
            let parent = recentPosts[r.below(recentPosts.count)]
            o.raw(",\"reply\":{\"parent\":"); strongRef(parent, into: &o)
            o.raw(",\"root\":"); strongRef(parent, into: &o); o.raw("}")
        }
        if !recordTags.isEmpty {
            o.raw(",\"tags\":[")
            for (i, t) in recordTags.enumerated() { if i > 0 { o.raw(",") }; o.utf8Str(t) }
            o.raw("]")
        }
        o.raw(",\"text\":"); o.utf8Str(text)
        o.raw("},\"cid\":"); o.utf8Str(cid()); o.raw("}}")
        recentPosts.append("at://\(did(author))/app.bsky.feed.post/\(rkey)")
        if recentPosts.count > 8192 { recentPosts.removeFirst(4096) }
        remember(author, "app.bsky.feed.post", rkey)
    }
}

func generateJetstream(out: String, mb: Int, seed: UInt64) {
    let fm = FileManager.default
    do { try fm.createDirectory(atPath: out, withIntermediateDirectories: true) } catch { fail("cannot create \(out): \(error)") }
    try? fm.removeItem(atPath: out + "/DONE")
    let t0 = monotonicSeconds()
    var g = JetstreamGenerator(seed: seed)
    var dupRng = Rng(seed: seed ^ 0xD0_0B1E)
    let target = mb * 1_000_000
    let sink = Sink(out + "/jetstream.jsonl")
    var written = 0, lines = 0, duplicates = 0
    var counts: [String: Int] = [:]
    var recent: [[UInt8]] = []
    var fnv = FNV1a()
    while written < target {
        var o = JSONOut(capacity: 4096)
        if !recent.isEmpty && dupRng.chance(0.002) {
            o.bytes = recent[dupRng.below(recent.count)]
            duplicates += 1
        } else {
            let kind = g.line(into: &o)
            counts["\(kind)", default: 0] += 1
            if kind == .post || kind == .repost {
                if recent.count == 64 { recent.remove(at: dupRng.below(64)) }
                recent.append(o.bytes)
            }
        }
        o.bytes.withUnsafeBytes { fnv.add($0) }
        sink.write(o.bytes)
        written += o.bytes.count
        lines += 1
    }
    sink.close()
    note(String(format: "generated %d Jetstream lines, %.1f MB in %.1f s", lines, Double(written) / 1e6, monotonicSeconds() - t0))
    let manifest = "mb=\(mb)\nformat=1\nseed=\(seed)\nbytes=\(written)\nlines=\(lines)\nduplicates=\(duplicates)\n"
        + counts.keys.sorted().map { "\($0)=\(counts[$0]!)\n" }.joined()
        + "fnv1a64=\(String(fnv.value, radix: 16))\n"
    _ = fm.createFile(atPath: out + "/DONE", contents: Data(manifest.utf8))
    print(manifest, terminator: "")
}

/// `smashtag-bench run-jetstream`: `report '*' --kinds hashtag` on the
/// generated Jetstream lines against DuckDB's query of the same report, with
/// the rows compared; `'*'` with users beside it (no peer: DuckDB would have
/// to resolve handles).
func runJetstream(_ options: RunOptions) {
    var o = options
    let fm = FileManager.default
    let path = o.data + "/jetstream.jsonl"
    guard fm.fileExists(atPath: path) else { fail("\(path) is missing: run `smashtag-bench generate-jetstream --out \(o.data)` first") }
    for f in [o.smashtag, o.python, o.peer] where !fm.fileExists(atPath: f) { fail("\(f) is missing") }
    let outDir = o.data + "/out"
    try? fm.createDirectory(atPath: outDir, withIntermediateDirectories: true)
    let copy = outDir + "/smashtag"
    try? fm.removeItem(atPath: copy)
    do { try fm.copyItem(atPath: o.smashtag, toPath: copy) } catch { fail("cannot copy \(o.smashtag): \(error)") }
    o.smashtag = copy
    let mb = Double(fileSize(path)) / 1e6
    let tags2 = Config(tool: .bluesky, jobs: 2), duck = Config(tool: .duckdbBluesky, jobs: 2)
    let tags1 = Config(tool: .bluesky, jobs: 1), users2 = Config(tool: .blueskyUsers, jobs: 2)
    let input = Input(name: "Jetstream .jsonl", slug: "jetstream", path: path, duckdbReads: true,
                      configs: [tags2, duck, tags1, users2])
    let facts = machineFacts(o)
    let pressureStart = cpuPressureMicros()
    let clockStart = monotonicSeconds()
    note("\(input.name):")
    var ms = input.configs.map { Measured(input: input, config: $0) }
    for i in ms.indices { runOnce(&ms[i], o, outDir: outDir, warmup: true) }
    for round in 0..<o.runs {
        let order = round % 2 == 0 ? Array(ms.indices) : Array(ms.indices.reversed())
        for i in order { runOnce(&ms[i], o, outDir: outDir, warmup: false) }
    }
    var pressure = ""
    if let a = pressureStart, let b = cpuPressureMicros() {
        pressure = String(format: "; CPU pressure (PSI some) over the run: %.0f%%",
                          (b - a) / 1e6 / (monotonicSeconds() - clockStart) * 100)
    }
    let reference = ms[1].rows
    var lines: [String] = []
    lines.append("Jetstream lines (SPEC §16), `report '*' --kinds hashtag --min-count 1` against DuckDB's query of the same report; "
                 + "\(o.runs) timed runs after one warm-up each, alternating order; "
                 + String(format: "MB/s = %.1f MB / median wall time.", mb))
    lines.append("")
    lines += facts
    lines.append(String(format: "- load average at the end: %@%@",
                        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?",
                        pressure))
    lines.append("")
    lines.append("| tool | jobs | median s | MB/s | ratio vs DuckDB | peak RSS MB | rows | matching posts | same as DuckDB | CPU s (user+sys) |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for m in ms {
        let same = m.config.tool == .duckdbBluesky ? "(reference)" : m.config.tool == .bluesky ? (m.rows == reference ? "yes" : "**NO**") : "n/a"
        lines.append(String(format: "| %@ | %d | %.3f | %.0f | %.2f | %.0f | %d | %@ | %@ | %.2f |",
                            m.config.tool.rawValue, m.config.jobs, m.median, mb / m.median, ms[1].median / m.median,
                            Double(m.maxRSSKiB) / 1024, m.rows.count, m.config.tool.isPeer ? "n/a" : String(m.tweets), same, m.cpuMedian))
    }
    lines.append("")
    let ratio = ms[1].median / ms[0].median
    lines.append("| figure | measured | goal | |")
    lines.append("|---|---:|---|---|")
    lines.append(String(format: "| Jetstream: DuckDB s / smashtag s (jobs 2, every hashtag) | %.2f | >= 3.0 | %@ |", ratio, ratio >= 3.0 ? "met" : "**not met**"))
    lines.append("")
    lines.append(ms[0].rows == reference && ms[2].rows == reference
                 ? "Rows: smashtag's rows equal DuckDB's (sorted CSV term,type,mention,count)."
                 : "Rows: **smashtag's rows differ from DuckDB's**; the outputs are in \(outDir)/.")
    print(lines.joined(separator: "\n"))
}
