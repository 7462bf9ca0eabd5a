import CFuzzSupport
import TouchFuzzing
import TouchSystem


#if TOUCHD_LIBFUZZER
// Built by scripts/fuzz.sh with `-sanitize=fuzzer,address -D TOUCHD_LIBFUZZER`: libFuzzer's driver
// runs the inputs. The target is `$TOUCHD_FUZZ_TARGET`.

nonisolated(unsafe) private var selected: FuzzTarget = .request

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = ProcessContext.environment("TOUCHD_FUZZ_TARGET") ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FuzzEntry.fail("TOUCHD_FUZZ_TARGET=\(name): expected one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        ProcessContext.exit(2)
    }
    selected = target
    return 0
}

/// The executable's entry point (the package manager names an executable's `main` after its
/// module): libFuzzer's driver, with the command line.
@_cdecl("touchd_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, Int(bitPattern: size)) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do throws(FuzzViolation) {
        try selected.run(bytes)
    } catch {
        FuzzEntry.fail("\(selected.rawValue): \(error)")
        ProcessContext.abort()
    }
    return 0
}
#else
/// Without libFuzzer: runs files through a target, as the fuzzer would (`touchd-fuzz TARGET FILE...`),
/// for reproducing a finding under a debugger or in a plain build.
@main
struct FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FuzzEntry.fail("usage: touchd-fuzz TARGET FILE... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            ProcessContext.exit(2)
        }
        var failed = false
        for path in arguments.dropFirst() {
            switch FuzzCorpus.replay(path, through: target) {
            case .success: print("ok \(path)")
            case .failure(let error):
                FuzzEntry.fail("\(path): \(error)")
                failed = true
            }
        }
        ProcessContext.exit(failed ? 1 : 0)
    }
}
#endif

enum FuzzEntry {
    static func fail(_ text: String) {
        var standardError = StandardError()
        print("touchd-fuzz: \(text)", to: &standardError)
    }
}
