// Children run through posix_spawn and are reaped with wait4, so each run's
// wall time and peak RSS (ru_maxrss of that child alone) are measured.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ChildResult {
    var seconds: Double
    var cpuSeconds: Double     // user + system
    var maxRSSKiB: Int
    var exitStatus: Int32      // the exit code, or 128 + signal
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Runs argv[0] (searched on PATH) with stdin from /dev/null and stdout and
/// stderr to the given files.
func spawnMeasured(_ argv: [String], stdout: String, stderr: String) -> ChildResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    let cEnv: [UnsafeMutablePointer<CChar>?] =
        ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for p in cArgs { free(p) }
        for p in cEnv { free(p) }
    }
    var pid = pid_t()
    let start = monotonicSeconds()
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, cArgs, cEnv)
    guard rc == 0 else {
        FileHandle.standardError.write(Data("bench: cannot run \(argv[0]): \(String(cString: strerror(rc)))\n".utf8))
        return ChildResult(seconds: 0, cpuSeconds: 0, maxRSSKiB: 0, exitStatus: 127)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = monotonicSeconds() - start
    let signal = status & 0x7F
    let code: Int32 = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    return ChildResult(seconds: seconds, cpuSeconds: cpu, maxRSSKiB: Int(usage.ru_maxrss), exitStatus: code)
}

/// Runs a shell command line and returns its standard output (trimmed), or
/// nil when it fails.
func shellOutput(_ command: String) -> String? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do { try p.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs a shell command line, stdout and stderr inherited; true on exit 0.
func shell(_ command: String) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
}

func shellQuote(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("smashtag-bench: \(message)\n".utf8))
    exit(1)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Reads every file at `path` (a folder: every file below it) once, so a
/// timed run finds its input in the page cache whatever was evicted since.
func prefetch(_ path: String) {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return }
    if isDir.boolValue {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { prefetch(path + "/" + name) }
        return
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
    defer { buffer.deallocate() }
    while read(fd, buffer, 1 << 20) > 0 {}
}

/// Microseconds some task spent waiting for a CPU, machine-wide (PSI), or nil.
func cpuPressureMicros() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
          let some = text.split(separator: "\n").first(where: { $0.hasPrefix("some") }),
          let total = some.split(separator: " ").first(where: { $0.hasPrefix("total=") })
    else { return nil }
    return Double(total.dropFirst(6))
}
