import CXLSXWriter

/// `smashtag posts --format xlsx` (SPEC §12.6, §15): a workbook of posts.
///
/// - `Summary`, the first sheet: a line per term with its sheet, its
///   matching tweets and the posts written.
/// - A sheet per term, named as `XLSXReport` names them: the rows of
///   `--format csv` in the picked columns, ids, authors, times and texts as
///   string cells (an id keeps all its digits; `@name` and `=cmd|…` stay
///   text, never a formula), the counts as numbers, the header row frozen.
public struct XLSXPosts {
    public var posts: [TermPosts]
    public var columns: [PostsColumn]

    public init(_ posts: [TermPosts], columns: [PostsColumn]) {
        self.posts = posts
        self.columns = columns
    }

    /// The workbook's bytes.
    ///
    /// - Throws: `OutputFile.Failure` when libxlsxwriter fails, or a term has
    ///   more posts than a sheet holds.
    public func bytes() throws(OutputFile.Failure) -> [UInt8] {
        try Workbook.bytes { (book: inout Workbook) throws(OutputFile.Failure) in try write(into: &book) }
    }

    private func write(into book: inout Workbook) throws(OutputFile.Failure) {
        let f = Formats(book)
        let names = try book.summarySheet("posts", terms: posts.map { p in (p.term.description, p.tweets, p.posts.count) }, formats: f)
        for (p, name) in zip(posts, names) {
            try writeTerm(p, sheet: try book.sheet(name), formats: f, book: book)
        }
    }

    private func writeTerm(_ p: TermPosts, sheet ws: Sheet, formats f: Formats, book: Workbook) throws(OutputFile.Failure) {
        let term = p.term.description
        guard p.posts.count <= XLSXReport.maxRows else {
            throw OutputFile.Failure(path: book.path, message: "\(term) has \(p.posts.count) posts, and a sheet holds "
                                     + "\(TableRenderer.grouped(XLSXReport.maxRows)): keep fewer with --top or --min-count")
        }
        for (c, h) in columns.enumerated() { try ws.string(0, UInt16(c), h.rawValue, f.header) }
        var widths = columns.map { max(10, $0.rawValue.count + 2) }
        for (n, post) in p.posts.enumerated() {
            let row = UInt32(n + 1)
            for (c, column) in columns.enumerated() {
                let col = UInt16(c)
                switch column {
                case .retweets: try ws.number(row, col, Double(post.retweets), f.count)
                case .quotes: try ws.number(row, col, Double(post.quotes), f.count)
                case .replies: try ws.number(row, col, Double(post.replies), f.count)
                default:
                    let value = column.value(post, term: term)
                    if !value.isEmpty { try ws.string(row, col, value, nil) }
                    widths[c] = max(widths[c], min(60, VisibleText.columns(value) + 2))
                }
            }
        }
        try ws.headerRowFrozenAndPrinted()
        for (c, w) in widths.enumerated() { try ws.width(UInt16(c), Double(w)) }
    }
}
