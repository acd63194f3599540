import Testing

struct PlaceholderMacroTests { @Test func nothing() { #expect(1 + 1 == 2) } }
