import Dispatch
import Foundation
import Stages

/// Live progress on standard error while inputs are read.
///
/// `terminal`: one line redrawn at most ten times a second and erased at the
/// end (only when stderr is a terminal). `plain`: a line every few seconds,
/// for logs. Both read the run's atomic counters from a timer; the workers
/// never wait for the display.
final class ProgressDisplay: @unchecked Sendable {
    enum Mode: String {
        case auto, terminal, plain, off

        /// The value of `--progress[=MODE]` (terminal when none is given).
        static func parse(_ a: inout ArgumentReader) throws(UsageError) -> Mode {
            let v = a.optionalValue(among: ["terminal", "plain", "off"]) ?? "terminal"
            guard let m = Mode(rawValue: v), m != .auto else {
                throw UsageError("--progress takes plain, terminal or off, as in --progress=plain, not '\(v)'")
            }
            return m
        }
    }

    private let control: RunControl
    private let total: Int64?
    private let unitCount: Int
    private let mode: Mode
    private let started = DispatchTime.now()
    private var timer: DispatchSourceTimer?
    private let queue = DispatchQueue(label: "smashtag.progress")
    private var drawn = false

    /// - Parameters:
    ///   - total: bytes to read, when every input's size is known.
    init(control: RunControl, total: Int64?, units: Int, mode: Mode) {
        self.control = control
        self.total = total
        unitCount = units
        self.mode = mode
    }

    func start() {
        guard mode == .terminal || mode == .plain else { return }
        let t = DispatchSource.makeTimerSource(queue: queue)
        let interval: DispatchTimeInterval = mode == .terminal ? .milliseconds(100) : .seconds(5)
        t.schedule(deadline: .now() + interval, repeating: interval)
        t.setEventHandler { [weak self] in self?.draw() }
        timer = t
        t.resume()
    }

    /// Stops redrawing and erases the line.
    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if drawn && mode == .terminal { Console.writeStderr("\r\u{1B}[K") }
            drawn = false
        }
    }

    private func draw() {
        let p = control.progress
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let line = ProgressDisplay.line(bytes: p.bytes, total: total, tweets: p.tweets, units: p.units,
                                        unitCount: unitCount, elapsed: elapsed)
        if mode == .terminal {
            let width = max(20, Console.stderrWidth() - 1)
            Console.writeStderr("\r" + String(line.prefix(width)) + "\u{1B}[K")
            drawn = true
        } else {
            Console.writeStderr("smashtag: " + line + "\n")
        }
    }

    /// `412.0 MB of 1.2 GB (34%) · 820 MB/s · 3/9 inputs · 101,223 tweets · ETA 1s`
    static func line(bytes: Int64, total: Int64?, tweets: Int, units: Int, unitCount: Int, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(bytes) / elapsed : 0
        var parts: [String] = []
        if let total, total > 0 {
            let pct = min(100, Int(Double(bytes) * 100 / Double(total)))
            parts.append("\(megabytes(bytes)) of \(megabytes(total)) (\(pct)%)")
        } else {
            parts.append(megabytes(bytes))
        }
        parts.append("\(megabytes(Int64(rate)))/s")
        parts.append("\(units)/\(unitCount) inputs")
        parts.append("\(TableRenderer.grouped(tweets)) tweets")
        if let total, rate > 0, bytes < total {
            parts.append("ETA \(duration(Double(total - bytes) / rate))")
        }
        return parts.joined(separator: " · ")
    }

    static func megabytes(_ n: Int64) -> String {
        n >= 1_000_000_000 ? String(format: "%.1f GB", Double(n) / 1e9) : String(format: "%.1f MB", Double(n) / 1e6)
    }

    static func duration(_ s: Double) -> String {
        if s < 60 { return "\(Int(s.rounded(.up)))s" }
        if s < 3600 { return "\(Int(s) / 60)m\(Int(s) % 60)s" }
        return "\(Int(s) / 3600)h\(Int(s) % 3600 / 60)m"
    }
}
