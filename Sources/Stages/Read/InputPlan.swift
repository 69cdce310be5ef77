#if canImport(Glibc)
import Glibc
#endif

/// One piece of work a worker takes whole: a file, a byte range of a big
/// JSON-lines file, or standard input.
public struct WorkUnit: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case file(String)
        /// Bytes `range` of a JSON-lines file; the range starts at a line start.
        case range(String, Range<Int64>)
        /// One member of an uncompressed tar: `range` runs from its header to the next one.
        case tarMember(String, Range<Int64>, member: String)
        case standardInput
    }

    public var kind: Kind
    /// Bytes in the unit, when known (for progress and the summary).
    public var size: Int64?
    /// For a range: whether it continues the range before it (line numbers add up).
    public var continuesPrevious = false
    /// Whether it is the first unit of an input (a file, stdin), for counting inputs.
    public var startsInput = true

    public var displayPath: String {
        switch kind {
        case .file(let p), .range(let p, _), .tarMember(let p, _, _): return p
        case .standardInput: return "<stdin>"
        }
    }
}

/// Expands the command line's paths into ordered work units (SPEC §3).
///
/// Folders are walked recursively in byte order of names, hidden entries and
/// files that are plainly not dumps (by name) skipped; symbolic links to
/// folders are not followed, so a link loop cannot trap the walk. A plain
/// JSON-lines file bigger than `splitSize` is cut into byte ranges at line
/// starts, so one big file still spreads over every core.
public struct InputPlan {
    public private(set) var units: [WorkUnit] = []
    /// Paths that could not be read at all: the first `listLimit`, with their reasons.
    public private(set) var problems: [InputProblem] = []
    /// Paths that could not be read past the first `listLimit`: counted, not kept.
    public private(set) var unlistedProblems = 0
    /// Walked files passed over by name (the first `listLimit`).
    public private(set) var skipped: [(path: String, reason: String)] = []
    /// Files passed over by name past the first `listLimit`.
    public private(set) var unlistedSkipped = 0

    /// Problems and passed-over files kept by name: a million missing paths
    /// cost a counter, not a million messages.
    public static let listLimit = 1000

    private mutating func note(_ p: InputProblem) {
        if problems.count < InputPlan.listLimit { problems.append(p) } else { unlistedProblems += 1 }
    }

    private mutating func pass(_ path: String, _ reason: String) {
        if skipped.count < InputPlan.listLimit { skipped.append((path, reason)) } else { unlistedSkipped += 1 }
    }

    /// Byte ranges of about 4 MiB: small enough that the last ranges of a
    /// big file keep every core busy to the end (with 32 MiB ranges one core
    /// could idle for a whole range, ~10% of a 500 MB run on 2 cores), big
    /// enough that a range's set-up (a mapping, an ordered merge) is noise.
    public static let defaultSplitSize: Int64 = 4 << 20

    public init(paths: [String], splitSize: Int64 = InputPlan.defaultSplitSize) {
        for path in paths {
            if path == "-" {
                units.append(WorkUnit(kind: .standardInput))
                continue
            }
            add(path, explicit: true, splitSize: splitSize)
        }
    }

