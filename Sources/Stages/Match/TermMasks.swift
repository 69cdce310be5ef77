/// The one matcher of mention and author terms (SPEC §2): which of a run's
/// terms a post's mention ids and author id match, as a bit mask (bit `i`
/// for term `i`), for any numbering of the mentions — a worker's
/// `MentionTable` ids (`TermMatcher`, dumps) or the store's mention ids
/// (`StoredPosts`, ingest's tracked terms).
///
/// The terms' keys get a mask each by their id: while the ids are small (a
/// worker interns the terms' keys first) an array indexed by id, so
/// matching is one look-up per mention however many terms; past that (a
/// store's ids run to millions) a short list of the terms' ids, looked along
/// for each mention. `*` terms match every post; word terms are left to the
/// caller (`wordTerms`), which has the text.
public struct TermMasks: Sendable {
    /// The `*` terms' bits.
    public let all: UInt64
    /// The indices of the word terms, for the caller to match on the text.
    public let wordTerms: [Int]
    private let byMention: [UInt64]
    private let byAuthor: [UInt64]
    /// When an id is `denseLimit` or more: the terms' (id, mask), mentions and authors.
    private let sparseMentions: [(id: Int, mask: UInt64)]
    private let sparseAuthors: [(id: Int, mask: UInt64)]

    /// Ids below this are kept in arrays indexed by id.
    static let denseLimit = 1 << 16

    /// - Parameters:
    ///   - id: the id of a mention key in the numbering the posts come in
    ///     (nil when it has none: the term then matches nothing).
    ///   - hosts: for the `domain:` term at an index, the ids of the hosts
    ///     under it, when the numbering knows them all beforehand (a store's);
    ///     a scan of dumps matches hosts by name as it meets them (`domainMask`).
    public init(terms: [Term], id: (String) -> Int?, hosts: (Int) -> [Int] = { _ in [] }) {
        var mentions: [(id: Int, mask: UInt64)] = [], authors: [(id: Int, mask: UInt64)] = []
        var all: UInt64 = 0
        var domains: [(name: String, bit: UInt64)] = []
        func add(_ id: Int, _ bit: UInt64, to list: inout [(id: Int, mask: UInt64)]) {
            if let k = list.firstIndex(where: { $0.id == id }) { list[k].mask |= bit } else { list.append((id, bit)) }
        }
        for (i, term) in terms.enumerated() {
            let bit: UInt64 = 1 << UInt64(i)
            switch term.kind {
            case .all: all |= bit
            case .hashtag, .user, .author:
                guard let key = term.mentionKey, let id = id(key), id >= 0 else { continue }
                if term.kind == .author { add(id, bit, to: &authors) } else { add(id, bit, to: &mentions) }
            case .symbol, .url:
                guard let key = term.mentionKey, let id = id(key), id >= 0 else { continue }
                add(id, bit, to: &mentions)
            case .domain:
                domains.append((term.key, bit))
                for h in hosts(i) where h >= 0 { add(h, bit, to: &mentions) }
            case .word: break
            }
        }
        func dense(_ list: [(id: Int, mask: UInt64)]) -> [UInt64]? {
            guard let top = list.map(\.id).max() else { return [] }
            guard top < Self.denseLimit else { return nil }
            var masks = [UInt64](repeating: 0, count: top + 1)
            for (id, mask) in list { masks[id] = mask }
            return masks
        }
        self.all = all
        let (m, a) = (dense(mentions), dense(authors))
        byMention = m ?? []
        byAuthor = a ?? []
        sparseMentions = m == nil ? mentions : []
        sparseAuthors = a == nil ? authors : []
        hasAuthors = !authors.isEmpty
        wordTerms = terms.indices.filter { terms[$0].kind == .word }
        domainTerms = domains
    }

    /// The `domain:` terms (SPEC §13): their names and bits.
    public let domainTerms: [(name: String, bit: UInt64)]

    /// The `domain:` terms a link's host (a host key without its sign) matches:
    /// those whose name is the host or a suffix of it after a `.`.
    public func domainMask(host: String) -> UInt64 {
        var mask: UInt64 = 0
        for (name, bit) in domainTerms where TermMasks.host(host, isUnder: name) { mask |= bit }
        return mask
    }

    /// Whether `host` is `name` or ends with `.name`, in bytes.
    static func host(_ host: String, isUnder name: String) -> Bool {
        let h = host.utf8, n = name.utf8
        guard h.count >= n.count, h.suffix(n.count).elementsEqual(n) else { return false }
        return h.count == n.count || h[h.index(h.endIndex, offsetBy: -n.count - 1)] == UInt8(ascii: ".")
    }

    /// Whether an author id can match any term (so a caller may skip finding it).
    public var asksAuthor: Bool { hasAuthors }
    private let hasAuthors: Bool

    /// The terms a post of these mentions and this author matches (word terms aside).
    @inline(__always)
    public func mask<IDs: Sequence>(mentions: IDs, author: Int?) -> UInt64 where IDs.Element: BinaryInteger {
        var mask = all
        if sparseMentions.isEmpty {
            let count = byMention.count
            for id in mentions where id >= 0 && Int(id) < count { mask |= byMention[Int(id)] }
        } else {
            for id in mentions { for s in sparseMentions where s.id == Int(id) { mask |= s.mask } }
        }
        if let author, author >= 0 {
            if author < byAuthor.count { mask |= byAuthor[author] }
            for s in sparseAuthors where s.id == author { mask |= s.mask }
        }
        return mask
    }
}
