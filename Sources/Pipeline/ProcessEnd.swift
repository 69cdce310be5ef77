/// What a command's last step hands over instead of freeing it: the
/// counts and rows of a large run (hundreds of megabytes of arrays, most of
/// them of strings) take tens of milliseconds to free piece by piece after
/// the output is written, while the process's end gives the memory back
/// at once. Held until `exit`.
enum ProcessEnd {
    /// Touched by the main thread alone: a command runs once per process, on it.
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Keeps `value` alive until the process exits (main thread only).
    static func keep(_ value: Any) { kept.append(value) }
}
