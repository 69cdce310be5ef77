/// What a piece of a scan says for SPEC §16's join of Bluesky reposts with
/// their subjects: a repost carries its subject's mentions when the subject
/// is among the inputs, wherever it is read (before or after the repost, in
/// another file, another worker's range, another extract). So a repost is
/// not matched where it is read: it waits, with what the filters and the
/// report need of it, until every input has been read (`RepostJoin`,
/// `Aggregate`), and every Bluesky post read says what a repost of it would
/// carry. Both travel in a part, in input order, to the sink on the calling
/// thread, or as extract lines (`J`, `X`, `R`) to `aggregate`.
///
/// Tweets never add to it: it stays empty, and costs nothing, in a run without Bluesky posts.
public struct RepostJoins: Sendable {
    /// What a Bluesky post says a repost of it carries: its mentions (every
    /// kind the run extracts), their spellings, and its text when a word term
    /// asks. A post that carries none of these adds nothing (a repost of it
    /// carries nothing either way).
    public struct Subject: Sendable {
        public var id: UInt64
        /// Signed, normalised keys (`#rust`, `@did:plc:…`, `+example.com/x`), each once.
        public var keys: [String]
        /// (key, spelling with its sign) for each distinct spelling of a key (`#Rust`).
        public var spellings: [(key: String, spelling: String)]
        public var text: String?

        public init(id: UInt64, keys: [String], spellings: [(key: String, spelling: String)], text: String?) {
            self.id = id
            self.keys = keys
            self.spellings = spellings
            self.text = text
        }
    }

    /// A repost kept by the filters, waiting for its subject.
    public struct Repost: Sendable {
        public var id: UInt64
        /// The post it reposts (`subject.uri`'s identity).
        public var subject: UInt64
        /// Its author's key (`@did:plc:…`) and spelling as written (`@did:plc:…`), when known;
        /// no spelling where it is the key itself.
        public var author: String?
        public var authorSpelling: String?
        /// Its creation time, seconds since 1970 UTC, or `PostPart.unknownTime`.
        public var time: Int64

        public init(id: UInt64, subject: UInt64, author: String?, authorSpelling: String?, time: Int64) {
            self.id = id
            self.subject = subject
            self.author = author
            self.authorSpelling = authorSpelling
            self.time = time
        }
    }

    public internal(set) var subjects: [Subject] = []
    public internal(set) var reposts: [Repost] = []

    public init() {}

    public var isEmpty: Bool { subjects.isEmpty && reposts.isEmpty }

    public mutating func add(_ s: Subject) { subjects.append(s) }
    public mutating func add(_ r: Repost) { reposts.append(r) }
}

/// A sink that carries the joins on itself (an `ExtractWriter` writes them
/// as lines for `aggregate`), so a run hands it the parts as they are and
/// resolves no repost.
public protocol RepostCarryingSink: PartSink {}