    private mutating func add(_ path: String, explicit: Bool, splitSize: Int64) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            note(InputProblem(.unreadable, origin: Origin(path: path), line: nil, reason: "cannot read: \(reason)"))
            return
        }
        let type = st.st_mode & S_IFMT
        if type == S_IFDIR {
            if !explicit {
                var lst = stat()
                if lstat(path, &lst) == 0, lst.st_mode & S_IFMT == S_IFLNK {
                    if InputPlan.pointsToEnclosingFolder(path) {
                        note(InputProblem(.unreadable, origin: Origin(path: path), line: nil,
                                                     reason: "a symbolic link back to a folder that holds it (a loop), not followed"))
                    } else {
                        pass(path, "a symbolic link to a folder (not followed)")
                    }
                    return
                }
            }
            walk(path, splitSize: splitSize)
        } else if type == S_IFREG {
            addFile(path, size: Int64(st.st_size), splitSize: splitSize)
        } else if explicit {
            // A FIFO or device named on the command line is read as a stream.
            units.append(WorkUnit(kind: .file(path)))
        } else {
            // Inside a folder it could block the run forever (a FIFO nobody writes to).
            let what = type == S_IFIFO ? "a FIFO" : type == S_IFSOCK ? "a socket" : "a device"
            note(InputProblem(.unreadable, origin: Origin(path: path), line: nil,
                                         reason: "\(what) inside a folder is not read (name it on the command line to read it as a stream)"))
        }
    }

    /// Whether the symbolic link `path` leads to the folder it sits in or one around it.
    static func pointsToEnclosingFolder(_ path: String) -> Bool {
        let parent = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = parent.lastIndex(of: "/") else { return false }
        let folder = slash == parent.startIndex ? "/" : String(parent[..<slash])
        guard let target = realpath(path, nil), let here = realpath(folder, nil) else { return false }
        defer { free(target); free(here) }
        let t = String(cString: target), h = String(cString: here)
        return h == t || h.hasPrefix(t == "/" ? "/" : t + "/")
    }

    private mutating func walk(_ folder: String, splitSize: Int64) {
        guard let dir = opendir(folder) else {
            note(InputProblem(.unreadable, origin: Origin(path: folder), line: nil,
                                         reason: "cannot list: \(String(cString: strerror(errno)))"))
            return
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(dir)
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names {
            let path = base + name
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let why = InputReader.skipReason(name: name) {
                pass(path, why)
                continue
            }
            add(path, explicit: false, splitSize: splitSize)
        }
    }

    private mutating func addFile(_ path: String, size: Int64, splitSize: Int64) {
        if size >= min(InputPlan.tarSplitMinimum, splitSize), let members = InputPlan.tarMembers(path: path, size: size) {
            var first = true
            for m in members {
                if let why = InputReader.skipReason(name: m.name) {
                    pass("\(path) (member \(m.name))", why)
                    continue
                }
                units.append(WorkUnit(kind: .tarMember(path, m.range, member: m.name), size: m.range.upperBound - m.range.lowerBound,
                                      startsInput: first))
                first = false
            }
            if first { units.append(WorkUnit(kind: .file(path), size: size)) }  // nothing but skipped members
            return
        }
        guard size > splitSize, let ranges = InputPlan.lineRanges(path: path, size: size, target: splitSize) else {
            units.append(WorkUnit(kind: .file(path), size: size))
            return
        }
        for (i, r) in ranges.enumerated() {
            units.append(WorkUnit(kind: .range(path, r), size: r.upperBound - r.lowerBound, continuesPrevious: i > 0,
                                  startsInput: i == 0))
        }
    }

    /// Uncompressed tars at least this big are read member by member, so
    /// members (per-minute `.json.bz2` files of the stream archives)
    /// decompress on every core.
    static let tarSplitMinimum: Int64 = 1 << 20

    /// Tars with more members than this are read whole, as one stream (a
    /// work unit per member would cost memory per member).
    static let tarSplitMaxMembers = 1_000_000

    /// The regular members of an uncompressed tar with their byte ranges
    /// (header to next header); nil when it is not one, holds fewer than two
    /// members, or cannot be listed (then it is read whole, and its problem
    /// reported there).
    static func tarMembers(path: String, size: Int64) -> [(name: String, range: Range<Int64>)]? {
        guard let file = try? FileSource(path: path), let head = try? file.peek(at: 0, count: 512),
              Magic.detect(head) == .container("tar"),
              let archive = try? ArchiveReader(source: file) else { return nil }
        var starts: [(name: String, start: Int64, regular: Bool)] = []
        var damaged = false
        do {
            while let entry = try archive.nextEntry(damaged: { _ in damaged = true }) {
                starts.append((entry.path, archive.headerPosition, entry.isRegularFile))
                // Millions of members (empty ones, a bomb) are read as one stream, which costs no memory per member.
                if starts.count > tarSplitMaxMembers { return nil }
            }
        } catch {
            return nil  // corrupt: read whole, and reported there
        }
        if damaged { return nil }  // the same
        guard starts.filter(\.regular).count > 1 else { return nil }
        var members: [(name: String, range: Range<Int64>)] = []
        for (i, s) in starts.enumerated() where s.regular {
            let end = i + 1 < starts.count ? starts[i + 1].start : size
            guard end > s.start else { return nil }
            members.append((s.name, s.start..<end))
        }
        return members
    }

    /// Cuts a plain JSON-lines file into ranges of about `target` bytes that
    /// start at line starts; nil when the file is compressed, a container or
    /// not JSON lines (those are read whole).
    static func lineRanges(path: String, size: Int64, target: Int64) -> [Range<Int64>]? {
        guard let file = try? FileSource(path: path) else { return nil }
        guard let head = try? file.peek(at: 0, count: 1 << 16),
              StreamSniffer.kind(of: head, columns: CSVColumns()) == .text else { return nil }
        // Only JSON lines, which start with an object (a CSV export never may be cut).
        guard StreamSniffer.startsWithObject(head) else { return nil }
        var framer = RecordFramer()
        let decided: RecordFramer.Layout = head.withUnsafeBytes { raw in
            _ = framer.next(raw, isEnd: head.count < (1 << 16))
            return framer.layout
        }
        guard decided == .lines else { return nil }
        var ranges: [Range<Int64>] = []
        var start: Int64 = 0
        while start < size {
            var cut = start + target
            if cut >= size {
                ranges.append(start..<size)
                break
            }
            // Move the cut just past the next newline.
            var found = false
            while cut < size, !found {
                guard let chunk = try? file.peek(at: cut, count: 1 << 16), !chunk.isEmpty else { break }
                if let nl = chunk.firstIndex(of: 0x0A) {
                    cut += Int64(nl) + 1
                    found = true
                } else {
                    cut += Int64(chunk.count)
                }
            }
            if !found { cut = size }
            ranges.append(start..<cut)
            start = cut
        }
        return ranges
    }
}
