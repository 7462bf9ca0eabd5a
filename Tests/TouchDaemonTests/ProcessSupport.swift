import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end: its exit status and what it printed.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output's lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// The binaries built beside the test bundle, and the repository they come from.
enum Binaries {
    static var touchd: String { DaemonProcessTests.touchd }
    static let touchctl = URL(fileURLWithPath: DaemonProcessTests.touchd).deletingLastPathComponent().appendingPathComponent("touchctl").path

    static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TouchDaemonTests/ProcessSupport.swift
        return parts.joined(separator: "/")
    }()
}

/// Runs `executable` with `arguments` and waits for it.
/// - Parameters:
///   - directory: its working directory (default: the repository).
///   - mergingErrors: standard error goes into ``ProcessResult/stdout`` too, interleaved as written.
///   - timeout: a program still running after this many seconds is terminated, so that a test fails
///     rather than hangs.
func runToEnd(
    _ executable: String, _ arguments: [String], directory: String = Binaries.repository, mergingErrors: Bool = false,
    timeout: Double? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = mergingErrors ? out : err
    try process.run()
    if let timeout {
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if process.isRunning { process.terminate() } }
    }
    // Standard error is drained beside standard output, so neither pipe can fill and stall the program.
    nonisolated(unsafe) var errors = Data()
    let drained = DispatchGroup()
    if !mergingErrors {
        DispatchQueue.global().async(group: drained) { errors = err.fileHandleForReading.readDataToEndOfFile() }
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self))
}

/// A fresh path under the temporary directory: `touchd-NAME-PID-RANDOM`.
func temporaryPath(_ name: String) -> String {
    NSTemporaryDirectory() + "touchd-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
}
