import Testing
struct PlaceholderCLITests { @Test func nothing() { #expect(1 + 1 == 2) } }
