import Dispatch
import Foundation
import Stages

/// SIGINT and SIGTERM: stop the workers, say so in one line, exit 130 or 143.
///
/// The workers see the stop flag between records and wind down; a worker
/// blocked in a read (a FIFO with no writer, a stalled pipe) cannot, so a
/// watchdog ends the process within a second whatever it is doing. Nothing
/// half-written is left: a report is written only after a full run, and the
/// store commits whole batches only.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let control: RunControl

    init(control: RunControl) {
        self.control = control
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [control] in
                guard control.interruptingSignal == 0 else { return }
                control.interrupt(signal: sig)
                Console.writeStderr((isatty(2) == 1 ? "\r\u{1B}[K" : "") + "smashtag: interrupted by \(sig == SIGINT ? "SIGINT" : "SIGTERM"); no report written\n")
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.8) { _exit(128 + sig) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The exit status when the run was interrupted.
    func exitStatus() -> Int32? {
        let sig = control.interruptingSignal
        return sig == 0 ? nil : 128 + sig
    }

    /// Back to the default handling (the run is done).
    func cancel() {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
