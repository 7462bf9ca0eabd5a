import Testing

@testable import TouchLayout

@Suite struct PayloadTests {
    @Test func payloadsRenderAsCompactJSONWithSortedKeys() throws {
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
            payload.jsonText
                == #"{"at":"07:30:00.25","big":1e+300,"day":"2024-05-01","door":1,"flags":[true,false],"name":"front \"A\"\n","nested":{"a":{},"b":[]},"ratio":0.5,"whole":2.0}"#
        )
        #expect(payload.sortedEntries.map(\.key) == ["at", "big", "day", "door", "flags", "name", "nested", "ratio", "whole"])
        #expect(payload["door"] == .integer(1))
    }

    @Test func payloadsRoundTripThroughJSON() throws {
        let values: [PayloadValue] = [
            .string(""), .string("tab\there \u{1} \u{7F} é 🎉 \\ / \""), .integer(0), .integer(Int64.min),
            .integer(Int64.max), .double(0.1), .double(-2.5e-8), .double(1e21), .double(3), .double(-0.0),
            .bool(true), .bool(false), .array([]), .table([:]),
            .table(["z": .array([.integer(1), .double(1), .string("1")]), "a": .table(["deep": .bool(false)])]),
        ]
        for value in values {
            let text = value.jsonText
            let back = try PayloadValue(jsonText: text)
            #expect(back == value, "\(text)")
            #expect(back.jsonText == text)
        }
    }

    @Test func payloadValuesOfAllTOMLKindsRoundTrip() throws {
        let document = try load(
            baseLayout + """
                [[handler]]
                responder = "a"
                on = "touches_began"
                action = "x"
                payload = [1, 2.5, "three", true, [{ four = 4 }], 1979-05-27T00:32:00-07:00]
                """)
        let payload = try #require(document.handlers.first?.payload)
        #expect(try PayloadValue(jsonText: payload.jsonText) == payload)
        #expect(payload.jsonText == #"[1,2.5,"three",true,[{"four":4}],"1979-05-27T00:32:00-07:00"]"#)
    }

    @Test func jsonReadingAcceptsWhitespaceAndEscapes() throws {
        let value = try PayloadValue(jsonText: " { \"a\" : [ 1 , -2.0E1 , \"\\u00e9\\ud83c\\udf89\\/\" ] } ")
        #expect(value == .table(["a": .array([.integer(1), .double(-20), .string("é🎉/")])]))
    }

    @Test func jsonReadingRejectsWhatIsNoPayload() {
        for text in ["", "null", "[1,]", "{\"a\" 1}", "01x", "\"\\ud800\"", "[1] 2", "1e999", String(repeating: "[", count: 600)] {
            #expect(throws: PayloadJSONError.self, "\(text)") { try PayloadValue(jsonText: text) }
        }
    }
}
