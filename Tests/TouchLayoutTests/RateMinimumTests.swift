import Testing
import TouchCore

@testable import TouchLayout

/// A rate is 0 (off) or at least its documented minimum: a window's `refresh_hz` of 0.0001 would
/// let one display period gather hours of samples into one message.
@Suite(.timeLimit(.minutes(10))) struct RateMinimumTests {
    static let snippet = "[[window]]\nid = \"w\"\nsize = [1, 1]\nrefresh_hz = VALUE\n"

    func layout(_ value: String) -> String { baseLayout + "\n" + Self.snippet.replacingOccurrences(of: "VALUE", with: value) }

    @Test func aRefreshRateBelowTheMinimumIsRefusedNamingTheAcceptedValues() {
        let line = line(of: "VALUE", in: baseLayout + "\n" + Self.snippet)
        for value in ["0.0001", "1e-300", "9.99"] {
            check(
                singleIssue(layout(value)), kind: .invalidValue, keyPath: "window[1].refresh_hz", line: line,
                mentions: ["is out of range: expected 0 or a finite number from 10 to 1000 (Hz)"])
        }
    }

    @Test func zeroTheMinimumAndTheMaximumAreAccepted() {
        for value in ["0", "0.0", "10", "60", "1000"] {
            #expect(issues(layout(value)).isEmpty, "refresh_hz = \(value)")
        }
        #expect(Limits.minimumRefreshRate == 10)
    }

    @Test func theDomainStillRefusesWhatIsPastIt() {
        for value in ["-1", "1001", "inf", "nan"] {
            #expect(singleIssue(layout(value))?.kind == .invalidValue, "refresh_hz = \(value)")
        }
    }
}
