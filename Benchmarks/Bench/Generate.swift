// `smashtag-bench generate`: stream.jsonl of about N MB, then the same lines
// as 8 .jsonl.gz files, one .zst, and a tar of 16 .json.bz2 members (the
// public stream archives' layout), through the gzip, zstd, bzip2 and tar CLIs.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered, write-only file.
final class Sink {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(_ path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(1 << 21)
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        buffer.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; fail("write: \(String(cString: strerror(errno)))") }
                off += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() { flush(); _ = Glibc.close(fd) }
}

/// Shell command lines run by worker threads as they are queued; workers can
/// be added while it runs (one during generation, a second afterwards).
final class JobQueue: @unchecked Sendable {
    private let cond = NSCondition()
    private var jobs: [String] = []
    private var closed = false
    private var running = 0
    private var failed: [String] = []

    func add(_ command: String) { cond.lock(); jobs.append(command); cond.signal(); cond.unlock() }

    func startWorker() {
        cond.lock(); running += 1; cond.unlock()
        Thread.detachNewThread { [self] in
            while true {
                cond.lock()
                while jobs.isEmpty && !closed { cond.wait() }
                if jobs.isEmpty {
                    running -= 1; cond.broadcast(); cond.unlock()
                    return
                }
                let c = jobs.removeFirst()
                cond.unlock()
                if !shell(c) { cond.lock(); failed.append(c); cond.unlock() }
            }
        }
    }

    /// Closes the queue, waits for every job; the commands that failed.
    func finish() -> [String] {
        cond.lock()
        closed = true
        cond.broadcast()
        while running > 0 { cond.wait() }
        defer { cond.unlock() }
        return failed
    }
}

func generate(out: String, mb: Int, seed: UInt64) {
    let fm = FileManager.default
    let chunks = out + "/.chunks", split = out + "/split", tarRoot = out + "/.tar"
    let memberDir = "stream/2026/11/29/00"
    for d in [out, chunks, split, tarRoot + "/" + memberDir] {
        do { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) } catch {
            fail("cannot create \(d): \(error)")
        }
    }
    try? fm.removeItem(atPath: out + "/DONE")
    let t0 = monotonicSeconds()

    // Each finished chunk is compressed by a worker while the next one is
    // generated: bzip2 for the tar's members, gzip for each pair of chunks.
    let queue = JobQueue()
    queue.startWorker()
    func chunkPath(_ i: Int) -> String { chunks + String(format: "/%02d.jsonl", i) }
    func compress(_ i: Int) {
        queue.add("/usr/bin/bzip2 -9 -c \(shellQuote(chunkPath(i))) > "
                  + shellQuote(tarRoot + "/" + memberDir + String(format: "/%02d.json.bz2", i)))
        if i % 2 == 1 {
            queue.add("cat \(shellQuote(chunkPath(i - 1))) \(shellQuote(chunkPath(i))) | /usr/bin/gzip -6 -n > "
                      + shellQuote(split + "/part-\(i / 2).jsonl.gz"))
        }
    }

    var g = Generator(seed: seed)
    var dupRng = Rng(seed: seed ^ 0xD0_0B1E)
    let target = mb * 1_000_000
    let stream = Sink(out + "/stream.jsonl")
    var chunk = 0
    var chunkSink = Sink(chunks + "/00.jsonl")
    var written = 0
    var counts = (lines: 0, tweets: 0, retweets: 0, deletes: 0, limits: 0, duplicates: 0)
    var recent: [[UInt8]] = []
    var fnv = FNV1a()
    while written < target {
        var o = JSONOut()
        if !recent.isEmpty && dupRng.chance(0.002) {
            // the same status twice, as a reconnecting collector writes it
            o.bytes = recent[dupRng.below(recent.count)]
            counts.duplicates += 1
        } else {
            switch g.line(into: &o) {
            case .tweet: counts.tweets += 1
            case .retweet: counts.retweets += 1
            case .delete: counts.deletes += 1
            case .limit: counts.limits += 1
            }
            if o.bytes.first == UInt8(ascii: "{") && o.bytes.count > 200 {
                if recent.count == 64 { recent.remove(at: dupRng.below(64)) }
                recent.append(o.bytes)
            }
        }
        o.bytes.withUnsafeBytes { fnv.add($0) }
        stream.write(o.bytes)
        chunkSink.write(o.bytes)
        written += o.bytes.count
        counts.lines += 1
        if chunk < 15 && written >= (chunk + 1) * target / 16 {
            chunkSink.close()
            compress(chunk)
            chunk += 1
            chunkSink = Sink(chunks + String(format: "/%02d.jsonl", chunk))
        }
    }
    stream.close()
    chunkSink.close()
    compress(chunk)
    let t1 = monotonicSeconds()
    note(String(format: "generated %d lines, %.1f MB (avg %.0f B/line) in %.1f s",
                counts.lines, Double(written) / 1e6, Double(written) / Double(counts.lines), t1 - t0))

    queue.add("/usr/bin/zstd -q -f -3 \(shellQuote(out + "/stream.jsonl")) -o \(shellQuote(out + "/stream.jsonl.zst"))")
    queue.add(oneGzipCommand(out))
    queue.startWorker()
    let failed = queue.finish()
    for c in failed { note("failed: \(c)") }
    guard failed.isEmpty else { fail("compressing failed") }
    guard shell("tar --sort=name --mtime=@1795910400 --owner=0 --group=0 --numeric-owner -cf "
                + "\(shellQuote(out + "/members.tar")) -C \(shellQuote(tarRoot)) stream")
    else { fail("tar failed") }
    try? fm.removeItem(atPath: chunks)
    try? fm.removeItem(atPath: tarRoot)
    let t2 = monotonicSeconds()
    note(String(format: "compressed copies done %.1f s after that", t2 - t1))

    let fingerprint = String(fnv.value, radix: 16)
    let manifest = """
        mb=\(mb)
        format=2
        seed=\(seed)
        bytes=\(written)
        lines=\(counts.lines)
        tweets=\(counts.tweets)
        retweets=\(counts.retweets)
        deletes=\(counts.deletes)
        limits=\(counts.limits)
        duplicates=\(counts.duplicates)
        fnv1a64=\(fingerprint)

        """
    _ = fm.createFile(atPath: out + "/DONE", contents: Data(manifest.utf8))
    print(manifest, terminator: "")
}

/// The command that makes `stream.jsonl.gz`: the whole stream as one gzip
/// member, as a collector that compresses its one output file writes it.
func oneGzipCommand(_ dir: String) -> String {
    "/usr/bin/gzip -6 -n -c \(shellQuote(dir + "/stream.jsonl")) > \(shellQuote(dir + "/stream.jsonl.gz"))"
}
