import Dispatch
import Foundation

/// Rows from which sorting or writing a report's parts on the cores side by
/// side pays for handing them out.
let parallelReportRows = 4096

/// Chunks to cut `rows` rows into for `parallelMap`: one a core (each may
/// keep caches as large as the run's keys), none below `parallelReportRows`.
func parallelChunks(_ rows: Int) -> Int {
    max(1, min(rows / parallelReportRows, ProcessInfo.processInfo.activeProcessorCount))
}

/// `(0..<count).map(body)` with the calls spread over the cores, for the
/// end of a run, when the workers are done and one thread would otherwise
/// sort and write every term's rows alone. `body` must only read what the
/// calls share; the results come back in index order, so the output does
/// not depend on how the calls were spread.
func parallelMap<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
    guard count > 1 else { return (0..<count).map(body) }
    return withoutActuallyEscaping(body) { body in
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let shared = UncheckedBox((body, results))
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let (body, results) = shared.value
            results[i] = body(i)
        }
        return results.map { $0! }
    }
}
