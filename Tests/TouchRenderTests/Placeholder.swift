import Testing
@Test func renderPlaceholder() { #expect(Bool(true)) }
