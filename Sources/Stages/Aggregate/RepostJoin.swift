import Dispatch

/// SPEC §16's join: a Bluesky repost is a retweet of its `subject.uri`,
/// carrying that post's mentions when the post is in the inputs. A repost
/// may be read before or after its subject, in another file, by another
/// worker, in another extract; so no repost is matched where it is read.
/// Every path collects, in input order, what each Bluesky post says a
/// repost of it carries (`RepostJoins.Subject`, the first copy read wins)
/// and the reposts the filters kept, and at the end of the run makes one
/// part of the reposts, matched against the terms as a retweet is: on its
/// subject's mentions (and text, for a word term), its own author
/// (`from:`) and poster. The sink takes that part as any other, so dedup
/// stays on the repost's own AT-URI and every column, `--by`, pair and
/// trend counts it as a retweet.
///
///     dumps:            workers ─ PostPart.joins ─▶ ParallelRun ─▶ RepostJoin ─▶ resolved part ─▶ sink
///     extract|aggregate: ExtractWriter J/X/R lines ─▶ ExtractReader ─▶ RepostJoin ─▶ resolved part ─▶ sink
///
/// - Complexity: memory O(Bluesky posts read that carry a mention × their
///   mentions) plus O(reposts kept); time O(that) at the end.
public final class RepostJoin {
    private var subjects: [UInt64: RepostJoins.Subject] = [:]
    private var reposts: [RepostJoins.Repost] = []
    /// Pieces' subjects, in input order, not yet in `subjects`: most posts
    /// are reposted by no repost read, so each is looked at once, at the
    /// end, and only those a repost names are kept (`settle`).
    private var pending: [[RepostJoins.Subject]] = []
    /// The pieces settled, kept with the join: freeing a few hundred thousand
    /// posts' arrays cost the run's end as much as settling them, and a
    /// command keeps the join until it exits (`ParallelRun`'s `keepUntilExit`).
    private var settled: [[RepostJoins.Subject]] = []

    public init() {}

    /// Whether no repost waits.
    public var isEmpty: Bool { reposts.isEmpty }

    /// Adds a piece's joins; call in input order.
    public func add(_ joins: RepostJoins) {
        if !joins.subjects.isEmpty { pending.append(joins.subjects) }
        reposts += joins.reposts
    }

    /// What a post says a repost of it carries; its first copy read wins.
    public func add(subject s: RepostJoins.Subject) {
        settle(all: true)
        if subjects[s.id] == nil { subjects[s.id] = s }
    }

    /// Moves the pending subjects into `subjects`, in input order (the first
    /// copy of a post wins): every one (`all`), or those a repost names.
    private func settle(all: Bool) {
        guard !pending.isEmpty else { return }
        // The subjects the reposts name, in a set without SipHash (every post read is looked up).
        var named = TweetIDSet()
        if !all { for r in reposts { _ = named.insert(r.subject) } }
        for piece in pending {
            // By index: a subject is copied (its arrays retained) only when kept.
            for i in piece.indices {
                let id = piece[i].id
                guard all || named.contains(id), subjects[id] == nil else { continue }
                subjects[id] = piece[i]
            }
        }
        settled += pending
        pending = []
    }

    /// Whether a copy of post `id` has been added.
    public func knows(subject id: UInt64) -> Bool {
        settle(all: true)
        return subjects[id] != nil
    }

    public func add(repost r: RepostJoins.Repost) { reposts.append(r) }

    /// The reposts that match a term, in the order read, as one part of
    /// `fields`: each a retweet carrying its subject's mentions of the
    /// `counted` kinds (the subject's mentions of other kinds, extracted
    /// for the terms, match but are not counted), its own poster, and its
    /// author, time and `retweetOf` as `fields` ask.
    ///
    /// - Parameter keep: whether a repost of this creation time counts (`aggregate --by`'s window).
    public func resolved(terms: [Term], fields: PostFields, counted: MentionKinds,
                         keep: (Int64?) -> Bool = { _ in true }) -> PostPart {
        settle(all: false)
        return resolved(reposts.indices, terms: terms, fields: fields, counted: counted, keep: keep)
    }

    /// `resolved` in `pieces` parts of consecutive reposts, made at once on
    /// as many threads (the run's end, when the workers are done): handed to
    /// a sink in the order given, they count as the one part would.
    public func resolved(pieces: Int, terms: [Term], fields: PostFields, counted: MentionKinds) -> [PostPart] {
        let n = reposts.count, k = max(1, min(pieces, n / 1024))
        guard k > 1 else { return [resolved(terms: terms, fields: fields, counted: counted)] }
        settle(all: false)
        let bounds = (0...k).map { n * $0 / k }
        let parts = UncheckedBox(UnsafeMutableBufferPointer<PostPart>.allocate(capacity: k))
        defer { parts.value.deallocate() }
        let join = UncheckedBox(self)
        DispatchQueue.concurrentPerform(iterations: k) { i in
            (parts.value.baseAddress! + i).initialize(to: join.value.resolved(bounds[i]..<bounds[i + 1], terms: terms, fields: fields,
                                                                            counted: counted, keep: { _ in true }))
        }
        return (0..<k).map { (parts.value.baseAddress! + $0).move() }
    }

    private func resolved(_ range: Range<Int>, terms: [Term], fields: PostFields, counted: MentionKinds,
                          keep: (Int64?) -> Bool) -> PostPart {
        var ids: [String: Int] = [:]
        for t in terms { if let k = t.mentionKey, ids[k] == nil { ids[k] = ids.count } }
        let masks = TermMasks(terms: terms, id: { ids[$0] })
        let words = terms.indices.compactMap { terms[$0].kind == .word ? ($0, WordMatch(terms[$0].key)) : nil }
        var builder = PartBuilder<KeyedNumbering<String>>(fields: fields)
        for r in reposts[range] {
            let subject = subjects[r.subject]
            var keys = subject?.keys ?? []
            var spellings = subject?.spellings ?? []
            if let a = r.author, counted.has(.poster) {
                let poster = MentionKind.poster.sign + a.unsigned
                keys.append(poster)
                spellings.append((poster, MentionKind.poster.sign + (r.authorSpelling ?? a).unsigned))
            }
            // No term names a mention or an author (`'*'`, a word): no key is looked up.
            var mask = ids.isEmpty ? masks.mask(mentions: EmptyCollection<Int>(), author: nil)
                : masks.mask(mentions: keys.map { ids[$0] ?? -1 }, author: r.author.flatMap { ids[$0] })
            if !masks.domainTerms.isEmpty {
                for k in keys where k.signedKind == .host { mask |= masks.domainMask(host: k.unsigned) }
            }
            if !words.isEmpty, let text = subject?.text {
                let prepared = WordMatch.prepare(text)
                for (i, w) in words where w.matches(prepared: prepared) { mask |= 1 << UInt64(i) }
            }
            let time = r.time == PostPart.unknownTime ? nil : r.time
            guard mask != 0, keep(time) else { continue }
            builder.append(id: r.id, mask: mask, mentions: keys.filter { $0.signedKind.map(counted.has) ?? false }, text: { $0 },
                           retweet: true, author: r.author, spellings: spellings.map { ($0.key, $0.spelling) }, time: time,
                           retweetOf: r.subject)
        }
        return builder.take()
    }
}
