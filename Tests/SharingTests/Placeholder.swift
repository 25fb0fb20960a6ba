import Testing
@Test func sharingPlaceholder() { #expect(Bool(true)) }
