import Testing
import TouchCore

@testable import TouchLayout

/// A payload is made the core's JSON value once, at load: tables as objects with their keys in
/// ascending order, dates and times as strings in their TOML spelling, integers as integers.
@Suite(.timeLimit(.minutes(10))) struct PayloadTests {
    @Test func payloadsBecomeJSONValuesWithSortedKeys() throws {
        let document = try load(
            baseLayout + """
                [[handler]]
                responder = "a"
                on = "touches_ended"
                action = "open-door"

                [handler.payload]
                door = 1
                name = "front \\"A\\"\\n"
                ratio = 0.5
                big = 1e300
                whole = 2.0
                flags = [true, false]
                nested = { b = [], a = {} }
                day = 2024-05-01
                at = 07:30:00.25
                """)
        let payload = try #require(document.handlers.first?.payload)
        #expect(
            payload
                == .object([
                    ("at", .string("07:30:00.25")), ("big", .double(1e300)), ("day", .string("2024-05-01")), ("door", .int(1)),
                    ("flags", .array([.bool(true), .bool(false)])), ("name", .string("front \"A\"\n")),
                    ("nested", .object([("a", .object([])), ("b", .array([]))])), ("ratio", .double(0.5)), ("whole", .double(2)),
                ]))
        guard case .object(let members) = payload else { return }
        #expect(members.map(\.0) == ["at", "big", "day", "door", "flags", "name", "nested", "ratio", "whole"])
    }

    @Test func payloadValuesOfAllTOMLKinds() throws {
        let document = try load(
            baseLayout + """
                [[handler]]
                responder = "a"
                on = "touches_began"
                action = "x"
                payload = [1, 2.5, "three", true, [{ four = 4 }], 1979-05-27T00:32:00-07:00]
                """)
        #expect(
            document.handlers.first?.payload
                == .array([
                    .int(1), .double(2.5), .string("three"), .bool(true), .array([.object([("four", .int(4))])]),
                    .string("1979-05-27T00:32:00-07:00"),
                ]))
    }

    @Test func aGesturePayloadIsTheSameValue() throws {
        let document = try load(
            baseLayout + """
                [[gesture]]
                id = "g"
                view = "a"
                kind = "tap"
                payload = { z = 1, a = "x" }
                """)
        #expect(document.gestures.first?.payload == .object([("a", .string("x")), ("z", .int(1))]))
    }

    @Test(arguments: [("-1e301", "-1e+301 is out of range"), ("nan", "nan is not a finite number"), ("-inf", "-inf is not a finite number")])
    func aPayloadFloatIsWithinItsDomain(value: String, reason: String) {
        let text = baseLayout + """
            [[handler]]
            responder = "a"
            on = "touches_began"
            action = "x"
            payload = { list = [1, \(value)] }
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "handler[0].payload.list[1]", line: line(of: "payload", in: text),
            mentions: [reason, "expected \(Limits.payloadNumber)"])
    }
}
