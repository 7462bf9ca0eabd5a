import Testing
import TouchCore
import TouchProtocol

/// The requests `touchctl` sends: members in the order written, the connection's id last, and
/// checked as touchd checks them.
@Suite(.timeLimit(.minutes(10))) struct ClientRequestTests {
    static func text(_ request: ClientRequest, id: Int64 = 1) -> String { String(decoding: request.line(id: id), as: UTF8.self) }

    @Test func eachRequestIsOneLineWithItsIdLast() {
        #expect(Self.text(.ping, id: 7) == #"{"cmd":"ping","id":7}"# + "\n")
        #expect(
            Self.text(.subscribe(topics: ["hits", "touches"], views: ["a", "b*"], actions: ["x"]))
                == #"{"cmd":"subscribe","topics":["hits","touches"],"views":["a","b*"],"actions":["x"],"id":1}"# + "\n")
        #expect(Self.text(.hitTest(x: 10.5, y: 20, window: nil)) == #"{"cmd":"hit_test","x":10.5,"y":20,"id":1}"# + "\n")
        #expect(Self.text(.snapshot(window: "w", heatmap: true)) == #"{"cmd":"snapshot","heatmap":true,"window":"w","id":1}"# + "\n")
        #expect(Self.text(.snapshot(window: "w", touches: false)) == #"{"cmd":"snapshot","window":"w","touches":false,"id":1}"# + "\n")
        #expect(
            Self.text(.calibrate(device: "d", targets: [Point(x: 1, y: 2), Point(x: 3.5, y: 4)]))
                == #"{"cmd":"calibrate","device":"d","targets":[[1,2],[3.5,4]],"id":1}"# + "\n")
        #expect(Self.text(.calibrate(device: nil, targets: [])) == #"{"cmd":"calibrate","id":1}"# + "\n")
        #expect(Self.text(.calibrationPoint(sample: .int(7), target: 0), id: 2) == #"{"cmd":"calibration_point","sample":7,"target":0,"id":2}"# + "\n")
        #expect(Self.text(.record(device: nil)) == #"{"cmd":"record","id":1}"# + "\n")
        #expect(Self.text(.firstResponder("r", resign: true)) == #"{"cmd":"resign_first_responder","responder":"r","id":1}"# + "\n")
        #expect(
            Self.text(.setControl(view: "v", value: .bool(true), enabled: false))
                == #"{"cmd":"set_control","view":"v","value":true,"enabled":false,"id":1}"# + "\n")
    }

    @Test func translateRotateAndScaleAreTheViewsTransformLast() {
        let properties: [(String, ClientRequest.Value)] = [
            ("translate", .numbers([1, 2])), ("hidden", .bool(true)), ("rotate", .number(30)), ("frame", .numbers([1, 2, 3, 4])),
        ]
        #expect(
            Self.text(.set(view: "v", properties: properties))
                == #"{"cmd":"set","view":"v","properties":{"hidden":true,"frame":[1,2,3,4],"transform":{"translate":[1,2],"rotate":30}},"id":1}"#
                + "\n")
        #expect(
            Self.text(.addView("n", parent: "p", properties: [("frame", .numbers([0, 0, 10, 10]))], keep: true))
                == #"{"cmd":"add_view","view":"n","parent":"p","properties":{"frame":[0,0,10,10]},"keep":true,"id":1}"# + "\n")
    }

    @Test func aRequestIsCheckedAsTouchdChecksIt() {
        #expect(ClientRequest.hitTest(x: 1, y: 2, window: nil).problem == nil)
        #expect(ClientRequest.hitTest(x: 1e20, y: 2, window: nil).problem == #""x": expected a finite number from -1000000 to 1000000 (points)"#)
        #expect(ClientRequest.set(view: "v", properties: [("alpha", .number(5))]).problem == #""properties.alpha": expected a finite number from 0 to 1"#)
    }
}
