import CXLSXWriter
import Foundation

// libxlsxwriter for `XLSXReport`: the workbook, its sheets and formats, and
// every return code checked here (a failure is an `OutputFile.Failure` with
// libxlsxwriter's own message).

/// A workbook being written, and the file it is written to.
struct Workbook {
    let pointer: UnsafeMutablePointer<lxw_workbook>
    let path: String
    private var closed = false

    init(path: String) throws(OutputFile.Failure) {
        var options = lxw_workbook_options()
        guard let wb = workbook_new_opt(path, &options) else {
            throw OutputFile.Failure(path: path, message: "libxlsxwriter cannot create the workbook")
        }
        pointer = wb
        self.path = path
    }

    func sheet(_ name: String) throws(OutputFile.Failure) -> Sheet {
        guard let ws = workbook_add_worksheet(pointer, name) else {
            throw OutputFile.Failure(path: path, message: "libxlsxwriter cannot add a sheet named \(VisibleText.escaped(name))")
        }
        return Sheet(pointer: ws, path: path)
    }

    /// The bytes of a workbook that `write` fills.
    ///
    /// libxlsxwriter writes to a file name: the workbook is put together in
    /// a private temporary file (removed on an interrupt, as `OutputFile`'s
    /// are) and read back, so that `OutputFile` writes it like any other output.
    ///
    /// - Throws: `OutputFile.Failure` when libxlsxwriter fails (a message of its own).
    /// - Complexity: memory and a temporary file of the workbook's size.
    static func bytes(_ write: (inout Workbook) throws(OutputFile.Failure) -> Void) throws(OutputFile.Failure) -> [UInt8] {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var path = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            path = folder + "/smashtag-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).xlsx"
            guard OutputFile.track(path) else { throw OutputFile.Failure(path: path, message: "interrupted", interrupted: true) }
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { break }
            OutputFile.untrack(path)
            guard errno == EEXIST else {
                throw OutputFile.Failure(path: path, message: "cannot make a temporary workbook (\(String(cString: strerror(errno))))")
            }
        }
        guard fd >= 0 else { throw OutputFile.Failure(path: path, message: "cannot make a temporary workbook") }
        _ = Foundation.close(fd)
        defer {
            unlink(path)
            OutputFile.untrack(path)
        }
        var book = try Workbook(path: path)
        do {
            try write(&book)
        } catch {
            _ = workbook_close(book.pointer)
            throw error
        }
        try book.close()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OutputFile.Failure(path: path, message: "cannot read the workbook back")
        }
        return [UInt8](data)
    }

    /// Writes the file (`workbook_close`, which also frees the workbook).
    mutating func close() throws(OutputFile.Failure) {
        guard !closed else { return }
        closed = true
        let e = workbook_close(pointer)
        guard e == LXW_NO_ERROR else {
            throw OutputFile.Failure(path: path, message: "libxlsxwriter: \(String(cString: lxw_strerror(e)))")
        }
    }
}

/// One sheet of a `Workbook`.
extension Workbook {
    /// The Summary sheet of a workbook of `smashtag COMMAND` (pairs, posts):
    /// a row per term with its sheet's name, its tweets and its rows.
    ///
    /// - Returns: each term's sheet name, unique in the workbook.
    func summarySheet(_ command: String, terms: [(term: String, tweets: Int, rows: Int)],
                      formats f: Formats) throws(OutputFile.Failure) -> [String] {
        let summary = try sheet("Summary")
        var taken: Set<String> = ["summary"]
        let names = terms.map { XLSXReport.sheetName(for: $0.term, taken: &taken) }
        try summary.string(0, 0, "smashtag \(command)", f.title)
        for (c, h) in ["term", "sheet", "tweets", command].enumerated() { try summary.string(2, UInt16(c), h, f.header) }
        var widths = [12, 12]
        for (n, (t, name)) in zip(terms, names).enumerated() {
            let row = UInt32(3 + n)
            try summary.string(row, 0, t.term, nil)
            try summary.string(row, 1, name, nil)
            try summary.number(row, 2, Double(t.tweets), f.count)
            try summary.number(row, 3, Double(t.rows), f.count)
            widths[0] = max(widths[0], VisibleText.columns(t.term))
            widths[1] = max(widths[1], VisibleText.columns(name))
        }
        try summary.width(0, Double(min(60, widths[0] + 2)))
        try summary.width(1, Double(min(40, widths[1] + 2)))
        try summary.width(2, 12)
        try summary.width(3, 12)
        worksheet_activate(summary.pointer)
        return names
    }
}

struct Sheet {
    let pointer: UnsafeMutablePointer<lxw_worksheet>
    let path: String

    /// Excel's longest string cell.
    static let longest = 32_767

    /// A string cell: always text, whatever it starts with.
    func string(_ row: UInt32, _ col: UInt16, _ s: String, _ format: UnsafeMutablePointer<lxw_format>?) throws(OutputFile.Failure) {
        let value = s.count > Self.longest ? String(s.prefix(Self.longest - 1)) + "…" : s
        try check(worksheet_write_string(pointer, row, col, value, format), "a cell")
    }

    func number(_ row: UInt32, _ col: UInt16, _ n: Double, _ format: UnsafeMutablePointer<lxw_format>?) throws(OutputFile.Failure) {
        try check(worksheet_write_number(pointer, row, col, n, format), "a number")
    }

    /// A sheet of rows under a header row: the header frozen on screen and,
    /// on paper, landscape, one page wide, the header row on every page.
    func headerRowFrozenAndPrinted() throws(OutputFile.Failure) {
        worksheet_freeze_panes(pointer, 1, 0)
        worksheet_set_landscape(pointer)
        worksheet_fit_to_pages(pointer, 1, 0)
        try check(worksheet_repeat_rows(pointer, 0, 0), "the header row for printing")
    }

    func width(_ col: UInt16, _ width: Double) throws(OutputFile.Failure) {
        try check(worksheet_set_column(pointer, col, col, width, nil), "a column width")
    }

    func check(_ e: lxw_error, _ what: String) throws(OutputFile.Failure) {
        guard e == LXW_NO_ERROR else {
            throw OutputFile.Failure(path: path, message: "libxlsxwriter cannot write \(what): \(String(cString: lxw_strerror(e)))")
        }
    }
}

/// The cell formats of a workbook.
struct Formats {
    let title, header, label, count, value, time: UnsafeMutablePointer<lxw_format>?

    init(_ book: Workbook) {
        title = workbook_add_format(book.pointer)
        format_set_bold(title)
        format_set_font_size(title, 16)
        header = workbook_add_format(book.pointer)
        format_set_bold(header)
        format_set_bottom(header, UInt8(LXW_BORDER_THIN.rawValue))
        format_set_bg_color(header, 0xE8ECF0)
        label = workbook_add_format(book.pointer)
        format_set_bold(label)
        count = workbook_add_format(book.pointer)
        format_set_num_format(count, "#,##0")
        value = workbook_add_format(book.pointer)
        format_set_num_format(value, "#,##0")
        format_set_align(value, UInt8(LXW_ALIGN_LEFT.rawValue))
        time = workbook_add_format(book.pointer)
        format_set_num_format(time, "yyyy-mm-dd hh:mm:ss \"UTC\"")
        format_set_align(time, UInt8(LXW_ALIGN_LEFT.rawValue))
    }
}
