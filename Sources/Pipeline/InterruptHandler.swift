import Dispatch
import Foundation
import Stages
import Synchronization

/// SIGINT and SIGTERM: stop the workers, say so in one line, exit 130 or 143.
///
/// The workers see the stop flag between records and wind down; a worker
/// blocked in a read (a FIFO with no writer, a stalled pipe) cannot, so a
/// watchdog ends the process within a second whatever it is doing. Nothing
/// half-written is left: a report is written only after a full run, and the
/// store commits whole batches only.
///
/// Once the run is done and its output is being written (`writing(_:)`), a
/// signal removes the temporary file of any output (`OutputFile.abandonAll`:
/// the file at the path stays as it was), says what was not written, and
/// ends the process at once.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let control: RunControl
    /// What a signal leaves unwritten, once the output is being written.
    private let note = Mutex<String?>(nil)

    /// - Parameter unwritten: what a signal during the run leaves undone, for its line on stderr.
    init(control: RunControl, unwritten: String = "no report written") {
        self.control = control
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [control] in
                guard control.interruptingSignal == 0 else { return }
                control.interrupt(signal: sig)
                OutputFile.abandonAll()
                let name = sig == SIGINT ? "SIGINT" : "SIGTERM"
                if let note = self.note.withLock({ $0 }) {
                    Console.writeStderr("smashtag: interrupted by \(name); \(note)\n")
                    _exit(128 + sig)
                }
                Console.writeStderr((isatty(2) == 1 ? "\r\u{1B}[K" : "") + "smashtag: interrupted by \(name); \(unwritten)\n")
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

    /// The run is done and its output is being written: from now on a
    /// signal ends the process at once, saying `note` (what is not written).
    func writing(_ note: String) {
        self.note.withLock { $0 = note }
    }

    /// Back to the default handling (the run is done).
    func cancel() {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
