import Testing
@testable import Logbook
struct LogFormatTests { @Test func magicSpellsLBK1() { #expect(LogFormat.magic == 0x314B_424C) } }
