import Synchronization

/// What all workers of a run share: the stop flag (set by `--strict` on the
/// first problem, or by an interrupt) and the problem that stopped the run.
public final class RunControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let bytes = Atomic<Int64>(0)
    private let tweets = Atomic<Int>(0)
    private let units = Atomic<Int>(0)
    private let interruption = Atomic<Int32>(0)
    private let firstProblem = Mutex<InputProblem?>(nil)
    public let strict: Bool

    public init(strict: Bool) { self.strict = strict }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Under `--strict`, the first problem stops every worker.
    func problemSeen(_ p: InputProblem) {
        guard strict else { return }
        firstProblem.withLock { if $0 == nil { $0 = p } }
        stop()
    }

    /// The problem that stopped a strict run.
    public var stoppingProblem: InputProblem? { firstProblem.withLock { $0 } }

    /// Stops the run because of a signal (SIGINT, SIGTERM).
    public func interrupt(signal: Int32) {
        interruption.store(signal, ordering: .relaxed)
        stop()
    }

    /// The signal that interrupted the run, or 0.
    public var interruptingSignal: Int32 { interruption.load(ordering: .relaxed) }

    // MARK: Live counters, for progress

    func addBytes(_ n: Int) { bytes.wrappingAdd(Int64(n), ordering: .relaxed) }
    func addTweets(_ n: Int) { tweets.wrappingAdd(n, ordering: .relaxed) }
    func unitDone() { units.wrappingAdd(1, ordering: .relaxed) }

    /// Bytes read, tweets decoded and work units finished so far.
    public var progress: (bytes: Int64, tweets: Int, units: Int) {
        (bytes.load(ordering: .relaxed), tweets.load(ordering: .relaxed), units.load(ordering: .relaxed))
    }
}
