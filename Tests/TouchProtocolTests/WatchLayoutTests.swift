import Testing
import TouchCore
import TouchProtocol

/// The watch page's `/layout` document.
@Suite(.timeLimit(.minutes(10))) struct WatchLayoutTests {
    @Test func eachWindowHasItsPictureOrWhyNot() {
        let windows: [WatchLayout.Window] = [.picture(id: "main", svg: "<svg/>"), .unavailable(id: "w2", error: #"no "pic""#)]
        #expect(String(decoding: WatchLayout.document(windows), as: UTF8.self) == #"{"windows":[{"id":"main","svg":"<svg/>"},{"id":"w2","error":"no \"pic\""}]}"#)
        #expect(String(decoding: WatchLayout.document([]), as: UTF8.self) == #"{"windows":[]}"#)
    }
}
