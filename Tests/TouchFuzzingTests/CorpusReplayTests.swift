import Foundation
import Testing
import TouchFuzzing

/// Every committed fuzzing input, seeds and regressions, replayed through its target on every
/// test run: a bug a fuzzer once found stays found.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CorpusReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [String] {
        FuzzCorpus.files(in: root.appendingPathComponent("Fuzz/\(kind)/\(target.rawValue)").path)
    }

    @Test(arguments: FuzzTarget.allCases) func theSeedCorpusPasses(_ target: FuzzTarget) {
        let files = Self.inputs("corpus", target)
        #expect(!files.isEmpty, "Fuzz/corpus/\(target.rawValue) has seeds")
        replay(files, target)
    }

    @Test(arguments: FuzzTarget.allCases) func everyRegressionPasses(_ target: FuzzTarget) {
        replay(Self.inputs("regressions", target), target)
    }

    private func replay(_ files: [String], _ target: FuzzTarget) {
        setenv("TOUCHD_FUZZ_CONFIG", Self.root.appendingPathComponent("config").path, 1)
        for file in files {
            if case .failure(let violation) = FuzzCorpus.replay(file, through: target) {
                Issue.record("\(file): \(violation)")
            }
        }
    }
}
