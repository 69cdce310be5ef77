import CXLSXWriter

/// `smashtag pairs --format xlsx` (SPEC §11, §12.5): a workbook of pairs.
///
/// - `Summary`, the first sheet: a line per term with its sheet, its
///   matching tweets and the pairs written.
/// - A sheet per term, named as `XLSXReport` names them: the rows of
///   `--format csv` (`term`, `source`, `target`, `weight`), each mention a
///   string cell (so `@name` and `=cmd|…` are text, never a formula), the
///   weight a number, the header row frozen and printed on every page.
public struct XLSXPairs {
    public var pairs: [TermPairs]

    public init(_ pairs: [TermPairs]) { self.pairs = pairs }

    /// The workbook's bytes.
    ///
    /// - Throws: `OutputFile.Failure` when libxlsxwriter fails, or a term has
    ///   more pairs than a sheet holds.
    public func bytes() throws(OutputFile.Failure) -> [UInt8] {
        try Workbook.bytes { (book: inout Workbook) throws(OutputFile.Failure) in try write(into: &book) }
    }

    private func write(into book: inout Workbook) throws(OutputFile.Failure) {
        let f = Formats(book)
        let names = try book.summarySheet("pairs", terms: pairs.map { p in (p.term.description, p.tweets, p.pairs.count) }, formats: f)
        for (p, name) in zip(pairs, names) {
            try writeTerm(p, sheet: try book.sheet(name), formats: f, book: book)
        }
    }

    private func writeTerm(_ p: TermPairs, sheet ws: Sheet, formats f: Formats, book: Workbook) throws(OutputFile.Failure) {
        let term = p.term.description
        guard p.pairs.count <= XLSXReport.maxRows else {
            throw OutputFile.Failure(path: book.path, message: "\(term) has \(p.pairs.count) pairs, and a sheet holds "
                                     + "\(TableRenderer.grouped(XLSXReport.maxRows)): keep fewer with --top or --min-count")
        }
        for (c, h) in ["term", "source", "target", "weight"].enumerated() { try ws.string(0, UInt16(c), h, f.header) }
        var widest = 10
        for (n, pair) in p.pairs.enumerated() {
            let row = UInt32(n + 1)
            try ws.string(row, 0, term, nil)
            try ws.string(row, 1, pair.source, nil)
            try ws.string(row, 2, pair.target, nil)
            try ws.number(row, 3, Double(pair.weight), f.count)
            widest = max(widest, VisibleText.columns(pair.source), VisibleText.columns(pair.target))
        }
        try ws.headerRowFrozenAndPrinted()
        try ws.width(0, Double(min(40, max(10, VisibleText.columns(term) + 2))))
        try ws.width(1, Double(min(50, widest + 2)))
        try ws.width(2, Double(min(50, widest + 2)))
        try ws.width(3, 10)
    }
}
